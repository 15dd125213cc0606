"""tf.data.csv beyond the parity cases (tests/parity/cases/data.py compares data: URLs with TF.js): local
files (file:// paths checked against TF.js under node, which reads them too), plain paths, bytes, http://
URLs from a local server and their failures, urllib Requests, the Python forms of the options, and
what the values are."""
import asyncio
import http.server
import json
import os
import shutil
import subprocess
import threading
import urllib.request

import pytest

import pytfweb as tf

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TFJS = os.path.join(ROOT, "node_modules", "@tensorflow", "tfjs")
needs_node = pytest.mark.skipif(shutil.which("node") is None or not os.path.isdir(TFJS),
                                reason="node and node_modules/@tensorflow/tfjs are needed")

TEXT = 'id,name,score,ok\n1,"Smith, J",3.5,true\n2,Lee,,false\r\n3,"say ""hi""",-1e2,1\n\ufeff4,x,0x10,no\n'

_NODE_CSV = r"""
const tf = require(process.argv[1]);
(async () => {
  const [url, config] = JSON.parse(require('fs').readFileSync(0, 'utf8'));
  const ds = tf.data.csv(url, config);
  const out = {names: await ds.columnNames(), rows: await ds.toArray()};
  process.stdout.write(JSON.stringify(out));
})().catch(e => { console.error(e.stack || e); process.exit(1); });
"""


def run(coro):
    return asyncio.run(coro)


def rows(ds):
    return run(ds.to_array())


def _tfjs_csv(url, config):
    r = subprocess.run(["node", "-e", _NODE_CSV, TFJS], input=json.dumps([url, config]), capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


@pytest.fixture
def csv_file(tmp_path):
    p = tmp_path / "data.csv"
    p.write_bytes(TEXT.encode("utf-8"))
    return p


@needs_node
@pytest.mark.parametrize("config", [{}, {"columnConfigs": {"score": {"dtype": "int32", "default": 0},
                                                           "ok": {"dtype": "bool", "isLabel": True}}},
                                    {"columnConfigs": {"name": {}}, "configuredColumnsOnly": True}])
def test_file_url_matches_tfjs_under_node(csv_file, config):
    url = "file://" + str(csv_file)
    want = _tfjs_csv(url, config)
    ds = tf.data.csv(url, config)
    assert run(ds.column_names()) == want["names"]
    got = rows(ds)
    # TF.js leaves an empty field undefined (JSON drops it); pytfweb gives None
    drop = lambda x: {k: drop(v) for k, v in x.items() if v is not None} if isinstance(x, dict) else x  # noqa: E731
    assert [drop(r) for r in got] == want["rows"]


def test_plain_path_bytes_and_the_value_types(csv_file):
    by_path = rows(tf.data.csv(str(csv_file), column_configs={"id": {"dtype": "int32"}, "ok": {"dtype": "bool"}}))
    by_bytes = rows(tf.data.csv(csv_file.read_bytes(), {"columnConfigs": {"id": {"dtype": "int32"},
                                                                           "ok": {"dtype": "bool"}}}))
    assert by_path == by_bytes
    first = by_path[0]
    assert first == {"id": 1, "name": "Smith, J", "score": 3.5, "ok": 1}
    assert type(first["id"]) is int and type(first["score"]) is float and type(first["ok"]) is int
    assert by_path[1]["score"] is None   # an empty field without a default
    assert by_path[2]["name"] == 'say ""hi""'   # TF.js keeps doubled quotes as they are
    assert by_path[3]["id"] == 4   # JS's Number() trims white space, U+FEFF included
    assert by_path[3]["score"] == 16.0


def test_each_iteration_reads_the_source_again(tmp_path):
    p = tmp_path / "grow.csv"
    p.write_text("a\n1\n")
    ds = tf.data.csv(str(p))
    assert rows(ds) == [{"a": 1.0}]
    p.write_text("a\n1\n2\n")
    assert rows(ds) == [{"a": 1.0}, {"a": 2.0}]


def test_options_errors():
    with pytest.raises(TypeError, match="unknown option"):
        tf.data.csv(b"a\n1\n", delimeter=";")
    with pytest.raises(TypeError, match="unknown key"):
        tf.data.csv(b"a\n1\n", column_configs={"a": {"kind": "int32"}})
    with pytest.raises(ValueError, match="Delimiter should not be provided"):
        tf.data.csv(b"a\n1\n", delim_whitespace=True, delimiter=" ")
    with pytest.raises(TypeError, match="source"):
        rows(tf.data.csv(3.5))
    with pytest.raises(ValueError, match="cannot read"):
        rows(tf.data.csv("file:///no/such/file.csv"))
    ds = tf.data.csv(b"a,b\n1,2\n")
    assert ds.size is None
    with pytest.raises(ValueError, match="Required column b"):
        rows(tf.data.csv(b"a,b\n1,\n", column_configs={"b": {"is_label": True}}))


def test_batches_feed_a_model():
    ds = tf.data.csv(b"x1,x2,y\n1,2,3\n4,5,9\n7,8,15\n", column_configs={"y": {"isLabel": True}})
    batches = run(ds.map(lambda r: {"xs": list(r["xs"].values()), "ys": list(r["ys"].values())})
                  .batch(2).to_array())
    assert batches[0]["xs"].shape == (2, 2) and batches[0]["xs"].dtype == "float32"
    assert batches[0]["ys"].array_sync() == [[3.0], [9.0]] and batches[1]["xs"].array_sync() == [[7.0, 8.0]]
    tf.dispose(batches)


class _Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):  # noqa: N802 - http.server's name
        if self.path == "/data.csv":
            body = TEXT.encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/csv")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        else:
            self.send_error(404)

    def log_message(self, *args):
        pass


@pytest.fixture
def server():
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    t = threading.Thread(target=httpd.serve_forever, daemon=True)
    t.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


def test_http_urls_and_requests(server, csv_file):
    want = rows(tf.data.csv(str(csv_file)))
    assert rows(tf.data.csv(server + "/data.csv")) == want
    assert rows(tf.data.csv(urllib.request.Request(server + "/data.csv"))) == want
    with pytest.raises(ValueError, match="404"):
        rows(tf.data.csv(server + "/missing.csv"))
    with pytest.raises(ValueError, match="404"):
        run(tf.data.csv(urllib.request.Request(server + "/missing.csv")).column_names())
