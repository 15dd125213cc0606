"""tf.io.http in the page (webgl session) against a hostile server: a model.json that never comes, a
weight shard that stalls mid-body or holds more than its manifest declares, a manifest naming files
outside the model's URL folder, and a model.json nested too deep. Each ends in a clear ValueError
within its timeout; the good model loads and predicts on the page's backend afterwards. The shard's
stall, flood and absence also through tf.load_graph_model, whose single weight file is read into its
arrays inside http_reader.js's fetchModel; a too-deep model.json whose manifest the browser's parser
reads (its weight requests sent, then abandoned) and a manifest only Python's checks refuse fail as
the plain path does."""
import json
import urllib.parse

from pytfweb.io import weights as W
from pytfweb.io.artifacts import ModelArtifacts, model_json_for

TOPOLOGY = {"class_name": "Sequential", "config": {"name": "s", "layers": [
    {"class_name": "Dense", "config": {"units": 2, "name": "d", "batch_input_shape": [None, 3]}}]}}
SPECS = [{"name": "d/kernel", "shape": [3, 2], "dtype": "float32"}, {"name": "d/bias", "shape": [2], "dtype": "float32"}]
WEIGHTS = bytes(32)


def _model_json(paths=("w.bin",)):
    a = ModelArtifacts(model_topology=TOPOLOGY, format="layers-model", weight_specs=SPECS)
    return json.dumps(model_json_for(a, W.weights_manifest(SPECS, list(paths)))).encode()


_CODE = '''
import time
async def error_of(coro):
    start = time.monotonic()
    try:
        await coro
    except Exception as e:
        return [type(e).__name__, str(e), time.monotonic() - start]
    return None

def load(folder, **init):
    return tf.io.http(origin + "/hostile-http/" + folder + "/model.json", request_init=init or None).load()

out = {}
out["hang"] = await error_of(load("hang", timeout=1))
out["stall"] = await error_of(load("stall", timeout=1))
out["flood"] = await error_of(load("flood"))
out["outside"] = await error_of(load("outside"))
out["encoded"] = await error_of(load("encoded"))
out["deep"] = await error_of(load("deep"))
out["deep_manifest"] = await error_of(load("deepmanifest"))
out["refused"] = await error_of(load("refused"))
for folder, init in (("stall", {"timeout": 1}), ("flood", None), ("gone", None)):
    out["graph_" + folder] = await error_of(tf.load_graph_model(origin + "/hostile-http/" + folder + "/model.json",
                                                                request_init=init))
before = tf.memory()["num_tensors"]
model = await tf.load_layers_model(origin + "/hostile-http/ok/model.json")
out["predict"] = model.predict(tf.ones([1, 3])).array_sync() if hasattr(model.predict(tf.ones([1, 3])), "array_sync") \\
    else model.predict(tf.ones([1, 3])).data_sync().tolist()
out["backend"] = tf.get_backend()
result = out
'''


def test_hostile_http_in_the_page(run_py, page_harness):
    requested = []

    def handle(route):
        path = urllib.parse.urlsplit(route.request.url).path
        requested.append(path)
        folder, _, name = path.removeprefix("/hostile-http/").rpartition("/")
        if folder == "hang":
            return None                                  # never fulfilled: the request hangs
        if name == "model.json":
            body = {"outside": _model_json(["../secret.bin"]), "encoded": _model_json(["%2e%2e/secret.bin"]),
                    "deep": b"[" * 100000 + b"]" * 100000,
                    "deepmanifest": _model_json()[:-1] + b', "x": ' + b"[" * 100000 + b"]" * 100000 + b"}",
                    "refused": _model_json().replace(b'"float32"', b'"float64"', 1)}.get(folder, _model_json())
            return route.fulfill(status=200, body=body, content_type="application/json")
        if folder == "stall":
            return None                                  # the shard's response never comes
        if folder == "gone":
            return route.fulfill(status=404, body=b"not found")
        if folder == "flood":
            return route.fulfill(status=200, body=b"\0" * (4 << 20), content_type="application/octet-stream")
        return route.fulfill(status=200, body=WEIGHTS, content_type="application/octet-stream")

    page = page_harness.page
    origin = page.url.split("/run.html")[0]
    page.route("**/hostile-http/**", handle)
    try:
        out = run_py(_CODE, origin=origin)
    finally:
        page.unroute("**/hostile-http/**", handle)

    for key in ("hang", "stall"):
        kind, message, seconds = out[key]
        assert kind == "ValueError" and "within 1 s" in message and "timeout" in message, out[key]
        assert seconds < 10
    assert out["flood"][0] == "ValueError" and "more than the 32 allowed" in out["flood"][1]
    for key in ("outside", "encoded"):
        assert out[key][0] == "ValueError" and "leaves the model's folder" in out[key][1]
    assert not any("secret" in p for p in requested)
    for key in ("deep", "deep_manifest"):
        assert out[key][0] == "ValueError" and "MAX_NESTING_DEPTH" in out[key][1], out[key]
    assert out["refused"][0] == "ValueError" and "unsupported dtype 'float64'" in out["refused"][1], out["refused"]
    kind, message, seconds = out["graph_stall"]
    assert kind == "ValueError" and "within 1 s" in message and seconds < 10, out["graph_stall"]
    assert out["graph_flood"][0] == "ValueError" and "more than the 32 allowed" in out["graph_flood"][1]
    assert out["graph_gone"][0] == "ValueError" and "w.bin failed with status code 404" in out["graph_gone"][1]
    assert out["predict"] == [[0.0, 0.0]]
    assert out["backend"] in ("webgl", "webgpu")
