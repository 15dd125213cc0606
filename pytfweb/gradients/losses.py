"""Gradients: losses (being written)."""
