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
