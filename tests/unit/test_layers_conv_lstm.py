"""ConvLSTM2D and ConvLSTM2DCell on the cpu backend: outputs for fixed weights against a numpy
reference (padding, strides, dilation, return_sequences/return_state/go_backwards, channels first),
shapes, parameter counts and summary as TF.js, gradients against centred differences, dropout,
a small task that learns, errors."""
import numpy as np
import pytest

import pytfweb as tf
from pytfweb.layers import activations
from tests.unit.helpers import assert_gradients_match_numeric, assert_no_leak, assert_raises, assert_tensor


def _f32(rng, *shape, scale=1.0):
    return (rng.normal(size=shape) * scale).astype(np.float32)


def _hard_sigmoid(x):
    return np.clip(0.2 * x + 0.5, 0, 1)


def _sigmoid(x):
    return 1 / (1 + np.exp(-x))


# --- numpy reference -----------------------------------------------------------------------------------------
def _np_conv2d(x, k, strides=(1, 1), padding="valid", dilation=(1, 1)):
    """x [b, h, w, c], k [kh, kw, c, o] -> [b, oh, ow, o]; TF's 'same' puts the extra pad after."""
    b, h, w, _ = x.shape
    kh, kw, _, o = k.shape
    (sh, sw), (dh, dw) = strides, dilation
    eh, ew = (kh - 1) * dh + 1, (kw - 1) * dw + 1
    if padding == "same":
        oh, ow = -(-h // sh), -(-w // sw)
        ph, pw = max((oh - 1) * sh + eh - h, 0), max((ow - 1) * sw + ew - w, 0)
        x = np.pad(x, [(0, 0), (ph // 2, ph - ph // 2), (pw // 2, pw - pw // 2), (0, 0)])
    else:
        oh, ow = (h - eh) // sh + 1, (w - ew) // sw + 1
    out = np.zeros((b, oh, ow, o))
    for i in range(kh):
        for j in range(kw):
            patch = x[:, i * dh: i * dh + (oh - 1) * sh + 1: sh, j * dw: j * dw + (ow - 1) * sw + 1: sw, :]
            out += patch @ k[i, j]
    return out


def _np_conv_lstm(x, kernel, rkernel, bias, strides=(1, 1), padding="valid", dilation=(1, 1),
                  go_backwards=False, rec_act=_hard_sigmoid, act=np.tanh, h=None, c=None, mask=None):
    """x [b, t, h, w, c] channels last -> (outputs in processing order [b, t, oh, ow, f], h, c);
    the states start at h and c (zeros if None); where mask [b, t] is false the states carry over."""
    x = x.astype(np.float64)
    f = rkernel.shape[2]
    steps = range(x.shape[1] - 1, -1, -1) if go_backwards else range(x.shape[1])
    outs = []
    for t in steps:
        zx = _np_conv2d(x[:, t], kernel, strides, padding, dilation)
        if h is None:
            h = c = np.zeros(zx.shape[:3] + (f,))
        z = zx + _np_conv2d(h, rkernel, (1, 1), "same") + (0 if bias is None else bias)
        zi, zf, zc, zo = np.split(z, 4, axis=-1)
        new_c = rec_act(zf) * c + rec_act(zi) * act(zc)
        new_h = rec_act(zo) * act(new_c)
        keep = np.ones((x.shape[0], 1, 1, 1), bool) if mask is None else mask[:, t, None, None, None]
        h, c = np.where(keep, new_h, h), np.where(keep, new_c, c)
        outs.append(h)
    return np.stack(outs, 1), h, c


def _weights(rng, kernel_size, channels, filters, use_bias=True):
    kh, kw = kernel_size
    w = [_f32(rng, kh, kw, channels, 4 * filters, scale=0.4), _f32(rng, kh, kw, filters, 4 * filters, scale=0.4)]
    return w + [_f32(rng, 4 * filters, scale=0.4)] if use_bias else w


GEOMETRIES = [  # kernel_size, padding, strides, dilation_rate, input [rows, cols]
    ((3, 3), "valid", 1, 1, (6, 5)),
    ((3, 3), "same", 1, 1, (5, 5)),
    ((3, 2), "same", 2, 1, (7, 6)),
    ((2, 3), "valid", (2, 1), 1, (6, 6)),
    ((3, 3), "same", 1, 2, (6, 5)),
]
FLAGS = [  # return_sequences, return_state, go_backwards
    (False, False, False), (True, False, False), (False, True, True), (True, True, True), (True, False, True)]


@pytest.mark.parametrize("kernel_size,padding,strides,dilation,space", GEOMETRIES)
@pytest.mark.parametrize("return_sequences,return_state,go_backwards", FLAGS)
def test_matches_numpy_reference(kernel_size, padding, strides, dilation, space, return_sequences, return_state,
                                 go_backwards, rng):
    channels, filters = 2, 3
    x = _f32(rng, 2, 4, *space, channels)
    w = _weights(rng, kernel_size, channels, filters)
    norm = (lambda v: [v, v] if isinstance(v, int) else list(v))
    seq, h, c = _np_conv_lstm(x, *w, norm(strides), padding, norm(dilation), go_backwards)
    layer = tf.layers.conv_lstm2d(filters=filters, kernel_size=list(kernel_size), padding=padding, strides=strides,
                                  dilation_rate=dilation, return_sequences=return_sequences,
                                  return_state=return_state, go_backwards=go_backwards, weights=w)
    # the symbolic shapes agree with the concrete ones (and applying symbolically builds the weights)
    sym = layer.apply(tf.input(shape=list(x.shape[1:])))
    sym = sym if return_state else [sym]
    xt = tf.tensor(x)
    before = tf.memory().num_tensors
    out = layer.apply(xt)
    outs = out if return_state else [out]
    assert tf.memory().num_tensors == before + len({id(o) for o in outs})   # the outputs, nothing else
    refs = [seq if return_sequences else seq[:, -1]] + ([h, c] if return_state else [])
    assert len(outs) == len(refs)
    for got, ref in zip(outs, refs):
        assert_tensor(got, ref, rtol=1e-4, atol=1e-5)
    assert [s.shape for s in sym] == [(None,) + tuple(r.shape[1:]) for r in refs]
    tf.dispose([xt, outs])
    layer.dispose()


def test_no_bias_other_activations_and_channels_first(rng):
    x = _f32(rng, 2, 3, 5, 4, 2)
    w = _weights(rng, (3, 3), 2, 2, use_bias=False)
    seq, h, c = _np_conv_lstm(x, *w, None, padding="same", rec_act=_sigmoid, act=lambda v: np.maximum(v, 0))
    args = dict(filters=2, kernel_size=3, padding="same", use_bias=False, activation="relu",
                recurrent_activation="sigmoid", return_sequences=True, return_state=True, weights=w)
    last = tf.layers.conv_lstm2d(**args)
    outs = last.apply(tf.tensor(x))
    for got, ref in zip(outs, [seq, h, c]):
        assert_tensor(got, ref, rtol=1e-4, atol=1e-5)
    first = tf.layers.conv_lstm2d(data_format="channelsFirst", **args)
    outs = first.apply(tf.tensor(np.transpose(x, [0, 1, 4, 2, 3])))
    assert_tensor(outs[0], np.transpose(seq, [0, 1, 4, 2, 3]), rtol=1e-4, atol=1e-5)
    assert_tensor(outs[1], np.transpose(h, [0, 3, 1, 2]), rtol=1e-4, atol=1e-5)
    assert_tensor(outs[2], np.transpose(c, [0, 3, 1, 2]), rtol=1e-4, atol=1e-5)
    assert first.count_params() == 2 * 3 * 3 * 2 * 8
    assert first.apply(tf.input(shape=[3, 2, 5, 4]))[0].shape == (None, 3, 2, 5, 4)


def test_initial_state(rng):
    x, h0, c0 = _f32(rng, 2, 3, 4, 4, 1), _f32(rng, 2, 4, 4, 2), _f32(rng, 2, 4, 4, 2)
    w = _weights(rng, (3, 3), 1, 2)
    seq, h, c = _np_conv_lstm(x, *w, padding="same", h=h0.astype(np.float64), c=c0.astype(np.float64))
    layer = tf.layers.conv_lstm2d(filters=2, kernel_size=3, padding="same", return_sequences=True,
                                  return_state=True, weights=w)
    layer.apply(tf.input(shape=[3, 4, 4, 1]))
    xt, ht, ct = tf.tensor(x), tf.tensor(h0), tf.tensor(c0)
    outs = tf.tidy(lambda: layer.call(xt, initial_state=[ht, ct]))
    for got, ref in zip(outs, [seq, h, c]):
        assert_tensor(got, ref, rtol=1e-4, atol=1e-5)
    # or as inputs [x, h, c], concrete or symbolic
    for got, ref in zip(layer.apply([xt, ht, ct]), [seq, h, c]):
        assert_tensor(got, ref, rtol=1e-4, atol=1e-5)
    sym = layer.apply([tf.input(shape=[3, 4, 4, 1]), tf.input(shape=[4, 4, 2]), tf.input(shape=[4, 4, 2])])
    assert [s.shape for s in sym] == [(None, 3, 4, 4, 2), (None, 4, 4, 2), (None, 4, 4, 2)]
    assert_raises(ValueError, lambda: tf.tidy(lambda: layer.call(xt, initial_state=[ht])), "initial_state", "2")
    assert_raises(ValueError, lambda: tf.tidy(lambda: layer.call(xt, initial_state=[xt, ct])), "initial state h",
                  "[2,4,4,2]", "[2,3,4,4,1]")
    assert_raises(ValueError, lambda: layer.apply([xt, ht, xt]), "initial state c", "[2,4,4,2]")
    assert_raises(ValueError, lambda: layer.apply([tf.input(shape=[3, 4, 4, 1]), tf.input(shape=[4, 4, 2]),
                                                   tf.input(shape=[4, 3, 2])]), "initial state c", "[null,4,3,2]")
    assert_raises(ValueError, lambda: tf.tidy(lambda: layer.call([xt, ht, ct], initial_state=[ht, ct])), "twice")
    tf.dispose([xt, ht, ct, outs])


@pytest.mark.parametrize("go_backwards", [False, True])
def test_mask_skips_timesteps(go_backwards, rng):
    x = _f32(rng, 3, 4, 4, 4, 1)
    mask = np.array([[1, 1, 0, 1], [0, 1, 1, 1], [1, 1, 1, 0]], bool)
    w = _weights(rng, (3, 3), 1, 2)
    seq, h, c = _np_conv_lstm(x, *w, padding="same", go_backwards=go_backwards, mask=mask)
    layer = tf.layers.conv_lstm2d(filters=2, kernel_size=3, padding="same", return_sequences=True,
                                  return_state=True, go_backwards=go_backwards, weights=w)
    layer.apply(tf.input(shape=[4, 4, 4, 1]))
    xt, mt = tf.tensor(x), tf.tensor(mask)
    outs = tf.tidy(lambda: layer.call(xt, mask=mt))
    for got, ref in zip(outs, [seq, h, c]):
        assert_tensor(got, ref, rtol=1e-4, atol=1e-5)
    masks = layer.compute_mask(xt, mt)
    assert masks[0] is mt and masks[1:] == [None, None]
    bad = tf.ones([3, 3], "bool")
    assert_raises(ValueError, lambda: tf.tidy(lambda: layer.call(xt, mask=bad)), "mask", "[3,4]", "[3,3]")
    tf.dispose([xt, mt, bad, outs])


def test_cell_steps_once(rng):
    x, h0, c0 = _f32(rng, 2, 5, 4, 3), _f32(rng, 2, 3, 2, 2), _f32(rng, 2, 3, 2, 2)
    w = _weights(rng, (3, 3), 3, 2)
    cell = tf.layers.conv_lstm2d_cell(filters=2, kernel_size=3, weights=w)
    outs = cell.apply([tf.tensor(x), tf.tensor(h0), tf.tensor(c0)])
    zx = _np_conv2d(x.astype(np.float64), w[0]) + _np_conv2d(h0.astype(np.float64), w[1], padding="same") + w[2]
    zi, zf, zc, zo = np.split(zx, 4, axis=-1)
    c = _hard_sigmoid(zf) * c0 + _hard_sigmoid(zi) * np.tanh(zc)
    h = _hard_sigmoid(zo) * np.tanh(c)
    assert len(outs) == 3
    for got, ref in zip(outs, [h, h, c]):
        assert_tensor(got, ref, rtol=1e-4, atol=1e-5)
    sym = cell.apply([tf.input(shape=[5, 4, 3]), tf.input(shape=[3, 2, 2]), tf.input(shape=[3, 2, 2])])
    assert [s.shape for s in sym] == [(None, 3, 2, 2)] * 3
    assert cell.state_size == (2, 2)


def test_shapes_params_and_names_as_tfjs():
    layer = tf.layers.conv_lstm2d(filters=4, kernel_size=3, input_shape=[5, 8, 8, 2], name="clstm")
    model = tf.sequential(layers=[layer])
    assert [(w.name, tuple(w.shape)) for w in layer.weights] == [
        ("clstm/kernel", (3, 3, 2, 16)), ("clstm/recurrent_kernel", (3, 3, 4, 16)), ("clstm/bias", (16,))]
    assert layer.count_params() == 3 * 3 * 2 * 16 + 3 * 3 * 4 * 16 + 16 == 880
    assert model.outputs[0].shape == (None, 6, 6, 4)
    inp = tf.input(shape=[None, 8, 8, 2])   # any number of timesteps
    assert tf.layers.conv_lstm2d(filters=3, kernel_size=3, return_sequences=True).apply(inp).shape == \
        (None, None, 6, 6, 3)
    outs = tf.layers.conv_lstm2d(filters=3, kernel_size=[2, 3], strides=2, padding="same",
                                 return_state=True).apply(inp)
    assert [o.shape for o in outs] == [(None, 4, 4, 3)] * 3
    assert tf.layers.conv_lstm2d(filters=1, kernel_size=3).apply(tf.input(shape=[2, None, 8, 2])).shape == \
        (None, None, 6, 1)
    model.dispose()


def test_summary_text():
    model = tf.sequential(layers=[
        tf.layers.conv_lstm2d(filters=4, kernel_size=3, input_shape=[5, 8, 8, 2], return_sequences=True,
                              name="clstm"),
        tf.layers.conv_lstm2d(filters=2, kernel_size=3, padding="same", name="clstm2"),
        tf.layers.flatten(name="flat"), tf.layers.dense(units=1, name="out")])
    lines = []
    model.summary(line_length=88, print_fn=lines.append)
    assert [line for line in lines if line.startswith("│")] == [
        "│ clstm (ConvLSTM2D)                   │ (None, 5, 6, 6, 4)          │             880 │",
        "│ clstm2 (ConvLSTM2D)                  │ (None, 6, 6, 2)             │             440 │",
        "│ flat (Flatten)                       │ (None, 72)                  │               0 │",
        "│ out (Dense)                          │ (None, 1)                   │              73 │"]
    assert lines[-3:] == [" Total params: 1,393 (5.44 KB)", " Trainable params: 1,393 (5.44 KB)",
                          " Non-trainable params: 0 (0.00 B)"]
    assert 3 * 3 * 4 * 8 + 3 * 3 * 2 * 8 + 8 == 440
    model.dispose()


def test_defaults_and_config():
    layer = tf.layers.conv_lstm2d(filters=2, kernel_size=3)
    cell = layer.cell
    assert cell.kernel_initializer.get_class_name() == "VarianceScaling"
    assert cell.kernel_initializer.distribution == "normal"
    assert cell.recurrent_initializer.get_class_name() == "Orthogonal"
    assert cell.recurrent_activation is activations.hard_sigmoid
    assert cell.activation is activations.tanh
    assert (layer.strides, layer.padding, layer.data_format, layer.dilation_rate) == \
        ([1, 1], "valid", "channels_last", [1, 1])
    assert layer.name.startswith("conv_lst_m2d_ConvLSTM2D")   # TF.js's toSnakeCase of the class name
    forget = tf.layers.conv_lstm2d_cell(filters=2, kernel_size=1, unit_forget_bias=True)
    forget.build((None, 4, 4, 3))
    np.testing.assert_array_equal(forget.bias.numpy(), [0, 0, 1, 1, 0, 0, 0, 0])
    config = tf.layers.conv_lstm2d(filters=3, kernel_size=[3, 1], strides=[1, 2], padding="same",
                                   data_format="channelsFirst", return_sequences=True).get_config()
    assert {k: config[k] for k in ("filters", "kernel_size", "strides", "padding", "data_format", "dilation_rate",
                                   "return_sequences")} == {
        "filters": 3, "kernel_size": [3, 1], "strides": [1, 2], "padding": "same", "data_format": "channels_first",
        "dilation_rate": [1, 1], "return_sequences": True}
    assert "cell" not in config and config["unit_forget_bias"] is False   # TF.js's: the cell's arguments spread in
    # the orthogonal recurrent kernel is orthogonal over its flattened [kh * kw * filters, 4 * filters] form
    layer.build((None, 2, 5, 5, 1))
    rk = layer.cell.recurrent_kernel.numpy().reshape(-1, 8)
    np.testing.assert_allclose(rk.T @ rk, np.eye(8), atol=1e-4)
    layer.dispose()
    forget.dispose()


@pytest.mark.parametrize("return_sequences,padding,strides", [(False, "same", 1), (True, "valid", 2)])
def test_gradients_against_centred_differences(return_sequences, padding, strides, rng):
    x = tf.tensor(_f32(rng, 2, 3, 4, 4, 1))
    layer = tf.layers.conv_lstm2d(filters=2, kernel_size=2, padding=padding, strides=strides,
                                  return_sequences=return_sequences, recurrent_activation="sigmoid",
                                  weights=_weights(rng, (2, 2), 1, 2))
    out = layer.apply(x)
    r = tf.tensor(_f32(rng, *out.shape))
    out.dispose()

    def loss():
        return tf.sum(tf.mul(layer.apply(x), r))
    snapshot = [w.numpy() for w in layer.weights]
    _, grads = tf.variable_grads(loss, layer.trainable_weights)
    assert set(grads) == {w.name for w in layer.weights}
    for i, w in enumerate(layer.trainable_weights):
        num = np.zeros_like(snapshot[i], dtype=np.float64)
        for idx in np.ndindex(snapshot[i].shape):
            vals = []
            for sign in (1, -1):
                v = snapshot[i].copy()
                v[idx] += sign * 1e-2
                layer.set_weights([v if j == i else s for j, s in enumerate(snapshot)])
                vals.append(float(tf.tidy(loss).numpy()))
            num[idx] = (vals[0] - vals[1]) / 2e-2
        layer.set_weights(snapshot)
        np.testing.assert_allclose(grads[w.name].numpy(), num, rtol=2e-2, atol=2e-2, err_msg=w.name)
    tf.dispose(grads)
    # and with respect to the input
    assert_gradients_match_numeric(lambda t: layer.apply(t), x, tol=2e-2)
    tf.dispose([x, r])
    layer.dispose()


def test_cell_gradients_with_respect_to_inputs_and_states(rng):
    cell = tf.layers.conv_lstm2d_cell(filters=2, kernel_size=[2, 3], padding="same", recurrent_activation="sigmoid")
    x, h, c = _f32(rng, 1, 3, 3, 2), _f32(rng, 1, 3, 3, 2), _f32(rng, 1, 3, 3, 2)
    cell.build((1, 3, 3, 2))
    cell.set_weights(_weights(rng, (2, 3), 2, 2))
    assert_gradients_match_numeric(lambda a, b, d: cell.apply([a, b, d])[0], x, h, c, tol=2e-2)
    assert_gradients_match_numeric(lambda a, b, d: cell.apply([a, b, d])[2], x, h, c, tol=2e-2)
    cell.dispose()


def test_dropout_only_in_training(rng):
    x = tf.tensor(_f32(rng, 2, 3, 5, 5, 2))
    layer = tf.layers.conv_lstm2d(filters=3, kernel_size=3, padding="same", dropout=0.5, recurrent_dropout=0.5,
                                  return_sequences=True)
    a, b = layer.apply(x), layer.apply(x)
    np.testing.assert_array_equal(a.numpy(), b.numpy())
    before = tf.memory().num_tensors
    c = layer.apply(x, training=True)
    assert tf.memory().num_tensors == before + 1   # masks and steps disposed
    assert not np.allclose(c.numpy(), a.numpy())
    assert layer.cell.dropout_mask is None and layer.cell.recurrent_dropout_mask is None
    # gradients flow through the masked convolutions
    _, grads = tf.variable_grads(lambda: tf.sum(layer.apply(x, training=True)), layer.trainable_weights)
    assert all(np.isfinite(g.numpy()).all() for g in grads.values())
    tf.dispose([x, a, b, c, grads])


def test_moving_dot_direction_learns():
    # A bright pixel moving one column left or right per frame: which way? (needs two frames)
    rng = np.random.default_rng(0)
    n, steps, size = 48, 3, 5
    x = np.zeros((n, steps, size, size, 1), np.float32)
    y = np.zeros((n, 1), np.float32)
    for k in range(n):
        right = k % 2
        row = rng.integers(0, size)
        col = rng.integers(0, size - steps + 1) + (0 if right else steps - 1)
        for t in range(steps):
            x[k, t, row, col + (t if right else -t), 0] = 1
        y[k, 0] = right
    model = tf.sequential(layers=[
        tf.layers.conv_lstm2d(filters=4, kernel_size=3, padding="same", input_shape=[steps, size, size, 1],
                              kernel_initializer=tf.initializers.glorot_normal(seed=1),
                              recurrent_initializer=tf.initializers.orthogonal(seed=2)),
        tf.layers.global_max_pooling2d(),
        tf.layers.dense(units=1, activation="sigmoid", kernel_initializer=tf.initializers.glorot_uniform(seed=3))])
    model.compile(optimizer=tf.train.adam(0.05), loss="binaryCrossentropy", metrics=["accuracy"])
    xs, ys = tf.tensor(x), tf.tensor(y)
    history = model.fit_sync(xs, ys, epochs=12, batch_size=16, verbose=0, shuffle=False)
    assert history.history["loss"][-1] < history.history["loss"][0] * 0.5
    assert history.history["acc"][-1] >= 0.9
    tf.dispose([xs, ys])
    model.dispose()


def test_argument_errors():
    cls = "ConvLSTM2DCell"
    assert_raises(ValueError, lambda: tf.layers.conv_lstm2d(filters=0, kernel_size=3), cls, "filters")
    assert_raises(ValueError, lambda: tf.layers.conv_lstm2d(filters=2.5, kernel_size=3), "filters", "2.5")
    assert_raises(ValueError, lambda: tf.layers.conv_lstm2d(kernel_size=3), "filters", "None")
    assert_raises(ValueError, lambda: tf.layers.conv_lstm2d(filters=2), cls, "kernel_size", "missing")
    assert_raises(ValueError, lambda: tf.layers.conv_lstm2d(filters=2, kernel_size=[3]), "kernel_size", "2")
    assert_raises(ValueError, lambda: tf.layers.conv_lstm2d(filters=2, kernel_size=0), "kernel_size", "positive")
    assert_raises(ValueError, lambda: tf.layers.conv_lstm2d(filters=2, kernel_size=3, strides=[1, 0]), "strides")
    assert_raises(ValueError, lambda: tf.layers.conv_lstm2d(filters=2, kernel_size=3, padding="causal"),
                  cls, "padding", "'causal'")
    assert_raises(ValueError, lambda: tf.layers.conv_lstm2d(filters=2, kernel_size=3, data_format="NHWC"),
                  "data_format")
    # strides and dilation both > 1: made (and serialized) as TF.js makes them; the convolution refuses to run
    strided = tf.layers.conv_lstm2d(filters=2, kernel_size=3, strides=2, dilation_rate=2)
    strided.build((1, 2, 7, 7, 1))
    x = tf.ones([1, 2, 7, 7, 1])
    assert_raises(ValueError, lambda: strided.apply(x), "strides", "dilations")
    tf.dispose(x)
    strided.dispose()
    assert_raises(ValueError, lambda: tf.layers.conv_lstm2d(filters=2, kernel_size=3, dropout=2), "dropout")
    assert_raises(TypeError, lambda: tf.layers.conv_lstm2d_cell(units=2, filters=2, kernel_size=3), "filters",
                  "units")
    # stateful needs a known batch size (as the other RNNs)
    assert_raises(ValueError, lambda: tf.layers.conv_lstm2d(filters=2, kernel_size=3, stateful=True).apply(
        tf.input(shape=[2, 5, 5, 1])), "stateful", "batch size", "batch_shape")


def test_input_errors_leak_nothing():
    layer = tf.layers.conv_lstm2d(filters=2, kernel_size=3, name="cl")
    x4 = tf.zeros([2, 5, 5, 3])
    assert_raises(ValueError, lambda: layer.apply(x4), "layer cl", "expected ndim=5", "found ndim=4")
    assert_raises(ValueError, lambda: layer.apply(tf.input(shape=[5, 5, 3])), "expected ndim=5")
    assert not layer.built and layer.weights == []
    # a window that does not fit fails before any weight is made
    small, ok, wide, tiny, empty = (tf.zeros(s) for s in ([1, 2, 2, 5, 3], [1, 2, 5, 5, 3], [1, 2, 5, 5, 4],
                                                          [1, 2, 2, 2, 3], [1, 0, 5, 5, 3]))
    assert_raises(ValueError, lambda: layer.apply(small), "cl", "window", "[1,2,2,5,3]")
    assert not layer.built and layer.weights == []
    assert_raises(ValueError, lambda: layer.apply(tf.input(shape=[2, 5, None, None])), "channel dimension")
    layer.apply(ok).dispose()
    assert_raises(ValueError, lambda: layer.apply(wide), "cl", "axis 4", "3")
    # after build, a smaller image than the window still fails clearly
    assert_raises(ValueError, lambda: layer.apply(tiny), "window")
    assert_raises(ValueError, lambda: layer.apply(empty), "no timesteps")
    assert_no_leak(lambda: layer.apply(ok, training=True).dispose())
    tf.dispose([x4, small, ok, wide, tiny, empty])
    cell = tf.layers.conv_lstm2d_cell(filters=2, kernel_size=3)
    xs = [tf.zeros([1, 5, 5, 3]), tf.zeros([1, 3, 3, 2])]
    assert_raises(ValueError, lambda: cell.apply(xs), "ConvLSTM2DCell expects 3 input")
    bad = [tf.zeros([1, 5, 5, 3]), tf.zeros([1, 3, 3, 2]), tf.zeros([1, 5, 5, 2])]
    assert_raises(ValueError, lambda: cell.apply(bad), "c state", "[1,3,3,2]", "[1,5,5,2]")
    rank3 = [tf.zeros([5, 5, 3]), tf.zeros([1, 3, 3, 2]), tf.zeros([1, 3, 3, 2])]
    fresh = tf.layers.conv_lstm2d_cell(filters=2, kernel_size=3)
    assert_raises(ValueError, lambda: fresh.apply(rank3), "ConvLSTM2DCell", "4-D")
    tf.dispose([xs, bad, rank3])


# --- stateful -------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("data_format", ["channels_last", "channels_first"])
def test_stateful_chunks_equal_the_whole_sequence(data_format, rng):
    x = _f32(rng, 2, 5, 4, 5, 1)
    w = _weights(rng, (3, 3), 1, 2)
    seq, h, c = _np_conv_lstm(x, *w, padding="same")
    first = data_format == "channels_first"
    to_layout = (lambda a: np.transpose(a, [0, 1, 4, 2, 3])) if first else (lambda a: a)
    state_layout = (lambda a: np.transpose(a, [0, 3, 1, 2])) if first else (lambda a: a)
    batch_shape = [2, None] + list(to_layout(x).shape[2:])
    layer = tf.layers.conv_lstm2d(filters=2, kernel_size=3, padding="same", stateful=True, return_sequences=True,
                                  data_format=data_format, batch_input_shape=batch_shape, weights=w)
    model = tf.sequential(layers=[layer])
    assert [tuple(s.shape) for s in layer.states] == [(2,) + state_layout(h).shape[1:]] * 2
    assert all(np.all(s.numpy() == 0) for s in layer.states)
    assert layer.weights == layer.trainable_weights and len(layer.weights) == 3   # the states are no weights
    xt = tf.tensor(to_layout(x))
    parts = [tf.slice(xt, [0, a, 0, 0, 0], [-1, b - a, -1, -1, -1]) for a, b in ((0, 2), (2, 3), (3, 5))]
    before = tf.memory().num_tensors
    outs = [model.predict(p) for p in parts]
    assert tf.memory().num_tensors == before + 3   # the outputs only
    assert_tensor(tf.concat(outs, 1), to_layout(seq), rtol=1e-4, atol=1e-5)
    assert_tensor(layer.states[0], state_layout(h), rtol=1e-4, atol=1e-5)
    assert_tensor(layer.states[1], state_layout(c), rtol=1e-4, atol=1e-5)
    # reset: the next chunk starts from zeros again
    model.reset_states()
    again = model.predict(parts[0])
    assert_tensor(again, to_layout(seq)[:, :2], rtol=1e-4, atol=1e-5)
    # reset to given states = an initial state
    layer.reset_states([state_layout(h), state_layout(c)])
    cont = model.predict(parts[0])
    ref, _, _ = _np_conv_lstm(x[:, :2], *w, padding="same", h=h, c=c)
    assert_tensor(cont, to_layout(ref), rtol=1e-4, atol=1e-5)
    assert_raises(ValueError, lambda: layer.reset_states([state_layout(h)]), "expects 2 state(s)")
    assert_raises(ValueError, lambda: layer.reset_states([np.zeros((3, 4, 5, 2)), np.zeros((3, 4, 5, 2))]),
                  "State 0")
    # a batch of another size: the TF.js-style message
    one = tf.zeros([1] + list(parts[0].shape[1:]))
    assert_raises(ValueError, lambda: model.predict(one), "batch size of 2")
    tf.dispose([xt, parts, outs, again, cont, one])
    model.dispose()
    assert layer.states == [None, None]


def test_stateful_with_mask_go_backwards_and_fit(rng):
    x = _f32(rng, 2, 4, 4, 4, 1)
    mask = np.array([[1, 0, 1, 1], [1, 1, 0, 1]], bool)
    w = _weights(rng, (3, 3), 1, 2)
    _, h1, c1 = _np_conv_lstm(x[:, :2], *w, padding="same", go_backwards=True, mask=mask[:, :2])
    _, h2, c2 = _np_conv_lstm(x[:, 2:], *w, padding="same", go_backwards=True, mask=mask[:, 2:], h=h1, c=c1)
    inp = tf.input(batch_shape=[2, 2, 4, 4, 1])
    layer = tf.layers.conv_lstm2d(filters=2, kernel_size=3, padding="same", stateful=True, go_backwards=True,
                                  weights=w)
    layer.apply(inp)
    xt, mt = tf.tensor(x), tf.tensor(mask)
    for a in (0, 2):
        part = tf.slice(xt, [0, a, 0, 0, 0], [-1, 2, -1, -1, -1])
        m = tf.slice(mt, [0, a], [-1, 2])
        tf.dispose(layer.apply(part, mask=m))
        tf.dispose([part, m])
    assert_tensor(layer.states[0], h2, rtol=1e-4, atol=1e-5)
    assert_tensor(layer.states[1], c2, rtol=1e-4, atol=1e-5)
    # fit keeps going from the states, batch by batch, and leaks nothing
    model = tf.model(inputs=inp, outputs=tf.layers.global_average_pooling2d().apply(layer.output))
    model.compile(optimizer="sgd", loss="mse")
    ys = tf.zeros([4, 2])
    xs = tf.zeros([4, 2, 4, 4, 1])
    model.fit_sync(xs, ys, batch_size=2, shuffle=False, verbose=0)
    assert_no_leak(lambda: model.fit_sync(xs, ys, batch_size=2, shuffle=False, verbose=0, epochs=2))
    assert_raises(ValueError, lambda: model.fit_sync(xs, ys, batch_size=3, verbose=0), "batch_size=2")
    tf.dispose([xt, mt, xs, ys])
    model.dispose()


def test_stateful_needs_the_batch_size_and_the_same_image_size():
    assert_raises(ValueError, lambda: tf.sequential(layers=[
        tf.layers.conv_lstm2d(filters=2, kernel_size=3, stateful=True, input_shape=[2, 5, 5, 1])]),
        "stateful", "batch size", "batch_input_shape")
    layer = tf.layers.conv_lstm2d(filters=2, kernel_size=3, stateful=True, name="scl")
    assert_raises(ValueError, lambda: layer.apply(tf.input(batch_shape=[1, None, None, None, 1])), "scl",
                  "full shape", "[1,null,null,2]")
    assert not layer.built
    layer = tf.layers.conv_lstm2d(filters=2, kernel_size=3, stateful=True, name="scl2")
    out = layer.apply(tf.zeros([1, 2, 5, 5, 1]))
    assert [tuple(s.shape) for s in layer.states] == [(1, 3, 3, 2)] * 2
    big = tf.zeros([1, 2, 6, 6, 1])
    assert_raises(ValueError, lambda: layer.apply(big), "scl2", "[1,3,3,2]", "[1,2,6,6,1]", "[1,4,4,2]")
    tf.dispose([out, big])
    layer.dispose()
