"""Transformations: cast, reshape and its relatives, padding, space/batch/depth rearrangements,
broadcasting."""
from ... import ops as tfo
from ._table import int_, ints, nested, num, table


def squeeze(x, a):
    axis = a.ints("squeeze_dims", None)
    if axis is None:
        axis = a.ints("axis", None)
    return tfo.squeeze(x[0], axis or None)


def _paddings(t):
    """[[before, after], ...] (paddings, crops) as ints whatever the tensor's dtype (TF.js reads
    them as numbers)."""
    return [[int(v) for v in row] for row in nested(t)]


def cast(x, a):
    dtype = a.dtype("DstT")
    return tfo.cast(x[0], dtype) if x[0].dtype != dtype else tfo.clone(x[0])


def ensure_shape(x, a):
    shape = ints(x[1]) if len(x) > 1 else a.shape("shape")
    if shape is None:  # unknown rank: anything goes
        return x[0]
    return tfo.ensure_shape(x[0], [None if d < 0 else d for d in shape])


OPS = table("transformation", {
    "Cast": (1, cast),
    "ExpandDims": (2, lambda x, a: tfo.expand_dims(x[0], int_(x[1]))),
    "Squeeze": (1, squeeze),
    "Reshape": (2, lambda x, a: tfo.reshape(x[0], ints(x[1]))),
    "EnsureShape": (1, ensure_shape),
    "MirrorPad": (2, lambda x, a: tfo.mirror_pad(x[0], _paddings(x[1]), a.str("mode").lower())),
    "Pad": (2, lambda x, a: tfo.pad(x[0], _paddings(x[1]), a.float("constant_value", 0))),
    "PadV2": (3, lambda x, a: tfo.pad(x[0], _paddings(x[1]), num(x[2]))),
    "SpaceToBatchND": (3, lambda x, a: tfo.space_to_batch_nd(x[0], ints(x[1]), _paddings(x[2]))),
    "BatchToSpaceND": (3, lambda x, a: tfo.batch_to_space_nd(x[0], ints(x[1]), _paddings(x[2]))),
    "DepthToSpace": (1, lambda x, a: tfo.depth_to_space(x[0], a.int("block_size"),
                                                        a.str("data_format", "NHWC").upper())),
    "BroadcastTo": (2, lambda x, a: tfo.broadcast_to(x[0], ints(x[1]))),
    "BroadcastArgs": (2, lambda x, a: tfo.broadcast_args(x[0], x[1])),
})
