"""Gradients of the slicing kernels (attrs as in the contract of ops/slicing.py):

  Slice         dy padded with zeros back to x's shape (TF.js)
  StridedSlice  dy scattered back to where its elements were taken from, with ops: reversed
                along negative strides, zeros interleaved along strides > 1 (a pad of a unit
                axis), then placed with a pad (TF.js registers no gradient for it)
  GatherV2      the unsorted segment sum of dy into x's shape along axis, as a product with
                the one-hot matrix of the indices (a mat_mul, so every backend has it;
                batch_dims as batch axes of the product); indices get no gradient

Slice and StridedSlice keep nothing on the tape; GatherV2 keeps its indices.
"""
import math

from .. import ops
from ..kernels import register_gradient
from ..ops.nn import one_hot_any_depth


@register_gradient("Slice")
def _slice_grad(dy, node):
    shape = node.input_shapes[0]
    begin, size = node.attrs["begin"], node.attrs["size"]
    return [ops.pad(dy, [[b, d - b - s] for b, s, d in zip(begin, size, shape)])]


@register_gradient("StridedSlice")
def _strided_slice_grad(dy, node):
    shape = node.input_shapes[0]
    begin, strides = node.attrs["begin"], node.attrs["strides"]
    counts = list(dy.shape)             # the kernel keeps every axis: counts[a] elements of axis a
    if dy.size == 0:
        return [ops.zeros(shape, "float32")]
    # A negative stride takes the same elements as a positive one from the last of them,
    # in reverse order.
    flipped = [a for a, s in enumerate(strides) if s < 0]
    if flipped:
        dy = ops.reverse(dy, flipped)
    starts = [b + (n - 1) * s if s < 0 else b for b, s, n in zip(begin, strides, counts)]
    steps = [abs(s) for s in strides]
    # Element j of axis a belongs at starts[a] + j * steps[a]: follow each element with
    # steps[a] - 1 zeros (padding a unit axis after it), one strided axis at a time, in rank 4
    # whatever x's rank (a webgl shader has at most 6 axes).
    lengths = list(counts)
    for a, (n, step) in enumerate(zip(counts, steps)):
        if step == 1 or n == 1:
            continue
        outer, inner = math.prod(lengths[:a]), math.prod(lengths[a + 1:])
        spread = ops.pad(ops.reshape(dy, [outer, n, 1, inner]), [[0, 0], [0, 0], [0, step - 1], [0, 0]])
        lengths[a] = n * step
        dy = ops.reshape(spread, lengths)
    # The zeros after the last element may run past the end of the axis: cut them there.
    room = [d - b for d, b in zip(shape, starts)]
    if any(length > r for length, r in zip(lengths, room)):
        lengths = [min(length, r) for length, r in zip(lengths, room)]
        dy = ops.slice(dy, [0] * len(lengths), lengths)
    paddings = [[b, r - length] for b, r, length in zip(starts, room, lengths)]
    if any(before or after for before, after in paddings):
        dy = ops.pad(dy, paddings)
    return [dy]


@register_gradient("GatherV2", save_inputs=(1,))
def _gather_v2_grad(dy, node):
    shape = node.input_shapes[0]
    indices = node.x[1]
    axis, batch_dims = node.attrs["axis"], node.attrs["batch_dims"]
    # dy is (batch, outer, indices, inner) and x is (batch, outer, depth, inner), flattened:
    # dx[b, o, :, n] = one_hot(indices[b])^T @ dy[b, o, :, n], which adds up repeated indices
    # (and leaves out those outside [0, depth), as unsorted_segment_sum does).
    batch = math.prod(shape[:batch_dims])
    outer = math.prod(shape[batch_dims:axis])
    depth = shape[axis]
    inner = math.prod(shape[axis + 1:])
    count = math.prod(indices.shape[batch_dims:])
    if count == 0 or math.prod(shape) == 0:
        return [ops.zeros(shape, "float32"), None]
    if outer == 1:
        hot = one_hot_any_depth(ops.reshape(indices, [batch, count]), depth, dtype="float32")
        values = ops.reshape(dy, [batch, count, inner])
    else:                               # the one-hot matrices broadcast over the outer axes
        hot = one_hot_any_depth(ops.reshape(indices, [batch, 1, count]), depth, dtype="float32")
        values = ops.reshape(dy, [batch, outer, count, inner])
    return [ops.reshape(ops.mat_mul(hot, values, transpose_a=True), shape), None]
