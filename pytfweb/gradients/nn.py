"""Gradients: nn (being written)."""
