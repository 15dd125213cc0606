"""tf.regularizers: weight penalties added to the training loss (tfjs-layers regularizers.ts)."""
from .. import ops
from ._utils import lookup, takes_options


class Regularizer:
    class_name = "Regularizer"

    def __call__(self, x):
        raise NotImplementedError

    def apply(self, x):
        """The penalty for x (TF.js's name for calling the regularizer)."""
        return self(x)

    def get_class_name(self):
        return self.class_name


class L1L2(Regularizer):
    """l1 * sum(|x|) + l2 * sum(x^2)."""
    class_name = "L1L2"

    def __init__(self, l1=0.01, l2=0.01):
        self.l1, self.l2 = l1, l2

    def __call__(self, x):
        penalty = ops.zeros([])
        if self.l1:
            penalty = ops.add(penalty, ops.mul(ops.sum(ops.abs(x)), self.l1))
        if self.l2:
            penalty = ops.add(penalty, ops.mul(ops.sum(ops.square(x)), self.l2))
        return penalty

    def get_config(self):
        return {"l1": self.l1, "l2": self.l2}


@takes_options
def l1l2(l1=0.01, l2=0.01):
    return L1L2(l1, l2)


@takes_options
def l1(l1=0.01):  # noqa: E743 - TF.js name
    return L1L2(l1=l1, l2=0)


@takes_options
def l2(l2=0.01):
    return L1L2(l1=0, l2=l2)


_BY_NAME = {"l1l2": l1l2, "l1_l2": l1l2, "l1": l1, "l2": l2}


def get(identifier):
    """A regularizer from a Regularizer, a function (tensor -> scalar), a name, or None."""
    if identifier is None or isinstance(identifier, Regularizer):
        return identifier
    if isinstance(identifier, str):
        return lookup(identifier, _BY_NAME, "regularizer")()
    return lookup(identifier, _BY_NAME, "regularizer")


CLASSES = {"L1L2": L1L2, "L1": lambda l1=0.01, **_: L1L2(l1=l1, l2=0), "L2": lambda l2=0.01, **_: L1L2(l1=0, l2=l2)}


def class_for(name):
    """The regularizer class for a class_name in a model file (TF.js's, and Keras's L1 / L2), or None."""
    return CLASSES.get(name)
