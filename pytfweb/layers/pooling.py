"""Pooling layers (tfjs-layers layers/pooling.ts): MaxPooling1D/2D/3D, AveragePooling1D/2D/3D,
GlobalAveragePooling1D/2D, GlobalMaxPooling1D/2D. pool_size defaults to 2 per axis, strides
to pool_size, padding to 'valid'."""
from .. import ops
from .convolutional import (check_output_space, check_padding, conv_output_length, normalize_data_format,
                            normalize_tuple, to_channels_first, to_channels_last)
from .engine import InputSpec, Layer


class _Pooling(Layer):
    config_keys = ("pool_size", "padding", "strides", "data_format")
    rank = 2
    mode = "max"

    def __init__(self, pool_size=None, strides=None, padding="valid", data_format=None, **kwargs):
        super().__init__(**kwargs)
        cls = self.get_class_name()
        self.pool_size = normalize_tuple(2 if pool_size is None else pool_size, self.rank, "pool_size", cls)
        self.strides = list(self.pool_size) if strides is None else normalize_tuple(strides, self.rank, "strides",
                                                                                     cls)
        self.padding = check_padding(padding, cls, ("valid", "same"))
        self.data_format = normalize_data_format(data_format, cls)
        if self.rank == 1 and self.data_format != "channels_last":
            raise ValueError(f"{cls}: only data_format 'channelsLast' is supported")
        self.input_spec = InputSpec(ndim=self.rank + 2)

    def compute_output_shape(self, input_shape):
        first = self.data_format == "channels_first"
        space = input_shape[2:] if first else input_shape[1:-1]
        space = [conv_output_length(d, k, self.padding, s) for d, k, s in zip(space, self.pool_size, self.strides)]
        space = check_output_space(self, input_shape, space)
        if first:
            return (input_shape[0], input_shape[1]) + tuple(space)
        return (input_shape[0],) + tuple(space) + (input_shape[-1],)

    def call(self, inputs, training=False):
        self.compute_output_shape(tuple(inputs.shape))   # the window must fit
        if self.rank == 1:   # as TF.js: a 2-D pool over (steps, 1)
            x = ops.expand_dims(inputs, 2)
            y = self._pool(x, [self.pool_size[0], 1], [self.strides[0], 1])
            return ops.squeeze(y, [2])
        x = to_channels_last(inputs, self.data_format)
        return to_channels_first(self._pool(x, self.pool_size, self.strides), self.data_format)

    def _pool(self, x, pool_size, strides):
        if x.rank == 5:
            fn = ops.max_pool3d if self.mode == "max" else ops.avg_pool3d
        else:
            fn = ops.max_pool if self.mode == "max" else ops.avg_pool
        return fn(x, pool_size, strides, self.padding)


class MaxPooling1D(_Pooling):
    class_name = "MaxPooling1D"
    rank, mode = 1, "max"


class AveragePooling1D(_Pooling):
    class_name = "AveragePooling1D"
    rank, mode = 1, "avg"


class MaxPooling2D(_Pooling):
    class_name = "MaxPooling2D"
    rank, mode = 2, "max"


class AveragePooling2D(_Pooling):
    class_name = "AveragePooling2D"
    rank, mode = 2, "avg"


class MaxPooling3D(_Pooling):
    class_name = "MaxPooling3D"
    rank, mode = 3, "max"


class AveragePooling3D(_Pooling):
    class_name = "AveragePooling3D"
    rank, mode = 3, "avg"


class _GlobalPooling(Layer):
    """Reduce every spatial axis: (batch, *space, channels) -> (batch, channels)."""
    rank = 2
    mode = "avg"

    def __init__(self, data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.data_format = normalize_data_format(data_format, self.get_class_name())
        self.input_spec = InputSpec(ndim=self.rank + 2)

    def compute_output_shape(self, input_shape):
        channels = input_shape[1] if self.data_format == "channels_first" and self.rank == 2 else input_shape[-1]
        return (input_shape[0], channels)

    def call(self, inputs, training=False, mask=None):
        if mask is not None and self.rank == 1 and self.mode == "avg":
            return self._masked_mean(inputs, mask)
        if self.rank == 1 or self.data_format == "channels_last":
            axes = list(range(1, inputs.rank - 1))
        else:
            axes = list(range(2, inputs.rank))
        return (ops.mean if self.mode == "avg" else ops.max)(inputs, axes)

    def get_config(self):
        config = super().get_config()
        if self.rank == 2:
            config["data_format"] = self.data_format
        return config


class GlobalAveragePooling1D(_GlobalPooling):
    """The mean over time; with a [batch, time] mask (from Masking or Embedding(mask_zero=True)
    in a model) the mean over the unmasked timesteps only, as tf.keras (TF.js ignores masks here)."""
    class_name = "GlobalAveragePooling1D"
    rank, mode = 1, "avg"

    def __init__(self, data_format=None, **kwargs):
        super().__init__(data_format, **kwargs)
        self.supports_masking = True

    def compute_mask(self, inputs, mask=None):
        return None

    def _masked_mean(self, inputs, mask):
        m = ops.expand_dims(ops.cast(mask, inputs.dtype), 2)   # [batch, time, 1]
        return ops.div(ops.sum(ops.mul(inputs, m), 1), ops.sum(m, 1))


class GlobalMaxPooling1D(_GlobalPooling):
    class_name = "GlobalMaxPooling1D"
    rank, mode = 1, "max"


class GlobalAveragePooling2D(_GlobalPooling):
    class_name = "GlobalAveragePooling2D"
    rank, mode = 2, "avg"


class GlobalMaxPooling2D(_GlobalPooling):
    class_name = "GlobalMaxPooling2D"
    rank, mode = 2, "max"
