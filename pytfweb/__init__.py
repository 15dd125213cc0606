"""pytfweb: TensorFlow.js for Python, on numpy (cpu) and on WebGL2 in the browser (webgl).

    import pytfweb as tf
"""
from .engine import ENGINE as _ENGINE
from .environment import env
from .errors import BackendError, DisposedTensorError, EngineError, NaNError
from .kernels import (get_gradient, get_kernel, get_kernels_for_backend, register_gradient, register_kernel,
                      unregister_gradient, unregister_kernel)
from .tensor import Tensor, Variable
from .dtypes import upcast as upcast_type, sum_out_type
from .ops import *  # noqa: F401,F403
from .ops import __dict__ as _ops_ns
from .backends import register_all as _register_backends

__version__ = "0.1.0"

_register_backends()

# The engine's surface, by TF.js names.
engine = lambda: _ENGINE  # noqa: E731
set_backend = _ENGINE.set_backend
get_backend = _ENGINE.get_backend
register_backend = _ENGINE.register_backend
remove_backend = _ENGINE.remove_backend
find_backend = _ENGINE.find_backend
find_backend_factory = _ENGINE.find_backend_factory
ready = _ENGINE.ready
tidy = _ENGINE.tidy
keep = _ENGINE.keep
dispose = _ENGINE.dispose
memory = _ENGINE.memory
dispose_variables = _ENGINE.dispose_variables


def backend():
    """The active backend object."""
    return _ENGINE._active()


def enable_debug_mode():
    """Log every kernel (name, ms, output shape and size); raise on the first NaN output."""
    env().set("DEBUG", True)
    env().set("PROD", False)


def enable_prod_mode():
    """Turn debug checks off."""
    env().set("DEBUG", False)
    env().set("PROD", True)


def print(x, verbose=False):  # noqa: A001 - TF.js name
    x.print(verbose)


__all__ = [k for k in list(globals()) if not k.startswith("_")]
