"""Elementwise ops as tables: one row per op (kernels/elementwise.py: the contract the backends
share), turned into public functions here and into kernels by each backend (cpu: the numpy
function of the kernel's name; webgl: the GLSL of the kernel's name in backends/webgl/shaders/unary_ops.glsl or
backends/webgl/shaders/binary_ops.glsl; webgpu: the WGSL in backends/webgpu/shaders/).

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

from typing import Optional

from ..core.dtypes import check_dtype, upcast
from ..core.engine import ENGINE, op
from ..kernels.elementwise import (  # noqa: F401  (the tables, re-exported for the gradients and tests)
    BINARY, BINARY_BY_KERNEL, BOOL_RESULT, GRADIENT_KERNELS, UNARY, UNARY_BY_KERNEL, Binary, Unary, out_dtype)
from ..core.shapes import broadcast_shapes, strides_of
from ..core.tensor import Tensor
from ..core.types import TensorLike
from .creation import cast, convert_to_tensor, fill, refuse_complex, tensor, zeros_like


# --- dtype handling -------------------------------------------------------------------

def _unary_input(row, x):
    """x converted for row's kernel, and the dtype the op then returns if it differs from the
    kernel's (None otherwise): TF.js's dtype rules, by the row's kind."""
    x = convert_to_tensor(x, "x", row.name, None if isinstance(x, Tensor) else _PARSE_AS.get(row.kind))
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


# Kinds whose Python values TF.js parses as one dtype (convertToTensor's parseAsDtype): numbers
# given to the logical ops become bool (nonzero after rounding: true), to the float ops float32.
_PARSE_AS = {"float": "float32", "bool": "bool", "logical": "bool"}
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


def operand(v, arg, op, other, kind=None):
    """A Python scalar beside a tensor takes that tensor's dtype where it can (so `int_t * 2`
    stays int32); a value given to an op of a kind in _PARSE_AS takes that kind's dtype;
    otherwise TF.js inference applies."""
    if isinstance(v, Tensor):
        v.throw_if_disposed(op)
        return v
    if kind in _PARSE_AS:
        return convert_to_tensor(v, arg, op, _PARSE_AS[kind])
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
    a = operand(a, "a", row_name, b, kind)
    b = operand(b, "b", row_name, a, kind)
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
    a = operand(a, "a", row.name, b, row.kind)
    b = operand(b, "b", row.name, a, row.kind)
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


# --- docstrings: one row per op (what it computes, an example's input and its printed output) ---

_X = ("x: the input, a Tensor or a value converted to one (number, bool, nested list, numpy "
      "array).")
_UNARY_DTYPES = {
    "float": ("x must be float32 (Python numbers are read as float32).", "A float32 Tensor of x's shape."),
    "to_float": ("int32 and bool inputs are cast to float32.", "A float32 Tensor of x's shape."),
    "numeric": ("float32 and int32 keep their dtype (bool is computed as int32).",
                "A Tensor of x's shape and dtype."),
    "same": ("Computed in float32; an int32 or bool input gets the result truncated to its dtype.",
             "A Tensor of x's shape and dtype."),
    "bool": ("x must be bool.", "A bool Tensor of x's shape."),
    "test": ("Any numeric dtype.", "A bool Tensor of x's shape."),
}
_BINARY_DTYPES = {
    "arith": "a and b are upcast to one dtype (bool and bool compute as int32), which the result has.",
    "floor": "a and b are upcast to one dtype; the result is int32.",
    "compare": "a and b are upcast to one dtype (two string tensors compare as strings); the result is bool.",
    "logical": "a and b must be bool; the result is bool.",
    "same": "Computed in float32; int32 or bool operands get the result truncated to their dtype.",
}
_UNARY_DOCS = {
    "neg": ("Negation, -x, elementwise.", "[1, -2, 0]", "[-1, 2, 0]"),
    "abs": ("Absolute value |x|, elementwise (of a complex64 tensor: its magnitude, float32).",
            "[-1, 2, -3.5]", "[1, 2, 3.5]"),
    "sign": ("Sign of x, elementwise: -1, 0 or 1 (NaN stays NaN).", "[-4, 0, 2.5]", "[-1, 0, 1]"),
    "square": ("Square x * x, elementwise.", "[-2, 3]", "[4, 9]"),
    "relu": ("Rectified linear unit max(x, 0), elementwise.", "[-1, 0, 2]", "[0, 0, 2]"),
    "relu6": ("min(max(x, 0), 6), elementwise.", "[-1, 3, 8]", "[0, 3, 6]"),
    "exp": ("e raised to x, elementwise.", "[0, 1]", "[1, 2.718282]"),
    "log": ("Natural logarithm, elementwise (NaN below 0, -Infinity at 0).", "[1, 0.5]", "[0, -0.6931472]"),
    "log1p": ("log(1 + x), elementwise, accurate for small x.", "[0, 1]", "[0, 0.6931472]"),
    "sqrt": ("Square root, elementwise (NaN below 0).", "[4, 9]", "[2, 3]"),
    "rsqrt": ("Reciprocal of the square root, 1 / sqrt(x), elementwise.", "[4, 16]", "[0.5, 0.25]"),
    "reciprocal": ("1 / x, elementwise.", "[2, 4]", "[0.5, 0.25]"),
    "elu": ("Exponential linear unit: x where x > 0, exp(x) - 1 elsewhere.", "[-1, 0, 2]",
            "[-0.6321205, 0, 2]"),
    "selu": ("Scaled ELU: 1.0507010 * x where x > 0, 1.0507010 * 1.6732632 * (exp(x) - 1) elsewhere.",
             "[0, 1]", "[0, 1.050701]"),
    "sigmoid": ("Logistic sigmoid 1 / (1 + exp(-x)), elementwise.", "[0, 2]", "[0.5, 0.880797]"),
    "tanh": ("Hyperbolic tangent, elementwise.", "[0, 1]", "[0, 0.7615942]"),
    "softplus": ("log(exp(x) + 1), elementwise (no overflow for large x).", "[0, 1]", "[0.6931472, 1.3132617]"),
    "sin": ("Sine (radians), elementwise.", "[0, 1.5707964]", "[0, 1]"),
    "cos": ("Cosine (radians), elementwise.", "[0, 3.1415927]", "[1, -1]"),
    "floor": ("Largest integer not greater than x, elementwise.", "[1.5, -1.5]", "[1, -2]"),
    "ceil": ("Smallest integer not less than x, elementwise.", "[1.5, -1.5]", "[2, -1]"),
    "round": ("Round to the nearest integer, halves to even (as TF.js), elementwise.", "[0.5, 1.5, 2.7]",
              "[0, 2, 3]"),
    "logical_not": ("Logical NOT, elementwise.", "[True, False]", "[false, true]"),
    "acos": ("Arccosine (radians), elementwise (NaN outside [-1, 1]).", "[1, -1]", "[0, 3.1415927]"),
    "acosh": ("Inverse hyperbolic cosine, elementwise (NaN below 1).", "[1]", "[0]"),
    "asin": ("Arcsine (radians), elementwise (NaN outside [-1, 1]).", "[0, 1]", "[0, 1.5707964]"),
    "asinh": ("Inverse hyperbolic sine, elementwise.", "[0, 1]", "[0, 0.8813736]"),
    "atan": ("Arctangent (radians), elementwise.", "[0, 1]", "[0, 0.7853982]"),
    "atanh": ("Inverse hyperbolic tangent, elementwise (NaN outside [-1, 1]).", "[0, 0.5]", "[0, 0.5493062]"),
    "cosh": ("Hyperbolic cosine, elementwise.", "[0, 1]", "[1, 1.5430807]"),
    "sinh": ("Hyperbolic sine, elementwise.", "[0, 1]", "[0, 1.1752012]"),
    "tan": ("Tangent (radians), elementwise.", "[0, 0.7853982]", "[0, 1]"),
    "erf": ("Gauss error function, elementwise.", "[0, 1]", "[0, 0.8427007]"),
    "expm1": ("exp(x) - 1, elementwise, accurate for small x.", "[0, 1]", "[0, 1.7182819]"),
    "is_nan": ("Whether x is NaN, elementwise.", "[1, float('nan')]", "[false, true]"),
    "is_inf": ("Whether x is +Infinity or -Infinity, elementwise.", "[1, float('inf')]", "[false, true]"),
    "is_finite": ("Whether x is finite (neither infinite nor NaN), elementwise.", "[1, float('inf')]",
                  "[true, false]"),
}
_BINARY_DOCS = {
    "add": ("a + b, elementwise with broadcasting.", "[1, 2]", "[10, 20]", "[11, 22]"),
    "sub": ("a - b, elementwise with broadcasting.", "[10, 20]", "[1, 2]", "[9, 18]"),
    "mul": ("a * b, elementwise with broadcasting.", "[1, 2]", "[3, 4]", "[3, 8]"),
    "div": ("a / b, elementwise with broadcasting; two int32 operands floor (as TF.js).",
            "[1, 6]", "[2, 4]", "[0.5, 1.5]"),
    "floor_div": ("floor(a / b), elementwise with broadcasting.", "[7, -7]", "[2, 2]", "[3, -4]"),
    "mod": ("a mod b, elementwise with broadcasting; the result has the sign of b (Python's %).",
            "[5, -5]", "[3, 3]", "[2, 1]"),
    "pow": ("a raised to b, elementwise with broadcasting.", "[2, 3]", "[3, 2]", "[8, 9]"),
    "maximum": ("The larger of a and b, elementwise with broadcasting.", "[1, 5]", "[3, 2]", "[3, 5]"),
    "minimum": ("The smaller of a and b, elementwise with broadcasting.", "[1, 5]", "[3, 2]", "[1, 2]"),
    "squared_difference": ("(a - b) * (a - b), elementwise with broadcasting.", "[1, 5]", "[3, 2]", "[4, 9]"),
    "equal": ("a == b, elementwise with broadcasting.", "[1, 2]", "[1, 3]", "[true, false]"),
    "not_equal": ("a != b, elementwise with broadcasting.", "[1, 2]", "[1, 3]", "[false, true]"),
    "greater": ("a > b, elementwise with broadcasting.", "[1, 3]", "[2, 2]", "[false, true]"),
    "greater_equal": ("a >= b, elementwise with broadcasting.", "[1, 2]", "[2, 2]", "[false, true]"),
    "less": ("a < b, elementwise with broadcasting.", "[1, 3]", "[2, 2]", "[true, false]"),
    "less_equal": ("a <= b, elementwise with broadcasting.", "[1, 2]", "[2, 2]", "[true, true]"),
    "logical_and": ("Logical AND, elementwise with broadcasting.", "[True, True]", "[True, False]",
                    "[true, false]"),
    "logical_or": ("Logical OR, elementwise with broadcasting.", "[False, True]", "[False, False]",
                   "[false, true]"),
    "atan2": ("Arctangent of a / b using the signs of both to pick the quadrant (radians), elementwise "
              "with broadcasting.", "[1, -1]", "[1, -1]", "[0.7853981, -2.3561945]"),
}


def _unary_doc(row):
    what, example, printed = _UNARY_DOCS[row.name]
    takes, returns = _UNARY_DTYPES[row.kind]
    return (f"{what}\n\nArgs:\n    {_X} {takes}\n\nReturns:\n    {returns}\n\n"
            f"Example:\n    >>> tf.{row.name}(tf.tensor({example})).print()\n    Tensor\n        {printed}\n")


def _binary_doc(row):
    if row.name not in _BINARY_DOCS:   # bitwise_and: replaced by its own function below
        return None
    what, a, b, printed = _BINARY_DOCS[row.name]
    return (f"{what}\n\nArgs:\n    a: the first operand, a Tensor or a value converted to one (a Python number "
            f"beside a tensor takes its dtype).\n    b: the second operand, likewise; a and b broadcast "
            f"against each other.\n\nReturns:\n    A Tensor of the broadcast shape. {_BINARY_DTYPES[row.kind]}\n\n"
            f"Example:\n    >>> tf.{row.name}(tf.tensor({a}), tf.tensor({b})).print()\n    Tensor\n        {printed}\n")


def _make_unary(row):
    ready = {"float": ("float32",), "to_float": ("float32",), "same": ("float32",),
             "numeric": ("float32", "int32"), "bool": ("bool",), "test": ("float32", "int32", "bool")}[row.kind]

    def op(x):
        # Fast path: a live tensor of the right dtype needs no conversion, hence no scope.
        if isinstance(x, Tensor) and x.dtype in ready and not x.is_disposed_internal:
            return ENGINE.run_kernel(row.kernel, [x])
        return run_unary(row, x)
    op.__name__ = op.__qualname__ = row.name
    op.__doc__ = _unary_doc(row)
    op.__annotations__ = {"x": TensorLike, "return": Tensor}
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
    op.__doc__ = _binary_doc(row)
    op.__annotations__ = {"a": TensorLike, "b": TensorLike, "return": Tensor}
    return op


_ops = {r.name: _make_unary(r) for r in UNARY if not r.attrs}
_ops.update({r.name: _make_binary(r) for r in BINARY})
globals().update(_ops)


def leaky_relu(x: TensorLike, alpha: float = 0.2) -> Tensor:
    """Leaky ReLU: x where x > 0, alpha * x elsewhere.

    Args:
        x: the input (int32 and bool are cast to float32).
        alpha: the slope for negative values.

    Returns:
        A float32 Tensor of x's shape.

    Example:
        >>> tf.leaky_relu(tf.tensor([-2, 3]), 0.1).print()
        Tensor
            [-0.2, 3]
    """
    if isinstance(alpha, bool) or not isinstance(alpha, numbers.Real):
        raise TypeError(f"leaky_relu: argument 'alpha' must be a number, got {type(alpha).__name__}")
    return run_unary(UNARY_BY_KERNEL["LeakyRelu"], x, {"alpha": float(alpha)})


def clip_by_value(x: TensorLike, clip_value_min: float, clip_value_max: float) -> Tensor:
    """Clip each value into [clip_value_min, clip_value_max].

    Args:
        x: the input tensor (or a value converted to one).
        clip_value_min: the lower bound.
        clip_value_max: the upper bound (not below clip_value_min).

    Returns:
        A Tensor of x's shape and dtype.

    Example:
        >>> tf.clip_by_value(tf.tensor([-5, 0.5, 5]), 0, 1).print()
        Tensor
            [0, 0.5, 1]
    """
    for arg, v in (("clip_value_min", clip_value_min), ("clip_value_max", clip_value_max)):
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise TypeError(f"clip_by_value: argument '{arg}' must be a number, got {type(v).__name__}")
    if clip_value_min > clip_value_max:
        raise ValueError(f"clip_by_value: clip_value_min ({clip_value_min}) must be <= "
                         f"clip_value_max ({clip_value_max})")
    if clip_value_min == clip_value_max:   # as TF.js: a fill of that value (NaN included)
        x = convert_to_tensor(x, "x", "clip_by_value")
        refuse_complex(x, "x", "clip_by_value")
        if x.dtype == "string":
            raise TypeError("clip_by_value: argument 'x' must be a numeric tensor, got a string tensor")
        return fill(x.shape, clip_value_min, x.dtype)
    return run_unary(UNARY_BY_KERNEL["ClipByValue"], x,
                     {"clip_value_min": clip_value_min, "clip_value_max": clip_value_max})


@op
def step(x: TensorLike, alpha: float = 0.0) -> Tensor:
    """The step function: 1 where x > 0, alpha elsewhere, NaN kept.

    int32 stays int32, and alpha is then truncated toward zero (as TF.js storing it into an
    Int32Array).

    Args:
        x: the input tensor (or a value converted to one).
        alpha: the value where x <= 0.

    Returns:
        A Tensor of x's shape and dtype.

    Example:
        >>> tf.step(tf.tensor([-1, 0, 2]), 0.5).print()
        Tensor
            [0.5, 0.5, 1]
    """
    if isinstance(alpha, bool) or not isinstance(alpha, (int, float)):
        raise TypeError(f"step: argument 'alpha' must be a number, got {type(alpha).__name__}")
    row = UNARY_BY_KERNEL["Step"]
    x, dtype = _unary_input(row, x)
    y = ENGINE.run_kernel(row.kernel, [x], {"alpha": float(int(alpha) if x.dtype == "int32" else alpha)})
    return result_as(y, dtype)


@op
def bitwise_and(x: TensorLike, y: TensorLike) -> Tensor:
    """Bitwise AND of two int32 tensors of one shape (no broadcasting, as TF.js).

    Args:
        x: an int32 tensor.
        y: an int32 tensor of x's shape.

    Returns:
        An int32 Tensor.

    Example:
        >>> tf.bitwise_and(tf.tensor([12, 5], dtype="int32"), tf.tensor([10, 3], dtype="int32")).print()
        Tensor
            [8, 1]
    """
    row = BINARY_BY_KERNEL["BitwiseAnd"]
    x = operand(x, "x", row.name, y)
    y = operand(y, "y", row.name, x)
    for arg, t in (("x", x), ("y", y)):
        if t.dtype != "int32":
            raise TypeError(f"bitwise_and: argument '{arg}' must be an int32 tensor, got {t.dtype}")
    if x.shape != y.shape:
        raise ValueError(f"bitwise_and: arguments 'x' and 'y' must have the same shape, "
                         f"got {list(x.shape)} and {list(y.shape)}")
    return ENGINE.run_kernel(row.kernel, [x, y])


# --- composites: TF.js ops without a kernel of their own ------------------------------------

@op
def log_sigmoid(x: TensorLike) -> Tensor:
    """log(sigmoid(x)), computed as -softplus(-x) (no overflow).

    The gradient is TF.js's, dy * sigmoid(-x). int32 and bool keep their dtype, each step
    truncated, as TF.js's neg(softplus(neg(x))) gives them.

    Args:
        x: the input tensor (or a value converted to one).

    Returns:
        A Tensor of x's shape.

    Example:
        >>> tf.log_sigmoid(tf.tensor([0])).print()
        Tensor
            [-0.6931472]
    """
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
def logical_xor(a: TensorLike, b: TensorLike) -> Tensor:
    """Logical XOR, elementwise with broadcasting: (a or b) and not (a and b).

    Args:
        a: a bool tensor (or values converted to one).
        b: a bool tensor; a and b broadcast.

    Returns:
        A bool Tensor of the broadcast shape.

    Example:
        >>> tf.logical_xor(tf.tensor([True, True]), tf.tensor([True, False])).print()
        Tensor
            [false, true]
    """
    a, b, _ = binary_operands("logical_xor", "logical", a, b)
    both = _ops["logical_and"](a, b)
    return _ops["logical_and"](_ops["logical_or"](a, b), _ops["logical_not"](both))


@op
def div_no_nan(a: TensorLike, b: TensorLike) -> Tensor:
    """a / b, but 0 where b is 0 (int32 operands floor, as tf.div).

    As in TF.js, where(b == 0, 0, a / b): the gradient to a where b is 0 is then 0 / 0 (NaN).

    Args:
        a: the dividend.
        b: the divisor; a and b broadcast.

    Returns:
        A Tensor of the broadcast shape.

    Example:
        >>> tf.div_no_nan(tf.tensor([1, 2]), tf.tensor([0, 4])).print()
        Tensor
            [0, 0.5]
    """
    row = BINARY_BY_KERNEL["RealDiv"]
    a = operand(a, "a", "div_no_nan", b)
    b = operand(b, "b", "div_no_nan", a)
    dtype = binary_result_dtype(row, a, b)   # two bools give bool, as TF.js's div does
    a, b, _ = binary_operands("div_no_nan", "arith", a, b)
    quotient = _binary_kernel(row, a, b)
    return result_as(where(_ops["equal"](b, 0), zeros_like(quotient), quotient), dtype)


# Exported with the table's ops (ops/__init__.py takes _ops).
_ops.update(step=step, bitwise_and=bitwise_and, log_sigmoid=log_sigmoid, logical_xor=logical_xor,
            div_no_nan=div_no_nan)


@op
def true_div(a: TensorLike, b: TensorLike) -> Tensor:
    """True division, the `/` operator: int32 operands are divided as float32 (tf.div floors them).

    Args:
        a: the dividend.
        b: the divisor; a and b broadcast.

    Returns:
        A float32 Tensor of the broadcast shape.

    Example:
        >>> a = tf.tensor([7], dtype="int32")
        >>> tf.true_div(a, 2).print(); tf.div(a, 2).print()
        Tensor
            [3.5]
        Tensor
            [3]
    """
    a = operand(a, "a", "div", b)
    b = operand(b, "b", "div", a)
    if a.dtype != "float32":
        a = cast(a, "float32")   # disposed with the op's scope
    if b.dtype != "float32":
        b = cast(b, "float32")
    return run_binary(BINARY_BY_KERNEL["RealDiv"], a, b)


# --- where: the three-argument select, and the coordinates of the true entries (one argument) ---
# With one argument, as in TF.js, the data is read back and finished in Python (the output size
# depends on it); indexing.py's where_async / boolean_mask build on the same helpers.

def coords_of_true(shape, values):
    """whereImpl: the coordinates of the true entries, as an int32 tensor [count, rank]."""
    strides = strides_of(shape)
    rows = []
    for flat, v in enumerate(values):
        if v:
            rows.extend((flat // s) % d for s, d in zip(strides, shape))
    count = len(rows) // len(shape) if shape else sum(1 for v in values if v)
    return tensor(rows if shape else [], [count, len(shape)], "int32")


def bool_condition(condition, name):
    c = convert_to_tensor(condition, "condition", name, "bool")
    if c.dtype != "bool":
        raise TypeError(f"{name}: argument 'condition' must be a bool tensor, got {c.dtype}")
    return c


def where_coords(condition):
    """where(condition) with one argument (blocking): the coordinates of the true entries of
    condition as an int32 tensor [count, rank]."""
    def run():
        c = bool_condition(condition, "where")
        return coords_of_true(c.shape, c.data_sync())
    return ENGINE.tidy(run)


@op
def where(condition: TensorLike, a: Optional[TensorLike] = None, b: Optional[TensorLike] = None) -> Tensor:
    """Select: a where condition is true, else b (all three broadcast).

    With condition alone: the coordinates of its true entries (reads the data back; tf.where_async
    does so without blocking).

    Args:
        condition: a bool tensor.
        a: the values where condition is true.
        b: the values where condition is false (a and b are upcast to one dtype).

    Returns:
        A Tensor of the broadcast shape; or, with condition alone, an int32 Tensor [count, rank].

    Example:
        >>> c = tf.tensor([True, False, True])
        >>> tf.where(c, tf.tensor([1, 2, 3]), tf.tensor([10, 20, 30])).print()
        Tensor
            [1, 20, 3]
        >>> tf.where(c).print()
        Tensor
            [[0],
             [2]]
    """
    op = "where"
    if a is None and b is None:
        return where_coords(condition)
    condition = bool_condition(condition, op)
    a = operand(a, "a", op, b)
    b = operand(b, "b", op, a)
    broadcast_shapes(broadcast_shapes(condition.shape, a.shape, op), b.shape, op)
    if a.dtype != b.dtype:   # TF.js's Select writes upcastType(a.dtype, b.dtype)
        dtype = upcast(a.dtype, b.dtype)
        a, b = cast(a, dtype), cast(b, dtype)
    return ENGINE.run_kernel("Select", [condition, a, b])
