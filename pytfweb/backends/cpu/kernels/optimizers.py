"""Optimizer updates in one kernel per variable (pytfweb's own kernels, not TF.js's): the same
float32 steps, in the same order, as the optimizer's ops (train/*.py), so the result is the
composed ops' to the bit; they save the per-op cost of a dozen ops per variable and step."""
import numpy as np

from ....kernels import register_kernel


@register_kernel("ApplyAdam", "cpu")
def apply_adam(backend, inputs, attrs):
    value, gradient, m, v, one_minus_acc_beta1, one_minus_acc_beta2 = (backend.values(t) for t in inputs)
    f = np.float32
    beta1, beta2 = attrs["beta1"], attrs["beta2"]
    with np.errstate(all="ignore"):
        new_m = m * f(beta1) + gradient * f(1 - beta1)
        new_v = v * f(beta2) + np.square(gradient) * f(1 - beta2)
        step = (new_m / one_minus_acc_beta1) / (np.sqrt(new_v / one_minus_acc_beta2) + f(attrs["epsilon"]))
        new_value = step * f(-attrs["learning_rate"]) + value
    return [backend.output(new_value, "float32"), backend.output(new_m, "float32"),
            backend.output(new_v, "float32")]
