"""Every elementwise kernel from the tables in ops/elementwise.py, plus Cast and Select.

Each kernel's GLSL is the function `op_<Kernel>` (`op_<Kernel>_int` for exact int32) of
unary_ops.glsl or binary_ops.glsl: rendered from the op table of backends/gpu/elementwise_ops.py
(the bodies webgpu's WGSL is rendered from too) and read by name through shader_source, as the
program bodies of backends/webgl/shaders/elementwise.glsl are."""
import array
import math
import operator

from ....kernels import TensorInfo, register_kernel
from ....kernels.elementwise import BINARY, GRADIENT_KERNELS, UNARY, out_dtype
from ....core.shapes import broadcast_shapes, size_of, strides_of
from ...shared import register_shared_kernels
from ...gpu import shader_source
from . import fusion
from .program import Program

register_shared_kernels("webgl")

# Unary ops whose GLSL function defines its own result for NaN (everything else maps NaN to NaN).
_NAN_AWARE = {"Sign", "IsNan", "IsInf", "IsFinite"}

# Kernel attributes that reach the shader as uniforms, by the GLSL name op functions use.
_UNIFORM_NAMES = {"alpha": "alpha", "clip_value_min": "clipMin", "clip_value_max": "clipMax"}


def _code(ops_file, fn_name, body):
    fn = shader_source.function(ops_file, fn_name)
    if fn is None:
        raise KeyError(f"webgl: {ops_file} (backends/gpu/elementwise_ops.py) defines no {fn_name}")
    return f"{fn}#define OP {fn_name}\n{body}"


def _unary_kernel(row):
    uniforms = tuple((_UNIFORM_NAMES[a], "float") for a in row.attrs)
    key = "unary:" + row.kernel
    code = None

    def kernel(backend, inputs, attrs):
        nonlocal code
        (x,) = inputs
        dtype = out_dtype(row, x.dtype)
        if not row.attrs and fusion.enabled():   # ops with attributes read named uniforms: drawn alone
            out = fusion.defer(backend, "unary_ops.glsl", "op_" + row.kernel, row.kernel not in _NAN_AWARE,
                               inputs, x.shape, dtype, lambda t: None)
            if out is not None:
                return out
        if code is None:
            body = "unary_nan_aware" if row.kernel in _NAN_AWARE else "unary"
            code = _code("unary_ops.glsl", "op_" + row.kernel, shader_source.program("elementwise.glsl", body))
        values = tuple(float(attrs[a]) for a in row.attrs)
        return backend.run(Program(key, ("x",), x.shape, code, uniforms), inputs, dtype, values)
    return kernel


_STRING_COMPARE = {"Equal": operator.eq, "NotEqual": operator.ne, "Greater": operator.gt,
                   "GreaterEqual": operator.ge, "Less": operator.lt, "LessEqual": operator.le}


def _flat_index(shape, out_shape):
    """For each flat index of out_shape, the flat index of the broadcast operand of shape."""
    pad = len(out_shape) - len(shape)
    strides = strides_of(shape)
    steps = [0] * pad + [st if d != 1 else 0 for d, st in zip(shape, strides)]
    index = [0]
    for d, st in zip(out_shape, steps):
        index = [i + k * st for i in index for k in range(d)]
    return index if size_of(out_shape) else []


def _compare_strings(backend, row, a, b):
    """Two string tensors compared (TF.js compares strings too): their values never live in a
    texture, so this runs host-side, as the string kernels do."""
    out_shape = broadcast_shapes(a.shape, b.shape, row.name)
    av, bv = backend.read_sync(a.data_id), backend.read_sync(b.data_id)
    fn = _STRING_COMPARE[row.kernel]
    values = array.array("B", [fn(av[i], bv[j]) for i, j in zip(_flat_index(a.shape, out_shape),
                                                                _flat_index(b.shape, out_shape))])
    return TensorInfo(backend.write(values, out_shape, "bool"), out_shape, "bool")


def _host_scalar(backend, t):
    """The value of a one-value tensor whose value is still only on the CPU side (a Python number
    made a tensor, say), if it is finite; else None. A program takes it as a uniform, which spares
    a texture and its upload: training steps make hundreds of such constants."""
    if size_of(t.shape) != 1:
        return None
    d = backend.store[t.data_id]
    if d.texture is not None or d.complex_parts is not None or d.values is None:
        return None
    v = float(d.values[0])
    return v if math.isfinite(v) else None


def binary_function(kernel, dtype):
    """binary_ops.glsl's function of a binary kernel for operands of dtype (op_Add, or op_Add_int
    where int32 has its own)."""
    variant = "op_" + kernel
    if dtype == "int32" and shader_source.function("binary_ops.glsl", variant + "_int") is not None:
        variant += "_int"
    return variant


def _binary_kernel(row):
    codes = {}

    def kernel(backend, inputs, attrs):
        a, b = inputs
        if a.dtype == "string":
            return _compare_strings(backend, row, a, b)
        variant = binary_function(row.kernel, a.dtype)
        out_shape = broadcast_shapes(a.shape, b.shape, row.name)
        dtype = out_dtype(row, a.dtype)
        if fusion.enabled():
            out = fusion.defer(backend, "binary_ops.glsl", variant, False, inputs, out_shape, dtype,
                               lambda t: _host_scalar(backend, t))
            if out is not None:
                return out
        body, names, operands, values = "binary", ("a", "b"), inputs, ()
        for i, side in ((1, "b"), (0, "a")):
            value = _host_scalar(backend, inputs[i])
            if value is not None:
                body, names, operands, values = f"binary_scalar_{side}", ("b",) if i == 0 else ("a",), \
                    [inputs[1 - i]], (value,)
                break
        code = codes.get((variant, body))
        if code is None:
            code = codes[variant, body] = _code("binary_ops.glsl", variant, shader_source.program("elementwise.glsl", body))
        uniforms = ((f"scalar{body[-1].upper()}", "float"),) if values else ()
        return backend.run(Program(f"binary:{variant}:{body}", names, out_shape, code, uniforms), operands, dtype,
                           values)
    return kernel


for _row in UNARY:
    register_kernel(_row.kernel, "webgl", _unary_kernel(_row))
for _row in BINARY + GRADIENT_KERNELS:
    register_kernel(_row.kernel, "webgl", _binary_kernel(_row))


@register_kernel("Cast", "webgl")
def cast(backend, inputs, attrs):
    (x,) = inputs
    dtype = attrs["dtype"]
    # Every dtype travels as floats, so widening is a copy (the data is not shared, because
    # a buffer's dtype decides how it is read back).
    if dtype == "float32" or (dtype == "int32" and x.dtype == "bool"):
        section = "copy"
    else:
        section = "cast_to_bool" if dtype == "bool" else "cast_to_int"
    code = shader_source.program("elementwise.glsl", section)
    return backend.run(Program(section, ("x",), x.shape, code), inputs, dtype)


@register_kernel("Select", "webgl")
def select(backend, inputs, attrs):
    c, a, b = inputs
    out_shape = broadcast_shapes(broadcast_shapes(c.shape, a.shape, "where"), b.shape, "where")
    code = shader_source.program("elementwise.glsl", "select")
    return backend.run(Program("select", ("condition", "a", "b"), out_shape, code), inputs, a.dtype)
