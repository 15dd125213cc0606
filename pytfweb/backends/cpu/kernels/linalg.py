"""numpy kernels: linalg (being written)."""
