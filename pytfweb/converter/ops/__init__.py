"""The TensorFlow op -> pytfweb mapping, one module per family (as TF.js's op_list and executors):

    arithmetic  basic_math  logical  convolution  matrices  normalization  reduction
    slice_join  transformation  creation  evaluation  image  spectral  sparse  string  ragged
    graph  dynamic  control  hash_table

Each module's OPS maps TensorFlow op names to OpDef rows. Custom ops registered with
tf.register_op take precedence.
"""
from typing import Any, Callable

from . import (arithmetic, basic_math, control, convolution, creation, dynamic, evaluation, graph, hash_table,
               image, logical, matrices, normalization, ragged, reduction, slice_join, sparse, spectral, string,
               transformation)
from ._table import OpDef

FAMILIES = (arithmetic, basic_math, logical, convolution, matrices, normalization, reduction, slice_join,
            transformation, creation, evaluation, image, spectral, sparse, string, ragged, graph, dynamic, control,
            hash_table)

OPS = {}
for _family in FAMILIES:
    OPS.update(_family.OPS)

CUSTOM = {}


def lookup(op):
    """The OpDef for a TensorFlow op name, or None."""
    return CUSTOM.get(op) or OPS.get(op)


class NodeValue:
    """What a custom op function sees (TF.js's GraphNode): inputs, attrs and getters by name."""

    def __init__(self, inputs, attrs):
        self.inputs = inputs
        self.attrs = attrs
        self.op = attrs.op
        self.name = attrs.node

    def get_attr(self, name, default=None):
        """An attribute's raw JSON value decoded by its kind (i, f, b, s, type, shape, list)."""
        raw = self.attrs.raw.get(name)
        if raw is None:
            return default
        for kind, getter in (("i", self.attrs.int), ("f", self.attrs.float), ("b", self.attrs.bool),
                             ("s", self.attrs.str), ("type", self.attrs.dtype), ("shape", self.attrs.shape),
                             ("func", self.attrs.func)):
            if kind in raw:
                return getter(name)
        if "list" in raw:
            lst = raw["list"] or {}
            for kind, getter in (("i", self.attrs.ints), ("f", self.attrs.floats), ("s", self.attrs.strs),
                                 ("type", self.attrs.dtypes)):
                if kind in lst:
                    return getter(name)
            return []
        return default


def register_op(name: str, fn: Callable[[Any], Any]) -> Any:
    """Register a function for a TensorFlow op of graph models (TF.js's registerOp): for custom ops,
    or to replace a built-in one.

    Args:
        name: the TensorFlow op's name ('MyOp').
        fn: fn(node) returning a Tensor or a list of them; node.inputs holds the input tensors,
            node.attrs and node.get_attr(name) the attributes.

    Returns:
        The registered OpDef.

    Example:
        >>> _ = tf.register_op("TimesTen", lambda node: tf.mul(node.inputs[0], 10))
        >>> model_json = {"format": "graph-model", "weightsManifest": [], "modelTopology": {"node": [
        ...     {"name": "x", "op": "Placeholder", "attr": {"dtype": {"type": "DT_FLOAT"}}},
        ...     {"name": "y", "op": "TimesTen", "input": ["x"]}]}}
        >>> tf.load_graph_model_sync((model_json, b"")).predict(tf.tensor([1, 2])).print()
        Tensor
            [10, 20]
        >>> tf.deregister_op("TimesTen")
    """
    if not isinstance(name, str) or not name:
        raise TypeError(f"register_op: argument 'name' must be a non-empty string, got {name!r}")
    if not callable(fn):
        raise TypeError(f"register_op: argument 'fn' must be callable, got {type(fn).__name__}")
    CUSTOM[name] = OpDef(name, "custom", 0, lambda x, a: fn(NodeValue(x, a)))
    return CUSTOM[name]


def get_registered_op(name: str) -> Any:
    """The op registered with tf.register_op under a name, or None.

    Args:
        name: the op's name.

    Returns:
        Its OpDef, or None.

    Example:
        >>> tf.get_registered_op("NoSuchOp") is None
        True
    """
    return CUSTOM.get(name)


def deregister_op(name: str) -> None:
    """Remove an op registered with tf.register_op (nothing happens if there is none).

    Args:
        name: the op's name.

    Example:
        >>> _ = tf.register_op("DocExampleOp", lambda node: node.inputs[0])
        >>> tf.deregister_op("DocExampleOp")
        >>> tf.get_registered_op("DocExampleOp") is None
        True
    """
    CUSTOM.pop(name, None)
