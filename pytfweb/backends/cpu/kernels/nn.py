"""numpy kernels: nn (being written)."""
