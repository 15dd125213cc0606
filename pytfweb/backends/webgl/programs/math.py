"""webgl programs: math (being written)."""
