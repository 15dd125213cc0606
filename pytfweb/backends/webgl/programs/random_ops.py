"""webgl programs: random_ops (being written)."""
