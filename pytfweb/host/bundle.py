"""The bundle a page loads: a zip of the pytfweb package (.py files, and the .js/.glsl/.wgsl files
that modules read at run time: the shaders are in backends/webgl/shaders/ and backends/webgpu/shaders/),
built from the files on disk. Keep SUFFIXES in step with package-data in pyproject.toml.

The page fetches it gzipped (DOWNLOAD, build_download), inflates it with the browser's own
DecompressionStream as it streams in, and does not unpack it: the loader writes the zip as one file,
ARCHIVE in Pyodide's site-packages,
and puts it on sys.path (zipimport, as Pyodide's own standard library is imported). Beside each .py the
zip holds its bytecode (a/b.pyc, the layout zipimport reads), compiled by Pyodide's own Python under node
(compile_pyc.js), hash-based and unchecked: an import reads the .pyc member only, never the source, and
a traceback's lines come from the source member (zipimporter.get_source, through linecache). (Imports
from files are faster than zipimport's, but writing the zip's ~600 members into the page's file system
took longer than that saves, even inflated by the browser while Pyodide started.) Modules
read their data files through the zip too (core/package_data.py). The compiled zip is cached by the
content hash of its inputs (the build directory of a checkout, else the user's cache), so a server or
a test session compiles once per change of the sources. Without node, the zip is source-only (warned):
the page then compiles every module as it imports it."""
import gzip
import hashlib
import io
import json
import os
import shutil
import subprocess
import tempfile
import threading
import warnings
import zipfile
from pathlib import Path

from .paths import PACKAGE_DIR, npm_package_dir

SUFFIXES = (".py", ".js", ".glsl", ".wgsl")   # files taken from the package directory
COMPILER = Path(__file__).with_name("compile_pyc.js")
ARCHIVE = "pytfweb.zip"    # the bundle's file name in the page's site-packages (web/pytfweb.js: the same)
DOWNLOAD = "pytfweb.zip.gz"   # its compressed download, as served and in a build-web site
_KEEP = 6                  # compiled bundles kept in the cache directory (the newest)
_LAYOUT = b"all stored"    # in the cache key: a cached zip of another layout is not taken
_lock = threading.Lock()   # one compile at a time (the server answers requests on threads)
_memo = {}                 # content hash -> zip bytes, for this process
_gzipped = {}              # zip hash -> its download's bytes, for this process
_failed = {}               # content hash -> why it could not be compiled (a server does not retry per request)


class BytecodeUnavailable(RuntimeError):
    """The bytecode could not be compiled (no node, no Pyodide, the compile failed)."""


def bundle_members(package_dir=None):
    """(archive name, path) pairs, sorted: pytfweb/**/*.{py,js,glsl,wgsl}."""
    package_dir = package_dir or PACKAGE_DIR
    members = {}
    for path in package_dir.rglob("*"):
        rel = path.relative_to(package_dir)
        # an installed wheel holds the web pages at pytfweb/web/: they are served, not imported
        if path.is_file() and path.suffix in SUFFIXES and "__pycache__" not in rel.parts and rel.parts[0] != "web":
            members[f"pytfweb/{rel.as_posix()}"] = path
    return sorted(members.items())


def cache_dir():
    """PYTFWEB_BUILD_DIR/bundle, else a checkout's build/bundle, else ~/.cache/pytfweb/bundle."""
    if os.environ.get("PYTFWEB_BUILD_DIR"):
        return Path(os.environ["PYTFWEB_BUILD_DIR"]) / "bundle"
    if (PACKAGE_DIR.parent / "pyproject.toml").is_file():
        return PACKAGE_DIR.parent / "build" / "bundle"
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "pytfweb" / "bundle"


def build_bundle(package_dir=None, bytecode=True):
    """The zip as bytes; with bytecode, compiled (cached) when node and Pyodide are there, else source only
    with a RuntimeWarning saying why."""
    contents = [(name, path.read_bytes()) for name, path in bundle_members(package_dir)]
    if not bytecode:
        return _zip(contents)
    try:
        return _compiled_bundle(contents)
    except BytecodeUnavailable as exc:
        warnings.warn(f"pytfweb bundle without bytecode (the page compiles every module as it imports it, "
                      f"a slower start): {exc}", RuntimeWarning, stacklevel=2)
        return _zip(contents)


def _zip(contents):
    """Every member stored: an import reads its .pyc (1.7 MB for a bare `import pytfweb` with webgl),
    and zipimport would inflate a deflated one in the page's wasm zlib, which made `import pytfweb`
    about a third slower there (A/B in one page). The download is compressed instead, whole
    (build_download): the browser inflates it natively while it arrives."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_STORED) as zf:
        for name, data in contents:
            # a fixed date: the same inputs give the same bytes (a cached copy can be compared)
            zf.writestr(zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0)), data)
    return buf.getvalue()


def build_download(package_dir=None, bytecode=True):
    """What a page fetches, DOWNLOAD: build_bundle's zip gzipped (2.5 MB where the zip is 7 MB; the
    loader inflates it with the browser's DecompressionStream as it streams in)."""
    data = build_bundle(package_dir, bytecode)
    key = hashlib.sha256(data).digest()
    with _lock:
        if key not in _gzipped:
            _gzipped.clear()
            _gzipped[key] = gzip.compress(data, compresslevel=9, mtime=0)
        return _gzipped[key]


def _pyodide():
    d = npm_package_dir("pyodide", "PYTFWEB_PYODIDE_DIR")
    if d is None or not (d / "pyodide.js").is_file():
        raise BytecodeUnavailable("Pyodide's npm package not found (run `npm ci` in the checkout)")
    return d


def _key(contents, pyodide_dir):
    h = hashlib.sha256()
    h.update(json.loads((pyodide_dir / "package.json").read_text())["version"].encode())
    h.update(COMPILER.read_bytes())
    h.update(_LAYOUT)
    for name, data in contents:
        h.update(name.encode() + b"\0" + len(data).to_bytes(8, "little") + data)
    return h.hexdigest()[:32]


def _compiled_bundle(contents):
    pyodide_dir = _pyodide()
    key = _key(contents, pyodide_dir)
    with _lock:
        if key in _memo:
            return _memo[key]
        if key in _failed:
            raise BytecodeUnavailable(_failed[key])
        cached = cache_dir() / f"pytfweb-{key}.zip"
        try:
            data = cached.read_bytes()
        except OSError:
            try:
                pyc = _compile(contents, pyodide_dir)
            except BytecodeUnavailable as exc:
                _failed[key] = str(exc)
                raise
            data = _zip(contents + pyc)
            _store(cached, data)
        _memo.clear()   # one bundle per process is enough: the previous sources are gone
        _memo[key] = data
        return data


def _compile(contents, pyodide_dir):
    """[(archive name of a .pyc, bytes)] for every .py in contents (a/b.py -> a/b.pyc)."""
    node = shutil.which("node")
    if node is None:
        raise BytecodeUnavailable("node not found on PATH (it runs Pyodide's Python to compile)")
    with tempfile.TemporaryDirectory(prefix="pytfweb-pyc-") as tmp:
        src, out = Path(tmp, "src"), Path(tmp, "out")
        for name, data in contents:
            if name.endswith(".py"):
                (src / name).parent.mkdir(parents=True, exist_ok=True)
                (src / name).write_bytes(data)
        try:
            proc = subprocess.run([node, str(COMPILER), str(pyodide_dir), str(src), str(out), ARCHIVE],
                                  capture_output=True, text=True, timeout=600)
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise BytecodeUnavailable(f"running node failed: {exc}") from None
        if proc.returncode != 0:
            raise BytecodeUnavailable(f"compiling with Pyodide failed: {proc.stderr.strip()[-2000:]}")
        return sorted((p.relative_to(out).as_posix(), p.read_bytes()) for p in out.rglob("*.pyc"))


def _store(path, data):
    """Write atomically (other processes may read the cache at once), then keep only the newest few."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".part")
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
        old = sorted(path.parent.glob("pytfweb-*.zip"), key=lambda p: p.stat().st_mtime, reverse=True)[_KEEP:]
        for p in old:
            p.unlink(missing_ok=True)
    except OSError as exc:
        warnings.warn(f"pytfweb: could not cache the compiled bundle at {path}: {exc}", RuntimeWarning, stacklevel=3)
