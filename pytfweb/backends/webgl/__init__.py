"""The WebGL2 backend (Pyodide in a browser only)."""


def create_backend():
    from .backend import WebGLBackend
    from . import programs  # noqa: F401  (registers the kernels)
    return WebGLBackend()
