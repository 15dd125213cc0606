"""webgl programs: signal (being written)."""
