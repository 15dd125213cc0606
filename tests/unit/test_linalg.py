"""tf.einsum and tf.linalg (band_part, qr, gram_schmidt) on the cpu backend: values against
numpy, gradients against numeric differences, errors."""
import numpy as np
import pytest

import pytfweb as tf
from pytfweb.testing import numeric_gradient_error

from .helpers import assert_raises, assert_tensor

rng = np.random.default_rng(5)
TOL = 1e-2


def floats(*shape):
    return rng.uniform(-2, 2, size=shape).astype(np.float32)


# (equation, operand shapes): products, contractions, transposes, reductions, outer products,
# scalars and an operand sharing no label with a summed axis (which TF.js 4.22 drops).
EINSUMS = [
    ("ij,jk->ik", [(2, 3), (3, 4)]),
    ("bij,bjk->bik", [(2, 2, 3), (2, 3, 2)]),
    ("i,i->", [(5,), (5,)]),
    ("bi,bi->b", [(3, 4), (3, 4)]),
    ("i,j->ij", [(3,), (4,)]),
    ("ij->ji", [(2, 3)]),
    ("bij->bji", [(2, 3, 4)]),
    ("ij->", [(3, 4)]),
    ("ij->j", [(3, 4)]),
    ("ij,jk->ki", [(2, 3), (3, 4)]),
    ("i,j->i", [(2,), (3,)]),
    ("ijk,kj->i", [(2, 3, 4), (4, 3)]),
    (",ij->ij", [(), (2, 2)]),
    ("abc,cd,d->ab", [(2, 2, 3), (3, 2), (2,)]),
]


@pytest.mark.parametrize("equation, shapes", EINSUMS, ids=[e for e, _ in EINSUMS])
def test_einsum_against_numpy(equation, shapes):
    xs = [floats(*s) for s in shapes]
    assert_tensor(tf.einsum(equation, *xs), np.einsum(equation, *xs), "float32", rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("equation, shapes", EINSUMS, ids=[e for e, _ in EINSUMS])
def test_einsum_gradient(equation, shapes):
    xs = [tf.tensor(floats(*s)) for s in shapes]
    before = tf.memory().num_tensors
    err = numeric_gradient_error(lambda *ts: tf.einsum(equation, *ts), xs)
    assert err < TOL, f"{equation}: numeric gradient error {err}"
    assert tf.memory().num_tensors == before


def test_einsum_dtypes_and_whitespace():
    a = np.arange(6, dtype=np.int32).reshape(2, 3)
    b = np.arange(3, dtype=np.int32)
    assert_tensor(tf.einsum("ij, j -> i", a, b), a @ b, "int32")
    assert_tensor(tf.einsum("ij,j->i", a, b.astype(np.float32)), (a @ b).astype(np.float32), "float32")
    assert_tensor(tf.einsum("i,i->i", [True, False], [True, True]), [True, False], "bool")   # TF.js: no sum, bool
    assert_tensor(tf.einsum("i,i->", [True, False], [True, True]), 1, "int32")   # a sum counts as int32
    assert_tensor(tf.einsum("ij,jk->ik", np.zeros((2, 0), np.float32), np.zeros((0, 3), np.float32)),
                  np.zeros((2, 3)), "float32")


def test_einsum_errors():
    a, b = tf.tensor(floats(2, 3)), tf.tensor(floats(4, 5))
    assert_raises(ValueError, lambda: tf.einsum("ij,jk", a, b), "einsum", "arrow")
    assert_raises(ValueError, lambda: tf.einsum("ij,jk->ik", a, b), "einsum", "'j'", "tensors[1]")
    assert_raises(ValueError, lambda: tf.einsum("ij,jk->ik", a), "einsum", "2 input term(s)", "1 tensor(s)")
    assert_raises(ValueError, lambda: tf.einsum("ijk->i", a), "einsum", "rank 2")
    assert_raises(ValueError, lambda: tf.einsum("ii->i", floats(2, 2)), "einsum", "repeated")
    assert_raises(ValueError, lambda: tf.einsum("...i->i", a), "einsum", "ellipsis")
    assert_raises(ValueError, lambda: tf.einsum("ij->iz", a), "einsum", "'z'")
    assert_raises(ValueError, lambda: tf.einsum("i1->i", a), "einsum", "letters")
    assert_raises(TypeError, lambda: tf.einsum(3, a), "einsum", "'equation'")
    assert_raises(ValueError, lambda: tf.einsum("->"), "einsum", "at least one tensor")


def _band(a, lower, upper):
    m, n = a.shape[-2:]
    i, j = np.arange(m)[:, None], np.arange(n)[None, :]
    lower = m if lower < 0 else lower
    upper = n if upper < 0 else upper
    return np.where((i - j <= lower) & (j - i <= upper), a, 0)


@pytest.mark.parametrize("lower, upper", [(0, 0), (1, 0), (0, -1), (-1, 0), (-1, -1), (2, 1), (3, 4)])
def test_band_part(lower, upper):
    a = floats(2, 3, 4)
    assert_tensor(tf.linalg.band_part(a, lower, upper), _band(a, lower, upper), "float32")
    ai = np.arange(12, dtype=np.int32).reshape(3, 4)
    got = tf.linalg.band_part(ai, tf.scalar(lower, "int32"), tf.scalar(upper, "int32"))
    assert_tensor(got, _band(ai, lower, upper), "int32")


def test_band_part_gradient_and_errors():
    x = tf.tensor(floats(3, 3))
    assert numeric_gradient_error(lambda t: tf.linalg.band_part(t, 1, 0), [x]) < TOL
    g = tf.grad(lambda t: tf.sum(tf.linalg.band_part(t, 0, 1)))(x)
    assert_tensor(g, _band(np.ones((3, 3)), 0, 1), "float32")
    assert_raises(ValueError, lambda: tf.linalg.band_part([1.0, 2.0], 0, 0), "band_part", "'a'", "rank")
    assert_raises(ValueError, lambda: tf.linalg.band_part(x, 4, 0), "band_part", "'num_lower'")
    assert_raises(ValueError, lambda: tf.linalg.band_part(x, 0, 4), "band_part", "'num_upper'")
    assert_raises(TypeError, lambda: tf.linalg.band_part(x, 0.5, 0), "band_part", "'num_lower'")
    one = tf.scalar(1.0)
    assert_raises(TypeError, lambda: tf.linalg.band_part(x, one, 0), "band_part", "'num_lower'", "int32")


def _check_qr(a, q, r, full):
    m, n = a.shape[-2:]
    k = m if full or m <= n else n
    assert q.shape == a.shape[:-2] + (m, k) and r.shape == a.shape[:-2] + (k, n)
    q, r = q.numpy(), r.numpy()
    np.testing.assert_allclose(q @ r, a, atol=1e-5)
    np.testing.assert_allclose(np.swapaxes(q, -1, -2) @ q, np.broadcast_to(np.eye(k), q.shape[:-2] + (k, k)),
                               atol=1e-5)
    np.testing.assert_allclose(np.tril(r, -1), 0, atol=1e-5)     # upper triangular


@pytest.mark.parametrize("shape", [(3, 3), (4, 2), (2, 4), (1, 1), (2, 3, 2), (2, 1, 3, 3)])
@pytest.mark.parametrize("full", [False, True])
def test_qr(shape, full):
    a = floats(*shape)
    q, r = tf.linalg.qr(a, full)
    _check_qr(a, q, r, full)
    # Householder with TF.js's sign choice: the same factors as numpy's up to the signs of
    # q's columns and r's rows.
    if len(shape) == 2:
        nq, nr = np.linalg.qr(a.astype(np.float64), "complete" if full else "reduced")
        k = min(shape)
        signs = np.sign(np.diag(nr)[:k]) * np.sign(np.diag(r.numpy())[:k])
        np.testing.assert_allclose(r.numpy()[:k], nr[:k] * signs[:, None], atol=1e-5)


def test_qr_gradient_memory_and_errors():
    x = tf.tensor(floats(3, 2))
    before = tf.memory().num_tensors
    assert numeric_gradient_error(lambda t: tf.linalg.qr(t)[1], [x]) < 5e-2
    assert numeric_gradient_error(lambda t: tf.linalg.qr(t)[0], [x]) < 5e-2
    assert tf.memory().num_tensors == before
    assert_raises(ValueError, lambda: tf.linalg.qr([1.0, 2.0]), "qr", "'x'", "rank")
    assert_raises(TypeError, lambda: tf.linalg.qr(x, 1), "qr", "'full_matrices'")


def test_gram_schmidt():
    a = floats(3, 4)
    y = tf.linalg.gram_schmidt(a)
    got = y.numpy()
    np.testing.assert_allclose(got @ got.T, np.eye(3), atol=1e-5)
    # Row i lies in the span of rows 0..i, and the first row is a's first row normalised.
    np.testing.assert_allclose(got[0], a[0] / np.linalg.norm(a[0]), rtol=1e-5)
    q, _ = np.linalg.qr(a.T.astype(np.float64))
    np.testing.assert_allclose(np.abs(got), np.abs(q.T), atol=1e-5)
    ys = tf.linalg.gram_schmidt([tf.tensor(a[0]), tf.tensor(a[1])])
    assert isinstance(ys, list) and len(ys) == 2
    np.testing.assert_allclose(ys[1].numpy(), got[1], atol=1e-6)
    assert numeric_gradient_error(lambda t: tf.linalg.gram_schmidt(t), [tf.tensor(a[:2])]) < TOL


def test_gram_schmidt_errors():
    assert_raises(ValueError, lambda: tf.linalg.gram_schmidt(floats(3, 2)), "gram_schmidt", "exceeds")
    assert_raises(ValueError, lambda: tf.linalg.gram_schmidt([]), "gram_schmidt", "'xs'")
    assert_raises(ValueError, lambda: tf.linalg.gram_schmidt([[1.0, 0], [1.0, 0, 0]]),
                  "gram_schmidt", "one length")
    assert_raises(ValueError, lambda: tf.linalg.gram_schmidt(np.float32([1, 0])), "gram_schmidt", "2D")
    assert_raises(ValueError, lambda: tf.linalg.gram_schmidt([[[1.0]]]), "gram_schmidt", "xs[0]", "1D")
