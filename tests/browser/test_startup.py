"""The page's start: the bundle carries bytecode compiled by Pyodide's own Python (host/bundle.py), which
the page imports from the zip on sys.path without unpacking it or compiling the sources, and tracebacks
still show the sources' lines."""
import gzip
import io
import re
import urllib.request
import zipfile
from pathlib import Path

import pytest

from .conftest import PageError
from .webgpu_gate import no_webgpu

REPO = Path(__file__).resolve().parents[2]


def test_the_page_imports_the_bytecode_from_the_zip_it_did_not_unpack(server, run_py):
    with urllib.request.urlopen(server.url + "pytfweb.zip.gz", timeout=60) as r:
        zf = zipfile.ZipFile(io.BytesIO(gzip.decompress(r.read())))
    page = run_py("import importlib.util, os, site, sys, zipimport\n"
                  "engine = sys.modules['pytfweb.core.engine']\n"
                  "site = site.getsitepackages()[0]\n"
                  "result = {'magic': list(importlib.util.MAGIC_NUMBER), 'version': list(sys.version_info[:2]),\n"
                  "          'file': engine.__file__[len(site):], 'code': engine.op.__code__.co_filename[len(site):],\n"
                  "          'zipimport': isinstance(engine.__loader__, zipimport.zipimporter),\n"
                  "          'unpacked': os.path.exists(os.path.join(site, 'pytfweb'))}")
    assert page["version"] == [3, 14]
    # the .pyc member was imported, through zipimport; nothing was written beside the zip
    assert page == dict(page, file="/pytfweb.zip/pytfweb/core/engine.pyc", zipimport=True, unpacked=False)
    # its code names the source member (what a traceback shows, and linecache reads from the zip)
    assert page["code"] == "/pytfweb.zip/pytfweb/core/engine.py"
    sources = [n for n in zf.namelist() if n.endswith(".py")]
    assert "pytfweb/core/engine.py" in sources
    for name in sources:
        pyc = zf.read(name[:-3] + ".pyc")
        assert list(pyc[:4]) == page["magic"], name
        # flags 0b01: hash-based and unchecked, so the importer neither reads nor hashes the source
        assert int.from_bytes(pyc[4:8], "little") == 1, name


def test_a_traceback_through_bytecode_shows_the_source_file_and_line(run_py):
    with pytest.raises(PageError) as e:
        run_py("tf.tensor([1, 2], shape=[3])")
    frames = re.findall(r'File "([^"]*/pytfweb/[^"]+\.py)", line (\d+), in (\w+)\n    (.+)', e.value.traceback)
    assert frames, e.value.traceback
    path, line, func, code = frames[-1]
    assert (path.split("/pytfweb/", 1)[1], func) == ("ops/creation.py", "tensor")
    # the line the page shows is that line of the file on disk: the source travelled beside the bytecode
    assert (REPO / "pytfweb/ops/creation.py").read_text().splitlines()[int(line) - 1].strip() == code.strip()


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
