"""numpy kernels: FusedBatchNorm, LRN, LRNGrad, Multinomial (contracts in ops/normalization.py)."""
import numpy as np

from ....core import prng
from ....kernels import register_kernel
from .nn import softmax


@register_kernel("FusedBatchNorm", "cpu")
def fused_batch_norm(backend, inputs, attrs):
    x, mean, variance, *rest = (backend.values(t) for t in inputs)
    offset = rest.pop(0) if attrs["has_offset"] else np.float32(0)
    scale = rest.pop(0) if attrs["has_scale"] else np.float32(1)
    with np.errstate(all="ignore"):
        out = (x - mean) * scale / np.sqrt(variance + np.float32(attrs["variance_epsilon"])) + offset
    return backend.output(np.broadcast_to(out, x.shape), "float32")


def _window_sums(v, radius):
    """For every channel c, the sum of v over channels c - radius .. c + radius (those that
    exist). Shifted slices added up, not cumulative sums: those lose small terms next to large."""
    depth = v.shape[-1]
    total = np.zeros_like(v)
    for j in range(-min(radius, depth), min(radius, depth) + 1):
        lo, hi = max(0, -j), min(depth, depth - j)
        total[..., lo:hi] += v[..., lo + j:hi + j]
    return total


def _norms(x, attrs):
    return np.float32(attrs["bias"]) + np.float32(attrs["alpha"]) * _window_sums(np.square(x), attrs["depth_radius"])


@register_kernel("LRN", "cpu")
def lrn(backend, inputs, attrs):
    x = backend.values(inputs[0])
    with np.errstate(all="ignore"):
        out = x * np.power(_norms(x, attrs), np.float32(-attrs["beta"]))
    return backend.output(out, "float32")


@register_kernel("LRNGrad", "cpu")
def lrn_grad(backend, inputs, attrs):
    """dx_k = sum over channels d within depth_radius of k of
    dy_d * ([d == k] * norm_d ** -beta - 2 * alpha * beta * x_k * y_d / norm_d)."""
    x, y, dy = (backend.values(t) for t in inputs)
    alpha, beta = np.float32(attrs["alpha"]), np.float32(attrs["beta"])
    with np.errstate(all="ignore"):
        norm = _norms(x, attrs)
        # The second term's sum over d only involves dy_d * y_d / norm_d: a window sum of it.
        spread = _window_sums(dy * y / norm, attrs["depth_radius"])
        out = dy * np.power(norm, -beta) - 2 * alpha * beta * x * spread
    return backend.output(out, "float32")


@register_kernel("Multinomial", "cpu")
def multinomial(backend, inputs, attrs):
    (logits,) = inputs
    if attrs["normalized"]:
        probs = backend.values(logits)
    else:
        info = softmax(backend, inputs, {"dim": 1})
        probs = backend.values(info)
        backend.dispose_data(info.data_id)
    batch, samples = probs.shape[0], attrs["num_samples"]
    # float32 running sums, as TF.js's Float32Array cdf; the last outcome is what remains.
    cdf = np.cumsum(probs[:, :-1], axis=1, dtype=np.float32).astype(np.float64)
    out = np.empty((batch, samples), np.int32)
    # every row draws the same sequence, as TF.js's (which seeds an Alea per row)
    draws = np.asarray(prng.make_uniform(attrs["seed"]).take(samples), np.float64)
    step = max(1, (1 << 22) // max(1, cdf.shape[1]))   # draws compared at once: bounds the boolean table
    for b in range(batch):
        for start in range(0, samples, step):
            below = draws[start:start + step, None] < cdf[b][None, :]
            # the first outcome whose cdf exceeds the draw, else the last
            out[b, start:start + step] = np.where(below.any(axis=1), below.argmax(axis=1), cdf.shape[1])
    return backend.output(out, "int32")
