"""Logical: comparisons, boolean logic and selection."""
from ... import ops as tfo
from ._table import table

_BINARY = {
    "Equal": tfo.equal, "NotEqual": tfo.not_equal, "Greater": tfo.greater, "GreaterEqual": tfo.greater_equal,
    "Less": tfo.less, "LessEqual": tfo.less_equal, "LogicalAnd": tfo.logical_and, "LogicalOr": tfo.logical_or,
    "BitwiseAnd": tfo.bitwise_and,
}

OPS = table("logical", {
    **{name: (2, (lambda fn: lambda x, a: fn(x[0], x[1]))(fn)) for name, fn in _BINARY.items()},
    "LogicalNot": (1, lambda x, a: tfo.logical_not(x[0])),
    "Select": (3, lambda x, a: tfo.where(x[0], x[1], x[2])),
    "SelectV2": (3, lambda x, a: tfo.where(x[0], x[1], x[2])),
})
