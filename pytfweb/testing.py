"""Checking gradients numerically, on whatever backend is active (cpu here, webgl in a page).

Written with tf ops and plain Python only, so it runs in Pyodide without numpy.
"""
import random
import struct

from . import ops
from .autodiff import grads
from .core.engine import ENGINE


def numeric_gradient_error(f, xs, eps=None, seed=0):
    """See _numeric_gradient_error; every tensor it makes is disposed before it returns."""
    return ENGINE.tidy(lambda: _numeric_gradient_error(f, xs, eps, seed))


def _half(v):
    """v rounded to the nearest float16 (what a half-float texture holds)."""
    return struct.unpack("<e", struct.pack("<e", v))[0]


def _numeric_gradient_error(f, xs, eps, seed):
    """Largest |analytic - numeric| / max(1, |numeric|) over every element of every float32
    input, for the scalar sum(f(*xs) * w) with fixed random weights w (so every output element
    counts). Numeric gradients are centred differences with step eps.

    The weighted sums of the two evaluations are taken here in double precision, so outputs the
    move does not touch cancel exactly. On storage of `float_precision()` bits, the rest of what
    separates numeric from analytic is the rounding of the touched outputs and of the analytic
    gradient: the error counts only past that bound (ROUNDINGS roundings of unit roundoff each
    per stored value). On half floats the moved values are themselves rounded first, so the step
    is the one the backend stores, and the default step is 1/128, a power of two below 1e-2 (no
    nearer a kink than 1e-2)."""
    half = ENGINE.backend.float_precision() == 16
    if eps is None:
        eps = 1 / 128 if half else 1e-2
    unit = 2.0 ** -11 if half else 2.0 ** -24
    store = _half if half else float
    xs = [ops.convert_to_tensor(x, f"xs[{i}]", "numeric_gradient_error") for i, x in enumerate(xs)]
    rng = random.Random(seed)
    out = f(*xs)
    w = [rng.uniform(0.5, 1.5) for _ in range(out.size)]
    weights = ops.tensor(w, out.shape, "float32")
    out.dispose()

    def scalar(*args):
        y = f(*args)
        return ops.sum(ops.mul(ops.cast(y, "float32"), weights))

    def outputs(args):
        y = f(*args)
        values = ops.cast(y, "float32").data_sync()
        y.dispose()
        return values

    analytic = [g.data_sync() if g is not None else None for g in grads(scalar)(xs)]
    worst = 0.0
    for k, x in enumerate(xs):
        if x.dtype != "float32":
            continue
        base = [store(v) for v in x.data_sync()]
        for i in range(len(base)):
            ends, ys = [], []
            for sign in (1, -1):
                moved = list(base)
                moved[i] = store(base[i] + sign * eps)
                ends.append(moved[i])
                args = list(xs)
                args[k] = ops.tensor(moved, x.shape, "float32")
                ys.append(outputs(args))
                args[k].dispose()
            step = ends[0] - ends[1]
            numeric = sum(wj * (a - b) for wj, a, b in zip(w, *ys)) / step
            noise = ROUNDINGS * unit * sum(wj * (abs(a) + abs(b)) for wj, a, b in zip(w, *ys) if a != b) / step
            got = analytic[k][i] if analytic[k] is not None else 0.0
            noise += ROUNDINGS * unit * abs(got)   # the analytic gradient is a stored value too
            worst = max(worst, max(0.0, abs(got - numeric) - noise) / max(1.0, abs(numeric)))
    return worst


# Roundings a stored output value may carry from the passes that made it (its own, its
# inputs', a multi-pass kernel's intermediates).
ROUNDINGS = 4
