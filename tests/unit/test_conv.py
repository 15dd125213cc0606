"""Convolutions, dilation2d and tf.fused on the cpu backend, against straightforward references
written from the definitions (explicit loops over every output value and filter tap, on small
inputs, channels last): output position o reads input o * stride - pad_before + k * dilation.
Also the geometry (conv_util), NCHW, unbatched inputs, the backprop ops, and argument errors."""
import itertools

import numpy as np
import pytest

import pytfweb as tf
from pytfweb.ops import conv as conv_ops
from pytfweb.kernels import conv_geometry as conv_util

from .helpers import assert_raises, assert_tensor

rng = np.random.default_rng(7)


def floats(*shape):
    return rng.uniform(-2, 2, size=shape).astype(np.float32)


# --- references -----------------------------------------------------------------------------------


def pads(pad, in_size, filt, strides, dilations):
    """(pad_before, out_size) per spatial dimension for 'same', 'valid' or an int."""
    eff = [f + (f - 1) * (d - 1) for f, d in zip(filt, dilations)]
    if pad == "same":
        out = [-(-i // s) for i, s in zip(in_size, strides)]
        total = [max(0, (o - 1) * s + e - i) for o, s, e, i in zip(out, strides, eff, in_size)]
        return [t // 2 for t in total], out
    if pad == "valid":
        return [0] * len(in_size), [-(-(i - e + 1) // s) for i, e, s in zip(in_size, eff, strides)]
    return [pad] * len(in_size), [(i - e + 2 * pad) // s + 1 for i, e, s in zip(in_size, eff, strides)]


def _positions(out_size, filt, strides, dilations, before, in_size):
    """(output index, tap index, input index) for every in-bounds tap of every output."""
    for o in itertools.product(*(range(n) for n in out_size)):
        for k in itertools.product(*(range(n) for n in filt)):
            i = tuple(oo * s - b + kk * d for oo, s, b, kk, d in zip(o, strides, before, k, dilations))
            if all(0 <= ii < n for ii, n in zip(i, in_size)):
                yield o, k, i


def conv(x, w, strides, pad, dilations, depthwise=False):
    """x [b, *in, c]; w [*taps, c, oc] (depthwise: [*taps, c, m])."""
    n = x.ndim - 2
    filt = w.shape[:n]
    before, out = pads(pad, x.shape[1:-1], filt, strides, dilations)
    c = x.shape[-1]
    oc = c * w.shape[-1] if depthwise else w.shape[-1]
    y = np.zeros((x.shape[0], *out, oc), np.float64)
    for b in range(x.shape[0]):
        for o, k, i in _positions(out, filt, strides, dilations, before, x.shape[1:-1]):
            if depthwise:
                y[(b, *o)] += (x[(b, *i)][:, None] * w[k]).reshape(-1)
            else:
                y[(b, *o)] += x[(b, *i)] @ w[k]
    return y


def conv_backprop_input(x_shape, dy, w, strides, pad, dilations, depthwise=False):
    """The gradient of sum(conv(x, w) * dy) with respect to x."""
    n = len(x_shape) - 2
    filt = w.shape[:n]
    before, out = pads(pad, x_shape[1:-1], filt, strides, dilations)
    dx = np.zeros(x_shape, np.float64)
    for b in range(x_shape[0]):
        for o, k, i in _positions(out, filt, strides, dilations, before, x_shape[1:-1]):
            if depthwise:
                dx[(b, *i)] += (w[k] * dy[(b, *o)].reshape(w.shape[-2:])).sum(-1)
            else:
                dx[(b, *i)] += w[k] @ dy[(b, *o)]
    return dx


def conv_backprop_filter(x, dy, w_shape, strides, pad, dilations, depthwise=False):
    n = x.ndim - 2
    filt = w_shape[:n]
    before, out = pads(pad, x.shape[1:-1], filt, strides, dilations)
    dw = np.zeros(w_shape, np.float64)
    for b in range(x.shape[0]):
        for o, k, i in _positions(out, filt, strides, dilations, before, x.shape[1:-1]):
            if depthwise:
                dw[k] += x[(b, *i)][:, None] * dy[(b, *o)].reshape(w_shape[-2:])
            else:
                dw[k] += np.outer(x[(b, *i)], dy[(b, *o)])
    return dw


def dilation2d(x, w, strides, pad, dilations):
    """max over in-bounds taps of x + w (TF.js's floor where a window is all padding)."""
    before, out = pads(pad, x.shape[1:3], w.shape[:2], strides, dilations)
    y = np.full((x.shape[0], *out, x.shape[3]), -9007199254740991.0)
    for b in range(x.shape[0]):
        for o, k, i in _positions(out, w.shape[:2], strides, dilations, before, x.shape[1:3]):
            y[(b, *o)] = np.maximum(y[(b, *o)], x[(b, *i)] + w[k])
    return y


# --- forward against the references ------------------------------------------------------------------

# (strides, dilations) per spatial rank: either may exceed 1, not both
STEPS = {2: [(1, 1), (2, 1), ((2, 1), 1), (1, 2), (1, (2, 1))],
         3: [(1, 1), (2, 1), ((1, 2, 3), 1), (1, 2)]}
PADS = ["same", "valid", 1]


def _n(v, n):
    return (v,) * n if isinstance(v, int) else tuple(v)


@pytest.mark.parametrize("pad", PADS)
@pytest.mark.parametrize("steps", STEPS[2], ids=str)
def test_conv2d_matches_reference(pad, steps):
    strides, dilations = steps
    for x_shape, w_shape in [((2, 7, 6, 3), (3, 2, 3, 4)), ((1, 5, 5, 4), (1, 1, 4, 2)), ((1, 8, 6, 2), (4, 2, 2, 1))]:
        x, w = floats(*x_shape), floats(*w_shape)
        want = conv(x, w, _n(strides, 2), pad, _n(dilations, 2))
        assert_tensor(tf.conv2d(x, w, strides, pad, dilations=dilations), want, "float32", rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("pad", PADS)
@pytest.mark.parametrize("steps", STEPS[2], ids=str)
def test_depthwise_conv2d_matches_reference(pad, steps):
    strides, dilations = steps
    x, w = floats(2, 6, 7, 3), floats(3, 2, 3, 2)
    want = conv(x, w, _n(strides, 2), pad, _n(dilations, 2), depthwise=True)
    assert_tensor(tf.depthwise_conv2d(x, w, strides, pad, dilations=dilations), want, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("pad", PADS)
@pytest.mark.parametrize("steps", STEPS[3], ids=str)
def test_conv3d_matches_reference(pad, steps):
    strides, dilations = steps
    x, w = floats(2, 5, 6, 4, 2), floats(2, 3, 2, 2, 3)
    want = conv(x, w, _n(strides, 3), pad, _n(dilations, 3))
    assert_tensor(tf.conv3d(x, w, strides, pad, dilations=dilations), want, rtol=1e-4, atol=1e-4)


def test_hand_computed():
    # 3x3 input 1..9, 2x2 filter [[1, 2], [3, 4]], valid: each output is a window's dot product
    x = tf.tensor(np.arange(1, 10, dtype=np.float32).reshape(3, 3, 1))
    w = tf.tensor(np.float32([1, 2, 3, 4]).reshape(2, 2, 1, 1))
    assert_tensor(tf.conv2d(x, w, 1, "valid"), np.float32([[37, 47], [67, 77]]).reshape(2, 2, 1))
    # 'same' pads after first: the last row and column see zeros below and to the right
    assert_tensor(tf.conv2d(x, w, 1, "same"), np.float32([[37, 47, 21], [67, 77, 33], [23, 26, 9]]).reshape(3, 3, 1))
    # conv1d: [1, 2, 3, 4] with [1, -1], stride 2
    assert_tensor(tf.conv1d([[1.0], [2.0], [3.0], [4.0]], [[[1.0]], [[-1.0]]], 2, "valid"), [[-1.0], [-1.0]])
    # dilation2d: max of x + filter over the window
    assert_tensor(tf.dilation2d([[[1.0], [5.0], [2.0]]], [[[0.0], [-10.0]]], 1, "valid"), [[[1.0], [5.0]]])


def test_conv1d_unbatched_nchw_and_int_inputs():
    x, w = floats(2, 9, 3), floats(3, 3, 2)
    want = conv(x[:, None], w[None], (1, 2), "same", (1, 1))[:, 0]
    assert_tensor(tf.conv1d(x, w, 2, "same"), want, rtol=1e-4, atol=1e-4)
    assert_tensor(tf.conv1d(x[0], w, 2, "same"), want[0], rtol=1e-4, atol=1e-4)
    want = conv(x[:, None], w[None], (1, 1), "valid", (1, 2))[:, 0]
    assert_tensor(tf.conv1d(x, w, 1, "valid", dilation=2), want, rtol=1e-4, atol=1e-4)
    x4, w4 = floats(2, 5, 6, 3), floats(3, 3, 3, 4)
    nchw = tf.conv2d(np.moveaxis(x4, -1, 1), w4, 2, "same", "NCHW")
    assert_tensor(nchw, np.moveaxis(conv(x4, w4, (2, 2), "same", (1, 1)), -1, 1), rtol=1e-4, atol=1e-4)
    dnchw = tf.depthwise_conv2d(np.moveaxis(x4, -1, 1), w4[..., :2], 1, "valid", "NCHW")
    assert_tensor(dnchw, np.moveaxis(conv(x4, w4[..., :2], (1, 1), "valid", (1, 1), True), -1, 1),
                  rtol=1e-4, atol=1e-4)
    assert_tensor(tf.conv2d(x4[0], w4, 1, "valid"), conv(x4[:1], w4, (1, 1), "valid", (1, 1))[0], rtol=1e-4, atol=1e-4)
    with pytest.raises(TypeError, match="float32"):   # TF.js: conv2d takes float32 tensors only
        tf.conv2d(tf.ones([1, 3, 3, 1], "int32"), tf.ones([2, 2, 1, 1], "int32"), 1, "valid")
    ints = tf.conv2d([[[[1], [1], [1]]] * 3], tf.ones([2, 2, 1, 1]), 1, "valid")   # values become float32
    assert_tensor(ints, np.full((1, 2, 2, 1), 4.0), "float32")


def test_explicit_pads_and_rounding_modes():
    x, w = floats(1, 7, 6, 2), floats(3, 2, 2, 3)
    explicit = tf.conv2d(x, w, 1, [[0, 0], [2, 0], [1, 3], [0, 0]])
    padded = np.pad(x, [(0, 0), (2, 0), (1, 3), (0, 0)])
    assert_tensor(explicit, conv(padded, w, (1, 1), "valid", (1, 1)), rtol=1e-4, atol=1e-4)
    # (7 - 3 + 2) / 2 + 1 = 4 rows either way; (6 - 2 + 2) / 2 + 1 = 4 columns; pad 1, stride 2, 5x5:
    # (5 - 2 + 2) / 2 + 1 = 3.5 -> floor 3, ceil 4 (a last window half in the padding), round 4
    x5, w2 = floats(1, 5, 5, 1), floats(2, 2, 1, 1)
    for mode, size in (("floor", 3), ("ceil", 4), ("round", 4), (None, 3)):
        assert tf.conv2d(x5, w2, 2, 1, dim_rounding_mode=mode).shape == (1, size, size, 1)
    full = conv(np.pad(x5, [(0, 0), (1, 2), (1, 2), (0, 0)]), w2, (2, 2), "valid", (1, 1))
    assert_tensor(tf.conv2d(x5, w2, 2, 1, dim_rounding_mode="ceil"), full, rtol=1e-4, atol=1e-4)


def test_separable_conv2d():
    x, dw, pw = floats(2, 6, 6, 3), floats(3, 3, 3, 2), floats(1, 1, 6, 4)
    depthwise = conv(x, dw, (2, 2), "same", (1, 1), depthwise=True)
    want = conv(depthwise, pw, (1, 1), "valid", (1, 1))
    assert_tensor(tf.separable_conv2d(x, dw, pw, 2, "same"), want, rtol=1e-4, atol=1e-4)
    assert_tensor(tf.separable_conv2d(x[0], dw, pw, 2, "same"), want[0], rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("pad", ["same", "valid"])
@pytest.mark.parametrize("steps", [(1, 1), (2, 1), (1, 2), ((2, 3), (2, 1))], ids=str)
def test_dilation2d_matches_reference(pad, steps):
    strides, dilations = steps
    x, w = floats(2, 7, 6, 3), floats(3, 2, 3)
    want = dilation2d(x, w, _n(strides, 2), pad, _n(dilations, 2))
    assert_tensor(tf.dilation2d(x, w, strides, pad, dilations), want)
    assert_tensor(tf.dilation2d(x[1], w, strides, pad, dilations), want[1])


def test_dilation2d_skips_nan():
    x = np.float32([1, np.nan, 3, -np.inf]).reshape(1, 1, 4, 1)
    got = tf.dilation2d(x, np.zeros((1, 2, 1), np.float32), 1, "valid")
    assert_tensor(got, np.float32([1, 3, 3]).reshape(1, 1, 3, 1))


# --- transposed convolutions and the backprop ops ----------------------------------------------------

@pytest.mark.parametrize("pad", PADS)
@pytest.mark.parametrize("strides", [1, 2, (1, 3)], ids=str)
def test_backprop_ops_match_reference(pad, strides):
    for n, depthwise in ((2, False), (2, True), (3, False)):
        s = _n(strides, 2) + ((2,) if n == 3 else ())
        x = floats(2, *(7, 6, 5)[:n], 3)
        w = floats(*(3, 2, 2)[:n], 3, 2)
        y_shape = conv(x, w, s, pad, (1,) * n, depthwise).shape
        dy = floats(*y_shape)
        want_dx = conv_backprop_input(x.shape, dy, w, s, pad, (1,) * n, depthwise)
        want_dw = conv_backprop_filter(x, dy, w.shape, s, pad, (1,) * n, depthwise)
        if n == 3:
            dx = conv_ops.conv3d_backprop_input(x.shape, tf.tensor(dy), tf.tensor(w), s, pad)
            dw = conv_ops.conv3d_backprop_filter(tf.tensor(x), tf.tensor(dy), w.shape, s, pad)
        elif depthwise:
            dx = conv_ops.depthwise_conv2d_native_backprop_input(x.shape, tf.tensor(dy), tf.tensor(w), s, pad)
            dw = conv_ops.depthwise_conv2d_native_backprop_filter(tf.tensor(x), tf.tensor(dy), w.shape, s, pad)
        else:
            dx = conv_ops.conv2d_backprop_input(x.shape, tf.tensor(dy), tf.tensor(w), s, pad)
            dw = conv_ops.conv2d_backprop_filter(tf.tensor(x), tf.tensor(dy), w.shape, s, pad)
        assert_tensor(dx, want_dx, rtol=1e-4, atol=1e-4)
        assert_tensor(dw, want_dw, rtol=1e-4, atol=1e-4)


def test_conv2d_and_conv3d_transpose():
    x, w = floats(2, 3, 4, 5), floats(3, 3, 2, 5)
    want = conv_backprop_input((2, 6, 7, 2), x, w, (2, 2), "same", (1, 1))
    assert_tensor(tf.conv2d_transpose(x, w, [2, 6, 7, 2], 2, "same"), want, rtol=1e-4, atol=1e-4)
    assert_tensor(tf.conv2d_transpose(x[0], w, [6, 7, 2], 2, "same"), want[0], rtol=1e-4, atol=1e-4)
    v, vw = floats(1, 2, 3, 2, 3), floats(2, 2, 2, 2, 3)
    want = conv_backprop_input((1, 3, 4, 3, 2), v, vw, (1, 1, 1), "valid", (1, 1, 1))
    assert_tensor(tf.conv3d_transpose(v, vw, [1, 3, 4, 3, 2], 1, "valid"), want, rtol=1e-4, atol=1e-4)


# --- fused ------------------------------------------------------------------------------------------

ACTIVATIONS = {
    "linear": lambda v, w: v, "relu": lambda v, w: np.maximum(v, 0), "relu6": lambda v, w: np.clip(v, 0, 6),
    "elu": lambda v, w: np.where(v >= 0, v, np.expm1(v)), "sigmoid": lambda v, w: 1 / (1 + np.exp(-v)),
    "leakyrelu": lambda v, w: np.where(v < 0, 0.3 * v, v), "prelu": lambda v, w: np.where(v < 0, w * v, v),
}


@pytest.mark.parametrize("activation", list(ACTIVATIONS))
def test_fused_ops(activation):
    x, w, dw, bias = floats(2, 5, 6, 4), floats(3, 3, 4, 3), floats(2, 2, 4, 2), floats(3)
    alpha = floats(3)
    kw = dict(activation=activation, prelu_activation_weights=alpha, leakyrelu_alpha=0.3)
    f = ACTIVATIONS[activation]
    assert_tensor(tf.fused.conv2d(x, w, 2, "same", bias=bias, **kw),
                  f(conv(x, w, (2, 2), "same", (1, 1)) + bias, alpha), rtol=1e-4, atol=1e-4)
    dbias, dalpha = floats(8), floats(8)
    kw["prelu_activation_weights"] = dalpha
    assert_tensor(tf.fused.depthwise_conv2d(x, dw, 1, "valid", bias=dbias, **kw),
                  f(conv(x, dw, (1, 1), "valid", (1, 1), True) + dbias, dalpha), rtol=1e-4, atol=1e-4)
    a, b, mbias = floats(2, 3, 4), floats(4, 5), floats(2, 1, 5)
    kw["prelu_activation_weights"] = floats(5)
    assert_tensor(tf.fused.mat_mul(a, b, bias=mbias, **kw), f(a @ b + mbias, kw["prelu_activation_weights"]),
                  rtol=1e-4, atol=1e-4)
    assert_tensor(tf.fused.mat_mul(np.swapaxes(a, 1, 2), b.T, True, True, **kw),
                  f(a @ b, kw["prelu_activation_weights"]), rtol=1e-4, atol=1e-4)


def test_fused_nchw_bias_and_defaults():
    x, w, bias = floats(1, 4, 5, 3), floats(3, 3, 3, 2), floats(2)
    want = np.maximum(conv(x, w, (1, 1), "same", (1, 1)) + bias, 0)
    got = tf.fused.conv2d(np.moveaxis(x, -1, 1), w, 1, "same", "NCHW", bias=bias, activation="relu")
    assert_tensor(got, np.moveaxis(want, -1, 1), rtol=1e-4, atol=1e-4)
    assert_tensor(tf.fused.conv2d(x[0], w, 1, "same"), conv(x, w, (1, 1), "same", (1, 1))[0], rtol=1e-4, atol=1e-4)
    assert_tensor(tf.fused.mat_mul([[1.0, 2.0]], [[3.0], [4.0]], activation=None), [[11.0]])


def test_conv_info_geometry():
    info = conv_util.compute_conv2d_info((2, 7, 6, 3), (3, 2, 3, 4), 2, 1, "same")
    assert info.out_shape == (2, 4, 3, 4) and info.pad_before == (1, 0) and info.pad_after == (1, 0)
    assert info.pad_type == "SAME"
    info = conv_util.compute_conv2d_info((1, 3, 5, 5), (3, 3, 3, 8), 1, 2, "valid", data_format="channelsFirst")
    assert info.out_shape == (1, 8, 1, 1) and info.effective_filter_size == (5, 5)
    info = conv_util.compute_conv2d_info((1, 5, 5, 2), (2, 2, 2, 2), 1, 1, "valid", depthwise=True)
    assert info.out_channels == 4
    info = conv_util.compute_conv3d_info((1, 4, 5, 6, 1), (2, 2, 2, 1, 1), (1, 2, 3), 1, "same")
    assert info.out_shape == (1, 4, 3, 2, 1)
    assert conv_util.compute_pool2d_info((1, 6, 6, 3), 2, 2, 1, "valid").out_shape == (1, 3, 3, 3)


# --- errors -----------------------------------------------------------------------------------------

def test_errors():
    x, w = tf.ones([1, 5, 5, 3]), tf.ones([2, 2, 3, 4])
    ones = {}

    def t(*shape):
        """A ones tensor made before assert_raises counts memory (and kept for the test)."""
        if shape not in ones:
            ones[shape] = tf.ones(list(shape))
        return ones[shape]
    cases = [
        (ValueError, lambda: tf.conv2d(t(5, 3), w, 1, "same"), "conv2d", "'x'", "rank 4"),
        (ValueError, lambda: tf.conv2d(x, t(2, 3, 4), 1, "same"), "conv2d", "'filter'", "rank 4"),
        (ValueError, lambda: tf.conv2d(x, t(2, 2, 2, 4), 1, "same"), "conv2d", "depth of input (3)"),
        (ValueError, lambda: tf.conv2d(x, w, 2, "same", dilations=2), "conv2d", "either strides or dilations"),
        (ValueError, lambda: tf.conv2d(x, w, 0, "same"), "conv2d", "'strides'", "positive"),
        (ValueError, lambda: tf.conv2d(x, w, 1, "same", dilations=[1, 0]), "conv2d", "'dilations'"),
        (ValueError, lambda: tf.conv2d(x, w, [1, 1, 1], "same"), "conv2d", "'strides'"),
        (ValueError, lambda: tf.conv2d(x, w, 1, "full"), "conv2d", "'pad'"),
        (ValueError, lambda: tf.conv2d(x, w, 1, -1), "conv2d", "'pad'"),
        (ValueError, lambda: tf.conv2d(x, w, 1, [[0, 0], [1, 1]]), "conv2d", "explicit 'pad'"),
        (ValueError, lambda: tf.conv2d(x, w, 1, "same", dim_rounding_mode="ceil"), "conv2d", "dim_rounding_mode"),
        (ValueError, lambda: tf.conv2d(x, w, 1, 0, dim_rounding_mode="up"), "conv2d", "'dim_rounding_mode'"),
        (ValueError, lambda: tf.conv2d(x, w, 1, "same", "NWHC"), "conv2d", "'data_format'"),
        (ValueError, lambda: tf.conv2d(x, t(7, 7, 3, 1), 1, "valid"), "conv2d", "does not fit"),
        (TypeError, lambda: tf.conv2d(x, w, 1.5, "same"), "conv2d", "'strides'"),
        (TypeError, lambda: tf.conv2d(x, "w", 1, "same"), "conv2d", "'filter'"),
        (ValueError, lambda: tf.conv1d(x, t(2, 3, 1), 1, "same"), "conv1d", "'x'"),
        (ValueError, lambda: tf.conv1d(t(4, 3), t(2, 2, 1), 1, "same"), "conv1d", "depth of input"),
        (ValueError, lambda: tf.conv1d(t(4, 3), t(2, 3, 1), 1, "same", "NCW"), "conv1d", "'data_format'"),
        (ValueError, lambda: tf.conv3d(t(5, 3), t(1, 1, 1, 3, 1), 1, "same"), "conv3d", "'x'", "rank 5"),
        (ValueError, lambda: tf.conv3d(t(1, 2, 2, 2, 3), t(1, 1, 1, 2, 1), 1, "same"), "conv3d", "depth"),
        (TypeError, lambda: tf.conv3d(t(1, 2, 2, 2, 3), t(1, 1, 1, 3, 1), 1, [[0, 0]] * 5),
         "conv3d", "'pad'"),
        (ValueError, lambda: tf.depthwise_conv2d(x, t(2, 2, 2, 1), 1, "same"), "depthwise_conv2d", "depth"),
        (ValueError, lambda: tf.separable_conv2d(x, t(2, 2, 3, 2), t(1, 1, 5, 4), 1, "same"),
         "separable_conv2d", "'pointwise_filter'", "6"),
        (ValueError, lambda: tf.separable_conv2d(x, t(2, 2, 3, 2), t(2, 1, 6, 4), 1, "same"),
         "separable_conv2d", "'pointwise_filter'"),
        (ValueError, lambda: tf.dilation2d(x, t(2, 2, 2), 1, "same"), "dilation2d", "same depth"),
        (ValueError, lambda: tf.dilation2d(x, t(2, 2, 3, 1), 1, "same"), "dilation2d", "'filter'"),
        (ValueError, lambda: tf.dilation2d(x, t(2, 2, 3), 1, 1), "dilation2d", "'pad'"),
        (ValueError, lambda: tf.conv2d_transpose(t(1, 3, 3, 4), w, [1, 5, 5, 3], 1, "same"),
         "conv2d_transpose", "shape"),
        (ValueError, lambda: tf.conv2d_transpose(t(1, 5, 5, 4), w, [5, 5, 3], 1, "same"),
         "conv2d_transpose", "'output_shape'"),
        (ValueError, lambda: tf.conv2d_transpose(t(1, 5, 5, 2), w, [1, 5, 5, 3], 1, "same"),
         "conv2d_transpose", "depth of 'x'"),
        (ValueError, lambda: tf.fused.conv2d(x, w, 1, "same", activation="tanh"), "fused.conv2d", "'activation'"),
        (ValueError, lambda: tf.fused.conv2d(x, w, 1, "same", bias=t(3)), "fused.conv2d", "'bias'"),
        (ValueError, lambda: tf.fused.conv2d(x, w, 1, "same", activation="prelu"), "fused.conv2d", "prelu"),
        (ValueError, lambda: tf.fused.conv2d(x, w, 1, "same", activation="prelu", prelu_activation_weights=t(2)),
         "fused.conv2d", "prelu_activation_weights"),
        (ValueError, lambda: tf.fused.mat_mul(t(2, 3), t(2, 3)), "fused.mat_mul", "inner"),
        (ValueError, lambda: tf.fused.mat_mul(t(3), t(3, 2)), "fused.mat_mul", "'a'"),
        (TypeError, lambda: tf.fused.mat_mul(t(2, 3), t(3, 2), leakyrelu_alpha="x"),
         "fused.mat_mul", "'leakyrelu_alpha'"),
    ]
    for shape in [(5, 3), (2, 3, 4), (2, 2, 2, 4), (7, 7, 3, 1), (2, 3, 1), (4, 3), (2, 2, 1), (1, 1, 1, 3, 1),
                  (1, 2, 2, 2, 3), (1, 1, 1, 2, 1), (2, 2, 2, 1), (2, 2, 3, 2), (1, 1, 5, 4), (2, 1, 6, 4), (2, 2, 2),
                  (2, 2, 3, 1), (2, 2, 3), (1, 3, 3, 4), (1, 5, 5, 4), (1, 5, 5, 2), (3,), (2,), (2, 3), (3, 2), (6, 6, 3, 1)]:
        t(*shape)
    for exc, fn, *fragments in cases:
        assert_raises(exc, fn, *fragments)
    empty = tf.conv2d(x, t(6, 6, 3, 1), 1, "valid")   # (5 - 6 + 1) / 1 = 0 windows: an empty output
    assert empty.shape == (1, 0, 0, 1)
    before = tf.memory().num_tensors
    tf.conv2d(np.ones((1, 3, 3, 1), np.float32), np.ones((1, 1, 1, 1), np.float32), 1, "same")
    assert tf.memory().num_tensors == before + 1    # only the result: converted inputs are released
