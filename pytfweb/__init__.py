"""pytfweb: TensorFlow.js for Python, on numpy (cpu) and on WebGL2 in the browser (webgl).

    import pytfweb as tf
"""
import types as _types
from typing import Any as _Any

from .core.api import *  # noqa: F401,F403  (tidy, keep, dispose, memory, set_backend, backend, ...)
from .core.environment import env
from .core.function import function
from .core.errors import BackendError, ContextLostError, DisposedTensorError, EngineError, NaNError
from .kernels import (copy_registered_kernels, get_gradient, get_kernel, get_kernels_for_backend, register_gradient, register_kernel,
                      unregister_gradient, unregister_kernel)
from .core.tensor import Tensor, Variable
from .core.dtypes import upcast as upcast_type, sum_out_type
from .ops import *  # noqa: F401,F403
from .ops.creation import convert_to_tensor as _convert_to_tensor
from .autodiff import custom_grad, grad, grads, value_and_grad, value_and_grads, variable_grads
from . import gradients as _gradients  # noqa: F401  (registers every kernel's gradient)
from .ops import fused, image, linalg, losses, signal, spectral  # noqa: F401  (TF.js sub-namespaces)
from .ops import tfmath as math  # noqa: F401  (tf.math: TF.js's confusion_matrix)
from .ops import string  # noqa: F401  (tf.string)
from .ops import sparse  # noqa: F401  (tf.sparse)
from .ops import __dict__ as _ops_ns
from .backends import register_all as _register_backends

__version__ = "0.1.0"

_register_backends()

def print(x: _Any, verbose: bool = False) -> None:  # noqa: A001 - TF.js name
    """Print a tensor as TF.js does: 'Tensor' then its values.

    Args:
        x: a Tensor, or a value converted to one (disposed after printing).
        verbose: also print dtype, rank and shape.

    Example:
        >>> tf.print([[1, 2], [3, 4]])
        Tensor
            [[1, 2],
             [3, 4]]
    """
    if isinstance(x, Tensor):
        x.print(verbose)
        return
    t = _convert_to_tensor(x, "x", "print")
    try:
        t.print(verbose)
    finally:
        t.dispose()


# `from .ops import *` also brings in the op-family modules (creation, matmul, shape, ...), which
# would shadow TF.js names (tf.matmul a module beside tf.mat_mul): drop them. TF.js's own
# sub-namespaces stay when the ops package provides them.
_NAMESPACES = ("image", "linalg", "signal", "spectral", "losses", "fused", "string", "sparse", "math")
for _name, _value in list(globals().items()):
    if (isinstance(_value, _types.ModuleType) and _value.__name__.startswith(__name__ + ".ops.")
            and _name not in _NAMESPACES):
        del globals()[_name]


# The floors above ops load on first use (PEP 562), not with `import pytfweb`: a page waits for every
# module it imports (about half of the package), and most first lines need only ops. Each floor
# registers what it needs (io's routers, layers' classes) on its own import, before its first use.
_LAZY_MODULES = ("train", "browser", "vis", "io", "util", "data", "layers", "converter", "keras_files")
_LAZY_NAMESPACES = ("callbacks", "constraints", "initializers", "metrics", "regularizers", "serialization")
_LAZY = {
    # name: (module, attribute in it)
    **{name: (".layers", name) for name in _LAZY_NAMESPACES},
    **{name: (".train", name) for name in (
        "AdadeltaOptimizer", "AdagradOptimizer", "AdamaxOptimizer", "AdamOptimizer", "MomentumOptimizer",
        "Optimizer", "RMSPropOptimizer", "SGDOptimizer")},
    "input": (".layers.engine", "input"),
    "model": (".layers.models", "model"),
    "sequential": (".layers.models", "sequential"),
    "load_layers_model": (".layers.saving", "load_layers_model"),
    "load_layers_model_sync": (".layers.saving", "load_layers_model_sync"),
    "load_keras_model": (".keras_files.model_files", "load_keras_model"),
    **{name: (".converter", name) for name in (
        "GraphModel", "deregister_op", "get_registered_op", "load_graph_model", "load_graph_model_sync",
        "register_op")},
}


def __getattr__(name):
    import importlib
    if name in _LAZY_MODULES:
        value = importlib.import_module(f".{name}", __name__)
    elif name in _LAZY:
        module, attr = _LAZY[name]
        value = getattr(importlib.import_module(module, __name__), attr)
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_LAZY_MODULES) | set(_LAZY))


# `from pytfweb import *` takes the lazy names too (and so loads their floors); of the modules, as
# before, only TF.js's sub-namespaces.
__all__ = [k for k, v in globals().items()
           if not k.startswith("_") and (not isinstance(v, _types.ModuleType) or k in _NAMESPACES)
           ] + ["browser"] + [k for k in _LAZY if k not in _LAZY_NAMESPACES]
