"""Gradients of the math kernels (ops/math.py), with TF.js's definitions:

  Prelu    to x: dy where x > 0, dy * alpha elsewhere; to alpha: dy * x where x <= 0, summed
           over the axes alpha was broadcast along (TF.js sums for alpha only; x is summed too
           here, for an x broadcast against a larger alpha)
  AddN     dy to every input
  Cumsum   the cumulative sum of dy run the other way: cumsum(dy, axis, exclusive, not reverse)
           (TF.js then transposes it by the axis permutation, which gives a wrong result or
           shape for any axis but the last: not done here)
  Cumprod  TensorFlow's: cumsum(dy * y, axis, exclusive, not reverse) / x, 0 where x is 0
           (TF.js has none; the true gradient there is not 0)
  Bincount, DenseBincount   none, as in TF.js
"""
from .. import ops
from ..kernels import register_gradient
from ._util import unbroadcast


@register_gradient("Prelu", save_inputs=True)
def _prelu_grad(dy, node):
    x, alpha = node.x
    shape_x, shape_alpha = node.input_shapes
    positive = ops.greater(x, 0.0)
    return [lambda: unbroadcast(ops.where(positive, dy, ops.mul(dy, alpha)), shape_x),
            lambda: unbroadcast(ops.where(positive, 0.0, ops.mul(dy, x)), shape_alpha)]


@register_gradient("AddN")
def _add_n_grad(dy, node):
    return [dy] * len(node.inputs)


@register_gradient("Cumsum")
def _cumsum_grad(dy, node):
    attrs = node.attrs
    return [ops.cumsum(dy, attrs["axis"], attrs["exclusive"], not attrs["reverse"])]


@register_gradient("Cumprod", save_inputs=True, save_outputs=True)
def _cumprod_grad(dy, node):
    attrs = node.attrs
    (x,), (y,) = node.x, node.y
    return [lambda: ops.div_no_nan(ops.cumsum(ops.mul(dy, y), attrs["axis"], attrs["exclusive"],
                                              not attrs["reverse"]), x)]
