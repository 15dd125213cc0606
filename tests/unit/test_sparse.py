"""tf.sparse_to_dense, the tf.sparse namespace, the ragged ops and tf.browser on the cpu
backend: cases ported from TF.js 4.22's tests (tfjs-core/dist/ops/**/*_test.js), numpy
references, error cases and leaks."""
import numpy as np
import pytest

import pytfweb as tf

from .helpers import assert_no_leak, assert_raises, assert_tensor

I32 = "int32"


def raises(exc_type, fn, *fragments):
    """assert_raises, with the tensors fn makes for its arguments disposed by a tidy."""
    assert_raises(exc_type, lambda: tf.tidy(fn), *fragments)


# --- sparse_to_dense --------------------------------------------------------------------------

def _dense_reference(indices, values, shape, default):
    out = np.full(shape, default, dtype=np.asarray(values).dtype)
    idx = np.asarray(indices).reshape(-1, len(shape))
    vals = np.broadcast_to(np.asarray(values).ravel(), (len(idx),))
    for i, v in zip(idx, vals):
        out[tuple(i)] = v
    return out


@pytest.mark.parametrize("indices, values, shape, default", [
    ([4, 5, 6, 1, 2, 3], np.float32([10, 11, 12, 13, 14, 15]), [8], 0.0),        # TF.js doc example
    ([4, 5, 6, 1, 2, 3], np.int32([10, 11, 12, 13, 14, 15]), [8], 7),
    ([[0, 1], [1, 1], [2, 0]], np.float32([1.5, -2, 3]), [3, 2], -1.0),
    ([[0, 1, 2], [1, 0, 0]], np.float32(4.0), [2, 2, 3], 0.5),                   # scalar values
    (3, np.float32(2.0), [5], 0.0),                                              # scalar index
    ([0, 2], np.bool_([True, True]), [4], False),
    ([1, 3, 1], np.float32([1, 2, 3]), [4], 0.0),                                # repeated: last wins
])
def test_sparse_to_dense_against_numpy(indices, values, shape, default):
    got = tf.sparse_to_dense(tf.tensor(indices, dtype=I32), tf.tensor(values), shape, default)
    want = _dense_reference(indices, values, shape, default)
    assert_tensor(got, want, dtype={"f": "float32", "i": I32, "b": "bool"}[want.dtype.kind])


def test_sparse_to_dense_empty_indices_and_zero_size():
    assert_tensor(tf.sparse_to_dense(tf.tensor([], [0, 2], I32), tf.tensor([], [0]), [2, 2], 3.0), np.full((2, 2), 3.0))
    assert tf.sparse_to_dense(tf.tensor([], [0], I32), tf.tensor([], [0]), [0]).shape == (0,)


def test_sparse_to_dense_errors():
    idx, vals = tf.tensor([1, 2], dtype=I32), tf.tensor([1.0, 2.0])
    raises(TypeError, lambda: tf.sparse_to_dense(tf.tensor([1.0, 2.0]), vals, [4]), "sparse_to_dense",
                  "sparse_indices", "int32")
    raises(ValueError, lambda: tf.sparse_to_dense(tf.zeros([1, 1, 1], I32), vals, [4]), "sparse_indices")
    raises(ValueError, lambda: tf.sparse_to_dense(idx, vals, [4, 4]), "output_shape")
    raises(ValueError, lambda: tf.sparse_to_dense(idx, tf.tensor([1.0, 2, 3]), [4]), "sparse_values")
    raises(TypeError, lambda: tf.sparse_to_dense(idx, vals, [4], tf.scalar(1, I32)), "default_value")
    raises(ValueError, lambda: tf.sparse_to_dense(idx, vals, [2]), "sparse_indices", "output_shape")
    raises(ValueError, lambda: tf.sparse_to_dense(idx, vals, [-1]), "output_shape")


# --- sparse_fill_empty_rows -------------------------------------------------------------------

def _fill(ind, val, shape, default, **kw):
    return tf.sparse.sparse_fill_empty_rows(tf.tensor(ind, dtype=I32), tf.tensor(val, **kw), shape, default)


@pytest.mark.parametrize("dtype", ["float32", "int32"])
def test_sparse_fill_empty_rows(dtype):
    r = _fill([[0, 0], [1, 0], [1, 3], [1, 4], [3, 2], [3, 3]], [0, 10, 13, 14, 32, 33], [5, 6], -1, dtype=dtype)
    assert_tensor(r.output_indices, [[0, 0], [1, 0], [1, 3], [1, 4], [2, 0], [3, 2], [3, 3], [4, 0]], I32)
    assert_tensor(r.output_values, [0, 10, 13, 14, -1, 32, 33, -1], dtype)
    assert_tensor(r.empty_row_indicator, [False, False, True, False, True], "bool")
    assert_tensor(r.reverse_index_map, [0, 1, 2, 3, 5, 6], I32)


def test_sparse_fill_empty_rows_full_unordered_and_no_rows():
    r = _fill([[0, 0], [1, 0], [1, 3], [1, 4]], [0, 10, 13, 14], [2, 6], -1)
    assert_tensor(r.output_indices, [[0, 0], [1, 0], [1, 3], [1, 4]])
    assert_tensor(r.reverse_index_map, [0, 1, 2, 3])
    r = _fill([[1, 2], [1, 3], [0, 1], [0, 3]], [1, 3, 2, 4], [2, 5], -1)
    assert_tensor(r.output_indices, [[0, 1], [0, 3], [1, 2], [1, 3]])
    assert_tensor(r.output_values, [2, 4, 1, 3])
    assert_tensor(r.reverse_index_map, [2, 3, 0, 1])
    r = tf.sparse.sparse_fill_empty_rows(tf.tensor([], [0, 2], I32), tf.tensor([], [0]), [0, 5], -1)
    assert [t.shape for t in r] == [(0, 2), (0,), (0,), (0,)]


def test_sparse_fill_empty_rows_errors():
    raises(ValueError, lambda: _fill([[0, 0]], [1.0], [0, 5], -1), "sparse_fill_empty_rows", "dense_shape")
    raises(ValueError, lambda: _fill([[-1, 0]], [1.0], [2, 5], -1), "sparse_fill_empty_rows", "indices")
    raises(ValueError, lambda: _fill([[2, 0]], [1.0], [2, 5], -1), "indices", "[0, 2)")
    raises(ValueError, lambda: _fill([0, 0], [1.0], [2, 5], -1), "indices", "matrix")
    raises(ValueError, lambda: _fill([[0, 0]], [1.0, 2.0], [2, 5], -1), "values")
    raises(ValueError, lambda: _fill([[0, 0]], [1.0], [2, 5], [1.0]), "default_value", "scalar")


# --- sparse_reshape ----------------------------------------------------------------------------

_IND_5X6 = [[0, 0], [1, 0], [1, 3], [1, 4], [3, 2], [3, 3]]
_IND_2X3X4 = [[0, 0, 1], [0, 1, 0], [0, 1, 2], [1, 0, 3], [1, 1, 1], [1, 1, 3], [1, 2, 2]]


@pytest.mark.parametrize("ind, shape, new_shape, want, want_shape", [
    (_IND_5X6, [5, 6], [5, 6], _IND_5X6, [5, 6]),
    (_IND_5X6, [5, 6], [-1, 6], _IND_5X6, [5, 6]),
    (_IND_5X6, [5, 6], [3, -1], [[0, 0], [0, 6], [0, 9], [1, 0], [2, 0], [2, 1]], [3, 10]),
    (_IND_5X6, [5, 6], [2, -1, 5], [[0, 0, 0], [0, 1, 1], [0, 1, 4], [0, 2, 0], [1, 1, 0], [1, 1, 1]], [2, 3, 5]),
    (_IND_2X3X4, [2, 3, 4], [6, -1], [[0, 1], [1, 0], [1, 2], [3, 3], [4, 1], [4, 3], [5, 2]], [6, 4]),
])
def test_sparse_reshape(ind, shape, new_shape, want, want_shape):
    r = tf.sparse.sparse_reshape(tf.tensor(ind, dtype=I32), shape, new_shape)
    assert_tensor(r.output_indices, want, I32)
    assert_tensor(r.output_shape, want_shape, I32)


def test_sparse_reshape_errors():
    ind = tf.tensor(_IND_5X6, dtype=I32)
    raises(ValueError, lambda: tf.sparse.sparse_reshape(ind, [5, 6], [-1, -1]), "sparse_reshape", "new_shape")
    raises(ValueError, lambda: tf.sparse.sparse_reshape(ind, [5, 6], [4, 7]), "new_shape")
    raises(ValueError, lambda: tf.sparse.sparse_reshape(ind, [5, 6], [-1, 7]), "new_shape")
    raises(ValueError, lambda: tf.sparse.sparse_reshape(ind, [5, 6], [-2, 15]), "new_shape")
    raises(ValueError, lambda: tf.sparse.sparse_reshape(ind, [5, 6, 1], [30]), "input_shape")
    raises(ValueError, lambda: tf.sparse.sparse_reshape(tf.tensor([1, 2], dtype=I32), [2], [2]),
                  "input_indices")


# --- sparse_segment_sum / mean ------------------------------------------------------------------

def _segment_reference(data, indices, ids, mean):
    data = np.asarray(data)
    n = ids[-1] + 1 if len(ids) else 0
    out = np.zeros((n,) + data.shape[1:], np.float64)
    count = np.zeros(n)
    for i, s in zip(indices, ids):
        out[s] += data[i]
        count[s] += 1
    if mean:
        out /= np.maximum(count, 1).reshape((-1,) + (1,) * (data.ndim - 1))
    return out


_X10X4 = np.arange(1, 41, dtype=np.float32).reshape(10, 4)


@pytest.mark.parametrize("mean", [False, True])
@pytest.mark.parametrize("data, indices, ids", [
    (np.float32([[1, 2, 3, 4], [-1, -2, -3, -4], [6, 7, 8, 9]]), [0, 1], [0, 0]),
    (np.float32([[1, 2, 3, 4], [-1, -2, -3, -4], [6, 7, 8, 9]]), [0, 1, 2], [0, 1, 1]),
    (np.arange(1, 11, dtype=np.float32), [8, 3, 0, 9], [0, 1, 2, 2]),
    (np.arange(1, 81, dtype=np.float32).reshape(10, 2, 4), [8, 3, 0, 9], [0, 1, 2, 2]),
    (_X10X4, [8, 3, 0, 9], [0, 3, 3, 3]),            # a hole
    (_X10X4, [8, 3, 0, 9], [2, 3, 3, 3]),            # starting above 0
    (_X10X4, [], []),
])
def test_sparse_segment_reductions(mean, data, indices, ids):
    fn = tf.sparse.sparse_segment_mean if mean else tf.sparse.sparse_segment_sum
    got = fn(data, tf.tensor(indices, [len(indices)], I32), tf.tensor(ids, [len(ids)], I32))
    assert_tensor(got, _segment_reference(data, indices, ids, mean), "float32")


def test_sparse_segment_mean_int_truncates():
    x = tf.tensor([[1, 2, 3, 4], [-1, -2, -3, -4], [6, 7, 8, 9]], dtype=I32)
    assert_tensor(tf.sparse.sparse_segment_mean(x, [0, 1, 2], [0, 1, 1]), [[1, 2, 3, 4], [2, 2, 2, 2]], I32)
    assert_tensor(tf.sparse.sparse_segment_sum(x, [0, 1, 2], [0, 1, 1]), [[1, 2, 3, 4], [5, 5, 5, 5]], I32)


@pytest.mark.parametrize("fn", [tf.sparse.sparse_segment_sum, tf.sparse.sparse_segment_mean])
def test_sparse_segment_errors(fn):
    name = fn.__name__
    x = _X10X4
    raises(ValueError, lambda: fn(tf.scalar(1.0), [], []), name, "data")
    raises(ValueError, lambda: fn(x, [-1, 0], [0, 0]), name, "indices")
    raises(ValueError, lambda: fn(x, [10, 0], [0, 0]), "indices", "[0, 10)")
    raises(ValueError, lambda: fn(x, [8, 3, 0, 9], [0, 1, 0, 1]), "segment_ids", "sorted")
    raises(ValueError, lambda: fn(x, [8, 3], [1, 0]), "segment_ids", "sorted")
    raises(ValueError, lambda: fn(x, [8, 3, 0, 9], [-1, 0, 1, 1]), "segment_ids")
    raises(ValueError, lambda: fn(x, [[0]], [0]), "indices", "vector")
    raises(ValueError, lambda: fn(x, [0], [[0]]), "segment_ids", "vector")
    raises(ValueError, lambda: fn(x, [0, 1], [0]), "same length")
    raises(TypeError, lambda: fn(x, tf.tensor([0.5]), [0]), name, "indices", "int32")


# --- ragged ------------------------------------------------------------------------------------

_V9 = [.1, .2, .3, .4, .5, .6, .7, .8, .9]


@pytest.mark.parametrize("indices_shape, indices, splits, dense_shape, dense, want_splits, want_values", [
    ([4], [2, 1, 0, 3], [[0, 3, 3, 7, 9]], [9], _V9, [[0, 4, 4, 7, 9]], [.4, .5, .6, .7, .1, .2, .3, .8, .9]),
    ([5], [2, 1, 0, 2, 3], [[0, 1, 3, 3, 5, 6], [0, 0, 2, 3, 5, 8, 9]], [9], _V9,
     [[0, 0, 2, 3, 3, 5], [0, 2, 3, 3, 5, 8]], [.1, .2, .3, .4, .5, .6, .7, .8]),
    ([4], [2, 1, 0, 2], [[0, 1, 3, 3], [0, 0, 3, 4]], [4, 2], list(range(1, 9)),
     [[0, 0, 2, 3, 3], [0, 3, 4, 4]], [[1, 2], [3, 4], [5, 6], [7, 8]]),
    ([2, 2], [2, 1, 0, 3], [[0, 3, 3, 7, 9]], [9], _V9, [[0, 2, 4], [0, 4, 4, 7, 9]],
     [.4, .5, .6, .7, .1, .2, .3, .8, .9]),
    ([], [2], [[0, 3, 3, 7, 9]], [9], _V9, [], [.4, .5, .6, .7]),
])
def test_ragged_gather(indices_shape, indices, splits, dense_shape, dense, want_splits, want_values):
    r = tf.ragged_gather([tf.tensor(s, dtype=I32) for s in splits], tf.tensor(dense, dense_shape),
                         tf.tensor(indices, indices_shape, I32), len(splits) + len(indices_shape) - 1)
    assert len(r.output_nested_splits) == len(want_splits)
    for got, want in zip(r.output_nested_splits, want_splits):
        assert_tensor(got, want, I32)
    assert_tensor(r.output_dense_values, want_values, "float32")


def test_ragged_gather_errors():
    def run(indices, splits, dense=_V9, rank=1):
        return tf.ragged_gather([tf.tensor(s, [len(s)], I32) for s in splits], tf.tensor(dense),
                                tf.tensor(indices, [len(indices)], I32), rank)
    raises(ValueError, lambda: run([2, 10], [[0, 3, 3, 7, 9]]), "ragged_gather", "indices", "[0, 4)")
    raises(ValueError, lambda: run([0, 2], [[0, 3, 5, 2, 9]]), "params_nested_splits[0]", "sorted")
    raises(ValueError, lambda: run([0, 2], [[-1, 3, 2, 7, 9]]), "params_nested_splits[0]", "non-negative")
    raises(ValueError, lambda: run([], [[]], []), "params_nested_splits[0]", "empty")
    raises(ValueError, lambda: run([0, 2], [[0, 20, 40, 80, 100]]), "params_nested_splits[0]", "past")
    raises(ValueError, lambda: run([0], [[0, 1]], 0.5), "params_dense_values")
    raises(ValueError, lambda: run([0], [[0, 9]], rank=2), "output_ragged_rank")
    raises(ValueError, lambda: run([0], []), "params_nested_splits", "empty")


@pytest.mark.parametrize("dtype", ["int32", "float32"])
@pytest.mark.parametrize("starts, limits, deltas, splits, values", [
    ([0, 5, 8, 5], [8, 7, 8, 1], [2, 1, 1, -1], [0, 4, 6, 6, 10], [0, 2, 4, 6, 5, 6, 5, 4, 3, 2]),
    ([0, 5, 8], [8, 7, 8], 1, [0, 8, 10, 10], [0, 1, 2, 3, 4, 5, 6, 7, 5, 6]),
    (0, [3, 0, 2], 1, [0, 3, 3, 5], [0, 1, 2, 0, 1]),
    (0, 12, [3, 4, 5], [0, 4, 7, 10], [0, 3, 6, 9, 0, 4, 8, 0, 5, 10]),
    (0, 5, 1, [0, 5], [0, 1, 2, 3, 4]),
])
def test_ragged_range(dtype, starts, limits, deltas, splits, values):
    r = tf.ragged_range(tf.tensor(starts, dtype=dtype), tf.tensor(limits, dtype=dtype), tf.tensor(deltas, dtype=dtype))
    assert_tensor(r.rt_nested_splits, splits, I32)
    assert_tensor(r.rt_dense_values, values, dtype)


def test_ragged_range_float_steps_and_errors():
    r = tf.ragged_range([0.5, 1.0], [2.0, 0.0], [0.5, -0.25])
    assert_tensor(r.rt_nested_splits, [0, 3, 7])
    assert_tensor(r.rt_dense_values, [0.5, 1.0, 1.5, 1.0, 0.75, 0.5, 0.25])
    v = tf.tensor([0, 5, 8, 5], dtype=I32)
    raises(ValueError, lambda: tf.ragged_range(tf.reshape(v, [4, 1]), v, v), "ragged_range", "starts")
    raises(ValueError, lambda: tf.ragged_range(v, tf.reshape(v, [4, 1]), v), "limits")
    raises(ValueError, lambda: tf.ragged_range(v, v, tf.reshape(v, [4, 1])), "deltas")
    raises(ValueError, lambda: tf.ragged_range(v, v[:3], v), "same length")
    raises(ValueError, lambda: tf.ragged_range(v, v, tf.tensor([2, 1, 0, -1], dtype=I32)), "deltas", "0")
    raises(ValueError, lambda: tf.ragged_range([1.1, 0.1], [10.0, 1e10], [1.0, 1e-10]), "ragged_range", "row 1")
    raises(TypeError, lambda: tf.ragged_range(tf.tensor([True]), [1], [1]), "starts")
    raises(TypeError, lambda: tf.ragged_range(v, tf.tensor([1.0, 2, 3, 4]), v), "limits")


_R2T = [  # shape, values, default, partitions, types, want (TF.js's raggedTensorToTensor tests)
    ([4, 4], _V9, 1.5, [4, [0, 0, 0, 2, 2, 2, 2, 3, 3]], ["FIRST_DIM_SIZE", "VALUE_ROWIDS"],
     [.1, .2, .3, 1.5, 1.5, 1.5, 1.5, 1.5, .4, .5, .6, .7, .8, .9, 1.5, 1.5]),
    ([4, 4], _V9, 1.5, [[0, 3, 3, 7, 9]], ["ROW_SPLITS"],
     [.1, .2, .3, 1.5, 1.5, 1.5, 1.5, 1.5, .4, .5, .6, .7, .8, .9, 1.5, 1.5]),
    ([5, 2, 3], _V9, 1.5, [5, [0, 1, 1, 3, 3, 4], [1, 1, 2, 3, 3, 4, 4, 4, 5]],
     ["FIRST_DIM_SIZE", "VALUE_ROWIDS", "VALUE_ROWIDS"],
     [1.5] * 6 + [.1, .2, 1.5, .3, 1.5, 1.5] + [1.5] * 6 + [.4, .5, 1.5, .6, .7, .8] + [.9, 1.5, 1.5, 1.5, 1.5, 1.5]),
    ([5, 2, 3], _V9, 1.5, [[0, 1, 3, 3, 5, 6], [0, 0, 2, 3, 5, 8, 9]], ["ROW_SPLITS", "ROW_SPLITS"],
     [1.5] * 6 + [.1, .2, 1.5, .3, 1.5, 1.5] + [1.5] * 6 + [.4, .5, 1.5, .6, .7, .8] + [.9, 1.5, 1.5, 1.5, 1.5, 1.5]),
    ([3, 2, 3], [0, 1, 2, 3], 5, [[0, 2, 2, 3], [0, 3, 3, 4]], ["ROW_SPLITS", "ROW_SPLITS"],
     [0, 1, 2, 5, 5, 5, 5, 5, 5, 5, 5, 5, 3, 5, 5, 5, 5, 5]),
    ([4, 2, 3, 2], list(range(1, 9)), 15, [[0, 1, 3], [0, 0, 3, 4], [0, 2, 4, 6, 8]],
     ["ROW_SPLITS", "ROW_SPLITS", "ROW_SPLITS"], [15] * 12 + list(range(1, 9)) + [15] * 28),
    ([3, 5], _V9, 1.5, [4, [0, 0, 0, 2, 2, 2, 2, 3, 3]], ["FIRST_DIM_SIZE", "VALUE_ROWIDS"],
     [.1, .2, .3, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, .4, .5, .6, .7, 1.5]),
    ([2, 3], _V9, 1.5, [[0, 3, 3, 7, 9]], ["ROW_SPLITS"], [.1, .2, .3, 1.5, 1.5, 1.5]),       # cut
]


@pytest.mark.parametrize("shape, values, default, partitions, types, want", _R2T)
def test_ragged_tensor_to_tensor(shape, values, default, partitions, types, want):
    parts = [tf.tensor(p, dtype=I32) for p in partitions]
    got = tf.ragged_tensor_to_tensor(shape, values, default, parts, types)
    assert_tensor(got, np.float32(want).reshape(shape), "float32")


def test_ragged_tensor_to_tensor_infers_sizes_and_broadcasts_default():
    # shape -1s come from the number of rows and the longest row; values [n, 2] with a
    # default of shape [2] (one per element column).
    values = tf.tensor([[1, 2], [3, 4], [5, 6]], dtype=I32)
    got = tf.ragged_tensor_to_tensor([-1, -1, -1], values, tf.tensor([-7, -8], dtype=I32),
                                     [tf.tensor([0, 2, 2, 3], dtype=I32)], ["ROW_SPLITS"])
    assert_tensor(got, [[[1, 2], [3, 4]], [[-7, -8], [-7, -8]], [[5, 6], [-7, -8]]], I32)
    got = tf.ragged_tensor_to_tensor(-1, [1.0, 2.0, 3.0], 0.0, [tf.tensor([0, 1, 3], dtype=I32)], ["ROW_SPLITS"])
    assert_tensor(got, [[1, 0], [2, 3]])


def test_ragged_tensor_to_tensor_errors():
    splits = [tf.tensor([0, 3, 3, 7, 9], dtype=I32)]
    name = "ragged_tensor_to_tensor"
    raises(ValueError, lambda: tf.ragged_tensor_to_tensor([4, 4, 1], _V9, 0.0, splits, ["ROW_SPLITS"]),
                  name, "shape")
    raises(ValueError, lambda: tf.ragged_tensor_to_tensor([4, 4], _V9, 0.0, splits, ["ROW_LENGTHS"]),
                  name, "row_partition_types")
    raises(ValueError, lambda: tf.ragged_tensor_to_tensor([4, 4], _V9, 0.0, splits, ["VALUE_ROWIDS"]),
                  "row_partition_types")
    raises(ValueError, lambda: tf.ragged_tensor_to_tensor([4, 4], _V9, 0.0, splits, []),
                  "row_partition_types")
    raises(ValueError, lambda: tf.ragged_tensor_to_tensor([4, 4], _V9, [0.0, 1.0], splits, ["ROW_SPLITS"]),
                  "default_value")
    raises(TypeError, lambda: tf.ragged_tensor_to_tensor([4, 4], _V9, tf.scalar(0, I32), splits, ["ROW_SPLITS"]),
                  "default_value")
    raises(ValueError, lambda: tf.ragged_tensor_to_tensor([4, 4], _V9[:5], 0.0, splits, ["ROW_SPLITS"]),
                  name)
    raises(ValueError, lambda: tf.ragged_tensor_to_tensor(
        [4, 4], _V9, 0.0, [tf.scalar(4, I32), tf.tensor([0, 9, 0], dtype=I32)], ["FIRST_DIM_SIZE", "VALUE_ROWIDS"]),
        name, "row id")


# --- tf.browser in CPython ----------------------------------------------------------------------

def _pattern(h, w):
    rng = np.random.default_rng(5)
    return rng.integers(0, 256, size=(h, w, 4), dtype=np.uint8)


@pytest.mark.parametrize("channels", [1, 2, 3, 4])
def test_from_pixels_on_pixel_data(channels):
    img = _pattern(3, 5)
    got = tf.browser.from_pixels({"data": img.tobytes(), "width": 5, "height": 3}, channels)
    assert_tensor(got, img[:, :, :channels].astype(np.int32), I32)
    assert_tensor(tf.browser.from_pixels(img, channels), img[:, :, :channels].astype(np.int32), I32)


def test_from_pixels_errors():
    img = _pattern(2, 2)
    assert_raises(ValueError, lambda: tf.browser.from_pixels(img, 5), "from_pixels", "num_channels")
    assert_raises(ValueError, lambda: tf.browser.from_pixels({"data": b"\0" * 15, "width": 2, "height": 2}),
                  "from_pixels", "16")
    assert_raises(TypeError, lambda: tf.browser.from_pixels({"data": b"", "width": 0}), "from_pixels", "height")
    assert_raises(ValueError, lambda: tf.browser.from_pixels(img[:, :, :3].copy()), "from_pixels", "[height, width, 4]")
    assert_raises(TypeError, lambda: tf.browser.from_pixels("image.png"), "from_pixels", "pixels")
    assert_raises(ValueError, lambda: tf.browser.from_pixels(None), "from_pixels", "pixels")


def _run(coro):
    import asyncio
    return asyncio.run(coro)


@pytest.mark.parametrize("channels", [1, 3, 4])
def test_to_pixels_round_trip(channels):
    img = _pattern(4, 3)
    t = tf.browser.from_pixels(img, channels)
    rgba = np.frombuffer(_run(tf.browser.to_pixels(t)), np.uint8).reshape(4, 3, 4)
    want = img.copy()
    if channels == 1:
        want[:, :, 1] = want[:, :, 2] = want[:, :, 0]
    if channels < 4:
        want[:, :, 3] = 255
    np.testing.assert_array_equal(rgba, want)


def test_to_pixels_float_and_rank2():
    got = _run(tf.browser.to_pixels(tf.tensor([[0.0, 0.5], [1.0, 0.25]])))
    assert list(got) == [0, 0, 0, 255, 128, 128, 128, 255, 255, 255, 255, 255, 64, 64, 64, 255]
    assert list(_run(tf.browser.to_pixels([[[1, 2, 3]]]))) == [1, 2, 3, 255]


def test_to_pixels_and_draw_errors():
    cases = [
        (tf.tensor([[1.5]]), ValueError, ("to_pixels", "[0, 1]")),
        (tf.tensor([[300]], dtype=I32), ValueError, ("to_pixels", "[0, 255]")),
        (tf.zeros([2, 2, 2]), ValueError, ("to_pixels", "depth")),
        (tf.zeros([2]), ValueError, ("to_pixels", "rank")),
        (tf.zeros([1, 1], "bool"), TypeError, ("to_pixels", "float32 or int32")),
    ]
    for img, exc, frags in cases:
        assert_raises(exc, lambda: _run(tf.browser.to_pixels(img)), *frags)
    one = tf.zeros([1, 1])
    assert_raises(RuntimeError, lambda: _run(tf.browser.to_pixels(one, canvas=object())), "to_pixels", "no canvas")
    assert_raises(RuntimeError, lambda: tf.browser.draw(one, object()), "draw", "no canvas")
    assert_raises(ValueError, lambda: tf.browser.draw(one, object(), {"image_options": {"alpha": 2}}), "draw", "alpha")
    tf.dispose([c[0] for c in cases] + [one])


def test_no_leaks():
    assert_no_leak(lambda: tf.sparse_to_dense([1, 2], [3.0, 4.0], [4]).dispose())
    assert_no_leak(lambda: tf.dispose(tf.sparse.sparse_fill_empty_rows([[1, 0]], [1.0], [3, 2], 0.0)))
    assert_no_leak(lambda: tf.dispose(tf.ragged_range([0, 1], 4, 1)))
    assert_no_leak(lambda: tf.browser.from_pixels(_pattern(2, 2)).dispose())
    assert_no_leak(lambda: _run(tf.browser.to_pixels([[1, 2]])))
