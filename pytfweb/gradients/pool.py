"""Gradients of the pooling kernels (attrs as in the contract of ops/pool.py), by their grad
kernels, as TF.js does:

  MaxPool, MaxPool3D     MaxPoolGrad / MaxPool3DGrad(dy, x): dy to each window's maximum
  AvgPool, AvgPool3D     AvgPoolGrad / AvgPool3DGrad(dy): dy spread over each window. Over the
                         positions inside x, as the forward mean counts them (TF.js divides by
                         the whole filter's size, which is wrong next to 'same' padding)
  MaxPoolWithArgmax      its result as MaxPool's; the indexes have none (TF.js registers none)
  AvgPoolGrad, AvgPool3DGrad   linear in dy: the pooling itself (its adjoint), so that
                         avg pooling can be differentiated twice
"""
from ..core.engine import ENGINE
from ..kernels import register_gradient

_GRAD_KERNELS = {"MaxPool": "MaxPoolGrad", "MaxPool3D": "MaxPool3DGrad",
                 "AvgPool": "AvgPoolGrad", "AvgPool3D": "AvgPool3DGrad"}
_POOL_ATTRS = ("filter_size", "strides", "dilations", "pad", "out_size")


def _pool_attrs(node):
    return {k: node.attrs[k] for k in _POOL_ATTRS}


def _max_pool_grad(dy, node):
    kernel = _GRAD_KERNELS[node.kernel]
    return [lambda: ENGINE.run_kernel(kernel, [dy, node.x[0]], _pool_attrs(node))]


def _avg_pool_grad(dy, node):
    kernel = _GRAD_KERNELS[node.kernel]
    attrs = dict(_pool_attrs(node), x_shape=list(node.input_shapes[0]))
    return [lambda: ENGINE.run_kernel(kernel, [dy], attrs)]


register_gradient("MaxPool", _max_pool_grad, save_inputs=True)
register_gradient("MaxPool3D", _max_pool_grad, save_inputs=True)
register_gradient("AvgPool", _avg_pool_grad)
register_gradient("AvgPool3D", _avg_pool_grad)


@register_gradient("MaxPoolWithArgmax", save_inputs=True)
def _max_pool_with_argmax_grad(dys, node):
    dy = dys[0]
    return [lambda: ENGINE.run_kernel("MaxPoolGrad", [dy, node.x[0]], _pool_attrs(node))]


def _avg_pool_grad_grad(ddx, node):
    kernel = {"AvgPoolGrad": "AvgPool", "AvgPool3DGrad": "AvgPool3D"}[node.kernel]
    return [lambda: ENGINE.run_kernel(kernel, [ddx], _pool_attrs(node))]


register_gradient("AvgPoolGrad", _avg_pool_grad_grad)
register_gradient("AvgPool3DGrad", _avg_pool_grad_grad)
