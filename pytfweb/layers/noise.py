"""Noise and regularization layers (tfjs-layers layers/noise.ts; SpatialDropout1D from
layers/core.ts): GaussianNoise, GaussianDropout, AlphaDropout, SpatialDropout1D. Each acts
only while training (fit passes training=True) and is the identity otherwise."""
import math

from .. import ops
from .core import Dropout
from .engine import InputSpec, Layer


def _rate(rate, layer):
    if isinstance(rate, bool) or not isinstance(rate, (int, float)) or not 0 <= rate <= 1:
        raise ValueError(f"{layer}: 'rate' must be a number in [0, 1], got {rate!r}")
    return rate


class GaussianNoise(Layer):
    """Adds zero-centred gaussian noise of standard deviation stddev."""
    class_name = "GaussianNoise"
    config_keys = ("stddev",)

    def __init__(self, stddev=None, **kwargs):
        super().__init__(**kwargs)
        if isinstance(stddev, bool) or not isinstance(stddev, (int, float)) or stddev < 0:
            raise ValueError(f"GaussianNoise: 'stddev' must be a non-negative number, got {stddev!r}")
        self.supports_masking = True
        self.stddev = stddev

    def call(self, inputs, training=False):
        if not training:
            return inputs
        return ops.add(ops.random_normal(list(inputs.shape), 0, self.stddev), inputs)


class GaussianDropout(Layer):
    """Multiplies by gaussian noise of mean 1 and stddev sqrt(rate / (1 - rate))."""
    class_name = "GaussianDropout"
    config_keys = ("rate",)

    def __init__(self, rate=None, **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True
        self.rate = _rate(rate, "GaussianDropout")

    def call(self, inputs, training=False):
        if not training or not 0 < self.rate < 1:
            return inputs
        stddev = math.sqrt(self.rate / (1 - self.rate))
        return ops.mul(inputs, ops.random_normal(list(inputs.shape), 1, stddev))


class AlphaDropout(Layer):
    """Dropout that keeps the mean and variance of SELU-activated inputs: dropped values are
    set to -alpha * scale, then everything is affinely corrected."""
    class_name = "AlphaDropout"
    config_keys = ("rate",)
    _ALPHA = 1.6732632423543772848170429916717
    _SCALE = 1.0507009873554804934193349852946

    def __init__(self, rate=None, noise_shape=None, **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True
        self.rate = _rate(rate, "AlphaDropout")
        self.noise_shape = noise_shape

    def call(self, inputs, training=False):
        if not training or not 0 < self.rate < 1:
            return inputs
        noise_shape = list(self.noise_shape or inputs.shape)
        alpha_p = -self._ALPHA * self._SCALE
        kept = ops.cast(ops.greater_equal(ops.random_uniform(noise_shape), self.rate), "float32")
        a = ((1 - self.rate) * (1 + self.rate * alpha_p ** 2)) ** -0.5
        b = -a * alpha_p * self.rate
        # Dropped values become alpha_p, as Keras (TF.js 4.22 writes (kept - 1) * alpha_p, i.e.
        # -alpha_p, which breaks the mean and variance this layer exists to keep).
        x = ops.add(ops.mul(inputs, kept), ops.mul(ops.sub(1, kept), alpha_p))
        return ops.add(ops.mul(x, a), b)


class SpatialDropout1D(Dropout):
    """Dropout of whole channels: one draw per (sample, channel), shared along the steps."""
    class_name = "SpatialDropout1D"

    def __init__(self, rate, seed=None, noise_shape=None, **kwargs):
        # noise_shape (in its config, as TF.js writes it) is always [batch, 1, channels] here
        super().__init__(rate, None, seed, **kwargs)
        self.input_spec = InputSpec(ndim=3)

    def call(self, inputs, training=False):
        if not training or self.rate == 0:
            return inputs
        return ops.dropout(inputs, self.rate, [inputs.shape[0], 1, inputs.shape[2]], self.seed)
