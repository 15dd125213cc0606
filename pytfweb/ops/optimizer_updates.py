"""The optimizers' update rules (tf.train, train/*.py), one function per TF.js optimizer, and the
fused kernels that run them in one step per variable (pytfweb's own kernels ApplyAdam,
ApplyMomentum, ...; backends/*/optimizers).

    fused_update(kernel, value, gradient, slots, scalars, attrs)
        [new value, *new slots] from the active backend's fused kernel; None where the backend
        has none or the gradient is not a float32 tensor of the variable's shape (the caller then
        composes the ops below).
    gradient_descent, momentum, rms_prop, adagrad, adadelta, ada_max, adam
        the same steps composed of ops: [new value, *new slots]. The fused kernels equal them to
        the bit (the tests compare both).
    apply_gradient_descent, ..., apply_adam
        the fused kernel where the backend has it, the composed ops otherwise.

Kernel contract: inputs [value, gradient, *slots, *scalars] (float32; scalars are per-step
tensors such as Adam's 1 - beta1^t), attrs the hyperparameters as numbers; outputs the new value,
then the new slots in the order of the inputs. Tensors only are made: the caller assigns (and
runs them inside a tidy scope, which frees the intermediates).
"""
from ..core.engine import ENGINE
from ..kernels import get_kernel
from . import elementwise as ew

UPDATE_KERNELS = ("ApplyGradientDescent", "ApplyMomentum", "ApplyRMSProp", "ApplyAdagrad", "ApplyAdadelta",
                  "ApplyAdaMax", "ApplyAdam")


def has_fused_update(kernel):
    """Whether the active backend has the fused update kernel `kernel` (one of UPDATE_KERNELS)."""
    return get_kernel(kernel, ENGINE.get_backend()) is not None


def fused_update(kernel, value, gradient, slots=(), scalars=(), attrs=None):
    """[new value, *new slots] from the fused kernel `kernel`, or None where it does not apply
    (a backend without it, a gradient of another shape or dtype)."""
    if kernel not in UPDATE_KERNELS:
        raise ValueError(f"fused_update: argument 'kernel' must be one of {', '.join(UPDATE_KERNELS)}, got {kernel!r}")
    if not (value.dtype == gradient.dtype == "float32" and value.shape == gradient.shape
            and has_fused_update(kernel)):
        return None
    return ENGINE.run_kernel(kernel, [value, gradient, *slots, *scalars], attrs)


# --- the composed ops (TF.js's optimizers' steps, in their order) ----------------------------------

def gradient_descent(value, gradient, minus_learning_rate):
    """SGD: value + (-learning_rate) * gradient (minus_learning_rate a number or a float32 scalar)."""
    return [ew.add(ew.mul(minus_learning_rate, gradient), value)]


def momentum(value, gradient, accumulation, minus_learning_rate, momentum_, use_nesterov=False):
    """Momentum: [new value, new accumulation]."""
    new_accumulation = ew.add(ew.mul(momentum_, accumulation), gradient)
    if use_nesterov:
        new_value = ew.add(ew.mul(minus_learning_rate, ew.add(gradient, ew.mul(new_accumulation, momentum_))), value)
    else:
        new_value = ew.add(ew.mul(minus_learning_rate, new_accumulation), value)
    return [new_value, new_accumulation]


def rms_prop(value, gradient, accumulated_mean_square, accumulated_moments, accumulated_mean_grad, learning_rate,
             decay, momentum_, epsilon, centered):
    """RMSProp: [new value, new mean square, new moments] (+ [new mean gradient] when centered)."""
    lr, eps = learning_rate, epsilon
    new_accumulated_mean_square = ew.add(ew.mul(accumulated_mean_square, decay), ew.mul(ew.square(gradient), 1 - decay))
    if centered:
        new_accumulated_mean_grad = ew.add(ew.mul(accumulated_mean_grad, decay), ew.mul(gradient, 1 - decay))
        grad_contribution = ew.div(
            ew.mul(gradient, lr),
            ew.sqrt(ew.sub(new_accumulated_mean_square, ew.add(ew.square(new_accumulated_mean_grad), eps))))
        new_accumulated_moments = ew.add(ew.mul(accumulated_moments, momentum_), grad_contribution)
        return [ew.sub(value, new_accumulated_moments), new_accumulated_mean_square, new_accumulated_moments,
                new_accumulated_mean_grad]
    new_accumulated_moments = ew.add(
        ew.mul(accumulated_moments, momentum_),
        ew.div(ew.mul(gradient, lr), ew.sqrt(ew.add(new_accumulated_mean_square, eps))))
    return [ew.sub(value, new_accumulated_moments), new_accumulated_mean_square, new_accumulated_moments]


def adagrad(value, gradient, accumulated_grad, learning_rate, epsilon):
    """Adagrad: [new value, new accumulator]."""
    new_accumulated_grad = ew.add(accumulated_grad, ew.square(gradient))
    new_value = ew.add(ew.mul(ew.div(gradient, ew.sqrt(ew.add(new_accumulated_grad, epsilon))), -learning_rate), value)
    return [new_value, new_accumulated_grad]


def adadelta(value, gradient, accumulated_grad, accumulated_update, learning_rate, rho, epsilon):
    """Adadelta: [new value, new accumulated gradient, new accumulated update] (the update uses
    the previous accumulated gradient, as TF.js)."""
    new_accumulated_grad = ew.add(ew.mul(accumulated_grad, rho), ew.mul(ew.square(gradient), 1 - rho))
    updates = ew.mul(ew.div(ew.sqrt(ew.add(accumulated_update, epsilon)),
                            ew.sqrt(ew.add(accumulated_grad, epsilon))), gradient)
    new_accumulated_update = ew.add(ew.mul(accumulated_update, rho), ew.mul(ew.square(updates), 1 - rho))
    return [ew.add(ew.mul(updates, -learning_rate), value), new_accumulated_grad, new_accumulated_update]


def ada_max(value, gradient, first_moment, weighted_inf_norm, one_minus_acc_beta1, lr, beta1, beta2, epsilon):
    """Adamax: [new value, new first moment, new weighted infinity norm]; lr is this step's
    (negative, decayed) learning rate."""
    new_first_moment = ew.add(ew.mul(first_moment, beta1), ew.mul(gradient, 1 - beta1))
    new_weighted_inf_norm = ew.maximum(ew.mul(weighted_inf_norm, beta2), ew.abs(gradient))
    new_value = ew.add(ew.mul(ew.div(lr, one_minus_acc_beta1),
                              ew.div(new_first_moment, ew.add(new_weighted_inf_norm, epsilon))),
                       value)
    return [new_value, new_first_moment, new_weighted_inf_norm]


def adam(value, gradient, first_moment, second_moment, one_minus_acc_beta1, one_minus_acc_beta2, learning_rate,
         beta1, beta2, epsilon):
    """Adam: [new value, new first moment, new second moment]."""
    new_first_moment = ew.add(ew.mul(first_moment, beta1), ew.mul(gradient, 1 - beta1))
    new_second_moment = ew.add(ew.mul(second_moment, beta2), ew.mul(ew.square(gradient), 1 - beta2))
    bias_corrected_first_moment = ew.div(new_first_moment, one_minus_acc_beta1)
    bias_corrected_second_moment = ew.div(new_second_moment, one_minus_acc_beta2)
    new_value = ew.add(ew.mul(ew.div(bias_corrected_first_moment, ew.add(ew.sqrt(bias_corrected_second_moment), epsilon)),
                              -learning_rate),
                       value)
    return [new_value, new_first_moment, new_second_moment]


# --- fused where the backend has it, composed otherwise ----------------------------------------------

def apply_gradient_descent(value, gradient, learning_rate):
    return (fused_update("ApplyGradientDescent", value, gradient, attrs={"learning_rate": learning_rate})
            or gradient_descent(value, gradient, -learning_rate))


def apply_momentum(value, gradient, accumulation, learning_rate, momentum_, use_nesterov=False):
    return (fused_update("ApplyMomentum", value, gradient, [accumulation],
                         attrs={"learning_rate": learning_rate, "momentum": momentum_, "use_nesterov": use_nesterov})
            or momentum(value, gradient, accumulation, -learning_rate, momentum_, use_nesterov))


def apply_rms_prop(value, gradient, accumulated_mean_square, accumulated_moments, accumulated_mean_grad,
                   learning_rate, decay, momentum_, epsilon, centered):
    slots = [accumulated_mean_square, accumulated_moments] + ([accumulated_mean_grad] if centered else [])
    return (fused_update("ApplyRMSProp", value, gradient, slots,
                         attrs={"learning_rate": learning_rate, "decay": decay, "momentum": momentum_,
                                "epsilon": epsilon, "centered": centered})
            or rms_prop(value, gradient, accumulated_mean_square, accumulated_moments, accumulated_mean_grad,
                        learning_rate, decay, momentum_, epsilon, centered))


def apply_adagrad(value, gradient, accumulated_grad, learning_rate, epsilon):
    return (fused_update("ApplyAdagrad", value, gradient, [accumulated_grad],
                         attrs={"learning_rate": learning_rate, "epsilon": epsilon})
            or adagrad(value, gradient, accumulated_grad, learning_rate, epsilon))


def apply_adadelta(value, gradient, accumulated_grad, accumulated_update, learning_rate, rho, epsilon):
    return (fused_update("ApplyAdadelta", value, gradient, [accumulated_grad, accumulated_update],
                         attrs={"learning_rate": learning_rate, "rho": rho, "epsilon": epsilon})
            or adadelta(value, gradient, accumulated_grad, accumulated_update, learning_rate, rho, epsilon))


def apply_ada_max(value, gradient, first_moment, weighted_inf_norm, one_minus_acc_beta1, lr, beta1, beta2, epsilon):
    return (fused_update("ApplyAdaMax", value, gradient, [first_moment, weighted_inf_norm], [one_minus_acc_beta1, lr],
                         {"beta1": beta1, "beta2": beta2, "epsilon": epsilon})
            or ada_max(value, gradient, first_moment, weighted_inf_norm, one_minus_acc_beta1, lr, beta1, beta2, epsilon))


def apply_adam(value, gradient, first_moment, second_moment, one_minus_acc_beta1, one_minus_acc_beta2, learning_rate,
               beta1, beta2, epsilon):
    return (fused_update("ApplyAdam", value, gradient, [first_moment, second_moment],
                         [one_minus_acc_beta1, one_minus_acc_beta2],
                         {"learning_rate": learning_rate, "beta1": beta1, "beta2": beta2, "epsilon": epsilon})
            or adam(value, gradient, first_moment, second_moment, one_minus_acc_beta1, one_minus_acc_beta2,
                    learning_rate, beta1, beta2, epsilon))
