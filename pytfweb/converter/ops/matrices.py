"""Matrices: MatMul and its batched and fused forms, Transpose, Einsum, MatrixBandPart."""
from ... import ops as tfo
from ...ops.fused import ACTIVATIONS
from ._table import int_, ints, table
from .convolution import _activate, _apply_unfused, fused_args


def mat_mul(transpose_a, transpose_b):
    return lambda x, a: tfo.mat_mul(x[0], x[1], a.bool(transpose_a, False), a.bool(transpose_b, False))


def fused_mat_mul(x, a):
    bias, norm, activation, prelu, alpha = fused_args(x, a)
    if norm is not None:
        raise NotImplementedError(f"graph model: node '{a.node}' (_FusedMatMul) fuses FusedBatchNorm, which TensorFlow "
                                  f"does not define for MatMul")
    ta, tb = a.bool("transpose_a", False), a.bool("transpose_b", False)
    if activation in ACTIVATIONS:
        return tfo.fused.mat_mul(x[0], x[1], ta, tb, bias=bias, activation=activation,
                                 prelu_activation_weights=prelu, leakyrelu_alpha=alpha)
    y = tfo.mat_mul(x[0], x[1], ta, tb)
    y = tfo.add(y, bias) if bias is not None else y
    return _apply_unfused(y, activation, a) if activation not in ACTIVATIONS else _activate(y, activation, prelu, alpha)


OPS = table("matrices", {
    "MatMul": (2, mat_mul("transpose_a", "transpose_b")),
    "BatchMatMul": (2, mat_mul("adj_x", "adj_y")),
    "BatchMatMulV2": (2, mat_mul("adj_x", "adj_y")),
    "_FusedMatMul": (2, fused_mat_mul),
    "Transpose": (2, lambda x, a: tfo.transpose(x[0], ints(x[1]))),
    "Einsum": (1, lambda x, a: tfo.einsum(a.str("equation"), *x)),
    "MatrixBandPart": (3, lambda x, a: tfo.linalg.band_part(x[0], int_(x[1]), int_(x[2]))),
})
