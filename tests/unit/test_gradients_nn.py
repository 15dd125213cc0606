"""Gradients of Softmax, LogSoftmax and OneHot on the cpu backend, and of the nn ops built from
other kernels (log_sum_exp, moments): numeric checks over ranks and axes, exact values against
numpy, large logits, second order, what the tape keeps, and memory."""
import functools
import numpy as np
import pytest

import pytfweb as tf
from pytfweb.kernels import get_gradient
from pytfweb.testing import numeric_gradient_error

from .helpers import assert_tensor
from .helpers import assert_gradients_match_numeric, gradients_at

rng = np.random.default_rng(14)
TOL = 1e-2      # numeric_gradient_error is relative; float32 centred differences with eps 1e-2


def floats(*shape, scale=2.0):
    return (rng.standard_normal(size=shape) * scale).astype(np.float32)


check = functools.partial(assert_gradients_match_numeric, tol=TOL)


# Non-last axes run the kernel between two transposes: their gradient is Transpose's.
CASES = [((5,), -1), ((3, 4), -1), ((2, 3, 4), -1), ((3, 4), 1), ((2, 3, 4), 2), ((1, 2, 1, 3), -1), ((4, 1), -1)]


@pytest.mark.parametrize("shape, axis", CASES, ids=str)
def test_softmax_numeric(shape, axis):
    check(lambda x: tf.softmax(x, axis), floats(*shape))


@pytest.mark.parametrize("shape, axis", CASES, ids=str)
def test_log_softmax_numeric(shape, axis):
    check(lambda x: tf.log_softmax(x, axis), floats(*shape))


def test_composites_numeric():
    check(lambda x: tf.log_sum_exp(x, 1), floats(3, 4))
    check(lambda x: tf.log_sum_exp(x, [0, 2], keep_dims=True), floats(2, 3, 2))
    check(lambda x: tf.moments(x, 0).variance + tf.moments(x, 0).mean, floats(4, 3))
    # a cross-entropy, as a model would write it
    labels = tf.one_hot(tf.tensor([2, 0, 1], dtype="int32"), 3)
    check(lambda x: tf.neg(tf.sum(tf.mul(tf.cast(labels, "float32"), tf.log_softmax(x)), -1)), floats(3, 3))
    labels.dispose()


def test_exact_against_numpy():
    x = floats(3, 5)
    dy = floats(3, 5)
    xt, dyt = tf.tensor(x), tf.tensor(dy)
    x64, dy64 = x.astype(np.float64), dy.astype(np.float64)
    y = np.exp(x64 - x64.max(1, keepdims=True))
    y /= y.sum(1, keepdims=True)
    g = tf.grad(tf.softmax)(xt, dyt)
    np.testing.assert_allclose(g.numpy(), y * dy64 - (y * dy64).sum(1, keepdims=True) * y, rtol=1e-4, atol=1e-6)
    g = tf.grad(tf.log_softmax)(xt, dyt)
    np.testing.assert_allclose(g.numpy(), dy64 - dy64.sum(1, keepdims=True) * y, rtol=1e-4, atol=1e-6)


def test_large_logits_stay_finite():
    x = tf.tensor([[1000.0, 1001.0, 999.0], [-1000.0, -1001.0, -999.0]])
    for op in (tf.softmax, tf.log_softmax):
        g = tf.grad(lambda t: tf.sum(op(t) * tf.tensor([1.0, 2.0, 3.0])))(x)
        assert np.all(np.isfinite(g.numpy()))
    # the gradient of a row's log_softmax summed is 1 - 3 softmax (shift-invariant: as for small logits)
    g = tf.grad(lambda t: tf.sum(tf.log_softmax(t)))(x).numpy()
    s = np.exp([[0.0, 1.0, -1.0], [0.0, -1.0, 1.0]])
    np.testing.assert_allclose(g, 1 - 3 * s / s.sum(1, keepdims=True), rtol=1e-5, atol=1e-6)


def test_one_hot_gives_its_indices_zeros():
    # TF.js (one_hot_test's 'has gradient', 'gradient when indices is 3d'): float32 zeros
    for shape in ([3], [1, 2, 2]):
        indices = tf.tensor(np.arange(np.prod(shape)).reshape(shape) % 3, dtype="int32")
        da = tf.grad(lambda i: tf.one_hot(i.clone(), 3).clone())(indices, tf.ones(shape + [3]))
        assert da.dtype == "float32" and da.shape == tuple(shape)
        assert_tensor(da, np.zeros(shape))
        tf.dispose([indices, da])
    x = tf.tensor([0.3, 1.7])
    # the indices come from x through a cast: only the other path carries a gradient
    g = tf.grad(lambda t: tf.sum(tf.one_hot(tf.cast(t, "int32"), 3, 1, 0, "float32")) + tf.sum(t * 2.0))(x)
    assert_tensor(g, [2.0, 2.0])


def test_second_order():
    x = floats(4)
    xt = tf.tensor(x)
    w = rng.uniform(0.5, 1.5, size=4).astype(np.float32)
    wt = tf.tensor(w)
    # H = diag(s) - s s^T for softmax s: the gradient of v . grad(w . softmax) against float64
    # centred differences of the first gradient's closed form. (Not float32 ones, as
    # numeric_gradient_error takes: the first gradient s * (w - s . w) is a difference of terms
    # ~|w|, so each output carries float32 rounding of ~1e-7 absolute, not relative to itself;
    # over a step of 1e-2 that is ~1e-5 on second derivatives of 1e-4..1e-2, beyond 1% for the
    # small ones. The analytic ones sum terms of up to ~1 in float32 too: atol 1e-6, 16 ulps of 1.)
    v = rng.uniform(0.5, 1.5, size=4)
    vt = tf.tensor(v.astype(np.float32))

    def softmax64(u):
        e = np.exp(u - u.max())
        return e / e.sum()

    first = {tf.softmax: lambda u: softmax64(u) * (w - softmax64(u) @ w),
             tf.log_softmax: lambda u: w - softmax64(u) * w.sum()}
    for op, first64 in first.items():
        x64, h = x.astype(np.float64), 1e-5
        want = [(first64(x64 + h * e) - first64(x64 - h * e)) @ v / (2 * h) for e in np.eye(4)]
        got = tf.grad(lambda t: tf.sum(tf.grad(lambda u: tf.sum(op(u) * wt))(t) * vt))(xt)
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-4, atol=1e-6)
        got.dispose()
    # log_sum_exp: gradient softmax, whose sum is 1: the second derivative summed is 0
    g = tf.grad(lambda t: tf.sum(tf.grad(lambda u: tf.log_sum_exp(u))(t)))(xt)
    np.testing.assert_allclose(g.numpy(), np.zeros(4), atol=1e-6)
    tf.dispose([xt, wt, g])


def test_only_outputs_are_saved_and_nothing_leaks():
    for kernel in ("Softmax", "LogSoftmax"):
        config = get_gradient(kernel)
        assert (config.save_inputs, config.save_outputs) == (False, True)
    x = tf.tensor(floats(2, 3, 4))
    before = tf.memory()
    for axis in (-1, 2):
        tf.dispose(tf.grad(lambda t: tf.sum(tf.softmax(t, axis) * t))(x))
        tf.dispose(tf.grad(lambda t: tf.sum(tf.log_softmax(t, axis)))(x))
    tf.dispose(tf.grad(lambda t: tf.sum(tf.grad(lambda u: tf.sum(tf.softmax(u) * u))(t)))(x))
    after = tf.memory()
    assert (after.num_tensors, after.num_bytes) == (before.num_tensors, before.num_bytes)
