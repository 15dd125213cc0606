"""numpy kernels: matmul (being written)."""
