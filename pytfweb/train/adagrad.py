"""Adagrad, as TF.js's AdagradOptimizer (adagrad_optimizer.ts), with one slot per variable,
"<name>/accumulator", starting at initial_accumulator_value:

    accumulator += gradient^2
    value += -learning_rate * gradient / sqrt(accumulator + epsilon)

epsilon is the active backend's at each step (TF.js reads ENGINE.backend.epsilon() there).
"""
from .. import ops
from ..ops import optimizer_updates as updates
from .optimizer import Optimizer, assign_all, check_number


class AdagradOptimizer(Optimizer):
    """The optimizer tf.train.adagrad makes (the same arguments; see the pytfweb.train.adagrad module for its
    update rule).

    Example:
        >>> opt = tf.AdagradOptimizer(0.1)
        >>> opt.get_config() == tf.train.adagrad(0.1).get_config()
        True
    """
    class_name = "Adagrad"
    slot_names = ("accumulator",)

    def __init__(self, learning_rate, initial_accumulator_value=0.1):
        super().__init__()
        api = type(self).__name__
        self.learning_rate = check_number(learning_rate, "learning_rate", api, minimum=0)
        self.initial_accumulator_value = check_number(initial_accumulator_value, "initial_accumulator_value",
                                                      api, minimum=0)

    def _initial_slot(self, kind, value):
        return ops.fill(value.shape, self.initial_accumulator_value, "float32")

    def _update(self, value, gradient, slots, step):
        accumulated_grad = slots["accumulator"]
        if self._fused_update("ApplyAdagrad", value, gradient, [accumulated_grad], [],
                              {"learning_rate": self.learning_rate, "epsilon": self._epsilon(None)}):
            return
        assign_all([value, accumulated_grad],
                   updates.adagrad(value, gradient, accumulated_grad, self.learning_rate, self._epsilon(None)))

    def get_config(self):
        return {"learning_rate": self.learning_rate, "initial_accumulator_value": self.initial_accumulator_value}
