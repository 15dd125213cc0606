"""The model zoo (pytfweb/host/zoo.py) on the cpu backend: each real TF.js graph model, fed its
catalog photo (decoded by Pillow, prepared by zoo.prepare), gives every output as TensorFlow.js
4.22 does on the same input values (pure JS @tensorflow/tfjs on its cpu backend, run in node by
tests/zoo_reference.mjs once for all models)."""
import asyncio
import json
import os
import subprocess

import numpy as np
import pytest
from PIL import Image

import pytfweb as tf
from pytfweb.host import zoo

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
REFERENCE = os.path.join(ROOT, "tests", "zoo_reference.mjs")

# Tolerance of a float32 output: TF.js's own test epsilon (expectArraysClose: 1e-3) times the
# output's scale (its largest magnitude, at least 1), since the models' outputs range from
# probabilities to pixel coordinates in the hundreds, where 1e-3 absolute is below float32's
# rounding of the sums behind them.
EPSILON = 1e-3

# Models with dynamic ops (control flow, NonMaxSuppression): they run node by node every time;
# the others replay a recorded kernel plan from their second run on.
# models with value-dependent ops: the recorded plans of their static islands ([] for none), in order
DYNAMIC = {"handtrack": [True, True, True]}


def photo_pixels(name):
    """A catalog photo as int32 [height, width, 3] RGB values (what tf.browser.from_pixels gives)."""
    with Image.open(zoo.assets_dir() / name) as img:
        return np.asarray(img.convert("RGB"), dtype=np.int32)


def model_input(model):
    tf.set_backend("cpu")
    pixels = tf.tensor(photo_pixels(model.photo))
    x = zoo.prepare(pixels, model)
    try:
        return x.numpy()
    finally:
        tf.dispose([pixels, x])


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """{model name: (input array, [TF.js output {name, shape, dtype, values}, ...])}, all models
    in one node run."""
    d = tmp_path_factory.mktemp("zoo")
    cases, inputs = [], {}
    for m in zoo.MODELS:
        x = model_input(m)
        inputs[m.name] = x
        x.astype(x.dtype.newbyteorder("<")).tofile(d / f"{m.name}.bin")
        path = zoo.model_json(m.name)
        cases.append({"name": m.name, "model": str(path), "input": str(d / f"{m.name}.bin"),
                      "shape": list(x.shape), "dtype": str(x.dtype)})
    (d / "cases.json").write_text(json.dumps(cases))
    r = subprocess.run(["node", REFERENCE, str(d / "cases.json"), str(d / "results.json")],
                       capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert r.returncode == 0, f"node {REFERENCE} failed:\n{r.stderr}"
    results = json.loads((d / "results.json").read_text())
    return {name: (inputs[name], results[name]) for name in inputs}


def compare_outputs(model_name, got, want):
    """Every output: name, shape and dtype as TF.js gives, values within the model's tolerance."""
    assert [o["name"] for o in want] == [name for name, _ in got], model_name
    for (name, t), w in zip(got, want):
        where = f"{model_name} output {name}"
        assert list(t.shape) == w["shape"], f"{where}: shape {list(t.shape)}, TF.js {w['shape']}"
        assert t.dtype == w["dtype"], f"{where}: dtype {t.dtype}, TF.js {w['dtype']}"
        expected = np.array([np.nan if v is None else v for v in w["values"]],
                            dtype=np.float32 if w["dtype"] == "float32" else None).reshape(w["shape"])
        actual = t.numpy()
        if w["dtype"] == "float32":
            scale = max(1.0, float(np.nanmax(np.abs(expected))) if expected.size else 1.0)
            atol = EPSILON * scale
            np.testing.assert_allclose(actual, expected, rtol=0, atol=atol, equal_nan=True, err_msg=where)
        else:
            np.testing.assert_array_equal(actual, expected, err_msg=where)


@pytest.mark.parametrize("model", zoo.MODELS, ids=lambda m: m.name)
def test_zoo_model_matches_tfjs(model, reference):
    x_values, want = reference[model.name]
    before = tf.memory()["num_tensors"]
    graph = tf.load_graph_model_sync(str(zoo.model_json(model.name)))
    names = [o["name"] for o in want]
    assert [o.name for o in graph.outputs] == names, f"{model.name}: outputs {graph.outputs}, TF.js {names}"
    x = tf.tensor(x_values)
    outs = asyncio.run(graph.execute_async(x, names))
    outs = outs if isinstance(outs, list) else [outs]
    # the second run replays the kernel plan the first recorded (static graphs: converter/executor.py)
    again = asyncio.run(graph.execute_async(x, names))
    again = again if isinstance(again, list) else [again]
    try:
        compare_outputs(model.name, list(zip(names, outs)), want)
        recorded = [p is not None for node_plan in graph.executor.node_plans.values()
                    for p in node_plan.recorded.values()]
        # a dynamic graph's static islands record their own (handtrack's: the network between its
        # preprocessing loop and its non-max suppression, the boxes' decoding; and the part after the
        # suppression, whose reads of the kept boxes are guards: it replays while they stay the same)
        want_recorded = DYNAMIC.get(model.name, [True])
        assert recorded == want_recorded, f"{model.name}: recorded plans {recorded}"
        for name, first, replayed in zip(names, outs, again):
            np.testing.assert_array_equal(replayed.numpy(), first.numpy(), err_msg=f"{model.name} {name} replayed")
    finally:
        tf.dispose([x, *outs, *again])
        graph.dispose()
    assert tf.memory()["num_tensors"] == before, f"{model.name}: tensors left after dispose"
