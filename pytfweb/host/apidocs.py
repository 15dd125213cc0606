"""The API reference: which names are public, whether each is documented, and the HTML built from
their docstrings with pdoc.

The public API is what a user reaches from `import pytfweb as tf`: the names of `tf.__all__`, and
in each namespace of NAMESPACES (tf.layers, tf.train, tf.io, ...) its `__all__`, or, for a
namespace without one, TF.js 4.22's names there (pytfweb/data/tfjs-4.22-api.json) plus the
classes pytfweb defines in it; for every public class, the public methods and properties it or
a non-public base defines (Model.fit is the training mixin's); an override without a docstring
inherits its base's, as `help()` shows it.

A name is documented when its docstring says what it is and, for a function or method, has an
`Args:` section naming every parameter (those after `*` included; `self`, `*args`, `**kwargs`
aside), a `Returns:` section unless it is annotated `-> None` or returns no value, and for
module-level functions and classes an `Example:` section with a `>>>` line (Google style, as pdoc
renders it).

    python -m pytfweb.host.apidocs OUTDIR     the HTML reference (make api-docs: build/api)
    python -m pytfweb.host.apidocs --check    every public name not documented, one a line
"""
import ast
import functools
import inspect
import json
import re
import sys
import tempfile
import textwrap
import types
from pathlib import Path

import pytfweb as tf

#: tf.<name> namespaces documented besides the top level (the modules pytfweb/__init__.py exposes).
NAMESPACES = ("layers", "train", "io", "data", "losses", "metrics", "initializers", "regularizers", "constraints",
              "callbacks", "image", "linalg", "signal", "spectral", "fused", "string", "sparse", "math", "browser",
              "util", "vis", "vis.render", "vis.show", "serialization")

#: Public functions of a namespace without __all__ that TF.js's name list lacks.
EXTRA_NAMES = {"callbacks": ("early_stopping",), "serialization": ("register_class",)}

_SECTION = re.compile(r"^(\w[\w ]*):\s*$", re.M)


def _tfjs_names():
    path = Path(__file__).resolve().parents[1] / "data" / "tfjs-4.22-api.json"
    return json.loads(path.read_text(encoding="utf-8"))["python_names"]


def _own_classes(module):
    """Classes pytfweb defines that module exposes under a public name."""
    return [n for n, v in vars(module).items() if not n.startswith("_") and inspect.isclass(v)
            and v.__module__.startswith("pytfweb.")]


def _namespace(ns):
    """The module tf.<ns> (ns may be dotted: 'vis.render')."""
    return functools.reduce(getattr, ns.split("."), tf)


def namespace_names(tf, ns):
    """The public names of tf.<ns>, sorted."""
    module = _namespace(ns)
    names = getattr(module, "__all__", None)
    if names:
        return sorted(n for n in names if not isinstance(getattr(module, n, None), types.ModuleType))
    tfjs = [*_tfjs_names().get(ns, {}).values(), *EXTRA_NAMES.get(ns, ())]
    return sorted({n for n in tfjs if hasattr(module, n)} | set(_own_classes(module)))


def _class_members(cls):
    """(name, member) of the public methods and properties cls defines itself."""
    for name, value in vars(cls).items():
        if name.startswith("_") and name != "__call__":
            continue
        if isinstance(value, (staticmethod, classmethod)):
            value = value.__func__
        if isinstance(value, property) or inspect.isfunction(value):
            yield name, value


def public_api():
    """{qualified name: object} of every public name (tf.add, tf.Tensor, tf.Tensor.reshape,
    tf.layers.dense, tf.layers.Layer.apply, tf.layers.Model.fit, ...). A class reached from two
    namespaces is listed once, under the first; a member once, under the first class listing it.
    A class's members are those it defines and those of its non-public bases (Model.fit, which
    the training mixin defines)."""
    names = [(f"tf.{n}", getattr(tf, n)) for n in sorted(tf.__all__)
             if not isinstance(getattr(tf, n), types.ModuleType)]
    for ns in NAMESPACES:
        module = _namespace(ns)
        names += [(f"tf.{ns}.{n}", getattr(module, n)) for n in namespace_names(tf, ns)]
    public_classes = {id(obj) for _, obj in names if inspect.isclass(obj)}
    found, seen = {}, set()
    for qualname, obj in names:
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        found[qualname] = obj
        if not (inspect.isclass(obj) and obj.__module__.startswith("pytfweb.")):
            continue
        for cls in obj.__mro__:
            if cls is not obj and (id(cls) in public_classes or not cls.__module__.startswith("pytfweb.")):
                continue
            for name, member in _class_members(cls):
                if id(member) not in seen and f"{qualname}.{name}" not in found:
                    seen.add(id(member))
                    found[f"{qualname}.{name}"] = member
    return found


def _sections(doc):
    """{section title: body} of a Google-style docstring."""
    out, marks = {}, list(_SECTION.finditer(doc))
    for i, m in enumerate(marks):
        end = marks[i + 1].start() if i + 1 < len(marks) else len(doc)
        out[m.group(1)] = doc[m.end():end]
    return out


def _named_params(fn):
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return [], inspect.Signature.empty
    names = [p.name for p in sig.parameters.values()
             if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD) and p.name not in ("self", "cls")]
    return names, sig.return_annotation


def _returns_value(fn):
    """Whether fn's body has a `return <value>` (or yields): a function without one needs no
    Returns: section even unannotated. True where the source cannot be read."""
    fn = inspect.unwrap(fn)
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    except (OSError, TypeError, SyntaxError):
        return True
    func = tree.body[0]
    if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return True   # a lambda's source line
    todo = list(func.body)
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            continue
        if isinstance(node, (ast.Yield, ast.YieldFrom)) or (isinstance(node, ast.Return) and node.value is not None):
            return True
        todo.extend(ast.iter_child_nodes(node))
    return False


def problems(qualname, obj):
    """What the docstring of a public name lacks (an empty list when it is documented)."""
    is_method = qualname.count(".") >= 2 and qualname.split(".")[-2][:1].isupper()
    if isinstance(obj, property):
        return [] if (obj.__doc__ or "").strip() else ["no docstring"]
    if not (inspect.isclass(obj) or callable(obj)):
        return []   # a constant: documented where its module is
    doc = inspect.getdoc(obj) or ""
    if not doc.strip():
        return ["no docstring"]
    own = inspect.cleandoc(obj.__doc__ or "") if not inspect.isclass(obj) else doc
    if is_method and not (getattr(obj, "__doc__", None) or "").strip():
        return []   # an override: the base's docstring (help() and pdoc show it)
    missing = []
    sections = _sections(own or doc)
    if not inspect.isclass(obj):
        params, returns = _named_params(obj)
        if params:
            args = sections.get("Args", "")
            absent = [p for p in params if not re.search(rf"^\s*{re.escape(p)}\b[^\n]*:", args, re.M)]
            if absent:
                missing.append("Args: " + ", ".join(absent) if args else "no Args: section")
        if (returns not in (None, "None") and not ({"Returns", "Yields"} & set(sections))
                and _returns_value(obj)):
            missing.append("no Returns: section")
    if not is_method and not ("Example" in sections or "Examples" in sections) or (
            not is_method and ">>>" not in doc):
        missing.append("no Example: with >>>")
    return missing


def undocumented():
    """{qualified name: [what is missing]} of every public name not documented."""
    out = {}
    for qualname, obj in public_api().items():
        p = problems(qualname, obj)
        if p:
            out[qualname] = p
    return out


def pdoc_modules():
    """The modules the reference renders: pytfweb and each namespace's module (with the modules
    of tf.layers' classes, which live in the layer families)."""
    names = ["pytfweb"]
    for ns in NAMESPACES:
        module = _namespace(ns)
        names.append(module.__name__)
        names += sorted({getattr(module, n).__module__ for n in _own_classes(module)} - set(names))
    packages = [n for n in names if n != "pytfweb" and hasattr(sys.modules[n], "__path__")]
    # pdoc renders a package's submodules with it (pytfweb's: those of its __all__): name each once
    given = {f"pytfweb.{n}" for n in tf.__all__} | {p + "." for p in packages}
    return [n for n in dict.fromkeys(names) if n not in given and not any(n.startswith(p + ".") for p in packages)]


def build_api_docs(outdir):
    """Write the HTML reference into outdir; returns the list of files written (relative).
    Raises ImportError naming what to install when pdoc is not importable."""
    try:   # pdoc is optional (the [test] extra): only the reference needs it
        import pdoc
        import pdoc.render
    except ImportError as exc:
        raise ImportError("the API reference needs pdoc (pip install 'pytfweb[test]' or pip install pdoc)") from exc
    out = Path(outdir)
    # without the source of every function (tens of MB), and without the packages' private modules
    pdoc.render.configure(docformat="google", footer_text="pytfweb", show_source=False)
    pdoc.pdoc(*pdoc_modules(), r"!pytfweb\..*\._", output_directory=out)
    return sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())


@functools.lru_cache(maxsize=1)
def rendered():
    """{relative path: bytes} of the HTML reference, rendered once a process (pdoc takes seconds;
    `pytfweb build-web` puts a copy in every site it builds). Raises ImportError as build_api_docs."""
    with tempfile.TemporaryDirectory() as tmp:
        return {rel: (Path(tmp) / rel).read_bytes() for rel in build_api_docs(tmp)}


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if argv == ["--check"]:
        missing = undocumented()
        for name, what in sorted(missing.items()):
            print(f"{name}: {'; '.join(what)}")
        print(f"{len(missing)} of {len(public_api())} public names not documented", file=sys.stderr)
        return 1 if missing else 0
    if len(argv) != 1 or argv[0].startswith("-"):
        print("usage: python -m pytfweb.host.apidocs OUTDIR | --check", file=sys.stderr)
        return 2
    try:
        files = build_api_docs(argv[0])
    except ImportError as exc:
        print(f"api-docs: {exc}", file=sys.stderr)
        return 1
    print(f"api-docs: {len(files)} files in {argv[0]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
