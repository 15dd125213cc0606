"""complex64 and the Fourier transforms (backends/webgpu/shaders/spectral.wgsl), as webgl has them: a
complex64 tensor is two float32 data of this backend (backend.complex_parts / make_complex), so a
complex kernel runs float32 programs per part. Add and Sub run part by part, Multiply as the real
and imaginary parts of (a + ib)(c + id) (two elementwise dispatches), Cast takes or makes the
parts, and the kernels that move values or are linear in them run on each part
(backends/gpu/complex_paths.py, shared with webgl; here Transpose too, which moves data)."""
from ....kernels import TensorInfo, register_kernel
from ....core.shapes import broadcast_shapes
from ...gpu.complex_paths import register_complex_paths
from .. import wgsl
from ..program import Program, _size
from .elementwise import BACKEND, _copy, run_elementwise


@register_kernel("Complex", BACKEND)
def complex_(backend, inputs, attrs):
    re, im = inputs
    return backend.make_complex(_copy(backend, re), _copy(backend, im))


def _part_kernel(index):
    def kernel(backend, inputs, attrs):
        (x,) = inputs
        return _copy(backend, backend.complex_parts(x)[index])
    return kernel


register_kernel("Real", BACKEND, _part_kernel(0))
register_kernel("Imag", BACKEND, _part_kernel(1))


def _spectral(backend, section, parts, out_shape, fields=(), values=(), replacements=()):
    fields = (("size", "i32"),) + tuple(fields)

    def source():
        text = wgsl.program("spectral.wgsl", section)
        for old, new in replacements:
            text = text.replace(old, new)
        helpers = wgsl.functions((wgsl.COMMON, "isNan"), (wgsl.COMMON, "isInf"), (wgsl.COMMON, "nan"),
                                 (wgsl.COMMON, "inf"))
        return helpers + wgsl.bindings("f32", (("re", "f32"), ("im", "f32")), fields) + text

    key = f"spectral:{section}:{''.join(n for _, n in replacements)}"
    return backend.run(Program(key, source, fields), parts, out_shape, "float32", (_size(out_shape),) + tuple(values),
                       backend.groups_for(_size(out_shape), 64))


@register_kernel("ComplexAbs", BACKEND)
def complex_abs(backend, inputs, attrs):
    (x,) = inputs
    return _spectral(backend, "complex_abs", list(backend.complex_parts(x)), x.shape)


def _transform_kernel(inverse):
    def kernel(backend, inputs, attrs):
        (x,) = inputs
        n = x.shape[-1]
        if _size(x.shape) == 0:
            return backend.make_complex(backend.empty(x.shape, "float32"), backend.empty(x.shape, "float32"))
        parts = list(backend.complex_parts(x))
        fields = (("n", "i32"), ("sign", "f32"), ("scale", "f32"))
        values = (n, 1.0 if inverse else -1.0, 1.0 / n if inverse else 1.0)
        out = [_spectral(backend, "dft", parts, x.shape, fields, values, (("REAL_PART", flag),))
               for flag in ("true", "false")]
        return backend.make_complex(*out)
    return kernel


register_kernel("FFT", BACKEND, _transform_kernel(False))
register_kernel("IFFT", BACKEND, _transform_kernel(True))


# --- complex paths of float kernels ---------------------------------------------------------

def _complex_multiply(real_kernel, backend, inputs, attrs):
    a, b = inputs
    out_shape = broadcast_shapes(a.shape, b.shape, "mul")
    parts = [*backend.complex_parts(a), *backend.complex_parts(b)]
    names = ["ar", "ai", "br", "bi"]
    real = run_elementwise(backend, "complex_mul_real", lambda: "", parts, names, out_shape, "float32",
                           "v_ar * v_br - v_ai * v_bi")
    imag = run_elementwise(backend, "complex_mul_imag", lambda: "", parts, names, out_shape, "float32",
                           "v_ar * v_bi + v_ai * v_br")
    return backend.make_complex(real, imag)


register_complex_paths(BACKEND, _copy, _complex_multiply)


del TensorInfo
