"""tf.regularizers: weight penalties added to the training loss (tfjs-layers regularizers.ts)."""
import sys
from .. import ops
from ._utils import lookup, takes_options


class Regularizer:
    """Base class of weight regularizers: a penalty on a weight added to the training loss
    (`regularizer(x)` or regularizer.apply(x)).

    Example:
        >>> tf.regularizers.l2(0.1).apply(tf.tensor([1, -2])).print()
        Tensor
            0.5
    """
    class_name = "Regularizer"

    def __call__(self, x):
        raise NotImplementedError

    def apply(self, x):
        """The penalty for x (TF.js's name for calling the regularizer).

        Args:
            x: the weight's values.

        Returns:
            A scalar Tensor.
        """
        return self(x)

    def get_class_name(self):
        """TF.js's class name ('L1L2').

        Returns:
            The name.
        """
        return self.class_name


class L1L2(Regularizer):
    """The penalty l1 * sum(|x|) + l2 * sum(x^2) (tf.regularizers.l1l2, l1, l2).

    Example:
        >>> tf.regularizers.L1L2(l1=0.1, l2=0.1).apply(tf.tensor([1, -2])).print()
        Tensor
            0.8
    """
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
        """The regularizer's arguments.

        Returns:
            {'l1': ..., 'l2': ...}.
        """
        return {"l1": self.l1, "l2": self.l2}


@takes_options
def l1l2(l1: float = 0.01, l2: float = 0.01) -> L1L2:
    """An L1L2 regularizer: l1 * sum(|x|) + l2 * sum(x^2).

    Args:
        l1: the weight of the L1 penalty.
        l2: the weight of the L2 penalty.

    Returns:
        An L1L2 regularizer.

    Example:
        >>> layer = tf.layers.dense(units=2, kernel_regularizer=tf.regularizers.l1l2(l1=0.01, l2=0.01))
        >>> tf.regularizers.l1l2(0.1, 0.1).apply(tf.tensor([1, -2])).print()
        Tensor
            0.8
    """
    return L1L2(l1, l2)


@takes_options
def l1(l1: float = 0.01) -> L1L2:  # noqa: E743 - TF.js name
    """An L1 regularizer: l1 * sum(|x|).

    Args:
        l1: the weight of the penalty.

    Returns:
        An L1L2 regularizer with l2 = 0.

    Example:
        >>> tf.regularizers.l1(0.1).apply(tf.tensor([1, -2])).print()
        Tensor
            0.3
    """
    return L1L2(l1=l1, l2=0)


@takes_options
def l2(l2: float = 0.01) -> L1L2:
    """An L2 regularizer: l2 * sum(x^2).

    Args:
        l2: the weight of the penalty.

    Returns:
        An L1L2 regularizer with l1 = 0.

    Example:
        >>> tf.regularizers.l2(0.1).apply(tf.tensor([1, -2])).print()
        Tensor
            0.5
    """
    return L1L2(l1=0, l2=l2)


_BY_NAME = {"l1l2": l1l2, "l1_l2": l1l2, "l1": l1, "l2": l2}


def get(identifier):
    """A regularizer from a Regularizer, a function (tensor -> scalar), a name, or None."""
    if identifier is None or isinstance(identifier, Regularizer):
        return identifier
    if isinstance(identifier, str):
        return lookup(identifier, _BY_NAME, "regularizer")()
    if isinstance(identifier, dict):   # serialized: {className, config} (TF.js) or {class_name, config}
        from .registry import object_from_identifier
        return object_from_identifier(identifier, sys.modules[__name__], "regularizer")
    return lookup(identifier, _BY_NAME, "regularizer")


CLASSES = {"L1L2": L1L2, "L1": lambda l1=0.01, **_: L1L2(l1=l1, l2=0), "L2": lambda l2=0.01, **_: L1L2(l1=0, l2=l2)}


def class_for(name):
    """The regularizer class for a class_name in a model file (TF.js's, and Keras's L1 / L2), or None."""
    return CLASSES.get(name)
