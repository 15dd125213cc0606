"""Keras files without TensorFlow: models built and saved by Keras 3 (its numpy backend, a peer in
tests only) load here and predict as Keras does; models saved here load in Keras; `pytfweb
convert` turns Keras files into TF.js layers models and back; broken or unsafe files fail with
errors that name the file, the layer and the weight, and leave no tensor behind."""
import io
import json
import os
import sys
import zipfile

import numpy as np
import pytest

os.environ.setdefault("KERAS_BACKEND", "numpy")
import h5py  # noqa: E402 - a dependency
import keras  # noqa: E402 - in the test extra: missing, these tests fail rather than skip

# Keras's numpy backend warns about its own __array__ under numpy 2, hundreds of times
pytestmark = pytest.mark.filterwarnings("ignore:__array__ implementation:DeprecationWarning")

import pytfweb as tf  # noqa: E402
from pytfweb.keras_files import convert as kc  # noqa: E402
from pytfweb.keras_files import model_files as kf  # noqa: E402
from pytfweb.layers.saving import load_layers_model_sync  # noqa: E402

L = keras.layers
ATOL = 1e-5


@pytest.fixture(autouse=True)
def _cpu():
    tf.set_backend("cpu")
    keras.utils.set_random_seed(0)
    yield


def _num_tensors():
    return tf.memory()["num_tensors"]


def _randomize_keras(model, seed=0):
    """Weights of a useful size (Keras's initial biases are zeros and BN's statistics trivial)."""
    rng = np.random.default_rng(seed)
    for layer in model.layers:
        values = []
        for w in layer.weights:
            v = rng.normal(0, 0.4, w.shape).astype(w.dtype)
            if "variance" in w.path:
                v = np.abs(v) + 0.5
            values.append(v)
        if values:
            layer.set_weights(values)


def _randomize_pytfweb(model, seed=0):
    rng = np.random.default_rng(seed)
    for layer in model.layers:
        values = []
        for w in layer.weights:
            v = rng.normal(0, 0.4, w.shape).astype("float32")
            if "variance" in w.name:
                v = np.abs(v) + 0.5
            values.append(v)
        if values:
            layer.set_weights(values)


def _outputs(y):
    ys = y if isinstance(y, (list, tuple)) else [y]
    return [t.numpy() if hasattr(t, "numpy") and not isinstance(t, np.ndarray) else np.asarray(t) for t in ys]


def _predict(model, xs):
    ts = [tf.tensor(x) for x in xs]
    try:
        out = model.predict(ts if len(ts) > 1 else ts[0])
        arrays = _outputs(out)
        for t in (out if isinstance(out, list) else [out]):
            t.dispose()
        return arrays
    finally:
        for t in ts:
            t.dispose()


def _assert_close(got, want, atol=ATOL):
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g.shape == w.shape
        np.testing.assert_allclose(g, w, atol=atol, rtol=1e-4)
        assert np.abs(w).max() > 1e-3   # a comparison of near-zero outputs would prove little


# --- Keras 3 models ---------------------------------------------------------------------------------
def cnn():
    inp = keras.Input((8, 8, 3), name="img")
    x = L.Conv2D(4, 3, padding="same", activation="relu")(inp)
    x = L.BatchNormalization()(x)
    x = L.DepthwiseConv2D(3)(x)
    x = L.SeparableConv2D(5, 3, padding="same")(x)
    x = L.MaxPooling2D()(x)
    x = L.ZeroPadding2D(1)(x)
    x = L.AveragePooling2D(2)(x)
    f = L.Flatten()(x)
    a = L.Dense(6)(f)
    b = L.Dense(6, activation="tanh")(f)
    c = L.Add()([a, b])
    d = L.Concatenate()([a, c])
    d = L.LayerNormalization()(d)
    d = L.Dropout(0.3)(d)
    out = L.Dense(3, activation="softmax")(d)
    return keras.Model(inp, out), [np.random.default_rng(1).random((2, 8, 8, 3), dtype="float32")]


def rnn():
    model = keras.Sequential([
        keras.Input((5,)),
        L.Embedding(10, 4),
        L.LSTM(3, return_sequences=True),
        L.GRU(3, return_sequences=True, reset_after=False),
        L.Bidirectional(L.SimpleRNN(2, return_sequences=True)),
        L.TimeDistributed(L.Dense(2)),
        L.Dropout(0.5),
        L.GlobalAveragePooling1D(),
        L.Dense(3, activation="sigmoid"),
    ])
    return model, [np.random.default_rng(2).integers(0, 10, (3, 5)).astype("float32")]


def graph():
    """Two inputs, two outputs, a shared layer and nested models (functional and Sequential)."""
    inner_in = keras.Input((4,))
    inner = keras.Model(inner_in, L.Dense(3, activation="relu")(inner_in), name="inner")
    tail = keras.Sequential([keras.Input((3,)), L.Dense(2)], name="tail")
    a, b = keras.Input((4,), name="a"), keras.Input((4,), name="b")
    shared = L.Dense(4, name="shared")
    x, y = inner(shared(a)), inner(shared(b))
    s = L.Add()([x, y])
    out1 = tail(s)
    out2 = L.Dense(1, name="second")(L.Multiply()([x, y]))
    rng = np.random.default_rng(3)
    return keras.Model([a, b], [out1, out2]), [rng.random((2, 4), dtype="float32"), rng.random((2, 4), dtype="float32")]


def assorted():
    inp = keras.Input((6, 6, 2))
    x = L.Conv2DTranspose(3, 2, strides=2)(inp)
    x = L.Cropping2D(((1, 1), (2, 0)))(x)
    x = L.UpSampling2D(2)(x)
    x = L.ReLU(max_value=2.0)(x)
    x = L.Conv2D(4, 3, strides=2, padding="valid", activation="elu")(x)
    g = L.GlobalMaxPooling2D()(x)
    h = L.Dense(12)(g)
    h = L.LeakyReLU(negative_slope=0.2)(h)
    h = L.PReLU()(h)
    h = L.Reshape((2, 6))(h)
    h = L.Permute((2, 1))(h)
    h = L.Conv1D(4, 2, activation="silu")(h)
    h = L.MaxPooling1D(2)(h)
    h = L.Flatten()(h)
    h1 = L.Dense(4, activation="softplus")(h)
    h2 = L.Dense(4, activation="gelu")(h)
    m = L.Maximum()([h1, h2])
    n = L.Minimum()([h1, h2])
    v = L.Average()([m, n])
    d = L.Dot(axes=1)([m, n])
    r = L.RepeatVector(2)(v)
    r = L.Flatten()(r)
    out = L.Concatenate()([r, d, L.Softmax()(v), L.ELU()(v), L.Activation("selu")(v)])
    return keras.Model(inp, out), [np.random.default_rng(4).random((2, 6, 6, 2), dtype="float32")]


def masked():
    model = keras.Sequential([keras.Input((4, 3)), L.Masking(0.0), L.LSTM(3), L.Dense(2)])
    x = np.random.default_rng(5).random((2, 4, 3), dtype="float32")
    x[0, 2:] = 0.0
    return model, [x]


def _rand(*shape, seed=0):
    return np.random.default_rng(seed).random(shape, dtype="float32")


def _seq(*layers, shape):
    return lambda: (keras.Sequential([keras.Input(shape)] + [f() for f in layers]),
                    [_rand(2, *shape, seed=len(layers))])


def states():
    """An LSTM fed initial states from inputs, and one returning its states."""
    inp, h0, c0 = keras.Input((4, 3)), keras.Input((2,)), keras.Input((2,))
    seq = L.LSTM(2, return_sequences=True)(inp, initial_state=[h0, c0])
    out, h, c = L.LSTM(2, return_state=True)(seq)
    return keras.Model([inp, h0, c0], [out, h, c]), [_rand(2, 4, 3), _rand(2, 2, seed=1), _rand(2, 2, seed=2)]


def bidirectional_merges():
    inp = keras.Input((4, 3))
    outs = [L.Bidirectional(L.LSTM(2, return_sequences=True), merge_mode=m)(inp) for m in ("sum", "mul", "ave")]
    fwd, bwd = L.Bidirectional(L.GRU(2, reset_after=False), merge_mode=None)(inp)
    return keras.Model(inp, outs + [fwd, bwd]), [_rand(2, 4, 3)]


def embedding_mask():
    model = keras.Sequential([keras.Input((5,)), L.Embedding(10, 3, mask_zero=True),
                              L.SimpleRNN(2, return_sequences=True), L.Bidirectional(L.LSTM(2))])
    return model, [np.array([[1, 2, 0, 0, 0], [3, 4, 5, 6, 0]], "float32")]


def keepdims():
    """Global pooling with keepdims=True (MobileNet's head), which TF.js lacks: pooling + Reshape here."""
    inp = keras.Input((6, 6, 3))
    x = L.Conv2D(4, 3)(inp)
    x = L.GlobalAveragePooling2D(keepdims=True, name="gap")(x)
    a = L.Flatten()(L.Conv2D(2, 1)(x))
    seq = keras.Sequential([keras.Input((5, 3)), L.GlobalMaxPooling1D(keepdims=True), L.Flatten()])
    rng = np.random.default_rng(10)
    inp2 = keras.Input((5, 3))
    return keras.Model([inp, inp2], [a, seq(inp2)]), [rng.random((2, 6, 6, 3), dtype="float32"),
                                                      rng.random((2, 5, 3), dtype="float32")]


MODELS = {
    "cnn": cnn, "keepdims": keepdims, "rnn": rnn, "graph": graph, "assorted": assorted, "masked": masked,
    "states": states,
    "bidirectional": bidirectional_merges, "embedding_mask": embedding_mask,
    "conv3d": _seq(lambda: L.Conv3D(2, 2), L.MaxPooling3D, lambda: L.AveragePooling3D(1), L.Flatten,
                   shape=(4, 6, 6, 3)),
    "conv_lstm": _seq(lambda: L.ConvLSTM2D(2, 3, padding="same", return_sequences=True),
                      lambda: L.TimeDistributed(L.Conv2D(2, 3)), lambda: L.TimeDistributed(L.Flatten()),
                      shape=(3, 5, 5, 2)),
    # Keras's default GRU (reset_after=True: TF.js cannot run it, pytfweb can)
    "gru_default": _seq(lambda: L.GRU(3, return_sequences=True), lambda: L.RNN(L.GRUCell(2)), shape=(4, 3)),
    "stacked_cells": _seq(lambda: L.RNN([L.LSTMCell(3), L.SimpleRNNCell(2)], return_sequences=True),
                          lambda: L.RNN(L.GRUCell(2, reset_after=False)), shape=(4, 3)),
    "noise": _seq(lambda: L.SpatialDropout1D(0.2), lambda: L.GaussianNoise(0.1), lambda: L.GaussianDropout(0.1),
                  lambda: L.AlphaDropout(0.1), L.GlobalMaxPooling1D, lambda: L.Rescaling(2.0, 1.0), shape=(4, 3)),
    "normalization": _seq(lambda: L.BatchNormalization(center=False), lambda: L.BatchNormalization(scale=False),
                          lambda: L.LayerNormalization(center=False), lambda: L.Dense(2), shape=(5,)),
    "depthwise": _seq(lambda: L.DepthwiseConv2D(3, depth_multiplier=2, strides=2, padding="same"),
                      lambda: L.SeparableConv2D(3, 2, depth_multiplier=2), lambda: L.CenterCrop(2, 2),
                      shape=(6, 6, 2)),
    "options": _seq(lambda: L.Dense(4, kernel_regularizer="l2", bias_regularizer=keras.regularizers.L1L2(0.1, 0.2),
                                    kernel_constraint=keras.constraints.MaxNorm(2.0), kernel_initializer="he_normal",
                                    activation="relu6"),
                    lambda: L.Dense(4, activation="softsign", trainable=False),
                    lambda: L.BatchNormalization(trainable=False), lambda: L.Dense(4, activation="mish"),
                    lambda: L.Dense(3, activation="log_softmax"), shape=(5,)),
}


@pytest.mark.parametrize("ext", [".keras", ".h5"])
@pytest.mark.parametrize("name", sorted(MODELS))
def test_keras_models_load_and_predict_as_keras(tmp_path, name, ext):
    km, xs = MODELS[name]()
    _randomize_keras(km)
    path = str(tmp_path / f"{name}{ext}")
    km.save(path)
    want = _outputs(km.predict(xs if len(xs) > 1 else xs[0], verbose=0))
    before = _num_tensors()
    model = tf.load_keras_model(path) if hasattr(tf, "load_keras_model") else kf.load_keras_model(path)
    assert len(model.layers) == len(km.layers) + (name == "keepdims")   # + the Reshape of keepdims=True
    assert model.count_params() == km.count_params()
    _assert_close(_predict(model, xs), want)
    model.dispose()
    assert _num_tensors() == before


# --- pytfweb models saved for Keras --------------------------------------------------------------------
def pt_cnn():
    Lt = tf.layers
    inp = tf.input(shape=[8, 8, 3])
    x = Lt.conv2d(filters=4, kernel_size=3, padding="same", activation="relu").apply(inp)
    x = Lt.batch_normalization().apply(x)
    x = Lt.depthwise_conv2d(kernel_size=3).apply(x)
    x = Lt.separable_conv2d(filters=5, kernel_size=3, padding="same").apply(x)
    x = Lt.max_pooling2d(pool_size=2).apply(x)
    x = Lt.zero_padding2d(padding=1).apply(x)
    x = Lt.average_pooling2d(pool_size=2).apply(x)
    f = Lt.flatten().apply(x)
    a = Lt.dense(units=6).apply(f)
    b = Lt.dense(units=6, activation="tanh").apply(f)
    c = Lt.add().apply([a, b])
    d = Lt.concatenate().apply([a, c])
    d = Lt.layer_normalization().apply(d)
    out = Lt.dense(units=2, activation="softmax").apply(d)
    return tf.model(inputs=inp, outputs=out), [np.random.default_rng(6).random((2, 8, 8, 3), dtype="float32")]


def pt_rnn():
    Lt = tf.layers
    s = tf.sequential()
    s.add(Lt.embedding(input_dim=10, output_dim=4, input_shape=[5]))
    s.add(Lt.lstm(units=3, return_sequences=True, recurrent_activation="sigmoid"))
    s.add(Lt.gru(units=3, return_sequences=True, recurrent_activation="sigmoid"))
    s.add(Lt.bidirectional(layer=Lt.simple_rnn(units=2, return_sequences=True)))
    s.add(Lt.time_distributed(layer=Lt.dense(units=2)))
    s.add(Lt.global_average_pooling1d())
    s.add(Lt.dense(units=3))
    s.add(Lt.leaky_re_lu(alpha=0.2))
    s.add(Lt.prelu())
    return s, [np.random.default_rng(7).integers(0, 10, (3, 5)).astype("float32")]


def pt_graph():
    Lt = tf.layers
    inner_in = tf.input(shape=[4])
    inner = tf.model(inputs=inner_in, outputs=Lt.dense(units=3, activation="relu").apply(inner_in), name="inner")
    a, b = tf.input(shape=[4], name="a"), tf.input(shape=[4], name="b")
    shared = Lt.dense(units=4, name="shared")
    x, y = inner.apply(shared.apply(a)), inner.apply(shared.apply(b))
    out1 = Lt.dense(units=2, name="out1").apply(Lt.add().apply([x, y]))
    out2 = Lt.dense(units=1, name="out2").apply(Lt.multiply().apply([x, y]))
    rng = np.random.default_rng(8)
    return (tf.model(inputs=[a, b], outputs=[out1, out2]),
            [rng.random((2, 4), dtype="float32"), rng.random((2, 4), dtype="float32")])


def _pt_seq(*layers, shape, ints=None):
    def make():
        model = tf.sequential()
        for i, f in enumerate(layers):
            model.add(f(input_shape=list(shape)) if i == 0 else f())
        x = (np.random.default_rng(9).integers(0, ints, (2, *shape)).astype("float32") if ints
             else _rand(2, *shape, seed=len(layers)))
        return model, [x]
    return make


def pt_states():
    Lt = tf.layers
    inp, h0, c0 = tf.input(shape=[4, 3]), tf.input(shape=[2]), tf.input(shape=[2])
    seq = Lt.lstm(units=2, return_sequences=True, recurrent_activation="sigmoid").apply(inp, initial_state=[h0, c0])
    outs = [Lt.bidirectional(layer=Lt.gru(units=2, recurrent_activation="sigmoid", return_sequences=True),
                             merge_mode=m).apply(seq) for m in ("sum", "ave")]
    outs += Lt.bidirectional(layer=Lt.simple_rnn(units=2), merge_mode=None).apply(seq)
    return tf.model(inputs=[inp, h0, c0], outputs=outs), [_rand(2, 4, 3), _rand(2, 2, seed=1), _rand(2, 2, seed=2)]


def pt_merges():
    Lt = tf.layers
    a, b = tf.input(shape=[4]), tf.input(shape=[4])
    x = Lt.dense(units=4, activation="relu6").apply(a)
    y = Lt.dense(units=4, activation="softsign").apply(b)
    outs = [Lt.maximum().apply([x, y]), Lt.minimum().apply([x, y]), Lt.average().apply([x, y]),
            Lt.dot(axes=1).apply([x, y]), Lt.dot(axes=1, normalize=True).apply([x, y]), Lt.concatenate().apply([x, y])]
    return tf.model(inputs=[a, b], outputs=outs), [_rand(2, 4), _rand(2, 4, seed=1)]


def pt_nested_sequential():
    inner = tf.sequential([tf.layers.dense(units=3, input_shape=[4], activation="tanh"), tf.layers.dense(units=2)])
    return tf.sequential([inner, tf.layers.dense(units=1)]), [_rand(2, 4)]


PT_MODELS = {
    "cnn": pt_cnn, "rnn": pt_rnn, "graph": pt_graph, "states": pt_states, "merges": pt_merges,
    "nested_sequential": pt_nested_sequential,
    "conv3d": _pt_seq(lambda **k: tf.layers.conv3d(filters=2, kernel_size=2, **k),
                      lambda: tf.layers.max_pooling3d(pool_size=2), lambda: tf.layers.flatten(), shape=(4, 6, 6, 3)),
    "conv_lstm": _pt_seq(lambda **k: tf.layers.conv_lstm2d(filters=2, kernel_size=3, padding="same",
                                                           recurrent_activation="sigmoid", return_sequences=True, **k),
                         lambda: tf.layers.time_distributed(layer=tf.layers.conv2d(filters=2, kernel_size=3)),
                         lambda: tf.layers.time_distributed(layer=tf.layers.flatten()), shape=(3, 5, 5, 2)),
    "stacked_cells": _pt_seq(
        lambda **k: tf.layers.rnn(cell=[tf.layers.lstm_cell(units=3, recurrent_activation="sigmoid"),
                                        tf.layers.simple_rnn_cell(units=2)], return_sequences=True, **k),
        lambda: tf.layers.rnn(cell=tf.layers.gru_cell(units=2, recurrent_activation="sigmoid")), shape=(4, 3)),
    "noise": _pt_seq(lambda **k: tf.layers.spatial_dropout1d(rate=0.2, **k),
                     lambda: tf.layers.gaussian_noise(stddev=0.1),
                     lambda: tf.layers.gaussian_dropout(rate=0.1), lambda: tf.layers.alpha_dropout(rate=0.1),
                     lambda: tf.layers.global_max_pooling1d(), lambda: tf.layers.rescaling(scale=2.0, offset=1.0),
                     shape=(4, 3)),
    "convolutions": _pt_seq(
        lambda **k: tf.layers.conv2d_transpose(filters=3, kernel_size=2, strides=2, **k),
        lambda: tf.layers.cropping2d(cropping=[[1, 1], [2, 0]]), lambda: tf.layers.up_sampling2d(size=[2, 2]),
        lambda: tf.layers.re_lu(max_value=2.0), lambda: tf.layers.depthwise_conv2d(kernel_size=3, depth_multiplier=2),
        lambda: tf.layers.separable_conv2d(filters=3, kernel_size=2),
        lambda: tf.layers.zero_padding2d(padding=[[1, 0], [0, 2]]),
        lambda: tf.layers.conv2d(filters=4, kernel_size=3, strides=2, activation="elu"),
        lambda: tf.layers.global_max_pooling2d(), lambda: tf.layers.dense(units=12),
        lambda: tf.layers.reshape(target_shape=[2, 6]), lambda: tf.layers.permute(dims=[2, 1]),
        lambda: tf.layers.conv1d(filters=4, kernel_size=2, activation="swish"),
        lambda: tf.layers.max_pooling1d(pool_size=2), lambda: tf.layers.flatten(), lambda: tf.layers.repeat_vector(n=2),
        lambda: tf.layers.global_average_pooling1d(), lambda: tf.layers.softmax(), lambda: tf.layers.elu(),
        lambda: tf.layers.activation(activation="selu"), shape=(6, 6, 2)),
    "options": _pt_seq(
        lambda **k: tf.layers.dense(units=4, kernel_regularizer=tf.regularizers.l2(), kernel_initializer="heNormal",
                                    kernel_constraint=tf.constraints.max_norm(max_value=2.0), **k),
        lambda: tf.layers.batch_normalization(trainable=False), lambda: tf.layers.prelu(),
        lambda: tf.layers.leaky_re_lu(alpha=0.1), lambda: tf.layers.layer_normalization(), shape=(5,)),
    "embedding_mask": _pt_seq(lambda **k: tf.layers.embedding(input_dim=10, output_dim=3, mask_zero=True, **k),
                              lambda: tf.layers.simple_rnn(units=2, return_sequences=True), shape=(5,), ints=10),
    "category_encoding": _pt_seq(lambda **k: tf.layers.category_encoding(num_tokens=5, output_mode="multiHot", **k),
                                 shape=(3,), ints=5),
}


@pytest.mark.parametrize("ext", [".keras", ".h5"])
@pytest.mark.parametrize("name", sorted(PT_MODELS))
def test_pytfweb_models_saved_load_in_keras(tmp_path, name, ext):
    model, xs = PT_MODELS[name]()
    _randomize_pytfweb(model)
    want = _predict(model, xs)
    path = str(tmp_path / f"{name}{ext}")
    kf.save_keras(model, path)
    km = keras.saving.load_model(path)
    _assert_close(_outputs(km.predict(xs if len(xs) > 1 else xs[0], verbose=0)), want)
    again = kf.load_keras_model(path)
    _assert_close(_predict(again, xs), want)
    again.dispose()
    model.dispose()


def test_save_keras_refuses_what_keras_3_would_run_differently(tmp_path):
    s = tf.sequential()
    s.add(tf.layers.lstm(units=2, input_shape=[3, 2]))   # TF.js's default recurrent_activation: hard_sigmoid
    for ext in (".keras", ".h5"):
        path = tmp_path / f"m{ext}"
        with pytest.raises(ValueError, match="hard_sigmoid.*recurrent_activation='sigmoid'"):
            kf.save_keras(s, str(path))
        assert not path.exists()
    assert not list(tmp_path.iterdir())   # no temporary file left either
    with pytest.raises(ValueError, match=r"\.keras.*\.h5"):
        kf.save_keras(s, str(tmp_path / "m.bin"))
    s.dispose()


def test_keras_file_layout(tmp_path):
    """The .keras archive is Keras 3's: weights named by class and count, Keras's layer order."""
    model, _ = pt_graph()
    path = str(tmp_path / "g.keras")
    kf.save_keras(model, path)
    with zipfile.ZipFile(path) as zf:
        assert zf.namelist() == ["metadata.json", "config.json", "model.weights.h5"]
        config = json.loads(zf.read("config.json"))
        weights = zf.read("model.weights.h5")
    assert config["class_name"] == "Functional"
    names = [e["class_name"] for e in config["config"]["layers"]]
    assert names[:2] == ["InputLayer", "InputLayer"]
    add = next(e for e in config["config"]["layers"] if e["class_name"] == "Add")
    history = [a["config"]["keras_history"] for a in add["inbound_nodes"][0]["args"][0]]
    assert history == [["inner", 0, 0], ["inner", 1, 0]]   # Keras 3 counts a nested model's calls from 0
    with h5py.File(io.BytesIO(weights), "r") as f:
        assert f["layers/functional/layers/dense/vars/0"].shape == (4, 3)
        assert f["layers/dense/vars/0"].shape == (4, 4)   # 'shared', the first Dense in Keras's order
        assert sorted(f["layers"].keys()) == ["add", "dense", "dense_1", "dense_2", "functional", "input_layer",
                                              "input_layer_1", "multiply"]
    model.dispose()


# --- pytfweb convert --------------------------------------------------------------------------------
@pytest.mark.parametrize("quantize,atol", [(None, ATOL), ("float16", 2e-2), ("uint8", 0.15)])
def test_convert_keras_to_layers_model(tmp_path, capsys, quantize, atol):
    from pytfweb.cli import main
    km, xs = cnn()
    _randomize_keras(km)
    src = str(tmp_path / "cnn.keras")
    km.save(src)
    want = _outputs(km.predict(xs[0], verbose=0))
    dst = str(tmp_path / "web")
    argv = ["convert", src, dst] + (["--quantize", quantize] if quantize else [])
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert f"layers: {len(km.layers)}" in out and f"parameters: {km.count_params():,}" in out
    assert "model.json" in out and "group1-shard1of1.bin" in out
    manifest = json.loads((tmp_path / "web" / "model.json").read_text())["weightsManifest"]
    dtypes = {w.get("quantization", {}).get("dtype") for w in manifest[0]["weights"]}
    assert dtypes == {quantize}
    before = _num_tensors()
    model = load_layers_model_sync(dst)
    _assert_close(_predict(model, xs), want, atol=atol)
    model.dispose()
    assert _num_tensors() == before


def test_convert_round_trip_layers_model_to_keras_files(tmp_path, capsys):
    from pytfweb.cli import main
    km, xs = rnn()
    _randomize_keras(km)
    src = str(tmp_path / "rnn.h5")
    km.save(src)
    want = _outputs(km.predict(xs[0], verbose=0))
    assert main(["convert", src, str(tmp_path / "web" / "model.json")]) == 0
    assert main(["convert", str(tmp_path / "web"), str(tmp_path / "back.keras")]) == 0
    assert main(["convert", str(tmp_path / "back.keras"), str(tmp_path / "back.h5")]) == 0
    out = capsys.readouterr().out
    assert "back.keras" in out and "(Keras 3 .keras)" in out
    back = keras.saving.load_model(str(tmp_path / "back.h5"))
    _assert_close(_outputs(back.predict(xs[0], verbose=0)), want)


def test_convert_errors(tmp_path, capsys):
    from pytfweb.cli import main
    assert main(["convert", str(tmp_path / "nothing.keras"), str(tmp_path / "out")]) == 1
    assert "no such file" in capsys.readouterr().err
    km, _ = cnn()
    src = str(tmp_path / "m.keras")
    km.save(src)
    assert main(["convert", src, str(tmp_path / "m.h5"), "--quantize", "uint8"]) == 1
    assert "--quantize applies to TF.js layers models" in capsys.readouterr().err


# --- training config -------------------------------------------------------------------------------
@pytest.mark.parametrize("ext", [".keras", ".h5"])
def test_compiled_model_loads_compiled(tmp_path, ext):
    km = keras.Sequential([keras.Input((3,)), L.Dense(2)])
    km.compile(optimizer=keras.optimizers.Adam(0.01), loss="mse", metrics=["mae"])
    path = str(tmp_path / f"c{ext}")
    km.save(path)
    model = kf.load_keras_model(path)
    assert model.optimizer is not None and model.optimizer.get_class_name() == "Adam"
    assert model.optimizer.get_config()["learning_rate"] == pytest.approx(0.01)
    x, y = tf.ones([4, 3]), tf.zeros([4, 2])
    result = model.evaluate(x, y)
    for t in [x, y] + (result if isinstance(result, list) else [result]):
        t.dispose()
    model.dispose()
    plain = kf.load_keras_model(path, compile=False)
    assert plain.optimizer is None
    plain.dispose()


def test_untranslatable_training_config_warns_and_loads_uncompiled(tmp_path):
    km = keras.Sequential([keras.Input((3,)), L.Dense(2)])
    km.compile(optimizer="adam", loss=keras.losses.CategoricalCrossentropy(from_logits=True))
    path = str(tmp_path / "c.keras")
    km.save(path)
    before = _num_tensors()
    with pytest.warns(UserWarning, match="uncompiled.*from_logits"):
        model = kf.load_keras_model(path)
    assert model.optimizer is None
    model.dispose()
    assert _num_tensors() == before


# --- errors: clear, naming file/layer/weight, nothing left behind -------------------------------------------
def _fails(path, match, **kwargs):
    before = _num_tensors()
    with pytest.raises(ValueError, match=match) as info:
        kf.load_keras_model(str(path), **kwargs)
    assert _num_tensors() == before
    assert "load_keras_model" in str(info.value)
    return str(info.value)


def _rewrite_h5_in_keras(src, dst, edit):
    """Copy a .keras archive with its model.weights.h5 edited by edit(h5 file)."""
    with zipfile.ZipFile(src) as zf:
        members = {n: zf.read(n) for n in zf.namelist()}
    buf = io.BytesIO(members["model.weights.h5"])
    with h5py.File(buf, "r+") as f:
        edit(f)
    members["model.weights.h5"] = buf.getvalue()
    with zipfile.ZipFile(dst, "w") as zf:
        for n, data in members.items():
            zf.writestr(n, data)


def _dense_model(tmp_path, ext):
    km = keras.Sequential([keras.Input((3,)), L.Dense(4, name="d1"), L.Dense(2, name="d2")])
    path = tmp_path / f"d{ext}"
    km.save(str(path))
    return path


def test_lambda_layer_is_refused(tmp_path):
    inp = keras.Input((2,))
    km = keras.Model(inp, L.Dense(1)(L.Lambda(lambda t: t * 2, name="doubler")(inp)))
    for ext in (".keras", ".h5"):
        path = tmp_path / f"lam{ext}"
        km.save(str(path))
        msg = _fails(path, "Lambda")
        assert "doubler" in msg and str(path) in msg


def test_unknown_layer_class(tmp_path):
    @keras.saving.register_keras_serializable(package="mine")
    class Twice(L.Layer):
        def call(self, x):
            return x * 2
    km = keras.Sequential([keras.Input((2,)), Twice(name="twice"), L.Dense(1)])
    path = tmp_path / "custom.keras"
    km.save(str(path))
    msg = _fails(path, "unknown layer class 'Twice'")
    assert "twice" in msg and "custom_objects" in msg


def test_options_pytfweb_cannot_honour(tmp_path):
    cases = [
        (keras.Sequential([keras.Input((3, 2)), L.LSTM(2, recurrent_activation="hard_sigmoid")]), "hard_sigmoid"),
        (keras.Sequential([keras.Input((4, 4, 4)), L.Conv2D(4, 1, groups=2)]), "groups=2"),
        (keras.Sequential([keras.Input((3,)), L.Dense(2, activation="hard_silu")]), "hard_silu"),
    ]
    for i, (km, match) in enumerate(cases):
        path = tmp_path / f"opt{i}.keras"
        km.save(str(path))
        _fails(path, match)


def test_truncated_and_corrupt_files(tmp_path):
    for ext in (".keras", ".h5"):
        good = _dense_model(tmp_path, ext).read_bytes()
        for n, data in enumerate([good[: len(good) // 2], good[:100], b"", b"\0" * 500]):
            bad = tmp_path / f"bad{n}{ext}"
            bad.write_bytes(data)
            msg = _fails(bad, "truncated|damaged|not a|no such|cannot be read")
            assert str(bad) in msg
    not_keras = tmp_path / "model.bin"
    not_keras.write_bytes(b"hello world, not a model")
    _fails(not_keras, "not a Keras file")
    # a .keras archive whose weights file is cut short
    src = _dense_model(tmp_path, ".keras")
    with zipfile.ZipFile(src) as zf:
        members = {n: zf.read(n) for n in zf.namelist()}
    cut = tmp_path / "cut.keras"
    with zipfile.ZipFile(cut, "w") as zf:
        for name, data in members.items():
            zf.writestr(name, data[: len(data) // 3] if name == "model.weights.h5" else data)
    _fails(cut, "model.weights.h5.*(truncated|damaged|readable)")
    with zipfile.ZipFile(cut, "w") as zf:
        zf.writestr("config.json", "{not json")
    _fails(cut, "config.json is not valid JSON")


def test_missing_weights(tmp_path):
    src = _dense_model(tmp_path, ".keras")
    dst = tmp_path / "missing.keras"
    _rewrite_h5_in_keras(src, dst, lambda f: f.__delitem__("layers/dense_1/vars/1"))
    msg = _fails(dst, "layer 'd2' \\(Dense\\) has 2 weight\\(s\\) but the file has 1")
    assert "missing" in msg and str(dst) in msg
    h5 = _dense_model(tmp_path, ".h5")
    with h5py.File(h5, "r+") as f:
        del f["model_weights/d1"]
    _fails(h5, "layer 'd1' \\(Dense\\).*no group model_weights/d1")
    with zipfile.ZipFile(src) as zf:
        members = {n: zf.read(n) for n in zf.namelist() if n != "model.weights.h5"}
    with zipfile.ZipFile(dst, "w") as zf:
        for n, data in members.items():
            zf.writestr(n, data)
    _fails(dst, "no model.weights.h5")


def test_wrong_shapes_and_dtypes(tmp_path):
    src = _dense_model(tmp_path, ".keras")
    dst = tmp_path / "shape.keras"

    def reshape(f):
        del f["layers/dense/vars/0"]
        f["layers/dense/vars"].create_dataset("0", data=np.zeros((3, 5), "float32"))
    _rewrite_h5_in_keras(src, dst, reshape)
    msg = _fails(dst, r"shape \[3, 5\] in the file but the layer expects \[3, 4\]")
    assert "'d1'" in msg and "layers/dense/vars/0" in msg

    def retype(f):
        del f["layers/dense_1/vars/1"]
        f["layers/dense_1/vars"].create_dataset("1", data=np.zeros((2,), "int64"))
    _rewrite_h5_in_keras(src, dst, retype)
    _fails(dst, "dtype int64 in the file but the layer's variable is float32")

    h5 = _dense_model(tmp_path, ".h5")
    with h5py.File(h5, "r+") as f:
        g = f["model_weights/d2"]
        name = [n.decode() if isinstance(n, bytes) else n for n in g.attrs["weight_names"]][0]
        del g[name]
        g.create_dataset(name, data=np.zeros((7, 2), "float32"))
    _fails(h5, r"layer 'd2' \(Dense\).*shape \[7, 2\] in the file but the layer expects \[4, 2\]")


def test_weights_only_h5_and_links_outside_the_file(tmp_path):
    km = keras.Sequential([keras.Input((3,)), L.Dense(2, name="d")])
    weights_only = tmp_path / "w.weights.h5"
    km.save_weights(str(weights_only))
    legacy_weights = tmp_path / "legacy.h5"
    with h5py.File(legacy_weights, "w") as f:
        f.create_group("d")
    _fails(legacy_weights, "weights only")
    h5 = _dense_model(tmp_path, ".h5")
    other = tmp_path / "other.h5"
    with h5py.File(other, "w") as f:
        f.create_dataset("secret", data=np.ones((3, 4), "float32"))
    with h5py.File(h5, "r+") as f:
        g = f["model_weights/d1"]
        name = [n.decode() if isinstance(n, bytes) else n for n in g.attrs["weight_names"]][0]
        del g[name]
        g[name] = h5py.ExternalLink(str(other), "/secret")
    _fails(h5, "ExternalLink, a link to elsewhere")


def test_no_h5py_says_to_convert_first(tmp_path, monkeypatch):
    path = _dense_model(tmp_path, ".keras")
    monkeypatch.setitem(sys.modules, "h5py", None)
    with pytest.raises(ImportError, match="pytfweb convert") as e:
        kf.load_keras_model(str(path))
    assert "pip install 'pytfweb[keras]'" in str(e.value) and "pytfweb convert" in str(e.value)
    with pytest.raises(ImportError, match="pytfweb convert"):
        kf.save_keras(tf.sequential([tf.layers.dense(units=1, input_shape=[1])]), str(tmp_path / "x.keras"))


def test_long_attribute_lists_are_chunked_as_keras_does(tmp_path):
    names = [f"layer_{i:05d}_" + "x" * 40 for i in range(2000)]
    with h5py.File(tmp_path / "a.h5", "w") as f:
        kf._save_strings(f, "layer_names", names)
        assert "layer_names" not in f.attrs and "layer_names0" in f.attrs
    with h5py.File(tmp_path / "a.h5", "r") as f:
        assert kf._H5(h5py, f, "t", "a.h5").strings(f, "layer_names") == names


def test_config_translation_matches_tfjs_topology_shape():
    km, _ = cnn()
    topology = kf.keras_config_to_topology(json.loads(json.dumps(keras.saving.serialize_keras_object(km))), "3.15")
    assert topology["class_name"] == "Model"
    layers = {e["name"]: e for e in topology["config"]["layers"]}
    assert layers["img"]["config"]["batch_input_shape"] == [None, 8, 8, 3]
    dense_names = [e["name"] for e in topology["config"]["layers"] if e["class_name"] == "Dense"]
    add = next(e for e in topology["config"]["layers"] if e["class_name"] == "Add")
    assert add["inbound_nodes"] == [[[dense_names[0], 0, 0, {}], [dense_names[1], 0, 0, {}]]]
    assert topology["config"]["input_layers"] == [["img", 0, 0]]
    dense = layers[dense_names[0]]["config"]
    assert dense["kernel_initializer"] == {"class_name": "VarianceScaling",
                                           "config": {"scale": 1.0, "mode": "fan_avg", "distribution": "uniform",
                                                      "seed": None}}
    assert dense["dtype"] == "float32" and "quantization_config" not in dense and "module" not in json.dumps(topology)


def test_layers_keras_computes_otherwise_are_refused(tmp_path):
    cases = [
        (keras.Sequential([keras.Input((8, 8, 3)), L.Resizing(4, 4)]), "Resizing.*half-pixel"),
        (keras.Sequential([keras.Input((4, 4, 2)), L.UpSampling2D(2, interpolation="bilinear")]), "half-pixel"),
        (keras.Sequential([keras.Input((4, 3)), L.Masking(), L.Bidirectional(L.LSTM(2, return_sequences=True))]),
         r"layer '\w+' \(Bidirectional\) > layer 'forward_\w+' \(LSTM\): zero_output_for_mask"),
    ]
    for i, (km, match) in enumerate(cases):
        for ext in (".keras", ".h5"):
            path = tmp_path / f"diff{i}{ext}"
            km.save(str(path))
            _fails(path, match)
    saves = [
        (tf.sequential([tf.layers.thresholded_re_lu(input_shape=[3])]), "ThresholdedReLU"),
        (tf.sequential([tf.layers.resizing(height=2, width=2, input_shape=[4, 4, 1])]), "half-pixel"),
        (tf.sequential([tf.layers.dense(units=2, activation="gelu_new", input_shape=[3])]), "gelu"),
    ]
    for model, match in saves:
        with pytest.raises(ValueError, match=match):
            kf.save_keras(model, str(tmp_path / "s.keras"))
        model.dispose()
    assert not (tmp_path / "s.keras").exists()


def _write_tf_keras2_h5(model, path):
    """An .h5 file as tf.keras 2.x wrote them: the TF.js / Keras 2 topology as model_config (node
    lists, dtype strings, nested models' calls from node 1), names like 'dense/kernel:0', byte strings."""
    from pytfweb.layers import serialization
    topology = serialization.model_to_topology(model)
    with h5py.File(path, "w") as f:
        f.attrs["keras_version"] = b"2.15.0"
        f.attrs["backend"] = b"tensorflow"
        f.attrs["model_config"] = json.dumps({"class_name": topology["class_name"],
                                              "config": topology["config"]}).encode()
        root = f.create_group("model_weights")
        root.attrs["layer_names"] = np.array([layer.name.encode() for layer in model.layers])
        for layer in model.layers:
            group = root.create_group(layer.name)
            weights = list(layer.trainable_weights) + list(layer.non_trainable_weights)
            names = [f"{layer.name}/w{i}/{w.name.split('/')[-1]}:0" for i, w in enumerate(weights)]
            group.attrs["weight_names"] = np.array([n.encode() for n in names]) if names else np.asarray([])
            for n, w in zip(names, weights):
                group.create_dataset(n, data=w.numpy())


@pytest.mark.parametrize("name", ["rnn_hard_sigmoid", "graph", "cnn"])
def test_tf_keras_2_h5_files_load(tmp_path, name):
    if name == "rnn_hard_sigmoid":   # TF.js's and tf.keras 2's hard_sigmoid agree
        model = tf.sequential([tf.layers.lstm(units=3, input_shape=[4, 2], return_sequences=True),
                               tf.layers.gru(units=2), tf.layers.dense(units=2)])
        xs = [_rand(2, 4, 2)]
    else:
        model, xs = PT_MODELS[name]()
    _randomize_pytfweb(model)
    want = _predict(model, xs)
    path = tmp_path / "tf2.h5"
    _write_tf_keras2_h5(model, str(path))
    before = _num_tensors()
    loaded = kf.load_keras_model(str(path))
    _assert_close(_predict(loaded, xs), want)
    loaded.dispose()
    assert _num_tensors() == before
    model.dispose()


_TFJS = os.path.join(os.path.dirname(__file__), "..", "..", "node_modules", "@tensorflow", "tfjs")
_NODE_PREDICT = r"""
const [tfjs, dir] = process.argv.slice(1);
const tf = require(tfjs), fs = require('fs'), path = require('path');
const handler = {load: async () => {
  const j = JSON.parse(fs.readFileSync(path.join(dir, 'model.json'), 'utf8'));
  const specs = [], bufs = [];
  for (const g of j.weightsManifest) {
    specs.push(...g.weights);
    for (const p of g.paths) bufs.push(fs.readFileSync(path.join(dir, p)));
  }
  const all = Buffer.concat(bufs);
  return {modelTopology: j.modelTopology, weightSpecs: specs, format: j.format,
          weightData: all.buffer.slice(all.byteOffset, all.byteOffset + all.length)};
}};
(async () => {
  await tf.setBackend('cpu');
  const inputs = JSON.parse(fs.readFileSync(0, 'utf8'));
  const m = await tf.loadLayersModel(handler);
  const xs = inputs.map(x => tf.tensor(x.values, x.shape));
  let ys = m.predict(xs.length === 1 ? xs[0] : xs);
  ys = Array.isArray(ys) ? ys : [ys];
  process.stdout.write(JSON.stringify(ys.map(y => ({shape: y.shape, values: Array.from(y.dataSync())}))));
})().catch(e => { console.error(e.stack || e); process.exit(1); });
"""


@pytest.mark.parametrize("name", ["cnn", "keepdims", "rnn", "graph"])
def test_converted_keras_models_run_in_tfjs(tmp_path, name):
    """Keras file -> pytfweb convert -> TensorFlow.js 4.22 (under node) predicts as Keras."""
    import shutil
    import subprocess
    if not os.path.isdir(_TFJS) or shutil.which("node") is None:
        pytest.skip("node and node_modules/@tensorflow/tfjs (npm ci) are needed to run TensorFlow.js")
    km, xs = MODELS[name]()
    _randomize_keras(km)
    src = str(tmp_path / f"{name}.keras")
    km.save(src)
    want = _outputs(km.predict(xs if len(xs) > 1 else xs[0], verbose=0))
    kc.convert(src, str(tmp_path / "web"), print_fn=None)
    payload = json.dumps([{"shape": list(x.shape), "values": x.ravel().tolist()} for x in xs])
    r = subprocess.run(["node", "-e", _NODE_PREDICT, os.path.abspath(_TFJS), str(tmp_path / "web")], input=payload,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-3000:]
    got = [np.asarray(y["values"], "float32").reshape(y["shape"]) for y in json.loads(r.stdout)]
    _assert_close(got, want)


def test_custom_layers_through_custom_objects_or_registration(tmp_path):
    @keras.saving.register_keras_serializable(package="mine")
    class Doubler(L.Layer):
        def call(self, x):
            return x * 2
    km = keras.Sequential([keras.Input((2,)), L.Dense(3), Doubler(name="doubler")])
    _randomize_keras(km)
    path = str(tmp_path / "custom.keras")
    km.save(path)
    x = _rand(2, 2)
    want = _outputs(km.predict(x, verbose=0))

    class PtTwice(tf.layers.Layer):
        class_name = "Doubler"

        def call(self, inputs, training=False):
            return inputs * 2
    model = kf.load_keras_model(path, custom_objects={"Doubler": PtTwice})
    _assert_close(_predict(model, [x]), want)
    model.dispose()
    from pytfweb.layers import serialization
    tf.serialization.register_class(PtTwice, pkg="test")
    try:
        model = kf.load_keras_model(path)
        _assert_close(_predict(model, [x]), want)
        model.dispose()
    finally:
        for key in ("Doubler", "test>Doubler"):
            serialization._REGISTERED.pop(key, None)
        serialization._REGISTERED_NAMES.pop(PtTwice, None)
