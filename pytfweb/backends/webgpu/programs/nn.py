"""Softmax and LogSoftmax over the last axis (contract in ops/nn.py) as WGSL
(backends/webgpu/shaders/nn.wgsl): a workgroup per row."""
from ....kernels import register_kernel
from .. import wgsl
from ..program import Program, _size
from .elementwise import BACKEND

# op_Log leaves NaN to the unary program: it is passed on here
_FINISH = {"Softmax": "expNan(s) / sum", "LogSoftmax": "select(s - op_Log(sum), sum, isNan(sum))"}


def _softmax_kernel(name):
    def kernel(backend, inputs, attrs):
        (x,) = inputs
        shape = tuple(x.shape)
        if _size(shape) == 0:
            return backend.empty(shape, "float32")
        n = shape[-1] if shape else 1
        rows = _size(shape) // n
        fields = (("rows", "i32"), ("n", "i32"))

        def source():
            helpers = wgsl.functions((wgsl.COMMON, "isNan"), (wgsl.COMMON, "nan"), (wgsl.COMMON, "inf"),
                                     ("unary_ops.wgsl", "op_Exp"), ("unary_ops.wgsl", "op_Log"))
            text = wgsl.program("nn.wgsl", "softmax").replace("FINISH", _FINISH[name])
            return helpers + wgsl.bindings("f32", (("x", "f32"),), fields) + text

        return backend.run(Program(f"softmax:{name}", source, fields), [x], shape, "float32", (rows, n),
                           backend.groups_for(rows, 1))
    return kernel


register_kernel("Softmax", BACKEND, _softmax_kernel("Softmax"))
register_kernel("LogSoftmax", BACKEND, _softmax_kernel("LogSoftmax"))
