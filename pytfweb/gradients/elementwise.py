"""Gradients: elementwise (being written)."""
