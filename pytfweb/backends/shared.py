"""Kernels that only relabel data (no values change), the same on every backend: the output
shares the input's DataId and the engine counts the extra reference."""
from ..kernels import TensorInfo, register_kernel


def _identity(backend, inputs, attrs):
    (x,) = inputs
    return TensorInfo(x.data_id, x.shape, x.dtype)


def _reshape(backend, inputs, attrs):
    (x,) = inputs
    return TensorInfo(x.data_id, tuple(attrs["shape"]), x.dtype)


def _expand_dims(backend, inputs, attrs):
    (x,) = inputs
    dim = attrs["dim"]
    return TensorInfo(x.data_id, tuple(x.shape[:dim]) + (1,) + tuple(x.shape[dim:]), x.dtype)


def register_shared_kernels(backend_name):
    register_kernel("Identity", backend_name, _identity)
    register_kernel("Reshape", backend_name, _reshape)
    register_kernel("ExpandDims", backend_name, _expand_dims)
