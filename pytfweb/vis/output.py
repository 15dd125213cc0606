"""Where tf.vis draws: an element of the page (directly, or posted from a worker), a visor
surface, or a file in CPython. `draw(container, chart)` is the only way out."""
import os
import re
from typing import Any

from ..browser.worker import in_worker
from ..core.environment import IS_BROWSER
from . import svg

_OUTPUT_DIR = ["tfvis"]


def set_output_dir(path: Any) -> None:
    """Set the directory where visor surfaces are written in CPython (default "tfvis").

    Args:
        path: the directory.

    Example:
        >>> import tempfile
        >>> tf.vis.set_output_dir(tempfile.mkdtemp())
        >>> tf.vis.set_output_dir("tfvis")   # back to the default
    """
    _OUTPUT_DIR[0] = os.fspath(path)


class Surface:
    """A named panel in a visor tab (tfjs-vis's surface); pass it as a container to tf.vis.render and
    tf.vis.show (in CPython: the file <output dir>/<tab>-<name>.svg).

    Example:
        >>> surface = tf.vis.visor().surface("Loss", tab="Training")
        >>> surface.name, surface.tab
        ('Loss', 'Training')
    """

    def __init__(self, name, tab="Visor"):
        self.name, self.tab = str(name), str(tab or "Visor")

    def __repr__(self):
        return f"Surface(name={self.name!r}, tab={self.tab!r})"


class Visor:
    """The page's visor (tf.vis.visor()): a panel at the right edge holding surfaces in tabs;
    ` (backquote) or its button shows and hides it. In CPython there is no panel: surfaces are files.

    Example:
        >>> v = tf.vis.visor()
        >>> v.close(); v.is_open()
        False
        >>> v.open(); v.is_open()
        True
    """

    def __init__(self):
        self._open = True

    def surface(self, name, tab="Visor"):
        """A surface: a named panel in a tab (in the page, the panel appears when something is drawn in it).

        Args:
            name: the surface's name.
            tab: the tab's name.

        Returns:
            A Surface.
        """
        return Surface(name, tab)

    def _do(self, action):
        if not IS_BROWSER:
            return self._open
        opened = _send({"op": "visor", "action": action})
        if opened is not None:
            self._open = bool(opened)
        return self._open

    def open(self):
        """Show the visor panel."""
        self._open = True
        self._do("open")

    def close(self):
        """Hide the visor panel."""
        self._open = False
        self._do("close")

    def toggle(self):
        """Show the visor panel if hidden, else hide it."""
        self._open = not self._open
        self._do("toggle")

    def is_open(self):
        """Whether the panel is shown (in a worker: as this side last set it).

        Returns:
            A bool.
        """
        return self._do("is_open")


_VISOR = []


def visor() -> "Visor":
    """The visor (one per page, made on first use).

    Returns:
        The Visor.

    Example:
        >>> tf.vis.visor() is tf.vis.visor()
        True
    """
    if not _VISOR:
        _VISOR.append(Visor())
        if IS_BROWSER:
            _send({"op": "visor", "action": "open"})
    return _VISOR[0]


def _target(container):
    if isinstance(container, Surface):
        return {"name": container.name, "tab": container.tab}
    if isinstance(container, dict):
        if "name" not in container:
            raise ValueError(f"tf.vis: a surface dict needs a 'name', got {container!r}")
        return {"name": str(container["name"]), "tab": str(container.get("tab") or "Visor")}
    return container


def _send(msg):
    """msg to web/pytfweb.js's vis(): directly on the page's thread, posted from a worker
    (None comes back there: the page answers nothing)."""
    import js   # the page's JS: only in Pyodide
    from pyodide.ffi import to_js
    if in_worker():
        if "target" in msg and not isinstance(msg["target"], (str, dict)):
            raise TypeError("tf.vis: in a worker the container must be an element id, a CSS selector or a visor "
                            f"surface, got {type(msg['target']).__name__}")
        js.postMessage(to_js(dict(msg, type="vis"), dict_converter=js.Object.fromEntries, create_pyproxies=False))
        return None
    return js.pytfweb._vis(to_js(msg, dict_converter=js.Object.fromEntries, create_pyproxies=False))


def _slug(s):
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", s).strip("_") or "surface"


def file_path(container):
    """CPython: the file a container names."""
    if isinstance(container, (Surface, dict)):
        t = _target(container)
        return os.path.join(_OUTPUT_DIR[0], f"{_slug(t['tab'])}-{_slug(t['name'])}.svg")
    if not isinstance(container, (str, os.PathLike)):
        raise TypeError(f"tf.vis: in CPython the container must be a file path or a visor surface, got "
                        f"{type(container).__name__}")
    path = os.fspath(container)
    root, ext = os.path.splitext(path)
    if not ext:
        return path + ".svg"
    if ext.lower() != ".svg":
        raise ValueError(f"tf.vis: CPython writes SVG files; {path!r} asks for {ext} (give a .svg path)")
    return path


def draw(container, chart):
    """Put a chart (svg.Chart) into the container; returns the file path in CPython, else None."""
    if container is None:
        raise ValueError("tf.vis: argument 'container' must not be None")
    if IS_BROWSER:
        _send({"op": "draw", "target": _target(container), "html": svg.document(chart)})
        return None
    path = file_path(container)
    folder = os.path.dirname(path)
    if folder:
        os.makedirs(folder, exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(svg.document(chart, standalone=True))
    return path
