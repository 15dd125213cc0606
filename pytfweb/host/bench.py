"""`pytfweb bench`: pytfweb on webgl beside TensorFlow.js 4.22 (its webgl backend) in one headless
Chromium, one page each; every case runs once to warm up (shader compiles), then alternately in the
two pages; medians and the ratio pytfweb/TF.js are printed. `--backend cpu` instead measures the
numpy backend's overhead over raw numpy in this CPython.

Each case is the same work written twice, in Python for pytfweb and in JS for TF.js, and ends with a
readback of the result so that GPU work is inside the time.
"""
import statistics
import time

# name -> (python setup, python timed body, js setup, js timed body). Setup runs once (inputs made and
# uploaded); the body is timed and must leave no tensors behind. `await` is allowed in both.
CASES = {
    "dispatch: 1000 chained add (64) + readback": (
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
for _n in (256, 512, 1024):
    CASES[f"mat_mul {_n}x{_n}"] = (
        f"a = tf.random_uniform([{_n}, {_n}], seed=1); b = tf.random_uniform([{_n}, {_n}], seed=2)",
        "c = tf.mat_mul(a, b)\nawait c.data()\nc.dispose()",
        f"a = tf.randomUniform([{_n}, {_n}]); b = tf.randomUniform([{_n}, {_n}]);",
        "const c = tf.matMul(a, b); await c.data(); c.dispose();")
CASES["conv2d 3x3 1x112x112x64 -> 64, same"] = (
    "x = tf.random_uniform([1, 112, 112, 64], seed=1); w = tf.random_uniform([3, 3, 64, 64], seed=2)",
    "y = tf.conv2d(x, w, 1, 'same')\nawait y.data()\ny.dispose()",
    "x = tf.randomUniform([1, 112, 112, 64]); w = tf.randomUniform([3, 3, 64, 64]);",
    "const y = tf.conv2d(x, w, 1, 'same'); await y.data(); y.dispose();")
CASES["depthwise_conv2d 3x3 1x112x112x64, same"] = (
    "x = tf.random_uniform([1, 112, 112, 64], seed=1); w = tf.random_uniform([3, 3, 64, 1], seed=2)",
    "y = tf.depthwise_conv2d(x, w, 1, 'same')\nawait y.data()\ny.dispose()",
    "x = tf.randomUniform([1, 112, 112, 64]); w = tf.randomUniform([3, 3, 64, 1]);",
    "const y = tf.depthwiseConv2d(x, w, 1, 'same'); await y.data(); y.dispose();")

_PY_CASE = '''
import time as _time
{setup}
async def _bench_body():
{body}
async def _bench_once():
    _t = _time.perf_counter()
    await _bench_body()
    return (_time.perf_counter() - _t) * 1000
'''

_JS_DEFINE = """
({setup, body}) => {
  eval(setup.replace(/^(\\s*)(\\w+) =/gm, '$1window.$2 ='));
  window.__benchOnce = new Function('return (async () => { const t = performance.now(); ' + body +
                                    ' return performance.now() - t; })()');
}
"""


def _define_py(page, setup, body):
    code = _PY_CASE.format(setup=setup, body="\n".join("    " + ln for ln in body.strip().splitlines()))
    page.evaluate("(code) => pytfweb.pyodide.runPythonAsync(code)", code)


def _once_py(page):
    return float(page.evaluate("() => pytfweb.pyodide.runPythonAsync('await _bench_once()')"))


def _once_js(page):
    return float(page.evaluate("() => window.__benchOnce()"))


def _has(page, setup_and_body):
    """Whether every tf.<name>( the pytfweb case calls exists here yet."""
    import re
    names = sorted(set(re.findall(r"tf\.(\w+)\(", setup_and_body)))
    return page.evaluate("(names) => pytfweb.pyodide.runPython(`import pytfweb as tf\\n" +
                         "all(callable(getattr(tf, n, None)) for n in ${JSON.stringify(names)})`)", names)


def run_webgl(runs=5, only=None, verbose=False):
    from .chromium import Browser
    from .paths import npm_package_dir
    from .runner import startup_timings
    from .server import Server
    tfjs = npm_package_dir("@tensorflow/tfjs")
    if tfjs is None:
        print("pytfweb bench: @tensorflow/tfjs is not installed (npm ci installs it as a dev dependency)")
        return 1
    rows = []
    with Server(routes={"/tfjs/": tfjs / "dist"}, verbose=verbose) as server, Browser() as browser:
        py_page, _ = browser.open(server.url, backend="webgl", verbose=verbose)
        js_page = browser.new_page(verbose)
        js_page.goto(server.url + "bench.html")
        js_page.evaluate("async () => { await tf.setBackend('webgl'); await tf.ready(); }")
        renderer = py_page.evaluate("() => pytfweb.pyodide.runPython('import pytfweb as tf; tf.backend().renderer')")
        print(f"pytfweb bench: headless Chromium, WebGL renderer: {renderer}; {runs} timed runs after one warm-up")
        print(f"{'case':44} {'pytfweb ms':>11} {'TF.js ms':>10} {'ratio':>7}")
        for name, (py_setup, py_body, js_setup, js_body) in CASES.items():
            if only and only not in name:
                continue
            if not _has(py_page, py_setup + py_body):
                print(f"{name:44} {'n/a':>11} {'':>10} {'':>7}   (op not in pytfweb yet)")
                continue
            _define_py(py_page, py_setup, py_body)
            js_page.evaluate(_JS_DEFINE, {"setup": js_setup, "body": js_body})
            py_times, js_times = [], []
            _once_py(py_page), _once_js(js_page)   # warm-up: compiles, uploads
            for _ in range(runs):
                py_times.append(_once_py(py_page))
                js_times.append(_once_js(js_page))
            p, j = statistics.median(py_times), statistics.median(js_times)
            rows.append((name, p, j))
            print(f"{name:44} {p:11.1f} {j:10.1f} {p / j:7.2f}", flush=True)
        # Cold start: fresh contexts, page open to the first result read back, beside Pyodide alone.
        first, pyodide_alone = [], []
        for _ in range(3):
            t = startup_timings(browser, server.url, "webgl", verbose)
            first.append(t["first_result"])
            pyodide_alone.append(t["pyodide"])
        p, j = statistics.median(first), statistics.median(pyodide_alone)
        print(f"{'cold start: first result vs Pyodide alone':44} {p:11.0f} {j:10.0f} {p / j:7.2f}"
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
