"""Helpers shared by gradient functions."""
from .. import ops
from ..core.shapes import broadcast_dims


def unbroadcast(dx, shape):
    """Sum dx over the axes along which an input of `shape` was broadcast to dx's shape, so the
    gradient has the input's shape."""
    shape = tuple(shape)
    if tuple(dx.shape) == shape:
        return dx
    axes = broadcast_dims(shape, dx.shape)
    if axes:
        dx = ops.sum(dx, axes)
    return ops.reshape(dx, shape)
