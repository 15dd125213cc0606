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
    """The engine is in a state that does not allow the request (a RuntimeError).

    Example:
        >>> issubclass(tf.DisposedTensorError, tf.EngineError), issubclass(tf.EngineError, RuntimeError)
        (True, True)
    """


class DisposedTensorError(EngineError):
    """A tensor was used after its memory was released.

    Example:
        >>> t = tf.ones([2])
        >>> t.dispose()
        >>> t.data_sync()
        Traceback (most recent call last):
        ...
        pytfweb.core.errors.DisposedTensorError: data_sync: Tensor is disposed (id ..., shape [2], dtype float32)
    """


class BackendError(EngineError):
    """A backend is unknown, failed to initialise, or is unavailable on this platform.

    Example:
        >>> tf.set_backend("no-such-backend")
        Traceback (most recent call last):
        ...
        pytfweb.core.errors.BackendError: ...
    """


class NaNError(EngineError):
    """Debug mode (tf.enable_debug_mode) found a NaN in a kernel's output.

    Example:
        >>> tf.enable_debug_mode()
        >>> try:
        ...     tf.sqrt(tf.tensor([-1]))
        ... except tf.NaNError as exc:
        ...     print(exc)
        Sqrt ... dtype float32
        The result of the 'Sqrt' kernel is NaN (output shape [1])
        >>> tf.enable_prod_mode()
    """


class ContextLostError(BackendError):
    """The WebGL context was lost (the browser reclaimed the GPU, a driver reset, or
    WEBGL_lose_context): the backend has rebuilt its context, but this tensor's values lived only
    on the GPU, or this read was pending when the context went. A BackendError.

    Example:
        >>> issubclass(tf.ContextLostError, tf.BackendError)
        True
    """
