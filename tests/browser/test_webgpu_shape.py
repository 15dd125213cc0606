"""Shape and slicing kernels on webgpu against cpu: transpose, slice, strided slice (negative
steps), reverse, tile, pad, concat, stack, unstack, split, gather, broadcast_to, getitem."""
import numpy as np
import pytest

from .test_webgpu_backend import compare_webgpu, webgpu  # noqa: F401  (fixtures)

RNG = np.random.default_rng(51)


def _x(*shape):
    x = RNG.uniform(-5, 5, size=shape).astype(np.float32)
    flat = x.reshape(-1)
    if flat.size >= 4:
        flat[:4] = [np.nan, np.inf, -np.inf, -0.0]
    return x


def test_transpose(compare_webgpu):
    compare_webgpu("lambda a, b, i, c: [tf.transpose(a), tf.transpose(b, [2, 0, 1]), tf.transpose(b, [1, 0, 2]), "
                   "tf.transpose(i), tf.transpose(c, [3, 1, 0, 2])]",
                   [_x(3, 5), _x(2, 3, 4), RNG.integers(-9, 9, size=(4, 2)).astype(np.int32), _x(2, 1, 3, 2)])


def test_slice_and_strided_slice(compare_webgpu):
    compare_webgpu("lambda x, b: [tf.slice(x, [1, 0, 2], [2, 3, 2]), tf.slice(x, [0, 1, 0], [-1, 1, -1]), "
                   "tf.strided_slice(x, [0, 0, 0], [3, 4, 5], [2, 1, 3]), tf.strided_slice(x, [2, 3, 4], [0, 0, 0], "
                   "[-1, -2, -1]), x[::-1, 1:3, ::2], x[1], x[:, -1], b[1:, ::-1]]",
                   [_x(3, 4, 5), RNG.uniform(size=(3, 4)) < 0.5])


def test_reverse_tile_pad(compare_webgpu):
    compare_webgpu("lambda x, i, b: [tf.reverse(x, [0]), tf.reverse(x, [1, 2]), tf.tile(x, [2, 1, 3]), "
                   "tf.tile(i, [3, 2]), tf.pad(x, [[1, 0], [0, 2], [1, 1]]), tf.pad(x, [[0, 1], [2, 0], [0, 0]], 7.5), "
                   "tf.pad(i, [[1, 1], [0, 3]], -4), tf.pad(b, [[2, 0]], True), tf.tile(b, [2])]",
                   [_x(2, 3, 4), RNG.integers(-9, 9, size=(2, 2)).astype(np.int32), np.array([True, False])])


def test_concat_stack_unstack_split(compare_webgpu):
    compare_webgpu("lambda a, b, c, i, j: [tf.concat([a, b], 0), tf.concat([a, c], 1), tf.concat([a, b, a], 0), "
                   "tf.stack([a, a, a], 1), tf.stack([i, j]), tf.concat([i, j], 0), *tf.unstack(a, 1), "
                   "*tf.split(b, 3, 0), *tf.split(c, [1, 0, 2], 1)]",
                   [_x(2, 3), _x(3, 3), _x(2, 3), np.int32([1, -2, 2 ** 31 - 1]), np.int32([4, 5, -2 ** 31])])


def test_gather(compare_webgpu):
    x = _x(4, 3, 2)
    compare_webgpu("lambda x, i, k, j: [tf.gather(x, i), tf.gather(x, k, 1), tf.gather(x, j, 2), tf.gather(x, j, 1, 1), "
                   "tf.gather(x, j, 2, 1)]",
                   [x, np.int32([3, 0, 0, 2]), np.int32([[2, 1], [0, 2]]), np.int32([[1, 0], [0, 0], [1, 1], [0, 1]])])


def test_one_hot(compare_webgpu):
    compare_webgpu("lambda i: [tf.one_hot(i, 4), tf.one_hot(i, 3, 2.5, -1.0, 'float32'), tf.one_hot(i, 2, 1, 0, 'bool')]",
                   [np.int32([[0, 3], [5, -1], [1, 2]])])


def test_gather_out_of_range_index_known_on_the_cpu_side(webgpu):
    from .conftest import PageError
    with pytest.raises(PageError) as e:
        webgpu("tf.tidy(lambda: tf.gather(tf.ones([3, 2]), tf.tensor([0, 3], dtype='int32')))")
    assert e.value.type == "ValueError" and "indices" in e.value.message
    assert webgpu("m = tf.memory()\nresult = [m.num_tensors, m.num_buffers_in_use]") == [0, 0]


def test_broadcast_to_and_empty(compare_webgpu):
    compare_webgpu("lambda x, e: [tf.broadcast_to(x, [2, 3, 4]), tf.transpose(e), tf.concat([e, e], 0), "
                   "tf.tile(e, [2, 3]), tf.pad(e, [[1, 1], [0, 0]])]", [_x(3, 1), np.zeros((0, 2), np.float32)])


def test_shape_gradients(webgpu):
    from .test_webgpu_gradients import numeric_error_on_webgpu
    x = RNG.uniform(-1, 1, size=(2, 3)).astype(np.float32).tolist()
    for fn in ("lambda x: tf.transpose(x) * 2.0", "lambda x: tf.tile(x, [2, 1])", "lambda x: tf.pad(x, [[1, 0], [0, 1]])",
               "lambda x: tf.concat([x, x * 3.0], 1)", "lambda x: x[:, ::-2]", "lambda x: tf.gather(x, [2, 0, 2], 1)",
               "lambda x: tf.stack([x, x], 0)", "lambda x: tf.reverse(x, [1]) * x"):
        assert numeric_error_on_webgpu(webgpu, fn, [x]) < 2e-2, fn
