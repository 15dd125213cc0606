"""Stateful RNNs (states carried across calls, reset_states, initial_state, the fixed batch size,
no leaks) and masks (Masking, Embedding(mask_zero=True), propagation through Sequential and
functional models, RNNs skipping masked timesteps) on the cpu backend, against numpy loops."""
import numpy as np
import pytest

import pytfweb as tf
from tests.unit.helpers import assert_gradients_match_numeric, assert_raises, assert_tensor
from tests.unit.test_layers_recurrent import LAYERS, _f32, _np_gru, _np_lstm, _np_rnn, _np_simple, _weights

TOL = {"rtol": 1e-4, "atol": 1e-5}


def _np_masked_rnn(step, n_states, x, mask, weights, units, go_backwards=False, initial=None):
    """TF.js's rnn() with a mask: a masked step keeps the states and outputs states[0]."""
    x = x.astype(np.float64)
    states = [np.asarray(s, np.float64) for s in initial] if initial is not None else \
        [np.zeros((x.shape[0], units))] * n_states
    steps = range(x.shape[1] - 1, -1, -1) if go_backwards else range(x.shape[1])
    outs = []
    for t in steps:
        out, new = step(x[:, t], states, *weights)
        keep = mask[:, t][:, None].astype(bool)
        out = np.where(keep, out, states[0])
        states = [np.where(keep, n, s) for n, s in zip(new, states)]
        outs.append(out)
    return np.stack(outs, 1), states


def _live():
    return tf.memory().num_tensors


# --- stateful ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name,step,n_states,gates", LAYERS)
def test_stateful_carry_over_equals_the_whole_sequence(name, step, n_states, gates, rng):
    units, x = 3, _f32(rng, 2, 6, 2)
    w = _weights(rng, 2, units, gates)
    seq_ref, states_ref = _np_rnn(step, n_states, x, w, units)
    layer = getattr(tf.layers, name)(units=units, stateful=True, return_sequences=True, weights=w)
    first, second = tf.tensor(x[:, :4]), tf.tensor(x[:, 4:])
    a = layer.apply(first)
    b = layer.apply(second)
    assert_tensor(a, seq_ref[:, :4], **TOL)
    assert_tensor(b, seq_ref[:, 4:], **TOL)
    assert len(layer.states) == n_states
    for got, ref in zip(layer.states, states_ref):
        assert_tensor(got, ref, **TOL)
    # the states are not weights (as Keras): parameter counts and set_weights are unchanged
    assert len(layer.weights) == 3 and all(not s.trainable for s in layer.states)
    assert layer.count_params() == gates * ((2 + units) * units + units)
    # reset: the next call starts from zeros again
    layer.reset_states()
    assert_tensor(layer.apply(first), seq_ref[:, :4], **TOL)
    tf.dispose([first, second, a, b])
    before = _live()
    assert layer.dispose().num_disposed_variables == 3
    assert _live() == before - 3 - n_states


def test_stateful_sequential_predict_in_chunks_and_model_reset(rng):
    units, x = 4, _f32(rng, 2, 8, 3)
    w = _weights(rng, 3, units, 4)
    ref, _ = _np_rnn(_np_lstm, 2, x, w, units)
    model = tf.sequential(layers=[tf.layers.lstm(units=units, stateful=True, batch_input_shape=[2, None, 3],
                                                 weights=w)])
    assert model.stateful
    chunks = [tf.tensor(x[:, i:i + 2]) for i in range(0, 8, 2)]
    outs = [model.predict(c, batch_size=2) for c in chunks]
    for i, o in enumerate(outs):
        assert_tensor(o, ref[:, 2 * i + 1], **TOL)
    model.reset_states()
    assert_tensor(model.predict(chunks[0], batch_size=2), ref[:, 1], **TOL)
    # a batch of another size than the one the states were made for
    assert_raises(ValueError, lambda: model.predict(chunks[0], batch_size=1), "batch size of 2", "batch_size=2")
    tf.dispose([chunks, outs])
    model.dispose()


def test_stateful_functional_with_batch_shape_and_batch_size_argument(rng):
    x = _f32(rng, 3, 4, 2)
    inp = tf.input(batch_shape=[3, 4, 2])
    layer = tf.layers.gru(units=2, stateful=True)
    model = tf.model(inputs=inp, outputs=layer.apply(inp))
    xt = tf.tensor(x)
    first = model.predict(xt, batch_size=3).numpy()
    second = model.predict(xt, batch_size=3).numpy()
    assert not np.allclose(first, second)   # the second run starts from the first's states
    model.reset_states()
    np.testing.assert_allclose(model.predict(xt, batch_size=3).numpy(), first, rtol=1e-6)
    # batch_size with input_shape fixes the batch too
    seq = tf.sequential(layers=[tf.layers.simple_rnn(units=2, stateful=True, input_shape=[4, 2], batch_size=3)])
    assert [tuple(s.shape) for s in seq.layers[0].states] == [(3, 2)]
    xt.dispose()
    model.dispose()
    seq.dispose()


def test_stateful_needs_a_batch_size():
    assert_raises(ValueError, lambda: tf.sequential(layers=[tf.layers.lstm(units=2, stateful=True,
                                                                           input_shape=[3, 2])]),
                  "stateful", "batch size", "batch_input_shape")
    assert_raises(ValueError, lambda: tf.layers.gru(units=2, stateful=True).apply(tf.input(shape=[3, 2])),
                  "stateful", "batch_shape")
    assert_raises(AttributeError, lambda: tf.layers.lstm(units=2).reset_states(), "not stateful")
    assert_raises(ValueError, lambda: tf.layers.lstm(units=2, stateful=True).reset_states(), "build")
    assert tf.layers.lstm(units=2).states == [None, None]


def test_reset_states_to_values_and_errors(rng):
    units, x = 3, _f32(rng, 2, 5, 2)
    w = _weights(rng, 2, units, 4)
    h0, c0 = _f32(rng, 2, units), _f32(rng, 2, units)
    ref, _ = _np_masked_rnn(_np_lstm, 2, x, np.ones((2, 5)), w, units, initial=[h0, c0])
    layer = tf.layers.lstm(units=units, stateful=True, return_sequences=True, weights=w)
    xt = tf.tensor(x)
    layer.apply(xt).dispose()
    layer.reset_states([h0, tf.tensor(c0)])
    assert_tensor(layer.apply(xt), ref, **TOL)
    assert_raises(ValueError, lambda: layer.reset_states([h0]), "expects 2 state(s)", "received 1")
    assert_raises(ValueError, lambda: layer.reset_states([h0, np.zeros((3, units))]), "State 1", "[2,3]",
                  "[3,3]")
    xt.dispose()
    layer.dispose()


def test_stateful_no_leak_over_many_predict_and_fit_calls(rng):
    x, y = tf.tensor(_f32(rng, 4, 3, 2)), tf.tensor(_f32(rng, 4, 1))
    start = _live()
    model = tf.sequential(layers=[tf.layers.gru(units=3, stateful=True, batch_input_shape=[2, 3, 2]),
                                  tf.layers.dense(units=1)])
    model.compile(optimizer="sgd", loss="meanSquaredError")
    model.predict(x, batch_size=2).dispose()
    model.fit_sync(x, y, batch_size=2, epochs=1, verbose=0, shuffle=False)
    model.evaluate(x, y, batch_size=2).dispose()   # each traced step's first call: its plan is the model's
    model.reset_states()
    base = tf.memory()
    for _ in range(5):
        model.predict(x, batch_size=2).dispose()
    history = model.fit_sync(x, y, batch_size=2, epochs=3, verbose=0, shuffle=False)
    model.evaluate(x, y, batch_size=2).dispose()
    model.reset_states()
    after = tf.memory()
    assert (after.num_tensors, after.num_bytes) == (base.num_tensors, base.num_bytes)
    assert all(np.isfinite(history.history["loss"]))
    # 5 weights, and what the optimizer frees (sgd: its learning rate), counted as TF.js counts it
    assert model.dispose().num_disposed_variables == 6
    assert _live() == start     # weights, state and the optimizer the model made: all gone
    tf.dispose([x, y])


def test_stateful_fit_carries_states_between_batches(rng):
    # one sequence cut in two batches of steps: fit with stateful=True sees it as one
    x = _f32(rng, 2, 6, 1)
    w = _weights(rng, 1, 2, 1)
    model = tf.sequential(layers=[tf.layers.simple_rnn(units=2, stateful=True, batch_input_shape=[2, 3, 1],
                                                       weights=w)])
    model.compile(optimizer=tf.train.sgd(0.0), loss="meanSquaredError")   # lr 0: weights stay
    ref, states = _np_rnn(_np_simple, 1, x, w, 2)
    xs = tf.tensor(np.concatenate([x[:, :3], x[:, 3:]], 0))   # batch 0: steps 0-2, batch 1: steps 3-5
    ys = tf.zeros([4, 2])
    model.fit_sync(xs, ys, batch_size=2, epochs=1, verbose=0, shuffle=False)
    assert_tensor(model.layers[0].states[0], states[0], **TOL)
    tf.dispose([xs, ys])
    model.dispose()


@pytest.mark.parametrize("name,step,n_states,gates", LAYERS)
def test_initial_state_eager_and_symbolic(name, step, n_states, gates, rng):
    units, x = 3, _f32(rng, 2, 4, 2)
    w = _weights(rng, 2, units, gates)
    init = [_f32(rng, 2, units) for _ in range(n_states)]
    ref, ref_states = _np_masked_rnn(step, n_states, x, np.ones((2, 4)), w, units, initial=init)
    layer = getattr(tf.layers, name)(units=units, return_sequences=True, return_state=True, weights=w)
    xt, st = tf.tensor(x), [tf.tensor(s) for s in init]
    outs = layer.apply(xt, initial_state=st)
    assert_tensor(outs[0], ref, **TOL)
    for got, want in zip(outs[1:], ref_states):
        assert_tensor(got, want, **TOL)
    tf.dispose(outs)
    # [x, *states] as the inputs is the same
    assert_tensor(layer.apply([xt] + st)[0], ref, **TOL)
    # symbolic initial states become inputs of a functional model
    xin = tf.input(shape=[4, 2])
    sin = [tf.input(shape=[units]) for _ in range(n_states)]
    out = layer.apply(xin, initial_state=sin)
    assert [o.shape for o in out] == [(None, 4, units)] + [(None, units)] * n_states
    model = tf.model(inputs=[xin] + sin, outputs=out[0])
    assert_tensor(model.predict([xt] + st), ref, **TOL)
    assert_raises(ValueError, lambda: layer.apply(xt, initial_state=st[:1] * (n_states + 1)),
                  f"{n_states} state(s)")
    wide = tf.zeros([2, units + 1])
    assert_raises(ValueError, lambda: layer.apply(xt, initial_state=[wide] * n_states), "initial state 0")
    tf.dispose([xt, st, wide])
    model.dispose()


# --- masks ---------------------------------------------------------------------------------------------
MASK = np.array([[1, 1, 0, 1, 0], [0, 1, 1, 0, 0], [1, 1, 1, 1, 1]], bool)


@pytest.mark.parametrize("name,step,n_states,gates", LAYERS)
@pytest.mark.parametrize("go_backwards", [False, True])
def test_masked_rnn_matches_numpy(name, step, n_states, gates, go_backwards, rng):
    units, x = 3, _f32(rng, 3, 5, 2)
    w = _weights(rng, 2, units, gates)
    ref, ref_states = _np_masked_rnn(step, n_states, x, MASK, w, units, go_backwards)
    layer = getattr(tf.layers, name)(units=units, return_sequences=True, return_state=True,
                                     go_backwards=go_backwards, weights=w)
    xt, mt = tf.tensor(x), tf.tensor(MASK)
    outs = layer.apply(xt, mask=mt)
    assert_tensor(outs[0], ref, **TOL)
    for got, want in zip(outs[1:], ref_states):
        assert_tensor(got, want, **TOL)
    # a masked step repeats the previous output (zeros before the first unmasked one)
    seq = outs[0].numpy()
    if not go_backwards:
        np.testing.assert_array_equal(seq[0, 2], seq[0, 1])
        np.testing.assert_array_equal(seq[1, 0], np.zeros(units, np.float32))
    # a float 0/1 mask is the same
    assert_tensor(layer.apply(xt, mask=tf.tensor(MASK.astype(np.float32)))[0], ref, **TOL)
    bad = tf.ones([3, 4], "bool")
    assert_raises(ValueError, lambda: layer.apply(xt, mask=bad), "mask", "[3,5]")
    tf.dispose([xt, mt, outs, bad])


def test_rnn_compute_mask():
    m = tf.tensor(MASK)
    x = tf.zeros([3, 5, 2])
    assert tf.layers.lstm(units=2, return_sequences=True).compute_mask(x, m) is m
    assert tf.layers.lstm(units=2).compute_mask(x, m) is None
    assert tf.layers.gru(units=2, return_sequences=True, return_state=True).compute_mask(x, m) == [m, None]
    tf.dispose([m, x])


def test_masking_layer_mask_and_dropping_by_layers_without_masking(rng):
    x = _f32(rng, 2, 4, 3)
    x[0, 1] = 0
    x[1, 2:] = 0
    xt = tf.tensor(x)
    masking = tf.layers.masking(mask_value=0)
    assert_tensor(masking.compute_mask(xt), [[True, False, True, True], [True, True, False, False]])
    emb = tf.layers.embedding(input_dim=5, output_dim=2, mask_zero=True)
    idx = tf.tensor([[1, 0, 3]], dtype="int32")
    assert_tensor(emb.compute_mask(idx), [[True, False, True]])
    assert tf.layers.embedding(input_dim=5, output_dim=2).compute_mask(idx) is None
    assert emb.get_config()["mask_zero"] is True
    m = masking.compute_mask(xt)
    assert_raises(TypeError, lambda: tf.layers.flatten().compute_mask(xt, m), "does not support masking")
    # in a model, a layer without masking support drops the mask (as tf.keras), no error
    model = tf.sequential(layers=[tf.layers.masking(mask_value=0, input_shape=[4, 3]), tf.layers.flatten(),
                                  tf.layers.dense(units=2)])
    assert tuple(model.predict(xt).shape) == (2, 2)
    # merge layers combine masks
    m2 = tf.tensor([[True, True, False, True], [False, True, True, True]])
    assert_tensor(tf.layers.add().compute_mask([xt, xt], [m, m2]), m.numpy() & m2.numpy())
    assert_tensor(tf.layers.concatenate().compute_mask([xt, xt], [m, None]), m.numpy())
    assert_tensor(tf.layers.concatenate(axis=1).compute_mask([xt, xt], [m, None]),
                  np.concatenate([m.numpy(), np.ones((2, 4), bool)], 1))
    tf.dispose([xt, idx, m, m2])
    model.dispose()


def _masking_rnn_reference(x, w, units):
    mask = np.any(x != 0, -1)
    return _np_masked_rnn(_np_simple, 1, x * mask[..., None], mask, w, units)


def test_masking_then_simple_rnn_in_sequential_and_functional(rng):
    units = 3
    x = _f32(rng, 3, 5, 2)
    x[0, 3:] = 0       # post-padding
    x[1, :2] = 0       # pre-padding
    x[2, 2] = 0        # a hole
    w = _weights(rng, 2, units, 1)
    ref, _ = _masking_rnn_reference(x, w, units)
    xt = tf.tensor(x)
    seq = tf.sequential(layers=[tf.layers.masking(mask_value=0, input_shape=[5, 2]),
                                tf.layers.dropout(rate=0.5),   # passes the mask on
                                tf.layers.simple_rnn(units=units, return_sequences=True, weights=w)])
    assert_tensor(seq.predict(xt), ref, **TOL)
    inp = tf.input(shape=[None, 2])
    masked = tf.layers.masking(mask_value=0).apply(inp)
    last = tf.layers.simple_rnn(units=units, weights=w).apply(masked)
    func = tf.model(inputs=inp, outputs=last)
    assert_tensor(func.predict(xt), ref[:, -1], **TOL)
    # the last output of a post-padded sequence is that of the unpadded sequence
    alone = tf.tensor(x[:1, :3])
    assert_tensor(func.predict(alone), _np_rnn(_np_simple, 1, x[:1, :3], w, units)[0][:, -1], **TOL)
    # a model nested in another passes its output mask on
    inner = tf.sequential(layers=[tf.layers.masking(mask_value=0, input_shape=[5, 2])])
    outer = tf.sequential(layers=[inner, tf.layers.simple_rnn(units=units, return_sequences=True, weights=w)])
    assert_tensor(outer.predict(xt), ref, **TOL)
    tf.dispose([xt, alone])
    for m in (seq, func, outer):
        m.dispose()


def test_embedding_mask_zero_then_lstm(rng):
    units, vocab, dim = 3, 6, 2
    ids = np.array([[3, 1, 4, 0, 0], [0, 0, 2, 5, 1], [1, 0, 1, 5, 2]], np.int32)
    table = _f32(rng, vocab, dim)
    w = _weights(rng, dim, units, 4)
    ref, ref_states = _np_masked_rnn(_np_lstm, 2, table[ids], ids != 0, w, units)
    model = tf.sequential(layers=[
        tf.layers.embedding(input_dim=vocab, output_dim=dim, mask_zero=True, input_length=5, weights=[table]),
        tf.layers.lstm(units=units, return_sequences=True, weights=w),
        tf.layers.time_distributed(layer=tf.layers.dense(units=1)),    # passes the mask through
        ])
    seq_model = tf.model(inputs=model.inputs, outputs=model.layers[1].output)
    it = tf.tensor(ids, dtype="int32")
    assert_tensor(seq_model.predict(it), ref, **TOL)
    _, masks = model._run([it], with_masks=True)
    assert_tensor(masks[0], ids != 0)
    # an unpadded sequence gives the padded one's last output
    last = tf.sequential(layers=[
        tf.layers.embedding(input_dim=vocab, output_dim=dim, mask_zero=True, weights=[table], input_shape=[None]),
        tf.layers.lstm(units=units, weights=w)])
    short = tf.tensor([[3, 1, 4]], dtype="int32")
    np.testing.assert_allclose(last.predict(short).numpy(), last.predict(it).numpy()[:1], rtol=1e-5, atol=1e-6)
    tf.dispose([it, short, masks])
    model.dispose()
    last.dispose()


def test_masked_global_average_pooling_and_bidirectional(rng):
    ids = np.array([[2, 3, 0, 0], [1, 1, 1, 4]], np.int32)
    table = _f32(rng, 5, 3)
    model = tf.sequential(layers=[tf.layers.embedding(input_dim=5, output_dim=3, mask_zero=True, input_shape=[4],
                                                      weights=[table]),
                                  tf.layers.global_average_pooling1d()])
    it = tf.tensor(ids, dtype="int32")
    ref = np.stack([table[[2, 3]].mean(0), table[[1, 1, 1, 4]].mean(0)])
    assert_tensor(model.predict(it), ref, **TOL)
    # Bidirectional passes the mask to both directions
    w1, w2 = _weights(rng, 3, 2, 3), _weights(rng, 3, 2, 3)
    bi = tf.sequential(layers=[tf.layers.embedding(input_dim=5, output_dim=3, mask_zero=True, input_shape=[4],
                                                   weights=[table]),
                               tf.layers.bidirectional(layer=tf.layers.gru(units=2), merge_mode="concat")])
    bi.layers[1].set_weights(w1 + w2)
    f, _ = _np_masked_rnn(_np_gru, 1, table[ids], ids != 0, w1, 2)
    b, _ = _np_masked_rnn(_np_gru, 1, table[ids], ids != 0, w2, 2, go_backwards=True)
    assert_tensor(bi.predict(it), np.concatenate([f[:, -1], b[:, -1]], -1), **TOL)
    it.dispose()
    model.dispose()
    bi.dispose()


@pytest.mark.parametrize("name,gates", [("simple_rnn", 1), ("lstm", 4), ("gru", 3)])
def test_gradients_through_a_masked_rnn(name, gates, rng):
    units = 2
    layer = getattr(tf.layers, name)(units=units, return_sequences=True,
                                     **({} if name == "simple_rnn" else {"recurrent_activation": "sigmoid"}))
    mask = tf.tensor(MASK[:2, :4])
    x = _f32(rng, 2, 4, 2)
    layer.build((2, 4, 2))
    layer.set_weights(_weights(rng, 2, units, gates))
    assert_gradients_match_numeric(lambda t: layer.apply(t, mask=mask), x, tol=2e-2)
    # with respect to the weights too (sum(output * r) through tf.variable_grads, against differences)
    xt = tf.tensor(x)
    r = tf.tensor(_f32(rng, 2, 4, units))

    def loss():
        return tf.sum(tf.mul(layer.apply(xt, mask=mask), r))
    snapshot = [w.numpy() for w in layer.weights]
    _, grads = tf.variable_grads(loss, layer.trainable_weights)
    kernel = layer.trainable_weights[1]    # the recurrent kernel: the carried states matter most
    num = np.zeros_like(snapshot[1], dtype=np.float64)
    for idx in np.ndindex(snapshot[1].shape):
        vals = []
        for sign in (1, -1):
            v = snapshot[1].copy()
            v[idx] += sign * 1e-2
            layer.set_weights([snapshot[0], v, snapshot[2]])
            vals.append(float(tf.tidy(loss).numpy()))
        num[idx] = (vals[0] - vals[1]) / 2e-2
    layer.set_weights(snapshot)
    np.testing.assert_allclose(grads[kernel.name].numpy(), num, rtol=2e-2, atol=2e-2)
    tf.dispose([mask, xt, r, grads])
    layer.dispose()


def test_masked_model_learns_the_last_real_token():
    # sequences of 2..6 tokens in {1, 2}, zero-padded to 8: the label is the last real token. With the
    # mask the LSTM's last output is its state after that token; without it, padding would follow.
    rng = np.random.default_rng(0)
    n, steps = 96, 8
    ids = np.zeros((n, steps), np.int32)
    labels = np.zeros((n, 1), np.float32)
    for i in range(n):
        length = rng.integers(2, 7)
        ids[i, :length] = rng.integers(1, 3, size=length)
        labels[i, 0] = ids[i, length - 1] == 2
    model = tf.sequential(layers=[
        tf.layers.embedding(input_dim=3, output_dim=4, mask_zero=True, input_shape=[steps],
                            embeddings_initializer=tf.initializers.random_uniform(-0.5, 0.5, seed=1)),
        tf.layers.lstm(units=6, kernel_initializer=tf.initializers.glorot_normal(seed=2),
                       recurrent_initializer=tf.initializers.orthogonal(seed=3)),
        tf.layers.dense(units=1, activation="sigmoid", kernel_initializer=tf.initializers.glorot_uniform(seed=4))])
    model.compile(optimizer=tf.train.adam(0.05), loss="binaryCrossentropy", metrics=["accuracy"])
    xs, ys = tf.tensor(ids, dtype="int32"), tf.tensor(labels)
    history = model.fit_sync(xs, ys, epochs=25, batch_size=32, verbose=0)
    assert history.history["acc"][-1] >= 0.95, history.history["acc"]
    assert history.history["loss"][-1] < 0.2
    tf.dispose([xs, ys])
    model.dispose()


def test_masked_stateful_together(rng):
    # a stateful layer with a mask: the carried state is the one from the last unmasked step
    units, x = 2, _f32(rng, 3, 6, 2)
    mask = np.ones((3, 6), bool)
    mask[:, 2] = False
    mask[1, 5] = False
    w = _weights(rng, 2, units, 3)
    ref, ref_states = _np_masked_rnn(_np_gru, 1, x, mask, w, units)
    layer = tf.layers.gru(units=units, stateful=True, return_sequences=True, weights=w)
    outs = [layer.apply(tf.tensor(x[:, i:i + 3]), mask=tf.tensor(mask[:, i:i + 3])) for i in (0, 3)]
    assert_tensor(outs[0], ref[:, :3], **TOL)
    assert_tensor(outs[1], ref[:, 3:], **TOL)
    assert_tensor(layer.states[0], ref_states[0], **TOL)
    layer.dispose()


def test_stateful_bidirectional(rng):
    x = tf.tensor(_f32(rng, 2, 3, 2))
    bi = tf.layers.bidirectional(layer=tf.layers.gru(units=2, stateful=True), batch_input_shape=[2, 3, 2])
    model = tf.sequential(layers=[bi])
    assert model.stateful
    first = model.predict(x, batch_size=2).numpy()
    assert not np.allclose(model.predict(x, batch_size=2).numpy(), first)
    model.reset_states()
    np.testing.assert_allclose(model.predict(x, batch_size=2).numpy(), first, rtol=1e-6)
    before = _live()
    model.dispose()
    assert _live() == before - 6 - 2     # both directions' weights and states
    x.dispose()


def test_merge_compute_mask_called_directly_keeps_only_its_result():
    x, y = tf.ones([2, 4, 3]), tf.ones([2, 4, 2])
    masks = [tf.tensor([[True, False, True, True], [True, True, False, True]]), None]
    for layer in (tf.layers.concatenate(), tf.layers.add()):
        xs = [x, y] if layer.get_class_name() == "Concatenate" else [x, x]
        before = tf.memory().num_tensors
        mask = layer.compute_mask(xs, masks if layer.get_class_name() == "Concatenate" else [masks[0], masks[0]])
        assert tf.memory().num_tensors - before == 1
        np.testing.assert_array_equal(mask.numpy(), masks[0].numpy())
        mask.dispose()
    tf.dispose([x, y, masks[0]])
