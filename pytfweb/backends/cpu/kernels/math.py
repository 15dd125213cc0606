"""numpy kernels: Prelu, AddN, Cumsum, Cumprod, Bincount, DenseBincount (contracts in ops/math.py)."""
import numpy as np

from ....kernels import register_kernel


@register_kernel("Prelu", "cpu")
def prelu(backend, inputs, attrs):
    x, alpha = (backend.values(t) for t in inputs)
    return backend.output(np.where(x < 0, alpha * x, x), "float32")


@register_kernel("AddN", "cpu")
def add_n(backend, inputs, attrs):
    total = backend.values(inputs[0]).copy()
    with np.errstate(all="ignore"):   # inf + -inf is NaN, as in TF.js
        for t in inputs[1:]:
            total += backend.values(t)   # int32 wraps, like Int32Array
    return backend.output(total, inputs[0].dtype)


def _shifted(v, axis, identity):
    """v moved one place along axis, identity in the first place: an exclusive scan of v is
    the inclusive scan of this."""
    out = np.full_like(v, identity)
    src, dst = [slice(None)] * v.ndim, [slice(None)] * v.ndim
    src[axis], dst[axis] = slice(None, -1), slice(1, None)
    out[tuple(dst)] = v[tuple(src)]
    return out


def _cumulative(np_fn, identity):
    def kernel(backend, inputs, attrs):
        (x,) = inputs
        axis = attrs["axis"]
        v = backend.values(x)
        if attrs["reverse"]:
            v = np.flip(v, axis)
        if attrs["exclusive"]:
            v = _shifted(v, axis, identity)
        with np.errstate(all="ignore"):
            out = np_fn(v, axis=axis, dtype=v.dtype)   # dtype: int32 stays int32 (wraps)
        if attrs["reverse"]:
            out = np.flip(out, axis)
        return backend.output(out, x.dtype)
    return kernel


register_kernel("Cumsum", "cpu", _cumulative(np.cumsum, 0))
register_kernel("Cumprod", "cpu", _cumulative(np.cumprod, 1))


def _count_rows(x, weights, size, binary_output, op_name):
    """[rows, size] bins of the rows of the int32 matrix x (weights: x's shape, or None)."""
    if x.size and x.min() < 0:
        raise ValueError(f"{op_name}: argument 'x' must hold non-negative values, got {int(x.min())}")
    dtype = np.float64 if weights is None or weights.dtype.kind == "f" else np.int64
    out = np.zeros((x.shape[0], size), dtype)
    keep = x < size
    rows = np.broadcast_to(np.arange(x.shape[0])[:, None], x.shape)
    if binary_output:
        out[rows[keep], x[keep]] = 1
    else:
        np.add.at(out, (rows[keep], x[keep]), 1 if weights is None else weights[keep])
    return out


def _bincount_kernel(op_name, by_rows):
    """Bincount counts every value of x; DenseBincount (by_rows) each row of a matrix x."""
    def kernel(backend, inputs, attrs):
        x, weights = inputs
        xv = backend.values(x)
        matrix = by_rows and xv.ndim == 2
        rows = xv if matrix else xv.reshape(1, -1)
        w = backend.values(weights).reshape(rows.shape) if weights.size else None
        out = _count_rows(rows, w, attrs["size"], attrs.get("binary_output", False), op_name)
        return backend.output(out if matrix else out[0], weights.dtype)
    return kernel


register_kernel("Bincount", "cpu", _bincount_kernel("bincount", by_rows=False))
register_kernel("DenseBincount", "cpu", _bincount_kernel("dense_bincount", by_rows=True))
