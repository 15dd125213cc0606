"""tf.vis.render: tfjs-vis's render.* with its data formats. Options come as a dict in tfjs-vis's
camelCase ({"xLabel": ...}) or as snake_case keywords (x_label=...): width, height, title,
x_label, y_label, zoom_to_fit, y_axis_domain, x_axis_domain, series_colors, max_bins (histogram),
color (barchart), domain (heatmap); color_map is not supported (one white-to-blue scale).

Options are checked before anything is drawn (checked()): sizes are positive finite numbers,
domains two finite numbers, colours CSS colours (svg.is_color: a CSS name, #rgb, #rrggbb,
#rrggbbaa, rgb()/rgba()/hsl()/hsla() of numbers); anything else is a ValueError naming the
function and the option. Text (titles, labels, names, cells) is drawn as text: svg.text escapes it."""
import math
import re
from typing import Any, Optional

from . import svg
from .output import draw

__all__ = ["linechart", "scatterplot", "barchart", "histogram", "heatmap", "confusion_matrix", "table"]


def options(opts=None, **kwargs):
    """tfjs-vis options (camelCase or snake_case) as one snake_case dict."""
    out = {}
    for k, v in list((opts or {}).items()) + list(kwargs.items()):
        out[re.sub(r"(?<!^)([A-Z])", r"_\1", k).lower()] = v
    return out


def _colors(value, where, option):
    """A list of CSS colours (a single colour: a list of one)."""
    items = [value] if isinstance(value, str) else value
    if not isinstance(items, (list, tuple)):
        raise ValueError(f"{where}: option {option!r} must hold CSS colors, got {value!r}")
    for c in items:
        if not svg.is_color(c):
            raise ValueError(f"{where}: option {option!r} must hold CSS colors, got {c!r}")
    return [svg.color(c) for c in items]


def checked(where, opts=None, **kwargs):
    """options() with every option that reaches the SVG checked (errors name `where`, the vis
    function, e.g. "vis.linechart"): width and height positive finite numbers, domains two
    finite numbers, max_bins a whole number, series_colors and color CSS colours."""
    o = options(opts, **kwargs)
    for k in ("width", "height"):
        if o.get(k) is not None:
            o[k] = svg.positive(o[k], where, k)
    for k in ("x_axis_domain", "y_axis_domain", "domain"):
        if o.get(k) is not None:
            o[k] = svg.pair(o[k], where, k)
    if o.get("max_bins") is not None:
        o["max_bins"] = svg.count(o["max_bins"], where, "max_bins")
    if o.get("series_colors") is not None:
        o["series_colors"] = _colors(o["series_colors"], where, "series_colors")
    if o.get("color") is not None:
        if not svg.is_color(o["color"]) and not isinstance(o["color"], (list, tuple)):
            raise ValueError(f"{where}: option 'color' must be a CSS color (or a list of them), got {o['color']!r}")
        o["color"] = _colors(o["color"], where, "color")
    return o


def plain(x):
    """Tensors (anywhere inside) as nested lists; JS proxies as Python values."""
    if hasattr(x, "array_sync") and hasattr(x, "dtype"):
        return x.array_sync()
    if hasattr(x, "to_py"):
        return x.to_py()
    if hasattr(x, "tolist"):
        return x.tolist()
    return x


def _num(v):
    try:
        return float(v)
    except (TypeError, ValueError):
        raise TypeError(f"tf.vis: expected a number, got {v!r}") from None


def _points(values):
    """[{x, y}] | [(x, y)] | [y, ...] -> [(x, y)]."""
    values = plain(values)
    pts = []
    for i, v in enumerate(values or []):
        if isinstance(v, dict):
            pts.append((_num(v["x"]), _num(v["y"])))
        elif isinstance(v, (list, tuple)):
            pts.append((_num(v[0]), _num(v[1])))
        else:
            pts.append((float(i), _num(v)))
    return pts


def series_of(data):
    """tfjs-vis's {values, series} (values one list of points, or a list of them) -> [(name, points)].
    Also {name: points, ...} and a bare list of points."""
    data = plain(data)
    if isinstance(data, dict) and "values" in data:
        values, names = plain(data["values"]), list(data.get("series") or [])
    elif isinstance(data, dict):
        names, values = list(data.keys()), list(data.values())
    else:
        values, names = data, []
    values = list(values or [])
    first = values[0] if values else None
    multi = isinstance(first, (list, tuple)) and (not first or isinstance(first[0], (dict, list, tuple)))
    if not multi:
        values = [values]
    names = names + [f"series {i + 1}" if len(values) > 1 else "" for i in range(len(names), len(values))]
    return [(names[i], _points(v)) for i, v in enumerate(values)]


def _xy_kwargs(o):
    return dict(width=o.get("width") or 480, height=o.get("height") or 260, title=o.get("title", ""),
                x_label=o.get("x_label", ""), y_label=o.get("y_label", ""), colors=o.get("series_colors"),
                y_domain=o.get("y_axis_domain"), x_domain=o.get("x_axis_domain"),
                zoom_to_fit=o.get("zoom_to_fit", True))


def linechart(container: Any, data: Any, opts: Optional[dict] = None, **kwargs: Any) -> Optional[str]:
    """Lines through {x, y} points.

    Args:
        container: where the chart goes: in the page an element id or CSS selector, a JS element or a
            visor surface; in CPython a file path (".svg" added when it has no suffix) or a surface
            (a file in the output directory).
        data: {"values": [[{x, y}, ...], ...] (one list per series), "series": [names]}.
        opts: tfjs-vis's options as a dict in camelCase ({"xLabel": ...}).
        **kwargs: the same options as snake_case keywords: width, height, title, x_label, y_label,
            zoom_to_fit, y_axis_domain, x_axis_domain, series_colors, max_bins, color, domain.

    Returns:
        In CPython the path of the SVG file written; in the page None.

    Example:
        >>> import os, tempfile
        >>> folder = tempfile.mkdtemp()
        >>> data = {"values": [[{"x": 0, "y": 1}, {"x": 1, "y": 3}]], "series": ["loss"]}
        >>> os.path.basename(tf.vis.render.linechart(os.path.join(folder, "loss"), data, x_label="epoch"))
        'loss.svg'
    """
    return draw(container, svg.xy_chart(series_of(data), "line",
                                        **_xy_kwargs(checked("vis.linechart", opts, **kwargs))))


def scatterplot(container: Any, data: Any, opts: Optional[dict] = None, **kwargs: Any) -> Optional[str]:
    """Points at {x, y}.

    Args:
        container: where the chart goes: in the page an element id or CSS selector, a JS element or a
            visor surface; in CPython a file path (".svg" added when it has no suffix) or a surface
            (a file in the output directory).
        data: as linechart's.
        opts: tfjs-vis's options as a dict in camelCase ({"xLabel": ...}).
        **kwargs: the same options as snake_case keywords: width, height, title, x_label, y_label,
            zoom_to_fit, y_axis_domain, x_axis_domain, series_colors, max_bins, color, domain.

    Returns:
        In CPython the path of the SVG file written; in the page None.

    Example:
        >>> import os, tempfile
        >>> folder = tempfile.mkdtemp()
        >>> data = {"values": [[{"x": 0, "y": 1}, {"x": 1, "y": 3}]]}
        >>> os.path.basename(tf.vis.render.scatterplot(os.path.join(folder, "points"), data))
        'points.svg'
    """
    return draw(container, svg.xy_chart(series_of(data), "scatter",
                                        **_xy_kwargs(checked("vis.scatterplot", opts, **kwargs))))


def barchart(container: Any, data: Any, opts: Optional[dict] = None, **kwargs: Any) -> Optional[str]:
    """Bars.

    Args:
        container: where the chart goes: in the page an element id or CSS selector, a JS element or a
            visor surface; in CPython a file path (".svg" added when it has no suffix) or a surface
            (a file in the output directory).
        data: [{"index": label, "value": v}, ...] (or {label: value}, or [v, ...]).
        opts: tfjs-vis's options as a dict in camelCase ({"xLabel": ...}).
        **kwargs: the same options as snake_case keywords: width, height, title, x_label, y_label,
            zoom_to_fit, y_axis_domain, x_axis_domain, series_colors, max_bins, color, domain.

    Returns:
        In CPython the path of the SVG file written; in the page None.

    Example:
        >>> import os, tempfile
        >>> folder = tempfile.mkdtemp()
        >>> os.path.basename(tf.vis.render.barchart(os.path.join(folder, "bars"), {"a": 1, "b": 3}))
        'bars.svg'
    """
    o = checked("vis.barchart", opts, **kwargs)
    data = plain(data)
    if isinstance(data, dict):
        items = [(k, _num(v)) for k, v in data.items()]
    else:
        items = [(d["index"], _num(d["value"])) if isinstance(d, dict) else (i, _num(d))
                 for i, d in enumerate(data)]
    colors = o.get("color")
    return draw(container, svg.bar_chart(items, o.get("width") or 480, o.get("height") or 260, o.get("title", ""),
                                         o.get("x_label", ""), o.get("y_label", ""), colors[0] if colors else None))


def histogram(container: Any, data: Any, opts: Optional[dict] = None, **kwargs: Any) -> Optional[str]:
    """The distribution of numbers.

    Args:
        container: where the chart goes: in the page an element id or CSS selector, a JS element or a
            visor surface; in CPython a file path (".svg" added when it has no suffix) or a surface
            (a file in the output directory).
        data: a list of numbers, [{"value": v}, ...], or a tensor of any shape.
        opts: tfjs-vis's options as a dict in camelCase ({"xLabel": ...}).
        **kwargs: the same options as snake_case keywords: width, height, title, x_label, y_label,
            zoom_to_fit, y_axis_domain, x_axis_domain, series_colors, max_bins, color, domain.

    Returns:
        In CPython the path of the SVG file written; in the page None.

    Example:
        >>> import os, tempfile
        >>> folder = tempfile.mkdtemp()
        >>> os.path.basename(tf.vis.render.histogram(os.path.join(folder, "hist"), tf.tensor([1, 2, 2, 3]), max_bins=3))
        'hist.svg'
    """
    o = checked("vis.histogram", opts, **kwargs)
    data = plain(data)
    flat = []

    def walk(v):
        if isinstance(v, (list, tuple)):
            for x in v:
                walk(x)
        elif isinstance(v, dict):
            flat.append(_num(v["value"]))
        else:
            flat.append(_num(v))

    walk(data)
    return draw(container, svg.histogram(flat, o.get("max_bins"), o.get("width") or 480, o.get("height") or 220,
                                         o.get("title", ""), o.get("x_label", ""), o.get("y_label", "count")))


def _matrix(values):
    values = plain(values)
    return [[_num(v) for v in row] for row in values]


def heatmap(container: Any, data: Any, opts: Optional[dict] = None, **kwargs: Any) -> Optional[str]:
    """A matrix as coloured cells. As in tfjs-vis, values[i] is column i (column-major); rows are drawn from the top.

    Args:
        container: where the chart goes: in the page an element id or CSS selector, a JS element or a
            visor surface; in CPython a file path (".svg" added when it has no suffix) or a surface
            (a file in the output directory).
        data: {"values": [[...], ...] or a 2-D tensor, "xTickLabels": [...], "yTickLabels": [...]}.
        opts: tfjs-vis's options as a dict in camelCase ({"xLabel": ...}).
        **kwargs: the same options as snake_case keywords: width, height, title, x_label, y_label,
            zoom_to_fit, y_axis_domain, x_axis_domain, series_colors, max_bins, color, domain.

    Returns:
        In CPython the path of the SVG file written; in the page None.

    Example:
        >>> import os, tempfile
        >>> folder = tempfile.mkdtemp()
        >>> os.path.basename(tf.vis.render.heatmap(os.path.join(folder, "heat"), {"values": [[1, 2], [3, 4]]}))
        'heat.svg'
    """
    o = checked("vis.heatmap", opts, **kwargs)
    d = options(data) if isinstance(data, dict) else {"values": data}
    cols = _matrix(d["values"])
    rows = [list(r) for r in zip(*cols)] if cols else []
    return draw(container, svg.heatmap(rows, d.get("x_tick_labels"), d.get("y_tick_labels"),
                                       o.get("width") or 480, o.get("height") or 360, o.get("title", ""),
                                       o.get("x_label", ""), o.get("y_label", ""),
                                       domain=o.get("domain")))


def confusion_matrix(container: Any, data: Any, opts: Optional[dict] = None, **kwargs: Any) -> Optional[str]:
    """A confusion matrix as coloured cells with counts.

    Args:
        container: where the chart goes: in the page an element id or CSS selector, a JS element or a
            visor surface; in CPython a file path (".svg" added when it has no suffix) or a surface
            (a file in the output directory).
        data: {"values": [[...], ...] (row = true label, column = prediction, as tf.math.confusion_matrix
            gives it), "tickLabels": [...]}.
        opts: tfjs-vis's options as a dict in camelCase ({"xLabel": ...}).
        **kwargs: the same options as snake_case keywords: width, height, title, x_label, y_label,
            zoom_to_fit, y_axis_domain, x_axis_domain, series_colors, max_bins, color, domain.

    Returns:
        In CPython the path of the SVG file written; in the page None.

    Example:
        >>> import os, tempfile
        >>> folder = tempfile.mkdtemp()
        >>> os.path.basename(tf.vis.render.confusion_matrix(os.path.join(folder, "cm"), {"values": [[3, 1], [0, 4]]}))
        'cm.svg'
    """
    o = checked("vis.confusion_matrix", opts, **kwargs)
    d = options(data) if isinstance(data, dict) else {"values": data}
    rows = _matrix(d["values"])
    labels = d.get("tick_labels")
    return draw(container, svg.heatmap(rows, labels, labels, o.get("width") or 400, o.get("height") or 360,
                                       o.get("title", ""), o.get("x_label", "Prediction"),
                                       o.get("y_label", "Label"), annotate=True))


def table(container: Any, data: Any, opts: Optional[dict] = None, **kwargs: Any) -> Optional[str]:
    """A table.

    Args:
        container: where the chart goes: in the page an element id or CSS selector, a JS element or a
            visor surface; in CPython a file path (".svg" added when it has no suffix) or a surface
            (a file in the output directory).
        data: {"headers": [...], "values": [[...], ...]}.
        opts: tfjs-vis's options as a dict in camelCase ({"xLabel": ...}).
        **kwargs: the same options as snake_case keywords: width, height, title, x_label, y_label,
            zoom_to_fit, y_axis_domain, x_axis_domain, series_colors, max_bins, color, domain.

    Returns:
        In CPython the path of the SVG file written; in the page None.

    Example:
        >>> import os, tempfile
        >>> folder = tempfile.mkdtemp()
        >>> table = {"headers": ["a", "b"], "values": [[1, 2]]}
        >>> os.path.basename(tf.vis.render.table(os.path.join(folder, "t"), table))
        't.svg'
    """
    o = checked("vis.table", opts, **kwargs)
    values = plain(data["values"])
    return draw(container, svg.table(list(data["headers"]), [[_cell(v) for v in row] for row in values],
                                     o.get("width"), o.get("title", "")))


def _cell(v):
    if isinstance(v, float):
        return "NaN" if math.isnan(v) else f"{v:.6g}"
    return v
