"""Convolutions, Dilation2D and the fused kernels as shaders (GLSL in backends/webgl/shaders/conv.glsl).

Every tensor is viewed with three spatial dimensions (a 2D one gets a depth of 1, a free
relabelling of the texture), so Conv2D and Conv3D, their gradients and the depthwise forms
share programs. This module builds only the shape-dependent #defines and accessors.
"""
import functools
import math

from ....kernels import TensorInfo, get_kernel, register_kernel
from ....kernels.conv_geometry import compute_dilation2d_info, conv_info_for
from ....core.shapes import broadcast_shapes, size_of
from ...gpu import shader_source
from ...gpu.fusion_graph import Leaf, Node, Uniform
from . import fusion, gemm
from ..shader_compiler import index_expr, row_split
from .matmul import batch_mat_mul_program, packed_product
from .program import Program

_FILE = "conv.glsl"
# TF.js's cpu dilation2d starts its maximum at Number.MIN_SAFE_INTEGER (its webgl one at -3.4e38):
# the cpu backend's value, on both.
_DILATION_FLOOR = "-9007199254740991.0"


def _view(t, shape):
    """t relabelled with another shape of the same size (no copy: textures are row-major)."""
    return TensorInfo(t.data_id, tuple(shape), t.dtype)


def _spatial3(values, fill):
    """A 2D geometry's per-dimension values with a depth entry in front."""
    values = tuple(values)
    return (fill,) + values if len(values) == 2 else values


def _as5d(shape, channels_last):
    """A [b, *spatial, c] (or [b, c, *spatial]) shape with three spatial dimensions."""
    shape = tuple(shape)
    if len(shape) == 5:
        return shape
    return (shape[0], 1) + shape[1:] if channels_last else shape[:2] + (1,) + shape[2:]


def _filter5d(shape):
    shape = tuple(shape)
    return shape if len(shape) == 5 else (1,) + shape


def _accessor(macro, getter, channels_last):
    order = "b, p.x, p.y, p.z, ch" if channels_last else "b, ch, p.x, p.y, p.z"
    return f"#define {macro}(b, p, ch) {getter}({order})\n"


@functools.lru_cache(maxsize=512)
def _defines(info, depthwise=False, output=True):
    """The geometry and accessors every conv program in conv.glsl expects (output: with
    outputPosition, for programs whose output is the convolution's 5D view). Cached: a model's
    predict asks again for each layer's (two or three times a layer, ~30 us each in Pyodide:
    iris's steady predict spent 5.5 ms of its ~100 ms of Python here)."""
    last = info.channels_last
    names = {
        "BATCH": info.batch_size, "IN_CHANNELS": info.in_channels, "OUT_CHANNELS": info.out_channels,
        "IN_CHANNELS_4": info.in_channels // 4 * 4, "OUT_CHANNELS_4": info.out_channels // 4 * 4,
        "MULTIPLIER": info.filter_shape[-1] if depthwise else 1,
    }
    for prefix, values, fill in (("IN", info.in_size, 1), ("OUT", info.out_size, 1), ("FILTER", info.filter_size, 1),
                                 ("STRIDE", info.strides, 1), ("DIL", info.dilations, 1), ("PAD", info.pad_before, 0)):
        for axis, v in zip("DHW", _spatial3(values, fill)):
            names[f"{prefix}_{axis}"] = v
    lines = [f"#define {k} {v}\n" for k, v in names.items()]
    lines.append("#define DY_CHANNEL " + ("(d1 * MULTIPLIER + d2)" if depthwise else "d2") + "\n")
    lines.append("#define W(k, d1, d2) getW(k.x, k.y, k.z, d1, d2)\n")
    lines.append(_accessor("X", "getX", last))
    lines.append(_accessor("DY", "getDy", last))
    lines.append(_accessor("TAPS", "getTaps", last))
    if not output:
        return "".join(lines)
    fields = ("c.x", "ivec3(c.y, c.z, c.w)", "c.u") if last else ("c.x", "ivec3(c.z, c.w, c.u)", "c.y")
    lines.append("void outputPosition(out int b, out ivec3 p, out int ch) {\n"
                 f"  ivec5 c = getOutputCoords();\n  b = {fields[0]};\n  p = {fields[1]};\n  ch = {fields[2]};\n}}\n")
    return "".join(lines)


def _sections(*names):
    return "".join(shader_source.program(_FILE, n) for n in names)


def _run(backend, key, code, names, inputs, out_shape, uniforms=(), values=()):
    program = Program(f"conv:{key}:{code}", names, out_shape, code, uniforms)
    return backend.run(program, inputs, "float32", values)


# --- Conv2D, Conv3D, DepthwiseConv2dNative (+ fused) ----------------------------------------------

def _packed_forward(backend, info, x, f, code, epilogue, lazy):
    """Conv2D/Conv3D as an im2col product (gemm.py), or None where that does not apply."""
    m = size_of(info.out_shape) // info.out_channels
    k = size_of(info.filter_shape[:-1])
    p = gemm.plan(backend, m, info.out_channels, k, 1, 1, 1)
    if p is None:
        return None
    a = _pointwise_from_blocks(backend, info, x)
    if a is None:
        values = "im2col_values" if info.in_channels % 4 == 0 else "im2col_value"
        geometry = _defines(info, output=False)
        x5 = _view(x, _as5d(x.shape, info.channels_last))
        names, views = ("x",), [x5]
        reader = _blocks_reader(backend, x, info) if len(info.in_size) == 2 else None
        if reader is not None:
            names, views = reader.names, reader.views
            geometry += reader.code + _x4_from_blocks()
        elif values == "im2col_values":
            geometry += _x4(backend, info, x5)
        a = gemm.Operand(f"im2col:{values}:{geometry}", names, views, geometry + _sections("im2col_position", values),
                         1)
    b = gemm.Operand("filter", ("W",), [_view(f, (1, k, info.out_channels))],
                     "float bValue(int batch, int k, int n) { return getW(batch, k, n); }\n", 1)
    batches = "int aBatch(int batch) { return 0; }\nint bBatch(int batch) { return 0; }\n"
    out5 = _as5d(info.out_shape, info.channels_last)
    return gemm.product(backend, p, a, b, batches, out5, code + _sections("im2col_coords"), epilogue,
                        row_major=info.channels_last, lazy=lazy)


def _pointwise_from_blocks(backend, info, x):
    """The A operand of a 1x1 convolution (stride 1, no padding, channels last, a multiple of four
    channels) whose input is a product still pending (_blocks_reader), so its unpack is never
    drawn (a depthwise convolution then a 1x1 one, the separable blocks of MobileNets and
    BlazeNets; a 1x1 convolution after another): pack A copies their texels. None where that
    does not apply."""
    if (not info.channels_last or set(info.filter_size) != {1} or set(info.strides) != {1}
            or set(info.dilations) != {1} or any(info.pad_before)):
        return None
    reader = _blocks_reader(backend, x, info)
    if reader is None:
        return None
    code = reader.code + "#define A_VALUES\nvec4 aValues(int batch, int row, int k) { return pixel4(row, k); }\n"
    return gemm.Operand(f"blocks:{code}", reader.names, reader.views, code, 1)


class _BlocksReader:
    """_blocks_reader's answer: input names and views (the blocks, then the chain's per-channel
    operands) and GLSL."""
    __slots__ = ("names", "views", "code")


def _blocks_reader(backend, x, info):
    """A _BlocksReader of a channels-last x (a multiple of four channels) that is a product still
    pending as it left its kernel (fusion.UNPACK: a depthwise convolution's or a GEMM's blocks)
    with at most a chain of elementwise ops after it whose other operands are one value or one per
    channel (the fused bias and activation, a BatchNorm's scale and offset): its GLSL defines
    `vec4 pixel4(int pixel, int c)`, channels c .. c+3 of x's pixel (its flat index without the
    channels), one texel of the blocks with the chain applied. The unpack is then never drawn,
    and four channels cost one fetch. None where that does not apply."""
    if not info.channels_last or info.in_channels % 4:
        return None
    found = _chain_over_unpack(backend, x, info.in_channels)
    if found is None:
        return None
    node, chain = found
    n, w, row_step = node.values
    if n != info.in_channels:
        return None
    rows = node.op[1]
    # (not c0 ..: the product's accumulators)
    names = ("src",)
    views = [leaf.info for leaf in node.args]
    functions, lines, leaves = {}, [], {}
    for step, previous in chain:
        args = []
        for a in step.args:
            if a is previous:
                args.append(f"t{len(lines) - 1}" if lines else "v")
            elif type(a) is Uniform:
                args.append(repr(float(a.value)))
            else:
                if a.key not in leaves:
                    leaves[a.key] = (f"l{len(leaves)}", size_of(a.info.shape) == 1)
                    names += (leaves[a.key][0],)
                    views.append(a.info)
                args.append(f"L{list(leaves).index(a.key)}")
        lines.append(f"  float t{len(lines)} = {fusion.op_call(step.op, args, functions)};\n")
    result = f"t{len(lines) - 1}" if lines else "v"
    params = "".join(f", float L{j}" for j in range(len(leaves)))
    values = ["".join(f", texelFetch({name}, ivec2({'0' if one else f'c + {i}'}, 0), 0).r"
                      for name, one in leaves.values()) for i in range(4)]
    code = ("".join(functions.values())
            + f"float chain_(float v{params}) {{\n{''.join(lines)}  return {result};\n}}\n"
            + fusion.block_fetch("aBlock", "src")
            + "vec4 pixel4(int pixel, int c) {\n"
            f"  int h = pixel / {w};\n  int r = h * {row_step} + (pixel - h * {w});\n"
            f"  vec4 v = aBlock(r & {rows - 1}, ivec2(c >> 2, r >> {rows.bit_length() - 1}));\n"
            + ("  return v;\n}\n" if not chain else
               f"  return vec4(chain_(v.x{values[0]}), chain_(v.y{values[1]}), chain_(v.z{values[2]}), "
               f"chain_(v.w{values[3]}));\n}}\n"))
    reader = _BlocksReader()
    reader.names, reader.views, reader.code = names, views, code
    return reader


def _x4_from_blocks():
    """conv.glsl's X4 (see _x4) over _blocks_reader's pixel4, for a 2D image (depth 1)."""
    return ("#define HAS_X4\nvec4 X4(int b, ivec3 p, int c) {\n"
            "  return pixel4((b * IN_H + p.y) * IN_W + p.z, c);\n}\n")


def _chain_over_unpack(backend, x, channels):
    """(the unpack node, [(op node, its argument that is the previous value), ... first to last])
    of a pending x whose expression is a product's unpack followed by float32 elementwise ops, each
    over the previous value and operands that are one value or one per channel (a texture one row
    high), or None."""
    node = backend.pending.get(x.data_id)
    if node is None or node.shape != tuple(x.shape):
        return None
    chain = []
    while node.op[0] != fusion.UNPACK:
        if node.dtype != "float32" or node.values or len(node.op) != 3:
            return None
        inner = [a for a in node.args if type(a) is Node]
        if len(inner) != 1 or inner[0].shape != node.shape:
            return None
        for a in node.args:
            if type(a) is Leaf and not _per_channel(backend, a.info, channels):
                return None
            if type(a) is Uniform and not math.isfinite(a.value):
                return None
        chain.append((node, inner[0]))
        node = inner[0]
    return node, chain[::-1]


def _per_channel(backend, t, channels):
    """t holds one value, or one per channel of a channels-last image in a texture one row high."""
    n = size_of(t.shape)
    if t.dtype != "float32" or (n != 1 and (n != channels or t.shape[-1] != channels)):
        return False
    return backend.texture_layout(t.data_id)[1] == 1


def _x4(backend, info, x5):
    """GLSL `vec4 X4(int b, ivec3 p, int c)` (with HAS_X4): channels c .. c+3 of x (channels last,
    IN_CHANNELS a multiple of 4, c too) at (b, p), four neighbouring texels of one texture row:
    one address for four values where four getter calls compute four (a division each in a large
    image's squarish texture, which SwiftShader runs lane by lane). "" where x is channels first or
    its texture rows are not a multiple of four texels wide."""
    if not info.channels_last or info.in_channels % 4:
        return ""
    tex_shape = backend.texture_layout(x5.data_id)
    width = tex_shape[0]
    args = ("b", "p.x", "p.y", "p.z", "c")
    split = row_split(x5.shape, tex_shape)
    if split is not None:
        texel = f"ivec2({index_expr(x5.shape[split:], args[split:])}, {index_expr(x5.shape[:split], args[:split])})"
        address = ""
    elif width % 4 == 0:
        address = f"  int f = {index_expr(x5.shape, args)};\n  int y = f / {width};\n"
        texel = f"ivec2(f - y * {width}, y)"
    else:
        return ""
    return ("#define HAS_X4\nvec4 X4(int b, ivec3 p, int c) {\n" + address + f"  ivec2 t = {texel};\n"
            "  return vec4(texelFetch(x, t, 0).r, texelFetch(x, t + ivec2(1, 0), 0).r,\n"
            "              texelFetch(x, t + ivec2(2, 0), 0).r, texelFetch(x, t + ivec2(3, 0), 0).r);\n}\n")


def _packed_depthwise_filter(backend, f):
    """A depthwise filter [h, w, channels, 1] packed four channels to a texel (conv.glsl's
    depthwise_filter_pack), made once and kept with the filter's data as the GEMM's packed weights
    are: the packed programs then fetch a tap's four weights at once (a 5x5 filter: 25 fetches a
    fragment, not 100)."""
    taps, channels = f.shape[0] * f.shape[1], f.shape[2]
    width = backend.texture_layout(f.data_id)[0]

    def pack():
        program = Program("conv:depthwise_filter_pack", ("W",), (taps, -(-channels // 4)),
                          _sections("depthwise_filter_pack"), (("channels", "int"), ("width", "int")),
                          packed_outputs=1, shapeless=True)
        return backend.run_packed(program, [f], (channels, width))
    return backend.derived_data(f.data_id, ("conv:depthwise_filter_pack", tuple(f.shape)), pack)


def _depthwise_row(info):
    """DEPTHWISE_ROW of conv.glsl's depthwise_packed: one filter row's taps, unrolled."""
    stride, dil, fw = info.strides[-1], info.dilations[-1], info.filter_size[-1]
    lines = [f"vec4 w{kw} = wAt(kh, {kw}, c);" for kw in range(fw)]
    for j in range(3 * stride + (fw - 1) * dil + 1):
        uses = [(t, kw) for t in range(4) for kw in range(fw) if t * stride + kw * dil == j]
        if uses:
            lines.append(f"v = xAt(b, ih, iw0 + {j}, c);")
            lines.extend(f"acc{t} += v * w{kw};" for t, kw in uses)
    return "#define DEPTHWISE_ROW " + " ".join(lines) + "\n"


def _block_grid(backend, info, size):
    """(texel grid, #defines, fold) of a packed depthwise program whose fragments compute four
    channels at four neighbouring columns of a [batch, *size, channels] image (conv.glsl's
    depthwise_block), or None where it does not fit the texture limits."""
    limit = backend.ctx.max_texture_size
    c4 = -(-info.in_channels // 4)
    rows = info.batch_size * size[0] * -(-size[1] // 4)
    fold = -(-rows // limit)
    if fold * c4 > limit or backend.ctx.max_draw_buffers < 4:
        return None
    return (-(-rows // fold), fold * c4), f"#define BLOCK_FOLD {fold}\n#define BLOCK_COLUMNS {c4}\n", fold


def _depthwise_blocks(backend, info, size, row, section, reader, image, f, out_shape, epilogue=None, lazy=None):
    """Run conv.glsl's packed depthwise program `section` (four channels at four neighbouring
    columns of a [batch, *size, channels] image per fragment; `row` the unrolled filter row,
    `image` the (input name, tensor) read through the `reader` section) and unpack it to
    out_shape (the image's 5D view; lazy: gemm.unpack's), or None where its grid does not fit the texture limits."""
    block = _block_grid(backend, info, size)
    if block is None:
        return None
    grid, block_defines, fold = block
    image_defines = f"#define IMAGE_H {size[0]}\n#define IMAGE_W4 {-(-size[1] // 4)}\n" + block_defines
    code = _defines(info, True, output=False) + image_defines + row
    name, t = image
    image_view = _view(t, _as5d(t.shape, True))
    filter_name, filter_view = "W", _view(f, _filter5d(f.shape))
    if name == "x":
        # (not from a pending product's blocks as the GEMM's pack A reads them: each of a
        # fragment's ~50 fetches would apply the chain, and when the blocks were a texture each
        # also branch over them, which cost handlandmark's depthwise programs four times the
        # unpack they save; not measured again since the blocks became one array texture)
        code += _x4(backend, info, image_view)
        code += "#define HAS_W4\n"
        filter_name, filter_view = "w4", _packed_depthwise_filter(backend, f)
    program = Program(f"conv:{section}:{code}", (name, filter_name), grid,
                      code + _sections(reader, "depthwise_w_at", "depthwise_block", section), packed_outputs=4)
    blocks = backend.run_packed(program, [image_view, filter_view])
    try:
        # (a folded grid's unpack reads blocks where BLOCK_FOLD says: the shaped program only)
        flat = (info.in_channels, size[1], 4 * -(-size[1] // 4)) if fold == 1 else None
        return gemm.unpack(backend, blocks, out_shape,
                           _defines(info, True) + image_defines + _sections("depthwise_block_coords"), epilogue,
                           flat=flat, lazy=lazy)
    finally:
        backend.dispose_data(blocks.data_id)


def _packed_depthwise(backend, info, x, f, epilogue, lazy):
    """DepthwiseConv2dNative (2D, channels last, multiplier 1) with conv.glsl's
    depthwise_packed, or None where that does not apply."""
    if not info.channels_last or len(info.in_size) != 2 or info.filter_shape[-1] != 1:
        return None
    return _depthwise_blocks(backend, info, info.out_size, _depthwise_row(info), "depthwise_packed",
                             "depthwise_x_at", ("x", x), f, _as5d(info.out_shape, True), epilogue, lazy)


def _forward(backend, kernel, inputs, attrs, depthwise, epilogue=None, lazy_ops=()):
    x, f = inputs[:2]
    info = conv_info_for(kernel, x.shape, f.shape, attrs)
    last = info.channels_last
    out5 = _as5d(info.out_shape, last)
    code = _defines(info, depthwise)
    extras = epilogue(info.out_shape) if epilogue is not None else None
    lazy = (info.out_shape, lazy_ops) if lazy_ops is not None else None
    out = (_packed_depthwise(backend, info, x, f, extras, lazy) if depthwise
           else _packed_forward(backend, info, x, f, code, extras, lazy))
    if out is not None:
        return _view(out, info.out_shape)
    names, views = ("x", "W"), [_view(x, _as5d(x.shape, last)), _view(f, _filter5d(f.shape))]
    uniforms, values = (), ()
    if extras is not None:
        extra_names, extra_views, epilogue_code, uniforms, values = extras
        names += extra_names
        views += extra_views
        code += epilogue_code
    code += _sections("depthwise_tap" if depthwise else "dense_tap", "conv")
    out = _run(backend, kernel, code, names, views, out5, uniforms, values)
    return _view(out, info.out_shape)


def _packed_backprop_input(backend, info, dy, f):
    """Conv2DBackpropInput/Conv3DBackpropInputV2 as a product (gemm.py), dx = A W^T with A the
    dy values each position of x is read by, or None where that does not apply."""
    taps = size_of(info.filter_size)
    m = size_of(info.in_shape) // info.in_channels
    k = taps * info.out_channels
    p = gemm.plan(backend, m, info.in_channels, k, 1, 1, 1)
    if p is None:
        return None
    geometry = _defines(info, output=False)
    values = "backprop_input_values" if info.out_channels % 4 == 0 else "backprop_input_value"
    a = gemm.Operand(f"backprop_input:{values}:{geometry}", ("dy",),
                     [_view(dy, _as5d(dy.shape, info.channels_last))],
                     geometry + _sections("backprop_input_position", values), 1)
    oc = info.out_channels
    b = gemm.Operand(f"filter_t:{oc}", ("W",), [_view(f, (taps, info.in_channels, oc))],
                     f"float bValue(int batch, int k, int n) {{ return getW(k / {oc}, n, k % {oc}); }}\n", 1)
    batches = "int aBatch(int batch) { return 0; }\nint bBatch(int batch) { return 0; }\n"
    return gemm.product(backend, p, a, b, batches, _as5d(info.in_shape, info.channels_last),
                        _defines(info) + _sections("backprop_input_coords"))


def _depthwise_back_row(info):
    """DEPTHWISE_BACK_ROW of conv.glsl's depthwise_backprop_input_packed: one filter row's taps
    for the four columns a fragment writes, unrolled by the dy column they read."""
    stride, dil, fw, pad = info.strides[-1], info.dilations[-1], info.filter_size[-1], info.pad_before[-1]
    lines = [f"vec4 w{kw} = wAt(kh, {kw}, c);" for kw in range(fw)]
    reads = {}
    for t in range(4):
        for kw in range(fw):
            n = t + pad - kw * dil
            if n % stride == 0:
                reads.setdefault(n // stride, []).append((t, kw))
    for j, uses in sorted(reads.items()):
        lines.append(f"v = dyAt(b, oh, ow0 + ({j}), c);")
        lines.extend(f"acc{t} += v * w{kw};" for t, kw in uses)
    return "#define DEPTHWISE_BACK_ROW " + " ".join(lines) + "\n"


def _packed_depthwise_backprop_input(backend, info, dy, f):
    """DepthwiseConv2dNativeBackpropInput (2D, channels last, multiplier 1, a column stride that
    divides 4) with conv.glsl's depthwise_backprop_input_packed, or None where that does not apply."""
    if (not info.channels_last or len(info.in_size) != 2 or info.filter_shape[-1] != 1
            or 4 % info.strides[-1] != 0):
        return None
    return _depthwise_blocks(backend, info, info.in_size, _depthwise_back_row(info),
                             "depthwise_backprop_input_packed", "depthwise_dy_at", ("dy", dy), f,
                             _as5d(info.in_shape, True))


def _backprop_input(backend, kernel, inputs, attrs, depthwise):
    dy, f = inputs
    info = conv_info_for(kernel, attrs["input_shape"], f.shape, attrs)
    packed = _packed_depthwise_backprop_input if depthwise else _packed_backprop_input
    out = packed(backend, info, dy, f)
    if out is not None:
        return _view(out, info.in_shape)
    last = info.channels_last
    code = _defines(info, depthwise) + _sections("depthwise_back_tap" if depthwise else "dense_back_tap",
                                                 "conv_backprop_input")
    out = _run(backend, kernel, code, ("dy", "W"), [_view(dy, _as5d(dy.shape, last)), _view(f, _filter5d(f.shape))],
               _as5d(info.in_shape, last))
    return _view(out, info.in_shape)


#: Output positions (batch included) per split of a filter gradient's product: a split's
#: partial sums are one batch of the product, so more fragments share a long sum.
FILTER_GRAD_CHUNK = 1024


def _packed_backprop_filter(backend, info, x, dy):
    """Conv2DBackpropFilter/Conv3DBackpropFilterV2 as a split product (gemm.py), dw = dy^T
    im2col(x) summed over every output position, or None where that does not apply."""
    positions = size_of(info.out_shape) // info.out_channels
    # a split's packed dy is CHUNK / 4 texels wide and its packed x CHUNK high
    splits = -(-positions // min(FILTER_GRAD_CHUNK, backend.ctx.max_texture_size // 4 * 4))
    chunk = 4 * -(-positions // (4 * splits))
    n = size_of(info.filter_shape[:-1])
    p = gemm.plan(backend, info.out_channels, n, chunk, splits, splits, splits)
    if p is None:
        return None
    last = info.channels_last
    geometry = (_defines(info, output=False) + f"#define POSITIONS {positions}\n#define CHUNK {chunk}\n"
                + ("#define DY_ROWS\n" if last else ""))
    dy_view = _view(dy, (positions, info.out_channels) if last else _as5d(dy.shape, False))
    a = gemm.Operand(f"backprop_filter_dy:{geometry}", ("dy",), [dy_view],
                     geometry + _sections("backprop_filter_dy"), splits)
    values = "backprop_filter_x4" if info.in_channels % 4 == 0 else "backprop_filter_x"
    b = gemm.Operand(f"{values}:{geometry}", ("x",), [_view(x, _as5d(x.shape, last))],
                     geometry + _sections("im2col_position", values), splits)
    batches = "int aBatch(int batch) { return batch; }\nint bBatch(int batch) { return batch; }\n"
    return gemm.product(backend, p, a, b, batches, _filter5d(info.filter_shape),
                        _defines(info, output=False) + _sections("backprop_filter_coords"),
                        keep_b=False, splits=splits)


def _packed_depthwise_backprop_filter(backend, info, x, dy):
    """DepthwiseConv2dNativeBackpropFilter (2D, channels last, multiplier 1) with conv.glsl's
    depthwise_backprop_filter_packed and _sum, or None where that does not apply."""
    if not info.channels_last or len(info.in_size) != 2 or info.filter_shape[-1] != 1:
        return None
    out_h, out_w = info.out_size
    rows_per_split = max(1, FILTER_GRAD_CHUNK // out_w)
    splits = -(-info.batch_size * out_h // rows_per_split)
    taps, c4 = size_of(info.filter_size), -(-info.in_channels // 4)
    limit = backend.ctx.max_texture_size
    if splits * taps > limit or c4 > limit:
        return None
    geometry = _defines(info, True, output=False) + f"#define FILTER_TAPS {taps}\n"
    code = geometry + f"#define ROWS_PER_SPLIT {rows_per_split}\n"
    program = Program(f"conv:depthwise_backprop_filter_packed:{code}", ("x", "dy"), (splits * taps, c4),
                      code + _sections("depthwise_x_at", "depthwise_dy_at", "depthwise_backprop_filter_packed"),
                      packed_outputs=1)
    partials = backend.run_packed(program, [_view(x, _as5d(x.shape, True)), _view(dy, _as5d(dy.shape, True))])
    try:
        code = geometry + f"#define SPLITS {splits}\n" + _sections("depthwise_backprop_filter_sum")
        return _run(backend, "depthwise_backprop_filter_sum", code, ("partials",), [partials],
                    _filter5d(info.filter_shape))
    finally:
        backend.dispose_data(partials.data_id)


def _backprop_filter(backend, kernel, inputs, attrs, depthwise):
    x, dy = inputs
    info = conv_info_for(kernel, x.shape, attrs["filter_shape"], attrs)
    packed = _packed_depthwise_backprop_filter if depthwise else _packed_backprop_filter
    out = packed(backend, info, x, dy)
    if out is not None:
        return _view(out, info.filter_shape)
    last = info.channels_last
    code = _defines(info, depthwise) + _sections("conv_backprop_filter")
    out = _run(backend, kernel, code, ("x", "dy"), [_view(x, _as5d(x.shape, last)), _view(dy, _as5d(dy.shape, last))],
               _filter5d(info.filter_shape))
    return _view(out, info.filter_shape)


for _kernel, _fn, _depthwise in [
        ("Conv2D", _forward, False), ("Conv3D", _forward, False), ("DepthwiseConv2dNative", _forward, True),
        ("Conv2DBackpropInput", _backprop_input, False), ("Conv3DBackpropInputV2", _backprop_input, False),
        ("DepthwiseConv2dNativeBackpropInput", _backprop_input, True),
        ("Conv2DBackpropFilter", _backprop_filter, False), ("Conv3DBackpropFilterV2", _backprop_filter, False),
        ("DepthwiseConv2dNativeBackpropFilter", _backprop_filter, True)]:
    register_kernel(_kernel, "webgl", lambda backend, inputs, attrs, k=_kernel, fn=_fn, d=_depthwise:
                    fn(backend, k, inputs, attrs, d))


# --- fused bias and activation --------------------------------------------------------------------

# activation -> (GLSL file, function) applied by the fused epilogue
_ACTIVATIONS = {
    "linear": (_FILE, "activateLinear"), "prelu": (_FILE, "activatePrelu"),
    "relu": ("unary_ops.glsl", "op_Relu"), "relu6": ("unary_ops.glsl", "op_Relu6"),
    "elu": ("unary_ops.glsl", "op_Elu"), "sigmoid": ("unary_ops.glsl", "op_Sigmoid"),
    "leakyrelu": ("unary_ops.glsl", "op_LeakyRelu"),
}


def _aligned(t, out_shape, insert_at):
    """A bias or PReLU weights view matching the program's relabelling of the real output
    `out_shape`: right-aligned to out_shape, then the conv programs' unit depth axis put in at
    insert_at, or (insert_at None) the batch axes merged into one, as the matmul program's."""
    shape = (1,) * (len(out_shape) - len(t.shape)) + tuple(t.shape)
    if insert_at is not None:
        return _view(t, shape[:insert_at] + (1,) + shape[insert_at:])
    lead = len(out_shape) - 2
    return _view(t, (size_of(shape[:lead]),) + shape[lead:])


def _epilogue(inputs, attrs, insert_at):
    """fn(real output shape) -> (input names, views, code, uniforms, values) the epilogue adds."""
    def build(out_shape):
        names, views = (), []
        extras = list(inputs)
        code = ""
        if attrs["has_bias"]:
            names += ("bias",)
            views.append(_aligned(extras.pop(0), out_shape, insert_at))
            code += "#define HAS_BIAS\n"
        if attrs["activation"] == "prelu":
            names += ("prelu",)
            views.append(_aligned(extras.pop(0), out_shape, insert_at))
        glsl_file, fn = _ACTIVATIONS[attrs["activation"]]
        uniforms, values = ((("alpha", "float"),), (attrs["leakyrelu_alpha"],)) \
            if attrs["activation"] == "leakyrelu" else ((), ())
        code += shader_source.function(glsl_file, fn) + f"#define ACTIVATE {fn}\n"
        return names, views, code + shader_source.program(_FILE, "fused_epilogue"), uniforms, values
    return build


# activation -> the elementwise op (programs/fusion.py: file, function, NaN wrap) applying it
# after a lazy unpack (gemm.unpack), as the epilogue would; None: nothing to apply. LeakyReLU's
# alpha would be an attribute, which webgl's fused programs do not take: drawn with the epilogue.
_LAZY_ACTIVATIONS = {
    "linear": None, "relu": ("unary_ops.glsl", "op_Relu", True), "relu6": ("unary_ops.glsl", "op_Relu6", True),
    "elu": ("unary_ops.glsl", "op_Elu", True), "sigmoid": ("unary_ops.glsl", "op_Sigmoid", True),
    "prelu": ("math.glsl", "op_Prelu", False),
}


def _lazy_epilogue(inputs, attrs):
    """The fused bias and activation as gemm.unpack's lazy ops, or None where they cannot be."""
    activation = attrs["activation"]
    if activation not in _LAZY_ACTIVATIONS or any(t.dtype != "float32" for t in inputs):
        return None
    extras, ops = list(inputs), []
    if attrs["has_bias"]:
        ops.append((("binary_ops.glsl", "op_Add", False), extras.pop(0)))
    if _LAZY_ACTIVATIONS[activation] is not None:
        ops.append((_LAZY_ACTIVATIONS[activation], extras.pop(0) if activation == "prelu" else None))
    return tuple(ops)


def _fused_conv(kernel, depthwise):
    def run(backend, inputs, attrs):
        last = attrs.get("data_format", "NHWC") != "NCHW"
        return _forward(backend, kernel, inputs, attrs, depthwise, _epilogue(inputs[2:], attrs, 1 if last else 2),
                        _lazy_epilogue(inputs[2:], attrs))
    return run


register_kernel("FusedConv2D", "webgl", _fused_conv("FusedConv2D", False))
register_kernel("FusedDepthwiseConv2D", "webgl", _fused_conv("FusedDepthwiseConv2D", True))


def _batch_broadcast(backend, t, out_shape):
    """A bias whose batch axes broadcast only partly to the output's is tiled to them first
    (the matmul program sees the batch axes merged into one)."""
    shape = (1,) * (len(out_shape) - len(t.shape)) + tuple(t.shape)
    batch, out_batch = shape[:-2], tuple(out_shape[:-2])
    if all(d == 1 for d in batch) or batch == out_batch:
        return t, False
    reps = [o // d for o, d in zip(out_batch, batch)] + [1, 1]
    return get_kernel("Tile", "webgl")(backend, [_view(t, shape)], {"reps": reps}), True


@register_kernel("_FusedMatMul", "webgl")
def fused_mat_mul(backend, inputs, attrs):
    a, b = inputs[:2]
    out_shape = broadcast_shapes(a.shape[:-2], b.shape[:-2], "fused.mat_mul") + (
        a.shape[-1] if attrs["transpose_a"] else a.shape[-2], b.shape[-2] if attrs["transpose_b"] else b.shape[-1])
    extras, temps = [], []
    for t in inputs[2:]:
        t, tiled = _batch_broadcast(backend, t, out_shape)
        extras.append(t)
        if tiled:
            temps.append(t)
    epilogue = _epilogue(extras, attrs, None)(out_shape)
    lazy = _lazy_epilogue(extras, attrs) if a.dtype == "float32" and b.dtype == "float32" else None
    out = packed_product(backend, a, b, attrs["transpose_a"], attrs["transpose_b"], epilogue,
                         (out_shape, lazy) if lazy is not None else None)
    if out is None:
        program, views = batch_mat_mul_program(a, b, attrs["transpose_a"], attrs["transpose_b"])
        names, extra_views, code, uniforms, values = epilogue
        program = Program(f"fused_mat_mul:{program.key}:{code}", program.variable_names + names,
                          program.output_shape, code + program.user_code, uniforms)
        out = backend.run(program, views + extra_views, "float32", values)
    for t in temps:
        backend.dispose_data(t.data_id)
    return _view(out, out_shape)


# --- Dilation2D ---------------------------------------------------------------------------------

def _dilation(backend, inputs, attrs):
    x, f = inputs[:2]
    info = compute_dilation2d_info(x.shape, f.shape, attrs["strides"], attrs["pad"], attrs["dilations"])
    spans = [math.ceil(e / s) + 1 for e, s in zip(info.effective_filter_size, info.strides)]
    code = _defines(info) + f"#define FLOOR {_DILATION_FLOOR}\n#define SPAN_H {spans[0]}\n#define SPAN_W {spans[1]}\n"
    return info, code, [_view(x, _as5d(x.shape, True)), _view(f, (1,) + tuple(f.shape) + (1,))]


@register_kernel("Dilation2D", "webgl")
def dilation2d(backend, inputs, attrs):
    info, code, views = _dilation(backend, inputs, attrs)
    out = _run(backend, "dilation2d", code + _sections("dilation_argmax", "dilation2d"), ("x", "W"), views, _as5d(info.out_shape, True))
    return _view(out, info.out_shape)


def _dilation_grad(section, out_shape_of, program_shape_of):
    def run(backend, inputs, attrs):
        info, code, views = _dilation(backend, inputs, attrs)
        taps = _run(backend, "dilation2d_taps", code + _sections("dilation_argmax", "dilation2d_taps"), ("x", "W"), views,
                    _as5d(info.out_shape, True))
        dy5 = _view(inputs[2], _as5d(info.out_shape, True))
        out_shape = out_shape_of(info)
        out = _run(backend, section, code + _sections(section), ("taps", "dy"), [taps, dy5], program_shape_of(out_shape))
        backend.dispose_data(taps.data_id)
        return _view(out, out_shape)
    return run


register_kernel("Dilation2DBackpropInput", "webgl",
                _dilation_grad("dilation2d_backprop_input", lambda info: info.in_shape, lambda s: _as5d(s, True)))
register_kernel("Dilation2DBackpropFilter", "webgl",
                _dilation_grad("dilation2d_backprop_filter", lambda info: info.filter_shape[:3],
                               lambda s: (1,) + tuple(s) + (1,)))
