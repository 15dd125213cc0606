"""numpy kernels: shape (being written)."""
