"""numpy kernels that create tensors from attributes: Fill, ZerosLike, OnesLike, Range, LinSpace."""
import numpy as np

from ....kernels import register_kernel
from ..np_dtypes import NP_DTYPES


@register_kernel("Fill", "cpu")
def fill(backend, inputs, attrs):
    return backend.output(np.full(attrs["shape"], attrs["value"], NP_DTYPES[attrs["dtype"]]), attrs["dtype"])


@register_kernel("ZerosLike", "cpu")
def zeros_like(backend, inputs, attrs):
    (x,) = inputs
    return backend.output(np.zeros(x.shape, NP_DTYPES[x.dtype]), x.dtype)


@register_kernel("OnesLike", "cpu")
def ones_like(backend, inputs, attrs):
    (x,) = inputs
    return backend.output(np.ones(x.shape, NP_DTYPES[x.dtype]), x.dtype)


def ramp(start, step, size):
    """start + i * step for i < size, computed in float64 (the values TF.js's cpu backend gives)."""
    return start + np.arange(size, dtype=np.float64) * step


@register_kernel("Range", "cpu")
def range_(backend, inputs, attrs):
    return backend.output(ramp(attrs["start"], attrs["step"], attrs["size"]), attrs["dtype"])


@register_kernel("LinSpace", "cpu")
def linspace(backend, inputs, attrs):
    num, start, stop = attrs["num"], attrs["start"], attrs["stop"]
    values = ramp(start, (stop - start) / (num - 1) if num > 1 else 0.0, num)
    if num > 1:
        values[-1] = stop  # exactly stop, whatever the rounding of the steps
    return backend.output(values, "float32")
