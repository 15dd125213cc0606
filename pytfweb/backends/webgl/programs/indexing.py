"""Indexing kernels on webgl (contract in ops/indexing.py).

Shaders (backends/webgl/shaders/indexing.glsl): GatherNd, ScatterNd, TensorScatterUpdate, MirrorPad, Diag,
UnsortedSegmentSum, SearchSorted, TopK (TF.js's bitonic top-k: swap and merge passes, over chunk
maxima first where a row is long).
Views and shape programs of other families: DepthToSpace is one strided view (a transpose of
a rank-6 reading of x); SpaceToBatchND is PadV2 then a view; BatchToSpaceND a view then a
Slice (as TF.js's webgl backend composes them from pad, transpose and slice).
Read back and finished in pure Python, as on TF.js's webgl backend (the output shape depends
on the data, or the values are a shape): Unique, BroadcastArgs.
"""
import array

from ....core.dtypes import TYPECODES
from ....kernels import TensorInfo, register_kernel
from ....core.shapes import size_of, strides_of
from ...gpu import host_kernels, shader_source
from ..shader_compiler import coord_fields, coord_type
from .program import Program
from .shape import pad_v2, tile
from .slicing import check_index_tuples, defines, empty, gather_v2, known_indices, share, slice_view, strided_view


def _section(name):
    return shader_source.program("indexing.glsl", name)


def _view(t, shape):
    """t read under another shape (a free reshape: textures are row-major)."""
    return TensorInfo(t.data_id, tuple(shape), t.dtype)


def _constant(backend, values, shape, dtype):
    """A small tensor made from Python values (no computation: shapes, zeros)."""
    buf = array.array(TYPECODES[dtype], values)
    return TensorInfo(backend.write(buf, shape, dtype), tuple(shape), dtype)


def _dispose_temps(backend, temps, keep):
    """Dispose intermediates, except data shared with an input or the result."""
    kept = {t.data_id for t in keep}
    for t in temps:
        if t.data_id not in kept:
            backend.dispose_data(t.data_id)
            kept.add(t.data_id)


def _array_literal(values):
    return ", ".join(str(int(v)) for v in values)


# --- GatherNd, ScatterNd, TensorScatterUpdate ----------------------------------------------

@register_kernel("GatherNd", "webgl")
def gather_nd(backend, inputs, attrs):
    params, indices = inputs
    k = indices.shape[-1]
    count = size_of(indices.shape[:-1])
    slice_size = size_of(params.shape[k:])
    out_shape = indices.shape[:-1] + params.shape[k:]
    values = known_indices(backend, indices)
    if values is not None:
        check_index_tuples(values, k, params.shape[:k], "gather_nd", "GatherNd", params.shape)
    if count == 0 or slice_size == 0:
        return empty(backend, out_shape, params.dtype)
    if k == 0:      # every index tuple is empty: each names all of params
        return share(tile(backend, [_view(params, (1, slice_size))], {"reps": [count, 1]}), out_shape)
    strides = [size_of(params.shape[j + 1:k]) for j in range(k)]
    code = defines(SLICE_DIM=k, ND_SHAPE=_array_literal(params.shape[:k]),
                   ND_STRIDES=_array_literal(strides)) + _section("gather_nd")
    # params' leading shape is baked into the code: it belongs in the key (the views alone do not fix it)
    program = Program(f"gather_nd:{list(params.shape[:k])}", ("x", "indices"), (count, slice_size), code)
    x2 = _view(params, (size_of(params.shape[:k]), slice_size))
    return share(backend.run(program, [x2, _view(indices, (count, k))], params.dtype), out_shape)


def _scatter(backend, indices, updates, shape, base):
    """ScatterNd (base None: sum into zeros) and TensorScatterUpdate (base: last update wins)."""
    k = indices.shape[-1] if len(indices.shape) > 1 else 1
    num = size_of(indices.shape) // k
    slices, slice_size = size_of(shape[:k]), size_of(shape[k:])
    if slices * slice_size == 0:
        return empty(backend, shape, updates.dtype)
    macros = dict(SLICE_DIM=k, NUM_UPDATES=num, ND_STRIDES=_array_literal(strides_of(shape[:k])))
    names = ["updates", "indices"]
    ins = [_view(updates, (num, slice_size)), _view(indices, (num, k))]
    if base is None:
        macros["SCATTER_SUM"] = 1
    else:
        names.append("base")
        ins.append(_view(base, (slices, slice_size)))
    # the output's leading shape is baked into the code: it belongs in the key
    key = f"{'scatter_sum' if base is None else 'scatter_update'}:{list(shape[:k])}"
    program = Program(key, tuple(names), (slices, slice_size), defines(**macros) + _section("scatter"))
    return share(backend.run(program, ins, updates.dtype), shape)


def _check_scatter(backend, indices, shape, name, kernel):
    values = known_indices(backend, indices)
    if values is not None:
        k = indices.shape[-1] if len(indices.shape) > 1 else 1
        check_index_tuples(values, k, shape[:k], name, kernel, shape)


@register_kernel("ScatterNd", "webgl")
def scatter_nd(backend, inputs, attrs):
    indices, updates = inputs
    _check_scatter(backend, indices, tuple(attrs["shape"]), "scatter_nd", "ScatterNd")
    return _scatter(backend, indices, updates, tuple(attrs["shape"]), None)


@register_kernel("TensorScatterUpdate", "webgl")
def tensor_scatter_update(backend, inputs, attrs):
    t, indices, updates = inputs
    _check_scatter(backend, indices, t.shape, "tensor_scatter_update", "TensorScatterUpdate")
    return _scatter(backend, indices, updates, t.shape, t)


# --- MirrorPad, Diag ---------------------------------------------------------------------------

@register_kernel("MirrorPad", "webgl")
def mirror_pad(backend, inputs, attrs):
    (x,) = inputs
    paddings, mode = attrs["paddings"], attrs["mode"]
    out_shape = tuple(b + n + a for n, (b, a) in zip(x.shape, paddings))
    if size_of(out_shape) == 0:
        return empty(backend, out_shape, x.dtype)
    fields = coord_fields("c", len(out_shape))
    args = ", ".join(f"mirror({f} - {b}, {n})" if b or a else f
                     for f, n, (b, a) in zip(fields, x.shape, paddings))
    code = defines(COORDS=coord_type(len(out_shape)), MIRROR_OFFSET=int(mode == "symmetric"),
                   MIRROR_ARGS=args) + _section("mirror_pad")
    # The paddings are baked into the code: they belong in the key (the shapes alone do not fix them).
    program = Program(f"mirror_pad:{mode}:{paddings}", ("x",), out_shape, code)
    return backend.run(program, [x], x.dtype)


@register_kernel("Diag", "webgl")
def diag(backend, inputs, attrs):
    (x,) = inputs
    n = size_of(x.shape)
    program = Program("diag", ("x",), (n, n), _section("diag"))
    return share(backend.run(program, [_view(x, (n,))], x.dtype), x.shape + x.shape)


# --- DepthToSpace, SpaceToBatchND, BatchToSpaceND: views ----------------------------------------

@register_kernel("DepthToSpace", "webgl")
def depth_to_space(backend, inputs, attrs):
    (x,) = inputs
    bs = attrs["block_size"]
    if attrs["data_format"] == "NHWC":
        b, h, w, d = x.shape
        depth = d // bs // bs
        src = (b, h, w, bs, bs, depth)
        perm, out_shape = (0, 1, 3, 2, 4, 5), (b, h * bs, w * bs, depth)
    else:
        b, d, h, w = x.shape
        depth = d // bs // bs
        src = (b, bs, bs, depth, h, w)
        perm, out_shape = (0, 3, 4, 1, 5, 2), (b, depth, h * bs, w * bs)
    steps = strides_of(src)
    view = strided_view(backend, x, [src[p] for p in perm], 0, [steps[p] for p in perm])
    return share(view, out_shape)


def _blocks_to_batch(backend, x, block):
    """x [B, S1, ..., SM, rest] (Si divisible by bi) -> [b1 * ... * bM * B, S1/b1, ..., rest]."""
    m = len(block)
    rest = size_of(x.shape[1 + m:])
    src = [x.shape[0]]
    for s, b in zip(x.shape[1:1 + m], block):
        src += [s // b, b]
    src.append(rest)
    steps = strides_of(src)
    perm = [2 + 2 * i for i in range(m)] + [0] + [1 + 2 * i for i in range(m)] + [2 * m + 1]
    view = strided_view(backend, x, [src[p] for p in perm], 0, [steps[p] for p in perm])
    out_shape = (x.shape[0] * size_of(block),) + tuple(s // b for s, b in zip(x.shape[1:1 + m], block)) \
        + x.shape[1 + m:]
    return share(view, out_shape)


@register_kernel("SpaceToBatchND", "webgl")
def space_to_batch_nd(backend, inputs, attrs):
    (x,) = inputs
    block, pads = attrs["block_shape"], attrs["paddings"]
    full = [[0, 0]] + [list(p) for p in pads] + [[0, 0]] * (len(x.shape) - 1 - len(block))
    padded = pad_v2(backend, [x], {"paddings": full, "constant_value": 0})
    out = _blocks_to_batch(backend, padded, block)
    _dispose_temps(backend, [padded], [x, out])
    return out


@register_kernel("BatchToSpaceND", "webgl")
def batch_to_space_nd(backend, inputs, attrs):
    (x,) = inputs
    block, crops = attrs["block_shape"], attrs["crops"]
    m = len(block)
    batch = x.shape[0] // size_of(block)
    spatial = x.shape[1:1 + m]
    rest = size_of(x.shape[1 + m:])
    # [b1, ..., bM, B, S1, ..., SM, rest] -> [B, S1, b1, ..., SM, bM, rest]
    src = list(block) + [batch] + list(spatial) + [rest]
    steps = strides_of(src)
    perm = [m] + [j for i in range(m) for j in (m + 1 + i, i)] + [2 * m + 1]
    whole = tuple([batch] + [s * b for s, b in zip(spatial, block)]) + x.shape[1 + m:]
    spread = share(strided_view(backend, x, [src[p] for p in perm], 0, [steps[p] for p in perm]), whole)
    begin = [0] + [c0 for c0, _ in crops] + [0] * (len(whole) - 1 - m)
    size = [batch] + [n - c0 - c1 for n, (c0, c1) in zip(whole[1:], crops)] + list(whole[1 + m:])
    out = slice_view(backend, spread, begin, size)
    _dispose_temps(backend, [spread], [x, out])
    return out


# --- UnsortedSegmentSum, SearchSorted ------------------------------------------------------------

@register_kernel("UnsortedSegmentSum", "webgl")
def unsorted_segment_sum(backend, inputs, attrs):
    x, ids = inputs
    segments = attrs["num_segments"]
    rows = size_of(ids.shape)
    inner_shape = x.shape[len(ids.shape):]
    inner = size_of(inner_shape)
    out_shape = (segments,) + inner_shape
    if segments * inner == 0:
        return empty(backend, out_shape, x.dtype)
    if rows == 0:
        return _constant(backend, [0] * (segments * inner), out_shape, x.dtype)
    code = defines(NUM_ROWS=rows) + _section("segment_sum")
    program = Program("segment_sum", ("x", "segmentIds"), (segments, inner), code)
    out = backend.run(program, [_view(x, (rows, inner)), _view(ids, (rows,))], x.dtype)
    return share(out, out_shape)


@register_kernel("SearchSorted", "webgl")
def search_sorted(backend, inputs, attrs):
    seq, vals = inputs
    if size_of(vals.shape) == 0:
        return empty(backend, vals.shape, "int32")
    if seq.shape[1] == 0:       # nothing to search: every value goes to 0
        return _constant(backend, [0] * size_of(vals.shape), vals.shape, "int32")
    cmp = "<" if attrs["side"] == "left" else "<="
    code = defines(NUM_INPUTS=seq.shape[1], BOUND_CMP=cmp) + _section("search_sorted")
    program = Program(f"search_sorted:{attrs['side']}", ("sortedSequence", "values"), vals.shape, code)
    return backend.run(program, [seq, vals], "int32")


# --- TopK: bitonic sort on the GPU (TF.js's webgl TopK) -------------------------------------------

def _pow2(n):
    p = 1
    while p < n:
        p *= 2
    return p


_SWAP_UNIFORMS = (("n", "int"), ("firstPass", "int"), ("dir", "int"), ("inc", "int"))
_MERGE_UNIFORMS = (("n", "int"), ("firstPass", "int"), ("k", "int"))
# Elements a chunk maximum covers. A row at least _CHUNK_FROM times k's power of two long is cut
# into chunks first: the bitonic passes then sort the chunk maxima and the k best chunks'
# elements, not the whole row (centernet's top 100 of 1.3M scores: 1.5 million texels drawn in
# place of 75 million).
_CHUNK = 64
_CHUNK_FROM = 4 * _CHUNK


@register_kernel("TopK", "webgl")
def top_k(backend, inputs, attrs):
    (x,) = inputs
    k = attrs["k"]
    n = x.shape[-1]
    out_shape = x.shape[:-1] + (k,)
    if k == 0 or size_of(x.shape) == 0:
        return [empty(backend, out_shape, x.dtype), empty(backend, out_shape, "int32")]
    if n == 1:
        return [share(x, out_shape), _constant(backend, [0] * size_of(out_shape), out_shape, "int32")]
    batch = size_of(x.shape) // n
    x2 = _view(x, (batch, n))
    indices = _top_indices(backend, x2, k)
    best = slice_view(backend, indices, [0, 0], [batch, k])
    _dispose_temps(backend, [indices], [best])
    values = gather_v2(backend, [x2, best], {"axis": 1, "batch_dims": 1})
    return [share(values, out_shape), share(best, out_shape)]


def _top_indices(backend, x2, k):
    """Indices into the rows of x2 [batch, n > 1], int32 [batch, at least k], the first k
    those of the row's top k in cpu's order (NaN first, then by value, ties by index)."""
    batch, n = x2.shape
    k2 = _pow2(k)
    if n < _CHUNK_FROM * k2:
        return _bitonic(backend, x2, k2, None)
    code = defines(CHUNK=_CHUNK)
    maxima = backend.run(Program(f"topk_chunk_max:{_CHUNK}", ("x",), (batch, -(-n // _CHUNK)),
                                 code + _section("topk_chunk_max"), (("n", "int"),)), [x2], x2.dtype, (n,))
    chunks = _top_indices(backend, maxima, k)
    backend.dispose_data(maxima.data_id)
    candidates = backend.run(Program(f"topk_candidates:{_CHUNK}", ("chunks",), (batch, _pow2(k * _CHUNK)),
                                     code + _section("topk_candidates"), (("n", "int"), ("k", "int"))),
                             [chunks], "int32", (n, k))
    backend.dispose_data(chunks.data_id)
    return _bitonic(backend, x2, k2, candidates)


def _bitonic(backend, x2, k2, indices):
    """TF.js's bitonic top k of x2's rows: indices [batch, k2] of x2's top k2 in order, from
    indices (candidate indices into x2's rows, a power of two of them a row: consumed) or, with
    None, from all n of a row (padded to a power of two)."""
    batch, n = x2.shape
    first = indices is None

    def run(section, uniforms, shape, values):
        nonlocal indices, first
        code = shader_source.function("indexing.glsl", "topkFirst") + _section(f"topk_{section}")
        program = Program(f"topk_{section}", ("x", "indices"), shape, code, uniforms)
        out = backend.run(program, [x2, x2 if first else indices], "int32", (n, int(first), *values))
        if not first:
            backend.dispose_data(indices.data_id)
        indices, first = out, False

    def sort_runs(length, shape):
        inc = length
        while inc >= 1:
            run("swap", _SWAP_UNIFORMS, shape, (2 * length, inc))
            inc //= 2

    # 1. Sort runs of k2 (alternately descending and ascending); 2. repeatedly keep the larger
    # half of each pair of runs and re-sort the runs, until k2 candidates per row remain.
    # (Rows of at least two, so at least one pass runs and `indices` is the result.)
    size = _pow2(n) if first else indices.shape[1]
    length = 1
    while length < k2:
        sort_runs(length, (batch, size))
        length *= 2
    while size > k2:
        run("merge", _MERGE_UNIFORMS, (batch, size // 2), (k2,))
        sort_runs(k2 // 2, indices.shape)
        size //= 2
    return indices


# --- read back and finished in Python: Unique, BroadcastArgs (gpu/host_kernels.py) -----------------

for _name in ("Unique", "BroadcastArgs"):
    register_kernel(_name, "webgl", host_kernels.HOST_FUNCTIONS[_name])
