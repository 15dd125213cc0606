"""Kernels computed on the host in pure Python, the same code on every backend.

These are the kernels whose output size (or shape) depends on the values of their inputs
(sparse and ragged tensors): TF.js's webgl backend reads their inputs back and runs its CPU
implementation, and so do we. Written without numpy, on flat sequences (array.array, lists),
so that they run in Pyodide; the cpu backend uses the same functions (its read_sync gives
array.array too), so both backends agree by construction.

An implementation is `impl(args, attrs) -> [(values, shape, dtype), ...]` where each arg is a
HostTensor (flat values, shape, dtype). `host_kernel(impl)` makes it a kernel for any backend
with read_sync/write.
"""
from collections import namedtuple

from ...kernels import TensorInfo, register_kernel

HostTensor = namedtuple("HostTensor", "values shape dtype")


def host_kernel(impl):
    """A kernel that reads its inputs back, runs impl in Python and writes the outputs."""
    def kernel(backend, inputs, attrs):
        args = [HostTensor(backend.read_sync(t.data_id), tuple(t.shape), t.dtype) for t in inputs]
        outs = [TensorInfo(backend.write(values, tuple(shape), dtype), tuple(shape), dtype)
                for values, shape, dtype in impl(args, attrs)]
        return outs if len(outs) > 1 else outs[0]
    kernel.__name__ = kernel.__qualname__ = impl.__name__
    kernel.__doc__ = impl.__doc__
    return kernel


def register_host_kernels(table, backend_name):
    """Register {kernel name: impl} as host kernels of backend_name."""
    for name, impl in table.items():
        register_kernel(name, backend_name, host_kernel(impl))
