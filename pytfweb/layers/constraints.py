"""tf.constraints: projections applied to a weight after each optimizer step (tfjs-layers
constraints.ts). Keras applies them after the update; so does fit() here."""
from .. import ops
from ._utils import epsilon, lookup, takes_options


class Constraint:
    class_name = "Constraint"

    def __call__(self, w):
        raise NotImplementedError

    def apply(self, w):
        """w projected by the constraint (TF.js's name for calling it)."""
        return self(w)

    def get_class_name(self):
        return self.class_name

    def get_config(self):
        return {k: getattr(self, k) for k in self.config_keys}

    config_keys = ()


def _norms(w, axis):
    return ops.sqrt(ops.sum(ops.square(w), axis, True))


class MaxNorm(Constraint):
    class_name = "MaxNorm"
    config_keys = ("max_value", "axis")

    def __init__(self, max_value=2, axis=0):
        self.max_value, self.axis = max_value, axis

    def __call__(self, w):
        norms = _norms(w, self.axis)
        desired = ops.clip_by_value(norms, 0, self.max_value)
        return ops.mul(w, ops.div(desired, ops.add(norms, epsilon())))


class UnitNorm(Constraint):
    class_name = "UnitNorm"
    config_keys = ("axis",)

    def __init__(self, axis=0):
        self.axis = axis

    def __call__(self, w):
        return ops.div(w, ops.add(_norms(w, self.axis), epsilon()))


class NonNeg(Constraint):
    class_name = "NonNeg"

    def __call__(self, w):
        return ops.relu(w)


class MinMaxNorm(Constraint):
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
def max_norm(max_value=2, axis=0):
    return MaxNorm(max_value, axis)


@takes_options
def unit_norm(axis=0):
    return UnitNorm(axis)


@takes_options
def non_neg():
    return NonNeg()


@takes_options
def min_max_norm(min_value=0.0, max_value=1.0, rate=1.0, axis=0):
    return MinMaxNorm(min_value, max_value, rate, axis)


_BY_NAME = {f.__name__: f for f in (max_norm, unit_norm, non_neg, min_max_norm)}


def get(identifier):
    """A constraint from a Constraint, a function (tensor -> tensor), a name, or None."""
    if identifier is None or isinstance(identifier, Constraint):
        return identifier
    if isinstance(identifier, str):
        return lookup(identifier, _BY_NAME, "constraint")()
    return lookup(identifier, _BY_NAME, "constraint")


CLASSES = {c.class_name: c for c in (MaxNorm, UnitNorm, NonNeg, MinMaxNorm)}


def class_for(name):
    """The constraint class for a class_name in a model file, or None."""
    return CLASSES.get(name)
