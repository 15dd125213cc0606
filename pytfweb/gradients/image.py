"""Gradients: image (being written)."""
