"""Stochastic gradient descent, as TF.js's SGDOptimizer (sgd_optimizer.ts):

    value += -learning_rate * gradient
"""
from ..ops import optimizer_updates as updates
from .optimizer import Optimizer, assign_all, check_number


class SGDOptimizer(Optimizer):
    """The optimizer tf.train.sgd makes (the same arguments; see the pytfweb.train.sgd module for its
    update rule).

    Example:
        >>> opt = tf.SGDOptimizer(0.1)
        >>> opt.get_config() == tf.train.sgd(0.1).get_config()
        True
    """
    class_name = "SGD"

    def __init__(self, learning_rate):
        super().__init__()
        self._c = None
        self.set_learning_rate(learning_rate)

    def set_learning_rate(self, learning_rate):
        """Change the learning rate, from the next step on.

        Args:
            learning_rate: the new learning rate.
        """
        self.learning_rate = check_number(learning_rate, "learning_rate", type(self).__name__, minimum=0)
        self._c = self._replace_constant(self._c, -self.learning_rate)

    def _update(self, value, gradient, slots, step):
        if self._fused_update("ApplyGradientDescent", value, gradient, [], [],
                              {"learning_rate": self.learning_rate}):
            return
        assign_all([value], updates.gradient_descent(value, gradient, self._c))

    def get_config(self):
        return {"learning_rate": self.learning_rate}
