"""`pytfweb build-web`: the static site's files (the browser side is tests/browser/test_web_site.py)."""
import zipfile

from pytfweb.cli import main
from pytfweb.host.site import build_web


def test_build_web_writes_a_self_contained_site(tmp_path):
    app = tmp_path / "my_app.py"
    app.write_text("print('hi')\n")
    out = tmp_path / "site"
    files = build_web(out, app=app, worker=True)
    for rel in ("index.html", "app.py", "pytfweb.js", "pytfweb.zip", "repl.html", "examples/train.html",
                "examples/train.py", "pyodide/pyodide.js", "pyodide/pyodide.mjs", "pyodide/pyodide.asm.mjs",
                "pyodide/pyodide.asm.wasm", "pyodide/python_stdlib.zip", "pyodide/pyodide-lock.json"):
        assert rel in files and (out / rel).is_file(), rel
    assert "bench.html" not in files
    index = (out / "index.html").read_text()
    assert '<script type="text/python" src="app.py" output="output" worker></script>' in index
    assert "pytfweb:worker-done" in index and "<title>my_app.py</title>" in index
    names = zipfile.ZipFile(out / "pytfweb.zip").namelist()
    assert "pytfweb/vis/svg.py" in names and "pytfweb/browser/worker.py" in names
    assert "pytfweb/backends/webgl/shaders/header.glsl" in names and "pytfweb/backends/webgpu/shaders/common.wgsl" in names


def test_build_web_command(tmp_path, capsys):
    assert main(["build-web", str(tmp_path / "a")]) == 0
    assert "python -m http.server --directory" in capsys.readouterr().out
    index = (tmp_path / "a" / "index.html").read_text()
    assert '<script type="text/python">' in index          # without --app: the demo page
    assert main(["build-web", str(tmp_path / "b"), "--app", str(tmp_path / "missing.py")]) == 1
    assert "no such file" in capsys.readouterr().err
