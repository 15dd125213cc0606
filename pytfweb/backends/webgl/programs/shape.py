"""Shape kernels on webgl: Transpose, Reverse and Unpack are strided views (programs/slicing.py);
Concat and Pack join inputs as 2D column blocks; Tile and PadV2 have their own programs.

Every kernel first reduces its tensors to as few axes as give the same result (free reshapes:
textures are row-major), so fewer program variants get compiled and ranks above 4 mostly fold
away; what remains may have up to 6 axes."""
from ....kernels import TensorInfo, register_kernel
from ....core.shapes import size_of, strides_of
from ...gpu import shader_source
from ..shader_compiler import coord_fields, coord_type
from .program import Program
from .slicing import defines, empty, share, strided_view, views

# Samplers one program may read: WebGL2 guarantees 16 texture units per fragment shader. More
# inputs are joined in groups (a module constant, so tests can make groups small).
MAX_PROGRAM_INPUTS = 16


# --- views: Transpose, Reverse, Unpack -----------------------------------------------------

@register_kernel("Transpose", "webgl")
def transpose(backend, inputs, attrs):
    (x,) = inputs
    perm = attrs["perm"]
    strides = strides_of(x.shape)
    return strided_view(backend, x, [x.shape[p] for p in perm], 0, [strides[p] for p in perm])


@register_kernel("Reverse", "webgl")
def reverse(backend, inputs, attrs):
    (x,) = inputs
    steps = strides_of(x.shape)
    offset = 0
    for d in attrs["dims"]:
        offset += (x.shape[d] - 1) * steps[d]
        steps[d] = -steps[d]
    return strided_view(backend, x, x.shape, offset, steps)


@register_kernel("Unpack", "webgl")
def unpack(backend, inputs, attrs):
    (x,) = inputs
    axis = attrs["axis"]
    strides = strides_of(x.shape)
    shape = x.shape[:axis] + x.shape[axis + 1:]
    steps = strides[:axis] + strides[axis + 1:]
    # One compiled program for every output: only the offset uniform changes.
    return views(backend, x, lambda i: strided_view(backend, x, shape, i * strides[axis], steps),
                 range(x.shape[axis]))


# --- Concat, Pack ---------------------------------------------------------------------------

def _max_inputs(backend):
    """Inputs one concat program takes: MAX_PROGRAM_INPUTS within the context's sampler limit."""
    gl = backend.ctx.gl
    return max(2, min(MAX_PROGRAM_INPUTS, int(gl.getParameter(gl.MAX_TEXTURE_IMAGE_UNITS))))


def _concat_program(backend, parts, dtype):
    """One draw joining 2D parts [outer, cols_i] (at most _max_inputs) along the columns."""
    lines, start = [], 0
    for i, p in enumerate(parts):
        end = start + p.shape[1]
        read = f"return getT{i}(row, col - {start});"
        lines.append(read if i == len(parts) - 1 else f"if (col < {end}) {read}")
        start = end
    # The code follows from the parts' shapes, which the backend adds to the cache key.
    code = defines(CONCAT_READ=" ".join(lines)) + shader_source.program("shape.glsl", "concat")
    names = tuple(f"t{i}" for i in range(len(parts)))
    program = Program(f"concat:{len(parts)}", names, (parts[0].shape[0], start), code)
    return backend.run(program, parts, dtype)


def concat_columns(backend, parts, dtype):
    """2D tensors [outer, cols_i] joined along the columns into [outer, sum cols_i]; more parts
    than a program can sample are joined in groups, then the groups' results."""
    outer = parts[0].shape[0]
    parts = [p for p in parts if p.shape[1]]
    if outer == 0 or not parts:
        return empty(backend, (outer, sum(p.shape[1] for p in parts)), dtype)
    if len(parts) == 1:
        return parts[0]
    limit = _max_inputs(backend)
    temps = []
    try:
        while len(parts) > limit:
            joined = []
            for i in range(0, len(parts), limit):
                group = parts[i:i + limit]
                if len(group) == 1:
                    joined.append(group[0])
                else:
                    joined.append(_concat_program(backend, group, dtype))
                    temps.append(joined[-1])
            parts = joined
        return _concat_program(backend, parts, dtype)
    finally:
        for t in temps:
            backend.dispose_data(t.data_id)


def _as_columns(t, axis):
    """t as 2D [size of the axes before axis, the rest] (a free reshape)."""
    outer = size_of(t.shape[:axis])
    return TensorInfo(t.data_id, (outer, size_of(t.shape) // outer if outer else 0), t.dtype)


@register_kernel("Concat", "webgl")
def concat(backend, inputs, attrs):
    axis = attrs["axis"]
    first = inputs[0]
    out_shape = list(first.shape)
    out_shape[axis] = sum(t.shape[axis] for t in inputs)
    out = concat_columns(backend, [_as_columns(t, axis) for t in inputs], first.dtype)
    return share(out, out_shape)


@register_kernel("Pack", "webgl")
def pack(backend, inputs, attrs):
    axis = attrs["axis"]
    first = inputs[0]
    out_shape = first.shape[:axis] + (len(inputs),) + first.shape[axis:]
    # Stacking along axis is joining [outer, inner] blocks: out viewed as [outer, n * inner].
    out = concat_columns(backend, [_as_columns(t, axis) for t in inputs], first.dtype)
    return share(out, out_shape)


# --- Tile -----------------------------------------------------------------------------------

def _collapse_tile(shape, reps):
    """[size, rep] per axis that matters: unit axes not repeated are dropped, and an axis not
    repeated is merged into the one before it (that axis then repeats blocks of both)."""
    dims = []
    for n, r in zip(shape, reps):
        if n == 1 and r == 1:
            continue
        if dims and r == 1:
            dims[-1][0] *= n
        else:
            dims.append([n, r])
    return dims


@register_kernel("Tile", "webgl")
def tile(backend, inputs, attrs):
    (x,) = inputs
    reps = attrs["reps"]
    out_shape = tuple(n * r for n, r in zip(x.shape, reps))
    if size_of(out_shape) == 0:
        return empty(backend, out_shape, x.dtype)
    dims = _collapse_tile(x.shape, reps)
    if all(r == 1 for _, r in dims):
        return share(x, out_shape)
    fields = coord_fields("c", len(dims))
    args = ", ".join("0" if n == 1 else f if r == 1 else f"{f} % {n}" for f, (n, r) in zip(fields, dims))
    code = defines(COORDS=coord_type(len(dims)), TILE_ARGS=args) + shader_source.program("shape.glsl", "tile")
    program = Program("tile", ("x",), [n * r for n, r in dims], code)
    x_view = TensorInfo(x.data_id, tuple(n for n, _ in dims), x.dtype)
    return share(backend.run(program, [x_view], x.dtype), out_shape)


# --- PadV2 ----------------------------------------------------------------------------------

def _collapse_pad(shape, paddings):
    """[size, before, after] per axis that matters: unit axes without padding are dropped, and
    an axis without padding is merged into the one before it (whose paddings scale by its size)."""
    dims = []
    for n, (b, a) in zip(shape, paddings):
        if b == a == 0:
            if n == 1:
                continue
            if dims:
                dims[-1] = [v * n for v in dims[-1]]
                continue
        dims.append([n, b, a])
    return dims


@register_kernel("PadV2", "webgl")
def pad_v2(backend, inputs, attrs):
    (x,) = inputs
    paddings = attrs["paddings"]
    out_shape = tuple(b + n + a for n, (b, a) in zip(x.shape, paddings))
    if size_of(out_shape) == 0:
        return empty(backend, out_shape, x.dtype)
    dims = _collapse_pad(x.shape, paddings)
    if all(b == a == 0 for _, b, a in dims):
        return share(x, out_shape)
    rank = len(dims)
    fields = coord_fields("c", rank)
    # Which axes are padded follows from the shapes; how much before is a uniform.
    outside = [f"uint(i{i}) >= {n}u" for i, (n, b, a) in enumerate(dims) if b or a]
    code = defines(COORDS=coord_type(rank),
                   PAD_COORDS=" ".join(f"int i{i} = {f} - padBefore{i};" for i, f in enumerate(fields)),
                   PAD_OUTSIDE="(" + " || ".join(outside) + ")",
                   PAD_ARGS=", ".join(f"i{i}" for i in range(rank)))
    code += shader_source.program("shape.glsl", "pad")
    uniforms = tuple((f"padBefore{i}", "int") for i in range(rank)) + (("padValue", "float"),)
    program = Program("pad", ("x",), [b + n + a for n, b, a in dims], code, uniforms)
    x_view = TensorInfo(x.data_id, tuple(n for n, _, _ in dims), x.dtype)
    values = tuple(b for _, b, _ in dims) + (float(attrs["constant_value"]),)
    return share(backend.run(program, [x_view], x.dtype, values), out_shape)
