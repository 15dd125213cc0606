"""The page's start: the bundle carries bytecode compiled by Pyodide's own Python (host/bundle.py), which
the page imports without compiling the sources, and tracebacks still show the sources' lines."""
import io
import re
import urllib.request
import zipfile
from pathlib import Path

import pytest

from .conftest import PageError

REPO = Path(__file__).resolve().parents[2]


def test_the_bundle_holds_the_pages_bytecode_beside_each_source(server, run_py):
    with urllib.request.urlopen(server.url + "pytfweb.zip", timeout=60) as r:
        zf = zipfile.ZipFile(io.BytesIO(r.read()))
    page = run_py("import importlib.util, os, sys\n"
                  "engine = sys.modules['pytfweb.core.engine']\n"
                  "result = {'magic': list(importlib.util.MAGIC_NUMBER), 'tag': sys.implementation.cache_tag,\n"
                  "          'version': list(sys.version_info[:2]),\n"
                  "          'cached': os.path.exists(importlib.util.cache_from_source(engine.__file__))}")
    assert page["version"] == [3, 14] and page["cached"]
    sources = [n for n in zf.namelist() if n.endswith(".py")]
    assert "pytfweb/core/engine.py" in sources
    for name in sources:
        folder, _, stem = name.rpartition("/")
        pyc = zf.read(f"{folder}/__pycache__/{stem[:-3]}.{page['tag']}.pyc")
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
