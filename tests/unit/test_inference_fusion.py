"""Predict-time fusion of conv -> batch normalization -> activation (layers/inference_fusion.py):
the same outputs as the layers run one by one, which chains qualify, weights that change, gradients
and memory."""
import numpy as np
import pytest

import pytfweb as tf
from pytfweb.layers.inference_fusion import Plan

L = tf.layers


@pytest.fixture(autouse=True)
def _cpu():
    previous = tf.get_backend()
    tf.set_backend("cpu")
    yield
    tf.set_backend(previous)


def _randomize_batch_norms(model, rng):
    """Moving statistics and parameters far from their initial values, so folding them matters."""
    for layer in model.layers:
        if isinstance(layer, tf.layers.BatchNormalization):
            c = layer.moving_mean.shape[0]
            values = {"gamma": rng.uniform(0.5, 1.5, c), "beta": rng.normal(size=c), "moving_mean": rng.normal(size=c),
                      "moving_variance": rng.uniform(0.3, 3, c)}
            for name, v in values.items():
                if getattr(layer, name) is not None:
                    getattr(layer, name).assign(v.astype(np.float32))


def _model():
    """Chains of every kind, and layers that must stay as they are."""
    inp = tf.input(shape=[9, 8, 4])
    a = L.conv2d(filters=8, kernel_size=3, padding="same", use_bias=False).apply(inp)
    a = L.batch_normalization().apply(a)
    a = L.re_lu(max_value=6).apply(a)                                    # conv -> bn -> relu6
    b = L.depthwise_conv2d(kernel_size=3, strides=2, depth_multiplier=2).apply(a)
    b = L.batch_normalization(scale=False).apply(b)
    b = L.activation(activation="elu").apply(b)                          # depthwise (multiplier 2), no gamma
    c = L.conv2d(filters=6, kernel_size=1, use_bias=True).apply(b)
    c = L.batch_normalization(center=False).apply(c)
    c = L.leaky_re_lu(alpha=0.1).apply(c)                                # with a bias, no beta
    d = L.conv2d(filters=6, kernel_size=1).apply(c)
    d = L.batch_normalization().apply(d)                                 # no activation after it
    d = L.global_average_pooling2d().apply(d)
    e = L.conv2d(filters=4, kernel_size=1, activation="relu").apply(a)   # activation on the conv: not fused
    e = L.batch_normalization().apply(e)
    f = L.conv2d(filters=4, kernel_size=1).apply(a)                      # two readers of its output: not fused
    f1 = L.batch_normalization().apply(f)
    f2 = L.re_lu().apply(f)
    g = L.conv2d(filters=4, kernel_size=1).apply(a)
    g = L.batch_normalization(axis=1).apply(g)                           # not the channel axis: not fused
    outs = [d, L.flatten().apply(e), L.flatten().apply(L.add().apply([f1, f2])), L.flatten().apply(g)]
    return tf.model(inputs=inp, outputs=outs)


def _values(outputs):
    """The outputs' values; the tensors are disposed."""
    outputs = outputs if isinstance(outputs, list) else [outputs]
    values = [t.numpy() for t in outputs]
    tf.dispose(outputs)
    return values


def _unfused(model, x):
    plan, model._fusion_plan = model._inference_plan(), Plan([], [])
    try:
        return _values(model.predict(x))
    finally:
        model._fusion_plan = plan


def test_fused_predictions_equal_the_layers_run_one_by_one():
    rng = np.random.default_rng(3)
    model = _model()
    _randomize_batch_norms(model, rng)
    x = tf.tensor(rng.normal(size=(3, 9, 8, 4)).astype(np.float32))
    fused = _values(model.predict(x))
    plan = model._inference_plan()
    assert sorted(c.activation for c in plan.heads.values()) == ["elu", "leakyrelu", "linear", "relu6"]
    for got, want in zip(fused, _unfused(model, x)):
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)
    assert [v.tolist() for v in _values(model.predict_on_batch(x))] == [v.tolist() for v in fused]
    model.dispose()
    x.dispose()


def test_new_weights_are_folded_again_and_dispose_frees_the_folded_weights():
    rng = np.random.default_rng(4)
    before = tf.memory().num_tensors
    model = _model()
    x = tf.tensor(rng.normal(size=(2, 9, 8, 4)).astype(np.float32))
    first = _values(model.predict(x))[0]
    _randomize_batch_norms(model, rng)                  # assign: new data for the statistics
    second = _values(model.predict(x))[0]
    assert not np.allclose(first, second)
    np.testing.assert_allclose(second, _unfused(model, x)[0], rtol=1e-4, atol=1e-5)
    folded = sum(2 for c in model._inference_plan().heads.values() if c.kernel is not None)
    assert folded == 8
    model.dispose()
    x.dispose()
    assert tf.memory().num_tensors == before


def test_gradients_and_training_run_the_layers_themselves():
    """Under a gradient tape (fine-tuning with batch normalization in inference mode) the weights'
    gradients must exist, so the layers run one by one; training runs them too."""
    rng = np.random.default_rng(5)
    inp = tf.input(shape=[6, 6, 3])
    out = L.re_lu(max_value=6).apply(L.batch_normalization().apply(L.conv2d(filters=4, kernel_size=3).apply(inp)))
    model = tf.model(inputs=inp, outputs=L.flatten().apply(out))
    _randomize_batch_norms(model, rng)
    x = tf.tensor(rng.normal(size=(2, 6, 6, 3)).astype(np.float32))
    conv, bn = model.layers[1], model.layers[2]
    value, grads = tf.variable_grads(lambda: tf.sum(model.apply(x) ** 2), [conv.kernel, bn.gamma])
    assert set(grads) == {conv.kernel.name, bn.gamma.name}
    assert all(float(tf.sum(tf.abs(g)).numpy()) > 0 for g in grads.values())
    np.testing.assert_allclose(float(value.numpy()), float(np.sum(_unfused(model, x)[0] ** 2)), rtol=1e-4)
    assert model._inference_plan().heads and all(c.kernel is None for c in model._inference_plan().heads.values())
    model.dispose()


def test_zero_padding_before_a_valid_convolution_becomes_its_padding():
    """MobileNet's strided blocks and ResNet's stem: the padding layer's zeros become the chain's
    explicit padding. Not where the convolution pads 'same', or where another layer reads the
    padded image."""
    rng = np.random.default_rng(6)
    inp = tf.input(shape=[11, 10, 3])
    a = L.zero_padding2d(padding=[[0, 1], [0, 1]]).apply(inp)
    a = L.depthwise_conv2d(kernel_size=3, strides=2, padding="valid").apply(a)
    a = L.re_lu(max_value=6).apply(L.batch_normalization().apply(a))     # absorbed
    b = L.zero_padding2d(padding=3).apply(inp)
    b = L.conv2d(filters=4, kernel_size=7, strides=2, padding="valid").apply(b)
    b = L.re_lu().apply(L.batch_normalization().apply(b))                # absorbed, symmetric
    c = L.zero_padding2d(padding=[[2, 0], [1, 3]]).apply(inp)
    c = L.batch_normalization().apply(L.conv2d(filters=2, kernel_size=3, padding="same").apply(c))   # 'same': kept
    d = L.zero_padding2d(padding=1).apply(inp)
    d1 = L.batch_normalization().apply(L.conv2d(filters=2, kernel_size=3).apply(d))
    d2 = L.max_pooling2d(pool_size=2).apply(d)                           # a second reader: kept
    model = tf.model(inputs=inp, outputs=[L.flatten().apply(t) for t in (a, b, c, d1, d2)])
    _randomize_batch_norms(model, rng)
    x = tf.tensor(rng.normal(size=(2, 11, 10, 3)).astype(np.float32))
    fused = _values(model.predict(x))
    plan = model._inference_plan()
    pads = sorted(str(c.pad) for c in plan.heads.values())
    assert pads == ["[[0, 0], [0, 1], [0, 1], [0, 0]]", "[[0, 0], [3, 3], [3, 3], [0, 0]]", "same", "valid"]
    padding_layers = [n for n in model._nodes if type(n.outbound_layer) is tf.layers.ZeroPadding2D]
    assert sum(id(n) in plan.skipped for n in padding_layers) == 2
    for got, want in zip(fused, _unfused(model, x)):
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)
    model.dispose()
    x.dispose()
