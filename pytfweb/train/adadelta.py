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
from .. import ops
from .optimizer import Optimizer, check_number


class AdadeltaOptimizer(Optimizer):
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
        new_accumulated_grad = ops.add(ops.mul(accumulated_grad, rho), ops.mul(ops.square(gradient), 1 - rho))
        updates = ops.mul(ops.div(ops.sqrt(ops.add(accumulated_update, eps)),
                                  ops.sqrt(ops.add(accumulated_grad, eps))), gradient)
        new_accumulated_update = ops.add(ops.mul(accumulated_update, rho), ops.mul(ops.square(updates), 1 - rho))
        accumulated_grad.assign(new_accumulated_grad)
        accumulated_update.assign(new_accumulated_update)
        value.assign(ops.add(ops.mul(updates, -self.learning_rate), value))

    def get_config(self):
        return {"learning_rate": self.learning_rate, "rho": self.rho, "epsilon": self.epsilon}
