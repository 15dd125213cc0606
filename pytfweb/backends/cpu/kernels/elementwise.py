"""Every elementwise kernel from the tables in kernels/elementwise.py (each from the numpy function
of its kernel's name below), plus Cast, Identity, Select."""
import numpy as np

from ....kernels import register_kernel
from ....kernels.elementwise import BINARY, GRADIENT_KERNELS, UNARY, out_dtype
from ..np_dtypes import NP_DTYPES
from ...shared import register_shared_kernels

register_shared_kernels("cpu")


# --- the numpy function of every table kernel: (np, x, **attrs) or (np, a, b) -> ndarray ----------

def _sign(np, x):
    return np.where(x > 0, 1, np.where(x < 0, -1, 0)).astype(x.dtype)


def _selu(np, x):
    alpha, scale = 1.6732632423543772, 1.0507009873554805
    return np.where(x > 0, scale * x, scale * alpha * np.expm1(np.minimum(x, 0)))


def _softplus(np, x):
    # log(1 + e^x) without overflow, as TF.js's threshold form does
    return np.where(x > 15, x, np.where(x < -15, np.exp(x), np.log1p(np.exp(np.minimum(x, 15)))))


def _sigmoid(np, x):
    return 1 / (1 + np.exp(-x))


# TF.js's erf (both backends): Abramowitz and Stegun 7.1.26, |error| <= 1.5e-7.
ERF_P, ERF_A = 0.3275911, (0.254829592, -0.284496736, 1.421413741, -1.453152027, 1.061405429)


def _erf(np, x):
    v = np.abs(x)
    t = 1 / (1 + ERF_P * v)
    poly = 0.0
    for a in reversed(ERF_A):
        poly = (poly + a) * t
    return np.sign(x) * (1 - poly * np.exp(-v * v))


def _step(np, x, alpha):
    # NaN stays NaN; int32 keeps its dtype (the op truncates alpha for it)
    return np.where(np.isnan(x), x, np.where(x > 0, 1, alpha)).astype(x.dtype)


UNARY_NUMPY = {
    "Neg": lambda np, x: -x,
    "Abs": lambda np, x: np.abs(x),
    "Sign": _sign,
    "Square": lambda np, x: x * x,
    "Relu": lambda np, x: np.where(x < 0, 0, x).astype(x.dtype),
    "Relu6": lambda np, x: np.where(x < 0, 0, np.where(x > 6, 6, x)).astype(x.dtype),
    "Exp": lambda np, x: np.exp(x),
    "Log": lambda np, x: np.log(x),
    "Log1p": lambda np, x: np.log1p(x),
    "Sqrt": lambda np, x: np.sqrt(x),
    "Rsqrt": lambda np, x: 1 / np.sqrt(x),
    "Reciprocal": lambda np, x: 1 / x,
    "Elu": lambda np, x: np.where(x >= 0, x, np.expm1(np.minimum(x, 0))),
    "Selu": _selu,
    "Sigmoid": _sigmoid,
    "Tanh": lambda np, x: np.tanh(x),
    "Softplus": _softplus,
    "Sin": lambda np, x: np.sin(x),
    "Cos": lambda np, x: np.cos(x),
    "Floor": lambda np, x: np.floor(x),
    "Ceil": lambda np, x: np.ceil(x),
    "Round": lambda np, x: np.round(x),
    "LogicalNot": lambda np, x: np.logical_not(x),
    "LeakyRelu": lambda np, x, alpha: np.where(x < 0, alpha * x, x),
    "ClipByValue": lambda np, x, clip_value_min, clip_value_max:
        np.where(np.isnan(x), x, np.minimum(np.maximum(x, clip_value_min), clip_value_max)).astype(x.dtype)
        if x.dtype.kind == "f" else np.clip(x, clip_value_min, clip_value_max),
    "Acos": lambda np, x: np.arccos(x),
    "Acosh": lambda np, x: np.arccosh(x),
    "Asin": lambda np, x: np.arcsin(x),
    "Asinh": lambda np, x: np.arcsinh(x),
    "Atan": lambda np, x: np.arctan(x),
    "Atanh": lambda np, x: np.arctanh(x),
    "Cosh": lambda np, x: np.cosh(x),
    "Sinh": lambda np, x: np.sinh(x),
    "Tan": lambda np, x: np.tan(x),
    "Erf": _erf,
    "Expm1": lambda np, x: np.expm1(x),
    "IsNan": lambda np, x: np.isnan(x),
    "IsInf": lambda np, x: np.isinf(x),
    "IsFinite": lambda np, x: np.isfinite(x),
    "Step": _step,
}


def to_int32(np, v):
    """Float values stored as int32 the way a JS Int32Array stores them (ToInt32): truncated
    toward zero, NaN and infinities 0, values beyond int32 wrapped modulo 2^32."""
    v = np.trunc(np.where(np.isfinite(v), v, 0).astype(np.float64))
    return np.fmod(v, 4294967296.0).astype(np.int64).astype(np.int32)


def _floor_div(np, a, b):
    if a.dtype.kind == "f":   # TF.js's FloorDiv returns int32 for float operands too
        return to_int32(np, np.floor(a / b))
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.floor_divide(a, b)
    return np.where(b == 0, 0, out)


def _mod(np, a, b):
    if a.dtype.kind == "f":   # TF.js: r = a % b, then (r + b) % b where the signs differ
        r = np.fmod(a, b)
        same = ((a < 0) & (b < 0)) | ((a >= 0) & (b >= 0))
        return np.where(same, r, np.fmod(r + b, b))
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.mod(a, b)
    return np.where(b == 0, 0, out)


def _pow(np, a, b):
    if a.dtype.kind == "f":   # JS Math.pow: NaN for a NaN exponent, and for (+-1) ** +-Infinity
        undefined = np.isnan(b) | ((np.abs(a) == 1) & np.isinf(b))
        return np.where(undefined, np.float32("nan"), np.power(a, b))
    return _pow_int(np, a, b)


# int32 powers. TF.js's cpu kernel computes Math.pow(a, b) in float64 and stores it into an
# Int32Array (ToInt32: truncated toward zero, Infinity 0, wrapped modulo 2^32). pytfweb takes that
# float64 to be the exact power rounded to nearest, ties to even, which gives, for P = |a| ** b:
#   b < 0:             1 for a = 1, -1 or 1 (odd or even b) for a = -1, else 0 (|a ** b| < 1, or
#                      Infinity for a = 0)
#   b = 0:             1 (0 ** 0 too)
#   P < 2^53:          a ** b wrapped to int32: exact, whatever engine (10 ** 20 -> 1661992960,
#                      2 ** 31 -> -2147483648, (-3) ** 33 -> 1504003197)
#   2^53 <= P < 2^84:  P rounded to 53 significant bits, wrapped: 3 ** 40 -> 689956864 (exact
#                      modular arithmetic would give an odd number)
#   P >= 2^84:         0 (the float64 is a multiple of 2^32: 7 ** 30, 2 ** 64, 2147483647 ** 3)
# In the middle band TF.js's answer depends on the JS engine's Math.pow, which is not correctly
# rounded: V8 before 13.2 (node 20) uses fdlibm's pow, later V8 (Chromium 156) the C library's;
# of 7380 such powers of int32s node 20's int32 results differ from the exact rounding's on 517,
# Chromium 156's on 83, and the two engines' from each other on 588 (README, Deviations).
# The webgl and webgpu backends compute the same rule in 32-bit integers (op_Pow_int in
# backends/webgl/shaders/binary_ops.glsl and backends/webgpu/shaders/binary_ops.wgsl).
_M32 = 0xFFFFFFFF


def _pow_int(np, a, b):
    a, b = np.broadcast_arrays(np.asarray(a, np.int64), np.asarray(b, np.int64))
    m = np.abs(a).astype(np.uint64)                              # |a| <= 2^31
    e = np.maximum(b, 0).astype(np.uint64)
    low = np.power(m, e)                          # P modulo 2^64: numpy's uint64 power wraps
    bits = b * np.log2(np.maximum(m, 1).astype(np.float64))     # log2(P) for |a| >= 2, to ~1e-13
    big = (m >= 2) & (bits >= 85)                                # P >= 2^84 for certain
    # P's high part P // 2^64 (< 2^21 where not big), exactly: the float64 power is within a few
    # units in the last place of P, far closer than 2^63 to (P // 2^64) * 2^64 + low
    with np.errstate(over="ignore"):
        near = np.where(big, 0.0, np.power(m.astype(np.float64), e.astype(np.float64)))
    high = np.rint((near - low.astype(np.float64)) / 2.0 ** 64).astype(np.uint64)
    length = np.where(high > 0, 64 + _bit_length(np, high),                          # P's bit length
                      np.where(low >> np.uint64(32) > 0, 32 + _bit_length(np, low >> np.uint64(32)),
                               _bit_length(np, low & np.uint64(_M32))))
    # rounded to the 53 significant bits of a float64 (to nearest, ties to even): the k bits
    # below them (k <= 31 below 2^84) rounded off the low word
    one, w0 = np.uint64(1), low & np.uint64(_M32)
    k = np.clip(length - 53, 1, 31).astype(np.uint64)
    dropped = w0 & ((one << k) - one)
    halfway = one << (k - one)
    up = (dropped > halfway) | ((dropped == halfway) & (((w0 >> k) & one) == one))
    rounded = (w0 - dropped + np.where(up, one << k, np.uint64(0))) & np.uint64(_M32)
    out = np.where(length > 53, rounded, w0)
    out = np.where(big | (high >= np.uint64(1 << 20)) | ((b < 0) & (m != 1)), np.uint64(0), out)
    negative = (a < 0) & ((b & 1) == 1)
    out = np.where(negative, (np.uint64(1 << 32) - out) & np.uint64(_M32), out)
    return out.astype(np.uint32).view(np.int32)


def _bit_length(np, x):
    """The bit lengths of values below 2^32 (float64 holds them exactly)."""
    return np.frexp(x.astype(np.float64))[1]


BINARY_NUMPY = {
    "Add": lambda np, a, b: a + b,
    "Sub": lambda np, a, b: a - b,
    "Multiply": lambda np, a, b: a * b,
    "RealDiv": lambda np, a, b: a / b,
    "FloorDiv": _floor_div,
    "Mod": _mod,
    "Pow": _pow,
    "Maximum": lambda np, a, b: np.maximum(a, b),
    "Minimum": lambda np, a, b: np.minimum(a, b),
    "SquaredDifference": lambda np, a, b: (a - b) * (a - b),
    "Equal": lambda np, a, b: a == b,
    "NotEqual": lambda np, a, b: a != b,
    "Greater": lambda np, a, b: a > b,
    "GreaterEqual": lambda np, a, b: a >= b,
    "Less": lambda np, a, b: a < b,
    "LessEqual": lambda np, a, b: a <= b,
    "LogicalAnd": lambda np, a, b: np.logical_and(a, b),
    "LogicalOr": lambda np, a, b: np.logical_or(a, b),
    "Atan2": lambda np, a, b: np.arctan2(a, b),
    "BitwiseAnd": lambda np, a, b: np.bitwise_and(a, b),
    # TF.js's EluGrad(dy, y): dy where y >= 0, else dy * (y + 1) (= dy * e^x)
    "EluGrad": lambda np, dy, y: np.where(y < 0, dy * (y + 1), dy),
    # pytfweb's own (TF.js composes these from comparisons and a select: two or four passes over x)
    # ReluGrad(dy, x): dy where x > 0, else 0; Relu6Grad(dy, x): dy where 0 < x <= 6, else 0
    "ReluGrad": lambda np, dy, x: np.where(x > 0, dy, np.zeros_like(dy)),
    "Relu6Grad": lambda np, dy, x: np.where((x > 0) & (x <= 6), dy, np.zeros_like(dy)),
}


def _unary_kernel(row):
    fn = UNARY_NUMPY[row.kernel]

    def kernel(backend, inputs, attrs):
        (x,) = inputs
        with np.errstate(all="ignore"):
            out = fn(np, backend.values(x), **attrs)
        dtype = out_dtype(row, x.dtype)
        return backend.output(out, dtype)
    return kernel


def _binary_kernel(row):
    fn = BINARY_NUMPY[row.kernel]

    def kernel(backend, inputs, attrs):
        a, b = inputs
        with np.errstate(all="ignore"):
            out = fn(np, backend.values(a), backend.values(b))
        dtype = out_dtype(row, a.dtype)
        return backend.output(out, dtype)
    return kernel


for _row in UNARY:
    register_kernel(_row.kernel, "cpu", _unary_kernel(_row))
for _row in BINARY + GRADIENT_KERNELS:
    register_kernel(_row.kernel, "cpu", _binary_kernel(_row))


@register_kernel("Cast", "cpu")
def cast(backend, inputs, attrs):
    (x,) = inputs
    v = backend.values(x)
    dtype = attrs["dtype"]
    if dtype == "bool":
        out = v != 0
    elif dtype == "int32" and v.dtype.kind == "f":
        with np.errstate(invalid="ignore"):
            out = to_int32(np, v)   # as Int32Array.from: truncated, NaN/inf 0, wrapped
    else:
        out = v.astype(NP_DTYPES[dtype])
    return backend.output(out, dtype)


@register_kernel("Select", "cpu")
def select(backend, inputs, attrs):
    c, a, b = inputs
    return backend.output(np.where(backend.values(c), backend.values(a), backend.values(b)), a.dtype)
