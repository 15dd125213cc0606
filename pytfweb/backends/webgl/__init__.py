"""The WebGL2 backend (Pyodide in a browser only)."""


def create_backend():
    # (imported when the backend is made: the backend needs a browser, this package does not)
    from .backend import WebGLBackend
    from . import programs  # noqa: F401  (registers the kernels)
    return WebGLBackend()
