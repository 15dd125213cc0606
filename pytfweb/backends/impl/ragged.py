"""Ragged kernels in pure Python (TF.js's RaggedGather_impl, RaggedRange_impl,
RaggedTensorToTensor_impl, themselves ports of TensorFlow's C++ kernels), on flat sequences;
see impl/__init__.py. What only the values can tell is checked here (ValueError naming the
op and the argument)."""
import math

from ...core.limits import check_elements
from ...core.shapes import size_of, strides_of

_INT32_MAX = 2 ** 31 - 1


# --- RaggedGather ---------------------------------------------------------------------------

def _check_splits(splits, num_values, name):
    for dim, s in enumerate(splits):
        bound = num_values if dim == len(splits) - 1 else len(splits[dim + 1]) - 1
        arg = f"params_nested_splits[{dim}]"
        if not len(s):
            raise ValueError(f"{name}: argument '{arg}' may not be empty")
        if s[0] < 0:
            raise ValueError(f"{name}: argument '{arg}' must be non-negative, got {s[0]}")
        if s[-1] > bound:
            raise ValueError(f"{name}: argument '{arg}' points past the values ({s[-1]} > {bound})")
        if any(a > b for a, b in zip(s, s[1:])):
            raise ValueError(f"{name}: argument '{arg}' must be sorted in ascending order")


def ragged_gather(args, attrs):
    """Inputs: the params' nested splits, their dense values, indices. Outputs: the result's
    nested splits (indices.rank - 1 uniform ones, then one per params splits) and values."""
    name = "ragged_gather"
    *splits_t, dense, indices = args
    splits = [s.values for s in splits_t]
    num_params = len(splits[0]) - 1
    strides = strides_of(indices.shape)
    for i, v in enumerate(indices.values):
        if not 0 <= v < num_params:
            loc = [i // s % d for s, d in zip(strides, indices.shape)]
            raise ValueError(f"{name}: argument 'indices' holds {v} at {loc}, outside [0, {num_params})")
    rows = dense.shape[0]
    _check_splits(splits, rows, name)
    # Splits from the dense (uniform) axes of indices: for indices [2, 3, 4]: [0, 3, 6] and
    # [0, 4, 8, ..., 24].
    first_ragged = len(indices.shape) - 1     # output axis of the params' first splits
    out = []
    nrows = 1
    for dim in range(first_ragged):
        nrows *= indices.shape[dim]
        width = indices.shape[dim + 1]
        out.append([i * width for i in range(nrows + 1)])
    out += [[0] for _ in range(first_ragged + len(splits) - len(out))]
    slices = []
    for index in indices.values:
        start, limit = index, index + 1
        for dim, s in enumerate(splits):
            out_dim = dim + first_ragged
            if out_dim >= 0:        # (a scalar index drops the outermost splits)
                target = out[out_dim]
                delta = target[-1] - s[start]
                target.extend(s[j + 1] + delta for j in range(start, limit))
            start, limit = s[start], s[limit]
        if limit != start:
            slices.append((start, limit))
    width = size_of(dense.shape[1:])
    values = []
    for start, limit in slices:
        values.extend(dense.values[start * width:limit * width])
    num_values = sum(limit - start for start, limit in slices)
    out_splits = [(s, (len(s),), "int32") for s in out]
    return out_splits + [(values, (num_values,) + tuple(dense.shape[1:]), dense.dtype)]


# --- RaggedRange ----------------------------------------------------------------------------

def ragged_range(args, attrs):
    """Inputs starts, limits, deltas (scalars or vectors of one length, one dtype). Outputs:
    row splits (int32) and the concatenated ranges."""
    name = "ragged_range"
    starts, limits, deltas = args
    sizes = {len(t.values) for t in args if t.shape}
    rows = sizes.pop() if sizes else 1

    def at(t, row):
        return t.values[row if t.shape else 0]
    splits, values = [0], []
    for row in range(rows):
        start, limit, delta = at(starts, row), at(limits, row), at(deltas, row)
        if delta == 0:
            raise ValueError(f"{name}: argument 'deltas' must not hold 0 (row {row})")
        if (delta > 0 and limit < start) or (delta < 0 and limit > start):
            size = 0
        else:
            size = math.ceil(abs((limit - start) / delta))
            if size > _INT32_MAX:
                raise ValueError(f"{name}: row {row} would have {size} values (more than {_INT32_MAX})")
        value = start
        for _ in range(size):
            values.append(value)
            value += delta
        splits.append(splits[-1] + size)
    return [(splits, (rows + 1,), "int32"), (values, (len(values),), starts.dtype)]


# --- RaggedTensorToTensor -------------------------------------------------------------------

def _max_width(kind, partition):
    """The longest row a partition describes."""
    if kind == "ROW_SPLITS":
        return max((b - a for a, b in zip(partition, partition[1:])), default=0)
    longest, run = 0, 0      # VALUE_ROWIDS: the longest run of one row id
    for i, v in enumerate(partition):
        run = run + 1 if i and v == partition[i - 1] else 1
        longest = max(longest, run)
    return longest


def _output_index_row_splits(splits, parent, multiplier, size, name):
    if len(splits) - 1 > len(parent):
        raise ValueError(f"{name}: a row partition has {len(splits) - 1} rows, more than the "
                         f"{len(parent)} its parent dimension holds")
    out = []
    for i in range(len(splits) - 1):
        length = splits[i + 1] - splits[i]
        real = 0 if parent[i] == -1 else min(size, length)
        out.extend(parent[i] + j * multiplier for j in range(real))
        out.extend([-1] * (length - real))
    if splits and len(out) != splits[-1]:
        raise ValueError(f"{name}: invalid row splits (they describe {len(out)} values, end at {splits[-1]})")
    return out


def _output_index_value_rowids(rowids, parent, multiplier, size, name):
    out = []
    column, current = 0, None
    for row in rowids:
        if not 0 <= row < len(parent):
            raise ValueError(f"{name}: a value row id {row} is outside [0, {len(parent)})")
        if row == current:
            if index >= 0:
                column += 1
                index = index + multiplier if column < size else -1
        else:
            column, current, index = 0, row, parent[row]
        out.append(index)
    return out


_OUTPUT_INDEX = {"ROW_SPLITS": _output_index_row_splits, "VALUE_ROWIDS": _output_index_value_rowids}


def _broadcast(values, shape, target):
    """Flat values of shape broadcast (numpy rules) to target."""
    offset = len(target) - len(shape)
    src_strides = strides_of(shape)
    out = []
    for k in range(size_of(target)):
        flat = 0
        for dim, (d, s) in enumerate(zip(shape, src_strides)):
            coord = k // size_of(target[offset + dim + 1:]) % target[offset + dim]
            flat += (0 if d == 1 else coord) * s
        out.append(values[flat])
    return out


def _output_shape(shape_t, values, default, ragged_rank, first_dim, width, name):
    """The dense shape: the requested one with its unknown (-1) sizes filled in."""
    rank = ragged_rank + len(values.shape)
    if not shape_t.shape:
        if shape_t.values[0] != -1:
            raise ValueError(f"{name}: argument 'shape' as a scalar must be -1 (unknown), got {shape_t.values[0]}")
        shape = [-1] * rank
    else:
        shape = list(shape_t.values)
    if any(d < -1 for d in shape):
        raise ValueError(f"{name}: argument 'shape' must hold sizes >= -1, got {shape}")
    if len(shape) != rank:
        raise ValueError(f"{name}: argument 'shape' {shape} must have rank {rank} (ragged rank {ragged_rank} + "
                         f"rank of 'values' {len(values.shape)})")
    for i in range(1, len(values.shape)):
        j = ragged_rank + i
        if shape[j] == -1:
            shape[j] = values.shape[i]
        elif shape[j] != values.shape[i]:
            raise ValueError(f"{name}: argument 'shape' {shape} does not match 'values' (shape "
                             f"{list(values.shape)}) at axis {j}")
    if len(default.shape) >= len(values.shape) or any(
            d not in (1, v) for d, v in zip(reversed(default.shape), reversed(values.shape[1:]))):
        raise ValueError(f"{name}: argument 'default_value' (shape {list(default.shape)}) must broadcast to "
                         f"a value element of shape {list(values.shape[1:])}")
    if shape[0] < 0:
        shape[0] = first_dim
    for i in range(1, ragged_rank + 1):
        if shape[i] < 0:
            shape[i] = width(i)
    check_elements(shape, f"{name}: argument 'shape'")
    return shape


def ragged_tensor_to_tensor(args, attrs):
    """Inputs shape (int32; -1 for sizes to infer), values, default_value, then one row
    partition tensor per entry of attrs["row_partition_types"] (FIRST_DIM_SIZE, then
    ROW_SPLITS or VALUE_ROWIDS per ragged dimension). Output: the dense tensor."""
    name = "ragged_tensor_to_tensor"
    shape_t, values, default, *partitions = args
    types = list(attrs["row_partition_types"])
    skip = 1 if types[0] == "FIRST_DIM_SIZE" else 0
    ragged_rank = len(types) - skip
    if not len(partitions[0].values):
        raise ValueError(f"{name}: argument 'row_partition_tensors[0]' must hold at least one element")
    if types[0] == "FIRST_DIM_SIZE":
        first_dim = partitions[0].values[0]
    elif types[0] == "ROW_SPLITS":
        first_dim = partitions[0].shape[0] - 1
    else:
        raise ValueError(f"{name}: argument 'row_partition_types' cannot start with {types[0]}")

    def partition(dim):
        return types[dim + skip], partitions[dim + skip].values
    shape = _output_shape(shape_t, values, default, ragged_rank, first_dim,
                          lambda i: _max_width(*partition(i - 1)), name)
    multiplier = [1] * (ragged_rank + 1)
    for i in range(ragged_rank - 1, -1, -1):
        multiplier[i] = multiplier[i + 1] * shape[i + 1]
    element_shape = shape[ragged_rank + 1:]
    element = size_of(element_shape)
    fill = _broadcast(default.values, default.shape, element_shape)
    out = fill * size_of(shape[:ragged_rank + 1])
    if multiplier[0] * shape[0] > 0:
        index = [i * multiplier[0] if i < shape[0] else -1 for i in range(first_dim)]
        for i in range(1, ragged_rank + 1):
            kind, part = partition(i - 1)
            index = _OUTPUT_INDEX[kind](part, index, multiplier[i], shape[i], name)
        if len(index) != values.shape[0]:
            raise ValueError(f"{name}: the row partitions describe {len(index)} values, 'values' has "
                             f"{values.shape[0]}")
        for src, dst in enumerate(index):
            if dst >= 0:
                out[dst * element:(dst + 1) * element] = values.values[src * element:(src + 1) * element]
    return [(out, tuple(shape), values.dtype)]


HOST_KERNELS = {
    "RaggedGather": ragged_gather,
    "RaggedRange": ragged_range,
    "RaggedTensorToTensor": ragged_tensor_to_tensor,
}
