"""The `pytfweb` command's entry points: the console script's main and `python -m pytfweb`."""
import subprocess
import sys
from pathlib import Path

import pytest

from pytfweb import cli

REPO = Path(__file__).resolve().parents[2]


def test_python_m_pytfweb_is_the_command():
    r = subprocess.run([sys.executable, "-m", "pytfweb", "--help"], cwd=REPO, capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("usage: pytfweb ")
    for command in ("run", "serve", "build-web", "repl", "bench", "convert"):
        assert command in r.stdout
    r = subprocess.run([sys.executable, "-m", "pytfweb", "no-such-command"], cwd=REPO, capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 2 and "invalid choice: 'no-such-command'" in r.stderr


def test_main_rejects_a_bad_port(capsys):
    with pytest.raises(SystemExit) as e:
        cli.main(["serve", "--port", "70000"])
    assert e.value.code == 2
    assert "expected a port number from 0 to 65535" in capsys.readouterr().err
