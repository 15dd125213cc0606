"""The engine's public functions, as tfjs-core's globals.ts: tidy, keep, dispose, memory, the
backend registry, debug mode. `import pytfweb as tf` exports the TF.js names (__all__); the
floors above ops (layers, train, io, converter, data) call these and ops, never the engine
object, so the engine's internals can change under them.

Beyond TF.js's names, for those floors (here only, not in `tf.*`):
- is_recording_gradients(): whether a gradient tape is recording (inside tf.grad & co.);
- registered_variable(name): the live Variable of that name, or None;
- num_bytes(): tf.memory().num_bytes, from the engine's count alone (memory() also asks the
  backend, which on webgl/webgpu first runs the pending fused ops);
- make_tensor(flat, shape, dtype): a tensor from a flat host buffer (array.array, memoryview,
  1-D ndarray) of exactly dtype's element type, handed to the backend without a copy or a
  conversion (decoded weights);
- tensors_in(container): every Tensor in a nested list / tuple / dict / set.
"""
from typing import Any

from .engine import ENGINE
from .engine import tensors_in  # noqa: F401  (re-exported)
from .environment import env

__all__ = ["engine", "set_backend", "get_backend", "register_backend", "remove_backend", "find_backend",
           "find_backend_factory", "ready", "tidy", "keep", "dispose", "memory", "dispose_variables", "profile",
           "time", "backend", "enable_debug_mode", "enable_prod_mode"]

# The engine's surface, by TF.js names (bound methods: no cost over calling the engine).
def engine() -> Any:
    """The engine: the one object holding the backends, the tensors' data and the scopes.

    Returns:
        The Engine (its reset() disposes everything and forgets the backends' instances).

    Example:
        >>> tf.engine().get_backend()
        'cpu'
    """
    return ENGINE


set_backend = ENGINE.set_backend
get_backend = ENGINE.get_backend
register_backend = ENGINE.register_backend
remove_backend = ENGINE.remove_backend
find_backend = ENGINE.find_backend
find_backend_factory = ENGINE.find_backend_factory
ready = ENGINE.ready
tidy = ENGINE.tidy
keep = ENGINE.keep
dispose = ENGINE.dispose
memory = ENGINE.memory
dispose_variables = ENGINE.dispose_variables
profile = ENGINE.profile
time = ENGINE.time
make_tensor = ENGINE.make_tensor


def backend() -> Any:
    """The active backend object.

    Returns:
        The backend (CPUBackend, WebGLBackend or WebGPUBackend); its epsilon() is TF.js's
        backend.epsilon(), its name the registered name.

    Example:
        >>> tf.backend().name, tf.backend().epsilon()
        ('cpu', 1e-07)
    """
    return ENGINE._active()


def enable_debug_mode() -> None:
    """Debug mode: log every kernel (name, ms, output shape and size) and raise NaNError on the
    first NaN output (slow: each kernel's result is read back).

    Example:
        >>> tf.enable_debug_mode()
        >>> tf.log(tf.tensor([-1]))
        Traceback (most recent call last):
        ...
        pytfweb.core.errors.NaNError: The result of the 'Log' kernel is NaN (output shape [1])
        >>> tf.enable_prod_mode()
    """
    env().set("DEBUG", True)
    env().set("PROD", False)


def enable_prod_mode() -> None:
    """Turn debug mode (tf.enable_debug_mode) off: kernels run without checks.

    Example:
        >>> tf.enable_prod_mode()
        >>> tf.env().get("DEBUG")
        False
    """
    env().set("DEBUG", False)
    env().set("PROD", True)


def is_recording_gradients():
    """Whether a gradient tape is recording (inside tf.grad, tf.variable_grads, model.fit's step)."""
    return ENGINE.active_tape is not None


def num_bytes():
    """The bytes all live tensors hold (tf.memory().num_bytes) without asking the backend."""
    return ENGINE.num_bytes


def registered_variable(name):
    """The live Variable named `name`, or None."""
    return ENGINE.registered_variables.get(name)
