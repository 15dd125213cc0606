"""Convolutional, pooling, normalization, padding, activation and noise layers on the cpu
backend: outputs against numpy for fixed weights, output shapes, parameter counts, gradients,
errors; a small conv classifier that learns; MobileNet v1's parameter count."""
import numpy as np
import pytest

import pytfweb as tf
from tests.unit.helpers import assert_gradients_match_numeric, assert_raises, assert_tensor, summary_params


def _apply(layer, x, training=False):
    t = tf.tensor(x)
    out = layer.apply(t, training=training)
    t.dispose()
    return out


def _f32(rng, *shape):
    return rng.normal(size=shape).astype(np.float32)


# --- numpy references ------------------------------------------------------------------------------
def _same_pads(size, k, s, d=1):
    ek = (k - 1) * d + 1
    out = -(-size // s)
    total = max((out - 1) * s + ek - size, 0)
    return total // 2, total - total // 2


def _np_conv(x, w, strides, padding, dilations=None, depthwise=False):
    """Channels-last N-d convolution; w [*k, cin, cout] (or [*k, cin, mult] when depthwise)."""
    nd = x.ndim - 2
    dilations = dilations or [1] * nd
    ks = w.shape[:nd]
    if padding == "same":
        pads = [_same_pads(x.shape[1 + i], ks[i], strides[i], dilations[i]) for i in range(nd)]
        x = np.pad(x, [(0, 0)] + pads + [(0, 0)])
    out_sp = [(x.shape[1 + i] - ((ks[i] - 1) * dilations[i] + 1)) // strides[i] + 1 for i in range(nd)]
    cin = x.shape[-1]
    cout = cin * w.shape[-1] if depthwise else w.shape[-1]
    out = np.zeros((x.shape[0], *out_sp, cout), np.float64)
    for kidx in np.ndindex(*ks):
        sl = tuple(slice(kidx[i] * dilations[i], kidx[i] * dilations[i] + (out_sp[i] - 1) * strides[i] + 1,
                         strides[i]) for i in range(nd))
        patch = x[(slice(None),) + sl + (slice(None),)]
        if depthwise:
            out += (patch[..., :, None] * w[kidx][None]).reshape(*patch.shape[:-1], cout)
        else:
            out += patch @ w[kidx]
    return out


def _np_conv_transpose(x, w, strides, padding):
    """Channels-last 2-D transposed convolution; w [kh, kw, cout, cin]."""
    n, h, wd, _ = x.shape
    kh, kw, cout, _ = w.shape
    full = np.zeros((n, (h - 1) * strides[0] + kh, (wd - 1) * strides[1] + kw, cout))
    for i, j in np.ndindex(h, wd):
        full[:, i * strides[0]:i * strides[0] + kh, j * strides[1]:j * strides[1] + kw] += \
            np.einsum("nc,hwoc->nhwo", x[:, i, j], w)
    if padding == "valid":
        oh, ow = h * strides[0] + max(kh - strides[0], 0), wd * strides[1] + max(kw - strides[1], 0)
        return full[:, :oh, :ow]
    oh, ow = h * strides[0], wd * strides[1]
    ph = max((h - 1) * strides[0] + kh - oh, 0) // 2
    pw = max((wd - 1) * strides[1] + kw - ow, 0) // 2
    return full[:, ph:ph + oh, pw:pw + ow]


def _np_pool(x, size, strides, mode):
    nd = x.ndim - 2
    out_sp = [(x.shape[1 + i] - size[i]) // strides[i] + 1 for i in range(nd)]
    out = np.empty((x.shape[0], *out_sp, x.shape[-1]), np.float32)
    for idx in np.ndindex(*out_sp):
        sl = tuple(slice(idx[i] * strides[i], idx[i] * strides[i] + size[i]) for i in range(nd))
        win = x[(slice(None),) + sl + (slice(None),)]
        axes = tuple(range(1, nd + 1))
        out[(slice(None),) + idx + (slice(None),)] = win.max(axes) if mode == "max" else win.mean(axes)
    return out


# --- convolutions -------------------------------------------------------------------------------------
@pytest.mark.parametrize("padding,strides,dilation", [("valid", 1, 1), ("same", 2, 1), ("same", 1, 2),
                                                      ("valid", [2, 1], 1)])
@pytest.mark.parametrize("activation", ["linear", "relu", "tanh"])
def test_conv2d_matches_numpy(padding, strides, dilation, activation, rng):
    x, w, b = _f32(rng, 2, 7, 6, 3), _f32(rng, 3, 2, 3, 4), _f32(rng, 4)
    layer = tf.layers.conv2d(filters=4, kernel_size=[3, 2], strides=strides, padding=padding,
                             dilation_rate=dilation, activation=activation, weights=[w, b])
    s = [strides] * 2 if isinstance(strides, int) else strides
    ref = _np_conv(x, w, s, padding, [dilation] * 2) + b
    ref = {"linear": ref, "relu": np.maximum(ref, 0), "tanh": np.tanh(ref)}[activation]
    out = _apply(layer, x)
    assert_tensor(out, ref, rtol=1e-4, atol=1e-4)
    assert tuple(layer.compute_output_shape((None, 7, 6, 3))) == (None,) + ref.shape[1:]


def test_conv2d_channels_first_and_no_bias(rng):
    x, w = _f32(rng, 2, 3, 5, 5), _f32(rng, 3, 3, 3, 2)
    layer = tf.layers.conv2d(filters=2, kernel_size=3, data_format="channelsFirst", use_bias=False, weights=[w])
    ref = _np_conv(x.transpose(0, 2, 3, 1), w, [1, 1], "valid").transpose(0, 3, 1, 2)
    assert_tensor(_apply(layer, x), ref, rtol=1e-4, atol=1e-4)
    assert layer.compute_output_shape((None, 3, 5, 5)) == (None, 2, 3, 3)
    assert layer.count_params() == 3 * 3 * 3 * 2


@pytest.mark.parametrize("padding", ["valid", "same", "causal"])
def test_conv1d_matches_numpy(padding, rng):
    x, w, b = _f32(rng, 2, 9, 3), _f32(rng, 3, 3, 5), _f32(rng, 5)
    layer = tf.layers.conv1d(filters=5, kernel_size=3, padding=padding, dilation_rate=2, weights=[w, b])
    if padding == "causal":
        ref = _np_conv(np.pad(x, [(0, 0), (4, 0), (0, 0)]), w, [1], "valid", [2]) + b
    else:
        ref = _np_conv(x, w, [1], padding, [2]) + b
    assert_tensor(_apply(layer, x), ref, rtol=1e-4, atol=1e-4)
    assert tuple(layer.compute_output_shape((None, 9, 3))) == (None,) + ref.shape[1:]


def test_conv3d_matches_numpy(rng):
    x, w, b = _f32(rng, 1, 5, 4, 6, 2), _f32(rng, 2, 3, 3, 2, 3), _f32(rng, 3)
    layer = tf.layers.conv3d(filters=3, kernel_size=[2, 3, 3], strides=[1, 1, 2], padding="same",
                             activation="relu", weights=[w, b])
    ref = np.maximum(_np_conv(x, w, [1, 1, 2], "same") + b, 0)
    assert_tensor(_apply(layer, x), ref, rtol=1e-4, atol=1e-4)
    assert tuple(layer.compute_output_shape((None, 5, 4, 6, 2))) == (None,) + ref.shape[1:]


@pytest.mark.parametrize("padding,strides", [("valid", 2), ("same", 2), ("valid", 1), ("same", 3)])
def test_conv2d_transpose_matches_numpy(padding, strides, rng):
    x, w, b = _f32(rng, 2, 3, 4, 3), _f32(rng, 3, 3, 2, 3), _f32(rng, 2)
    layer = tf.layers.conv2d_transpose(filters=2, kernel_size=3, strides=strides, padding=padding, weights=[w, b])
    ref = _np_conv_transpose(x, w, [strides] * 2, padding) + b
    assert_tensor(_apply(layer, x), ref, rtol=1e-4, atol=1e-4)
    assert tuple(layer.compute_output_shape((None, 3, 4, 3))) == (None,) + ref.shape[1:]
    assert [list(v.shape) for v in layer.weights] == [[3, 3, 2, 3], [2]]


@pytest.mark.parametrize("padding", ["valid", "same"])
def test_conv3d_transpose_shapes_and_adjoint(padding, rng):
    """conv3d_transpose is the adjoint of conv3d: <conv3d(y), x> == <y, conv3d_transpose(x)>."""
    x, w = _f32(rng, 1, 2, 3, 2, 3), _f32(rng, 2, 2, 2, 2, 3)
    layer = tf.layers.conv3d_transpose(filters=2, kernel_size=2, strides=2, padding=padding, use_bias=False,
                                       weights=[w])
    out = _apply(layer, x).numpy()
    assert out.shape == (1, 4, 6, 4, 2) == (1,) + layer.compute_output_shape((None, 2, 3, 2, 3))[1:]
    y = _f32(rng, *out.shape)
    lhs = float((_np_conv(y, w, [2, 2, 2], padding) * x).sum())
    np.testing.assert_allclose(lhs, float((y * out).sum()), rtol=1e-4)


@pytest.mark.parametrize("padding,strides,mult", [("valid", 1, 1), ("same", 2, 2)])
@pytest.mark.parametrize("activation", ["linear", "relu6", "softplus"])
def test_depthwise_conv2d_matches_numpy(padding, strides, mult, activation, rng):
    x, w, b = _f32(rng, 2, 6, 7, 3) * 3, _f32(rng, 3, 3, 3, mult), _f32(rng, 3 * mult)
    layer = tf.layers.depthwise_conv2d(kernel_size=3, strides=strides, padding=padding, depth_multiplier=mult,
                                       activation=activation, weights=[w, b])
    ref = _np_conv(x, w, [strides] * 2, padding, depthwise=True) + b
    ref = {"linear": ref, "relu6": np.clip(ref, 0, 6), "softplus": np.log1p(np.exp(ref))}[activation]
    assert_tensor(_apply(layer, x), ref, rtol=1e-4, atol=1e-4)
    assert tuple(layer.compute_output_shape((None, 6, 7, 3))) == (None,) + ref.shape[1:]


@pytest.mark.parametrize("activation", ["linear", "sigmoid", "softsign"])
def test_separable_conv2d_matches_numpy(activation, rng):
    x = _f32(rng, 2, 6, 6, 3)
    dw, pw, b = _f32(rng, 3, 3, 3, 2), _f32(rng, 1, 1, 6, 4), _f32(rng, 4)
    layer = tf.layers.separable_conv2d(filters=4, kernel_size=3, depth_multiplier=2, padding="same",
                                       activation=activation, weights=[dw, pw, b])
    ref = _np_conv(_np_conv(x, dw, [1, 1], "same", depthwise=True), pw, [1, 1], "valid") + b
    ref = {"linear": ref, "sigmoid": 1 / (1 + np.exp(-ref)), "softsign": ref / (1 + np.abs(ref))}[activation]
    assert_tensor(_apply(layer, x), ref, rtol=1e-4, atol=1e-4)
    assert layer.count_params() == 3 * 3 * 3 * 2 + 6 * 4 + 4


def test_conv_parameter_counts_and_default_initializers():
    cases = [(tf.layers.conv2d(filters=8, kernel_size=3), (None, 10, 10, 3), 3 * 3 * 3 * 8 + 8),
             (tf.layers.conv1d(filters=4, kernel_size=5, use_bias=False), (None, 20, 2), 5 * 2 * 4),
             (tf.layers.conv3d(filters=2, kernel_size=2), (None, 4, 4, 4, 3), 2 * 2 * 2 * 3 * 2 + 2),
             (tf.layers.depthwise_conv2d(kernel_size=3, depth_multiplier=3), (None, 8, 8, 4), 3 * 3 * 4 * 3 + 12),
             (tf.layers.conv2d_transpose(filters=5, kernel_size=2), (None, 4, 4, 3), 2 * 2 * 5 * 3 + 5)]
    for layer, shape, n in cases:
        layer.build(shape)
        assert layer.count_params() == n, layer.name
    init = cases[0][0].kernel_initializer   # TF.js's conv default: glorot normal
    assert (init.get_class_name(), init.scale, init.mode, init.distribution) == \
        ("VarianceScaling", 1.0, "fan_avg", "normal")


# --- cropping, up-sampling, zero padding -----------------------------------------------------------------
def test_cropping_upsampling_padding(rng):
    x = _f32(rng, 2, 6, 5, 3)
    assert_tensor(_apply(tf.layers.cropping2d(cropping=[[1, 2], [0, 1]]), x), x[:, 1:4, 0:4])
    assert_tensor(_apply(tf.layers.cropping2d(cropping=1), x), x[:, 1:5, 1:4])
    assert_tensor(_apply(tf.layers.cropping2d(cropping=[2, 1], data_format="channelsFirst"), x), x[:, :, 2:3, 1:2])
    up = tf.layers.up_sampling2d(size=[2, 3])
    assert_tensor(_apply(up, x), x.repeat(2, 1).repeat(3, 2))
    assert up.compute_output_shape((None, 6, 5, 3)) == (None, 12, 15, 3)
    assert tuple(_apply(tf.layers.up_sampling2d(interpolation="bilinear"), x).shape) == (2, 12, 10, 3)
    assert_tensor(_apply(tf.layers.zero_padding2d(), x), np.pad(x, [(0, 0), (1, 1), (1, 1), (0, 0)]))
    zp = tf.layers.zero_padding2d(padding=[[0, 1], [2, 0]])
    assert_tensor(_apply(zp, x), np.pad(x, [(0, 0), (0, 1), (2, 0), (0, 0)]))
    assert zp.compute_output_shape((None, 6, 5, 3)) == (None, 7, 7, 3)
    assert_tensor(_apply(tf.layers.zero_padding2d(padding=[1, 2], data_format="channelsFirst"), x),
                  np.pad(x, [(0, 0), (0, 0), (1, 1), (2, 2)]))


# --- pooling ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("mode", ["max", "avg"])
def test_pooling_matches_numpy(mode, rng):
    prefix = "max" if mode == "max" else "average"
    x2 = _f32(rng, 2, 7, 6, 3)
    layer = getattr(tf.layers, f"{prefix}_pooling2d")(pool_size=[3, 2], strides=[2, 2])
    assert_tensor(_apply(layer, x2), _np_pool(x2, [3, 2], [2, 2], mode), rtol=1e-5)
    assert layer.compute_output_shape((None, 7, 6, 3)) == (None, 3, 3, 3)
    default = getattr(tf.layers, f"{prefix}_pooling2d")()
    assert_tensor(_apply(default, x2), _np_pool(x2, [2, 2], [2, 2], mode), rtol=1e-5)
    same = getattr(tf.layers, f"{prefix}_pooling2d")(pool_size=2, padding="same")
    assert same.compute_output_shape((None, 7, 6, 3)) == (None, 4, 3, 3)
    assert tuple(_apply(same, x2).shape) == (2, 4, 3, 3)
    x1 = _f32(rng, 2, 9, 4)
    layer1 = getattr(tf.layers, f"{prefix}_pooling1d")(pool_size=3)
    assert_tensor(_apply(layer1, x1), _np_pool(x1, [3], [3], mode), rtol=1e-5)
    assert layer1.compute_output_shape((None, 9, 4)) == (None, 3, 4)
    x3 = _f32(rng, 1, 4, 5, 4, 2)
    layer3 = getattr(tf.layers, f"{prefix}_pooling3d")(pool_size=2, strides=[2, 1, 2])
    assert_tensor(_apply(layer3, x3), _np_pool(x3, [2, 2, 2], [2, 1, 2], mode), rtol=1e-5)
    assert layer3.compute_output_shape((None, 4, 5, 4, 2)) == (None, 2, 4, 2, 2)
    reduce = np.max if mode == "max" else np.mean
    g2 = getattr(tf.layers, f"global_{prefix}_pooling2d")()
    assert_tensor(_apply(g2, x2), reduce(x2, (1, 2)), rtol=1e-5)
    assert g2.compute_output_shape((None, 7, 6, 3)) == (None, 3)
    assert_tensor(_apply(getattr(tf.layers, f"global_{prefix}_pooling2d")(data_format="channelsFirst"), x2),
                  reduce(x2, (2, 3)), rtol=1e-5)
    assert_tensor(_apply(getattr(tf.layers, f"global_{prefix}_pooling1d")(), x1), reduce(x1, 1), rtol=1e-5)


def test_pooling_aliases():
    assert tf.layers.max_pool2d is tf.layers.max_pooling2d and tf.layers.avg_pool1d is tf.layers.average_pooling1d
    assert tf.layers.global_max_pool2d is tf.layers.global_max_pooling2d


# --- normalization -----------------------------------------------------------------------------------
def test_batch_normalization_inference_uses_moving_statistics(rng):
    x = _f32(rng, 4, 3, 5)
    gamma, beta = _f32(rng, 5), _f32(rng, 5)
    mean, var = _f32(rng, 5), rng.uniform(0.5, 2, 5).astype(np.float32)
    layer = tf.layers.batch_normalization(epsilon=1e-2, weights=[gamma, beta, mean, var])
    assert_tensor(_apply(layer, x), (x - mean) / np.sqrt(var + 1e-2) * gamma + beta, rtol=1e-4, atol=1e-5)
    assert layer.count_params() == 20
    assert [len(layer.trainable_weights), len(layer.non_trainable_weights)] == [2, 2]


def test_batch_normalization_training_normalizes_and_updates_moving_statistics(rng):
    x = _f32(rng, 6, 4, 4, 3) * 2 + 1
    layer = tf.layers.batch_normalization(momentum=0.9)
    out = _apply(layer, x, training=True)
    mu, var = x.mean((0, 1, 2)), x.var((0, 1, 2))
    assert_tensor(out, (x - mu) / np.sqrt(var + 1e-3), rtol=1e-3, atol=1e-4)
    assert_tensor(layer.moving_mean, 0.1 * mu, rtol=1e-4, atol=1e-5)
    assert_tensor(layer.moving_variance, 0.9 + 0.1 * var, rtol=1e-4, atol=1e-5)


def test_batch_normalization_other_axis(rng):
    x = _f32(rng, 3, 4, 5)
    gamma = _f32(rng, 4)
    layer = tf.layers.batch_normalization(axis=1, center=False, weights=[gamma, np.zeros(4, np.float32),
                                                                          np.ones(4, np.float32)])
    assert_tensor(_apply(layer, x), x / np.sqrt(1 + 1e-3) * gamma[:, None], rtol=1e-4, atol=1e-5)
    out = _apply(layer, x, training=True)
    mu, var = x.mean((0, 2), keepdims=True), x.var((0, 2), keepdims=True)
    assert_tensor(out, (x - mu) / np.sqrt(var + 1e-3) * gamma[:, None], rtol=1e-3, atol=1e-4)


def test_batch_normalization_axis_as_tf_keras_writes_it():
    """tf.keras's configs hold BatchNormalization's axis as a list of one ("axis": [1])."""
    layer = tf.layers.BatchNormalization.from_config({"axis": [1], "name": "bn"})
    assert layer.axis == 1 and layer.get_config()["axis"] == 1
    for bad in ([1, 2], "1", 1.5):
        with pytest.raises(ValueError, match="'axis' must be an integer"):
            tf.layers.batch_normalization(axis=bad)


@pytest.mark.parametrize("shape, axis, center, scale", [((6, 5), -1, True, True), ((2, 4, 3, 5), -1, True, True),
                                                       ((2, 4, 3, 5), 1, False, True), ((2, 3, 2, 2, 4), -1, True, False),
                                                       ((3, 4), 0, True, True)])
def test_batch_normalization_training_gradient_is_that_of_moments_and_batch_norm(rng, shape, axis, center, scale):
    """The layer's closed-form training gradient equals the gradient of the composed ops it
    replaces (moments, normalize, scale, shift), for x and the parameters, and so does a
    gradient of that gradient; and it matches centred differences."""
    x = tf.tensor(_f32(rng, *shape) * 3 + 1)
    w = tf.tensor(_f32(rng, *shape))
    c = shape[axis]
    layer = tf.layers.batch_normalization(axis=axis, center=center, scale=scale,
                                          weights=[_f32(rng, c) for _ in range(center + scale)]
                                          + [np.zeros(c, np.float32), np.ones(c, np.float32)])
    layer.apply(x)   # built: its weights exist
    params = [p for p in (layer.gamma, layer.beta) if p is not None]
    reduction = [i for i in range(len(shape)) if i != axis % len(shape)]
    target = [c if i == axis % len(shape) else 1 for i in range(len(shape))]

    def composed(a, *ps):
        ps = list(ps)
        mean, variance = tf.moments(a, reduction, True)
        y = (a - mean) * tf.rsqrt(variance + layer.epsilon)
        y = y * tf.reshape(ps.pop(0), target) if scale else y
        y = y + tf.reshape(ps.pop(0), target) if center else y
        return tf.sum(y * w)

    def ours(a, *ps):
        return tf.sum(layer.apply(a, training=True) * w)

    for got, want in zip(tf.grads(ours)([x, *params]), tf.grads(composed)([x, *params])):
        assert_tensor(got, want.numpy(), rtol=1e-4, atol=1e-5)
    second = tf.grad(lambda a: tf.sum(tf.grad(ours)(a) ** 2))(x)
    assert_tensor(second, tf.grad(lambda a: tf.sum(tf.grad(lambda z: composed(z, *params))(a) ** 2))(x).numpy(),
                  rtol=1e-3, atol=1e-5)
    # the outputs themselves, not ours' float32 sum: the checker weighs and sums them in double,
    # while a float32 sum of 120 terms rounds at their magnitude, ~1e-5 on a result the
    # cancellation leaves small, and 1e-3 over the step: 0.02 of a gradient of 2e-3
    assert_gradients_match_numeric(lambda a: layer.apply(a, training=True), x.numpy())


def test_batch_normalization_moving_statistics_move_during_fit(rng):
    model = tf.sequential(layers=[tf.layers.batch_normalization(input_shape=[3]), tf.layers.dense(units=1)])
    model.compile(optimizer="sgd", loss="meanSquaredError")
    x = tf.tensor(_f32(rng, 16, 3) + 5)
    y = tf.tensor(_f32(rng, 16, 1))
    model.fit_sync(x, y, epochs=2, batch_size=16, verbose=0)
    bn = model.layers[0]
    moved = bn.moving_mean.numpy()
    assert np.all(moved > 0.05) and np.all(moved < 1)   # two steps of momentum 0.99 toward ~5
    assert not np.allclose(bn.moving_variance.numpy(), 1)
    tf.dispose([x, y])
    model.dispose()


def test_layer_normalization_matches_numpy(rng):
    x = _f32(rng, 2, 3, 4)
    gamma, beta = _f32(rng, 4), _f32(rng, 4)
    layer = tf.layers.layer_normalization(weights=[gamma, beta])
    mu, var = x.mean(-1, keepdims=True), x.var(-1, keepdims=True)
    assert_tensor(_apply(layer, x), (x - mu) / np.sqrt(var + 1e-3) * gamma + beta, rtol=1e-4, atol=1e-5)
    layer2 = tf.layers.layer_normalization(axis=[1, 2], center=False)
    mu, var = x.mean((1, 2), keepdims=True), x.var((1, 2), keepdims=True)
    assert_tensor(_apply(layer2, x), (x - mu) / np.sqrt(var + 1e-3), rtol=1e-4, atol=1e-5)
    assert layer2.count_params() == 12


# --- activation layers ----------------------------------------------------------------------------
def test_activation_layers_match_numpy(rng):
    x = _f32(rng, 3, 4, 5) * 4
    assert_tensor(_apply(tf.layers.re_lu(), x), np.maximum(x, 0))
    assert_tensor(_apply(tf.layers.re_lu(max_value=6), x), np.clip(x, 0, 6))
    assert_tensor(_apply(tf.layers.re_lu(max_value=2.5), x), np.clip(x, 0, 2.5))
    assert_tensor(_apply(tf.layers.leaky_re_lu(), x), np.where(x < 0, 0.3 * x, x), rtol=1e-5)
    assert_tensor(_apply(tf.layers.leaky_re_lu(alpha=0.1), x), np.where(x < 0, 0.1 * x, x), rtol=1e-5)
    assert_tensor(_apply(tf.layers.elu(), x), np.where(x > 0, x, np.expm1(x)), rtol=1e-5, atol=1e-6)
    assert_tensor(_apply(tf.layers.thresholded_re_lu(theta=0.5), x), np.where(x > 0.5, x, 0))
    assert_tensor(_apply(tf.layers.thresholded_re_lu(), x), np.where(x > 1, x, 0))
    e = np.exp(x - x.max(1, keepdims=True))
    assert_tensor(_apply(tf.layers.softmax(), x), e / e.sum(1, keepdims=True), rtol=1e-5)   # TF.js's axis 1
    e = np.exp(x - x.max(-1, keepdims=True))
    assert_tensor(_apply(tf.layers.softmax(axis=-1), x), e / e.sum(-1, keepdims=True), rtol=1e-5)
    e = np.exp(x - x.max((1, 2), keepdims=True))
    assert_tensor(_apply(tf.layers.softmax(axis=[1, 2]), x), e / e.sum((1, 2), keepdims=True), rtol=1e-4)


def test_prelu(rng):
    x = _f32(rng, 2, 3, 4)
    alpha = _f32(rng, 3, 4)
    layer = tf.layers.prelu(weights=[alpha])
    assert_tensor(_apply(layer, x), np.where(x < 0, alpha * x, x), rtol=1e-5)
    shared = tf.layers.prelu(shared_axes=[1], alpha_initializer="ones")
    assert_tensor(_apply(shared, x), x)
    assert [list(w.shape) for w in shared.weights] == [[1, 4]]
    assert tuple(_apply(tf.layers.prelu(), x).shape) == (2, 3, 4)


# --- noise, masking, rescaling ----------------------------------------------------------------------
def test_noise_layers_identity_at_inference_and_noisy_in_training(rng):
    x = np.ones((200, 50), np.float32)
    for layer in (tf.layers.gaussian_noise(stddev=0.5), tf.layers.gaussian_dropout(rate=0.3),
                  tf.layers.alpha_dropout(rate=0.3)):
        assert_tensor(_apply(layer, x), x)
        out = _apply(layer, x, training=True).numpy()
        assert out.std() > 0.1, layer.name
    noisy = _apply(tf.layers.gaussian_noise(stddev=0.5), x, training=True).numpy()
    assert abs(noisy.mean() - 1) < 0.02 and abs(noisy.std() - 0.5) < 0.02
    gd = _apply(tf.layers.gaussian_dropout(rate=0.5), x, training=True).numpy()
    assert abs(gd.mean() - 1) < 0.03 and abs(gd.std() - 1) < 0.03
    # alpha dropout keeps SELU's fixed point: mean 0, variance 1 stay so
    z = rng.normal(size=(400, 100)).astype(np.float32)
    ad = _apply(tf.layers.alpha_dropout(rate=0.2), z, training=True).numpy()
    assert abs(ad.mean()) < 0.03 and abs(ad.std() - 1) < 0.03


def test_spatial_dropout1d_drops_whole_channels(rng):
    x = np.ones((20, 7, 30), np.float32)
    layer = tf.layers.spatial_dropout1d(rate=0.5)
    assert_tensor(_apply(layer, x), x)
    out = _apply(layer, x, training=True).numpy()
    assert set(np.unique(out)) <= {0.0, 2.0}
    assert np.all(out == out[:, :1, :])   # the same along the steps
    assert 0.3 < (out == 0).mean() < 0.7


def test_masking_and_rescaling(rng):
    x = _f32(rng, 2, 4, 3)
    x[0, 1] = 0
    x[1, 3] = 0
    out = _apply(tf.layers.masking(), x)
    assert_tensor(out, x)
    x2 = x.copy()
    x2[0, 2] = -1
    ref = x2.copy()
    ref[0, 2] = 0
    assert_tensor(_apply(tf.layers.masking(mask_value=-1), x2), ref)
    assert_tensor(_apply(tf.layers.rescaling(scale=1 / 255, offset=-0.5), x), x / 255 - 0.5, rtol=1e-5)


# --- gradients through trainable layers ------------------------------------------------------------------
def _numeric_grad(f, w, eps=1e-3):
    w = w.astype(np.float64)
    g = np.zeros_like(w)
    for idx in np.ndindex(*w.shape):
        hi, lo = w.copy(), w.copy()
        hi[idx] += eps
        lo[idx] -= eps
        g[idx] = (f(hi) - f(lo)) / (2 * eps)
    return g


@pytest.mark.parametrize("make,shape,training", [
    (lambda: tf.layers.conv2d(filters=2, kernel_size=2, activation="relu", padding="same"), (2, 3, 3, 2), False),
    (lambda: tf.layers.conv1d(filters=2, kernel_size=2), (2, 4, 2), False),
    (lambda: tf.layers.depthwise_conv2d(kernel_size=2, activation="relu6"), (2, 3, 3, 2), False),
    (lambda: tf.layers.separable_conv2d(filters=2, kernel_size=2, activation="sigmoid"), (1, 3, 3, 2), False),
    (lambda: tf.layers.conv2d_transpose(filters=2, kernel_size=2, strides=2), (1, 2, 2, 2), False),
    (lambda: tf.layers.conv3d(filters=1, kernel_size=2), (1, 2, 3, 3, 1), False),
    (lambda: tf.layers.batch_normalization(), (4, 3), True),
    (lambda: tf.layers.layer_normalization(), (2, 3), False),
    (lambda: tf.layers.prelu(alpha_initializer="ones"), (2, 3), False),
])
def test_gradients_through_trainable_layers(make, shape, training, rng):
    """Every trainable weight's gradient of sum(layer(x) * r) against central differences."""
    x = tf.tensor(_f32(rng, *shape))
    layer = make()
    layer.apply(x)   # build
    weights = layer.trainable_weights
    # weights from the seeded rng alone (not the unseeded initializers): the same point every run,
    # so a kink of relu/relu6 cannot drift under the centred differences from one run to the next
    values = [rng.normal(scale=0.5, size=tuple(w.shape)).astype(np.float32) for w in weights]
    layer.set_weights(values + [w.numpy() for w in layer.non_trainable_weights])
    r = tf.tensor(_f32(rng, *layer.apply(x).shape))

    def loss():
        return tf.sum(tf.mul(layer.call(x, training), r))

    snapshot = [w.numpy() for w in layer.weights]
    grads = tf.variable_grads(loss, weights)[1]
    for i, w in enumerate(weights):
        def f(v, i=i):
            layer.set_weights([v.astype(np.float32) if j == i else s for j, s in enumerate(snapshot)])
            return float(tf.tidy(loss).numpy())
        num = _numeric_grad(f, snapshot[i])
        layer.set_weights(snapshot)
        np.testing.assert_allclose(grads[w.name].numpy(), num, rtol=5e-2, atol=5e-2, err_msg=w.name)


# --- errors ------------------------------------------------------------------------------------------
def test_errors():
    assert_raises(ValueError, lambda: tf.layers.conv2d(filters=0, kernel_size=3), "filters")
    assert_raises(ValueError, lambda: tf.layers.conv2d(filters=2), "kernel_size")
    assert_raises(ValueError, lambda: tf.layers.conv2d(filters=2, kernel_size=[3, 3, 3]), "kernel_size")
    assert_raises(ValueError, lambda: tf.layers.conv2d(filters=2, kernel_size=0), "kernel_size")
    assert_raises(ValueError, lambda: tf.layers.conv2d(filters=2, kernel_size=3, strides=[1, 2, 3]), "strides")
    assert_raises(ValueError, lambda: tf.layers.conv2d(filters=2, kernel_size=3, padding="full"), "padding")
    assert_raises(ValueError, lambda: tf.layers.conv2d(filters=2, kernel_size=3, data_format="nhwc"),
                  "data_format")
    assert_raises(ValueError, lambda: tf.layers.conv2d_transpose(filters=2, kernel_size=3, padding="causal"),
                  "padding")
    assert_raises(ValueError, lambda: tf.layers.separable_conv2d(kernel_size=3), "filters")
    assert_raises(ValueError, lambda: tf.layers.separable_conv2d(filters=2, kernel_size=3,
                                                                 kernel_initializer="zeros"), "depthwise")
    assert_raises(ValueError, lambda: tf.layers.max_pooling2d(strides=[1, 2, 3]), "strides")
    assert_raises(ValueError, lambda: tf.layers.max_pooling1d(pool_size=[2, 2]), "pool_size")
    assert_raises(ValueError, lambda: tf.layers.zero_padding2d(padding=[1, 2, 3]), "length-2")
    assert_raises(ValueError, lambda: tf.layers.cropping2d(cropping=[1, 2, 3]), "cropping")
    assert_raises(ValueError, lambda: tf.layers.up_sampling2d(interpolation="cubic"), "interpolation")
    assert_raises(NotImplementedError, lambda: tf.layers.elu(alpha=0.5), "alpha")
    assert_raises(ValueError, lambda: tf.layers.gaussian_dropout(rate=2), "rate")

    def wrong_rank(layer, shape):
        x = tf.zeros(shape)
        try:
            layer.apply(x)
        finally:
            x.dispose()

    assert_raises(ValueError, lambda: wrong_rank(tf.layers.conv2d(filters=2, kernel_size=3), [2, 5, 5]), "ndim=4")
    assert_raises(ValueError, lambda: wrong_rank(tf.layers.conv1d(filters=2, kernel_size=3), [2, 5, 5, 1]),
                  "ndim=3")
    assert_raises(ValueError, lambda: wrong_rank(tf.layers.max_pooling2d(), [2, 4]), "ndim=4")
    assert_raises(ValueError, lambda: wrong_rank(tf.layers.max_pooling2d(pool_size=3), [1, 2, 2, 1]), "non-positive")
    assert_raises(ValueError, lambda: wrong_rank(tf.layers.depthwise_conv2d(kernel_size=3), [2, 5, 5]), "ndim=4")
    assert_raises(ValueError, lambda: wrong_rank(tf.layers.global_average_pooling1d(), [2, 5, 5, 1]), "ndim=3")
    conv = tf.layers.conv2d(filters=2, kernel_size=3)
    wrong_rank(conv, [1, 5, 5, 3])
    assert_raises(ValueError, lambda: wrong_rank(conv, [1, 5, 5, 4]), "axis")   # built for 3 channels
    assert_raises(ValueError, lambda: tf.model(inputs=(i := tf.input(shape=[4, 4, 1])),
                                               outputs=tf.layers.conv2d(filters=1, kernel_size=5).apply(i)),
                  "non-positive")  # a kernel bigger than the (valid) input
    conv.dispose()


def test_symbolic_shapes_in_a_model():
    inp = tf.input(shape=[28, 28, 1])
    x = tf.layers.conv2d(filters=4, kernel_size=3, activation="relu").apply(inp)
    assert x.shape == (None, 26, 26, 4)
    x = tf.layers.max_pooling2d().apply(x)
    assert x.shape == (None, 13, 13, 4)
    x = tf.layers.separable_conv2d(filters=6, kernel_size=3, padding="same").apply(x)
    x = tf.layers.batch_normalization().apply(x)
    x = tf.layers.global_max_pooling2d().apply(x)
    assert x.shape == (None, 6)
    model = tf.model(inputs=inp, outputs=tf.layers.dense(units=2).apply(x))
    out = model.predict(tf.zeros([3, 28, 28, 1]))
    assert tuple(out.shape) == (3, 2)
    assert summary_params(model)["Total"] == (3 * 3 * 4 + 4) + (9 * 4 + 4 * 6 + 6) + 4 * 6 + (6 * 2 + 2)


# --- a small conv classifier learns; MobileNet's parameter count -----------------------------------------
def bars(n, seed=0):
    """8x8 one-channel images of a horizontal (class 0) or a vertical (class 1) bar, with noise."""
    rng = np.random.default_rng(seed)
    x = rng.normal(scale=0.1, size=(n, 8, 8, 1)).astype(np.float32)
    labels = rng.integers(0, 2, size=n)
    for i, (c, pos) in enumerate(zip(labels, rng.integers(0, 8, size=n))):
        if c == 0:
            x[i, pos, :, 0] += 1
        else:
            x[i, :, pos, 0] += 1
    return x, np.eye(2, dtype=np.float32)[labels]


def small_classifier():
    # seeded initializers: the test must not depend on the draws of whatever ran before it
    init = lambda seed: tf.initializers.glorot_normal(seed=seed)  # noqa: E731
    return tf.sequential(layers=[
        tf.layers.conv2d(filters=4, kernel_size=3, activation="relu", padding="same", input_shape=[8, 8, 1],
                         kernel_initializer=init(1)),
        tf.layers.batch_normalization(),
        tf.layers.max_pooling2d(pool_size=2),
        tf.layers.depthwise_conv2d(kernel_size=3, padding="same", activation="relu", depthwise_initializer=init(2)),
        tf.layers.global_average_pooling2d(),
        tf.layers.dense(units=2, activation="softmax", kernel_initializer=init(3))])


def test_small_conv_classifier_learns_bars():
    x, y = bars(64)
    model = small_classifier()
    model.compile(optimizer=tf.train.adam(0.05), loss="categoricalCrossentropy", metrics=["accuracy"])
    xs, ys = tf.tensor(x), tf.tensor(y)
    history = model.fit_sync(xs, ys, epochs=30, batch_size=16, verbose=0, shuffle=False)
    assert history.history["loss"][-1] < history.history["loss"][0] * 0.5
    xt, yt = bars(64, seed=1)
    pred = model.predict(tf.tensor(xt)).numpy()
    assert (pred.argmax(1) == yt.argmax(1)).mean() >= 0.9
    tf.dispose([xs, ys])
    model.dispose()


def test_mobilenet_parameter_count_matches_keras():
    from pytfweb.host.bench_models import mobilenet_v1   # examples/mobilenet.py and the bench build it
    model = mobilenet_v1()
    assert summary_params(model) == {"Total": 4253864, "Trainable": 4231976, "Non-trainable": 21888}
    assert model.outputs[0].shape == (None, 1000)
    assert len(model.layers) == 1 + 3 + 13 * 6 + 4 + 6
    model.dispose()
