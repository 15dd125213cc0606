"""webgl programs: image (being written)."""
