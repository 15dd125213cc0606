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
    gives the model a load without the overlap gives."""
    out = run_py('''
import importlib, js
gm, http = importlib.import_module("pytfweb.converter.graph_model"), importlib.import_module("pytfweb.io.http")
events, parse, joined = [], gm.parse_graph, http._joined_js_buffers
def fetch_func(url, init):
    events.append("request " + url.rsplit("/", 1)[-1])
    return js.fetch(url, init)
def parse_graph(*args):
    events.append("parse")
    return parse(*args)
def joined_js_buffers(buffers):
    events.append("bodies read")
    return joined(buffers)
gm.parse_graph, http._joined_js_buffers = parse_graph, joined_js_buffers
try:
    model = await tf.load_graph_model("/zoo/models/iris.json", fetch_func=fetch_func)
finally:
    gm.parse_graph, http._joined_js_buffers = parse, joined
plain = await tf.load_graph_model("/zoo/models/iris.json")
result = {"events": events, "same": [model.inputs[0].shape, model.output_nodes, len(model.weights)] ==
          [plain.inputs[0].shape, plain.output_nodes, len(plain.weights)]}
model.dispose()
plain.dispose()
''')
    assert out["events"] == ["request iris.json", "request iris.bin", "parse", "bodies read"]
    assert out["same"]
