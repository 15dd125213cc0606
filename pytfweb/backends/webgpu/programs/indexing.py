"""Indexing kernels (contracts in ops/indexing.py) as WGSL (backends/webgpu/shaders/indexing.wgsl):
GatherNd, ScatterNd, TensorScatterUpdate, UnsortedSegmentSum, SearchSorted, Diag, SparseToDense
(ops/sparse.py); MirrorPad,
DepthToSpace, SpaceToBatchND and BatchToSpaceND through shape.py's map program (a transpose of a
reshaped view, with a pad or a crop). Index values are checked (ValueError, as on cpu) where they
are CPU-side; on the GPU an index outside reads 0 (GatherNd) or is dropped (scatters)."""
from ....kernels import TensorInfo, register_kernel
from ....core.shapes import size_of, strides_of
from .. import wgsl
from ..program import Program, _size
from .elementwise import BACKEND, fill
from .shape import run_map


def _slot_fn(k, dims):
    """fn slot(r) -> i32 over tuples of length k into dims (uniform fields st_j, dim_j)."""
    lines = ["fn slot(r: i32) -> i32 {", "  var s = 0;"]
    for j in range(k):
        lines += [f"  let i{j} = indices[r * {k} + {j}];",
                  f"  if (i{j} < 0 || i{j} >= u.dim{j}) {{ return -1; }}",
                  f"  s = s + i{j} * u.st{j};"]
    lines += ["  return s;", "}"]
    fields = tuple((f"dim{j}", "i32") for j in range(k)) + tuple((f"st{j}", "i32") for j in range(k))
    values = tuple(dims[:k]) + tuple(size_of(dims[j + 1:k]) for j in range(k))
    return "\n".join(lines) + "\n", fields, values


def _check_tuples(backend, indices, k, shape, name, kernel):
    known = backend.values_if_known(indices)
    if known is None or not k:
        return
    for r in range(len(known) // k):
        t = list(known[r * k:(r + 1) * k])
        if any(not 0 <= v < d for v, d in zip(t, shape[:k])):
            raise ValueError(f"{name}: argument 'indices' holds {t}, which does not index into shape {list(shape)}; "
                             f"kernel {kernel}")


@register_kernel("GatherNd", BACKEND)
def gather_nd(backend, inputs, attrs):
    params, indices = inputs
    k = indices.shape[-1]
    _check_tuples(backend, indices, k, params.shape, "gather_nd", "GatherNd")
    out_shape = tuple(indices.shape[:-1]) + tuple(params.shape[k:])
    inner = size_of(params.shape[k:])
    t = wgsl.STORAGE_TYPE[params.dtype]
    slot, sf, sv = _slot_fn(k, params.shape)
    fields = (("size", "i32"), ("inner", "i32")) + sf

    def source():
        return slot + wgsl.bindings(t, (("params", t), ("indices", "i32")), fields) + \
            wgsl.program("indexing.wgsl", "gather_nd").replace("TYPE", t)

    return backend.run(Program(f"gather_nd:{t}:{k}", source, fields), [params, indices], out_shape, params.dtype,
                       (_size(out_shape), inner) + sv, backend.groups_for(_size(out_shape), 64))


def _scatter(backend, indices, updates, shape, base, name, kernel):
    k = indices.shape[-1] if len(indices.shape) > 1 else 1
    _check_tuples(backend, indices, k, shape, name, kernel)
    dtype = updates.dtype if base is None else base.dtype
    shape = tuple(shape)
    if _size(shape) == 0:
        return backend.empty(shape, dtype)
    count = size_of(indices.shape) // k if k else 0
    if count == 0 or _size(updates.shape) == 0:
        if base is None:
            return fill(backend, shape, 0, dtype)
        return run_map(backend, base, shape, [1] * len(shape), [0] * len(shape), shape, strides_of(shape))
    inner = size_of(shape[k:])
    t = wgsl.STORAGE_TYPE[dtype]
    slot, sf, sv = _slot_fn(k, shape)
    fields = (("size", "i32"), ("inner", "i32"), ("count", "i32")) + sf
    values = (_size(shape), inner, count) + sv
    ins = [indices, updates] + ([base] if base is not None else [])
    names = (("indices", "i32"), ("updates", t)) + ((("base", t),) if base is not None else ())
    initial, combine = ("base[index]", "updates[r * u.inner + i]") if base is not None else \
        (f"{t}(0)", "acc + updates[r * u.inner + i]")

    def source():
        text = wgsl.program("indexing.wgsl", "scatter_nd").replace("INITIAL", initial).replace("COMBINE", combine)
        return slot + wgsl.bindings(t, names, fields) + text

    key = f"scatter:{t}:{k}:{int(base is not None)}"
    return backend.run(Program(key, source, fields), ins, shape, dtype, values, backend.groups_for(_size(shape), 64))


@register_kernel("ScatterNd", BACKEND)
def scatter_nd(backend, inputs, attrs):
    indices, updates = inputs
    return _scatter(backend, indices, updates, attrs["shape"], None, "scatter_nd", "ScatterNd")


@register_kernel("TensorScatterUpdate", BACKEND)
def tensor_scatter_update(backend, inputs, attrs):
    t, indices, updates = inputs
    return _scatter(backend, indices, updates, t.shape, t, "tensor_scatter_update", "TensorScatterUpdate")


@register_kernel("UnsortedSegmentSum", BACKEND)
def unsorted_segment_sum(backend, inputs, attrs):
    x, ids = inputs
    n = attrs["num_segments"]
    inner_shape = tuple(x.shape[len(ids.shape):])
    out_shape = (n,) + inner_shape
    count = size_of(ids.shape)
    if _size(out_shape) == 0:
        return backend.empty(out_shape, x.dtype)
    if count == 0:
        return fill(backend, out_shape, 0, x.dtype)
    t = wgsl.STORAGE_TYPE[x.dtype]
    fields = (("size", "i32"), ("inner", "i32"), ("count", "i32"))

    def source():
        return wgsl.bindings(t, (("x", t), ("ids", "i32")), fields) + \
            wgsl.program("indexing.wgsl", "segment_sum").replace("TYPE", t)

    return backend.run(Program(f"segment_sum:{t}", source, fields), [x, ids], out_shape, x.dtype,
                       (_size(out_shape), size_of(inner_shape), count), backend.groups_for(_size(out_shape), 64))


@register_kernel("SearchSorted", BACKEND)
def search_sorted(backend, inputs, attrs):
    seq, vals = inputs
    n, m = seq.shape[-1], vals.shape[-1]
    out_shape = tuple(vals.shape)
    if _size(out_shape) == 0:
        return backend.empty(out_shape, "int32")
    if n == 0:
        return fill(backend, out_shape, 0, "int32")
    t = wgsl.STORAGE_TYPE[seq.dtype]
    op = "<" if attrs["side"] == "left" else "<="
    fields = (("size", "i32"), ("n", "i32"), ("m", "i32"))

    def source():
        before = f"fn before(a: {t}, b: {t}) -> bool {{ return a {op} b; }}\n"
        return before + wgsl.bindings("i32", (("seq", t), ("values", t)), fields) + \
            wgsl.program("indexing.wgsl", "search_sorted").replace("BEFORE(", "before(")

    return backend.run(Program(f"search_sorted:{t}:{attrs['side']}", source, fields), [seq, vals], out_shape, "int32",
                       (_size(out_shape), n, m), backend.groups_for(_size(out_shape), 64))


@register_kernel("Diag", BACKEND)
def diag(backend, inputs, attrs):
    (x,) = inputs
    n = _size(x.shape)
    out_shape = tuple(x.shape) + tuple(x.shape)
    if n == 0:
        return backend.empty(out_shape, x.dtype)
    t = wgsl.STORAGE_TYPE[x.dtype]
    fields = (("size", "i32"), ("n", "i32"))

    def source():
        return wgsl.bindings(t, (("x", t),), fields) + wgsl.program("indexing.wgsl", "diag").replace("TYPE", t)

    return backend.run(Program(f"diag:{t}", source, fields), [x], out_shape, x.dtype, (n * n, n),
                       backend.groups_for(n * n, 64))


@register_kernel("MirrorPad", BACKEND)
def mirror_pad(backend, inputs, attrs):
    (x,) = inputs
    pairs = attrs["paddings"]
    out_shape = [n + b + a for n, (b, a) in zip(x.shape, pairs)]
    rank = len(out_shape)
    return run_map(backend, x, out_shape, [1] * rank, [-b for b, _ in pairs], x.shape, strides_of(x.shape),
                   mirror=0 if attrs["mode"] == "reflect" else 1)


def _transposed(backend, x, view_shape, perm):
    """x seen as view_shape, transposed by perm (one map dispatch)."""
    st = strides_of(view_shape)
    out_shape = [view_shape[p] for p in perm]
    view = TensorInfo(x.data_id, tuple(view_shape), x.dtype)
    return run_map(backend, view, out_shape, [1] * len(perm), [0] * len(perm), out_shape, [st[p] for p in perm])


@register_kernel("DepthToSpace", BACKEND)
def depth_to_space(backend, inputs, attrs):
    (x,) = inputs
    bs = attrs["block_size"]
    if attrs["data_format"] == "NHWC":
        b, h, w, d = x.shape
        y = _transposed(backend, x, (b, h, w, bs, bs, d // bs // bs), (0, 1, 3, 2, 4, 5))
        return TensorInfo(y.data_id, (b, h * bs, w * bs, d // bs // bs), x.dtype)
    b, d, h, w = x.shape
    y = _transposed(backend, x, (b, bs, bs, d // bs // bs, h, w), (0, 3, 4, 1, 5, 2))
    return TensorInfo(y.data_id, (b, d // bs // bs, h * bs, w * bs), x.dtype)


@register_kernel("SpaceToBatchND", BACKEND)
def space_to_batch_nd(backend, inputs, attrs):
    (x,) = inputs
    block, pads = list(attrs["block_shape"]), [list(p) for p in attrs["paddings"]]
    m = len(block)
    rest = list(x.shape[1 + m:])
    all_pads = [[0, 0]] + pads + [[0, 0]] * len(rest)
    padded_shape = [n + b + a for n, (b, a) in zip(x.shape, all_pads)]
    rank = len(padded_shape)
    padded = run_map(backend, x, padded_shape, [1] * rank, [-b for b, _ in all_pads], x.shape, strides_of(x.shape),
                     pad=0)
    split = [x.shape[0]]
    for s, b in zip(padded_shape[1:1 + m], block):
        split += [s // b, b]
    perm = [2 + 2 * i for i in range(m)] + [0] + [1 + 2 * i for i in range(m)]
    perm += list(range(1 + 2 * m, 1 + 2 * m + len(rest)))
    y = _transposed(backend, padded, split + rest, perm)
    backend.dispose_data(padded.data_id)
    out_shape = (x.shape[0] * size_of(block),) + tuple(s // b for s, b in zip(padded_shape[1:1 + m], block)) + \
        tuple(rest)
    return TensorInfo(y.data_id, out_shape, x.dtype)


@register_kernel("BatchToSpaceND", BACKEND)
def batch_to_space_nd(backend, inputs, attrs):
    (x,) = inputs
    block, crops = list(attrs["block_shape"]), attrs["crops"]
    m = len(block)
    spatial, rest = list(x.shape[1:1 + m]), list(x.shape[1 + m:])
    batch = x.shape[0] // size_of(block)
    perm = [m]
    for i in range(m):
        perm += [m + 1 + i, i]
    perm += list(range(2 * m + 1, 2 * m + 1 + len(rest)))
    y = _transposed(backend, x, block + [batch] + spatial + rest, perm)
    full = [batch] + [s * b for s, b in zip(spatial, block)] + rest
    begin = [0] + [c0 for c0, _ in crops] + [0] * len(rest)
    size = [batch] + [s * b - c0 - c1 for (c0, c1), s, b in zip(crops, spatial, block)] + rest
    view = TensorInfo(y.data_id, tuple(full), x.dtype)
    out = run_map(backend, view, size, [1] * len(size), begin, full, strides_of(full))
    backend.dispose_data(y.data_id)
    return out


@register_kernel("SparseToDense", BACKEND)
def sparse_to_dense(backend, inputs, attrs):
    indices, values, default = inputs
    shape = tuple(attrs["output_shape"])
    dtype = values.dtype
    if _size(shape) == 0:
        return backend.empty(shape, dtype)
    rank = len(shape)
    count = size_of(indices.shape) // rank if rank else 0
    known = backend.values_if_known(indices)
    if known is not None:
        for r in range(count):
            t = list(known[r * rank:(r + 1) * rank])
            if any(not 0 <= v < d for v, d in zip(t, shape)):
                raise ValueError(f"sparse_to_dense: argument 'sparse_indices' holds {t}, which does not index into "
                                 f"output_shape {list(shape)}")
    if count == 0:
        return _filled_default(backend, shape, default)
    t = wgsl.STORAGE_TYPE[dtype]
    slot, sf, sv = _slot_fn(rank, shape)
    fields = (("size", "i32"), ("count", "i32"), ("oneValue", "i32")) + sf

    def source():
        return slot + wgsl.bindings(t, (("indices", "i32"), ("vals", t), ("dflt", t)), fields) + \
            wgsl.program("indexing.wgsl", "sparse_to_dense")

    return backend.run(Program(f"sparse_to_dense:{t}:{rank}", source, fields), [indices, values, default], shape,
                       dtype, (_size(shape), count, int(_size(values.shape) == 1)) + sv,
                       backend.groups_for(_size(shape), 64))


def _filled_default(backend, shape, default):
    """shape filled with the one value of default (a broadcast copy)."""
    rank = len(shape)
    view = TensorInfo(default.data_id, (1,) * rank, default.dtype)
    return run_map(backend, view, shape, [0] * rank, [0] * rank, [1] * rank, [0] * rank)
