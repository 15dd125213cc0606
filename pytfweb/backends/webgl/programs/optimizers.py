"""Optimizer updates in one kernel per variable (pytfweb's own kernels; see the cpu module): one
draw writes the variable and each slot (several render targets), whatever the hyper-parameters
(uniforms); one draw per output where the context has fewer draw buffers than outputs. The
update functions are backends/gpu/optimizer_ops.py's, rendered to GLSL (optimizers.glsl); this
module writes main, which computes the new slots an output needs and stores the outputs."""
from ....kernels import register_kernel
from ...gpu import shader_source
from ...gpu.optimizer_ops import UPDATES
from ..shader_compiler import getter_name
from .program import Program

_CODE = {}


def _call(fn):
    """fn's call in main: an input's value at the output's coordinates, or a new slot's local."""
    args = (p if p.startswith("new_") else getter_name(p) + "AtOutCoords()" for p, _ in fn.params)
    return f"{fn.name}({', '.join(args)})"


def _code(update, outputs):
    """main() storing `outputs` (of update: "value" or slots) in one draw, with the functions it calls."""
    slots = update.slots_for(outputs)
    parts = {}
    for out in slots + (("value",) if "value" in outputs else ()):
        parts.update(shader_source.function_parts("optimizers.glsl", update.functions[out].name))
    lines = [f"  float new_{s} = {_call(update.functions[s])};" for s in slots]
    values = [_call(update.functions["value"]) if out == "value" else f"new_{out}" for out in outputs]
    if len(outputs) == 1:
        lines.append(f"  setOutput({values[0]});")
    else:
        lines += [f"  outColor{i or ''} = vec4({value}, 0.0, 0.0, 0.0);" for i, value in enumerate(values)]
    return "".join(parts.values()) + "void main() {\n" + "\n".join(lines) + "\n}\n"


def _program(update, outputs, uniforms, shape):
    key = (update.name, outputs)
    code = _CODE.get(key)
    if code is None:
        code = _CODE[key] = _code(update, outputs)
    return Program(f"optimizers:{update.name}:{':'.join(outputs)}", update.inputs, shape, code,
                   tuple((name, "float") for name, _, _ in uniforms), outputs=len(outputs))


def _update(backend, inputs, name, attrs):
    """The new values of the variable and of each slot (in the kernel's order)."""
    update = UPDATES[name]
    uniforms = update.uniforms(attrs)
    values = tuple(value for _, _, value in uniforms)
    shape = inputs[0].shape
    outputs = ("value",) + update.slots
    if len(outputs) <= backend.ctx.max_draw_buffers:
        return backend.run_outputs(_program(update, outputs, uniforms, shape), inputs, "float32", values)
    return [backend.run(_program(update, (out,), uniforms, shape), inputs, "float32", values) for out in outputs]


@register_kernel("ApplyGradientDescent", "webgl")
def apply_gradient_descent(backend, inputs, attrs):
    return _update(backend, inputs, "sgd", attrs)


@register_kernel("ApplyMomentum", "webgl")
def apply_momentum(backend, inputs, attrs):
    return _update(backend, inputs, "momentum_nesterov" if attrs["use_nesterov"] else "momentum", attrs)


@register_kernel("ApplyRMSProp", "webgl")
def apply_rms_prop(backend, inputs, attrs):
    return _update(backend, inputs, "rmsprop_centered" if attrs["centered"] else "rmsprop", attrs)


@register_kernel("ApplyAdagrad", "webgl")
def apply_adagrad(backend, inputs, attrs):
    return _update(backend, inputs, "adagrad", attrs)


@register_kernel("ApplyAdadelta", "webgl")
def apply_adadelta(backend, inputs, attrs):
    return _update(backend, inputs, "adadelta", attrs)


@register_kernel("ApplyAdaMax", "webgl")
def apply_ada_max(backend, inputs, attrs):
    return _update(backend, inputs, "adamax", attrs)


@register_kernel("ApplyAdam", "webgl")
def apply_adam(backend, inputs, attrs):
    return _update(backend, inputs, "adam", attrs)
