"""Gradients: random_ops (being written)."""
