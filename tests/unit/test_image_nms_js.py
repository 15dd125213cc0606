"""The page's hard non-max suppression (kernels/nms.py _HARD_NMS_JS, run where Pyodide runs the
kernels) against the pure-Python one every backend runs elsewhere: the JS is run here under node on
the same boxes and scores, and must select the same indices."""
import json
import random
import shutil
import subprocess

import pytest

from pytfweb.kernels import nms


def _cases():
    rng = random.Random(5)
    cases = []
    for n in (0, 1, 2, 7, 40, 300):
        for grid in (False, True):
            boxes, scores = [], []
            for _ in range(n):
                if grid:   # many equal scores and identical or touching boxes
                    y, x = rng.randrange(4) * 0.25, rng.randrange(4) * 0.25
                    boxes += [y, x, y + 0.25, x + 0.25] if rng.random() < 0.8 else [y + 0.25, x, y, x + 0.25]
                    scores.append(rng.choice([0.1, 0.5, 0.9]))
                else:
                    y0, x0, y1, x1 = (rng.random() for _ in range(4))
                    boxes += [y0, x0, y1, x1] if rng.random() < 0.9 else [y0, x0, y0, x1]   # some empty
                    scores.append(rng.random() if rng.random() < 0.95 else float("nan"))
            for max_out, iou, thr in ((5, 0.5, 0.0), (n + 3, 0.3, 0.4), (1, 0.0, -1.0), (20, 1.0, 0.2)):
                cases.append((boxes, scores, max_out, iou, thr))
    return cases


def test_the_pages_javascript_nms_selects_what_python_selects():
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is needed (make installs it with the npm packages)")
    cases = _cases()
    # JSON has no NaN: scores travel as null and become NaN in JS
    payload = json.dumps([[b, [None if s != s else s for s in sc], m, i, t] for b, sc, m, i, t in cases])
    script = (f"const nms = {nms._HARD_NMS_JS};\n"
              "const cases = JSON.parse(require('fs').readFileSync(0, 'utf8'));\n"
              "console.log(JSON.stringify(cases.map(([b, s, m, i, t]) => "
              "Array.from(nms(Float64Array.from(b), Float64Array.from(s.map((v) => v === null ? NaN : v)), m, i, t)))));")
    out = subprocess.run([node, "-e", script], input=payload, capture_output=True, text=True, check=True)
    got = json.loads(out.stdout)
    assert len(got) == len(cases)
    for (boxes, scores, max_out, iou, thr), js_selected in zip(cases, got):
        want, _, _ = nms.non_max_suppression_impl(boxes, scores, max_out, iou, thr)
        assert js_selected == want, (len(scores), max_out, iou, thr)
