"""numpy kernels: convolutions (contracts in ops/conv.py) and the fused ops (ops/fused.py).

Every convolution is the same few steps for 2 or 3 spatial dimensions, channels last:
  windows(x)   a strided view [b, *out, c, *taps] of the padded input (no copy; its tensordot
               or einsum with the filter is the im2col product)
  scatter      the transpose of windows: a [b, *out, *taps, c] array added back into the padded
               input, one filter tap at a time (vectorised over every pixel), then cropped
channels-first (NCHW) tensors are transposed to channels last and back around them.
"""
import itertools

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from ....kernels import register_kernel
from ....kernels.conv_geometry import compute_dilation2d_info, conv_info_for

# What TF.js's cpu dilation2d starts its maximum from (Number.MIN_SAFE_INTEGER): an output
# whose window lies wholly in the padding is this.
_DILATION_FLOOR = np.float32(-9007199254740991)


def _to_last(a, info):
    return a if info.channels_last else np.moveaxis(a, 1, -1)


def _from_last(a, info):
    return a if info.channels_last else np.moveaxis(a, -1, 1)


def _pad_widths(info):
    """(before, after) per spatial dimension, so that every window of the output lies inside
    the padded input (a rounding mode may ask for a last window past the given padding: it
    reads the padding value too)."""
    widths = []
    for i, o, s, f, before, after in zip(info.in_size, info.out_size, info.strides, info.effective_filter_size,
                                         info.pad_before, info.pad_after):
        need = (o - 1) * s + f - i - before if o else 0
        widths.append((before, max(after, need, 0)))
    return widths


def _padded(x, info, fill=0.0):
    """x [b, *in, c] padded for _windows."""
    return np.pad(x, [(0, 0), *_pad_widths(info), (0, 0)], constant_values=fill)


def _windows(xp, info):
    """[b, *out, c, *taps] view of a padded channels-last input."""
    n = len(info.in_size)
    if 0 in info.out_size:   # no window at all (a 'valid' filter exactly one wider than the input)
        return np.zeros((xp.shape[0], *info.out_size, xp.shape[-1], *info.filter_size), xp.dtype)
    view = sliding_window_view(xp, info.effective_filter_size, axis=tuple(range(1, n + 1)))
    starts = tuple(slice(0, o * s, s) if o else slice(0, 0) for o, s in zip(info.out_size, info.strides))
    taps = tuple(slice(None, None, d) for d in info.dilations)
    return view[(slice(None),) + starts + (slice(None),) + taps]


def _scatter(cols, info):
    """The transpose of _windows: cols [b, *out, *taps, c] summed into an input [b, *in, c]."""
    n = len(info.in_size)
    sizes = tuple(i + b + a for i, (b, a) in zip(info.in_size, _pad_widths(info)))
    xp = np.zeros((cols.shape[0],) + sizes + (cols.shape[-1],), np.float32)
    for taps in itertools.product(*(range(f) for f in info.filter_size)):
        where = tuple(slice(k * d, k * d + (o - 1) * s + 1, s) if o else slice(0, 0)
                      for k, d, o, s in zip(taps, info.dilations, info.out_size, info.strides))
        xp[(slice(None),) + where] += cols[(slice(None),) * (n + 1) + taps]
    inside = tuple(slice(b, b + i) for b, i in zip(info.pad_before, info.in_size))
    return xp[(slice(None),) + inside]


def _x_windows(backend, x, info):
    return _windows(_padded(_to_last(backend.values(x), info), info), info)


def _tap_axes(n, first):
    return tuple(range(first, first + n))


def conv_forward(xw, filt, info, depthwise):
    """xw [b, *out, c, *taps] with filter [*taps, c, m] -> [b, *out, oc], channels last."""
    n = len(info.in_size)
    if depthwise:
        b, *out, c = xw.shape[:n + 2]
        y = np.einsum(xw, [0, *range(1, n + 1), n + 1, *range(n + 3, 2 * n + 3)],
                      filt, [*range(n + 3, 2 * n + 3), n + 1, n + 2], [0, *range(1, n + 1), n + 1, n + 2])
        return y.reshape((b, *out, c * filt.shape[-1]))
    return np.tensordot(xw, filt, axes=((n + 1,) + _tap_axes(n, n + 2), (n,) + _tap_axes(n, 0)))


def _conv(backend, inputs, attrs, kernel, depthwise):
    x, f = inputs
    info = conv_info_for(kernel, x.shape, f.shape, attrs)
    y = conv_forward(_x_windows(backend, x, info), backend.values(f), info, depthwise)
    return _from_last(y, info)


def _backprop_input(backend, inputs, attrs, kernel, depthwise):
    dy, f = inputs
    filt = backend.values(f)
    info = conv_info_for(kernel, attrs["input_shape"], f.shape, attrs)
    n = len(info.in_size)
    g = _to_last(backend.values(dy), info)
    if depthwise:   # [b, *out, c * m] . [*taps, c, m] -> [b, *out, *taps, c]
        g = g.reshape(g.shape[:-1] + filt.shape[-2:])
        cols = np.einsum(g, [0, *range(1, n + 1), n + 1, n + 2], filt, [*range(n + 3, 2 * n + 3), n + 1, n + 2],
                         [0, *range(1, n + 1), *range(n + 3, 2 * n + 3), n + 1])
    else:           # [b, *out, oc] . [*taps, c, oc] -> [b, *out, *taps, c]
        cols = np.tensordot(g, filt, axes=((n + 1,), (n + 1,)))
    return _from_last(_scatter(cols, info), info)


def _backprop_filter(backend, inputs, attrs, kernel, depthwise):
    x, dy = inputs
    info = conv_info_for(kernel, x.shape, attrs["filter_shape"], attrs)
    n = len(info.in_size)
    xw = _x_windows(backend, x, info)                  # [b, *out, c, *taps]
    g = _to_last(backend.values(dy), info)             # [b, *out, oc]
    if depthwise:
        c, m = attrs["filter_shape"][-2:]
        g = g.reshape(g.shape[:-1] + (c, m))
        return np.einsum(xw, [0, *range(1, n + 1), n + 1, *range(n + 3, 2 * n + 3)],
                         g, [0, *range(1, n + 1), n + 1, n + 2], [*range(n + 3, 2 * n + 3), n + 1, n + 2])
    dw = np.tensordot(xw, g, axes=(tuple(range(n + 1)), tuple(range(n + 1))))   # [c, *taps, oc]
    return np.moveaxis(dw, 0, n)


def _register(kernel, fn, depthwise):
    register_kernel(kernel, "cpu", lambda backend, inputs, attrs:
                    backend.output(fn(backend, inputs, attrs, kernel, depthwise), "float32"))


for _kernel, _fn, _depthwise in [
        ("Conv2D", _conv, False), ("Conv3D", _conv, False), ("DepthwiseConv2dNative", _conv, True),
        ("Conv2DBackpropInput", _backprop_input, False), ("Conv3DBackpropInputV2", _backprop_input, False),
        ("DepthwiseConv2dNativeBackpropInput", _backprop_input, True),
        ("Conv2DBackpropFilter", _backprop_filter, False), ("Conv3DBackpropFilterV2", _backprop_filter, False),
        ("DepthwiseConv2dNativeBackpropFilter", _backprop_filter, True)]:
    _register(_kernel, _fn, _depthwise)


# --- Dilation2D ---------------------------------------------------------------------------------

def _dilation_values(backend, x, f, attrs):
    """(info, values [b, oh, ow, c, taps] of x + filter, -inf where a tap is in the padding)."""
    info = compute_dilation2d_info(x.shape, f.shape, attrs["strides"], attrs["pad"], attrs["dilations"])
    xw = _windows(_padded(backend.values(x), info, -np.inf), info)     # [b, oh, ow, c, fh, fw]
    filt = np.moveaxis(backend.values(f), -1, 0)                        # [c, fh, fw]
    values = (xw + filt).reshape(xw.shape[:4] + (-1,))
    # TF.js's running maximum skips NaN (NaN > v is false): so does this one
    return info, np.where(np.isnan(values), -np.inf, values)


@register_kernel("Dilation2D", "cpu")
def dilation2d(backend, inputs, attrs):
    _, values = _dilation_values(backend, *inputs, attrs)
    # strictly greater than the floor, as TF.js's running maximum
    return backend.output(np.max(values, axis=-1, initial=_DILATION_FLOOR), "float32")


def _argmax_taps(values):
    """Per output, the first tap with the maximum above the floor, or -1 (TF.js's strict > scan)."""
    best = np.argmax(values, axis=-1)
    top = np.take_along_axis(values, best[..., None], -1)[..., 0]
    return np.where(top > _DILATION_FLOOR, best, -1)


@register_kernel("Dilation2DBackpropInput", "cpu")
def dilation2d_backprop_input(backend, inputs, attrs):
    x, f, dy = inputs
    info, values = _dilation_values(backend, x, f, attrs)
    tap = _argmax_taps(values)                                          # [b, oh, ow, c]
    fh, fw = info.filter_size
    (sh, sw), (dh, dw), (pt, pl) = info.strides, info.dilations, info.pad_before
    b, oh, ow, c = np.indices(tap.shape, sparse=True)
    # no maximum: TF.js sends dy to the window's corner, clamped into the input
    rows = np.where(tap >= 0, oh * sh - pt + (tap // fw) * dh, np.maximum(oh * sh - pt, 0))
    cols = np.where(tap >= 0, ow * sw - pl + (tap % fw) * dw, np.maximum(ow * sw - pl, 0))
    dx = np.zeros(x.shape, np.float32)
    inside = (rows < x.shape[1]) & (cols < x.shape[2])
    np.add.at(dx, (np.broadcast_to(b, tap.shape)[inside], rows[inside], cols[inside],
                   np.broadcast_to(c, tap.shape)[inside]), backend.values(dy)[inside])
    return backend.output(dx, "float32")


@register_kernel("Dilation2DBackpropFilter", "cpu")
def dilation2d_backprop_filter(backend, inputs, attrs):
    x, f, dy = inputs
    info, values = _dilation_values(backend, x, f, attrs)
    tap = np.maximum(_argmax_taps(values), 0)     # no maximum: TF.js's default tap is (0, 0)
    c = np.broadcast_to(np.arange(tap.shape[-1]), tap.shape)
    df = np.zeros((info.filter_size[0] * info.filter_size[1], tap.shape[-1]), np.float32)
    np.add.at(df, (tap.ravel(), c.ravel()), backend.values(dy).ravel())
    return backend.output(df.reshape(f.shape), "float32")


# --- fused kernels (contract in ops/fused.py) ---------------------------------------------------

def _sigmoid(v):
    return 1 / (1 + np.exp(-v))


# activation -> fn(values, prelu weights, leakyrelu alpha)
ACTIVATIONS = {
    "linear": lambda v, w, alpha: v,
    "relu": lambda v, w, alpha: np.maximum(v, 0),
    "relu6": lambda v, w, alpha: np.minimum(np.maximum(v, 0), 6),
    "elu": lambda v, w, alpha: np.where(v >= 0, v, np.expm1(np.minimum(v, 0))),
    "sigmoid": lambda v, w, alpha: _sigmoid(v),
    "leakyrelu": lambda v, w, alpha: np.where(v < 0, alpha * v, v),
    "prelu": lambda v, w, alpha: np.where(v < 0, w * v, v),
}


def _bias_and_activation(backend, y, extras, attrs):
    extras = list(extras)
    if attrs["has_bias"]:
        y = y + backend.values(extras.pop(0))
    w = backend.values(extras.pop(0)) if attrs["activation"] == "prelu" else None
    with np.errstate(over="ignore"):
        return backend.output(ACTIVATIONS[attrs["activation"]](y, w, attrs["leakyrelu_alpha"]), "float32")


def _fused_conv(kernel, depthwise):
    def run(backend, inputs, attrs):
        y = _conv(backend, inputs[:2], attrs, kernel, depthwise)
        return _bias_and_activation(backend, y, inputs[2:], attrs)
    return run


register_kernel("FusedConv2D", "cpu", _fused_conv("FusedConv2D", False))
register_kernel("FusedDepthwiseConv2D", "cpu", _fused_conv("FusedDepthwiseConv2D", True))


@register_kernel("_FusedMatMul", "cpu")
def fused_mat_mul(backend, inputs, attrs):
    a, b = (backend.values(t) for t in inputs[:2])
    if attrs["transpose_a"]:
        a = np.swapaxes(a, -1, -2)
    if attrs["transpose_b"]:
        b = np.swapaxes(b, -1, -2)
    return _bias_and_activation(backend, np.matmul(a, b), inputs[2:], attrs)
