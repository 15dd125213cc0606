"""numpy kernels: Softmax, LogSoftmax (last axis only), OneHot (contracts in ops/nn.py)."""
import numpy as np

from ....kernels import register_kernel
from ..np_dtypes import NP_DTYPES


def _shifted(v):
    """v minus its maximum along the last axis, so exp() cannot overflow.
    initial=-inf lets a zero-length last axis through (its output is empty anyway)."""
    return v - np.max(v, axis=-1, keepdims=True, initial=-np.inf)


@register_kernel("Softmax", "cpu")
def softmax(backend, inputs, attrs):
    (logits,) = inputs
    with np.errstate(all="ignore"):  # inf - inf and 0/0 give NaN, as in TF.js
        e = np.exp(_shifted(backend.values(logits)))
        out = e / np.sum(e, axis=-1, keepdims=True)
    return backend.output(out, "float32")


@register_kernel("LogSoftmax", "cpu")
def log_softmax(backend, inputs, attrs):
    (logits,) = inputs
    with np.errstate(all="ignore"):
        s = _shifted(backend.values(logits))
        out = s - np.log(np.sum(np.exp(s), axis=-1, keepdims=True))
    return backend.output(out, "float32")


@register_kernel("OneHot", "cpu")
def one_hot(backend, inputs, attrs):
    (indices,) = inputs
    # Comparing with every position leaves rows of out-of-range indices all off_value.
    hot = backend.values(indices)[..., None] == np.arange(attrs["depth"])
    dtype = attrs["dtype"]
    on, off = (np.array(v).astype(NP_DTYPES[dtype]) for v in (attrs["on_value"], attrs["off_value"]))
    return backend.output(np.where(hot, on, off), dtype)
