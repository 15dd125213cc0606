"""A small interpreter of the ESTree (acorn's tree of a spec file, types stripped) that TF.js's
jasmine specs are written in, enough for tfjs-converter's executor specs and tfjs-layers' specs.

Why an interpreter rather than emitted Python: those specs build their cases in loops
(`['Add', 'Mul', ...].forEach(op => it(...))`), share state through `beforeEach` closures and
mutate one `node` object per case; running the tree as jasmine would keeps each case exactly as
its authors wrote it, and a construct the interpreter does not know stops that case with
Untranslatable naming it (counted, never passed).

The host (converter.py, layers.py) gives the names a spec imports (tfOps, tfl, test_util, ...)
as Python objects; member access on Python objects maps TF.js's camelCase to pytfweb's
snake_case.
"""
import asyncio
import math
import re
import sys


def _js_int(x):
    """An index as JavaScript's Array methods read one (ToIntegerOrInfinity: truncated toward 0)."""
    return int(x) if isinstance(x, float) and math.isfinite(x) else x


class Untranslatable(Exception):
    """A construct or API of the spec this translation does not carry to pytfweb (the reason says which)."""


class NotApplicable(Exception):
    """A case that checks something pytfweb has no counterpart of (TF.js's engine internals, ...)."""


class JSThrow(Exception):
    """A JavaScript `throw` of a value that is not a Python exception."""

    def __init__(self, value):
        super().__init__(repr(value))
        self.value = value


class _Undefined:
    _inst = None

    def __new__(cls):
        if cls._inst is None:
            cls._inst = super().__new__(cls)
        return cls._inst

    def __repr__(self):
        return "undefined"

    def __bool__(self):
        return False


UNDEF = _Undefined()


def snake(name):
    """TF.js camelCase -> pytfweb snake_case ('resizeBilinear' -> 'resize_bilinear', 'conv2dTranspose' ->
    'conv2d_transpose', 'matMul' -> 'mat_mul')."""
    name = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", name)
    name = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1_\2", name)
    return name.lower()


class JSObject(dict):
    """A plain JavaScript object (key order kept)."""


class JSFunction:
    def __init__(self, interp, node, scope, this=UNDEF):
        self.interp, self.node, self.scope, self.this = interp, node, scope, this
        self.is_async = node.get("async", False)

    def __call__(self, *args):
        return self.interp.call_function(self, list(args))

    inferred_name = ""

    @property
    def __name__(self):
        return (self.node.get("id") or {}).get("name", self.inferred_name)

    def __repr__(self):
        return f"<js function {self.node.get('id') and self.node['id'].get('name')}>"

    def js_get(self, key):
        if key == "name":
            return self.__name__
        if key == "call":
            return lambda this=UNDEF, *args: self(*args)
        if key == "apply":
            return lambda this=UNDEF, args=(): self(*list(args or ()))
        if key == "bind":
            return lambda this=UNDEF, *args: (lambda *more: self(*args, *more))
        if key == "length":
            return len(self.node["params"])
        raise Untranslatable(f"function.{key}")


class _Return(Exception):
    def __init__(self, value):
        self.value = value


class _Break(Exception):
    pass


class _Continue(Exception):
    pass


class Scope:
    def __init__(self, parent=None):
        self.vars = {}
        self.parent = parent

    def lookup(self, name):
        s = self
        while s is not None:
            if name in s.vars:
                return s
            s = s.parent
        return None

    def get(self, name):
        s = self.lookup(name)
        if s is None:
            raise Untranslatable(f"unknown name '{name}'")
        return s.vars[name]

    def set(self, name, value):
        s = self.lookup(name)
        (s or self).vars[name] = value

    def declare(self, name, value):
        self.vars[name] = value


def run_awaitable(value):
    """`await value`: a coroutine runs to its end; anything else is its own value."""
    if hasattr(value, "resolved_value"):
        return value.resolved_value
    if asyncio.iscoroutine(value) or isinstance(value, asyncio.Future):
        if sys.platform == "emscripten":  # in the page: Pyodide waits for the promise (JSPI)
            from pyodide.ffi import run_sync
            return run_sync(value)
        loop = asyncio.new_event_loop()
        try:
            return loop.run_until_complete(value)
        finally:
            loop.close()
    return value


class ErrorText(str):
    """An error's message or stack as a spec reads it (err.message): pytfweb's text, not TF.js's, so
    a matcher on it checks that the error was raised (as toThrow does), not its wording."""


def error_member(exc, key):
    """A JavaScript Error's fields of a Python exception a spec caught."""
    if key == "message":
        return ErrorText(getattr(exc, "message", None) or str(exc))
    if key == "stack":
        return ErrorText(f"{type(exc).__name__}: {exc}")
    if key == "name":
        return type(exc).__name__
    return NO_HOOK


class Settled:
    """A promise after `.then`: a coroutine pytfweb returned, run to its end (its value, or the
    error it raised); then / catch / finally run their callbacks at once, as the awaited spec would."""

    def __init__(self, interp, value=UNDEF, error=None):
        self.interp, self.value, self.error = interp, value, error

    @classmethod
    def of(cls, interp, fn, *args):
        try:
            value = fn(*args)
            return value if isinstance(value, Settled) else cls(interp, run_awaitable(value))
        except (Untranslatable, NotApplicable, AssertionError):
            raise   # jasmine's records, never the promise's rejection
        except Exception as exc:  # noqa: BLE001 - a rejected promise
            return cls(interp, error=exc)

    @property
    def resolved_value(self):
        if self.error is not None:
            raise self.error
        return self.value

    def js_get(self, key):
        call = lambda f, *a: Settled.of(self.interp, lambda: self.interp.call(f, list(a)))  # noqa: E731
        if key == "then":
            def then(on_ok=UNDEF, on_error=UNDEF):
                if self.error is not None:
                    return self if on_error in (UNDEF, None) else call(on_error, self.error)
                return self if on_ok in (UNDEF, None) else call(on_ok, self.value)
            return then
        if key == "catch":
            return lambda on_error: self if self.error is None else call(on_error, self.error)
        if key == "finally":
            return lambda fn: (self.interp.call(fn, []), self)[1]
        raise Untranslatable(f"Promise.{key}")


class JSDone:
    """jasmine's `done` of a case written with a callback (it('...', done => {...}))."""

    def __call__(self, *a):
        return UNDEF

    def js_get(self, key):
        if key == "fail":
            def fail(message=""):
                raise AssertionError(f"done.fail({js_str(message)})")
            return fail
        raise Untranslatable(f"done.{key}")


def truthy(v):
    if v is UNDEF or v is None:
        return False
    if isinstance(v, (list, dict, JSFunction)) or callable(v):
        return True
    if isinstance(v, float) and math.isnan(v):
        return False
    try:
        return bool(v)
    except Exception:  # a tensor or other host object: an object is truthy
        return True


class Interpreter:
    """Runs ESTree nodes. host_get(obj, name) and host_call hooks let the host map Python objects."""

    def __init__(self, host):
        self.host = host
        self.globals = Scope()

    # ---- statements --------------------------------------------------------------------------------
    def run_program(self, program, scope=None):
        scope = scope or self.globals
        for stmt in program["body"]:
            self.exec(stmt, scope)
        return scope

    def exec_block(self, body, scope):
        for stmt in body:
            if stmt["type"] == "FunctionDeclaration":
                scope.declare(stmt["id"]["name"], JSFunction(self, stmt, scope))
        for stmt in body:
            self.exec(stmt, scope)

    def exec(self, n, scope):
        t = n["type"]
        m = getattr(self, "s_" + t, None)
        if m is None:
            raise Untranslatable(f"statement {t}")
        return m(n, scope)

    def s_ImportDeclaration(self, n, scope):
        source = n["source"]["value"]
        for spec in n["specifiers"]:
            local = spec["local"]["name"]
            imported = spec.get("imported", {}).get("name") if spec["type"] == "ImportSpecifier" else None
            scope.declare(local, self.host.import_name(source, imported, spec["type"]))

    def s_ExportNamedDeclaration(self, n, scope):
        if n.get("declaration"):
            self.exec(n["declaration"], scope)
        elif n.get("source"):
            raise Untranslatable("re-export from another module")

    def s_ExportDefaultDeclaration(self, n, scope):
        self.exec(n["declaration"], scope) if n["declaration"]["type"].endswith("Declaration") else None

    def s_ExpressionStatement(self, n, scope):
        self.eval(n["expression"], scope)

    def s_EmptyStatement(self, n, scope):
        pass

    def s_VariableDeclaration(self, n, scope):
        for d in n["declarations"]:
            value = self.eval(d["init"], scope) if d.get("init") else UNDEF
            if isinstance(value, JSFunction) and not value.node.get("id") and d["id"]["type"] == "Identifier":
                value.inferred_name = d["id"]["name"]   # JS names `const f = () => ...` f
            self.bind_pattern(d["id"], value, scope, declare=True)

    def s_FunctionDeclaration(self, n, scope):
        scope.declare(n["id"]["name"], JSFunction(self, n, scope))

    def s_ClassDeclaration(self, n, scope):
        name = n["id"]["name"]
        try:
            cls = self.make_class(n, scope)
        except (Untranslatable, NotApplicable) as exc:
            # the cases that use the class say why; the file's other cases still run
            cls = self.host.unmade_class(name, exc)
        scope.declare(name, cls)

    def s_BlockStatement(self, n, scope):
        self.exec_block(n["body"], Scope(scope))

    def s_ReturnStatement(self, n, scope):
        raise _Return(self.eval(n["argument"], scope) if n.get("argument") else UNDEF)

    def s_IfStatement(self, n, scope):
        if truthy(self.eval(n["test"], scope)):
            self.exec(n["consequent"], scope)
        elif n.get("alternate"):
            self.exec(n["alternate"], scope)

    def s_ThrowStatement(self, n, scope):
        v = self.eval(n["argument"], scope)
        raise v if isinstance(v, BaseException) else JSThrow(v)

    def s_TryStatement(self, n, scope):
        try:
            self.exec(n["block"], scope)
        except (Untranslatable, NotApplicable, _Return, _Break, _Continue, AssertionError):
            # a failed expectation or fail() is jasmine's record, never the spec's catch
            raise
        except Exception as exc:
            if not n.get("handler"):
                raise
            inner = Scope(scope)
            if n["handler"].get("param"):
                self.bind_pattern(n["handler"]["param"], exc, inner, declare=True)
            self.exec(n["handler"]["body"], inner)
        finally:
            if n.get("finalizer"):
                self.exec(n["finalizer"], scope)

    def s_ForStatement(self, n, scope):
        inner = Scope(scope)
        if n.get("init"):
            if n["init"]["type"] == "VariableDeclaration":
                self.exec(n["init"], inner)
            else:
                self.eval(n["init"], inner)
        while not n.get("test") or truthy(self.eval(n["test"], inner)):
            try:
                self.exec(n["body"], Scope(inner))
            except _Break:
                break
            except _Continue:
                pass
            if n.get("update"):
                self.eval(n["update"], inner)

    def s_ForOfStatement(self, n, scope):
        for v in list(self.iterate(self.eval(n["right"], scope))):
            inner = Scope(scope)
            left = n["left"]
            target = left["declarations"][0]["id"] if left["type"] == "VariableDeclaration" else left
            self.bind_pattern(target, v, inner, declare=left["type"] == "VariableDeclaration")
            try:
                self.exec(n["body"], inner)
            except _Break:
                break
            except _Continue:
                pass

    def s_ForInStatement(self, n, scope):
        obj = self.eval(n["right"], scope)
        for k in list(obj.keys() if isinstance(obj, dict) else range(len(obj))):
            inner = Scope(scope)
            left = n["left"]
            target = left["declarations"][0]["id"] if left["type"] == "VariableDeclaration" else left
            self.bind_pattern(target, str(k), inner, declare=True)
            try:
                self.exec(n["body"], inner)
            except _Break:
                break

    def s_WhileStatement(self, n, scope):
        while truthy(self.eval(n["test"], scope)):
            try:
                self.exec(n["body"], Scope(scope))
            except _Break:
                break
            except _Continue:
                pass

    def s_BreakStatement(self, n, scope):
        raise _Break()

    def s_ContinueStatement(self, n, scope):
        raise _Continue()

    def iterate(self, v):
        if isinstance(v, dict):
            raise Untranslatable("iterating a plain object")
        if hasattr(v, "js_iter"):
            return v.js_iter()
        return iter(v)

    # ---- patterns ----------------------------------------------------------------------------------
    def bind_pattern(self, p, value, scope, declare=False):
        t = p["type"]
        if t == "Identifier":
            (scope.declare if declare else scope.set)(p["name"], value)
        elif t == "ArrayPattern":
            seq = list(self.iterate(value))
            for i, el in enumerate(p["elements"]):
                if el is None:
                    continue
                if el["type"] == "RestElement":
                    self.bind_pattern(el["argument"], seq[i:], scope, declare)
                    break
                self.bind_pattern(el, seq[i] if i < len(seq) else UNDEF, scope, declare)
        elif t == "ObjectPattern":
            for prop in p["properties"]:
                if prop["type"] == "RestElement":
                    raise Untranslatable("object rest pattern")
                key = self.prop_key(prop, scope)
                self.bind_pattern(prop["value"], self.get_member(value, key), scope, declare)
        elif t == "AssignmentPattern":
            v = value if value is not UNDEF else self.eval(p["right"], scope)
            self.bind_pattern(p["left"], v, scope, declare)
        elif t == "MemberExpression":
            self.set_member(self.eval(p["object"], scope), self.member_key(p, scope), value)
        else:
            raise Untranslatable(f"pattern {t}")

    # ---- classes -----------------------------------------------------------------------------------
    def make_class(self, n, scope):
        """A class the spec declares, as a Python class (see JSClassMaker)."""
        return JSClassMaker(self, n, scope).make()

    def call_method(self, fn, this, args, home=None, super_init=None):
        """fn (a method's FunctionExpression) called with `this` bound, home the class whose body
        holds it (what `super.m` starts from), super_init what `super(...)` calls."""
        extra = {"this": this}
        if home is not None:
            extra["%home"] = home
        if super_init is not None:
            extra["%super"] = super_init
        return self.call_function(fn, args, extra)

    # ---- functions ---------------------------------------------------------------------------------
    def call_function(self, fn, args, extra=None):
        node = fn.node
        scope = Scope(fn.scope)
        scope.declare("arguments", list(args))
        for k, v in (extra or {}).items():
            scope.declare(k, v)
        for i, p in enumerate(node["params"]):
            if p["type"] == "RestElement":
                self.bind_pattern(p["argument"], list(args[i:]), scope, declare=True)
                break
            self.bind_pattern(p, args[i] if i < len(args) else UNDEF, scope, declare=True)
        body = node["body"]
        if body["type"] != "BlockStatement":
            return self.eval(body, scope)
        try:
            self.exec_block(body["body"], scope)
        except _Return as r:
            return r.value
        return UNDEF

    # ---- expressions -------------------------------------------------------------------------------
    def eval(self, n, scope):
        m = getattr(self, "e_" + n["type"], None)
        if m is None:
            raise Untranslatable(f"expression {n['type']}")
        return m(n, scope)

    def e_Literal(self, n, scope):
        if n.get("regex"):
            return JSRegExp(n["regex"]["pattern"], n["regex"]["flags"])
        v = n["value"]
        if isinstance(v, float) and v.is_integer() and "." not in n.get("raw", "") and "e" not in n.get("raw", ""):
            return int(v)
        return v

    def e_Identifier(self, n, scope):
        name = n["name"]
        if name == "undefined":
            return UNDEF
        if name in ("NaN", "Infinity"):
            return math.nan if name == "NaN" else math.inf
        s = scope.lookup(name)
        if s is None:
            return self.host.global_name(name)
        return s.vars[name]

    def e_ThisExpression(self, n, scope):
        s = scope.lookup("this")
        return UNDEF if s is None else s.vars["this"]

    def e_TemplateLiteral(self, n, scope):
        out = []
        for i, q in enumerate(n["quasis"]):
            out.append(q["value"]["cooked"])
            if i < len(n["expressions"]):
                out.append(js_str(self.eval(n["expressions"][i], scope)))
        return "".join(out)

    def e_ArrayExpression(self, n, scope):
        out = []
        for el in n["elements"]:
            if el is None:
                out.append(UNDEF)
            elif el["type"] == "SpreadElement":
                out.extend(self.iterate(self.eval(el["argument"], scope)))
            else:
                out.append(self.eval(el, scope))
        return out

    def prop_key(self, prop, scope):
        if prop.get("computed"):
            return js_key(self.eval(prop["key"], scope))
        k = prop["key"]
        return k["name"] if k["type"] == "Identifier" else js_key(k["value"])

    def e_ObjectExpression(self, n, scope):
        obj = JSObject()
        for prop in n["properties"]:
            if prop["type"] == "SpreadElement":
                obj.update(self.eval(prop["argument"], scope))
                continue
            if prop.get("kind", "init") != "init":
                raise Untranslatable("object getter/setter")
            obj[self.prop_key(prop, scope)] = self.eval(prop["value"], scope)
        return obj

    def e_ArrowFunctionExpression(self, n, scope):
        return JSFunction(self, n, scope)

    e_FunctionExpression = e_ArrowFunctionExpression

    def e_AwaitExpression(self, n, scope):
        return run_awaitable(self.eval(n["argument"], scope))

    def e_ParenthesizedExpression(self, n, scope):
        return self.eval(n["expression"], scope)

    def e_SequenceExpression(self, n, scope):
        v = UNDEF
        for e in n["expressions"]:
            v = self.eval(e, scope)
        return v

    def e_ChainExpression(self, n, scope):
        return self.eval(n["expression"], scope)

    def e_ConditionalExpression(self, n, scope):
        return self.eval(n["consequent"] if truthy(self.eval(n["test"], scope)) else n["alternate"], scope)

    def e_LogicalExpression(self, n, scope):
        left = self.eval(n["left"], scope)
        op = n["operator"]
        if op == "&&":
            return self.eval(n["right"], scope) if truthy(left) else left
        if op == "||":
            return left if truthy(left) else self.eval(n["right"], scope)
        if op == "??":
            return left if left is not UNDEF and left is not None else self.eval(n["right"], scope)
        raise Untranslatable(f"logical operator {op}")

    def e_UnaryExpression(self, n, scope):
        op = n["operator"]
        if op == "delete":
            arg = n["argument"]
            if arg["type"] != "MemberExpression":
                raise Untranslatable("delete of a non-member")
            obj = self.eval(arg["object"], scope)
            if isinstance(obj, dict):
                obj.pop(js_key(self.member_key(arg, scope)), None)
                return True
            raise Untranslatable("delete on a host object")
        if op == "typeof":
            v = self.eval(n["argument"], scope) if n["argument"]["type"] != "Identifier" or \
                scope.lookup(n["argument"]["name"]) else UNDEF
            return js_typeof(v)
        v = self.eval(n["argument"], scope)
        if op == "-":
            return -v
        if op == "+":
            return js_number(v)
        if op == "!":
            return not truthy(v)
        if op == "void":
            return UNDEF
        if op == "~":
            return ~int(v)
        raise Untranslatable(f"unary operator {op}")

    def e_UpdateExpression(self, n, scope):
        arg = n["argument"]
        old = self.eval(arg, scope)
        new = old + 1 if n["operator"] == "++" else old - 1
        self.assign(arg, new, scope)
        return new if n["prefix"] else old

    def e_BinaryExpression(self, n, scope):
        a = self.eval(n["left"], scope)
        b = self.eval(n["right"], scope)
        op = n["operator"]
        if op in ("==", "!="):   # loose: null and undefined are equal to each other
            nullish = (a is UNDEF or a is None) and (b is UNDEF or b is None)
            return (nullish or js_equal(a, b)) == (op == "==")
        if op == "===":
            return js_equal(a, b)
        if op == "!==":
            return not js_equal(a, b)
        if op in ("+", "-", "*", "/", "%", "**"):   # JS arithmetic: null counts as 0, undefined as NaN
            if not (op == "+" and (isinstance(a, str) or isinstance(b, str))):
                a = 0 if a is None else math.nan if a is UNDEF else a
                b = 0 if b is None else math.nan if b is UNDEF else b
        if op == "+":
            if isinstance(a, str) or isinstance(b, str):
                return js_str(a) + js_str(b)
            return js_arith(a) + js_arith(b)
        if op == "instanceof":
            return self.host.instance_of(a, b)
        if op == "in":
            return js_key(a) in b if isinstance(b, dict) else hasattr(b, snake(js_key(a)))
        if op in ("-", "*", "/", "%", "**"):
            a, b = js_arith(a), js_arith(b)   # null is 0, undefined NaN, booleans 0 / 1
        if op in ("<", ">", "<=", ">="):   # JS compares a one-element array as its number
            a = a[0] if isinstance(a, list) and len(a) == 1 else a
            b = b[0] if isinstance(b, list) and len(b) == 1 else b
        ops = {"-": lambda: a - b, "*": lambda: a * b, "/": lambda: js_div(a, b), "%": lambda: math.fmod(a, b),
               "**": lambda: a ** b, "<": lambda: a < b, ">": lambda: a > b, "<=": lambda: a <= b,
               ">=": lambda: a >= b, "&": lambda: int(a) & int(b), "|": lambda: int(a) | int(b),
               "<<": lambda: int(a) << int(b), ">>": lambda: int(a) >> int(b), "^": lambda: int(a) ^ int(b)}
        if op not in ops:
            raise Untranslatable(f"binary operator {op}")
        return ops[op]()

    def assign(self, target, value, scope):
        if target["type"] == "Identifier":
            scope.set(target["name"], value)
        elif target["type"] == "MemberExpression":
            self.set_member(self.eval(target["object"], scope), self.member_key(target, scope), value)
        else:
            self.bind_pattern(target, value, scope)

    def e_AssignmentExpression(self, n, scope):
        op = n["operator"]
        value = self.eval(n["right"], scope)
        if op != "=":
            old = self.eval(n["left"], scope)
            binop = {"+=": "+", "-=": "-", "*=": "*", "/=": "/"}.get(op)
            if binop is None:
                raise Untranslatable(f"assignment operator {op}")
            if not (binop == "+" and (isinstance(old, str) or isinstance(value, str))):
                old = 0 if old is None else math.nan if old is UNDEF else old   # JS: null is 0, undefined NaN
                value = 0 if value is None else math.nan if value is UNDEF else value
            if binop == "+":
                value = js_str(old) + js_str(value) if isinstance(old, str) or isinstance(value, str) else old + value
            else:
                old, value = js_arith(old), js_arith(value)
                value = old - value if binop == "-" else old * value if binop == "*" else js_div(old, value)
        self.host.on_assign(n["left"], value)
        self.assign(n["left"], value, scope)
        return value

    def member_key(self, n, scope):
        if n["computed"]:
            return self.eval(n["property"], scope)
        return n["property"]["name"]

    def e_MemberExpression(self, n, scope):
        if n["object"]["type"] == "Super":   # super.m: the member of the class above the method's own
            home, this = scope.get("%home"), scope.get("this")
            return self.host.member(super(home, this), self.member_key(n, scope))
        obj = self.eval(n["object"], scope)
        if n.get("optional") and (obj is UNDEF or obj is None):
            return UNDEF
        return self.get_member(obj, self.member_key(n, scope))

    def get_member(self, obj, key):
        if obj is UNDEF or obj is None:
            raise TypeError(f"Cannot read properties of {obj!r} (reading '{key}')")
        if key in ("then", "catch", "finally") and (asyncio.iscoroutine(obj) or isinstance(obj, asyncio.Future)):
            return Settled.of(self, lambda: obj).js_get(key)
        if isinstance(obj, BaseException) and not hasattr(obj, "js_get"):
            found = error_member(obj, key)
            if found is not NO_HOOK:
                return found
        if getattr(type(obj), "js_class", None) is not None and isinstance(key, str):
            found = js_class_member(self, obj, key)
            if found is not NO_HOOK:
                return found
            if key in vars(obj):   # a field the spec set, under its own name
                return vars(obj)[key]
        if isinstance(obj, JSObject):
            k = js_key(key)
            if k in obj:
                return obj[k]
            return self.host.object_member(obj, k)
        if isinstance(obj, (list, tuple)):
            if key in ("buffer", "byteLength") and hasattr(obj, "js_get"):
                return obj.js_get(key)   # a typed array's bytes
            if isinstance(key, (int, float)) and not isinstance(key, bool):
                i = int(key)
                return obj[i] if 0 <= i < len(obj) else UNDEF
            if isinstance(key, str) and key.isdigit():
                i = int(key)
                return obj[i] if i < len(obj) else UNDEF
            return ArrayMethods.get(self, obj, key)
        if isinstance(obj, (int, float)) and not isinstance(obj, bool) and key in ("toFixed", "toString"):
            return (lambda digits=0: f"{obj:.{int(digits)}f}") if key == "toFixed" else (lambda *a: js_str(obj))
        if isinstance(obj, str):
            if isinstance(key, int):
                return obj[key] if key < len(obj) else UNDEF
            return StringMethods.get(obj, key)
        if isinstance(obj, dict):
            # a dict from pytfweb (get_config and the like) holds snake_case keys where TF.js's has camelCase
            k = js_key(key)
            return obj[k] if k in obj else obj.get(snake(k), UNDEF)
        return self.host.member(obj, key)

    def set_member(self, obj, key, value):
        if getattr(type(obj), "js_class", None) is not None and isinstance(key, str):
            # an instance of the spec's own class: pytfweb reads its fields under snake_case names
            for c in type(obj).__mro__:
                if key in vars(c).get("js_setters", {}):
                    self.call_method(vars(c)["js_setters"][key], obj, [value], c)
                    return
            self.host.set_field(obj, key, value)
            return
        if isinstance(obj, type) and getattr(obj, "js_class", None) is obj:
            self.host.set_static(obj, key, value)   # MyLayer.className = '...' (a static field)
            return
        if isinstance(obj, dict):
            obj[js_key(key)] = value
        elif isinstance(obj, list):
            i = int(key)
            while len(obj) <= i:
                obj.append(UNDEF)
            obj[i] = value
        else:
            self.host.set_member(obj, key, value)

    def e_CallExpression(self, n, scope):
        callee = n["callee"]
        args = []
        for a in n["arguments"]:
            if a["type"] == "SpreadElement":
                args.extend(self.iterate(self.eval(a["argument"], scope)))
            else:
                args.append(self.eval(a, scope))
        if callee["type"] == "Super":
            return scope.get("%super")(*args)
        hooked = self.host.call_hook(self, n, args, scope)
        if hooked is not NO_HOOK:
            return hooked
        if callee["type"] == "MemberExpression":
            fn = self.e_MemberExpression(callee, scope)
        else:
            fn = self.eval(callee, scope)
        if n.get("optional") and (fn is UNDEF or fn is None):
            return UNDEF
        return self.call(fn, args, where=callee)

    def call(self, fn, args, where=None):
        if isinstance(fn, JSFunction):
            return self.call_function(fn, args)
        if fn is UNDEF or fn is None or not callable(fn):
            raise TypeError(f"{describe_node(where)} is not a function")
        return self.host.call(fn, args)

    def e_NewExpression(self, n, scope):
        cls = self.eval(n["callee"], scope)
        args = []
        for a in n["arguments"]:
            if a["type"] == "SpreadElement":
                args.extend(self.iterate(self.eval(a["argument"], scope)))
            else:
                args.append(self.eval(a, scope))
        if isinstance(cls, type) and getattr(cls, "js_class", None) is cls:
            obj = cls.__new__(cls)   # the spec's own class takes JavaScript's arguments as they are
            cls.js_construct(obj, args)
            return obj
        return self.host.construct(cls, args, n)

    def e_TaggedTemplateExpression(self, n, scope):
        raise Untranslatable("tagged template")

    def e_ClassExpression(self, n, scope):
        return self.make_class(n, scope)


NO_HOOK = object()


class JSClassMaker:
    """A class a spec declares, made a Python class so that pytfweb's engine takes its instances:
    `class LayerForTest extends tfl.layers.Layer {...}` is a Python subclass of pytfweb's Layer
    whose methods are the spec's JavaScript functions, under the snake_case names pytfweb calls
    (call, compute_output_shape, get_config, on_batch_end, ...), and a plain class one of
    object. The host adapts arguments between the two sides (host.js_method_args: pytfweb's
    `call(inputs, training, **kwargs)` is TF.js's `call(inputs, kwargs)`; host.js_method_result:
    getConfig's camelCase object is pytfweb's snake_case dict; host.js_init_args: keyword
    arguments pytfweb passes a constructor, as from_config does, are TF.js's config object).
    JavaScript reaching the class's members (this.m(), MyClass.m()) runs them with JavaScript's
    arguments; `super(...)` and `super.m(...)` reach the Python base through the host, as any
    call of pytfweb from a spec."""

    def __init__(self, interp, n, scope):
        self.interp, self.n, self.scope = interp, n, scope

    def make(self):
        interp, host, n = self.interp, self.interp.host, self.n
        name = (n.get("id") or {}).get("name") or "AnonymousClass"
        parent = interp.eval(n["superClass"], self.scope) if n.get("superClass") else None
        base = object if parent is None else host.class_base(parent)
        methods, getters, setters, statics, fields = {}, {}, {}, {}, []
        ctor = None
        for m in n["body"]["body"]:
            key = interp.prop_key(m, self.scope)
            if m["type"] == "MethodDefinition":
                fn = JSFunction(interp, m["value"], self.scope)
                if m["kind"] == "constructor":
                    ctor = fn
                elif m.get("static"):
                    statics[key] = ("method", fn)
                elif m["kind"] == "get":
                    getters[key] = fn
                elif m["kind"] == "set":
                    setters[key] = fn
                else:
                    methods[key] = fn
            elif m["type"] == "PropertyDefinition":
                if m.get("static"):
                    statics[key] = ("value", m.get("value"))
                elif m.get("value") is not None:
                    fields.append((key, m["value"]))
            else:
                raise Untranslatable(f"class member {m['type']}")
        maker = self
        ns = {"__module__": "tfjs_spec", "__qualname__": name, "js_methods": methods, "js_getters": getters,
              "js_setters": setters}

        def init_fields(this):
            for key, value in fields:
                inner = Scope(self.scope)
                inner.declare("this", this)
                interp.set_member(this, key, interp.eval(value, inner))

        def __init__(this, *args, **kwargs):   # noqa: N807
            # pytfweb making an instance (from_config): its arguments as the constructor's JavaScript ones
            js_construct(this, host.js_init_args(cls, list(args), kwargs))

        def js_construct(this, args):
            def super_init(*a):
                if getattr(base, "js_class", None) is base:
                    base.js_construct(this, list(a))   # the spec's own base class takes JavaScript's arguments
                elif base is not object:
                    host.call_super_init(super(cls, this).__init__, list(a))
                init_fields(this)
            if ctor is None:
                super_init(*args)
            else:
                if base is object:
                    super_init()
                interp.call_method(ctor, this, args, cls, super_init)
        ns["__init__"] = __init__
        ns["js_construct"] = staticmethod(js_construct)
        for key, fn in methods.items():
            ns[host.py_method_name(key)] = maker.py_method(key, fn, lambda: cls)
        for key in set(getters) | set(setters):
            g, st = getters.get(key), setters.get(key)
            ns[snake(key)] = property(
                (lambda this, g=g: interp.call_method(g, this, [], cls)) if g else None,
                (lambda this, v, st=st: interp.call_method(st, this, [v], cls)) if st else None)
        cls = type(name, (base,), ns)
        cls.js_class = cls
        for key, (kind, v) in statics.items():
            if kind == "method":
                value = maker.static_method(v, cls)
            else:
                inner = Scope(self.scope)
                inner.declare("this", cls)
                value = UNDEF if v is None else interp.eval(v, inner)
            host.set_static(cls, key, value)
        return cls

    def py_method(self, key, fn, cls_of):
        interp, host = self.interp, self.interp.host

        def method(this, *args, **kwargs):
            out = interp.call_method(fn, this, host.js_method_args(key, list(args), kwargs), cls_of())
            return host.js_method_result(key, out)
        method.__name__ = snake(key)
        method.js_function = fn
        return method

    def static_method(self, fn, cls):
        interp = self.interp

        def method(*args):
            return interp.call_method(fn, cls, list(args), cls)
        method.js_bound = True
        return staticmethod(method)


def js_class_member(interp, obj, key):
    """A member the spec's own class defines for JavaScript (a method, bound, or a getter's
    value), or NO_HOOK when the class has none of that name."""
    for c in type(obj).__mro__:
        table = vars(c)
        if "js_methods" not in table:
            continue
        if key in table["js_getters"]:
            return interp.call_method(table["js_getters"][key], obj, [], c)
        if key in table["js_methods"]:
            fn = table["js_methods"][key]

            def call(*args, fn=fn, c=c):
                return interp.call_method(fn, obj, list(args), c)
            call.js_bound = True
            return call
    return NO_HOOK


def describe_node(n):
    if n is None:
        return "value"
    if n["type"] == "Identifier":
        return n["name"]
    if n["type"] == "MemberExpression" and not n["computed"]:
        return describe_node(n["object"]) + "." + n["property"]["name"]
    return n["type"]


def member_path(n):
    """'spyOps.fused.conv2d' of a MemberExpression chain of identifiers, or None."""
    if n["type"] == "Identifier":
        return n["name"]
    if n["type"] == "MemberExpression" and not n["computed"]:
        base = member_path(n["object"])
        return base and base + "." + n["property"]["name"]
    if n["type"] == "ChainExpression":
        return member_path(n["expression"])
    return None


def js_key(k):
    if isinstance(k, bool):
        return "true" if k else "false"
    if isinstance(k, float) and k.is_integer():
        return str(int(k))
    return str(k) if not isinstance(k, str) else k


def js_str(v):
    if v is UNDEF:
        return "undefined"
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, float):
        return str(int(v)) if v.is_integer() else repr(v)
    if isinstance(v, list):
        return ",".join(js_str(x) for x in v)
    return str(v)


def js_arith(v):
    """A value as JavaScript's arithmetic sees it (tensors and other objects pass as they are)."""
    if v is None:
        return 0
    if v is UNDEF:
        return math.nan
    if isinstance(v, bool):
        return int(v)
    return v


def js_number(v):
    if isinstance(v, str):
        try:
            return float(v)
        except ValueError:
            return math.nan
    return v


def js_div(a, b):
    if b == 0:
        return math.nan if a == 0 or (isinstance(a, float) and math.isnan(a)) else math.copysign(math.inf, a)
    return a / b


def js_equal(a, b):
    if a is UNDEF or b is UNDEF or a is None or b is None:
        return a is b
    if isinstance(a, (list, dict)) or isinstance(b, (list, dict)):
        return a is b
    if isinstance(a, bool) != isinstance(b, bool):
        return False
    try:
        return bool(a == b) if isinstance(a, (int, float, str)) and isinstance(b, (int, float, str)) else a is b
    except Exception:
        return a is b


def js_typeof(v):
    if v is UNDEF:
        return "undefined"
    if isinstance(v, bool):
        return "boolean"
    if isinstance(v, (int, float)):
        return "number"
    if isinstance(v, str):
        return "string"
    if isinstance(v, JSFunction) or (callable(v) and not hasattr(v, "shape")):
        return "function"
    return "object"


class ArrayMethods:
    @staticmethod
    def get(interp, arr, key):
        if key == "length":
            return len(arr)
        call = lambda f, *a: interp.call(f, list(a))  # noqa: E731
        methods = {
            "forEach": lambda f: [call(f, v, i, arr) for i, v in enumerate(list(arr))] and UNDEF,
            "map": lambda f: [call(f, v, i, arr) for i, v in enumerate(list(arr))],
            "filter": lambda f: [v for i, v in enumerate(list(arr)) if truthy(call(f, v, i, arr))],
            "some": lambda f: any(truthy(call(f, v, i, arr)) for i, v in enumerate(arr)),
            "every": lambda f: all(truthy(call(f, v, i, arr)) for i, v in enumerate(arr)),
            "find": lambda f: next((v for i, v in enumerate(arr) if truthy(call(f, v, i, arr))), UNDEF),
            "findIndex": lambda f: next((i for i, v in enumerate(arr) if truthy(call(f, v, i, arr))), -1),
            "indexOf": lambda x: next((i for i, v in enumerate(arr) if js_equal(v, x)), -1),
            "includes": lambda x: any(js_equal(v, x) for v in arr),
            "push": lambda *xs: arr.extend(xs) or len(arr),
            "pop": lambda: arr.pop() if arr else UNDEF,
            "shift": lambda: arr.pop(0) if arr else UNDEF,
            "unshift": lambda *xs: [arr.insert(0, x) for x in reversed(xs)] and len(arr),
            "concat": lambda *xs: list(arr) + [y for x in xs for y in (x if isinstance(x, list) else [x])],
            "slice": lambda s=0, e=None: arr[_js_int(s):(_js_int(e) if e is not None and e is not UNDEF else len(arr))],
            "join": lambda sep=",": sep.join(js_str(v) for v in arr),
            "reduce": lambda f, *init: ArrayMethods.reduce(call, arr, f, init),
            "reverse": lambda: arr.reverse() or arr,
            "fill": lambda v, s=0, e=None: ArrayMethods.fill(arr, v, s, e),
            "keys": lambda: list(range(len(arr))),
            "entries": lambda: [[i, v] for i, v in enumerate(arr)],
            "flat": lambda: [y for x in arr for y in (x if isinstance(x, list) else [x])],
            "sort": lambda f=None: ArrayMethods.sort(call, arr, f),
        }
        if key not in methods:
            raise Untranslatable(f"array method {key}")
        return methods[key]

    @staticmethod
    def reduce(call, arr, f, init):
        items = list(arr)
        acc = init[0] if init else items.pop(0)
        for i, v in enumerate(items):
            acc = call(f, acc, v, i, arr)
        return acc

    @staticmethod
    def fill(arr, v, s, e):
        for i in range(s, len(arr) if e is None else e):
            arr[i] = v
        return arr

    @staticmethod
    def sort(call, arr, f):
        import functools
        if f is None:
            arr.sort(key=js_str)
        else:
            arr.sort(key=functools.cmp_to_key(lambda x, y: call(f, x, y)))
        return arr


class JSRegExp:
    """A regular expression literal: Python's re with JavaScript's flags (g: every match, i, m, s)."""

    def __init__(self, pattern, flags):
        self.source, self.flags = pattern, flags
        py = (re.I if "i" in flags else 0) | (re.M if "m" in flags else 0) | (re.S if "s" in flags else 0)
        self.re = re.compile(pattern, py)
        self.pattern = pattern

    def search(self, text):
        return self.re.search(text)

    def js_get(self, key):
        if key == "test":
            return lambda text: self.re.search(js_str(text)) is not None
        if key in ("source", "flags"):
            return getattr(self, key)
        raise Untranslatable(f"RegExp.{key}")


def _js_replace(s, pattern, repl, every=False):
    """String.prototype.replace: a string or regex pattern; a string replacement ($1, $&) or a
    function called with the match, its groups, the offset and the string."""
    def expand(m):
        if callable(repl):
            return js_str(repl(m.group(0), *[UNDEF if g is None else g for g in m.groups()], m.start(), s))
        return re.sub(r"\$(\d+|&)", lambda d: m.group(0) if d.group(1) == "&" else (m.group(int(d.group(1))) or ""),
                      repl)
    if isinstance(pattern, JSRegExp):
        return pattern.re.sub(expand, s, count=0 if "g" in pattern.flags else 1)
    rx = re.compile(re.escape(pattern))
    return rx.sub(expand, s, count=0 if every else 1)


class StringMethods:
    @staticmethod
    def get(s, key):
        methods = {
            "length": len(s), "toLowerCase": lambda: s.lower(), "toUpperCase": lambda: s.upper(),
            "charAt": lambda i: s[i:i + 1], "slice": lambda a, b=None: s[a:b], "substring": lambda a, b=None: s[a:b],
            "startsWith": lambda x: s.startswith(x), "endsWith": lambda x: s.endswith(x),
            "indexOf": lambda x: s.find(x), "includes": lambda x: x in s, "split": lambda sep=UNDEF: [s] if sep is UNDEF else (sep.re.split(s) if isinstance(sep, JSRegExp) else
                                                                  (list(s) if sep == "" else s.split(sep))),
            "replace": lambda a, b: _js_replace(s, a, b), "replaceAll": lambda a, b: _js_replace(s, a, b, True),
            "match": lambda rx: StringMethods.match(s, rx), "repeat": lambda n: s * n,
            "padStart": lambda n, c=" ": s.rjust(n, c), "padEnd": lambda n, c=" ": s.ljust(n, c),
            "toString": lambda: s, "lastIndexOf": lambda x: s.rfind(x), "concat": lambda *xs: s + "".join(xs),
            "trimStart": lambda: s.lstrip(), "trimEnd": lambda: s.rstrip(), "charCodeAt": lambda i=0: ord(s[i]),
            "trim": lambda: s.strip(),
        }
        if key not in methods:
            raise Untranslatable(f"string method {key}")
        return methods[key]

    @staticmethod
    def match(s, rx):
        if "g" in rx.flags:
            found = [m.group(0) for m in rx.re.finditer(s)]
            return found or None
        m = rx.re.search(s)
        return None if m is None else [m.group(0)] + [UNDEF if g is None else g for g in m.groups()]
