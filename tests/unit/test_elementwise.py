"""Elementwise ops (every row of the UNARY and BINARY tables, cast, where, the Python operators)
against numpy written out directly, on random inputs of ranks 0-4, broadcasting, edge values."""
import numpy as np
import pytest

import pytfweb as tf
from pytfweb.ops.elementwise import BINARY, BOOL_RESULT, UNARY

from .helpers import (ALL_SHAPES, BROADCAST_PAIRS, EDGE_FLOATS, assert_no_leak, assert_raises, assert_tensor,
                      rand)
from .test_math_elementwise import MATH_ROW_NAMES

# The rows the math family added are tested, with their own references and domains, in
# test_math_elementwise.py.
UNARY = [r for r in UNARY if r.name not in MATH_ROW_NAMES]
BINARY = [r for r in BINARY if r.name not in MATH_ROW_NAMES]

SELU_ALPHA, SELU_SCALE = 1.6732632423543772, 1.0507009873554805

# Reference semantics, computed in float64 (float rows) or exactly (int32 rows).
UNARY_REF = {
    "neg": lambda x: -x,
    "abs": np.abs,
    "sign": lambda x: np.where(np.isnan(x), 0, np.sign(x)),  # TF.js: sign(NaN) is 0
    "square": np.square,
    "relu": lambda x: np.maximum(x, 0),
    "relu6": lambda x: np.minimum(np.maximum(x, 0), 6),
    "exp": np.exp,
    "log": np.log,
    "log1p": np.log1p,
    "sqrt": np.sqrt,
    "rsqrt": lambda x: 1 / np.sqrt(x),
    "reciprocal": lambda x: 1 / x,
    "elu": lambda x: np.where(x >= 0, x, np.expm1(x)),
    "selu": lambda x: SELU_SCALE * np.where(x > 0, x, SELU_ALPHA * np.expm1(x)),
    "sigmoid": lambda x: 0.5 * (1 + np.tanh(x / 2)),
    "tanh": np.tanh,
    "softplus": lambda x: np.logaddexp(0, x),
    "sin": np.sin,
    "cos": np.cos,
    "floor": np.floor,
    "ceil": np.ceil,
    "round": np.round,  # half to even, as TF.js
    "logical_not": np.logical_not,
}
PLAIN_UNARY = [r for r in UNARY if not r.attrs]


def _int_pow_one(x, y):
    # TF.js: Math.pow in float64, stored into an Int32Array (truncated, Infinity 0, wrapped modulo
    # 2^32); the float64 here the exact power rounded to nearest (Python's int -> float)
    if y < 0:   # |x ** y| < 1 but for x = +-1; 0 ** negative is Infinity
        return x ** (y % 2) if abs(x) == 1 else 0
    if abs(x) >= 2 and y > 1000:   # the float64 is infinite (beyond 2^84 it is a multiple of 2^32 anyway)
        return 0
    p = x ** y
    v = int(float(p)) if abs(p) < 2 ** 1000 else 0
    return (v + 2 ** 31) % 2 ** 32 - 2 ** 31


def _int_pow(a, b):
    return np.vectorize(_int_pow_one, otypes=[np.int64])(a.astype(np.int64), b.astype(np.int64)).astype(np.int32)


def _to_int32(v):
    # a float stored into an Int32Array: truncated, NaN/Infinity 0, wrapped modulo 2^32
    v = np.trunc(np.where(np.isfinite(v), v, 0).astype(np.float64))
    return np.fmod(v, 2.0 ** 32).astype(np.int64).astype(np.int32)


def _js_mod(a, b):
    # TF.js: r = a % b (fmod), then (r + b) % b where the signs differ
    r = np.fmod(a, b)
    return np.where(((a < 0) & (b < 0)) | ((a >= 0) & (b >= 0)), r, np.fmod(r + b, b))


def _js_pow(a, b):
    # JS Math.pow: NaN for a NaN exponent and for (+-1) ** +-Infinity, where C's pow gives 1
    return np.where(np.isnan(b) | ((np.abs(a) == 1) & np.isinf(b)), np.nan, np.power(a, b))


def _int_div(fn):
    # int32 division by zero gives 0 (TF.js: NaN/Infinity stored into an Int32Array)
    return lambda a, b: np.where(b == 0, 0, fn(a, np.where(b == 0, 1, b)))


BINARY_REF = {
    "add": (np.add, None),
    "sub": (np.subtract, None),
    "mul": (np.multiply, None),
    "div": (np.divide, _int_div(np.floor_divide)),  # TF.js: int32 div floors
    "floor_div": (lambda a, b: _to_int32(np.floor(a / b)), _int_div(np.floor_divide)),   # int32 always
    "mod": (_js_mod, _int_div(np.mod)),
    "pow": (_js_pow, _int_pow),
    "maximum": (np.maximum, None),
    "minimum": (np.minimum, None),
    "squared_difference": (lambda a, b: (a - b) ** 2, None),
    "equal": (np.equal, None),
    "not_equal": (np.not_equal, None),
    "greater": (np.greater, None),
    "greater_equal": (np.greater_equal, None),
    "less": (np.less, None),
    "less_equal": (np.less_equal, None),
    "logical_and": (np.logical_and, None),
    "logical_or": (np.logical_or, None),
}


def ref_unary(row, x):
    """(expected values, expected dtype) for row applied to the numpy array x, by TF.js's dtype
    rules (the row's kind): 'float' rows take float32 only (see test_unary_random)."""
    if row.kind == "bool":
        return UNARY_REF[row.name](x), "bool"
    if row.kind in ("float", "to_float") or x.dtype.kind == "f":
        with np.errstate(all="ignore"):
            return UNARY_REF[row.name](x.astype(np.float64)), "float32"
    dtype = "bool" if x.dtype == np.bool_ else "int32"
    if row.kind == "same":   # computed in float, the result truncated into the input's dtype
        with np.errstate(all="ignore"):
            out = UNARY_REF[row.name](x.astype(np.float64))
        out = np.where(np.isfinite(out), np.trunc(out), 0).astype(np.int64)
    else:                    # numeric rows on int32 (bool computed as int32, returned as bool)
        out = UNARY_REF[row.name](x.astype(np.int64))
    return (out != 0, dtype) if dtype == "bool" else (out.astype(np.int32), dtype)


def ref_binary(row, a, b):
    float_fn, int_fn = BINARY_REF[row.name]
    if row.kind == "logical":
        return float_fn(a, b), "bool"
    if a.dtype.kind == "f":
        with np.errstate(all="ignore"):
            out = float_fn(a, b)
        if row.kind == "floor":
            return out, "int32"
        return out, "bool" if row.kind == "compare" else "float32"
    a, b = a.astype(np.int32), b.astype(np.int32)
    with np.errstate(all="ignore"):
        out = (int_fn or float_fn)(a, b)
    return (out, "bool") if row.kind == "compare" else (out.astype(np.int32), "int32")


def test_tables_are_fully_covered():
    assert {r.name for r in PLAIN_UNARY} <= set(UNARY_REF)
    assert {r.name for r in BINARY} == set(BINARY_REF)


# --- unary ------------------------------------------------------------------------------

@pytest.mark.parametrize("row", PLAIN_UNARY, ids=lambda r: r.name)
def test_unary_random(row, rng):
    dtypes = ["bool"] if row.kind == "bool" else ["float32", "int32", "bool"]
    for dtype in dtypes:
        for shape in ALL_SHAPES:
            x = rand(rng, shape, dtype, low=0.1 if row.name in ("log", "sqrt", "rsqrt") else -5)
            if row.kind == "float" and dtype != "float32":   # TF.js: float32 tensors only
                t = tf.tensor(x)
                assert_raises(TypeError, lambda: getattr(tf, row.name)(t), row.name, "float32")
                t.dispose()
                continue
            expected, out_dtype = ref_unary(row, x)
            y = getattr(tf, row.name)(tf.tensor(x))
            assert_tensor(y, expected, out_dtype)


@pytest.mark.parametrize("row", [r for r in PLAIN_UNARY if r.kind != "bool"], ids=lambda r: r.name)
def test_unary_edge_floats(row):
    expected, _ = ref_unary(row, EDGE_FLOATS)
    y = getattr(tf, row.name)(EDGE_FLOATS)
    assert_tensor(y, expected, "float32")


@pytest.mark.parametrize("row", PLAIN_UNARY, ids=lambda r: r.name)
def test_unary_accepts_python_values_without_leaking(row):
    value = [True, False] if row.kind == "bool" else [0.5, 2.0]
    before = tf.memory().num_tensors
    y = getattr(tf, row.name)(value)
    assert tf.memory().num_tensors == before + 1     # only the result: the converted input is gone
    assert_tensor(y, ref_unary(row, np.array(value))[0])


def test_bool_unary_refuses_number_tensors():
    for x in (tf.tensor([1.0, 0.0]), tf.tensor([1, 0], dtype="int32")):
        assert_raises(TypeError, lambda: tf.logical_not(x), "logical_not", "'x'", "bool")
    assert_raises(TypeError, lambda: tf.logical_not(["a"]), "logical_not", "'x'")


def test_logical_ops_parse_numbers_as_bool():
    # TF.js's convertToTensor(x, ..., 'bool'): a number is true where it rounds (half up) to nonzero,
    # for logical_and, logical_or, logical_not and logical_xor alike (logical_and_test's
    # 'accepts a tensor-like object')
    a, b = [1, 0, 0.5, -0.5, 2.5], [1.0, 1.0, 1.0, 1.0, 0.0]
    want_a = np.array([True, False, True, False, True])
    want_b = np.array([True, True, True, True, False])
    assert_tensor(tf.logical_and(a, b), want_a & want_b, "bool")
    assert_tensor(tf.logical_or(a, b), want_a | want_b, "bool")
    assert_tensor(tf.logical_xor(a, b), want_a ^ want_b, "bool")
    assert_tensor(tf.logical_not(a), ~want_a, "bool")
    assert_tensor(tf.logical_and(tf.tensor([True, False]), 1), [True, False], "bool")   # a scalar beside a tensor
    assert_tensor(tf.logical_or(0, tf.tensor([True, False])), [True, False], "bool")
    assert_tensor(tf.tensor([True, True]).logical_and([0, 3]), [False, True], "bool")


def test_leaky_relu(rng):
    for shape in ALL_SHAPES:
        x = rand(rng, shape)
        assert_tensor(tf.leaky_relu(tf.tensor(x), 0.1), np.where(x < 0, 0.1 * x, x), "float32")
    assert_tensor(tf.leaky_relu(EDGE_FLOATS), np.where(EDGE_FLOATS < 0, 0.2 * EDGE_FLOATS, EDGE_FLOATS))
    assert_tensor(tf.leaky_relu(tf.tensor([-2, 3], dtype="int32")), [-0.4, 3.0], "float32")


def test_clip_by_value(rng):
    for dtype in ("float32", "int32"):
        for shape in ALL_SHAPES:
            x = rand(rng, shape, dtype)
            assert_tensor(tf.clip_by_value(tf.tensor(x), -2, 3), np.clip(x, -2, 3), dtype)
    assert_tensor(tf.clip_by_value(EDGE_FLOATS, -1.5, 2), np.clip(EDGE_FLOATS, -1.5, 2))  # NaN stays NaN
    assert_raises(ValueError, lambda: tf.clip_by_value([1.0], 3, 2), "clip_by_value", "clip_value_min")
    assert_raises(TypeError, lambda: tf.clip_by_value([1.0], "0", 2), "clip_by_value", "clip_value_min")


# --- binary -----------------------------------------------------------------------------

@pytest.mark.parametrize("row", BINARY, ids=lambda r: r.name)
def test_binary_broadcasting(row, rng):
    dtypes = ["bool"] if row.kind == "logical" else ["float32", "int32"]
    fn = getattr(tf, row.name)
    for dtype in dtypes:
        for sa, sb in BROADCAST_PAIRS:
            a, b = rand(rng, sa, dtype), rand(rng, sb, dtype)
            if row.name == "pow" and dtype == "float32":
                a = np.abs(a)  # a negative base to a fractional power is NaN: fine, but dull
            expected, out_dtype = ref_binary(row, a, b)
            assert_tensor(fn(tf.tensor(a), tf.tensor(b)), expected, out_dtype)


@pytest.mark.parametrize("row", [r for r in BINARY if r.kind != "logical"], ids=lambda r: r.name)
def test_binary_edge_floats(row):
    a, b = EDGE_FLOATS[:, None], EDGE_FLOATS[None, :]
    expected, out_dtype = ref_binary(row, a, b)
    assert_tensor(getattr(tf, row.name)(a, b), expected, out_dtype)


# TF.js 4.22's cpu backend (node 20: Math.pow into an Int32Array), (a, b, tf.pow(a, b)), printed by
# tf.pow(tf.tensor1d(as, 'int32'), tf.tensor1d(bs, 'int32')).data(). Exact (a ** b wrapped modulo
# 2^32) while |a ** b| < 2^53; 0 from 2^84 on; in between the float64 power rounded to 53 bits
# (3 ** 40 is odd, its int32 here a multiple of 2^11).
TFJS_INT_POW = [
    (10, 20, 1661992960), (3, 40, 689956864), (-3, 33, 1504003197), (2, 31, -2147483648), (2, 32, 0), (0, 0, 1),
    (2, -1, 0), (1, -5, 1), (-1, -3, -1), (-1, -4, 1), (0, -1, 0), (-2, -1, 0), (3, 20, -808182895),
    (3, 21, 1870418611), (7, 30, 0), (-7, 31, 0), (10, 15, -1530494976), (10, 17, 1569325056),
    (10, 22, -1304428544), (5, 23, -1883073044), (5, 30, 433324032), (2, 62, 0), (2, 64, 0), (2, 1024, 0),
    (46341, 2, -2147479015), (65536, 2, 0), (-65536, 3, 0), (123456, 3, -2057043968), (-2147483648, 1, -2147483648),
    (-2147483648, 2, 0), (2147483647, 2, 0), (2147483647, 3, 0), (1, 2147483647, 1), (-1, 2147483647, -1),
    (0, 5, 0), (-3, 0, 1), (-2, 31, -2147483648), (-2, 32, 0),
]


def test_int32_pow_wraps_as_tfjs():
    a, b, want = (np.int32(c) for c in zip(*TFJS_INT_POW))
    assert_tensor(tf.pow(tf.tensor(a), tf.tensor(b)), want, "int32")
    assert_tensor(tf.tensor(a) ** tf.tensor(b), want, "int32")
    assert_tensor(tf.pow(tf.scalar(10, "int32"), tf.scalar(20, "int32")), np.int32(1661992960), "int32")


def test_int32_pow_edges_broadcast():
    # every pair of edge bases and exponents, both ways round, against the exact power rounded to float64
    bases = np.int32([0, 1, -1, 2, -2, 3, -3, 7, 10, -10, 255, 46341, -65536, 2 ** 31 - 1, -2 ** 31])
    exps = np.int32([-2 ** 31, -3, -2, -1, 0, 1, 2, 3, 15, 16, 19, 20, 31, 32, 33, 40, 52, 53, 63, 64, 84, 85,
                     2 ** 31 - 1])
    for a, b in ((bases[:, None], exps), (bases.reshape(3, 1, 5), exps[:, None, None, None])):
        assert_tensor(tf.pow(a, b), _int_pow(*np.broadcast_arrays(a, b)), "int32")
    # the band 2^53..2^84, where the float64 rounding decides: 2000 random powers
    rng = np.random.default_rng(3)
    a = rng.integers(-70000, 70000, 2000).astype(np.int32)
    b = np.maximum(np.int32(52 / np.log2(np.maximum(np.abs(a), 2))) + rng.integers(0, 6, 2000), 0).astype(np.int32)
    assert_tensor(tf.pow(a, b), _int_pow(a, b), "int32")


@pytest.mark.parametrize("row", [r for r in BINARY if r.kind == "arith"], ids=lambda r: r.name)
def test_binary_int32_division_by_zero_and_bool_operands(row):
    a = np.array([7, -7, 0, 3], np.int32)
    b = np.array([0, 2, 0, -2], np.int32)
    expected, _ = ref_binary(row, a, b)
    assert_tensor(getattr(tf, row.name)(tf.tensor(a), tf.tensor(b)), expected, "int32")
    # bool operands of arithmetic are computed as int32; TF.js returns bool for some kernels
    t, f = np.array([True, True, False]), np.array([True, False, True])
    expected, _ = ref_binary(row, t.astype(np.int32), f.astype(np.int32))
    if row.kernel in BOOL_RESULT:
        assert_tensor(getattr(tf, row.name)(t, f), expected != 0, "bool")
    else:
        assert_tensor(getattr(tf, row.name)(t, f), expected, "int32")


def test_binary_dtype_promotion():
    i = tf.tensor([1, 2], dtype="int32")
    f = tf.tensor([0.5, 0.5])
    b = tf.tensor([True, False])
    assert tf.add(i, f).dtype == "float32"
    assert tf.add(i, b).dtype == "int32"
    assert tf.add(f, b).dtype == "float32"
    assert tf.mul(i, 2).dtype == "int32"          # a Python int beside an int32 tensor stays int32
    assert tf.mul(i, 2.5).dtype == "float32"      # a Python float upcasts
    assert tf.mul(f, 2).dtype == "float32"
    assert tf.equal(i, f).dtype == "bool"
    assert tf.less(b, b).dtype == "bool"


def test_binary_errors():
    assert_raises(ValueError, lambda: tf.add([1.0, 2.0], [1.0, 2.0, 3.0]), "add", "[2]", "[3]")
    a, b, i = tf.zeros([2, 3]), tf.zeros([3, 2]), tf.tensor([1], dtype="int32")
    assert_raises(ValueError, lambda: tf.less(a, b), "less", "[2, 3]", "[3, 2]")
    f = tf.tensor([1.0])
    assert_raises(TypeError, lambda: tf.logical_and(f, [True]), "logical_and", "'a'", "bool")
    assert_raises(TypeError, lambda: tf.logical_or([True], i), "logical_or", "'b'")
    assert_raises(TypeError, lambda: tf.logical_xor([True], i), "logical_xor", "'b'")
    assert_raises(TypeError, lambda: tf.mul(a, "x"), "mul", "'b'")
    assert_raises(TypeError, lambda: tf.sub({}, a), "sub", "'a'")
    assert_raises(ValueError, lambda: tf.add([[1.0], [1.0, 2.0]], 1.0), "add", "'a'", "ragged")


def test_disposed_input_is_refused():
    x = tf.ones([2])
    x.dispose()
    assert_raises(tf.DisposedTensorError, lambda: tf.exp(x), "exp", "disposed")
    assert_raises(tf.DisposedTensorError, lambda: tf.add(x, 1), "add", "disposed")


def test_failed_ops_release_converted_inputs():
    assert_no_leak(lambda: tf.add([1.0, 2.0], [1.0, 2.0, 3.0]))
    assert_no_leak(lambda: tf.logical_and([1.0, 2.0], [True, False, True]))
    i = tf.tensor([1], dtype="int32")
    assert_no_leak(lambda: tf.logical_or([1.0, 2.0], i))
    assert_no_leak(lambda: tf.where([True, False, True], [1.0, 2.0], i))


# --- cast and where ---------------------------------------------------------------------

def test_cast():
    x = np.array([1.7, -1.7, 0.0, -0.0, 0.5, np.nan, np.inf, -np.inf], np.float32)
    assert_tensor(tf.cast(x, "int32"), [1, -1, 0, 0, 0, 0, 0, 0], "int32")   # toward zero, non-finite -> 0
    assert_tensor(tf.cast(x, "bool"), x != 0, "bool")                            # NaN is truthy
    assert_tensor(tf.cast(tf.tensor([3, 0, -2], dtype="int32"), "float32"), [3.0, 0.0, -2.0], "float32")
    assert_tensor(tf.cast(tf.tensor([3, 0, -2], dtype="int32"), "bool"), [True, False, True], "bool")
    assert_tensor(tf.cast([True, False], "float32"), [1.0, 0.0], "float32")
    assert_tensor(tf.cast([True, False], "int32"), [1, 0], "int32")
    same = tf.tensor([1.0, 2.0])
    copy = tf.cast(same, "float32")
    assert copy is not same and copy.data_id is same.data_id   # same dtype: a new handle, shared data
    assert_tensor(copy, [1.0, 2.0], "float32")
    assert_raises(TypeError, lambda: tf.cast([1.0], "float64"), "cast", "'dtype'")
    assert_raises(TypeError, lambda: tf.cast(object(), "int32"), "cast", "'x'")


def test_where(rng):
    for sa, sb in BROADCAST_PAIRS:
        cond = rand(rng, sa, "bool")
        a, b = rand(rng, sb), rand(rng, sa)
        assert_tensor(tf.where(cond, a, b), np.where(cond, a, b), "float32")
    ints = tf.where([True, False], tf.tensor([1, 2], dtype="int32"), 0)
    assert_tensor(ints, [1, 0], "int32")
    floats, i = tf.ones([2]), tf.tensor([1], dtype="int32")
    assert_raises(TypeError, lambda: tf.where(floats, [1.0, 2.0], [3.0, 4.0]), "where", "'condition'")
    mixed = tf.where([True, False], [1.5, 2.5], i)   # TF.js: the upcast of a's and b's dtypes
    assert_tensor(mixed, [1.5, 1.0], "float32")
    assert_raises(ValueError, lambda: tf.where([True, False, True], [1.0, 2.0], [1.0, 2.0]), "where")


# --- Python operators -------------------------------------------------------------------

def test_arithmetic_operators(rng):
    a, b = rand(rng, (2, 3)), rand(rng, (3,), low=0.5, high=4)
    ta, tb = tf.tensor(a), tf.tensor(b)
    assert_tensor(ta + tb, a + b)
    assert_tensor(ta - tb, a - b)
    assert_tensor(ta * tb, a * b)
    assert_tensor(ta / tb, a / b)
    assert_tensor(ta // tb, np.floor(a / b))
    assert_tensor(ta % tb, np.mod(a, b))
    assert_tensor(tb ** ta, np.power(b, a), rtol=1e-4)
    assert_tensor(-ta, -a)
    assert_tensor(abs(ta), np.abs(a))
    assert (+ta) is ta
    # reflected forms with Python scalars
    assert_tensor(2 + ta, 2 + a)
    assert_tensor(2 - ta, 2 - a)
    assert_tensor(2 * ta, 2 * a)
    assert_tensor(2 / tb, 2 / b)
    assert_tensor(7 // tb, np.floor(7 / b))
    assert_tensor(7 % tb, np.mod(7, b))
    assert_tensor(2 ** ta, np.power(2, a), rtol=1e-4)


def test_int_operators_divide_truly_but_floor_with_floordiv():
    a = tf.tensor([7, -7, 6], dtype="int32")
    b = tf.tensor([2, 2, 4], dtype="int32")
    assert_tensor(a / b, [3.5, -3.5, 1.5], "float32")   # `/` is true division on purpose
    assert_tensor(tf.div(a, b), [3, -4, 1], "int32")    # tf.div floors int32, as TF.js
    assert_tensor(a // b, [3, -4, 1], "int32")
    assert_tensor(a % b, [1, 1, 2], "int32")
    assert_tensor(a ** 2, [49, 49, 36], "int32")
    assert_tensor(-a, [-7, 7, -6], "int32")
    assert_tensor(abs(a), [7, 7, 6], "int32")
    assert_tensor(a * 2, [14, -14, 12], "int32")


def test_comparison_operators(rng):
    a, b = rand(rng, (4,), "int32"), rand(rng, (3, 1), "int32")
    ta, tb = tf.tensor(a), tf.tensor(b)
    assert_tensor(ta < tb, a < b, "bool")
    assert_tensor(ta <= tb, a <= b, "bool")
    assert_tensor(ta > tb, a > b, "bool")
    assert_tensor(ta >= tb, a >= b, "bool")
    assert_tensor(ta > 0, a > 0, "bool")
    assert_tensor(0 < ta, 0 < a, "bool")   # reflected: Python calls ta.__gt__(0)
    assert_tensor(ta == tb, a == b, "bool")   # elementwise, as in TensorFlow 2 (tests/unit/test_repr_compare.py)
    assert_tensor(ta != tb, a != b, "bool")


def test_operators_release_temporaries():
    x = tf.tensor([1.0, 2.0])
    before = tf.memory().num_tensors
    y = ((x + 1) * 2 - x) / 3
    assert tf.memory().num_tensors == before + 4   # the 4 intermediate results; no converted scalars
    tf.dispose(y)
    assert_no_leak(lambda: x + [1.0, 2.0, 3.0])


def test_ops_inside_tidy_keep_only_the_result():
    x = tf.tensor([1.0, 2.0])
    before = tf.memory().num_tensors
    y = tf.tidy(lambda: tf.exp(x * 2 + 1) - tf.log(x))
    assert tf.memory().num_tensors == before + 1
    assert_tensor(y, np.exp(np.array([1.0, 2.0]) * 2 + 1) - np.log([1.0, 2.0]))
