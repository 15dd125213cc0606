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
def sum(x, axis=None, keep_dims=False):  # noqa: A001 - TF.js name
    """tf.sum: the sum over axis (None: all axes); bool sums count as int32."""
    return _reduce("Sum", "sum", x, axis, keep_dims, sum_out_type)


@op
def prod(x, axis=None, keep_dims=False):
    """tf.prod: the product over axis (None: all axes); bool counts as int32. int32 wraps."""
    return _reduce("Prod", "prod", x, axis, keep_dims, sum_out_type)


@op
def mean(x, axis=None, keep_dims=False):
    """tf.mean: the mean over axis (None: all axes), always float32."""
    return _reduce("Mean", "mean", x, axis, keep_dims, lambda dtype: "float32")


@op
def max(x, axis=None, keep_dims=False):  # noqa: A001 - TF.js name
    """tf.max: the maximum over axis (None: all axes), dtype kept; NaN wins."""
    return _reduce("Max", "max", x, axis, keep_dims)


@op
def min(x, axis=None, keep_dims=False):  # noqa: A001 - TF.js name
    """tf.min: the minimum over axis (None: all axes), dtype kept; NaN wins."""
    return _reduce("Min", "min", x, axis, keep_dims)


def _logical(kernel, op_name, x, axis, keep_dims):
    # Python values are read as bool (so [1, 0] works, as in TF.js); tensors must be bool.
    x = convert_to_tensor(x, "x", op_name, "bool")
    if x.dtype != "bool":
        raise TypeError(f"{op_name}: argument 'x' must be a bool tensor, got {x.dtype}")
    return _reduce(kernel, op_name, x, axis, keep_dims)


@op
def all(x, axis=None, keep_dims=False):  # noqa: A001 - TF.js name
    """tf.all: logical AND over axis (None: all axes) of a bool tensor."""
    return _logical("All", "all", x, axis, keep_dims)


@op
def any(x, axis=None, keep_dims=False):  # noqa: A001 - TF.js name
    """tf.any: logical OR over axis (None: all axes) of a bool tensor."""
    return _logical("Any", "any", x, axis, keep_dims)


def _arg_reduce(kernel, op_name, x, axis):
    x = convert_to_tensor(x, "x", op_name)
    if x.rank == 0:
        raise ValueError(f"{op_name}: argument 'x' must have rank >= 1, got a rank-0 tensor")
    axis = normalize_axis(axis, x.rank, op_name)
    return ENGINE.run_kernel(kernel, [x], {"axis": axis})


@op
def arg_max(x, axis=0):
    """tf.arg_max: int32 indices of the maxima along axis (first on ties; NaN only at index 0)."""
    return _arg_reduce("ArgMax", "arg_max", x, axis)


@op
def arg_min(x, axis=0):
    """tf.arg_min: int32 indices of the minima along axis (first on ties; NaN only at index 0)."""
    return _arg_reduce("ArgMin", "arg_min", x, axis)
