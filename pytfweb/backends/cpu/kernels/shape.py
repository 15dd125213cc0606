"""numpy kernels for the shape family; attrs arrive resolved (see the contract in ops/shape.py).
Reshape and Identity are shared kernels (backends/shared.py)."""
import numpy as np

from ....kernels import register_kernel


def _along(rank, axis, index):
    """An index tuple selecting `index` (an int or a slice) along axis and everything elsewhere."""
    return (slice(None),) * axis + (index,) + (slice(None),) * (rank - axis - 1)


@register_kernel("Transpose", "cpu")
def transpose(backend, inputs, attrs):
    (x,) = inputs
    return backend.output(np.transpose(backend.values(x), attrs["perm"]), x.dtype)


@register_kernel("Concat", "cpu")
def concat(backend, inputs, attrs):
    return backend.output(np.concatenate([backend.values(t) for t in inputs], axis=attrs["axis"]),
                          inputs[0].dtype)


@register_kernel("Pack", "cpu")
def pack(backend, inputs, attrs):
    return backend.output(np.stack([backend.values(t) for t in inputs], axis=attrs["axis"]), inputs[0].dtype)


@register_kernel("Unpack", "cpu")
def unpack(backend, inputs, attrs):
    (x,) = inputs
    v, axis = backend.values(x), attrs["axis"]
    return [backend.output(v[_along(v.ndim, axis, i)], x.dtype) for i in range(v.shape[axis])]


@register_kernel("SplitV", "cpu")
def split_v(backend, inputs, attrs):
    (x,) = inputs
    v, axis = backend.values(x), attrs["axis"]
    out, start = [], 0
    for size in attrs["size_splits"]:
        out.append(backend.output(v[_along(v.ndim, axis, slice(start, start + size))], x.dtype))
        start += size
    return out


@register_kernel("Tile", "cpu")
def tile(backend, inputs, attrs):
    (x,) = inputs
    return backend.output(np.tile(backend.values(x), attrs["reps"]), x.dtype)


@register_kernel("PadV2", "cpu")
def pad_v2(backend, inputs, attrs):
    (x,) = inputs
    out = np.pad(backend.values(x), attrs["paddings"], mode="constant", constant_values=attrs["constant_value"])
    return backend.output(out, x.dtype)


@register_kernel("Reverse", "cpu")
def reverse(backend, inputs, attrs):
    (x,) = inputs
    return backend.output(np.flip(backend.values(x), axis=tuple(attrs["dims"])), x.dtype)
