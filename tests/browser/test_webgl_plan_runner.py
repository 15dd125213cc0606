"""webgl's plan runner (backends/webgl/plan_runner.py) where only webgl has the case: a context
lost between replays, an input whose texture has another layout than at the capture, the GEMM's
packed weights kept beside a captured tensor, and a GPU byte budget, under which no runner is
built. Each on a backend of its own, so the page's webgl backend is untouched."""
import pytest

pytestmark = pytest.mark.webgl_only("a test of the webgl runner: context loss, texture layouts, packed weights, the GPU budget")

_SETUP = """
from pytfweb.backends.webgl.backend import WebGLBackend
from pytfweb.core.errors import ContextLostError

tf.copy_registered_kernels("webgl", "webgl-runner")
tf.register_backend("webgl-runner", WebGLBackend)
tf.set_backend("webgl-runner")
be = tf.backend()
tf.env().set("WEBGL_CPU_FORWARD", False)   # (the draw runner's tests: small plans would run in JavaScript)


def runner_of(fn):
    (plan,) = [p for p in fn.plans.values() if p is not None]
    return plan.runner


def values(t):
    out = [round(v, 4) for v in t.data_sync()]
    t.dispose()
    return out
"""

_LOSS = _SETUP + """
try:
    w = tf.variable(tf.tensor([[1.0, 2.0], [3.0, 4.0]]), name="w_runner_loss")
    w.data_sync()   # a CPU copy: the weights survive the loss

    @tf.function
    def step(x):
        y = tf.relu(tf.mat_mul(x, w) - 1.0)
        w.assign(w * 0.5)
        return y * 2.0

    x = tf.tensor([[1.0, 1.0]])
    got = [values(step(x)) for _ in range(3)]
    runner = runner_of(step)
    built = (runner.units is not None, runner.replays, runner.reason)
    w.assign(tf.tensor([[1.0, 2.0], [3.0, 4.0]]))
    w.data_sync()
    be.ctx.gl.getExtension("WEBGL_lose_context").loseContext()
    after_loss = values(step(x))
    later = [values(step(x)) for _ in range(3)]
    result = {"got": got, "built": built, "after_loss": after_loss, "later": later, "losses": be.context_losses,
              "rebuilt": runner_of(step).replays, "w": [list(r) for r in w.array_sync()]}
    step.dispose()
    w.dispose()
    x.dispose()
finally:
    tf.set_backend("webgl")
    tf.remove_backend("webgl-runner")
"""


def test_a_context_lost_between_replays_rebuilds_the_runner(run_py):
    out = run_py(_LOSS)
    # relu([1, 1] @ w - 1) * 2 with w halved after each call
    assert out["got"] == [[6.0, 10.0], [2.0, 4.0], [0.0, 1.0]]
    assert out["built"] == [True, 1, None]
    assert out["losses"] == 1
    # w was [[1, 2], [3, 4]] again (from Python) when the context went: the call after the loss
    # finds its program gone, runs step by step on the new context; the next call captures anew
    # and the two after it replay
    assert out["after_loss"] == [6.0, 10.0]
    assert out["later"] == [[2.0, 4.0], [0.0, 1.0], [0.0, 0.0]]
    assert out["rebuilt"] == 2
    assert out["w"] == [[1 / 16, 2 / 16], [3 / 16, 4 / 16]]


_LAYOUT_AND_PACKED = _SETUP + """
try:
    weights = tf.random_uniform([64, 48], seed=5)   # captured: the GEMM packs it once and keeps it

    @tf.function
    def f(x):
        return tf.tanh(tf.mat_mul(x, weights))

    x = tf.random_uniform([8, 64], seed=6)
    runs = [f(x) for _ in range(3)]
    runner = runner_of(f)
    replays_before = runner.replays
    # the same values, but the data of a [512] vector seen as [8, 64]: a texture 512 wide
    flat = tf.tidy(lambda: tf.reshape(x, [512]) + 0.0)
    other = tf.reshape(flat, [8, 64])
    other_layout = f(other)
    replays_after = runner.replays
    again = f(x)
    tf.env().set("TRACE_FUNCTIONS", False)
    eager = tf.tidy(lambda: f(x))
    tf.env().set("TRACE_FUNCTIONS", True)
    result = {"replays": [replays_before, replays_after, runner.replays], "reason": runner.reason,
              "same": [r.data_sync().tolist() == eager.data_sync().tolist() for r in runs + [other_layout, again]]}
    tf.dispose(runs + [other_layout, again, eager, flat, other, x, weights])
    f.dispose()
    tf.env().set("WEBGL_MAX_GPU_BYTES", 64 << 20)
    g = tf.function(lambda t: t * 2.0 + 1.0)
    t = tf.ones([16])
    out = [values(g(t)) for _ in range(3)]
    result["budget"] = (runner_of(g).reason, out[-1][:2])
    g.dispose()
    t.dispose()
    result["left"] = tf.memory().num_tensors
finally:
    tf.env().set("WEBGL_MAX_GPU_BYTES", 0)
    tf.set_backend("webgl")
    tf.remove_backend("webgl-runner")
"""


def test_an_input_of_another_layout_runs_step_by_step_and_packed_weights_are_reused(run_py):
    out = run_py(_LAYOUT_AND_PACKED)
    assert out["reason"] is None
    # the first call traced, the second captured, the third replayed; the other layout ran step by
    # step (no replay counted) and the next call with x replayed again
    assert out["replays"] == [1, 1, 2]
    assert out["same"] == [True] * 5
    reason, first = out["budget"]
    assert reason is not None and "budget" in reason
    assert first == [3.0, 3.0]
    assert out["left"] == 0
