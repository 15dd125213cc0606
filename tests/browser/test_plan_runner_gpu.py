"""The session's GPU backend's plan runner (webgl: DrawPlanRunner; webgpu with
PYTFWEB_TEST_BACKEND=webgpu: DispatchPlanRunner): recorded plans replayed by one JavaScript call
per invocation give exactly what step-by-step replays give (PLAN_RUNNERS off: the same programs
run) and what the cpu backend gives, hold no more memory from call to call, and stay step by
step, saying why, where they cannot be captured. One page run per scenario and setting."""
import asyncio
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

import pytfweb as tf

from .conftest import BACKEND

_RUNNER = {"webgl": "DrawPlanRunner", "webgpu": "DispatchPlanRunner"}[BACKEND]

# Run in the page (twice: PLAN_RUNNERS on, then off) and on the host's cpu backend. Weights are
# set from fixed values, so every backend starts from the same ones.
_SCENARIO = r'''
import math
import random


def _vals(shape, k):
    n = 1
    for d in shape:
        n *= d
    return tf.tensor([math.sin(0.37 * i + k) * 0.5 for i in range(n)], list(shape))


def _runners(fn):
    out = []
    for p in fn.plans.values():
        r = None if p is None else p.runner
        if r is not None:
            out.append({"type": type(r).__name__, "replays": getattr(r, "replays", 0),
                        "reason": getattr(r, "reason", "no runner"), "commands": getattr(r, "num_commands", 0),
                        "programs": getattr(r, "num_programs", 0)})
    return out


def _set_weights(model):
    ws = [_vals(wt.shape, j) for j, wt in enumerate(model.weights)]
    model.set_weights(ws)
    tf.dispose(ws)


def _held(in_use):
    """Tensors, bytes, GPU objects in use and GPU objects made (a steady call makes none)."""
    m = tf.memory()
    return (m.num_tensors, m.num_bytes, in_use(), getattr(m, "num_textures", getattr(m, "num_buffers", 0)))


def _calls(f, values):
    """f's results on four vectors, values(k) for k in 0..3."""
    got = []
    for k in range(4):
        x = tf.tensor(values(k))
        y = f(x)
        got.append(y.array_sync())
        tf.dispose([x, y])
    return got


def _classifier(layers, optimizer, k):
    """A compiled sequential model of these layers with fixed weights, and a batch of 8 rows of 6
    and their one-hot labels of 3 classes."""
    model = tf.sequential(layers=layers)
    model.compile(optimizer, "categoricalCrossentropy")
    _set_weights(model)
    labels = tf.tensor([i % 3 for i in range(8)], [8], "int32")
    yb = tf.one_hot(labels, 3)
    labels.dispose()
    return model, _vals([8, 6], k), yb


async def scenario(tf, in_use):
    r = {}
    # A traced function: several outputs (a kernel's, an input passed through, a reshape of a
    # kernel's, a concatenation), a variable read, assigned, then read again.
    w0, v0 = _vals([8, 8], 1), tf.zeros([4, 8])
    w, v = tf.variable(w0), tf.variable(v0)
    tf.dispose([w0, v0])

    def step(x):
        h = tf.tanh(tf.mat_mul(x, w) + 0.5)
        v.assign(v * 0.5 + h)
        s = v * 2.0 - 1.0
        # (a concatenation: on webgpu, one dispatch per part into one output)
        return [h, x, tf.reshape(s, [32]), tf.concat([tf.sum(s, axis=1), tf.reshape(h, [32]) * 3], 0)]

    f = tf.function(step)
    calls = []
    for k in range(4):
        x = _vals([4, 8], 10 + k)
        out = f(x)
        calls.append([o.array_sync() for o in out] + [out[1] is x])
        tf.dispose([out[0], out[2], out[3], x])
    r["function"] = calls
    r["variable"] = v.array_sync()
    # memory flat over 200 calls after the first two
    x = _vals([4, 8], 3)
    for _ in range(2):
        out = f(x)
        tf.dispose([out[0], out[2], out[3]])
    before = _held(in_use)
    for _ in range(200):
        out = f(x)
        tf.dispose([out[0], out[2], out[3]])
    r["flat"] = [before, _held(in_use)]
    r["function_runners"] = _runners(f)
    # a disposed input: a clear error, and the next call works
    gone = _vals([4, 8], 4)
    gone.dispose()
    try:
        f(gone)
        r["disposed"] = None
    except Exception as exc:
        r["disposed"] = [type(exc).__name__, str(exc)]
    out = f(x)
    r["after_disposed"] = out[0].array_sync()
    tf.dispose([out[0], out[2], out[3], x, w, v])
    f.dispose()

    # An MLP's training steps (train_on_batch replays the traced step).
    model, xb, yb = _classifier([tf.layers.dense(units=16, activation="relu", input_shape=[6]),
                                 tf.layers.dense(units=3, activation="softmax")], "adam", 5)
    losses = []
    for _ in range(6):
        loss = await model.train_on_batch(xb, yb)
        losses.append(loss)
    r["mlp_losses"] = losses
    r["mlp_weights"] = [wt.array_sync() for wt in model.weights]
    r["mlp_runners"] = _runners(model.train_function) if model.train_function is not None else []
    tf.dispose([xb, yb])
    model.dispose()

    # A small convnet's predictions.
    model = tf.sequential(layers=[
        tf.layers.conv2d(filters=4, kernel_size=3, input_shape=[8, 8, 2], activation="relu"),
        tf.layers.max_pooling2d(pool_size=2), tf.layers.flatten(), tf.layers.dense(units=5)])
    _set_weights(model)
    xc = _vals([3, 8, 8, 2], 7)
    preds = []
    for _ in range(4):
        p = model.predict(xc)
        preds.append(p.array_sync())
        p.dispose()
    r["convnet"] = preds
    r["convnet_runners"] = _runners(model.predict_function) if model.predict_function is not None else []
    xc.dispose()
    model.dispose()

    # Random draws are host steps: the plan runs as segments (x * 2 | draw | * 0, + | draw), the
    # draws new on every call.
    g = tf.function(lambda x: [x * 2 + tf.random_uniform([4]) * 0, tf.random_uniform([4])])
    x = tf.tensor([1, 2, 3, 4], [4])
    draws = []
    for _ in range(4):
        a, b = g(x)
        draws.append([a.array_sync(), b.array_sync()])
        tf.dispose([a, b])
    r["random"] = draws
    r["random_runners"] = _runners(g)
    x.dispose()
    g.dispose()

    # An MLP with dropout trained by train_on_batch: the masks are host steps between the
    # segments of its step; the same seed of Python's generator gives every backend the same masks.
    random.seed(7)
    model, xb, yb = _classifier([tf.layers.dense(units=16, activation="relu", input_shape=[6]),
                                 tf.layers.dropout(rate=0.4), tf.layers.dense(units=3, activation="softmax")],
                                "sgd", 6)
    r["dropout_losses"] = [await model.train_on_batch(xb, yb) for _ in range(5)]
    r["dropout_weights"] = [wt.array_sync() for wt in model.weights]
    before = _held(in_use)
    for _ in range(30):
        await model.train_on_batch(xb, yb)
    r["dropout_flat"] = [before, _held(in_use)]
    r["dropout_runners"] = _runners(model.train_function)
    tf.dispose([xb, yb])
    model.dispose()

    # A split kernel (Unique: its output's shape depends on the values) between two segments.
    u = tf.function(lambda x: tf.unique(tf.floor(x * 2))[0] * 3 + 1)
    r["unique"] = _calls(u, lambda k: [0.1 * k, 0.6, 1.2, 0.1 * k, 2.7])
    r["unique_runners"] = _runners(u)
    u.dispose()

    # A read of values inside the function (a guard) between two segments.
    @tf.function
    def guarded(x):
        y = tf.exp(x) * 2
        if float(tf.max(y).array_sync()) > 3:
            return tf.sqrt(y) + 1
        return y - 1
    r["guard"] = _calls(guarded, lambda k: [0.1 * k, 0.2, 0.3])
    r["guard_runners"] = _runners(guarded)
    guarded.dispose()
    r["left"] = tf.memory()["num_tensors"]
    return r
'''

_PAGE = _SCENARIO + r'''
tf.env().set("PLAN_RUNNERS", runners)
result = await scenario(tf, in_use)
'''


def _cpu():
    """The scenario on the cpu backend here (in a thread: Playwright's event loop runs in this one)."""
    tf.set_backend("cpu")
    ns = {"tf": tf}
    exec(_SCENARIO, ns)   # noqa: S102 - test source
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, ns["scenario"](tf, lambda: 0)).result()


_RUNS = {}


@pytest.fixture
def runs(run_py):
    """The scenario's results with runners and step by step (run once per session)."""
    if not _RUNS:
        _RUNS["on"] = run_py(_PAGE, runners=True)
        _RUNS["off"] = run_py(_PAGE, runners=False)
    return _RUNS["on"], _RUNS["off"]


def _replayed(runners):
    assert runners, "no plan was replayed"
    for r in runners:
        assert r["type"] == _RUNNER and r["reason"] is None and r["replays"] > 0 and r["commands"] > 0, runners


def test_runner_replays_equal_step_replays_and_cpu(runs):
    on, off = runs
    for key in ("function_runners", "mlp_runners", "convnet_runners", "dropout_runners", "unique_runners",
                "guard_runners"):
        _replayed(on[key])
    cpu = _cpu()
    for key in ("function", "variable", "after_disposed", "mlp_losses", "mlp_weights", "convnet", "dropout_losses",
                "dropout_weights", "unique", "guard"):
        assert on[key] == off[key], key   # bitwise: the same programs ran
        np.testing.assert_allclose(np.array(_flat(on[key]), dtype=np.float64),
                                   np.array(_flat(cpu[key]), dtype=np.float64), rtol=1e-4, atol=1e-5, err_msg=key)
    assert all(call[-1] is True for call in on["function"])   # the input passed through is the caller's tensor


def test_runner_memory_flat_and_errors(runs):
    on, _ = runs
    for key in ("flat", "dropout_flat"):
        before, after = on[key]
        assert before == after, (key, on[key])
    assert on["disposed"][0] == "DisposedTensorError" and "disposed" in on["disposed"][1], on["disposed"]
    assert on["left"] == 0


def test_host_steps_and_splits_run_between_programs(runs):
    on, _ = runs
    runners = on["random_runners"]
    _replayed(runners)
    assert [r["programs"] for r in runners] == [2], runners   # x * 2 | draw | * 0, + | draw
    draws = on["random"]
    for doubled, drawn in draws:
        assert doubled == [2, 4, 6, 8]
        assert all(0 <= u < 1 for u in drawn)
    assert len({tuple(d[1]) for d in draws}) == len(draws)   # new values on every call
    # the dropout step: a program before its mask and one after; Unique and the guard: one on each side
    assert all(r["programs"] >= 2 for r in on["dropout_runners"] + on["unique_runners"] + on["guard_runners"]), on
    assert on["unique"] == [[1.0, 4.0, 7.0, 16.0]] * 4


_PAGE_SCALAR = r'''
# A one-value input changes from call to call: a capture must not take its value for a constant
# (webgpu's kernels take a one-value tensor with CPU-side values as a uniform). CPU forwarding
# off: this small elementwise plan would otherwise run in JavaScript, not on the GPU runner.
tf.env().set("WEBGL_CPU_FORWARD", False)
tf.env().set("WEBGPU_CPU_FORWARD", False)
f = tf.function(lambda x, s: tf.exp(x * s) + s)
x = tf.tensor([1, 2, 3, 4], [4])
outs = []
for k in range(5):
    s = tf.scalar(0.25 * k)
    y = f(x, s)
    outs.append(y.array_sync())
    tf.dispose([y, s])
runner = next(iter(f.plans.values())).runner
result = {"outs": outs, "runner": [type(runner).__name__, runner.reason, runner.replays]}
x.dispose()
f.dispose()
'''


def test_per_call_scalar_input_is_not_captured_as_a_constant(run_py):
    r = run_py(_PAGE_SCALAR)
    assert r["runner"][0] == _RUNNER and r["runner"][1] is None and r["runner"][2] > 0, r["runner"]
    x = np.float32([1, 2, 3, 4])
    for k, got in enumerate(r["outs"]):
        s = np.float32(0.25 * k)
        np.testing.assert_allclose(got, np.exp(x * s) + s, rtol=1e-5)


_PAGE_MANY = r'''
import warnings
from pytfweb.core.function import MAX_PLANS

# A function called with ever new shapes: beyond MAX_PLANS signatures, the least recently called
# one's plan is dropped with its runner's textures or buffers, so what the plans hold stays bounded.
w = tf.tensor([0.1 * i - 0.7 for i in range(16)], [4, 4])
f = tf.function(lambda x: tf.mat_mul(tf.tanh(tf.mat_mul(x, w)), w) + tf.range(0, 4, 1, "float32"))
xs = [tf.fill([k + 1, 4], 0.5) for k in range(3 * MAX_PLANS)]
marks = []
with warnings.catch_warnings():
    warnings.simplefilter("ignore")   # (the retrace warning: the point here)
    for x in xs:
        for _ in range(3):   # traced, captured, replayed
            f(x).dispose()
        m = tf.memory()
        marks.append((m["num_tensors"], m["num_bytes"], in_use()))
runners = [p.runner for p in f.plans.values()]
result = {"marks": marks, "cap": MAX_PLANS, "plans": len(f.plans),
          "replayed": all(r is not None and r.replays > 0 and r.reason is None for r in runners)}
f.dispose()
tf.dispose(xs + [w])
result["after"] = (tf.memory()["num_tensors"], in_use())
'''


def test_plans_beyond_the_cap_are_dropped_with_their_resources(run_py):
    r = run_py(_PAGE_MANY)
    cap, marks = r["cap"], r["marks"]
    assert r["plans"] == cap and r["replayed"], r
    assert marks[cap:] == [marks[cap - 1]] * (len(marks) - cap), marks
    assert r["after"][0] == 0


_PAGE_LOST = r'''
g = tf.function(lambda x: tf.tanh(tf.mat_mul(x, x)) * 2)
x = tf.tensor([0.1, 0.2, 0.3, 0.4], [2, 2])
for _ in range(3):
    g(x).dispose()
plan = next(iter(g.plans.values()))
first = plan.runner
dev = tf.engine().backend.device
dev.lost_reason = "simulated by the test"
try:
    g(x)
    error = None
except Exception as exc:
    error = [type(exc).__name__, str(exc)]
finally:
    dev.lost_reason = None
for _ in range(3):
    y = g(x)
    values = y.array_sync()
    y.dispose()
second = plan.runner
result = {"error": error, "first_replays": first.replays, "new_runner": second is not first,
          "second": [type(second).__name__, second.reason, second.replays], "values": values}
x.dispose()
g.dispose()
'''


# (a webgpu test: the webgpu pass runs it; its lack of an adapter fails or skips in conftest's gate)
@pytest.mark.skipif(BACKEND != "webgpu", reason="a test of webgpu's runner: it simulates a lost device "
                                                  "through Device.lost_reason")
def test_lost_device_drops_the_runner(run_py):
    r = run_py(_PAGE_LOST)
    assert r["first_replays"] > 0
    assert r["error"][0] == "BackendError" and "lost" in r["error"][1], r["error"]
    assert r["new_runner"] and r["second"][0] == _RUNNER and r["second"][1] is None and r["second"][2] > 0, r
    x = np.float32([[0.1, 0.2], [0.3, 0.4]])
    np.testing.assert_allclose(r["values"], np.tanh(x @ x) * 2, rtol=1e-5)


def _flat(x):
    if isinstance(x, (list, tuple)):
        return [v for item in x for v in _flat(item)]
    if isinstance(x, bool):
        return []
    return [x]
