"""Gradients of the elementwise kernels (the UNARY/BINARY tables, Cast, Identity, Select) on the
cpu backend: numeric checks for every differentiable kernel (inputs away from kinks, varied
shapes, every broadcasting pair), exact values against numpy formulas, TF.js's choices at
kinks and ties, dtypes, second order, what the tape keeps, and memory."""
import functools
from types import SimpleNamespace

import numpy as np
import pytest

import pytfweb as tf
from pytfweb.kernels import get_gradient
from pytfweb.ops.elementwise import BINARY, UNARY
from pytfweb.testing import numeric_gradient_error

from .helpers import BROADCAST_PAIRS, assert_tensor
from .helpers import assert_gradients_match_numeric, gradients_at
from .test_math_elementwise import MATH_ROW_NAMES

# The rows the math family added are tested, with their own references and domains, in
# test_math_elementwise.py.
UNARY = [r for r in UNARY if r.name not in MATH_ROW_NAMES]
BINARY = [r for r in BINARY if r.name not in MATH_ROW_NAMES]

rng = np.random.default_rng(11)
TOL = 1e-2      # numeric_gradient_error is relative; float32 centred differences with eps 1e-2
SHAPES = [(), (5,), (3, 4), (2, 3, 2)]


def away(shape, low=0.2, high=3.0):
    """float32 values with magnitude in [low, high] and random signs: at least `low` from 0."""
    mag = rng.uniform(low, high, size=shape)
    return (mag * rng.choice([-1.0, 1.0], size=shape)).astype(np.float32)


def positive(shape, low=0.3, high=3.0):
    return rng.uniform(low, high, size=shape).astype(np.float32)


def off_integers(shape, low=0.15, high=0.35):
    """Values whose distance to the nearest integer and half-integer is at least 0.15."""
    frac = rng.uniform(low, high, size=shape) + rng.choice([0.0, 0.5], size=shape)
    return (rng.integers(-3, 3, size=shape) + frac).astype(np.float32)


check = functools.partial(assert_gradients_match_numeric, tol=TOL)


grads_of = gradients_at


# --- coverage ------------------------------------------------------------------------------

def test_every_elementwise_kernel_has_a_gradient():
    for row in UNARY + BINARY:
        assert get_gradient(row.kernel) is not None, row.kernel
    for kernel in ("Cast", "Identity", "Select"):
        assert get_gradient(kernel) is not None, kernel


# --- numeric checks: unary -------------------------------------------------------------------

UNARY_CASES = {
    # kernel: (op, input generator)
    "Neg": (tf.neg, away),
    "Abs": (tf.abs, away),
    "Square": (tf.square, away),
    "Relu": (tf.relu, away),
    "Relu6": (tf.relu6, lambda s: np.where(rng.uniform(size=s) < 0.7, away(s, 0.2, 5.8), positive(s, 6.2, 9.0))),
    "Exp": (tf.exp, away),
    "Log": (tf.log, positive),
    "Log1p": (tf.log1p, lambda s: positive(s, 0.0, 3.0) - np.float32(0.7)),
    "Sqrt": (tf.sqrt, positive),
    "Rsqrt": (tf.rsqrt, positive),
    "Reciprocal": (tf.reciprocal, lambda s: away(s, 0.4)),
    "Elu": (tf.elu, away),
    "Selu": (tf.selu, away),
    "Sigmoid": (tf.sigmoid, away),
    "Tanh": (tf.tanh, away),
    "Softplus": (tf.softplus, lambda s: away(s, 0.0, 20.0)),   # both sides of its threshold of 15
    "Sin": (tf.sin, away),
    "Cos": (tf.cos, away),
    "Floor": (tf.floor, off_integers),
    "Ceil": (tf.ceil, off_integers),
    "Round": (tf.round, off_integers),
    "Sign": (tf.sign, away),
    "LeakyRelu": (lambda x: tf.leaky_relu(x, 0.3), away),
    "ClipByValue": (lambda x: tf.clip_by_value(x, -1.5, 2.0),
                    lambda s: np.where(rng.uniform(size=s) < 0.5, away(s, 0.1, 1.4), away(s, 2.1, 4.0))),
}


def test_unary_cases_cover_the_table():
    float_kernels = {r.kernel for r in UNARY if r.kind != "bool"}
    assert float_kernels == set(UNARY_CASES)


@pytest.mark.parametrize("kernel", sorted(UNARY_CASES))
@pytest.mark.parametrize("shape", SHAPES)
def test_unary_numeric(kernel, shape):
    op, make = UNARY_CASES[kernel]
    check(op, make(shape))


def test_relu6_and_clip_are_checked_inside_and_outside_their_range():
    check(tf.relu6, np.float32([-1.0, 0.5, 3.0, 5.5, 6.5, 9.0]))
    check(lambda x: tf.clip_by_value(x, -1.5, 2.0), np.float32([-3.0, -1.0, 0.0, 1.9, 2.1, 4.0]))
    check(lambda x: tf.leaky_relu(x, 0.01), np.float32([-3.0, -0.5, 0.5, 2.0]))


# --- numeric checks: binary ----------------------------------------------------------------------

def _distinct(shape_a, shape_b):
    """a and b at least 0.25 apart, whatever elements broadcasting pairs (ties are kinks):
    a on the grid 0.5 k + 0.25, b on the grid 0.5 k."""
    a = 0.5 * rng.integers(-6, 6, size=shape_a) + 0.25
    b = 0.5 * rng.integers(-6, 6, size=shape_b)
    return a.astype(np.float32), b.astype(np.float32)


def _mod_operands(shape_a, shape_b):
    """a, b with a / b at least 0.125 from an integer (where mod jumps), for every pair:
    b is +-2 or +-4 and a mod 4 lies in [0.5, 1.5] or [2.5, 3.5]."""
    b = rng.choice([-4.0, -2.0, 2.0, 4.0], size=shape_b)
    a = 4 * rng.integers(-2, 2, size=shape_a) + rng.uniform(0.5, 1.5, size=shape_a) + rng.choice([0, 2], size=shape_a)
    return a.astype(np.float32), b.astype(np.float32)


BINARY_CASES = {
    "Add": (tf.add, lambda sa, sb: (away(sa), away(sb))),
    "Sub": (tf.sub, lambda sa, sb: (away(sa), away(sb))),
    "Multiply": (tf.mul, lambda sa, sb: (away(sa), away(sb))),
    "RealDiv": (tf.div, lambda sa, sb: (away(sa), away(sb, 0.5))),
    "Mod": (tf.mod, _mod_operands),
    "Pow": (tf.pow, lambda sa, sb: (positive(sa, 0.5, 2.0), away(sb, 0.1, 2.5))),
    "Maximum": (tf.maximum, _distinct),
    "Minimum": (tf.minimum, _distinct),
    "SquaredDifference": (tf.squared_difference, lambda sa, sb: (away(sa), away(sb))),
}


def test_binary_cases_cover_the_table():
    arith = {r.kernel for r in BINARY if r.kind == "arith"}
    # FloorDiv's gradient is TF.js's (that of RealDiv), not the derivative: checked exactly below.
    assert arith - {"FloorDiv"} == set(BINARY_CASES)


@pytest.mark.parametrize("kernel", sorted(BINARY_CASES))
@pytest.mark.parametrize("shapes", BROADCAST_PAIRS, ids=str)
def test_binary_numeric_with_broadcasting(kernel, shapes):
    op, make = BINARY_CASES[kernel]
    check(op, *make(*shapes))


def test_same_tensor_on_both_sides():
    check(lambda x: tf.mul(x, x), away((3, 2)))
    check(lambda x: tf.div(x, x) + tf.sub(x, x) + tf.pow(tf.abs(x), x), away((4,)))


def test_broadcasting_against_an_empty_operand():
    a, b = tf.tensor([[2.0], [3.0]]), tf.zeros([0])
    ga, gb = tf.grads(lambda x, y: tf.sum(x * y + x))([a, b])     # a unit axis broadcast to 0: summed to 0
    assert_tensor(ga, [[0.0], [0.0]])
    assert gb.shape == (0,)
    tf.dispose([a, b, ga, gb])


def test_select_numeric_with_broadcasting():
    cond = tf.tensor(rng.uniform(size=(2, 3)) < 0.5)
    check(lambda a, b: tf.where(cond, a, b), away((2, 3)), away((2, 3)))
    check(lambda a, b: tf.where(cond, a, b), away((3,)), away(()))           # a and b broadcast
    row = tf.tensor([True, False, True])
    check(lambda a, b: tf.where(row, a, b), away((2, 3)), away((2, 1)))      # condition broadcast
    tf.dispose([cond, row])


def test_identity_numeric():
    check(lambda x: tf.cast(x, "float32") * 2.0, away((3,)))     # a cast to x's dtype: the Identity kernel


# --- exact values against numpy formulas ----------------------------------------------------------

SELU_ALPHA, SELU_SCALE = 1.6732632423543772, 1.0507009873554805

UNARY_FORMULAS = {
    # kernel: (op, input, d/dx from x) -- the gradient with dy = ones
    "Exp": (tf.exp, away, np.exp),
    "Log": (tf.log, positive, lambda x: 1 / x),
    "Log1p": (tf.log1p, positive, lambda x: 1 / (1 + x)),
    "Sqrt": (tf.sqrt, positive, lambda x: 0.5 / np.sqrt(x)),
    "Rsqrt": (tf.rsqrt, positive, lambda x: -0.5 * x ** -1.5),
    "Reciprocal": (tf.reciprocal, away, lambda x: -1 / (x * x)),
    "Square": (tf.square, away, lambda x: 2 * x),
    "Sigmoid": (tf.sigmoid, away, lambda x: np.exp(-x) / (1 + np.exp(-x)) ** 2),
    "Tanh": (tf.tanh, away, lambda x: 1 - np.tanh(x) ** 2),
    "Softplus": (tf.softplus, away, lambda x: 1 / (1 + np.exp(-x))),
    "Sin": (tf.sin, away, np.cos),
    "Cos": (tf.cos, away, lambda x: -np.sin(x)),
    "Elu": (tf.elu, away, lambda x: np.where(x > 0, 1, np.exp(x))),
    "Selu": (tf.selu, away, lambda x: np.where(x > 0, SELU_SCALE, SELU_SCALE * SELU_ALPHA * np.exp(x))),
    "Abs": (tf.abs, away, np.sign),
    "Neg": (tf.neg, away, lambda x: -np.ones_like(x)),
    "Relu": (tf.relu, away, lambda x: (x > 0).astype(np.float32)),
}


@pytest.mark.parametrize("kernel", sorted(UNARY_FORMULAS))
def test_unary_exact(kernel):
    op, make, derivative = UNARY_FORMULAS[kernel]
    x = make((3, 4))
    dy = rng.uniform(0.5, 2.0, size=(3, 4)).astype(np.float32)
    (dx,) = grads_of(op, x, dy=dy)
    np.testing.assert_allclose(dx, dy * derivative(x.astype(np.float64)), rtol=2e-5, atol=1e-6)


def test_binary_exact_with_broadcasting():
    a, b = away((2, 3)), away((3,), 0.5)
    dy = rng.uniform(0.5, 2.0, size=(2, 3)).astype(np.float32)
    for op, da, db in [
        (tf.add, dy, dy.sum(0)),
        (tf.sub, dy, -dy.sum(0)),
        (tf.mul, dy * b, (dy * a).sum(0)),
        (tf.div, dy / b, (-dy * a / (b * b)).sum(0)),
        (tf.squared_difference, 2 * dy * (a - b), (2 * dy * (b - a)).sum(0)),
        (tf.maximum, dy * (a >= b), (dy * (a < b)).sum(0)),
        (tf.minimum, dy * (a <= b), (dy * (a > b)).sum(0)),
    ]:
        got_a, got_b = grads_of(op, a, b, dy=dy)
        np.testing.assert_allclose(got_a, da, rtol=1e-5, atol=1e-6, err_msg=op.__name__)
        np.testing.assert_allclose(got_b, db, rtol=1e-5, atol=1e-6, err_msg=op.__name__)


def test_pow_exact_and_at_non_positive_bases():
    a = np.float32([2.0, 0.5, -2.0, 0.0, -1.5])
    b = np.float32([3.0, -1.0, 2.0, 2.0, 3.0])
    da, db = grads_of(tf.pow, a, b)
    np.testing.assert_allclose(da, b * np.power(a, b - 1), rtol=1e-6)
    # TF.js: log(a) is taken as 0 where a <= 0, so the exponent gets 0 there (not NaN)
    np.testing.assert_allclose(db, [8 * np.log(2), 2 * np.log(0.5), 0, 0, 0], rtol=1e-6, atol=1e-7)


def test_floor_div_and_mod_follow_tfjs():
    a, b = np.float32([7.0, -7.5, 3.0]), np.float32([2.0, 2.0, -4.0])
    da, db = grads_of(tf.floor_div, a, b)
    np.testing.assert_allclose(da, 1 / b)              # RealDiv's gradient, as TF.js
    np.testing.assert_allclose(db, -a / (b * b))
    da, db = grads_of(tf.mod, a, b)
    np.testing.assert_allclose(da, [1, 1, 1])
    np.testing.assert_allclose(db, -np.floor(a / b))


def test_int32_operands_get_float32_gradients():
    a = np.int32([[1, -2, 3], [4, 5, -6]])
    b = np.int32([2, 3, -1])
    for op, da, db in [(tf.mul, np.broadcast_to(b, a.shape), a.sum(0)),
                       (tf.add, np.ones(a.shape), [2, 2, 2]),
                       (tf.floor_div, np.broadcast_to(1 / b, a.shape), (-a / (b * b)).sum(0))]:
        xs = [tf.tensor(a), tf.tensor(b)]
        ga, gb = tf.grads(lambda x, y: tf.sum(op(x, y)))(xs)
        assert ga.dtype == gb.dtype == "float32"
        assert_tensor(ga, np.float32(da))
        assert_tensor(gb, np.float32(db))
        tf.dispose([xs, ga, gb])
    # an int32 power: the base's gradient b * a^(b-1) is taken in float32 (here 2^-1 = 0.5)
    da, db = grads_of(tf.pow, np.int32([2, 3]), np.int32([0, 2]))
    np.testing.assert_allclose(da, [0.0, 6.0])
    np.testing.assert_allclose(db, [np.log(2), 9 * np.log(3)], rtol=1e-6)
    (dx,) = grads_of(tf.square, np.int32([-3, 4]))
    np.testing.assert_allclose(dx, [-6.0, 8.0])
    (dx,) = grads_of(tf.relu, np.int32([-3, 4]))
    np.testing.assert_allclose(dx, [0.0, 1.0])


# --- TF.js's choices at kinks and ties -----------------------------------------------------------

def test_values_at_kinks_follow_tfjs():
    x = np.float32([-1.0, 0.0, 1.0, 6.0, 7.0])
    assert grads_of(tf.abs, x)[0].tolist() == [-1, -1, 1, 1, 1]          # step(x, -1): -1 at 0
    assert grads_of(tf.relu, x)[0].tolist() == [0, 0, 1, 1, 1]
    assert grads_of(tf.relu6, x)[0].tolist() == [0, 0, 1, 1, 0]          # 6 itself passes
    assert grads_of(lambda t: tf.leaky_relu(t, 0.25), x)[0].tolist() == [0.25, 0.25, 1, 1, 1]
    assert grads_of(lambda t: tf.clip_by_value(t, 0, 6), x)[0].tolist() == [0, 1, 1, 1, 0]   # bounds pass
    assert grads_of(tf.elu, x)[0].tolist() == [np.float32(np.exp(-1.0)), 1, 1, 1, 1]
    selu = grads_of(tf.selu, x)[0]
    np.testing.assert_allclose(selu[:2], [SELU_SCALE * SELU_ALPHA * np.exp(-1.0), SELU_SCALE * SELU_ALPHA])
    for op in (tf.sign, tf.floor, tf.ceil, tf.round):
        assert grads_of(op, x)[0].tolist() == [0] * 5


def test_relu_gradient_kernels_have_second_order_gradients():
    """ReluGrad/Relu6Grad (one pass each) are linear in dy and flat in x: d/dx of sum(relu(x)^2)'s
    gradient is 2 where the op passes x on; NaN and infinite dy stay where the mask holds."""
    x = tf.tensor(np.float32([-1.0, 0.0, 0.5, 6.0, 7.0, np.nan]))
    for op, mask in ((tf.relu, [0, 0, 1, 1, 1, 0]), (tf.relu6, [0, 0, 1, 1, 0, 0])):
        second = tf.grad(lambda a: tf.sum(tf.grad(lambda z: tf.sum(op(z) ** 2))(a)))(x)
        np.testing.assert_array_equal(second.numpy(), 2 * np.float32(mask))
        dy = tf.tensor(np.float32([np.inf, np.inf, np.nan, -np.inf, np.nan, 1.0]))
        got = tf.grad(lambda a: tf.sum(op(a) * dy))(x).numpy()
        np.testing.assert_array_equal(got, np.where(np.array(mask, bool), dy.numpy(), 0))


def test_maximum_and_minimum_ties_go_to_a():
    a = np.float32([1.0, 2.0, 3.0])
    b = np.float32([1.0, 5.0, 0.0])
    da, db = grads_of(tf.maximum, a, b)
    assert da.tolist() == [1, 0, 1] and db.tolist() == [0, 1, 0]
    da, db = grads_of(tf.minimum, a, b)
    assert da.tolist() == [1, 1, 0] and db.tolist() == [0, 0, 1]


def test_comparisons_and_logical_ops_pass_no_gradient():
    x = tf.tensor([-2.0, 1.0, 3.0])
    # the mask is constant: the gradient flows only through where's chosen branch
    dx = tf.grad(lambda t: tf.sum(tf.where(tf.logical_and(tf.greater(t, 0), tf.less(t, 2)), t * t, t)))(x)
    assert_tensor(dx, [1.0, 2.0, 1.0])
    # through a cast of a comparison: the cast passes dy on, the comparison stops it
    dx = tf.grad(lambda t: tf.sum(tf.cast(tf.greater_equal(t, 0), "float32") * t))(x)
    assert_tensor(dx, [0.0, 1.0, 1.0])
    for row in UNARY + BINARY:
        if row.kind in ("bool", "compare", "logical") and row.kernel != "GreaterEqual":
            n = 1 if row in UNARY else 2
            assert get_gradient(row.kernel).fn(None, SimpleNamespace(inputs=[None] * n)) == [None] * n
    tf.dispose(x)


def test_a_function_of_only_a_comparison_has_no_gradient():
    with pytest.raises(ValueError, match="Cannot compute gradient.*no gradient reaches argument 0"):
        tf.grad(lambda t: tf.sum(tf.cast(tf.greater(t, 0), "float32")))(tf.tensor([1.0, -1.0]))


def test_greater_equal_gives_zeros_as_tfjs():
    # TF.js registers zeros for GreaterEqual alone among the comparisons (greater_equal_test's
    # 'has gradient'): float32, each operand's shape
    a, b = tf.tensor([3.0, 2.0, 5.0]), tf.tensor([4.0, 1.0, 5.0])
    da = tf.grad(lambda t: tf.greater_equal(t, b))(a, tf.ones([3]))
    assert da.dtype == "float32"
    assert_tensor(da, [0.0, 0.0, 0.0])
    da, db = tf.grads(lambda p, q: tf.greater_equal(p.clone(), q.clone()).clone())([a, tf.tensor(1.0)])
    assert da.shape == (3,) and db.shape == () and db.dtype == "float32"
    assert_tensor(db, 0.0)
    tf.dispose([a, b, da, db])


def test_select_condition_gets_zeros_and_branches_broadcast():
    cond = tf.tensor([[True], [False]])
    a, b = tf.tensor([1.0, 2.0, 3.0]), tf.tensor(5.0)
    ga, gb = tf.grads(lambda a, b: tf.sum(tf.where(cond, a, b)))([a, b])
    assert_tensor(ga, [1.0, 1.0, 1.0])
    assert_tensor(gb, 3.0)
    # TF.js (where_test's '1D gradient'): the bool condition's gradient is float32 zeros of its shape
    c = tf.tensor([1, 0, 1], dtype="bool")
    x, y = tf.tensor([1.0, 2.0, 3.0]), tf.tensor([4.0, 5.0, 6.0])
    dc, dx, dy = tf.grads(lambda c, a, b: tf.where(c, a, b))([c, x, y], tf.tensor([1.0, 2.0, 3.0]))
    assert dc.dtype == "float32" and dc.shape == (3,)
    assert_tensor(dc, [0.0, 0.0, 0.0])
    assert_tensor(dx, [1.0, 0.0, 3.0])
    assert_tensor(dy, [0.0, 2.0, 0.0])
    dc = tf.grad(lambda c: tf.sum(tf.where(c, x, y)))(cond)     # a condition broadcast to [2, 3]
    assert dc.dtype == "float32" and dc.shape == (2, 1)
    assert_tensor(dc, [[0.0], [0.0]])
    tf.dispose([cond, a, b, ga, gb, c, x, y, dc, dx, dy])


def test_cast_passes_dy_whatever_the_dtypes():
    x = tf.tensor([1.7, -2.2])
    assert_tensor(tf.grad(lambda t: tf.sum(tf.cast(t, "int32")))(x), [1.0, 1.0])
    assert_tensor(tf.grad(lambda t: tf.sum(tf.cast(tf.cast(t, "int32"), "float32") * 3.0))(x), [3.0, 3.0])
    i = tf.tensor([2, 3], dtype="int32")
    g = tf.grad(lambda t: tf.sum(tf.cast(t, "float32") * tf.tensor([10.0, 100.0])))(i)
    assert g.dtype == "float32"
    assert_tensor(g, [10.0, 100.0])


# --- second order --------------------------------------------------------------------------------

@pytest.mark.parametrize("f, d2, domain", [
    (lambda x: x * x * x, lambda x: 6 * x, away),
    (lambda x: tf.pow(x, 3.0), lambda x: 6 * x, away),
    (tf.sin, lambda x: -np.sin(x), away),
    (tf.cos, lambda x: -np.cos(x), away),
    (tf.exp, np.exp, away),
    (tf.tanh, lambda x: -2 * np.tanh(x) * (1 - np.tanh(x) ** 2), away),
    (tf.sigmoid, lambda x: (s := 1 / (1 + np.exp(-x))) * (1 - s) * (1 - 2 * s), away),
    (tf.softplus, lambda x: (s := 1 / (1 + np.exp(-x))) * (1 - s), away),
    (tf.elu, lambda x: np.where(x > 0, 0, np.exp(x)), away),
    (tf.square, lambda x: 2 * np.ones_like(x), away),
    (tf.reciprocal, lambda x: 2 / x ** 3, away),
    (lambda x: tf.div(1.0, x), lambda x: 2 / x ** 3, away),
    (tf.log, lambda x: -1 / (x * x), positive),
    (tf.sqrt, lambda x: -0.25 * x ** -1.5, positive),
    (tf.rsqrt, lambda x: 0.75 * x ** -2.5, positive),
], ids=["cube", "pow", "sin", "cos", "exp", "tanh", "sigmoid", "softplus", "elu", "square", "reciprocal",
        "div", "log", "sqrt", "rsqrt"])
def test_second_order(f, d2, domain):
    x = domain((4,), 0.5, 2.0)
    xt = tf.tensor(x)
    # as TF.js: a non-scalar result is differentiated as if summed
    got = tf.grad(tf.grad(f))(xt)
    np.testing.assert_allclose(got.numpy(), d2(x.astype(np.float64)), rtol=1e-4, atol=1e-5)
    got = tf.grad(lambda t: tf.sum(tf.grad(lambda u: tf.sum(f(u)))(t)))(xt)
    np.testing.assert_allclose(got.numpy(), d2(x.astype(np.float64)), rtol=1e-4, atol=1e-5)
    s = tf.scalar(float(x[0]))
    got = tf.grad(tf.grad(f))(s)
    np.testing.assert_allclose(got.numpy(), d2(np.float64(x[0])), rtol=1e-4, atol=1e-5)
    tf.dispose([xt, s])


def test_second_order_of_a_binary_op_with_broadcasting():
    a, b = tf.tensor(away((2, 3))), tf.tensor(away((3,), 0.5))

    def dsum(x, y):   # the gradient with respect to b, summed: a function of a and b
        return tf.sum(tf.grads(lambda p, q: tf.sum(p * p / q))([x, y])[1])
    ga, gb = tf.grads(dsum)([a, b])
    av, bv = a.numpy().astype(np.float64), b.numpy().astype(np.float64)
    np.testing.assert_allclose(ga.numpy(), -2 * av / bv ** 2, rtol=1e-5)
    np.testing.assert_allclose(gb.numpy(), (2 * av ** 2 / bv ** 3).sum(0), rtol=1e-5)


# --- what the tape keeps, memory ----------------------------------------------------------------

def test_only_what_a_gradient_reads_is_saved():
    expect = {"Add": (False, False), "Sub": (False, False), "Neg": (False, False), "Cast": (False, False),
              "Identity": (False, False), "Floor": (False, False), "Multiply": (True, False),
              "Pow": (True, True), "Exp": (False, True), "Sqrt": (False, True), "Sigmoid": (False, True),
              "Tanh": (False, True), "Elu": (False, True), "Relu": (True, False), "Log": (True, False),
              "Select": ((0,), False), "Greater": (False, False)}
    for kernel, (inputs, outputs) in expect.items():
        config = get_gradient(kernel)
        assert (config.save_inputs, config.save_outputs) == (inputs, outputs), kernel


def test_tape_keeps_only_declared_tensors():
    seen = []

    def f(x, y):
        out = tf.exp(x) + tf.where(tf.greater(x, 0), x, y) * y
        seen.extend((n.kernel, len(n.saved())) for n in tf.engine().active_tape)
        return tf.sum(out)
    xs = [tf.tensor(away((3,))), tf.tensor(away((3,)))]
    tf.dispose(tf.grads(f)(xs))
    assert dict(seen) == {"Exp": 1, "Greater": 0, "Select": 1, "Multiply": 2, "Add": 0}
    tf.dispose(xs)


def test_gradients_leak_nothing():
    xs = [tf.tensor(away((2, 3))), tf.tensor(away((3,), 0.5))]
    before = tf.memory()
    for op in (tf.add, tf.sub, tf.mul, tf.div, tf.pow, tf.maximum, tf.minimum, tf.mod, tf.floor_div,
               tf.squared_difference):
        tf.dispose(tf.grads(lambda a, b: tf.sum(op(tf.abs(a), b)))(xs))
    for op in (tf.exp, tf.tanh, tf.relu, tf.selu, tf.elu, tf.round, tf.abs, tf.sigmoid):
        tf.dispose(tf.grad(lambda x: tf.sum(op(x)))(xs[0]))
    tf.dispose(tf.grad(lambda x: tf.sum(tf.grad(lambda y: tf.sum(tf.sin(y) * y))(x)))(xs[0]))
    after = tf.memory()
    assert (after.num_tensors, after.num_bytes) == (before.num_tensors, before.num_bytes)
    assert tf.engine().active_tape is None
