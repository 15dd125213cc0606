"""The webgl backend as an engine backend: readback, memory, errors, programs, half floats."""
import numpy as np
import pytest

from .conftest import F16, PageError


@pytest.mark.webgl_only("the WebGL renderer string and context")
def test_renderer_and_backend(run_py):
    info = run_py("[tf.get_backend(), tf.backend().renderer, tf.backend().half_float]")
    assert info[0] == "webgl"
    assert isinstance(info[1], str) and info[1]
    assert info[2] is F16  # float32 rendering works in SwiftShader: half floats only when forced


def test_readback_paths_agree(run_py):
    out = run_py("""
x = tf.tensor([[1.5, -2], [3, 4]]) * 2
i = tf.tensor([3, -4, 5], dtype='int32') * 2
b = tf.tensor([True, False])
a_async = await x.data()
result = [x.data_sync().typecode, list(x.data_sync()), list(a_async), await x.array(), x.array_sync(),
          i.data_sync().typecode, list(await i.data()), b.data_sync().typecode, b.array_sync()]
""")
    assert out[0] == "f" and out[1] == out[2] == [3.0, -4.0, 6.0, 8.0]
    assert out[3] == out[4] == [[3.0, -4.0], [6.0, 8.0]]
    assert out[5] == "i" and out[6] == [6, -8, 10]
    assert out[7] == "B" and out[8] == [True, False]


def test_second_read_comes_from_the_cpu_copy(run_py):
    out = run_py("""
x = tf.exp(tf.tensor([0.0, 1.0]))
first = x.data_sync()
result = [first is x.data_sync(), tf.backend().store[x.data_id].values is not None]
""")
    assert out == [True, True]


@pytest.mark.webgl_only("webgl's data_sync blocks the page (gl.readPixels); webgpu's waits without blocking it")
def test_data_does_not_block_the_page(page_harness):
    """A setInterval counter keeps ticking while `await t.data()` waits on a long GPU
    computation, and does not tick during data_sync() of the same work."""
    page = page_harness.page
    page.evaluate("() => { window.ticks = 0; window.ticker = setInterval(() => window.ticks++, 1); }")
    try:
        out = page_harness.run("""
import js
def heavy():
    # Enough GPU work for SwiftShader to take a visible while: a chain of large exps.
    x = tf.fill([1024, 1024], 0.5)
    for _ in range(12):
        x = tf.sin(x * 1.0001 + 0.1)
    return x
a = tf.tidy(heavy)
t0 = js.ticks
values = await a.data()
ticks_async = js.ticks - t0
b = tf.tidy(heavy)
t1 = js.ticks
values_sync = b.data_sync()
ticks_sync = js.ticks - t1
result = [ticks_async, ticks_sync, list(values[:3]) == list(values_sync[:3])]
""")
    finally:
        page.evaluate("() => clearInterval(window.ticker)")
    ticks_async, ticks_sync, same = out
    assert same
    assert ticks_sync == 0, "data_sync() must block the page (it is the blocking path)"
    assert ticks_async > 0, "await data() must let the page's event loop run while the GPU works"


@pytest.mark.webgl_only("counts webgl's textures (num_textures)")
def test_tidy_loop_keeps_tensor_and_texture_counts_flat(run_py):
    out = run_py("""
x = tf.tensor([1.0, 2.0, 3.0])
w = tf.tensor([[0.5], [0.25], [2.0]])
def step():
    return tf.sum(tf.relu(x - 1) * tf.sigmoid(x))
before = None
for i in range(1000):
    y = tf.tidy(step)
    y.dispose()
    if i == 10:
        m = tf.memory()
        before = (m.num_tensors, m.num_textures, m.num_bytes_in_gpu)
m = tf.memory()
result = [before, (m.num_tensors, m.num_textures, m.num_bytes_in_gpu)]
""")
    assert out[0] == out[1]


@pytest.mark.webgl_only("webgl's texture recycler")
def test_dispose_recycles_textures(run_py):
    out = run_py("""
x = tf.tensor([1.0, 2.0, 3.0, 4.0])
a = x + 1
m1 = tf.memory()
x.dispose()
a.dispose()
m2 = tf.memory()
y = tf.tensor([5.0, 6.0, 7.0, 8.0])
b = y * 2
m3 = tf.memory()
result = [in_use(m1), in_use(m2), m2.num_bytes_in_gpu_free,
          in_use(m3), m3.num_textures - m1.num_textures]
""")
    used1, used2, free2, used3, grown = out
    assert used2 == used1 - 2 and free2 > 0
    assert used3 == used1
    assert grown == 0, "the second computation should reuse the recycled textures"


def test_reshape_shares_the_texture(run_py):
    out = run_py("""
a = tf.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]) * 1
n = in_use()
b = a.reshape([3, 2])
c = b + 0
result = [in_use() - n, c.array_sync()]
""")
    assert out[0] == 1  # only c has a new texture
    assert out[1] == [[1, 2], [3, 4], [5, 6]]


def test_disposed_tensor_raises_and_backend_stays_usable(run_py):
    with pytest.raises(PageError) as e:
        run_py("a = tf.tensor([1.0, 2.0]) * 2\na.dispose()\ntf.exp(a)")
    assert e.value.type == "DisposedTensorError" and "disposed" in e.value.message
    assert run_py("(tf.tensor([1.0, 2.0]) + 1).array_sync()") == [2.0, 3.0]


def test_shape_error_is_clear_and_leaks_nothing(run_py):
    out = run_py("""
before = tf.memory()
try:
    tf.add(tf.zeros([2, 3]), tf.zeros([4]))
    err = None
except ValueError as exc:
    err = str(exc)
tf.dispose([])
after = tf.memory()
result = [err, in_use(before), in_use(after), (tf.ones([2]) * 3).array_sync()]
""")
    err, used_before, used_after, works = out
    assert err and "add" in err and "[2, 3]" in err and "[4]" in err
    assert works == [3.0, 3.0]


@pytest.mark.webgl_only("GLSL compile errors")
def test_glsl_error_reports_log_and_numbered_source(run_py):
    out = run_py("""
from pytfweb.backends.webgl.programs import Program
from pytfweb.backends.webgl.gpgpu_context import ShaderError
x = tf.tensor([1.0, 2.0])
bad = Program("test:bad", ("x",), (2,), "void main() { setOutput(undefinedThing(getXAtOutCoords())); }")
try:
    tf.backend().run(bad, [x], "float32")
    msg = None
except ShaderError as exc:
    msg = str(exc)
result = [msg, (x + 1).array_sync()]
""")
    msg, still_works = out
    assert msg is not None and "failed to compile" in msg
    assert "undefinedThing" in msg                 # the info log names the culprit
    assert "   1  #version 300 es" in msg          # the source comes numbered
    assert still_works == [2.0, 3.0]


def test_tiling_respects_max_texture_size(run_py):
    """A tensor larger than the (lowered) texture limit in one dimension is laid out squarish."""
    out = run_py("""
tf.env().set("WEBGL_MAX_TEXTURE_SIZE", 32)
from pytfweb.backends.webgl.backend import WebGLBackend
tf.copy_registered_kernels("webgl", "webgl-small")
tf.register_backend("webgl-small", WebGLBackend)
tf.set_backend("webgl-small")
try:
    x = tf.range(0, 300).reshape([3, 100])
    y = (x * 2 + 1).transpose() if hasattr(x, "transpose") else x * 2 + 1
    tex = tf.backend().store[y.data_id].tex_shape
    result = [tex, y.array_sync()]
finally:
    tf.set_backend("webgl")
    tf.remove_backend("webgl-small")
""")
    tex, values = out
    assert max(tex) <= 32 and tex[0] != 3  # [100, 3] cannot use 3-wide rows: 100 > 32
    expected = (np.arange(300).reshape(3, 100) * 2 + 1).T
    np.testing.assert_array_equal(np.array(values), expected)


def test_half_float_textures_when_forced(run_py):
    """WEBGL_FORCE_F16_TEXTURES takes the path used where float32 cannot be rendered."""
    out = run_py("""
tf.env().set("WEBGL_FORCE_F16_TEXTURES", True)
from pytfweb.backends.webgl.backend import WebGLBackend
tf.copy_registered_kernels("webgl", "webgl-f16")
tf.register_backend("webgl-f16", WebGLBackend)
tf.set_backend("webgl-f16")
try:
    x = tf.tensor([[0.5, -1.25, 3.0], [100.0, 0.001, -7.5]])
    y = tf.sigmoid(x * 2 - 1)
    s = tf.sum(x, axis=1) if hasattr(tf, "sum") else x
    result = [tf.backend().half_float, tf.backend().epsilon(), y.array_sync(), s.array_sync(),
              tf.memory().num_bytes_in_gpu > 0]
finally:
    tf.set_backend("webgl")
    tf.remove_backend("webgl-f16")
""")
    half, eps, y, s, _ = out
    assert half is True and eps == pytest.approx(1e-4)
    x = np.array([[0.5, -1.25, 3.0], [100.0, 0.001, -7.5]])
    # half floats carry ~3 decimal digits
    np.testing.assert_allclose(y, 1 / (1 + np.exp(-(x * 2 - 1))), rtol=2e-3, atol=2e-3)
    np.testing.assert_allclose(s, x.sum(axis=1), rtol=2e-3, atol=2e-3)


def test_half_floats_where_float32_cannot_be_rendered(run_py):
    """A browser without EXT_color_buffer_float (getExtension gives null: Pyodide's jsnull, which
    is not None) falls back to half-float textures by itself; without either extension the
    backend says it cannot render."""
    out = run_py(r"""
import js
from pytfweb.backends.webgl.backend import WebGLBackend
from pytfweb.core.errors import BackendError
js.eval('''
  window.__realGetContext = OffscreenCanvas.prototype.getContext;
  window.__hideExtensions = (names) => {
    OffscreenCanvas.prototype.getContext = function (...args) {
      const gl = window.__realGetContext.apply(this, args);
      if (gl) { const real = gl.getExtension.bind(gl); gl.getExtension = (n) => names.includes(n) ? null : real(n); }
      return gl;
    };
  };''')
tf.copy_registered_kernels("webgl", "webgl-nof32")
tf.register_backend("webgl-nof32", WebGLBackend)
try:
    js.__hideExtensions(js.Array.of("EXT_color_buffer_float"))
    tf.set_backend("webgl-nof32")
    x = tf.tensor([1.5, -2.25])
    fallback = [tf.backend().half_float, tf.backend().float_precision(), (x * 2).array_sync()]
    tf.set_backend("webgl")
    tf.remove_backend("webgl-nof32")
    js.__hideExtensions(js.Array.of("EXT_color_buffer_float", "EXT_color_buffer_half_float"))
    try:
        WebGLBackend()
        refused = None
    except BackendError as exc:
        refused = str(exc)
finally:
    js.eval("OffscreenCanvas.prototype.getContext = window.__realGetContext")
    tf.set_backend("webgl")
    if "webgl-nof32" in tf.engine().registry:
        tf.remove_backend("webgl-nof32")
result = [fallback, refused]
""")
    (half, precision, values), refused = out
    assert half is True and precision == 16 and values == [3.0, -4.5]
    assert refused == "webgl: neither float32 nor float16 textures can be rendered to here"


def test_profile_times_gpu_work_on_webgl(run_py):
    out = run_py("""
x = tf.ones([128, 128])
info = await tf.profile(lambda: tf.tidy(lambda: tf.mat_mul(x, x)))
t = await tf.time(lambda: tf.tidy(lambda: tf.mat_mul(x, x)).dispose())
result = [[(k.name, k.input_shapes, k.output_shapes) for k in info.kernels], info.new_tensors,
          info.kernels[0].kernel_ms > 0, t.wall_ms >= t.kernel_ms > 0]
info.result.dispose()
""")
    kernels, new_tensors, timed, timing_ok = out
    assert kernels == [["BatchMatMul", [[128, 128], [128, 128]], [[128, 128]]]]
    assert new_tensors == 1 and timed and timing_ok
