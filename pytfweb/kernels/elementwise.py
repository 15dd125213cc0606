"""The elementwise kernels as tables, the contract every backend and the ops share: one row per
kernel (the op's public name, the kernel's name, its dtype kind, the attribute names it takes),
the dtype a kernel returns (out_dtype) and the kernels only gradients use (GRADIENT_KERNELS).
ops/elementwise.py turns the rows into public functions (and documents the dtype kinds); each
backend registers every row's kernel by one generic piece of code: cpu from the numpy function of
the kernel's name (backends/cpu/kernels/elementwise.py), webgl and webgpu from the GLSL / WGSL
function of that name (backends/webgl/shaders/unary_ops.glsl, backends/webgl/shaders/binary_ops.glsl, backends/webgpu/shaders/*_ops.wgsl).
"""
from typing import NamedTuple

from . import STRING_KERNELS


class Unary(NamedTuple):
    name: str
    kernel: str
    kind: str
    attrs: tuple = ()        # attribute names the kernel takes


class Binary(NamedTuple):
    name: str
    kernel: str
    kind: str


UNARY = [
    Unary("neg", "Neg", "numeric"),
    Unary("abs", "Abs", "numeric"),
    Unary("sign", "Sign", "numeric"),
    Unary("square", "Square", "numeric"),
    Unary("relu", "Relu", "numeric"),
    Unary("relu6", "Relu6", "numeric"),
    Unary("exp", "Exp", "to_float"),
    Unary("log", "Log", "float"),
    Unary("log1p", "Log1p", "same"),
    Unary("sqrt", "Sqrt", "float"),
    Unary("rsqrt", "Rsqrt", "float"),
    Unary("reciprocal", "Reciprocal", "same"),
    Unary("elu", "Elu", "float"),
    Unary("selu", "Selu", "same"),
    Unary("sigmoid", "Sigmoid", "float"),
    Unary("tanh", "Tanh", "float"),
    Unary("softplus", "Softplus", "same"),
    Unary("sin", "Sin", "float"),
    Unary("cos", "Cos", "float"),
    Unary("floor", "Floor", "float"),
    Unary("ceil", "Ceil", "float"),
    Unary("round", "Round", "same"),
    Unary("logical_not", "LogicalNot", "bool"),
    Unary("leaky_relu", "LeakyRelu", "to_float", ("alpha",)),
    Unary("clip_by_value", "ClipByValue", "numeric", ("clip_value_min", "clip_value_max")),
    Unary("acos", "Acos", "same"),
    Unary("acosh", "Acosh", "same"),
    Unary("asin", "Asin", "same"),
    Unary("asinh", "Asinh", "same"),
    Unary("atan", "Atan", "same"),
    Unary("atanh", "Atanh", "same"),
    Unary("cosh", "Cosh", "float"),
    Unary("sinh", "Sinh", "same"),
    Unary("tan", "Tan", "float"),
    Unary("erf", "Erf", "to_float"),
    Unary("expm1", "Expm1", "same"),
    Unary("is_nan", "IsNan", "test"),
    Unary("is_inf", "IsInf", "test"),
    Unary("is_finite", "IsFinite", "test"),
    Unary("step", "Step", "numeric", ("alpha",)),
]

BINARY = [
    Binary("add", "Add", "arith"),
    Binary("sub", "Sub", "arith"),
    Binary("mul", "Multiply", "arith"),
    Binary("div", "RealDiv", "arith"),
    Binary("floor_div", "FloorDiv", "floor"),
    Binary("mod", "Mod", "arith"),
    Binary("pow", "Pow", "arith"),
    Binary("maximum", "Maximum", "arith"),
    Binary("minimum", "Minimum", "arith"),
    Binary("squared_difference", "SquaredDifference", "arith"),
    Binary("equal", "Equal", "compare"),
    Binary("not_equal", "NotEqual", "compare"),
    Binary("greater", "Greater", "compare"),
    Binary("greater_equal", "GreaterEqual", "compare"),
    Binary("less", "Less", "compare"),
    Binary("less_equal", "LessEqual", "compare"),
    Binary("logical_and", "LogicalAnd", "logical"),
    Binary("logical_or", "LogicalOr", "logical"),
    Binary("atan2", "Atan2", "same"),
    Binary("bitwise_and", "BitwiseAnd", "bitwise"),
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
    Binary("elu_grad", "EluGrad", "arith"),
    # pytfweb's own (TF.js composes these from comparisons and a select: two or four passes over x)
    # ReluGrad(dy, x): dy where x > 0, else 0; Relu6Grad(dy, x): dy where 0 < x <= 6, else 0
    Binary("relu_grad", "ReluGrad", "arith"),
    Binary("relu6_grad", "Relu6Grad", "arith"),
]

# TF.js compares two string tensors too (by the strings' order); their values stay host-side on
# every backend, so the engine lets strings into these kernels.
STRING_KERNELS.update(r.kernel for r in BINARY if r.kind == "compare")

UNARY_BY_KERNEL = {r.kernel: r for r in UNARY}
BINARY_BY_KERNEL = {r.kernel: r for r in BINARY}
