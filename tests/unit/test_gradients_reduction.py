"""Gradients of the reduction kernels (Sum, Mean, Max, Min, Prod, ArgMax, ArgMin, All, Any) on
the cpu backend: numeric checks over axes and keep_dims, exact values against numpy, ties,
zeros in products, dtypes, second order, what the tape keeps, and memory."""
import functools
import numpy as np
import pytest

import pytfweb as tf
from pytfweb.kernels import get_gradient
from pytfweb.testing import numeric_gradient_error

from .helpers import assert_tensor
from .helpers import assert_gradients_match_numeric, gradients_at

rng = np.random.default_rng(12)
TOL = 1e-2      # numeric_gradient_error is relative; float32 centred differences with eps 1e-2


check = functools.partial(assert_gradients_match_numeric, tol=TOL)


def distinct(*shape):
    """Values at least 0.1 apart from each other (max/min have kinks at ties), in [-3, 3)."""
    n = int(np.prod(shape))
    return (rng.permutation(n) * 0.1 - 0.05 * n).astype(np.float32).reshape(shape)


def grad_of(f, x, dy=None):
    xt = tf.tensor(x)
    out = f(xt)
    dy_t = tf.tensor(dy if dy is not None else np.ones(out.shape, np.float32))
    out.dispose()
    g = tf.grad(f)(xt, dy_t)
    result = g.numpy()
    tf.dispose([xt, g, dy_t])
    return result


# (shape, axis) pairs: all axes, one axis, several, negative, none reduced, rank 0
AXES = [((5,), None), ((3, 4), None), ((3, 4), 0), ((3, 4), 1), ((2, 3, 4), [0, 2]), ((2, 3, 4), -1),
        ((2, 3, 4), [1, 2]), ((2, 1, 3, 2), [0, 3]), ((3, 4), []), ((), None), ((1, 5, 1), 1)]
REDUCTIONS = {"Sum": tf.sum, "Mean": tf.mean, "Max": tf.max, "Min": tf.min, "Prod": tf.prod}


@pytest.mark.parametrize("kernel", sorted(REDUCTIONS))
@pytest.mark.parametrize("shape, axis", AXES, ids=str)
@pytest.mark.parametrize("keep_dims", [False, True])
def test_numeric(kernel, shape, axis, keep_dims):
    op = REDUCTIONS[kernel]
    x = distinct(*shape)
    if kernel == "Prod":     # magnitudes near 1, so that long products stay well scaled
        x = (np.sign(x) * (0.6 + np.abs(x) / 5)).astype(np.float32)
    check(lambda t: op(t, axis, keep_dims), x)


def test_exact_sum_mean():
    x = distinct(2, 3, 4)
    dy = rng.uniform(0.5, 2.0, size=(2, 4)).astype(np.float32)
    np.testing.assert_allclose(grad_of(lambda t: tf.sum(t, 1), x, dy), np.broadcast_to(dy[:, None, :], x.shape))
    np.testing.assert_allclose(grad_of(lambda t: tf.mean(t, 1), x, dy), np.broadcast_to(dy[:, None, :] / 3, x.shape),
                               rtol=1e-6)
    np.testing.assert_allclose(grad_of(tf.mean, x), np.full(x.shape, 1 / 24), rtol=1e-6)
    dy_kept = rng.uniform(size=(1, 3, 1)).astype(np.float32)
    np.testing.assert_allclose(grad_of(lambda t: tf.sum(t, [0, 2], keep_dims=True), x, dy_kept),
                               np.broadcast_to(dy_kept, x.shape))


def test_int32_and_bool_inputs_get_float32_gradients():
    i = tf.tensor([[1, 2], [3, 4]], dtype="int32")
    for op, expect in [(tf.sum, [[1, 1], [1, 1]]), (tf.mean, [[0.25] * 2] * 2), (tf.prod, [[24, 12], [8, 6]]),
                       (tf.max, [[0, 0], [0, 1]])]:
        g = tf.grad(lambda t: op(t))(i)
        assert g.dtype == "float32"
        assert_tensor(g, expect)
        g.dispose()


def test_max_min_ties_all_get_dy():
    x = np.float32([[3.0, 1.0, 3.0], [2.0, 2.0, 2.0]])
    assert grad_of(lambda t: tf.max(t, 1), x).tolist() == [[1, 0, 1], [1, 1, 1]]    # as TF.js
    assert grad_of(lambda t: tf.min(t, 1), x).tolist() == [[0, 1, 0], [1, 1, 1]]
    assert grad_of(tf.max, x).tolist() == [[1, 0, 1], [0, 0, 0]]


def test_max_with_nan_gives_zeros():
    x = np.float32([1.0, np.nan, 3.0])
    assert grad_of(tf.max, x).tolist() == [0, 0, 0]   # no element equals NaN, as TF.js


@pytest.mark.parametrize("x, axis", [
    ([2.0, 0.0, 3.0, 5.0], None),                 # one zero: only its own gradient is non-zero
    ([2.0, 0.0, 3.0, 0.0], None),                 # two zeros: all gradients are zero
    ([[1.0, 2.0, 3.0], [0.0, -1.0, 4.0]], 1),
    ([[1.0, 2.0, 3.0], [0.0, -1.0, 4.0]], 0),
    ([[[1.0, -2.0], [0.5, 3.0]], [[0.0, 2.0], [1.5, -1.0]]], [0, 2]),
    ([[1.5, 2.0, -0.5, 3.0, 1.0, 2.0, -1.0, 0.5, 4.0]], 1),     # 9: the doubling scan's odd length
])
def test_prod_exact_with_zeros(x, axis):
    x = np.float32(x)
    got = grad_of(lambda t: tf.prod(t, axis), x)
    axes = tuple(range(x.ndim)) if axis is None else tuple(np.atleast_1d(axis))
    # the product of every other element of the reduced group, by brute force
    expect = np.empty_like(x)
    for idx in np.ndindex(x.shape):
        others = x.copy()
        others[idx] = 1.0
        group = tuple(slice(None) if a in axes else idx[a] for a in range(x.ndim))
        expect[idx] = np.prod(others[group])
    np.testing.assert_allclose(got, expect, rtol=1e-6)


def test_arg_max_min_give_zeros_all_any_nothing():
    x = tf.tensor([[1.0, 5.0], [4.0, 2.0]])
    # arg_max(x, 1) = [1, 0], arg_min = [0, 1]; the product's gradient is the index, broadcast
    # along the rows; the index itself passes zeros, as TF.js
    for op, expect in ((tf.arg_max, [[1.0, 0.0], [1.0, 0.0]]), (tf.arg_min, [[0.0, 1.0], [0.0, 1.0]])):
        g = tf.grad(lambda t: tf.sum(tf.cast(op(t, 1), "float32") * t))(x)
        assert_tensor(g, expect)
        g.dispose()
    assert_tensor(tf.grad(lambda t: tf.sum(tf.cast(tf.arg_min(t), "float32")))(x), [[0.0, 0.0], [0.0, 0.0]])
    assert get_gradient("All").fn(None, None) == [None]
    assert get_gradient("Any").fn(None, None) == [None]
    # a mask from tf.all passes no gradient through, but the rest does
    g = tf.grad(lambda t: tf.sum(tf.where(tf.all(tf.greater(t, 0), 1, keep_dims=True), t, t * 2.0)))(x)
    assert_tensor(g, [[1.0, 1.0], [1.0, 1.0]])


def test_empty_inputs():
    x = tf.zeros([2, 0, 3])
    for op in (tf.sum, tf.mean, tf.prod, tf.max):
        g = tf.grad(lambda t: tf.sum(op(t, 1)))(x)
        assert g.shape == (2, 0, 3) and g.dtype == "float32"
        g.dispose()


# --- second order ----------------------------------------------------------------------------

def test_second_order():
    x = distinct(3, 4) + np.float32(0.3)
    xt = tf.tensor(x)
    # d/dx sum(d/dx sum(mean(x^3, 1))) = 6 x / 4
    g = tf.grad(lambda t: tf.sum(tf.grad(lambda u: tf.sum(tf.mean(u * u * u, 1)))(t)))(xt)
    np.testing.assert_allclose(g.numpy(), 6 * x / 4, rtol=1e-5)
    # the square of a sum: d2/dx_i dx_j (sum x)^2 = 2: summed over j, 2 * 4 along the rows
    g = tf.grad(lambda t: tf.sum(tf.grad(lambda u: tf.sum(tf.square(tf.sum(u, 1))))(t)))(xt)
    np.testing.assert_allclose(g.numpy(), np.full(x.shape, 8.0))
    # max: the gradient is a mask, whose own gradient is zero; max(x)^2 has second derivative 2 at the max
    g = tf.grad(lambda t: tf.sum(tf.grad(lambda u: tf.square(tf.max(u)))(t)))(xt)
    expect = np.zeros_like(x)
    expect[np.unravel_index(np.argmax(x), x.shape)] = 2.0
    np.testing.assert_allclose(g.numpy(), expect)


def test_second_order_of_prod():
    x = np.float32([1.5, -2.0, 0.5])
    xt = tf.tensor(x)
    # d/dx_i sum_j d(prod)/dx_j = sum_{j != i} prod of the others of {i, j}
    g = tf.grad(lambda t: tf.sum(tf.grad(lambda u: tf.prod(u))(t)))(xt)
    expect = [x[2] + x[1], x[2] + x[0], x[1] + x[0]]
    np.testing.assert_allclose(g.numpy(), expect, rtol=1e-6)


# --- what the tape keeps, memory ----------------------------------------------------------------

def test_only_what_a_gradient_reads_is_saved():
    expect = {"Sum": (False, False), "Mean": (False, False), "Max": (True, True), "Min": (True, True),
              "Prod": (True, False), "ArgMax": (False, False), "ArgMin": (False, False)}
    for kernel, (inputs, outputs) in expect.items():
        config = get_gradient(kernel)
        assert (config.save_inputs, config.save_outputs) == (inputs, outputs), kernel


def test_gradients_leak_nothing():
    x = tf.tensor(distinct(2, 3, 4))
    before = tf.memory()
    for op in REDUCTIONS.values():
        tf.dispose(tf.grad(lambda t: tf.sum(op(t, [0, 2])))(x))
        tf.dispose(tf.grad(lambda t: op(t))(x))
    tf.dispose(tf.grad(lambda t: tf.sum(tf.grad(lambda u: tf.prod(u))(t)))(x))
    after = tf.memory()
    assert (after.num_tensors, after.num_bytes) == (before.num_tensors, before.num_bytes)
