"""Sparse kernels in pure Python (TF.js's SparseFillEmptyRows_impl, SparseReshape_impl,
SparseSegmentReduction_impl), on flat sequences; see impl/__init__.py. The ops
(ops/sparse.py) have checked ranks and dtypes; what only the values can tell is checked here
(ValueError naming the op and the argument)."""
from ...core.limits import check_elements
from ...core.shapes import size_of, strides_of


def sparse_fill_empty_rows(args, attrs):
    """Outputs: indices [n', rank], values [n'], empty_row_indicator (bool) [rows],
    reverse_index_map (int32) [n] (where each input entry went)."""
    name = "sparse_fill_empty_rows"
    indices, values, dense_shape, default = args
    count, rank = indices.shape
    rows = dense_shape.values[0] if len(dense_shape.values) else 0
    check_elements((rows,), f"{name}: argument 'dense_shape'")
    idx = indices.values
    if rows == 0:
        if count:
            raise ValueError(f"{name}: argument 'dense_shape' has 0 rows but 'indices' holds {count} entries")
        return [([], (0, rank), "int32"), ([], (0,), values.dtype), ([], (0,), "bool"), ([], (0,), "int32")]
    per_row = [0] * rows
    ordered, last = True, 0
    for i in range(count):
        row = idx[i * rank]
        if not 0 <= row < rows:
            raise ValueError(f"{name}: argument 'indices' row {i} has row index {row}, outside [0, {rows})")
        per_row[row] += 1
        ordered = ordered and row >= last
        last = row
    empty = [n == 0 for n in per_row]
    # starts[r]: where row r begins in the output (every row gets at least one entry).
    starts, total = [], 0
    for n in per_row:
        starts.append(total)
        total += max(n, 1)
    if ordered and not any(empty):
        return [(idx, (count, rank), "int32"), (values.values, (count,), values.dtype),
                (empty, (rows,), "bool"), (list(range(count)), (count,), "int32")]
    out_idx = [0] * (total * rank)
    out_val = [default.values[0]] * total
    filled = [0] * rows
    reverse = [0] * count
    for i in range(count):
        row = idx[i * rank]
        j = starts[row] + filled[row]
        filled[row] += 1
        out_idx[j * rank:(j + 1) * rank] = idx[i * rank:(i + 1) * rank]
        out_val[j] = values.values[i]
        reverse[i] = j
    for row in range(rows):
        if empty[row]:
            out_idx[starts[row] * rank] = row     # the other coordinates stay 0
    return [(out_idx, (total, rank), "int32"), (out_val, (total,), values.dtype),
            (empty, (rows,), "bool"), (reverse, (count,), "int32")]


def sparse_reshape(args, attrs):
    """Outputs: the indices in the new shape [nnz, new rank] and the new shape (int32, with
    a -1 resolved)."""
    name = "sparse_reshape"
    indices, in_shape, new_shape = args
    in_dims, target = list(in_shape.values), list(new_shape.values)
    if any(d < 0 for d in in_dims):
        raise ValueError(f"{name}: argument 'input_shape' must hold non-negative sizes, got {in_dims}")
    dense_size = size_of(in_dims)
    unknown = [i for i, d in enumerate(target) if d == -1]
    if len(unknown) > 1:
        raise ValueError(f"{name}: argument 'new_shape' may hold at most one -1, got {target}")
    if any(d < -1 for d in target):
        raise ValueError(f"{name}: argument 'new_shape' must hold sizes >= 0 (or one -1), got {target}")
    out_shape = list(target)
    if unknown:
        known = size_of(d for d in target if d != -1)
        if known <= 0:
            raise ValueError(f"{name}: argument 'new_shape' {target} cannot infer its -1 next to a 0 size")
        out_shape[unknown[0]] = dense_size // known
    if size_of(out_shape) != dense_size:
        raise ValueError(f"{name}: a sparse tensor of shape {in_dims} ({dense_size} values) cannot be "
                         f"reshaped to argument 'new_shape' {target}")
    nnz, in_rank = indices.shape
    out_rank = len(out_shape)
    in_strides, out_strides = strides_of(in_dims), strides_of(out_shape)
    idx = indices.values
    out = [0] * (nnz * out_rank)
    for i in range(nnz):
        flat = sum(idx[i * in_rank + j] * in_strides[j] for j in range(in_rank))
        for j, s in enumerate(out_strides):
            out[i * out_rank + j], flat = divmod(flat, s)
    return [(out, (nnz, out_rank), "int32"), (out_shape, (out_rank,), "int32")]


def _segment_reduction(name, mean):
    def impl(args, attrs):
        """Rows of data picked by indices, summed (or averaged) per sorted segment id; segments
        no index names are 0. Output [last segment id + 1] + data.shape[1:]."""
        data, indices, segment_ids = args
        rows = data.shape[0]
        cols = size_of(data.shape[1:])
        ids, picks, x = segment_ids.values, indices.values, data.values
        n = len(picks)
        num_out = ids[-1] + 1 if n else 0
        # All ids checked first: the output size comes from the last one.
        for i in range(n):
            if i and ids[i] < ids[i - 1]:
                raise ValueError(f"{name}: argument 'segment_ids' must be sorted, got {ids[i - 1]} before {ids[i]}")
            if ids[i] < 0:
                raise ValueError(f"{name}: argument 'segment_ids' must be non-negative, got {ids[i]}")
        out = [0] * (num_out * cols)
        for i in range(n):
            if not 0 <= picks[i] < rows:
                raise ValueError(f"{name}: argument 'indices' holds {picks[i]} at {i}, outside [0, {rows})")
            base, src = ids[i] * cols, picks[i] * cols
            for j in range(cols):
                out[base + j] += x[src + j]
        if mean:
            counts = [0] * num_out
            for s in ids:
                counts[s] += 1
            for s, c in enumerate(counts):
                if c > 1:
                    for j in range(s * cols, (s + 1) * cols):
                        out[j] /= c
        if data.dtype == "int32":
            out = [int(v) for v in out]     # TF.js writes the mean into an Int32Array (truncates)
        return [(out, (num_out,) + tuple(data.shape[1:]), data.dtype)]
    impl.__name__ = name
    return impl


HOST_KERNELS = {
    "SparseFillEmptyRows": sparse_fill_empty_rows,
    "SparseReshape": sparse_reshape,
    "SparseSegmentSum": _segment_reduction("sparse_segment_sum", False),
    "SparseSegmentMean": _segment_reduction("sparse_segment_mean", True),
}
