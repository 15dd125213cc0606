"""`pytfweb bench`: pytfweb on webgl beside TensorFlow.js 4.22 (its webgl backend) in one headless
Chromium, one page each. A steady case runs in one page, once to warm up (shader compiles,
uploads) and then the timed runs, and then likewise in the other page; medians and the ratio
pytfweb/TF.js are printed. Not alternately: SwiftShader keeps a bounded cache of compiled shader
routines, so a run after the other page's recompiles what that page evicted (a MobileNet 0.25
training step, 2.1 s in a row, took 9.7 s right after TF.js's). A first-run case
(`first_run=True`) is timed once per side in a freshly launched Chromium, so its time includes what
a first call pays: shader compiles, texture allocations, the upload of weights and inputs.
`--backend cpu` instead measures the numpy backend's overhead over raw numpy in this CPython.

Each case is the same work written twice, in Python for pytfweb and in JS for TF.js, and ends with a
readback of the result so that GPU work is inside the time. Models come from pytfweb.host.bench_models
and its JS twin web/bench_models.js.
"""
import re
import statistics
import time
from typing import NamedTuple


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


CASES = {
    "dispatch: 1000 chained add (64) + readback": Case(
        "x = tf.zeros([64]); one = tf.ones([64])",
        """
def chain():
    y = x
    for _ in range(1000):
        y = y + one
    return y
y = tf.tidy(chain)
await y.data()
y.dispose()""",
        "x = tf.zeros([64]); one = tf.ones([64]);",
        "const y = tf.tidy(() => { let y = x; for (let i = 0; i < 1000; i++) y = tf.add(y, one); return y; });"
        " await y.data(); y.dispose();"),
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
for _label, _first in (("first run", True), ("steady", False)):
    CASES[f"MobileNet v1 1.0 224x224x3: {_label}"] = Case(
        "from pytfweb.host.bench_models import mobilenet_v1\n"
        "model = mobilenet_v1(); x = tf.random_uniform([1, 224, 224, 3], -1, 1, seed=1)",
        "y = model.predict(x)\nawait y.data()\ny.dispose()",
        "model = mobilenetV1(); x = tf.randomUniform([1, 224, 224, 3], -1, 1);",
        "const y = model.predict(x); await y.data(); y.dispose();",
        first_run=_first, check=("params", "model.count_params()", "model.countParams()"))

# One training step (forward, gradients, adam update, the loss read back) as users run it:
# model.train_on_batch on a compiled model (categorical cross-entropy, adam), random images and
# one-hot labels. BatchNormalization trains on batch statistics, so its gradients are inside.
_LABELS_PY = "y = tf.tidy(lambda: tf.one_hot(tf.tensor1d([i % 10 for i in range({n})], 'int32'), {c}))"
_LABELS_JS = ("y = tf.tidy(() => tf.oneHot(tf.tensor1d(Array.from({{length: {n}}}, (_, i) => i % 10), 'int32'),"
              " {c}));")
for _label, _py_model, _js_model, _shape, _classes in (
        ("MLP (784-128-64-10) batch 32", "mlp()", "mlp()", [32, 784], 10),
        ("convnet (2 conv, pool, dense) 32x28x28x1", "small_convnet()", "smallConvnet()",
         [32, 28, 28, 1], 10),
        ("MobileNet v1 0.25 8x128x128x3", "mobilenet_v1(0.25, 128)", "mobilenetV1(0.25, 128)",
         [8, 128, 128, 3], 1000)):
    _n = _shape[0]
    CASES[f"train step: {_label}"] = Case(
        f"from pytfweb.host.bench_models import {_py_model.split('(')[0]}\n"
        f"model = {_py_model}; model.compile(optimizer='adam', loss='categoricalCrossentropy')\n"
        f"x = tf.random_uniform({_shape}, seed=1); " + _LABELS_PY.format(n=_n, c=_classes),
        "await model.train_on_batch(x, y)",
        f"model = {_js_model}; model.compile({{optimizer: 'adam', loss: 'categoricalCrossentropy'}});\n"
        f"x = tf.randomUniform({_shape}); " + _LABELS_JS.format(n=_n, c=_classes),
        "await model.trainOnBatch(x, y);",
        check=("params", "model.count_params()", "model.countParams()"))

# Loading MobileNet v1 (16 MB of float32 weights in 4 MB shards, written by pytfweb in TF.js's layers
# format before the pages open) over http:// from the bench's server, until the model is ready; both
# sides load the same files, so TF.js reading them is also a check that they are TF.js's format.
CASES["MobileNet v1 load (http, layers, 16 MB)"] = Case(
    "",
    "m = await tf.load_layers_model('/models/mobilenet_v1/model.json')\nm.dispose()",
    "",
    "const m = await tf.loadLayersModel('/models/mobilenet_v1/model.json'); m.dispose();",
    files=True)

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
'''

# Disposes what setup assigned; the change in the tensor count since before setup.
_PY_TEARDOWN = '''
for _n in {names!r}:
    _v = globals().pop(_n, None)
    if hasattr(_v, "dispose"):
        _v.dispose()
globals().pop("_bench_body", None), globals().pop("_bench_once", None)
tf.memory().num_tensors - _bench_tensors
'''

_JS_DEFINE = """
({setup, body}) => {
  window.__benchTensors = tf.memory().numTensors;
  eval(setup.replace(/^(\\s*)(\\w+) =/gm, '$1window.$2 ='));
  window.__benchOnce = new Function('return (async () => { const t = performance.now(); ' + body +
                                    ' return performance.now() - t; })()');
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


def _once_py(page):
    return float(page.evaluate("() => pytfweb.pyodide.runPythonAsync('await _bench_once()')"))


def _once_js(page):
    return float(page.evaluate("() => window.__benchOnce()"))


def _has(page, setup_and_body):
    """Whether every tf.<name>( the pytfweb case calls exists here yet."""
    names = sorted(set(re.findall(r"tf\.(\w+)\(", setup_and_body)))
    return page.evaluate("(names) => pytfweb.pyodide.runPython(`import pytfweb as tf\\n" +
                         "all(callable(getattr(tf, n, None)) for n in ${JSON.stringify(names)})`)", names)


def _open_pages(browser, url, verbose):
    """A page with pytfweb on webgl and a page with TF.js on webgl (and web/bench_models.js)."""
    py_page, _ = browser.open(url, backend="webgl", verbose=verbose)
    js_page = browser.new_page(verbose)
    js_page.goto(url + "bench.html")
    js_page.evaluate("async () => { await tf.setBackend('webgl'); await tf.ready(); }")
    return py_page, js_page


def _run_case(py_page, js_page, name, case, runs):
    """Times one case in the two pages and prints its row."""
    if not _has(py_page, case.py_setup + case.py_body):
        print(f"{name:{_W}} {'n/a':>11} {'':>10} {'':>7}   (op not in pytfweb yet)", flush=True)
        return
    notes = []
    try:
        _define_py(py_page, case.py_setup, case.py_body)
        js_page.evaluate(_JS_DEFINE, {"setup": case.js_setup, "body": case.js_body})
        if case.check:
            label, py_expr, js_expr = case.check
            ours = py_page.evaluate("(e) => pytfweb.pyodide.runPython(e)", py_expr)
            theirs = js_page.evaluate("(e) => eval(e)", js_expr)
            notes.append(f"{label}: {ours}" if ours == theirs else f"{label} DIFFER: pytfweb {ours}, TF.js {theirs}")
        if case.first_run:
            py_times, js_times = [_once_py(py_page)], [_once_js(js_page)]
            notes.append("once, fresh Chromium: compiles + uploads included")
        else:
            _once_py(py_page)   # warm-up: compiles, uploads
            py_times = [_once_py(py_page) for _ in range(runs)]
            _once_js(js_page)
            js_times = [_once_js(js_page) for _ in range(runs)]
    finally:
        py_left = _teardown_py(py_page, case)
        js_left = js_page.evaluate(_JS_TEARDOWN, _assigned(case.js_setup))
    if py_left or js_left:
        notes.append(f"LEAK: tensors left pytfweb {py_left}, TF.js {js_left}")
    p, j = statistics.median(py_times), statistics.median(js_times)
    print(f"{name:{_W}} {p:11.1f} {j:10.1f} {p / j:7.2f}" + (f"   ({'; '.join(notes)})" if notes else ""),
          flush=True)


def run_webgl(runs=5, only=None, verbose=False):
    """Prints the table. `only`: run the cases whose name contains it (any case)."""
    from .paths import npm_package_dir
    tfjs = npm_package_dir("@tensorflow/tfjs")
    if tfjs is None:
        print("pytfweb bench: @tensorflow/tfjs is not installed (npm ci installs it as a dev dependency)")
        return 1
    cases = {name: case for name, case in CASES.items() if not only or only.lower() in name.lower()}
    header = []

    def print_header(py_page):
        if not header:
            renderer = py_page.evaluate(
                "() => pytfweb.pyodide.runPython('import pytfweb as tf; tf.backend().renderer')")
            print(f"pytfweb bench: headless Chromium, WebGL renderer: {renderer}; median of {runs} timed runs "
                  "after one warm-up (first-run cases: one run, in a fresh Chromium)")
            print(f"{'case':{_W}} {'pytfweb ms':>11} {'TF.js ms':>10} {'ratio':>7}", flush=True)
            header.append(True)

    routes = {"/tfjs/": tfjs / "dist"}
    tmp = None
    if any(case.files for case in cases.values()):
        import tempfile
        tmp = tempfile.TemporaryDirectory(prefix="pytfweb-bench-")
        routes["/models/"] = write_model_files(tmp.name)
    try:
        return _run_cases(cases, routes, runs, verbose, print_header)
    finally:
        if tmp is not None:
            tmp.cleanup()


def run_breakdown(runs=5, only=None, verbose=False):
    """`--breakdown`: each case's time in the pytfweb page by part (host/breakdown.py)."""
    from . import breakdown
    from .chromium import Browser
    from .server import Server
    cases = {name: case for name, case in CASES.items()
             if not case.files and (not only or only.lower() in name.lower())}
    print(f"pytfweb bench --breakdown: {runs} profiled runs a case after a warm-up and {runs} plain runs "
          "(first-run cases: their one run, in a fresh Chromium)")
    with Server(verbose=verbose) as server:
        for name, case in cases.items():
            if case.first_run:
                with Browser() as browser:
                    py_page, _ = browser.open(server.url, backend="webgl", verbose=verbose)
                    breakdown.run(py_page, name, case, runs, _define_py, _teardown_py)
        with Browser() as browser:
            py_page, _ = browser.open(server.url, backend="webgl", verbose=verbose)
            for name, case in cases.items():
                if not case.first_run:
                    breakdown.run(py_page, name, case, runs, _define_py, _teardown_py)
    return 0


def write_model_files(directory):
    """MobileNet v1 (random weights) saved by pytfweb in TF.js's layers format under directory."""
    import os

    import pytfweb as tf
    from .bench_models import mobilenet_v1
    previous = tf.get_backend()
    tf.set_backend("cpu")
    model = mobilenet_v1()
    try:
        model.save_sync(os.path.join(directory, "mobilenet_v1"))
    finally:
        model.dispose()
        tf.set_backend(previous)
    return directory


def _run_cases(cases, routes, runs, verbose, print_header):
    from .chromium import Browser
    from .runner import startup_timings
    from .server import Server
    with Server(routes=routes, verbose=verbose) as server:
        # First runs before anything else, each in its own Chromium: no program compiled by an
        # earlier case can be in the GPU process's cache.
        for name, case in cases.items():
            if case.first_run:
                with Browser() as browser:
                    py_page, js_page = _open_pages(browser, server.url, verbose)
                    print_header(py_page)
                    _run_case(py_page, js_page, name, case, runs)
        with Browser() as browser:
            py_page, js_page = _open_pages(browser, server.url, verbose)
            print_header(py_page)
            for name, case in cases.items():
                if not case.first_run:
                    _run_case(py_page, js_page, name, case, runs)
            # Cold start: fresh contexts, page open to the first result read back, beside Pyodide alone.
            first, pyodide_alone = [], []
            for _ in range(3):
                t = startup_timings(browser, server.url, "webgl", verbose)
                first.append(t["first_result"])
                pyodide_alone.append(t["pyodide"])
            p, j = statistics.median(first), statistics.median(pyodide_alone)
            print(f"{'cold start: first result vs Pyodide alone':{_W}} {p:11.0f} {j:10.0f} {p / j:7.2f}"
                  "   (second column: Pyodide ready, not TF.js)")
    return 0


def run_cpu(runs=5):
    """The numpy backend against raw numpy, in this CPython."""
    import numpy as np

    import pytfweb as tf
    tf.set_backend("cpu")

    def median_ms(fn):
        fn()
        times = []
        for _ in range(runs):
            t = time.perf_counter()
            fn()
            times.append((time.perf_counter() - t) * 1000)
        return statistics.median(times)

    a = np.random.default_rng(1).random((1024, 1024), dtype=np.float32)
    b = np.random.default_rng(2).random((1024, 1024), dtype=np.float32)
    ta, tb = tf.tensor(a), tf.tensor(b)
    x, one = tf.zeros([64]), tf.ones([64])
    xn, onen = np.zeros(64, np.float32), np.ones(64, np.float32)

    def adds_tf():
        y = x
        for _ in range(1000):
            y = y + one
        return y

    def adds_np():
        y = xn
        for _ in range(1000):
            y = y + onen
        return y

    cases = [("mat_mul 1024x1024", lambda: tf.tidy(lambda: tf.mat_mul(ta, tb)).dispose(), lambda: a @ b),
             ("1000 chained add (64)", lambda: tf.tidy(adds_tf).dispose(), adds_np)]
    print(f"pytfweb bench --backend cpu: numpy {np.__version__}; {runs} timed runs after one warm-up")
    print(f"{'case':30} {'pytfweb ms':>11} {'numpy ms':>10} {'ratio':>7}")
    for name, ours, raw in cases:
        p, r = median_ms(ours), median_ms(raw)
        print(f"{name:30} {p:11.2f} {r:10.2f} {p / r:7.2f}")
    return 0
