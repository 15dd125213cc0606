"""Malformed arguments on webgl (issue 15), the lean page-side check beside
tests/unit/test_malformed_args.py: one bad call per op family, all in one page call. Each must
raise the same error type as on cpu with a message naming the op and the argument, leave no tensor
behind, and the backend must still compute afterwards."""
import numpy as np
import pytest

import pytfweb as tf

from .conftest import BACKEND

# (error type, call source over the inputs below, fragments of the message)
CASES = [
    ("ValueError", "tf.add(x, v4)", ["add", "[2, 3]", "[4]"]),
    ("TypeError", "tf.log(b)", ["log", "'x'"]),
    ("TypeError", "tf.leaky_relu(x, 'a')", ["leaky_relu", "'alpha'"]),
    ("ValueError", "tf.sum(x, 2)", ["sum", "axis"]),
    ("ValueError", "tf.arg_max(x, -3)", ["arg_max", "axis"]),
    ("ValueError", "tf.reshape(x, [4])", ["reshape"]),
    ("ValueError", "tf.transpose(x, [0, 0])", ["transpose", "perm"]),
    ("ValueError", "tf.concat([x, v4], 0)", ["concat"]),
    ("ValueError", "tf.tile(x, [1, -1])", ["tile", "reps"]),
    ("ValueError", "tf.pad(x, [[0, -1], [0, 0]])", ["pad", "paddings"]),
    ("ValueError", "tf.slice(x, [0, 0], [3, 1])", ["slice"]),
    ("ValueError", "tf.strided_slice(x, [0, 0], [1, 1], [0, 1])", ["strided_slice", "strides"]),
    ("ValueError", "tf.mat_mul(x, x)", ["mat_mul"]),
    ("ValueError", "tf.conv2d(img, f, 0, 'same')", ["conv2d", "strides"]),
    ("ValueError", "tf.max_pool(img, [-1, 2], 1, 'same')", ["max_pool", "filter"]),
    ("ValueError", "tf.gather(x, i, 2)", ["gather", "axis"]),
    ("ValueError", "tf.gather(x, i5)", ["gather", "'indices'"]),
    ("ValueError", "tf.gather_nd(x, i50)", ["gather_nd", "'indices'"]),
    ("ValueError", "tf.scatter_nd(i0, v2, [2])", ["scatter_nd", "'updates'"]),
    ("ValueError", "tf.one_hot(i, -1)", ["one_hot", "'depth'"]),
    ("ValueError", "tf.cumsum(x, 2)", ["cumsum", "axis"]),
    ("ValueError", "tf.unsorted_segment_sum(x, i, -1)", ["unsorted_segment_sum", "'num_segments'"]),
    ("ValueError", "tf.image.resize_bilinear(img, [-2, 2])", ["resize_bilinear", "size"]),
    ("ValueError", "tf.top_k(x, 5)", ["top_k", "'k'"]),
    ("TypeError", "tf.batch_norm(x, None, v3)", ["batch_norm", "'mean'"]),
    ("TypeError", "tf.dropout(x, 0.5, 1.5)", ["dropout", "'noise_shape'"]),
    ("TypeError", "tf.cast(x, ['float32'])", ["cast", "'dtype'"]),
    ("ValueError", "tf.zeros([-1])", ["zeros", "shape"]),
    ("ValueError", "tf.range(0, float('inf'))", ["range", "'stop'"]),
]

_INPUTS = '''
x = tf.ones([2, 3]); b = tf.tensor([True, False]); v4 = tf.ones([4]); v3 = tf.ones([3]); v2 = tf.ones([2])
i = tf.tensor([0, 1], dtype="int32"); i5 = tf.tensor([5], dtype="int32")
i50 = tf.tensor([[5, 0]], dtype="int32"); i0 = tf.tensor([[0]], dtype="int32")
img = tf.ones([1, 4, 4, 2]); f = tf.ones([2, 2, 2, 3])
'''

_PAGE = _INPUTS + '''
ns = dict(globals())
out = []
for src in sources:
    before = tf.memory().num_tensors
    try:
        r = eval(src, ns)
        tf.dispose(r)
        out.append(["no error", "", 0])
    except Exception as exc:
        out.append([type(exc).__name__, str(exc), tf.memory().num_tensors - before])
s = tf.tidy(lambda: tf.sum(tf.mul(x, 2)))
after_ok = s.data_sync()[0]
s.dispose()
result = {"out": out, "after": after_ok, "backend": tf.get_backend()}
'''


def _cpu(sources):
    tf.set_backend("cpu")
    ns = {"tf": tf}
    exec(_INPUTS, ns)  # noqa: S102 - test source
    out = []
    for src in sources:
        try:
            tf.dispose(eval(src, ns))  # noqa: S307
            out.append("no error")
        except Exception as exc:  # noqa: BLE001
            out.append(type(exc).__name__)
    tf.engine().dispose_all()
    return out


def test_malformed_arguments_on_webgl(run_py):
    sources = [c[1] for c in CASES]
    cpu = _cpu(sources)
    page = run_py(_PAGE, sources=sources)
    assert page["backend"] == BACKEND
    problems = []
    for (want, src, fragments), cpu_type, (got, message, leaked) in zip(CASES, cpu, page["out"]):
        if got != want or cpu_type != want:
            problems.append(f"{src}: {got} on webgl, {cpu_type} on cpu, want {want} ({message})")
        missing = [f for f in fragments if f not in message]
        if missing:
            problems.append(f"{src}: {missing} not in the message: {message}")
        if leaked:
            problems.append(f"{src}: {leaked} tensors leaked")
    assert not problems, "\n".join(problems)
    assert page["after"] == 12.0


@pytest.mark.parametrize("debug", [False, True])
def test_out_of_range_indices_on_webgl(run_py, debug):
    """Out-of-range indices: the cpu kernels raise. A shader cannot, so the webgl kernels check
    indices whose values are on the CPU anyway (made from Python values: free), and in DEBUG mode
    read computed ones back (as TF.js's webgl gather does); computed indices outside DEBUG are
    not checked (they read 0) - the documented difference."""
    out = run_py("""
tf.env().set("DEBUG", debug)
x = tf.ones([2, 3]); u = tf.ones([1])
calls = {
    "gather": lambda i, i2: tf.gather(x, i),
    "gather_nd": lambda i, i2: tf.gather_nd(x, i2),
    "scatter_nd": lambda i, i2: tf.scatter_nd(i2, u, [2, 3]),
    "tensor_scatter_update": lambda i, i2: tf.tensor_scatter_update(x, i2, u),
}
result = {}
for computed in (False, True):
    for name, call in calls.items():
        i = tf.tensor([0, 7], dtype="int32")
        i2 = tf.tensor([[1, 7]], dtype="int32")
        if computed:     # values that live on the GPU only
            i, i2 = tf.tidy(lambda: tf.add(i, 0)), tf.tidy(lambda: tf.add(i2, 0))
        before = tf.memory().num_tensors
        try:
            tf.dispose(call(i, i2))
            err = None
        except Exception as exc:
            err = [type(exc).__name__, str(exc)]
        result[f"{name} computed={computed}"] = [err, tf.memory().num_tensors - before]
        tf.dispose([i, i2])
""", debug=debug)
    for key, (err, leaked) in out.items():
        assert leaked == 0, key
        if "computed=True" in key and not debug:
            assert err is None, f"{key}: {err}"
            continue
        name = key.split()[0]
        assert err is not None and err[0] == "ValueError" and name in err[1] and "'indices'" in err[1], (key, err)


# --- hostile tensors in the page: every tensor argument of the unit grid's valid calls ---------
_GRID_PAGE = '''
from pytfweb.host.script import to_plain as _to_plain

def _make():
    return {name: eval(src, {"tf": tf}) for name, src in inputs.items()}

def _resolve(t, a):
    if isinstance(a, dict) and "in" in a:
        return t[a["in"]]
    if isinstance(a, list):
        return [_resolve(t, v) for v in a]
    return a

def _fn(path):
    f = tf
    for part in path.split("."):
        f = getattr(f, part)
    return f

def _tensors(out):
    if isinstance(out, (list, tuple)):
        return [t for o in out for t in _tensors(o)]
    return [out] if hasattr(out, "data_id") else []

out = []
for path, args, position, hostile in cases:
    t = _make()
    real = [_resolve(t, a) for a in args]
    real[position] = t[hostile]
    before = tf.memory().num_tensors
    try:
        res = _tensors(_fn(path)(*real))
        plain = [await _to_plain(r) for r in res]
        for d in plain:
            d["__tensor__"] = False   # plain dicts for the host (complex64 values stay interleaved)
        out.append(["ok", plain])
        tf.dispose(res)
    except Exception as exc:
        out.append(["error", type(exc).__name__, str(exc)])
    try:
        out[-1].append(tf.memory().num_tensors - before)
    except Exception as exc:   # reported for this call, not for the whole batch
        out[-1].append(f"tf.memory() then raised {type(exc).__name__}: {exc}")
    tf.dispose(list(t.values()))
result = out
'''


def _grid_cases():
    from ..unit import test_malformed_args as grid

    def enc(a):
        if isinstance(a, grid.In):
            return {"in": a.name}
        return [enc(v) for v in a] if isinstance(a, list) else a
    cases = []
    for path, args in grid.VALID:
        for position, a in enumerate(args):
            if isinstance(a, grid.In):
                cases += [[path, [enc(v) for v in args], position, h] for h in grid.HOSTILE_TENSORS]
    return grid, cases


def _grid_cpu(grid, cases):
    tf.set_backend("cpu")
    out = []
    for path, args, position, hostile in cases:
        t = {name: eval(src, {"tf": tf}) for name, src in grid.INPUTS.items()}  # noqa: S307
        real = [_res(t, a) for a in args]
        real[position] = t[hostile]
        try:
            res = _flat(grid._fn(path)(*real))
            out.append(("ok", [(tuple(r.shape), r.dtype, r.numpy() if r.dtype not in ("string", "complex64")
                                else r.array_sync()) for r in res]))
            tf.dispose(res)
        except Exception as exc:  # noqa: BLE001
            out.append(("error", type(exc).__name__, str(exc)))
        tf.dispose(list(t.values()))
    return out


def _res(t, a):
    if isinstance(a, dict) and "in" in a:
        return t[a["in"]]
    return [_res(t, v) for v in a] if isinstance(a, list) else a


def _flat(out):
    if isinstance(out, (list, tuple)):
        return [t for o in out for t in _flat(o)]
    return [out] if isinstance(out, tf.Tensor) else []


def test_hostile_tensors_on_webgl_as_on_cpu(run_py):
    """Each tensor argument of the unit grid's valid calls replaced by a tensor of another dtype or
    shape (string, complex64, bool, int32, scalar, empty): webgl must do what cpu does - the same
    error type naming the op, or the same result - and leave no tensor behind."""
    grid, cases = _grid_cases()
    want = _grid_cpu(grid, cases)
    got = run_py(_GRID_PAGE, cases=cases, inputs=grid.INPUTS)
    problems = []
    for (path, _, position, hostile), w, g in zip(cases, want, got):
        where = f"tf.{path} argument {position} = <{hostile}>"
        if g[-1]:
            problems.append(f"{where}: {g[-1]}" if isinstance(g[-1], str) else
                            f"{where}: {g[-1]} tensors leaked on webgl")
        if w[0] != g[0]:
            problems.append(f"{where}: cpu {w[0]} {w[1:] if w[0] == 'error' else ''}, webgl {g[0]} "
                            f"{g[1:3] if g[0] == 'error' else ''}")
        elif w[0] == "error":
            if w[1] != g[1] or path.split(".")[-1] not in g[2]:
                problems.append(f"{where}: cpu {w[1]}: {w[2]} / webgl {g[1]}: {g[2]}")
        else:
            for (shape, dtype, values), t in zip(w[1], g[1]):
                if path == "multinomial":   # each backend draws its own samples (TF.js's do too)
                    values = None
                if list(shape) != t["shape"] or dtype != t["dtype"]:
                    problems.append(f"{where}: {t['dtype']}{t['shape']} on webgl, {dtype}{list(shape)} on cpu")
                elif values is None:
                    pass
                elif dtype == "float32":
                    if not np.allclose(np.asarray(t["values"], np.float32).reshape(shape), values, 1e-3, 1e-3,
                                       equal_nan=True):
                        problems.append(f"{where}: values differ")
                elif dtype in ("int32", "bool") and \
                        not np.array_equal(np.asarray(t["values"]).reshape(shape), values):
                    problems.append(f"{where}: values differ")
    assert len(cases) > 500
    assert not problems, f"{len(problems)} of {len(cases)} calls:\n" + "\n".join(problems[:40])
