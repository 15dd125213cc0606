"""webgl kernels: linalg. Einsum runs as TF.js's webgl backend runs it: a composition of this
backend's Transpose, Multiply and Sum programs (backends/gpu/composed_kernels.py)."""
from ...gpu.composed_kernels import register_composed_einsum

register_composed_einsum("webgl")
