"""Creating tensors: from values, filled, ranges, identity matrices, random draws."""
import array
import math
import numbers

from typing import Any, Optional, Union

from ..core import tensor_values as _conv
from ..core import prng
from ..core.dtypes import TYPECODES, check_dtype
from ..core.engine import ENGINE, op
from ..core.environment import ENV
from ..core.limits import check_elements
from ..core._numpy import np
from ..core.shapes import check_shape, size_of
from ..core.tensor import Tensor, Variable
from ..core.types import DType, Shape, TensorLike


# Ops that take string tensors (TF.js converts their inputs as 'string_or_numeric'): they only
# move values. Every other op refuses a string argument, as TF.js's convertToTensor does.
STRING_OPS = frozenset({"reshape", "expand_dims", "squeeze", "unstack", "slice", "strided_slice",
                        "getitem", "concat", "stack", "tile", "clone", "cast", "gather_nd", "unique",
                        "ensure_shape", "print", "variable", "Variable.assign", "sparse_to_dense",
                        # f decides what a string argument may enter (TF.js differentiates clone of one)
                        "grad", "grads", "value_and_grad", "value_and_grads"})


def refuse_complex(t, arg, op):
    """TF.js's assertNotComplex, for the ops whose kernels are not linear in their values: the
    same TypeError on every backend (the cpu one would otherwise compute with numpy's rules)."""
    if t.dtype == "complex64":
        raise TypeError(f"{op}: argument '{arg}' must be a real tensor, got complex64 (as TF.js); "
                        "take tf.real, tf.imag or tf.abs of it first")


@op
def cast(x: TensorLike, dtype: DType) -> Tensor:
    """Cast a tensor to a new dtype.

    Float to int truncates toward zero; anything to bool is `x != 0`. Only strings cast to strings.

    Args:
        x: the tensor (or a value converted to one).
        dtype: the new dtype: 'float32', 'int32', 'bool' or 'complex64'.

    Returns:
        A new Tensor of x's shape in dtype.

    Example:
        >>> tf.cast(tf.tensor([1.7, -1.7, 0]), "int32").print()
        Tensor
            [1, -1, 0]
    """
    x = convert_to_tensor(x, "x", "cast")
    dtype = check_dtype(dtype, "cast")
    if dtype == x.dtype:
        return ENGINE.run_kernel("Identity", [x])
    if "string" in (dtype, x.dtype):   # TF.js: only strings can be cast to strings
        raise TypeError(f"cast: cannot cast {x.dtype} to {dtype}: only strings can be cast to strings")
    return ENGINE.run_kernel("Cast", [x], {"dtype": dtype})


def convert_to_tensor(x: TensorLike, arg: str, op: str, dtype: Optional[DType] = None) -> Tensor:
    """A value as a Tensor, as every op converts its arguments.

    A Tensor passes through (checked not disposed); a value becomes a new tensor, its dtype
    inferred the TF.js way (numbers float32, bools bool, strings string) unless given.

    Args:
        x: a Tensor, or a number, bool, str, nested list, array.array, memoryview or numpy array.
        arg: the argument's name, for error messages.
        op: the op's name, for error messages.
        dtype: the dtype of a new tensor (None: inferred).

    Returns:
        x itself if it is a Tensor, else a new Tensor.

    Raises:
        TypeError: x cannot be converted (the message names op and arg).

    Example:
        >>> tf.convert_to_tensor([[1, 2]], "x", "my_op").shape
        (1, 2)
    """
    if isinstance(x, Tensor):
        x.throw_if_disposed(op)
        if x.dtype == "string" and dtype is None and op not in STRING_OPS:
            raise TypeError(f"{op}: argument '{arg}' must be a numeric tensor, got a string tensor")
        return x
    x = _conv.host_values(x)
    try:
        shape = _conv.values_shape(x, op, arg)
    except TypeError:
        raise TypeError(f"{op}: argument '{arg}' must be a Tensor or a number, bool, nested list, "
                        f"array.array, memoryview or numpy array, got {type(x).__name__}") from None
    inferred = dtype is None
    dtype = check_dtype(dtype, op, "dtype") if dtype is not None else _conv.infer_dtype(x, op, arg)
    if inferred and dtype == "string" and op not in STRING_OPS:
        raise TypeError(f"{op}: argument '{arg}' must be a number, bool or tensor, got a str value "
                        f"(strings go only to the tf.string ops and ops that move values)")
    flat, _ = _conv.to_flat(x, dtype, op, arg)
    return ENGINE.make_tensor(flat, shape, dtype)


def tensor(values: TensorLike, shape: Optional[Shape] = None, dtype: Optional[DType] = None) -> Tensor:
    """Create a tensor from values.

    Args:
        values: a number, bool, str, nested list, array.array, memoryview, numpy array (read as one
            buffer, never value by value) or, in the page, a JS typed array.
        shape: the shape (None: that of the nested values). Flat values fill it in row-major order.
        dtype: 'float32', 'int32', 'bool', 'complex64' or 'string' (None: inferred as TF.js does:
            Python numbers and float64 and other floats give float32, integers of any width int32,
            wrapped modulo 2^32 as an Int32Array stores them; bool stays bool).

    Returns:
        A new Tensor.

    Raises:
        ValueError: the number of values does not match shape.

    Example:
        >>> tf.tensor([1, 2, 3, 4], [2, 2]).print()
        Tensor
            [[1, 2],
             [3, 4]]
        >>> tf.tensor([1, 2], dtype="int32").dtype
        'int32'
    """
    op = "tensor"
    if isinstance(values, Tensor):
        raise TypeError("tensor: argument 'values' is already a Tensor; use clone() or cast()")
    values = _conv.host_values(values)
    if dtype is not None:
        dtype = check_dtype(dtype, op)
    try:
        inferred, dtype, (flat, n) = _values(values, dtype, op)
    except (TypeError, ValueError):
        # buffers nested in lists (TF.js's [Float32Array, [7, 8]]): read as lists, only here, so
        # that plain nested lists pay nothing for it
        unbuffered = _conv.nested_buffers_as_lists(values)
        if unbuffered is None:
            raise
        if dtype is None:   # TF.js's inferDtype: the first element's, first elements down
            first = values
            while isinstance(first, (list, tuple)) and first:
                first = first[0]
            dtype = _conv.infer_dtype(first if _conv.is_value(first) else unbuffered, op, "values")
        inferred, dtype, (flat, n) = _values(unbuffered, dtype, op)
    if shape is None:
        shape = inferred
    else:
        shape = check_shape(shape, op)
        if size_of(shape) != n:
            raise ValueError(f"{op}: based on the provided shape {list(shape)}, argument 'values' should "
                             f"have {size_of(shape)} values but has {n}")
        if len(inferred) > 1:
            # A nested list must agree with the shape, except that its last level may be flat.
            for i, d in enumerate(inferred):
                flat_tail = i == len(inferred) - 1 and d == size_of(shape[i:])
                if i >= len(shape) or (d != shape[i] and not flat_tail):
                    raise ValueError(f"{op}: the shape of the values {list(inferred)} does not match "
                                     f"the provided shape {list(shape)}")
    return ENGINE.make_tensor(flat, tuple(shape), dtype)


def _values(values, dtype, op):
    """(shape of the values, dtype (inferred if None), (flat buffer, count)) for tf.tensor."""
    try:
        inferred = _conv.values_shape(values, op, "values")
    except TypeError:
        raise TypeError(f"{op}: argument 'values' must be a number, bool, nested list, array.array, "
                        f"memoryview or numpy array, got {type(values).__name__}") from None
    if dtype is None:
        dtype = _conv.infer_dtype(values, op, "values")
    return inferred, dtype, _conv.to_flat(values, dtype, op, "values")


def scalar(value: Union[int, float, bool, str], dtype: Optional[DType] = None) -> Tensor:
    """Create a rank-0 tensor.

    Args:
        value: a single number, bool or str.
        dtype: the dtype (None: inferred, float32 for numbers).

    Returns:
        A new Tensor of shape ().

    Example:
        >>> tf.scalar(3.5).print()
        Tensor
            3.5
    """
    if isinstance(value, (list, tuple)) or (np is not None and isinstance(value, np.ndarray) and value.ndim):
        raise ValueError("scalar: argument 'value' must be a single number or bool, got a sequence; use tf.tensor")
    return tensor(value, (), dtype)


_TENSOR_ND_DOC = """Create a rank-{rank} tensor (tf.tensor with its rank checked).

Args:
    values: nested values of rank {rank}, or flat values with a shape.
    shape: the shape, of rank {rank} (None: that of the nested values).
    dtype: the dtype (None: inferred, float32 for numbers).

Returns:
    A new rank-{rank} Tensor.

Example:
    >>> tf.{name}({args}).shape
    {shape}
"""
_TENSOR_ND_EXAMPLES = {   # rank: (arguments, the shape they give)
    1: ("[1, 2]", "(2,)"), 2: ("[[1, 2], [3, 4]]", "(2, 2)"), 3: ("[1, 2, 3, 4], [1, 2, 2]", "(1, 2, 2)"),
    4: ("[1, 2, 3, 4], [1, 1, 2, 2]", "(1, 1, 2, 2)"), 5: ("[1, 2], [1, 1, 1, 1, 2]", "(1, 1, 1, 1, 2)"),
    6: ("[1, 2], [1, 1, 1, 1, 1, 2]", "(1, 1, 1, 1, 1, 2)")}


def _tensor_nd(rank):
    name = f"tensor{rank}d"

    def make(values, shape=None, dtype=None):
        if shape is None:
            got = _conv.values_shape(values, name, "values")
            if len(got) != rank:
                if len(got) == 1 and rank != 1:
                    raise ValueError(f"{name}: flat values need an explicit shape of rank {rank}")
                raise ValueError(f"{name}: argument 'values' must be of rank {rank}, got rank {len(got)} "
                                 f"(shape {list(got)})")
        else:
            shape = check_shape(shape, name)
            if len(shape) != rank:
                raise ValueError(f"{name}: argument 'shape' must have rank {rank}, got {list(shape)}")
        return tensor(values, shape, dtype)
    make.__name__ = make.__qualname__ = name
    make.__doc__ = _TENSOR_ND_DOC.format(rank=rank, name=name, args=_TENSOR_ND_EXAMPLES[rank][0],
                                         shape=_TENSOR_ND_EXAMPLES[rank][1])
    make.__annotations__ = {"values": TensorLike, "shape": Optional[Shape], "dtype": Optional[DType], "return": Tensor}
    return make


_tensor1d_with_shape, tensor2d, tensor3d, tensor4d, tensor5d, tensor6d = (_tensor_nd(r) for r in range(1, 7))


def tensor1d(values: TensorLike, dtype: Optional[DType] = None) -> Tensor:
    """Create a rank-1 tensor (TF.js's tensor1d takes no shape).

    Args:
        values: a flat list (or array) of values.
        dtype: the dtype (None: inferred).

    Returns:
        A new Tensor of shape (len(values),).

    Example:
        >>> tf.tensor1d([1, 2, 3], "int32").print()
        Tensor
            [1, 2, 3]
    """
    if dtype is not None and not isinstance(dtype, str):
        raise TypeError(f"tensor1d: argument 'dtype' must be a dtype name such as 'int32', got {dtype!r} "
                        f"(TF.js's tensor1d(values, dtype) takes no shape)")
    return _tensor1d_with_shape(values, None, dtype)


def _filled(shape, value, dtype, op):
    # A kernel, not host values: on webgl a shader writes the texture, nothing is uploaded.
    shape = check_shape(shape, op)
    check_elements(shape, f"{op}: argument 'shape'")
    if dtype == "string":   # strings never reach a kernel that makes values
        if not isinstance(value, str):
            raise TypeError(f"{op}: a string tensor is filled with a str, got {type(value).__name__}")
        return ENGINE.make_tensor([value] * size_of(shape), shape, "string")
    v = _conv.fill_value(value, dtype, op, "value")
    n = size_of(shape)
    if op != "fill" and dtype != "complex64" and ENV.cpu_forward(ENGINE._active().name, n):
        # TF.js's zeros and ones are host values on every backend: small ones stay CPU-side, where a
        # GPU backend's CPU forwarding can use them (backends/gpu/cpu_forward_runner.py)
        return ENGINE.make_tensor(array.array(TYPECODES[dtype], [v]) * n, tuple(shape), dtype)
    return ENGINE.run_kernel("Fill", [], {"shape": shape, "value": v, "dtype": dtype})


def zeros(shape: Shape, dtype: DType = "float32") -> Tensor:
    """Create a tensor of zeros.

    Args:
        shape: the shape, a list of ints.
        dtype: the dtype.

    Returns:
        A new Tensor of shape filled with 0.

    Example:
        >>> tf.zeros([2, 2]).print()
        Tensor
            [[0, 0],
             [0, 0]]
    """
    return _filled(shape, 0, check_dtype(dtype, "zeros"), "zeros")


def ones(shape: Shape, dtype: DType = "float32") -> Tensor:
    """Create a tensor of ones.

    Args:
        shape: the shape, a list of ints.
        dtype: the dtype.

    Returns:
        A new Tensor of shape filled with 1.

    Example:
        >>> tf.ones([3], "int32").print()
        Tensor
            [1, 1, 1]
    """
    return _filled(shape, 1, check_dtype(dtype, "ones"), "ones")


def fill(shape: Shape, value: Union[int, float, bool, str], dtype: Optional[DType] = None) -> Tensor:
    """Create a tensor filled with one value.

    Args:
        shape: the shape, a list of ints.
        value: the value of every element.
        dtype: the dtype (None: inferred from value, float32 for numbers).

    Returns:
        A new Tensor of shape.

    Example:
        >>> tf.fill([2, 3], 7).print()
        Tensor
            [[7, 7, 7],
             [7, 7, 7]]
    """
    dtype = check_dtype(dtype, "fill") if dtype is not None else _conv.infer_dtype(value)
    return _filled(shape, value, dtype, "fill")


@op
def zeros_like(x: TensorLike) -> Tensor:
    """A tensor of zeros with x's shape and dtype.

    Args:
        x: the tensor whose shape and dtype to take.

    Returns:
        A new Tensor of zeros.

    Example:
        >>> tf.zeros_like(tf.tensor([[1, 2]])).print()
        Tensor
            [[0, 0]]
    """
    return ENGINE.run_kernel("ZerosLike", [convert_to_tensor(x, "x", "zeros_like")])


@op
def ones_like(x: TensorLike) -> Tensor:
    """A tensor of ones with x's shape and dtype.

    Args:
        x: the tensor whose shape and dtype to take.

    Returns:
        A new Tensor of ones.

    Example:
        >>> tf.ones_like(tf.tensor([5, 6], dtype="int32")).print()
        Tensor
            [1, 1]
    """
    return ENGINE.run_kernel("OnesLike", [convert_to_tensor(x, "x", "ones_like")])


def _number(v, op, arg):
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        if isinstance(v, Tensor) and v.size == 1:
            return v.data_sync()[0]
        raise TypeError(f"{op}: argument '{arg}' must be a number, got {type(v).__name__}")
    return v


def range(start: float, stop: Optional[float] = None, step: Optional[float] = 1,  # noqa: A001 - TF.js name
          dtype: DType = "float32") -> Tensor:
    """Evenly spaced values in [start, stop), as TF.js's tf.range.

    With one argument it counts from 0 as Python's range; with stop < start and the default
    step it counts down (as TF.js).

    Args:
        start: the first value (or, alone, the stop with start 0).
        stop: the end, excluded.
        step: the increment (not 0; None: 1, as TF.js's undefined).
        dtype: 'float32' or 'int32'.

    Returns:
        A new rank-1 Tensor.

    Example:
        >>> tf.range(0, 10, 3).print()
        Tensor
            [0, 3, 6, 9]
        >>> tf.range(3, dtype="int32").print()
        Tensor
            [0, 1, 2]
    """
    op = "range"
    dtype = check_dtype(dtype, op)
    if dtype == "bool":
        raise TypeError("range: argument 'dtype' must be float32 or int32, got bool")
    if stop is None:
        start, stop = 0, start
    if step is None:
        step = 1
    start, stop, step = (_number(start, op, "start"), _number(stop, op, "stop"), _number(step, op, "step"))
    for arg, v in (("start", start), ("stop", stop), ("step", step)):
        if not math.isfinite(v):
            raise ValueError(f"range: argument '{arg}' must be finite, got {v}")
    if step == 0:
        raise ValueError("range: argument 'step' must not be 0")
    if stop < start and step == 1:
        step = -1  # TF.js: range(5, 0) counts down
    n = max(0, math.ceil((stop - start) / step))
    check_elements((n,), "range: arguments 'start', 'stop' and 'step'")
    if dtype == "int32" and n:
        # TF.js fills an Int32Array with values[i] = values[i - 1] + step: each value truncated
        # as it is stored, so a fractional start is truncated first and a fractional step
        # accumulates truncated sums.
        if step != int(step):
            values, v = [], _conv._coerce(start, "int32", op)
            for _ in builtins_range(n):
                values.append(v)
                v = _conv._coerce(v + step, "int32", op)
            return ENGINE.make_tensor(array.array("i", values), (n,), "int32")
        start, step = _conv._coerce(start, "int32", op), int(step)
    return ENGINE.run_kernel("Range", [], {"start": start, "step": step, "size": n, "dtype": dtype})


builtins_range = __builtins__["range"] if isinstance(__builtins__, dict) else __builtins__.range


def linspace(start: float, stop: float, num: int) -> Tensor:
    """num evenly spaced float32 values from start to stop, both included.

    Args:
        start: the first value.
        stop: the last value.
        num: how many values (positive).

    Returns:
        A new float32 Tensor of shape (num,).

    Example:
        >>> tf.linspace(0, 1, 5).print()
        Tensor
            [0, 0.25, 0.5, 0.75, 1]
    """
    op = "linspace"
    start, stop = _number(start, op, "start"), _number(stop, op, "stop")
    if isinstance(num, bool) or not isinstance(num, int):
        raise TypeError(f"linspace: argument 'num' must be an int, got {type(num).__name__}")
    if num <= 0:
        raise ValueError(f"linspace: argument 'num' must be positive, got {num}")
    check_elements((num,), "linspace: argument 'num'")
    return ENGINE.run_kernel("LinSpace", [], {"start": float(start), "stop": float(stop), "num": num})


def eye(num_rows: int, num_columns: Optional[int] = None, batch_shape: Optional[Shape] = None,
        dtype: DType = "float32") -> Tensor:
    """An identity matrix (or a batch of them).

    Args:
        num_rows: the number of rows.
        num_columns: the number of columns (None: num_rows).
        batch_shape: leading batch dimensions (at most 3), each holding a copy.
        dtype: the dtype.

    Returns:
        A new Tensor of shape batch_shape + (num_rows, num_columns), 1 on the diagonal.

    Example:
        >>> tf.eye(2, 3).print()
        Tensor
            [[1, 0, 0],
             [0, 1, 0]]
    """
    op = "eye"
    dtype = check_dtype(dtype, op)
    if num_columns is None:
        num_columns = num_rows
    for arg, v in (("num_rows", num_rows), ("num_columns", num_columns)):
        if isinstance(v, bool) or not isinstance(v, int):
            raise TypeError(f"eye: argument '{arg}' must be an int, got {type(v).__name__}")
        if v < 0:
            raise ValueError(f"eye: argument '{arg}' must be non-negative, got {v}")
    batch = check_shape(batch_shape, op, "batch_shape") if batch_shape is not None else ()
    if len(batch) > 3:   # as TF.js
        raise ValueError(f"eye: argument 'batch_shape' may have at most 3 dimensions, got {list(batch)}")
    shape = batch + (num_rows, num_columns)
    n = check_elements(shape, "eye: arguments 'num_rows', 'num_columns' and 'batch_shape'")
    if dtype not in ("float32", "int32", "bool"):
        _conv.to_flat([1], dtype, op)   # the TypeError any value of that dtype gets
    flat = array.array(TYPECODES[dtype], bytes(n * array.array(TYPECODES[dtype]).itemsize))
    diagonal = min(num_rows, num_columns)
    ones = array.array(TYPECODES[dtype], [1]) * diagonal
    for start in builtins_range(0, n, num_rows * num_columns) if diagonal else ():
        flat[start:start + (diagonal - 1) * (num_columns + 1) + 1:num_columns + 1] = ones
    return ENGINE.make_tensor(flat, shape, dtype)


_DRAW_CHUNK = 1 << 16


def _random(shape, dtype, op, make_take, rounded=False, dtypes=("float32", "int32")):
    """A new tensor of draws: make_take() gives a fresh generator's take, and take(k) the next k
    draws (a float64 ndarray, or a list). The size is checked against MAX_TENSOR_ELEMENTS before
    anything is drawn, and the draws are made and converted a block at a time. int32 values
    convert as TF.js stores them in an Int32Array (truncated toward zero); normal and gamma draws
    are rounded first (Math.round, as MPRandGauss does: `rounded`). The draw is a host step
    (ENGINE.run_host): a traced function draws new values on every call."""
    shape = check_shape(shape, op)
    dtype = check_dtype(dtype, op)
    if dtype not in dtypes:
        raise TypeError(f"{op}: argument 'dtype' must be {' or '.join(dtypes)}, got {dtype}")
    n = check_elements(shape, f"{op}: argument 'shape'")
    return ENGINE.run_host(op, lambda: _draw(shape, dtype, op, n, make_take(), rounded), [])


def _draw(shape, dtype, op, n, take, rounded):
    if np is not None:
        out = np.empty(n, {"float32": np.float32, "int32": np.int32, "bool": np.bool_}[dtype])
    else:
        out = array.array(TYPECODES[dtype])
    for start in builtins_range(0, n, _DRAW_CHUNK):
        k = min(_DRAW_CHUNK, n - start)
        values = take(k)
        if dtype == "bool":   # as TF.js's Uint8Array stores a draw: truncated, so [0, 1) is false
            if np is not None and not isinstance(values, list):
                with np.errstate(invalid="ignore"):
                    out[start:start + k] = np.isfinite(values) & (np.fmod(np.trunc(values), 256) != 0)
            else:
                flat = [_conv.fill_value(v, "bool", op) for v in values]
                if np is not None:
                    out[start:start + k] = flat
                else:
                    out.extend(flat)
            continue
        if np is not None and not isinstance(values, list):
            if dtype == "int32":
                out[start:start + k] = _conv.int32_values(np.floor(values + 0.5) if rounded else values)
            else:
                with np.errstate(over="ignore"):
                    out[start:start + k] = values
            continue
        if dtype == "int32" and rounded:
            values = [math.floor(v + 0.5) for v in values]
        flat, _ = _conv.to_flat(values, dtype, op)
        if np is not None:
            out[start:start + k] = np.frombuffer(flat, out.dtype)
        else:
            out.extend(flat)
    return ENGINE.make_tensor(out, shape, dtype)


def _real(v, op, arg):
    if isinstance(v, bool) or not isinstance(v, numbers.Real):
        raise TypeError(f"{op}: argument '{arg}' must be a number, got {type(v).__name__}")
    return v


def random_normal(shape: Shape, mean: float = 0.0, stddev: float = 1.0, dtype: DType = "float32",
                  seed: Optional[float] = None) -> Tensor:
    """Random values from a normal distribution (TF.js's generator: a seed gives TF.js's values).

    Args:
        shape: the shape.
        mean: the mean.
        stddev: the standard deviation (non-negative).
        dtype: 'float32' or 'int32' (values rounded).
        seed: a seed for a reproducible draw (None: a new random one).

    Returns:
        A new Tensor of shape.

    Example:
        >>> x = tf.random_normal([2, 3], seed=1)
        >>> x.shape, x.dtype
        ((2, 3), 'float32')
    """
    mean, stddev = _real(mean, "random_normal", "mean"), _real(stddev, "random_normal", "stddev")
    if stddev < 0:
        raise ValueError(f"random_normal: argument 'stddev' must be non-negative, got {stddev}")
    return _random(shape, dtype, "random_normal", lambda: prng.Gaussian(mean, stddev, False, seed).take,
                   rounded=True)


def truncated_normal(shape: Shape, mean: float = 0.0, stddev: float = 1.0, dtype: DType = "float32",
                     seed: Optional[float] = None) -> Tensor:
    """Random values from a normal distribution, redrawn when more than 2 stddev from the mean.

    Args:
        shape: the shape.
        mean: the mean.
        stddev: the standard deviation (non-negative).
        dtype: 'float32' or 'int32' (values rounded).
        seed: a seed for a reproducible draw (None: a new random one).

    Returns:
        A new Tensor of shape, every value within mean +- 2 stddev.

    Example:
        >>> x = tf.truncated_normal([1000], stddev=0.5, seed=3)
        >>> bool(tf.abs(x).max() <= 1)
        True
    """
    mean, stddev = _real(mean, "truncated_normal", "mean"), _real(stddev, "truncated_normal", "stddev")
    if stddev < 0:
        raise ValueError(f"truncated_normal: argument 'stddev' must be non-negative, got {stddev}")
    return _random(shape, dtype, "truncated_normal", lambda: prng.Gaussian(mean, stddev, True, seed).take,
                   rounded=True)


def random_standard_normal(shape: Shape, dtype: DType = "float32", seed: Optional[float] = None) -> Tensor:
    """Random values from the normal distribution of mean 0 and standard deviation 1.

    Args:
        shape: the shape.
        dtype: 'float32' or 'int32' (values rounded).
        seed: a seed for a reproducible draw (None: a new random one).

    Returns:
        A new Tensor of shape.

    Example:
        >>> tf.random_standard_normal([4], seed=2).shape
        (4,)
    """
    return random_normal(shape, 0.0, 1.0, dtype, seed)


def random_uniform(shape: Shape, minval: float = 0.0, maxval: float = 1.0, dtype: DType = "float32",
                   seed: Optional[float] = None) -> Tensor:
    """Random values drawn uniformly from [minval, maxval).

    Args:
        shape: the shape.
        minval: the lower bound, included.
        maxval: the upper bound, excluded (not below minval).
        dtype: 'float32', 'int32' (values truncated) or 'bool' (as TF.js: values truncated, true
            where that is not 0 modulo 256, so [0, 1) gives false).
        seed: a seed for a reproducible draw (None: a new random one).

    Returns:
        A new Tensor of shape.

    Example:
        >>> x = tf.random_uniform([100], 2, 3, seed=7)
        >>> bool(x.min() >= 2), bool(x.max() < 3)
        (True, True)
    """
    minval, maxval = _real(minval, "random_uniform", "minval"), _real(maxval, "random_uniform", "maxval")
    if maxval < minval:
        raise ValueError(f"random_uniform: 'minval' ({minval}) must not exceed 'maxval' ({maxval})")
    span = maxval - minval
    vectorized = np is not None and prng.plain_number(minval) and prng.plain_number(span)

    def make_take():
        u = prng.make_uniform(seed)
        if vectorized:
            def take(k):
                with np.errstate(all="ignore"):   # (infinite bounds give NaN, as in Python, without warnings)
                    return minval + span * u.take(k)
        else:   # Python's arithmetic, value by value (numpy's would change the sums of other number types)
            def take(k):
                return [minval + span * v for v in u.take(k)]
        return take
    return _random(shape, dtype, "random_uniform", make_take, dtypes=("float32", "int32", "bool"))


def from_dlpack(x: Any) -> Tensor:
    """A new tensor holding the values of x, any object with the DLPack protocol (`__dlpack__`: a
    numpy array, a PyTorch or JAX tensor in host memory, a pytfweb tensor), read without a copy
    through numpy and written once into the active backend, with tf.tensor's dtype rules (float64
    becomes float32, int64 int32). TensorFlow's tf.experimental.dlpack.from_dlpack; needs numpy.

    Args:
        x: an object with `__dlpack__` in host memory.

    Returns:
        A new Tensor on the active backend.

    Example:
        >>> import numpy as np
        >>> tf.from_dlpack(np.arange(3, dtype=np.float32)).print()
        Tensor
            [0, 1, 2]
    """
    if isinstance(x, Tensor):
        x.throw_if_disposed("from_dlpack")
    if np is None:
        raise ImportError("from_dlpack: numpy is not importable here; it reads the DLPack buffer")
    if not hasattr(x, "__dlpack__"):
        raise TypeError(f"from_dlpack: argument 'x' must support the DLPack protocol (have __dlpack__), "
                        f"got {type(x).__name__}")
    try:
        arr = np.from_dlpack(x)
    except (BufferError, RuntimeError) as exc:   # (a device numpy cannot read, a dtype it has no form for)
        raise BufferError(f"from_dlpack: argument 'x' ({type(x).__name__}) cannot be read as host memory: "
                          f"{exc}") from None
    return tensor(arr)


@op
def variable(initial_value: TensorLike, trainable: bool = True, name: Optional[str] = None,
             dtype: Optional[DType] = None) -> Variable:
    """Create a Variable: a mutable tensor that optimizers update and tidy() never disposes.

    Variables live until disposed (or tf.dispose_variables()).

    Args:
        initial_value: the initial values (a Tensor is shared, not copied).
        trainable: whether gradients are computed for it (tf.variable_grads, optimizers).
        name: a name (None: a unique one).
        dtype: the dtype (None: initial_value's; otherwise it is cast).

    Returns:
        A new Variable.

    Example:
        >>> v = tf.variable(tf.tensor([1, 2]))
        >>> v.assign(tf.tensor([3, 4])).print()
        Tensor
            [3, 4]
    """
    if name is not None and not isinstance(name, str):
        raise TypeError(f"variable: argument 'name' must be a str, got {type(name).__name__}")
    initial = convert_to_tensor(initial_value, "initial_value", "variable")
    if dtype is not None and check_dtype(dtype, "variable") != initial.dtype:
        initial = cast(initial, dtype)
    return ENGINE.make_variable(initial, trainable, name)


@op
def clone(x: TensorLike) -> Tensor:
    """A new tensor with x's values (sharing its data until either changes).

    Args:
        x: the tensor.

    Returns:
        A new Tensor, equal to x, disposed independently of it.

    Example:
        >>> a = tf.tensor([1, 2])
        >>> b = tf.clone(a)
        >>> a.dispose()
        >>> b.print()
        Tensor
            [1, 2]
    """
    x = convert_to_tensor(x, "x", "clone")
    return ENGINE.run_kernel("Identity", [x])
