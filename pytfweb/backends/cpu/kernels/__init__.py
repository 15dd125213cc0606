"""Importing this package registers every numpy kernel, one module per family."""
from . import elementwise, matmul, nn, reduction, shape, slicing  # noqa: F401
