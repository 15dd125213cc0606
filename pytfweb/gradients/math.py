"""Gradients: math (being written)."""
