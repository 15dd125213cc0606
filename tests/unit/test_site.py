"""`pytfweb build-web`: the static site's files (the browser side is tests/browser/test_web_site.py)."""
import ast
import gzip
import io
import json
import re
import zipfile

import pytest

from pytfweb.cli import main
from pytfweb.host import zoo
from pytfweb.host.paths import web_dir
from pytfweb.host.site import ZOO_ASSETS, ZOO_MODELS, ZOO_PAGES, build_web


def test_build_web_writes_a_self_contained_site(tmp_path):
    app = tmp_path / "my_app.py"
    app.write_text("print('hi')\n")
    out = tmp_path / "site"
    files = build_web(out, app=app, worker=True)
    for rel in ("index.html", "app.py", "pytfweb.js", "pytfweb.zip.gz", "repl.html", "examples/train.html",
                "examples/train.py", "pyodide/pyodide.js", "pyodide/pyodide.mjs", "pyodide/pyodide.asm.mjs",
                "pyodide/pyodide.asm.wasm", "pyodide/python_stdlib.zip", "pyodide/pyodide-lock.json"):
        assert rel in files and (out / rel).is_file(), rel
    assert "bench.html" not in files
    index = (out / "index.html").read_text()
    assert '<script type="text/python" src="app.py" output="output" worker></script>' in index
    assert "pytfweb:worker-done" in index and "<title>my_app.py</title>" in index
    names = zipfile.ZipFile(io.BytesIO(gzip.decompress((out / "pytfweb.zip.gz").read_bytes()))).namelist()
    assert "pytfweb/vis/svg.py" in names and "pytfweb/browser/worker.py" in names
    assert "pytfweb/backends/webgl/shaders/header.glsl" in names and "pytfweb/backends/webgpu/shaders/common.wgsl" in names


def test_build_web_command(tmp_path, capsys):
    assert main(["build-web", str(tmp_path / "a")]) == 0
    assert "python -m http.server --directory" in capsys.readouterr().out
    index = (tmp_path / "a" / "index.html").read_text()
    assert '<script type="text/python">' in index          # without --app: the demo page
    assert main(["build-web", str(tmp_path / "b"), "--app", str(tmp_path / "missing.py")]) == 1
    assert "no such file" in capsys.readouterr().err


def _fake_zoo(root, shards=("a.bin",)):
    """A zoo package with the demo's models (shards named in their model.json) and photos."""
    (root / "models").mkdir(parents=True)
    (root / "assets").mkdir()
    for name in ZOO_MODELS:
        paths = [f"{name}-{s}" for s in shards]
        (root / "models" / f"{name}.json").write_text(json.dumps({"weightsManifest": [{"paths": paths}]}))
        for p in paths:
            (root / "models" / p).write_bytes(b"weights")
    (root / "models" / "unused.json").write_text("{}")
    for asset in ZOO_ASSETS:
        (root / "assets" / asset).write_bytes(b"jpeg")
    return root


def test_build_web_copies_what_the_landmarks_demo_needs_from_the_zoo(tmp_path):
    package = _fake_zoo(tmp_path / "zoo", shards=("1.bin", "2.bin"))
    files = build_web(tmp_path / "site", zoo_dir=package)
    zoo_files = sorted(f for f in files if f.startswith("zoo/"))
    assert zoo_files == sorted([f"zoo/models/{m}{s}" for m in ZOO_MODELS for s in (".json", "-1.bin", "-2.bin")]
                               + [f"zoo/assets/{a}" for a in ZOO_ASSETS])
    assert (tmp_path / "site" / "zoo/models/facemesh-2.bin").read_bytes() == b"weights"
    for page in ZOO_PAGES:
        assert page in files
    assert 'href="examples/landmarks.html"' in (tmp_path / "site" / "index.html").read_text()


def test_build_web_leaves_the_demo_out_without_the_zoo(tmp_path, monkeypatch, capsys):
    package = _fake_zoo(tmp_path / "zoo")
    (package / "models" / "facemesh-a.bin").unlink()         # a shard missing: the page could not work
    files = build_web(tmp_path / "a", zoo_dir=package)
    assert not any(f in files for f in ZOO_PAGES) and not any(f.startswith("zoo/") for f in files)
    assert "examples/train.html" in files
    monkeypatch.setenv("PYTFWEB_ZOO_DIR", str(tmp_path / "nowhere"))
    assert main(["build-web", str(tmp_path / "b")]) == 0
    assert "left out examples/landmarks.html, examples/landmarks.py: the model zoo" in capsys.readouterr().err


def test_build_web_refuses_a_shard_path_leading_out_of_the_site(tmp_path):
    package = _fake_zoo(tmp_path / "zoo")
    (package / "models" / "facemesh.json").write_text(json.dumps({"weightsManifest": [{"paths": ["../../x.bin"]}]}))
    with pytest.raises(ValueError, match=r"weight shard '\.\./\.\./x\.bin' is not a file name"):
        build_web(tmp_path / "site", zoo_dir=package)
    assert not (tmp_path / "x.bin").exists()


def test_the_demo_reads_only_zoo_files_the_site_copies():
    """What web/examples/landmarks.py loads (models/<name>.json, its PHOTOS' files) is what
    build-web copies: a photo added there and not in ZOO_ASSETS would be missing from every site."""
    source = (web_dir() / "examples" / "landmarks.py").read_text()
    tree = ast.parse(source)
    photos = next(node.value for node in ast.walk(tree) if isinstance(node, ast.Assign)
                  and getattr(node.targets[0], "id", None) == "PHOTOS")
    files = {entry[0] for entry in ast.literal_eval(photos).values()}
    assert files == set(ZOO_ASSETS)
    assert set(re.findall(r'"models/([\w-]+)\.json"', source)) == set(ZOO_MODELS)
    for name in ZOO_MODELS:
        assert name in zoo.BY_NAME
