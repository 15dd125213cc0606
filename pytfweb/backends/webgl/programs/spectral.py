"""webgl kernels: complex64 and the Fourier transforms, as shaders (shaders/spectral.glsl).

A complex64 tensor is two float32 data of this backend (backend.complex_parts /
backend.make_complex, TF.js's complexTensorInfos), so a complex kernel runs one float32
program per part. Add, Sub, Multiply and Cast keep their float kernels and gain complex
paths here, as TF.js's webgl backend has them: Add and Sub run part by part, Multiply as
two passes of (a + ib)(c + id), Cast takes or makes the parts.
"""
from ....kernels import TensorInfo, get_kernel, register_kernel
from ....shapes import broadcast_shapes
from .. import shader_source
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

def _with_complex_path(kernel_name, complex_kernel):
    """Register kernel_name again: complex64 inputs go to complex_kernel, others as before."""
    real_kernel = get_kernel(kernel_name, "webgl")

    def kernel(backend, inputs, attrs):
        # The ops give both operands one dtype (a real one is cast up), so one test suffices
        # (for Select, whose first input is the condition, any input is tested).
        if any(t.dtype == "complex64" for t in inputs):
            return complex_kernel(real_kernel, backend, inputs, attrs)
        return real_kernel(backend, inputs, attrs)
    register_kernel(kernel_name, "webgl", kernel)


def _partwise(real_kernel, backend, inputs, attrs):
    """Add and Sub: the float kernel on the real parts, then on the imaginary parts."""
    a, b = (backend.complex_parts(t) for t in inputs)
    return backend.make_complex(*(real_kernel(backend, [a[i], b[i]], attrs) for i in (0, 1)))


def _complex_multiply(real_kernel, backend, inputs, attrs):
    a, b = inputs
    out_shape = broadcast_shapes(a.shape, b.shape, "mul")
    parts = [*backend.complex_parts(a), *backend.complex_parts(b)]
    names = ("aReal", "aImag", "bReal", "bImag")
    return backend.make_complex(*(backend.run(_program(section, names, out_shape), parts, "float32")
                                  for section in ("complex_mul_real", "complex_mul_imag")))


def _each_part(real_kernel, backend, inputs, attrs):
    """Kernels that move values, or are linear in them (slices, concatenation, gathers, pads,
    tiles, selects, splits; neg, sum, add_n, cumsum, segment sums): the float kernel on the real
    parts, then on the imaginary parts; inputs that are not complex64 (indices, a condition) go
    to both. A part that comes back sharing an input part's data is copied, so that each complex64
    result owns its parts."""
    complex_inputs = [t for t in inputs if t.dtype == "complex64"]
    owned = {p.data_id for t in complex_inputs for p in backend.complex_parts(t)}

    def run(i, kernel_attrs):
        return real_kernel(backend, [backend.complex_parts(t)[i] if t.dtype == "complex64" else t for t in inputs],
                           kernel_attrs)

    def release(outs):
        for o in outs if isinstance(outs, list) else [outs]:
            if o.data_id not in owned:
                backend.dispose_data(o.data_id)

    re = run(0, attrs)
    try:   # a pad's constant is real: the imaginary part pads with 0
        im = run(1, dict(attrs, constant_value=0.0) if "constant_value" in attrs else attrs)
    except BaseException:
        release(re)
        raise

    def own(x):
        return _copy(backend, x) if x.data_id in owned else x
    if isinstance(re, list):
        return [backend.make_complex(own(a), own(b)) for a, b in zip(re, im)]
    return backend.make_complex(own(re), own(im))


for _name, _fn in (("Add", _partwise), ("Sub", _partwise), ("Multiply", _complex_multiply)):
    _with_complex_path(_name, _fn)
# (Transpose, Reshape and the other views already take complex64: they share or move both parts.)
for _name in ("Slice", "StridedSlice", "Reverse", "Tile", "PadV2", "MirrorPad", "GatherV2", "GatherNd", "Concat",
              "Pack", "Unpack", "SplitV", "Select", "Diag", "Neg", "Sum", "AddN", "Cumsum", "UnsortedSegmentSum"):
    _with_complex_path(_name, _each_part)

_float_cast = get_kernel("Cast", "webgl")


@register_kernel("Cast", "webgl")
def cast(backend, inputs, attrs):
    """Cast with TF.js's complex rules: complex64 -> dtype casts the real part; anything ->
    complex64 is (x as float32) + 0i."""
    (x,) = inputs
    dtype = attrs["dtype"]
    if x.dtype == "complex64":
        re, im = backend.complex_parts(x)
        if dtype == "complex64":
            return backend.make_complex(_copy(backend, re), _copy(backend, im))
        return _float_cast(backend, [re], attrs)
    if dtype == "complex64":
        re = _float_cast(backend, inputs, {"dtype": "float32"})
        im = get_kernel("Fill", "webgl")(backend, [], {"shape": tuple(x.shape), "value": 0.0, "dtype": "float32"})
        return backend.make_complex(re, im)
    return _float_cast(backend, inputs, attrs)
