"""Tensor methods and operators, attached from the op functions (TF.js's chained API): every
method of Tensor that an op computes lives here, so that tensor.py (the core) imports no op."""
import array
import sys
from typing import List, Optional, Union

from ..core.tensor import Tensor, Variable
from ..core.tensor_values import infer_dtype, is_value
from . import image
from ..core.types import DType, TensorLike
from .creation import convert_to_tensor
from .misc import TensorBuffer

# Ops that are also methods of Tensor: t.add(b), t.reshape([2, 3]), ...
METHOD_NAMES = [
    "abs", "acos", "acosh", "add", "all", "any", "arg_max", "arg_min", "asin", "asinh", "atan", "atan2",
    "atanh", "avg_pool", "batch_norm", "batch_to_space_nd", "broadcast_to", "cast", "ceil", "clip_by_value",
    "concat", "conv1d", "conv2d", "conv2d_transpose", "cos", "cosh", "cumprod", "cumsum", "depth_to_space",
    "depthwise_conv2d", "dilation2d", "div", "div_no_nan", "dot", "elu", "equal", "erf", "euclidean_norm",
    "exp", "expand_dims", "expm1", "fft", "floor", "floor_div", "gather", "greater", "greater_equal",
    "ifft", "irfft", "is_finite", "is_inf", "is_nan", "leaky_relu", "less", "less_equal",
    "local_response_normalization", "log", "log1p", "log_sigmoid", "log_softmax", "log_sum_exp",
    "logical_and", "logical_not", "logical_or", "logical_xor", "mat_mul", "max", "max_pool", "maximum",
    "mean", "min", "minimum", "mirror_pad", "mod", "mul", "neg", "norm", "not_equal", "one_hot", "ones_like", "pad",
    "pool", "pow", "prelu", "prod", "reciprocal", "relu", "relu6", "reshape", "reverse", "rfft", "round",
    "rsqrt", "selu", "separable_conv2d", "sigmoid", "sign", "sin", "sinh", "slice", "softmax", "softplus",
    "space_to_batch_nd", "split", "sqrt", "square", "squared_difference", "squeeze", "stack", "step",
    "strided_slice", "sub", "sum", "tan", "tanh", "tile", "top_k", "transpose", "unique",
    "unsorted_segment_sum", "unstack", "where", "zeros_like",
]


def _method(fn):
    def method(self, *args, **kwargs):
        return fn(self, *args, **kwargs)
    method.__name__ = method.__qualname__ = fn.__name__
    method.__doc__ = fn.__doc__
    # help(), pdoc and type checkers see the op's signature: t.add(b) is add(a=t, b)
    method.__wrapped__ = fn
    return method


def _iter(self):
    if not self.shape:
        raise TypeError("iteration over a rank-0 tensor")
    return iter(_ns["unstack"](self))


def _clone(self) -> Tensor:
    """A new tensor with this one's values (tf.clone): disposed independently of it.

    Returns:
        A new Tensor.
    """
    return _ns["clone"](self)


def _buffer_sync(self) -> TensorBuffer:
    """A TensorBuffer holding a copy of the values (blocking). A copy, since a backend may
    return the values it keeps (webgl caches what it read back).

    Returns:
        A new TensorBuffer of the tensor's shape and dtype.
    """
    return TensorBuffer(self.shape, self.dtype, self.data_sync()[:])


async def _buffer(self) -> TensorBuffer:
    """A TensorBuffer holding a copy of the values, read without blocking (as data(); awaited).

    Returns:
        A new TensorBuffer of the tensor's shape and dtype.
    """
    return TensorBuffer(self.shape, self.dtype, (await self.data())[:])


async def _bytes(self) -> Union[bytes, List[bytes]]:
    """The values' bytes, read without blocking (TF.js's t.bytes()): for a numeric tensor its
    buffer's bytes (4 per float32 or int32 value, little-endian; 1 per bool; complex64 as
    interleaved float32 parts), for a string tensor each string's UTF-8 bytes.

    Returns:
        bytes, or a list of bytes for a string tensor.

    Example:
        >>> import asyncio
        >>> asyncio.run(tf.tensor([1, 0], dtype="bool").bytes())
        b'\\x01\\x00'
        >>> asyncio.run(tf.tensor(["hi"]).bytes())
        [b'hi']
    """
    values = await self.data()
    if self.dtype == "string":   # (bytes that were not UTF-8 come back as they went in)
        return [v if isinstance(v, bytes) else v.encode("utf-8", "surrogateescape") for v in values]
    if sys.byteorder != "little":
        values = array.array(values.typecode, values)
        values.byteswap()
    return values.tobytes()


def _assign(self, new_value: TensorLike) -> Variable:
    """Swap in new values: a Tensor of the variable's shape and dtype, or a Python value (a
    temporary tensor, dtype inferred the TF.js way; only the variable keeps its data).

    Args:
        new_value: the new values, of the variable's shape and dtype.

    Returns:
        The variable.

    Raises:
        TypeError: the dtype differs.
        ValueError: the shape differs.
    """
    if isinstance(new_value, Tensor):
        return Variable._assign_tensor(self, new_value)
    self.throw_if_disposed("Variable.assign")
    temp = convert_to_tensor(new_value, "new_value", "Variable.assign")
    try:
        return Variable._assign_tensor(self, temp)
    finally:
        temp.dispose()


def _comparable(a, b):
    """Whether a == b compares values: b is a tensor or a tensor value of a's kind (strings beside a
    string tensor, numbers and bools beside a numeric one). Otherwise (None, a layer, a str beside a
    float tensor) == gives NotImplemented and Python compares identities: t == None is False and
    t != None True, as in TensorFlow 2, rather than raising; so is t == "same", which lets an op's
    `padding == "same"` meet a tensor passed by mistake and reach its own error."""
    if isinstance(b, Tensor):
        return (b.dtype == "string") == (a.dtype == "string")
    if not is_value(b):
        return False
    try:
        return (infer_dtype(b) == "string") == (a.dtype == "string")
    except TypeError:   # (a numpy dtype with no tensor form: tf.equal names it)
        return True


def _reshape_methods(ns):
    """as1d, flatten, as_scalar, as_type and as2d..as5d: TF.js's reshaping and casting methods."""
    reshape, cast = ns["reshape"], ns["cast"]

    def as1d(self) -> Tensor:
        """This tensor's values as a rank-1 tensor (flatten() is the same).

        Returns:
            A Tensor of shape (size,) sharing the data.
        """
        return reshape(self, [-1])

    def as_scalar(self) -> Tensor:
        """This size-1 tensor as a rank-0 tensor.

        Returns:
            A Tensor of shape () sharing the data.
        """
        return reshape(self, [])

    def as_type(self, dtype: DType) -> Tensor:
        """This tensor cast to dtype (tf.cast).

        Args:
            dtype: the new dtype.

        Returns:
            A new Tensor.
        """
        return cast(self, dtype)

    def as_nd(rank):
        def method(self, *shape: int) -> Tensor:
            return reshape(self, list(shape))
        method.__name__ = method.__qualname__ = f"as{rank}d"
        method.__doc__ = (f"This tensor's values in a rank-{rank} shape (t.as{rank}d(rows, ...)).\n\n"
                          f"Args:\n    *shape: the {rank} dimensions (one may be -1).\n\n"
                          f"Returns:\n    A Tensor sharing the data.\n")
        return method
    return {"as1d": as1d, "flatten": as1d, "as_scalar": as_scalar, "as_type": as_type,
            **{f"as{r}d": as_nd(r) for r in range(2, 6)}}


def _chained_methods(ns):
    """reshape_as, to_int, to_float, to_bool and variable: TF.js's Tensor methods that are no op's
    chained form (to_int/to_float/to_bool are deprecated there, but present)."""
    reshape, cast, variable = ns["reshape"], ns["cast"], ns["variable"]

    def reshape_as(self, x: Tensor) -> Tensor:
        """This tensor reshaped to x's shape (TF.js's t.reshapeAs(x)).

        Args:
            x: the tensor whose shape to take (its size must equal this one's).

        Returns:
            A Tensor of x's shape sharing this one's data.

        Example:
            >>> tf.tensor([1, 2, 3, 4]).reshape_as(tf.zeros([2, 2])).print()
            Tensor
                [[1, 2],
                 [3, 4]]
        """
        if not isinstance(x, Tensor):
            raise TypeError(f"reshape_as: argument 'x' must be a Tensor, got {type(x).__name__}")
        return reshape(self, list(x.shape))

    def caster(name, dtype, tfjs):
        def method(self) -> Tensor:
            return cast(self, dtype)
        method.__name__ = method.__qualname__ = name
        method.__doc__ = (f"This tensor cast to {dtype} (tf.cast; TF.js's deprecated t.{tfjs}()).\n\n"
                          f"Returns:\n    A new {dtype} Tensor.\n\n"
                          f"Example:\n    >>> tf.tensor([1.7, 0.0]).{name}().dtype\n    '{dtype}'\n")
        return method

    def variable_method(self, trainable: bool = True, name: Optional[str] = None,
                        dtype: Optional[DType] = None) -> Variable:
        """A Variable initialised with this tensor (tf.variable(self, ...), as TF.js's
        t.variable(trainable, name, dtype)).

        Args:
            trainable: whether gradients are computed for it.
            name: a name (None: a unique one).
            dtype: the dtype (None: this tensor's; otherwise it is cast).

        Returns:
            A new Variable.

        Example:
            >>> v = tf.tensor([1.0, 2.0]).variable(name="v_method_example")
            >>> v.name
            'v_method_example'
        """
        return variable(self, trainable, name, dtype)
    variable_method.__name__ = variable_method.__qualname__ = "variable"

    return {"reshape_as": reshape_as, "to_int": caster("to_int", "int32", "toInt"),
            "to_float": caster("to_float", "float32", "toFloat"),
            "to_bool": caster("to_bool", "bool", "toBool"), "variable": variable_method}


def _joining_method(f, name):
    # TF.js: t.concat(x, axis) is concat([t, ...x], axis); x is a tensor or a list.
    def method(self, x, axis=0):
        return f([self, *(x if isinstance(x, (list, tuple)) else [x])], axis)
    method.__name__ = method.__qualname__ = name
    method.__doc__ = (f"tf.{name}([self, *x], axis), as TF.js's chained t.{name}(x, axis).\n\n"
                      f"Args:\n    x: a tensor or a list of tensors to join after this one.\n"
                      f"    axis: the axis (as tf.{name}'s).\n\nReturns:\n    A new Tensor.\n")
    return method


def _image_method(f):
    # chained in TF.js though they live in tf.image
    def method(self, *a, **k):
        return f(self, *a, **k)
    method.__name__ = method.__qualname__ = f.__name__
    method.__doc__ = (f"tf.image.{f.__name__}(self, ...): chained, as in TF.js.\n\n"
                      f"Returns:\n    A new Tensor (see tf.image.{f.__name__}).\n")
    return method


def _where_method(where):
    def method(self, condition, b):
        """tf.where(condition, self, b): TF.js's chained t.where(condition, other).

        Args:
            condition: a bool tensor.
            b: the values where condition is false.

        Returns:
            A new Tensor.
        """
        return where(condition, self, b)
    method.__name__ = method.__qualname__ = "where"
    return method


_ns = {}


def attach(ns):
    _ns.update(ns)
    _iter.__name__ = _iter.__qualname__ = "__iter__"
    for name, fn in (("__iter__", _iter), ("clone", _clone), ("buffer_sync", _buffer_sync), ("buffer", _buffer),
                     ("bytes", _bytes)):
        setattr(Tensor, name, fn)
    _assign.__name__ = _assign.__qualname__ = "assign"
    Variable.assign = _assign
    for name in METHOD_NAMES:
        if name in ns:
            setattr(Tensor, name, _method(ns[name]))
    if "reshape" in ns:
        for name, method in _reshape_methods(ns).items():
            setattr(Tensor, name, method)
    if "variable" in ns:
        for name, method in _chained_methods(ns).items():
            setattr(Tensor, name, method)
    for name in ("concat", "stack"):
        if name in ns:
            setattr(Tensor, name, _joining_method(ns[name], name))
    for name in ("resize_bilinear", "resize_nearest_neighbor"):
        setattr(Tensor, name, _image_method(getattr(image, name)))
    if "where" in ns:
        # t.where(cond, other) is where(cond, t, other) in TF.js's chained form; keep the op's order.
        Tensor.where = _where_method(ns["where"])
    ops = {
        "__add__": lambda a, b: ns["add"](a, b), "__radd__": lambda a, b: ns["add"](b, a),
        "__sub__": lambda a, b: ns["sub"](a, b), "__rsub__": lambda a, b: ns["sub"](b, a),
        "__mul__": lambda a, b: ns["mul"](a, b), "__rmul__": lambda a, b: ns["mul"](b, a),
        "__truediv__": lambda a, b: ns["true_div"](a, b), "__rtruediv__": lambda a, b: ns["true_div"](b, a),
        "__floordiv__": lambda a, b: ns["floor_div"](a, b), "__rfloordiv__": lambda a, b: ns["floor_div"](b, a),
        "__mod__": lambda a, b: ns["mod"](a, b), "__rmod__": lambda a, b: ns["mod"](b, a),
        "__pow__": lambda a, b: ns["pow"](a, b), "__rpow__": lambda a, b: ns["pow"](b, a),
        "__neg__": lambda a: ns["neg"](a), "__abs__": lambda a: ns["abs"](a), "__pos__": lambda a: a,
        "__lt__": lambda a, b: ns["less"](a, b), "__le__": lambda a, b: ns["less_equal"](a, b),
        "__gt__": lambda a, b: ns["greater"](a, b), "__ge__": lambda a, b: ns["greater_equal"](a, b),
        "__eq__": lambda a, b: ns["equal"](a, b) if _comparable(a, b) else NotImplemented,
        "__ne__": lambda a, b: ns["not_equal"](a, b) if _comparable(a, b) else NotImplemented,
        "__invert__": lambda a: ns["logical_not"](a),
        "__and__": lambda a, b: ns["logical_and"](a, b), "__or__": lambda a, b: ns["logical_or"](a, b),
    }
    if "mat_mul" in ns:
        ops["__matmul__"] = lambda a, b: ns["mat_mul"](a, b)
        ops["__rmatmul__"] = lambda a, b: ns["mat_mul"](b, a)
    if "getitem" in ns:
        ops["__getitem__"] = lambda a, key: ns["getitem"](a, key)
    for k, f in ops.items():
        f.__name__ = k
        setattr(Tensor, k, f)
