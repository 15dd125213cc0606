"""Every elementwise kernel from the tables in ops/elementwise.py, plus Cast, Identity, Select."""
import numpy as np

from ....kernels import register_kernel
from ....ops.elementwise import BINARY, GRADIENT_KERNELS, UNARY, out_dtype, to_int32
from ..backend import NP_DTYPES
from ...shared import register_shared_kernels

register_shared_kernels("cpu")


def _unary_kernel(row):
    def kernel(backend, inputs, attrs):
        (x,) = inputs
        with np.errstate(all="ignore"):
            out = row.numpy(np, backend.values(x), **attrs)
        dtype = out_dtype(row, x.dtype)
        return backend.output(out, dtype)
    return kernel


def _binary_kernel(row):
    def kernel(backend, inputs, attrs):
        a, b = inputs
        with np.errstate(all="ignore"):
            out = row.numpy(np, backend.values(a), backend.values(b))
        dtype = out_dtype(row, a.dtype)
        return backend.output(out, dtype)
    return kernel


for _row in UNARY:
    register_kernel(_row.kernel, "cpu", _unary_kernel(_row))
for _row in BINARY + GRADIENT_KERNELS:
    register_kernel(_row.kernel, "cpu", _binary_kernel(_row))


@register_kernel("Cast", "cpu")
def cast(backend, inputs, attrs):
    (x,) = inputs
    v = backend.values(x)
    dtype = attrs["dtype"]
    if dtype == "bool":
        out = v != 0
    elif dtype == "int32" and v.dtype.kind == "f":
        with np.errstate(invalid="ignore"):
            out = to_int32(np, v)   # as Int32Array.from: truncated, NaN/inf 0, wrapped
    else:
        out = v.astype(NP_DTYPES[dtype])
    return backend.output(out, dtype)


@register_kernel("Select", "cpu")
def select(backend, inputs, attrs):
    c, a, b = inputs
    return backend.output(np.where(backend.values(c), backend.values(a), backend.values(b)), a.dtype)
