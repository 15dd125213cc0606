"""numpy kernels: complex64 (stored as numpy complex64 arrays) and the Fourier transforms.

Add, Sub and Multiply need nothing here: their table kernels are numpy arithmetic, which
is complex arithmetic on complex arrays. Cast is wrapped for complex inputs (TF.js: the
real part, then cast)."""
import numpy as np

from ....kernels import get_kernel, register_kernel


@register_kernel("Complex", "cpu")
def complex_(backend, inputs, attrs):
    re, im = (backend.values(t) for t in inputs)
    out = np.empty(re.shape, np.complex64)
    out.real, out.imag = re, im
    return backend.output(out, "complex64")


def _part_kernel(component):
    def kernel(backend, inputs, attrs):
        (x,) = inputs
        return backend.output(getattr(backend.values(x), component), "float32")
    return kernel


register_kernel("Real", "cpu", _part_kernel("real"))
register_kernel("Imag", "cpu", _part_kernel("imag"))


@register_kernel("ComplexAbs", "cpu")
def complex_abs(backend, inputs, attrs):
    (x,) = inputs
    return backend.output(np.abs(backend.values(x)), "float32")


def _transform_kernel(transform):
    def kernel(backend, inputs, attrs):
        (x,) = inputs
        v = backend.values(x)
        if v.size == 0:   # numpy refuses a transform of length 0; the result is as empty
            return backend.output(v, "complex64")
        return backend.output(transform(v, axis=-1), "complex64")
    return kernel


register_kernel("FFT", "cpu", _transform_kernel(np.fft.fft))
register_kernel("IFFT", "cpu", _transform_kernel(np.fft.ifft))


_real_cast = get_kernel("Cast", "cpu")


@register_kernel("Cast", "cpu")
def cast(backend, inputs, attrs):
    """Cast with TF.js's complex rules: complex64 -> other dtypes casts the real part;
    anything -> complex64 gets a zero imaginary part (numpy's astype)."""
    (x,) = inputs
    if x.dtype == "complex64" and attrs["dtype"] != "complex64":
        re = backend.output(backend.values(x).real, "float32")
        try:
            return _real_cast(backend, [re], attrs)
        finally:
            backend.dispose_data(re.data_id)
    return _real_cast(backend, inputs, attrs)
