"""Reductions: Sum, Mean, Prod, Max, Min, Any, All, ArgMax, ArgMin (contract in ops/reduction.py)
as WGSL (backends/webgpu/shaders/reduction.wgsl).

The input's dims are split into kept (outer) and reduced ones, adjacent dims of one kind merged
(a [2, 3, 4, 5] tensor reduced over axes 1 and 2 is [2, 12, 5] reduced over the middle), so the
code depends only on the two ranks, the op and the dtype; the sizes and strides are uniforms.
Short reductions run one invocation per output value ("serial"); long ones one workgroup of 64
per output value with a tree in workgroup memory ("parallel"). ArgMax/ArgMin always use the
workgroup form. Reducing over nothing gives the op's empty value by Fill (0 for sum and mean, 1
for prod and all, NaN for float max/min and 0 for int32/bool ones, false for any)."""
from ....kernels import register_kernel
from ....core.shapes import strides_of
from .. import wgsl
from ..program import Program, _size
from .elementwise import BACKEND, fill

# Reductions at least this long use a workgroup per output value.
PARALLEL_FROM = 256


def split_dims(shape, axes):
    """((outer sizes, outer input strides), (reduced sizes, reduced input strides)), adjacent dims
    of one kind merged, size-1 dims dropped."""
    strides = strides_of(shape)
    groups = {True: [], False: []}
    last = None
    for d, (n, st) in enumerate(zip(shape, strides)):
        if n == 1:
            continue
        kind = d in axes
        dims = groups[kind]
        if last is kind and dims:
            size, _ = dims[-1]
            dims[-1] = (size * n, st)   # merged with the previous dim of the same kind
        else:
            dims.append((n, st))
        last = kind
    return groups[False], groups[True]


def _coords_fields(prefix, dims, index):
    """Statements splitting `index` over dims (sizes) into {prefix}c0.., their fields and values."""
    sizes = [n for n, _ in dims]
    rank = len(sizes)
    fields = list(wgsl.stride_fields(f"{prefix}s", rank, last=False)) + list(wgsl.stride_fields(f"{prefix}x", rank))
    values = strides_of(sizes)[:-1] + [st for _, st in dims]
    code = wgsl.coords(f"{prefix}c", rank, index=index, strides=f"{prefix}s")
    return code, wgsl.dot(f"{prefix}c", rank, f"{prefix}x"), fields, values


def _run(backend, x, axes, section, out_shape, out_dtype, body, replacements, variant=""):
    outer, reduced = split_dims(x.shape, set(axes))
    count = _size([n for n, _ in reduced])
    o_code, o_off, o_fields, o_values = _coords_fields("o", outer, "index")
    r_code, r_off, r_fields, r_values = _coords_fields("r", reduced, "r")
    fields = (("size", "i32"), ("count", "i32")) + tuple(o_fields) + tuple(r_fields)
    values = (_size(out_shape), count) + tuple(o_values) + tuple(r_values)
    t = wgsl.STORAGE_TYPE[x.dtype]
    out_t = wgsl.STORAGE_TYPE[out_dtype]
    key = f"reduce:{section or variant}:{body}:{t}:{len(outer)}:{len(reduced)}"

    def source():
        text = wgsl.program("reduction.wgsl", body)
        if section is not None:
            ops = wgsl.read("reduction.wgsl")
            name = section + "_" + t
            text = wgsl.program("reduction.wgsl", name if "@program " + name in ops else section) + text
        for k, v in (("OUTER_COORDS", o_code), ("OUTER_OFFSET", o_off), ("REDUCED_COORDS", r_code),
                     ("REDUCED_OFFSET", r_off), *replacements, ("TYPE", t)):
            text = text.replace(k, v)
        helpers = wgsl.functions((wgsl.COMMON, "isNan"), (wgsl.COMMON, "nan"), (wgsl.COMMON, "inf"))
        return helpers + wgsl.bindings(out_t, (("x", t),), fields) + text

    n = _size(out_shape)
    if body == "serial":
        groups = backend.groups_for(n, 64)
    else:
        groups = backend.groups_for(n, 1)
    return backend.run(Program(key, source, fields), [x], out_shape, out_dtype, values, groups)


def _parallel(shape, axes, count, size):
    """Whether a workgroup per output value pays: a long reduction (PARALLEL_FROM values) over
    contiguous values, or one with few outputs. Over strided values (reducing a leading axis)
    with many outputs, one invocation per output reads neighbouring columns side by side, which is
    faster (a column sum of a [1000, 1000] matrix: 60 ms against 330 ms on SwiftShader)."""
    if count < PARALLEL_FROM:
        return False
    _, reduced = split_dims(shape, set(axes))
    contiguous = bool(reduced) and reduced[-1][1] == 1
    return contiguous or size < PARALLEL_FROM


def _out_shape(shape, axes, keep_dims):
    return tuple(1 if d in axes else n for d, n in enumerate(shape) if keep_dims or d not in axes)


_EMPTY = {"Sum": 0, "Mean": 0, "Prod": 1, "Any": 0, "All": 1}


def _reduction_kernel(op):
    def kernel(backend, inputs, attrs):
        (x,) = inputs
        axes = list(attrs["axis"])
        out_shape = _out_shape(x.shape, axes, attrs["keep_dims"])
        if x.dtype not in wgsl.STORAGE_TYPE:
            raise TypeError(f"webgpu: {op} does not take {x.dtype} tensors")
        count = _size([x.shape[a] for a in axes])
        if count == 0 or _size(x.shape) == 0:
            if _size(out_shape) == 0:
                return backend.empty(out_shape, x.dtype)
            empty = _EMPTY.get(op, float("nan") if x.dtype == "float32" else 0)
            return fill(backend, out_shape, empty, x.dtype)
        body = "parallel" if _parallel(x.shape, axes, count, _size(out_shape)) else "serial"
        return _run(backend, x, axes, op, out_shape, x.dtype, body, ())
    return kernel


for _op in ("Sum", "Mean", "Prod", "Max", "Min", "Any", "All"):
    register_kernel(_op, BACKEND, _reduction_kernel(_op))


def _arg_kernel(better):
    def kernel(backend, inputs, attrs):
        (x,) = inputs
        axis = attrs["axis"]
        out_shape = tuple(n for d, n in enumerate(x.shape) if d != axis)
        if x.shape[axis] == 0 or _size(out_shape) == 0:
            if _size(out_shape) == 0:
                return backend.empty(out_shape, "int32")
            return fill(backend, out_shape, 0, "int32")
        is_nan = "isNan" if x.dtype == "float32" else "isNanNever"
        extra = "" if x.dtype == "float32" else "fn isNanNever(v: i32) -> bool { return false; }\n"
        helpers = extra + f"fn better(v: TYPE, w: TYPE) -> bool {{ return v {better} w; }}\n"
        return _run(backend, x, [axis], None, out_shape, "int32", "arg",
                    (("BETTER(", "better("), ("IS_NAN(", is_nan + "("),
                     ("var<workgroup> bestValue", helpers + "var<workgroup> bestValue")),
                    variant="arg" + better)
    return kernel


register_kernel("ArgMax", BACKEND, _arg_kernel(">"))
register_kernel("ArgMin", BACKEND, _arg_kernel("<"))
