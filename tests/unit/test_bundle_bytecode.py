"""The page's bundle with bytecode compiled by Pyodide's Python (host/bundle.py): cached by the content
hash of its inputs, and source-only, with a warning, where node cannot compile it."""
import gzip
import io
import warnings
import zipfile

import pytest

from pytfweb.host import bundle


@pytest.fixture
def package(tmp_path, monkeypatch):
    monkeypatch.setenv("PYTFWEB_BUILD_DIR", str(tmp_path / "build"))
    monkeypatch.setattr(bundle, "_memo", {})
    monkeypatch.setattr(bundle, "_failed", {})
    pkg = tmp_path / "pytfweb"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("X = 1\n")
    (pkg / "sub" / "mod.py").write_text("def f():\n    return 2\n")
    (pkg / "sub" / "shader.glsl").write_text("// glsl\n")
    return pkg


def _names(data):
    return sorted(zipfile.ZipFile(io.BytesIO(data)).namelist())


def _no_node(monkeypatch):
    monkeypatch.setattr(bundle, "_memo", {})
    monkeypatch.setattr(bundle, "_failed", {})
    monkeypatch.setattr(bundle.shutil, "which", lambda name: None)


def test_the_compiled_bundle_is_cached_by_content(package, tmp_path, monkeypatch):
    first = bundle.build_bundle(package_dir=package)
    names = _names(first)
    assert "pytfweb/sub/mod.py" in names and "pytfweb/sub/shader.glsl" in names
    # beside each source, where zipimport looks (the page imports from the zip, nothing unpacked)
    assert [n for n in names if n.endswith(".pyc")] == ["pytfweb/__init__.pyc", "pytfweb/sub/mod.pyc"]
    # every member stored (an import inflates nothing in the page's wasm); the download is gzipped whole
    kinds = {i.compress_type for i in zipfile.ZipFile(io.BytesIO(first)).infolist()}
    assert kinds == {zipfile.ZIP_STORED}
    assert gzip.decompress(bundle.build_download(package_dir=package)) == first
    assert len(list((tmp_path / "build" / "bundle").glob("pytfweb-*.zip"))) == 1
    # the same sources: from the cache, with no compiler at hand
    _no_node(monkeypatch)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert bundle.build_bundle(package_dir=package) == first
    # a changed source is a new key: it would need compiling again
    (package / "sub" / "mod.py").write_text("def f():\n    return 3\n")
    with pytest.warns(RuntimeWarning, match="node not found"):
        bundle.build_bundle(package_dir=package)


def test_without_node_the_bundle_is_source_only_with_a_warning(package, monkeypatch):
    _no_node(monkeypatch)
    with pytest.warns(RuntimeWarning, match=r"without bytecode .* node not found on PATH"):
        data = bundle.build_bundle(package_dir=package)
    assert _names(data) == ["pytfweb/__init__.py", "pytfweb/sub/mod.py", "pytfweb/sub/shader.glsl"]
    assert data == bundle.build_bundle(package_dir=package, bytecode=False)
    # the failure is remembered for these sources: a server asked again does not run the compiler again
    monkeypatch.setattr(bundle, "_compile", lambda *a: pytest.fail("compiled again"))
    with pytest.warns(RuntimeWarning, match="node not found on PATH"):
        assert bundle.build_bundle(package_dir=package) == data
