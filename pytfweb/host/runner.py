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

from .bundle import build_bundle
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


def startup_timings(browser, url, backend, verbose=False):
    """One fresh page (own context, so nothing is cached in memory): ms since navigation start."""
    context = browser.browser.new_context()
    page = context.new_page()
    wall = time.perf_counter()
    _, timings = browser.open(url, backend=backend, verbose=verbose, page=page)
    timings = dict(timings)
    if backend:
        timings.update(page.evaluate(_FIRST_RESULT_JS))
    timings["host_wall"] = (time.perf_counter() - wall) * 1000
    context.close()
    return timings


def startup(backend="webgl", repeat=3, verbose=False):
    """Print, for fresh pages, the milliseconds from navigation start to: Pyodide ready, bundle
    unpacked, pytfweb imported, backend ready, the first result of an op read back."""
    with Server(verbose=verbose) as server, Browser() as browser:
        rows = [startup_timings(browser, server.url, backend, verbose) for _ in range(repeat)]
    keys = ["pyodide", "bundle", "imported", "backend", "first_result", "host_wall"]
    print(f"pytfweb startup, backend={backend}, ms since navigation start (host_wall: host's goto..result)")
    print("run  " + "  ".join(f"{k:>12}" for k in keys))
    for i, row in enumerate(rows):
        print(f"{i:<4} " + "  ".join(f"{row[k]:12.0f}" if k in row else f"{'-':>12}" for k in keys))
    if rows and all("bundle" in r and "imported" in r for r in rows):
        print(f"import pytfweb (bundle..imported): min {min(r['imported'] - r['bundle'] for r in rows):.0f} ms "
              f"of {len(rows)} runs")
    if rows and "value" in rows[-1]:
        print(f"first result: {rows[-1]['value']}")
    data = build_bundle()
    names = zipfile.ZipFile(io.BytesIO(data)).namelist()
    print(f"bundle: {len(data)} bytes, {sum(n.endswith('.py') for n in names)} sources, "
          f"{sum(n.endswith('.pyc') for n in names)} compiled (.pyc)")
    return 0
