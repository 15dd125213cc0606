"""Gradients on webgl: the elementwise, reduction, matmul and nn gradients checked against
numeric differences in the page, and every one of their kernels' analytic gradients compared
with the cpu backend's.

Checks are batched into few calls: shader compiles dominate on SwiftShader."""
import numpy as np
import pytest

from .conftest import as_stored, gradient_threshold, tolerance

# every test here runs with lazy elementwise fusion on and off (conftest.fusion_both_ways)
pytestmark = pytest.mark.usefixtures("fusion_both_ways")

rng = np.random.default_rng(21)


def away(*shape, low=0.3, high=2.5):
    """Values at least `low` from 0 (the kink of abs, relu, ...), random signs."""
    return (rng.uniform(low, high, size=shape) * rng.choice([-1.0, 1.0], size=shape)).astype(np.float32)


def positive(*shape, low=0.3, high=2.5):
    return rng.uniform(low, high, size=shape).astype(np.float32)


def weights(*shape):
    return rng.uniform(0.5, 1.5, size=shape).astype(np.float32)


# --- numeric checks in the page -------------------------------------------------------------------

_NUMERIC = r'''
from pytfweb.testing import numeric_gradient_error
x = tf.tensor(x)
p = tf.tensor(p)
m = tf.tensor(m)
r = tf.tensor(r)
s = tf.tensor(s)
checks = {
    "exp": (tf.exp, [x]),
    "tanh": (tf.tanh, [x]),
    "sigmoid": (tf.sigmoid, [x]),
    "relu": (tf.relu, [x]),
    "abs": (tf.abs, [x]),
    "elu": (tf.elu, [x]),
    "leaky_relu": (lambda t: tf.leaky_relu(t, 0.2), [x]),
    "log": (tf.log, [p]),
    "sqrt": (tf.sqrt, [p]),
    "rsqrt": (tf.rsqrt, [p]),
    "sin": (tf.sin, [s]),
    "mul broadcast": (tf.mul, [m, r]),
    "div broadcast": (tf.div, [m, p]),
    "sub broadcast": (tf.sub, [r, m]),
    "pow": (tf.pow, [p, x]),
    "squared_difference": (tf.squared_difference, [m, r]),
    "where": (lambda a, b: tf.where(tf.greater(a, 0), a, b), [m, r]),
    "sum": (lambda t: tf.sum(t, 1), [m]),
    "mean keep_dims": (lambda t: tf.mean(t, 0, keep_dims=True), [m]),
    "max": (lambda t: tf.max(t, 1), [m]),
    "min": (lambda t: tf.min(t, 0), [m]),
    "prod": (lambda t: tf.prod(t, 1), [m]),
    "mat_mul": (lambda a, b: tf.mat_mul(a, b, False, True), [m, tf.reshape(tf.concat([r, p]), [2, 3])]),
    "mat_mul batch": (lambda a, b: tf.mat_mul(a, b, True, False), [tf.reshape(m, [2, 3, 1]), tf.reshape(p, [3, 1])]),
    "softmax": (tf.softmax, [m]),
    "log_softmax": (lambda t: tf.log_softmax(t, -1), [m]),
}
result = {name: numeric_gradient_error(f, xs) for name, (f, xs) in checks.items()}
'''


def test_numeric_gradients_on_webgl(run_py):
    m = np.float32([[0.7, -1.3, 2.1], [-0.4, 1.6, -2.2]])     # far from ties (max, min) and from 0
    # sin where its gradient cos is >= 0.36: the error is relative, and near cos = 0 (x = -1.63,
    # which away() can draw) the centred difference's float32 rounding is a large part of the
    # gradient (sin itself is computed to ~1e-7: gpu/elementwise_ops.py)
    errors = run_py(_NUMERIC, x=away(3).tolist(), p=positive(3).tolist(), m=m.tolist(), r=away(3).tolist(),
                    s=away(3, high=1.2).tolist())
    bad = {name: err for name, err in errors.items() if not err < gradient_threshold(2e-2)}
    assert not bad, f"numeric gradient errors on webgl: {bad}"


def test_second_order_on_webgl(run_py):
    got = run_py("""
x = tf.tensor([0.5, -1.2, 2.0])
def second(f):
    return tf.grad(tf.grad(f))(x).array_sync()
result = [second(lambda u: u * u * u), second(tf.sin), second(tf.exp), second(tf.tanh),
          tf.grad(tf.grad(lambda s: s * s * s))(tf.scalar(2.0)).array_sync()]
""")
    x = as_stored(np.float32([0.5, -1.2, 2.0])).astype(np.float64)
    expect = [6 * x, -np.sin(x), np.exp(x), -2 * np.tanh(x) * (1 - np.tanh(x) ** 2)]
    rtol, atol = tolerance(1e-4, 1e-5)
    for g, e in zip(got[:4], expect):
        np.testing.assert_allclose(g, e, rtol=rtol, atol=atol)
    assert abs(got[4] - 12.0) < atol * 10


def test_gradients_leak_no_tensors_or_textures_on_webgl(run_py):
    counts = run_py("""
x = tf.tensor([[0.5, -1.0, 2.0], [1.5, -0.3, 0.7]])
w = tf.tensor([[1.0], [2.0], [3.0]])
def step():
    loss = lambda a, b: tf.sum(tf.softmax(tf.mat_mul(tf.relu(a), b) * 0.5 + tf.exp(a[:, :1])))
    tf.dispose(tf.grads(loss)([x, w]))
step()
before = (tf.memory().num_tensors, in_use())
for _ in range(3):
    step()
result = [before, (tf.memory().num_tensors, in_use())]
""")
    assert counts[0] == counts[1]


# --- analytic gradients: webgl against cpu -------------------------------------------------------

RTOL, ATOL = 1e-4, 1e-5


def test_unary_gradients_match_cpu(compare_with_cpu):
    x = away(2, 5)
    x[0, :3] = [0.0, 6.0, 1.5]          # the kinks, where TF.js's choices must agree: abs, relu, relu6, clip
    p = positive(2, 5)
    h = (rng.integers(-3, 3, size=(2, 5)) + 0.5).astype(np.float32)   # halves: round's ties
    w = weights(2, 5)
    compare_with_cpu("""lambda x, p, h, w: [tf.grad(f)(x, w) for f in (
            tf.neg, tf.abs, tf.sign, tf.square, tf.relu, tf.relu6, tf.exp, tf.elu, tf.selu, tf.sigmoid,
            tf.tanh, tf.softplus, tf.floor, tf.ceil, tf.round, tf.reciprocal,
            lambda t: tf.leaky_relu(t, 0.3), lambda t: tf.clip_by_value(t, -1, 1.5),
            lambda t: tf.cast(t, 'float32'), lambda t: tf.cast(t, 'int32'))] + [
        tf.grad(f)(p, w) for f in (tf.log, tf.log1p, tf.sqrt, tf.rsqrt)] + [
        tf.grad(tf.round)(h, w),
        tf.grad(lambda t: tf.abs(tf.cast(t, 'int32')))(x, w)]""", [x, p, h, w], rtol=RTOL, atol=ATOL)
    # GPU sin/cos are approximations (~5e-5 absolute error on [-pi, pi], see test_webgl_elementwise)
    compare_with_cpu("lambda x, w: [tf.grad(tf.sin)(x, w), tf.grad(tf.cos)(x, w)]", [x, w], rtol=0, atol=3e-4)


def test_relu_gradient_kernels_match_cpu(compare_with_cpu):
    """ReluGrad/Relu6Grad (one pass each): kinks, NaN x, infinite and NaN dy, int32 x, and the
    second-order gradient."""
    x = np.float32([-1.0, 0.0, 0.5, 6.0, 7.0, np.nan, 3.0, -0.0])
    dy = np.float32([np.inf, np.inf, np.nan, -np.inf, np.nan, 1.0, -2.0, 5.0])
    i = np.int32([-2, 0, 3, 6, 9, 1, -1, 4])
    compare_with_cpu("""lambda x, dy, i: [tf.grad(f)(x, dy) for f in (tf.relu, tf.relu6)] + [
        tf.grad(lambda t: f(tf.cast(t, 'int32')))(i, dy) for f in (tf.relu, tf.relu6)] + [
        tf.grad(lambda a: tf.sum(tf.grad(lambda z: tf.sum(f(z) ** 2))(a)))(x) for f in (tf.relu, tf.relu6)]""",
                     [x, dy, i])


def test_binary_gradients_with_broadcasting_match_cpu(compare_with_cpu):
    a, b = away(2, 3), away(3, low=0.5)
    a[0, 0] = b[0]                      # a tie: maximum and minimum give it to a
    c = away(4, 1, 3)
    i, j = rng.integers(1, 6, size=(2, 3)).astype(np.int32), rng.integers(1, 4, size=(3,)).astype(np.int32)
    w = weights(2, 3)
    compare_with_cpu("""lambda a, b, c, i, j, w: [g for f in (
            tf.add, tf.sub, tf.mul, tf.div, tf.floor_div, tf.mod, tf.maximum, tf.minimum, tf.squared_difference,
            lambda s, t: tf.pow(tf.abs(s), t), lambda s, t: tf.pow(s, tf.round(t)))
        for g in tf.grads(f)([a, b], w)] + [
        g for f in (tf.mul, tf.div, tf.mod, tf.pow, tf.floor_div) for g in tf.grads(f)([i, j], w)] + [
        g for g in tf.grads(lambda s, t: tf.sum(tf.mul(s, t)))([c, a])] + [
        g for g in tf.grads(lambda s, t: tf.sum(tf.where(tf.greater(s, 0), s, t)))([a, b])] + [
        g for g in tf.grads(lambda s, t: tf.sum(tf.where(tf.less(t, 0), s * s, t)))([c, b])]""",
                     [a, b, c, i, j, w], rtol=RTOL, atol=ATOL)


def test_reduction_gradients_match_cpu(compare_with_cpu):
    x = away(2, 3, 4)
    x[0, 1, :2] = x[0, 1, 2]            # ties: max and min pass dy to each
    z = away(2, 3, 4, low=0.6, high=1.4)
    z[1, 2, 3] = 0.0                    # a zero in a product
    i = rng.integers(-3, 4, size=(3, 4)).astype(np.int32)
    compare_with_cpu("""lambda x, z, i: [
        tf.grad(lambda t: tf.sum(tf.sum(t, 1) * tf.range(1, 9, 1).reshape([2, 4])))(x),
        tf.grad(lambda t: tf.sum(tf.sum(t, [0, 2], keep_dims=True) * tf.tensor([[[1.0], [2.0], [3.0]]])))(x),
        tf.grad(lambda t: tf.sum(t))(x),
        tf.grad(lambda t: tf.sum(tf.mean(t, [1, 2]) * tf.tensor([1.0, -2.0])))(x),
        tf.grad(lambda t: tf.mean(t))(x),
        tf.grad(lambda t: tf.sum(tf.max(t, 2) * 3.0))(x),
        tf.grad(lambda t: tf.sum(tf.max(t, [0, 1], keep_dims=True)))(x),
        tf.grad(lambda t: tf.sum(tf.min(t, 1)))(x),
        tf.grad(lambda t: tf.min(t))(x),
        tf.grad(lambda t: tf.sum(tf.prod(t, 2)))(z),
        tf.grad(lambda t: tf.sum(tf.prod(t, [0, 1]) * tf.tensor([1.0, 2.0, 3.0, 4.0])))(z),
        tf.grad(lambda t: tf.prod(t * 1.1))(z[0]),
        tf.grad(lambda t: tf.sum(tf.cast(tf.arg_max(t, 2), 'float32') * t[:, :, 0]))(x),
        tf.grad(lambda t: tf.sum(tf.cast(tf.arg_min(t, 0), 'float32') + t))(x),
        tf.grad(lambda t: tf.sum(tf.where(tf.any(tf.greater(t, 1), 1, keep_dims=True), t, -t)))(x),
        tf.grad(lambda t: tf.sum(tf.where(tf.all(tf.greater(t, -2), 2, keep_dims=True), t * 2.0, t)))(x),
        tf.grad(lambda t: tf.sum(tf.sum(t, 0) * tf.prod(t, 1, keep_dims=True)))(i),
    ]""", [x, z, i], rtol=RTOL, atol=ATOL)


def test_mat_mul_gradients_match_cpu(compare_with_cpu):
    a, b = away(2, 1, 3, 4), away(5, 4, 2)          # batch axes broadcast both ways
    at, bt = away(2, 1, 4, 3), away(5, 2, 4)        # the same, transposed
    m, n = away(3, 4), away(4, 2)
    dy = weights(2, 5, 3, 2)
    compare_with_cpu("""lambda a, b, at, bt, m, n, dy: [g for ta, tb, x, y in (
            (False, False, a, b), (True, False, at, b), (False, True, a, bt), (True, True, at, bt))
        for g in tf.grads(lambda p, q: tf.mat_mul(p, q, ta, tb))([x, y], dy)] + [
        *tf.grads(lambda p, q: tf.sum(tf.mat_mul(p, q)))([m, n]),
        *tf.grads(lambda p, q: tf.dot(p, q))([m[0], n[:, 0]]),
        tf.grad(lambda t: tf.sum(tf.grad(lambda u: tf.sum(tf.square(tf.mat_mul(u, n))))(t)))(m)]""",
                     [a, b, at, bt, m, n, dy], rtol=RTOL, atol=ATOL)


def test_nn_gradients_match_cpu(compare_with_cpu):
    x = away(2, 3, 5, high=4.0)
    big = np.float32([[1000.0, 1001.0, 999.0], [-1000.0, -1001.0, -999.0]])
    w = weights(2, 3, 5)
    idx = np.int32([0, 2, 1])
    compare_with_cpu("""lambda x, big, w, idx: [
        tf.grad(tf.softmax)(x, w), tf.grad(tf.log_softmax)(x, w),
        tf.grad(lambda t: tf.softmax(t, -1))(x, w), tf.grad(lambda t: tf.log_softmax(t, 2))(x, w),
        tf.grad(lambda t: tf.sum(tf.softmax(t) * tf.tensor([1.0, 2.0, 3.0])))(big),
        tf.grad(lambda t: tf.sum(tf.log_softmax(t)))(big),
        tf.grad(lambda t: tf.sum(tf.log_sum_exp(t, 2)))(x),
        tf.grad(lambda t: tf.sum(tf.moments(t, [0, 2]).variance))(x),
        tf.grad(lambda t: -tf.sum(tf.one_hot(idx, 5, 1, 0, 'float32') * tf.log_softmax(t[0])))(x),
        tf.grad(lambda t: tf.sum(tf.grad(lambda u: tf.sum(tf.softmax(u) * w))(t)))(x)]""",
                     [x, big, w, idx], rtol=RTOL, atol=ATOL)


def test_zero_gradients_of_int_and_bool_inputs_match_cpu(compare_with_cpu):
    """TF.js's zeros for inputs with nothing to differentiate: where's bool condition, one_hot's
    int32 indices, both operands of greater_equal (float32, each input's shape), beside the real
    gradients of where's branches."""
    c = np.bool_([[True, False, True], [True, True, False]])
    a, b = away(2, 3), away(3)
    dy = weights(2, 3)
    idx = np.int32([[1, 2], [3, 0]])
    compare_with_cpu("""lambda c, a, b, dy, idx: [
        *tf.grads(lambda p, q, r: tf.where(p, q, r))([c, a, b], dy),
        tf.grad(lambda p: tf.where(p.clone(), a[0], b).clone())(c[0], dy[0]),
        tf.grad(lambda i: tf.one_hot(i, 4))(idx),
        *tf.grads(lambda p, q: tf.greater_equal(p, q))([a, b])]""",
                     [c, a, b, dy, idx], rtol=RTOL, atol=ATOL)
