"""Reductions against numpy: every axis form, keep_dims, dtypes, NaN, empty axes, errors."""
import numpy as np
import pytest

import pytfweb as tf

from .helpers import ALL_SHAPES, EDGE_FLOATS, assert_no_leak, assert_raises, assert_tensor, rand

# op name -> (numpy reduction, output dtype for float32/int32/bool input)
REDUCTIONS = {
    "sum": (np.sum, {"float32": "float32", "int32": "int32", "bool": "int32"}),
    "prod": (np.prod, {"float32": "float32", "int32": "int32", "bool": "int32"}),
    "mean": (np.mean, {"float32": "float32", "int32": "float32", "bool": "float32"}),
    "max": (np.max, {"float32": "float32", "int32": "int32", "bool": "bool"}),
    "min": (np.min, {"float32": "float32", "int32": "int32", "bool": "bool"}),
}


def axis_forms(rank):
    """Every way to name axes of a tensor of this rank: None, each int (also negative), lists."""
    forms = [None]
    for a in range(rank):
        forms += [a, a - rank, [a]]
    if rank >= 2:
        forms += [[0, rank - 1], [rank - 1, 0], list(range(rank)), [-1, -2]]
    if rank >= 3:
        forms.append([0, 2])
    return forms


def _np_axes(axis):
    return tuple(axis) if isinstance(axis, list) else axis


@pytest.mark.parametrize("name", REDUCTIONS)
@pytest.mark.parametrize("dtype", ["float32", "int32", "bool"])
def test_reductions_match_numpy(name, dtype, rng):
    np_fn, out_dtypes = REDUCTIONS[name]
    fn = getattr(tf, name)
    for shape in ALL_SHAPES:
        # small ints keep int32 products exact
        x = rand(rng, shape, dtype, low=-2, high=3) if dtype == "int32" else rand(rng, shape, dtype)
        tx = tf.tensor(x)
        for axis in axis_forms(len(shape)):
            for keep_dims in (False, True):
                src = x.astype(np.float64) if out_dtypes[dtype] == "float32" else x
                expected = np_fn(src, axis=_np_axes(axis), keepdims=keep_dims)
                got = fn(tx, axis, keep_dims)
                assert_tensor(got, np.asarray(expected), out_dtypes[dtype], rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("name", ["all", "any"])
def test_logical_reductions(name, rng):
    np_fn = getattr(np, name)
    for shape in ALL_SHAPES:
        x = rand(rng, shape, "bool")
        tx = tf.tensor(x)
        for axis in axis_forms(len(shape)):
            for keep_dims in (False, True):
                expected = np_fn(x, axis=_np_axes(axis), keepdims=keep_dims)
                assert_tensor(getattr(tf, name)(tx, axis, keep_dims), np.asarray(expected), "bool")
    assert_tensor(getattr(tf, name)([1, 0]), np_fn([True, False]), "bool")   # Python values read as bool


def test_methods():
    x = tf.tensor([[1.0, 5.0], [3.0, 2.0]])
    assert_tensor(x.sum(), 11.0)
    assert_tensor(x.mean(0), [2.0, 3.5])
    assert_tensor(x.max(1, True), [[5.0], [3.0]])
    assert_tensor(x.min(), 1.0)
    assert_tensor(x.prod(-1), [5.0, 6.0])
    assert_tensor(x.arg_max(1), [1, 0], "int32")
    assert_tensor(x.arg_min(), [0, 1], "int32")
    b = tf.tensor([[True, False], [True, True]])
    assert_tensor(b.all(1), [False, True], "bool")
    assert_tensor(b.any(0), [True, True], "bool")


def test_nan_propagates_in_max_and_min():
    x = np.array([[1.0, np.nan, 3.0], [np.inf, -np.inf, 0.0]], np.float32)
    assert_tensor(tf.max(x, 1), [np.nan, np.inf])
    assert_tensor(tf.min(x, 1), [np.nan, -np.inf])
    assert_tensor(tf.max(x, 0), [np.inf, np.nan, 3.0])
    assert_tensor(tf.sum(EDGE_FLOATS), np.nan)
    assert_tensor(tf.max(EDGE_FLOATS[:-1]), np.inf)
    assert_tensor(tf.min(EDGE_FLOATS[:-1]), -np.inf)


def test_empty_axes_give_tfjs_values():
    # TF.js 4.22's cpu backend: mean sums x / count (0); max and min read a value that is not
    # there (NaN in a Float32Array, 0 in an Int32Array)
    x = tf.zeros([0, 3])
    assert_tensor(tf.sum(x, 0), np.zeros(3))
    assert_tensor(tf.prod(x, 0), np.ones(3))
    assert_tensor(tf.mean(x, 0), np.zeros(3))
    assert_tensor(tf.max(x, 0), np.full(3, np.nan))
    assert_tensor(tf.min(x, 0), np.full(3, np.nan))
    ints = tf.zeros([2, 0], "int32")
    assert_tensor(tf.max(ints, 1), np.zeros(2, np.int32), "int32")
    assert_tensor(tf.min(ints, 1), np.zeros(2, np.int32), "int32")
    bools = tf.zeros([0], "bool")
    assert_tensor(tf.all(bools), True, "bool")   # TF.js: False (README's deviations)
    assert_tensor(tf.any(bools), False, "bool")
    assert_tensor(tf.sum(x, 1), np.zeros(0))   # empty result, non-empty axis
    assert_tensor(tf.sum(tf.ones([2, 3]), []), np.ones([2, 3]))   # no axes: nothing reduced


def test_rank0_has_no_axis():
    # TF.js: axis 0 of a rank-0 tensor is out of range [-0, 0); None and [] reduce nothing
    f, i = tf.scalar(3.0), tf.scalar(3, "int32")
    assert_raises(ValueError, lambda: tf.sum(f, 0), "sum", "'axis'")
    assert_raises(ValueError, lambda: tf.max(i, -1, True), "max", "'axis'")
    assert_tensor(tf.sum(f), 3.0)
    assert_tensor(tf.max(i, [], True), 3, "int32")


def test_int32_sums_wrap_like_int32():
    big = np.array([2**31 - 1, 1], np.int32)
    assert_tensor(tf.sum(big), np.int32(-2**31), "int32")
    assert_tensor(tf.prod(np.array([65536, 65536], np.int32)), 0, "int32")


@pytest.mark.parametrize("name,np_fn", [("arg_max", np.argmax), ("arg_min", np.argmin)])
def test_arg_reductions(name, np_fn, rng):
    fn = getattr(tf, name)
    for dtype in ("float32", "int32", "bool"):
        for shape in ALL_SHAPES[1:]:
            # a narrow integer range makes ties frequent: the first index must win
            x = rand(rng, shape, dtype, low=-2, high=2)
            tx = tf.tensor(x)
            for axis in range(-len(shape), len(shape)):
                assert_tensor(fn(tx, axis), np_fn(x, axis=axis), "int32")
    assert_tensor(fn(tf.tensor([[1.0, 2.0], [2.0, 1.0]])), np_fn([[1, 2], [2, 1]], axis=0), "int32")  # axis 0
    # TF.js's scan: NaN never wins, except at index 0
    assert_tensor(fn([3.0, np.nan, 7.0, np.nan]), 2 if name == "arg_max" else 0, "int32")
    assert_tensor(fn([np.nan, 3.0, 7.0]), 0, "int32")
    assert_tensor(fn(np.zeros((2, 0), np.float32), 1), [0, 0], "int32")   # an empty axis: 0


def test_errors_name_op_and_argument():
    x = tf.ones([2, 3])
    for name in ("sum", "mean", "prod", "max", "min"):
        fn = getattr(tf, name)
        assert_raises(ValueError, lambda: fn(x, 2), name, "'axis'", "rank 2")
        assert_raises(ValueError, lambda: fn(x, -3), name, "'axis'")
        assert_raises(ValueError, lambda: fn(x, [0, -2]), name, "'axis'", "repeated")
        assert_raises(TypeError, lambda: fn(x, 1.5), name, "'axis'")
        assert_raises(TypeError, lambda: fn(x, 0, "yes"), name, "'keep_dims'")
        assert_raises(TypeError, lambda: fn("abc"), name, "'x'")
        assert_raises(ValueError, lambda: fn([[1.0], [2.0, 3.0]]), name, "'x'")
    flags = tf.tensor([True, False])
    for name in ("all", "any"):
        fn = getattr(tf, name)
        assert_raises(TypeError, lambda: fn(x), name, "'x'", "bool")
        assert fn([0.5, 0.4]).array_sync() is (name == "any")   # read as bool as TF.js does: round(v) != 0
        assert_raises(ValueError, lambda: fn(flags, 1), name, "'axis'")
    for name in ("arg_max", "arg_min"):
        fn = getattr(tf, name)
        assert_raises(ValueError, lambda: fn(x, 2), name, "'axis'")
        assert_raises(TypeError, lambda: fn(x, [0]), name, "'axis'")
        assert_raises(ValueError, lambda: fn(3.0), name, "'x'", "rank")


def test_python_inputs_and_casts_do_not_leak():
    before = tf.memory().num_tensors
    s = tf.sum([[True, False], [True, True]], 1)        # converted, then cast to int32
    m = tf.mean(np.array([1, 2], np.int32))             # converted, then cast to float32
    assert tf.memory().num_tensors == before + 2
    assert_tensor(s, [1, 2], "int32")
    assert_tensor(m, 1.5, "float32")
    assert_no_leak(lambda: tf.sum([1.0, 2.0], 3))
