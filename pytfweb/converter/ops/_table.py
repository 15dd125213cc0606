"""The op tables' shared pieces: OpDef (one TensorFlow op: how many inputs it needs and the
function computing it) and the readers turning small input tensors into Python values.

An op function is fn(x, a): x the node's data inputs (Tensors, in TensorFlow's order), a its
Attrs (typed attribute getters with TensorFlow's defaults). It returns a Tensor or a list of
them. Ops that need the run's state (TensorArrays, functions, hash tables) are marked
runtime=True and are called fn(x, a, rt). An async function marks a dynamic op: it runs only in
execute_async, as in TF.js.
"""
import inspect


class OpDef:
    __slots__ = ("name", "family", "arity", "fn", "is_async", "runtime")

    def __init__(self, name, family, arity, fn, runtime=False):
        self.name = name
        self.family = family
        self.arity = arity
        self.fn = fn
        self.runtime = runtime
        self.is_async = inspect.iscoroutinefunction(fn)

    def __repr__(self):
        return f"OpDef({self.name!r}, {self.family}, arity={self.arity}{', async' if self.is_async else ''})"


def table(family, rows, runtime=False):
    """{tf op name: (number of data inputs needed, fn)} -> {tf op name: OpDef}."""
    return {name: OpDef(name, family, arity, fn, runtime) for name, (arity, fn) in rows.items()}


def values(t):
    """A tensor's values as a flat list of Python numbers (bools, ints or floats)."""
    data = t.data_sync()
    if t.dtype == "bool":
        return [bool(v) for v in data]
    return list(data)


def ints(t):
    """A tensor's values as a flat list of ints (shapes, axes, indices read from the graph)."""
    return [int(v) for v in t.data_sync()]


def num(t):
    """A tensor's first value as a Python number (TF.js reads 'number' inputs so)."""
    data = t.data_sync()
    if not len(data):
        raise ValueError(f"graph model: expected a number, got an empty tensor of shape {list(t.shape)}")
    v = data[0]
    return int(v) if t.dtype == "int32" else bool(v) if t.dtype == "bool" else float(v)


def int_(t):
    return int(num(t))


def nested(t):
    """A tensor's values nested by its shape (paddings [[before, after], ...])."""
    flat = values(t)
    for dim in reversed(t.shape[1:]):
        flat = [flat[i:i + dim] for i in range(0, len(flat), dim)]
    return flat


def pairs(flat):
    """[a0, b0, a1, b1, ...] -> [[a0, b0], [a1, b1], ...]."""
    return [list(flat[i:i + 2]) for i in range(0, len(flat), 2)]
