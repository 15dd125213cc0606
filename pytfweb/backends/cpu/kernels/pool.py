"""numpy kernels: pooling over 2 or 3 spatial axes (contract in ops/pool.py).

One loop over the window's offsets, each a gather of x for every output position at once:
offset k of axis i reads x at o * stride - pad + k * dilation for every output position o.
"""
import itertools

import numpy as np

from ....kernels import register_kernel


def _offsets(attrs, in_spatial):
    """For each window offset (row-major over the filter): (flat offset, an np.ix_-style index
    of x's spatial axes for every output position, clipped into x, and [1, *out, 1] booleans:
    which output positions read inside x)."""
    rank = len(in_spatial)
    per_axis = []
    for axis, (f, s, d, p, o, n) in enumerate(zip(attrs["filter_size"], attrs["strides"], attrs["dilations"],
                                                   attrs["pad"], attrs["out_size"], in_spatial)):
        shape = [1] * rank
        shape[axis] = o
        positions = [(np.arange(o) * s - p + k * d).reshape(shape) for k in range(f)]
        per_axis.append([((i >= 0) & (i < n), np.clip(i, 0, max(n - 1, 0))) for i in positions])
    for flat, choice in enumerate(itertools.product(*per_axis)):
        valid = np.ones([1] * rank, bool)
        for inside, _ in choice:
            valid = valid & inside
        yield flat, tuple(index for _, index in choice), valid[None, ..., None]


def _gather(x, index):
    """x[:, index..., :] for an np.ix_ index over the spatial axes: [batch, *out, channels]."""
    return x[(slice(None), *index, slice(None))]


def _out_shape(x, attrs):
    return (x.shape[0], *attrs["out_size"], x.shape[-1])


def _max_and_positions(x, attrs, last_on_ties=False):
    """(maxima, window offsets of the maxima, -1 for a window with no position in x). As TF.js's
    pool loop (value > best, best starting at -Infinity): the first maximum wins on ties, NaN never
    wins, a window with nothing above -Infinity gives -Infinity (0 in int32, as TF.js stores it).
    last_on_ties: TF.js's maxPool3d positions (value >= best): the last maximum wins, -Infinity counts."""
    shape = _out_shape(x, attrs)
    best = np.full(shape, -np.inf, np.float64 if x.dtype.kind != "f" else x.dtype)
    where = np.full(shape, -1, np.int64)
    if 0 not in shape and 0 not in x.shape:
        for flat, index, valid in _offsets(attrs, x.shape[1:-1]):
            v = _gather(x, index)
            with np.errstate(invalid="ignore"):
                better = valid & ((v >= best) if last_on_ties else (v > best))
            best = np.where(better, v, best)
            where = np.where(better, flat, where)
    if x.dtype.kind != "f":
        best = np.where(where < 0, 0, best).astype(x.dtype)
    return best, where


@register_kernel("MaxPool", "cpu")
@register_kernel("MaxPool3D", "cpu")
def max_pool(backend, inputs, attrs):
    (x,) = inputs
    best, _ = _max_and_positions(backend.values(x), attrs)
    return backend.output(best, x.dtype)


def _window_counts(attrs, in_spatial):
    """How many positions of each output's window lie inside x: [1, *out, 1]."""
    counts = np.zeros((1, *attrs["out_size"], 1), np.float32)
    for _, _, valid in _offsets(attrs, in_spatial):
        counts += valid
    return counts


@register_kernel("AvgPool", "cpu")
@register_kernel("AvgPool3D", "cpu")
def avg_pool(backend, inputs, attrs):
    (x,) = inputs
    v = backend.values(x)
    total = np.zeros(_out_shape(v, attrs), np.float32)
    if total.size and v.size:
        with np.errstate(invalid="ignore"):   # inf + -inf
            for _, index, valid in _offsets(attrs, v.shape[1:-1]):
                total += np.where(valid, _gather(v, index), np.float32(0))
    counts = _window_counts(attrs, v.shape[1:-1])
    if len(attrs["filter_size"]) == 3:
        counts = np.maximum(counts, 1)   # a window with no position in x: 0 in 3-D, NaN (0 / 0) in 2-D, as TF.js
    with np.errstate(invalid="ignore", divide="ignore"):
        return backend.output(total / counts, "float32")


def _scatter(dx, attrs, values_at):
    """dx[:, index..., :] += values_at(flat, valid) for every window offset (np.add.at: clipped
    indices repeat)."""
    if dx.size == 0 or 0 in attrs["out_size"]:
        return dx
    batch = np.arange(dx.shape[0]).reshape((-1,) + (1,) * (dx.ndim - 1))
    channel = np.arange(dx.shape[-1])
    for flat, index, valid in _offsets(attrs, dx.shape[1:-1]):
        index = tuple(i[..., None] for i in index)
        np.add.at(dx, (batch, *index, channel), values_at(flat, valid))
    return dx


@register_kernel("MaxPoolGrad", "cpu")
@register_kernel("MaxPool3DGrad", "cpu")
def max_pool_grad(backend, inputs, attrs):
    dy, x = inputs
    dy_v, x_v = backend.values(dy), backend.values(x)
    # TF.js's maxPool3d gradient sends dy to the last maximum of a window, its maxPool's to the first
    _, where = _max_and_positions(x_v, attrs, last_on_ties=len(attrs["filter_size"]) == 3)
    dx = np.zeros(x.shape, np.float32)
    return backend.output(_scatter(dx, attrs, lambda flat, valid: np.where(valid & (where == flat), dy_v, 0)),
                          "float32")


@register_kernel("AvgPoolGrad", "cpu")
@register_kernel("AvgPool3DGrad", "cpu")
def avg_pool_grad(backend, inputs, attrs):
    (dy,) = inputs
    x_shape = tuple(attrs["x_shape"])
    share = backend.values(dy) / np.maximum(_window_counts(attrs, x_shape[1:-1]), 1)
    dx = np.zeros(x_shape, np.float32)
    return backend.output(_scatter(dx, attrs, lambda flat, valid: np.where(valid, share, 0)), "float32")


@register_kernel("MaxPoolWithArgmax", "cpu")
def max_pool_with_argmax(backend, inputs, attrs):
    (x,) = inputs
    v = backend.values(x)
    best, where = _max_and_positions(v, attrs)
    batch, height, width, channels = v.shape
    # The window offset back to x's coordinates: offset (kh, kw) of output (oh, ow).
    fw = attrs["filter_size"][1]
    (sh, sw), (dh, dw), (ph, pw) = attrs["strides"], attrs["dilations"], attrs["pad"]
    oh = np.arange(best.shape[1]).reshape(1, -1, 1, 1)
    ow = np.arange(best.shape[2]).reshape(1, 1, -1, 1)
    h = oh * sh - ph + (where // fw) * dh
    w = ow * sw - pw + (where % fw) * dw
    index = (h * width + w) * channels + np.arange(channels)
    if attrs["include_batch_in_index"]:
        index = index + np.arange(batch).reshape(-1, 1, 1, 1) * (height * width * channels)
    index = np.where(where < 0, -1, index)
    return [backend.output(best, x.dtype), backend.output(index, "int32")]
