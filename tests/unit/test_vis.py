"""tf.vis in CPython: the same calls as in the page write SVG files, drawn by hand."""
import re
import xml.etree.ElementTree as ET

import pytest

import pytfweb as tf
from pytfweb.vis import svg

NS = {"s": "http://www.w3.org/2000/svg"}


def parse(path):
    root = ET.parse(path).getroot()
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    return root


def plot_area(root):
    r = root.find(".//s:rect[@class='plot-area']", NS)
    return tuple(float(r.get(k)) for k in ("x", "y", "width", "height"))


def path_points(d):
    return [(float(x), float(y)) for x, y in re.findall(r"[ML]([-\d.]+),([-\d.]+)", d)]


def test_linechart_writes_axes_and_one_path_per_series_inside_the_plot_area(tmp_path):
    values = [[{"x": i, "y": 1 / (i + 1)} for i in range(10)], [{"x": i, "y": 0.5 / (i + 1)} for i in range(10)]]
    out = tf.vis.render.linechart(tmp_path / "line", {"values": values, "series": ["loss", "val_loss"]},
                                  {"xLabel": "epoch", "yLabel": "loss", "width": 400, "height": 250})
    assert out == str(tmp_path / "line.svg")
    root = parse(out)
    assert root.get("width") == "400" and root.get("height") == "250"
    x, y, w, h = plot_area(root)
    assert root.find(".//s:path[@class='x-axis']", NS) is not None
    assert root.find(".//s:path[@class='y-axis']", NS) is not None
    paths = root.findall(".//s:path[@class='series']", NS)
    assert [p.get("data-name") for p in paths] == ["loss", "val_loss"]
    assert paths[0].get("stroke") == svg.PALETTE[0] and paths[1].get("stroke") == svg.PALETTE[1]
    pts = path_points(paths[0].get("d"))
    assert len(pts) == 10
    assert all(x - 0.1 <= px <= x + w + 0.1 and y - 0.1 <= py <= y + h + 0.1 for px, py in pts)
    assert pts[0][1] < pts[-1][1]                       # a falling loss: y grows downwards on screen
    assert pts[0][0] < pts[-1][0]
    texts = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert "epoch" in texts and "loss" in texts and "val_loss" in texts


def test_data_formats_of_tfjs_vis_and_python_forms(tmp_path):
    for i, data in enumerate([[1.0, 3.0, 2.0], [(0, 1.0), (1, 3.0), (2, 2.0)], {"values": [{"x": 0, "y": 1.0},
                              {"x": 1, "y": 3.0}, {"x": 2, "y": 2.0}]}, tf.tensor([1.0, 3.0, 2.0])]):
        root = parse(tf.vis.render.linechart(tmp_path / f"f{i}.svg", data))
        pts = path_points(root.find(".//s:path[@class='series']", NS).get("d"))
        assert len(pts) == 3 and pts[1][1] < pts[2][1] < pts[0][1]     # y = 3 highest, then 2, then 1
        assert pts[0][0] < pts[1][0] < pts[2][0]
    root = parse(tf.vis.render.scatterplot(tmp_path / "sc.svg", {"a": [(0, 0), (1, 1)], "b": [(2, 2)]}))
    assert len(root.findall(".//s:circle[@class='point']", NS)) == 3


def test_barchart_heatmap_confusion_matrix_histogram_table(tmp_path):
    root = parse(tf.vis.render.barchart(tmp_path / "bar.svg", [{"index": "a", "value": 3}, {"index": "b", "value": 1}]))
    bars = root.findall(".//s:rect[@class='bar']", NS)
    assert [b.get("data-label") for b in bars] == ["a", "b"]
    assert float(bars[0].get("height")) == pytest.approx(3 * float(bars[1].get("height")), rel=1e-2)

    # heatmap values are column-major as in tfjs-vis: values[i] is column i
    root = parse(tf.vis.render.heatmap(tmp_path / "heat.svg", {"values": tf.tensor([[0.0, 1.0], [2.0, 3.0]])}))
    cells = root.findall(".//s:rect[@class='cell']", NS)
    assert len(cells) == 4
    by_pos = {(float(c.get("x")), float(c.get("y"))): c.get("fill") for c in cells}
    (x0, y0), (x1, y1) = min(by_pos), max(by_pos)
    assert by_pos[(x0, y0)] == "#f7fbff"               # the smallest value: white-blue
    assert by_pos[(x1, y1)] == "#08306b"               # the largest: dark blue, bottom right

    root = parse(tf.vis.render.confusion_matrix(tmp_path / "cm.svg", {"values": [[5, 1], [0, 7]],
                                                                       "tickLabels": ["cat", "dog"]}))
    texts = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert {"5", "1", "0", "7", "cat", "dog", "Prediction", "Label"} <= set(texts)

    root = parse(tf.vis.render.histogram(tmp_path / "h.svg", [0.0, 0.1, 0.1, 0.2, 0.9], {"maxBins": 3}))
    heights = [float(b.get("height")) for b in root.findall(".//s:rect[@class='bar']", NS)]
    assert len(heights) == 3 and heights[0] > heights[2] > 0 and heights[1] == 0

    root = parse(tf.vis.render.table(tmp_path / "t.svg", {"headers": ["a", "b"], "values": [[1, 2.5], ["x", "<y>"]]}))
    texts = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert texts == ["a", "b", "1", "2.5", "x", "<y>"]


def test_fit_callbacks_draw_curves_during_fit_and_show_model_and_layer(tmp_path):
    tf.vis.set_output_dir(tmp_path / "visor")
    try:
        model = tf.sequential(layers=[tf.layers.dense(units=4, input_shape=[2], activation="relu"),
                                      tf.layers.dense(units=1)])
        model.compile(optimizer="sgd", loss="meanSquaredError")
        xs = tf.random_normal([32, 2], seed=3)
        ys = tf.sum(xs, axis=1, keep_dims=True)
        surface = tf.vis.visor().surface("Training", tab="Fit")
        cb = tf.vis.show.fit_callbacks(surface, ["loss", "val_loss"], {"callbacks": ["onEpochEnd"]})
        model.fit_sync(xs, ys, epochs=4, batch_size=8, validation_split=0.25, callbacks=cb, verbose=0)
        assert cb.draws >= 4
        root = parse(tmp_path / "visor" / "Fit-Training.svg")
        paths = root.findall(".//s:path[@class='series']", NS)
        assert [p.get("data-name") for p in paths] == ["loss", "val_loss"]
        assert all(len(path_points(p.get("d"))) == 4 for p in paths)

        root = parse(tf.vis.show.model_summary(tmp_path / "summary.svg", model))
        texts = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
        assert "Dense" in texts and "17" in texts and str(model.count_params()) in texts

        root = parse(tf.vis.show.layer(tmp_path / "layer.svg", model.layers[0]))
        assert len(root.findall(".//s:rect[@class='bar']", NS)) > 0
        texts = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
        assert any(t.endswith("/kernel") for t in texts if t)
    finally:
        tf.vis.set_output_dir("tfvis")


def test_errors_name_the_problem(tmp_path):
    with pytest.raises(ValueError, match="SVG"):
        tf.vis.render.linechart(tmp_path / "x.png", [1, 2])
    with pytest.raises(TypeError, match="file path"):
        tf.vis.render.linechart(object(), [1, 2])
    with pytest.raises(ValueError, match="unknown callbacks"):
        tf.vis.show.fit_callbacks("x.svg", ["loss"], callbacks=["onTrainEnd"])
    with pytest.raises(ValueError, match="name"):
        tf.vis.render.linechart({"tab": "t"}, [1, 2])


def test_nice_ticks():
    ticks, dom = svg.nice_ticks(0.13, 0.97)
    assert ticks[0] <= 0.13 and ticks[-1] >= 0.97 and dom == (ticks[0], ticks[-1])
    assert svg.nice_ticks(5, 5)[0]                      # a flat series still gets an axis


# --- hostile options and text: checked colours and sizes, escaped text (a security issue) -------

HOSTILE = '"/><img src=x onerror=alert(1)>'
SVG_TAGS = {"svg", "g", "rect", "line", "path", "circle", "text"}


def assert_inert(path, *texts):
    """The file is well-formed SVG of drawing elements only, no on* attribute, no raw <img, and
    each of `texts` is there as text (an element's text or a data-* value)."""
    raw = open(path, encoding="utf-8").read()
    assert "<img" not in raw and "<script" not in raw
    root = parse(path)
    shown = set()
    for el in root.iter():
        assert el.tag.split("}")[1] in SVG_TAGS, el.tag
        for name, value in el.attrib.items():
            assert not name.lower().startswith("on"), (name, value)
            if name.startswith("data-"):
                shown.add(value)
        shown.add(el.text)
    for t in texts:
        assert t in shown, (t, sorted(s for s in shown if s)[:20])


def _model(name="m"):
    return tf.sequential(layers=[tf.layers.dense(units=2, input_shape=[3], name=HOSTILE)], name=name)


def _charts_with_options():
    """(name, call(path, **options)) for every tf.vis function that takes options."""
    model = _model()
    r, s = tf.vis.render, tf.vis.show
    return [
        ("linechart", lambda p, **o: r.linechart(p, [1.0, 2.0], o)),
        ("scatterplot", lambda p, **o: r.scatterplot(p, [1.0, 2.0], o)),
        ("barchart", lambda p, **o: r.barchart(p, [1.0, 2.0], o)),
        ("histogram", lambda p, **o: r.histogram(p, [1.0, 2.0, 2.5], o)),
        ("heatmap", lambda p, **o: r.heatmap(p, [[1.0, 2.0], [3.0, 4.0]], o)),
        ("confusion_matrix", lambda p, **o: r.confusion_matrix(p, [[1, 2], [3, 4]], o)),
        ("table", lambda p, **o: r.table(p, {"headers": ["a"], "values": [[1]]}, o)),
        ("fit_callbacks", lambda p, **o: s.fit_callbacks(p, ["loss"], o).redraw()),
        ("history", lambda p, **o: s.history(p, [{"loss": 1.0}, {"loss": 0.5}], ["loss"], o)),
        ("model_summary", lambda p, **o: s.model_summary(p, model, o)),
        ("layer", lambda p, **o: s.layer(p, model.layers[0], o)),
        ("values_distribution", lambda p, **o: s.values_distribution(p, tf.tensor([1.0, 2.0, 4.0]), o)),
    ]


@pytest.mark.parametrize("bad", [HOSTILE, "red; fill: url(javascript:alert(1))", "url(#x)", "rgb(1,2)",
                                 "expression(alert(1))", "#12345", 7, None])
def test_hostile_colors_are_refused_naming_function_and_option(tmp_path, bad):
    if bad is not None:
        for fn in ("linechart", "scatterplot"):
            call = getattr(tf.vis.render, fn)
            with pytest.raises(ValueError, match=rf"^vis\.{fn}: option 'series_colors' must hold CSS colors, got "):
                call(tmp_path / "c.svg", [1.0, 2.0], {"seriesColors": ["red", bad]})
        with pytest.raises(ValueError, match=r"^vis\.barchart: option 'color' must "):
            tf.vis.render.barchart(tmp_path / "c.svg", [1.0], {"color": bad})
        with pytest.raises(ValueError, match=r"^vis\.barchart: option 'color' must hold CSS colors"):
            tf.vis.render.barchart(tmp_path / "c.svg", [1.0], {"color": ["blue", bad]})
    with pytest.raises(ValueError, match=r"^tf\.vis: option 'series_colors' must be a CSS color"):
        svg.xy_chart([("a", [(0, 1)])], colors=[bad])            # the drawing code checks too
    assert not list(tmp_path.iterdir())                         # nothing was written


def test_the_message_shows_the_hostile_value(tmp_path):
    with pytest.raises(ValueError) as e:
        tf.vis.render.linechart(tmp_path / "c.svg", [1.0], series_colors=[HOSTILE])
    assert str(e.value) == ("vis.linechart: option 'series_colors' must hold CSS colors, "
                            "got '\"/><img src=x onerror=alert(1)>'")


def test_css_colors_are_taken(tmp_path):
    good = ["red", "RebeccaPurple", "transparent", "#fff", "#ffff", "#1f77b4", "#1f77b480", "rgb(1, 2, 3)",
            "rgba(255,0,0,0.5)", "rgb(10% 20% 30% / .5)", "hsl(120deg, 50%, 40%)", "hsla(0.5turn 50% 50% / 50%)"]
    root = parse(tf.vis.render.linechart(tmp_path / "ok.svg", {f"s{i}": [(0, i)] for i in range(len(good))},
                                         series_colors=good))
    fills = [g.get("fill") for g in root.findall(".//s:g[@class='series']", NS)]
    assert fills == [c.lower() if c.isalpha() else c for c in good]
    bar = parse(tf.vis.render.barchart(tmp_path / "b.svg", [1.0], color=["#abc", "red"]))
    assert bar.find(".//s:rect[@class='bar']", NS).get("fill") == "#abc"
    assert not svg.is_color("blac\u212a")                       # KELVIN SIGN lower-cases to k: not a name


@pytest.mark.parametrize("option, bad", [("width", '400" onload="alert(1)'), ("height", "1e3"), ("width", -5),
                                         ("height", 0), ("width", float("inf")), ("width", float("nan")),
                                         ("height", True)])
def test_sizes_must_be_positive_finite_numbers(tmp_path, option, bad):
    for name, call in _charts_with_options():
        with pytest.raises(ValueError, match=rf"^vis\.{name}: option '{option}' must be a positive finite number"):
            call(tmp_path / f"{name}.svg", **{option: bad})
    assert not list(tmp_path.iterdir())


def test_bins_and_domains_are_checked(tmp_path):
    for name in ("histogram", "layer", "values_distribution"):
        call = dict(_charts_with_options())[name]
        for bad in ("5", 0, 2.5, 10 ** 9, '3"><script>'):
            with pytest.raises(ValueError, match=rf"^vis\.{name}: option 'max_bins' must be a whole number"):
                call(tmp_path / "h.svg", maxBins=bad)
    for name, option in (("linechart", "yAxisDomain"), ("scatterplot", "xAxisDomain"), ("heatmap", "domain"),
                         ("history", "yAxisDomain")):
        call = dict(_charts_with_options())[name]
        for bad in ([0, "1<img>"], [0], [0, float("nan")], "01"):
            snake = {"yAxisDomain": "y_axis_domain", "xAxisDomain": "x_axis_domain"}.get(option, option)
            with pytest.raises(ValueError, match=rf"^vis\.{name}: option '{snake}' must be two finite numbers"):
                call(tmp_path / "d.svg", **{option: bad})
    out = tf.vis.render.linechart(tmp_path / "ok.svg", [1.0, 2.0], width=300.5, height=200, yAxisDomain=(0, 4))
    assert parse(out).get("width") == "300.5"


def test_hostile_text_is_drawn_as_text_by_every_function(tmp_path):
    h, r, s = HOSTILE, tf.vis.render, tf.vis.show
    o = {"title": h, "xLabel": h, "yLabel": h}
    assert_inert(r.linechart(tmp_path / "l.svg", {"values": [[1.0, 2.0], [2.0, 1.0]], "series": [h, "b"]}, o), h)
    assert_inert(r.scatterplot(tmp_path / "s.svg", {h: [(0, 1)], "b": [(1, 2)]}, o), h)
    assert_inert(r.barchart(tmp_path / "b.svg", [{"index": h, "value": 1}], o), h)
    assert_inert(r.histogram(tmp_path / "h.svg", [1.0, 2.0], o), h)
    assert_inert(r.heatmap(tmp_path / "hm.svg", {"values": [[1.0, 2.0]], "xTickLabels": [h], "yTickLabels": [h, h]},
                           o), h)
    assert_inert(r.confusion_matrix(tmp_path / "cm.svg", {"values": [[1, 2], [3, 4]], "tickLabels": [h, h]}, o), h)
    assert_inert(r.table(tmp_path / "t.svg", {"headers": [h], "values": [[h], ["<script>alert(1)</script>"]]},
                         title=h), h, "<script>alert(1)</script>")
    model = _model(name=h)
    cb = s.fit_callbacks(tmp_path / "fit.svg", [h], x_label=h)
    cb.on_batch_end(0, {h: 1.0})
    cb.on_epoch_end(0, {h: 0.5})
    assert_inert(tmp_path / "fit.svg", h)
    assert_inert(s.history(tmp_path / "hist.svg", [{h: 1.0}, {h: 0.5}], [h]), h)
    assert_inert(s.model_summary(tmp_path / "ms.svg", model, title=h), h)
    assert_inert(s.model_summary(tmp_path / "ms2.svg", model), h)           # the model's name is the title
    assert_inert(s.layer(tmp_path / "ly.svg", model.layers[0]), h + "/kernel")
    assert_inert(s.values_distribution(tmp_path / "vd.svg", tf.tensor([1.0, 2.0])))


def test_text_xml_cannot_hold_becomes_a_replacement_character(tmp_path):
    out = tf.vis.render.linechart(tmp_path / "x.svg", {"values": [[1.0, 2.0]], "series": ["a\x00b\x1b\ud800"]},
                                  title="t\x0c")
    root = parse(out)                                           # well-formed: ET would refuse a NUL
    assert root.find(".//s:path[@class='series']", NS).get("data-name") == "a\ufffdb\ufffd\ufffd"


def test_surface_names_make_safe_file_names(tmp_path):
    tf.vis.set_output_dir(tmp_path / "visor")
    try:
        out = tf.vis.render.linechart(tf.vis.visor().surface(HOSTILE + "/../x", tab="../" + HOSTILE), [1.0, 2.0])
        assert (tmp_path / "visor") in __import__("pathlib").Path(out).resolve().parents
        assert "<" not in out and ">" not in out and '"' not in out
    finally:
        tf.vis.set_output_dir("tfvis")
