"""mat_mul, dot, outer_product against numpy."""
import numpy as np
import pytest

import pytfweb as tf

from .helpers import assert_no_leak, assert_raises, assert_tensor, rand

# (shape of a, shape of b) as mat_mul sees them before transposition: batch axes broadcast.
MATMUL_SHAPES = [((2, 3), (3, 4)), ((1, 1), (1, 1)), ((1, 5), (5, 1)), ((4, 2, 3), (4, 3, 5)),
                 ((2, 3), (4, 3, 2)), ((3, 1, 2, 3), (2, 3, 4)), ((2, 1, 2, 2), (1, 3, 2, 2)),
                 ((0, 3), (3, 2)), ((2, 0), (0, 3))]


def _t(x):
    return np.swapaxes(x, -1, -2)


@pytest.mark.parametrize("transpose_a", [False, True])
@pytest.mark.parametrize("transpose_b", [False, True])
@pytest.mark.parametrize("dtype", ["float32", "int32"])
def test_mat_mul_matches_numpy(transpose_a, transpose_b, dtype, rng):
    for sa, sb in MATMUL_SHAPES:
        a, b = rand(rng, sa, dtype), rand(rng, sb, dtype)
        # hand mat_mul the operands stored transposed, so it has to transpose them back
        ta = tf.tensor(_t(a) if transpose_a else a)
        tb = tf.tensor(_t(b) if transpose_b else b)
        got = tf.mat_mul(ta, tb, transpose_a=transpose_a, transpose_b=transpose_b)
        assert_tensor(got, np.matmul(a, b), dtype, rtol=1e-5, atol=1e-5)


def test_operator_and_method(rng):
    a, b = rand(rng, (2, 3)), rand(rng, (3, 2))
    assert_tensor(tf.tensor(a) @ tf.tensor(b), a @ b)
    assert_tensor(tf.tensor(a).mat_mul(b, False, False), a @ b)
    assert_tensor(b.tolist() @ tf.tensor(a), b @ a)   # reflected: a list on the left


def test_dtypes_are_upcast():
    i = tf.tensor([[1, 2], [3, 4]], dtype="int32")
    f = tf.tensor([[0.5, 0.0], [0.0, 0.5]])
    b = tf.tensor([[True, False], [True, True]])
    assert_tensor(tf.mat_mul(i, f), [[0.5, 1.0], [1.5, 2.0]], "float32")
    assert_tensor(tf.mat_mul(i, b), [[3, 2], [7, 4]], "int32")
    assert_tensor(tf.mat_mul(b, b), [[1, 0], [2, 1]], "int32")   # bool counts as int32


def test_mat_mul_errors():
    a, b, v = tf.ones([2, 3]), tf.ones([4, 5]), tf.ones([3])
    assert_raises(ValueError, lambda: tf.mat_mul(a, b),
                  "mat_mul: inner dimensions of a [2, 3] and b [4, 5] must match "
                  "(transpose_a=False, transpose_b=False)")
    assert_raises(ValueError, lambda: tf.mat_mul(a, a, transpose_b=False), "mat_mul", "inner")
    assert_raises(ValueError, lambda: tf.mat_mul(a, v), "mat_mul", "'b'", "rank >= 2")
    assert_raises(ValueError, lambda: tf.mat_mul(3.0, a), "mat_mul", "'a'", "rank >= 2")
    assert_raises(ValueError, lambda: tf.mat_mul(np.ones((2, 2, 3)), np.ones((3, 3, 4))),
                  "mat_mul", "batch dimensions", "[2, 2, 3]", "[3, 3, 4]")
    assert_raises(TypeError, lambda: tf.mat_mul(a, a, transpose_b=1), "mat_mul", "'transpose_b'")
    assert_raises(TypeError, lambda: tf.mat_mul(a, "b"), "mat_mul", "'b'")
    assert_no_leak(lambda: tf.mat_mul([[1.0, 2.0]], [[1.0, 2.0]]))


@pytest.mark.parametrize("s1,s2", [((3,), (3,)), ((3,), (3, 2)), ((2, 3), (3,)), ((2, 3), (3, 4)),
                                   ((1,), (1, 1)), ((0,), (0,))])
def test_dot(s1, s2, rng):
    for dtype in ("float32", "int32"):
        t1, t2 = rand(rng, s1, dtype), rand(rng, s2, dtype)
        before = tf.memory().num_tensors
        got = tf.dot(t1, t2)
        assert tf.memory().num_tensors == before + 1   # reshapes and converted inputs are released
        assert_tensor(got, np.dot(t1, t2), dtype, atol=1e-5)


def test_dot_errors():
    m = tf.ones([2, 3])
    assert_raises(ValueError, lambda: tf.dot(m, m), "dot", "inner", "[2, 3]")
    assert_raises(ValueError, lambda: tf.dot([1.0, 2.0], [1.0, 2.0, 3.0]), "dot", "inner", "2", "3")
    assert_raises(ValueError, lambda: tf.dot(np.ones((2, 2, 2)), m), "dot", "'t1'", "rank 1 or 2")
    assert_raises(ValueError, lambda: tf.dot(3.0, [1.0]), "dot", "'t2'", "rank 1 or 2")


def test_outer_product(rng):
    for dtype in ("float32", "int32"):
        v1, v2 = rand(rng, (3,), dtype), rand(rng, (4,), dtype)
        assert_tensor(tf.outer_product(v1, v2), np.outer(v1, v2), dtype)
    assert_tensor(tf.outer_product([], [1.0, 2.0]), np.zeros((0, 2)))
    assert_raises(ValueError, lambda: tf.outer_product(np.ones((2, 2)), [1.0]), "outer_product", "'v1'", "rank 1")
    before = tf.memory().num_tensors
    tf.outer_product([1.0, 2.0], [3.0])
    assert tf.memory().num_tensors == before + 1   # reshapes and converted inputs are released
