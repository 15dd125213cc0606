"""Gradients: pool (being written)."""
