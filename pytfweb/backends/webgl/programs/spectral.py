"""webgl kernels: complex64 and the Fourier transforms, as shaders (backends/webgl/shaders/spectral.glsl).

A complex64 tensor is two float32 data of this backend (backend.complex_parts /
backend.make_complex, TF.js's complexTensorInfos), so a complex kernel runs one float32
program per part. Add, Sub, Multiply and Cast keep their float kernels and gain complex
paths here, as TF.js's webgl backend has them: Add and Sub run part by part, Multiply as
two passes of (a + ib)(c + id), Cast takes or makes the parts.
"""
from ....kernels import TensorInfo, register_kernel
from ....core.shapes import broadcast_shapes
from ...gpu.complex_paths import register_complex_paths
from ...gpu import shader_source
from .program import Program


def _program(section, names, out_shape, defines=""):
    code = defines + shader_source.program("spectral.glsl", section)
    return Program(f"spectral:{section}:{defines}", names, out_shape, code)


def _copy(backend, x):
    """A float32 copy of x (the Cast kernels' copy program): a part must outlive its source."""
    code = shader_source.program("elementwise.glsl", "copy")
    return backend.run(Program("copy", ("x",), x.shape, code), [x], "float32")


@register_kernel("Complex", "webgl")
def complex_(backend, inputs, attrs):
    re, im = inputs
    return backend.make_complex(_copy(backend, re), _copy(backend, im))


def _part_kernel(index):
    def kernel(backend, inputs, attrs):
        (x,) = inputs
        return _copy(backend, backend.complex_parts(x)[index])
    return kernel


register_kernel("Real", "webgl", _part_kernel(0))
register_kernel("Imag", "webgl", _part_kernel(1))


@register_kernel("ComplexAbs", "webgl")
def complex_abs(backend, inputs, attrs):
    (x,) = inputs
    return backend.run(_program("complex_abs", ("re", "im"), x.shape), backend.complex_parts(x), "float32")


def _transform_kernel(inverse):
    def kernel(backend, inputs, attrs):
        (x,) = inputs
        n = x.shape[-1]
        rows = (n and x.size // n, n)
        parts = [TensorInfo(p.data_id, rows, "float32") for p in backend.complex_parts(x)]
        out = []
        for real_part in (1, 0):
            defines = (f"#define N {n}\n#define SIGN {1.0 if inverse else -1.0}\n"
                       f"#define SCALE {1.0 / n if inverse and n else 1.0}\n#define REAL_PART {real_part}\n")
            out.append(backend.run(_program("dft", ("re", "im"), rows, defines), parts, "float32"))
        return backend.make_complex(*(TensorInfo(t.data_id, x.shape, "float32") for t in out))
    return kernel


register_kernel("FFT", "webgl", _transform_kernel(False))
register_kernel("IFFT", "webgl", _transform_kernel(True))


# --- complex paths of float kernels ---------------------------------------------------------

def _complex_multiply(real_kernel, backend, inputs, attrs):
    a, b = inputs
    out_shape = broadcast_shapes(a.shape, b.shape, "mul")
    parts = [*backend.complex_parts(a), *backend.complex_parts(b)]
    names = ("aReal", "aImag", "bReal", "bImag")
    return backend.make_complex(*(backend.run(_program(section, names, out_shape), parts, "float32")
                                  for section in ("complex_mul_real", "complex_mul_imag")))


register_complex_paths("webgl", _copy, _complex_multiply)
