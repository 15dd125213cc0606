"""Elementwise ops as tables: one row per op, turned into public functions here and into
kernels by each backend (cpu: the row's numpy function; webgl: the GLSL of the kernel's name
in shaders/unary_ops.glsl or shaders/binary_ops.glsl).

Dtype kinds (TF.js's rules, which differ from op to op):
  unary  'float'    -> float32 tensors only (TF.js rejects int32/bool tensors; plain values
                       are parsed as float32); output float32
         'to_float' -> any numeric dtype in (int32/bool cast to float32); output float32
         'numeric'  -> float32 and int32 kept (exact int32 kernels); a bool input is computed
                       as int32 and the result returned as bool
         'same'     -> dtype kept, computed in float32: an int32 or bool input gets the float32
                       result truncated into its own dtype (as TF.js's typed arrays store it)
         'bool'     -> input must be bool; output bool
         'test'     -> any dtype kept (is_nan and the like); output bool
  binary 'arith'    -> operands upcast; output that dtype. Two bool operands are computed as
                       int32; the result is bool for the kernels in BOOL_RESULT, else int32
         'same'     -> operands upcast, computed in float32 (atan2); int32/bool operands get
                       the result truncated into their dtype
         'floor'    -> operands upcast; output int32 whatever they are (floor_div: NaN and
                       infinities give 0, large values wrap, as TF.js's Int32Array)
         'compare'  -> operands upcast (two strings compare too); output bool
         'logical'  -> operands must be bool; output bool
         'bitwise'  -> operands must be int32; output int32

TF.js ops without a kernel of their own (log_sigmoid, logical_xor, div_no_nan) are composites
at the end of this module, built from these rows as TF.js builds them.
"""
import numbers
from typing import Callable, NamedTuple

from ..dtypes import upcast
from ..engine import ENGINE, op
from ..kernels import STRING_KERNELS
from ..shapes import broadcast_shapes
from ..tensor import Tensor
from .creation import convert_to_tensor, refuse_complex, zeros_like


class Unary(NamedTuple):
    name: str
    kernel: str
    kind: str
    numpy: Callable          # (np, x, **attrs) -> ndarray
    attrs: tuple = ()        # attribute names the kernel takes


class Binary(NamedTuple):
    name: str
    kernel: str
    kind: str
    numpy: Callable          # (np, a, b) -> ndarray


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


UNARY = [
    Unary("neg", "Neg", "numeric", lambda np, x: -x),
    Unary("abs", "Abs", "numeric", lambda np, x: np.abs(x)),
    Unary("sign", "Sign", "numeric", _sign),
    Unary("square", "Square", "numeric", lambda np, x: x * x),
    Unary("relu", "Relu", "numeric", lambda np, x: np.where(x < 0, 0, x).astype(x.dtype)),
    Unary("relu6", "Relu6", "numeric", lambda np, x: np.where(x < 0, 0, np.where(x > 6, 6, x)).astype(x.dtype)),
    Unary("exp", "Exp", "to_float", lambda np, x: np.exp(x)),
    Unary("log", "Log", "float", lambda np, x: np.log(x)),
    Unary("log1p", "Log1p", "same", lambda np, x: np.log1p(x)),
    Unary("sqrt", "Sqrt", "float", lambda np, x: np.sqrt(x)),
    Unary("rsqrt", "Rsqrt", "float", lambda np, x: 1 / np.sqrt(x)),
    Unary("reciprocal", "Reciprocal", "same", lambda np, x: 1 / x),
    Unary("elu", "Elu", "float", lambda np, x: np.where(x >= 0, x, np.expm1(np.minimum(x, 0)))),
    Unary("selu", "Selu", "same", _selu),
    Unary("sigmoid", "Sigmoid", "float", _sigmoid),
    Unary("tanh", "Tanh", "float", lambda np, x: np.tanh(x)),
    Unary("softplus", "Softplus", "same", _softplus),
    Unary("sin", "Sin", "float", lambda np, x: np.sin(x)),
    Unary("cos", "Cos", "float", lambda np, x: np.cos(x)),
    Unary("floor", "Floor", "float", lambda np, x: np.floor(x)),
    Unary("ceil", "Ceil", "float", lambda np, x: np.ceil(x)),
    Unary("round", "Round", "same", lambda np, x: np.round(x)),
    Unary("logical_not", "LogicalNot", "bool", lambda np, x: np.logical_not(x)),
    Unary("leaky_relu", "LeakyRelu", "to_float", lambda np, x, alpha: np.where(x < 0, alpha * x, x), ("alpha",)),
    Unary("clip_by_value", "ClipByValue", "numeric",
          lambda np, x, clip_value_min, clip_value_max:
          np.where(np.isnan(x), x, np.minimum(np.maximum(x, clip_value_min), clip_value_max)).astype(x.dtype)
          if x.dtype.kind == "f" else np.clip(x, clip_value_min, clip_value_max),
          ("clip_value_min", "clip_value_max")),
    Unary("acos", "Acos", "same", lambda np, x: np.arccos(x)),
    Unary("acosh", "Acosh", "same", lambda np, x: np.arccosh(x)),
    Unary("asin", "Asin", "same", lambda np, x: np.arcsin(x)),
    Unary("asinh", "Asinh", "same", lambda np, x: np.arcsinh(x)),
    Unary("atan", "Atan", "same", lambda np, x: np.arctan(x)),
    Unary("atanh", "Atanh", "same", lambda np, x: np.arctanh(x)),
    Unary("cosh", "Cosh", "float", lambda np, x: np.cosh(x)),
    Unary("sinh", "Sinh", "same", lambda np, x: np.sinh(x)),
    Unary("tan", "Tan", "float", lambda np, x: np.tan(x)),
    Unary("erf", "Erf", "to_float", _erf),
    Unary("expm1", "Expm1", "same", lambda np, x: np.expm1(x)),
    Unary("is_nan", "IsNan", "test", lambda np, x: np.isnan(x)),
    Unary("is_inf", "IsInf", "test", lambda np, x: np.isinf(x)),
    Unary("is_finite", "IsFinite", "test", lambda np, x: np.isfinite(x)),
    Unary("step", "Step", "numeric", _step, ("alpha",)),
]


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
# shaders/binary_ops.glsl and shaders/webgpu/binary_ops.wgsl).
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


BINARY = [
    Binary("add", "Add", "arith", lambda np, a, b: a + b),
    Binary("sub", "Sub", "arith", lambda np, a, b: a - b),
    Binary("mul", "Multiply", "arith", lambda np, a, b: a * b),
    Binary("div", "RealDiv", "arith", lambda np, a, b: a / b),
    Binary("floor_div", "FloorDiv", "floor", _floor_div),
    Binary("mod", "Mod", "arith", _mod),
    Binary("pow", "Pow", "arith", _pow),
    Binary("maximum", "Maximum", "arith", lambda np, a, b: np.maximum(a, b)),
    Binary("minimum", "Minimum", "arith", lambda np, a, b: np.minimum(a, b)),
    Binary("squared_difference", "SquaredDifference", "arith", lambda np, a, b: (a - b) * (a - b)),
    Binary("equal", "Equal", "compare", lambda np, a, b: a == b),
    Binary("not_equal", "NotEqual", "compare", lambda np, a, b: a != b),
    Binary("greater", "Greater", "compare", lambda np, a, b: a > b),
    Binary("greater_equal", "GreaterEqual", "compare", lambda np, a, b: a >= b),
    Binary("less", "Less", "compare", lambda np, a, b: a < b),
    Binary("less_equal", "LessEqual", "compare", lambda np, a, b: a <= b),
    Binary("logical_and", "LogicalAnd", "logical", lambda np, a, b: np.logical_and(a, b)),
    Binary("logical_or", "LogicalOr", "logical", lambda np, a, b: np.logical_or(a, b)),
    Binary("atan2", "Atan2", "same", lambda np, a, b: np.arctan2(a, b)),
    Binary("bitwise_and", "BitwiseAnd", "bitwise", lambda np, a, b: np.bitwise_and(a, b)),
]


# Arithmetic kernels whose two bool operands give a bool result in TF.js (their values, computed
# here as int32, are 0 or 1). Maximum, Minimum and FloorDiv give int32 there; Add and Sub give
# bool tensors holding 2 or 255, which pytfweb does not copy (README, Deviations): int32 instead.
BOOL_RESULT = {"Multiply", "RealDiv", "Mod", "Pow", "SquaredDifference"}


def out_dtype(row, in_dtype):
    """The dtype a table kernel returns for operands of in_dtype (every backend uses this)."""
    if row.kind in ("bool", "test", "compare", "logical"):
        return "bool"
    if row.kind == "floor":
        return "int32"
    return "float32" if row.kind in ("float", "to_float") else in_dtype


# Kernels that gradients use, not ops of their own: registered on every backend like the rows
# above, with no public function.
GRADIENT_KERNELS = [
    # TF.js's EluGrad(dy, y): dy where y >= 0, else dy * (y + 1) (= dy * e^x)
    Binary("elu_grad", "EluGrad", "arith", lambda np, dy, y: np.where(y < 0, dy * (y + 1), dy)),
    # pytfweb's own (TF.js composes these from comparisons and a select: two or four passes over x)
    # ReluGrad(dy, x): dy where x > 0, else 0; Relu6Grad(dy, x): dy where 0 < x <= 6, else 0
    Binary("relu_grad", "ReluGrad", "arith", lambda np, dy, x: np.where(x > 0, dy, np.zeros_like(dy))),
    Binary("relu6_grad", "Relu6Grad", "arith",
           lambda np, dy, x: np.where((x > 0) & (x <= 6), dy, np.zeros_like(dy))),
]

# TF.js compares two string tensors too (by the strings' order); their values stay host-side on
# every backend, so the engine lets strings into these kernels.
STRING_KERNELS.update(r.kernel for r in BINARY if r.kind == "compare")

UNARY_BY_KERNEL = {r.kernel: r for r in UNARY}
BINARY_BY_KERNEL = {r.kernel: r for r in BINARY}


# --- dtype handling -------------------------------------------------------------------

@op
def cast(x, dtype):
    """tf.cast: float->int truncates toward zero, anything->bool is x != 0."""
    from ..dtypes import check_dtype
    x = convert_to_tensor(x, "x", "cast")
    dtype = check_dtype(dtype, "cast")
    if dtype == x.dtype:
        return ENGINE.run_kernel("Identity", [x])
    if "string" in (dtype, x.dtype):   # TF.js: only strings can be cast to strings
        raise TypeError(f"cast: cannot cast {x.dtype} to {dtype}: only strings can be cast to strings")
    return ENGINE.run_kernel("Cast", [x], {"dtype": dtype})


def _unary_input(row, x):
    """x converted for row's kernel, and the dtype the op then returns if it differs from the
    kernel's (None otherwise): TF.js's dtype rules, by the row's kind."""
    x = convert_to_tensor(x, "x", row.name, "float32" if row.kind == "float" and not isinstance(x, Tensor)
                          else None)
    if x.dtype == "string":   # as TF.js: numeric ops refuse strings (a str value becomes one)
        raise TypeError(f"{row.name}: argument 'x' must be a numeric tensor, got a string tensor")
    if row.kind == "float" and x.dtype != "float32":
        raise TypeError(f"{row.name}: argument 'x' must be a float32 tensor, got {x.dtype}")
    if row.kind == "bool" and x.dtype != "bool":
        raise TypeError(f"{row.name}: argument 'x' must be a bool tensor, got {x.dtype}")
    if row.kernel in _REFUSES_COMPLEX:
        refuse_complex(x, "x", row.name)
    if row.kernel in _REFUSES_BOOL and x.dtype == "bool":
        raise TypeError(f"{row.name}: argument 'x' must be a float32 or int32 tensor, got bool")
    if row.kind == "to_float" and x.dtype != "float32":
        return cast(x, "float32"), None
    if row.kind == "numeric" and x.dtype == "bool":
        return cast(x, "int32"), "bool"
    if row.kind == "same" and x.dtype != "float32":
        return cast(x, "float32"), x.dtype
    return x, None


# Unary kernels TF.js refuses bool tensors for (its erf takes float32 and int32 only).
_REFUSES_BOOL = {"Erf"}
# Unary kernels not linear in their values that TF.js refuses complex64 for (and that have no
# complex path here on any backend).
_REFUSES_COMPLEX = {"ClipByValue", "Step", "Relu6"}


def result_as(y, dtype):
    """A kernel's result y returned as dtype (None: as it is): int32 truncates, as TF.js's typed
    arrays store a float result; bool goes through int32 (a bool result of TF.js's is the
    truncated value in a Uint8Array)."""
    if dtype is None or y.dtype == dtype:
        return y
    if dtype == "bool" and y.dtype == "float32":
        y = cast(y, "int32")
    return cast(y, dtype)


@op
def run_unary(row, x, attrs=None):
    x, dtype = _unary_input(row, x)  # a cast copy is disposed with the op's scope
    if x.dtype == "complex64" and row.kernel == "Abs":
        return ENGINE.run_kernel("ComplexAbs", [x])   # TF.js abs: the magnitude (float32)
    return result_as(ENGINE.run_kernel(row.kernel, [x], attrs), dtype)


def _operand(v, arg, op, other):
    """A Python scalar beside a tensor takes that tensor's dtype where it can (so `int_t * 2`
    stays int32); otherwise TF.js inference applies."""
    if isinstance(v, Tensor):
        v.throw_if_disposed(op)
        return v
    if isinstance(other, Tensor) and other.dtype == "string" and isinstance(v, str):
        return convert_to_tensor(v, arg, op, "string")
    if isinstance(other, Tensor) and isinstance(v, (int, float)) and not isinstance(v, bool):
        if other.dtype == "int32" and isinstance(v, int):
            return convert_to_tensor(v, arg, op, "int32")
        if other.dtype == "float32":
            return convert_to_tensor(v, arg, op, "float32")
    return convert_to_tensor(v, arg, op)


# Binary kinds whose operands must already have one dtype (no casts: TF.js refuses others).
_REQUIRED_DTYPE = {"logical": "bool", "bitwise": "int32"}


def binary_operands(row_name, kind, a, b):
    """Convert, check and dtype-match two operands; returns (a, b, casts made). Call it inside
    an op's scope: the conversions and casts it makes are disposed with that scope."""
    a = _operand(a, "a", row_name, b)
    b = _operand(b, "b", row_name, a)
    if kind == "compare" and a.dtype == b.dtype == "string":   # TF.js compares strings as they are
        broadcast_shapes(a.shape, b.shape, row_name)
        return a, b, []
    for arg, t in (("a", a), ("b", b)):
        if t.dtype == "string":   # as TF.js: numeric ops refuse strings
            raise TypeError(f"{row_name}: argument '{arg}' must be a numeric tensor, got a string tensor")
    broadcast_shapes(a.shape, b.shape, row_name)
    temps = []
    required = _REQUIRED_DTYPE.get(kind)
    if required is not None:
        for arg, t in (("a", a), ("b", b)):
            if t.dtype != required:
                raise TypeError(f"{row_name}: argument '{arg}' must be a tensor of dtype {required}, "
                                f"got {t.dtype}")
        return a, b, temps
    dtype = upcast(a.dtype, b.dtype)
    if dtype == "bool" and kind in ("arith", "floor"):
        dtype = "int32"
    elif kind in ("same", "float"):   # 'float': both cast to float32 (prelu)
        dtype = "float32"
    if a.dtype != dtype:
        a = cast(a, dtype)
        temps.append(a)
    if b.dtype != dtype:
        b = cast(b, dtype)
        temps.append(b)
    return a, b, temps


def binary_result_dtype(row, a, b):
    """The dtype TF.js returns where it differs from the kernel's for these operands (None
    otherwise): bool for two bools (BOOL_RESULT), and the operands' dtype for 'same' rows."""
    if "string" in (a.dtype, b.dtype):
        return None
    dtype = upcast(a.dtype, b.dtype)
    if row.kind == "same" and dtype != "float32":
        return dtype
    if dtype == "bool" and row.kernel in BOOL_RESULT:
        return "bool"
    return None


@op
def run_binary(row, a, b):
    a = _operand(a, "a", row.name, b)
    b = _operand(b, "b", row.name, a)
    dtype = binary_result_dtype(row, a, b)
    a, b, _ = binary_operands(row.name, row.kind, a, b)
    return result_as(_binary_kernel(row, a, b), dtype)


def _binary_kernel(row, a, b):
    if row.kernel == "RealDiv" and a.dtype == "int32":
        return ENGINE.run_kernel("FloorDiv", [a, b])   # TF.js: int32 / int32 floors
    return ENGINE.run_kernel(row.kernel, [a, b])


def _ready_dtype(kind, dtype):
    """Whether operands of this dtype go to the kernel unconverted."""
    if kind in ("arith", "floor"):
        return dtype != "bool"
    if kind == "same":
        return dtype == "float32"
    if kind in _REQUIRED_DTYPE:
        return dtype == _REQUIRED_DTYPE[kind]
    return kind == "compare" and dtype != "string"


def _make_unary(row):
    ready = {"float": ("float32",), "to_float": ("float32",), "same": ("float32",),
             "numeric": ("float32", "int32"), "bool": ("bool",), "test": ("float32", "int32", "bool")}[row.kind]

    def op(x):
        # Fast path: a live tensor of the right dtype needs no conversion, hence no scope.
        if isinstance(x, Tensor) and x.dtype in ready and not x.is_disposed_internal:
            return ENGINE.run_kernel(row.kernel, [x])
        return run_unary(row, x)
    op.__name__ = op.__qualname__ = row.name
    op.__doc__ = f"tf.{row.name}: elementwise, kernel '{row.kernel}'."
    return op


def _make_binary(row):
    def op(a, b):
        # Fast path: two live tensors of one ready dtype need no conversion, hence no scope.
        if (isinstance(a, Tensor) and isinstance(b, Tensor) and a.dtype == b.dtype
                and _ready_dtype(row.kind, a.dtype)
                and not a.is_disposed_internal and not b.is_disposed_internal):
            if a.shape != b.shape:
                broadcast_shapes(a.shape, b.shape, row.name)
            return _binary_kernel(row, a, b)
        return run_binary(row, a, b)
    op.__name__ = op.__qualname__ = row.name
    op.__doc__ = f"tf.{row.name}(a, b): elementwise with broadcasting, kernel '{row.kernel}'."
    return op


_ops = {r.name: _make_unary(r) for r in UNARY if not r.attrs}
_ops.update({r.name: _make_binary(r) for r in BINARY})
globals().update(_ops)


def leaky_relu(x, alpha=0.2):
    if isinstance(alpha, bool) or not isinstance(alpha, numbers.Real):
        raise TypeError(f"leaky_relu: argument 'alpha' must be a number, got {type(alpha).__name__}")
    return run_unary(UNARY_BY_KERNEL["LeakyRelu"], x, {"alpha": float(alpha)})


def clip_by_value(x, clip_value_min, clip_value_max):
    for arg, v in (("clip_value_min", clip_value_min), ("clip_value_max", clip_value_max)):
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise TypeError(f"clip_by_value: argument '{arg}' must be a number, got {type(v).__name__}")
    if clip_value_min > clip_value_max:
        raise ValueError(f"clip_by_value: clip_value_min ({clip_value_min}) must be <= "
                         f"clip_value_max ({clip_value_max})")
    if clip_value_min == clip_value_max:   # as TF.js: a fill of that value (NaN included)
        from .creation import fill
        x = convert_to_tensor(x, "x", "clip_by_value")
        refuse_complex(x, "x", "clip_by_value")
        if x.dtype == "string":
            raise TypeError("clip_by_value: argument 'x' must be a numeric tensor, got a string tensor")
        return fill(x.shape, clip_value_min, x.dtype)
    return run_unary(UNARY_BY_KERNEL["ClipByValue"], x,
                     {"clip_value_min": clip_value_min, "clip_value_max": clip_value_max})


@op
def step(x, alpha=0.0):
    """tf.step: 1 where x > 0, alpha elsewhere, NaN kept. int32 stays int32, and alpha is then
    truncated toward zero (as TF.js storing it into an Int32Array)."""
    if isinstance(alpha, bool) or not isinstance(alpha, (int, float)):
        raise TypeError(f"step: argument 'alpha' must be a number, got {type(alpha).__name__}")
    row = UNARY_BY_KERNEL["Step"]
    x, dtype = _unary_input(row, x)
    y = ENGINE.run_kernel(row.kernel, [x], {"alpha": float(int(alpha) if x.dtype == "int32" else alpha)})
    return result_as(y, dtype)


@op
def bitwise_and(x, y):
    """tf.bitwise_and: elementwise AND of two int32 tensors of the same shape (no broadcasting,
    as TF.js)."""
    row = BINARY_BY_KERNEL["BitwiseAnd"]
    x = _operand(x, "x", row.name, y)
    y = _operand(y, "y", row.name, x)
    for arg, t in (("x", x), ("y", y)):
        if t.dtype != "int32":
            raise TypeError(f"bitwise_and: argument '{arg}' must be an int32 tensor, got {t.dtype}")
    if x.shape != y.shape:
        raise ValueError(f"bitwise_and: arguments 'x' and 'y' must have the same shape, "
                         f"got {list(x.shape)} and {list(y.shape)}")
    return ENGINE.run_kernel(row.kernel, [x, y])


# --- composites: TF.js ops without a kernel of their own ------------------------------------

@op
def log_sigmoid(x):
    """tf.log_sigmoid: log(sigmoid(x)) as -softplus(-x) (no overflow), with TF.js's gradient
    dy * sigmoid(-x) rather than the chain through softplus. int32 and bool keep their dtype, each
    step truncated, as TF.js's neg(softplus(neg(x))) gives them."""
    x = convert_to_tensor(x, "x", "log_sigmoid")
    neg, softplus, sigmoid, mul = _ops["neg"], _ops["softplus"], _ops["sigmoid"], _ops["mul"]
    if x.dtype != "float32":
        if x.dtype == "string":
            raise TypeError("log_sigmoid: argument 'x' must be a numeric tensor, got a string tensor")
        return neg(softplus(neg(x)))

    def forward():
        return [neg(softplus(neg(x)))], [x]

    def gradient(dy, node):
        return [mul(dy, sigmoid(neg(node.x[0])))]
    (y,) = ENGINE.run_custom_gradient(forward, [x], gradient)
    return y


@op
def logical_xor(a, b):
    """tf.logical_xor: (a or b) and not (a and b), as TF.js composes it (no kernel of its own)."""
    a = convert_to_tensor(a, "a", "logical_xor", "bool")
    b = convert_to_tensor(b, "b", "logical_xor", "bool")
    a, b, _ = binary_operands("logical_xor", "logical", a, b)
    both = _ops["logical_and"](a, b)
    return _ops["logical_and"](_ops["logical_or"](a, b), _ops["logical_not"](both))


@op
def div_no_nan(a, b):
    """tf.div_no_nan: a / b, but 0 where b is 0 (int32 operands floor, as tf.div). As in TF.js,
    where(b == 0, 0, a / b): the gradient to a where b is 0 is then 0 / 0 (NaN), as there."""
    row = BINARY_BY_KERNEL["RealDiv"]
    a = _operand(a, "a", "div_no_nan", b)
    b = _operand(b, "b", "div_no_nan", a)
    dtype = binary_result_dtype(row, a, b)   # two bools give bool, as TF.js's div does
    a, b, _ = binary_operands("div_no_nan", "arith", a, b)
    quotient = _binary_kernel(row, a, b)
    return result_as(where(_ops["equal"](b, 0), zeros_like(quotient), quotient), dtype)


# Exported with the table's ops (ops/__init__.py takes _ops).
_ops.update(step=step, bitwise_and=bitwise_and, log_sigmoid=log_sigmoid, logical_xor=logical_xor,
            div_no_nan=div_no_nan)


@op
def true_div(a, b):
    """The `/` operator: true division (int32 operands are divided as float32)."""
    a = _operand(a, "a", "div", b)
    b = _operand(b, "b", "div", a)
    if a.dtype != "float32":
        a = cast(a, "float32")   # disposed with the op's scope
    if b.dtype != "float32":
        b = cast(b, "float32")
    return run_binary(BINARY_BY_KERNEL["RealDiv"], a, b)


@op
def where(condition, a=None, b=None):
    """tf.where(condition, a, b): a where condition is true, else b (all three broadcast).
    With condition alone: the coordinates of its true entries, int32 [count, rank] (reads the
    data back; tf.where_async does so without blocking)."""
    op = "where"
    if a is None and b is None:
        from .indexing import where_coords
        return where_coords(condition)
    condition = convert_to_tensor(condition, "condition", op, "bool")
    if condition.dtype != "bool":
        raise TypeError(f"where: argument 'condition' must be a bool tensor, got {condition.dtype}")
    a = _operand(a, "a", op, b)
    b = _operand(b, "b", op, a)
    broadcast_shapes(broadcast_shapes(condition.shape, a.shape, op), b.shape, op)
    if a.dtype != b.dtype:   # TF.js's Select writes upcastType(a.dtype, b.dtype)
        dtype = upcast(a.dtype, b.dtype)
        a, b = cast(a, dtype), cast(b, dtype)
    return ENGINE.run_kernel("Select", [condition, a, b])
