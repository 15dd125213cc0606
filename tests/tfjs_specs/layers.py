"""tfjs-layers' own specs (`tfjs-layers/src/**/*_test.ts`, tag tfjs-v4.22.0) run against pytfweb's
layers API (pytfweb.layers, tf.sequential / tf.model / tf.input, pytfweb.train, ...).

The specs run in the shared interpreter (jsinterp.py, jasmine from specs.py) with the names they
import mapped here: `tfl` (tfjs-layers' index) and `tfc` (tfjs-core) are namespaces whose members
are pytfweb's snake_case names (`tfl.layers.dense` -> tf.layers.dense, `tfl.LayersModel` ->
tf.layers.Model), a TF.js option object passed last becomes keyword arguments
(`model.fit(x, y, {batchSize: 2})` -> fit(x, y, batch_size=2)), awaits of pytfweb's coroutines
(fit, train_on_batch, ...) run them, and test_utils' describeMathCPU / describeMathCPUAndGPU /
describeMathCPUAndWebGL2 are describe on the backend of the run (cpu here, the page's GPU backend
in the browser test). A spec importing one of tfjs-layers' internal modules gets pytfweb's
public counterpart where there is one (NAMED below); otherwise the case that uses it is
untranslatable (naming it) or, for TF.js internals with no counterpart, not applicable (why).
"""
import array
import functools
import inspect
import math
import re
import warnings

import pytfweb as tf
from pytfweb.layers.training import get_optimizer
from pytfweb.layers.callbacks import DEFAULT_YIELD_EVERY_MS
from pytfweb.layers.saving import MAX_USER_DEFINED_METADATA_SERIALIZED_LENGTH

from . import specs
from .jsinterp import UNDEF, JSObject, NotApplicable, Settled, Untranslatable, snake

ROOT_DIR = "tfjs-layers/src"

# Whole spec files whose every case checks a TF.js internal pytfweb has no counterpart of.
NOT_APPLICABLE_FILES = {
    "tfjs_backend_test.ts": "tfjs-layers' backend module (K.*: its own tensor utilities over tfjs-core); pytfweb's "
                            "layers call tfjs-core ops directly and export no such module",
    "state_test.ts": "tfjs-layers' uid / name-scope counters (backend/state)",
    "random_seed_test.ts": "tfjs-layers' internal RandomSeed helper class",
    "version_test.ts": "compares tfjs-layers' version string with its package.json",
    "errors_test.ts": "tfjs-layers' own error classes (AttributeError, ...); pytfweb raises Python's",
    "generic_utils_test.ts": "tfjs-layers' generic_utils helpers (pyListRepeat, stringsEqual, ...)",
    "math_utils_test.ts": "tfjs-layers' math_utils helpers (isInteger, arrayProd, range, ...)",
    "types_utils_test.ts": "tfjs-layers' types_utils helpers (getExactlyOneShape, ...)",
    "serialization_utils_test.ts": "tfjs-layers' camelCase <-> snake_case config converters",
    "variable_utils_test.ts": "tfjs-layers' countParamsInWeights helper",
    "executor_utils_test.ts": "tfjs-layers' LruCache helper",
    "dataset_fakes_test.ts": "tfjs-layers' FakeNumericDataset test fixture itself",
    "common_test.ts": "tfjs-layers' nameScope / checkDataFormat helpers",
    "match_all_polyfill_test.ts": "a String.matchAll polyfill for old browsers",
    "types_test.ts": "tfjs-layers' SymbolicTensor constructor internals",
    "random_height_test.ts": "RandomHeight is not exported by tfjs-layers 4.22's public API (exports_layers.ts has "
                             "randomWidth only), and pytfweb has no counterpart",
}

# Names of tfjs-layers' internal modules that its specs test directly; pytfweb's layers have their own
# internals (or none), so a case using one cannot apply.
INTERNALS = {
    "training": "tfjs-layers' internal training helpers (input standardization, metric collection)",
    "training_tensors": "tfjs-layers' internal batching helpers (makeBatches, sliceArraysByIndices)",
    "training_utils": "tfjs-layers' internal sample/class-weight helpers",
    "training_dataset": "tfjs-layers' internal dataset-fit helpers",
    "base_callbacks": "tfjs-layers' internal callback classes (CallbackList, ModelTrainingDataset, ...)",
    "executor": "tfjs-layers' internal symbolic executor (FeedDict, execute)",
    "container": "tfjs-layers' internal Container helpers",
    "topology": "tfjs-layers' internal topology helpers",
    "variables": "tfjs-layers' LayerVariable internals (its own ids, batchGetValue/batchSetValue)",
    "state": "tfjs-layers' uid counters",
    "common": "tfjs-layers' nameScope / data-format helpers",
    "preprocessing_utils": "tfjs-layers' internal preprocessing helpers",
    "user_defined_metadata": "tfjs-layers' internal metadata size check",
    "padding": "tfjs-layers' padding helper functions (spatial2dPadding, temporalPadding)",
    "pooling": "tfjs-layers' pooling helper functions (pool2d, pool3d)",
    "normalization": "tfjs-layers' batch-norm helper functions",
    "recurrent": "tfjs-layers' rnn() loop helper",
    "logs": "tfjs-layers' logs helpers (resolveScalarsInLogs, disposeTensorsInLogs), for callback logs that hold "
            "scalar tensors; pytfweb hands callbacks Python floats, never tensors",
}
# Single internal names of modules whose other names have pytfweb counterparts.
INTERNAL_NAMES = {
    ("wrappers", "checkBidirectionalMergeMode"): "tfjs-layers' internal string-option check of Bidirectional",
}

# Folders of spec files whose every case needs what pytfweb has no counterpart of.
NOT_APPLICABLE_DIRS = {
    "tfjs-layers/src/layers/nlp/":
        "tfjs-layers' nlp module (MultiHeadAttention, EinsumDense, TransformerDecoder, PositionEmbedding, GPT2 "
        "backbone/preprocessor/tokenizer, BytePairTokenizer, StartEndPacker) is not exported by tfjs-layers 4.22's "
        "public API (index.ts / exports_layers.ts), and pytfweb has no counterpart",
}

# Where a spec imports a name from one of tfjs-layers' modules: pytfweb's public counterpart.
NAMED = {
    "SymbolicTensor": lambda: SymbolicTensorJS,
    "LayersModel": lambda: tf.layers.Model,
    "Sequential": lambda: tf.layers.Sequential,
    "sequential": lambda: tf.sequential,
    "model": lambda: tf.model,
    "input": lambda: tf.input,
    "Layer": lambda: tf.layers.Layer,
    "InputLayer": lambda: tf.layers.InputLayer,
    "Node": lambda: tf.layers.Node,
    "deserialize": lambda: _deserialize_layer,
    # tfjs-layers' Container is the graph network its LayersModel extends: pytfweb's Model
    "Container": lambda: ContainerJS,
    # tfjs-layers' RNNCell is a Layer with a stateSize: any pytfweb Layer with state_size is a cell
    "RNNCell": lambda: tf.layers.Layer,
    "Callback": lambda: tf.callbacks.Callback,
    "CustomCallback": lambda: tf.callbacks.CustomCallback,
    # tfjs-layers' version string: the one pytfweb writes into model files as their generator
    "version": lambda: tf.layers.saving.GENERATED_BY.rsplit(" v", 1)[1],
    "modelFromJSON": lambda: _model_from_json,
    "loadLayersModel": lambda: tf.load_layers_model,
}

class _FakeNumericIterator(tf.data.LazyIterator):
    """dataset_fakes.ts's FakeNumericIterator: numBatches batches {xs, ys} of random-normal float32
    values of [batchSize, ...shape], or the tensors the preset functions give (called anew at the
    iterator's first batch), checked against those shapes."""

    def __init__(self, fixture):
        self.fixture, self.count, self.index = fixture, 0, 0
        self.x_values = self.y_values = None
        self.x_batch_shape = _batch_shapes(fixture.batch_size, fixture.x_shape)
        self.y_batch_shape = _batch_shapes(fixture.batch_size, fixture.y_shape)

    async def next(self):
        f = self.fixture
        self.count += 1
        if self.count > f.num_batches:
            return {"value": None, "done": True}
        if f.x_tensors_func is None:
            return {"value": {"xs": _random_normal(self.x_batch_shape), "ys": _random_normal(self.y_batch_shape)},
                    "done": False}
        if (self.count - 1) % f.num_batches == 0:
            self.x_values, self.y_values = to_py(f.x_tensors_func()), to_py(f.y_tensors_func())
            self.index = 0
        index, self.index = self.index, self.index + 1
        return {"value": {"xs": _preset(self.x_values, index, self.x_batch_shape),
                          "ys": _preset(self.y_values, index, self.y_batch_shape)}, "done": False}


def _batch_shapes(batch_size, shape):
    if isinstance(shape, list):
        return [batch_size] + shape
    return {name: [batch_size] + s for name, s in shape.items()}


def _random_normal(shape):
    if isinstance(shape, list):
        return tf.random_normal(shape)
    return {name: tf.random_normal(s) for name, s in shape.items()}


def _preset(values, index, batch_shape):
    if isinstance(values, list):
        out = values[index]
        assert list(out.shape) == list(batch_shape), f"Shape mismatch: expected: {batch_shape}; actual: {out.shape}"
        return out
    out = {}
    for key, seq in values.items():
        out[key] = seq[index]
        want = batch_shape if isinstance(batch_shape, list) else batch_shape[key]
        assert list(out[key].shape) == list(want), f"Shape mismatch: expected: {want}; actual: {out[key].shape}"
    return out


class FakeNumericDataset(tf.data.Dataset):
    """tfjs-layers' spec fixture engine/dataset_fakes.ts FakeNumericDataset, by hand: its classes
    extend tfjs-data's LazyIterator and Dataset (through dataset_stub.ts), and the interpreter does
    not declare JS classes; this is the same fixture over pytfweb's tf.data (size numBatches, the
    same shapes and values, the same checks)."""

    def __init__(self, x_shape, y_shape, batch_size, num_batches, x_tensors_func=None, y_tensors_func=None):
        assert isinstance(batch_size, int) and batch_size > 0, \
            f"batchSize must be a positive integer, but got {batch_size}"
        assert isinstance(num_batches, int) and num_batches > 0, \
            f"numBatches must be positive integer, but got {num_batches}"
        assert (x_tensors_func is None) == (y_tensors_func is None), \
            "presetXTensors and presetYTensors must be both null/undefined or both set."
        self.x_shape, self.y_shape = to_py(x_shape), to_py(y_shape)
        self.batch_size, self.num_batches = batch_size, num_batches
        self.x_tensors_func, self.y_tensors_func = x_tensors_func, y_tensors_func
        super().__init__(lambda: _FakeNumericIterator(self), num_batches)


# Spec fixtures of tfjs-layers (not its API) carried over by hand: (module, name) -> (counterpart, why by hand).
FIXTURES = {
    ("dataset_fakes", "FakeNumericDataset"): (
        FakeNumericDataset, "dataset_fakes.ts declares classes extending tfjs-data's Dataset / LazyIterator"),
    # the size past which save() warns: the warning is public behaviour, the constant's module internal
    ("user_defined_metadata", "MAX_USER_DEFINED_METADATA_SERIALIZED_LENGTH"): (
        MAX_USER_DEFINED_METADATA_SERIALIZED_LENGTH, "pytfweb.layers.saving's constant of that name"),
}


_NS_ALIASES = {"LayersModel": "Model", "loadLayersModel": "load_layers_model", "cropping2D": "cropping2d",
               # a model's weight penalties (tfjs-layers' Container.calculateLosses)
               "calculateLosses": "regularization_losses", "maxNDim": "max_ndim", "minNDim": "min_ndim"}


def SymbolicTensorJS(dtype, shape, source_layer=None, inputs=None, call_args=None, name=None,  # noqa: N802
                     output_tensor_index=0):
    """TF.js's constructor (dtype, shape, sourceLayer, inputs, callArgs, name?, outputTensorIndex?)
    over pytfweb's SymbolicTensor(dtype, shape, source_layer, node_index, tensor_index, name)."""
    return tf.layers.SymbolicTensor(dtype, shape, source_layer, 0, output_tensor_index or 0, name)


SymbolicTensorJS.js_class = tf.layers.SymbolicTensor


class ContainerJS(tf.layers.Model):
    """tfjs-layers' Container (not exported; LayersModel extends it) as pytfweb's Model, whose
    static fromConfig TF.js calls with the class to make: Container.fromConfig(cls, config)."""

    @staticmethod
    def fromConfig(cls, config):  # noqa: N802 - TF.js's name
        return cls.from_config(to_py(ts_to_python(config)))


def _conv_output_length(length, size, padding, stride, dilation=1):
    if length is None:
        return None
    size = size + (size - 1) * (dilation - 1)
    out = length if padding == "same" else length - size + 1
    return (out + stride - 1) // stride


def _array_prod(array, begin=UNDEF, end=UNDEF):
    begin = 0 if begin in (UNDEF, None) else begin
    end = len(array) if end in (UNDEF, None) else end
    return math.prod(array[begin:end]) if end > begin else 1


def _camel(name):
    """tfjs-layers' generic_utils.toCamelCase."""
    return re.sub(r"_+(\w|$)", lambda m: m.group(1).upper(), name)


def _io_name(key, i, item):
    return key in ("inboundNodes", "outputLayers", "inputLayers") and i == 0 and isinstance(item, str)


def python_to_ts(config, key=None):
    """tfjs-layers' convertPythonicToTs, as TF.js's own code (serialization_utils.ts)."""
    if config is None or config is UNDEF:
        return None
    if isinstance(config, str):
        return _camel(config)
    if isinstance(config, (bool, int, float)):
        return config
    if isinstance(config, (list, tuple)):
        return [item if _io_name(key, i, item) else python_to_ts(item, key) for i, item in enumerate(config)]
    out = JSObject()
    for k, v in config.items():
        if k == "name" and isinstance(v, str):
            out[k] = v
        else:
            out[_camel(k)] = python_to_ts(v, _camel(k))
    return out


def ts_to_python(config, key=None):
    """tfjs-layers' convertTsToPythonic, as TF.js's own code (serialization_utils.ts)."""
    if config is None or config is UNDEF:
        return None
    if isinstance(config, str):
        return snake(config)
    if isinstance(config, (bool, int, float)):
        return config
    if isinstance(config, (list, tuple)):
        return [item if _io_name(key, i, item) else ts_to_python(item, key) for i, item in enumerate(config)]
    out = JSObject()
    for k, v in config.items():
        out[snake(k)] = v if k in ("name", "className") and isinstance(v, str) else ts_to_python(v, k)
    return out


# Helpers of tfjs-layers' utils a spec uses to state its expectations (not what it checks).
HELPERS = {
    "arrayProd": _array_prod,
    "getExactlyOneTensor": lambda xs: _exactly_one_tensor(xs),
    "pyListRepeat": lambda value, n: [x for _ in range(n) for x in (value if isinstance(value, list) else [value])],
    "range": lambda begin, end: list(range(begin, end)),
    "unique": lambda xs: xs if xs is None or xs is UNDEF else [x for i, x in enumerate(xs) if x not in xs[:i]],
    "getCartesianProductOfValues": lambda *arrays: _cartesian(arrays),
    "convertTsToPythonic": lambda config, key=UNDEF: ts_to_python(config, None if key is UNDEF else key),
    "convertPythonicToTs": lambda config, key=UNDEF: python_to_ts(config, None if key is UNDEF else key),
    "convOutputLength": lambda length, size, padding, stride, dilation=1: _conv_output_length(length, size, padding,
                                                                                           stride, dilation),
}


def _cartesian(arrays):
    """tfjs-layers' getCartesianProductOfValues: every combination, the last array's values varying slowest."""
    products = []
    for values in arrays:
        products = [[v] for v in values] if not products else [p + [v] for v in values for p in products]
    return products


def _dflt(v, d):
    return d if v is UNDEF or v is None else v


def _channels_last(x, data_format, rank):
    """TF.js layers' channelsFirst input as channels-last (and the permutation back)."""
    if _dflt(data_format, "channelsLast") != "channelsFirst":
        return x, None
    to_last = [0] + list(range(2, rank + 2)) + [1]
    back = [0, rank + 1] + list(range(1, rank + 1))
    return tf.transpose(x, to_last), back


def _conv(rank, x, kernel, bias=None, strides=UNDEF, padding=UNDEF, data_format=UNDEF, dilation=UNDEF,
          activation=None):
    """tfjs-layers' convolutional.ts conv{1,2,3}d[WithBias[Activation]]: its own helpers, each one
    pytfweb op (tf.conv1d/conv2d/conv3d) with its data-format handling around it."""
    strides = _dflt(strides, 1 if rank == 1 else [1] * rank)
    dilation = _dflt(dilation, 1 if rank == 1 else [1] * rank)
    padding = _dflt(padding, "valid")
    x, back = _channels_last(x, data_format, rank)
    op = {1: tf.conv1d, 2: tf.conv2d, 3: tf.conv3d}[rank]
    y = op(x, kernel, strides, padding, {1: "NWC", 2: "NHWC", 3: "NDHWC"}[rank], dilation)
    if bias is not None:
        y = tf.add(y, bias)
    if activation not in (None, UNDEF, "linear"):
        y = tf.layers.activations.get(activation)(y)
    # TF.js's conv1dWithBias leaves its output channels-last; the 2-D and 3-D ones transpose back
    return tf.transpose(y, back) if back and rank > 1 else y


def _depthwise(x, kernel, strides=UNDEF, padding=UNDEF, data_format=UNDEF, dilation=UNDEF):
    x, back = _channels_last(x, data_format, 2)
    y = tf.depthwise_conv2d(x, kernel, _dflt(strides, [1, 1]), _dflt(padding, "valid"), "NHWC",
                            _dflt(dilation, [1, 1]))
    return tf.transpose(y, back) if back else y


def _pool(rank, x, pool_size, strides=UNDEF, padding=UNDEF, data_format=UNDEF, pool_mode=UNDEF):
    x, back = _channels_last(x, data_format, rank)
    strides = _dflt(strides, [1] * rank)
    mode = _dflt(pool_mode, "max")
    op = {(2, "max"): tf.max_pool, (2, "avg"): tf.avg_pool, (3, "max"): tf.max_pool3d,
          (3, "avg"): tf.avg_pool3d}[(rank, mode)]
    y = op(x, pool_size, strides, _dflt(padding, "valid"))
    return tf.transpose(y, back) if back else y


def _temporal_padding(x, padding=UNDEF):
    padding = _dflt(padding, [1, 1])
    return tf.pad(x, [[0, 0], list(padding), [0, 0]])


def _spatial2d_padding(x, padding=UNDEF, data_format=UNDEF):
    padding = _dflt(padding, [[1, 1], [1, 1]])
    if _dflt(data_format, "channelsLast") == "channelsFirst":
        return tf.pad(x, [[0, 0], [0, 0], list(padding[0]), list(padding[1])])
    return tf.pad(x, [[0, 0], list(padding[0]), list(padding[1]), [0, 0]])


def _batch_normalization(x, mean, variance, beta=UNDEF, gamma=UNDEF, epsilon=UNDEF):
    return tf.batch_norm(x, mean, variance, _dflt(beta, None), _dflt(gamma, None), _dflt(epsilon, 1e-3))


# tfjs-layers' own functions in its layer modules (not its public API) whose specs state what the
# layers compute: each is a pytfweb op or two (the shims above), so those cases check pytfweb's ops.
LAYER_FUNCTIONS = {
    ("convolutional", "conv1d"): lambda x, k, *a: _conv(1, x, k, None, *a),
    ("convolutional", "conv2d"): lambda x, k, *a: _conv(2, x, k, None, *a),
    ("convolutional", "conv3d"): lambda x, k, *a: _conv(3, x, k, None, *a),
    ("convolutional", "conv1dWithBias"): lambda x, k, b, *a: _conv(1, x, k, b, *a),
    ("convolutional", "conv2dWithBiasActivation"): lambda x, k, b, *a: _conv(2, x, k, b, *a),
    ("convolutional", "conv3dWithBias"): lambda x, k, b, *a: _conv(3, x, k, b, *a),
    ("convolutional_depthwise", "depthwiseConv2d"): _depthwise,
    ("pooling", "pool2d"): lambda x, *a: _pool(2, x, *a),
    ("pooling", "pool3d"): lambda x, *a: _pool(3, x, *a),
    ("padding", "temporalPadding"): _temporal_padding,
    ("padding", "spatial2dPadding"): _spatial2d_padding,
    ("normalization", "batchNormalization"): _batch_normalization,
    ("initializers", "getInitializer"): lambda: tf.layers.initializers.get,
    ("constraints", "getConstraint"): lambda: tf.layers.constraints.get,
    ("regularizers", "getRegularizer"): lambda: tf.layers.regularizers.get,
    ("activations", "getActivation"): lambda: tf.layers.activations.get,
    ("optimizers", "getOptimizer"): lambda: get_optimizer,
    ("losses", "get"): lambda: tf.layers.losses.get,
    ("metrics", "get"): lambda: tf.layers.metrics.get,
    # TF.js's serializeX gives {className, config} in its camelCase form
    ("initializers", "serializeInitializer"): lambda obj: _serialize(obj),
    ("constraints", "serializeConstraint"): lambda obj: _serialize(obj),
    ("regularizers", "serializeRegularizer"): lambda obj: _serialize(obj),
    # tfjs-layers' LayerVariable makers (the weights its specs hand layers): pytfweb's weights are tf.Variables
    ("variables", "zerosVariable"): lambda shape, dtype=UNDEF, name=UNDEF: _variable(tf.zeros, shape, dtype, name),
    ("variables", "onesVariable"): lambda shape, dtype=UNDEF, name=UNDEF: _variable(tf.ones, shape, dtype, name),
    ("constraints", "deserializeConstraint"): lambda config, *a: _deserialize_layer(config),
    ("regularizers", "deserializeRegularizer"): lambda config, *a: _deserialize_layer(config),
    ("initializers", "deserializeInitializer"): lambda config, *a: _deserialize_layer(config),
    ("activations", "serializeActivation"): lambda fn: getattr(fn, "name", None) or tf.layers.activations.name_of(fn),
}
# the getters above are pytfweb's own functions (returned as they are); the shims are called
_GETTERS = {k for k, v in LAYER_FUNCTIONS.items() if k[1].startswith("get")}


def _variable(make, shape, dtype, name):
    value = make(shape, _dflt(dtype, "float32"))
    try:
        return tf.variable(value, True, _dflt(name, None))
    finally:
        value.dispose()


def _serialize(obj):
    """tfjs-layers' serializeKerasObject: {className, config} in TF.js's form, null for null."""
    return None if obj is None or obj is UNDEF else python_to_ts(tf.layers.config.serialize(obj))


class ActivationJS:
    """tfjs-layers' activation classes (new Relu().apply(x)) over pytfweb's activation functions."""

    def __init__(self, name):
        self.name = name
        self.fn = tf.layers.activations.get(name)

    def apply(self, x, *args):
        return self.fn(x, *[a for a in args if a is not UNDEF])

    def getClassName(self):  # noqa: N802 - TF.js's name
        return type(self).__name__


_ACTIVATION_CLASSES = {"Elu": "elu", "HardSigmoid": "hardSigmoid", "Linear": "linear", "LogSoftmax": "logSoftmax",
                       "Relu": "relu", "Relu6": "relu6", "Selu": "selu", "Sigmoid": "sigmoid", "Softmax": "softmax",
                       "Softplus": "softplus", "Softsign": "softsign", "Tanh": "tanh", "Swish": "swish",
                       "Mish": "mish", "Gelu": "gelu", "GeluNew": "gelu_new"}
def _activation_class(cls_name, name):
    return type(cls_name, (ActivationJS,), {"__init__": lambda self: ActivationJS.__init__(self, name)})


for _cls, _name in _ACTIVATION_CLASSES.items():
    LAYER_FUNCTIONS[("activations", _cls)] = (lambda c: lambda: c)(_activation_class(_cls, _name))
    _GETTERS.add(("activations", _cls))


def _loss_or_metric_name(fn):
    """tfjs-layers' getLossOrMetricName (a name as it is; a function: the name its logs use): pytfweb's
    tf.metrics.name_of, which names a model's metrics."""
    if fn is None or fn is UNDEF:
        raise ValueError(f"Unknown LossOrMetricFn {fn}")
    return fn if isinstance(fn, str) else tf.layers.metrics.name_of(fn)


def _deserializer(module):
    """tfjs-layers' deserializeConstraint / deserializeRegularizer ({className, config} in TF.js's
    form): pytfweb's get of that module, which takes the serialized form."""
    return lambda config, custom_objects=UNDEF: module.get(to_py(ts_to_python(config)))


def _checker(arg):
    """tfjs-layers' checkFanMode / checkDistribution: the check VarianceScaling's constructor makes of
    its mode / distribution (null and undefined: the default), pytfweb's VarianceScaling's own."""
    def check(value=UNDEF):
        if value not in (None, UNDEF):
            tf.layers.initializers.VarianceScaling(**{arg: value})
    return check


LAYER_FUNCTIONS.update({
    ("metrics", "r2Score"): lambda: tf.layers.metrics.r2_score,
    ("metrics", "getLossOrMetricName"): lambda: _loss_or_metric_name,
    ("constraints", "deserializeConstraint"): lambda: _deserializer(tf.layers.constraints),
    ("regularizers", "deserializeRegularizer"): lambda: _deserializer(tf.layers.regularizers),
    # fit_dataset's yield_every 'auto' interval (a spec's fake clock steps around it)
    ("base_callbacks", "DEFAULT_YIELD_EVERY_MS"): lambda: DEFAULT_YIELD_EVERY_MS,
    ("initializers", "checkFanMode"): lambda: _checker("mode"),
    ("initializers", "checkDistribution"): lambda: _checker("distribution"),
    # keras_format's lists of the values TF.js's VarianceScaling takes (pytfweb's takes these spellings too)
    ("initializer_config", "VALID_FAN_MODE_VALUES"): lambda: ["fanIn", "fanOut", "fanAvg"],
    ("initializer_config", "VALID_DISTRIBUTION_VALUES"): lambda: ["normal", "uniform", "truncatedNormal"],
})
_GETTERS.update(k for k in LAYER_FUNCTIONS if k[0] in ("metrics", "constraints", "regularizers", "initializers",
                                                        "initializer_config", "base_callbacks") and k[1] in (
    "DEFAULT_YIELD_EVERY_MS",
    "r2Score", "getLossOrMetricName", "deserializeConstraint", "deserializeRegularizer", "checkFanMode",
    "checkDistribution", "VALID_FAN_MODE_VALUES", "VALID_DISTRIBUTION_VALUES"))


def _median(values):
    ordered = sorted(values)
    low, high = (len(ordered) - 1) // 2, -(-(len(ordered) - 1) // 2)
    return ordered[low] if low == high else (ordered[low] + ordered[high]) / 2


def _variance(values):
    mean = sum(values) / len(values)
    return sum((v - mean) ** 2 for v in values) / len(values)


class _MathUtils:
    """tfjs-layers' utils/math_utils statistics a spec states its expectations with (max, min, mean,
    variance, median of the values a test drew), as TF.js's code computes them."""
    max = staticmethod(lambda values: max(values) if len(values) else math.nan)
    min = staticmethod(lambda values: min(values) if len(values) else math.nan)
    sum = staticmethod(lambda values: sum(values))
    mean = staticmethod(lambda values: sum(values) / len(values))
    variance = staticmethod(_variance)
    median = staticmethod(_median)


def _model_from_json(config, custom_objects=UNDEF):
    """tfjs-layers' modelFromJSON: a model topology (or {modelTopology, ...}) -> a promise of a model
    (a coroutine: awaited, or read with .then as member() settles it)."""
    config = to_py(config)
    if isinstance(config, dict) and ("modelTopology" in config or "model_topology" in config):
        config = config.get("modelTopology", config.get("model_topology"))
    if isinstance(config, dict) and "model_config" in config:
        config = config["model_config"]
    async def made():
        return tf.layers.serialization.model_from_topology(config)
    return made()


def _deserialize_layer(config, custom_objects=UNDEF):
    """tfjs-layers' deserialize: a {className, config} (TF.js's form) of a registered class (a layer,
    model, initializer, constraint or regularizer)."""
    spec = to_py(ts_to_python(config))
    name = spec.get("class_name") if isinstance(spec, dict) else None
    for module in (tf.layers.initializers, tf.layers.constraints, tf.layers.regularizers):
        if name is not None and module.class_for(name) is not None:
            return module.get(spec)
    return tf.layers.serialization.deserialize_layer(spec)


def to_py(v):
    if isinstance(v, JSObject):
        return {k: to_py(x) for k, x in v.items() if x is not UNDEF}
    if isinstance(v, list):
        return [to_py(x) for x in v]
    return v


def py_call(fn, args):
    """Calls pytfweb's fn with TF.js's arguments: undefined ones trailing are left out, and a last
    option object whose keys the function takes becomes keyword arguments (camelCase -> snake)."""
    while args and args[-1] is UNDEF:
        args = args[:-1]
    if getattr(fn, "__name__", None) == "from_config" and inspect.ismethod(fn) and args and args[0] is fn.__self__:
        # TF.js's static fromConfig(cls, config): a classmethod has its class already; the config
        # is TF.js's camelCase form, as the getConfig above gives it
        args = [ts_to_python(args[1]) if type(args[1]) is JSObject else args[1]] + list(args[2:])
    if args and type(args[-1]) is JSObject and not args[-1]:
        args = args[:-1]   # an empty option object: every option at its default
    args = [to_py(a) for a in args]
    if args and type(args[-1]) is dict and not args[-1] and isinstance(getattr(fn, "__self__", None), tf.layers.Model):
        args = args[:-1]   # a model method's empty options object (evaluateDataset(ds, {})): every option its default
    kwargs = {}
    if args and isinstance(args[-1], dict) and not isinstance(args[-1], tf.Tensor):
        try:
            params = inspect.signature(fn).parameters
        except (TypeError, ValueError):
            params = None
        if params is not None:
            keys = [tf.layers._utils.option_name(k) for k in args[-1]]
            var_kw = any(p.kind is p.VAR_KEYWORD for p in params.values())
            named = [n for n, p in params.items() if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
            later = named[len(args) - 1:]
            if keys and all(k in later or (var_kw and k not in named[:len(args) - 1]) for k in keys):
                # TF.js reads its options with `== null`: a null option is the default
                option = tf.layers._utils.option_name
                kwargs = {option(k): v for k, v in args[-1].items()
                          if v is not None or option(k) in tf.layers._utils.NULL_IS_A_VALUE}
                args = args[:-1]
    args = [None if a is UNDEF else a for a in args]
    return fn(*args, **kwargs)


_JS_NAMED = {}


def _js_named(fn, name):
    """fn under the name TF.js's function has (a spec may read `tfl.layers.simpleRNN.name`); one
    wrapper per function and name, so the same member is the same object each time."""
    key = (fn, name)
    if key not in _JS_NAMED:
        @functools.wraps(fn)
        def named(*args, **kwargs):
            return fn(*args, **kwargs)
        named.__name__ = name
        _JS_NAMED[key] = named
    return _JS_NAMED[key]


class Namespace:
    """A TF.js namespace (tfl, tfl.layers, tfc, ...) over Python objects: camelCase members resolve
    to their snake_case names, searched in order."""

    def __init__(self, label, *targets, aliases=None):
        self.label, self.targets, self.aliases = label, targets, aliases or {}

    def js_get(self, key):
        # the exact name in every target first: tfl.Sequential is the class, tfl.sequential the factory
        for name in (self.aliases.get(key), _NS_ALIASES.get(key), key, snake(key)):
            for target in self.targets:
                if name and hasattr(target, name):
                    v = getattr(target, name)
                    if inspect.ismodule(v):
                        return Namespace(f"{self.label}.{key}", v)
                    return _js_named(v, key) if inspect.isfunction(v) and v.__name__ != key else v
        if key in NAMESPACE_EXTRAS:
            return NAMESPACE_EXTRAS[key]
        raise Untranslatable(f"{self.label}.{key} (no pytfweb counterpart found)")


def _l2_normalize(x, axis=UNDEF):
    """tfjs-layers' losses.l2Normalize: x / sqrt(max(sum(x^2, axis), epsilon))."""
    axis = None if axis is UNDEF else axis
    return tf.tidy(lambda: tf.div(x, tf.sqrt(tf.maximum(tf.sum(tf.square(x), axis, True),
                                                        tf.layers._utils.epsilon()))))


def _exactly_one_tensor(xs):
    if isinstance(xs, list):
        if len(xs) != 1:
            raise ValueError(f"Expected Tensor length to be 1; got {len(xs)}")
        return xs[0]
    return xs


# Members of tfjs-layers' namespaces with a pytfweb counterpart under another name (or a composition).
NAMESPACE_EXTRAS = {
    "modelFromJSON": lambda *a: _model_from_json(*a),
    "l2Normalize": _l2_normalize,
    "getInitializer": lambda identifier: tf.layers.initializers.get(to_py(identifier)),
    # tfjs-layers' losses helper binaryCrossentropy uses (not its API): pytfweb's binary_crossentropy's own
    "sigmoidCrossEntropyWithLogits": lambda labels, logits: tf.layers.losses._sigmoid_cross_entropy_with_logits(
        labels, logits),
}


class _TflExtra:
    SymbolicTensor = staticmethod(SymbolicTensorJS)
    # tfjs-layers exports its callback classes at the top (tfl.Callback); pytfweb under tf.callbacks
    Callback = tf.callbacks.Callback
    CustomCallback = tf.callbacks.CustomCallback


TFL_EXTRA = _TflExtra()


class Missing:
    """A name a spec imports from a tfjs-layers module pytfweb has no counterpart of: using it makes
    the case untranslatable (or not applicable), naming it."""

    def __init__(self, what, not_applicable=None):
        self.what, self.not_applicable = what, not_applicable

    def _stop(self):
        if self.not_applicable:
            raise NotApplicable(self.not_applicable)
        raise Untranslatable(f"uses {self.what}")

    def __call__(self, *a):
        self._stop()

    def js_get(self, key):
        self._stop()

    def js_set(self, key, value):
        # `MyLayer.className = ...` after the spec's own class: the class itself is what stops a case
        pass

    def _arith(self, *a):
        self._stop()

    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = __truediv__ = __rtruediv__ = _arith
    __lt__ = __le__ = __gt__ = __ge__ = _arith


def _values(x):
    if isinstance(x, tf.Tensor):
        return x
    return x


class ErrorMessage(str):
    """err.message of an error a spec caught, or a warning's text a console.warn spy received:
    TF.js's wording is not pytfweb's (whose messages name op, argument and expectation in its own
    words), so a matcher on it checks that there was an error or warning to read, as toThrowError
    does (and as runtime.py's expect_message does for tfjs-core)."""


_TEXT_MATCHERS = ("toEqual", "toBe", "toMatch", "toContain")


class LayersHost(specs.Host):
    """The names a tfjs-layers spec sees."""

    def __init__(self):
        super().__init__()
        self._patches = []   # (object, attribute, whether it was its own, the original) of spyOn

    # ---- the spec's own classes (jsinterp.JSClassMaker): TF.js's hooks as pytfweb's ----------------------
    def class_base(self, parent):
        if isinstance(parent, Missing):
            parent._stop()
        return super().class_base(parent)

    def unmade_class(self, name, exc):
        # the cases that use the class are untranslatable (or not applicable), the file's others run
        return Missing(f"the spec's own class {name}: {exc}",
                       str(exc) if isinstance(exc, NotApplicable) else None)

    def js_init_args(self, cls, args, kwargs):
        # pytfweb makes a layer or model of the spec's class (from_config) with the Python base's
        # arguments: TF.js's constructor takes them as one args object, camelCase
        base = next(c for c in cls.__mro__ if getattr(c, "js_class", None) is not c)
        try:
            bound = inspect.signature(base.__init__).bind_partial(None, *args, **kwargs).arguments
        except TypeError:
            return args + ([JSObject((_camel(k), v) for k, v in kwargs.items())] if kwargs else [])
        params = inspect.signature(base.__init__).parameters
        options = {}
        for i, (k, v) in enumerate(bound.items()):
            if i == 0:
                continue   # self
            if params[k].kind is inspect.Parameter.VAR_KEYWORD:
                options.update(v)
            else:
                options[k] = v
        return [JSObject((_camel(k), v) for k, v in options.items())] if options else []

    def call_super_init(self, init, args):
        if args and isinstance(args[-1], JSObject) and not args[-1]:
            args = args[:-1]   # `super({})`: TF.js's args object with no option set
        return self.call(init, args)

    def js_method_args(self, key, args, kwargs):
        if key == "call":
            # pytfweb's call(inputs, training, **kwargs) is TF.js's call(inputs, kwargs)
            kw = dict(kwargs)
            if len(args) > 1:
                kw["training"] = args[1]
            return [js_value(args[0]), JSObject((_camel(k), js_value(v)) for k, v in kw.items())]
        return [js_value(a) for a in args] + \
            ([JSObject((_camel(k), js_value(v)) for k, v in kwargs.items())] if kwargs else [])

    def js_method_result(self, key, value):
        if key == "getConfig":   # TF.js's camelCase config, as pytfweb's get_config gives it
            return to_py(ts_to_python(value))
        return to_py(value)

    def import_name(self, source, imported, kind):
        if source == "@tensorflow/tfjs-core":
            if kind == "ImportNamespaceSpecifier":
                return Namespace("tfc", tf, tf.layers)
            return self.core_export(imported)
        base = source.rsplit("/", 1)[-1]
        if kind == "ImportNamespaceSpecifier" and base in ("index", "exports", "exports_layers"):
            return Namespace("tfl", TFL_EXTRA, tf, tf.layers, aliases=_NS_ALIASES)
        if kind == "ImportNamespaceSpecifier" and source.endswith("utils/math_utils"):
            return Namespace("math_utils", _MathUtils)
        if kind == "ImportNamespaceSpecifier" and base == "tfjs_backend":
            return Missing("tfjs-layers' backend module K", NOT_APPLICABLE_FILES["tfjs_backend_test.ts"])
        if base == "test_utils":
            return {"describeMathCPU": self.describe, "describeMathCPUAndGPU": self.describe,
                    "describeMathCPUAndWebGL2": self.describe, "describeMathGPU": self.describe,
                    "describeMathWebGL2": self.describe,
                    "expectTensorsClose": self.expect_tensors_close,
                    "expectTensorsValuesInRange": self.expect_in_range,
                    "expectNoLeakedTensors": self.expect_no_leak}.get(imported) or \
                Missing(f"test_utils.{imported}")
        if (base, imported) in FIXTURES:
            return FIXTURES[(base, imported)][0]
        if (base, imported) in LAYER_FUNCTIONS:
            fn = LAYER_FUNCTIONS[(base, imported)]
            return fn() if (base, imported) in _GETTERS else fn
        if imported in NAMED:
            return NAMED[imported]()
        if imported in HELPERS and "/utils/" in source:
            return HELPERS[imported]
        if kind == "ImportSpecifier" and imported and imported[:1].isupper():
            # a class of tfjs-layers (Dense, GlorotUniform, L1L2, ...): pytfweb's of that name
            for mod in (tf.layers, tf.layers.initializers, tf.layers.constraints, tf.layers.regularizers, tf,
                        tf.callbacks):
                for name in (imported, snake(imported)):
                    if hasattr(mod, name):
                        return getattr(mod, name)
        if kind == "ImportNamespaceSpecifier" and base in ("initializers", "regularizers", "constraints", "losses",
                                                          "metrics", "activations", "optimizers"):
            return Namespace(base, getattr(tf.layers, base, None) or getattr(tf, base))
        if (base, imported) in INTERNAL_NAMES:
            return Missing(f"{imported} from '{source}'", f"{INTERNAL_NAMES[(base, imported)]}: {imported}")
        if kind == "ImportSpecifier" and base == "metrics" and hasattr(tf.metrics, snake(imported)):
            return getattr(tf.metrics, snake(imported))   # r2Score -> tf.metrics.r2_score
        if base in INTERNALS and "@tensorflow" not in source:
            return Missing(f"{imported or '*'} from '{source}'", f"{INTERNALS[base]}: {imported or '*'}")
        return Missing(f"{imported or '*'} from '{source}'")

    def core_export(self, name):
        if name == "test_util":
            return self.test_util
        for n in (name, snake(name)):
            if hasattr(tf, n):
                return getattr(tf, n)
        if name in ("memory",):
            return tf.memory
        return Missing(f"{name} from tfjs-core")

    # ---- tfjs-layers' test_utils -----------------------------------------------------------------------
    def expect_tensors_close(self, actual, expected, epsilon=UNDEF):
        """tfjs-layers' expectTensorsClose: same shape (when both are tensors), values within epsilon
        (default: tfjs-core's testEpsilon)."""
        actual, expected = specs.run_awaitable(actual), specs.run_awaitable(expected)
        if actual is None or expected is None or actual is UNDEF or expected is UNDEF:
            raise AssertionError("expectTensorsClose: a missing tensor")
        if isinstance(actual, tf.Tensor) and isinstance(expected, tf.Tensor):
            assert list(actual.shape) == list(expected.shape), \
                f"expectTensorsClose: shape {list(actual.shape)} != expected {list(expected.shape)}"
        self.test_util.expectArraysClose(actual, expected, epsilon)

    def expect_in_range(self, actual, low, high):
        vals = specs._flat(actual)
        self.note_check()
        bad = [v for v in vals if not (low <= v <= high)]
        assert not bad, f"expectTensorsValuesInRange: {bad[:5]} outside [{low}, {high}]"

    def expect_no_leak(self, fn, num_new=0):
        """test_utils' expectNoLeakedTensors: the second run of fn makes exactly num_new tensors."""
        self.interp.call(fn, [])
        before = tf.memory().num_tensors
        self.interp.call(fn, [])
        self.note_check()
        made = tf.memory().num_tensors - before
        assert made == num_new, f"expectNoLeakedTensors: {made} new tensors, expected {num_new}"

    # ---- interpreter hooks -----------------------------------------------------------------------------
    def member(self, obj, key):
        if isinstance(obj, Namespace):
            return obj.js_get(key)
        if isinstance(obj, BaseException) and key == "message":
            return ErrorMessage(str(obj))
        if isinstance(obj, specs.Expectation) and isinstance(obj.value, ErrorMessage) and key in _TEXT_MATCHERS:
            return lambda *expected: obj.host.note_check()
        if isinstance(obj, specs.Expectation):
            # matchers take undefined as a value (toEqual(undefined)): called as they are
            return obj.not_ if key == "not" else getattr(obj, key)
        if key in ("then", "catch") and inspect.isawaitable(obj):
            return Settled.of(self.interp, lambda: obj).js_get(key)
        if key == "message" and isinstance(obj, Exception) and not hasattr(obj, "js_get"):
            return str(obj)   # a Python exception caught by the spec: Error.message
        if key == "getConfig" and hasattr(obj, "get_config") and not isinstance(obj, type):
            # TF.js's getConfig gives camelCase keys and values (dataFormat: 'channelsFirst'); pytfweb's
            # get_config gives the Keras form that TF.js writes to model files (README, deviations)
            return lambda: python_to_ts(obj.get_config())
        if key == "platform" and type(obj).__name__ == "Environment":
            raise NotApplicable("stubs TF.js's platform (env().platform.fetch serving model files from a spy); "
                                "pytfweb's io has its own fetch, which a TF.js spy cannot replace")
        if key in ("setCallHook", "clearCallHook") and isinstance(obj, tf.layers.Layer):
            raise NotApplicable("sets a layer's call hook, which TF.js documents as for its own tests only; "
                                "pytfweb's layers have none")
        if key == "read" and isinstance(obj, tf.Variable):
            return lambda: obj   # TF.js's LayerVariable.read(): pytfweb's weights are the variables themselves
        if key == "stopTraining" and hasattr(obj, "stop_training"):
            # TF.js leaves the flag undefined until something sets it; pytfweb's starts False: same meaning
            return UNDEF if obj.stop_training is False else obj.stop_training
        if key == "toJSON" and hasattr(obj, "to_json"):
            # TF.js's toJSON(unused?, returnString = true)
            return lambda unused=UNDEF, return_string=UNDEF: js_value(
                obj.to_json(True if return_string in (UNDEF, None) else return_string))
        if key == "name" and (isinstance(obj, type) or inspect.isroutine(obj)):
            return getattr(obj, "__name__", "")
        if isinstance(obj, tf.layers.SymbolicTensor) and key in ("inputs", "sourceLayer", "nodeIndex",
                                                                  "outputTensorIndex", "callArgs"):
            return symbolic_member(obj, key)
        if isinstance(obj, tf.Tensor) and key in ("shape", "dtype", "rank", "size", "id", "dataId", "isDisposed"):
            return specs.tensor_member(obj, key)
        if hasattr(obj, "js_get") and not isinstance(obj, (tf.Tensor,)):
            return obj.js_get(key)
        if isinstance(key, (int, float)) and hasattr(obj, "__getitem__"):
            return specs.to_js(obj[int(key)])
        for name in (key, snake(key), _NS_ALIASES.get(key)):
            # (a property that raises, as layer.input of a layer applied twice, raises here too)
            if name and (hasattr(obj, name) or inspect.getattr_static(obj, name, None) is not None):
                v = getattr(obj, name)
                if inspect.ismodule(v):
                    return Namespace(key, v)
                return bound(v) if inspect.isroutine(v) else js_value(v)
        if isinstance(obj, tf.Tensor):
            raise Untranslatable(f"Tensor.{key}")
        raise Untranslatable(f"{type(obj).__name__}.{key}")

    def set_member(self, obj, key, value):
        if hasattr(obj, "js_set"):
            return obj.js_set(key, value)
        name = snake(key)
        if hasattr(obj, name) and not callable(getattr(obj, name)):
            try:
                setattr(obj, name, to_py(value))
                return None
            except AttributeError:
                pass
        raise Untranslatable(f"setting {type(obj).__name__}.{key}")

    def call(self, fn, args):
        if isinstance(getattr(fn, "__self__", None), specs.Expectation):
            return fn(*args)   # expect(x).toEqual(undefined) compares with undefined
        if getattr(fn, "js_bound", False):
            return fn(*args)
        return to_js_out(py_call(fn, args))

    def construct(self, cls, args, n):
        if cls is tf.layers.Node:
            raise NotApplicable("constructs tfjs-layers' Node (an internal class of its graph, not exported by "
                                "its public API) from its NodeArgs")
        if cls is specs.JSError:
            return specs.JSError(*args)
        if isinstance(cls, Missing):
            cls._stop()
        if args and isinstance(args[-1], JSObject) and not args[-1]:
            args = args[:-1]   # `new InputSpec({})`: TF.js's args object with no option set
        if isinstance(cls, type) or hasattr(cls, "js_class") or inspect.isfunction(cls):
            # a pytfweb factory may stand for a TF.js class (GlorotUniform -> glorot_uniform's maker)
            return py_call(cls, args)
        raise Untranslatable(f"new {n['callee'].get('name', '?')}")

    def describe(self, name, fn):
        """describe, where a failure while collecting (the body reaches an API it cannot carry over)
        becomes one case of that suite with the failure, and the file's other suites still run."""
        self.suite = specs.Suite(name, self.suite)
        try:
            self.interp.call(fn, [])
        except Exception as exc:  # noqa: BLE001 - reported as the suite's case, by its kind
            def rethrow(exc=exc):
                raise exc
            self.cases.append(specs.Case("(collecting the suite's cases)", self.suite, rethrow))
        finally:
            self.suite = self.suite.parent

    def object_member(self, obj, key):
        # a pytfweb config (snake_case keys) read under TF.js's camelCase names
        if isinstance(key, str) and snake(key) in obj:
            return obj[snake(key)]
        return super().object_member(obj, key)

    def instance_of(self, v, cls):
        cls = getattr(cls, "js_class", cls)
        return super().instance_of(v, cls)

    def global_name(self, name):
        if name == "tf":
            return Namespace("tf", tf)
        if name == "Date":
            return JSDate
        if name == "jasmine":
            return _LayersJasmine(self.interp)
        return super().global_name(name)

    # ---- jasmine spies on pytfweb's objects ----------------------------------------------------------------
    def spy_on(self, obj, name):
        """spyOn(obj, 'm'): obj's snake_case attribute is a spy for the case's duration (pytfweb's
        engine calls it there, as TF.js's calls the spied method); console's methods too, where
        pytfweb's warnings reach console.warn (_run_with_warnings)."""
        if isinstance(obj, Namespace) or inspect.ismodule(obj) or obj is None or obj is UNDEF:
            return super().spy_on(obj, name)
        if isinstance(obj, specs.JSConsole) and name != "warn":
            # a spy pytfweb never calls would make the case fail (or pass) for nothing
            raise NotApplicable(f"spies on console.{name}, which pytfweb's output does not go through (it "
                                "prints with Python's print; summary() prints Keras 3's table, README)")
        attr = name if hasattr(obj, name) else snake(name)
        if not hasattr(obj, attr):
            raise Untranslatable(f"spyOn of {type(obj).__name__}.{name}, which pytfweb's has not")
        had = attr in getattr(obj, "__dict__", {})
        original = getattr(obj, attr)
        spy = specs.JasmineSpy(self.interp, name, original)
        setattr(obj, attr, spy)
        self._patches.append((obj, attr, had, original))
        return spy

    def run_case(self, case):
        import sys
        self._patches = []
        try:
            status, detail = self._run_with_warnings(case)
            if status == "failed" and "is only available in the browser (Pyodide)" in detail and \
                    sys.platform != "emscripten":
                # translated, and run in the page (tests/browser/test_tfjs_layers_specs.py): not here
                return "skipped", ("saves to the browser's storage (localstorage://, indexeddb://), which "
                                   "CPython has not; it runs in the page")
            return status, detail
        finally:
            for obj, attr, had, original in reversed(self._patches):
                if had:
                    setattr(obj, attr, original)
                else:
                    delattr(obj, attr)
            self._patches = []

    def _run_with_warnings(self, case):
        # TF.js's console.warn is pytfweb's warnings.warn: each warning of the case (not only the
        # first from a place, Python's default) goes to console.warn, a spy if the case put one there
        with warnings.catch_warnings():
            warnings.simplefilter("always")

            def show(message, category, filename, lineno, file=None, line=None):
                self.console.warn(ErrorMessage(str(message)))
            warnings.showwarning = show
            return super().run_case(case)


class _LayersJasmine(specs.Jasmine):
    """jasmine, whose createSpy makes a spy pytfweb can call (a dropoutFunc, a callback)."""

    def __init__(self, interp):
        self.interp = interp

    def js_get(self, key):
        if key == "createSpy":
            return lambda name="", *a: specs.JasmineSpy(self.interp, name)
        return super().js_get(key)


def symbolic_member(t, key):
    """TF.js's SymbolicTensor fields from pytfweb's (the inputs are those of the node that made it)."""
    if key == "sourceLayer":
        return t.source_layer
    if key in ("nodeIndex",):
        return t.node_index
    if key == "outputTensorIndex":
        return t.tensor_index
    if key == "callArgs":
        raise Untranslatable("SymbolicTensor.callArgs")
    layer = t.source_layer
    if layer is None or not layer.inbound_nodes:
        return []
    return list(layer.inbound_nodes[t.node_index].input_tensors)


class JSDate:
    """JavaScript's Date, as far as specs time their callbacks (Date.now())."""

    @staticmethod
    def js_get(key):
        if key in ("now", "getTime"):   # Date.now(), new Date().getTime()
            import time
            return lambda: time.time() * 1000
        raise Untranslatable(f"Date.{key}")


def bound(fn):
    def call(*args):
        return to_js_out(py_call(fn, list(args)))
    call.js_bound = True
    return call


def to_js_out(out):
    if hasattr(out, "__await__"):
        async def later():
            return js_value(await out)
        return later()
    return js_value(out)


def js_value(v):
    """specs.to_js, with Python dicts (configs, logs) as JS objects readable under camelCase keys."""
    if type(v) is dict:   # a JavaScript object's keys are strings ({1: 2} is {'1': 2})
        return JSObject((str(k) if isinstance(k, int) and not isinstance(k, bool) else k, js_value(x))
                        for k, x in v.items())
    if type(v) is list:
        return [js_value(x) for x in v]
    if isinstance(v, array.array):  # data_sync's typed array
        return v.tolist()
    return specs.to_js(v)


# ---- running ------------------------------------------------------------------------------------------

# Cases by "<spec file name> :: <case id>", with why they cannot apply.
NOT_APPLICABLE = {}
# Where pytfweb deviates on purpose (README, 'Deviations from TF.js'): the case must fail with this text.
_WEIGHTED = ("fit's metrics are weighted by sample and class weights (Keras's weighted Mean metrics), where TF.js "
             "4.22 weights only the loss")
_MULTI_OUTPUT_VAL = ("fit_dataset's val_ values of a model with several outputs are each output's own loss and metric "
                     "under its name, where TF.js 4.22's test function hands them over shifted (its val_loss is the "
                     "first output's loss, the first output's val loss is the total, ...)")
DEVIATIONS = {
    **{f"training_weighted_test.ts :: LayersModel.fit() with classWeight > One output, multi-class, one-hot "
       f"encoding{suffix}": (_WEIGHTED, "to be close to") for suffix in ("", ", batchSize = 2", ", validationData",
                                                                         ", validationSplit")},
    **{f"training_dataset_test.ts :: LayersModel.fitDataset > 1 input, 2 outputs, 1 metric, tensor array validation, "
       f"{suffix}": (_MULTI_OUTPUT_VAL, "to be close to") for suffix in ("with batchesPerEpoch", "no batchesPerEpoch")},
    "initializers_test.ts :: Constant initializer > 1D, from builder function: passing a direct value throws error":
        ("tf.initializers.constant(value) takes the value itself as well as {value}, where TF.js takes only "
         "the options object", "to throw"),
    **{f"topology_test.ts :: Layer > initialized to its defaults > {name}": (
        "a layer's dtype is 'float32' unless given, where TF.js leaves a layer made without an input shape or "
        "dtype undefined until it is applied", "expected 'float32' to be undefined")
       for name in ("has an undefined dtype.",)},
    "topology_test.ts :: Layer > apply() passed >1 SymbolicTensor > throws an exception for multiple symbolic inputs.":
        ("the base Layer applied to several SymbolicTensors returns one output per input (as its call returns "
         "its inputs), where TF.js 4.22 throws (a TODO of its spec)", "to throw"),
    "container_test.ts :: Container > call() executes all layers.":
        ("a model's call returns the output itself when the model has one (tf.keras's Model.call), where TF.js's "
         "returns a list of one", "shape [3, 2] != expected [1, 3, 2]"),
    "merge_test.ts :: Add Layer: Tensor > computeMask":
        ("a merge layer's compute_mask is the inputs' masks and-ed, of the masks' shape (Keras's), where TF.js "
         "4.22 gives them a leading unit axis ([1, batch]) it never reduces", "shape [2] != expected [1, 2]"),
    "regularizers_test.ts :: Built-in Regularizers > Using number arg for constructor leads to error":
        ("tf.regularizers.l1(0.1) / l2(0.1) take the factor itself as well as {l1} / {l2}, where TF.js takes "
         "only the options object", "to throw"),
}

STATUSES = ("passed", "deviation", "failed", "skipped", "no check", "not applicable", "untranslatable")


# The files that map most directly onto pytfweb's layers API (ISSUE 31's order), what
# `python -m tests.tfjs_specs.coverage --layers` runs without --all.
FILES = ["layers/core", "activations", "initializers", "constraints", "regularizers", "losses", "metrics",
         "layers/convolutional", "layers/pooling", "layers/merge", "layers/normalization"]


def spec_files(src, only=None):
    """The spec files under tfjs-layers/src (only: paths under it without _test.ts)."""
    paths = [p for p in src.list(ROOT_DIR, recursive=True) if p.endswith("_test.ts")]
    if only:
        paths = [p for p in paths if any(p == f"{ROOT_DIR}/{f}_test.ts" for f in only)]
    return paths


def program_of(src, path):
    from .source import estree
    return estree(src.read(path), path)


def run_file(src, path, backend="cpu"):
    """[(key, status, detail)] for every case of a spec file, also recorded for `pytfweb ops --specs`."""
    results = run_program(program_of(src, path), path) if file_reason(path) is None else \
        whole_file_not_applicable(src, path)
    save(path, results, backend)
    return results


def save(path, results, backend="cpu"):
    """The file's cases in build/specs/layers as `pytfweb ops --specs` reads them (coverage.record)."""
    from .coverage import record
    record("layers", path, results, backend)


def file_reason(path):
    """Why a whole spec file cannot apply, or None."""
    name = path.rsplit("/", 1)[-1]
    if name in NOT_APPLICABLE_FILES:
        return NOT_APPLICABLE_FILES[name]
    for folder, reason in NOT_APPLICABLE_DIRS.items():
        if path.startswith(folder):
            return reason
    return None



def whole_file_not_applicable(src, path):
    """The cases of a file listed in NOT_APPLICABLE_FILES, counted (collected, not run)."""
    name = path.rsplit("/", 1)[-1]
    host = LayersHost()
    try:
        cases = host.collect(program_of(src, path))
    except Exception:  # noqa: BLE001 - collecting may touch the internal module the file is about
        cases = []
    if len(cases) < len(_count_its(src.read(path))):   # a suite that could not be collected: count its it()s
        cases = [(c, None) for c in _count_its(src.read(path))]
    return [(f"{name} :: {cid}", "not applicable", file_reason(path)) for cid, _ in cases]


def _count_its(text):
    import re
    return [m.group(1) for m in re.finditer(r"\bit\(\s*['\"`]([^'\"`]*)", text)]


def run_program(program, path):
    """[(key, status, detail)] for every case of a spec file's ESTree, the hand tables applied.
    Pure Python over pytfweb: the browser test runs it in the page as it is."""
    name = path.rsplit("/", 1)[-1]
    host = LayersHost()
    try:
        cases = host.collect(program)
    except (Untranslatable, NotApplicable) as exc:
        return [(f"{name} :: (file)", "untranslatable", f"collecting the file's cases: {exc}")]
    out = []
    for cid, case in cases:
        key = f"{name} :: {cid}"
        if key in NOT_APPLICABLE:
            out.append((key, "not applicable", NOT_APPLICABLE[key]))
            continue
        status, detail = run_case(host, case)
        if key in DEVIATIONS:
            reason, text = DEVIATIONS[key]
            status, detail = ("deviation", reason) if status == "failed" and text in detail else \
                ("failed", f"listed deviation ({reason}) no longer shows: {status} {detail}")
        out.append((key, status, detail))
    return out


CASE_SECONDS = 60


def run_case(host, case):
    """host.run_case with fit's progress lines kept out of the report, and, in CPython, a case that
    waits for something that never comes (a TF.js timer or frame) stopped after CASE_SECONDS."""
    import contextlib
    import io
    import signal
    import sys
    alarm = sys.platform != "emscripten" and hasattr(signal, "SIGALRM")
    if alarm:
        def stop(*_):
            raise TimeoutError(f"the case did not finish in {CASE_SECONDS} s")
        previous = signal.signal(signal.SIGALRM, stop)
        signal.alarm(CASE_SECONDS)
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            return host.run_case(case)
    finally:
        if alarm:
            signal.alarm(0)
            signal.signal(signal.SIGALRM, previous)

