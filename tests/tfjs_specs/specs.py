"""Jasmine, as the spec interpreter (jsinterp.py) needs it: describe / it / beforeEach collect
cases as jasmine does (describe bodies run at collection, each `it` later with its suites'
beforeEach and afterEach), `expect(...)` matchers, tfjs-core's test_util, and the JavaScript
globals specs use (Object, Math, Array, ...).

A case's status is one of: passed (at least one assertion carried to pytfweb held), failed
(an assertion failed or pytfweb raised), untranslatable (the case uses a construct or TF.js API
the translation does not carry; the reason names it), not applicable (it checks something
pytfweb has no counterpart of), no check (it ran but none of its assertions could be carried
over, so it proves nothing and is not counted as passing).
"""
import inspect
import math
import random
import re
import struct

import pytfweb as tf

from .runtime import not_a_check
from .jsinterp import (NO_HOOK, UNDEF, ErrorText, Interpreter, JSDone, JSFunction, JSObject, JSThrow, NotApplicable,
                       Untranslatable, js_equal, js_str, member_path, run_awaitable, snake, truthy)


class Matcher:
    """jasmine.any(...) / objectContaining(...) used as an argument."""

    def __init__(self, kind, value):
        self.kind, self.value = kind, value


class Suite:
    def __init__(self, name, parent):
        self.name, self.parent = name, parent
        self.before, self.after = [], []

    def chain(self):
        out, s = [], self
        while s is not None:
            out.append(s)
            s = s.parent
        return out[::-1]


class Case:
    def __init__(self, name, suite, fn, skipped=False):
        self.name, self.suite, self.fn, self.skipped = name, suite, fn, skipped


class TypedArray(list):
    """A JavaScript typed array: a list of its numbers that knows its element type (struct's
    format), for its .buffer (the bytes) and .byteLength."""
    fmt = "f"

    def js_get(self, key):
        if key == "buffer":
            return struct.pack(f"<{len(self)}{self.fmt}", *self)
        if key == "byteLength":
            return len(self) * struct.calcsize(self.fmt)
        raise KeyError(key)


TYPED_ARRAYS = {name: type(name, (TypedArray,), {"fmt": fmt}) for name, fmt in (
    ("Float32Array", "f"), ("Int32Array", "i"), ("Uint8Array", "B"), ("Uint8ClampedArray", "B"),
    ("Float64Array", "d"), ("Int8Array", "b"), ("Uint16Array", "H"), ("Int16Array", "h"), ("Uint32Array", "I"))}


def to_js(v):
    """A pytfweb result as the value a spec sees (tuples and arrays as lists, numpy scalars as
    Python's; numpy is not imported: the page has none)."""
    if isinstance(v, tuple) and not hasattr(v, "_fields"):
        return [to_js(x) for x in v]
    if type(v).__module__ in ("numpy", "array"):
        return v.tolist()
    return v


def to_py(v):
    if isinstance(v, JSObject):
        return {k: to_py(x) for k, x in v.items() if x is not UNDEF}
    if isinstance(v, list):
        return [to_py(x) for x in v]
    return v


def _flat(v):
    if isinstance(v, tf.Tensor):
        v = v.data_sync()
    if type(v).__module__ == "numpy" and hasattr(v, "ravel"):
        return v.ravel().tolist()
    if isinstance(v, (list, tuple)):
        out = []
        for x in v:
            if isinstance(x, (list, tuple, tf.Tensor)) or (type(x).__module__ == "numpy" and hasattr(x, "ravel")):
                out.extend(_flat(x))
            else:
                out.append(x)
        return out
    if hasattr(v, "tolist"):
        return _flat(v.tolist())
    return [v]


def _close(a, e, eps):
    if isinstance(a, (str, bytes)) or isinstance(e, (str, bytes)):
        return a == e
    a, e = float(a), float(e)
    if math.isnan(a) or math.isnan(e):
        return math.isnan(a) and math.isnan(e)
    if math.isinf(a) or math.isinf(e):
        return a == e
    return abs(a - e) <= eps


class TestUtil:
    """tfjs-core's test_util with its tolerances (testEpsilon: 1e-3 for float32)."""

    def __init__(self, host):
        self.host = host

    def expectArraysClose(self, actual, expected, epsilon=UNDEF):  # noqa: N802 - TF.js's names
        eps = 1e-3 if epsilon is UNDEF else epsilon
        a, e = _flat(run_awaitable(actual)), _flat(run_awaitable(expected))
        if len(e) == 1 and len(a) != 1 and not isinstance(expected, (list, tuple, tf.Tensor)):
            e = e * len(a)
        self.host.note_check()
        assert len(a) == len(e), f"expectArraysClose: {len(a)} values, expected {len(e)}: {a} vs {e}"
        bad = [i for i, (x, y) in enumerate(zip(a, e)) if not _close(x, y, eps)]
        assert not bad, f"expectArraysClose: actual {a} != expected {e} (first at {bad[0]}, eps {eps})"

    def expectArraysEqual(self, actual, expected):  # noqa: N802
        a, e = _flat(run_awaitable(actual)), _flat(run_awaitable(expected))
        self.host.note_check()
        assert len(a) == len(e), f"expectArraysEqual: {len(a)} values, expected {len(e)}: {a} vs {e}"
        a = [x.decode() if isinstance(x, bytes) else x for x in a]
        e = [x.decode() if isinstance(x, bytes) else x for x in e]
        bad = [i for i, (x, y) in enumerate(zip(a, e)) if not (x == y or _close(x, y, 0))]
        assert not bad, f"expectArraysEqual: actual {a} != expected {e}"

    def expectNumbersClose(self, a, e, epsilon=UNDEF):  # noqa: N802
        self.host.note_check()
        eps = 1e-3 if epsilon is UNDEF else epsilon
        assert _close(a, e, eps), f"expectNumbersClose: {a} != {e}"


def deep_equal(a, b):
    if type(a) is type(b) and hasattr(a, "get_config") and not isinstance(a, dict):
        # jasmine compares two objects' fields: pytfweb's layers objects by class and config
        return a is b or deep_equal(a.get_config(), b.get_config())
    if isinstance(a, tf.Tensor) or isinstance(b, tf.Tensor):
        # jasmine compares a tensor's fields; here: dtype, shape and values
        if not (isinstance(a, tf.Tensor) and isinstance(b, tf.Tensor)):
            return False
        if a is b:
            return True
        return a.dtype == b.dtype and list(a.shape) == list(b.shape) and \
            deep_equal(_flat(a.data_sync()), _flat(b.data_sync()))
    a, b = to_js(a), to_js(b)
    if isinstance(b, Matcher):
        return matches(a, b)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(deep_equal(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        ka = {k for k, v in a.items() if v is not UNDEF}
        kb = {k for k, v in b.items() if v is not UNDEF}
        return ka == kb and all(deep_equal(a[k], b[k]) for k in ka)
    if (a is UNDEF or a is None) and (b is UNDEF or b is None):
        return a is b or (a is None and b is UNDEF)
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    if isinstance(a, bytes):
        a = a.decode()
    return js_equal(a, b) or a == b


def matches(v, m):
    if m.kind == "any":
        cls = m.value
        if cls is float or cls is int:
            return isinstance(v, (int, float))
        if isinstance(cls, type):
            return isinstance(v, cls)
        return True
    if m.kind == "objectContaining":
        return isinstance(v, dict) and all(deep_equal(v.get(k, UNDEF), x) for k, x in m.value.items())
    return False


def _number(v):
    """JavaScript's coercion of a one-element (typed) array to its number, as comparisons make it."""
    return v[0] if isinstance(v, (list, tuple)) and len(v) == 1 else v


class Expectation:
    def __init__(self, host, value, path, negate=False):
        self.host, self.value, self.path, self.negate = host, value, path, negate

    @property
    def not_(self):
        return Expectation(self.host, self.value, self.path, not self.negate)

    def _check(self, ok, what):
        self.host.note_check()
        if bool(ok) == self.negate:
            raise AssertionError(f"expected {self.value!r} {'not ' if self.negate else ''}{what}")

    def toEqual(self, x=UNDEF):  # noqa: N802 - jasmine's names
        from .converter import ArgRef
        if isinstance(self.value, ArgRef) and not self.negate:
            self.value.probe.expect(self.value.index, x)
            return
        if isinstance(self.value, ErrorText) and isinstance(x, str) and not self.negate:
            # a caught error's message: TF.js's text is not pytfweb's; that it raised is checked
            self._check(True, "to be an error's message")
            return
        self._check(deep_equal(self.value, x), f"to equal {x!r}")

    def toBe(self, x=UNDEF):  # noqa: N802
        v = to_js(self.value)
        self._check(v is x or js_equal(v, x), f"to be {x!r}")

    def toBeUndefined(self):  # noqa: N802
        self._check(self.value is UNDEF or self.value is None, "to be undefined")

    def toBeDefined(self):  # noqa: N802
        self._check(self.value is not UNDEF, "to be defined")

    def toBeNull(self):  # noqa: N802
        self._check(self.value is None, "to be null")

    def toBeTruthy(self):  # noqa: N802
        self._check(truthy(self.value), "to be truthy")

    def toBeFalsy(self):  # noqa: N802
        self._check(not truthy(self.value), "to be falsy")

    def toBeTrue(self):  # noqa: N802
        self._check(self.value is True, "to be true")

    def toBeFalse(self):  # noqa: N802
        self._check(self.value is False, "to be false")

    def toBeNaN(self):  # noqa: N802
        self._check(isinstance(self.value, float) and math.isnan(self.value), "to be NaN")

    def toBeCloseTo(self, x, digits=2):  # noqa: N802
        v = self.value
        if isinstance(v, (list, tuple)) and len(v) == 1:   # JS coerces a one-element (typed) array to its number
            v = v[0]
        self._check(abs(float(v) - x) < 10 ** -digits / 2, f"to be close to {x}")

    def toBeGreaterThan(self, x):  # noqa: N802
        self._check(_number(self.value) > x, f"> {x}")

    def toBeGreaterThanOrEqual(self, x):  # noqa: N802
        self._check(_number(self.value) >= x, f">= {x}")

    def toBeLessThan(self, x):  # noqa: N802
        self._check(_number(self.value) < x, f"< {x}")

    def toBeLessThanOrEqual(self, x):  # noqa: N802
        self._check(_number(self.value) <= x, f"<= {x}")

    def toContain(self, x):  # noqa: N802
        v = to_js(self.value)
        self._check(x in v if isinstance(v, str) else any(deep_equal(e, x) for e in v), f"to contain {x!r}")

    def toMatch(self, x):  # noqa: N802
        if isinstance(self.value, (BaseException, ErrorText)):
            # an error caught by the spec: TF.js's message text is not pytfweb's; that it raised is checked
            self._check(True, "to be an error")
            return
        # jasmine tests RegExp(x) against the value, which JS converts to a string (an array joins with ",")
        self._check(re.search(x if isinstance(x, str) else x.pattern, js_str(self.value)), f"to match {x!r}")

    def toBeInstanceOf(self, cls):  # noqa: N802
        self._check(self.host.instance_of(self.value, cls), f"to be an instance of {cls!r}")

    def _throws(self):
        fn = self.value
        self.host.expect_throw = True
        try:
            self.host.interp.call(fn, [])
        except (Untranslatable, NotApplicable):
            raise
        except Exception as exc:  # noqa: BLE001 - any error TF.js would throw
            return exc
        finally:
            self.host.expect_throw = False
        return None

    def toThrow(self, *expected):  # noqa: N802
        # TF.js's message text is not pytfweb's: that it raises is what is carried over, and the
        # error's class where the spec names one pytfweb has (ValueError, TypeError, ...).
        exc = self._throws()
        if exc is not None and not self.negate and not_a_check(exc):
            # a missing name or method, a call that does not fit: the code could not run at all
            self._check(False, f"to throw pytfweb's error for the bad input (it raised {type(exc).__name__}: {exc}, "
                               f"which says the code could not run)")
            return
        cls = expected[0] if expected and isinstance(expected[0], type) and issubclass(expected[0], BaseException) \
            else None
        if cls is not None and exc is not None and not self.negate:
            self._check(isinstance(exc, cls), f"to throw {cls.__name__} (it raised {type(exc).__name__}: {exc})")
            return
        self._check(exc is not None, "to throw")

    toThrowError = toThrow

    def toHaveBeenCalledWith(self, *args):  # noqa: N802
        from .converter import Spy
        if isinstance(self.value, JasmineSpy):
            want = list(args)
            self._check(any(deep_equal(r, want) for r in self.value.records), f"to have been called with {want!r}")
            return
        if not isinstance(self.value, Spy):
            raise Untranslatable("toHaveBeenCalledWith on a spy of a TF.js object")
        if self.negate:
            raise Untranslatable("a negated spy assertion")
        self.host.spy_called_with(self.value.path, list(args))

    def toHaveBeenCalled(self):  # noqa: N802
        if isinstance(self.value, JasmineSpy):
            self._check(self.value.records, "to have been called")
            return
        self.host.unchecked.append("toHaveBeenCalled")

    def toHaveBeenCalledTimes(self, n):  # noqa: N802
        if isinstance(self.value, JasmineSpy):
            self._check(len(self.value.records) == n, f"to have been called {n} times "
                                                      f"(it was {len(self.value.records)} times)")
            return
        self.host.unchecked.append("toHaveBeenCalledTimes")


class ExpectationProxy:
    """`expect(x).not` is a reserved word in Python: the host maps the member 'not'."""


class Host:
    """The jasmine side common to the converter and layers hosts."""

    def __init__(self):
        self.interp = Interpreter(self)
        self.console = JSConsole()   # one for the run: a spy put on it stays until the case's end
        self.test_util = TestUtil(self)
        self.root = Suite("", None)
        self.suite = self.root
        self.cases = []
        self.consts = []
        self.reset_case()

    def reset_case(self):
        # every case from the same random state (fit's shuffle and unseeded initializers draw from
        # Python's random): its result does not depend on the cases that ran before it
        random.seed(31)
        self.checks = 0
        self.unchecked = []
        self.last = None
        self.executed = False
        self.error_matched = False
        self.fitted = False
        self.expect_throw = False

    def note_check(self):
        self.checks += 1

    def finish_case(self):
        """Checks a case states piecewise (a spy's recorded arguments, one by one) run at its end."""

    # ---- interpreter hooks ---------------------------------------------------------------------------
    def call_hook(self, interp, n, args, scope):
        callee = n["callee"]
        if callee["type"] == "Identifier" and callee["name"] in ("expect", "expectAsync") and \
                scope.lookup(callee["name"]) is None:
            return Expectation(self, args[0] if args else UNDEF, member_path(n["arguments"][0]) if n["arguments"]
                               else None)
        return NO_HOOK

    def on_assign(self, target, value):
        pass

    def global_name(self, name):
        g = {
            "describe": self.describe, "fdescribe": self.describe, "it": self.it, "fit": self.it,
            "xit": lambda name, fn=UNDEF, *a: self.it(name, fn, skipped=True),
            "xdescribe": lambda name, fn: None,
            "beforeEach": lambda fn, *a: self.suite.before.append(fn),
            "afterEach": lambda fn, *a: self.suite.after.append(fn),
            "beforeAll": lambda fn, *a: self.suite.before.append(fn),
            "afterAll": lambda fn, *a: None,
            "jasmine": Jasmine(), "Object": JSObjectStatics(), "Math": JSMath(), "Array": JSArray(),
            "Number": JSNumber(), "JSON": JSJson(), "console": self.console, "Promise": JSPromise(),
            "Error": JSError, "TypeError": JSError, "String": js_str, "Boolean": truthy,
            **TYPED_ARRAYS,
            "spyOn": self.spy_on, "fail": self.fail, "isNaN": lambda v: isinstance(v, float) and math.isnan(v),
            "parseInt": int, "parseFloat": float, "Set": JSSet, "Map": JSMap,
        }
        if name in g:
            return g[name]
        raise Untranslatable(f"unknown global '{name}'")

    # ---- the spec's own classes (jsinterp.JSClassMaker) ------------------------------------------------
    def class_base(self, parent):
        """The Python class a spec's class extends (parent: what its `extends` names)."""
        if isinstance(parent, type):
            return parent
        raise Untranslatable(f"a class extending {type(parent).__name__}")

    def unmade_class(self, name, exc):
        """What a class declaration the interpreter cannot make binds its name to."""
        raise exc

    def js_init_args(self, cls, args, kwargs):
        """The constructor's JavaScript arguments from a Python call (keyword arguments: one
        config object)."""
        return args + ([JSObject(kwargs)] if kwargs else [])

    def call_super_init(self, init, args):
        """`super(...)` in the constructor of a spec's class extending a Python one."""
        return self.call(init, args)

    def py_method_name(self, key):
        return snake(key)

    def js_method_args(self, key, args, kwargs):
        return [to_js(a) for a in args] + ([JSObject(kwargs)] if kwargs else [])

    def js_method_result(self, key, value):
        return to_py(value)

    def set_static(self, cls, key, value):
        setattr(cls, key, value)
        if snake(key) != key:
            setattr(cls, snake(key), value)

    def set_field(self, obj, key, value):
        setattr(obj, key if hasattr(obj, key) or snake(key) == key else snake(key), value)

    def fail(self, msg=""):
        raise AssertionError(f"fail({msg})")

    def spy_on(self, obj, name):
        raise NotApplicable(f"spies on a TF.js object's method '{name}' (TF.js's own internals)")

    def describe(self, name, fn):
        self.suite = Suite(name, self.suite)
        try:
            self.interp.call(fn, [])
        finally:
            self.suite = self.suite.parent

    def it(self, name, fn=UNDEF, *rest, skipped=False):
        self.cases.append(Case(name, self.suite, fn, skipped=skipped or fn is UNDEF))

    def instance_of(self, v, cls):
        if isinstance(cls, type) and issubclass(cls, TypedArray):
            return isinstance(v, list)   # a typed array from pytfweb (data_sync) is a list here
        if isinstance(cls, JSArray):
            return isinstance(v, list)
        if isinstance(cls, JSObjectStatics):
            return v is not None and v is not UNDEF and not isinstance(v, (int, float, str, bool))
        if isinstance(cls, JSPromise):
            return hasattr(v, "resolved_value") or hasattr(v, "__await__")
        if isinstance(cls, type):
            return isinstance(v, cls)
        return False

    def object_member(self, obj, key):
        if key in ("hasOwnProperty",):
            return lambda k: k in obj
        return UNDEF

    def member(self, obj, key):
        if isinstance(obj, Expectation) and key == "not":
            return obj.not_
        if key == "name" and (inspect.isfunction(obj) or inspect.isbuiltin(obj) or inspect.ismethod(obj)):
            return getattr(obj, "__name__", UNDEF)
        if isinstance(key, (int, float)) and hasattr(obj, "__getitem__"):
            return to_js(obj[int(key)])
        if isinstance(obj, tf.Tensor):
            return tensor_member(obj, key)
        if hasattr(obj, "js_get"):
            return obj.js_get(key)
        for name in (key, snake(key)):
            if hasattr(obj, name):
                v = getattr(obj, name)
                is_fn = inspect.ismethod(v) or inspect.isfunction(v) or inspect.isbuiltin(v)
                return wrap_callable(v) if is_fn else to_js(v)
        raise Untranslatable(f"{type(obj).__name__}.{key}")

    def set_member(self, obj, key, value):
        if hasattr(obj, "js_set"):
            return obj.js_set(key, value)
        raise Untranslatable(f"setting {type(obj).__name__}.{key}")

    def call(self, fn, args):
        args = [to_py(a) for a in args]
        while args and args[-1] is UNDEF:
            args.pop()
        return to_js(fn(*args))

    def construct(self, cls, args, n):
        if isinstance(cls, JSArray):
            return [UNDEF] * args[0] if len(args) == 1 and isinstance(args[0], int) else list(args)
        if isinstance(cls, type) and issubclass(cls, TypedArray):   # new Float32Array(n) or (values)
            return cls([0] * args[0] if len(args) == 1 and isinstance(args[0], int) else list(args[0] if args else []))
        if isinstance(cls, type) and issubclass(cls, JSError):
            return cls(*args)
        if isinstance(cls, type):
            return cls(*[to_py(a) for a in args])
        raise Untranslatable(f"new {n['callee'].get('name', '?')}")

    # ---- collection and running ----------------------------------------------------------------------
    def collect(self, program):
        self.interp.run_program(program)
        seen = {}
        out = []
        for case in self.cases:
            names = [s.name for s in case.suite.chain() if s.name] + [case.name]
            cid = " > ".join(names)
            seen[cid] = seen.get(cid, 0) + 1
            if seen[cid] > 1:
                cid += f" #{seen[cid]}"
            out.append((cid, case))
        return out

    def run_case(self, case):
        """-> (status, detail). Statuses as the module docstring says."""
        self.reset_case()
        chain = case.suite.chain()
        if case.skipped:
            return "untranslatable", "the spec skips it (xit / no body)"
        try:
            try:
                for s in chain:
                    for fn in s.before:
                        self.interp.call(fn, with_done(fn))
                run_awaitable(self.interp.call(case.fn, with_done(case.fn)))
                self.finish_case()
            finally:
                for s in reversed(chain):
                    for fn in s.after:
                        try:
                            self.interp.call(fn, [])
                        except Exception:  # noqa: BLE001 - afterEach disposing what a failed case never made
                            pass
                for t in self.consts:
                    t.dispose()
                self.consts = []
        except Untranslatable as exc:
            return "untranslatable", str(exc)
        except NotApplicable as exc:
            return "not applicable", str(exc)
        except AssertionError as exc:
            return "failed", str(exc)
        except Exception as exc:  # noqa: BLE001 - pytfweb raising where TF.js does not is a failure
            return "failed", f"{type(exc).__name__}: {exc}"
        if not self.checks and not self.unchecked:
            # jasmine passes a spec without expectations when it does not throw: so does this one
            return "passed", "no expectation in the spec: ran without raising"
        if not self.checks:
            what = ", ".join(sorted(set(self.unchecked)))
            return "no check", f"none of its assertions carries over ({what})"
        if self.error_matched and not self.fitted:
            return "passed", "error-equivalent"
        return "passed", "inputs fitted" if self.fitted else ""


def with_done(fn):
    """The arguments jasmine calls a case or hook with: `done` where the function takes one."""
    return [JSDone()] if isinstance(fn, JSFunction) and fn.node["params"] else []


def tensor_member(t, key):
    if key == "shape":
        return list(t.shape)
    if key in ("dtype", "rank", "size", "id"):
        return getattr(t, key)
    if key == "dataId":
        return t.data_id
    if key == "isDisposed":
        return t.is_disposed
    name = snake(key)
    if not hasattr(t, name):
        raise Untranslatable(f"Tensor.{key}")
    return wrap_callable(getattr(t, name))


def wrap_callable(fn):
    import functools

    @functools.wraps(fn)   # keeps fn's signature: the layers host reads it for keyword options
    def call(*args, **kwargs):
        out = fn(*[to_py(a) for a in args if a is not UNDEF], **kwargs)
        if hasattr(out, "__await__"):
            async def later():
                return to_js(await out)
            return later()
        return to_js(out)
    return call


class JasmineSpy:
    """A jasmine spy (jasmine.createSpy, or spyOn(obj, 'm') in place of obj's method): a callable
    that records its calls and does what `.and` says (callFake(fn), callThrough(), returnValue(v);
    by default nothing). The interpreter calls it with JavaScript's values, pytfweb with Python's."""
    js_bound = True   # the host passes a spec's arguments as they are

    def __init__(self, interp, name="", original=None):
        self.interp, self.name, self.original = interp, name, original
        self.records = []
        self.action = ("stub", UNDEF)

    def __call__(self, *args, **kwargs):
        self.records.append(list(args) + ([JSObject(kwargs)] if kwargs else []))
        kind, value = self.action
        if kind == "fake":
            return self.interp.call(value, list(args) + ([JSObject(kwargs)] if kwargs else []))
        if kind == "through":
            return self.original(*args, **kwargs)
        if kind == "throw":
            raise value if isinstance(value, BaseException) else JSThrow(value)
        return value

    def js_get(self, key):
        if key == "and":
            return JSObject(callFake=self._set("fake"), callThrough=lambda: self._set("through")(self.original),
                            returnValue=self._set("value"), throwError=self._set("throw"),
                            stub=lambda: self._set("stub")(UNDEF))
        if key == "calls":
            recs = self.records
            return JSObject(count=lambda: len(recs), any=lambda: bool(recs), argsFor=lambda i: recs[int(i)],
                            allArgs=lambda: list(recs), mostRecent=lambda: JSObject(args=recs[-1]) if recs else UNDEF,
                            first=lambda: JSObject(args=recs[0]) if recs else UNDEF, reset=lambda: recs.clear(),
                            all=lambda: [JSObject(args=r) for r in recs])
        if key in ("call", "apply", "bind"):
            return JSFunction.js_get(self, key)
        raise Untranslatable(f"spy.{key}")

    def _set(self, kind):
        def set_action(value=UNDEF):
            if kind == "through" and value is None:
                raise Untranslatable("callThrough on a spy with no original (jasmine.createSpy)")
            self.action = ("through" if kind == "through" else kind, value)
            return self
        return set_action

    def __repr__(self):
        return f"<spy {self.name}>"


class JSError(Exception):
    def __init__(self, message=""):
        super().__init__(message)
        self.message = message


class Jasmine:
    def js_get(self, key):
        if key == "any":
            return lambda cls: Matcher("any", cls)
        if key == "objectContaining":
            return lambda obj: Matcher("objectContaining", obj)
        if key == "anything":
            return lambda: Matcher("any", None)
        if key == "createSpy":
            from .converter import Spy
            return lambda *a: Spy(None)
        if key == "DEFAULT_TIMEOUT_INTERVAL":
            return 5000
        raise Untranslatable(f"jasmine.{key}")

    def js_set(self, key, value):
        pass


class JSObjectStatics:
    def js_get(self, key):
        def from_entries(entries):
            from .converter import Spy, SpyTable
            if any(isinstance(v, (Spy, dict)) for _, v in entries):
                return SpyTable()
            return JSObject((k, v) for k, v in entries)

        def keys(o):
            if isinstance(o, dict):
                return list(o.keys())
            if isinstance(o, list):
                return [str(i) for i in range(len(o))]
            from .converter import TfOps
            if isinstance(o, TfOps):
                return ["fused", "image", "linalg"]
            raise Untranslatable(f"Object.keys of a {type(o).__name__}")

        table = {"keys": keys, "values": lambda o: list(o.values()), "entries": lambda o: [[k, v] for k, v in o.items()],
                 "fromEntries": from_entries, "assign": lambda t, *s: [t.update(x) for x in s] and t,
                 "freeze": lambda o: o,
                 # what TypeScript's __rest helper (an object rest pattern, compiled for ES2017) reads
                 "prototype": JSObject(hasOwnProperty=JSObject(
                     call=lambda o, k: isinstance(o, dict) and k in o)),
                 "getOwnPropertySymbols": lambda o: []}
        if key not in table:
            raise Untranslatable(f"Object.{key}")
        return table[key]


class JSMath:
    def js_get(self, key):
        table = {"sqrt": math.sqrt, "exp": math.exp, "log": math.log, "abs": abs, "max": lambda *a: max(a),
                 "min": lambda *a: min(a), "floor": lambda x: int(math.floor(x)), "ceil": lambda x: int(math.ceil(x)),
                 "round": lambda x: int(math.floor(x + 0.5)), "pow": math.pow, "PI": math.pi, "E": math.e,
                 "tanh": math.tanh, "sin": math.sin, "cos": math.cos, "atan": math.atan, "log1p": math.log1p,
                 "sign": lambda x: (x > 0) - (x < 0), "random": lambda: 0.5, "trunc": math.trunc,
                 "LN2": math.log(2), "SQRT2": math.sqrt(2), "atanh": math.atanh, "tan": math.tan,
                 "cosh": math.cosh, "sinh": math.sinh, "acos": math.acos, "asin": math.asin, "expm1": math.expm1,
                 "asinh": math.asinh, "acosh": math.acosh, "atan2": math.atan2, "log2": math.log2,
                 "log10": math.log10, "fround": lambda x: struct.unpack("f", struct.pack("f", x))[0]}
        if key not in table:
            raise Untranslatable(f"Math.{key}")
        return table[key]


class JSArray:
    def js_get(self, key):
        def from_(x, fn=None):
            if isinstance(x, dict) and "length" in x:
                x = [UNDEF] * x["length"]
            xs = list(x)
            return [fn(v, i) if fn else v for i, v in enumerate(xs)] if fn is None else \
                [fn(v, i) for i, v in enumerate(xs)]
        table = {"isArray": lambda x: isinstance(x, list), "from": from_,
                 "prototype": JSObject(slice=JSObject(call=lambda this, *a: list(this)[slice(*a) if a else slice(None)]))}
        if key not in table:
            raise Untranslatable(f"Array.{key}")
        return table[key]


class JSNumber:
    def js_get(self, key):
        table = {"MAX_VALUE": 1.7976931348623157e308, "MIN_VALUE": 5e-324, "POSITIVE_INFINITY": math.inf,
                 "NEGATIVE_INFINITY": -math.inf, "NaN": math.nan, "EPSILON": 2.220446049250313e-16,
                 "MAX_SAFE_INTEGER": 2 ** 53 - 1, "isNaN": lambda v: isinstance(v, float) and math.isnan(v),
                 "isInteger": lambda v: float(v).is_integer()}
        if key not in table:
            raise Untranslatable(f"Number.{key}")
        return table[key]


class JSJson:
    def js_get(self, key):
        import json
        if key == "stringify":
            return lambda v, *a: json.dumps(to_py(v))
        if key == "parse":
            return lambda s: json.loads(s, object_hook=JSObject)
        raise Untranslatable(f"JSON.{key}")


class JSConsole:
    """console: its methods print nothing here. A spec's spyOn(console, 'warn') puts a spy in place
    of one for the case (the layers host's spy_on), and the layers host sends pytfweb's warnings to
    console.warn, as TF.js's code calls it."""

    def log(self, *a):
        return UNDEF

    warn = error = info = debug = log

    def js_get(self, key):
        return getattr(self, key, None) or self.log


class JSPromise:
    def js_get(self, key):
        if key == "all":
            return lambda xs: [run_awaitable(x) for x in xs]
        if key == "resolve":
            return lambda x=UNDEF: x
        raise Untranslatable(f"Promise.{key}")


class JSSet(set):
    def __init__(self, items=()):
        super().__init__(items or ())

    def js_get(self, key):
        if key == "has":
            return lambda x: x in self
        if key == "add":
            return lambda x: self.add(x) or self
        if key == "size":
            return len(self)
        raise Untranslatable(f"Set.{key}")


class JSMap(dict):
    def js_get(self, key):
        if key == "get":
            return lambda k: self.get(k, UNDEF)
        if key == "set":
            return lambda k, v: self.__setitem__(k, v) or self
        if key == "has":
            return lambda k: k in self
        raise Untranslatable(f"Map.{key}")


