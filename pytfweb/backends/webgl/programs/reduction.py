"""Reductions as shaders: Sum, Mean, Prod, Max, Min, All, Any over any axes; ArgMax, ArgMin.

As in TF.js, x is read as rows, [outer, inner] = [kept axes, reduced axes], and reduced in
passes: a fragment combines a window of about sqrt(inner) consecutive values of its row, so
no fragment loops over a million values and n values take two or three passes. Unlike TF.js,
the first pass reads x where it is, through an index function built for x's shape and axes,
so the reduced axes need no transpose to come last. Float sums (Sum, Mean) carry each
addition's rounding error along (reduction.glsl's `sum`), about as exact as TF.js's cpu backend,
which sums in float64.
"""
import array
import math

from ....core.dtypes import TYPECODES
from ....kernels import TensorInfo, register_kernel
from ....core.shapes import size_of, strides_of
from ...gpu import shader_source
from .program import Program

# A row this long or shorter is one fragment's loop; longer rows take windows of sqrt(n).
_MAX_SINGLE_PASS = 128

# Kernel -> combining function in backends/webgl/shaders/reduction.glsl.
_COMBINE = {"Sum": "reduce_Sum", "Mean": "reduce_Sum", "Prod": "reduce_Prod",
            "Max": "reduce_Max", "Min": "reduce_Min",
            # bools travel as 0 and 1: all is min, any is max
            "All": "reduce_Min", "Any": "reduce_Max"}


def strided_index(var, sizes, strides):
    """A GLSL int expression: `var` decoded row-major over sizes, each coordinate times its
    stride. A stride of 0 drops that coordinate (an axis read at index 0: broadcasting)."""
    terms, inner = [], 1
    for j in reversed(range(len(sizes))):
        size, stride = sizes[j], strides[j]
        if stride and size != 1:
            coord = var if inner == 1 else f"{var} / {inner}"
            if j > 0:   # var < product of sizes, so the outermost coordinate needs no modulo
                coord = f"({coord}) % {size}"
            terms.append(coord if stride == 1 else f"({coord}) * {stride}")
        inner *= size
    return " + ".join(reversed(terms)) or "0"


def _merged(dims):
    """(size, stride) pairs with neighbours that are contiguous in memory merged into one,
    so a tensor reduced over its trailing axes is read as a plain [outer, inner] matrix."""
    out = []
    for size, stride in dims:
        if out and out[-1][1] == size * stride:
            out[-1] = (out[-1][0] * size, stride)
        else:
            out.append((size, stride))
    return out


def _index_function(shape, axes):
    """GLSL `int inputIndex(int row, int i)`: the flat index in a tensor of `shape` of value i
    of row `row`, where rows run over the axes not in `axes` and i over `axes` (row-major)."""
    dims = [(d, s, a in axes) for a, (d, s) in enumerate(zip(shape, strides_of(shape))) if d != 1]
    kept = _merged([(d, s) for d, s, reduced in dims if not reduced])
    reduced = _merged([(d, s) for d, s, reduced in dims if reduced])
    terms = [strided_index(var, [d for d, _ in ds], [s for _, s in ds])
             for var, ds in (("row", kept), ("i", reduced)) if ds]
    return f"int inputIndex(int row, int i) {{ return {' + '.join(terms) or '0'}; }}\n"


def _window(n):
    return n if n <= _MAX_SINGLE_PASS else math.ceil(math.sqrt(n))


def _pass_defines(in_size):
    """Shape constants of one pass over rows of in_size values; also its number of columns."""
    window = _window(in_size)
    cols = -(-in_size // window)
    return f"#define IN_SIZE {in_size}\n#define WINDOW {window}\n#define OUT_COLS {cols}\n", cols


def _rows(shape, axes):
    """(outer, inner): the number of rows and of values per row."""
    return (size_of([d for a, d in enumerate(shape) if a not in axes]),
            size_of([shape[a] for a in axes]))


def _section(name):
    return shader_source.program("reduction.glsl", name)


def _flat(t):
    """t viewed as a vector (free). Passes read x with getXFlat only, and the shader compiler's
    getXAtOutCoords fails for an input of higher rank than the output (rank 2 here)."""
    return TensorInfo(t.data_id, (size_of(t.shape),), t.dtype)


def reduce_passes(backend, x, combine, axes, out_shape, divisor=1):
    """Reduce x over axes (sorted; x non-empty) with a combining function of
    backends/webgl/shaders/reduction.glsl; returns the TensorInfo of a new tensor of out_shape and x's dtype.

    The last pass divides by divisor (Mean). Always runs at least one pass, so the result
    never shares x's data (callers may dispose it)."""
    outer, inner = _rows(x.shape, axes)
    values = "float_values"
    if x.dtype == "int32" and shader_source.function("reduction.glsl", combine + "_int") is not None:
        combine += "_int"
        values = "int_values"
    head = f"{shader_source.function('reduction.glsl', combine)}#define COMBINE {combine}\n{_section(values)}"
    body = _section("sum" if combine == "reduce_Sum" else "reduce")
    src, shape, pass_axes = x, x.shape, axes
    while True:
        defines, cols = _pass_defines(inner)
        last = cols == 1
        divide_by = float(divisor if last else 1)
        code = f"{head}{defines}#define DIVISOR {divide_by!r}\n{_index_function(shape, pass_axes)}{body}"
        # The input's shape is in the key because the backend only sees its flat view.
        key = f"reduce:{combine}:{shape}:{tuple(pass_axes)}:{divide_by!r}"
        out = backend.run(Program(key, ("x",), (outer, cols), code), [_flat(src)], x.dtype)
        if src is not x:
            backend.dispose_data(src.data_id)
        if last:
            return TensorInfo(out.data_id, tuple(out_shape), x.dtype)
        src, shape, pass_axes, inner = out, (outer, cols), [1], cols


def _identity(kernel, dtype):
    """What reducing no values gives, as on the cpu backend (TF.js's answers, but all's True)."""
    if kernel in ("Max", "Min"):
        return math.nan if dtype == "float32" else 0
    return {"Sum": 0, "Prod": 1, "Mean": 0, "All": 1, "Any": 0}[kernel]


def _reduction_kernel(kernel):
    def run(backend, inputs, attrs):
        (x,) = inputs
        axes = attrs["axis"]
        keep = attrs["keep_dims"]
        out_shape = tuple(1 if a in axes else d for a, d in enumerate(x.shape) if keep or a not in axes)
        outer, inner = _rows(x.shape, axes)
        if inner == 1:   # no axes, or only unit ones: the values stay as they are
            return TensorInfo(x.data_id, out_shape, x.dtype)
        if inner == 0 or outer == 0:
            # A constant (or nothing), written rather than drawn: an R32F texture cannot hold
            # int32's maximum, and the upload is lazy anyway.
            values = array.array(TYPECODES[x.dtype], [_identity(kernel, x.dtype)]) * outer
            return TensorInfo(backend.write(values, out_shape, x.dtype), out_shape, x.dtype)
        return reduce_passes(backend, x, _COMBINE[kernel], axes, out_shape,
                             divisor=inner if kernel == "Mean" else 1)
    return run


for _kernel in _COMBINE:
    register_kernel(_kernel, "webgl", _reduction_kernel(_kernel))


def _arg_kernel(kernel):
    better = "better_" + kernel

    def run(backend, inputs, attrs):
        (x,) = inputs
        axis = attrs["axis"]
        out_shape = x.shape[:axis] + x.shape[axis + 1:]
        outer, inner = _rows(x.shape, [axis])
        if outer == 0 or inner == 0:   # an empty axis gives index 0, as TF.js
            values = array.array("i", [0]) * outer
            return TensorInfo(backend.write(values, out_shape, "int32"), out_shape, "int32")
        head = f"{shader_source.function('reduction.glsl', better)}#define BETTER {better}\n" + \
            _index_function(x.shape, [axis])
        body = _section("arg_reduce")
        candidates = None   # the previous pass's winners (int32 indices along axis)
        while True:
            defines, cols = _pass_defines(inner)
            last = cols == 1
            first = candidates is None
            candidate_section = "arg_first_candidates" if first else "arg_next_candidates"
            code = head + defines + _section(candidate_section) + body
            program = Program(f"arg:{kernel}:{x.shape}:{axis}:{first}",
                              ("x",) if first else ("x", "candidates"), (outer, cols), code)
            out = backend.run(program, [_flat(x)] if first else [_flat(x), candidates], "int32")
            if not first:
                backend.dispose_data(candidates.data_id)
            if last:
                return TensorInfo(out.data_id, out_shape, "int32")
            candidates, inner = out, cols
    return run


register_kernel("ArgMax", "webgl", _arg_kernel("ArgMax"))
register_kernel("ArgMin", "webgl", _arg_kernel("ArgMin"))
