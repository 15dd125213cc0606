"""Optimizer updates in one kernel per variable (pytfweb's own kernels; see the cpu module): one
draw per output (the variable and each slot), whatever the hyper-parameters (uniforms).
shaders/optimizers.glsl has each optimizer's `_common` section and one main per output."""
from ....kernels import register_kernel
from .. import shader_source
from .program import Program

_CODE = {}


def _program(section, common, output, names, uniforms, shape):
    key = (common, output)
    code = _CODE.get(key)
    if code is None:
        code = _CODE[key] = (shader_source.function("unary_ops.glsl", "op_Sqrt")
                             + shader_source.function("unary_ops.glsl", "op_Abs")
                             + shader_source.function("binary_ops.glsl", "op_Maximum")
                             + shader_source.program("optimizers.glsl", "helpers")
                             + shader_source.program("optimizers.glsl", common)
                             + shader_source.program("optimizers.glsl", f"{section}_{output}"))
    return Program(f"optimizers:{common}:{output}", names, shape, code, tuple((u, "float") for u in uniforms))


def _update(backend, inputs, section, names, uniforms, values, outputs, common=None, mains=None):
    """The new values of `outputs` (the variable first), each drawn by its own program."""
    common = common or f"{section}_common"
    shape = inputs[0].shape
    return [backend.run(_program(section, common, (mains or {}).get(out, out), names, uniforms, shape), inputs,
                        "float32", values) for out in outputs]


@register_kernel("ApplyGradientDescent", "webgl")
def apply_gradient_descent(backend, inputs, attrs):
    return _update(backend, inputs, "sgd", ("value", "gradient"), ("negLearningRate",),
                   (-attrs["learning_rate"],), ("value",))


@register_kernel("ApplyMomentum", "webgl")
def apply_momentum(backend, inputs, attrs):
    mains = {"value": "nesterov_value"} if attrs["use_nesterov"] else None
    return _update(backend, inputs, "momentum", ("value", "gradient", "accumulation"),
                   ("negLearningRate", "momentum"), (-attrs["learning_rate"], attrs["momentum"]),
                   ("value", "accumulation"), mains=mains)


@register_kernel("ApplyRMSProp", "webgl")
def apply_rms_prop(backend, inputs, attrs):
    centered = attrs["centered"]
    names = ("value", "gradient", "ms", "mom") + (("mg",) if centered else ())
    decay = attrs["decay"]
    return _update(backend, inputs, "rmsprop", names,
                   ("decay", "oneMinusDecay", "momentum", "learningRate", "epsilon"),
                   (decay, 1 - decay, attrs["momentum"], attrs["learning_rate"], attrs["epsilon"]),
                   ("value", "ms", "mom") + (("mg",) if centered else ()),
                   common="rmsprop_centered_common" if centered else "rmsprop_common")


@register_kernel("ApplyAdagrad", "webgl")
def apply_adagrad(backend, inputs, attrs):
    return _update(backend, inputs, "adagrad", ("value", "gradient", "accumulator"), ("negLearningRate", "epsilon"),
                   (-attrs["learning_rate"], attrs["epsilon"]), ("value", "accumulator"))


@register_kernel("ApplyAdadelta", "webgl")
def apply_adadelta(backend, inputs, attrs):
    rho = attrs["rho"]
    return _update(backend, inputs, "adadelta", ("value", "gradient", "accumGrad", "accumVar"),
                   ("rho", "oneMinusRho", "epsilon", "negLearningRate"),
                   (rho, 1 - rho, attrs["epsilon"], -attrs["learning_rate"]), ("value", "accumGrad", "accumVar"))


@register_kernel("ApplyAdaMax", "webgl")
def apply_ada_max(backend, inputs, attrs):
    beta1 = attrs["beta1"]
    return _update(backend, inputs, "adamax", ("value", "gradient", "m", "v", "oneMinusAccBeta1", "lr"),
                   ("beta1", "oneMinusBeta1", "beta2", "epsilon"),
                   (beta1, 1 - beta1, attrs["beta2"], attrs["epsilon"]), ("value", "m", "v"))


@register_kernel("ApplyAdam", "webgl")
def apply_adam(backend, inputs, attrs):
    beta1, beta2 = attrs["beta1"], attrs["beta2"]
    return _update(backend, inputs, "adam", ("value", "gradient", "m", "v", "oneMinusAccBeta1", "oneMinusAccBeta2"),
                   ("beta1", "oneMinusBeta1", "beta2", "oneMinusBeta2", "epsilon", "negLearningRate"),
                   (beta1, 1 - beta1, beta2, 1 - beta2, attrs["epsilon"], -attrs["learning_rate"]),
                   ("value", "m", "v"))
