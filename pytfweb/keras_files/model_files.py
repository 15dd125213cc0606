"""Keras model files without TensorFlow: Keras 3 `.keras` archives and legacy `.h5` files.

    load_keras_model(path)          a pytfweb model from a .keras or .h5 (.hdf5) file
    save_keras(model, path)         a .keras file (Keras 3's layout) or a .h5 file (the legacy one), by extension
    keras_config_to_topology(cfg)   a Keras 3 or tf.keras 2 model config -> the topology TF.js writes in model.json
    keras_config(model)             a pytfweb model -> the Keras 3 config (config.json of a .keras file)

Layouts (what Keras 3.x writes, and so what is read and written here):
- `.keras`: a zip of config.json (the model config, Keras 3 style: "module", "registered_name",
  "build_config", DTypePolicy dicts, inbound nodes as {"args": [keras tensors], "kwargs": {}}),
  metadata.json ({"keras_version", "date_saved"}) and model.weights.h5, whose weights sit at
  layers/<snake class name>[_<n>]/vars/<i>, named by the Python class and counted per class in
  model.layers order (not by layer name); a layer's parts nest below it (an RNN's cell/,
  Bidirectional's forward_layer/ and backward_layer/, TimeDistributed's layer/, a nested model's
  layers/); the optimizer's state, when there is one, is under optimizer/vars.
- `.h5`: HDF5 root attributes model_config (JSON), keras_version, backend and optional
  training_config; group model_weights/<layer name>/ with the attribute weight_names, each name the
  path of a dataset below that group, in the order of layer.trainable_weights +
  layer.non_trainable_weights (Keras's order, for nested models too).

Keras 3 configs are translated to TF.js's (tf.keras 2) topology and built by
serialization.model_from_topology; the weights go onto layer.weights in order, each checked for
shape and kind before any is assigned. Files are data: no pickle, no eval, no code. A Lambda layer
or an unknown class is an error, and so is an option pytfweb cannot honour (Conv2D's groups, Keras 3's hard_sigmoid, which is not TF.js's). h5py is needed (CPython); Pyodide
has none, so there convert first with `pytfweb convert`.
"""
import datetime
import inspect
import io
import json
import os
import re
import secrets
import warnings
import zipfile
import zlib
from typing import Any, Optional, Union

from .. import layers as _layers  # noqa: F401 - imports every layer module
from .. import train
from ..core._numpy import np as _NUMPY
from ..core.api import make_tensor
from ..core.environment import ENV
from ..core.limits import check_depth, load_json
from ..layers import losses
from ..layers import metrics as _m
from ..layers import serialization as _ser
from ..layers._utils import snake
from ..layers.activations import ACTIVATIONS
from ..layers.engine import Layer
from ..layers.models import Model, Sequential, register_keras_saver
from ..layers.recurrent import RNN, StackedRNNCells
from ..layers.serialization import _REGISTERED
from ..layers.wrappers import Bidirectional, TimeDistributed
from ..io.router import IN_BROWSER

# The Keras release whose file layout this module reads and writes (and tests against).
KERAS_FORMAT_VERSION = "3.15.1"
KERAS_SUFFIXES = (".keras",)
H5_SUFFIXES = (".h5", ".hdf5")
_HDF5_MAGIC = b"\x89HDF\r\n\x1a\n"
_ZIP_MAGIC = b"PK\x03\x04"
# Keras splits attributes above HDF5's object header limit into name0, name1, ...
_HDF5_OBJECT_HEADER_LIMIT = 64512
# A .keras archive is data from a stranger: its members are inflated in chunks of _ZIP_READ_CHUNK and
# counted as they come, whatever the zip headers say. config.json and metadata.json may inflate to
# _JSON_MEMBER_LIMIT bytes; model.weights.h5 to what the built model's weights take as stored (times
# 1 + _OPTIMIZER_COPIES when compiled: Adam with amsgrad keeps 3 slots a weight, EMA one more), plus
# HDF5's overhead (about 2 kB a group and 0.5 kB a dataset in Keras's files, allowed 4 times over);
# and no member more than the tf.env() flag MAX_ARCHIVE_MEMBER_BYTES.
_ZIP_READ_CHUNK = 1 << 20
_JSON_MEMBER_LIMIT = 64 << 20
_OPTIMIZER_COPIES = 4
_WIDE_DTYPES = ("float64", "double", "int64", "uint64")
_H5_OVERHEAD = 1 << 20
_H5_GROUP_OVERHEAD = 8 << 10
_H5_DATASET_OVERHEAD = 2 << 10
# A chunked dataset's chunk is read whole (and inflated whole when compressed): one bigger than the
# dataset and this is refused (h5py's own chunks are at most 1 MiB).
_H5_CHUNK_LIMIT = 1 << 20

_MODEL_CLASSES = {"Functional": "Model", "Model": "Model", "Sequential": "Sequential"}
_LAMBDA_CLASSES = ("Lambda", "TFOpLambda", "SlicingOpLambda")
_RNN_CLASSES = ("SimpleRNN", "LSTM", "GRU", "RNN", "ConvLSTM2D")
_GLOBAL_POOLING = ("GlobalAveragePooling1D", "GlobalAveragePooling2D", "GlobalMaxPooling1D", "GlobalMaxPooling2D")


def _h5py(api):
    try:
        import h5py   # only for Keras files: an optional dependency, absent in Pyodide
    except ImportError:
        where = "Pyodide has no h5py" if IN_BROWSER else "install it with: pip install 'pytfweb[keras]'"
        raise ImportError(f"{api}: Keras files are HDF5 inside and need h5py, which is not available here ({where}). "
                          f"Convert the file first, in CPython: `pytfweb convert model.keras model_dir`, then load "
                          f"model_dir with tf.load_layers_model.") from None
    return h5py


def _np():
    if _NUMPY is None:
        raise ImportError("Keras files: numpy is needed to read and write HDF5 weights")
    return _NUMPY


def keras_snake(name):
    """Keras's naming.to_snake_case, which names the weight groups of a .keras file:
    'Conv2D' -> 'conv2d', 'SimpleRNN' -> 'simple_rnn', 'ConvLSTM2D' -> 'conv_lstm2d'."""
    name = re.sub(r"\W+", "", name)
    name = re.sub("(.)([A-Z][a-z]+)", r"\1_\2", name)
    return re.sub("([a-z])([A-Z])", r"\1_\2", name).lower()


def _layer_classes():
    """pytfweb's layer classes by their TF.js class name."""
    out, stack = {}, [Layer]
    while stack:
        for sub in stack.pop().__subclasses__():
            if "class_name" in sub.__dict__:
                out.setdefault(sub.class_name, sub)
            stack.append(sub)
    return out


def _accepted(cls):
    """The keyword arguments cls's constructor takes, following **kwargs up the class chain (and
    into the cell class of a layer that passes its cell's arguments on)."""
    names = set()
    for klass in cls.__mro__:
        init = klass.__dict__.get("__init__")
        if init is None:
            continue
        params = inspect.signature(init).parameters.values()
        names.update(p.name for p in params if p.kind not in (p.VAR_KEYWORD, p.VAR_POSITIONAL) and p.name != "self")
        if not any(p.kind is p.VAR_KEYWORD for p in params):
            break
    cell = getattr(cls, "cell_class", None)
    if cell is not None:
        names |= _accepted(cell)
    return names


# --- Keras 3 / tf.keras 2 config -> TF.js topology ---------------------------------------------------
# Keras 3 options TF.js has no name for, with the value under which a layer behaves as TF.js's: such
# a key is dropped when it holds that value (ANY: whatever it holds, as it only seeds randomness or
# picks an implementation), and is an error otherwise.
_ANY = object()
_NEUTRAL = {
    "seed": _ANY, "use_cudnn": _ANY, "renorm_momentum": _ANY, "lora_alpha": _ANY, "unit_forget_bias": _ANY,
    "groups": 1, "quantization_config": None, "lora_rank": None, "synchronized": False, "renorm": False,
    "renorm_clipping": None, "rms_scaling": False, "keepdims": False, "output_padding": None, "optional": False,
    "ragged": False, "sparse": False, "pad_to_aspect_ratio": False, "fill_mode": "constant", "fill_value": 0.0,
    "antialias": False, "negative_slope": 0.0, "threshold": 0.0, "data_format": "channels_last",
    "dilation_rate": 1, "noise_shape": None, "beta_constraint": None, "gamma_constraint": None, "mask_zero": False,
    "zero_output_for_mask": False, "activity_regularizer": None, "implementation": _ANY, "input_length": None,
    "autocast": True,
}

_VARIANCE_SCALING = {"GlorotUniform": (1.0, "fan_avg", "uniform"), "GlorotNormal": (1.0, "fan_avg", "normal"),
                     "HeUniform": (2.0, "fan_in", "uniform"), "HeNormal": (2.0, "fan_in", "normal"),
                     "LecunUniform": (1.0, "fan_in", "uniform"), "LecunNormal": (1.0, "fan_in", "normal"),
                     "LeCunUniform": (1.0, "fan_in", "uniform"), "LeCunNormal": (1.0, "fan_in", "normal")}
_INITIALIZER_KEYS = {"Zeros": (), "Ones": (), "Constant": ("value",), "RandomUniform": ("minval", "maxval", "seed"),
                     "RandomNormal": ("mean", "stddev", "seed"), "TruncatedNormal": ("mean", "stddev", "seed"),
                     "Identity": ("gain",), "VarianceScaling": ("scale", "mode", "distribution", "seed"),
                     "Orthogonal": ("gain", "seed")}
_INITIALIZER_ALIASES = {"OrthogonalInitializer": "Orthogonal", "IdentityInitializer": "Identity", "Zeros": "Zeros",
                        "zeros": "Zeros", "ones": "Ones", "constant": "Constant", "random_uniform": "RandomUniform",
                        "random_normal": "RandomNormal", "truncated_normal": "TruncatedNormal",
                        "identity": "Identity", "orthogonal": "Orthogonal", "variance_scaling": "VarianceScaling",
                        "glorot_uniform": "GlorotUniform", "glorot_normal": "GlorotNormal",
                        "he_uniform": "HeUniform", "he_normal": "HeNormal", "lecun_uniform": "LecunUniform",
                        "lecun_normal": "LecunNormal"}
_CONSTRAINT_KEYS = {"MaxNorm": ("max_value", "axis"), "NonNeg": (), "UnitNorm": ("axis",),
                    "MinMaxNorm": ("min_value", "max_value", "rate", "axis")}
_CONSTRAINT_ALIASES = {"max_norm": "MaxNorm", "non_neg": "NonNeg", "unit_norm": "UnitNorm",
                       "min_max_norm": "MinMaxNorm", "maxnorm": "MaxNorm", "nonneg": "NonNeg",
                       "unitnorm": "UnitNorm"}
# Keras 3 activation names that TF.js spells otherwise; and the ones whose meaning differs.
_K3_ACTIVATIONS = {"silu": "swish"}
_K3_MISMATCHED_ACTIVATIONS = {
    "hard_sigmoid": "Keras 3's hard_sigmoid is relu6(x + 3) / 6, while TF.js's (and tf.keras 2's) is "
                    "clip(0.2 x + 0.5, 0, 1)"}
# Layers Keras computes otherwise than TF.js (and so pytfweb): refused both ways rather than run differently.
def _mismatched_layer(cls, config):
    if cls == "Resizing":
        return ("Keras's Resizing samples at half-pixel centres, TF.js's (and pytfweb's) aligns the corners, so "
                "the two resize differently")
    if cls == "UpSampling2D" and config.get("interpolation", "nearest") != "nearest":
        return ("Keras's bilinear UpSampling2D samples at half-pixel centres, TF.js's (and pytfweb's) does not, so "
                "the two resize differently (interpolation='nearest' is the same in both)")
    return None


_DTYPES = {"float32": "float32", "float16": "float32", "bfloat16": "float32", "float64": "float32",
           "mixed_float16": "float32", "mixed_bfloat16": "float32", "half": "float32", "float": "float32",
           "double": "float32", "int32": "int32", "int64": "int32", "int16": "int32", "int8": "int32",
           "uint8": "int32", "uint16": "int32", "uint32": "int32", "bool": "bool"}


def _is_ones(v):
    return v == 1 or (isinstance(v, (list, tuple)) and all(x == 1 for x in v))


def _neutral(key, value):
    want = _NEUTRAL[key]
    if want is _ANY:
        return True
    if key == "dilation_rate":
        return _is_ones(value)
    if key == "fill_value":
        return value == 0
    return value == want


class _FromKeras:
    """One translation of a Keras model config (Keras 3 when keras3, else tf.keras 2) into TF.js's
    topology; errors name the API, the file and the layer."""

    def __init__(self, api, source, keras3, custom_objects=None):
        self.api, self.source, self.keras3 = api, source, keras3
        self.custom = dict(custom_objects or {})
        self.classes = _layer_classes()
        self.registered = _REGISTERED   # tf.serialization.register_class's classes load by class name too
        self.masking = False   # whether a layer of the model makes a mask (zero_output_for_mask matters then)
        self.models = [set()]  # per functional config being read: the names of its nested models
        self.tensor_shapes = {}  # layer name -> the shape of its output, where Keras 3 recorded it

    def fail(self, where, msg):
        raise ValueError(f"{self.api}: {self.source}: {where}{': ' if where else ''}{msg}")

    # --- classes ------------------------------------------------------------------------------------
    def class_of(self, entry, where):
        if not isinstance(entry, dict) or not isinstance(entry.get("class_name"), str):
            self.fail(where, f"expected a layer entry {{'class_name': ..., 'config': {{...}}}}, got {_short(entry)}")
        cls = entry["class_name"]
        label = f"layer '{_entry_name(entry) or '?'}' ({cls})"
        if cls in _LAMBDA_CLASSES:
            self.fail(label, "is a Lambda layer, whose function is Python code stored in the file; pytfweb reads "
                             "model files as data and never runs code from them. Rebuild the model without Lambda "
                             "(write the function as a Layer subclass and pass it in custom_objects)")
        if cls in self.custom or cls in _MODEL_CLASSES or cls in self.registered:
            return cls
        module = entry.get("module")
        registered = entry.get("registered_name")
        foreign = (isinstance(module, str) and not module.startswith("keras")) or (
            isinstance(registered, str) and registered not in (cls, "Functional"))
        if foreign or cls not in self.classes:
            what = f"registered as '{registered}'" if registered else f"module '{module}'" if module else "unknown"
            self.fail(label, f"unknown layer class '{cls}' ({what}): pytfweb has no such layer. Pass the class in "
                             f"custom_objects={{'{cls}': YourLayer}} if you have one")
        return cls

    # --- values -------------------------------------------------------------------------------------
    def dtype(self, value, where):
        name = value
        if isinstance(value, dict):
            name = (value.get("config") or {}).get("name")
        if name is None:
            return None
        if name not in _DTYPES:
            self.fail(where, f"dtype (policy) {name!r} is not one pytfweb can run (float32, int32 or bool; "
                             f"float16/64 and mixed policies run as float32)")
        return _DTYPES[name]

    def activation(self, value, where, key):
        if value is None:
            return "linear"
        if isinstance(value, dict):
            value = value.get("config") if isinstance(value.get("config"), str) else value.get("class_name")
        if not isinstance(value, str):
            self.fail(where, f"{key} must be an activation name, got {_short(value)}")
        name = value
        if self.keras3:
            if name in _K3_MISMATCHED_ACTIVATIONS:
                self.fail(where, f"{key} '{name}' cannot be loaded: {_K3_MISMATCHED_ACTIVATIONS[name]}; pytfweb has "
                                 f"only TF.js's")
            name = _K3_ACTIVATIONS.get(name, name)
        if name not in ACTIVATIONS:
            self.fail(where, f"{key} '{value}' is not an activation pytfweb has (known: "
                             f"{', '.join(sorted(ACTIVATIONS))})")
        return name

    def _class_and_config(self, value, where, key, what):
        """(class name, config) of a Keras object given by name or as {'class_name', 'config'}."""
        if isinstance(value, str):
            return value, {}
        if isinstance(value, dict) and isinstance(value.get("class_name"), str):
            return value["class_name"], value.get("config") or {}
        self.fail(where, f"{key} must be {what} {{'class_name', 'config'}}, got {_short(value)}")

    def initializer(self, value, where, key):
        if value is None:
            return None
        cls, cfg = self._class_and_config(value, where, key, "an initializer")
        cls = _INITIALIZER_ALIASES.get(cls, cls)
        seed = cfg.get("seed") if isinstance(cfg.get("seed"), int) else None
        if cls in _VARIANCE_SCALING:
            scale, mode, dist = _VARIANCE_SCALING[cls]
            return {"class_name": "VarianceScaling",
                    "config": {"scale": scale, "mode": mode, "distribution": dist, "seed": seed}}
        if cls not in _INITIALIZER_KEYS:
            self.fail(where, f"{key}: unknown initializer '{cls}' (known: "
                             f"{', '.join(sorted(set(_INITIALIZER_KEYS) | set(_VARIANCE_SCALING)))})")
        out = {k: cfg[k] for k in _INITIALIZER_KEYS[cls] if k in cfg}
        if "seed" in out:
            out["seed"] = seed
        if cls == "VarianceScaling":
            # Keras 3's truncated/untruncated normal -> TF.js's 'normal' (a truncated normal): only the
            # initial values differ, and loaded weights replace them.
            out["distribution"] = "uniform" if out.get("distribution") == "uniform" else "normal"
        if cls == "Constant" and not isinstance(out.get("value", 0), (int, float)):
            self.fail(where, f"{key}: Constant initializer with a non-scalar value is not supported")
        return {"class_name": cls, "config": out}

    def regularizer(self, value, where, key):
        if value is None:
            return None
        cls, cfg = self._class_and_config(value, where, key, "a regularizer")
        kind = cls.lower().replace("_", "")
        if kind not in ("l1", "l2", "l1l2"):
            self.fail(where, f"{key}: regularizer '{cls}' is not supported (L1, L2 and L1L2 are)")
        default = 0.01 if not cfg else 0.0   # Keras's 'l1' / 'l2' strings mean 0.01
        l1 = float(cfg.get("l1", default if kind == "l1" else 0.0))
        l2 = float(cfg.get("l2", default if kind == "l2" else 0.0))
        return {"class_name": "L1L2", "config": {"l1": l1, "l2": l2}}

    def constraint(self, value, where, key):
        if value is None:
            return None
        cls, cfg = self._class_and_config(value, where, key, "a constraint")
        cls = _CONSTRAINT_ALIASES.get(cls, cls)
        if cls not in _CONSTRAINT_KEYS:
            self.fail(where, f"{key}: constraint '{cls}' is not supported (known: {', '.join(_CONSTRAINT_KEYS)})")
        return {"class_name": cls, "config": {k: cfg[k] for k in _CONSTRAINT_KEYS[cls] if k in cfg}}

    def value(self, key, value, where):
        if key == "dtype":
            return self.dtype(value, where)
        if key in ("activation", "recurrent_activation"):
            return self.activation(value, where, key)
        if key.endswith("_initializer"):
            return self.initializer(value, where, key)
        if key.endswith("_regularizer"):
            return self.regularizer(value, where, key)
        if key.endswith("_constraint"):
            return self.constraint(value, where, key)
        if key in ("layer", "backward_layer", "cell") and isinstance(value, dict):
            return self.nested(value, f"{where} > {key}")
        if key in ("cell", "cells") and isinstance(value, list):
            return [self.nested(v, f"{where} > {key}[{i}]") for i, v in enumerate(value)]
        return value

    # --- layers -------------------------------------------------------------------------------------
    def nested(self, entry, where):
        """A layer inside a layer (a wrapper's layer, an RNN's cell): {'class_name', 'config'}."""
        cls = self.class_of(entry, where)
        if cls in _MODEL_CLASSES:
            return self.model(entry, where)
        return {"class_name": cls, "config": self.layer_config(cls, entry.get("config") or {}, where, nested=True)}

    def layer_config(self, cls, config, where, nested=False):
        if not isinstance(config, dict):
            self.fail(where, f"the config of a {cls} layer must be an object, got {_short(config)}")
        label = f"layer '{config.get('name', '?')}' ({cls})"
        if nested:   # named from its outer layer: 'layer 'bidirectional' (Bidirectional) > layer 'forward_lstm' (LSTM)'
            label = f"{where} '{config.get('name', '?')}' ({cls})"
        out = {}
        for key, value in config.items():
            if key in ("module", "registered_name", "shared_object_id", "build_config"):
                continue
            out[key] = self.value(key, value, label)
        if cls == "InputLayer":
            if "batch_shape" in out:
                out["batch_input_shape"] = out.pop("batch_shape")
            elif "shape" in out:
                shape = out.pop("shape")
                out["batch_input_shape"] = [out.pop("batch_size", None)] + list(shape)
            out.setdefault("dtype", "float32")
        if cls == "LeakyReLU" and "negative_slope" in out:
            out["alpha"] = out.pop("negative_slope")
        if cls in ("Masking",) or (cls == "Embedding" and out.get("mask_zero")):
            self.masking = True
        if cls == "Bidirectional":
            self._check_backward(out, label)
        reason = _mismatched_layer(cls, out)
        if reason:
            self.fail(label, f"cannot be loaded: {reason}")
        self._cls_options(cls, out, label)
        return out

    def _check_backward(self, config, label):
        backward = config.pop("backward_layer", None)
        forward = config.get("layer")
        if backward is None or forward is None:
            return
        a, b = dict(forward["config"]), dict(backward["config"])
        for c in (a, b):
            c.pop("name", None)
            c.pop("go_backwards", None)
        if forward["class_name"] != backward["class_name"] or a != b:
            self.fail(label, "has a backward_layer that is not the mirror of its forward layer; pytfweb's "
                             "Bidirectional (as TF.js's) runs a copy of the forward layer backwards")

    def _cls_options(self, cls, config, label):
        """Keep the options the pytfweb class takes; drop Keras-only ones that hold the value that
        behaves as pytfweb does; anything else is an error naming the option."""
        klass = self.custom.get(cls) or self.registered.get(cls) or self.classes.get(cls)
        if klass is None or not inspect.isclass(klass):
            return
        accepted = _accepted(klass)
        if not accepted:
            return
        for key in list(config):
            if key in accepted or key in ("layer", "cell", "cells"):
                continue
            value = config[key]
            if key == "zero_output_for_mask" and value:
                if not self.masking or not config.get("return_sequences"):
                    del config[key]   # only the outputs at masked timesteps show it
                    continue
                self.fail(label, "zero_output_for_mask=True (as Keras's Bidirectional sets it) gives zeros at masked "
                                 "timesteps, while pytfweb's RNNs (as TF.js's) repeat the last output there; the "
                                 "model masks its input and returns sequences, so its outputs would differ")
            if key in _NEUTRAL and _neutral(key, value):
                del config[key]
                continue
            self.fail(label, f"option {key}={value!r} is not supported by pytfweb's {cls} (as TF.js's has no such "
                             f"option)")

    def layer_entries(self, entry, functional, where):
        """The TF.js entries of one Keras layer entry: one, or two for a global pooling with
        keepdims=True (TF.js has no keepdims): the pooling, renamed '<name>_pool', then a Reshape
        to the kept shape under the layer's own name, which the rest of the graph reads from."""
        cls = self.class_of(entry, where)
        if cls in _MODEL_CLASSES:
            out = self.model(entry, where)
        else:
            config = dict(entry.get("config") or {})
            kept = None
            if cls in _GLOBAL_POOLING and config.pop("keepdims", False):
                kept = self._kept_shape(cls, config, entry)
            out = {"class_name": cls, "config": self.layer_config(cls, config, where)}
        name = entry.get("name", out["config"].get("name")) if functional else out["config"].get("name")
        if functional:
            out["name"] = name
            out["inbound_nodes"] = self.nodes(entry.get("inbound_nodes") or [], f"layer '{name}' ({cls})")
        if cls in _MODEL_CLASSES or kept is None:
            return [out]
        pool = f"{name}_pool"
        out["config"]["name"] = pool
        reshape = {"class_name": "Reshape", "config": {"name": name, "trainable": out["config"].get("trainable", True),
                                                       "target_shape": kept}}
        if functional:
            out["name"] = pool
            reshape["name"] = name
            reshape["inbound_nodes"] = [[[pool, i, 0, {}]] for i in range(len(out["inbound_nodes"]))]
        return [out, reshape]

    def _kept_shape(self, cls, config, entry):
        """The shape (without batch) a global pooling with keepdims=True gives: from the shape Keras
        recorded for its input (build_config) or its output (a consumer's keras tensor); -1 for the
        channels when neither is in the file (pytfweb infers it; TF.js's Reshape would not)."""
        rank = 1 if cls.endswith("1D") else 2
        first = config.get("data_format") == "channels_first"
        out = self.tensor_shapes.get(_entry_name(entry))
        if isinstance(out, list) and len(out) == rank + 2:
            return list(out[1:])
        shape = (entry.get("build_config") or {}).get("input_shape")
        channels = shape[1 if first else -1] if isinstance(shape, list) and len(shape) == rank + 2 else None
        channels = channels if isinstance(channels, int) else -1
        return [channels] + [1] * rank if first else [1] * rank + [channels]

    # --- graphs -------------------------------------------------------------------------------------
    def _record_shapes(self, value):
        """Remember the shapes Keras 3 records in keras tensors, by producing layer."""
        if isinstance(value, dict):
            if value.get("class_name") == "__keras_tensor__":
                cfg = value.get("config") or {}
                history = cfg.get("keras_history")
                if isinstance(history, list) and history and isinstance(history[0], str):
                    self.tensor_shapes.setdefault(history[0], cfg.get("shape"))
                return
            for v in value.values():
                self._record_shapes(v)
        elif isinstance(value, list):
            for v in value:
                self._record_shapes(v)

    def _keras_tensors(self, value, where, strict):
        if isinstance(value, dict) and value.get("class_name") == "__keras_tensor__":
            history = (value.get("config") or {}).get("keras_history")
            if not (isinstance(history, list) and len(history) == 3 and isinstance(history[0], str)):
                self.fail(where, f"a keras tensor without a valid keras_history: {_short(value)}")
            return [list(history)]
        if isinstance(value, (list, tuple)):
            return [h for v in value for h in self._keras_tensors(v, where, strict)]
        if strict and value is not None:
            self.fail(where, f"a layer called with a non-tensor positional argument {_short(value)} is not supported")
        return []

    def nodes(self, nodes, where):
        out = []
        for node in nodes:
            if isinstance(node, list):   # tf.keras 2: [[layer, node, tensor, kwargs], ...]
                entries = []
                for e in node:
                    if not (isinstance(e, list) and len(e) >= 3 and isinstance(e[0], str)):
                        self.fail(where, f"invalid inbound node entry {_short(e)}")
                    entries.append([e[0], e[1], e[2], e[3] if len(e) > 3 and isinstance(e[3], dict) else {}])
                out.append(entries)
                continue
            if not isinstance(node, dict):
                self.fail(where, f"invalid inbound node {_short(node)}")
            args, kwargs = node.get("args") or [], node.get("kwargs") or {}
            if len(args) > 1:
                self.fail(where, "a layer called with more than one positional argument is not supported")
            histories = self._keras_tensors(args, where, strict=True)
            # Keras 3 counts a nested model's applications from 0; TF.js and tf.keras 2 from 1 (their
            # node 0 is the model's own).
            histories = [self._shift(h) for h in histories]
            extra = {}
            for key, value in kwargs.items():
                tensors = self._keras_tensors(value, where, strict=False)
                if tensors:
                    if key not in ("initial_state",):
                        self.fail(where, f"a layer called with the tensor argument {key}= is not supported")
                    histories.extend(self._shift(h) for h in tensors)
                elif value is not None and key not in ("mask", "training"):
                    extra[key] = value
            out.append([[h[0], h[1], h[2], extra] for h in histories])
        return out

    def _shift(self, history):
        name, node, tensor = history[0], history[1], history[2]
        return [name, node + 1 if name in self.models[-1] and isinstance(node, int) else node, tensor]

    def io_list(self, value, keras3_nodes):
        if isinstance(value, list) and len(value) == 3 and isinstance(value[0], str) and isinstance(value[1], int):
            value = [value]
        if isinstance(value, dict):
            value = list(value.values())
        out = [list(v) for v in value or []]
        return [self._shift(v) for v in out] if keras3_nodes else out

    def model(self, entry, where="model"):
        cls = entry.get("class_name")
        config = entry.get("config")
        if cls not in _MODEL_CLASSES or not isinstance(config, dict) or not isinstance(config.get("layers"), list):
            self.fail(where, f"expected a Sequential or Functional model config with a list of layers, got class "
                             f"{cls!r}")
        name = config.get("name")
        here = f"model '{name}'" if where == "model" else where
        if _MODEL_CLASSES[cls] == "Sequential":
            layers, input_config = [], None
            for i, e in enumerate(config["layers"]):
                if isinstance(e, dict) and e.get("class_name") == "InputLayer":
                    if layers:
                        self.fail(here, "an InputLayer after other layers of a Sequential model")
                    input_config = self.layer_config("InputLayer", e.get("config") or {}, f"{here} > layer {i}")
                    continue
                layers.extend(self.layer_entries(e, False, f"{here} > layer {i}"))
            if not layers:
                self.fail(here, "a Sequential model with no layers")
            first = layers[0]["config"]
            if layers[0]["class_name"] not in ("Sequential", "Model"):
                shape = (input_config or {}).get("batch_input_shape") or config.get("build_input_shape")
                if shape is not None:
                    first["batch_input_shape"] = list(shape)
                elif "batch_input_shape" not in first:
                    self.fail(here, "the Sequential model was never built (no InputLayer and no input shape), so its "
                                    "weights' shapes are unknown")
            return {"class_name": "Sequential", "config": {"name": name, "layers": layers}}
        entries = config["layers"]
        for e in entries:
            if isinstance(e, dict):
                self._record_shapes(e.get("inbound_nodes"))
        self.models.append({_entry_name(e) for e in entries
                            if isinstance(e, dict) and e.get("class_name") in _MODEL_CLASSES})
        try:
            layers = [t for i, e in enumerate(entries) for t in self.layer_entries(e, True, f"{here} > layer {i}")]
            keras3_nodes = any(isinstance(n, dict) for e in entries if isinstance(e, dict)
                               for n in (e.get("inbound_nodes") or []))
            return {"class_name": "Model",
                    "config": {"name": name, "layers": layers,
                               "input_layers": self.io_list(config.get("input_layers"), keras3_nodes),
                               "output_layers": self.io_list(config.get("output_layers"), keras3_nodes)}}
        finally:
            self.models.pop()


def _short(value, n=120):
    text = json.dumps(value, default=str) if not isinstance(value, str) else repr(value)
    return text if len(text) <= n else text[:n] + "..."


def _is_keras3(config, keras_version):
    if isinstance(keras_version, str) and keras_version[:1].isdigit():
        return int(keras_version.split(".")[0]) >= 3
    text = json.dumps(config)
    return '"module"' in text or '"batch_shape"' in text or '"__keras_tensor__"' in text


def _has_masking(config):
    text = json.dumps(config)
    return '"class_name": "Masking"' in text or '"mask_zero": true' in text


def keras_config_to_topology(config, keras_version=None, source="config", custom_objects=None,
                             api="keras_config_to_topology"):
    """The TF.js topology (model.json's modelTopology) of a Keras model config: Keras 3's
    (config.json of a .keras file, or model_config of an .h5 written by Keras 3) or tf.keras 2's."""
    if not isinstance(config, dict):
        raise ValueError(f"{api}: {source}: the model config must be a JSON object, got {type(config).__name__}")
    check_depth(config, f"{api}: {source}: the model config")
    translator = _FromKeras(api, source, _is_keras3(config, keras_version), custom_objects)
    translator.masking = _has_masking(config)
    topology = translator.model(config)
    return {**topology, "keras_version": f"keras {keras_version}" if keras_version else "keras",
            "backend": "tensor_flow.js"}


# --- pytfweb model -> Keras 3 config ------------------------------------------------------------------
_K3_ACTIVATION_NAMES = {"swish": "silu"}
_K3_UNSAVABLE_ACTIVATIONS = {
    "hard_sigmoid": "Keras 3's hard_sigmoid is relu6(x + 3) / 6, not TF.js's clip(0.2 x + 0.5, 0, 1) (the default "
                    "recurrent_activation of pytfweb's LSTM and GRU): build the layer with "
                    "recurrent_activation='sigmoid' to save it for Keras",
    "gelu_new": "Keras 3 has no activation name for the tanh approximation of gelu"}
_K3_INITIALIZER_NAMES = {"LeCunNormal": "LecunNormal", "LeCunUniform": "LecunUniform"}
# Keys TF.js writes that Keras 3's constructors do not take, per class ('*': every class).
_TFJS_ONLY_KEYS = {"*": ("batch_input_shape",), "LSTM": ("implementation",), "GRU": ("implementation",),
                   "LSTMCell": ("implementation",), "GRUCell": ("implementation",),
                   "Embedding": ("input_length",), "ConvLSTM2D": ("implementation",),
                   "ConvLSTM2DCell": ("implementation",),
                   "SpatialDropout1D": ("trainable", "noise_shape")}   # Keras 3's takes rate, seed, name, dtype
# A generic RNN's TF.js config repeats its cell's options beside 'cell'; Keras 3 takes only these.
_K3_RNN_KEYS = ("name", "trainable", "dtype", "cell", "return_sequences", "return_state", "go_backwards",
                "stateful", "unroll", "zero_output_for_mask", "activity_regularizer")


def _module(kind):
    return {"module": f"keras.{kind}", "registered_name": None}


def _policy(dtype):
    return {"module": "keras", "class_name": "DTypePolicy", "config": {"name": dtype or "float32"},
            "registered_name": None}


class _ToKeras:
    """The Keras 3 config of a pytfweb model (built from serialization.model_to_topology's layer
    configs and the model's graph, for the shapes Keras records)."""

    def __init__(self, api, source):
        self.api, self.source = api, source

    def fail(self, where, msg):
        raise ValueError(f"{self.api}: {self.source}: {where}: {msg}")

    # --- values -------------------------------------------------------------------------------------
    def activation(self, value, where, key):
        if value is None:
            return "linear"
        name = snake(value) if isinstance(value, str) else value
        if name in _K3_UNSAVABLE_ACTIVATIONS:
            self.fail(where, f"{key} '{name}' cannot be saved for Keras: {_K3_UNSAVABLE_ACTIVATIONS[name]}")
        if not isinstance(name, str):
            self.fail(where, f"{key} must be an activation name to be saved, got {_short(value)}")
        return _K3_ACTIVATION_NAMES.get(name, name)

    def initializer(self, value, where, key):
        if value is None:
            return None
        if isinstance(value, str):
            value = {"class_name": _INITIALIZER_ALIASES.get(value, value), "config": {}}
        cls, cfg = value.get("class_name"), dict(value.get("config") or {})
        cls = _K3_INITIALIZER_NAMES.get(cls, cls)
        if cls == "VarianceScaling":
            # TF.js's 'normal' is a truncated normal (Keras 3: 'truncated_normal'); 'truncated_normal' is TF.js's too.
            cfg["distribution"] = "uniform" if cfg.get("distribution") == "uniform" else "truncated_normal"
            mode = cfg.get("mode")
            cfg["mode"] = {"fanIn": "fan_in", "fanOut": "fan_out", "fanAvg": "fan_avg"}.get(mode, mode)
        return {**_module("initializers"), "class_name": cls, "config": cfg}

    def regularizer(self, value, where, key):
        if value is None:
            return None
        cfg = value.get("config") or {}
        return {**_module("regularizers"), "class_name": "L1L2",
                "config": {"l1": float(cfg.get("l1", 0.0)), "l2": float(cfg.get("l2", 0.0))}}

    def constraint(self, value, where, key):
        if value is None:
            return None
        return {**_module("constraints"), "class_name": value.get("class_name"), "config": value.get("config") or {}}

    def nested(self, entry, layer, where):
        """A layer inside a layer (a wrapper's layer, an RNN's cell) as Keras 3 writes it."""
        cls = entry["class_name"]
        if cls in ("Model", "Sequential"):
            self.fail(where, "a model inside a wrapper layer cannot be saved for Keras yet")
        return {**_module("layers"), "class_name": cls, "config": self.layer_config(cls, entry["config"], layer, where)}

    def layer_config(self, cls, config, layer, where):
        if cls == "ThresholdedReLU":
            self.fail(where, "Keras 3 has no ThresholdedReLU layer (write it as ReLU(threshold=theta) in Keras)")
        reason = _mismatched_layer(cls, config)
        if reason:
            self.fail(where, f"cannot be saved for Keras: {reason}")
        drop = set(_TFJS_ONLY_KEYS["*"]) | set(_TFJS_ONLY_KEYS.get(cls, ()))
        if cls == "InputLayer":
            drop.discard("batch_input_shape")
        out = {}
        for key, value in config.items():
            if key in drop:
                continue
            if cls == "RNN" and key not in _K3_RNN_KEYS:
                continue
            if key == "dtype":
                out[key] = _policy(value) if cls != "InputLayer" else value
            elif key in ("activation", "recurrent_activation"):
                out[key] = self.activation(value, where, key)
            elif key.endswith("_initializer"):
                out[key] = self.initializer(value, where, key)
            elif key.endswith("_regularizer"):
                out[key] = self.regularizer(value, where, key)
            elif key.endswith("_constraint"):
                out[key] = self.constraint(value, where, key)
            elif key == "layer" and isinstance(value, dict):
                inner = getattr(layer, "layer", None) or getattr(layer, "forward_layer", None)
                out[key] = self.nested(value, inner, f"{where} > layer")
            elif key == "cell" and isinstance(value, dict):
                out[key] = self.nested(value, getattr(layer, "cell", None), f"{where} > cell")
            elif key == "cells" and isinstance(value, list):
                cells = getattr(layer, "cells", [None] * len(value))
                out[key] = [self.nested(v, c, f"{where} > cells[{i}]") for i, (v, c) in enumerate(zip(value, cells))]
            else:
                out[key] = value
        if cls == "InputLayer":
            out["batch_shape"] = out.pop("batch_input_shape", None)
            out.setdefault("dtype", "float32")
            out.setdefault("sparse", False)
            return out
        out.setdefault("dtype", _policy(getattr(layer, "dtype", "float32")))
        if cls == "LeakyReLU" and "alpha" in out:
            out["negative_slope"] = out.pop("alpha")
        if cls == "Embedding" and out.get("mask_zero") is None:
            out["mask_zero"] = False
        if "unit_forget_bias" in out:
            out["unit_forget_bias"] = bool(out["unit_forget_bias"])
        if cls == "CategoryEncoding" and isinstance(out.get("output_mode"), str):
            out["output_mode"] = {"multiHot": "multi_hot", "oneHot": "one_hot"}.get(out["output_mode"],
                                                                                  out["output_mode"])
        return out

    # --- models -------------------------------------------------------------------------------------
    def model(self, model, topology, where="model"):
        """The Keras 3 entry of a model: {'module', 'class_name', 'config', 'registered_name', ...}."""
        tconfig = topology["config"]
        entries = {(e.get("config") or {}).get("name", e.get("name")): e for e in tconfig["layers"]}
        here = f"model '{model.name}'" if where == "model" else where
        if isinstance(model, Sequential):
            inp = model.inputs[0]
            shape = list(inp.shape)
            layers = [{**_module("layers"), "class_name": "InputLayer",
                       "config": {"batch_shape": shape, "dtype": inp.dtype, "sparse": False,
                                  "name": inp.source_layer.name}}]
            for layer in model.layers:
                entry = self.layer_entry(layer, entries, here)
                if layer.inbound_nodes:
                    entry["build_config"] = {"input_shape": _shapes(layer.inbound_nodes[0].input_shapes)}
                layers.append(entry)
            return {"module": "keras", "class_name": "Sequential",
                    "config": {"name": model.name, "trainable": model.trainable, "dtype": _policy("float32"),
                               "layers": layers, "build_input_shape": shape},
                    "registered_name": None, "build_config": {"input_shape": shape}}
        order, reindex, kept = _keras_graph(model)
        layers = []
        for layer in order:
            entry = self.layer_entry(layer, entries, here)
            nodes = kept[id(layer)]
            if layer.get_class_name() != "InputLayer" and nodes:
                shapes = nodes[0].input_shapes
                if layer.get_class_name() in _RNN_CLASSES + ("Bidirectional",):
                    shapes = shapes[:1]   # initial states are keyword arguments in Keras, not inputs
                entry["build_config"] = {"input_shape": _shapes(shapes)}
            entry["name"] = layer.name
            entry["inbound_nodes"] = [] if layer.get_class_name() == "InputLayer" else [
                self.node(layer, node, reindex) for node in nodes]
            layers.append(entry)

        def io(tensors):
            out = [[t.source_layer.name, reindex[(id(t.source_layer), t.node_index)], t.tensor_index] for t in tensors]
            return out[0] if len(out) == 1 else out
        return {"module": "keras.src.models.functional", "class_name": "Functional",
                "config": {"name": model.name, "trainable": model.trainable, "layers": layers,
                           "input_layers": io(model.inputs), "output_layers": io(model.outputs)},
                "registered_name": "Functional", "build_config": {"input_shape": None}}

    def layer_entry(self, layer, entries, where):
        entry = entries.get(layer.name)
        label = f"{where} > layer '{layer.name}' ({layer.get_class_name()})"
        if entry is None:
            self.fail(label, "the layer is missing from the model's topology")
        if isinstance(layer, Model):
            return self.model(layer, entry, label)
        cls = entry["class_name"]
        return {**_module("layers"), "class_name": cls, "config": self.layer_config(cls, entry["config"], layer, label)}

    @staticmethod
    def node(layer, node, reindex):
        def kt(t):
            return {"class_name": "__keras_tensor__",
                    "config": {"shape": list(t.shape), "dtype": t.dtype,
                               "keras_history": [t.source_layer.name, reindex[(id(t.source_layer), t.node_index)],
                                                 t.tensor_index]}}
        tensors = [kt(t) for t in node.input_tensors]
        if len(tensors) > 1 and layer.get_class_name() in _RNN_CLASSES + ("Bidirectional",):
            return {"args": [tensors[0]], "kwargs": {"initial_state": tensors[1:]}}
        return {"args": [tensors[0] if len(tensors) == 1 else tensors], "kwargs": {}}


def _shapes(shapes):
    shapes = [list(s) for s in shapes]
    return shapes[0] if len(shapes) == 1 else shapes


def _keras_graph(model):
    """Keras's view of a functional model's graph (keras.src.ops.function.map_graph): its layers in
    Keras's order (by decreasing depth, then first traversal from the outputs), which names the
    weight groups of a .keras file and orders an .h5 file's layers; the reindexed node index of each
    (layer, node) in the model; and each layer's nodes in the model."""
    finished, in_progress, nodes_in_order, layer_index = set(), set(), [], {}

    def visit(t):
        layer = t.source_layer
        node = layer.inbound_nodes[t.node_index]
        if id(node) in finished:
            return
        if id(node) in in_progress:
            raise ValueError(f"the graph has a cycle through layer {layer.name}")
        layer_index.setdefault(id(layer), (len(layer_index), layer))
        in_progress.add(id(node))
        if layer.get_class_name() != "InputLayer":
            for x in node.input_tensors:
                visit(x)
        finished.add(id(node))
        in_progress.discard(id(node))
        nodes_in_order.append(node)

    for out in model.outputs:
        visit(out)
    in_graph = {id(n) for n in nodes_in_order}
    node_depth, layer_depth = {}, {}
    for node in reversed(nodes_in_order):
        depth = node_depth.setdefault(id(node), 0)
        depth = max(depth, layer_depth.get(id(node.outbound_layer), 0))
        layer_depth[id(node.outbound_layer)] = depth
        node_depth[id(node)] = depth
        for t in node.input_tensors if node.outbound_layer.get_class_name() != "InputLayer" else []:
            parent = t.source_layer.inbound_nodes[t.node_index]
            if id(parent) in in_graph:
                node_depth[id(parent)] = max(depth + 1, node_depth.get(id(parent), 0))
    for x in model.inputs:
        if id(x.source_layer) not in layer_depth:
            layer_depth[id(x.source_layer)] = 0
            layer_index[id(x.source_layer)] = (-1, x.source_layer)
            in_graph.add(id(x.source_layer.inbound_nodes[0]))
    by_depth = {}
    for key, depth in layer_depth.items():
        by_depth.setdefault(depth, []).append(layer_index[key])
    order = [layer for depth in sorted(by_depth, reverse=True) for _, layer in sorted(by_depth[depth],
                                                                                      key=lambda p: p[0])]
    reindex, kept = {}, {}
    for layer in order:
        nodes = [n for n in layer.inbound_nodes if id(n) in in_graph]
        kept[id(layer)] = nodes
        for new, node in enumerate(nodes):
            reindex[(id(layer), layer.inbound_nodes.index(node))] = new
    return order, reindex, kept


def keras_config(model, api="keras_config", source="model"):
    """The Keras 3 config (config.json of a .keras file) of a pytfweb model."""
    return _ToKeras(api, source).model(model, _ser.model_to_topology(model))


# --- where the weights are ------------------------------------------------------------------------
def _keras_class(layer):
    if isinstance(layer, Model) and not isinstance(layer, Sequential):
        return "Functional"
    return layer.get_class_name()


def _entry_name(entry):
    config = entry.get("config") if isinstance(entry.get("config"), dict) else {}
    return config.get("name", entry.get("name"))


def _vars_groups(model, entry=None, prefix="", where="model"):
    """[(path of a vars group in model.weights.h5, layer, variables)] for model and every part of
    it, in .keras order: layers/<class>[_n] counted per Keras class in model.layers order (Keras's:
    the file config's order when reading, its graph order when writing). variables is None for a
    group whose datasets are not weights here (an RNN's own group holds a stateful layer's states)."""
    out = [(f"{prefix}vars", model, [])]
    if entry is not None:
        sequential = _MODEL_CLASSES.get(entry.get("class_name")) == "Sequential"
        by_name = {layer.name: layer for layer in model.layers}
        pairs = []
        for e in entry["config"]["layers"]:
            if sequential and e.get("class_name") == "InputLayer":
                continue   # Keras 3's Sequential.layers leaves it out
            name = _entry_name(e)
            if name not in by_name and e.get("class_name") != "InputLayer":
                raise ValueError(f"{where}: layer '{name}' of the file's config is not in the model")
            pairs.append((e["class_name"], by_name.get(name), e))
    elif isinstance(model, Sequential):
        pairs = [(_keras_class(layer), layer, None) for layer in model.layers]
    else:
        pairs = [(_keras_class(layer), layer, None) for layer in _keras_graph(model)[0]]
    counts = {}
    for cls, layer, e in pairs:
        key = _counted(counts, keras_snake(cls))
        path = f"{prefix}layers/{key}/"
        if layer is None:
            continue
        if cls in _MODEL_CLASSES:
            out.extend(_vars_groups(layer, e, path, f"{where} > {layer.name}"))
        else:
            out.extend(_part_groups(layer, path))
    return out


def _counted(counts, key):
    n = counts.get(key, 0)
    counts[key] = n + 1
    return key if n == 0 else f"{key}_{n}"


def _part_groups(layer, path):
    own = [(f"{path}vars", layer, None)]
    if isinstance(layer, RNN):
        return own + _part_groups(layer.cell, f"{path}cell/")
    if isinstance(layer, StackedRNNCells):
        counts, out = {}, own
        for cell in layer.cells:
            out = out + _part_groups(cell, f"{path}cells/{_counted(counts, keras_snake(cell.get_class_name()))}/")
        return out
    if isinstance(layer, Bidirectional):
        return own + _part_groups(layer.forward_layer, f"{path}forward_layer/") + _part_groups(
            layer.backward_layer, f"{path}backward_layer/")
    if isinstance(layer, TimeDistributed):
        return own + _part_groups(layer.layer, f"{path}layer/")
    if isinstance(layer, Model):
        return _vars_groups(layer, None, path)
    return [(f"{path}vars", layer, list(layer.weights))]


def _legacy_weights(layer):
    """Keras's order of a layer's weights in an .h5 file (nested models included)."""
    return list(layer.trainable_weights) + list(layer.non_trainable_weights)


def _legacy_layers(model):
    return model.layers if isinstance(model, Sequential) else _keras_graph(model)[0]


# --- HDF5, as data ------------------------------------------------------------------------------------
class _H5:
    """Read access to an HDF5 file that follows hard links only: an external or soft link, a virtual
    dataset or external raw storage would read other files, and a file here is data, not a map of
    the disk."""

    def __init__(self, h5py, file, api, source):
        self.h5py, self.file, self.api, self.source = h5py, file, api, source

    def fail(self, msg):
        raise ValueError(f"{self.api}: {self.source}: {msg}")

    def get(self, path, group=None):
        node = self.file if group is None else group
        for part in [p for p in path.split("/") if p]:
            if not isinstance(node, self.h5py.Group):
                return None
            try:
                link = node.get(part, getlink=True)
            except (KeyError, OSError, RuntimeError, ValueError):
                link = None
            if link is None:
                return None
            if not isinstance(link, self.h5py.HardLink):
                self.fail(f"'{node.name.rstrip('/')}/{part}' is a {type(link).__name__}, a link to elsewhere; only "
                          f"data inside the file is read")
            try:
                node = node[part]
            except (KeyError, OSError, RuntimeError, ValueError) as e:
                self.fail(f"'{node.name.rstrip('/')}/{part}' cannot be read ({e}): a damaged file?")
        return node

    def dataset(self, path, group, label):
        ds = self.get(path, group)
        if ds is None:
            return None
        if not isinstance(ds, self.h5py.Dataset):
            self.fail(f"weight {label}: '{ds.name}' is a group, not a dataset")
        if ds.is_virtual or ds.external:
            self.fail(f"weight {label}: '{ds.name}' stores its data outside the file; only data inside the file "
                      f"is read")
        chunks = ds.chunks
        if chunks is not None:
            chunk_bytes = data_bytes = ds.dtype.itemsize
            for c in chunks:
                chunk_bytes *= int(c)
            for d in ds.shape or ():
                data_bytes *= int(d)
            if chunk_bytes > max(data_bytes, _H5_CHUNK_LIMIT):
                self.fail(f"weight {label}: '{ds.name}' is stored in chunks of {list(chunks)} ({chunk_bytes} bytes), "
                          f"bigger than the dataset ({data_bytes} bytes) and than {_H5_CHUNK_LIMIT} bytes: refused "
                          f"(a chunk is read, and inflated, whole)")
        return ds

    def strings(self, group, name):
        """An attribute holding a list of strings, joined from Keras's name0, name1, ... chunks when it
        was split at HDF5's header limit."""
        def decode(values):
            out = []
            for v in (values.tolist() if hasattr(values, "tolist") else values):
                if isinstance(v, bytes):
                    v = v.decode("utf-8")
                if not isinstance(v, str):
                    self.fail(f"attribute '{name}' of '{group.name}' should hold strings, got {v!r}")
                out.append(v)
            return out
        attrs = group.attrs
        if name in attrs:
            values = attrs[name]
            return [] if getattr(values, "size", 1) == 0 else decode(values)
        out, i = [], 0
        while f"{name}{i}" in attrs:
            out.extend(decode(attrs[f"{name}{i}"]))
            i += 1
        return out

    def text(self, name):
        value = self.file.attrs.get(name)
        if value is None:
            return None
        if hasattr(value, "tolist") and not isinstance(value, (bytes, str)):
            value = value.tolist()
        if isinstance(value, bytes):
            value = value.decode("utf-8")
        if not isinstance(value, str):
            self.fail(f"root attribute '{name}' should be a string, got {type(value).__name__}")
        return value


def _open_h5(h5py, target, api, source):
    try:
        return h5py.File(target, "r")
    except (OSError, ValueError) as e:
        raise ValueError(f"{api}: {source}: not a readable HDF5 file ({e}): truncated or damaged?") from None


def _save_strings(group, name, values):
    """Keras's save_attributes_to_hdf5_group: one attribute, or name0, name1, ... chunks when the
    list is too long for an HDF5 object header."""
    np = _np()
    data = np.asarray([v.encode("utf-8") for v in values]) if values else np.asarray([])
    chunks = 1
    parts = np.array_split(data, chunks) if values else [data]
    while values and any(p.nbytes > _HDF5_OBJECT_HEADER_LIMIT for p in parts):
        chunks += 1
        parts = np.array_split(data, chunks)
    if chunks > 1:
        for i, part in enumerate(parts):
            group.attrs[f"{name}{i}"] = part
    else:
        group.attrs[name] = data


# --- weights in, weights out ------------------------------------------------------------------------
_KINDS = {"float32": "f", "int32": "iu", "bool": "b"}


def _check(var, ds, label, fail):
    shape = tuple(ds.shape) if ds.shape is not None else None
    if shape != tuple(var.shape):
        fail(f"weight {label} has shape {list(shape) if shape is not None else None} in the file but the layer "
             f"expects {list(var.shape)}")
    kind = ds.dtype.kind
    if kind not in _KINDS.get(var.dtype, ""):
        fail(f"weight {label} has dtype {ds.dtype} in the file but the layer's variable is {var.dtype}")


def _assign(plan, fail):
    """Assign the datasets of plan [(variable, dataset, label)], each checked before any is read."""
    np = _np()
    for var, ds, label in plan:
        _check(var, ds, label, fail)
    for var, ds, label in plan:
        try:
            value = ds[()]
        except Exception as e:   # h5py raises OSError, RuntimeError, ... for damaged chunks
            fail(f"weight {label} cannot be read ({e}): truncated or damaged file?")
        flat = np.ascontiguousarray(value, dtype={"float32": "float32", "int32": "int32", "bool": "bool"}[var.dtype])
        t = make_tensor(flat.reshape(-1), tuple(var.shape), var.dtype)
        try:
            var.assign(t)
        finally:
            t.dispose()


def _keras3_plan(groups, h5, fail):
    """[(variable, dataset, label)] for the groups _vars_groups gives, links and shapes unread."""
    plan = []
    for path, layer, variables in groups:
        if variables is None:
            continue
        group = h5.get(path)
        label = f"of layer '{layer.name}' ({layer.get_class_name()})"
        if group is not None and not isinstance(group, h5.h5py.Group):
            fail(f"'{path}' should be a group of weights {label}")
        present = sorted(group.keys()) if group is not None else []
        if len(present) != len(variables):
            fail(f"layer '{layer.name}' ({layer.get_class_name()}) has {len(variables)} weight(s) but the file has "
                 f"{len(present)} at '{path}'" + (" (missing weights)" if len(present) < len(variables) else ""))
        for i, var in enumerate(variables):
            ds = h5.dataset(str(i), group, f"{i} ('{var.name}') {label}")
            if ds is None:
                fail(f"weight {i} ('{var.name}') {label} is missing at '{path}/{i}'")
            plan.append((var, ds, f"'{path}/{i}' ({var.name}) {label}"))
    return plan


def _legacy_plan(model, h5, fail):
    root = h5.get("model_weights")
    if root is None:
        fail("no 'model_weights' group (weights missing)")
    plan = []
    for layer in model.layers:
        variables = _legacy_weights(layer)
        if not variables:
            continue
        label = f"layer '{layer.name}' ({layer.get_class_name()})"
        group = h5.get(layer.name, root)
        if group is None:
            fail(f"{label} has {len(variables)} weight(s) but the file has no group model_weights/{layer.name} "
                 f"(missing weights)")
        names = h5.strings(group, "weight_names")
        if len(names) != len(variables):
            fail(f"{label} has {len(variables)} weight(s) but the file lists {len(names)} in "
                 f"model_weights/{layer.name}")
        for var, name in zip(variables, names):
            ds = h5.dataset(name, group, f"'{name}' of {label}")
            if ds is None:
                fail(f"weight '{name}' of {label} is missing from model_weights/{layer.name}")
            plan.append((var, ds, f"'{name}' of {label}"))
    return plan


def _value(var):
    np = _np()
    return np.asarray(var.data_sync(), dtype={"float32": "float32", "int32": "int32", "bool": "bool"}[
        var.dtype]).reshape(tuple(var.shape))


# --- compiling from the file's training config ---------------------------------------------------------
class _NotCompiled(Exception):
    pass


_LOSS_CLASSES = {"MeanSquaredError": "mean_squared_error", "MeanAbsoluteError": "mean_absolute_error",
                 "MeanAbsolutePercentageError": "mean_absolute_percentage_error",
                 "MeanSquaredLogarithmicError": "mean_squared_logarithmic_error", "Hinge": "hinge",
                 "SquaredHinge": "squared_hinge", "CategoricalHinge": "categorical_hinge", "LogCosh": "logcosh",
                 "CategoricalCrossentropy": "categorical_crossentropy",
                 "SparseCategoricalCrossentropy": "sparse_categorical_crossentropy",
                 "BinaryCrossentropy": "binary_crossentropy", "KLDivergence": "kullback_leibler_divergence",
                 "Poisson": "poisson", "CosineSimilarity": "cosine_proximity"}
_LOSS_NAMES = {"log_cosh": "logcosh", "kl_divergence": "kullback_leibler_divergence",
               "kld": "kullback_leibler_divergence", "cosine_similarity": "cosine_proximity"}
_METRIC_CLASSES = {"Accuracy": "accuracy", "BinaryAccuracy": "binary_accuracy",
                   "CategoricalAccuracy": "categorical_accuracy",
                   "SparseCategoricalAccuracy": "sparse_categorical_accuracy", "Precision": "precision",
                   "Recall": "recall", "R2Score": "r2_score", **_LOSS_CLASSES}


def _loss(spec):
    if isinstance(spec, (list, tuple)):
        return [_loss(s) for s in spec]
    if isinstance(spec, dict) and "class_name" not in spec:
        return {k: _loss(v) for k, v in spec.items()}
    if isinstance(spec, dict):
        cfg = spec.get("config") or {}
        if cfg.get("from_logits") or cfg.get("label_smoothing"):
            raise _NotCompiled(f"loss {spec['class_name']} with from_logits or label_smoothing has no TF.js equivalent")
        name = _LOSS_CLASSES.get(spec["class_name"]) or (cfg.get("fn") if isinstance(cfg.get("fn"), str) else None)
        if name is None:
            raise _NotCompiled(f"unknown loss {spec['class_name']}")
    elif isinstance(spec, str):
        name = _LOSS_NAMES.get(spec, spec)
    else:
        raise _NotCompiled(f"loss {_short(spec)}")
    try:
        losses.get(name)
    except (ValueError, TypeError):
        raise _NotCompiled(f"loss '{name}' is not one pytfweb has") from None
    return name


def _metrics(spec, dropped):
    if spec is None:
        return None
    if isinstance(spec, dict) and "class_name" not in spec:
        return {k: _metrics(v, dropped) for k, v in spec.items()}
    out = []
    for m in spec if isinstance(spec, (list, tuple)) else [spec]:
        if isinstance(m, (list, tuple)):
            out.extend(_metrics(m, dropped) or [])
            continue
        name = m
        if isinstance(m, dict):
            cfg = m.get("config") or {}
            name = _METRIC_CLASSES.get(m.get("class_name")) or (cfg.get("fn") if isinstance(cfg.get("fn"), str)
                                                                else None)
        name = _LOSS_NAMES.get(name, name) if isinstance(name, str) else name
        try:
            if name not in ("accuracy", "acc"):
                _m.get(name)
            out.append(name)
        except (ValueError, TypeError):
            dropped.append(str(name))
    return out or None


def _optimizer(spec):
    if isinstance(spec, str):
        cls, cfg = spec, {}
    elif isinstance(spec, dict) and isinstance(spec.get("class_name"), str):
        cls, cfg = spec["class_name"], spec.get("config") or {}
    else:
        raise _NotCompiled(f"optimizer {_short(spec)}")
    lr = cfg.get("learning_rate", cfg.get("lr"))
    if isinstance(lr, dict):
        raise _NotCompiled("a learning-rate schedule has no TF.js equivalent")
    for key in ("clipnorm", "clipvalue", "global_clipnorm"):
        if cfg.get(key) is not None:
            raise _NotCompiled(f"the optimizer's {key} has no TF.js equivalent")
    if cfg.get("weight_decay") or cfg.get("use_ema") or cfg.get("amsgrad"):
        raise _NotCompiled("weight_decay, use_ema and amsgrad have no TF.js equivalent")
    b1, b2, eps = cfg.get("beta_1", 0.9), cfg.get("beta_2", 0.999), cfg.get("epsilon", 1e-7)
    key = cls.lower()
    if key == "adam":
        return train.adam(lr or 0.001, b1, b2, eps)
    if key == "sgd":
        if cfg.get("momentum"):
            return train.momentum(lr or 0.01, cfg["momentum"], bool(cfg.get("nesterov")))
        return train.sgd(lr or 0.01)
    if key == "rmsprop":
        return train.rmsprop(lr or 0.001, cfg.get("rho", 0.9), cfg.get("momentum", 0.0), eps, bool(cfg.get("centered")))
    if key == "adagrad":
        return train.adagrad(lr or 0.001, cfg.get("initial_accumulator_value", 0.1))
    if key == "adadelta":
        return train.adadelta(lr or 0.001, cfg.get("rho", 0.95), eps)
    if key == "adamax":
        return train.adamax(lr or 0.001, b1, b2, eps)
    raise _NotCompiled(f"optimizer {cls} is not one TF.js has")


def _compile(model, optimizer, loss, metrics, api, source):
    """Compile as the file's training config says; what has no TF.js equivalent leaves the model
    uncompiled, with a warning (as Keras does when it cannot compile a loaded model)."""
    dropped, opt = [], None
    try:
        loss = _loss(loss)
        metrics = _metrics(metrics, dropped)
        opt = _optimizer(optimizer)
        model.compile(optimizer=opt, loss=loss, metrics=metrics)
        model._optimizer_owned = True   # made here: the model disposes it
    except (_NotCompiled, ValueError, TypeError) as e:
        if opt is not None and model.optimizer is not opt:
            opt.dispose()
        warnings.warn(f"{api}: {source}: the model is loaded uncompiled: {e}. Compile it yourself.", stacklevel=3)
        return
    if dropped:
        warnings.warn(f"{api}: {source}: metrics without a pytfweb equivalent were left out: {', '.join(dropped)}",
                      stacklevel=3)


# --- load -----------------------------------------------------------------------------------------------
def _path(path, api):
    if isinstance(path, os.PathLike):
        path = os.fspath(path)
    if not isinstance(path, str) or not path:
        raise TypeError(f"{api}: argument 'path' must be a path string, got {path!r}")
    return path


def _kind(path, api):
    lower = path.lower()
    if lower.endswith(KERAS_SUFFIXES):
        return "keras"
    if lower.endswith(H5_SUFFIXES):
        return "h5"
    try:
        with open(path, "rb") as f:
            head = f.read(8)
    except OSError as e:
        raise ValueError(f"{api}: {path}: cannot be read ({e.strerror})") from None
    if head.startswith(_ZIP_MAGIC):
        return "keras"
    if head.startswith(_HDF5_MAGIC):
        return "h5"
    raise ValueError(f"{api}: {path}: not a Keras file (expected a .keras zip archive or an .h5 HDF5 file)")


def _zip_member_info(zf, name, api, source):
    info = zf.getinfo(name)
    if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
        raise ValueError(f"{api}: {source}: member '{name}' is compressed with method {info.compress_type}; Keras "
                         f"stores or deflates its members, and only those two are read")
    if info.flag_bits & 0x1:
        raise ValueError(f"{api}: {source}: member '{name}' is encrypted; Keras files never are")
    return info


def _zip_member(zf, name, limit, api, source, why):
    """The bytes of member `name` as a BytesIO, inflated in chunks and counted as they come: more
    than `limit` bytes is refused (a ValueError naming the file, the member and the limit), whatever
    the archive's headers claim. `why` says where the limit comes from."""
    info = _zip_member_info(zf, name, api, source)

    def refuse(claimed=None):
        what = f"claims {claimed} bytes" if claimed is not None else f"inflates to more than {limit} bytes"
        raise ValueError(f"{api}: {source}: member '{name}' {what}, beyond the limit of {limit} bytes ({why}): "
                         f"refused (a decompression bomb, or headers that lie about sizes?)")
    if info.file_size > limit:
        refuse(info.file_size)
    out, total = io.BytesIO(), 0
    try:
        with zf.open(info) as member:
            while True:
                # one read inflates at most this many bytes, so the count is checked before memory is spent
                chunk = member.read(min(_ZIP_READ_CHUNK, limit - total + 1))
                if not chunk:
                    break
                total += len(chunk)
                if total > limit:
                    refuse()
                out.write(chunk)
    except (zipfile.BadZipFile, zlib.error, EOFError, OSError, NotImplementedError, RuntimeError) as e:
        raise ValueError(f"{api}: {source}: member '{name}' cannot be read ({e}): truncated or damaged file?") from None
    out.seek(0)
    return out


def _zip_json(zf, name, api, source):
    """A JSON member (config.json, metadata.json), read under _JSON_MEMBER_LIMIT bytes and parsed by
    limits.load_json (a ValueError for JSON nested too deep, never a RecursionError)."""
    limit = min(_JSON_MEMBER_LIMIT, _archive_member_limit())
    data = _zip_member(zf, name, limit, api, source, f"a Keras archive's {name} is small; the most read is "
                                                     f"{_JSON_MEMBER_LIMIT} bytes or the tf.env() flag "
                                                     f"MAX_ARCHIVE_MEMBER_BYTES, whichever is less")
    return _load_json(data.getvalue(), api, source, name)


def _load_json(text, api, source, name):
    try:
        return load_json(text, f"{api}: {source}: {name}")
    except ValueError as e:
        msg = str(e)
        raise ValueError(msg.replace(f"{name}: not valid JSON", f"{name} is not valid JSON", 1)) from None


def _archive_member_limit():
    return int(ENV.get("MAX_ARCHIVE_MEMBER_BYTES"))


def _open_archive(path, api):
    """The open ZipFile of a .keras file, its member names checked: each name once (a zip whose
    two members share a name reads as one thing here and another elsewhere), config.json present."""
    try:
        zf = zipfile.ZipFile(path)
    except FileNotFoundError:
        raise ValueError(f"{api}: {path}: no such file") from None
    except (zipfile.BadZipFile, OSError, EOFError, ValueError) as e:
        raise ValueError(f"{api}: {path}: not a .keras file, which is a zip archive ({e}): truncated or damaged?") \
            from None
    try:
        names, seen = zf.namelist(), set()
        for name in names:
            if name in seen:
                raise ValueError(f"{api}: {path}: the archive holds two members named '{name}': refused (Keras "
                                 f"never writes one, and readers disagree on which one counts)")
            seen.add(name)
        if "config.json" not in seen:
            raise ValueError(f"{api}: {path}: the archive has no config.json: not a Keras 3 .keras file")
    except BaseException:
        zf.close()
        raise
    return zf


def _weights_budget(model, config, groups):
    """(the most bytes model.weights.h5 may inflate to, how that was reckoned): the model's weights
    as the file may store them (8 bytes a value when the config names a 64-bit dtype, else 4), times
    1 + _OPTIMIZER_COPIES when the config says the model was compiled (Keras saves the optimizer's
    slots beside the weights), plus HDF5's overhead (1 MiB, 1/8 of the data, and a little per group
    and dataset), and never more than the tf.env() flag MAX_ARCHIVE_MEMBER_BYTES."""
    seen, values, count = set(), 0, 0
    for var in model.weights:
        if id(var) in seen:
            continue
        seen.add(id(var))
        n = 1
        for d in var.shape:
            n *= int(d)
        values, count = values + n, count + 1
    text = json.dumps(config)
    per_value = 8 if any(f'"{t}"' in text for t in _WIDE_DTYPES) else 4
    cc = config.get("compile_config")
    copies = 1 + (_OPTIMIZER_COPIES if isinstance(cc, dict) and cc.get("optimizer") is not None else 0)
    data = values * per_value * copies
    budget = data + data // 8 + _H5_OVERHEAD + _H5_GROUP_OVERHEAD * len(groups) + _H5_DATASET_OVERHEAD * count * copies
    flag = _archive_member_limit()
    why = (f"the model's {count} weights hold {values} values, {data} bytes as stored"
           f"{' with optimizer state' if copies > 1 else ''}, plus room for HDF5's own structures")
    if budget > flag:
        return flag, "tf.env() flag MAX_ARCHIVE_MEMBER_BYTES"
    return budget, why


def _build(topology, custom_objects, api, source):
    try:
        # every weight is assigned from the file next (a missing one fails the load)
        return _ser.model_from_topology(topology, custom_objects=custom_objects, fast_weight_init=True)
    except (ValueError, TypeError, NotImplementedError) as e:
        msg = f"{api}: {source}: the model cannot be rebuilt from its config: {e}"
        try:
            err = type(e)(msg)
        except Exception:
            err = ValueError(msg)
        raise err from e
    except KeyError as e:
        raise ValueError(f"{api}: {source}: the model config lacks the key {e}") from e


def _settle_kept_shapes(model):
    """Write the inferred size into the Reshapes that stand for keepdims=True (layer_entries) now
    that the graph knows it: TF.js's Reshape cannot infer a size while the batch size is unknown, so
    a model saved from here for TF.js needs it written out."""
    for layer in model.layers:
        if isinstance(layer, Model):
            _settle_kept_shapes(layer)
            continue
        if layer.get_class_name() != "Reshape" or -1 not in layer.target_shape or not layer.inbound_nodes:
            continue
        node = layer.inbound_nodes[0]
        if [x.name for x in node.inbound_layers] != [f"{layer.name}_pool"]:
            continue
        shape = node.output_shapes[0][1:]
        if all(isinstance(d, int) and d > 0 for d in shape):
            layer.target_shape = list(shape)


def load_keras_model(path: Union[str, os.PathLike], custom_objects: Optional[dict] = None,
                     compile: bool = True) -> Any:  # noqa: A002 - Keras's argument name
    """A pytfweb model from a Keras file: a Keras 3 `.keras` archive or a legacy `.h5`
    (tf.keras 2 or Keras 3). compile=True compiles it as its training config says, when that has
    TF.js equivalents (else a warning and an uncompiled model); the optimizer's state is not
    loaded. custom_objects maps class names to Layer subclasses for layers pytfweb lacks.

    The file is data from a stranger: a .keras archive's members are inflated under limits (the
    weights under what the model built from config.json declares, see _weights_budget), JSON nested
    deeper than the tf.env() flag MAX_NESTING_DEPTH is refused, and only data inside the HDF5 file is
    read (no external or soft links, virtual datasets or external storage), each dataset's shape
    checked before it is read. Errors name the file, the layer and the weight; after one, no tensor
    is left behind.

    Args:
        path: the .keras or .h5 file.
        custom_objects: {class name: Layer subclass} for layers pytfweb lacks.
        compile: compile the model as the file's training config says.

    Returns:
        The model (a Sequential or Model).

    Raises:
        ValueError: the file is not a Keras model pytfweb can read (the message says why).

    Example:
        >>> import os, tempfile
        >>> path = os.path.join(tempfile.mkdtemp(), "model.keras")
        >>> model = tf.sequential([tf.layers.dense(units=2, input_shape=[3])])
        >>> _ = model.save_keras(path)
        >>> tf.load_keras_model(path).count_params()
        8
    """
    api = "load_keras_model"
    path = _path(path, api)
    kind = _kind(path, api)
    h5py = _h5py(api)
    if kind == "keras":
        model, compile_args = _load_archive(h5py, path, custom_objects, api)
    else:
        model, compile_args = _load_h5(h5py, path, custom_objects, api)
    if compile and compile_args is not None:
        try:
            _compile(model, *compile_args, api, path)
        except BaseException:
            model._dispose_weights()
            raise
    return model


def _load_archive(h5py, path, custom_objects, api):
    """(model, compile arguments or None) of a .keras file: config.json first, the model built from
    it, and only then model.weights.h5, inflated under the budget the built model's weights give."""
    with _open_archive(path, api) as zf:
        config = _zip_json(zf, "config.json", api, path)
        metadata = _zip_json(zf, "metadata.json", api, path) if "metadata.json" in zf.NameToInfo else {}
        if not isinstance(config, dict):
            raise ValueError(f"{api}: {path}: config.json must hold a JSON object, got {type(config).__name__}")
        metadata = metadata if isinstance(metadata, dict) else {}
        if "model.weights.h5" not in zf.NameToInfo:
            if "model.weights.npz" in zf.NameToInfo:
                raise ValueError(f"{api}: {path}: weights in model.weights.npz are not supported (NumPy's npz stores "
                                 f"Keras's groups as pickled objects); save the model with the default h5 weights")
            raise ValueError(f"{api}: {path}: the archive has no model.weights.h5 (missing weights)")
        version = metadata.get("keras_version")
        topology = keras_config_to_topology(config, version if isinstance(version, str) else "3", path,
                                            custom_objects, api)
        compile_args = None
        cc = config.get("compile_config")
        if isinstance(cc, dict) and cc.get("optimizer") is not None and cc.get("loss") is not None:
            compile_args = (cc["optimizer"], cc["loss"], cc.get("metrics"))
        source = f"{path} (model.weights.h5)"
        model = _build(topology, custom_objects, api, path)
        try:
            _settle_kept_shapes(model)
            groups = _vars_groups(model, config, where=f"{api}: {source}")
            budget, why = _weights_budget(model, config, groups)
            weights = _zip_member(zf, "model.weights.h5", budget, api, path, why)
            h5 = _H5(h5py, _open_h5(h5py, weights, api, source), api, source)
            try:
                _assign(_keras3_plan(groups, h5, h5.fail), h5.fail)
            finally:
                h5.file.close()
        except BaseException:
            model._dispose_weights()
            raise
    return model, compile_args


def _load_h5(h5py, path, custom_objects, api):
    """(model, compile arguments or None) of a legacy .h5 file."""
    if not os.path.isfile(path):
        raise ValueError(f"{api}: {path}: no such file")
    h5 = _H5(h5py, _open_h5(h5py, path, api, path), api, path)
    compile_args = None
    try:
        text = h5.text("model_config")
        if text is None:
            h5.fail("the file has no 'model_config' attribute: it holds weights only (Keras's save_weights), "
                    "not a model")
        config = _load_json(text, api, path, "model_config")
        topology = keras_config_to_topology(config, h5.text("keras_version"), path, custom_objects, api)
        tc = h5.text("training_config")
        if tc:
            try:
                tc = load_json(tc, f"{api}: {path}: training_config")
            except ValueError:
                tc = None   # as a training config Keras cannot read: the model loads uncompiled
            if isinstance(tc, dict) and tc.get("optimizer_config") is not None and tc.get("loss") is not None:
                compile_args = (tc["optimizer_config"], tc["loss"], tc.get("metrics"))
        model = _build(topology, custom_objects, api, path)
        try:
            _settle_kept_shapes(model)
            _assign(_legacy_plan(model, h5, h5.fail), h5.fail)
        except BaseException:
            model._dispose_weights()
            raise
    finally:
        h5.file.close()
    return model, compile_args


# --- save -----------------------------------------------------------------------------------------------
def _h5_config(entry):
    """Keras 3's model_config in an .h5 file: the .keras config without the layer entries' module,
    registered_name and build_config."""
    out = {k: v for k, v in entry.items() if k not in ("module", "registered_name", "build_config")}
    config = dict(out.get("config") or {})
    if isinstance(config.get("layers"), list):
        config["layers"] = [_h5_config(e) for e in config["layers"]]
        out["config"] = config
    return out


def _write_keras(h5py, model, config, target):
    buf = io.BytesIO()
    with h5py.File(buf, "w") as f:
        for path, layer, variables in _vars_groups(model):
            group = f.require_group(path)
            group.attrs["name"] = layer.name
            for i, var in enumerate(variables or []):
                group.create_dataset(str(i), data=_value(var))
    metadata = {"keras_version": KERAS_FORMAT_VERSION,
                "date_saved": datetime.datetime.now().strftime("%Y-%m-%d@%H:%M:%S")}
    with zipfile.ZipFile(target, "w") as zf:
        zf.writestr("metadata.json", json.dumps(metadata))
        zf.writestr("config.json", json.dumps(config))
        zf.writestr("model.weights.h5", buf.getvalue())


def _write_h5(h5py, model, config, target):
    with h5py.File(target, "w") as f:
        f.attrs["keras_version"] = KERAS_FORMAT_VERSION
        f.attrs["backend"] = "tensorflow"
        f.attrs["model_config"] = json.dumps(_h5_config(config))
        root = f.create_group("model_weights")
        layers = _legacy_layers(model)
        _save_strings(root, "layer_names", [layer.name for layer in layers])
        root.attrs["backend"] = "tensorflow"
        root.attrs["keras_version"] = KERAS_FORMAT_VERSION
        for layer in sorted(layers, key=lambda x: x.name):
            group = root.create_group(layer.name)
            variables = _legacy_weights(layer)
            names = []
            for i, var in enumerate(variables):
                name = var.name if isinstance(var.name, str) and var.name and var.name not in names else None
                names.append(name or f"{layer.name}/weight_{i}")
            _save_strings(group, "weight_names", names)
            for name, var in zip(names, variables):
                group.create_dataset(name, data=_value(var))
        _save_strings(root.create_group("top_level_model_weights"), "weight_names", [])


def save_keras(model, path):
    """Save model as a Keras file, by extension: `.keras` (Keras 3's archive, for
    keras.saving.load_model) or `.h5`/`.hdf5` (the legacy layout). Weights and architecture only:
    no optimizer state or training config. Raises before writing anything when the model has
    something Keras 3 would run differently (hard_sigmoid, ThresholdedReLU, ...); the file appears
    whole or not at all."""
    api = "save_keras"
    path = _path(path, api)
    lower = path.lower()
    if not lower.endswith(KERAS_SUFFIXES + H5_SUFFIXES):
        raise ValueError(f"{api}: {path}: the file name must end in .keras (Keras 3) or .h5/.hdf5 (legacy)")
    h5py = _h5py(api)
    if not getattr(model, "built", True) or not getattr(model, "outputs", None):
        raise ValueError(f"{api}: {path}: the model is not built (a Sequential model needs layers and an input "
                         f"shape)")
    config = _ToKeras(api, path).model(model, _ser.model_to_topology(model))
    writer = _write_keras if lower.endswith(KERAS_SUFFIXES) else _write_h5
    _write_atomically(path, lambda f: writer(h5py, model, config, f))
    return path


def _write_atomically(path, write):
    """write(file object) into a new file beside path, then rename it onto path: the file appears
    whole or not at all. The file is created with mode 0o666 less the umask, as open() would make
    it (tempfile.mkstemp's files are 0o600 whatever the umask)."""
    directory = os.path.dirname(os.path.abspath(path))
    os.makedirs(directory, exist_ok=True)
    suffix = os.path.splitext(path)[1]
    flags = os.O_RDWR | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0) | getattr(os, "O_NOFOLLOW", 0)
    for _ in range(100):
        tmp = os.path.join(directory, f".pytfweb-{secrets.token_hex(8)}{suffix}")
        try:
            fd = os.open(tmp, flags, 0o666)
            break
        except FileExistsError:
            continue
    else:
        raise FileExistsError(f"{path}: no free temporary name beside it")
    try:
        with os.fdopen(fd, "w+b") as f:
            write(f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.remove(tmp)
        except OSError:
            pass
        raise


register_keras_saver(save_keras)   # Model.save_keras (layers do not import keras_files)
