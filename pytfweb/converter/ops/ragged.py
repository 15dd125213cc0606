"""Ragged tensors: RaggedGather, RaggedRange, RaggedTensorToTensor (TF.js 4.22 lists these ops but
its converter does not map them)."""
from ... import ops as tfo
from ._table import table


def gather(x, a):
    splits, dense = tfo.ragged_gather(x[:-2], x[-2], x[-1], a.int("OUTPUT_RAGGED_RANK"))
    return [*splits, dense]


def to_tensor(x, a):
    return tfo.ragged_tensor_to_tensor(x[0], x[1], x[2], x[3:], a.strs("row_partition_types"))


OPS = table("ragged", {
    "RaggedGather": (3, gather),
    "RaggedRange": (3, lambda x, a: list(tfo.ragged_range(x[0], x[1], x[2]))),
    "RaggedTensorToTensor": (4, to_tensor),
})
