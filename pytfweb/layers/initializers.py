"""tf.initializers: weight initializers as in tfjs-layers/src/initializers.ts.

An initializer is a callable object: init(shape, dtype='float32') -> Tensor. Layers accept an
Initializer, a TF.js name ('glorotUniform'), a Keras name ('glorot_uniform') or a function.
"""
import array
import contextlib
import math

from .. import ops
from ..core.api import make_tensor, tidy
from ..core.dtypes import TYPECODES
from ..core.limits import check_elements
from ..core.shapes import check_shape
from ._utils import lookup, takes_options


_fast_init = [0]


@contextlib.contextmanager
def fast_init():
    """Within this block layers initialise new weights with zeros: a model being loaded gets its
    values from the file, so drawing (and, for Orthogonal, factorising) random ones is wasted
    (TF.js's fastWeightInitDuringBuild)."""
    _fast_init[0] += 1
    try:
        yield
    finally:
        _fast_init[0] -= 1


def fast_init_active():
    return _fast_init[0] > 0


def host_zeros(shape, dtype="float32"):
    """Zeros held on the host: a backend uploads them only if they are used, and weights being
    loaded are replaced first (on webgl a Fill shader per weight would write every texture). One
    allocation, handed to the backend as is."""
    typecode = TYPECODES.get(dtype)
    if typecode is None or dtype == "complex64":
        return ops.zeros(shape, dtype)
    size = check_elements(check_shape(shape, "initializer"), "initializer: argument 'shape'")
    return make_tensor(array.array(typecode, [0]) * size, tuple(shape), dtype)


class Initializer:
    class_name = "Initializer"

    def __call__(self, shape, dtype="float32"):
        return tidy(lambda: self.apply(list(shape), dtype))

    def apply(self, shape, dtype="float32"):
        raise NotImplementedError

    def get_config(self):
        return {}

    def get_class_name(self):
        return self.class_name


class Zeros(Initializer):
    class_name = "Zeros"

    def apply(self, shape, dtype="float32"):
        return ops.zeros(shape, dtype)


class Ones(Initializer):
    class_name = "Ones"

    def apply(self, shape, dtype="float32"):
        return ops.ones(shape, dtype)


class Constant(Initializer):
    class_name = "Constant"

    def __init__(self, value):
        if not isinstance(value, (int, float)):
            raise TypeError(f"constant: 'value' must be a number, got {type(value).__name__}")
        self.value = value

    def apply(self, shape, dtype="float32"):
        # as TF.js: value (a float32 scalar) times ones of dtype, so int32 and bool give float32
        return ops.mul(ops.scalar(self.value, "float32"), ops.ones(shape, dtype))

    def get_config(self):
        return {"value": self.value}


class RandomUniform(Initializer):
    class_name = "RandomUniform"

    def __init__(self, minval=-0.05, maxval=0.05, seed=None):
        self.minval, self.maxval, self.seed = minval, maxval, seed

    def apply(self, shape, dtype="float32"):
        return ops.random_uniform(shape, self.minval, self.maxval, dtype, self.seed)

    def get_config(self):
        return {"minval": self.minval, "maxval": self.maxval, "seed": self.seed}


class RandomNormal(Initializer):
    class_name = "RandomNormal"

    def __init__(self, mean=0.0, stddev=0.05, seed=None):
        self.mean, self.stddev, self.seed = mean, stddev, seed

    def apply(self, shape, dtype="float32"):
        _normal_dtype(self, dtype)
        return ops.random_normal(shape, self.mean, self.stddev, dtype, self.seed)

    def get_config(self):
        return {"mean": self.mean, "stddev": self.stddev, "seed": self.seed}


class TruncatedNormal(RandomNormal):
    class_name = "TruncatedNormal"

    def apply(self, shape, dtype="float32"):
        _normal_dtype(self, dtype)
        return ops.truncated_normal(shape, self.mean, self.stddev, dtype, self.seed)


class Identity(Initializer):
    class_name = "Identity"

    def __init__(self, gain=1.0):
        self.gain = gain

    def apply(self, shape, dtype="float32"):
        if len(shape) != 2 or shape[0] != shape[1]:
            raise ValueError(f"Identity matrix initializer can only be used for 2D square matrices, "
                             f"got shape {list(shape)}")
        return ops.mul(ops.eye(shape[0]), self.gain)   # float32 whatever dtype, as TF.js

    def get_config(self):
        return {"gain": self.gain}


def compute_fans(shape):
    """(fan_in, fan_out) of a weight shape, channels-last, as TF.js's computeFans."""
    if len(shape) == 2:
        return shape[0], shape[1]
    if len(shape) in (3, 4, 5):
        receptive = math.prod(shape[:-2])
        return shape[-2] * receptive, shape[-1] * receptive
    root = math.sqrt(math.prod(shape))
    return root, root


class VarianceScaling(Initializer):
    class_name = "VarianceScaling"
    _MODES = {"fan_in": "fanIn", "fan_out": "fanOut", "fan_avg": "fanAvg"}

    def __init__(self, scale=1.0, mode="fan_in", distribution="normal", seed=None):
        if scale < 0:
            raise ValueError(f"scale must be a positive float. Got: {scale}")
        mode = {v: k for k, v in self._MODES.items()}.get(mode, mode)   # accept TF.js's 'fanIn'
        distribution = "truncated_normal" if distribution == "truncatedNormal" else distribution
        if mode not in self._MODES:
            raise ValueError(f"variance_scaling: unknown mode {mode!r}; expected fan_in, fan_out or fan_avg")
        if distribution not in ("normal", "uniform", "truncated_normal"):
            raise ValueError(f"variance_scaling: unknown distribution {distribution!r}; expected normal or uniform")
        self.scale, self.mode, self.distribution, self.seed = scale, mode, distribution, seed

    def apply(self, shape, dtype="float32"):
        fan_in, fan_out = compute_fans(shape)
        fan = {"fan_in": fan_in, "fan_out": fan_out, "fan_avg": (fan_in + fan_out) / 2}[self.mode]
        scale = self.scale / max(1, fan)
        if self.distribution == "uniform":
            limit = math.sqrt(3 * scale)
            return ops.random_uniform(shape, -limit, limit, dtype, self.seed)
        _normal_dtype(self, dtype)
        # As TF.js: a truncated normal with the untruncated standard deviation.
        return ops.truncated_normal(shape, 0, math.sqrt(scale), dtype, self.seed)

    def get_config(self):
        return {"scale": self.scale, "mode": self.mode, "distribution": self.distribution, "seed": self.seed}


class Orthogonal(Initializer):
    class_name = "Orthogonal"

    def __init__(self, gain=1.0, seed=None):
        self.gain, self.seed = gain, seed

    def apply(self, shape, dtype="float32"):
        if len(shape) < 2:
            raise ValueError(f"orthogonal: shape must be at least 2D, got {list(shape)}")
        rows, cols = math.prod(shape[:-1]), shape[-1]
        flat = ops.random_normal([max(rows, cols), min(rows, cols)], 0, 1, dtype, self.seed)
        q, r = ops.linalg.qr(flat)
        # Make Q uniform: multiply each column by the sign of R's diagonal.
        n = min(rows, cols)
        diag = ops.strided_slice(ops.reshape(r, [-1]), [0], [n * n], [n + 1])
        q = ops.mul(q, ops.sign(diag))
        if rows < cols:
            q = ops.transpose(q)
        return ops.mul(ops.reshape(q, shape), self.gain)

    def get_config(self):
        return {"gain": self.gain, "seed": self.seed}


def _normal_dtype(init, dtype):
    """TF.js's normal initializers draw float32 or int32 (rounded) values only."""
    if dtype not in ("float32", "int32"):
        raise TypeError(f"{init.class_name} does not support dtype {dtype}")


# --- factories: TF.js's tf.initializers.* in snake_case ----------------------------------------
@takes_options
def zeros():
    return Zeros()


@takes_options
def ones():
    return Ones()


@takes_options
def constant(value):
    return Constant(value)


@takes_options
def random_uniform(minval=-0.05, maxval=0.05, seed=None):
    return RandomUniform(minval, maxval, seed)


@takes_options
def random_normal(mean=0.0, stddev=0.05, seed=None):
    return RandomNormal(mean, stddev, seed)


@takes_options
def truncated_normal(mean=0.0, stddev=0.05, seed=None):
    return TruncatedNormal(mean, stddev, seed)


@takes_options
def identity(gain=1.0):
    return Identity(gain)


@takes_options
def variance_scaling(scale=1.0, mode="fan_in", distribution="normal", seed=None):
    return VarianceScaling(scale, mode, distribution, seed)


@takes_options
def glorot_uniform(seed=None):
    return VarianceScaling(1.0, "fan_avg", "uniform", seed)


@takes_options
def glorot_normal(seed=None):
    return VarianceScaling(1.0, "fan_avg", "normal", seed)


@takes_options
def he_uniform(seed=None):
    return VarianceScaling(2.0, "fan_in", "uniform", seed)


@takes_options
def he_normal(seed=None):
    return VarianceScaling(2.0, "fan_in", "normal", seed)


@takes_options
def le_cun_uniform(seed=None):
    return VarianceScaling(1.0, "fan_in", "uniform", seed)


@takes_options
def le_cun_normal(seed=None):
    return VarianceScaling(1.0, "fan_in", "normal", seed)


@takes_options
def orthogonal(gain=1.0, seed=None):
    return Orthogonal(gain, seed)


# Keras spells LeCun without the break.
lecun_uniform, lecun_normal = le_cun_uniform, le_cun_normal

_BY_NAME = {f.__name__: f for f in (zeros, ones, random_uniform, random_normal, truncated_normal, identity,
                                     variance_scaling, glorot_uniform, glorot_normal, he_uniform, he_normal,
                                     le_cun_uniform, le_cun_normal, orthogonal)}
_BY_NAME.update(lecun_uniform=le_cun_uniform, lecun_normal=le_cun_normal)


def get(identifier):
    """An Initializer from an Initializer, a function (shape, dtype) -> Tensor, or a name."""
    if isinstance(identifier, Initializer):
        return identifier
    if isinstance(identifier, str):
        return lookup(identifier, _BY_NAME, "initializer")()
    if callable(identifier):
        return identifier
    raise TypeError(f"Unknown initializer {identifier!r}")


# --- from model files: TF.js's and Keras's initializer class names -------------------------------------
def _named(factory):
    def make(seed=None, **_):
        return factory(seed)
    return make


CLASSES = {c.class_name: c for c in (Zeros, Ones, Constant, RandomUniform, RandomNormal, TruncatedNormal, Identity,
                                     VarianceScaling, Orthogonal)}
# Keras writes these (TF.js writes them all as VarianceScaling); they take only a seed
CLASSES.update(GlorotUniform=_named(glorot_uniform), GlorotNormal=_named(glorot_normal), HeUniform=_named(he_uniform),
               HeNormal=_named(he_normal), LeCunUniform=_named(le_cun_uniform), LeCunNormal=_named(le_cun_normal))


def class_for(name):
    """The initializer class (or maker) for a class_name in a model file, or None."""
    return CLASSES.get(name)
