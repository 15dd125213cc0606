"""WGSL programs by family; importing this package registers every webgpu kernel."""
from . import elementwise  # noqa: F401
