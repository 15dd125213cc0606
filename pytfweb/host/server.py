"""A small HTTP server for pages that run pytfweb, on 127.0.0.1 only.

    /               the web/ directory (pytfweb.js, index.html, run.html)
    /pyodide/       the npm Pyodide files
    /pytfweb.zip    the bundle, built afresh on every request
    extra routes    prefix -> directory (the benchmark adds TensorFlow.js this way)

Nothing is cached by the browser (no-store), so an edited file shows on the next load.
"""
import http.server
import posixpath
import sys
import threading
import urllib.parse
from pathlib import Path

from . import paths
from .bundle import build_bundle

MIME = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".json": "application/json",
    ".wasm": "application/wasm",
    ".zip": "application/zip",
    ".map": "application/json",
    ".py": "text/x-python; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".png": "image/png",
    ".txt": "text/plain; charset=utf-8",
    ".glsl": "text/plain; charset=utf-8",
}


class _Handler(http.server.BaseHTTPRequestHandler):
    server_version = "pytfweb"
    protocol_version = "HTTP/1.1"

    def do_GET(self):
        self._serve(send_body=True)

    def do_HEAD(self):
        self._serve(send_body=False)

    def _serve(self, send_body):
        path = urllib.parse.unquote(urllib.parse.urlsplit(self.path).path)
        if path == "/pytfweb.zip":
            try:
                body = build_bundle()
            except Exception as exc:  # noqa: BLE001 - report to the client and the log
                return self._error(500, f"building the bundle failed: {exc}")
            return self._send(200, MIME[".zip"], body, send_body)
        target = self.server.resolve(path)
        if target is None:
            return self._error(404, f"not found: {path}")
        try:
            body = target.read_bytes()
        except OSError as exc:
            return self._error(404, str(exc))
        ctype = MIME.get(target.suffix, "application/octet-stream")
        self._send(200, ctype, body, send_body)

    def _send(self, status, ctype, body, send_body):
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        if send_body:
            self.wfile.write(body)

    def _error(self, status, message):
        self._send(status, MIME[".txt"], (message + "\n").encode(), self.command != "HEAD")

    def log_message(self, fmt, *args):
        if self.server.verbose:
            sys.stderr.write("%s - %s\n" % (self.address_string(), fmt % args))

    def log_error(self, fmt, *args):
        if self.server.verbose:
            super().log_error(fmt, *args)


class _HTTPServer(http.server.ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, addr, routes, verbose):
        self.routes = routes
        self.verbose = verbose
        super().__init__(addr, _Handler)

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
    """The server on 127.0.0.1 in a background thread. port=0 takes a free port.

        with Server() as srv:
            page.goto(srv.url + "run.html")
    """

    def __init__(self, port=0, routes=None, verbose=False, pyodide_dir=None, web_dir=None):
        table = {"/pyodide/": Path(pyodide_dir) if pyodide_dir else paths.pyodide_dir()}
        table.update(routes or {})
        table["/"] = Path(web_dir) if web_dir else paths.web_dir()
        # Longest prefix first, "/" last.
        self.routes = sorted(((p if p.endswith("/") else p + "/", Path(d)) for p, d in table.items()),
                             key=lambda r: -len(r[0]))
        self.httpd = _HTTPServer(("127.0.0.1", port), self.routes, verbose)
        self.port = self.httpd.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}/"
        self._thread = None

    def start(self):
        self._thread = threading.Thread(target=self.httpd.serve_forever, name="pytfweb-server", daemon=True)
        self._thread.start()
        return self

    def serve_forever(self):
        self.httpd.serve_forever()

    def stop(self):
        self.httpd.shutdown()
        self.httpd.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()
