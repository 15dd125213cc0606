"""The numpy backend: the reference every other backend is tested against."""


def create_backend():
    # (imported when the backend is made: its kernels need numpy, which this package does not)
    from .backend import CPUBackend
    from . import kernels  # noqa: F401  (registers the kernels)
    return CPUBackend()
