"""Normalization layers (tfjs-layers layers/normalization.ts): BatchNormalization and
LayerNormalization.

BatchNormalization normalizes with the batch's moments while training (fit passes
training=True) and moves moving_mean / moving_variance toward them, as TF.js does:
moving -= (moving - batch value) * (1 - momentum). Otherwise (predict, evaluate, a direct
call) it uses the moving statistics.
"""
import math

from .. import ops
from ..core.api import dispose, keep, tidy
from ..autodiff import custom_grad
from . import constraints as _constraints
from . import initializers as _initializers
from . import regularizers as _regularizers
from .engine import InputSpec, Layer
from ._utils import shape_str


def _batch_norm(x, mean, variance, beta, gamma, epsilon):
    """tf.batch_norm (one kernel) up to rank 4; the same formula in ops above (conv3d outputs)."""
    if x.rank <= 4:
        return ops.batch_norm(x, mean, variance, beta, gamma, epsilon)
    y = ops.mul(ops.sub(x, mean), ops.rsqrt(ops.add(variance, epsilon)))
    if gamma is not None:
        y = ops.mul(y, gamma)
    return y if beta is None else ops.add(y, beta)


def _normalize_in_training(x, gamma, beta, reduction, epsilon, fit):
    """(y, mean, variance): x normalized with its moments over `reduction`, then scaled and
    shifted, taped as one node whose gradient is the closed form

        dx = a dy - a s1 / n - xc a r^2 s2 / n,   dgamma = r s2,   dbeta = s1
        (xc = x - mean, r = 1 / sqrt(variance + epsilon), a = gamma r,
         s1 = sum(dy), s2 = sum(dy xc) over `reduction`, n values per channel)

    rather than the gradients of moments and batch_norm composed: the same values (rounded
    otherwise) in 7 passes over x-sized tensors and 4 reductions, where the composed gradients
    take about 18 and 5. The backward pass computes the moments again from x, with ops, so a
    gradient of this gradient is taped to x as well. mean and variance are kept: the caller
    disposes them."""
    inputs = [t for t in (x, gamma, beta) if t is not None]
    stats = []

    def forward(*args):
        save = args[-1]
        mean, variance = ops.moments(x, reduction)
        y = _batch_norm(x, fit(mean), fit(variance), fit(beta), fit(gamma), epsilon)
        stats.extend([keep(mean), keep(variance)])   # out of custom_grad's scope: the caller disposes them
        save([x] + ([gamma] if gamma is not None else []))
        return {"value": y, "grad_func": grad_fn}

    def grad_fn(dy, saved):
        x, *saved = saved
        n = math.prod(x.shape[axis] for axis in reduction)
        xc = ops.sub(x, ops.mean(x, reduction, keep_dims=True))
        r = ops.rsqrt(ops.add(ops.mean(ops.square(xc), reduction, keep_dims=True), epsilon))
        s1 = ops.sum(dy, reduction, keep_dims=True)
        s2 = ops.sum(ops.mul(dy, xc), reduction, keep_dims=True)
        a = ops.mul(fit(saved[0]), r) if saved else r
        # the factors per channel first, then dy a + xc b + c over x-sized tensors
        b = ops.mul(ops.mul(a, ops.square(r)), ops.mul(s2, -1 / n))
        c = ops.mul(a, ops.mul(s1, -1 / n))
        grads = [ops.add(ops.add(ops.mul(dy, a), ops.mul(xc, b)), c)]
        if gamma is not None:
            grads.append(ops.reshape(ops.mul(s2, r), gamma.shape))
        if beta is not None:
            grads.append(ops.reshape(s1, beta.shape))
        return grads

    y = custom_grad(forward)(*inputs)
    return y, stats[0], stats[1]


class BatchNormalization(Layer):
    class_name = "BatchNormalization"
    config_keys = ("axis", "momentum", "epsilon", "center", "scale", "beta_initializer", "gamma_initializer",
                   "moving_mean_initializer", "moving_variance_initializer", "beta_regularizer", "gamma_regularizer",
                   "beta_constraint", "gamma_constraint")

    def __init__(self, axis=-1, momentum=0.99, epsilon=1e-3, center=True, scale=True, beta_initializer="zeros",
                 gamma_initializer="ones", moving_mean_initializer="zeros", moving_variance_initializer="ones",
                 beta_constraint=None, gamma_constraint=None, beta_regularizer=None, gamma_regularizer=None,
                 **kwargs):
        super().__init__(**kwargs)
        if isinstance(axis, (list, tuple)) and len(axis) == 1:
            axis = axis[0]   # tf.keras's configs write the axis as a list of one ("axis": [3])
        if isinstance(axis, bool) or not isinstance(axis, int):
            raise ValueError(f"BatchNormalization: 'axis' must be an integer (or a list of one), got {axis!r}")
        self.supports_masking = True
        self.axis = axis
        self.momentum = 0.99 if momentum is None else momentum
        self.epsilon = 1e-3 if epsilon is None else epsilon
        self.center = True if center is None else center
        self.scale = True if scale is None else scale
        self.beta_initializer = _initializers.get(beta_initializer)
        self.gamma_initializer = _initializers.get(gamma_initializer)
        self.moving_mean_initializer = _initializers.get(moving_mean_initializer)
        self.moving_variance_initializer = _initializers.get(moving_variance_initializer)
        self.beta_constraint = _constraints.get(beta_constraint)
        self.gamma_constraint = _constraints.get(gamma_constraint)
        self.beta_regularizer = _regularizers.get(beta_regularizer)
        self.gamma_regularizer = _regularizers.get(gamma_regularizer)
        self.gamma = self.beta = self.moving_mean = self.moving_variance = None

    def _axis(self, ndim):
        axis = self.axis + ndim if self.axis < 0 else self.axis
        if not 0 <= axis < ndim:
            raise ValueError(f"Layer {self.name}: axis {self.axis} is out of range for an input of rank {ndim}")
        return axis

    def build(self, input_shape):
        axis = self._axis(len(input_shape))
        dim = input_shape[axis]
        if dim is None:
            raise ValueError(f"Axis {axis} of input tensor should have a defined dimension but the layer received "
                             f"an input with shape {shape_str(input_shape)}.")
        self.input_spec = InputSpec(ndim=len(input_shape), axes={axis: dim})
        shape = [dim]
        if self.scale:
            self.gamma = self.add_weight("gamma", shape, None, self.gamma_initializer, self.gamma_regularizer, True,
                                         self.gamma_constraint)
        if self.center:
            self.beta = self.add_weight("beta", shape, None, self.beta_initializer, self.beta_regularizer, True,
                                        self.beta_constraint)
        self.moving_mean = self.add_weight("moving_mean", shape, None, self.moving_mean_initializer, None, False)
        self.moving_variance = self.add_weight("moving_variance", shape, None, self.moving_variance_initializer,
                                               None, False)
        self.built = True

    def call(self, inputs, training=False):
        x = inputs
        ndim = x.rank
        axis = self._axis(ndim)
        reduction = [i for i in range(ndim) if i != axis]
        # Parameters are [dim]: they broadcast over a last-axis channel; any other axis needs
        # them reshaped to [1, .., dim, .., 1].
        target = [1] * ndim
        target[axis] = x.shape[axis]

        def fit(t):
            return None if t is None else (t if axis == ndim - 1 else ops.reshape(t, target))

        if not training:
            return _batch_norm(x, fit(self.moving_mean), fit(self.moving_variance), fit(self.beta),
                                  fit(self.gamma), self.epsilon)
        out, mean, variance = _normalize_in_training(x, self.gamma, self.beta, reduction, self.epsilon, fit)
        try:
            decay = 1 - self.momentum
            for var, value in ((self.moving_mean, mean), (self.moving_variance, variance)):
                var.assign(tidy(lambda var=var, value=value: ops.sub(var, ops.mul(ops.sub(var, value), decay))))
        finally:
            dispose([mean, variance])
        return out


class LayerNormalization(Layer):
    """Normalize each sample over `axis` (default the last), then scale by gamma and shift by beta."""
    class_name = "LayerNormalization"
    config_keys = ("axis", "epsilon", "center", "scale", "beta_initializer", "gamma_initializer", "beta_regularizer",
                   "gamma_regularizer")

    def __init__(self, axis=-1, epsilon=1e-3, center=True, scale=True, beta_initializer="zeros",
                 gamma_initializer="ones", beta_regularizer=None, gamma_regularizer=None, **kwargs):
        super().__init__(**kwargs)
        axes = axis if isinstance(axis, (list, tuple)) else [axis]
        if not all(isinstance(a, int) and not isinstance(a, bool) for a in axes):
            raise ValueError(f"Expected axis to be an integer or an array of integers, but received {axis!r}")
        self.axis = list(axes)
        self.epsilon = 1e-3 if epsilon is None else epsilon
        self.center = True if center is None else center
        self.scale = True if scale is None else scale
        self.beta_initializer = _initializers.get(beta_initializer)
        self.gamma_initializer = _initializers.get(gamma_initializer)
        self.beta_regularizer = _regularizers.get(beta_regularizer)
        self.gamma_regularizer = _regularizers.get(gamma_regularizer)
        self.supports_masking = True
        self.gamma = self.beta = None

    def build(self, input_shape):
        n = len(input_shape)
        axes = [a + n if a < 0 else a for a in self.axis]
        for a in axes:
            if not 0 <= a < n:
                raise ValueError(f"Invalid axis: {a} (input shape {shape_str(input_shape)})")
        if len(set(axes)) != len(axes):
            raise ValueError(f"Found duplicate axes in: {axes}")
        self.axis = axes
        shape = [input_shape[a] for a in axes]
        if self.scale:
            self.gamma = self.add_weight("gamma", shape, "float32", self.gamma_initializer, self.gamma_regularizer)
        if self.center:
            self.beta = self.add_weight("beta", shape, "float32", self.beta_initializer, self.beta_regularizer)
        self.built = True

    def call(self, inputs, training=False):
        x = inputs
        n = x.rank
        mean, variance = ops.moments(x, self.axis, True)
        target = [x.shape[i] if i in self.axis else 1 for i in range(n)]

        def fit(t):
            return None if t is None else ops.reshape(t, target)

        y = ops.mul(ops.sub(x, mean), ops.rsqrt(ops.add(variance, self.epsilon)))
        if self.gamma is not None:
            y = ops.mul(y, fit(self.gamma))
        if self.beta is not None:
            y = ops.add(y, fit(self.beta))
        return y
