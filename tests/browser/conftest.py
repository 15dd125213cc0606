"""Browser test harness: one server, one headless Chromium and one Pyodide page per session.

The page has pytfweb imported and the webgl backend set (once: shader compiles are slow on
SwiftShader); after every test that used it, leftover tensors are disposed and the flags reset,
but the backend and its WebGL context stay.

Fixtures for test authors:

    def test_something(run_py):
        assert run_py("tf.add(tf.tensor([1, 2]), 1).array_sync()") == [2, 3]
        assert run_py("result = x * 2", x=21) == 42          # keyword arguments become variables
        t = run_py("tf.tensor([[1.5, 2]])")                    # a Tensor comes back as a numpy array
        with pytest.raises(PageError) as e:                    # an exception in the page
            run_py("tf.tensor([1, 2], shape=[3])")
        assert e.value.type == "ValueError"

    def test_op(compare_with_cpu):
        compare_with_cpu("lambda x, y: tf.add(x, y)", [np.float32([1, np.nan]), np.float32([np.inf, 2])])

run_py runs the code with top-level await in a fresh namespace holding `tf`, `in_use` (GPU
objects holding data, for leak checks on webgl and webgpu alike) and the keyword arguments; it
returns the last line's value when that is an expression (and not None), else the variable
`result`. Values travel as JSON written and read by Python on both sides, so NaN and infinities
survive; tensors come back as numpy arrays of their dtype, tuples as lists.
"""
import json
import os
import sys

import numpy as np
import pytest

import pytfweb as tf
from pytfweb.host.chromium import Browser
from pytfweb.host.server import Server

from .webgpu_gate import no_webgpu

# Runs once in the page: the harness's side of run_py and the reset between tests.
_PAGE_SETUP = r'''
import json as _json
import traceback as _traceback
import pytfweb as tf
from pytfweb.host.script import eval_snippet as _eval_snippet, to_plain as _to_plain, dumps as _dumps


def _in_use(m=None):
    """The GPU objects holding data (webgl's textures, webgpu's buffers) in a tf.memory() or a
    backend's memory() (default: tf.memory() now): what a leak check counts on either backend."""
    m = tf.memory() if m is None else m
    get = m.get if isinstance(m, dict) else (lambda k: getattr(m, k, None))
    n = get("num_textures_in_use")
    return n if n is not None else get("num_buffers_in_use")


async def _harness_run(code, filename, variables_json):
    ns = {"__name__": "__main__", "tf": tf, "in_use": _in_use}
    ns.update(_json.loads(variables_json))
    try:
        value = await _eval_snippet(code, ns, filename)
        return _dumps({"ok": True, "value": await _to_plain(value)})
    except BaseException as exc:  # noqa: BLE001 - reported to the host
        return _dumps({"ok": False, "type": type(exc).__name__, "message": str(exc),
                       "traceback": "".join(_traceback.format_exception(exc))})


# flags the session runs under (set once, kept through every reset)
_SESSION_FLAGS = {}


def _harness_reset(backend):
    """Dispose every tensor and variable, reset flags and scopes; keep the backend (and its GL context)."""
    eng = tf.engine()
    leaked = eng.num_tensors
    eng.dispose_all()
    tf.env().reset()
    for name, value in _SESSION_FLAGS.items():
        tf.env().set(name, value)
    if backend and eng.backend_name != backend:
        tf.set_backend(backend)
    return leaked
'''

_RUN_JS = """
async ({code, filename, variables}) => {
  const py = pytfweb.pyodide;
  const run = py.globals.get("_harness_run");
  try {
    return await run(code, filename, variables);
  } finally {
    run.destroy();
    await window.__pytfwebFlush();
  }
}
"""

# The backend the session's page runs the GPU tests on: webgl, or webgpu with
# PYTFWEB_TEST_BACKEND=webgpu (make test-webgpu: the webgl op, gradient and layers modules run on
# webgpu against cpu). A test about webgl itself (textures, GLSL, its fusion) is marked
# @pytest.mark.webgl_only("why") and is skipped, saying so, on another backend.
BACKEND = os.environ.get("PYTFWEB_TEST_BACKEND", "webgl")

# PYTFWEB_TEST_WEBGL_F16=1 runs the session's webgl backend on half-float textures
# (WEBGL_FORCE_F16_TEXTURES), the path of devices that cannot render to float32.
F16 = os.environ.get("PYTFWEB_TEST_WEBGL_F16") == "1"
# The unit roundoff of the textures' floats (the backend's float_precision(): 32 or 16 bits):
# 2**-24, or 2**-11 on half floats. A test states its tolerances for float32; under half floats
# they scale with the unit roundoff (x 2**13), for every test alike.
UNIT_ROUNDOFF = 2.0 ** -11 if F16 else 2.0 ** -24


def tolerance(rtol, atol):
    """A test's float32 tolerances (rtol, atol) for the session's texture precision."""
    scale = UNIT_ROUNDOFF / 2.0 ** -24
    return rtol * scale, atol * scale


def gradient_threshold(threshold):
    """A numeric gradient check's float32 threshold plus 200 unit roundoffs: nothing on float32
    (1.2e-5), 0.098 on half floats, about TF.js's half-float test epsilon (0.1). The check itself
    (testing.numeric_gradient_error) discounts the rounding of the outputs it differences; this
    is for the analytic gradient's own rounding, which a sum with cancellation makes larger
    than its result."""
    return threshold + 200 * UNIT_ROUNDOFF


# Whether an infinity drawn into a half-float texture reads back as one (probed once per session).
# SwiftShader's does not: a draw stores NaN for +-inf and for anything beyond +-65504 (uploads
# keep infinities).
_F16_KEEPS_INF = True
_INF_PROBE = """
import math
x = tf.div(tf.tensor([1.0, -1.0]), tf.tensor([0.0, 0.0]))
result = all(math.isinf(v) for v in x.data_sync())
tf.dispose(x)
"""


def as_stored(a):
    """The values a webgl texture holds for float32 array `a`: on half floats, rounded to float16
    (beyond +-65504: +-inf). The cpu reference starts from these, and a float result is compared
    to what its texture can hold."""
    a = np.asarray(a)
    if not F16 or a.dtype != np.float32:
        return a
    with np.errstate(over="ignore", invalid="ignore"):
        return a.astype(np.float16).astype(np.float32)


def lost_infinities(got, want):
    """`got` with NaN put back to +-inf where `want` has an infinity, on a platform whose
    half-float draws store NaN for infinities (the session's probe); else `got` itself."""
    if not F16 or _F16_KEEPS_INF or got.dtype != np.float32:
        return got
    return np.where(np.isnan(got) & np.isinf(want), want, got).astype(np.float32)


def auto_backend(page):
    """The backend pytfweb's pages choose by default ("auto") in this browser: webgpu where
    navigator.gpu gives an adapter (the pages run Python from async calls, so it can wait for the
    GPU), else webgl."""
    return page.evaluate("async () => (navigator.gpu && await navigator.gpu.requestAdapter()) ? 'webgpu' : 'webgl'")


class PageError(Exception):
    """A Python exception raised in the page; .type, .message and .traceback are the page's."""

    def __init__(self, type_, message, tb):
        self.type, self.message, self.traceback = type_, message, tb
        super().__init__(f"{type_}: {message}\n--- traceback in the page ---\n{tb}")


def _forward(chunks):
    """The page's output goes to this process's (captured per test by pytest)."""
    for fd, text in chunks:
        (sys.stdout if fd == 1 else sys.stderr).write(text)


def _decode(value):
    if isinstance(value, dict):
        if value.get("__tensor__") is True:
            return _as_numpy(value)
        return {k: _decode(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_decode(v) for v in value]
    return value


_NP_DTYPES = {"float32": np.float32, "int32": np.int32, "bool": np.bool_}


def _as_numpy(t):
    return np.array(t["values"], dtype=_NP_DTYPES.get(t["dtype"], None)).reshape(t["shape"])


class Harness:
    """The session's page. run() is what the run_py fixture calls."""

    def __init__(self, page, load_timings):
        self.page = page
        self.load_timings = load_timings
        self.backend_error = None
        self.calls = 0

    def run(self, code, filename=None, **variables):
        self.calls += 1
        filename = filename or f"<run_py {self.calls}>"
        reply = self.page.evaluate(_RUN_JS, {"code": code, "filename": filename,
                                             "variables": json.dumps(variables, allow_nan=True)})
        reply = json.loads(reply)
        if not reply["ok"]:
            raise PageError(reply["type"], reply["message"], reply["traceback"])
        return _decode(reply["value"])

    def reset(self):
        return self.page.evaluate("(b) => pytfweb.pyodide.globals.get('_harness_reset')(b)",
                                  BACKEND if self.backend_error is None else None)


@pytest.fixture(scope="session")
def server():
    with Server() as srv:
        yield srv


@pytest.fixture(scope="session")
def browser():
    with Browser() as b:
        yield b


@pytest.fixture(scope="session")
def pyodide_page(server, browser):
    """The session's page: Pyodide with pytfweb imported (no backend set yet)."""
    page, timings = browser.open(server.url, backend=None, write=_forward)
    page.evaluate("(code) => pytfweb.pyodide.runPython(code)", _PAGE_SETUP)
    harness = Harness(page, timings)
    yield harness
    page.close()


@pytest.fixture(scope="session")
def _webgl_ready(pyodide_page):
    """Sets the webgl backend once per session; a failure fails every test that needs it."""
    try:
        pyodide_page.page.evaluate("(code) => pytfweb.pyodide.runPython(code)",
                                   f"_SESSION_FLAGS['WEBGL_FORCE_F16_TEXTURES'] = {F16}")
        pyodide_page.run(f"tf.env().set('WEBGL_FORCE_F16_TEXTURES', {F16})\n"
                         f"tf.set_backend({BACKEND!r})\nawait tf.ready()")
        if F16:
            global _F16_KEEPS_INF
            _F16_KEEPS_INF = pyodide_page.run(_INF_PROBE)
            kept = "inf" if _F16_KEEPS_INF else "NaN"
            print(f"half-float textures: an infinity written by a draw reads back as {kept}")
    except PageError as exc:
        pyodide_page.backend_error = exc
    return pyodide_page


def pytest_runtest_setup(item):
    mark = item.get_closest_marker("webgl_only")
    if mark is not None and BACKEND != "webgl":
        pytest.skip(f"webgl only: {mark.args[0]}")


@pytest.fixture
def page_harness(_webgl_ready):
    """The Harness with the session's backend (BACKEND) active; reset after the test."""
    error = _webgl_ready.backend_error
    if error is not None and BACKEND == "webgpu" and error.type == "BackendError" and (
            "adapter" in error.message or "navigator.gpu" in error.message or "not registered" in error.message):
        no_webgpu(f"no WebGPU in this browser: {error.message}")
    if error is not None:
        pytest.fail(f"the {BACKEND} backend could not be set in the page:\n{_webgl_ready.backend_error}")
    yield _webgl_ready
    _webgl_ready.reset()


@pytest.fixture
def run_py(page_harness):
    """run_py(code, **variables) -> value; see the module docstring."""
    return page_harness.run


@pytest.fixture(params=[True, False], ids=["fused", "unfused"])
def fusion_both_ways(request, page_harness):
    """Runs a test with lazy elementwise fusion on and off (flag WEBGPU_FUSION or WEBGL_FUSION, of
    the session's backend; the reset after the test restores it):
    `pytestmark = pytest.mark.usefixtures("fusion_both_ways")`."""
    flag = "WEBGPU_FUSION" if BACKEND == "webgpu" else "WEBGL_FUSION"
    page_harness.run(f"tf.env().set({flag!r}, {request.param})")
    return request.param


def _encode_input(a):
    a = np.asarray(a)
    dtype = {np.dtype(np.float32): "float32", np.dtype(np.int32): "int32", np.dtype(np.bool_): "bool"}.get(a.dtype)
    if dtype is None:
        raise TypeError(f"compare_with_cpu: inputs must be float32, int32 or bool arrays, got {a.dtype}")
    return {"values": a.ravel().tolist(), "shape": list(a.shape), "dtype": dtype}


def _outputs(out):
    """A Tensor or a (nested) list/tuple of them -> flat list of Tensors."""
    if isinstance(out, tf.Tensor):
        return [out]
    if isinstance(out, (list, tuple)):
        return [t for o in out for t in _outputs(o)]
    raise TypeError(f"compare_with_cpu: the function must return a Tensor or a list of them, got {type(out).__name__}")


def _cpu_reference(fn_src, inputs):
    tf.set_backend("cpu")
    fn = eval(fn_src, {"tf": tf, "np": np})  # noqa: S307 - test source
    xs = [tf.tensor(x["values"], x["shape"], x["dtype"]) for x in inputs]
    try:
        outs = _outputs(fn(*xs))
        result = [(tuple(t.shape), t.dtype, t.numpy()) for t in outs]
        tf.dispose(outs)
        return result
    finally:
        tf.dispose(xs)


_PAGE_COMPARE = '''
fn = eval(fn_src, {"tf": tf})
xs = [tf.tensor(x["values"], x["shape"], x["dtype"]) for x in inputs]
out = fn(*xs)
result = await _to_plain(out)
tf.dispose(xs)
tf.dispose(out)
'''


def _flatten_plain(value):
    if isinstance(value, np.ndarray):
        return [value]
    return [v for item in value for v in _flatten_plain(item)]


@pytest.fixture
def compare_with_cpu(page_harness):
    """compare_with_cpu(fn_src, inputs, rtol=1e-5, atol=1e-6): fn on the cpu backend here and on
    webgl in the page must give the same shapes, dtypes and values (within tolerance for
    float32; exactly for int32 and bool; NaN where the other has NaN). Returns the webgl outputs.
    On half floats (F16) the reference starts from the inputs as the textures hold them, the
    tolerances scale with the unit roundoff, and int32 is compared within it too."""

    def compare(fn_src, inputs, rtol=1e-5, atol=1e-6):
        encoded = [_encode_input(a) for a in inputs]
        expected = [(shape, dtype, as_stored(want)) for shape, dtype, want
                    in _cpu_reference(fn_src, [_encode_input(as_stored(a)) for a in inputs])]
        rtol, atol = tolerance(rtol, atol)
        g = {"fn_src": fn_src, "inputs": encoded}
        page_code = "from pytfweb.host.script import to_plain as _to_plain\n" + _PAGE_COMPARE
        actual = _flatten_plain(page_harness.run(page_code, filename="<compare_with_cpu>", **g))
        assert len(actual) == len(expected), f"{fn_src}: {len(actual)} outputs on webgl, {len(expected)} on cpu"
        for i, ((shape, dtype, want), got) in enumerate(zip(expected, actual)):
            where = f"{fn_src} output {i}"
            assert got.shape == shape, f"{where}: shape {got.shape} on webgl, {shape} on cpu"
            assert str(got.dtype) == dtype, f"{where}: dtype {got.dtype} on webgl, {dtype} on cpu"
            if dtype == "float32":
                got = lost_infinities(got, want)
                np.testing.assert_allclose(got, want, rtol=rtol, atol=atol, equal_nan=True, err_msg=where)
            elif dtype == "int32" and F16:   # integers above 2048 are rounded in half-float textures
                np.testing.assert_allclose(got, want, rtol=rtol, atol=0, err_msg=where)
            else:
                np.testing.assert_array_equal(got, want, err_msg=where)
        return actual

    return compare
