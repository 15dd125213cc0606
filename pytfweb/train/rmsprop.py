"""RMSProp, as TF.js's RMSPropOptimizer (rmsprop_optimizer.ts), with the slots "<name>/rms" and
"<name>/momentum", and "<name>/mg" when centered:

    rms = decay * rms + (1 - decay) * gradient^2
    plain:     momentum = momentum_coef * momentum + learning_rate * gradient / sqrt(rms + epsilon)
    centered:  mg = decay * mg + (1 - decay) * gradient
               momentum = momentum_coef * momentum
                          + learning_rate * gradient / sqrt(rms - (mg^2 + epsilon))
    value -= momentum

The centered denominator is TF.js's: epsilon is subtracted with mg^2 (TF Python adds it).
"""
from ..ops import optimizer_updates as updates
from .optimizer import Optimizer, assign_all, check_bool, check_number


class RMSPropOptimizer(Optimizer):
    """The optimizer tf.train.rmsprop makes (the same arguments; see the pytfweb.train.rmsprop module for its
    update rule).

    Example:
        >>> opt = tf.RMSPropOptimizer(0.1)
        >>> opt.get_config() == tf.train.rmsprop(0.1).get_config()
        True
    """
    class_name = "RMSProp"

    def __init__(self, learning_rate, decay=0.9, momentum=0.0, epsilon=None, centered=False):
        super().__init__()
        api = type(self).__name__
        if learning_rate is None:
            raise ValueError(f"{api}: learning_rate must be defined")
        self.learning_rate = check_number(learning_rate, "learning_rate", api, minimum=0)
        self.decay = check_number(decay, "decay", api, minimum=0, maximum=1)
        self.momentum = check_number(momentum, "momentum", api, minimum=0)
        self.epsilon = self._epsilon(epsilon)
        self.centered = check_bool(centered, "centered", api)

    @property
    def slot_names(self):
        """The kinds of slot variables: ('rms', 'momentum'), with 'mg' when centered."""
        return ("rms", "momentum", "mg") if self.centered else ("rms", "momentum")

    def _update(self, value, gradient, slots, step):
        accumulated_mean_square, accumulated_moments = slots["rms"], slots["momentum"]
        decay, lr, eps = self.decay, self.learning_rate, self.epsilon
        if self._fused_update("ApplyRMSProp", value, gradient,
                              [accumulated_mean_square, accumulated_moments] + ([slots["mg"]] if self.centered else []),
                              [], {"learning_rate": lr, "decay": decay, "momentum": self.momentum, "epsilon": eps,
                                   "centered": self.centered}):
            return
        slot_list = [accumulated_mean_square, accumulated_moments] + ([slots["mg"]] if self.centered else [])
        assign_all([value, *slot_list],
                   updates.rms_prop(value, gradient, accumulated_mean_square, accumulated_moments, slots.get("mg"), lr,
                                    decay, self.momentum, eps, self.centered))

    def get_config(self):
        return {"learning_rate": self.learning_rate, "decay": self.decay, "momentum": self.momentum,
                "epsilon": self.epsilon, "centered": self.centered}
