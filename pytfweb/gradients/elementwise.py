"""Gradients of the elementwise kernels (the UNARY/BINARY tables of kernels/elementwise.py, and
Cast, Identity, Select), with TF.js's definitions. Like the kernels, they are tables: each row
says what the gradient reads and how it is computed from it; the few lines at the bottom
register every row.

Where TF.js's definition differs from the calculus, TF.js is followed (a model trained here
must train as it would there):
  Abs          dy * step(x, -1): -dy at x = 0, not 0
  Relu         dy at x > 0, 0 at x <= 0; Relu6 passes dy for 0 < x <= 6
  Maximum      dy goes to a where a >= b (ties to a), to b where a < b; Minimum likewise
  FloorDiv     the gradient of RealDiv (TF.js does not treat the floor as a step)
  Mod          dy to a; -dy * floor(a / b) to b
  Pow          to the base: dy * b * a^(b-1); to the exponent: dy * y * log(a) where a > 0, else 0
  Sign, Floor, Ceil, Round, Step, IsNan, IsInf, IsFinite   zeros (TF.js's "zerosLike(dy)")
  Acos ... Atanh, Tan        TF.js's formulas (1 / sqrt(1 - x^2) and so on), NaN or inf outside
                             the domain or at its edges, as there
  Cast, Identity             dy, whatever the dtypes (a cast to int32 passes the gradient on)
  GreaterEqual, Select's condition   float32 zeros of the input's shape (TF.js registers zeros
                             there, so tf.grad through them gives zeros rather than an error)
Two departures, both where TF.js would give a wrong shape or throw:
  - binary gradients sum over broadcast axes for every kernel (TF.js omits it for Maximum,
    Minimum and SquaredDifference, and so fails on broadcast operands);
  - the other comparisons, logical and bitwise ops give no gradient (None): TF.js registers none
    for them, so that reaching them throws; here a path through them carries nothing, and only a
    gradient that nothing reaches raises.
TF.js's step() keeps NaN; the masks here (x > 0 and so on) are false for NaN, so a NaN input
gets a zero (Relu, Relu6, LeakyRelu, ClipByValue) or -dy (Abs) gradient instead of NaN.

What is saved is what the gradient reads: the input x, the output y (where the derivative is
cheaper from it, as TF.js does for Exp, Sigmoid, Tanh, Elu), or nothing; binary gradients of
broadcast operands need only the operands' shapes, which every tape node has.
"""
import math

from .. import ops
from ..core.engine import ENGINE
from ..kernels import register_gradient
from ..kernels.elementwise import BINARY, UNARY
from ._util import unbroadcast

# TF.js's selu constants (scale, and scale * alpha), as its gradient uses them.
SELU_SCALE = 1.0507009873554804934193349852946
SELU_SCALE_ALPHA = 1.7580993408473768599402175208123
# d/dx erf(x) = 2 / sqrt(pi) * exp(-x^2)
ERF_SLOPE = 2 / math.sqrt(math.pi)


def _masked(dy, mask):
    """dy where mask holds, 0 elsewhere (a select, so an infinite dy is not turned into NaN)."""
    return ops.where(mask, dy, 0.0)


def _float(t):
    return t if t.dtype == "float32" else ops.cast(t, "float32")


# --- unary -------------------------------------------------------------------------------------
# kernel -> fn(dy, x, attrs): the gradient from the input x (which the tape keeps).
FROM_INPUT = {
    "Abs": lambda dy, x, _: ops.where(ops.greater(x, 0), dy, ops.neg(dy)),
    "Square": lambda dy, x, _: ops.mul(ops.mul(dy, x), 2.0),
    # one pass each (TF.js: a comparison or three, then a select)
    "Relu": lambda dy, x, _: ENGINE.run_kernel("ReluGrad", [dy, _float(x)]),
    "Relu6": lambda dy, x, _: ENGINE.run_kernel("Relu6Grad", [dy, _float(x)]),
    "Log": lambda dy, x, _: ops.div(dy, x),
    "Log1p": lambda dy, x, _: ops.div(dy, ops.add(x, 1.0)),
    "Reciprocal": lambda dy, x, _: ops.div(dy, ops.neg(ops.square(x))),
    "Selu": lambda dy, x, _: ops.where(ops.greater(x, 0.0), ops.mul(dy, SELU_SCALE),
                                       ops.mul(ops.mul(dy, SELU_SCALE_ALPHA), ops.exp(x))),
    "Softplus": lambda dy, x, _: ops.mul(dy, ops.sigmoid(x)),
    "Sin": lambda dy, x, _: ops.mul(dy, ops.cos(x)),
    "Cos": lambda dy, x, _: ops.mul(dy, ops.neg(ops.sin(x))),
    "LeakyRelu": lambda dy, x, attrs: ops.where(ops.greater(x, 0), dy, ops.mul(dy, attrs["alpha"])),
    "ClipByValue": lambda dy, x, attrs: _masked(dy, ops.logical_and(
        ops.greater_equal(x, attrs["clip_value_min"]), ops.less_equal(x, attrs["clip_value_max"]))),
    "Acos": lambda dy, x, _: ops.neg(ops.div(dy, ops.sqrt(ops.sub(1.0, ops.square(x))))),
    "Asin": lambda dy, x, _: ops.div(dy, ops.sqrt(ops.sub(1.0, ops.square(x)))),
    "Atan": lambda dy, x, _: ops.div(dy, ops.add(ops.square(x), 1.0)),
    "Acosh": lambda dy, x, _: ops.div(dy, ops.sqrt(ops.sub(ops.square(x), 1.0))),
    "Asinh": lambda dy, x, _: ops.div(dy, ops.sqrt(ops.add(ops.square(x), 1.0))),
    "Atanh": lambda dy, x, _: ops.div(dy, ops.sub(1.0, ops.square(x))),
    "Cosh": lambda dy, x, _: ops.mul(dy, ops.sinh(x)),
    "Sinh": lambda dy, x, _: ops.mul(dy, ops.cosh(x)),
    "Tan": lambda dy, x, _: ops.div(dy, ops.square(ops.cos(x))),
    "Erf": lambda dy, x, _: ops.mul(dy, ops.mul(ops.exp(ops.neg(ops.square(x))), ERF_SLOPE)),
    "Expm1": lambda dy, x, _: ops.mul(dy, ops.exp(x)),
}

# kernel -> fn(dy, y, attrs): the gradient from the output y (which the tape keeps instead of x).
FROM_OUTPUT = {
    "Exp": lambda dy, y, _: ops.mul(dy, y),
    "Sqrt": lambda dy, y, _: ops.div(dy, ops.mul(y, 2.0)),                # no second sqrt
    "Rsqrt": lambda dy, y, _: ops.mul(ops.mul(dy, ops.mul(ops.square(y), y)), -0.5),   # -x^-1.5 / 2
    "Sigmoid": lambda dy, y, _: ops.mul(dy, ops.mul(y, ops.sub(1.0, y))),
    "Tanh": lambda dy, y, _: ops.mul(dy, ops.sub(1.0, ops.square(y))),
    "Elu": lambda dy, y, _: ENGINE.run_kernel("EluGrad", [dy, y]),   # TF.js's way
}

# kernel -> fn(dy): gradients that need neither input nor output.
FROM_DY = {
    "Neg": ops.neg,
    "Identity": lambda dy: dy,
    "Cast": lambda dy: dy,
}

# Piecewise constant: zero gradient, as TF.js.
ZERO = ("Sign", "Floor", "Ceil", "Round", "Step", "IsNan", "IsInf", "IsFinite")


# --- binary --------------------------------------------------------------------------------------
def _pow_base(dy, a, b, y):
    b = _float(b)                                   # an int32 base then takes a float32 power
    return ops.mul(dy, ops.mul(b, ops.pow(a, ops.sub(b, 1.0))))


def _pow_exponent(dy, a, b, y):
    log_a = ops.where(ops.greater(a, 0), ops.log(_float(a)), 0.0)
    return ops.mul(dy, ops.mul(y, log_a))


def _sum_of_squares(a, b):
    """a^2 + b^2: the denominator of both of atan2's partial derivatives."""
    return ops.add(ops.square(a), ops.square(b))


def _floored_quotient(a, b):
    # int32 division already floors (and floor takes only float32, as TF.js's)
    q = ops.div(a, b)
    return ops.floor(q) if q.dtype == "float32" else q


def _div_numerator(dy, a, b, y):
    return ops.div(dy, _float(b))


def _div_denominator(dy, a, b, y):
    return ops.neg(ops.div(ops.mul(dy, a), _float(ops.square(b))))


# kernel -> (save_inputs, save_outputs, d/da, d/db): each derivative fn(dy, a, b, y) gives the
# gradient at the output's shape; summing over the axes an operand was broadcast along is done
# by the registration below, and only for an operand that wants a gradient.
BINARY_GRADS = {
    "Add": (False, False, lambda dy, a, b, y: dy, lambda dy, a, b, y: dy),
    "Sub": (False, False, lambda dy, a, b, y: dy, lambda dy, a, b, y: ops.neg(dy)),
    "Multiply": (True, False, lambda dy, a, b, y: ops.mul(dy, b), lambda dy, a, b, y: ops.mul(dy, a)),
    "RealDiv": (True, False, _div_numerator, _div_denominator),
    "FloorDiv": (True, False, _div_numerator, _div_denominator),
    "Mod": (True, False, lambda dy, a, b, y: dy,
            lambda dy, a, b, y: ops.mul(dy, ops.neg(_floored_quotient(a, b)))),
    "Pow": (True, True, _pow_base, _pow_exponent),
    "Maximum": (True, False, lambda dy, a, b, y: _masked(dy, ops.greater_equal(a, b)),
                lambda dy, a, b, y: _masked(dy, ops.less(a, b))),
    "Minimum": (True, False, lambda dy, a, b, y: _masked(dy, ops.less_equal(a, b)),
                lambda dy, a, b, y: _masked(dy, ops.greater(a, b))),
    "SquaredDifference": (True, False, lambda dy, a, b, y: ops.mul(ops.mul(dy, ops.sub(a, b)), 2.0),
                          lambda dy, a, b, y: ops.mul(ops.mul(dy, ops.sub(b, a)), 2.0)),
    "Atan2": (True, False, lambda dy, a, b, y: ops.mul(dy, ops.div(b, _sum_of_squares(a, b))),
              lambda dy, a, b, y: ops.neg(ops.mul(dy, ops.div(a, _sum_of_squares(a, b))))),
}


# --- registration ----------------------------------------------------------------------------------
def _unary_from_input(fn):
    return lambda dy, node: [fn(dy, node.x[0], node.attrs)]


def _unary_from_output(fn):
    return lambda dy, node: [fn(dy, node.y[0], node.attrs)]


def _unary_from_dy(fn):
    return lambda dy, node: [fn(dy)]


def _zero(dy, node):
    return [ops.zeros(node.input_shapes[0], "float32")]


def _binary(d_a, d_b):
    def grad(dy, node):
        a, b = node.x
        y = node.y[0]
        shape_a, shape_b = node.input_shapes
        # Functions, so that an operand that wants no gradient (a constant) costs nothing.
        return [lambda: unbroadcast(d_a(dy, a, b, y), shape_a),
                lambda: unbroadcast(d_b(dy, a, b, y), shape_b)]
    return grad


def _no_gradient(dy, node):
    return [None] * len(node.inputs)


for _kernel, _fn in FROM_INPUT.items():
    register_gradient(_kernel, _unary_from_input(_fn), save_inputs=True)
for _kernel, _fn in FROM_OUTPUT.items():
    register_gradient(_kernel, _unary_from_output(_fn), save_outputs=True)
for _kernel, _fn in FROM_DY.items():
    register_gradient(_kernel, _unary_from_dy(_fn))
for _kernel in ZERO:
    register_gradient(_kernel, _zero)
for _kernel, (_save_in, _save_out, _d_a, _d_b) in BINARY_GRADS.items():
    register_gradient(_kernel, _binary(_d_a, _d_b), save_inputs=_save_in, save_outputs=_save_out)
# Comparisons, logical and bitwise ops: bool or int32 results, nothing to differentiate.
for _row in UNARY + BINARY:
    if _row.kind in ("bool", "compare", "logical", "bitwise") and _row.kernel != "GreaterEqual":
        register_gradient(_row.kernel, _no_gradient)


@register_gradient("GreaterEqual")
def _greater_equal_grad(dy, node):
    """TF.js's: zeros for both operands (the one comparison it gives a gradient)."""
    return [lambda shape=shape: ops.zeros(shape, "float32") for shape in node.input_shapes]


@register_gradient("Select", save_inputs=(0,))
def _select_grad(dy, node):
    """where(condition, a, b), all three broadcast: dy to a where condition holds, to b elsewhere."""
    condition = node.x[0]
    shape_c, shape_a, shape_b = node.input_shapes
    return [lambda: ops.zeros(shape_c, "float32"),   # TF.js's: zeros for the bool condition
            lambda: unbroadcast(ops.where(condition, dy, 0.0), shape_a),
            lambda: unbroadcast(ops.where(condition, 0.0, dy), shape_b)]


@register_gradient("EluGrad", save_inputs=True)
def _elu_grad_grad(ddx, node):
    """EluGrad(dy, y) = dy * (y < 0 ? y + 1 : 1): linear in dy; in y, slope dy where y < 0."""
    dy, y = node.x
    negative = ops.less(y, 0.0)
    return [ENGINE.run_kernel("EluGrad", [ddx, y]),
            ops.where(negative, ops.mul(ddx, dy), ops.zeros_like(y))]


def _masked_grad_grad(kernel):
    """ReluGrad/Relu6Grad(dy, x) is dy masked by x: linear in dy, flat in x."""
    def grad(ddx, node):
        x = node.x[1]
        return [ENGINE.run_kernel(kernel, [ddx, x]), ops.zeros_like(x)]
    return grad


for _kernel in ("ReluGrad", "Relu6Grad"):
    register_gradient(_kernel, _masked_grad_grad(_kernel), save_inputs=True)
