"""Preprocessing layers (tfjs-layers layers/preprocessing/): CenterCrop, Resizing,
CategoryEncoding, RandomWidth.

As in TF.js: CenterCrop crops with tf.image.crop_and_resize ('nearest') on a centred box
(a width buffer of 0 becomes 1 when the widths differ, TF.js's quirk) and falls back to a
bilinear resize of the whole image when the target is larger than the input; Resizing's
bilinear / nearest resize uses align_corners = not crop_to_aspect_ratio (so aligned corners by
default); CategoryEncoding casts to int32, checks 0 <= values < num_tokens and counts with
tf.dense_bincount; RandomWidth draws its factor on every call (training or not), with a seed
that counts up by one per call. Output shapes keep the batch axis (TF.js's Resizing /
RandomWidth computeOutputShape drop it).
"""
import math

from .. import ops
from ..ops import image as _image
from .engine import Layer
from ._utils import shape_str

_INTERPOLATIONS = ("bilinear", "nearest")


def _positive_int(value, name, layer):
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"{layer}: '{name}' must be a positive integer, got {value!r}")
    return value


def _interpolation(value):
    value = value or "bilinear"
    if value not in _INTERPOLATIONS:
        raise ValueError(f"Invalid interpolation parameter: {value} is not implemented")
    return value


def _image_input(x, layer):
    if x.rank not in (3, 4):
        raise ValueError(f"Layer {layer.name} expects an image of rank 3 or 4 (channels last), got rank {x.rank} "
                         f"(shape {shape_str(list(x.shape))})")


def _resize(x, size, interpolation, align_corners=False):
    batched = x.rank == 4
    img = x if batched else ops.expand_dims(x, 0)
    fn = _image.resize_bilinear if interpolation == "bilinear" else _image.resize_nearest_neighbor
    if img.dtype != "float32":
        img = ops.cast(img, "float32")
    out = fn(img, size, align_corners)
    return out if batched else ops.squeeze(out, [0])


def _hw_shape(input_shape, height, width):
    shape = list(input_shape)
    if len(shape) < 3:
        raise ValueError(f"expected an image shape of rank 3 or 4, got {shape_str(shape)}")
    shape[-3], shape[-2] = height, width
    return tuple(shape)


class CenterCrop(Layer):
    class_name = "CenterCrop"
    config_keys = ("height", "width")

    def __init__(self, height=None, width=None, **kwargs):
        super().__init__(**kwargs)
        self.height = _positive_int(height, "height", "CenterCrop")
        self.width = _positive_int(width, "width", "CenterCrop")

    def call(self, inputs, training=False):
        x = inputs[0] if isinstance(inputs, (list, tuple)) else inputs
        _image_input(x, self)
        in_h, in_w = x.shape[-3], x.shape[-2]
        h_buf = (in_h - self.height) // 2 if in_h != self.height else 0
        w_buf = 0
        if in_w != self.width:
            w_buf = (in_w - self.width) // 2
            if w_buf == 0:
                w_buf = 1
        if h_buf < 0 or w_buf < 0:
            out = _resize(x, [self.height, self.width], "bilinear")
            return out if out.dtype == x.dtype else ops.cast(out, x.dtype)
        box = [h_buf / in_h, w_buf / in_w, (self.height + h_buf) / in_h, (self.width + w_buf) / in_w]
        img = x if x.rank == 4 else ops.expand_dims(x, 0)
        if img.dtype != "float32":
            img = ops.cast(img, "float32")
        n = img.shape[0]
        boxes = ops.tensor([box] * n, [n, 4], "float32")
        box_ind = ops.range(0, n, 1, "int32")
        out = _image.crop_and_resize(img, boxes, box_ind, [self.height, self.width], "nearest")
        if x.rank == 3:
            out = ops.squeeze(out, [0])
        return out if out.dtype == x.dtype else ops.cast(out, x.dtype)

    def compute_output_shape(self, input_shape):
        return _hw_shape(input_shape, self.height, self.width)


class Resizing(Layer):
    class_name = "Resizing"
    config_keys = ("height", "width", "interpolation", "crop_to_aspect_ratio")

    def __init__(self, height=None, width=None, interpolation="bilinear", crop_to_aspect_ratio=False, **kwargs):
        super().__init__(**kwargs)
        self.height = _positive_int(height, "height", "Resizing")
        self.width = _positive_int(width, "width", "Resizing")
        self.interpolation = _interpolation(interpolation)
        self.crop_to_aspect_ratio = bool(crop_to_aspect_ratio)

    def call(self, inputs, training=False):
        x = inputs[0] if isinstance(inputs, (list, tuple)) else inputs
        _image_input(x, self)
        return _resize(x, [self.height, self.width], self.interpolation, not self.crop_to_aspect_ratio)

    def compute_output_shape(self, input_shape):
        return _hw_shape(input_shape, self.height, self.width)


_OUTPUT_MODES = {"multiHot": "multiHot", "multi_hot": "multiHot", "oneHot": "oneHot", "one_hot": "oneHot",
                 "count": "count"}


class CategoryEncoding(Layer):
    """Integer category ids -> multi-hot / one-hot / count vectors of length num_tokens.
    Counts can be weighted: apply(x, count_weights=w) (output_mode 'count' only)."""
    class_name = "CategoryEncoding"
    config_keys = ("num_tokens", "output_mode")

    def __init__(self, num_tokens=None, output_mode="multiHot", **kwargs):
        super().__init__(**kwargs)
        self.num_tokens = _positive_int(num_tokens, "num_tokens", "CategoryEncoding")
        mode = output_mode or "multiHot"
        if mode not in _OUTPUT_MODES:
            raise ValueError(f"CategoryEncoding: unknown output_mode {output_mode!r}; expected 'multiHot', "
                             f"'oneHot' or 'count'")
        self.output_mode = _OUTPUT_MODES[mode]
        self._count_weights = None

    def apply(self, inputs, training=False, count_weights=None):
        if count_weights is not None and self.output_mode != "count":
            raise ValueError(f"countWeights is not used when outputMode !== count. Received "
                             f"countWeights={count_weights!r}")
        self._count_weights = count_weights
        try:
            return super().apply(inputs, training)
        finally:
            self._count_weights = None

    __call__ = apply

    def call(self, inputs, training=False):
        x = inputs[0] if isinstance(inputs, (list, tuple)) else inputs
        if x.dtype != "int32":
            x = ops.cast(x, "int32")
        if x.size:
            hi, lo = ops.max(x).array_sync(), ops.min(x).array_sync()   # (no numpy in the page)
            if not (hi < self.num_tokens and lo >= 0):
                raise ValueError(f"Input values must be between 0 < values <= numTokens with "
                                 f"numTokens={self.num_tokens}")
        original = list(x.shape)
        if x.rank == 0:
            x = ops.expand_dims(x, -1)
        if self.output_mode == "oneHot" and x.shape[-1] != 1:
            x = ops.expand_dims(x, -1)
        if x.rank > 2:
            raise ValueError(f"When outputMode is not int, maximum output rank is 2 Received outputMode "
                             f"{self.output_mode} and input shape {shape_str(original)} which would result in "
                             f"output rank {x.rank}.")
        binary = self.output_mode in ("multiHot", "oneHot")
        weights = self._count_weights if self.output_mode == "count" and self._count_weights is not None else []
        if not isinstance(weights, list) and not hasattr(weights, "shape"):
            weights = ops.tensor(weights, None, "float32")
        return ops.dense_bincount(x, weights, self.num_tokens, binary)

    def compute_output_shape(self, input_shape):
        shape = list(input_shape)
        if not shape:
            return (self.num_tokens,)
        if self.output_mode == "oneHot" and shape[-1] != 1:
            return tuple(shape + [self.num_tokens])
        shape[-1] = self.num_tokens
        return tuple(shape)


class RandomWidth(Layer):
    """Resize the width by a factor drawn uniformly from [1 + lower, 1 + upper] on every call."""
    class_name = "RandomWidth"
    config_keys = ("factor", "interpolation", "seed")

    def __init__(self, factor=None, interpolation="bilinear", seed=None, **kwargs):
        super().__init__(**kwargs)
        if isinstance(factor, (list, tuple)) and len(factor) == 2:
            lower, upper = factor
        elif not isinstance(factor, (list, tuple, bool)) and isinstance(factor, (int, float)) and factor > 0:
            lower, upper = -factor, factor
        else:
            raise ValueError(f"Invalid factor: {factor}. Must be positive number or tuple of 2 numbers")
        if lower < -1.0 or upper < -1.0:
            raise ValueError(f"factor must have values larger than -1. Got: {factor}")
        if upper < lower:
            raise ValueError(f"factor cannot have upper bound less than lower bound. Got upper bound: {upper}. "
                             f"Got lower bound: {lower}")
        self.factor = list(factor) if isinstance(factor, (list, tuple)) else factor
        self.width_lower, self.width_upper = lower, upper
        self.interpolation = _interpolation(interpolation)
        self.seed = seed

    def _next_seed(self):
        if self.seed is None:
            return None
        seed = self.seed
        self.seed += 1
        return seed

    def call(self, inputs, training=False):
        x = inputs[0] if isinstance(inputs, (list, tuple)) else inputs
        _image_input(x, self)
        height, width = x.shape[-3], x.shape[-2]
        factor = ops.random_uniform([1], 1.0 + self.width_lower, 1.0 + self.width_upper, "float32",
                                    self._next_seed())
        new_width = math.floor(float(factor.data_sync()[0]) * width + 0.5)   # JS Math.round
        if new_width < 1:
            raise ValueError(f"Layer {self.name}: the random width factor gives a width of {new_width}")
        return _resize(x, [height, new_width], self.interpolation)

    def compute_output_shape(self, input_shape):
        return _hw_shape(input_shape, input_shape[-3], None)
