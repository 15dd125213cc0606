"""Every elementwise kernel of the tables in ops/elementwise.py (UNARY, BINARY, GRADIENT_KERNELS),
plus Cast, Select, Fill, ZerosLike and OnesLike, as WGSL compute shaders.

One source of truth with the other backends: the rows say which kernels exist and their dtype
rules (out_dtype); each kernel's WGSL is the function `op_<Kernel>` (or `op_<Kernel>_int` for
int32 and bool operands) of unary_ops.wgsl or binary_ops.wgsl, rendered from the op table of
backends/gpu/elementwise_ops.py (the bodies webgl's GLSL is rendered from too) and found by name
through wgsl.py as webgl finds its GLSL. The function's signature decides the loads (an i32 operand of an f32
function is converted) and the store (a bool result becomes 0/1; an f32 result stored as int32
goes through JS's ToInt32).

Shapes are uniforms: the pipeline key holds the function, dtypes, rank and how each input is
indexed (same shape as the output, one value, or broadcast through strides), never the sizes.

Each table kernel, Cast and Select is an `Op` (its WGSL expression over its operands); with
WEBGPU_FUSION (default) it is recorded, not dispatched, and a chain of them runs as one generated
shader when its values are needed (programs/fusion.py); else each runs in `run_elementwise`."""
import functools
from typing import NamedTuple

from ....core.tensor_values import _wrap_int32
from ....kernels import TensorInfo, register_kernel
from ....kernels.elementwise import BINARY, GRADIENT_KERNELS, UNARY, out_dtype
from ....core.shapes import broadcast_shapes, strides_of
from ...gpu.elementwise_ops import ATTR_UNIFORMS
from ...shared import register_shared_kernels
from .. import wgsl
from ..program import Program, _size, broadcast_strides, index_mode
from . import fusion

BACKEND = "webgpu"
register_shared_kernels(BACKEND)

# Unary ops whose function defines its own result for NaN (everything else maps NaN to NaN).
NAN_AWARE = {"Sign", "IsNan", "IsInf", "IsFinite"}

def choose(ops_file, fn_name, dtype):
    """The function for operands of dtype: `<fn>_int` for int32/bool where the file has it; for
    bool it must (a bool is never computed as a float); else `<fn>`."""
    if dtype != "float32" and wgsl.has(ops_file, fn_name + "_int"):
        return fn_name + "_int"
    if dtype == "bool" or not wgsl.has(ops_file, fn_name):
        raise NotImplementedError(f"webgpu: {ops_file} (backends/gpu/elementwise_ops.py) has no {fn_name} for "
                                  f"{dtype} operands")
    return fn_name


def load(expr, param_type, storage_type):
    return f"f32({expr})" if param_type == "f32" and storage_type == "i32" else expr


def store(expr, return_type, out_type):
    if return_type == "bool":
        return f"select(0, 1, {expr})"
    if return_type == "f32" and out_type == "i32":
        return f"toInt32({expr})"
    if return_type == "i32" and out_type == "f32":
        return f"f32({expr})"
    return expr


def run_elementwise(backend, key, functions, inputs, names, out_shape, out_dtype_, expr, extra_fields=(),
                    extra_values=()):
    """The generic elementwise program: output value `expr` (WGSL over v_<name> for each input,
    already converted) at every index of out_shape. A one-value input whose value is CPU-side (a
    Python number made a tensor, say) goes as a uniform: no buffer, no upload (training steps make
    hundreds of such constants)."""
    rank = len(out_shape)
    modes = ["uniform" if _size(t.shape) == 1 and backend.values_if_known(t) is not None
             else index_mode(t.shape, out_shape) for t in inputs]
    any_bcast = "bcast" in modes
    fields = [("size", "i32")]
    values = [_size(out_shape)]
    if any_bcast:
        fields += wgsl.stride_fields("os", rank, last=False)
        values += strides_of(out_shape)[:-1]
    types = [(n, wgsl.STORAGE_TYPE[t.dtype]) for n, t in zip(names, inputs)]
    for (name, t_), t, mode in zip(types, inputs, modes):
        if mode == "bcast":
            fields += wgsl.stride_fields(f"{name}_s", rank)
            values += broadcast_strides(t.shape, out_shape)
        elif mode == "uniform":
            fields.append((f"{name}_u", t_))
            v = backend.values_if_known(t)[0]
            values.append(float(v) if t_ == "f32" else int(v))
    fields += list(extra_fields)
    values += list(extra_values)
    out_t = wgsl.STORAGE_TYPE[out_dtype_]
    bound = [(n, t_) for (n, t_), m in zip(types, modes) if m != "uniform"]
    # the rank matters to the code only where an input is broadcast through strides
    full_key = (f"ew:{key}:{rank if any_bcast else ''}:{''.join(m[0] for m in modes)}:"
                f"{''.join(t for _, t in types)}>{out_t}")

    def source():
        loads = []
        for (name, _), mode in zip(types, modes):
            if mode == "uniform":
                loads.append(f"  let v_{name} = u.{name}_u;")
                continue
            at = {"same": "index", "one": "0", "bcast": wgsl.dot("c", rank, f"{name}_s")}[mode]
            loads.append(f"  let v_{name} = {name}[{at}];")
        body = (wgsl.program("elementwise.wgsl", "main")
                .replace("COORDS", wgsl.coords("c", rank) if any_bcast else "")
                .replace("LOADS", "\n".join(loads)).replace("STORE", expr))
        return functions() + wgsl.bindings(out_t, bound, fields) + body

    program = Program(full_key, source, tuple(fields))
    return backend.run(program, [t for t, m in zip(inputs, modes) if m != "uniform"], out_shape, out_dtype_, values,
                       backend.groups_for(_size(out_shape), 64))


class Op(NamedTuple):
    """One elementwise op as WGSL: `expr` over its operands' values {0}, {1}, ... (each in its
    dtype's storage type, as is the result) and its attribute fields {u}<field> ({u} is the prefix
    of the program's uniform fields); `key` names it in pipeline keys; `functions` ((file, fn
    name), ...) the WGSL it calls; `fields` its attribute uniforms ((field, type), ...)."""
    key: str
    expr: str
    functions: tuple = ()
    fields: tuple = ()


def _refuse_complex(backend, inputs):
    """A complex64 input of a kernel without a complex path: the TypeError run() gives, before the
    op is built (its dtype has no storage type)."""
    for t in inputs:
        if t.dtype not in wgsl.STORAGE_TYPE:
            backend.ensure_buffer(t.data_id)


def run_op(backend, op, inputs, names, out_shape, dtype, values=()):
    """op on inputs: recorded for fusion (programs/fusion.py) where it is on, else one dispatch.
    names: the inputs' names in the unfused program."""
    if fusion.enabled():
        out = fusion.defer(backend, op, inputs, out_shape, dtype, values)
        if out is not None:
            return out
    expr = op.expr.format(*(f"v_{n}" for n in names), u="u.")
    return run_elementwise(backend, op.key, lambda: wgsl.functions(*op.functions), inputs, names, out_shape, dtype,
                           expr, op.fields, values)


@functools.lru_cache(maxsize=None)
def _unary_op(kernel, in_dtype, dtype):
    fn = choose("unary_ops.wgsl", "op_" + kernel, in_dtype)
    (params, ret) = wgsl.signature("unary_ops.wgsl", fn)
    in_t, out_t = wgsl.STORAGE_TYPE[in_dtype], wgsl.STORAGE_TYPE[dtype]
    args = [load("{0}", params[0][1], in_t)] + [f"{{u}}{p}" for p, _ in params[1:]]   # then the attributes
    expr = store(f"{fn}({', '.join(args)})", ret, out_t)
    if ret == "f32" and in_t == "f32" and out_t == "f32" and kernel not in NAN_AWARE:
        expr = f"select({expr}, {{0}}, isNan({{0}}))"   # NaN in, NaN out
    fields = ATTR_UNIFORMS.get(kernel, ((),))[0]
    return Op(fn, expr, (("unary_ops.wgsl", fn), (wgsl.COMMON, "isNan")), fields)


def _unary_kernel(row):
    values_of = ATTR_UNIFORMS.get(row.kernel, ((), lambda a: ()))[1]

    def kernel(backend, inputs, attrs):
        (x,) = inputs
        _refuse_complex(backend, inputs)
        dtype = out_dtype(row, x.dtype)
        return run_op(backend, _unary_op(row.kernel, x.dtype, dtype), inputs, ("x",), x.shape, dtype,
                      values_of(attrs))
    return kernel


def _compare_strings(backend, row, a, b):
    """Two string tensors compared (TF.js compares strings too): their values are CPU-side
    (strings never go to the GPU), so this runs on the host, as on webgl."""
    import array
    import operator
    fn = {"Equal": operator.eq, "NotEqual": operator.ne, "Greater": operator.gt, "GreaterEqual": operator.ge,
          "Less": operator.lt, "LessEqual": operator.le}[row.kernel]
    out_shape = broadcast_shapes(a.shape, b.shape, row.name)
    av, bv = backend.read_sync(a.data_id), backend.read_sync(b.data_id)
    sa, sb = broadcast_strides(a.shape, out_shape), broadcast_strides(b.shape, out_shape)
    values = array.array("B")
    out_strides = strides_of(out_shape)
    for i in range(_size(out_shape)):
        ia = ib = 0
        for st, x, y in zip(out_strides, sa, sb):
            c, i = divmod(i, st) if st else (0, i)
            ia += c * x
            ib += c * y
        values.append(fn(av[ia], bv[ib]))
    return TensorInfo(backend.write(values, out_shape, "bool"), out_shape, "bool")


@functools.lru_cache(maxsize=None)
def _binary_op(kernel, in_dtype, dtype):
    fn = choose("binary_ops.wgsl", "op_" + kernel, in_dtype)
    (params, ret) = wgsl.signature("binary_ops.wgsl", fn)
    in_t, out_t = wgsl.STORAGE_TYPE[in_dtype], wgsl.STORAGE_TYPE[dtype]
    expr = store(f"{fn}({load('{0}', params[0][1], in_t)}, {load('{1}', params[1][1], in_t)})", ret, out_t)
    return Op(fn, expr, (("binary_ops.wgsl", fn),))


def _binary_kernel(row):
    def kernel(backend, inputs, attrs):
        a, b = inputs
        if a.dtype == "string":
            return _compare_strings(backend, row, a, b)
        _refuse_complex(backend, inputs)
        out_shape = broadcast_shapes(a.shape, b.shape, row.name)
        dtype = out_dtype(row, a.dtype)
        return run_op(backend, _binary_op(row.kernel, a.dtype, dtype), inputs, ("a", "b"), out_shape, dtype)
    return kernel


for _row in UNARY:
    register_kernel(_row.kernel, BACKEND, _unary_kernel(_row))
for _row in BINARY + GRADIENT_KERNELS:
    register_kernel(_row.kernel, BACKEND, _binary_kernel(_row))


@functools.lru_cache(maxsize=None)
def _cast_op(in_dtype, dtype):
    if dtype == in_dtype:
        return Op("copy", "{0}")
    fn = "cast_to_float32_int" if dtype == "float32" else choose("unary_ops.wgsl", "cast_to_" + dtype, in_dtype)
    (params, ret) = wgsl.signature("unary_ops.wgsl", fn)
    expr = store(f"{fn}({load('{0}', params[0][1], wgsl.STORAGE_TYPE[in_dtype])})", ret, wgsl.STORAGE_TYPE[dtype])
    return Op(fn, expr, (("unary_ops.wgsl", fn),))


@register_kernel("Cast", BACKEND)
def cast(backend, inputs, attrs):
    (x,) = inputs
    dtype = attrs["dtype"]
    if dtype not in wgsl.STORAGE_TYPE:
        raise TypeError(f"webgpu: Cast to {dtype} is not supported (float32, int32 and bool are)")
    return run_op(backend, _cast_op(x.dtype, dtype), inputs, ("x",), x.shape, dtype)


def _copy(backend, x):
    return run_elementwise(backend, "copy", lambda: "", [x], ["x"], x.shape, x.dtype, "v_x")


_SELECT = Op("select", "select({2}, {1}, {0} != 0)")


@register_kernel("Select", BACKEND)
def select(backend, inputs, attrs):
    c, a, b = inputs
    out_shape = broadcast_shapes(broadcast_shapes(c.shape, a.shape, "where"), b.shape, "where")
    return run_op(backend, _SELECT, inputs, ("c", "a", "b"), out_shape, a.dtype)


def fill(backend, shape, value, dtype):
    """A new tensor of shape filled with value, written by a shader (no upload)."""
    shape = tuple(shape)
    if dtype == "complex64":   # a float32 real part and a zero imaginary part (as webgl's)
        return backend.make_complex(fill(backend, shape, value, "float32"), fill(backend, shape, 0.0, "float32"))
    if _size(shape) == 0:
        return backend.empty(shape, dtype)
    if dtype not in wgsl.STORAGE_TYPE:
        raise TypeError(f"webgpu: Fill of dtype {dtype} is not supported (float32, int32 and bool are)")
    t = wgsl.STORAGE_TYPE[dtype]
    if dtype == "float32":
        fields, values = (("value", "f32"),), (float(value),)
    else:
        v = int(bool(value)) if dtype == "bool" else _wrap(value)
        fields, values = (("value", "i32"),), (v,)
    program = Program(f"fill:{t}", lambda: wgsl.bindings(t, (), (("size", "i32"),) + fields) + _FILL,
                      (("size", "i32"),) + fields)
    return backend.run(program, [], shape, dtype, (_size(shape),) + values, backend.groups_for(_size(shape), 64))


def _wrap(v):
    return _wrap_int32(int(v))


_FILL = """
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let index = i32(gid.x + gid.y * nwg.x * 64u);
  if (index >= u.size) { return; }
  result[index] = u.value;
}
"""


@register_kernel("Fill", BACKEND)
def fill_kernel(backend, inputs, attrs):
    return fill(backend, attrs["shape"], attrs["value"], attrs["dtype"])


@register_kernel("ZerosLike", BACKEND)
def zeros_like(backend, inputs, attrs):
    (x,) = inputs
    return fill(backend, x.shape, 0, x.dtype)


@register_kernel("OnesLike", BACKEND)
def ones_like(backend, inputs, attrs):
    (x,) = inputs
    return fill(backend, x.shape, 1, x.dtype)
