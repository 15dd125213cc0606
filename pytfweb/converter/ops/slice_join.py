"""Slicing and joining: concat, gather, reverse, slice, strided slice, pack/unpack, tile, split,
scatter/gather ND, SparseToDense, TensorScatterUpdate."""
from ... import ops as tfo
from ._table import int_, ints, table, values


def concat_v2(x, a):
    n = a.int("N", len(x) - 1)
    return tfo.concat(x[:n], int_(x[n]))


def concat(x, a):
    n = a.int("N", len(x) - 1)
    return tfo.concat(x[1:n + 1], int_(x[0]))


def gather_v2(x, a):
    indices = x[1] if x[1].dtype == "int32" else tfo.cast(x[1], "int32")
    return tfo.gather(x[0], indices, int_(x[2]), a.int("batch_dims", 0))


def gather(x, a):
    indices = x[1] if x[1].dtype == "int32" else tfo.cast(x[1], "int32")
    return tfo.gather(x[0], indices, 0)


def reverse(x, a):
    return tfo.reverse(x[0], [i for i, flag in enumerate(values(x[1])) if flag])


def strided_slice(x, a):
    return tfo.strided_slice(x[0], ints(x[1]), ints(x[2]), ints(x[3]) if len(x) > 3 else None,
                             a.int("begin_mask", 0), a.int("end_mask", 0), a.int("ellipsis_mask", 0),
                             a.int("new_axis_mask", 0), a.int("shrink_axis_mask", 0))


def pack(x, a):
    n = a.int("N", len(x))
    tensors = x[:n]
    shape = tensors[0].shape
    if any(t.shape != shape for t in tensors):
        # As TF.js: inputs differing from the first only by unit dimensions take its shape.
        squeezed = [d for d in shape if d != 1]
        for t in tensors:
            if [d for d in t.shape if d != 1] != squeezed:
                raise ValueError(f"graph model: node '{a.node}' (Pack): the inputs' shapes "
                                 f"{[list(t.shape) for t in tensors]} do not match")
        tensors = [t if t.shape == shape else tfo.reshape(t, list(shape)) for t in tensors]
    return tfo.stack(tensors, a.int("axis", 0))


def split(x, a):
    return tfo.split(x[1], a.int("num_split", 1), int_(x[0]))


def split_v(x, a):
    # TF.js reads a scalar size_splits as a number of equal splits
    sizes = int_(x[1]) if x[1].rank == 0 else ints(x[1])
    return tfo.split(x[0], sizes, int_(x[2]))


def sparse_to_dense(x, a):
    indices, shape, sparse_values, default = x
    if default.dtype != sparse_values.dtype:
        default = tfo.cast(default, sparse_values.dtype)
    return tfo.sparse_to_dense(indices, sparse_values, ints(shape), default)


OPS = table("slice_join", {
    "ConcatV2": (2, concat_v2),
    "Concat": (2, concat),
    "GatherV2": (3, gather_v2),
    "Gather": (2, gather),
    "Reverse": (2, reverse),
    "ReverseV2": (2, lambda x, a: tfo.reverse(x[0], ints(x[1]))),
    "Slice": (3, lambda x, a: tfo.slice(x[0], ints(x[1]), ints(x[2]))),
    "StridedSlice": (3, strided_slice),
    "Pack": (1, pack),
    "Unpack": (1, lambda x, a: tfo.unstack(x[0], a.int("axis", 0))),
    "Tile": (2, lambda x, a: tfo.tile(x[0], ints(x[1]))),
    "Split": (2, split),
    "SplitV": (3, split_v),
    "ScatterNd": (3, lambda x, a: tfo.scatter_nd(x[0], x[1], ints(x[2]))),
    "GatherNd": (2, lambda x, a: tfo.gather_nd(x[0], x[1])),
    "SparseToDense": (4, sparse_to_dense),
    "TensorScatterUpdate": (3, lambda x, a: tfo.tensor_scatter_update(x[0], x[1], x[2])),
})
