"""Checking gradients numerically, on whatever backend is active (cpu here, webgl in a page;
webgpu, whose reads are awaited, through numeric_gradient_error_async).

Written with tf ops and plain Python only, so it runs in Pyodide without numpy.
"""
import math
import random
import struct

from . import ops
from .autodiff import grads
from .core.engine import ENGINE


def numeric_gradient_error(f, xs, eps=None, seed=0):
    """See _numeric_gradient_error; every tensor it makes is disposed before it returns."""
    def drive():
        check = _numeric_gradient_error(f, xs, eps, seed)
        try:
            t = next(check)
            while True:
                t = check.send(t.data_sync())
        except StopIteration as done:
            return done.value
        finally:
            check.close()
    return ENGINE.tidy(drive)


async def numeric_gradient_error_async(f, xs, eps=None, seed=0):
    """numeric_gradient_error with every read awaited (`await t.data()`), for a backend that
    cannot read synchronously (webgpu); every tensor it makes is disposed before it returns."""
    check = _numeric_gradient_error(f, xs, eps, seed)
    try:
        t = next(check)
        while True:
            t = check.send(await t.data())
    except StopIteration as done:
        return done.value
    finally:
        check.close()   # a read that raised: the generator's own finally disposes what it made


def _half(v):
    """v rounded to the nearest float16 (what a half-float texture holds)."""
    return struct.unpack("<e", struct.pack("<e", v))[0]


def _single(v):
    """v rounded to the nearest float32 (what a float32 tensor holds)."""
    return struct.unpack("<f", struct.pack("<f", v))[0]


def _numeric_gradient_error(f, xs, eps, seed):
    """A generator yielding each tensor whose values it needs (sent back to it as a flat
    sequence) and returning the relative error of f's analytic gradients against centred
    differences of step eps, for the scalar sum(f(*xs) * w) with fixed random weights w (so every
    output element counts), over every float32 input: the largest of, per input,
      - per element, max(0, |a - n| - noise) / |n|, so `error < rtol` is numpy's
        |a - n| <= noise + rtol * |n| (torch.autograd.gradcheck's allclose test, with atol the
        numeric noise of this element rather than a constant: a constant small enough for
        gradients of 1e-3 is below float32's noise for gradients of 1e2);
      - the norm ratio ||max(0, |a - n| - noise)|| / ||n|| (TensorFlow's gradient checker and
        gradcheck's fast mode judge the whole gradient at once): at most the per-element error,
        and the one that speaks for an input whose gradient is all noise.
    Where |n| is 0 the element's error is infinite unless |a - n| is within the noise: an
    analytic gradient that is not zero where the function does not move is wrong. So a gradient
    zeroed, off by 1% or transposed is caught at any magnitude, not only where |n| >= 1.

    The noise: the weighted sums of the two evaluations are taken here in double precision, so
    outputs the move does not touch cancel exactly. On storage of `float_precision()` bits the
    rest of what separates numeric from analytic is the rounding of the touched outputs (each
    ROUNDINGS unit roundoffs of its magnitude, divided by the step: the eps*|f|/h of a centred
    difference) and of the analytic gradient (ROUNDINGS unit roundoffs of it). The moved inputs
    are rounded to their storage first, so the step divided by is the one the backend holds. On
    half floats the default step is 1/128, a power of two below 1e-2 (no nearer a kink than
    1e-2). An element off by more than the noise has its difference taken again with step
    2 * eps and extrapolated (Richardson), so the truncation error of a centred difference,
    h**2/6 * f''' (absolute, so large against small gradients), does not count against it;
    inputs are then to be 2 * eps from a kink.
    Outputs are assumed rounded at their own magnitude: a function whose outputs are differences
    of larger terms (a float32 sum inside f, a gradient as output) rounds beyond that bound, and
    its check is better given the terms themselves as outputs (the weighted sum here is exact)."""
    given = xs
    xs = [ops.convert_to_tensor(x, f"xs[{i}]", "numeric_gradient_error") for i, x in enumerate(xs)]
    made = [x for x, g in zip(xs, given) if x is not g]
    rng = random.Random(seed)
    shape = ENGINE.tidy(lambda: list(f(*xs).shape))
    w = [rng.uniform(0.5, 1.5) for _ in range(math.prod(shape))]
    weights = None
    try:
        weights = ops.tensor(w, shape, "float32")

        def scalar(*args):
            y = f(*args)
            return ops.sum(ops.mul(ops.cast(y, "float32"), weights))

        gradients = ENGINE.tidy(lambda: grads(scalar)(xs))
        try:
            analytic = []
            for g in gradients:
                analytic.append(list((yield g)) if g is not None else None)
        finally:
            for g in gradients:
                if g is not None:
                    g.dispose()
        return (yield from _compare(f, xs, w, analytic, eps))
    finally:
        for t in made + ([weights] if weights is not None else []):
            t.dispose()


def _compare(f, xs, w, analytic, eps):
    half = ENGINE.backend.float_precision() == 16
    if eps is None:
        eps = 1 / 128 if half else 1e-2
    unit = 2.0 ** -11 if half else 2.0 ** -24
    store = _half if half else _single
    worst = 0.0
    for k, x in enumerate(xs):
        if x.dtype != "float32":
            continue
        base = [store(v) for v in (yield x)]
        excess_sq = numeric_sq = 0.0
        for i in range(len(base)):
            got = analytic[k][i] if analytic[k] is not None else 0.0
            numeric, noise = yield from _central(f, xs, k, i, base, eps, store, w, unit)
            noise += ROUNDINGS * unit * abs(got)   # the analytic gradient is a stored value too
            excess = abs(got - numeric) - noise
            if not excess <= 0.0:
                # Past the noise: the truncation error taken out first (h**2/6 * f''', absolute,
                # so 0.8% of x**3/3's gradient 4e-3 at h = 1e-2): Richardson's (4 D(h) - D(2h)) / 3
                # cancels the h**2 term, for (4 + 1/2) / 3 of the rounding noise.
                wide, wide_noise = yield from _central(f, xs, k, i, base, 2 * eps, store, w, unit)
                numeric, noise = (4 * numeric - wide) / 3, (4 * noise + wide_noise) / 3
                noise += ROUNDINGS * unit * abs(got)
                excess = abs(got - numeric) - noise
            if math.isnan(excess):   # a NaN where the function or its gradient moves fails the check
                return math.inf
            excess = max(0.0, excess)
            worst = max(worst, _ratio(excess, abs(numeric)))
            excess_sq += excess * excess
            numeric_sq += numeric * numeric
        worst = max(worst, _ratio(math.sqrt(excess_sq), math.sqrt(numeric_sq)))
    return worst


def _central(f, xs, k, i, base, eps, store, w, unit):
    """The centred difference of sum(f(*xs) * w) in element i of xs[k] (whose values are `base`)
    with step eps, and the bound of its rounding noise."""
    ends, ys = [], []
    for sign in (1, -1):
        moved = list(base)
        moved[i] = store(base[i] + sign * eps)
        ends.append(moved[i])
        args = list(xs)
        args[k] = ops.tensor(moved, xs[k].shape, "float32")
        y = ENGINE.tidy(lambda: ops.cast(f(*args), "float32"))
        try:
            ys.append(list((yield y)))
        finally:
            y.dispose()
            args[k].dispose()
    step = ends[0] - ends[1]
    # untouched outputs cancel exactly, infinite ones too (a max pool's all-padding window)
    changed = [(wj, a, b) for wj, a, b in zip(w, *ys) if a != b]
    numeric = sum(wj * (a - b) for wj, a, b in changed) / step
    # where no output moved, the move may still have touched some by less than their rounding (a
    # half-float loss): their rounding bounds what the difference could not see
    noise = ROUNDINGS * unit * sum(wj * (abs(a) + abs(b)) for wj, a, b in (changed or zip(w, *ys))) / step
    return numeric, noise


def _ratio(excess, scale):
    if excess == 0.0:
        return 0.0
    return excess / scale if scale > 0.0 else math.inf


# Roundings a stored output value may carry from the passes that made it (its own, its
# inputs', a multi-pass kernel's intermediates).
ROUNDINGS = 4
