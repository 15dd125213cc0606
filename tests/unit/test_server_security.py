"""`pytfweb serve` and the CLI's arguments against hostile input: malformed paths, foreign Host
headers, idle connections, bad numbers, model files nested past the stack. Every socket has a
timeout and every loop a bound, so a regression fails instead of hanging."""
import socket
import sys
import time
import zipfile

import pytest

from pytfweb.cli import main
from pytfweb.host import soak
from pytfweb.host.server import MAX_PATH, MAX_SEGMENT, Server, check_host, check_path

TIMEOUT = 1.0       # the server's idle timeout in these tests
WAIT = 10.0         # the most any socket here waits for the server


def _site(root):
    web = root / "web"
    (web / "sub").mkdir(parents=True)
    (web / "index.html").write_text("<p>index</p>")
    (web / "hello.txt").write_text("hello")
    (web / "sub" / "page.txt").write_text("sub page")
    pyodide = root / "pyodide"
    pyodide.mkdir()
    (pyodide / "pyodide.js").write_text("// pyodide")
    (root / "secret.txt").write_text("secret")
    return web, pyodide


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    return _site(tmp_path_factory.mktemp("site"))


@pytest.fixture(scope="module")
def _server(site):
    # one server for the module: each test's requests also check that the earlier ones left it serving
    web, pyodide = site
    with Server(web_dir=web, pyodide_dir=pyodide, verbose=True, timeout=TIMEOUT) as srv:
        yield srv


@pytest.fixture
def server(_server, capsys):
    yield _server
    # whatever a test sent, the server logged no traceback (its threads write to the captured stderr)
    err = capsys.readouterr().err
    assert "Traceback" not in err, err


def _read_response(sock):
    """(status, headers dict, body) of one response; reads until the body's length or EOF."""
    data = b""
    deadline = time.monotonic() + WAIT
    while b"\r\n\r\n" not in data:
        assert time.monotonic() < deadline, "no response head in time"
        chunk = sock.recv(65536)
        if not chunk:
            break
        data += chunk
    if b"\r\n\r\n" not in data:
        return None, {}, data
    head, body = data.split(b"\r\n\r\n", 1)
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
    length = int(headers.get("content-length", "0"))
    while len(body) < length:
        assert time.monotonic() < deadline, "no response body in time"
        chunk = sock.recv(65536)
        if not chunk:
            break
        body += chunk
    return status, headers, body


def _raw(srv, request):
    with socket.create_connection(("127.0.0.1", srv.port), timeout=WAIT) as sock:
        sock.sendall(request)
        return _read_response(sock)


def _get(srv, target, host="default", version="HTTP/1.1", method="GET", extra=b""):
    head = f"{method} {target} {version}\r\n".encode("latin-1")
    if host == "default":
        host = f"127.0.0.1:{srv.port}"
    if host is not None:
        head += f"Host: {host}\r\n".encode("latin-1")
    return _raw(srv, head + extra + b"Connection: close\r\n\r\n")


def _assert_serves(srv):
    status, _, body = _get(srv, "/hello.txt")
    assert (status, body) == (200, b"hello")


@pytest.mark.parametrize("target", [
    "/%00", "/hello.txt%00.html", "/%0a", "/%1b[31m", "/%7f", "/a%5cb",     # NUL, controls, backslash
    "/" + "a" * 8192, "/" + "a" * (MAX_SEGMENT + 1), "/" + "a/" * (MAX_PATH // 2 + 1),   # overlong
    "/%zz", "/%4", "/%", "/%e9", "/%c3%28",                                   # bad percent-encoding, not UTF-8
    "/../secret.txt", "/%2e%2e/secret.txt", "/sub/../../secret.txt", "/pyodide/..%2f..%2fsecret.txt",
    "/a\x01b", "/caf\xe9", "secret.txt", "http://evil.example/hello.txt",    # raw bytes, not an origin-form path
])
def test_malformed_paths_get_400_and_the_server_keeps_serving(server, target):
    status, headers, body = _get(server, target)
    assert status == 400, (target, status, body)
    assert headers.get("connection") == "close"
    assert headers.get("x-content-type-options") == "nosniff"
    assert body.endswith(b"\n") and body.count(b"\n") == 1
    _assert_serves(server)


def test_head_of_a_malformed_path_gets_400_without_body(server):
    status, headers, body = _get(server, "/%00", method="HEAD")
    assert status == 400 and body == b""


@pytest.mark.parametrize("target,expected", [
    ("/hello.txt", b"hello"), ("/sub/../hello.txt", b"hello"), ("/./sub/page.txt", b"sub page"),
    ("/sub/page.txt?x=%zz", b"sub page"), ("/%68ello.txt", b"hello"), ("/", b"<p>index</p>"),
    ("/pyodide/pyodide.js", b"// pyodide"), ("//hello.txt", b"hello"), ("/sub//page.txt", b"sub page"),
])
def test_well_formed_paths_are_served(server, target, expected):
    status, _, body = _get(server, target)
    assert (status, body) == (200, expected)


def test_not_found_is_404(server):
    status, _, body = _get(server, "/nothing.txt")
    assert status == 404 and b"/nothing.txt" in body


def test_encoded_absolute_path_stays_inside_the_root(server, site):
    secret = site[0].parent / "secret.txt"
    status, _, body = _get(server, "/%2F%2F" + str(secret).lstrip("/"))
    assert status == 404 and body != b"secret"


@pytest.mark.parametrize("host", ["evil.example", "evil.example:{port}", "127.0.0.1.evil.example:{port}",
                                  "localhost:1", "127.0.0.1:{port}0", "localhost.:{port}", "[::1", "",
                                  "127.0.0.1:{port}@evil.example"])
def test_foreign_host_gets_400(server, host):
    status, _, body = _get(server, "/hello.txt", host=host.format(port=server.port))
    assert status == 400, (host, status, body)
    assert b"Host" in body
    _assert_serves(server)


@pytest.mark.parametrize("host", ["127.0.0.1:{port}", "127.0.0.1", "localhost", "LOCALHOST:{port}", "[::1]:{port}",
                                  "[::1]"])
def test_local_host_is_served(server, host):
    status, _, body = _get(server, "/hello.txt", host=host.format(port=server.port))
    assert (status, body) == (200, b"hello")


def test_missing_host_is_400_on_http11_and_fine_on_http10(server):
    assert _get(server, "/hello.txt", host=None)[0] == 400
    status, _, body = _get(server, "/hello.txt", host=None, version="HTTP/1.0")
    assert (status, body) == (200, b"hello")


def test_two_host_headers_get_400(server):
    status, _, _ = _get(server, "/hello.txt", extra=b"Host: evil.example\r\n")
    assert status == 400


def test_the_bundle_route_checks_the_host_too(server):
    assert _get(server, "/pytfweb.zip.gz", host="evil.example")[0] == 400


@pytest.mark.parametrize("sent", [b"", b"GET /hello.txt HTTP/1.1\r\n", b"GET /hello.txt HTTP/1.1\r\nHost: 127"])
def test_idle_or_stalled_connection_is_dropped_after_the_timeout(server, sent):
    with socket.create_connection(("127.0.0.1", server.port), timeout=WAIT) as sock:
        start = time.monotonic()
        sock.sendall(sent)
        assert sock.recv(1) == b""      # the server closed it (a recv timeout here raises instead)
        elapsed = time.monotonic() - start
    assert TIMEOUT * 0.8 <= elapsed < WAIT
    _assert_serves(server)


def test_kept_alive_connection_is_dropped_after_the_timeout(server):
    with socket.create_connection(("127.0.0.1", server.port), timeout=WAIT) as sock:
        sock.sendall(f"GET /hello.txt HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n\r\n".encode())
        assert _read_response(sock)[0] == 200
        assert sock.recv(1) == b""


def test_idle_connections_do_not_stop_others(server):
    idle = [socket.create_connection(("127.0.0.1", server.port), timeout=WAIT) for _ in range(8)]
    try:
        _assert_serves(server)
    finally:
        for s in idle:
            s.close()


def test_log_escapes_control_characters(server, capsys):
    _raw(server, b"GET /\x1b[31mred HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
    _assert_serves(server)
    err = capsys.readouterr().err
    assert "\x1b" not in err and "\\x1b" in err
    sys.stderr.write(err)   # for the fixture's traceback check


def test_client_that_leaves_mid_request_is_no_traceback(server):
    with socket.create_connection(("127.0.0.1", server.port), timeout=WAIT) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
        sock.sendall(b"GET /hello.txt HTTP/1.1\r\n")
    _assert_serves(server)


def test_server_timeout_must_be_positive(site):
    web, pyodide = site
    for bad in (0, -1, None):
        with pytest.raises(ValueError, match="timeout"):
            Server(web_dir=web, pyodide_dir=pyodide, timeout=bad)


def test_check_path_and_check_host_directly():
    assert check_path("/a/b%20c.txt?q") == ("/a/b c.txt", None)
    assert check_path("/a/../b")[1] is None
    assert "NUL" in check_path("/%00")[1]
    assert check_host(["localhost:8000"], "HTTP/1.1", "127.0.0.1", 8000) is None
    assert check_host([], "HTTP/1.0", "127.0.0.1", 8000) is None
    assert "evil" in check_host(["evil:8000"], "HTTP/1.1", "127.0.0.1", 8000)


# --- the CLI's numbers


@pytest.mark.parametrize("argv,argument", [
    (["serve", "--port", "70000"], "--port"), (["serve", "--port", "-1"], "--port"),
    (["serve", "--port", "eighty"], "--port"), (["serve", "--port", "9" * 5000], "--port"),
    (["soak", "--iterations", "0"], "--iterations"), (["soak", "--iterations", "-3"], "--iterations"),
    (["soak", "--iterations", "1.5"], "--iterations"), (["soak", "--every", "0"], "--every"),
    (["bench", "--runs", "0"], "--runs"), (["startup", "--repeat", "-1"], "--repeat"),
])
def test_bad_numbers_are_argparse_errors(capsys, argv, argument):
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert f"pytfweb {argv[0]}: error: argument {argument}: expected" in err
    assert "Traceback" not in err


def test_soak_functions_check_their_counts():
    with pytest.raises(ValueError, match="soak: iterations must be a positive integer, got 0"):
        soak.run_cpu(0)
    with pytest.raises(ValueError, match="soak: every"):
        soak.run_cpu(3, every=-1)
    with pytest.raises(TypeError, match="soak: iterations must be an int"):
        soak.run_webgl("5")


# --- the CLI on hostile model files


def _assert_one_line_error(capsys, argv):
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert err.startswith("pytfweb convert: ") and err.count("\n") == 1, err


def test_convert_of_a_deeply_nested_model_json_is_a_one_line_error(tmp_path, capsys):
    deep = tmp_path / "model.json"
    deep.write_text('{"modelTopology": ' + "[" * 100_000 + "]" * 100_000 + ', "weightsManifest": []}')
    _assert_one_line_error(capsys, ["convert", str(deep), str(tmp_path / "out.keras")])
    assert not (tmp_path / "out.keras").exists()


def test_convert_of_a_deeply_nested_keras_config_is_a_one_line_error(tmp_path, capsys):
    src = tmp_path / "deep.keras"
    with zipfile.ZipFile(src, "w") as z:
        z.writestr("config.json", "[" * 100_000 + "]" * 100_000)
        z.writestr("metadata.json", "{}")
    _assert_one_line_error(capsys, ["convert", str(src), str(tmp_path / "out")])


@pytest.mark.parametrize("name,content", [("junk.keras", b"junk"), ("junk.h5", b"junk"), ("model.json", b"\xff\xfe"),
                                          ("model.json", b"[1, 2]"), ("model.json", b"{")])
def test_convert_of_junk_is_a_one_line_error(tmp_path, capsys, name, content):
    src = tmp_path / name
    src.write_bytes(content)
    _assert_one_line_error(capsys, ["convert", str(src), str(tmp_path / "out")])
