"""tf.image on the cpu backend against direct numpy (loop) references written from TF.js's
definitions, plus gradients, non-max suppression cases from TF.js's tests, and errors."""
import asyncio
import math

import numpy as np
import pytest

import pytfweb as tf
from pytfweb.testing import numeric_gradient_error

from .helpers import assert_raises, assert_tensor

rng = np.random.default_rng(5)
FLAGS = [(False, False), (True, False), (False, True)]     # (align_corners, half_pixel_centers)
SIZES = [(5, 7), (2, 3), (1, 1), (3, 4), (6, 2)]


def floats(*shape, low=-5, high=5):
    return rng.uniform(low, high, size=shape).astype(np.float32)


# --- references: one output pixel at a time, as TF.js's cpu kernels loop ------------------------

def _ratio(n_in, n_out, align):
    return (n_in - 1) / (n_out - 1) if align and n_out > 1 else n_in / n_out


def ref_resize_bilinear(x, size, align, half):
    b, h, w, c = x.shape
    out = np.zeros((b, size[0], size[1], c))
    rr, rc = _ratio(h, size[0], align), _ratio(w, size[1], align)
    for r in range(size[0]):
        fr = rr * (r + 0.5) - 0.5 if half else rr * r
        r0, r1 = max(0, math.floor(fr)), min(h - 1, math.ceil(fr))
        for col in range(size[1]):
            fc = rc * (col + 0.5) - 0.5 if half else rc * col
            c0, c1 = max(0, math.floor(fc)), min(w - 1, math.ceil(fc))
            top = x[:, r0, c0] + (x[:, r0, c1] - x[:, r0, c0]) * (fc - c0)
            bottom = x[:, r1, c0] + (x[:, r1, c1] - x[:, r1, c0]) * (fc - c0)
            out[:, r, col] = top + (bottom - top) * (fr - r0)
    return out


def ref_resize_nearest(x, size, align, half):
    b, h, w, c = x.shape
    rr, rc = _ratio(h, size[0], align), _ratio(w, size[1], align)

    def src(y, ratio, n):
        f = ratio * (y + 0.5) if half else ratio * y
        i = min(n - 1, math.floor(f + 0.5) if align else math.floor(f))
        return max(0, i) if half else i
    rows = [src(r, rr, h) for r in range(size[0])]
    cols = [src(col, rc, w) for col in range(size[1])]
    return x[:, rows][:, :, cols]


@pytest.mark.parametrize("align, half", FLAGS)
@pytest.mark.parametrize("size", SIZES)
def test_resize(align, half, size):
    x = floats(2, 3, 4, 2)
    assert_tensor(tf.image.resize_bilinear(x, size, align, half), ref_resize_bilinear(x.astype(np.float64), size,
                                                                                      align, half), "float32")
    assert_tensor(tf.image.resize_nearest_neighbor(x, size, align, half), ref_resize_nearest(x, size, align, half),
                  "float32")


def test_resize_rank3_int32_and_tfjs_values():
    # TF.js's test: resizeBilinear of [[[2, 2], [4, 4]]] (2 x 2 x 1) to 3 x 3
    x = tf.tensor3d([2, 2, 4, 4], [2, 2, 1])
    assert_tensor(tf.image.resize_bilinear(x, [3, 3]), np.float32([2, 2, 2, 3.3333333, 3.3333333, 3.3333333,
                                                                   4, 4, 4]).reshape(3, 3, 1))
    assert_tensor(tf.image.resize_bilinear(x, [3, 3], True), np.float32([2, 2, 2, 3, 3, 3, 4, 4, 4]).reshape(3, 3, 1))
    i = tf.tensor(np.arange(12, dtype=np.int32).reshape(2, 3, 2))
    assert_tensor(tf.image.resize_nearest_neighbor(i, [4, 5]), ref_resize_nearest(i.numpy()[None], (4, 5), False,
                                                                                  False)[0], "int32")
    assert tf.image.resize_bilinear(i, [4, 5]).dtype == "float32"


@pytest.mark.parametrize("align, half", FLAGS)
@pytest.mark.parametrize("size", [(5, 7), (2, 3), (1, 1), (6, 2)])
def test_resize_gradients(align, half, size):
    x = tf.tensor(floats(2, 3, 4, 2))
    for fn in (tf.image.resize_bilinear, tf.image.resize_nearest_neighbor):
        assert numeric_gradient_error(lambda t: fn(t, size, align, half), [x]) < 1e-3


@pytest.mark.parametrize("align, half", FLAGS)
def test_resize_gradient_is_the_adjoint(align, half):
    """<resize(x), dy> == <x, grad(dy)> for the linear resizes, on a big upsample and downsample."""
    for in_hw, size in (((3, 5), (17, 11)), ((9, 8), (4, 3))):
        x = floats(1, *in_hw, 2)
        dy = floats(1, *size, 2)
        for fn in (tf.image.resize_bilinear, tf.image.resize_nearest_neighbor):
            g = tf.grad(lambda t: fn(t, size, align, half))(tf.tensor(x), tf.tensor(dy)).numpy()
            lhs = np.sum(fn(x, size, align, half).numpy().astype(np.float64) * dy)
            assert np.isclose(lhs, np.sum(x.astype(np.float64) * g), rtol=1e-4), (fn.__name__, in_hw, size)


def ref_crop_and_resize(image, boxes, box_ind, crop, method, extrapolation):
    batch, h, w, c = image.shape
    out = np.zeros((len(boxes), crop[0], crop[1], c))
    for b, ((y1, x1, y2, x2), k) in enumerate(zip(boxes.astype(np.float64), box_ind)):
        if not 0 <= k < batch:
            continue
        for y in range(crop[0]):
            yi = y1 * (h - 1) + y * ((y2 - y1) * (h - 1) / (crop[0] - 1)) if crop[0] > 1 else 0.5 * (y1 + y2) * (h - 1)
            for x in range(crop[1]):
                xi = (x1 * (w - 1) + x * ((x2 - x1) * (w - 1) / (crop[1] - 1)) if crop[1] > 1
                      else 0.5 * (x1 + x2) * (w - 1))
                if not (0 <= yi <= h - 1 and 0 <= xi <= w - 1):
                    out[b, y, x] = extrapolation
                elif method == "nearest":
                    out[b, y, x] = image[k, math.floor(yi + 0.5), math.floor(xi + 0.5)]
                else:
                    t, bo, le, ri = math.floor(yi), math.ceil(yi), math.floor(xi), math.ceil(xi)
                    top = image[k, t, le] + (image[k, t, ri] - image[k, t, le]) * (xi - le)
                    bottom = image[k, bo, le] + (image[k, bo, ri] - image[k, bo, le]) * (xi - le)
                    out[b, y, x] = top + (bottom - top) * (yi - t)
    return out


@pytest.mark.parametrize("method", ["bilinear", "nearest"])
@pytest.mark.parametrize("crop", [(3, 4), (1, 1), (1, 5)])
def test_crop_and_resize(method, crop):
    image = floats(2, 5, 6, 3)
    boxes = np.float32([[0, 0, 1, 1], [0.13, 0.21, 0.77, 0.93], [0.83, 0.61, 0.17, 0.09], [-0.47, 0.33, 0.52, 1.37],
                        [0.2, 0.2, 0.4, 0.4]])
    box_ind = np.int32([0, 1, 0, 1, 2])    # the last is outside the batch: zeros
    out = tf.image.crop_and_resize(image, boxes, box_ind, crop, method, -3.5)
    assert_tensor(out, ref_crop_and_resize(image.astype(np.float64), boxes, box_ind, crop, method, -3.5), "float32")


def test_empty_batches():
    assert tf.image.resize_bilinear(np.zeros((0, 3, 4, 2), np.float32), [5, 7]).shape == (0, 5, 7, 2)
    g = tf.grad(lambda t: tf.image.resize_nearest_neighbor(t, [5, 7]))(tf.zeros([0, 3, 4, 2]))
    assert g.shape == (0, 3, 4, 2)
    crop = tf.image.crop_and_resize(floats(1, 3, 3, 1), np.zeros((0, 4), np.float32), np.zeros(0, np.int32), [2, 2])
    assert crop.shape == (0, 2, 2, 1)


def test_flip_left_right():
    x = floats(2, 3, 4, 2)
    assert_tensor(tf.image.flip_left_right(x), x[:, :, ::-1], "float32")
    assert numeric_gradient_error(tf.image.flip_left_right, [tf.tensor(x)]) < 1e-3
    i = np.arange(24, dtype=np.int32).reshape(1, 2, 4, 3)
    with pytest.raises(TypeError, match="float32"):   # as TF.js: float32 tensors only
        tf.image.flip_left_right(tf.tensor(i))
    assert_tensor(tf.image.flip_left_right(i), i[:, :, ::-1], "float32")   # values become float32


def ref_rotate(x, radians, fill, center):
    b, h, w, c = x.shape
    cx, cy = (w * center[0], h * center[1]) if isinstance(center, list) else (w * center, h * center)
    out = np.zeros_like(x)
    for r in range(h):
        for col in range(w):
            sx = math.floor((col - cx) * math.cos(radians) - (r - cy) * math.sin(radians) + cx + 0.5)
            sy = math.floor((col - cx) * math.sin(radians) + (r - cy) * math.cos(radians) + cy + 0.5)
            for ch in range(c):
                f = fill if not isinstance(fill, list) else (255 if ch == 3 else fill[ch])
                out[:, r, col, ch] = x[:, sy, sx, ch] if 0 <= sx < w and 0 <= sy < h else f
    return out


@pytest.mark.parametrize("radians, fill, center", [(0.0, 0, 0.5), (0.7, 2.5, 0.5), (-1.3, [1, 2, 3], [0.2, 0.7]),
                                                   (math.pi, 9, 0.4)])
def test_rotate_with_offset(radians, fill, center):
    x = floats(2, 5, 6, 4)
    want = ref_rotate(x, radians, fill, center)
    assert_tensor(tf.image.rotate_with_offset(x, radians, fill, center), want, "float32")


def ref_map(v, n, mode):
    """TF.js's mapCoord, one coordinate."""
    if mode == "nearest":
        return min(max(v, 0), n - 1)
    if mode == "constant":
        return v
    if v < 0 or v > n - 1:
        if n <= 1:
            return 0.0
        if mode == "reflect":
            sz2 = 2 * n
            if v < 0:
                v = sz2 * math.trunc(-v / sz2) + v
                v = v + sz2 if v < -n else -v - 1
            else:
                v -= sz2 * math.trunc(v / sz2)
                v = sz2 - v - 1 if v >= n else v
        else:
            v = v + n * (math.trunc(-v / (n - 1)) + 1) if v < 0 else v - n * math.trunc(v / (n - 1))
    return min(max(v, 0), n - 1)


def ref_transform(x, t, interpolation, mode, fill, out_hw):
    b, h, w, c = x.shape
    out = np.full((b, out_hw[0], out_hw[1], c), fill, np.float64)

    def read(k, yy, xx):
        return x[k, int(yy), int(xx)] if 0 <= yy < h and 0 <= xx < w else np.full(c, fill)
    for k in range(b):
        a0, a1, a2, b0, b1, b2, c0, c1 = t[k if len(t) > 1 else 0].astype(np.float64)
        for y in range(out_hw[0]):
            for xo in range(out_hw[1]):
                p = c0 * xo + c1 * y + 1
                if p == 0:
                    continue
                sx = ref_map((a0 * xo + a1 * y + a2) / p, w, mode)
                sy = ref_map((b0 * xo + b1 * y + b2) / p, h, mode)
                if interpolation == "nearest":
                    out[k, y, xo] = read(k, math.floor(sy + 0.5), math.floor(sx + 0.5))
                else:
                    y0, x0 = math.floor(sy), math.floor(sx)
                    upper = (x0 + 1 - sx) * read(k, y0, x0) + (sx - x0) * read(k, y0, x0 + 1)
                    lower = (x0 + 1 - sx) * read(k, y0 + 1, x0) + (sx - x0) * read(k, y0 + 1, x0 + 1)
                    out[k, y, xo] = (y0 + 1 - sy) * upper + (sy - y0) * lower
    return out


TRANSFORMS = np.float32([[1, 0, 0, 0, 1, 0, 0, 0],                 # identity
                         [1, 0, -2.3, 0, 1, 1.6, 0, 0],            # shifted out of the image
                         [0.81, -0.59, 1.23, 0.58, 0.79, -0.71, 0, 0],   # rotation
                         [1.5, 0.2, -3.1, 0.1, 1.3, -2.2, 0.02, -0.03]])  # projective


@pytest.mark.parametrize("interpolation", ["nearest", "bilinear"])
@pytest.mark.parametrize("mode", ["constant", "reflect", "wrap", "nearest"])
def test_transform(interpolation, mode):
    x = floats(4, 5, 6, 2)
    out = tf.image.transform(x, TRANSFORMS, interpolation, mode, 1.5)
    assert_tensor(out, ref_transform(x, TRANSFORMS, interpolation, mode, 1.5, (5, 6)), "float32")
    one = tf.image.transform(x, TRANSFORMS[2:3], interpolation, mode, 0, [4, 7])     # one row for every image
    assert_tensor(one, ref_transform(x, TRANSFORMS[2:3], interpolation, mode, 0, (4, 7)), "float32")


def test_transform_identity_and_zero_projection():
    x = floats(1, 3, 3, 1)
    assert_tensor(tf.image.transform(x, [[1, 0, 0, 0, 1, 0, 0, 0]]), x)
    # projection 0 at x = 1 (c0 = -1): that column gets the fill value
    out = tf.image.transform(x, [[1, 0, 0, 0, 1, 0, -1, 0]], fill_value=7).numpy()
    assert np.all(out[0, :, 1] == 7)


def test_colour_conversions():
    rgb = floats(2, 3, 4, 3, low=0, high=255)
    gray = np.sum(rgb.astype(np.float32) * np.float32([0.2989, 0.5870, 0.1140]), -1, keepdims=True)
    assert_tensor(tf.image.rgb_to_grayscale(rgb), gray, "float32", rtol=1e-5)
    ints = rng.integers(0, 256, size=(5, 3)).astype(np.int32)
    assert_tensor(tf.image.rgb_to_grayscale(ints),
                  np.trunc(ints @ np.float64([0.2989, 0.5870, 0.1140]))[:, None].astype(np.int32), "int32")
    assert_tensor(tf.image.grayscale_to_rgb(gray), np.repeat(gray, 3, -1), "float32")
    g = tf.tensor(floats(2, 2, 3))
    assert numeric_gradient_error(tf.image.rgb_to_grayscale, [g]) < 1e-3
    assert numeric_gradient_error(tf.image.grayscale_to_rgb, [tf.tensor(floats(3, 1))]) < 1e-3


def ref_otsu(gray):
    """TF.js's otsu loop over the histogram of round(gray), in float32."""
    hist = np.bincount(np.round(gray).astype(int).ravel(), minlength=256)[:256].astype(np.float32)
    total = np.float32(gray.shape[0] * gray.shape[1])
    best, best_var = -1, np.float32(0)
    for t in range(255):
        first, second = hist[:t + 1], hist[t + 1:]
        with np.errstate(all="ignore"):
            m1 = np.float32(np.sum(first * np.arange(t + 1))) / np.float32(first.sum())
            m2 = np.float32(np.sum(second * np.arange(t + 1, 256))) / np.float32(second.sum())
            var = np.float32(first.sum() / total) * np.float32(second.sum() / total) * (m1 - m2) * (m1 - m2)
        if var > best_var:
            best, best_var = t, var
    return best


@pytest.mark.parametrize("channels", [1, 3])
def test_threshold(channels):
    image = rng.uniform(0, 255, size=(6, 7, channels)).astype(np.float32)
    image[:3] *= 0.3                                   # two clusters for Otsu
    gray = image if channels == 1 else (image[..., :1] * np.float32(0.2989) + image[..., 1:2] * np.float32(0.587)
                                        + image[..., 2:] * np.float32(0.114))
    assert_tensor(tf.image.threshold(image), np.where(gray > 127.5, 255, 0), "int32")
    assert_tensor(tf.image.threshold(image, "binary", True, 0.3), np.where(gray <= 0.3 * 255, 255, 0), "int32")
    level = ref_otsu(gray)
    assert_tensor(tf.image.threshold(image, "otsu"), np.where(gray > level, 255, 0), "int32")
    flat = np.full((2, 2, 1), 100, np.int32)           # one class only: threshold -1
    assert_tensor(tf.image.threshold(flat, "otsu"), np.full((2, 2, 1), 255), "int32")


# --- non-max suppression (cases from TF.js's tests) -------------------------------------------------

BOXES = [[0, 0, 1, 1], [0, 0.1, 1, 1.1], [0, -0.1, 1, 0.9], [0, 10, 1, 11], [0, 10.1, 1, 11.1], [0, 100, 1, 101]]
SCORES = [0.9, 0.75, 0.6, 0.95, 0.5, 0.3]


def test_non_max_suppression():
    assert tf.image.non_max_suppression(BOXES, SCORES, 3, 0.5).numpy().tolist() == [3, 0, 5]
    assert tf.image.non_max_suppression(BOXES, SCORES, 2, 0.5).numpy().tolist() == [3, 0]
    assert tf.image.non_max_suppression(BOXES, SCORES, 100, 0.5, 0.4).numpy().tolist() == [3, 0]
    flipped = [[1, 1, 0, 0], [0, 0.1, 1, 1.1], [0, 0.9, 1, -0.1], [0, 10, 1, 11], [1, 10.1, 0, 11.1], [1, 101, 0, 100]]
    assert tf.image.non_max_suppression(flipped, SCORES, 3, 0.5).numpy().tolist() == [3, 0, 5]
    same = tf.image.non_max_suppression([[0, 0, 1, 1]] * 4, [0.5] * 4, 4, 0.5)     # ties: the lowest index
    assert same.numpy().tolist() == [0] and same.dtype == "int32"
    empty = tf.image.non_max_suppression(np.zeros((0, 4), np.float32), [], 3)
    assert empty.shape == (0,) and empty.dtype == "int32"


def test_non_max_suppression_with_score_and_padded():
    r = tf.image.non_max_suppression_with_score(BOXES, SCORES, 10, 1.0, 0.0, 0.5)
    assert r["selected_indices"].numpy().tolist() == [3, 0, 1, 5, 4, 2]
    assert_tensor(r["selected_scores"], [0.95, 0.9, 0.384, 0.3, 0.256, 0.197], "float32", rtol=0, atol=1e-3)
    r = tf.image.non_max_suppression_padded(BOXES, SCORES, 6, 0.5, 0.0, True)
    assert r["selected_indices"].numpy().tolist() == [3, 0, 5, 0, 0, 0]
    assert r["valid_outputs"].shape == () and int(r["valid_outputs"].numpy()) == 3
    r = tf.image.non_max_suppression_padded(BOXES, SCORES, 6, 0.5)
    assert r["selected_indices"].numpy().tolist() == [3, 0, 5]


def test_non_max_suppression_async():
    async def run():
        before = tf.memory().num_tensors
        a = await tf.image.non_max_suppression_async(BOXES, SCORES, 3, 0.5)
        s = await tf.image.non_max_suppression_with_score_async(BOXES, SCORES, 10, 1.0, 0.0, 0.5)
        p = await tf.image.non_max_suppression_padded_async(tf.tensor(BOXES), SCORES, 5, 0.5, 0.0, True)
        made = tf.memory().num_tensors - before
        return a.numpy().tolist(), s["selected_indices"].numpy().tolist(), p["selected_indices"].numpy().tolist(), \
            int(p["valid_outputs"].numpy()), made
    a, s, p, valid, made = asyncio.run(run())
    assert (a, s, p, valid) == ([3, 0, 5], [3, 0, 1, 5, 4, 2], [3, 0, 5, 0, 0], 3)
    assert made == 6      # the results only (and the one tensor passed in)


# --- errors ------------------------------------------------------------------------------------------

def test_errors():
    x4 = tf.zeros([1, 3, 3, 1])      # kept through every case; the others are numpy
    x4i = tf.zeros([1, 3, 3, 1], "int32")
    cases = [
        (ValueError, lambda: tf.image.resize_bilinear(np.zeros((3, 3), np.float32), [2, 2]), "resize_bilinear",
         "images", "rank"),
        (ValueError, lambda: tf.image.resize_bilinear(x4, [2]), "resize_bilinear", "size"),
        (ValueError, lambda: tf.image.resize_nearest_neighbor(x4, [-1, 2]), "resize_nearest_neighbor", "size"),
        (TypeError, lambda: tf.image.resize_bilinear(x4, [2.5, 2]), "resize_bilinear", "size"),
        (ValueError, lambda: tf.image.resize_bilinear(x4, [2, 2], True, True), "align_corners", "half_pixel_centers"),
        (TypeError, lambda: tf.image.resize_nearest_neighbor(np.zeros((1, 2, 2, 1), np.bool_), [2, 2]), "images",
         "bool"),
        (ValueError, lambda: tf.image.resize_bilinear(np.zeros((1, 0, 3, 1), np.float32), [2, 2]), "resize_bilinear",
         "images"),
        (ValueError, lambda: tf.image.crop_and_resize(np.zeros((3, 3, 1), np.float32), [[0, 0, 1, 1]], [0], [2, 2]),
         "crop_and_resize", "image"),
        (ValueError, lambda: tf.image.crop_and_resize(x4, [[0, 0, 1]], [0], [2, 2]), "crop_and_resize", "boxes"),
        (ValueError, lambda: tf.image.crop_and_resize(x4, [[0, 0, 1, 1]], [0, 0], [2, 2]), "box_ind"),
        (ValueError, lambda: tf.image.crop_and_resize(x4, [[0, 0, 1, 1]], [0], [2, 2], "cubic"), "method"),
        (ValueError, lambda: tf.image.crop_and_resize(x4, [[0, 0, 1, 1]], [0], [0, 2]), "crop_size"),
        (ValueError, lambda: tf.image.flip_left_right(np.zeros((3, 3, 1), np.float32)), "flip_left_right", "image"),
        (ValueError, lambda: tf.image.rotate_with_offset(x4, 1, [1, 2]), "rotate_with_offset", "fill_value"),
        (TypeError, lambda: tf.image.rotate_with_offset(x4, "a"), "rotate_with_offset", "radians"),
        (ValueError, lambda: tf.image.transform(x4, [[1, 0, 0, 0, 1, 0, 0]]), "transform", "transforms"),
        # as TF.js (convertToTensor(image, 'image', 'transform', 'float32')): an int32 image tensor is refused
        (TypeError, lambda: tf.image.transform(x4i, [[1, 0, 0, 0, 1, 0, 0, 0]]), "transform", "'image'",
         "float32"),
        (ValueError, lambda: tf.image.transform(np.zeros((2, 3, 3, 1), np.float32), np.zeros((3, 8), np.float32)),
         "transforms"),
        (ValueError, lambda: tf.image.transform(x4, np.zeros((1, 8), np.float32), fill_mode="mirror"), "fill_mode"),
        (ValueError, lambda: tf.image.transform(x4, np.zeros((1, 8), np.float32), output_shape=[2]), "output_shape"),
        (ValueError, lambda: tf.image.grayscale_to_rgb(np.zeros((2, 2), np.float32)), "grayscale_to_rgb", "image"),
        (ValueError, lambda: tf.image.rgb_to_grayscale(np.zeros((3,), np.float32)), "rgb_to_grayscale", "rank"),
        (ValueError, lambda: tf.image.threshold(np.zeros((2, 2, 2), np.float32)), "threshold", "channels"),
        (ValueError, lambda: tf.image.threshold(np.zeros((2, 2, 1), np.float32), "mean"), "threshold", "method"),
        (ValueError, lambda: tf.image.non_max_suppression([[0, 0, 1]], [1], 1), "non_max_suppression", "boxes"),
        (ValueError, lambda: tf.image.non_max_suppression(BOXES, [1, 2], 1), "non_max_suppression", "scores"),
        (ValueError, lambda: tf.image.non_max_suppression(BOXES, SCORES, 1, 1.5), "iou_threshold"),
        (ValueError, lambda: tf.image.non_max_suppression(BOXES, SCORES, -1), "max_output_size"),
        (ValueError, lambda: tf.image.non_max_suppression_with_score(BOXES, SCORES, 1, 0.5, 0, 2), "soft_nms_sigma"),
        (ValueError, lambda: asyncio.run(tf.image.non_max_suppression_async(BOXES, [1.0], 1)), "scores"),
    ]
    for exc, fn, *fragments in cases:
        assert_raises(exc, fn, *fragments)
    x4.dispose()
