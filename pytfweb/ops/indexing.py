"""Indexing ops: gather_nd, scatter_nd, tensor_scatter_update, mirror_pad, depth_to_space,
space_to_batch_nd, batch_to_space_nd, broadcast_args, unsorted_segment_sum, search_sorted
(lower_bound, upper_bound), top_k, unique, diag, meshgrid, and the data-dependent where_async
(where with one argument), boolean_mask_async and setdiff1d_async, with TF.js 4.22 semantics.

Kernel contract (every backend). The ops validate and resolve every argument; kernels see:
  GatherNd             inputs params (non-empty, rank >= 1), indices (int32, rank >= 1, last
                       axis K <= params rank). Output indices.shape[:-1] + params.shape[K:].
                       Index values are checked only where the data is at hand: the cpu kernel
                       raises ValueError for one outside params; webgl reads 0 (as TF.js).
  ScatterNd            inputs indices (int32), updates; attrs {"shape": tuple}. Updates at
                       repeated indices add up; cpu raises ValueError for an index outside shape.
  TensorScatterUpdate  inputs tensor, indices (int32), updates (tensor's dtype); the last
                       update of a repeated index wins.
  MirrorPad            attrs {"paddings": [[before, after], ...] one pair per axis, "mode":
                       "reflect" | "symmetric"}; each padding <= size - (1 if reflect else 0).
  DepthToSpace         x of rank 4; attrs {"block_size": int > 1, "data_format": "NHWC" | "NCHW"}.
  SpaceToBatchND       attrs {"block_shape": list, "paddings": [[before, after], ...]} (one per
                       block axis; padded sizes divisible by the block).
  BatchToSpaceND       attrs {"block_shape": list, "crops": [[start, end], ...]}.
  BroadcastArgs        inputs s0, s1: int32 vectors (shapes); output their broadcast shape.
  UnsortedSegmentSum   inputs x, segment_ids (int32, shape a prefix of x's); attrs
                       {"num_segments": int}. Output [num_segments] + x.shape[ids.rank:]; ids
                       outside [0, num_segments) are dropped.
  SearchSorted         inputs sorted_sequence [batch, n], values [batch, m] (one dtype);
                       attrs {"side": "left" | "right"}; output int32 [batch, m] (a binary
                       search with < or <=, as TF.js: a NaN value gives 0).
  TopK                 x of rank >= 1; attrs {"k": 0 <= k <= last axis, "sorted": bool};
                       outputs values and int32 indices (largest first, ties: lower index first,
                       NaN the largest value).
  Unique               x of rank >= 1; attrs {"axis": int in [0, rank)}; outputs the distinct
                       slices along axis in order of first appearance, and int32 indices [shape[axis]].
  Diag                 output x.shape + x.shape, x on the diagonal.
"""
import math

from collections import namedtuple

from typing import Any, List, Optional, Sequence

from ..core.dtypes import upcast
from ..core.engine import ENGINE, op
from ..core.limits import check_elements
from ..core.shapes import size_of, strides_of
from ..core.tensor import Tensor
from ..core.types import Shape, TensorLike
from .creation import convert_to_tensor, refuse_complex
from .creation import tensor as _new_tensor
from .creation import cast
from .elementwise import bool_condition, coords_of_true
from .shape import axis_of, int_list, is_int

__all__ = ["gather_nd", "scatter_nd", "tensor_scatter_update", "mirror_pad", "depth_to_space",
           "space_to_batch_nd", "batch_to_space_nd", "broadcast_args", "unsorted_segment_sum",
           "search_sorted", "lower_bound", "upper_bound", "top_k", "unique", "diag", "meshgrid",
           "where_async", "boolean_mask", "boolean_mask_async", "setdiff1d",
           "setdiff1d_async"]


# --- argument helpers ---------------------------------------------------------------------

def _int_indices(indices, name, arg="indices"):
    t = convert_to_tensor(indices, arg, name, "int32")
    if t.dtype != "int32":
        raise TypeError(f"{name}: argument '{arg}' must be an int32 tensor, got {t.dtype}")
    return t


def _pairs(value, count, name, arg):
    """A list of `count` [a, b] pairs of non-negative ints (paddings, crops)."""
    if isinstance(value, (str, bytes, Tensor)) or not hasattr(value, "__iter__"):
        raise TypeError(f"{name}: argument '{arg}' must be a list of [before, after] pairs, "
                        f"got {type(value).__name__}")
    pairs = [int_list(p, name, arg) for p in value]
    if len(pairs) != count or any(len(p) != 2 for p in pairs):
        raise ValueError(f"{name}: argument '{arg}' must hold {count} pairs [before, after], got {pairs}")
    if any(v < 0 for p in pairs for v in p):
        raise ValueError(f"{name}: argument '{arg}' must hold non-negative values, got {pairs}")
    return pairs


def _choice(value, options, name, arg):
    if value not in options:
        raise ValueError(f"{name}: argument '{arg}' must be one of {', '.join(map(repr, options))}, "
                         f"got {value!r}")
    return value


# --- gather_nd, scatter_nd, tensor_scatter_update ------------------------------------------

@op
def gather_nd(x: TensorLike, indices: TensorLike) -> Tensor:
    """The slices of x at index tuples: the last axis of indices holds coordinates into x.

    Args:
        x: the tensor to gather from.
        indices: int32 [..., k], each row the coordinates of x's first k axes.

    Returns:
        A Tensor of shape indices.shape[:-1] + x.shape[k:].

    Example:
        >>> x = tf.tensor([[1, 2], [3, 4]])
        >>> tf.gather_nd(x, tf.tensor([[1, 0], [0, 1]], dtype="int32")).print()
        Tensor
            [3, 2]
    """
    name = "gather_nd"
    x = convert_to_tensor(x, "x", name)
    indices = _int_indices(indices, name)
    if x.rank < 1:
        raise ValueError(f"{name}: argument 'x' must have rank >= 1, got a scalar")
    if indices.rank < 1:
        raise ValueError(f"{name}: argument 'indices' must have rank >= 1, got a scalar")
    if indices.shape[-1] > x.rank:
        raise ValueError(f"{name}: the last axis of 'indices' (shape {list(indices.shape)}) must be <= the "
                         f"rank of 'x' ({x.rank})")
    if x.size == 0:
        raise ValueError(f"{name}: argument 'x' is empty (shape {list(x.shape)}); nothing can be gathered")
    return ENGINE.run_kernel("GatherNd", [x, indices])


def _check_scatter(indices, updates, shape, name):
    """TF.js's scatter_nd_util.validateInput: updates.shape must be indices.shape[:-1] +
    shape[indices.shape[-1]:] (indices of rank 1 index single elements of a vector)."""
    if indices.rank < 1:
        raise ValueError(f"{name}: argument 'indices' must have rank >= 1, got a scalar")
    if updates.rank < 1:
        raise ValueError(f"{name}: argument 'updates' must have rank >= 1, got a scalar")
    if len(shape) < 1:
        raise ValueError(f"{name}: the output shape must have rank >= 1, got {list(shape)}")
    slice_dim = indices.shape[-1] if indices.rank > 1 else 1
    batch_dim = indices.rank - 1 if indices.rank > 1 else 1
    if slice_dim == 0:
        raise ValueError(f"{name}: the last axis of 'indices' (shape {list(indices.shape)}) must not be empty")
    if slice_dim > len(shape):
        raise ValueError(f"{name}: the last axis of 'indices' (shape {list(indices.shape)}) must be <= the "
                         f"output rank ({len(shape)})")
    want = tuple(indices.shape[:batch_dim]) + tuple(shape[slice_dim:])
    if tuple(updates.shape) != want:
        raise ValueError(f"{name}: argument 'updates' must have shape indices.shape[:{batch_dim}] + "
                         f"shape[{slice_dim}:] = {list(want)}, got {list(updates.shape)} (indices shape "
                         f"{list(indices.shape)}, shape {list(shape)})")


@op
def scatter_nd(indices: TensorLike, updates: TensorLike, shape: Shape) -> Tensor:
    """A tensor of zeros with updates added at indices (repeated indices add).

    Args:
        indices: int32 [..., k], coordinates into the result's first k axes.
        updates: the values, of shape indices.shape[:-1] + shape[k:].
        shape: the result's shape.

    Returns:
        A new Tensor of shape, in updates' dtype.

    Example:
        >>> tf.scatter_nd(tf.tensor([[1], [3], [1]], dtype="int32"), tf.tensor([5, 6, 7]), [4]).print()
        Tensor
            [0, 12, 0, 6]
    """
    name = "scatter_nd"
    shape = tuple(int_list(shape, name, "shape"))
    if any(d < 0 for d in shape):
        raise ValueError(f"{name}: argument 'shape' must contain non-negative ints, got {list(shape)}")
    check_elements(shape, f"{name}: argument 'shape'")
    indices = _int_indices(indices, name)
    updates = convert_to_tensor(updates, "updates", name)
    _check_scatter(indices, updates, shape, name)
    return ENGINE.run_kernel("ScatterNd", [indices, updates], {"shape": shape})


@op
def tensor_scatter_update(tensor: TensorLike, indices: TensorLike, updates: TensorLike) -> Tensor:
    """A copy of tensor with the slices at indices replaced by updates.

    Args:
        tensor: the tensor to copy.
        indices: int32 [..., k], coordinates into tensor's first k axes.
        updates: the new slices, of shape indices.shape[:-1] + tensor.shape[k:].

    Returns:
        A new Tensor of tensor's shape and dtype.

    Example:
        >>> t = tf.tensor([1, 2, 3, 4])
        >>> tf.tensor_scatter_update(t, tf.tensor([[0], [2]], dtype="int32"), tf.tensor([9, 8])).print()
        Tensor
            [9, 2, 8, 4]
    """
    name = "tensor_scatter_update"
    t = convert_to_tensor(tensor, "tensor", name)
    indices = _int_indices(indices, name)
    updates = convert_to_tensor(updates, "updates", name)
    _check_scatter(indices, updates, t.shape, name)
    if updates.dtype != t.dtype:
        raise TypeError(f"{name}: arguments 'tensor' and 'updates' must have the same dtype, got "
                        f"{t.dtype} and {updates.dtype}")
    return ENGINE.run_kernel("TensorScatterUpdate", [t, indices, updates])


# --- mirror_pad, depth_to_space, space_to_batch_nd, batch_to_space_nd ------------------------

@op
def mirror_pad(x: TensorLike, paddings: Sequence[Sequence[int]], mode: str) -> Tensor:
    """Pad with reflections of x.

    Args:
        x: the tensor.
        paddings: for each axis, [before, after].
        mode: 'reflect' (the edge value is not repeated) or 'symmetric' (it is).

    Returns:
        A new Tensor.

    Example:
        >>> tf.mirror_pad(tf.tensor([1, 2, 3]), [[2, 1]], "reflect").print()
        Tensor
            [3, 2, 1, 2, 3, 2]
    """
    name = "mirror_pad"
    mode = _choice(mode, ("reflect", "symmetric"), name, "mode")
    x = convert_to_tensor(x, "x", name)
    if x.rank == 0:
        raise ValueError(f"{name}: argument 'x' must have rank >= 1, got a scalar")
    paddings = _pairs(paddings, x.rank, name, "paddings")
    offset = 1 if mode == "reflect" else 0
    for i, ((before, after), dim) in enumerate(zip(paddings, x.shape)):
        if before > dim - offset or after > dim - offset:
            raise ValueError(f"{name}: paddings[{i}] = {[before, after]} must be <= {dim - offset} for axis {i} "
                             f"of size {dim} in mode {mode!r}")
    return ENGINE.run_kernel("MirrorPad", [x], {"paddings": paddings, "mode": mode})


@op
def depth_to_space(x: TensorLike, block_size: int, data_format: str = "NHWC") -> Tensor:
    """Move blocks of channel values into block_size x block_size spatial blocks.

    Args:
        x: a rank-4 tensor whose channels are divisible by block_size ** 2.
        block_size: the side of the spatial blocks (>= 2).
        data_format: 'NHWC' or 'NCHW'.

    Returns:
        A Tensor [batch, height * block_size, width * block_size, channels / block_size ** 2].

    Example:
        >>> y = tf.depth_to_space(tf.tensor([1, 2, 3, 4], [1, 1, 1, 4]), 2)
        >>> y.shape
        (1, 2, 2, 1)
        >>> y.as1d().print()
        Tensor
            [1, 2, 3, 4]
    """
    name = "depth_to_space"
    data_format = _choice(data_format, ("NHWC", "NCHW"), name, "data_format")
    x = convert_to_tensor(x, "x", name, "float32")
    if x.dtype != "float32":   # as TF.js's convertToTensor(x, 'x', 'depthToSpace', 'float32')
        raise TypeError(f"{name}: argument 'x' must be a float32 tensor, got {x.dtype}")
    if x.rank != 4:
        raise ValueError(f"{name}: argument 'x' must have rank 4, got shape {list(x.shape)}")
    if not is_int(block_size):
        raise TypeError(f"{name}: argument 'block_size' must be an int, got {type(block_size).__name__}")
    block_size = block_size.__index__()
    if block_size < 2:
        raise ValueError(f"{name}: argument 'block_size' must be > 1, got {block_size}")
    depth = x.shape[3] if data_format == "NHWC" else x.shape[1]
    if depth % (block_size * block_size):
        raise ValueError(f"{name}: the depth of 'x' ({depth}, shape {list(x.shape)}) must be divisible by "
                         f"block_size * block_size = {block_size * block_size}")
    return ENGINE.run_kernel("DepthToSpace", [x], {"block_size": block_size, "data_format": data_format})


def _block_shape(block_shape, x, name):
    block = int_list(block_shape, name, "block_shape")
    if not block or any(b < 1 for b in block):
        raise ValueError(f"{name}: argument 'block_shape' must be a non-empty list of positive ints, got {block}")
    if x.rank < 1 + len(block):
        raise ValueError(f"{name}: argument 'x' must have rank >= {1 + len(block)} (1 + len(block_shape)), got "
                         f"shape {list(x.shape)}")
    return block


@op
def space_to_batch_nd(x: TensorLike, block_shape: Sequence[int], paddings: Sequence[Sequence[int]]) -> Tensor:
    """Pad the spatial axes 1..M of x and split them into blocks that go to the batch axis.

    Args:
        x: a tensor [batch, *spatial (M axes), *rest].
        block_shape: the block size of each spatial axis (M ints).
        paddings: [before, after] for each spatial axis.

    Returns:
        A Tensor [batch * prod(block_shape), *spatial padded / block_shape, *rest].

    Example:
        >>> tf.space_to_batch_nd(tf.ones([1, 2, 2, 1]), [2, 2], [[0, 0], [0, 0]]).shape
        (4, 1, 1, 1)
    """
    name = "space_to_batch_nd"
    x = convert_to_tensor(x, "x", name)
    block = _block_shape(block_shape, x, name)
    paddings = _pairs(paddings, len(block), name, "paddings")
    for i, (b, (before, after)) in enumerate(zip(block, paddings)):
        if (x.shape[i + 1] + before + after) % b:
            raise ValueError(f"{name}: axis {i + 1} of 'x' (size {x.shape[i + 1]}) padded by {[before, after]} "
                             f"must be divisible by block_shape[{i}] = {b}")
    check_elements([d + sum(p) for d, p in zip(x.shape[1:], paddings)] + list(x.shape[:1]) + list(x.shape[len(block) + 1:]),
                   f"{name}: argument 'paddings'")
    return ENGINE.run_kernel("SpaceToBatchND", [x], {"block_shape": block, "paddings": paddings})


@op
def batch_to_space_nd(x: TensorLike, block_shape: Sequence[int], crops: Sequence[Sequence[int]]) -> Tensor:
    """The inverse of space_to_batch_nd: batch blocks moved back into the spatial axes, then cropped.

    Args:
        x: a tensor [batch, *spatial (M axes), *rest], batch divisible by prod(block_shape).
        block_shape: the block size of each spatial axis (M ints).
        crops: [before, after] taken off each spatial axis.

    Returns:
        A Tensor [batch / prod(block_shape), *spatial * block_shape - crops, *rest].

    Example:
        >>> tf.batch_to_space_nd(tf.ones([4, 1, 1, 1]), [2, 2], [[0, 0], [0, 0]]).shape
        (1, 2, 2, 1)
    """
    name = "batch_to_space_nd"
    x = convert_to_tensor(x, "x", name)
    block = _block_shape(block_shape, x, name)
    crops = _pairs(crops, len(block), name, "crops")
    prod = math.prod(block)
    if x.shape[0] % prod:
        raise ValueError(f"{name}: the batch of 'x' ({x.shape[0]}) must be divisible by the product of "
                         f"block_shape {block} = {prod}")
    for i, (b, (start, end)) in enumerate(zip(block, crops)):
        if start + end > x.shape[i + 1] * b:
            raise ValueError(f"{name}: crops[{i}] = {[start, end]} crops more than axis {i + 1} holds "
                             f"({x.shape[i + 1]} * {b})")
    return ENGINE.run_kernel("BatchToSpaceND", [x], {"block_shape": block, "crops": crops})


# --- broadcast_args, unsorted_segment_sum, search_sorted -------------------------------------

@op
def broadcast_args(s0: TensorLike, s1: TensorLike) -> Tensor:
    """The broadcast of two shapes given as int32 vectors.

    Args:
        s0: a shape, as an int32 vector.
        s1: another shape, as an int32 vector.

    Returns:
        The broadcast shape, an int32 vector.

    Example:
        >>> tf.broadcast_args(tf.tensor([2, 1], dtype="int32"), tf.tensor([3], dtype="int32")).print()
        Tensor
            [2, 3]
    """
    name = "broadcast_args"
    s0, s1 = _int_indices(s0, name, "s0"), _int_indices(s1, name, "s1")
    for arg, s in (("s0", s0), ("s1", s1)):
        if s.rank != 1:
            raise ValueError(f"{name}: argument '{arg}' must be a vector (rank 1), got shape {list(s.shape)}")
    return ENGINE.run_kernel("BroadcastArgs", [s0, s1])


@op
def unsorted_segment_sum(x: TensorLike, segment_ids: TensorLike, num_segments: int) -> Tensor:
    """Sums of the slices of x with equal segment ids.

    Ids outside [0, num_segments) are dropped; bool sums count as int32 (TF.js's sumOutType).

    Args:
        x: the tensor.
        segment_ids: int32 ids; their shape is a prefix of x's.
        num_segments: the number of segments.

    Returns:
        A Tensor [num_segments, *x.shape[segment_ids.rank:]].

    Example:
        >>> ids = tf.tensor([0, 1, 0], dtype="int32")
        >>> tf.unsorted_segment_sum(tf.tensor([1, 2, 3]), ids, 2).print()
        Tensor
            [4, 2]
    """
    name = "unsorted_segment_sum"
    x = convert_to_tensor(x, "x", name)
    if x.dtype == "bool":
        x = cast(x, "int32")
    ids = _int_indices(segment_ids, name, "segment_ids")
    if not is_int(num_segments):
        raise TypeError(f"{name}: argument 'num_segments' must be an int, got {type(num_segments).__name__}")
    num_segments = num_segments.__index__()
    if num_segments < 0:
        raise ValueError(f"{name}: argument 'num_segments' must be >= 0, got {num_segments}")
    check_elements((num_segments,) + tuple(x.shape[ids.rank:]), f"{name}: argument 'num_segments'")
    if ids.rank < 1 or tuple(x.shape[:ids.rank]) != tuple(ids.shape):
        raise ValueError(f"{name}: the shape of 'segment_ids' ({list(ids.shape)}) must be a non-empty prefix of "
                         f"the shape of 'x' ({list(x.shape)})")
    return ENGINE.run_kernel("UnsortedSegmentSum", [x, ids], {"num_segments": num_segments})


@op
def search_sorted(sorted_sequence: TensorLike, values: TensorLike, side: str = "left") -> Tensor:
    """For each value, the index in its row of sorted_sequence (the last axis) where it would be
    inserted to keep the row sorted.

    As in TF.js, both are read as 2D [-1, last axis] with equal numbers of rows, and so is the
    result (a vector's result is [1, len(values)]).

    Args:
        sorted_sequence: rows sorted ascending along the last axis.
        values: the values to place, as many rows as sorted_sequence.
        side: 'left' (before equal values) or 'right' (after them).

    Returns:
        An int32 Tensor [rows, values per row].

    Example:
        >>> tf.search_sorted(tf.tensor([1, 3, 5]), tf.tensor([3, 6])).print()
        Tensor
            [[1, 3]]
    """
    name = "search_sorted"
    side = _choice(side, ("left", "right"), name, "side")
    seq = convert_to_tensor(sorted_sequence, "sorted_sequence", name)
    vals = convert_to_tensor(values, "values", name)
    for arg, t in (("sorted_sequence", seq), ("values", vals)):
        if t.rank < 1:
            raise ValueError(f"{name}: argument '{arg}' must have rank >= 1, got a scalar")
    if seq.dtype != vals.dtype:   # TF.js compares the numbers whatever their dtypes
        common = upcast(seq.dtype, vals.dtype)
        seq, vals = cast(seq, common), cast(vals, common)
    n, m = seq.shape[-1], vals.shape[-1]
    rows = seq.size // n if n else 0
    if (vals.size // m if m else 0) != rows or (n == 0 and seq.size) or (m == 0 and vals.size):
        raise ValueError(f"{name}: 'sorted_sequence' (shape {list(seq.shape)}) and 'values' (shape "
                         f"{list(vals.shape)}) must have the same number of rows (leading axes)")
    seq2 = ENGINE.run_kernel("Reshape", [seq], {"shape": (rows, n)})
    vals2 = ENGINE.run_kernel("Reshape", [vals], {"shape": (rows, m)})
    return ENGINE.run_kernel("SearchSorted", [seq2, vals2], {"side": side})


def lower_bound(sorted_sequence: TensorLike, values: TensorLike) -> Tensor:
    """search_sorted(sorted_sequence, values, 'left'): the first index not below each value.

    Args:
        sorted_sequence: rows sorted ascending along the last axis.
        values: the values to place.

    Returns:
        An int32 Tensor [rows, values per row], as search_sorted's.

    Example:
        >>> tf.lower_bound(tf.tensor([1, 3, 3, 5]), tf.tensor([3])).print()
        Tensor
            [[1]]
    """
    return search_sorted(sorted_sequence, values, "left")


def upper_bound(sorted_sequence: TensorLike, values: TensorLike) -> Tensor:
    """search_sorted(sorted_sequence, values, 'right'): the first index above each value.

    Args:
        sorted_sequence: rows sorted ascending along the last axis.
        values: the values to place.

    Returns:
        An int32 Tensor [rows, values per row], as search_sorted's.

    Example:
        >>> tf.upper_bound(tf.tensor([1, 3, 3, 5]), tf.tensor([3])).print()
        Tensor
            [[3]]
    """
    return search_sorted(sorted_sequence, values, "right")


# --- top_k, unique, diag, meshgrid -------------------------------------------------------------

@op
def top_k(x: TensorLike, k: int = 1, sorted: bool = True) -> Any:  # noqa: A002 - TF.js name
    """The k largest entries along the last axis, largest first (equal values: lower index first).

    Args:
        x: the tensor (rank >= 1).
        k: how many entries, at most the last axis' length.
        sorted: give them in descending order.

    Returns:
        A (values, indices) tuple, also .values and .indices (TF.js's {values, indices});
        indices is int32.

    Example:
        >>> values, indices = tf.top_k(tf.tensor([1, 5, 3, 5]), 2)
        >>> values.print(); indices.print()
        Tensor
            [5, 5]
        Tensor
            [1, 3]
    """
    name = "top_k"
    x = convert_to_tensor(x, "x", name)
    refuse_complex(x, "x", name)
    if x.rank == 0:
        raise ValueError(f"{name}: argument 'x' must have rank >= 1, got a scalar")
    if not is_int(k):
        raise TypeError(f"{name}: argument 'k' must be an int, got {type(k).__name__}")
    k = k.__index__()
    if not 0 <= k <= x.shape[-1]:
        raise ValueError(f"{name}: argument 'k' = {k} must be in [0, {x.shape[-1]}] (the last axis of 'x')")
    values, indices = ENGINE.run_kernel("TopK", [x], {"k": k, "sorted": bool(sorted)})
    return ValuesIndices(values, indices)


# (values, indices), also readable as .values and .indices (TF.js returns {values, indices}).
ValuesIndices = namedtuple("ValuesIndices", "values indices")


@op
def unique(x: TensorLike, axis: int = 0) -> Any:
    """The distinct slices of x along an axis, in order of first appearance.

    Args:
        x: the tensor (rank >= 1).
        axis: the axis along which slices are compared.

    Returns:
        A (values, indices) tuple: the distinct slices, and for each slice of x the position of its
        value in values (int32).

    Example:
        >>> values, indices = tf.unique(tf.tensor([4, 2, 4, 1]))
        >>> values.print(); indices.print()
        Tensor
            [4, 2, 1]
        Tensor
            [0, 1, 0, 2]
    """
    name = "unique"
    x = convert_to_tensor(x, "x", name)
    if x.rank == 0:
        raise ValueError(f"{name}: argument 'x' must have rank >= 1, got a scalar")
    axis = axis_of(axis, x, name)
    values, indices = ENGINE.run_kernel("Unique", [x], {"axis": axis})
    return ValuesIndices(values, indices)


@op
def diag(x: TensorLike) -> Tensor:
    """A tensor of shape x.shape + x.shape with x on its diagonal and zeros elsewhere.

    Args:
        x: the tensor of diagonal values.

    Returns:
        A new Tensor.

    Example:
        >>> tf.diag(tf.tensor([1, 2])).print()
        Tensor
            [[1, 0],
             [0, 2]]
    """
    x = convert_to_tensor(x, "x", "diag")
    return ENGINE.run_kernel("Diag", [x])


@op
def meshgrid(x: Optional[TensorLike] = None, y: Optional[TensorLike] = None, indexing: str = "xy") -> List[Tensor]:
    """Coordinate matrices from two vectors (flattened first).

    Args:
        x: the first coordinates.
        y: the second coordinates (None: x alone gives one grid).
        indexing: 'xy' gives [len(y), len(x)] grids, 'ij' gives [len(x), len(y)].

    Returns:
        A list of Tensors, one grid per input.

    Example:
        >>> X, Y = tf.meshgrid(tf.tensor([1, 2, 3]), tf.tensor([4, 5]))
        >>> X.print()
        Tensor
            [[1, 2, 3],
             [1, 2, 3]]
    """
    name = "meshgrid"
    if isinstance(indexing, dict):   # TF.js's options object {indexing}
        indexing = indexing.get("indexing", "xy")
    if indexing not in ("xy", "ij"):
        raise TypeError(f"{name}: argument 'indexing' must be 'xy' or 'ij', got {indexing!r}")
    if x is None:
        return []
    x = convert_to_tensor(x, "x", name, None if isinstance(x, Tensor) else "float32")
    if y is None:
        return [x]
    y = convert_to_tensor(y, "y", name, None if isinstance(y, Tensor) else "float32")
    w, h = x.size, y.size
    xy = indexing == "xy"
    # Each grid repeats one vector along the other axis: a tile of a reshape (exact for every dtype).
    gx = _repeat(x, (h, w) if xy else (w, h), axis=0 if xy else 1)
    gy = _repeat(y, (h, w) if xy else (w, h), axis=1 if xy else 0)
    return [gx, gy]


def _repeat(v, shape, axis):
    """v (flattened) laid along the axis of `shape` that is not `axis`, repeated along `axis`."""
    along = [1, 1]
    along[1 - axis] = shape[1 - axis]
    reps = [1, 1]
    reps[axis] = shape[axis]
    column = ENGINE.run_kernel("Reshape", [v], {"shape": tuple(along)})
    if reps == [1, 1]:
        return column
    return ENGINE.run_kernel("Tile", [column], {"reps": reps})


# --- data-dependent: where (one argument), boolean_mask, setdiff1d ----------------------------
# As in TF.js these read the data back and finish in Python (the output size depends on it);
# the `_async` forms await t.data() so that the page stays responsive on webgl.

async def where_async(condition: TensorLike) -> Tensor:
    """The coordinates of the true entries of a bool tensor, read without blocking (awaited).

    Args:
        condition: a bool tensor.

    Returns:
        An int32 Tensor [count, rank].

    Example:
        >>> import asyncio
        >>> asyncio.run(tf.where_async(tf.tensor([[True, False], [False, True]]))).print()
        Tensor
            [[0, 0],
             [1, 1]]
    """
    c = ENGINE.tidy(lambda: bool_condition(condition, "where_async"))
    try:
        values = await c.data()
        return ENGINE.tidy(lambda: coords_of_true(c.shape, values))
    finally:
        if c is not condition:
            c.dispose()


def _mask_args(tensor, mask, axis, name):
    """(tensor viewed with the mask's axes merged, flat mask, axis), validated."""
    t = convert_to_tensor(tensor, "tensor", name)
    mask = _condition_arg(mask, name)
    axis = 0 if axis is None else axis
    if not is_int(axis):
        raise TypeError(f"{name}: argument 'axis' must be an int, got {type(axis).__name__}")
    axis = axis.__index__()
    if mask.rank == 0:
        raise ValueError(f"{name}: argument 'mask' cannot be a scalar")
    if not 0 <= axis <= t.rank - mask.rank or tuple(t.shape[axis:axis + mask.rank]) != tuple(mask.shape):
        raise ValueError(f"{name}: the shape of 'mask' ({list(mask.shape)}) must match axes {axis}.. of 'tensor' "
                         f"(shape {list(t.shape)})")
    merged = t.shape[:axis] + (size_of(mask.shape),) + t.shape[axis + mask.rank:]
    t = ENGINE.run_kernel("Reshape", [t], {"shape": merged})
    mask = ENGINE.run_kernel("Reshape", [mask], {"shape": (mask.size,)})
    return t, mask, axis


def _condition_arg(mask, name):
    m = convert_to_tensor(mask, "mask", name, "bool")
    if m.dtype != "bool":
        raise TypeError(f"{name}: argument 'mask' must be a bool tensor, got {m.dtype}")
    return m


def _gather_true(t, mask_values, axis):
    picked = [i for i, v in enumerate(mask_values) if v]
    indices = _new_tensor(picked, [len(picked)], "int32")
    return ENGINE.run_kernel("GatherV2", [t, indices], {"axis": axis, "batch_dims": 0})


def boolean_mask(tensor: TensorLike, mask: TensorLike, axis: Optional[int] = None) -> Tensor:
    """The slices of tensor where mask is true (blocking: the mask is read back).

    Args:
        tensor: the tensor.
        mask: a bool tensor matching tensor's axes axis, axis + 1, ...
        axis: the first axis the mask covers (None: 0).

    Returns:
        A new Tensor, the mask's axes merged into one.

    Example:
        >>> tf.boolean_mask(tf.tensor([1, 2, 3]), tf.tensor([True, False, True])).print()
        Tensor
            [1, 3]
    """
    def run():
        t, m, ax = _mask_args(tensor, mask, axis, "boolean_mask")
        return _gather_true(t, m.data_sync(), ax)
    return ENGINE.tidy(run)


async def boolean_mask_async(tensor: TensorLike, mask: TensorLike, axis: Optional[int] = None) -> Tensor:
    """As tf.boolean_mask, reading the mask without blocking (awaited).

    Args:
        tensor: the tensor.
        mask: a bool tensor matching tensor's axes axis, axis + 1, ...
        axis: the first axis the mask covers (None: 0).

    Returns:
        A new Tensor.

    Example:
        >>> import asyncio
        >>> asyncio.run(tf.boolean_mask_async(tf.tensor([1, 2]), tf.tensor([False, True]))).print()
        Tensor
            [2]
    """
    t, m, ax = ENGINE.tidy(lambda: list(_mask_args(tensor, mask, axis, "boolean_mask_async")))
    try:
        values = await m.data()
        return ENGINE.tidy(lambda: _gather_true(t, values, ax))
    finally:
        t.dispose()
        m.dispose()


def _setdiff_args(x, y, name):
    x = convert_to_tensor(x, "x", name)
    y = convert_to_tensor(y, "y", name, x.dtype)
    if x.dtype != y.dtype:
        raise TypeError(f"{name}: arguments 'x' and 'y' must have the same dtype, got {x.dtype} and {y.dtype}")
    for arg, t in (("x", x), ("y", y)):
        if t.rank != 1:
            raise ValueError(f"{name}: argument '{arg}' must be a vector (rank 1), got shape {list(t.shape)}")
    return x, y


def _setdiff(x, x_values, y_values):
    drop = set(y_values)
    kept = [(v, i) for i, v in enumerate(x_values) if v not in drop]
    return [_new_tensor([v for v, _ in kept], [len(kept)], x.dtype),
            _new_tensor([i for _, i in kept], [len(kept)], "int32")]


def setdiff1d(x: TensorLike, y: TensorLike) -> List[Tensor]:
    """The values of x not in y, in x's order, and their indices in x (blocking).

    Args:
        x: a rank-1 tensor.
        y: a rank-1 tensor of x's dtype.

    Returns:
        [values, indices], indices int32.

    Example:
        >>> values, indices = tf.setdiff1d(tf.tensor([1, 2, 3, 4]), tf.tensor([2, 4]))
        >>> values.print(); indices.print()
        Tensor
            [1, 3]
        Tensor
            [0, 2]
    """
    def run():
        a, b = _setdiff_args(x, y, "setdiff1d")
        return _setdiff(a, a.data_sync(), b.data_sync())
    return ENGINE.tidy(run)


async def setdiff1d_async(x: TensorLike, y: TensorLike) -> List[Tensor]:
    """As tf.setdiff1d, reading the values without blocking (awaited).

    Args:
        x: a rank-1 tensor.
        y: a rank-1 tensor of x's dtype.

    Returns:
        [values, indices], indices int32.

    Example:
        >>> import asyncio
        >>> values, indices = asyncio.run(tf.setdiff1d_async(tf.tensor([5, 6]), tf.tensor([5])))
        >>> indices.print()
        Tensor
            [1]
    """
    a, b = ENGINE.tidy(lambda: list(_setdiff_args(x, y, "setdiff1d_async")))
    try:
        a_values, b_values = await a.data(), await b.data()
        return ENGINE.tidy(lambda: _setdiff(a, a_values, b_values))
    finally:
        for t, given in ((a, x), (b, y)):
            if t is not given:
                t.dispose()
