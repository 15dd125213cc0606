"""webgl programs: Prelu, AddN, Cumsum, Cumprod, Bincount, DenseBincount (backends/webgl/shaders/math.glsl).

All run as shaders. Cumulative sums and products are Hillis-Steele scans (as TF.js's webgl
backend): log2(n) passes, each combining a value with the one 1, 2, 4, ... places before it;
they read x flat with the axis's size and stride, so no axis needs moving last. int32 values
are summed and multiplied as floats, exact while |values| <= 2^24 (as everywhere on this
backend; the cpu backend wraps like Int32Array beyond 2^31). Bincount has
an output size fixed by its `size` attribute, so it runs as a shader too (TF.js's webgl backend
reads back and counts on the CPU): one fragment per bin loops over its row of x.
"""
import array

from ....core.dtypes import TYPECODES
from ....kernels import TensorInfo, register_kernel
from ....core.shapes import broadcast_shapes, size_of, strides_of
from ...gpu import shader_source
from . import fusion
from .elementwise import binary_function
from .program import Program

# Textures one AddN pass may sample (WebGL2 guarantees 16 units per fragment shader).
_MAX_ADD_N_INPUTS = 15


def _section(name):
    return shader_source.program("math.glsl", name)


def _flat(t):
    return TensorInfo(t.data_id, (size_of(t.shape),), t.dtype)


def _defines(**values):
    return "".join(f"#define {k} {v}\n" for k, v in values.items())


@register_kernel("Prelu", "webgl")
def prelu(backend, inputs, attrs):
    x, alpha = inputs
    out_shape = broadcast_shapes(x.shape, alpha.shape, "prelu")
    if fusion.enabled():
        # Elementwise, so deferred as the tables' binary ops are: the bias Add before it (a graph
        # model's DepthwiseConv2dNative -> Add -> Prelu, 26 times in iris's predict) and it draw once
        out = fusion.defer(backend, "math.glsl", "op_Prelu", False, inputs, out_shape, "float32", lambda t: None)
        if out is not None:
            return out
    code = (shader_source.function("math.glsl", "op_Prelu") + "#define OP op_Prelu\n"
            + shader_source.program("elementwise.glsl", "binary"))
    return backend.run(Program("prelu", ("a", "b"), out_shape, code), inputs, "float32")


@register_kernel("AddN", "webgl")
def add_n(backend, inputs, attrs):
    if len(inputs) == 1:
        return TensorInfo(inputs[0].data_id, inputs[0].shape, inputs[0].dtype)
    if fusion.enabled() and all(tuple(t.shape) == tuple(inputs[0].shape) for t in inputs):
        # Elementwise, so deferred as chained adds: a residual sum of convolution outputs (still
        # pending unpacks) then draws with them and whatever follows it, in one program.
        out = _deferred_sum(backend, inputs)
        if out is not None:
            return out
    if len(inputs) > _MAX_ADD_N_INPUTS:
        # Sum the halves, then the two partial sums (as TF.js does past its texture limit).
        half = len(inputs) // 2
        parts = [add_n(backend, inputs[:half], attrs), add_n(backend, inputs[half:], attrs)]
        out = add_n(backend, parts, attrs)
        for p in parts:
            if all(p.data_id is not t.data_id for t in inputs):
                backend.dispose_data(p.data_id)
        return out
    names = tuple(f"x{i}" for i in range(len(inputs)))
    total = " + ".join(f"getX{i}AtOutCoords()" for i in range(len(inputs)))
    code = _defines(SUM=f"({total})") + _section("add_n")
    program = Program(f"add_n:{len(inputs)}", names, inputs[0].shape, code)
    return backend.run(program, inputs, inputs[0].dtype)


def _deferred_sum(backend, inputs):
    """AddN as pending adds (binary_ops.glsl's op_Add, left to right as the add_n program sums), or
    None where fusion does not take the dtype."""
    dtype = inputs[0].dtype
    if dtype not in ("float32", "int32") or any(t.dtype != dtype for t in inputs):
        return None
    variant = binary_function("Add", dtype)
    out = inputs[0]
    for t in inputs[1:]:
        step = fusion.defer(backend, "binary_ops.glsl", variant, False, [out, t], t.shape, t.dtype, lambda _: None)
        if out is not inputs[0]:
            backend.dispose_data(out.data_id)
        if step is None:
            return None
        out = step
    return out


def _cumulative_kernel(combine, identity):
    def kernel(backend, inputs, attrs):
        (x,) = inputs
        axis = attrs["axis"]
        size = x.shape[axis]
        if size_of(x.shape) == 0 or (size == 1 and not attrs["exclusive"]):
            return TensorInfo(x.data_id, x.shape, x.dtype)   # nothing to combine
        direction = -1 if attrs["reverse"] else 1
        head = _defines(AXIS_SIZE=size, AXIS_STRIDE=strides_of(x.shape)[axis], DIRECTION=direction,
                        IDENTITY=identity, **{"COMBINE(a, b)": combine})
        # The key names the code: the constants above, not the (flat) shape the backend adds.
        key = f"cum:{combine}:{size}:{strides_of(x.shape)[axis]}:{direction}"
        current = _flat(x)
        passes = []
        if attrs["exclusive"]:
            passes.append(("cum_shift", ()))
        reach = 1
        while reach < size:
            passes.append(("cum_scan", (reach,)))
            reach *= 2
        for section, values in passes:
            uniforms = (("reach", "int"),) if values else ()
            program = Program(f"{key}:{section}", ("x",), current.shape, head + _section(section), uniforms)
            out = backend.run(program, [current], x.dtype, values)
            if current.data_id is not x.data_id:
                backend.dispose_data(current.data_id)
            current = out
        return TensorInfo(current.data_id, x.shape, x.dtype)
    return kernel


register_kernel("Cumsum", "webgl", _cumulative_kernel("((a) + (b))", "0.0"))
register_kernel("Cumprod", "webgl", _cumulative_kernel("((a) * (b))", "1.0"))


def _bincount(backend, x, weights, size, binary_output):
    """[rows, size] bins of x read as rows of its last axis (a vector is one row)."""
    rows = x.shape[0] if len(x.shape) == 2 else 1
    row_length = x.shape[-1]
    if row_length == 0:   # no values: zeros, written (an empty x has no texture to sample)
        zeros = array.array(TYPECODES[weights.dtype], bytes(4 * rows * size))
        return TensorInfo(backend.write(zeros, (rows, size), weights.dtype), (rows, size), weights.dtype)
    weighted = size_of(weights.shape) > 0 and not binary_output
    code = _defines(SIZE=size, ROW_LENGTH=row_length, BINARY_OUTPUT=int(binary_output),
                    **{"WEIGHT(i)": "getWeightsFlat(i)" if weighted else "1.0"}) + _section("bincount")
    names, inputs = (("x", "weights"), [_flat(x), _flat(weights)]) if weighted else (("x",), [_flat(x)])
    key = f"bincount:{size}:{row_length}:{int(binary_output)}:{weighted}"
    return backend.run(Program(key, names, (rows, size), code), inputs, weights.dtype)


@register_kernel("Bincount", "webgl")
def bincount(backend, inputs, attrs):
    x, weights = inputs
    x = _flat(x)   # every value counts, whatever x's shape
    out = _bincount(backend, x, weights, attrs["size"], False)
    return TensorInfo(out.data_id, (attrs["size"],), weights.dtype)


@register_kernel("DenseBincount", "webgl")
def dense_bincount(backend, inputs, attrs):
    x, weights = inputs
    out = _bincount(backend, x, weights, attrs["size"], attrs["binary_output"])
    shape = (x.shape[0], attrs["size"]) if len(x.shape) == 2 else (attrs["size"],)
    return TensorInfo(out.data_id, shape, weights.dtype)
