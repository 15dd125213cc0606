"""Running Python source as a script or as a snippet, with top-level await.

Used by `pytfweb run` in CPython (--backend cpu) and inside Pyodide (webgl), and by the browser
test harness; it needs nothing but the standard library.
"""
import ast
import asyncio
import inspect
import json
import linecache
import sys
import traceback
import types

_FLAGS = ast.PyCF_ALLOW_TOP_LEVEL_AWAIT


def remember_source(filename, source):
    """So that tracebacks show the lines even where the file is not on this file system."""
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)


async def _exec(code, namespace):
    result = eval(code, namespace)  # noqa: S307 - running the user's own script is the point
    if inspect.iscoroutine(result):
        result = await result
    return result


def print_exception(exc, filename, file=None):
    """The traceback of exc from the first frame in `filename` on (the runner's frames left out)."""
    tb = exc.__traceback__
    while tb is not None and tb.tb_frame.f_code.co_filename != filename:
        tb = tb.tb_next
    traceback.print_exception(type(exc), exc, tb or exc.__traceback__, file=file or sys.stderr)


def exit_status(exc):
    """The process exit status for a SystemExit, as CPython computes it (printing a message)."""
    code = exc.code
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=sys.stderr)
    return 1


def _main_module(filename):
    mod = types.ModuleType("__main__")
    mod.__file__ = filename
    mod.__builtins__ = __builtins__
    return mod


def _prepare(source, filename, argv):
    remember_source(filename, source)
    code = compile(source, filename, "exec", flags=_FLAGS, dont_inherit=True)
    old = sys.argv, sys.modules.get("__main__")
    sys.argv = [filename, *argv]
    mod = _main_module(filename)
    sys.modules["__main__"] = mod
    return code, mod, old


def _restore(old):
    sys.argv = old[0]
    if old[1] is not None:
        sys.modules["__main__"] = old[1]


def _status_of(exc, filename):
    if isinstance(exc, SystemExit):
        return exit_status(exc)
    print_exception(exc, filename)
    return 1


def _flush():
    for f in (sys.stdout, sys.stderr):
        try:
            f.flush()
        except Exception:  # noqa: BLE001
            pass


async def run_source_async(source, filename, argv=()):
    """Run source as __main__ with sys.argv = [filename, *argv] and return the exit status:
    0 at the end, n for sys.exit(n), 1 (with the traceback on stderr) for an uncaught exception."""
    try:
        code, mod, old = _prepare(source, filename, argv)
    except SyntaxError as exc:
        traceback.print_exception(type(exc), exc, None)
        return 1
    try:
        await _exec(code, mod.__dict__)
        return 0
    except BaseException as exc:  # noqa: BLE001 - a script's every way out becomes a status
        return _status_of(exc, filename)
    finally:
        _flush()
        _restore(old)


def run_source(source, filename, argv=()):
    """run_source_async for CPython without a running event loop: a script without top-level
    await runs synchronously (so it may call asyncio.run itself); one with it, in asyncio.run."""
    try:
        code, mod, old = _prepare(source, filename, argv)
    except SyntaxError as exc:
        traceback.print_exception(type(exc), exc, None)
        return 1
    try:
        if code.co_flags & inspect.CO_COROUTINE:
            asyncio.run(_exec(code, mod.__dict__))
        else:
            exec(code, mod.__dict__)  # noqa: S102
        return 0
    except BaseException as exc:  # noqa: BLE001
        return _status_of(exc, filename)
    finally:
        _flush()
        _restore(old)


def run_path(path, argv=()):
    with open(path, encoding="utf-8") as f:
        source = f.read()
    return run_source(source, path, argv)


# --- snippets (the browser test harness) ------------------------------------------------------

async def eval_snippet(source, namespace, filename="<snippet>"):
    """Run source in namespace with top-level await; return the value of its last line when
    that is an expression with a value other than None, else namespace['result'] (None when
    absent)."""
    remember_source(filename, source)
    tree = ast.parse(source, filename)
    last = None
    if tree.body and isinstance(tree.body[-1], ast.Expr):
        last = ast.Expression(tree.body.pop().value)
    namespace.pop("result", None)
    await _exec(compile(tree, filename, "exec", flags=_FLAGS, dont_inherit=True), namespace)
    if last is not None:
        value = await _exec(compile(last, filename, "eval", flags=_FLAGS, dont_inherit=True), namespace)
        if value is not None:
            return value
    return namespace.get("result")


async def to_plain(value):
    """value as data that json can carry: tensors become {"__tensor__": ...}, tuples lists,
    buffers lists, dict keys strings. Floats stay floats; nan and inf pass through json.dumps
    (as NaN / Infinity, which json.loads reads back)."""
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return value
    if hasattr(value, "data_id") and hasattr(value, "dtype") and hasattr(value, "shape"):  # a Tensor
        flat = await value.data()
        return {"__tensor__": True, "shape": list(value.shape), "dtype": value.dtype,
                "values": [_scalar(v, value.dtype) for v in _flat_list(flat)]}
    if isinstance(value, dict):
        return {str(k): await to_plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [await to_plain(v) for v in value]
    if hasattr(value, "tolist"):  # memoryview, array.array, numpy
        return value.tolist()
    if isinstance(value, (bytes, bytearray)):
        return list(value)
    if hasattr(value, "to_py"):  # a JsProxy
        return await to_plain(value.to_py())
    return repr(value)


def _flat_list(flat):
    if hasattr(flat, "tolist"):
        return flat.tolist()
    if hasattr(flat, "to_py"):
        flat = flat.to_py()
    return list(flat)


def _scalar(v, dtype):
    if dtype == "string":
        return v
    if dtype == "bool":
        return bool(v)
    if dtype == "int32":
        return int(v)
    return float(v)


def dumps(value):
    """JSON with NaN/Infinity allowed: both ends of the harness are Python."""
    return json.dumps(value, allow_nan=True)



def line_buffered_stdio():
    """Line-buffered sys.stdout and sys.stderr on file descriptors 1 and 2, whatever they are
    connected to, so a host streaming them sees each line (or explicit flush) as it is written."""
    import io
    for name, fd in (("stdout", 1), ("stderr", 2)):
        old = getattr(sys, name)
        try:
            old.flush()
        except Exception:  # noqa: BLE001
            pass
        raw = io.FileIO(fd, "w", closefd=False)
        setattr(sys, name, io.TextIOWrapper(io.BufferedWriter(raw), encoding="utf-8",
                                            errors="backslashreplace", line_buffering=True))
