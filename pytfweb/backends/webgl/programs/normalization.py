"""webgl programs: normalization (being written)."""
