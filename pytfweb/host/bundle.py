"""The bundle a page loads: a zip of the pytfweb package (.py files, and the .js/.glsl files that
some modules read at run time) with the shaders (GLSL, and webgpu's WGSL) at pytfweb/shaders/, built fresh from
the files on disk. Keep SUFFIXES in step with package-data in pyproject.toml."""
import io
import zipfile

from .paths import PACKAGE_DIR, shaders_dir

SUFFIXES = (".py", ".js", ".glsl")   # files taken from the package directory
SHADER_SUFFIXES = (".glsl", ".wgsl")   # files taken from the shaders directory (webgpu/*.wgsl too)


def bundle_members(package_dir=None, shaders=None):
    """(archive name, path) pairs, sorted: pytfweb/**/*.{py,js,glsl} and pytfweb/shaders/**/*.{glsl,wgsl}."""
    package_dir = package_dir or PACKAGE_DIR
    shaders = shaders or shaders_dir()
    members = {}
    for path in package_dir.rglob("*"):
        rel = path.relative_to(package_dir)
        if path.is_file() and path.suffix in SUFFIXES and "__pycache__" not in rel.parts:
            members[f"pytfweb/{rel.as_posix()}"] = path
    if shaders.is_dir():
        for path in shaders.rglob("*"):
            if path.is_file() and path.suffix in SHADER_SUFFIXES:
                members[f"pytfweb/shaders/{path.relative_to(shaders).as_posix()}"] = path
    return sorted(members.items())


def build_bundle(package_dir=None, shaders=None):
    """The zip as bytes."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as zf:
        for name, path in bundle_members(package_dir, shaders):
            zf.write(path, name)
    return buf.getvalue()
