"""Evaluation: TopKV2, Unique(V2), LowerBound, UpperBound."""
from ... import ops as tfo
from ._table import int_, table


def top_k(x, a):
    r = tfo.top_k(x[0], int_(x[1]), a.bool("sorted", True))
    return [r.values, r.indices]


def unique(x, a):
    r = tfo.unique(x[0], int_(x[1]) if len(x) > 1 else 0)
    return [r.values, r.indices]


OPS = table("evaluation", {
    "TopKV2": (2, top_k),
    "Unique": (1, unique),
    "UniqueV2": (2, unique),
    "LowerBound": (2, lambda x, a: tfo.lower_bound(x[0], x[1])),
    "UpperBound": (2, lambda x, a: tfo.upper_bound(x[0], x[1])),
})
