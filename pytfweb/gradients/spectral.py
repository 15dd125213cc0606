"""Gradients: complex64 and the Fourier transforms.

TF.js 4.22 registers none of these but ComplexAbs (and that one is its Abs gradient, which
casts the complex input to float32: a float32 gradient for a complex64 input). They follow
TensorFlow (Python) here, with its convention for a real loss L of a complex z: the gradient
is dL/dre(z) + i dL/dim(z). So a loss of real inputs through complex ops (a spectrum's
magnitude, rfft/irfft, stft) differentiates correctly; rfft and irfft are compositions and
need nothing of their own.
"""
from .. import ops
from ..kernels import register_gradient


def _complex_from_real(re, im=None):
    return ops.complex(re, ops.zeros_like(re) if im is None else im)


@register_gradient("Complex")
def _complex_grad(dy, node):
    return [lambda: ops.real(dy), lambda: ops.imag(dy)]


@register_gradient("Real")
def _real_grad(dy, node):
    return [lambda: _complex_from_real(dy)]


@register_gradient("Imag")
def _imag_grad(dy, node):
    return [lambda: ops.complex(ops.zeros_like(dy), dy)]


@register_gradient("ComplexAbs", save_inputs=True, save_outputs=True)
def _complex_abs_grad(dy, node):
    # d|z|/dre = re / |z|, d|z|/dim = im / |z|; 0 at z = 0 (TensorFlow's div_no_nan).
    (x,), (y,) = node.x, node.y

    def grad():
        scale = ops.div_no_nan(dy, y)
        return ops.complex(ops.mul(scale, ops.real(x)), ops.mul(scale, ops.imag(x)))
    return [grad]


def _scaled(z, factor):
    """z * factor for a complex z and a Python float, part by part (no complex multiply)."""
    return ops.complex(ops.mul(ops.real(z), factor), ops.mul(ops.imag(z), factor))


@register_gradient("FFT")
def _fft_grad(dy, node):
    # y = F z with F_kn = exp(-2 pi i k n / N): the gradient is F^H dy = N * ifft(dy).
    return [lambda: _scaled(ops.ifft(dy), float(dy.shape[-1]))]


@register_gradient("IFFT")
def _ifft_grad(dy, node):
    # y = F^H z / N: the gradient is F dy / N = fft(dy) / N.
    return [lambda: _scaled(ops.fft(dy), 1.0 / max(dy.shape[-1], 1))]
