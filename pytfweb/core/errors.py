"""Exception types beyond the built-ins.

Shapes and values raise ValueError, dtypes and argument types TypeError (see DESIGN.md);
engine state gets its own RuntimeError subclasses so callers can tell them apart.
"""


class TensorConversionError(TypeError):
    """A tensor used where a Python number, bool or index was expected (int(t), t.__index__(),
    bool(t)) failed. Raised by Tensor itself, which does not know the op it was given to:
    engine.op re-raises it as a TypeError naming the op and the argument (.tensor is the one)."""

    def __init__(self, message, tensor=None):
        super().__init__(message)
        self.tensor = tensor


class EngineError(RuntimeError):
    """The engine is in a state that does not allow the request."""


class DisposedTensorError(EngineError):
    """A tensor was used after its memory was released."""


class BackendError(EngineError):
    """A backend is unknown, failed to initialise, or is unavailable on this platform."""


class NaNError(EngineError):
    """Debug mode found a NaN in a kernel's output."""


class ContextLostError(BackendError):
    """The WebGL context was lost (the browser reclaimed the GPU, a driver reset, or
    WEBGL_lose_context): the backend has rebuilt its context, but this tensor's values lived only
    on the GPU, or this read was pending when the context went."""
