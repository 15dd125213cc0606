"""Gradients of FusedBatchNorm and LRN (contracts in ops/normalization.py), as TF.js defines them:

  FusedBatchNorm  y = (x - mean) * scale * r + offset with r = 1 / sqrt(variance + epsilon):
                  dx = dy * scale * r, dmean = -dy * scale * r, dvariance = -dy * scale *
                  (x - mean) * r^3 / 2, doffset = dy, dscale = dy * (x - mean) * r, each summed
                  over the axes its input was broadcast along (TF.js tiles for rank-1
                  parameters and reduces the same axes)
  LRN             the LRNGrad kernel (x, y, dy)
  LRNGrad, Multinomial   none (TF.js registers none; Multinomial's output is int32)
"""
from .. import ops
from ..core.engine import ENGINE
from ..kernels import register_gradient
from ._util import unbroadcast


@register_gradient("FusedBatchNorm", save_inputs=True)
def _batch_norm_grad(dy, node):
    x, mean, variance, *rest = node.x
    has_offset, has_scale = node.attrs["has_offset"], node.attrs["has_scale"]
    offset = rest.pop(0) if has_offset else None
    scale = rest.pop(0) if has_scale else None
    r = ops.rsqrt(ops.add(variance, node.attrs["variance_epsilon"]))
    scaled_dy = ops.mul(dy, scale) if scale is not None else dy

    def d_variance():
        r_cubed = ops.mul(ops.mul(r, r), r)
        return unbroadcast(ops.mul(ops.mul(scaled_dy, ops.sub(x, mean)), ops.mul(r_cubed, -0.5)), variance.shape)

    # The parameters broadcast to x and cannot enlarge it: dx has x's shape as it is.
    grads = [lambda: ops.mul(scaled_dy, r),
             lambda: unbroadcast(ops.neg(ops.mul(scaled_dy, r)), mean.shape),
             d_variance]
    if offset is not None:
        grads.append(lambda: unbroadcast(dy, offset.shape))
    if scale is not None:
        grads.append(lambda: unbroadcast(ops.mul(dy, ops.mul(ops.sub(x, mean), r)), scale.shape))
    return grads


@register_gradient("LRN", save_inputs=True, save_outputs=True)
def _lrn_grad(dy, node):
    return [lambda: ENGINE.run_kernel("LRNGrad", [node.x[0], node.y[0], dy], node.attrs)]
