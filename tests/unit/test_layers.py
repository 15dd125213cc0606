"""tf.layers, tf.sequential / tf.model, compile / fit / evaluate / predict on the cpu backend."""
import asyncio

import numpy as np
import pytest

import pytfweb as tf
from tests.unit.helpers import assert_no_leak, assert_raises, assert_tensor


def _apply(layer, x):
    t = tf.tensor(x)
    out = layer.apply(t)
    t.dispose()
    return out


# --- core layers against numpy, with fixed weights --------------------------------------------------
def test_dense_matches_numpy(rng):
    w, b = rng.normal(size=(3, 2)).astype(np.float32), rng.normal(size=2).astype(np.float32)
    x = rng.normal(size=(4, 3)).astype(np.float32)
    layer = tf.layers.dense(units=2, activation="relu", weights=[w, b])
    assert_tensor(_apply(layer, x), np.maximum(x @ w + b, 0), rtol=1e-5)
    x3 = rng.normal(size=(2, 5, 3)).astype(np.float32)   # rank 3: contracts the last axis
    assert_tensor(_apply(layer, x3), np.maximum(x3 @ w + b, 0), rtol=1e-5)


@pytest.mark.parametrize("name,ref", [
    ("relu", lambda x: np.maximum(x, 0)), ("sigmoid", lambda x: 1 / (1 + np.exp(-x))), ("tanh", np.tanh),
    ("linear", lambda x: x), ("softsign", lambda x: x / (1 + np.abs(x))), ("hardSigmoid",
     lambda x: np.clip(0.2 * x + 0.5, 0, 1)), ("hard_sigmoid", lambda x: np.clip(0.2 * x + 0.5, 0, 1)),
    ("swish", lambda x: x / (1 + np.exp(-x))), ("mish", lambda x: x * np.tanh(np.log1p(np.exp(x)))),
    ("softmax", lambda x: np.exp(x) / np.exp(x).sum(-1, keepdims=True)), ("relu6", lambda x: np.clip(x, 0, 6)),
    ("elu", lambda x: np.where(x > 0, x, np.expm1(x))), ("softplus", lambda x: np.log1p(np.exp(x)))])
def test_activation_layer(name, ref, rng):
    x = rng.normal(size=(3, 4)).astype(np.float32) * 3
    assert_tensor(_apply(tf.layers.activation(activation=name), x), ref(x), rtol=1e-4, atol=1e-5)


def test_shape_layers(rng):
    x = rng.normal(size=(2, 3, 4)).astype(np.float32)
    assert_tensor(_apply(tf.layers.flatten(), x), x.reshape(2, 12))
    assert_tensor(_apply(tf.layers.reshape(target_shape=[4, -1]), x), x.reshape(2, 4, 3))
    assert_tensor(_apply(tf.layers.permute(dims=[2, 1]), x), x.transpose(0, 2, 1))
    v = x[:, 0, :]
    assert_tensor(_apply(tf.layers.repeat_vector(n=3), v), np.repeat(v[:, None, :], 3, axis=1))


def test_dropout_is_identity_at_inference_and_scales_in_training(rng):
    x = np.ones((50, 40), np.float32)
    layer = tf.layers.dropout(rate=0.5)
    assert_tensor(_apply(layer, x), x)
    t = tf.tensor(x)
    out = layer.apply(t, training=True).numpy()
    assert set(np.unique(out)) <= {0.0, 2.0} and 0.3 < (out == 0).mean() < 0.7


def test_embedding(rng):
    table = rng.normal(size=(5, 3)).astype(np.float32)
    layer = tf.layers.embedding(input_dim=5, output_dim=3, weights=[table])
    idx = np.array([[0, 4], [2, 2]], np.int32)
    assert_tensor(_apply(layer, idx), table[idx])


def test_merge_layers(rng):
    a, b = (rng.normal(size=(2, 3)).astype(np.float32) for _ in range(2))
    ta, tb = tf.tensor(a), tf.tensor(b)
    for layer, ref in [(tf.layers.add(), a + b), (tf.layers.multiply(), a * b), (tf.layers.average(), (a + b) / 2),
                       (tf.layers.maximum(), np.maximum(a, b)), (tf.layers.minimum(), np.minimum(a, b)),
                       (tf.layers.concatenate(), np.concatenate([a, b], -1)),
                       (tf.layers.dot(axes=1), (a * b).sum(-1, keepdims=True))]:
        assert_tensor(layer.apply([ta, tb]), ref, rtol=1e-5, atol=1e-6)


# --- gradients through every trainable layer ------------------------------------------------------------
@pytest.mark.parametrize("make,x", [
    (lambda: tf.layers.dense(units=2, activation="tanh"), np.float32([[0.5, -1.0, 2.0], [1.0, 0.1, -0.3]])),
    (lambda: tf.layers.embedding(input_dim=4, output_dim=2), np.int32([[1, 3], [3, 0]]))])
def test_gradients_through_trainable_layers(make, x):
    layer = make()
    xt = tf.tensor(x)
    layer.apply(xt).dispose()

    def loss():
        return tf.sum(tf.square(layer.apply(xt)))
    _, grads = tf.variable_grads(loss, layer.trainable_weights)
    for w in layer.trainable_weights:
        g = grads[w.name].numpy()
        base = w.numpy()
        numeric = np.zeros_like(base)
        for i in np.ndindex(base.shape):
            for sign in (1, -1):
                bumped = base.copy()
                bumped[i] += sign * 1e-2
                w.assign(tf.tensor(bumped))
                numeric[i] += sign * float(tf.tidy(loss).data_sync()[0]) / 2e-2
            w.assign(tf.tensor(base))
        np.testing.assert_allclose(g, numeric, rtol=2e-2, atol=2e-2)


# --- models -------------------------------------------------------------------------------------------------
def test_listing1_linear_regression_converges():
    model = tf.sequential()
    model.add(tf.layers.dense(units=1, input_shape=[1]))
    model.compile(loss="meanSquaredError", optimizer="sgd")
    xs, ys = tf.tensor2d([-1, 0, 1, 2, 3, 4], [6, 1]), tf.tensor2d([-3, -1, 1, 3, 5, 7], [6, 1])
    history = asyncio.run(model.fit(xs, ys, epochs=800, verbose=0))
    assert history.history["loss"][-1] < 1e-3 and history.epoch == list(range(800))
    x5 = tf.tensor2d([5], [1, 1])
    assert abs(model.predict(x5).data_sync()[0] - 9) < 0.1


def test_xor_with_dense_layers_and_functional_api():
    inp = tf.input(shape=[2])
    hidden = tf.layers.dense(units=8, activation="tanh",
                               kernel_initializer=tf.initializers.glorot_normal(seed=1)).apply(inp)
    out = tf.layers.dense(units=1, activation="sigmoid", kernel_initializer=tf.initializers.glorot_uniform(seed=2)
                          ).apply(hidden)
    model = tf.model(inputs=inp, outputs=out)
    model.compile(optimizer=tf.train.adam(0.1), loss="binary_crossentropy", metrics=["accuracy"])
    x, y = tf.tensor2d([[0, 0], [0, 1], [1, 0], [1, 1]]), tf.tensor2d([[0], [1], [1], [0]])
    history = model.fit_sync(x, y, epochs=200, batch_size=4, verbose=0)
    assert history.history["acc"][-1] == 1.0
    loss, acc = model.evaluate(x, y)
    assert loss.data_sync()[0] < 0.1 and acc.data_sync()[0] == 1.0


def test_fit_evaluate_predict_do_not_leak():
    model = tf.sequential(layers=[tf.layers.dense(units=4, input_shape=[3], activation="relu"),
                                  tf.layers.dropout(rate=0.2), tf.layers.dense(units=2, activation="softmax")])
    model.compile(optimizer="adam", loss="categoricalCrossentropy", metrics=["accuracy", "mse"])
    rng = np.random.default_rng(0)
    x = tf.tensor(rng.normal(size=(20, 3)).astype(np.float32))
    y = tf.tidy(lambda: tf.cast(tf.one_hot(tf.tensor(rng.integers(0, 2, 20).astype(np.int32)), 2), "float32"))
    model.fit_sync(x, y, epochs=1, batch_size=8, verbose=0)   # optimizer slots are made on the first step
    counts = []

    class Count(tf.callbacks.Callback):
        def on_epoch_end(self, epoch, logs=None):
            counts.append(tf.memory().num_tensors)
    before = tf.memory().num_tensors
    model.fit_sync(x, y, epochs=4, batch_size=8, verbose=0, validation_split=0.25, callbacks=[Count()])
    assert len(set(counts)) == 1
    assert tf.memory().num_tensors == before
    # The first call with a batch shape traces the step: its plan holds constants (bytes, no tensors),
    # the model's until dispose. Every later call must leave memory as it found it.
    calls = [lambda: tf.dispose(model.evaluate(x, y, batch_size=7)), lambda: model.predict(x, batch_size=7).dispose(),
             lambda: asyncio.run(model.train_on_batch(x, y)),
             lambda: model.fit_sync([[0.0, 1.0, 2.0]], [[1.0, 0.0]], verbose=0)]
    for call in calls:
        num_tensors = tf.memory().num_tensors
        call()
        assert tf.memory().num_tensors == num_tensors
        assert_no_leak(call)
    tf.dispose([x, y])
    model.dispose()
    assert tf.memory().num_tensors == 0 and tf.memory().num_bytes == 0   # the plans went with the model


def test_weights_get_set_and_get_layer():
    model = tf.sequential(layers=[tf.layers.dense(units=2, input_shape=[3], name="d")])
    layer = model.get_layer("d")
    assert layer is model.get_layer(index=0)
    assert [w.name for w in layer.get_weights()] == ["d/kernel", "d/bias"]
    assert all(isinstance(w, tf.Variable) for w in model.weights)
    assert_no_leak(lambda: layer.set_weights([np.ones((3, 2), np.float32), [1.0, 2.0]]))
    x = tf.tensor2d([[1, 1, 1]])
    assert model.predict(x).array_sync() == [[4, 5]]
    assert_raises(ValueError, lambda: layer.set_weights([np.ones((3, 2), np.float32)]), "expecting 2 weights")
    assert_raises(ValueError, lambda: layer.set_weights([np.ones((2, 2), np.float32), np.zeros(2, np.float32)]),
                  "not compatible")
    assert_raises(ValueError, lambda: model.get_layer("nope"), "No such layer: nope")


def test_names_for_losses_metrics_optimizers():
    for loss in ("meanSquaredError", "mean_squared_error", "mse", tf.layers.losses.mean_squared_error,
                 lambda yt, yp: tf.mean(tf.square(tf.sub(yt, yp)), -1)):
        model = tf.sequential(layers=[tf.layers.dense(units=1, input_shape=[1])])
        model.compile(optimizer="sgd", loss=loss, metrics=["meanAbsoluteError", "mae", tf.metrics.mse])
        h = model.fit_sync(tf.tensor2d([[1], [2]]), tf.tensor2d([[1], [2]]), epochs=1, verbose=0)
        assert list(h.history) == ["loss", "meanAbsoluteError", "mae", "meanSquaredError"]
    for opt in ("sgd", "adam", "rmsprop", "adagrad", "adadelta", "adamax", "SGD", "RMSProp"):
        model.compile(optimizer=opt, loss="mse")


def test_callbacks_early_stopping_and_custom_objects():
    model = tf.sequential(layers=[tf.layers.dense(units=1, input_shape=[1], kernel_initializer="zeros")])
    model.compile(optimizer=tf.train.sgd(0.0), loss="mse")   # no progress: stops after patience epochs
    events = []

    class Plain:   # not a Callback subclass: any object with on_* methods will do
        def on_train_begin(self, logs=None):
            events.append("train_begin")

        async def on_epoch_end(self, epoch, logs=None):
            events.append(("epoch", epoch, round(logs["loss"], 4)))

        def on_batch_end(self, batch, logs=None):
            events.append(("batch", batch))
    x, y = tf.tensor2d([[1], [2], [3]]), tf.tensor2d([[1], [2], [3]])
    h = asyncio.run(model.fit(x, y, epochs=10, batch_size=2, verbose=0, shuffle=False, validation_data=(x, y),
                              callbacks=[tf.callbacks.early_stopping(monitor="val_loss", patience=2), Plain(),
                                         {"on_train_end": lambda logs: events.append("train_end")}]))
    assert h.epoch == [0, 1, 2]
    assert events[0] == "train_begin" and events[-1] == "train_end"
    assert events[1:4] == [("batch", 0), ("batch", 1), ("epoch", 0, round(14 / 3, 4))]


def test_initializers_regularizers_constraints():
    init = tf.initializers
    assert_tensor(init.constant(value=3)([2]), [3, 3])
    assert_tensor(init.identity()([2, 2]), np.eye(2))
    w = init.glorot_uniform()([100, 50]).numpy()
    assert np.abs(w).max() <= np.sqrt(6 / 150) + 1e-6 and w.std() > 0.05
    q = init.orthogonal()([4, 4]).numpy()
    np.testing.assert_allclose(q @ q.T, np.eye(4), atol=1e-4)
    for name in ("zeros", "ones", "randomNormal", "random_uniform", "truncatedNormal", "heNormal", "he_uniform",
                 "leCunNormal", "lecun_uniform", "glorotNormal", "varianceScaling", "orthogonal"):
        tf.layers.dense(units=2, input_shape=[2], kernel_initializer=name).apply(tf.input(shape=[2]))
    layer = tf.layers.dense(units=1, input_shape=[2], kernel_regularizer=tf.regularizers.l2(l2=0.5),
                            kernel_constraint=tf.constraints.non_neg(), weights=[np.float32([[1], [-2]]),
                                                                                  np.float32([0])])
    model = tf.sequential(layers=[layer])
    reg = model.regularization_losses()[0]
    assert abs(reg.data_sync()[0] - 0.5 * 5) < 1e-6
    model.compile(optimizer=tf.train.sgd(0.0), loss="mse")
    model.fit_sync(tf.tensor2d([[0, 0]]), tf.tensor2d([[0]]), verbose=0)
    assert layer.kernel.array_sync() == [[1], [0]]   # the constraint ran after the step
    assert_tensor(tf.constraints.unit_norm()(tf.tensor2d([[3], [4]])), [[0.6], [0.8]], rtol=1e-5)
    assert_tensor(tf.constraints.max_norm(max_value=1)(tf.tensor2d([[3], [4]])), [[0.6], [0.8]], rtol=1e-5)


# --- errors -----------------------------------------------------------------------------------------------
def test_build_and_compile_errors():
    model = tf.sequential()
    assert_raises(ValueError, lambda: model.add(tf.layers.dense(units=1)), "must get an `input_shape`")
    model.add(tf.layers.dense(units=3, input_shape=[2]))
    assert_raises(ValueError, lambda: tf.layers.dense(units=1).apply(tf.input(shape=[])), "expected min_ndim=2")
    inp = tf.input(shape=[4])
    d = tf.layers.dense(units=2)
    d.apply(inp)
    assert_raises(ValueError, lambda: d.apply(tf.input(shape=[5])), "expected axis -1 of input shape to have value 4")
    assert_raises(ValueError, lambda: tf.layers.reshape(target_shape=[5]).apply(tf.input(shape=[4])),
                  "Total size of new array must be unchanged")
    assert_raises(ValueError, lambda: model.compile(optimizer="sgd", loss="nope"), "Unknown loss nope")
    assert_raises(ValueError, lambda: model.compile(optimizer="nope", loss="mse"), "Unknown Optimizer nope")
    assert_raises(ValueError, lambda: model.compile(optimizer="sgd", loss="mse", metrics=["nope"]),
                  "Unknown metric nope")
    assert_raises(ValueError, lambda: tf.layers.dense(units=1, activation="nope"), "Unknown activation nope")
    assert_raises(ValueError, lambda: tf.layers.dense(units=1, kernel_initializer="nope"), "Unknown initializer")
    assert_raises(TypeError, lambda: tf.sequential().compile(optimizer="sgd", loss="mse"), "model is empty")
    x, y = tf.tensor2d([[1, 2]]), tf.tensor2d([[1, 2, 3]])
    assert_raises(RuntimeError, lambda: model.fit_sync(x, y), "must compile a model")
    other = tf.layers.dense(units=1, input_shape=[2]).apply(tf.input(shape=[2]))
    assert_raises(ValueError, lambda: tf.model(inputs=tf.input(shape=[2]), outputs=other), "Graph disconnected")


def test_data_errors():
    model = tf.sequential(layers=[tf.layers.dense(units=1, input_shape=[2])])
    model.compile(optimizer="sgd", loss="mse")
    x, y = tf.tensor2d([[1, 2], [3, 4]]), tf.tensor2d([[1], [2]])
    x3, y1, y3, x_rank3 = tf.tensor2d([[1, 2, 3]]), tf.tensor2d([[1]]), tf.tensor2d([[1], [2], [3]]), tf.tensor3d([[[1, 2]]])
    assert_raises(ValueError, lambda: model.fit_sync(x3, y1, verbose=0), "expected dense_Dense", "[null,2]", "[1,3]")
    assert_raises(ValueError, lambda: model.fit_sync(x, y3, verbose=0), "Found 2 input sample(s) and 3 target sample(s)")
    assert_raises(ValueError, lambda: model.predict(x_rank3), "to have 2 dimension(s)")
    assert_raises(ValueError, lambda: model.evaluate(x, x), "Error when checking target")
    # Python values are converted, and disposed also when the check fails.
    assert_raises(ValueError, lambda: model.fit_sync([[1, 2, 3]], [[1]], verbose=0), "expected dense_Dense")
    assert_raises(ValueError, lambda: model.fit_sync(x, y, validation_split=0.6, verbose=0), "leaves no samples")


def test_custom_callback_and_fit_params_as_tfjs():
    seen, params = [], []

    class Record(tf.callbacks.CustomCallback):
        def __init__(self):
            super().__init__(on_train_begin=lambda logs: params.append(dict(self.params)),
                             on_epoch_end=lambda epoch, logs: seen.append(epoch))

    model = tf.sequential([tf.layers.dense(units=1, input_shape=[2])])
    model.compile(optimizer="sgd", loss="mse")
    x, y = tf.ones([5, 2]), tf.ones([5, 1])
    model.fit_sync(x, y, epochs=2, batch_size=2, verbose=0, callbacks=Record())
    assert seen == [0, 1]
    # TF.js's params for fit on tensors: steps is null (batches per epoch come from samples and batch size)
    assert params[0]["steps"] is None and params[0]["samples"] == 5 and params[0]["batch_size"] == 2
    with pytest.raises(TypeError, match="on_epoch_end must be callable"):
        tf.callbacks.CustomCallback(on_epoch_end=3)
    tf.dispose([x, y])
    model.dispose()


def test_model_execute_input_output_and_names():
    x1, x2 = tf.input(shape=[2, 3]), tf.input(shape=[3, 4])
    reshaped = tf.layers.reshape(target_shape=[3, 2]).apply(x1)
    joined = tf.layers.concatenate(axis=-1).apply([reshaped, x2])
    model = tf.model(inputs=[x1, x2], outputs=joined)
    assert model.name.startswith("model") and model.input == [x1, x2] and model.output is joined
    assert model.input_layers == [x1.source_layer, x2.source_layer] and model.output_layers == [joined.source_layer]
    # a layer's output is named '<layer>/<layer>' as in TF.js
    layer = reshaped.source_layer
    assert reshaped.name == f"{layer.name}/{layer.name}"
    a, b = tf.ones([1, 2, 3]), tf.zeros([1, 3, 4])
    before = tf.memory().num_tensors
    out = model.execute([a, b], [reshaped.name, joined.name, x2.name])
    assert [list(t.shape) for t in out] == [[1, 3, 2], [1, 3, 6], [1, 3, 4]]
    assert out[2] is not b and tf.memory().num_tensors == before + 3
    tf.dispose(out)
    one = model.execute({x1.name: a, x2.name: b}, reshaped.name)
    assert_tensor(one, np.ones([1, 3, 2]))
    one.dispose()
    with pytest.raises(ValueError, match="Cannot find SymbolicTensors"):
        model.execute([a, b], "nonexistent")
    with pytest.raises(ValueError, match="number of inputs"):
        model.execute([a], reshaped.name)
    with pytest.raises(ValueError, match="No value is provided"):
        model.execute({x1.name: a}, reshaped.name)
    with pytest.raises(ValueError, match="redundant"):
        tf.model(inputs=[x1, x1], outputs=joined)
    assert model.compute_output_shape([7, 2, 3]) == (7, 3, 6)
    tf.dispose([a, b])


def test_layer_ids_initial_weights_and_duplicate_weight_names():
    class Twice(tf.layers.Layer):
        def build(self, input_shape):
            self.add_weight("w", [1])
            self.add_weight("w", [2])

    a, b = tf.layers.Layer(), tf.layers.Layer(weights=[tf.zeros([1])])
    assert a.id != b.id and a.stateful is False and a.initial_weights is None and len(b.initial_weights) == 1
    layer = Twice()
    with pytest.raises(ValueError, match="Duplicate weight name w"):
        layer.apply(tf.ones([1, 1]))
    assert layer.weights == []   # the failed build disposed the first weight
    tf.dispose(b.initial_weights)
    spec = tf.layers.InputSpec(shape=[1, 2, 3], ndim=-1)
    assert spec.ndim == 3 and spec.shape == (1, 2, 3) and tf.layers.InputSpec().axes == {}


@pytest.mark.parametrize("every, frames", [("batch", 6), ("epoch", 2), ("never", 0), (10, 3)])
def test_fit_yield_every(every, frames):
    # TF.js's yieldEvery: dict callbacks yield (next_frame_func) after each batch, epoch, never, or
    # once the clock (now_func, ms) has moved yield_every past the last yield, calling on_yield then
    clock, calls, yields = iter([0] + [6] * 100), [], []
    times = {"now": 0}

    def now():
        times["now"] += next(clock)
        return times["now"]

    model = tf.sequential([tf.layers.dense(units=1, input_shape=[2])])
    model.compile(optimizer="sgd", loss="mse")
    x, y = tf.ones([6, 2]), tf.ones([6, 1])
    cb = {"next_frame_func": lambda: calls.append(1), "nowFunc": now}
    if every != "never":
        cb["onYield"] = lambda epoch, batch, logs: yields.append((epoch, batch))
    asyncio.run(model.fit(x, y, batch_size=2, epochs=2, verbose=0, callbacks=cb, yield_every=every))
    assert len(calls) == frames
    if every == 10:   # 6 ms a batch (3 an epoch): batch ends at 12, 24 and 36 ms are 10 ms past the last yield
        assert yields == [(0, 1), (1, 0), (1, 2)]
    with pytest.raises(ValueError, match="never"):
        tf.callbacks.CustomCallback(on_yield=print, yield_every="never")
    with pytest.raises(ValueError, match="yield_every"):
        tf.callbacks.CustomCallback(yield_every="sometimes")
    tf.dispose([x, y])
    model.dispose()


def test_user_defined_metadata_round_trip_and_checks():
    model = tf.sequential([tf.layers.dense(units=1, input_shape=[2])])
    model.set_user_defined_metadata({"labels": ["a", None, {"b": 1.5}], "ok": True})
    saved = []
    asyncio.run(model.save(tf.io.with_save_handler(lambda artifacts: saved.append(artifacts) or {})))
    loaded = asyncio.run(tf.load_layers_model(tf.io.from_memory(saved[0])))
    assert loaded.get_user_defined_metadata() == {"labels": ["a", None, {"b": 1.5}], "ok": True}
    t = tf.zeros([1])
    for bad in ('{"labels": []}', ["a"], {"t": t}, None, 5):
        with pytest.raises(ValueError, match="expected to be a JSON object"):
            model.set_user_defined_metadata(bad)
    t.dispose()
    model.set_user_defined_metadata({"big": "x" * (1024 * 1024)})
    with pytest.warns(UserWarning, match="too large"):
        asyncio.run(model.save(tf.io.with_save_handler(lambda artifacts: {})))
    model.dispose()
    loaded.dispose()


def test_load_from_a_handler_returning_tfjs_artifacts_object():
    # TF.js's IOHandler.load returns a plain object with camelCase keys
    model = tf.sequential([tf.layers.dense(units=1, input_shape=[2], kernel_initializer="ones")])
    saved = []
    asyncio.run(model.save(tf.io.with_save_handler(lambda artifacts: saved.append(artifacts) or {})))

    class Handler:
        async def load(self):
            return {"modelTopology": saved[0].model_topology, "weightSpecs": saved[0].weight_specs,
                    "weightData": saved[0].weight_data}

    loaded = asyncio.run(tf.load_layers_model(Handler()))
    out = loaded.predict(tf.ones([1, 2]))
    assert_tensor(out, np.array([[2.0]]))
    out.dispose()
    model.dispose()
    loaded.dispose()


def test_layer_nodes_views_and_input_compatibility():
    dense = tf.layers.dense(units=2)
    a, b = tf.input(shape=[3]), tf.input(shape=[3])
    ya, yb = dense.apply(a), dense.apply(b)
    assert dense.get_input_at(0) is a and dense.get_input_at(1) is b and dense.get_output_at(1) is yb
    with pytest.raises(ValueError, match="only 2 inbound nodes"):
        dense.get_output_at(2)
    with pytest.raises(AttributeError, match="ill-defined"):
        dense.input
    with pytest.raises(AttributeError, match="ill-defined"):
        dense.output
    assert ya.name == f"{dense.name}/{dense.name}" and yb.name == f"{dense.name}/{dense.name}_1"
    layer = tf.layers.Layer()
    layer.input_spec = [tf.layers.InputSpec(shape=[None, 3], dtype="float32", axes={"1": 3})]
    x = tf.ones([2, 3])
    layer.assert_input_compatibility(x)   # TF.js's form: the inputs themselves
    layer.assert_input_compatibility([(5, 3)])   # pytfweb's engine passes shapes
    with pytest.raises(ValueError, match="expected ndim=2"):   # TF.js checks the rank before the shape
        layer.assert_input_compatibility(tf.input(shape=[4, 3]))
    with pytest.raises(ValueError, match="expected dtype"):
        layer.assert_input_compatibility(tf.input(shape=[3], dtype="int32"))
    zeros = tf.zeros([1])
    v = tf.variable(zeros)
    layer.trainable_weights = [v]
    assert len(layer.weights) == 1 and layer.trainable_weights[0] is v and layer.weights[0] is v
    layer.non_trainable_weights = []
    tf.dispose([x, v, zeros])
