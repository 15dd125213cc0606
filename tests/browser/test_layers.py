"""Layers models on webgl: the paper's Listing 1 through `pytfweb run`, and a small model's
predict and fit steps in the test page against the same code on the cpu backend here."""
import asyncio
import re
import subprocess
from concurrent.futures import ThreadPoolExecutor

import numpy as np

import pytfweb as tf
from tests.browser.test_examples import REPO, _pytfweb_cmd


def test_listing1_example_predicts_near_9_on_webgl():
    r = subprocess.run(_pytfweb_cmd() + ["run", str(REPO / "examples" / "listing1.py")],
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, f"exit {r.returncode}\n{r.stdout}\n{r.stderr}"
    assert r.stdout.startswith("backend: webgl\n"), r.stdout
    m = re.search(r"^Tensor\n\s+\[\[(\S+)\]\]$", r.stdout, re.M)
    assert m and abs(float(m.group(1)) - 9) < 0.2, r.stdout
    assert r.stdout.rstrip().endswith("tensors left: 0"), r.stdout


# Runs in the page (webgl) and here (cpu): fixed weights, no shuffling, so both compute the same.
FIT_STEPS = '''
async def fit_steps(tf, x, y, w1, b1, w2, b2):
    start = tf.memory().num_tensors   # the host process's engine may hold other tests' tensors
    model = tf.sequential(layers=[tf.layers.dense(units=4, input_shape=[3], activation="tanh"),
                                  tf.layers.dense(units=2, activation="softmax")])
    for layer, ws in zip(model.layers, [[w1, b1], [w2, b2]]):
        layer.set_weights(ws)
    opt = tf.train.sgd(0.5)   # the caller's: model.dispose() leaves it
    model.compile(optimizer=opt, loss="categoricalCrossentropy", metrics=["accuracy"])
    xs, ys = tf.tensor(x), tf.tensor(y)
    before = model.predict(xs)
    out = {"before": before.array_sync()}
    history = await model.fit(xs, ys, epochs=3, batch_size=4, shuffle=False, verbose=0)
    after = model.predict(xs)
    out.update(after=after.array_sync(), loss=history.history["loss"], acc=history.history["acc"],
               kernel=model.layers[0].kernel.array_sync())
    tf.dispose([xs, ys, before, after])
    model.dispose()
    opt.dispose()
    out["left"] = tf.memory().num_tensors - start
    return out
'''


def _inputs():
    rng = np.random.default_rng(3)
    x = rng.uniform(-1, 1, size=(8, 3)).astype(np.float32)
    y = np.eye(2, dtype=np.float32)[(x.sum(1) > 0).astype(int)]
    return {"x": x.tolist(), "y": y.tolist(), "w1": rng.normal(size=(3, 4)).astype(np.float32).tolist(),
            "b1": np.zeros(4, np.float32).tolist(), "w2": rng.normal(size=(4, 2)).astype(np.float32).tolist(),
            "b2": np.zeros(2, np.float32).tolist()}


def test_predict_and_fit_on_webgl_match_cpu(run_py):
    inputs = _inputs()
    page = run_py(FIT_STEPS + "result = await fit_steps(tf, x, y, w1, b1, w2, b2)", **inputs)
    previous = tf.get_backend()
    tf.set_backend("cpu")
    try:
        ns = {}
        exec(FIT_STEPS, ns)  # noqa: S102 - the test's own code
        # The harness's event loop runs in this thread: run the coroutine in another one.
        with ThreadPoolExecutor(1) as pool:
            here = pool.submit(asyncio.run, ns["fit_steps"](tf, **inputs)).result()
    finally:
        tf.set_backend(previous)
    assert page["left"] == 0 and here["left"] == 0
    for key in ("before", "after", "kernel"):
        np.testing.assert_allclose(page[key], here[key], rtol=1e-3, atol=1e-4, err_msg=key)
    np.testing.assert_allclose(page["loss"], here["loss"], rtol=1e-3, atol=1e-5)
    assert page["acc"] == here["acc"]
    assert here["loss"][-1] < here["loss"][0]
