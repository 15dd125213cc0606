"""2-D convolutions and pooling on webgpu against cpu: strides, dilations, same/valid/explicit
padding, NHWC and NCHW, depthwise multipliers, the input and filter gradients, max/avg pooling
(int32 max pooling too)."""
import numpy as np
import pytest

from .test_webgpu_backend import compare_webgpu, webgpu  # noqa: F401  (fixtures)

RNG = np.random.default_rng(71)
TOLERANCE = dict(rtol=1e-4, atol=1e-4)


def _r(*shape):
    return RNG.uniform(-1, 1, size=shape).astype(np.float32)


@pytest.mark.parametrize("strides, pad, dilations", [(1, "valid", 1), (2, "same", 1), ((1, 2), "same", 1),
                                                     (1, "valid", 2), (1, [[0, 0], [1, 2], [2, 0], [0, 0]], 1)])
def test_conv2d(compare_webgpu, strides, pad, dilations):
    compare_webgpu(f"lambda x, f: tf.conv2d(x, f, {strides!r}, {pad!r}, dilations={dilations!r})",
                   [_r(2, 7, 6, 3), _r(3, 2, 3, 4)], **TOLERANCE)


def test_conv2d_nchw_and_depthwise(compare_webgpu):
    compare_webgpu("lambda x, f, d: [tf.conv2d(x, f, 1, 'same', 'NCHW'), tf.depthwise_conv2d(tf.transpose(x, [0, 2, 3, 1]), "
                   "d, 2, 'same'), tf.depthwise_conv2d(tf.transpose(x, [0, 2, 3, 1]), d, 1, 'valid', dilations=2)]",
                   [_r(2, 3, 6, 5), _r(3, 3, 3, 2), _r(2, 2, 3, 2)], **TOLERANCE)


def test_conv_gradients_equal_cpus(compare_webgpu):
    compare_webgpu("lambda x, f: tf.grads(lambda x, f: tf.sum(tf.conv2d(x, f, 2, 'same') ** 2))([x, f])",
                   [_r(2, 5, 6, 3), _r(3, 3, 3, 2)], **TOLERANCE)
    compare_webgpu("lambda x, f: tf.grads(lambda x, f: tf.sum(tf.depthwise_conv2d(x, f, 1, 'same', dilations=2) ** 2))"
                   "([x, f])", [_r(1, 5, 6, 2), _r(2, 2, 2, 3)], **TOLERANCE)
    compare_webgpu("lambda x, f: tf.grads(lambda x, f: tf.sum(tf.conv2d(x, f, 1, 'valid', 'NCHW') ** 2))([x, f])",
                   [_r(2, 3, 5, 4), _r(2, 2, 3, 2)], **TOLERANCE)


def test_conv_gradient_numerically(webgpu):
    from .test_webgpu_gradients import numeric_error_on_webgpu
    x, f = _r(1, 4, 4, 2).tolist(), _r(2, 2, 2, 2).tolist()
    assert numeric_error_on_webgpu(webgpu, "lambda x, f: tf.conv2d(x, f, 1, 'same')", [x, f]) < 2e-2


def test_pooling(compare_webgpu):
    x = _r(2, 7, 6, 3)
    x[0, 0, 0, 0] = np.nan
    i = RNG.integers(-2 ** 31, 2 ** 31 - 1, size=(1, 4, 5, 2)).astype(np.int32)
    compare_webgpu("lambda x, i: [tf.max_pool(x, 2, 2, 'valid'), tf.max_pool(x, 3, 1, 'same'), tf.avg_pool(x, 2, 2, 'same'), "
                   "tf.avg_pool(x, [3, 2], [1, 2], 'valid'), tf.max_pool(i, 2, 1, 'same'), tf.max_pool(x, 3, 2, 1)]",
                   [x, i], **TOLERANCE)


def test_pooling_gradients(compare_webgpu):
    x = _r(2, 6, 7, 3)
    x[0, 1, 1, 0] = x[0, 1, 2, 0] = 5.0   # a tie: the first maximum takes the gradient
    compare_webgpu("lambda x: [*tf.grads(lambda x: tf.sum(tf.max_pool(x, 2, 2, 'valid') * 3.0))([x]), "
                   "*tf.grads(lambda x: tf.sum(tf.max_pool(x, 3, 1, 'same') ** 2))([x]), "
                   "*tf.grads(lambda x: tf.sum(tf.avg_pool(x, [3, 2], [2, 1], 'same') ** 2))([x]), "
                   "*tf.grads(lambda x: tf.sum(tf.avg_pool(x, 2, 2, 'valid')))([x])]", [x], **TOLERANCE)


def test_conv3d_and_pool3d(compare_webgpu):
    x = _r(2, 4, 5, 3, 2)
    x[0, 1, 1, 1, 0] = x[0, 1, 1, 2, 0] = 4.0   # a tie: 3-D max pool gradients go to the last maximum
    f = _r(2, 3, 2, 2, 3)
    compare_webgpu("lambda x, f: [tf.conv3d(x, f, 1, 'same'), tf.conv3d(x, f, [2, 1, 2], 'valid'), "
                   "tf.conv3d(x, f, 1, 'valid', dilations=[1, 2, 1]), tf.max_pool3d(x, 2, 1, 'same'), "
                   "tf.avg_pool3d(x, [2, 3, 2], 2, 'same'), tf.max_pool3d(x, 3, 2, 'valid'), "
                   "*tf.grads(lambda x, f: tf.sum(tf.conv3d(x, f, [1, 2, 1], 'same') ** 2))([x, f]), "
                   "*tf.grads(lambda x: tf.sum(tf.max_pool3d(x, 2, 1, 'valid') * 2.0))([x]), "
                   "*tf.grads(lambda x: tf.sum(tf.avg_pool3d(x, 2, [1, 2, 1], 'same') ** 2))([x])]", [x, f], **TOLERANCE)


def test_dilation2d_and_gradients(compare_webgpu):
    x = _r(2, 5, 6, 3)
    x[0, 1, 1, 0] = np.nan
    f = _r(2, 3, 3)
    compare_webgpu("lambda x, f: [tf.dilation2d(x, f, 1, 'same'), tf.dilation2d(x, f, [2, 1], 'valid', [1, 2]), "
                   "*tf.grads(lambda x, f: tf.sum(tf.dilation2d(x, f, 1, 'same') * 2.0))([x, f]), "
                   "*tf.grads(lambda x, f: tf.sum(tf.dilation2d(x, f, 2, 'valid') ** 2))([x, f])]", [x, f], **TOLERANCE)


@pytest.mark.parametrize("strides, pad, dilations", [(1, "same", 1), (2, "valid", 1), (1, "same", 2),
                                                     ((2, 1), [[0, 0], [2, 1], [0, 3], [0, 0]], 1)])
def test_conv2d_as_implicit_gemm(compare_webgpu, strides, pad, dilations):
    # FH * FW * C >= GEMM_FROM, OC not a multiple of 4: the tiled GEMM reading x on the fly; sizes
    # across the 32-wide tiles
    x = _r(3, 11, 13, 12)
    x[0, 1, 2, 3] = np.nan
    compare_webgpu(f"lambda x, f: [tf.conv2d(x, f, {strides!r}, {pad!r}, dilations={dilations!r}), "
                   f"tf.fused.conv2d(x, f, {strides!r}, {pad!r}, dilations={dilations!r}, bias=f[0, 0, 0], "
                   "activation='relu')]", [x, _r(3, 2, 12, 35)], **TOLERANCE)


@pytest.mark.parametrize("strides, pad, dilations", [(1, "same", 1), (2, "valid", 1), (1, "same", 2),
                                                     ((2, 1), [[0, 0], [2, 1], [0, 3], [0, 0]], 1)])
def test_conv2d_gradients_as_implicit_gemm(compare_webgpu, strides, pad, dilations):
    # filter gradient: batch * OH * OW >= GEMM_FROM positions (C = 5: tiled); input gradient:
    # FH * FW * OC >= GEMM_FROM (OC = 40: register-blocked)
    compare_webgpu(f"lambda x, f: tf.grads(lambda x, f: tf.sum(tf.conv2d(x, f, {strides!r}, {pad!r}, "
                   f"dilations={dilations!r}) ** 2))([x, f])", [_r(2, 11, 9, 5), _r(3, 3, 5, 40)], rtol=1e-4, atol=1e-3)


@pytest.mark.parametrize("strides, pad, dilations", [(1, "same", 1), (2, "valid", 1), (2, "same", 1), (1, "same", 2),
                                                     ((2, 1), [[0, 0], [2, 1], [0, 3], [0, 0]], 1)])
def test_conv2d_gradients_register_blocked(compare_webgpu, strides, pad, dilations):
    # C and OC multiples of 4: both gradients by the register-blocked GEMM (dy, x and the filter as
    # vec4s); positions (the filter gradient's K) and rows not multiples of the block; NaN and
    # infinity in x (a non-finite filter would differ from cpu in the input gradient, as with the
    # tiled GEMM before: the GEMM multiplies the 0 of a position no output reads by the filter)
    x, f = _r(2, 7, 9, 8), _r(3, 2, 8, 12)
    x[0, 1, 2, 3], x[1, 3, 4, 5] = np.nan, np.inf
    compare_webgpu(f"lambda x, f: tf.grads(lambda x, f: tf.sum(tf.conv2d(x, f, {strides!r}, {pad!r}, "
                   f"dilations={dilations!r}) * x[0, 0, 0, 0]))([x, f])", [x, f], rtol=1e-4, atol=1e-3)
    compare_webgpu(f"lambda x, f: tf.grads(lambda x, f: tf.sum(tf.conv2d(x, f, {strides!r}, {pad!r}, "
                   f"dilations={dilations!r}) ** 2))([x, f])", [_r(3, 6, 5, 12), _r(2, 3, 12, 8)], rtol=1e-4, atol=1e-3)


@pytest.mark.parametrize("filter_hw, strides, pad, dilations", [
    ((3, 3), 1, "same", 1), ((3, 3), 2, "valid", 1), ((3, 3), 2, "same", 1), ((3, 3), (1, 2), "same", 1),
    ((3, 3), 1, "same", (2, 3)), ((1, 1), 1, "valid", 1), ((5, 2), (2, 3), [[0, 0], [2, 1], [0, 3], [0, 0]], 1),
    ((8, 3), 1, "same", 1)])
def test_depthwise_vec4(compare_webgpu, filter_hw, strides, pad, dilations):
    # NHWC, one filter per channel, C a multiple of 4: 4 channels x DW_COLUMNS output columns per
    # invocation, unrolled per variant (an 8-high filter takes the direct program); output widths
    # not a multiple of the columns; NaN and infinity in x and the filter
    x = _r(2, 9, 11, 12)
    x[0, 0, 0, 0], x[1, 4, 5, 7] = np.nan, np.inf
    f = _r(*filter_hw, 12, 1)
    f[0, 0, 3, 0] = -np.inf
    compare_webgpu(f"lambda x, f: tf.depthwise_conv2d(x, f, {strides!r}, {pad!r}, dilations={dilations!r})",
                   [x, f], **TOLERANCE)


def test_pointwise_vec4(compare_webgpu):
    # 1x1, stride 1, no padding, NHWC, C and OC multiples of 4: [B * H * W, C] x [C, OC], PW_ROWS
    # positions x 8 (OC a multiple of 8) or 4 output channels per invocation (B * H * W = 70, not
    # a multiple of the rows); NaN and infinity in x; the fused form (bias, relu); a padded or
    # strided 1x1 takes the other programs
    x = _r(2, 5, 7, 12)
    x[0, 0, 0, 0], x[1, 4, 6, 11] = np.nan, -np.inf
    compare_webgpu("lambda x, f, g: [tf.conv2d(x, f, 1, 'same'), tf.conv2d(x, g, 1, 'valid'), "
                   "tf.conv2d(x, f, 1, 'valid', dilations=2), "
                   "tf.fused.conv2d(x, f, 1, 'same', bias=f[0, 0, 0], activation='relu'), "
                   "tf.conv2d(x, f, 2, 'same'), tf.conv2d(x, f, 1, [[0, 0], [1, 0], [0, 2], [0, 0]])]",
                   [x, _r(1, 1, 12, 8), _r(1, 1, 12, 12)], **TOLERANCE)


@pytest.mark.parametrize("channels", [3, 8])
@pytest.mark.parametrize("strides, pad, dilations", [(1, "same", 1), (2, "valid", 1), (2, "same", 1), (1, "same", 2),
                                                     ((2, 1), [[0, 0], [2, 1], [0, 3], [0, 0]], 1)])
def test_conv2d_vec4(compare_webgpu, channels, strides, pad, dilations):
    # NHWC, OC a multiple of 4: 4 output channels x 4 output columns per invocation, x read as
    # vec4s where C is a multiple of 4 too; output widths not a multiple of 4; NaN and infinity
    x = _r(2, 9, 11, channels)
    x[0, 0, 0, 0], x[1, 4, 5, channels - 1] = np.nan, np.inf
    f = _r(3, 2, channels, 8)
    f[1, 1, 0, 5] = -np.inf
    compare_webgpu(f"lambda x, f: [tf.conv2d(x, f, {strides!r}, {pad!r}, dilations={dilations!r}), "
                   f"tf.fused.conv2d(x, f, {strides!r}, {pad!r}, dilations={dilations!r}, bias=f[0, 0, 0], "
                   "activation='relu6')]", [x, f], **TOLERANCE)


@pytest.mark.parametrize("activation", ["linear", "relu", "relu6", "elu", "sigmoid", "leakyrelu", "prelu"])
def test_fused_forward_in_the_store(webgpu, compare_webgpu, activation):
    # per-channel and one-value bias and PReLU weights in the store of each vec4 program (conv2d,
    # pointwise, depthwise); a bias or weights of another shape: the epilogue dispatch
    x = _r(2, 5, 7, 8)
    x[0, 0, 0, 0], x[1, 2, 3, 4] = np.nan, np.inf
    options = {"prelu": ", prelu_activation_weights={w}", "leakyrelu": ", leakyrelu_alpha=0.3"}.get(activation, "")
    calls = ", ".join(f"tf.fused.{op}(x, {f}, 1, 'same', bias={b}, activation='{activation}'{options.format(w=w)})"
                      for op, f in (("conv2d", "f"), ("conv2d", "p"), ("depthwise_conv2d", "d"))
                      for b, w in (("b", "b"), ("b[0]", "b[1]"), ("None", "b[:1]"), ("m", "m3")))
    compare_webgpu(f"lambda x, f, p, d, b, m, m3: [{calls}]",
                   [x, _r(3, 3, 8, 8), _r(1, 1, 8, 8), _r(3, 3, 8, 1), _r(8), _r(7, 8), _r(5, 7, 8)], **TOLERANCE)
