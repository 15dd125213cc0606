"""Runs parity cases in pytfweb and compares with TF.js's references. Plain Python (no numpy): the
browser test runs this file's source in the page, on webgl.

run_cases(tf, cases, python_names) -> {id: {"outputs": ..., "grads": ...} or {"error": message}}
run_cases_async: the same, awaiting what TF.js's *Async functions return (on webgl they need the
page's event loop); run_case_async does one case.
compare(reference, result, tol) -> None, or a message saying what differs.
"""
import array
import inspect
import math
import re

_FLOAT_TOL = {"cpu": (1e-4, 1e-5), "gpu": (2e-3, 1e-3)}


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


def _snake(key):
    return re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", key).lower()


def make_function(tf, f):
    """A function argument (spec.fn_arg): the same deterministic function tfjs_run.js makes."""
    if f["fn"] == "counter":   # start, start + step, ... modulo mod
        start, step, mod = f["params"]
        k = [0]

        def counter():
            v = start + step * k[0]
            k[0] += 1
            return math.fmod(v, mod) if mod else v
        return counter
    if f["fn"] == "basicLSTMCell":   # a basic_lstm_cell with its weights bound, as multi_rnn_cell takes it
        forget_bias, kernel, bias = [decode(tf, p) for p in f["params"]]
        return lambda data, c, h: tf.basic_lstm_cell(forget_bias, kernel, bias, data, c, h)
    if f["fn"] == "weightsOf":   # a load_weights callback: the manifest -> (its specs, data), awaited
        data = decode(tf, f["params"][0])

        async def weights_of(manifest):
            return [w for g in manifest for w in g["weights"]], data
        return weights_of
    if f["fn"] == "after":   # false until its n-th call, then true (a tf.util.repeated_try check)
        n, k = f["params"][0], [0]

        def after():
            k[0] += 1
            return k[0] >= n
        return after
    if f["fn"] == "scale":
        k = f["params"][0]
        return lambda x: tf.mul(x, k) if isinstance(x, tf.Tensor) else x * k
    if f["fn"] == "above":
        k = f["params"][0]
        return lambda x: x > k
    if f["fn"] == "range":   # a generator function of 0 .. n - 1, or of {xs: [i, i + 1], ys: i} with pairs
        n, pairs = f["params"]

        def gen():
            for i in range(n):
                yield {"xs": [i, i + 1], "ys": i} if pairs else i
        return gen
    if f["fn"] == "countdown":   # a tf.data.func function: {value: 0, done: False}, ... n - 1, then done
        n, i = f["params"][0], [0]

        def step():
            i[0] += 1
            return {"value": i[0] - 1, "done": False} if i[0] <= n else {"value": None, "done": True}
        return step
    raise ValueError(f"unknown function argument {f['fn']}")


def decode(tf, v):
    if isinstance(v, list):
        return [decode(tf, x) for x in v]
    if isinstance(v, dict):
        if "tensor" in v:
            return tf.tensor([_num(x) for x in v["tensor"]], v["shape"], v["dtype"])
        if "float" in v:
            return _num(v)
        if "bytes" in v:
            return bytes(v["bytes"])
        if "fn" in v:
            return make_function(tf, v)
        if "make" in v:   # spec.made
            ns, name = v["py"]
            return getattr(getattr(tf, ns), name)(*[decode(tf, a) for a in v["args"]])
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
    if isinstance(v, (bytes, bytearray, memoryview)) or (isinstance(v, array.array) and v.typecode == "B"):
        return {"bytes": list(bytes(v))}   # as tfjs_run.js encodes ArrayBuffers and Uint8Arrays
    if isinstance(v, array.array):
        return [_enc_num(x) for x in v]
    if hasattr(v, "_asdict"):
        return {k: encode(tf, x) for k, x in v._asdict().items()}
    if isinstance(v, (list, tuple)):
        return [encode(tf, x) for x in v]
    if isinstance(v, dict):
        return {k: encode(tf, x) for k, x in v.items() if x is not None}
    if isinstance(v, bool):
        return v
    return _enc_num(float(v)) if isinstance(v, float) else v


def _first(tf, out):
    if isinstance(out, tf.Tensor):
        return out
    if hasattr(out, "_asdict"):
        return _first(tf, list(out._asdict().values())[0])
    if isinstance(out, dict):
        return _first(tf, list(out.values())[0])
    return _first(tf, out[0])


def _float_indices(tf, args):
    return [i for i, a in enumerate(args) if isinstance(a, tf.Tensor) and a.dtype == "float32"]


def _path(obj, path):
    """obj.a.b for TF.js's property path 'a.b' (camelCase read as snake_case)."""
    for part in path.split("."):
        obj = (obj[part] if part in obj else obj[_snake(part)]) if isinstance(obj, dict) else getattr(obj, _snake(part))
    return obj


def _layer_weight(tf, shape, j, scale, offset):
    """spec.layer_case's deterministic weights: weight j holds sin(i + 1 + 3j) * scale + offset."""
    n = math.prod(shape)
    return tf.tensor([math.sin(i + 1 + 3 * j) * scale + offset for i in range(n)], list(shape))


def _optimizer_loss(tf, variables):
    """spec.optimizer_case's loss: the sum over variables of sum(v^2 / 2 + sin(3 v))."""
    return tf.add_n([tf.sum(tf.add(tf.mul(tf.square(v), 0.5), tf.sin(tf.mul(v, 3)))) for v in variables])


def _nothing():
    return None


def build(tf, c, fn, args, kwargs):
    """What case c computes, as tfjs_run.js's build: (value, (inputs, function of them) for the
    gradient or None, cleanup). Without `use` the value is fn's result; otherwise fn's result is
    used as spec.py's apply / props / stats / layer / optimizer say."""
    use = c.get("use")
    if not use:
        idx = _float_indices(tf, args)

        def f(*xs):
            a = list(args)
            for j, x in zip(idx, xs):
                a[j] = x
            return _first(tf, fn(*a, **kwargs))
        return fn(*args, **kwargs), ([args[j] for j in idx], f), _nothing
    obj = fn(*args, **kwargs)
    kind = use["kind"]
    if kind == "apply":
        return obj.apply(*[decode(tf, a) for a in use["args"]]), None, _nothing
    if kind == "props":
        return {p: _path(obj, p) for p in use["props"]}, None, _nothing
    if kind == "stats":   # a random initializer's draw: shape, dtype, mean and standard deviation
        t = obj.apply(*[decode(tf, a) for a in use["args"]])
        m = tf.moments(t)
        return ({"shape": list(t.shape), "dtype": t.dtype, "mean": m.mean.data_sync()[0],
                 "std": math.sqrt(m.variance.data_sync()[0])}, None, _nothing)
    if kind == "layer":
        try:
            inputs = decode(tf, use["inputs"])
            call_kwargs = {_snake(k): v for k, v in decode(tf, use.get("call") or {}).items()}
            tf.dispose(obj.apply(inputs, **call_kwargs))   # builds it
            shapes = [list(w.shape) for w in obj.get_weights()]
            given = decode(tf, use["weights"]) if use.get("weights") else None
            obj.set_weights(given or [_layer_weight(tf, s, j, use["scale"], use["offset"])
                                      for j, s in enumerate(shapes)])
            many = isinstance(inputs, list)
            xs = inputs if many else [inputs]
            idx = _float_indices(tf, xs)

            def f(*ys):
                a = list(xs)
                for j, y in zip(idx, ys):
                    a[j] = y
                return _first(tf, obj.apply(a if many else a[0], **call_kwargs))
            value = {"output": obj.apply(inputs, **call_kwargs), "weight_shapes": shapes}
            return value, ([xs[j] for j in idx], f), obj.dispose
        except BaseException:
            obj.dispose()
            raise
    if kind == "optimizer":
        variables = []

        def cleanup():
            obj.dispose()
            tf.dispose(variables)
        try:
            variables += [tf.variable(decode(tf, v), True, f"{c['id']}/v{j}") for j, v in enumerate(use["vars"])]
            costs = []
            for _ in range(use["steps"]):
                if use.get("grads"):
                    obj.apply_gradients({v.name: decode(tf, g) for v, g in zip(variables, use["grads"])})
                else:
                    costs.append(obj.minimize(lambda: _optimizer_loss(tf, variables), True, variables))
            value = {"variables": [v.clone() for v in variables], "costs": costs}
            if use["slots"]:
                value["weights"] = [[w["name"], w["tensor"]] for w in obj.get_weights()]
            return value, None, cleanup
        except BaseException:
            cleanup()
            raise
    raise ValueError(f"unknown use {kind}")


def is_async(c):
    """Whether the case's TF.js function returns a Promise (its pytfweb twin may return an awaitable)."""
    return c["fn"].endswith("Async") or bool(c.get("awaits"))


def _arguments(tf, c):
    args = [decode(tf, a) for a in c["args"]]
    kwargs = {k: decode(tf, v) for k, v in (c.get("kwargs") or {}).items()}
    if c.get("opts"):
        kwargs.update({_snake(k): decode(tf, v) for k, v in c["opts"].items()})
    return args, kwargs


def _grads(tf, grad):
    xs, f = grad
    y = f(*xs)
    dy = tf.tensor([math.sin(i + 1) for i in range(y.size)], list(y.shape), y.dtype)
    return encode(tf, tf.grads(f)(xs, dy))


def _numeric_gradient_error(tf, grad):
    """pytfweb.testing's relative error of the gradient of the case's function (the tf given's)."""
    import importlib
    xs, f = grad
    return importlib.import_module(tf.__name__ + ".testing").numeric_gradient_error(f, xs)


def run_case(tf, c, python_names):
    out = {}
    try:
        fn = resolve(tf, c["fn"], python_names)

        def body():
            args, kwargs = _arguments(tf, c)
            value, grad, cleanup = build(tf, c, fn, args, kwargs)
            try:
                out["outputs"] = encode(tf, value)
                if c.get("grad"):
                    try:   # as tfjs_run.js: a case whose gradient cannot be taken still has outputs
                        out["grads"] = _grads(tf, grad)
                    except Exception as e:   # noqa: BLE001 - compared with TF.js's in check()
                        out["grad_error"] = f"{type(e).__name__}: {e}"[:300]
                if (c.get("expect") or {}).get("grads") == "numeric":
                    out["grad_error_numeric"] = _numeric_gradient_error(tf, grad)
            finally:
                cleanup()
            if c.get("opts"):   # the same options as one dict, as TF.js users write them
                value, _, cleanup = build(tf, c, fn, args + [decode(tf, c["opts"])], {})
                try:
                    out["outputs_opts_dict"] = encode(tf, value)
                finally:
                    cleanup()
            return None
        tf.tidy(body)
    except Exception as e:   # noqa: BLE001 - reported per case
        out = {"error": f"{type(e).__name__}: {e}"[:300]}
    return out


def run_cases(tf, cases, python_names):
    return {c["id"]: run_case(tf, c, python_names) for c in cases}


async def run_case_async(tf, c, python_names):
    """run_case, awaiting what a function that returns a Promise in TF.js returns (no tidy scope
    can span an await: every tensor made here is disposed at the end; no gradients)."""
    if not is_async(c):
        return run_case(tf, c, python_names)
    out, held = {}, []
    try:
        fn = resolve(tf, c["fn"], python_names)
        args, kwargs = _arguments(tf, c)
        held += [args, kwargs]
        forms = [(args, kwargs)] + ([(args + [decode(tf, c["opts"])], {})] if c.get("opts") else [])
        for key, (a, k) in zip(("outputs", "outputs_opts_dict"), forms):
            held.append(a)
            result = fn(*a, **k)
            if inspect.isawaitable(result):
                result = await result
            if c.get("use", {}).get("kind") == "chain":   # methods called in turn, what they return awaited
                for step in c["use"]["calls"]:
                    attr = getattr(result, _snake(step[0]))
                    result = attr if len(step) == 1 else attr(*[decode(tf, x) for x in step[1]])
                    if inspect.isawaitable(result):
                        result = await result
            held.append(result)
            out[key] = encode(tf, result)
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


def compare(ref, got, backend="cpu", tol=None, where="", whose="TF.js's"):
    """None when got matches ref (shapes and dtypes exactly, values within the backend's
    tolerance), else a message naming the first difference."""
    rtol, atol = tol or _FLOAT_TOL[backend]
    if isinstance(ref, dict) and "long" in ref:   # TF.js's Long (its decimal string): pytfweb gives an int
        ok = isinstance(got, int) and not isinstance(got, bool) and str(got) == ref["long"]
        return None if ok else f"{where}: {got!r} != {whose} Long {ref['long']}"
    if isinstance(ref, dict) and "tensor" in ref:
        if not (isinstance(got, dict) and "tensor" in got):
            return f"{where}: expected a tensor, got {str(got)[:80]}"
        if list(ref["shape"]) != list(got["shape"]):
            return f"{where}: shape {got['shape']} != {whose} {ref['shape']}"
        if ref["dtype"] != got["dtype"]:
            return f"{where}: dtype {got['dtype']} != {whose} {ref['dtype']}"
        exact = ref["dtype"] not in ("float32", "complex64")
        for i, (a, b) in enumerate(zip(got["tensor"], ref["tensor"])):
            if not (a == b if exact else _close(a, b, rtol, atol)):
                return f"{where}: value [{i}] {_num(a)} != {whose} {_num(b)}"
        return None
    if isinstance(ref, list):
        if not isinstance(got, list) or len(got) != len(ref):
            return f"{where}: expected a list of {len(ref)}, got {str(got)[:80]}"
        for i, (r, g) in enumerate(zip(ref, got)):
            m = compare(r, g, backend, tol, f"{where}[{i}]", whose)
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
            m = compare(ref[k], got[k], backend, tol, f"{where}.{k}", whose)
            if m:
                return m
        return None
    return None if _close(got, ref, rtol, atol) or got == ref else f"{where}: {got!r} != {whose} {ref!r}"


# TF.js's messages that name a dtype or the type of an argument: pytfweb raises TypeError there
# (DESIGN: TypeError for dtypes and argument types, ValueError for shapes and values).
_TYPE_MESSAGE = re.compile(
    r"must be (a |an )?(float32|int32|bool|numeric|string|complex64)\b[^.]*tensor|dtype|data ?type|upcast"
    r"|\bcast(ed)? to|must be real value|must be float32 or int32|floating point tensor|Only supports 'int32'"
    r"|integer,? (but )?got\D*-?\d*\.\d|complex64 tensor directly|must be Datasets", re.I)
# what a JS engine says when TF.js crashes on an argument it did not check: no kind to read
_JS_CRASH = re.compile(r"Cannot read properties|is not a function|is not iterable|undefined", re.I)


def tfjs_error_type(case, ref):
    """The Python exception pytfweb raises where TF.js raises `ref`: the case's own (error="...")
    where it states one, TypeError where TF.js throws one itself or its message is about dtypes
    or argument types, else ValueError."""
    if isinstance(case.get("error"), str):
        return case["error"]
    if ref.get("error_kind") == "TypeError" and not _JS_CRASH.search(ref["error"]):
        return "TypeError"
    return "TypeError" if _TYPE_MESSAGE.search(ref["error"]) else "ValueError"


def _raised(got):
    return got["error"].split(":", 1)[0]


def check(case, ref, got, backend="cpu", device=None):
    """The difference between pytfweb's result and TF.js's for one case (for a deviation case,
    from what pytfweb documents instead, on `device`: webgl, webgpu or, by default, cpu), or None."""
    if case.get("deviation"):
        return _check_documented(case, ref, got, backend, device)
    if case.get("error") and "error" not in ref:
        return f"the case says TF.js raises, but TF.js returns {str(ref.get('outputs'))[:80]}"
    if "error" in ref:
        if "error" not in got:
            return f"TF.js raises ({ref['error'][:120]}) but pytfweb returns a result"
        want = tfjs_error_type(case, ref)
        if _raised(got) != want:
            return f"pytfweb raises {got['error'][:160]}, where TF.js's error ({ref['error'][:120]}) is a {want}"
        return None
    if "error" in got:
        return f"pytfweb raises {got['error']}"
    tol = tuple(case["tol"]) if case.get("tol") else None
    m = compare(ref["outputs"], got["outputs"], backend, tol, "output")
    if m is None and "outputs_opts_dict" in got:
        m = compare(ref["outputs"], got["outputs_opts_dict"], backend, tol, "output (options as a dict)")
    if m is None and "grads" in ref:
        if "grad_error" in got:
            return f"pytfweb's gradient raises {got['grad_error'][:200]}, where TF.js gives one"
        m = compare(ref["grads"], got.get("grads"), backend, tol, "gradient")
    # where TF.js cannot differentiate a case (ref["grad_error"]), pytfweb's gradient is checked
    # numerically elsewhere (tests/unit/test_gradients_*), not here
    return m


# A deviation case's gradient "numeric": the largest relative error pytfweb.testing's check finds
# (centred differences in the backend's float32; GPU kernels round more than cpu's).
NUMERIC_GRADIENT_TOL = {"cpu": 1e-2, "gpu": 3e-2}


def _check_documented(case, ref, got, backend, device):
    """A deviation case against what pytfweb documents instead (case["expect"])."""
    want = case.get("expect")
    if want is None:
        return "a deviation case must state what pytfweb gives instead (its module's expect table)"
    want = want.get(device, want) if device else want
    if "error" in want:
        if "error" not in got:
            return f"pytfweb documents raising {want['error']} here, but returns a result"
        if _raised(got) != want["error"]:
            return f"pytfweb documents raising {want['error']} here, but raises {got['error'][:160]}"
        return None
    if "error" in got:
        return f"pytfweb raises {got['error'][:200]}, where it documents a result"
    if want["outputs"] == "tfjs":
        if "error" in ref:
            return f"the documented outputs are TF.js's, but TF.js raises ({ref['error'][:120]})"
        outputs = ref["outputs"]
    else:
        outputs = want["outputs"]
    tol = tuple(case["tol"]) if case.get("tol") else None
    whose = "TF.js's" if want["outputs"] == "tfjs" else "the documented"
    m = compare(outputs, got["outputs"], backend, tol, "output (as documented)", whose)
    if m is None and "outputs_opts_dict" in got:
        m = compare(outputs, got["outputs_opts_dict"], backend, tol, "output (options as a dict, as documented)", whose)
    if m is None and want.get("grads") == "numeric":
        err = got.get("grad_error_numeric")
        limit = NUMERIC_GRADIENT_TOL[backend]
        if err is None or not err < limit:
            m = f"gradient: relative error {err} against centred differences (documented: the calculus's, < {limit})"
    elif m is None and "grads" in want:
        m = compare(want["grads"], got.get("grads"), backend, tol, "gradient (as documented)", "the documented")
    return m
