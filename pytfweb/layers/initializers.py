"""tf.initializers: weight initializers as in tfjs-layers/src/initializers.ts.

An initializer is a callable object: init(shape, dtype='float32') -> Tensor. Layers accept an
Initializer, a TF.js name ('glorotUniform'), a Keras name ('glorot_uniform') or a function.
"""
import array
import contextlib
import functools
import math
import sys
from typing import Optional

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
    """Base class of weight initializers: `initializer(shape, dtype)` (or initializer.apply(shape,
    dtype)) makes a tensor of initial values; layers take them (or their names) as
    kernel_initializer and the like.

    Example:
        >>> tf.initializers.constant(value=3).apply([2, 2]).print()
        Tensor
            [[3, 3],
             [3, 3]]
    """
    class_name = "Initializer"

    def __init_subclass__(cls, **kwargs):
        # apply is TF.js's public name and TF.js runs it in tidy: every subclass's apply keeps only its result
        super().__init_subclass__(**kwargs)
        fn = cls.__dict__.get("apply")
        if fn is not None and not getattr(fn, "tidied", False):
            @functools.wraps(fn)
            def apply(self, shape, *args, **kw):
                return tidy(lambda: fn(self, list(shape), *args, **kw))
            apply.tidied = True
            cls.apply = apply

    def __call__(self, shape, dtype="float32"):
        return self.apply(list(shape), dtype)

    def apply(self, shape, dtype="float32"):
        """Initial values for a weight.

        Args:
            shape: the weight's shape.
            dtype: its dtype.

        Returns:
            A new Tensor of shape.
        """
        raise NotImplementedError

    def get_config(self):
        """The initializer's arguments (TF.js's getConfig, snake_case).

        Returns:
            A dict.
        """
        return {}

    def get_class_name(self):
        """TF.js's class name ('Zeros', 'VarianceScaling', ...).

        Returns:
            The name.
        """
        return self.class_name


class Zeros(Initializer):
    """Zeros (tf.initializers.zeros).

    Example:
        >>> tf.initializers.Zeros().apply([3]).print()
        Tensor
            [0, 0, 0]
    """
    class_name = "Zeros"

    def apply(self, shape, dtype="float32"):
        return ops.zeros(shape, dtype)


class Ones(Initializer):
    """Ones (tf.initializers.ones).

    Example:
        >>> tf.initializers.Ones().apply([3]).print()
        Tensor
            [1, 1, 1]
    """
    class_name = "Ones"

    def apply(self, shape, dtype="float32"):
        return ops.ones(shape, dtype)


class Constant(Initializer):
    """One value everywhere (tf.initializers.constant); as TF.js, the result is float32 whatever the dtype.

    Example:
        >>> tf.initializers.Constant(2.5).apply([2]).print()
        Tensor
            [2.5, 2.5]
    """
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
    """Values drawn uniformly from [minval, maxval) (tf.initializers.random_uniform).

    Example:
        >>> tf.initializers.RandomUniform(-1, 1, seed=1).get_config()
        {'minval': -1, 'maxval': 1, 'seed': 1}
    """
    class_name = "RandomUniform"

    def __init__(self, minval=-0.05, maxval=0.05, seed=None):
        self.minval, self.maxval, self.seed = minval, maxval, seed

    def apply(self, shape, dtype="float32"):
        return ops.random_uniform(shape, self.minval, self.maxval, dtype, self.seed)

    def get_config(self):
        return {"minval": self.minval, "maxval": self.maxval, "seed": self.seed}


class RandomNormal(Initializer):
    """Values from a normal distribution (tf.initializers.random_normal).

    Example:
        >>> tf.initializers.RandomNormal(0, 0.1, seed=1).apply([2, 3]).shape
        (2, 3)
    """
    class_name = "RandomNormal"

    def __init__(self, mean=0.0, stddev=0.05, seed=None):
        self.mean, self.stddev, self.seed = mean, stddev, seed

    def apply(self, shape, dtype="float32"):
        _normal_dtype(self, dtype)
        return ops.random_normal(shape, self.mean, self.stddev, dtype, self.seed)

    def get_config(self):
        return {"mean": self.mean, "stddev": self.stddev, "seed": self.seed}


class TruncatedNormal(RandomNormal):
    """Values from a normal distribution, redrawn beyond 2 stddev (tf.initializers.truncated_normal).

    Example:
        >>> bool(tf.abs(tf.initializers.TruncatedNormal(0, 1, seed=2).apply([500])).max() <= 2)
        True
    """
    class_name = "TruncatedNormal"

    def apply(self, shape, dtype="float32"):
        _normal_dtype(self, dtype)
        return ops.truncated_normal(shape, self.mean, self.stddev, dtype, self.seed)


class Identity(Initializer):
    """gain times the identity matrix (2D square shapes only; tf.initializers.identity).

    Example:
        >>> tf.initializers.Identity(gain=2).apply([2, 2]).print()
        Tensor
            [[2, 0],
             [0, 2]]
    """
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
    """Values scaled to the weight's size: a truncated normal of stddev sqrt(scale / fan) (with the untruncated stddev,
    as TF.js) or a uniform draw in +-sqrt(3 scale / fan), fan being fan_in, fan_out or their mean
    (tf.initializers.variance_scaling).

    Example:
        >>> tf.initializers.VarianceScaling(mode='fan_avg', distribution='uniform').get_config()
        {'scale': 1.0, 'mode': 'fan_avg', 'distribution': 'uniform', 'seed': None}
    """
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
            raise ValueError(f"variance_scaling: unknown distribution {distribution!r}; expected normal, "
                             f"truncated_normal or uniform")
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
    """A random orthogonal matrix times gain (of the shape flattened to 2D; tf.initializers.orthogonal).

    Example:
        >>> q = tf.initializers.Orthogonal(seed=3).apply([3, 3])
        >>> bool(tf.abs(q.mat_mul(q, transpose_a=True).sub(tf.eye(3))).max() < 1e-5)
        True
    """
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
def zeros() -> Zeros:
    """An initializer of zeros.

    Returns:
        A Zeros initializer.

    Example:
        >>> tf.initializers.zeros().apply([2]).print()
        Tensor
            [0, 0]
    """
    return Zeros()


@takes_options
def ones() -> Ones:
    """An initializer of ones.

    Returns:
        A Ones initializer.

    Example:
        >>> tf.initializers.ones().apply([2]).print()
        Tensor
            [1, 1]
    """
    return Ones()


@takes_options
def constant(value: float) -> Constant:
    """An initializer of one value everywhere (float32 whatever the dtype, as TF.js).

    Args:
        value: the value (a number).

    Returns:
        A Constant initializer.

    Example:
        >>> tf.initializers.constant(value=7).apply([2]).print()
        Tensor
            [7, 7]
    """
    return Constant(value)


@takes_options
def random_uniform(minval: float = -0.05, maxval: float = 0.05, seed: Optional[float] = None) -> RandomUniform:
    """An initializer drawing uniformly from [minval, maxval).

    Args:
        minval: the lower bound.
        maxval: the upper bound.
        seed: a seed for reproducible values.

    Returns:
        A RandomUniform initializer.

    Example:
        >>> w = tf.initializers.random_uniform(minval=0, maxval=1, seed=1).apply([100])
        >>> bool(w.min() >= 0), bool(w.max() < 1)
        (True, True)
    """
    return RandomUniform(minval, maxval, seed)


@takes_options
def random_normal(mean: float = 0.0, stddev: float = 0.05, seed: Optional[float] = None) -> RandomNormal:
    """An initializer drawing from a normal distribution.

    Args:
        mean: the mean.
        stddev: the standard deviation.
        seed: a seed for reproducible values.

    Returns:
        A RandomNormal initializer.

    Example:
        >>> tf.initializers.random_normal(stddev=0.1, seed=1).apply([2, 2]).shape
        (2, 2)
    """
    return RandomNormal(mean, stddev, seed)


@takes_options
def truncated_normal(mean: float = 0.0, stddev: float = 0.05, seed: Optional[float] = None) -> TruncatedNormal:
    """An initializer drawing from a normal distribution, redrawn beyond 2 stddev.

    Args:
        mean: the mean.
        stddev: the standard deviation.
        seed: a seed for reproducible values.

    Returns:
        A TruncatedNormal initializer.

    Example:
        >>> bool(tf.abs(tf.initializers.truncated_normal(stddev=1, seed=1).apply([500])).max() <= 2)
        True
    """
    return TruncatedNormal(mean, stddev, seed)


@takes_options
def identity(gain: float = 1.0) -> Identity:
    """An initializer of gain times the identity matrix (2D square shapes only).

    Args:
        gain: the diagonal's value.

    Returns:
        A Identity initializer.

    Example:
        >>> tf.initializers.identity().apply([2, 2]).print()
        Tensor
            [[1, 0],
             [0, 1]]
    """
    return Identity(gain)


@takes_options
def variance_scaling(scale: float = 1.0, mode: str = "fan_in", distribution: str = "normal",
                     seed: Optional[float] = None) -> VarianceScaling:
    """An initializer scaled to the weight's size: stddev sqrt(scale / fan) for 'normal' (a truncated normal, as TF.js),
    limits +-sqrt(3 scale / fan) for 'uniform'.

    Args:
        scale: the scale (non-negative).
        mode: the fan: 'fan_in', 'fan_out' or 'fan_avg' (TF.js's 'fanIn' ... too).
        distribution: 'normal', 'truncated_normal' or 'uniform'.
        seed: a seed for reproducible values.

    Returns:
        A VarianceScaling initializer.

    Example:
        >>> w = tf.initializers.variance_scaling(scale=3, distribution='uniform', seed=1).apply([4, 2])
        >>> bool(tf.abs(w).max() <= 1.5)   # limit sqrt(3 * 3 / 4)
        True
    """
    return VarianceScaling(scale, mode, distribution, seed)


@takes_options
def glorot_uniform(seed: Optional[float] = None) -> VarianceScaling:
    """Glorot (Xavier) uniform: limits +-sqrt(6 / (fan_in + fan_out)); TF.js's default kernel initializer.

    Args:
        seed: a seed for reproducible values.

    Returns:
        A VarianceScaling initializer.

    Example:
        >>> w = tf.initializers.glorot_uniform(seed=1).apply([2, 3])
        >>> bool(tf.abs(w).max() <= (6 / 5) ** 0.5)
        True
    """
    return VarianceScaling(1.0, "fan_avg", "uniform", seed)


@takes_options
def glorot_normal(seed: Optional[float] = None) -> VarianceScaling:
    """Glorot (Xavier) normal: stddev sqrt(2 / (fan_in + fan_out)).

    Args:
        seed: a seed for reproducible values.

    Returns:
        A VarianceScaling initializer.

    Example:
        >>> tf.initializers.glorot_normal(seed=1).get_config()
        {'scale': 1.0, 'mode': 'fan_avg', 'distribution': 'normal', 'seed': 1}
    """
    return VarianceScaling(1.0, "fan_avg", "normal", seed)


@takes_options
def he_uniform(seed: Optional[float] = None) -> VarianceScaling:
    """He uniform: limits +-sqrt(6 / fan_in).

    Args:
        seed: a seed for reproducible values.

    Returns:
        A VarianceScaling initializer.

    Example:
        >>> tf.initializers.he_uniform().get_config()['mode']
        'fan_in'
    """
    return VarianceScaling(2.0, "fan_in", "uniform", seed)


@takes_options
def he_normal(seed: Optional[float] = None) -> VarianceScaling:
    """He normal: stddev sqrt(2 / fan_in).

    Args:
        seed: a seed for reproducible values.

    Returns:
        A VarianceScaling initializer.

    Example:
        >>> tf.initializers.he_normal().get_config()['scale']
        2.0
    """
    return VarianceScaling(2.0, "fan_in", "normal", seed)


@takes_options
def le_cun_uniform(seed: Optional[float] = None) -> VarianceScaling:
    """LeCun uniform: limits +-sqrt(3 / fan_in).

    Args:
        seed: a seed for reproducible values.

    Returns:
        A VarianceScaling initializer.

    Example:
        >>> tf.initializers.le_cun_uniform().get_config()['distribution']
        'uniform'
    """
    return VarianceScaling(1.0, "fan_in", "uniform", seed)


@takes_options
def le_cun_normal(seed: Optional[float] = None) -> VarianceScaling:
    """LeCun normal: stddev sqrt(1 / fan_in).

    Args:
        seed: a seed for reproducible values.

    Returns:
        A VarianceScaling initializer.

    Example:
        >>> tf.initializers.le_cun_normal().get_config()['distribution']
        'normal'
    """
    return VarianceScaling(1.0, "fan_in", "normal", seed)


@takes_options
def orthogonal(gain: float = 1.0, seed: Optional[float] = None) -> Orthogonal:
    """An initializer of a random orthogonal matrix times gain (the shape flattened to 2D).

    Args:
        gain: the factor.
        seed: a seed for reproducible values.

    Returns:
        A Orthogonal initializer.

    Example:
        >>> tf.initializers.orthogonal(seed=1).apply([2, 2]).shape
        (2, 2)
    """
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
    if isinstance(identifier, dict):   # serialized: {className, config} (TF.js) or {class_name, config}
        from .registry import object_from_identifier
        return object_from_identifier(identifier, sys.modules[__name__], "initializer")
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
