"""numpy kernels: pool (being written)."""
