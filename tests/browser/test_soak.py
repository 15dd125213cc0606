"""A short soak on webgl in the session's page: 300 training steps (convnet fit, MLP fit, tidy
minimize in turn); after a warm-up, tensors and bytes stay exactly flat, and the textures (in use
and recycled), the JS heap (CDP Runtime.getHeapUsage after a collection) and the Python objects
stay within pytfweb.host.soak's bounds. Also `pytfweb soak --backend webgl` as a command, briefly."""
import json
import subprocess
import sys

from pytfweb.host import soak

SETUP = """
from pytfweb.host.soak import Soak
import builtins
builtins._test_soak = Soak()
"""


def test_short_soak_on_webgl_is_flat(page_harness):
    run = page_harness.run
    cdp = page_harness.page.context.new_cdp_session(page_harness.page)
    before = run("tf.memory().num_tensors")
    run(SETUP)
    try:
        rows = []
        for _ in range(10):
            loss = run("import builtins\nawait builtins._test_soak.steps(30)")
            f = run("import builtins\nbuiltins._test_soak.figures()")
            cdp.send("HeapProfiler.collectGarbage")
            f["js_heap"] = cdp.send("Runtime.getHeapUsage")["usedSize"]
            assert loss == loss and loss < 5, loss   # a number, training not diverging
            rows.append(f)
    finally:
        run("import builtins\nbuiltins._test_soak.dispose()\ndel builtins._test_soak")
    baseline, final = rows[0], rows[-1]
    assert final["iteration"] == 300
    assert all(r["tensors"] == baseline["tensors"] and r["bytes"] == baseline["bytes"] for r in rows), rows
    assert soak.check(baseline, final) == [], (baseline, final)
    assert final["textures_in_use"] == baseline["textures_in_use"]
    assert run("tf.memory().num_tensors") == before


def test_soak_command_on_webgl():
    proc = subprocess.run([sys.executable, "-m", "pytfweb.cli", "soak", "--backend", "webgl", "--iterations", "30",
                           "--every", "10"], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    line = next(ln for ln in proc.stdout.splitlines() if ln.startswith("pytfweb soak: {"))
    summary = json.loads(line[len("pytfweb soak: "):])
    assert summary["final"]["tensors"] == summary["baseline"]["tensors"]
    assert summary["final"]["js_heap"] > 0 and summary["final"]["textures"] > 0
