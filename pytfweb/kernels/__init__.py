"""Kernel and gradient registries, keyed by TF.js kernel names ("Add", "BatchMatMul", "Sum", ...).

A kernel is `fn(backend, inputs, attrs) -> TensorInfo | list[TensorInfo]`: inputs are
tensors (anything with data_id, shape, dtype), attrs a dict of plain Python values.
"""
from collections import namedtuple

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


def register_kernel(kernel_name, backend_name, fn=None):
    """Register fn for (kernel, backend); usable as a decorator."""
    def deco(f):
        _kernels[(kernel_name, backend_name)] = f
        return f
    return deco(fn) if fn is not None else deco


def unregister_kernel(kernel_name, backend_name):
    if _kernels.pop((kernel_name, backend_name), None) is None:
        raise ValueError(f"unregister_kernel: kernel '{kernel_name}' is not registered on backend '{backend_name}'")


def get_kernel(kernel_name, backend_name):
    """The kernel function, or None."""
    return _kernels.get((kernel_name, backend_name))


def get_kernels_for_backend(backend_name):
    return sorted(k for (k, b) in _kernels if b == backend_name)


class GradConfig(namedtuple("GradConfig", "kernel_name fn save_inputs save_outputs")):
    """How to differentiate one kernel. fn(dy, node) returns one gradient per input (None
    where an input gets none), each a Tensor or a function of no arguments that computes it
    only if that input wants a gradient; dy is a Tensor, or a list for a kernel with several outputs.
    save_inputs / save_outputs: True (all), False (none) or a tuple of positions: only these
    are kept alive on the tape, as node.x[i] / node.y[i] (None for what is not saved)."""


def register_gradient(kernel_name, fn=None, save_inputs=False, save_outputs=False):
    """Register the gradient of a kernel; usable as a decorator. Write fn with ops, so that
    every backend has it (and it can itself be differentiated)."""
    def deco(f):
        _gradients[kernel_name] = GradConfig(kernel_name, f, save_inputs, save_outputs)
        return f
    return deco(fn) if fn is not None else deco


def unregister_gradient(kernel_name):
    if _gradients.pop(kernel_name, None) is None:
        raise ValueError(f"unregister_gradient: no gradient is registered for kernel '{kernel_name}'")


def get_gradient(kernel_name):
    return _gradients.get(kernel_name)


def copy_registered_kernels(registered_backend_name, new_backend_name):
    """Register every kernel of one backend for another name too (TF.js copyRegisteredKernels)."""
    for (k, b), fn in list(_kernels.items()):
        if b == registered_backend_name:
            _kernels[(k, new_backend_name)] = fn
