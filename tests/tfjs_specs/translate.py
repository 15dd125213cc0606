"""TF.js jasmine specs -> pytfweb test cases: the translator's back end.

extract.mjs (node + acorn) turns a spec file into JSON (its describe/it tree, each `it` body as
ESTree, the file's helper code and imports); this module turns that JSON into the Python source of
one module per spec file, each `it` a function. The rules are general (no per-case code here):

- `tf.fooBar(...)`, `tf.image.fooBar(...)` and names imported from TF.js's ops -> the snake_case
  name of the project's API table (pytfweb/data/tfjs-4.22-api.json), else the name in snake_case;
  methods and properties (`x.dataSync()`, `x.isDisposed`) likewise in snake_case.
- an object literal as the last argument of a tf function or a method -> keyword arguments with
  snake_case keys; any other object literal -> runtime.obj (a dict read by key or attribute).
- `await x.data()` / `x.array()` / `x.buffer()` -> the synchronous forms (`x.data_sync()`, ...);
  any other `await` keeps the case async (the runners await it).
- arrow functions -> lambdas (expression bodies) or nested defs (block bodies, with `nonlocal`
  for the enclosing variables they assign).
- JavaScript's semantics where Python's differ go through runtime.py (`_js.*`): `+` with strings,
  `/` and `%`, typed arrays, methods that exist on both arrays and tensors (`slice`, `concat`),
  Math, NaN/Infinity, template strings, jasmine's `expect` and tfjs-core's test_util asserts.

A construct it does not translate raises Unsupported(reason); the case is then reported
untranslated with that reason (never silently dropped). hand.py (per-case translations) and
not_applicable.py (cases that cannot apply, with why) come first.
"""
import hashlib
import json
import keyword
import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
API = json.loads((ROOT / "pytfweb" / "data" / "tfjs-4.22-api.json").read_text())["python_names"]
TFJS_CORE = ROOT / "node_modules" / "@tensorflow" / "tfjs-core" / "dist"
BUILD = ROOT / "build" / "specs"

# Bump when a change here changes the generated code (the cache key of build/specs).
VERSION = "1"


class Unsupported(Exception):
    """A construct the translator does not handle; the message is the reason reported."""


class Internal(Unsupported):
    """The case uses a TF.js module that is not its public API ("module:name")."""

    def __init__(self, what):
        super().__init__(f"uses TF.js internal {what}")
        self.what = what


_CAMEL = {}
for _ns, _names in API.items():
    for _js_name, _py in _names.items():
        _CAMEL.setdefault(_js_name, _py)


def snake(name):
    """TF.js's camelCase name -> pytfweb's: the API table's, else the generic conversion."""
    if name in _CAMEL:
        return _CAMEL[name]
    if name[:1].isupper():
        return name          # classes and enums keep TF.js's names (tf.Reduction, tf.Tensor)
    name = re.sub(r"(\d)D(?=[A-Z]|$)", r"\1d", name)     # as1D -> as1d, like conv2d
    s = re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", name)
    s = re.sub(r"(?<=[A-Z])([A-Z][a-z])", r"_\1", s)
    return s.lower() if s != name or not name.isupper() else name


def tf_name(ns, name):
    """The python name of TF.js's `tf.<ns>.<name>` (ns None: `tf.<name>`)."""
    table = API.get(ns or "tf", {})
    if name in table:
        return table[name]
    if ns is None and name in API and name not in table:
        return name    # a namespace: tf.image, tf.losses, ...
    return snake(name)


# JavaScript names the runtime provides (as `_js.<name>`)
GLOBALS = {"Math", "Number", "Array", "Object", "JSON", "String", "Boolean", "isNaN", "isFinite",
           "parseInt", "parseFloat", "Error", "TypeError", "RangeError", "Float32Array", "Int32Array",
           "Uint8Array", "Uint8ClampedArray", "Int8Array", "Int16Array", "Uint16Array", "Uint32Array",
           "Float64Array", "ArrayBuffer", "Set", "Map", "console", "expect", "fail", "jasmine",
           "Promise", "RegExp", "Date", "document", "ImageData", "Image", "createImageBitmap", "Symbol", "BigInt", "structuredClone", "TextEncoder", "TextDecoder"}
# TF.js internal modules whose pytfweb twin runtime.py exposes under TF.js's names (their specs then
# test pytfweb's twin)
SHIMS = {"conv_util"}
# browser globals the generated code has no translation for (the DOM's objects are JS proxies
# in the page, not Python values)
DOM = {"window", "HTMLCanvasElement", "HTMLImageElement", "HTMLVideoElement",
       "OffscreenCanvas", "ImageBitmap", "navigator", "self", "globalThis"}
# the DOM the runtime gives the page's cases (JS objects: read and called by their own names)
DOM_GLOBALS = {"document", "ImageData", "Image", "createImageBitmap"}
# methods of DOM objects: called by their JavaScript names (pytfweb has none of these)
DOM_METHODS = {"getContext", "getImageData", "putImageData", "drawImage", "createElement", "appendChild",
               "removeChild", "toDataURL", "fillRect", "clearRect", "createImageData", "setAttribute",
               "getAttribute", "addEventListener", "removeEventListener", "transferToImageBitmap", "fillText"}
# tfjs-core's test_util exports the runtime implements under the same names
TEST_UTIL = {"expectArraysClose", "expectArraysEqual", "expectNumbersClose", "expectValuesInRange",
             "expectArrayBuffersEqual", "expectPromiseToFail", "encodeStrings", "testEpsilon",
             "TEST_EPSILON_FLOAT16"}
# module sources (of the spec's imports) that are tfjs-core's public API
PUBLIC = re.compile(r"^(\.\.?/)*(index|ops/ops|ops|\.\.|\.)$|^\.\.?$")
OP_MODULE = re.compile(r"^\./[a-z0-9_]+$|^\.\./ops/[a-z0-9_/]+$|^(\.\./)+ops/[a-z0-9_/]+$")
INTERNAL_OP_MODULES = re.compile(r"(_util|util|operation|rand_util|identity_pool_test|test_util|engine|tensor_util|backend)$")
PY_RESERVED = set(keyword.kwlist) | {"tf", "_js", "len", "range", "list", "dict", "str", "int", "float", "min",
                                     "max", "sum", "abs", "round", "all", "any", "type", "id", "filter", "map",
                                     "iter", "next", "input", "format", "hash", "slice", "bool", "object",
                                     "super", "math", "print", "zip", "set", "tuple", "isinstance", "getattr",
                                     "setattr", "callable", "reversed", "sorted", "enumerate", "pow", "divmod",
                                     "chr", "ord", "open", "exec", "eval", "vars", "locals", "globals"}
SYNC_READS = {"data": "data_sync", "array": "array_sync", "buffer": "buffer_sync", "bytes": "bytes"}
# methods both JavaScript arrays/strings and tensors have, or that only arrays/strings have:
# the runtime dispatches on the receiver
AMBIGUOUS = {"map", "forEach", "push", "pop", "slice", "concat", "fill", "join", "indexOf", "includes",
             "reduce", "filter", "every", "some", "sort", "reverse", "toString", "keys", "values",
             "entries", "splice", "shift", "unshift", "flat", "find", "findIndex", "toFixed", "split",
             "replace", "startsWith", "endsWith", "trim", "charCodeAt", "repeat", "padStart", "subarray",
             "set", "lastIndexOf", "flatMap", "toLowerCase", "toUpperCase", "get", "has", "add", "delete",
             "apply", "call", "charAt", "substring", "substr", "reduceRight", "codePointAt", "then", "catch"}
# attributes read directly (the rest through runtime.prop: a TF.js plain object may be a dict here)
TENSOR_ATTRS = {"shape", "dtype", "rank", "size", "id", "is_disposed", "strides", "not_", "kept",
                "data_id", "name", "trainable"}
# functions of tfjs-core's public API that take an options object as a positional argument
OBJECT_ARGS = set()


def py_ident(name):
    name = name.replace("$", "S_")    # JavaScript identifiers may hold $
    return name + "_" if name in PY_RESERVED else name


class Scope:
    def __init__(self, kind, parent=None):
        self.kind = kind           # "module" | "function"
        self.parent = parent
        self.declared = set()
        self.assigned = set()


class FileContext:
    """What a spec file's code refers to: its imports mapped to pytfweb / the runtime."""

    def __init__(self, spec):
        self.names = {}        # local JS name -> python expression
        self.internal = {}     # local JS name -> "module.name" (TF.js internals: untranslatable)
        self.constants = {}    # local JS name (a name, or a namespace) -> literal constants of an internal module
        for imp in spec["imports"]:
            local, src, what = imp["local"], imp["source"], imp["imported"]
            base = src.rsplit("/", 1)[-1]
            if base == "jasmine_util":
                self.names[local] = None
            elif base == "test_util" and src.startswith("..") or src in ("../test_util", "../../test_util", "./test_util"):
                if what in TEST_UTIL:
                    self.names[local] = "_js." + what
                else:
                    self.internal[local] = f"test_util.{what}"
            elif what == "*" and (PUBLIC.match(src) or base in ("index", "ops")):
                self.names[local] = "tf"
            elif what != "*" and (PUBLIC.match(src) or base in ("index", "ops")):
                self.names[local] = "tf." + tf_name(None, what)
            elif what != "*" and OP_MODULE.match(src) and not INTERNAL_OP_MODULES.search(base):
                self.names[local] = "tf." + tf_name(None, what)
            elif base in SHIMS and what == "*":
                self.names[local] = "_js." + base
            elif base == "util" and what != "*":
                self.names[local] = "tf.util." + tf_name("util", what)
            elif base == "util":
                self.names[local] = "tf.util"
            else:
                self.internal[local] = f"{src}:{what}"
                consts = spec.get("constants", {}).get(src, {})
                if what == "*":
                    self.constants[local] = consts
                elif what in consts:
                    self.constants[local] = consts[what]
                    del self.internal[local]
                    self.names[local] = repr(consts[what])


class Translator:
    """ESTree -> Python for one spec file."""

    def __init__(self, ctx):
        self.ctx = ctx
        self.counter = 0
        self.hoist = []          # statements to emit before the current statement
        self.scope = Scope("module")
        self.is_async = False    # whether the current case needs `async def`
        self.message_vars = set()  # variables assigned an error's .message

    # ---------------------------------------------------------------- helpers
    def fresh(self, stem="_f"):
        self.counter += 1
        return f"{stem}{self.counter}"

    def declare(self, name):
        self.scope.declared.add(name)

    # ---------------------------------------------------------------- statements
    def block(self, stmts, indent):
        """Statements -> lines (function declarations first: JavaScript hoists them)."""
        stmts = list(stmts)
        funcs = [s for s in stmts if s["type"] == "FunctionDeclaration"]
        rest = [s for s in stmts if s["type"] != "FunctionDeclaration"]
        lines = []
        for s in funcs + rest:
            lines += self.stmt(s, indent)
        return lines

    def body_lines(self, node, indent):
        if node["type"] == "BlockStatement":
            lines = self.block(node["body"], indent)
        else:
            lines = self.stmt(node, indent)
        return lines or [" " * indent + "pass"]

    def emit(self, indent, text):
        """One statement's lines, preceded by what translating it hoisted."""
        hoisted, self.hoist = self.hoist, []
        out = []
        for h in hoisted:
            out += [" " * indent + line for line in h]
        out.append(" " * indent + text)
        return out

    def stmt(self, s, indent):
        t = s["type"]
        pad = " " * indent
        if t == "ExpressionStatement":
            return self.expr_stmt(s["expression"], indent)
        if t == "VariableDeclaration":
            out = []
            for d in s["declarations"]:
                if d["init"] is None:
                    if d["id"]["type"] != "Identifier":
                        raise Unsupported("destructuring declaration without a value")
                    name = py_ident(d["id"]["name"])
                    self.declare(name)
                    out += self.emit(indent, f"{name} = None")
                else:
                    value = self.expr(d["init"])
                    out += self.assign_pattern(d["id"], value, indent, declare=True)
            return out
        if t == "FunctionDeclaration":
            name = py_ident(s["id"]["name"])
            self.declare(name)
            return self.function_def(name, s, indent)
        if t == "ReturnStatement":
            if s["argument"] is None:
                return [pad + "return"]
            return self.emit(indent, "return " + self.expr(s["argument"]))
        if t == "IfStatement":
            test = self.cond(s["test"])
            out = self.emit(indent, f"if {test}:")
            out += self.body_lines(s["consequent"], indent + 4)
            alt = s["alternate"]
            if alt is not None:
                if alt["type"] == "IfStatement":
                    sub = self.stmt(alt, indent)
                    # `else: if` as `else:` + nested if (hoisted code of the test stays inside)
                    out.append(pad + "else:")
                    out += ["    " + line for line in sub]
                else:
                    out.append(pad + "else:")
                    out += self.body_lines(alt, indent + 4)
            return out
        if t == "BlockStatement":
            return self.block(s["body"], indent)
        if t == "EmptyStatement":
            return []
        if t == "ForStatement":
            return self.for_stmt(s, indent)
        if t in ("ForOfStatement", "ForInStatement"):
            left = s["left"]
            if left["type"] == "VariableDeclaration":
                target = left["declarations"][0]["id"]
            else:
                target = left
            it = self.expr(s["right"])
            it = f"_js.iterate({it})" if t == "ForOfStatement" else f"_js.keys({it})"
            if s.get("await"):
                raise Unsupported("for await")
            tmp = None
            if target["type"] == "Identifier":
                name = py_ident(target["name"])
                self.declare(name)
            elif target["type"] == "ArrayPattern" and all(e and e["type"] == "Identifier" for e in target["elements"]):
                names = [py_ident(e["name"]) for e in target["elements"]]
                for n in names:
                    self.declare(n)
                name = ", ".join(names) + ", *_"
            else:
                tmp = self.fresh("_it")
                name = tmp
            out = self.emit(indent, f"for {name} in {it}:")
            inner = []
            if tmp:
                inner = self.assign_pattern(target, tmp, indent + 4, declare=True)
            inner += self.body_lines(s["body"], indent + 4)
            return out + inner
        if t == "WhileStatement":
            out = self.emit(indent, f"while {self.cond(s['test'])}:")
            return out + self.body_lines(s["body"], indent + 4)
        if t == "DoWhileStatement":
            if self.has_continue(s["body"]):
                raise Unsupported("continue in a do-while loop")
            out = [pad + "while True:"]
            out += self.body_lines(s["body"], indent + 4)
            test = self.cond(s["test"])
            out += self.emit(indent + 4, f"if not ({test}):")
            out.append(pad + "        break")
            return out
        if t == "BreakStatement":
            if s.get("label"):
                raise Unsupported("labelled break")
            return [pad + "break"]
        if t == "ContinueStatement":
            if s.get("label"):
                raise Unsupported("labelled continue")
            return [pad + "continue"]
        if t == "ThrowStatement":
            return self.emit(indent, f"raise _js.thrown({self.expr(s['argument'])})")
        if t == "TryStatement":
            out = [pad + "try:"]
            out += self.body_lines(s["block"], indent + 4)
            h = s.get("handler")
            if h:
                if h["param"] is None:
                    out.append(pad + "except Exception:")
                else:
                    if h["param"]["type"] != "Identifier":
                        raise Unsupported("destructuring catch parameter")
                    name = py_ident(h["param"]["name"])
                    self.declare(name)
                    out.append(pad + f"except Exception as {name}:")
                out += self.body_lines(h["body"], indent + 4)
            if s.get("finalizer"):
                out.append(pad + "finally:")
                out += self.body_lines(s["finalizer"], indent + 4)
            return out
        if t == "SwitchStatement":
            return self.switch_stmt(s, indent)
        raise Unsupported(f"statement {t}")

    def switch_stmt(self, s, indent):
        disc = self.fresh("_sw")
        out = self.emit(indent, f"{disc} = {self.expr(s['discriminant'])}")
        first = True
        for case in s["cases"]:
            body = [c for c in case["consequent"] if c["type"] != "BreakStatement"]
            if case["consequent"] and case["consequent"][-1]["type"] not in ("BreakStatement", "ReturnStatement", "ThrowStatement"):
                raise Unsupported("switch case falling through")
            if case["test"] is None:
                out.append(" " * indent + ("else:" if not first else "if True:"))
            else:
                out += self.emit(indent, f"{'if' if first else 'elif'} {disc} == {self.expr(case['test'])}:")
            lines = []
            for b in body:
                lines += self.stmt(b, indent + 4)
            out += lines or [" " * (indent + 4) + "pass"]
            first = False
        return out

    def has_continue(self, node):
        found = False

        def walk(n, depth):
            nonlocal found
            if isinstance(n, list):
                for x in n:
                    walk(x, depth)
            elif isinstance(n, dict):
                t = n.get("type")
                if t in ("ForStatement", "ForOfStatement", "ForInStatement", "WhileStatement", "DoWhileStatement",
                         "FunctionExpression", "ArrowFunctionExpression", "FunctionDeclaration"):
                    return
                if t == "ContinueStatement":
                    found = True
                for v in n.values():
                    walk(v, depth)
        walk(node["body"] if node["type"] == "BlockStatement" else node, 0)
        return found

    def assigned_names(self, node):
        names = set()

        def walk(n):
            if isinstance(n, list):
                for x in n:
                    walk(x)
            elif isinstance(n, dict):
                t = n.get("type")
                if t == "AssignmentExpression" and n["left"]["type"] == "Identifier":
                    names.add(n["left"]["name"])
                if t == "UpdateExpression" and n["argument"]["type"] == "Identifier":
                    names.add(n["argument"]["name"])
                for v in n.values():
                    walk(v)
        walk(node)
        return names

    def for_stmt(self, s, indent):
        init, test, update, body = s["init"], s["test"], s["update"], s["body"]
        var = None
        if init and init["type"] == "VariableDeclaration" and len(init["declarations"]) == 1 \
                and init["declarations"][0]["id"]["type"] == "Identifier" and init["declarations"][0]["init"]:
            var = init["declarations"][0]["id"]["name"]
            start = init["declarations"][0]["init"]
        elif init and init["type"] == "AssignmentExpression" and init["operator"] == "=" \
                and init["left"]["type"] == "Identifier":
            var = init["left"]["name"]
            start = init["right"]
        step = None
        if var and update:
            if update["type"] == "UpdateExpression" and update["argument"]["type"] == "Identifier" \
                    and update["argument"]["name"] == var:
                step = 1 if update["operator"] == "++" else -1
            elif update["type"] == "AssignmentExpression" and update["left"]["type"] == "Identifier" \
                    and update["left"]["name"] == var and update["operator"] in ("+=", "-=") \
                    and update["right"]["type"] == "Literal" and isinstance(update["right"]["value"], int):
                step = update["right"]["value"] * (1 if update["operator"] == "+=" else -1)
        if var and step and test and test["type"] == "BinaryExpression" and test["left"]["type"] == "Identifier" \
                and test["left"]["name"] == var and test["operator"] in ("<", "<=", ">", ">=") \
                and var not in self.assigned_names(body) and (step > 0) == (test["operator"] in ("<", "<=")):
            name = py_ident(var)
            self.declare(name)
            a = self.expr(start)
            b = self.expr(test["right"])
            if test["operator"] == "<=":
                b = f"_js.floor({b}) + 1"
            elif test["operator"] == ">=":
                b = f"_js.ceil({b}) - 1"
            else:
                b = f"_js.ceil({b})" if step > 0 else f"_js.floor({b})"
            args = f"{a}, {b}" + (f", {step}" if step != 1 else "")
            out = self.emit(indent, f"for {name} in range({args}):")
            return out + self.body_lines(body, indent + 4)
        # the general form: init; while test: body; update
        if update and self.has_continue(body):
            raise Unsupported("continue in a for loop with a general update")
        out = []
        if init:
            out += self.stmt(init, indent) if init["type"] == "VariableDeclaration" else self.expr_stmt(init, indent)
        cond = self.cond(test) if test else "True"
        out += self.emit(indent, f"while {cond}:")
        out += self.body_lines(body, indent + 4)
        if update:
            out += self.expr_stmt(update, indent + 4)
        return out

    def expr_stmt(self, e, indent):
        t = e["type"]
        if t == "AssignmentExpression":
            return self.assignment(e, indent)
        if t == "UpdateExpression":
            op = "+=" if e["operator"] == "++" else "-="
            target = self.target(e["argument"])
            return self.emit(indent, f"{target} {op} 1")
        if t == "SequenceExpression":
            out = []
            for x in e["expressions"]:
                out += self.expr_stmt(x, indent)
            return out
        if t == "AwaitExpression":
            return self.emit(indent, self.expr(e))
        if t == "CallExpression" and e["callee"]["type"] == "MemberExpression" \
                and e["callee"]["property"].get("name") == "nothing":
            return []   # expect().nothing(): jasmine's "no expectation" marker
        return self.emit(indent, self.expr(e))

    def target(self, node):
        t = node["type"]
        if t == "Identifier":
            name = py_ident(node["name"])
            self.scope.assigned.add(name)
            return name
        if t == "MemberExpression":
            obj = self.expr(node["object"])
            if node["computed"]:
                return f"{obj}[{self.expr(node['property'])}]"
            return f"{obj}.{self.prop_name(node['property']['name'])}"
        raise Unsupported(f"assignment to {t}")

    def assignment(self, e, indent):
        op = e["operator"]
        left = e["left"]
        if left["type"] in ("ArrayPattern", "ObjectPattern"):
            if op != "=":
                raise Unsupported("compound destructuring assignment")
            value = self.expr(e["right"])
            return self.assign_pattern(left, value, indent, declare=False)
        value = self.expr(e["right"])
        target = self.target(left)
        r = e["right"]
        if left["type"] == "Identifier" and r["type"] == "MemberExpression" and not r["computed"] \
                and r["property"]["name"] == "message":
            self.message_vars.add(left["name"])
        if left["type"] == "MemberExpression" and left["computed"]:
            obj = self.expr(left["object"])
            key = self.expr(left["property"])
            if op == "=":
                return self.emit(indent, f"_js.setitem({obj}, {key}, {value})")
        if op == "=":
            return self.emit(indent, f"{target} = {value}")
        pyop = {"+=": None, "-=": "-", "*=": "*", "/=": None, "%=": None, "**=": "**",
                "|=": None, "&=": None, "||=": None, "&&=": None, "??=": None}.get(op, None)
        if op == "+=":
            return self.emit(indent, f"{target} = _js.plus({target}, {value})")
        if op == "/=":
            return self.emit(indent, f"{target} = _js.div({target}, {value})")
        if pyop:
            return self.emit(indent, f"{target} {pyop}= {value}")
        raise Unsupported(f"assignment operator {op}")

    def assign_pattern(self, pat, value, indent, declare):
        t = pat["type"]
        if t == "Identifier":
            name = py_ident(pat["name"])
            if declare:
                self.declare(name)
            else:
                self.scope.assigned.add(name)
            return self.emit(indent, f"{name} = {value}")
        if t == "ArrayPattern":
            elems = pat["elements"]
            simple = all(el is None or el["type"] == "Identifier" for el in elems)
            if simple:
                names = []
                for el in elems:
                    if el is None:
                        names.append("_")
                    else:
                        n = py_ident(el["name"])
                        names.append(n)
                        (self.declare if declare else self.scope.assigned.add)(n)
                return self.emit(indent, ", ".join(names) + ", *_ = _js.iterate(" + value + ")")
            tmp = self.fresh("_d")
            out = self.emit(indent, f"{tmp} = list(_js.iterate({value}))")
            for i, el in enumerate(elems):
                if el is None:
                    continue
                if el["type"] == "RestElement":
                    out += self.assign_pattern(el["argument"], f"{tmp}[{i}:]", indent, declare)
                elif el["type"] == "AssignmentPattern":
                    dflt = self.expr(el["right"])
                    out += self.assign_pattern(el["left"], f"_js.default(_js.at({tmp}, {i}), lambda: {dflt})", indent, declare)
                else:
                    out += self.assign_pattern(el, f"_js.at({tmp}, {i})", indent, declare)
            return out
        if t == "ObjectPattern":
            tmp = self.fresh("_d")
            out = self.emit(indent, f"{tmp} = {value}")
            for p in pat["properties"]:
                if p["type"] == "RestElement":
                    raise Unsupported("object rest pattern")
                if p["computed"]:
                    raise Unsupported("computed key in an object pattern")
                key = p["key"]["name"] if p["key"]["type"] == "Identifier" else str(p["key"]["value"])
                v = p["value"]
                if v["type"] == "AssignmentPattern":
                    dflt = self.expr(v["right"])
                    out += self.assign_pattern(v["left"], f"_js.default(_js.prop({tmp}, {key!r}), lambda: {dflt})", indent, declare)
                else:
                    out += self.assign_pattern(v, f"_js.prop({tmp}, {key!r})", indent, declare)
            return out
        raise Unsupported(f"pattern {t}")

    # ---------------------------------------------------------------- functions
    def params(self, params):
        """(python parameter list, statements destructuring the patterned ones)"""
        out, pre = [], []
        for p in params:
            if p["type"] == "Identifier":
                out.append(py_ident(p["name"]))
            elif p["type"] == "AssignmentPattern" and p["left"]["type"] == "Identifier":
                out.append(f"{py_ident(p['left']['name'])}=None")
                pre.append(("default", py_ident(p["left"]["name"]), p["right"]))
            elif p["type"] == "RestElement" and p["argument"]["type"] == "Identifier":
                out.append("*" + py_ident(p["argument"]["name"]))
            else:
                tmp = self.fresh("_p")
                out.append(tmp)
                pre.append(("pattern", tmp, p))
        if not any(p.startswith("*") for p in out):
            out.append("*_args_")      # JavaScript ignores extra arguments
        return out, pre

    def function_def(self, name, fn, indent, params=None):
        """A JavaScript function (declaration, expression or arrow) as a nested def."""
        outer_scope, outer_hoist, outer_async = self.scope, self.hoist, self.is_async
        self.scope = Scope("function", outer_scope)
        self.hoist = []
        is_async = bool(fn.get("async"))
        self.is_async = is_async
        try:
            plist, pre = self.params(fn["params"] if params is None else params)
            for p in plist:
                if p != "*_args_":
                    self.declare(p.lstrip("*").split("=")[0])
            body = []
            for kind, n, node in pre:
                if kind == "default":
                    body += self.emit(indent + 4, f"if {n} is None:")
                    body += self.emit(indent + 8, f"{n} = {self.expr(node)}")
                else:
                    pat = node["left"] if node["type"] == "AssignmentPattern" else node
                    if node["type"] == "AssignmentPattern":
                        body += self.emit(indent + 4, f"if {n} is None:")
                        body += self.emit(indent + 8, f"{n} = {self.expr(node['right'])}")
                    if pat["type"] == "RestElement":
                        raise Unsupported("patterned rest parameter")
                    body += self.assign_pattern(pat, n, indent + 4, declare=True)
            if fn["body"]["type"] == "BlockStatement":
                body += self.block(fn["body"]["body"], indent + 4)
            else:
                body += self.emit(indent + 4, "return " + self.expr(fn["body"]))
            scope = self.scope
            needs_async = self.is_async
        finally:
            self.scope, self.hoist, self.is_async = outer_scope, outer_hoist, outer_async
        free = scope.assigned - scope.declared
        head = []
        outer_fn = [s for s in self._chain(outer_scope) if s.kind == "function"]
        nonlocal_names = sorted(n for n in free if any(n in s.declared for s in outer_fn))
        global_names = sorted(n for n in free if n not in nonlocal_names)
        if nonlocal_names:
            head.append(" " * (indent + 4) + "nonlocal " + ", ".join(nonlocal_names))
        if global_names:
            head.append(" " * (indent + 4) + "global " + ", ".join(global_names))
        kw = "async def" if (is_async or needs_async) and is_async else "def"
        if needs_async and not is_async:
            raise Unsupported("await inside a function that is not async")
        return [" " * indent + f"{kw} {name}({', '.join(plist)}):"] + head + (body or [" " * (indent + 4) + "pass"])

    @staticmethod
    def _chain(scope):
        while scope is not None:
            yield scope
            scope = scope.parent

    def function_expr(self, fn):
        """A function used as a value: a lambda if it is a simple arrow, else a hoisted def."""
        if fn["type"] == "ArrowFunctionExpression" and fn["body"]["type"] != "BlockStatement" \
                and not fn.get("async") and all(p["type"] == "Identifier" for p in fn["params"]):
            saved_hoist, saved_async = self.hoist, self.is_async
            self.hoist = []
            self.is_async = False
            outer_scope = self.scope
            self.scope = Scope("function", outer_scope)
            try:
                params = [py_ident(p["name"]) for p in fn["params"]]
                for p in params:
                    self.declare(p)
                params.append("*_args_")   # JavaScript ignores extra arguments
                body = self.expr(fn["body"])
                inner_hoist, inner_async, scope = self.hoist, self.is_async, self.scope
            finally:
                self.hoist, self.is_async, self.scope = saved_hoist, saved_async, outer_scope
            if not inner_hoist and not inner_async and not scope.assigned:
                return f"(lambda {', '.join(params)}: {body})"
        name = self.fresh("_fn")
        self.hoist.append(self.function_def(name, fn, 0))
        return name

    # ---------------------------------------------------------------- expressions
    def cond(self, e):
        return self.expr(e)

    def prop_name(self, name):
        n = snake(name)
        return n + "_" if keyword.iskeyword(n) else n

    def tf_member(self, e):
        """`tf.x`, `tf.ns.x` (tf: the namespace import) -> python, or None."""
        if e["type"] != "MemberExpression" or e["computed"]:
            return None
        obj = e["object"]
        if obj["type"] == "Identifier" and self.ctx.names.get(obj["name"]) == "tf" and not self.shadowed(obj["name"]):
            if e["property"]["name"] == "test_util":
                return "_js"
            return "tf." + tf_name(None, e["property"]["name"])
        if obj["type"] == "MemberExpression" and not obj["computed"] and obj["property"]["name"] == "test_util" \
                and obj["object"]["type"] == "Identifier" and self.ctx.names.get(obj["object"]["name"]) == "tf":
            return "_js." + e["property"]["name"]
        if obj["type"] == "MemberExpression" and not obj["computed"] and obj["object"]["type"] == "Identifier" \
                and self.ctx.names.get(obj["object"]["name"]) == "tf" and obj["property"]["name"] in API \
                and not self.shadowed(obj["object"]["name"]):
            ns = obj["property"]["name"]
            return f"tf.{ns}.{tf_name(ns, e['property']['name'])}"
        return None

    def shadowed(self, name):
        return any(py_ident(name) in s.declared for s in self._chain(self.scope) if s.kind == "function")

    def args(self, args, options=False, fn=None):
        """Arguments; for a pytfweb function `fn` (its dotted name), arguments passed as
        `undefined`/`null` are left out (TF.js's ops take them as "the default"), the ones after
        them passed by keyword (the names read from the function's signature)."""
        if fn and any(self._is_nothing(a) for a in args):
            params = self._param_names(fn)
            names = [n for n, _ in params] if params else None
            has_default = [d for _, d in params] if params else []

            def omissible(i):      # a parameter with a default takes undefined/null as "the default"
                return i < len(has_default) and has_default[i]
            while args and self._is_nothing(args[-1]) and omissible(len(args) - 1):
                args = args[:-1]
            if names and any(self._is_nothing(a) and omissible(i) for i, a in enumerate(args)) \
                    and len(names) >= len(args) and not any(a["type"] == "SpreadElement" for a in args):
                out = []
                kw = False
                for i, a in enumerate(args):
                    if self._is_nothing(a) and omissible(i):
                        kw = True
                        continue
                    if kw and i == len(args) - 1 and options and a["type"] == "ObjectExpression":
                        out.append(self.args([a], options=True))
                    else:
                        out.append(f"{names[i]}={self.expr(a)}" if kw else self.expr(a))
                return ", ".join(out)
        return self._args(args, options)

    @staticmethod
    def _is_nothing(a):
        return a["type"] == "Identifier" and a["name"] == "undefined" or a["type"] == "Literal" and a["value"] is None \
            and not a.get("regex")

    @staticmethod
    def _param_names(dotted):
        import inspect
        try:
            import pytfweb
            from pytfweb.core.tensor import Tensor
            obj = pytfweb
            parts = dotted.split(".")
            if parts[0] == "tf":
                for p in parts[1:]:
                    obj = getattr(obj, p)
            elif parts[0] == "Tensor":
                obj = getattr(Tensor, parts[1])
            else:
                return None
            params = list(inspect.signature(obj).parameters.values())
            if parts[0] == "Tensor":
                params = params[1:]
            return [(p.name, p.default is not p.empty) for p in params
                    if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        except (AttributeError, TypeError, ValueError, ImportError):
            return None

    def _args(self, args, options=False):
        out = []
        for i, a in enumerate(args):
            last = i == len(args) - 1
            if last and options and a["type"] == "ObjectExpression" and a["properties"] and all(
                    p["type"] == "Property" and not p["computed"] and p["key"]["type"] == "Identifier"
                    and p["kind"] == "init" and not p.get("method") for p in a["properties"]):
                for p in a["properties"]:
                    out.append(f"{self.prop_name(p['key']['name'])}={self.expr(p['value'])}")
            elif a["type"] == "SpreadElement":
                out.append("*_js.iterate(" + self.expr(a["argument"]) + ")")
            else:
                out.append(self.expr(a))
        return ", ".join(out)

    def expr(self, e):
        t = e["type"]
        m = getattr(self, "x_" + t, None)
        if m is None:
            raise Unsupported(f"expression {t}")
        return m(e)

    def x_Literal(self, e):
        if e.get("regex"):
            return f"_js.RegExp({e['regex']['pattern']!r}, {e['regex']['flags']!r})"
        v = e["value"]
        if v is None:
            return "None"
        if isinstance(v, bool):
            return repr(v)
        if isinstance(v, float) and v.is_integer() and abs(v) < 2 ** 53:
            return repr(int(v))
        if isinstance(v, (int, float)):
            return repr(v)
        return repr(v)

    def x_Identifier(self, e):
        n = e["name"]
        if n == "undefined":
            return "None"
        if n == "__done__":
            return "_js.done"
        if n == "__env__":
            return "_js.test_env()"
        if n in ("NaN", "Infinity"):
            return "_js." + n
        if self.shadowed(n) or py_ident(n) in self.scope.declared:
            return py_ident(n)
        if n in self.ctx.names:
            v = self.ctx.names[n]
            if v is None:
                raise Unsupported(f"uses jasmine_util's {n}")
            return v
        if n in self.ctx.internal:
            raise Internal(self.ctx.internal[n])
        if n in GLOBALS:
            return "_js." + n
        if n in DOM and not self.shadowed(n):
            raise Unsupported(f"uses the DOM ({n})")
        return py_ident(n)

    def x_TemplateLiteral(self, e):
        parts = []
        for i, q in enumerate(e["quasis"]):
            if q["value"]["cooked"]:
                parts.append(repr(q["value"]["cooked"]))
            if i < len(e["expressions"]):
                parts.append(f"_js.String({self.expr(e['expressions'][i])})")
        return "(" + " + ".join(parts) + ")" if parts else "''"

    def x_ArrayExpression(self, e):
        items = []
        for el in e["elements"]:
            if el is None:
                items.append("None")
            elif el["type"] == "SpreadElement":
                items.append("*_js.iterate(" + self.expr(el["argument"]) + ")")
            else:
                items.append(self.expr(el))
        return "[" + ", ".join(items) + "]"

    def x_ObjectExpression(self, e):
        items = []
        for p in e["properties"]:
            if p["type"] == "SpreadElement":
                items.append("**" + self.expr(p["argument"]))
                continue
            if p["kind"] != "init":
                raise Unsupported("getter/setter in an object literal")
            if p["computed"]:
                key = self.expr(p["key"])
            elif p["key"]["type"] == "Identifier":
                key = repr(snake(p["key"]["name"]))
            else:
                key = repr(str(p["key"]["value"]) if not isinstance(p["key"]["value"], str) else p["key"]["value"])
            if p.get("method") or p["value"]["type"] in ("FunctionExpression", "ArrowFunctionExpression"):
                value = self.function_expr(p["value"])
            else:
                value = self.expr(p["value"])
            items.append(f"{key}: {value}")
        return "_js.obj({" + ", ".join(items) + "})"

    def x_MemberExpression(self, e):
        tfm = self.tf_member(e)
        if tfm:
            return tfm
        obj = e["object"]
        if obj["type"] == "Super":
            raise Unsupported("super")
        if obj["type"] == "Identifier" and not e["computed"] and isinstance(self.ctx.constants.get(obj["name"]), dict) \
                and e["property"]["name"] in self.ctx.constants[obj["name"]] and not self.shadowed(obj["name"]):
            return repr(self.ctx.constants[obj["name"]][e["property"]["name"]])   # an internal module's constant
        o = self.expr(obj)
        if e.get("optional"):
            raise Unsupported("optional chaining")
        if e["computed"]:
            return f"_js.at({o}, {self.expr(e['property'])})"
        name = e["property"]["name"]
        if name == "length":
            return f"_js.length({o})"
        if o.startswith("_js.") and o[4:] in GLOBALS:
            return f"{o}.{name}_" if keyword.iskeyword(name) else f"{o}.{name}"
        if o == "tf" and name == "test_util":
            return "_js"
        if name == "not" or o.startswith(("_js.expect(", "_js.expectAsync(", "_js.expect_message(")):
            return f"{o}.{self.prop_name(name)}"
        # anything else may be a dict (TF.js returns plain objects) or an attribute
        return f"_js.prop({o}, {name!r})"

    def x_CallExpression(self, e):
        callee = e["callee"]
        if e.get("optional"):
            raise Unsupported("optional call")
        tfm = self.tf_member(callee)
        if tfm:
            return f"{tfm}({self.args(e['arguments'], options=True, fn=tfm)})"
        if callee["type"] == "MemberExpression" and not callee["computed"]:
            name = callee["property"]["name"]
            obj = callee["object"]
            o = self.expr(obj)
            if o.startswith("_js.") and (o[4:] in GLOBALS or o[4:] in ("expect",)):
                return f"{o}.{name + '_' if keyword.iskeyword(name) else name}({self.args(e['arguments'])})"
            if o.startswith(("_js.expect(", "_js.expectAsync(", "_js.expect_message(")):
                return f"{o}.{name}({self.args(e['arguments'])})"
            if name in DOM_METHODS:
                return f"{o}.{name}({self.args(e['arguments'])})"
            if name in AMBIGUOUS:
                a = self.args(e["arguments"], options=True)
                return f"_js.call({o}, {name!r}{', ' + a if a else ''})"
            if name == "numDataIds" and not e["arguments"]:
                return "_js.num_data_ids()"    # TF.js's backend data count: pytfweb's data buffers
            if name in SYNC_READS and not e["arguments"]:
                return f"_js.read_async({o}, {name!r})"
            return f"{o}.{self.prop_name(name)}({self.args(e['arguments'], options=True, fn='Tensor.' + self.prop_name(name))})"
        if callee["type"] == "Identifier" and callee["name"] == "expect":
            a = e["arguments"]
            if len(a) == 1 and (a[0]["type"] == "MemberExpression" and not a[0]["computed"]
                                and a[0]["property"]["name"] == "message"
                                or a[0]["type"] == "Identifier" and a[0]["name"] in self.message_vars):
                # an error's message: TF.js's wording is information, not a check (as toThrowError's)
                return f"_js.expect_message({self.args(a)})"
            return f"_js.expect({self.args(a)})"
        if callee["type"] == "Identifier" and callee["name"] == "expectAsync":
            return f"_js.expectAsync({self.args(e['arguments'])})"
        if callee["type"] == "Identifier" and callee["name"] in ("spyOn", "spyOnProperty", "pending",
                                                                 "xit", "it", "describe", "setTimeout", "require"):
            raise Unsupported(f"uses {callee['name']}")
        if callee["type"] in ("FunctionExpression", "ArrowFunctionExpression"):
            f = self.function_expr(callee)
            return f"{f}({self.args(e['arguments'])})"
        f = self.expr(callee)
        if f.startswith("tf."):
            return f"{f}({self.args(e['arguments'], options=True, fn=f)})"
        return f"{f}({self.args(e['arguments'])})"

    def x_NewExpression(self, e):
        callee = e["callee"]
        if callee["type"] == "Identifier" and callee["name"] in GLOBALS:
            return f"_js.new_{callee['name']}({self.args(e['arguments'])})"
        tfm = self.tf_member(callee)
        if tfm:
            return f"{tfm}({self.args(e['arguments'], options=True)})"
        if callee["type"] == "Identifier" and callee["name"] in DOM:
            raise Unsupported(f"uses the DOM ({callee['name']})")
        if callee["type"] == "Identifier" and callee["name"] in self.ctx.names and self.ctx.names[callee["name"]]:
            return f"{self.ctx.names[callee['name']]}({self.args(e['arguments'])})"
        raise Unsupported("new of " + (callee.get("name") or callee["type"]))

    def x_AwaitExpression(self, e):
        arg = e["argument"]
        if arg["type"] == "CallExpression" and arg["callee"]["type"] == "MemberExpression" \
                and not arg["callee"]["computed"] and arg["callee"]["property"]["name"] in SYNC_READS \
                and not arg["arguments"]:
            o = self.expr(arg["callee"]["object"])
            return f"_js.read({o}, {arg['callee']['property']['name']!r})"
        self.is_async = True
        return f"(await _js.awaitable({self.expr(arg)}))"

    def x_UnaryExpression(self, e):
        op, a = e["operator"], e["argument"]
        if op == "-":
            if a["type"] == "Literal" and isinstance(a["value"], (int, float)) and not isinstance(a["value"], bool):
                return "-" + self.expr(a)
            return f"_js.neg({self.expr(a)})"
        if op == "+":
            return f"_js.Number({self.expr(a)})"
        if op == "!":
            return f"(not _js.truthy({self.expr(a)}))"
        if op == "typeof":
            return f"_js.typeof({self.expr(a)})"
        if op == "void":
            return "None"
        if op == "~":
            return f"(~_js.int32({self.expr(a)}))"
        raise Unsupported(f"unary {op}")

    BINARY = {"===": "_js.strict_eq", "!==": "_js.strict_ne", "==": "_js.loose_eq", "!=": "_js.loose_ne",
              "+": "_js.plus", "/": "_js.div", "%": "_js.mod", "<<": "_js.shl", ">>": "_js.shr",
              ">>>": "_js.ushr", "|": "_js.bitor", "&": "_js.bitand", "^": "_js.bitxor",
              "instanceof": "_js.instanceof", "in": "_js.has_key"}

    def x_BinaryExpression(self, e):
        op = e["operator"]
        a, b = self.expr(e["left"]), self.expr(e["right"])
        if op in ("===", "!==", "==", "!=") and (b == "None" or a == "None"):
            other = a if b == "None" else b
            return f"({other} {'is' if op in ('===', '==') else 'is not'} None)"
        if op in ("===", "==") and self._is_primitive(e["left"]) or op in ("===", "==") and self._is_primitive(e["right"]):
            return f"({a} == {b})"
        if op in ("!==", "!=") and (self._is_primitive(e["left"]) or self._is_primitive(e["right"])):
            return f"({a} != {b})"
        if op == "+" and (self._is_number(e["left"]) and self._is_number(e["right"])):
            return f"({a} + {b})"
        if op in ("-", "*", "<", ">", "<=", ">="):
            return f"({a} {op} {b})"
        if op == "**":
            return f"_js.pow({a}, {b})"
        if op == "in":
            return f"_js.has_key({b}, {a})"
        if op in self.BINARY:
            return f"{self.BINARY[op]}({a}, {b})"
        raise Unsupported(f"binary {op}")

    @staticmethod
    def _is_primitive(n):
        return n["type"] == "Literal" and not n.get("regex") and n["value"] is not None \
            or n["type"] == "TemplateLiteral" or n["type"] == "UnaryExpression" and n["operator"] == "-" \
            and n["argument"]["type"] == "Literal"

    @staticmethod
    def _is_number(n):
        return n["type"] == "Literal" and isinstance(n["value"], (int, float)) and not isinstance(n["value"], bool)

    def x_LogicalExpression(self, e):
        a, b = self.expr(e["left"]), self.expr(e["right"])
        if e["operator"] == "&&":
            return f"_js.and_({a}, lambda: {b})" if "lambda" not in b and "await" not in b else self._unsup_lazy()
        if e["operator"] == "||":
            return f"_js.or_({a}, lambda: {b})" if "await" not in b else self._unsup_lazy()
        if e["operator"] == "??":
            return f"_js.nullish({a}, lambda: {b})" if "await" not in b else self._unsup_lazy()
        raise Unsupported(f"logical {e['operator']}")

    def _unsup_lazy(self):
        raise Unsupported("await inside && / || / ??")

    def x_ConditionalExpression(self, e):
        return f"({self.expr(e['consequent'])} if _js.truthy({self.expr(e['test'])}) else {self.expr(e['alternate'])})"

    def x_ArrowFunctionExpression(self, e):
        return self.function_expr(e)

    def x_FunctionExpression(self, e):
        return self.function_expr(e)

    def x_SequenceExpression(self, e):
        return "(" + ", ".join(self.expr(x) for x in e["expressions"]) + ")[-1]"

    def x_AssignmentExpression(self, e):
        if e["operator"] == "=" and e["left"]["type"] == "Identifier":
            name = py_ident(e["left"]["name"])
            self.scope.assigned.add(name)
            return f"({name} := {self.expr(e['right'])})"
        raise Unsupported("assignment inside an expression")

    def x_UpdateExpression(self, e):
        raise Unsupported("++/-- inside an expression")

    def x_SpreadElement(self, e):
        return "*_js.iterate(" + self.expr(e["argument"]) + ")"

    def x_ThisExpression(self, e):
        raise Unsupported("this")

    def x_ChainExpression(self, e):
        raise Unsupported("optional chaining")

    def x_ClassExpression(self, e):
        raise Unsupported("class")

    def x_TaggedTemplateExpression(self, e):
        raise Unsupported("tagged template")


# ---------------------------------------------------------------- files and cases
def env_of(flags):
    """The backends a describeWithFlags constraint runs on (None: all)."""
    if flags is None or flags == "ALL_ENVS":
        return None
    if flags == "BROWSER_ENVS":
        return ("webgl", "webgpu")
    if flags == "NODE_ENVS":
        return ("node",)
    if flags == "SYNC_BACKEND_ENVS":
        return None     # every backend's test env (cpu, webgl, webgpu) registers isDataSync: true
    if flags == "CHROME_ENVS":
        return ("webgl", "webgpu")
    if "WEBGL" in flags:
        return ("webgl",)
    if "WEBGPU" in flags:
        return ("webgpu",)
    return ("flags: " + flags,)


def walk_cases(suites, path=(), env=None, setup=(), after=()):
    for s in suites:
        here = path + (s["name"],)
        e = env_of(s["flags"]) if s["flags"] is not None else env
        st = setup + (s,)
        for c in s["children"]:
            if c["kind"] == "it":
                yield here, e, st, c
            else:
                yield from walk_cases([c], here, e, st)


def case_id(rel, path, name):
    return f"{rel}::{' > '.join(path)} > {name}"


def translate_file(spec, rel, hand, not_applicable):
    """Python module source for one spec file, and the report of each of its cases.

    report: [{"id", "status": translated|hand|not_applicable|untranslated, "reason", "env"}]"""
    ctx = FileContext(spec)
    tr = Translator(ctx)
    lines = [f"# Generated by tests/tfjs_specs/translate.py from tfjs-core 4.22.0's {rel}: do not edit.",
             "CASES = []", ""]
    # file-level helpers: each translated on its own, so one unsupported helper fails only
    # the cases that use it
    broken_helpers = {}
    for h in spec["helpers"]:
        names = helper_names(h)
        try:
            tr.scope = Scope("module")
            tr.hoist = []
            body = tr.stmt(h, 0)
            check_compiles(body)
            lines += body + [""]
            for n in names:
                tr.scope.declared.add(n)
        except Unsupported as exc:
            for n in names:
                broken_helpers[n] = exc
    report, seen = [], {}
    for path, env, suites, c in walk_cases(spec["suites"]):
        cid = case_id(rel, path, c["name"])
        if cid in seen:
            seen[cid] += 1
            cid = f"{cid} #{seen[cid]}"
        else:
            seen[cid] = 1
        entry = {"id": cid, "env": env, "line": c["line"]}
        report.append(entry)
        na = not_applicable(cid, c["src"])
        if na:
            entry.update(status="not_applicable", reason=na)
            continue
        if c["skipped"]:
            entry.update(status="not_applicable", reason="xit: skipped by TF.js itself")
            continue
        if env == ("node",):
            entry.update(status="not_applicable", reason="NODE_ENVS: runs on TF.js's node platform only")
            continue
        fname = f"case_{len(report)}"
        if cid in hand:
            src, reason = hand[cid]
            body = [f"def {fname}():"] + ["    " + line for line in src.strip("\n").splitlines()]
            lines += body + [f"CASES.append(({cid!r}, {fname}, {list(env) if env else None!r}))", ""]
            entry.update(status="hand", reason=reason)
            continue
        try:
            used = uses_identifiers(c["body"]) | uses_identifiers([s["setup"] for s in suites])
            bad = sorted(n for n in used if n in broken_helpers)
            if bad:
                exc = broken_helpers[bad[0]]
                if isinstance(exc, Internal):
                    raise exc
                raise Unsupported(f"helper {bad[0]}: {exc}")
            body = case_body(tr, suites, c)
            check_compiles(body)
            lines += ["# " + " ".join(cid.split())] + body
            lines += [f"CASES.append(({cid!r}, {body[0].split('(')[0].split()[-1]}, {list(env) if env else None!r}))", ""]
            entry.update(status="translated")
        except Internal as exc:
            why = internal_reason(exc.what)
            if why:
                entry.update(status="not_applicable", reason=why)
            else:
                entry.update(status="untranslated", reason=str(exc))
        except Unsupported as exc:
            entry.update(status="untranslated", reason=str(exc))
        except (KeyError, TypeError, AttributeError) as exc:
            entry.update(status="untranslated", reason=f"translator error: {type(exc).__name__} {exc}")
    return "\n".join(lines) + "\n", report


def check_compiles(lines):
    try:
        compile("\n".join(lines) + "\n", "case", "exec", dont_inherit=True, flags=0x2000)
    except SyntaxError as exc:
        raise Unsupported(f"translator bug: generated code does not compile: {exc.msg}: {(exc.text or '').strip()[:80]}")


def internal_reason(what):
    from .not_applicable import INTERNAL_MODULES
    module = what.split(":")[0].rsplit("/", 1)[-1]
    return INTERNAL_MODULES.get(module) or INTERNAL_MODULES.get(what)


def helper_names(h):
    if h["type"] in ("FunctionDeclaration", "ClassDeclaration") and h.get("id"):
        return [py_ident(h["id"]["name"])]
    if h["type"] == "VariableDeclaration":
        out = []
        for d in h["declarations"]:
            if d["id"]["type"] == "Identifier":
                out.append(py_ident(d["id"]["name"]))
        return out
    return []


def uses_identifiers(node):
    names = set()

    def walk(n):
        if isinstance(n, list):
            for x in n:
                walk(x)
        elif isinstance(n, dict):
            if n.get("type") == "Identifier":
                names.add(py_ident(n["name"]))
            for v in n.values():
                walk(v)
    walk(node)
    return names


def case_body(tr, suites, c):
    """One `it` as a def: the enclosing describes' setup code and beforeEach bodies, the body,
    then the afterEach bodies."""
    stmts = []
    for s in suites:
        for p in s.get("params", []):    # describeWithFlags' test env argument
            if p["type"] != "Identifier":
                raise Unsupported("patterned describe parameter")
            stmts.append({"type": "VariableDeclaration", "kind": "const", "declarations": [
                {"type": "VariableDeclarator", "id": p, "init": {"type": "Identifier", "name": "__env__"}}]})
        stmts += s["setup"]
    for s in suites:
        for hook in s["before_each"]:
            if hook["body"] is not None:
                stmts += hook["body"]["body"] if hook["body"]["type"] == "BlockStatement" else [
                    {"type": "ExpressionStatement", "expression": hook["body"]}]
    body = c["body"]
    if body is None:
        raise Unsupported("it without a function")
    if len(c["params"]) > 1 or c["params"] and c["params"][0]["type"] != "Identifier":
        raise Unsupported("it with a patterned parameter")
    if c["params"]:    # jasmine's done callback: the runner awaits what expectPromiseToFail left pending
        stmts.append({"type": "VariableDeclaration", "kind": "const", "declarations": [
            {"type": "VariableDeclarator", "id": c["params"][0],
             "init": {"type": "Identifier", "name": "__done__"}}]})
    for b in c.get("binds", []):
        if b["name"] is None:
            raise Unsupported("patterned parameter of an it-defining helper")
        stmts.append({"type": "VariableDeclaration", "kind": "const", "declarations": [
            {"type": "VariableDeclarator", "id": {"type": "Identifier", "name": b["name"]}, "init": b["value"]
             or {"type": "Identifier", "name": "undefined"}}]})
    stmts += body["body"] if body["type"] == "BlockStatement" else [{"type": "ReturnStatement", "argument": body}]
    for s in suites:
        for hook in s["after_each"]:
            if hook["body"] is not None and hook["body"]["type"] == "BlockStatement":
                stmts += hook["body"]["body"]
    fn = {"type": "FunctionExpression", "params": [], "async": True,
          "body": {"type": "BlockStatement", "body": stmts}}
    tr.scope = Scope("module")
    tr.hoist = []
    name = tr.fresh("case_")
    lines = tr.function_def(name, fn, 0)
    if not any(" await " in line or "(await " in line for line in lines):
        lines[0] = lines[0].replace("async def", "def", 1)
    return lines


# ---------------------------------------------------------------- build
# package -> (directory of its spec files, glob patterns): the packages `generate` knows
PACKAGES = {
    "core": (TFJS_CORE, ("ops/**/*_test.js", "gradients_test.js", "tensor_test.js", "variable_test.js",
                         "public/chained_ops/*_test.js", "optimizers/*_test.js", "buffer_test.js")),
}


def spec_files(package="core"):
    """The spec files of a package: (relative name, path)."""
    root, patterns = PACKAGES[package]
    files = sorted({p for pat in patterns for p in root.glob(pat)})
    return [(str(p.relative_to(root)), p) for p in files]


def package_of(package, rel, cid):
    """The coverage table's row of a case: tfjs-core's gradient cases (gradients_test.js, and the
    ops specs' cases about gradients) apart from its ops cases."""
    if package != "core":
        return package
    if not (rel.startswith("ops/") or rel == "gradients_test.js"):
        return "core tensor/opt"     # Tensor's methods, variables, optimizers, buffers
    name = cid.split("::", 1)[-1].lower()
    return "core gradients" if rel == "gradients_test.js" or "grad" in name else "core ops"


def source_hash(paths):
    h = hashlib.sha256(VERSION.encode())
    for p in sorted(paths) + sorted(HERE.glob("*.py")) + [HERE / "extract.mjs"]:
        h.update(str(p).encode())
        h.update(Path(p).read_bytes())
    return h.hexdigest()[:16]


def module_name(rel):
    return re.sub(r"[^0-9a-zA-Z_]", "_", rel[:-3] if rel.endswith(".js") else rel)


def generate(package="core", out=None, force=False):
    """Extracts and translates a package's spec files into out/ (default build/specs/<package>):
    one module per spec file and report.json; cached by the hash of the spec files and the
    translator. Returns the report (a list of case entries with "file")."""
    from . import hand as hand_mod, not_applicable as na_mod
    out = Path(out or BUILD / package)
    files = spec_files(package)
    key = source_hash([p for _, p in files])
    stamp = out / "hash"
    if not force and stamp.exists() and stamp.read_text() == key and (out / "report.json").exists():
        return json.loads((out / "report.json").read_text())
    out.mkdir(parents=True, exist_ok=True)
    extracted = out / "extracted.json"
    subprocess.run(["node", str(HERE / "extract.mjs"), "--out", str(extracted)] + [str(p) for _, p in files],
                   check=True, cwd=ROOT)
    specs = json.loads(extracted.read_text())
    report = []
    for rel, p in files:
        spec = specs[str(p)]
        src, rep = translate_file(spec, rel, hand_mod.HAND, na_mod.reason)
        mod = module_name(rel)
        (out / f"{mod}.py").write_text(src)
        try:
            compile(src, mod, "exec")
        except SyntaxError as exc:
            # a translator bug: the file's translated cases become untranslated, with the reason
            for r in rep:
                if r["status"] == "translated":
                    r.update(status="untranslated", reason=f"generated code does not compile: {exc.msg} (line {exc.lineno})")
            (out / f"{mod}.py").write_text("CASES = []\n")
        for r in rep:
            r["file"] = rel
            r["module"] = mod
            r["package"] = package_of(package, rel, r["id"])
        for d in spec["dynamic"]:
            report.append({"id": f"{rel}::line {d['line']}", "file": rel, "module": mod, "status": "untranslated",
                           "reason": "it() created in a loop", "count": d["its"], "env": None,
                           "package": package_of(package, rel, "")})
        report += rep
    (out / "report.json").write_text(json.dumps(report, indent=0))
    stamp.write_text(key)
    return report


if __name__ == "__main__":
    import collections
    import sys
    rep = generate(force="--force" in sys.argv)
    c = collections.Counter(r["status"] for r in rep)
    print(dict(c))
    reasons = collections.Counter(r.get("reason", "") for r in rep if r["status"] == "untranslated")
    for reason, n in reasons.most_common(40):
        print(f"{n:5d}  {reason}", flush=True)
