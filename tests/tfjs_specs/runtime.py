"""What the translated TF.js specs call (`_js.*`): JavaScript's semantics where Python's differ,
jasmine's `expect`, and tfjs-core's test_util asserts with TF.js's own tolerances (test_util.ts:
expectArraysClose within testEpsilon(): 1e-3 on a 32-bit float backend, 1e-1 on half floats).

Plain Python without numpy: it runs in CPython (cpu) and in the page under Pyodide (webgl,
webgpu). run_cases_async runs a generated module's cases, each in its own engine scope (as TF.js's
jasmine setup does), and returns the first error of each failing case.
"""
import array
import asyncio
import functools
import inspect
import json as _json
import math
import random
import re
import time

import pytfweb as tf
from pytfweb.core.engine import ENGINE
from pytfweb.core.tensor import Tensor

NaN = math.nan
Infinity = math.inf

TEST_EPSILON_FLOAT32 = 1e-3
TEST_EPSILON_FLOAT16 = 1e-1

_TYPED = {"f": "Float32Array", "i": "Int32Array", "l": "Int32Array", "B": "Uint8Array", "d": "Float64Array",
          "b": "Int8Array", "h": "Int16Array", "H": "Uint16Array", "I": "Uint32Array"}


# the API table's names the generic conversion misses (translate.snake reads the table itself)
_SNAKE_EXCEPTIONS = {"isNaN": "is_nan", "topk": "top_k"}


@functools.lru_cache(maxsize=None)
def _snake(name):
    if name in _SNAKE_EXCEPTIONS:
        return _SNAKE_EXCEPTIONS[name]
    name = re.sub(r"(\d)D(?=[A-Z]|$)", r"\1d", name)     # as1D -> as1d, like conv2d
    s = re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", name)
    s = re.sub(r"(?<=[A-Z])([A-Z][a-z])", r"_\1", s)
    return s.lower()


# ---------------------------------------------------------------- values
class JSError(Exception):
    """`new Error(msg)` / `throw <value>` of the spec's own code."""


def new_Error(msg=""):
    return JSError(msg)


new_TypeError = new_RangeError = new_Error
Error = TypeError_ = new_Error


def thrown(e):
    return e if isinstance(e, BaseException) else JSError(String(e))


def num(x):
    """A JavaScript number as Python keeps it: integral floats as ints (shapes, indices)."""
    if isinstance(x, float) and x.is_integer() and abs(x) < 2 ** 53:
        return int(x)
    return x


def is_num(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool)


class obj(dict):
    """An object literal: a dict whose keys (snake_case where they were identifiers) read as
    attributes too (`o.value`, `o.grad_func`)."""

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        if name in self:
            return self[name]
        if name.endswith("_") and name[:-1] in self:
            return self[name[:-1]]
        return None

    def __setattr__(self, name, value):
        self[name] = value


def truthy(x):
    if x is None or x is False:
        return False
    if is_num(x) or isinstance(x, bool):
        return not (x == 0 or x != x)
    if isinstance(x, str):
        return x != ""
    return True


def and_(a, b):
    return b() if truthy(a) else a


def or_(a, b):
    return a if truthy(a) else b()


def nullish(a, b):
    return b() if a is None else a


def default(v, f):
    return f() if v is None else v


def typeof(x):
    if x is None:
        return "undefined"
    if isinstance(x, bool):
        return "boolean"
    if is_num(x):
        return "number"
    if isinstance(x, str):
        return "string"
    if callable(x) and not isinstance(x, type):
        return "function"
    return "object"


def String(x=""):
    if x is None:
        return "undefined"
    if x is True:
        return "true"
    if x is False:
        return "false"
    if isinstance(x, float):
        if x != x:
            return "NaN"
        if math.isinf(x):
            return "Infinity" if x > 0 else "-Infinity"
        if x.is_integer() and abs(x) < 1e21:
            return str(int(x))
        return repr(x)
    if isinstance(x, (list, tuple, array.array)):
        return ",".join("" if v is None else String(v) for v in x)
    if isinstance(x, Tensor):
        return x.to_string() if hasattr(x, "to_string") else str(x)
    return str(x)


def Number(x=0):
    if x is None:
        return NaN
    if isinstance(x, bool):
        return int(x)
    if is_num(x):
        return x
    if isinstance(x, str):
        s = x.strip()
        if s == "":
            return 0
        try:
            return num(float(s))
        except ValueError:
            return NaN
    if isinstance(x, Tensor):
        raise TypeError("Number(tensor)")
    return NaN


Number.MAX_SAFE_INTEGER = 2 ** 53 - 1
Number.MIN_SAFE_INTEGER = -(2 ** 53 - 1)
Number.EPSILON = 2.0 ** -52
Number.MAX_VALUE = 1.7976931348623157e308
Number.MIN_VALUE = 5e-324
Number.POSITIVE_INFINITY = math.inf
Number.NEGATIVE_INFINITY = -math.inf
Number.NaN = math.nan
Number.isInteger = lambda x: is_num(x) and (isinstance(x, int) or (math.isfinite(x) and x.is_integer()))
Number.isNaN = lambda x: is_num(x) and x != x
Number.isFinite = lambda x: is_num(x) and math.isfinite(x)
Number.isSafeInteger = lambda x: Number.isInteger(x) and abs(x) <= 2 ** 53 - 1


def Boolean(x=None):
    return truthy(x)


def isNaN(x):
    x = Number(x)
    return x != x


def isFinite(x):
    x = Number(x)
    return math.isfinite(x)


def parseFloat(s):
    m = re.match(r"\s*([+-]?(\d+\.?\d*([eE][+-]?\d+)?|\.\d+([eE][+-]?\d+)?|Infinity))", String(s))
    return num(float(m.group(1))) if m else NaN


def parseInt(s, radix=10):
    m = re.match(r"\s*([+-]?[0-9a-zA-Z]+)", String(s))
    try:
        return int(m.group(1), radix) if m else NaN
    except ValueError:
        return NaN


# ---------------------------------------------------------------- operators
def plus(a, b):
    if isinstance(a, str) or isinstance(b, str) or isinstance(a, (list, tuple)) or isinstance(b, (list, tuple)):
        return String(a) + String(b)
    if a is None or b is None:
        return NaN
    return num(a + b)


def neg(a):
    if isinstance(a, bool):
        return -int(a)
    if a is None:
        return NaN
    return -a


def div(a, b):
    a, b = Number(a), Number(b)
    if b == 0:
        if a == 0 or a != a:
            return NaN
        return math.copysign(math.inf, a) * (math.copysign(1, b))
    return num(a / b)


def mod(a, b):
    a, b = Number(a), Number(b)
    if b == 0 or math.isinf(a) or a != a or b != b:
        return NaN
    if math.isinf(b):
        return a
    return num(math.fmod(a, b))


def pow(a, b):
    try:
        return num(Number(a) ** Number(b))
    except ZeroDivisionError:
        return math.inf
    except OverflowError:
        return math.inf


def int32(x):
    x = Number(x)
    if x != x or math.isinf(x):
        return 0
    x = int(x) & 0xFFFFFFFF
    return x - 0x100000000 if x & 0x80000000 else x


def shl(a, b):
    return int32(int32(a) << (int32(b) & 31))


def shr(a, b):
    return int32(a) >> (int32(b) & 31)


def ushr(a, b):
    return (int32(a) & 0xFFFFFFFF) >> (int32(b) & 31)


def bitor(a, b):
    return int32(int32(a) | int32(b))


def bitand(a, b):
    return int32(int32(a) & int32(b))


def bitxor(a, b):
    return int32(int32(a) ^ int32(b))


def _prim(x):
    return x is None or isinstance(x, (bool, int, float, str))


def strict_eq(a, b):
    if _prim(a) and _prim(b):
        if isinstance(a, bool) != isinstance(b, bool):
            return False
        if isinstance(a, str) != isinstance(b, str):
            return False
        return a == b
    return a is b


def strict_ne(a, b):
    return not strict_eq(a, b)


def loose_eq(a, b):
    if _prim(a) and _prim(b):
        if isinstance(a, str) and is_num(b) or is_num(a) and isinstance(b, str):
            return Number(a) == Number(b)
        return a == b
    return a is b


def loose_ne(a, b):
    return not loose_eq(a, b)


def instanceof(a, cls):
    if cls is Array:
        return isinstance(a, list)
    if isinstance(cls, type):
        return isinstance(a, cls)
    if cls in (new_Error, Error):
        return isinstance(a, BaseException)
    t = _TYPED_CTORS.get(cls)
    if t:
        return isinstance(a, array.array) and _TYPED.get(a.typecode) == t
    return False


def has_key(o, k):
    if isinstance(o, dict):
        return k in o or (isinstance(k, str) and _snake(k) in o)
    if isinstance(o, (list, tuple, array.array)):
        return is_num(k) and 0 <= k < len(o)
    return hasattr(o, _snake(str(k)))


# ---------------------------------------------------------------- property access
def at(o, i):
    """o[i] with JavaScript's answer (undefined) out of range."""
    if isinstance(o, dict):
        if i in o:
            return o[i]
        return o.get(String(i)) if not isinstance(i, str) else None
    if isinstance(o, (list, tuple, array.array, str)):
        if isinstance(i, str):
            return None
        i = num(i)
        if isinstance(i, int) and 0 <= i < len(o):
            return o[i]
        return None
    if isinstance(o, Tensor):
        if isinstance(i, str):     # tensor[name]: a method or property by its TF.js name
            return getattr(o, _snake(i), None)
        raise TypeError("indexing a Tensor with [] (TF.js tensors have no index access)")
    try:
        return o[i]
    except (IndexError, KeyError):
        return None


def setitem(o, i, v):
    if isinstance(o, list):
        i = num(i)
        if i >= len(o):
            o.extend([None] * (i + 1 - len(o)))
    elif isinstance(o, array.array):
        i = num(i)
        if not (0 <= i < len(o)):
            return
        if o.typecode in "bBhHiIlL":
            v = int32(v) if o.typecode in "il" else int(Number(v)) & ((1 << (8 * o.itemsize)) - 1)
    o[i] = v


def prop(o, key):
    """`o.key`: dict key or attribute, TF.js's name or snake_case; undefined (None) if absent."""
    if type(o) is Tensor:
        return getattr(o, _snake(key))
    if isinstance(o, dict):
        if key in o:
            return o[key]
        return o.get(_snake(key))
    if isinstance(o, (list, tuple)) and key == "length":
        return len(o)
    if isinstance(o, array.array) and key in ("buffer", "byteLength"):   # (a typed array's storage)
        return o.tobytes() if key == "buffer" else o.itemsize * len(o)
    if isinstance(o, BaseException) and key == "message":
        ERROR_MESSAGES.add(str(o))
        return str(o)
    for k in (_snake(key), key):
        if hasattr(o, k):
            return getattr(o, k)
    return None


def length(o):
    if isinstance(o, Tensor):
        raise TypeError("Tensor has no length")
    if o is None:
        raise TypeError("Cannot read properties of undefined (reading 'length')")
    if isinstance(o, JSSet) or isinstance(o, JSMap):
        raise TypeError("Set/Map has no length")
    if callable(o) and not hasattr(o, "__len__"):
        try:
            return len(inspect.signature(o).parameters)
        except (TypeError, ValueError):
            return 0
    return len(o)


def iterate(x):
    if x is None:
        raise TypeError("undefined is not iterable")
    if isinstance(x, dict) and not isinstance(x, (JSSet, JSMap)):
        raise TypeError("object is not iterable")
    if isinstance(x, JSMap):
        return [list(kv) for kv in x.items()]
    return x


def keys(o):
    if isinstance(o, dict):
        return list(o.keys())
    return [str(i) for i in range(len(o))]


def floor(x):
    x = Number(x)
    return x if math.isinf(x) or x != x else math.floor(x)


def ceil(x):
    x = Number(x)
    return x if math.isinf(x) or x != x else math.ceil(x)


def read(t, what):
    """`await t.data()` and friends, synchronously (the cases run where reads can wait)."""
    if isinstance(t, Tensor):
        if what == "data":
            return t.data_sync()
        if what == "array":
            return t.array_sync()
        if what == "buffer":
            return t.buffer_sync()
        if what == "bytes":   # (async only, as TF.js's: with the values read, it finishes at once)
            t.data_sync()
            coro = t.bytes()
            try:
                coro.send(None)
            except StopIteration as done:
                return done.value
            coro.close()
            raise TypeError("bytes() had to wait in a synchronous case")
    v = getattr(t, _snake(what))()
    if inspect.isawaitable(v):
        raise TypeError(f"awaiting {what}() of {type(t).__name__} in a synchronous case")
    return v


def read_async(t, what):
    """`t.data()` not awaited at once: a promise of the values read now (a JS read starts at the
    call: the tensor may be disposed before the promise is awaited)."""
    if isinstance(t, Tensor):
        return _resolved(read(t, what))
    return getattr(t, _snake(what))()


async def _resolved(value):
    return value


async def awaitable(x):
    if inspect.isawaitable(x):
        return await x
    return x


# ---------------------------------------------------------------- methods of arrays and strings
def _fn_call(f, *args):
    """Calls a callback with as many of JavaScript's (value, index, array) as it takes."""
    code = getattr(f, "__code__", None)
    if code is not None and code.co_flags & inspect.CO_VARARGS:
        return f(*args)    # the translated functions take extra arguments, as JavaScript's do
    try:
        sig = inspect.signature(f)
        params = list(sig.parameters.values())
        if any(p.kind == p.VAR_POSITIONAL for p in params):
            return f(*args)
        n = len([p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)])
    except (TypeError, ValueError):
        return f(*args)
    return f(*args[:n])


def _slice_idx(i, n, default):
    if i is None:
        return default
    i = int(Number(i))
    if i < 0:
        return max(0, n + i)
    return min(i, n)


def _same_kind(o, items):
    if isinstance(o, array.array):
        return array.array(o.typecode, [_coerce(o.typecode, v) for v in items])
    return list(items)


def _coerce(tc, v):
    if tc in "fd":
        return float(Number(v)) if v is not None else math.nan
    v = Number(v)
    if v != v or math.isinf(v):
        return 0
    if tc in "il":
        return int32(v)
    bits = 8 * array.array(tc).itemsize
    v = int(v)
    if tc in "bhq":
        v &= (1 << bits) - 1
        return v - (1 << bits) if v >> (bits - 1) else v
    return v & ((1 << bits) - 1)


def _array_method(o, name, args):
    n = len(o)
    if name == "map":
        out = [_fn_call(args[0], v, i, o) for i, v in enumerate(o)]
        return _same_kind(o, out)
    if name == "forEach":
        for i, v in enumerate(list(o)):
            _fn_call(args[0], v, i, o)
        return None
    if name == "filter":
        return _same_kind(o, [v for i, v in enumerate(o) if truthy(_fn_call(args[0], v, i, o))])
    if name == "every":
        return all(truthy(_fn_call(args[0], v, i, o)) for i, v in enumerate(o))
    if name == "some":
        return any(truthy(_fn_call(args[0], v, i, o)) for i, v in enumerate(o))
    if name == "find":
        for i, v in enumerate(o):
            if truthy(_fn_call(args[0], v, i, o)):
                return v
        return None
    if name == "findIndex":
        for i, v in enumerate(o):
            if truthy(_fn_call(args[0], v, i, o)):
                return i
        return -1
    if name in ("reduce", "reduceRight"):
        items = list(enumerate(o))
        if name == "reduceRight":
            items.reverse()
        if len(args) > 1:
            acc = args[1]
        else:
            if not items:
                raise TypeError("Reduce of empty array with no initial value")
            acc = items.pop(0)[1]
        for i, v in items:
            acc = _fn_call(args[0], acc, v, i, o)
        return acc
    if name == "push":
        o.extend(args)
        return len(o)
    if name == "pop":
        return o.pop() if o else None
    if name == "shift":
        return o.pop(0) if o else None
    if name == "unshift":
        o[0:0] = list(args)
        return len(o)
    if name in ("slice", "subarray"):
        a = _slice_idx(args[0] if args else None, n, 0)
        b = _slice_idx(args[1] if len(args) > 1 else None, n, n)
        return o[a:b] if isinstance(o, (list, array.array)) else list(o[a:b])
    if name == "splice":
        a = _slice_idx(args[0], n, 0)
        k = n - a if len(args) < 2 else max(0, min(int(args[1]), n - a))
        removed = o[a:a + k]
        o[a:a + k] = list(args[2:])
        return removed
    if name == "concat":
        out = list(o)
        for a in args:
            if isinstance(a, (list, tuple)):
                out.extend(a)
            else:
                out.append(a)
        return out
    if name == "fill":
        v = args[0] if args else None
        a = _slice_idx(args[1] if len(args) > 1 else None, n, 0)
        b = _slice_idx(args[2] if len(args) > 2 else None, n, n)
        for i in range(a, b):
            o[i] = _coerce(o.typecode, v) if isinstance(o, array.array) else v
        return o
    if name == "join":
        sep = "," if not args or args[0] is None else args[0]
        return sep.join("" if v is None else String(v) for v in o)
    if name in ("indexOf", "lastIndexOf"):
        rng = range(n) if name == "indexOf" else range(n - 1, -1, -1)
        for i in rng:
            if strict_eq(o[i], args[0]) or (is_num(o[i]) and is_num(args[0]) and o[i] == args[0]):
                return i
        return -1
    if name == "includes":
        return any(v == args[0] or (v != v and args[0] != args[0]) for v in o)
    if name == "sort":
        if args and args[0] is not None:
            import functools
            items = sorted(o, key=functools.cmp_to_key(lambda x, y: (lambda r: -1 if r < 0 else (1 if r > 0 else 0))(
                Number(args[0](x, y)))))
        elif isinstance(o, array.array):
            items = sorted(o)
        else:
            items = sorted(o, key=String)
        o[:] = _same_kind(o, items)
        return o
    if name == "reverse":
        o.reverse()
        return o
    if name == "toString":
        return String(o)
    if name == "keys":
        return list(range(n))
    if name == "values":
        return list(o)
    if name == "entries":
        return [[i, v] for i, v in enumerate(o)]
    if name == "flat":
        depth = args[0] if args else 1

        def flat(xs, d):
            out = []
            for v in xs:
                if isinstance(v, list) and d > 0:
                    out.extend(flat(v, d - 1))
                else:
                    out.append(v)
            return out
        return flat(o, depth)
    if name == "flatMap":
        out = []
        for i, v in enumerate(o):
            r = _fn_call(args[0], v, i, o)
            out.extend(r if isinstance(r, list) else [r])
        return out
    if name == "set":
        src, off = args[0], (args[1] if len(args) > 1 else 0)
        for i, v in enumerate(src):
            o[off + i] = _coerce(o.typecode, v) if isinstance(o, array.array) else v
        return None
    raise TypeError(f"arrays have no method {name} here")


def _string_method(s, name, args):
    if name == "split":
        sep = args[0] if args else None
        if sep is None:
            return [s]
        if isinstance(sep, RegExp):
            return sep.rx.split(s)
        return list(s) if sep == "" else s.split(sep)
    if name == "slice" or name == "substring":
        n = len(s)
        a = _slice_idx(args[0] if args else None, n, 0)
        b = _slice_idx(args[1] if len(args) > 1 else None, n, n)
        return s[a:b]
    if name == "substr":
        a = _slice_idx(args[0], len(s), 0)
        return s[a:a + args[1]] if len(args) > 1 else s[a:]
    if name == "indexOf":
        return s.find(args[0])
    if name == "lastIndexOf":
        return s.rfind(args[0])
    if name == "includes":
        return args[0] in s
    if name == "startsWith":
        return s.startswith(args[0])
    if name == "endsWith":
        return s.endswith(args[0])
    if name == "trim":
        return s.strip()
    if name == "toLowerCase":
        return s.lower()
    if name == "toUpperCase":
        return s.upper()
    if name == "repeat":
        return s * int(args[0])
    if name == "padStart":
        return s.rjust(int(args[0]), args[1] if len(args) > 1 else " ")
    if name in ("charCodeAt", "codePointAt"):
        i = args[0] if args else 0
        return ord(s[i]) if 0 <= i < len(s) else NaN
    if name == "charAt":
        i = args[0] if args else 0
        return s[i] if 0 <= i < len(s) else ""
    if name == "concat":
        return s + "".join(String(a) for a in args)
    if name == "replace":
        pat, rep = args
        if isinstance(pat, RegExp):
            return pat.rx.sub(rep if isinstance(rep, str) else (lambda m: String(rep(m.group(0)))), s,
                              count=0 if "g" in pat.flags else 1)
        return s.replace(pat, rep, 1)
    if name == "toString":
        return s
    raise TypeError(f"strings have no method {name} here")


# TF.js flags the specs set that only tune how TF.js's own backends run (same results): setting
# them here does nothing, with the reason
TFJS_TUNING_FLAGS = {
    "TOPK_LAST_DIM_CPU_HANDOFF_SIZE_THRESHOLD": "TF.js webgl's size below which topk runs on its cpu backend",
    "TOPK_K_CPU_HANDOFF_THRESHOLD": "TF.js webgl's k above which topk runs on its cpu backend",
}


async def _then(promise, name, on_value=None, on_error=None):
    """promise.then(f[, g]) / promise.catch(g) of an awaitable: awaited where the spec awaits it
    (or where the runner awaits what a case left pending)."""
    if name == "catch":
        on_value, on_error = None, on_value
    try:
        value = await promise
    except Exception as exc:  # noqa: BLE001 - a rejection goes to the spec's handler
        if on_error is None:
            raise
        return await awaitable(_fn_call(on_error, exc))
    return await awaitable(_fn_call(on_value, value)) if on_value is not None else value


def call(o, name, *args, **kwargs):
    """`o.name(...)` for a method JavaScript arrays or strings have: the array/string semantics
    on those, the tensor's (snake_case) method on a Tensor, the object's own otherwise."""
    if isinstance(o, Tensor):
        return getattr(o, _snake(name))(*args, **kwargs)
    if inspect.isawaitable(o) and name in ("then", "catch"):
        # runs as JavaScript's would, whether or not the spec awaits it: the runner awaits
        # what a case left running before the case counts as passed
        task = asyncio.ensure_future(_then(o, name, *args))
        RUNNING.append(task)
        return task
    if o is tf.env() and name == "set" and args and args[0] in TFJS_TUNING_FLAGS and args[0] not in o.flags:
        return None
    if isinstance(o, (list, tuple, array.array)) and not kwargs:
        if isinstance(o, tuple):
            if name in ("push", "pop", "shift", "unshift", "splice", "fill", "sort", "reverse", "set"):
                o = list(o)
        return _array_method(o, name, list(args))
    if isinstance(o, str):
        return _string_method(o, name, list(args))
    if is_num(o) and name == "toFixed":
        return f"{o:.{args[0] if args else 0}f}"
    if is_num(o) and name == "toString":
        return String(o)
    if callable(o) and name in ("call", "apply"):
        if name == "call":
            return o(*args[1:])
        return o(*(args[1] or []))
    if callable(o) and name == "bind":
        return lambda *a: o(*args[1:], *a)
    if hasattr(o, name):
        return getattr(o, name)(*args, **kwargs)
    if o is None:
        raise TypeError(f"Cannot read properties of undefined (reading '{name}')")
    return getattr(o, _snake(name))(*args, **kwargs)


# ---------------------------------------------------------------- globals
class Math:
    PI = math.pi
    E = math.e
    LN2 = math.log(2)
    LN10 = math.log(10)
    LOG2E = 1 / math.log(2)
    LOG10E = 1 / math.log(10)
    SQRT2 = math.sqrt(2)
    SQRT1_2 = math.sqrt(0.5)

    @staticmethod
    def _f(fn, x):
        x = Number(x)
        try:
            return num(fn(x))
        except (ValueError, OverflowError):
            return NaN

    floor = staticmethod(floor)
    ceil = staticmethod(ceil)

    @staticmethod
    def round(x):
        x = Number(x)
        return x if math.isinf(x) or x != x else math.floor(x + 0.5)

    @staticmethod
    def trunc(x):
        x = Number(x)
        return x if math.isinf(x) or x != x else math.trunc(x)

    @staticmethod
    def abs(x):
        return num(abs(Number(x)))

    @staticmethod
    def sign(x):
        x = Number(x)
        return x if x != x or x == 0 else (1 if x > 0 else -1)

    @staticmethod
    def sqrt(x):
        x = Number(x)
        return NaN if x < 0 or x != x else (math.inf if math.isinf(x) else num(math.sqrt(x)))

    @staticmethod
    def cbrt(x):
        x = Number(x)
        return num(math.copysign(abs(x) ** (1 / 3), x))

    @staticmethod
    def exp(x):
        x = Number(x)
        try:
            return num(math.exp(x))
        except OverflowError:
            return math.inf

    @staticmethod
    def expm1(x):
        try:
            return num(math.expm1(Number(x)))
        except OverflowError:
            return math.inf

    @staticmethod
    def log(x):
        x = Number(x)
        if x == 0:
            return -math.inf
        return NaN if x < 0 or x != x else num(math.log(x))

    @staticmethod
    def log2(x):
        x = Number(x)
        if x == 0:
            return -math.inf
        return NaN if x < 0 or x != x else num(math.log2(x))

    @staticmethod
    def log10(x):
        x = Number(x)
        if x == 0:
            return -math.inf
        return NaN if x < 0 or x != x else num(math.log10(x))

    @staticmethod
    def log1p(x):
        x = Number(x)
        if x == -1:
            return -math.inf
        return NaN if x < -1 or x != x else num(math.log1p(x))

    @staticmethod
    def pow(a, b):
        return pow(a, b)

    @staticmethod
    def max(*xs):
        xs = [Number(x) for x in xs]
        if any(x != x for x in xs):
            return NaN
        return max(xs) if xs else -math.inf

    @staticmethod
    def min(*xs):
        xs = [Number(x) for x in xs]
        if any(x != x for x in xs):
            return NaN
        return min(xs) if xs else math.inf

    @staticmethod
    def hypot(*xs):
        return num(math.hypot(*[Number(x) for x in xs]))

    @staticmethod
    def atan2(y, x):
        return num(math.atan2(Number(y), Number(x)))

    @staticmethod
    def random():
        return random.random()

    @staticmethod
    def fround(x):
        import struct
        x = Number(x)
        try:
            return struct.unpack("<f", struct.pack("<f", x))[0]
        except OverflowError:
            return math.copysign(math.inf, x)

    @staticmethod
    def imul(a, b):
        return int32(int32(a) * int32(b))

    @staticmethod
    def clz32(x):
        x = int32(x) & 0xFFFFFFFF
        return 32 - x.bit_length()


for _name in ("sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh"):
    setattr(Math, _name, staticmethod(lambda x, _fn=getattr(math, _name): Math._f(_fn, x)))


def _typed(tc, name):
    def make(arg=None, *rest):
        if arg is None:
            return array.array(tc)
        if is_num(arg):
            return array.array(tc, [0] * int(arg))
        if isinstance(arg, (bytes, bytearray, memoryview)):
            a = array.array(tc)
            a.frombytes(bytes(arg))
            return a
        return array.array(tc, [_coerce(tc, v) for v in arg])
    make.__name__ = name
    make.from_ = lambda it, fn=None: make([fn(v, i) if fn else v for i, v in enumerate(it)])
    make.of = lambda *xs: make(list(xs))
    make.BYTES_PER_ELEMENT = array.array(tc).itemsize
    return make


Float32Array = new_Float32Array = _typed("f", "Float32Array")
Float64Array = new_Float64Array = _typed("d", "Float64Array")
Int32Array = new_Int32Array = _typed("i", "Int32Array")
Uint8Array = new_Uint8Array = _typed("B", "Uint8Array")
Uint8ClampedArray = new_Uint8ClampedArray = _typed("B", "Uint8ClampedArray")
Int8Array = new_Int8Array = _typed("b", "Int8Array")
Int16Array = new_Int16Array = _typed("h", "Int16Array")
Uint16Array = new_Uint16Array = _typed("H", "Uint16Array")
Uint32Array = new_Uint32Array = _typed("I", "Uint32Array")
_TYPED_CTORS = {Float32Array: "Float32Array", Float64Array: "Float64Array", Int32Array: "Int32Array",
                Uint8Array: "Uint8Array", Int8Array: "Int8Array", Int16Array: "Int16Array",
                Uint16Array: "Uint16Array", Uint32Array: "Uint32Array"}


def new_ArrayBuffer(n):
    return bytearray(int(n))


ArrayBuffer = new_ArrayBuffer


class _ArrayCtor:
    def __call__(self, *args):
        if len(args) == 1 and is_num(args[0]):
            return [None] * int(args[0])
        return list(args)

    @staticmethod
    def isArray(x):
        return isinstance(x, list)

    @staticmethod
    def from_(it, fn=None):
        if isinstance(it, dict):
            items = [None] * int(it.get("length", 0))
        else:
            items = list(iterate(it))
        return [_fn_call(fn, v, i) for i, v in enumerate(items)] if fn else items

    @staticmethod
    def of(*xs):
        return list(xs)


Array = new_Array = _ArrayCtor()


class Object:
    @staticmethod
    def keys(o):
        return keys(o)

    @staticmethod
    def values(o):
        return list(o.values()) if isinstance(o, dict) else list(o)

    @staticmethod
    def entries(o):
        return [[k, v] for k, v in o.items()]

    @staticmethod
    def assign(target, *srcs):
        for s in srcs:
            if s:
                target.update(s)
        return target

    @staticmethod
    def freeze(o):
        return o


class JSON:
    @staticmethod
    def stringify(o, *args):
        return _json.dumps(o, separators=(",", ":"), default=lambda v: list(v) if isinstance(v, (array.array, tuple)) else str(v))

    @staticmethod
    def parse(s):
        return _json.loads(s, object_hook=obj)


class JSSet(dict):
    def __init__(self, it=()):
        super().__init__((v, v) for v in (it or ()))

    def add(self, v):
        self[v] = v
        return self

    def has(self, v):
        return v in self

    def delete(self, v):
        return self.pop(v, None) is not None

    @property
    def size(self):
        return len(self)

    def __iter__(self):
        return iter(list(self.keys()))


class JSMap(dict):
    def __init__(self, it=()):
        super().__init__((k, v) for k, v in (it or ()))

    def set(self, k, v):
        self[k] = v
        return self

    def has(self, k):
        return k in self

    def delete(self, k):
        return self.pop(k, None) is not None

    @property
    def size(self):
        return len(self)


new_Set = Set = JSSet
new_Map = Map = JSMap


class _Console:
    def log(self, *a):
        pass

    warn = error = info = debug = log


console = _Console()


class RegExp:
    def __init__(self, pattern, flags=""):
        self.flags = flags
        self.rx = re.compile(pattern, re.I if "i" in flags else 0)

    def __repr__(self):
        return f"/{self.rx.pattern}/{self.flags}"

    def test(self, s):
        return self.rx.search(String(s)) is not None


new_RegExp = RegExp


PROMISE_TIMEOUT = 30.0   # seconds a `new Promise` may wait for its callback (an image's onload) before failing


def new_Promise(executor):
    """`new Promise((resolve, reject) => ...)`: an awaitable settled by the callbacks (in the
    page, a JS event such as an image's onload calls them), failing after PROMISE_TIMEOUT."""
    fut = asyncio.get_event_loop().create_future()

    def resolve(value=None, *_):
        if not fut.done():
            fut.set_result(value)

    def reject(reason=None, *_):
        if not fut.done():
            fut.set_exception(thrown(reason))
    executor(resolve, reject)
    return asyncio.wait_for(fut, PROMISE_TIMEOUT)


class Promise:
    @staticmethod
    async def all(items):
        return [await awaitable(x) for x in items]

    @staticmethod
    async def resolve(x=None):
        return await awaitable(x)


class _Document:
    """The page's `document` (a JS object: used by its own names); none in CPython."""

    def __getattr__(self, name):
        import js    # Pyodide's bridge to the page's JavaScript
        return getattr(js.document, name)


document = _Document()


def new_ImageData(*args):
    import js
    return js.ImageData.new(*args)


def new_Image(*args):
    import js
    return js.Image.new(*args)


async def createImageBitmap(*args):
    import js
    return await js.createImageBitmap(*args)


def fail(msg=""):
    raise AssertionError(f"fail(): {msg}")


class _Jasmine:
    DEFAULT_TIMEOUT_INTERVAL = 20000

    @staticmethod
    def any(cls):
        return _Any(cls)

    @staticmethod
    def anything():
        return _Any(None)


class _Any:
    def __init__(self, cls):
        self.cls = cls

    def matches(self, v):
        if self.cls is None:
            return v is not None
        if self.cls is Number:
            return is_num(v)
        if self.cls is String:
            return isinstance(v, str)
        if self.cls is Array:
            return isinstance(v, list)
        if self.cls is Boolean:
            return isinstance(v, bool)
        return isinstance(v, self.cls) if isinstance(self.cls, type) else True


jasmine = _Jasmine()


# ---------------------------------------------------------------- jasmine expect
def _norm(x):
    """Values compared by jasmine's toEqual: sequences as lists, shapes (tuples) too."""
    if isinstance(x, (tuple, list, array.array, bytes, bytearray)):
        return [_norm(v) for v in x]
    if isinstance(x, dict) and not isinstance(x, (JSSet, JSMap)):
        return {(_snake(k) if isinstance(k, str) else k): _norm(v) for k, v in x.items() if v is not None}
    return x


def _deep_eq(a, b):
    if isinstance(b, _Any):
        return b.matches(a)
    if isinstance(a, float) and isinstance(b, float) and a != a and b != b:
        return True
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_deep_eq(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_deep_eq(a[k], b[k]) for k in a)
    if isinstance(a, bool) != isinstance(b, bool):
        return False
    if isinstance(a, Tensor) or isinstance(b, Tensor):
        return a is b
    return a == b


def _short(v, n=300):
    s = repr(v)
    return s if len(s) <= n else s[:n] + "..."


class expect:
    """jasmine's expect(actual).<matcher>(...) (and .not_.<matcher>)."""

    def __init__(self, actual=None, negate=False):
        self.actual = actual
        self.negate = negate

    @property
    def not_(self):
        return expect(self.actual, not self.negate)

    def _check(self, ok, what):
        if bool(ok) == self.negate:
            raise AssertionError(("Expected not: " if self.negate else "Expected: ") + what)

    def toEqual(self, expected, *_msg):
        a, e = _norm(self.actual), _norm(expected)
        self._check(_deep_eq(a, e), f"{_short(self.actual)} to equal {_short(expected)}"
                    + "".join(f" ({String(m)})" for m in _msg))

    def toBe(self, expected, *_msg):
        a = self.actual
        if _prim(a) and _prim(expected) or isinstance(a, (tuple, list)) and isinstance(expected, (tuple, list)) and False:
            ok = (a == expected and isinstance(a, bool) == isinstance(expected, bool)) or (
                is_num(a) and is_num(expected) and a != a and expected != expected)
        else:
            ok = a is expected
        self._check(ok, f"{_short(a)} to be {_short(expected)}" + "".join(f" ({String(m)})" for m in _msg))

    def toBeCloseTo(self, expected, precision=2, *_msg):
        a = Number(self.actual)
        if precision is None:
            precision = 2
        ok = (a == expected) or abs(expected - a) < 10 ** -precision / 2
        self._check(ok, f"{a} to be close to {expected} (precision {precision})")

    def toBeTruthy(self, *_msg):
        self._check(truthy(self.actual), f"{_short(self.actual)} to be truthy")

    def toBeFalsy(self, *_msg):
        self._check(not truthy(self.actual), f"{_short(self.actual)} to be falsy")

    def toBeTrue(self, *_msg):
        self._check(self.actual is True, f"{_short(self.actual)} to be true")

    def toBeFalse(self, *_msg):
        self._check(self.actual is False, f"{_short(self.actual)} to be false")

    def toBeNull(self, *_msg):
        self._check(self.actual is None, f"{_short(self.actual)} to be null")

    def toBeUndefined(self, *_msg):
        self._check(self.actual is None, f"{_short(self.actual)} to be undefined")

    def toBeDefined(self, *_msg):
        self._check(self.actual is not None, f"{_short(self.actual)} to be defined")

    def toBeNaN(self, *_msg):
        self._check(is_num(self.actual) and self.actual != self.actual, f"{_short(self.actual)} to be NaN")

    def toBePositiveInfinity(self, *_msg):
        self._check(self.actual == math.inf, f"{_short(self.actual)} to be Infinity")

    def toBeNegativeInfinity(self, *_msg):
        self._check(self.actual == -math.inf, f"{_short(self.actual)} to be -Infinity")

    def toBeGreaterThan(self, e, *_msg):
        self._check(self.actual > e, f"{self.actual} > {e}")

    def toBeGreaterThanOrEqual(self, e, *_msg):
        self._check(self.actual >= e, f"{self.actual} >= {e}")

    def toBeLessThan(self, e, *_msg):
        self._check(self.actual < e, f"{self.actual} < {e}")

    def toBeLessThanOrEqual(self, e, *_msg):
        self._check(self.actual <= e, f"{self.actual} <= {e}")

    def toContain(self, e, *_msg):
        a = self.actual
        ok = (e in a) if isinstance(a, str) else any(_deep_eq(_norm(v), _norm(e)) for v in a)
        self._check(ok, f"{_short(a)} to contain {_short(e)}")

    def toMatch(self, e, *_msg):
        ok = e.test(self.actual) if isinstance(e, RegExp) else (re.search(e, self.actual) is not None)
        self._check(ok, f"{_short(self.actual)} to match {e}")

    def toBeInstanceOf(self, cls, *_msg):
        self._check(instanceof(self.actual, cls), f"{_short(self.actual)} to be an instance of {cls}")

    def toHaveSize(self, n, *_msg):
        self._check(len(self.actual) == n, f"size {n}")

    def toThrowError(self, *expected):
        self._throws(expected)

    def toThrow(self, *expected):
        self._throws(expected)

    def _throws(self, expected):
        """Raises (any exception) is what counts; the message TF.js names is information only
        (recorded in THROWN_MESSAGES with pytfweb's)."""
        fn = self.actual
        try:
            r = fn()
            if inspect.isawaitable(r):
                r.close()
                raise AssertionError("toThrow of an async function (use expectAsync)")
        except AssertionError:
            raise
        except Exception as exc:  # noqa: BLE001 - any error of pytfweb's is the expected throw
            if not self.negate and not_a_check(exc):
                raise AssertionError(f"Expected the function to throw an error of pytfweb's for the bad input, "
                                     f"it raised {type(exc).__name__}: {exc}") from exc
            if self.negate:
                raise AssertionError(f"Expected the function not to throw, it raised {type(exc).__name__}: {exc}")
            THROWN_MESSAGES.append((expected and String(expected[-1]) if expected else None, f"{type(exc).__name__}: {exc}"))
            return
        if not self.negate:
            raise AssertionError("Expected the function to throw" + (f" {_short(expected[-1])}" if expected else ""))

    def nothing(self):
        pass


THROWN_MESSAGES = []
SLOW_SECONDS = 0.5      # cases slower than this are listed in the results ("slow")
ERROR_MESSAGES = set()    # messages of errors the case's code caught and read


class expect_message(expect):
    """expect(error.message).<matcher>(TF.js's wording): recorded, not checked (pytfweb's
    messages name op, argument and expectation in its own words), as toThrowError's message."""

    def _check(self, ok, what):
        if self.actual not in ERROR_MESSAGES:
            raise AssertionError(f"Expected an error's message, got {_short(self.actual)} ({what})")
        THROWN_MESSAGES.append((what, self.actual))


def test_env():
    """The TestEnv describeWithFlags hands its suite: the backend the cases run on."""
    name = tf.get_backend()
    return obj(name=name, backend_name=name, is_data_sync=True, flags=obj())


def num_data_ids():
    """TF.js's backend.numDataIds(): the data buffers pytfweb's engine holds."""
    return tf.memory().num_data_buffers


_CALL_ERRORS = re.compile(r"positional argument|unexpected keyword argument|required (positional|keyword)"
                          r"|object is not callable|not subscriptable|object is not iterable|unhashable type"
                          r"|unsupported operand type")


def not_a_check(exc):
    """Whether an exception says the code could not run (a missing name or method, a call that
    does not fit the function: the translation's or pytfweb's API's gap), not that pytfweb
    rejected bad input: it does not count as the throw a spec expects."""
    if isinstance(exc, AttributeError) and \
            not re.search(r"has no (attribute|setter)|can't set attribute|attribute .* is read-only", str(exc)):
        return False   # raised on purpose (layer.output of a layer never applied), not a missing name
    if isinstance(exc, (NameError, AttributeError, NotImplementedError, RecursionError)):
        return True
    return isinstance(exc, TypeError) and bool(_CALL_ERRORS.search(str(exc)))


class expectAsync:
    """jasmine's expectAsync(promise).toBeRejected...() (awaited by the spec)."""

    def __init__(self, actual=None, negate=False):
        self.actual = actual
        self.negate = negate

    @property
    def not_(self):
        return expectAsync(self.actual, not self.negate)

    async def _settle(self):
        try:
            await awaitable(self.actual() if callable(self.actual) else self.actual)
        except Exception as exc:  # noqa: BLE001 - a rejection is what is checked
            if not self.negate and not_a_check(exc):
                raise AssertionError(f"Expected a rejection by pytfweb, got {type(exc).__name__}: {exc}") from exc
            THROWN_MESSAGES.append((None, f"{type(exc).__name__}: {exc}"))
            return exc
        return None

    async def toBeRejected(self, *expected):
        exc = await self._settle()
        if (exc is None) != self.negate:
            raise AssertionError("Expected the promise " + ("not " if self.negate else "") + "to be rejected")

    toBeRejectedWithError = toBeRejected

    async def toBeResolved(self, *expected):
        exc = await self._settle()
        if (exc is not None) != self.negate:
            raise AssertionError(f"Expected the promise to be resolved, it raised {exc!r}")


class _Done:
    """jasmine's done callback: done() and done.fail(msg)."""

    def __call__(self, *a):
        pass

    def fail(self, msg=""):
        raise AssertionError(f"done.fail(): {msg}")


done = _Done()
PENDING = []    # promises expectPromiseToFail wants to fail
RUNNING = []    # promise chains (.then) a case started


# ---------------------------------------------------------------- tfjs-core's test_util
def testEpsilon():
    return TEST_EPSILON_FLOAT32 if ENGINE._active().float_precision() == 32 else TEST_EPSILON_FLOAT16


def _type_name(x):
    if isinstance(x, array.array):
        return _TYPED.get(x.typecode, "TypedArray")
    if isinstance(x, (list, tuple)):
        return "Array"
    if isinstance(x, bool):
        return "Boolean"
    if is_num(x):
        return "Number"
    if isinstance(x, str):
        return "String"
    return type(x).__name__


def _is_typed(x):
    return isinstance(x, array.array)


def _as_values(x):
    if isinstance(x, Tensor):
        return x.data_sync()
    if type(x).__name__.startswith("Js"):    # a JS typed array in the page (a canvas's pixels)
        kind = getattr(getattr(x, "constructor", None), "name", "")
        return array.array("B", list(x)) if str(kind).startswith("Uint8") else list(x)
    return x


def _infer_shape(x):
    shape = []
    while isinstance(x, (list, tuple)):
        shape.append(len(x))
        if not x:
            break
        x = x[0]
    if _is_typed(x):
        shape.append(len(x))
    return shape


def _flatten(x, out=None):
    out = [] if out is None else out
    if isinstance(x, (list, tuple, array.array)):
        for v in x:
            _flatten(v, out)
    else:
        out.append(x)
    return out


def _are_close(a, e, eps):
    a, e = _numeric(a), _numeric(e)
    if not _finite(a) and not _finite(e):
        return True
    if a != a or e != e or abs(a - e) > eps:
        return False
    return True


def _numeric(v):
    if isinstance(v, bool):
        return int(v)
    if v is None:
        return NaN
    if isinstance(v, str):
        return Number(v)
    return v


def _finite(v):
    return is_num(v) and math.isfinite(v)


def _predicate(actual, expected, pred):
    actual, expected = _as_values(actual), _as_values(expected)
    check_class = not (_is_typed(actual) or _is_typed(expected)) or (_is_typed(actual) and _is_typed(expected))
    if check_class:
        a, b = _type_name(actual), _type_name(expected)
        if a != b:
            raise AssertionError(f"Arrays are of different type. Actual: {a}. Expected: {b}")
    if isinstance(actual, (list, tuple)) and isinstance(expected, (list, tuple)):
        sa, se = _infer_shape(actual), _infer_shape(expected)
        if sa != se:
            raise AssertionError(f"Arrays have different shapes. Actual: {sa}. Expected: {se}")
    af = actual if _is_typed(actual) else _flatten(actual)
    ef = expected if _is_typed(expected) else _flatten(expected)
    if len(af) != len(ef):
        raise AssertionError(f"Arrays have different lengths actual: {len(af)} vs expected: {len(ef)}.\n"
                             f"Actual:   {_short(list(af))}.\nExpected: {_short(list(ef))}.")
    for i in range(len(ef)):
        if not pred(af[i], ef[i]):
            raise AssertionError(f"Arrays differ: actual[{i}] = {af[i]}, expected[{i}] = {ef[i]}.\n"
                                 f"Actual:   {_short(list(af))}.\nExpected: {_short(list(ef))}.")


def expectArraysClose(actual, expected, epsilon=None):
    if epsilon is None:
        epsilon = testEpsilon()
    _predicate(actual, expected, lambda a, b: _are_close(a, b, epsilon))


def _is_string(x):
    return isinstance(x, (str, bytes))


def expectArraysEqual(actual, expected):
    actual = _as_values(actual)
    exp = [expected] if isinstance(expected, (str, bool)) or is_num(expected) else expected
    first_a = actual[0] if isinstance(actual, (list, tuple)) and actual else None
    first_e = expected[0] if isinstance(expected, (list, tuple)) and expected else None
    if _is_string(actual) or _is_string(first_a) or _is_string(expected) or _is_string(first_e):
        return _predicate(actual, exp, lambda a, b: _str_eq(a, b))
    return _predicate(actual, expected, lambda a, b: _are_close(a, b, 0))


def _str_eq(a, b):
    if isinstance(a, bytes) and isinstance(b, str):
        return a == b.encode()
    if isinstance(b, bytes) and isinstance(a, str):
        return a.encode() == b
    if isinstance(a, (list, array.array)) and isinstance(b, (list, array.array, bytes)):
        return list(a) == list(b)
    return loose_eq(a, b) if _prim(a) and _prim(b) else a == b


def expectNumbersClose(a, e, epsilon=None):
    if epsilon is None:
        epsilon = testEpsilon()
    if not _are_close(a, e, epsilon):
        raise AssertionError(f"Numbers differ: actual === {a}, expected === {e}")


def expectValuesInRange(actual, low, high):
    for v in _as_values(actual):
        if v < low or v > high:
            raise AssertionError(f"Value out of range:{v} low: {low}, high: {high}")


def expectPromiseToFail(fn, done=None):
    """The function must fail: at once, or (returning an awaitable) when the runner awaits it
    after the case."""
    try:
        r = fn()
    except Exception as exc:  # noqa: BLE001 - the failure expected
        if not_a_check(exc):
            raise AssertionError(f"Expected the promise to fail in pytfweb, got {type(exc).__name__}: {exc}") from exc
        THROWN_MESSAGES.append((None, f"{type(exc).__name__}: {exc}"))
        return
    if inspect.isawaitable(r):
        PENDING.append(r)
    else:
        raise AssertionError("Expected the promise to fail")


async def _settle_pending():
    while PENDING:
        r = PENDING.pop(0)
        try:
            await r
        except Exception as exc:  # noqa: BLE001 - the failure expected
            if not_a_check(exc):
                raise AssertionError(f"Expected the promise to fail in pytfweb, got {type(exc).__name__}: {exc}") from exc
            THROWN_MESSAGES.append((None, f"{type(exc).__name__}: {exc}"))
            continue
        raise AssertionError("Expected the promise to fail")


def expectArrayBuffersEqual(actual, expected):
    if bytes(actual) != bytes(expected):
        raise AssertionError("ArrayBuffers differ")


def encodeStrings(a):
    for i, v in enumerate(a):
        if isinstance(v, list):
            encodeStrings(v)
        else:
            a[i] = v.encode() if isinstance(v, str) else v
    return a


# ---------------------------------------------------------------- TF.js internal modules with a pytfweb twin
class _ConvInfoView:
    """pytfweb's ConvInfo read with TF.js's Conv2DInfo/Conv3DInfo field names (in snake_case, as
    the generated code reads them: out_height, pad_info.top, effective_filter_width, ...)."""

    def __init__(self, info):
        self.info = info
        n = len(info.out_size)
        names = ("height", "width") if n == 2 else ("depth", "height", "width")
        self.batch_size = info.batch_size
        self.in_channels, self.out_channels = info.in_channels, info.out_channels
        self.in_shape, self.out_shape, self.filter_shape = list(info.in_shape), list(info.out_shape), list(info.filter_shape)
        self.data_format = info.data_format
        for i, name in enumerate(names):
            setattr(self, f"in_{name}", info.in_size[i])
            setattr(self, f"out_{name}", info.out_size[i])
            setattr(self, f"stride_{name}", info.strides[i])
            setattr(self, f"dilation_{name}", info.dilations[i])
            setattr(self, f"filter_{name}", info.filter_size[i])
            setattr(self, f"effective_filter_{name}", info.effective_filter_size[i])
        sides = (("top", "bottom"), ("left", "right")) if n == 2 else (("front", "back"), ("top", "bottom"), ("left", "right"))
        pad = obj(type=info.pad_type)
        for i, (b, a) in enumerate(sides):
            pad[b], pad[a] = info.pad_before[i], info.pad_after[i]
        self.pad_info = pad


class conv_util:
    """TF.js's conv_util (computeConv2DInfo & co.) answered by pytfweb's conv geometry
    (kernels/conv_geometry.py, which the conv and pool kernels of every backend use)."""

    @staticmethod
    def compute_conv2d_info(in_shape, filter_shape, strides, dilations, pad, rounding_mode=None, depthwise=False,
                            data_format="channelsLast"):
        from pytfweb.kernels import conv_geometry as g
        return _ConvInfoView(g.compute_conv2d_info(in_shape, filter_shape, strides, dilations, pad, rounding_mode,
                                                   depthwise, data_format))

    @staticmethod
    def compute_conv3d_info(in_shape, filter_shape, strides, dilations, pad, depthwise=False,
                            data_format="channelsLast", rounding_mode=None):
        from pytfweb.kernels import conv_geometry as g
        return _ConvInfoView(g.compute_conv3d_info(in_shape, filter_shape, strides, dilations, pad, depthwise,
                                                   data_format, rounding_mode))

    @staticmethod
    def compute_pool2d_info(in_shape, filter_size, strides, dilations, pad, rounding_mode=None,
                            data_format="channelsLast"):
        from pytfweb.kernels import conv_geometry as g
        return _ConvInfoView(g.compute_pool2d_info(in_shape, filter_size, strides, dilations, pad, rounding_mode,
                                                   data_format))

    @staticmethod
    def compute_pool3d_info(in_shape, filter_size, strides, dilations, pad, rounding_mode=None, data_format="NDHWC"):
        from pytfweb.kernels import conv_geometry as g
        if data_format not in ("NDHWC", "channelsLast"):
            raise ValueError(f"pool3d: data format {data_format!r} is not supported (NDHWC only)")
        return _ConvInfoView(g.compute_pool3d_info(in_shape, filter_size, strides, dilations, pad, rounding_mode))

    @staticmethod
    def convert_conv2d_data_format(data_format):
        from pytfweb.kernels import conv_geometry as g
        return g.convert_conv2d_data_format(data_format, "conv2d")


# ---------------------------------------------------------------- running the cases
def _first_line(exc):
    msg = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {msg[0] if msg else ''}"[:400]


async def run_cases_async(cases, backend, only=None):
    """Runs (id, fn, env) cases on the active backend, each in its own engine scope (variables
    disposed and flags restored after it, as TF.js's jasmine setup does). Returns
    {"results": {id: None (passed) | "skip: why" | "first error line"}, "left": tensors left
    after all cases, "leaks": {id: tensors the case left}, "slow": {id: seconds} of the slow
    ones, "messages": [(TF.js's expected message, pytfweb's) of toThrowError]}."""
    results, slow, leaks = {}, {}, {}
    start = tf.memory().num_tensors
    THROWN_MESSAGES.clear()
    flags = dict(tf.env().flags)
    active = tf.get_backend()
    for cid, fn, env in cases:
        if only is not None and cid not in only:
            continue
        if env and backend not in env:
            results[cid] = f"skip: runs on {', '.join(env)} only"
            continue
        before = tf.memory().num_tensors
        ENGINE.start_scope()
        t0 = time.perf_counter()
        try:
            PENDING.clear()
            RUNNING.clear()
            ERROR_MESSAGES.clear()
            r = fn()
            if inspect.isawaitable(r):
                await r
            await _settle_pending()
            while RUNNING:
                await RUNNING.pop(0)
            results[cid] = None
        except Exception as exc:  # noqa: BLE001 - each case's first error is its result
            results[cid] = _first_line(exc)
        finally:
            for task in RUNNING:     # what a failing case left running goes with it
                task.cancel()
            for r in PENDING:
                if inspect.iscoroutine(r):
                    r.close()
            RUNNING.clear()
            PENDING.clear()
            try:
                ENGINE.end_scope()
            except Exception as exc:  # noqa: BLE001 - a case that broke the scope stack
                results[cid] = results[cid] or f"scope: {_first_line(exc)}"
                while ENGINE.scopes and len(ENGINE.scopes) > 0:
                    try:
                        ENGINE.end_scope()
                    except Exception:  # noqa: BLE001
                        break
            tf.dispose_variables()
            grew = tf.memory().num_tensors - before
            if grew > 0:     # kept (tf.keep, an optimizer's constants) past the case's scope
                leaks[cid] = grew
            took = time.perf_counter() - t0
            if took > SLOW_SECONDS:
                slow[cid] = round(took, 2)
            if tf.get_backend() != active:    # a case that chose a backend (draw_test's setBackend)
                tf.set_backend(active)
            if tf.env().flags != flags:
                for k, v in flags.items():
                    tf.env().set(k, v)
    return {"results": results, "left": tf.memory().num_tensors - start,
            "messages": list(THROWN_MESSAGES), "slow": slow, "leaks": leaks}


def run_cases(cases, backend, only=None):
    """run_cases_async, in CPython."""
    return asyncio.run(run_cases_async(cases, backend, only))
