"""Convolutions (Conv2D, DepthwiseConv2dNative, Conv3D and their input and filter gradients; 2-D
in NHWC and NCHW), pooling (MaxPool, AvgPool, MaxPool3D, AvgPool3D and their gradients,
MaxPoolWithArgmax) and Dilation2D with its gradients, as direct WGSL programs
(backends/webgpu/shaders/conv.wgsl): one invocation per output value, geometry from kernels/conv_geometry.py's
conv_info_for (or the pooling attrs), sizes as uniforms. The shaders are 3-D; 2-D runs with
depth 1. Contracts in ops/conv.py and ops/pool.py.

The common 2-D NHWC forwards have programs of their own that compute vec4s of channels at several
neighbouring output columns or positions per invocation, from registers only (about 5-10x the
direct programs and 2-3x the implicit GEMM on SwiftShader, a CPU, where an invocation's overhead
and a workgroup barrier cost more than arithmetic): depthwise_vec4 (one filter per channel, C a
multiple of 4; its taps unrolled per filter size, stride and dilation), pointwise_vec4 (1x1,
stride 1, no padding: a product) and conv2d_vec4 (OC a multiple of 4). Other 2-D NHWC Conv2Ds and
the input and filter gradients run as implicit GEMMs where enough values are summed per output
(GEMM_FROM), their operands read from x / dy / the filter on the fly: matmul.wgsl's
register-blocked GEMM where the channels its vec4 loaders run along are multiples of 4, else its
tiled GEMM (about 3x faster than the direct programs for 3x3 convolutions on SwiftShader). Dilation2D's
gradients gather over every output (quadratic: fine for small images).

Fused convolutions (FusedConv2D, FusedDepthwiseConv2D): fused.py registers this forward, then
epilogue.py's dispatch; _conv_kernel(..., fused=True) runs the bias and activation in the vec4
programs' stores instead (Epilogue; one dispatch, about 18% off MobileNet v1's predict on
SwiftShader) where the bias and PReLU weights are one value or one per output channel."""
from typing import Callable, NamedTuple

from ....kernels import register_kernel
from ....kernels.conv_geometry import compute_dilation2d_info, conv_info_for
from .. import wgsl
from ..program import Program, _size
from .elementwise import BACKEND
from .epilogue import ACTIVATION_WGSL, epilogue
from .matmul import gemm_grid, gemm_source

_GEOMETRY = ("size", "B", "D", "H", "W", "C", "OD", "OH", "OW", "OC", "FD", "FH", "FW", "FC", "SD", "SH", "SW",
             "DD", "DH", "DW", "PD", "PH", "PW")

# The helper functions of backends/webgpu/shaders/conv.wgsl each program calls.
_HELPERS = {"forward": ("fAt", "xValue"), "backprop_input": ("fAt", "outFrom"), "backprop_filter": ("xValue",),
            "max_pool": (), "avg_pool": (), "max_pool_grad": ("outFrom", "windowMax"),
            "avg_pool_grad": ("outFrom", "windowCount"), "max_pool_argmax": (),
            "dilation": ("dilationValue", "dilationTap"), "dilation_dx": ("dilationValue", "dilationTap"),
            "dilation_df": ("dilationValue", "dilationTap")}


class Geometry:
    """The sizes a program reads, 3-D (a 2-D geometry gets depth 1): from a ConvInfo or from the
    pooling attrs of an x of shape [B, (D,) H, W, C]."""

    def __init__(self, batch, in_size, channels, out_size, out_channels, filter_size, filter_channels, strides,
                 dilations, pads, channels_last=True):
        pad3 = lambda v, fill: (fill,) * (3 - len(v)) + tuple(v)  # noqa: E731
        self.values = (batch, *pad3(in_size, 1), channels, *pad3(out_size, 1), out_channels, *pad3(filter_size, 1),
                       filter_channels, *pad3(strides, 1), *pad3(dilations, 1), *pad3(pads, 0))
        self.channels_last = channels_last

    @classmethod
    def of_conv(cls, info):
        return cls(info.batch_size, info.in_size, info.in_channels, info.out_size, info.out_channels,
                   info.filter_size, info.filter_shape[-1], info.strides, info.dilations, info.pad_before,
                   info.channels_last)

    @classmethod
    def of_pool(cls, x_shape, attrs):
        return cls(x_shape[0], x_shape[1:-1], x_shape[-1], attrs["out_size"], x_shape[-1], attrs["filter_size"], 1,
                   attrs["strides"], attrs["dilations"], attrs["pad"])


def pool_out_shape(x_shape, attrs):
    return (x_shape[0], *attrs["out_size"], x_shape[-1])


def _at(name, channels_last, d, h, w, c):
    """fn name(b, d, h, w, c) -> i32: the flat index in a [B, d, h, w, c] (or [B, c, d, h, w]) tensor."""
    if channels_last:
        body = f"(((b * u.{d} + d) * u.{h} + h) * u.{w} + w) * u.{c} + c"
    else:
        body = f"(((b * u.{c} + c) * u.{d} + d) * u.{h} + h) * u.{w} + w"
    return f"fn {name}(b: i32, d: i32, h: i32, w: i32, c: i32) -> i32 {{ return {body}; }}\n"


def _split(names, channels_last, d, h, w, c):
    """Statements splitting `index` into the five coordinates `names` (batch, depth, row, column,
    channel) of a tensor of sizes u.d, u.h, u.w, u.c in its data format."""
    b, dn, r, col, ch = names
    order = [(ch, c), (col, w), (r, h), (dn, d)] if channels_last else [(col, w), (r, h), (dn, d), (ch, c)]
    out, div = [], ""
    for name, size in order:
        out.append(f"  let {name} = (index{div}) % u.{size};\n")
        div += f" / u.{size}"
    out.append(f"  let {b} = index{div};\n")
    return "".join(out)


def _run(backend, section, inputs, names, geometry, out_shape, depthwise=False, split_names=None,
         replacements=(), dtype="float32", extra_outputs=(), outputs=None, extra_fields=(), extra_values=()):
    t = wgsl.STORAGE_TYPE[dtype]
    cl = geometry.channels_last
    fields = tuple((n, "i32") for n in _GEOMETRY) + tuple(extra_fields)
    values = (_size(out_shape),) + geometry.values + tuple(extra_values)
    key = f"conv:{section}:{int(cl)}{int(depthwise)}:{t}:{''.join(n for _, n in replacements)}"
    split = ""
    if split_names == "out":
        split = _split(("b", "od", "oh", "ow", "oc"), cl, "OD", "OH", "OW", "OC")
    elif split_names == "in":
        split = _split(("b", "d", "h", "w", "c"), cl, "D", "H", "W", "C")

    def source():
        text = wgsl.program("conv.wgsl", section).replace("SPLIT", split)
        helpers = wgsl.functions((wgsl.COMMON, "nan"), (wgsl.COMMON, "inf"),
                                 *(("conv.wgsl", h) for h in _HELPERS[section]))
        text = (helpers + _at("xAt", cl, "D", "H", "W", "C") + _at("yAt", cl, "OD", "OH", "OW", "OC")
                + wgsl.bindings(t, tuple((n, t if n != "positions" else "i32") for n in names), fields, outputs=outputs)
                + text).replace("DEPTHWISE", str(depthwise).lower())
        for old, new in replacements:
            text = text.replace(old, new)
        return text

    return backend.run(Program(key, source, fields), inputs, out_shape, dtype, values,
                       backend.groups_for(_size(out_shape), 64), extra_outputs=extra_outputs)


# The register-blocked GEMM's loaders (matmul.wgsl sections, A's then B's, bound as vec4s) of the
# implicit GEMMs whose operands are vec4-aligned: the input gradient where OC is a multiple of 4,
# the filter gradient where C and OC are. The others (and the Conv2Ds not taken by the vec4
# programs, whose OC is not a multiple of 4) keep matmul.wgsl's tiled GEMM: the register-blocked
# one with their loaders one value at a time lost the device on SwiftShader (apparently compiling,
# as did 8 x 2 blocks of the vec4 loaders below: 4 x 1 here).
_GEMM_LOADERS = {"load_conv_dx": (("dx_a_row4", "row"), ("dx_b_col4", "col"), ("OC",)),
                 "load_conv_df": (("df_a_col4", "col"), ("mm_b_row4", "row"), ("C", "OC"))}
TILE = 32


def _implicit_gemm(backend, section, a, b, info, out_shape, m, n, k):
    """A 2-D NHWC convolution kernel as a GEMM of matmul.wgsl, its operands read by the loaders of
    `section` (im2col without the copy): Conv2D is [batch * OH * OW, FH * FW * C] x
    [FH * FW * C, OC]; its input gradient [batch * H * W, FH * FW * OC] x [FH * FW * OC, C]; its
    filter gradient [FH * FW * C, batch * OH * OW] x [batch * OH * OW, OC]. Register-blocked where
    _GEMM_LOADERS has vec4 loaders for it, else tiled."""
    names = ("M", "N", "K", "H", "W", "C", "OH", "OW", "OC", "FW", "SH", "SW", "DH", "DW", "PH", "PW")
    geometry = (*info.in_size, info.in_channels, *info.out_size, info.out_channels, info.filter_size[1],
                *info.strides, *info.dilations, *info.pad_before)
    channels = {"C": info.in_channels, "OC": info.out_channels}
    loaders = _GEMM_LOADERS.get(section)
    if loaders and all(channels[c] % 4 == 0 for c in loaders[2]):
        (a_loader, a_mode), (b_loader, b_mode) = loaders[:2]
        rows, vec4s = 4, 1
        size, mb, nb = gemm_grid(1, m, n, rows, vec4s)
        fields = tuple((name, "i32") for name in ("size", "MB", "NB") + names)
        vec4_out = n % 4 == 0

        def source():
            return gemm_source("f32", (a_loader, b_loader), a_mode, b_mode, rows, vec4s, vec4_out,
                               (("a", "vec4<f32>"), ("b", "vec4<f32>")), fields,
                               (("BATCH_COORDS", ""), ("BATCH_A", "0"), ("BATCH_B", "0")))

        key = f"conv_gemm:{section}:{rows}x{vec4s}:{int(vec4_out)}"
        return backend.run(Program(key, source, fields), [a, b], out_shape, "float32",
                           (size, mb, nb, m, n, k) + geometry, backend.groups_for(size, 64))
    fields = tuple((name, "i32") for name in names)

    def tiled_source():
        text = wgsl.program("matmul.wgsl", "tiled_" + section[5:]) + wgsl.program("matmul.wgsl", "tiled")
        for old, new in (("BATCH_COORDS", ""), ("BATCH_A", "0"), ("BATCH_B", "0"), ("TYPE", "f32")):
            text = text.replace(old, new)
        return wgsl.bindings("f32", (("a", "f32"), ("b", "f32")), fields) + text

    return backend.run(Program(f"conv_gemm_tiled:{section}", tiled_source, fields), [a, b], out_shape, "float32",
                       (m, n, k) + geometry, (-(-n // TILE), -(-m // TILE), 1))


def _gemm_ok(backend, info, depthwise, taps_times_channels, rows):
    """Whether the implicit GEMM applies (2-D, NHWC, enough values summed per output) and the
    tiled GEMM's grid of 32-row tiles, where it is the one, fits one dispatch dimension (else the
    direct program, which spreads its grid)."""
    return (not depthwise and len(info.in_size) == 2 and info.channels_last
            and taps_times_channels >= GEMM_FROM and -(-rows // TILE) <= backend.max_workgroups)


# A 2-D NHWC convolution kernel runs as an implicit GEMM from this many multiply-adds per output
# value on (Conv2D: FH * FW * C; its input gradient: FH * FW * OC; its filter gradient: the
# positions summed over); below it the direct program (one invocation per output) is as fast.
GEMM_FROM = 64


class Epilogue(NamedTuple):
    """What the vec4 programs do to each vec4 of sums before storing it: `fn epilogue(v, o4)` (o4:
    the vec4 index of its output channels) from source(); a fused kernel's bias and activation, or
    nothing. key: its variant in program keys; inputs: TensorInfos bound after x and the filter, as
    bindings ((name, type), ...); fields and values: its uniforms."""
    key: str = ""
    source: Callable = lambda: "fn epilogue(v: vec4<f32>, o4: i32) -> vec4<f32> { return v; }\n"
    inputs: tuple = ()
    bindings: tuple = ()
    fields: tuple = ()
    values: tuple = ()


PLAIN = Epilogue()


def fused_epilogue(attrs, extras, out_channels):
    """The Epilogue of a fused kernel (bias and activation, contract in ops/fused.py; extras: the
    bias and PReLU weights as attrs say), or None where one of them is neither one value nor one
    per output channel (then epilogue.py's dispatch runs after the product)."""
    extras = list(extras)
    loads, inputs, bindings = {}, [], []
    for name, present in (("bias", attrs["has_bias"]), ("preluWeights", attrs["activation"] == "prelu")):
        if not present:
            continue
        t = extras.pop(0)
        if t.shape and t.shape[-1] == out_channels == _size(t.shape):
            loads[name], binding = f"{name}[o4]", "vec4<f32>"
        elif _size(t.shape) == 1:
            loads[name], binding = f"vec4<f32>({name}[0])", "f32"
        else:
            return None
        inputs.append(t)
        bindings.append((name, binding))
    body, needs = ACTIVATION_WGSL[attrs["activation"]]
    sum_ = "v + " + loads["bias"] if "bias" in loads else "v"
    weights = loads.get("preluWeights", "vec4<f32>(0.0)")

    def source():
        # cpu's order: y + bias, then the activation (of the PReLU weight where there is one)
        return (wgsl.functions((wgsl.COMMON, "isNan"), *needs)
                + f"fn act(v: f32, pw: f32) -> f32 {{ return {body}; }}\n"
                + "fn epilogue(v: vec4<f32>, o4: i32) -> vec4<f32> {\n"
                + f"  let s = {sum_};\n  let w = {weights};\n"
                + "  return vec4<f32>(act(s.x, w.x), act(s.y, w.y), act(s.z, w.z), act(s.w, w.w));\n}\n")

    fields, values = (), ()
    if attrs["activation"] == "leakyrelu":
        fields, values = (("alpha", "f32"),), (float(attrs.get("leakyrelu_alpha") or 0.0),)
    key = attrs["activation"] + "".join(f":{n}:{'one' if b == 'f32' else 'channels'}" for n, b in bindings)
    return Epilogue(key, source, tuple(inputs), tuple(bindings), fields, values)


# The depthwise_vec4 program's output columns per invocation, and the largest filter side it is
# generated for (its code grows with FH * FW * COLUMNS; larger filters take the direct program).
DW_COLUMNS = 8
DW_MAX_SIDE = 7


def _depthwise_vec4_ok(info, depthwise):
    return (depthwise and len(info.in_size) == 2 and info.channels_last and info.filter_shape[-1] == 1
            and info.in_channels % 4 == 0 and max(info.filter_size) <= DW_MAX_SIDE)


def _depthwise_vec4(backend, x, f, info, epi):
    """A 2-D NHWC depthwise convolution (one filter per channel, C a multiple of 4) by the
    depthwise_vec4 program of conv.wgsl, its taps unrolled for this filter size, stride and
    dilation (the program key's variant; sizes and padding are uniforms)."""
    (fh, fw), (sh, sw), (dh, dw) = info.filter_size, info.strides, info.dilations
    c4 = info.in_channels // 4
    oh, ow = info.out_size
    blocks = -(-ow // DW_COLUMNS)
    names = ("size", "H", "W", "C4", "OH", "OW", "OWB", "PH", "PW")
    fields = tuple((n, "i32") for n in names) + epi.fields
    n = info.batch_size * oh * blocks * c4
    values = (n, *info.in_size, c4, oh, ow, blocks, *info.pad_before) + epi.values

    def source():
        # the input columns a filter row reads, as offsets from w0: column j's tap kw reads j * SW + kw * DW
        offsets = sorted({j * sw + k * dw for j in range(DW_COLUMNS) for k in range(fw)})
        taps = [f"  var acc{j} = vec4<f32>(0.0);" for j in range(DW_COLUMNS)]
        taps += [f"  let in{o} = w0 + {o} >= 0 && w0 + {o} < u.W;" for o in offsets]
        for kh in range(fh):
            taps += [f"  let h_{kh} = h0 + {kh * dh};",
                     f"  let row{kh} = ((b * u.H + h_{kh}) * u.W + w0) * u.C4 + c4;",
                     f"  let rowIn{kh} = h_{kh} >= 0 && h_{kh} < u.H;"]
            taps += [f"  let x{kh}_{o} = xVec4(row{kh} + {o} * u.C4, rowIn{kh} && in{o});" for o in offsets]
            taps += [f"  let f{kh}_{k} = filt[{kh * fw + k} * u.C4 + c4];" for k in range(fw)]
            taps += [f"  acc{j} = acc{j} + x{kh}_{j * sw + k * dw} * f{kh}_{k};"
                     for j in range(DW_COLUMNS) for k in range(fw)]
        store = [f"  if (ow0 + {j} < u.OW) {{ result[y0 + {j} * u.C4] = epilogue(acc{j}, c4); }}"
                 for j in range(DW_COLUMNS)]
        text = wgsl.program("conv.wgsl", "depthwise_vec4")
        for old, new in (("TAPS", "\n".join(taps)), ("STORE", "\n".join(store)), ("COLUMNS", str(DW_COLUMNS)),
                         ("SH", str(sh)), ("SW", str(sw))):
            text = text.replace(old, new)
        return (wgsl.bindings("vec4<f32>", (("x", "vec4<f32>"), ("filt", "vec4<f32>")) + epi.bindings, fields)
                + wgsl.functions(("conv.wgsl", "xVec4")) + epi.source() + text)

    key = f"conv:depthwise_vec4:{fh}x{fw}:{sh}x{sw}:{dh}x{dw}:{epi.key}"
    return backend.run(Program(key, source, fields), [x, f, *epi.inputs], info.out_shape, "float32", values,
                       backend.groups_for(n, 64))


# The pointwise_vec4 program's block per invocation: positions, and vec4s of output channels (2
# where OC is a multiple of 8, else 1). Larger blocks read each loaded value into more sums.
PW_ROWS = 8


def _pointwise(backend, x, f, info, epi):
    """A 1x1 NHWC convolution of stride 1 without padding, C and OC multiples of 4: the product of
    x as [B * H * W, C] and the filter as [C, OC] by conv.wgsl's pointwise_vec4 program."""
    m = info.batch_size * _size(info.in_size)
    c4, oc4 = info.in_channels // 4, info.out_channels // 4
    vec4s = 2 if oc4 % 2 == 0 else 1
    fields = tuple((n, "i32") for n in ("size", "M", "C4", "OC4")) + epi.fields
    n = -(-m // PW_ROWS) * (oc4 // vec4s)
    rows, cols = range(PW_ROWS), range(vec4s)

    def source():
        declare = [f"  let x{i} = min(r + {i}, u.M - 1) * u.C4;" for i in rows]
        declare += [f"  var acc{i}_{j} = vec4<f32>(0.0);" for i in rows for j in cols]
        multiply = [f"    let f{j}_{q} = filt[f + {q} * u.OC4 + {j}];" for j in cols for q in range(4)]
        for i in rows:
            multiply.append(f"    let v{i} = x[x{i} + k4];")
            multiply += [f"    acc{i}_{j} = acc{i}_{j} + v{i}.x * f{j}_0 + v{i}.y * f{j}_1 + v{i}.z * f{j}_2 "
                         f"+ v{i}.w * f{j}_3;" for j in cols]
        store = [f"  if (r + {i} < u.M) {{ result[(r + {i}) * u.OC4 + o4 + {j}] = epilogue(acc{i}_{j}, o4 + {j}); }}"
                 for i in rows for j in cols]
        text = wgsl.program("conv.wgsl", "pointwise_vec4")
        for old, new in (("DECLARE", "\n".join(declare)), ("MULTIPLY", "\n".join(multiply)),
                         ("STORE", "\n".join(store)), ("VEC4S", str(vec4s)), ("ROWS", str(PW_ROWS))):
            text = text.replace(old, new)
        return (wgsl.bindings("vec4<f32>", (("x", "vec4<f32>"), ("filt", "vec4<f32>")) + epi.bindings, fields)
                + epi.source() + text)

    return backend.run(Program(f"conv:pointwise_vec4:{vec4s}:{epi.key}", source, fields), [x, f, *epi.inputs],
                       info.out_shape, "float32", (n, m, c4, oc4) + epi.values, backend.groups_for(n, 64))


def _pointwise_ok(info, depthwise):
    return (not depthwise and len(info.in_size) == 2 and info.channels_last and info.filter_size == (1, 1)
            and info.strides == (1, 1) and not any(info.pad_before + info.pad_after)
            and info.in_channels % 4 == 0 and info.out_channels % 4 == 0)


def _conv2d_vec4_ok(info, depthwise):
    return not depthwise and len(info.in_size) == 2 and info.channels_last and info.out_channels % 4 == 0


def _conv2d_vec4(backend, x, f, info, epi):
    """A 2-D NHWC convolution with OC a multiple of 4 by conv.wgsl's conv2d_vec4 program (x read as
    vec4s where C is a multiple of 4 too)."""
    oh, ow = info.out_size
    oc4, blocks = info.out_channels // 4, -(-ow // 4)
    names = ("size", "H", "W", "C", "OH", "OW", "OC4", "OWB", "FH", "FW", "SH", "SW", "DH", "DW", "PH", "PW")
    fields = tuple((n, "i32") for n in names) + epi.fields
    n = info.batch_size * oh * blocks * oc4
    values = (n, *info.in_size, info.in_channels, oh, ow, oc4, blocks, *info.filter_size, *info.strides,
              *info.dilations, *info.pad_before) + epi.values
    c4 = info.in_channels % 4 == 0

    def source():
        text = wgsl.program("conv.wgsl", "conv2d_vec4").replace(
            "CHANNELS", wgsl.program("conv.wgsl", "conv2d_vec4_c4" if c4 else "conv2d_vec4_c1"))
        bindings = (("x", "vec4<f32>" if c4 else "f32"), ("filt", "vec4<f32>")) + epi.bindings
        return (wgsl.bindings("vec4<f32>", bindings, fields)
                + wgsl.functions(("conv.wgsl", "xVec4" if c4 else "xScalar")) + epi.source()
                + text.replace("XC", "(u.C / 4)" if c4 else "u.C"))

    return backend.run(Program(f"conv:conv2d_vec4:c{4 if c4 else 1}:{epi.key}", source, fields), [x, f, *epi.inputs],
                       info.out_shape, "float32", values, backend.groups_for(n, 64))


def _conv_kernel(kernel, depthwise, fused=False):
    """The forward kernel; fused: FusedConv2D / FusedDepthwiseConv2D (inputs x, filter, then the
    bias and PReLU weights as attrs say), their bias and activation in the vec4 programs' stores
    where fused_epilogue applies, else in fused.py's epilogue dispatch after the product."""
    def forward(backend, inputs, attrs):
        x, f = inputs[:2]
        info = conv_info_for(kernel, x.shape, f.shape, attrs)
        epi = fused_epilogue(attrs, inputs[2:], info.out_channels) if fused else PLAIN
        if _size(info.out_shape) and epi is not None:
            if _depthwise_vec4_ok(info, depthwise):
                return _depthwise_vec4(backend, x, f, info, epi)
            if _pointwise_ok(info, depthwise):
                return _pointwise(backend, x, f, info, epi)
            if _conv2d_vec4_ok(info, depthwise):
                return _conv2d_vec4(backend, x, f, info, epi)
        fh, fw = info.filter_size[-2:]
        oh, ow = info.out_size[-2:]
        if _size(info.out_shape) and _gemm_ok(backend, info, depthwise, fh * fw * info.in_channels,
                                              info.batch_size * oh * ow):
            y = _implicit_gemm(backend, "load_conv", x, f, info, info.out_shape, info.batch_size * oh * ow,
                               info.out_channels, fh * fw * info.in_channels)
        else:
            y = _run(backend, "forward", [x, f], ("x", "filt"), Geometry.of_conv(info), info.out_shape, depthwise,
                     "out")
        if fused:
            return epilogue(backend, y, inputs[2:], attrs)
        return y
    return forward


def _backprop_input_kernel(kernel, depthwise):
    def backprop_input(backend, inputs, attrs):
        dy, f = inputs
        info = conv_info_for(kernel, attrs["input_shape"], f.shape, attrs)
        fh, fw = info.filter_size[-2:]
        h, w = info.in_size[-2:]
        if _size(info.in_shape) and _gemm_ok(backend, info, depthwise, fh * fw * info.out_channels,
                                             info.batch_size * h * w):
            return _implicit_gemm(backend, "load_conv_dx", dy, f, info, info.in_shape, info.batch_size * h * w,
                                  info.in_channels, fh * fw * info.out_channels)
        return _run(backend, "backprop_input", [dy, f], ("dy", "filt"), Geometry.of_conv(info), info.in_shape,
                    depthwise, "in")
    return backprop_input


def _backprop_filter_kernel(kernel, depthwise):
    def backprop_filter(backend, inputs, attrs):
        x, dy = inputs
        info = conv_info_for(kernel, x.shape, attrs["filter_shape"], attrs)
        fh, fw = info.filter_size[-2:]
        positions = info.batch_size * _size(info.out_size)
        if _size(attrs["filter_shape"]) and _gemm_ok(backend, info, depthwise, positions,
                                                     fh * fw * info.in_channels):
            return _implicit_gemm(backend, "load_conv_df", x, dy, info, tuple(attrs["filter_shape"]),
                                  fh * fw * info.in_channels, info.out_channels, positions)
        return _run(backend, "backprop_filter", [x, dy], ("x", "dy"), Geometry.of_conv(info),
                    tuple(attrs["filter_shape"]), depthwise)
    return backprop_filter


for _name, _dw in (("Conv2D", False), ("DepthwiseConv2dNative", True), ("Conv3D", False)):
    register_kernel(_name, BACKEND, _conv_kernel(_name, _dw))
for _name, _dw in (("Conv2DBackpropInput", False), ("DepthwiseConv2dNativeBackpropInput", True),
                   ("Conv3DBackpropInputV2", False)):
    register_kernel(_name, BACKEND, _backprop_input_kernel(_name, _dw))
for _name, _dw in (("Conv2DBackpropFilter", False), ("DepthwiseConv2dNativeBackpropFilter", True),
                   ("Conv3DBackpropFilterV2", False)):
    register_kernel(_name, BACKEND, _backprop_filter_kernel(_name, _dw))


def _max_replacements(dtype, found="found"):
    """max_pool's start, test and result: TF.js's strict > from -infinity for floats; for int32
    the first value found, and 0 where a window has none inside x."""
    if dtype == "float32":
        return (("LOWEST", "-inf()"), ("BETTER", "v > best"), ("RESULT", "best"))
    return (("LOWEST", "0"), ("BETTER", f"!({found}) || v > best"), ("RESULT", f"select(0, best, {found})"))


def _max_pool(backend, inputs, attrs):
    (x,) = inputs
    repl = _max_replacements(x.dtype)
    return _run(backend, "max_pool", [x], ("x",), Geometry.of_pool(x.shape, attrs), pool_out_shape(x.shape, attrs),
                split_names="out", replacements=repl, dtype=x.dtype)


def _avg_pool(backend, inputs, attrs):
    (x,) = inputs
    # a window with no position inside x: NaN (0 / 0) in 2-D, 0 in 3-D, as TF.js
    empty = "nan()" if len(attrs["filter_size"]) == 2 else "0.0"
    return _run(backend, "avg_pool", [x], ("x",), Geometry.of_pool(x.shape, attrs), pool_out_shape(x.shape, attrs),
                split_names="out", replacements=(("EMPTY", empty),))


def _max_pool_grad(backend, inputs, attrs):
    dy, x = inputs
    # TF.js's maxPool3d gradient goes to the last maximum of a window, its maxPool's to the first
    last = "true" if len(attrs["filter_size"]) == 3 else "false"
    return _run(backend, "max_pool_grad", [x, dy], ("x", "dy"), Geometry.of_pool(x.shape, attrs), tuple(x.shape),
                split_names="in", replacements=(("LAST_ON_TIES", last),))


def _avg_pool_grad(backend, inputs, attrs):
    (dy,) = inputs
    x_shape = tuple(attrs["x_shape"])
    return _run(backend, "avg_pool_grad", [dy], ("dy",), Geometry.of_pool(x_shape, attrs), x_shape, split_names="in")


for _names, _fn in ((("MaxPool", "MaxPool3D"), _max_pool), (("AvgPool", "AvgPool3D"), _avg_pool),
                    (("MaxPoolGrad", "MaxPool3DGrad"), _max_pool_grad),
                    (("AvgPoolGrad", "AvgPool3DGrad"), _avg_pool_grad)):
    for _name in _names:
        register_kernel(_name, BACKEND, _fn)


@register_kernel("MaxPoolWithArgmax", BACKEND)
def max_pool_with_argmax(backend, inputs, attrs):
    (x,) = inputs
    out_shape = pool_out_shape(x.shape, attrs)
    if _size(out_shape) == 0:
        return [backend.empty(out_shape, x.dtype), backend.empty(out_shape, "int32")]
    return _run(backend, "max_pool_argmax", [x], ("x",), Geometry.of_pool(x.shape, attrs), out_shape, split_names="out",
                replacements=_max_replacements(x.dtype, found="at >= 0"), dtype=x.dtype,
                extra_outputs=((out_shape, "int32"),), outputs=(("result", wgsl.STORAGE_TYPE[x.dtype]), ("positions", "i32")),
                extra_fields=(("withBatch", "i32"),), extra_values=(int(bool(attrs["include_batch_in_index"])),))


# TF.js's running maximum of Dilation2D starts at -(2^53 - 1), as float32
_DILATION_FLOOR = "-9007199254740992.0"


def _dilation(mode):
    def kernel(backend, inputs, attrs):
        x, f = inputs[:2]
        info = compute_dilation2d_info(x.shape, f.shape, attrs["strides"], attrs["pad"], attrs["dilations"])
        geometry = Geometry(info.batch_size, info.in_size, info.in_channels, info.out_size, info.out_channels,
                            info.filter_size, 1, info.strides, info.dilations, info.pad_before)
        out_shape = {0: info.out_shape, 1: tuple(x.shape), 2: tuple(f.shape)}[mode]
        ins, names = [x, f], ("x", "filt")
        if mode:
            ins, names = [x, f, inputs[2]], ("x", "filt", "dy")
        section = ("dilation", "dilation_dx", "dilation_df")[mode]
        return _run(backend, section, ins, names, geometry, out_shape, split_names="out" if mode == 0 else None,
                    replacements=(("FLOOR", _DILATION_FLOOR),))
    return kernel


register_kernel("Dilation2D", BACKEND, _dilation(0))
register_kernel("Dilation2DBackpropInput", BACKEND, _dilation(1))
register_kernel("Dilation2DBackpropFilter", BACKEND, _dilation(2))
