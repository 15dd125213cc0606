"""Reductions: sum, mean, prod, max, min, all, any over axes; arg_max, arg_min along one axis.

Kernel contract (every backend): Sum, Mean, Prod, Max, Min, All, Any take one tensor and
attrs {"axis": sorted list of distinct non-negative ints (possibly empty), "keep_dims": bool}
and return the input's dtype; the ops below cast first so that this holds:
  sum, prod  bool -> int32 (TF.js sumOutType)
  mean       int32/bool -> float32 (the kernel only ever sees float32)
  max, min   dtype kept, bool included (max = any, min = all, as TF.js's cpu backend does)
  all, any   input must be bool
Reducing an empty axis gives what TF.js 4.22's cpu backend gives: 0 for sum and mean, 1 for
prod, NaN for float32 max/min (int32 and bool: 0), False for any; all gives True (TF.js: False,
see README's deviations). max/min propagate NaN.
ArgMax, ArgMin take attrs {"axis": non-negative int} and return int32: TF.js's scan, which keeps
the first value unless a later one is strictly better, so ties give the first index, a NaN at
index 0 wins and NaN elsewhere never does; an empty axis gives 0.
"""
from ..core.dtypes import sum_out_type
from ..core.tensor import Tensor
from ..core.types import Axis, TensorLike
from ..core.engine import ENGINE, op
from ..core.shapes import normalize_axes, normalize_axis
from .creation import convert_to_tensor, refuse_complex
from .creation import cast

__all__ = ["sum", "mean", "prod", "max", "min", "all", "any", "arg_max", "arg_min"]


def reduction_axes(axis, rank, op_name):
    """axis (None, int or sequence) as the kernel's sorted list of non-negative axes. A rank-0
    tensor has no axis to name (TF.js's parseAxisParam: axis 0 is out of range [-0, 0))."""
    if rank == 0 and axis is not None and (not isinstance(axis, (list, tuple)) or len(axis)):
        raise ValueError(f"{op_name}: argument 'axis' = {axis!r} is out of range for a rank-0 tensor "
                         f"(it has no axes)")
    return normalize_axes(axis, rank, op_name)


def _check_keep_dims(keep_dims, op_name):
    if not isinstance(keep_dims, bool):
        raise TypeError(f"{op_name}: argument 'keep_dims' must be a bool, got {type(keep_dims).__name__}")


def _reduce(kernel, op_name, x, axis, keep_dims, input_dtype=None):
    """Run a reduction kernel; input_dtype(x.dtype) gives the dtype the kernel must see."""
    x = convert_to_tensor(x, "x", op_name)
    if kernel in ("Max", "Prod"):   # no complex order or product on any backend (as TF.js)
        refuse_complex(x, "x", op_name)
    _check_keep_dims(keep_dims, op_name)
    attrs = {"axis": reduction_axes(axis, x.rank, op_name), "keep_dims": keep_dims}
    if input_dtype is not None and input_dtype(x.dtype) != x.dtype:
        x = cast(x, input_dtype(x.dtype))  # a temporary: @op disposes it
    return ENGINE.run_kernel(kernel, [x], attrs)


@op
def sum(x: TensorLike, axis: Axis = None, keep_dims: bool = False) -> Tensor:  # noqa: A001 - TF.js name
    """The sum of x's elements over axis.

    Args:
        x: the input tensor (or a value converted to one).
        axis: the axis or axes to reduce (negative counts from the end; None: all of them).
        keep_dims: keep each reduced axis with length 1.

    Returns:
        A Tensor of x's dtype (bool sums count as int32).

    Example:
        >>> tf.sum(tf.tensor([[1, 2], [3, 4]]), axis=0).print()
        Tensor
            [4, 6]
    """
    return _reduce("Sum", "sum", x, axis, keep_dims, sum_out_type)


@op
def prod(x: TensorLike, axis: Axis = None, keep_dims: bool = False) -> Tensor:
    """The product of x's elements over axis.

    Args:
        x: the input tensor (or a value converted to one).
        axis: the axis or axes to reduce (negative counts from the end; None: all of them).
        keep_dims: keep each reduced axis with length 1.

    Returns:
        A Tensor of x's dtype (bool counts as int32; int32 wraps).

    Example:
        >>> tf.prod(tf.tensor([[1, 2], [3, 4]]), axis=1).print()
        Tensor
            [2, 12]
    """
    return _reduce("Prod", "prod", x, axis, keep_dims, sum_out_type)


@op
def mean(x: TensorLike, axis: Axis = None, keep_dims: bool = False) -> Tensor:
    """The mean of x's elements over axis.

    Args:
        x: the input tensor (or a value converted to one).
        axis: the axis or axes to reduce (negative counts from the end; None: all of them).
        keep_dims: keep each reduced axis with length 1.

    Returns:
        A Tensor of float32 (int32 and bool inputs are cast).

    Example:
        >>> tf.mean(tf.tensor([[1, 2], [3, 4]]), axis=1).print()
        Tensor
            [1.5, 3.5]
    """
    return _reduce("Mean", "mean", x, axis, keep_dims, lambda dtype: "float32")


@op
def max(x: TensorLike, axis: Axis = None, keep_dims: bool = False) -> Tensor:  # noqa: A001 - TF.js name
    """The maximum of x's elements over axis (NaN wins).

    Args:
        x: the input tensor (or a value converted to one).
        axis: the axis or axes to reduce (negative counts from the end; None: all of them).
        keep_dims: keep each reduced axis with length 1.

    Returns:
        A Tensor of x's dtype.

    Example:
        >>> tf.max(tf.tensor([[1, 5], [3, 4]]), axis=0).print()
        Tensor
            [3, 5]
    """
    return _reduce("Max", "max", x, axis, keep_dims)


@op
def min(x: TensorLike, axis: Axis = None, keep_dims: bool = False) -> Tensor:  # noqa: A001 - TF.js name
    """The minimum of x's elements over axis (NaN wins).

    Args:
        x: the input tensor (or a value converted to one).
        axis: the axis or axes to reduce (negative counts from the end; None: all of them).
        keep_dims: keep each reduced axis with length 1.

    Returns:
        A Tensor of x's dtype.

    Example:
        >>> tf.min(tf.tensor([[1, 5], [3, 4]]), axis=0).print()
        Tensor
            [1, 4]
    """
    return _reduce("Min", "min", x, axis, keep_dims)


def _logical(kernel, op_name, x, axis, keep_dims):
    # Python values are read as bool (so [1, 0] works, as in TF.js); tensors must be bool.
    x = convert_to_tensor(x, "x", op_name, "bool")
    if x.dtype != "bool":
        raise TypeError(f"{op_name}: argument 'x' must be a bool tensor, got {x.dtype}")
    return _reduce(kernel, op_name, x, axis, keep_dims)


@op
def all(x: TensorLike, axis: Axis = None, keep_dims: bool = False) -> Tensor:  # noqa: A001 - TF.js name
    """Logical AND of a bool tensor's elements over axis.

    Args:
        x: the input tensor (or a value converted to one).
        axis: the axis or axes to reduce (negative counts from the end; None: all of them).
        keep_dims: keep each reduced axis with length 1.

    Returns:
        A Tensor of bool.

    Example:
        >>> tf.all(tf.tensor([[True, False], [True, True]]), axis=1).print()
        Tensor
            [false, true]
    """
    return _logical("All", "all", x, axis, keep_dims)


@op
def any(x: TensorLike, axis: Axis = None, keep_dims: bool = False) -> Tensor:  # noqa: A001 - TF.js name
    """Logical OR of a bool tensor's elements over axis.

    Args:
        x: the input tensor (or a value converted to one).
        axis: the axis or axes to reduce (negative counts from the end; None: all of them).
        keep_dims: keep each reduced axis with length 1.

    Returns:
        A Tensor of bool.

    Example:
        >>> tf.any(tf.tensor([[True, False], [False, False]]), axis=1).print()
        Tensor
            [true, false]
    """
    return _logical("Any", "any", x, axis, keep_dims)


def _arg_reduce(kernel, op_name, x, axis):
    x = convert_to_tensor(x, "x", op_name)
    if x.rank == 0:
        raise ValueError(f"{op_name}: argument 'x' must have rank >= 1, got a rank-0 tensor")
    axis = normalize_axis(axis, x.rank, op_name)
    return ENGINE.run_kernel(kernel, [x], {"axis": axis})


@op
def arg_max(x: TensorLike, axis: int = 0) -> Tensor:
    """The index of the largest value along an axis (the first on ties; a NaN wins only at index 0).

    Args:
        x: the input tensor (or a value converted to one).
        axis: the axis to search (negative counts from the end).

    Returns:
        An int32 Tensor of x's shape without axis.

    Example:
        >>> tf.arg_max(tf.tensor([[1, 9, 3], [7, 2, 7]]), 1).print()
        Tensor
            [1, 0]
    """
    return _arg_reduce("ArgMax", "arg_max", x, axis)


@op
def arg_min(x: TensorLike, axis: int = 0) -> Tensor:
    """The index of the smallest value along an axis (the first on ties; a NaN wins only at index 0).

    Args:
        x: the input tensor (or a value converted to one).
        axis: the axis to search (negative counts from the end).

    Returns:
        An int32 Tensor of x's shape without axis.

    Example:
        >>> tf.arg_min(tf.tensor([[1, 9, 3], [7, 2, 2]]), 1).print()
        Tensor
            [0, 1]
    """
    return _arg_reduce("ArgMin", "arg_min", x, axis)
