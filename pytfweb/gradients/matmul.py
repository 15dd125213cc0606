"""Gradients: matmul (being written)."""
