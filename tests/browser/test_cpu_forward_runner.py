"""The CPU-forward plan runner (backends/gpu/cpu_forward_runner.py) on the session's GPU backend
(webgl; webgpu with PYTFWEB_TEST_BACKEND=webgpu): a traced function of small elementwise kernels
on CPU-side inputs runs as one JavaScript function and gives what step-by-step replays on the GPU
(PLAN_RUNNERS off) and the cpu backend give; memory stays flat over 1000 calls; its outputs feed
later GPU kernels; an input only on the GPU, or the flag off, sends the call to the GPU runner.
One page run."""
from concurrent.futures import ThreadPoolExecutor

import numpy as np

import pytfweb as tf

from .conftest import BACKEND

_FLAG = {"webgl": "WEBGL_CPU_FORWARD", "webgpu": "WEBGPU_CPU_FORWARD"}[BACKEND]
_GPU_RUNNER = {"webgl": "DrawPlanRunner", "webgpu": "DispatchPlanRunner"}[BACKEND]

_SCENARIO = r'''
import math


def _vals(shape, k, dtype="float32"):
    n = 1
    for d in shape:
        n *= d
    if dtype == "int32":
        return tf.tensor([(i * 7 + k) % 5 + 1 - 6 * (i % 2) for i in range(n)], list(shape), "int32")   # never 0
    return tf.tensor([math.sin(0.37 * i + k) * 3 for i in range(n)], list(shape))


def step(x, b, k):
    s = x + b                                        # broadcast [4, 8] + [1, 8]
    y = s * 1.5 - tf.exp(-tf.abs(x))
    pos = tf.greater(y, 0.0)
    w = tf.where(pos, tf.tanh(y), tf.clip_by_value(y, -1.25, 0.5))
    q = tf.floor_div(tf.cast(y * 4.0, "int32"), k)   # int32, k broadcast [8]
    return [s, w, tf.cast(pos, "int32") + q, tf.logical_not(pos), x * b, x - b, x / b]


def chain(x, one):
    y = x
    for _ in range(1000):
        y = y + one
    return y


def scenario(tf, flag):
    r = {}
    f = tf.function(step)
    calls = []
    for j in range(4):
        x, b, k = _vals([4, 8], j), _vals([1, 8], 10 + j), _vals([8], j, "int32")
        out = f(x, b, k)
        calls.append([o.array_sync() for o in out])
        tf.dispose(out + [x, b, k])
    r["calls"] = calls
    plan = [p for p in f.plans.values() if p is not None][0]
    runner = plan.runner
    r["runner"] = [type(runner).__name__, getattr(runner, "replays", 0), getattr(runner, "gpu_calls", 0)]

    # outputs feed GPU kernels: a matmul of an output
    x, b, k = _vals([4, 8], 7), _vals([1, 8], 8), tf.ones([8], "int32")
    out = f(x, b, k)
    m = tf.tidy(lambda: tf.mat_mul(out[1], tf.transpose(out[0])))
    r["matmul"] = m.array_sync()
    tf.dispose(out + [m])

    # memory flat over 1000 calls (the outputs read back, as a caller would)
    for _ in range(2):
        tf.dispose(f(x, b, k))
    before = [tf.memory()["num_tensors"], tf.memory()["num_bytes"]]
    for _ in range(1000 if tf.env().get("PLAN_RUNNERS") else 50):
        out = f(x, b, k)
        out[0].data_sync()
        tf.dispose(out)
    r["flat"] = [before, [tf.memory()["num_tensors"], tf.memory()["num_bytes"]]]

    # an input only on the GPU (a matmul's output): the call goes to the GPU runner
    g = tf.tidy(lambda: tf.mat_mul(x, tf.eye(8)))
    out = f(g, b, k)
    r["gpu_input"] = [o.array_sync() for o in out]
    r["gpu_input_runner"] = [getattr(runner, "replays", 0), getattr(runner, "gpu_calls", 0)]
    tf.dispose(out + [g])

    # the flag off: the GPU runner
    tf.env().set(flag, False)
    out = f(x, b, k)
    r["flag_off"] = [o.array_sync() for o in out]
    r["flag_off_runner"] = [getattr(runner, "replays", 0), getattr(runner, "gpu_calls", 0)]
    tf.dispose(out)
    tf.env().set(flag, True)
    tf.dispose([x, b, k])
    f.dispose()

    # the bench's chain: 1000 adds of 64 values from zeros and ones
    c = tf.function(chain)
    x, one = tf.zeros([64]), tf.ones([64])
    for _ in range(3):
        y = c(x, one)
        r["chain"] = y.array_sync()
        y.dispose()
    runner = [p for p in c.plans.values() if p is not None][0].runner
    r["chain_runner"] = [type(runner).__name__, getattr(runner, "replays", 0), getattr(runner, "gpu_calls", 0)]
    tf.dispose([x, one])
    c.dispose()
    r["left"] = [tf.memory()["num_tensors"], tf.memory()["num_bytes"]]
    return r
'''

_PAGE = _SCENARIO + r'''
tf.env().set("PLAN_RUNNERS", runners)
result = scenario(tf, flag)
'''


def _cpu():
    """The scenario on the cpu backend here (in a thread, as test_plan_runner_gpu does)."""
    def run():
        tf.set_backend("cpu")
        ns = {"tf": tf}
        exec(_SCENARIO, ns)   # noqa: S102 - test source
        return ns["scenario"](tf, _FLAG)
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(run).result()


def _close(a, b, what):
    np.testing.assert_allclose(np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64), rtol=1e-5,
                               atol=1e-6, err_msg=what)


def test_small_elementwise_plans_run_in_javascript_and_match_gpu_and_cpu(run_py):
    on = run_py(_PAGE, runners=True, flag=_FLAG)
    assert on["runner"] == ["CpuForwardRunner", 3, 0], on["runner"]   # the first call traced
    assert on["chain_runner"] == ["CpuForwardRunner", 2, 0], on["chain_runner"]
    assert on["chain"] == [1000.0] * 64
    off = run_py(_PAGE, runners=False, flag=_FLAG)   # step by step: each kernel on the GPU
    cpu = _cpu()
    for j, (a, b, c) in enumerate(zip(on["calls"], off["calls"], cpu["calls"])):
        assert a[0] == b[0] == c[0], j                 # x + b: exact
        assert a[4:] == b[4:] == c[4:], j              # x * b, x - b, x / b: exact
        assert a[3] == b[3] == c[3], j                 # bools
        _close(a[1], b[1], f"call {j}: GPU")
        _close(a[1], c[1], f"call {j}: cpu")
        # int32 of y * 4: equal but where y * 4 is within float32 of an integer
        assert np.mean(np.asarray(a[2]) == np.asarray(c[2])) > 0.9, (a[2], c[2])
    _close(on["matmul"], cpu["matmul"], "matmul of the outputs")
    before, after = on["flat"]
    assert before == after, on["flat"]
    # the GPU-only input and the flag off: the GPU runner, the same values
    assert on["gpu_input_runner"][1] == 1 and on["flag_off_runner"][1] == 2, on
    assert on["flag_off_runner"][0] == on["gpu_input_runner"][0]
    for key in ("gpu_input", "flag_off"):
        for a, c in zip(on[key], cpu[key]):
            _close(np.asarray(a, dtype=np.float64), np.asarray(c, dtype=np.float64), key)
    assert on["left"] == [0, 0] and off["left"] == [0, 0], (on["left"], off["left"])
