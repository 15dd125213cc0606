"""numpy kernels: normalization (being written)."""
