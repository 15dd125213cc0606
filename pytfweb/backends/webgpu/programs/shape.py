"""Shape and slicing kernels (contracts in ops/shape.py and ops/slicing.py) as WGSL
(backends/webgpu/shaders/shape.wgsl): one "map" program reads each output value from an affine map of its
coordinates (Transpose, Slice, StridedSlice, Reverse, Tile with a modulo, PadV2 with a bounds
test, Unpack and SplitV as slices); a "place" program copies an input into a region of a shared
output (Concat, Pack: one dispatch per input); "gather" does GatherV2. Reshape, Identity and
ExpandDims are the shared relabelling kernels."""
from ....core.tensor_values import _wrap_int32
from ....kernels import TensorInfo, register_kernel
from ....core.shapes import size_of, strides_of
from .. import wgsl
from ..program import Program, _size
from .elementwise import BACKEND, fill


def run_map(backend, x, out_shape, mul, add, in_dims, in_strides, base=0, tile=False, pad=None, mirror=None):
    """out[c] = x[base + sum_d (c_d * mul_d + add_d) * in_strides_d] (see shape.wgsl). tile: each
    term modulo in_dims; pad: terms outside [0, in_dims) give the value pad; mirror: 0 (reflect)
    or 1 (symmetric): terms outside are reflected back in (one reflection: paddings fit)."""
    out_shape = tuple(out_shape)
    rank = len(out_shape)
    t = wgsl.STORAGE_TYPE[x.dtype]
    mode = "tile" if tile else "pad" if pad is not None else "mirror" if mirror is not None else "plain"
    fields = [("size", "i32"), ("base", "i32"), ("padValue", t)]
    fields += wgsl.stride_fields("os", rank, last=False)
    fields += [(f"{n}{d}", "i32") for n in ("mul", "add", "in", "xs") for d in range(rank)]
    pad_value = 0 if pad is None else (float(pad) if t == "f32" else int(pad))
    values = [_size(out_shape), base, pad_value] + strides_of(out_shape)[:-1] + list(mul) + list(add) \
        + list(in_dims) + list(in_strides)
    if mirror is not None:
        fields.append(("mirrorOff", "i32"))
        values.append(mirror)
    key = f"map:{t}:{rank}:{mode}"

    def source():
        dims = []
        for d in range(rank):
            k = f"c{d} * u.mul{d} + u.add{d}"
            if tile:
                k = f"({k}) % u.in{d}"
            dims.append(f"  var k{d} = {k};")
            if mirror is not None:
                dims.append(f"  if (k{d} < 0) {{ k{d} = -k{d} - u.mirrorOff; }}\n"
                            f"  if (k{d} >= u.in{d}) {{ k{d} = 2 * u.in{d} - 2 + u.mirrorOff - k{d}; }}")
            if pad is not None:
                dims.append(f"  inside = inside && k{d} >= 0 && k{d} < u.in{d};")
            dims.append(f"  at = at + k{d} * u.xs{d};")
        text = (wgsl.program("shape.wgsl", "map").replace("COORDS", wgsl.coords("c", rank))
                .replace("DIMS", "\n".join(dims)))
        return wgsl.bindings(t, (("x", t),), fields) + text

    return backend.run(Program(key, source, tuple(fields)), [x], out_shape, x.dtype, values,
                       backend.groups_for(_size(out_shape), 64))


def map_or_share(backend, x, out_shape, mul, add, in_dims, in_strides, base=0):
    """A kernel's output by run_map, or, where that would copy x unchanged, x's data itself
    (the engine counts the shared reference; never for an intermediate a kernel frees)."""
    if _reads_in_order(x, out_shape, mul, add, in_dims, in_strides, base):
        return TensorInfo(x.data_id, tuple(out_shape), x.dtype)
    return run_map(backend, x, out_shape, mul, add, in_dims, in_strides, base)


def _reads_in_order(x, out_shape, mul, add, in_dims, in_strides, base):
    """Whether run_map's output would be x's values in x's order (a transpose or reverse of unit
    axes, a one-part split, an unstack along a unit axis): every term stays inside its input axis
    (no tile, pad or mirror takes effect) and output position i reads input position i."""
    if size_of(out_shape) != size_of(x.shape):
        return False
    offset = base
    for n, m, a, size, stride, out_stride in zip(out_shape, mul, add, in_dims, in_strides, strides_of(out_shape)):
        lo, hi = sorted((a, (n - 1) * m + a))
        if n == 0 or lo < 0 or hi >= size or (n > 1 and m * stride != out_stride):
            return False
        offset += a * stride
    return offset == 0


@register_kernel("Transpose", BACKEND)
def transpose(backend, inputs, attrs):
    (x,) = inputs
    perm = attrs["perm"]
    st = strides_of(x.shape)
    out_shape = [x.shape[p] for p in perm]
    return map_or_share(backend, x, out_shape, [1] * len(perm), [0] * len(perm), out_shape, [st[p] for p in perm])


@register_kernel("Slice", BACKEND)
def slice_(backend, inputs, attrs):
    (x,) = inputs
    size = list(attrs["size"])
    return map_or_share(backend, x, size, [1] * len(size), list(attrs["begin"]), x.shape, strides_of(x.shape))


@register_kernel("StridedSlice", BACKEND)
def strided_slice(backend, inputs, attrs):
    (x,) = inputs
    out_shape = [max(0, -((b - e) // s)) for b, e, s in zip(attrs["begin"], attrs["end"], attrs["strides"])]
    return map_or_share(backend, x, out_shape, list(attrs["strides"]), list(attrs["begin"]), x.shape, strides_of(x.shape))


@register_kernel("Reverse", BACKEND)
def reverse(backend, inputs, attrs):
    (x,) = inputs
    dims = set(attrs["dims"])
    mul = [-1 if d in dims else 1 for d in range(len(x.shape))]
    add = [n - 1 if d in dims else 0 for d, n in enumerate(x.shape)]
    return map_or_share(backend, x, x.shape, mul, add, x.shape, strides_of(x.shape))


@register_kernel("Tile", BACKEND)
def tile(backend, inputs, attrs):
    (x,) = inputs
    out_shape = [n * r for n, r in zip(x.shape, attrs["reps"])]
    rank = len(out_shape)
    return run_map(backend, x, out_shape, [1] * rank, [0] * rank, x.shape, strides_of(x.shape), tile=True)


@register_kernel("PadV2", BACKEND)
def pad_v2(backend, inputs, attrs):
    (x,) = inputs
    pairs = attrs["paddings"]
    out_shape = [n + b + a for n, (b, a) in zip(x.shape, pairs)]
    rank = len(out_shape)
    value = attrs["constant_value"]
    if x.dtype == "bool":
        value = int(bool(value))
    return run_map(backend, x, out_shape, [1] * rank, [-b for b, _ in pairs], x.shape, strides_of(x.shape),
                   pad=value)


def _slices_along(backend, x, axis, starts_sizes, keep_axis):
    st = strides_of(x.shape)
    outs = []
    for start, size in starts_sizes:
        shape = list(x.shape)
        shape[axis] = size
        dims = [d for d in range(len(shape)) if keep_axis or d != axis]
        out_shape = [shape[d] for d in dims]
        outs.append(map_or_share(backend, x, out_shape, [1] * len(dims), [0] * len(dims), [x.shape[d] for d in dims],
                                 [st[d] for d in dims], base=start * st[axis]))
    return outs


@register_kernel("Unpack", BACKEND)
def unpack(backend, inputs, attrs):
    (x,) = inputs
    axis = attrs["axis"]
    return _slices_along(backend, x, axis, [(i, 1) for i in range(x.shape[axis])], keep_axis=False)


@register_kernel("SplitV", BACKEND)
def split_v(backend, inputs, attrs):
    (x,) = inputs
    starts, at = [], 0
    for size in attrs["size_splits"]:
        starts.append((at, size))
        at += size
    return _slices_along(backend, x, attrs["axis"], starts, keep_axis=True)


def _place_all(backend, inputs, in_shapes, out_shape, axis, offsets):
    """One output of out_shape; input i (seen as in_shapes[i]) copied at offsets[i] along axis."""
    dtype = inputs[0].dtype
    out = backend.run_into_new(out_shape, dtype)
    t = wgsl.STORAGE_TYPE[dtype]
    out_strides = strides_of(out_shape)
    for x, shape, off in zip(inputs, in_shapes, offsets):
        n = size_of(shape)
        if n == 0:
            continue
        rank = len(shape)
        fields = (("size", "i32"),) + wgsl.stride_fields("os", rank, last=False) + \
            wgsl.stride_fields("off", rank) + wgsl.stride_fields("rs", rank)
        values = (n,) + tuple(strides_of(shape)[:-1]) + tuple(off if d == axis else 0 for d in range(rank)) \
            + tuple(out_strides)
        key = f"place:{t}:{rank}"

        def source(rank=rank, fields=fields):
            placed = " + ".join(f"(c{d} + u.off{d}) * u.rs{d}" for d in range(rank)) or "0"
            text = (wgsl.program("shape.wgsl", "place").replace("COORDS", wgsl.coords("c", rank))
                    .replace("PLACED", placed))
            return wgsl.bindings(t, (("x", t),), fields) + text

        backend.run(Program(key, source, fields), [TensorInfo(x.data_id, tuple(shape), dtype)], out_shape, dtype,
                    values, backend.groups_for(n, 64), into=out)
    return out


@register_kernel("Concat", BACKEND)
def concat(backend, inputs, attrs):
    axis = attrs["axis"]
    out_shape = list(inputs[0].shape)
    out_shape[axis] = sum(t.shape[axis] for t in inputs)
    offsets, at = [], 0
    for t in inputs:
        offsets.append(at)
        at += t.shape[axis]
    return _place_all(backend, inputs, [t.shape for t in inputs], tuple(out_shape), axis, offsets)


@register_kernel("Pack", BACKEND)
def pack(backend, inputs, attrs):
    axis = attrs["axis"]
    shape = list(inputs[0].shape)
    in_shape = tuple(shape[:axis] + [1] + shape[axis:])
    out_shape = tuple(shape[:axis] + [len(inputs)] + shape[axis:])
    return _place_all(backend, inputs, [in_shape] * len(inputs), out_shape, axis, list(range(len(inputs))))


@register_kernel("GatherV2", BACKEND)
def gather_v2(backend, inputs, attrs):
    x, indices = inputs
    axis, batch_dims = attrs["axis"], attrs["batch_dims"]
    dim = x.shape[axis]
    known = backend.values_if_known(indices)
    if known is not None:   # checked where the values are at hand, as cpu checks them
        for v in known:
            if not 0 <= v < dim:
                raise ValueError(f"gather: argument 'indices' holds {v}, which is not in [0, {dim - 1}] "
                                 f"(axis {axis} of 'x' has size {dim}); kernel GatherV2")
    out_shape = tuple(x.shape[:axis]) + tuple(indices.shape[batch_dims:]) + tuple(x.shape[axis + 1:])
    outer = size_of(x.shape[:axis])
    count = size_of(indices.shape[batch_dims:])
    inner = size_of(x.shape[axis + 1:])
    per_batch = size_of(x.shape[batch_dims:axis])
    t = wgsl.STORAGE_TYPE[x.dtype]
    fields = (("size", "i32"), ("count", "i32"), ("inner", "i32"), ("dim", "i32"), ("perBatch", "i32"))
    values = (_size(out_shape), count, inner, dim, per_batch)
    if _size(out_shape) == 0 or dim == 0:
        return fill(backend, out_shape, 0, x.dtype)
    del outer

    def source():
        text = wgsl.program("shape.wgsl", "gather").replace("ZERO", f"{t}(0)")
        return wgsl.bindings(t, (("x", t), ("indices", "i32")), fields) + text

    return backend.run(Program(f"gather:{t}", source, fields), [x, indices], out_shape, x.dtype, values,
                       backend.groups_for(_size(out_shape), 64))


@register_kernel("OneHot", BACKEND)
def one_hot(backend, inputs, attrs):
    (indices,) = inputs
    depth, dtype = attrs["depth"], attrs["dtype"]
    out_shape = tuple(indices.shape) + (depth,)
    t = wgsl.STORAGE_TYPE[dtype]

    def typed(v):   # as numpy's astype to the output dtype (cpu's kernel)
        if dtype == "float32":
            return float(v)
        if dtype == "bool":
            return int(bool(v))
        return _wrap_int32(int(v))
    fields = (("size", "i32"), ("depth", "i32"), ("on", t), ("off", t))
    values = (_size(out_shape), depth, typed(attrs["on_value"]), typed(attrs["off_value"]))

    def source():
        return wgsl.bindings(t, (("indices", "i32"),), fields) + wgsl.program("shape.wgsl", "one_hot")

    return backend.run(Program(f"one_hot:{t}", source, fields), [indices], out_shape, dtype, values,
                       backend.groups_for(_size(out_shape), 64))
