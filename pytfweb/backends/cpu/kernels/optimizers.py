"""Optimizer updates in one kernel per variable (pytfweb's own kernels, not TF.js's): the same
float32 steps, in the same order, as the optimizer's ops (train/*.py), so the result is the
composed ops' to the bit; they save the per-op cost of several ops per variable and step.
Each returns the variable's new value first, then its slots' in the order of its inputs."""
import numpy as np

from ....kernels import register_kernel

f = np.float32


def _kernel(name):
    """Registers fn(values..., attrs) -> arrays, run on the inputs' values with numpy's float
    warnings off (NaN and infinities are values here)."""
    def register(fn):
        @register_kernel(name, "cpu")
        def kernel(backend, inputs, attrs):
            with np.errstate(all="ignore"):
                outs = fn(*(backend.values(t) for t in inputs), attrs)
            return [backend.output(o, "float32") for o in outs]
        return fn
    return register


@_kernel("ApplyGradientDescent")
def _sgd(value, g, a):
    return [f(-a["learning_rate"]) * g + value]


@_kernel("ApplyMomentum")
def _momentum(value, g, accumulation, a):
    c, m = f(-a["learning_rate"]), f(a["momentum"])
    new_accumulation = m * accumulation + g
    if a["use_nesterov"]:
        return [c * (g + new_accumulation * m) + value, new_accumulation]
    return [c * new_accumulation + value, new_accumulation]


@_kernel("ApplyRMSProp")
def _rms_prop(value, g, ms, mom, *rest):
    *mg, a = rest
    decay, eps = a["decay"], f(a["epsilon"])
    new_ms = ms * f(decay) + np.square(g) * f(1 - decay)
    if a["centered"]:
        new_mg = mg[0] * f(decay) + g * f(1 - decay)
        new_mom = mom * f(a["momentum"]) + g * f(a["learning_rate"]) / np.sqrt(new_ms - (np.square(new_mg) + eps))
        return [value - new_mom, new_ms, new_mom, new_mg]
    new_mom = mom * f(a["momentum"]) + g * f(a["learning_rate"]) / np.sqrt(new_ms + eps)
    return [value - new_mom, new_ms, new_mom]


@_kernel("ApplyAdagrad")
def _adagrad(value, g, accumulator, a):
    new_accumulator = accumulator + np.square(g)
    return [g / np.sqrt(new_accumulator + f(a["epsilon"])) * f(-a["learning_rate"]) + value, new_accumulator]


@_kernel("ApplyAdadelta")
def _adadelta(value, g, accum_grad, accum_var, a):
    rho, eps = a["rho"], f(a["epsilon"])
    new_accum_grad = accum_grad * f(rho) + np.square(g) * f(1 - rho)
    updates = np.sqrt(accum_var + eps) / np.sqrt(accum_grad + eps) * g   # TF.js's: the previous accum_grad
    new_accum_var = accum_var * f(rho) + np.square(updates) * f(1 - rho)
    return [updates * f(-a["learning_rate"]) + value, new_accum_grad, new_accum_var]


@_kernel("ApplyAdaMax")
def _ada_max(value, g, m, v, one_minus_acc_beta1, lr, a):
    beta1 = a["beta1"]
    new_m = m * f(beta1) + g * f(1 - beta1)
    new_v = np.maximum(v * f(a["beta2"]), np.abs(g))
    return [lr / one_minus_acc_beta1 * (new_m / (new_v + f(a["epsilon"]))) + value, new_m, new_v]


@_kernel("ApplyAdam")
def _adam(value, g, m, v, one_minus_acc_beta1, one_minus_acc_beta2, a):
    beta1, beta2 = a["beta1"], a["beta2"]
    new_m = m * f(beta1) + g * f(1 - beta1)
    new_v = v * f(beta2) + np.square(g) * f(1 - beta2)
    step = (new_m / one_minus_acc_beta1) / (np.sqrt(new_v / one_minus_acc_beta2) + f(a["epsilon"]))
    return [step * f(-a["learning_rate"]) + value, new_m, new_v]
