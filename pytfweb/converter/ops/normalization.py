"""Normalization: FusedBatchNorm (inference), LRN, Softmax, LogSoftmax, EuclideanNorm."""
from ... import ops as tfo
from ._table import ints, table
from .convolution import _batch_norm


def fused_batch_norm(x, a):
    if a.bool("is_training", False) and a.has("is_training"):
        raise NotImplementedError(f"graph model: node '{a.node}' ({a.op}) is in training mode; pytfweb runs batch "
                                  f"norm for inference (is_training false), as TF.js's converter writes it")
    value, scale, offset, mean, variance = x[:5]
    return _batch_norm(value, mean, variance, offset, scale, a.float("epsilon", 1e-3),
                       a.str("data_format", "NHWC").upper())


def lrn(x, a):
    return tfo.local_response_normalization(x[0], a.int("depth_radius", 5), a.float("bias", 1.0),
                                            a.float("alpha", 1.0), a.float("beta", 0.5))


OPS = table("normalization", {
    "FusedBatchNorm": (5, fused_batch_norm),
    "FusedBatchNormV2": (5, fused_batch_norm),
    "FusedBatchNormV3": (5, fused_batch_norm),
    "LRN": (1, lrn),
    "Softmax": (1, lambda x, a: tfo.softmax(x[0])),
    "LogSoftmax": (1, lambda x, a: tfo.log_softmax(x[0])),
    "EuclideanNorm": (2, lambda x, a: tfo.euclidean_norm(x[0], ints(x[1]), a.bool("keep_dims", False))),
})
