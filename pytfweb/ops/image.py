"""tf.image: resizing, cropping, flipping, rotating and projective transforms of NHWC images,
colour conversions, thresholding and non-max suppression, with TF.js 4.22 semantics.

Kernel contract (every backend). Images are [batch, height, width, channels]; every attr is
plain Python and already validated by the ops below.
  ResizeBilinear         inputs images (float32 or int32); attrs {"size": [h, w] (ints >= 1),
                         "align_corners": bool, "half_pixel_centers": bool} (not both true).
                         Output [batch, h, w, channels] float32. Source position of output index
                         y along an axis: ratio * y, or ratio * (y + 0.5) - 0.5 with half pixel
                         centers, ratio = in / out (both minus 1 with align_corners and out > 1);
                         its floor (>= 0) and ceil (< in) are interpolated.
  ResizeNearestNeighbor  the same inputs and attrs; output of the images' dtype, taking index
                         floor(ratio * y) (round with align_corners; ratio * (y + 0.5) with half
                         pixel centers), clamped into [0, in).
  ResizeBilinearGrad, ResizeNearestNeighborGrad
                         inputs [images, dy] with the forward's attrs; output float32 of the
                         images' shape: the exact adjoint of the forward kernel (every dy value
                         added, times its interpolation weight, to the pixels it was read from).
  CropAndResize          inputs image, boxes [n, 4] float32 (y1, x1, y2, x2 normalised), box_ind
                         [n] int32; attrs {"crop_size": [h, w] (ints >= 1), "method":
                         'bilinear' | 'nearest', "extrapolation_value": float}. Output [n, h, w,
                         channels] float32; a box whose index is outside [0, batch) gives zeros,
                         a sample outside the image (or at a NaN position) extrapolation_value.
  FlipLeftRight          inputs image; output the image reversed along its width.
  RotateWithOffset       inputs image; attrs {"radians": float, "fill_value": [4 floats] (one per
                         channel 0-3; every channel uses the first if there are more than 4),
                         "center": [x, y] fractions of width and height}. Nearest sampling.
  Transform              inputs image, transforms [1 or batch, 8] float32; attrs
                         {"interpolation": 'nearest' | 'bilinear', "fill_mode": 'constant' |
                         'reflect' | 'wrap' | 'nearest', "fill_value": float, "output_shape":
                         [h, w]}. Output [batch, h, w, channels] of the image's dtype.
  NonMaxSuppressionV3/V4/V5
                         inputs boxes [n, 4] float32, scores [n] float32; attrs
                         {"max_output_size": int (<= n), "iou_threshold", "score_threshold"}
                         (+ "pad_to_max_output_size" for V4, "soft_nms_sigma" for V5). Outputs
                         V3: selected indices int32; V4: [indices, valid count (scalar int32)];
                         V5: [indices, scores float32]. Their output size depends on the data:
                         every backend reads the values back and runs kernels/nms.py's
                         non_max_suppression_impl (pure Python), as TF.js does on webgl.
"""
import math

from typing import Dict, Optional, Sequence, Union

from ..core.types import TensorLike
from ..core.engine import ENGINE, op
from ..kernels.nms import non_max_suppression_impl
from ..core.limits import check_elements
from ..core.tensor import Tensor
from . import elementwise as ew
from .creation import cast, convert_to_tensor, range as _range, scalar, tensor, tensor1d, zeros
from .matmul import mat_mul
from .nn import one_hot
from .reduction import arg_max, max as reduce_max, sum as reduce_sum
from .shape import int_list, is_int, reshape, split, stack, tile

# tf.image is a namespace (tf.image.resize_bilinear(...)): its public names, as TF.js's (the API
# reference lists these).
__all__ = ["crop_and_resize", "flip_left_right", "grayscale_to_rgb", "non_max_suppression", "non_max_suppression_async",
           "non_max_suppression_padded", "non_max_suppression_padded_async", "non_max_suppression_with_score",
           "non_max_suppression_with_score_async", "resize_bilinear", "resize_nearest_neighbor", "rgb_to_grayscale",
           "rotate_with_offset", "threshold", "transform"]


# --- argument checks -------------------------------------------------------------------------

def _image(x, arg, name, ranks, dtype=None):
    """x as a tensor of one of `ranks`; ValueError naming op and argument otherwise."""
    t = convert_to_tensor(x, arg, name, dtype)
    if t.rank not in ranks:
        want = " or ".join(str(r) for r in ranks)
        raise ValueError(f"{name}: argument '{arg}' must be of rank {want}, got rank {t.rank} "
                         f"(shape {list(t.shape)})")
    return t


def _numeric(t, arg, name):
    if t.dtype not in ("float32", "int32"):
        raise TypeError(f"{name}: argument '{arg}' must be float32 or int32, got {t.dtype}")


def _flag(v, arg, name):
    if not isinstance(v, bool):
        raise TypeError(f"{name}: argument '{arg}' must be a bool, got {type(v).__name__}")
    return v


def _number(v, arg, name):
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise TypeError(f"{name}: argument '{arg}' must be a number, got {type(v).__name__}")
    return float(v)


def _size2(v, arg, name, least=1):
    """[height, width], ints >= least."""
    size = int_list(v, name, arg)
    if len(size) != 2:
        raise ValueError(f"{name}: argument '{arg}' must be [height, width], got {size}")
    if min(size) < least:
        what = "positive" if least == 1 else "non-negative"
        raise ValueError(f"{name}: argument '{arg}' must hold {what} ints, got {size}")
    return size


def _float_image(x, arg, name, ranks):
    """As TF.js's convertToTensor(x, arg, name, 'float32'): values become float32, a tensor of
    another dtype is refused."""
    if isinstance(x, Tensor) and x.dtype != "float32":
        raise TypeError(f"{name}: argument '{arg}' must be a float32 tensor, got a {x.dtype} tensor")
    return _image(x, arg, name, ranks, "float32")


def _choice(v, arg, name, options):
    if v not in options:
        raise ValueError(f"{name}: argument '{arg}' must be one of {', '.join(map(repr, options))}, got {v!r}")
    return v


def _as_batch(images):
    """(4D images, whether a rank-3 input was given a batch axis)."""
    if images.rank == 3:
        return reshape(images, (1,) + images.shape), True
    return images, False


# --- resizing --------------------------------------------------------------------------------

def _resize(kernel, name, images, size, align_corners, half_pixel_centers):
    images = _image(images, "images", name, (3, 4))
    _numeric(images, "images", name)
    size = _size2(size, "size", name, least=0)   # as TF.js, a size of 0 gives an empty result
    _flag(align_corners, "align_corners", name)
    _flag(half_pixel_centers, "half_pixel_centers", name)
    if align_corners and half_pixel_centers:
        raise ValueError(f"{name}: arguments 'align_corners' and 'half_pixel_centers' cannot both be True")
    if 0 in images.shape[-3:-1]:
        raise ValueError(f"{name}: argument 'images' has no pixels to resize (shape {list(images.shape)})")
    check_elements(images.shape[:-3] + tuple(size) + images.shape[-1:], f"{name}: argument 'size'")
    if 0 in size:   # nothing to compute
        return zeros(images.shape[:-3] + tuple(size) + images.shape[-1:],
                     "float32" if kernel == "ResizeBilinear" else images.dtype)
    batch, squeeze = _as_batch(images)
    out = ENGINE.run_kernel(kernel, [batch], {"size": size, "align_corners": align_corners,
                                              "half_pixel_centers": half_pixel_centers})
    return reshape(out, out.shape[1:]) if squeeze else out


@op
def resize_bilinear(images: TensorLike, size: Sequence[int], align_corners: bool = False,
                    half_pixel_centers: bool = False) -> Tensor:
    """Resize images by bilinear interpolation.

    Args:
        images: [batch, height, width, channels] (or without the batch axis).
        size: [new_height, new_width].
        align_corners: align the corner pixels of input and output.
        half_pixel_centers: sample at pixel centres (TensorFlow 2's resize).

    Returns:
        A float32 Tensor [batch, new_height, new_width, channels].

    Example:
        >>> image = tf.tensor([0, 10, 20, 30], [1, 2, 2, 1])
        >>> tf.image.resize_bilinear(image, [3, 3], align_corners=True).as1d().print()
        Tensor
            [0, 5, 10, 10, 15, 20, 20, 25, 30]
    """
    return _resize("ResizeBilinear", "resize_bilinear", images, size, align_corners, half_pixel_centers)


@op
def resize_nearest_neighbor(images: TensorLike, size: Sequence[int], align_corners: bool = False,
                            half_pixel_centers: bool = False) -> Tensor:
    """Resize images taking the nearest pixel; the images' dtype is kept.

    Args:
        images: [batch, height, width, channels] (or without the batch axis).
        size: [new_height, new_width].
        align_corners: align the corner pixels of input and output.
        half_pixel_centers: sample at pixel centres.

    Returns:
        A Tensor [batch, new_height, new_width, channels].

    Example:
        >>> image = tf.tensor([1, 2, 3, 4], [1, 2, 2, 1])
        >>> tf.image.resize_nearest_neighbor(image, [4, 4]).as1d().print()
        Tensor
            [1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4, 3, 3, 4, 4]
    """
    return _resize("ResizeNearestNeighbor", "resize_nearest_neighbor", images, size, align_corners,
                   half_pixel_centers)


# --- crop, flip, rotate, transform -------------------------------------------------------------

@op
def crop_and_resize(image: TensorLike, boxes: TensorLike, box_ind: TensorLike, crop_size: Sequence[int],
                    method: str = "bilinear", extrapolation_value: float = 0) -> Tensor:
    """Crops of images, each resampled to one size.

    Args:
        image: [batch, height, width, channels].
        boxes: [num_boxes, 4], each [y1, x1, y2, x2] in fractions of height and width.
        box_ind: int32 [num_boxes]: the image each box is taken from.
        crop_size: [crop_height, crop_width].
        method: 'bilinear' or 'nearest'.
        extrapolation_value: the value of samples outside the image.

    Returns:
        A float32 Tensor [num_boxes, crop_height, crop_width, channels].

    Example:
        >>> image = tf.range(16).reshape([1, 4, 4, 1])
        >>> boxes = tf.tensor([[0, 0, 1, 1]])
        >>> tf.image.crop_and_resize(image, boxes, tf.tensor([0], dtype="int32"), [2, 2]).as1d().print()
        Tensor
            [0, 3, 12, 15]
    """
    name = "crop_and_resize"
    image = _image(image, "image", name, (4,))
    boxes = convert_to_tensor(boxes, "boxes", name, "float32")
    box_ind = convert_to_tensor(box_ind, "box_ind", name, "int32")
    n = boxes.shape[0] if boxes.rank else 0
    if boxes.rank != 2 or boxes.shape[1] != 4:
        raise ValueError(f"{name}: argument 'boxes' must have shape [num_boxes, 4], got {list(boxes.shape)}")
    if boxes.dtype != "float32":
        raise TypeError(f"{name}: argument 'boxes' must be float32, got {boxes.dtype}")
    if box_ind.rank != 1 or box_ind.shape[0] != n:
        raise ValueError(f"{name}: argument 'box_ind' must have shape [{n}] (one index per box), "
                         f"got {list(box_ind.shape)}")
    if box_ind.dtype != "int32":
        raise TypeError(f"{name}: argument 'box_ind' must be int32, got {box_ind.dtype}")
    attrs = {"crop_size": _size2(crop_size, "crop_size", name),
             "method": _choice(method, "method", name, ("bilinear", "nearest")),
             "extrapolation_value": _number(extrapolation_value, "extrapolation_value", name)}
    check_elements([n] + attrs["crop_size"] + [image.shape[3]], f"{name}: argument 'crop_size'")
    return ENGINE.run_kernel("CropAndResize", [image, boxes, box_ind], attrs)


@op
def flip_left_right(image: TensorLike) -> Tensor:
    """Mirror images along their width.

    Args:
        image: [batch, height, width, channels].

    Returns:
        A float32 Tensor of image's shape.

    Example:
        >>> tf.image.flip_left_right(tf.tensor([1, 2, 3, 4], [1, 2, 2, 1])).as1d().print()
        Tensor
            [2, 1, 4, 3]
    """
    image = _float_image(image, "image", "flip_left_right", (4,))
    return ENGINE.run_kernel("FlipLeftRight", [image])


def _fill4(fill_value, channels, name):
    """fill_value as one value per channel 0-3: TF.js fills channel 3 (alpha) with 255 when given
    [r, g, b]."""
    if isinstance(fill_value, (list, tuple)):
        if len(fill_value) != 3:
            raise ValueError(f"{name}: argument 'fill_value' must be a number or [r, g, b], got {list(fill_value)}")
        if channels > 4:
            raise ValueError(f"{name}: an [r, g, b] 'fill_value' needs an image of at most 4 channels, "
                             f"got {channels}")
        return [_number(v, "fill_value", name) for v in fill_value] + [255.0]
    return [_number(fill_value, "fill_value", name)] * 4


@op
def rotate_with_offset(image: TensorLike, radians: float, fill_value: Union[float, Sequence[float]] = 0,
                       center: Union[float, Sequence[float]] = 0.5) -> Tensor:
    """Rotate images around a centre; uncovered pixels get fill_value.

    Args:
        image: [batch, height, width, channels].
        radians: the rotation angle.
        fill_value: the value of uncovered pixels (a number, or [r, g, b]).
        center: the centre, a fraction of width and height or [x, y].

    Returns:
        A float32 Tensor of image's shape.

    Example:
        >>> image = tf.tensor([1, 2, 3, 4], [1, 2, 2, 1])
        >>> tf.image.rotate_with_offset(image, 3.141592653589793).as1d().print()
        Tensor
            [0, 0, 0, 4]
    """
    name = "rotate_with_offset"
    image = _float_image(image, "image", name, (4,))
    if isinstance(center, (list, tuple)):
        if len(center) != 2:
            raise ValueError(f"{name}: argument 'center' must be a number or [x, y], got {list(center)}")
        center = [_number(c, "center", name) for c in center]
    else:
        center = [_number(center, "center", name)] * 2
    attrs = {"radians": _number(radians, "radians", name), "fill_value": _fill4(fill_value, image.shape[3], name),
             "center": center}
    return ENGINE.run_kernel("RotateWithOffset", [image], attrs)


@op
def transform(image: TensorLike, transforms: TensorLike, interpolation: str = "nearest", fill_mode: str = "constant",
              fill_value: float = 0, output_shape: Optional[Sequence[int]] = None) -> Tensor:
    """Projective transforms: each output pixel (x, y) reads image at ((a0 x + a1 y + a2) / k,
    (b0 x + b1 y + b2) / k), k = c0 x + c1 y + 1.

    Args:
        image: [batch, height, width, channels], float32.
        transforms: rows [a0, a1, a2, b0, b1, b2, c0, c1] (one row, or one per image).
        interpolation: 'nearest' or 'bilinear'.
        fill_mode: how points outside the image are filled: 'constant', 'reflect', 'wrap' or 'nearest'.
        fill_value: the value for fill_mode 'constant'.
        output_shape: [height, width] of the output (None: the image's).

    Returns:
        A float32 Tensor.

    Example:
        >>> image = tf.tensor([1, 2, 3, 4], [1, 2, 2, 1])
        >>> shift_left = tf.tensor([[1, 0, 1, 0, 1, 0, 0, 0]])   # reads x + 1
        >>> tf.image.transform(image, shift_left).as1d().print()
        Tensor
            [2, 0, 4, 0]
    """
    name = "transform"
    image = _float_image(image, "image", name, (4,))
    transforms = convert_to_tensor(transforms, "transforms", name, "float32")
    if transforms.dtype != "float32":
        raise TypeError(f"{name}: argument 'transforms' must be float32, got {transforms.dtype}")
    if transforms.rank != 2 or transforms.shape[1] != 8 or transforms.shape[0] not in (1, image.shape[0]):
        raise ValueError(f"{name}: argument 'transforms' must have shape [1, 8] or [{image.shape[0]}, 8] "
                         f"(batch x 8), got {list(transforms.shape)}")
    shape = list(image.shape[1:3]) if output_shape is None else _size2(output_shape, "output_shape", name)
    check_elements([image.shape[0]] + shape + [image.shape[3]], f"{name}: argument 'output_shape'")
    attrs = {"interpolation": _choice(interpolation, "interpolation", name, ("nearest", "bilinear")),
             "fill_mode": _choice(fill_mode, "fill_mode", name, ("constant", "reflect", "wrap", "nearest")),
             "fill_value": _number(fill_value, "fill_value", name), "output_shape": shape}
    return ENGINE.run_kernel("Transform", [image, transforms], attrs)


# --- colour ------------------------------------------------------------------------------------

_LUMA = (0.2989, 0.5870, 0.1140)   # CCIR 601 luma weights, as TF.js uses them


def _last_axis(image, name, size, what):
    image = convert_to_tensor(image, "image", name)
    if image.rank < 2:
        raise ValueError(f"{name}: argument 'image' must have rank >= 2, got rank {image.rank}")
    if image.shape[-1] != size:
        raise ValueError(f"{name}: the last axis of argument 'image' ({what}) must have size {size}, "
                         f"got shape {list(image.shape)}")
    return image


@op
def grayscale_to_rgb(image: TensorLike) -> Tensor:
    """Grayscale images to RGB: [..., 1] to [..., 3], the value repeated.

    Args:
        image: a tensor whose last axis has length 1.

    Returns:
        A Tensor [..., 3] of image's dtype.

    Example:
        >>> tf.image.grayscale_to_rgb(tf.tensor([[[5]]])).print()
        Tensor
            [[[5, 5, 5]]]
    """
    image = _last_axis(image, "grayscale_to_rgb", 1, "a grayscale channel")
    return tile(image, [1] * (image.rank - 1) + [3])


@op
def rgb_to_grayscale(image: TensorLike) -> Tensor:
    """RGB images to grayscale: [..., 3] to [..., 1] by the luma weights 0.2989, 0.5870, 0.1140;
    the dtype is kept (int32 truncated, as TF.js casts back).

    Args:
        image: a tensor whose last axis has length 3 (rank at most 6).

    Returns:
        A Tensor [..., 1] of image's dtype.

    Example:
        >>> tf.image.rgb_to_grayscale(tf.tensor([[[100, 100, 100]]], dtype="int32")).print()
        Tensor
            [[[99]]]
    """
    image = _last_axis(image, "rgb_to_grayscale", 3, "the RGB channels")
    if image.rank > 6:
        raise ValueError(f"rgb_to_grayscale: argument 'image' must have rank <= 6, got rank {image.rank}")
    gray = reduce_sum(ew.mul(cast(image, "float32"), tensor1d(list(_LUMA), dtype="float32")), -1, keep_dims=True)
    return cast(gray, image.dtype)


@op
def threshold(image: TensorLike, method: str = "binary", inverted: bool = False, thresh_value: float = 0.5) -> Tensor:
    """Binarize an image: 255 where it (its luma, for RGB) is above thresh_value * 255, or above
    Otsu's threshold with method 'otsu', 0 elsewhere.

    Args:
        image: [height, width, 1 or 3].
        method: 'binary' or 'otsu'.
        inverted: 255 at or below the threshold instead.
        thresh_value: the threshold as a fraction of 255 ('binary').

    Returns:
        An int32 Tensor [height, width, 1].

    Example:
        >>> tf.image.threshold(tf.tensor([[[10], [200]]], dtype="int32")).as1d().print()
        Tensor
            [0, 255]
    """
    name = "threshold"
    image = _image(image, "image", name, (3,))
    if image.shape[2] not in (1, 3):
        raise ValueError(f"{name}: argument 'image' must have 1 or 3 channels, got shape {list(image.shape)}")
    _numeric(image, "image", name)
    _choice(method, "method", name, ("binary", "otsu"))
    _flag(inverted, "inverted", name)
    value = _number(thresh_value, "thresh_value", name)
    if image.shape[2] == 3:
        r, g, b = split(image, [1, 1, 1], -1)
        gray = ew.add(ew.add(ew.mul(r, _LUMA[0]), ew.mul(g, _LUMA[1])), ew.mul(b, _LUMA[2]))
    else:
        gray = image
    if method == "otsu":
        level = _otsu(gray, image.shape[0] * image.shape[1])
    else:
        level = ew.mul(tensor1d([value], dtype="float32"), 255)
    above = ew.less_equal(gray, level) if inverted else ew.greater(gray, level)
    return cast(ew.mul(above, 255), "int32")


_LEVELS = 256


def _otsu(gray, total):
    """Otsu's threshold of the histogram of round(gray) over [0, 256), as TF.js's loop over the
    thresholds 0..254 computes it (class weights, means and between-class variance by the same
    float32 operations), but every threshold at once: the first class's counts and moments are
    cumulative sums, a product with a triangular matrix of ones. The first best threshold wins;
    -1 when no split has a variance above 0 (TF.js's starting value)."""
    levels = _range(0, _LEVELS)
    pixels = reshape(cast(ew.round(cast(gray, "float32")), "int32"), [-1])
    hist = reduce_sum(one_hot(pixels, _LEVELS, dtype="float32"), 0)    # values outside [0, 256) drop out
    rows = stack([hist, ew.mul(hist, levels)])                        # [2, 256]: counts, moments
    upto = tensor([[1.0 if i <= t else 0.0 for t in range(_LEVELS - 1)] for i in range(_LEVELS)], dtype="float32")
    count_first, moment_first = (reshape(t, [-1]) for t in split(mat_mul(rows, upto), 2, 0))
    count_second = ew.sub(reduce_sum(hist), count_first)
    moment_second = ew.sub(reduce_sum(ew.mul(hist, levels)), moment_first)
    gap = ew.sub(ew.div(moment_first, count_first), ew.div(moment_second, count_second))
    weights = ew.mul(ew.div(count_first, total), ew.div(count_second, total))
    variance = ew.mul(ew.mul(weights, gap), gap)
    variance = ew.where(ew.equal(variance, variance), variance, 0.0)   # NaN (an empty class) never wins
    best = ew.where(ew.greater(reduce_max(variance), 0.0), cast(arg_max(variance), "float32"), -1.0)
    return reshape(best, [1])


# --- non-max suppression -----------------------------------------------------------------------

def _nms_inputs(name, boxes, scores):
    """boxes and scores as float32 tensors; one made here is disposed if the other fails (the
    async ops run outside any scope)."""
    b = convert_to_tensor(boxes, "boxes", name, "float32")
    try:
        return b, convert_to_tensor(scores, "scores", name, "float32")
    except Exception:
        if b is not boxes:
            b.dispose()
        raise


def _nms_attrs(name, boxes, scores, max_output_size, iou_threshold, score_threshold, soft_nms_sigma=0.0):
    """The kernel's attrs, checked as TF.js's nonMaxSuppSanityCheck does; max_output_size is
    capped at the number of boxes."""
    if boxes.rank != 2 or boxes.shape[1] != 4:
        raise ValueError(f"{name}: argument 'boxes' must have shape [num_boxes, 4], got {list(boxes.shape)}")
    n = boxes.shape[0]
    if scores.rank != 1 or scores.shape[0] != n:
        raise ValueError(f"{name}: argument 'scores' must have shape [{n}] (one score per box), "
                         f"got {list(scores.shape)}")
    for arg, t in (("boxes", boxes), ("scores", scores)):
        if t.dtype != "float32":
            raise TypeError(f"{name}: argument '{arg}' must be float32, got {t.dtype}")
    if not is_int(max_output_size):
        raise TypeError(f"{name}: argument 'max_output_size' must be an int, got {type(max_output_size).__name__}")
    if max_output_size.__index__() < 0:
        raise ValueError(f"{name}: argument 'max_output_size' must be non-negative, got {max_output_size}")
    iou = 0.5 if iou_threshold is None else _number(iou_threshold, "iou_threshold", name)
    score = -math.inf if score_threshold is None else _number(score_threshold, "score_threshold", name)
    sigma = 0.0 if soft_nms_sigma is None else _number(soft_nms_sigma, "soft_nms_sigma", name)
    if not 0 <= iou <= 1:
        raise ValueError(f"{name}: argument 'iou_threshold' must be in [0, 1], got {iou}")
    if not 0 <= sigma <= 1:
        raise ValueError(f"{name}: argument 'soft_nms_sigma' must be in [0, 1], got {sigma}")
    return {"max_output_size": min(max_output_size.__index__(), n), "iou_threshold": iou,
            "score_threshold": score, "soft_nms_sigma": sigma}


# Which attrs each kernel takes (V4 adds pad_to_max_output_size).
_NMS_ATTRS = {"NonMaxSuppressionV3": ("max_output_size", "iou_threshold", "score_threshold"),
              "NonMaxSuppressionV4": ("max_output_size", "iou_threshold", "score_threshold"),
              "NonMaxSuppressionV5": ("max_output_size", "iou_threshold", "score_threshold", "soft_nms_sigma")}


def _nms(kernel, name, boxes, scores, max_output_size, iou_threshold, score_threshold, soft_nms_sigma=0.0,
         **extra):
    boxes, scores = _nms_inputs(name, boxes, scores)
    attrs = _nms_attrs(name, boxes, scores, max_output_size, iou_threshold, score_threshold, soft_nms_sigma)
    attrs = {k: attrs[k] for k in _NMS_ATTRS[kernel]}
    attrs.update(extra)
    return ENGINE.run_kernel(kernel, [boxes, scores], attrs)


@op
def non_max_suppression(boxes: TensorLike, scores: TensorLike, max_output_size: int, iou_threshold: float = 0.5,
                        score_threshold: float = -math.inf) -> Tensor:
    """Non-max suppression: the boxes to keep, best score first, skipping any that overlaps a kept
    one with IoU >= iou_threshold and those scoring at or below score_threshold.

    Args:
        boxes: [num_boxes, 4], each [y1, x1, y2, x2].
        scores: [num_boxes].
        max_output_size: the most boxes to keep.
        iou_threshold: the overlap above which a box is dropped.
        score_threshold: scores at or below this are dropped.

    Returns:
        An int32 Tensor of the kept boxes' indices.

    Example:
        >>> boxes = tf.tensor([[0, 0, 1, 1], [0, 0, 0.9, 0.9], [0, 2, 1, 3]])
        >>> tf.image.non_max_suppression(boxes, tf.tensor([0.9, 0.8, 0.7]), 3).print()
        Tensor
            [0, 2]
    """
    return _nms("NonMaxSuppressionV3", "non_max_suppression", boxes, scores, max_output_size, iou_threshold,
                score_threshold)


@op
def non_max_suppression_with_score(boxes: TensorLike, scores: TensorLike, max_output_size: int,
                                   iou_threshold: float = 0.5, score_threshold: float = -math.inf,
                                   soft_nms_sigma: float = 0.0) -> Dict[str, Tensor]:
    """Non-max suppression that also gives the kept scores; with soft_nms_sigma > 0, overlapping
    boxes lose score (Soft-NMS) rather than being dropped.

    Args:
        boxes: [num_boxes, 4], each [y1, x1, y2, x2].
        scores: [num_boxes].
        max_output_size: the most boxes to keep.
        iou_threshold: the overlap at or above which a box is dropped.
        score_threshold: scores at or below this are dropped.
        soft_nms_sigma: the Soft-NMS Gaussian's sigma (0: plain suppression).

    Returns:
        {'selected_indices': int32 Tensor, 'selected_scores': float32 Tensor}.

    Example:
        >>> boxes = tf.tensor([[0, 0, 1, 1], [0, 2, 1, 3]])
        >>> out = tf.image.non_max_suppression_with_score(boxes, tf.tensor([0.9, 0.7]), 2)
        >>> out["selected_scores"].print()
        Tensor
            [0.9, 0.7]
    """
    indices, kept = _nms("NonMaxSuppressionV5", "non_max_suppression_with_score", boxes, scores, max_output_size,
                         iou_threshold, score_threshold, soft_nms_sigma)
    return {"selected_indices": indices, "selected_scores": kept}


@op
def non_max_suppression_padded(boxes: TensorLike, scores: TensorLike, max_output_size: int, iou_threshold: float = 0.5,
                               score_threshold: float = -math.inf,
                               pad_to_max_output_size: bool = False) -> Dict[str, Tensor]:
    """Non-max suppression giving a fixed-size result when asked.

    Args:
        boxes: [num_boxes, 4], each [y1, x1, y2, x2].
        scores: [num_boxes].
        max_output_size: the most boxes to keep (at most num_boxes, as TF.js).
        iou_threshold: the overlap at or above which a box is dropped.
        score_threshold: scores at or below this are dropped.
        pad_to_max_output_size: pad the indices with zeros to max_output_size.

    Returns:
        {'selected_indices': int32 Tensor, 'valid_outputs': int32 scalar, how many are real}.

    Example:
        >>> boxes = tf.tensor([[0, 0, 1, 1], [0, 0, 0.9, 0.9], [0, 2, 1, 3]])
        >>> out = tf.image.non_max_suppression_padded(boxes, tf.tensor([0.9, 0.8, 0.7]), 3, pad_to_max_output_size=True)
        >>> out["selected_indices"].array_sync(), out["valid_outputs"].array_sync()
        ([0, 2, 0], 2)
    """
    name = "non_max_suppression_padded"
    _flag(pad_to_max_output_size, "pad_to_max_output_size", name)
    indices, valid = _nms("NonMaxSuppressionV4", name, boxes, scores, max_output_size, iou_threshold,
                          score_threshold, pad_to_max_output_size=pad_to_max_output_size)
    return {"selected_indices": indices, "valid_outputs": valid}


async def _nms_async(name, boxes, scores, max_output_size, iou_threshold, score_threshold, soft_nms_sigma=0.0,
                     pad=False):
    """TF.js's *Async ops: read boxes and scores without blocking, then select here (kernels are
    synchronous). Tensors made from Python values are disposed before returning."""
    b, s = _nms_inputs(name, boxes, scores)
    try:
        attrs = _nms_attrs(name, b, s, max_output_size, iou_threshold, score_threshold, soft_nms_sigma)
        box_values, score_values = await b.data(), await s.data()
    finally:
        for t, given in ((b, boxes), (s, scores)):
            if t is not given:
                t.dispose()
    return non_max_suppression_impl(box_values, score_values, attrs["max_output_size"], attrs["iou_threshold"],
                                    attrs["score_threshold"], attrs["soft_nms_sigma"], pad)


async def non_max_suppression_async(boxes: TensorLike, scores: TensorLike, max_output_size: int,
                                    iou_threshold: float = 0.5, score_threshold: float = -math.inf) -> Tensor:
    """tf.image.non_max_suppression reading boxes and scores without blocking (awaited).

    Args:
        boxes: [num_boxes, 4], each [y1, x1, y2, x2].
        scores: [num_boxes].
        max_output_size: the most boxes to keep.
        iou_threshold: the overlap at or above which a box is dropped.
        score_threshold: scores at or below this are dropped.

    Returns:
        An int32 Tensor of the kept boxes' indices.

    Example:
        >>> import asyncio
        >>> boxes = tf.tensor([[0, 0, 1, 1], [0, 0, 0.9, 0.9]])
        >>> asyncio.run(tf.image.non_max_suppression_async(boxes, tf.tensor([0.8, 0.9]), 2)).print()
        Tensor
            [1]
    """
    indices, _, _ = await _nms_async("non_max_suppression_async", boxes, scores, max_output_size, iou_threshold,
                                     score_threshold)
    return tensor1d(indices, dtype="int32")


async def non_max_suppression_with_score_async(boxes: TensorLike, scores: TensorLike, max_output_size: int,
                                               iou_threshold: float = 0.5, score_threshold: float = -math.inf,
                                               soft_nms_sigma: float = 0.0) -> Dict[str, Tensor]:
    """tf.image.non_max_suppression_with_score reading boxes and scores without blocking (awaited).

    Args:
        boxes: [num_boxes, 4], each [y1, x1, y2, x2].
        scores: [num_boxes].
        max_output_size: the most boxes to keep.
        iou_threshold: the overlap at or above which a box is dropped.
        score_threshold: scores at or below this are dropped.
        soft_nms_sigma: the Soft-NMS Gaussian's sigma (0: plain suppression).

    Returns:
        {'selected_indices': int32 Tensor, 'selected_scores': float32 Tensor}.

    Example:
        >>> import asyncio
        >>> boxes, scores = tf.tensor([[0, 0, 1, 1]]), tf.tensor([0.5])
        >>> out = asyncio.run(tf.image.non_max_suppression_with_score_async(boxes, scores, 1))
        >>> out["selected_indices"].array_sync()
        [0]
    """
    indices, kept, _ = await _nms_async("non_max_suppression_with_score_async", boxes, scores, max_output_size,
                                        iou_threshold, score_threshold, soft_nms_sigma)
    return {"selected_indices": tensor1d(indices, dtype="int32"), "selected_scores": tensor1d(kept, dtype="float32")}


async def non_max_suppression_padded_async(boxes: TensorLike, scores: TensorLike, max_output_size: int,
                                           iou_threshold: float = 0.5, score_threshold: float = -math.inf,
                                           pad_to_max_output_size: bool = False) -> Dict[str, Tensor]:
    """tf.image.non_max_suppression_padded reading boxes and scores without blocking (awaited).

    Args:
        boxes: [num_boxes, 4], each [y1, x1, y2, x2].
        scores: [num_boxes].
        max_output_size: the most boxes to keep.
        iou_threshold: the overlap at or above which a box is dropped.
        score_threshold: scores at or below this are dropped.
        pad_to_max_output_size: pad the indices with zeros to max_output_size.

    Returns:
        {'selected_indices': int32 Tensor, 'valid_outputs': int32 scalar}.

    Example:
        >>> import asyncio
        >>> out = asyncio.run(tf.image.non_max_suppression_padded_async(tf.tensor([[0, 0, 1, 1]]), tf.tensor([0.5]), 1))
        >>> out["valid_outputs"].array_sync()
        1
    """
    name = "non_max_suppression_padded_async"
    _flag(pad_to_max_output_size, "pad_to_max_output_size", name)
    indices, _, valid = await _nms_async(name, boxes, scores, max_output_size, iou_threshold, score_threshold,
                                         pad=pad_to_max_output_size)
    return {"selected_indices": tensor1d(indices, dtype="int32"), "valid_outputs": scalar(valid, "int32")}
