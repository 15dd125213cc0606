"""numpy kernels for slicing; attrs arrive resolved (see the contract in ops/slicing.py)."""
import numpy as np

from ....kernels import register_kernel
from ....core.shapes import size_of


@register_kernel("Slice", "cpu")
def slice_(backend, inputs, attrs):
    (x,) = inputs
    index = tuple(slice(b, b + s) for b, s in zip(attrs["begin"], attrs["size"]))
    return backend.output(backend.values(x)[index], x.dtype)


def _strided(b, e, s):
    """The Python slice taking max(0, ceil((e - b) / s)) elements from b. Not slice(b, e, s):
    with a negative stride, e = -1 means "stop after index 0", which Python reads as the end."""
    n = max(0, -((b - e) // s))
    if n == 0:
        return slice(0, 0)      # b may be -1 here (negative stride over an empty axis)
    stop = b + n * s
    return slice(b, stop if stop >= 0 else None, s)


@register_kernel("StridedSlice", "cpu")
def strided_slice(backend, inputs, attrs):
    (x,) = inputs
    index = tuple(_strided(b, e, s) for b, e, s in zip(attrs["begin"], attrs["end"], attrs["strides"]))
    return backend.output(backend.values(x)[index], x.dtype)


@register_kernel("GatherV2", "cpu")
def gather_v2(backend, inputs, attrs):
    x, indices = inputs
    axis, batch_dims = attrs["axis"], attrs["batch_dims"]
    v, idx = backend.values(x), backend.values(indices)
    dim = x.shape[axis]
    bad = (idx < 0) | (idx >= dim)
    if bad.any():
        raise ValueError(f"gather: argument 'indices' holds {int(idx[bad].flat[0])}, which is not in "
                         f"[0, {dim - 1}] (axis {axis} of 'x' has size {dim}); kernel GatherV2")
    # Flatten the batch axes into one, then gather each batch entry from its own slice of x.
    nb = size_of(x.shape[:batch_dims])
    xb = v.reshape((nb,) + x.shape[batch_dims:])
    ib = idx.reshape((nb,) + indices.shape[batch_dims:])
    inner = x.shape[batch_dims:axis] + indices.shape[batch_dims:] + x.shape[axis + 1:]
    out = np.empty((nb,) + inner, dtype=v.dtype)
    for k in range(nb):
        out[k] = np.take(xb[k], ib[k], axis=axis - batch_dims)
    return backend.output(out.reshape(x.shape[:batch_dims] + inner), x.dtype)
