"""Small helpers shared by the layers package: unique names, shape formatting, name lookup."""
import functools
import re

from ..core.api import backend

_uids = {}


def unique_name(prefix):
    """TF.js's getUid: 'dense' -> 'dense1', 'dense2', ... (counted per prefix, per process)."""
    _uids[prefix] = _uids.get(prefix, 0) + 1
    return f"{prefix}{_uids[prefix]}"


def snake(name):
    """TF.js's toSnakeCase: 'meanSquaredError' -> 'mean_squared_error', 'Conv2D' -> 'conv2d',
    'PReLU' -> 'p_re_lu' (layer names are built from it, so they match TF.js's)."""
    name = re.sub(r"(.)([A-Z][a-z0-9]+)", r"\1_\2", name)
    name = re.sub(r"([a-z])([A-Z])", r"\1_\2", name).lower()
    return name if not name.startswith("_") else "private" + name


def takes_options(factory):
    """TF.js's factories take one object of options; so do these: factory({"units": 3,
    "inputShape": [4]}) is factory(units=3, input_shape=[4]) (keys in camelCase or snake_case).
    An option given as None there takes its default, as TF.js reads a null option
    (`args.useBias == null ? true : args.useBias`)."""
    @functools.wraps(factory)
    def wrapped(*args, **kwargs):
        if len(args) == 1 and isinstance(args[0], dict) and not kwargs:
            return factory(**{option_name(k): v for k, v in args[0].items()
                              if v is not None or option_name(k) in NULL_IS_A_VALUE})
        return factory(*args, **kwargs)
    return wrapped


def option_name(key):
    """A TF.js option's keyword here: its snake_case, except where toSnakeCase splits an acronym
    (inputDType -> input_dtype)."""
    name = snake(key)
    return _OPTION_NAMES.get(name, name)


_OPTION_NAMES = {"input_d_type": "input_dtype", "max_n_dim": "max_ndim", "min_n_dim": "min_ndim"}


# Options TF.js reads with `=== undefined`, where null is a value of its own (Bidirectional's
# mergeMode: null returns the two directions' outputs unmerged)
NULL_IS_A_VALUE = frozenset({"merge_mode"})


def shape_str(shape):
    """A shape as TF.js's JSON.stringify prints it: [null,3]."""
    if isinstance(shape, list) and shape and isinstance(shape[0], (list, tuple)):
        return "[" + ",".join(shape_str(s) for s in shape) + "]"
    return "[" + ",".join("null" if d is None else str(d) for d in shape) + "]"


def to_list(x):
    return list(x) if isinstance(x, (list, tuple)) else [x]


def epsilon():
    """The fuzz factor of TF.js layers: the active backend's epsilon (1e-7, or 1e-4 on a
    half-float webgl context)."""
    get = getattr(backend(), "epsilon", None)
    return get() if get is not None else 1e-7


def lookup(identifier, table, kind):
    """Resolve a TF.js camelCase name or a Keras snake_case name in `table` (keyed by
    snake_case names); callables pass through. Unknown names raise a ValueError naming the
    known ones."""
    if callable(identifier) and not isinstance(identifier, str):
        return identifier
    if not isinstance(identifier, str):
        raise TypeError(f"Unknown {kind} {identifier!r}: expected a name or a function")
    key = snake(identifier)
    if key in table:
        return table[key]
    raise ValueError(f"Unknown {kind} {identifier}. Known: {', '.join(sorted(table))}")
