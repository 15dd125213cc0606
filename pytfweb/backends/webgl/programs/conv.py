"""webgl programs: conv (being written)."""
