"""Charts as SVG text, by hand (standard library only): the one drawing code of tf.vis, used in
the page (the SVG goes into an element), in a worker (posted to the page) and in CPython (written
to a file).

Every builder returns a Chart(width, height, body); `document(chart)` is the standalone SVG,
`stack(charts)` puts several one above the other. Inside a chart: `rect.plot-area` is the data
region, `g.axis` the axes (stroke AXIS), `path.series` / `circle.point` / `rect.bar` /
`rect.cell` the data, in the colours of PALETTE.

What a caller gives reaches the SVG only through three doors: `text()` (any text: escaped, for
element text and attribute values alike), `number()` (a finite number, written as digits) and
`color()` (a CSS colour, checked against a grammar: a name of CSS_COLORS, #rgb, #rgba, #rrggbb,
#rrggbbaa, rgb()/rgba()/hsl()/hsla() of numbers). The page parses the SVG as XML and keeps only
drawing elements and attributes (web/pytfweb.js), a second line behind these.
"""
import math
import numbers
import re
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

# CSS Color Module Level 4's named colours, and transparent.
CSS_COLORS = frozenset("""
aliceblue antiquewhite aqua aquamarine azure beige bisque black blanchedalmond blue blueviolet brown burlywood
cadetblue chartreuse chocolate coral cornflowerblue cornsilk crimson cyan darkblue darkcyan darkgoldenrod darkgray
darkgreen darkgrey darkkhaki darkmagenta darkolivegreen darkorange darkorchid darkred darksalmon darkseagreen
darkslateblue darkslategray darkslategrey darkturquoise darkviolet deeppink deepskyblue dimgray dimgrey dodgerblue
firebrick floralwhite forestgreen fuchsia gainsboro ghostwhite gold goldenrod gray green greenyellow grey honeydew
hotpink indianred indigo ivory khaki lavender lavenderblush lawngreen lemonchiffon lightblue lightcoral lightcyan
lightgoldenrodyellow lightgray lightgreen lightgrey lightpink lightsalmon lightseagreen lightskyblue lightslategray
lightslategrey lightsteelblue lightyellow lime limegreen linen magenta maroon mediumaquamarine mediumblue
mediumorchid mediumpurple mediumseagreen mediumslateblue mediumspringgreen mediumturquoise mediumvioletred
midnightblue mintcream mistyrose moccasin navajowhite navy oldlace olive olivedrab orange orangered orchid
palegoldenrod palegreen paleturquoise palevioletred papayawhip peachpuff peru pink plum powderblue purple
rebeccapurple red rosybrown royalblue saddlebrown salmon sandybrown seagreen seashell sienna silver skyblue slateblue
slategray slategrey snow springgreen steelblue tan teal thistle tomato turquoise violet wheat white whitesmoke
yellow yellowgreen transparent""".split())

_WS = "[ \\t\\n\\r\\f]*"
_NUM = r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?"
_PCT = f"{_NUM}%?"
_HUE = f"{_NUM}(?:deg|grad|rad|turn)?"


def _function(name, first):
    """name(a, b, c[, alpha]) or name(a b c[ / alpha]), arguments numbers."""
    arg = f"{_WS}{{}}{_WS}"
    commas = f"{arg.format(first)},{arg.format(_PCT)},{arg.format(_PCT)}(?:,{arg.format(_PCT)})?"
    spaces = f"{_WS}{first}[ \\t\\n\\r\\f]+{_PCT}[ \\t\\n\\r\\f]+{_PCT}{_WS}(?:/{arg.format(_PCT)})?"
    return f"{name}\\((?:{commas}|{spaces})\\)"


_COLOR = re.compile("|".join([r"#(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})", _function("rgba?", _PCT),
                              _function("hsla?", _HUE)]), re.IGNORECASE | re.ASCII)
# characters XML 1.0 does not allow (a parser refuses the document): replaced by U+FFFD
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _css_color(value):
    """value as a CSS colour for an attribute (a name in lower case), or None when it is not one."""
    if not isinstance(value, str):
        return None
    v = value.strip(" \t\n\r\f")
    if v.isascii() and v.lower() in CSS_COLORS:
        return v.lower()
    return v if _COLOR.fullmatch(v) else None


def is_color(value):
    """Whether value is a CSS colour of the forms tf.vis takes (see the module docstring)."""
    return _css_color(value) is not None


def color(value, where="tf.vis", option="color"):
    """value, a CSS colour, as it goes into a fill or stroke attribute; else ValueError."""
    c = _css_color(value)
    if c is None:
        raise ValueError(f"{where}: option {option!r} must be a CSS color, got {value!r}")
    return c


_color = color      # for the builders, whose arguments and variables are named color


def text(s):
    """Any value as text for the SVG (element text or a quoted attribute value): escaped with
    html.escape(quote=True); characters XML does not allow become U+FFFD."""
    return escape(_NOT_XML.sub("\ufffd", str(s)), quote=True)


def number(v):
    """A finite number as digits for an attribute (400, 12.5, 1e+300); anything else ValueError."""
    if isinstance(v, bool):
        raise ValueError(f"tf.vis: expected a number, got {v!r}")
    try:
        f = float(v)
    except (TypeError, ValueError):
        raise ValueError(f"tf.vis: expected a number, got {v!r}") from None
    if not math.isfinite(f):
        raise ValueError(f"tf.vis: expected a finite number, got {v!r}")
    return str(int(f)) if f.is_integer() and abs(f) < 1e15 else repr(f)


def positive(v, where="tf.vis", option="width"):
    """v, a positive finite number (an int when it is whole); else ValueError naming the option."""
    ok = isinstance(v, numbers.Real) and not isinstance(v, bool) and math.isfinite(float(v)) and float(v) > 0
    if not ok:
        raise ValueError(f"{where}: option {option!r} must be a positive finite number, got {v!r}")
    f = float(v)
    return int(f) if f.is_integer() and f < 1e15 else f


def count(v, where="tf.vis", option="max_bins", most=10_000):
    """v, a whole number in [1, most]; else ValueError naming the option."""
    ok = isinstance(v, numbers.Real) and not isinstance(v, bool) and math.isfinite(float(v)) and \
        float(v).is_integer() and 1 <= float(v) <= most
    if not ok:
        raise ValueError(f"{where}: option {option!r} must be a whole number from 1 to {most}, got {v!r}")
    return int(v)


def pair(v, where="tf.vis", option="domain"):
    """v, two finite numbers [lo, hi], as floats; else ValueError naming the option."""
    try:
        lo, hi = v
        ok = all(isinstance(x, numbers.Real) and not isinstance(x, bool) and math.isfinite(float(x)) for x in (lo, hi))
    except (TypeError, ValueError):
        ok = False
    if not ok:
        raise ValueError(f"{where}: option {option!r} must be two finite numbers [lo, hi], got {v!r}")
    return float(lo), float(hi)


def _size(width, height):
    return positive(width, option="width"), positive(height, option="height")


def _background(width, height):
    return f'<rect width="{number(width)}" height="{number(height)}" fill="#ffffff"/>'


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
    return f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}" {FONT} fill="{AXIS}"{extra}>{text(s)}</text>'


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
    width, height = _size(width, height)
    colors = [_color(c, option="series_colors") for c in (colors or PALETTE)]
    y_domain = pair(y_domain, option="y_axis_domain") if y_domain else None
    x_domain = pair(x_domain, option="x_axis_domain") if x_domain else None
    xs = [x for _, pts in series for x, _ in pts]
    ys = [y for _, pts in series for _, y in pts]
    ylo, yhi = _domain(ys, y_domain)
    if not zoom_to_fit and not y_domain:
        ylo, yhi = min(0.0, ylo), max(0.0, yhi)
    y_ticks, ydom = nice_ticks(ylo, yhi)
    x_ticks, xdom = nice_ticks(*_domain(xs, x_domain), count=6)
    f = Frame(width, height, xdom, ydom)
    parts = [_background(width, height), _title(width, title), f.plot_area(),
             axes(f, x_ticks, y_ticks, x_label, y_label)]
    for i, (name, pts) in enumerate(series):
        color = colors[i % len(colors)]
        pts = [(x, y) for x, y in pts if math.isfinite(x) and math.isfinite(y)]
        if kind == "line" and pts:
            d = "M" + "L".join(f"{f.px(x):.1f},{f.py(y):.1f}" for x, y in pts)
            parts.append(f'<path class="series" data-name="{text(name)}" d="{d}" fill="none" '
                         f'stroke="{color}" stroke-width="2" stroke-linejoin="round"/>')
        if kind == "scatter" or len(pts) == 1:
            parts.append(f'<g class="series" data-name="{text(name)}" fill="{color}">' + "".join(
                f'<circle class="point" cx="{f.px(x):.1f}" cy="{f.py(y):.1f}" r="3"/>' for x, y in pts) + "</g>")
    parts.append(_legend(f, [n for n, _ in series], colors))
    return Chart(width, height, "".join(parts))


def bar_chart(items, width=480, height=260, title="", x_label="", y_label="", color=None):
    """items: [(label, value), ...]."""
    width, height = _size(width, height)
    fill = _color(color or PALETTE[0])
    values = [v for _, v in items]
    lo, hi = _domain(values)
    y_ticks, ydom = nice_ticks(min(0.0, lo), max(0.0, hi))
    n = max(1, len(items))
    f = Frame(width, height, (0, n), ydom)
    parts = [_background(width, height), _title(width, title), f.plot_area(),
             axes(f, [i + 0.5 for i in range(len(items))], y_ticks, x_label, y_label,
                  x_names=[str(label) for label, _ in items])]
    bw = f.pw / n * 0.8
    zero = f.py(0.0)
    for i, (label, v) in enumerate(items):
        if not math.isfinite(v):
            continue
        y = f.py(v)
        parts.append(f'<rect class="bar" data-label="{text(label)}" x="{f.px(i + 0.1):.1f}" '
                     f'y="{min(y, zero):.1f}" width="{bw:.1f}" height="{abs(zero - y):.1f}" fill="{fill}"/>')
    return Chart(width, height, "".join(parts))


def histogram(values, bins=None, width=480, height=220, title="", x_label="", y_label="count"):
    """A bar per bin of equal width over [min, max] of the finite values."""
    width, height = _size(width, height)
    bins = count(bins) if bins else None
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
    parts = [_background(width, height), _title(width, title), f.plot_area(),
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
    width, height = _size(width, height)
    domain = pair(domain) if domain else None
    nr = len(rows)
    nc = max((len(r) for r in rows), default=0)
    flat = [v for r in rows for v in r if math.isfinite(v)]
    lo, hi = domain or ((min(flat), max(flat)) if flat else (0.0, 1.0))
    f = Frame(width, height, (0, max(1, nc)), (0, max(1, nr)), margin=(MARGIN[0], MARGIN[1], MARGIN[2], 64))
    cw, ch = f.pw / max(1, nc), f.ph / max(1, nr)
    annotate = annotate if annotate is not None else nr * nc <= 144
    parts = [_background(width, height), _title(width, title), f.plot_area()]
    for r, row in enumerate(rows):
        for c, v in enumerate(row):
            fill, ink = _mix((v - lo) / (hi - lo) if hi > lo else 0.5)
            x, y = f.left + c * cw, f.top + r * ch
            parts.append(f'<rect class="cell" x="{x:.1f}" y="{y:.1f}" width="{cw:.1f}" height="{ch:.1f}" '
                         f'fill="{fill}"/>')
            if annotate:
                parts.append(f'<text x="{x + cw / 2:.1f}" y="{y + ch / 2 + 4:.1f}" text-anchor="middle" {FONT} '
                             f'fill="{ink}">{text(_fmt(v))}</text>')
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
    width = positive(width) if width else int(total) + 2
    top = 24 if title else 0
    line = 20
    height = top + line * len(cells) + 4
    parts = [_background(width, height), _title(width, title)]
    for r, row in enumerate(cells):
        y = top + (r + 1) * line - 6
        if r == 0:
            parts.append(f'<rect class="header" x="0" y="{top}" width="{total:.0f}" height="{line}" fill="#f0f0f0"/>')
        else:
            parts.append(f'<line x1="0" y1="{top + r * line}" x2="{total:.0f}" y2="{top + r * line}" stroke="{GRID}"/>')
        x = 8.0
        for i, v in enumerate(row):
            weight = ' font-weight="600"' if r == 0 else ""
            parts.append(f'<text x="{x:.0f}" y="{y}" {MONO} fill="{AXIS}"{weight}>{text(v)}</text>')
            x += widths[i]
    return Chart(width, height, "".join(parts))


def stack(charts, gap=12):
    """Charts one above the other, as one Chart."""
    charts = [c for c in charts if c is not None]
    width = max((c.width for c in charts), default=0)
    y, parts = 0, []
    for c in charts:
        parts.append(f'<svg x="0" y="{number(y)}" width="{number(c.width)}" height="{number(c.height)}">{c.body}</svg>')
        y += c.height + gap
    return Chart(width, max(0, y - gap), "".join(parts))


def document(chart, standalone=False):
    """The chart as an <svg> element (standalone: with the XML declaration, for a file)."""
    head = '<?xml version="1.0" encoding="UTF-8"?>\n' if standalone else ""
    w, h = number(chart.width), number(chart.height)
    return (f'{head}<svg xmlns="http://www.w3.org/2000/svg" class="tfvis" width="{w}" height="{h}" '
            f'viewBox="0 0 {w} {h}">{chart.body}</svg>')
