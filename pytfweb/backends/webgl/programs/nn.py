"""Softmax and LogSoftmax (along the last axis) and OneHot as shaders."""
import array
import math

from ....kernels import TensorInfo, register_kernel
from ....core.shapes import size_of
from ...gpu import shader_source
from .program import Program
from .reduction import reduce_passes


def _run(backend, section, names, inputs, shape):
    code = shader_source.program("nn.glsl", section)
    return backend.run(Program("nn:" + section, names, shape, code), inputs, "float32")


def _softmax(backend, x, log):
    """softmax(x) = exp(x - max) / sum(exp(x - max)) and log_softmax(x) = (x - max) - log(sum(...))
    along the last axis, as the cpu kernels compute them (NaN and inf included)."""
    if size_of(x.shape) == 0:
        return TensorInfo(backend.write(array.array("f"), x.shape, "float32"), x.shape, "float32")
    axes = [len(x.shape) - 1]
    row_shape = x.shape[:-1] + (1,)
    row_max = reduce_passes(backend, x, "reduce_Max", axes, row_shape)
    exps = _run(backend, "exp_shifted", ("x", "rowMax"), [x, row_max], x.shape)
    total = reduce_passes(backend, exps, "reduce_Sum", axes, row_shape)
    if log:
        out = _run(backend, "log_softmax", ("x", "rowMax", "total"), [x, row_max, total], x.shape)
    else:
        out = _run(backend, "softmax", ("exps", "total"), [exps, total], x.shape)
    for t in (row_max, exps, total):
        backend.dispose_data(t.data_id)
    return out


@register_kernel("Softmax", "webgl")
def softmax(backend, inputs, attrs):
    return _softmax(backend, inputs[0], log=False)


@register_kernel("LogSoftmax", "webgl")
def log_softmax(backend, inputs, attrs):
    return _softmax(backend, inputs[0], log=True)


def _as_dtype(v, dtype):
    """on_value/off_value as the output dtype stores them: numpy's astype, as on cpu, for finite
    values; infinities and NaN (undefined in numpy) give 0 as Cast does on webgl."""
    if dtype == "bool":
        return 1.0 if v else 0.0
    if dtype == "int32":
        return float(math.trunc(v)) if math.isfinite(v) else 0.0
    return v


@register_kernel("OneHot", "webgl")
def one_hot(backend, inputs, attrs):
    (indices,) = inputs
    depth, dtype = attrs["depth"], attrs["dtype"]
    code = f"#define DEPTH {depth}\n" + shader_source.program("nn.glsl", "one_hot")
    program = Program("nn:one_hot", ("indices",), indices.shape + (depth,), code,
                      (("onValue", "float"), ("offValue", "float")))
    values = (_as_dtype(attrs["on_value"], dtype), _as_dtype(attrs["off_value"], dtype))
    return backend.run(program, inputs, dtype, values)
