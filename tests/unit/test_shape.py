"""Shape ops against numpy: reshape, transpose, expand_dims, squeeze, concat, stack, unstack, split,
tile, pad, reverse, broadcast_to; data sharing, leaks and errors."""
import itertools

import numpy as np
import pytest

import pytfweb as tf

from .helpers import ALL_SHAPES, BROADCAST_PAIRS, assert_raises, assert_tensor, rand

DTYPES = ["float32", "int32", "bool"]


def leaves_only_result(fn):
    """Run fn (it must not raise) and check that its result is all it left behind."""
    before = tf.memory()
    out = fn()
    outs = out if isinstance(out, list) else [out]
    assert tf.memory().num_tensors == before.num_tensors + len(outs)
    tf.dispose(outs)
    after = tf.memory()
    assert (after.num_tensors, after.num_bytes) == (before.num_tensors, before.num_bytes)


# --- reshape, expand_dims, squeeze: relabelling ----------------------------------------

@pytest.mark.parametrize("dtype", DTYPES)
def test_reshape_matches_numpy(dtype, rng):
    for shape in ALL_SHAPES:
        x = rand(rng, shape, dtype)
        n = x.size
        targets = [(n,), (-1,), (1, n), (n, 1, 1), (-1, 1), (1, -1, 1), ()] if n == 1 else \
                  [(n,), (-1,), (1, n), (n, 1), (-1, 1), tuple(reversed(shape)), (shape[0], -1)]
        for target in targets:
            assert_tensor(tf.reshape(tf.tensor(x), list(target)), x.reshape(target), dtype)
    assert_tensor(tf.reshape([1, 2, 3, 4, 5, 6], (3, -1)), [[1, 2], [3, 4], [5, 6]])  # values, tuple shape
    assert_tensor(tf.reshape(tf.zeros([2, 0]), [0, 5]), np.zeros((0, 5)))


@pytest.mark.parametrize("fn", [lambda x: tf.reshape(x, [3, 2]), lambda x: tf.reshape(x, [-1]),
                                lambda x: tf.expand_dims(x, 1), lambda x: tf.squeeze(x),
                                lambda x: x.flatten(), lambda x: x.as2d(6, 1)])
def test_relabelling_shares_data(fn):
    x = tf.tensor([[[1.0, 2.0, 3.0]], [[4.0, 5.0, 6.0]]])   # shape [2, 1, 3]
    buffers = tf.memory().num_data_buffers
    y = fn(x)
    assert tf.memory().num_data_buffers == buffers
    assert y.data_id is x.data_id
    x.dispose()
    assert tf.memory().num_data_buffers == buffers   # y still holds the data
    assert y.data_sync().tolist() == [1, 2, 3, 4, 5, 6]
    y.dispose()
    assert tf.memory().num_data_buffers == buffers - 1
    assert tf.memory().num_tensors == 0


def test_reshape_errors():
    x = tf.ones([2, 3])
    assert_raises(ValueError, lambda: tf.reshape(x, [4, 2]), "reshape", "6 elements", "[4, 2]")
    assert_raises(ValueError, lambda: tf.reshape(x, [-1, -1]), "reshape", "-1")
    assert_raises(ValueError, lambda: tf.reshape(x, [4, -1]), "reshape", "[4, -1]")
    assert_raises(ValueError, lambda: tf.reshape(x, [-2, -3]), "reshape", "[-2, -3]")
    assert_raises(TypeError, lambda: tf.reshape(x, "6"), "reshape", "'shape'")
    assert_raises(TypeError, lambda: tf.reshape(x, [2.0, 3]), "reshape", "'shape'", "2.0")
    assert_raises(TypeError, lambda: tf.reshape(object(), [3]), "reshape", "'x'")   # (a str is a string scalar)
    assert_raises(ValueError, lambda: tf.reshape([1.0, 2.0, 3.0], [2]), "reshape")  # converted 'x' not kept


@pytest.mark.parametrize("dtype", DTYPES)
def test_expand_dims_matches_numpy(dtype, rng):
    for shape in ALL_SHAPES:
        x = rand(rng, shape, dtype)
        for axis in range(-len(shape) - 1, len(shape) + 1):
            assert_tensor(tf.expand_dims(tf.tensor(x), axis), np.expand_dims(x, axis), dtype)
    assert_tensor(tf.expand_dims(tf.scalar(3.0)), [3.0])


def test_expand_dims_errors():
    x = tf.ones([2, 3])
    assert_raises(ValueError, lambda: tf.expand_dims(x, 3), "expand_dims", "'axis' = 3", "-3 <= axis <= 2")
    assert_raises(ValueError, lambda: tf.expand_dims(x, -4), "expand_dims", "'axis' = -4")
    assert_raises(TypeError, lambda: tf.expand_dims(x, 1.0), "expand_dims", "'axis'")


@pytest.mark.parametrize("dtype", DTYPES)
def test_squeeze_matches_numpy(dtype, rng):
    for shape in ALL_SHAPES:
        x = rand(rng, shape, dtype)
        assert_tensor(tf.squeeze(tf.tensor(x)), np.squeeze(x), dtype)
        assert_tensor(tf.squeeze(tf.tensor(x), []), np.squeeze(x), dtype)   # TF.js: [] means all
        units = [a for a, d in enumerate(shape) if d == 1]
        for axis in units:
            assert_tensor(tf.squeeze(tf.tensor(x), axis), np.squeeze(x, axis), dtype)
            assert_tensor(tf.squeeze(tf.tensor(x), axis - len(shape)), np.squeeze(x, axis), dtype)
        if len(units) > 1:
            assert_tensor(tf.squeeze(tf.tensor(x), units[::-1]), np.squeeze(x, tuple(units)), dtype)


def test_squeeze_errors():
    x = tf.ones([2, 1, 3])
    assert_raises(ValueError, lambda: tf.squeeze(x, 0), "squeeze", "axis 0", "size is 2, not 1")
    assert_raises(ValueError, lambda: tf.squeeze(x, [1, 2]), "squeeze", "axis 2")
    assert_raises(ValueError, lambda: tf.squeeze(x, 3), "squeeze", "'axis' = 3")
    assert_raises(ValueError, lambda: tf.squeeze(x, [1, 1]), "squeeze", "repeated")
    assert_raises(ValueError, lambda: tf.squeeze(1.0, 0), "squeeze", "'x'", "scalar")


# --- transpose -------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", DTYPES)
def test_transpose_matches_numpy(dtype, rng):
    for shape in ALL_SHAPES:
        x = rand(rng, shape, dtype)
        assert_tensor(tf.transpose(tf.tensor(x)), x.T, dtype)
        for perm in itertools.permutations(range(len(shape))):
            assert_tensor(tf.transpose(tf.tensor(x), list(perm)), np.transpose(x, perm), dtype)
    assert_tensor(tf.tensor([[1, 2, 3]]).transpose(), [[1], [2], [3]])


def test_transpose_errors():
    x = tf.ones([2, 3, 4])
    for perm in ([0, 1], [0, 1, 1], [0, 1, 3], [0, 1, -1]):
        assert_raises(ValueError, lambda: tf.transpose(x, perm), "transpose", "'perm'", "permutation",
                      str(perm))
    assert_raises(TypeError, lambda: tf.transpose(x, 1), "transpose", "'perm'")


# --- joining and splitting -------------------------------------------------------------

@pytest.mark.parametrize("dtype", DTYPES)
def test_concat_matches_numpy(dtype, rng):
    for shape in ALL_SHAPES[1:]:
        for axis in range(-len(shape), len(shape)):
            parts = []
            for extent in (2, 1, 0, 3):      # an empty part too
                s = list(shape)
                s[axis] = extent
                parts.append(rand(rng, s, dtype))
            for k in (2, 3, 4):
                got = tf.concat([tf.tensor(p) for p in parts[:k]], axis)
                assert_tensor(got, np.concatenate(parts[:k], axis), dtype)
    assert_tensor(tf.concat([[1, 2], tf.tensor([3], dtype="int32")]), [1, 2, 3], "int32")   # values take the dtype
    assert_tensor(tf.concat([tf.zeros([2, 0]), tf.zeros([3, 0])]), np.zeros((5, 0)))   # all empty


def test_concat_of_one_tensor_is_a_clone():
    x = tf.tensor([[1, 2]])
    y = tf.concat([x], 1)
    assert y is not x and y.shape == x.shape
    x.dispose()
    assert y.array_sync() == [[1, 2]]


def test_concat_of_mixed_dtypes_takes_the_first_ones():
    # TF.js's kernels copy every input into the first tensor's typed array
    got = tf.concat([tf.tensor([1, 2], dtype="int32"), tf.tensor([2.7, -1.5])])
    assert got.dtype == "int32" and got.array_sync() == [1, 2, 2, -1]
    got = tf.concat([tf.tensor([0.5]), tf.tensor([True, False])])
    assert got.dtype == "float32" and got.array_sync() == [0.5, 1, 0]


def test_concat_errors():
    a, b = tf.ones([2, 3]), tf.ones([2, 4])
    strs = tf.tensor([["x"], ["y"]])
    assert_raises(ValueError, lambda: tf.concat([], 0), "concat", "'tensors'", "at least one")
    assert_raises(TypeError, lambda: tf.concat(a, 0), "concat", "'tensors'", "list")
    assert_raises(ValueError, lambda: tf.concat([a, b], 0), "concat", "tensors[1]", "[2, 4]", "axis 0")
    assert_raises(ValueError, lambda: tf.concat([a, np.ones(6)], 0), "concat", "tensors[1]", "rank")
    assert_raises(ValueError, lambda: tf.concat([a, b], 2), "concat", "'axis' = 2")
    assert_raises(ValueError, lambda: tf.concat([1.0, 2.0]), "concat", "'x'", "scalar")
    assert_raises(TypeError, lambda: tf.concat([a, strs], 1), "concat", "string",
                  "tensors[1]")
    assert_raises(TypeError, lambda: tf.concat([a, "b"], 1), "concat", "'tensors[1]'")
    assert_raises(ValueError, lambda: tf.concat([a, [[1.0, 2.0]]], 0), "concat", "tensors[1]")


@pytest.mark.parametrize("dtype", DTYPES)
def test_stack_matches_numpy(dtype, rng):
    for shape in ALL_SHAPES:
        parts = [rand(rng, shape, dtype) for _ in range(3)]
        for axis in range(-len(shape) - 1, len(shape) + 1):
            for k in (1, 2, 3):
                assert_tensor(tf.stack([tf.tensor(p) for p in parts[:k]], axis), np.stack(parts[:k], axis), dtype)
    assert_tensor(tf.stack([1, 2, 3]), [1, 2, 3])   # Python scalars


def test_stack_errors():
    a, b_bool = tf.ones([2, 3]), tf.ones([2, 3], "bool")
    assert_raises(ValueError, lambda: tf.stack([a, np.ones((3, 2))]), "stack", "tensors[1]", "[3, 2]")
    assert_raises(TypeError, lambda: tf.stack([a, b_bool]), "stack", "dtype")
    assert_raises(ValueError, lambda: tf.stack([a, a], 3), "stack", "'axis' = 3")
    assert_raises(ValueError, lambda: tf.stack([]), "stack", "'tensors'")


@pytest.mark.parametrize("dtype", DTYPES)
def test_unstack_matches_numpy(dtype, rng):
    for shape in ALL_SHAPES[1:] + [(2, 0, 3)]:
        x = rand(rng, shape, dtype)
        for axis in range(-len(shape), len(shape)):
            got = tf.unstack(tf.tensor(x), axis)
            expected = list(np.moveaxis(x, axis, 0))
            assert len(got) == len(expected)
            for g, e in zip(got, expected):
                assert_tensor(g, e, dtype)
    rows = list(tf.tensor([[1, 2], [3, 4]]))   # iteration unstacks
    assert [r.array_sync() for r in rows] == [[1, 2], [3, 4]]


def test_unstack_errors():
    assert_raises(ValueError, lambda: tf.unstack(1.0), "unstack", "'x'", "scalar")
    assert_raises(ValueError, lambda: tf.unstack(np.ones((2, 3)), 2), "unstack", "'axis' = 2")


@pytest.mark.parametrize("dtype", DTYPES)
def test_split_matches_numpy(dtype, rng):
    x = rand(rng, (6, 4, 2), dtype)
    cases = [(0, 3, [2, 4]), (0, [1, 2, 3], [1, 3]), (0, [1, -1, 2], [1, 4]), (1, 2, [2]), (1, [0, 4, 0], [0, 4]),
             (-1, 1, []), (-2, [-1], []), (2, [2, -1], [2])]
    for axis, splits, cuts in cases:
        got = tf.split(tf.tensor(x), splits, axis)
        expected = np.split(x, cuts, axis)
        assert len(got) == len(expected)
        for g, e in zip(got, expected):
            assert_tensor(g, e, dtype)


def test_split_errors():
    x = tf.ones([6, 4])
    assert_raises(ValueError, lambda: tf.split(x, 4), "split", "'num_or_size_splits' = 4", "size 6")
    assert_raises(ValueError, lambda: tf.split(x, 0), "split", "'num_or_size_splits' = 0")
    assert_raises(ValueError, lambda: tf.split(x, [1, 2]), "split", "[1, 2]", "sum to", "6")
    assert_raises(ValueError, lambda: tf.split(x, [-1, -1]), "split", "at most one -1")
    assert_raises(ValueError, lambda: tf.split(x, [7, -1]), "split", "[7, -1]")
    assert_raises(ValueError, lambda: tf.split(x, [8, -2]), "split", "[8, -2]")
    assert_raises(TypeError, lambda: tf.split(x, [1.5, 4.5]), "split", "'num_or_size_splits'")
    assert_raises(ValueError, lambda: tf.split(x, 2, 2), "split", "'axis' = 2")
    assert_raises(ValueError, lambda: tf.split(1.0, 1), "split", "scalar")


# --- tile, pad, reverse, broadcast_to --------------------------------------------------

@pytest.mark.parametrize("dtype", DTYPES)
def test_tile_matches_numpy(dtype, rng):
    for shape in ALL_SHAPES:
        x = rand(rng, shape, dtype)
        for _ in range(3):
            reps = [int(r) for r in rng.integers(0, 4, size=len(shape))]
            assert_tensor(tf.tile(tf.tensor(x), reps), np.tile(x, reps) if reps else x, dtype)
        assert_tensor(tf.tile(tf.tensor(x), [1] * len(shape)), x, dtype)


def test_tile_errors():
    x = tf.ones([2, 3])
    assert_raises(ValueError, lambda: tf.tile(x, [2]), "tile", "'reps'", "rank 2", "[2]")
    assert_raises(ValueError, lambda: tf.tile(x, [2, -1]), "tile", "'reps'", "non-negative")
    assert_raises(TypeError, lambda: tf.tile(x, 2), "tile", "'reps'")


@pytest.mark.parametrize("dtype", DTYPES)
def test_pad_matches_numpy(dtype, rng):
    value = {"float32": 2.5, "int32": 7, "bool": True}[dtype]
    for shape in ALL_SHAPES[1:]:
        x = rand(rng, shape, dtype)
        for _ in range(3):
            paddings = [[int(v) for v in rng.integers(0, 3, size=2)] for _ in shape]
            assert_tensor(tf.pad(tf.tensor(x), paddings), np.pad(x, paddings), dtype)
            assert_tensor(tf.pad(tf.tensor(x), paddings, value), np.pad(x, paddings, constant_values=value), dtype)
    # the value as an int32 tensor stores it: truncated toward zero
    assert_tensor(tf.pad(tf.tensor([1], dtype="int32"), [[1, 1]], -2.7), [-2, 1, -2], "int32")


def test_pad_errors():
    x = tf.ones([2, 3])
    assert_raises(ValueError, lambda: tf.pad(1.0, []), "pad", "'x'", "rank >= 1")
    assert_raises(ValueError, lambda: tf.pad(x, [[1, 1]]), "pad", "'paddings'", "rank 2")
    assert_raises(ValueError, lambda: tf.pad(x, [[1, 1], [1]]), "pad", "'paddings'", "pair")
    assert_raises(ValueError, lambda: tf.pad(x, [[1, 1], [0, -1]]), "pad", "'paddings'", "non-negative")
    assert_raises(TypeError, lambda: tf.pad(x, 1), "pad", "'paddings'")
    assert_raises(TypeError, lambda: tf.pad(x, [[1, 1], [0, 0.5]]), "pad", "'paddings'")
    assert_raises(TypeError, lambda: tf.pad(x, [[1, 1], [0, 0]], "0"), "pad", "'constant_value'")
    # the constant as TF.js's Uint8Array stores it: 0.5 is false
    assert tf.pad([True], [[1, 1]], 0.5).array_sync() == [False, True, False]


@pytest.mark.parametrize("dtype", DTYPES)
def test_reverse_matches_numpy(dtype, rng):
    for shape in ALL_SHAPES:
        x = rand(rng, shape, dtype)
        assert_tensor(tf.reverse(tf.tensor(x)), np.flip(x), dtype)
        for r in range(1, len(shape) + 1):
            for axes in itertools.combinations(range(len(shape)), r):
                assert_tensor(tf.reverse(tf.tensor(x), list(axes)), np.flip(x, axes), dtype)
                assert_tensor(tf.reverse(tf.tensor(x), axes[0] - len(shape)), np.flip(x, axes[0]), dtype)


def test_reverse_errors():
    x = tf.ones([2, 3])
    assert_raises(ValueError, lambda: tf.reverse(x, 2), "reverse", "'axis' = 2")
    assert_raises(ValueError, lambda: tf.reverse(x, [0, -2]), "reverse", "repeated")
    assert_raises(ValueError, lambda: tf.reverse(1.0, 0), "reverse", "scalar")


@pytest.mark.parametrize("dtype", DTYPES)
def test_broadcast_to_matches_numpy(dtype, rng):
    for a, b in BROADCAST_PAIRS + [((1, 3), (0, 3)), ((2, 3), (2, 3))]:
        if len(a) > len(b):
            a, b = b, a
        target = np.broadcast_shapes(a, b)
        x = rand(rng, a, dtype)
        assert_tensor(tf.broadcast_to(tf.tensor(x), list(target)), np.broadcast_to(x, target), dtype)
        leaves_only_result(lambda: tf.broadcast_to(x, list(target)))


def test_broadcast_to_errors():
    x = tf.ones([2, 3])
    assert_raises(ValueError, lambda: tf.broadcast_to(x, [3, 3]), "broadcast_to", "[2, 3]", "[3, 3]")
    assert_raises(ValueError, lambda: tf.broadcast_to(x, [3]), "broadcast_to", "'shape'", "fewer")
    assert_raises(ValueError, lambda: tf.broadcast_to(x, [-1, 3]), "broadcast_to", "'shape'")
    assert_raises(TypeError, lambda: tf.broadcast_to(x, "3"), "broadcast_to", "'shape'")


# --- what every op shares: results only, methods ---------------------------------------

@pytest.mark.parametrize("fn", [
    lambda: tf.reshape([[1, 2], [3, 4]], [-1]),
    lambda: tf.transpose([[1, 2], [3, 4]]),
    lambda: tf.transpose([1, 2]),
    lambda: tf.expand_dims([1, 2], -1),
    lambda: tf.squeeze([[1, 2]]),
    lambda: tf.concat([[1, 2], [3]]),
    lambda: tf.concat([[1, 2]]),
    lambda: tf.concat([np.zeros((0, 2)), np.zeros((0, 2))]),
    lambda: tf.stack([[1, 2], [3, 4]], 1),
    lambda: tf.stack([[1, 2]], 1),
    lambda: tf.unstack([[1, 2], [3, 4]], 1),
    lambda: tf.split([1, 2, 3, 4], [1, -1]),
    lambda: tf.tile([1, 2], [3]),
    lambda: tf.tile([1, 2], [1]),
    lambda: tf.pad([1, 2], [[1, 0]]),
    lambda: tf.reverse([1, 2]),
    lambda: tf.broadcast_to([1, 2], [3, 2]),
    lambda: tf.broadcast_to([[1, 2]], [1, 2]),
])
def test_ops_leave_only_their_result(fn):
    leaves_only_result(fn)


def test_methods():
    x = tf.tensor([[1, 2, 3], [4, 5, 6]])
    assert_tensor(x.reshape([3, 2]), [[1, 2], [3, 4], [5, 6]])
    assert_tensor(x.transpose([1, 0]), [[1, 4], [2, 5], [3, 6]])
    assert_tensor(x.expand_dims(0).squeeze(), [[1, 2, 3], [4, 5, 6]])
    assert_tensor(x.tile([1, 2]), [[1, 2, 3, 1, 2, 3], [4, 5, 6, 4, 5, 6]])
    assert_tensor(x.pad([[0, 0], [1, 0]], 9), [[9, 1, 2, 3], [9, 4, 5, 6]])
    assert_tensor(x.reverse(1), [[3, 2, 1], [6, 5, 4]])
    assert [t.array_sync() for t in x.split(3, 1)] == [[[1], [4]], [[2], [5]], [[3], [6]]]
    assert [t.array_sync() for t in x.unstack()] == [[1, 2, 3], [4, 5, 6]]
