"""webgl BatchMatMul (mat_mul, dot, outer_product) against the cpu backend."""
import numpy as np
import pytest

from .conftest import as_stored, tolerance

rng = np.random.default_rng(11)


def _floats(*shape):
    return rng.uniform(-2, 2, size=shape).astype(np.float32)


def test_non_square_and_transposes(compare_with_cpu):
    a, b = _floats(3, 5), _floats(5, 4)
    at, bt = np.ascontiguousarray(a.T), np.ascontiguousarray(b.T)
    compare_with_cpu("""lambda a, b, at, bt: [tf.mat_mul(a, b), tf.mat_mul(at, b, transpose_a=True),
        tf.mat_mul(a, bt, transpose_b=True), tf.mat_mul(at, bt, transpose_a=True, transpose_b=True),
        tf.mat_mul(b, a, transpose_a=True, transpose_b=True)]""", [a, b, at, bt])


def test_batch_broadcasting(compare_with_cpu):
    a, b = _floats(2, 1, 3, 4), _floats(3, 4, 2)
    c, d = _floats(1, 3, 4), _floats(5, 2, 4)
    f, g = _floats(2, 1, 4, 3), _floats(3, 5, 4)
    compare_with_cpu("lambda a, b, c, d, f, g: [tf.mat_mul(a, b), tf.mat_mul(c, d, transpose_b=True), "
                     "tf.mat_mul(f, g, transpose_a=True, transpose_b=True)]", [a, b, c, d, f, g])


def test_int32_bool_and_vectors(compare_with_cpu):
    a = rng.integers(-100, 100, size=(2, 3, 4)).astype(np.int32)
    b = rng.integers(-100, 100, size=(2, 4, 3)).astype(np.int32)
    p, q = rng.uniform(size=(3, 2)) < 0.5, rng.uniform(size=(2, 4)) < 0.5
    v, w = _floats(6), _floats(6)
    compare_with_cpu("lambda a, b, p, q, v, w: [tf.mat_mul(a, b), tf.mat_mul(p, q), tf.dot(v, w), "
                     "tf.outer_product(v, w), tf.dot(tf.reshape(v, [2, 3]), tf.reshape(w, [3, 2]))]",
                     [a, b, p, q, v, w])


@pytest.mark.filterwarnings("ignore:invalid value encountered")  # numpy, on inf * 0
def test_edge_values_unit_and_empty_inner(compare_with_cpu):
    a = np.array([[1.0, np.nan], [np.inf, 0.0], [1e20, 1e20]], dtype=np.float32)
    b = np.array([[2.0, 1.0], [1.0, -1.0]], dtype=np.float32)
    one = _floats(1, 1)
    e1, e2 = np.zeros((2, 0), np.float32), np.zeros((0, 3), np.float32)
    compare_with_cpu("lambda a, b, one, e1, e2: [tf.mat_mul(a, b), tf.mat_mul(one, one), tf.mat_mul(e1, e2)]",
                     [a, b, one, e1, e2])


def test_long_inner_dimension(compare_with_cpu):
    a, b = _floats(2, 3000), _floats(3000, 3)
    compare_with_cpu("lambda a, b: tf.mat_mul(a, b)", [a, b], rtol=1e-4, atol=1e-3)


# --- the packed product (programs/gemm.py): products of at least gemm.MIN_WORK multiply-adds ---

_USED_GEMM = """
def _gemm_programs():
    return sum(1 for key in tf.backend().programs if str(key[0]).startswith("gemm:product:"))
"""


@pytest.mark.webgl_only("webgl's packed GEMM programs")
def test_packed_product_sizes_transposes_and_batches(compare_with_cpu, run_py):
    # sizes that are not multiples of 4 (padding), every transpose, broadcast batches
    a, b = _floats(37, 53), _floats(53, 29)
    at, bt = np.ascontiguousarray(a.T), np.ascontiguousarray(b.T)
    c, d = _floats(2, 1, 33, 40), _floats(3, 40, 27)
    products = """lambda a, b, at, bt, c, d: [tf.mat_mul(a, b), tf.mat_mul(at, b, transpose_a=True),
        tf.mat_mul(a, bt, transpose_b=True), tf.mat_mul(at, bt, transpose_a=True, transpose_b=True),
        tf.mat_mul(c, d), tf.mat_mul(d, c, transpose_a=True, transpose_b=True)]"""
    compare_with_cpu(products, [a, b, at, bt, c, d], rtol=1e-5, atol=1e-4)
    # the products the packed path drew: shapeless, so one program for every 2D shape and
    # transpose, and one per batch broadcast (its code)
    keys = run_py("""
be = tf.backend()
run_packed, keys = be.run_packed, []
def recording(program, *rest, **kw):
    if program.key.startswith("gemm:product:"):
        keys.append(program.key if program.shapeless else [program.key, list(program.output_shape)])
    return run_packed(program, *rest, **kw)
be.run_packed = recording
try:
    tf.dispose(tf.tidy(lambda: (""" + products + """)(*[tf.tensor(v) for v in (a, b, at, bt, c, d)])))
finally:
    del be.run_packed
result = keys
""", **{k: v.tolist() for k, v in dict(a=a, b=b, at=at, bt=bt, c=c, d=d).items()})
    assert len(keys) == 6 and all(isinstance(k, str) for k in keys), keys     # every product packed, shapeless
    assert len(set(keys)) == 3, keys


@pytest.mark.filterwarnings("ignore:invalid value encountered")  # numpy, on inf * 0
def test_packed_product_edge_values_and_int32(compare_with_cpu):
    a, b = _floats(40, 44), _floats(44, 36)
    a[3, 7], a[10, 0], b[5, 2], b[43, 35] = np.nan, np.inf, -np.inf, 1e30
    ia = rng.integers(-30, 30, size=(40, 50)).astype(np.int32)    # products within half floats' range
    ib = rng.integers(-30, 30, size=(50, 40)).astype(np.int32)
    compare_with_cpu("lambda a, b, ia, ib: [tf.mat_mul(a, b), tf.mat_mul(ia, ib)]", [a, b, ia, ib],
                     rtol=1e-5, atol=1e-4)


def test_packed_fused_mat_mul_bias_and_activations(compare_with_cpu):
    a, b = _floats(3, 30, 40), _floats(40, 50)
    bias, alpha = _floats(50), _floats(30, 50)
    compare_with_cpu("""lambda a, b, bias, alpha: [
        tf.fused.mat_mul(a, b, bias=bias, activation='relu'),
        tf.fused.mat_mul(a, b, bias=bias, activation='prelu', prelu_activation_weights=alpha),
        tf.fused.mat_mul(a, b, activation='leakyrelu', leakyrelu_alpha=0.3),
        tf.fused.mat_mul(b, a, transpose_a=True, transpose_b=True, activation='sigmoid')]""",
                     [a, b, bias, alpha], rtol=1e-5, atol=1e-4)


def test_packed_product_folded_rows_half_floats_and_fewer_render_targets(run_py):
    """A grid of packed rows taller than the (lowered) texture limit folds into wider rows;
    forced half floats pack into RGBA16F; with 4 render targets the product takes 4 rows per
    fragment, with fewer the one-value program (and depthwise its one-value program too)."""
    a, b = _floats(200, 20), _floats(20, 16)
    out = run_py("""
from pytfweb.backends.webgl.backend import WebGLBackend
""" + _USED_GEMM + """
results = []
for flag, value, name in [("WEBGL_MAX_TEXTURE_SIZE", 64, "webgl-small"), ("WEBGL_FORCE_F16_TEXTURES", True, "webgl-f16"),
                          ("WEBGL_MAX_DRAW_BUFFERS", 4, "webgl-4rt"), ("WEBGL_MAX_DRAW_BUFFERS", 2, "webgl-2rt")]:
    old = tf.env().get(flag)
    tf.env().set(flag, value)
    tf.copy_registered_kernels("webgl", name)
    tf.register_backend(name, WebGLBackend)
    tf.set_backend(name)
    try:
        y = tf.mat_mul(tf.tensor(a), tf.tensor(b))
        d = tf.depthwise_conv2d(tf.reshape(tf.tensor(a), [1, 20, 10, 20]), tf.ones([3, 3, 20, 1]), 1, "same")
        results.append([y.array_sync(), _gemm_programs(), d.array_sync()])
    finally:
        tf.set_backend("webgl")
        tf.remove_backend(name)
        tf.env().set(flag, old)
result = results
""", a=a.tolist(), b=b.tolist())
    (small, small_gemm, _), (half, half_gemm, _), (four, four_gemm, d4), (two, two_gemm, d2) = out
    assert (small_gemm, half_gemm, four_gemm, two_gemm) == (1, 1, 1, 0)
    product = as_stored(a) @ as_stored(b)
    np.testing.assert_allclose(small, product, *tolerance(1e-5, 1e-4))
    np.testing.assert_allclose(half, a @ b, rtol=2e-2, atol=2e-2)   # operands rounded to half floats
    np.testing.assert_allclose(four, product, *tolerance(1e-5, 1e-4))
    np.testing.assert_allclose(two, product, *tolerance(1e-5, 1e-4))
    x = np.pad(as_stored(a).reshape(20, 10, 20), ((1, 1), (1, 1), (0, 0)))
    window_sums = sum(x[i:i + 20, j:j + 10] for i in range(3) for j in range(3))
    np.testing.assert_allclose(d4[0], window_sums, *tolerance(1e-5, 1e-4))
    np.testing.assert_allclose(d2[0], window_sums, *tolerance(1e-5, 1e-4))


@pytest.mark.webgl_only("webgl's packed GEMM weights")
def test_packed_weights_are_kept_with_their_data_and_freed_with_it(run_py):
    out = run_py("""
be = tf.backend()
before = in_use()
x, w = tf.random_uniform([50, 40], seed=1), tf.random_uniform([40, 48], seed=2)
y1 = tf.mat_mul(x, w)
textures_one = in_use()
y2 = tf.mat_mul(x, w)
textures_two = in_use()
derived = len(be.derived.get(w.data_id, {}))
diff = tf.tidy(lambda: tf.max(tf.abs(y1 - y2)))
same = diff.array_sync()
tf.dispose([x, w, y1, y2, diff])
result = [textures_two - textures_one, derived, same, in_use() - before,
          w.data_id in be.derived]
""")
    grown, derived, same, left, still_cached = out
    assert grown == 1             # the second product made only its output: B's packed form was kept
    assert derived == 1 and same == 0.0
    assert left == 0 and not still_cached


def test_packed_int32_product_reads_back_as_ints(run_py):
    """The packed product draws float32; an int32 product still reads back as ints, by either read."""
    out = run_py("""
a = tf.fill([40, 50], 3, 'int32')
y = tf.mat_mul(a, tf.transpose(a))
values = await y.data()
result = [y.dtype, values.typecode, values[0], y.data_sync().typecode]
tf.dispose([a, y])
""")
    assert out == ["int32", "i", 450, "i"]
