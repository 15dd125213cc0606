"""numpy kernels: math (being written)."""
