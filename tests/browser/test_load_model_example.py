"""examples/load_model.py: MobileNet v1 saved by pytfweb in TF.js's layers format (by
examples/save_mobilenet.py, in CPython) loads on webgl over http:// through `pytfweb run --files`,
and predicts what the cpu backend predicts from the same files read from disk."""
import re
import subprocess
import sys

from tests.browser.test_examples import REPO, _pytfweb_cmd


def _run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
    assert r.returncode == 0, f"exit {r.returncode}\n{r.stdout}\n{r.stderr}"
    return r.stdout


def _top5(out):
    rows = re.findall(r"^  \d\. class +(\d+)  p=(\S+)$", out, re.M)
    assert len(rows) == 5, out
    return [(int(c), float(p)) for c, p in rows]


def test_mobilenet_saved_here_loads_on_webgl_over_http(tmp_path):
    saved = _run([sys.executable, str(REPO / "examples" / "save_mobilenet.py"), str(tmp_path / "mobilenet_v1")])
    assert "4,253,864 parameters" in saved and "17,015,456 bytes of weights" in saved and "in 5 shards" in saved, saved
    webgl = _run(_pytfweb_cmd() + ["run", "--files", str(tmp_path), str(REPO / "examples" / "load_model.py")])
    assert webgl.startswith("backend: webgl\n"), webgl
    assert re.search(r"^loaded files/mobilenet_v1/model.json: 92 layers, 4,253,864 parameters, in \S+ s "
                     r"\((\d+) progress reports\)", webgl, re.M), webgl
    assert webgl.rstrip().endswith("tensors left: 0"), webgl
    cpu = _run(_pytfweb_cmd() + ["run", "--backend", "cpu", str(REPO / "examples" / "load_model.py"),
                                 str(tmp_path / "mobilenet_v1")])
    ours, ref = _top5(webgl), _top5(cpu)
    # Same classes (random weights make close calls possible further down, not at the top) and the
    # same probabilities within float32 GPU arithmetic.
    assert ours[0][0] == ref[0][0], (webgl, cpu)
    assert len({c for c, _ in ours} & {c for c, _ in ref}) >= 4, (webgl, cpu)
    assert abs(ours[0][1] - ref[0][1]) <= 1e-3 * ref[0][1] + 1e-6, (webgl, cpu)
