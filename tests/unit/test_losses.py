"""tf.losses on the cpu backend: every loss under every reduction, with and without (broadcast)
weights, against numpy formulas written out here; TF.js's own test values; gradients; errors."""
import numpy as np
import pytest

import pytfweb as tf
from pytfweb.testing import numeric_gradient_error

from .helpers import assert_raises, assert_tensor

rng = np.random.default_rng(8)
R = tf.Reduction


def _sigmoid_ce(z, x):
    return np.maximum(x, 0) - x * z + np.log1p(np.exp(-np.abs(x)))


def _softmax_ce(z, x):
    log_softmax = x - x.max(-1, keepdims=True)
    log_softmax = log_softmax - np.log(np.exp(log_softmax).sum(-1, keepdims=True))
    return -(z * log_softmax).sum(-1)


def _huber(z, p, delta=1.0):
    e = np.abs(p - z)
    return np.where(e <= delta, 0.5 * e * e, delta * (e - 0.5 * delta))


# name -> (call(labels, predictions, weights, reduction), numpy elementwise losses(labels, predictions))
LOSSES = {
    "absolute_difference": (lambda z, p, w, r: tf.losses.absolute_difference(z, p, w, r),
                            lambda z, p: np.abs(z - p)),
    "mean_squared_error": (lambda z, p, w, r: tf.losses.mean_squared_error(z, p, w, r),
                           lambda z, p: (z - p) ** 2),
    "hinge_loss": (lambda z, p, w, r: tf.losses.hinge_loss(z, p, w, r),
                   lambda z, p: np.maximum(0, 1 - (2 * z - 1) * p)),
    "huber_loss": (lambda z, p, w, r: tf.losses.huber_loss(z, p, w, 1.0, r), _huber),
    "huber_loss delta": (lambda z, p, w, r: tf.losses.huber_loss(z, p, w, 0.3, r),
                         lambda z, p: _huber(z, p, 0.3)),
    "log_loss": (lambda z, p, w, r: tf.losses.log_loss(z, p, w, 1e-7, r),
                 lambda z, p: -z * np.log(p + 1e-7) - (1 - z) * np.log(1 - p + 1e-7)),
    "sigmoid_cross_entropy": (lambda z, p, w, r: tf.losses.sigmoid_cross_entropy(z, p, w, 0, r), _sigmoid_ce),
    "sigmoid_cross_entropy smoothed": (lambda z, p, w, r: tf.losses.sigmoid_cross_entropy(z, p, w, 0.2, r),
                                       lambda z, p: _sigmoid_ce(z * 0.8 + 0.1, p)),
    "softmax_cross_entropy": (lambda z, p, w, r: tf.losses.softmax_cross_entropy(z, p, w, 0, r), _softmax_ce),
    "softmax_cross_entropy smoothed": (lambda z, p, w, r: tf.losses.softmax_cross_entropy(z, p, w, 0.3, r),
                                       lambda z, p: _softmax_ce(z * 0.7 + 0.3 / z.shape[1], p)),
    "cosine_distance": (lambda z, p, w, r: tf.losses.cosine_distance(z, p, 1, w, r),
                        lambda z, p: 1 - (z * p).sum(1, keepdims=True)),
    "compute_weighted_loss": (lambda z, p, w, r: tf.losses.compute_weighted_loss(p, w, r), lambda z, p: p),
}


def _reduce(losses, weights, reduction):
    """computeWeightedLoss as TF.js defines it, in numpy."""
    w = np.ones_like(losses) if weights is None else weights
    weighted = losses * w
    if reduction == R.NONE:
        return weighted
    if reduction == R.SUM:
        return weighted.sum()
    if reduction == R.MEAN:
        if weights is None:
            return weighted.mean()
        return weighted.sum() / w.sum() / max(1, losses.size / w.size)
    return weighted.sum() / np.count_nonzero(np.broadcast_to(w, losses.shape))


def _inputs(name):
    """labels, predictions of [4, 3] suited to the loss (probabilities for log_loss, ...)."""
    labels = (rng.uniform(size=(4, 3)) < 0.5).astype(np.float32)
    if name.startswith("softmax"):
        labels = np.eye(3, dtype=np.float32)[rng.integers(0, 3, 4)]
    if name == "log_loss":
        return labels, rng.uniform(0.05, 0.95, size=(4, 3)).astype(np.float32)
    if name == "cosine_distance":
        unit = rng.normal(size=(2, 4, 3)).astype(np.float32)
        unit /= np.linalg.norm(unit, axis=2, keepdims=True)
        return unit[0], unit[1]
    return labels, rng.uniform(-3, 3, size=(4, 3)).astype(np.float32)


def _weights(name, kind):
    per_example = name.startswith("softmax") or name == "cosine_distance"   # losses of shape [4] / [4, 1]
    shape = {"none": None, "full": (4,) if name.startswith("softmax") else (4, 1) if per_example else (4, 3),
             "broadcast": (1,) if per_example else (1, 3)}[kind]
    if shape is None:
        return None
    w = rng.uniform(0.1, 2, size=shape).astype(np.float32)
    if w.size > 1:
        w.reshape(-1)[0] = 0   # a zero weight: SUM_BY_NONZERO_WEIGHTS must not count it
    return w


@pytest.mark.parametrize("reduction", list(R), ids=[r.name for r in R])
@pytest.mark.parametrize("weights_kind", ["none", "full", "broadcast"])
@pytest.mark.parametrize("name", list(LOSSES))
def test_against_numpy(name, weights_kind, reduction):
    call, formula = LOSSES[name]
    z, p = _inputs(name)
    w = _weights(name, weights_kind)
    losses = formula(z.astype(np.float64), p.astype(np.float64))
    expected = _reduce(losses, w, reduction)
    got = call(z, p, w, reduction)
    assert_tensor(got, np.asarray(expected, np.float32), "float32", rtol=1e-4, atol=1e-5)


def test_default_reduction_and_tfjs_values():
    z = [[0, 0, 1], [1, 0, 0], [0, 1, 0]]
    x = [[10.0, -10.0, -10.0], [-10.0, 10.0, -10.0], [-10.0, -10.0, 10.0]]
    w = [[0.1, 0.2, 0.3]]
    # Values from TF.js 4.22's own tests.
    assert_tensor(tf.losses.softmax_cross_entropy(z, x), 20.0)
    assert_tensor(tf.losses.softmax_cross_entropy(z, x, w, 0.3, R.MEAN), 18.0)
    assert_tensor(tf.losses.sigmoid_cross_entropy(z, x), 6.6667123, rtol=1e-6)
    assert_tensor(tf.losses.sigmoid_cross_entropy(z, x, w, 0.3, R.MEAN), 6.1667128, rtol=1e-6)
    assert_tensor(tf.losses.compute_weighted_loss(z, w), 0.06666667, rtol=1e-6)
    assert_tensor(tf.losses.compute_weighted_loss([1.0, 2, 3], [0.1, 0, 0.3]), (0.1 + 0.9) / 2)
    assert tf.losses.Reduction is tf.Reduction and int(R.SUM_BY_NONZERO_WEIGHTS) == 3
    assert_tensor(tf.losses.mean_squared_error([1, 2], [3, 5]), 6.5)        # int labels become float32


def floats_43():
    return rng.uniform(-2, 2, size=(4, 3)).astype(np.float32)


GRADIENT_CASES = {
    "absolute_difference": lambda z, p: tf.losses.absolute_difference(z, p),
    "mean_squared_error": lambda z, p: tf.losses.mean_squared_error(z, p, None, R.SUM),
    "hinge_loss": lambda z, p: tf.losses.hinge_loss(z, p, None, R.NONE),
    "huber_loss": lambda z, p: tf.losses.huber_loss(z, p, None, 0.5),
    "log_loss": lambda z, p: tf.losses.log_loss(z, tf.sigmoid(p)),
    "sigmoid_cross_entropy": lambda z, p: tf.losses.sigmoid_cross_entropy(z, p, None, 0.1),
    "cosine_distance": lambda z, p: tf.losses.cosine_distance(z, p, 1),
}


@pytest.mark.parametrize("name", list(GRADIENT_CASES))
def test_gradients(name):
    z = tf.tensor(rng.uniform(0.1, 0.9, size=(4, 3)).astype(np.float32))
    # predictions away from the kinks (|e| = delta, margin 1, e = 0)
    p = tf.tensor((rng.uniform(1.3, 2.5, size=(4, 3)) * rng.choice([-1, 1], size=(4, 3))).astype(np.float32))
    err = numeric_gradient_error(GRADIENT_CASES[name], [z, p])
    assert err < 2e-2, f"{name}: numeric gradient error {err}"


def test_softmax_cross_entropy_gradient_is_tfjs_closed_form():
    # TF.js's hand-written gradient: exact for the logits; for the labels it is
    # dy * (labels - softmax), not the calculus's -log_softmax, so only the logits are checked
    # numerically. And for the logits it is dy * (softmax - labels), the calculus's
    # dy * (softmax * sum(labels) - labels) only where each row of labels sums to 1 (as these do,
    # and still do after label smoothing): rows summing to 0.9 leave it 0.1 * softmax away.
    z = tf.tensor(np.eye(3, dtype=np.float32)[[0, 2, 1, 1]] * 0.7 + 0.1)
    err = numeric_gradient_error(
        lambda p: tf.losses.softmax_cross_entropy(z, p, [0.5, 1, 2, 0], 0.1, R.MEAN), [tf.tensor(floats_43())])
    assert err < 2e-2
    z = np.eye(3, dtype=np.float32)[[0, 2]]
    x = rng.normal(size=(2, 3)).astype(np.float32)
    gz, gx = tf.grads(lambda a, b: tf.losses.softmax_cross_entropy(a, b, None, 0, R.SUM))([tf.tensor(z), tf.tensor(x)])
    softmax = np.exp(x) / np.exp(x).sum(1, keepdims=True)
    np.testing.assert_allclose(gx.numpy(), softmax - z, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(gz.numpy(), z - softmax, rtol=1e-5, atol=1e-6)


def test_errors():
    a, b = np.zeros((2, 3), np.float32), np.zeros((3, 2), np.float32)
    assert_raises(ValueError, lambda: tf.losses.absolute_difference(a, b), "absolute_difference", "'labels'",
                  "'predictions'", "same shape")
    assert_raises(ValueError, lambda: tf.losses.softmax_cross_entropy(a, b), "softmax_cross_entropy",
                  "'onehot_labels'")
    assert_raises(ValueError, lambda: tf.losses.mean_squared_error(a, a, np.ones(4, np.float32)),
                  "mean_squared_error", "'weights'")
    assert_raises(ValueError, lambda: tf.losses.hinge_loss(a, a, None, 7), "hinge_loss", "'reduction'")
    assert_raises(TypeError, lambda: tf.losses.huber_loss(a, a, None, "1"), "huber_loss", "'delta'")
    assert_raises(TypeError, lambda: tf.losses.absolute_difference({}, a), "absolute_difference", "'labels'")
    assert_raises(ValueError, lambda: tf.losses.sigmoid_cross_entropy(a, a, None, 2), "sigmoid_cross_entropy",
                  "'label_smoothing'")
    assert_raises(ValueError, lambda: tf.losses.cosine_distance(a, a, 2), "sum", "'axis'")
