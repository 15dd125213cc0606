"""tf.load_layers_model and model.save: a LayersModel to and from ModelArtifacts, as TF.js does.

save: the topology (serialization.model_to_topology), the named weights encoded as TF.js lays
them out, and with include_optimizer the training config and the optimizer's weights (group
"optimizer"). load: the artifacts from a handler, the model from the topology, compiled from the
training config when there is one, then the weights assigned by name (strict by default).
"""
import json
import re
import warnings
from typing import Any, Callable, Optional

from ..core.api import dispose
from ..train import Optimizer
from ..io import router as _router
from ..io.artifacts import ModelArtifacts
from ..io.weights import decode_weights, encode_weights
from . import serialization as _ser
from ._utils import snake

FORMAT = "layers-model"
GENERATED_BY = "TensorFlow.js tfjs-layers v4.22.0"   # the format version pytfweb writes (TF.js 4.22's)
MAX_USER_DEFINED_METADATA_SERIALIZED_LENGTH = 1024 * 1024   # longer metadata is saved with a warning (TF.js's)


# --- save -------------------------------------------------------------------------------------------
def model_artifacts(model, include_optimizer=False, trainable_only=False, quantization=None):
    """ModelArtifacts for model: topology, weights (and optimizer state when asked)."""
    named = _ser.named_weights(model, trainable_only=trainable_only)
    data, specs = encode_weights(named, quantization=quantization)
    artifacts = ModelArtifacts(model_topology=_ser.model_to_topology(model), format=FORMAT,
                               generated_by=GENERATED_BY, converted_by=None)
    if include_optimizer and model.optimizer is not None:
        artifacts.training_config = training_config(model)
        opt_weights = model.optimizer.get_weights()
        try:
            opt_data, opt_specs = encode_weights(opt_weights, group="optimizer")
        finally:
            dispose([w["tensor"] for w in opt_weights if w["name"] == "iter"])
        data, specs = data + opt_data, specs + opt_specs
    metadata = getattr(model, "user_defined_metadata", None)
    if metadata is not None:
        size = len(json.dumps(metadata))
        if size > MAX_USER_DEFINED_METADATA_SERIALIZED_LENGTH:
            warnings.warn(f"User-defined metadata of model \"{model.name}\" is too large in size (length={size} "
                          f"when serialized). It is not recommended to store such large objects in user-defined "
                          f"metadata. Please make sure its serialized length is <= "
                          f"{MAX_USER_DEFINED_METADATA_SERIALIZED_LENGTH}.")
        artifacts.user_defined_metadata = metadata
    artifacts.weight_data, artifacts.weight_specs = data, specs
    return artifacts


def training_config(model):
    """TF.js's getTrainingConfig: loss and metric names and the optimizer's class and config."""
    loss, metrics = model._compile_spec or (None, None)

    def name(v, what):
        if not isinstance(v, str):
            raise ValueError(f"save: serialization of a non-string {what} ({v!r}) is not supported; compile with "
                             f"{what} names to save with include_optimizer=True")
        return snake(v)

    if isinstance(loss, dict):
        loss_ids = {k: name(v, "loss") for k, v in loss.items()}
    elif isinstance(loss, (list, tuple)):
        loss_ids = [name(v, "loss") for v in loss]
    else:
        loss_ids = name(loss, "loss")
    config = {"loss": loss_ids}
    if metrics is not None:
        if isinstance(metrics, str):
            metrics = [metrics]
        bad = [m for m in (metrics.values() if isinstance(metrics, dict) else metrics) if not isinstance(m, (str, list))]
        if bad:
            raise ValueError(f"save: serialization of non-string metrics ({bad[0]!r}) is not supported")
        config["metrics"] = metrics if isinstance(metrics, dict) else list(metrics)
    opt = model.optimizer
    config["optimizer_config"] = {"class_name": opt.get_class_name(),
                                  "config": {_camel(k): v for k, v in opt.get_config().items()}}
    return config


_QUANTIZATION_BYTES = {None: None, 1: "uint8", 2: "float16"}


def _quantization(quantization_bytes, api):
    if quantization_bytes not in _QUANTIZATION_BYTES:
        raise ValueError(f"{api}: argument 'quantization_bytes' must be None, 1 (uint8, affine) or 2 (float16), "
                         f"got {quantization_bytes!r}")
    return _QUANTIZATION_BYTES[quantization_bytes]


async def save_model(model, handler_or_url, include_optimizer=False, trainable_only=False, quantization_bytes=None):
    """await model.save(...): the SaveResult of the handler. quantization_bytes 1 or 2 stores
    float32 weights as uint8 (affine) or float16, as TF.js's converter does."""
    quantization = _quantization(quantization_bytes, "save")
    handler = _router.resolve_save_handler(handler_or_url, "save")
    artifacts = model_artifacts(model, include_optimizer, trainable_only, quantization)
    return await _router.save_artifacts(handler, artifacts, "save")


def save_model_sync(model, handler_or_url, include_optimizer=False, trainable_only=False, quantization_bytes=None):
    """model.save_sync(...), for handlers that need no awaiting (files, memory, urllib)."""
    quantization = _quantization(quantization_bytes, "save_sync")
    handler = _router.resolve_save_handler(handler_or_url, "save_sync")
    artifacts = model_artifacts(model, include_optimizer, trainable_only, quantization)
    return _router.save_artifacts_sync(handler, artifacts, "save_sync")


# --- load -------------------------------------------------------------------------------------------
def _handler(path_or_handler, api, on_progress, request_init, weight_path_prefix, fetch_func, weight_url_converter):
    return _router.resolve_load_handler(path_or_handler, api, on_progress=on_progress, request_init=request_init,
                                        weight_path_prefix=weight_path_prefix, fetch_func=fetch_func,
                                        weight_url_converter=weight_url_converter)


async def load_layers_model(path_or_handler: Any, strict: bool = True, on_progress: Optional[Callable] = None,
                            request_init: Optional[dict] = None, weight_path_prefix: Optional[str] = None,
                            fetch_func: Optional[Callable] = None, custom_objects: Optional[dict] = None,
                            weight_url_converter: Optional[Callable] = None) -> Any:
    """Load a Keras-style model saved in TF.js's layers format (model.json and weight shards;
    awaited).

    Args:
        path_or_handler: a path or file://, http(s)://, indexeddb://, localstorage:// URL to
            model.json, or a tf.io handler.
        strict: every weight of the model must be in the file, and no other.
        on_progress: called with the fraction loaded.
        request_init: options of the HTTP requests (headers, ...).
        weight_path_prefix: where the weight files are, if not beside model.json.
        fetch_func: the function making HTTP requests.
        custom_objects: {class name: class} for classes not registered with
            tf.serialization.register_class.
        weight_url_converter: a function mapping each weight file name to its URL.

    Returns:
        The model (a Sequential or Model).

    Example:
        >>> import asyncio, os, tempfile
        >>> folder = tempfile.mkdtemp()
        >>> model = tf.sequential([tf.layers.dense(units=1, input_shape=[2], kernel_initializer="ones")])
        >>> _ = model.save_sync(folder)
        >>> loaded = asyncio.run(tf.load_layers_model(os.path.join(folder, "model.json")))
        >>> loaded.predict(tf.tensor([[1, 2]])).print()
        Tensor
            [[3]]
    """
    handler = _handler(path_or_handler, "load_layers_model", on_progress, request_init, weight_path_prefix, fetch_func,
                       weight_url_converter)
    artifacts = await _router.load_artifacts(handler, "load_layers_model")
    return model_from_artifacts(artifacts, strict, _source(path_or_handler), custom_objects)


def load_layers_model_sync(path_or_handler: Any, strict: bool = True, on_progress: Optional[Callable] = None,
                           request_init: Optional[dict] = None, weight_path_prefix: Optional[str] = None,
                           fetch_func: Optional[Callable] = None, custom_objects: Optional[dict] = None,
                           weight_url_converter: Optional[Callable] = None) -> Any:
    """tf.load_layers_model without awaiting, for handlers that need none (files, memory, urllib).

    Args:
        path_or_handler: a path or URL to model.json, or a tf.io handler.
        strict: every weight of the model must be in the file, and no other.
        on_progress: called with the fraction loaded.
        request_init: options of the HTTP requests.
        weight_path_prefix: where the weight files are, if not beside model.json.
        fetch_func: the function making HTTP requests.
        custom_objects: {class name: class} for classes not registered with
            tf.serialization.register_class.
        weight_url_converter: a function mapping each weight file name to its URL.

    Returns:
        The model.

    Example:
        >>> import os, tempfile
        >>> folder = tempfile.mkdtemp()
        >>> _ = tf.sequential([tf.layers.dense(units=3, input_shape=[2])]).save_sync(folder)
        >>> tf.load_layers_model_sync(os.path.join(folder, "model.json")).count_params()
        9
    """
    handler = _handler(path_or_handler, "load_layers_model_sync", on_progress, request_init, weight_path_prefix,
                       fetch_func, weight_url_converter)
    artifacts = _router.load_artifacts_sync(handler, "load_layers_model_sync")
    return model_from_artifacts(artifacts, strict, _source(path_or_handler), custom_objects)


def _source(path_or_handler):
    return path_or_handler if isinstance(path_or_handler, str) else type(path_or_handler).__name__


def model_from_artifacts(artifacts, strict=True, source=None, custom_objects=None):
    """The model the artifacts describe, compiled when they carry a training config, with the
    weights assigned. On any error nothing is left behind."""
    api = "load_layers_model"
    where = f" ({source})" if source else ""
    topology = artifacts.model_topology
    if topology is None:
        raise ValueError(f"{api}{where}: the model artifacts have no model topology (a weights-only file?)")
    if not isinstance(topology, dict):
        raise ValueError(f"{api}{where}: expected a JSON model topology, got {type(topology).__name__}")
    if artifacts.format not in (None, FORMAT):
        raise ValueError(f"{api}{where}: the file's format is '{artifacts.format}', not '{FORMAT}'"
                         + (" (load it with tf.load_graph_model)" if artifacts.format == "graph-model" else ""))
    if artifacts.weight_data is not None and artifacts.weight_specs is None:
        raise ValueError(f"{api}{where}: the artifacts contain weight data but no weight specs, so the weights "
                         f"cannot be loaded")
    if "model_config" in topology:
        topology = topology["model_config"]
    model = _ser.model_from_topology(topology, custom_objects=custom_objects,
                                     nesting_checked=getattr(artifacts, "nesting_checked", False),
                                     fast_weight_init=artifacts.weight_data is not None and strict)
    decoded = {}
    try:
        if artifacts.training_config is not None:
            compile_from_training_config(model, artifacts.training_config, source)
        if artifacts.user_defined_metadata is not None:
            model.user_defined_metadata = artifacts.user_defined_metadata
        if artifacts.weight_data is not None:
            decoded = decode_weights(artifacts.weight_data, artifacts.weight_specs, source)
            groups = {s["name"]: s.get("group") for s in artifacts.weight_specs}
            model_weights = {k: v for k, v in decoded.items() if groups[k] != "optimizer"}
            optimizer_weights = [{"name": k, "tensor": v} for k, v in decoded.items() if groups[k] == "optimizer"]
            _ser.load_named_weights(model, model_weights, strict=strict, source=source)
            if model.optimizer is not None and optimizer_weights:
                model.optimizer.set_weights(optimizer_weights)
    except BaseException:
        dispose(list(decoded.values()))
        model._dispose_weights()
        raise
    dispose(list(decoded.values()))
    return model


def compile_from_training_config(model, config, source=None):
    """TF.js's loadTrainingConfig: compile with the saved loss, metrics and optimizer."""
    where = f" ({source})" if source else ""
    opt_config = config.get("optimizer_config")
    if not isinstance(opt_config, dict) or "class_name" not in opt_config:
        raise ValueError(f"load_layers_model{where}: trainingConfig.optimizer_config must be "
                         f"{{'class_name': ..., 'config': {{...}}}}, got {opt_config!r}")
    optimizer = optimizer_from_config(opt_config, source)
    loss = config.get("loss")
    model.compile(optimizer=optimizer, loss=loss, metrics=config.get("metrics"))
    model._optimizer_owned = True   # made here: the model disposes it


def optimizer_from_config(opt_config, source=None):
    classes = {}
    stack = list(Optimizer.__subclasses__())
    while stack:
        cls = stack.pop()
        classes[getattr(cls, "class_name", cls.__name__)] = cls
        stack.extend(cls.__subclasses__())
    name = opt_config["class_name"]
    if name not in classes:
        where = f" ({source})" if source else ""
        raise ValueError(f"load_layers_model{where}: unknown optimizer class '{name}' in the training config "
                         f"(known: {', '.join(sorted(classes))})")
    kwargs = {_snake_key(k): v for k, v in (opt_config.get("config") or {}).items()}
    return classes[name].from_config(kwargs)


def _camel(key):
    head, *rest = key.split("_")
    return head + "".join(w[:1].upper() + w[1:] for w in rest)


def _snake_key(key):
    return re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", key).lower()
