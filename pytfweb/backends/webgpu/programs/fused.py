"""Kernels built on the generic elementwise program (programs/elementwise.py run_elementwise):
Prelu, AddN, FusedBatchNorm, and the epilogue of the fused kernels (_FusedMatMul, FusedConv2D,
FusedDepthwiseConv2D: the product, then bias and activation in one more dispatch; contract in
ops/fused.py). Range and LinSpace, whose values follow from their attributes alone, are written
as constants (computed in float64 host-side, as cpu computes them; uploaded on first use)."""
import array

from ....kernels import TensorInfo, register_kernel
from ....kernels.activations import ACTIVATIONS
from ....shapes import broadcast_shapes
from .. import wgsl
from .conv import _conv_kernel
from .elementwise import BACKEND, run_elementwise
from .matmul import batch_mat_mul

# Per activation: the WGSL of act(v, pw) with cpu's NaN and -0 results (pw: the PReLU weight,
# u.alpha: leakyrelu's), and the functions it calls ((file, name), ...).
_ACTIVATION = {
    "linear": ("v", ()),
    "relu": ("op_Maximum(v, 0.0)", (("binary_ops.wgsl", "op_Maximum"),)),
    "relu6": ("op_Minimum(op_Maximum(v, 0.0), 6.0)", (("binary_ops.wgsl", "op_Maximum"),
                                                      ("binary_ops.wgsl", "op_Minimum"))),
    "elu": ("select(op_Elu(v), v, isNan(v))", (("unary_ops.wgsl", "op_Elu"),)),
    "sigmoid": ("select(op_Sigmoid(v), v, isNan(v))", (("unary_ops.wgsl", "op_Sigmoid"),)),
    "leakyrelu": ("select(v, u.alpha * v, v < 0.0)", ()),
    "prelu": ("select(v, pw * v, v < 0.0)", ()),
}
assert set(_ACTIVATION) == set(ACTIVATIONS)


def _functions(pairs):
    return lambda: wgsl.functions((wgsl.COMMON, "isNan"), *pairs)


def epilogue(backend, y, extras, attrs):
    """act(y + bias, prelu weights) as one dispatch (inputs broadcast to y); y, an intermediate
    TensorInfo, is freed."""
    extras = list(extras)
    activation = attrs["activation"]
    inputs, names = [y], ["y"]
    v = "v_y"
    if attrs["has_bias"]:
        inputs.append(extras.pop(0))
        names.append("bias")
        v = "v_y + v_bias"
    pw = "0.0"
    if activation == "prelu":
        inputs.append(extras.pop(0))
        names.append("w")
        pw = "v_w"
    body, needs = _ACTIVATION[activation]
    act_fn = f"fn act(v: f32, pw: f32) -> f32 {{ return {body}; }}\n"
    out_shape = y.shape
    for t in inputs[1:]:
        out_shape = broadcast_shapes(out_shape, t.shape, "fused")
    fields, values = ((), ())
    if activation == "leakyrelu":
        fields, values = (("alpha", "f32"),), (float(attrs.get("leakyrelu_alpha") or 0.0),)
    funcs = _functions(needs)
    out = run_elementwise(backend, f"epilogue:{activation}:{int(attrs['has_bias'])}", lambda: funcs() + act_fn,
                          inputs, names, out_shape, "float32", f"act({v}, {pw})", fields, values)
    backend.dispose_data(y.data_id)
    return out


@register_kernel("_FusedMatMul", BACKEND)
def fused_mat_mul(backend, inputs, attrs):
    return epilogue(backend, batch_mat_mul(backend, inputs[:2], attrs), inputs[2:], attrs)


# The bias and activation in the convolution's own stores where its vec4 programs apply (conv.py),
# else through epilogue() after the product.
register_kernel("FusedConv2D", BACKEND, _conv_kernel("FusedConv2D", False, fused=True))
register_kernel("FusedDepthwiseConv2D", BACKEND, _conv_kernel("FusedDepthwiseConv2D", True, fused=True))


@register_kernel("Prelu", BACKEND)
def prelu(backend, inputs, attrs):
    x, alpha = inputs
    out_shape = broadcast_shapes(x.shape, alpha.shape, "prelu")
    return run_elementwise(backend, "prelu", lambda: "", [x, alpha], ["x", "alpha"], out_shape, "float32",
                           "select(v_x, v_alpha * v_x, v_x < 0.0)")




@register_kernel("AddN", BACKEND)
def add_n(backend, inputs, attrs):
    """Summed left to right as cpu does (int32 wraps); more tensors than a dispatch may bind (the
    output and the inputs: the device's maxStorageBuffersPerShaderStage) in several dispatches,
    each adding to the previous partial sum."""
    dtype = inputs[0].dtype
    pending = list(inputs)
    acc = None
    max_inputs = backend._device("AddN").max_storage_buffers - 1
    while pending:
        take = max_inputs if acc is None else max_inputs - 1
        group = ([acc] if acc is not None else []) + pending[:take]
        pending = pending[take:]
        names = [f"t{i}" for i in range(len(group))]
        out = run_elementwise(backend, f"add_n{len(group)}", lambda: "", group, names, group[0].shape, dtype,
                              " + ".join(f"v_{n}" for n in names) if len(names) > 1 else "v_t0")
        if acc is not None:
            backend.dispose_data(acc.data_id)
        acc = out
    return acc


@register_kernel("FusedBatchNorm", BACKEND)
def fused_batch_norm(backend, inputs, attrs):
    x, mean, variance, *rest = inputs
    names = ["x", "mean", "variance"]
    ins = [x, mean, variance]
    offset = scale = None
    if attrs["has_offset"]:
        offset = rest.pop(0)
        ins.append(offset)
        names.append("offset")
    if attrs["has_scale"]:
        scale = rest.pop(0)
        ins.append(scale)
        names.append("scale")
    out_shape = tuple(x.shape)
    expr = "(v_x - v_mean)" + (" * v_scale" if scale is not None else "") + \
        " / sqrtNan(v_variance + u.epsilon)" + (" + v_offset" if offset is not None else "")
    sqrt_fn = "fn sqrtNan(v: f32) -> f32 { return select(op_Sqrt(v), v, isNan(v)); }\n"
    funcs = _functions((("unary_ops.wgsl", "op_Sqrt"),))
    return run_elementwise(backend, f"batch_norm:{int(offset is not None)}{int(scale is not None)}",
                           lambda: funcs() + sqrt_fn, ins, names, out_shape, "float32", expr,
                           (("epsilon", "f32"),), (float(attrs["variance_epsilon"]),))


def _constant(backend, values, shape, dtype):
    return TensorInfo(backend.write(values, shape, dtype), tuple(shape), dtype)


@register_kernel("Range", BACKEND)
def range_(backend, inputs, attrs):
    start, step, size, dtype = attrs["start"], attrs["step"], attrs["size"], attrs["dtype"]
    values = [start + i * step for i in range(size)]   # float64, as cpu's ramp
    if dtype == "int32":
        values = [int(v) for v in values]
    return _constant(backend, array.array("f" if dtype == "float32" else "i", values), (size,), dtype)


@register_kernel("LinSpace", BACKEND)
def linspace(backend, inputs, attrs):
    num, start, stop = attrs["num"], attrs["start"], attrs["stop"]
    step = (stop - start) / (num - 1) if num > 1 else 0.0
    values = [start + i * step for i in range(num)]
    if num > 1:
        values[-1] = stop
    return _constant(backend, array.array("f", values), (num,), "float32")
