"""Graph plumbing: Const and Placeholder (values the executor supplies), identities, shape
queries, Print, NoOp, FakeQuantWithMinMaxVars."""
import math

from ... import ops as tfo
from ._table import num, table


def _supplied(x, a):  # Const and Placeholder values come from the weights and the feeds
    raise ValueError(f"graph model: node '{a.node}' ({a.op}) has no value: feed it or provide its weight")


def _shape(t):
    return tfo.tensor(list(t.shape), [t.rank], "int32")


def print_(x, a):
    message = a.str("message", "")
    summarize = a.int("summarize", 3)
    print(message, *(list(t.data_sync())[:summarize] for t in x[1:]))
    return x[0]


def fake_quant(x, a):
    """TensorFlow's FakeQuantWithMinMaxVars(Args): values clamped to a nudged [min, max] and rounded
    to one of 2^num_bits levels (TF.js passes values through unchanged)."""
    lo = num(x[1]) if len(x) > 1 else a.float("min", -6.0)
    hi = num(x[2]) if len(x) > 2 else a.float("max", 6.0)
    bits, narrow = a.int("num_bits", 8), a.bool("narrow_range", False)
    qmin, qmax = (1 if narrow else 0), (1 << bits) - 1
    if hi <= lo:
        raise ValueError(f"graph model: node '{a.node}' ({a.op}): min {lo} must be below max {hi}")
    scale = (hi - lo) / (qmax - qmin)
    zero = qmin - lo / scale
    nudged = qmin if zero < qmin else qmax if zero > qmax else math.floor(zero + 0.5)
    nmin, nmax = (qmin - nudged) * scale, (qmax - nudged) * scale
    clamped = tfo.clip_by_value(x[0], nmin, nmax)
    levels = tfo.floor(tfo.add(tfo.div(tfo.sub(clamped, nmin), scale), 0.5))
    return tfo.add(tfo.mul(levels, scale), nmin)


OPS = table("graph", {
    "Const": (0, _supplied),
    "Placeholder": (0, _supplied),
    "PlaceholderWithDefault": (1, lambda x, a: x[0]),
    "Identity": (1, lambda x, a: x[0]),
    "IdentityN": (0, lambda x, a: list(x)),
    "Snapshot": (1, lambda x, a: x[0]),
    "StopGradient": (1, lambda x, a: x[0]),
    "FakeQuantWithMinMaxVars": (1, fake_quant),
    "FakeQuantWithMinMaxArgs": (1, fake_quant),
    "Shape": (1, lambda x, a: _shape(x[0])),
    "ShapeN": (1, lambda x, a: [_shape(t) for t in x]),
    "Size": (1, lambda x, a: tfo.scalar(x[0].size, "int32")),
    "Rank": (1, lambda x, a: tfo.scalar(x[0].rank, "int32")),
    "Print": (1, print_),
    "NoOp": (0, lambda x, a: tfo.scalar(1.0)),  # as TF.js: a value, so a leaf NoOp can be a default output
})
