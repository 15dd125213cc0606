"""tf.train: the optimizers of TensorFlow.js, with its update rules step for step.

    opt = tf.train.adam(0.01)
    for _ in range(100):
        opt.minimize(lambda: tf.mean(tf.square(tf.sub(tf.add(tf.mul(a, xs), b), ys))))

Factories take TF.js's arguments in TF.js's order, snake_case; epsilon=None means the active
backend's epsilon (1e-7 for float32, 1e-4 on a half-float webgl context).
"""
from typing import Optional

from .adadelta import AdadeltaOptimizer
from .adagrad import AdagradOptimizer
from .adam import AdamOptimizer
from .adamax import AdamaxOptimizer
from .momentum import MomentumOptimizer
from .optimizer import Optimizer, OptimizerVariable
from .rmsprop import RMSPropOptimizer
from .sgd import SGDOptimizer


def sgd(learning_rate: float) -> SGDOptimizer:
    """Stochastic gradient descent: value -= learning_rate * gradient.

    Args:
        learning_rate: the step size.

    Returns:
        An SGDOptimizer.

    Example:
        >>> w = tf.variable(tf.tensor([1, -2]))
        >>> tf.train.sgd(0.5).minimize(lambda: w.square().sum())
        >>> w.array_sync()
        [0.0, 0.0]
    """
    return SGDOptimizer(learning_rate)


def momentum(learning_rate: float, momentum: float, use_nesterov: bool = False) -> MomentumOptimizer:
    """Gradient descent with momentum (Nesterov's when use_nesterov).

    Args:
        learning_rate: the step size.
        momentum: the momentum, the fraction of the previous update kept.
        use_nesterov: use Nesterov momentum.

    Returns:
        A MomentumOptimizer.

    Example:
        >>> opt = tf.train.momentum(0.1, 0.9)
        >>> opt.get_config()
        {'learning_rate': 0.1, 'momentum': 0.9, 'use_nesterov': False}
    """
    return MomentumOptimizer(learning_rate, momentum, use_nesterov)


def rmsprop(learning_rate: float, decay: float = 0.9, momentum: float = 0.0, epsilon: Optional[float] = None,
            centered: bool = False) -> RMSPropOptimizer:
    """RMSProp with plain momentum; centered normalises by the estimated gradient variance.

    Args:
        learning_rate: the step size.
        decay: the decay of the mean square of the gradients.
        momentum: the momentum.
        epsilon: added for stability (None: the backend's epsilon, 1e-7 for float32).
        centered: normalise by the estimated variance of the gradients.

    Returns:
        An RMSPropOptimizer.

    Example:
        >>> tf.train.rmsprop(0.01).get_class_name()
        'RMSProp'
    """
    return RMSPropOptimizer(learning_rate, decay, momentum, epsilon, centered)


def adam(learning_rate: float = 0.001, beta1: float = 0.9, beta2: float = 0.999,
         epsilon: Optional[float] = None) -> AdamOptimizer:
    """Adam (https://arxiv.org/abs/1412.6980).

    Args:
        learning_rate: the step size.
        beta1: the decay of the first moment estimates.
        beta2: the decay of the second moment estimates.
        epsilon: added for stability (None: the backend's epsilon, 1e-7 for float32).

    Returns:
        An AdamOptimizer.

    Example:
        >>> w = tf.variable(tf.tensor([1, -1]))
        >>> tf.train.adam(0.1).minimize(lambda: w.square().sum())
        >>> [round(v, 4) for v in w.array_sync()]   # Adam's first step moves each weight by the rate
        [0.9, -0.9]
    """
    return AdamOptimizer(learning_rate, beta1, beta2, epsilon)


def adadelta(learning_rate: float = 0.001, rho: float = 0.95, epsilon: Optional[float] = None) -> AdadeltaOptimizer:
    """Adadelta (https://arxiv.org/abs/1212.5701).

    Args:
        learning_rate: the step size.
        rho: the decay of the running averages.
        epsilon: added for stability (None: the backend's epsilon).

    Returns:
        An AdadeltaOptimizer.

    Example:
        >>> tf.train.adadelta().get_config()["rho"]
        0.95
    """
    return AdadeltaOptimizer(learning_rate, rho, epsilon)


def adamax(learning_rate: float = 0.002, beta1: float = 0.9, beta2: float = 0.999, epsilon: Optional[float] = None,
           decay: float = 0.0) -> AdamaxOptimizer:
    """Adamax (https://arxiv.org/abs/1412.6980), with an optional learning-rate decay per step.

    Args:
        learning_rate: the step size.
        beta1: the decay of the first moment estimates.
        beta2: the decay of the weighted infinity norm.
        epsilon: added for stability (None: the backend's epsilon).
        decay: the learning rate's decay per step.

    Returns:
        An AdamaxOptimizer.

    Example:
        >>> tf.train.adamax().get_class_name()
        'Adamax'
    """
    return AdamaxOptimizer(learning_rate, beta1, beta2, epsilon, decay)


def adagrad(learning_rate: float, initial_accumulator_value: float = 0.1) -> AdagradOptimizer:
    """Adagrad; the accumulators start at initial_accumulator_value.

    Args:
        learning_rate: the step size.
        initial_accumulator_value: the starting value of the accumulated squared gradients.

    Returns:
        An AdagradOptimizer.

    Example:
        >>> tf.train.adagrad(0.1).get_config()
        {'learning_rate': 0.1, 'initial_accumulator_value': 0.1}
    """
    return AdagradOptimizer(learning_rate, initial_accumulator_value)


__all__ = ["sgd", "momentum", "rmsprop", "adam", "adadelta", "adamax", "adagrad",
           "Optimizer", "OptimizerVariable", "SGDOptimizer", "MomentumOptimizer", "RMSPropOptimizer",
           "AdamOptimizer", "AdadeltaOptimizer", "AdamaxOptimizer", "AdagradOptimizer"]
