"""Elementwise ops as tables: one row per op, turned into public functions here and into
kernels by each backend (cpu: the row's numpy function; webgl: the GLSL of the kernel's name
in shaders/unary_ops.glsl or shaders/binary_ops.glsl).

Dtype kinds:
  unary  'float'   -> int32/bool inputs are cast to float32; output float32
         'numeric' -> float32 and int32 kept; bool cast to int32
         'bool'    -> input must be bool; output bool
  binary 'arith'   -> operands upcast (bool counts as int32); output that dtype
         'compare' -> operands upcast; output bool
         'logical' -> operands must be bool; output bool
"""
from typing import Callable, NamedTuple

from ..dtypes import upcast
from ..engine import ENGINE, op
from ..shapes import broadcast_shapes
from ..tensor import Tensor
from .creation import convert_to_tensor


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


UNARY = [
    Unary("neg", "Neg", "numeric", lambda np, x: -x),
    Unary("abs", "Abs", "numeric", lambda np, x: np.abs(x)),
    Unary("sign", "Sign", "numeric", _sign),
    Unary("square", "Square", "numeric", lambda np, x: x * x),
    Unary("relu", "Relu", "numeric", lambda np, x: np.where(x < 0, 0, x).astype(x.dtype)),
    Unary("relu6", "Relu6", "numeric", lambda np, x: np.where(x < 0, 0, np.where(x > 6, 6, x)).astype(x.dtype)),
    Unary("exp", "Exp", "float", lambda np, x: np.exp(x)),
    Unary("log", "Log", "float", lambda np, x: np.log(x)),
    Unary("log1p", "Log1p", "float", lambda np, x: np.log1p(x)),
    Unary("sqrt", "Sqrt", "float", lambda np, x: np.sqrt(x)),
    Unary("rsqrt", "Rsqrt", "float", lambda np, x: 1 / np.sqrt(x)),
    Unary("reciprocal", "Reciprocal", "float", lambda np, x: 1 / x),
    Unary("elu", "Elu", "float", lambda np, x: np.where(x >= 0, x, np.expm1(np.minimum(x, 0)))),
    Unary("selu", "Selu", "float", _selu),
    Unary("sigmoid", "Sigmoid", "float", _sigmoid),
    Unary("tanh", "Tanh", "float", lambda np, x: np.tanh(x)),
    Unary("softplus", "Softplus", "float", _softplus),
    Unary("sin", "Sin", "float", lambda np, x: np.sin(x)),
    Unary("cos", "Cos", "float", lambda np, x: np.cos(x)),
    Unary("floor", "Floor", "float", lambda np, x: np.floor(x)),
    Unary("ceil", "Ceil", "float", lambda np, x: np.ceil(x)),
    Unary("round", "Round", "float", lambda np, x: np.round(x)),
    Unary("logical_not", "LogicalNot", "bool", lambda np, x: np.logical_not(x)),
    Unary("leaky_relu", "LeakyRelu", "float", lambda np, x, alpha: np.where(x < 0, alpha * x, x), ("alpha",)),
    Unary("clip_by_value", "ClipByValue", "numeric",
          lambda np, x, clip_value_min, clip_value_max:
          np.where(np.isnan(x), x, np.minimum(np.maximum(x, clip_value_min), clip_value_max)).astype(x.dtype)
          if x.dtype.kind == "f" else np.clip(x, clip_value_min, clip_value_max),
          ("clip_value_min", "clip_value_max")),
]


def _floor_div(np, a, b):
    if a.dtype.kind == "f":
        return np.floor(a / b)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.floor_divide(a, b)
    return np.where(b == 0, 0, out)


def _mod(np, a, b):
    if a.dtype.kind == "f":
        return np.mod(a, b)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.mod(a, b)
    return np.where(b == 0, 0, out)


def _pow(np, a, b):
    if a.dtype.kind == "f":
        return np.power(a, b)
    # integer powers as TF.js computes them: Math.pow in float64, then truncated to int32
    with np.errstate(all="ignore"):
        out = np.power(a.astype(np.float64), b.astype(np.float64))
    return np.where(np.isfinite(out), out, 0).astype(np.int64).astype(np.int32)


BINARY = [
    Binary("add", "Add", "arith", lambda np, a, b: a + b),
    Binary("sub", "Sub", "arith", lambda np, a, b: a - b),
    Binary("mul", "Multiply", "arith", lambda np, a, b: a * b),
    Binary("div", "RealDiv", "arith", lambda np, a, b: a / b),
    Binary("floor_div", "FloorDiv", "arith", _floor_div),
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
]

def out_dtype(row, in_dtype):
    """The dtype a table kernel returns for operands of in_dtype (every backend uses this)."""
    if row.kind in ("bool", "compare", "logical"):
        return "bool"
    return "float32" if row.kind == "float" else in_dtype


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
    return ENGINE.run_kernel("Cast", [x], {"dtype": dtype})


def _unary_input(row, x):
    x = convert_to_tensor(x, "x", row.name)
    if row.kind == "float" and x.dtype != "float32":
        return cast(x, "float32"), True
    if row.kind == "numeric" and x.dtype == "bool":
        return cast(x, "int32"), True
    if row.kind == "bool" and x.dtype != "bool":
        raise TypeError(f"{row.name}: argument 'x' must be a bool tensor, got {x.dtype}")
    return x, False


@op
def run_unary(row, x, attrs=None):
    x, _ = _unary_input(row, x)  # a cast copy is disposed with the op's scope
    return ENGINE.run_kernel(row.kernel, [x], attrs)


def _operand(v, arg, op, other):
    """A Python scalar beside a tensor takes that tensor's dtype where it can (so `int_t * 2`
    stays int32); otherwise TF.js inference applies."""
    if isinstance(v, Tensor):
        v.throw_if_disposed(op)
        return v
    if isinstance(other, Tensor) and isinstance(v, (int, float)) and not isinstance(v, bool):
        if other.dtype == "int32" and isinstance(v, int):
            return convert_to_tensor(v, arg, op, "int32")
        if other.dtype == "float32":
            return convert_to_tensor(v, arg, op, "float32")
    return convert_to_tensor(v, arg, op)


def binary_operands(row_name, kind, a, b):
    """Convert, check and dtype-match two operands; returns (a, b, casts made). Call it inside
    an op's scope: the conversions and casts it makes are disposed with that scope."""
    a = _operand(a, "a", row_name, b)
    b = _operand(b, "b", row_name, a)
    broadcast_shapes(a.shape, b.shape, row_name)
    temps = []
    if kind == "logical":
        for arg, t in (("a", a), ("b", b)):
            if t.dtype != "bool":
                raise TypeError(f"{row_name}: argument '{arg}' must be a bool tensor, got {t.dtype}")
        return a, b, temps
    dtype = upcast(a.dtype, b.dtype)
    if dtype == "bool" and kind == "arith":
        dtype = "int32"
    if a.dtype != dtype:
        a = cast(a, dtype)
        temps.append(a)
    if b.dtype != dtype:
        b = cast(b, dtype)
        temps.append(b)
    return a, b, temps


@op
def run_binary(row, a, b):
    a, b, _ = binary_operands(row.name, row.kind, a, b)
    return _binary_kernel(row, a, b)


def _binary_kernel(row, a, b):
    if row.kernel == "RealDiv" and a.dtype == "int32":
        return ENGINE.run_kernel("FloorDiv", [a, b])   # TF.js: int32 / int32 floors
    return ENGINE.run_kernel(row.kernel, [a, b])


def _ready_dtype(kind, dtype):
    """Whether operands of this dtype go to the kernel unconverted."""
    if kind == "arith":
        return dtype != "bool"
    return kind == "compare" or dtype == "bool"


def _make_unary(row):
    ready = {"float": ("float32",), "numeric": ("float32", "int32"), "bool": ("bool",)}[row.kind]

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
    return run_unary(UNARY_BY_KERNEL["LeakyRelu"], x, {"alpha": float(alpha)})


def clip_by_value(x, clip_value_min, clip_value_max):
    for arg, v in (("clip_value_min", clip_value_min), ("clip_value_max", clip_value_max)):
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise TypeError(f"clip_by_value: argument '{arg}' must be a number, got {type(v).__name__}")
    if clip_value_min > clip_value_max:
        raise ValueError(f"clip_by_value: clip_value_min ({clip_value_min}) must be <= "
                         f"clip_value_max ({clip_value_max})")
    return run_unary(UNARY_BY_KERNEL["ClipByValue"], x,
                     {"clip_value_min": clip_value_min, "clip_value_max": clip_value_max})


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
def where(condition, a, b):
    """tf.where(condition, a, b): a where condition is true, else b (all three broadcast)."""
    op = "where"
    condition = convert_to_tensor(condition, "condition", op, "bool")
    if condition.dtype != "bool":
        raise TypeError(f"where: argument 'condition' must be a bool tensor, got {condition.dtype}")
    a = _operand(a, "a", op, b)
    b = _operand(b, "b", op, a)
    if a.dtype != b.dtype:
        raise TypeError(f"where: arguments 'a' and 'b' must have the same dtype, got {a.dtype} and {b.dtype}")
    broadcast_shapes(broadcast_shapes(condition.shape, a.shape, op), b.shape, op)
    return ENGINE.run_kernel("Select", [condition, a, b])
