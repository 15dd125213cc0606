"""Headless Chromium with pytfweb loaded, through Playwright's sync API.

    with Browser() as b:                 # Chromium per browser_config
        page = b.open(server.url, backend="webgl", write=on_output)
        status = run_script(page, source, filename, argv)
"""
import sys

from . import browser_config

# Loads Pyodide + pytfweb in run.html. Output goes to the host through the exposed function
# __pytfwebWrite([[fd, text], ...]). Sending is rate-limited by a token bucket (BURST writes at
# once, then one per REFILL_MS): a write goes out at once while a token is left, else it joins a
# batch sent by the next write that finds a token, by a timer (when the page's event loop turns)
# or by __pytfwebFlush() at the end of a run. So output arrives as it is written and a flood of
# small writes costs few calls; only the tail of a flood (more than BURST writes in quick
# succession) that is followed by synchronous work without output waits for the next write.
# The page keeps the promises of the calls in flight so that a run can wait for them at its end.
_LOAD_JS = """
async ({backend, stream}) => {
  const BURST = 64, REFILL_MS = 5;
  const pending = new Set();
  let queue = [], tokens = BURST, lastRefill = performance.now(), timer = null;
  const flush = () => {
    if (timer !== null) { clearTimeout(timer); timer = null; }
    if (!queue.length) return;
    const chunks = queue;
    queue = [];
    const p = window.__pytfwebWrite(chunks);
    pending.add(p);
    p.finally(() => pending.delete(p));
  };
  const push = (fd, text) => {
    const last = queue[queue.length - 1];
    if (last && last[0] === fd) last[1] += text; else queue.push([fd, text]);
    const now = performance.now();
    tokens = Math.min(BURST, tokens + (now - lastRefill) / REFILL_MS);
    lastRefill = now;
    if (tokens >= 1) { tokens -= 1; flush(); }
    else if (timer === null) timer = setTimeout(flush, REFILL_MS);
  };
  window.__pytfwebPending = pending;
  window.__pytfwebFlush = async () => { flush(); await Promise.all([...pending]); };
  const writer = (fd) => {
    const dec = new TextDecoder();
    return {
      isatty: false,
      write(buf) {
        const text = dec.decode(buf, {stream: true});
        if (text) push(fd, text);
        return buf.length;
      },
    };
  };
  const opts = {backend};
  if (stream) { opts.stdout = writer(1); opts.stderr = writer(2); }
  await pytfweb.load(opts);
  return pytfweb.timings;
}
"""

_RUN_JS = """
async ({source, filename, argv}) => {
  const py = pytfweb.pyodide;
  const ns = py.toPy({source, filename, argv});
  try {
    return await py.runPythonAsync(
      "from pytfweb.host.script import run_source_async, line_buffered_stdio\\n" +
      "line_buffered_stdio()\\n" +
      "await run_source_async(source, filename, argv)",
      {globals: ns, filename: "<pytfweb run>"});
  } finally {
    ns.destroy();
    await window.__pytfwebFlush();
  }
}
"""


def _stderr(text):
    sys.stderr.write(text)
    sys.stderr.flush()


def write_to_terminal(chunks):
    """Output handler: the page's stdout and stderr ([[fd, text], ...]) to ours, flushed at once."""
    for fd, text in chunks:
        stream = sys.stdout if fd == 1 else sys.stderr
        stream.write(text)
        stream.flush()


class Browser:
    """One Playwright + one Chromium; open() gives pages with pytfweb loaded."""

    def __init__(self, playwright=None, **launch_overrides):
        """playwright: a running Playwright to launch through (another Browser's `playwright`: one
        thread can run only one sync Playwright), kept running on exit; None starts one."""
        self._overrides = launch_overrides
        self._given = playwright
        self._pw = None
        self.browser = None

    @property
    def playwright(self):
        return self._pw

    def __enter__(self):
        if self._given is not None:
            self._pw = self._given
        else:
            try:
                from playwright.sync_api import sync_playwright
            except ImportError:
                raise ImportError("headless Chromium is driven through playwright, which is not installed: "
                                  "pip install 'pytfweb[browser]'") from None
            self._pw = sync_playwright().start()
        try:
            self.browser = self._pw.chromium.launch(**browser_config.launch_options(**self._overrides))
        except Exception:
            if self._given is None:
                self._pw.stop()
            raise
        return self

    def __exit__(self, *exc):
        try:
            if self.browser is not None:
                self.browser.close()
        finally:
            if self._given is None:
                self._pw.stop()

    def new_page(self, verbose=False):
        page = self.browser.new_page()
        page.set_default_timeout(browser_config.TIMEOUTS["call"])
        page.set_default_navigation_timeout(browser_config.TIMEOUTS["navigation"])
        page.on("pageerror", lambda err: _stderr(f"[page error] {err}\n"))
        page.on("crash", lambda _: _stderr("[page crashed]\n"))
        if verbose:
            page.on("console", lambda msg: _stderr(f"[console.{msg.type}] {msg.text}\n"))
        return page

    def open(self, base_url, backend="webgl", write=None, verbose=False, page=None, path="run.html"):
        """A page at base_url + path (run.html by default) with pytfweb loaded and `backend` set
        (None: only imported). write([[fd, text], ...]) receives the page's output as it is written;
        without it the output goes to the page's console. Returns (page, timings in ms since
        navigation start)."""
        page = page or self.new_page(verbose)
        if write is not None:
            page.expose_function("__pytfwebWrite", write)
        page.goto(base_url + path)
        timings = page.evaluate(_LOAD_JS, {"backend": backend, "stream": write is not None})
        return page, timings


def run_script(page, source, filename, argv):
    """Run a script in a page opened with write=...; the script's exit status."""
    return int(page.evaluate(_RUN_JS, {"source": source, "filename": filename, "argv": list(argv)}))
