"""Preprocessing layers (CenterCrop, Resizing, CategoryEncoding, RandomWidth) and StackedRNNCells
(tf.layers.rnn(cell=[...])) on the cpu backend: values against numpy, output shapes, errors."""
import numpy as np
import pytest

import pytfweb as tf
from tests.unit.helpers import assert_raises, assert_tensor
from tests.unit.test_layers_recurrent import _np_lstm, _np_simple


def _img(rng, *shape):
    return rng.uniform(-1, 1, size=shape).astype(np.float32)


def _np_bilinear_aligned(x, out_h, out_w):
    """Bilinear resize with align_corners=True of [b, h, w, c]."""
    b, h, w, c = x.shape
    ys = np.arange(out_h) * ((h - 1) / (out_h - 1) if out_h > 1 else 0)
    xs = np.arange(out_w) * ((w - 1) / (out_w - 1) if out_w > 1 else 0)
    y0 = np.floor(ys).astype(int)
    x0 = np.floor(xs).astype(int)
    y1, x1 = np.minimum(y0 + 1, h - 1), np.minimum(x0 + 1, w - 1)
    dy, dx = (ys - y0)[None, :, None, None], (xs - x0)[None, None, :, None]
    top = x[:, y0][:, :, x0] * (1 - dx) + x[:, y0][:, :, x1] * dx
    bot = x[:, y1][:, :, x0] * (1 - dx) + x[:, y1][:, :, x1] * dx
    return top * (1 - dy) + bot * dy


# --- CenterCrop --------------------------------------------------------------------------------------
@pytest.mark.parametrize("in_hw,out_hw,offset", [((5, 6), (3, 4), (1, 1)), ((4, 4), (2, 2), (1, 1)),
                                                 ((6, 5), (6, 4), (0, 1)),   # width buffer 0 -> 1 (TF.js)
                                                 ((7, 7), (7, 7), (0, 0)), ((8, 9), (3, 5), (2, 2))])
def test_center_crop_matches_slice(in_hw, out_hw, offset, rng):
    x = _img(rng, 2, *in_hw, 3)
    (h, w), (oy, ox) = out_hw, offset
    layer = tf.layers.center_crop(height=h, width=w)
    assert_tensor(layer.apply(tf.tensor(x)), x[:, oy:oy + h, ox:ox + w], "float32")
    # an unbatched image
    assert_tensor(layer.apply(tf.tensor(x[0])), x[0, oy:oy + h, ox:ox + w], "float32")


def test_center_crop_keeps_dtype_and_upsizes_bilinear(rng):
    xi = rng.integers(0, 100, size=(1, 5, 5, 1)).astype(np.int32)
    out = tf.layers.center_crop(height=3, width=3).apply(tf.tensor(xi))
    assert_tensor(out, xi[:, 1:4, 1:4], "int32")
    x = _img(rng, 2, 3, 3, 2)
    big = tf.layers.center_crop(height=5, width=6).apply(tf.tensor(x))
    assert_tensor(big, tf.image.resize_bilinear(tf.tensor(x), [5, 6]).numpy(), "float32")


def test_center_crop_shapes_and_errors():
    inp = tf.input(shape=[10, 12, 3])
    assert tf.layers.center_crop(height=4, width=5).apply(inp).shape == (None, 4, 5, 3)
    assert tf.layers.center_crop(height=4, width=5).compute_output_shape((8, 8, 1)) == (4, 5, 1)
    assert_raises(ValueError, lambda: tf.layers.center_crop(height=0, width=2), "height")
    assert_raises(ValueError, lambda: tf.layers.center_crop(height=2), "width")
    flat = tf.zeros([4, 4])
    assert_raises(ValueError, lambda: tf.layers.center_crop(height=2, width=2).apply(flat), "rank")
    cfg = tf.layers.center_crop(height=2, width=3).get_config()
    assert cfg["height"] == 2 and cfg["width"] == 3


# --- Resizing ------------------------------------------------------------------------------------
def test_resizing_bilinear_aligns_corners_by_default(rng):
    x = _img(rng, 2, 4, 5, 3)
    out = tf.layers.resizing(height=7, width=3).apply(tf.tensor(x))
    assert_tensor(out, _np_bilinear_aligned(x.astype(np.float64), 7, 3), "float32", rtol=1e-5, atol=1e-5)
    unbatched = tf.layers.resizing(height=7, width=3).apply(tf.tensor(x[1]))
    assert_tensor(unbatched, _np_bilinear_aligned(x[1:].astype(np.float64), 7, 3)[0], rtol=1e-5, atol=1e-5)


def test_resizing_crop_to_aspect_ratio_and_nearest(rng):
    x = _img(rng, 1, 4, 4, 2)
    plain = tf.layers.resizing(height=2, width=2, crop_to_aspect_ratio=True).apply(tf.tensor(x))
    assert_tensor(plain, tf.image.resize_bilinear(tf.tensor(x), [2, 2], False).numpy())
    near = tf.layers.resizing(height=8, width=8, interpolation="nearest").apply(tf.tensor(x))
    assert_tensor(near, tf.image.resize_nearest_neighbor(tf.tensor(x), [8, 8], True).numpy())
    # integer images come out float32
    xi = tf.tensor(np.arange(16, dtype=np.int32).reshape(1, 4, 4, 1))
    assert tf.layers.resizing(height=2, width=2).apply(xi).dtype == "float32"


def test_resizing_shapes_gradient_and_errors(rng):
    inp = tf.input(shape=[10, 12, 3])
    assert tf.layers.resizing(height=4, width=5).apply(inp).shape == (None, 4, 5, 3)
    x = tf.tensor(_img(rng, 1, 3, 3, 1))
    g = tf.grad(lambda t: tf.sum(tf.layers.resizing(height=5, width=5).apply(t)))(x)
    assert g.shape == (1, 3, 3, 1)
    np.testing.assert_allclose(g.numpy().sum(), 25, rtol=1e-5)
    assert_raises(ValueError, lambda: tf.layers.resizing(height=2, width=2, interpolation="bicubic"),
                  "Invalid interpolation parameter: bicubic")
    assert_raises(ValueError, lambda: tf.layers.resizing(height=None, width=2), "height")


# --- CategoryEncoding --------------------------------------------------------------------------------
def test_category_encoding_multi_hot_one_hot_count():
    x = np.array([[0, 1, 1], [3, 3, 2]], dtype=np.int32)
    multi = tf.layers.category_encoding(num_tokens=5).apply(tf.tensor(x))
    assert_tensor(multi, [[1, 1, 0, 0, 0], [0, 0, 1, 1, 0]], "float32")
    count = tf.layers.category_encoding(num_tokens=5, output_mode="count").apply(tf.tensor(x))
    assert_tensor(count, [[1, 2, 0, 0, 0], [0, 0, 1, 2, 0]], "float32")
    w = np.array([[0.5, 1, 2], [1, 3, 4]], dtype=np.float32)
    weighted = tf.layers.category_encoding(num_tokens=4, output_mode="count").apply(tf.tensor(x),
                                                                                   count_weights=tf.tensor(w))
    assert_tensor(weighted, [[0.5, 3, 0, 0], [0, 0, 4, 4]])
    one = tf.layers.category_encoding(num_tokens=4, output_mode="oneHot").apply(tf.tensor([3, 0, 2]))
    assert_tensor(one, np.eye(4)[[3, 0, 2]], "float32")
    # floats are cast to int32; [n, 1] one-hot stays rank 2
    one_col = tf.layers.category_encoding(num_tokens=3, output_mode="one_hot").apply(tf.tensor([[1.0], [2.0]]))
    assert_tensor(one_col, [[0, 1, 0], [0, 0, 1]])


def test_category_encoding_shapes_and_errors():
    assert tf.layers.category_encoding(num_tokens=6).apply(tf.input(shape=[3])).shape == (None, 6)
    assert tf.layers.category_encoding(num_tokens=6, output_mode="oneHot").compute_output_shape((None,)) == (None, 6)
    assert tf.layers.category_encoding(num_tokens=6, output_mode="oneHot").compute_output_shape((4, 1)) == (4, 6)
    layer = tf.layers.category_encoding(num_tokens=3)
    big, neg, cube, zero, one = (tf.tensor([0, 3]), tf.tensor([-1, 2]), tf.zeros([2, 2, 2], "int32"),
                                 tf.tensor([0]), tf.tensor([1.0]))
    assert_raises(ValueError, lambda: layer.apply(big), "numTokens=3")
    assert_raises(ValueError, lambda: layer.apply(neg), "numTokens=3")
    assert_raises(ValueError, lambda: layer.apply(cube), "maximum output rank is 2")
    assert_raises(ValueError, lambda: layer.apply(zero, count_weights=one), "countWeights is not used")
    assert_raises(ValueError, lambda: tf.layers.category_encoding(num_tokens=3, output_mode="tfIdf"), "output_mode")
    assert_raises(ValueError, lambda: tf.layers.category_encoding(num_tokens=0), "num_tokens")


# --- RandomWidth -------------------------------------------------------------------------------------
def test_random_width_seeded_factor_and_values(rng):
    x = _img(rng, 2, 4, 10, 3)
    seed = 7
    factor = tf.random_uniform([1], 0.5, 1.5, "float32", seed).numpy()[0]
    expected_w = int(np.floor(factor * 10 + 0.5))
    layer = tf.layers.random_width(factor=0.5, seed=seed)
    out = layer.apply(tf.tensor(x))
    assert out.shape == (2, 4, expected_w, 3)
    assert_tensor(out, tf.image.resize_bilinear(tf.tensor(x), [4, expected_w]).numpy())
    # the seed counts up per call, as TF.js's RandomSeed
    factor2 = tf.random_uniform([1], 0.5, 1.5, "float32", seed + 1).numpy()[0]
    assert layer.apply(tf.tensor(x)).shape[2] == int(np.floor(factor2 * 10 + 0.5))
    near = tf.layers.random_width(factor=[0.5, 0.5], interpolation="nearest").apply(tf.tensor(x[0]))
    assert_tensor(near, tf.image.resize_nearest_neighbor(tf.tensor(x[:1]), [4, 15]).numpy()[0])


def test_random_width_shapes_and_errors():
    assert tf.layers.random_width(factor=0.2).apply(tf.input(shape=[4, 6, 3])).shape == (None, 4, None, 3)
    assert_raises(ValueError, lambda: tf.layers.random_width(factor=-0.5), "Invalid factor")
    assert_raises(ValueError, lambda: tf.layers.random_width(factor=[0.1, 0.2, 0.3]), "Invalid factor")
    assert_raises(ValueError, lambda: tf.layers.random_width(factor=[-1.5, 0.2]), "larger than -1")
    assert_raises(ValueError, lambda: tf.layers.random_width(factor=[0.5, 0.2]), "upper bound less than lower")
    assert_raises(ValueError, lambda: tf.layers.random_width(factor=0.2, interpolation="area"), "area")


# --- StackedRNNCells -------------------------------------------------------------------------------
def test_rnn_with_a_list_of_cells_matches_numpy(rng):
    x = _img(rng, 2, 5, 3)
    w1 = [_img(rng, 3, 16) * 0.5, _img(rng, 4, 16) * 0.5, _img(rng, 16) * 0.5]   # lstm, 4 units
    w2 = [_img(rng, 4, 2), _img(rng, 2, 2), _img(rng, 2)]                         # simple rnn, 2 units
    layer = tf.layers.rnn(cell=[tf.layers.lstm_cell(units=4), tf.layers.simple_rnn_cell(units=2)],
                          return_sequences=True, return_state=True)
    layer.apply(tf.tensor(x))
    assert isinstance(layer.cell, tf.layers.StackedRNNCells)
    assert [tuple(w.shape) for w in layer.weights] == [(3, 16), (4, 16), (16,), (4, 2), (2, 2), (2,)]
    assert layer.count_params() == 4 * (3 * 4 + 4 * 4 + 4) + (4 * 2 + 2 * 2 + 2)
    layer.set_weights(w1 + w2)
    s1 = [np.zeros((2, 4))] * 2
    s2 = [np.zeros((2, 2))]
    seq = []
    for t in range(5):
        h1, s1 = _np_lstm(x[:, t].astype(np.float64), s1, *w1)
        h2, s2 = _np_simple(h1, s2, *w2)
        seq.append(h2)
    out, *states = layer.apply(tf.tensor(x))
    assert_tensor(out, np.stack(seq, 1), rtol=1e-4, atol=1e-5)
    assert len(states) == 3   # reverse cell order: [h2, h1, c1]
    for got, want in zip(states, s2 + s1):
        assert_tensor(got, want, rtol=1e-4, atol=1e-5)
    assert layer.cell.state_size == (2, 4, 4)


def test_stacked_cells_symbolic_shapes_gradients_and_errors(rng):
    layer = tf.layers.rnn(cell=tf.layers.stacked_rnn_cells(cells=[tf.layers.gru_cell(units=3),
                                                                  tf.layers.lstm_cell(units=2)]),
                          return_state=True)
    outs = layer.apply(tf.input(shape=[4, 5]))
    assert [o.shape for o in outs] == [(None, 2), (None, 2), (None, 2), (None, 3)]
    x = tf.tensor(_img(rng, 2, 4, 5))
    _, grads = tf.variable_grads(lambda: tf.sum(layer.apply(x)[0]))
    assert len(grads) == 6 and all(float(tf.sum(tf.abs(g)).numpy()) > 0 for g in grads.values())
    layer.trainable = False
    assert layer.trainable_weights == [] and len(layer.non_trainable_weights) == 6
    cfg = layer.cell.get_config()
    assert [c["class_name"] for c in cfg["cells"]] == ["GRUCell", "LSTMCell"]
    assert_raises(ValueError, lambda: tf.layers.stacked_rnn_cells(cells=[]), "cells")
