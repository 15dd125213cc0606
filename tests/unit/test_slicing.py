"""slice, strided_slice, gather and t[...] against numpy indexing; data sharing, leaks, errors."""
import numpy as np
import pytest

import pytfweb as tf

from .helpers import ALL_SHAPES, assert_raises, assert_tensor, rand

DTYPES = ["float32", "int32", "bool"]
SHAPES = ALL_SHAPES + [(3, 0, 2)]


def leaves_only_result(fn):
    """Run fn (it must not raise) and check that its result is all it left behind."""
    before = tf.memory()
    tf.dispose(fn())
    after = tf.memory()
    assert (after.num_tensors, after.num_bytes) == (before.num_tensors, before.num_bytes)


# --- slice ------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", DTYPES)
def test_slice_matches_numpy(dtype, rng):
    for shape in SHAPES[1:]:
        x = rand(rng, shape, dtype)
        tx = tf.tensor(x)
        for _ in range(8):
            begin = [int(rng.integers(0, d + 1)) for d in shape]
            size = [int(rng.integers(0, d - b + 1)) if rng.random() < 0.7 else -1 for b, d in zip(begin, shape)]
            index = tuple(slice(b, d if s == -1 else b + s) for b, s, d in zip(begin, size, shape))
            assert_tensor(tf.slice(tx, begin, size), x[index], dtype)
            k = int(rng.integers(0, len(shape) + 1))   # short lists: the rest is begin 0, size -1
            assert_tensor(tf.slice(tx, begin[:k], size[:k]), x[index[:k]], dtype)
            assert_tensor(tf.slice(tx, begin[:k]), x[tuple(slice(b, None) for b in begin[:k])], dtype)
        assert_tensor(tf.slice(tx, 0, 1), x[:1], dtype)     # ints name the first axis
    assert_tensor(tf.tensor([[1, 2, 3], [4, 5, 6]]).slice([0, 1], [-1, 2]), [[2, 3], [5, 6]])


def test_slice_errors():
    x = tf.ones([2, 3])
    assert_raises(ValueError, lambda: tf.slice(1.0, 0), "slice", "'x'", "scalar")
    assert_raises(ValueError, lambda: tf.slice(x, [-1, 0]), "slice", "begin[0] = -1")
    assert_raises(ValueError, lambda: tf.slice(x, [0, 4]), "slice", "begin[1] = 4")
    assert_raises(ValueError, lambda: tf.slice(x, [1, 1], [2, 1]), "slice", "size[0] = 2")
    assert_raises(ValueError, lambda: tf.slice(x, [0, 0], [1, -2]), "slice", "size[1] = -2")
    assert_raises(ValueError, lambda: tf.slice(x, [0, 0, 0]), "slice", "'begin'", "more entries")
    assert_raises(ValueError, lambda: tf.slice(x, [0], [1, 1, 1]), "slice", "'size'")
    assert_raises(TypeError, lambda: tf.slice(x, [0.5, 0]), "slice", "'begin'")
    assert_raises(TypeError, lambda: tf.slice(x, 0, "1"), "slice", "'size'")


# --- strided_slice ----------------------------------------------------------------------

def numpy_key(begin, end, strides, begin_mask, end_mask, ellipsis_mask, new_axis_mask, shrink_axis_mask):
    """The numpy basic index a strided-slice spec means (ellipsis > new axis > shrink, as TF.js)."""
    key = []
    for i, (b, e, s) in enumerate(zip(begin, end, strides)):
        bit = 1 << i
        if ellipsis_mask & bit:
            key.append(Ellipsis)
        elif new_axis_mask & bit:
            key.append(None)
        elif shrink_axis_mask & bit:
            key.append(b)
        else:
            key.append(slice(None if begin_mask & bit else b, None if end_mask & bit else e, s))
    return tuple(key)


def random_spec(rng, rank):
    n = int(rng.integers(0, rank + 3))
    begin = [int(v) for v in rng.integers(-5, 6, size=n)]
    end = [int(v) for v in rng.integers(-5, 6, size=n)]
    strides = [int(rng.choice([1, 1, 2, 3, -1, -2])) for _ in range(n)]

    def mask(p):
        return sum(1 << i for i in range(n) if rng.random() < p)
    ellipsis_mask = 1 << int(rng.integers(0, n)) if n and rng.random() < 0.3 else 0
    shrink = mask(0.25)
    for i in range(n):
        if shrink >> i & 1:
            strides[i] = abs(strides[i])          # a shrunk axis needs a positive stride
    return begin, end, strides, mask(0.3), mask(0.3), ellipsis_mask, mask(0.15), shrink


@pytest.mark.parametrize("dtype", DTYPES)
def test_strided_slice_matches_numpy(dtype, rng):
    for shape in SHAPES:
        x = rand(rng, shape, dtype)
        tx = tf.tensor(x)
        for _ in range(40):
            spec = random_spec(rng, len(shape))
            try:
                expected = x[numpy_key(*spec)]
            except IndexError:   # an index out of range, or more axes indexed than x has
                assert_raises(ValueError, lambda: tf.strided_slice(tx, *spec), "strided_slice")
                continue
            assert_tensor(tf.strided_slice(tx, *spec), expected, dtype)


def test_strided_slice_tfjs_examples():
    t = tf.tensor3d([1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5, 6, 6, 6], [3, 2, 3])
    assert_tensor(t.strided_slice([1, 0, 0], [2, 1, 3], [1, 1, 1]), [[[3, 3, 3]]])
    assert_tensor(t.strided_slice([1, 0, 0], [2, 2, 3], [1, 1, 1]), [[[3, 3, 3], [4, 4, 4]]])
    assert_tensor(t.strided_slice([1, -1, 0], [2, -3, 3], [1, -1, 1]), [[[4, 4, 4], [3, 3, 3]]])
    assert_tensor(tf.strided_slice([1, 2, 3, 4], [1], [3]), [2, 3])   # strides default to 1


def test_strided_slice_errors():
    x = tf.ones([2, 3])
    assert_raises(ValueError, lambda: tf.strided_slice(x, [0, 0], [1]), "strided_slice", "same length")
    assert_raises(ValueError, lambda: tf.strided_slice(x, [0], [1], [0]), "strided_slice", "'strides'", "0")
    assert_raises(ValueError, lambda: tf.strided_slice(x, [0, 0], [1, 1], ellipsis_mask=3), "strided_slice",
                  "'ellipsis_mask' = 3", "one")
    assert_raises(ValueError, lambda: tf.strided_slice(x, [2], [3], shrink_axis_mask=1), "strided_slice",
                  "index 2", "axis 0")
    assert_raises(ValueError, lambda: tf.strided_slice(x, [1], [0], [-1], shrink_axis_mask=1), "strided_slice",
                  "positive stride")
    assert_raises(ValueError, lambda: tf.strided_slice(x, [0, 0, 0], [1, 1, 1]), "strided_slice", "rank 2")
    assert_raises(ValueError, lambda: tf.strided_slice(x, [0], [1], begin_mask=-1), "strided_slice",
                  "'begin_mask'")
    assert_raises(TypeError, lambda: tf.strided_slice(x, [0], [1], end_mask=1.0), "strided_slice", "'end_mask'")
    assert_raises(TypeError, lambda: tf.strided_slice(x, 0, [1]), "strided_slice", "'begin'")


# --- getitem ----------------------------------------------------------------------------

def random_key(rng, rank):
    """A numpy basic index, sometimes out of range or with too many entries."""
    key = []
    for _ in range(int(rng.integers(0, rank + 2))):
        kind = rng.random()
        if kind < 0.3:
            key.append(int(rng.integers(-4, 4)))
        elif kind < 0.8:
            def bound():
                return None if rng.random() < 0.3 else int(rng.integers(-6, 7))
            key.append(slice(bound(), bound(), None if rng.random() < 0.3 else int(rng.choice([1, 2, -1, -3]))))
        elif kind < 0.9:
            key.append(None)
        elif Ellipsis not in key:
            key.append(Ellipsis)
    return key[0] if len(key) == 1 and rng.random() < 0.5 else tuple(key)


@pytest.mark.parametrize("dtype", DTYPES)
def test_getitem_matches_numpy(dtype, rng):
    for shape in SHAPES:
        x = rand(rng, shape, dtype)
        tx = tf.tensor(x)
        for _ in range(40):
            key = random_key(rng, len(shape))
            try:
                expected = x[key]
            except IndexError:
                with pytest.raises(IndexError, match="getitem"):
                    tx[key]
                continue
            assert_tensor(tx[key], expected, dtype)


def test_getitem_examples():
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    t = tf.tensor(x)
    for key in [0, -1, (1, 2), (1, -1, -4), slice(None), np.s_[::-1], np.s_[1:3, ::2], np.s_[..., 1],
                np.s_[None], np.s_[:, None, 1], np.s_[..., None], np.s_[0, ..., 2:0:-1], np.s_[::-2, 5:-8:-1],
                (), Ellipsis, np.s_[np.int64(1), np.int32(-1)], np.s_[10:], np.s_[-10:1], np.s_[:, :, ::-5]]:
        assert_tensor(t[key], x[key])
    assert_tensor(t[tf.scalar(1, "int32")], x[1])       # a scalar int tensor is an int index
    s = tf.scalar(5.0)
    assert_tensor(s[()], 5.0)
    assert_tensor(s[None], [5.0])
    assert_tensor(s[...], 5.0)


def test_getitem_errors():
    t = tf.ones([2, 3])
    assert_raises(IndexError, lambda: t[2], "getitem", "index 2", "axis 0", "size 2")
    assert_raises(IndexError, lambda: t[0, -4], "getitem", "index -4", "axis 1")
    assert_raises(IndexError, lambda: t[..., 3], "getitem", "axis 1")
    assert_raises(IndexError, lambda: t[0, 0, 0], "getitem", "too many indices")
    assert_raises(IndexError, lambda: t[..., 0, ...], "getitem", "ellipsis")
    assert_raises(ValueError, lambda: t[::0], "getitem", "step")
    assert_raises(TypeError, lambda: t[[0, 1]], "getitem", "list", "gather")
    assert_raises(TypeError, lambda: t[0.5], "getitem", "float")
    assert_raises(TypeError, lambda: t[True], "getitem", "bool")
    assert_raises(TypeError, lambda: t[0:"1"], "getitem", "slice stop")
    idx = tf.tensor([0, 1], dtype="int32")
    assert_raises(TypeError, lambda: t[idx], "getitem", "gather")


def test_full_views_share_data():
    """A getitem or strided_slice that takes everything only relabels (a Reshape, no copy)."""
    t = tf.tensor([[1.0, 2.0], [3.0, 4.0]])
    buffers = tf.memory().num_data_buffers
    views = [t[...], t[:, None], t[None, ..., None], t[:], tf.strided_slice(t, [0], [2], new_axis_mask=0)]
    assert tf.memory().num_data_buffers == buffers
    t.dispose()
    assert views[1].array_sync() == [[[1.0, 2.0]], [[3.0, 4.0]]]


# --- gather -----------------------------------------------------------------------------

def numpy_gather(x, indices, axis, batch_dims):
    if batch_dims == 0:
        return np.take(x, indices, axis=axis)
    return np.stack([numpy_gather(x[i], indices[i], axis - 1, batch_dims - 1) for i in range(x.shape[0])])


@pytest.mark.parametrize("dtype", DTYPES)
def test_gather_matches_numpy(dtype, rng):
    for shape in SHAPES[1:]:
        x = rand(rng, shape, dtype)
        tx = tf.tensor(x)
        for axis in range(len(shape)):
            for index_shape in [(), (3,), (2, 2), (0,)]:
                indices = rng.integers(0, max(shape[axis], 1), size=index_shape).astype(np.int32)
                if shape[axis] == 0 and indices.size:
                    continue
                assert_tensor(tf.gather(tx, indices, axis), np.take(x, indices, axis=axis), dtype)
                assert_tensor(tf.gather(tx, indices, axis - len(shape)), np.take(x, indices, axis=axis), dtype)
    assert_tensor(tf.gather([10, 20, 30], [2.0, 0.0]), [30, 10])   # values convert to int32
    assert_tensor(tf.tensor([[1, 2], [3, 4]]).gather([1], 1), [[2], [4]])


def test_gather_batch_dims(rng):
    x = rand(rng, (2, 3, 4, 5))
    tx = tf.tensor(x)
    for batch_dims, axis, index_shape in [(1, 1, (2,)), (1, 1, (2, 4)), (1, 2, (2, 3)), (1, 3, (2, 2, 2)),
                                          (2, 2, (2, 3)), (2, 3, (2, 3, 4)), (-1, 2, (2, 4))]:
        indices = rng.integers(0, x.shape[axis], size=index_shape).astype(np.int32)
        expected = numpy_gather(x, indices, axis, batch_dims if batch_dims >= 0 else batch_dims + len(index_shape))
        assert_tensor(tf.gather(tx, indices, axis, batch_dims), expected)


def test_gather_errors():
    x = tf.ones([2, 3])
    idx = tf.tensor([0, 1], dtype="int32")
    assert_raises(ValueError, lambda: tf.gather(x, [0, 3], 1), "gather", "'indices'", "3", "[0, 2]")
    assert_raises(ValueError, lambda: tf.gather(x, [-1], 0), "gather", "'indices'", "-1")
    assert_raises(TypeError, lambda: tf.gather(x, x), "gather", "'indices'", "int32")
    assert_raises(ValueError, lambda: tf.gather(x, idx, 2), "gather", "'axis' = 2")
    assert_raises(ValueError, lambda: tf.gather(1.0, [0]), "gather", "'x'", "scalar")
    assert_raises(ValueError, lambda: tf.gather(x, idx, 1, 2), "gather", "'batch_dims' = 2")
    assert_raises(ValueError, lambda: tf.gather(x, [[0, 1], [1, 0]], 0, 1), "gather", "'batch_dims' = 1",
                  "<= axis")
    assert_raises(ValueError, lambda: tf.gather(x, [[0], [1], [2]], 1, 1), "gather", "batch_dims = 1", "equal")
    assert_raises(TypeError, lambda: tf.gather(x, idx, 0, 0.5), "gather", "'batch_dims'")


@pytest.mark.parametrize("fn", [
    lambda: tf.slice([[1, 2], [3, 4]], [1, 0]),
    lambda: tf.strided_slice([[1, 2], [3, 4]], [0, 1], [2, 2], [1, 1], shrink_axis_mask=2),
    lambda: tf.strided_slice([[1, 2], [3, 4]], [0, 1], [2, 2], [2, -1], new_axis_mask=1),
    lambda: tf.strided_slice([1, 2], [0], [2]),
    lambda: tf.gather([[1, 2], [3, 4]], [[1]], 1),
])
def test_ops_leave_only_their_result(fn):
    leaves_only_result(fn)
    t = tf.tensor([[1, 2], [3, 4]])
    leaves_only_result(lambda: t[1, ::-1])
    leaves_only_result(lambda: t[..., None, 0])
