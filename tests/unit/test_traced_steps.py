"""Layers models run their per-batch step through tf.function (layers/training.py): traced steps give
the eager results bitwise on cpu (losses, metrics, weights, optimizer state), random layers draw anew,
memory stays flat, and jit_compile=False / TRACE_STEPS off really stay eager.

Each case builds the same model twice from one seed (Python's `random` seeds the unseeded draws and
fit's shuffling) and trains it eagerly and traced."""
import asyncio
import random

import numpy as np
import pytest

import pytfweb as tf
import pytfweb.core.function as function_module

OPTIMIZERS = {
    "sgd": lambda: tf.train.sgd(0.1), "momentum": lambda: tf.train.momentum(0.1, 0.9, use_nesterov=True),
    "adagrad": lambda: tf.train.adagrad(0.1), "adadelta": lambda: tf.train.adadelta(0.5),
    "adam": lambda: tf.train.adam(0.05), "adamax": lambda: tf.train.adamax(0.05),
    "rmsprop": lambda: tf.train.rmsprop(0.05, centered=True, momentum=0.5),
}


def _data(seed, *shapes):
    rng = np.random.default_rng(seed)
    return [rng.normal(size=s).astype(np.float32) for s in shapes]


def _state(model):
    weights = [w.numpy() for w in model.weights]
    opt = [w["tensor"].numpy() for w in model.optimizer.get_weights()]
    return weights, opt, model.optimizer.iterations


def _assert_same(a, b):
    assert len(a) == len(b)
    for u, v in zip(a, b):
        if isinstance(u, (list, tuple)):
            _assert_same(u, v)
        elif isinstance(u, dict):
            assert u.keys() == v.keys()
            _assert_same([u[k] for k in sorted(u)], [v[k] for k in sorted(v)])
        else:
            np.testing.assert_array_equal(np.asarray(u), np.asarray(v))


def _both(run):
    """run(jit_compile) -> (results, model) eagerly, then traced, from the same seed; the results."""
    out = []
    for jit in (False, True):
        random.seed(7)
        results, model = run(jit)
        if jit:
            assert model.train_function is not None and model.train_function.breaks == []
        else:
            assert model.train_function is None and model.test_function is None and model.predict_function is None
        out.append(results)
        model.dispose()
    _assert_same(out[0], out[1])
    return out[1]


def _evaluated(model, x, y, **kwargs):
    r = model.evaluate(x, y, **kwargs)
    r = r if isinstance(r, list) else [r]
    values = [t.numpy() for t in r]
    tf.dispose(r)
    return values


def _predicted(model, x, **kwargs):
    p = model.predict(x, **kwargs)
    p = p if isinstance(p, list) else [p]
    values = [t.numpy() for t in p]
    tf.dispose(p)
    return values


@pytest.mark.parametrize("name", sorted(OPTIMIZERS))
def test_dense_model_fit_evaluate_predict_traced_equals_eager(name):
    x, y = _data(1, (26, 5), (26, 3))

    def run(jit):
        model = tf.sequential(layers=[tf.layers.dense(units=8, input_shape=[5], activation="relu",
                                                      kernel_regularizer=tf.regularizers.l2(0.01)),
                                      tf.layers.dense(units=3, activation="softmax")])
        model.compile(OPTIMIZERS[name](), "categoricalCrossentropy", ["accuracy", "mse"], jit_compile=jit)
        history = model.fit_sync(x, y, batch_size=8, epochs=3, verbose=0, validation_split=0.2)
        results = [history.history, _state(model), _evaluated(model, x, y, batch_size=7),
                   _predicted(model, x, batch_size=10), asyncio.run(model.train_on_batch(x, y)),
                   model.test_on_batch(x, y), model.predict_on_batch(x).numpy(), _state(model)]
        if jit:   # train: batches of 8 and 4 (20 samples), then 26; test: 6 (validation), 7 and 5, then 26
            assert model.train_function.trace_count == 3 and model.test_function.trace_count == 4
        return results, model
    results = _both(run)
    assert results[1][2] == 3 * 3 and results[-1][2] == 3 * 3 + 1   # optimizer.iterations advanced on replay


def test_convnet_with_batch_norm_and_dropout_traced_equals_eager():
    x, = _data(2, (12, 6, 6, 2))
    labels = np.arange(12) % 3

    def run(jit):
        model = tf.sequential(layers=[
            tf.layers.conv2d(filters=4, kernel_size=3, input_shape=[6, 6, 2], padding="same"),
            tf.layers.batch_normalization(), tf.layers.activation(activation="relu"),
            tf.layers.dropout(rate=0.3), tf.layers.gaussian_noise(stddev=0.1),
            tf.layers.max_pooling2d(pool_size=2), tf.layers.flatten(), tf.layers.dense(units=3)])
        model.compile("adam", "sparseCategoricalCrossentropy", ["accuracy"], jit_compile=jit)
        # predict-time fusion folds the batch normalization into the conv (cached: the second shape's
        # trace finds the fold of the first)
        before = _predicted(model, x) + _predicted(model, x, batch_size=5)
        history = model.fit_sync(x, labels.reshape(-1, 1).astype(np.float32), batch_size=4, epochs=4, verbose=0)
        # moving statistics and weights moved: predict must fold the new ones
        return [before, history.history, _state(model), _predicted(model, x),
                _predicted(model, x, batch_size=5)], model
    results = _both(run)
    assert not np.array_equal(results[0][0], results[3][0])


def test_nested_model_traced_equals_eager():
    # a base model as a layer (transfer learning), its conv -> batch normalization chain inside
    x, = _data(12, (6, 5, 5, 2))
    y = np.eye(2, dtype=np.float32)[np.arange(6) % 2]

    def run(jit):
        base = tf.sequential(layers=[tf.layers.conv2d(filters=3, kernel_size=3, input_shape=[5, 5, 2]),
                                     tf.layers.batch_normalization(), tf.layers.re_lu()])
        model = tf.sequential(layers=[base, tf.layers.flatten(), tf.layers.dense(units=2, activation="softmax")])
        model.compile("adam", "categoricalCrossentropy", jit_compile=jit)
        before = _predicted(model, x) + _predicted(model, x, batch_size=4)
        history = model.fit_sync(x, y, batch_size=3, epochs=3, verbose=0)
        return [before, history.history, _state(model), _predicted(model, x), _predicted(model, x, batch_size=4)], model
    results = _both(run)
    assert not np.array_equal(results[0][1], results[4][0])


def test_rnn_and_stateful_rnn_traced_equal_eager():
    x, y = _data(3, (8, 5, 3), (8, 2))

    def run(jit):
        model = tf.sequential(layers=[tf.layers.lstm(units=4, input_shape=[5, 3], return_sequences=True,
                                                     recurrent_dropout=0.0, dropout=0.2),
                                      tf.layers.gru(units=3), tf.layers.dense(units=2)])
        model.compile("rmsprop", "meanSquaredError", jit_compile=jit)
        history = model.fit_sync(x, y, batch_size=3, epochs=3, verbose=0)
        stateful = tf.sequential(layers=[tf.layers.simple_rnn(units=3, stateful=True, batch_input_shape=[2, 5, 3]),
                                         tf.layers.dense(units=2)])
        stateful.compile("sgd", "meanSquaredError", jit_compile=jit)
        sh = stateful.fit_sync(x, y, batch_size=2, epochs=2, verbose=0, shuffle=False)
        states = [s.numpy() for s in stateful.layers[0].states]
        preds = [_predicted(stateful, x, batch_size=2) for _ in range(2)]   # the states carry on
        out = [history.history, _state(model), _predicted(model, x), sh.history, _state(stateful), states, preds]
        stateful.dispose()
        return out, model
    results = _both(run)
    assert not np.array_equal(results[-1][0], results[-1][1])


def test_multi_output_model_with_weights_and_validation_traced_equals_eager():
    x, y1, y2, w = _data(4, (20, 4), (20, 2), (20, 1), (20,))
    y1 = (y1 > 0).astype(np.float32)
    w = np.abs(w)

    def run(jit):
        inp = tf.input(shape=[4])
        hidden = tf.layers.dense(units=6, activation="tanh").apply(inp)
        a = tf.layers.dense(units=2, activation="sigmoid", name="a").apply(hidden)
        b = tf.layers.dense(units=1, name="b").apply(hidden)
        model = tf.model(inputs=inp, outputs=[a, b])
        model.compile("adam", {"a": "binaryCrossentropy", "b": "meanSquaredError"},
                      {"a": ["accuracy"], "b": ["mae"]}, jit_compile=jit)
        seen = []

        class Logs(tf.callbacks.Callback):
            def on_batch_end(self, batch, logs=None):
                seen.append(dict(logs))
        history = model.fit_sync(x, [y1, y2], batch_size=6, epochs=3, verbose=0, sample_weight=[w, None],
                                 class_weight=[{0: 1.0, 1: 2.0}, None], validation_data=(x, [y1, y2], [None, w]),
                                 callbacks=[Logs()])
        return [history.history, seen, _state(model), _evaluated(model, x, [y1, y2], sample_weight=[w, w]),
                _predicted(model, x)], model
    _both(run)


def test_dropout_draws_anew_at_every_replayed_step():
    x, y = _data(5, (16, 4), (16, 1))
    model = tf.sequential(layers=[tf.layers.dropout(rate=0.5, input_shape=[4]), tf.layers.dense(units=1)])
    model.compile(tf.train.sgd(0.0), "meanSquaredError")   # the weights never move: only the draws differ
    losses = [asyncio.run(model.train_on_batch(x, y)) for _ in range(4)]
    assert len(set(losses)) == 4
    assert model.train_function.trace_count == 1
    model.dispose()


def test_memory_is_flat_over_many_traced_steps():
    x, y = _data(6, (8, 5), (8, 2))
    model = tf.sequential(layers=[tf.layers.dense(units=6, input_shape=[5], activation="relu"),
                                  tf.layers.batch_normalization(), tf.layers.dropout(rate=0.2),
                                  tf.layers.dense(units=2)])
    model.compile("adam", "meanSquaredError", ["mae"])
    xt, yt = tf.tensor(x), tf.tensor(y)
    asyncio.run(model.train_on_batch(xt, yt))
    model.test_on_batch(xt, yt)
    model.predict_on_batch(xt).dispose()
    before = tf.memory()
    for _ in range(300):
        asyncio.run(model.train_on_batch(xt, yt))
        model.test_on_batch(xt, yt)
        model.predict_on_batch(xt).dispose()
    after = tf.memory()
    assert (after.num_tensors, after.num_bytes) == (before.num_tensors, before.num_bytes)
    assert [f.trace_count for f in (model.train_function, model.test_function, model.predict_function)] == [1, 1, 1]
    assert model.optimizer.iterations == 301
    tf.dispose([xt, yt])
    model.dispose()
    assert (tf.memory().num_tensors, tf.memory().num_bytes) == (0, 0)   # the plans went with the model


def test_eager_when_asked():
    x, y = _data(7, (6, 3), (6, 1))
    model = tf.sequential(layers=[tf.layers.dense(units=1, input_shape=[3])])
    model.compile("sgd", "meanSquaredError", jit_compile=False)
    model.fit_sync(x, y, epochs=2, verbose=0)
    model.evaluate(x, y).dispose()
    model.predict(x).dispose()
    assert model.train_function is model.test_function is model.predict_function is None
    with pytest.raises(TypeError, match="jit_compile"):
        model.compile("sgd", "meanSquaredError", jit_compile="yes")
    model.compile("sgd", "meanSquaredError")
    tf.env().set("TRACE_STEPS", False)
    model.fit_sync(x, y, epochs=2, verbose=0)
    assert model.train_function is None
    tf.env().set("TRACE_STEPS", True)
    model.fit_sync(x, y, epochs=2, verbose=0)
    first = model.train_function
    assert first.trace_count == 1
    model.compile("adam", "meanSquaredError")   # a new compile: new steps
    assert model.train_function is None and first.plans == {}
    model.dispose()


def test_retraced_when_python_state_it_reads_changes():
    x, y = _data(8, (10, 3), (10, 1))

    def run(jit):
        model = tf.sequential(layers=[tf.layers.dense(units=4, input_shape=[3], name="first"),
                                      tf.layers.dense(units=1)])
        model.compile(tf.train.sgd(0.1), "meanSquaredError", jit_compile=jit)

        class Decay(tf.callbacks.Callback):
            def on_epoch_end(self, epoch, logs=None):
                self.model.optimizer.learning_rate *= 0.5
        h1 = model.fit_sync(x, y, batch_size=5, epochs=3, verbose=0, callbacks=[Decay()])
        model.get_layer("first").trainable = False
        frozen = model.get_layer("first").get_weights()[0].numpy()
        h2 = model.fit_sync(x, y, batch_size=5, epochs=2, verbose=0)
        assert np.array_equal(frozen, model.get_layer("first").get_weights()[0].numpy())
        if jit:   # a learning rate per epoch, then the frozen layer
            assert model.train_function.trace_count == 4
        return [h1.history, h2.history, _state(model)], model
    _both(run)


def test_a_step_that_breaks_or_cannot_trace_runs_eagerly_and_leaks_nothing():
    x, y = _data(9, (12, 3), (12, 1))

    def reading_mae(y_true, y_pred):   # reads values inside the step: a split that a replay checks
        float(tf.mean(y_pred).data_sync()[0])
        return tf.metrics.mean_absolute_error(y_true, y_pred)

    def run(jit):
        model = tf.sequential(layers=[tf.layers.dense(units=2, input_shape=[3]), tf.layers.dense(units=1)])
        model.compile("adam", "meanSquaredError", [reading_mae], jit_compile=jit)
        h = model.fit_sync(x, y, batch_size=4, epochs=2, verbose=0)
        xt, yt = tf.tensor(x), tf.tensor(y)
        # the trace, the variants traced for reads that differed, and the calls that matched none of
        # them: then the plans (and the constants they held) are gone, and the signature runs eagerly
        warm = function_module.MAX_VARIANTS + function_module.MAX_DIVERGENCES
        losses = [asyncio.run(model.train_on_batch(xt, yt)) for _ in range(warm)]
        before = tf.memory()
        losses += [asyncio.run(model.train_on_batch(xt, yt)) for _ in range(3)]
        assert (tf.memory().num_tensors, tf.memory().num_bytes) == (before.num_tensors, before.num_bytes)
        tf.dispose([xt, yt])
        if jit:
            breaks = model.train_function.breaks
            assert breaks and all("read of float32[]" in reason for _, reason in breaks)
            assert "float32[12, 3]" in breaks[-1][0] and "matched none" in breaks[-1][1]
            assert list(model.train_function.plans.values())[-1] is None
            model.train_function.breaks.clear()   # (_both checks the steps that do not read)
        return [h.history, losses, _state(model)], model
    _both(run)
    tf.env().set("TRACE_FUNCTIONS", False)   # no tracing at all: the model's steps too
    model = tf.sequential(layers=[tf.layers.dense(units=1, input_shape=[3])])
    model.compile("sgd", "meanSquaredError")
    xt, yt = tf.tensor(x), tf.tensor(y)
    before = tf.memory()
    for _ in range(3):
        asyncio.run(model.train_on_batch(xt, yt))
        model.predict_on_batch(xt).dispose()
    assert (tf.memory().num_tensors, tf.memory().num_bytes) == (before.num_tensors, before.num_bytes)
    assert model.train_function.trace_count == 0 and model.optimizer.iterations == 3
    tf.dispose([xt, yt])
    model.dispose()


@pytest.mark.parametrize("name", ["adam", "rmsprop", "adamax"])
def test_optimizer_set_weights_between_traced_steps(name):
    """Train, save the weights and the optimizer's; train on -> R1. Restore both (set_weights gives the
    optimizer new slot variables) and train the same steps again -> R1, bitwise, traced as eager."""
    x, y = _data(10, (12, 3), (12, 2))

    def run(jit):
        model = tf.sequential(layers=[tf.layers.dense(units=4, input_shape=[3], activation="tanh"),
                                      tf.layers.dense(units=2)])
        model.compile(OPTIMIZERS[name](), "meanSquaredError", jit_compile=jit)
        model.fit_sync(x, y, batch_size=4, epochs=2, verbose=0, shuffle=False)
        saved_weights = [w.numpy() for w in model.weights]
        saved = [{"name": w["name"], "tensor": w["tensor"].clone()} for w in model.optimizer.get_weights()]
        first = model.fit_sync(x, y, batch_size=4, epochs=2, verbose=0, shuffle=False).history
        r1 = _state(model)
        model.set_weights([tf.tensor(w) for w in saved_weights])
        model.optimizer.set_weights(saved)
        assert model.optimizer.iterations == 6
        second = model.fit_sync(x, y, batch_size=4, epochs=2, verbose=0, shuffle=False).history
        assert second == first
        _assert_same(_state(model), r1)
        if jit:   # the new slot variables: one more trace
            assert model.train_function.trace_count == 2
        tf.dispose([w["tensor"] for w in saved])
        return [first, r1], model
    _both(run)


def test_traced_predict_takes_the_folded_weights_as_inputs():
    # conv -> batch normalization -> relu runs as one fused convolution at predict time; its folded
    # kernel and bias enter the traced step as inputs, so the plan holds the fused convolution and
    # nothing of the fold (the Mul, Rsqrt, ... that fold it), and a replay folds nothing again
    model = tf.sequential(layers=[
        tf.layers.conv2d(filters=4, kernel_size=3, input_shape=[6, 6, 2]),
        tf.layers.batch_normalization(), tf.layers.activation(activation="relu")])
    x = tf.tensor(np.random.default_rng(3).standard_normal((2, 6, 6, 2)).astype(np.float32))
    try:
        first = model.predict(x)
        again = model.predict(x)
        np.testing.assert_array_equal(again.numpy(), first.numpy())
        plans = [p for p in model.predict_function.plans.values() if p is not None]
        assert len(plans) == 1
        kernels = [s.name for s in plans[0].steps if hasattr(s, "fn") and hasattr(s, "attrs")]
        assert kernels == ["FusedConv2D"], kernels
        tf.dispose([first, again])
    finally:
        x.dispose()
        model.dispose()
