"""numpy kernels: reductions (contract in ops/reduction.py: output dtype = input dtype)."""
import numpy as np

from ....kernels import register_kernel


def _extreme(v, biggest):
    """The identity of min (biggest=True) or max over v's dtype, so empty axes reduce cleanly."""
    if v.dtype.kind == "b":
        return biggest
    if v.dtype.kind == "f":
        return np.inf if biggest else -np.inf
    info = np.iinfo(v.dtype)
    return info.max if biggest else info.min


def _mean(v, axes, keep):
    count = 1
    for a in axes:
        count *= v.shape[a]
    # an empty axis gives 0/0 = NaN
    return np.sum(v, axis=axes, keepdims=keep, dtype=v.dtype) / np.float32(count)


REDUCERS = {
    # dtype=v.dtype keeps int32 sums and products in int32 (wrapping, like Int32Array) instead
    # of numpy's promotion to int64.
    "Sum": lambda v, axes, keep: np.sum(v, axis=axes, keepdims=keep, dtype=v.dtype),
    "Prod": lambda v, axes, keep: np.prod(v, axis=axes, keepdims=keep, dtype=v.dtype),
    "Mean": _mean,
    # np.max/np.min propagate NaN, as TF.js does
    "Max": lambda v, axes, keep: np.max(v, axis=axes, keepdims=keep, initial=_extreme(v, False)),
    "Min": lambda v, axes, keep: np.min(v, axis=axes, keepdims=keep, initial=_extreme(v, True)),
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


def _arg_kernel(np_arg):
    def kernel(backend, inputs, attrs):
        (x,) = inputs
        # numpy returns the first index on ties, and the first NaN if there is one
        return backend.output(np_arg(backend.values(x), axis=attrs["axis"]), "int32")
    return kernel


register_kernel("ArgMax", "cpu", _arg_kernel(np.argmax))
register_kernel("ArgMin", "cpu", _arg_kernel(np.argmin))
