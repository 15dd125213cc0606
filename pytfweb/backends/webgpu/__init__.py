"""The WebGPU backend (Pyodide in a browser with navigator.gpu only): WGSL compute shaders.

`tf.set_backend("webgpu")` then `await tf.ready()` (the device request is asynchronous)."""


def available():
    """Whether the page has navigator.gpu (an adapter request may still fail: see ready())."""
    from .device import Device
    return Device.available()


def create_backend():
    from .backend import WebGPUBackend
    from . import programs  # noqa: F401  (registers the kernels)
    return WebGPUBackend()
