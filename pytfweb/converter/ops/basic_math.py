"""Basic math: unary elementwise ops and activations."""
from ... import ops as tfo
from ._table import num, table

_UNARY = {
    "Abs": tfo.abs, "ComplexAbs": tfo.abs, "Acos": tfo.acos, "Acosh": tfo.acosh, "Asin": tfo.asin,
    "Asinh": tfo.asinh, "Atan": tfo.atan, "Atanh": tfo.atanh, "Ceil": tfo.ceil, "Cos": tfo.cos, "Cosh": tfo.cosh,
    "Elu": tfo.elu, "Erf": tfo.erf, "Exp": tfo.exp, "Expm1": tfo.expm1, "Floor": tfo.floor, "Log": tfo.log,
    "Log1p": tfo.log1p, "Imag": tfo.imag, "Real": tfo.real, "Neg": tfo.neg, "Reciprocal": tfo.reciprocal,
    "Relu": tfo.relu, "Relu6": tfo.relu6, "Round": tfo.round, "Selu": tfo.selu, "Sigmoid": tfo.sigmoid,
    "Sin": tfo.sin, "Sinh": tfo.sinh, "Sign": tfo.sign, "Softplus": tfo.softplus, "Sqrt": tfo.sqrt,
    "Rsqrt": tfo.rsqrt, "Square": tfo.square, "Tan": tfo.tan, "Tanh": tfo.tanh, "IsNan": tfo.is_nan,
    "IsInf": tfo.is_inf, "IsFinite": tfo.is_finite,
}


def _unary(fn):
    return lambda x, a: fn(x[0])


OPS = table("basic_math", {
    **{name: (1, _unary(fn)) for name, fn in _UNARY.items()},
    "Atan2": (2, lambda x, a: tfo.atan2(x[0], x[1])),
    "Complex": (2, lambda x, a: tfo.complex(x[0], x[1])),
    "ClipByValue": (3, lambda x, a: tfo.clip_by_value(x[0], num(x[1]), num(x[2]))),
    "LeakyRelu": (1, lambda x, a: tfo.leaky_relu(x[0], a.float("alpha", 0.2))),
    "Prelu": (2, lambda x, a: tfo.prelu(x[0], x[1])),
})
