"""Gradients: linalg (being written)."""
