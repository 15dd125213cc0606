"""Optimizer updates in one kernel per variable (pytfweb's own kernels; see the cpu module): one
draw writes the variable and each slot (several render targets), whatever the hyper-parameters
(uniforms); one draw per output where the context has fewer draw buffers than outputs.
backends/webgl/shaders/optimizers.glsl has each optimizer's `_common` section and one function per output."""
from ....kernels import register_kernel
from ...gpu import shader_source
from .program import Program

_CODE = {}


def _program(common, parts, names, uniforms, shape):
    """The program writing the outputs `parts` (optimizers.glsl functions) in one draw."""
    key = (common, parts)
    code = _CODE.get(key)
    if code is None:
        stores = (f"  setOutput({parts[0]}());" if len(parts) == 1 else
                  "\n".join(f"  outColor{i or ''} = vec4({part}(), 0.0, 0.0, 0.0);" for i, part in enumerate(parts)))
        code = _CODE[key] = (shader_source.function("unary_ops.glsl", "op_Sqrt")
                             + shader_source.function("unary_ops.glsl", "op_Abs")
                             + shader_source.function("binary_ops.glsl", "op_Maximum")
                             + shader_source.program("optimizers.glsl", "helpers")
                             + shader_source.program("optimizers.glsl", common)
                             + "".join(shader_source.program("optimizers.glsl", part) for part in parts)
                             + "void main() {\n" + stores + "\n}\n")
    return Program(f"optimizers:{common}:{':'.join(parts)}", names, shape, code, tuple((u, "float") for u in uniforms),
                   outputs=len(parts))


def _update(backend, inputs, section, names, uniforms, values, outputs, common=None, mains=None):
    """The new values of `outputs` (the variable first)."""
    common = common or f"{section}_common"
    shape = inputs[0].shape
    parts = tuple(f"{section}_{(mains or {}).get(out, out)}" for out in outputs)
    if len(parts) <= backend.ctx.max_draw_buffers:
        return backend.run_outputs(_program(common, parts, names, uniforms, shape), inputs, "float32", values)
    return [backend.run(_program(common, (part,), names, uniforms, shape), inputs, "float32", values)
            for part in parts]


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
