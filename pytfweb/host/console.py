"""The REPL's one implementation of "evaluate an entry", behind web/repl.html and `pytfweb repl`.

It runs in the page (Pyodide), where web/repl.js calls it for both front ends; it needs only the
standard library and pytfweb, so it works in CPython as well (tests/unit exercise it there).

    console = Console()                      # __main__'s namespace, with `tf` imported
    await console.push("def double(x):")    # -> {"more": True}: a continuation line is wanted
    await console.push("    return x * 2")
    await console.push("")                   # runs the definition -> {"more": False, ...}
    await console.push("list(await double(tf.tensor([1, 2])).data())")   # prints [2.0, 4.0]

Lines are compiled as Python's own console does (codeop, "single" mode: an expression's value
goes through sys.displayhook), with top-level await allowed. Everything an entry shows goes to
sys.stdout and sys.stderr as it is written -- its prints, the echoed repr, tracebacks -- so each
front end renders one pair of streams, in order, while the entry runs.
"""
import ast
import asyncio
import codeop
import inspect
import json
import platform
import sys
import traceback

import pytfweb as tf

from .script import remember_source, exit_status, print_exception


class Console:
    """One persistent namespace and the lines of the entry being typed."""

    def __init__(self, namespace=None):
        if namespace is None:
            # __main__, as in Python's console: in the page that is pyodide.globals, so the
            # REPL's variables are visible from JavaScript too.
            namespace = sys.modules["__main__"].__dict__
        namespace.setdefault("tf", tf)
        self.namespace = namespace
        self.buffer = []        # lines of an incomplete entry
        self.entries = 0        # complete entries so far; names their source "<input-N>"
        self._compile = codeop.CommandCompiler()
        self._compile.compiler.flags |= ast.PyCF_ALLOW_TOP_LEVEL_AWAIT
        self._task = None       # the running entry, when it awaits (so that it can be cancelled)
        self._interrupted = False

    async def push(self, line):
        """Add a line to the entry; run the entry when it is complete.

        Returns {"more": True} when the entry needs more lines, else {"more": False, "exit":
        None or the status of a SystemExit, "status": memory line, "memory": tf.memory() numbers}.
        """
        self.buffer.append(line)
        source = "\n".join(self.buffer)
        filename = f"<input-{self.entries + 1}>"
        try:
            code = self._compile(source, filename, "single")
        except (OverflowError, SyntaxError, ValueError) as exc:
            self.buffer = []
            traceback.print_exception(type(exc), exc, None)  # no frames: they are the compiler's
            return self._finished(None)
        if code is None:
            return {"more": True}
        self.buffer = []
        self.entries += 1
        # Tracebacks then show the lines of earlier entries too (a function defined in one, called in another).
        remember_source(filename, source + "\n")
        return self._finished(await self._run(code, filename))

    async def push_json(self, line):
        """push() for JavaScript: the reply as JSON text (no proxies to free)."""
        return json.dumps(await self.push(line))

    def cancel_input(self):
        """Drop the lines of an incomplete entry (Ctrl+C at a continuation prompt)."""
        self.buffer = []

    def interrupt(self):
        """Cancel the running entry at its next await; it ends with "KeyboardInterrupt". An entry
        that never awaits cannot be stopped: it holds the page's only thread. True when cancelled."""
        if self._task is None or self._task.done():
            return False
        self._interrupted = True
        self._task.cancel()
        return True

    async def _run(self, code, filename):
        """Run one compiled entry; its exit status for a SystemExit, else None."""
        try:
            result = eval(code, self.namespace)  # noqa: S307 - evaluating the user's input is the point
            if inspect.iscoroutine(result):      # the entry awaits: run it as a task that interrupt() can cancel
                self._task = asyncio.ensure_future(result)
                await self._task
        except SystemExit as exc:
            return exit_status(exc)
        except asyncio.CancelledError as exc:
            if self._interrupted:
                print("KeyboardInterrupt", file=sys.stderr)
            else:
                print_exception(exc, filename)
        except BaseException as exc:  # noqa: BLE001 - shown, and the session goes on
            print_exception(exc, filename)
        finally:
            self._task = None
            self._interrupted = False
            _flush()
        return None

    def _finished(self, exit_code):
        memory = memory_numbers()
        return {"more": False, "exit": exit_code, "status": status_line(memory), "memory": memory}


def banner():
    """Two lines: versions, then the backend and its WebGL renderer or WebGPU adapter."""
    python = f"Python {platform.python_version()}"
    pyodide = sys.modules.get("pyodide") or _try_import("pyodide")
    if pyodide is not None:
        python += f" (Pyodide {getattr(pyodide, '__version__', '?')}, {sys.platform})"
    try:
        backend = tf.get_backend()
        renderer = getattr(tf.backend(), "renderer", None) or "n/a"
    except Exception as exc:  # noqa: BLE001 - a banner must not fail
        backend, renderer = f"none ({exc})", "n/a"
    what = "WebGPU adapter" if backend == "webgpu" else "WebGL renderer"
    return f"pytfweb {tf.__version__} on {python}\nbackend: {backend}   {what}: {renderer}"


def memory_numbers():
    """The tf.memory() numbers the status line shows (those the active backend has)."""
    try:
        info = tf.memory()
        numbers = {"backend": tf.get_backend()}
    except Exception as exc:  # noqa: BLE001 - a status line must not fail
        return {"error": f"{type(exc).__name__}: {exc}"}
    for key in ("num_tensors", "num_textures", "num_buffers", "num_bytes_in_gpu", "num_bytes"):
        if hasattr(info, key):
            numbers[key] = getattr(info, key)
    return numbers


def status_line(numbers=None):
    """'webgl · tf.memory(): num_tensors=1 num_textures=1 num_bytes_in_gpu=12' (webgpu:
    num_buffers; num_bytes where the backend has no GPU memory)."""
    numbers = numbers if numbers is not None else memory_numbers()
    if "error" in numbers:
        return f"tf.memory() failed: {numbers['error']}"
    keys = ["num_tensors", "num_textures", "num_buffers", "num_bytes_in_gpu"]
    if "num_bytes_in_gpu" not in numbers:
        keys.append("num_bytes")
    shown = " ".join(f"{k}={numbers[k]}" for k in keys if k in numbers)
    return f"{numbers['backend']} · tf.memory(): {shown}"


def _try_import(name):
    try:
        return __import__(name)
    except ImportError:
        return None


def _flush():
    for f in (sys.stdout, sys.stderr):
        try:
            f.flush()
        except Exception:  # noqa: BLE001
            pass
