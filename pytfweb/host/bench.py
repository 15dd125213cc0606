"""`pytfweb bench`: pytfweb on webgl beside TensorFlow.js 4.22 (its webgl backend) in one headless
Chromium, one page each. A steady case runs in one page, once to warm up (shader compiles,
uploads) and then the timed runs (each the mean of its body run back to back for about SAMPLE_MS),
and then likewise in the other page; medians and the ratio pytfweb/TF.js are printed. Not alternately: SwiftShader keeps a bounded cache of compiled shader
routines, so a run after the other page's recompiles what that page evicted (a MobileNet 0.25
training step, 2.1 s in a row, took 9.7 s right after TF.js's). A first-run case
(`first_run=True`) is timed once per side in a freshly launched Chromium, so its time includes what
a first call pays: shader compiles, texture allocations, the upload of weights and inputs.
`--backend webgpu` does the same with pytfweb on its webgpu backend beside TF.js's own WebGPU backend
(npm @tensorflow/tfjs-backend-webgpu, loaded into the TF.js page only then). A side that fails a
case (a kernel missing there, an error) gets "n/a" and the reason in the row, and the bench goes on.
`--backend cpu` instead measures the numpy backend's overhead over raw numpy in this CPython, and
the MLP's training step beside Keras 3 on its jax backend.
The four cases of tf.function's targets (the chained adds, the MLP's and the convnet's training step,
MobileNet v1 1.0's steady predict) have two rows, "(eager)" and "(traced)", each against TF.js.

Each case is the same work written twice, in Python for pytfweb and in JS for TF.js, and ends with a
readback of the result so that GPU work is inside the time. Models come from pytfweb.host.bench_models
and its JS twin web/bench_models.js, and from the model zoo (host/zoo.py, served at /zoo/): real
pre-trained graph models, three cases each (load, first predict, steady predict), whose ratios also
get a geometric-mean row per column (Case.group).
"""
import math
import os
import re
import statistics
import sys
import time
from typing import NamedTuple

import pytfweb as tf

from . import breakdown, zoo
from .bench_models import mobilenet_v1
from .chromium import Browser
from .paths import npm_package_dir
from .runner import startup_timings
from .server import Server


class Case(NamedTuple):
    """Setup runs once, untimed (inputs made, models built); the body is timed and must leave no
    tensors behind; `await` is allowed in both. What setup assigns at the start of a statement
    (`name = ...`) is disposed after the case, and the tensor count must be back where it was.
    check: (label, Python expression, JS expression) evaluated after setup and shown in the row,
    e.g. both models' parameter counts."""
    py_setup: str
    py_body: str
    js_setup: str
    js_body: str
    first_run: bool = False
    check: tuple = None
    files: bool = False     # needs the model files of write_model_files() at /models/
    group: str = None       # cases whose ratios get a geometric-mean row of their own (the zoo's columns)


# The four cases of tf.function's targets run twice in a row, "(eager)" with every op through its
# Python and "(traced)" through tf.function (a plan recorded once, then replayed); TF.js has no
# tracing, so its column runs the same JS body for both rows.
_DISPATCH = "dispatch: 1000 chained add (64) + readback"
_DISPATCH_JS = ("x = tf.zeros([64]); one = tf.ones([64]);",
                "const y = tf.tidy(() => { let y = x; for (let i = 0; i < 1000; i++) y = tf.add(y, one); return y; });"
                " await y.data(); y.dispose();")
# x and one are arguments of the traced function: one that only read them from outside would be
# computed once at the trace (kernels on captured tensors are folded) and replay nothing.
_CHAIN_PY = """
def chain(x, one):
    y = x
    for _ in range(1000):
        y = y + one
    return y
"""
CASES = {
    f"{_DISPATCH} (eager)": Case(
        "x = tf.zeros([64]); one = tf.ones([64])" + _CHAIN_PY,
        "y = tf.tidy(lambda: chain(x, one))\nawait y.data()\ny.dispose()",
        *_DISPATCH_JS),
    f"{_DISPATCH} (traced)": Case(
        "x = tf.zeros([64]); one = tf.ones([64])" + _CHAIN_PY + "traced = tf.function(chain)",
        "y = traced(x, one)\nawait y.data()\ny.dispose()",
        *_DISPATCH_JS),
}
# 100 elementwise ops (20 x: multiply, add, sigmoid, multiply, subtract) on 256x256, one readback:
# what lazy elementwise fusion is for.
CASES["100 mixed elementwise ops on 256x256"] = Case(
    "x = tf.random_uniform([256, 256], seed=1); y = tf.random_uniform([256, 256], seed=2)",
    """
def mixed():
    z = x
    for _ in range(20):
        z = tf.sigmoid(z * y + x) - z * 0.5
    return z
z = tf.tidy(mixed)
await z.data()
z.dispose()""",
    "x = tf.randomUniform([256, 256]); y = tf.randomUniform([256, 256]);",
    "const z = tf.tidy(() => { let z = x; for (let i = 0; i < 20; i++) z = tf.sub(tf.sigmoid(tf.add(tf.mul(z, y), x)),"
    " tf.mul(z, 0.5)); return z; }); await z.data(); z.dispose();")
for _n in (256, 512, 1024):
    CASES[f"mat_mul {_n}x{_n}"] = Case(
        f"a = tf.random_uniform([{_n}, {_n}], seed=1); b = tf.random_uniform([{_n}, {_n}], seed=2)",
        "c = tf.mat_mul(a, b)\nawait c.data()\nc.dispose()",
        f"a = tf.randomUniform([{_n}, {_n}]); b = tf.randomUniform([{_n}, {_n}]);",
        "const c = tf.matMul(a, b); await c.data(); c.dispose();")
CASES["conv2d 3x3 1x112x112x64 -> 64, same"] = Case(
    "x = tf.random_uniform([1, 112, 112, 64], seed=1); w = tf.random_uniform([3, 3, 64, 64], seed=2)",
    "y = tf.conv2d(x, w, 1, 'same')\nawait y.data()\ny.dispose()",
    "x = tf.randomUniform([1, 112, 112, 64]); w = tf.randomUniform([3, 3, 64, 64]);",
    "const y = tf.conv2d(x, w, 1, 'same'); await y.data(); y.dispose();")
CASES["depthwise_conv2d 3x3 1x112x112x64, same"] = Case(
    "x = tf.random_uniform([1, 112, 112, 64], seed=1); w = tf.random_uniform([3, 3, 64, 1], seed=2)",
    "y = tf.depthwise_conv2d(x, w, 1, 'same')\nawait y.data()\ny.dispose()",
    "x = tf.randomUniform([1, 112, 112, 64]); w = tf.randomUniform([3, 3, 64, 1]);",
    "const y = tf.depthwiseConv2d(x, w, 1, 'same'); await y.data(); y.dispose();")
# MobileNet v1 1.0 at 224x224x3 with random weights: model.predict on one random image, read back.
# predict runs its step through tf.function by default (the first run and "(traced)"); "(eager)"
# turns the TRACE_STEPS flag off around the call (a few microseconds of a run of seconds).
_MOBILENET_PY = ("from pytfweb.host.bench_models import mobilenet_v1\n"
                 "model = mobilenet_v1(); x = tf.random_uniform([1, 224, 224, 3], -1, 1, seed=1)")
_MOBILENET_JS = ("model = mobilenetV1(); x = tf.randomUniform([1, 224, 224, 3], -1, 1);",
                 "const y = model.predict(x); await y.data(); y.dispose();")
_PREDICT_EAGER_PY = """
_traced = tf.env().get("TRACE_STEPS")
tf.env().set("TRACE_STEPS", False)
try:
    y = model.predict(x)
finally:
    tf.env().set("TRACE_STEPS", _traced)
await y.data()
y.dispose()"""
for _label, _first, _py_body in (
        ("first run", True, "y = model.predict(x)\nawait y.data()\ny.dispose()"),
        ("steady (eager)", False, _PREDICT_EAGER_PY),
        ("steady (traced)", False, "y = model.predict(x)\nawait y.data()\ny.dispose()")):
    CASES[f"MobileNet v1 1.0 224x224x3: {_label}"] = Case(
        _MOBILENET_PY, _py_body, _MOBILENET_JS[0], _MOBILENET_JS[1],
        first_run=_first, check=("params", "model.count_params()", "model.countParams()"))

# The first run again, its programs compiled first in one pass that draws nothing: model.warmup() here,
# TF.js's own ENGINE_COMPILE_ONLY pass (a predict, then its compile checks and uniform locations) there.
CASES["MobileNet v1 1.0 224x224x3: first run, programs compiled first"] = Case(
    _MOBILENET_PY, "model.warmup()\ny = model.predict(x)\nawait y.data()\ny.dispose()", _MOBILENET_JS[0],
    "tf.env().set('ENGINE_COMPILE_ONLY', true); const w = model.predict(x); tf.env().set('ENGINE_COMPILE_ONLY', false);"
    " w.dispose(); await tf.backend().checkCompileCompletionAsync(); tf.backend().getUniformLocations(); "
    + _MOBILENET_JS[1], first_run=True, check=("params", "model.count_params()", "model.countParams()"))

# One training step (forward, gradients, adam update, the loss read back) as users run it:
# model.train_on_batch on a compiled model (categorical cross-entropy, adam), random images and
# one-hot labels. BatchNormalization trains on batch statistics, so its gradients are inside.
# The MLP and the convnet run "(eager)" (compile(..., jit_compile=False)) and "(traced)" (the
# default: the step through the model's tf.function); MobileNet 0.25 the default only.
_LABELS_PY = "y = tf.tidy(lambda: tf.one_hot(tf.tensor1d([i % 10 for i in range({n})], 'int32'), {c}))"
_LABELS_JS = ("y = tf.tidy(() => tf.oneHot(tf.tensor1d(Array.from({{length: {n}}}, (_, i) => i % 10), 'int32'),"
              " {c}));")
for _label, _py_model, _js_model, _shape, _classes, _ways in (
        ("MLP (784-128-64-10) batch 32", "mlp()", "mlp()", [32, 784], 10, ("eager", "traced")),
        # (dropout's masks are host steps: the traced step replays as segments between them)
        ("dropout MLP (784-128-64-10, dropout 0.2) batch 32", "mlp(0.2)", "mlp(0.2)", [32, 784], 10,
         ("eager", "traced")),
        ("convnet (2 conv, pool, dense) 32x28x28x1", "small_convnet()", "smallConvnet()",
         [32, 28, 28, 1], 10, ("eager", "traced")),
        ("MobileNet v1 0.25 8x128x128x3", "mobilenet_v1(0.25, 128)", "mobilenetV1(0.25, 128)",
         [8, 128, 128, 3], 1000, (None,))):
    _n = _shape[0]
    for _way in _ways:
        CASES[f"train step: {_label}" + (f" ({_way})" if _way else "")] = Case(
            f"from pytfweb.host.bench_models import {_py_model.split('(')[0]}\n"
            f"model = {_py_model}; model.compile(optimizer='adam', loss='categoricalCrossentropy'"
            + (", jit_compile=False" if _way == "eager" else "") + ")\n"
            f"x = tf.random_uniform({_shape}, seed=1); " + _LABELS_PY.format(n=_n, c=_classes),
            "await model.train_on_batch(x, y)",
            f"model = {_js_model}; model.compile({{optimizer: 'adam', loss: 'categoricalCrossentropy'}});\n"
            f"x = tf.randomUniform({_shape}); " + _LABELS_JS.format(n=_n, c=_classes),
            "await model.trainOnBatch(x, y);",
            check=("params", "model.count_params()", "model.countParams()"))

# The first training step of a fresh MLP (built and compiled, untimed), once in a fresh Chromium per side:
# what a visitor's first train_on_batch pays (the trace, the shader compiles, the weights' upload).
CASES["MLP (784-128-64-10) batch 32: first step (training)"] = Case(
    "from pytfweb.host.bench_models import mlp\n"
    "model = mlp(); model.compile(optimizer='adam', loss='categoricalCrossentropy')\n"
    "x = tf.random_uniform([32, 784], seed=1); " + _LABELS_PY.format(n=32, c=10),
    "await model.train_on_batch(x, y)",
    "model = mlp(); model.compile({optimizer: 'adam', loss: 'categoricalCrossentropy'});\n"
    "x = tf.randomUniform([32, 784]); " + _LABELS_JS.format(n=32, c=10),
    "await model.trainOnBatch(x, y);",
    first_run=True, check=("params", "model.count_params()", "model.countParams()"))

# Loading MobileNet v1 (16 MB of float32 weights in 4 MB shards, written by pytfweb in TF.js's layers
# format before the pages open) over http:// from the bench's server, until the model is ready; both
# sides load the same files, so TF.js reading them is also a check that they are TF.js's format.
CASES["MobileNet v1 load (http, layers, 16 MB)"] = Case(
    "",
    "m = await tf.load_layers_model('/models/mobilenet_v1/model.json')\nm.dispose()",
    "",
    "const m = await tf.loadLayersModel('/models/mobilenet_v1/model.json'); m.dispose();",
    files=True)

# The model zoo (host/zoo.py: real pre-trained TF.js graph models of @vladmandic/human, served at
# /zoo/), three cases a model. load: model.json and its weights over http:// to a model ready to
# predict (then disposed). first predict: the first execute_async on the catalog's photo, once in a
# fresh Chromium (shader compiles and the weights' upload included). steady predict: the same after
# the warm-up. Both predicts read every output back. The input is the photo decoded by the browser
# and prepared as the catalog says, by the same steps on both sides (zoo.photo_input and its twin
# zooInput in web/bench_models.js), outside the clock.
ZOO_COLUMNS = ("load", "first predict", "steady predict")
_ZOO_PREDICT_PY = """
y = await model.execute_async(x)
ys = y if isinstance(y, list) else [y]
for t in ys:
    await t.data()
tf.dispose(ys)"""
_ZOO_PREDICT_JS = ("const y = await model.executeAsync(x); const ys = Array.isArray(y) ? y : [y];"
                   " for (const t of ys) await t.data(); tf.dispose(ys);")
for _m in zoo.MODELS:
    _url = f"/zoo/models/{_m.name}.json"
    _args = f"'/zoo/assets/{_m.photo}', {_m.size}, {_m.channels}, '{_m.dtype}', {_m.scale!r}, {_m.offset!r}"
    CASES[f"zoo {_m.name}: load"] = Case(
        "", f"m = await tf.load_graph_model('{_url}')\nm.dispose()",
        "", f"const m = await tf.loadGraphModel('{_url}'); m.dispose();", group="zoo: load")
    for _column, _first in (("first predict", True), ("steady predict", False)):
        CASES[f"zoo {_m.name}: {_column}"] = Case(
            "from pytfweb.host import zoo\n"
            f"model = await tf.load_graph_model('{_url}')\nx = await zoo.photo_input(zoo.BY_NAME['{_m.name}'])",
            _ZOO_PREDICT_PY,
            f"model = await tf.loadGraphModel('{_url}');\nx = await zooInput({_args});",
            _ZOO_PREDICT_JS, first_run=_first, group=f"zoo: {_column}")

# The width of the case column
_W = max(44, *map(len, CASES))

_PY_CASE = '''
import time as _time
import pytfweb as tf
_bench_tensors = tf.memory().num_tensors
{setup}
async def _bench_body():
{body}
async def _bench_once():
    _t = _time.perf_counter()
    await _bench_body()
    return (_time.perf_counter() - _t) * 1000
async def _bench_many(k):
    _total = 0.0
    for _ in range(k):
        _total += await _bench_once()
    return _total / k
'''

# Disposes what setup assigned; the change in the tensor count since before setup.
_PY_TEARDOWN = '''
for _n in {names!r}:
    _v = globals().pop(_n, None)
    if hasattr(_v, "dispose"):
        _v.dispose()
globals().pop("_bench_body", None), globals().pop("_bench_once", None), globals().pop("_bench_many", None)
tf.memory().num_tensors - _bench_tensors
'''

_JS_DEFINE = """
async ({setup, body}) => {
  window.__benchTensors = tf.memory().numTensors;
  // An async function's body, so that setup may await (loading a model); what it assigns at the start
  // of a line becomes a global for the body.
  const AsyncFunction = (async () => {}).constructor;
  await new AsyncFunction(setup.replace(/^(\\s*)(\\w+) =/gm, '$1window.$2 ='))();
  window.__benchOnce = new Function('return (async () => { const t = performance.now(); ' + body +
                                    ' return performance.now() - t; })()');
  window.__benchMany = async (k) => {
    let total = 0;
    for (let i = 0; i < k; i++) total += await window.__benchOnce();
    return total / k;
  };
}
"""

_JS_TEARDOWN = """
(names) => {
  for (const n of names) {
    const v = window[n];
    if (v && typeof v.dispose === 'function') v.dispose();
    delete window[n];
  }
  delete window.__benchOnce;
  delete window.__benchMany;
  return tf.memory().numTensors - window.__benchTensors;
}
"""


def _assigned(setup):
    """The names a setup assigns at the start of a statement: `x = ...; model = ...`."""
    return re.findall(r"(?:^|;)\s*(\w+)\s*=(?!=)", setup, re.M)


def _define_py(page, setup, body):
    code = _PY_CASE.format(setup=setup, body="\n".join("    " + ln for ln in body.strip().splitlines()))
    page.evaluate("(code) => pytfweb.pyodide.runPythonAsync(code)", code)


def _teardown_py(page, case):
    """Disposes what the case's setup assigned; the tensors left since before setup."""
    return page.evaluate("(code) => pytfweb.pyodide.runPython(code)",
                         _PY_TEARDOWN.format(names=_assigned(case.py_setup)))


def _once_py(page, k=1):
    return float(page.evaluate("(k) => pytfweb.pyodide.runPythonAsync(`await _bench_many(${k})`)", k))


def _once_js(page, k=1):
    return float(page.evaluate("(k) => window.__benchMany(k)", k))


def _has(page, setup_and_body):
    """Whether every tf.<name>( the pytfweb case calls exists here yet."""
    names = sorted(set(re.findall(r"tf\.(\w+)\(", setup_and_body)))
    return page.evaluate("(names) => pytfweb.pyodide.runPython(`import pytfweb as tf\\n" +
                         "all(callable(getattr(tf, n, None)) for n in ${JSON.stringify(names)})`)", names)


#: The npm package (dist/ served at the route) each backend adds to the TF.js page after TF.js itself.
_TFJS_EXTRA = {"webgpu": ("@tensorflow/tfjs-backend-webgpu", "/tfjs-webgpu/", "tf-backend-webgpu.min.js")}

# The adapter navigator.gpu gives this page (a description), or null.
_ADAPTER_JS = """
async () => {
  if (!navigator.gpu) return null;
  const a = await navigator.gpu.requestAdapter();
  if (!a) return null;
  const i = a.info || {};
  return [i.vendor, i.architecture, i.device, i.description].filter(Boolean).join(' ') || '(no description)';
}
"""


class Unavailable(RuntimeError):
    """The backend cannot run in this Chromium (no WebGPU adapter, TF.js's backend refused)."""


def webgpu_adapter(page):
    """The WebGPU adapter's description in `page` (on http://127.0.0.1), or None where there is none."""
    return page.evaluate(_ADAPTER_JS)


def _open_pages(browser, url, verbose, backend="webgl"):
    """A page with TF.js on `backend` (and web/bench_models.js) and a page with pytfweb on `backend`."""
    js_page = browser.new_page(verbose)
    js_page.goto(url + "bench.html")
    if backend == "webgpu" and webgpu_adapter(js_page) is None:
        raise Unavailable("this Chromium gives no WebGPU adapter (navigator.gpu.requestAdapter() is null; Chromium "
                          "needs --enable-unsafe-webgpu and a secure origin)")
    if backend in _TFJS_EXTRA:
        _, route, script = _TFJS_EXTRA[backend]
        js_page.add_script_tag(url=route + script)
    if not js_page.evaluate("async (b) => { const ok = await tf.setBackend(b); await tf.ready(); return ok; }",
                            backend):
        raise Unavailable(f"TF.js's {backend} backend did not initialise (tf.setBackend('{backend}') gave false)")
    py_page, _ = browser.open(url, backend=backend, verbose=verbose)
    return py_page, js_page


_MISSING = (r"Kernel '(\w+)' is not implemented on backend '(\w+)'",   # pytfweb's engine
            r"Kernel '(\w+)' not registered for backend '(\w+)'")       # TF.js's engine


def _failure(side, exc):
    """(note, missing kernel or None) for an exception a side raised in its page."""
    text = str(getattr(exc, "message", None) or exc)
    for pattern in _MISSING:
        m = re.search(pattern, text)
        if m:
            return f"{side}: kernel {m.group(1)} not on {m.group(2)}", m.group(1)
    # the Python exception (last line of a PythonError's traceback) or the JS error's first line
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    py = [ln for ln in lines if re.match(r"^[\w.]+(Error|Exception|Interrupt): ", ln)]
    line = py[-1] if py else (lines[0] if lines else type(exc).__name__)
    return f"{side} failed: {line[:200]}", None


#: A timed run of a steady case repeats its body, back to back in the page, until it takes about
#: this long, and counts the mean: a short body (1000 adds, a training step of a small model) is
#: then timed as a loop runs it, not dominated by the page being woken for each call.
SAMPLE_MS = 100.0


def _time_side(once, page, runs, first_run):
    if first_run:
        return [once(page)]
    once(page)   # warm-up: compiles, uploads
    k = max(1, min(100, round(SAMPLE_MS / max(once(page), 0.01))))
    return [once(page, k) for _ in range(runs)]


def _run_case(py_page, js_page, name, case, runs, results=None, note=None):
    """Times one case in the two pages and prints its row; each side that fails gets "n/a" and the
    reason (a missing kernel by name). False if pytfweb failed otherwise than by a missing kernel.
    A case of a group adds its (pytfweb ms, TF.js ms) to results[group] (None for a side that failed)."""
    if not _has(py_page, case.py_setup + case.py_body):
        print(f"{name:{_W}} {'n/a':>11} {'':>10} {'':>7}   (op not in pytfweb yet)", flush=True)
        if case.group is not None and results is not None:
            results.setdefault(case.group, []).append((None, None))
        return True
    notes, ok = [], True
    py_times = js_times = ours = theirs = None
    try:
        try:
            _define_py(py_page, case.py_setup, case.py_body)
            if case.check:
                ours = py_page.evaluate("(e) => pytfweb.pyodide.runPython(e)", case.check[1])
            py_times = _time_side(_once_py, py_page, runs, case.first_run)
        except Exception as exc:   # playwright's Error: the page's exception, in its message
            note, missing = _failure("pytfweb", exc)
            notes.append(note)
            ok = missing is not None
        try:
            js_page.evaluate(_JS_DEFINE, {"setup": case.js_setup, "body": case.js_body})
            if case.check:
                theirs = js_page.evaluate("(e) => eval(e)", case.check[2])
            js_times = _time_side(_once_js, js_page, runs, case.first_run)
        except Exception as exc:
            notes.append(_failure("TF.js", exc)[0])
    finally:
        py_left = _teardown_py(py_page, case)
        js_left = js_page.evaluate(_JS_TEARDOWN, _assigned(case.js_setup))
    if case.check and ours is not None and theirs is not None:
        label = case.check[0]
        notes.insert(0, f"{label}: {ours}" if ours == theirs else f"{label} DIFFER: pytfweb {ours}, TF.js {theirs}")
    if case.first_run:
        notes.append("once, fresh Chromium: compiles + uploads included")
    if note:
        notes.append(note)
    if py_left or js_left:
        notes.append(f"LEAK: tensors left pytfweb {py_left}, TF.js {js_left}")
    p = statistics.median(py_times) if py_times else None
    j = statistics.median(js_times) if js_times else None
    if case.group is not None and results is not None:
        results.setdefault(case.group, []).append((p, j))
    cols = (f"{p:11.1f}" if p is not None else f"{'n/a':>11}") + " " + \
           (f"{j:10.1f}" if j is not None else f"{'n/a':>10}") + " " + \
           (f"{p / j:7.2f}" if p is not None and j is not None else f"{'':>7}")
    print(f"{name:{_W}} {cols}" + (f"   ({'; '.join(notes)})" if notes else ""), flush=True)
    return ok


def _selected(only):
    """The cases whose name contains `only` (any case; a list: any of its texts), in CASES's order."""
    texts = [t.lower() for t in ([only] if isinstance(only, str) else only or [])]
    return {name: case for name, case in CASES.items() if not texts or any(t in name.lower() for t in texts)}


def run_webgl(runs=5, only=None, verbose=False, backend="webgl"):
    """Prints the table (pytfweb and TF.js both on `backend`: webgl or webgpu). `only`: run the cases
    whose name contains it (any case). 0; 1 where something needed is missing or pytfweb failed a
    case otherwise than by a missing kernel."""
    tfjs = npm_package_dir("@tensorflow/tfjs")
    if tfjs is None:
        print("pytfweb bench: @tensorflow/tfjs is not installed (npm ci installs it as a dev dependency)")
        return 1
    routes = {"/tfjs/": tfjs / "dist"}
    if backend in _TFJS_EXTRA:
        package, route, _ = _TFJS_EXTRA[backend]
        extra = npm_package_dir(package)
        if extra is None:
            print(f"pytfweb bench: {package} is not installed (npm ci installs it as a dev dependency)")
            return 1
        routes[route] = extra / "dist"
    cases = _selected(only)
    if any(name.startswith("zoo ") for name in cases) and zoo.package_dir() is None:
        print(f"pytfweb bench: the zoo's cases need {zoo.PACKAGE} (npm ci installs it as a dev dependency); "
              "left out", flush=True)
        cases = {name: case for name, case in cases.items() if not name.startswith("zoo ")}
        if not cases:
            return 1
    header = []

    def print_header(py_page):
        if not header:
            if backend == "webgpu":
                what = f"WebGPU adapter: {webgpu_adapter(py_page)}"
            else:
                renderer = py_page.evaluate(
                    "() => pytfweb.pyodide.runPython('import pytfweb as tf; tf.backend().renderer')")
                what = f"WebGL renderer: {renderer}"
            print(f"pytfweb bench: {backend} beside TF.js 4.22's {backend} backend; headless Chromium, {what}; "
                  f"median of {runs} timed runs after one warm-up, each the mean of its body repeated for about "
                  f"{SAMPLE_MS:.0f} ms (first-run cases: one run, in a fresh Chromium)")
            print(f"{'case':{_W}} {'pytfweb ms':>11} {'TF.js ms':>10} {'ratio':>7}", flush=True)
            header.append(True)

    tmp = None
    if any(case.files for case in cases.values()):
        import tempfile
        tmp = tempfile.TemporaryDirectory(prefix="pytfweb-bench-")
        routes["/models/"] = write_model_files(tmp.name)
    try:
        return _run_cases(cases, routes, runs, verbose, print_header, backend)
    except Unavailable as exc:
        print(f"pytfweb bench --backend {backend}: {exc}", flush=True)
        return 1
    finally:
        if tmp is not None:
            tmp.cleanup()


# The kernels TF.js's tf.profile sees in one run of the body: {name: count} (not the entries named
# after an op's scope, `fusedConv2d__op`, which wrap a kernel also listed).
_JS_PROFILE = """
async () => {
  const info = await tf.profile(() => window.__benchOnce());
  const kernels = {};
  for (const k of info.kernels) if (!k.name.endsWith('__op')) kernels[k.name] = (kernels[k.name] || 0) + 1;
  return kernels;
}
"""


def _peer_figures(js_page, name, case, runs):
    """TF.js's figures for a steady case's body, for the breakdown: the plain ms a run (median of
    `runs` after three warm-up runs), the draws WebGL sees in one run and its kernels by name;
    None (and a line saying why) if TF.js failed."""
    try:
        js_page.evaluate(_JS_DEFINE, {"setup": case.js_setup, "body": case.js_body})
        for _ in range(3):
            _once_js(js_page)
        plain = statistics.median(_once_js(js_page) for _ in range(runs))
        draws = js_page.evaluate(breakdown.COUNT_DRAWS_JS, False)
        return {"plain_ms": plain, "draws": draws, "kernels": js_page.evaluate(_JS_PROFILE)}
    except Exception as exc:
        print(f"\n{name}: {_failure('TF.js', exc)[0]}")
        return None
    finally:
        js_page.evaluate(_JS_TEARDOWN, _assigned(case.js_setup))


def run_breakdown(runs=5, only=None, verbose=False):
    """`--breakdown`: each case's time in the pytfweb page by part (host/breakdown.py), with TF.js's
    plain time, draws and kernel counts for the same body beside the steady cases."""
    cases = {name: case for name, case in _selected(only).items() if not case.files}
    if any(name.startswith("zoo ") for name in cases) and zoo.package_dir() is None:
        print(f"pytfweb bench --breakdown: the zoo's cases need {zoo.PACKAGE} (npm ci installs it); left out")
        cases = {name: case for name, case in cases.items() if not name.startswith("zoo ")}
    tfjs = npm_package_dir("@tensorflow/tfjs")
    routes = {"/tfjs/": tfjs / "dist"} if tfjs is not None else {}
    print(f"pytfweb bench --breakdown: {runs} profiled runs a case after a warm-up and {runs} plain runs "
          "(first-run cases: their one run, in a fresh Chromium)")
    with Server(routes=routes, verbose=verbose) as server:
        for name, case in cases.items():
            if case.first_run:
                with Browser() as browser:
                    py_page, _ = browser.open(server.url, backend="webgl", verbose=verbose)
                    breakdown.run(py_page, name, case, runs, _define_py, _teardown_py)
        with Browser() as browser:
            if tfjs is not None:
                py_page, js_page = _open_pages(browser, server.url, verbose)
            else:
                (py_page, _), js_page = browser.open(server.url, backend="webgl", verbose=verbose), None
            for name, case in cases.items():
                if not case.first_run:
                    peer = _peer_figures(js_page, name, case, runs) if js_page is not None else None
                    breakdown.run(py_page, name, case, runs, _define_py, _teardown_py, peer)
    return 0


def write_model_files(directory):
    """MobileNet v1 (random weights) saved by pytfweb in TF.js's layers format under directory."""
    previous = tf.get_backend()
    tf.set_backend("cpu")
    model = mobilenet_v1()
    try:
        model.save_sync(os.path.join(directory, "mobilenet_v1"))
    finally:
        model.dispose()
        tf.set_backend(previous)
    return directory


def geometric_means(results):
    """{group: (pytfweb geometric mean, TF.js's, ratio of the two, cases both sides ran, cases)} over
    the cases of each group that both sides ran (the ratio is also the geometric mean of the ratios)."""
    means = {}
    for group, pairs in results.items():
        both = [(p, j) for p, j in pairs if p is not None and j is not None and p > 0 and j > 0]
        if both:
            gp = math.exp(statistics.fmean(math.log(p) for p, _ in both))
            gj = math.exp(statistics.fmean(math.log(j) for _, j in both))
            means[group] = (gp, gj, gp / gj, len(both), len(pairs))
    return means


def _print_geometric_means(results):
    for group, (gp, gj, ratio, n, total) in geometric_means(results).items():
        name = f"geometric mean, {group}"
        note = (f"   ({n} of {total} cases: {total - n} failed on a side)" if n < total
                else f"   ({n} case{'s' if n > 1 else ''})")
        print(f"{name:{_W}} {gp:11.1f} {gj:10.1f} {ratio:7.2f}{note}", flush=True)


def _run_cases(cases, routes, runs, verbose, print_header, backend="webgl"):
    ok = True
    results = {}
    with Server(routes=routes, verbose=verbose) as server:
        # First runs before anything else, each in its own Chromium: no program compiled by an
        # earlier case can be in the GPU process's cache.
        for name, case in cases.items():
            if case.first_run:
                ok &= _first_run_case(server.url, name, case, runs, results, verbose, backend, print_header)
        with Browser() as browser:
            py_page, js_page = _open_pages(browser, server.url, verbose, backend)
            print_header(py_page)
            for name, case in cases.items():
                if not case.first_run:
                    ok &= _run_case(py_page, js_page, name, case, runs, results)
            _print_geometric_means(results)
            # Cold start: fresh contexts, page open to the first result read back, beside Pyodide alone.
            first, pyodide_alone = [], []
            for _ in range(3):
                t = startup_timings(browser, server.url, backend, verbose)
                first.append(t["first_result"])
                pyodide_alone.append(t["pyodide"])
            p, j = statistics.median(first), statistics.median(pyodide_alone)
            print(f"{'cold start: first result vs Pyodide alone':{_W}} {p:11.0f} {j:10.0f} {p / j:7.2f}"
                  "   (second column: Pyodide ready, not TF.js)")
    return 0 if ok else 1


def _first_run_case(url, name, case, runs, results, verbose, backend, print_header):
    """A first-run case in a fresh Chromium; once more in another where a page's renderer crashed
    (an intermittent SIGSEGV of Chromium's renderer seen on this case, in no module of its own: a
    measurement of the browser's, not a result of the case), the row saying so."""
    for attempt in (1, 2):
        with Browser() as browser:
            py_page, js_page = _open_pages(browser, url, verbose, backend)
            print_header(py_page)
            try:
                return _run_case(py_page, js_page, name, case, runs, results,
                                 note="run again: a page's renderer crashed the first time" if attempt > 1 else None)
            except Exception as exc:   # playwright's Error
                if attempt > 1 or "crashed" not in str(exc):
                    raise
                print(f"pytfweb bench: {name}: a page's renderer crashed ({exc}); once more in a fresh Chromium",
                      file=sys.stderr, flush=True)


def _keras_jax():
    """keras 3 on its jax backend, or None and why not. KERAS_BACKEND must be set before keras is
    first imported; a keras already imported on another backend is refused rather than reloaded."""
    if "keras" not in sys.modules:
        os.environ["KERAS_BACKEND"] = "jax"
    try:
        import jax  # noqa: F401   (keras names jax as its backend but imports it lazily)
        import keras
    except Exception as exc:   # not installed, or a broken install
        return None, f"keras 3 on jax is not importable here ({type(exc).__name__}: {exc}"[:150] + ")"
    if not keras.__version__.startswith("3.") or keras.backend.backend() != "jax":
        return None, f"keras {keras.__version__} was already imported on '{keras.backend.backend()}', not jax"
    return keras, None


def _keras_mlp_step(keras, x, y):
    """bench_models.mlp() and the bench's compile in Keras 3 (its default: the step jit-compiled by
    jax): a function running one train_on_batch, whose loss it returns as a Python float."""
    import jax.numpy as jnp
    model = keras.Sequential([keras.Input((784,)), keras.layers.Dense(128, activation="relu"),
                              keras.layers.Dense(64, activation="relu"), keras.layers.Dense(10, activation="softmax")])
    model.compile(optimizer=keras.optimizers.Adam(), loss="categorical_crossentropy")
    xj, yj = jnp.asarray(x), jnp.asarray(y)   # on the device already, as pytfweb's tensors are
    return lambda: float(model.train_on_batch(xj, yj))


def run_cpu(runs=5):
    """The numpy backend against raw numpy, and the MLP's training step against Keras 3 on jax,
    in this CPython: eager and through tf.function."""
    import asyncio
    import numpy as np   # the cpu bench compares with numpy, which a page need not have
    from .bench_models import mlp
    tf.set_backend("cpu")

    def median_ms(fn):
        # as a page's steady case: one warm-up, then each timed run the mean of the body repeated
        # for about SAMPLE_MS (a 1000-add loop or an MLP step is a fraction of a millisecond here)
        fn()
        t = time.perf_counter()
        fn()
        k = max(1, min(1000, round(SAMPLE_MS / max((time.perf_counter() - t) * 1000, 0.001))))
        times = []
        for _ in range(runs):
            t = time.perf_counter()
            for _ in range(k):
                fn()
            times.append((time.perf_counter() - t) * 1000 / k)
        return statistics.median(times)

    a = np.random.default_rng(1).random((1024, 1024), dtype=np.float32)
    b = np.random.default_rng(2).random((1024, 1024), dtype=np.float32)
    ta, tb = tf.tensor(a), tf.tensor(b)
    x, one = tf.zeros([64]), tf.ones([64])
    xn, onen = np.zeros(64, np.float32), np.ones(64, np.float32)

    def chain(x, one):
        y = x
        for _ in range(1000):
            y = y + one
        return y
    traced = tf.function(chain)

    def adds_np():
        y = xn
        for _ in range(1000):
            y = y + onen
        return y

    # the MLP's step on 32 random rows and one-hot labels; train_on_batch is a coroutine (a page
    # awaits its readback), run to its end on one event loop
    rows = np.random.default_rng(3).random((32, 784), dtype=np.float32)
    labels = np.eye(10, dtype=np.float32)[np.arange(32) % 10]
    tx, ty = tf.tensor(rows), tf.tensor(labels)
    loop = asyncio.new_event_loop()
    models = []

    def train_step(jit_compile):
        model = mlp()
        model.compile(optimizer="adam", loss="categoricalCrossentropy", jit_compile=jit_compile)
        models.append(model)
        return lambda: loop.run_until_complete(model.train_on_batch(tx, ty))

    keras, why = _keras_jax()
    keras_step = _keras_mlp_step(keras, rows, labels) if keras is not None else None
    cases = [("mat_mul 1024x1024", lambda: tf.tidy(lambda: tf.mat_mul(ta, tb)).dispose(), lambda: a @ b),
             ("1000 chained add (64) (eager)", lambda: tf.tidy(lambda: chain(x, one)).dispose(), adds_np),
             ("1000 chained add (64) (traced)", lambda: traced(x, one).dispose(), adds_np),
             ("train step: MLP batch 32 (eager)", train_step(False), keras_step),
             ("train step: MLP batch 32 (traced)", train_step(True), keras_step)]
    w = max(len(name) for name, _, _ in cases)
    print(f"pytfweb bench --backend cpu: numpy {np.__version__}; median of {runs} timed runs after one warm-up, each "
          f"the mean of its body repeated for about {SAMPLE_MS:.0f} ms. Third column: raw numpy (a plain loop for the "
          "adds); for the train steps Keras " + (f"{keras.__version__} on jax (jit-compiled, its default), "
                                                 "same model, adam and batch" if keras else "3 on jax (not here)"))
    print(f"{'case':{w}} {'pytfweb ms':>11} {'other ms':>10} {'ratio':>7}")
    try:
        for name, ours, other in cases:
            p = median_ms(ours)
            if other is None:
                print(f"{name:{w}} {p:11.3f} {'n/a':>10} {'':>7}   ({why})", flush=True)
                continue
            r = median_ms(other)
            print(f"{name:{w}} {p:11.3f} {r:10.3f} {p / r:7.2f}", flush=True)
    finally:
        for model in models:
            model.dispose()
        traced.dispose()
        tf.dispose([ta, tb, x, one, tx, ty])
        loop.close()
    return 0
