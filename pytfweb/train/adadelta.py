"""Adadelta, as TF.js's AdadeltaOptimizer (adadelta_optimizer.ts), with two slots per variable,
"<name>/accum_grad" and "<name>/accum_var":

    new_accum_grad = rho * accum_grad + (1 - rho) * gradient^2
    updates = sqrt(accum_var + epsilon) / sqrt(accum_grad + epsilon) * gradient
    accum_var = rho * accum_var + (1 - rho) * updates^2
    accum_grad = new_accum_grad
    value += -learning_rate * updates

As in TF.js, `updates` divides by the accumulated squared gradient of the previous step
(the paper and TF Python use the new one).
"""
from ..ops import optimizer_updates as updates
from .optimizer import Optimizer, assign_all, check_number


class AdadeltaOptimizer(Optimizer):
    """The optimizer tf.train.adadelta makes (the same arguments; see the pytfweb.train.adadelta module for its
    update rule).

    Example:
        >>> opt = tf.AdadeltaOptimizer()
        >>> opt.get_config() == tf.train.adadelta().get_config()
        True
    """
    class_name = "Adadelta"
    slot_names = ("accum_grad", "accum_var")

    def __init__(self, learning_rate=0.001, rho=0.95, epsilon=None):
        super().__init__()
        api = type(self).__name__
        self.learning_rate = check_number(learning_rate, "learning_rate", api, minimum=0)
        self.rho = check_number(rho, "rho", api, minimum=0, maximum=1)
        self.epsilon = self._epsilon(epsilon)

    def _update(self, value, gradient, slots, step):
        accumulated_grad, accumulated_update = slots["accum_grad"], slots["accum_var"]
        rho, eps = self.rho, self.epsilon
        if self._fused_update("ApplyAdadelta", value, gradient, [accumulated_grad, accumulated_update], [],
                              {"learning_rate": self.learning_rate, "rho": rho, "epsilon": eps}):
            return
        assign_all([value, accumulated_grad, accumulated_update],
                   updates.adadelta(value, gradient, accumulated_grad, accumulated_update, self.learning_rate, rho, eps))

    def get_config(self):
        return {"learning_rate": self.learning_rate, "rho": self.rho, "epsilon": self.epsilon}
