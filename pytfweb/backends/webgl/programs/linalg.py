"""webgl programs: linalg (being written)."""
