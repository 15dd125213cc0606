"""tf.signal: hann_window, hamming_window, frame, stft (on rfft, ops/spectral.py)."""
import math

from typing import Callable, Optional

from ..core.types import TensorLike
from ..core.engine import op
from ..core.limits import check_elements
from ..core.tensor import Tensor
from .creation import convert_to_tensor, tensor, tensor1d, zeros
from .elementwise import mul
from .shape import pad
from .slicing import gather
from .spectral import rfft

__all__ = ["frame", "hamming_window", "hann_window", "stft"]


def _positive_int(v, name, arg, least=1):
    if isinstance(v, bool) or isinstance(v, Tensor) or not hasattr(v, "__index__"):
        raise TypeError(f"{name}: argument '{arg}' must be an int, got {type(v).__name__}")
    v = v.__index__()
    if v < least:
        raise ValueError(f"{name}: argument '{arg}' must be {'positive' if least == 1 else 'non-negative'}, got {v}")
    return v


def _cosine_window(window_length, a, b, name):
    """a - b * cos(2 pi i / (N - 1)) for odd N, / N for even N (periodic), as TF.js computes it.
    A window of one value is [1] (TF.js divides 0 by 0 there)."""
    n = _positive_int(window_length, name, "window_length")
    check_elements((n,), f"{name}: argument 'window_length'")
    if n == 1:
        return tensor1d([1.0], dtype="float32")
    denominator = n - 1 + (1 - n % 2)
    return tensor1d([a - b * math.cos(2.0 * math.pi * i / denominator) for i in range(n)], dtype="float32")


def hann_window(window_length: int) -> Tensor:
    """The Hann window 0.5 - 0.5 cos(2 pi i / (N - 1)) (periodic for even N, as TF.js).

    Args:
        window_length: N.

    Returns:
        A float32 Tensor [N].

    Example:
        >>> tf.signal.hann_window(4).print()
        Tensor
            [0, 0.5, 1, 0.5]
    """
    return _cosine_window(window_length, 0.5, 0.5, "hann_window")


def hamming_window(window_length: int) -> Tensor:
    """The Hamming window 0.54 - 0.46 cos(2 pi i / (N - 1)) (periodic for even N, as TF.js).

    Args:
        window_length: N.

    Returns:
        A float32 Tensor [N].

    Example:
        >>> tf.signal.hamming_window(3).print()
        Tensor
            [0.08, 1, 0.08]
    """
    return _cosine_window(window_length, 0.54, 0.46, "hamming_window")


def _frame_starts(size, frame_length, frame_step, pad_end):
    """Where each frame starts: every frame_step while a whole frame fits, then (pad_end) on
    while the start is inside the signal."""
    starts, start = [], 0
    while start + frame_length <= size:
        starts.append(start)
        start += frame_step
    while pad_end and start < size:
        starts.append(start)
        start += frame_step
    return starts


@op
def frame(signal: TensorLike, frame_length: int, frame_step: int, pad_end: bool = False,
          pad_value: float = 0) -> Tensor:
    """Windows of a 1D signal, frame_step apart.

    Args:
        signal: a 1D tensor.
        frame_length: the length of each frame.
        frame_step: the distance between the starts of frames.
        pad_end: also make frames running past the end, filled with pad_value.
        pad_value: the padding value.

    Returns:
        A Tensor [num_frames, frame_length].

    Example:
        >>> tf.signal.frame(tf.tensor([1, 2, 3, 4, 5]), 2, 2).print()
        Tensor
            [[1, 2],
             [3, 4]]
    """
    name = "frame"
    signal = convert_to_tensor(signal, "signal", name)
    if signal.rank != 1:
        raise ValueError(f"{name}: argument 'signal' must be 1D, got shape {list(signal.shape)}")
    frame_length = _positive_int(frame_length, name, "frame_length", least=0)   # as TF.js: 0 gives empty frames
    frame_step = _positive_int(frame_step, name, "frame_step", least=0)
    if not isinstance(pad_end, bool):
        raise TypeError(f"{name}: argument 'pad_end' must be a bool, got {type(pad_end).__name__}")
    size = signal.shape[0]
    if frame_step == 0 and (frame_length <= size or (pad_end and size > 0)):
        # TF.js takes a step of 0 where no frame fits (an empty result) and loops forever otherwise
        raise ValueError(f"{name}: argument 'frame_step' must be positive where a frame fits in the signal "
                         f"(frame_length {frame_length}, signal length {size}{', pad_end' if pad_end else ''}), got 0")
    starts = _frame_starts(size, frame_length, frame_step, pad_end)
    check_elements((len(starts), frame_length), f"{name}: arguments 'frame_length' and 'frame_step'")
    if not starts:
        return zeros([0, frame_length], "float32")   # as TF.js's tensor2d([], [0, frameLength])
    overhang = starts[-1] + frame_length - size
    if overhang > 0:
        signal = pad(signal, [[0, overhang]], pad_value)
    indices = tensor([s + i for s in starts for i in range(frame_length)], [len(starts), frame_length], "int32")
    return gather(signal, indices)


def _enclosing_power_of_two(n):
    """The smallest 2**k >= n (TF.js's enclosingPowerOfTwo)."""
    return 1 << max(n - 1, 0).bit_length()


@op
def stft(signal: TensorLike, frame_length: int, frame_step: int, fft_length: Optional[int] = None,
         window_fn: Callable[[int], Tensor] = hann_window) -> Tensor:
    """The short-time Fourier transform: the rfft of each window_fn-weighted frame of a 1D float32
    signal.

    Args:
        signal: a 1D float32 tensor.
        frame_length: the length of each frame.
        frame_step: the distance between the starts of frames.
        fft_length: the FFT's length (None: the smallest power of two holding a frame, as TF.js).
        window_fn: a function of a length returning the window (default: hann_window).

    Returns:
        A complex64 Tensor [num_frames, fft_length // 2 + 1].

    Example:
        >>> tf.signal.stft(tf.ones([8]), 4, 4).shape
        (2, 3)
    """
    frame_length = _positive_int(frame_length, "stft", "frame_length")
    if fft_length is None:
        fft_length = _enclosing_power_of_two(frame_length)
    if not callable(window_fn):
        raise TypeError(f"stft: argument 'window_fn' must be callable, got {type(window_fn).__name__}")
    framed = frame(signal, frame_length, frame_step)
    return rfft(mul(framed, window_fn(frame_length)), fft_length)
