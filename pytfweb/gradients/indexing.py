"""Gradients of the indexing kernels (attrs as in the contract of ops/indexing.py).

TF.js registers gradients for UnsortedSegmentSum, MirrorPad, SpaceToBatchND and BatchToSpaceND;
the others here follow TensorFlow (Python):
  GatherNd             dy scattered back: scatter_nd(indices, dy, x.shape) (repeats add up)
  ScatterNd            updates: gather_nd(dy, indices)
  TensorScatterUpdate  tensor: dy with the updated slices zeroed; updates: gather_nd(dy, indices)
  MirrorPad            the reflected borders of dy folded back onto the values they copy, axis by
                       axis. (TF.js's gradient only slices the centre out, which drops them.)
  DepthToSpace         the inverse rearrangement of dy (space to depth), with reshape/transpose
  SpaceToBatchND       batch_to_space_nd(dy, block_shape, paddings), and the converse
  UnsortedSegmentSum   dy gathered at the segment ids, zero for ids outside the segments
  TopK                 values: dy added at the indices along the last axis (a one-hot product)
  Diag                 the diagonal of dy
Indices, ids, SearchSorted, Unique and BroadcastArgs get no gradient.
"""
import math

from .. import ops
from ..kernels import register_gradient
from ..ops.nn import one_hot_any_depth


@register_gradient("GatherNd", save_inputs=(1,))
def _gather_nd_grad(dy, node):
    indices = node.x[1]
    if indices.rank == 1:       # one index tuple: scatter_nd reads rank-1 indices as single elements
        indices, dy = ops.reshape(indices, [1, -1]), ops.expand_dims(dy, 0)
    return [lambda: ops.scatter_nd(indices, dy, node.input_shapes[0]), None]


@register_gradient("ScatterNd", save_inputs=(0,))
def _scatter_nd_grad(dy, node):
    return [None, lambda: ops.gather_nd(dy, _as_tuples(node.x[0]))]


@register_gradient("TensorScatterUpdate", save_inputs=(1,))
def _tensor_scatter_update_grad(dy, node):
    indices = node.x[1]
    update_shape = node.input_shapes[2]
    return [lambda: ops.tensor_scatter_update(dy, indices, ops.zeros(update_shape, dy.dtype)), None,
            lambda: ops.gather_nd(dy, _as_tuples(indices))]


def _as_tuples(indices):
    """Scatter indices of rank 1 name single elements: as gather_nd index tuples, [n, 1]."""
    return ops.reshape(indices, [-1, 1]) if indices.rank == 1 else indices


@register_gradient("MirrorPad")
def _mirror_pad_grad(dy, node):
    shape = node.input_shapes[0]
    offset = 1 if node.attrs["mode"] == "reflect" else 0
    for axis, ((before, after), n) in enumerate(zip(node.attrs["paddings"], shape)):
        if before == after == 0:
            continue
        dy = _fold_axis(dy, axis, before, after, n, offset)
    return [dy]


def _fold_axis(dy, axis, before, after, n, offset):
    """dy of one axis [before | n | after] -> [n]: each border reversed and added where it was
    copied from (starting `offset` in from the edge)."""
    def part(start, size):
        begin = [0] * dy.rank
        sizes = list(dy.shape)
        begin[axis], sizes[axis] = start, size
        return ops.slice(dy, begin, sizes)

    def placed(border, at):
        pads = [[0, 0] for _ in range(dy.rank)]
        pads[axis] = [at, n - at - border.shape[axis]]
        return ops.pad(ops.reverse(border, axis), pads)

    total = part(before, n)
    if before:
        total = ops.add(total, placed(part(0, before), offset))
    if after:
        total = ops.add(total, placed(part(before + n, after), n - offset - after))
    return total


@register_gradient("DepthToSpace")
def _depth_to_space_grad(dy, node):
    bs = node.attrs["block_size"]
    shape = node.input_shapes[0]
    if node.attrs["data_format"] == "NHWC":
        b, h, w, d = shape
        blocks = ops.reshape(dy, [b, h, bs, w, bs, d // bs // bs])
        return [ops.reshape(ops.transpose(blocks, [0, 1, 3, 2, 4, 5]), shape)]
    b, d, h, w = shape
    blocks = ops.reshape(dy, [b, d // bs // bs, h, bs, w, bs])
    return [ops.reshape(ops.transpose(blocks, [0, 3, 5, 1, 2, 4]), shape)]


@register_gradient("SpaceToBatchND")
def _space_to_batch_nd_grad(dy, node):
    return [ops.batch_to_space_nd(dy, node.attrs["block_shape"], node.attrs["paddings"])]


@register_gradient("BatchToSpaceND")
def _batch_to_space_nd_grad(dy, node):
    return [ops.space_to_batch_nd(dy, node.attrs["block_shape"], node.attrs["crops"])]


@register_gradient("UnsortedSegmentSum", save_inputs=(1,))
def _unsorted_segment_sum_grad(dy, node):
    ids = node.x[1]
    n = node.attrs["num_segments"]

    def dx():
        # TF.js's gatherDropNegatives; ids >= num_segments are dropped too (clamped, then masked).
        inside = ops.logical_and(ops.greater_equal(ids, 0), ops.less(ids, n))
        gathered = ops.gather(dy, ops.clip_by_value(ids, 0, max(n - 1, 0)))
        mask = ops.reshape(inside, list(ids.shape) + [1] * (gathered.rank - ids.rank))
        return ops.where(ops.logical_and(mask, ops.ones(gathered.shape, "bool")), gathered,
                         ops.zeros_like(gathered))
    if n == 0:
        return [lambda: ops.zeros(node.input_shapes[0], dy.dtype), None]
    return [dx, None]


@register_gradient("TopK", save_outputs=(1,))
def _top_k_grad(dy, node):
    dvalues, indices = dy[0], node.y[1]
    shape = node.input_shapes[0]
    if math.prod(shape) == 0 or indices.shape[-1] == 0:
        return [ops.zeros(shape, "float32")]
    # dx[..., j] = sum_i dy[..., i] * (indices[..., i] == j): a one-hot product over k.
    hot = one_hot_any_depth(indices, shape[-1], dtype="float32")
    return [ops.sum(ops.mul(hot, ops.expand_dims(dvalues, -1)), -2)]


@register_gradient("Diag")
def _diag_grad(dy, node):
    shape = node.input_shapes[0]
    n = math.prod(shape)
    square = ops.reshape(dy, [n, n])
    return [ops.reshape(ops.sum(ops.mul(square, ops.eye(n)), 1), shape)]
