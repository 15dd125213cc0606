"""The WebGPU backend (Pyodide in a browser with navigator.gpu only): WGSL compute shaders.

`tf.set_backend("webgpu")` then `await tf.ready()` (the device request is asynchronous)."""


def available():
    """Whether the page has navigator.gpu (an adapter request may still fail: see ready())."""
    from .device import Device   # (imported when asked: register_all imports this package first)
    return Device.available()


def create_backend():
    # (imported when the backend is made, after available() said the page has WebGPU)
    from .backend import WebGPUBackend
    from . import programs  # noqa: F401  (registers the kernels)
    return WebGPUBackend()
