"""Activation layers (tfjs-layers layers/advanced_activations.ts): ReLU, LeakyReLU, PReLU,
ELU, ThresholdedReLU, Softmax."""
from .. import ops
from . import constraints as _constraints
from . import initializers as _initializers
from . import regularizers as _regularizers
from .engine import InputSpec, Layer


def _number(value, arg, layer):
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{layer}: '{arg}' must be a number, got {value!r}")
    return value


class ReLU(Layer):
    """max(x, 0), clipped at max_value when one is given (ReLU(max_value=6) is relu6)."""
    class_name = "ReLU"
    config_keys = ("max_value",)

    def __init__(self, max_value=None, **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True
        self.max_value = None if max_value is None else _number(max_value, "max_value", "ReLU")

    def call(self, inputs, training=False):
        if self.max_value == 6:
            return ops.relu6(inputs)   # one kernel
        out = ops.relu(inputs)
        return out if self.max_value is None else ops.clip_by_value(out, 0, self.max_value)


class LeakyReLU(Layer):
    """x for x >= 0, alpha * x otherwise (alpha 0.3 by default, as TF.js and Keras)."""
    class_name = "LeakyReLU"
    config_keys = ("alpha",)

    def __init__(self, alpha=0.3, **kwargs):
        super().__init__(**kwargs)
        self.alpha = 0.3 if alpha is None else _number(alpha, "alpha", "LeakyReLU")
        self.supports_masking = True

    def call(self, inputs, training=False):
        return ops.leaky_relu(inputs, self.alpha)


class PReLU(Layer):
    """Leaky ReLU with a learned alpha per element of a sample (shared along shared_axes)."""
    class_name = "PReLU"
    config_keys = ("alpha_initializer", "alpha_regularizer", "alpha_constraint", "shared_axes")

    def __init__(self, alpha_initializer="zeros", alpha_regularizer=None, alpha_constraint=None, shared_axes=None,
                 **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True
        self.alpha_initializer = _initializers.get(alpha_initializer or "zeros")
        self.alpha_regularizer = _regularizers.get(alpha_regularizer)
        self.alpha_constraint = _constraints.get(alpha_constraint)
        if shared_axes is None or isinstance(shared_axes, list):
            self.shared_axes = shared_axes
        elif isinstance(shared_axes, tuple):
            self.shared_axes = list(shared_axes)
        elif isinstance(shared_axes, int) and not isinstance(shared_axes, bool):
            self.shared_axes = [shared_axes]
        else:
            raise ValueError(f"Expected sharedAxes to be a number or an array of numbers, but got {shared_axes!r}")
        self.alpha = None

    def build(self, input_shape):
        param_shape = list(input_shape[1:])
        for i in self.shared_axes or []:
            if not 1 <= i < len(input_shape):
                raise ValueError(f"PReLU: shared axis {i} is out of range for input rank {len(input_shape)}")
            param_shape[i - 1] = 1
        if any(d is None for d in param_shape):
            raise ValueError(f"PReLU: the non-shared axes of the input must be defined, got {list(input_shape)}")
        self.alpha = self.add_weight("alpha", param_shape, "float32", self.alpha_initializer, self.alpha_regularizer,
                                     True, self.alpha_constraint)
        axes = {i: input_shape[i] for i in range(1, len(input_shape))} if self.shared_axes else None
        self.input_spec = InputSpec(ndim=len(input_shape), axes=axes)
        self.built = True

    def call(self, inputs, training=False):
        return ops.prelu(inputs, self.alpha)


class ELU(Layer):
    """x for x > 0, exp(x) - 1 otherwise. Only alpha = 1 (TF.js's limit)."""
    class_name = "ELU"
    config_keys = ("alpha",)

    def __init__(self, alpha=1.0, **kwargs):
        super().__init__(**kwargs)
        if alpha is not None and alpha != 1.0:
            raise NotImplementedError(f"Non-default alpha value ({alpha}) is not supported by the ELU layer yet.")
        self.alpha = 1.0
        self.supports_masking = True

    def call(self, inputs, training=False):
        return ops.elu(inputs)


class ThresholdedReLU(Layer):
    """x where x > theta, 0 elsewhere."""
    class_name = "ThresholdedReLU"
    config_keys = ("theta",)

    def __init__(self, theta=1.0, **kwargs):
        super().__init__(**kwargs)
        self.theta = 1.0 if theta is None else _number(theta, "theta", "ThresholdedReLU")
        self.supports_masking = True

    def call(self, inputs, training=False):
        return ops.mul(inputs, ops.cast(ops.greater(inputs, self.theta), "float32"))


class Softmax(Layer):
    """softmax along `axis`. As TF.js, the default axis is 1 (Keras's is -1; the same for the
    usual (batch, classes) input). A list of several axes normalizes over all of them."""
    class_name = "Softmax"
    config_keys = ("axis",)

    def __init__(self, axis=1, **kwargs):
        super().__init__(**kwargs)
        self.axis = 1 if axis is None else axis
        self.supports_masking = True

    def call(self, inputs, training=False):
        axis = self.axis
        if isinstance(axis, (list, tuple)):
            if len(axis) > 1:
                return ops.exp(ops.sub(inputs, ops.log_sum_exp(inputs, list(axis), True)))
            axis = axis[0]
        rank = inputs.rank
        axis = axis + rank if axis < 0 else axis
        if axis == rank - 1:
            return ops.softmax(inputs, -1)
        # softmax over another axis: the same formula over that axis
        return ops.exp(ops.sub(inputs, ops.log_sum_exp(inputs, [axis], True)))
