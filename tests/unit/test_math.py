"""prelu, add_n, cumsum, cumprod, norm, euclidean_norm, bincount, dense_bincount on the cpu
backend: values against numpy written out directly, dtypes, edge values, errors, gradients."""
import functools
import math

import numpy as np
import pytest

import pytfweb as tf
from pytfweb.kernels import get_gradient
from pytfweb.testing import numeric_gradient_error

from .helpers import ALL_SHAPES, BROADCAST_PAIRS, EDGE_FLOATS, assert_no_leak, assert_raises, assert_tensor, rand
from .helpers import assert_gradients_match_numeric, gradients_at

rng = np.random.default_rng(21)


_check_gradient = functools.partial(assert_gradients_match_numeric, tol=1e-2)


_grads = gradients_at


# --- prelu -----------------------------------------------------------------------------------

def test_prelu_broadcasting_and_dtypes():
    for sa, sb in BROADCAST_PAIRS:
        x, alpha = rand(rng, sa), rand(rng, sb, low=0, high=1)
        assert_tensor(tf.prelu(tf.tensor(x), tf.tensor(alpha)), np.where(x < 0, alpha * x, x), "float32")
    assert_tensor(tf.prelu(EDGE_FLOATS, 0.5), np.where(EDGE_FLOATS < 0, 0.5 * EDGE_FLOATS, EDGE_FLOATS))
    assert_tensor(tf.prelu(tf.tensor([-2, 3], dtype="int32"), 0.25), [-0.5, 3.0], "float32")


def test_prelu_errors():
    assert_raises(ValueError, lambda: tf.prelu([1.0, 2.0], [0.1, 0.2, 0.3]), "prelu", "[2]", "[3]")
    assert_raises(TypeError, lambda: tf.prelu({}, 0.1), "prelu", "'x'")
    assert_raises(TypeError, lambda: tf.prelu([1.0], "a"), "prelu", "'alpha'")


def test_prelu_gradients():
    for sa, sb in BROADCAST_PAIRS:
        x = (rng.uniform(0.2, 3, size=sa) * rng.choice([-1, 1], size=sa)).astype(np.float32)
        _check_gradient(tf.prelu, x, rand(rng, sb, low=0.1, high=0.9))
    x, alpha = np.float32([[-2.0, 0.0, 3.0], [1.0, -1.0, -0.5]]), np.float32([0.1, 0.2, 0.3])
    dx, dalpha = _grads(tf.prelu, x, alpha)
    np.testing.assert_allclose(dx, np.where(x > 0, 1, np.broadcast_to(alpha, x.shape)))   # x = 0: alpha
    np.testing.assert_allclose(dalpha, np.where(x > 0, 0, x).sum(0))


# --- add_n ------------------------------------------------------------------------------------------

def test_add_n_values_and_dtypes():
    for shape in ALL_SHAPES:
        arrays = [rand(rng, shape) for _ in range(4)]
        assert_tensor(tf.add_n([tf.tensor(a) for a in arrays]), sum(arrays), "float32")
    ints = [rand(rng, (2, 3), "int32", -100, 100) for _ in range(3)]
    assert_tensor(tf.add_n([tf.tensor(a) for a in ints]), sum(ints), "int32")
    assert_tensor(tf.add_n([[True, False], [True, True]]), [2, 1], "int32")   # bool counts as int32
    assert_tensor(tf.add_n([[1.5, 2.0]]), [1.5, 2.0], "float32")
    big, one = tf.tensor([2 ** 31 - 1], dtype="int32"), tf.tensor([1], dtype="int32")
    assert_tensor(tf.add_n([big, one]), [-2 ** 31], "int32")     # wraps, like Int32Array
    assert_no_leak(lambda: tf.add_n([[1.0], [2.0]]).dispose())


def test_add_n_errors():
    a, i = tf.zeros([2]), tf.zeros([2], "int32")
    b = tf.zeros([3])
    assert_raises(TypeError, lambda: tf.add_n(a), "add_n", "'tensors'", "list")
    assert_raises(ValueError, lambda: tf.add_n([]), "add_n", "'tensors'", "at least one")
    assert_raises(TypeError, lambda: tf.add_n([a, i]), "add_n", "tensors[1]", "int32")
    assert_raises(ValueError, lambda: tf.add_n([a, a, b]), "add_n", "tensors[2]", "[3]")
    assert_raises(TypeError, lambda: tf.add_n([a, "x"]), "add_n", "tensors[1]")


def test_add_n_gradients():
    arrays = [rand(rng, (2, 3)) for _ in range(3)]
    _check_gradient(lambda *xs: tf.add_n(list(xs)) * xs[0], *arrays)
    dy = rand(rng, (2, 3))
    for g in _grads(lambda *xs: tf.add_n(list(xs)), *arrays, dy=dy):
        np.testing.assert_allclose(g, dy)
    x = tf.tensor(arrays[0])
    assert_tensor(tf.grad(lambda t: tf.sum(tf.add_n([t, t, t])))(x), np.full((2, 3), 3.0))


# --- cumsum, cumprod -----------------------------------------------------------------------------------

def _np_cumulative(fn, identity, x, axis, exclusive, reverse):
    v = np.flip(x, axis) if reverse else x
    out = fn(v, axis=axis, dtype=v.dtype)
    if exclusive:
        first = np.full_like(np.take(out, [0], axis=axis), identity)
        out = np.concatenate([first, np.delete(out, -1, axis=axis)], axis=axis)
    return np.flip(out, axis) if reverse else out


CUMULATIVE = [("cumsum", np.cumsum, 0), ("cumprod", np.cumprod, 1)]


@pytest.mark.parametrize("name, fn, identity", CUMULATIVE, ids=["cumsum", "cumprod"])
def test_cumulative_every_axis_and_flag(name, fn, identity):
    op = getattr(tf, name)
    for shape in [s for s in ALL_SHAPES if s]:
        x = rand(rng, shape, low=0.5, high=1.5)
        for axis in range(-len(shape), len(shape)):
            for exclusive in (False, True):
                for reverse in (False, True):
                    expected = _np_cumulative(fn, identity, x, axis % len(shape), exclusive, reverse)
                    assert_tensor(op(tf.tensor(x), axis, exclusive, reverse), expected, "float32")


@pytest.mark.parametrize("name, fn, identity", CUMULATIVE, ids=["cumsum", "cumprod"])
def test_cumulative_dtypes_and_edges(name, fn, identity):
    op = getattr(tf, name)
    i = rand(rng, (3, 4), "int32", -5, 5)
    assert_tensor(op(tf.tensor(i), 1), fn(i, axis=1, dtype=np.int32), "int32")
    b = np.array([True, False, True, True])
    assert_tensor(op(b), fn(b.astype(np.int32), dtype=np.int32), "int32")      # bool counts as int32
    e = np.float32([1.0, np.nan, 2.0, np.inf])
    assert_tensor(op(e), fn(e), "float32")
    assert_tensor(op(tf.zeros([2, 0]), 1, True), np.zeros((2, 0)), "float32")
    assert_tensor(op([5.0], 0, True), [float(identity)], "float32")
    big = np.array([2 ** 30, 2 ** 30, 3], np.int32)
    assert_tensor(tf.cumsum(big), np.cumsum(big, dtype=np.int32), "int32")   # wraps, like Int32Array


def test_cumulative_errors():
    x = tf.zeros([2, 3])
    for op in ("cumsum", "cumprod"):
        f = getattr(tf, op)
        assert_raises(ValueError, lambda: f(x, 2), op, "'axis'", "2")
        assert_raises(ValueError, lambda: f(x, -3), op, "'axis'")
        assert_raises(TypeError, lambda: f(x, 1.5), op, "'axis'")
        assert_raises(ValueError, lambda: f(5.0), op, "'x'", "rank")
        assert_raises(TypeError, lambda: f(x, 0, 1), op, "'exclusive'", "bool")
        assert_raises(TypeError, lambda: f(x, 0, False, "yes"), op, "'reverse'", "bool")


def test_cumsum_gradients():
    x = rand(rng, (3, 4))
    for axis in (0, 1, -1):
        for exclusive in (False, True):
            for reverse in (False, True):
                _check_gradient(lambda t: tf.cumsum(t, axis, exclusive, reverse), x)
    # the gradient is dy summed the other way
    dy = rand(rng, (3, 4))
    (dx,) = _grads(lambda t: tf.cumsum(t, 0, True, False), x, dy=dy)
    np.testing.assert_allclose(dx, _np_cumulative(np.cumsum, 0, dy, 0, True, True), rtol=1e-6)


def test_cumprod_gradient_as_tensorflows():
    # TF.js has none; TensorFlow's: cumsum(dy * y) run the other way, divided by x (0 where x is 0)
    assert get_gradient("Cumprod") is not None
    x = np.float32([[1.5, -2.0, 3.0], [0.5, 4.0, -1.0]])
    for axis, exclusive, reverse in ((0, False, False), (1, False, False), (1, True, False), (1, False, True),
                                     (-1, True, True)):
        assert numeric_gradient_error(lambda t: tf.cumprod(t, axis, exclusive, reverse), [x]) < 1e-2
    g = tf.grad(lambda t: tf.sum(tf.cumprod(t)))(tf.tensor([2.0, 3.0, 4.0]))
    assert_tensor(g, [1 + 3 + 12, 2 + 8, 6])


# --- norm -------------------------------------------------------------------------------------------------

VECTOR_ORDS = {"euclidean": 2, 2: 2, 1: 1, math.inf: np.inf, -math.inf: -np.inf}
MATRIX_ORDS = {"euclidean": "fro", "fro": "fro", 1: 1, math.inf: np.inf, -math.inf: -np.inf}


def test_vector_norms():
    x = rand(rng, (3, 4, 2))
    for ord, np_ord in VECTOR_ORDS.items():
        assert_tensor(tf.norm(x.ravel(), ord), np.linalg.norm(x.ravel().astype(np.float64), np_ord))
        assert_tensor(tf.norm(x, ord), np.linalg.norm(x.ravel().astype(np.float64), np_ord))   # axis None: flat
        for axis in (0, 1, -1, [2]):
            expected = np.linalg.norm(x.astype(np.float64), np_ord, axis=axis if isinstance(axis, int) else axis[0])
            assert_tensor(tf.norm(x, ord, axis), expected)
            assert_tensor(tf.norm(x, ord, axis, keep_dims=True),
                          np.linalg.norm(x.astype(np.float64), np_ord, axis=np.array(axis).item(), keepdims=True))


def test_matrix_norms():
    x = rand(rng, (3, 4, 5))
    for ord, np_ord in MATRIX_ORDS.items():
        for axes in ([0, 1], [1, 2], [2, 0], [-1, -2]):
            expected = np.linalg.norm(x.astype(np.float64), np_ord, axis=tuple(axes))
            assert_tensor(tf.norm(x, ord, axes), expected, rtol=1e-5)
        assert_tensor(tf.norm(x, ord, [0, 2], keep_dims=True),
                      np.linalg.norm(x.astype(np.float64), np_ord, axis=(0, 2), keepdims=True))


def test_norm_scalars_keep_dims_dtypes_and_euclidean_norm():
    assert_tensor(tf.norm(-3.0), 3.0)
    x = rand(rng, (2, 3))
    assert_tensor(tf.norm(x, keep_dims=True), [[np.linalg.norm(x)]])
    assert_tensor(tf.euclidean_norm(x), np.linalg.norm(x))
    assert_tensor(tf.euclidean_norm(x, 1, True), np.linalg.norm(x, axis=1, keepdims=True))
    i = np.int32([[3, -4], [1, 2]])
    # TF.js's sqrt takes float32 only, so its euclidean norm of an int32 tensor fails
    assert_raises(TypeError, lambda: tf.norm(i), "norm", "float32")
    assert_tensor(tf.norm(i.astype(np.float32)), np.linalg.norm(i), "float32")
    assert_tensor(tf.norm(i, 1, 1), [7, 3], "int32")      # sum of |x|: int32 stays int32, as TF.js
    assert_tensor(tf.norm(EDGE_FLOATS[:-1], math.inf), np.inf)
    assert_tensor(tf.norm([np.nan, 1.0]), np.nan)
    assert_tensor(tf.norm(tf.zeros([0])), 0.0)


def test_norm_errors():
    x = tf.zeros([2, 3, 4])
    assert_raises(ValueError, lambda: tf.norm(x, 3), "norm", "'ord'", "vector")
    assert_raises(ValueError, lambda: tf.norm(x, "fro", 1), "norm", "'ord'", "vector")
    assert_raises(ValueError, lambda: tf.norm(x, 2, [0, 1]), "norm", "'ord'", "matrix")
    assert_raises(ValueError, lambda: tf.norm(x, "nuc", [0, 1]), "norm", "'ord'")
    assert_raises(ValueError, lambda: tf.norm(x, "euclidean", [0, 1, 2]), "norm", "'axis'")
    assert_raises(ValueError, lambda: tf.norm(x, "euclidean", [1, -2]), "norm", "'axis'", "repeated")
    assert_raises(ValueError, lambda: tf.norm(x, "euclidean", 3), "norm", "'axis'")
    assert_raises(TypeError, lambda: tf.norm(x, keep_dims=1), "norm", "'keep_dims'")


def test_norm_gradients():
    x = (rng.uniform(0.2, 2, size=(3, 4)) * rng.choice([-1, 1], size=(3, 4))).astype(np.float32)
    x.ravel()[[1, 6]] = [2.5, -2.7]   # clear maxima, away from ties
    for ord, axis in [("euclidean", None), (2, 1), (1, 0), (math.inf, 1), ("fro", [0, 1]), (1, [0, 1])]:
        _check_gradient(lambda t: tf.norm(t, ord, axis), x)
    (dx,) = _grads(tf.norm, x)
    np.testing.assert_allclose(dx, x / np.linalg.norm(x.astype(np.float64)), rtol=1e-5)


# --- bincount -------------------------------------------------------------------------------------------------

def _np_bincount(x, weights, size):
    out = np.bincount(x.ravel(), weights=None if weights.size == 0 else weights.ravel(), minlength=size)[:size]
    return out


def test_bincount():
    x = rand(rng, (30,), "int32", 0, 12)
    w = rand(rng, (30,))
    iw = rand(rng, (30,), "int32", -5, 5)
    e = np.zeros((0,), np.float32)
    for size in (0, 5, 12, 20):
        assert_tensor(tf.bincount(x, w, size), _np_bincount(x, w, size), "float32", rtol=1e-5, atol=1e-5)
        assert_tensor(tf.bincount(x, e, size), _np_bincount(x, e, size), "float32")
        assert_tensor(tf.bincount(tf.tensor(x), tf.tensor(iw), size), _np_bincount(x, iw, size), "int32")
    m = rand(rng, (3, 4), "int32", 0, 5)   # any shape: every value counts
    assert_tensor(tf.bincount(m, rand(rng, (3, 4)) * 0 + 1, 5), np.bincount(m.ravel(), minlength=5))
    assert_tensor(tf.bincount(tf.tensor([], dtype="int32"), e, 3), [0, 0, 0])


def test_dense_bincount():
    x = rand(rng, (20,), "int32", 0, 8)
    w = rand(rng, (20,))
    e = np.zeros((0,), np.float32)
    assert_tensor(tf.dense_bincount(x, w, 6), _np_bincount(x, w, 6), rtol=1e-5, atol=1e-5)
    assert_tensor(tf.dense_bincount(x, e, 6, True), (_np_bincount(x, e, 6) > 0).astype(np.float32))
    m, mw = rand(rng, (4, 7), "int32", 0, 6), rand(rng, (4, 7))
    assert_tensor(tf.dense_bincount(m, mw, 5), [_np_bincount(r, rw, 5) for r, rw in zip(m, mw)],
                  rtol=1e-5, atol=1e-5)
    assert_tensor(tf.dense_bincount(m, e, 5), [_np_bincount(r, e, 5) for r in m])
    assert_tensor(tf.dense_bincount(m, mw, 5, True), [(_np_bincount(r, e, 5) > 0) for r in m], "float32")


def test_bincount_errors():
    x, w = tf.tensor([1, 2], dtype="int32"), tf.tensor([1.0, 2.0])
    f, cube, negative = tf.tensor([1.0, 2.0]), tf.zeros([1, 1, 2], "int32"), tf.tensor([1, -1], dtype="int32")
    for op in ("bincount", "dense_bincount"):
        fn = getattr(tf, op)
        assert_raises(TypeError, lambda: fn(f, w, 3), op, "'x'", "int32")
        assert_raises(ValueError, lambda: fn(x, w, -1), op, "'size'", "non-negative")
        assert_raises(TypeError, lambda: fn(x, w, 2.5), op, "'size'")
        assert_raises(ValueError, lambda: fn(x, [1.0, 2.0, 3.0], 3), op, "'weights'")
        assert_raises(ValueError, lambda: fn(negative, w, 3), op, "'x'", "non-negative")
    assert_raises(ValueError, lambda: tf.dense_bincount(cube, w, 3), "dense_bincount", "'x'", "rank")
    assert_raises(TypeError, lambda: tf.dense_bincount(x, w, 3, 1), "dense_bincount", "'binary_output'")
