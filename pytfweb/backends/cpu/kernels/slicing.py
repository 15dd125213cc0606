"""numpy kernels: slicing (being written)."""
