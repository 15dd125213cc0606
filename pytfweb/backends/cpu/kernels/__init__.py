"""Importing this package registers every numpy kernel, one module per family."""
from . import elementwise  # noqa: F401

