"""numpy kernels: reduction (being written)."""
