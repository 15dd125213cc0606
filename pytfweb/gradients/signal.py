"""Gradients: signal (being written)."""
