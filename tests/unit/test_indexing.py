"""Indexing ops on the cpu backend against numpy (or hand-derived) references, their gradients
against numeric differences, and their errors."""
import functools
import asyncio

import numpy as np
import pytest

import pytfweb as tf
from pytfweb.testing import numeric_gradient_error

from .helpers import assert_no_leak, assert_raises, assert_tensor
from .helpers import assert_gradients_match_numeric, gradients_at

rng = np.random.default_rng(21)


def x_of(*shape, dtype="float32"):
    if dtype == "int32":
        return rng.integers(-5, 5, size=shape).astype(np.int32)
    return rng.uniform(-2, 2, size=shape).astype(np.float32)


check_grad = functools.partial(assert_gradients_match_numeric, tol=1e-3)


# --- gather_nd, scatter_nd, tensor_scatter_update -------------------------------------------

@pytest.mark.parametrize("shape, idx", [((2, 3, 4), [[1, 2], [0, 1], [1, 2]]), ((5,), [[4], [0]]),
                                        ((3, 4), [[[0, 1]], [[2, 3]]]), ((2, 3), [1]), ((2, 2, 2), [[1, 0, 1]])])
def test_gather_nd(shape, idx):
    x = x_of(*shape)
    i = np.array(idx, np.int32)
    want = np.array([x[tuple(t)] for t in i.reshape(-1, i.shape[-1])]).reshape(i.shape[:-1] + x.shape[i.shape[-1]:])
    assert_tensor(tf.gather_nd(x, i), want)
    check_grad(lambda v: tf.gather_nd(v, i), x)


def test_scatter_nd_adds_repeats_and_tensor_scatter_update_keeps_the_last():
    idx = np.int32([[1], [3], [1]])
    upd = x_of(3, 2)
    want = np.zeros((5, 2), np.float32)
    np.add.at(want, idx[:, 0], upd)
    assert_tensor(tf.scatter_nd(idx, upd, [5, 2]), want)
    base = x_of(5, 2)
    want = base.copy()
    for j, row in zip(idx[:, 0], upd):
        want[j] = row
    assert_tensor(tf.tensor_scatter_update(base, idx, upd), want)
    ints = tf.scatter_nd(np.int32([0, 2]), np.int32([7, 8]), [4])   # rank-1 indices: single elements
    assert_tensor(ints, [7, 0, 8, 0], "int32")
    check_grad(lambda u: tf.scatter_nd(idx, u, [5, 2]), upd)
    check_grad(lambda t, u: tf.tensor_scatter_update(t, np.int32([[4, 1], [0, 0]]), u), base, x_of(2))


def test_scatter_and_gather_errors():
    x = x_of(2, 3)
    assert_raises(ValueError, lambda: tf.gather_nd(x, np.int32([[0, 5]])), "gather_nd", "indices")
    assert_raises(ValueError, lambda: tf.gather_nd(x, np.int32([[0, 0, 0]])), "gather_nd", "indices")
    floats = tf.zeros([1, 1])
    assert_raises(TypeError, lambda: tf.gather_nd(x, floats), "gather_nd", "indices")
    assert_raises(ValueError, lambda: tf.gather_nd(x, np.int32(0)), "gather_nd", "indices")
    assert_raises(ValueError, lambda: tf.scatter_nd(np.int32([[1]]), x_of(2), [4]), "scatter_nd", "updates")
    assert_raises(ValueError, lambda: tf.scatter_nd(np.int32([[9]]), x_of(1), [4]), "scatter_nd", "indices")
    assert_raises(TypeError, lambda: tf.tensor_scatter_update(x, np.int32([[0]]), np.int32([[1, 2, 3]])),
                  "tensor_scatter_update", "dtype")


# --- mirror_pad, depth_to_space, space_to_batch_nd, batch_to_space_nd ----------------------------

@pytest.mark.parametrize("mode", ["reflect", "symmetric"])
@pytest.mark.parametrize("shape, pads", [((3, 4), [[1, 2], [2, 0]]), ((4,), [[2, 1]]),
                                         ((2, 3, 2), [[1, 1], [0, 2], [1, 0]])])
def test_mirror_pad(mode, shape, pads):
    x = x_of(*shape)
    assert_tensor(tf.mirror_pad(x, pads, mode), np.pad(x, pads, mode=mode))
    check_grad(lambda v: tf.mirror_pad(v, pads, mode), x)


def test_mirror_pad_errors():
    x = x_of(3, 2)
    assert_raises(ValueError, lambda: tf.mirror_pad(x, [[0, 0], [2, 0]], "reflect"), "mirror_pad", "paddings")
    assert_raises(ValueError, lambda: tf.mirror_pad(x, [[0, 0]], "reflect"), "mirror_pad", "paddings")
    assert_raises(ValueError, lambda: tf.mirror_pad(x, [[0, 0], [1, 1]], "edge"), "mirror_pad", "mode")
    assert_raises(ValueError, lambda: tf.mirror_pad(1.0, [], "reflect"), "mirror_pad", "'x'")


def test_depth_to_space():
    x = np.arange(16, dtype=np.float32).reshape(1, 2, 2, 4)
    got = tf.depth_to_space(x, 2)
    assert_tensor(got, [[[[0], [1], [4], [5]], [[2], [3], [6], [7]], [[8], [9], [12], [13]], [[10], [11], [14], [15]]]])
    nchw = tf.depth_to_space(np.transpose(x, (0, 3, 1, 2)), 2, "NCHW")
    assert_tensor(nchw, np.transpose(got.numpy(), (0, 3, 1, 2)))
    check_grad(lambda v: tf.depth_to_space(v, 2), x_of(2, 2, 3, 8))
    check_grad(lambda v: tf.depth_to_space(v, 2, "NCHW"), x_of(1, 8, 2, 3))
    assert_raises(ValueError, lambda: tf.depth_to_space(x_of(1, 2, 2, 6), 2), "depth_to_space", "block_size")
    assert_raises(ValueError, lambda: tf.depth_to_space(x_of(2, 2, 4), 2), "depth_to_space", "'x'")
    assert_raises(ValueError, lambda: tf.depth_to_space(x, 1), "depth_to_space", "block_size")


def space_to_batch_reference(x, block, pads):
    m = len(block)
    x = np.pad(x, [[0, 0]] + pads + [[0, 0]] * (x.ndim - 1 - m))
    out = []
    for offsets in np.ndindex(*block):
        index = (slice(None),) + tuple(slice(o, None, b) for o, b in zip(offsets, block))
        out.append(x[index])
    return np.concatenate(out, 0)


@pytest.mark.parametrize("shape, block, pads", [((1, 4, 4, 1), [2, 2], [[0, 0], [0, 0]]),
                                                ((2, 4, 3, 2), [2, 3], [[1, 1], [2, 1]]),
                                                ((3, 5), [3], [[1, 0]]), ((2, 2, 4, 2, 3), [1, 2], [[0, 0], [1, 1]])])
def test_space_to_batch_and_back(shape, block, pads):
    x = x_of(*shape)
    want = space_to_batch_reference(x, block, pads)
    got = tf.space_to_batch_nd(x, block, pads)
    assert_tensor(got, want)
    back = tf.batch_to_space_nd(got, block, pads)
    assert_tensor(back, x)
    check_grad(lambda v: tf.space_to_batch_nd(v, block, pads), x)
    check_grad(lambda v: tf.batch_to_space_nd(v, block, pads), want)


def test_space_batch_errors():
    x = x_of(1, 3, 4, 1)
    zero = [[0, 0], [0, 0]]
    assert_raises(ValueError, lambda: tf.space_to_batch_nd(x, [2, 2], zero), "space_to_batch_nd", "block_shape")
    assert_raises(ValueError, lambda: tf.space_to_batch_nd(x, [2, 2], [[0, 1]]), "space_to_batch_nd", "paddings")
    assert_raises(ValueError, lambda: tf.batch_to_space_nd(x, [2, 2], zero), "batch_to_space_nd", "block_shape")
    assert_raises(ValueError, lambda: tf.batch_to_space_nd(x_of(4), [2, 2], zero), "batch_to_space_nd", "'x'")


# --- broadcast_args, unsorted_segment_sum, search_sorted ---------------------------------------

def test_broadcast_args():
    assert_tensor(tf.broadcast_args(np.int32([2, 1, 3]), np.int32([4, 1])), [2, 4, 3], "int32")
    assert_tensor(tf.broadcast_args(np.int32([]), np.int32([5])), [5], "int32")
    assert_raises(ValueError, lambda: tf.broadcast_args(np.int32([2]), np.int32([3])), "broadcast_args")
    assert_raises(ValueError, lambda: tf.broadcast_args(np.int32([[2]]), np.int32([3])), "broadcast_args", "s0")


@pytest.mark.parametrize("shape, ids, n", [((5, 3), [2, -1, 0, 2, 5], 4), ((4,), [0, 0, 1, 1], 2),
                                           ((2, 3, 2), [[0, 1, 0], [2, 2, 9]], 3), ((3, 2), [1, 1, 1], 0)])
def test_unsorted_segment_sum(shape, ids, n):
    x = x_of(*shape)
    ids = np.int32(ids)
    want = np.zeros((n,) + x.shape[ids.ndim:], np.float32)
    for i, s in np.ndenumerate(ids):
        if 0 <= s < n:
            want[s] += x[i]
    assert_tensor(tf.unsorted_segment_sum(x, ids, n), want)
    check_grad(lambda v: tf.unsorted_segment_sum(v, ids, n), x)


def test_unsorted_segment_sum_errors():
    assert_raises(ValueError, lambda: tf.unsorted_segment_sum(x_of(3, 2), np.int32([0, 1]), 2),
                  "unsorted_segment_sum", "segment_ids")
    assert_raises(TypeError, lambda: tf.unsorted_segment_sum(x_of(2), np.int32([0, 1]), 2.5),
                  "unsorted_segment_sum", "num_segments")


@pytest.mark.parametrize("side", ["left", "right"])
def test_search_sorted(side):
    seq = np.sort(rng.integers(0, 6, size=(3, 7)), axis=1).astype(np.float32)
    vals = rng.integers(-1, 8, size=(3, 5)).astype(np.float32)
    want = np.stack([np.searchsorted(s, v, side) for s, v in zip(seq, vals)])
    assert_tensor(tf.search_sorted(seq, vals, side), want, "int32")
    one = tf.search_sorted(np.float32([1, 3, 5, 7, 9]), np.float32([3, 6, 9, np.nan]), side)
    assert_tensor(one, [[1 if side == "left" else 2, 3, 4 if side == "left" else 5, 0]], "int32")   # TF.js: 2D
    bound = tf.lower_bound if side == "left" else tf.upper_bound
    assert_tensor(bound(np.int32([1, 2, 2, 3]), np.int32([2])), [[1 if side == "left" else 3]], "int32")


def test_search_sorted_errors():
    assert_raises(ValueError, lambda: tf.search_sorted(x_of(2, 3), x_of(3, 3)), "search_sorted")
    assert_raises(ValueError, lambda: tf.search_sorted(x_of(3), x_of(2), "middle"), "search_sorted", "side")
    # as TF.js, mixed dtypes compare as numbers
    assert_tensor(tf.search_sorted(tf.tensor([1.0, 2.5]), np.int32([2, 3])), [[1, 2]], "int32")


# --- top_k, unique, diag, meshgrid ------------------------------------------------------------------

@pytest.mark.parametrize("shape, k", [((5,), 2), ((3, 6), 6), ((2, 2, 7), 3), ((4, 1), 1), ((3, 4), 0)])
def test_top_k(shape, k):
    x = np.round(x_of(*shape) * 2) / 2        # repeats: equal values come lower index first
    order = np.argsort(-x, axis=-1, kind="stable")[..., :k]
    got = tf.top_k(x, k)
    assert_tensor(got.values, np.take_along_axis(x, order, -1))
    assert_tensor(got.indices, order, "int32")
    values, indices = got
    assert values is got.values and indices is got.indices
    if k:
        spread = (rng.permutation(x.size) * 0.1).astype(np.float32).reshape(shape)   # no near-ties
        check_grad(lambda v: tf.top_k(v, k).values, spread)


def test_top_k_errors():
    assert_raises(ValueError, lambda: tf.top_k(x_of(3), 4), "top_k", "'k'")
    assert_raises(ValueError, lambda: tf.top_k(1.0), "top_k", "'x'")
    assert_raises(TypeError, lambda: tf.top_k(x_of(3), 1.5), "top_k", "'k'")


def test_unique():
    got = tf.unique(np.float32([1, 1, 2, 4, 4, 4, 7, 8, 8, np.nan, np.nan, -0.0, 0.0]))
    assert_tensor(got.values, [1, 2, 4, 7, 8, np.nan, -0.0])
    assert_tensor(got.indices, [0, 0, 1, 2, 2, 2, 3, 4, 4, 5, 5, 6, 6], "int32")
    x = np.int32([[1, 0, 1], [1, 0, 1], [2, 0, 0]])
    assert_tensor(tf.unique(x).values, [[1, 0, 1], [2, 0, 0]], "int32")
    assert_tensor(tf.unique(x).indices, [0, 0, 1], "int32")
    assert_tensor(tf.unique(x, 1).values, x, "int32")
    assert_tensor(tf.unique(np.bool_([True, True, False])).values, [True, False], "bool")
    assert_raises(ValueError, lambda: tf.unique(1.0), "unique", "'x'")
    assert_raises(ValueError, lambda: tf.unique(x, 2), "unique", "axis")


def test_diag_and_meshgrid():
    x = x_of(2, 3)
    assert_tensor(tf.diag(x), np.diag(x.ravel()).reshape(2, 3, 2, 3))
    check_grad(tf.diag, x)
    a, b = np.float32([1, 2, 3]), np.int32([4, 5])
    for indexing in ("xy", "ij"):
        got = tf.meshgrid(a, tf.tensor(b), indexing=indexing)
        for g, w in zip(got, np.meshgrid(a, b, indexing=indexing)):
            assert_tensor(g, w)
    assert tf.meshgrid() == [] and len(tf.meshgrid(a)) == 1
    assert tf.meshgrid(a, [1, 2])[1].dtype == "float32"
    assert_raises(TypeError, lambda: tf.meshgrid(a, a, indexing="xx"), "meshgrid", "indexing")


# --- data-dependent: where, boolean_mask, setdiff1d ---------------------------------------------------

def test_where_with_one_argument_and_where_async():
    c = rng.uniform(size=(3, 4)) < 0.5
    assert_tensor(tf.where(c), np.argwhere(c), "int32")
    assert_tensor(asyncio.run(tf.where_async(c)), np.argwhere(c), "int32")
    assert tf.where(np.zeros((2, 2), bool)).shape == (0, 2)
    assert_tensor(tf.where(c, x_of(3, 4) * 0 + 1, 0.0), c.astype(np.float32))   # the 3-argument form is intact
    floats = tf.tensor([1.0])
    assert_raises(TypeError, lambda: tf.where(floats), "where", "condition")
    assert_no_leak(lambda: asyncio.run(tf.where_async(c)).dispose())


def test_boolean_mask_and_setdiff1d():
    x = x_of(3, 4, 2)
    mask = rng.uniform(size=(3, 4)) < 0.5
    assert_tensor(tf.boolean_mask(x, mask), x[mask])
    assert_tensor(asyncio.run(tf.boolean_mask_async(x, mask)), x[mask])
    col = np.array([True, False, True, True])
    assert_tensor(tf.boolean_mask(x, col, axis=1), x[:, col])
    assert_raises(ValueError, lambda: tf.boolean_mask(x, col), "boolean_mask", "mask")
    assert_raises(ValueError, lambda: tf.boolean_mask(x, True), "boolean_mask", "mask")
    assert_no_leak(lambda: asyncio.run(tf.boolean_mask_async(x, mask)).dispose())

    values, indices = tf.setdiff1d(np.int32([1, 2, 3, 4, 5, 6]), np.int32([1, 3, 5]))
    assert_tensor(values, [2, 4, 6], "int32")
    assert_tensor(indices, [1, 3, 5], "int32")
    values, indices = asyncio.run(tf.setdiff1d_async(np.float32([1, 2]), np.float32([1, 2])))
    assert values.shape == (0,) and indices.dtype == "int32"
    floats = tf.tensor([1.0])
    assert_raises(TypeError, lambda: tf.setdiff1d(np.int32([1]), floats), "setdiff1d", "dtype")
    assert_raises(ValueError, lambda: tf.setdiff1d(np.int32([[1]]), np.int32([1])), "setdiff1d", "'x'")

    def run_async_and_dispose():
        tf.dispose(asyncio.run(tf.setdiff1d_async(np.int32([1, 2, 3]), np.int32([2]))))
    assert_no_leak(run_async_and_dispose)
