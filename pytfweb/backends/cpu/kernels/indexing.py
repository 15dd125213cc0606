"""numpy kernels: indexing (being written)."""
