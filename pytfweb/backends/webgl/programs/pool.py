"""Pooling kernels as shaders (contract in ops/pool.py): MaxPool, AvgPool, MaxPool3D, AvgPool3D,
MaxPoolWithArgmax and the four grads.

Every kernel runs as a 3D pooling: a 2D one sees x as [batch, 1, height, width, channels]
(a free reshape) with a window of depth 1. The window's geometry is compiled in (loops with
constant bounds), so each geometry compiles once; the gradient of MaxPool is two programs,
as in TF.js: the maxima's window offsets, then each dy sent to its offset.
"""
import array

from ....core.dtypes import TYPECODES
from ....kernels import TensorInfo, register_kernel
from ....core.shapes import size_of
from ...gpu import shader_source
from .program import Program
from .slicing import defines, share


def _as_3d(shape):
    return tuple(shape) if len(shape) == 5 else (shape[0], 1, *shape[1:])


def _geometry(attrs, x_shape):
    """The defines of backends/webgl/shaders/pool.glsl for a pooling of x_shape (rank 4 or 5) with attrs."""
    def axes(values, unit):
        return [unit] * (3 - len(values)) + list(values)
    in_shape = _as_3d(x_shape)
    per_axis = {"FILTER": axes(attrs["filter_size"], 1), "STRIDE": axes(attrs["strides"], 1),
                "DILATION": axes(attrs["dilations"], 1), "PAD": axes(attrs["pad"], 0),
                "IN": list(in_shape[1:4]), "OUT": axes(attrs["out_size"], 1)}
    macros = {f"{name}_{axis}": v for name, values in per_axis.items() for axis, v in zip("DHW", values)}
    return defines(CHANNELS=in_shape[4], **macros)


def _out_shape(attrs, x_shape):
    return (x_shape[0], *attrs["out_size"], x_shape[-1])


def _section(name):
    return shader_source.program("pool.glsl", name)


def _run(backend, code, names, inputs, out_shape, dtype):
    """Run code on inputs seen in 3D; the result in out_shape (rank 4 or 5)."""
    views = [share(t, _as_3d(t.shape)) for t in inputs]
    # The geometry is part of the code, so the code itself is the key.
    out = backend.run(Program("pool:" + code, names, _as_3d(out_shape), code), views, dtype)
    return share(out, out_shape)


def _constant(backend, value, shape, dtype):
    """A tensor of one value written directly (no input values to read: x is empty)."""
    values = array.array(TYPECODES[dtype], [value]) * size_of(shape)
    return TensorInfo(backend.write(values, shape, dtype), tuple(shape), dtype)


# The maximum of a window with no position inside x (explicit padding can make one), as TF.js:
# -Infinity (0 once stored in int32). Its mean is NaN (0 / 0) and its argmax -1.
_LOWEST = {"float32": float("-inf"), "int32": 0}


def _glsl_float(v):
    if v != v:
        return "NAN"
    return "-INFINITY" if v == float("-inf") else repr(float(v))


def _pool(backend, x, attrs, accumulator, position, result, dtype, empty, **flags):
    """One pooling program; `empty` is the output for windows that hold no position of x,
    written directly when x has no values to read at all; flags are more #defines."""
    out_shape = _out_shape(attrs, x.shape)
    if size_of(x.shape) == 0 and size_of(out_shape):
        return _constant(backend, empty, out_shape, dtype)
    code = (_geometry(attrs, x.shape) + defines(POSITION=position, RESULT=result, EMPTY=_glsl_float(empty), **flags) +
            _section(accumulator + "_accumulator") + _section("pool"))
    return _run(backend, code, ("x",), [x], out_shape, dtype)


def _max_values(backend, x, attrs):
    return _pool(backend, x, attrs, "max", "k", "bestAt < 0 ? EMPTY : best", x.dtype, _LOWEST[x.dtype])


def _max_positions(backend, x, attrs, position="k", last_on_ties=False):
    """int32: where each window's maximum is (its offset in the window, or `position`)."""
    flags = {"LAST_ON_TIES": 1} if last_on_ties else {}
    return _pool(backend, x, attrs, "max", position, "float(bestAt)", "int32", -1, **flags)


def _max_pool(backend, inputs, attrs):
    return _max_values(backend, inputs[0], attrs)


def _avg_pool(backend, inputs, attrs):
    # a window with no position in x: NaN (0 / 0) in 2-D, 0 in 3-D, as TF.js's cpu backend
    empty = float("nan") if len(attrs["filter_size"]) == 2 else 0.0
    return _pool(backend, inputs[0], attrs, "avg", "k", "count > 0.0 ? total / count : EMPTY", "float32", empty)


def _pool_grad(backend, term, names, inputs, attrs, x_shape):
    code = (_geometry(attrs, x_shape) + shader_source.function("pool.glsl", "insideCount") +
            _section(term + "_pool_grad_term") + _section("pool_grad"))
    return _run(backend, code, names, inputs, x_shape, "float32")


def _max_pool_grad(backend, inputs, attrs):
    dy, x = inputs
    # TF.js's maxPool3d gradient sends dy to the last maximum of a window, its maxPool's to the first
    positions = _max_positions(backend, x, attrs, last_on_ties=len(attrs["filter_size"]) == 3)
    dx = _pool_grad(backend, "max", ("dy", "positions"), [dy, positions], attrs, x.shape)
    backend.dispose_data(positions.data_id)
    return dx


def _avg_pool_grad(backend, inputs, attrs):
    (dy,) = inputs
    return _pool_grad(backend, "avg", ("dy",), [dy], attrs, tuple(attrs["x_shape"]))


for _suffix in ("", "3D"):
    register_kernel("MaxPool" + _suffix, "webgl", _max_pool)
    register_kernel("AvgPool" + _suffix, "webgl", _avg_pool)
    register_kernel(f"MaxPool{_suffix}Grad", "webgl", _max_pool_grad)
    register_kernel(f"AvgPool{_suffix}Grad", "webgl", _avg_pool_grad)


@register_kernel("MaxPoolWithArgmax", "webgl")
def max_pool_with_argmax(backend, inputs, attrs):
    (x,) = inputs
    # x is 2D pooled as 3D with a depth of 1: xd is always 0.
    batch = "c.x" if attrs["include_batch_in_index"] else "0"
    index = f"((({batch} * IN_D + xd) * IN_H + xh) * IN_W + xw) * CHANNELS + c.u"
    return [_max_values(backend, x, attrs), _max_positions(backend, x, attrs, index)]
