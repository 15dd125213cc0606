"""tf.io.http against a hostile server on the loopback: one that never answers, one that stalls in the
body, one that sends more bytes than the manifest declares (with or without saying so), a model.json
nested too deep or too big, and a manifest that names files outside the model's URL folder. Each load
ends in a clear ValueError within its timeout, having read no more than the declared bytes."""
import http.server
import json
import threading
import time

import pytest

import pytfweb as tf
from pytfweb.io import weights as W
from pytfweb.io.artifacts import ModelArtifacts, model_json_for

TOPOLOGY = {"class_name": "Sequential", "config": {"name": "s", "layers": [
    {"class_name": "Dense", "config": {"units": 2, "name": "d", "batch_input_shape": [None, 3]}}]}}
SPECS = [{"name": "d/kernel", "shape": [3, 2], "dtype": "float32"}, {"name": "d/bias", "shape": [2], "dtype": "float32"}]
WEIGHTS = bytes(32)
STALL_S = 3.0            # how long the stalling endpoints hold a request (bounded, so the server stops)
FLOOD_BYTES = 64 << 20   # what the flooding endpoint would send, at most


def _model_json(paths=("w.bin",)):
    a = ModelArtifacts(model_topology=TOPOLOGY, format="layers-model", weight_specs=SPECS)
    return json.dumps(model_json_for(a, W.weights_manifest(SPECS, list(paths)))).encode()


class _Hostile(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def _send(self, body, length=None, ctype="application/octet-stream"):
        self.send_response(200)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body) if length is None else length))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        self.server.paths.append(self.path)
        folder, _, name = self.path.rpartition("/")
        try:
            if folder == "/hang":                      # accepts, never answers
                time.sleep(STALL_S)
                return self._send(_model_json())
            if name == "model.json":
                if folder == "/deep":
                    return self._send(("[" * 100000 + "]" * 100000).encode())
                if folder == "/outside":
                    return self._send(_model_json(["../secret.bin"]))
                if folder == "/encoded":
                    return self._send(_model_json(["%2e%2e/secret.bin"]))
                return self._send(_model_json())
            if folder == "/stall":                     # headers, part of the body, then nothing
                self.send_response(200)
                self.send_header("Content-Length", str(len(WEIGHTS)))
                self.end_headers()
                self.wfile.write(WEIGHTS[:8])
                self.wfile.flush()
                time.sleep(STALL_S)
                return None
            if folder == "/flood":                     # chunked, with no length: more than declared
                self.send_response(200)
                self.send_header("Transfer-Encoding", "chunked")
                self.end_headers()
                chunk = b"\0" * (1 << 16)
                for _ in range(FLOOD_BYTES // len(chunk)):
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                self.wfile.write(b"0\r\n\r\n")
                return None
            if folder == "/says-huge":                 # a Content-Length far beyond the manifest
                self.send_response(200)
                self.send_header("Content-Length", str(10 ** 12))
                self.end_headers()
                self.wfile.write(WEIGHTS)
                return None
            if folder == "/short":
                return self._send(WEIGHTS[:-4])
            return self._send(WEIGHTS)
        except (BrokenPipeError, ConnectionResetError):
            return None


@pytest.fixture(scope="module")
def hostile():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Hostile)
    server.daemon_threads = True
    server.paths = []
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server, f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def _load(url, **init):
    return tf.io.http(url, request_init=init or None).load_sync()


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_a_server_that_never_answers_times_out(hostile, mode):
    _, base = hostile
    start = time.monotonic()
    with pytest.raises(ValueError, match="timed out|timeout"):
        if mode == "sync":
            _load(f"{base}/hang/model.json", timeout=0.5)
        else:
            import asyncio
            asyncio.run(tf.io.http(f"{base}/hang/model.json", request_init={"timeout": 0.5}).load())
    assert time.monotonic() - start < STALL_S


def test_a_body_that_stalls_times_out(hostile):
    _, base = hostile
    with pytest.raises(ValueError, match="timed out|timeout"):
        tf.io.http(f"{base}/stall/model.json", request_init={"timeout": 0.5}).load_sync()


def test_the_timeout_flag_is_the_default(hostile):
    _, base = hostile
    tf.env().set("HTTP_TIMEOUT_SECONDS", 0.5)
    try:
        with pytest.raises(ValueError, match="timed out|timeout"):
            _load(f"{base}/hang/model.json")
    finally:
        tf.env().set("HTTP_TIMEOUT_SECONDS", 60.0)
    with pytest.raises(ValueError, match="positive number of seconds"):
        _load(f"{base}/ok/model.json", timeout=-1)


@pytest.mark.parametrize("folder, match", [("flood", "more than"), ("says-huge", "declares 1000000000000 bytes"),
                                           ("short", "truncated")])
def test_weights_beyond_or_short_of_the_manifest_are_refused(hostile, folder, match):
    _, base = hostile
    before = tf.memory()["num_tensors"]
    with pytest.raises(ValueError, match=match):
        _load(f"{base}/{folder}/model.json")
    assert tf.memory()["num_tensors"] == before


@pytest.mark.parametrize("folder", ["outside", "encoded"])
def test_a_manifest_naming_files_outside_its_folder_requests_nothing(hostile, folder):
    server, base = hostile
    server.paths.clear()
    with pytest.raises(ValueError, match="leaves the model's folder"):
        _load(f"{base}/{folder}/model.json")
    assert server.paths == [f"/{folder}/model.json"]


def test_deep_and_oversized_model_json(hostile):
    _, base = hostile
    with pytest.raises(ValueError, match="MAX_NESTING_DEPTH"):
        _load(f"{base}/deep/model.json")
    tf.env().set("MAX_JSON_BYTES", 64)
    try:
        with pytest.raises(ValueError, match="more than"):
            _load(f"{base}/ok/model.json")
    finally:
        tf.env().set("MAX_JSON_BYTES", 1 << 28)


def test_a_good_model_still_loads(hostile):
    _, base = hostile
    model = tf.load_layers_model_sync(f"{base}/ok/model.json")
    assert model.predict(tf.zeros([1, 3])).shape == (1, 2)
