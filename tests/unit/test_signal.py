"""tf.signal: hann_window, hamming_window, frame on the cpu backend (values from TF.js 4.22 and
numpy formulas), frame's gradient, errors."""
import numpy as np
import pytest

import pytfweb as tf
from pytfweb.testing import numeric_gradient_error

from .helpers import assert_raises, assert_tensor


@pytest.mark.parametrize("n", [1, 2, 5, 6, 17])
def test_windows(n):
    # TF.js's cosine window: symmetric for odd n, periodic for even n
    denominator = n - 1 if n % 2 else n
    i = np.arange(n)
    hann = 0.5 - 0.5 * np.cos(2 * np.pi * i / max(denominator, 1))
    hamming = 0.54 - 0.46 * np.cos(2 * np.pi * i / max(denominator, 1))
    if n == 1:
        hann = hamming = np.ones(1)
    assert_tensor(tf.signal.hann_window(n), hann, "float32")
    assert_tensor(tf.signal.hamming_window(n), hamming, "float32")


def test_windows_tfjs_values():
    assert_tensor(tf.signal.hann_window(5), [0, 0.5, 1, 0.5, 0])
    assert_tensor(tf.signal.hamming_window(6), [0.08, 0.31, 0.77, 1, 0.77, 0.31])


def _frames(x, length, step, pad_end, value):
    out, start = [], 0
    while start + length <= len(x) or (pad_end and start < len(x)):
        piece = x[start:start + length]
        out.append(np.concatenate([piece, np.full(length - len(piece), value, x.dtype)]))
        start += step
    return np.array(out, x.dtype).reshape(-1, length)


@pytest.mark.parametrize("size, length, step", [(10, 4, 3), (10, 4, 4), (10, 3, 1), (5, 5, 2), (3, 4, 1),
                                                 (7, 2, 5), (0, 3, 1)])
@pytest.mark.parametrize("pad_end", [False, True])
def test_frame(size, length, step, pad_end):
    x = np.arange(size, dtype=np.float32) + 1
    assert_tensor(tf.signal.frame(x, length, step, pad_end, -1), _frames(x, length, step, pad_end, -1), "float32")
    xi = np.arange(size, dtype=np.int32)
    want = _frames(xi, length, step, pad_end, 0)
    # as TF.js: no frame at all is tensor2d([], [0, length]), float32 whatever the signal's dtype
    assert_tensor(tf.signal.frame(xi, length, step, pad_end), want, "int32" if want.size else "float32")


def test_frame_tfjs_value_and_gradient():
    assert_tensor(tf.signal.frame(tf.range(0, 10), 4, 3, True, -1),
                  [[0, 1, 2, 3], [3, 4, 5, 6], [6, 7, 8, 9], [9, -1, -1, -1]])
    x = tf.tensor(np.linspace(-1, 1, 9, dtype=np.float32))
    assert numeric_gradient_error(lambda t: tf.signal.frame(t, 4, 3, True), [x]) < 1e-2
    g = tf.grad(lambda t: tf.sum(tf.signal.frame(t, 4, 3)))(x)
    assert_tensor(g, [1, 1, 1, 2, 1, 1, 1, 0, 0])   # an overlapping sample twice, the unframed tail never


def test_errors():
    x = np.zeros(8, np.float32)
    assert_raises(ValueError, lambda: tf.signal.frame(np.zeros((2, 4), np.float32), 2, 1), "frame", "'signal'")
    assert_raises(ValueError, lambda: tf.signal.frame(x, -1, 1), "frame", "'frame_length'")
    assert tf.signal.frame(x, 0, 2).shape == (x.size // 2 + 1, 0)   # as TF.js: empty frames
    assert_raises(ValueError, lambda: tf.signal.frame(x, 2, 0), "frame", "'frame_step'")
    assert_raises(TypeError, lambda: tf.signal.frame(x, 2.5, 1), "frame", "'frame_length'")
    assert_raises(TypeError, lambda: tf.signal.frame(x, 2, 1, 1), "frame", "'pad_end'")
    assert_raises(ValueError, lambda: tf.signal.hann_window(0), "hann_window", "'window_length'")
    assert_raises(TypeError, lambda: tf.signal.hamming_window(2.0), "hamming_window", "'window_length'")
