"""The numpy backend: the reference every other backend is tested against."""


def create_backend():
    from .backend import CPUBackend
    from . import kernels  # noqa: F401  (registers the kernels)
    return CPUBackend()
