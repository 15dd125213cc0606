"""softmax, log_softmax, log_sum_exp, moments, one_hot against numpy (float64 references)."""
import numpy as np
import pytest

import pytfweb as tf
from pytfweb.ops.nn import one_hot_any_depth

from .helpers import ALL_SHAPES, assert_raises, assert_tensor, rand

RANKED_SHAPES = [s for s in ALL_SHAPES if s]


def np_log_sum_exp(x, axis, keepdims=False):
    m = np.max(x, axis=axis, keepdims=True)
    out = m + np.log(np.sum(np.exp(x - m), axis=axis, keepdims=True))
    return out if keepdims else np.squeeze(out, axis=axis)


def np_log_softmax(x, axis):
    return x - np_log_sum_exp(x, axis, keepdims=True)


@pytest.mark.parametrize("name,ref", [("softmax", lambda x, a: np.exp(np_log_softmax(x, a))),
                                      ("log_softmax", np_log_softmax)])
def test_softmax_family_along_the_last_axis_only(name, ref, rng):
    fn = getattr(tf, name)
    for shape in RANKED_SHAPES:
        x = rand(rng, shape)
        tx = tf.tensor(x)
        assert_tensor(fn(tx), ref(x.astype(np.float64), -1), "float32")   # default: the last axis
        assert_tensor(fn(tx, len(shape) - 1), ref(x.astype(np.float64), -1), "float32", atol=1e-5)
        for axis in range(-len(shape), len(shape) - 1):   # TF.js supports no other axis
            if axis != -1:
                before = tf.memory().num_tensors
                assert_raises(ValueError, lambda: fn(tx, axis), name, "last axis")
                assert tf.memory().num_tensors == before


def test_softmax_is_stable_for_large_logits():
    x = np.array([[1000.0, 1001.0, 1002.0], [-1000.0, -1000.0, -1000.0]], np.float32)
    expected = np.exp(np_log_softmax(x.astype(np.float64), -1))
    assert_tensor(tf.softmax(x), expected)
    assert_tensor(tf.log_softmax(x), np_log_softmax(x.astype(np.float64), -1))
    assert_tensor(tf.softmax(x, 1), np.exp(np_log_softmax(x.astype(np.float64), 1)))


def test_softmax_nan_and_int_inputs():
    assert_tensor(tf.softmax([1.0, np.nan, 2.0]), [np.nan] * 3)
    ints = tf.tensor([[1, 2], [3, 3]], dtype="int32")
    # TF.js: softmax takes float32 tensors only (Python values are read as float32); log_softmax
    # reads int32 as float32
    assert_raises(TypeError, lambda: tf.softmax(ints), "softmax", "'logits'", "float32")
    assert_tensor(tf.softmax([[1, 2], [3, 3]]), np.exp(np_log_softmax(np.array([[1.0, 2.0], [3.0, 3.0]]), -1)))
    assert_tensor(ints.cast("float32").softmax(), tf.softmax([[1.0, 2.0], [3.0, 3.0]]).numpy())   # also a method
    assert_tensor(ints.log_softmax(1), np_log_softmax(np.array([[1.0, 2.0], [3.0, 3.0]]), 1))


def test_softmax_errors():
    x = tf.ones([2, 3])
    assert_raises(ValueError, lambda: tf.softmax(x, 2), "softmax", "'dim'")
    assert_raises(ValueError, lambda: tf.log_softmax(x, -3), "log_softmax", "'axis'")
    assert_raises(TypeError, lambda: tf.softmax(x, 0.5), "softmax", "'dim'")
    assert_raises(ValueError, lambda: tf.softmax(3.0), "softmax", "'logits'", "rank")
    assert_raises(TypeError, lambda: tf.log_softmax("x"), "log_softmax", "'logits'")


def test_log_sum_exp(rng):
    for shape in ALL_SHAPES:
        x = rand(rng, shape)
        for axis in [None] + list(range(len(shape))) + ([[0, len(shape) - 1]] if len(shape) > 1 else []):
            np_axis = tuple(axis) if isinstance(axis, list) else axis
            for keep_dims in (False, True):
                expected = np_log_sum_exp(x.astype(np.float64), np_axis, keep_dims)
                assert_tensor(tf.log_sum_exp(x, axis, keep_dims), expected, "float32")
    big = np.array([1000.0, 1000.0], np.float32)
    assert_tensor(tf.log_sum_exp(big), 1000.0 + np.log(2))   # no overflow
    # an infinite maximum is not subtracted from itself (TF.js gives NaN for these)
    assert_tensor(tf.log_sum_exp([-np.inf, -np.inf]), -np.inf)
    assert_tensor(tf.log_sum_exp([np.inf, 1.0]), np.inf)
    assert_tensor(tf.log_sum_exp([np.nan, 1.0]), np.nan)
    assert_tensor(tf.log_sum_exp(tf.tensor([0, 0], dtype="int32")), np.log(2), "float32")
    before = tf.memory().num_tensors
    tf.log_sum_exp([[1.0, 2.0], [3.0, 4.0]], 1)
    assert tf.memory().num_tensors == before + 1
    assert_raises(ValueError, lambda: tf.log_sum_exp([1.0, 2.0], 1), "log_sum_exp", "'axis'")


def test_moments(rng):
    for shape in ALL_SHAPES:
        x = rand(rng, shape)
        for axis in [None] + list(range(len(shape))) + ([[0, len(shape) - 1]] if len(shape) > 1 else []):
            np_axis = tuple(axis) if isinstance(axis, list) else axis
            for keep_dims in (False, True):
                mean, variance = tf.moments(x, axis, keep_dims)
                x64 = x.astype(np.float64)
                assert_tensor(mean, np.mean(x64, axis=np_axis, keepdims=keep_dims), "float32")
                assert_tensor(variance, np.var(x64, axis=np_axis, keepdims=keep_dims), "float32", rtol=1e-4)
    result = tf.moments(tf.tensor([1, 2, 3, 6], dtype="int32"))
    assert_tensor(result.mean, 3.0, "float32")   # TF.js's attribute names work too
    assert_tensor(result.variance, 3.5, "float32")
    before = tf.memory().num_tensors
    tf.moments([[1.0, 2.0], [3.0, 4.0]], 0)
    assert tf.memory().num_tensors == before + 2
    assert_raises(ValueError, lambda: tf.moments([1.0, 2.0], [0, 0]), "moments", "'axis'", "repeated")


def test_one_hot(rng):
    for shape in [(), (4,), (2, 3), (2, 1, 3)]:
        idx = rand(rng, shape, "int32", low=-1, high=6)   # includes out-of-range indices
        expected = (idx[..., None] == np.arange(5)).astype(np.int32)
        assert_tensor(tf.one_hot(tf.tensor(idx), 5), expected, "int32")
    assert_tensor(tf.one_hot([0, 2], 3, 5, -1), [[5, -1, -1], [-1, -1, 5]], "int32")
    assert_tensor(tf.one_hot([1], 2, 0.5, 0.25, "float32"), [[0.25, 0.5]], "float32")
    assert_tensor(tf.one_hot([1, 0], 2, dtype="bool"), [[False, True], [True, False]], "bool")
    # depth 1, refused by tf.one_hot as TF.js does, is open to what builds on one-hot rows
    assert_tensor(one_hot_any_depth([0, 1], 1), [[1], [0]], "int32")
    assert_tensor(tf.tensor([1, 0], dtype="int32").one_hot(2), [[0, 1], [1, 0]], "int32")


def test_one_hot_errors():
    floats, bools, ints = tf.tensor([0.0, 1.0]), tf.tensor([True]), tf.tensor([0, 1], dtype="int32")
    assert_raises(TypeError, lambda: tf.one_hot(floats, 3), "one_hot", "'indices'", "int32")
    assert_raises(TypeError, lambda: tf.one_hot(bools, 3), "one_hot", "'indices'")
    assert_raises(ValueError, lambda: tf.one_hot(ints, 0), "one_hot", "'depth'", ">= 2")
    assert_raises(ValueError, lambda: tf.one_hot(ints, 1), "one_hot", "'depth'", ">= 2")   # TF.js: depth >= 2
    assert_raises(ValueError, lambda: one_hot_any_depth(ints, 0), "one_hot", "'depth'", ">= 1")
    assert_raises(TypeError, lambda: tf.one_hot(ints, 2.5), "one_hot", "'depth'")
    assert_raises(TypeError, lambda: tf.one_hot([0, 1], 3, "on"), "one_hot", "'on_value'")
    assert_raises(TypeError, lambda: tf.one_hot([0, 1], 3, dtype="float64"), "one_hot", "'dtype'")
