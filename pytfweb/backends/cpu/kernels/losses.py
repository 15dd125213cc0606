"""numpy kernels: losses (being written)."""
