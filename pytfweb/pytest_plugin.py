"""pytest plugin: one test, run on cpu (CPython), webgl and webgpu (headless Chromium, Pyodide).

Registered by the `pytest11` entry point (active once pytfweb is installed with its browser extra;
`-p pytfweb.pytest_plugin` loads it by hand).

    import pytest
    import pytfweb as tf
    from pytfweb.testing import assert_close

    @pytest.mark.pytfweb(backends=["cpu", "webgl", "webgpu"])     # test_add[cpu], test_add[webgl], ...
    def test_add(tf_backend):
        assert_close(tf.add(tf.tensor([1.0]), 1), [2.0])

On cpu the test runs here, with the cpu backend set. On webgl and webgpu its source runs in the
session's one page (one Chromium, one Pyodide): the test function, the module's imports and the
module-level helpers and constants it uses (pytfweb.host.shipped), with the user's project
modules it imports copied into the page; `async def` tests are awaited there. Arguments go as JSON
(tf_backend, tf_files, parametrize values, fixtures giving plain data). A failure reads as
pytest's: a failed assert shows the expression and both values, the traceback has the test file's
lines, and what the page printed is attached to the report ("Captured pytfweb page call").
Between tests the page disposes every tensor and sets the backend again.

A test taking `tf_page` (the Playwright page, for tests that drive HTML) is not shipped: it runs
here, for each browser backend, with that backend set in the page.

Options: --pytfweb-backends=cpu,webgl (the backends a marked test runs on, within its marker's),
--pytfweb-timeout=SECONDS (60; the marker's timeout= for one test), --pytfweb-check-leaks (tf.memory() before and after each test).
A backend the browser cannot give (no WebGPU adapter) skips, or fails when PYTFWEB_REQUIRE_WEBGPU=1.
"""
import asyncio
import inspect
import json
import os
import shutil
import signal
import tempfile
import threading
from pathlib import Path

import pytest

from .host import shipped

BACKENDS = ("cpu", "webgl", "webgpu")
BROWSER_BACKENDS = ("webgl", "webgpu")

REQUIRE_ENV = "PYTFWEB_REQUIRE_WEBGPU"


def webgpu_required(environ=None):
    return (os.environ if environ is None else environ).get(REQUIRE_ENV) == "1"


def no_webgpu(reason, environ=None):
    """Skips the running test for `reason` (why there is no WebGPU), or fails it when WebGPU is
    required (PYTFWEB_REQUIRE_WEBGPU=1: a CI run must not end green having tested nothing on
    webgpu); never returns."""
    if webgpu_required(environ):
        pytest.fail(f"{reason} ({REQUIRE_ENV}=1: WebGPU is required here)", pytrace=False)
    pytest.skip(reason)


def _no_adapter(error):
    return "adapter" in error or "navigator.gpu" in error or "not registered" in error


def pytest_addoption(parser):
    group = parser.getgroup("pytfweb", "pytfweb: tests on cpu, webgl and webgpu")
    group.addoption("--pytfweb-backends", default=None, metavar="LIST",
                    help="comma-separated backends that tests marked pytfweb run on, within their marker's "
                         f"(default: every backend of the marker; the marker's default: {','.join(BACKENDS)})")
    group.addoption("--pytfweb-timeout", type=float, default=60.0, metavar="SECONDS",
                    help="time limit of one marked test (default 60)")
    group.addoption("--pytfweb-check-leaks", action="store_true", default=False,
                    help="fail a marked test that ends with more tensors or data buffers than it began with")


_SESSION = pytest.StashKey()


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "pytfweb(backends=['cpu', 'webgl', 'webgpu'], timeout=None): run the test once per backend: "
                   "cpu here, webgl and webgpu in headless Chromium (test ids test_x[cpu], test_x[webgl], ...); "
                   "timeout: seconds, instead of --pytfweb-timeout")
    chosen = config.getoption("pytfweb_backends")
    if chosen is not None:
        chosen = [b.strip() for b in chosen.split(",") if b.strip()]
        unknown = [b for b in chosen if b not in BACKENDS]
        if unknown:
            raise pytest.UsageError(f"--pytfweb-backends: unknown backend(s) {unknown}; known: {list(BACKENDS)}")
    timeout = config.getoption("pytfweb_timeout")
    if not timeout > 0:
        raise pytest.UsageError(f"--pytfweb-timeout: a positive number of seconds, got {timeout}")
    config.stash[_SESSION] = _Session(config, chosen, timeout, config.getoption("pytfweb_check_leaks"))


def pytest_unconfigure(config):
    session = config.stash.get(_SESSION, None)
    if session is not None:
        session.close()


def _marker_backends(mark):
    backends = mark.kwargs.get("backends", mark.args[0] if mark.args else BACKENDS)
    if isinstance(backends, str):
        backends = [backends]
    unknown = [b for b in backends if b not in BACKENDS]
    if unknown or not backends:
        raise pytest.UsageError(f"@pytest.mark.pytfweb(backends=...): unknown or no backends {list(backends)}; "
                                f"known: {list(BACKENDS)}")
    return list(backends)


def pytest_generate_tests(metafunc):
    mark = metafunc.definition.get_closest_marker("pytfweb")
    if mark is None:
        return
    chosen = metafunc.config.stash[_SESSION].chosen
    backends = [b for b in _marker_backends(mark) if chosen is None or b in chosen]
    if "tf_page" in metafunc.fixturenames:   # a test of the page has no cpu case
        backends = [b for b in backends if b in BROWSER_BACKENDS]
    if "tf_backend" not in metafunc.fixturenames:
        metafunc.fixturenames.append("tf_backend")
    metafunc.parametrize("tf_backend", backends, indirect=True, ids=backends)


@pytest.fixture
def tf_backend(request):
    """The backend name this run of a marked test has (cpu, webgl or webgpu); on cpu the cpu
    backend is set here for the test and the previous one restored after it."""
    backend = getattr(request, "param", None)
    if backend is None:
        pytest.fail(f"{request.node.nodeid}: tf_backend needs @pytest.mark.pytfweb on the test", pytrace=False)
    if backend != "cpu":
        yield backend
        return
    import pytfweb as tf
    previous = tf.engine().backend_name
    tf.set_backend("cpu")
    try:
        yield backend
    finally:
        if previous is not None and previous != "cpu":
            tf.set_backend(previous)


@pytest.fixture
def tf_page(request):
    """The session's Playwright page (pytfweb loaded in Pyodide), with the test's backend set
    (webgl for a test without the marker). A test taking it runs here, driving the page; a marked
    one runs on the marker's browser backends only."""
    backend = getattr(getattr(request.node, "callspec", None), "params", {}).get("tf_backend", "webgl")
    session = request.config.stash[_SESSION]
    session.set_backend(backend)
    return session.page


class ServedFolder:
    """A folder (`path`) the session's server serves at `url` (ending in /): files a test writes
    there the page can fetch (tf.io.http, tf.browser images). str() is the path."""

    def __init__(self, path, url):
        self.path, self.url = Path(path), url

    def __str__(self):
        return str(self.path)

    def __fspath__(self):
        return str(self.path)

    def __truediv__(self, other):
        return self.path / other

    def __repr__(self):
        return f"ServedFolder({str(self.path)!r}, {self.url!r})"


@pytest.fixture
def tf_files(request):
    """An empty folder for this test, served to the page at tf_files.url (see ServedFolder)."""
    return request.config.stash[_SESSION].new_folder()


# --- running a marked test ------------------------------------------------------------------------

@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem):
    callspec = getattr(pyfuncitem, "callspec", None)
    if pyfuncitem.get_closest_marker("pytfweb") is None or callspec is None or "tf_backend" not in callspec.params:
        return None
    session = pyfuncitem.config.stash[_SESSION]
    backend = callspec.params["tf_backend"]
    fn = pyfuncitem.obj
    names = pyfuncitem._fixtureinfo.argnames
    kwargs = {name: pyfuncitem.funcargs[name] for name in names}
    timeout = pyfuncitem.get_closest_marker("pytfweb").kwargs.get("timeout", session.timeout)
    if backend == "cpu" or "tf_page" in pyfuncitem.fixturenames:
        session.run_here(fn, kwargs, backend, timeout)
    else:
        session.run_in_page(pyfuncitem, fn, kwargs, backend, timeout)
    return True


def _alarm(seconds):
    """Raises TimeoutError in this (main) thread after `seconds`; a no-op elsewhere."""
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "setitimer"):
        return lambda: None

    def expired(signum, frame):
        raise TimeoutError(f"the test ran past its timeout of {seconds:g} s (--pytfweb-timeout)")

    old = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)

    def cancel():
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    return cancel


def _run_coroutine(coro, timeout):
    """Awaits an async test here; in a thread of its own when this one has a loop running (Playwright's
    sync API keeps one in the main thread once the browser is up)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        asyncio.run(coro)
        return
    outcome = {}

    def target():
        try:
            asyncio.run(coro)
        except BaseException as exc:  # noqa: BLE001 - re-raised in the test's thread
            outcome["error"] = exc
    thread = threading.Thread(target=target, name="pytfweb-async-test", daemon=True)
    thread.start()
    thread.join(timeout)
    if thread.is_alive():
        raise TimeoutError(f"the test ran past its timeout of {timeout:g} s (--pytfweb-timeout)")
    if "error" in outcome:
        raise outcome["error"]


def _to_json(name, value):
    if isinstance(value, ServedFolder):
        return {shipped.SERVED_FOLDER: True, "path": str(value.path), "url": value.url}
    if isinstance(value, Path):
        return str(value)
    try:
        json.dumps(value, allow_nan=True)
    except (TypeError, ValueError):
        pytest.fail(f"the argument {name!r} ({type(value).__name__}) cannot be sent to the page: a test run in the "
                    "browser takes JSON values (numbers, strings, lists, dicts), tf_backend and tf_files", pytrace=False)
    return value


# The page side: the shipped module's run(), awaited; the page's output flushed before returning.
_RUN_JS = """
async (payload) => {
  const mod = pytfweb.pyodide.pyimport("pytfweb.host.shipped");
  const run = mod.run;
  try {
    return await run(payload);
  } finally {
    run.destroy();
    mod.destroy();
    await window.__pytfwebFlush();
  }
}
"""

_CALL_JS = """
async ([name, arg]) => {
  const mod = pytfweb.pyodide.pyimport("pytfweb.host.shipped");
  const fn = mod[name];
  try {
    return await fn(arg);
  } finally {
    fn.destroy();
    mod.destroy();
  }
}
"""


class _Session:
    """The session's server, Chromium and page, started when a test first needs them."""

    def __init__(self, config, chosen, timeout, check_leaks):
        self.config, self.chosen, self.timeout, self.check_leaks = config, chosen, timeout, check_leaks
        self.server = self.browser = self.page = None
        self.files_dir = None
        self.folders = 0
        self.output = []
        self.installed = {}
        self.unavailable = {}

    # --- resources ---
    def _serve(self):
        if self.server is None:
            from .host.server import Server
            self.files_dir = Path(tempfile.mkdtemp(prefix="pytfweb-files-"))
            self.server = Server(routes={"/pytfweb-files/": self.files_dir}).start()
        return self.server

    def new_folder(self):
        server = self._serve()
        self.folders += 1
        name = f"t{self.folders}"
        (self.files_dir / name).mkdir()
        return ServedFolder(self.files_dir / name, f"{server.url}pytfweb-files/{name}/")

    def _write(self, chunks):
        self.output.extend(text for _, text in chunks)

    def _open(self):
        if self.page is not None:
            return self.page
        from .host.chromium import Browser
        server = self._serve()
        self.browser = Browser().__enter__()
        page, _ = self.browser.open(server.url, backend=None, write=self._write)
        page.on("console", lambda msg: self.output.append(f"[console.{msg.type}] {msg.text}\n"))
        page.on("pageerror", lambda err: self.output.append(f"[page error] {err}\n"))
        self.page = page
        return page

    def close(self):
        try:
            if self.browser is not None:
                self.browser.__exit__(None, None, None)
        finally:
            self.browser = self.page = None
            if self.server is not None:
                self.server.stop()
                self.server = None
            if self.files_dir is not None:
                shutil.rmtree(self.files_dir, ignore_errors=True)

    # --- the page ---
    def _call(self, name, arg):
        return self._open().evaluate(_CALL_JS, [name, arg])

    def set_backend(self, backend):
        """Resets the page (every tensor disposed, flags reset) and sets `backend`; skips (or
        fails) the test when the browser cannot give it."""
        if backend in self.unavailable:
            error = self.unavailable[backend]
        else:
            error = self._call("reset", backend)
            if error and backend == "webgpu" and _no_adapter(error):
                self.unavailable[backend] = error
        if error and backend == "webgpu" and _no_adapter(error):
            no_webgpu(f"no WebGPU in this browser: {error}")
        if error:
            pytest.fail(f"the {backend} backend could not be set in the page: {error}", pytrace=False)

    def _install_modules(self, item):
        files = shipped.local_modules(self.config.rootpath, exclude=(item.module.__name__,))
        new = {k: v for k, v in files.items() if self.installed.get(k) != v}
        if new:
            self._call("install", json.dumps(new))
            self.installed.update(new)

    def run_in_page(self, item, fn, kwargs, backend, timeout):
        if item.cls is not None:
            pytest.fail(f"{item.nodeid}: a test method cannot be sent to the page (its class and instance stay "
                        "here); make it a module-level function", pytrace=False)
        payload = shipped.ship(fn)
        payload.update(kwargs={k: _to_json(k, v) for k, v in kwargs.items()}, backend=backend,
                       timeout=timeout, check_leaks=self.check_leaks)
        self._open()
        self.output = []
        try:
            self.set_backend(backend)
            self._install_modules(item)
            reply = json.loads(self.page.evaluate(_RUN_JS, json.dumps(payload, allow_nan=True)))
        finally:
            text = "".join(self.output)
            self.output = []
            if text:
                item.add_report_section("call", "pytfweb page", text)
        if reply["outcome"] == "skipped":
            # reported at the test's line, not this one
            raise pytest.skip.Exception(reply["longrepr"], _use_item_location=True)
        if reply["outcome"] == "failed":
            pytest.fail(f"in the page ({backend}):\n{reply['longrepr']}", pytrace=False)

    def run_here(self, fn, kwargs, backend, timeout):
        import pytfweb as tf
        before = tf.memory()
        cancel = _alarm(timeout)
        try:
            result = fn(**kwargs)
            if inspect.iscoroutine(result):
                _run_coroutine(result, timeout)
        finally:
            cancel()
        after = tf.memory()
        if self.check_leaks and (after.num_tensors > before.num_tensors
                                 or after.num_data_buffers > before.num_data_buffers):
            pytest.fail(shipped.leak_message(backend, (before.num_tensors, before.num_data_buffers),
                                             (after.num_tensors, after.num_data_buffers)), pytrace=False)

