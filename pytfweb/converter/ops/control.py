"""Control flow: the TF1 loop primitives (Enter, Exit, Switch, Merge, NextIteration, LoopCond; the
executor keeps their frames), TF2's functional If / While (running functions of the graph's
library), TensorArray (TF1) and TensorList (TF2) ops.

All of them run only in execute_async, as in TF.js: a branch taken or a loop repeated depends on
values read back from the device.
"""
from ... import ops as tfo
from ...core.api import dispose
from ..resources import TensorArray, TensorList
from ._table import int_, ints, table


async def truth(t):
    """TensorFlow's truth value of a condition: a scalar's value (a string's non-emptiness); for
    other shapes, whether it has any element."""
    if t.size != 1 or t.rank > 1:
        return t.size > 0
    v = (await t.data())[0]
    return bool(len(v)) if t.dtype == "string" else bool(v)


def identity(x, a, rt):  # Enter, Exit, NextIteration, LoopCond: the executor moves between frames
    return x[0]


async def switch(x, a, rt):
    data, pred = x[0], x[1]
    return [None, data] if await truth(pred) else [data, None]


def merge(x, a, rt):
    for i, t in enumerate(x):
        if t is not None:
            return [t, tfo.scalar(i, "int32")]
    raise ValueError(f"graph model: node '{a.node}' (Merge) has no input with a value")


async def if_(x, a, rt):
    branch = a.func("then_branch") if await truth(x[0]) else a.func("else_branch")
    return await rt.call(branch, x[1:], a)


async def while_(x, a, rt):
    cond, body = a.func("cond"), a.func("body")
    state, owned = list(x), False
    try:
        while True:
            result = await rt.call(cond, state, a)
            try:
                going = await truth(result[0])
            finally:
                dispose(result)
            if not going:
                return state
            new = await rt.call(body, state, a)
            if owned:
                dispose(state)
            state, owned = new, True
    except BaseException:
        if owned:
            dispose(state)
        raise


# --- TensorArray (inputs: handle, ..., flow_in; outputs: the flow, a copy of the handle) -----------

def ta_create(x, a, rt):
    ta = TensorArray(a.str("tensor_array_name", "") or a.node, a.dtype("dtype"), int_(x[0]),
                     a.shape("element_shape", None), a.bool("dynamic_size", False), a.bool("clear_after_read", True))
    rt.add(ta)
    return [ta.handle_copy(), ta.handle_copy()]


def ta_write(x, a, rt):
    ta = rt.get(x[0], TensorArray, a)
    ta.write(int_(x[1]), x[2])
    return ta.handle_copy()


def ta_scatter(x, a, rt):
    ta = rt.get(x[0], TensorArray, a)
    ta.scatter(ints(x[1]), x[2])
    return ta.handle_copy()


def ta_split(x, a, rt):
    ta = rt.get(x[0], TensorArray, a)
    ta.split(ints(x[2]), x[1])
    return ta.handle_copy()


def ta_close(x, a, rt):
    ta = rt.get(x[0], TensorArray, a)
    handle = ta.handle_copy()
    ta.close()
    return handle  # TensorFlow's op has no output; TF.js's gives the handle


# --- TensorList ----------------------------------------------------------------------------------

def _element_shape(t):
    """TensorList element shapes arrive as a tensor: -1 (any shape) or a vector with -1 sizes."""
    shape = ints(t)
    return None if t.rank == 0 else shape


def tl_reserve(x, a, rt):
    tl = TensorList(_element_shape(x[0]), a.dtype("element_dtype"))
    tl.items = [None] * int_(x[1])
    rt.add(tl)
    return tl.handle_copy()


def tl_empty(x, a, rt):
    return rt.add(TensorList(_element_shape(x[0]), a.dtype("element_dtype"), max_size=int_(x[1]))).handle_copy()


def tl_from_tensor(x, a, rt):
    t = x[0]
    if t.rank < 1:
        raise ValueError(f"graph model: node '{a.node}' (TensorListFromTensor) needs a tensor of rank >= 1, got a scalar")
    parts = tfo.unstack(t, 0)
    try:
        tl = TensorList(_element_shape(x[1]), t.dtype, parts)
    finally:
        dispose(parts)
    return rt.add(tl).handle_copy()


def tl_scatter(x, a, rt):
    t, indices = x[0], ints(x[1])
    size = int_(x[3]) if len(x) > 3 else -1
    if len(indices) != t.shape[0]:
        raise ValueError(f"graph model: node '{a.node}' ({a.op}): {len(indices)} indices for {t.shape[0]} rows")
    tl = rt.add(TensorList(_element_shape(x[2]), t.dtype))
    tl.items = [None] * max(size, max(indices, default=-1) + 1)
    parts = tfo.unstack(t, 0)
    try:
        for i, part in zip(indices, parts):
            tl.set(i, part)
    finally:
        dispose(parts)
    return tl.handle_copy()


def tl_split(x, a, rt):
    t, lengths = x[0], ints(x[2])
    if sum(lengths) != t.shape[0]:
        raise ValueError(f"graph model: node '{a.node}' (TensorListSplit): lengths {lengths} do not add up to "
                         f"{t.shape[0]}")
    shape = _element_shape(x[1])
    tl = rt.add(TensorList(shape, t.dtype))
    parts = tfo.split(t, lengths, 0) if lengths else []
    reshaped = []
    try:
        for part in parts:
            if shape is not None and list(part.shape) != shape and sum(d < 0 for d in shape) <= 1:
                # TF.js reshapes each piece to the element shape ([1, 3] pieces of a list of [3])
                part = tfo.reshape(part, shape)
                reshaped.append(part)
            tl.push(part)
    finally:
        dispose(parts + reshaped)
    return tl.handle_copy()


def tl_set(x, a, rt):
    tl = rt.get(x[0], TensorList, a)
    tl.set(int_(x[1]), x[2])
    return tl.handle_copy()


def tl_get(x, a, rt):
    tl = rt.get(x[0], TensorList, a)
    tl._check_dtype(a.dtype("element_dtype", None), a.node)
    return tfo.reshape(tl.element(int_(x[1])), tl.shape_for(_element_shape(x[2])))


def tl_stack(x, a, rt):
    tl = rt.get(x[0], TensorList, a)
    tl._check_dtype(a.dtype("element_dtype", None), a.node)
    return tl.stack(_element_shape(x[1]), a.int("num_elements", -1))


def tl_gather(x, a, rt):
    tl = rt.get(x[0], TensorList, a)
    tl._check_dtype(a.dtype("element_dtype", None), a.node)
    return tl.gather(ints(x[1]), _element_shape(x[2]))


def tl_concat(x, a, rt):
    tl = rt.get(x[0], TensorList, a)
    shape = _element_shape(x[1]) if len(x) > 1 else a.shape("element_shape", None)
    return tl.concat(shape)


def tl_push(x, a, rt):
    tl = rt.get(x[0], TensorList, a)
    tl.push(x[1])
    return tl.handle_copy()


def tl_pop(x, a, rt):
    tl = rt.get(x[0], TensorList, a)
    return [tl.handle_copy(), tl.pop(_element_shape(x[1]) if len(x) > 1 else None)]


def tl_resize(x, a, rt):
    return rt.add(rt.get(x[0], TensorList, a).resized(int_(x[1]))).handle_copy()


OPS = table("control", {
    "Enter": (1, identity),
    "Exit": (1, identity),
    "NextIteration": (1, identity),
    "LoopCond": (1, identity),
    "Switch": (2, switch),
    "Merge": (1, merge),
    "If": (1, if_),
    "StatelessIf": (1, if_),
    "While": (0, while_),
    "StatelessWhile": (0, while_),
    "TensorArrayV3": (1, ta_create),
    "TensorArrayWriteV3": (3, ta_write),
    "TensorArrayReadV3": (2, lambda x, a, rt: rt.get(x[0], TensorArray, a).read(int_(x[1]))),
    "TensorArrayGatherV3": (2, lambda x, a, rt: rt.get(x[0], TensorArray, a).gather(ints(x[1]))),
    "TensorArrayScatterV3": (3, ta_scatter),
    "TensorArrayConcatV3": (1, lambda x, a, rt: rt.get(x[0], TensorArray, a).concat()),
    "TensorArraySplitV3": (3, ta_split),
    "TensorArraySizeV3": (1, lambda x, a, rt: tfo.scalar(rt.get(x[0], TensorArray, a).size(), "int32")),
    "TensorArrayCloseV3": (1, ta_close),
    "TensorListReserve": (2, tl_reserve),
    "EmptyTensorList": (2, tl_empty),
    "TensorListFromTensor": (2, tl_from_tensor),
    "TensorListScatter": (3, tl_scatter),
    "TensorListScatterV2": (4, tl_scatter),
    "TensorListSplit": (3, tl_split),
    "TensorListSetItem": (3, tl_set),
    "TensorListGetItem": (3, tl_get),
    "TensorListStack": (2, tl_stack),
    "TensorListGather": (3, tl_gather),
    "TensorListConcat": (1, tl_concat),
    "TensorListConcatV2": (1, tl_concat),
    "TensorListPushBack": (2, tl_push),
    "TensorListPopBack": (1, tl_pop),
    "TensorListLength": (1, lambda x, a, rt: tfo.scalar(rt.get(x[0], TensorList, a).size(), "int32")),
    "TensorListResize": (2, tl_resize),
}, runtime=True)

# Every control op depends on the run (frames, containers, functions): none runs in execute().
for _op in OPS.values():
    _op.is_async = True
