"""Pooling: max_pool, avg_pool, max_pool3d, avg_pool3d, max_pool_with_argmax, pool.

The ops resolve TF.js's pooling geometry (filter size, strides, dilations, 'valid' / 'same' /
numeric / explicit padding, dim_rounding_mode) with the convolutions' kernels/conv_geometry.py into
plain per-axis numbers, so that kernels only loop over windows.

Kernel contract (every backend). x is [batch, *spatial, channels] with 2 spatial axes (MaxPool,
AvgPool, MaxPoolWithArgmax and their grads) or 3 (MaxPool3D, AvgPool3D and theirs); attrs hold
one entry per spatial axis:
  {"filter_size": [...], "strides": [...], "dilations": [...], "pad": [...], "out_size": [...]}
Output position o of a spatial axis reads input positions o * stride - pad + k * dilation for
k in [0, filter_size); positions outside the input are skipped (not zeros). The output is
[batch, *out_size, channels].
  MaxPool, MaxPool3D   x float32 or int32 -> x.dtype; as TF.js, NaN never wins, and a window
                       with nothing above -Infinity gives -Infinity (0 in int32).
                       (A 2-D pooling with a 1 x 1 window and an output of x's shape runs no
                       pooling kernel: TF.js's kernels return x there, NaN included.)
  AvgPool, AvgPool3D   x float32 -> float32: the mean of the window's positions inside the
                       input (for a window with none, as TF.js: NaN in 2-D, 0 in 3-D).
  MaxPoolWithArgmax    x float32 -> [result, indexes (int32)]; attrs also
                       {"include_batch_in_index": bool}. The index of the maximum flattened
                       in x, ((b * H + h) * W + w) * C + c, without the b term unless asked.
  MaxPoolGrad, MaxPool3DGrad   inputs dy, x -> float32 of x's shape: each dy goes to its
                       window's maximum (as TF.js: the first one on ties in 2-D, as the argmax
                       above; the last one in 3-D).
  AvgPoolGrad, AvgPool3DGrad   inputs dy; attrs also {"x_shape": [...]} -> float32 of x_shape:
                       each dy spread evenly over its window's positions inside the input.
TF.js's MaxPoolGrad also takes the pool's output and AvgPoolGrad the input (for its shape);
neither is needed to compute the gradient, so the tape does not keep them here.
"""
from typing import Any, NamedTuple, Optional, Sequence, Union

from ..core.engine import ENGINE, op
from ..kernels.conv_geometry import check_conv_args, compute_pool2d_info, compute_pool3d_info
from ..core.tensor import Tensor
from ..core.types import TensorLike
from .creation import convert_to_tensor
from .creation import cast
from .shape import is_int, pad as _pad

__all__ = ["max_pool", "avg_pool", "max_pool3d", "avg_pool3d", "max_pool_with_argmax", "pool"]


def pool_info(op_name, x_shape, filter_size, strides, dilations, pad, dim_rounding_mode=None):
    """The geometry (a conv_geometry.ConvInfo) of pooling x of shape [batch, *spatial, channels],
    by TF.js's rules (computePool2DInfo / computePool3DInfo); errors name op_name."""
    n = len(x_shape) - 2
    strides, dilations, pad = check_conv_args(op_name, strides, dilations, pad, n, dim_rounding_mode)
    compute = compute_pool2d_info if n == 2 else compute_pool3d_info
    return compute(x_shape, filter_size, strides, dilations, pad, dim_rounding_mode, op=op_name)


def kernel_attrs(info):
    """The attrs of the kernel contract above, from a ConvInfo."""
    return {"filter_size": list(info.filter_size), "strides": list(info.strides), "dilations": list(info.dilations),
            "pad": list(info.pad_before), "out_size": list(info.out_size)}


def _input(x, op_name, spatial, dtype=None):
    """x as a tensor of rank spatial + 2 (a missing batch axis added) and whether it was added."""
    x = convert_to_tensor(x, "x", op_name, dtype)
    if x.rank not in (spatial + 1, spatial + 2):
        raise ValueError(f"{op_name}: argument 'x' must be of rank {spatial + 1} or {spatial + 2}, "
                         f"got rank {x.rank} (shape {list(x.shape)})")
    if x.dtype == "bool":
        raise TypeError(f"{op_name}: argument 'x' must be a float32 or int32 tensor, got bool")
    if x.rank == spatial + 1:
        return ENGINE.run_kernel("Reshape", [x], {"shape": [1, *x.shape]}), True
    return x, False


def _unbatched(y, added):
    return ENGINE.run_kernel("Reshape", [y], {"shape": list(y.shape[1:])}) if added else y


def _check_data_format(data_format, op_name):
    if data_format != "NDHWC":
        raise ValueError(f"{op_name}: only data_format 'NDHWC' is supported, got {data_format!r}")


def _unchanged(info, spatial):
    """Whether TF.js's 2-D pooling kernels return x itself (their identity shortcut on every
    backend: a 1 x 1 window whose output has the input's shape). It shows where a window's
    maximum would differ from its one value: NaN stays NaN (max pooling skips NaN)."""
    return spatial == 2 and all(f == 1 for f in info.filter_size) and tuple(info.out_size) == tuple(info.in_size)


def _max_pool(op_name, kernel, spatial, x, filter_size, strides, pad, dim_rounding_mode, dilations=1):
    x, added = _input(x, op_name, spatial)
    info = pool_info(op_name, x.shape, filter_size, strides, dilations, pad, dim_rounding_mode)
    if _unchanged(info, spatial):
        return _unbatched(ENGINE.run_kernel("Identity", [x]), added)
    return _unbatched(ENGINE.run_kernel(kernel, [x], kernel_attrs(info)), added)


def _avg_pool(op_name, kernel, spatial, x, filter_size, strides, pad, dim_rounding_mode, dilations=1):
    # As TF.js (convertToTensor(x, 'x', op, 'float32')): values become float32, a tensor of
    # another dtype is refused.
    if isinstance(x, Tensor) and x.dtype != "float32":
        raise TypeError(f"{op_name}: argument 'x' must be a float32 tensor, got a {x.dtype} tensor")
    x, added = _input(x, op_name, spatial, "float32")
    info = pool_info(op_name, x.shape, filter_size, strides, dilations, pad, dim_rounding_mode)
    if _unchanged(info, spatial):
        return _unbatched(ENGINE.run_kernel("Identity", [x]), added)
    return _unbatched(ENGINE.run_kernel(kernel, [x], kernel_attrs(info)), added)


@op
def max_pool(x: TensorLike, filter_size: Union[int, Sequence[int]], strides: Union[int, Sequence[int]],
             pad: Union[str, int], dim_rounding_mode: Optional[str] = None) -> Tensor:
    """The maximum of each window of x.

    Args:
        x: the input, [batch, height, width, channels] (or unbatched).
        filter_size: the window's size, an int or [height, width].
        strides: the window's step, an int or a pair.
        pad: 'valid', 'same' or an int.
        dim_rounding_mode: 'floor', 'round' or 'ceil' for an int pad.

    Returns:
        A Tensor [batch, out_height, out_width, channels].

    Example:
        >>> x = tf.tensor([1, 2, 3, 4], [1, 2, 2, 1])
        >>> tf.max_pool(x, 2, 1, "valid").as1d().print()
        Tensor
            [4]
    """
    return _max_pool("max_pool", "MaxPool", 2, x, filter_size, strides, pad, dim_rounding_mode)


@op
def avg_pool(x: TensorLike, filter_size: Union[int, Sequence[int]], strides: Union[int, Sequence[int]],
             pad: Union[str, int], dim_rounding_mode: Optional[str] = None) -> Tensor:
    """The mean of each window of x (padding is not counted).

    Args:
        x: the input, [batch, height, width, channels] (or unbatched).
        filter_size: the window's size, an int or [height, width].
        strides: the window's step, an int or a pair.
        pad: 'valid', 'same' or an int.
        dim_rounding_mode: 'floor', 'round' or 'ceil' for an int pad.

    Returns:
        A float32 Tensor [batch, out_height, out_width, channels].

    Example:
        >>> x = tf.tensor([1, 2, 3, 4], [1, 2, 2, 1])
        >>> tf.avg_pool(x, 2, 1, "valid").as1d().print()
        Tensor
            [2.5]
    """
    return _avg_pool("avg_pool", "AvgPool", 2, x, filter_size, strides, pad, dim_rounding_mode)


@op
def max_pool3d(x: TensorLike, filter_size: Union[int, Sequence[int]], strides: Union[int, Sequence[int]],
               pad: Union[str, int], dim_rounding_mode: Optional[str] = None, data_format: str = "NDHWC") -> Tensor:
    """The maximum of each 3D window of x (float32 whatever x's dtype, as TF.js).

    Args:
        x: the input, [batch, depth, height, width, channels] (or unbatched).
        filter_size: the window's size, an int or [depth, height, width].
        strides: the window's step, an int or a triple.
        pad: 'valid', 'same' or an int.
        dim_rounding_mode: 'floor', 'round' or 'ceil' for an int pad.
        data_format: 'NDHWC' (the only layout TF.js supports).

    Returns:
        A float32 Tensor [batch, out_depth, out_height, out_width, channels].

    Example:
        >>> tf.max_pool3d(tf.range(8).reshape([1, 2, 2, 2, 1]), 2, 1, "valid").as1d().print()
        Tensor
            [7]
    """
    _check_data_format(data_format, "max_pool3d")
    y = _max_pool("max_pool3d", "MaxPool3D", 3, x, filter_size, strides, pad, dim_rounding_mode)
    return y if y.dtype == "float32" else cast(y, "float32")   # TF.js's MaxPool3D returns float32


@op
def avg_pool3d(x: TensorLike, filter_size: Union[int, Sequence[int]], strides: Union[int, Sequence[int]],
               pad: Union[str, int], dim_rounding_mode: Optional[str] = None, data_format: str = "NDHWC") -> Tensor:
    """The mean of each 3D window of x (padding is not counted).

    Args:
        x: the input, [batch, depth, height, width, channels] (or unbatched).
        filter_size: the window's size, an int or [depth, height, width].
        strides: the window's step, an int or a triple.
        pad: 'valid', 'same' or an int.
        dim_rounding_mode: 'floor', 'round' or 'ceil' for an int pad.
        data_format: 'NDHWC' (the only layout TF.js supports).

    Returns:
        A float32 Tensor [batch, out_depth, out_height, out_width, channels].

    Example:
        >>> tf.avg_pool3d(tf.range(8).reshape([1, 2, 2, 2, 1]), 2, 1, "valid").as1d().print()
        Tensor
            [3.5]
    """
    _check_data_format(data_format, "avg_pool3d")
    return _avg_pool("avg_pool3d", "AvgPool3D", 3, x, filter_size, strides, pad, dim_rounding_mode)


class MaxPoolWithArgmax(NamedTuple):
    """What max_pool_with_argmax returns, with TF.js's attribute names."""
    result: Tensor
    indexes: Tensor


@op
def max_pool_with_argmax(x: TensorLike, filter_size: Union[int, Sequence[int]], strides: Union[int, Sequence[int]],
                         pad: Union[str, int], include_batch_in_index: bool = False) -> Any:
    """max_pool of a rank-4 x, and for each maximum its index in x flattened.

    The index is ((b * height + h) * width + w) * channels + c, the b term only with
    include_batch_in_index.

    Args:
        x: the input, [batch, height, width, channels].
        filter_size: the window's size, an int or a pair.
        strides: the window's step, an int or a pair.
        pad: 'valid', 'same' or an int.
        include_batch_in_index: count the batch in the indices.

    Returns:
        A (result, indexes) pair (also .result and .indexes); indexes is int32.

    Example:
        >>> result, indexes = tf.max_pool_with_argmax(tf.tensor([1, 4, 3, 2], [1, 2, 2, 1]), 2, 1, "valid")
        >>> indexes.as1d().print()
        Tensor
            [1]
    """
    name = "max_pool_with_argmax"
    x = convert_to_tensor(x, "x", name)
    if x.rank != 4:
        raise ValueError(f"{name}: argument 'x' must be of rank 4, got rank {x.rank} (shape {list(x.shape)})")
    if x.dtype == "bool":
        raise TypeError(f"{name}: argument 'x' must be a float32 or int32 tensor, got bool")
    if not isinstance(include_batch_in_index, bool):
        raise TypeError(f"{name}: argument 'include_batch_in_index' must be a bool, "
                        f"got {type(include_batch_in_index).__name__}")
    info = pool_info(name, x.shape, filter_size, strides, 1, pad)
    attrs = dict(kernel_attrs(info), include_batch_in_index=include_batch_in_index)
    result, indexes = ENGINE.run_kernel("MaxPoolWithArgmax", [x], attrs)
    return MaxPoolWithArgmax(result, indexes)


@op
def pool(input: TensorLike,  # noqa: A002
         window_shape: Union[int, Sequence[int]], pooling_type: str, pad: Union[str, int],
         dilations: Union[int, Sequence[int], None] = None, strides: Union[int, Sequence[int], None] = None,
         dim_rounding_mode: Optional[str] = None) -> Tensor:
    """Max or average pooling with dilations.

    As TF.js (through space_to_batch_nd), a dilated window pools the input padded with zeros: the
    zeros count, in the mean and in the maximum.

    Args:
        input: the input, [batch, height, width, channels] (or unbatched).
        window_shape: the window's size, an int or a pair.
        pooling_type: 'max' or 'avg'.
        pad: 'valid', 'same' or an int.
        dilations: the window's dilation rates (None: 1).
        strides: the window's step (None: 1).
        dim_rounding_mode: 'floor', 'round' or 'ceil' for an int pad.

    Returns:
        A Tensor [batch, out_height, out_width, channels].

    Example:
        >>> tf.pool(tf.tensor([1, 2, 3, 4], [1, 2, 2, 1]), 2, "avg", "valid").as1d().print()
        Tensor
            [2.5]
    """
    name = "pool"
    if pooling_type not in ("max", "avg"):
        raise ValueError(f"{name}: argument 'pooling_type' must be 'max' or 'avg', got {pooling_type!r}")
    dilations = 1 if dilations is None else dilations
    strides = 1 if strides is None else strides
    pad = "valid" if is_int(pad) and pad == 0 else pad
    x, added = _input(input, name, 2, "float32" if pooling_type == "avg" else None)
    info = pool_info(name, x.shape, window_shape, strides, dilations, pad, dim_rounding_mode)
    run = _max_pool if pooling_type == "max" else _avg_pool
    kernel = "MaxPool" if pooling_type == "max" else "AvgPool"
    if max(info.dilations) == 1:
        y = run(name, kernel, 2, x, window_shape, strides, pad, dim_rounding_mode)
    else:
        # Pad so that every output's window lies inside: the 'valid' pooling of the result has
        # the output shape computed above (strides are 1 here).
        afters = [out - 1 + eff - size - before for out, eff, size, before in
                  zip(info.out_size, info.effective_filter_size, info.in_size, info.pad_before)]
        padded = _pad(x, [[0, 0], *zip(info.pad_before, afters), [0, 0]])
        y = run(name, kernel, 2, padded, window_shape, 1, "valid", None, info.dilations)
    return _unbatched(y, added)
