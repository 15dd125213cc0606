"""random_gamma, random_uniform_int, random_standard_normal: TF.js's values for a seed (from
TF.js 4.22 run in Node), seeded determinism, statistics, dtypes and errors."""
import numpy as np
import pytest

import pytfweb as tf

from .helpers import assert_raises


def test_seeded_values_match_tfjs():
    np.testing.assert_allclose(tf.random_gamma([6], 2.5, 1.5, seed=7).numpy(),
                               [5.102457523345947, 0.7465471029281616, 2.5475616455078125, 1.1607803106307983,
                                3.187159538269043, 0.5889443159103394], rtol=1e-6)
    np.testing.assert_allclose(tf.random_gamma([5], 0.5, 2, seed="abc").numpy(),
                               [2.627227306365967, 0.6540303230285645, 0.09410938620567322, 0.23912999033927917,
                                0.28261807560920715], rtol=1e-6)
    g = tf.random_gamma([5], 4, 1, dtype="int32", seed=42)
    assert g.dtype == "int32" and g.numpy().tolist() == [2, 2, 2, 4, 4]
    u = tf.random_uniform_int([6], -5, 5, seed=11)
    assert u.dtype == "int32" and u.numpy().tolist() == [3, -4, 3, -1, -2, 1]
    np.testing.assert_allclose(tf.random_standard_normal([3], seed=1).numpy(),
                               [0.07275114208459854, -1.0539796352386475, -0.4268375337123871], rtol=1e-6)


@pytest.mark.parametrize("make", [
    lambda seed: tf.random_gamma([2, 50], 1.5, 2, seed=seed),
    lambda seed: tf.random_uniform_int([100], 0, 10, seed=seed),
    lambda seed: tf.random_standard_normal([3, 4], seed=seed),
])
def test_seeded_determinism(make):
    a, b, c = make(3), make(3), make(4)
    assert a.shape == b.shape
    np.testing.assert_array_equal(a.numpy(), b.numpy())
    assert not np.array_equal(a.numpy(), c.numpy())
    # no seed: fresh draws each time
    assert not np.array_equal(make(None).numpy(), make(None).numpy())


@pytest.mark.parametrize("alpha, beta", [(0.5, 1.0), (1.0, 2.0), (3.0, 0.5), (9.0, 1.0)])
def test_gamma_statistics(alpha, beta):
    x = tf.random_gamma([20000], alpha, beta, seed=alpha * 10 + beta).numpy().astype(np.float64)
    assert (x > 0).all()
    # TF.js multiplies the draws by beta (a scale): mean alpha * beta, variance alpha * beta^2
    mean, var = alpha * beta, alpha * beta * beta
    assert abs(x.mean() - mean) < 4 * np.sqrt(var / x.size)
    assert abs(x.var() / var - 1) < 0.1


def test_uniform_int_and_standard_normal_statistics():
    u = tf.random_uniform_int([30000], -3, 4, seed=5).numpy()
    assert u.min() >= -3 and u.max() <= 3
    # TF.js truncates a uniform float in [-3, 4) toward zero: 0 collects (-1, 1), and -3 comes
    # only from exactly -3.0.
    counts = np.bincount(u + 3, minlength=7) / u.size
    np.testing.assert_allclose(counts, np.array([0, 1, 1, 2, 1, 1, 1]) / 7, atol=0.01)
    n = tf.random_standard_normal([20000], seed=9).numpy()
    assert abs(n.mean()) < 0.03 and abs(n.std() - 1) < 0.03
    assert tf.random_standard_normal([2], dtype="int32", seed=1).dtype == "int32"


def test_errors():
    assert_raises(ValueError, lambda: tf.random_gamma([2], 0), "random_gamma", "'alpha'")
    assert_raises(ValueError, lambda: tf.random_gamma([2], 1, -1), "random_gamma", "'beta'")
    assert_raises(TypeError, lambda: tf.random_gamma([2], 1, dtype="bool"), "random_gamma", "'dtype'")
    assert_raises(ValueError, lambda: tf.random_gamma([-1], 1), "random_gamma", "'shape'")
    assert_raises(ValueError, lambda: tf.random_uniform_int([2], 5, 5), "random_uniform_int", "'maxval'")
    assert_raises(TypeError, lambda: tf.random_uniform_int([2], 0.5, 5), "random_uniform_int", "'minval'")
    assert_raises(TypeError, lambda: tf.random_standard_normal([2], dtype="bool"), "random_normal", "'dtype'")
