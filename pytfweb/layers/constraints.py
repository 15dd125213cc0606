"""tf.constraints: projections applied to a weight after each optimizer step (tfjs-layers
constraints.ts). Keras applies them after the update; so does fit() here."""
import sys
from .. import ops
from ..core.api import tidy
from ._utils import epsilon, lookup, takes_options


class Constraint:
    """Base class of weight constraints: a projection applied to a weight after each training update
    (`constraint(w)` or constraint.apply(w)).

    Example:
        >>> tf.constraints.non_neg().apply(tf.tensor([-1, 2])).print()
        Tensor
            [0, 2]
    """
    class_name = "Constraint"

    def __call__(self, w):
        raise NotImplementedError

    def apply(self, w):
        """The weight projected by the constraint (TF.js's name for calling it).

        Args:
            w: the weight's values.

        Returns:
            A new Tensor of w's shape.
        """
        return tidy(lambda: self(w))   # as TF.js: only the result outlives the call

    def get_class_name(self):
        """TF.js's class name ('MaxNorm', ...).

        Returns:
            The name.
        """
        return self.class_name

    def get_config(self):
        """The constraint's arguments (TF.js's getConfig, snake_case).

        Returns:
            A dict.
        """
        return {k: getattr(self, k) for k in self.config_keys}

    config_keys = ()


def _norms(w, axis):
    return ops.sqrt(ops.sum(ops.square(w), axis, True))


class MaxNorm(Constraint):
    """Scale the weight's slices along axis down to a norm of at most max_value (tf.constraints.max_norm).

    Example:
        >>> tf.constraints.MaxNorm(2).apply(tf.tensor([[3], [4]])).print()
        Tensor
            [[1.2],
             [1.6]]
    """
    class_name = "MaxNorm"
    config_keys = ("max_value", "axis")

    def __init__(self, max_value=2, axis=0):
        self.max_value, self.axis = max_value, axis

    def __call__(self, w):
        norms = _norms(w, self.axis)
        desired = ops.clip_by_value(norms, 0, self.max_value)
        return ops.mul(w, ops.div(desired, ops.add(norms, epsilon())))


class UnitNorm(Constraint):
    """Scale the weight's slices along axis to a norm of 1 (tf.constraints.unit_norm).

    Example:
        >>> tf.constraints.UnitNorm().apply(tf.tensor([[3], [4]])).print()
        Tensor
            [[0.6],
             [0.8]]
    """
    class_name = "UnitNorm"
    config_keys = ("axis",)

    def __init__(self, axis=0):
        self.axis = axis

    def __call__(self, w):
        return ops.div(w, ops.add(_norms(w, self.axis), epsilon()))


class NonNeg(Constraint):
    """Set negative weights to 0 (tf.constraints.non_neg).

    Example:
        >>> tf.constraints.NonNeg().apply(tf.tensor([-1, 2])).print()
        Tensor
            [0, 2]
    """
    class_name = "NonNeg"

    def __call__(self, w):
        return ops.relu(w)


class MinMaxNorm(Constraint):
    """Move the norm of the weight's slices along axis toward [min_value, max_value], by rate
    (tf.constraints.min_max_norm).

    Example:
        >>> tf.constraints.MinMaxNorm(min_value=1, max_value=2).get_config()
        {'min_value': 1, 'max_value': 2, 'rate': 1.0, 'axis': 0}
    """
    class_name = "MinMaxNorm"
    config_keys = ("min_value", "max_value", "rate", "axis")

    def __init__(self, min_value=0.0, max_value=1.0, rate=1.0, axis=0):
        self.min_value, self.max_value, self.rate, self.axis = min_value, max_value, rate, axis

    def __call__(self, w):
        norms = _norms(w, self.axis)
        desired = ops.add(ops.mul(ops.clip_by_value(norms, self.min_value, self.max_value), self.rate),
                          ops.mul(norms, 1 - self.rate))
        return ops.mul(w, ops.div(desired, ops.add(norms, epsilon())))


@takes_options
def max_norm(max_value: float = 2, axis: int = 0) -> MaxNorm:
    """A MaxNorm constraint: each slice along axis scaled down to a norm of at most max_value.

    Args:
        max_value: the largest norm.
        axis: the axis along which norms are taken (0: per column of a Dense kernel).

    Returns:
        A MaxNorm constraint.

    Example:
        >>> layer = tf.layers.dense(units=2, kernel_constraint=tf.constraints.max_norm(max_value=1))
        >>> tf.constraints.max_norm(2).apply(tf.tensor([[3], [4]])).print()
        Tensor
            [[1.2],
             [1.6]]
    """
    return MaxNorm(max_value, axis)


@takes_options
def unit_norm(axis: int = 0) -> UnitNorm:
    """A UnitNorm constraint: each slice along axis scaled to a norm of 1.

    Args:
        axis: the axis along which norms are taken.

    Returns:
        A UnitNorm constraint.

    Example:
        >>> tf.constraints.unit_norm().apply(tf.tensor([[3], [4]])).print()
        Tensor
            [[0.6],
             [0.8]]
    """
    return UnitNorm(axis)


@takes_options
def non_neg() -> NonNeg:
    """A NonNeg constraint: negative weights set to 0.

    Returns:
        A NonNeg constraint.

    Example:
        >>> tf.constraints.non_neg().apply(tf.tensor([-1, 2])).print()
        Tensor
            [0, 2]
    """
    return NonNeg()


@takes_options
def min_max_norm(min_value: float = 0.0, max_value: float = 1.0, rate: float = 1.0, axis: int = 0) -> MinMaxNorm:
    """A MinMaxNorm constraint: the norm of each slice along axis moved toward [min_value, max_value].

    Args:
        min_value: the smallest norm.
        max_value: the largest norm.
        rate: how far to move toward the range (1: all the way).
        axis: the axis along which norms are taken.

    Returns:
        A MinMaxNorm constraint.

    Example:
        >>> tf.constraints.min_max_norm(min_value=1, max_value=2).apply(tf.tensor([[0.3], [0.4]])).print()
        Tensor
            [[0.5999999],
             [0.7999998]]
    """
    return MinMaxNorm(min_value, max_value, rate, axis)


_BY_NAME = {f.__name__: f for f in (max_norm, unit_norm, non_neg, min_max_norm)}


def get(identifier):
    """A constraint from a Constraint, a function (tensor -> tensor), a name, or None."""
    if identifier is None or isinstance(identifier, Constraint):
        return identifier
    if isinstance(identifier, str):
        return lookup(identifier, _BY_NAME, "constraint")()
    if isinstance(identifier, dict):   # serialized: {className, config} (TF.js) or {class_name, config}
        from .registry import object_from_identifier
        return object_from_identifier(identifier, sys.modules[__name__], "constraint")
    return lookup(identifier, _BY_NAME, "constraint")


CLASSES = {c.class_name: c for c in (MaxNorm, UnitNorm, NonNeg, MinMaxNorm)}


def class_for(name):
    """The constraint class for a class_name in a model file, or None."""
    return CLASSES.get(name)
