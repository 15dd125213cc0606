"""Complex numbers and Fourier transforms: tf.complex, tf.real, tf.imag and the tf.spectral
namespace (fft, ifft, rfft, irfft; also top-level tf.fft ... as in TF.js).

A complex64 tensor's data is a pair of float32 parts (TF.js's complexTensorInfos): the cpu
backend keeps a numpy complex64 array, the webgl backend two float32 textures. Readback is
interleaved float32 [re, im, re, im, ...], as TF.js's dataSync.

rfft and irfft are TF.js's compositions (fft/ifft of a Hermitian-completed input, halves cut
with slice), so they run on every backend and differentiate through their parts.
"""
from typing import Optional

from ..core.engine import ENGINE, op
from ..core.limits import check_elements
from ..core.tensor import Tensor
from ..core.types import TensorLike
from .creation import convert_to_tensor, zeros, zeros_like
from .creation import cast
from .elementwise import neg
from .shape import concat, reshape, reverse
from .slicing import slice as _slice

__all__ = ["fft", "ifft", "irfft", "rfft"]   # tf.spectral; complex, real, imag are top-level only


def _float_part(x, arg):
    x = convert_to_tensor(x, arg, "complex")
    if x.dtype == "complex64":
        raise TypeError(f"complex: argument '{arg}' must be a real tensor (float32, int32 or bool), got complex64")
    return x if x.dtype == "float32" else cast(x, "float32")


@op
def complex(real: TensorLike, imag: TensorLike) -> Tensor:  # noqa: A001 - TF.js name
    """The complex64 tensor real + i * imag.

    Args:
        real: the real parts (float32).
        imag: the imaginary parts, of real's shape.

    Returns:
        A complex64 Tensor.

    Example:
        >>> z = tf.complex(tf.tensor([1, 2]), tf.tensor([3, 4]))
        >>> z.dtype, tf.imag(z).array_sync()
        ('complex64', [3.0, 4.0])
    """
    real = _float_part(real, "real")
    imag = _float_part(imag, "imag")
    if tuple(real.shape) != tuple(imag.shape):
        raise ValueError(f"complex: arguments 'real' and 'imag' must have the same shape, "
                         f"got {list(real.shape)} and {list(imag.shape)}")
    return ENGINE.run_kernel("Complex", [real, imag])


@op
def real(input: TensorLike) -> Tensor:  # noqa: A002 - TF.js name
    """The real part of a complex tensor (a real tensor as float32).

    Args:
        input: the tensor.

    Returns:
        A float32 Tensor of input's shape.

    Example:
        >>> tf.real(tf.complex(tf.tensor([1, 2]), tf.tensor([3, 4]))).print()
        Tensor
            [1, 2]
    """
    x = convert_to_tensor(input, "input", "real")
    if x.dtype != "complex64":
        return cast(x, "float32") if x.dtype != "float32" else ENGINE.run_kernel("Identity", [x])
    return ENGINE.run_kernel("Real", [x])


@op
def imag(input: TensorLike) -> Tensor:  # noqa: A002 - TF.js name
    """The imaginary part of a complex tensor (zeros for a real tensor).

    Args:
        input: the tensor.

    Returns:
        A float32 Tensor of input's shape.

    Example:
        >>> tf.imag(tf.complex(tf.tensor([1, 2]), tf.tensor([3, 4]))).print()
        Tensor
            [3, 4]
    """
    x = convert_to_tensor(input, "input", "imag")
    if x.dtype != "complex64":
        return zeros(x.shape, "float32")
    return ENGINE.run_kernel("Imag", [x])


def _transform_input(x, name, dtype):
    x = convert_to_tensor(x, "input", name)
    if x.dtype != dtype:
        raise TypeError(f"{name}: argument 'input' must be a {dtype} tensor, got {x.dtype}")
    if x.rank == 0:
        raise ValueError(f"{name}: argument 'input' must have rank >= 1 (the transform runs over "
                         f"the innermost dimension), got a scalar")
    return x


@op
def fft(input: TensorLike) -> Tensor:  # noqa: A002 - TF.js name
    """The discrete Fourier transform over the innermost axis.

    Args:
        input: a complex64 tensor.

    Returns:
        A complex64 Tensor of input's shape.

    Example:
        >>> tf.real(tf.fft(tf.complex(tf.tensor([1, 1, 1, 1]), tf.zeros([4])))).print()
        Tensor
            [4, 0, 0, 0]
    """
    return ENGINE.run_kernel("FFT", [_transform_input(input, "fft", "complex64")])


@op
def ifft(input: TensorLike) -> Tensor:  # noqa: A002 - TF.js name
    """The inverse discrete Fourier transform (divided by n) over the innermost axis.

    Args:
        input: a complex64 tensor.

    Returns:
        A complex64 Tensor of input's shape.

    Example:
        >>> tf.real(tf.ifft(tf.complex(tf.tensor([4, 0, 0, 0]), tf.zeros([4])))).print()
        Tensor
            [1, 1, 1, 1]
    """
    return ENGINE.run_kernel("IFFT", [_transform_input(input, "ifft", "complex64")])


def _fit_length(x, length):
    """x cropped or zero-padded to `length` along its last axis (TF.js rfft's fftLength)."""
    n = x.shape[-1]
    if length == n:
        return x
    if length < n:
        return _slice(x, [0] * x.rank, list(x.shape[:-1]) + [length])
    return concat([x, zeros(list(x.shape[:-1]) + [length - n], x.dtype)], x.rank - 1)


def _fft_length(fft_length, name):
    if fft_length is None:
        return None
    if isinstance(fft_length, bool) or not hasattr(fft_length, "__index__"):
        raise TypeError(f"{name}: argument 'fft_length' must be an int, got {type(fft_length).__name__}")
    if fft_length.__index__() < 1:
        raise ValueError(f"{name}: argument 'fft_length' must be positive, got {fft_length}")
    return fft_length.__index__()


@op
def rfft(input: TensorLike, fft_length: Optional[int] = None) -> Tensor:  # noqa: A002 - TF.js name
    """The DFT of a real signal over its innermost axis, keeping the n // 2 + 1 non-redundant values.

    Args:
        input: a float32 tensor.
        fft_length: crop or zero-pad the signal to this length first (None: as it is).

    Returns:
        A complex64 Tensor, the innermost axis n // 2 + 1 long.

    Example:
        >>> tf.real(tf.rfft(tf.tensor([1, 1, 1, 1]))).print()
        Tensor
            [4, 0, 0]
    """
    x = _transform_input(input, "rfft", "float32")
    length = _fft_length(fft_length, "rfft")
    if length is not None:
        check_elements(list(x.shape[:-1]) + [length], "rfft: argument 'fft_length'")
    x = _fit_length(x, x.shape[-1] if length is None else length)
    n = x.shape[-1]
    batch = x.size // n if n else 0
    spectrum = fft(reshape(complex(x, zeros_like(x)), [batch, n]))
    half = n // 2 + 1 if n else 0
    kept = [_slice(part(spectrum), [0, 0], [batch, half]) for part in (real, imag)]
    return reshape(complex(*kept), list(x.shape[:-1]) + [half])


@op
def irfft(input: TensorLike) -> Tensor:  # noqa: A002 - TF.js name
    """The real inverse DFT of the n non-redundant values of a Hermitian spectrum: 2 * (n - 1)
    values per row (TF.js: n <= 2 runs ifft as is).

    As in TF.js the result is [batch, length] (batch: all outer axes), except that a rank-3 input
    keeps its first axis.

    Args:
        input: a complex64 tensor.

    Returns:
        A float32 Tensor.

    Example:
        >>> tf.irfft(tf.complex(tf.tensor([4, 0, 0]), tf.zeros([3]))).print()
        Tensor
            [[1, 1, 1, 1]]
    """
    x = _transform_input(input, "irfft", "complex64")
    n = x.shape[-1]
    batch = x.size // n if n else 0
    if n <= 2:
        out = ifft(reshape(x, [batch, n]))
    else:
        re = reshape(real(x), [batch, n])
        im = reshape(imag(x), [batch, n])
        # The missing half is the conjugate of values 1 .. n-2, mirrored.
        mirror = [reverse(_slice(p, [0, 1], [batch, n - 2]), 1) for p in (re, im)]
        full = complex(concat([re, mirror[0]], 1), concat([im, neg(mirror[1])], 1))
        out = ifft(full)
    out = real(out)
    if x.rank == 3 and x.shape[0] != 0:
        out = reshape(out, [x.shape[0], out.shape[0] // x.shape[0], out.shape[1]])
    return out
