"""numpy kernels: reductions (contract in ops/reduction.py: output dtype = input dtype)."""
import numpy as np

from ....kernels import register_kernel


def _count(v, axes):
    count = 1
    for a in axes:
        count *= v.shape[a]
    return count


def _extreme(np_fn):
    """max or min; over an empty axis TF.js's cpu backend reads a value that is not there:
    NaN in a Float32Array, 0 in an Int32Array or Uint8Array."""
    def reduce(v, axes, keep):
        if _count(v, axes) == 0:
            shape = [1 if a in axes else d for a, d in enumerate(v.shape) if keep or a not in axes]
            return np.full(shape, np.nan if v.dtype.kind == "f" else 0, v.dtype)
        return np_fn(v, axis=axes, keepdims=keep)
    return reduce


def _mean(v, axes, keep):
    # an empty axis gives 0, as TF.js's (which sums x / count)
    return np.sum(v, axis=axes, keepdims=keep, dtype=v.dtype) / np.float32(_count(v, axes) or 1)


REDUCERS = {
    # dtype=v.dtype keeps int32 sums and products in int32 (wrapping, like Int32Array) instead
    # of numpy's promotion to int64.
    "Sum": lambda v, axes, keep: np.sum(v, axis=axes, keepdims=keep, dtype=v.dtype),
    "Prod": lambda v, axes, keep: np.prod(v, axis=axes, keepdims=keep, dtype=v.dtype),
    "Mean": _mean,
    # np.max/np.min propagate NaN, as TF.js does
    "Max": _extreme(np.max),
    "Min": _extreme(np.min),
    "All": lambda v, axes, keep: np.all(v, axis=axes, keepdims=keep),
    "Any": lambda v, axes, keep: np.any(v, axis=axes, keepdims=keep),
}


def _reduction_kernel(reducer):
    def kernel(backend, inputs, attrs):
        (x,) = inputs
        with np.errstate(all="ignore"):  # NaN, inf - inf, 0/0 are results here, not errors
            out = reducer(backend.values(x), tuple(attrs["axis"]), attrs["keep_dims"])
        return backend.output(out, x.dtype)
    return kernel


for _name, _reducer in REDUCERS.items():
    register_kernel(_name, "cpu", _reduction_kernel(_reducer))


def _arg_kernel(np_arg, worst):
    def kernel(backend, inputs, attrs):
        (x,) = inputs
        v, axis = backend.values(x), attrs["axis"]
        if v.shape[axis] == 0:   # TF.js: index 0
            return backend.output(np.zeros(v.shape[:axis] + v.shape[axis + 1:], np.int32), "int32")
        # TF.js's scan keeps the first value unless a later one is strictly better: ties give
        # the first index, a NaN at index 0 wins, NaN elsewhere never does.
        nan = np.isnan(v) if v.dtype.kind == "f" else None
        if nan is None or not nan.any():
            return backend.output(np_arg(v, axis=axis), "int32")
        out = np.where(np.take(nan, 0, axis=axis), 0, np_arg(np.where(nan, worst, v), axis=axis))
        return backend.output(out.astype(np.int32), "int32")
    return kernel


register_kernel("ArgMax", "cpu", _arg_kernel(np.argmax, -np.inf))
register_kernel("ArgMin", "cpu", _arg_kernel(np.argmin, np.inf))
