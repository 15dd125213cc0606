"""Reductions along axes read from the graph, arg max/min, cumulative sums and products, bincounts."""
from ... import ops as tfo
from ._table import int_, table

_REDUCE = {"Max": tfo.max, "Mean": tfo.mean, "Min": tfo.min, "Sum": tfo.sum, "All": tfo.all, "Any": tfo.any,
           "Prod": tfo.prod}


def _reduce(fn):
    def run(x, a):
        axis = [int(v) for v in x[1].data_sync()]
        return fn(x[0], axis, a.bool("keep_dims", False))
    return run


def _cumulative(fn):
    return lambda x, a: fn(x[0], int_(x[1]), a.bool("exclusive", False), a.bool("reverse", False))


OPS = table("reduction", {
    **{name: (2, _reduce(fn)) for name, fn in _REDUCE.items()},
    "ArgMax": (2, lambda x, a: tfo.arg_max(x[0], int_(x[1]))),
    "ArgMin": (2, lambda x, a: tfo.arg_min(x[0], int_(x[1]))),
    "Cumsum": (2, _cumulative(tfo.cumsum)),
    "Cumprod": (2, _cumulative(tfo.cumprod)),
    "Bincount": (3, lambda x, a: tfo.bincount(x[0], x[2], int_(x[1]))),
    "DenseBincount": (3, lambda x, a: tfo.dense_bincount(x[0], x[2], int_(x[1]), a.bool("binary_output", False))),
})
