"""tf.io.http in CPython against a loopback HTTP server: model.json + weight shards load the same
through load_sync and await load(), weight URLs follow TF.js (the model.json's directory or
weight_path_prefix, the query string kept), request_init reaches the server, failures name the URL
and status, save POSTs TF.js's multipart form; the browser-only schemes fail clearly here."""
import asyncio
import email.parser
import email.policy
import http.server
import json
import socket
import threading

import numpy as np
import pytest

import pytfweb as tf
from pytfweb.io import weights as W
from pytfweb.io.artifacts import ModelArtifacts, model_json_for
from pytfweb.io.http import HTTPRequest, encode_multipart, parse_url

TOPOLOGY = {"class_name": "Sequential", "config": {"name": "s", "layers": [
    {"class_name": "Dense", "config": {"units": 4, "name": "d", "kernel_regularizer": None}}]}}


class _Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def _reply(self, status, body, ctype="application/octet-stream"):
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def _record(self, body=b""):
        self.server.requests.append({"method": self.command, "path": self.path, "headers": dict(self.headers),
                                     "body": body})

    def do_GET(self):
        self._record()
        entry = self.server.files.get(self.path)
        if entry is None:
            return self._reply(404, b"not found")
        self._reply(200, entry)

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        self._record(body)
        self._reply(self.server.post_status, b'{"ok": true}', "application/json")

    do_PUT = do_POST

    def log_message(self, *args):
        pass


class ModelServer:
    """A loopback server of files (URL path -> bytes) that records every request."""

    def __init__(self):
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
        self.httpd.daemon_threads = True
        self.httpd.files, self.httpd.requests, self.httpd.post_status = {}, [], 200
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, args=(0.05,), daemon=True)

    @property
    def files(self):
        return self.httpd.files

    @property
    def requests(self):
        return self.httpd.requests

    def paths(self, method="GET"):
        return [r["path"] for r in self.requests if r["method"] == method]

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def server():
    with ModelServer() as srv:
        yield srv


def _artifacts():
    rng = np.random.default_rng(3)
    ts = {"d/kernel": tf.tensor(rng.normal(size=(5, 4)).astype("float32")), "d/bias": tf.tensor(np.arange(4.0)),
          "step": tf.tensor(np.int32([7]), dtype="int32")}
    data, specs = tf.io.encode_weights(ts)
    tf.dispose(list(ts.values()))
    return ModelArtifacts(model_topology=TOPOLOGY, weight_specs=specs, weight_data=data, format="layers-model",
                          generated_by="pytfweb test", converted_by=None, user_defined_metadata={"k": [1, 2]})


def _serve_model(server, directory="/m", shard_bytes=25, query=""):
    """Serves model.json and its shards under directory; returns (artifacts, model.json URL)."""
    a = _artifacts()
    shards = W.split_shards(a.weight_data, shard_bytes)
    names = W.shard_names(len(shards))
    for name, data in zip(names, shards):
        server.files[f"{directory}/{name}{query}"] = data
    model_json = model_json_for(a, W.weights_manifest(a.weight_specs, names))
    server.files[f"{directory}/model.json{query}"] = json.dumps(model_json).encode()
    return a, f"{server.url}{directory}/model.json{query}"


def _assert_same(got, want):
    assert got.model_topology == want.model_topology
    assert got.weight_specs == want.weight_specs
    assert got.weight_data == want.weight_data
    assert got.format == want.format and got.generated_by == want.generated_by
    assert got.user_defined_metadata == want.user_defined_metadata


def test_load_sync_and_async_give_the_same_artifacts(server):
    want, url = _serve_model(server)
    assert len([p for p in server.files if p.endswith(".bin")]) == 4
    progress_sync, progress_async = [], []
    got_sync = tf.io.http(url, on_progress=progress_sync.append).load_sync()
    got_async = asyncio.run(tf.io.http(url, on_progress=progress_async.append).load())
    _assert_same(got_sync, want)
    _assert_same(got_async, want)
    # TF.js's fractions: 0-0.5 as each of the 4 responses arrives, 0.5-1 as each body is read.
    assert progress_sync == [0.125, 0.25, 0.375, 0.5, 0.625, 0.75, 0.875, 1.0]
    assert sorted(progress_async) == progress_sync
    shard_paths = sorted(p for p in server.paths() if p.endswith(".bin"))
    assert shard_paths == sorted(2 * [p for p in server.files if p.endswith(".bin")])


def test_routed_from_a_url_with_load_options(server):
    want, url = _serve_model(server)
    seen = []
    (handler,) = tf.io.get_load_handlers(url, {"on_progress": seen.append})
    assert isinstance(handler, HTTPRequest)
    _assert_same(handler.load_sync(), want)
    assert seen[-1] == 1.0
    assert isinstance(tf.io.browser_http_request(url), HTTPRequest)
    (saver,) = tf.io.get_save_handlers("https://example.org/upload")
    assert isinstance(saver, HTTPRequest)
    assert tf.io.get_load_handlers("ftp://example.org/model.json") == []


def test_weight_urls_keep_the_query_string_and_take_weight_path_prefix(server):
    assert parse_url("http://h/a/b/model.json?tfjs-format=file") == ("http://h/a/b/", "?tfjs-format=file")
    assert parse_url("http://h/a/model.json") == ("http://h/a/", "")
    want, url = _serve_model(server, query="?v=2")
    _assert_same(tf.io.http(url).load_sync(), want)
    assert all(p.endswith("?v=2") for p in server.paths())

    # weight_path_prefix: model.json from one place, the shards from another.
    a, _ = _serve_model(server, directory="/w")
    server.files["/only/model.json"] = server.files.pop("/w/model.json")
    got = tf.io.http(f"{server.url}/only/model.json", weight_path_prefix=f"{server.url}/w/").load_sync()
    _assert_same(got, a)

    converted = tf.io.http(f"{server.url}/only/model.json",
                           weight_url_converter=lambda p: f"{server.url}/w/{p}").load_sync()
    _assert_same(converted, a)

    async def converter(p):
        return f"{server.url}/w/{p}"
    _assert_same(asyncio.run(tf.io.http(f"{server.url}/only/model.json", weight_url_converter=converter).load()), a)


def test_request_init_headers_reach_the_server(server):
    _, url = _serve_model(server)
    init = {"headers": {"Authorization": "Bearer t0ken", "X-Model": "m"}}
    tf.io.http(url, request_init=init).load_sync()
    asyncio.run(tf.io.http(url, request_init=init).load())
    assert len(server.requests) == 10
    for r in server.requests:
        assert r["headers"]["Authorization"] == "Bearer t0ken" and r["headers"]["X-Model"] == "m"
    with pytest.raises(ValueError, match="request_init' is expected to have no pre-existing body"):
        tf.io.http(url, request_init={"body": b"x"})
    with pytest.raises(TypeError, match="fetch_func"):
        tf.io.http(url, fetch_func="fetch")
    with pytest.raises(TypeError, match="non-empty URL"):
        tf.io.http("")


def test_failures_name_the_url_and_the_status(server):
    url = f"{server.url}/missing/model.json"
    for load in (lambda: tf.io.http(url).load_sync(), lambda: asyncio.run(tf.io.http(url).load())):
        with pytest.raises(ValueError, match=f"Request to {url} failed with status code 404"):
            load()

    _, url = _serve_model(server)
    shard = f"{server.url}/m/group1-shard3of4.bin"
    del server.files["/m/group1-shard3of4.bin"]
    for load in (lambda: tf.io.http(url).load_sync(), lambda: asyncio.run(tf.io.http(url).load())):
        with pytest.raises(ValueError, match=f"Request to {shard} failed with status code 404"):
            load()

    server.files["/bad/model.json"] = b"{not json"
    with pytest.raises(ValueError, match=f"Failed to parse model JSON of response from {server.url}/bad/model.json"):
        tf.io.http(f"{server.url}/bad/model.json").load_sync()
    server.files["/empty/model.json"] = b'{"format": "layers-model"}'
    with pytest.raises(ValueError, match="contains neither model topology or manifest for weights"):
        tf.io.http(f"{server.url}/empty/model.json").load_sync()

    with socket.socket() as s:   # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        closed = f"http://127.0.0.1:{s.getsockname()[1]}/m/model.json"
    with pytest.raises(ValueError, match=f"Request to {closed} failed"):
        tf.io.http(closed).load_sync()


def _parse_form(request):
    """The multipart body the server received: {name: (filename, content type, bytes)}."""
    head = f"Content-Type: {request['headers']['Content-Type']}\r\n\r\n".encode()
    msg = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(head + request["body"])
    assert msg.is_multipart()
    return {part.get_param("name", header="content-disposition"):
            (part.get_filename(), part.get_content_type(), part.get_payload(decode=True))
            for part in msg.iter_parts()}


def test_save_posts_tfjs_multipart_form(server):
    a = _artifacts()
    result = tf.io.http(f"{server.url}/upload").save_sync(a)
    assert result.model_artifacts_info.weight_data_bytes == len(a.weight_data)
    assert result.responses[0].status == 200
    (req,) = server.requests
    assert req["method"] == "POST" and req["path"] == "/upload"
    form = _parse_form(req)
    assert list(form) == ["model.json", "model.weights.bin"]
    name, ctype, body = form["model.json"]
    assert (name, ctype) == ("model.json", "application/json")
    model_json = json.loads(body)
    assert model_json == model_json_for(a, [{"paths": ["./model.weights.bin"], "weights": a.weight_specs}])
    assert list(model_json)[:5] == ["modelTopology", "format", "generatedBy", "convertedBy", "weightsManifest"]
    assert form["model.weights.bin"] == ("model.weights.bin", "application/octet-stream", a.weight_data)

    # Awaited, with request_init's method and headers (TF.js's Object.assign({method: 'POST'}, requestInit)).
    init = {"method": "PUT", "headers": {"X-Token": "abc"}}
    asyncio.run(tf.io.http(f"{server.url}/put", request_init=init).save(a))
    req = server.requests[-1]
    assert req["method"] == "PUT" and req["headers"]["X-Token"] == "abc"
    assert _parse_form(req)["model.weights.bin"][2] == a.weight_data

    # Saved artifacts load back through the same form's files.
    server.files["/saved/model.json"] = form["model.json"][2]
    server.files["/saved/model.weights.bin"] = form["model.weights.bin"][2]
    _assert_same(tf.io.http(f"{server.url}/saved/model.json").load_sync(), a)

    server.httpd.post_status = 500
    with pytest.raises(ValueError, match=f"save\\(\\) to {server.url}/upload failed due to HTTP response status 500"):
        tf.io.http(f"{server.url}/upload").save_sync(a)

    no_weights = ModelArtifacts(model_topology=TOPOLOGY)
    body, ctype = encode_multipart(model_json_for(no_weights, []), None, boundary="B")
    assert ctype == "multipart/form-data; boundary=B" and b"model.weights.bin" not in body
    with pytest.raises(ValueError, match="binary formats"):
        tf.io.http(f"{server.url}/upload").save_sync(ModelArtifacts(model_topology=b"\x00"))


def test_fetch_func_replaces_urllib(server):
    import urllib.request
    want, url = _serve_model(server)
    calls = []

    def fetch(u, init):
        calls.append((u, dict(init)))
        return urllib.request.urlopen(urllib.request.Request(u, headers=init.get("headers", {})))
    _assert_same(tf.io.http(url, fetch_func=fetch, request_init={"headers": {"A": "1"}}).load_sync(), want)
    assert [c[0] for c in calls] == [url] + [f"{server.url}/m/group1-shard{i}of4.bin" for i in range(1, 5)]
    assert all(c[1] == {"headers": {"A": "1"}} for c in calls)

    async def afetch(u, init):
        calls.append(u)
        return await asyncio.to_thread(urllib.request.urlopen, u)
    _assert_same(asyncio.run(tf.io.http(url, fetch_func=afetch).load()), want)
    with pytest.raises(RuntimeError, match="awaitable"):
        tf.io.http(url, fetch_func=afetch).load_sync()


@pytest.mark.parametrize("url", ["indexeddb://m", "localstorage://m"])
def test_browser_schemes_fail_clearly_in_cpython(url):
    msg = f"{url[:url.index('://') + 3]} is only available in the browser \\(Pyodide\\)"
    with pytest.raises(RuntimeError, match=msg):
        tf.io.get_load_handlers(url)
    with pytest.raises(RuntimeError, match=msg):
        tf.io.get_save_handlers(url)
    with pytest.raises(RuntimeError, match=msg):
        asyncio.run(tf.io.remove_model(url))
    with pytest.raises(RuntimeError, match=msg):
        asyncio.run(tf.io.copy_model(url, url + "2"))


def test_downloads_and_browser_files_and_management_in_cpython():
    with pytest.raises(RuntimeError, match="downloads:// is only available in the browser"):
        tf.io.get_save_handlers("downloads://m")
    with pytest.raises(RuntimeError, match="browser_files is only available in the browser"):
        tf.io.browser_files(["model.json"])
    assert asyncio.run(tf.io.list_models()) == {}
    with pytest.raises(ValueError, match="Old path and new path are the same: 'indexeddb://a'"):
        asyncio.run(tf.io.move_model("indexeddb://a", "indexeddb://a"))
    with pytest.raises(ValueError, match="does not contain a scheme"):
        asyncio.run(tf.io.remove_model("no-scheme"))
    with pytest.raises(ValueError, match="Cannot find model manager for scheme 'foo'"):
        asyncio.run(tf.io.remove_model("foo://x"))


def test_copy_model_between_files_and_http(server, tmp_path):
    """copy_model goes through the routers, so in CPython it copies a file:// model to an HTTP
    endpoint (and move_model removes only from a scheme with a manager)."""
    a = _artifacts()
    tf.io.file_system(str(tmp_path / "m")).save_sync(a)
    info = asyncio.run(tf.io.copy_model(f"file://{tmp_path}/m", f"{server.url}/upload"))
    assert info["weightDataBytes"] == len(a.weight_data) and info["modelTopologyType"] == "JSON"
    assert _parse_form(server.requests[-1])["model.weights.bin"][2] == a.weight_data


def test_layers_model_saved_and_loaded_over_http(server):
    """model.save_sync('http://...') posts the form; tf.load_layers_model(_sync) reads the same
    files back from a URL: the same predictions."""
    model = tf.sequential(layers=[tf.layers.dense(units=2, input_shape=[3], activation="tanh", name="d")])
    model.save_sync(f"{server.url}/upload")
    form = _parse_form(server.requests[-1])
    server.files["/lm/model.json"] = form["model.json"][2]
    server.files["/lm/model.weights.bin"] = form["model.weights.bin"][2]
    url = f"{server.url}/lm/model.json"
    loaded = [tf.load_layers_model_sync(url), asyncio.run(tf.load_layers_model(url))]
    x = tf.tensor([[1.0, -2.0, 0.5]])
    want = model.predict(x)
    for m in loaded:
        got = m.predict(x)
        np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-6)
        tf.dispose(got)
        m.dispose()
    tf.dispose([x, want])
    model.dispose()
