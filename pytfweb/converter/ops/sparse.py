"""Sparse: SparseFillEmptyRows, SparseReshape, SparseSegmentMean/Sum."""
from ... import ops as tfo
from ._table import table

OPS = table("sparse", {
    "SparseFillEmptyRows": (4, lambda x, a: list(tfo.sparse.sparse_fill_empty_rows(*x[:4]))),
    "SparseReshape": (3, lambda x, a: list(tfo.sparse.sparse_reshape(*x[:3]))),
    "SparseSegmentMean": (3, lambda x, a: tfo.sparse.sparse_segment_mean(*x[:3])),
    "SparseSegmentSum": (3, lambda x, a: tfo.sparse.sparse_segment_sum(*x[:3])),
})
