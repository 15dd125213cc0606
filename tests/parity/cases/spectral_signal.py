"""tf.spectral and tf.signal: rfft (lengths, fft_length cropping and padding, batches), frame,
the windows and stft. The complex inputs fft, ifft and irfft need cannot be written as case
arguments (TF.js and pytfweb both refuse to build a complex64 tensor from values), so those three
have only the cases TF.js rejects here."""
from ..spec import case, expect, gives, sines, T

WINDOW_1 = "a window of length 1 is [1] (TF.js 4.22 divides 0 by 0 and gives [NaN])"


def W(*shape, **kw):   # noqa: N802 - reads as a type in case lists
    return sines(shape, **kw)


CASES = []
for ns in ("tf.spectral.", "tf."):
    CASES += [
        case(ns + "rfft", W(8)),
        case(ns + "rfft", W(5)),
        case(ns + "rfft", W(3, 6)),
        case(ns + "rfft", W(2, 2, 4)),
        case(ns + "rfft", W(6), 4),
        case(ns + "rfft", W(2, 5), 8),
        case(ns + "rfft", W(1)),
        case(ns + "rfft", T([1, 2, 3, 4], dtype="int32"), error=True),
        case(ns + "rfft", T(1.0, []), error=True),
        case(ns + "fft", W(4), error=True),
        case(ns + "ifft", W(4), error=True),
        case(ns + "irfft", W(4), error="TypeError"),   # float32, not complex64: TF.js crashes reading its parts
    ]
CASES += [
    # frame(signal, frameLength, frameStep, padEnd, padValue)
    case("tf.signal.frame", W(10), 4, 2),
    case("tf.signal.frame", W(10), 4, 3),
    case("tf.signal.frame", W(10), 4, 3, True),
    case("tf.signal.frame", W(10), 4, 3, True, 7),
    case("tf.signal.frame", W(3), 4, 1),
    case("tf.signal.frame", W(3), 4, 1, True, -1),
    case("tf.signal.frame", W(8), 8, 8),
    case("tf.signal.frame", T([1, 2, 3, 4, 5], dtype="int32"), 2, 2, True, 9),
    case("tf.signal.frame", W(10), 0, 2),
    case("tf.signal.frame", T([1, 2], dtype="int32"), 3, 1),
    # cosineWindow(windowLength, a, b): what the windows are made of (length 1: 0 / 0 in TF.js, and here)
    case("tf.cosineWindow", 5, 0.5, 0.5),
    case("tf.cosineWindow", 4, 0.54, 0.46),
    case("tf.cosineWindow", 1, 0.5, 0.5),
    case("tf.cosineWindow", 0, 0.5, 0.5),
    # hannWindow, hammingWindow
    case("tf.signal.hannWindow", 1, deviation=WINDOW_1),
    case("tf.signal.hannWindow", 2),
    case("tf.signal.hannWindow", 7),
    case("tf.signal.hannWindow", 8),
    case("tf.signal.hammingWindow", 1, deviation=WINDOW_1),
    case("tf.signal.hammingWindow", 5),
    case("tf.signal.hammingWindow", 8),
    # stft(signal, frameLength, frameStep, fftLength, windowFn)
    case("tf.signal.stft", W(16), 8, 4),
    case("tf.signal.stft", W(16), 6, 3),
    case("tf.signal.stft", W(16), 5, 5, 8),
    case("tf.signal.stft", W(16), 8, 8, 16),
    case("tf.signal.stft", W(9), 4, 2, 4),
]

# What pytfweb gives instead in its deviation cases (README's "Deviations from TF.js"), checked in place of
# TF.js's answer: runner.check.
expect(CASES, {
    "signal.hannWindow#1": gives(T([1.0], [1], "float32")),
    "signal.hammingWindow#1": gives(T([1.0], [1], "float32")),
})
