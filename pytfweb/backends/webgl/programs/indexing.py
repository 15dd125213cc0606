"""webgl programs: indexing (being written)."""
