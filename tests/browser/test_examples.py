"""Training on webgl: the two optimizer examples through `pytfweb run` (headless Chromium), and
Adam in the test page against the same run on the cpu backend here."""
import base64
import re
import subprocess
import sys
from pathlib import Path

import numpy as np

import pytfweb as tf

from .conftest import BACKEND
from .test_web_site import KEYPOINT_RGB, NOSE, decode_png, near

REPO = Path(__file__).resolve().parents[2]


def _pytfweb_cmd():
    # python -m from the checkout's root: this checkout's pytfweb, whatever the venv's console script points at
    return [sys.executable, "-m", "pytfweb"]


def _run_example(name):
    r = subprocess.run(_pytfweb_cmd() + ["run", str(REPO / "examples" / name)], cwd=REPO,
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, f"exit {r.returncode}\n{r.stdout}\n{r.stderr}"
    assert r.stdout.startswith("backend: webgl\n"), r.stdout
    assert r.stdout.rstrip().endswith("tensors left: 0"), r.stdout
    return r.stdout


def _number(pattern, text):
    m = re.search(pattern, text, re.M)
    assert m, f"{pattern!r} not in:\n{text}"
    return float(m.group(1))


def test_fit_linear_example_learns_2x_minus_1():
    out = _run_example("fit_linear.py")
    losses = [float(v) for v in re.findall(r"^step +\d+ +loss (\S+)$", out, re.M)]
    assert len(losses) == 4 and losses == sorted(losses, reverse=True) and losses[-1] < 1e-6, out
    a = _number(r"^a = (\S+), b = ", out)
    b = _number(r"^a = \S+, b = (\S+) ", out)
    assert abs(a - 2) < 1e-3 and abs(b + 1) < 1e-3, out
    assert abs(_number(r"^prediction for x = 10: (\S+) ", out) - 19) < 1e-2, out


def test_multiplier_example_learns_the_multiplier():
    out = _run_example("multiplier.py")
    costs = [float(v) for v in re.findall(r"^epoch +\d+ +average cost (\S+)$", out, re.M)]
    assert len(costs) == 30 and costs[-1] < 1e-4 and costs[-1] < costs[0] / 1e4, out
    m = re.search(r"^multiplier: \[(\S+), (\S+), (\S+)\] ", out, re.M)
    assert m, out
    np.testing.assert_allclose([float(v) for v in m.groups()], [2.0, -0.5, 1.0], atol=1e-2, err_msg=out)
    assert abs(_number(r"^output for \[0\.1, 0\.2, 0\.3\]: (\S+) ", out) - 0.4) < 1e-2, out


# Runs in the page (webgl) and here (cpu): a dense layer y = x @ w + b fitted by Adam.
ADAM_STEPS = '''
def adam_steps(tf, x, y, w0, b0, steps, epsilon=None):
    before = tf.memory().num_tensors   # here, other tests may hold tensors of their own
    w = tf.tidy(lambda: tf.variable(tf.tensor(w0), name="w"))
    b = tf.tidy(lambda: tf.variable(tf.tensor(b0), name="b"))
    xs, ys = tf.tensor(x), tf.tensor(y)
    opt = tf.train.adam(0.1, epsilon=epsilon)
    loss = lambda: tf.mean(tf.square(tf.sub(tf.add(tf.mat_mul(xs, w), b), ys)))
    costs, counts = [], []
    for _ in range(steps):
        cost = opt.minimize(loss, return_cost=True)
        costs.append(cost.array_sync())
        cost.dispose()
        counts.append(tf.memory().num_tensors)
    weights = opt.get_weights()
    out = {"w": w.array_sync(), "b": b.array_sync(), "costs": costs, "counts": counts,
           "weights": [[wt["name"], wt["tensor"].array_sync()] for wt in weights], "epsilon": opt.epsilon}
    weights[0]["tensor"].dispose()
    opt.dispose()
    tf.dispose([xs, ys, w, b])
    out["left"] = tf.memory().num_tensors - before
    return out
'''


def _adam_inputs():
    rng = np.random.default_rng(5)
    x = rng.uniform(-1, 1, size=(8, 3)).astype(np.float32)
    y = (x @ np.float32([[1.0, -2.0], [0.5, 0.0], [-1.0, 1.5]]) + np.float32([0.3, -0.2])).astype(np.float32)
    w0 = rng.normal(size=(3, 2)).astype(np.float32)
    b0 = np.zeros(2, np.float32)
    return {"x": x.tolist(), "y": y.tolist(), "w0": w0.tolist(), "b0": b0.tolist()}


def test_adam_on_webgl_matches_cpu(run_py):
    inputs = _adam_inputs()
    page = run_py(ADAM_STEPS + "result = adam_steps(tf, x, y, w0, b0, 5)", **inputs)
    assert page["epsilon"] in (1e-7, 1e-4)   # the webgl backend's: float32 or half-float textures

    previous = tf.get_backend()
    tf.set_backend("cpu")
    try:
        ns = {}
        exec(ADAM_STEPS, ns)  # noqa: S102 - the test's own code
        here = ns["adam_steps"](tf, **inputs, steps=5, epsilon=page["epsilon"])
    finally:
        tf.set_backend(previous)

    for result in (page, here):
        assert result["left"] == 0
        assert len(set(result["counts"])) == 1, result["counts"]    # flat over the loop
        assert [n for n, _ in result["weights"]] == ["iter", "w/m", "b/m", "w/v", "b/v"]
        assert result["weights"][0][1] == 5
    np.testing.assert_allclose(page["costs"], here["costs"], rtol=1e-4, atol=1e-6)
    np.testing.assert_allclose(page["w"], here["w"], rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(page["b"], here["b"], rtol=1e-4, atol=1e-5)
    for (name, got), (_, want) in zip(page["weights"][1:], here["weights"][1:]):
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-6, err_msg=name)
    assert here["costs"][-1] < here["costs"][0]


def test_demo_trains_a_model_with_progress():
    """`make demo`: a Keras-style model fits on webgl, one progress line per epoch."""
    out = _run_example("demo.py")
    assert " Total params: 337 (1.32 KB)" in out and "│ (None, 16) " in out    # Keras's summary
    assert len(re.findall(r"^Epoch \d+/20$", out, re.M)) == 20, out
    # not a terminal: the bar's final state, one line per epoch
    assert len(re.findall(r"^10/10 ━{20} \d+s \d+(?:us|ms|s)/step - loss: \S+ - acc: \S+ - val_loss: \S+ - "
                          r"val_acc: \S+$", out, re.M)) == 20, out
    assert _number(r"^final accuracy: train (\S+),", out) > 0.95, out
    assert _number(r"^P\(inside \| \(\+0\.0, \+0\.0\)\) = (\S+)$", out) > 0.9, out
    assert _number(r"^P\(inside \| \(\+1\.3, \+1\.2\)\) = (\S+)$", out) < 0.1, out


def test_hand_gradient_example_fits_2x_minus_1():
    out = _run_example("hand_gradient.py")
    assert _number(r"^w = (\S+), b = ", out) == 2.0 and _number(r"^w = \S+, b = (\S+) ", out) == -1.0, out


# examples/landmarks.py in the session's page, run as `pytfweb run` runs a script (its server,
# like pytfweb run's, serves web/ and the zoo beside run.html): cheaper than a second Chromium.
_RUN_SCRIPT = '''
import contextlib
import io
from pytfweb.host.script import run_source_async
out, err = io.StringIO(), io.StringIO()
with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
    status = await run_source_async(source, "examples/landmarks.py", argv)
result = {"status": status, "out": out.getvalue(), "err": err.getvalue()}
'''


def test_landmarks_example_prints_the_keypoints_and_draws_them(run_py):
    source = (REPO / "examples" / "landmarks.py").read_text()
    r = run_py(_RUN_SCRIPT, source=source, argv=["--frames", "1", "--png"])
    out = r["out"]
    assert r["status"] == 0, f"{r['err']}\n{out}"
    assert out.startswith(f"backend: {BACKEND}\n") and out.rstrip().endswith("tensors left: 0"), out
    rows = {m[0]: [float(v) for v in m[1:]]
            for m in re.findall(r"^([a-z_]+) +(-?[\d.]+) +(-?[\d.]+) +([\d.]+)$", out, re.M)}
    assert len(rows) == 17, out
    x, y, score = rows["nose"]
    assert score > 0.3 and np.hypot(x - NOSE[0], y - NOSE[1]) < 20, out
    assert _number(r"face score (\S+);", out) > 0.5 and "mesh: 468 points" in out, out
    png = re.search(r"^png: (\S+)$", out, re.M)
    assert png, out
    image = decode_png(base64.b64decode(png.group(1)))
    assert image.shape == (352, 480, 3)
    assert near(image[int(y) - 1:int(y) + 2, int(x) - 1:int(x) + 2], KEYPOINT_RGB, tol=30).all()
