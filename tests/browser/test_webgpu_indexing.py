"""Indexing kernels on webgpu against cpu: gather_nd, scatter_nd (repeated indices add up),
tensor_scatter_update (the last update wins), unsorted_segment_sum, search_sorted, diag,
mirror_pad, depth_to_space, space_to_batch_nd, batch_to_space_nd."""
import numpy as np
import pytest

from .test_webgpu_backend import compare_webgpu, webgpu  # noqa: F401  (fixtures)

RNG = np.random.default_rng(91)


def _r(*shape):
    return RNG.uniform(-5, 5, size=shape).astype(np.float32)


def test_gather_nd_and_scatters(compare_webgpu):
    p = _r(4, 3, 2)
    compare_webgpu("lambda p, i, j, u, v, t: [tf.gather_nd(p, i), tf.gather_nd(p, j), tf.scatter_nd(i, u, [4, 3, 2]), "
                   "tf.scatter_nd(j, v, [4, 3, 2]), tf.tensor_scatter_update(t, i, u), tf.tensor_scatter_update(p, j, v)]",
                   [p, np.int32([[1, 2], [0, 0], [1, 2], [3, 1]]), np.int32([[3], [0], [3]]),
                    _r(4, 2), _r(3, 3, 2), _r(4, 3, 2)])
    compare_webgpu("lambda i, u: [tf.scatter_nd(i, u, [5]), tf.gather_nd(tf.scatter_nd(i, u, [5]), tf.reshape(i, [4, 1]))]",
                   [np.int32([1, 1, 4, 0]), np.int32([7, -2, 2 ** 31 - 1, 1])])


def test_out_of_range_index_known_on_the_cpu_side(webgpu):
    from .conftest import PageError
    with pytest.raises(PageError) as e:
        webgpu("tf.tidy(lambda: tf.gather_nd(tf.ones([2, 2]), tf.tensor([[0, 2]], dtype='int32')))")
    assert e.value.type == "ValueError" and "gather_nd" in e.value.message and "indices" in e.value.message


def test_segment_sum_search_sorted_diag(compare_webgpu):
    compare_webgpu("lambda x, ids, seq, vals, d, ints: [tf.unsorted_segment_sum(x, ids, 4), "
                   "tf.search_sorted(seq, vals), tf.search_sorted(seq, vals, 'right'), tf.diag(d), tf.diag(ints), "
                   "tf.lower_bound(seq, vals), tf.upper_bound(seq, vals)]",
                   [_r(5, 3), np.int32([0, 3, 0, -1, 9]), np.sort(_r(2, 6), axis=1),
                    np.float32([[0, 5, -5, np.nan], [1, 2, 100, -100]]), _r(3), np.int32([[1, 2], [3, 4]])])


def test_mirror_pad_and_space_batch(compare_webgpu):
    x = _r(2, 4, 4, 3)
    compare_webgpu("lambda x, s: [tf.mirror_pad(s, [[1, 2], [0, 3]], 'reflect'), tf.mirror_pad(s, [[3, 2], [4, 1]], 'symmetric'), "
                   "tf.depth_to_space(tf.tile(x, [1, 1, 1, 4]), 2), tf.space_to_batch_nd(x, [2, 2], [[0, 0], [2, 0]]), "
                   "tf.batch_to_space_nd(x, [2, 1], [[1, 0], [0, 0]]), tf.depth_to_space(tf.tile(x, [1, 4, 1, 1]), 2, 'NCHW')]",
                   [x, _r(4, 5)])
