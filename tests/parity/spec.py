"""How parity cases are written: plain data both TF.js (under node) and pytfweb (CPython or the page)
can read.

    case("tf.add", T([1, 2, 3]), T([[1], [2]]), grad=True)

calls TF.js's `tf.add` with those positional arguments and pytfweb's `tf.add` with the same ones in
the same order (the Python name comes from the API list's python_names); `kwargs` gives options as
Python keyword arguments (snake_case), `opts` the same options as the one object TF.js takes last.
T(values, shape=None, dtype="float32") is a tensor argument (values flat or nested; NaN and infinities
as float("nan") etc.). grad=True also compares the gradients with respect to every float32 tensor
argument, for an upstream gradient dy = sin(i + 1) in the output's shape (the first output when there
are several). error=True marks a case TF.js rejects: pytfweb must raise too.
"""
import math

_ids = {}


def T(values, shape=None, dtype="float32"):   # noqa: N802 - reads as a type in case lists
    return {"tensor": _flat(values), "shape": _shape(values) if shape is None else list(shape), "dtype": dtype}


def case(fn, *args, kwargs=None, opts=None, grad=False, error=False, tol=None, name=None, deviation=None):
    """One call of TF.js function `fn` ('tf.add', 'tf.image.resizeBilinear', ...). deviation: where
    pytfweb deliberately differs, the reason, word for word as README's "Deviations from TF.js" lists
    it; such a case is not compared (the test checks that the README carries the reason)."""
    base = name or fn.split(".", 1)[1]
    _ids[base] = _ids.get(base, 0) + 1
    out = {"id": f"{base}#{_ids[base]}", "fn": fn, "args": [_encode(a) for a in args]}
    if kwargs:
        out["kwargs"] = {k: _encode(v) for k, v in kwargs.items()}
    if opts:
        out["opts"] = {k: _encode(v) for k, v in opts.items()}
    if grad:
        out["grad"] = True
    if error:
        out["error"] = True
    if tol is not None:
        out["tol"] = tol
    if deviation:
        out["deviation"] = deviation
    return out


def seq(n, start=1.0, step=1.0):
    """[start, start + step, ...], n values: deterministic inputs that are not all alike."""
    return [start + i * step for i in range(n)]


def wave(n, scale=1.0):
    """sin(i + 1) * scale for i < n."""
    return [math.sin(i + 1) * scale for i in range(n)]


def sines(shape, scale=1.0, shift=0, offset=0.0, dtype="float32", int_scale=1.0):
    """A tensor of shape holding sin(i + 1 + shift) * scale + offset (int32: those rounded after
    multiplying by int_scale): deterministic values that are not all alike."""
    n = math.prod(shape)
    vals = [math.sin(i + 1 + shift) * scale + offset for i in range(n)]
    if dtype == "int32":
        vals = [int(round(v * int_scale)) for v in vals]
    return T(vals, list(shape), dtype)


def ramp(shape, start=1.0, dtype="float32"):
    """A tensor of shape holding start, start + 1, ..."""
    n = math.prod(shape)
    vals = list(range(start, start + n)) if dtype == "int32" else seq(n, start)
    return T(vals, list(shape), dtype)


def _encode(v):
    if isinstance(v, float) and not math.isfinite(v):
        return {"float": "NaN" if math.isnan(v) else ("Infinity" if v > 0 else "-Infinity")}
    if isinstance(v, (list, tuple)):
        return [_encode(x) for x in v]
    if isinstance(v, dict) and "tensor" in v:
        return {**v, "tensor": [_encode(x) for x in v["tensor"]]}
    return v


def _flat(values):
    if isinstance(values, (list, tuple)):
        return [x for v in values for x in _flat(v)]
    return [values]


def _shape(values):
    shape = []
    while isinstance(values, (list, tuple)):
        shape.append(len(values))
        values = values[0] if values else None
    return shape
