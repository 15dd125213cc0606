"""Fill, ZerosLike, OnesLike, Range, LinSpace as shaders: the values are drawn, not uploaded."""
import array

from ....core.dtypes import TYPECODES
from ....kernels import TensorInfo, register_kernel
from ....core.shapes import size_of
from ...gpu import shader_source
from .program import Program


def _fill(backend, shape, value, dtype):
    if dtype == "complex64":   # a float32 real part and a zero imaginary part
        return backend.make_complex(_fill(backend, shape, value, "float32"), _fill(backend, shape, 0.0, "float32"))
    if len(shape) > 6:         # past the shaders' ranks: host values (they upload if a shader reads them)
        values = array.array(TYPECODES[dtype], [value]) * size_of(shape)
        return TensorInfo(backend.write(values, tuple(shape), dtype), tuple(shape), dtype)
    # Shapeless: the code never looks at coordinates, so one compile serves every shape (an
    # optimizer's slots start as zeros of each variable's shape: one program, not one per variable).
    code = shader_source.program("creation.glsl", "fill")
    return backend.run(Program("fill", (), shape, code, (("value", "float"),), shapeless=True), [], dtype,
                       (float(value),))


def _ramp(backend, size, start, step, dtype, last_index=-1, last_value=0.0):
    code = shader_source.program("creation.glsl", "ramp")
    uniforms = (("start", "float"), ("step", "float"), ("lastIndex", "int"), ("lastValue", "float"))
    return backend.run(Program("ramp", (), (size,), code, uniforms), [], dtype,
                       (float(start), float(step), int(last_index), float(last_value)))


@register_kernel("Fill", "webgl")
def fill(backend, inputs, attrs):
    return _fill(backend, tuple(attrs["shape"]), attrs["value"], attrs["dtype"])


@register_kernel("ZerosLike", "webgl")
def zeros_like(backend, inputs, attrs):
    (x,) = inputs
    return _fill(backend, x.shape, 0, x.dtype)


@register_kernel("OnesLike", "webgl")
def ones_like(backend, inputs, attrs):
    (x,) = inputs
    return _fill(backend, x.shape, 1, x.dtype)


# Integers a float32 texel holds exactly: |v| <= 2^24.
_EXACT_IN_FLOAT32 = 1 << 24


@register_kernel("Range", "webgl")
def range_(backend, inputs, attrs):
    start, step, size, dtype = attrs["start"], attrs["step"], attrs["size"], attrs["dtype"]
    if dtype == "int32" and max(abs(start), abs(start + (size - 1) * step)) > _EXACT_IN_FLOAT32:
        # As TF.js's webgl Range (computed on the CPU): host values, read back exactly; a drawn ramp
        # would round them to float32
        values = array.array("i", (int(start + i * step) for i in range(size)))
        return TensorInfo(backend.write(values, (size,), dtype), (size,), dtype)
    return _ramp(backend, size, start, step, dtype)


@register_kernel("LinSpace", "webgl")
def linspace(backend, inputs, attrs):
    num, start, stop = attrs["num"], attrs["start"], attrs["stop"]
    step = (stop - start) / (num - 1) if num > 1 else 0.0
    return _ramp(backend, num, start, step, "float32", num - 1 if num > 1 else -1, stop)
