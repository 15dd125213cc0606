"""Shape ops: reshape, transpose, expand_dims, squeeze, concat, stack, unstack, split, tile, pad,
reverse, broadcast_to (TF.js 4.22 semantics).

Kernel contract (every backend). The ops resolve every argument first, so that kernels never
see a negative axis, a -1 size, a default or an empty input they would have to special-case:
  Reshape    attrs {"shape": tuple}: relabels the data (shared kernel, no copy); also used by
             expand_dims and squeeze
  Transpose  attrs {"perm": list}, a permutation of range(rank) that is not the identity
  Concat     inputs >= 2 non-empty tensors of one rank and dtype, equal outside axis;
             attrs {"axis": int in [0, rank)}
  Pack       inputs >= 2 tensors of one shape and dtype; attrs {"axis": int in [0, rank]}
  Unpack     attrs {"axis": int in [0, rank)}; returns shape[axis] tensors
  SplitV     attrs {"size_splits": list of non-negative ints summing to shape[axis],
             "axis": int in [0, rank)}; returns len(size_splits) tensors
  Tile       attrs {"reps": list of non-negative ints, one per axis, not all 1}
  PadV2      attrs {"paddings": [[before, after], ...] non-negative, one pair per axis,
             "constant_value": a number already coerced to x's dtype}
  Reverse    attrs {"dims": sorted, distinct, non-empty list of axes}
Every output has its input's dtype.
"""
from typing import List, Optional, Sequence, Union

from ..core import tensor_values as _conv
from ..core.engine import ENGINE, op
from ..core.limits import check_elements
from ..core.shapes import check_shape, infer_reshape, normalize_axes, normalize_axis, squeeze_shape
from ..core.tensor import Tensor
from ..core.types import Axis, Shape, TensorLike
from .creation import cast, convert_to_tensor, zeros

__all__ = ["reshape", "transpose", "expand_dims", "squeeze", "concat", "stack", "unstack", "split",
           "tile", "pad", "reverse", "broadcast_to"]


# --- argument helpers (also used by ops/slicing.py) -------------------------------------

def is_int(v):
    """An int-like index (numpy ints, 0-d int tensors) and not a bool."""
    if isinstance(v, Tensor):   # (every Tensor has __index__; only a 0-d int32 one is an int)
        return v.dtype == "int32" and not v.shape
    return not isinstance(v, bool) and hasattr(v, "__index__")


def int_list(values, name, arg):
    """values, a sequence of ints, as a list of Python ints; TypeError naming op and argument."""
    if isinstance(values, (str, bytes, Tensor)) or not hasattr(values, "__iter__"):
        raise TypeError(f"{name}: argument '{arg}' must be a sequence of ints, got {type(values).__name__}")
    values = list(values)
    for v in values:
        if not is_int(v):
            raise TypeError(f"{name}: argument '{arg}' must contain ints, got {v!r} in {values}")
    return [v.__index__() for v in values]


def axis_of(axis, x, name, arg="axis"):
    """One axis of x in [0, rank). Unlike shapes.normalize_axis (which lets axis 0 name a
    scalar's single element), a scalar has no axis here, as in TF.js's parseAxisParam."""
    if x.rank == 0:
        raise ValueError(f"{name}: argument 'x' must have rank >= 1 to take '{arg}' = {axis!r}, "
                         f"got a scalar")
    return normalize_axis(axis, x.rank, name, arg)


def _axes_of(axis, x, name):
    """shapes.normalize_axes for x, with axis_of's rule for scalars."""
    if x.rank == 0 and axis is not None and (not isinstance(axis, (list, tuple)) or axis):
        axis_of(axis, x, name)  # raises
    return normalize_axes(axis, x.rank, name)


def _new_axis(axis, rank, name):
    """An axis of a result one rank larger (expand_dims, stack): [-(rank+1), rank] -> [0, rank]."""
    if not is_int(axis):
        raise TypeError(f"{name}: argument 'axis' must be an int, got {type(axis).__name__}")
    axis = axis.__index__()
    if not -(rank + 1) <= axis <= rank:
        raise ValueError(f"{name}: argument 'axis' = {axis} is out of range for inserting an axis into a "
                         f"tensor of rank {rank} (expected {-(rank + 1)} <= axis <= {rank})")
    return axis % (rank + 1)


def _tensor_list(tensors, name, same_dtype=True):
    """TF.js convertToTensorArray: values convert to the dtype of the first Tensor in the list;
    then (same_dtype) every entry must share one dtype."""
    if isinstance(tensors, Tensor) or not isinstance(tensors, (list, tuple)):
        raise TypeError(f"{name}: argument 'tensors' must be a list of tensors, got {type(tensors).__name__}")
    if not tensors:
        raise ValueError(f"{name}: argument 'tensors' must contain at least one tensor, got an empty list")
    dtype = next((t.dtype for t in tensors if isinstance(t, Tensor)), None)
    out = [convert_to_tensor(t, f"tensors[{i}]", name, dtype) for i, t in enumerate(tensors)]
    for i, t in enumerate(out if same_dtype else ()):
        if t.dtype != out[0].dtype:
            raise TypeError(f"{name}: all tensors must have the same dtype; tensors[{i}] is {t.dtype}, "
                            f"tensors[0] is {out[0].dtype}")
    return out


def _reshape(x, shape):
    return ENGINE.run_kernel("Reshape", [x], {"shape": tuple(shape)})


# --- relabelling: no data moves ---------------------------------------------------------

@op
def reshape(x: TensorLike, shape: Shape) -> Tensor:
    """The same values in a new shape.

    Args:
        x: the tensor (or a value converted to one).
        shape: the new shape, of x's size; one dimension may be -1 (inferred).

    Returns:
        A Tensor of shape sharing x's data.

    Example:
        >>> tf.reshape(tf.tensor([1, 2, 3, 4, 5, 6]), [2, -1]).print()
        Tensor
            [[1, 2, 3],
             [4, 5, 6]]
    """
    x = convert_to_tensor(x, "x", "reshape")
    return _reshape(x, infer_reshape(int_list(shape, "reshape", "shape"), x.size, "reshape"))


@op
def expand_dims(x: TensorLike, axis: int = 0) -> Tensor:
    """Insert an axis of length 1.

    Args:
        x: the tensor (or a value converted to one).
        axis: where the new axis goes, in [-(rank+1), rank].

    Returns:
        A Tensor of rank x.rank + 1 sharing x's data.

    Example:
        >>> tf.expand_dims(tf.tensor([1, 2]), 1).shape
        (2, 1)
    """
    x = convert_to_tensor(x, "x", "expand_dims")
    axis = _new_axis(axis, x.rank, "expand_dims")
    return ENGINE.run_kernel("ExpandDims", [x], {"dim": axis})


@op
def squeeze(x: TensorLike, axis: Optional[Sequence[int]] = None) -> Tensor:
    """Drop axes of length 1.

    Args:
        x: the tensor (or a value converted to one).
        axis: the axes to drop, each of length 1 (None or []: every axis of length 1).

    Returns:
        A Tensor sharing x's data.

    Example:
        >>> tf.squeeze(tf.zeros([1, 3, 1])).shape
        (3,)
    """
    name = "squeeze"
    x = convert_to_tensor(x, "x", name)
    if axis is None or (isinstance(axis, (list, tuple)) and not axis):
        return _reshape(x, squeeze_shape(x.shape)[0])
    axes = _axes_of(axis, x, name)
    for a in axes:
        if x.shape[a] != 1:
            raise ValueError(f"{name}: cannot squeeze axis {a} of 'x' (shape {list(x.shape)}): its size is "
                             f"{x.shape[a]}, not 1")
    return _reshape(x, squeeze_shape(x.shape, axes)[0])


# --- moving data ------------------------------------------------------------------------

@op
def transpose(x: TensorLike, perm: Optional[Sequence[int]] = None, conjugate: bool = False) -> Tensor:
    """Permute the axes of x.

    Args:
        x: the tensor (or a value converted to one).
        perm: the new order of the axes (None: reversed).
        conjugate: also conjugate a complex64 x (other dtypes ignore it).

    Returns:
        A Tensor whose axis i is x's axis perm[i].

    Example:
        >>> tf.transpose(tf.tensor([[1, 2, 3], [4, 5, 6]])).print()
        Tensor
            [[1, 4],
             [2, 5],
             [3, 6]]
    """
    name = "transpose"
    x = convert_to_tensor(x, "x", name)
    identity = list(range(x.rank))
    if perm is None:
        perm = identity[::-1]
    else:
        perm = int_list(perm, name, "perm")
        if sorted(perm) != identity:
            raise ValueError(f"{name}: argument 'perm' must be a permutation of {identity} for a tensor of "
                             f"rank {x.rank}, got {perm}")
    out = ENGINE.run_kernel("Identity" if perm == identity else "Transpose", [x],
                            {} if perm == identity else {"perm": perm})
    if conjugate and x.dtype == "complex64":
        # the kernels themselves (the op is inside its scope: the parts are disposed with it)
        imag = ENGINE.run_kernel("Neg", [ENGINE.run_kernel("Imag", [out])])
        out = ENGINE.run_kernel("Complex", [ENGINE.run_kernel("Real", [out]), imag])
    return out


@op
def concat(tensors: Sequence[TensorLike], axis: int = 0) -> Tensor:
    """Join tensors along an existing axis.

    A single tensor is returned as a clone. Tensors of other dtypes are cast to the first one's, as
    TF.js's kernels copy their values into the first tensor's typed array (string and complex64
    tensors only join their own kind).

    Args:
        tensors: the tensors, of one rank and equal shapes except along axis.
        axis: the axis to join along (negative counts from the end).

    Returns:
        A new Tensor.

    Example:
        >>> tf.concat([tf.tensor([[1, 2]]), tf.tensor([[3, 4]])], 1).print()
        Tensor
            [[1, 2, 3, 4]]
    """
    name = "concat"
    tensors = _tensor_list(tensors, name, same_dtype=False)
    first = tensors[0]
    for i, t in enumerate(tensors):
        if t.dtype != first.dtype and ({t.dtype, first.dtype} & {"string", "complex64"}):
            raise TypeError(f"{name}: cannot join a {t.dtype} tensor (tensors[{i}]) with {first.dtype} "
                            f"tensors[0]")
    if len(tensors) == 1:
        return ENGINE.run_kernel("Identity", [first])
    axis = axis_of(axis, first, name)
    for i, t in enumerate(tensors):
        if t.rank != first.rank:
            raise ValueError(f"{name}: all tensors must have the same rank; tensors[{i}] has rank {t.rank}, "
                             f"tensors[0] has rank {first.rank}")
        if any(d != f for a, (d, f) in enumerate(zip(t.shape, first.shape)) if a != axis):
            raise ValueError(f"{name}: tensors[{i}] has shape {list(t.shape)}, which does not match the shape "
                             f"{list(first.shape)} of tensors[0] outside axis {axis}")
    out_shape = list(first.shape)
    out_shape[axis] = sum(t.shape[axis] for t in tensors)
    # Empty inputs add nothing: keep them away from the kernels, as TF.js's backends do.
    non_empty = [t for t in tensors if t.size]
    if not non_empty:
        return zeros(out_shape, first.dtype)
    if len(non_empty) == 1:
        return ENGINE.run_kernel("Identity", non_empty)
    if any(t.dtype != first.dtype for t in non_empty):
        non_empty = [cast(t, first.dtype) for t in non_empty]
    return ENGINE.run_kernel("Concat", non_empty, {"axis": axis})


@op
def stack(tensors: Sequence[TensorLike], axis: int = 0) -> Tensor:
    """Join tensors of one shape along a new axis.

    Args:
        tensors: the tensors, all of one shape and dtype.
        axis: where the new axis goes, in [-(rank+1), rank].

    Returns:
        A new Tensor of rank one more than the inputs'.

    Example:
        >>> tf.stack([tf.tensor([1, 2]), tf.tensor([3, 4])], 1).print()
        Tensor
            [[1, 3],
             [2, 4]]
    """
    name = "stack"
    tensors = _tensor_list(tensors, name)
    first = tensors[0]
    axis = _new_axis(axis, first.rank, name)
    for i, t in enumerate(tensors):
        if t.shape != first.shape:
            raise ValueError(f"{name}: all tensors must have the same shape; tensors[{i}] has shape "
                             f"{list(t.shape)}, tensors[0] has shape {list(first.shape)}")
    if len(tensors) == 1:
        return _reshape(first, first.shape[:axis] + (1,) + first.shape[axis:])
    return ENGINE.run_kernel("Pack", tensors, {"axis": axis})


@op
def unstack(x: TensorLike, axis: int = 0) -> List[Tensor]:
    """The slices of x along an axis, each without that axis (the inverse of tf.stack).

    Args:
        x: the tensor (or a value converted to one).
        axis: the axis to take slices along.

    Returns:
        A list of x.shape[axis] Tensors.

    Example:
        >>> [t.array_sync() for t in tf.unstack(tf.tensor([[1, 2], [3, 4]]))]
        [[1.0, 2.0], [3.0, 4.0]]
    """
    x = convert_to_tensor(x, "x", "unstack")
    return ENGINE.run_kernel("Unpack", [x], {"axis": axis_of(axis, x, "unstack")})


@op
def split(x: TensorLike, num_or_size_splits: Union[int, Sequence[int]], axis: int = 0) -> List[Tensor]:
    """Cut x into parts along an axis.

    Args:
        x: the tensor (or a value converted to one).
        num_or_size_splits: an int n cuts the axis into n equal parts; a list gives the parts'
            sizes, one of which may be -1 (the rest).
        axis: the axis to cut.

    Returns:
        A list of Tensors.

    Example:
        >>> a, b = tf.split(tf.tensor([1, 2, 3, 4, 5]), [2, -1])
        >>> b.print()
        Tensor
            [3, 4, 5]
    """
    name = "split"
    x = convert_to_tensor(x, "x", name)
    axis = axis_of(axis, x, name)
    dim = x.shape[axis]
    if is_int(num_or_size_splits):
        n = num_or_size_splits.__index__()
        if n <= 0 or dim % n:
            raise ValueError(f"{name}: argument 'num_or_size_splits' = {n} must be a positive int that evenly "
                             f"divides the size {dim} of axis {axis}")
        sizes = [dim // n] * n
    else:
        sizes = int_list(num_or_size_splits, name, "num_or_size_splits")
        given = list(sizes)
        if sizes.count(-1) > 1 or any(s < -1 for s in sizes):
            raise ValueError(f"{name}: argument 'num_or_size_splits' must hold non-negative sizes and at most "
                             f"one -1, got {given}")
        if -1 in sizes:
            sizes[sizes.index(-1)] = dim - sum(s for s in sizes if s != -1)
        if sum(sizes) != dim or any(s < 0 for s in sizes):
            raise ValueError(f"{name}: the sizes in argument 'num_or_size_splits' ({given}) must sum to the "
                             f"size {dim} of axis {axis}")
    return ENGINE.run_kernel("SplitV", [x], {"size_splits": sizes, "axis": axis})


@op
def tile(x: TensorLike, reps: Sequence[int]) -> Tensor:
    """Repeat x reps[i] times along each axis i.

    Args:
        x: the tensor (or a value converted to one).
        reps: one repetition count per axis of x.

    Returns:
        A Tensor of shape x.shape[i] * reps[i].

    Example:
        >>> tf.tile(tf.tensor([1, 2]), [3]).print()
        Tensor
            [1, 2, 1, 2, 1, 2]
    """
    name = "tile"
    x = convert_to_tensor(x, "x", name)
    reps = int_list(reps, name, "reps")
    if len(reps) != x.rank or any(r < 0 for r in reps):
        raise ValueError(f"{name}: argument 'reps' must hold one non-negative int per axis of 'x' "
                         f"(rank {x.rank}), got {reps}")
    check_elements([d * r for d, r in zip(x.shape, reps)], f"{name}: argument 'reps'")
    if all(r == 1 for r in reps):
        return ENGINE.run_kernel("Identity", [x])
    return ENGINE.run_kernel("Tile", [x], {"reps": reps})


@op
def pad(x: TensorLike, paddings: Sequence[Sequence[int]], constant_value: float = 0) -> Tensor:
    """Pad x with a constant.

    Args:
        x: the tensor (or a value converted to one).
        paddings: for each axis i, [before, after]: how many elements to add on each side.
        constant_value: the value of the added elements.

    Returns:
        A new Tensor.

    Example:
        >>> tf.pad(tf.tensor([1, 2]), [[1, 2]], 9).print()
        Tensor
            [9, 1, 2, 9, 9]
    """
    name = "pad"
    x = convert_to_tensor(x, "x", name)
    if x.rank == 0:
        raise ValueError(f"{name}: argument 'x' must have rank >= 1 (a scalar cannot be padded)")
    if isinstance(paddings, (str, bytes, Tensor)) or not hasattr(paddings, "__iter__"):
        raise TypeError(f"{name}: argument 'paddings' must be a list of [before, after] pairs, "
                        f"got {type(paddings).__name__}")
    pairs = [int_list(p, name, "paddings") for p in paddings]
    if len(pairs) != x.rank or any(len(p) != 2 or min(p) < 0 for p in pairs):
        raise ValueError(f"{name}: argument 'paddings' must hold one [before, after] pair of non-negative "
                         f"ints per axis of 'x' (rank {x.rank}), got {pairs}")
    check_elements([d + p[0] + p[1] for d, p in zip(x.shape, pairs)], f"{name}: argument 'paddings'")
    if isinstance(constant_value, Tensor) or not _conv._is_scalar(constant_value):
        raise TypeError(f"{name}: argument 'constant_value' must be a number, got {type(constant_value).__name__}")
    # The value as x's typed array would store it (TF.js fills the output buffer with it).
    value = _conv.fill_value(constant_value, x.dtype, name, "constant_value")
    return ENGINE.run_kernel("PadV2", [x], {"paddings": pairs, "constant_value": value})


@op
def reverse(x: TensorLike, axis: Axis = None) -> Tensor:
    """Reverse the order of the elements along axes.

    Args:
        x: the tensor (or a value converted to one).
        axis: the axis or axes to reverse (None: every axis).

    Returns:
        A new Tensor of x's shape.

    Example:
        >>> tf.reverse(tf.tensor([[1, 2], [3, 4]]), 1).print()
        Tensor
            [[2, 1],
             [4, 3]]
    """
    name = "reverse"
    x = convert_to_tensor(x, "x", name)
    dims = _axes_of(axis, x, name)
    if not dims:
        return ENGINE.run_kernel("Identity", [x])
    return ENGINE.run_kernel("Reverse", [x], {"dims": dims})


@op
def broadcast_to(x: TensorLike, shape: Shape) -> Tensor:
    """x repeated to a shape under broadcasting rules (leading 1s added, axes of length 1 repeated).

    Args:
        x: the tensor (or a value converted to one).
        shape: the target shape, broadcast-compatible with x's.

    Returns:
        A new Tensor of shape.

    Example:
        >>> tf.broadcast_to(tf.tensor([1, 2]), [2, 2]).print()
        Tensor
            [[1, 2],
             [1, 2]]
    """
    name = "broadcast_to"
    x = convert_to_tensor(x, "x", name)
    shape = check_shape(shape, name)
    check_elements(shape, f"{name}: argument 'shape'")
    if len(shape) < x.rank:
        raise ValueError(f"{name}: argument 'shape' {list(shape)} has fewer dimensions than 'x' "
                         f"(shape {list(x.shape)})")
    padded = (1,) * (len(shape) - x.rank) + x.shape
    reps = []
    for have, want in zip(padded, shape):
        if have != want and have != 1:
            raise ValueError(f"{name}: 'x' of shape {list(x.shape)} cannot be broadcast to shape {list(shape)}")
        reps.append(1 if have == want else want)
    if padded != x.shape:
        x = _reshape(x, padded)  # a temporary: @op disposes it
    return tile(x, reps)
