"""Gradients of the reduction kernels (attrs as in the contract of ops/reduction.py: "axis" a
sorted list of non-negative axes, "keep_dims"), with TF.js's definitions:

  Sum          dy repeated over the reduced axes
  Mean         the same, divided by the number of elements each mean took
  Max, Min     dy to every element equal to the result (all of them on ties, as TF.js)
  Prod         dy times the product of the other elements of the reduced group, from
               exclusive cumulative products both ways (TF.js's cumprod), so zeros are exact
  ArgMax, ArgMin   zeros, as TF.js (the index does not move with x)
  All, Any     no gradient (bool)

dy (and y for Max/Min) has the reduced axes dropped unless keep_dims: it is first reshaped to
x's shape with those axes as 1, then broadcast against x.
"""
import math

from .. import ops
from ..kernels import register_gradient


def _kept_shape(node):
    """x's shape with every reduced axis as 1: the shape dy and y broadcast from."""
    shape = list(node.input_shapes[0])
    for axis in node.attrs["axis"]:
        shape[axis] = 1
    return shape


def _expand(t, shape):
    return t if list(t.shape) == list(shape) else ops.reshape(t, shape)


def _repeated(dy, node):
    """dy repeated over the reduced axes to x's shape (zeros for an empty x: nothing to repeat)."""
    shape = node.input_shapes[0]
    if math.prod(shape) == 0:
        return ops.zeros(shape, "float32")
    return ops.broadcast_to(_expand(dy, _kept_shape(node)), shape)


@register_gradient("Sum")
def _sum_grad(dy, node):
    return [_repeated(dy, node)]


@register_gradient("Mean")
def _mean_grad(dy, node):
    count = math.prod(node.input_shapes[0][axis] for axis in node.attrs["axis"])
    # Dividing before repeating divides the small tensor (the values are the same).
    return [_repeated(ops.div(dy, float(count)), node)]


def _min_max_grad(dy, node):
    x, y = node.x[0], node.y[0]
    kept = _kept_shape(node)
    return [ops.where(ops.equal(x, _expand(y, kept)), _expand(dy, kept), 0.0)]


register_gradient("Max", _min_max_grad, save_inputs=True, save_outputs=True)
register_gradient("Min", _min_max_grad, save_inputs=True, save_outputs=True)


@register_gradient("Prod", save_inputs=True)
def _prod_grad(dy, node):
    x = node.x[0]
    shape, axes = list(x.shape), node.attrs["axis"]
    group = math.prod(shape[axis] for axis in axes)
    if x.size == 0 or group == 1:   # no other element to multiply by: dy, repeated
        return [_repeated(dy, node)]
    # The reduced axes moved last and merged: row i of a [rows, group] matrix is one product.
    kept = [axis for axis in range(len(shape)) if axis not in axes]
    perm = kept + list(axes)
    moved = x if perm == list(range(len(shape))) else ops.transpose(x, perm)
    rows = moved.size // group
    matrix = ops.reshape(moved, [rows, group])
    others = ops.mul(_exclusive_cumprod(matrix, reverse=False), _exclusive_cumprod(matrix, reverse=True))
    dx = ops.reshape(ops.mul(ops.reshape(dy, [rows, 1]), others), moved.shape)
    if moved is not x:
        undo = [0] * len(perm)
        for i, p in enumerate(perm):
            undo[p] = i
        dx = ops.transpose(dx, undo)
    return [dx]


def _exclusive_cumprod(m, reverse):
    """Along the rows of the [rows, n] matrix m (n >= 2): the product of the elements before
    each one (after it, if reverse); 1 for the first (last). A doubling scan: the elements
    shifted by one, then log2(n) products with a copy of itself shifted 1, 2, 4, ... places."""
    out = _shifted(m, 1, reverse)
    step = 1
    while step < m.shape[1]:
        out = ops.mul(out, _shifted(out, step, reverse))
        step *= 2
    return out


def _shifted(m, k, reverse):
    """m moved k places along its rows (towards their end, or their start if reverse), the
    places left empty filled with ones (k < n)."""
    rows, n = m.shape
    if reverse:
        return ops.pad(ops.slice(m, [0, k], [rows, n - k]), [[0, 0], [0, k]], 1)
    return ops.pad(ops.slice(m, [0, 0], [rows, n - k]), [[0, 0], [k, 0]], 1)


@register_gradient("ArgMax")
@register_gradient("ArgMin")
def _arg_grad(dy, node):
    return [ops.zeros(node.input_shapes[0], "float32")]


@register_gradient("All")
@register_gradient("Any")
def _logical_grad(dy, node):
    return [None]
