"""numpy kernels: linalg (Einsum; contract in ops/einsum.py)."""
import numpy as np

from ....kernels import register_kernel


@register_kernel("Einsum", "cpu")
def einsum(backend, inputs, attrs):
    # The op has checked the equation against the shapes; numpy keeps int32 as int32.
    out = np.einsum(attrs["equation"], *(backend.values(t) for t in inputs))
    return backend.output(out, inputs[0].dtype)
