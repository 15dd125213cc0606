"""numpy kernels for sparse tensors (contract in ops/sparse.py). The kernels whose output size
depends on the values run the shared pure-Python implementations (backends/impl/sparse.py),
the same code as on webgl."""
import numpy as np

from ....kernels import register_kernel
from ....core.shapes import size_of, strides_of
from ...impl import register_host_kernels
from ...impl.sparse import HOST_KERNELS

register_host_kernels(HOST_KERNELS, "cpu")


@register_kernel("SparseToDense", "cpu")
def sparse_to_dense(backend, inputs, attrs):
    indices, values, default = inputs
    shape = tuple(attrs["output_shape"])
    rank = len(shape)
    tuples = backend.values(indices).reshape(-1, rank).astype(np.int64)
    out = np.full(size_of(shape), backend.values(default), backend.values(values).dtype)
    if len(tuples):
        bad = ((tuples < 0) | (tuples >= np.array(shape, np.int64))).any(axis=1)
        if bad.any():
            raise ValueError(f"sparse_to_dense: argument 'sparse_indices' holds {tuples[bad][0].tolist()}, "
                             f"which does not index into output_shape {list(shape)}")
        flat = tuples @ np.array(strides_of(shape), np.int64)
        vals = np.broadcast_to(backend.values(values).ravel(), flat.shape)
        # The last value of a repeated index wins: keep each index's last occurrence.
        _, first_from_end = np.unique(flat[::-1], return_index=True)
        keep = len(flat) - 1 - first_from_end
        out[flat[keep]] = vals[keep]
    return backend.output(out.reshape(shape), values.dtype)
