"""Arithmetic: binary elementwise ops (broadcasting), BiasAdd and AddN."""
from ... import ops as tfo
from ._table import table

_BINARY = {
    "Add": tfo.add, "AddV2": tfo.add, "Sub": tfo.sub, "Mul": tfo.mul, "RealDiv": tfo.div, "Div": tfo.div,
    "DivNoNan": tfo.div_no_nan, "FloorDiv": tfo.floor_div, "Maximum": tfo.maximum, "Minimum": tfo.minimum,
    "Pow": tfo.pow, "SquaredDifference": tfo.squared_difference, "Mod": tfo.mod, "FloorMod": tfo.mod,
}


def _binary(fn):
    return lambda x, a: fn(x[0], x[1])


def bias_add(x, a):
    value, bias = x
    if a.str("data_format", "NHWC").upper().startswith("NC") and value.rank > 2:
        # channels first: the bias runs along dimension 1
        bias = tfo.reshape(bias, [-1] + [1] * (value.rank - 2))
    return tfo.add(value, bias)


OPS = table("arithmetic", {
    **{name: (2, _binary(fn)) for name, fn in _BINARY.items()},
    "BiasAdd": (2, bias_add),
    "AddN": (1, lambda x, a: tfo.add_n(x)),
})
