"""Convolution geometry, shared by the conv and pooling ops and every backend's conv kernels: TF.js's conv_util (computeConv2DInfo, computeConv3DInfo) in one form for
any number of spatial dimensions, plus the argument checks the ops make.

A ConvInfo describes one convolution over `len(in_size)` spatial dimensions (2 or 3):

  batch_size, in_channels, out_channels
  in_size, out_size, filter_size      spatial sizes ([height, width] or [depth, height, width])
  strides, dilations                  per spatial dimension
  effective_filter_size               filter_size + (filter_size - 1) * (dilation - 1)
  pad_before, pad_after               zero padding per spatial dimension (TF.js's top/left, bottom/right)
  pad_type                            'SAME', 'VALID', 'NUMBER' or 'EXPLICIT'
  data_format                         'channelsLast' (NHWC, NDHWC) or 'channelsFirst' (NCHW)
  in_shape, out_shape, filter_shape   full shapes, in data_format

Output position o along a spatial dimension reads input positions
o * stride - pad_before + k * dilation for the filter taps k (zeros outside the input).
"""
import math
from typing import NamedTuple

__all__ = ["ConvInfo", "conv_info", "conv_info_for", "compute_conv2d_info", "compute_conv3d_info", "compute_dilation2d_info",
           "compute_pool2d_info", "compute_pool3d_info", "check_conv_args", "tuple_param",
           "convert_conv2d_data_format"]

# JavaScript's Math.round rounds halves up (Python's round to even).
_ROUNDING = {None: math.trunc, "round": lambda v: math.floor(v + 0.5), "ceil": math.ceil, "floor": math.floor}


class ConvInfo(NamedTuple):
    batch_size: int
    in_channels: int
    out_channels: int
    in_size: tuple
    out_size: tuple
    filter_size: tuple
    strides: tuple
    dilations: tuple
    effective_filter_size: tuple
    pad_before: tuple
    pad_after: tuple
    pad_type: str
    data_format: str
    in_shape: tuple
    out_shape: tuple
    filter_shape: tuple

    @property
    def channels_last(self):
        return self.data_format == "channelsLast"


def _is_int(v):
    return not isinstance(v, bool) and hasattr(v, "__index__")


def tuple_param(value, n, op, arg):
    """An int or a sequence of n ints (TF.js also lets a 3D op take 2) as a tuple of n positive ints."""
    if _is_int(value):
        values = [value.__index__()] * n
    elif isinstance(value, (list, tuple)) and all(_is_int(v) for v in value):
        values = [v.__index__() for v in value]
    else:
        raise TypeError(f"{op}: argument '{arg}' must be an int or a list of {n} ints, got {value!r}")
    if len(values) != n:
        raise ValueError(f"{op}: argument '{arg}' must be an int or a list of {n} ints, got {list(values)}")
    if any(v <= 0 for v in values):
        raise ValueError(f"{op}: argument '{arg}' must be positive, got {list(values)}")
    return tuple(values)


def convert_conv2d_data_format(data_format, op):
    if data_format == "NHWC":
        return "channelsLast"
    if data_format == "NCHW":
        return "channelsFirst"
    raise ValueError(f"{op}: argument 'data_format' must be 'NHWC' or 'NCHW', got {data_format!r}")


def _check_pad(pad, n, op, rounding):
    """pad as given to an op: 'same', 'valid', a non-negative int, or (2D only) explicit
    [[0, 0], [top, bottom], [left, right], [0, 0]] pairs in the data format's axis order."""
    if isinstance(pad, str):
        if pad not in ("same", "valid"):
            raise ValueError(f"{op}: argument 'pad' must be 'same', 'valid', an int or explicit pads, got {pad!r}")
        if rounding is not None:
            raise ValueError(f"{op}: argument 'pad' must be an int when using dim_rounding_mode "
                             f"{rounding!r}, got pad {pad!r}")
        return pad
    if _is_int(pad):
        if pad.__index__() < 0:
            raise ValueError(f"{op}: argument 'pad' must be non-negative, got {pad}")
        return pad.__index__()
    if isinstance(pad, (list, tuple)) and n == 2:
        ok = len(pad) == 4 and all(isinstance(p, (list, tuple)) and len(p) == 2 and all(_is_int(v) and v >= 0 for v in p)
                                   for p in pad)
        if not ok:
            raise ValueError(f"{op}: explicit 'pad' must be 4 pairs of non-negative ints, got {pad!r}")
        return [[int(a), int(b)] for a, b in pad]
    if isinstance(pad, float):
        raise ValueError(f"{op}: argument 'pad' must be an int, got {pad}")
    raise TypeError(f"{op}: argument 'pad' must be 'same', 'valid' or an int"
                    f"{' or explicit pads' if n == 2 else ''}, got {pad!r}")


def check_conv_args(op, strides, dilations, pad, n, dim_rounding_mode=None, need_one=True):
    """The argument checks TF.js's conv ops make (and a few it leaves to chance): strides and
    dilations positive, one of them all ones, pad well formed, dim_rounding_mode known.
    Returns (strides, dilations, pad) normalised."""
    if dim_rounding_mode not in _ROUNDING:
        raise ValueError(f"{op}: argument 'dim_rounding_mode' must be None, 'round', 'ceil' or 'floor', "
                         f"got {dim_rounding_mode!r}")
    strides = tuple_param(strides, n, op, "strides")
    # TF.js's null dilations count as 1 (its depthwiseConv2d spec passes null for the default)
    dilations = tuple_param(1 if dilations is None else dilations, n, op, "dilations")
    if need_one and any(s != 1 for s in strides) and any(d != 1 for d in dilations):
        raise ValueError(f"{op}: either strides or dilations must be 1, got strides {list(strides)} "
                         f"and dilations {list(dilations)}")
    return strides, dilations, _check_pad(pad, n, op, dim_rounding_mode)


def _effective(size, dilation):
    return size if dilation <= 1 else size + (size - 1) * (dilation - 1)


def _pads_and_out(pad, in_size, strides, eff, rounding, data_format):
    """(pad_before, pad_after, out_size, pad_type), as TF.js's getPadAndOutInfo and get3DPadAndOutInfo."""
    n = len(in_size)
    round_fn = _ROUNDING[rounding]
    if pad == "valid" and n == 3:
        pad = 0   # TF.js's 3D geometry treats 'valid' as pad 0 (same sizes, truncating division)
    if isinstance(pad, int):
        out = [round_fn((i - f + 2 * pad) / s + 1) for i, f, s in zip(in_size, eff, strides)]
        if n == 3:   # computeOutputShape4D leaves a dimension the filter cannot cover at 0
            out = [o if i + 2 * pad >= f else 0 for o, i, f in zip(out, in_size, eff)]
        return (pad,) * n, (pad,) * n, tuple(out), "VALID" if pad == 0 else "NUMBER"
    if pad == "same":
        out = [-(-i // s) for i, s in zip(in_size, strides)]
        # TF.js clamps at 0 only in 2D; a negative 3D padding would shift the windows (TF clamps both)
        total = [max(0, (o - 1) * s + f - i) for o, s, f, i in zip(out, strides, eff, in_size)]
        before = [t // 2 for t in total]
        return tuple(before), tuple(t - b for t, b in zip(total, before)), tuple(out), "SAME"
    if pad == "valid":
        out = [-(-(i - f + 1) // s) for i, f, s in zip(in_size, eff, strides)]
        return (0,) * n, (0,) * n, tuple(out), "VALID"
    # explicit pairs, in the data format's axis order
    axes = (1, 2) if data_format == "channelsLast" else (2, 3)
    before = tuple(pad[a][0] for a in axes)
    after = tuple(pad[a][1] for a in axes)
    out = [round_fn((i - f + b + a) / s + 1) for i, f, b, a, s in zip(in_size, eff, before, after, strides)]
    kind = "VALID" if not any(before + after) else "EXPLICIT"
    return before, after, tuple(out), kind


def conv_info(in_shape, filter_shape, strides, dilations, pad, rounding, depthwise, data_format, n, op):
    in_shape, filter_shape = tuple(in_shape), tuple(filter_shape)
    if data_format == "channelsLast":
        batch, in_size, in_channels = in_shape[0], in_shape[1:-1], in_shape[-1]
    else:
        batch, in_channels, in_size = in_shape[0], in_shape[1], in_shape[2:]
    filter_size, filter_channels = filter_shape[:n], filter_shape[-1]
    strides = tuple_param(strides, n, op, "strides")
    # TF.js's null dilations count as 1 (its depthwiseConv2d spec passes null for the default)
    dilations = tuple_param(1 if dilations is None else dilations, n, op, "dilations")
    eff = tuple(_effective(f, d) for f, d in zip(filter_size, dilations))
    before, after, out_size, pad_type = _pads_and_out(pad, in_size, strides, eff, rounding, data_format)
    if any(o < 0 for o in out_size):
        raise ValueError(f"{op}: the filter (effective size {list(eff)}) does not fit the input "
                         f"{list(in_size)} with pad {pad!r}: output size {list(out_size)}")
    out_channels = filter_channels * in_channels if depthwise else filter_channels
    out_shape = ((batch, *out_size, out_channels) if data_format == "channelsLast"
                 else (batch, out_channels, *out_size))
    return ConvInfo(batch, in_channels, out_channels, tuple(in_size), out_size, tuple(filter_size), strides,
                    dilations, eff, before, after, pad_type, data_format, in_shape, out_shape, filter_shape)


def compute_conv2d_info(in_shape, filter_shape, strides, dilations, pad, rounding=None, depthwise=False,
                        data_format="channelsLast", op="conv2d"):
    """TF.js computeConv2DInfo: in_shape [b, h, w, c] (or [b, c, h, w]), filter [fh, fw, in, out]."""
    return conv_info(in_shape, filter_shape, strides, dilations, pad, rounding, depthwise, data_format, 2, op)


def compute_conv3d_info(in_shape, filter_shape, strides, dilations, pad, depthwise=False,
                        data_format="channelsLast", rounding=None, op="conv3d"):
    """TF.js computeConv3DInfo: in_shape [b, d, h, w, c], filter [fd, fh, fw, in, out]."""
    return conv_info(in_shape, filter_shape, strides, dilations, pad, rounding, depthwise, data_format, 3, op)


def compute_dilation2d_info(in_shape, filter_shape, strides, pad, dilations, op="dilation2d"):
    """TF.js computeDilation2DInfo: filter [fh, fw, c]; out_channels = c."""
    return compute_conv2d_info(in_shape, tuple(filter_shape) + (in_shape[3],), strides, dilations, pad, op=op)


def compute_pool2d_info(in_shape, filter_size, strides, dilations, pad, rounding=None,
                        data_format="channelsLast", op="pool"):
    """TF.js computePool2DInfo: a window of filter_size over each channel."""
    fh, fw = tuple_param(filter_size, 2, op, "filter_size")
    c = in_shape[3] if data_format == "channelsLast" else in_shape[1]
    return compute_conv2d_info(in_shape, (fh, fw, c, c), strides, dilations, pad, rounding, False, data_format, op)


def compute_pool3d_info(in_shape, filter_size, strides, dilations, pad, rounding=None, op="pool3d"):
    """TF.js computePool3DInfo (NDHWC)."""
    fd, fh, fw = tuple_param(filter_size, 3, op, "filter_size")
    c = in_shape[4]
    return compute_conv3d_info(in_shape, (fd, fh, fw, c, c), strides, dilations, pad, rounding=rounding, op=op)


# kernel name -> (spatial dimensions, depthwise) for conv_info_for()
_KINDS = {
    "Conv2D": (2, False), "Conv2DBackpropInput": (2, False), "Conv2DBackpropFilter": (2, False),
    "FusedConv2D": (2, False),
    "Conv3D": (3, False), "Conv3DBackpropInputV2": (3, False), "Conv3DBackpropFilterV2": (3, False),
    "DepthwiseConv2dNative": (2, True), "DepthwiseConv2dNativeBackpropInput": (2, True),
    "DepthwiseConv2dNativeBackpropFilter": (2, True), "FusedDepthwiseConv2D": (2, True),
}


def conv_info_for(kernel, x_shape, filter_shape, attrs):
    """The ConvInfo of a conv kernel call (kernels rebuild it from their attrs, which the op
    checked): x_shape is the forward input's (for a backprop-input kernel: attrs['input_shape']),
    filter_shape the forward filter's."""
    n, depthwise = _KINDS[kernel]
    data_format = "channelsFirst" if attrs.get("data_format") == "NCHW" else "channelsLast"
    return conv_info(x_shape, filter_shape, attrs["strides"], attrs.get("dilations", 1), attrs["pad"],
                     attrs.get("dim_rounding_mode"), depthwise, data_format, n, kernel)
