"""numpy kernels: signal (being written)."""
