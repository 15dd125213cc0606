"""Optimizer updates in one kernel per variable (pytfweb's own kernels; see the cpu module): one
dispatch writes the variable's new value and its slots' (one output binding each), whatever the
hyper-parameters (uniforms). backends/webgpu/shaders/optimizers.wgsl has each optimizer's functions.

A dispatch may bind only so many storage buffers (WebGPU's default is 8 per shader stage): an
update that needs more (Adam and AdaMax: 3 outputs, 6 inputs) runs as two dispatches, the slots
first, then the value from the slots just stored: the same float32 steps either way."""
import functools
import re

from ....kernels import register_kernel
from .. import wgsl
from ..program import Program, _size
from .elementwise import BACKEND

_FILE = "optimizers.wgsl"
# What the optimizers' functions call besides each other (wgsl.functions finds callees only in
# the same file and common.wgsl).
_HELPERS = ((_FILE, "sqrtOf"), ("unary_ops.wgsl", "op_Sqrt"), ("unary_ops.wgsl", "op_Abs"),
            ("binary_ops.wgsl", "op_Maximum"))

# The storage buffers one dispatch may bind; None: the device's limit (tests set less to run the
# two-dispatch form of every update).
MAX_BINDINGS = None

_MAIN = """
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = i32(gid.x + gid.y * nwg.x * 64u);
  if (i >= u.size) { return; }
BODY
}
"""


@functools.lru_cache(maxsize=None)
def _program(prefix, names, slots, value_from, fields):
    """(Program, indices of the inputs it reads) storing `slots` (each `<prefix>_<slot>(i)`) and,
    where value_from is given, the value (`<prefix>_value(i, ...)` of value_from: per slot, the
    WGSL of its new value). Only the inputs the code reads are bound (WebGPU refuses others)."""
    body = [f"  let s_{s} = {prefix}_{s}(i);\n  out_{s}[i] = s_{s};" for s in slots]
    outputs = [(f"out_{s}", "f32") for s in slots]
    calls = [f"{prefix}_{s}" for s in slots]
    if value_from is not None:
        body.append(f"  result[i] = {prefix}_value(i{''.join(', ' + v for v in value_from)});")
        outputs.insert(0, ("result", "f32"))
        calls.append(f"{prefix}_value")
    code = wgsl.functions(*_HELPERS, *((_FILE, c) for c in calls)) + _MAIN.replace("BODY", "\n".join(body))
    used = tuple(k for k, n in enumerate(names) if re.search(rf"\b{n}\[", code))
    key = f"optimizers:{prefix}:{','.join(o for o, _ in outputs)}:{','.join(names[k] for k in used)}"
    bindings = wgsl.bindings("f32", tuple((names[k], "f32") for k in used), fields, outputs=outputs)
    return Program(key, lambda: bindings + code, fields), used


def _dispatch(backend, prefix, inputs, names, slots, value_from, fields, values):
    """One dispatch of _program(...) on inputs; returns its outputs (the value first)."""
    program, used = _program(prefix, names, slots, value_from, (("size", "i32"),) + fields)
    shape = tuple(inputs[0].shape)
    n = _size(shape)
    extra = ((shape, "float32"),) * (len(slots) + (value_from is not None) - 1)
    outs = backend.run(program, [inputs[k] for k in used], shape, "float32", (n,) + values,
                       backend.groups_for(n, 64), extra_outputs=extra)
    return outs if isinstance(outs, list) else [outs]


def _update(backend, inputs, prefix, slots, scalars, fields, values):
    """The variable's and its slots' new values. inputs: value, gradient, the slots, the scalars
    (as named); fields: the hyper-parameters' uniforms ((name, type), ...) and their values."""
    names = ("value", "gradient") + slots + scalars
    if _size(inputs[0].shape) == 0:
        return [backend.empty(inputs[0].shape, "float32") for _ in range(1 + len(slots))]
    limit = MAX_BINDINGS or backend.device.max_storage_buffers
    if 1 + len(slots) + len(names) <= limit:
        return _dispatch(backend, prefix, inputs, names, slots, tuple(f"s_{s}" for s in slots), fields, values)
    # the slots first; then the value reads them back (bound under other names: `stored_<slot>`)
    new_slots = _dispatch(backend, prefix, inputs, names, slots, None, fields, values)
    stored = tuple(f"stored_{s}" for s in slots)
    value = _dispatch(backend, prefix, list(inputs) + new_slots, names + stored, (),
                      tuple(f"{s}[i]" for s in stored), fields, values)
    return value + new_slots


def _f32(*names):
    return tuple((n, "f32") for n in names)


@register_kernel("ApplyGradientDescent", BACKEND)
def apply_gradient_descent(backend, inputs, attrs):
    return _update(backend, inputs, "sgd", (), (), _f32("negLearningRate"), (-attrs["learning_rate"],))


@register_kernel("ApplyMomentum", BACKEND)
def apply_momentum(backend, inputs, attrs):
    return _update(backend, inputs, "momentum", ("accumulation",), (),
                   _f32("negLearningRate", "momentum") + (("nesterov", "i32"),),
                   (-attrs["learning_rate"], attrs["momentum"], int(bool(attrs["use_nesterov"]))))


@register_kernel("ApplyRMSProp", BACKEND)
def apply_rms_prop(backend, inputs, attrs):
    centered = attrs["centered"]
    decay = attrs["decay"]
    slots = ("ms", "mom", "mg") if centered else ("ms", "mom")
    return _update(backend, inputs, "rmspropc" if centered else "rmsprop", slots, (),
                   _f32("decay", "oneMinusDecay", "momentum", "learningRate", "epsilon"),
                   (decay, 1 - decay, attrs["momentum"], attrs["learning_rate"], attrs["epsilon"]))


@register_kernel("ApplyAdagrad", BACKEND)
def apply_adagrad(backend, inputs, attrs):
    return _update(backend, inputs, "adagrad", ("accumulator",), (), _f32("negLearningRate", "epsilon"),
                   (-attrs["learning_rate"], attrs["epsilon"]))


@register_kernel("ApplyAdadelta", BACKEND)
def apply_adadelta(backend, inputs, attrs):
    rho = attrs["rho"]
    return _update(backend, inputs, "adadelta", ("accumGrad", "accumVar"), (),
                   _f32("rho", "oneMinusRho", "epsilon", "negLearningRate"),
                   (rho, 1 - rho, attrs["epsilon"], -attrs["learning_rate"]))


@register_kernel("ApplyAdaMax", BACKEND)
def apply_ada_max(backend, inputs, attrs):
    beta1 = attrs["beta1"]
    return _update(backend, inputs, "adamax", ("m", "v"), ("oneMinusAccBeta1", "lr"),
                   _f32("beta1", "oneMinusBeta1", "beta2", "epsilon"),
                   (beta1, 1 - beta1, attrs["beta2"], attrs["epsilon"]))


@register_kernel("ApplyAdam", BACKEND)
def apply_adam(backend, inputs, attrs):
    beta1, beta2 = attrs["beta1"], attrs["beta2"]
    return _update(backend, inputs, "adam", ("m", "v"), ("oneMinusAccBeta1", "oneMinusAccBeta2"),
                   _f32("beta1", "oneMinusBeta1", "beta2", "oneMinusBeta2", "epsilon", "negLearningRate"),
                   (beta1, 1 - beta1, beta2, 1 - beta2, attrs["epsilon"], -attrs["learning_rate"]))
