"""Gradients: slicing (being written)."""
