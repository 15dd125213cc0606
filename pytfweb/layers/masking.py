"""Masking (tfjs-layers layers/core.ts) and Rescaling (layers/preprocessing/image_preprocessing.ts)."""
from .. import ops
from .engine import Layer


class Masking(Layer):
    """Zero the timesteps whose features all equal mask_value and mask them: the mask
    (compute_mask: some feature differs from mask_value, [batch, time]) goes through a model to
    the layers after this one (an RNN skips the masked timesteps)."""
    class_name = "Masking"
    config_keys = ("mask_value",)

    def __init__(self, mask_value=0.0, **kwargs):
        super().__init__(**kwargs)
        self.mask_value = 0.0 if mask_value is None else mask_value
        self.supports_masking = True

    def compute_mask(self, inputs, mask=None):
        return ops.any(ops.not_equal(inputs, self.mask_value), -1)

    def call(self, inputs, training=False):
        keep = ops.any(ops.not_equal(inputs, self.mask_value), -1, True)
        return ops.mul(inputs, ops.cast(keep, inputs.dtype))


class Rescaling(Layer):
    """inputs * scale + offset (cast to float32 first)."""
    class_name = "Rescaling"
    config_keys = ("scale", "offset")

    def __init__(self, scale=None, offset=0, **kwargs):
        super().__init__(**kwargs)
        for arg, v in (("scale", scale), ("offset", offset)):
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                raise TypeError(f"Rescaling: '{arg}' must be a number, got {v!r}")
        self.scale, self.offset = scale, offset

    def call(self, inputs, training=False):
        x = inputs if inputs.dtype == "float32" else ops.cast(inputs, "float32")
        return ops.add(ops.mul(x, self.scale), self.offset)
