"""Helpers for tests of code written on pytfweb, on whatever backend is active (cpu in CPython,
webgl or webgpu in a page): the same test runs on each (the pytest plugin's
`@pytest.mark.pytfweb`).

    assert_close(actual, expected, rtol=None, atol=None)   values within TF.js's test tolerances
    assert_equal(actual, expected)                          dtype, shape and values exactly
    check_gradients(f, xs, rtol=None)                       autodiff against centred differences
    with no_leaks(): ...                                    no tensor or data buffer left behind
    numeric_gradient_error(f, xs)                           the relative error check_gradients bounds

On webgpu outside an async call, reads are awaited: `await assert_close_async(...)`,
`await check_gradients_async(...)` (in a page run by the plugin the synchronous forms work too).

Written with tf ops and plain Python only, so it runs in Pyodide without numpy.
"""
import contextlib
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


# --- assertions for users' tests ------------------------------------------------------------------

# TF.js's test_util: expectArraysClose's default epsilon is testEpsilon(), 1e-3 where the active
# backend stores float32 and 1e-1 where it stores half floats (a webgl device without float
# textures); absolute, as TF.js's areClose is.
TEST_EPSILON_FLOAT32 = 1e-3
TEST_EPSILON_FLOAT16 = 1e-1


def test_epsilon():
    """TF.js's testEpsilon(): the default absolute tolerance of assert_close on the active backend."""
    return TEST_EPSILON_FLOAT32 if ENGINE._active().float_precision() == 32 else TEST_EPSILON_FLOAT16


test_epsilon.__test__ = False   # pytest: not a test


def _is_tensor(x):
    return hasattr(x, "data_id") and hasattr(x, "dtype") and hasattr(x, "shape")


def _nested(x):
    """(flat values, shape) of a number, a nested list/tuple, or anything with tolist()."""
    if hasattr(x, "tolist") and not isinstance(x, (list, tuple)):
        x = x.tolist()
    if not isinstance(x, (list, tuple)):
        return [x], []
    if not x:
        return [], [0]
    parts = [_nested(v) for v in x]
    shape = parts[0][1]
    if any(p[1] != shape for p in parts):
        raise ValueError(f"assert_close: a ragged nested list ({[p[1] for p in parts]} inside)")
    return [v for p in parts for v in p[0]], [len(x)] + shape


def _dtype_of(x, values):
    dt = getattr(x, "dtype", None)
    if dt is not None:
        name = str(dt)
        for prefix, tf_dtype in (("float", "float32"), ("int", "int32"), ("uint", "int32"), ("bool", "bool"),
                                 ("complex", "complex64"), ("str", "string"), ("<U", "string")):
            if name.startswith(prefix):
                return tf_dtype
        return name
    if values and all(isinstance(v, bool) for v in values):
        return "bool"
    if values and all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        return "int32"
    if values and all(isinstance(v, str) for v in values):
        return "string"
    return "float32"


def _read(x):
    """(flat values, shape, dtype, whether the shape is meaningful) of a tensor, array, list or number."""
    if _is_tensor(x):
        return list(x.data_sync()), list(x.shape), x.dtype, True
    values, shape = _nested(x)
    strict = hasattr(x, "shape") or len(shape) != 1   # a flat list compares with any shape, as in TF.js
    return values, shape, _dtype_of(x, values), strict


async def _read_async(x):
    if _is_tensor(x):
        return list(await x.data()), list(x.shape), x.dtype, True
    return _read(x)


def _close(a, e, atol, rtol):
    if isinstance(a, str) or isinstance(e, str):
        return a == e
    a, e = float(a), float(e)
    if math.isnan(a) or math.isnan(e):
        return math.isnan(a) and math.isnan(e)
    if math.isinf(a) or math.isinf(e):
        return a == e
    return abs(a - e) <= atol + rtol * abs(e)


def _index(i, shape):
    idx = []
    for n in reversed(shape or [1]):
        idx.append(i % n if n else 0)
        i //= n if n else 1
    return list(reversed(idx)) if shape else []


def _check_values(actual, expected, rtol, atol, what, check_dtype):
    __tracebackhide__ = True   # pytest: the failure shows at the caller's line
    (av, ashape, adtype, astrict), (ev, eshape, edtype, estrict) = actual, expected
    where = f"{adtype} on {ENGINE.backend_name}"
    if check_dtype and adtype != edtype:
        raise AssertionError(f"{what}: dtype {adtype} is not the expected {edtype}")
    if astrict and estrict and ashape != eshape:
        raise AssertionError(f"{what}: shape {ashape} is not the expected {eshape}")
    if len(av) != len(ev):
        raise AssertionError(f"{what}: {len(av)} values (shape {ashape}), expected {len(ev)} (shape {eshape})")
    if adtype in ("float32", "complex64"):
        atol = test_epsilon() if atol is None else atol
    atol, rtol = atol or 0.0, rtol or 0.0
    bad = [i for i, (a, e) in enumerate(zip(av, ev)) if not _close(a, e, atol, rtol)]
    if bad:
        lines = [f"{what}: {len(bad)} of {len(av)} values differ beyond atol={atol:g}, rtol={rtol:g} ({where})"]
        for i in bad[:8]:
            a, e = av[i], ev[i]
            diff = "" if isinstance(a, str) or isinstance(e, str) else f" (difference {abs(float(a) - float(e)):.6g})"
            lines.append(f"  at {_index(i, ashape)}: actual {a!r}, expected {e!r}{diff}")
        if len(bad) > 8:
            lines.append(f"  ... and {len(bad) - 8} more")
        raise AssertionError("\n".join(lines))


def assert_close(actual, expected, rtol=None, atol=None):
    """Raises AssertionError unless every value of `actual` is within atol + rtol * |expected| of
    `expected` (NaN matches NaN, an infinity the same infinity). Either may be a Tensor, a numpy
    array, a (nested) list or a number. Default tolerances are TF.js's (expectArraysClose): for
    float32, atol = test_epsilon() (1e-3; 1e-1 on half floats) and rtol = 0; int32, bool and
    strings exactly. Shapes must agree, except against a flat list (TF.js compares a tensor with
    its flat values)."""
    __tracebackhide__ = True   # pytest: the failure shows at the caller's line
    _check_values(_read(actual), _read(expected), rtol, atol, "assert_close", False)


async def assert_close_async(actual, expected, rtol=None, atol=None):
    """assert_close with tensors read by `await t.data()` (webgpu outside an async call)."""
    __tracebackhide__ = True   # pytest: the failure shows at the caller's line
    _check_values(await _read_async(actual), await _read_async(expected), rtol, atol, "assert_close", False)


def assert_equal(actual, expected):
    """Raises AssertionError unless `actual` has `expected`'s values exactly, and its dtype when
    both carry one (a Tensor or an array: TF.js's expectArraysEqual)."""
    __tracebackhide__ = True   # pytest: the failure shows at the caller's line
    a, e = _read(actual), _read(expected)
    typed = (_is_tensor(actual) or hasattr(actual, "dtype")) and (_is_tensor(expected) or hasattr(expected, "dtype"))
    _check_values(a, e, 0.0, 0.0, "assert_equal", typed)


def _gradient_rtol(rtol):
    if rtol is not None:
        return rtol
    return 1e-2 if ENGINE._active().float_precision() == 32 else 1e-1


def _gradient_message(error, rtol):
    return (f"check_gradients: the analytic gradient differs from the numeric one by a relative error of "
            f"{error:.3g}, more than rtol={rtol:g} (on {ENGINE.backend_name})")


def check_gradients(f, xs, rtol=None, eps=None):
    """Raises AssertionError when f's gradients (autodiff) differ from centred differences by a
    relative error above rtol (default 1e-2; 1e-1 on half floats): numeric_gradient_error, over
    every float32 input in xs. Returns the error."""
    __tracebackhide__ = True   # pytest: the failure shows at the caller's line
    rtol = _gradient_rtol(rtol)
    error = numeric_gradient_error(f, xs, eps)
    if not error <= rtol:
        raise AssertionError(_gradient_message(error, rtol))
    return error


async def check_gradients_async(f, xs, rtol=None, eps=None):
    """check_gradients with every read awaited (webgpu outside an async call)."""
    __tracebackhide__ = True   # pytest: the failure shows at the caller's line
    rtol = _gradient_rtol(rtol)
    error = await numeric_gradient_error_async(f, xs, eps)
    if not error <= rtol:
        raise AssertionError(_gradient_message(error, rtol))
    return error


@contextlib.contextmanager
def no_leaks():
    """Raises AssertionError when the block ends with more tensors or data buffers than it began with
    (tf.memory()); what the block leaked is left for the caller to see."""
    before = ENGINE.memory()
    yield
    after = ENGINE.memory()
    if after.num_tensors > before.num_tensors or after.num_data_buffers > before.num_data_buffers:
        raise AssertionError(f"no_leaks: tf.memory() went from {before.num_tensors} tensors / "
                             f"{before.num_data_buffers} data buffers to {after.num_tensors} / "
                             f"{after.num_data_buffers} in the block")
