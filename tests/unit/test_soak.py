"""`pytfweb soak` on cpu: a short run keeps tensors and bytes flat after the warm-up; the check
it makes fails on growth."""
import io
import json

from pytfweb.cli import main
from pytfweb.host import soak


def _summary(text):
    line = next(ln for ln in text.splitlines() if ln.startswith("pytfweb soak: {"))
    return json.loads(line[len("pytfweb soak: "):])


def test_short_soak_on_cpu_is_flat():
    out = io.StringIO()
    assert soak.run_cpu(240, every=30, out=out) == 0, out.getvalue()
    s = _summary(out.getvalue())
    assert s["final"]["iteration"] == 240 and s["baseline"]["iteration"] == 30
    assert s["final"]["tensors"] == s["baseline"]["tensors"] > 0
    assert s["final"]["bytes"] == s["baseline"]["bytes"]
    assert "OK" in out.getvalue().splitlines()[-1]


def test_check_fails_on_growth():
    base = {"tensors": 10, "bytes": 400, "textures": 100, "js_heap": 10 << 20, "py_objects": 30000}
    assert soak.check(base, dict(base)) == []
    grown = dict(base, tensors=11, bytes=404, textures=200, js_heap=20 << 20)
    failures = soak.check(base, grown)
    assert len(failures) == 4, failures
    assert any(f.startswith("tensors went from 10") for f in failures)


def test_cli_soak_cpu(capsys):
    assert main(["soak", "--backend", "cpu", "--iterations", "12", "--every", "3"]) == 0
    text = capsys.readouterr().out
    assert text.count("loss") == 4 + 2   # four rows, baseline and final in the summary
