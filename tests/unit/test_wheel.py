"""The wheel as a user gets it: built from the sources, installed into a fresh venv that has numpy and nothing
else (no h5py, no playwright), and used there: `python -m pytfweb build-web`, `pytfweb run --backend cpu`."""
import gzip
import io
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import numpy as np
import pytest

from pytfweb.host import bundle

REPO = Path(__file__).resolve().parents[2]
PACKAGE = REPO / "pytfweb"
PROBE = "pytfweb/backends/webgl/shaders/probe_sub/probe.glsl"


def _package_files(suffixes):
    return sorted(p.relative_to(REPO).as_posix() for p in PACKAGE.rglob("*")
                  if p.is_file() and p.suffix in suffixes and "__pycache__" not in p.parts)


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    """A wheel built from a copy of the sources with one more shader, in a subfolder no package lists."""
    tmp = tmp_path_factory.mktemp("wheel")
    src = tmp / "src"
    src.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(REPO / name, src / name)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for name in ("pytfweb", "web"):
        shutil.copytree(REPO / name, src / name, ignore=ignore, dirs_exist_ok=True)
    (src / PROBE).parent.mkdir(parents=True)
    (src / PROBE).write_text("// probe\n")
    wheels = tmp / "wheels"
    # pip's isolated build fetches setuptools (PyPI, or pip's cache after the first time)
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(wheels), str(src)],
                   check=True, capture_output=True, text=True)
    (whl,) = wheels.glob("pytfweb-*.whl")
    return whl


@pytest.fixture(scope="module")
def venv(wheel, tmp_path_factory):
    """A fresh venv holding the wheel; of the dependencies only numpy (linked from this interpreter's)."""
    tmp = tmp_path_factory.mktemp("venv")
    env = tmp / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(env)], check=True)
    py = env / "bin" / "python"
    subprocess.run([sys.executable, "-m", "pip", "--python", str(py), "install", "--quiet", "--no-deps",
                    "--no-compile", str(wheel)], check=True, capture_output=True, text=True)
    deps = tmp / "deps"
    deps.mkdir()
    numpy_dir = Path(np.__file__).parent
    for name in ("numpy", "numpy.libs"):
        if (numpy_dir.parent / name).exists():
            (deps / name).symlink_to(numpy_dir.parent / name)
    site = subprocess.run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          check=True, capture_output=True, text=True).stdout.strip()
    Path(site, "numpy_only.pth").write_text(f"{deps}\n")
    # cwd: a directory without the checkout's pytfweb (python -m puts cwd first on sys.path), with the
    # checkout's npm packages (Pyodide, the zoo) where an installed pytfweb looks for them
    work = tmp / "work"
    work.mkdir()
    (work / "node_modules").symlink_to(REPO / "node_modules")
    return py, work


def _run(venv, *args, program="python"):
    """program (python, or the pytfweb script) from the venv, in its work directory, with nothing in the
    environment pointing back at this interpreter or the checkout."""
    py, work = venv
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "PYTFWEB_", "VIRTUAL_ENV"))}
    return subprocess.run([str(py.parent / program), *args], cwd=work, env=env, capture_output=True, text=True,
                          timeout=120)


def test_wheel_ships_shaders_web_and_examples(wheel, tmp_path):
    """Every package file the modules read (the shaders in backends/*/shaders/, subfolders too) and web/
    at pytfweb/web/ with its examples; an install finds them as package data."""
    names = set(zipfile.ZipFile(wheel).namelist())
    assert PROBE in names
    shaders = _package_files({".glsl", ".wgsl"})
    assert "pytfweb/backends/webgl/shaders/header.glsl" in shaders
    assert "pytfweb/backends/webgpu/shaders/common.wgsl" in shaders
    missing = [rel for rel in _package_files(set(bundle.SUFFIXES)) if rel not in names]
    assert not missing, f"not in the wheel (a package missing from pyproject's [tool.setuptools] packages?): {missing}"
    assert "pytfweb/__main__.py" in names
    assert {"pytfweb/web/pytfweb.js", "pytfweb/web/index.html", "pytfweb/web/run.html"} <= names
    # the example pages too: build-web from an install puts them in the site
    assert {"pytfweb/web/examples/train.html", "pytfweb/web/examples/train.py", "pytfweb/web/examples/landmarks.html",
            "pytfweb/web/examples/landmarks.py"} <= names
    assert not [n for n in names if "__pycache__" in n or n.endswith(".pyc")]
    metadata = zipfile.ZipFile(wheel).read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
    requires = [line.split(":", 1)[1].strip() for line in metadata.splitlines() if line.startswith("Requires-Dist:")]
    assert [r for r in requires if "extra ==" not in r] == ["numpy"]
    assert any(r.startswith("h5py") and 'extra == "keras"' in r for r in requires)
    assert any(r.startswith("playwright") and 'extra == "browser"' in r for r in requires)


def test_installed_wheel_finds_its_files_and_runs_without_optional_deps(venv):
    code = ("import importlib.util, pytfweb as tf; from pytfweb.host import paths, bundle; "
            "from pytfweb.backends.gpu import shader_source; "
            "print(tf.__file__); print(shader_source.path('header.glsl')); print(paths.web_dir()); "
            f"print({PROBE!r} in dict(bundle.bundle_members())); "
            "print(importlib.util.find_spec('h5py') is None, importlib.util.find_spec('playwright') is None)\n"
            "try:\n    tf.load_keras_model('m.keras')\nexcept ImportError as e:\n    print(e)")
    r = _run(venv, "-c", code)
    assert r.returncode == 0, r.stderr
    out = r.stdout.splitlines()
    package = Path(out[0]).parent
    assert package.parent.name == "site-packages" and REPO not in package.parents
    assert out[1] == str(package / "backends" / "webgl" / "shaders" / "header.glsl")
    assert out[2] == str(package / "web")
    assert out[3] == "True"   # the bundle built from an installed wheel has the shaders too
    assert out[4] == "True True"
    assert "pip install 'pytfweb[keras]'" in out[5]


def test_installed_wheel_builds_the_site(venv):
    r = _run(venv, "-m", "pytfweb", "build-web", "site")
    assert r.returncode == 0, r.stderr
    site = venv[1] / "site"
    for name in ("index.html", "pytfweb.js", "pytfweb.zip.gz", "pyodide/pyodide.js", "examples/train.html",
                 "examples/train.py", "examples/landmarks.html", "repl.html"):
        assert (site / name).is_file(), name
    bundled = zipfile.ZipFile(io.BytesIO(gzip.decompress((site / "pytfweb.zip.gz").read_bytes()))).namelist()
    assert "pytfweb/backends/webgl/shaders/header.glsl" in bundled and "pytfweb/__init__.py" in bundled
    assert not [n for n in bundled if n.startswith("pytfweb/web/")]   # the pages are the site's, not the package's


def test_installed_wheel_runs_the_demo_on_cpu(venv):
    r = _run(venv, "-m", "pytfweb", "--help")
    assert r.returncode == 0 and "build-web" in r.stdout, r.stderr
    r = _run(venv, "run", "--backend", "cpu", str(REPO / "examples" / "demo.py"), program="pytfweb")
    assert r.returncode == 0, r.stderr
    assert "backend: cpu" in r.stdout and "tensors left: 0" in r.stdout, r.stdout
    assert float(r.stdout.split("final accuracy: train ")[1].split(",")[0]) > 0.95, r.stdout
    r = _run(venv, "run", str(REPO / "examples" / "demo.py"), program="pytfweb")   # webgl needs the [browser] extra
    assert r.returncode == 1 and "pip install 'pytfweb[browser]'" in r.stderr, r.stderr


def test_installed_wheel_registers_its_pytest_plugin(venv, tmp_path):
    """pytest finds the plugin by the wheel's pytest11 entry point (no -p), and a marked test runs on
    cpu and on webgl in headless Chromium with one pytest command; pytest, playwright (the [browser]
    extra) and their dependencies are lent from this interpreter."""
    py, work = venv
    import _pytest
    lent = tmp_path / "lent"
    lent.mkdir()
    site_dir = Path(_pytest.__file__).parent.parent
    for name in ("pytest", "_pytest", "pluggy", "iniconfig", "packaging", "pygments", "py.py", "playwright",
                 "greenlet", "typing_extensions.py"):
        for path in [site_dir / name, *site_dir.glob(f"{name}-*.dist-info")]:   # pytest reads their metadata
            if path.exists():
                (lent / path.name).symlink_to(path)
    site = subprocess.run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          check=True, capture_output=True, text=True).stdout.strip()
    pth = Path(site, "pytest_lent.pth")
    pth.write_text(f"{lent}\n")
    project = work / "user_project"
    project.mkdir()
    (project / "test_user.py").write_text(
        "import pytest\nimport pytfweb as tf\nfrom pytfweb.testing import assert_close\n\n\n"
        "@pytest.mark.pytfweb\ndef test_add(tf_backend):\n    assert_close(tf.add(tf.tensor([1.0]), 1), [2.0])\n\n\n"
        "@pytest.mark.pytfweb(backends=['cpu'])\ndef test_off(tf_backend):\n    assert_close(tf.tensor([1.0]), [1.1])\n")
    try:
        r = _run(venv, "-m", "pytest", "-v", "-p", "no:cacheprovider", "--pytfweb-backends=cpu,webgl",
                 str(project / "test_user.py"))
    finally:
        pth.unlink()
    assert r.returncode == 1, r.stdout + r.stderr
    assert "test_user.py::test_add[cpu] PASSED" in r.stdout and "test_user.py::test_off[cpu] FAILED" in r.stdout
    assert "test_user.py::test_add[webgl] PASSED" in r.stdout, r.stdout
    assert "at [0]: actual 1.0, expected 1.1" in r.stdout, r.stdout
