"""The import rules of the floors above ops (docs/ARCHITECTURE.md §1), as import-linter contracts
(tests/contracts/floors.ini): layers, train, io, converter, vis and tf.data use api.py and ops, not
the engine, the kernel registry or backends; layers do not import io.keras; the io router imports
no handler; train sits below layers, io.keras above them. Imports inside functions count."""
import os
import pathlib
import shutil
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_floor_import_contracts_hold():
    exe = shutil.which("lint-imports", path=str(pathlib.Path(sys.executable).parent)) or shutil.which("lint-imports")
    if exe is None:
        pytest.skip("import-linter is not installed (pip install import-linter)")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run([exe, "--no-cache", str(ROOT / "tests" / "contracts" / "floors.ini")], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-2000:]
    assert "0 broken" in out.stdout
