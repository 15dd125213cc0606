"""`pytfweb run`: a script in headless Chromium under Pyodide (webgl) or in this CPython (cpu).

Same contract on both: sys.argv = [script, *args], top-level await allowed, output as it is
written, exit status 0 / n for sys.exit(n) / 1 with the traceback on stderr.
"""
import io
import os
import sys
import time
import zipfile

import pytfweb as tf

from .bundle import build_bundle, build_download
from .chromium import Browser, run_script, write_to_terminal
from .script import line_buffered_stdio, run_path
from .server import Server


def _fail(message):
    sys.stderr.write(f"pytfweb run: {message}\n")
    sys.stderr.flush()
    return 1


def run_cpu(script, args):
    if not os.path.isfile(script):
        return _fail(f"cannot read {script}: no such file")
    sys.path.insert(0, os.path.dirname(os.path.abspath(script)))  # as `python script.py` does
    line_buffered_stdio()
    tf.set_backend("cpu")
    return run_path(script, args)


def run_browser(script, args, backend="webgl", verbose=False, files=None):
    try:
        with open(script, encoding="utf-8") as f:
            source = f.read()
    except OSError as exc:
        return _fail(f"cannot read {script}: {exc.strerror}")
    try:
        from playwright.sync_api import Error as PlaywrightError
    except ImportError:
        return _fail(f"--backend {backend} needs playwright: pip install 'pytfweb[browser]'")
    try:
        routes = {"/files/": files} if files else None
        with Server(routes=routes, verbose=verbose) as server, Browser() as browser:
            try:
                page, _ = browser.open(server.url, backend=backend, write=write_to_terminal, verbose=verbose)
            except PlaywrightError as exc:
                return _fail(f"loading pytfweb in the browser failed:\n{error_message(exc)}")
            return run_script(page, source, script, args)
    except FileNotFoundError as exc:
        return _fail(str(exc))
    except PlaywrightError as exc:
        return _fail(f"browser error: {error_message(exc)}")


def error_message(exc):
    """A Playwright error's text without its call log."""
    text = getattr(exc, "message", None) or str(exc)
    lines = text.split("\nCall log:")[0].rstrip().splitlines()
    while lines and (lines[-1].startswith("    at ") or not lines[-1].strip()):  # the JS stack
        lines.pop()
    return "\n".join(lines)


def run(script, args, backend="webgl", verbose=False, files=None):
    """files: a directory the page can fetch at /files/ (webgl); on cpu the script reads it directly."""
    if backend == "cpu":
        return run_cpu(script, args)
    if files is not None and not os.path.isdir(files):
        return _fail(f"--files {files}: no such directory")
    return run_browser(script, args, backend, verbose, files)


_FIRST_RESULT_JS = """
async () => {
  const py = pytfweb.pyodide;
  const t0 = performance.now();
  const value = await py.runPythonAsync(
    "_x = tf.add(tf.tensor([1.0, 2.0, 3.0]), tf.tensor([10.0, 20.0, 30.0]))\\n" +
    "_v = await _x.data()\\n_x.dispose()\\nlist(_v)");
  const t1 = performance.now();
  return {first_result: t1, first_op: t1 - t0, value: value.toJs ? value.toJs() : value};
}
"""

# A page of the site that loads Pyodide and nothing else: what pytfweb's start is compared with.
PYODIDE_ALONE_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Pyodide alone</title><link rel="icon" href="data:,">
<script src="pyodide/pyodide.js"></script></head><body><script>
window.pyodideAlone = loadPyodide({indexURL: new URL("pyodide/", location.href).href})
  .then(() => ({pyodide: performance.now()}));
</script></body></html>
"""
PYODIDE_ALONE = "pyodide-alone.html"
# A page of the site that runs nothing: it installs the site's service worker for Pyodide alone's
# second visit (see visits()).
BLANK_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>blank</title><link rel="icon" href="data:,"></head><body></body></html>
"""
BLANK = "blank.html"

# The site's files all in the service worker's cache (the loader asks the worker for what the
# visit did not fetch once Python is up: pytfweb.cached); a worker that never gets there is
# reported rather than waited for forever.
_SERVICE_WORKER_READY_JS = """
() => Promise.race([Promise.resolve(pytfweb.cached).then((ok) => !!ok),
                    new Promise((r) => setTimeout(() => r(false), 120000))])
"""
# The same from a page without the loader: register the worker, wait for it to take the page, ask it
# to fetch the whole site.
_SERVICE_WORKER_INSTALL_JS = """
(script) => Promise.race([
  navigator.serviceWorker.register(script).then(() => navigator.serviceWorker.ready).then((r) => new Promise((resolve) => {
    navigator.serviceWorker.addEventListener("message", (e) => {
      if (e.data && e.data.type === "pytfweb:cached") resolve(e.data.ok);
    });
    r.active.postMessage("pytfweb:precache");
  })),
  new Promise((r) => setTimeout(() => r(false), 120000))])
"""


def page_timings(browser, page, url, backend, verbose=False):
    """pytfweb loaded in `page` from url (run.html), then the first op's result read back: ms since
    navigation start of each phase (web/pytfweb.js's timings, first_result)."""
    wall = time.perf_counter()
    _, timings = browser.open(url, backend=backend, verbose=verbose, page=page)
    timings = dict(timings)
    if backend:
        timings.update(page.evaluate(_FIRST_RESULT_JS))
    timings["host_wall"] = (time.perf_counter() - wall) * 1000
    return timings


def startup_timings(browser, url, backend, verbose=False):
    """One fresh page (own context, so nothing is cached in memory): ms since navigation start."""
    context = browser.browser.new_context()
    try:
        return page_timings(browser, context.new_page(), url, backend, verbose)
    finally:
        context.close()


def _pyodide_alone(context, url):
    page = context.new_page()
    try:
        page.goto(url + PYODIDE_ALONE)
        return page.evaluate("() => window.pyodideAlone")["pyodide"]
    finally:
        page.close()


#: How long the first visit's page stays open after its first result (see visits()).
FIRST_VISIT_STAY_MS = 4000


def visits(browser, url, backend, verbose=False):
    """One first and one second visit of the site at url (a build-web site): {"first": timings,
    "second": timings}, each with "alone", when a page of the same site loading only Pyodide was
    ready, in the same state of the cache. First: a new browser context (no cache, no service
    worker). Second: the same context again once the site's service worker holds the whole site,
    in a new page (nothing kept in the page's memory).

    The first visit's page stays open FIRST_VISIT_STAY_MS after its first result: its Pyodide ran
    the wasm from the worker's cache (web/pytfweb.js holds the request until the worker controls
    the page), and V8 hands the compiled code to Chromium's code cache beside that cache entry
    only once no function has been optimized for 2 s; the second visit then loads it instead of
    compiling. (A visitor who leaves sooner compiles on the second visit and loads on the third.)

    Pyodide alone's second visit has a context of its own, whose service worker a blank page
    installed and filled: its page is the first to run the wasm from the worker's cache, so it
    compiles it (and stores the code for a third visit, not timed). Pyodide alone opened after
    pytfweb's second visit in the same context would be a later visit that takes the code another
    page stored."""
    cold = browser.browser.new_context()
    try:
        alone_first = _pyodide_alone(cold, url)
    finally:
        cold.close()
    context = browser.browser.new_context()
    try:
        page = context.new_page()
        first = page_timings(browser, page, url, backend, verbose)
        if not page.evaluate(_SERVICE_WORKER_READY_JS):
            raise RuntimeError("the site's service worker did not cache the site within 2 minutes")
        page.wait_for_timeout(max(0, FIRST_VISIT_STAY_MS - (page.evaluate("performance.now()") - first["first_result"])))
        page.close()
        second = page_timings(browser, context.new_page(), url, backend, verbose)
        second["controlled"] = True
    finally:
        context.close()
    from .site import SERVICE_WORKER

    alone_context = browser.browser.new_context()
    try:
        page = alone_context.new_page()
        page.goto(url + BLANK)
        if not page.evaluate(_SERVICE_WORKER_INSTALL_JS, url + SERVICE_WORKER):
            raise RuntimeError("the site's service worker did not cache the site within 2 minutes")
        page.close()
        alone_second = _pyodide_alone(alone_context, url)
    finally:
        alone_context.close()
    first["alone"], second["alone"] = alone_first, alone_second
    return {"first": first, "second": second}


#: (timing key, what it marks): the phases of a start, in order, as ms since navigation start.
PHASES = (("fetched", "fetch (bundle in)"), ("pyodide", "Pyodide boot"), ("bundle", "bundle on sys.path"),
          ("imported", "import pytfweb"), ("backend", "backend ready"), ("first_result", "first result"))
#: first result / Pyodide alone, at most (issue 30's targets)
TARGETS = {"first": 1.1, "second": 1.05}


class _StaticSite:
    """A plain static server for a build-web site (what a host or CDN does; nothing of pytfweb
    runs on the server side), on a free port of 127.0.0.1, in a thread."""

    def __init__(self, root):
        import functools
        import http.server

        class Quiet(http.server.SimpleHTTPRequestHandler):
            def log_message(self, *args):
                pass

        self.httpd = http.server.ThreadingHTTPServer(
            ("127.0.0.1", 0), functools.partial(Quiet, directory=str(root)))
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/"

    def __enter__(self):
        import threading
        threading.Thread(target=self.httpd.serve_forever, name="pytfweb-static", daemon=True).start()
        return self

    def __exit__(self, *exc):
        self.httpd.shutdown()
        self.httpd.server_close()


def startup(backend="webgl", repeat=3, verbose=False):
    """Print, for a first visit (a new browser context: nothing cached) and a second visit (the
    site's service worker and its cache warm) of a build-web site, when each phase of pytfweb's
    start ended, in ms since navigation start, and its ratio to Pyodide alone (a page of the same
    site loading only Pyodide, in the same state of the cache): the best of `repeat` runs each."""
    import statistics
    import tempfile

    from .site import build_web

    with tempfile.TemporaryDirectory(prefix="pytfweb-startup-") as root:
        build_web(root, api_docs=False)
        for name, text in ((PYODIDE_ALONE, PYODIDE_ALONE_PAGE), (BLANK, BLANK_PAGE)):
            with open(os.path.join(root, name), "w", encoding="utf-8") as f:
                f.write(text)
        with _StaticSite(root) as site, Browser() as browser:
            runs = [visits(browser, site.url, backend, verbose) for _ in range(repeat)]
    if verbose:
        for i, run in enumerate(runs):
            for visit, t in run.items():
                print(f"run {i} {visit}: " + ", ".join(f"{k} {v:.0f}" for k, v in t.items()
                                                        if isinstance(v, (int, float)) and not isinstance(v, bool)))
    keys = [(k, label) for k, label in PHASES if backend or k not in ("backend", "first_result")]
    print(f"pytfweb startup, backend={backend}: a build-web site from a static server, {repeat} runs of a first "
          f"visit (new browser context) and a second (service worker installed); the machine may be shared, so "
          f"minimums of the runs, medians beside them.\n"
          f"  ms: since navigation start. x alone: the phase's end over Pyodide alone's (a page of the site "
          f"loading only Pyodide, opened beside it in the same state of the cache), run by run. +pyodide: ms "
          f"after this page's own Pyodide was ready (what pytfweb adds).")
    head = f"{'phase':<20}"
    for visit in ("first", "second"):
        head += f" | {visit + ' visit ms':>15} {'x alone':>8} {'(median)':>8} {'+pyodide':>8}"
    print(head)

    def ratios(visit, key):
        return [run[visit][key] / run[visit]["alone"] for run in runs if key in run[visit]]
    for key, label in keys + [("alone", "Pyodide alone")]:
        line = f"{label:<20}"
        for visit in ("first", "second"):
            values = [run[visit][key] for run in runs if key in run[visit]]
            if not values:
                line += f" | {'-':>15} {'':>8} {'':>8} {'':>8}"
                continue
            r = ratios(visit, key)
            after = [run[visit][key] - run[visit]["pyodide"] for run in runs
                     if key in run[visit] and key not in ("alone", "fetched")]
            line += (f" | {min(values):15.0f} {min(r):7.2f}x {statistics.median(r):7.2f}x "
                     + (f"{min(after):8.0f}" if after and key != "pyodide" else f"{'':>8}"))
        print(line)
    if backend:
        verdicts = []
        for visit, target in TARGETS.items():
            r = ratios(visit, "first_result")
            # less at the mercy of a shared machine than one run's pair: the fastest Pyodide alone plus
            # the least pytfweb added after its own Pyodide (what it does beside the boot is not in it)
            alone = min(run[visit]["alone"] for run in runs)
            added = min(run[visit]["first_result"] - run[visit]["pyodide"] for run in runs)
            verdicts.append(f"{visit} visit: best run {min(r):.2f}x, median {statistics.median(r):.2f}x, "
                            f"(fastest alone + least added) / fastest alone {(alone + added) / alone:.2f}x "
                            f"(target <= {target}x)")
        print("first result / Pyodide alone:\n  " + "\n  ".join(verdicts))
    imports = [run[v]["imported"] - run[v]["bundle"] for run in runs for v in run]
    print(f"import pytfweb (bundle on sys.path .. imported): min {min(imports):.0f} ms of {len(imports)} pages")
    if backend and "value" in runs[-1]["second"]:
        print(f"first result: {runs[-1]['second']['value']}")
    data = build_bundle()
    names = zipfile.ZipFile(io.BytesIO(data)).namelist()
    print(f"bundle: {len(build_download())} bytes to download, {len(data)} unzipped, {sum(n.endswith('.py') for n in names)} sources, "
          f"{sum(n.endswith('.pyc') for n in names)} compiled (.pyc), imported from the zip (not unpacked)")
    return 0
