"""webgl programs: losses (being written)."""
