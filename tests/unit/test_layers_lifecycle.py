"""TF.js 4.22's layer and model life cycle and API details that tfjs-layers' own specs check
(issue 31), on the cpu backend: dispose's reference counting, fit's one-at-a-time rule, models
made from JSON with their initializers, layer order and dtype in configs, InputSpec shapes, call
options a layer does not read, Bidirectional initial states, ConvLSTM2D arguments."""
import asyncio
import gc
import inspect
import warnings

import numpy as np
import pytest

import pytfweb as tf
from tests.unit.helpers import assert_tensor


def _live():
    return tf.memory().num_tensors


# --- dispose: TF.js's reference counts ---------------------------------------------------------------
def test_layer_dispose_counts_uses_as_tfjs():
    dense = tf.layers.dense(units=1, input_shape=[4])
    with pytest.raises(RuntimeError, match="has not been built"):
        dense.dispose()
    x = tf.zeros([2, 4])
    dense.apply(x).dispose()                      # the call that builds it: one use
    before = _live()
    result = dense.dispose()
    assert result == tf.layers.DisposeResult(ref_count_after_dispose=0, num_disposed_variables=2)
    assert _live() == before - 2
    with pytest.raises(RuntimeError, match="Layer '.*' is already disposed"):
        dense.dispose()
    with pytest.raises(RuntimeError, match="Layer '.*' is already disposed"):
        dense.apply(x)
    with pytest.raises(RuntimeError, match="already disposed"):
        dense.apply(tf.input(shape=[4]))
    x.dispose()


def test_layer_with_two_nodes_is_freed_by_its_second_dispose():
    dense = tf.layers.dense(units=1)
    dense.apply(tf.input(shape=[4]))
    dense.apply(tf.input(shape=[4]))
    before = _live()
    assert dense.dispose() == tf.layers.DisposeResult(1, 0) and _live() == before
    assert dense.dispose() == tf.layers.DisposeResult(0, 2) and _live() == before - 2


def test_built_but_never_applied_layer_is_disposed_by_one_dispose():
    # TF.js raises 'has not been used yet' here (README, deviations)
    dense = tf.layers.dense(units=1)
    dense.build([None, 3])
    before = _live()
    assert dense.dispose() == tf.layers.DisposeResult(0, 2) and _live() == before - 2
    gru = tf.layers.gru(units=2)
    gru.build((None, 4, 3))
    x = tf.ones([1, 4, 3])
    gru.apply(x).dispose()
    assert gru.dispose() == tf.layers.DisposeResult(0, 3)
    x.dispose()


def test_nested_model_is_disposed_with_a_functional_model_kept_by_a_sequential_one():
    start = _live()
    inner = tf.sequential([tf.layers.dense(units=2, input_shape=[3])])
    x = tf.input(shape=[3])
    outer = tf.model(inputs=x, outputs=tf.layers.dense(units=1).apply(inner.apply(x)))
    assert outer.dispose() == tf.layers.DisposeResult(0, 4)
    assert _live() == start
    with pytest.raises(RuntimeError, match="already disposed"):
        inner.dispose()
    # TF.js's 'Disposing nested sequential model preserves the inner model'
    inner = tf.sequential([tf.layers.dense(units=2, input_shape=[3])])
    outer = tf.sequential([inner, tf.layers.dense(units=1)])
    assert outer.dispose() == tf.layers.DisposeResult(0, 2)
    ones = tf.ones([1, 3])
    y = inner.predict(ones)
    assert tuple(y.shape) == (1, 2)
    tf.dispose([ones, y])
    assert inner.dispose() == tf.layers.DisposeResult(0, 2)
    assert _live() == start


def test_weightless_layer_is_disposed_after_its_first_call():
    flatten = tf.layers.flatten()
    x = tf.zeros([2, 3, 4])
    flatten.apply(x).dispose()
    assert flatten.dispose() == tf.layers.DisposeResult(0, 0)
    with pytest.raises(RuntimeError, match="already disposed"):
        flatten.apply(x)
    x.dispose()


def test_model_dispose_frees_everything_once_and_refuses_a_second():
    start = _live()
    model = tf.sequential([tf.layers.dense(units=2, input_shape=[3], activation="relu"), tf.layers.dense(units=1)])
    assert model.dispose() == tf.layers.DisposeResult(0, 4)
    assert _live() == start
    with pytest.raises(RuntimeError, match="Container '.*' is already disposed"):
        model.dispose()
    x = tf.input(shape=[2, 3])
    functional = tf.model(inputs=x, outputs=tf.layers.reshape(target_shape=[3, 2]).apply(x))
    assert functional.dispose() == tf.layers.DisposeResult(0, 0)     # an InputLayer and a Reshape: no weights
    with pytest.raises(RuntimeError, match="already disposed"):
        functional.dispose()
    zeros = tf.zeros([1, 2, 3])
    with pytest.raises(RuntimeError, match="Container '.*' is already disposed"):
        functional.predict(zeros)             # weightless, yet disposed: it runs no more
    zeros.dispose()


def test_model_dispose_counts_the_optimizer_tensors_it_frees():
    start = _live()
    model = tf.sequential([tf.layers.dense(units=1, input_shape=[2])])
    model.compile(optimizer="adam", loss="mse")
    x, y = tf.ones([4, 2]), tf.ones([4, 1])
    model.fit_sync(x, y, epochs=1, verbose=0)
    tf.dispose([x, y])
    held = _live() - start
    result = model.dispose()
    assert result.ref_count_after_dispose == 0
    assert result.num_disposed_variables == held    # 2 weights + the optimizer's slots and constants
    assert _live() == start


def test_layer_shared_by_two_models_lives_until_both_are_disposed():
    shared = tf.layers.dense(units=2, kernel_initializer="ones")
    a_in, b_in = tf.input(shape=[2]), tf.input(shape=[2])
    model_a = tf.model(inputs=a_in, outputs=shared.apply(a_in))
    model_b = tf.model(inputs=b_in, outputs=shared.apply(b_in))
    model_a.dispose()
    x = tf.ones([1, 2])
    y = model_b.predict(x)
    assert_tensor(y, [[2, 2]])
    tf.dispose([x, y])
    before = _live()
    assert model_b.dispose() == tf.layers.DisposeResult(0, 2)
    assert _live() == before - 2


def test_model_dispose_frees_a_layer_it_applies_twice():
    # TF.js's model dispose releases one use of such a layer and keeps its weights (README, deviations)
    dense = tf.layers.dense(units=2)
    x = tf.input(shape=[2])
    model = tf.model(inputs=x, outputs=dense.apply(dense.apply(x)))
    before = _live()
    assert model.dispose() == tf.layers.DisposeResult(0, 2)
    assert _live() == before - 2


# --- fit: one at a time, from the call on ------------------------------------------------------------------
def _compiled():
    model = tf.sequential([tf.layers.dense(units=1, input_shape=[2])])
    model.compile(optimizer="sgd", loss="mse")
    return model


def test_second_fit_before_the_first_is_awaited_fails_as_tfjs():
    model = _compiled()
    x, y = tf.ones([4, 2]), tf.ones([4, 1])

    async def main():
        first = model.fit(x, y, epochs=2, verbose=0)    # not awaited yet: training has started
        with pytest.raises(RuntimeError, match="^Cannot start training because another fit\\(\\) call is ongoing.$"):
            await model.fit(x, y, verbose=0)
        history = await first
        assert len(history.history["loss"]) == 2
        again = await model.fit(x, y, verbose=0)          # and the model trains again afterwards
        assert len(again.history["loss"]) == 1

    asyncio.run(main())
    tf.dispose([x, y])
    model.dispose()


def test_fit_never_awaited_leaves_the_model_free_to_train():
    model = _compiled()
    x, y = tf.ones([4, 2]), tf.ones([4, 1])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        model.fit(x, y, verbose=0)                       # dropped at once: Python says so
        gc.collect()
    assert any("never awaited" in str(w.message) for w in caught)
    history = asyncio.run(model.fit(x, y, verbose=0))
    assert len(history.history["loss"]) == 1
    pending = model.fit(x, y, verbose=0)
    assert inspect.iscoroutine(pending)                  # a coroutine as any: the REPL and scripts await it
    pending.close()
    del pending                                          # closed, never run, gone: the model is free too
    assert len(model.fit_sync(x, y, verbose=0).history["loss"]) == 1
    tf.dispose([x, y])
    model.dispose()


# --- models from JSON ----------------------------------------------------------------------------------
def test_model_from_json_makes_weights_with_their_initializers():
    x = tf.input(shape=[3])
    model = tf.model(inputs=x, outputs=tf.layers.dense(units=2, kernel_initializer="ones",
                                                       bias_initializer="ones").apply(x))
    again = tf.layers.serialization.model_from_topology(model.to_json(False))
    inputs = tf.ones([1, 3])
    y = again.predict(inputs)
    assert_tensor(y, [[4, 4]])          # TF.js's modelFromJSON: ones, not the zeros of a load
    tf.dispose([inputs, y])
    model.dispose()
    again.dispose()


def test_layers_order_deepest_first_as_tfjs():
    in1, in2 = tf.input(shape=[2], name="in1"), tf.input(shape=[2], name="in2")
    d1 = tf.layers.dense(units=2, name="d1").apply(in1)
    d2 = tf.layers.dense(units=2, name="d2").apply(d1)
    out = tf.layers.concatenate(name="cat").apply([d2, in2])
    model = tf.model(inputs=[in1, in2], outputs=out)
    assert [layer.name for layer in model.layers] == ["in1", "d1", "d2", "in2", "cat"]
    assert [entry["name"] for entry in model.get_config()["layers"]] == ["in1", "d1", "d2", "in2", "cat"]
    assert [w.name for w in model.weights] == ["d1/kernel", "d1/bias", "d2/kernel", "d2/bias"]
    model.dispose()


def test_config_names_a_dtype_only_with_an_input_shape_or_given():
    assert "dtype" not in tf.layers.dense(units=1).get_config()
    assert tf.layers.dense(units=1, input_shape=[2]).get_config()["dtype"] == "float32"
    assert tf.layers.dense(units=1, dtype="int32").get_config()["dtype"] == "int32"


# --- input specs, call options, arguments --------------------------------------------------------------
def test_input_spec_shape_as_tfjs():
    spec = tf.layers.InputSpec(shape=[1, 2, 3], ndim=-1)
    assert spec.ndim == 3 and spec.shape == (1, 2, 3) and spec.axes == {}
    layer = tf.layers.input_layer(input_shape=[None, 2])
    assert layer.input_spec[0].shape == (None, None, 2)
    relu = tf.layers.activation(activation="relu")
    relu.input_spec = tf.layers.InputSpec(shape=[None, 3, 4])
    with pytest.raises(ValueError, match=r"expected shape=\[null,3,4\], found shape=\[2,3,5\]"):
        relu.apply(tf.input(batch_shape=[2, 3, 5]))
    assert relu.apply(tf.input(batch_shape=[2, None, 4])).shape == (2, None, 4)   # None fits any size


def test_call_options_a_layer_does_not_read_are_ignored():
    layer = tf.layers.layer_normalization(scale=False, center=False)
    x = tf.tensor([[1, 2, 3], [3, 6, 24]])
    plain = layer.apply(x)
    before = _live()
    with_options = layer.apply(x, scale=True, center=True)    # TF.js's call reads neither
    assert _live() == before + 1
    assert_tensor(with_options, plain.array_sync())
    tf.dispose([x, plain, with_options])


def test_conv_lstm2d_cell_takes_strides_and_dilation_and_rnn_arguments():
    cell = tf.layers.conv_lstm2d_cell(filters=2, kernel_size=3, strides=2, dilation_rate=2)
    config = cell.get_config()
    assert list(config["strides"]) == [2, 2] and list(config["dilation_rate"]) == [2, 2]
    layer = tf.layers.conv_lstm2d(filters=2, kernel_size=3, input_dim=8, input_length=8)
    assert layer.batch_input_shape is None           # TF.js ignores both for ConvLSTM2D


# --- Bidirectional with initial states -----------------------------------------------------------------
def _bidi():
    return tf.layers.bidirectional(layer=tf.layers.gru(units=3, kernel_initializer="zeros",
                                                       recurrent_initializer="zeros", bias_initializer="ones"),
                                   merge_mode=None)


# tfjs-layers' spec 'Bidirectional with initial state' (TF.js's values)
_FORWARD, _BACKWARD = [[0.33863544] * 3], [[0.8188354] * 3]


def test_bidirectional_initial_state_concrete_and_in_a_model():
    x, s1, s2 = tf.ones([1, 4, 2]), tf.mul(tf.ones([1, 3]), -1), tf.ones([1, 3])
    ys = _bidi().apply(x, initial_state=[s1, s2])
    assert_tensor(ys[0], _FORWARD, rtol=1e-5, atol=1e-5)
    assert_tensor(ys[1], _BACKWARD, rtol=1e-5, atol=1e-5)
    tf.dispose(ys)
    inputs = [tf.input(shape=[4, 2]), tf.input(shape=[3]), tf.input(shape=[3])]
    outs = _bidi().apply(inputs[0], initial_state=inputs[1:])
    assert [tuple(o.shape) for o in outs] == [(None, 3), (None, 3)]
    model = tf.model(inputs=inputs, outputs=outs)
    ys = model.predict([x, s1, s2])
    assert_tensor(ys[0], _FORWARD, rtol=1e-5, atol=1e-5)
    assert_tensor(ys[1], _BACKWARD, rtol=1e-5, atol=1e-5)
    tf.dispose(ys + [x, s1, s2])
    model.dispose()


def test_bidirectional_initial_state_needs_the_states_of_both_directions():
    with pytest.raises(ValueError, match="the state should be an Array containing the states of the underlying RNNs"):
        _bidi().apply(tf.input(shape=[4, 2]), initial_state=[tf.input(shape=[3])])
    with pytest.raises(ValueError, match="initial state 0 should have shape"):
        _bidi().apply(tf.input(shape=[4, 2]), initial_state=[tf.input(shape=[5]), tf.input(shape=[5])])


def test_bidirectional_initial_state_gradients_flow_to_the_states():
    layer = _bidi()
    x, s1, s2 = tf.ones([1, 4, 2]), tf.zeros([1, 3]), tf.zeros([1, 3])
    g1, g2 = tf.grads(lambda a, b: tf.add_n([tf.sum(y) for y in layer.apply(x, initial_state=[a, b])]))([s1, s2])
    assert np.abs(g1.array_sync()).sum() > 0 and np.abs(g2.array_sync()).sum() > 0
    tf.dispose([x, s1, s2, g1, g2])


def test_fit_checks_the_batch_size_first_with_tfjs_message():
    model = tf.sequential([tf.layers.dense(units=1, input_shape=[2])])    # not compiled
    x, y = tf.ones([4, 2]), tf.ones([4, 1])
    for bad in (0, -1, 3.14, "a"):
        with pytest.raises(ValueError, match=f"^batchSize is required to be a positive integer, but got {bad}$"):
            model.fit_sync(x, y, batch_size=bad, verbose=0)
    with pytest.raises(RuntimeError, match="You must compile a model before training"):
        model.fit_sync(x, y, batch_size=2, verbose=0)
    tf.dispose([x, y])
    model.dispose()
