"""`pytfweb soak`: many training steps in a row, memory watched. Each iteration is one training
step, in turn of: `model.fit` on two batches of a small convnet (sgd), `model.fit` on two batches of
an MLP (adam), and a `tidy`-wrapped custom step `optimizer.minimize` of a linear model's loss
(rmsprop). Every so often and at the end it prints tf.memory() (tensors, bytes; on webgl the
textures in use and in the recycler, and their bytes) and, on webgl, the JS heap after a garbage
collection (CDP's Runtime.getHeapUsage; Chromium's performance.memory beside it), the WebAssembly
memory (Pyodide's heap: it only grows) and the Python objects the garbage collector tracks.

After a warm-up (the first report) the tensor count and bytes must stay exactly where they were,
and the recycler's textures, the JS heap and the Python objects within a bound; the command exits
1 otherwise. `Soak` runs in CPython (cpu) and in the page (webgl); the driver runs in the host.
"""
import gc
import json
import numbers
import sys
import time

import pytfweb as tf

# bounds on growth after the warm-up: (fraction of the warm-up value, absolute slack)
BOUNDS = {"textures": (0.10, 4), "js_heap": (0.10, 2 << 20), "py_objects": (0.02, 2000)}


class Soak:
    """The training steps and the figures; runs wherever pytfweb runs."""

    def __init__(self):
        self.tf = tf
        self.iteration = 0

        def det(shape, phase, scale=0.5):
            import math
            n = 1
            for s in shape:
                n *= s
            return tf.tensor([scale * math.sin(0.37 * i + phase) for i in range(n)], shape)

        def labels(n, classes):
            return tf.tidy(lambda: tf.one_hot(tf.tensor1d([i % classes for i in range(n)], "int32"), classes))

        self.convnet = tf.sequential(layers=[
            tf.layers.conv2d(input_shape=[8, 8, 1], kernel_size=3, filters=4, activation="relu"),
            tf.layers.max_pooling2d(pool_size=2),
            tf.layers.flatten(),
            tf.layers.dense(units=3, activation="softmax"),
        ])
        self.convnet.compile(optimizer="sgd", loss="categoricalCrossentropy")
        self.mlp = tf.sequential(layers=[
            tf.layers.dense(input_shape=[10], units=16, activation="relu"),
            tf.layers.dense(units=3, activation="softmax"),
        ])
        self.adam = tf.train.adam(0.01)
        self.mlp.compile(optimizer=self.adam, loss="categoricalCrossentropy", metrics=["accuracy"])
        self.xc, self.yc = det([16, 8, 8, 1], 0.1), labels(16, 3)
        self.xm, self.ym = det([32, 10], 0.7), labels(32, 3)
        self.w = tf.tidy(lambda: tf.variable(det([4, 1], 0.3), name="soak_w"))
        self.b = tf.tidy(lambda: tf.variable(tf.zeros([1]), name="soak_b"))
        self.xl, self.yl = det([32, 4], 1.1), det([32, 1], 2.3)
        self.optimizer = tf.train.rmsprop(0.01)

    def _custom_loss(self):
        tf = self.tf
        return tf.losses.mean_squared_error(self.yl, tf.add(tf.mat_mul(self.xl, self.w), self.b))

    async def steps(self, n):
        """n training steps; returns the last loss (read back, so GPU work is done)."""
        tf = self.tf
        loss = None
        for _ in range(n):
            kind = self.iteration % 3
            if kind == 0:
                h = await self.convnet.fit(self.xc, self.yc, batch_size=8, epochs=1, verbose=0)
                loss = h.history["loss"][-1]
            elif kind == 1:
                h = await self.mlp.fit(self.xm, self.ym, batch_size=16, epochs=1, verbose=0)
                loss = h.history["loss"][-1]
            else:
                cost = tf.tidy(lambda: self.optimizer.minimize(self._custom_loss, return_cost=True,
                                                               var_list=[self.w, self.b]))
                loss = (await cost.data())[0]
                cost.dispose()
            self.iteration += 1
        return float(loss)

    def figures(self):
        gc.collect()   # garbage not yet collected is no leak
        m = self.tf.memory()
        out = {"iteration": self.iteration, "tensors": m.num_tensors, "bytes": m.num_bytes,
               "py_objects": len(gc.get_objects())}
        if getattr(m, "num_textures", None) is not None:
            out.update(textures_in_use=m.num_textures_in_use, textures=m.num_textures,
                       gpu_bytes=m.num_bytes_in_gpu_allocated)
        return out

    def dispose(self):
        self.convnet.dispose()
        self.mlp.dispose()
        self.adam.dispose()         # passed to compile: not the model's to dispose (as in TF.js)
        self.optimizer.dispose()
        self.tf.dispose([self.xc, self.yc, self.xm, self.ym, self.w, self.b, self.xl, self.yl])


def check(baseline, final):
    """The failures (sentences) of final against the warm-up baseline."""
    failures = []
    for key in ("tensors", "bytes"):
        if final[key] != baseline[key]:
            failures.append(f"{key} went from {baseline[key]} after the warm-up to {final[key]}")
    for key, (fraction, slack) in BOUNDS.items():
        if key in baseline and key in final:
            limit = baseline[key] * (1 + fraction) + slack
            if final[key] > limit:
                failures.append(f"{key} grew from {baseline[key]} after the warm-up to {final[key]} "
                                f"(bound {limit:.0f})")
    return failures


def _mb(n):
    return f"{n / 2**20:8.2f}"


def _row(f, elapsed):
    cols = [f"{f['iteration']:>8}", f"{elapsed:8.1f}", f"{f['tensors']:>8}", f"{f['bytes']:>10}"]
    if "textures" in f:
        cols += [f"{f['textures_in_use']:>6}/{f['textures'] - f['textures_in_use']:<6}", _mb(f["gpu_bytes"])]
    if "js_heap" in f:
        cols += [_mb(f["js_heap"]), _mb(f["perf_heap"]), _mb(f["wasm"])]
    cols.append(f"{f['py_objects']:>9}")
    return " ".join(cols) + f"   loss {f['loss']:.4f}"


def _header(webgl):
    cols = [f"{'iter':>8}", f"{'seconds':>8}", f"{'tensors':>8}", f"{'bytes':>10}"]
    if webgl:
        cols += [f"{'tex used/free':>13}", f"{'GPU MB':>8}", f"{'heap MB':>8}", f"{'perf MB':>8}", f"{'wasm MB':>8}"]
    cols.append(f"{'py objs':>9}")
    return " ".join(cols)


def _check_counts(iterations, every):
    # 0 iterations would report a loss never computed; every=0 would step by nothing
    for name, value in (("iterations", iterations), ("every", every)):
        if value is None and name == "every":
            continue
        if isinstance(value, bool) or not isinstance(value, numbers.Integral):
            raise TypeError(f"soak: {name} must be an int, got {type(value).__name__}")
        if value < 1:
            raise ValueError(f"soak: {name} must be a positive integer, got {value}")


def _report_points(iterations, every):
    every = every or max(1, iterations // 10)
    points = list(range(every, iterations, every)) + [iterations]
    return points


def _drive(iterations, every, run_steps, figures, webgl, out):
    """Runs the steps up to each report point, prints each row; returns (baseline, final, failures)."""
    print(f"pytfweb soak: {iterations} iterations (convnet fit / MLP fit / tidy minimize in turn); "
          "the first report is the warm-up baseline", file=out, flush=True)
    print(_header(webgl), file=out, flush=True)
    start, done, rows = time.perf_counter(), 0, []
    for point in _report_points(iterations, every):
        loss = run_steps(point - done)
        done = point
        f = figures()
        f["loss"] = loss
        rows.append(f)
        print(_row(f, time.perf_counter() - start), file=out, flush=True)
    baseline, final = rows[0], rows[-1]
    failures = check(baseline, final) if len(rows) > 1 else []
    print("pytfweb soak: " + json.dumps({"baseline": baseline, "final": final}), file=out, flush=True)
    return baseline, final, failures


def run_cpu(iterations, every=None, out=None):
    import asyncio
    _check_counts(iterations, every)
    out = out or sys.stdout
    tf.set_backend("cpu")
    before = tf.memory().num_tensors
    soak = Soak()
    loop = asyncio.new_event_loop()
    try:
        baseline, final, failures = _drive(iterations, every, lambda n: loop.run_until_complete(soak.steps(n)),
                                           soak.figures, False, out)
    finally:
        soak.dispose()
        loop.close()
    left = tf.memory().num_tensors - before
    if left:
        failures.append(f"{left} tensors left after disposing the models and data")
    return _verdict(failures, out)


def _verdict(failures, out):
    for f in failures:
        print(f"pytfweb soak: FAIL: {f}", file=out, flush=True)
    if not failures:
        print("pytfweb soak: OK: tensors and bytes flat after the warm-up, growth within bounds", file=out, flush=True)
    return 1 if failures else 0


_PAGE_FIGURES = """
async () => {
  const py = pytfweb.pyodide;
  const f = JSON.parse(py.runPython('import json as _j; _j.dumps(_soak.figures())'));
  f.perf_heap = performance.memory ? performance.memory.usedJSHeapSize : 0;
  f.wasm = py._module && py._module.HEAPU8 ? py._module.HEAPU8.length : 0;
  return f;
}
"""


def run_webgl(iterations, every=None, verbose=False, out=None):
    # (not at the top: the page imports this module for Soak, and has no use for the host side)
    from .chromium import Browser
    from .server import Server
    _check_counts(iterations, every)
    out = out or sys.stdout
    with Server(verbose=verbose) as server, Browser() as browser:
        page, _ = browser.open(server.url, backend="webgl", verbose=verbose)
        cdp = page.context.new_cdp_session(page)
        py = "(code) => pytfweb.pyodide.runPythonAsync(code)"
        page.evaluate(py, "import pytfweb as tf\nfrom pytfweb.host.soak import Soak\n"
                          "_soak_before = tf.memory().num_tensors\n_soak = Soak()")

        def run_steps(n):
            return float(page.evaluate(py, f"await _soak.steps({int(n)})"))

        def figures():
            f = page.evaluate(_PAGE_FIGURES)
            cdp.send("HeapProfiler.collectGarbage")
            f["js_heap"] = cdp.send("Runtime.getHeapUsage")["usedSize"]
            return f

        baseline, final, failures = _drive(iterations, every, run_steps, figures, True, out)
        left = page.evaluate(py, "_soak.dispose()\ntf.memory().num_tensors - _soak_before")
        if left:
            failures.append(f"{left} tensors left after disposing the models and data")
    return _verdict(failures, out)
