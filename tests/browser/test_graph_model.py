"""Graph models on the session's GPU backend (webgl; webgpu with PYTFWEB_TEST_BACKEND=webgpu) in
the page against the cpu backend here: the MobileNet-v1-like net (fused convolutions, depthwise,
batch norm, pools, softmax) through predict, and the TF1 control-flow LSTM (frames,
TensorArrays) and the TF2 While LSTM through execute_async."""
import asyncio
import base64
from concurrent.futures import ThreadPoolExecutor

import numpy as np

import pytfweb as tf
from tests.graph_models import mobilenet_v1, tf1_lstm, tf2_while_lstm

from .conftest import BACKEND

_PAGE = '''
import base64

def load(a):
    a = dict(a)
    a["weightData"] = base64.b64decode(a["weightData"])
    return tf.load_graph_model_sync(tf.io.from_memory(a))

before = tf.memory()["num_tensors"]
out = {}
for name, case in cases.items():
    model = load(case["artifacts"])
    feeds = {k: tf.tensor(v["values"], v["shape"], "float32") for k, v in case["inputs"].items()}
    if case["outputs"] is None:
        got = [model.predict(feeds)]
    else:
        got = await model.execute_async(feeds, case["outputs"])
    out[name] = [await t.array() for t in got]
    tf.dispose(got)
    tf.dispose(list(feeds.values()))
    model.dispose()
result = {"outputs": out, "leaked": tf.memory()["num_tensors"] - before, "backend": tf.get_backend()}
'''

CASES = {"mobilenet_v1": (mobilenet_v1, None), "tf1_lstm": (tf1_lstm, ["rnn/outputs", "rnn/final_h"]),
         "tf2_while_lstm": (tf2_while_lstm, ["outputs", "final_h"])}


def _cpu(artifacts, inputs, outputs):
    """The outputs on the cpu backend here (in a thread: Playwright's event loop runs in this one)."""
    tf.set_backend("cpu")
    model = tf.load_graph_model_sync(tf.io.from_memory(artifacts))
    feeds = {k: tf.tensor(v) for k, v in inputs.items()}
    try:
        if outputs is None:
            got = [model.predict(feeds)]
        else:
            with ThreadPoolExecutor(1) as pool:
                got = pool.submit(asyncio.run, model.execute_async(feeds, outputs)).result()
        values = [t.numpy() for t in got]
        tf.dispose(got)
        return values
    finally:
        tf.dispose(list(feeds.values()))
        model.dispose()


def test_graph_models_on_webgl_match_cpu(run_py):
    page_cases, expected = {}, {}
    for name, (build, outputs) in CASES.items():
        b, sig, inputs = build(np.random.default_rng(11))
        artifacts = b.artifacts(signature=sig)
        expected[name] = _cpu(artifacts, inputs, outputs)
        sent = dict(artifacts, weightData=base64.b64encode(artifacts["weightData"]).decode("ascii"))
        page_cases[name] = {"artifacts": sent, "outputs": outputs,
                            "inputs": {k: {"values": v.ravel().tolist(), "shape": list(v.shape)}
                                       for k, v in inputs.items()}}
    result = run_py(_PAGE, cases=page_cases)
    assert result["backend"] == BACKEND
    assert result["leaked"] == 0
    for name, want in expected.items():
        got = result["outputs"][name]
        assert len(got) == len(want), name
        for k, (g, w) in enumerate(zip(got, want)):
            np.testing.assert_allclose(np.asarray(g, np.float32), w, rtol=1e-4, atol=1e-5, err_msg=f"{name} output {k}")


def test_http_load_parses_the_graph_while_the_weights_download(run_py):
    """tf.load_graph_model over http:// in the page parses the graph once its weight requests are
    sent and before their bodies are read (the parse overlaps the download), parses it once, and
    gives the model a load without the overlap gives; a Python fetch_func makes every request."""
    out = run_py('''
import importlib, js
from pyodide.ffi import create_proxy
gm, http = importlib.import_module("pytfweb.converter.graph_model"), importlib.import_module("pytfweb.io.http")
events, parse, helpers = [], gm.parse_graph, http._js_helpers()
read_into = helpers.readInto
def fetch_func(url, init):
    events.append("request " + url.rsplit("/", 1)[-1])
    return js.fetch(url, init)
def parse_graph(*args):
    events.append("parse")
    return parse(*args)
log = create_proxy(events.append)
# (one weight file: read into its tensors' arrays as it arrives, inside http_reader.js's fetchModel)
helpers.readInto = js.Function.new("read, log", "return async function (...a) { const n = await read.apply(this, a);"
                                   " log('bodies read'); return n; }")(read_into, log)
gm.parse_graph = parse_graph
try:
    model = await tf.load_graph_model("/zoo/models/iris.json", fetch_func=fetch_func)
finally:
    gm.parse_graph, helpers.readInto = parse, read_into
    log.destroy()
plain = await tf.load_graph_model("/zoo/models/iris.json")
result = {"events": events, "same": [model.inputs[0].shape, model.output_nodes, len(model.weights)] ==
          [plain.inputs[0].shape, plain.output_nodes, len(plain.weights)]}
model.dispose()
plain.dispose()
''')
    assert out["events"] == ["request iris.json", "request iris.bin", "parse", "bodies read"]
    assert out["same"]


def _quantized_model():
    """(model.json bytes, weight bytes) of z = x * w + h: w uint8-quantized, h float16, and an int32
    axis between them (odd offsets: a 1-byte-per-value weight first)."""
    import json
    w = {"name": "w", "shape": [3], "dtype": "float32", "quantization": {"dtype": "uint8", "scale": 0.5, "min": -1.0}}
    a = {"name": "a", "shape": [], "dtype": "int32"}
    h = {"name": "h", "shape": [3], "dtype": "float32", "quantization": {"dtype": "float16"}}
    data = bytes([0, 255, 3]) + np.array([0], "<i4").tobytes() + np.array([1.5, -2, 0.25], "<f2").tobytes()
    nodes = [{"name": "x", "op": "Placeholder", "attr": {"dtype": {"type": "DT_FLOAT"},
                                                        "shape": {"shape": {"dim": [{"size": "3"}]}}}}]
    nodes += [{"name": n, "op": "Const", "attr": {"dtype": {"type": t}, "value": {"tensor": {"dtype": t}}}}
              for n, t in (("w", "DT_FLOAT"), ("a", "DT_INT32"), ("h", "DT_FLOAT"))]
    nodes += [{"name": "y", "op": "Mul", "input": ["x", "w"], "attr": {"T": {"type": "DT_FLOAT"}}},
              {"name": "z", "op": "AddV2", "input": ["y", "h"], "attr": {"T": {"type": "DT_FLOAT"}}}]
    model_json = {"format": "graph-model", "modelTopology": {"node": nodes},
                  "weightsManifest": [{"paths": ["w.bin"], "weights": [w, a, h]}]}
    return json.dumps(model_json).encode(), data


def test_http_load_dequantizes_a_weight_file_as_it_downloads(run_py, page_harness):
    """tf.load_graph_model over http:// in the page dequantizes a single weight file's quantized
    weights as its bytes arrive (not again after), giving the values decode_weights gives from the
    same bytes; a file shorter or longer than its manifest says fails as the plain read does, and
    nothing is left behind."""
    import urllib.parse
    model_json, data = _quantized_model()
    bodies = {"ok": data, "short": data[:-1], "long": data + b"\0" * 1000}

    def handle(route):
        folder, _, name = urllib.parse.urlsplit(route.request.url).path.removeprefix("/streamed/").rpartition("/")
        body = model_json if name == "model.json" else bodies[folder]
        return route.fulfill(status=200, body=body, content_type="application/octet-stream")

    page = page_harness.page
    page.route("**/streamed/**", handle)
    try:
        out = run_py('''
import importlib
http, weights = importlib.import_module("pytfweb.io.http"), importlib.import_module("pytfweb.io.weights")
streamed, kernel, plan, fn = [], [], http.stream_plan, weights.dequantize_fn
def counted(*args):
    streamed.append(1)
    return plan(*args)
def counted_fn():
    kernel.append(1)
    return fn()
http.stream_plan, weights.dequantize_fn = counted, counted_fn
before = tf.memory().num_tensors
errors = {}
try:
    model = await tf.load_graph_model("/streamed/ok/model.json")
    for folder in ("short", "long"):
        try:
            await tf.load_graph_model(f"/streamed/{folder}/model.json")
        except ValueError as e:
            errors[folder] = str(e)
finally:
    http.stream_plan, weights.dequantize_fn = plan, fn
x = tf.tensor([1, 1, 1])
z = model.execute({"x": x}, "z")
plain = tf.io.decode_weights(model.artifacts.weight_data, model.artifacts.weight_specs)
result = {"streamed": len(streamed), "kernel": len(kernel), "z": z.data_sync().tolist(), "errors": errors,
          "same": all(bytes(plain[k].data_sync()) == bytes(model.weights[k][0].data_sync()) for k in plain)}
tf.dispose([x, z, *plain.values()])
model.dispose()
result["left"] = tf.memory().num_tensors - before
''')
    finally:
        page.unroute("**/streamed/**", handle)
    assert out["streamed"] == 3 and out["kernel"] == 0   # every load streamed; the good one decoded nothing again
    assert out["z"] == [0.5, 124.5, 0.75] and out["same"]
    assert "hold 12 bytes where the weights declare 13" in out["errors"]["short"], out["errors"]
    assert "more than the 13 allowed" in out["errors"]["long"], out["errors"]
    assert out["left"] == 0
