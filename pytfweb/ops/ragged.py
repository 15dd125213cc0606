"""Ragged tensors: tf.ragged_gather, tf.ragged_range, tf.ragged_tensor_to_tensor, with TF.js
4.22 semantics.

A ragged tensor is flat values plus row partitions (nested row splits: splits[i]..splits[i+1]
is row i). Every output size here depends on the values, so every backend reads the inputs
back and computes in Python (backends/impl/ragged.py), as TF.js's webgl backend does. TF.js
defines no gradient for these kernels.

Kernel contract (every backend); list inputs are passed flat:
  RaggedGather          inputs *params_nested_splits (int32 vectors), params_dense_values
                        (rank >= 1), indices (int32); attrs {"output_ragged_rank": int}.
                        Outputs: the nested splits (indices.rank - 1 + len(splits) of them),
                        then the dense values.
  RaggedRange           inputs starts, limits, deltas (one dtype, float32 or int32, each a
                        scalar or a vector of one common length) -> [row splits, values].
  RaggedTensorToTensor  inputs shape (int32 vector, -1 = infer; or the scalar -1), values,
                        default_value (values' dtype, broadcastable to a value element),
                        *row_partition_tensors; attrs {"row_partition_types": tuple of
                        "FIRST_DIM_SIZE" (first only), "ROW_SPLITS", "VALUE_ROWIDS"}.
"""
from collections import namedtuple

from typing import Any, Sequence

from ..core.engine import ENGINE, op
from ..core.tensor import Tensor
from ..core.types import TensorLike
from .creation import convert_to_tensor

__all__ = ["ragged_gather", "ragged_range", "ragged_tensor_to_tensor"]

RaggedGatherResult = namedtuple("RaggedGatherResult", "output_nested_splits output_dense_values")
RaggedRangeResult = namedtuple("RaggedRangeResult", "rt_nested_splits rt_dense_values")

_PARTITION_TYPES = ("FIRST_DIM_SIZE", "ROW_SPLITS", "VALUE_ROWIDS")


def _int32(x, arg, name, ranks=None, what=None):
    t = convert_to_tensor(x, arg, name, "int32")
    if t.dtype != "int32":
        raise TypeError(f"{name}: argument '{arg}' must be an int32 tensor, got {t.dtype}")
    if ranks is not None and t.rank not in ranks:
        raise ValueError(f"{name}: argument '{arg}' must be {what}, got shape {list(t.shape)}")
    return t


def _tensor_list(values, name, arg, ranks=(1,), what="a vector"):
    if isinstance(values, (Tensor, str, bytes)) or not isinstance(values, (list, tuple)):
        raise TypeError(f"{name}: argument '{arg}' must be a list of tensors, got {type(values).__name__}")
    if not values:
        raise ValueError(f"{name}: argument '{arg}' must not be empty")
    return [_int32(v, f"{arg}[{i}]", name, ranks, what) for i, v in enumerate(values)]


def _as_list(result):
    return result if isinstance(result, list) else [result]


@op
def ragged_gather(params_nested_splits: Sequence[TensorLike], params_dense_values: TensorLike, indices: TensorLike,
                  output_ragged_rank: int) -> Any:
    """Rows of a ragged tensor (given as row splits and dense values).

    Args:
        params_nested_splits: the row splits of each ragged axis (int32 vectors).
        params_dense_values: the flat values.
        indices: int32 indices of the rows to take.
        output_ragged_rank: the ragged rank of the result.

    Returns:
        (output_nested_splits, output_dense_values).

    Example:
        >>> splits, values = tf.ragged_gather([tf.tensor([0, 2, 3], dtype="int32")], tf.tensor([1, 2, 3]),
        ...                                   tf.tensor([1, 0], dtype="int32"), 1)
        >>> splits[0].array_sync(), values.array_sync()
        ([0, 1, 3], [3.0, 1.0, 2.0])
    """
    name = "ragged_gather"
    splits = _tensor_list(params_nested_splits, name, "params_nested_splits")
    dense = convert_to_tensor(params_dense_values, "params_dense_values", name)
    indices = _int32(indices, "indices", name)
    if dense.rank < 1:
        raise ValueError(f"{name}: argument 'params_dense_values' must have rank >= 1, got a scalar")
    if isinstance(output_ragged_rank, bool) or not isinstance(output_ragged_rank, int):
        raise TypeError(f"{name}: argument 'output_ragged_rank' must be an int, got {type(output_ragged_rank).__name__}")
    want = indices.rank - 1 + len(splits)
    if output_ragged_rank != want:
        raise ValueError(f"{name}: argument 'output_ragged_rank' must be indices.rank - 1 + "
                         f"len(params_nested_splits) = {want}, got {output_ragged_rank}")
    out = _as_list(ENGINE.run_kernel("RaggedGather", [*splits, dense, indices],
                                     {"output_ragged_rank": output_ragged_rank}))
    return RaggedGatherResult(out[:-1], out[-1])


@op
def ragged_range(starts: TensorLike, limits: TensorLike, deltas: TensorLike) -> Any:
    """A ragged tensor with one row per (start, limit, delta), row i holding range(starts[i],
    limits[i], deltas[i]) (scalars broadcast).

    Args:
        starts: the rows' starts.
        limits: the rows' limits, excluded.
        deltas: the rows' steps.

    Returns:
        (rt_nested_splits, rt_dense_values).

    Example:
        >>> splits, values = tf.ragged_range(tf.tensor([0, 5], dtype="int32"), tf.tensor([2, 8], dtype="int32"),
        ...                                  tf.scalar(1, "int32"))
        >>> splits.array_sync(), values.array_sync()
        ([0, 2, 5], [0, 1, 5, 6, 7])
    """
    name = "ragged_range"
    starts = convert_to_tensor(starts, "starts", name)
    limits = convert_to_tensor(limits, "limits", name, starts.dtype)
    deltas = convert_to_tensor(deltas, "deltas", name, starts.dtype)
    sizes = {}
    for arg, t in (("starts", starts), ("limits", limits), ("deltas", deltas)):
        if t.dtype not in ("float32", "int32") or t.dtype != starts.dtype:
            raise TypeError(f"{name}: argument '{arg}' must be float32 or int32 (the dtype of 'starts', "
                            f"{starts.dtype}), got {t.dtype}")
        if t.rank > 1:
            raise ValueError(f"{name}: argument '{arg}' must be a scalar or a vector, got shape {list(t.shape)}")
        if t.rank == 1:
            sizes[arg] = t.shape[0]
    if len(set(sizes.values())) > 1:
        raise ValueError(f"{name}: arguments {', '.join(repr(k) for k in sizes)} must have the same length, got "
                         f"{list(sizes.values())}")
    return RaggedRangeResult(*ENGINE.run_kernel("RaggedRange", [starts, limits, deltas]))


@op
def ragged_tensor_to_tensor(shape: TensorLike, values: TensorLike, default_value: TensorLike,
                            row_partition_tensors: Sequence[TensorLike], row_partition_types: Sequence[str]) -> Tensor:
    """The dense tensor of a ragged one, padded with default_value and cut to shape.

    Args:
        shape: the result's shape, -1 sizes inferred (an int32 vector).
        values: the flat values.
        default_value: the padding value.
        row_partition_tensors: the row partitions.
        row_partition_types: their kinds ('ROW_SPLITS', 'VALUE_ROWIDS', 'FIRST_DIM_SIZE', ...).

    Returns:
        A new Tensor.

    Example:
        >>> tf.ragged_tensor_to_tensor(tf.tensor([-1, -1], dtype="int32"), tf.tensor([1, 2, 3]), tf.scalar(0),
        ...                            [tf.tensor([0, 2, 3], dtype="int32")], ["ROW_SPLITS"]).print()
        Tensor
            [[1, 2],
             [3, 0]]
    """
    name = "ragged_tensor_to_tensor"
    shape = _int32(shape, "shape", name, (0, 1), "a vector (or the scalar -1)")
    values = convert_to_tensor(values, "values", name)
    default = convert_to_tensor(default_value, "default_value", name, values.dtype)
    # (a FIRST_DIM_SIZE partition is a scalar, the others vectors)
    partitions = _tensor_list(row_partition_tensors, name, "row_partition_tensors", (0, 1), "a scalar or a vector")
    if isinstance(row_partition_types, str) or not isinstance(row_partition_types, (list, tuple)):
        raise TypeError(f"{name}: argument 'row_partition_types' must be a list of str, got "
                        f"{type(row_partition_types).__name__}")
    types = tuple(row_partition_types)
    if len(types) != len(partitions):
        raise ValueError(f"{name}: arguments 'row_partition_types' ({len(types)}) and 'row_partition_tensors' "
                         f"({len(partitions)}) must have the same length")
    for i, t in enumerate(types):
        if t not in _PARTITION_TYPES or (t == "FIRST_DIM_SIZE" and i) or (t == "VALUE_ROWIDS" and i == 0):
            raise ValueError(f"{name}: argument 'row_partition_types'[{i}] = {t!r} is not supported there (FIRST_DIM_SIZE "
                             f"may only come first; then ROW_SPLITS or VALUE_ROWIDS; VALUE_ROWIDS not first)")
    if types == ("FIRST_DIM_SIZE",):
        raise ValueError(f"{name}: argument 'row_partition_types' needs a partition after FIRST_DIM_SIZE")
    if values.rank < 1:
        raise ValueError(f"{name}: argument 'values' must have rank >= 1, got a scalar")
    if default.dtype != values.dtype:
        raise TypeError(f"{name}: argument 'default_value' must have the dtype of 'values' ({values.dtype}), "
                        f"got {default.dtype}")
    return ENGINE.run_kernel("RaggedTensorToTensor", [shape, values, default, *partitions],
                             {"row_partition_types": types})
