"""Gradients of Softmax, LogSoftmax and OneHot (attrs as in the contract of ops/nn.py), with
TF.js's definitions. Both softmax kernels work on the last axis and keep only their output:

  Softmax     dy * y - sum(dy * y) * y      (sums along the softmax axis, dims kept)
  LogSoftmax  dy - sum(dy) * exp(y)
  OneHot      float32 zeros of the indices' shape (int32 indices: TF.js's answer)

softmax/log_softmax along another axis transpose around the kernel; the Transpose gradient
(gradients/shape.py) undoes that.
"""
from .. import ops
from ..kernels import register_gradient


@register_gradient("Softmax", save_outputs=True)
def _softmax_grad(dy, node):
    y = node.y[0]
    dy_y = ops.mul(dy, y)
    return [ops.sub(dy_y, ops.mul(ops.sum(dy_y, node.attrs["dim"], keep_dims=True), y))]


@register_gradient("LogSoftmax", save_outputs=True)
def _log_softmax_grad(dy, node):
    y = node.y[0]
    return [ops.sub(dy, ops.mul(ops.sum(dy, node.attrs["axis"], keep_dims=True), ops.exp(y)))]


@register_gradient("OneHot")
def _one_hot_grad(dy, node):
    shape = node.input_shapes[0]
    return [lambda: ops.zeros(shape, "float32")]
