"""tf.fused: mat_mul, conv2d and depthwise_conv2d with a bias and an activation applied in the
same kernel (_FusedMatMul, FusedConv2D, FusedDepthwiseConv2D; on webgl in the same shader).

Kernel contract (every backend): inputs [a, b] or [x, filter] (float32, as the unfused kernels
BatchMatMul / Conv2D / DepthwiseConv2dNative take them), then the bias if attrs["has_bias"],
then the PReLU weights if attrs["activation"] == "prelu"; both broadcast (right-aligned) to the
output, which the ops arrange (an NCHW per-channel vector becomes [c, 1, 1]). attrs: those of the
unfused kernel plus "activation" (one of ACTIVATIONS, kernels/activations.py), "leakyrelu_alpha"
(float), "has_bias". Output: activation(product + bias).

As TF.js: while a gradient is being recorded, an activation other than 'linear' is applied by
separate ops (their gradients are the ones that count), so the fused kernels' gradients only
ever see 'linear' (and 'relu', which they support too). tf.fused.mat_mul of int32 (or bool)
matrices runs as separate ops (_int_mat_mul).
"""
import re

from typing import Any, Dict, Optional, Sequence, Union

from ..core.tensor import Tensor
from ..core.types import TensorLike
from ..core.dtypes import upcast
from ..core.engine import ENGINE, op
from ..kernels.activations import ACTIVATIONS
from ..core.shapes import broadcast_shapes
from . import elementwise as ew
from .conv import _float, _unbatched, prepare_conv2d
from .conv import conv2d as _unfused_conv2d, depthwise_conv2d as _unfused_depthwise_conv2d
from .creation import cast, convert_to_tensor, refuse_complex
from .matmul import mat_mul as _unfused_mat_mul
from .shape import reshape

__all__ = ["mat_mul", "conv2d", "depthwise_conv2d"]


def _options(fn, first):
    """TF.js's fused ops take one object ({x, filter, strides, pad, ...}): called with a dict as
    the first argument, its (camelCase or snake_case) keys become keyword arguments."""
    return fn(**{re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", k).lower(): v for k, v in first.items()})


def _prelu(x, alpha):
    return ew.where(ew.less(x, 0), ew.mul(alpha, x), x)


# activation -> fn(x, prelu weights, leakyrelu alpha), with ops (the unfused path)
_APPLY = {
    "linear": lambda x, w, alpha: x,
    "relu": lambda x, w, alpha: ew.relu(x),
    "relu6": lambda x, w, alpha: ew.relu6(x),
    "elu": lambda x, w, alpha: ew.elu(x),
    "sigmoid": lambda x, w, alpha: ew.sigmoid(x),
    "leakyrelu": lambda x, w, alpha: ew.leaky_relu(x, alpha),
    "prelu": lambda x, w, alpha: _prelu(x, w),
}


def _check_activation(activation, name):
    activation = "linear" if activation is None else activation
    if activation not in ACTIVATIONS:
        raise ValueError(f"{name}: argument 'activation' must be one of {', '.join(ACTIVATIONS)}, got {activation!r}")
    return activation


# Activations a fused kernel's gradient differentiates from its output (gradients/conv.py:
# fused_dy). TF.js fuses only linear inside gradients; relu and elu are as exact from y, and a
# training step then runs each dense or conv layer's bias and activation in its product's kernel.
DIFFERENTIABLE = ("linear", "relu", "elu")


def _should_fuse(activation):
    """Outside gradients always; inside, the activations fused_dy differentiates."""
    return ENGINE.gradient_depth == 0 or activation in DIFFERENTIABLE


def _alpha(leakyrelu_alpha, name):
    if isinstance(leakyrelu_alpha, bool) or not isinstance(leakyrelu_alpha, (int, float)):
        raise TypeError(f"{name}: argument 'leakyrelu_alpha' must be a number, got {type(leakyrelu_alpha).__name__}")
    return float(leakyrelu_alpha)


def _broadcastable(t, out_shape, name, arg):
    try:
        if broadcast_shapes(out_shape, t.shape, name) != tuple(out_shape):
            raise ValueError
    except ValueError:
        raise ValueError(f"{name}: argument '{arg}' of shape {list(t.shape)} does not broadcast to the output "
                         f"shape {list(out_shape)}") from None


def _extras(name, out_shape, out_channels, channels_first, bias, activation, prelu_weights, conv):
    """The bias and PReLU weights as kernel inputs (checked, float32, aligned with the output)."""
    inputs = []
    if bias is not None:
        bias = _float(bias, "bias", name)
        if channels_first:
            if bias.rank > 1 or (bias.rank == 1 and bias.shape[0] not in (1, out_channels)):
                raise ValueError(f"{name}: with NCHW, 'bias' must be a scalar or a vector of 1 or {out_channels} "
                                 f"(output channels) values, got shape {list(bias.shape)}")
            if bias.rank == 1 and bias.shape[0] != 1:
                bias = reshape(bias, (out_channels, 1, 1))
        _broadcastable(bias, out_shape, name, "bias")
        inputs.append(bias)
    if activation == "prelu":
        if prelu_weights is None:
            raise ValueError(f"{name}: activation 'prelu' needs 'prelu_activation_weights'")
        w = _float(prelu_weights, "prelu_activation_weights", name)
        if conv and (w.rank not in (0, 1, 3) or (w.rank == 1 and w.shape[0] not in (1, out_channels))):
            raise ValueError(f"{name}: 'prelu_activation_weights' must be a scalar, a vector of 1 or {out_channels} "
                             f"(output channels) values or a rank-3 tensor, got shape {list(w.shape)}")
        if channels_first and w.rank == 1 and w.shape[0] != 1:
            w = reshape(w, (out_channels, 1, 1))
        _broadcastable(w, out_shape, name, "prelu_activation_weights")
        inputs.append(w)
    return inputs


def _unfused(y, bias, activation, prelu_weights, alpha, channels_first):
    if bias is not None:
        b = _float(bias, "bias", "fused")
        if channels_first and b.rank == 1:
            b = reshape(b, (b.shape[0], 1, 1))
        y = ew.add(y, b)
    w = None
    if activation == "prelu":
        w = _float(prelu_weights, "prelu_activation_weights", "fused")
        if channels_first and w.rank == 1:
            w = reshape(w, (w.shape[0], 1, 1))
    return _APPLY[activation](y, w, alpha)


def _int_mat_mul(y, bias, activation, prelu_weights, alpha):
    """tf.fused.mat_mul of int32 (or bool) matrices, with ops: as TF.js, the product, an int32
    bias and the linear, relu and relu6 activations stay int32; prelu and leakyrelu give
    float32, and so do elu and sigmoid (TF.js truncates those to int32: README's deviations)."""
    if bias is not None:
        y = ew.add(y, convert_to_tensor(bias, "bias", "fused.mat_mul"))
    if activation in ("linear", "relu", "relu6"):
        return _APPLY[activation](y, None, alpha)
    w = None if activation != "prelu" else _float(prelu_weights, "prelu_activation_weights", "fused.mat_mul")
    return _APPLY[activation](cast(y, "float32"), w, alpha)


@op
def mat_mul(a: Union[TensorLike, Dict[str, Any]], b: Optional[TensorLike] = None, transpose_a: bool = False,
            transpose_b: bool = False, bias: Optional[TensorLike] = None, activation: str = "linear",
            prelu_activation_weights: Optional[TensorLike] = None, leakyrelu_alpha: float = 0.2) -> Tensor:
    """activation(a @ b + bias) in one kernel (batch axes broadcast). The arguments may also come as
    TF.js's one object: mat_mul({"a": ..., "b": ..., ...}).

    Args:
        a: a tensor of rank >= 2 (or TF.js's dict of all the arguments).
        b: a tensor of rank >= 2.
        transpose_a: multiply by a's transpose.
        transpose_b: multiply by b's transpose.
        bias: added to the product, broadcast (None: none).
        activation: 'linear', 'relu', 'relu6', 'elu', 'prelu', 'leakyrelu' or 'sigmoid'.
        prelu_activation_weights: prelu's alpha.
        leakyrelu_alpha: leakyrelu's slope.

    Returns:
        A Tensor, as tf.mat_mul's.

    Example:
        >>> a, b = tf.tensor([[1, -2]]), tf.tensor([[1], [1]])
        >>> tf.fused.mat_mul(a, b, bias=tf.tensor([0.5]), activation="relu").print()
        Tensor
            [[0]]
    """
    if isinstance(a, dict):
        return _options(mat_mul, a)
    if b is None:
        raise TypeError("fused.mat_mul: argument 'b' is missing")
    name = "fused.mat_mul"
    activation = _check_activation(activation, name)
    alpha = _alpha(leakyrelu_alpha, name)
    a, b = convert_to_tensor(a, "a", name), convert_to_tensor(b, "b", name)
    refuse_complex(a, "a", name)
    refuse_complex(b, "b", name)
    if upcast(a.dtype, b.dtype) != "float32":
        return _int_mat_mul(_unfused_mat_mul(a, b, transpose_a, transpose_b), bias, activation,
                            prelu_activation_weights, alpha)
    a, b = _float(a, "a", name), _float(b, "b", name)
    if not _should_fuse(activation):
        y = _unfused_mat_mul(a, b, transpose_a, transpose_b)
        return _unfused(y, bias, activation, prelu_activation_weights, alpha, False)
    for arg, t in (("a", a), ("b", b)):
        if t.rank < 2:
            raise ValueError(f"{name}: argument '{arg}' must have rank >= 2, got shape {list(t.shape)}")
    for arg, v in (("transpose_a", transpose_a), ("transpose_b", transpose_b)):
        if not isinstance(v, bool):
            raise TypeError(f"{name}: argument '{arg}' must be a bool, got {type(v).__name__}")
    inner_a = a.shape[-2] if transpose_a else a.shape[-1]
    inner_b = b.shape[-1] if transpose_b else b.shape[-2]
    if inner_a != inner_b:
        raise ValueError(f"{name}: inner dimensions of a {list(a.shape)} and b {list(b.shape)} must match "
                         f"(transpose_a={transpose_a}, transpose_b={transpose_b})")
    try:
        batch = broadcast_shapes(a.shape[:-2], b.shape[:-2], name)
    except ValueError:
        raise ValueError(f"{name}: batch dimensions of a {list(a.shape)} and b {list(b.shape)} "
                         f"cannot be broadcast together") from None
    out_shape = tuple(batch) + (a.shape[-1] if transpose_a else a.shape[-2],
                                b.shape[-2] if transpose_b else b.shape[-1])
    extras = _extras(name, out_shape, out_shape[-1], False, bias, activation, prelu_activation_weights, conv=False)
    attrs = {"transpose_a": transpose_a, "transpose_b": transpose_b, "activation": activation,
             "leakyrelu_alpha": alpha, "has_bias": bias is not None}
    return ENGINE.run_kernel("_FusedMatMul", [a, b] + extras, attrs)


def _fused_conv(name, kernel, unfused, depthwise, x, filter, strides, pad, data_format, dilations,
                dim_rounding_mode, bias, activation, prelu_activation_weights, leakyrelu_alpha):
    activation = _check_activation(activation, name)
    alpha = _alpha(leakyrelu_alpha, name)
    channels_first = data_format == "NCHW"
    if not _should_fuse(activation):
        y = unfused(x, filter, strides, pad, data_format, dilations, dim_rounding_mode)
        return _unfused(y, bias, activation, prelu_activation_weights, alpha, channels_first)
    x4, filter, added, attrs, info = prepare_conv2d(name, x, filter, strides, pad, data_format, dilations,
                                                    dim_rounding_mode, depthwise)
    # TF.js checks the PReLU weights' rank for conv2d alone; depthwise takes any broadcastable shape
    extras = _extras(name, info.out_shape, info.out_channels, channels_first, bias, activation,
                     prelu_activation_weights, conv=not depthwise)
    attrs.update(activation=activation, leakyrelu_alpha=alpha, has_bias=bias is not None)
    return _unbatched(ENGINE.run_kernel(kernel, [x4, filter] + extras, attrs), added)


@op
def conv2d(x: Union[TensorLike, Dict[str, Any]], filter: Optional[TensorLike] = None,  # noqa: A002 - TF.js name
           strides: Union[int, Sequence[int], None] = None, pad: Union[str, int, Sequence, None] = None,
           data_format: str = "NHWC", dilations: Union[int, Sequence[int]] = (1, 1),
           dim_rounding_mode: Optional[str] = None, bias: Optional[TensorLike] = None, activation: str = "linear",
           prelu_activation_weights: Optional[TensorLike] = None, leakyrelu_alpha: float = 0.2) -> Tensor:
    """activation(conv2d(x, filter) + bias) in one kernel. The arguments may also come as TF.js's one
    object: conv2d({"x": ..., "filter": ..., "strides": ..., ...}).

    Args:
        x: the input, [batch, height, width, in_channels] (or TF.js's dict of all the arguments).
        filter: [filter_height, filter_width, in_channels, out_channels].
        strides: the window's step, an int or a pair.
        pad: 'valid', 'same', an int or explicit paddings.
        data_format: 'NHWC' or 'NCHW'.
        dilations: the filter's dilation rates.
        dim_rounding_mode: 'floor', 'round' or 'ceil' for an int pad.
        bias: added per output channel (None: none).
        activation: 'linear', 'relu', 'relu6', 'elu', 'prelu', 'leakyrelu' or 'sigmoid'.
        prelu_activation_weights: prelu's alpha.
        leakyrelu_alpha: leakyrelu's slope.

    Returns:
        A Tensor, as tf.conv2d's.

    Example:
        >>> y = tf.fused.conv2d(x=tf.ones([1, 3, 3, 1]), filter=tf.ones([2, 2, 1, 1]), strides=1, pad="valid",
        ...                     bias=tf.tensor([1]))
        >>> y.as1d().print()
        Tensor
            [5, 5, 5, 5]
    """
    if isinstance(x, dict):
        return _options(conv2d, x)
    return _fused_conv("fused.conv2d", "FusedConv2D", _unfused_conv2d, False, x, filter, strides, pad, data_format,
                       dilations, dim_rounding_mode, bias, activation, prelu_activation_weights, leakyrelu_alpha)


@op
def depthwise_conv2d(x: Union[TensorLike, Dict[str, Any]], filter: Optional[TensorLike] = None,  # noqa: A002 - TF.js name
                     strides: Union[int, Sequence[int], None] = None, pad: Union[str, int, None] = None,
                     data_format: str = "NHWC", dilations: Union[int, Sequence[int]] = (1, 1),
                     dim_rounding_mode: Optional[str] = None, bias: Optional[TensorLike] = None,
                     activation: str = "linear", prelu_activation_weights: Optional[TensorLike] = None,
                     leakyrelu_alpha: float = 0.2) -> Tensor:
    """activation(depthwise_conv2d(x, filter) + bias) in one kernel; the arguments may also come as
    one dict, as conv2d's.

    Args:
        x: the input, [batch, height, width, channels] (or TF.js's dict of all the arguments).
        filter: [filter_height, filter_width, channels, multiplier].
        strides: the window's step, an int or a pair.
        pad: 'valid', 'same' or an int.
        data_format: 'NHWC' or 'NCHW'.
        dilations: the filter's dilation rates.
        dim_rounding_mode: 'floor', 'round' or 'ceil' for an int pad.
        bias: added per output channel (None: none).
        activation: 'linear', 'relu', 'relu6', 'elu', 'prelu', 'leakyrelu' or 'sigmoid'.
        prelu_activation_weights: prelu's alpha.
        leakyrelu_alpha: leakyrelu's slope.

    Returns:
        A Tensor, as tf.depthwise_conv2d's.

    Example:
        >>> x, f = tf.ones([1, 2, 2, 1]), tf.ones([2, 2, 1, 1])
        >>> tf.fused.depthwise_conv2d(x, f, 1, "valid", activation="relu").print()
        Tensor
            [[[[4]]]]
    """
    if isinstance(x, dict):
        return _options(depthwise_conv2d, x)
    return _fused_conv("fused.depthwise_conv2d", "FusedDepthwiseConv2D", _unfused_depthwise_conv2d, True, x, filter,
                       strides, pad, data_format, dilations, dim_rounding_mode, bias, activation,
                       prelu_activation_weights, leakyrelu_alpha)

