"""Gradients: normalization (being written)."""
