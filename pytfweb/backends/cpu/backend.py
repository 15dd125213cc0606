import array

import numpy as np

from ...core.dtypes import TYPECODES
from ...kernels import TensorInfo
from ...core.tensor import DataId
from ..base import Backend
from .np_dtypes import NP_DTYPES
from .plan_runner import make_runner


class CPUBackend(Backend):
    name = "cpu"

    def __init__(self):
        self.store = {}  # DataId -> ndarray (never mutated after it is stored)

    def write(self, values, shape, dtype, data_id=None):
        if dtype == "complex64":   # flat complex64 data is interleaved float32 [re, im, ...]
            arr = np.array(values, dtype=np.float32, copy=True).view(np.complex64).reshape(shape)
        else:
            arr = np.array(values, dtype=NP_DTYPES[dtype], copy=True).reshape(shape)
        if data_id is None:
            data_id = DataId(self)
        else:
            data_id.backend = self
        self.store[data_id] = arr
        return data_id

    def read_sync(self, data_id):
        arr = self.store[data_id]
        if arr.dtype.kind == "O":   # string: a list of str
            return arr.ravel().tolist()
        dtype = _dtype_of(arr)
        out = array.array(TYPECODES[dtype])
        out.frombytes(np.ascontiguousarray(arr).tobytes())
        return out

    def read_numpy(self, data_id):
        return self.store[data_id].copy()

    def shared_numpy(self, data_id):
        """The stored array itself as a read-only view (what DLPack export hands out)."""
        view = self.store[data_id].view()
        view.flags.writeable = False
        return view

    def dispose_data(self, data_id):
        self.store.pop(data_id, None)

    def dispose(self):
        self.store.clear()

    def plan_runner(self, plan):
        """A recorded plan compiled into numpy calls writing into preallocated outputs
        (plan_runner.py); None where the plan has a step it cannot take (then step by step)."""
        return make_runner(plan, self)

    def epsilon(self):
        """The small constant optimizers add for numerical stability (TF.js's CPU backend: 1e-7)."""
        return 1e-7

    # --- for kernels ---
    def values(self, t):
        """t's data as an ndarray of t's shape (a view: do not write to it)."""
        return self.store[t.data_id].reshape(t.shape)

    def output(self, arr, dtype):
        """Store a kernel result as a new tensor of dtype."""
        # asarray(order="C"), not ascontiguousarray: the latter turns a 0-d result into shape (1,)
        arr = np.asarray(arr, dtype=NP_DTYPES[dtype], order="C")
        if arr.base is not None:
            # A view (slice, split, unstack) would keep its whole parent buffer alive after
            # the parent is disposed, while tf.memory() says it was freed.
            arr = arr.copy()
        data_id = DataId(self)
        self.store[data_id] = arr
        return TensorInfo(data_id, tuple(arr.shape), dtype)


def _dtype_of(arr):
    k = arr.dtype.kind
    return "bool" if k == "b" else "int32" if k == "i" else "complex64" if k == "c" else "float32"
