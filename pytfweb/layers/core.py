"""Core layers: Dense, Activation, Dropout, Flatten, Reshape, Permute, RepeatVector,
Embedding (tfjs-layers layers/core.ts and layers/embeddings.ts)."""
import math

from .. import ops
from ..ops import fused as _fused
from . import activations as _activations
from . import initializers as _initializers
from .engine import InputSpec, Layer
from ._utils import shape_str
from .convolutional import normalize_data_format


def _positive_int(value, arg, layer):
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise ValueError(f"{layer}: '{arg}' must be a positive integer, got {value!r}")
    return value


class Dense(Layer):
    """output = activation(dot(input, kernel) + bias), over the input's last axis."""
    class_name = "Dense"
    config_keys = ("units", "activation", "use_bias", "kernel_initializer", "bias_initializer", "kernel_regularizer",
                   "bias_regularizer", "activity_regularizer", "kernel_constraint", "bias_constraint")

    def __init__(self, units, activation=None, use_bias=True, kernel_initializer="glorot_normal",
                 bias_initializer="zeros", input_dim=None, kernel_constraint=None, bias_constraint=None,
                 kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None, **kwargs):
        if input_dim is not None and kwargs.get("input_shape") is None and kwargs.get("batch_input_shape") is None:
            kwargs["input_shape"] = [input_dim]
        super().__init__(**kwargs)
        self.units = _positive_int(units, "units", "dense")
        self.activation = _activations.get(activation)
        self.use_bias = use_bias
        self.kernel_initializer = _initializers.get(kernel_initializer)
        self.bias_initializer = _initializers.get(bias_initializer)
        self.kernel_constraint, self.bias_constraint = kernel_constraint, bias_constraint
        self.kernel_regularizer, self.bias_regularizer = kernel_regularizer, bias_regularizer
        self.activity_regularizer = activity_regularizer
        self.input_spec = InputSpec(min_ndim=2)
        self.supports_masking = True
        self.kernel = self.bias = None

    def build(self, input_shape):
        input_dim = input_shape[-1]
        if input_dim is None:
            raise ValueError(f"Layer {self.name}: the last dimension of the input must be defined, got "
                             f"{shape_str(input_shape)}")
        self.kernel = self.add_weight("kernel", [input_dim, self.units], None, self.kernel_initializer,
                                      self.kernel_regularizer, True, self.kernel_constraint)
        if self.use_bias:
            self.bias = self.add_weight("bias", [self.units], None, self.bias_initializer, self.bias_regularizer,
                                        True, self.bias_constraint)
        self.input_spec = InputSpec(min_ndim=2, axes={-1: input_dim})
        self.built = True

    def compute_output_shape(self, input_shape):
        return tuple(input_shape[:-1]) + (self.units,)

    def call(self, inputs, training=False):
        x = inputs
        flat = ops.reshape(x, [-1, x.shape[-1]]) if x.rank > 2 else x   # K.dot: contract the last axis
        fused = _activations.FUSABLE.get(self.activation)
        if fused is not None:   # as tfjs-layers: bias and activation in the product's kernel
            out = _fused.mat_mul(flat, self.kernel, bias=self.bias, activation=fused)
        else:
            out = ops.mat_mul(flat, self.kernel)
            if self.bias is not None:
                out = ops.add(out, self.bias)
        if x.rank > 2:
            out = ops.reshape(out, list(x.shape[:-1]) + [self.units])
        return out if fused is not None else self.activation(out)


class Activation(Layer):
    class_name = "Activation"
    config_keys = ("activation",)

    def __init__(self, activation, **kwargs):
        super().__init__(**kwargs)
        self.activation = _activations.get(activation)
        self.supports_masking = True

    def call(self, inputs, training=False):
        return self.activation(inputs)


class Dropout(Layer):
    """Zeroes a fraction `rate` of the inputs (scaling the rest by 1 / (1 - rate)) while
    training; the identity otherwise."""
    class_name = "Dropout"
    config_keys = ("rate", "noise_shape", "seed")

    def __init__(self, rate, noise_shape=None, seed=None, **kwargs):
        super().__init__(**kwargs)
        if not 0 <= rate <= 1:
            raise ValueError(f"Invalid value received for argument `rate`. Expected a float value between 0 "
                             f"and 1. Received: {rate}")
        self.rate, self.noise_shape, self.seed = rate, noise_shape, seed
        self.supports_masking = True

    def call(self, inputs, training=False):
        if not training or self.rate == 0:
            return inputs
        noise_shape = None
        if self.noise_shape is not None:
            noise_shape = [d if d is not None else inputs.shape[i] for i, d in enumerate(self.noise_shape)]
        return ops.dropout(inputs, self.rate, noise_shape, self.seed)


class Flatten(Layer):
    class_name = "Flatten"

    def __init__(self, data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.input_spec = InputSpec(min_ndim=3)
        self.data_format = data_format

    def get_config(self):
        config = super().get_config()
        if self.data_format is not None:   # as TF.js: only when given
            config["data_format"] = self.data_format
        return config

    def compute_output_shape(self, input_shape):
        rest = input_shape[1:]
        if any(d is None for d in rest):
            raise ValueError(f"The shape of the input to \"Flatten\" is not fully defined (got {shape_str(rest)}). "
                             f"Make sure to pass a complete \"input_shape\" or \"batch_input_shape\" argument to the "
                             f"first layer in your model.")
        return (input_shape[0], math.prod(rest))

    def call(self, inputs, training=False):
        if normalize_data_format(self.data_format, "Flatten") == "channels_first" and inputs.rank > 1:
            inputs = ops.transpose(inputs, [0] + list(range(2, inputs.rank)) + [1])
        return ops.reshape(inputs, [inputs.shape[0], -1])


class Reshape(Layer):
    """Reshape each sample to target_shape (one dimension may be -1 or None: inferred)."""
    class_name = "Reshape"
    config_keys = ("target_shape",)

    def __init__(self, target_shape, **kwargs):
        super().__init__(**kwargs)
        self.target_shape = [(-1 if d is None else d) for d in target_shape]

    def _fix(self, input_shape):
        # checked when the layer is applied, as TF.js does (making the layer never fails)
        if sum(d == -1 for d in self.target_shape) > 1:
            raise ValueError("Can only specifiy one unknown dimension.")
        known = math.prod(d for d in self.target_shape if d != -1)
        if any(d is None for d in input_shape):
            return tuple(None if d == -1 else d for d in self.target_shape)
        total = math.prod(input_shape)
        if -1 in self.target_shape:
            if known == 0 or total % known:
                raise ValueError(f"Total size of new array must be unchanged: cannot reshape "
                                 f"{shape_str(input_shape)} to {shape_str(self.target_shape)}.")
            return tuple(total // known if d == -1 else d for d in self.target_shape)
        if known != total:
            raise ValueError(f"Total size of new array must be unchanged: cannot reshape {shape_str(input_shape)} "
                             f"to {shape_str(self.target_shape)}.")
        return tuple(self.target_shape)

    def compute_output_shape(self, input_shape):
        return (input_shape[0],) + self._fix(input_shape[1:])

    def call(self, inputs, training=False):
        return ops.reshape(inputs, [inputs.shape[0]] + list(self._fix(inputs.shape[1:])))


class Permute(Layer):
    """Permute the non-batch axes; dims is 1-based, as in Keras: dims=[2, 1] swaps them."""
    class_name = "Permute"
    config_keys = ("dims",)

    def __init__(self, dims=None, **kwargs):
        super().__init__(**kwargs)
        if dims is None:
            raise ValueError("permute: 'dims' is required: the non-batch axes in their new order, 1-based "
                             "(e.g. [2, 1])")
        if not isinstance(dims, (list, tuple)):
            raise TypeError(f"permute: 'dims' must be a list of axes (1-based, e.g. [2, 1]), got "
                            f"{type(dims).__name__} {dims!r}")
        dims = list(dims)
        if sorted(dims) != list(range(1, len(dims) + 1)):
            raise ValueError(f"Invalid permutation `dims`: {dims}. `dims` must contain consecutive integers "
                             f"starting from 1.")
        self.dims = dims
        self.input_spec = InputSpec(ndim=len(dims) + 1)

    def compute_output_shape(self, input_shape):
        return (input_shape[0],) + tuple(input_shape[d] for d in self.dims)

    def call(self, inputs, training=False):
        return ops.transpose(inputs, [0] + self.dims)


class RepeatVector(Layer):
    """(batch, features) -> (batch, n, features)."""
    class_name = "RepeatVector"
    config_keys = ("n",)

    def __init__(self, n, **kwargs):
        super().__init__(**kwargs)
        self.n = _positive_int(n, "n", "repeat_vector")
        self.input_spec = InputSpec(ndim=2)

    def compute_output_shape(self, input_shape):
        return (input_shape[0], self.n, input_shape[1])

    def call(self, inputs, training=False):
        return ops.tile(ops.expand_dims(inputs, 1), [1, self.n, 1])


class Embedding(Layer):
    """Integer indices -> rows of an (input_dim, output_dim) embedding matrix. With
    mask_zero=True, index 0 is padding: the layer's mask (compute_mask) is inputs != 0, which a
    model passes on to the layers after it (an RNN then skips the padded timesteps)."""
    class_name = "Embedding"
    config_keys = ("input_dim", "output_dim", "embeddings_initializer", "embeddings_regularizer",
                   "activity_regularizer", "embeddings_constraint", "mask_zero", "input_length")

    def __init__(self, input_dim, output_dim, embeddings_initializer="random_uniform", embeddings_regularizer=None,
                 activity_regularizer=None, embeddings_constraint=None, mask_zero=False, input_length=None,
                 **kwargs):
        if input_length is not None and kwargs.get("input_shape") is None and kwargs.get("batch_input_shape") is None:
            kwargs["input_shape"] = list(input_length) if isinstance(input_length, (list, tuple)) else [input_length]
        self.input_length = input_length
        super().__init__(**kwargs)
        self.input_dim = _positive_int(input_dim, "input_dim", "embedding")
        self.output_dim = _positive_int(output_dim, "output_dim", "embedding")
        self.embeddings_initializer = _initializers.get(embeddings_initializer)
        self.embeddings_regularizer, self.embeddings_constraint = embeddings_regularizer, embeddings_constraint
        self.activity_regularizer = activity_regularizer
        self.mask_zero = bool(mask_zero)
        self.supports_masking = self.mask_zero   # as Keras
        self.embeddings = None

    def build(self, input_shape):
        # The weights are float32 whatever the (integer) input dtype is.
        self.embeddings = self.add_weight("embeddings", [self.input_dim, self.output_dim], "float32",
                                          self.embeddings_initializer, self.embeddings_regularizer, True,
                                          self.embeddings_constraint)
        self.built = True

    def compute_output_shape(self, input_shape):
        return tuple(input_shape) + (self.output_dim,)

    def call(self, inputs, training=False):
        idx = inputs if inputs.dtype == "int32" else ops.cast(inputs, "int32")
        rows = ops.gather(self.embeddings, ops.reshape(idx, [-1]))
        return ops.reshape(rows, list(inputs.shape) + [self.output_dim])

    def compute_mask(self, inputs, mask=None):
        if not self.mask_zero:
            return None
        return ops.not_equal(inputs, 0)
