"""tf.vis.render: tfjs-vis's render.* with its data formats. Options come as a dict in tfjs-vis's
camelCase ({"xLabel": ...}) or as snake_case keywords (x_label=...): width, height, title,
x_label, y_label, zoom_to_fit, y_axis_domain, x_axis_domain, series_colors, max_bins (histogram),
color_map is not supported (one white-to-blue scale)."""
import math
import re

from . import svg
from .output import draw

__all__ = ["linechart", "scatterplot", "barchart", "histogram", "heatmap", "confusion_matrix", "table"]


def options(opts=None, **kwargs):
    """tfjs-vis options (camelCase or snake_case) as one snake_case dict."""
    out = {}
    for k, v in list((opts or {}).items()) + list(kwargs.items()):
        out[re.sub(r"(?<!^)([A-Z])", r"_\1", k).lower()] = v
    return out


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


def linechart(container, data, opts=None, **kwargs):
    """Lines through {x, y} points: data {"values": [[{x, y}...], ...], "series": [names]}."""
    return draw(container, svg.xy_chart(series_of(data), "line", **_xy_kwargs(options(opts, **kwargs))))


def scatterplot(container, data, opts=None, **kwargs):
    """Points: data as for linechart."""
    return draw(container, svg.xy_chart(series_of(data), "scatter", **_xy_kwargs(options(opts, **kwargs))))


def barchart(container, data, opts=None, **kwargs):
    """Bars: data [{"index": label, "value": v}, ...] (or {label: value}, or [v, ...])."""
    o = options(opts, **kwargs)
    data = plain(data)
    if isinstance(data, dict):
        items = [(k, _num(v)) for k, v in data.items()]
    else:
        items = [(d["index"], _num(d["value"])) if isinstance(d, dict) else (i, _num(d))
                 for i, d in enumerate(data)]
    colors = o.get("color")
    return draw(container, svg.bar_chart(items, o.get("width") or 480, o.get("height") or 260, o.get("title", ""),
                                         o.get("x_label", ""), o.get("y_label", ""),
                                         colors[0] if isinstance(colors, list) else colors))


def histogram(container, data, opts=None, **kwargs):
    """The distribution of numbers: a list, [{"value": v}], or a tensor of any shape."""
    o = options(opts, **kwargs)
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


def heatmap(container, data, opts=None, **kwargs):
    """A matrix as coloured cells: data {"values": [[...]] or a 2-D tensor, "xTickLabels", "yTickLabels"}.
    As in tfjs-vis, values[i] is column i (column-major); rows are drawn from the top."""
    o = options(opts, **kwargs)
    d = options(data) if isinstance(data, dict) else {"values": data}
    cols = _matrix(d["values"])
    rows = [list(r) for r in zip(*cols)] if cols else []
    return draw(container, svg.heatmap(rows, d.get("x_tick_labels"), d.get("y_tick_labels"),
                                       o.get("width") or 480, o.get("height") or 360, o.get("title", ""),
                                       o.get("x_label", ""), o.get("y_label", ""),
                                       domain=o.get("domain")))


def confusion_matrix(container, data, opts=None, **kwargs):
    """data {"values": [[...]] (row = true label, column = prediction, as tf.math.confusion_matrix
    gives it), "tickLabels": [...]}."""
    o = options(opts, **kwargs)
    d = options(data) if isinstance(data, dict) else {"values": data}
    rows = _matrix(d["values"])
    labels = d.get("tick_labels")
    return draw(container, svg.heatmap(rows, labels, labels, o.get("width") or 400, o.get("height") or 360,
                                       o.get("title", ""), o.get("x_label", "Prediction"),
                                       o.get("y_label", "Label"), annotate=True))


def table(container, data, opts=None, **kwargs):
    """A table: data {"headers": [...], "values": [[...], ...]}."""
    o = options(opts, **kwargs)
    values = plain(data["values"])
    return draw(container, svg.table(list(data["headers"]), [[_cell(v) for v in row] for row in values],
                                     o.get("width"), o.get("title", "")))


def _cell(v):
    if isinstance(v, float):
        return "NaN" if math.isnan(v) else f"{v:.6g}"
    return v
