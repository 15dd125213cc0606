"""webgl against cpu for the math family: the table rows it added to ops/elementwise.py (inverse
trigonometric and hyperbolic functions, tan, erf, expm1, the tests, step, atan2, bitwise_and),
the composites built on them, and prelu, add_n, cumsum, cumprod, norm, bincount.

Each compare_with_cpu call runs several ops at once: shader compiles dominate on SwiftShader."""
import numpy as np
import pytest

from .conftest import gradient_threshold
from .inputs import INT_LIMIT

rng = np.random.default_rng(5)

# Table rows added by the math family (test_webgl_elementwise.py leaves these to this file:
# they need their own domains and tolerances).
MATH_KERNELS = {"Acos", "Acosh", "Asin", "Asinh", "Atan", "Atanh", "Cosh", "Sinh", "Tan", "Erf", "Expm1",
                "IsNan", "IsInf", "IsFinite", "Step", "Atan2", "BitwiseAnd"}

EDGES = np.float32([0.0, -0.0, np.nan, np.inf, -np.inf])
# GPU transcendental functions are approximations (see TRIG_TOLERANCE in test_webgl_elementwise.py).
TRIG_TOLERANCE = dict(rtol=2e-4, atol=2e-4)
TOLERANCE = dict(rtol=1e-4, atol=1e-5)


def _with_edges(values):
    return np.concatenate([EDGES, np.float32(values).ravel()]).astype(np.float32)


def _uniform(low, high, *shape):
    return rng.uniform(low, high, size=shape).astype(np.float32)


def test_inverse_trigonometric(compare_with_cpu):
    inside = _with_edges(np.concatenate([_uniform(-1, 1, 20), [1.0, -1.0, 1.5, -2.0, 1e-4, -3e-6]]))
    compare_with_cpu("lambda x: [tf.acos(x), tf.asin(x), tf.atan(x), tf.atan(x * 1000.0), tf.atanh(x)]",
                     [inside], **TRIG_TOLERANCE)


def test_hyperbolic(compare_with_cpu):
    x = _with_edges(np.concatenate([_uniform(-5, 5, 20), [1e-4, -2e-3, 0.3, -0.49, 0.51, 20.0, -40.0, 89.0,
                                                          1e5, -3e6]]))
    compare_with_cpu("lambda x: [tf.sinh(x), tf.cosh(x), tf.asinh(x), tf.acosh(x), tf.acosh(tf.abs(x) + 1.0)]",
                     [x], **TOLERANCE)


def test_tan_erf_expm1(compare_with_cpu):
    x = _with_edges(np.concatenate([_uniform(-1.4, 1.4, 20), [1e-5, -1e-3, 0.4, -0.6]]))
    wide = _with_edges(np.concatenate([_uniform(-6, 6, 20), [1e-6, -2e-4, 0.49, -0.51, 30.0, -100.0, 89.0]]))
    compare_with_cpu("lambda x, w: [tf.tan(x), tf.erf(w), tf.expm1(w), tf.log_sigmoid(w)]", [x, wide],
                     **TRIG_TOLERANCE)


def test_tests_and_step(compare_with_cpu):
    x = _with_edges(_uniform(-3, 3, 3, 4))
    i = rng.integers(-5, 5, size=(2, 3)).astype(np.int32)
    b = rng.uniform(size=(4,)) < 0.5
    compare_with_cpu("""lambda x, i, b: [tf.is_nan(x), tf.is_inf(x), tf.is_finite(x), tf.is_nan(i),
        tf.is_finite(b), tf.step(x), tf.step(x, 0.25), tf.step(i, -2), tf.step(i)]""", [x, i, b])


def test_atan2_quadrants_and_edges(compare_with_cpu):
    values = np.float32([0.0, -0.0, 1.0, -1.0, 2.5, -0.3, np.inf, -np.inf, np.nan])
    a, b = np.repeat(values, len(values)), np.tile(values, len(values))
    compare_with_cpu("lambda a, b: tf.atan2(a, b)", [a, b], **TRIG_TOLERANCE)
    compare_with_cpu("lambda a, b: tf.atan2(a, b)", [_uniform(-3, 3, 4, 1, 3), _uniform(-3, 3, 2, 1)],
                     **TRIG_TOLERANCE)


def test_bitwise_and_logical_xor_div_no_nan(compare_with_cpu):
    a = rng.integers(-INT_LIMIT, INT_LIMIT, size=(3, 5)).astype(np.int32)
    b = rng.integers(-INT_LIMIT, INT_LIMIT, size=(3, 5)).astype(np.int32)
    p, q = rng.uniform(size=(2, 3)) < 0.5, rng.uniform(size=(3,)) < 0.5
    f, g = _uniform(-3, 3, 2, 4), np.float32([0.0, 2.0, -0.0, 0.5])
    i, j = np.int32([7, -7, 3, 0]), np.int32([2, 0, -2, 0])
    compare_with_cpu("""lambda a, b, p, q, f, g, i, j: [tf.bitwise_and(a, b), tf.logical_xor(p, q),
        tf.div_no_nan(f, g), tf.div_no_nan(i, j)]""", [a, b, p, q, f, g, i, j], **TOLERANCE)


def test_prelu_and_add_n(compare_with_cpu):
    x = _with_edges(_uniform(-3, 3, 7)).reshape(3, 4)
    alpha = _uniform(0, 0.5, 4)
    ints = [rng.integers(-100, 100, size=(2, 3)).astype(np.int32) for _ in range(3)]
    many = [_uniform(-1, 1, 2, 2) for _ in range(17)]    # past one pass's texture limit
    compare_with_cpu("lambda x, alpha, i0, i1, i2: [tf.prelu(x, alpha), tf.prelu(x, 0.1), "
                     "tf.add_n([x, x, x]), tf.add_n([i0, i1, i2]), tf.add_n([x])]", [x, alpha, *ints])
    compare_with_cpu("lambda *xs: tf.add_n(list(xs))", many, **TOLERANCE)


def test_cumsum_cumprod_every_axis_and_direction(compare_with_cpu):
    x = _uniform(0.5, 1.5, 2, 5, 3)
    compare_with_cpu("""lambda x: [tf.cumsum(x), tf.cumsum(x, 1), tf.cumsum(x, -1, True), tf.cumsum(x, 1, False, True),
        tf.cumsum(x, 1, True, True), tf.cumprod(x, 1), tf.cumprod(x, 2, True, True), tf.cumprod(x, 0, False, True)]""",
                     [x], **TOLERANCE)


def test_cumulative_long_axis_ints_and_edges(compare_with_cpu):
    long = _uniform(-1, 1, 1000)
    ints = rng.integers(-50, 50, size=(3, 37)).astype(np.int32)
    edges = np.float32([1.0, np.nan, 2.0, np.inf, -1.0])
    b = rng.uniform(size=(6,)) < 0.5
    compare_with_cpu("""lambda v, i, e, b: [tf.cumsum(v), tf.cumsum(v, 0, True, True), tf.cumsum(i, 1), tf.cumprod(
        tf.sign(i), 1, True), tf.cumsum(e), tf.cumprod(e, 0, False, True), tf.cumsum(b), tf.cumsum(tf.slice(i, [0, 0], [3, 1]), 1),
        tf.cumprod(tf.slice(i, [0, 0], [3, 1]), 1, True)]""", [long, ints, edges, b], rtol=1e-4, atol=1e-4)


def test_norms(compare_with_cpu):
    x = _uniform(-3, 3, 3, 4)
    v = np.float32([3.0, -4.0, 0.0, 1.0])
    compare_with_cpu("""lambda x, v: [tf.norm(x), tf.norm(v, 1), tf.norm(v, np.inf), tf.norm(v, -np.inf),
        tf.norm(x, 2, 1, True), tf.norm(x, 'fro', [0, 1]), tf.norm(x, 1, [0, 1]), tf.norm(x, np.inf, [0, 1]),
        tf.euclidean_norm(x, 0)]""".replace("np.inf", "float('inf')"), [x, v], **TOLERANCE)


def test_bincounts(compare_with_cpu):
    x = rng.integers(0, 8, size=(20,)).astype(np.int32)
    w = _uniform(0, 2, 20)
    iw = rng.integers(-3, 9, size=(20,)).astype(np.int32)
    m = rng.integers(0, 6, size=(3, 7)).astype(np.int32)
    mw = _uniform(-1, 1, 3, 7)
    empty = np.zeros((0,), np.float32)
    compare_with_cpu("""lambda x, w, iw, m, mw, e: [tf.bincount(x, w, 6), tf.bincount(x, e, 10), tf.bincount(x, iw, 8),
        tf.bincount(x, w, 0), tf.dense_bincount(x, e, 5), tf.dense_bincount(m, mw, 6), tf.dense_bincount(m, e, 4, True),
        tf.dense_bincount(m, mw, 6, True), tf.bincount(tf.tensor([], dtype='int32'), e, 3),
        tf.bincount(m, mw, 5)]""",
                     [x, w, iw, m, mw, empty], **TOLERANCE)


def test_gradients_in_the_page(run_py):
    """A representative few numeric gradient checks, on webgl."""
    worst = run_py("""
from pytfweb.testing import numeric_gradient_error as err
x = tf.tensor([[0.3, -0.6, 0.2], [-0.1, 0.5, -0.4]])
a = tf.tensor([0.2, 0.4, 0.1])
result = [err(lambda t: tf.asin(t) + tf.atanh(t) + tf.sinh(t) + tf.erf(t), [x]),
          err(lambda t, s: tf.atan2(t, s + 2.0), [x, a]),
          err(lambda t, s: tf.prelu(t, s), [x, a]),
          err(lambda t: tf.cumsum(t, 1, True, True), [x]),
          err(lambda t: tf.norm(t, 'euclidean', 1), [x])]
""")
    assert max(worst) < gradient_threshold(2e-2), worst


@pytest.mark.webgl_only("webgl never checks index values; webgpu checks CPU-side ones as cpu does")
def test_bincount_skips_negative_values_on_webgl(run_py):
    # cpu raises for a negative value; a shader cannot, so webgl leaves it out of every bin
    counts = run_py("tf.bincount(tf.tensor([1, -2, 1], dtype='int32'), tf.tensor([]), 3)")
    assert counts.tolist() == [0.0, 2.0, 0.0]
