"""The webgpu backend's foundation: device, buffers and their recycler, reads, memory, errors.

Also the fixtures of the other test_webgpu_*.py modules (imported by name there): `webgpu`
switches the session's page to the webgpu backend for one test (the harness resets it to webgl
afterwards) and skips, saying why, where the browser gives no WebGPU adapter; `compare_webgpu`
runs one lambda on webgpu in the page and on cpu here (conftest's helpers) and compares."""
import numpy as np
import pytest

from .conftest import PageError, _cpu_reference, _encode_input, _flatten_plain
from .webgpu_gate import no_webgpu

_SWITCH = """
import pytfweb as tf
tf.set_backend("webgpu")
await tf.ready()
"""

_state = {}   # "skip": the reason webgpu is unavailable in this session's page


@pytest.fixture
def webgpu(page_harness):
    """The page's backend set to webgpu for this test (skipped where there is no adapter)."""
    if "skip" in _state:
        no_webgpu(_state["skip"])
    try:
        page_harness.run(_SWITCH)
    except PageError as exc:
        if exc.type in ("BackendError", "KeyError") and ("adapter" in exc.message or "navigator.gpu" in exc.message
                                                          or "not registered" in exc.message):
            _state["skip"] = f"no WebGPU in this browser: {exc.message}"
            no_webgpu(_state["skip"])
        raise
    return page_harness.run


# conftest's page side of compare_with_cpu, with the function in a tidy: what the lambda makes on
# the way (tf.cast(tf.cast(x, ...))) is the lambda's, not a leak of the backend's.
_PAGE_COMPARE = """
from pytfweb.host.script import to_plain as _to_plain
fn = eval(fn_src, {"tf": tf})
xs = [tf.tensor(x["values"], x["shape"], x["dtype"]) for x in inputs]
out = tf.tidy(lambda: fn(*xs))
result = await _to_plain(out)
tf.dispose(xs)
tf.dispose(out)
"""

_PAGE_LEAK = """
m = tf.memory()
result = [m.num_tensors, m.num_buffers_in_use]
"""


def _signed_zero_mismatch(got, want):
    zeros = (got == 0) & (want == 0)
    return np.flatnonzero(zeros & (np.signbit(got) != np.signbit(want)))


@pytest.fixture
def compare_webgpu(webgpu):
    """compare_webgpu(fn_src, inputs, rtol=1e-5, atol=1e-6, signed_zeros=True, check_leaks=True):
    fn on webgpu in the page and on cpu here: same shapes and dtypes, float32 within tolerance with
    NaN where the other has NaN (and zeros of the same sign unless signed_zeros=False), int32/bool
    exactly; nothing left behind in the page (unless check_leaks=False: a layer's weights are
    variables, kept on purpose). Returns the webgpu outputs."""

    def compare(fn_src, inputs, rtol=1e-5, atol=1e-6, signed_zeros=True, check_leaks=True):
        encoded = [_encode_input(a) for a in inputs]
        expected = _cpu_reference(fn_src, encoded)
        before = webgpu(_PAGE_LEAK)
        actual = _flatten_plain(webgpu(_PAGE_COMPARE, filename="<compare_webgpu>", fn_src=fn_src, inputs=encoded))
        if check_leaks:
            assert webgpu(_PAGE_LEAK) == before, f"{fn_src}: tensors or buffers left behind on webgpu"
        assert len(actual) == len(expected), f"{fn_src}: {len(actual)} outputs on webgpu, {len(expected)} on cpu"
        for i, ((shape, dtype, want), got) in enumerate(zip(expected, actual)):
            where = f"{fn_src} output {i}"
            assert got.shape == shape, f"{where}: shape {got.shape} on webgpu, {shape} on cpu"
            assert str(got.dtype) == dtype, f"{where}: dtype {got.dtype} on webgpu, {dtype} on cpu"
            if dtype == "float32":
                np.testing.assert_allclose(got, want, rtol=rtol, atol=atol, equal_nan=True, err_msg=where)
                if signed_zeros:
                    bad = _signed_zero_mismatch(got.ravel(), want.ravel())
                    assert not bad.size, f"{where}: zeros of another sign at flat indices {bad[:10].tolist()}"
            else:
                np.testing.assert_array_equal(got, want, err_msg=where)
        return actual

    return compare


# --- tests ----------------------------------------------------------------------------------------

def _run_unawaited(page_harness, code):
    """Run code with pyodide.runPython (a synchronous call from JS, where Python cannot wait for a
    promise, as in a page calling runPython itself); the value of its last line, as a string."""
    return page_harness.page.evaluate("(code) => String(pytfweb.pyodide.runPython(code))", code)


# The engine's automatic choice from scratch, in the session's page: the backend and the engine's
# choice are put back afterwards (the harness's reset sets the session's backend again).
_AUTOMATIC_CHOICE = """
eng = tf.engine()
was = eng.backend, eng.backend_name
choices = []
try:
    eng.backend = eng.backend_name = None
    await tf.ready()
    choices.append([tf.get_backend(), dict(eng.passed_over)])
    eng.backend = eng.backend_name = None
    choices.append([tf.get_backend(), dict(eng.passed_over)])   # without ready(): it blocks
finally:
    eng.backend, eng.backend_name = was
result = choices
"""


def test_backend_is_registered_above_webgl_and_chosen_where_python_can_wait(webgpu):
    # (the webgpu fixture got this page an adapter)
    names = webgpu("result = {n: p for n, (f, p) in tf.engine().registry.items()}")
    assert names["webgpu"] > names["webgl"]
    assert webgpu(_AUTOMATIC_CHOICE) == [["webgpu", {}], ["webgpu", {}]]


def test_not_the_default_where_python_cannot_wait(webgpu, page_harness):
    # a synchronous runPython: the automatic choice passes over webgpu, saying why
    out = _run_unawaited(page_harness, """
eng = tf.engine()
was = eng.backend, eng.backend_name
eng.backend = eng.backend_name = None
try:
    chosen = tf.get_backend() + " | " + eng.passed_over["webgpu"]
finally:
    eng.backend, eng.backend_name = was
chosen
""")
    name, why = out.split(" | ")
    assert name == "webgl" and "cannot wait for the GPU" in why


def test_ready_gives_a_device(webgpu):
    info = webgpu("""
b = tf.engine().backend
result = [tf.get_backend(), b.device is not None, b.device.max_workgroups >= 65535]
""")
    assert info == ["webgpu", True, True]


def test_write_read_roundtrip_every_dtype(webgpu):
    # Values written from Python stay CPU-side (data_sync works); a kernel's result does not.
    out = webgpu("""
f = tf.tensor([1.5, -0.0, float("nan"), float("inf"), -3e38], dtype="float32")
i = tf.tensor([0, -2147483648, 2147483647, 7], dtype="int32")
b = tf.tensor([True, False, True], dtype="bool")
copies = [tf.clone(t) for t in (f, i, b)]         # Identity: the same data
moved = [tf.cast(t, t.dtype) for t in (f, i, b)]  # a copy by a shader
result = [list(f.data_sync()), [list(await t.data()) for t in moved], [m.dtype for m in moved]]
""")
    f, moved, dtypes = out
    assert np.isnan(f[2]) and f[3] == np.inf and f[1] == 0 and np.signbit(f[1])
    assert np.float32(moved[0][0]) == np.float32(1.5) and np.signbit(moved[0][1]) and np.isnan(moved[0][2])
    assert moved[1] == [0, -2147483648, 2147483647, 7]
    assert moved[2] == [1, 0, 1]
    assert dtypes == ["float32", "int32", "bool"]


def test_data_sync_waits_where_python_can_and_says_to_await_where_it_cannot(webgpu, page_harness):
    # run_py's code runs from an async call (JSPI): data_sync waits for the GPU
    assert webgpu("tf.add(tf.tensor([1.0, 2.0]), tf.tensor([2.0, 3.0])).data_sync()") == [3.0, 5.0]
    assert webgpu("tf.mat_mul(tf.ones([2, 3]), tf.ones([3, 2])).array_sync()") == [[3.0, 3.0], [3.0, 3.0]]
    # a synchronous runPython cannot wait: a BackendError saying to await, and nothing leaks
    before = webgpu("tf.memory().num_tensors")
    message = _run_unawaited(page_harness, """
t = tf.tidy(lambda: tf.add(tf.tensor([1.0]), tf.tensor([2.0])))
try:
    t.data_sync()
    msg = "no error"
except Exception as e:
    msg = type(e).__name__ + ": " + str(e)
tf.dispose(t)
msg
""")
    assert message.startswith("BackendError") and "await t.data()" in message and "cannot wait" in message
    assert webgpu("tf.memory().num_tensors") == before
    # after an await, the values are CPU-side and the synchronous forms work
    assert webgpu("""
t = tf.add(tf.tensor([1.0, 2.0]), tf.tensor([2.0, 3.0]))
await t.data()
result = t.array_sync()
""") == [3.0, 5.0]


def test_large_and_empty_tensors(webgpu, compare_webgpu):
    # more than 64 * 65535 values needs a second grid dimension (checked in the page: the values
    # would be slow to carry as JSON); 0-size needs no dispatch
    out = webgpu("""
import array
n = 65535 * 64 + 77
x = tf.tensor(array.array("f", range(n)), [n])
v = await tf.add(x, 1.0).data()
result = [len(v), v[0], v[65535 * 64 - 1], v[65535 * 64], v[n - 1]]
""")
    n = 65535 * 64 + 77
    assert out == [n, 1.0, 65535 * 64, 65535 * 64 + 1, n]
    compare_webgpu("lambda x, y: [tf.mul(x, 2.0), tf.add(x, y), tf.cast(x, 'int32')]",
                   [np.zeros((0, 3), np.float32), np.zeros((2, 0, 3), np.float32)])


def test_buffers_are_recycled_and_memory_is_counted(webgpu):
    out = webgpu("""
b = tf.engine().backend
x = tf.tensor([1.0] * 1000)
y = tf.add(x, 1.0)
await y.data()
m1 = tf.memory()
created = b.device.buffers.created
tf.dispose([y])
m2 = tf.memory()
z = tf.add(x, 2.0)          # the same size class: the released buffer again
await z.data()
result = [m1.num_buffers_in_use, m1.num_bytes_in_gpu >= 4000, m2.num_buffers_in_use, m2.num_bytes_in_gpu_free > 0,
          b.device.buffers.created - created]
""")
    in_use, counted, in_use_after, free_after, new_buffers = out
    assert in_use_after == in_use - 1 and counted and free_after
    assert new_buffers == 0


def test_read_after_dispose_and_concurrent_reads(webgpu):
    # the copy into the staging buffer is queued at once: disposing (and reusing the buffer)
    # while the read waits still gives the values asked for
    out = webgpu("""
import asyncio
x = tf.tensor([float(i) for i in range(4096)])
ys = [tf.mul(x, float(k)) for k in range(4)]
reads = [asyncio.ensure_future(y.data()) for y in ys]
await asyncio.sleep(0)      # each read has started: its copy is queued
tf.dispose(ys)
z = tf.mul(x, 100.0)
values = await asyncio.gather(*reads)
result = [[v[5] for v in values], (await z.data())[5]]
""")
    assert out == [[0.0, 5.0, 10.0, 15.0], 500.0]


def test_dispose_all_and_no_leaks(webgpu):
    out = webgpu("""
before = tf.memory().num_buffers_in_use
def f():
    x = tf.tensor([[1.0, 2.0], [3.0, 4.0]])
    return tf.relu(tf.sub(tf.mul(x, x), 5.0))
y = tf.tidy(f)
v = await y.array()
y.dispose()
result = [v, tf.memory().num_tensors, tf.memory().num_buffers_in_use - before]
""")
    assert out == [[[0.0, 0.0], [4.0, 11.0]], 0, 0]


def test_bad_input_names_op_and_argument_and_leaks_nothing(webgpu):
    before = webgpu("m = tf.memory()\nresult = [m.num_tensors, m.num_buffers_in_use]")
    with pytest.raises(PageError) as e:
        webgpu("tf.tidy(lambda: tf.add(tf.tensor([1.0, 2.0]), tf.tensor([1.0, 2.0, 3.0])))")
    assert e.value.type == "ValueError" and "add" in e.value.message
    with pytest.raises(PageError) as e:
        webgpu("tf.tidy(lambda: tf.logical_and(tf.tensor([1.0]), tf.tensor([True])))")
    assert e.value.type == "TypeError" and "logical_and" in e.value.message and "'a'" in e.value.message
    assert webgpu("m = tf.memory()\nresult = [m.num_tensors, m.num_buffers_in_use]") == before


def test_missing_kernel_names_kernel_and_backend(webgpu):
    with pytest.raises(PageError) as e:
        webgpu("tf.engine().run_kernel('NoSuchKernel', [tf.tensor([1.0])])")
    assert e.value.type == "NotImplementedError"
    assert "NoSuchKernel" in e.value.message and "webgpu" in e.value.message
    assert "no fallback" in e.value.message and "tf.set_backend('webgl')" in e.value.message


def test_data_sync_from_another_backend_moves_cpu_side_values(webgpu):
    # a webgl tensor read back is CPU-side: the engine moves it to webgpu on use
    out = webgpu("""
tf.set_backend("webgl")
x = tf.tensor([1.0, 2.0, 3.0])
tf.set_backend("webgpu")
result = await tf.add(x, 1.0).array()
""")
    assert out == [2.0, 3.0, 4.0]


def test_too_large_tensor_names_its_shape(webgpu):
    with pytest.raises(PageError) as e:
        webgpu("tf.tidy(lambda: tf.ones([2 ** 29, 2]) + 1.0)")
    assert e.value.type == "ValueError" and "[536870912, 2]" in e.value.message and "bytes" in e.value.message
    assert webgpu("m = tf.memory()\nresult = [m.num_tensors, m.num_buffers_in_use]") == [0, 0]


def test_device_loss_is_reported(webgpu):
    # a backend of its own: the session's webgpu backend is left alone
    out = webgpu("""
from pytfweb.backends.webgpu.backend import WebGPUBackend
from pytfweb.core.errors import BackendError
from pytfweb.kernels import copy_registered_kernels, get_kernels_for_backend, unregister_kernel
tf.engine().register_backend("webgpu_lost", WebGPUBackend, 0)
copy_registered_kernels("webgpu", "webgpu_lost")
try:
    tf.set_backend("webgpu_lost")
    await tf.ready()
    x = tf.add(tf.tensor([1.0, 2.0]), 1.0)
    await x.data()
    be = tf.engine().backend
    be.device.device.destroy()
    await be.device.js.done()
    try:
        tf.add(x, 1.0)
        msg = "no error"
    except BackendError as e:
        msg = str(e)
finally:
    tf.set_backend("webgpu")
    tf.engine().remove_backend("webgpu_lost")
    for k in get_kernels_for_backend("webgpu_lost"):
        unregister_kernel(k, "webgpu_lost")
result = msg
""")
    assert "device was lost" in out


def test_released_buffers_beyond_the_cap_are_destroyed(webgpu):
    out = webgpu("""
bm = tf.engine().backend.device.buffers
cap, destroyed = bm.max_free, bm.destroyed
try:
    ts = [tf.tidy(lambda: tf.add(tf.ones([1024]), float(i))) for i in range(3)]
    for t in ts:
        await t.data()
    free_before = bm.bytes_free
    bm.max_free = bm.bytes_free + 8192      # room for two more 4 KB buffers, not for three
    tf.dispose(ts)
    result = [bm.destroyed - destroyed, bm.bytes_free - free_before <= 8192, (await tf.add(tf.ones([1024]), 1.0).data())[0]]
finally:
    bm.max_free = cap
""")
    assert out[0] >= 1 and out[1] and out[2] == 2.0


_FRESH_BACKEND = """
from pytfweb.backends.webgpu.backend import WebGPUBackend
from pytfweb.kernels import copy_registered_kernels, get_kernels_for_backend, unregister_kernel
tf.engine().register_backend("webgpu_fresh", WebGPUBackend, 0)
copy_registered_kernels("webgpu", "webgpu_fresh")
try:
    tf.set_backend("webgpu_fresh")
    x = tf.tensor([1.0, 2.0])            # written values wait CPU-side: fine before ready()
    try:
        y = tf.add(x, x)
        msg = "no error"
    except Exception as e:
        msg = type(e).__name__ + ": " + str(e)
        y = None
    tf.dispose([x, y])
finally:
    tf.set_backend("webgpu")
    tf.engine().remove_backend("webgpu_fresh")
    for k in get_kernels_for_backend("webgpu_fresh"):
        unregister_kernel(k, "webgpu_fresh")
"""


def test_kernels_before_ready_get_the_device_or_say_to_await_it(webgpu, page_harness):
    # where Python can wait (run_py), the first kernel requests the device itself
    assert webgpu(_FRESH_BACKEND + "result = msg") == "no error"
    # where it cannot (a synchronous runPython), the kernel says to await tf.ready()
    msg = _run_unawaited(page_harness, _FRESH_BACKEND + "msg")
    assert msg.startswith("BackendError") and "await tf.ready()" in msg
