"""The elementwise rows the math family added to the UNARY/BINARY tables (inverse trigonometric
and hyperbolic functions, tan, erf, expm1, is_nan/is_inf/is_finite, step, atan2, bitwise_and),
and the composites log_sigmoid, logical_xor, div_no_nan: values against numpy, dtypes, edge
values, errors, gradients (numeric and exact)."""
import functools
import math

import numpy as np
import pytest

import pytfweb as tf
from pytfweb.kernels import get_gradient
from pytfweb.ops.elementwise import BINARY, UNARY
from pytfweb.testing import numeric_gradient_error

from .helpers import ALL_SHAPES, BROADCAST_PAIRS, EDGE_FLOATS, assert_no_leak, assert_raises, assert_tensor, rand
from .helpers import assert_gradients_match_numeric, gradients_at

_erf = np.vectorize(math.erf)

# name: (numpy reference in float64, (low, high) of random inputs)
UNARY_REF = {
    "acos": (np.arccos, (-1, 1)),
    "acosh": (np.arccosh, (1, 6)),
    "asin": (np.arcsin, (-1, 1)),
    "asinh": (np.arcsinh, (-5, 5)),
    "atan": (np.arctan, (-5, 5)),
    "atanh": (np.arctanh, (-1, 1)),
    "cosh": (np.cosh, (-5, 5)),
    "sinh": (np.sinh, (-5, 5)),
    "tan": (np.tan, (-1.5, 1.5)),
    "erf": (_erf, (-3, 3)),          # TF.js's approximation is within 1.5e-7 of erf
    "expm1": (np.expm1, (-5, 5)),
    "is_nan": (np.isnan, (-5, 5)),
    "is_inf": (np.isinf, (-5, 5)),
    "is_finite": (np.isfinite, (-5, 5)),
}
BINARY_REF = {"atan2": np.arctan2, "bitwise_and": np.bitwise_and}
# Every row this family added (test_elementwise.py and test_gradients_elementwise.py leave them here).
MATH_ROW_NAMES = set(UNARY_REF) | set(BINARY_REF) | {"step"}
TESTS = ("is_nan", "is_inf", "is_finite")

rng = np.random.default_rng(3)


def test_every_math_row_is_covered_here():
    rows = {r.name for r in UNARY + BINARY}
    assert MATH_ROW_NAMES <= rows
    for name in MATH_ROW_NAMES:
        assert getattr(tf, name).__name__ == name


# --- unary values ---------------------------------------------------------------------------------

@pytest.mark.parametrize("name", sorted(UNARY_REF))
def test_unary_random_every_rank_and_dtype(name):
    ref, (low, high) = UNARY_REF[name]
    kind = {r.name: r.kind for r in UNARY}[name]
    for dtype in ("float32", "int32", "bool"):
        for shape in ALL_SHAPES:
            x = rand(rng, shape, dtype, low, high + (dtype == "int32"))
            t = tf.tensor(x)
            if kind == "float" and dtype != "float32" or name == "erf" and dtype == "bool":
                assert_raises(TypeError, lambda: getattr(tf, name)(t), name)   # as TF.js
                t.dispose()
                continue
            y = getattr(tf, name)(t)
            with np.errstate(all="ignore"):
                expected = ref(x.astype(np.float64))
            if name in TESTS:
                assert_tensor(y, expected, "bool")
            elif kind == "same" and dtype != "float32":   # TF.js: truncated into the input's dtype
                ints = np.where(np.isfinite(expected), np.trunc(expected), 0).astype(np.int64)
                assert_tensor(y, ints != 0 if dtype == "bool" else ints.astype(np.int32), dtype)
            else:
                assert_tensor(y, expected, "float32")


@pytest.mark.parametrize("name", sorted(UNARY_REF))
def test_unary_edge_floats(name):
    ref, _ = UNARY_REF[name]
    extra = np.float32([0.999, -0.999, 1.001, 1e-4, -3e-6, 40.0, 88.9, -89.0, 1e30])
    x = np.concatenate([EDGE_FLOATS, extra])
    with np.errstate(all="ignore"):
        expected = ref(x.astype(np.float64)).astype(np.float32 if name not in TESTS else np.bool_)
    with np.errstate(over="ignore"):
        assert_tensor(getattr(tf, name)(x), expected)


def test_erf_is_tfjs_approximation_of_erf():
    x = np.linspace(-4, 4, 801, dtype=np.float32)
    got = tf.erf(x).numpy()
    assert np.max(np.abs(got - _erf(x.astype(np.float64)))) < 4e-7   # 1.5e-7, plus float32 rounding
    assert tf.erf([np.inf, -np.inf, np.nan]).numpy()[:2].tolist() == [1.0, -1.0]


def test_tests_keep_every_dtype_and_python_values():
    i, b = tf.tensor([1, -2], dtype="int32"), tf.tensor([True, False])
    for op in (tf.is_nan, tf.is_inf):
        assert_tensor(op(i), [False, False], "bool")
        assert_tensor(op(b), [False, False], "bool")
    assert_tensor(tf.is_finite(i), [True, True], "bool")
    before = tf.memory().num_tensors
    assert_tensor(tf.is_nan([1.0, float("nan")]), [False, True], "bool")
    assert tf.memory().num_tensors == before + 1


def test_step():
    x = np.float32([-2.0, -0.0, 0.0, 1e-7, 3.0, np.nan, np.inf, -np.inf])
    assert_tensor(tf.step(x), [0, 0, 0, 1, 1, np.nan, 1, 0], "float32")
    assert_tensor(tf.step(x, 0.3), [0.3, 0.3, 0.3, 1, 1, np.nan, 1, 0.3], "float32")
    # int32 stays int32: alpha is truncated toward zero, as TF.js stores it into an Int32Array
    assert_tensor(tf.step(tf.tensor([-3, 0, 5], dtype="int32"), -2.7), [-2, -2, 1], "int32")
    assert_tensor(tf.step(tf.tensor([True, False])), [True, False], "bool")   # bool stays bool, as TF.js
    for shape in ALL_SHAPES:
        v = rand(rng, shape)
        assert_tensor(tf.step(tf.tensor(v), 0.5), np.where(v > 0, 1, 0.5))
    assert_raises(TypeError, lambda: tf.step([1.0], "0.5"), "step", "'alpha'")
    assert_raises(TypeError, lambda: tf.step([1.0], True), "step", "'alpha'")


def test_log_sigmoid():
    x = np.concatenate([EDGE_FLOATS, rand(rng, (20,), low=-30, high=30)])
    with np.errstate(all="ignore"):
        expected = -np.logaddexp(0, -x.astype(np.float64))
    assert_tensor(tf.log_sigmoid(x), expected)
    # int32 stays int32, each step of -softplus(-x) truncated, as TF.js
    assert_tensor(tf.log_sigmoid(tf.tensor([-2, -1, 2], dtype="int32")), [-2, -1, 0], "int32")
    assert_no_leak(lambda: tf.log_sigmoid([1.0, 2.0]).dispose())


# --- binary values ---------------------------------------------------------------------------------

def test_atan2_broadcasting_dtypes_and_edges():
    for sa, sb in BROADCAST_PAIRS:
        a, b = rand(rng, sa), rand(rng, sb)
        assert_tensor(tf.atan2(tf.tensor(a), tf.tensor(b)), np.arctan2(a.astype(np.float64), b), "float32")
    # int32 operands give int32, the angle truncated (as TF.js)
    assert_tensor(tf.atan2(tf.tensor([1, -1, 3], dtype="int32"), tf.tensor([0, -1, -2], dtype="int32")),
                  [1, -2, 2], "int32")
    a, b = EDGE_FLOATS[:, None], EDGE_FLOATS[None, :]
    assert_tensor(tf.atan2(a, b), np.arctan2(a, b))


def test_bitwise_and():
    for shape in ALL_SHAPES:
        a = rand(rng, shape, "int32", -2 ** 31, 2 ** 31 - 1)
        b = rand(rng, shape, "int32", -2 ** 31, 2 ** 31 - 1)
        assert_tensor(tf.bitwise_and(tf.tensor(a), tf.tensor(b)), np.bitwise_and(a, b), "int32")
    i, f, b = tf.tensor([1, 2], dtype="int32"), tf.tensor([1.0, 2.0]), tf.tensor([True, False])
    assert_raises(TypeError, lambda: tf.bitwise_and(f, i), "bitwise_and", "'x'", "int32", "float32")
    assert_raises(TypeError, lambda: tf.bitwise_and(i, b), "bitwise_and", "'y'", "bool")
    # no broadcasting, as TF.js
    row = tf.tensor([[1, 2]], dtype="int32")
    assert_raises(ValueError, lambda: tf.bitwise_and(i, row),
                  "bitwise_and", "same shape", "[2]", "[1, 2]")


def test_logical_xor():
    for sa, sb in BROADCAST_PAIRS:
        a, b = rand(rng, sa, "bool"), rand(rng, sb, "bool")
        assert_tensor(tf.logical_xor(tf.tensor(a), tf.tensor(b)), np.logical_xor(a, b), "bool")
    assert_tensor(tf.logical_xor([1, 0, 1], [True, True, False]), [False, True, True], "bool")
    f = tf.tensor([1.0])
    assert_raises(TypeError, lambda: tf.logical_xor(f, [True]), "logical_xor", "'a'", "bool")
    assert_raises(ValueError, lambda: tf.logical_xor([True, False], [True, False, True]), "logical_xor")


def test_div_no_nan():
    a = np.float32([1.0, -2.0, 0.0, np.inf, np.nan, 3.0])
    b = np.float32([0.0, -0.0, 0.0, 2.0, 0.0, np.nan])
    with np.errstate(all="ignore"):
        expected = np.where(b == 0, 0, a / b)
    assert_tensor(tf.div_no_nan(a, b), expected, "float32")
    for sa, sb in BROADCAST_PAIRS:
        x, y = rand(rng, sa), rand(rng, sb)
        y[...] = np.where(rng.uniform(size=sb) < 0.3, 0, y)
        with np.errstate(all="ignore"):
            assert_tensor(tf.div_no_nan(tf.tensor(x), tf.tensor(y)), np.where(y == 0, 0, x / y))
    # int32: floored, as tf.div
    assert_tensor(tf.div_no_nan(tf.tensor([7, -7, 5], dtype="int32"), tf.tensor([2, 2, 0], dtype="int32")),
                  [3, -4, 0], "int32")
    assert_raises(ValueError, lambda: tf.div_no_nan([1.0, 2.0], [1.0, 2.0, 3.0]), "div_no_nan")


def test_unary_errors_and_leaks():
    x = tf.ones([2])
    x.dispose()
    assert_raises(tf.DisposedTensorError, lambda: tf.acos(x), "acos", "disposed")
    assert_raises(tf.DisposedTensorError, lambda: tf.is_nan(x), "is_nan", "disposed")
    assert_raises(TypeError, lambda: tf.tan({}), "tan", "'x'")
    assert_raises(ValueError, lambda: tf.atan2([1.0, 2.0], [1.0, 2.0, 3.0]), "atan2", "[2]", "[3]")
    assert_raises(TypeError, lambda: tf.atan2([1.0], "a"), "atan2", "'b'")


# --- gradients ----------------------------------------------------------------------------------------

_check = functools.partial(assert_gradients_match_numeric, tol=1e-2)


def _grads(f, *arrays):
    xs = [tf.tensor(a) for a in arrays]
    gs = tf.grads(lambda *t: tf.sum(f(*t)))(xs)
    out = [g.numpy() for g in gs]
    tf.dispose([xs, gs])
    return out


def _signed(shape, low, high):
    return (rng.uniform(low, high, size=shape) * rng.choice([-1, 1], size=shape)).astype(np.float32)


GRADIENT_CASES = {
    # kernel: (op, inputs inside the domain, exact derivative)
    "Acos": (tf.acos, lambda s: _signed(s, 0.05, 0.8), lambda x: -1 / np.sqrt(1 - x * x)),
    "Asin": (tf.asin, lambda s: _signed(s, 0.05, 0.8), lambda x: 1 / np.sqrt(1 - x * x)),
    "Atan": (tf.atan, lambda s: _signed(s, 0.1, 3), lambda x: 1 / (1 + x * x)),
    "Acosh": (tf.acosh, lambda s: rand(rng, s, low=1.2, high=4), lambda x: 1 / np.sqrt(x * x - 1)),
    "Asinh": (tf.asinh, lambda s: _signed(s, 0.1, 3), lambda x: 1 / np.sqrt(x * x + 1)),
    "Atanh": (tf.atanh, lambda s: _signed(s, 0.05, 0.8), lambda x: 1 / (1 - x * x)),
    "Cosh": (tf.cosh, lambda s: _signed(s, 0.1, 3), np.sinh),
    "Sinh": (tf.sinh, lambda s: _signed(s, 0.1, 3), np.cosh),
    "Tan": (tf.tan, lambda s: _signed(s, 0.1, 1.2), lambda x: 1 / np.cos(x) ** 2),
    "Erf": (tf.erf, lambda s: _signed(s, 0.1, 2), lambda x: 2 / np.sqrt(np.pi) * np.exp(-x * x)),
    "Expm1": (tf.expm1, lambda s: _signed(s, 0.1, 3), np.exp),
}


def test_every_math_kernel_has_a_gradient():
    for row in UNARY + BINARY:
        if row.name in MATH_ROW_NAMES:
            assert get_gradient(row.kernel) is not None, row.kernel
    assert {r.kernel for r in UNARY if r.name in UNARY_REF and r.name not in TESTS} == set(GRADIENT_CASES)


@pytest.mark.parametrize("kernel", sorted(GRADIENT_CASES))
@pytest.mark.parametrize("shape", [(), (5,), (2, 3)])
def test_unary_gradients_numeric(kernel, shape):
    op, make, _ = GRADIENT_CASES[kernel]
    _check(op, make(shape), tol=2e-2 if kernel in ("Tan", "Acos", "Asin", "Atanh") else 1e-2)


@pytest.mark.parametrize("kernel", sorted(GRADIENT_CASES))
def test_unary_gradients_exact(kernel):
    op, make, derivative = GRADIENT_CASES[kernel]
    x = make((3, 4))
    (dx,) = _grads(op, x)
    np.testing.assert_allclose(dx, derivative(x.astype(np.float64)), rtol=2e-5, atol=1e-6)


def test_piecewise_constant_and_tests_give_zeros():
    x = np.float32([-1.5, 0.0, 2.0])
    assert _grads(lambda t: tf.step(t, 0.2), x)[0].tolist() == [0, 0, 0]
    for op in (tf.is_nan, tf.is_inf, tf.is_finite):
        # reached through a cast of the bool result, the test passes zeros back (TF.js's zerosLike)
        g = _grads(lambda t: tf.cast(op(t), "float32") + t, x)[0]
        assert g.tolist() == [1.0, 1.0, 1.0]


def test_atan2_gradients():
    for sa, sb in BROADCAST_PAIRS:
        _check(tf.atan2, _signed(sa, 0.3, 2), _signed(sb, 0.3, 2))
    a, b = _signed((2, 3), 0.3, 2), _signed((3,), 0.3, 2)
    da, db = _grads(tf.atan2, a, b)
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    np.testing.assert_allclose(da, b64 / (a64 ** 2 + b64 ** 2), rtol=1e-5)
    np.testing.assert_allclose(db, (-a64 / (a64 ** 2 + b64 ** 2)).sum(0), rtol=1e-5)


def test_composite_gradients():
    x = _signed((2, 3), 0.1, 4)
    _check(tf.log_sigmoid, x)
    (dx,) = _grads(tf.log_sigmoid, x)
    np.testing.assert_allclose(dx, 1 / (1 + np.exp(x.astype(np.float64))), rtol=1e-5)   # sigmoid(-x)
    _check(tf.div_no_nan, x, _signed((3,), 0.5, 2))
    # TF.js's where(b == 0, 0, a / b): where b is 0, a's gradient is 0 / 0
    da, db = _grads(tf.div_no_nan, np.float32([1.0, 2.0]), np.float32([0.0, 4.0]))
    assert np.isnan(da[0]) and da[1] == 0.25


def test_bitwise_and_passes_no_gradient():
    i = tf.tensor([3, 5], dtype="int32")
    with pytest.raises(ValueError, match="Cannot compute gradient"):
        tf.grad(lambda t: tf.sum(tf.cast(tf.bitwise_and(t, t), "float32")))(i)
    tf.dispose(i)
