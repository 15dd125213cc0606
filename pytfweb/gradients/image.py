"""Gradients of the image kernels (attrs as in the contract of ops/image.py):

  ResizeBilinear, ResizeNearestNeighbor   their Grad kernels (TF.js), which every backend
                                          implements; they keep the images (for the shape)
  FlipLeftRight                           dy flipped back (TF.js registers none; the flip is
                                          its own inverse)

CropAndResize, RotateWithOffset, Transform and the NonMaxSuppression kernels have no gradient
in TF.js and none here.
"""
from .. import ops
from ..core.engine import ENGINE
from ..kernels import register_gradient


def _resize_grad(grad_kernel):
    def grad(dy, node):
        images = node.x[0]
        return [lambda: ENGINE.run_kernel(grad_kernel, [images, dy], node.attrs)]
    return grad


register_gradient("ResizeBilinear", _resize_grad("ResizeBilinearGrad"), save_inputs=True)
register_gradient("ResizeNearestNeighbor", _resize_grad("ResizeNearestNeighborGrad"), save_inputs=True)


@register_gradient("FlipLeftRight")
def _flip_left_right_grad(dy, node):
    return [ops.image.flip_left_right(dy)]
