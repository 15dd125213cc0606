"""complex64 and tf.spectral on the cpu backend: complex/real/imag/abs, fft/ifft/rfft/irfft and
tf.signal.stft against numpy.fft, complex arithmetic and casts, readback layout, printing,
memory accounting, gradients (numeric checks through real-valued losses), errors."""
import numpy as np
import pytest

import pytfweb as tf
from pytfweb.testing import numeric_gradient_error

from .helpers import assert_no_leak, assert_raises, assert_tensor


def _complex(rng, shape):
    re = rng.uniform(-3, 3, size=shape).astype(np.float32)
    im = rng.uniform(-3, 3, size=shape).astype(np.float32)
    return re, im, re + 1j * im


def assert_complex(t, expected, rtol=1e-4, atol=1e-4):
    expected = np.asarray(expected)
    assert t.dtype == "complex64"
    assert tuple(t.shape) == expected.shape, f"shape {t.shape} != {expected.shape}"
    got = t.numpy()
    np.testing.assert_allclose(got.real, expected.real, rtol=rtol, atol=atol)
    np.testing.assert_allclose(got.imag, expected.imag, rtol=rtol, atol=atol)


def test_complex_parts_and_readback(rng):
    re, im, z = _complex(rng, (2, 3))
    x = tf.complex(re, im)
    assert (x.dtype, x.shape, x.size) == ("complex64", (2, 3), 6)
    # data_sync interleaves [re, im, ...] as float32; array_sync nests pairs in the last axis (TF.js)
    flat = x.data_sync()
    assert flat.typecode == "f" and list(flat) == list(np.stack([re, im], -1).reshape(-1))
    assert np.allclose(np.array(x.array_sync()), np.stack([re, im], -1).reshape(2, 6))
    assert_tensor(tf.real(x), re, "float32")
    assert_tensor(tf.imag(x), im, "float32")
    assert_tensor(tf.abs(x), np.abs(z), "float32")
    assert tf.complex(1.5, -2).array_sync() == [1.5, -2.0]


def test_real_imag_of_real_tensors():
    assert_tensor(tf.real(tf.tensor([1, 2], dtype="int32")), [1.0, 2.0], "float32")
    assert_tensor(tf.imag(tf.tensor([1.5, 2])), [0.0, 0.0], "float32")
    # int32 and bool parts are taken as float32
    assert_complex(tf.complex(tf.tensor([1, 2], dtype="int32"), tf.tensor([True, False])), [1 + 1j, 2])


def test_abs_complex_edges():
    x = tf.complex([0.0, 3.0, -4.0, 1e30, np.inf], [0.0, -4.0, 3.0, 1e30, 1.0])
    expected = np.abs(np.array([0, 3 - 4j, -4 + 3j, 1e30 + 1e30j, np.inf + 1j], np.complex64))
    assert_tensor(tf.abs(x), expected, "float32")


@pytest.mark.parametrize("shape", [(1,), (2,), (5,), (8,), (3, 4), (2, 3, 7), (2, 1, 2, 3)])
def test_fft_ifft(rng, shape):
    re, im, z = _complex(rng, shape)
    x = tf.complex(re, im)
    assert_complex(tf.spectral.fft(x), np.fft.fft(z))
    assert_complex(tf.spectral.ifft(x), np.fft.ifft(z))
    assert_complex(tf.ifft(tf.fft(x)), z)     # the top-level names too


def test_fft_empty():
    x = tf.complex(tf.zeros([2, 0]), tf.zeros([2, 0]))
    assert tf.fft(x).shape == (2, 0)


@pytest.mark.parametrize("shape, length", [((6,), None), ((5,), None), ((2, 8), None), ((2, 3, 5), None),
                                           ((7,), 4), ((3, 5), 8), ((1,), None)])
def test_rfft(rng, shape, length):
    x = rng.uniform(-3, 3, size=shape).astype(np.float32)
    assert_complex(tf.spectral.rfft(tf.tensor(x), length), np.fft.rfft(x, length))


@pytest.mark.parametrize("shape", [(2, 4), (3, 5), (1, 2), (2, 1), (2, 3, 6)])
def test_irfft(rng, shape):
    re, im, z = _complex(rng, shape)
    n = shape[-1]
    out = tf.spectral.irfft(tf.complex(re, im))
    expected = np.fft.irfft(z) if n > 2 else np.fft.ifft(z).real
    # TF.js's shape: [batch, length], except that a rank-3 input keeps its first dimension
    if len(shape) != 3:
        expected = expected.reshape(-1, expected.shape[-1])
    assert_tensor(out, expected, "float32", rtol=1e-4, atol=1e-4)


def test_irfft_inverts_rfft(rng):
    x = rng.uniform(-3, 3, size=(3, 10)).astype(np.float32)
    assert_tensor(tf.irfft(tf.rfft(tf.tensor(x))), x, rtol=1e-4, atol=1e-4)


def _stft_reference(signal, frame_length, frame_step, fft_length):
    window = 0.5 - 0.5 * np.cos(2 * np.pi * np.arange(frame_length) /
                                (frame_length - 1 if frame_length % 2 else frame_length))
    starts = range(0, len(signal) - frame_length + 1, frame_step)
    frames = np.array([signal[s:s + frame_length] * window for s in starts])
    return np.fft.rfft(frames, fft_length)


@pytest.mark.parametrize("size, length, step, fft_length", [(16, 4, 2, None), (20, 5, 3, None), (12, 6, 6, 8)])
def test_stft(rng, size, length, step, fft_length):
    x = rng.uniform(-1, 1, size=size).astype(np.float32)
    expected = _stft_reference(x, length, step, fft_length or 1 << (length - 1).bit_length())
    assert_complex(tf.signal.stft(tf.tensor(x), length, step, fft_length), expected)


def test_stft_tfjs_example_and_window_fn():
    # TF.js's documented example: tf.signal.stft(tf.tensor1d([1, 1, 1, 1, 1]), 3, 1)
    assert_complex(tf.signal.stft(tf.tensor([1.0, 1, 1, 1, 1]), 3, 1), [[1, -1j, -1]] * 3)
    ones = tf.signal.stft(tf.tensor([1.0, 2, 3, 4]), 4, 4, 4, window_fn=lambda n: tf.ones([n]))
    assert_complex(ones, [np.fft.rfft([1, 2, 3, 4])])


def test_complex_arithmetic_and_casts(rng):
    _, _, a = _complex(rng, (2, 3))
    _, _, b = _complex(rng, (3,))
    ta, tb = tf.complex(a.real, a.imag), tf.complex(b.real, b.imag)
    assert_complex(tf.add(ta, tb), a + b)
    assert_complex(tf.sub(ta, tb), a - b)
    assert_complex(tf.mul(ta, tb), a * b)
    # a real operand is upcast to complex64 (zero imaginary part)
    assert_complex(ta * 2, a * 2)
    assert_complex(tf.add(ta, tf.tensor([1.0, 2, 3])), a + [1, 2, 3])
    assert_complex(tf.cast(tf.tensor([1, 2], dtype="int32"), "complex64"), [1, 2])
    # complex -> real dtypes cast the real part (TF.js)
    assert_tensor(tf.cast(ta, "float32"), a.real, "float32")
    assert_tensor(tf.cast(tf.complex([1.7, -2.2], [5.0, 5.0]), "int32"), [1, -2], "int32")
    assert_complex(tf.reshape(ta, [3, 2]), a.reshape(3, 2))


def test_printing():
    assert str(tf.complex([[1.5, 2], [3, 4]], [[0.25, -1], [0, 2]])) == (
        "Tensor\n    [[1.5 + 0.25j, 2 + -1j],\n     [3 + 0j     , 4 + 2j ]]")


def test_memory_counts_eight_bytes_and_frees_everything(rng):
    re, im, _ = _complex(rng, (4, 5))
    before = tf.memory()
    x = tf.complex(re, im)   # the float32 inputs made here are disposed by the op's scope
    after = tf.memory()
    assert after.num_tensors - before.num_tensors == 1
    assert after.num_bytes - before.num_bytes == 8 * 20
    y = tf.spectral.fft(x)
    x.dispose()
    y.dispose()
    assert (tf.memory().num_tensors, tf.memory().num_bytes) == (before.num_tensors, before.num_bytes)
    t = tf.tensor(re)
    assert_no_leak(lambda: tf.dispose(tf.tidy(lambda: tf.irfft(tf.rfft(t)))))


# --- gradients: real losses of real inputs through complex ops ---------------------------

def _losses():
    return {
        "complex_abs": lambda re, im: tf.abs(tf.complex(re, im)),
        "real_imag": lambda re, im: tf.add(tf.mul(tf.real(tf.complex(re, im)), 2.0), tf.imag(tf.complex(im, re))),
        "fft_magnitude": lambda re, im: tf.abs(tf.fft(tf.complex(re, im))),
        "ifft_parts": lambda re, im: tf.add(tf.real(tf.ifft(tf.complex(re, im))),
                                            tf.mul(tf.imag(tf.ifft(tf.complex(re, im))), 3.0)),
        "rfft": lambda re, im: tf.abs(tf.rfft(tf.add(re, im))),
        "irfft": lambda re, im: tf.irfft(tf.complex(re, im)),
    }


@pytest.mark.parametrize("name", sorted(_losses()))
def test_gradients(rng, name):
    re = rng.uniform(0.5, 2, size=(2, 5)).astype(np.float32)
    im = rng.uniform(-2, -0.5, size=(2, 5)).astype(np.float32)
    assert numeric_gradient_error(_losses()[name], [re, im]) < 2e-2


def test_stft_gradient(rng):
    x = rng.uniform(-1, 1, size=9).astype(np.float32)
    assert numeric_gradient_error(lambda s: tf.abs(tf.signal.stft(s, 4, 2)), [x]) < 2e-2


def test_gradient_dtypes():
    re, im = tf.tensor([3.0, 0.0]), tf.tensor([4.0, 0.0])
    g_re, g_im = tf.grads(lambda a, b: tf.sum(tf.abs(tf.complex(a, b))))([re, im])
    assert g_re.dtype == g_im.dtype == "float32"
    # |z| at 0 has gradient 0 (TensorFlow's div_no_nan), not NaN
    assert np.allclose(g_re.numpy(), [0.6, 0.0]) and np.allclose(g_im.numpy(), [0.8, 0.0])


# --- errors ------------------------------------------------------------------------------

def test_errors():
    z = tf.complex([1.0, 2], [3.0, 4])
    x, x3, scalar_z = tf.tensor([1.0, 2]), tf.tensor([1.0, 2, 3]), tf.complex(1.0, 2.0)
    assert_raises(TypeError, lambda: tf.spectral.fft(x), "fft", "input", "complex64")
    assert_raises(TypeError, lambda: tf.ifft(x), "ifft", "input", "complex64")
    assert_raises(TypeError, lambda: tf.irfft(x), "irfft", "input", "complex64")
    assert_raises(TypeError, lambda: tf.rfft(z), "rfft", "input", "float32")
    assert_raises(ValueError, lambda: tf.fft(scalar_z), "fft", "input", "rank")
    assert_raises(ValueError, lambda: tf.complex([1.0, 2], [1.0]), "complex", "real", "imag", "shape")
    assert_raises(TypeError, lambda: tf.complex(z, [1.0, 2]), "complex", "real", "complex64")
    assert_raises(ValueError, lambda: tf.rfft(x, 0), "rfft", "fft_length")
    assert_raises(TypeError, lambda: tf.rfft(x, 2.5), "rfft", "fft_length")
    assert_raises(TypeError, lambda: tf.tensor([1.0, 2], dtype="complex64"), "tensor", "tf.complex")
    assert_raises(TypeError, lambda: tf.signal.stft(x3, 2, 1, window_fn=3), "stft",
                  "window_fn")
    assert_raises(ValueError, lambda: tf.signal.stft(x3, 0, 1), "stft", "frame_length")


@pytest.mark.parametrize("call, op, arg", [
    (lambda c: tf.clip_by_value(c, -1, 1), "clip_by_value", "x"),
    (lambda c: tf.clip_by_value(c, 1, 1), "clip_by_value", "x"),
    (lambda c: tf.step(c), "step", "x"),
    (lambda c: tf.relu6(c), "relu6", "x"),
    (lambda c: tf.max(c), "max", "x"),
    (lambda c: tf.prod(c, 0), "prod", "x"),
    (lambda c: tf.cumprod(c), "cumprod", "x"),
    (lambda c: tf.top_k(c), "top_k", "x"),
    (lambda c: tf.mat_mul(c, c, transpose_b=True), "mat_mul", "a"),
    (lambda c: tf.tidy(lambda: tf.mat_mul(tf.ones([2, 2]), c)), "mat_mul", "b"),
    (lambda c: tf.dot(c, c), "dot", "t1"),
    (lambda c: tf.tidy(lambda: tf.outer_product(c[0], c[1])), "outer_product", "v1"),
    (lambda c: tf.fused.mat_mul(c, c, transpose_b=True), "fused.mat_mul", "a"),
])
def test_ops_not_linear_in_values_refuse_complex64(call, op, arg):
    """As TF.js's assertNotComplex: the same TypeError on every backend (webgl: the browser grid)."""
    c = tf.complex(tf.tensor([[1.0, -2.0], [0.5, 3.0]]), tf.tensor([[0.5, 1.0], [-1.0, 0.0]]))
    try:
        assert_raises(TypeError, lambda: call(c), f"{op}: argument '{arg}'", "complex64")
    finally:
        c.dispose()
