"""numpy kernels: image (contracts in ops/image.py). Positions are computed in float64, as
TF.js's cpu backend computes them in JavaScript numbers, so the same pixels are chosen."""
import numpy as np

from ....kernels import register_kernel
from ....kernels.nms import non_max_suppression_impl


# --- resizing: per-axis source positions ------------------------------------------------------

def _ratio(in_size, out_size, align_corners):
    if align_corners and out_size > 1:
        return (in_size - 1) / (out_size - 1)
    return in_size / out_size


def _bilinear_axis(in_size, out_size, attrs):
    """(lower index, upper index, weight of the upper) of each output index along one axis."""
    ratio = _ratio(in_size, out_size, attrs["align_corners"])
    y = np.arange(out_size, dtype=np.float64)
    frac = ratio * (y + 0.5) - 0.5 if attrs["half_pixel_centers"] else ratio * y
    lo = np.maximum(0, np.floor(frac))
    hi = np.minimum(in_size - 1, np.ceil(frac))
    return lo.astype(np.int64), hi.astype(np.int64), frac - lo


def _nearest_axis(in_size, out_size, attrs):
    """The source index of each output index along one axis."""
    ratio = _ratio(in_size, out_size, attrs["align_corners"])
    y = np.arange(out_size, dtype=np.float64)
    frac = ratio * (y + 0.5) if attrs["half_pixel_centers"] else ratio * y
    # Math.round is floor(v + 0.5), not Python's round-half-to-even
    index = np.floor(frac + 0.5) if attrs["align_corners"] else np.floor(frac)
    return np.clip(index, 0, in_size - 1).astype(np.int64)


def _axes(images, size, axis_fn, attrs):
    _, h, w, _ = images.shape
    return axis_fn(h, size[0], attrs), axis_fn(w, size[1], attrs)


@register_kernel("ResizeBilinear", "cpu")
def resize_bilinear(backend, inputs, attrs):
    (images,) = inputs
    x = backend.values(images).astype(np.float64)
    (r0, r1, fr), (c0, c1, fc) = _axes(images, attrs["size"], _bilinear_axis, attrs)
    fr, fc = fr[None, :, None, None], fc[None, None, :, None]
    top, bottom = x[:, r0], x[:, r1]
    with np.errstate(all="ignore"):   # inf - inf is a result here, not an error
        top = top[:, :, c0] + (top[:, :, c1] - top[:, :, c0]) * fc
        bottom = bottom[:, :, c0] + (bottom[:, :, c1] - bottom[:, :, c0]) * fc
        out = top + (bottom - top) * fr
    return backend.output(out, "float32")


@register_kernel("ResizeNearestNeighbor", "cpu")
def resize_nearest_neighbor(backend, inputs, attrs):
    (images,) = inputs
    rows, cols = _axes(images, attrs["size"], _nearest_axis, attrs)
    return backend.output(backend.values(images)[:, rows][:, :, cols], images.dtype)


def _scatter(dy, axis, targets, in_size):
    """The adjoint of reading along `axis`: each slice of dy added, times its weight, to the
    index it was read from; targets is a list of (indices, weights or None)."""
    shape = list(dy.shape)
    shape[axis] = in_size
    out = np.zeros(shape, np.float64)
    moved = np.moveaxis(out, axis, 0)           # a view: adding into it fills out
    for index, weight in targets:
        values = np.moveaxis(dy, axis, 0)
        if weight is not None:
            values = values * weight.reshape((-1,) + (1,) * (dy.ndim - 1))
        np.add.at(moved, index, values)
    return out


def _grad_kernel(axis_fn, bilinear):
    def kernel(backend, inputs, attrs):
        images, dy = inputs
        _, h, w, _ = images.shape
        rows, cols = _axes(images, dy.shape[1:3], axis_fn, attrs)
        g = backend.values(dy).astype(np.float64)
        with np.errstate(all="ignore"):
            for axis, ax, size in ((1, rows, h), (2, cols, w)):
                targets = [(ax[0], 1 - ax[2]), (ax[1], ax[2])] if bilinear else [(ax, None)]
                g = _scatter(g, axis, targets, size)
        return backend.output(g, "float32")
    return kernel


register_kernel("ResizeBilinearGrad", "cpu", _grad_kernel(_bilinear_axis, bilinear=True))
register_kernel("ResizeNearestNeighborGrad", "cpu", _grad_kernel(_nearest_axis, bilinear=False))


# --- crop, flip, rotate, transform -------------------------------------------------------------

def _crop_axis(lo, hi, crop, size):
    """Source positions of a crop's rows (or columns) between box edges lo and hi."""
    if crop > 1:
        return lo * (size - 1) + np.arange(crop) * ((hi - lo) * (size - 1) / (crop - 1))
    return np.array([0.5 * (lo + hi) * (size - 1)])


@register_kernel("CropAndResize", "cpu")
def crop_and_resize(backend, inputs, attrs):
    image, boxes, box_ind = inputs
    x = backend.values(image).astype(np.float64)
    batch, h, w, channels = image.shape
    crop_h, crop_w = attrs["crop_size"]
    out = np.zeros((boxes.shape[0], crop_h, crop_w, channels))
    for b, ((y1, x1, y2, x2), k) in enumerate(zip(backend.values(boxes).astype(np.float64),
                                                  backend.values(box_ind))):
        if not 0 <= k < batch:
            continue                            # zeros, as TF.js leaves them
        ys, xs = _crop_axis(y1, y2, crop_h, h), _crop_axis(x1, x2, crop_w, w)
        inside = ((ys >= 0) & (ys <= h - 1))[:, None] & ((xs >= 0) & (xs <= w - 1))[None, :]
        ys, xs = np.where(ys >= 0, np.minimum(ys, h - 1), 0), np.where(xs >= 0, np.minimum(xs, w - 1), 0)
        if attrs["method"] == "bilinear":
            top, bottom = np.floor(ys).astype(int), np.ceil(ys).astype(int)
            left, right = np.floor(xs).astype(int), np.ceil(xs).astype(int)
            fy, fx = (ys - top)[:, None, None], (xs - left)[None, :, None]
            img = x[k]
            with np.errstate(all="ignore"):
                upper = img[top][:, left] + (img[top][:, right] - img[top][:, left]) * fx
                lower = img[bottom][:, left] + (img[bottom][:, right] - img[bottom][:, left]) * fx
                crop = upper + (lower - upper) * fy
        else:
            crop = x[k][np.floor(ys + 0.5).astype(int)][:, np.floor(xs + 0.5).astype(int)]
        out[b] = np.where(inside[:, :, None], crop, attrs["extrapolation_value"])
    return backend.output(out, "float32")


@register_kernel("FlipLeftRight", "cpu")
def flip_left_right(backend, inputs, attrs):
    (image,) = inputs
    return backend.output(backend.values(image)[:, :, ::-1], image.dtype)


def _pixel_grid(height, width):
    """Row and column numbers of every pixel, [height, width] each, float64."""
    return np.meshgrid(np.arange(height, dtype=np.float64), np.arange(width, dtype=np.float64), indexing="ij")


@register_kernel("RotateWithOffset", "cpu")
def rotate_with_offset(backend, inputs, attrs):
    (image,) = inputs
    x = backend.values(image)
    _, h, w, channels = image.shape
    center_x, center_y = w * attrs["center"][0], h * attrs["center"][1]
    sin, cos = np.sin(attrs["radians"]), np.cos(attrs["radians"])
    rows, cols = _pixel_grid(h, w)
    src_x = np.floor((cols - center_x) * cos - (rows - center_y) * sin + center_x + 0.5)
    src_y = np.floor((cols - center_x) * sin + (rows - center_y) * cos + center_y + 0.5)
    inside = (src_x >= 0) & (src_x < w) & (src_y >= 0) & (src_y < h)
    picked = x[:, np.where(inside, src_y, 0).astype(int), np.where(inside, src_x, 0).astype(int)]
    fill4 = attrs["fill_value"]
    fill = np.array([fill4[c] if c < 4 else fill4[0] for c in range(channels)])
    return backend.output(np.where(inside[None, :, :, None], picked, fill), image.dtype)


def _map_coord(c, size, mode):
    """TF.js's mapCoord: a source coordinate brought into [0, size) by fill_mode (constant
    leaves it where it is). A non-finite one becomes -1, before the first pixel, so that it
    reads the fill value (TF.js gives NaN for some modes)."""
    finite = np.isfinite(c)
    return np.where(finite, _map_finite(np.where(finite, c, -1.0), size, mode), -1.0)


def _map_finite(c, size, mode):
    if mode == "constant":
        return c
    if mode != "nearest" and size > 1:
        if mode == "reflect":
            sz2 = 2 * size
            neg = sz2 * np.trunc(-c / sz2) + c
            neg = np.where(neg < -size, neg + sz2, -neg - 1)
            pos = c - sz2 * np.trunc(c / sz2)
            pos = np.where(pos >= size, sz2 - pos - 1, pos)
        else:   # wrap
            sz = size - 1
            neg = c + size * (np.trunc(-c / sz) + 1)
            pos = c - size * np.trunc(c / sz)
        c = np.where(c < 0, neg, np.where(c > size - 1, pos, c))
    elif mode != "nearest":
        c = np.where((c < 0) | (c > size - 1), 0.0, c)
    return np.clip(c, 0, size - 1)


def _read(img, ys, xs, fill):
    """img[ys, xs] (float coordinates holding whole numbers) where inside the image, else fill."""
    h, w = img.shape[:2]
    inside = (ys >= 0) & (ys < h) & (xs >= 0) & (xs < w)
    values = img[np.where(inside, ys, 0).astype(int), np.where(inside, xs, 0).astype(int)]
    return np.where(inside[..., None], values, fill)


@register_kernel("Transform", "cpu")
def transform(backend, inputs, attrs):
    image, transforms = inputs
    x = backend.values(image).astype(np.float64)
    t = backend.values(transforms).astype(np.float64)
    batch, h, w, channels = image.shape
    out_h, out_w = attrs["output_shape"]
    fill, mode = attrs["fill_value"], attrs["fill_mode"]
    rows, cols = _pixel_grid(out_h, out_w)
    out = np.empty((batch, out_h, out_w, channels))
    for b in range(batch):
        a0, a1, a2, b0, b1, b2, c0, c1 = t[b if t.shape[0] > 1 else 0]
        with np.errstate(all="ignore"):
            projection = c0 * cols + c1 * rows + 1
            xs = _map_coord((a0 * cols + a1 * rows + a2) / projection, w, mode)
            ys = _map_coord((b0 * cols + b1 * rows + b2) / projection, h, mode)
            if attrs["interpolation"] == "nearest":
                value = _read(x[b], np.floor(ys + 0.5), np.floor(xs + 0.5), fill)
            else:
                y0, x0 = np.floor(ys), np.floor(xs)
                y1, x1 = y0 + 1, x0 + 1
                wy0, wy1, wx0, wx1 = ((v - u)[..., None] for v, u in ((y1, ys), (ys, y0), (x1, xs), (xs, x0)))
                upper = wx0 * _read(x[b], y0, x0, fill) + wx1 * _read(x[b], y0, x1, fill)
                lower = wx0 * _read(x[b], y1, x0, fill) + wx1 * _read(x[b], y1, x1, fill)
                value = wy0 * upper + wy1 * lower
        out[b] = np.where((projection == 0)[..., None], fill, value)
    return backend.output(out, image.dtype)


# --- non-max suppression: pure Python on the values (shared with webgl) ----------------------------

def _nms_run(backend, inputs, attrs, soft_nms_sigma=0.0, pad=False):
    boxes, scores = (backend.values(t).ravel().tolist() for t in inputs)
    return non_max_suppression_impl(boxes, scores, attrs["max_output_size"], attrs["iou_threshold"],
                                    attrs["score_threshold"], soft_nms_sigma, pad)


@register_kernel("NonMaxSuppressionV3", "cpu")
def non_max_suppression_v3(backend, inputs, attrs):
    indices, _, _ = _nms_run(backend, inputs, attrs)
    return backend.output(np.array(indices, np.int32), "int32")


@register_kernel("NonMaxSuppressionV4", "cpu")
def non_max_suppression_v4(backend, inputs, attrs):
    indices, _, valid = _nms_run(backend, inputs, attrs, pad=attrs["pad_to_max_output_size"])
    return [backend.output(np.array(indices, np.int32), "int32"), backend.output(np.int32(valid), "int32")]


@register_kernel("NonMaxSuppressionV5", "cpu")
def non_max_suppression_v5(backend, inputs, attrs):
    indices, kept, _ = _nms_run(backend, inputs, attrs, soft_nms_sigma=attrs["soft_nms_sigma"])
    return [backend.output(np.array(indices, np.int32), "int32"), backend.output(np.array(kept, np.float32), "float32")]
