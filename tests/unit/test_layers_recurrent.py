"""Recurrent layers on the cpu backend: SimpleRNN, LSTM, GRU and their cells against a numpy
loop for fixed weights, output shapes, Keras parameter counts, gradients against centred
differences, a small sequence task that learns, errors."""
import numpy as np
import pytest

import pytfweb as tf
from tests.unit.helpers import assert_raises, assert_tensor, summary_params


def _f32(rng, *shape, scale=1.0):
    return (rng.normal(size=shape) * scale).astype(np.float32)


def _hard_sigmoid(x):
    return np.clip(0.2 * x + 0.5, 0, 1)


# --- numpy references: one step each, then a loop over time ----------------------------------------------
def _np_simple(x, states, k, rk, b):
    h = np.tanh(x @ k + states[0] @ rk + b)
    return h, [h]


def _np_lstm(x, states, k, rk, b):
    h, c = states
    z = x @ k + h @ rk + b
    i, f, g, o = np.split(z, 4, axis=1)
    c = _hard_sigmoid(f) * c + _hard_sigmoid(i) * np.tanh(g)
    h = _hard_sigmoid(o) * np.tanh(c)
    return h, [h, c]


def _np_gru(x, states, k, rk, b):
    h = states[0]
    u = h.shape[1]
    mx = x @ k + b
    xz, xr, xh = np.split(mx, 3, axis=1)
    z = _hard_sigmoid(xz + h @ rk[:, :u])
    r = _hard_sigmoid(xr + h @ rk[:, u:2 * u])
    hh = np.tanh(xh + (r * h) @ rk[:, 2 * u:])
    h = z * h + (1 - z) * hh
    return h, [h]


def _np_rnn(step, n_states, x, weights, units, go_backwards=False):
    x = x.astype(np.float64)
    states = [np.zeros((x.shape[0], units))] * n_states
    steps = range(x.shape[1] - 1, -1, -1) if go_backwards else range(x.shape[1])
    outs = []
    for t in steps:
        out, states = step(x[:, t], states, *weights)
        outs.append(out)
    return np.stack(outs, 1), states


LAYERS = [("simple_rnn", _np_simple, 1, 1), ("lstm", _np_lstm, 2, 4), ("gru", _np_gru, 1, 3)]


def _weights(rng, input_dim, units, gates):
    return [_f32(rng, input_dim, gates * units, scale=0.5), _f32(rng, units, gates * units, scale=0.5),
            _f32(rng, gates * units, scale=0.5)]


@pytest.mark.parametrize("name,step,n_states,gates", LAYERS)
@pytest.mark.parametrize("go_backwards", [False, True])
def test_rnn_layers_match_numpy_loop(name, step, n_states, gates, go_backwards, rng):
    units, x = 4, _f32(rng, 2, 5, 3)
    w = _weights(rng, 3, units, gates)
    seq_ref, states_ref = _np_rnn(step, n_states, x, w, units, go_backwards)
    make = getattr(tf.layers, name)

    last = make(units=units, go_backwards=go_backwards)
    xt = tf.tensor(x)
    last.apply(xt).dispose()
    last.set_weights(w)
    assert_tensor(last.apply(xt), seq_ref[:, -1], rtol=1e-4, atol=1e-5)

    full = make(units=units, return_sequences=True, return_state=True, go_backwards=go_backwards, weights=w)
    outs = full.apply(xt)
    assert len(outs) == 1 + n_states
    assert_tensor(outs[0], seq_ref, rtol=1e-4, atol=1e-5)
    for got, ref in zip(outs[1:], states_ref):
        assert_tensor(got, ref, rtol=1e-4, atol=1e-5)

    # the generic RNN over the matching cell computes the same
    cell = getattr(tf.layers, name + "_cell")(units=units)
    generic = tf.layers.rnn(cell=cell, return_sequences=True, go_backwards=go_backwards)
    generic.apply(xt).dispose()
    generic.set_weights(w)
    assert_tensor(generic.apply(xt), seq_ref, rtol=1e-4, atol=1e-5)
    xt.dispose()


@pytest.mark.parametrize("name,step,n_states,gates", LAYERS)
def test_cells_step_once(name, step, n_states, gates, rng):
    units, x = 3, _f32(rng, 2, 4)
    states = [_f32(rng, 2, units) for _ in range(n_states)]
    w = _weights(rng, 4, units, gates)
    cell = getattr(tf.layers, name + "_cell")(units=units)
    outs = cell.apply([tf.tensor(x)] + [tf.tensor(s) for s in states])
    cell.set_weights(w)
    outs = cell.apply([tf.tensor(x)] + [tf.tensor(s) for s in states])
    ref_out, ref_states = step(x.astype(np.float64), [s.astype(np.float64) for s in states], *w)
    assert len(outs) == 1 + n_states
    assert_tensor(outs[0], ref_out, rtol=1e-4, atol=1e-5)
    for got, ref in zip(outs[1:], ref_states):
        assert_tensor(got, ref, rtol=1e-4, atol=1e-5)


def test_output_shapes_symbolic_and_concrete():
    inp = tf.input(shape=[7, 3])
    assert tf.layers.lstm(units=5).apply(inp).shape == (None, 5)
    assert tf.layers.gru(units=5, return_sequences=True).apply(inp).shape == (None, 7, 5)
    outs = tf.layers.lstm(units=5, return_sequences=True, return_state=True).apply(inp)
    assert [o.shape for o in outs] == [(None, 7, 5), (None, 5), (None, 5)]
    outs = tf.layers.simple_rnn(units=2, return_state=True).apply(inp)
    assert [o.shape for o in outs] == [(None, 2), (None, 2)]
    var_len = tf.input(shape=[None, 3])
    assert tf.layers.gru(units=2, return_sequences=True).apply(var_len).shape == (None, None, 2)
    x = tf.zeros([4, 6, 3])
    assert tuple(tf.layers.gru(units=2, return_sequences=True).apply(x).shape) == (4, 6, 2)


def test_parameter_counts_match_keras():
    def keras(gates, d, u):
        return gates * ((d + u) * u + u)
    model = tf.sequential(layers=[tf.layers.lstm(units=4, input_shape=[5, 3], return_sequences=True),
                                  tf.layers.gru(units=6), tf.layers.dense(units=1)])
    total = keras(4, 3, 4) + keras(3, 4, 6) + 7
    assert keras(4, 3, 4) == 128
    assert summary_params(model)["Total"] == total
    assert [layer.count_params() for layer in model.layers] == [128, keras(3, 4, 6), 7]
    layer = tf.layers.simple_rnn(units=8)
    layer.build((None, 10, 3))
    assert layer.count_params() == keras(1, 3, 8) == 96
    no_bias = tf.layers.lstm(units=2, use_bias=False)
    no_bias.build((None, 4, 3))
    assert no_bias.count_params() == 4 * (3 + 2) * 2
    model.dispose()


def test_defaults_as_tfjs():
    cell = tf.layers.lstm(units=2).cell
    assert cell.kernel_initializer.get_class_name() == "VarianceScaling"
    assert cell.kernel_initializer.distribution == "normal"
    assert cell.recurrent_initializer.get_class_name() == "Orthogonal"
    from pytfweb.layers import activations
    assert cell.recurrent_activation is activations.hard_sigmoid
    assert tf.layers.gru(units=2).cell.recurrent_activation is activations.hard_sigmoid
    forget = tf.layers.lstm_cell(units=2, unit_forget_bias=True)
    forget.build((None, 3))
    np.testing.assert_array_equal(forget.bias.numpy(), [0, 0, 1, 1, 0, 0, 0, 0])
    layer = tf.layers.gru(units=3, name="my_gru")
    layer.build((None, 2, 2))
    assert [w.name for w in layer.weights] == ["my_gru/kernel", "my_gru/recurrent_kernel", "my_gru/bias"]


@pytest.mark.parametrize("name,gates", [("simple_rnn", 1), ("lstm", 4), ("gru", 3)])
@pytest.mark.parametrize("return_sequences", [False, True])
def test_gradients_against_centred_differences(name, gates, return_sequences, rng):
    units = 3
    x = tf.tensor(_f32(rng, 2, 4, 2))
    layer = getattr(tf.layers, name)(units=units, return_sequences=return_sequences, activation="tanh",
                                     **({} if name == "simple_rnn" else {"recurrent_activation": "sigmoid"}))
    layer.apply(x).dispose()
    layer.set_weights(_weights(rng, 2, units, gates))
    out = layer.apply(x)
    r = tf.tensor(_f32(rng, *out.shape))
    out.dispose()

    def loss():
        return tf.sum(tf.mul(layer.apply(x), r))
    snapshot = [w.numpy() for w in layer.weights]
    _, grads = tf.variable_grads(loss, layer.trainable_weights)
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
    # and with respect to the input
    gx = tf.grad(lambda t: tf.sum(tf.mul(layer.apply(t), r)))(x).numpy()
    xv = x.numpy()
    num = np.zeros_like(xv, dtype=np.float64)
    for idx in np.ndindex(xv.shape):
        vals = []
        for sign in (1, -1):
            v = xv.copy()
            v[idx] += sign * 1e-2
            vals.append(float(tf.tidy(lambda v=v: tf.sum(tf.mul(layer.apply(tf.tensor(v)), r))).numpy()))
        num[idx] = (vals[0] - vals[1]) / 2e-2
    np.testing.assert_allclose(gx, num, rtol=2e-2, atol=2e-2)
    tf.dispose([x, r])
    layer.dispose()


def test_dropout_only_in_training(rng):
    x = tf.tensor(_f32(rng, 3, 5, 4))
    layer = tf.layers.lstm(units=3, dropout=0.5, recurrent_dropout=0.5, return_sequences=True)
    a, b = layer.apply(x), layer.apply(x)
    np.testing.assert_array_equal(a.numpy(), b.numpy())
    before = tf.memory().num_tensors
    c = layer.apply(x, training=True)
    assert tf.memory().num_tensors == before + 1   # masks and steps disposed
    assert not np.allclose(c.numpy(), a.numpy())
    assert layer.cell.dropout_mask is None


@pytest.mark.parametrize("name", ["simple_rnn", "lstm", "gru"])
def test_sign_of_sequence_sum_learns(name):
    rng = np.random.default_rng(0)
    x = rng.normal(size=(64, 6, 1)).astype(np.float32)
    y = (x.sum(axis=(1, 2)) > 0).astype(np.float32)[:, None]
    model = tf.sequential(layers=[
        getattr(tf.layers, name)(units=8, input_shape=[6, 1],
                                 kernel_initializer=tf.initializers.glorot_normal(seed=1),
                                 recurrent_initializer=tf.initializers.orthogonal(seed=2)),
        tf.layers.dense(units=1, activation="sigmoid", kernel_initializer=tf.initializers.glorot_uniform(seed=3))])
    model.compile(optimizer=tf.train.adam(0.05), loss="binaryCrossentropy", metrics=["accuracy"])
    xs, ys = tf.tensor(x), tf.tensor(y)
    history = model.fit_sync(xs, ys, epochs=40, batch_size=16, verbose=0, shuffle=False)
    assert history.history["loss"][-1] < history.history["loss"][0] * 0.5
    assert history.history["acc"][-1] >= 0.9
    tf.dispose([xs, ys])
    model.dispose()


def test_errors():
    layer = tf.layers.lstm(units=2)
    x2 = tf.zeros([2, 3])
    assert_raises(ValueError, lambda: layer.apply(x2), "expected ndim=3", "found ndim=2")
    assert_raises(ValueError, lambda: tf.layers.gru(units=2).apply(tf.input(shape=[2, 3, 4])), "expected ndim=3")
    assert_raises(ValueError, lambda: tf.layers.simple_rnn(units=0), "units")
    assert_raises(ValueError, lambda: tf.layers.lstm(units=2, dropout=1.5), "dropout")
    assert_raises(ValueError, lambda: tf.layers.rnn(), "cell")
    assert_raises(ValueError, lambda: tf.layers.lstm(units=2, stateful=True).apply(tf.input(shape=[3, 2])),
                  "stateful", "batch size")
    cell = tf.layers.lstm_cell(units=2)
    cell.build((None, 3))
    xs = [tf.zeros([1, 3]), tf.zeros([1, 2])]
    assert_raises(ValueError, lambda: cell.apply(xs), "expects 3 input")
    tf.dispose(xs)
    built = tf.layers.lstm(units=2, weights=None)
    built.apply(tf.zeros([1, 2, 3])).dispose()
    assert_raises(ValueError, lambda: built.set_weights([np.zeros((3, 8))]), "expecting 3 weights")
    x2.dispose()


# --- wrappers ---------------------------------------------------------------------------------------------
def test_time_distributed_dense_matches_numpy(rng):
    x = _f32(rng, 2, 5, 3)
    k, b = _f32(rng, 3, 4), _f32(rng, 4)
    layer = tf.layers.time_distributed(layer=tf.layers.dense(units=4, activation="tanh"))
    xt = tf.tensor(x)
    layer.apply(xt).dispose()
    layer.set_weights([k, b])
    assert_tensor(layer.apply(xt), np.tanh(x @ k + b), rtol=1e-5, atol=1e-5)
    assert layer.count_params() == 16
    assert tf.layers.time_distributed(layer=tf.layers.dense(units=2)).apply(tf.input(shape=[7, 3])).shape == \
        (None, 7, 2)
    assert_raises(ValueError, lambda: tf.layers.time_distributed(layer=tf.layers.dense(units=2)).apply(
        tf.input(shape=[3])), "min_ndim=3")
    xt.dispose()


@pytest.mark.parametrize("merge_mode", ["concat", "sum", "mul", "ave", None])
@pytest.mark.parametrize("name,step,n_states,gates", LAYERS)
def test_bidirectional_matches_numpy(merge_mode, name, step, n_states, gates, rng):
    units, x = 3, _f32(rng, 2, 4, 2)
    wf, wb = _weights(rng, 2, units, gates), _weights(rng, 2, units, gates)
    fseq, fstates = _np_rnn(step, n_states, x, wf, units)
    bseq, bstates = _np_rnn(step, n_states, x, wb, units, go_backwards=True)
    bseq = bseq[:, ::-1]
    merge = {"concat": lambda a, b: np.concatenate([a, b], -1), "sum": np.add, "mul": np.multiply,
             "ave": lambda a, b: (a + b) / 2}
    layer = tf.layers.bidirectional(layer=getattr(tf.layers, name)(units=units, return_sequences=True,
                                                                   return_state=True), merge_mode=merge_mode)
    xt = tf.tensor(x)
    tf.dispose(layer.apply(xt))
    layer.set_weights(wf + wb)
    outs = layer.apply(xt)
    if merge_mode is None:
        refs = [fseq, bseq] + fstates + bstates
    else:
        refs = [merge[merge_mode](fseq, bseq)] + fstates + bstates
    assert len(outs) == len(refs)
    for got, ref in zip(outs, refs):
        assert_tensor(got, ref, rtol=1e-4, atol=1e-5)
    sym = layer.apply(tf.input(shape=[4, 2]))
    assert [s.shape for s in sym] == [tuple([None] + list(r.shape[1:])) for r in refs]
    assert layer.count_params() == 2 * gates * ((2 + units) * units + units)
    xt.dispose()


def test_bidirectional_last_output_and_errors(rng):
    x = _f32(rng, 2, 4, 2)
    w = _weights(rng, 2, 3, 3)
    layer = tf.layers.bidirectional(layer=tf.layers.gru(units=3, name="g"))
    xt = tf.tensor(x)
    layer.apply(xt).dispose()
    layer.set_weights(w + w)
    f = _np_rnn(_np_gru, 1, x, w, 3)[0][:, -1]
    b = _np_rnn(_np_gru, 1, x, w, 3, go_backwards=True)[0][:, -1]
    assert_tensor(layer.apply(xt), np.concatenate([f, b], -1), rtol=1e-4, atol=1e-5)
    assert [w.name for w in layer.weights][0] == "forward_g/kernel"
    assert_raises(ValueError, lambda: tf.layers.bidirectional(layer=tf.layers.gru(units=2), merge_mode="max"),
                  "Invalid merge mode")
    assert_raises(NotImplementedError, lambda: tf.layers.bidirectional(layer=tf.layers.dense(units=2)), "only")
    xt.dispose()


def test_gru_reset_after_is_keras_formulation():
    """reset_after=True (Keras's default; TF.js refuses it): the reset gate scales the recurrent
    product, and input and recurrence have their own bias rows."""
    rng = np.random.default_rng(5)
    x = rng.normal(size=(2, 4, 3)).astype(np.float32)
    layer = tf.layers.gru(units=2, reset_after=True, recurrent_activation="sigmoid", return_sequences=True)
    layer.build((None, 4, 3))
    k, rk, b = (rng.normal(size=w.shape).astype(np.float32) for w in layer.weights)
    assert b.shape == (2, 6)
    layer.set_weights([k, rk, b])
    got = layer.apply(tf.tensor(x))
    sig = lambda v: 1 / (1 + np.exp(-v))  # noqa: E731
    h, want = np.zeros((2, 2), np.float32), []
    for t in range(4):
        mx, mh = x[:, t] @ k + b[0], h @ rk + b[1]
        z, r = sig(mx[:, :2] + mh[:, :2]), sig(mx[:, 2:4] + mh[:, 2:4])
        h = z * h + (1 - z) * np.tanh(mx[:, 4:] + r * mh[:, 4:])
        want.append(h)
    np.testing.assert_allclose(got.numpy(), np.stack(want, 1), rtol=1e-5, atol=1e-6)
    got.dispose()
    layer.dispose()


def test_rnn_takes_a_users_cell_with_a_numeric_state_size():
    class MeanCell(tf.layers.Layer):
        # TF.js's stateSize may be one number: one state of that size
        def __init__(self, size):
            super().__init__()
            self.state_size = size

        def call(self, inputs, training=False):
            x, *states = inputs
            new = [tf.add(tf.mean(x), s) for s in states]
            return [tf.neg(new[0])] + new

    rnn = tf.layers.rnn(cell=MeanCell(4), return_state=True)
    assert [list(s) for s in rnn.compute_output_shape([2, 3, 5])] == [[2, 4], [2, 4]]
    out, state = rnn.apply(tf.ones([2, 3, 5]))
    assert_tensor(state, np.full([2, 4], 3.0))
    assert_tensor(out, np.full([2, 4], -3.0))
    tf.dispose([out, state])


@pytest.mark.parametrize("make, calls", [(tf.layers.simple_rnn, 1), (tf.layers.gru, 3), (tf.layers.lstm, 4)])
def test_dropout_masks_drawn_per_gate_as_tfjs(make, calls):
    # TF.js draws one dropout mask per gate and applies the first: as many dropout_func calls here
    seen = []

    def dropout_func(x, rate):
        seen.append(rate)
        return tf.dropout(x, rate)

    layer = make(units=2, dropout=0.5, dropout_func=dropout_func)
    x = tf.ones([2, 3, 4])
    layer.apply(x).dispose()   # not training: no mask
    assert seen == []
    before = tf.memory().num_tensors
    layer.apply(x, training=True).dispose()
    assert seen == [0.5] * calls and tf.memory().num_tensors == before
    x.dispose()
    layer.dispose()
