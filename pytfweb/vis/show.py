"""tf.vis.show: training curves, model summaries and weight distributions (tfjs-vis's show.*)."""
import math
import time
from typing import Any, Optional, Sequence

from ..layers.callbacks import Callback
from . import svg
from .output import draw
from .render import checked, plain

__all__ = ["fit_callbacks", "history", "model_summary", "layer", "values_distribution"]

_EVENTS = {"onbatchend": "on_batch_end", "on_batch_end": "on_batch_end",
           "onepochend": "on_epoch_end", "on_epoch_end": "on_epoch_end"}


def _groups(metrics):
    """['loss', 'val_loss', 'acc'] -> [('loss', ['loss', 'val_loss']), ('acc', ['acc'])]."""
    groups = {}
    for m in metrics:
        base = m[4:] if m.startswith("val_") else m
        groups.setdefault(base, []).append(m)
    return list(groups.items())


def _curves(points, metrics, title_of, o):
    """One line chart per metric group; points: {metric: [(x, y), ...]}."""
    charts = []
    for base, names in _groups(metrics):
        series = [(n, points.get(n, [])) for n in names]
        charts.append(svg.xy_chart(series, "line", width=o.get("width") or 480, height=o.get("height") or 220,
                                   title=title_of(base), x_label=o.get("x_label", ""), y_label=base,
                                   y_domain=o.get("y_axis_domain"), zoom_to_fit=o.get("zoom_to_fit", True)))
    return charts


class FitCallbacks(Callback):
    """Live loss/metric curves for fit(): redrawn after each epoch and, at most every
    `redraw_ms` milliseconds (default 200), after batches."""

    def __init__(self, container, metrics, opts=None, **kwargs):
        self.container = container
        self.metrics = [metrics] if isinstance(metrics, str) else list(metrics)
        self.opts = checked("vis.fit_callbacks", opts, **kwargs)
        wanted = self.opts.get("callbacks") or ["onEpochEnd", "onBatchEnd"]
        self.events = {_EVENTS[e.replace("_", "").lower()] if e.replace("_", "").lower() in _EVENTS else e
                       for e in wanted}
        unknown = self.events - {"on_batch_end", "on_epoch_end"}
        if unknown:
            raise ValueError(f"fit_callbacks: unknown callbacks {sorted(unknown)}; use onBatchEnd and/or onEpochEnd")
        self.redraw_ms = self.opts.get("redraw_ms", 200)
        self.batch_points, self.epoch_points = {}, {}
        self._batches = 0
        self._last_draw = 0.0
        self.draws = 0

    def __iter__(self):
        # so that callbacks=fit_callbacks(...) works as well as callbacks=[fit_callbacks(...)]
        return iter([self])

    def on_train_begin(self, logs=None):
        self.batch_points, self.epoch_points = {}, {}
        self._batches = 0

    def _add(self, store, x, logs):
        for m in self.metrics:
            v = (logs or {}).get(m)
            if isinstance(v, (int, float)) and math.isfinite(v):
                store.setdefault(m, []).append((float(x), float(v)))

    def on_batch_end(self, batch, logs=None):
        if "on_batch_end" not in self.events:
            return
        self._add(self.batch_points, self._batches, logs)
        self._batches += 1
        if (time.perf_counter() - self._last_draw) * 1000 >= self.redraw_ms:
            self.redraw()

    def on_epoch_end(self, epoch, logs=None):
        if "on_epoch_end" in self.events:
            self._add(self.epoch_points, epoch + 1, logs)
        self.redraw()

    def on_train_end(self, logs=None):
        self.redraw()

    def chart(self):
        charts = []
        if "on_batch_end" in self.events:
            train = [m for m in self.metrics if not m.startswith("val_")]
            charts += _curves(self.batch_points, train, lambda b: f"{b} (batch)", dict(self.opts, x_label="batch"))
        if "on_epoch_end" in self.events:
            charts += _curves(self.epoch_points, self.metrics, lambda b: f"{b} (epoch)",
                              dict(self.opts, x_label="epoch"))
        return svg.stack(charts)

    def redraw(self):
        self._last_draw = time.perf_counter()
        self.draws += 1
        return draw(self.container, self.chart())


def fit_callbacks(container: Any, metrics: Sequence[str], opts: Optional[dict] = None, **kwargs: Any) -> Any:
    """Callbacks for fit() drawing live curves of metrics: one chart per metric per batch and per epoch (opts
    callbacks=["onEpochEnd"] for epochs only).

    Args:
        container: where the chart goes: in the page an element id or CSS selector, a JS element or a
            visor surface; in CPython a file path (".svg" added when it has no suffix) or a surface
            (a file in the output directory).
        metrics: the logged values to draw, e.g. ["loss", "val_loss", "acc"].
        opts: tfjs-vis's options as a dict in camelCase ({"xLabel": ...}).
        **kwargs: the same options as snake_case keywords: width, height, title, x_label, y_label,
            zoom_to_fit, y_axis_domain, x_axis_domain, series_colors, max_bins, color, domain.

    Returns:
        A callbacks object for fit(callbacks=...).

    Example:
        >>> import os, tempfile
        >>> folder = tempfile.mkdtemp()
        >>> model = tf.sequential([tf.layers.dense(units=1, input_shape=[1])])
        >>> model.compile(optimizer="sgd", loss="mse")
        >>> callbacks = tf.vis.show.fit_callbacks(os.path.join(folder, "fit"), ["loss"])
        >>> _ = model.fit_sync(tf.ones([4, 1]), tf.ones([4, 1]), epochs=2, verbose=0, callbacks=callbacks)
        >>> any(name.startswith("fit") for name in os.listdir(folder))
        True
    """
    return FitCallbacks(container, metrics, opts, **kwargs)


def history(container: Any, history: Any, metrics: Sequence[str], opts: Optional[dict] = None,
            **kwargs: Any) -> Optional[str]:
    """Curves of a finished fit.

    Args:
        container: where the chart goes: in the page an element id or CSS selector, a JS element or a
            visor surface; in CPython a file path (".svg" added when it has no suffix) or a surface
            (a file in the output directory).
        history: a History (fit's result) or a list of logs dicts.
        metrics: the logged values to draw.
        opts: tfjs-vis's options as a dict in camelCase ({"xLabel": ...}).
        **kwargs: the same options as snake_case keywords: width, height, title, x_label, y_label,
            zoom_to_fit, y_axis_domain, x_axis_domain, series_colors, max_bins, color, domain.

    Returns:
        In CPython the path of the SVG file written; in the page None.

    Example:
        >>> import os, tempfile
        >>> folder = tempfile.mkdtemp()
        >>> model = tf.sequential([tf.layers.dense(units=1, input_shape=[1])])
        >>> model.compile(optimizer="sgd", loss="mse")
        >>> history = model.fit_sync(tf.ones([2, 1]), tf.ones([2, 1]), epochs=3, verbose=0)
        >>> os.path.basename(tf.vis.show.history(os.path.join(folder, "history"), history, ["loss"]))
        'history.svg'
    """
    o = checked("vis.history", opts, **kwargs)
    metrics = [metrics] if isinstance(metrics, str) else list(metrics)
    if hasattr(history, "history"):
        epochs = list(getattr(history, "epoch", None) or range(len(next(iter(history.history.values()), []))))
        points = {m: [(float(e + 1), float(v)) for e, v in zip(epochs, history.history.get(m, []))] for m in metrics}
    else:
        points = {m: [(float(i), float(h[m])) for i, h in enumerate(history) if m in h] for m in metrics}
    return draw(container, svg.stack(_curves(points, metrics, lambda b: b, dict(o, x_label=o.get("x_label", "epoch")))))


def _shape(layer):
    try:
        s = layer.output_shape
    except (AttributeError, ValueError):
        return "multiple"
    return str(list(s) if isinstance(s, tuple) else s).replace("None", "batch")


def model_summary(container: Any, model: Any, opts: Optional[dict] = None, **kwargs: Any) -> Optional[str]:
    """A table of the model's layers: name, type, output shape, parameters, trainable.

    Args:
        container: where the chart goes: in the page an element id or CSS selector, a JS element or a
            visor surface; in CPython a file path (".svg" added when it has no suffix) or a surface
            (a file in the output directory).
        model: the model.
        opts: tfjs-vis's options as a dict in camelCase ({"xLabel": ...}).
        **kwargs: the same options as snake_case keywords: width, height, title, x_label, y_label,
            zoom_to_fit, y_axis_domain, x_axis_domain, series_colors, max_bins, color, domain.

    Returns:
        In CPython the path of the SVG file written; in the page None.

    Example:
        >>> import os, tempfile
        >>> folder = tempfile.mkdtemp()
        >>> model = tf.sequential([tf.layers.dense(units=1, input_shape=[1])])
        >>> os.path.basename(tf.vis.show.model_summary(os.path.join(folder, "summary"), model))
        'summary.svg'
    """
    o = checked("vis.model_summary", opts, **kwargs)
    rows = [[layer.name, layer.get_class_name(), _shape(layer), layer.count_params(), bool(layer.trainable)]
            for layer in model.layers]
    total = sum(r[3] for r in rows)
    rows.append(["Total", "", "", total, ""])
    return draw(container, svg.table(["Layer Name", "Type", "Output Shape", "# Of Params", "Trainable"], rows,
                                     o.get("width"), o.get("title", model.name)))


def _flat(values):
    out = []

    def walk(v):
        if isinstance(v, (list, tuple)):
            for x in v:
                walk(x)
        else:
            out.append(float(v))

    walk(plain(values))
    return out


def _stats_row(name, shape, values):
    finite = [v for v in values if math.isfinite(v)]
    return [name, str(list(shape)), f"{min(finite):.4g}" if finite else "-", f"{max(finite):.4g}" if finite else "-",
            len(values), sum(1 for v in values if v == 0), sum(1 for v in values if math.isnan(v)),
            sum(1 for v in values if math.isinf(v))]


_STATS = ["Name", "Shape", "Min", "Max", "# Params", "# Zeros", "# NaNs", "# Infinity"]


def layer(container: Any, layer: Any, opts: Optional[dict] = None, **kwargs: Any) -> Optional[str]:
    """A layer's weights: a table of their statistics and a histogram of each.

    Args:
        container: where the chart goes: in the page an element id or CSS selector, a JS element or a
            visor surface; in CPython a file path (".svg" added when it has no suffix) or a surface
            (a file in the output directory).
        layer: the layer (built).
        opts: tfjs-vis's options as a dict in camelCase ({"xLabel": ...}).
        **kwargs: the same options as snake_case keywords: width, height, title, x_label, y_label,
            zoom_to_fit, y_axis_domain, x_axis_domain, series_colors, max_bins, color, domain.

    Returns:
        In CPython the path of the SVG file written; in the page None.

    Example:
        >>> import os, tempfile
        >>> folder = tempfile.mkdtemp()
        >>> model = tf.sequential([tf.layers.dense(units=2, input_shape=[3])])
        >>> os.path.basename(tf.vis.show.layer(os.path.join(folder, "dense"), model.layers[0]))
        'dense.svg'
    """
    o = checked("vis.layer", opts, **kwargs)
    rows, charts = [], []
    for w in layer.weights:
        values = _flat(w)
        rows.append(_stats_row(w.name, w.shape, values))
        charts.append(svg.histogram(values, o.get("max_bins"), o.get("width") or 480, o.get("height") or 180,
                                    title=w.name, x_label="value"))
    table = svg.table(_STATS, rows, title=f"{layer.name} ({layer.get_class_name()})")
    return draw(container, svg.stack([table] + charts))


def values_distribution(container: Any, tensor: Any, opts: Optional[dict] = None, **kwargs: Any) -> Optional[str]:
    """A tensor's statistics and the histogram of its values.

    Args:
        container: where the chart goes: in the page an element id or CSS selector, a JS element or a
            visor surface; in CPython a file path (".svg" added when it has no suffix) or a surface
            (a file in the output directory).
        tensor: the tensor.
        opts: tfjs-vis's options as a dict in camelCase ({"xLabel": ...}).
        **kwargs: the same options as snake_case keywords: width, height, title, x_label, y_label,
            zoom_to_fit, y_axis_domain, x_axis_domain, series_colors, max_bins, color, domain.

    Returns:
        In CPython the path of the SVG file written; in the page None.

    Example:
        >>> import os, tempfile
        >>> folder = tempfile.mkdtemp()
        >>> os.path.basename(tf.vis.show.values_distribution(os.path.join(folder, "values"), tf.tensor([1, 2, 3])))
        'values.svg'
    """
    o = checked("vis.values_distribution", opts, **kwargs)
    values = _flat(tensor)
    table = svg.table(_STATS[1:], [_stats_row("", tensor.shape, values)[1:]])
    chart = svg.histogram(values, o.get("max_bins"), o.get("width") or 480, o.get("height") or 200, x_label="value")
    return draw(container, svg.stack([table, chart]))
