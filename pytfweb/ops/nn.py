"""Neural-network helpers: softmax, log_softmax, log_sum_exp, moments, one_hot.

Kernel contracts (every backend):
  Softmax     float32 logits of rank >= 1, attrs {"dim": rank - 1}: always the last axis.
  LogSoftmax  float32 logits of rank >= 1, attrs {"axis": rank - 1}: always the last axis.
              Both subtract the row's maximum first, so large logits do not overflow.
  OneHot      int32 indices, attrs {"depth": int >= 1, "on_value": float, "off_value": float,
              "dtype": str}; output shape indices.shape + [depth]; an index outside
              [0, depth) gives a row of off_value.
softmax and log_softmax work along the last axis only, as TF.js's (another axis is an error);
softmax takes float32 tensors only (TF.js's), log_softmax reads int32 and bool as float32.
"""
from typing import Any, NamedTuple

from ..core.dtypes import check_dtype
from ..core.engine import ENGINE, op
from ..core.limits import check_elements
from ..core.shapes import normalize_axis
from ..core.tensor import Tensor
from ..core.types import Axis, DType, TensorLike
from . import elementwise as ew
from .creation import cast, convert_to_tensor
from .reduction import max as reduce_max, mean, reduction_axes, sum as reduce_sum

__all__ = ["softmax", "log_softmax", "log_sum_exp", "moments", "one_hot"]


def _float_input(x, arg, op_name):
    # As the 'float' elementwise ops (exp, log): int32 and bool are read as float32.
    x = convert_to_tensor(x, arg, op_name)
    return x if x.dtype == "float32" else cast(x, "float32")


# The kernel directly: tf.reshape lives in ops/shape.py, written in parallel.
def _reshape(x, shape):
    return ENGINE.run_kernel("Reshape", [x], {"shape": list(shape)})


def _last_axis_kernel(kernel, attr, op_name, arg, logits, axis):
    """Run a kernel that works on the last axis of logits (TF.js supports no other)."""
    rank = logits.rank
    if rank == 0:
        raise ValueError(f"{op_name}: argument '{arg}' must have rank >= 1, got a rank-0 tensor")
    axis = normalize_axis(axis, rank, op_name, attr)
    last = rank - 1
    if axis != last:
        raise ValueError(f"{op_name}: only the last axis is supported (as in TF.js): logits have rank {rank}, "
                         f"{attr} is {axis}")
    return ENGINE.run_kernel(kernel, [logits], {attr: last})


@op
def softmax(logits: TensorLike, dim: int = -1) -> Tensor:
    """exp(logits) / sum(exp(logits)) along an axis, computed stably.

    Args:
        logits: a float32 tensor (or a value converted to one).
        dim: the axis to normalise over (TF.js allows only the last one, -1).

    Returns:
        A float32 Tensor of logits' shape whose values along dim sum to 1.

    Example:
        >>> tf.softmax(tf.tensor([0, 0, 0, 0])).print()
        Tensor
            [0.25, 0.25, 0.25, 0.25]
    """
    logits = convert_to_tensor(logits, "logits", "softmax", "float32")
    if logits.dtype != "float32":
        raise TypeError(f"softmax: argument 'logits' must be a float32 tensor, got {logits.dtype}")
    return _last_axis_kernel("Softmax", "dim", "softmax", "logits", logits, dim)


@op
def log_softmax(logits: TensorLike, axis: int = -1) -> Tensor:
    """logits - log_sum_exp(logits) along an axis: the log of softmax, computed stably.

    Args:
        logits: a float32 tensor (or a value converted to one).
        axis: the axis to normalise over (TF.js allows only the last one, -1).

    Returns:
        A float32 Tensor of logits' shape.

    Example:
        >>> tf.log_softmax(tf.tensor([0, 0])).print()
        Tensor
            [-0.6931472, -0.6931472]
    """
    logits = _float_input(logits, "logits", "log_softmax")
    return _last_axis_kernel("LogSoftmax", "axis", "log_softmax", "logits", logits, axis)


@op
def log_sum_exp(x: TensorLike, axis: Axis = None, keep_dims: bool = False) -> Tensor:
    """log(sum(exp(x))) over axes, computed stably (no overflow for large x).

    Args:
        x: the tensor (or a value converted to one).
        axis: the axis or axes to reduce (None: all of them).
        keep_dims: keep each reduced axis with length 1.

    Returns:
        A float32 Tensor.

    Example:
        >>> tf.log_sum_exp(tf.tensor([1000, 1000])).print()
        Tensor
            1000.6931763
    """
    name = "log_sum_exp"
    x = _float_input(x, "x", name)
    axes = reduction_axes(axis, x.rank, name)
    shift = reduce_max(x, axes, keep_dims=True)
    # Shift by 0 where the maximum is infinite: otherwise inf - inf gives NaN where the answer
    # is +inf (an inf in x) or -inf (all of x is -inf). NaN fails the test and stays NaN.
    shift = ew.where(ew.less(ew.abs(shift), float("inf")), shift, 0.0)
    total = reduce_sum(ew.exp(ew.sub(x, shift)), axes, keep_dims=keep_dims)
    return ew.add(ew.log(total), shift if keep_dims else _reshape(shift, total.shape))


class Moments(NamedTuple):
    """What moments() returns: a (mean, variance) pair, with TF.js's attribute names."""
    mean: Tensor
    variance: Tensor


@op
def moments(x: TensorLike, axis: Axis = None, keep_dims: bool = False) -> Any:
    """The mean and variance of x over axes.

    Args:
        x: the tensor (or a value converted to one).
        axis: the axis or axes to reduce (None: all of them).
        keep_dims: keep each reduced axis with length 1.

    Returns:
        A (mean, variance) pair of float32 Tensors (also .mean and .variance).

    Example:
        >>> mean, variance = tf.moments(tf.tensor([1, 2, 3, 4]))
        >>> mean.print(); variance.print()
        Tensor
            2.5
        Tensor
            1.25
    """
    name = "moments"
    x = _float_input(x, "x", name)
    axes = reduction_axes(axis, x.rank, name)
    if not isinstance(keep_dims, bool):
        raise TypeError(f"{name}: argument 'keep_dims' must be a bool, got {type(keep_dims).__name__}")
    mu = mean(x, axes, keep_dims=True)
    variance = mean(ew.square(ew.sub(x, mu)), axes, keep_dims=keep_dims)
    return Moments(mu if keep_dims else _reshape(mu, variance.shape), variance)


def _number(v, arg, op_name):
    if not isinstance(v, (bool, int, float)):
        raise TypeError(f"{op_name}: argument '{arg}' must be a number, got {type(v).__name__}")
    return float(v)


@op
def one_hot(indices: TensorLike, depth: int, on_value: float = 1, off_value: float = 0,
            dtype: DType = "int32") -> Tensor:
    """One-hot rows: for each index a row of length depth, on_value at the index and off_value
    elsewhere (an index outside [0, depth) gives a row of off_value).

    Args:
        indices: an int32 tensor of indices (any shape).
        depth: the length of each row, at least 2 (TF.js refuses 1).
        on_value: the value at each index.
        off_value: the value elsewhere.
        dtype: the result's dtype.

    Returns:
        A Tensor of shape indices.shape + (depth,).

    Example:
        >>> tf.one_hot(tf.tensor([0, 2], dtype="int32"), 3).print()
        Tensor
            [[1, 0, 0],
             [0, 0, 1]]
    """
    return _one_hot(indices, depth, on_value, off_value, dtype, 2)


@op
def one_hot_any_depth(indices: TensorLike, depth: int, on_value: float = 1, off_value: float = 0,
                      dtype: DType = "int32") -> Tensor:
    """one_hot with a depth of 1 allowed: for what builds on one-hot rows whose depth comes from a
    shape (a gather's gradient along an axis of length 1, confusion_matrix of one class, a graph
    model's OneHot node), where TF.js's depth >= 2 check of tf.oneHot would only get in the way."""
    return _one_hot(indices, depth, on_value, off_value, dtype, 1)


def _one_hot(indices, depth, on_value, off_value, dtype, min_depth):
    name = "one_hot"
    indices = convert_to_tensor(indices, "indices", name, "int32")
    if indices.dtype != "int32":
        raise TypeError(f"{name}: argument 'indices' must be an int32 tensor, got {indices.dtype}")
    if isinstance(depth, bool) or not hasattr(depth, "__index__"):
        raise TypeError(f"{name}: argument 'depth' must be an int, got {type(depth).__name__}")
    depth = depth.__index__()
    if depth < min_depth:
        raise ValueError(f"{name}: argument 'depth' must be >= {min_depth}, got {depth}")
    check_elements(tuple(indices.shape) + (depth,), f"{name}: argument 'depth'")
    dtype = check_dtype(dtype, name)
    if dtype == "string":   # on_value and off_value are numbers (TF.js fails decoding them as strings)
        raise TypeError(f"{name}: argument 'dtype' must be a numeric dtype, got {dtype!r}")
    attrs = {"depth": depth, "on_value": _number(on_value, "on_value", name),
             "off_value": _number(off_value, "off_value", name), "dtype": dtype}
    return ENGINE.run_kernel("OneHot", [indices], attrs)
