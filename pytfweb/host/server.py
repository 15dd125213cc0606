"""A small HTTP server for pages that run pytfweb, on 127.0.0.1 only.

    /               the web/ directory (pytfweb.js, index.html, run.html)
    /pyodide/       the npm Pyodide files
    /pytfweb.zip.gz the bundle (gzipped), from the files on disk at every request (its bytecode compiled once per
                    change of the sources: host/bundle.py)
    /zoo/           the model zoo's npm package (models/, assets/: host/zoo.py), when installed
    extra routes    prefix -> directory (the benchmark adds TensorFlow.js this way)

Nothing is cached by the browser (no-store), so an edited file shows on the next load.

A request the server refuses gets 400 Bad Request with a one-line text/plain reason, and its
connection is closed; nothing reaches the log as a traceback. It refuses:
- a Host other than the bound address, localhost, 127.0.0.1 or [::1] (with the bound port or none):
  any other name is a page from elsewhere reaching this server by DNS rebinding. 400, not 421 or
  403, because RFC 9112 asks 400 for a missing, repeated or invalid Host, so one status covers every
  refusal. HTTP/1.0 requests may omit Host; HTTP/1.1 ones may not (RFC 9112 section 3.2).
- a malformed path: anything but printable ASCII as sent, bad percent-encoding or encoded bytes
  that are not UTF-8, control characters or backslashes once decoded, a segment longer than
  MAX_SEGMENT bytes or a path longer than MAX_PATH, a `..` that climbs above the root.
Every accepted connection has a socket timeout (TIMEOUT seconds unless given), so an idle or
stalled client gives its thread back.
"""
import http.server
import itertools
import posixpath
import re
import sys
import threading
import urllib.parse
from pathlib import Path

from . import paths, zoo
from .bundle import DOWNLOAD, build_download

MIME = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".json": "application/json",
    ".wasm": "application/wasm",
    ".zip": "application/zip",
    ".gz": "application/gzip",
    ".map": "application/json",
    ".py": "text/x-python; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".png": "image/png",
    ".jpg": "image/jpeg",
    ".txt": "text/plain; charset=utf-8",
    ".glsl": "text/plain; charset=utf-8",
}

MAX_SEGMENT = 1024      # bytes of one decoded path segment; file systems refuse longer names anyway
MAX_PATH = 4096         # bytes of the path as sent (before the query)
TIMEOUT = 30.0          # seconds a connection may sit idle in any one read or write
_CHUNK = 1 << 16        # bodies go out in pieces so the timeout bounds a stall, not a large file's transfer

# Request-targets are ASCII without spaces (RFC 9112 3.2); a raw byte outside it is no browser's doing.
_TARGET_OK = re.compile(r"[!-~]*\Z")
_BAD_PERCENT = re.compile(r"%(?![0-9A-Fa-f]{2})")
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\\]")
# Request lines and headers are the client's text; escaped, they cannot drive the terminal showing the log.
_LOG_ESCAPES = str.maketrans({c: f"\\x{c:02x}" for c in itertools.chain(range(0x20), range(0x7f, 0xa0))})


def check_path(target):
    """(decoded path, None) for an acceptable request-target, or (None, the reason it is refused)."""
    if not target.startswith("/"):
        # the absolute form (http://host/path) would carry a second, unchecked host
        return None, "the request target must be a path starting with /"
    if not _TARGET_OK.match(target):
        return None, "the request target must be printable ASCII (percent-encode the rest)"
    # not urlsplit: it would read a leading // as a host name
    raw = target.split("?", 1)[0].split("#", 1)[0]
    if len(raw) > MAX_PATH:
        return None, f"the path is longer than {MAX_PATH} bytes"
    if _BAD_PERCENT.search(raw):
        return None, "the path has a % not followed by two hex digits"
    try:
        path = urllib.parse.unquote(raw, errors="strict")
    except UnicodeDecodeError:
        return None, "the path's percent-encoded bytes are not UTF-8"
    if _CONTROL.search(path):
        return None, "the path holds a control character, NUL or backslash"
    depth = 0
    for segment in path.split("/")[1:]:
        if len(segment.encode()) > MAX_SEGMENT:
            return None, f"a path segment is longer than {MAX_SEGMENT} bytes"
        if segment == "..":
            depth -= 1
            if depth < 0:
                return None, "the path climbs above the root with .."
        elif segment not in ("", "."):
            depth += 1
    # posixpath keeps a leading //, which Path would then join as an absolute path
    return re.sub("/{2,}", "/", path), None


def check_host(values, request_version, bound_host, port):
    """None if the Host header values are acceptable for a server at bound_host:port, else the reason."""
    if not values:
        # HTTP/1.0 clients may not send one; an HTTP/1.1 request without it is malformed
        old = request_version in ("HTTP/0.9", "HTTP/1.0")
        return None if old else f"an {request_version} request needs a Host header"
    if len(values) > 1:
        return "more than one Host header"
    host = values[0].strip().lower()
    if host.startswith("["):
        end = host.find("]")
        name, rest = (host[:end + 1], host[end + 1:]) if end > 0 else (host, "")
    else:
        name, colon, p = host.partition(":")
        rest = colon + p
    names = {"localhost", "127.0.0.1", "[::1]", f"[{bound_host}]" if ":" in bound_host else bound_host}
    if name not in names or rest not in ("", f":{port}"):
        return (f"Host {values[0][:100]!r} is not this server's (localhost, 127.0.0.1 or [::1], port {port}); "
                f"open {bound_host}:{port} directly")
    return None


class _Handler(http.server.BaseHTTPRequestHandler):
    server_version = "pytfweb"
    protocol_version = "HTTP/1.1"
    # TCP_NODELAY: with keep-alive, Nagle's algorithm held a response's last small segment until
    # the client's delayed ACK (~40 ms), on model.json and small shards alike
    disable_nagle_algorithm = True

    def setup(self):
        # StreamRequestHandler.setup applies self.timeout to the accepted socket
        self.timeout = self.server.conn_timeout
        super().setup()

    def do_GET(self):
        self._serve(send_body=True)

    def do_HEAD(self):
        self._serve(send_body=False)

    def _serve(self, send_body):
        reason = check_host(self.headers.get_all("Host", []), self.request_version,
                            self.server.server_address[0], self.server.server_address[1])
        if reason is not None:
            return self._error(400, reason)
        path, reason = check_path(self.path)
        if reason is not None:
            return self._error(400, reason)
        if path == "/" + DOWNLOAD:
            try:
                body = build_download()
            except Exception as exc:  # noqa: BLE001 - report to the client and the log
                return self._error(500, f"building the bundle failed: {exc}")
            return self._send(200, MIME[".gz"], body, send_body)
        try:
            target = self.server.resolve(path)
            body = target.read_bytes() if target is not None else None
        except (OSError, ValueError) as exc:
            # check_path should leave nothing the file system refuses; if it does, still an answer, not a traceback
            return self._error(404, f"not found: {path} ({type(exc).__name__})")
        if body is None:
            return self._error(404, f"not found: {path}")
        ctype = MIME.get(target.suffix, "application/octet-stream")
        self._send(200, ctype, body, send_body)

    def _send(self, status, ctype, body, send_body, close=False):
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        if status >= 400:
            # an error text echoes the path; no browser may sniff it into HTML
            self.send_header("X-Content-Type-Options", "nosniff")
        if close:
            self.send_header("Connection", "close")
            self.close_connection = True
        self.end_headers()
        if send_body:
            view = memoryview(body)
            for start in range(0, len(view), _CHUNK):
                self.wfile.write(view[start:start + _CHUNK])

    def _error(self, status, message):
        # after a refused request nothing more from this client is trusted to be well-framed
        self._send(status, MIME[".txt"], (message + "\n").encode(), self.command != "HEAD", close=status == 400)

    def log_message(self, fmt, *args):
        if self.server.verbose:
            sys.stderr.write("%s - %s\n" % (self.address_string(), (fmt % args).translate(_LOG_ESCAPES)))

    def log_error(self, fmt, *args):
        if self.server.verbose:
            super().log_error(fmt, *args)


class _HTTPServer(http.server.ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    # socketserver's 5 overflows when a browser opens its six connections at once: the kernel drops the
    # extra SYNs and the client retries a second later
    request_queue_size = 128

    def __init__(self, addr, routes, verbose, conn_timeout):
        self.routes = routes
        self.verbose = verbose
        self.conn_timeout = conn_timeout
        super().__init__(addr, _Handler)

    def handle_error(self, request, client_address):
        exc = sys.exc_info()[1]
        if isinstance(exc, (ConnectionError, TimeoutError)):
            # a client that went away or stalled mid-response: its business, not a fault here
            if self.verbose:
                sys.stderr.write(f"{client_address[0]} - connection dropped ({type(exc).__name__})\n")
            return
        super().handle_error(request, client_address)

    def resolve(self, url_path):
        """The file for a URL path, or None; never outside the routed directories."""
        norm = posixpath.normpath(url_path)
        if url_path.endswith("/") and not norm.endswith("/"):
            norm += "/"
        for prefix, root in self.routes:
            if norm == prefix.rstrip("/") and prefix != "/":
                norm = prefix
            if norm.startswith(prefix):
                rel = norm[len(prefix):]
                target = (root / rel).resolve() if rel else root.resolve()
                if target.is_dir():
                    target = target / "index.html"
                root_resolved = root.resolve()
                if target.is_file() and (target == root_resolved or root_resolved in target.parents):
                    return target
                return None
        return None


class Server:
    """The server on 127.0.0.1 in a background thread. port=0 takes a free port; timeout is the
    seconds a connection may sit idle in one read or write before it is dropped.

        with Server() as srv:
            page.goto(srv.url + "run.html")
    """

    def __init__(self, port=0, routes=None, verbose=False, pyodide_dir=None, web_dir=None, timeout=TIMEOUT):
        if timeout is None or not timeout > 0:
            raise ValueError(f"Server: timeout must be a positive number of seconds, got {timeout!r}")
        table = {"/pyodide/": Path(pyodide_dir) if pyodide_dir else paths.pyodide_dir()}
        zoo_dir = zoo.package_dir()
        if zoo_dir is not None:
            table["/zoo/"] = zoo_dir
        table.update(routes or {})
        table["/"] = Path(web_dir) if web_dir else paths.web_dir()
        # Longest prefix first, "/" last.
        self.routes = sorted(((p if p.endswith("/") else p + "/", Path(d)) for p, d in table.items()),
                             key=lambda r: -len(r[0]))
        self.httpd = _HTTPServer(("127.0.0.1", port), self.routes, verbose, float(timeout))
        self.port = self.httpd.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}/"
        self._thread = None

    def start(self):
        self._warm_bundle()
        self._thread = threading.Thread(target=self.httpd.serve_forever, name="pytfweb-server", daemon=True)
        self._thread.start()
        return self

    def serve_forever(self):
        self._warm_bundle()
        self.httpd.serve_forever()

    @staticmethod
    def _warm_bundle():
        """Compile the bundle's bytecode now, while the browser starts, not when the page asks for it
        (a first request then waits on the same lock instead of compiling again)."""
        def warm():
            try:
                build_download()
            except Exception:  # noqa: BLE001 - the request reports it (500) with its reason
                pass
        threading.Thread(target=warm, name="pytfweb-bundle", daemon=True).start()

    def stop(self):
        self.httpd.shutdown()
        self.httpd.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()
