"""Gradients: reduction (being written)."""
