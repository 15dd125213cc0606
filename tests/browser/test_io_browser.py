"""tf.io in the page: indexeddb:// and localstorage:// in TF.js 4.22's layouts (read raw from the
page, and by TensorFlow.js itself in the same origin, both ways), model management, a second page
of the same origin reading what the first saved, http(s):// through fetch (progress, fetch_func,
request_init, TF.js's multipart save), downloads:// and browser_files.

Model artifacts are made with the weights helpers (the topology is data); the shared page is left
as it was found: every model a test saves is removed, every route unrouted."""
import base64
import email.parser
import email.policy
import json
import time
import urllib.parse

import pytest

import pytfweb as tf
from pytfweb.host import browser_config, paths

from .conftest import _PAGE_SETUP, Harness, PageError

TOPOLOGY = {"class_name": "Sequential", "config": {"name": "io_test", "layers": [
    {"class_name": "Dense", "config": {"units": 3, "name": "dense", "use_bias": True, "kernel_regularizer": None,
                                       "batch_input_shape": [None, 2], "dtype": "float32"}}]},
    "keras_version": "tfjs-layers 4.22.0", "backend": "tensor_flow.js"}

# Runs on both sides: in the page (before each snippet) and here on the cpu backend (the expected values).
_HELPERS = '''
import base64
from pytfweb.io import router as _router
from pytfweb.io.artifacts import ModelArtifacts


def make_artifacts():
    ts = {"dense/kernel": tf.tensor([[0.5, -1.25, 3.0], [2.0, 0.0, -0.75]]), "dense/bias": tf.tensor([0.1, 0.2, 0.3]),
          "count": tf.tensor([3, -4], dtype="int32")}
    data, specs = tf.io.encode_weights(ts)
    tf.dispose(list(ts.values()))
    return ModelArtifacts(model_topology=TOPOLOGY, weight_specs=specs, weight_data=data, format="layers-model",
                          generated_by="pytfweb io test", converted_by=None, user_defined_metadata={"note": "\u00e9"})


def plain(a):
    return {"topology": a.model_topology, "specs": a.weight_specs, "format": a.format,
            "generated_by": a.generated_by, "converted_by": a.converted_by, "metadata": a.user_defined_metadata,
            "weights": None if a.weight_data is None else base64.b64encode(a.weight_data).decode()}


async def load(url, **options):
    return await _router.load_artifacts(_router.resolve_load_handler(url, "test", **options), "test")


async def save(url, artifacts):
    return await _router.save_artifacts(_router.resolve_save_handler(url, "test"), artifacts, "test")


async def error_of(coro):
    try:
        await coro
    except Exception as e:
        return [type(e).__name__, str(e)]
    return None


def error_of_call(fn):
    try:
        fn()
    except Exception as e:
        return [type(e).__name__, str(e)]
    return None
'''


def _expected():
    tf.set_backend("cpu")
    ns = {"tf": tf, "TOPOLOGY": TOPOLOGY}
    exec(_HELPERS, ns)  # noqa: S102 - the test's own source
    a = ns["make_artifacts"]()
    return a, ns["plain"](a)


def _run(run, code, **variables):
    return run(_HELPERS + code, TOPOLOGY=TOPOLOGY, **variables)


def _cleanup(run, urls):
    _run(run, "for u in urls:\n    await error_of(tf.io.remove_model(u))", urls=urls)


# --- IndexedDB and localStorage ------------------------------------------------------------------------------
_STORES = '''
a = make_artifacts()
out = {"saved": {}, "loaded": {}}
for url in ("indexeddb://io-test/a", "localstorage://io-test/a"):
    out["saved"][url] = (await save(url, a)).model_artifacts_info.weight_data_bytes
    out["loaded"][url] = plain(await load(url))
out["listed"] = {k: v for k, v in (await tf.io.list_models()).items() if "io-test/" in k}
out["copy"] = await tf.io.copy_model("indexeddb://io-test/a", "localstorage://io-test/copied")
out["move"] = await tf.io.move_model("localstorage://io-test/copied", "indexeddb://io-test/moved")
out["move_same_store"] = await tf.io.move_model("indexeddb://io-test/moved", "indexeddb://io-test/moved2")
out["moved"] = plain(await load("indexeddb://io-test/moved2"))
out["after_move"] = sorted(k for k in await tf.io.list_models() if "io-test/" in k)
out["errors"] = {
    "onto_itself": await error_of(tf.io.move_model("indexeddb://io-test/a", "indexeddb://io-test/a")),
    "no_scheme": await error_of(tf.io.remove_model("io-test/a")),
    "unknown_scheme": await error_of(tf.io.remove_model("foo://io-test/a")),
    "missing_idb": await error_of(tf.io.remove_model("indexeddb://io-test/missing")),
    "missing_ls": await error_of(tf.io.remove_model("localstorage://io-test/missing")),
    "load_missing_idb": await error_of(load("indexeddb://io-test/missing")),
    "load_missing_ls": await error_of(load("localstorage://io-test/missing")),
    "copy_missing": await error_of(tf.io.copy_model("indexeddb://io-test/missing", "indexeddb://io-test/b")),
    "empty_name": await error_of(load("indexeddb://")),
    "downloads_load": await error_of(load("downloads://io-test")),
}
out["removed"] = await tf.io.remove_model("indexeddb://io-test/moved2")
out["after_remove"] = sorted(k for k in await tf.io.list_models() if "io-test/" in k)
result = out
'''

# Reads TF.js's database and keys directly, without pytfweb.
_RAW_LAYOUT_JS = """
async (path) => {
  const db = await new Promise((res, rej) => {
    const r = indexedDB.open('tensorflowjs'); r.onsuccess = () => res(r.result); r.onerror = () => rej(r.error); });
  const get = (store, key) => new Promise((res, rej) => {
    const r = db.transaction(store, 'readonly').objectStore(store).get(key);
    r.onsuccess = () => res(r.result); r.onerror = () => rej(r.error); });
  const m = await get('models_store', path), i = await get('model_info_store', path);
  const stores = [...db.objectStoreNames].sort();
  const out = {
    version: db.version, stores,
    keyPaths: stores.map(s => db.transaction(s, 'readonly').objectStore(s).keyPath),
    modelKeys: Object.keys(m).sort(), artifactKeys: Object.keys(m.modelArtifacts).sort(),
    weightDataIsArrayBuffer: m.modelArtifacts.weightData instanceof ArrayBuffer,
    weightData: btoa(String.fromCharCode(...new Uint8Array(m.modelArtifacts.weightData))),
    convertedBy: m.modelArtifacts.convertedBy,
    dateIsDate: m.modelArtifactsInfo.dateSaved instanceof Date,
    infoKeys: Object.keys(i).sort(), infoDateIsDate: i.modelArtifactsInfo.dateSaved instanceof Date,
    info: i.modelArtifactsInfo,
    lsKeys: Object.keys(localStorage).filter(k => k.startsWith(`tensorflowjs_models/${path}/`)).sort(),
    lsWeights: localStorage.getItem(`tensorflowjs_models/${path}/weight_data`),
    lsInfo: JSON.parse(localStorage.getItem(`tensorflowjs_models/${path}/info`)),
    lsMetadata: JSON.parse(localStorage.getItem(`tensorflowjs_models/${path}/model_metadata`)),
  };
  db.close();
  return out;
}
"""


def test_indexeddb_and_localstorage_round_trip_and_management(run_py, page_harness):
    _, want = _expected()
    try:
        out = _run(run_py, _STORES)
        raw = page_harness.page.evaluate(_RAW_LAYOUT_JS, "io-test/a")
    finally:
        _cleanup(run_py, ["indexeddb://io-test/a", "localstorage://io-test/a", "localstorage://io-test/copied",
                          "indexeddb://io-test/moved", "indexeddb://io-test/moved2"])
    weight_bytes = len(base64.b64decode(want["weights"]))
    for url in ("indexeddb://io-test/a", "localstorage://io-test/a"):
        assert out["saved"][url] == weight_bytes
        assert out["loaded"][url] == want, url
    assert sorted(out["listed"]) == ["indexeddb://io-test/a", "localstorage://io-test/a"]
    for info in out["listed"].values():
        assert info["modelTopologyType"] == "JSON" and info["weightDataBytes"] == weight_bytes
        assert info["modelTopologyBytes"] == len(json.dumps(TOPOLOGY, separators=(",", ":")).encode())
        assert info["dateSaved"].endswith("Z")
    assert out["copy"]["weightDataBytes"] == out["move"]["weightDataBytes"] == weight_bytes
    assert out["moved"] == want
    assert out["after_move"] == ["indexeddb://io-test/a", "indexeddb://io-test/moved2", "localstorage://io-test/a"]
    assert out["removed"]["weightDataBytes"] == weight_bytes
    assert "indexeddb://io-test/moved2" not in out["after_remove"]

    err = out["errors"]
    assert err["onto_itself"] == ["ValueError", "move_model: Old path and new path are the same: "
                                                "'indexeddb://io-test/a'"]
    assert "does not contain a scheme. Supported schemes are: localstorage,indexeddb" in err["no_scheme"][1]
    assert "Cannot find model manager for scheme 'foo'" in err["unknown_scheme"][1]
    assert "Cannot find model with path 'io-test/missing' in IndexedDB." in err["missing_idb"][1]
    assert "Cannot find model at path 'io-test/missing'" in err["missing_ls"][1]
    assert "Cannot find model with path 'io-test/missing' in IndexedDB." in err["load_missing_idb"][1]
    assert "In local storage, there is no model with name 'io-test/missing'" in err["load_missing_ls"][1]
    assert "Cannot find model with path 'io-test/missing'" in err["copy_missing"][1]
    assert "modelPath must not be null, undefined or empty" in err["empty_name"][1]
    assert "downloads:// only saves" in err["downloads_load"][1]

    # TF.js's layout, read without pytfweb.
    assert raw["version"] == 1 and raw["stores"] == ["model_info_store", "models_store"]
    assert raw["keyPaths"] == ["modelPath", "modelPath"]
    assert raw["modelKeys"] == ["modelArtifacts", "modelArtifactsInfo", "modelPath"]
    assert raw["artifactKeys"] == ["convertedBy", "format", "generatedBy", "modelTopology", "userDefinedMetadata",
                                   "weightData", "weightSpecs"]
    assert raw["weightDataIsArrayBuffer"] and raw["weightData"] == want["weights"]
    assert raw["convertedBy"] is None
    assert raw["dateIsDate"] and raw["infoKeys"] == ["modelArtifactsInfo", "modelPath"] and raw["infoDateIsDate"]
    assert raw["info"]["weightDataBytes"] == weight_bytes
    assert raw["lsKeys"] == [f"tensorflowjs_models/io-test/a/{k}" for k in
                             ("info", "model_metadata", "model_topology", "weight_data", "weight_specs")]
    assert raw["lsWeights"] == want["weights"]
    assert raw["lsInfo"]["weightDataBytes"] == weight_bytes
    assert raw["lsMetadata"] == {"format": "layers-model", "generatedBy": "pytfweb io test", "convertedBy": None,
                                 "userDefinedMetadata": {"note": "\u00e9"}}


# --- http(s):// ----------------------------------------------------------------------------------------------
_HTTP = '''
import js
from pyodide.ffi import create_proxy
out = {}
url = origin + "/io-test-http/m/model.json"
progress = []
out["absolute"] = plain(await load(url, on_progress=progress.append, request_init={"headers": {"X-Test": "yes"}}))
out["progress"] = progress
out["relative"] = plain(await load("/io-test-http/m/model.json"))   # no scheme: fetched relative to the page

fetched = []
async def py_fetch(u, init):
    fetched.append(u)
    return await js.fetch(u, init)
out["py_fetch"] = plain(await tf.io.http(url, fetch_func=py_fetch).load())
out["py_fetched"] = fetched
js_fetch = js.fetch
out["js_fetch"] = plain(await tf.io.http(url, fetch_func=js_fetch).load())
out["prefix"] = plain(await tf.io.http(origin + "/io-test-http/only/model.json",
                                       weight_path_prefix=origin + "/io-test-http/m/").load())
out["missing"] = await error_of(load(origin + "/io-test-http/none/model.json"))
out["missing_shard"] = await error_of(load(origin + "/io-test-http/broken/model.json"))
out["unreachable"] = await error_of(load("http://127.0.0.1:9/unreachable/model.json"))
out["load_sync"] = error_of_call(tf.io.http(url).load_sync)
a = make_artifacts()
r = await tf.io.http(origin + "/io-test-http/upload", request_init={"headers": {"X-Test": "save"}}).save(a)
out["save_bytes"] = r.model_artifacts_info.weight_data_bytes
out["save_status"] = r.responses[0].status
out["save_500"] = await error_of(save(origin + "/io-test-http/fail", a))
result = out
'''


def _form(headers, body):
    head = f"Content-Type: {headers['content-type']}\r\n\r\n".encode()
    msg = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(head + body)
    return {p.get_param("name", header="content-disposition"): (p.get_filename(), p.get_content_type(),
                                                                 p.get_payload(decode=True)) for p in msg.iter_parts()}


def test_http_load_and_save_in_the_page(run_py, page_harness):
    from pytfweb.io import weights as W
    from pytfweb.io.artifacts import model_json_for
    a, want = _expected()
    shards = W.split_shards(a.weight_data, 15)
    names = W.shard_names(len(shards))
    model_json = json.dumps(model_json_for(a, W.weights_manifest(a.weight_specs, [f"./{n}" for n in names])))
    files = {f"/io-test-http/m/{n}": s for n, s in zip(names, shards)}
    files["/io-test-http/m/model.json"] = model_json.encode()
    files["/io-test-http/only/model.json"] = model_json.encode()
    files["/io-test-http/broken/model.json"] = model_json.encode()   # its shards are missing
    seen = []

    def handle(route):
        req = route.request
        path = urllib.parse.urlsplit(req.url).path
        seen.append({"method": req.method, "path": path, "headers": req.headers, "body": req.post_data_buffer})
        if req.method == "POST":
            return route.fulfill(status=500 if path.endswith("/fail") else 200, body="{}",
                                 content_type="application/json")
        if path in files:
            return route.fulfill(status=200, body=files[path], content_type="application/octet-stream")
        route.fulfill(status=404, body="not found")

    page = page_harness.page
    origin = page.url.split("/run.html")[0]
    page.route("**/io-test-http/**", handle)
    try:
        out = _run(run_py, _HTTP, origin=origin)
    finally:
        page.unroute("**/io-test-http/**", handle)

    for key in ("absolute", "relative", "py_fetch", "js_fetch", "prefix"):
        assert out[key] == want, key
    n = len(shards)
    assert n == 3
    assert out["progress"] == pytest.approx([k / n * 0.5 for k in range(1, n + 1)] +
                                            [0.5 + k / n * 0.5 for k in range(1, n + 1)])
    assert out["py_fetched"] == [f"{origin}/io-test-http/m/model.json"] + [
        f"{origin}/io-test-http/m/./{name}" for name in names]
    with_header = [r for r in seen if r["headers"].get("x-test") == "yes"]
    assert sorted(r["path"] for r in with_header) == sorted(["/io-test-http/m/model.json"] + [
        f"/io-test-http/m/{name}" for name in names])
    assert out["missing"][0] == "ValueError" and out["missing"][1].startswith(
        f"tf.io.http: Request to {origin}/io-test-http/none/model.json failed with status code 404")
    broken = f"{origin}/io-test-http/broken/./{names[0]}"
    assert f"Request to {broken} failed with status code 404" in out["missing_shard"][1]
    assert "load_sync() is not available in the browser" in out["load_sync"][1]
    assert out["unreachable"][0] == "ValueError" and out["unreachable"][1].startswith(
        "tf.io.http: Request to http://127.0.0.1:9/unreachable/model.json failed: ")

    (post,) = [r for r in seen if r["method"] == "POST" and r["path"] == "/io-test-http/upload"]
    assert post["headers"]["x-test"] == "save"
    form = _form(post["headers"], post["body"])
    assert list(form) == ["model.json", "model.weights.bin"]
    assert form["model.json"][:2] == ("model.json", "application/json")
    assert json.loads(form["model.json"][2]) == model_json_for(a, [{"paths": ["./model.weights.bin"],
                                                                     "weights": a.weight_specs}])
    assert form["model.weights.bin"] == ("model.weights.bin", "application/octet-stream", a.weight_data)
    assert out["save_bytes"] == len(a.weight_data) and out["save_status"] == 200
    assert "failed due to HTTP response status 500" in out["save_500"][1]


# --- downloads:// and browser_files ---------------------------------------------------------------------------
_FILES = '''
import js, json
from pytfweb.io import weights as W
from pytfweb.io.artifacts import model_json_for

def file(data, name):
    u8 = js.Uint8Array.new(len(data))
    u8.assign(data)
    return js.File.new(js.Array.of(u8), name)

a = make_artifacts()
out = {}
out["download"] = (await save("downloads://io-test-dl", a)).model_artifacts_info.weight_data_bytes
shards = W.split_shards(a.weight_data, 20)
names = W.shard_names(len(shards))
mj = json.dumps(model_json_for(a, W.weights_manifest(a.weight_specs, ["./" + n for n in names]))).encode()
weights = [file(s, n) for s, n in zip(shards, names)]
out["files"] = plain(await tf.io.browser_files([file(mj, "model.json"), *reversed(weights)]).load())
out["file_list"] = plain(await tf.io.browser_files(js.Array.of(file(mj, "model.json"), *weights)).load())
out["topology_only"] = plain(await tf.io.browser_files([file(mj, "model.json")]).load())
out["missing"] = await error_of(tf.io.browser_files([file(mj, "model.json"), weights[0]]).load())
out["bad_json"] = await error_of(tf.io.browser_files([file(b"{", "m.json")]).load())
out["none"] = error_of_call(lambda: tf.io.browser_files([]))
result = out
'''


def test_downloads_and_browser_files(run_py, page_harness):
    a, want = _expected()
    page = page_harness.page
    downloads = []

    def on_download(download):
        downloads.append(download)
    page.on("download", on_download)
    try:
        out = _run(run_py, _FILES)
        deadline = time.monotonic() + 30
        while len(downloads) < 2 and time.monotonic() < deadline:
            page.wait_for_timeout(100)
    finally:
        page.remove_listener("download", on_download)
    by_name = {d.suggested_filename: d for d in downloads}
    assert sorted(by_name) == ["io-test-dl.json", "io-test-dl.weights.bin"]
    model_json = json.loads(open(by_name["io-test-dl.json"].path(), "rb").read())
    assert model_json["weightsManifest"] == [{"paths": ["./io-test-dl.weights.bin"], "weights": a.weight_specs}]
    assert model_json["modelTopology"] == TOPOLOGY and model_json["format"] == "layers-model"
    assert open(by_name["io-test-dl.weights.bin"].path(), "rb").read() == a.weight_data
    assert out["download"] == len(a.weight_data)

    assert out["files"] == want and out["file_list"] == want
    assert out["topology_only"]["topology"] == TOPOLOGY and out["topology_only"]["weights"] is None
    assert "Weight file with basename 'group1-shard2of3.bin' is not provided." in out["missing"][1]
    assert "Failed to read model topology and weights manifest JSON from file 'm.json'" in out["bad_json"][1]
    assert "at least 1 file is required" in out["none"][1]


# --- a page reload, and TensorFlow.js itself in the same origin -------------------------------------------------
@pytest.fixture
def own_page(browser, server):
    """A page in a browser context of its own (its storage starts empty and the shared page is not
    reloaded): the test saves, reloads it and reads back."""
    if paths.npm_package_dir("@tensorflow/tfjs") is None:
        pytest.skip("@tensorflow/tfjs is not installed (npm ci)")
    context = browser.browser.new_context()
    try:
        page = context.new_page()
        page.set_default_timeout(browser_config.TIMEOUTS["call"])
        page.set_default_navigation_timeout(browser_config.TIMEOUTS["navigation"])
        yield page
    finally:
        context.close()


def _load_pytfweb(browser, server, page):
    """(Re)loads the page with pytfweb imported (no backend: only artifacts are handled)."""
    page, timings = browser.open(server.url, backend=None, page=page)
    page.evaluate("(code) => pytfweb.pyodide.runPython(code)", _PAGE_SETUP)
    return Harness(page, timings)


# TF.js saves a tiny tf.sequential to both stores and keeps what it saved.
_TFJS_SAVE = """
async () => {
  const model = tf.sequential();
  model.add(tf.layers.dense({units: 3, inputShape: [2], name: 'd1'}));
  model.add(tf.layers.dense({units: 1, activation: 'sigmoid', name: 'd2'}));
  let saved;
  await model.save(tf.io.withSaveHandler(async (a) => { saved = a; return {modelArtifactsInfo: {}}; }));
  await model.save('indexeddb://io-test/tfjs');
  await model.save('localstorage://io-test/tfjs');
  const x = tf.tensor2d([[0.5, -1], [2, 3]]);
  const y = Array.from(await model.predict(x).data());
  const b64 = (buf) => btoa(String.fromCharCode(...new Uint8Array(buf)));
  return {topology: saved.modelTopology, specs: saved.weightSpecs, weights: b64(saved.weightData),
          format: saved.format, generatedBy: saved.generatedBy, predict: y};
}
"""

_PY_READS_TFJS = '''
out = {}
for url in ("indexeddb://io-test/tfjs", "localstorage://io-test/tfjs"):
    out[url] = plain(await load(url))
out["copy"] = await tf.io.copy_model("localstorage://io-test/tfjs", "indexeddb://io-test/py-copy")
out["py_save"] = plain(await load("indexeddb://io-test/persist"))
out["py_save_ls"] = plain(await load("localstorage://io-test/persist"))
# LayersModels both ways: tf.load_layers_model reads TF.js's model; TF.js will read this one.
tf.set_backend("webgl")
await tf.ready()
x = tf.tensor([[0.5, -1.0], [2.0, 3.0]])
for name, model in (("tfjs_model", await tf.load_layers_model("indexeddb://io-test/tfjs")),
                    ("py_model", tf.sequential(layers=[tf.layers.dense(units=2, input_shape=[2], activation="tanh",
                                                                         name="p1")]))):
    y = model.predict(x)
    out[name] = [v for row in await y.array() for v in row]
    tf.dispose(y)
    if name == "py_model":
        await model.save("localstorage://io-test/py-model")
    model.dispose()
tf.dispose(x)
result = out
'''

# TF.js reads what pytfweb saved: its own load handlers, listModels, loadLayersModel.
_TFJS_READS_PY = """
async () => {
  const b64 = (buf) => btoa(String.fromCharCode(...new Uint8Array(buf)));
  const out = {};
  for (const url of ['indexeddb://io-test/persist', 'localstorage://io-test/persist', 'indexeddb://io-test/py-copy']) {
    const a = await tf.io.getLoadHandlers(url)[0].load();
    const info = tf.io.getModelArtifactsInfoForJSON(a);
    out[url] = {topology: a.modelTopology, specs: a.weightSpecs, weights: b64(a.weightData), format: a.format,
                generatedBy: a.generatedBy, metadata: a.userDefinedMetadata ?? null,
                infoBytes: [info.modelTopologyBytes, info.weightSpecsBytes, info.weightDataBytes]};
  }
  const listed = await tf.io.listModels();
  out.listed = Object.fromEntries(Object.entries(listed).filter(([k]) => k.includes('io-test/'))
      .map(([k, v]) => [k, [v.modelTopologyBytes, v.weightSpecsBytes, v.weightDataBytes]]));
  const x = tf.tensor2d([[0.5, -1], [2, 3]]);
  const copy = await tf.loadLayersModel('indexeddb://io-test/py-copy');
  out.predict = Array.from(await copy.predict(x).data());
  const pyModel = await tf.loadLayersModel('localstorage://io-test/py-model');
  out.pyModelPredict = Array.from(await pyModel.predict(x).data());
  return out;
}
"""


def test_a_reloaded_page_and_tfjs_share_the_stores(browser, server, own_page):
    _, want = _expected()
    before = _load_pytfweb(browser, server, own_page)
    _run(before.run, 'a = make_artifacts()\nawait save("indexeddb://io-test/persist", a)\n'
                     'await save("localstorage://io-test/persist", a)')
    # A reload: a fresh Pyodide in the same origin reads what the last one saved.
    after = _load_pytfweb(browser, server, own_page)
    own_page.add_script_tag(path=str(paths.npm_package_dir("@tensorflow/tfjs") / "dist" / "tf.min.js"))
    own_page.evaluate("async () => { await tf.setBackend('cpu'); }")
    tfjs_saved = own_page.evaluate(_TFJS_SAVE)
    py = _run(after.run, _PY_READS_TFJS)
    back = own_page.evaluate(_TFJS_READS_PY)
    assert py["py_save"] == want and py["py_save_ls"] == want

    # pytfweb reads what TF.js saved, in both stores.
    for url in ("indexeddb://io-test/tfjs", "localstorage://io-test/tfjs"):
        got = py[url]
        assert got["topology"] == tfjs_saved["topology"], url
        assert got["specs"] == tfjs_saved["specs"] and got["weights"] == tfjs_saved["weights"], url
        assert got["format"] == "layers-model" and got["generated_by"] == tfjs_saved["generatedBy"], url
    assert [s["name"] for s in tfjs_saved["specs"]] == ["d1/kernel", "d1/bias", "d2/kernel", "d2/bias"]

    # TF.js reads what pytfweb saved (and the copy pytfweb made of TF.js's model).
    for url in ("indexeddb://io-test/persist", "localstorage://io-test/persist"):
        got = back[url]
        assert got["topology"] == want["topology"] and got["specs"] == want["specs"], url
        assert got["weights"] == want["weights"] and got["format"] == want["format"], url
        assert got["metadata"] == want["metadata"], url
        # The sizes pytfweb recorded are the ones TF.js computes.
        assert back["listed"][url] == got["infoBytes"], url
    copy = back["indexeddb://io-test/py-copy"]
    assert copy["weights"] == tfjs_saved["weights"] and copy["topology"] == tfjs_saved["topology"]
    assert back["listed"]["indexeddb://io-test/py-copy"] == copy["infoBytes"]
    assert py["copy"]["weightDataBytes"] == copy["infoBytes"][2]
    assert back["predict"] == pytest.approx(tfjs_saved["predict"], rel=1e-6)
    assert py["tfjs_model"] == pytest.approx(tfjs_saved["predict"], rel=1e-5, abs=1e-6)
    assert back["pyModelPredict"] == pytest.approx(py["py_model"], rel=1e-5, abs=1e-6)


def test_unknown_handlers_in_the_page(run_py):
    with pytest.raises(PageError) as e:
        _run(run_py, 'await save("nowhere://x", make_artifacts())')
    assert "cannot find any save handlers for URL 'nowhere://x'" in e.value.message


# --- weights decoded in the page ----------------------------------------------------------------------------
def test_quantized_weights_decode_in_the_page_as_numpy_decodes_them(run_py):
    """The page has no numpy: it dequantizes every quantized weight of a decode in one JavaScript
    call, which must give, bit for bit, the values numpy's decoding gives here: all 65536 half floats
    (zeros of both signs, subnormals, infinities, NaNs) at an even byte offset (read through
    Float16Array where the browser has it) and at an odd one (behind a bool: the bit loop), and
    uint8/uint16 to float32 and to int32 (rounded half up) at odd offsets between plain weights, and
    an empty one (nothing written)."""
    import numpy as np
    halves = np.arange(65536, dtype="<u2")
    rng = np.random.default_rng(3)
    q8, q16 = np.arange(256, dtype="u1"), rng.integers(0, 65536, 999, dtype="<u2")
    parts = [("h_even", halves.tobytes(), [65536], "float32", {"dtype": "float16"}),
             ("flag", b"\x01", [1], "bool", None),
             ("h_odd", halves.tobytes(), [65536], "float32", {"dtype": "float16"}),
             ("u8f", q8.tobytes(), [16, 16], "float32", {"dtype": "uint8", "scale": 0.0123, "min": -1.5}),
             ("u16i", q16.tobytes(), [999], "int32", {"dtype": "uint16", "scale": 0.37, "min": -7.25}),
             ("plain", np.array([1.5, -2], "<f4").tobytes(), [2], "float32", None),
             ("u8i", q8.tobytes(), [256], "int32", {"dtype": "uint8", "scale": 2.5, "min": -320.0}),
             ("none", b"", [0, 3], "float32", {"dtype": "uint16", "scale": 1.0, "min": 0.0}),
             ("u16f", q16.tobytes(), [999], "float32", {"dtype": "uint16", "scale": 1e-4, "min": -0.03})]
    specs = [dict({"name": n, "shape": s, "dtype": d}, **({"quantization": q} if q else {}))
             for n, _, s, d, q in parts]
    data = b"".join(b for _, b, _, _, _ in parts)
    out = run_py('''
import base64
ts = tf.io.decode_weights(base64.b64decode(data), specs)
result = {n: base64.b64encode(bytes(memoryview(t.data_sync()).cast("B"))).decode() for n, t in ts.items()}
tf.dispose(list(ts.values()))
result["left"] = tf.memory().num_tensors
''', data=base64.b64encode(data).decode(), specs=specs)
    assert out.pop("left") == 0
    previous = tf.get_backend()
    tf.set_backend("cpu")
    try:
        want = tf.io.decode_weights(data, specs)
        expected = {n: np.asarray(t.data_sync()) for n, t in want.items()}
        tf.dispose(list(want.values()))
    finally:
        tf.set_backend(previous)
    assert sorted(out) == sorted(expected)
    for name, values in expected.items():
        raw = base64.b64decode(out[name])
        if values.dtype.itemsize == 1:   # bool
            assert raw == values.astype("u1").tobytes()
            continue
        got = np.frombuffer(raw, dtype=values.dtype.newbyteorder("<"))
        nan = np.isnan(values) if values.dtype.kind == "f" else np.zeros(values.shape, bool)
        np.testing.assert_array_equal(got.view("<u4")[~nan], values.astype(got.dtype).view("<u4")[~nan], err_msg=name)
        assert np.isnan(got[nan]).all(), name
