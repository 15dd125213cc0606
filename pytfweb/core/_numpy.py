"""numpy when importable (CPython, or Pyodide with its wheel); None otherwise."""
try:
    import numpy as np
except ImportError:  # Pyodide here ships no numpy wheel
    np = None
