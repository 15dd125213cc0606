"""numpy kernels: random_ops (being written)."""
