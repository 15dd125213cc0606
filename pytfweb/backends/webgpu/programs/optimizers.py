"""Optimizer updates in one kernel per variable (pytfweb's own kernels; see the cpu module): one
dispatch writes the variable's new value and its slots' (one output binding each), whatever the
hyper-parameters (uniforms). The update functions are backends/gpu/optimizer_ops.py's, rendered to
WGSL (optimizers.wgsl); this module writes main, which computes the new slots and stores them.

A dispatch may bind only so many storage buffers (WebGPU's default is 8 per shader stage): an
update that needs more (Adam and AdaMax: 3 outputs, 6 inputs) runs as two dispatches, the slots
first, then the value from the slots just stored: the same float32 steps either way."""
import functools
import re

from ....kernels import register_kernel
from ...gpu.optimizer_ops import UPDATES
from .. import wgsl
from ..program import Program, _size
from .elementwise import BACKEND

_FILE = "optimizers.wgsl"

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


def _call(update, out, stored):
    """The call of out's function at element i: inputs from their buffers (a scalar tensor at 0),
    new slots from main's locals or, where stored, from the buffers `stored_<slot>` an earlier
    dispatch wrote, hyper-parameters from the uniforms."""
    fn = update.functions[out].name
    args = []
    for p, _ in wgsl.signature(_FILE, fn)[0]:
        if p.startswith("new_"):
            args.append(f"stored_{p[4:]}[i]" if stored else f"s_{p[4:]}")
        elif p in update.inputs:
            args.append(f"{p}[0]" if p in update.scalars else f"{p}[i]")
        else:
            args.append(f"u.{p}")
    return f"{fn}({', '.join(args)})"


@functools.lru_cache(maxsize=None)
def _program(name, slots, value, stored, fields):
    """(Program, names of the inputs it reads) storing `slots` and, where value is true, the
    variable's value (from the new slots computed here, or, where stored, read back from the
    buffers `stored_<slot>`). Only the inputs the code reads are bound (WebGPU refuses others)."""
    update = UPDATES[name]
    needed = update.slots_for(slots + (("value",) if value and not stored else ()))
    body = [f"  let s_{s} = {_call(update, s, False)};" for s in needed]
    body += [f"  out_{s}[i] = s_{s};" for s in slots]
    outputs = [(f"out_{s}", "f32") for s in slots]
    calls = [update.functions[s].name for s in needed]
    if value:
        body.append(f"  result[i] = {_call(update, 'value', stored)};")
        outputs.insert(0, ("result", "f32"))
        calls.append(update.functions["value"].name)
    code = wgsl.functions(*((_FILE, c) for c in calls)) + _MAIN.replace("BODY", "\n".join(body))
    names = update.inputs + (tuple(f"stored_{s}" for s in update.slots) if stored else ())
    used = tuple(n for n in names if re.search(rf"\b{n}\[", code))
    key = f"optimizers:{name}:{','.join(o for o, _ in outputs)}:{','.join(used)}"
    bindings = wgsl.bindings("f32", tuple((n, "f32") for n in used), fields, outputs=outputs)
    return Program(key, lambda: bindings + code, fields), used


def _dispatch(backend, name, inputs, slots, value, stored, fields, values):
    """One dispatch of _program(...) on inputs (by name); returns its outputs (the value first)."""
    program, used = _program(name, slots, value, stored, (("size", "i32"),) + fields)
    shape = tuple(inputs["value"].shape)
    n = _size(shape)
    extra = ((shape, "float32"),) * (len(slots) + value - 1)
    outs = backend.run(program, [inputs[k] for k in used], shape, "float32", (n,) + values,
                       backend.groups_for(n, 64), extra_outputs=extra)
    return outs if isinstance(outs, list) else [outs]


def _update(backend, inputs, name, attrs):
    """The variable's and its slots' new values. inputs: value, gradient, the slots, the scalars
    (optimizer_ops.UPDATES[name].inputs)."""
    update = UPDATES[name]
    slots = update.slots
    if _size(inputs[0].shape) == 0:
        return [backend.empty(inputs[0].shape, "float32") for _ in range(1 + len(slots))]
    uniforms = update.uniforms(attrs)
    fields = tuple((n, t) for n, t, _ in uniforms)
    values = tuple(v for _, _, v in uniforms)
    by_name = dict(zip(update.inputs, inputs))
    limit = MAX_BINDINGS or backend.device.max_storage_buffers
    if 1 + len(slots) + len(update.inputs) <= limit:
        return _dispatch(backend, name, by_name, slots, True, False, fields, values)
    # the slots first; then the value reads them back (bound under other names: `stored_<slot>`)
    new_slots = _dispatch(backend, name, by_name, slots, False, False, fields, values)
    by_name.update((f"stored_{s}", t) for s, t in zip(slots, new_slots))
    value = _dispatch(backend, name, by_name, (), True, True, fields, values)
    return value + new_slots


@register_kernel("ApplyGradientDescent", BACKEND)
def apply_gradient_descent(backend, inputs, attrs):
    return _update(backend, inputs, "sgd", attrs)


@register_kernel("ApplyMomentum", BACKEND)
def apply_momentum(backend, inputs, attrs):
    return _update(backend, inputs, "momentum_either", attrs)


@register_kernel("ApplyRMSProp", BACKEND)
def apply_rms_prop(backend, inputs, attrs):
    return _update(backend, inputs, "rmsprop_centered" if attrs["centered"] else "rmsprop", attrs)


@register_kernel("ApplyAdagrad", BACKEND)
def apply_adagrad(backend, inputs, attrs):
    return _update(backend, inputs, "adagrad", attrs)


@register_kernel("ApplyAdadelta", BACKEND)
def apply_adadelta(backend, inputs, attrs):
    return _update(backend, inputs, "adadelta", attrs)


@register_kernel("ApplyAdaMax", BACKEND)
def apply_ada_max(backend, inputs, attrs):
    return _update(backend, inputs, "adamax", attrs)


@register_kernel("ApplyAdam", BACKEND)
def apply_adam(backend, inputs, attrs):
    return _update(backend, inputs, "adam", attrs)
