"""tf.train: the optimizers of TensorFlow.js, with its update rules step for step.

    opt = tf.train.adam(0.01)
    for _ in range(100):
        opt.minimize(lambda: tf.mean(tf.square(tf.sub(tf.add(tf.mul(a, xs), b), ys))))

Factories take TF.js's arguments in TF.js's order, snake_case; epsilon=None means the active
backend's epsilon (1e-7 for float32, 1e-4 on a half-float webgl context).
"""
from .adadelta import AdadeltaOptimizer
from .adagrad import AdagradOptimizer
from .adam import AdamOptimizer
from .adamax import AdamaxOptimizer
from .momentum import MomentumOptimizer
from .optimizer import Optimizer, OptimizerVariable
from .rmsprop import RMSPropOptimizer
from .sgd import SGDOptimizer


def sgd(learning_rate):
    """Stochastic gradient descent."""
    return SGDOptimizer(learning_rate)


def momentum(learning_rate, momentum, use_nesterov=False):
    """Gradient descent with momentum (Nesterov's when use_nesterov)."""
    return MomentumOptimizer(learning_rate, momentum, use_nesterov)


def rmsprop(learning_rate, decay=0.9, momentum=0.0, epsilon=None, centered=False):
    """RMSProp with plain momentum; centered normalises by the estimated gradient variance."""
    return RMSPropOptimizer(learning_rate, decay, momentum, epsilon, centered)


def adam(learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=None):
    """Adam (https://arxiv.org/abs/1412.6980)."""
    return AdamOptimizer(learning_rate, beta1, beta2, epsilon)


def adadelta(learning_rate=0.001, rho=0.95, epsilon=None):
    """Adadelta (https://arxiv.org/abs/1212.5701)."""
    return AdadeltaOptimizer(learning_rate, rho, epsilon)


def adamax(learning_rate=0.002, beta1=0.9, beta2=0.999, epsilon=None, decay=0.0):
    """Adamax (https://arxiv.org/abs/1412.6980), with an optional learning-rate decay per step."""
    return AdamaxOptimizer(learning_rate, beta1, beta2, epsilon, decay)


def adagrad(learning_rate, initial_accumulator_value=0.1):
    """Adagrad; the accumulators start at initial_accumulator_value."""
    return AdagradOptimizer(learning_rate, initial_accumulator_value)


__all__ = ["sgd", "momentum", "rmsprop", "adam", "adadelta", "adamax", "adagrad",
           "Optimizer", "OptimizerVariable", "SGDOptimizer", "MomentumOptimizer", "RMSPropOptimizer",
           "AdamOptimizer", "AdadeltaOptimizer", "AdamaxOptimizer", "AdagradOptimizer"]
