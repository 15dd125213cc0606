"""webgl tf.image kernels against the cpu backend: resizing (all flag combinations) and its
gradients, CropAndResize, FlipLeftRight, RotateWithOffset, Transform (every fill mode), the
colour ops and threshold, and non-max suppression (read back and selected on the CPU).

Each compare_with_cpu call runs several ops at once: shader compiles dominate on SwiftShader,
and resize flags, fill modes and methods are uniforms, so they share one compiled program."""
import numpy as np

from .conftest import gradient_threshold
from .inputs import floats

rng = np.random.default_rng(17)
FLAGS = "[(False, False), (True, False), (False, True)]"


def test_resize_bilinear_and_nearest(compare_with_cpu):
    x = floats(rng, 2, 3, 4, 2)
    x[1, 1, 1, 1] = 7.0          # finite where bilinear mixes it; floats() put NaN/inf up front
    i = rng.integers(-100, 100, size=(1, 5, 3, 1)).astype(np.int32)
    compare_with_cpu(f"""lambda x, i: [f(x, s, a, h) for a, h in {FLAGS} for s in ([5, 7], [2, 3])
        for f in (tf.image.resize_bilinear, tf.image.resize_nearest_neighbor)] + [
        tf.image.resize_nearest_neighbor(i, [9, 2], True), tf.image.resize_bilinear(i, [2, 2]),
        tf.image.resize_nearest_neighbor(tf.reshape(x, [3, 4, 4]), [2, 3]),
        tf.image.resize_bilinear(tf.zeros([0, 3, 4, 2]), [5, 7])]""", [x, i], rtol=1e-5, atol=1e-5)


def test_resize_gradients(compare_with_cpu):
    """The Grad kernels, also for a big upsample (wide windows) and a downsample."""
    x = rng.uniform(-2, 2, size=(2, 3, 4, 2)).astype(np.float32)
    dy_up = rng.uniform(-2, 2, size=(2, 13, 9, 2)).astype(np.float32)
    dy_down = rng.uniform(-2, 2, size=(2, 2, 3, 2)).astype(np.float32)
    compare_with_cpu(f"""lambda x, up, down: [tf.grad(lambda t: f(t, dy.shape[1:3], a, h))(x, dy)
        for a, h in {FLAGS} for dy in (up, down)
        for f in (tf.image.resize_bilinear, tf.image.resize_nearest_neighbor)]""", [x, dy_up, dy_down],
                     rtol=1e-4, atol=1e-5)


def test_resize_numeric_gradient_in_page(run_py):
    err = run_py("""
from pytfweb.testing import numeric_gradient_error
x = tf.tensor([[[[0.5], [1.5], [-1.0]], [[2.0], [0.25], [1.0]]]])
result = max(numeric_gradient_error(lambda t: f(t, [3, 5], False, True), [x])
             for f in (tf.image.resize_bilinear, tf.image.resize_nearest_neighbor))
""")
    assert err < gradient_threshold(1e-2)


def test_crop_flip_rotate(compare_with_cpu):
    image = floats(rng, 2, 5, 6, 3)
    image[0, 0, 0] = [1, 2, 3]   # no NaN/inf where bilinear crops mix pixels
    boxes = np.float32([[0, 0, 1, 1], [0.13, 0.21, 0.77, 0.93], [0.83, 0.61, 0.17, 0.09], [-0.47, 0.33, 0.52, 1.37],
                        [0.2, 0.2, 0.4, 0.4]])
    box_ind = np.int32([0, 1, 0, 1, 2])
    rgba = floats(rng, 1, 4, 5, 4)
    compare_with_cpu("""lambda image, boxes, box_ind, rgba: [
        tf.image.crop_and_resize(image, boxes, box_ind, [3, 4], m, -3.5) for m in ('bilinear', 'nearest')] + [
        tf.image.crop_and_resize(image, boxes, box_ind, [1, 1]),
        tf.image.crop_and_resize(image, tf.zeros([0, 4]), tf.zeros([0], 'int32'), [3, 4]),
        tf.image.flip_left_right(image), tf.image.flip_left_right(tf.cast(tf.cast(rgba, 'int32'), 'float32')),
        tf.image.rotate_with_offset(image, 0.7, 2.5), tf.image.rotate_with_offset(image, -1.3, 0, [0.2, 0.7]),
        tf.image.rotate_with_offset(rgba, 2.2, [1, 2, 3], 0.4)]""", [image, boxes, box_ind, rgba])


def test_transform(compare_with_cpu):
    image = rng.uniform(-5, 5, size=(4, 5, 6, 2)).astype(np.float32)
    # Positions stay clear of .5 (nearest) ties, where float32 and float64 could round apart.
    transforms = np.float32([[1, 0, 0, 0, 1, 0, 0, 0], [1, 0, -2.3, 0, 1, 1.6, 0, 0],
                             [0.81, -0.59, 1.23, 0.58, 0.79, -0.71, 0, 0],
                             [1.5, 0.2, -3.1, 0.1, 1.3, -2.2, 0.02, -0.03]])
    compare_with_cpu("""lambda image, t: [tf.image.transform(image, t, i, m, 1.5)
        for i in ('nearest', 'bilinear') for m in ('constant', 'reflect', 'wrap', 'nearest')] + [
        tf.image.transform(image, tf.slice(t, [2, 0], [1, 8]), 'bilinear', 'reflect', 0, [4, 7]),
        tf.image.transform(image, tf.tensor([[1, 0, 0, 0, 1, 0, -1, 0]]), fill_value=7)]""",
                     [image, transforms], rtol=1e-4, atol=1e-4)


def test_colour_and_threshold(compare_with_cpu):
    rgb = rng.uniform(0, 255, size=(6, 7, 3)).astype(np.float32)
    rgb[:3] *= 0.3
    gray = rng.integers(0, 256, size=(5, 4, 1)).astype(np.int32)
    compare_with_cpu("""lambda rgb, gray: [tf.image.rgb_to_grayscale(rgb), tf.image.grayscale_to_rgb(gray),
        tf.image.threshold(rgb), tf.image.threshold(gray, 'binary', True, 0.3), tf.image.threshold(rgb, 'otsu'),
        tf.image.threshold(gray, 'otsu', True)]""", [rgb, gray], rtol=1e-5, atol=1e-4)


def test_non_max_suppression(compare_with_cpu, run_py):
    boxes = rng.uniform(0, 1, size=(30, 4)).astype(np.float32)
    scores = rng.uniform(0, 1, size=30).astype(np.float32)
    scores[[3, 7]] = scores[5]   # ties
    compare_with_cpu("""lambda b, s: [tf.image.non_max_suppression(b, s, 10, 0.3),
        tf.image.non_max_suppression(b, s, 50, 0.6, 0.4),
        *tf.image.non_max_suppression_with_score(b, s, 12, 0.5, 0.1, 0.4).values(),
        *tf.image.non_max_suppression_padded(b, s, 25, 0.2, 0.5, True).values()]""", [boxes, scores])
    got = run_py("""
b = tf.tensor([[0, 0, 1, 1], [0, 0.1, 1, 1.1], [0, -0.1, 1, 0.9], [0, 10, 1, 11], [0, 10.1, 1, 11.1], [0, 100, 1, 101]])
b = b + 0      # computed on the GPU: the async ops wait for it without blocking
s = [0.9, 0.75, 0.6, 0.95, 0.5, 0.3]
a = await tf.image.non_max_suppression_async(b, s, 3, 0.5)
w = await tf.image.non_max_suppression_with_score_async(b, s, 10, 1.0, 0.0, 0.5)
result = [a.array_sync(), w["selected_indices"].array_sync(), tf.memory().num_tensors]
""")
    assert got == [[3, 0, 5], [3, 0, 1, 5, 4, 2], 5]    # b, its sum, and the three results
