"""Kernel and gradient registries, keyed by TF.js kernel names ("Add", "BatchMatMul", "Sum", ...).

A kernel is `fn(backend, inputs, attrs) -> TensorInfo | list[TensorInfo]`: inputs are
tensors (anything with data_id, shape, dtype), attrs a dict of plain Python values.
"""
from collections import namedtuple
from typing import Any, Callable, List, Optional

TensorInfo = namedtuple("TensorInfo", "data_id shape dtype")

_kernels = {}
_gradients = {}

# Kernels that take string tensors: the string kernels and those that only move values
# (backends/strings.py fills it). The engine refuses a string input to any other kernel.
STRING_KERNELS = set()

# Kernels whose output shape depends on the values of their inputs (they read them back on the GPU
# backends): a recorded plan cannot replay them blindly, so a trace that runs one breaks
# (core/plan.py).
VALUE_DEPENDENT_KERNELS = frozenset((
    "Unique", "BroadcastArgs", "NonMaxSuppressionV3", "NonMaxSuppressionV4", "NonMaxSuppressionV5",
    "SparseFillEmptyRows", "SparseReshape", "SparseSegmentSum", "SparseSegmentMean",
    "RaggedGather", "RaggedRange", "RaggedTensorToTensor", "StringNGrams", "StringSplit"))


def register_kernel(kernel_name: str, backend_name: str, fn: Optional[Callable] = None) -> Callable:
    """Register a kernel implementation for (kernel, backend); usable as a decorator.

    A kernel is fn(backend, inputs, attrs) returning a TensorInfo or a list of them.

    Args:
        kernel_name: TF.js's kernel name ('Add', 'BatchMatMul', ...).
        backend_name: the backend's name ('cpu', 'webgl', 'webgpu').
        fn: the kernel (None: return a decorator).

    Returns:
        fn, or a decorator registering the function it decorates.

    Example:
        >>> @tf.register_kernel("DocExampleKernel", "cpu")
        ... def my_kernel(backend, inputs, attrs):
        ...     return None
        >>> tf.get_kernel("DocExampleKernel", "cpu") is my_kernel
        True
        >>> tf.unregister_kernel("DocExampleKernel", "cpu")
    """
    def deco(f):
        _kernels[(kernel_name, backend_name)] = f
        return f
    return deco(fn) if fn is not None else deco


def unregister_kernel(kernel_name: str, backend_name: str) -> None:
    """Remove a kernel registration.

    Args:
        kernel_name: the kernel's name.
        backend_name: the backend's name.

    Raises:
        ValueError: no such kernel is registered on that backend.

    Example:
        >>> tf.register_kernel("DocExampleKernel", "cpu", lambda backend, inputs, attrs: None)
        ... # doctest: +ELLIPSIS
        <function <lambda> at ...>
        >>> tf.unregister_kernel("DocExampleKernel", "cpu")
        >>> tf.get_kernel("DocExampleKernel", "cpu") is None
        True
    """
    if _kernels.pop((kernel_name, backend_name), None) is None:
        raise ValueError(f"unregister_kernel: kernel '{kernel_name}' is not registered on backend '{backend_name}'")


def get_kernel(kernel_name: str, backend_name: str) -> Optional[Callable]:
    """The kernel function registered for (kernel, backend), or None.

    Args:
        kernel_name: the kernel's name.
        backend_name: the backend's name.

    Returns:
        The function, or None.

    Example:
        >>> callable(tf.get_kernel("Add", "cpu"))
        True
    """
    return _kernels.get((kernel_name, backend_name))


def get_kernels_for_backend(backend_name: str) -> List[str]:
    """The names of the kernels registered for a backend, sorted.

    Args:
        backend_name: the backend's name.

    Returns:
        A list of kernel names.

    Example:
        >>> "BatchMatMul" in tf.get_kernels_for_backend("cpu")
        True
    """
    return sorted(k for (k, b) in _kernels if b == backend_name)


class GradConfig(namedtuple("GradConfig", "kernel_name fn save_inputs save_outputs")):
    """How to differentiate one kernel. fn(dy, node) returns one gradient per input (None
    where an input gets none), each a Tensor or a function of no arguments that computes it
    only if that input wants a gradient; dy is a Tensor, or a list for a kernel with several outputs.
    save_inputs / save_outputs: True (all), False (none) or a tuple of positions: only these
    are kept alive on the tape, as node.x[i] / node.y[i] (None for what is not saved)."""


def register_gradient(kernel_name: str, fn: Optional[Callable] = None, save_inputs: Any = False,
                      save_outputs: Any = False) -> Callable:
    """Register the gradient of a kernel; usable as a decorator.

    Write fn with ops, so that every backend has it (and it can itself be differentiated):
    fn(dy, node) returns one gradient per input (None where an input gets none); node.x and
    node.y hold the saved inputs and outputs.

    Args:
        kernel_name: the kernel's name.
        fn: the gradient function (None: return a decorator).
        save_inputs: True (all), False (none) or a tuple of input positions kept for fn.
        save_outputs: likewise for the outputs.

    Returns:
        fn, or a decorator.

    Example:
        >>> tf.register_gradient("DocExampleKernel", lambda dy, node: [dy])
        ... # doctest: +ELLIPSIS
        <function <lambda> at ...>
        >>> tf.get_gradient("DocExampleKernel").kernel_name
        'DocExampleKernel'
        >>> tf.unregister_gradient("DocExampleKernel")
    """
    def deco(f):
        _gradients[kernel_name] = GradConfig(kernel_name, f, save_inputs, save_outputs)
        return f
    return deco(fn) if fn is not None else deco


def unregister_gradient(kernel_name: str) -> None:
    """Remove a kernel's registered gradient.

    Args:
        kernel_name: the kernel's name.

    Raises:
        ValueError: no gradient is registered for it.

    Example:
        >>> config = tf.get_gradient("Square")
        >>> tf.unregister_gradient("Square")
        >>> tf.get_gradient("Square") is None
        True
        >>> _ = tf.register_gradient("Square", config.fn, config.save_inputs, config.save_outputs)
    """
    if _gradients.pop(kernel_name, None) is None:
        raise ValueError(f"unregister_gradient: no gradient is registered for kernel '{kernel_name}'")


def get_gradient(kernel_name: str) -> Optional[GradConfig]:
    """The gradient registered for a kernel, or None.

    Args:
        kernel_name: the kernel's name.

    Returns:
        A GradConfig (kernel_name, fn, save_inputs, save_outputs), or None.

    Example:
        >>> tf.get_gradient("Square").save_inputs
        True
    """
    return _gradients.get(kernel_name)


def copy_registered_kernels(registered_backend_name: str, new_backend_name: str) -> None:
    """Register every kernel of one backend for another backend name too (TF.js's
    copyRegisteredKernels).

    Args:
        registered_backend_name: the backend whose kernels to copy.
        new_backend_name: the name to register them for.

    Example:
        >>> tf.copy_registered_kernels("cpu", "doc-example-cpu")
        >>> tf.get_kernel("Add", "doc-example-cpu") is tf.get_kernel("Add", "cpu")
        True
    """
    for (k, b), fn in list(_kernels.items()):
        if b == registered_backend_name:
            _kernels[(k, new_backend_name)] = fn
