"""One gradient per kernel, written with ops so every backend has it; one module per family.
Importing this package registers them all (pytfweb/__init__.py does)."""
from . import elementwise, matmul, nn, reduction, shape, slicing  # noqa: F401
from . import conv, creation, image, indexing, linalg, losses, math, normalization, pool, random_ops, signal  # noqa: F401
from . import spectral  # noqa: F401
