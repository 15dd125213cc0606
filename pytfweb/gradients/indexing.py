"""Gradients: indexing (being written)."""
