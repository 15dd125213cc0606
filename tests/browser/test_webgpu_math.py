"""Cumulative sums and products, LRN, top_k, image resizing and flipping on webgpu against cpu."""
import numpy as np
import pytest

from .test_webgpu_backend import compare_webgpu, webgpu  # noqa: F401  (fixtures)

RNG = np.random.default_rng(101)


def _r(*shape):
    return RNG.uniform(-2, 2, size=shape).astype(np.float32)


@pytest.mark.parametrize("exclusive, reverse", [(False, False), (True, False), (False, True), (True, True)])
def test_cumsum_cumprod(compare_webgpu, exclusive, reverse):
    opts = f"exclusive={exclusive}, reverse={reverse}"
    x = _r(3, 5, 2)
    x[0, 1, 0] = np.nan
    i = np.int32([[2 ** 31 - 1, 1, 5, -3], [65536, 65536, 2, -1]])
    compare_webgpu(f"lambda x, i: [tf.cumsum(x, 1, {opts}), tf.cumsum(x, 0, {opts}), tf.cumprod(x, 2, {opts}), "
                   f"tf.cumsum(i, 1, {opts}), tf.cumprod(i, 1, {opts})]", [x, i], rtol=1e-5, atol=1e-5)


def test_lrn_and_top_k(compare_webgpu):
    x = _r(2, 3, 3, 7)
    t = np.float32([[3, 1, 3, np.nan, -0.0, 0.0, 2], [1, 1, 1, 1, 1, 1, 1], [np.inf, -np.inf, np.nan, np.nan, 5, 4, 5]])
    i = np.int32([[5, -2 ** 31, 2 ** 31 - 1, 5, 0]])
    compare_webgpu("lambda x, t, i: [tf.local_response_normalization(x, 2, 1.0, 0.5, 0.75), "
                   "tf.local_response_normalization(x, 0), *tf.top_k(t, 4), *tf.top_k(t, 7), *tf.top_k(t, 0), "
                   "*tf.top_k(i, 3), *tf.top_k(t[0])]", [x, t, i], rtol=1e-5, atol=1e-5, signed_zeros=False)


def test_top_k_of_long_rows(compare_webgpu):
    """Rows far longer than k (centernet's top 100 of 1.3M scores), lengths not powers of two,
    many ties and some NaN: the bitonic passes keep cpu's order (ties by index, NaN first)."""
    x = RNG.integers(0, 50, size=(2, 3001)).astype(np.float32)
    x[1, [7, 2999]] = np.nan
    i = RNG.integers(-5, 5, size=(1, 777)).astype(np.int32)
    compare_webgpu("lambda x, i: [*tf.top_k(x, 100), *tf.top_k(x, 3), *tf.top_k(x, 1), *tf.top_k(i, 37), "
                   "*tf.top_k(i[:, :5], 5)]", [x, i], rtol=0, atol=0)


@pytest.mark.parametrize("align_corners, half_pixel_centers", [(False, False), (True, False), (False, True)])
def test_resize(compare_webgpu, align_corners, half_pixel_centers):
    opts = f"{align_corners}, {half_pixel_centers}"
    img = _r(2, 5, 4, 3)
    ints = RNG.integers(-9, 9, size=(1, 3, 3, 2)).astype(np.int32)
    compare_webgpu(f"lambda img, ints: [tf.image.resize_bilinear(img, [7, 3], {opts}), "
                   f"tf.image.resize_bilinear(img, [2, 9], {opts}), tf.image.resize_nearest_neighbor(img, [8, 2], {opts}), "
                   f"tf.image.resize_nearest_neighbor(ints, [5, 4], {opts}), tf.image.flip_left_right(img)]",
                   [img, ints], rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("align_corners, half_pixel_centers", [(False, False), (True, False), (False, True)])
def test_resize_gradients(compare_webgpu, align_corners, half_pixel_centers):
    opts = f"{align_corners}, {half_pixel_centers}"
    img = _r(2, 5, 4, 3)
    compare_webgpu(f"lambda img: [*tf.grads(lambda x: tf.sum(tf.image.resize_bilinear(x, [7, 3], {opts}) ** 2))([img]), "
                   f"*tf.grads(lambda x: tf.sum(tf.image.resize_bilinear(x, [2, 9], {opts}) * 3.0))([img]), "
                   f"*tf.grads(lambda x: tf.sum(tf.image.resize_nearest_neighbor(x, [8, 2], {opts}) ** 2))([img])]",
                   [img], rtol=1e-4, atol=1e-4)


def test_einsum_lrn_grad_sparse_to_dense_rotate_argmax(compare_webgpu):
    a, b = _r(2, 3, 4), _r(4, 5)
    x = _r(1, 4, 5, 6)
    img = _r(2, 5, 6, 3)
    compare_webgpu("lambda a, b, x, img, i, v: [tf.einsum('bij,jk->bik', a, b), tf.einsum('bij->jb', a), tf.einsum('ij,ij->', b, b), "
                   "*tf.grads(lambda x: tf.sum(tf.local_response_normalization(x, 2, 1.0, 0.5, 0.75) * x))([x]), "
                   "tf.sparse_to_dense(i, v, [4, 3], -1.0), tf.sparse_to_dense(i, 2.5, [4, 3]), "
                   "tf.image.rotate_with_offset(img, 0.7, [1, 2, 3], [0.3, 0.6]), tf.image.rotate_with_offset(img, -2.0, 9.5), "
                   "*tf.max_pool_with_argmax(img, 2, 2, 'same'), *tf.max_pool_with_argmax(img, 3, 1, 'valid', True)]",
                   [a, b, x, img, np.int32([[0, 1], [3, 2], [0, 1]]), np.float32([5, 6, 7])], rtol=1e-4, atol=1e-4)


def test_bincount(compare_webgpu):
    x = RNG.integers(0, 7, size=(3, 6)).astype(np.int32)
    w = _r(3, 6)
    iw = RNG.integers(-5, 5, size=(3, 6)).astype(np.int32)
    compare_webgpu("lambda x, w, iw, e: [tf.bincount(tf.reshape(x, [-1]), e, 5), tf.bincount(tf.reshape(x, [-1]), "
                   "tf.reshape(w, [-1]), 8), tf.dense_bincount(x, w, 6), tf.dense_bincount(x, iw, 4), "
                   "tf.dense_bincount(x, e, 7, True), tf.dense_bincount(x[0], iw[0], 3)]",
                   [x, w, iw, np.zeros((0,), np.float32)], rtol=1e-5, atol=1e-5)


def test_crop_and_resize(compare_webgpu):
    img = _r(2, 6, 5, 3)
    boxes = np.float32([[0, 0, 1, 1], [0.1, 0.2, 0.7, 0.9], [0.5, 0.5, 0.5, 0.5], [-0.3, 0.4, 1.2, 0.6],
                        [1, 1, 0, 0], [np.nan, 0, 1, 1]])
    ind = np.int32([0, 1, 1, 0, 1, 3])
    compare_webgpu("lambda img, boxes, ind: [tf.image.crop_and_resize(img, boxes, ind, [4, 3]), "
                   "tf.image.crop_and_resize(img, boxes, ind, [1, 5], 'nearest', 2.5), "
                   "tf.image.crop_and_resize(img, boxes, ind, [3, 3], 'bilinear', -1.0)]", [img, boxes, ind],
                   rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("fill_mode", ["constant", "reflect", "wrap", "nearest"])
def test_transform(compare_webgpu, fill_mode):
    img = _r(2, 5, 6, 3)
    ints = RNG.integers(-9, 9, size=(1, 4, 4, 2)).astype(np.int32)
    t1 = np.float32([[1.2, 0.3, -1.5, -0.2, 0.9, 2.0, 0.01, -0.02]])
    t2 = np.float32([[1, 0, 0, 0, 1, 0, 0, 0], [0.5, -0.5, 3, 0.5, 0.5, -1, 0, 0]])
    # an int32 image is refused, as TF.js does (convertToTensor(image, ..., 'float32')); cast, it transforms
    compare_webgpu(f"lambda img, ints, t1, t2: [tf.image.transform(img, t1, 'bilinear', {fill_mode!r}, 1.5), "
                   f"tf.image.transform(img, t2, 'nearest', {fill_mode!r}, -2.0, [7, 4]), "
                   f"tf.image.transform(tf.cast(ints, 'float32'), t1, 'nearest', {fill_mode!r}, 3)]",
                   [img, ints, t1, t2], rtol=1e-5, atol=1e-5)


def test_multinomial_draws_as_cpu(compare_webgpu):
    probs = np.float32([[0.1, 0.2, 0.3, 0.4], [0.7, 0.1, 0.1, 0.1], [0.0, 0.0, 1.0, 0.0]])
    logits = np.float32([[0.0, 1.0, -1.0], [2.0, 2.0, 0.5]])
    compare_webgpu("lambda p, l: [tf.multinomial(p, 50, 7, True), tf.multinomial(l, 20, 3), "
                   "tf.multinomial(l, 5, 1.5)]", [probs, logits])


def test_int32_images_resize_and_crop(compare_webgpu):
    ints = RNG.integers(-99, 99, size=(2, 4, 5, 2)).astype(np.int32)
    boxes = np.float32([[0, 0, 1, 1], [0.2, 0.1, 0.9, 0.7]])
    compare_webgpu("lambda i, boxes: [tf.image.resize_bilinear(i, [3, 7]), tf.image.resize_bilinear(i, [5, 2], True), "
                   "tf.image.crop_and_resize(i, boxes, tf.tensor([1, 0], dtype='int32'), [3, 3])]", [ints, boxes],
                   rtol=1e-5, atol=1e-4)
