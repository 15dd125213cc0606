"""Layer configs, below engine.py: the class registry (pytfweb's own layer classes, registered as
they are defined, and tf.serialization.register_class's), a layer's constructor arguments to
JSON-ready values (config_value, what Layer.get_config writes) and back (layer_kwargs,
deserialize_layer, what Layer.from_config reads), and the tracking that lets a failed model file
dispose what it made. serialization.py builds on this for whole models and their weights.

A file is data: nothing in it is run. A Lambda layer (code) or an unknown class is refused with
the layer's name.
"""
import contextlib
import functools
import inspect
import json

from . import activations as _activations
from . import constraints, initializers, regularizers
from ._utils import snake as _snake

from .registry import _REGISTERED, _REGISTERED_NAMES, _accepted_params, _object_from_config  # noqa: F401


# --- tf.serialization ----------------------------------------------------------------------------------
def register_class(cls, pkg=None, name=None):
    """Make a class loadable from model files by its class_name (a class attribute, TF.js's static
    className); returns the class, so it works as a decorator.

    Args:
        cls: the class (a Layer subclass, usually), defining its own class_name.
        pkg: the package part of the registered name ('Custom' when None).
        name: the name part of the registered name (class_name when None).

    Returns:
        cls.

    Raises:
        ValueError: cls has no class_name of its own.

    Example:
        >>> @tf.serialization.register_class
        ... class DocExampleTwice(tf.layers.Layer):
        ...     class_name = "DocExampleTwice"   # the registry keeps it: a name no model file uses
        ...     def call(self, inputs, training=False):
        ...         return tf.mul(inputs, 2)
        >>> "DocExampleTwice" in tf.serialization.SerializationMap.get_map().class_name_map
        True
    """
    class_name = getattr(cls, "class_name", None) if isinstance(cls, type) else None
    if not isinstance(class_name, str) or not class_name:
        raise ValueError(f"register_class: the class {getattr(cls, '__name__', cls)!r} must define a non-empty "
                         f"string class attribute 'class_name' (TF.js's static className)")
    if "class_name" not in vars(cls):
        raise ValueError(f"register_class: {cls.__name__} inherits class_name '{class_name}' from a base class; "
                         f"give it its own")
    registered = f"{pkg or 'Custom'}>{name or class_name}"
    _REGISTERED[class_name] = cls
    _REGISTERED[registered] = cls
    _REGISTERED_NAMES[cls] = registered
    return cls


def get_registered_name(cls):
    """The name register_class gave cls ('Custom>Name'), else its class_name."""
    return _REGISTERED_NAMES.get(cls, getattr(cls, "class_name", cls.__name__))


class SerializationMap:
    """TF.js's SerializationMap: the classes model files can name, by name (the built-in layers and
    those registered with tf.serialization.register_class).

    Example:
        >>> tf.serialization.SerializationMap.get_map().class_name_map["Dense"] is tf.layers.Dense
        True
    """

    @staticmethod
    def get_map():
        """The map (TF.js's SerializationMap.getMap()).

        Returns:
            A SerializationMap.
        """
        return SerializationMap()

    @property
    def class_name_map(self):
        """{class name: class} of the built-in and registered classes."""
        return {**builtin_layers(), **_REGISTERED}

    @staticmethod
    def register(cls):
        """tf.serialization.register_class(cls).

        Args:
            cls: the class.

        Returns:
            cls.
        """
        return register_class(cls)


_BUILTIN = {}   # class_name -> pytfweb's own layer class; filled by Layer.__init_subclass__


def register_builtin(cls):
    """Called for every subclass of Layer as it is defined (engine.Layer.__init_subclass__): the
    classes of pytfweb's own modules with their own class_name are the built-in layers."""
    if "class_name" in vars(cls) and cls.__module__.startswith("pytfweb."):
        _BUILTIN[cls.class_name] = cls
        if cls.class_name == "Model":
            _BUILTIN["Functional"] = cls   # tf.keras 2.4+ names functional models so


def builtin_layers():
    """Every built-in layer (and model) class by class_name ('Functional' is Model)."""
    return dict(_BUILTIN)


# --- values --------------------------------------------------------------------------------------------
def config_value(key, value, owner=None):
    """value as JSON for a config: activations by name, objects with get_config as
    {class_name, config}, tuples as lists."""
    if isinstance(value, str):
        for suffix, module in _OBJECT_KINDS:
            if key.endswith(suffix):   # a name given to the constructor, written as the object it names
                return config_value(key, module().get(value), owner)
        # TF.js writes string values in Python style ('multiHot' -> 'multi_hot'), names as they are
        return value if key == "name" else _snake(value)
    if value is None or isinstance(value, (bool, int, float)):
        return value
    if isinstance(value, (list, tuple)):
        return [config_value(key, v, owner) for v in value]
    if isinstance(value, dict):
        return {k: config_value(k, v, owner) for k, v in value.items()}
    if hasattr(value, "get_config") and hasattr(value, "get_class_name"):
        return {"class_name": value.get_class_name(), "config": value.get_config()}
    if key.endswith("activation") and callable(value):
        name = _activations.name_of(value)
        if _activations.ACTIVATIONS.get(name) is value:
            return name
    where = f" of layer '{owner.name}'" if owner is not None and hasattr(owner, "name") else ""
    raise ValueError(f"get_config: '{key}'{where} is {value!r}, which cannot be written to a model file (only "
                     f"named activations and built-in or registered objects can)")


_OBJECT_KINDS = (("_initializer", lambda: initializers), ("_regularizer", lambda: regularizers),
                 ("_constraint", lambda: constraints))


def serialize(obj):
    """{class_name, config} of a layer, model, initializer, regularizer or constraint."""
    return {"class_name": obj.get_class_name(), "config": obj.get_config()}


def layer_kwargs(cls, config, custom_objects=None):
    """Constructor keyword arguments from a layer config: nested objects deserialized, fields the
    constructor does not take dropped."""
    if not isinstance(config, dict):
        raise ValueError(f"{cls.get_class_name(cls) if hasattr(cls, 'class_name') else cls.__name__}: a layer "
                         f"config must be an object, got {type(config).__name__}")
    accepted = _accepted_params(cls)
    kwargs = {}
    for key, value in config.items():
        if key == "batch_shape":   # Keras 3's spelling
            key = "batch_input_shape"
        if key not in accepted:
            continue
        kwargs[key] = _value_from_config(key, value, custom_objects)
    if "batch_input_shape" in kwargs and "input_shape" in kwargs:
        kwargs.pop("input_shape")
    return kwargs


def _value_from_config(key, value, custom_objects):
    if isinstance(value, dict) and value.get("type") == "ndarray" and "value" in value:
        # a numpy scalar as Keras 2's JSON encoder writes it ({"type": "ndarray", "value": 6}); TF.js
        # reads its value (convertNDArrayScalarsInConfig)
        return value["value"]
    if key in ("layer", "cell") and value is not None:
        if isinstance(value, list):
            return [deserialize_layer(v, custom_objects) for v in value]
        return deserialize_layer(value, custom_objects)
    if key == "cells" and value is not None:
        return [deserialize_layer(v, custom_objects) for v in value]
    if key == "dtype" and isinstance(value, dict):   # a Keras DTypePolicy
        return (value.get("config") or {}).get("name", "float32")
    if isinstance(value, dict) and "class_name" in value:
        for suffix, module in (("_initializer", initializers), ("_regularizer", regularizers),
                               ("_constraint", constraints)):
            if key.endswith(suffix):
                return _object_from_config(value, module, suffix[1:], custom_objects)
    return value


# --- layers ---------------------------------------------------------------------------------------------
_REFUSED = {"Lambda": "a Lambda layer is Python or JavaScript code, and code from a model file is never run"}


def deserialize_layer(spec, custom_objects=None):
    """The layer (or model) a {class_name, config} describes."""
    if not isinstance(spec, dict) or "class_name" not in spec:
        raise ValueError(f"A layer must be described as {{'class_name': ..., 'config': {{...}}}}, got "
                         f"{json.dumps(spec)[:200] if _jsonable(spec) else type(spec).__name__}")
    name = spec["class_name"]
    config = spec.get("config") if spec.get("config") is not None else {}
    layer_name = config.get("name") if isinstance(config, dict) else None
    label = f"layer '{layer_name}' ({name})" if layer_name else f"a {name} layer"
    if name in _REFUSED and not (custom_objects and name in custom_objects):
        raise ValueError(f"Cannot load {label}: {_REFUSED[name]}. Rebuild that layer in Python (or register a "
                         f"class for it with tf.serialization.register_class) and load the weights.")
    cls = (custom_objects or {}).get(name) or _REGISTERED.get(name) or _BUILTIN.get(name)
    if cls is None:
        raise ValueError(f"Unknown layer class '{name}' for {label}. Register custom layers with "
                         f"tf.serialization.register_class(cls) or pass custom_objects={{'{name}': cls}}.")
    try:
        layer = cls.from_config(config, custom_objects) if _takes_custom(cls) else cls.from_config(config)
    except (TypeError, ValueError) as e:
        if str(e).startswith(("Cannot load", "Unknown layer class", "Unknown ")):
            raise
        raise type(e)(f"Cannot build {label} from its config: {e}") from e
    _track(layer)
    return layer


@functools.lru_cache(maxsize=None)
def _takes_custom(cls):
    try:
        return "custom_objects" in inspect.signature(cls.from_config).parameters
    except (TypeError, ValueError):
        return False


def _jsonable(v):
    try:
        json.dumps(v)
        return True
    except (TypeError, ValueError):
        return False


_building = []   # stacks of layers made by the model_from_topology calls in progress


def _track(layer):
    if _building:
        _building[-1].append(layer)


@contextlib.contextmanager
def _disposing_on_error():
    """Dispose every layer made inside the block if the block fails (a broken file leaves no
    weight behind)."""
    made = []
    _building.append(made)
    try:
        yield
    except BaseException:
        for layer in reversed(made):
            try:
                layer._dispose_weights()
            except Exception:   # noqa: BLE001 - already failing; free what can be freed
                pass
        raise
    finally:
        _building.pop()
