"""The static site of `pytfweb build-web`, served by a plain static server (python -m http.server,
started here on a free port), used as a person uses it: a page with <script> tags.

One site and one static server for the module; the session's Chromium (conftest); one page per test.
"""
import socket
import subprocess
import sys
import time
import urllib.request

import pytest

from pytfweb.host.browser_config import TIMEOUTS
from pytfweb.host.site import build_web

APP = '''\
import pytfweb as tf
print("backend", tf.get_backend())
x = tf.tensor([1.0, 2.0, 3.0])
print("doubled", await (x * 2).array())
'''

# Script-tag use: output elements, an error shown in the page, a later block still running,
# pytfweb.ready and pytfweb.runPython from JS.
TAGS_PAGE = '''<!doctype html>
<html><head><meta charset="utf-8"><link rel="icon" href="data:,">
<script src="pytfweb.js" data-show-errors></script></head>
<body>
<pre id="first"></pre><pre id="second"></pre><pre id="third"></pre>
<script type="text/python" output="first">
import asyncio
await asyncio.sleep(0.01)
total = tf.sum(tf.tensor([[1, 2], [3, 4]]))
print("sum", await total.array())
</script>
<script type="text/python" output="second">
def broken():
    return 1 / 0
broken()
</script>
<script type="text/python" output="third">
print("after the error, total is still", total.array_sync())
</script>
</body></html>
'''


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    root = tmp_path_factory.mktemp("site")
    app = root.parent / "app_script.py"
    app.write_text(APP)
    build_web(root, app=app)
    (root / "tags.html").write_text(TAGS_PAGE)
    return root


@pytest.fixture(scope="module")
def static_url(site):
    """python -m http.server serving the site: nothing of pytfweb runs on the server side."""
    port = _free_port()
    proc = subprocess.Popen([sys.executable, "-m", "http.server", "--bind", "127.0.0.1", "--directory", str(site),
                             str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}/"
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(url + "pytfweb.js", timeout=1).close()
                break
            except OSError:
                time.sleep(0.05)
        else:
            pytest.fail("python -m http.server did not start")
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@pytest.fixture
def page(browser):
    p = browser.new_page()
    p.console = []
    p.on("console", lambda m: p.console.append((m.type, m.text)))
    yield p
    p.close()


def test_the_site_holds_what_a_page_needs(site):
    for rel in ("index.html", "app.py", "pytfweb.js", "pytfweb.zip", "pyodide/pyodide.js", "pyodide/pyodide.mjs",
                "pyodide/pyodide.asm.wasm", "pyodide/python_stdlib.zip", "pyodide/pyodide-lock.json"):
        assert (site / rel).is_file(), rel
    index = (site / "index.html").read_text()
    assert '<script type="text/python" src="app.py" output="output"></script>' in index
    assert not (site / "bench.html").exists()


def test_index_runs_the_app_from_a_static_server(page, static_url):
    page.goto(static_url)
    page.wait_for_function("document.getElementById('status').textContent !== 'Loading Pyodide and pytfweb\u2026'",
                           timeout=TIMEOUTS["load"])
    assert page.text_content("#status") == "Done."
    out = page.text_content("#output")
    assert "backend webgl" in out
    assert "doubled [2.0, 4.0, 6.0]" in out
    assert ("log", "doubled [2.0, 4.0, 6.0]") in page.console       # print goes to the console too


def test_script_tags_output_errors_and_js_api(page, static_url):
    page.goto(static_url + "tags.html")
    page.evaluate("pytfweb.ready.then(() => 1)")             # waits for load and the three blocks
    assert page.text_content("#first") == "sum 10.0\n"
    assert page.text_content("#third") == "after the error, total is still 10.0\n"
    shown = page.text_content("#second .pytfweb-error")
    assert shown.startswith("Traceback (most recent call last):\n")
    assert 'File "<script 2>", line 3, in broken' in shown and shown.rstrip().endswith("division by zero")
    assert "_pyodide" not in shown                            # Pyodide's own frames are left out
    assert any(kind == "error" and "ZeroDivisionError" in text for kind, text in page.console)
    # JS and Python together: the blocks' namespace, values back as JS values, errors as rejections
    assert page.evaluate("pytfweb.runPython('int(total.array_sync()) * 2')") == 20
    assert page.evaluate("pytfweb.runPython('{\"a\": [1, 2]}')") == {"a": [1, 2]}
    err = page.evaluate("pytfweb.runPython('nope').then(() => 'no error', (e) => e.message)")
    assert err.startswith("Traceback") and "NameError: name 'nope' is not defined" in err
