"""The plumbing: wheel and bundle contents, the server, `pytfweb run`, the page harness, the demo page."""
import gzip
import io
import subprocess
import sys
import textwrap
import time
import urllib.error
import urllib.request
import zipfile
from pathlib import Path

import numpy as np
import pytest

from pytfweb.host import browser_config, bundle

from .conftest import PageError

REPO = Path(__file__).resolve().parents[2]
PACKAGE = REPO / "pytfweb"
SOURCES = (".py", ".js", ".glsl", ".wgsl")


def _package_files(suffixes):
    return sorted(p.relative_to(REPO).as_posix() for p in PACKAGE.rglob("*")
                  if p.is_file() and p.suffix in suffixes and "__pycache__" not in p.parts)


# --- packaging (the wheel: tests/unit/test_wheel.py) -------------------------------------------

def test_bundle_members_take_subfolders(tmp_path):
    shaders = tmp_path / "pytfweb" / "backends" / "webgl" / "shaders"
    (shaders / "a" / "b").mkdir(parents=True)
    (shaders / "a" / "b" / "deep.glsl").write_text("// deep\n")
    (shaders / "c.wgsl").write_text("// wgsl\n")
    (shaders / "notes.txt").write_text("not a shader\n")
    names = [n for n, _ in bundle.bundle_members(package_dir=tmp_path / "pytfweb")]
    assert {"pytfweb/backends/webgl/shaders/a/b/deep.glsl", "pytfweb/backends/webgl/shaders/c.wgsl"} <= set(names)
    assert not any(n.endswith("notes.txt") for n in names)


def test_playwright_config_is_the_package_config():
    import runpy
    cfg = runpy.run_path(str(REPO / "playwright.config.py"))
    assert cfg["LAUNCH_ARGS"] is browser_config.LAUNCH_ARGS
    assert cfg["launch_options"]()["executable_path"] == browser_config.executable_path()


# --- the server ----------------------------------------------------------------------------

def _get(url):
    with urllib.request.urlopen(url, timeout=30) as r:
        return r.status, r.headers.get("Content-Type"), r.read()


def test_server_routes_and_bundle(server):
    status, ctype, body = _get(server.url + "pytfweb.zip.gz")
    assert (status, ctype) == (200, "application/gzip")
    zf = zipfile.ZipFile(io.BytesIO(gzip.decompress(body)))
    # stored: zipimport reads a member without inflating it in the page's wasm (the download is the gzip)
    assert {i.compress_type for i in zf.infolist()} == {zipfile.ZIP_STORED}
    names = zf.namelist()
    assert sorted(names) == sorted(set(names))
    want = set(_package_files(set(SOURCES)))
    assert "pytfweb/backends/webgl/shaders/header.glsl" in want and "pytfweb/backends/webgpu/shaders/common.wgsl" in want
    # beside each source its bytecode, where zipimport looks (tests/browser/test_startup.py checks it is the page's)
    pyc = {n for n in names if n.endswith(".pyc")}
    assert {n[:-1] for n in pyc} == {n for n in want if n.endswith(".py")}
    assert set(names) - pyc == want
    assert not [n for n in names if n not in pyc and ("__pycache__" in n or not n.endswith(SOURCES))]

    assert _get(server.url + "pytfweb.js")[0] == 200
    assert b"<script" in _get(server.url)[2]  # / -> index.html
    assert _get(server.url + "pyodide/pyodide.asm.wasm")[1] == "application/wasm"
    for bad, code in (("nothing-here.js", 404), ("pyodide/../../pyproject.toml", 400), ("%2e%2e/pyproject.toml", 400)):
        with pytest.raises(urllib.error.HTTPError) as e:   # a path climbing out of the root is malformed: 400
            _get(server.url + bad)
        assert e.value.code == code


# --- pytfweb run -------------------------------------------------------------------------------

def _pytfweb_cmd():
    exe = Path(sys.executable).parent / "pytfweb"
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "pytfweb.cli"]


def _script(tmp_path, name, body):
    path = tmp_path / name
    path.write_text(textwrap.dedent(body))
    return str(path)


BACKENDS = ["webgl", "cpu"]


@pytest.mark.parametrize("backend", BACKENDS)
def test_run_streams_argv_await_and_exit_code(tmp_path, backend):
    """Output reaches the host as it is written; sys.argv; top-level await; sys.exit(n) -> n."""
    script = _script(tmp_path, "stream.py", """
        import asyncio, sys
        import pytfweb as tf
        print("first", sys.argv[1:])
        await asyncio.sleep(1.5)
        print("backend", tf.get_backend())
        print("to stderr", file=sys.stderr)
        sys.exit(3)
    """)
    start = time.monotonic()
    proc = subprocess.Popen(_pytfweb_cmd() + ["run", "--backend", backend, script, "a b", "--flag"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    lines = []
    for line in proc.stdout:
        lines.append((time.monotonic() - start, line.rstrip("\n")))
    status = proc.wait(timeout=300)
    err = proc.stderr.read()
    assert status == 3, err
    assert [text for _, text in lines] == ["first ['a b', '--flag']", f"backend {backend}"], err
    assert lines[1][0] - lines[0][0] >= 1.0, f"the first line came only with the last: {lines}"
    assert err == "to stderr\n"


@pytest.mark.parametrize("backend", BACKENDS)
def test_run_uncaught_exception_exits_1_with_traceback(tmp_path, backend):
    script = _script(tmp_path, "boom.py", """
        def fail():
            raise ValueError("boom")

        print("before")
        fail()
    """)
    r = subprocess.run(_pytfweb_cmd() + ["run", "--backend", backend, script],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 1
    assert r.stdout == "before\n"
    assert r.stderr.startswith("Traceback (most recent call last):\n"), r.stderr
    assert f'File "{script}", line 6, in <module>' in r.stderr
    assert 'raise ValueError("boom")' in r.stderr  # the source line, though the page has no such file
    assert r.stderr.rstrip().endswith("ValueError: boom")
    assert "pytfweb/host" not in r.stderr  # the runner's own frames are left out


@pytest.mark.parametrize("backend", BACKENDS)
def test_run_normal_end_exits_0(tmp_path, backend):
    script = _script(tmp_path, "ok.py", """
        import pytfweb as tf
        x = tf.tensor([1.0, 2.0, 3.0])
        print(await tf.add(x, x).data() is not None, __name__)
    """)
    r = subprocess.run(_pytfweb_cmd() + ["run", "--backend", backend, script],
                       capture_output=True, text=True, timeout=300)
    assert (r.returncode, r.stdout, r.stderr) == (0, "True __main__\n", "")


def test_run_cpu_syntax_error_and_missing_file(tmp_path):
    script = _script(tmp_path, "bad.py", "print('x'\n")
    r = subprocess.run(_pytfweb_cmd() + ["run", "--backend", "cpu", script], capture_output=True, text=True)
    assert r.returncode == 1 and "SyntaxError" in r.stderr
    r = subprocess.run(_pytfweb_cmd() + ["run", str(tmp_path / "missing.py")], capture_output=True, text=True)
    assert r.returncode == 1 and "missing.py" in r.stderr


# --- the page harness --------------------------------------------------------------------------

def test_page_is_on_webgl(run_py):
    info = run_py("""
import sys
result = {"backend": tf.get_backend(), "platform": sys.platform,
          "renderer": getattr(tf.backend(), "renderer", "n/a")}
""")
    assert info["backend"] == "webgl"
    assert info["platform"] == "emscripten"
    assert info["renderer"]


def test_run_py_values_and_errors(run_py):
    assert run_py("1 + 1") == 2
    assert run_py("import asyncio\nawait asyncio.sleep(0)\nresult = [x, None, (1, 2)]", x=1.5) == [1.5, None, [1, 2]]
    v = run_py("[float('nan'), float('-inf'), -0.0]")
    assert np.isnan(v[0]) and v[1] == -np.inf and np.signbit(v[2])
    t = run_py("tf.tensor([[1, 2], [3, 4]], dtype='int32')")
    assert t.dtype == np.int32 and t.tolist() == [[1, 2], [3, 4]]
    with pytest.raises(PageError) as e:
        run_py("def f():\n    raise KeyError('nope')\nf()")
    assert e.value.type == "KeyError"
    assert "line 2, in f" in e.value.traceback


def test_reset_disposes_leftovers_and_keeps_the_backend(page_harness):
    run = page_harness.run
    run("tf.tensor([1.0, 2.0, 3.0])")  # never disposed by the test
    assert run("tf.memory().num_tensors") == 1
    assert page_harness.reset() == 1
    assert run("tf.memory().num_tensors") == 0
    assert run("tf.get_backend()") == "webgl"


def test_compare_with_cpu(compare_with_cpu):
    x = np.array([[1.5, -2.0, np.nan], [np.inf, 0.0, -np.inf]], dtype=np.float32)
    y = np.array([1.0, 2.0, 3.0], dtype=np.float32)
    compare_with_cpu("lambda x, y: tf.add(x, y)", [x, y])


# --- the demo page -------------------------------------------------------------------------

def test_index_page_runs_its_python(server, browser):
    page = browser.new_page()
    try:
        errors = []
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.goto(server.url + "index.html")
        page.wait_for_function("document.getElementById('status').textContent.startsWith('Done')",
                               timeout=browser_config.TIMEOUTS["load"])
        assert page.text_content("#backend") == "webgl"
        assert page.text_content("#result") == "[22.0, 44.0, 66.0, 88.0]"
        assert page.text_content("#mean") == "1.25"
        assert page.text_content("#renderer").strip() not in ("", "–")
        assert not errors
    finally:
        page.close()
