"""The epilogue of the fused kernels (_FusedMatMul, FusedConv2D, FusedDepthwiseConv2D; contract in
ops/fused.py): act(y + bias, prelu weights) as one more elementwise dispatch after the product
(fused.py), and the WGSL of each activation, which conv.py's vec4 programs also apply in their
own stores."""
from ....kernels.activations import ACTIVATIONS
from ....core.shapes import broadcast_shapes
from .. import wgsl
from .elementwise import run_elementwise

# Per activation: the WGSL of act(v, pw) with cpu's NaN and -0 results (pw: the PReLU weight,
# u.alpha: leakyrelu's), and the functions it calls ((file, name), ...).
ACTIVATION_WGSL = {
    "linear": ("v", ()),
    "relu": ("op_Maximum(v, 0.0)", (("binary_ops.wgsl", "op_Maximum"),)),
    "relu6": ("op_Minimum(op_Maximum(v, 0.0), 6.0)", (("binary_ops.wgsl", "op_Maximum"),
                                                      ("binary_ops.wgsl", "op_Minimum"))),
    "elu": ("select(op_Elu(v), v, isNan(v))", (("unary_ops.wgsl", "op_Elu"),)),
    "sigmoid": ("select(op_Sigmoid(v), v, isNan(v))", (("unary_ops.wgsl", "op_Sigmoid"),)),
    "leakyrelu": ("select(v, u.alpha * v, v < 0.0)", ()),
    "prelu": ("select(v, pw * v, v < 0.0)", ()),
}
assert set(ACTIVATION_WGSL) == set(ACTIVATIONS)


def nan_aware_functions(pairs):
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
    body, needs = ACTIVATION_WGSL[activation]
    act_fn = f"fn act(v: f32, pw: f32) -> f32 {{ return {body}; }}\n"
    out_shape = y.shape
    for t in inputs[1:]:
        out_shape = broadcast_shapes(out_shape, t.shape, "fused")
    fields, values = ((), ())
    if activation == "leakyrelu":
        fields, values = (("alpha", "f32"),), (float(attrs.get("leakyrelu_alpha") or 0.0),)
    funcs = nan_aware_functions(needs)
    out = run_elementwise(backend, f"epilogue:{activation}:{int(attrs['has_bias'])}", lambda: funcs() + act_fn,
                          inputs, names, out_shape, "float32", f"act({v}, {pw})", fields, values)
    backend.dispose_data(y.data_id)
    return out
