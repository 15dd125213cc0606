"""numpy kernels: BatchMatMul (contract in ops/matmul.py)."""
import numpy as np

from ....kernels import register_kernel


@register_kernel("BatchMatMul", "cpu")
def batch_mat_mul(backend, inputs, attrs):
    a, b = inputs
    va, vb = backend.values(a), backend.values(b)
    if attrs["transpose_a"]:
        va = np.swapaxes(va, -1, -2)
    if attrs["transpose_b"]:
        vb = np.swapaxes(vb, -1, -2)
    # np.matmul broadcasts the batch axes; int32 stays int32 (wrapping, like Int32Array)
    return backend.output(np.matmul(va, vb), a.dtype)
