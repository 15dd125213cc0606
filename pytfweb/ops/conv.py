"""Convolutions: conv1d, conv2d, conv2d_transpose, conv3d, conv3d_transpose, depthwise_conv2d,
separable_conv2d, dilation2d (TF.js 4.22 semantics), and the backprop ops their gradients use.

Geometry (output size, padding) is kernels/conv_geometry.py's, shared with the kernels. Kernel contract
(every backend): float32 inputs with a batch axis; attrs already checked by the op (strides and
dilations tuples of positive ints, pad 'same' | 'valid' | int | explicit pairs, dim_rounding_mode
None | 'round' | 'ceil' | 'floor'); kernels rebuild the ConvInfo with kernels/conv_geometry.py's conv_info_for().

  Conv2D                 x [b, h, w, c] (NCHW: [b, c, h, w]), filter [fh, fw, c, oc];
                         attrs strides, pad, data_format ('NHWC' | 'NCHW'), dilations, dim_rounding_mode
  Conv2DBackpropInput    dy, filter; attrs as Conv2D + input_shape (the x it returns the gradient of)
  Conv2DBackpropFilter   x, dy; attrs as Conv2D + filter_shape
  Conv3D                 x [b, d, h, w, c], filter [fd, fh, fw, c, oc]; attrs strides, pad, dilations
  Conv3DBackpropInputV2  dy, filter; attrs as Conv3D + input_shape
  Conv3DBackpropFilterV2 x, dy; attrs as Conv3D + filter_shape
  DepthwiseConv2dNative  x [b, h, w, c], filter [fh, fw, c, m]: output channel c * m + q is input
                         channel c through filter[..., c, q]; attrs as Conv2D
  DepthwiseConv2dNativeBackpropInput / ...BackpropFilter   as the Conv2D ones
  Dilation2D             x [b, h, w, c], filter [fh, fw, c]: max over the window of x + filter;
                         attrs strides, pad, dilations ('same' | 'valid')
  Dilation2DBackpropInput / ...BackpropFilter   x, filter, dy: dy goes to the first maximum
Unlike TF.js, the backprop kernels take dilations too, so convolutions with dilations > 1 have
gradients (TF.js asserts they are 1).
"""
from typing import Optional, Sequence, Union

from ..core.engine import ENGINE, op
from ..kernels import conv_geometry
from ..kernels.conv_geometry import conv_info_for
from ..core.limits import check_elements
from ..core.tensor import Tensor
from ..core.types import Shape, TensorLike
from .creation import convert_to_tensor
from .elementwise import cast
from .shape import is_int, reshape

__all__ = ["conv1d", "conv2d", "conv2d_transpose", "conv3d", "conv3d_transpose", "depthwise_conv2d",
           "separable_conv2d", "dilation2d"]


def _float(x, arg, name):
    x = convert_to_tensor(x, arg, name, "float32")
    if x.dtype in ("string", "complex64"):   # (cast would refuse it, naming itself)
        raise TypeError(f"{name}: argument '{arg}' must be a numeric tensor, got a {x.dtype} tensor")
    return x if x.dtype == "float32" else cast(x, "float32")


def _float_only(x, arg, name):
    """As TF.js's convertToTensor(x, arg, name, 'float32'): values become float32, a tensor of
    another dtype is refused (conv2d, conv1d, depthwise_conv2d, separable_conv2d)."""
    if isinstance(x, Tensor) and x.dtype != "float32":
        raise TypeError(f"{name}: argument '{arg}' must be a float32 tensor, got a {x.dtype} tensor")
    return convert_to_tensor(x, arg, name, "float32")


def _in_dtype_of(y, x):
    """TF.js's Conv3D and Dilation2D write into a buffer of x's dtype: an int32 x gives an int32
    result (the float sums truncated)."""
    return cast(y, "int32") if x.dtype == "int32" else y


def _batched(x, rank, name, arg="x"):
    """x with a batch axis: rank - 1 gets one of size 1. (tensor, whether one was added)."""
    if x.rank == rank - 1:
        return reshape(x, (1,) + tuple(x.shape)), True
    if x.rank != rank:
        raise ValueError(f"{name}: argument '{arg}' must be of rank {rank} or {rank - 1}, got rank {x.rank} "
                         f"(shape {list(x.shape)})")
    return x, False


def _unbatched(y, added):
    return reshape(y, y.shape[1:]) if added else y


def _check_rank(t, rank, name, arg):
    if t.rank != rank:
        raise ValueError(f"{name}: argument '{arg}' must be of rank {rank}, got rank {t.rank} "
                         f"(shape {list(t.shape)})")


def _check_channels(got, want, name, what="depth of input"):
    if got != want:
        raise ValueError(f"{name}: {what} ({got}) must match the input depth of 'filter' ({want})")


def prepare_conv2d(name, x, filter, strides, pad, data_format, dilations, dim_rounding_mode, depthwise=False):
    """The checks and conversions conv2d, depthwise_conv2d and their fused forms share:
    (x4d, filter, reshaped, attrs, ConvInfo)."""
    x = _float_only(x, "x", name)
    filter = _float_only(filter, "filter", name)
    x4, added = _batched(x, 4, name)
    _check_rank(filter, 4, name, "filter")
    fmt = conv_geometry.convert_conv2d_data_format(data_format, name)
    in_channels = x4.shape[3] if fmt == "channelsLast" else x4.shape[1]
    _check_channels(in_channels, filter.shape[2], name)
    strides, dilations, pad = conv_geometry.check_conv_args(name, strides, dilations, pad, 2, dim_rounding_mode)
    attrs = {"strides": strides, "pad": pad, "data_format": data_format, "dilations": dilations,
             "dim_rounding_mode": dim_rounding_mode}
    info = conv_geometry.compute_conv2d_info(x4.shape, filter.shape, strides, dilations, pad, dim_rounding_mode,
                                         depthwise, fmt, name)
    return x4, filter, added, attrs, info


@op
def conv2d(x: TensorLike, filter: TensorLike,  # noqa: A002
           strides: Union[int, Sequence[int]], pad: Union[str, int, Sequence],
           data_format: str = "NHWC", dilations: Union[int, Sequence[int]] = (1, 1),
           dim_rounding_mode: Optional[str] = None) -> Tensor:
    """2D convolution (cross-correlation, as TensorFlow's).

    Args:
        x: the input, [batch, height, width, in_channels] (or unbatched; [batch, in_channels,
            height, width] with data_format 'NCHW').
        filter: the filter, [filter_height, filter_width, in_channels, out_channels].
        strides: the window's step, an int or [stride_height, stride_width].
        pad: 'valid', 'same', an int of zeros added on each side, or explicit [[0, 0], [top,
            bottom], [left, right], [0, 0]] paddings.
        data_format: 'NHWC' or 'NCHW'.
        dilations: the filter's dilation rates, an int or a pair.
        dim_rounding_mode: 'floor', 'round' or 'ceil' for an int pad's output size (None: floor).

    Returns:
        A Tensor [batch, out_height, out_width, out_channels] (in x's layout, unbatched if x was).

    Example:
        >>> x = tf.ones([1, 3, 3, 1])
        >>> y = tf.conv2d(x, tf.ones([2, 2, 1, 1]), 1, "valid")
        >>> y.shape
        (1, 2, 2, 1)
        >>> y.as1d().print()
        Tensor
            [4, 4, 4, 4]
    """
    x4, filter, added, attrs, _ = prepare_conv2d("conv2d", x, filter, strides, pad, data_format, dilations,
                                                 dim_rounding_mode)
    return _unbatched(ENGINE.run_kernel("Conv2D", [x4, filter], attrs), added)


@op
def conv1d(x: TensorLike, filter: TensorLike, stride: int, pad: Union[str, int], data_format: str = "NWC",  # noqa: A002
           dilation: int = 1, dim_rounding_mode: Optional[str] = None) -> Tensor:
    """1D convolution (a conv2d of height 1).

    Args:
        x: the input, [batch, width, in_channels] (or [width, in_channels]).
        filter: the filter, [filter_width, in_channels, out_channels].
        stride: the step of the window.
        pad: 'valid', 'same', an int of zeros added on each side, or explicit pairs as TF.js's
            conv2d of height 1 takes them: [[0, 0], [0, 0], [left, right], [0, 0]].
        data_format: 'NWC' (the only layout TF.js supports).
        dilation: the filter's dilation rate.
        dim_rounding_mode: 'floor', 'round' or 'ceil' for an int pad's output size (None: floor).

    Returns:
        A float32 Tensor [batch, out_width, out_channels] (unbatched if x was).

    Example:
        >>> x = tf.tensor([1, 2, 3, 4], [1, 4, 1])
        >>> tf.conv1d(x, tf.tensor([1, 1], [2, 1, 1]), 1, "valid").as1d().print()
        Tensor
            [3, 5, 7]
    """
    name = "conv1d"
    x = _float_only(x, "x", name)
    filter = _float_only(filter, "filter", name)
    x3, added = _batched(x, 3, name)
    _check_rank(filter, 3, name, "filter")
    if data_format != "NWC":
        raise ValueError(f"{name}: argument 'data_format' must be 'NWC' (the only one supported), got {data_format!r}")
    _check_channels(x3.shape[2], filter.shape[1], name)
    for arg, v in (("stride", stride), ("dilation", dilation)):
        if not is_int(v):
            raise TypeError(f"{name}: argument '{arg}' must be an int, got {v!r}")
    if (isinstance(pad, (list, tuple)) and len(pad) == 4 and isinstance(pad[1], (list, tuple))
            and list(pad[1]) != [0, 0]):
        # TF.js hands explicit pairs to its conv2d of height 1, whose height they pad too (and
        # then fails reshaping the result to a row): the same refusal, said clearly
        raise ValueError(f"{name}: argument 'pad' {pad!r}: the second pair pads the height of the conv2d of "
                         "height 1 that conv1d runs and must be [0, 0]")
    if is_int(pad) and not isinstance(pad, bool) and pad > 0:
        # TF.js passes an int pad on to the conv2d of height 1, which pads its height too, and
        # then fails reshaping the result to a row ("Size(54) must match ..."): the same refusal,
        # said clearly
        raise ValueError(f"{name}: argument 'pad' = {pad}: a positive int pad is not supported (TF.js pads the "
                         "height of its conv2d of height 1 too and fails); use 'same', 'valid' or 0")
    strides, dilations, pad = conv_geometry.check_conv_args(name, (1, stride), (1, dilation), pad, 2, dim_rounding_mode)
    attrs = {"strides": strides, "pad": pad, "data_format": "NHWC", "dilations": dilations,
             "dim_rounding_mode": dim_rounding_mode}
    x4 = reshape(x3, (x3.shape[0], 1) + tuple(x3.shape[1:]))
    y = ENGINE.run_kernel("Conv2D", [x4, reshape(filter, (1,) + tuple(filter.shape))], attrs)
    return reshape(y, y.shape[2:] if added else (y.shape[0],) + tuple(y.shape[2:]))


@op
def depthwise_conv2d(x: TensorLike, filter: TensorLike,  # noqa: A002
                     strides: Union[int, Sequence[int]], pad: Union[str, int],
                     data_format: str = "NHWC", dilations: Union[int, Sequence[int]] = (1, 1),
                     dim_rounding_mode: Optional[str] = None) -> Tensor:
    """Depthwise 2D convolution: each input channel convolved with its own filters.

    Args:
        x: the input, [batch, height, width, channels] (or unbatched).
        filter: the filters, [filter_height, filter_width, channels, multiplier].
        strides: the window's step, an int or a pair.
        pad: 'valid', 'same' or an int.
        data_format: 'NHWC' or 'NCHW'.
        dilations: the filter's dilation rates, an int or a pair.
        dim_rounding_mode: 'floor', 'round' or 'ceil' for an int pad.

    Returns:
        A Tensor [batch, out_height, out_width, channels * multiplier]; output channel c * multiplier
        + q is input channel c through filter q.

    Example:
        >>> x = tf.tensor([1, 10, 2, 20, 3, 30, 4, 40], [1, 2, 2, 2])
        >>> tf.depthwise_conv2d(x, tf.ones([2, 2, 2, 1]), 1, "valid").as1d().print()
        Tensor
            [10, 100]
    """
    x4, filter, added, attrs, _ = prepare_conv2d("depthwise_conv2d", x, filter, strides, pad, data_format,
                                                 dilations, dim_rounding_mode, depthwise=True)
    return _unbatched(ENGINE.run_kernel("DepthwiseConv2dNative", [x4, filter], attrs), added)


@op
def separable_conv2d(x: TensorLike, depthwise_filter: TensorLike, pointwise_filter: TensorLike,
                     strides: Union[int, Sequence[int]], pad: Union[str, int],
                     dilation: Union[int, Sequence[int]] = (1, 1),
                     data_format: str = "NHWC") -> Tensor:
    """A depthwise_conv2d, then a 1x1 conv2d mixing its channels.

    Args:
        x: the input, [batch, height, width, in_channels] (or unbatched).
        depthwise_filter: [filter_height, filter_width, in_channels, multiplier].
        pointwise_filter: [1, 1, in_channels * multiplier, out_channels].
        strides: the depthwise window's step, an int or a pair.
        pad: 'valid' or 'same'.
        dilation: the depthwise filter's dilation rates.
        data_format: 'NHWC' (the only layout TF.js supports).

    Returns:
        A Tensor [batch, out_height, out_width, out_channels].

    Example:
        >>> y = tf.separable_conv2d(tf.ones([1, 2, 2, 2]), tf.ones([2, 2, 2, 1]), tf.ones([1, 1, 2, 3]), 1, "valid")
        >>> y.as1d().print()
        Tensor
            [8, 8, 8]
    """
    name = "separable_conv2d"
    if data_format != "NHWC":
        raise ValueError(f"{name}: argument 'data_format' must be 'NHWC' (NCHW is not supported), got {data_format!r}")
    x = _float_only(x, "x", name)
    depthwise_filter = _float_only(depthwise_filter, "depthwise_filter", name)
    pointwise_filter = _float_only(pointwise_filter, "pointwise_filter", name)
    x4, added = _batched(x, 4, name)
    _check_rank(depthwise_filter, 4, name, "depthwise_filter")
    _check_rank(pointwise_filter, 4, name, "pointwise_filter")
    if tuple(pointwise_filter.shape[:2]) != (1, 1):
        raise ValueError(f"{name}: the first two dimensions of 'pointwise_filter' must be 1, got "
                         f"{list(pointwise_filter.shape)}")
    in_channels, multiplier = depthwise_filter.shape[2:]
    if pointwise_filter.shape[2] != in_channels * multiplier:
        raise ValueError(f"{name}: the third dimension of 'pointwise_filter' must be {in_channels * multiplier} "
                         f"(in channels x channel multiplier of 'depthwise_filter'), got {pointwise_filter.shape[2]}")
    conv_geometry.check_conv_args(name, strides, dilation, pad, 2)   # (so that errors name this op)
    depthwise = depthwise_conv2d(x4, depthwise_filter, strides, pad, data_format, dilation)
    return _unbatched(conv2d(depthwise, pointwise_filter, 1, "valid", data_format), added)


@op
def conv3d(x: TensorLike, filter: TensorLike, strides: Union[int, Sequence[int]], pad: Union[str, int],  # noqa: A002
           data_format: str = "NDHWC", dilations: Union[int, Sequence[int]] = (1, 1, 1)) -> Tensor:
    """3D convolution.

    Args:
        x: the input, [batch, depth, height, width, in_channels] (or unbatched).
        filter: the filter, [filter_depth, filter_height, filter_width, in_channels, out_channels].
        strides: the window's step, an int or a triple.
        pad: 'valid', 'same' or an int.
        data_format: 'NDHWC' (the only layout TF.js supports).
        dilations: the filter's dilation rates, an int or a triple.

    Returns:
        A Tensor [batch, out_depth, out_height, out_width, out_channels] (unbatched if x was).

    Example:
        >>> tf.conv3d(tf.ones([1, 2, 2, 2, 1]), tf.ones([2, 2, 2, 1, 1]), 1, "valid").as1d().print()
        Tensor
            [8]
    """
    name = "conv3d"
    x_in = convert_to_tensor(x, "x", name)
    x = _float(x_in, "x", name)
    filter = _float(filter, "filter", name)
    x5, added = _batched(x, 5, name)
    _check_rank(filter, 5, name, "filter")
    _check_channels(x5.shape[4], filter.shape[3], name)
    if data_format != "NDHWC":
        raise ValueError(f"{name}: argument 'data_format' must be 'NDHWC' (the only one supported), got {data_format!r}")
    strides, dilations, pad = conv_geometry.check_conv_args(name, strides, dilations, pad, 3)
    attrs = {"strides": strides, "pad": pad, "dilations": dilations}
    conv_geometry.compute_conv3d_info(x5.shape, filter.shape, strides, dilations, pad, op=name)
    return _in_dtype_of(_unbatched(ENGINE.run_kernel("Conv3D", [x5, filter], attrs), added), x_in)


def _output_shape(output_shape, rank, name):
    if not isinstance(output_shape, (list, tuple)) or not all(is_int(d) and d >= 0 for d in output_shape):
        raise TypeError(f"{name}: argument 'output_shape' must be a list of non-negative ints, got {output_shape!r}")
    if len(output_shape) != rank:
        raise ValueError(f"{name}: argument 'output_shape' must have {rank} entries (the rank of 'x'), "
                         f"got {list(output_shape)}")
    return tuple(int(d) for d in output_shape)


def _check_backprop_geometry(name, info, dy_shape):
    if tuple(info.out_shape) != tuple(dy_shape):
        raise ValueError(f"{name}: a convolution of an input of shape {list(info.in_shape)} with these strides "
                         f"and pad gives shape {list(info.out_shape)}, not the shape of 'x' {list(dy_shape)}")


def _transpose_args(x, filter, output_shape, rank, name):
    """Checked arguments of a transposed convolution of `rank` (4 or 5): (x batched, output shape
    batched, filter, whether a batch axis was added)."""
    x = _float(x, "x", name)
    filter = _float(filter, "filter", name)
    shape = _output_shape(output_shape, x.rank, name)
    check_elements(shape, f"{name}: argument 'output_shape'")
    xb, added = _batched(x, rank, name)
    shape_b = (1,) + shape if added else shape
    _check_rank(filter, rank, name, "filter")
    _check_channels(shape_b[-1], filter.shape[-2], name, "depth of 'output_shape'")
    if xb.shape[-1] != filter.shape[-1]:
        raise ValueError(f"{name}: depth of 'x' ({xb.shape[-1]}) must match the output depth of 'filter' "
                         f"({filter.shape[-1]})")
    return xb, shape_b, filter, added


@op
def conv2d_transpose(x: TensorLike, filter: TensorLike, output_shape: Shape,  # noqa: A002
                     strides: Union[int, Sequence[int]],
                     pad: Union[str, int], dim_rounding_mode: Optional[str] = None) -> Tensor:
    """The transposed 2D convolution: conv2d's gradient with respect to its input (a
    "deconvolution"), for an input of output_shape.

    Args:
        x: the input, [batch, height, width, out_channels] (or unbatched).
        filter: the filter, [filter_height, filter_width, in_channels, out_channels] (as conv2d's).
        output_shape: the shape of the result, [batch, height, width, in_channels] (or unbatched).
        strides: the window's step, an int or a pair.
        pad: 'valid', 'same' or an int.
        dim_rounding_mode: 'floor', 'round' or 'ceil' for an int pad.

    Returns:
        A Tensor of output_shape.

    Example:
        >>> y = tf.conv2d_transpose(tf.ones([1, 2, 2, 1]), tf.ones([2, 2, 1, 1]), [1, 3, 3, 1], 1, "valid")
        >>> y.as1d().print()
        Tensor
            [1, 2, 1, 2, 4, 2, 1, 2, 1]
    """
    name = "conv2d_transpose"
    x4, shape4, filter, added = _transpose_args(x, filter, output_shape, 4, name)
    conv_geometry.check_conv_args(name, strides, 1, pad, 2, dim_rounding_mode)   # (so that errors name this op)
    return _unbatched(conv2d_backprop_input(shape4, x4, filter, strides, pad, "NHWC", dim_rounding_mode, name=name),
                      added)


@op
def conv3d_transpose(x: TensorLike, filter: TensorLike, output_shape: Shape,  # noqa: A002
                     strides: Union[int, Sequence[int]],
                     pad: Union[str, int]) -> Tensor:
    """The transposed 3D convolution: conv3d's gradient with respect to its input, for an input
    of output_shape.

    Args:
        x: the input, [batch, depth, height, width, out_channels] (or unbatched).
        filter: the filter, [filter_depth, filter_height, filter_width, in_channels, out_channels].
        output_shape: the shape of the result.
        strides: the window's step, an int or a triple.
        pad: 'valid', 'same' or an int.

    Returns:
        A Tensor of output_shape.

    Example:
        >>> tf.conv3d_transpose(tf.ones([1, 1, 1, 1, 1]), tf.ones([2, 2, 2, 1, 1]), [1, 2, 2, 2, 1], 1,
        ...                     "valid").shape
        (1, 2, 2, 2, 1)
    """
    name = "conv3d_transpose"
    x5, shape5, filter, added = _transpose_args(x, filter, output_shape, 5, name)
    conv_geometry.check_conv_args(name, strides, 1, pad, 3)   # (so that errors name this op)
    return _unbatched(conv3d_backprop_input(shape5, x5, filter, strides, pad, name=name), added)


@op
def dilation2d(x: TensorLike, filter: TensorLike, strides: Union[int, Sequence[int]], pad: str,  # noqa: A002
               dilations: Union[int, Sequence[int]] = (1, 1), data_format: str = "NHWC") -> Tensor:
    """Grayscale morphological dilation: the maximum over each window of x + filter.

    Args:
        x: the input, [batch, height, width, channels] (or unbatched).
        filter: [filter_height, filter_width, channels].
        strides: the window's step, an int or a pair.
        pad: 'valid' or 'same'.
        dilations: the filter's dilation rates.
        data_format: 'NHWC' (the only layout TF.js supports).

    Returns:
        A Tensor [batch, out_height, out_width, channels].

    Example:
        >>> x = tf.tensor([1, 2, 3, 4], [1, 2, 2, 1])
        >>> tf.dilation2d(x, tf.zeros([2, 2, 1]), 1, "valid").as1d().print()
        Tensor
            [4]
    """
    name = "dilation2d"
    x_in = convert_to_tensor(x, "x", name)
    x = _float(x_in, "x", name)
    filter = _float(filter, "filter", name)
    x4, added = _batched(x, 4, name)
    _check_rank(filter, 3, name, "filter")
    if data_format != "NHWC":
        raise ValueError(f"{name}: argument 'data_format' must be 'NHWC' (the only one supported), got {data_format!r}")
    if x4.shape[3] != filter.shape[2]:
        raise ValueError(f"{name}: 'x' and 'filter' must have the same depth, got {x4.shape[3]} and {filter.shape[2]}")
    if pad not in ("same", "valid"):
        raise ValueError(f"{name}: argument 'pad' must be 'same' or 'valid', got {pad!r}")
    strides, dilations, pad = conv_geometry.check_conv_args(name, strides, dilations, pad, 2, need_one=False)
    conv_geometry.compute_dilation2d_info(x4.shape, filter.shape, strides, pad, dilations, name)
    attrs = {"strides": strides, "pad": pad, "dilations": dilations}
    return _in_dtype_of(_unbatched(ENGINE.run_kernel("Dilation2D", [x4, filter], attrs), added), x_in)


# --- backprop ops (what the gradients and the transposed convolutions run) ----------------------

def _backprop_attrs(name, strides, pad, dilations, n, rounding, **extra):
    strides, dilations, pad = conv_geometry.check_conv_args(name, strides, dilations, pad, n, rounding)
    attrs = {"strides": strides, "pad": pad, "dilations": dilations}
    if n == 2:
        attrs["dim_rounding_mode"] = rounding
    attrs.update(extra)
    return attrs


@op
def conv2d_backprop_input(x_shape, dy, filter, strides, pad, data_format="NHWC", dim_rounding_mode=None,
                          dilations=1, name="conv2d_backprop_input"):
    """The gradient of conv2d with respect to an input of x_shape (4D), for dy (4D)."""
    attrs = _backprop_attrs(name, strides, pad, dilations, 2, dim_rounding_mode, data_format=data_format,
                            input_shape=tuple(x_shape))
    _check_backprop_geometry(name, conv_info_for("Conv2DBackpropInput", x_shape, filter.shape, attrs), dy.shape)
    return ENGINE.run_kernel("Conv2DBackpropInput", [dy, filter], attrs)


@op
def conv2d_backprop_filter(x, dy, filter_shape, strides, pad, data_format="NHWC", dim_rounding_mode=None,
                           dilations=1, name="conv2d_backprop_filter"):
    attrs = _backprop_attrs(name, strides, pad, dilations, 2, dim_rounding_mode, data_format=data_format,
                            filter_shape=tuple(filter_shape))
    return ENGINE.run_kernel("Conv2DBackpropFilter", [x, dy], attrs)


@op
def conv3d_backprop_input(x_shape, dy, filter, strides, pad, dilations=1, name="conv3d_backprop_input"):
    attrs = _backprop_attrs(name, strides, pad, dilations, 3, None, input_shape=tuple(x_shape))
    _check_backprop_geometry(name, conv_info_for("Conv3DBackpropInputV2", x_shape, filter.shape, attrs), dy.shape)
    return ENGINE.run_kernel("Conv3DBackpropInputV2", [dy, filter], attrs)


@op
def conv3d_backprop_filter(x, dy, filter_shape, strides, pad, dilations=1, name="conv3d_backprop_filter"):
    attrs = _backprop_attrs(name, strides, pad, dilations, 3, None, filter_shape=tuple(filter_shape))
    return ENGINE.run_kernel("Conv3DBackpropFilterV2", [x, dy], attrs)


@op
def depthwise_conv2d_native_backprop_input(x_shape, dy, filter, strides, pad, dilations=1, dim_rounding_mode=None,
                                           data_format="NHWC"):
    attrs = _backprop_attrs("depthwise_conv2d_native_backprop_input", strides, pad, dilations, 2, dim_rounding_mode,
                            data_format=data_format, input_shape=tuple(x_shape))
    return ENGINE.run_kernel("DepthwiseConv2dNativeBackpropInput", [dy, filter], attrs)


@op
def depthwise_conv2d_native_backprop_filter(x, dy, filter_shape, strides, pad, dilations=1, dim_rounding_mode=None,
                                            data_format="NHWC"):
    attrs = _backprop_attrs("depthwise_conv2d_native_backprop_filter", strides, pad, dilations, 2,
                            dim_rounding_mode, data_format=data_format, filter_shape=tuple(filter_shape))
    return ENGINE.run_kernel("DepthwiseConv2dNativeBackpropFilter", [x, dy], attrs)
