"""Momentum gradient descent, as TF.js's MomentumOptimizer (momentum_optimizer.ts), with one
slot per variable, "<name>/momentum":

    accumulation = momentum * accumulation + gradient
    value += -learning_rate * accumulation                               (plain)
    value += -learning_rate * (gradient + momentum * accumulation)       (use_nesterov)
"""
from ..ops import optimizer_updates as updates
from .optimizer import assign_all, check_bool, check_number
from .sgd import SGDOptimizer


class MomentumOptimizer(SGDOptimizer):
    """The optimizer tf.train.momentum makes (the same arguments; see the pytfweb.train.momentum module for its
    update rule).

    Example:
        >>> opt = tf.MomentumOptimizer(0.1, 0.9)
        >>> opt.get_config() == tf.train.momentum(0.1, 0.9).get_config()
        True
    """
    class_name = "Momentum"
    slot_names = ("momentum",)

    def __init__(self, learning_rate, momentum, use_nesterov=False):
        api = type(self).__name__
        check_number(momentum, "momentum", api, minimum=0)     # before any tensor is made
        self.use_nesterov = check_bool(use_nesterov, "use_nesterov", api)
        super().__init__(learning_rate)
        self._m = None
        self.set_momentum(momentum)

    def set_momentum(self, momentum):
        """Change the momentum, from the next step on (TF.js's setMomentum forgets its scalar tensor and
        so changes nothing).

        Args:
            momentum: the new momentum.
        """
        self.momentum = check_number(momentum, "momentum", type(self).__name__, minimum=0)
        self._m = self._replace_constant(self._m, self.momentum)

    def _update(self, value, gradient, slots, step):
        accumulation = slots["momentum"]
        if self._fused_update("ApplyMomentum", value, gradient, [accumulation], [],
                              {"learning_rate": self.learning_rate, "momentum": self.momentum,
                               "use_nesterov": self.use_nesterov}):
            return
        assign_all([value, accumulation],
                   updates.momentum(value, gradient, accumulation, self._c, self._m, self.use_nesterov))

    def get_config(self):
        return {"learning_rate": self.learning_rate, "momentum": self.momentum, "use_nesterov": self.use_nesterov}
