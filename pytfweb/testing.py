"""Checking gradients numerically, on whatever backend is active (cpu here, webgl in a page).

Written with tf ops and plain Python only, so it runs in Pyodide without numpy.
"""
import random

from . import ops
from .autodiff import grads
from .engine import ENGINE


def numeric_gradient_error(f, xs, eps=1e-2, seed=0):
    """See _numeric_gradient_error; every tensor it makes is disposed before it returns."""
    return ENGINE.tidy(lambda: _numeric_gradient_error(f, xs, eps, seed))


def _numeric_gradient_error(f, xs, eps, seed):
    """Largest |analytic - numeric| / max(1, |numeric|) over every element of every float32
    input, for the scalar sum(f(*xs) * w) with fixed random weights w (so every output element
    counts). Numeric gradients are centred differences with step eps, computed in float32."""
    xs = [ops.convert_to_tensor(x, f"xs[{i}]", "numeric_gradient_error") for i, x in enumerate(xs)]
    rng = random.Random(seed)
    out = f(*xs)
    weights = ops.tensor([rng.uniform(0.5, 1.5) for _ in range(out.size)], out.shape, "float32")
    out.dispose()

    def scalar(*args):
        y = f(*args)
        return ops.sum(ops.mul(ops.cast(y, "float32"), weights))

    analytic = [g.data_sync() if g is not None else None for g in grads(scalar)(xs)]
    worst = 0.0
    for k, x in enumerate(xs):
        if x.dtype != "float32":
            continue
        base = list(x.data_sync())
        for i in range(len(base)):
            values = []
            for sign in (1, -1):
                moved = list(base)
                moved[i] += sign * eps
                args = list(xs)
                args[k] = ops.tensor(moved, x.shape, "float32")
                values.append(scalar(*args).data_sync()[0])
            numeric = (values[0] - values[1]) / (2 * eps)
            got = analytic[k][i] if analytic[k] is not None else 0.0
            worst = max(worst, abs(got - numeric) / max(1.0, abs(numeric)))
    return worst
