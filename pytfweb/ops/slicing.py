"""Slicing ops: slice, strided_slice, gather, and `t[...]` (getitem), with TF.js 4.22 semantics.

Kernel contract (every backend):
  Slice         attrs {"begin": list, "size": list}, one entry per axis, 0 <= begin,
                0 <= size, begin + size <= shape
  StridedSlice  attrs {"begin": list, "end": list, "strides": list}, one entry per axis, no
                masks: output axis i has max(0, ceil((end - begin) / stride)) elements,
                element j taken at begin + j * stride. The op has already resolved masks,
                ellipsis and negative indices; begin/end are clamped (end may be -1 with a
                negative stride: "stop after index 0"). New and shrunk axes are a Reshape after.
  GatherV2      inputs x, indices (int32); attrs {"axis": int in [0, rank), "batch_dims": int
                in [0, axis]}, x.shape[:batch_dims] == indices.shape[:batch_dims]. Output
                x.shape[:axis] + indices.shape[batch_dims:] + x.shape[axis + 1:]. Index values
                are not checked by the op (that needs the data): the cpu kernel raises
                ValueError for one outside [0, shape[axis]), as TF.js's cpu backend does.
"""
import builtins

from typing import Any, Optional, Sequence, Union

from ..core.engine import ENGINE, op
from ..core.tensor import Tensor
from ..core.types import TensorLike
from .creation import convert_to_tensor
from .shape import axis_of, int_list, is_int

__all__ = ["slice", "strided_slice", "gather", "getitem"]

_NEW_AXIS, _SHRINK_AXIS = -2, -1   # markers in the list of output axes (as in TF.js's slice_util)


@op
def slice(x: TensorLike, begin: Union[int, Sequence[int]],  # noqa: A001 - TF.js name
          size: Union[int, Sequence[int], None] = None) -> Tensor:
    """A block of x: size[i] elements from begin[i] along each axis.

    Args:
        x: the tensor (or a value converted to one).
        begin: the start along each axis; an int, or a list shorter than the rank, covers the first
            axes (the rest begin at 0).
        size: the length along each axis; -1 (or a missing entry) means "to the end" (None: all).

    Returns:
        A new Tensor.

    Example:
        >>> tf.slice(tf.tensor([[1, 2, 3], [4, 5, 6]]), [0, 1], [2, 2]).print()
        Tensor
            [[2, 3],
             [5, 6]]
    """
    name = "slice"
    x = convert_to_tensor(x, "x", name)
    rank = x.rank
    if rank == 0:
        raise ValueError(f"{name}: argument 'x' must have rank >= 1 (a scalar cannot be sliced)")
    begin = [begin] if is_int(begin) else int_list(begin, name, "begin")
    size = [-1] * rank if size is None else [size] if is_int(size) else int_list(size, name, "size")
    for arg, v in (("begin", begin), ("size", size)):
        if len(v) > rank:
            raise ValueError(f"{name}: argument '{arg}' {v} has more entries than 'x' has axes ({rank})")
    begin = begin + [0] * (rank - len(begin))
    size = size + [-1] * (rank - len(size))
    for i, (b, dim) in enumerate(zip(begin, x.shape)):
        if not 0 <= b <= dim:
            raise ValueError(f"{name}: begin[{i}] = {b} is out of range for axis {i} of 'x' (size {dim}); "
                             f"expected 0 <= begin[{i}] <= {dim}")
        if size[i] == -1:
            size[i] = dim - b
        elif size[i] < 0 or b + size[i] > dim:
            raise ValueError(f"{name}: size[{i}] = {size[i]} must be -1 or in [0, {dim - b}] (begin[{i}] = {b}, "
                             f"axis {i} of 'x' has size {dim})")
    return ENGINE.run_kernel("Slice", [x], {"begin": begin, "size": size})


@op
def strided_slice(x: TensorLike, begin: Sequence[int], end: Sequence[int], strides: Optional[Sequence[int]] = None,
                  begin_mask: int = 0, end_mask: int = 0, ellipsis_mask: int = 0, new_axis_mask: int = 0,
                  shrink_axis_mask: int = 0) -> Tensor:
    """x[begin:end:strides], one entry per axis, as TF.js's stridedSlice.

    Bit i of a mask applies to entry i.

    Args:
        x: the tensor (or a value converted to one).
        begin: the start of each entry (negative counts from the end).
        end: the end of each entry, excluded.
        strides: the step of each entry (None: 1).
        begin_mask: bit i set ignores begin[i] (the full range from the start).
        end_mask: bit i set ignores end[i] (the full range to the end).
        ellipsis_mask: bit i set makes entry i an ellipsis (every remaining axis).
        new_axis_mask: bit i set inserts an axis of length 1.
        shrink_axis_mask: bit i set takes index begin[i] and drops the axis.

    Returns:
        A new Tensor.

    Example:
        >>> tf.strided_slice(tf.tensor([0, 1, 2, 3, 4, 5]), [1], [6], [2]).print()
        Tensor
            [1, 3, 5]
    """
    name = "strided_slice"
    x = convert_to_tensor(x, "x", name)
    begin = int_list(begin, name, "begin")
    end = int_list(end, name, "end")
    strides = [1] * len(begin) if strides is None else int_list(strides, name, "strides")
    if not len(begin) == len(end) == len(strides):
        raise ValueError(f"{name}: arguments 'begin', 'end' and 'strides' must have the same length, got "
                         f"{begin}, {end} and {strides}")
    if 0 in strides:
        raise ValueError(f"{name}: argument 'strides' must not contain 0, got {strides}")
    masks = {"begin_mask": begin_mask, "end_mask": end_mask, "ellipsis_mask": ellipsis_mask,
             "new_axis_mask": new_axis_mask, "shrink_axis_mask": shrink_axis_mask}
    for arg, m in masks.items():
        if not is_int(m):
            raise TypeError(f"{name}: argument '{arg}' must be an int bit mask, got {type(m).__name__}")
        if m.__index__() < 0:
            raise ValueError(f"{name}: argument '{arg}' must be a non-negative bit mask, got {m}")
    return _strided_slice(x, begin, end, strides, *(m.__index__() for m in masks.values()), name=name)


def _strided_slice(x, begin, end, strides, begin_mask, end_mask, ellipsis_mask, new_axis_mask,
                   shrink_axis_mask, name):
    begin, end, strides, out_shape = _dense_spec(x.shape, begin, end, strides, begin_mask, end_mask,
                                                 ellipsis_mask, new_axis_mask, shrink_axis_mask, name)
    if all(s == 1 and b == 0 and e == d for b, e, s, d in zip(begin, end, strides, x.shape)):
        sliced = x                  # everything is taken: only the shape may change
    elif all(s == 1 for s in strides):
        size = [max(0, e - b) for b, e in zip(begin, end)]
        sliced = ENGINE.run_kernel("Slice", [x], {"begin": begin, "size": size})
    else:
        sliced = ENGINE.run_kernel("StridedSlice", [x], {"begin": begin, "end": end, "strides": strides})
    if sliced is x or sliced.shape != out_shape:
        return ENGINE.run_kernel("Reshape", [sliced], {"shape": out_shape})
    return sliced


def _dense_spec(shape, begin, end, strides, begin_mask, end_mask, ellipsis_mask, new_axis_mask,
                shrink_axis_mask, name):
    """TF.js's sliceInfo (a port of TensorFlow's strided-slice validation), for given begin and end:
    the sparse spec (entries may be an ellipsis or a new axis) made dense, one entry per axis of
    x, with masks and negative indices resolved. Returns (begin, end, strides, output shape)."""
    if ellipsis_mask & (ellipsis_mask - 1):
        raise ValueError(f"{name}: argument 'ellipsis_mask' = {ellipsis_mask} has more than one bit set "
                         f"(at most one ellipsis is allowed)")
    rank, n = len(shape), len(strides)
    # An ellipsis expands to the axes left over; new axes after it are not axes of x.
    new_after_ellipsis = 0
    for i in range(n):
        if ellipsis_mask >> i & 1:
            new_after_ellipsis = sum(new_axis_mask >> j & 1 for j in range(i + 1, n))
            break
    else:
        ellipsis_mask |= 1 << n     # no ellipsis: one at the end takes the remaining axes
        n += 1

    d_begin, d_end, d_strides = [0] * rank, [0] * rank, [1] * rank
    d_begin_mask = d_end_mask = d_shrink = 0
    gather = []                     # per output axis: an axis of x, _NEW_AXIS or _SHRINK_AXIS
    axis = 0
    for i in range(n):
        if ellipsis_mask >> i & 1:
            stop = min(rank - (n - i) + 1 + new_after_ellipsis, rank)
            for a in range(axis, stop):
                d_begin_mask |= 1 << a
                d_end_mask |= 1 << a
                gather.append(a)
            axis = max(axis, stop)
        elif new_axis_mask >> i & 1:
            gather.append(_NEW_AXIS)
        else:
            if axis == rank:
                raise ValueError(f"{name}: the slice spec indexes more axes than 'x' has (rank {rank})")
            d_begin[axis], d_end[axis], d_strides[axis] = begin[i], end[i], strides[i]
            d_begin_mask |= (begin_mask >> i & 1) << axis
            d_end_mask |= (end_mask >> i & 1) << axis
            if shrink_axis_mask >> i & 1:
                d_shrink |= 1 << axis
                gather.append(_SHRINK_AXIS)
            else:
                gather.append(axis)
            axis += 1

    sizes = []
    for a, dim in enumerate(shape):
        b, e, s = d_begin[a], d_end[a], d_strides[a]
        if d_shrink >> a & 1:
            if s < 0:
                raise ValueError(f"{name}: a shrunk axis (index {b} of axis {a}) needs a positive stride, got {s}")
            index = b + dim if b < 0 else b
            if not 0 <= index < dim:
                raise ValueError(f"{name}: index {b} is out of bounds for axis {a} with size {dim}")
            b, e = index, index + 1
        else:
            # Clamp into the valid range; a masked bound is that range's far end.
            lo, hi = (0, dim) if s > 0 else (-1, dim - 1)
            b = (lo if s > 0 else hi) if d_begin_mask >> a & 1 else min(max(b + dim if b < 0 else b, lo), hi)
            e = (hi if s > 0 else lo) if d_end_mask >> a & 1 else min(max(e + dim if e < 0 else e, lo), hi)
        d_begin[a], d_end[a] = b, e
        sizes.append(max(0, -((b - e) // s)))      # ceil((e - b) / s), 0 for an empty interval
    out_shape = tuple(1 if g == _NEW_AXIS else sizes[g] for g in gather if g != _SHRINK_AXIS)
    return d_begin, d_end, d_strides, out_shape


@op
def getitem(x: TensorLike, key: Any) -> Tensor:
    """`t[key]`: numpy basic indexing, built on strided_slice.

    Ints (negative count from the end), slices with any step, None (a new axis of length 1) and
    one Ellipsis are accepted.

    Args:
        x: the tensor (or a value converted to one).
        key: an int, slice, None, Ellipsis, or a tuple of them.

    Returns:
        A new Tensor.

    Raises:
        IndexError: an int out of range, or more indices than axes.

    Example:
        >>> t = tf.tensor([[1, 2, 3], [4, 5, 6]])
        >>> t[1, ::-1].print()
        Tensor
            [6, 5, 4]
        >>> tf.getitem(t, (..., 0)).print()
        Tensor
            [1, 4]
    """
    name = "getitem"
    x = convert_to_tensor(x, "x", name)
    key = key if isinstance(key, tuple) else (key,)
    begin, end, strides = [], [], []
    begin_mask = end_mask = ellipsis_mask = new_axis_mask = shrink_axis_mask = 0
    indexed = 0                     # entries that consume an axis of x
    for i, k in enumerate(key):
        bit = 1 << i
        if k is None:
            new_axis_mask |= bit
            k = builtins.slice(None)
        elif k is Ellipsis:
            if ellipsis_mask:
                raise IndexError(f"{name}: an index can only have a single ellipsis ('...')")
            ellipsis_mask |= bit
            k = builtins.slice(None)
        elif isinstance(k, Tensor) and k.rank:
            raise TypeError(f"{name}: a tensor index must be a scalar, got shape {list(k.shape)}; "
                            f"use tf.gather to index with a tensor of indices")
        elif is_int(k):
            shrink_axis_mask |= bit
            indexed += 1
            k = k.__index__()
            begin.append(k)
            end.append(k + 1)
            strides.append(1)
            continue
        elif isinstance(k, builtins.slice):
            indexed += 1
        else:
            raise TypeError(f"{name}: indices must be ints, slices, None or Ellipsis, got {type(k).__name__} "
                            f"({k!r}); use tf.gather for lists or tensors of indices")
        for part in ("start", "stop", "step"):
            v = getattr(k, part)
            if v is not None and not is_int(v):
                raise TypeError(f"{name}: slice {part} must be an int or None, got {v!r}")
        step = 1 if k.step is None else k.step.__index__()
        if step == 0:
            raise ValueError(f"{name}: slice step cannot be zero")
        begin_mask |= bit if k.start is None else 0
        end_mask |= bit if k.stop is None else 0
        begin.append(0 if k.start is None else k.start.__index__())
        end.append(0 if k.stop is None else k.stop.__index__())
        strides.append(step)
    if indexed > x.rank:
        raise IndexError(f"{name}: too many indices for a tensor of rank {x.rank}: {indexed} were indexed")
    try:
        return _strided_slice(x, begin, end, strides, begin_mask, end_mask, ellipsis_mask, new_axis_mask,
                              shrink_axis_mask, name=name)
    except ValueError as exc:       # an int index out of range: Python's indexing error
        raise IndexError(str(exc)) from None


@op
def gather(x: TensorLike, indices: TensorLike, axis: int = 0, batch_dims: int = 0) -> Tensor:
    """The slices of x along an axis at the given indices.

    Args:
        x: the tensor (or a value converted to one).
        indices: int32 indices into axis (a tensor of any shape).
        axis: the axis to gather along.
        batch_dims: the first batch_dims axes of x and indices are batch axes, gathered pairwise.

    Returns:
        A Tensor of shape x.shape[:axis] + indices.shape + x.shape[axis + 1:].

    Example:
        >>> tf.gather(tf.tensor([10, 20, 30]), tf.tensor([2, 0], dtype="int32")).print()
        Tensor
            [30, 10]
    """
    name = "gather"
    x = convert_to_tensor(x, "x", name)
    indices = convert_to_tensor(indices, "indices", name, "int32")
    if indices.dtype != "int32":
        raise TypeError(f"{name}: argument 'indices' must be an int32 tensor, got {indices.dtype}")
    axis = axis_of(axis, x, name)
    if not is_int(batch_dims):
        raise TypeError(f"{name}: argument 'batch_dims' must be an int, got {type(batch_dims).__name__}")
    batch_dims = batch_dims.__index__()
    if not -indices.rank <= batch_dims <= indices.rank:
        raise ValueError(f"{name}: argument 'batch_dims' = {batch_dims} must be in [{-indices.rank}, "
                         f"{indices.rank}] (the rank of 'indices')")
    if batch_dims < 0:
        batch_dims += indices.rank
    if batch_dims > axis:
        raise ValueError(f"{name}: argument 'batch_dims' = {batch_dims} must be <= axis ({axis})")
    if x.shape[:batch_dims] != indices.shape[:batch_dims]:
        raise ValueError(f"{name}: the first batch_dims = {batch_dims} axes of 'x' (shape {list(x.shape)}) "
                         f"and 'indices' (shape {list(indices.shape)}) must be equal")
    return ENGINE.run_kernel("GatherV2", [x, indices], {"axis": axis, "batch_dims": batch_dims})
