"""tf.vis: tfjs-vis's charts for Python, drawn as SVG by hand (vis/svg.py), with no JS library.

    tf.vis.render.linechart("chart", {"values": [{"x": 0, "y": 1}, ...], "series": ["loss"]})
    surface = tf.vis.visor().surface("Training", tab="Model")     # a panel on the page
    await model.fit(xs, ys, epochs=10, callbacks=tf.vis.show.fit_callbacks(surface, ["loss", "acc"]))
    tf.vis.show.model_summary("summary", model)

Where a chart goes (the container):
  - in the page: an element id or CSS selector, a JS element, or a visor surface
    (visor().surface(name, tab=) or a dict {"name", "tab"});
  - in a Web Worker (worker mode): the same, except JS elements; the SVG is posted to the page,
    which puts it into the element (web/pytfweb.js);
  - in CPython: a file path (".svg" is added when it has no suffix); a visor surface writes
    <output dir>/<tab>-<name>.svg (set_output_dir; default "tfvis"). PNG is not written: no
    matplotlib here, and one drawing code serves every place.
"""
from . import render, show  # noqa: F401
from .output import Surface, Visor, set_output_dir, visor  # noqa: F401

__all__ = ["render", "show", "visor", "Visor", "Surface", "set_output_dir"]
