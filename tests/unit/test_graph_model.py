"""tf.load_graph_model / GraphModel: TF.js graph models (GraphDef JSON + weights), built here with
tests/graph_builder.py in the exact form TF.js's converter writes, run by pytfweb on the cpu backend
and compared with TensorFlow.js 4.22 itself (run under node on the same files) or, where TF.js is
known to differ from TensorFlow, with numpy."""
import asyncio
import json

import numpy as np
import pytest

import pytfweb as tf
from pytfweb.converter import ops as graph_ops
from tests.graph_builder import (REPO, GraphBuilder, dt, dts, f, flag, func, i, ints, run_tfjs, s, shape, strs,
                                 tensor_info, tfjs_array, tfjs_available, tfjs_test_model)
from tests.graph_models import mobilenet_v1, mobilenet_v2_block, numpy_lstm, tf1_lstm, tf2_while_lstm

F32, I32, BOOL = dt("float32"), dt("int32"), dt("bool")


def rng_():
    return np.random.default_rng(7)


def _load(builder, signature=None, **kw):
    return tf.load_graph_model_sync(tf.io.from_memory(builder.artifacts(signature=signature, **kw)))


def _tensors(inputs):
    if isinstance(inputs, dict):
        return {k: tf.tensor(v) for k, v in inputs.items()}
    return [tf.tensor(v) for v in inputs]


def _num_tensors():
    return tf.memory()["num_tensors"]


def _assert_close(got, want, rtol=1e-5, atol=1e-5, what=""):
    got, want = np.asarray(got), np.asarray(want)
    assert got.shape == want.shape, f"{what}: shape {got.shape} != {want.shape}"
    if want.dtype.kind in "fc":
        np.testing.assert_allclose(got, want, rtol=rtol, atol=atol, err_msg=what)
    else:
        np.testing.assert_array_equal(got, want, err_msg=what)


# --- the ops, one small graph each ----------------------------------------------------------------------
def X(a, dtype=None):
    """A fed input."""
    return ("x", np.asarray(a, dtype=dtype))


def C(a, dtype=None):
    """A constant (in the weights manifest)."""
    return ("c", np.asarray(a, dtype=dtype))


R = np.random.default_rng(3)


def rnd(*dims, lo=-2.0, hi=2.0):
    return R.uniform(lo, hi, dims).astype(np.float32)


def rint(*dims, lo=-5, hi=6):
    return R.integers(lo, hi, dims).astype(np.int32)


def case(id_, op, ins, attrs=None, n_out=1, mode="execute", expect=None, peer=True, build=None, tol=1e-5,
         outputs=None):
    return dict(id=id_, op=op, ins=ins, attrs=attrs or {}, n_out=n_out, mode=mode, expect=expect, peer=peer,
                build=build, tol=tol, outputs=outputs)


def unary(op, lo=-2.0, hi=2.0):
    return case(op, op, [X(rnd(2, 3, lo=lo, hi=hi))], {"T": F32})


def binary(op, a=None, b=None, dtype=F32):
    return case(op, op, [X(rnd(2, 3) if a is None else a), X(rnd(3) if b is None else b)], {"T": dtype})


CONV = dict(T=F32, data_format=s("NHWC"), dilations=ints([1, 1, 1, 1]), explicit_paddings=ints([]))


def conv(strides=1, padding="SAME", **kw):
    return {**CONV, "strides": ints([1, strides, strides, 1]), "padding": s(padding), **kw}


def fused(ops_, nargs, **kw):
    return dict(fused_ops=strs(ops_), num_args=i(nargs), epsilon=f(0.0), leakyrelu_alpha=f(0.3), **kw)


def pool(k, st, padding="VALID", dims=2):
    one = [1]
    return dict(T=F32, ksize=ints(one + [k] * dims + one), strides=ints(one + [st] * dims + one),
                padding=s(padding), data_format=s("NHWC" if dims == 2 else "NDHWC"))


def _band(x, lo, hi):
    m, n = x.shape[-2:]
    ii, jj = np.meshgrid(np.arange(m), np.arange(n), indexing="ij")
    keep = ((lo < 0) | (ii - jj <= lo)) & ((hi < 0) | (jj - ii <= hi))
    return [np.where(keep, x, 0).astype(x.dtype)]


def _fake_quant(x, lo, hi, bits=8):
    qmax = 2 ** bits - 1
    scale = (hi - lo) / qmax
    zero = np.floor(-lo / scale + 0.5)
    nmin, nmax = -zero * scale, (qmax - zero) * scale
    return [(np.floor((np.clip(x, nmin, nmax) - nmin) / scale + 0.5) * scale + nmin).astype(np.float32)]


def _chain_complex(op_after):
    def build(b, ins):
        c = b.op("Complex", "complex", ins, T=F32, Tout=dt("complex64"))
        y = b.op(op_after, "fft", [c], Tcomplex=dt("complex64"))
        return [b.op("ComplexAbs", "abs", [y], T=dt("complex64"), Tout=F32),
                b.op("Real", "re", [y], T=dt("complex64"), Tout=F32)]
    return build


def _rfft_build(b, ins):
    y = b.op("RFFT", "rfft", [ins[0], b.const("n", np.int32([8]))], Treal=F32, Tcomplex=dt("complex64"))
    back = b.op("IRFFT", "irfft", [y, b.const("n2", np.int32([8]))], Treal=F32, Tcomplex=dt("complex64"))
    return [b.op("ComplexAbs", "abs", [y], T=dt("complex64"), Tout=F32), back]


X44 = rnd(1, 4, 4, 2)
BOXES = np.float32([[0, 0, 1, 1], [0, 0.1, 1, 1.1], [0, -0.1, 1, 0.9], [0, 10, 1, 11], [0, 10.1, 1, 11.1],
                    [0, 100, 1, 101]])
SCORES = np.float32([0.9, 0.75, 0.6, 0.95, 0.5, 0.3])

CASES = [
    # arithmetic
    *[binary(op) for op in ("Add", "AddV2", "Sub", "Mul", "RealDiv", "Maximum", "Minimum", "SquaredDifference")],
    binary("Pow", rnd(2, 3, lo=0.5, hi=2), rnd(3, lo=-2, hi=2)),
    binary("Div", rint(2, 3), np.int32([2, -3, 4]), I32),
    binary("DivNoNan", rnd(2, 3), np.float32([0, 2, -1])),
    binary("FloorDiv", rint(2, 3), np.int32([2, -3, 4]), I32),
    binary("Mod", rnd(2, 3, lo=-5, hi=5), np.float32([2, -3, 1.5])),
    binary("FloorMod", rint(2, 3), np.int32([2, -3, 4]), I32),
    case("BiasAdd", "BiasAdd", [X(rnd(2, 2, 2, 3)), C(rnd(3))], {"T": F32, "data_format": s("NHWC")}),
    case("BiasAdd_NCHW", "BiasAdd", [X(rnd(2, 3, 2, 2)), C(np.float32([1, 2, 3]))],
         {"T": F32, "data_format": s("NCHW")}, peer=False,
         expect=lambda x, b: [x + b.reshape(3, 1, 1)]),
    case("AddN", "AddN", [X(rnd(2, 3)), X(rnd(2, 3)), C(rnd(2, 3))], {"T": F32, "N": i(3)}),
    # basic math
    *[unary(op) for op in ("Abs", "Atan", "Ceil", "Cos", "Cosh", "Elu", "Exp", "Floor", "Neg", "Relu", "Relu6",
                           "Round", "Selu", "Sigmoid", "Sin", "Sinh", "Square", "Tan", "Tanh", "Sign", "Expm1",
                           "Softplus", "Asinh", "Erf", "Reciprocal")],
    *[unary(op, -0.9, 0.9) for op in ("Acos", "Asin", "Atanh")],
    *[unary(op, 0.1, 3.0) for op in ("Log", "Sqrt", "Rsqrt", "Log1p")],
    unary("Acosh", 1.1, 3.0),
    *[case(op, op, [X(np.float32([1, np.nan, np.inf, -np.inf, 0]))], {"T": F32}) for op in ("IsNan", "IsInf", "IsFinite")],
    case("Atan2", "Atan2", [X(rnd(2, 3)), X(rnd(2, 3))], {"T": F32}),
    case("ClipByValue", "ClipByValue", [X(rnd(2, 3)), C(np.float32(-0.5)), C(np.float32(0.7))], {"T": F32}),
    case("LeakyRelu", "LeakyRelu", [X(rnd(2, 3))], {"T": F32, "alpha": f(0.1)}),
    case("Prelu", "Prelu", [X(rnd(2, 3)), C(np.float32([0.1, 0.2, 0.3]))], {"T": F32}),
    case("Complex_ComplexAbs_Real", "Complex", [X(rnd(3)), X(rnd(3))], build=lambda b, ins: [
        b.op("ComplexAbs", "abs", [b.op("Complex", "c", ins, T=F32)], Tout=F32),
        b.op("Real", "re", ["c"], Tout=F32), b.op("Imag", "im", ["c"], Tout=F32)]),
    # logical
    *[binary(op, rint(2, 3, lo=0, hi=3), rint(3, lo=0, hi=3), I32)
      for op in ("Equal", "NotEqual", "Greater", "GreaterEqual", "Less", "LessEqual")],
    *[case(op, op, [X(R.random((2, 3)) > 0.5), X(R.random(3) > 0.5)], {}) for op in ("LogicalAnd", "LogicalOr")],
    case("LogicalNot", "LogicalNot", [X(R.random((2, 3)) > 0.5)]),
    case("Select", "Select", [X(R.random((2, 3)) > 0.5), X(rnd(2, 3)), X(rnd(2, 3))], {"T": F32}),
    case("SelectV2", "SelectV2", [X(R.random(3) > 0.5), X(rnd(2, 3)), X(rnd(2, 1))], {"T": F32}),
    # TF.js reads BitwiseAnd's inputs under the wrong names (null): numpy is the reference
    case("BitwiseAnd", "BitwiseAnd", [X(rint(5, lo=0, hi=100)), X(rint(5, lo=0, hi=100))], {"T": I32}, peer=False,
         expect=lambda a, b: [np.bitwise_and(a, b)]),
    # convolution
    case("Conv2D", "Conv2D", [X(rnd(2, 5, 5, 3)), C(rnd(3, 3, 3, 4))], conv(2)),
    case("Conv2D_dilated", "Conv2D", [X(rnd(1, 7, 7, 2)), C(rnd(3, 3, 2, 3))],
         {**conv(1, "VALID"), "dilations": ints([1, 2, 2, 1])}),
    case("Conv2D_explicit", "Conv2D", [X(rnd(1, 5, 5, 2)), C(rnd(3, 3, 2, 3))],
         {**conv(1, "EXPLICIT"), "explicit_paddings": ints([0, 0, 1, 2, 2, 1, 0, 0])}),
    case("_FusedConv2D_bias", "_FusedConv2D", [X(rnd(1, 5, 5, 3)), C(rnd(3, 3, 3, 4)), C(rnd(4))],
         {**conv(1), **fused(["BiasAdd"], 1)}),
    *[case(f"_FusedConv2D_{act}", "_FusedConv2D", [X(rnd(1, 4, 4, 3)), C(rnd(1, 1, 3, 4)), C(rnd(4))],
           {**conv(1), **fused(["BiasAdd", act], 1)}) for act in ("Relu", "Relu6", "Elu", "LeakyRelu", "Sigmoid")],
    case("_FusedConv2D_prelu", "_FusedConv2D", [X(rnd(1, 4, 4, 3)), C(rnd(1, 1, 3, 4)), C(rnd(4)),
                                                C(np.float32([0.1, 0.2, 0.3, 0.4]))],
         {**conv(1), **fused(["BiasAdd", "Prelu"], 2)}),
    case("_FusedConv2D_batchnorm", "_FusedConv2D", [X(rnd(1, 4, 4, 2)), C(rnd(1, 1, 2, 3)), C(np.float32([1, 2, 0.5])),
                                                    C(np.float32([0.1, 0, -0.1])), C(np.float32([0.2, 0, 0.1])),
                                                    C(np.float32([1, 2, 3]))],
         {**conv(1), **fused(["FusedBatchNorm", "Relu"], 4), "epsilon": f(0.001)}, peer=False,
         expect=lambda x, w, sc, of, mn, vr: [np.maximum(
             (np.einsum("nhwc,cd->nhwd", x, w[0, 0]) - mn) * sc / np.sqrt(vr + 0.001) + of, 0)]),
    case("DepthwiseConv2dNative", "DepthwiseConv2dNative", [X(rnd(1, 5, 5, 2)), C(rnd(3, 3, 2, 2))], conv(2)),
    case("FusedDepthwiseConv2dNative", "FusedDepthwiseConv2dNative",
         [X(rnd(1, 5, 5, 2)), C(rnd(3, 3, 2, 1)), C(rnd(2))], {**conv(1), **fused(["BiasAdd", "Relu"], 1)}),
    case("Conv2DBackpropInput", "Conv2DBackpropInput", [C(np.int32([1, 4, 4, 2])), C(rnd(3, 3, 2, 3)),
                                                        X(rnd(1, 2, 2, 3))], conv(2)),
    case("Conv1D", "Conv1D", [X(rnd(2, 7, 3)), C(rnd(3, 3, 4))], {"T": F32, "stride": i(2), "padding": s("SAME"),
                                                                "data_format": s("NWC"), "dilation": i(1)}),
    case("DepthwiseConv2d", "DepthwiseConv2d", [X(rnd(1, 5, 5, 2)), C(rnd(3, 3, 2, 1))], conv(1, "VALID")),
    case("Conv3D", "Conv3D", [X(rnd(1, 4, 4, 4, 2)), C(rnd(2, 2, 2, 2, 3))],
         {"T": F32, "strides": ints([1, 1, 1, 1, 1]), "padding": s("SAME"), "data_format": s("NDHWC"),
          "dilations": ints([1, 1, 1, 1, 1])}),
    case("AvgPool", "AvgPool", [X(rnd(1, 5, 5, 2))], pool(3, 2, "SAME")),
    case("MaxPool", "MaxPool", [X(rnd(1, 5, 5, 2))], pool(2, 2)),
    case("MaxPoolWithArgmax", "MaxPoolWithArgmax", [X(rnd(1, 4, 4, 2))],
         {**pool(2, 2), "Targmax": dt("int64"), "include_batch_in_index": flag(False)}, n_out=2),
    case("AvgPool3D", "AvgPool3D", [X(rnd(1, 4, 4, 4, 2))], pool(2, 2, dims=3)),
    case("MaxPool3D", "MaxPool3D", [X(rnd(1, 4, 4, 4, 2))], pool(2, 1, "SAME", dims=3)),
    case("Dilation2D", "Dilation2D", [X(rnd(1, 5, 5, 2)), C(rnd(2, 2, 2))],
         {"T": F32, "strides": ints([1, 1, 1, 1]), "rates": ints([1, 2, 2, 1]), "padding": s("SAME")}),
    # matrices
    case("MatMul", "MatMul", [X(rnd(3, 2)), C(rnd(3, 4))], {"T": F32, "transpose_a": flag(True),
                                                            "transpose_b": flag(False)}),
    case("BatchMatMulV2", "BatchMatMulV2", [X(rnd(2, 3, 4)), X(rnd(1, 5, 4))], {"T": F32, "adj_x": flag(False),
                                                                                "adj_y": flag(True)}),
    case("BatchMatMul", "BatchMatMul", [X(rnd(2, 3, 4)), X(rnd(2, 4, 2))], {"T": F32}),
    case("_FusedMatMul", "_FusedMatMul", [X(rnd(2, 3)), C(rnd(3, 4)), C(rnd(4))],
         {"T": F32, "transpose_a": flag(False), "transpose_b": flag(False), **fused(["BiasAdd", "Relu6"], 1)}),
    case("_FusedMatMul_prelu", "_FusedMatMul", [X(rnd(2, 3)), C(rnd(3, 4)), C(rnd(4)), C(rnd(4, lo=0, hi=0.5))],
         {"T": F32, "transpose_a": flag(False), "transpose_b": flag(False), **fused(["BiasAdd", "Prelu"], 2)}),
    case("Transpose", "Transpose", [X(rnd(2, 3, 4)), C(np.int32([2, 0, 1]))], {"T": F32, "Tperm": I32}),
    case("Einsum", "Einsum", [X(rnd(2, 3)), X(rnd(3, 4))], {"T": F32, "equation": s("ij,jk->ik"), "N": i(2)}),
    case("MatrixBandPart", "MatrixBandPart", [X(rnd(4, 4)), C(np.int32(1)), C(np.int32(0))], {"T": F32,
         "Tindex": I32}, peer=False, expect=lambda x, lo, hi: _band(x, int(lo), int(hi))),
    # normalization
    *[case(op, op, [X(rnd(2, 2, 2, 3)), C(np.float32([1, 2, 0.5])), C(np.float32([0.1, 0, -0.1])),
                    C(np.float32([0.2, 0, 0.1])), C(np.float32([1, 2, 3]))],
           {"T": F32, "U": F32, "epsilon": f(0.01), "data_format": s("NHWC"), "is_training": flag(False)})
      for op in ("FusedBatchNorm", "FusedBatchNormV2", "FusedBatchNormV3")],
    case("LRN", "LRN", [X(rnd(1, 2, 2, 6))], {"T": F32, "depth_radius": i(2), "bias": f(1.5), "alpha": f(0.3),
                                                "beta": f(0.75)}),
    case("Softmax", "Softmax", [X(rnd(2, 5))], {"T": F32}),
    case("LogSoftmax", "LogSoftmax", [X(rnd(2, 5))], {"T": F32}),
    case("EuclideanNorm", "EuclideanNorm", [X(rnd(2, 3, 4)), C(np.int32([0, 2]))], {"T": F32, "keep_dims": flag(True)}),
    # reduction
    *[case(op, op, [X(rnd(2, 3, 4)), C(np.int32([1]))], {"T": F32, "keep_dims": flag(op == "Sum")})
      for op in ("Max", "Mean", "Min", "Sum", "Prod")],
    *[case(op, op, [X(R.random((2, 3)) > 0.4), C(np.int32(1))], {"keep_dims": flag(False)}) for op in ("All", "Any")],
    *[case(op, op, [X(rnd(3, 4)), C(np.int32(1))], {"T": F32, "output_type": I32}) for op in ("ArgMax", "ArgMin")],
    case("Cumsum", "Cumsum", [X(rnd(2, 4)), C(np.int32(1))], {"T": F32, "exclusive": flag(True), "reverse": flag(True)}),
    case("Cumprod", "Cumprod", [X(rnd(2, 4)), C(np.int32(1))], {"T": F32, "exclusive": flag(False),
                                                                 "reverse": flag(False)}),
    case("Bincount", "Bincount", [X(np.int32([1, 1, 3, 0, 5])), C(np.int32(6)), C(np.float32([1, 2, 3, 4, 5]))],
         {"T": F32}),
    case("DenseBincount", "DenseBincount", [X(np.int32([1, 1, 3, 0, 5])), C(np.int32(6)), C(np.float32([]))],
         {"T": F32, "Tidx": I32, "binary_output": flag(False)}),
    # TF.js's cpu kernel ignores binary_output for a vector x (counts 2 for the repeated 1); numpy is the reference
    case("DenseBincount_binary", "DenseBincount", [X(np.int32([1, 1, 3, 0, 5])), C(np.int32(6)), C(np.float32([]))],
         {"T": F32, "Tidx": I32, "binary_output": flag(True)}, peer=False,
         expect=lambda x, n, w: [np.float32(np.bincount(x, minlength=6) > 0)]),
    # slice and join
    case("ConcatV2", "ConcatV2", [X(rnd(2, 3)), X(rnd(2, 2)), C(np.int32(1))], {"T": F32, "N": i(2)}),
    case("Concat", "Concat", [C(np.int32(0)), X(rnd(2, 3)), X(rnd(1, 3))], {"T": F32, "N": i(2)}),
    case("GatherV2", "GatherV2", [X(rnd(3, 4)), C(np.int32([2, 0, 2])), C(np.int32(1))],
         {"Tparams": F32, "Tindices": I32, "batch_dims": i(0)}),
    case("GatherV2_batch", "GatherV2", [X(rnd(2, 4)), C(np.int32([[1, 0], [3, 3]])), C(np.int32(1))],
         {"Tparams": F32, "Tindices": I32, "batch_dims": i(1)}),
    case("Gather", "Gather", [X(rnd(4, 2)), C(np.int32([3, 1]))], {"Tparams": F32}),
    case("Reverse", "Reverse", [X(rnd(2, 3)), C(np.bool_([False, True]))], {"T": F32}),
    case("ReverseV2", "ReverseV2", [X(rnd(2, 3, 2)), C(np.int32([0, 2]))], {"T": F32}),
    case("Slice", "Slice", [X(rnd(3, 4)), C(np.int32([1, 1])), C(np.int32([2, -1]))], {"T": F32}),
    case("StridedSlice", "StridedSlice", [X(rnd(4, 5, 3)), C(np.int32([1, 0, -1])), C(np.int32([4, 5, 0])),
                                          C(np.int32([2, 1, -1]))],
         {"T": F32, "Index": I32, "begin_mask": i(2), "end_mask": i(4), "ellipsis_mask": i(0), "new_axis_mask": i(0),
          "shrink_axis_mask": i(0)}),
    case("StridedSlice_newaxis", "StridedSlice", [X(rnd(4, 3)), C(np.int32([0, 0, 1])), C(np.int32([0, 0, 3])),
                                                  C(np.int32([1, 1, 1]))],
         {"T": F32, "Index": I32, "begin_mask": i(1), "end_mask": i(1), "ellipsis_mask": i(0), "new_axis_mask": i(2),
          "shrink_axis_mask": i(0)}),
    # TF.js 4.22's stridedSlice returns x[1, 0:3:2... ] here (strides with a shrunk axis); numpy is the reference
    case("StridedSlice_shrink", "StridedSlice", [X(rnd(4, 5, 3)), C(np.int32([1, 0, 0])), C(np.int32([4, 5, 2])),
                                                 C(np.int32([2, 2, 1]))],
         {"T": F32, "Index": I32, "begin_mask": i(0), "end_mask": i(2), "ellipsis_mask": i(0), "new_axis_mask": i(0),
          "shrink_axis_mask": i(4)}, peer=False, expect=lambda x, *_: [x[1:4:2, 0:5:2, 0]]),
    case("Pack", "Pack", [X(rnd(2, 3)), X(rnd(2, 3))], {"T": F32, "N": i(2), "axis": i(1)}),
    case("Unpack", "Unpack", [X(rnd(3, 2))], {"T": F32, "num": i(3), "axis": i(0)}, n_out=3),
    case("Tile", "Tile", [X(rnd(2, 3)), C(np.int32([2, 1]))], {"T": F32}),
    case("Split", "Split", [C(np.int32(1)), X(rnd(2, 4))], {"T": F32, "num_split": i(2)}, n_out=2),
    case("SplitV", "SplitV", [X(rnd(5, 2)), C(np.int32([1, -1])), C(np.int32(0))], {"T": F32, "num_split": i(2)},
         n_out=2),
    case("ScatterNd", "ScatterNd", [C(np.int32([[0], [2]])), X(rnd(2, 3)), C(np.int32([4, 3]))], {"T": F32}),
    case("GatherNd", "GatherNd", [X(rnd(3, 4)), C(np.int32([[0, 1], [2, 3]]))], {"Tparams": F32}),
    case("SparseToDense", "SparseToDense", [C(np.int32([[0, 1], [2, 0]])), C(np.int32([3, 3])), X(rnd(2)),
                                            C(np.float32(-1))], {"T": F32}),
    case("TensorScatterUpdate", "TensorScatterUpdate", [X(rnd(4, 2)), C(np.int32([[1], [3]])), X(rnd(2, 2))],
         {"T": F32}),
    # transformation
    case("Cast", "Cast", [X(rnd(2, 3, lo=-3, hi=3))], {"SrcT": F32, "DstT": I32, "Truncate": flag(False)}),
    case("ExpandDims", "ExpandDims", [X(rnd(2, 3)), C(np.int32(-1))], {"T": F32}),
    case("Squeeze", "Squeeze", [X(rnd(1, 3, 1, 2))], {"T": F32, "squeeze_dims": ints([0])}),
    case("Reshape", "Reshape", [X(rnd(2, 6)), C(np.int32([3, -1]))], {"T": F32}),
    case("EnsureShape", "EnsureShape", [X(rnd(2, 3))], {"T": F32, "shape": shape([-1, 3])}, peer=False,
         expect=lambda x: [x]),
    case("MirrorPad_reflect", "MirrorPad", [X(rnd(3, 4)), C(np.int32([[1, 2], [2, 1]]))], {"T": F32, "mode": s("REFLECT")}),
    case("MirrorPad_symmetric", "MirrorPad", [X(rnd(3, 4)), C(np.int32([[1, 2], [2, 1]]))],
         {"T": F32, "mode": s("SYMMETRIC")}),
    case("Pad", "Pad", [X(rnd(2, 3)), C(np.int32([[1, 0], [0, 2]]))], {"T": F32}),
    case("PadV2", "PadV2", [X(rnd(2, 3)), C(np.int32([[1, 0], [0, 2]])), C(np.float32(7))], {"T": F32}),
    case("SpaceToBatchND", "SpaceToBatchND", [X(rnd(1, 4, 4, 1)), C(np.int32([2, 2])), C(np.int32([[0, 0], [0, 0]]))],
         {"T": F32}),
    case("BatchToSpaceND", "BatchToSpaceND", [X(rnd(4, 2, 2, 1)), C(np.int32([2, 2])), C(np.int32([[0, 0], [0, 1]]))],
         {"T": F32}),
    case("DepthToSpace", "DepthToSpace", [X(rnd(1, 2, 2, 8))], {"T": F32, "block_size": i(2), "data_format": s("NHWC")}),
    case("BroadcastTo", "BroadcastTo", [X(rnd(3, 1)), C(np.int32([2, 3, 4]))], {"T": F32}),
    case("BroadcastArgs", "BroadcastArgs", [C(np.int32([3, 1])), C(np.int32([2, 1, 4]))], {"T": I32}),
    # creation
    case("Fill", "Fill", [C(np.int32([2, 3])), X(np.float32(1.5))], {"T": F32, "index_type": I32}),
    case("LinSpace", "LinSpace", [C(np.float32(-1)), X(np.float32(2)), C(np.int32(7))], {"T": F32, "Tidx": I32}),
    case("OneHot", "OneHot", [X(np.int32([0, 2, -1, 1])), C(np.int32(3)), C(np.float32(5)), C(np.float32(-1))],
         {"T": F32, "TI": I32, "axis": i(-1)}),
    case("OneHot_axis0", "OneHot", [X(np.int32([0, 2, 1])), C(np.int32(3)), C(np.float32(1)), C(np.float32(0))],
         {"T": F32, "TI": I32, "axis": i(0)}, peer=False,
         expect=lambda idx, d, on, off: [np.eye(3, dtype=np.float32)[idx].T]),
    case("Ones", "Ones", [X(np.int32([2, 3]))], {"T": F32}),
    case("Zeros", "Zeros", [X(np.int32([3]))], {"T": I32}),
    case("OnesLike", "OnesLike", [X(rnd(2, 3))], {"T": F32}),
    case("ZerosLike", "ZerosLike", [X(rint(2, 3))], {"T": I32}),
    case("Range", "Range", [C(np.int32(2)), X(np.int32(11)), C(np.int32(3))], {"Tidx": I32}),
    case("Range_float", "Range", [C(np.float32(0)), C(np.float32(1)), X(np.float32(0.25))], {"Tidx": F32}),
    # evaluation
    case("TopKV2", "TopKV2", [X(rnd(2, 6)), C(np.int32(3))], {"T": F32, "sorted": flag(True)}, n_out=2),
    case("Unique", "Unique", [X(np.int32([3, 1, 3, 2, 1]))], {"T": I32, "out_idx": I32}, n_out=2),
    case("UniqueV2", "UniqueV2", [X(np.int32([[1, 2], [1, 2], [3, 4]])), C(np.int32([0]))], {"T": I32}, n_out=2),
    case("LowerBound", "LowerBound", [X(np.float32([[1, 3, 5, 7]])), X(np.float32([[0, 3, 6, 9]]))], {"T": F32}),
    case("UpperBound", "UpperBound", [X(np.float32([[1, 3, 5, 7]])), X(np.float32([[0, 3, 6, 9]]))], {"T": F32}),
    # image
    case("ResizeBilinear", "ResizeBilinear", [X(X44), C(np.int32([6, 3]))],
         {"T": F32, "align_corners": flag(True), "half_pixel_centers": flag(False)}),
    case("ResizeBilinear_half", "ResizeBilinear", [X(X44), C(np.int32([7, 5]))],
         {"T": F32, "align_corners": flag(False), "half_pixel_centers": flag(True)}),
    case("ResizeNearestNeighbor", "ResizeNearestNeighbor", [X(X44), C(np.int32([6, 3]))],
         {"T": F32, "align_corners": flag(False), "half_pixel_centers": flag(True)}),
    case("CropAndResize", "CropAndResize", [X(X44), C(np.float32([[0, 0, 1, 1], [0.2, 0.1, 0.8, 0.9]])),
                                            C(np.int32([0, 0])), C(np.int32([3, 3]))],
         {"T": F32, "method": s("bilinear"), "extrapolation_value": f(0)}),
    case("ImageProjectiveTransformV3", "ImageProjectiveTransformV3",
         [X(X44), C(np.float32([[1, 0.1, 0.5, 0, 1, -0.5, 0, 0]])), C(np.int32([4, 4])), C(np.float32(0))],
         {"dtype": F32, "interpolation": s("BILINEAR"), "fill_mode": s("CONSTANT")}),
    # spectral
    case("FFT", "FFT", [X(rnd(2, 4)), X(rnd(2, 4))], build=_chain_complex("FFT"), tol=1e-4),
    case("IFFT", "IFFT", [X(rnd(2, 4)), X(rnd(2, 4))], build=_chain_complex("IFFT"), tol=1e-4),
    case("RFFT_IRFFT", "RFFT", [X(rnd(2, 8))], build=_rfft_build, tol=1e-4),
    # sparse
    case("SparseFillEmptyRows", "SparseFillEmptyRows", [C(np.int32([[0, 0], [1, 0], [1, 3], [3, 2]])),
                                                        X(np.float32([1, 2, 3, 4])), C(np.int32([5, 6])),
                                                        C(np.float32(-1))], {"T": F32}, n_out=4),
    case("SparseReshape", "SparseReshape", [X(np.int32([[0, 0], [0, 1], [1, 2]])), C(np.int32([2, 3])),
                                            C(np.int32([3, -1]))], {}, n_out=2),
    case("SparseSegmentSum", "SparseSegmentSum", [X(rnd(4, 2)), C(np.int32([0, 1, 3])), C(np.int32([0, 0, 1]))],
         {"T": F32}),
    case("SparseSegmentMean", "SparseSegmentMean", [X(rnd(4, 2)), C(np.int32([0, 1, 3])), C(np.int32([0, 0, 1]))],
         {"T": F32}),
    # strings
    case("StringSplit", "StringSplit", [X(np.array(["a b  c", "de"])), C(np.array([" "]).reshape(()))],
         {"skip_empty": flag(True)}, n_out=3),
    case("StringToHashBucketFast", "StringToHashBucketFast", [X(np.array(["hello", "world", ""]))],
         {"num_buckets": i(100)}),
    case("StaticRegexReplace", "StaticRegexReplace", [X(np.array(["aaa bab", "xyz"]))],
         {"pattern": s("a+"), "rewrite": s("-"), "replace_global": flag(True)}),
    case("StringNGrams", "StringNGrams", [X(np.array(["a", "b", "c", "d"])), C(np.int32([0, 3, 4]))],
         {"separator": s(" "), "ngram_widths": ints([2]), "left_pad": s(""), "right_pad": s(""), "pad_width": i(0),
          "preserve_short_sequences": flag(False), "Tsplits": I32}, n_out=2),
    # dynamic shapes (execute_async)
    case("NonMaxSuppressionV2", "NonMaxSuppressionV2", [X(BOXES), X(SCORES), C(np.int32(3)), C(np.float32(0.5))],
         {"T": F32}, mode="executeAsync"),
    case("NonMaxSuppressionV3", "NonMaxSuppressionV3", [X(BOXES), X(SCORES), C(np.int32(3)), C(np.float32(0.5)),
                                                        C(np.float32(0.0))], {"T": F32}, mode="executeAsync"),
    case("NonMaxSuppressionV4", "NonMaxSuppressionV4", [X(BOXES), X(SCORES), C(np.int32(5)), C(np.float32(0.5)),
                                                        C(np.float32(0.55))],
         {"T": F32, "pad_to_max_output_size": flag(True)}, n_out=2, mode="executeAsync"),
    case("NonMaxSuppressionV5", "NonMaxSuppressionV5", [X(BOXES), X(SCORES), C(np.int32(4)), C(np.float32(0.5)),
                                                        C(np.float32(0.0)), C(np.float32(0.5))],
         {"T": F32}, n_out=2, mode="executeAsync", tol=1e-4),
    case("Where", "Where", [X(rnd(3, 4))], {"T": F32}, mode="executeAsync"),
    case("ListDiff", "ListDiff", [X(np.int32([1, 2, 3, 4, 5])), X(np.int32([2, 4]))], {"T": I32, "out_idx": I32},
         n_out=2, mode="executeAsync"),
    # graph plumbing
    case("Identity", "Identity", [X(rnd(2))], {"T": F32}),
    case("IdentityN", "IdentityN", [X(rnd(2)), X(rint(3))], {"T": dts(["float32", "int32"])}, n_out=2),
    case("Snapshot", "Snapshot", [X(rnd(2))], {"T": F32}),
    case("StopGradient", "StopGradient", [X(rnd(2))], {"T": F32}),
    case("Shape", "Shape", [X(rnd(2, 3, 1))], {"T": F32, "out_type": I32}),
    case("ShapeN", "ShapeN", [X(rnd(2, 3)), X(rnd(4))], {"T": F32, "N": i(2), "out_type": I32}, n_out=2),
    case("Size", "Size", [X(rnd(2, 3))], {"T": F32, "out_type": I32}),
    case("Rank", "Rank", [X(rnd(2, 3))], {"T": F32}),
    case("FakeQuantWithMinMaxVars", "FakeQuantWithMinMaxVars", [X(rnd(2, 5, lo=-8, hi=8)), C(np.float32(-6)),
                                                                C(np.float32(6))], {"num_bits": i(8)}, peer=False,
         expect=lambda x, lo, hi: _fake_quant(x, -6.0, 6.0)),
    case("PlaceholderWithDefault", "PlaceholderWithDefault", [C(rnd(2, 2))], {"dtype": F32, "shape": shape([2, 2])},
         build=lambda b, ins: [b.op("Relu", "out", [b.op("PlaceholderWithDefault", "pwd", ins, dtype=F32,
                                                         shape=shape([2, 2]))], T=F32)]),
    case("NoOp", "NoOp", [], {}),
    # ragged (TF.js 4.22 lists these but does not map them)
    case("RaggedGather", "RaggedGather", [C(np.int32([0, 2, 3, 3])), X(np.float32([1, 2, 3])), C(np.int32([2, 0]))],
         {"Tvalues": F32, "Tindices": I32, "Tsplits": I32, "PARAMS_RAGGED_RANK": i(1), "OUTPUT_RAGGED_RANK": i(1)},
         n_out=2, peer=False, expect=lambda sp, v, ix: [np.int32([0, 0, 2]), np.float32([1, 2])]),
    case("RaggedRange", "RaggedRange", [X(np.int32([0, 5])), X(np.int32([3, 7])), C(np.int32([1, 1]))],
         {"T": I32, "Tsplits": I32}, n_out=2, peer=False,
         expect=lambda a, b, d: [np.int32([0, 3, 5]), np.int32([0, 1, 2, 5, 6])]),
    case("RaggedTensorToTensor", "RaggedTensorToTensor", [C(np.int32([2, 3])), X(np.float32([1, 2, 3])),
                                                          C(np.float32(0)), C(np.int32([0, 2, 3]))],
         {"T": F32, "Tindex": I32, "Tshape": I32, "num_row_partition_tensors": i(1),
          "row_partition_types": strs(["ROW_SPLITS"])}, peer=False,
         expect=lambda sh, v, d, sp: [np.float32([[1, 2, 0], [3, 0, 0]])]),
]
CASE_IDS = [c["id"] for c in CASES]


def _build_case(c):
    b = GraphBuilder()
    names, feeds = [], {}
    for k, (kind, value) in enumerate(c["ins"]):
        dtype = {"f": "float32", "i": "int32", "b": "bool", "U": "string", "S": "string"}[value.dtype.kind]
        if kind == "x":
            names.append(b.placeholder(f"x{k}", list(value.shape), dtype))
            feeds[f"x{k}"] = value
        else:
            names.append(b.const(f"c{k}", value, dtype))
    if c["build"] is not None:
        outputs = c["build"](b, names)
    else:
        b.op(c["op"], "op", names, **c["attrs"])
        outputs = ["op"] if c["n_out"] == 1 else [f"op:{k}" for k in range(c["n_out"])]
    return b, feeds, outputs


@pytest.fixture(scope="module")
def tfjs_ops():
    """Every peer case run by TF.js 4.22 under node."""
    if not tfjs_available():
        pytest.skip("node and node_modules/@tensorflow/tfjs (npm ci) are needed to run TensorFlow.js")
    cases = []
    for c in CASES:
        if not c["peer"]:
            continue
        b, feeds, outputs = _build_case(c)
        cases.append({"artifacts": b.artifacts(), "inputs": feeds, "outputs": outputs, "mode": c["mode"]})
    results = run_tfjs(cases)
    return dict(zip([c["id"] for c in CASES if c["peer"]], results))


def _run(model, feeds, outputs, mode):
    if mode == "executeAsync":
        return asyncio.run(model.execute_async(feeds, outputs))
    return model.execute(feeds, outputs)


@pytest.mark.parametrize("c", CASES, ids=CASE_IDS)
def test_op_matches_tfjs(c, request):
    b, feeds, outputs = _build_case(c)
    model = _load(b)
    inputs = {k: tf.tensor(v) for k, v in feeds.items()}
    before = _num_tensors()
    out = _run(model, inputs, outputs, c["mode"])
    out = out if isinstance(out, list) else [out]
    assert _num_tensors() == before + len(out), "intermediate tensors leaked"
    got = [o.numpy() for o in out]
    if c["peer"]:
        rec = request.getfixturevalue("tfjs_ops")[c["id"]]
        assert "error" not in rec, f"TF.js failed: {rec['error']}"
        want = [tfjs_array(r) for r in rec["outputsValues"]]
        assert len(want) == len(got) or c["op"] == "NonMaxSuppressionV5"
    else:
        values = [v for _, v in c["ins"]]
        want = c["expect"](*values)
    for k, (g, w) in enumerate(zip(got, want)):
        if w.dtype == object:
            w = w.astype(str)
        _assert_close(g, w, c["tol"], c["tol"], f"{c['id']} output {k}")
    tf.dispose(out)
    # The second run replays the kernels the first recorded (a static graph; others run again
    # node by node): the same values, and nothing more held by the third run than by the second.
    again = _run(model, inputs, outputs, c["mode"])
    again = again if isinstance(again, list) else [again]
    for k, (a, g) in enumerate(zip(again, got)):
        np.testing.assert_array_equal(a.numpy(), g, err_msg=f"{c['id']} output {k}, replayed")
    tf.dispose(again)
    held = tf.memory()["num_bytes"]
    tf.dispose(_run(model, inputs, outputs, c["mode"]))
    assert tf.memory()["num_bytes"] == held
    model.dispose()
    tf.dispose(list(inputs.values()))
    assert _num_tensors() == 0
    assert tf.memory()["num_bytes"] == 0


def test_op_coverage_is_tfjs_op_list():
    """Every TensorFlow op TF.js 4.22's converter lists (its op_list) has an executor here, except
    TF Decision Forests' three SimpleML ops."""
    import re
    names = set()
    for p in (REPO / "node_modules/@tensorflow/tfjs-converter/dist/operations/op_list").glob("*.js"):
        names |= set(re.findall(r"'tfOpName': '([A-Za-z0-9_]+)'", p.read_text()))
    if not names:
        pytest.skip("node_modules/@tensorflow/tfjs-converter is needed for its op list")
    missing = names - set(graph_ops.OPS)
    assert missing == {"SimpleMLCreateModelResource", "SimpleMLInferenceOpWithHandle",
                       "SimpleMLLoadModelFromPathWithHandle"}
    tested = {c["op"] for c in CASES}
    assert len(tested) > 150


def test_random_ops_shapes_and_ranges():
    b = GraphBuilder()
    shp = b.const("shape", np.int32([200, 3]))
    b.op("RandomUniform", "u", [shp], dtype=F32, T=I32, seed=i(0), seed2=i(0))
    b.op("RandomStandardNormal", "n", [shp], dtype=F32, T=I32, seed=i(5), seed2=i(0))
    b.op("TruncatedNormal", "t", [shp], dtype=F32, T=I32, seed=i(0), seed2=i(0))
    b.op("RandomUniformInt", "ui", [shp, b.const("lo", np.int32(-3)), b.const("hi", np.int32(4))], Tout=I32, T=I32)
    b.op("Multinomial", "m", [b.const("logits", np.log(np.float32([[0.5, 0.5, 1e-9]]))), b.const("k", np.int32(50))],
         T=F32, output_dtype=I32, seed=i(0))
    model = _load(b)
    u, n, t, ui, m = (x.numpy() for x in model.execute({}, ["u", "n", "t", "ui", "m"]))
    assert u.shape == n.shape == t.shape == ui.shape == (200, 3) and m.shape == (1, 50)
    assert 0 <= u.min() and u.max() < 1 and abs(n.mean()) < 0.3 and np.abs(t).max() <= 2
    assert ui.dtype == np.int32 and -3 <= ui.min() and ui.max() < 4 and set(m.ravel()) <= {0, 1}
    seeded = [model.execute({}, "n").numpy() for _ in range(2)]
    np.testing.assert_array_equal(*seeded)


# --- the models ---------------------------------------------------------------------------------------------
MODELS = {
    "mobilenet_v1": (mobilenet_v1, "predict", None),
    "mobilenet_v2_block": (mobilenet_v2_block, "predict", None),
    "tf1_lstm": (tf1_lstm, "executeAsync", ["rnn/outputs", "rnn/final_h", "rnn/final_c"]),
    "tf2_while_lstm": (tf2_while_lstm, "executeAsync", ["outputs", "final_h"]),
}


@pytest.fixture(scope="module")
def tfjs_models():
    if not tfjs_available():
        pytest.skip("node and node_modules/@tensorflow/tfjs (npm ci) are needed to run TensorFlow.js")
    cases = []
    for name, (fn, mode, outputs) in MODELS.items():
        b, sig, inputs = fn(rng_())
        cases.append({"artifacts": b.artifacts(signature=sig), "inputs": inputs, "outputs": outputs, "mode": mode})
    return dict(zip(MODELS, run_tfjs(cases)))


def _describe(model):
    return {"modelVersion": model.model_version, "inputNodes": model.input_nodes, "outputNodes": model.output_nodes,
            "inputs": [{"name": t.name, "shape": t.shape, "dtype": t.dtype} for t in model.inputs]}


@pytest.mark.parametrize("name", list(MODELS))
def test_model_matches_tfjs(name, tfjs_models):
    fn, mode, outputs = MODELS[name]
    b, sig, inputs = fn(rng_())
    model = _load(b, sig)
    rec = tfjs_models[name]
    assert "error" not in rec, rec.get("error")
    assert _describe(model) == {k: rec[k] for k in ("modelVersion", "inputNodes", "outputNodes", "inputs")}
    feeds = _tensors(inputs)
    before = _num_tensors()
    if mode == "predict":
        out = model.predict(feeds)
    else:
        out = asyncio.run(model.execute_async(feeds, outputs))
    out = out if isinstance(out, list) else [out]
    assert _num_tensors() == before + len(out)
    for k, (o, r) in enumerate(zip(out, rec["outputsValues"])):
        _assert_close(o.numpy(), tfjs_array(r), 1e-5, 1e-6, f"{name} output {k}")
    tf.dispose(out)
    model.dispose()
    tf.dispose(list(feeds.values()))
    assert _num_tensors() == 0


def _tf2_stateful(rng):
    return tf2_while_lstm(rng, while_op="While")


@pytest.mark.parametrize("fn", [tf1_lstm, tf2_while_lstm, _tf2_stateful], ids=["tf1", "tf2", "tf2_While"])
def test_lstm_loops_compute_the_lstm(fn):
    b, sig, inputs = fn(rng_())
    kernel, bias = (w[1] for w in b.weights if w[0] in ("rnn/kernel", "rnn/bias", "kernel", "bias"))
    seq, h, _ = numpy_lstm(inputs["x"], inputs["h0"], kernel, bias)
    model = _load(b, sig)
    outputs = ["rnn/outputs", "rnn/final_h"] if fn is tf1_lstm else ["outputs", "final_h"]
    feeds = _tensors(inputs)
    got_seq, got_h = asyncio.run(model.execute_async(feeds, outputs))
    _assert_close(got_seq.numpy(), seq, 1e-5, 1e-6)
    _assert_close(got_h.numpy(), h, 1e-5, 1e-6)
    # execute() cannot run loops: it says which node and what to do instead
    with pytest.raises(RuntimeError, match=r"(Enter|Merge|Switch|While|TensorArray|TensorList).*execute_async"):
        model.execute(feeds, outputs)
    assert _num_tensors() == 2 + len(b.weights) + 2
    tf.dispose([got_seq, got_h])
    # predict_async returns the signature's outputs
    out = asyncio.run(model.predict_async(feeds))
    assert len(out) == len(model.output_nodes)
    tf.dispose(out)
    model.dispose()
    tf.dispose(list(feeds.values()))
    assert _num_tensors() == 0


def test_mobilenet_execute_intermediate_outputs_and_inputs():
    b, _, inputs = mobilenet_v1(rng_())
    model = _load(b)
    x = tf.tensor(inputs["input"])
    full = model.predict(x)
    # an intermediate node as output, then fed back as an input (TF.js's partial execution)
    mid, probs = model.execute({"input": x}, ["pool/avg", "output"])
    assert mid.shape == (2, 1, 1, 16)
    _assert_close(probs.numpy(), full.numpy())
    again = model.execute({"pool/avg": mid}, "output")
    _assert_close(again.numpy(), full.numpy())
    # a list of inputs in input_nodes order, and "name:0" tensor names
    by_list = model.execute([x], ["output:0"])
    _assert_close(by_list.numpy(), full.numpy())
    np.testing.assert_allclose(full.numpy().sum(axis=1), 1, rtol=1e-5)
    tf.dispose([full, mid, probs, again, by_list, x])
    model.dispose()
    assert _num_tensors() == 0


def test_signature_keys_and_async_on_a_static_graph():
    b, sig, inputs = mobilenet_v2_block(rng_())
    model = _load(b, sig)
    assert model.input_nodes == ["input_1"] and model.output_nodes == ["probs"]
    assert model.outputs[0].name == "Softmax" and model.outputs[0].shape == [-1, 4]
    assert model.outputs[0]["dtype"] == "float32" and model.signature == sig
    x = tf.tensor(inputs["input_1"])
    a = model.predict({"input_1": x})
    b_ = model.execute({"x": x}, "probs")
    c = asyncio.run(model.execute_async(x))
    for t in (b_, c):
        np.testing.assert_array_equal(t.numpy(), a.numpy())
    tf.dispose([a, b_, c, x])
    model.dispose()
    assert _num_tensors() == 0


def test_structured_outputs_from_metadata():
    b, sig, inputs = mobilenet_v2_block(rng_())
    b.op("ArgMax", "label", ["Softmax", b.const("axis", np.int32(1))], T=F32, output_type=I32)
    sig["outputs"]["label"] = tensor_info("label:0", "int32", [-1])
    model = _load(b, sig, metadata={"structuredOutputKeys": ["probs", "label"]})
    out = model.predict(tf.tensor(inputs["input_1"]))
    assert set(out) == {"probs", "label"}
    np.testing.assert_array_equal(out["label"].numpy(), out["probs"].numpy().argmax(1))


def test_intermediates_are_disposed_as_soon_as_no_node_needs_them():
    """A chain of 40 ops: when a probe op in the middle runs, only a handful of tensors are alive
    (TF.js frees each intermediate after its last reader too)."""
    seen = []
    graph_ops.register_op("Probe", lambda node: (seen.append(_num_tensors()), tf.clone(node.inputs[0]))[1])
    try:
        b = GraphBuilder()
        h = b.placeholder("x", [4, 4])
        for k in range(40):
            h = b.op("Relu" if k % 2 else "Neg", f"n{k}", [h], T=F32)
            if k == 30:
                h = b.op("Probe", "probe", [h])
        model = _load(b)
        x = tf.tensor(np.ones((4, 4), np.float32))
        y = model.execute(x)
        assert seen and seen[0] <= 4, seen   # x, the probe's input (+ its clone), nothing of the 30 before
        assert _num_tensors() == 2
        tf.dispose([x, y])
    finally:
        graph_ops.deregister_op("Probe")
    assert graph_ops.get_registered_op("Probe") is None


def test_custom_op_with_attributes():
    tf.register_op("ScaleBy", lambda node: tf.mul(node.inputs[0], node.get_attr("factor")))
    try:
        b = GraphBuilder()
        b.op("ScaleBy", "y", [b.placeholder("x", [2])], factor=f(2.5))
        y = _load(b).execute(tf.tensor([1.0, -2.0]))
        np.testing.assert_allclose(y.numpy(), [2.5, -5.0])
    finally:
        tf.deregister_op("ScaleBy")


def _if_model(op="StatelessIf"):
    b = GraphBuilder()
    x = b.placeholder("x", [3])
    p = b.placeholder("p", [], "bool")
    then_b = GraphBuilder(producer=None)
    then_b.op("TopKV2", "top", ["a", then_b.const("k", np.int32(2))], T=F32, sorted=flag(True))
    then_b.op("Cast", "idx", ["top:indices:0"], SrcT=I32, DstT=F32)
    then_b.op("AddV2", "sum", ["top:values:0", "idx:y:0"], T=F32)
    b.function("then_fn", [("a", "float32")], [("out", "float32", "sum:z:0")], then_b)
    else_b = GraphBuilder(producer=None)
    else_b.op("Neg", "neg", ["a"], T=F32)
    else_b.op("Slice", "first2", ["neg:y:0", else_b.const("begin", np.int32([0])), else_b.const("size", np.int32([2]))],
              T=F32, Index=I32)
    b.function("else_fn", [("a", "float32")], [("out", "float32", "first2:output:0")], else_b)
    b.op(op, "if", [p, x], Tcond=BOOL, Tin=dts(["float32"]), Tout=dts(["float32"]),
         then_branch=func("then_fn"), else_branch=func("else_fn"), output_shapes={"list": {}})
    b.op("Identity", "out", ["if"], T=F32)
    return b


@pytest.mark.parametrize("op", ["StatelessIf", "If"])
def test_if_runs_the_branch_the_condition_picks(op):
    model = _load(_if_model(op))
    x = tf.tensor([1.0, 5.0, 3.0])
    for cond, want in ((True, [5 + 1, 3 + 2]), (False, [-1, -5])):
        p = tf.scalar(cond)
        y = asyncio.run(model.execute_async({"x": x, "p": p}))
        np.testing.assert_allclose(y.numpy(), want)
        tf.dispose([y, p])
    assert _num_tensors() == 1 + len(model.weights)
    with pytest.raises(RuntimeError, match=rf"node 'if' has the dynamic op '{op}'.*execute_async"):
        model.execute({"x": x, "p": tf.scalar(True)})


def test_if_matches_tfjs():
    if not tfjs_available():
        pytest.skip("node and node_modules/@tensorflow/tfjs are needed")
    b = _if_model()
    inputs = {"x": np.float32([1, 5, 3]), "p": np.bool_(True)}
    rec = run_tfjs([{"artifacts": b.artifacts(), "inputs": inputs, "mode": "executeAsync"}])[0]
    model = _load(b)
    y = asyncio.run(model.execute_async(_tensors(inputs)))
    # TF.js takes "top:indices:0" as output 0 of TopKV2 (the values): it reads 5 + 5, 3 + 3
    np.testing.assert_allclose(tfjs_array(rec["outputsValues"][0]), [10, 6])
    np.testing.assert_allclose(y.numpy(), [6, 5])


def test_tensor_list_and_tensor_array_ops():
    b = GraphBuilder()
    x = b.placeholder("x", [3, 2])
    es = b.const("es", np.int32([2]))
    tl = b.op("TensorListFromTensor", "tl", [x, es], element_dtype=F32)
    b.op("TensorListLength", "len", [tl])
    b.op("TensorListPushBack", "pushed", [tl, b.op("Neg", "neg_row", [b.op("TensorListGetItem", "item0", [
        tl, b.const("zero", np.int32(0)), es], element_dtype=F32)], T=F32)], element_dtype=F32)
    b.op("TensorListStack", "stacked", ["pushed", es], element_dtype=F32, num_elements=i(-1))
    b.op("TensorListGather", "gathered", ["pushed", b.const("idx", np.int32([2, 0])), es], element_dtype=F32)
    b.op("TensorListConcatV2", "concat", ["pushed", es, b.const("lead", np.int32([]).reshape(0))], element_dtype=F32)
    b.op("TensorListResize", "resized", ["pushed", b.const("two", np.int32(2))])
    b.op("TensorListStack", "resized_stack", ["resized", es], element_dtype=F32)
    # lists change in place (as in TF.js): the pop runs after every reader of the pushed list
    b.op("TensorListPopBack", "popped", ["pushed", es, "^stacked", "^gathered", "^concat", "^resized_stack"],
         element_dtype=F32)
    b.op("TensorListSplit", "split", [b.op("Reshape", "flat", [x, b.const("m1", np.int32([-1]))], T=F32), "m1",
                                      b.const("lens", np.int32([2, 4]))], element_dtype=F32)
    b.op("TensorListLength", "split_len", ["split"])
    b.op("TensorListScatterV2", "scattered", [x, b.const("order", np.int32([2, 0, 1])), es, b.const("four", np.int32(4))],
         element_dtype=F32)
    b.op("TensorListGather", "scattered_g", ["scattered", b.const("first3", np.int32([0, 1, 2])), es], element_dtype=F32)
    b.op("TensorListScatter", "scattered1", [x, b.const("order1", np.int32([1, 0, 2])), es], element_dtype=F32)
    b.op("TensorListStack", "scattered1_s", ["scattered1", es], element_dtype=F32)
    empty = b.op("EmptyTensorList", "empty", [b.const("es_rows", np.int32([-1, 2])), b.const("max2", np.int32(2))],
                 element_dtype=F32)
    b.op("TensorListPushBack", "one_more", [empty, b.op("Neg", "neg_x", [x], T=F32)], element_dtype=F32)
    b.op("TensorListConcat", "empty_concat", ["one_more"], element_dtype=F32, element_shape=shape([-1, 2]))
    ta = b.op("TensorArrayV3", "ta", [b.const("three", np.int32(3))], dtype=F32, element_shape=shape(None),
              dynamic_size=flag(False), clear_after_read=flag(False), identical_element_shapes=flag(True),
              tensor_array_name=s("arr"))
    flow = b.op("TensorArraySplitV3", "ta_split", [ta, x, b.const("ones", np.int32([1, 1, 1])), "ta:1"], T=F32)
    b.op("TensorArraySizeV3", "ta_size", [ta, flow])
    b.op("TensorArrayConcatV3", "ta_concat", [ta, flow], dtype=F32)
    b.op("TensorArrayReadV3", "ta_read", [ta, b.const("one", np.int32(1)), flow], dtype=F32)
    b.op("TensorArrayCloseV3", "ta_close", [ta, "^ta_read", "^ta_concat", "^ta_size"])
    model = _load(b)
    xv = np.float32([[1, 2], [3, 4], [5, 6]])
    xt = tf.tensor(xv)
    names = ["len", "stacked", "popped:1", "gathered", "concat", "resized_stack", "split_len", "ta_size", "ta_concat",
             "ta_concat:1", "ta_read", "scattered_g", "scattered1_s", "empty_concat", "empty_concat:1", "ta_close"]
    out = asyncio.run(model.execute_async({"x": xt}, names))
    got = dict(zip(names, (o.numpy() for o in out)))
    full = np.concatenate([xv, -xv[:1]])
    assert got["len"] == 3 and got["split_len"] == 2 and got["ta_size"] == 3
    np.testing.assert_array_equal(got["stacked"], full)
    np.testing.assert_array_equal(got["popped:1"], -xv[0])
    np.testing.assert_array_equal(got["gathered"], full[[2, 0]])
    np.testing.assert_array_equal(got["concat"], full.ravel())
    np.testing.assert_array_equal(got["resized_stack"], xv[:2])
    np.testing.assert_array_equal(got["ta_concat"], xv)
    np.testing.assert_array_equal(got["ta_concat:1"], [1, 1, 1])
    np.testing.assert_array_equal(got["ta_read"], xv[1:2])
    np.testing.assert_array_equal(got["scattered_g"], xv[[1, 2, 0]])
    np.testing.assert_array_equal(got["scattered1_s"], xv[[1, 0, 2]])
    np.testing.assert_array_equal(got["empty_concat"], -xv)
    np.testing.assert_array_equal(got["empty_concat:1"], [3])
    tf.dispose(out)
    assert _num_tensors() == 1 + len(model.weights)


@pytest.mark.parametrize("v", ["V2", "", "init"])
def test_hash_table_lookup(v):
    suffix = "V2" if v == "V2" else ""
    importer = "InitializeTableV2" if v == "init" else f"LookupTableImport{suffix}"
    b = GraphBuilder()
    table = b.op(f"HashTable{suffix}", "table", key_dtype=dt("string"), value_dtype=I32, shared_name=s("t"),
                 use_node_name_sharing=flag(False))
    init = b.op(importer, "import", [table, b.const("keys", np.array(["a", "b", "c"], dtype=object),
                                                                 "string"),
                                                  b.const("vals", np.int32([10, 20, 30]))], Tin=dt("string"), Tout=I32)
    b.op(f"LookupTableFind{suffix}", "find", [table, b.placeholder("q", [-1], "string"),
                                              b.const("default", np.int32(-1))], Tin=dt("string"), Tout=I32)
    b.nodes[-1]["input"].append(f"^{init}")
    b.op(f"LookupTableSize{suffix}", "size", [table])
    b.nodes[-1]["input"].append(f"^{init}")
    model = _load(b)
    q = tf.tensor(["c", "z", "a"])
    found, size = asyncio.run(model.execute_async({"q": q}, ["find", "size"]))
    np.testing.assert_array_equal(found.numpy(), [30, -1, 10])
    assert size.numpy() == 3
    with pytest.raises(RuntimeError, match="HashTable|LookupTable"):
        model.execute({"q": q}, ["find"])
    tf.dispose([found, size, q])
    model.dispose()
    assert _num_tensors() == 0
    if tfjs_available() and v == "V2":
        rec = run_tfjs([{"artifacts": b.artifacts(), "inputs": {"q": np.array(["c", "z", "a"])},
                         "outputs": ["find"], "mode": "executeAsync"}])[0]
        np.testing.assert_array_equal(tfjs_array(rec["outputsValues"][0]), [30, -1, 10])


def test_model_initializer_fills_a_table_once():
    init = GraphBuilder(producer=None)
    table = init.op("HashTableV2", "table", key_dtype=I32, value_dtype=F32, shared_name=s("t"))
    init.op("LookupTableImportV2", "import", [table, init.const("keys", np.int32([1, 2])),
                                              init.const("vals", np.float32([0.5, 1.5]))], Tin=I32, Tout=F32)
    init.op("Identity", "init_out", [table], T=dt("resource"))
    init.nodes[-1]["input"].append("^import")
    b = GraphBuilder()
    b.op("HashTableV2", "table", key_dtype=I32, value_dtype=F32, shared_name=s("t"))
    b.op("LookupTableFindV2", "find", ["table", b.placeholder("q", [-1], "int32"), b.const("d", np.float32(0))],
         Tin=I32, Tout=F32)
    art = b.artifacts()
    init_def = init.graph_def()
    art["weightSpecs"] += init.weight_data()[0]
    art["weightData"] += init.weight_data()[1]
    art["modelInitializer"] = init_def
    model = tf.load_graph_model_sync(tf.io.from_memory(art))
    for _ in range(2):
        q = tf.tensor([2, 7, 1], dtype="int32")
        y = asyncio.run(model.execute_async({"q": q}, "find"))
        np.testing.assert_array_equal(y.numpy(), [1.5, 0, 0.5])
        tf.dispose([y, q])
    model.dispose()
    assert _num_tensors() == 0


# --- loading --------------------------------------------------------------------------------------------------
def _small_model():
    b = GraphBuilder()
    b.op("Relu", "y", [b.op("MatMul", "mm", [b.placeholder("x", [-1, 2]), b.const("w", np.float32([[1, -2], [3, 4]]))],
                             T=F32, transpose_a=flag(False), transpose_b=flag(False))], T=F32)
    return b


def test_load_from_files_paths_and_pairs(tmp_path):
    b = _small_model()
    d = b.save(tmp_path / "m")
    x = tf.tensor([[1.0, 2.0]])
    models = [tf.load_graph_model_sync(str(d)), tf.load_graph_model_sync(str(d / "model.json")),
              tf.load_graph_model_sync(f"file://{d}"), asyncio.run(tf.load_graph_model(str(d))),
              tf.load_graph_model_sync(b.model_json()), tf.load_graph_model_sync(tf.io.ModelArtifacts(
                  model_topology=b.graph_def(), weight_specs=b.weight_data()[0], weight_data=b.weight_data()[1]))]
    for m in models:
        y = m.predict(x)
        np.testing.assert_allclose(y.numpy(), [[7, 6]])
        y.dispose()
        m.dispose()
    # the model saves its artifacts again, and they load
    m = tf.load_graph_model_sync(str(d))
    m.save_sync(str(tmp_path / "copy"))
    m.dispose()
    m2 = asyncio.run(tf.load_graph_model(f"file://{tmp_path / 'copy'}"))
    assert json.loads((tmp_path / "copy" / "model.json").read_text())["format"] == "graph-model"
    y = m2.predict(x)
    np.testing.assert_allclose(y.numpy(), [[7, 6]])
    tf.dispose([y, x])
    m2.dispose()
    assert _num_tensors() == 0


# --- errors -----------------------------------------------------------------------------------------------------
def _leak_free(fn, exc, match):
    before = _num_tensors()
    with pytest.raises(exc, match=match):
        fn()
    assert _num_tensors() == before


def test_errors_name_the_op_node_and_input():
    b = _small_model()
    b.op("FancyNewOp", "fancy", ["y"], T=F32)
    b.op("Relu", "ok", ["y"], T=F32)
    model = _load(b)
    x = tf.tensor([[1.0, 2.0]])
    _leak_free(lambda: model.execute(x, "fancy"), NotImplementedError, r"FancyNewOp.*'fancy'.*register_op")
    y = model.execute(x, "ok")  # the unsupported node is not needed here
    y.dispose()
    _leak_free(lambda: model.execute({}, "ok"), ValueError, r"missing the inputs \['x'\]")
    wide, ints_ = tf.tensor([[1.0, 2.0, 3.0]]), tf.tensor([[1, 2]], dtype="int32")
    _leak_free(lambda: model.execute(wide, "ok"), ValueError, r"input 'x' must have shape \[-1, 2\].*\[1, 3\]")
    _leak_free(lambda: model.execute(ints_, "ok"), TypeError, "input 'x' must be float32, got int32")
    tf.dispose([wide, ints_])
    _leak_free(lambda: model.execute({"nope": x}, "ok"), ValueError, "input 'nope' is not a node")
    _leak_free(lambda: model.execute(x, "nope"), ValueError, "output 'nope' is not found")
    _leak_free(lambda: model.execute([x, x], "ok"), ValueError, "has 1 input")
    _leak_free(lambda: model.execute({"x": [[1.0, 2.0]]}, "ok"), TypeError, "input 'x' must be a Tensor")
    # an op failing inside the graph names its node; nothing is left behind, and the model still runs
    bad = GraphBuilder()
    h = bad.op("Relu", "r", [bad.placeholder("x", [-1, -1])], T=F32)
    bad.op("Reshape", "bad_reshape", [h, bad.const("shape", np.int32([5]))], T=F32)
    model2 = _load(bad)
    _leak_free(lambda: model2.execute(x, "bad_reshape"), ValueError, "bad_reshape")
    ok = model2.execute(x, "r")
    ok.dispose()
    # wrong arity, wrong reference
    arity = GraphBuilder()
    arity.op("MatMul", "mm", [arity.placeholder("x", [-1, 2])], T=F32)
    _leak_free(lambda: _load(arity).execute(x, "mm"), ValueError, r"'mm' \(MatMul\) has 1 input.*needs 2")
    dangling = GraphBuilder()
    dangling.op("Relu", "r", ["ghost"], T=F32)
    _leak_free(lambda: _load(dangling), ValueError, "'r'.*reads 'ghost'")
    model.dispose()
    model2.dispose()
    x.dispose()
    assert _num_tensors() == 0


def test_load_errors_leave_nothing_behind():
    b = _small_model()
    art = b.artifacts()
    art["weightData"] = art["weightData"][:-4]
    _leak_free(lambda: tf.load_graph_model_sync(tf.io.from_memory(art)), ValueError, "weight 'w'")
    layers = {"modelTopology": {"class_name": "Sequential", "config": {}}, "format": "layers-model"}
    _leak_free(lambda: tf.load_graph_model_sync(tf.io.from_memory(layers)), ValueError, "load_layers_model")
    no_nodes = {"modelTopology": {"class_name": "Sequential"}}
    _leak_free(lambda: tf.load_graph_model_sync(tf.io.from_memory(no_nodes)), ValueError, "GraphDef")
    _leak_free(lambda: tf.load_graph_model_sync(None), ValueError, "model_url cannot be None")
    no_value = GraphBuilder()
    no_value.op("Const", "k", dtype=F32, value={"tensor": {"dtype": "DT_FLOAT", "tensorShape": {}}})
    no_value.op("Neg", "y", ["k"], T=F32)
    _leak_free(lambda: _load(no_value).execute({}, "y"), ValueError, r"constants \['k'\] have no value")
    m = _load(_small_model())
    m.dispose()
    x = tf.tensor([[1.0, 2.0]])
    _leak_free(lambda: m.execute(x), RuntimeError, "disposed")


def test_inline_constant_values_and_model_version():
    b = GraphBuilder(producer=27, min_consumer=None)
    b.versions = {"producer": 27}
    x = b.placeholder("x", [3], "int32")
    b.op("Mul", "y", [x, b.const("k", np.int32([2, 3, 4]), inline=True)], T=I32)
    b.op("Add", "z", ["y", b.const("one", np.int32(1), inline=True)], T=I32)
    model = _load(b)
    assert model.model_version == "27.undefined"
    z = model.execute(tf.tensor([1, 1, 1], dtype="int32"), "z")
    np.testing.assert_array_equal(z.numpy(), [3, 4, 5])
    assert set(model.weights) == {"k", "one"}


# --- models converted by TF.js's real converter (its own test data) -----------------------------------
def _real(module, export):
    artifacts = tfjs_test_model(module, export)
    if artifacts is None:
        pytest.skip("node and node_modules/@tensorflow/tfjs-converter are needed for TF.js's test models")
    return artifacts


def test_converted_hash_table_model_with_initializer_and_resource_input():
    """TF2 SavedModel with a StaticHashTable: the initializer graph fills the table and its output
    (resource id 66) feeds the main graph's resource placeholder."""
    artifacts = _real("hash_table_v2_model_loader.js", "HASH_TABLE_MODEL_V2")
    model = tf.load_graph_model_sync(tf.io.from_memory(artifacts))
    assert model.input_nodes == ["input", "unknown:0"] and model.output_nodes == ["output_0"]
    words = tf.tensor(["a", "b", "c"])
    y = asyncio.run(model.execute_async(words))
    y2 = asyncio.run(model.execute_async({"input": words}, "Identity"))
    rec = run_tfjs([{"artifacts": artifacts, "inputs": [np.array(["a", "b", "c"])], "mode": "executeAsync"}])[0]
    np.testing.assert_array_equal(y.numpy(), tfjs_array(rec["outputsValues"][0]))
    np.testing.assert_array_equal(y.numpy(), [0, 1, -1])
    np.testing.assert_array_equal(y2.numpy(), y.numpy())
    tf.dispose([y, y2, words])
    model.dispose()
    assert _num_tensors() == 0


def test_converted_structured_outputs_model():
    artifacts = _real("structured_outputs_model_loader.js", "STRUCTURED_OUTPUTS_MODEL")
    model = tf.load_graph_model_sync(tf.io.from_memory(artifacts))
    feeds = {"input1:0": np.float32([[1], [2]]), "input2:0": np.float32([[3], [4]]), "input3:0": np.float32([[5], [6]])}
    out = model.predict(_tensors(feeds))
    assert list(out) == ["a", "b", "c"] and model.model_version == "898.undefined"
    rec = run_tfjs([{"artifacts": artifacts, "inputs": feeds}])[0]
    for k, r in zip(out, rec["outputsValues"]):
        _assert_close(out[k].numpy(), tfjs_array(r))


def test_keep_intermediate_tensors_flag():
    b, _, inputs = mobilenet_v1(rng_())
    model = _load(b)
    x = tf.tensor(inputs["input"])
    y = model.predict(x)
    assert model.get_intermediate_tensors() is None
    tf.env().set("KEEP_INTERMEDIATE_TENSORS", True)
    y2 = model.predict(x)
    kept = model.get_intermediate_tensors()
    assert {"input", "conv0/w", "pool/avg", "output"} <= set(kept)
    np.testing.assert_array_equal(kept["output"][0].numpy(), y2.numpy())
    tf.env().set("KEEP_INTERMEDIATE_TENSORS", False)
    tb, sig, tin = tf1_lstm(rng_())
    loop = _load(tb)
    tf.env().set("KEEP_INTERMEDIATE_TENSORS", True)
    feeds = _tensors(tin)
    out = asyncio.run(loop.execute_async(feeds, "rnn/final_h"))
    assert "rnn/while/Identity_h-rnn/while/while_context-3" in loop.get_intermediate_tensors()
    for m in (model, loop):
        m.dispose_intermediate_tensors()
        assert m.get_intermediate_tensors() is None
        m.dispose()
    tf.dispose([x, y, y2, out, *feeds.values()])
    assert _num_tensors() == 0


def _tf1_cond():
    """tf.compat.v1.cond: Switch on the predicate, each branch behind an Identity pivot, Merge."""
    b = GraphBuilder()
    x = b.placeholder("x", [-1])
    p = b.placeholder("p", [], "bool")
    sw = b.op("Switch", "cond/Switch", [x, p], T=F32)
    pred_sw = b.op("Switch", "cond/pred_switch", [p, p], T=BOOL)
    then_pivot = b.op("Identity", "cond/switch_t", [f"{pred_sw}:1"], T=BOOL)
    else_pivot = b.op("Identity", "cond/switch_f", [f"{pred_sw}:0"], T=BOOL)
    two = b.const("cond/two", np.float32(2), control=[then_pivot])
    one = b.const("cond/one", np.float32(1), control=[else_pivot])
    t = b.op("Mul", "cond/then", [f"{sw}:1", two], T=F32)
    e = b.op("Sub", "cond/else", [f"{sw}:0", one], T=F32)
    b.op("Merge", "cond/Merge", [e, t], T=F32, N=i(2))
    b.op("Identity", "y", ["cond/Merge"], T=F32)
    b.op("Identity", "which", ["cond/Merge:1"], T=I32)
    return b


def test_tf1_cond_switch_merge_matches_tfjs():
    b = _tf1_cond()
    model = _load(b)
    x = tf.tensor([1.0, -2.0, 3.0])
    for flag_ in (True, False):
        p = tf.scalar(flag_)
        y, which = asyncio.run(model.execute_async({"x": x, "p": p}, ["y", "which"]))
        np.testing.assert_allclose(y.numpy(), [2, -4, 6] if flag_ else [0, -3, 2])
        assert which.numpy() == (1 if flag_ else 0)
        if tfjs_available():
            rec = run_tfjs([{"artifacts": b.artifacts(), "inputs": {"x": x.numpy(), "p": np.bool_(flag_)},
                             "outputs": ["y"], "mode": "executeAsync"}])[0]
            np.testing.assert_allclose(tfjs_array(rec["outputsValues"][0]), y.numpy())
        tf.dispose([y, which, p])
    assert _num_tensors() == 1 + len(model.weights)


def test_print_logs_and_passes_its_input(capsys):
    b = GraphBuilder()
    x = b.placeholder("x", [3])
    b.op("Print", "p", [x, x], T=F32, U=dts(["float32"]), message=s("values:"), summarize=i(2), first_n=i(-1))
    y = _load(b).execute(tf.tensor([1.0, 2.0, 3.0]))
    np.testing.assert_array_equal(y.numpy(), [1, 2, 3])
    assert "values: [1.0, 2.0]" in capsys.readouterr().out


def test_signature_outputs_of_one_node():
    """Two signature outputs reading outputs 0 and 1 of one node keep their own keys."""
    b = GraphBuilder()
    b.op("TopKV2", "StatefulPartitionedCall", [b.placeholder("x", [-1, 5]), b.const("k", np.int32(2))], T=F32,
         sorted=flag(True))
    sig = {"inputs": {"x": tensor_info("x:0", "float32", [-1, 5])},
           "outputs": {"top_values": tensor_info("StatefulPartitionedCall:0", "float32", [-1, 2]),
                       "top_indices": tensor_info("StatefulPartitionedCall:1", "int32", [-1, 2])}}
    model = _load(b, sig)
    assert model.output_nodes == ["top_values", "top_indices"]
    assert [(o.dtype, o.shape) for o in model.outputs] == [("float32", [-1, 2]), ("int32", [-1, 2])]
    values, indices = model.predict(tf.tensor([[1.0, 5.0, 3.0, 4.0, 2.0]]))
    np.testing.assert_array_equal(values.numpy(), [[5, 4]])
    np.testing.assert_array_equal(indices.numpy(), [[1, 3]])
