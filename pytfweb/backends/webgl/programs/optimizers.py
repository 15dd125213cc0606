"""Optimizer updates in one kernel per variable (pytfweb's own kernels; see the cpu module): one
draw writes the variable and each slot (several render targets), whatever the hyper-parameters
(uniforms); one draw per output where the context has fewer draw buffers than outputs. The
update functions are backends/gpu/optimizer_ops.py's, rendered to GLSL (optimizers.glsl); this
module writes main, which computes the new slots an output needs and stores the outputs.

Where each of the variable, its gradient and its slots has the output's texture width, or is one
texture row or column (a bias's gradient from a reduction is a column), and the scalars are one
value, main fetches each value itself: the program is shapeless (Program.shapeless), one compile
for every variable of a model instead of one per variable shape."""
from ....kernels import register_kernel
from ...gpu import shader_source
from ...gpu.optimizer_ops import UPDATES
from ..shader_compiler import getter_name
from ....core.shapes import size_of
from ..texture_manager import texture_shape
from .program import Program

_CODE = {}
# where a shapeless program fetches an input's value: at the fragment's own texel, the only one, or
# at the output's flat index in a one-row or one-column texture
_TEXELS = {"same": "ivec2(gl_FragCoord.xy)", "one": "ivec2(0, 0)", "row": "ivec2(flat_, 0)",
           "column": "ivec2(0, flat_)"}


def _reads(backend, names, inputs, shape):
    """{input name: how a shapeless program fetches it (_TEXELS)}, or None where one needs the
    compiler's getters (a texture of another width, RGBA or complex data)."""
    out_width = texture_shape(shape, backend.ctx.max_texture_size)[0]
    size = size_of(shape)
    reads = {}
    for name, t in zip(names, inputs):
        d = backend.store[t.data_id]
        if d.channels != 1 or d.complex_parts is not None:
            return None
        n = size_of(t.shape)
        width, height = backend.texture_layout(t.data_id)
        if n == 1:
            reads[name] = "one"
        elif n != size:
            return None
        elif width == out_width:
            reads[name] = "same"
        elif height == 1:
            reads[name] = "row"
        elif width == 1:
            reads[name] = "column"
        else:
            return None
    return reads


def _call(fn, reads):
    """fn's call in main: an input's value at the output's coordinates (the compiler's getter, or
    with reads, {input: a mode of _TEXELS}, its texel fetched), or a new slot's local."""
    def value(p):
        if p.startswith("new_"):
            return p
        return f"texelFetch({p}, {_TEXELS[reads[p]]}, 0).r" if reads else getter_name(p) + "AtOutCoords()"
    return f"{fn.name}({', '.join(value(p) for p, _ in fn.params)})"


def _code(update, outputs, reads=None):
    """main() storing `outputs` (of update: "value" or slots) in one draw, with the functions it calls."""
    slots = update.slots_for(outputs)
    parts = {}
    for out in slots + (("value",) if "value" in outputs else ()):
        parts.update(shader_source.function_parts("optimizers.glsl", update.functions[out].name))
    lines = [f"  float new_{s} = {_call(update.functions[s], reads)};" for s in slots]
    values = [_call(update.functions["value"], reads) if out == "value" else f"new_{out}" for out in outputs]
    if reads and any(mode in ("row", "column") for mode in reads.values()):
        lines.insert(0, "  int flat_ = int(gl_FragCoord.y) * outWidth + int(gl_FragCoord.x);")
    if len(outputs) == 1:
        lines.append(f"  setOutput({values[0]});")
    else:
        lines += [f"  outColor{i or ''} = vec4({value}, 0.0, 0.0, 0.0);" for i, value in enumerate(values)]
    return "".join(parts.values()) + "void main() {\n" + "\n".join(lines) + "\n}\n"


def _program(update, outputs, uniforms, shape, reads):
    modes = tuple(reads[name] for name in update.inputs) if reads else None
    key = (update.name, outputs, modes)
    code = _CODE.get(key)
    if code is None:
        code = _CODE[key] = _code(update, outputs, reads)
    uniforms = tuple((name, "float") for name, _, _ in uniforms)
    if modes and ("row" in modes or "column" in modes):
        uniforms += (("outWidth", "int"),)
    return Program(f"optimizers:{update.name}:{':'.join(outputs)}" + (f":{':'.join(modes)}" if modes else ""),
                   update.inputs, shape, code, uniforms, outputs=len(outputs), shapeless=modes is not None)


def _update(backend, inputs, name, attrs):
    """The new values of the variable and of each slot (in the kernel's order)."""
    update = UPDATES[name]
    uniforms = update.uniforms(attrs)
    values = tuple(value for _, _, value in uniforms)
    shape = inputs[0].shape
    outputs = ("value",) + update.slots
    reads = _reads(backend, update.inputs, inputs, shape)
    if reads and any(mode in ("row", "column") for mode in reads.values()):
        values += (texture_shape(shape, backend.ctx.max_texture_size)[0],)
    if len(outputs) <= backend.ctx.max_draw_buffers:
        return backend.run_outputs(_program(update, outputs, uniforms, shape, reads), inputs, "float32", values)
    return [backend.run(_program(update, (out,), uniforms, shape, reads), inputs, "float32", values)
            for out in outputs]


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
