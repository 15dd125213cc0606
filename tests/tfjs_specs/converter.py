"""tfjs-converter's executor specs (`tfjs-converter/src/operations/executors/*_test.ts`) run
against pytfweb's graph-op table (pytfweb/converter/ops).

A spec builds a TF.js `Node` (op, inputParams / attrParams under TF.js's mapped names) and calls
`executeOp(node, tensorMap, context, spyOps)`. Here that node becomes a pytfweb graph node: its
inputs are the tensors its inputNames name (TensorFlow's input order), and each attrParam goes
back to its TensorFlow attribute through TF.js's own op_list (tfjs-converter/python/tensorflowjs/
op_list/*.json: tfName <-> name), encoded as model.json encodes it; then pytfweb's OpDef for the
op runs. A jasmine spy assertion `expect(spyOps.add).toHaveBeenCalledWith(a, b)` becomes a
result comparison: the node's outputs must equal `tf.add(a, b)` (dtype, shape, values), or, when
that call raises on the spec's placeholder inputs (scalars standing for images), the node must
raise the same error. Value assertions (expectArraysClose, toEqual, ...) run as written.
`validateParam(node, op_list)` (TF.js's own mapping table agreeing with itself) becomes: pytfweb's
table has the op.
"""
import base64
import inspect
import json
import math

import numpy as np

import pytfweb as tf
from pytfweb.converter.graph import Attrs
from pytfweb.converter.ops import lookup

from .jsinterp import (NO_HOOK, UNDEF, JSFunction, JSObject, NotApplicable, Untranslatable, js_equal,
                       member_path, run_awaitable, snake)
from . import specs

EXECUTORS = "tfjs-converter/src/operations/executors"
OP_LISTS = "tfjs-converter/python/tensorflowjs/op_list"

_DT = {"float32": "DT_FLOAT", "int32": "DT_INT32", "bool": "DT_BOOL", "string": "DT_STRING",
       "complex64": "DT_COMPLEX64", "float64": "DT_DOUBLE", "int64": "DT_INT64"}

# Spec cases that check what pytfweb has no counterpart of, with why (case id -> reason). Filled
# from running the suite: each entry is a case, not a file.
NOT_APPLICABLE = {}


def _load_op_list(src):
    table = {}
    for path in src.list(OP_LISTS):
        if path.endswith(".json"):
            for mapper in json.loads(src.read(path)):
                table[mapper["tfOpName"]] = mapper
    return table


class OpList:
    """TF.js's op mapping: per TensorFlow op, which TF.js param name is which TensorFlow attr / input."""

    def __init__(self, src):
        self.table = _load_op_list(src)

    def attr(self, op, name):
        mapper = self.table.get(op) or {}
        for a in mapper.get("attrs") or ():
            if a["name"] == name:
                return "attr", a
        for i in mapper.get("inputs") or ():
            if i["name"] == name:
                return "input", i
        return None, None


def _b64(s):
    return base64.b64encode(s.encode()).decode()


def _encode(param, value):
    """A TF.js ParamValue's value -> the model.json attribute TensorFlow writes for it."""
    kind = param.get("type")
    if kind == "number":
        return {"i": str(int(value))} if isinstance(value, int) and not isinstance(value, bool) else {"f": value}
    if kind == "string":
        return {"s": _b64(value)}
    if kind == "bool":
        return {"b": bool(value)}
    if kind == "number[]":
        flat = list(_flatten(value))
        if all(isinstance(v, int) for v in flat):
            return {"list": {"i": [str(v) for v in flat]}}
        return {"list": {"f": flat}}
    if kind == "string[]":
        return {"list": {"s": [_b64(v) for v in value]}}
    if kind == "shape":
        return {"shape": {"dim": [{"size": str(v)} for v in value]}} if value is not UNDEF else {"shape": {
            "unknownRank": True}}
    if kind == "dtype":
        return {"type": _DT.get(value, value)}
    if kind == "dtype[]":
        return {"list": {"type": [_DT.get(v, v) for v in value]}}
    if kind == "tensor":
        raise Untranslatable("a tensor-valued attrParam")
    raise Untranslatable(f"attrParam of type {kind}")


def _flatten(v):
    if isinstance(v, (list, tuple)):
        for x in v:
            yield from _flatten(x)
    else:
        yield v


def _const(param, value):
    """An attrParam TensorFlow gives as an input: the tensor a Const node would hold."""
    kind = param.get("type")
    if kind in ("number", "number[]", "shape"):
        flat = list(_flatten(value))
        dtype = "int32" if all(isinstance(v, int) for v in flat) else "float32"
        return tf.tensor(value, None, dtype)
    if kind == "bool":
        return tf.scalar(bool(value), "bool")
    if kind == "string":
        return tf.scalar(value, "string")
    raise Untranslatable(f"attrParam of type {kind} given as a TensorFlow input")


_NAMESPACES = ("fused", "image", "linalg", "spectral", "signal", "sparse", "string", "losses", "ragged", "util",
               "backend_util", "io", "browser", "math")


class Spy:
    """A jasmine spy on a tfOps function: it stands for pytfweb's function of the same path."""

    def __init__(self, path):
        self.path = path

    def js_get(self, key):
        if key == "and":
            return SpyAnd(self)
        raise Untranslatable(f"spy.{key} (jasmine call records)")

    def __repr__(self):
        return f"<spy {self.path}>"


class SpyAnd:
    def __init__(self, spy):
        self.spy = spy

    def returnValue(self, *a):  # noqa: N802 - jasmine's name
        return self.spy

    def callThrough(self):  # noqa: N802
        return self.spy

    def callFake(self, *a):  # noqa: N802
        raise Untranslatable("jasmine callFake")


class SpyTable:
    """spyOnAllFunctions(tfOps): every member is a spy (or a table of them)."""

    def __init__(self, path=""):
        self.path = path

    def js_get(self, key):
        path = f"{self.path}.{key}" if self.path else key
        return SpyTable(path) if key in _NAMESPACES and not self.path else Spy(path)


class TfOps:
    """tfOps (ops_for_converter) and tfjs-core's named exports: TF.js camelCase -> pytfweb."""

    def __init__(self, path=""):
        self.path = path

    def js_get(self, key):
        path = f"{self.path}.{key}" if self.path else key
        if key in _NAMESPACES and not self.path:
            return TfOps(path)
        fn = resolve(path)
        return wrap(fn, path)


def wrap(fn, path):
    """pytfweb's fn called with TF.js's arguments."""
    def call(*args):
        a, kw = py_args(fn, args, path)
        out = fn(*a, **kw)
        return list(out) if isinstance(out, tuple) and not hasattr(out, "_fields") else out
    call.pytfweb = fn
    return call


_RENAMES = {"spectral.fft": "spectral.fft", "tensor": "tensor", "linalg.bandPart": "linalg.band_part"}


def resolve(path):
    """pytfweb's function for a tfOps path ('add', 'image.resizeBilinear', 'fused.conv2d')."""
    parts = path.split(".")
    obj = tf
    for p in parts:
        nxt = getattr(obj, snake(p), None)
        if nxt is None:
            nxt = getattr(obj, p, None)
        if nxt is None and obj is not tf:
            nxt = getattr(tf, snake(p), None)
        if nxt is None:
            raise Untranslatable(f"pytfweb has no counterpart of tfOps.{path}")
        obj = nxt
    return obj


def py_args(fn, args, path=""):
    """TF.js positional arguments -> (args, kwargs) for pytfweb's fn: a lone option object becomes
    keyword arguments (fused ops take TF.js's one object), undefined means the default."""
    args = [to_py(a) for a in args]
    while args and args[-1] is UNDEF:
        args.pop()
    if len(args) == 1 and isinstance(args[0], dict) and path.startswith("fused."):
        return [], {snake(k): v for k, v in args[0].items() if v is not UNDEF}
    kwargs = {}
    if any(a is UNDEF for a in args):
        params = list(inspect.signature(fn).parameters)
        pos, kwargs = [], {}
        for i, a in enumerate(args):
            if a is UNDEF:
                continue
            if pos is not None and len(pos) == i:
                pos.append(a)
            else:
                kwargs[params[i]] = a
        args = pos
    return args, kwargs


def to_py(v):
    if isinstance(v, JSObject):
        return {k: to_py(x) for k, x in v.items()}
    if isinstance(v, list):
        return [to_py(x) for x in v]
    return v


class Outcome:
    def __init__(self, value=None, error=None):
        self.value, self.error = value, error


def _as_outputs(v):
    if v is None or v is UNDEF:
        return []
    if isinstance(v, tf.Tensor):
        return [v]
    if isinstance(v, (list, tuple)):
        return list(v)
    if isinstance(v, dict):
        return list(v.values())
    if hasattr(v, "_fields"):
        return list(v)
    for names in (("values", "indices"), ("y", "idx"), ("result", "indexes")):
        if all(hasattr(v, n) for n in names):
            return [getattr(v, n) for n in names]
    raise Untranslatable(f"a tfOps result of type {type(v).__name__}")


def tensors_equal(actual, expected, where):
    if not isinstance(actual, tf.Tensor):
        raise AssertionError(f"{where}: executor output is {actual!r}, expected a tensor")
    assert actual.dtype == expected.dtype, f"{where}: dtype {actual.dtype} != {expected.dtype}"
    assert list(actual.shape) == list(expected.shape), f"{where}: shape {list(actual.shape)} != " \
                                                       f"{list(expected.shape)}"
    a, e = actual.data_sync(), expected.data_sync()
    if actual.dtype in ("string",):
        assert list(a) == list(e), f"{where}: values {list(a)} != {list(e)}"
        return
    a, e = np.asarray(a), np.asarray(e)
    assert np.allclose(a, e, rtol=1e-6, atol=1e-6, equal_nan=True), f"{where}: values {a.tolist()} != {e.tolist()}"


def _message(exc):
    return str(exc)


class ConverterHost(specs.Host):
    """The names a converter executor spec sees."""

    def __init__(self, src, oplist):
        super().__init__()
        self.src = src
        self.oplist = oplist
        self.last = None   # Outcome of the last executeOp with spies

    # ---- imports ------------------------------------------------------------------------------------
    def import_name(self, source, imported, kind):
        if source.endswith("ops_for_converter") or (source == "@tensorflow/tfjs-core" and
                                                    kind == "ImportNamespaceSpecifier"):
            return TfOps()
        if source == "@tensorflow/tfjs-core":
            return self.core_export(imported)
        if source.endswith("_executor") and imported == "executeOp":
            return self.execute_op
        if source.endswith("test_helper"):
            fn = getattr(self, "helper_" + imported, None)
            if fn is None:
                raise Untranslatable(f"test_helper.{imported}")
            return fn
        if source.endswith("spy_ops"):
            return {"spyOnAllFunctions": lambda obj: SpyTable()}.get(imported, UNDEF)
        if "/op_list/" in source:
            return JSObject(json=[])
        if source.endswith("execution_context") and imported == "ExecutionContext":
            return ExecutionContext
        return Missing(f"{imported or '*'} from '{source}'")

    def core_export(self, name):
        if name == "test_util":
            return self.test_util
        if name in ("Tensor",):
            return tf.Tensor
        return wrap(resolve(name), name)

    # ---- test_helper ---------------------------------------------------------------------------------
    def helper_createNumberAttr(self, value):  # noqa: N802 - the spec's names
        return JSObject(value=value, type="number")

    def helper_createNumberAttrFromIndex(self, i):  # noqa: N802
        return JSObject(inputIndexStart=i, type="number")

    def helper_createStrAttr(self, s):  # noqa: N802
        return JSObject(value=s, type="string")

    def helper_createStrArrayAttr(self, s):  # noqa: N802
        return JSObject(value=s, type="string[]")

    def helper_createBoolAttr(self, v):  # noqa: N802
        return JSObject(value=v, type="bool")

    def helper_createTensorShapeAttr(self, v):  # noqa: N802
        return JSObject(value=v, type="shape")

    def helper_createShapeAttrFromIndex(self, i):  # noqa: N802
        return JSObject(inputIndexStart=i, type="shape")

    def helper_createNumericArrayAttr(self, v):  # noqa: N802
        return JSObject(value=v, type="number[]")

    def helper_createNumericArrayAttrFromIndex(self, i):  # noqa: N802
        return JSObject(inputIndexStart=i, type="number[]")

    def helper_createBooleanArrayAttrFromIndex(self, i):  # noqa: N802
        return JSObject(inputIndexStart=i, type="bool[]")

    def helper_createTensorAttr(self, i):  # noqa: N802
        return JSObject(inputIndexStart=i, type="tensor")

    def helper_createTensorsAttr(self, i, end):  # noqa: N802
        return JSObject(inputIndexStart=i, inputIndexEnd=end, type="tensors")

    def helper_createDtypeAttr(self, d):  # noqa: N802
        return JSObject(value=d, type="dtype")

    def helper_uncapitalize(self, name):
        return name[:1].lower() + name[1:]

    def helper_validateParam(self, node, op_mappers, tf_op_name=UNDEF):  # noqa: N802
        op = node["op"] if tf_op_name is UNDEF else tf_op_name
        self.note_check()
        return lookup(op) is not None

    # ---- the node ------------------------------------------------------------------------------------
    def build(self, node, tensor_map):
        op = node["op"]
        inputs = []
        for name in node.get("inputNames") or []:
            base, _, index = name.partition(":")
            entry = tensor_map.get(base, UNDEF)
            inputs.append(None if entry is UNDEF or entry is None else
                          (entry[int(index or 0)] if int(index or 0) < len(entry) else None))
        raw = {}
        for key, param in (node.get("attrParams") or {}).items():
            value = param.get("value", UNDEF)
            if value is UNDEF:
                continue
            where, d = self.oplist.attr(op, key)
            if where == "input":
                const = _const(param, value)
                self.consts.append(const)
                start = d["start"]
                inputs.insert(start if start >= 0 else len(inputs) + 1 + start, const)
                continue
            tf_name = d["tfName"] if where == "attr" else snake(key)
            raw[tf_name] = _encode(param, value)
        return op, inputs, Attrs(raw, node.get("name", "test"), op)

    def execute_op(self, node, tensor_map, context=UNDEF, ops=UNDEF, *rest):
        spying = isinstance(ops, SpyTable)
        op = node["op"]
        self.executed = True
        try:
            opdef = lookup(op)
            if opdef is None:
                raise NotImplementedError(f"pytfweb's graph-op table has no op '{op}'")
            op, inputs, attrs = self.build(node, to_py_map(tensor_map))
            if len(inputs) < opdef.arity:
                raise ValueError(f"graph model: node '{attrs.node}' ({op}) has {len(inputs)} input(s); "
                                 f"the op needs {opdef.arity}")
            if opdef.runtime:
                if isinstance(context, ExecutionContext):
                    raise NotApplicable(f"{op} runs with the executor's runtime (frames, TensorArrays, "
                                        f"functions): TF.js's ExecutionContext has no pytfweb counterpart")
                out = opdef.fn(inputs, attrs, None)
            else:
                out = opdef.fn(inputs, attrs)
            if opdef.is_async or hasattr(out, "__await__"):
                out = run_awaitable(out)
            out = [t for t in (out if isinstance(out, (list, tuple)) else [out])] if out is not None else []
            out = [UNDEF if t is None else t for t in out]
        except (NotApplicable, Untranslatable):
            raise
        except Exception as exc:
            if not spying:
                raise
            self.last = Outcome(error=exc)
            return UNDEF
        if spying:
            self.last = Outcome(value=out)
        return out

    # ---- assertions ---------------------------------------------------------------------------------
    def spy_called_with(self, path, args):
        """`expect(spyOps.<path>).toHaveBeenCalledWith(...args)` as a result comparison."""
        if self.last is None:
            raise Untranslatable("a spy assertion without an executeOp before it")
        if any(isinstance(a, specs.Matcher) for a in args):
            raise Untranslatable("jasmine.any / objectContaining arguments of a spy")
        fn = resolve(path)
        a, kw = py_args(fn, args, path)
        try:
            expected = Outcome(value=_as_outputs(fn(*a, **kw)))
        except (NotApplicable, Untranslatable):
            raise
        except Exception as exc:
            expected = Outcome(error=exc)
        actual = self.last
        self.note_check()
        where = f"executeOp({self.case_op!r}) vs tf.{snake(path)}"
        if expected.error is not None:
            if actual.error is None:
                raise AssertionError(f"{where}: tf.{snake(path)}(...) raised {expected.error!r} on the spec's "
                                     f"inputs, the executor returned {actual.value!r}")
            if _message(expected.error) not in _message(actual.error):
                raise AssertionError(f"{where}: both raise, but differently: executor {actual.error!r}, "
                                     f"expected {expected.error!r}")
            self.error_matched = True
            return
        if actual.error is not None:
            raise AssertionError(f"{where}: the executor raised {actual.error!r}; tf.{snake(path)} returned "
                                 f"{expected.value!r}") from actual.error
        got = actual.value
        if len(got) < len(expected.value):
            raise AssertionError(f"{where}: {len(got)} output(s), expected {len(expected.value)}")
        for i, e in enumerate(expected.value):
            if isinstance(e, tf.Tensor):
                tensors_equal(got[i], e, f"{where} output {i}")
            elif e is not None:
                raise Untranslatable(f"a tfOps result holding {type(e).__name__}")

    @property
    def case_op(self):
        return getattr(self, "_case_op", "?")


def to_py_map(m):
    return {k: (list(v) if isinstance(v, list) else v) for k, v in m.items()}


class ExecutionContext:
    """TF.js's ExecutionContext: only its construction is carried over (the executor ops that
    need one run with pytfweb's own runtime, which specs cannot reach)."""

    def __init__(self, *args):
        pass


class Missing:
    def __init__(self, what):
        self.what = what

    def __call__(self, *a):
        raise Untranslatable(f"uses {self.what}")


def collect(src, path, oplist=None):
    """The cases of one executor spec file: [(case name, runner)] where runner() runs the case."""
    oplist = oplist or OpList(src)
    host = ConverterHost(src, oplist)
    return host, specs.collect(host, src.read(path), path)
