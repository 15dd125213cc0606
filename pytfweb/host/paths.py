"""Where things are, in a source checkout and in an installed wheel.

A wheel holds the web pages at pytfweb/web/; a checkout keeps them at the top level, beside the
package. The shaders are package files (backends/webgl/shaders/, backends/webgpu/shaders/) in both.
"""
import os
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent.parent


def _beside_or_inside(name):
    inside = PACKAGE_DIR / name
    return inside if inside.is_dir() else PACKAGE_DIR.parent / name


def web_dir():
    """pytfweb.js, index.html and the other pages."""
    return _beside_or_inside("web")


def node_modules_dirs():
    """Where npm packages may be: the checkout's node_modules, then the working directory's."""
    seen = []
    for base in (PACKAGE_DIR.parent, Path.cwd()):
        d = (base / "node_modules").resolve()
        if d not in seen:
            seen.append(d)
    return seen


def npm_package_dir(name, env_var=None):
    """The directory of npm package `name`, or None. env_var, when set in the environment, wins."""
    if env_var and os.environ.get(env_var):
        return Path(os.environ[env_var]).resolve()
    for nm in node_modules_dirs():
        if (nm / name / "package.json").is_file():
            return nm / name
    return None


def pyodide_dir():
    """The npm `pyodide` package's files (PYTFWEB_PYODIDE_DIR overrides)."""
    d = npm_package_dir("pyodide", "PYTFWEB_PYODIDE_DIR")
    if d is None or not (d / "pyodide.js").is_file():
        where = d or " or ".join(str(nm / "pyodide") for nm in node_modules_dirs())
        raise FileNotFoundError(f"Pyodide not found at {where}: run `npm ci` in the checkout (make does it) "
                                f"or set PYTFWEB_PYODIDE_DIR to a directory holding pyodide.js")
    return d
