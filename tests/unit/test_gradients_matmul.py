"""Gradient of BatchMatMul on the cpu backend: numeric checks for every transpose combination
and broadcast batch shape, exact values against numpy, int32 operands, second order, laziness
(an operand that wants no gradient costs no product), what the tape keeps, and memory."""
import numpy as np
import pytest

import pytfweb as tf
from pytfweb import kernels
from pytfweb.kernels import get_gradient
from pytfweb.testing import numeric_gradient_error

rng = np.random.default_rng(13)
TOL = 1e-2      # numeric_gradient_error is relative; float32 centred differences with eps 1e-2


def floats(*shape):
    return rng.uniform(-2, 2, size=shape).astype(np.float32)


def operand(batch, rows, cols, transpose):
    return floats(*batch, *((cols, rows) if transpose else (rows, cols)))


# (batch of a, batch of b): equal, broadcast one way or the other, ranks differing, none
BATCHES = [((), ()), ((3,), (3,)), ((2,), ()), ((), (2,)), ((2, 1), (3,)), ((1, 2), (3, 1)), ((2, 3), (1,))]


@pytest.mark.parametrize("transpose_a", [False, True])
@pytest.mark.parametrize("transpose_b", [False, True])
@pytest.mark.parametrize("batch_a, batch_b", BATCHES, ids=str)
def test_numeric(transpose_a, transpose_b, batch_a, batch_b):
    a = operand(batch_a, 2, 3, transpose_a)
    b = operand(batch_b, 3, 4, transpose_b)
    xs = [tf.tensor(a), tf.tensor(b)]
    before = tf.memory().num_tensors
    err = numeric_gradient_error(lambda x, y: tf.mat_mul(x, y, transpose_a, transpose_b), xs)
    assert err < TOL, f"numeric gradient error {err}"
    assert tf.memory().num_tensors == before
    tf.dispose(xs)


@pytest.mark.parametrize("transpose_a", [False, True])
@pytest.mark.parametrize("transpose_b", [False, True])
def test_exact_with_broadcast_batch(transpose_a, transpose_b):
    a = operand((2, 1), 3, 4, transpose_a)
    b = operand((5,), 4, 2, transpose_b)
    dy = floats(2, 5, 3, 2)
    xs = [tf.tensor(a), tf.tensor(b)]
    ga, gb = tf.grads(lambda x, y: tf.mat_mul(x, y, transpose_a, transpose_b))(xs, tf.tensor(dy))
    # numpy: op(a) @ op(b), d/d op(a) = dy @ op(b)^T, d/d op(b) = op(a)^T @ dy, then undo op and broadcasting
    op_a = np.swapaxes(a, -1, -2) if transpose_a else a
    op_b = np.swapaxes(b, -1, -2) if transpose_b else b
    d_op_a = dy @ np.swapaxes(op_b, -1, -2)
    d_op_b = np.swapaxes(op_a, -1, -2) @ dy
    da = np.swapaxes(d_op_a, -1, -2) if transpose_a else d_op_a
    db = np.swapaxes(d_op_b, -1, -2) if transpose_b else d_op_b
    np.testing.assert_allclose(ga.numpy(), da.sum(axis=1, keepdims=True), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(gb.numpy(), db.sum(axis=0), rtol=1e-5, atol=1e-5)
    tf.dispose([xs, ga, gb])


def test_dot_and_outer_product():
    u, v, m = floats(3), floats(3), floats(3, 2)
    gu, gv = tf.grads(lambda x, y: tf.dot(x, y))([tf.tensor(u), tf.tensor(v)])
    np.testing.assert_allclose(gu.numpy(), v)
    np.testing.assert_allclose(gv.numpy(), u)
    gu, gm = tf.grads(lambda x, y: tf.sum(tf.dot(x, y)))([tf.tensor(u), tf.tensor(m)])
    np.testing.assert_allclose(gu.numpy(), m.sum(1), rtol=1e-6)
    np.testing.assert_allclose(gm.numpy(), np.broadcast_to(u[:, None], m.shape))
    gu, gv = tf.grads(lambda x, y: tf.sum(tf.outer_product(x, y)))([tf.tensor(u), tf.tensor(v)])
    np.testing.assert_allclose(gu.numpy(), np.full(3, v.sum()), rtol=1e-6)


def test_int32_operands_get_float32_gradients():
    a = tf.tensor([[1, 2], [3, 4]], dtype="int32")
    b = tf.tensor([[1, 0], [2, 1]], dtype="int32")
    ga, gb = tf.grads(lambda x, y: tf.sum(tf.mat_mul(x, y)))([a, b])
    assert ga.dtype == gb.dtype == "float32"
    np.testing.assert_array_equal(ga.numpy(), np.ones((2, 2)) @ np.array([[1, 0], [2, 1]]).T)
    np.testing.assert_array_equal(gb.numpy(), np.array([[1, 2], [3, 4]]).T @ np.ones((2, 2)))


def test_second_order():
    a, b = floats(2, 3), floats(3, 2)
    at, bt = tf.tensor(a), tf.tensor(b)
    # d/db of sum(d/da sum((a @ b)^2)): d/da = 2 (a b) b^T; its sum's gradient by b, computed by hand
    def first(x, y):
        return tf.sum(tf.grads(lambda p, q: tf.sum(tf.square(tf.mat_mul(p, q))))([x, y])[0])
    ga, gb = tf.grads(first)([at, bt])
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    ones = np.ones((2, 3))
    # S = sum(2 a b b^T) = 2 sum_ij (a b b^T)_ij; dS/da = 2 1 (b b^T)^T = 2 ones @ b b^T
    np.testing.assert_allclose(ga.numpy(), 2 * ones @ (b64 @ b64.T).T, rtol=1e-5)
    # dS/db = 2 (a^T ones b + ones^T a b)
    np.testing.assert_allclose(gb.numpy(), 2 * (a64.T @ ones @ b64 + ones.T @ a64 @ b64), rtol=1e-5)
    # a scalar-valued composition, as TF.js would write it
    x = tf.tensor([[1.5]])
    g2 = tf.grad(lambda t: tf.sum(tf.grad(lambda u: tf.sum(tf.mat_mul(tf.mat_mul(u, u), u)))(t)))(x)
    np.testing.assert_allclose(g2.numpy(), [[6 * 1.5]])


def test_an_operand_that_wants_no_gradient_costs_no_product():
    calls = []
    kernel = kernels.get_kernel("BatchMatMul", "cpu")

    def counting(backend, inputs, attrs):
        calls.append(attrs)
        return kernel(backend, inputs, attrs)
    kernels.register_kernel("BatchMatMul", "cpu", counting)
    try:
        w = tf.tensor(floats(3, 4))
        x = tf.tensor(floats(2, 3))
        g = tf.grad(lambda t: tf.sum(tf.mat_mul(t, w)))(x)       # w is a constant here
        assert len(calls) == 2                                   # the product and d/dx only
        tf.dispose([g, w, x])
    finally:
        kernels.register_kernel("BatchMatMul", "cpu", kernel)


def test_only_the_operands_are_saved_and_nothing_leaks():
    config = get_gradient("BatchMatMul")
    assert (config.save_inputs, config.save_outputs) == (True, False)
    xs = [tf.tensor(floats(2, 2, 3)), tf.tensor(floats(3, 4))]
    before = tf.memory()
    for ta, tb in [(False, False), (True, False), (False, True), (True, True)]:
        a = xs[0] if not ta else tf.transpose(xs[0], [0, 2, 1])
        b = xs[1] if not tb else tf.transpose(xs[1])
        tf.dispose(tf.grads(lambda p, q: tf.sum(tf.mat_mul(p, q, ta, tb)))([a, b]))
        tf.dispose([t for t in (a, b) if all(t is not x for x in xs)])
    after = tf.memory()
    assert (after.num_tensors, after.num_bytes) == (before.num_tensors, before.num_bytes)
