"""batch_norm (+2d/3d/4d), local_response_normalization, dropout and multinomial on the cpu
backend: against numpy (and values from TF.js 4.22), gradients, errors."""
import functools
import numpy as np
import pytest

import pytfweb as tf
from pytfweb.testing import numeric_gradient_error

from .helpers import assert_raises, assert_tensor
from .helpers import assert_gradients_match_numeric, gradients_at

rng = np.random.default_rng(8)
TOL = 1e-2


def floats(*shape, low=-2.0, high=2.0):
    return rng.uniform(low, high, size=shape).astype(np.float32)


check = functools.partial(assert_gradients_match_numeric, tol=TOL)


# --- batch_norm ------------------------------------------------------------------------------

def reference_batch_norm(x, mean, variance, offset=0, scale=1, eps=0.001):
    x64 = [np.asarray(a, np.float64) for a in (x, mean, variance, offset, scale)]
    x, mean, variance, offset, scale = x64
    return (x - mean) * scale / np.sqrt(variance + eps) + offset


BN_CASES = [  # x shape, parameter shape
    ((2, 3, 4, 5), (5,)), ((2, 3, 4, 5), (1, 3, 1, 5)), ((2, 3, 4, 5), (2, 3, 4, 5)),
    ((6, 5), (5,)), ((6, 5), (6, 5)), ((3, 4, 2), (2,)), ((7,), (7,)), ((), ()), ((4,), (1,)),
]


@pytest.mark.parametrize("shape, param", BN_CASES, ids=str)
def test_batch_norm_against_numpy(shape, param):
    x, m, o, s = floats(*shape), floats(*param), floats(*param), floats(*param)
    v = floats(*param, low=0.1)
    assert_tensor(tf.batch_norm(x, m, v, o, s), reference_batch_norm(x, m, v, o, s), "float32", rtol=1e-5)
    assert_tensor(tf.batch_norm(x, m, v, variance_epsilon=0.5), reference_batch_norm(x, m, v, eps=0.5))
    assert_tensor(tf.batch_norm(x, m, v, scale=s), reference_batch_norm(x, m, v, scale=s), rtol=1e-5)


def test_batch_norm_nd_and_dtypes():
    x4, p = floats(2, 2, 3, 4), floats(4, low=0.5)
    assert_tensor(tf.batch_norm4d(x4, p, p, p, p), reference_batch_norm(x4, p, p, p, p), rtol=1e-5)
    x3 = floats(2, 3, 4)
    assert_tensor(tf.batch_norm3d(x3, p, p), reference_batch_norm(x3, p, p), rtol=1e-5)
    x2 = floats(5, 4)
    assert_tensor(tf.batch_norm2d(x2, p, p, None, p), reference_batch_norm(x2, p, p, 0, p), rtol=1e-5)
    ints = tf.tensor([[1, 2], [3, 4]], dtype="int32")
    out = tf.batch_norm(ints, [1, 1], [1, 1])
    assert out.dtype == "float32"
    assert_tensor(out, reference_batch_norm([[1, 2], [3, 4]], [1, 1], [1, 1]))
    flags = tf.batch_norm(tf.tensor([True, False]), 0.5, 4.0)   # bool read as 0 and 1
    assert_tensor(flags, reference_batch_norm([1.0, 0.0], 0.5, 4.0), "float32")
    x5, p3 = floats(2, 1, 2, 2, 3), floats(3, low=0.5)   # rank 5: ops instead of the kernel
    assert_tensor(tf.batch_norm(x5, p3, p3, p3, p3), reference_batch_norm(x5, p3, p3, p3, p3), rtol=1e-5)
    # zero variance with zero epsilon: x == mean gives NaN, others +-inf (as numpy)
    assert_tensor(tf.batch_norm([1.0, 2.0], [1.0, 1.0], [0.0, 0.0], variance_epsilon=0), [np.nan, np.inf])


@pytest.mark.parametrize("shape, param", [((2, 3, 4, 5), (5,)), ((2, 3, 2, 5), (1, 3, 1, 5)), ((6, 5), (6, 5)),
                                          ((4,), (1,))], ids=str)
def test_batch_norm_gradients_numeric(shape, param):
    x, m, o, s = floats(*shape), floats(*param), floats(*param), floats(*param)
    v = floats(*param, low=0.3)
    check(lambda x, m, v, o, s: tf.batch_norm(x, m, v, o, s), x, m, v, o, s)
    check(lambda x, m, v: tf.batch_norm(x, m, v, variance_epsilon=0.1), x, m, v)


def test_batch_norm_gradients_exact():
    x, m, v, o, s = floats(3, 4), floats(4), floats(4, low=0.3), floats(4), floats(4)
    dy = floats(3, 4)
    grads = tf.grads(lambda *a: tf.batch_norm(*a))([x, m, v, o, s], tf.tensor(dy))
    x64, m64, v64, s64, dy64 = (a.astype(np.float64) for a in (x, m, v, s, dy))
    r = 1 / np.sqrt(v64 + 0.001)
    want = [dy64 * s64 * r, (-dy64 * s64 * r).sum(0), (dy64 * s64 * (x64 - m64) * -0.5 * r ** 3).sum(0),
            dy64.sum(0), (dy64 * (x64 - m64) * r).sum(0)]
    for g, w in zip(grads, want):
        np.testing.assert_allclose(g.numpy(), w, rtol=1e-4, atol=1e-5)


# --- local_response_normalization ----------------------------------------------------------

def reference_lrn(x, radius=5, bias=1.0, alpha=1.0, beta=0.5):
    x = np.asarray(x, np.float64)
    depth = x.shape[-1]
    out = np.empty_like(x)
    for d in range(depth):
        window = x[..., max(0, d - radius):min(depth, d + radius + 1)]
        out[..., d] = x[..., d] * (bias + alpha * np.sum(window ** 2, -1)) ** -beta
    return out


@pytest.mark.parametrize("shape, args", [((2, 3, 2, 7), ()), ((2, 3, 2, 7), (2, 1.5, 0.7, 0.75)),
                                         ((1, 2, 2, 3), (0, 2.0, 1.0, 1.0)), ((4, 3, 3), (10,)),
                                         ((1, 1, 1, 1), (1, 0.5, 2.0, 2.0))], ids=str)
def test_lrn_against_numpy(shape, args):
    x = floats(*shape)
    assert_tensor(tf.local_response_normalization(x, *args), reference_lrn(x, *args), "float32", rtol=1e-5)
    check(lambda t: tf.local_response_normalization(t, *args), x)


def test_lrn_values_from_tfjs():
    x = np.sin(np.arange(120) * 1.7).astype(np.float32).reshape(2, 5, 4, 3)
    np.testing.assert_allclose(tf.local_response_normalization(x, 2, 1.5, 0.7, 0.75).numpy().ravel()[:8],
                               [0, 0.5426744222640991, -0.139841228723526, -0.4374540150165558,
                                0.2334720641374588, 0.37729084491729736, -0.3391708731651306,
                                -0.29955947399139404], rtol=1e-5, atol=1e-7)


# --- dropout, multinomial -------------------------------------------------------------------

def test_dropout():
    x = tf.ones([200, 50])
    y = tf.dropout(x, 0.3, seed=4).numpy()
    assert set(np.unique(y).tolist()) <= {0.0, np.float32(1 / 0.7)}
    assert abs((y > 0).mean() - 0.7) < 0.03
    np.testing.assert_array_equal(y, tf.dropout(x, 0.3, seed=4).numpy())
    rows = tf.dropout(x, 0.5, noise_shape=[200, 1], seed=1).numpy()   # whole rows kept or dropped
    assert np.all((rows == 0).all(1) | (rows == 2).all(1))
    cols = tf.dropout(x, 0.5, noise_shape=[None, 1], seed=2).numpy()   # None: x's size
    assert np.all((cols == 0).all(1) | (cols == 2).all(1))
    same = tf.dropout(x, 0)
    assert same is not x and np.array_equal(same.numpy(), x.numpy())
    g = tf.grad(lambda t: tf.dropout(t, 0.5, seed=3))(x).numpy()
    assert set(np.unique(g).tolist()) <= {0.0, 2.0}


def test_multinomial_matches_tfjs():
    """Printed by TF.js 4.22's cpu backend for these seeds: Alea(seed) per row."""
    out = tf.multinomial(tf.tensor([[0.0, 1.0, 2.0], [5.0, 0.0, 0.0]]), 8, seed=3)
    assert out.dtype == "int32" and out.shape == (2, 8)
    assert out.numpy().tolist() == [[2, 2, 0, 2, 1, 1, 1, 2], [0, 0, 0, 0, 0, 0, 0, 0]]
    assert tf.multinomial([0.5, 0.5], 5, seed=7, normalized=True).numpy().tolist() == [0, 0, 0, 1, 0]


def test_multinomial_distribution():
    probs = np.array([0.1, 0.6, 0.3], np.float32)
    draws = tf.multinomial(np.log(probs), 20000, seed=11).numpy()
    np.testing.assert_allclose(np.bincount(draws, minlength=3) / 20000, probs, atol=0.015)
    assert tf.multinomial(tf.tensor([[0.0, 0.0, 1.0]]), 30, normalized=True).numpy().tolist() == [[2] * 30]
    assert tf.multinomial([1.0, 2.0], 0, seed=1).shape == (0,)


# --- errors -------------------------------------------------------------------------------------

def test_errors():
    x, v3, v1, flags = tf.zeros([2, 3]), tf.ones([1, 1, 3]), tf.ones([3]), tf.zeros([2], "bool")
    x4, x5 = tf.zeros([1, 1, 1, 3]), tf.zeros([1, 1, 1, 1, 2])
    assert_raises(ValueError, lambda: tf.batch_norm(x, v3, v1), "batch_norm", "'variance'", "same rank")
    assert_raises(ValueError, lambda: tf.batch_norm(x, [1.0, 2.0], [1.0, 2.0]), "batch_norm", "'mean'", "broadcast")
    assert_raises(ValueError, lambda: tf.batch_norm(x5, [1.0, 2.0, 3.0], [1.0, 1.0, 1.0]), "batch_norm", "'mean'")
    assert_raises(ValueError, lambda: tf.batch_norm2d(v3, v1, v1), "batch_norm2d", "'x'", "rank 2")
    assert_raises(ValueError, lambda: tf.batch_norm4d(x4, v3, v3), "batch_norm4d", "'mean'")
    assert_raises(TypeError, lambda: tf.batch_norm(x, v1, v1, variance_epsilon="x"), "'variance_epsilon'")
    assert_raises(ValueError, lambda: tf.local_response_normalization(x), "local_response_normalization", "rank")
    assert_raises(TypeError, lambda: tf.local_response_normalization(v3, 1.5), "'depth_radius'")
    assert_raises(ValueError, lambda: tf.local_response_normalization(v3, -1), "'depth_radius'")
    assert_raises(TypeError, lambda: tf.dropout(flags, 0.5), "dropout", "'x'", "float32")
    assert_raises(ValueError, lambda: tf.dropout(x, 1.0), "dropout", "'rate'")
    assert_raises(ValueError, lambda: tf.dropout(x, 0.5, [2, -1]), "dropout", "'noise_shape'")
    assert_raises(ValueError, lambda: tf.multinomial(v3, 2), "multinomial", "'logits'", "rank")
    assert_raises(ValueError, lambda: tf.multinomial([1.0], 2), "multinomial", "at least 2")
    assert_raises(ValueError, lambda: tf.multinomial(v1, -1), "multinomial", "'num_samples'")
    assert_raises(TypeError, lambda: tf.multinomial(v1, 2, normalized=1), "multinomial", "'normalized'")
