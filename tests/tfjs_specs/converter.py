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
import random

import pytfweb as tf
from pytfweb.converter.graph import Attrs
from pytfweb.converter.ops import lookup
from pytfweb.converter.resources import HashTable
from pytfweb.converter.resources import TensorArray as _TensorArray
from pytfweb.converter.resources import TensorList as _TensorList

from .jsinterp import (NO_HOOK, UNDEF, JSFunction, JSObject, NotApplicable, Untranslatable, js_equal,
                       member_path, run_awaitable, snake)
from . import specs

EXECUTORS = "tfjs-converter/src/operations/executors"
OP_LISTS = "tfjs-converter/python/tensorflowjs/op_list"

_DT = {"float32": "DT_FLOAT", "int32": "DT_INT32", "bool": "DT_BOOL", "string": "DT_STRING",
       "complex64": "DT_COMPLEX64", "float64": "DT_DOUBLE", "int64": "DT_INT64"}

# Cases by "<spec file name> :: <case id>".
# Checks of what pytfweb has no counterpart of, with why.
NOT_APPLICABLE = {
    "graph_executor_test.ts :: graph > executeOp > Const > should return input":
        "pytfweb's executor supplies Const values from the weights before any op runs; its op table's Const "
        "only reports a missing weight",
    "graph_executor_test.ts :: graph > executeOp > placeholder > should return input":
        "pytfweb's executor supplies Placeholder values from the feeds before any op runs; its op table's "
        "Placeholder only reports a missing feed",
    **{f"hash_table_executor_test.ts :: hash_table > executeOp > {op} > {case}":
       "counts the engine's tensors around a table op: a pytfweb table keeps its own handle (and values) and the op "
       "returns a copy the executor may dispose, one tensor more than TF.js's"
       for op, case in [("HashTable", "should create new tensor on the resourceManager."),
                        ("HashTableV2", "should create new tensor on the resourceManager.")] +
       [(op, "should return hashTable handle.") for op in ("LookupTableImport", "LookupTableImportV2",
                                                          "InitializeTable", "InitializeTableV2")]},
}
# Where pytfweb deviates on purpose (README, 'Deviations from TF.js'): the case must fail with this text.
DEVIATIONS = {
    "graph_executor_test.ts :: graph > FakeQuantWithMinMaxVars > should return input":
        ("FakeQuantWithMinMaxVars quantizes as TensorFlow does where TF.js passes values through", "0.988"),
    "control_executor_test.ts :: control > executeOp > Merge > should return undefined if no inputs are available":
        ("Merge with no input raises ValueError naming the node where TF.js returns undefined",
         "has no input with a value"),
    **{f"control_executor_test.ts :: control > {where} > should concat the tensors from {what}":
       ("TensorArrayConcatV3 / TensorListConcat(V2) give TensorFlow's two outputs (the values and the lengths) "
        "where TF.js's executor gives only the values", "expected 2 to equal 1")
       for where, what in [("executeOp > TensorArrayConcatV3", "tensorArray"), ("TensorListConcat", "tensorList"),
                           ("TensorListConcatV2", "tensorList")]},
    "control_executor_test.ts :: control > TensorListPopBack > should read the tensor from tensorList":
        ("TensorListPopBack gives TensorFlow's outputs (the list's handle, then the element: the element is "
         "output 1, as graphs refer to it) where TF.js's executor gives only the element",
         "expectArraysClose: 1 values, expected 3"),
    "creation_executor_test.ts :: creation > executeOp > OneHot > should call tfOps.oneHot":
        ("a graph's OneHot takes depth 1 as TensorFlow does (one column) where TF.js's executor calls "
         "tf.oneHot, which refuses depth < 2 (as pytfweb's tf.one_hot does)", "must be >= 2, got 1"),
}
# Hand translations: the spy's arguments as pytfweb's call takes them, with why.
HAND = {
    "creation_executor_test.ts :: creation > executeOp > OneHot > should call tfOps.oneHot":
        ("the spec stubs tfOps.oneHot and passes float32 indices, which TF.js's oneHot (like tf.one_hot) rejects; "
         "the graph op casts indices to int32, so the call it makes is one_hot(cast(indices, 'int32'), ...)",
         lambda args, host: [tf.cast(args[0], "int32")] + args[1:]),
    "slice_join_executor_test.ts :: slice join > single-tensor ops > executeOp > should make indices param of "
    "int32 dtype":
        ("objectContaining({dtype: 'int32'}) stands for the float32 indices input cast to int32",
         lambda args, host: [args[0], tf.cast(host.last_call[1]["input5"][0], "int32")] + args[2:]),
    "slice_join_executor_test.ts :: slice join > single-tensor ops > executeOp > should make defaultValue of "
    "same dtype as sparseValues":
        ("objectContaining({dtype: 'float32'}) stands for the int32 default value cast to sparse_values' float32",
         lambda args, host: args[:3] + [tf.cast(host.last_call[1]["input5"][0], "float32")]),
}


def _load_op_list(src):
    table = {}
    for path in src.list(OP_LISTS):
        if path.endswith(".json"):
            for mapper in json.loads(src.read(path)):
                table[mapper["tfOpName"]] = mapper
    return table


class OpList:
    """TF.js's op mapping: per TensorFlow op, which TF.js param name is which TensorFlow attr / input."""

    def __init__(self, src=None, table=None):
        self.table = table if table is not None else _load_op_list(src)

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
        if key == "calls":
            return JSObject(mostRecent=lambda: JSObject(args=self.host_probe()))
        raise Untranslatable(f"spy.{key} (jasmine call records)")

    def host_probe(self):
        if self.path not in PROBES:
            PROBES[self.path] = ArgsProbe(self.path)
        return PROBES[self.path]


PROBES = {}   # the ArgsProbes of the running case, by spy


class ArgsProbe:
    """`spy.calls.mostRecent().args`: the spec states the call's arguments one by one
    (`expect(...args[0][1]).toEqual(input2[0])`); at the case's end they make the call that the
    node's result is compared with, as toHaveBeenCalledWith does."""

    def __init__(self, path):
        self.path = path
        self.known = {}

    def __getitem__(self, i):
        return ArgRef(self, (int(i),))

    def expect(self, index, value):
        self.known[index] = value

    def args(self):
        def build(prefix):
            keys = sorted({k[len(prefix)] for k in self.known if k[:len(prefix)] == prefix and len(k) > len(prefix)})
            if not keys:
                return self.known[prefix]
            if keys != list(range(len(keys))):
                raise Untranslatable(f"spy arguments stated with gaps: {sorted(self.known)}")
            return [build(prefix + (k,)) if prefix + (k,) not in self.known else self.known[prefix + (k,)]
                    for k in keys]
        return build(())


class ArgRef:
    def __init__(self, probe, index):
        self.probe, self.index = probe, index

    def js_get(self, key):
        if isinstance(key, (int, float)) or (isinstance(key, str) and key.isdigit()):
            return ArgRef(self.probe, self.index + (int(key),))
        raise Untranslatable(f"a property ({key}) of a spy's recorded argument")

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


# tfOps names whose pytfweb name is not their snake_case
_RENAMES = {"topk": "top_k", "isNaN": "is_nan", "isInf": "is_inf", "isFinite": "is_finite"}
_RANDOM = ("randomUniform", "randomStandardNormal", "truncatedNormal", "randomNormal", "randomGamma", "multinomial",
           "randomUniformInt")


def resolve(path):
    """pytfweb's function for a tfOps path ('add', 'image.resizeBilinear', 'fused.conv2d')."""
    parts = _RENAMES.get(path, path).split(".")
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
        # nested lists (ragged_gather's splits, then its values) flatten as TF.js's executor lists them
        return [t for x in v for t in (_as_outputs(x) if isinstance(x, (list, tuple)) else [x])]
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
    a, e = [complex(x) for x in a], [complex(x) for x in e]

    def close(x, y):
        if x != x or y != y:   # NaN
            return x != x and y != y
        return x == y or abs(x - y) <= 1e-6 + 1e-6 * abs(y)
    assert len(a) == len(e) and all(close(x, y) for x, y in zip(a, e)), f"{where}: values {a} != {e}"


def _op_of(exc):
    """The op an error names ('max: argument ...' -> 'max'; the executor's annotation stripped)."""
    text = str(exc)
    if text.startswith("graph model: node"):
        text = text.split(": ", 2)[-1] if text.count(": ") >= 2 else text
    return text.split(":", 1)[0].strip()


def same_error(actual, expected):
    """Both calls rejected the spec's placeholder inputs in the same op with the same kind of error
    (messages may differ in how the op shows an argument it received: 1 or [1])."""
    return type(actual) is type(expected) and (str(expected) in str(actual) or _op_of(actual) == _op_of(expected))


class ConverterHost(specs.Host):
    """The names a converter executor spec sees."""

    def __init__(self, src, oplist):
        super().__init__()
        self.src = src
        self.oplist = oplist
        self.last = None   # Outcome of the last executeOp with spies
        self.case_id = ""
        self.seeded = False

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
        if source.endswith("resource_manager") and imported == "ResourceManager":
            return ResourceManager
        if source.endswith("executor/hash_table") and imported == "HashTable":
            return SpecHashTable
        if source.endswith("executor/tensor_array") and imported == "TensorArray":
            return TensorArrayShim
        if source.endswith("executor/tensor_list") and imported == "TensorList":
            return TensorListShim
        if source.endswith("executor/graph_executor") and imported == "GraphExecutor":
            return GraphExecutorNA
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
        if not op:
            # no op named: TF.js's check holds vacuously (nothing to compare), so nothing is checked here
            self.unchecked.append("validateParam of a node without an op")
            return True
        self.note_check()
        return lookup(op) is not None

    # ---- the node ------------------------------------------------------------------------------------
    def build(self, node, tensor_map):
        op = node["op"]
        given = []
        for name in node.get("inputNames") or []:
            base, _, index = name.partition(":")
            entry = tensor_map.get(base, UNDEF)
            given.append(None if entry is UNDEF or entry is None else
                         (entry[int(index or 0)] if int(index or 0) < len(entry) else None))
        inputs = self.assemble(op, node.get("inputParams") or {}, given, set(node.get("attrParams") or {}))
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
        self.seeded = any(int(raw.get(k, {}).get("i", 0) or 0) for k in ("seed", "seed2"))
        return op, inputs, Attrs(raw, node.get("name", "test"), op)

    def assemble(self, op, params, given, attr_names=()):
        """The node's inputs in TensorFlow's order: each input of TF.js's op_list gets the tensors
        the spec's inputParam of that name selects from inputNames (as TF.js's getParamValue
        reads them), so a spec's own index layout and unused inputNames carry over."""
        mapper = (self.oplist.table.get(op) or {}).get("inputs") or []
        names = {m["name"] for m in mapper}
        if not params or not mapper or any(k not in names for k in params):
            return given

        def select(p):
            start, end = p.get("inputIndexStart", 0), p.get("inputIndexEnd", UNDEF)
            if p.get("type") == "tensors":
                stop = len(given) if end is UNDEF or end == 0 else (end if end > 0 else len(given) + end)
                return given[start if start >= 0 else len(given) + start:stop]
            i = start if start >= 0 else len(given) + start
            return [given[i] if 0 <= i < len(given) else None]

        front, back = [], []
        for m in sorted(mapper, key=lambda m: (m["start"] < 0, m["start"])):
            if m["name"] not in params:
                if m["name"] in attr_names:  # given as an attrParam: inserted as a Const input by build()
                    continue
                if m["start"] >= 0 and len(front) == m["start"] and m.get("defaultValue") is None:
                    break
                continue
            (back if m["start"] < 0 else front).extend(select(params[m["name"]]))
        return front + back

    def execute_op(self, node, tensor_map, context=UNDEF, *rest):
        spying = any(isinstance(x, SpyTable) for x in rest)
        self.last_call = (node, tensor_map, context, rest)
        manager = next((x for x in rest if isinstance(x, ResourceManager)), None)
        if manager is not None:
            # TF.js resolves a table handle input by its node's name through the ResourceManager
            tensor_map = dict(tensor_map)
            for name in node.get("inputNames") or []:
                if name not in tensor_map and name in manager.model_resources:
                    tensor_map[name] = [manager.model_resources[name].handle]
        op = node["op"]
        self._case_op = op
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
                rt = context.rt if isinstance(context, ExecutionContext) and manager is None else \
                    Runtime(manager or ResourceManager())
                out = opdef.fn(inputs, attrs, rt)
            else:
                out = opdef.fn(inputs, attrs)
            is_async = opdef.is_async or hasattr(out, "__await__")
            if is_async:
                out = run_awaitable(out)
            out = [t for t in (out if isinstance(out, (list, tuple)) else [out])] if out is not None else []
            out = [UNDEF if t is None else t for t in out]
        except (NotApplicable, Untranslatable):
            raise
        except Exception as exc:
            if not spying or self.expect_throw:
                raise
            self.last = Outcome(error=exc)
            opdef = lookup(op)
            # TF.js's async executor ops return a (here rejected) Promise whatever their inputs
            return Promise(UNDEF) if opdef is not None and opdef.is_async else UNDEF
        if spying:
            self.last = Outcome(value=out)
        if manager is not None:
            manager.note_handles(out)
        if isinstance(context, ExecutionContext):
            context.note_handles(out)
        return Promise(out) if is_async else out

    # ---- assertions ---------------------------------------------------------------------------------
    def reset_case(self):
        super().reset_case()
        PROBES.clear()

    def finish_case(self):
        probes = list(PROBES.values())
        PROBES.clear()
        for probe in probes:
            if probe.known:
                self.spy_called_with(probe.path, probe.args())

    def spy_called_with(self, path, args):
        """`expect(spyOps.<path>).toHaveBeenCalledWith(...args)` as a result comparison."""
        if self.last is None:
            raise Untranslatable("a spy assertion without an executeOp before it")
        fn = resolve(path)
        hand = HAND.get(self.case_id)
        if hand:
            args = hand[1](list(args), self)
        args = [self._by_data(a) for a in args]
        if any(isinstance(a, specs.Matcher) for a in args):
            raise Untranslatable("jasmine.any / objectContaining arguments of a spy")
        expected = self._expected(fn, path, args)
        actual = self.last
        self.note_check()
        where = f"executeOp({self.case_op!r}) vs tf.{snake(path)}"
        if expected.error is not None:
            if actual.error is None:
                raise AssertionError(f"{where}: tf.{snake(path)}(...) raised {expected.error!r} on the spec's "
                                     f"inputs, the executor returned {actual.value!r}")
            if not same_error(actual.error, expected.error):
                raise AssertionError(f"{where}: both raise, but differently: executor {actual.error!r}, "
                                     f"expected {expected.error!r}")
            fitted = self._fit(fn, path, args)
            if fitted is None:
                self.error_matched = True
                return
            expected, actual = fitted
            where += " (inputs fitted)"
            self.fitted = True
            if actual.error is not None:
                raise AssertionError(f"{where}: the executor raised {actual.error!r}; tf.{snake(path)} returned "
                                     f"{expected.value!r}") from actual.error
        if actual.error is not None:
            raise AssertionError(f"{where}: the executor raised {actual.error!r}; tf.{snake(path)} returned "
                                 f"{expected.value!r}") from actual.error
        self._compare(actual.value, expected.value, path, where)

    def _by_data(self, a):
        """objectContaining({dataId: t.dataId}): the node's input holding that data."""
        if isinstance(a, specs.Matcher) and a.kind == "objectContaining" and set(a.value) == {"dataId"}:
            for v in _flatten_values(list(self.last_call[1].values())):
                if isinstance(v, tf.Tensor) and v.data_id is a.value["dataId"]:
                    return v
        return a

    def _expected(self, fn, path, args):
        a, kw = py_args(fn, args, path)
        try:
            return Outcome(value=_as_outputs(run_awaitable(fn(*a, **kw))))
        except (NotApplicable, Untranslatable):
            raise
        except Exception as exc:  # noqa: BLE001 - compared with what the executor raised
            return Outcome(error=exc)

    def _compare(self, got, expected, path, where):
        if len(got) < len(expected):
            raise AssertionError(f"{where}: {len(got)} output(s), expected {len(expected)}")
        unseeded = path in _RANDOM and not self.seeded
        for i, e in enumerate(expected):
            if isinstance(e, tf.Tensor) and unseeded:
                # an unseeded draw: the call's dtype and shape are what can agree
                assert isinstance(got[i], tf.Tensor) and (got[i].dtype, list(got[i].shape)) == \
                    (e.dtype, list(e.shape)), f"{where} output {i}: {got[i]!r} vs {e!r}"
            elif isinstance(e, tf.Tensor):
                tensors_equal(got[i], e, f"{where} output {i}")
            elif e is not None:
                raise Untranslatable(f"a tfOps result holding {type(e).__name__}")

    def _fit(self, fn, path, args):
        """The spec's inputs are placeholders (scalars standing for images, matrices): when the named
        call rejects them, the tensors it receives are replaced by the first of a few shapes
        (all alike, each keeping its dtype, seeded values) that the call takes, and the node runs
        again on the same replacements: (expected, actual) Outcomes, or None when no shape fits."""
        node, tensor_map, context, rest = self.last_call
        inputs = {id(v) for v in _flatten_values(list(tensor_map.values())) if isinstance(v, tf.Tensor)}
        originals = {}
        for v in _flatten_values(args):
            if isinstance(v, tf.Tensor) and id(v) in inputs:  # only what the node receives can be replaced
                originals[id(v)] = v
        if not originals:
            return None
        rng = random.Random(7)
        keys = list(originals)
        modes = [lambda i, t: t.dtype] + [lambda i, t, d=d: d for d in ("bool", "int32", "complex64")] + \
            [lambda i, t: t.dtype if i == 0 else "int32", lambda i, t: "int32" if i == 0 else t.dtype]
        for shape, mode in [(s, m) for m in modes for s in _FIT_SHAPES]:
            # the spec's dtypes first; then one dtype for all (bool for logical ops, complex64 for
            # FFTs); then int32 indices beside the spec's values
            subs = {k: _filler(rng, shape, mode(keys.index(k), t)) for k, t in originals.items()}
            expected = self._expected(fn, path, _replace(args, subs))
            if expected.error is not None:
                self.consts.extend(subs.values())
                continue
            new_map = {name: [subs.get(id(t), t) for t in v] if isinstance(v, list) else v
                       for name, v in tensor_map.items()}
            self.consts.extend(subs.values())
            self.execute_op(node, new_map, context, *rest)
            return expected, self.last
        return None

    @property
    def case_op(self):
        return getattr(self, "_case_op", "?")


_FIT_SHAPES = ([4], [3, 3], [2, 3], [2, 1, 3], [2, 3, 4], [1, 4, 4, 4], [2, 4, 4, 4], [1, 1, 1, 1], [1, 4, 4, 4, 4],
               [2, 2, 2, 2, 2], [1, 1, 1, 1, 1])


def _filler(rng, shape, dtype):
    """A tensor of the shape and dtype with seeded values (the standard library's random: the page has no numpy)."""
    n = math.prod(shape)
    if dtype == "bool":
        return tf.tensor([rng.random() > 0.5 for _ in range(n)], shape, "bool")
    if dtype == "int32":
        return tf.tensor([rng.randrange(3) for _ in range(n)], shape, "int32")
    if dtype == "complex64":
        return tf.complex(tf.tensor([rng.uniform(-2, 2) for _ in range(n)], shape),
                          tf.tensor([rng.uniform(-2, 2) for _ in range(n)], shape))
    if dtype == "string":
        return tf.tensor([["a", "b", "c"][i % 3] for i in range(n)], shape, "string")
    return tf.tensor([rng.uniform(0.1, 2) for _ in range(n)], shape, dtype)


def _flatten_values(v):
    if isinstance(v, (list, tuple)):
        for x in v:
            yield from _flatten_values(x)
    elif isinstance(v, dict):
        for x in v.values():
            yield from _flatten_values(x)
    else:
        yield v


def _replace(v, subs):
    if isinstance(v, tf.Tensor):
        return subs.get(id(v), v)
    if isinstance(v, JSObject):
        return JSObject((k, _replace(x, subs)) for k, x in v.items())
    if isinstance(v, list):
        return [_replace(x, subs) for x in v]
    return v


def to_py_map(m):
    return {k: (list(v) if isinstance(v, list) else v) for k, v in m.items()}


class Promise:
    """What an async op's executeOp returns in TF.js; awaiting it gives the outputs (computed already)."""

    def __init__(self, value):
        self.resolved_value = value


class SpecHashTable(HashTable):
    """TF.js's HashTable(keyDType, valueDType)."""

    def __init__(self, key_dtype, value_dtype):
        super().__init__("hashtable", key_dtype, value_dtype)


class GraphExecutorNA:
    def __init__(self, *a):
        raise NotApplicable("builds TF.js GraphExecutors as If/While branch functions; pytfweb's If/While run "
                            "functions of a model's graph library (tests/unit/test_graph_model.py)")


class ResourceManager:
    """TF.js's ResourceManager (a model's hash tables by node name) over pytfweb's: the tables
    pytfweb's hash-table ops keep in the model's resources."""

    def __init__(self):
        self.model_resources = {}
        self.functions = {}
        self.by_tensor_id = {}

    def js_get(self, key):
        if key == "addHashTable":
            return lambda name, table: self.model_resources.__setitem__(name, table)
        if key == "getHashTableById":
            return lambda tid: self.by_tensor_id.get(tid, UNDEF)
        if key == "hashTableMap":
            return JSObject(self.model_resources)
        if key == "dispose":
            return self.dispose
        raise Untranslatable(f"ResourceManager.{key}")

    def note_handles(self, out):
        for t in out:
            if isinstance(t, tf.Tensor):
                for table in self.model_resources.values():
                    if table.handle.data_id is t.data_id:
                        self.by_tensor_id[t.id] = table

    def dispose(self):
        for table in self.model_resources.values():
            table.close()
        self.model_resources = {}


def Runtime(manager):  # noqa: N802 - pytfweb's executor Runtime over the spec's ResourceManager
    from pytfweb.converter.executor import Runtime as _Runtime
    return _Runtime(manager)


class ExecutionContext:
    """TF.js's ExecutionContext over pytfweb's executor Runtime: the TensorArrays and TensorLists a
    run holds, found by their handle tensors."""

    def __init__(self, *args):
        import types
        from pytfweb.converter.executor import Runtime as _Runtime
        self.rt = _Runtime(types.SimpleNamespace(model_resources={}, functions={}))
        self.tensors = {}

    def note_handles(self, out):
        for t in out:
            if isinstance(t, tf.Tensor):
                self.tensors[t.id] = t

    def _by_id(self, tid):
        t = self.tensors.get(tid)
        return self.rt.containers.get(t.data_id, UNDEF) if t is not None else UNDEF

    def js_get(self, key):
        if key in ("addTensorArray", "addTensorList"):
            def add(shim):
                self.rt.add(shim.res)
                self.tensors[shim.res.handle.id] = shim.res.handle
            return add
        if key in ("getTensorArray", "getTensorList"):
            return lambda tid: wrap_resource(self._by_id(tid))
        if key in ("enterFrame", "exitFrame", "nextIteration", "functionMap", "currentContext"):
            raise NotApplicable(f"TF.js's ExecutionContext.{key} (loop frames and functions): pytfweb's executor "
                                f"keeps frames and a model's functions its own way")
        raise Untranslatable(f"ExecutionContext.{key}")


def wrap_resource(res):
    if isinstance(res, _TensorArray):
        return TensorArrayShim(res)
    if isinstance(res, _TensorList):
        return TensorListShim(res)
    return res


class TensorArrayShim:
    """TF.js's TensorArray(name, dtype, maxSize, elementShape, identicalElementShapes, dynamicSize,
    clearAfterRead) as pytfweb's."""

    def __init__(self, *args):
        if len(args) == 1 and isinstance(args[0], _TensorArray):
            self.res = args[0]
            return
        name, dtype, size, shape, _identical, dynamic, clear = (list(args) + [UNDEF] * 7)[:7]
        self.res = _TensorArray(name, dtype, int(size), shape, bool(dynamic), bool(clear))

    def js_get(self, key):
        ta = self.res
        table = {"idTensor": lambda: ta.handle, "size": lambda: ta.size, "closed": lambda: ta.closed,
                 "write": lambda: ta.write, "read": lambda: ta.read,
                 "writeMany": lambda: lambda idx, ts: [ta.write(int(i), t) for i, t in zip(idx, ts)] and UNDEF}
        if key not in table:
            raise Untranslatable(f"TensorArray.{key}")
        return table[key]()


class TensorListShim:
    """TF.js's TensorList(tensors, elementShape, elementDtype, maxNumElements) as pytfweb's."""

    def __init__(self, *args):
        if len(args) == 1 and isinstance(args[0], _TensorList):
            self.res = args[0]
            return
        tensors, shape, dtype, max_num = (list(args) + [UNDEF] * 4)[:4]
        self.res = _TensorList(shape if isinstance(shape, list) else None, dtype, list(tensors),
                               -1 if max_num is UNDEF else int(max_num))

    def js_get(self, key):
        tl = self.res
        table = {"idTensor": lambda: tl.handle, "size": lambda: tl.size, "elementDtype": lambda: tl.dtype,
                 "elementShape": lambda: tl.element_shape, "maxNumElements": lambda: tl.max_size,
                 "setItem": lambda: tl.set, "getItem": lambda: lambda i, *a: tl.element(int(i))}
        if key not in table:
            raise Untranslatable(f"TensorList.{key}")
        return table[key]()


class Missing:
    def __init__(self, what):
        self.what = what

    def __call__(self, *a):
        raise Untranslatable(f"uses {self.what}")


def program_of(src, path):
    """A spec file's ESTree (the shared front end, extract.mjs --program); a source that holds
    ESTrees already (layers.Programs, in the page) gives its own."""
    if hasattr(src, "program"):
        return src.program(path)
    from .source import estree
    return estree(src.read(path), path)


def run_file(src, path, oplist=None):
    """run_program on a spec file of the TFJS_SRC tree."""
    return run_program(program_of(src, path), path, oplist or OpList(src))


def run_program(program, path, oplist):
    """[(key, status, detail)] for every case of a spec file's ESTree, with the hand tables
    applied: a NOT_APPLICABLE case is not run, a DEVIATIONS case passes only if it fails with its
    text. Pure Python over pytfweb: the browser tests run it in the page as it is."""
    name = path.rsplit("/", 1)[-1]
    host = ConverterHost(None, oplist)
    out = []
    for cid, case in host.collect(program):
        key = f"{name} :: {cid}"
        if key in NOT_APPLICABLE:
            out.append((key, "not applicable", NOT_APPLICABLE[key]))
            continue
        host.case_id = key
        status, detail = host.run_case(case)
        if key in DEVIATIONS:
            reason, text = DEVIATIONS[key]
            status, detail = ("deviation", reason) if status == "failed" and text in detail else \
                ("failed", f"listed deviation ({reason}) no longer shows: {status} {detail}")
        elif key in HAND and status == "passed":
            detail = "hand translation: " + HAND[key][0]
        out.append((key, status, detail))
    return out


# skipped: translated, but not run on this backend (it runs on another)
STATUSES = ("passed", "deviation", "failed", "skipped", "no check", "not applicable", "untranslatable")


def spec_files(src):
    return [p for p in src.list(EXECUTORS) if p.endswith("_test.ts")]


def coverage(src, only=None):
    """{spec file: {status: count}} and [(key, status, detail)] over the executor specs (cpu)."""
    oplist = OpList(src)
    table, rows = {}, []
    for path in spec_files(src):
        if only and only not in path:
            continue
        results = run_file(src, path, oplist)
        counts = {s: 0 for s in STATUSES}
        counts["same error only"] = 0
        for _, status, detail in results:
            counts[status] += 1
            # passing only because the named call and the node reject the spec's placeholder
            # inputs alike (no input shape fitted them): the weakest kind of pass, counted apart
            counts["same error only"] += status == "passed" and detail == "error-equivalent"
        table[path] = counts
        rows.extend(results)
    return table, rows


def markdown(table):
    """The coverage table: translated = cases whose assertions ran against pytfweb."""
    head = "| spec file | cases | translated | passing | of which by the same error only | deviation | failing | " \
           "not run here | no check | not applicable | untranslatable |\n|---|---|---|---|---|---|---|---|---|---|---|\n"
    lines, total = [], {s: 0 for s in STATUSES + ("same error only",)}
    for path, c in table.items():
        for s in total:
            total[s] += c.get(s, 0)
        lines.append(_row(path.rsplit("/", 1)[-1], c))
    lines.append(_row("**all**", total))
    return head + "\n".join(lines) + "\n"


def _row(name, c):
    translated = c["passed"] + c["deviation"] + c["failed"] + c["skipped"]
    cases = sum(c[s] for s in STATUSES)
    return (f"| {name} | {cases} | {translated} | {c['passed']} | {c.get('same error only', 0)} | {c['deviation']} | "
            f"{c['failed']} | {c['skipped']} | {c['no check']} | {c['not applicable']} | {c['untranslatable']} |")
