"""Importing this package registers every numpy kernel, one module per family."""
from . import elementwise, matmul, nn, reduction, shape, slicing  # noqa: F401
from . import conv, image, indexing, linalg, losses, math, normalization, pool, random_ops, signal  # noqa: F401
from . import creation  # noqa: F401
from . import spectral  # noqa: F401
from . import string  # noqa: F401
from . import sparse, ragged, pixels  # noqa: F401
from . import optimizers  # noqa: F401
