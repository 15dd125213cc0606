"""2-D convolutions (Conv2D, DepthwiseConv2dNative and their input and filter gradients; NHWC and
NCHW) and 2-D pooling (MaxPool, AvgPool and their gradients) as direct WGSL programs (shaders/webgpu/conv.wgsl): one
invocation per output value, geometry from ops/conv.py's conv_info_for, sizes as uniforms.
Contracts in ops/conv.py and ops/pool.py. Not yet here: a GEMM (im2col) path for large
convolutions, 3-D convolutions and pooling, MaxPoolWithArgmax, Dilation2D. (Fused convolutions are
in fused.py: this forward, then an epilogue dispatch.)"""
from ....kernels import register_kernel
from ....ops.conv import conv_info_for
from .. import wgsl
from ..backend import Program, _size
from .elementwise import BACKEND

_GEOMETRY = ("size", "B", "H", "W", "C", "OH", "OW", "OC", "FH", "FW", "FC", "SH", "SW", "DH", "DW", "PH", "PW")


def _at(name, channels_last, h, w, c):
    """fn name(b, h, w, c) -> i32: the flat index in a [B, h, w, c] (or [B, c, h, w]) tensor."""
    if channels_last:
        body = f"((b * u.{h} + h) * u.{w} + w) * u.{c} + c"
    else:
        body = f"((b * u.{c} + c) * u.{h} + h) * u.{w} + w"
    return f"fn {name}(b: i32, h: i32, w: i32, c: i32) -> i32 {{ return {body}; }}\n"


def _split(names, channels_last, h, w, c):
    """Statements splitting `index` into the four coordinates `names` (b, row, column, channel)."""
    b, r, col, ch = names
    if channels_last:
        return (f"  let {ch} = index % u.{c};\n  let {col} = (index / u.{c}) % u.{w};\n"
                f"  let {r} = (index / (u.{c} * u.{w})) % u.{h};\n  let {b} = index / (u.{c} * u.{w} * u.{h});\n")
    return (f"  let {col} = index % u.{w};\n  let {r} = (index / u.{w}) % u.{h};\n"
            f"  let {ch} = (index / (u.{w} * u.{h})) % u.{c};\n  let {b} = index / (u.{w} * u.{h} * u.{c});\n")


def _run(backend, section, inputs, names, info, out_shape, depthwise, split, channels_last, key_extra="",
         replacements=(), dtype="float32"):
    t = wgsl.STORAGE_TYPE[dtype]
    fc = info.filter_shape[-1] if info.filter_shape else 1
    values = (_size(out_shape), info.batch_size, *info.in_size, info.in_channels, *info.out_size, info.out_channels,
              *info.filter_size, fc, *info.strides, *info.dilations, *info.pad_before)
    fields = tuple((n, "i32") for n in _GEOMETRY)
    key = f"conv:{section}:{int(channels_last)}{int(depthwise)}:{t}:{key_extra}"

    def source():
        text = wgsl.program("conv.wgsl", section).replace("SPLIT", split).replace("DEPTHWISE", str(depthwise).lower())
        for old, new in replacements:
            text = text.replace(old, new)
        # the helpers that precede the first section (fAt, xValue), then the section
        head = wgsl.read("conv.wgsl").split("// @program", 1)[0]
        if section not in ("forward", "backprop_filter", "max_pool_grad"):   # xValue reads a float32 x
            head = head.split("fn xValue", 1)[0]
        helpers = _at("xAt", channels_last, "H", "W", "C") + _at("yAt", channels_last, "OH", "OW", "OC")
        common = wgsl.functions((wgsl.COMMON, "nan"), (wgsl.COMMON, "inf"))
        return common + helpers + head + wgsl.bindings(t, tuple((n, t) for n in names), fields) + text

    return backend.run(Program(key, source, fields), inputs, out_shape, dtype, values,
                       backend.groups_for(_size(out_shape), 64))


def _conv_kernel(kernel, depthwise):
    def forward(backend, inputs, attrs):
        x, f = inputs
        info = conv_info_for(kernel, x.shape, f.shape, attrs)
        cl = info.channels_last
        return _run(backend, "forward", [x, f], ("x", "filt"), info, info.out_shape, depthwise,
                    _split(("b", "oh", "ow", "oc"), cl, "OH", "OW", "OC"), cl)
    return forward


def _backprop_input_kernel(kernel, depthwise):
    def backprop_input(backend, inputs, attrs):
        dy, f = inputs
        info = conv_info_for(kernel, attrs["input_shape"], f.shape, attrs)
        cl = info.channels_last
        return _run(backend, "backprop_input", [dy, f], ("dy", "filt"), info, info.in_shape, depthwise,
                    _split(("b", "h", "w", "c"), cl, "H", "W", "C"), cl)
    return backprop_input


def _backprop_filter_kernel(kernel, depthwise):
    def backprop_filter(backend, inputs, attrs):
        x, dy = inputs
        info = conv_info_for(kernel, x.shape, attrs["filter_shape"], attrs)
        cl = info.channels_last
        return _run(backend, "backprop_filter", [x, dy], ("x", "dy"), info, tuple(attrs["filter_shape"]), depthwise,
                    "", cl)
    return backprop_filter


for _name, _dw in (("Conv2D", False), ("DepthwiseConv2dNative", True)):
    register_kernel(_name, BACKEND, _conv_kernel(_name, _dw))
register_kernel("Conv2DBackpropInput", BACKEND, _backprop_input_kernel("Conv2DBackpropInput", False))
register_kernel("Conv2DBackpropFilter", BACKEND, _backprop_filter_kernel("Conv2DBackpropFilter", False))
register_kernel("DepthwiseConv2dNativeBackpropInput", BACKEND,
                _backprop_input_kernel("DepthwiseConv2dNativeBackpropInput", True))
register_kernel("DepthwiseConv2dNativeBackpropFilter", BACKEND,
                _backprop_filter_kernel("DepthwiseConv2dNativeBackpropFilter", True))


class _PoolInfo:
    """The pooling attrs in ConvInfo's terms (for _run): NHWC, the filter as [FH, FW, C, 1]."""

    def __init__(self, x_shape, attrs):
        self.batch_size, self.in_channels = x_shape[0], x_shape[-1]
        self.in_size, self.out_size = tuple(x_shape[1:3]), tuple(attrs["out_size"])
        self.out_channels = x_shape[-1]
        self.filter_size, self.filter_shape = tuple(attrs["filter_size"]), ()
        self.strides, self.dilations, self.pad_before = tuple(attrs["strides"]), tuple(attrs["dilations"]), \
            tuple(attrs["pad"])
        self.out_shape = (x_shape[0], *self.out_size, x_shape[-1])


@register_kernel("MaxPool", BACKEND)
def max_pool(backend, inputs, attrs):
    (x,) = inputs
    info = _PoolInfo(x.shape, attrs)
    if x.dtype == "float32":
        repl = (("LOWEST", "-inf()"), ("BETTER", "v > best"), ("RESULT", "best"))
    else:
        repl = (("LOWEST", "0"), ("BETTER", "!found || v > best"), ("RESULT", "select(0, best, found)"))
    return _run(backend, "max_pool", [x], ("x",), info, info.out_shape, False,
                _split(("b", "oh", "ow", "oc"), True, "OH", "OW", "OC"), True, replacements=repl, dtype=x.dtype)


@register_kernel("AvgPool", BACKEND)
def avg_pool(backend, inputs, attrs):
    (x,) = inputs
    info = _PoolInfo(x.shape, attrs)
    return _run(backend, "avg_pool", [x], ("x",), info, info.out_shape, False,
                _split(("b", "oh", "ow", "oc"), True, "OH", "OW", "OC"), True)


@register_kernel("MaxPoolGrad", BACKEND)
def max_pool_grad(backend, inputs, attrs):
    dy, x = inputs
    info = _PoolInfo(x.shape, attrs)
    return _run(backend, "max_pool_grad", [x, dy], ("x", "dy"), info, tuple(x.shape), False,
                _split(("b", "h", "w", "c"), True, "H", "W", "C"), True)


@register_kernel("AvgPoolGrad", BACKEND)
def avg_pool_grad(backend, inputs, attrs):
    (dy,) = inputs
    x_shape = tuple(attrs["x_shape"])
    info = _PoolInfo(x_shape, attrs)
    return _run(backend, "avg_pool_grad", [dy], ("dy",), info, x_shape, False,
                _split(("b", "h", "w", "c"), True, "H", "W", "C"), True)


@register_kernel("MaxPoolWithArgmax", BACKEND)
def max_pool_with_argmax(backend, inputs, attrs):
    (x,) = inputs
    info = _PoolInfo(x.shape, attrs)
    out_shape = info.out_shape
    if _size(out_shape) == 0:
        return [backend.empty(out_shape, x.dtype), backend.empty(out_shape, "int32")]
    fields = tuple((n, "i32") for n in _GEOMETRY) + (("withBatch", "i32"),)
    values = (_size(out_shape), info.batch_size, *info.in_size, info.in_channels, *info.out_size, info.out_channels,
              *info.filter_size, 1, *info.strides, *info.dilations, *info.pad_before,
              int(bool(attrs["include_batch_in_index"])))

    def source():
        text = wgsl.program("conv.wgsl", "max_pool_argmax").replace(
            "SPLIT", _split(("b", "oh", "ow", "oc"), True, "OH", "OW", "OC"))
        return (wgsl.functions((wgsl.COMMON, "inf")) + _at("xAt", True, "H", "W", "C") +
                wgsl.bindings("f32", (("x", "f32"),), fields, outputs=(("result", "f32"), ("positions", "i32"))) + text)

    return backend.run(Program("max_pool_argmax", source, fields), [x], out_shape, x.dtype, values,
                       backend.groups_for(_size(out_shape), 64), extra_outputs=((out_shape, "int32"),))
