"""Adam, as TF.js's AdamOptimizer (adam_optimizer.ts), with two slots per variable, "<name>/m"
and "<name>/v", and the running powers acc_beta1 = beta1^t, acc_beta2 = beta2^t (t = step,
from 1) as state variables:

    m = beta1 * m + (1 - beta1) * gradient
    v = beta2 * v + (1 - beta2) * gradient^2
    value += -learning_rate * (m / (1 - acc_beta1)) / (sqrt(v / (1 - acc_beta2)) + epsilon)
    then acc_beta1 *= beta1, acc_beta2 *= beta2
"""
from .. import ops
from ..core.api import tidy
from ..ops import optimizer_updates as updates
from .optimizer import Optimizer, assign_all, check_number


class AdamOptimizer(Optimizer):
    """The optimizer tf.train.adam makes (the same arguments; see the pytfweb.train.adam module for its
    update rule).

    Example:
        >>> opt = tf.AdamOptimizer(0.1)
        >>> opt.get_config() == tf.train.adam(0.1).get_config()
        True
    """
    class_name = "Adam"
    slot_names = ("m", "v")

    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=None):
        super().__init__()
        api = type(self).__name__
        self.learning_rate = check_number(learning_rate, "learning_rate", api, minimum=0)
        self.beta1 = check_number(beta1, "beta1", api, minimum=0, below=1)
        self.beta2 = check_number(beta2, "beta2", api, minimum=0, below=1)
        self.epsilon = self._epsilon(epsilon)
        # TF.js makes these trainable (so tf.variable_grads sees them); they are state here.
        self._acc_beta1 = self._state_variable(self.beta1)
        self._acc_beta2 = self._state_variable(self.beta2)

    def _begin_step(self):
        return ops.sub(1, self._acc_beta1), ops.sub(1, self._acc_beta2)

    def _update(self, value, gradient, slots, step):
        one_minus_acc_beta1, one_minus_acc_beta2 = step
        first_moment, second_moment = slots["m"], slots["v"]
        if self._fused_update("ApplyAdam", value, gradient, [first_moment, second_moment],
                              [one_minus_acc_beta1, one_minus_acc_beta2],
                              {"learning_rate": self.learning_rate, "beta1": self.beta1, "beta2": self.beta2,
                               "epsilon": self.epsilon}):
            return
        assign_all([value, first_moment, second_moment],
                   updates.adam(value, gradient, first_moment, second_moment, one_minus_acc_beta1, one_minus_acc_beta2,
                                self.learning_rate, self.beta1, self.beta2, self.epsilon))

    def _end_step(self, step):
        self._acc_beta1.assign(ops.mul(self._acc_beta1, self.beta1))
        self._acc_beta2.assign(ops.mul(self._acc_beta2, self.beta2))

    def _restore_step_state(self):
        # As TF.js's setWeights: the powers for the next step, beta^(iterations + 1).
        def restore():
            self._acc_beta1.assign(ops.pow(ops.scalar(self.beta1), self.iterations + 1))
            self._acc_beta2.assign(ops.pow(ops.scalar(self.beta2), self.iterations + 1))
        tidy(restore)

    def get_config(self):
        return {"learning_rate": self.learning_rate, "beta1": self.beta1, "beta2": self.beta2,
                "epsilon": self.epsilon}
