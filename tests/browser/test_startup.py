"""The page's start: the bundle carries bytecode compiled by Pyodide's own Python (host/bundle.py). The
loader inflates the bundle in JavaScript while Pyodide starts and writes its files into site-packages,
each .pyc into __pycache__, which the page imports without compiling the sources; without
DecompressionStream the zip itself goes on sys.path (zipimport). Either way tracebacks show the
sources' lines."""
import io
import json
import re
import urllib.request
import zipfile
from pathlib import Path

import pytest

from .conftest import PageError
from .webgpu_gate import no_webgpu

REPO = Path(__file__).resolve().parents[2]

# Where engine's module came from, in a page; and a traceback through pytfweb's code.
_WHERE = """
import importlib.util, json, os, site, sys, traceback, zipimport
import pytfweb as tf
engine = sys.modules['pytfweb.core.engine']
site = site.getsitepackages()[0]
cached = engine.__spec__.cached
try:
    tf.tensor([1, 2], shape=[3])
except ValueError as exc:
    shown = "".join(traceback.format_exception(exc))
json.dumps({'magic': list(importlib.util.MAGIC_NUMBER), 'version': list(sys.version_info[:2]),
            'file': engine.__file__[len(site):], 'code': engine.op.__code__.co_filename[len(site):],
            'zipimport': isinstance(engine.__loader__, zipimport.zipimporter),
            'cached': cached[len(site):] if cached else None,
            'cached_flags': int.from_bytes(open(cached, 'rb').read()[4:8], 'little') if cached and os.path.exists(cached) else None,
            'traceback': shown})
"""


def _frames_show_the_source(traceback):
    frames = re.findall(r'File "([^"]*/pytfweb/[^"]+\.py)", line (\d+), in (\w+)\n    (.+)', traceback)
    assert frames, traceback
    path, line, func, code = frames[-1]
    assert (path.split("/pytfweb/", 1)[1], func) == ("ops/creation.py", "tensor")
    # the line the page shows is that line of the file on disk: the source travelled beside the bytecode
    assert (REPO / "pytfweb/ops/creation.py").read_text().splitlines()[int(line) - 1].strip() == code.strip()
    return path


def test_the_page_imports_the_bytecode_inflated_while_pyodide_started(server, page_harness):
    with urllib.request.urlopen(server.url + "pytfweb.zip", timeout=60) as r:
        zf = zipfile.ZipFile(io.BytesIO(r.read()))
    page = json.loads(page_harness.page.evaluate("(code) => pytfweb.pyodide.runPython(code)", _WHERE))
    assert page["version"] == [3, 14]
    assert "inflated" in page_harness.page.evaluate("() => pytfweb.timings")   # by the browser, not unpacked in Python
    # written into site-packages, the bytecode in __pycache__ as the bundle has it (an importer that had
    # compiled the source would have written a timestamp-based .pyc there: flags 0)
    assert page["file"] == "/pytfweb/core/engine.py" and not page["zipimport"]
    assert page["cached"] == f"/pytfweb/core/__pycache__/engine.cpython-{page['version'][0]}{page['version'][1]}.pyc"
    assert page["cached_flags"] == 1
    assert page["code"] == "/pytfweb/core/engine.py"
    sources = [n for n in zf.namelist() if n.endswith(".py")]
    assert "pytfweb/core/engine.py" in sources
    for name in sources:
        pyc = zf.read(name[:-3] + ".pyc")
        assert list(pyc[:4]) == page["magic"], name
        # flags 0b01: hash-based and unchecked, so the importer neither reads nor hashes the source
        assert int.from_bytes(pyc[4:8], "little") == 1, name
    assert _frames_show_the_source(page["traceback"]).endswith("/site-packages/pytfweb/ops/creation.py")


def test_without_decompression_streams_the_page_imports_from_the_zip(server, browser):
    """The fallback: the zip on sys.path, its a/b.pyc members imported by zipimport, nothing unpacked;
    a traceback names the source member and shows its line (linecache reads it from the zip)."""
    context = browser.browser.new_context()
    try:
        context.add_init_script("delete globalThis.DecompressionStream")
        page, timings = browser.open(server.url, backend="webgl", page=context.new_page())
        assert "inflated" not in timings
        where = json.loads(page.evaluate("(code) => pytfweb.pyodide.runPython(code)", _WHERE))
        assert where == dict(where, file="/pytfweb.zip/pytfweb/core/engine.pyc", zipimport=True)
        assert where["code"] == "/pytfweb.zip/pytfweb/core/engine.py"
        assert not page.evaluate("() => pytfweb.pyodide.runPython("
                                 "'import os, site; os.path.exists(os.path.join(site.getsitepackages()[0], \"pytfweb\"))')")
        assert _frames_show_the_source(where["traceback"]).endswith("/site-packages/pytfweb.zip/pytfweb/ops/creation.py")
    finally:
        context.close()


def test_a_traceback_through_bytecode_shows_the_source_file_and_line(run_py):
    with pytest.raises(PageError) as e:
        run_py("tf.tensor([1, 2], shape=[3])")
    _frames_show_the_source(e.value.traceback)


def test_the_webgl_context_made_while_pyodide_starts_is_the_backends(server, browser):
    """The loader makes the WebGL2 context before Pyodide is ready; the webgl backend takes it."""
    context = browser.browser.new_context()
    try:
        page, timings = browser.open(server.url, backend="webgl", page=context.new_page())
        assert timings["gl"] < timings["pyodide"]
        taken = page.evaluate("() => pytfweb.pyodide.runPython("
                              "'import js, pytfweb as tf\\n"
                              "(tf.get_backend(), not hasattr(js.globalThis, \"pytfwebEarlyCanvas\"),"
                              " tf.add(tf.tensor([1.0]), 1).data_sync()[0])').toJs()")
        assert taken == ["webgl", True, 2.0]
    finally:
        context.close()


def test_the_webgpu_device_requested_while_pyodide_starts_is_the_backends(server, browser):
    """With backend webgpu the loader requests the adapter and device before Pyodide is ready; the
    webgpu backend takes that device instead of asking again."""
    context = browser.browser.new_context()
    try:
        page = context.new_page()
        page.goto(server.url + "run.html")
        if not page.evaluate("async () => !!(navigator.gpu && await navigator.gpu.requestAdapter())"):
            no_webgpu("no WebGPU adapter in this browser")
        page, timings = browser.open(server.url, backend="webgpu", page=page)
        assert timings["gpu"] < timings["pyodide"]
        taken = page.evaluate("""async () => {
          const py = pytfweb.pyodide;
          // the loader labels its device: the backend's device is that one
          return (await py.runPythonAsync(
            'import js, pytfweb as tf\\n' +
            'x = tf.add(tf.tensor([1.0]), 1)\\n' +
            'v = (await x.data())[0]\\nx.dispose()\\n' +
            '(tf.get_backend(), not hasattr(js.globalThis, "pytfwebEarlyGPU"), v,' +
            ' tf.backend().device.device.label == "pytfweb-early")')).toJs();
        }""")
        assert taken == ["webgpu", True, 2.0, True]
    finally:
        context.close()
