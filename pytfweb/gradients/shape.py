"""Gradients of the shape kernels (attrs as in the contract of ops/shape.py), TF.js semantics:

  Reshape, ExpandDims  dy reshaped back to the input's shape
  Transpose  dy transposed by the inverse permutation
  Concat     dy split along axis into the inputs' sizes
  Pack       dy unstacked along axis
  Unpack     the dys stacked along axis
  SplitV     the dys concatenated along axis
  Tile       the sum of dy's tiles: a reshape that separates each axis into (rep, size) and a
             sum over the rep axes, in two passes where one would need more than 6 axes (TF.js
             slices and adds every tile, for ranks <= 4 only)
  PadV2      the slice of dy where x sits
  Reverse    dy reversed along the same axes

None of them keeps a tensor alive on the tape: shapes and attrs are enough.
"""
import math

from .. import ops
from ..kernels import register_gradient
from ..core.tensor import Tensor

# A webgl shader addresses at most this many axes; the Tile gradient's reshape stays within it.
_MAX_RANK = 6


def _as_float_list(dy):
    """The dys of a kernel with several outputs as a list (backpropagation hands a single
    Tensor to a kernel that happened to have one output). An output that got no gradient
    arrives as zeros of its own dtype: such are made float32, so that the list can be joined."""
    dys = [dy] if isinstance(dy, Tensor) else list(dy)
    return [d if d.dtype == "float32" else ops.cast(d, "float32") for d in dys]


@register_gradient("Reshape")
@register_gradient("ExpandDims")
def _reshape_grad(dy, node):
    return [ops.reshape(dy, node.input_shapes[0])]


@register_gradient("Transpose")
def _transpose_grad(dy, node):
    perm = node.attrs["perm"]
    undo = [0] * len(perm)
    for i, p in enumerate(perm):
        undo[p] = i
    return [ops.transpose(dy, undo)]


@register_gradient("Concat")
def _concat_grad(dy, node):
    axis = node.attrs["axis"]
    return ops.split(dy, [s[axis] for s in node.input_shapes], axis)


@register_gradient("Pack")
def _pack_grad(dy, node):
    return ops.unstack(dy, node.attrs["axis"])


@register_gradient("Unpack")
def _unpack_grad(dy, node):
    return [ops.stack(_as_float_list(dy), node.attrs["axis"])]


@register_gradient("SplitV")
def _split_v_grad(dy, node):
    return [ops.concat(_as_float_list(dy), node.attrs["axis"])]


@register_gradient("Tile")
def _tile_grad(dy, node):
    shape = node.input_shapes[0]
    if dy.size == 0:                    # a rep of 0, or x itself empty
        return [ops.zeros(shape, "float32")]
    # Output axis i is reps[i] tiles of shape[i] elements: as (rep, size) pairs, the tiles are
    # summed over every rep axis. Unit factors are left out and neighbours of one kind merged.
    blocks = []
    for rep, size in zip(node.attrs["reps"], shape):
        blocks += [(rep, True)] if rep != 1 else []
        blocks += [(size, False)] if size != 1 else []
    return [ops.reshape(_sum_blocks(dy, _merged(blocks)), shape)]


def _merged(blocks):
    """Adjacent (size, summed) blocks of the same kind as one (they are contiguous in memory)."""
    out = []
    for size, summed in blocks:
        if out and out[-1][1] == summed:
            out[-1] = (out[-1][0] * size, summed)
        else:
            out.append((size, summed))
    return out


def _sum_blocks(t, blocks):
    """t (whose size is the product of the block sizes), summed over the summed blocks, in as
    few passes as _MAX_RANK allows (after merging, blocks alternate in kind, so a rank-4 x tiled
    along every axis needs 8 axes: then the first blocks are reduced first, the rest after)."""
    while True:
        head, rest = (blocks, []) if len(blocks) <= _MAX_RANK else (blocks[:_MAX_RANK - 1], blocks[_MAX_RANK - 1:])
        sizes = [size for size, _ in head] + ([math.prod(size for size, _ in rest)] if rest else [])
        t = ops.sum(ops.reshape(t, sizes), [i for i, (_, summed) in enumerate(head) if summed])
        if not rest:
            return t
        kept = math.prod(size for size, summed in head if not summed)
        blocks = _merged([(kept, False)] + rest)


@register_gradient("PadV2")
def _pad_v2_grad(dy, node):
    return [ops.slice(dy, [before for before, _ in node.attrs["paddings"]], node.input_shapes[0])]


@register_gradient("Reverse")
def _reverse_grad(dy, node):
    return [ops.reverse(dy, node.attrs["dims"])]
