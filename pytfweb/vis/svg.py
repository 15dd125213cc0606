"""Charts as SVG text, by hand (standard library only): the one drawing code of tf.vis, used in
the page (the SVG goes into an element), in a worker (posted to the page) and in CPython (written
to a file).

Every builder returns a Chart(width, height, body); `document(chart)` is the standalone SVG,
`stack(charts)` puts several one above the other. Inside a chart: `rect.plot-area` is the data
region, `g.axis` the axes (stroke AXIS), `path.series` / `circle.point` / `rect.bar` /
`rect.cell` the data, in the colours of PALETTE.
"""
import math
from collections import namedtuple
from html import escape

Chart = namedtuple("Chart", "width height body")

PALETTE = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22",
           "#17becf")
AXIS = "#333333"
GRID = "#e6e6e6"
FONT = 'font-family="system-ui, sans-serif" font-size="11"'
MONO = 'font-family="ui-monospace, monospace" font-size="11"'
# top, right, bottom, left
MARGIN = (28, 16, 40, 56)


def _fmt(v):
    if v == 0:
        return "0"
    a = abs(v)
    if a >= 1e5 or a < 1e-3:
        return f"{v:.2g}"
    if float(v).is_integer():
        return str(int(v))
    return f"{v:.4g}"


def nice_ticks(lo, hi, count=5):
    """About `count` round tick values covering [lo, hi], and the (possibly widened) domain."""
    if not (math.isfinite(lo) and math.isfinite(hi)):
        lo, hi = 0.0, 1.0
    if hi < lo:
        lo, hi = hi, lo
    if hi == lo:
        pad = abs(lo) * 0.1 or 1.0
        lo, hi = lo - pad, hi + pad
    raw = (hi - lo) / max(1, count)
    mag = 10 ** math.floor(math.log10(raw))
    step = next(m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= raw)
    start = math.floor(lo / step + 1e-9) * step
    stop = math.ceil(hi / step - 1e-9) * step
    n = int(round((stop - start) / step))
    ticks = [round(start + i * step, 12) for i in range(n + 1)]
    return ticks, (start, stop)


class Frame:
    """The mapping from data to pixels of one chart."""

    def __init__(self, width, height, x_domain, y_domain, margin=MARGIN):
        self.width, self.height = width, height
        self.top, self.right, self.bottom, self.left = margin
        self.x0, self.x1 = x_domain
        self.y0, self.y1 = y_domain
        self.pw = max(1, width - self.left - self.right)
        self.ph = max(1, height - self.top - self.bottom)

    def px(self, x):
        span = (self.x1 - self.x0) or 1
        return self.left + (x - self.x0) / span * self.pw

    def py(self, y):
        span = (self.y1 - self.y0) or 1
        return self.top + self.ph - (y - self.y0) / span * self.ph

    def plot_area(self):
        return (f'<rect class="plot-area" x="{self.left}" y="{self.top}" width="{self.pw}" height="{self.ph}" '
                f'fill="#ffffff"/>')


def _text(x, y, s, anchor="middle", extra=""):
    return f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}" {FONT} fill="{AXIS}"{extra}>{escape(str(s))}</text>'


def _title(width, title):
    return _text(width / 2, 16, title, extra=' font-weight="600"') if title else ""


def axes(frame, x_ticks, y_ticks, x_label="", y_label="", x_names=None):
    """Grid lines, the two axes (left and bottom of the plot area), ticks and labels."""
    f = frame
    parts = ['<g class="grid" stroke="%s" stroke-width="1">' % GRID]
    for t in y_ticks:
        y = f.py(t)
        parts.append(f'<line x1="{f.left}" y1="{y:.1f}" x2="{f.left + f.pw}" y2="{y:.1f}"/>')
    parts.append("</g>")
    base = f.top + f.ph
    parts.append(f'<g class="axis" stroke="{AXIS}" stroke-width="1.5" fill="none">'
                 f'<path class="x-axis" d="M{f.left},{base}H{f.left + f.pw}"/>'
                 f'<path class="y-axis" d="M{f.left},{f.top}V{base}"/></g>')
    for t in y_ticks:
        y = f.py(t)
        parts.append(f'<line x1="{f.left - 4}" y1="{y:.1f}" x2="{f.left}" y2="{y:.1f}" stroke="{AXIS}"/>')
        parts.append(_text(f.left - 6, y + 3.5, _fmt(t), "end"))
    for i, t in enumerate(x_ticks):
        x = f.px(t)
        parts.append(f'<line x1="{x:.1f}" y1="{base}" x2="{x:.1f}" y2="{base + 4}" stroke="{AXIS}"/>')
        parts.append(_text(x, base + 15, x_names[i] if x_names else _fmt(t)))
    if x_label:
        parts.append(_text(f.left + f.pw / 2, f.height - 6, x_label))
    if y_label:
        parts.append(_text(12, f.top + f.ph / 2, y_label, extra=f' transform="rotate(-90 12 {f.top + f.ph / 2:.1f})"'))
    return "".join(parts)


def _legend(frame, names, colors):
    if len(names) < 2 and not (names and names[0]):
        return ""
    parts, x = [], frame.left + frame.pw
    for name, color in reversed(list(zip(names, colors))):
        w = 7 * len(str(name)) + 18
        x -= w
        parts.append(f'<rect x="{x:.1f}" y="{frame.top - 12}" width="10" height="10" fill="{color}"/>'
                     + _text(x + 13, frame.top - 3, name, "start"))
    return '<g class="legend">' + "".join(parts) + "</g>"


def _domain(values, given=None):
    finite = [v for v in values if math.isfinite(v)]
    lo, hi = (min(finite), max(finite)) if finite else (0.0, 1.0)
    if given:
        lo, hi = given
    return lo, hi


def xy_chart(series, kind="line", width=480, height=260, title="", x_label="", y_label="", colors=None,
             y_domain=None, x_domain=None, zoom_to_fit=True):
    """series: [(name, [(x, y), ...]), ...]. kind 'line' (a path per series) or 'scatter'."""
    colors = list(colors or PALETTE)
    xs = [x for _, pts in series for x, _ in pts]
    ys = [y for _, pts in series for _, y in pts]
    ylo, yhi = _domain(ys, y_domain)
    if not zoom_to_fit and not y_domain:
        ylo, yhi = min(0.0, ylo), max(0.0, yhi)
    y_ticks, ydom = nice_ticks(ylo, yhi)
    x_ticks, xdom = nice_ticks(*_domain(xs, x_domain), count=6)
    f = Frame(width, height, xdom, ydom)
    parts = [f'<rect width="{width}" height="{height}" fill="#ffffff"/>', _title(width, title), f.plot_area(),
             axes(f, x_ticks, y_ticks, x_label, y_label)]
    for i, (name, pts) in enumerate(series):
        color = colors[i % len(colors)]
        pts = [(x, y) for x, y in pts if math.isfinite(x) and math.isfinite(y)]
        if kind == "line" and pts:
            d = "M" + "L".join(f"{f.px(x):.1f},{f.py(y):.1f}" for x, y in pts)
            parts.append(f'<path class="series" data-name="{escape(str(name))}" d="{d}" fill="none" '
                         f'stroke="{color}" stroke-width="2" stroke-linejoin="round"/>')
        if kind == "scatter" or len(pts) == 1:
            parts.append(f'<g class="series" data-name="{escape(str(name))}" fill="{color}">' + "".join(
                f'<circle class="point" cx="{f.px(x):.1f}" cy="{f.py(y):.1f}" r="3"/>' for x, y in pts) + "</g>")
    parts.append(_legend(f, [n for n, _ in series], colors))
    return Chart(width, height, "".join(parts))


def bar_chart(items, width=480, height=260, title="", x_label="", y_label="", color=None):
    """items: [(label, value), ...]."""
    values = [v for _, v in items]
    lo, hi = _domain(values)
    y_ticks, ydom = nice_ticks(min(0.0, lo), max(0.0, hi))
    n = max(1, len(items))
    f = Frame(width, height, (0, n), ydom)
    parts = [f'<rect width="{width}" height="{height}" fill="#ffffff"/>', _title(width, title), f.plot_area(),
             axes(f, [i + 0.5 for i in range(len(items))], y_ticks, x_label, y_label,
                  x_names=[str(label) for label, _ in items])]
    bw = f.pw / n * 0.8
    zero = f.py(0.0)
    for i, (label, v) in enumerate(items):
        if not math.isfinite(v):
            continue
        y = f.py(v)
        parts.append(f'<rect class="bar" data-label="{escape(str(label))}" x="{f.px(i + 0.1):.1f}" '
                     f'y="{min(y, zero):.1f}" width="{bw:.1f}" height="{abs(zero - y):.1f}" fill="{color or PALETTE[0]}"/>')
    return Chart(width, height, "".join(parts))


def histogram(values, bins=None, width=480, height=220, title="", x_label="", y_label="count"):
    """A bar per bin of equal width over [min, max] of the finite values."""
    finite = [v for v in values if math.isfinite(v)]
    if not finite:
        return bar_chart([], width, height, title, x_label, y_label)
    lo, hi = min(finite), max(finite)
    bins = bins or max(1, min(40, int(math.sqrt(len(finite))) or 1))
    if hi == lo:
        lo, hi = lo - 0.5, hi + 0.5
    step = (hi - lo) / bins
    counts = [0] * bins
    for v in finite:
        counts[min(bins - 1, int((v - lo) / step))] += 1
    x_ticks, xdom = nice_ticks(lo, hi)
    y_ticks, ydom = nice_ticks(0, max(counts))
    f = Frame(width, height, xdom, ydom)
    parts = [f'<rect width="{width}" height="{height}" fill="#ffffff"/>', _title(width, title), f.plot_area(),
             axes(f, x_ticks, y_ticks, x_label, y_label)]
    for i, c in enumerate(counts):
        x0, x1 = f.px(lo + i * step), f.px(lo + (i + 1) * step)
        y = f.py(c)
        parts.append(f'<rect class="bar" x="{x0:.1f}" y="{y:.1f}" width="{max(0.5, x1 - x0 - 1):.1f}" '
                     f'height="{f.top + f.ph - y:.1f}" fill="{PALETTE[0]}"/>')
    return Chart(width, height, "".join(parts))


def _mix(t):
    """A white -> blue colour for t in [0, 1]."""
    t = 0.0 if not math.isfinite(t) else min(1.0, max(0.0, t))
    r, g, b = (int(round(a + (z - a) * t)) for a, z in ((247, 8), (251, 48), (255, 107)))
    return f"#{r:02x}{g:02x}{b:02x}", ("#ffffff" if t > 0.55 else AXIS)


def heatmap(rows, x_names=None, y_names=None, width=480, height=360, title="", x_label="", y_label="",
            annotate=None, domain=None):
    """rows[r][c]: the value at row r (drawn top to bottom) and column c."""
    nr = len(rows)
    nc = max((len(r) for r in rows), default=0)
    flat = [v for r in rows for v in r if math.isfinite(v)]
    lo, hi = domain or ((min(flat), max(flat)) if flat else (0.0, 1.0))
    f = Frame(width, height, (0, max(1, nc)), (0, max(1, nr)), margin=(MARGIN[0], MARGIN[1], MARGIN[2], 64))
    cw, ch = f.pw / max(1, nc), f.ph / max(1, nr)
    annotate = annotate if annotate is not None else nr * nc <= 144
    parts = [f'<rect width="{width}" height="{height}" fill="#ffffff"/>', _title(width, title), f.plot_area()]
    for r, row in enumerate(rows):
        for c, v in enumerate(row):
            fill, ink = _mix((v - lo) / (hi - lo) if hi > lo else 0.5)
            x, y = f.left + c * cw, f.top + r * ch
            parts.append(f'<rect class="cell" x="{x:.1f}" y="{y:.1f}" width="{cw:.1f}" height="{ch:.1f}" '
                         f'fill="{fill}"/>')
            if annotate:
                parts.append(f'<text x="{x + cw / 2:.1f}" y="{y + ch / 2 + 4:.1f}" text-anchor="middle" {FONT} '
                             f'fill="{ink}">{escape(_fmt(v))}</text>')
    base = f.top + f.ph
    parts.append(f'<g class="axis" stroke="{AXIS}" stroke-width="1.5" fill="none">'
                 f'<path class="x-axis" d="M{f.left},{base}H{f.left + f.pw}"/>'
                 f'<path class="y-axis" d="M{f.left},{f.top}V{base}"/></g>')
    for c in range(nc):
        parts.append(_text(f.left + (c + 0.5) * cw, base + 15, x_names[c] if x_names else c))
    for r in range(nr):
        parts.append(_text(f.left - 6, f.top + (r + 0.5) * ch + 4, y_names[r] if y_names else r, "end"))
    if x_label:
        parts.append(_text(f.left + f.pw / 2, height - 6, x_label))
    if y_label:
        parts.append(_text(12, f.top + f.ph / 2, y_label, extra=f' transform="rotate(-90 12 {f.top + f.ph / 2:.1f})"'))
    return Chart(width, height, "".join(parts))


def table(headers, rows, width=None, title=""):
    """A text table; column widths from the longest cell."""
    cols = len(headers)
    cells = [[str(h) for h in headers]] + [[str(v) for v in r] + [""] * (cols - len(r)) for r in rows]
    char = 7.0
    widths = [max(len(row[i]) for row in cells) * char + 16 for i in range(cols)]
    total = sum(widths)
    width = width or int(total) + 2
    top = 24 if title else 0
    line = 20
    height = top + line * len(cells) + 4
    parts = [f'<rect width="{width}" height="{height}" fill="#ffffff"/>', _title(width, title)]
    for r, row in enumerate(cells):
        y = top + (r + 1) * line - 6
        if r == 0:
            parts.append(f'<rect class="header" x="0" y="{top}" width="{total:.0f}" height="{line}" fill="#f0f0f0"/>')
        else:
            parts.append(f'<line x1="0" y1="{top + r * line}" x2="{total:.0f}" y2="{top + r * line}" stroke="{GRID}"/>')
        x = 8.0
        for i, v in enumerate(row):
            weight = ' font-weight="600"' if r == 0 else ""
            parts.append(f'<text x="{x:.0f}" y="{y}" {MONO} fill="{AXIS}"{weight}>{escape(v)}</text>')
            x += widths[i]
    return Chart(width, height, "".join(parts))


def stack(charts, gap=12):
    """Charts one above the other, as one Chart."""
    charts = [c for c in charts if c is not None]
    width = max((c.width for c in charts), default=0)
    y, parts = 0, []
    for c in charts:
        parts.append(f'<svg x="0" y="{y}" width="{c.width}" height="{c.height}">{c.body}</svg>')
        y += c.height + gap
    return Chart(width, max(0, y - gap), "".join(parts))


def document(chart, standalone=False):
    """The chart as an <svg> element (standalone: with the XML declaration, for a file)."""
    head = '<?xml version="1.0" encoding="UTF-8"?>\n' if standalone else ""
    return (f'{head}<svg xmlns="http://www.w3.org/2000/svg" class="tfvis" width="{chart.width}" '
            f'height="{chart.height}" viewBox="0 0 {chart.width} {chart.height}">{chart.body}</svg>')
