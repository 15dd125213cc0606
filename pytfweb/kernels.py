"""Kernel and gradient registries, keyed by TF.js kernel names ("Add", "BatchMatMul", "Sum", ...).

A kernel is `fn(backend, inputs, attrs) -> TensorInfo | list[TensorInfo]`: inputs are
tensors (anything with data_id, shape, dtype), attrs a dict of plain Python values.
"""
from collections import namedtuple

TensorInfo = namedtuple("TensorInfo", "data_id shape dtype")

_kernels = {}
_gradients = {}


def register_kernel(kernel_name, backend_name, fn=None):
    """Register fn for (kernel, backend); usable as a decorator."""
    def deco(f):
        _kernels[(kernel_name, backend_name)] = f
        return f
    return deco(fn) if fn is not None else deco


def unregister_kernel(kernel_name, backend_name):
    if _kernels.pop((kernel_name, backend_name), None) is None:
        raise ValueError(f"unregister_kernel: kernel '{kernel_name}' is not registered on backend '{backend_name}'")


def get_kernel(kernel_name, backend_name):
    """The kernel function, or None."""
    return _kernels.get((kernel_name, backend_name))


def get_kernels_for_backend(backend_name):
    return sorted(k for (k, b) in _kernels if b == backend_name)


def register_gradient(kernel_name, fn=None):
    def deco(f):
        _gradients[kernel_name] = f
        return f
    return deco(fn) if fn is not None else deco


def unregister_gradient(kernel_name):
    if _gradients.pop(kernel_name, None) is None:
        raise ValueError(f"unregister_gradient: no gradient is registered for kernel '{kernel_name}'")


def get_gradient(kernel_name):
    return _gradients.get(kernel_name)


def copy_registered_kernels(registered_backend_name, new_backend_name):
    """Register every kernel of one backend for another name too (TF.js copyRegisteredKernels)."""
    for (k, b), fn in list(_kernels.items()):
        if b == registered_backend_name:
            _kernels[(k, new_backend_name)] = fn
