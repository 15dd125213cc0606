"""numpy kernels: image (being written)."""
