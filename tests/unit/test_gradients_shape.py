"""Gradients of the shape kernels (Reshape, Transpose, Concat, Pack, Unpack, SplitV, Tile, PadV2,
Reverse) on the cpu backend: numeric checks over varied shapes and axes, exact values where
they are easy to state, what the tape keeps, and memory."""
import functools
import numpy as np
import pytest

import pytfweb as tf
from pytfweb.testing import numeric_gradient_error

from .helpers import assert_tensor
from .helpers import assert_gradients_match_numeric, gradients_at

rng = np.random.default_rng(7)
TOL = 1e-3      # numeric_gradient_error is relative: float32 centred differences, eps 1e-2


def x_of(*shape):
    return tf.tensor(rng.uniform(-2, 2, size=shape).astype(np.float32))


check = functools.partial(assert_gradients_match_numeric, tol=TOL)


def kernels_and_saved(f, *xs):
    """(kernel, number of tensors kept for its gradient) for every node f puts on the tape."""
    seen = []

    def probe(*args):
        y = f(*args)
        seen.extend((node.kernel, len(node.saved())) for node in tf.engine().active_tape)
        return tf.sum(y)
    tf.grads(probe)(list(xs))
    return seen


# --- numeric checks ------------------------------------------------------------------

@pytest.mark.parametrize("shape, new_shape", [((6,), (2, 3)), ((2, 3, 4), (4, -1)), ((2, 3), (6,)),
                                              ((1, 4, 1), (4,)), ((), (1, 1)), ((3, 1, 2), (2, 1, 3, 1))])
def test_reshape(shape, new_shape):
    check(lambda x: tf.reshape(x, new_shape) * 2.0, x_of(*shape))


def test_expand_dims_and_squeeze_are_reshapes():
    check(lambda x: tf.squeeze(tf.expand_dims(x, -1), [0]), x_of(1, 3, 2))
    check(lambda x: tf.expand_dims(tf.squeeze(x), 1), x_of(2, 1, 3))


@pytest.mark.parametrize("shape, perm", [((2, 3), None), ((2, 3, 4), [1, 2, 0]), ((2, 3, 4), [2, 0, 1]),
                                         ((2, 1, 3, 2), [3, 1, 0, 2]), ((4,), [0])])
def test_transpose(shape, perm):
    check(lambda x: tf.transpose(x, perm), x_of(*shape))


@pytest.mark.parametrize("shapes, axis", [([(2, 3), (4, 3)], 0), ([(2, 3), (2, 1), (2, 4)], 1),
                                          ([(2, 3), (2, 2)], -1), ([(1, 2, 2), (1, 2, 3), (1, 2, 1)], 2),
                                          ([(3,), (2,)], 0)])
def test_concat(shapes, axis):
    check(lambda *xs: tf.concat(list(xs), axis), *(x_of(*s) for s in shapes))


def test_concat_of_one_tensor_and_with_an_empty_one():
    check(lambda a: tf.concat([a], 1), x_of(2, 3))
    # The op keeps empty inputs away from the kernel: only the others are on the tape.
    a, e = x_of(2, 3), x_of(2, 0)
    da = tf.grad(lambda a: tf.sum(tf.concat([e, a, e], 1) * 3.0))(a)
    assert_tensor(da, np.full((2, 3), 3.0))


def test_concat_with_the_same_tensor_twice():
    a = x_of(2, 2)
    da = tf.grad(lambda a: tf.concat([a, a, a], 0))(a, tf.tensor(np.arange(12, dtype=np.float32).reshape(6, 2)))
    assert_tensor(da, [[0 + 4 + 8, 1 + 5 + 9], [2 + 6 + 10, 3 + 7 + 11]])


@pytest.mark.parametrize("shape, axis", [((3,), 0), ((3,), 1), ((2, 3), 0), ((2, 3), 1), ((2, 3), -1),
                                         ((2, 1, 2), 2)])
def test_stack(shape, axis):
    check(lambda a, b, c: tf.stack([a, b, c], axis), x_of(*shape), x_of(*shape), x_of(*shape))


@pytest.mark.parametrize("shape, axis", [((3, 2), 0), ((2, 3, 2), 1), ((2, 2, 3), -1)])
def test_unstack_outputs_reordered_repeated_and_unused(shape, axis):
    def f(x):
        parts = tf.unstack(x, axis)
        return tf.stack([parts[2 % len(parts)], parts[0], parts[0]])   # parts[1] is not used
    check(f, x_of(*shape))


def test_unstack_into_one_output():
    """A kernel with one output hands backpropagation a bare dy, not a list."""
    check(lambda x: tf.unstack(x, 1)[0], x_of(3, 1))


def test_unstack_of_int32_with_an_unused_output():
    """The outputs that get no gradient arrive as int32 zeros; the gradient is float32."""
    x = tf.tensor([[1, 2], [3, 4], [5, 6]], dtype="int32")
    dx = tf.grad(lambda x: tf.unstack(x)[1])(x, tf.tensor([1.0, 2.0]))
    assert_tensor(dx, [[0, 0], [1, 2], [0, 0]], "float32")


@pytest.mark.parametrize("shape, splits, axis", [((6,), 3, 0), ((2, 5), [2, -1, 1], 1), ((4, 3), [1, 3], 0),
                                                 ((2, 3, 4), [2, 0, 2], -1)])
def test_split_parts_reordered_and_unused(shape, splits, axis):
    def f(x):
        parts = tf.split(x, splits, axis)
        return tf.concat([parts[-1], parts[0]], axis)   # middle parts are not used
    check(f, x_of(*shape))


def test_split_into_one_part():
    check(lambda x: tf.split(x, 1, 1)[0], x_of(2, 3))


@pytest.mark.parametrize("shape, reps", [((3,), [4]), ((2, 3), [2, 1]), ((2, 3), [1, 3]), ((2, 1), [3, 2]),
                                         ((1, 2, 3), [2, 2, 1]), ((2, 1, 2, 1), [1, 2, 2, 3])])
def test_tile(shape, reps):
    check(lambda x: tf.tile(x, reps), x_of(*shape))


@pytest.mark.parametrize("shape, reps", [((2, 2, 2, 2), [2, 2, 2, 2]), ((2, 1, 2, 2, 2), [3, 2, 2, 1, 2]),
                                         ((2, 2, 1, 2, 2, 2), [2, 1, 2, 2, 2, 2])])
def test_tile_needing_more_than_six_axes(shape, reps):
    """Splitting every axis into (rep, size) needs 8+ axes: the sum takes two passes."""
    x = x_of(*shape)
    dy = rng.uniform(-1, 1, size=tuple(s * r for s, r in zip(shape, reps))).astype(np.float32)
    dx = tf.grad(lambda x: tf.tile(x, reps))(x, tf.tensor(dy))
    split = dy.reshape([v for r, s in zip(reps, shape) for v in (r, s)])
    assert_tensor(dx, split.sum(axis=tuple(range(0, 2 * len(shape), 2))), rtol=1e-5, atol=1e-5)


def test_tile_with_a_zero_rep_and_broadcast_to():
    dx = tf.grad(lambda x: tf.tile(x, [0, 2]))(x_of(2, 3), tf.zeros([0, 6]))
    assert_tensor(dx, np.zeros((2, 3)))
    check(lambda x: tf.broadcast_to(x, [2, 3, 4]), x_of(3, 1))


@pytest.mark.parametrize("shape, paddings, value", [((3,), [[1, 2]], 0), ((2, 3), [[0, 1], [2, 0]], 5.5),
                                                    ((2, 1, 2), [[1, 1], [0, 0], [3, 2]], -1),
                                                    ((0, 2), [[1, 1], [1, 0]], 0)])
def test_pad(shape, paddings, value):
    check(lambda x: tf.pad(x, paddings, value), x_of(*shape))


@pytest.mark.parametrize("shape, axis", [((4,), None), ((2, 3), 0), ((2, 3), [-1]), ((2, 3, 2), [0, 2]),
                                         ((2, 1, 3, 2), [1, 2, 3])])
def test_reverse(shape, axis):
    check(lambda x: tf.reverse(x, axis), x_of(*shape))


def test_a_chain_of_shape_ops():
    def f(x, y):
        t = tf.transpose(tf.reshape(x, [3, 2, 2]), [2, 0, 1])
        t = tf.concat([t, tf.tile(y, [1, 1, 2])], 1)
        t = tf.reverse(tf.pad(t, [[0, 1], [1, 0], [0, 0]]), [1])
        return tf.unstack(t, 2)[1]
    check(f, x_of(12), x_of(2, 2, 1))


# --- exact values, the tape, memory ----------------------------------------------------

def test_exact_values():
    x = tf.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    w = tf.tensor([[10.0, 20.0], [30.0, 40.0], [50.0, 60.0]])
    assert_tensor(tf.grad(lambda x: tf.transpose(x))(x, w), [[10, 30, 50], [20, 40, 60]])
    dy = tf.tensor(np.arange(24, dtype=np.float32).reshape(4, 6))
    assert_tensor(tf.grad(lambda x: tf.tile(x, [2, 2]))(x, dy),
                  [[0 + 3 + 12 + 15, 1 + 4 + 13 + 16, 2 + 5 + 14 + 17],
                   [6 + 9 + 18 + 21, 7 + 10 + 19 + 22, 8 + 11 + 20 + 23]])
    dy = tf.tensor(np.arange(12, dtype=np.float32).reshape(3, 4))
    assert_tensor(tf.grad(lambda x: tf.pad(x, [[0, 1], [1, 0]], 9))(x, dy), [[1, 2, 3], [5, 6, 7]])
    assert_tensor(tf.grad(lambda x: tf.reverse(x, 1))(x, tf.tensor([[1.0, 2, 3], [4, 5, 6]])),
                  [[3, 2, 1], [6, 5, 4]])


def test_shape_gradients_keep_no_tensor_on_the_tape():
    x = x_of(2, 3)
    seen = kernels_and_saved(lambda x: tf.split(tf.reverse(tf.pad(tf.tile(tf.concat([tf.unstack(
        tf.stack([tf.transpose(tf.reshape(x, [3, 2])), x]))[0], x], 1), [1, 2]), [[1, 0], [0, 0]]), 0), 3, 1)[0],
        x)
    kernels = {k for k, _ in seen}
    assert {"Reshape", "Transpose", "Pack", "Unpack", "Concat", "Tile", "PadV2", "Reverse", "SplitV"} <= kernels
    assert all(n == 0 for _, n in seen), seen


def test_gradients_of_shape_ops_leave_nothing_behind():
    x = x_of(2, 3)
    before = tf.memory().num_tensors
    dx = tf.grad(lambda x: tf.sum(tf.tile(tf.unstack(tf.transpose(x))[1], [3]) * 2.0))(x)
    assert_tensor(dx, [[0, 6, 0], [0, 6, 0]])
    dx.dispose()
    assert tf.memory().num_tensors == before


def test_second_order_through_shape_ops():
    """The gradients are written with ops, so they can be differentiated again."""
    def first(x):
        return tf.grad(lambda x: tf.sum(tf.square(tf.tile(tf.reverse(x, 0), [2]))))(x)   # 4 x
    x = tf.tensor([1.0, -2.0, 3.0])
    assert_tensor(first(x), [4.0, -8.0, 12.0])
    assert_tensor(tf.grad(lambda x: tf.sum(tf.pad(first(x), [[1, 1]]) * tf.tensor([1, 2, 3, 4, 5.0])))(x),
                  [8.0, 12.0, 16.0])
