"""Kernels built on the generic elementwise program (programs/elementwise.py run_elementwise):
Prelu, AddN, FusedBatchNorm, and the fused kernels (_FusedMatMul, FusedConv2D,
FusedDepthwiseConv2D: the product, then bias and activation in one more dispatch, epilogue.py;
contract in ops/fused.py). Range and LinSpace, whose values follow from their attributes alone, are written
as constants (computed in float64 host-side, as cpu computes them; uploaded on first use)."""
import array

from ....kernels import TensorInfo, register_kernel
from ....core.shapes import broadcast_shapes
from .conv import _conv_kernel
from .elementwise import BACKEND, run_elementwise
from .epilogue import epilogue, nan_aware_functions
from .matmul import batch_mat_mul

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
    funcs = nan_aware_functions((("unary_ops.wgsl", "op_Sqrt"),))
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
