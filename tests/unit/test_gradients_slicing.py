"""Gradients of the slicing kernels (Slice, StridedSlice, GatherV2) on the cpu backend: numeric
checks over slice forms, strides (negative ones too), `t[...]` keys and gathers (repeated
indices, batch_dims), exact values, what the tape keeps, and memory."""
import functools
import numpy as np
import pytest

import pytfweb as tf
from pytfweb.testing import numeric_gradient_error

from .helpers import assert_tensor
from .helpers import assert_gradients_match_numeric, gradients_at

rng = np.random.default_rng(11)
TOL = 1e-3      # numeric_gradient_error is relative: float32 centred differences, eps 1e-2


def x_of(*shape):
    return tf.tensor(rng.uniform(-2, 2, size=shape).astype(np.float32))


check = functools.partial(assert_gradients_match_numeric, tol=TOL)


def vjp(f, x, seed=0):
    """f's gradient for a random dy, next to numpy's: dy scattered back through the same
    indexing applied to an array of element numbers (f must be a pure selection)."""
    dy_shape = f(x).shape
    dy = np.random.default_rng(seed).uniform(-1, 1, size=dy_shape).astype(np.float32)
    got = tf.grad(f)(x, tf.tensor(dy))
    numbers = tf.tensor(np.arange(x.size, dtype=np.int32).reshape(x.shape))
    picked = f(numbers).numpy().ravel()
    want = np.zeros(x.size, np.float32)
    np.add.at(want, picked, dy.ravel())
    assert_tensor(got, want.reshape(x.shape), rtol=1e-6, atol=1e-6)


# --- Slice ------------------------------------------------------------------------------

@pytest.mark.parametrize("shape, begin, size", [((6,), 2, 3), ((6,), [0], [-1]), ((3, 4), [1, 1], [2, 2]),
                                                ((3, 4), [1], None), ((2, 3, 4), [0, 1, 2], [2, -1, 1]),
                                                ((2, 1, 3, 2), [1, 0, 1, 0], [1, 1, 2, 2]), ((4, 3), [2, 0], [0, 3])])
def test_slice(shape, begin, size):
    check(lambda x: tf.slice(x, begin, size), x_of(*shape))


# --- StridedSlice and getitem -----------------------------------------------------------

@pytest.mark.parametrize("shape, args, kwargs", [
    ((7,), ([1], [6], [2]), {}),
    ((7,), ([6], [0], [-1]), {}),
    ((7,), ([-1], [-8], [-3]), {}),
    ((5,), ([0], [5], [3]), {}),                        # the zeros after the last element run past the end
    ((4, 5), ([3, 0], [0, 5], [-2, 2]), {}),
    ((4, 5, 6), ([0, 1, 5], [4, 5, 0], [2, 2, -2]), {}),
    ((4, 5), ([1, 0], [3, 0], [1, 1]), {"end_mask": 2, "shrink_axis_mask": 1}),
    ((3, 4, 5), ([0, 2], [0, 0], [1, -2]), {"begin_mask": 1, "end_mask": 3, "ellipsis_mask": 1}),
    ((3, 4), ([0, 0, 1], [0, 0, 4], [1, 1, 3]), {"new_axis_mask": 1, "begin_mask": 2, "end_mask": 2}),
    ((2, 3, 2, 3, 2), ([0, 2, 0, 0, 1], [2, -4, 2, 3, 2], [2, -1, 1, 2, 1]), {}),
])
def test_strided_slice(shape, args, kwargs):
    check(lambda x: tf.strided_slice(x, *args, **kwargs), x_of(*shape))


KEYS = [
    (1,), (-1,), (slice(None, None, 2),), (slice(None, None, -1),), (slice(1, -1, 2),), (slice(5, 1, -2),),
    (Ellipsis, 0), (None, slice(None), 1), (slice(None), slice(None, None, -3)), (1, slice(None, None, -2), None),
    (slice(-2, None), Ellipsis, slice(None, None, 4)), (slice(3, 1),), (slice(0, 1), 2, slice(1, 5, 3)),
]


@pytest.mark.parametrize("key", KEYS, ids=repr)
def test_getitem(key):
    x = x_of(6, 5, 4)
    check(lambda x: x[key], x)
    vjp(lambda x: x[key], x)


def test_getitem_scalar_and_empty_result():
    check(lambda x: x[2, -1, 0], x_of(3, 2, 2))
    dx = tf.grad(lambda x: x[3:1, ::2])(x_of(4, 3), tf.zeros([0, 2]))
    assert_tensor(dx, np.zeros((4, 3)))


def test_strided_slice_values():
    x = tf.tensor([0.0, 1, 2, 3, 4, 5, 6])
    assert_tensor(tf.grad(lambda x: x[::3])(x, tf.tensor([1.0, 2, 3])), [1, 0, 0, 2, 0, 0, 3])
    assert_tensor(tf.grad(lambda x: x[5::-2])(x, tf.tensor([1.0, 2, 3])), [0, 3, 0, 2, 0, 1, 0])
    assert_tensor(tf.grad(lambda x: x[-1:0:-4])(x, tf.tensor([1.0, 2])), [0, 0, 2, 0, 0, 0, 1])


# --- GatherV2 ---------------------------------------------------------------------------

@pytest.mark.parametrize("shape, indices, axis, batch_dims", [
    ((5,), [3, 0, 3, 3, 1], 0, 0),
    ((4, 3), [[2, 0], [2, 2]], 0, 0),
    ((4, 3), [2, 0, 2], 1, 0),
    ((2, 3, 4), [3, 3, 0], -1, 0),
    ((2, 3, 4), 1, 1, 0),                               # a scalar index drops the axis
    ((3, 4, 2), [[1, 1, 3], [0, 2, 2], [3, 3, 3]], 1, 1),
    ((2, 3, 4, 2), [[1, 1, 3], [0, 3, 0]], 2, 1),       # an axis between the batch axes and axis
    ((2, 2, 3, 2), [[[2, 0], [1, 1]], [[0, 0], [2, 1]]], 2, 2),
    ((2, 3, 2), [[0, 0, 1], [1, 1, 1]], -1, 1),
])
def test_gather(shape, indices, axis, batch_dims):
    idx = tf.tensor(indices, dtype="int32")
    check(lambda x: tf.gather(x, idx, axis, batch_dims=batch_dims), x_of(*shape))
    vjp(lambda x: tf.gather(x, idx, axis, batch_dims=batch_dims), x_of(*shape))


def test_gather_repeated_indices_add_up():
    x = tf.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    dx = tf.grad(lambda x: tf.sum(tf.gather(x, [0, 2, 0, 0])))(x)
    assert_tensor(dx, [[3, 3], [0, 0], [1, 1]])


def test_gather_with_no_indices():
    dx = tf.grad(lambda x: tf.gather(x, tf.zeros([2, 0], "int32"), 1))(x_of(3, 4), tf.zeros([3, 2, 0]))
    assert_tensor(dx, np.zeros((3, 4)))


def test_gather_indices_get_no_gradient():
    x, idx = x_of(3, 2), tf.tensor([2, 0], dtype="int32")
    _, (dx, didx) = tf.engine().gradients(lambda: tf.sum(tf.gather(x, idx)), [x, idx], allow_no_gradients=True)
    assert_tensor(dx, [[1, 1], [0, 0], [1, 1]])
    assert didx is None


def test_gather_of_int32_x_gives_a_float32_gradient():
    x = tf.tensor([[1, 2], [3, 4]], dtype="int32")
    dx = tf.grad(lambda x: tf.gather(x, [1, 1], 1))(x, tf.tensor([[1.0, 2.0], [3.0, 4.0]]))
    assert_tensor(dx, [[0, 3], [0, 7]], "float32")


# --- the tape, memory, second order ---------------------------------------------------------

def test_only_gather_keeps_a_tensor_and_only_its_indices():
    x, idx = x_of(4, 3), tf.tensor([3, 1], dtype="int32")
    nodes = []

    def f(x):
        y = tf.gather(tf.strided_slice(tf.slice(x, [0, 0], [4, 2]), [0, 0], [4, 2], [1, 2]), idx)
        nodes.extend(tf.engine().active_tape)
        return tf.sum(y)
    tf.grad(f)(x)
    saved = {n.kernel: n.saved() for n in nodes}
    assert saved["Slice"] == [] and saved["StridedSlice"] == []
    (kept,) = saved["GatherV2"]
    assert kept.shape == (2,) and kept.dtype == "int32"


def test_gradients_of_slicing_ops_leave_nothing_behind():
    x = x_of(4, 3)
    before = tf.memory().num_tensors
    for _ in range(3):
        dx = tf.grad(lambda x: tf.sum(tf.gather(x[::-2, 1:], [1, 1, 0], 1) * 2.0))(x)
        dx.dispose()
    assert tf.memory().num_tensors == before
    assert tf.engine().active_tape is None


def test_second_order_through_gather_and_slices():
    idx = tf.tensor([2, 0, 2], dtype="int32")
    w = tf.tensor([1.0, 2.0, 3.0, 4.0])

    def first(x):        # d/dx sum(gather(x[::-1], idx)^2) = 2 x * (times x[i] is picked)
        return tf.grad(lambda x: tf.sum(tf.square(tf.gather(x[::-1], idx))))(x)
    x = tf.tensor([1.0, -2.0, 3.0, 5.0])
    assert_tensor(first(x), [0.0, -8.0, 0.0, 10.0])
    assert_tensor(tf.grad(lambda x: tf.sum(first(x) * w))(x), [0.0, 8.0, 0.0, 8.0])
