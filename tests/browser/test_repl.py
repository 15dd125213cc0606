"""The REPL: web/repl.html driven by Playwright (one page), and `pytfweb repl` through a
pseudo-terminal. Both run the same script: a multi-line definition, a call, `await t.data()` of a
webgl result, an exception and an entry after it, Ctrl+C, history."""
import os
import re
import sys
import time
from pathlib import Path

import pytest

import pytfweb as tf
from pytfweb.host import browser_config

from .conftest import auto_backend

REPO = Path(__file__).resolve().parents[2]
SCREENSHOT = REPO / "test-results" / "repl" / "repl.png"
LOAD_S = browser_config.TIMEOUTS["load"] / 1000


# --- the page ----------------------------------------------------------------------------------

class ReplPage:
    """web/repl.html, typed into as a user would."""

    def __init__(self, page):
        self.page = page
        self.input = page.locator("#input")

    def state(self):
        return self.page.evaluate("document.body.dataset.state")

    def output(self):
        return self.page.text_content("#output")

    def prompt(self):
        return self.page.text_content("#prompt")

    def type_line(self, line):
        if line:
            self.input.press_sequentially(line)
        self.input.press("Enter")

    def enter(self, line):
        """Type a line, press Enter, wait for the entry to finish; the output it added."""
        before = len(self.output())
        self.type_line(line)
        self.wait_ready()
        return self.output()[before:]

    def wait_ready(self):
        self.page.wait_for_function("document.body.dataset.state === 'ready'")

    def wait_output(self, text):
        self.page.wait_for_function("(t) => document.getElementById('output').textContent.includes(t)", arg=text)


def test_repl_page(server, browser):
    page = browser.new_page()
    errors = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.set_viewport_size({"width": 1200, "height": 1150})  # room for the whole session in the screenshot
    try:
        page.goto(server.url + "repl.html")
        page.wait_for_function("document.body.dataset.state !== 'loading'", timeout=browser_config.TIMEOUTS["load"])
        repl = ReplPage(page)
        assert repl.state() == "ready", page.text_content("#banner")

        banner = page.text_content("#banner")
        backend = auto_backend(page)   # the page's default
        assert f"pytfweb {tf.__version__} on Python 3." in banner
        assert "Pyodide" in banner and f"backend: {backend}" in banner
        renderer = re.search(r"(?:WebGL renderer|WebGPU adapter): (.*)", banner).group(1).strip()
        assert renderer and renderer != "n/a"
        assert "num_tensors=0" in page.text_content("#memory")
        assert repl.prompt() == ">>> "

        # A multi-line definition: continuation prompts until the empty line.
        assert repl.enter("def double(x):") == ">>> def double(x):\n"
        assert repl.prompt() == "... "
        repl.enter("    return x * 2")
        assert repl.prompt() == "... "
        repl.enter("")
        assert repl.prompt() == ">>> "

        # The call; the status line shows tf.memory() (the input and the result live on).
        assert repl.enter("t = double(tf.tensor([1, 2, 3]))") == ">>> t = double(tf.tensor([1, 2, 3]))\n"
        memory = page.text_content("#memory")
        assert backend in memory and "num_tensors=2" in memory
        assert re.search(r"num_(textures|buffers)=\d+ num_bytes_in_gpu=\d+", memory), memory
        # repr is TensorFlow's (numpy= a nested list: no numpy in the page)
        assert repl.enter("t") == ">>> t\n<tf.Tensor: shape=(3,), dtype=float32, numpy=[2.0, 4.0, 6.0]>\n"
        assert repl.enter("tf.get_backend()").endswith(f"'{backend}'\n")
        assert repl.enter("list(await t.data())").endswith("[2.0, 4.0, 6.0]\n")

        # Output appears as it is printed: "before" shows while the entry still waits.
        page.evaluate("() => { window.gate = new Promise((resolve) => { window.openGate = resolve; }); }")
        repl.type_line("import js; print('before'); await js.gate; print('after')")
        repl.wait_output("before\n")
        assert repl.state() == "running" and repl.output().endswith("')\nbefore\n")
        page.evaluate("() => { window.openGate(); }")
        repl.wait_ready()
        assert repl.output().endswith("before\nafter\n")

        # An exception: its traceback (with the lines of an earlier entry), and the session goes on.
        shown = repl.enter("double(None)")
        assert "Traceback (most recent call last):" in shown
        assert 'File "<input-1>", line 2, in double' in shown and "return x * 2" in shown
        assert shown.rstrip().endswith("TypeError: unsupported operand type(s) for *: 'NoneType' and 'int'")
        assert "TypeError" in page.locator("#output .stderr").last.text_content()
        assert repl.enter("1 + 1") == ">>> 1 + 1\n2\n"

        # Ctrl+C: interrupts an entry that awaits; drops an entry being typed.
        repl.type_line("import asyncio; print('sleeping'); await asyncio.sleep(60)")
        repl.wait_output("sleeping\n")
        repl.input.press("Control+c")
        repl.wait_ready()
        assert repl.output().endswith("sleeping\nKeyboardInterrupt\n")
        repl.enter("for i in range(3):")
        repl.input.press_sequentially("    print('never')")
        repl.input.press("Control+c")
        assert repl.prompt() == ">>> " and repl.input.input_value() == ""
        assert repl.output().endswith("...     print('never')^C\nKeyboardInterrupt\n")
        assert repl.enter("'after'") == ">>> 'after'\n'after'\n"

        # History: Up/Down walk the submitted lines; what was being typed comes back at the end.
        repl.input.press_sequentially("draft")
        repl.input.press("ArrowUp")
        assert repl.input.input_value() == "'after'"
        repl.input.press("ArrowUp")
        assert repl.input.input_value() == "for i in range(3):"
        repl.input.press("ArrowDown")
        repl.input.press("ArrowDown")
        assert repl.input.input_value() == "draft"
        repl.input.fill("")
        for _ in range(4):  # 'after', for ..., import asyncio ..., 1 + 1
            repl.input.press("ArrowUp")
        assert repl.input.input_value() == "1 + 1"
        assert repl.enter("") == ">>> 1 + 1\n2\n"  # Enter runs the recalled line

        SCREENSHOT.parent.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOT))
        print(f"\nREPL screenshot: {SCREENSHOT}")

        # Ctrl+L clears the output; the banner and the session stay.
        repl.input.press("Control+l")
        assert repl.output() == ""
        assert f"backend: {auto_backend(page)}" in page.text_content("#banner")
        assert repl.enter("2 * 21") == ">>> 2 * 21\n42\n"
        assert not errors, errors
    finally:
        page.close()


# --- the terminal ------------------------------------------------------------------------------

def _pytfweb_cmd():
    exe = Path(sys.executable).parent / "pytfweb"
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "pytfweb.cli"]


def test_repl_terminal(tmp_path):
    pexpect = pytest.importorskip("pexpect")
    history = tmp_path / "history"
    env = dict(os.environ, PYTFWEB_HISTORY=str(history), TERM="dumb")
    cmd = _pytfweb_cmd() + ["repl"]
    child = pexpect.spawn(cmd[0], cmd[1:], env=env, encoding="utf-8", timeout=60, dimensions=(50, 200))
    transcript = []
    child.logfile_read = _Collect(transcript)

    def entry(line, prompt=">>> "):
        """Send a line; the text up to the next prompt."""
        child.sendline(line)
        child.expect_exact(prompt)
        return child.before

    try:
        child.expect_exact(">>> ", timeout=LOAD_S)
        assert f"pytfweb {tf.__version__} on Python 3." in child.before
        assert "backend: webgl" in child.before and "WebGL renderer: " in child.before

        entry("def double(x):", prompt="... ")
        entry("    return x * 2", prompt="... ")
        entry("")
        entry("t = double(tf.tensor([1, 2, 3]))")
        # the echo is the Python repr (shape and dtype, as TensorFlow's); print() keeps TF.js's text
        assert "<tf.Tensor: shape=(3,), dtype=float32, numpy=[2.0, 4.0, 6.0]>" in entry("t")
        assert "Tensor\r\n    [2, 4, 6]" in entry("print(t)")
        assert "[2.0, 4.0, 6.0]" in entry("list(await t.data())")

        shown = entry("double(None)")
        assert "Traceback (most recent call last):" in shown
        assert 'File "<input-1>", line 2, in double' in shown and "return x * 2" in shown
        assert "TypeError: unsupported operand type(s)" in shown
        assert entry("1 + 1").endswith("\r\n2\r\n")
        child.send("\x1b[A")  # readline: Up recalls the last line
        assert entry("").endswith("1 + 1\r\n2\r\n")

        # Ctrl+C drops the entry being typed ...
        entry("for i in range(3):", prompt="... ")
        child.send("    print('never')")
        # Press Ctrl+C once readline has echoed the text, as a person would: CPython's readline
        # acts on a SIGINT only when it interrupts the wait for a key, so one that lands while the
        # typed characters are still being processed waits for the next key.
        child.expect_exact("print('never')")
        time.sleep(0.3)
        child.sendcontrol("c")
        child.expect_exact("KeyboardInterrupt")
        child.expect_exact(">>> ")
        assert entry("'after'").endswith("'after'\r\n")
        # ... and cancels an entry that awaits.
        child.sendline("import asyncio; print('sleeping'); await asyncio.sleep(60)")
        # the output line, not the terminal's echo of the entry (which holds "sleeping')"): a Ctrl+C
        # sent before the entry reached the page is one "from before this line" and does not count
        child.expect_exact("sleeping\r\n")
        child.sendcontrol("c")
        child.expect_exact("KeyboardInterrupt")
        child.expect_exact(">>> ")
        assert entry("t.dtype").endswith("'float32'\r\n")  # the namespace survived it all

        child.sendcontrol("d")
        child.expect(pexpect.EOF, timeout=60)
    except (pexpect.TIMEOUT, pexpect.EOF) as exc:
        pytest.fail(f"{type(exc).__name__}; the terminal showed:\n{''.join(transcript)}")
    finally:
        child.close()
    assert child.exitstatus == 0, "".join(transcript)
    assert "'after'" in history.read_text()  # readline's history was saved


class _Collect:
    """A pexpect log that keeps the transcript for failure messages."""

    def __init__(self, into):
        self.into = into

    def write(self, text):
        self.into.append(text)

    def flush(self):
        pass
