"""Gradients: conv (being written)."""
