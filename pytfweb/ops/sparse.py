"""Sparse tensors: tf.sparse_to_dense, and the tf.sparse namespace (sparse_fill_empty_rows,
sparse_reshape, sparse_segment_mean, sparse_segment_sum), with TF.js 4.22 semantics.

A sparse tensor is (indices [n, rank] int32, values [n], dense shape [rank]). Only
sparse_to_dense has an output shape known from its arguments: it is a shader on webgl. The
others' output sizes depend on the values, so every backend reads them back and computes in
Python (backends/impl/sparse.py), as TF.js's webgl backend does. TF.js defines no gradient
for any of these kernels.

Kernel contract (every backend):
  SparseToDense        inputs sparse_indices (int32, rank 0-2: [n, rank] or [n] for a vector
                       or a scalar for one entry), sparse_values (rank 0, or [n]),
                       default_value (scalar, values' dtype); attrs {"output_shape": tuple}.
                       Repeated indices: the last value wins (TF.js's cpu kernel; its webgl
                       shader sums them, a divergence we do not copy). An index outside
                       output_shape: the cpu kernel raises ValueError, webgl ignores it.
  SparseFillEmptyRows  inputs indices [n, rank] int32, values [n], dense_shape [rank] int32,
                       default_value scalar -> [indices, values, empty_row_indicator (bool),
                       reverse_index_map (int32)].
  SparseReshape        inputs input_indices [n, rank], input_shape [rank], new_shape [r']
                       (int32) -> [output_indices [n, r'], output_shape [r'] int32].
  SparseSegmentSum/Mean  inputs data (rank >= 1), indices [k], segment_ids [k] (int32,
                       sorted) -> [segment_ids[-1] + 1] + data.shape[1:].
"""
import array
from collections import namedtuple

from ..core.engine import ENGINE, op
from ..core.limits import check_elements
from ..core.shapes import check_shape
from ..core.tensor import Tensor
from ..core.types import Shape, TensorLike
from .creation import convert_to_tensor

__all__ = ["sparse_to_dense"]

SparseFillEmptyRowsResult = namedtuple("SparseFillEmptyRowsResult",
                                       "output_indices output_values empty_row_indicator reverse_index_map")
SparseReshapeResult = namedtuple("SparseReshapeResult", "output_indices output_shape")


def _int32(x, arg, name):
    t = convert_to_tensor(x, arg, name, "int32")
    if t.dtype != "int32":
        raise TypeError(f"{name}: argument '{arg}' must be an int32 tensor, got {t.dtype}")
    return t


def _rank(t, arg, name, ranks, what):
    if t.rank not in ranks:
        raise ValueError(f"{name}: argument '{arg}' must be {what}, got shape {list(t.shape)}")


@op
def sparse_to_dense(sparse_indices: TensorLike, sparse_values: TensorLike, output_shape: Shape,
                    default_value: TensorLike = 0) -> Tensor:
    """A dense tensor holding default_value except at the given indices.

    Args:
        sparse_indices: int32 [n, rank] coordinates (a vector or scalar for rank 1).
        sparse_values: one value per index, or one scalar for all.
        output_shape: the result's shape.
        default_value: the value elsewhere.

    Returns:
        A new Tensor of output_shape in sparse_values' dtype.

    Example:
        >>> tf.sparse_to_dense(tf.tensor([0, 3], dtype="int32"), tf.tensor([5, 6]), [5]).print()
        Tensor
            [5, 0, 0, 6, 0]
    """
    name = "sparse_to_dense"
    shape = check_shape(output_shape, name, "output_shape")
    check_elements(shape, f"{name}: argument 'output_shape'")
    indices = _int32(sparse_indices, "sparse_indices", name)
    values = convert_to_tensor(sparse_values, "sparse_values", name)
    default = convert_to_tensor(default_value, "default_value", name, values.dtype)
    _rank(indices, "sparse_indices", name, (0, 1, 2), "a scalar, vector or matrix")
    count = indices.shape[0] if indices.rank > 0 else 1
    dims = indices.shape[1] if indices.rank > 1 else 1
    if len(shape) != dims:
        raise ValueError(f"{name}: argument 'output_shape' {list(shape)} must have {dims} dimensions, one per "
                         f"column of 'sparse_indices' (shape {list(indices.shape)})")
    if not (values.rank == 0 or (values.rank == 1 and values.size == count)):
        raise ValueError(f"{name}: argument 'sparse_values' must have shape [] or [{count}], got "
                         f"{list(values.shape)}")
    if default.dtype != values.dtype:
        raise TypeError(f"{name}: argument 'default_value' must have the dtype of 'sparse_values' "
                        f"({values.dtype}), got {default.dtype}")
    _rank(default, "default_value", name, (0,), "a scalar")
    if values.dtype == "string":
        return _strings_to_dense(indices, values, default, shape, count)
    return ENGINE.run_kernel("SparseToDense", [indices, values, default], {"output_shape": shape})


def _strings_to_dense(indices, values, default, shape, count):
    """String values (TF.js's cpu kernel takes them): the numeric kernel scatters each value's
    position in [default, *values] (the same writes, so the same last-one-wins for a repeated
    index), and a gather of that table by position moves the strings; both kernels take strings
    on every backend."""
    table = ENGINE.run_kernel("Concat", [ENGINE.run_kernel("Reshape", [default], {"shape": [1]}),
                                         ENGINE.run_kernel("Reshape", [values], {"shape": [values.size]})], {"axis": 0})
    if values.rank == 1:
        positions = ENGINE.make_tensor(array.array("i", range(1, count + 1)), (count,), "int32")
    else:   # one value for every index
        positions = ENGINE.make_tensor(array.array("i", [1]), (), "int32")
    zero = ENGINE.make_tensor(array.array("i", [0]), (), "int32")
    picks = ENGINE.run_kernel("SparseToDense", [indices, positions, zero], {"output_shape": shape})
    return ENGINE.run_kernel("GatherV2", [table, picks], {"axis": 0, "batch_dims": 0})


@op
def sparse_fill_empty_rows(indices, values, dense_shape, default_value):
    """tf.sparse.sparse_fill_empty_rows: the sparse tensor with an entry (default_value at
    column 0) added to every empty row. Returns (output_indices, output_values,
    empty_row_indicator, reverse_index_map)."""
    name = "sparse_fill_empty_rows"
    indices = _int32(indices, "indices", name)
    values = convert_to_tensor(values, "values", name)
    dense_shape = _int32(dense_shape, "dense_shape", name)
    default = convert_to_tensor(default_value, "default_value", name, values.dtype)
    _rank(indices, "indices", name, (2,), "a matrix [n, rank]")
    _rank(values, "values", name, (1,), "a vector")
    _rank(dense_shape, "dense_shape", name, (1,), "a vector")
    _rank(default, "default_value", name, (0,), "a scalar")
    if values.shape[0] != indices.shape[0]:
        raise ValueError(f"{name}: arguments 'indices' (shape {list(indices.shape)}) and 'values' (shape "
                         f"{list(values.shape)}) must have one entry per row")
    if dense_shape.shape[0] != indices.shape[1]:
        raise ValueError(f"{name}: argument 'dense_shape' (shape {list(dense_shape.shape)}) must have one entry "
                         f"per column of 'indices' (shape {list(indices.shape)})")
    if default.dtype != values.dtype:
        raise TypeError(f"{name}: argument 'default_value' must have the dtype of 'values' ({values.dtype}), "
                        f"got {default.dtype}")
    return SparseFillEmptyRowsResult(*ENGINE.run_kernel("SparseFillEmptyRows", [indices, values, dense_shape, default]))


@op
def sparse_reshape(input_indices, input_shape, new_shape):
    """tf.sparse.sparse_reshape: the indices of a sparse tensor of input_shape re-expressed in
    new_shape (one -1 allowed). Returns (output_indices, output_shape)."""
    name = "sparse_reshape"
    indices = _int32(input_indices, "input_indices", name)
    in_shape = _int32(input_shape, "input_shape", name)
    target = _int32(new_shape, "new_shape", name)
    _rank(indices, "input_indices", name, (2,), "a matrix [n, rank]")
    _rank(in_shape, "input_shape", name, (1,), "a vector")
    _rank(target, "new_shape", name, (1,), "a vector")
    if in_shape.shape[0] != indices.shape[1]:
        raise ValueError(f"{name}: argument 'input_shape' (shape {list(in_shape.shape)}) must have one entry "
                         f"per column of 'input_indices' (shape {list(indices.shape)})")
    return SparseReshapeResult(*ENGINE.run_kernel("SparseReshape", [indices, in_shape, target]))


def _segment_op(kernel, name, doc):
    def segment_reduction(data, indices, segment_ids):
        data = convert_to_tensor(data, "data", name)
        indices = _int32(indices, "indices", name)
        segment_ids = _int32(segment_ids, "segment_ids", name)
        if data.dtype not in ("float32", "int32"):
            raise TypeError(f"{name}: argument 'data' must be float32 or int32, got {data.dtype}")
        if data.rank < 1:
            raise ValueError(f"{name}: argument 'data' must have rank >= 1, got a scalar")
        _rank(indices, "indices", name, (1,), "a vector")
        _rank(segment_ids, "segment_ids", name, (1,), "a vector")
        if indices.shape[0] != segment_ids.shape[0]:
            raise ValueError(f"{name}: arguments 'indices' ({indices.shape[0]}) and 'segment_ids' "
                             f"({segment_ids.shape[0]}) must have the same length")
        return ENGINE.run_kernel(kernel, [data, indices, segment_ids])
    segment_reduction.__name__ = segment_reduction.__qualname__ = name
    segment_reduction.__doc__ = doc
    return op(segment_reduction)


sparse_segment_sum = _segment_op(
    "SparseSegmentSum", "sparse_segment_sum",
    "tf.sparse.sparse_segment_sum(data, indices, segment_ids): the rows data[indices] summed per "
    "(sorted) segment id; segments no index names are 0.")
sparse_segment_mean = _segment_op(
    "SparseSegmentMean", "sparse_segment_mean",
    "tf.sparse.sparse_segment_mean(data, indices, segment_ids): the rows data[indices] averaged per "
    "(sorted) segment id; segments no index names are 0.")
