"""numpy kernels: conv (being written)."""
