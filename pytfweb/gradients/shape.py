"""Gradients: shape (being written)."""
