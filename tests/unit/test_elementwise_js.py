"""The JavaScript rendering of the elementwise IR (backends/gpu/elementwise_js.py) and the plan
compiler of the CPU-forward runner (backends/gpu/cpu_forward_runner.py), run under node against
the cpu backend's kernels: every table kernel on each dtype its op sends it, Cast and Select, on
edge values (NaN, infinities, -0, subnormals, int32's extremes), then plans of several steps (one
fused loop, and per-step loops with broadcasting)."""
import base64
import json
import math
import shutil
import subprocess

import numpy as np
import pytest

import pytfweb as tf
from pytfweb.backends.gpu import elementwise_js as ejs
from pytfweb.backends.gpu.cpu_forward_runner import compile_steps
from pytfweb.core.engine import ENGINE
from pytfweb.kernels.elementwise import BINARY, GRADIENT_KERNELS, UNARY, out_dtype

FLOATS = [0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.5, -2.5, 3.0, -3.0, 1e-7, -1e-7, 1e-40, 1e30, -1e30, 3.4e38, -3.4e38,
          88.5, 89.0, -104.5, 100.0, 0.9999, 1.0001, 6.0, 6.5, 15.5, -15.5, 10001.0, 0.3, 1.5, math.pi,
          math.inf, -math.inf, math.nan]
INTS = [0, 1, -1, 2, -2, 3, -3, 7, -7, 31, 32, 100, -100, 255, 256, 46341, 65536, 1000000, 2 ** 31 - 1, -2 ** 31]
BOOLS = [0, 1]
VALUES = {"float32": FLOATS, "int32": INTS, "bool": BOOLS}

# Computed in one IEEE operation (or none) on the cpu backend and here: equal bit for bit.
EXACT = {"Neg", "Abs", "Sign", "Square", "Relu", "Relu6", "Floor", "Ceil", "Round", "Reciprocal", "LeakyRelu",
         "ClipByValue", "Step", "IsNan", "IsInf", "IsFinite", "LogicalNot", "Add", "Sub", "Multiply", "RealDiv",
         "FloorDiv", "Mod", "Maximum", "Minimum", "SquaredDifference", "Equal", "NotEqual", "Greater", "GreaterEqual",
         "Less", "LessEqual", "LogicalAnd", "LogicalOr", "BitwiseAnd", "ReluGrad", "Relu6Grad", "EluGrad", "Cast",
         "Select", "Sqrt"}

UNARY_DTYPES = {"float": ("float32",), "to_float": ("float32",), "numeric": ("float32", "int32"), "same": ("float32",),
                "bool": ("bool",), "test": ("float32", "int32", "bool")}
BINARY_DTYPES = {"arith": ("float32", "int32"), "floor": ("float32", "int32"), "compare": ("float32", "int32", "bool"),
                 "logical": ("bool",), "same": ("float32",), "bitwise": ("int32",)}
ATTRS = {"LeakyRelu": {"alpha": 0.2}, "Step": {"alpha": -0.5},
         "ClipByValue": {"clip_value_min": -2.5, "clip_value_max": 6.0}}


def _cases():
    """(kernel, attrs, [operand arrays], output dtype), each operand of len n."""
    cases = []
    for row in UNARY:
        for d in UNARY_DTYPES[row.kind]:
            if row.kernel == "ClipByValue" and d == "int32":
                cases.append((row.kernel, {"clip_value_min": -2.5, "clip_value_max": 65536.7}, d))
            cases.append((row.kernel, ATTRS.get(row.kernel, {}), d))
    out = []
    for kernel, attrs, d in cases:
        x = np.array(VALUES[d], dtype=d)
        out.append((kernel, attrs, [x], out_dtype(next(r for r in UNARY if r.kernel == kernel), d)))
    for row in BINARY + GRADIENT_KERNELS:
        for d in BINARY_DTYPES[row.kind]:
            if row.kernel == "RealDiv" and d == "int32":
                continue   # the op sends int32 to FloorDiv
            v = VALUES[d]
            a = np.array([x for x in v for _ in v], dtype=d)
            b = np.array([y for _ in v for y in v], dtype=d)
            if row.kernel == "Pow" and d == "int32":
                b = np.array([y for _ in v for y in [0, 1, 2, 3, 5, 13, 20, 31, 32, 40, 63, 83, 84, -1, -2, 7, 9,
                                                      11, 19, 21]], dtype=d)
            out.append((row.kernel, {}, [a, b], out_dtype(row, d)))
    for src in ("float32", "int32", "bool"):
        for dst in ("float32", "int32", "bool"):
            out.append(("Cast", {"dtype": dst}, [np.array(VALUES[src], dtype=src)], dst))
    for d in ("float32", "int32", "bool"):
        v = VALUES[d]
        c = np.array([i % 2 for i in range(len(v))], dtype="bool")
        out.append(("Select", {}, [c, np.array(v, dtype=d), np.array(v[::-1], dtype=d)], d))
    return out


def _b64(a):
    return base64.b64encode(np.ascontiguousarray(a).tobytes()).decode()


_NODE = r"""
const cases = JSON.parse(require('fs').readFileSync(0, 'utf8'));
const types = {float32: Float32Array, int32: Int32Array, bool: Uint8Array};
const out = cases.map(([source, inputs]) => {
  const fn = new Function(source)();
  const args = inputs.map(([d, b64]) => { const buf = Buffer.from(b64, 'base64');
    return new types[d](buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.length)); });
  return fn(...args).map(a => Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('base64'));
});
process.stdout.write(JSON.stringify(out));
"""


def _run_node(programs):
    if shutil.which("node") is None:
        pytest.fail("node is needed (make installs it with the npm packages)")
    payload = json.dumps([[p.source, [[m, _b64(a)] for m, a in ins]] for p, ins in programs])
    r = subprocess.run(["node", "-e", _NODE], input=payload, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-3000:]
    return json.loads(r.stdout)


def _decode(b64, dtype):
    return np.frombuffer(base64.b64decode(b64), dtype=np.dtype(dtype if dtype != "bool" else "uint8"))


def _expected(kernel, attrs, arrays):
    with _cpu():
        ts = [tf.tensor(a, dtype=str(a.dtype)) for a in arrays]
        y = ENGINE.run_kernel(kernel, ts, attrs)
        out = _flat(y)
        for t in ts + [y]:
            t.dispose()
    return out


def _flat(t):
    return np.array(t.data_sync(), dtype=t.dtype if t.dtype != "bool" else "uint8").reshape(-1)


class _cpu:
    def __enter__(self):
        self.prev = tf.get_backend()
        tf.set_backend("cpu")

    def __exit__(self, *exc):
        tf.set_backend(self.prev)


def _compare(kernel, d, got, want, what):
    if d == "float32":
        nan = np.isnan(want)
        assert np.array_equal(np.isnan(got), nan), f"{what}: NaN at {np.flatnonzero(np.isnan(got) != nan)}"
        g, w = got[~nan], want[~nan]
        inf = np.isinf(w)
        assert np.array_equal(g[inf], w[inf]), f"{what}: infinities differ"
        if kernel in EXACT:
            bad = np.flatnonzero((g != w) | (np.signbit(g) != np.signbit(w)))
            assert bad.size == 0, f"{what}: at {bad[:8]} got {g[bad[:8]]}, cpu {w[bad[:8]]}"
        else:
            np.testing.assert_allclose(g, w, rtol=2e-6, atol=1e-6, err_msg=what)
    else:
        bad = np.flatnonzero(got != want)
        assert bad.size == 0, f"{what}: at {bad[:8]} got {got[bad[:8]]}, cpu {want[bad[:8]]}"


def _one_step(kernel, attrs, arrays, dtype):
    found = ejs.kernel_op(kernel, [str(a.dtype) for a in arrays], dtype, attrs)
    assert found is not None, f"{kernel} on {[str(a.dtype) for a in arrays]} is not covered"
    n = arrays[0].size
    ins = [(k, (n,), str(a.dtype), n) for k, a in enumerate(arrays)]
    return compile_steps([(found[0], found[1], ins, (len(arrays), (n,), dtype, n))], [len(arrays)])


def test_every_elementwise_kernel_in_javascript_matches_the_cpu_backend():
    cases = _cases()
    programs = [(_one_step(k, attrs, arrays, d), [(str(a.dtype), a) for a in arrays]) for k, attrs, arrays, d in cases]
    results = _run_node(programs)
    failures = []
    for (kernel, attrs, arrays, d), (got,) in zip(cases, results):
        want = _expected(kernel, attrs, arrays)
        what = f"{kernel}({', '.join(str(a.dtype) for a in arrays)}) -> {d}"
        try:
            _compare(kernel, d, _decode(got, d), want, what)
        except AssertionError as exc:
            failures.append(str(exc)[:400])
    assert not failures, "\n".join(failures)
    covered = {k for k, _, _, _ in cases}
    assert covered >= {r.kernel for r in UNARY + BINARY + GRADIENT_KERNELS} | {"Cast", "Select"}


def _plan_steps(specs, externals):
    """specs: [(kernel, attrs, operand slots, shape, dtype)], slots numbered after the externals
    {slot: (shape, dtype)}."""
    meta = {s: (tuple(shape), d, int(np.prod(shape, dtype=int))) for s, (shape, d) in externals.items()}
    steps = []
    for k, (kernel, attrs, ins, shape, dtype) in enumerate(specs):
        s = len(externals) + k
        meta[s] = (tuple(shape), dtype, int(np.prod(shape, dtype=int)))
        in_meta = [(t,) + meta[t] for t in ins]
        op, lits = ejs.kernel_op(kernel, [m[2] for m in in_meta], dtype, attrs)
        steps.append((op, lits, in_meta, (s,) + meta[s]))
    return steps


@pytest.mark.parametrize("shapes", [((5, 4), (5, 4), (1,)), ((5, 1), (1, 4), (4,))], ids=["fused", "broadcast"])
def test_a_plan_of_several_steps_in_javascript_matches_the_cpu_backend(shapes):
    rng = np.random.default_rng(3)
    sa, sb, sc = shapes
    a = rng.normal(size=sa).astype("float32")
    b = rng.normal(size=sb).astype("float32")
    c = np.array(rng.integers(-3, 4, size=sc), dtype="int32")
    out_shape = np.broadcast_shapes(sa, sb, sc)
    ext = {0: (sa, "float32"), 1: (sb, "float32"), 2: (sc, "int32")}
    specs = [("Multiply", {}, [0, 1], out_shape, "float32"),        # 3
             ("Cast", {"dtype": "float32"}, [2], sc, "float32"),   # 4
             ("Add", {}, [3, 4], out_shape, "float32"),            # 5
             ("Greater", {}, [5, 0], out_shape, "bool"),           # 6
             ("Tanh", {}, [5], out_shape, "float32"),              # 7
             ("Select", {}, [6, 7, 3], out_shape, "float32"),      # 8
             ("Cast", {"dtype": "int32"}, [5], out_shape, "int32"),  # 9
             ("FloorDiv", {}, [9, 2], out_shape, "int32")]         # 10
    program = compile_steps(_plan_steps(specs, ext), [6, 8, 10])
    assert ("const T = [new Int32Array" in program.source) == (shapes[1] == (1, 4))   # broadcasts: index tables
    (got6, got8, got10), = _run_node([(program, [("float32", a), ("float32", b), ("int32", c)])])
    with _cpu():
        ta, tb, tc = tf.tensor(a), tf.tensor(b), tf.tensor(c, dtype="int32")
        r3 = ENGINE.run_kernel("Multiply", [ta, tb])
        r5 = ENGINE.run_kernel("Add", [r3, ENGINE.run_kernel("Cast", [tc], {"dtype": "float32"})])
        r6 = ENGINE.run_kernel("Greater", [r5, ta])
        r8 = ENGINE.run_kernel("Select", [r6, ENGINE.run_kernel("Tanh", [r5]), r3])
        r10 = ENGINE.run_kernel("FloorDiv", [ENGINE.run_kernel("Cast", [r5], {"dtype": "int32"}), tc])
        want = [_flat(t) for t in (r6, r8, r10)]
    np.testing.assert_array_equal(_decode(got6, "bool"), want[0])
    np.testing.assert_allclose(_decode(got8, "float32"), want[1], rtol=2e-6)
    np.testing.assert_array_equal(_decode(got10, "int32"), want[2])


def test_the_size_threshold_and_uncovered_kernels_refuse_a_plan():
    ext = {0: ((64,), "float32"), 1: ((64,), "float32")}
    steps = _plan_steps([("Add", {}, [0, 1], (64,), "float32")], ext)
    assert compile_steps(steps, [2], threshold=128) is not None
    assert compile_steps(steps, [2], threshold=64) is None          # TF.js: size < threshold
    assert ejs.kernel_op("MatMul", ["float32", "float32"], "float32", {}) is None
    assert ejs.kernel_op("Add", ["float32", "int32"], "float32", {}) is None   # operands of one dtype only
    assert ejs.kernel_op("Add", ["complex64", "complex64"], "complex64", {}) is None
    assert ejs.kernel_op("Exp", ["float32"], "int32", {}) is None   # not the dtype the kernel gives
