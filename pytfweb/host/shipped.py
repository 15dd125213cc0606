"""A test function shipped into the page: what the pytest plugin (pytfweb.pytest_plugin) sends and
what the page does with it. Standard library only: the host half runs in CPython, the page half in
Pyodide (the pytfweb bundle holds this module).

Host: `ship(fn)` -> the test's file as the page runs it: every line blanked except the module's
imports, the test function and the module-level functions, classes and constants it uses
(transitively), so line numbers stay the file's. Page: `run(...)` compiles that text under the
file's name with its asserts rewritten (`rewrite_asserts`: a failed `assert a == b` says the
expression and both values, as pytest's does), runs the test (awaited when async) within a
deadline, and reports the outcome as JSON; `reset(backend)` disposes what a test left and sets the
backend again between tests.
"""
import ast
import asyncio
import inspect
import json
import sys
import time
import traceback
import types

_TOP_LEVEL = (ast.Import, ast.ImportFrom)
_DEFINES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Assign, ast.AnnAssign)


# --- host: what to ship -------------------------------------------------------------------------

def _defined_names(node):
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return {node.name}
    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
    return {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}


def _used_names(node):
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def _first_line(node):
    return min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])


def select_source(source, name):
    """`source` (a module's text) with every line blanked except its top-level imports, the function
    `name` and the top-level definitions that function uses, directly or through each other. A
    KeyError when the module defines no top-level `name`."""
    tree = ast.parse(source)
    defs, keep, target = {}, [], None
    for node in tree.body:
        if isinstance(node, _TOP_LEVEL):
            keep.append(node)
        elif isinstance(node, _DEFINES):
            for n in _defined_names(node):
                defs[n] = node
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == name:
                target = node
    if target is None:
        raise KeyError(f"no top-level function {name!r} in the module")
    wanted, todo = {id(target): target}, [target]
    while todo:
        for n in _used_names(todo.pop()):
            node = defs.get(n)
            if node is not None and id(node) not in wanted:
                wanted[id(node)] = node
                todo.append(node)
    keep += wanted.values()
    lines = source.splitlines()
    shown = [False] * len(lines)
    for node in keep:
        for i in range(_first_line(node) - 1, node.end_lineno):
            shown[i] = True
    return "\n".join(line if s else "" for line, s in zip(lines, shown)) + "\n"


def ship(fn):
    """What the page needs to run test function fn: its file's name and full text (for
    tracebacks), the selected text to run, the function's name and module name."""
    filename = inspect.getsourcefile(fn)
    with open(filename, encoding="utf-8") as f:
        source = f.read()
    return {"filename": filename, "source": source, "code": select_source(source, fn.__name__),
            "name": fn.__name__, "module": fn.__module__}


# --- both: assert rewriting ---------------------------------------------------------------------

_OPS = {ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=",
        ast.Is: "is", ast.IsNot: "is not", ast.In: "in", ast.NotIn: "not in"}


def _short_repr(value, limit=240):
    try:
        text = repr(value)
    except Exception as exc:  # noqa: BLE001 - a broken __repr__ must not hide the failure
        text = f"<repr failed: {type(exc).__name__}>"
    return text if len(text) <= limit else text[:limit - 3] + "..."


def explain(text, msg, op=None, left=None, right=None, left_text=None, right_text=None, value=None):
    """The message of a failed assert, as pytest words it: the user's message, `assert <the values>`,
    then which expression gave each value."""
    lines = [] if msg is None else [str(msg)]
    if op is None:
        lines.append(f"assert {_short_repr(value)}")
        lines.append(f"  where {_short_repr(value)} = {text}")
        return "\n".join(lines)
    lines.append(f"assert {_short_repr(left)} {op} {_short_repr(right)}")
    shown = "where"
    for value, expr in ((left, left_text), (right, right_text)):
        if expr != repr(value):
            lines.append(f"  {shown} {_short_repr(value)} = {expr}")
            shown = "and"
    return "\n".join(lines)


class _AssertRewriter(ast.NodeTransformer):
    """`assert left OP right, msg` -> evaluate both sides once into locals, then
    `if not (l OP r): raise AssertionError(explain(...))`; any other assert keeps its value for the
    message. Function and class bodies are visited too; line numbers are the assert's."""

    def __init__(self, helper):
        self.helper = helper
        self.count = 0

    def _name(self, ctx):
        return ast.Name(f"_pytfweb_assert_{self.count}", ctx)

    def visit_Assert(self, node):
        self.count += 1
        text = ast.unparse(node.test)
        msg = node.msg if node.msg is not None else ast.Constant(None)
        test = node.test
        helper = ast.Name(self.helper, ast.Load())
        body = []
        if isinstance(test, ast.Compare) and len(test.ops) == 1 and type(test.ops[0]) in _OPS:
            n = self.count
            left, right = ast.Name(f"_pytfweb_l{n}", ast.Store()), ast.Name(f"_pytfweb_r{n}", ast.Store())
            body.append(ast.Assign([left], test.left))
            body.append(ast.Assign([right], test.comparators[0]))
            lload, rload = ast.Name(left.id, ast.Load()), ast.Name(right.id, ast.Load())
            cond = ast.Compare(lload, test.ops, [rload])
            call = ast.Call(helper, [ast.Constant(text), msg, ast.Constant(_OPS[type(test.ops[0])]), lload, rload,
                                     ast.Constant(ast.unparse(test.left)),
                                     ast.Constant(ast.unparse(test.comparators[0]))], [])
        else:
            value = ast.Name(f"_pytfweb_v{self.count}", ast.Store())
            body.append(ast.Assign([value], test))
            cond = ast.Name(value.id, ast.Load())
            call = ast.Call(helper, [ast.Constant(text), msg],
                            [ast.keyword("value", ast.Name(value.id, ast.Load()))])
        body.append(ast.If(ast.UnaryOp(ast.Not(), cond),
                           [ast.Raise(ast.Call(ast.Name("AssertionError", ast.Load()), [call], []), None)], []))
        for stmt in body:
            ast.copy_location(stmt, node)
            for child in ast.walk(stmt):
                if not hasattr(child, "lineno") and "lineno" in child._attributes:
                    ast.copy_location(child, node)
        return body


HELPER = "_pytfweb_explain"


def rewrite_asserts(tree):
    """tree (an ast.Module) with its asserts rewritten; their messages come from `explain`, which
    the namespace the code runs in must hold as HELPER."""
    tree = _AssertRewriter(HELPER).visit(tree)
    return ast.fix_missing_locations(tree)


def compile_test(code, filename):
    """The shipped text compiled under the user's file name, asserts rewritten."""
    return compile(rewrite_asserts(ast.parse(code, filename)), filename, "exec", dont_inherit=True)


# --- page: running one test ---------------------------------------------------------------------

class _PytestShim(types.ModuleType):
    """`import pytest` in a shipped file: pytest itself is not in the page. Marks are no-ops (the
    host has applied them); raises, skip, fail and approx-free helpers work as pytest's do."""

    class _Mark:
        def __getattr__(self, name):
            def mark(*args, **kwargs):
                if len(args) == 1 and callable(args[0]) and not kwargs:
                    return args[0]
                return lambda f: f
            return mark

    class _Outcome(BaseException):
        pass

    class skip_exception(_Outcome):   # noqa: N801 - pytest's spelling
        pass

    class fail_exception(_Outcome):   # noqa: N801
        pass

    def __init__(self):
        super().__init__("pytest")
        self.mark = self._Mark()

    def fixture(self, *args, **kwargs):
        if len(args) == 1 and callable(args[0]):
            return args[0]
        return lambda f: f

    def skip(self, reason=""):
        raise self.skip_exception(reason)

    def fail(self, reason="", pytrace=True):
        raise self.fail_exception(reason)

    def raises(self, expected, match=None):
        return _Raises(expected, match)

    def __getattr__(self, name):
        raise AttributeError(f"pytest.{name} is not available in the page (pytest itself is not in Pyodide: "
                             "raises, skip, fail, fixture and mark are); for approx, use pytfweb.testing.assert_close")


class _Raises:
    def __init__(self, expected, match):
        self.expected, self.match, self.value = expected, match, None

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc, tb):
        name = getattr(self.expected, "__name__", repr(self.expected))
        if exc_type is None:
            raise AssertionError(f"DID NOT RAISE {name}")
        if not issubclass(exc_type, self.expected):
            return False
        if self.match is not None:
            import re
            if not re.search(self.match, str(exc)):
                raise AssertionError(f"Regex pattern did not match.\n Regex: {self.match!r}\n Input: {str(exc)!r}")
        self.value = exc
        return True


_SHIM = _PytestShim()


class _Deadline:
    """Raises TimeoutError in the test's own lines once `seconds` have passed (sys.monitoring,
    Python 3.12+, on the shipped code objects only: nothing else pays for it). A test stuck in an
    await is stopped by asyncio.wait_for instead."""

    TOOL = 4   # a free sys.monitoring tool id (0-2 and 5 are debugger, coverage, profiler, optimizer)

    def __init__(self, code, seconds):
        self.end = time.monotonic() + seconds
        self.seconds = seconds
        self.mon = getattr(sys, "monitoring", None)
        self.codes = []
        if self.mon is None:
            return
        stack = [code]
        while stack:
            c = stack.pop()
            self.codes.append(c)
            stack += [k for k in c.co_consts if isinstance(k, types.CodeType)]

    def __enter__(self):
        if self.mon is not None:
            m = self.mon
            try:
                m.use_tool_id(self.TOOL, "pytfweb-timeout")
            except ValueError:   # the id is taken (a tool of the user's): only awaits are bounded then
                self.mon = None
                return self
            m.register_callback(self.TOOL, m.events.LINE, self._line)
            for c in self.codes:
                m.set_local_events(self.TOOL, c, m.events.LINE)
        return self

    def _line(self, code, line):
        if time.monotonic() > self.end:
            raise TimeoutError(f"the test ran past its timeout of {self.seconds:g} s (--pytfweb-timeout)")

    def __exit__(self, *exc):
        if self.mon is not None:
            m = self.mon
            for c in self.codes:
                m.set_local_events(self.TOOL, c, 0)
            m.register_callback(self.TOOL, m.events.LINE, None)
            m.free_tool_id(self.TOOL)


# The key marking a served folder (tf_files) among a test's JSON arguments.
SERVED_FOLDER = "__pytfweb_served_folder__"


def _argument(value):
    if isinstance(value, dict) and value.get(SERVED_FOLDER):
        return types.SimpleNamespace(path=value["path"], url=value["url"])
    return value


def leak_message(backend, before, after):
    return (f"leak on {backend} (--pytfweb-check-leaks): tf.memory() went from {before[0]} tensors / "
            f"{before[1]} data buffers to {after[0]} / {after[1]} during the test")


def _count(tf):
    m = tf.memory()
    return m.num_tensors, m.num_data_buffers


def _frames_from(exc, filename):
    """The traceback from the first frame in the user's file on (the runner's frames left out)."""
    tb = exc.__traceback__
    while tb is not None and tb.tb_frame.f_code.co_filename != filename:
        tb = tb.tb_next
    return "".join(traceback.format_exception(type(exc), exc, tb or exc.__traceback__))


async def run(payload_json):
    """Runs one shipped test; JSON {"outcome": passed|failed|skipped, ...}. The payload: ship()'s
    dict plus "kwargs" (the arguments, JSON values), "backend", "timeout", "check_leaks"."""
    from pytfweb.host.script import remember_source

    import pytfweb as tf
    p = json.loads(payload_json)
    filename = p["filename"]
    remember_source(filename, p["source"])
    sys.modules["pytest"] = _SHIM
    try:
        code = compile_test(p["code"], filename)
        module = types.ModuleType(p["module"])
        module.__file__ = filename
        module.__dict__[HELPER] = explain
        exec(code, module.__dict__)  # noqa: S102 - the user's own test
        fn = module.__dict__[p["name"]]
        before = _count(tf)
        with _Deadline(code, p["timeout"]):
            result = fn(**{k: _argument(v) for k, v in p["kwargs"].items()})
            if inspect.iscoroutine(result):
                try:
                    await asyncio.wait_for(result, p["timeout"])
                except TimeoutError:
                    raise TimeoutError(f"the test was still awaiting after its timeout of {p['timeout']:g} s "
                                       "(--pytfweb-timeout)") from None
        if p["check_leaks"]:
            after = _count(tf)
            if after[0] > before[0] or after[1] > before[1]:
                return json.dumps({"outcome": "failed", "longrepr": leak_message(p["backend"], before, after)})
        return json.dumps({"outcome": "passed"})
    except _PytestShim.skip_exception as exc:
        return json.dumps({"outcome": "skipped", "longrepr": str(exc)})
    except _PytestShim.fail_exception as exc:
        return json.dumps({"outcome": "failed", "longrepr": str(exc)})
    except BaseException as exc:  # noqa: BLE001 - every way out is reported to the host
        return json.dumps({"outcome": "failed", "type": type(exc).__name__,
                           "longrepr": _frames_from(exc, filename)})
    finally:
        sys.modules.pop("pytest", None)


async def reset(backend):
    """Between tests: every tensor and variable disposed, flags reset, `backend` set (and ready).
    The backend objects (a WebGL context with its compiled programs) stay. '' when it is set, else
    the error (a backend the browser cannot give)."""
    import pytfweb as tf
    eng = tf.engine()
    eng.dispose_all()
    tf.env().reset()
    try:
        if eng.backend_name != backend:
            tf.set_backend(backend)
            await tf.ready()
        return ""
    except Exception as exc:  # noqa: BLE001 - reported to the host, which skips or fails
        return f"{type(exc).__name__}: {exc}"


# --- the user's own modules ---------------------------------------------------------------------

def local_modules(root, exclude=()):
    """{path in a sys.path folder: text} of the modules imported in this process whose files are
    under `root` (the user's project: a model module the tests import), not pytfweb's, not in a
    site-packages folder, not test or conftest files; so that the page can import them too."""
    import os
    root = os.path.realpath(root)
    package = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
    out = {}
    for name, mod in list(sys.modules.items()):
        path = getattr(mod, "__file__", None)
        if not path or not path.endswith(".py") or name in exclude or name == "__main__":
            continue
        path = os.path.realpath(path)
        leaf = name.rpartition(".")[2]
        if (not path.startswith(root + os.sep) or path.startswith(package + os.sep) or "site-packages" in path
                or leaf.startswith("test_") or leaf.endswith("_test") or leaf == "conftest"):
            continue
        rel = name.replace(".", "/") + ("/__init__.py" if os.path.basename(path) == "__init__.py" else ".py")
        with open(path, encoding="utf-8") as f:
            out[rel] = f.read()
    return out


USER_DIR = "/home/pyodide/pytfweb_user"


def install(files_json):
    """Page: writes local_modules()'s files under USER_DIR (first on sys.path) and forgets any
    earlier import of them, so the next import reads these."""
    import importlib
    import os
    files = json.loads(files_json)
    for rel, text in files.items():
        path = os.path.join(USER_DIR, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        name = rel[:-len("/__init__.py")] if rel.endswith("/__init__.py") else rel[:-3]
        sys.modules.pop(name.replace("/", "."), None)
    if USER_DIR not in sys.path:
        sys.path.insert(0, USER_DIR)
    importlib.invalidate_caches()
