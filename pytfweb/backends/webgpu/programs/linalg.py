"""Einsum as webgl runs it (and TF.js's webgl backend): a composition of this backend's Transpose,
Multiply and Sum kernels (backends/gpu/composed_kernels.py)."""
from ...gpu.composed_kernels import register_composed_einsum
from .elementwise import BACKEND

register_composed_einsum(BACKEND)
