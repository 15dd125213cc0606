"""Activation functions by TF.js name ('relu', 'hardSigmoid', ...) or Keras name ('hard_sigmoid').

Each is a plain function of one tensor; where the op exists it is used, otherwise the
activation is composed from ops exactly as tfjs-layers/src/activations.ts composes it.
"""
import functools
import math

from .. import ops
from ..core.api import tidy
from ._utils import lookup


def _tidied(fn):
    """As TF.js's composed activations (K.hardSigmoid and the like run in tidy): only the result
    outlives the call."""
    @functools.wraps(fn)
    def run(x, *args):
        return tidy(lambda: fn(x, *args))
    return run


def linear(x):
    return x


def relu(x):
    return ops.relu(x)


def relu6(x):
    return ops.relu6(x)


def elu(x):
    return ops.elu(x)


def selu(x):
    return ops.selu(x)


def sigmoid(x):
    return ops.sigmoid(x)


@_tidied
def hard_sigmoid(x):
    # TF.js: clip(0.2 * x + 0.5, 0, 1)
    return ops.clip_by_value(ops.add(ops.mul(x, 0.2), 0.5), 0, 1)


def tanh(x):
    return ops.tanh(x)


def softplus(x):
    return ops.softplus(x)


@_tidied
def softsign(x):
    return ops.div(x, ops.add(ops.abs(x), 1))


def softmax(x, axis=-1):
    return ops.softmax(x, axis)


def log_softmax(x, axis=-1):
    return ops.log_softmax(x, axis)


@_tidied
def swish(x, alpha=1):
    return ops.mul(ops.sigmoid(ops.mul(x, alpha)), x)


@_tidied
def mish(x):
    return ops.mul(x, ops.tanh(ops.softplus(x)))


@_tidied
def gelu(x):
    # The exact form TF.js uses: 0.5 * x * (1 + erf(x / sqrt(2)))
    return ops.mul(ops.mul(x, 0.5), ops.add(ops.erf(ops.div(x, math.sqrt(2.0))), 1))


@_tidied
def gelu_new(x):
    # The tanh approximation (TF.js's 'gelu_new')
    inner = ops.mul(math.sqrt(2 / math.pi), ops.add(x, ops.mul(ops.pow(x, 3), 0.044715)))
    return ops.mul(ops.mul(x, 0.5), ops.add(ops.tanh(inner), 1))


ACTIVATIONS = {f.__name__: f for f in (linear, relu, relu6, elu, selu, sigmoid, hard_sigmoid, tanh, softplus,
                                        softsign, softmax, log_softmax, swish, mish, gelu, gelu_new)}


# activation function -> the name tf.fused takes for it: layers that can (Dense, the
# convolutions) add their bias and apply these in the product's own kernel
FUSABLE = {linear: "linear", relu: "relu", relu6: "relu6", elu: "elu", sigmoid: "sigmoid"}


def get(identifier):
    """An activation function from a name (TF.js or Keras spelling), a function, or None (linear)."""
    if identifier is None:
        return linear
    return lookup(identifier, ACTIVATIONS, "activation")


def name_of(fn):
    """The TF.js-style name of an activation function (for get_config)."""
    return getattr(fn, "__name__", "custom")
