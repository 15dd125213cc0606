"""Gradients of the convolution kernels (attrs as in the contract of ops/conv.py), TF.js's:

  Conv2D, Conv3D, DepthwiseConv2dNative   x: backprop-input(x.shape, dy, filter)
                                          filter: backprop-filter(x, dy, filter.shape)
  Conv2DBackpropInput, Conv3DBackpropInputV2   (y = the transpose of a conv of dy)
                                          dy: the forward conv of ddx; filter: backprop-filter(ddx, dy)
  Dilation2D                              the Dilation2DBackpropInput / ...Filter kernels
  FusedConv2D, FusedDepthwiseConv2D, _FusedMatMul   dy through the activation (linear, relu or
                                          elu, from the output: the ops fuse other activations
                                          only outside gradients), then the unfused gradients;
                                          bias: dy summed over the axes it was broadcast along
Unlike TF.js, dilations > 1 are differentiated too (the backprop kernels take them).
"""
from .. import ops
from ..core.engine import ENGINE
from ..kernels import register_gradient
from ..ops import conv as conv_ops
from ._util import unbroadcast
from .matmul import GRADS as _MAT_MUL_GRADS


def _common(attrs, rounding=True):
    out = {"strides": attrs["strides"], "pad": attrs["pad"], "dilations": attrs.get("dilations", 1)}
    if rounding and "dim_rounding_mode" in attrs:
        out["dim_rounding_mode"] = attrs["dim_rounding_mode"]
    return out


def _conv2d_input(x_shape, dy, f, a):
    return conv_ops.conv2d_backprop_input(x_shape, dy, f, data_format=a.get("data_format", "NHWC"), **_common(a))


def _conv2d_filter(x, dy, f_shape, a):
    return conv_ops.conv2d_backprop_filter(x, dy, f_shape, data_format=a.get("data_format", "NHWC"), **_common(a))


def _conv3d_input(x_shape, dy, f, a):
    return conv_ops.conv3d_backprop_input(x_shape, dy, f, **_common(a, False))


def _conv3d_filter(x, dy, f_shape, a):
    return conv_ops.conv3d_backprop_filter(x, dy, f_shape, **_common(a, False))


def _depthwise_input(x_shape, dy, f, a):
    return conv_ops.depthwise_conv2d_native_backprop_input(x_shape, dy, f, data_format=a.get("data_format", "NHWC"),
                                                           **_common(a))


def _depthwise_filter(x, dy, f_shape, a):
    return conv_ops.depthwise_conv2d_native_backprop_filter(x, dy, f_shape, data_format=a.get("data_format", "NHWC"),
                                                            **_common(a))


# forward kernel -> (gradient for x, gradient for filter)
BACKPROP = {
    "Conv2D": (_conv2d_input, _conv2d_filter),
    "Conv3D": (_conv3d_input, _conv3d_filter),
    "DepthwiseConv2dNative": (_depthwise_input, _depthwise_filter),
}


def _conv_grad(kernel):
    d_input, d_filter = BACKPROP[kernel]

    def grad(dy, node):
        x, f = node.x
        a = node.attrs
        return [lambda: d_input(x.shape, dy, f, a), lambda: d_filter(x, dy, f.shape, a)]
    return grad


for _kernel in BACKPROP:
    register_gradient(_kernel, _conv_grad(_kernel), save_inputs=True)


def _transpose_grad(forward_kernel):
    """The gradient of a backprop-input kernel (a transposed convolution of dy)."""
    _, d_filter = BACKPROP[forward_kernel]

    def grad(ddx, node):
        dy, f = node.x
        a = dict(node.attrs)
        forward_attrs = {k: v for k, v in a.items() if k != "input_shape"}
        return [lambda: ENGINE.run_kernel(forward_kernel, [ddx, f], forward_attrs),
                lambda: d_filter(ddx, dy, f.shape, a)]
    return grad


register_gradient("Conv2DBackpropInput", _transpose_grad("Conv2D"), save_inputs=True)
register_gradient("Conv3DBackpropInputV2", _transpose_grad("Conv3D"), save_inputs=True)


@register_gradient("Dilation2D", save_inputs=True)
def _dilation2d_grad(dy, node):
    x, f = node.x
    return [lambda: ENGINE.run_kernel("Dilation2DBackpropInput", [x, f, dy], node.attrs),
            lambda: ENGINE.run_kernel("Dilation2DBackpropFilter", [x, f, dy], node.attrs)]


# --- fused kernels ------------------------------------------------------------------------------

def fused_dy(dy, y, activation):
    """dy through the fused activation, from its output y (ops/fused.py: DIFFERENTIABLE): relu's
    y > 0 where x > 0, and elu's gradient is TF.js's EluGrad(dy, y) itself."""
    if activation == "linear":
        return dy
    if activation == "relu":
        return ENGINE.run_kernel("ReluGrad", [dy, y])
    if activation == "elu":
        return ENGINE.run_kernel("EluGrad", [dy, y])
    raise ValueError(f"Cannot compute gradient for fused activation '{activation}'")


def _bias_grad(node, dy):
    if not node.attrs.get("has_bias"):
        return []
    return [lambda: unbroadcast(dy, node.input_shapes[2])]


def _fused_conv_grad(forward_kernel):
    d_input, d_filter = BACKPROP[forward_kernel]

    def grad(dy, node):
        x, f = node.x[:2]
        a = node.attrs
        g = fused_dy(dy, node.y[0], a["activation"])
        grads = [lambda: d_input(x.shape, g, f, a), lambda: d_filter(x, g, f.shape, a)] + _bias_grad(node, g)
        return grads + [None] * (len(node.inputs) - len(grads))     # no gradient for prelu weights
    return grad


register_gradient("FusedConv2D", _fused_conv_grad("Conv2D"), save_inputs=(0, 1), save_outputs=True)
register_gradient("FusedDepthwiseConv2D", _fused_conv_grad("DepthwiseConv2dNative"), save_inputs=(0, 1),
                  save_outputs=True)


@register_gradient("_FusedMatMul", save_inputs=(0, 1), save_outputs=True)
def _fused_mat_mul_grad(dy, node):
    a, b = node.x[:2]
    g = fused_dy(dy, node.y[0], node.attrs["activation"])
    d_a, d_b = _MAT_MUL_GRADS[node.attrs["transpose_a"], node.attrs["transpose_b"]]
    shape_a, shape_b = node.input_shapes[:2]
    grads = [lambda: unbroadcast(d_a(g, a, b), shape_a), lambda: unbroadcast(d_b(g, a, b), shape_b)]
    grads += _bias_grad(node, g)
    return grads + [None] * (len(node.inputs) - len(grads))
