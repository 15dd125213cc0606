"""complex64 and the Fourier transforms on webgpu against cpu (compared through real and imag:
the harness carries float32, int32 and bool)."""
import numpy as np

from .test_webgpu_backend import compare_webgpu, webgpu  # noqa: F401  (fixtures)

RNG = np.random.default_rng(121)
TOLERANCE = dict(rtol=1e-4, atol=1e-4)


def _r(*shape):
    return RNG.uniform(-2, 2, size=shape).astype(np.float32)


def _parts(expr):
    return f"tf.real({expr}), tf.imag({expr})"


def test_complex_arithmetic_and_moves(compare_webgpu):
    a, b, c, d = _r(2, 3), _r(2, 3), _r(3), _r(3)
    z = "tf.complex(a, b)"
    w = "tf.complex(c, d)"
    outs = ", ".join([_parts(f"{z} + {w}"), _parts(f"{z} - {w}"), _parts(f"{z} * {w}"), _parts(f"tf.neg({z})"),
                      _parts(f"tf.transpose({z})"), _parts(f"tf.slice({z}, [0, 1], [2, 2])"),
                      _parts(f"tf.concat([{z}, {z}], 0)"), _parts(f"tf.sum({z}, 0)"), _parts(f"tf.tile({w}, [2])"),
                      _parts(f"tf.cast(a, 'complex64')"), f"tf.abs({z})", f"tf.cast({z}, 'float32')",
                      _parts(f"tf.reshape({z}, [3, 2])"), _parts(f"tf.pad({w}, [[1, 2]], 3.0)")])
    compare_webgpu(f"lambda a, b, c, d: [{outs}]", [a, b, c, d], **TOLERANCE)


def test_fft_ifft(compare_webgpu):
    a, b = _r(3, 8), _r(3, 8)
    c, d = _r(2, 5), _r(2, 5)
    compare_webgpu("lambda a, b, c, d: [" + ", ".join([
        _parts("tf.spectral.fft(tf.complex(a, b))"), _parts("tf.spectral.ifft(tf.complex(a, b))"),
        _parts("tf.spectral.fft(tf.complex(c, d))"), _parts("tf.spectral.ifft(tf.spectral.fft(tf.complex(c, d)))"),
        _parts("tf.spectral.rfft(a)"), "tf.spectral.irfft(tf.spectral.rfft(a))"]) + "]", [a, b, c, d], **TOLERANCE)


def test_complex_read_back_and_no_leak(webgpu):
    out = webgpu("""
before = tf.memory()
re, im = tf.tensor([1.0, 2.0]), tf.tensor([3.0, -4.0])
z = tf.complex(re, im)
w = z * z
v = list(await w.data())
tf.dispose([re, im, z, w])
after = tf.memory()
result = [v, after.num_tensors - before.num_tensors, after.num_buffers_in_use - before.num_buffers_in_use]
""")
    assert out[0] == [-8.0, 6.0, -12.0, -16.0]
    assert out[1] == 0 and out[2] == 0
