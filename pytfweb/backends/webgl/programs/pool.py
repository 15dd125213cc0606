"""webgl programs: pool (being written)."""
