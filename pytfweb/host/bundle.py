"""The bundle a page loads: a zip of the pytfweb package (.py files, and the .js/.glsl/.wgsl files
that modules read at run time: the shaders are in backends/webgl/shaders/ and backends/webgpu/shaders/),
built fresh from the files on disk. Keep SUFFIXES in step with package-data in pyproject.toml."""
import io
import zipfile

from .paths import PACKAGE_DIR

SUFFIXES = (".py", ".js", ".glsl", ".wgsl")   # files taken from the package directory


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


def build_bundle(package_dir=None):
    """The zip as bytes."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as zf:
        for name, path in bundle_members(package_dir):
            zf.write(path, name)
    return buf.getvalue()
