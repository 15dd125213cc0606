"""tfjs-layers' own specs (`tfjs-layers/src/**/*_test.ts`) run against pytfweb's layers API.

The spec runs as jasmine would (jsinterp.py, specs.py). `tfl.layers.dense({units: 3})` calls
pytfweb's `tf.layers.dense` with TF.js's config object (pytfweb's layer factories take TF.js's
camelCase configs); a trailing option object whose keys are the Python method's parameters
(`layer.apply(x, {training: true})`, `model.fit(x, y, {epochs: 2})`) becomes keyword arguments;
members of pytfweb objects are read by their snake_case names (`output.sourceLayer` ->
`source_layer`). tfjs-layers' internal modules (`../initializers`, `./activations`, ...) map to
pytfweb.layers' modules of the same name; a name pytfweb does not have stops the case as
untranslatable, naming it. `describeMathCPUAndGPU` and its relatives run the cases once, on the
session's backend.
"""
import importlib
import inspect
import re

import pytfweb as tf

from . import specs
from .jsinterp import UNDEF, JSObject, NotApplicable, Untranslatable, snake

SPECS = "tfjs-layers/src"
# The files that map most directly onto pytfweb's layers API, run first (ISSUE 31's order).
FILES = ["layers/core", "activations", "initializers", "constraints", "regularizers", "losses", "metrics",
         "layers/convolutional", "layers/pooling", "layers/merge", "layers/normalization"]

# Cases by "<path under tfjs-layers/src> :: <case id>".
_BARE_VALUE = ("checks that TF.js's factory, which takes one options object, rejects a bare number; pytfweb's "
               "factories take Python arguments, where a bare value is the first parameter")
NOT_APPLICABLE = {
    "initializers_test.ts :: Constant initializer > 1D, from builder function: passing a direct value throws "
    "error": _BARE_VALUE,
    "regularizers_test.ts :: Built-in Regularizers > Using number arg for constructor leads to error": _BARE_VALUE,
}
# Where pytfweb deviates on purpose (README, 'Deviations from TF.js'): the case must fail with this text.
DEVIATIONS = {
    "layers/merge_test.ts :: Add Layer: Tensor > computeMask":
        ("merge layers' compute_mask combines the masks as tf.keras does (one mask of the inputs' shape), where "
         "TF.js 4.22 expands each mask at axis 0 and returns shape [1, ...]", "shape [2] != [1, 2]"),
}


class Namespace:
    """A pytfweb module (or object) seen with TF.js's names: camelCase members found by snake_case."""

    def __init__(self, obj, label):
        self.obj, self.label = obj, label

    def js_get(self, key):
        for name in _candidates(key):
            if hasattr(self.obj, name):
                return wrap_value(getattr(self.obj, name), f"{self.label}.{key}")
        raise Untranslatable(f"pytfweb has no counterpart of {self.label}.{key}")

    def __repr__(self):
        return f"<{self.label}>"


def _candidates(key):
    """pytfweb's possible spellings of a TF.js name: conv2dTranspose -> conv2d_transpose,
    cropping2D -> cropping2d, upSampling2d -> up_sampling2d."""
    base = snake(key)
    return [base, re.sub(r"(\d)_d\b", r"\1d", base), key, key[:1].lower() + key[1:]]


def wrap_value(v, label):
    if inspect.ismodule(v):
        return Namespace(v, label)
    return v


class symbolic_tensor:  # noqa: N801 - stands for a class (`new tfl.SymbolicTensor(...)`)
    """TF.js's SymbolicTensor(dtype, shape, sourceLayer, inputs, callArgs, name?, outputTensorIndex?)
    as pytfweb's SymbolicTensor(dtype, shape, source_layer, node_index, tensor_index, name)."""

    def __new__(cls, dtype, shape, source_layer=None, inputs=None, call_args=None, name=None, index=None):
        def given(v):
            return None if v is UNDEF else v
        return tf.layers.SymbolicTensor(dtype, [given(d) for d in shape], given(source_layer), 0,
                                        given(index) or 0, given(name))


class TflIndex:
    """`import * as tfl from '../index'`: tfjs-layers' exports."""

    NAMES = {"layers": lambda: Namespace(tf.layers, "tfl.layers"),
             "initializers": lambda: Namespace(tf.initializers, "tfl.initializers"),
             "regularizers": lambda: Namespace(tf.regularizers, "tfl.regularizers"),
             "constraints": lambda: Namespace(tf.constraints, "tfl.constraints"),
             "metrics": lambda: Namespace(tf.metrics, "tfl.metrics"),
             "losses": lambda: Namespace(tf.losses, "tfl.losses"),
             "models": lambda: Namespace(importlib.import_module("pytfweb.layers.models"), "tfl.models"),
             "SymbolicTensor": lambda: symbolic_tensor, "LayersModel": lambda: tf.layers.Model}

    def js_get(self, key):
        if key in self.NAMES:
            return self.NAMES[key]()
        for obj in (tf, tf.layers):
            for name in _candidates(key):
                if hasattr(obj, name):
                    return wrap_value(getattr(obj, name), f"tfl.{key}")
        raise Untranslatable(f"pytfweb has no counterpart of tfl.{key}")


def _module_for(source):
    """tfjs-layers' internal module path -> the pytfweb.layers module of the same role, or None."""
    name = source.rstrip("/").rsplit("/", 1)[-1]
    table = {"activations": "activations", "initializers": "initializers", "constraints": "constraints",
             "regularizers": "regularizers", "losses": "losses", "metrics": "metrics", "core": "core",
             "convolutional": "convolutional", "pooling": "pooling", "merge": "merge",
             "normalization": "normalization", "serialization": "serialization", "topology": "engine",
             "training": "training", "models": "models", "recurrent": "recurrent", "padding": "padding",
             "noise": "noise", "wrappers": "wrappers", "advanced_activations": "advanced_activations"}
    if name not in table:
        return None
    try:
        return importlib.import_module(f"pytfweb.layers.{table[name]}")
    except ImportError:
        return None


def _batch_normalization(x, mean, variance, beta=None, gamma=None, epsilon=1e-3):
    return tf.batch_norm(x, mean, variance, beta, gamma, epsilon)


def _deserialize(ts_config, custom_objects=None):
    """tfjs-layers' deserialize takes TF.js's TS-centric config; pytfweb's deserialize_layer takes
    the pythonic (Keras) one, which TF.js's own convertTsToPythonic gives."""
    from pytfweb.layers import config
    helpers = _HELPERS.get("serialization_utils")
    pythonic = helpers["convertTsToPythonic"](ts_config) if helpers else ts_config
    return config.deserialize_layer(specs.to_py(pythonic))


_HELPERS = {}


def _serialize(obj):
    """tfjs-layers' serialize* give TF.js's TS-centric {className, config}: pytfweb's pythonic one
    through TF.js's own convertPythonicToTs."""
    from pytfweb.layers import config
    helpers = _HELPERS.get("serialization_utils")
    out = config.serialize(obj)
    return helpers["convertPythonicToTs"](specs.to_js(out)) if helpers else out


def _not_applicable(why):
    def stop(*args):
        raise NotApplicable(why)
    return stop


class _Activation:
    """tfjs-layers' activation classes (`new Relu().apply(x)`) over pytfweb's activation functions."""

    def __init__(self, name):
        self.name = name

    def __call__(self):
        fn = getattr(tf.layers.activations, self.name)
        return JSObject(apply=lambda x, *a: fn(x, *[v for v in a if v is not UNDEF]),
                        getClassName=lambda: self.name)


# tfjs-layers' internal functions a spec imports -> pytfweb's function doing the same (module, name)
INTERNAL = {
    ("initializers", "getInitializer"): lambda: tf.layers.initializers.get,
    ("initializers", "serializeInitializer"): lambda: _serialize,
    ("constraints", "getConstraint"): lambda: tf.layers.constraints.get,
    ("constraints", "serializeConstraint"): lambda: _serialize,
    ("constraints", "deserializeConstraint"): lambda: tf.layers.constraints.get,
    ("regularizers", "getRegularizer"): lambda: tf.layers.regularizers.get,
    ("regularizers", "serializeRegularizer"): lambda: _serialize,
    ("regularizers", "deserializeRegularizer"): lambda: tf.layers.regularizers.get,
    ("normalization", "batchNormalization"): lambda: _batch_normalization,
    ("serialization", "deserialize"): lambda: _deserialize,
    ("metrics", "getLossOrMetricName"): lambda: _not_applicable(
        "getLossOrMetricName names a function by its identity in tfjs-layers' own loss and metric maps"),
    **{("activations", cls): (lambda name=name: _Activation(name))
       for cls, name in [("Elu", "elu"), ("HardSigmoid", "hard_sigmoid"), ("Linear", "linear"),
                         ("LogSoftmax", "log_softmax"), ("Relu", "relu"), ("Relu6", "relu6"), ("Selu", "selu"),
                         ("Sigmoid", "sigmoid"), ("Softmax", "softmax"), ("Softplus", "softplus"),
                         ("Softsign", "softsign"), ("Tanh", "tanh"), ("Swish", "swish"), ("Mish", "mish"),
                         ("Gelu", "gelu"), ("GeluNew", "gelu_new")]},
}


class LayersHost(specs.Host):
    """The names a tfjs-layers spec sees."""

    def __init__(self, src=None, path=None, modules=None):
        super().__init__()
        self.src, self.path = src, path
        self.modules = {} if modules is None else modules   # TF.js helper modules run here, by path
        if modules is None and src is not None:
            # TF.js's convertPythonicToTs / convertTsToPythonic: between pytfweb's configs and TF.js's
            self.tfjs_module_at("tfjs-layers/src/utils/serialization_utils")

    def tfjs_module(self, source):
        """A tfjs-layers helper module (utils/, backend/) run by the interpreter itself: its
        top-level names, or Missing when it cannot run here."""
        import posixpath
        if self.src is None or self.path is None:
            return None
        base = posixpath.normpath(posixpath.join(posixpath.dirname(self.path), source))
        if base in self.modules:
            return self.modules[base]
        from .converter import program_of
        for candidate in (base + ".ts", base + "/index.ts"):
            try:
                program = program_of(self.src, candidate)
            except Exception:  # noqa: BLE001 - not this file name
                continue
            sub = LayersHost(self.src, candidate, self.modules)
            self.modules[base] = None   # an import cycle reads Missing
            # statement by statement: the module's functions are what specs import; its classes
            # (which the interpreter does not run) and the statements needing them are left out
            scope = sub.interp.globals
            skipped = []
            for stmt in program["body"]:
                try:
                    sub.interp.exec(stmt, scope)
                except Exception as exc:  # noqa: BLE001 - a class, or code using one
                    skipped.append(str(exc))
            self.modules[base] = JSObject(scope.vars)
            if base.endswith("utils/serialization_utils"):
                _HELPERS["serialization_utils"] = self.modules[base]
            return self.modules[base]
        return None

    def import_name(self, source, imported, kind):
        if source == "@tensorflow/tfjs-core":
            if kind == "ImportNamespaceSpecifier":
                return Namespace(tf, "tfc")
            if imported == "test_util":
                return self.test_util
            if imported == "Tensor":
                return tf.Tensor
            for name in (snake(imported), imported):
                if hasattr(tf, name):
                    return wrap_value(getattr(tf, name), imported)
            return Missing(f"tfjs-core's {imported}")
        if source.endswith("/index") or source == "./index":
            return TflIndex()
        if source.endswith("test_utils"):
            fn = getattr(self, "tu_" + imported, None)
            return fn if fn is not None else Missing(f"test_utils.{imported}")
        if source.endswith("/errors"):
            return type(imported, (specs.JSError,), {}) if imported else Missing("errors")
        module = _module_for(source)
        internal = INTERNAL.get((source.rstrip("/").rsplit("/", 1)[-1], imported))
        if internal is not None:
            return internal()
        if module is not None:
            if kind == "ImportNamespaceSpecifier":
                return Namespace(module, source)
            for name in (imported, snake(imported)):
                if hasattr(module, name):
                    return getattr(module, name)
        if source.startswith("."):
            helper = self.tfjs_module(source)
            if isinstance(helper, JSObject):
                if kind == "ImportNamespaceSpecifier":
                    return helper
                if imported in helper:
                    return helper[imported]
            elif isinstance(helper, Missing):
                return helper
        return Missing(f"{imported or '*'} from tfjs-layers' '{source}'")

    # ---- test_utils ---------------------------------------------------------------------------------
    def tu_describeMathCPU(self, name, fn):  # noqa: N802 - the spec's names
        self.describe(name, fn)

    tu_describeMathCPUAndGPU = tu_describeMathGPU = tu_describeMathCPUAndWebGL2 = tu_describeMathWebGL2 = \
        tu_describeMathCPU

    def tu_expectTensorsClose(self, actual, expected, epsilon=UNDEF):  # noqa: N802
        if isinstance(actual, tf.Tensor) and isinstance(expected, tf.Tensor):
            self.note_check()
            assert list(actual.shape) == list(expected.shape), \
                f"expectTensorsClose: shape {list(actual.shape)} != {list(expected.shape)}"
        self.test_util.expectArraysClose(actual, expected, epsilon)

    def tu_expectTensorsValuesInRange(self, actual, low, high):  # noqa: N802
        values = specs._flat(actual)
        self.note_check()
        assert all(low <= v < high for v in values), f"values outside [{low}, {high}): {values}"

    def tu_expectNoLeakedTensors(self, fn, expected=0):  # noqa: N802
        # as TF.js's: a first run may make what later runs reuse; the second run counts
        self.interp.call(fn, [])
        before = tf.memory().num_tensors
        self.interp.call(fn, [])
        self.note_check()
        assert tf.memory().num_tensors - before == expected, \
            f"{tf.memory().num_tensors - before} tensors leaked, expected {expected}"

    def member(self, obj, key):
        if key == "getConfig" and hasattr(obj, "get_config") and not isinstance(obj, dict):
            # pytfweb's get_config is TF.js's convertTsToPythonic(getConfig()): TF.js's own
            # convertPythonicToTs gives the spec the object it reads
            helpers = self.tfjs_module_at("tfjs-layers/src/utils/serialization_utils")
            if isinstance(helpers, JSObject):
                return lambda: helpers["convertPythonicToTs"](specs.to_js(obj.get_config()))
        if isinstance(obj, type) and key == "name":
            return obj.__name__
        return super().member(obj, key)

    def tfjs_module_at(self, path):
        import posixpath
        if self.path is None:
            return None
        return self.tfjs_module(posixpath.relpath(path, posixpath.dirname(self.path)))

    # ---- calls ----------------------------------------------------------------------------------------
    def call(self, fn, args):
        args = list(args)
        while args and args[-1] is UNDEF:
            args.pop()
        kwargs = {}
        if args and isinstance(args[-1], JSObject) and callable(fn):
            try:
                params = inspect.signature(fn).parameters
            except (TypeError, ValueError):
                params = {}
            named = {n for n, p in params.items() if p.kind not in (p.VAR_KEYWORD, p.VAR_POSITIONAL)}
            keys = [snake(k) for k in args[-1]]
            if keys and all(k in named for k in keys):
                kwargs = {snake(k): specs.to_py(v) for k, v in args.pop().items()
                          if v is not UNDEF and v is not None}
        out = fn(*[specs.to_py(a) for a in args], **kwargs)
        return specs.to_js(out)

    def construct(self, cls, args, n):
        if isinstance(cls, _Activation):
            return cls()
        if isinstance(cls, type) and not issubclass(cls, specs.JSError):
            kwargs = _as_kwargs(cls, list(args))
            if kwargs is not None:
                return cls(**kwargs)
        return super().construct(cls, args, n)


class Missing:
    def __init__(self, what):
        self.what = what

    def __call__(self, *a):
        raise Untranslatable(f"uses {self.what}")

    def js_get(self, key):
        raise Untranslatable(f"uses {self.what}")


def _as_kwargs(fn, args):
    """A lone TF.js options object -> keyword arguments, when fn takes them: all its keys are
    fn's parameters, or fn is a layer class (TF.js's constructors take one args object). A null
    or undefined option is left out: TF.js reads it as the default."""
    if len(args) != 1 or not isinstance(args[0], JSObject):
        return None
    try:
        params = inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return None
    named = {n for n, p in params.items() if p.kind not in (p.VAR_KEYWORD, p.VAR_POSITIONAL)}
    keys = [snake(k) for k in args[0]]
    is_layer = isinstance(fn, type) and issubclass(fn, tf.layers.Layer)
    if is_layer or (keys and all(k in named for k in keys)):
        return {snake(k): specs.to_py(v) for k, v in args[0].items() if v is not UNDEF and v is not None}
    return None


def spec_files(src, only=None):
    paths = [p for p in src.list(SPECS, recursive=True) if p.endswith("_test.ts")]
    if only:
        paths = [p for p in paths if any(p == f"{SPECS}/{f}_test.ts" for f in only)]
    return paths


def run_program(program, path, src=None):
    """[(key, status, detail)] for every case of a tfjs-layers spec file's ESTree (src: where
    its helper modules are read, when the spec imports tfjs-layers' own utilities)."""
    name = path.split("tfjs-layers/src/", 1)[-1]
    host = LayersHost(src, path)
    out = []
    try:
        cases = host.collect(program)
    except Untranslatable as exc:
        return [(f"{name} :: (collection)", "untranslatable", f"the file's suites cannot be collected: {exc}")]
    except Exception as exc:  # noqa: BLE001 - pytfweb raising in a suite's own code is a failure
        return [(f"{name} :: (collection)", "failed", f"collecting the suites raised {type(exc).__name__}: {exc}")]
    for cid, case in cases:
        key = f"{name} :: {cid}"
        if key in NOT_APPLICABLE:
            out.append((key, "not applicable", NOT_APPLICABLE[key]))
            continue
        status, detail = host.run_case(case)
        if key in DEVIATIONS:
            reason, text = DEVIATIONS[key]
            status, detail = ("deviation", reason) if status == "failed" and text in detail else \
                ("failed", f"listed deviation ({reason}) no longer shows: {status} {detail}")
        out.append((key, status, detail))
    return out


class Programs:
    """ESTrees by path: recorded from a real source (record=src: each program read is kept), or
    given (in the page, where neither node nor the tfjs tree is at hand)."""

    def __init__(self, programs=None, record=None):
        self.programs = dict(programs or {})
        self.record = record

    def program(self, path):
        if path not in self.programs:
            if self.record is None:
                raise KeyError(path)
            from .converter import program_of
            self.programs[path] = program_of(self.record, path)
        return self.programs[path]


def helper_programs(src, path, program):
    """The ESTrees of the tfjs-layers helper modules a spec file loads (its imports, and
    serialization_utils): what the page needs beside the spec's own."""
    rec = Programs(record=src)
    host = LayersHost(rec, path)
    try:
        host.collect(program)
    except Exception:  # noqa: BLE001 - the page reports the same collection error
        pass
    return {p: t for p, t in rec.programs.items() if p != path}


def run_file(src, path):
    from .converter import program_of
    return run_program(program_of(src, path), path, src)
