"""How parity cases are written: plain data both TF.js (under node) and pytfweb (CPython or the page)
can read.

    case("tf.add", T([1, 2, 3]), T([[1], [2]]), grad=True)

calls TF.js's `tf.add` with those positional arguments and pytfweb's `tf.add` with the same ones in
the same order (the Python name comes from the API list's python_names); `kwargs` gives options as
Python keyword arguments (snake_case), `opts` the same options as the one object TF.js takes last.
T(values, shape=None, dtype="float32") is a tensor argument (values flat or nested; NaN and infinities
as float("nan") etc.). grad=True also compares the gradients with respect to every float32 tensor
argument, for an upstream gradient dy = sin(i + 1) in the output's shape (the first output when there
are several). error=True marks a case TF.js rejects: pytfweb must raise too, the Python exception
runner.tfjs_error_type reads from TF.js's message (TypeError for dtypes and argument types, else
ValueError); error="TypeError" (or another name) states it where the message does not say (TF.js
crashing on an argument of the wrong dtype).

A case where pytfweb deliberately differs (deviation=, the README's reason) states what pytfweb gives
instead, with expect(CASES, {id: ...}) in its module: raises("ValueError"), gives(outputs) (encoded as
the references are: T(...) for a tensor), or true_gradient() (the outputs are TF.js's, the gradient
is the calculus's: checked against centred differences, where TF.js's is wrong).

The namespaces that are not ops make objects; `use` says what a case does with the object its function
returns, the same way in tfjs_run.js and runner.py (the helpers below write it):
    applied(fn, ..., to=args)      obj.apply(*args): an initializer, a regularizer, a constraint
    drawn(fn, ..., to=args)        shape, dtype, mean and standard deviation of obj.apply(*args): an
                                   unseeded random initializer (TF.js draws with Math.random)
    props(fn, ..., props=[...])    attributes of the object (TF.js's camelCase paths, 'a.b')
    chain(fn, ..., calls=[...])    methods called in turn on the object, each result awaited (tf.data)
    layer_case(fn, inputs, opts)   a tf.layers factory: the layer is built on inputs, its weights set
                                   to deterministic values (weight j: sin(i + 1 + 3j) * scale + offset,
                                   or the given ones), then applied again (inference mode unless call=
                                   says otherwise): its output and weight shapes, gradient w.r.t. inputs
    optimizer_case(fn, ..., vars=) a tf.train optimizer takes steps on variables holding vars, by
                                   minimize() of sum(v^2 / 2 + sin(3 v)) or applyGradients(grads): the
                                   variables, costs and the optimizer's getWeights() after them
                                   (as [name, tensor] pairs)
made(fn, *args) is an argument that function fn makes (a dataset to zip); sub_layer(fn, opts) a layer
(a wrapper's layer, an RNN's cell) that factory fn makes.
fn_arg(name, *params) is a function argument both sides build alike: 'counter' (start, step, mod:
start + k * step modulo mod), 'basicLSTMCell' (forgetBias, lstmKernel, lstmBias bound), 'after' (n: false
until its n-th call), and the others runner.make_function lists.
"""
import math

_ids = {}


def T(values, shape=None, dtype="float32"):   # noqa: N802 - reads as a type in case lists
    return {"tensor": _flat(values), "shape": _shape(values) if shape is None else list(shape), "dtype": dtype}


def case(fn, *args, kwargs=None, opts=None, grad=False, error=False, tol=None, name=None, deviation=None, use=None,
         awaits=False):
    """One call of TF.js function `fn` ('tf.add', 'tf.image.resizeBilinear', ...). deviation: where
    pytfweb deliberately differs, the reason, word for word as README's "Deviations from TF.js" lists
    it (the test checks that the README carries the reason); such a case is compared with what
    pytfweb documents instead (its module's expect table), not with TF.js."""
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
        out["error"] = error   # True, or the Python exception's name
    if tol is not None:
        out["tol"] = tol
    if deviation:
        out["deviation"] = deviation
    if use:
        out["use"] = _encode(use)
    if awaits:   # TF.js returns a Promise
        out["awaits"] = True
    return out


def raises(kind):
    """pytfweb raises this exception (its class name) where TF.js returns a result or raises another."""
    return {"error": kind}


def gives(outputs, grads=None, webgl=None):
    """pytfweb's outputs (and gradients, encoded as the references are; "numeric": the calculus's,
    checked against centred differences); webgl: what the webgl backend gives instead, where its
    float32 textures cannot hold what cpu and webgpu give (such as int32 values past 2**24)."""
    out = {"outputs": _encode(outputs)}
    if grads is not None:
        out["grads"] = grads if grads == "numeric" else _encode(grads)
    if webgl is not None:
        out["webgl"] = webgl
    return out


def as_tfjs():
    """TF.js's own answer (a backend's entry in gives(): where it does as TF.js does)."""
    return {"outputs": "tfjs"}


def true_gradient(grads="numeric"):
    """TF.js's outputs with the gradient of the calculus, where TF.js's gradient is wrong: checked
    against centred differences, or given (encoded) where the inputs hold NaN or infinities."""
    return {"outputs": "tfjs", "grads": grads if grads == "numeric" else _encode(grads)}


def expect(cases, table):
    """Sets what pytfweb gives for each deviation case of `cases` named in table ({id: raises(...),
    gives(...) or true_gradient()}); every id must be a deviation case there."""
    by_id = {c["id"]: c for c in cases}
    for cid, want in table.items():
        if cid not in by_id or not by_id[cid].get("deviation"):
            raise KeyError(f"expect: {cid} is not a deviation case of this module")
        by_id[cid]["expect"] = want
    return cases


def fn_arg(name, *params):
    return {"fn": name, "params": [_encode(p) for p in params]}


def made(fn, *args):
    """An argument that is what TF.js function fn ('tf.data.array') returns for args (pytfweb's twin
    of fn makes it on the Python side)."""
    import json
    import os
    ns, name = fn.split(".")[1:]
    api = os.path.join(os.path.dirname(__file__), "..", "..", "pytfweb", "data", "tfjs-4.22-api.json")
    with open(api, encoding="utf-8") as f:
        py = json.load(f)["python_names"][ns][name]
    return {"make": fn, "py": [ns, py], "args": [_encode(a) for a in args]}


def sub_layer(fn, opts=None):
    """A layer made by factory fn ('tf.layers.lstm') with TF.js's options, as an argument."""
    return made(fn, opts or {})


def chain(fn, *args, calls=(), **kw):
    """fn's result, then each of calls in turn on what the last gave: (name, [args]) calls a method,
    (name,) reads a property; what a call returns is awaited (TF.js's Promises, pytfweb's coroutines)."""
    return case(fn, *args, use={"kind": "chain", "calls": [list(c[:1]) + ([list(c[1])] if len(c) > 1 else [])
                                                           for c in calls]}, awaits=True, **kw)


def applied(fn, *args, to=(), **kw):
    return case(fn, *args, use={"kind": "apply", "args": list(to)}, **kw)


def drawn(fn, *args, to=(), **kw):
    return case(fn, *args, use={"kind": "stats", "args": list(to)}, **kw)


def props(fn, *args, props=(), **kw):
    return case(fn, *args, use={"kind": "props", "props": list(props)}, **kw)


def layer_case(fn, inputs, opts=None, call=None, weights=None, scale=0.5, offset=0.0, **kw):
    use = {"kind": "layer", "inputs": inputs, "scale": scale, "offset": offset}
    if call:
        use["call"] = call
    if weights:
        use["weights"] = weights
    return case(fn, opts=opts, use=use, **kw)


def optimizer_case(fn, *args, vars, steps=3, grads=None, slots=True, **kw):   # noqa: A002 - the problem's variables
    """slots=False: TF.js's optimizer has no getWeights() (Adamax)."""
    use = {"kind": "optimizer", "vars": list(vars), "steps": steps, "slots": slots}
    if grads:
        use["grads"] = list(grads)
    return case(fn, *args, use=use, **kw)


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


# The short makers the shape, slicing and creation families write their cases with.
def F(shape, start=1.0):   # noqa: N802
    """float32 ramp."""
    return ramp(shape, start)


def N(shape, start=0):   # noqa: N802
    """int32 ramp."""
    return ramp(shape, start, "int32")


def W(shape, scale=1.0):   # noqa: N802
    """float32 sine wave."""
    return sines(shape, scale)


def _encode(v):
    if isinstance(v, float) and not math.isfinite(v):
        return {"float": "NaN" if math.isnan(v) else ("Infinity" if v > 0 else "-Infinity")}
    if isinstance(v, (list, tuple)):
        return [_encode(x) for x in v]
    if isinstance(v, dict) and "tensor" in v:
        return {**v, "tensor": [_encode(x) for x in v["tensor"]]}
    if isinstance(v, dict):
        return {k: _encode(x) for k, x in v.items()}
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
