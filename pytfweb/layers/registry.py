"""Classes by their serialized names, and the initializers, regularizers and constraints built
from their serialized forms: what config.py deserializes with and what those three modules'
get() take dicts through. It imports none of them (they and config.py import it)."""
import functools
import inspect

from ._utils import snake as _snake

_ENGINE_MODULE = __name__.rsplit(".", 1)[0] + ".engine"

_REGISTERED = {}        # registered name ('Custom>MyLayer' and 'MyLayer') -> class
_REGISTERED_NAMES = {}  # class -> registered name


@functools.lru_cache(maxsize=None)
def _accepted_params(cls):
    """The keyword arguments cls's constructor takes, following **kwargs up the bases (and into
    the cell class of an RNN layer that builds its own cell); None when anything goes."""
    names = set()
    for c in cls.__mro__:
        init = vars(c).get("__init__")
        if init is None:
            continue
        params = inspect.signature(init).parameters.values()
        names.update(p.name for p in params if p.kind not in (p.VAR_KEYWORD, p.VAR_POSITIONAL))
        if not any(p.kind is p.VAR_KEYWORD for p in params):
            break
        if c.__module__ == _ENGINE_MODULE and c.__qualname__ == "Layer":   # the base: nothing above it
            break
    cell_class = getattr(cls, "cell_class", None)
    if cell_class is not None:
        names |= _accepted_params(cell_class)
    names.discard("self")
    return frozenset(names)


def object_from_identifier(spec, module, kind):
    """An initializer, regularizer or constraint from its serialized form: {class_name, config}
    (Keras's) or {className, config} with camelCase config keys (TF.js's serialization.ConfigDict,
    which TF.js's getInitializer and its relatives take)."""
    name = spec.get("class_name", spec.get("className"))
    if not isinstance(name, str):
        raise TypeError(f"Unknown {kind} {spec!r}: a dict needs 'class_name' (or 'className') and 'config'")
    config = {_snake(k): v for k, v in (spec.get("config") or {}).items()}
    if module.class_for(name) is None and _REGISTERED.get(name) is None:
        return module.get(name)   # TF.js also takes the short names there ('zeros', 'maxNorm')
    return _object_from_config({"class_name": name, "config": config}, module, kind, None)


def _object_from_config(spec, module, kind, custom_objects):
    name = spec["class_name"]
    config = spec.get("config") or {}
    if not isinstance(config, dict):
        raise ValueError(f"The config of {kind} '{name}' in the model config must be an object, got "
                         f"{type(config).__name__}")
    cls = (custom_objects or {}).get(name) or _REGISTERED.get(name) or module.class_for(name)
    if cls is None:
        raise ValueError(f"Unknown {kind} class '{name}' in the model config (known: "
                         f"{', '.join(sorted(module.CLASSES))}; register others with "
                         f"tf.serialization.register_class)")
    from_config = getattr(cls, "from_config", None)
    if from_config is not None:
        return from_config(config)
    if isinstance(cls, type) and config:
        # Keras 2.1 writes a dtype into every initializer's config ({"dtype": "float32"} for Zeros);
        # as TF.js, a key the class does not take is ignored
        accepted = _accepted_params(cls)
        config = {k: v for k, v in config.items() if k in accepted or k != "dtype"}
    return cls(**config)
