"""The activations the fused kernels (_FusedMatMul, FusedConv2D, FusedDepthwiseConv2D) take in
attrs["activation"]: every backend implements each of them in its epilogue (contract in
ops/fused.py)."""

ACTIVATIONS = ("linear", "relu", "relu6", "elu", "sigmoid", "leakyrelu", "prelu")
