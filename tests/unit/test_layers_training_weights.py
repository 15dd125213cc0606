"""Masked losses, sample weights and class weights in fit / evaluate / train_on_batch /
test_on_batch, against hand computations with numpy (tf.keras semantics: a loss is
sum(loss * weight) / entries, or / unmasked entries under a mask; a metric is the weighted mean
sum(value * weight * mask) / sum(weight * mask))."""
import asyncio

import numpy as np
import pytest

import pytfweb as tf
from tests.unit.helpers import assert_no_leak, assert_raises

T = 5


def _ids(rng, n):
    """Token ids with zero padding at the end of each row (row k keeps at least one token)."""
    ids = rng.integers(1, 6, size=(n, T)).astype(np.int32)
    for k in range(n):
        ids[k, rng.integers(1, T + 1):] = 0
    return ids


def _masked_model(metrics=("mae",), loss="mse"):
    model = tf.sequential(layers=[
        tf.layers.embedding(input_dim=6, output_dim=3, mask_zero=True, input_shape=[T],
                            embeddings_initializer=tf.initializers.random_uniform(-1, 1, seed=1)),
        tf.layers.simple_rnn(units=4, return_sequences=True, kernel_initializer=tf.initializers.glorot_normal(seed=2),
                             recurrent_initializer=tf.initializers.glorot_normal(seed=3)),
        tf.layers.dense(units=2, kernel_initializer=tf.initializers.glorot_normal(seed=4))])
    model.compile(optimizer=tf.train.sgd(0.1), loss=loss, metrics=list(metrics))
    return model


def _dense_model(metrics=("mse",), units=1, activation=None, loss="mse"):
    model = tf.sequential(layers=[tf.layers.dense(units=units, input_shape=[3], activation=activation,
                                                  kernel_initializer=tf.initializers.glorot_normal(seed=5))])
    model.compile(optimizer=tf.train.sgd(0.1), loss=loss, metrics=list(metrics))
    return model


def _predict(model, x):
    out = model.predict(tf.tensor(x) if not isinstance(x, tf.Tensor) else x)
    try:
        return out.numpy().astype(np.float64)
    finally:
        out.dispose()


def _floats(values):
    values = values if isinstance(values, list) else [values]
    out = [float(v.numpy()) if isinstance(v, tf.Tensor) else float(v) for v in values]
    tf.dispose([v for v in values if isinstance(v, tf.Tensor)])
    return out


# --- masks ----------------------------------------------------------------------------------------------------
def test_masked_loss_and_metric_equal_a_hand_computation(rng):
    n = 6
    ids = _ids(rng, n)
    y = rng.normal(size=(n, T, 2)).astype(np.float32)
    mask = ids != 0
    model = _masked_model()
    p = _predict(model, ids)
    se, ae = ((p - y) ** 2).mean(-1), np.abs(p - y).mean(-1)
    loss = (se * mask).sum() / mask.sum()
    mae = (ae * mask).sum() / mask.sum()
    assert not np.isclose(loss, se.mean(), rtol=1e-3)   # the mask matters here
    np.testing.assert_allclose(_floats(model.evaluate(ids, y, batch_size=n)), [loss, mae], rtol=1e-5)
    np.testing.assert_allclose(model.test_on_batch(ids, y), [loss, mae], rtol=1e-5)
    # in batches of 4 and 2: the loss is the batch-size weighted mean of the batches' masked means,
    # the metric one weighted mean over every unmasked step (Keras's Mean metric)
    b1, b2 = slice(0, 4), slice(4, 6)
    batch_loss = [(se[b] * mask[b]).sum() / mask[b].sum() for b in (b1, b2)]
    np.testing.assert_allclose(_floats(model.evaluate(ids, y, batch_size=4)),
                               [(4 * batch_loss[0] + 2 * batch_loss[1]) / 6, mae], rtol=1e-5)
    # train_on_batch reports the loss before its update; so does fit's first single-batch epoch
    before = [w.numpy() for w in model.weights]
    np.testing.assert_allclose(asyncio.run(model.train_on_batch(ids, y)), [loss, mae], rtol=1e-5)
    model.set_weights(before)
    history = model.fit_sync(ids, y, batch_size=n, epochs=2, shuffle=False, verbose=0)
    np.testing.assert_allclose([history.history["loss"][0], history.history["mae"][0]], [loss, mae], rtol=1e-5)
    assert history.history["loss"][1] < history.history["loss"][0]
    model.dispose()


def test_masked_steps_get_no_gradient(rng):
    """Targets at masked steps change nothing: not the loss, not the trained weights."""
    n = 4
    ids = _ids(rng, n)
    ids[:, -1] = 0
    y = rng.normal(size=(n, T, 2)).astype(np.float32)
    garbage = y.copy()
    garbage[ids == 0] = 1e3
    results = []
    for target in (y, garbage):
        model = _masked_model(metrics=())
        loss = asyncio.run(model.train_on_batch(ids, target))
        model.fit_sync(ids, target, batch_size=2, epochs=2, shuffle=False, verbose=0)
        results.append((loss, [w.numpy() for w in model.weights]))
        model.dispose()
    assert results[0][0] == pytest.approx(results[1][0], rel=1e-6)
    for a, b in zip(results[0][1], results[1][1]):
        np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-7)


def test_masking_layer_functional_model_and_sparse_accuracy(rng):
    """Masking in a functional model, sparse categorical crossentropy with a sequence of labels
    and its accuracy: both averaged over the unmasked steps."""
    n, classes = 5, 3
    x = rng.normal(size=(n, T, 2)).astype(np.float32)
    x[0, 3:] = 0
    x[2, 1:] = 0
    x[4, 2:4] = 0   # a gap inside a sequence
    labels = rng.integers(0, classes, size=(n, T, 1)).astype(np.float32)
    inp = tf.input(shape=[T, 2])
    h = tf.layers.masking(mask_value=0).apply(inp)
    h = tf.layers.lstm(units=4, return_sequences=True, kernel_initializer=tf.initializers.glorot_normal(seed=1),
                       recurrent_initializer=tf.initializers.glorot_normal(seed=2)).apply(h)
    out = tf.layers.dense(units=classes, activation="softmax",
                          kernel_initializer=tf.initializers.glorot_normal(seed=3)).apply(h)
    model = tf.model(inputs=inp, outputs=out)
    model.compile(optimizer="adam", loss="sparseCategoricalCrossentropy", metrics=["accuracy"])
    p = _predict(model, x)
    mask = np.any(x != 0, -1)
    lab = labels[..., 0].astype(int)
    ce = -np.log(np.clip(np.take_along_axis(p / p.sum(-1, keepdims=True), lab[..., None], -1)[..., 0],
                         1e-7, 1 - 1e-7))
    acc = (p.argmax(-1) == lab).astype(float)
    want = [(ce * mask).sum() / mask.sum(), (acc * mask).sum() / mask.sum()]
    np.testing.assert_allclose(_floats(model.evaluate(x, labels)), want, rtol=1e-5)
    np.testing.assert_allclose(model.test_on_batch(x, labels), want, rtol=1e-5)
    model.dispose()


def test_all_masked_batch_gives_zero_not_nan(rng):
    model = _masked_model()
    ids = np.zeros((2, T), np.int32)
    y = rng.normal(size=(2, T, 2)).astype(np.float32)
    assert model.test_on_batch(ids, y) == [0.0, 0.0]
    weights = [w.numpy() for w in model.weights]
    asyncio.run(model.train_on_batch(ids, y))
    for a, w in zip(weights, model.weights):
        np.testing.assert_array_equal(a, w.numpy())
    model.dispose()


# --- sample weights -------------------------------------------------------------------------------------------
def test_sample_weight_equals_a_hand_weighted_loss(rng):
    n = 6
    x = rng.normal(size=(n, 3)).astype(np.float32)
    y = rng.normal(size=(n, 1)).astype(np.float32)
    sw = rng.uniform(0, 2, size=n).astype(np.float32)
    model = _dense_model(metrics=("mse", "mae"))
    p = _predict(model, x)
    se, ae = ((p - y) ** 2)[:, 0], np.abs(p - y)[:, 0]
    # Keras: the loss is scaled by the weights (divided by the number of samples), a metric is
    # the weighted mean (divided by the sum of the weights)
    want = [(se * sw).mean(), (se * sw).sum() / sw.sum(), (ae * sw).sum() / sw.sum()]
    np.testing.assert_allclose(_floats(model.evaluate(x, y, sample_weight=sw, batch_size=n)), want, rtol=1e-5)
    np.testing.assert_allclose(model.test_on_batch(x, y, sample_weight=sw), want, rtol=1e-5)
    # batches of 4 and 2: losses averaged by batch size, metrics one weighted mean
    loss = (4 * (se[:4] * sw[:4]).mean() + 2 * (se[4:] * sw[4:]).mean()) / 6
    np.testing.assert_allclose(_floats(model.evaluate(x, y, sample_weight=sw, batch_size=4)),
                               [loss] + want[1:], rtol=1e-5)
    # a tensor, a list and an int array are all fine; weights of 1 change nothing
    np.testing.assert_allclose(model.test_on_batch(x, y, sample_weight=tf.tensor(sw)), want, rtol=1e-5)
    ones = model.test_on_batch(x, y, sample_weight=[1] * n)
    np.testing.assert_allclose(ones, model.test_on_batch(x, y), rtol=1e-6)
    before = [w.numpy() for w in model.weights]
    np.testing.assert_allclose(asyncio.run(model.train_on_batch(x, y, sample_weight=sw)), want, rtol=1e-5)
    model.set_weights(before)
    history = model.fit_sync(x, y, sample_weight=sw, batch_size=n, shuffle=False, verbose=0)
    np.testing.assert_allclose([history.history[k][0] for k in ("loss", "mse", "mae")], want, rtol=1e-5)
    # the gradient is the weighted loss's: one SGD step by hand
    model.set_weights(before)
    asyncio.run(model.train_on_batch(x, y, sample_weight=sw))
    kernel, bias = before
    g = 2 * sw[:, None] * (p - y) / n
    np.testing.assert_allclose(model.weights[0].numpy(), kernel - 0.1 * x.T @ g, rtol=1e-4, atol=1e-6)
    np.testing.assert_allclose(model.weights[1].numpy(), bias - 0.1 * g.sum(0), rtol=1e-4, atol=1e-6)
    model.dispose()


def test_zero_weights_ignore_samples(rng):
    n = 8
    x = rng.normal(size=(n, 3)).astype(np.float32)
    y = rng.normal(size=(n, 1)).astype(np.float32)
    sw = np.array([1, 0, 1, 1, 0, 1, 0, 1], np.float32)
    other = y.copy()
    other[sw == 0] = 1e4
    model_a, model_b = _dense_model(), _dense_model()
    ha = model_a.fit_sync(x, y, sample_weight=sw, batch_size=3, epochs=3, shuffle=False, verbose=0)
    hb = model_b.fit_sync(x, other, sample_weight=sw, batch_size=3, epochs=3, shuffle=False, verbose=0)
    for a, b in zip(model_a.weights, model_b.weights):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(ha.history["loss"], hb.history["loss"], rtol=1e-6)
    np.testing.assert_allclose(ha.history["mse"], hb.history["mse"], rtol=1e-6)
    # the metric over the kept samples equals an unweighted evaluation on them alone
    keep = sw == 1
    mse = _floats(model_a.evaluate(x[keep], y[keep]))[1]
    assert _floats(model_a.evaluate(x, other, sample_weight=sw))[1] == pytest.approx(mse, rel=1e-5)
    model_a.dispose()
    model_b.dispose()


def test_temporal_sample_weights_with_a_mask(rng):
    n = 4
    ids = _ids(rng, n)
    y = rng.normal(size=(n, T, 2)).astype(np.float32)
    mask = ids != 0
    model = _masked_model()
    p = _predict(model, ids)
    se, ae = ((p - y) ** 2).mean(-1), np.abs(p - y).mean(-1)
    for sw in (rng.uniform(0, 2, size=(n, T)).astype(np.float32), rng.uniform(0, 2, size=n).astype(np.float32)):
        w = sw if sw.ndim == 2 else np.repeat(sw[:, None], T, 1)
        want = [(se * w * mask).sum() / mask.sum(), (ae * w * mask).sum() / (w * mask).sum()]
        np.testing.assert_allclose(model.test_on_batch(ids, y, sample_weight=sw), want, rtol=1e-5)
        np.testing.assert_allclose(_floats(model.evaluate(ids, y, sample_weight=sw)), want, rtol=1e-5)
    model.dispose()


def test_class_weight_multiplies_sample_weight(rng):
    n = 6
    x = rng.normal(size=(n, 3)).astype(np.float32)
    classes = np.array([0, 1, 2, 1, 0, 2])
    y = np.eye(3, dtype=np.float32)[classes]
    sw = rng.uniform(0.5, 2, size=n).astype(np.float32)
    cw = {0: 1.0, 1: 3.0, 2: 0.5}
    model = _dense_model(metrics=("categoricalCrossentropy",), units=3, activation="softmax",
                         loss="categoricalCrossentropy")
    p = _predict(model, x)
    ce = -np.log(np.clip((p / p.sum(-1, keepdims=True))[np.arange(n), classes], 1e-7, 1 - 1e-7))
    w = sw * np.array([cw[c] for c in classes])
    want = [(ce * w).mean(), (ce * w).sum() / w.sum()]
    np.testing.assert_allclose(asyncio.run(model.train_on_batch(x, y, sample_weight=sw, class_weight=cw)), want,
                               rtol=1e-5)
    model.dispose()
    model = _dense_model(metrics=("categoricalCrossentropy",), units=3, activation="softmax",
                         loss="categoricalCrossentropy")
    h = model.fit_sync(x, y, sample_weight=sw, class_weight={"0": 1, "1": 3, "2": 0.5}, batch_size=n,
                       shuffle=False, verbose=0)
    np.testing.assert_allclose([h.history["loss"][0], h.history["categoricalCrossentropy"][0]], want, rtol=1e-5)
    model.dispose()


def test_validation_data_with_sample_weights_and_validation_split(rng):
    n = 8
    x = rng.normal(size=(n, 3)).astype(np.float32)
    y = rng.normal(size=(n, 1)).astype(np.float32)
    sw = rng.uniform(0, 2, size=n).astype(np.float32)
    model = _dense_model()
    model.compile(optimizer=tf.train.sgd(0.0), loss="mse", metrics=["mse"])   # no updates: fixed predictions
    se = ((_predict(model, x) - y) ** 2)[:, 0]
    h = model.fit_sync(x[:4], y[:4], validation_data=(x[4:], y[4:], sw[4:]), verbose=0)
    np.testing.assert_allclose([h.history["val_loss"][0], h.history["val_mse"][0]],
                               [(se[4:] * sw[4:]).mean(), (se[4:] * sw[4:]).sum() / sw[4:].sum()], rtol=1e-5)
    # validation_split splits the sample weights with the data; class weights stay with training
    h = model.fit_sync(x, y, sample_weight=sw, validation_split=0.25, batch_size=n, verbose=0, shuffle=False)
    np.testing.assert_allclose([h.history["loss"][0], h.history["val_loss"][0]],
                               [(se[:6] * sw[:6]).mean(), (se[6:] * sw[6:]).mean()], rtol=1e-5)
    model.dispose()


def test_several_outputs_take_weights_per_output(rng):
    n = 4
    x = rng.normal(size=(n, 3)).astype(np.float32)
    ya, yb = rng.normal(size=(n, 1)).astype(np.float32), rng.normal(size=(n, 2)).astype(np.float32)
    inp = tf.input(shape=[3])
    model = tf.model(inputs=inp, outputs=[tf.layers.dense(units=1, name="a").apply(inp),
                                          tf.layers.dense(units=2, name="b").apply(inp)])
    model.compile(optimizer="sgd", loss="mse")
    pa, pb = (o.numpy() for o in model.predict(tf.tensor(x)))
    la, lb = ((pa - ya) ** 2).mean(-1), ((pb - yb) ** 2).mean(-1)
    wa, wb = rng.uniform(0, 2, size=n).astype(np.float32), rng.uniform(0, 2, size=n).astype(np.float32)
    for spec, (ea, eb) in (({"a": wa}, (la * wa, lb)), ([None, wb], (la, lb * wb)), ({"a": wa, "b": wb},
                           (la * wa, lb * wb)), (wa, (la * wa, lb * wa))):
        got = model.test_on_batch(x, [ya, yb], sample_weight=spec)
        np.testing.assert_allclose(got, [ea.mean() + eb.mean(), ea.mean(), eb.mean()], rtol=1e-5)
    assert_raises(ValueError, lambda: model.test_on_batch(x, [ya, yb], sample_weight=[wa]), "2 outputs", "list")
    assert_raises(ValueError, lambda: model.fit_sync(x, [ya, yb], class_weight={0: 1.0, 1: 2.0}, verbose=0),
                  "class_weight", "2 outputs")
    model.dispose()


# --- errors and memory ----------------------------------------------------------------------------------------
def test_weight_errors_are_clear_and_leak_nothing(rng):
    x = rng.normal(size=(4, 3)).astype(np.float32)
    y = rng.normal(size=(4, 1)).astype(np.float32)
    model = _dense_model()
    sw3 = np.ones(3, np.float32)
    assert_raises(ValueError, lambda: model.fit_sync(x, y, sample_weight=sw3, verbose=0), "sample_weight", "3",
                  "4 samples")
    assert_raises(ValueError, lambda: model.evaluate(x, y, sample_weight=np.ones((4, 2), np.float32)),
                  "evaluate", "sample_weight", "[samples]", "[4,2]")
    assert_raises(ValueError, lambda: model.test_on_batch(x, y, sample_weight=np.float32(2)), "test_on_batch",
                  "sample_weight", "[]")
    assert_raises(ValueError, lambda: asyncio.run(model.train_on_batch(x, y, sample_weight=sw3)), "train_on_batch",
                  "sample_weight")
    assert_raises(ValueError, lambda: model.fit_sync(x, y, validation_data=(x, y, sw3), verbose=0),
                  "validation_data", "sample_weight")
    assert_raises(ValueError, lambda: model.fit_sync(x, y, validation_data=(x, y, sw3, sw3), verbose=0),
                  "validation_data", "triple")
    strings = tf.tensor(["a"] * 4)
    assert_raises(TypeError, lambda: model.fit_sync(x, y, sample_weight=strings, verbose=0), "sample_weight",
                  "string")
    strings.dispose()
    assert_raises(ValueError, lambda: model.fit_sync(x, y, class_weight={"zero": 1.0}, verbose=0), "class_weight",
                  "'zero'")
    assert_raises(ValueError, lambda: model.fit_sync(x, y, sample_weight={"nope": sw3}, verbose=0), "sample_weight",
                  "unknown output", "nope")
    # by output name is fine
    name = model.output_names[0]
    assert model.test_on_batch(x, y, sample_weight={name: np.ones(4)}) == pytest.approx(model.test_on_batch(x, y))
    assert_raises(TypeError, lambda: model.fit_sync(x, y, class_weight={0: "high"}, verbose=0), "class_weight")
    # a sequence model: weights per timestep must match the targets' time axis
    seq = _masked_model()
    ids = _ids(rng, 2)
    ys = np.zeros((2, T, 2), np.float32)
    assert_raises(ValueError, lambda: seq.evaluate(ids, ys, sample_weight=np.ones((2, T + 1), np.float32)),
                  "sample_weight", f"[2,{T + 1}]", f"[2,{T},2]")
    assert_raises(ValueError, lambda: seq.evaluate(ids, ys, sample_weight=np.ones((2, T, 2), np.float32)),
                  "sample_weight", "rank 2")
    # a loss reduced over time cannot take a per-timestep mask
    seq.compile(optimizer="sgd", loss=lambda yt, yp: tf.mean(tf.square(tf.sub(yt, yp)), [1, 2]))
    assert_raises(ValueError, lambda: seq.test_on_batch(ids, ys), "mask", f"[2,{T}]", "[2]")
    model.dispose()
    seq.dispose()


def test_no_leaks_with_masks_and_weights(rng):
    n = 6
    ids = _ids(rng, n)
    y = rng.normal(size=(n, T, 2)).astype(np.float32)
    sw = rng.uniform(0, 1, size=(n, T)).astype(np.float32)
    model = _masked_model(metrics=("mae", "mse"))
    ids_t, y_t, sw_t = tf.tensor(ids), tf.tensor(y), tf.tensor(sw)
    model.fit_sync(ids_t, y_t, sample_weight=sw_t, epochs=1, batch_size=4, verbose=0)   # optimizer slots
    counts = []

    class Count(tf.callbacks.Callback):
        def on_batch_end(self, batch, logs=None):   # per-batch logs: the read-per-batch path too
            assert set(logs) >= {"loss", "mae", "mse"}

        def on_epoch_end(self, epoch, logs=None):
            counts.append(tf.memory().num_tensors)
    before = tf.memory().num_tensors
    model.fit_sync(ids_t, y_t, sample_weight=sw_t, epochs=3, batch_size=4, verbose=0, callbacks=[Count()],
                   validation_data=(ids_t, y_t, sw_t))
    assert len(set(counts)) == 1 and tf.memory().num_tensors == before
    model.fit_sync(ids, y, sample_weight=sw, epochs=1, batch_size=4, validation_split=0.5, verbose=0)
    assert tf.memory().num_tensors == before
    # (each a first time: a traced step's first call with a batch shape records a plan the model keeps)
    for call in [lambda: tf.dispose(model.evaluate(ids_t, y_t, sample_weight=sw_t, batch_size=4)),
                 lambda: model.test_on_batch(ids, y, sample_weight=sw),
                 lambda: asyncio.run(model.train_on_batch(ids_t, y_t, sample_weight=sw_t))]:
        call()
        assert_no_leak(call)
    tf.dispose([ids_t, y_t, sw_t])
    model.dispose()
