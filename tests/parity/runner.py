"""Runs parity cases in pytfweb and compares with TF.js's references. Plain Python (no numpy): the
browser test runs this file's source in the page, on webgl.

run_cases(tf, cases, python_names) -> {id: {"outputs": ..., "grads": ...} or {"error": message}}
run_cases_async: the same, awaiting what TF.js's *Async functions return (on webgl they need the
page's event loop); run_case_async does one case.
compare(reference, result, tol) -> None, or a message saying what differs.
"""
import math
import re

_FLOAT_TOL = {"cpu": (1e-4, 1e-5), "webgl": (2e-3, 1e-3)}


def resolve(tf, path, python_names):
    ns, name = path.split(".", 1)[1].rsplit(".", 1) if path.count(".") > 1 else ("tf", path.split(".", 1)[1])
    py = python_names.get(ns, {}).get(name)
    if py is None:
        raise LookupError(f"{path} is not in TF.js 4.22's API list")
    owner = tf if ns == "tf" else getattr(tf, ns, None)
    fn = getattr(owner, py, None) if owner is not None else None
    if fn is None:
        raise LookupError(f"pytfweb has no {'tf' if ns == 'tf' else 'tf.' + ns}.{py} (TF.js {path})")
    return fn


def _num(v):
    return float(v["float"]) if isinstance(v, dict) and "float" in v else v


def decode(tf, v):
    if isinstance(v, list):
        return [decode(tf, x) for x in v]
    if isinstance(v, dict):
        if "tensor" in v:
            return tf.tensor([_num(x) for x in v["tensor"]], v["shape"], v["dtype"])
        if "float" in v:
            return _num(v)
        return {k: decode(tf, x) for k, x in v.items()}
    return v


def _enc_num(x):
    if isinstance(x, float) and not math.isfinite(x):
        return {"float": "NaN" if math.isnan(x) else ("Infinity" if x > 0 else "-Infinity")}
    return x


def encode(tf, v):
    if isinstance(v, tf.Tensor):
        values = v.data_sync()
        values = list(values) if v.dtype == "string" else [_enc_num(float(x) if v.dtype in ("float32", "complex64")
                                                                     else int(x)) for x in values]
        return {"tensor": values, "shape": list(v.shape), "dtype": v.dtype}
    if hasattr(v, "_asdict"):
        return {k: encode(tf, x) for k, x in v._asdict().items()}
    if isinstance(v, (list, tuple)):
        return [encode(tf, x) for x in v]
    if isinstance(v, dict):
        return {k: encode(tf, x) for k, x in v.items()}
    if isinstance(v, bool):
        return v
    return _enc_num(float(v)) if isinstance(v, float) else v


def _first(tf, out):
    if isinstance(out, tf.Tensor):
        return out
    if hasattr(out, "_asdict"):
        return list(out._asdict().values())[0]
    if isinstance(out, dict):
        return list(out.values())[0]
    return out[0]


def _snake(key):
    return re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", key).lower()


def run_case(tf, c, python_names):
    def call(fn, args, kwargs):
        return fn(*args, **kwargs)

    out = {}
    try:
        fn = resolve(tf, c["fn"], python_names)

        def body():
            args = [decode(tf, a) for a in c["args"]]
            kwargs = {k: decode(tf, v) for k, v in (c.get("kwargs") or {}).items()}
            if c.get("opts"):
                kwargs.update({_snake(k): decode(tf, v) for k, v in c["opts"].items()})
            result = call(fn, args, kwargs)
            out["outputs"] = encode(tf, result)
            if c.get("opts"):   # the same options as one dict, as TF.js users write them
                out["outputs_opts_dict"] = encode(tf, fn(*args, decode(tf, c["opts"])))
            if c.get("grad"):
                idx = [i for i, a in enumerate(args) if isinstance(a, tf.Tensor) and a.dtype == "float32"]
                y = _first(tf, result)
                dy = tf.tensor([math.sin(i + 1) for i in range(y.size)], list(y.shape), y.dtype)

                def f(*xs):
                    a = list(args)
                    for j, x in zip(idx, xs):
                        a[j] = x
                    return _first(tf, call(fn, a, kwargs))
                out["grads"] = encode(tf, tf.grads(f)([args[j] for j in idx], dy))
            return None
        tf.tidy(body)
    except Exception as e:   # noqa: BLE001 - reported per case
        out = {"error": f"{type(e).__name__}: {e}"[:300]}
    return out


def run_cases(tf, cases, python_names):
    return {c["id"]: run_case(tf, c, python_names) for c in cases}


async def run_case_async(tf, c, python_names):
    """run_case, awaiting the result of a TF.js *Async function (no tidy scope can span an await:
    every tensor made here is disposed at the end; no gradients)."""
    if not c["fn"].endswith("Async"):
        return run_case(tf, c, python_names)
    out, held = {}, []
    try:
        fn = resolve(tf, c["fn"], python_names)
        args = [decode(tf, a) for a in c["args"]]
        kwargs = {k: decode(tf, v) for k, v in (c.get("kwargs") or {}).items()}
        held += [args, kwargs]
        if c.get("opts"):
            kwargs.update({_snake(k): decode(tf, v) for k, v in c["opts"].items()})
        result = await fn(*args, **kwargs)
        held.append(result)
        out["outputs"] = encode(tf, result)
        if c.get("opts"):
            opts = decode(tf, c["opts"])
            held.append(opts)
            result = await fn(*args, opts)
            held.append(result)
            out["outputs_opts_dict"] = encode(tf, result)
    except Exception as e:   # noqa: BLE001 - reported per case
        out = {"error": f"{type(e).__name__}: {e}"[:300]}
    finally:
        tf.dispose(held)
    return out


async def run_cases_async(tf, cases, python_names):
    return {c["id"]: await run_case_async(tf, c, python_names) for c in cases}


def _close(a, b, rtol, atol):
    if isinstance(a, dict) or isinstance(b, dict):
        a, b = _num(a), _num(b)
    if isinstance(a, str) or isinstance(b, str):
        return a == b
    if a is None or b is None:
        return a is b
    if math.isnan(b):
        return math.isnan(a)
    if math.isinf(b):
        return a == b
    return abs(a - b) <= atol + rtol * abs(b)


def compare(ref, got, backend="cpu", tol=None, where=""):
    """None when got matches ref (shapes and dtypes exactly, values within the backend's
    tolerance), else a message naming the first difference."""
    rtol, atol = tol or _FLOAT_TOL[backend]
    if isinstance(ref, dict) and "tensor" in ref:
        if not (isinstance(got, dict) and "tensor" in got):
            return f"{where}: expected a tensor, got {str(got)[:80]}"
        if list(ref["shape"]) != list(got["shape"]):
            return f"{where}: shape {got['shape']} != TF.js's {ref['shape']}"
        if ref["dtype"] != got["dtype"]:
            return f"{where}: dtype {got['dtype']} != TF.js's {ref['dtype']}"
        exact = ref["dtype"] not in ("float32", "complex64")
        for i, (a, b) in enumerate(zip(got["tensor"], ref["tensor"])):
            if not (a == b if exact else _close(a, b, rtol, atol)):
                return f"{where}: value [{i}] {_num(a)} != TF.js's {_num(b)}"
        return None
    if isinstance(ref, list):
        if not isinstance(got, list) or len(got) != len(ref):
            return f"{where}: expected a list of {len(ref)}, got {str(got)[:80]}"
        for i, (r, g) in enumerate(zip(ref, got)):
            m = compare(r, g, backend, tol, f"{where}[{i}]")
            if m:
                return m
        return None
    if isinstance(ref, dict) and "float" not in ref:
        # TF.js's result objects have camelCase keys, pytfweb's named tuples snake_case fields
        ref = {_snake(k): v for k, v in ref.items()}
        got = {_snake(k): v for k, v in got.items()} if isinstance(got, dict) else got
        if not isinstance(got, dict) or set(got) != set(ref):
            gk = sorted(got) if isinstance(got, dict) else type(got).__name__
            return f"{where}: expected keys {sorted(ref)}, got {gk}"
        for k in ref:
            m = compare(ref[k], got[k], backend, tol, f"{where}.{k}")
            if m:
                return m
        return None
    return None if _close(got, ref, rtol, atol) or got == ref else f"{where}: {got!r} != TF.js's {ref!r}"


def check(case, ref, got, backend="cpu"):
    """The difference between pytfweb's result and TF.js's for one case, or None."""
    if case.get("deviation"):
        return None   # documented in the README (the unit test checks that it is)
    if "error" in ref:
        return None if "error" in got else f"TF.js raises ({ref['error'][:120]}) but pytfweb returns a result"
    if "error" in got:
        return f"pytfweb raises {got['error']}"
    tol = tuple(case["tol"]) if case.get("tol") else None
    m = compare(ref["outputs"], got["outputs"], backend, tol, "output")
    if m is None and "outputs_opts_dict" in got:
        m = compare(ref["outputs"], got["outputs_opts_dict"], backend, tol, "output (options as a dict)")
    if m is None and "grads" in ref:
        m = compare(ref["grads"], got.get("grads"), backend, tol, "gradient")
    # where TF.js cannot differentiate a case (ref["grad_error"]), pytfweb's gradient is checked
    # numerically elsewhere (tests/unit/test_gradients_*), not here
    return m
