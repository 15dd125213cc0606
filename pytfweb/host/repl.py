"""`pytfweb repl`: the REPL of web/repl.html, in a terminal.

Every entry runs in Pyodide in headless Chromium, on webgl, in one page and one namespace. The
page is web/repl.html opened with ?driven (so its own input line stays idle); each line typed
here goes through the same pytfwebRepl.push() as a line typed in the page, and the entry's output
streams back as it is written (chromium.write_to_terminal). This side only reads lines:

    readline    line editing, and history kept in ~/.pytfweb_history (PYTFWEB_HISTORY: another
                file; empty: none); Tab indents
    Ctrl+C      at the prompt: drops the entry being typed; while an entry runs: cancels it at its
                next await (an entry that never awaits holds the page's only thread, so it runs on)
    Ctrl+D      quits with status 0; exit(n) in an entry quits with status n
"""
import contextlib
import os
import signal
import sys

from .chromium import Browser, write_to_terminal
from .runner import error_message
from .server import Server

PS1, PS2 = ">>> ", "... "
HELP = ("`tf` is imported; top-level await works (await t.data()). "
        "Ctrl+D quits, Ctrl+C cancels the entry being typed or one that awaits.")
POLL_MS = 200  # how long one wait for a running entry lasts: the latency of Ctrl+C

# Starts an entry; its reply, or the page's error, is kept in window.__replEntry for _WAIT_JS.
_SUBMIT_JS = """
(line) => {
  window.__replEntry = pytfwebRepl.push(line).then(
    (reply) => ({reply}),
    (err) => ({error: String(err && err.message || err)}));
}
"""

# Waits up to `ms` for the entry: null if it still runs, else {reply} or {error}, after the
# entry's last output has reached the host (so it comes before the next prompt).
_WAIT_JS = """
async (ms) => {
  const timeout = new Promise((resolve) => setTimeout(resolve, ms, null));
  const done = await Promise.race([window.__replEntry, timeout]);
  if (done !== null) await window.__pytfwebFlush();
  return done;
}
"""


class _CtrlC:
    """SIGINT as a flag, except while reading a line.

    A KeyboardInterrupt raised inside a Playwright call would leave the connection to the browser
    in an unknown state, so while the page works Ctrl+C only sets `pending`; the loop acts on it
    between two short waits. (Chromium and Playwright's driver do not see the terminal's SIGINT:
    the browser runs in a process group of its own and is launched with handle_sigint=False; the
    driver ignores SIGINT.)"""

    def __init__(self):
        self.pending = False
        self._old = None

    def __enter__(self):
        self._old = signal.signal(signal.SIGINT, self._note)
        return self

    def __exit__(self, *exc):
        signal.signal(signal.SIGINT, self._old)

    def _note(self, signum, frame):
        self.pending = True

    def take(self):
        pending, self.pending = self.pending, False
        return pending

    @contextlib.contextmanager
    def raising(self):
        """Ctrl+C raises KeyboardInterrupt, as usual (around input())."""
        old = signal.signal(signal.SIGINT, signal.default_int_handler)
        try:
            yield
        finally:
            signal.signal(signal.SIGINT, old)


class _History:
    """readline's line editing and a history file, where the readline module exists."""

    def __init__(self):
        try:
            import readline
        except ImportError:  # not on every platform; input() then reads plain lines
            self.readline = None
            return
        self.readline = readline
        readline.parse_and_bind("tab: tab-insert")  # indentation; names live in the page, not here
        readline.set_history_length(1000)
        self.path = os.environ.get("PYTFWEB_HISTORY", os.path.join(os.path.expanduser("~"), ".pytfweb_history"))
        if self.path:
            with contextlib.suppress(OSError):
                readline.read_history_file(self.path)

    def save(self):
        if self.readline is not None and self.path:
            with contextlib.suppress(OSError):
                self.readline.write_history_file(self.path)


class TerminalRepl:
    """The loop: read a line, push it to the page, wait for the reply, show the prompt again."""

    def __init__(self, page, ctrl_c, show_memory=False):
        self.page = page
        self.ctrl_c = ctrl_c
        self.show_memory = show_memory
        self.more = False  # the entry being typed needs more lines

    def start(self):
        hello = self.page.evaluate("() => pytfwebRepl.start()")
        print(f"{hello['banner']}\n{HELP}", flush=True)
        if self.show_memory:
            self._dim(hello["status"])

    def loop(self):
        """Run until Ctrl+D or exit(); the exit status."""
        while True:
            try:
                with self.ctrl_c.raising():
                    line = input(PS2 if self.more else PS1)
            except EOFError:
                print(flush=True)
                return 0
            except KeyboardInterrupt:
                print("\nKeyboardInterrupt", flush=True)
                if self.more:
                    self.page.evaluate("() => pytfwebRepl.cancelInput()")
                    self.more = False
                continue
            reply = self.push(line)
            if reply is None:
                self.more = False
                continue
            self.more = reply["more"]
            if reply.get("exit") is not None:
                return reply["exit"]
            if self.show_memory and not self.more:
                self._dim(reply["status"])

    def push(self, line):
        """Run a line in the page; the reply of pytfwebRepl.push, or None when the page failed."""
        self.ctrl_c.take()  # a Ctrl+C from before this line does not count
        self.page.evaluate(_SUBMIT_JS, line)
        asked = refused = False
        while True:
            done = self.page.evaluate(_WAIT_JS, POLL_MS)
            if done is not None:
                break
            if self.ctrl_c.take() and not asked:
                asked = True
                refused = not self.page.evaluate("() => pytfwebRepl.interrupt()")
        if refused or self.ctrl_c.take():
            # The page was busy until the entry ended: nothing was left to cancel.
            _stderr("(Ctrl+C: the entry ran to its end; only an entry that awaits can be cancelled)\n")
        if "error" in done:
            _stderr(f"pytfweb repl: the page failed: {done['error']}\n")
            return None
        return done["reply"]

    @staticmethod
    def _dim(text):
        print(f"\x1b[2m{text}\x1b[0m" if sys.stdout.isatty() else text, flush=True)


def _stderr(text):
    sys.stderr.write(text)
    sys.stderr.flush()


def repl(show_memory=False, verbose=False):
    """`pytfweb repl`; the exit status."""
    try:
        from playwright.sync_api import Error as PlaywrightError
    except ImportError:
        _stderr("pytfweb repl: needs playwright: pip install 'pytfweb[browser]'\n")
        return 1
    history = _History()
    _stderr("Starting headless Chromium, Pyodide and pytfweb (webgl)...\n")
    try:
        with Server(verbose=verbose) as server, Browser(handle_sigint=False) as browser, _CtrlC() as ctrl_c:
            page, _ = browser.open(server.url, write=write_to_terminal, verbose=verbose, path="repl.html?driven")
            if ctrl_c.take():  # pressed while loading: the user has given up waiting
                return 130
            session = TerminalRepl(page, ctrl_c, show_memory)
            session.start()
            return session.loop()
    except FileNotFoundError as exc:
        _stderr(f"pytfweb repl: {exc}\n")
        return 1
    except PlaywrightError as exc:
        _stderr(f"pytfweb repl: browser error: {error_message(exc)}\n")
        return 1
    except KeyboardInterrupt:  # while the browser started
        _stderr("\n")
        return 130
    finally:
        history.save()
