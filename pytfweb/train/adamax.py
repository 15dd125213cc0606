"""Adamax, as TF.js's AdamaxOptimizer (adamax_optimizer.ts), with two slots per variable,
"<name>/m" and "<name>/v", and the state variables iteration (t - 1) and acc_beta1 = beta1^t:

    lr = -learning_rate / (iteration * decay + 1)
    m = beta1 * m + (1 - beta1) * gradient
    v = max(beta2 * v, |gradient|)
    value += lr / (1 - acc_beta1) * m / (v + epsilon)
    then iteration += 1, acc_beta1 *= beta1

TF.js has no getWeights/setWeights for Adamax; here they work as for Adam.
"""
from .. import ops
from ..core.api import tidy
from ..ops import optimizer_updates as updates
from .optimizer import Optimizer, assign_all, check_number


class AdamaxOptimizer(Optimizer):
    """The optimizer tf.train.adamax makes (the same arguments; see the pytfweb.train.adamax module for its
    update rule).

    Example:
        >>> opt = tf.AdamaxOptimizer()
        >>> opt.get_config() == tf.train.adamax().get_config()
        True
    """
    class_name = "Adamax"
    slot_names = ("m", "v")

    def __init__(self, learning_rate=0.002, beta1=0.9, beta2=0.999, epsilon=None, decay=0.0):
        super().__init__()
        api = type(self).__name__
        self.learning_rate = check_number(learning_rate, "learning_rate", api, minimum=0)
        self.beta1 = check_number(beta1, "beta1", api, minimum=0, below=1)
        self.beta2 = check_number(beta2, "beta2", api, minimum=0, maximum=1)
        self.epsilon = self._epsilon(epsilon)
        self.decay = check_number(decay, "decay", api, minimum=0)
        self._iteration = self._state_variable(0)
        self._acc_beta1 = self._state_variable(self.beta1)

    def _begin_step(self):
        one_minus_acc_beta1 = ops.sub(1, self._acc_beta1)
        lr = ops.div(-self.learning_rate, ops.add(ops.mul(self._iteration, self.decay), 1))
        return one_minus_acc_beta1, lr

    def _update(self, value, gradient, slots, step):
        one_minus_acc_beta1, lr = step
        first_moment, weighted_inf_norm = slots["m"], slots["v"]
        if self._fused_update("ApplyAdaMax", value, gradient, [first_moment, weighted_inf_norm],
                              [one_minus_acc_beta1, lr],
                              {"beta1": self.beta1, "beta2": self.beta2, "epsilon": self.epsilon}):
            return
        assign_all([value, first_moment, weighted_inf_norm],
                   updates.ada_max(value, gradient, first_moment, weighted_inf_norm, one_minus_acc_beta1, lr, self.beta1,
                                   self.beta2, self.epsilon))

    def _end_step(self, step):
        self._iteration.assign(ops.add(self._iteration, 1))
        self._acc_beta1.assign(ops.mul(self._acc_beta1, self.beta1))

    def _restore_step_state(self):
        def restore():
            self._iteration.assign(ops.scalar(float(self.iterations)))
            self._acc_beta1.assign(ops.pow(ops.scalar(self.beta1), self.iterations + 1))
        tidy(restore)

    def get_config(self):
        return {"learning_rate": self.learning_rate, "beta1": self.beta1, "beta2": self.beta2,
                "epsilon": self.epsilon, "decay": self.decay}
