"""Slicing kernels on webgl: Slice, StridedSlice, SplitV, GatherV2, and `strided_view`, the
one program behind every kernel that copies elements without changing them (also used by
Transpose, Reverse and Unpack in programs/shape.py).

A view is out[c] = x_flat[offset + sum_i c_i * step_i]. Its offset and steps are uniforms, and
output axes that do not need their own coordinate are dropped or merged first, so e.g. every
slice of one output shape from one input size shares a compiled program (SwiftShader compiles
slowly), and a rank-7 transpose that merges down to rank 6 or less still runs."""
from ....core.environment import ENV
from ....kernels import TensorInfo, register_kernel
from ....core.shapes import size_of, strides_of
from ...gpu import shader_source
from ..shader_compiler import coord_fields, coord_type
from .program import Program


def defines(**macros):
    """`#define NAME value` lines, put before a program body taken from shaders/."""
    return "".join(f"#define {k} {v}\n" for k, v in macros.items())


def share(x, shape):
    """x's data under another shape: no program, the engine counts the extra reference."""
    return TensorInfo(x.data_id, tuple(shape), x.dtype)


def empty(backend, shape, dtype):
    """An empty output: the backend makes it without a texture or a program."""
    return backend.run(Program("empty", (), shape, ""), [], dtype)


def flat(x):
    """x seen as a vector (a free reshape: the texture is row-major either way)."""
    return TensorInfo(x.data_id, (size_of(x.shape),), x.dtype)


def _collapse_view(shape, steps):
    """Drop unit axes and merge neighbours that walk the input contiguously (outer step ==
    inner step * inner size): the same view with as few output axes as possible."""
    dims = []
    for n, s in zip(shape, steps):
        if n == 1:
            continue
        if dims and dims[-1][1] == s * n:
            dims[-1] = [dims[-1][0] * n, s]
        else:
            dims.append([n, s])
    return [d[0] for d in dims], [d[1] for d in dims]


def strided_view(backend, x, shape, offset, steps):
    """The tensor of `shape` with out[c] = x_flat[offset + c . steps]; shares x's data when the
    view is all of x in order."""
    shape = tuple(shape)
    if size_of(shape) == 0:
        return empty(backend, shape, x.dtype)
    dims, dim_steps = _collapse_view(shape, steps)
    if offset == 0 and size_of(shape) == size_of(x.shape) and len(dims) <= 1 and dim_steps in ([], [1]):
        # The view walks all of x from its first element one by one: x itself.
        return share(x, shape)
    if not dims:
        # One element. Still a rank-1 program: the compiler wants an output of at least the
        # input's rank (x is passed as a vector).
        dims, dim_steps = [1], [0]
    rank = len(dims)
    dot = " + ".join(f"{f} * viewStep{i}" for i, f in enumerate(coord_fields("c", rank)))
    code = defines(COORDS=coord_type(rank), VIEW_DOT=f"({dot})") + shader_source.program("slicing.glsl", "view")
    uniforms = (("viewOffset", "int"),) + tuple((f"viewStep{i}", "int") for i in range(rank))
    program = Program(f"view:{rank}", ("x",), dims, code, uniforms)
    out = backend.run(program, [flat(x)], x.dtype, (offset, *dim_steps))
    return share(out, shape)


def views(backend, x, make, items):
    """[make(item) for item in items] for a kernel with several outputs; if one fails, the
    outputs made so far are disposed (except those sharing x's data)."""
    outs = []
    try:
        for item in items:
            outs.append(make(item))
    except BaseException:
        for o in outs:
            if o.data_id is not x.data_id:
                backend.dispose_data(o.data_id)
        raise
    return outs


def slice_view(backend, x, begin, size, strides=None):
    """x[begin_i + j * strides_i for j < size_i] along every axis, as a view."""
    x_strides = strides_of(x.shape)
    strides = strides or [1] * len(size)
    offset = sum(b * s for b, s in zip(begin, x_strides))
    return strided_view(backend, x, size, offset, [st * s for st, s in zip(strides, x_strides)])


@register_kernel("Slice", "webgl")
def slice_(backend, inputs, attrs):
    (x,) = inputs
    return slice_view(backend, x, attrs["begin"], attrs["size"])


@register_kernel("StridedSlice", "webgl")
def strided_slice(backend, inputs, attrs):
    (x,) = inputs
    begin, end, strides = attrs["begin"], attrs["end"], attrs["strides"]
    size = [max(0, -((b - e) // s)) for b, e, s in zip(begin, end, strides)]   # ceil((e - b) / s)
    return slice_view(backend, x, begin, size, strides)


@register_kernel("SplitV", "webgl")
def split_v(backend, inputs, attrs):
    (x,) = inputs
    axis, sizes = attrs["axis"], attrs["size_splits"]
    starts = [sum(sizes[:i]) for i in range(len(sizes))]

    def part(i):
        begin, size = [0] * len(x.shape), list(x.shape)
        begin[axis], size[axis] = starts[i], sizes[i]
        return slice_view(backend, x, begin, size)
    return views(backend, x, part, range(len(sizes)))


def known_indices(backend, indices):
    """indices' int32 values when checking them costs no wait on the GPU (a CPU copy exists:
    indices made from Python values), or when DEBUG is set (read back, as TF.js's webgl gather
    checks them in DEBUG mode only); else None. A shader cannot raise, so out-of-range indices
    computed on the GPU are not caught outside DEBUG (they read 0, as on TF.js's webgl backend)."""
    d = backend.store[indices.data_id]
    if d.values is not None:
        return d.values
    return backend.read_sync(indices.data_id) if ENV.flags["DEBUG"] else None


def check_index_tuples(values, k, dims, name, kernel, shape):
    """Every k-tuple of values indexes into dims, else the cpu kernels' ValueError."""
    for j in range(k):
        column = values[j::k]
        if len(column) and (min(column) < 0 or max(column) >= dims[j]):
            for r in range(len(values) // k):
                row = [int(v) for v in values[r * k:(r + 1) * k]]
                if any(not 0 <= v < n for v, n in zip(row, dims)):
                    raise ValueError(f"{name}: argument 'indices' holds {row}, which does not index into shape "
                                     f"{list(shape)}; kernel {kernel}")


@register_kernel("GatherV2", "webgl")
def gather_v2(backend, inputs, attrs):
    x, indices = inputs
    axis, batch_dims = attrs["axis"], attrs["batch_dims"]
    shape = x.shape
    values = known_indices(backend, indices)
    if values is not None and len(values) and (min(values) < 0 or max(values) >= shape[axis]):
        bad = next(int(v) for v in values if not 0 <= v < shape[axis])
        raise ValueError(f"gather: argument 'indices' holds {bad}, which is not in [0, {shape[axis] - 1}] "
                         f"(axis {axis} of 'x' has size {shape[axis]}); kernel GatherV2")
    out_shape = shape[:axis] + indices.shape[batch_dims:] + shape[axis + 1:]
    batch = size_of(shape[:batch_dims])
    count = size_of(indices.shape[batch_dims:])
    view = (batch, size_of(shape[batch_dims:axis]), count, size_of(shape[axis + 1:]))
    # An empty x with indices (all out of range) still runs: the program reads no texel.
    code = defines(AXIS_SIZE=shape[axis]) + shader_source.program("slicing.glsl", "gather")
    program = Program("gather", ("x", "indices"), view, code)
    x4 = TensorInfo(x.data_id, (view[0], view[1], shape[axis], view[3]), x.dtype)
    i2 = TensorInfo(indices.data_id, (batch, count), indices.dtype)
    return share(backend.run(program, [x4, i2], x.dtype), out_shape)
