"""numpy kernels for indexing; attrs arrive resolved (see the contract in ops/indexing.py)."""
import numpy as np

from ....kernels import register_kernel
from ....core.shapes import broadcast_shapes, size_of


def _flat_slices(index_tuples, shape, name, kernel):
    """Row-major numbers of the slices of `shape` that rows of index_tuples [n, K] name;
    ValueError for one outside shape (as TF.js's cpu backend)."""
    k = index_tuples.shape[1]
    dims = np.array(shape[:k], dtype=np.int64)
    bad = ((index_tuples < 0) | (index_tuples >= dims)).any(axis=1)
    if bad.any():
        raise ValueError(f"{name}: argument 'indices' holds {index_tuples[bad][0].tolist()}, which does not index "
                         f"into shape {list(shape)}; kernel {kernel}")
    strides = np.array([size_of(shape[i + 1:k]) for i in range(k)], dtype=np.int64)
    return index_tuples.astype(np.int64) @ strides if k else np.zeros(len(index_tuples), np.int64)


@register_kernel("GatherNd", "cpu")
def gather_nd(backend, inputs, attrs):
    params, indices = inputs
    k = indices.shape[-1]
    tuples = backend.values(indices).reshape(size_of(indices.shape[:-1]), k)
    flat = _flat_slices(tuples, params.shape, "gather_nd", "GatherNd")
    slices = backend.values(params).reshape((size_of(params.shape[:k]), size_of(params.shape[k:])))
    out_shape = indices.shape[:-1] + params.shape[k:]
    return backend.output(slices[flat].reshape(out_shape), params.dtype)


def _scatter(backend, indices, updates, shape, base, accumulate, name, kernel):
    """base [slices, slice size] with the updates' slices written (or added) at indices."""
    k = indices.shape[-1] if len(indices.shape) > 1 else 1
    tuples = backend.values(indices).reshape(size_of(indices.shape) // k if k else 0, k)
    flat = _flat_slices(tuples, shape, name, kernel)
    # explicit sizes: -1 cannot be inferred when there are no updates (numpy refuses 0 x -1)
    rows = backend.values(updates).reshape(len(tuples), size_of(shape[k:]))
    if accumulate:
        np.add.at(base, flat, rows)
    else:
        base[flat] = rows       # numpy assigns in order: the last update of an index wins
    return base.reshape(shape)


@register_kernel("ScatterNd", "cpu")
def scatter_nd(backend, inputs, attrs):
    indices, updates = inputs
    shape = tuple(attrs["shape"])
    k = indices.shape[-1] if len(indices.shape) > 1 else 1
    base = np.zeros((size_of(shape[:k]), size_of(shape[k:])), backend.values(updates).dtype)
    out = _scatter(backend, indices, updates, shape, base, True, "scatter_nd", "ScatterNd")
    return backend.output(out, updates.dtype)


@register_kernel("TensorScatterUpdate", "cpu")
def tensor_scatter_update(backend, inputs, attrs):
    t, indices, updates = inputs
    k = indices.shape[-1] if len(indices.shape) > 1 else 1
    base = backend.values(t).reshape(size_of(t.shape[:k]), size_of(t.shape[k:])).copy()
    out = _scatter(backend, indices, updates, t.shape, base, False, "tensor_scatter_update", "TensorScatterUpdate")
    return backend.output(out, t.dtype)


@register_kernel("MirrorPad", "cpu")
def mirror_pad(backend, inputs, attrs):
    (x,) = inputs
    return backend.output(np.pad(backend.values(x), attrs["paddings"], mode=attrs["mode"]), x.dtype)


@register_kernel("DepthToSpace", "cpu")
def depth_to_space(backend, inputs, attrs):
    (x,) = inputs
    bs = attrs["block_size"]
    v = backend.values(x)
    if attrs["data_format"] == "NHWC":
        b, h, w, d = x.shape
        out = v.reshape(b, h, w, bs, bs, d // bs // bs).transpose(0, 1, 3, 2, 4, 5)
        out = out.reshape(b, h * bs, w * bs, d // bs // bs)
    else:
        b, d, h, w = x.shape
        out = v.reshape(b, bs, bs, d // bs // bs, h, w).transpose(0, 3, 4, 1, 5, 2)
        out = out.reshape(b, d // bs // bs, h * bs, w * bs)
    return backend.output(out, x.dtype)


@register_kernel("SpaceToBatchND", "cpu")
def space_to_batch_nd(backend, inputs, attrs):
    (x,) = inputs
    block, pads = attrs["block_shape"], attrs["paddings"]
    m = len(block)
    rest = x.shape[1 + m:]
    v = np.pad(backend.values(x), [[0, 0]] + pads + [[0, 0]] * len(rest))
    # [B, S1/b1, b1, ..., SM/bM, bM, rest] -> [b1, ..., bM, B, S1/b1, ..., SM/bM, rest]
    split = [x.shape[0]]
    for s, b in zip(v.shape[1:1 + m], block):
        split += [s // b, b]
    v = v.reshape(split + list(rest))
    perm = [2 + 2 * i for i in range(m)] + [0] + [1 + 2 * i for i in range(m)]
    perm += list(range(1 + 2 * m, 1 + 2 * m + len(rest)))
    v = v.transpose(perm)
    return backend.output(v.reshape((x.shape[0] * size_of(block),) + v.shape[m + 1:]), x.dtype)


@register_kernel("BatchToSpaceND", "cpu")
def batch_to_space_nd(backend, inputs, attrs):
    (x,) = inputs
    block, crops = attrs["block_shape"], attrs["crops"]
    m = len(block)
    spatial, rest = x.shape[1:1 + m], x.shape[1 + m:]
    batch = x.shape[0] // size_of(block)
    # [b1, ..., bM, B, S1, ..., SM, rest] -> [B, S1, b1, ..., SM, bM, rest]
    v = backend.values(x).reshape(list(block) + [batch] + list(spatial) + list(rest))
    perm = [m]
    for i in range(m):
        perm += [m + 1 + i, i]
    perm += list(range(2 * m + 1, 2 * m + 1 + len(rest)))
    v = v.transpose(perm).reshape([batch] + [s * b for s, b in zip(spatial, block)] + list(rest))
    index = (slice(None),) + tuple(slice(c0, s * b - c1) for (c0, c1), s, b in zip(crops, spatial, block))
    return backend.output(v[index], x.dtype)


@register_kernel("BroadcastArgs", "cpu")
def broadcast_args(backend, inputs, attrs):
    s0, s1 = (backend.values(t).tolist() for t in inputs)
    return backend.output(np.array(broadcast_shapes(s0, s1, "broadcast_args"), np.int32), "int32")


@register_kernel("UnsortedSegmentSum", "cpu")
def unsorted_segment_sum(backend, inputs, attrs):
    x, ids = inputs
    n = attrs["num_segments"]
    inner = x.shape[len(ids.shape):]
    rows = backend.values(x).reshape((size_of(ids.shape),) + inner)
    flat_ids = backend.values(ids).ravel()
    keep = (flat_ids >= 0) & (flat_ids < n)
    out = np.zeros((n,) + inner, rows.dtype)
    np.add.at(out, flat_ids[keep], rows[keep])
    return backend.output(out, x.dtype)


@register_kernel("SearchSorted", "cpu")
def search_sorted(backend, inputs, attrs):
    seq, vals = (backend.values(t) for t in inputs)
    out = np.stack([np.searchsorted(s, v, side=attrs["side"]) for s, v in zip(seq, vals)]) if len(seq) \
        else np.zeros(vals.shape, np.int32)
    # TF.js's binary search compares with < or <=, false for NaN: a NaN value goes to 0.
    out = np.where(np.isnan(vals), 0, out) if vals.dtype.kind == "f" else out
    return backend.output(out.reshape(vals.shape), "int32")


@register_kernel("TopK", "cpu")
def top_k(backend, inputs, attrs):
    (x,) = inputs
    k = attrs["k"]
    v = backend.values(x)
    # A stable sort of the negated values: largest first, equal values in index order; NaN
    # counts as the largest value.
    neg = -v.astype(np.float64)
    nan = np.isnan(neg)
    order = np.lexsort((np.where(nan, 0.0, neg), ~nan), axis=-1)[..., :k] if nan.any() \
        else np.argsort(neg, axis=-1, kind="stable")[..., :k]
    values = np.take_along_axis(v, order, axis=-1)
    return [backend.output(values, x.dtype), backend.output(order, "int32")]


@register_kernel("Unique", "cpu")
def unique(backend, inputs, attrs):
    (x,) = inputs
    axis = attrs["axis"]
    v = np.moveaxis(backend.values(x), axis, 0)
    rows = v.reshape(v.shape[0], int(np.prod(v.shape[1:])))
    # Rows keyed by their bytes (strings: by their values), NaN and -0 made canonical (TF.js
    # keys values by their string).
    if rows.dtype.kind == "f":
        rows = rows.astype(np.float64) + 0.0
        rows[np.isnan(rows)] = np.nan
    keys = [tuple(row) if rows.dtype == object else row.tobytes() for row in rows]
    slot, order = {}, []
    for i, key in enumerate(keys):
        if slot.setdefault(key, len(order)) == len(order):
            order.append(i)
    indices = np.array([slot[key] for key in keys], np.int32)
    values = np.moveaxis(v[np.array(order, np.int64)], 0, axis)
    return [backend.output(values, x.dtype), backend.output(indices, "int32")]


@register_kernel("Diag", "cpu")
def diag(backend, inputs, attrs):
    (x,) = inputs
    flat = backend.values(x).ravel()
    return backend.output(np.diag(flat).reshape(x.shape + x.shape), x.dtype)
