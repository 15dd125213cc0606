"""Convolution and pooling: Conv2D, depthwise, the converter's fused forms (_FusedConv2D,
FusedDepthwiseConv2dNative: + BiasAdd / FusedBatchNorm, then an activation), transposed conv,
3D forms, pools, Dilation2D.

TensorFlow gives strides, dilations and ksize for every dimension of the data format
([1, sh, sw, 1] for NHWC, [1, 1, sh, sw] for NCHW); the spatial ones are picked by the format.
"""
from ... import ops as tfo
from ...ops.fused import ACTIVATIONS
from ._table import ints, pairs, table
from .basic_math import OPS as MATH


def _spatial(values, fmt, n=2):
    """The spatial entries of a per-dimension attribute (strides, dilations, ksize)."""
    if len(values) == n:
        return list(values)
    start = 2 if fmt.startswith("NC") else 1
    return list(values[start:start + n])


def _pad(a, fmt):
    """TensorFlow padding -> pytfweb's pad: 'same', 'valid' or explicit [[0, 0], [t, b], [l, r], [0, 0]]."""
    padding = a.str("padding").lower()
    if padding != "explicit":
        return padding
    flat = a.ints("explicit_paddings", [])
    if len(flat) != 8:
        raise ValueError(f"graph model: node '{a.node}' ({a.op}) has EXPLICIT padding but explicit_paddings holds "
                         f"{len(flat)} values, not 8")
    spatial = _spatial(pairs(flat), fmt)
    return [[0, 0], spatial[0], spatial[1], [0, 0]]


def _conv_args(a, default_format="NHWC"):
    fmt = a.str("data_format", default_format).upper()
    return dict(strides=_spatial(a.ints("strides"), fmt), pad=_pad(a, fmt), data_format=fmt,
                dilations=_spatial(a.ints("dilations", [1, 1, 1, 1]), fmt))


def _apply_unfused(y, activation, a):
    op = {"tanh": "Tanh", "relu": "Relu", "relu6": "Relu6", "elu": "Elu", "sigmoid": "Sigmoid", "selu": "Selu",
          "softplus": "Softplus"}.get(activation)
    if op is None:
        raise NotImplementedError(f"graph model: node '{a.node}' ({a.op}) fuses the activation '{activation}', which "
                                  f"is not supported")
    return MATH[op].fn([y], a)


def fused_args(x, a, first_arg=2):
    """_Fused* attributes and extra inputs -> (bias, batch norm (scale, offset, mean, variance) or
    None, activation, prelu weights, leakyrelu alpha). fused_ops is [extra op, activation] with
    the extra op BiasAdd or FusedBatchNorm (or only an activation)."""
    fused = [s.lower() for s in a.strs("fused_ops", [])]
    args = x[first_arg:]
    # TF.js reads fused_ops as [extra op, activation]; 'noop' is an extra op that adds nothing
    extra = fused[0] if fused and fused[0] in ("biasadd", "fusedbatchnorm", "noop") else None
    rest = fused[1:] if extra else fused
    extra = None if extra == "noop" else extra
    if len(rest) > 1:
        raise NotImplementedError(f"graph model: node '{a.node}' ({a.op}) fuses {a.strs('fused_ops')}; pytfweb fuses "
                                  f"one extra op and one activation")
    activation = rest[0] if rest else "linear"
    needed = {"biasadd": 1, "fusedbatchnorm": 4, None: 0}[extra] + (activation == "prelu")
    if len(args) < needed:
        raise ValueError(f"graph model: node '{a.node}' ({a.op}) fuses {a.strs('fused_ops')} and needs {needed} extra "
                         f"input(s), got {len(args)}")
    bias = args[0] if extra == "biasadd" else None
    norm = tuple(args[:4]) if extra == "fusedbatchnorm" else None
    prelu = args[needed - 1] if activation == "prelu" else None
    return bias, norm, activation, prelu, a.float("leakyrelu_alpha", 0.2)


def _fused(conv, unfused):
    def run(x, a):
        kw = _conv_args(a)
        bias, norm, activation, prelu, alpha = fused_args(x, a)
        if norm is None and activation in ACTIVATIONS:
            return conv(x[0], x[1], kw["strides"], kw["pad"], kw["data_format"], kw["dilations"], bias=bias,
                        activation=activation, prelu_activation_weights=prelu, leakyrelu_alpha=alpha)
        y = unfused(x[0], x[1], kw["strides"], kw["pad"], kw["data_format"], kw["dilations"])
        if norm is not None:
            scale, offset, mean, variance = norm
            y = _batch_norm(y, mean, variance, offset, scale, a.float("epsilon", 1e-4), kw["data_format"])
        if bias is not None:
            y = tfo.add(y, bias)
        if activation in ACTIVATIONS:
            return _activate(y, activation, prelu, alpha)
        return _apply_unfused(y, activation, a)
    return run


def _activate(y, activation, prelu, alpha):
    if activation == "linear":
        return y
    if activation == "prelu":
        return tfo.prelu(y, prelu)
    if activation == "leakyrelu":
        return tfo.leaky_relu(y, alpha)
    return {"relu": tfo.relu, "relu6": tfo.relu6, "elu": tfo.elu, "sigmoid": tfo.sigmoid}[activation](y)


def _batch_norm(y, mean, variance, offset, scale, epsilon, fmt):
    if fmt.startswith("NC") and y.rank > 2:
        shape = [-1] + [1] * (y.rank - 2)
        mean, variance, offset, scale = (tfo.reshape(t, shape) for t in (mean, variance, offset, scale))
    return tfo.batch_norm(y, mean, variance, offset, scale, epsilon)


def conv2d(x, a):
    kw = _conv_args(a)
    return tfo.conv2d(x[0], x[1], kw["strides"], kw["pad"], kw["data_format"], kw["dilations"])


def depthwise(x, a):
    kw = _conv_args(a)
    return tfo.depthwise_conv2d(x[0], x[1], kw["strides"], kw["pad"], kw["data_format"], kw["dilations"])


def conv2d_backprop_input(x, a):
    kw = _conv_args(a)
    return tfo.conv2d_transpose(x[2], x[1], ints(x[0]), kw["strides"], kw["pad"])


def conv1d(x, a):
    return tfo.conv1d(x[0], x[1], a.int("stride"), a.str("padding").lower(), a.str("data_format", "NWC").upper(),
                      a.int("dilation", 1))


def conv3d(x, a):
    fmt = a.str("data_format", "NDHWC").upper()
    return tfo.conv3d(x[0], x[1], _spatial(a.ints("strides"), fmt, 3), a.str("padding").lower(), fmt,
                      _spatial(a.ints("dilations", [1, 1, 1, 1, 1]), fmt, 3))


def _channels_last(fn):
    """A 2D pool on NHWC; NCHW input is transposed there and back."""
    def run(x, a):
        fmt = a.str("data_format", "NHWC").upper()
        ksize, strides = _spatial(a.ints("ksize"), fmt), _spatial(a.ints("strides"), fmt)
        pad = _pad(a, "NHWC")
        if fmt == "NCHW":
            y = fn(tfo.transpose(x[0], [0, 2, 3, 1]), ksize, strides, pad)
            return tfo.transpose(y, [0, 3, 1, 2])
        return fn(x[0], ksize, strides, pad)
    return run


def _pool3d(fn):
    def run(x, a):
        fmt = a.str("data_format", "NDHWC").upper()
        return fn(x[0], _spatial(a.ints("ksize"), fmt, 3), _spatial(a.ints("strides"), fmt, 3),
                  a.str("padding").lower(), data_format=fmt)
    return run


def max_pool_with_argmax(x, a):
    r = tfo.max_pool_with_argmax(x[0], _spatial(a.ints("ksize"), "NHWC"), _spatial(a.ints("strides"), "NHWC"),
                                 a.str("padding").lower(), a.bool("include_batch_in_index", False))
    return [r.result, r.indexes]


def dilation2d(x, a):
    return tfo.dilation2d(x[0], x[1], _spatial(a.ints("strides"), "NHWC"), a.str("padding").lower(),
                          _spatial(a.ints("rates"), "NHWC"), "NHWC")


OPS = table("convolution", {
    "Conv1D": (2, conv1d),
    "Conv2D": (2, conv2d),
    "_FusedConv2D": (2, _fused(tfo.fused.conv2d, tfo.conv2d)),
    "DepthwiseConv2d": (2, depthwise),
    "DepthwiseConv2dNative": (2, depthwise),
    "FusedDepthwiseConv2dNative": (2, _fused(tfo.fused.depthwise_conv2d, tfo.depthwise_conv2d)),
    "Conv2DBackpropInput": (3, conv2d_backprop_input),
    "Conv3D": (2, conv3d),
    "AvgPool": (1, _channels_last(tfo.avg_pool)),
    "MaxPool": (1, _channels_last(tfo.max_pool)),
    "MaxPoolWithArgmax": (1, max_pool_with_argmax),
    "AvgPool3D": (1, _pool3d(tfo.avg_pool3d)),
    "MaxPool3D": (1, _pool3d(tfo.max_pool3d)),
    "Dilation2D": (2, dilation2d),
})
