"""TF.js's smaller top-level functions, all built on existing ops (so every backend has them and
gradients come for free):

  rank-checked wrappers   concat1d..4d, pad1d..4d, reverse1d..4d, slice1d..4d
  values from Python      buffer / TensorBuffer (also Tensor.buffer(), Tensor.buffer_sync()), rand
  shapes and numbers      ensure_shape, enclosing_power_of_two, cosine_window
  small computations      moving_average, in_top_k_async (reads back, as TF.js), basic_lstm_cell,
                          multi_rnn_cell
  environment             op (the engine's decorator), force_half_float, deprecation_warn,
                          disable_deprecation_warnings
"""
import array
import math
import warnings

from typing import Any, Callable, List, Optional, Sequence, Union

from ..core import tensor_values as _conv
from ..core.dtypes import TYPECODES, check_dtype
from ..core.engine import ENGINE, op
from ..core.environment import ENV
from ..core.limits import check_elements
from ..core.shapes import check_shape, size_of, strides_of
from ..core.tensor import Tensor
from ..core.types import DType, Shape, TensorLike
from . import elementwise as ew
from .creation import convert_to_tensor, scalar, tensor, tensor1d
from .matmul import mat_mul
from .shape import _tensor_list, concat, is_int, pad, reverse
from .slicing import slice as _slice

__all__ = ["concat1d", "concat2d", "concat3d", "concat4d", "pad1d", "pad2d", "pad3d", "pad4d",
           "reverse1d", "reverse2d", "reverse3d", "reverse4d", "slice1d", "slice2d", "slice3d", "slice4d",
           "TensorBuffer", "buffer", "rand", "ensure_shape", "enclosing_power_of_two", "cosine_window",
           "moving_average", "in_top_k_async", "basic_lstm_cell", "multi_rnn_cell", "op",
           "force_half_float", "deprecation_warn", "disable_deprecation_warnings"]


# --- rank-checked wrappers: concatNd, padNd, reverseNd, sliceNd ------------------------------
# One factory per family, one generated function per rank: each checks the rank, then defers to
# the general op (which does every other check). The rank-1 forms take TF.js's scalar arguments.

def _of_rank(x, rank, name, arg="x"):
    if x.rank != rank:
        raise ValueError(f"{name}: argument '{arg}' must be rank {rank}, got rank {x.rank} "
                         f"(shape {list(x.shape)})")
    return x


def _public(fn, name, doc):
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = doc
    return op(fn)


def _nd_doc(summary, args, returns, example):
    """The docstring of a rank-checked wrapper (one per rank): summary, Args, Returns, Example."""
    lines = [summary, "", "Args:"] + [f"    {a}" for a in args] + ["", "Returns:", f"    {returns}", "",
                                                                  "Example:"] + [f"    {e}" for e in example]
    return "\n".join(lines) + "\n"


def _ones_shape(rank, first):
    return [first] + [1] * (rank - 1)


def _concat_doc(rank, name):
    shape = _ones_shape(rank, 1)
    out = tuple([2] + shape[1:])
    return _nd_doc(f"tf.concat of rank-{rank} tensors (their rank checked).",
                   ["tensors: the rank-" + str(rank) + " tensors, equal in shape except along axis."]
                   + (["axis: the axis to join along."] if rank > 1 else []),
                   "A new rank-" + str(rank) + " Tensor.",
                   [f">>> tf.{name}([tf.ones({shape}), tf.ones({shape})]).shape", str(out)])


def _pad_doc(rank, name):
    if rank == 1:
        example = [f">>> tf.{name}(tf.tensor([1, 2]), [1, 1]).print()", "Tensor", "    [0, 1, 2, 0]"]
        paddings = "paddings: one [before, after] pair."
    else:
        example = [f">>> tf.{name}(tf.ones({_ones_shape(rank, 1)}), {[[1, 1]] + [[0, 0]] * (rank - 1)}).shape",
                   str(tuple(_ones_shape(rank, 3)))]
        paddings = f"paddings: {rank} [before, after] pairs, one per axis."
    return _nd_doc(f"tf.pad of a rank-{rank} tensor (its rank checked).",
                   ["x: the rank-" + str(rank) + " tensor.", paddings, "constant_value: the value added."],
                   "A new rank-" + str(rank) + " Tensor.", example)


def _reverse_doc(rank, name):
    if rank == 1:
        args, call = ["x: the rank-1 tensor."], f"tf.{name}(tf.tensor([1, 2, 3]))"
        printed = "[3, 2, 1]"
    else:
        args = ["x: the rank-" + str(rank) + " tensor.", "axis: the axis or axes to reverse (None: every axis)."]
        call, printed = f"tf.{name}(tf.tensor([1, 2], {_ones_shape(rank, 2)}), 0).as1d()", "[2, 1]"
    return _nd_doc(f"tf.reverse of a rank-{rank} tensor (its rank checked).", args,
                   "A new Tensor of x's shape.", [f">>> {call}.print()", "Tensor", f"    {printed}"])


def _slice_doc(rank, name):
    if rank == 1:
        args = ["x: the rank-1 tensor.", "begin: the start (an int).", "size: the length (an int; -1: to the end)."]
        call = f"tf.{name}(tf.tensor([1, 2, 3, 4]), 1, 2)"
    else:
        args = ["x: the rank-" + str(rank) + " tensor.", "begin: the start along each axis.",
                "size: the length along each axis (-1: to the end)."]
        begin, size = [1] + [0] * (rank - 1), [2] + [-1] * (rank - 1)
        call = f"tf.{name}(tf.tensor([1, 2, 3, 4], {_ones_shape(rank, 4)}), {begin}, {size}).as1d()"
    return _nd_doc(f"tf.slice of a rank-{rank} tensor (its rank checked).", args, "A new Tensor.",
                   [f">>> {call}.print()", "Tensor", "    [2, 3]"])


def _make_concat(rank):
    name = f"concat{rank}d"

    def checked(tensors):
        # Converted as tf.concat converts, then rank-checked.
        out = _tensor_list(tensors, "concat", same_dtype=False)
        for i, t in enumerate(out):
            _of_rank(t, rank, name, f"tensors[{i}]")
        return out

    if rank == 1:
        def fn(tensors: Sequence[TensorLike]) -> Tensor:
            return concat(checked(tensors), 0)
    else:
        def fn(tensors: Sequence[TensorLike], axis: int = 0) -> Tensor:
            return concat(checked(tensors), axis)
    return _public(fn, name, _concat_doc(rank, name))


def _pad_pairs(paddings, rank, name):
    """paddings as rank [before, after] pairs (pad1d takes one bare pair, as TF.js)."""
    if rank == 1 and isinstance(paddings, (list, tuple)) and len(paddings) == 2 and all(map(is_int, paddings)):
        paddings = [paddings]
    ok = (isinstance(paddings, (list, tuple)) and len(paddings) == rank
          and all(isinstance(p, (list, tuple)) and len(p) == 2 for p in paddings))
    if not ok:
        shape = "one [before, after] pair" if rank == 1 else f"{rank} [before, after] pairs"
        raise ValueError(f"{name}: argument 'paddings' must be {shape}, got {paddings!r}")
    return paddings


def _make_pad(rank):
    name = f"pad{rank}d"

    def fn(x: TensorLike, paddings: Sequence, constant_value: float = 0) -> Tensor:
        x = _of_rank(convert_to_tensor(x, "x", name), rank, name)
        return pad(x, _pad_pairs(paddings, rank, name), constant_value)
    return _public(fn, name, _pad_doc(rank, name))


def _make_reverse(rank):
    name = f"reverse{rank}d"
    if rank == 1:
        def fn(x: TensorLike) -> Tensor:
            return reverse(_of_rank(convert_to_tensor(x, "x", name), 1, name), 0)
    else:
        def fn(x: TensorLike, axis: Optional[Sequence[int]] = None) -> Tensor:
            return reverse(_of_rank(convert_to_tensor(x, "x", name), rank, name), axis)
    return _public(fn, name, _reverse_doc(rank, name))


def _make_slice(rank):
    name = f"slice{rank}d"

    def fn(x: TensorLike, begin: Union[int, Sequence[int]], size: Union[int, Sequence[int]]) -> Tensor:
        x = _of_rank(convert_to_tensor(x, "x", name), rank, name)
        if rank == 1:  # TF.js's slice1d takes numbers; a one-entry list is accepted too
            begin = [begin] if is_int(begin) else begin
            size = [size] if is_int(size) else size
        return _slice(x, begin, size)
    return _public(fn, name, _slice_doc(rank, name))


concat1d, concat2d, concat3d, concat4d = (_make_concat(r) for r in range(1, 5))
pad1d, pad2d, pad3d, pad4d = (_make_pad(r) for r in range(1, 5))
reverse1d, reverse2d, reverse3d, reverse4d = (_make_reverse(r) for r in range(1, 5))
slice1d, slice2d, slice3d, slice4d = (_make_slice(r) for r in range(1, 5))


# --- TensorBuffer, buffer, rand ---------------------------------------------------------------

def _flat_values(values, dtype, name):
    """A flat mutable store for dtype: an array.array (a list of str for strings)."""
    flat, _ = _conv.to_flat(values, dtype, name, "values")
    if dtype == "string" or isinstance(flat, array.array):
        return flat
    return array.array(TYPECODES[dtype], flat.tolist())  # an ndarray from numpy input


class TensorBuffer:
    """A mutable, CPU-side buffer with a shape and dtype (TF.js's TensorBuffer): set and read values
    one coordinate at a time, then make an immutable tensor with to_tensor().

    `values` is a flat array.array (a list of str for string buffers). Given an array.array of the
    dtype's typecode (or a list, for strings) it is used as is, not copied, as TF.js uses a given
    typed array; anything else is converted.

    Args:
        shape: the shape.
        dtype: the dtype.
        values: the flat values (None: zeros).

    Example:
        >>> b = tf.buffer([2, 2])
        >>> b.set(5, 0, 1)
        >>> b.get(0, 1), b.loc_to_index([1, 0]), b.index_to_loc(3)
        (5.0, 2, [1, 1])
        >>> b.to_tensor().print()
        Tensor
            [[0, 5],
             [0, 0]]
    """

    def __init__(self, shape, dtype="float32", values=None):
        name = "TensorBuffer"
        dtype = check_dtype(dtype or "float32", name)
        if dtype == "complex64":
            raise TypeError(f"{name}: complex64 buffers are not supported; make buffers for the real "
                            f"and imaginary parts and call tf.complex(real, imag)")
        self.shape = list(check_shape(shape, name))
        check_elements(self.shape, f"{name}: argument 'shape'")
        self.dtype = dtype
        self.size = size_of(self.shape)
        if values is None:
            values = [""] * self.size if dtype == "string" else array.array(TYPECODES[dtype], bytes(
                self.size * array.array(TYPECODES[dtype]).itemsize))
        elif not _shared(values, dtype):
            values = _flat_values(values, dtype, name)
        if len(values) != self.size:
            raise ValueError(f"{name}: length of values ({len(values)}) does not match the size "
                             f"{self.size} of shape {self.shape}")
        self.values = values
        self.strides = strides_of(self.shape)[:-1] if self.shape else []

    @property
    def rank(self):
        """The number of axes."""
        return len(self.shape)

    def _index(self, locs, name):
        locs = list(locs) or [0] * min(self.rank, 1)  # TF.js: no coordinates means element 0
        if len(locs) != self.rank:
            raise ValueError(f"TensorBuffer.{name}: the number of coordinates ({len(locs)}) must match "
                             f"the rank ({self.rank})")
        for loc, dim in zip(locs, self.shape):
            if not is_int(loc) or not 0 <= loc < dim:
                raise ValueError(f"TensorBuffer.{name}: requested out of range element at {locs}; "
                                 f"buffer shape {self.shape}")
        return self.loc_to_index(locs)

    def set(self, value: Any, *locs: int) -> None:
        """Store a value at coordinates.

        Args:
            value: the value (converted to the buffer's dtype).
            *locs: one coordinate per axis (none for a scalar buffer).
        """
        index = self._index(locs, "set")
        if self.dtype == "string":
            if not isinstance(value, str):
                raise TypeError(f"TensorBuffer.set: argument 'value' must be a str for a string buffer, "
                                f"got {type(value).__name__}")
            self.values[index] = value
        else:
            self.values[index] = _conv._coerce(value, self.dtype, "TensorBuffer.set", "value")

    def get(self, *locs: int) -> Any:
        """The value at coordinates.

        Args:
            *locs: one coordinate per axis (none for a scalar buffer).

        Returns:
            The value: a float, an int, a bool (bool buffers give True/False, as Tensor.array_sync) or a str.
        """
        value = self.values[self._index(locs, "get")]
        return bool(value) if self.dtype == "bool" else value

    def loc_to_index(self, locs: Sequence[int]) -> int:
        """The flat (row-major) index of coordinates.

        Args:
            locs: one coordinate per axis.

        Returns:
            The index into the flat values.
        """
        index = locs[-1] if locs else 0
        for loc, stride in zip(locs[:-1], self.strides):
            index += stride * loc
        return index

    def index_to_loc(self, index: int) -> List[int]:
        """The coordinates of a flat index.

        Args:
            index: an index into the flat values.

        Returns:
            One coordinate per axis.
        """
        locs = []
        for stride in self.strides:
            loc, index = divmod(index, stride)
            locs.append(loc)
        return locs + [index] if self.rank else []

    def to_tensor(self) -> Tensor:
        """A new tensor holding a copy of the values (later set() calls do not change it).

        Returns:
            A new Tensor of the buffer's shape and dtype.
        """
        return tensor(self.values, self.shape, self.dtype)

    def __repr__(self):
        return f"<TensorBuffer shape={self.shape} dtype={self.dtype}>"


def _shared(values, dtype):
    if dtype == "string":
        return isinstance(values, list) and all(isinstance(v, str) for v in values)
    return isinstance(values, array.array) and values.typecode == TYPECODES[dtype]


def buffer(shape: Shape, dtype: DType = "float32", values: Any = None) -> TensorBuffer:
    """A TensorBuffer: a mutable CPU-side buffer to fill one value at a time.

    Args:
        shape: the shape.
        dtype: the dtype.
        values: flat values to start from (None: zeros).

    Returns:
        A new TensorBuffer.

    Example:
        >>> b = tf.buffer([3], "int32")
        >>> b.set(7, 2)
        >>> b.to_tensor().print()
        Tensor
            [0, 0, 7]
    """
    return TensorBuffer(check_shape(shape, "buffer"), dtype, values)


@op
def rand(shape: Shape, rand_function: Callable[[], Any], dtype: Optional[DType] = None) -> Tensor:
    """A tensor whose values are rand_function() called once per element.

    Values are stored as TF.js stores them in a typed array: int32 truncates, a bool is its number
    truncated to a byte, != 0.

    Args:
        shape: the shape.
        rand_function: a function of no argument returning a number.
        dtype: the dtype (None: float32).

    Returns:
        A new Tensor of shape.

    Example:
        >>> tf.rand([3], lambda: 2.5, "int32").print()
        Tensor
            [2, 2, 2]
    """
    name = "rand"
    shape = check_shape(shape, name)
    dtype = "float32" if dtype is None else check_dtype(dtype, name)
    if dtype not in ("float32", "int32", "bool"):
        raise TypeError(f"{name}: argument 'dtype' must be float32, int32 or bool, got {dtype!r}")
    if not callable(rand_function):
        raise TypeError(f"{name}: argument 'rand_function' must be callable, got {type(rand_function).__name__}")
    check_elements(shape, f"{name}: argument 'shape'")
    values = array.array(TYPECODES[dtype], [_conv.fill_value(rand_function(), dtype, name, "rand_function")
                                            for _ in range(size_of(shape))])
    return ENGINE.make_tensor(values, shape, dtype)


# --- shapes and numbers ----------------------------------------------------------------------

@op
def ensure_shape(x: TensorLike, shape: Sequence[Optional[int]]) -> Tensor:
    """x itself if its shape matches, where a None dimension matches any size.

    Args:
        x: the tensor.
        shape: the expected shape (None entries match any size).

    Returns:
        x.

    Raises:
        ValueError: the shapes differ.

    Example:
        >>> tf.ensure_shape(tf.ones([2, 3]), [None, 3]).shape
        (2, 3)
    """
    name = "ensure_shape"
    if isinstance(x, Tensor):
        x.throw_if_disposed(name)  # any dtype, strings too (TF.js: 'string_or_numeric')
    else:
        x = convert_to_tensor(x, "x", name)
    if isinstance(shape, (str, bytes, Tensor)) or not hasattr(shape, "__iter__"):
        raise TypeError(f"{name}: argument 'shape' must be a sequence of ints or None, got {type(shape).__name__}")
    shape = list(shape)
    if any(d is not None and not is_int(d) for d in shape):
        raise TypeError(f"{name}: argument 'shape' must contain ints or None, got {shape}")
    if len(shape) != x.rank or any(d is not None and d != s for d, s in zip(shape, x.shape)):
        raise ValueError(f"{name}: shape of 'x' {list(x.shape)} is not compatible with expected shape {shape}")
    return x


def enclosing_power_of_two(value: float) -> int:
    """The smallest 2 ** n >= value, as an int (floor(2 ** n) below 1, as TF.js: 0.3 gives 0).

    Args:
        value: a positive number.

    Returns:
        The power of two.

    Raises:
        ValueError: value <= 0 (where TF.js gives 0 or NaN).

    Example:
        >>> tf.enclosing_power_of_two(5), tf.enclosing_power_of_two(8)
        (8, 8)
    """
    name = "enclosing_power_of_two"
    if isinstance(value, bool) or not isinstance(value, (int, float)) and not is_int(value):
        raise TypeError(f"{name}: argument 'value' must be a number, got {type(value).__name__}")
    if not value > 0 or value == math.inf:
        raise ValueError(f"{name}: argument 'value' must be a positive finite number, got {value!r}")
    if is_int(value):
        return 1 << (value.__index__() - 1).bit_length()  # exact for any int
    return math.floor(2.0 ** math.ceil(math.log2(value)))


def cosine_window(window_length: int, a: float, b: float) -> Tensor:
    """The window a - b * cos(2 pi i / (N - 1)), periodic (/ N) for even N: TF.js's cosineWindow,
    behind hann_window and hamming_window. N = 1 gives NaN, as in TF.js (0 / 0).

    Args:
        window_length: N, the window's length.
        a: the constant term.
        b: the cosine's weight.

    Returns:
        A float32 Tensor of shape (N,).

    Example:
        >>> tf.cosine_window(3, 0.5, 0.5).print()
        Tensor
            [0, 1, 0]
    """
    name = "cosine_window"
    if not is_int(window_length) or window_length < 0:
        raise ValueError(f"{name}: argument 'window_length' must be a non-negative int, got {window_length!r}")
    n = window_length.__index__()
    check_elements((n,), f"{name}: argument 'window_length'")
    denominator = n - 1 + (1 - n % 2)
    values = [a - b * math.cos(2.0 * math.pi * i / denominator) if denominator else math.nan for i in range(n)]
    return tensor1d(values, dtype="float32")


# --- small computations ----------------------------------------------------------------------

@op
def moving_average(v: TensorLike, x: TensorLike, decay: float, step: Optional[float] = None,
                   zero_debias: bool = True) -> Tensor:
    """An updated moving average: v + (x - v) * (1 - decay), divided by (1 - decay ** step)
    when zero_debias.

    Args:
        v: the current average.
        x: the new value, of v's shape.
        decay: the decay, in [0, 1].
        step: the step count (required with zero_debias).
        zero_debias: correct the bias of an average started at 0.

    Returns:
        A Tensor of v's shape.

    Example:
        >>> tf.moving_average(tf.tensor([0]), tf.tensor([10]), 0.5, zero_debias=False).print()
        Tensor
            [5]
    """
    name = "moving_average"
    v = convert_to_tensor(v, "v", name)
    x = convert_to_tensor(x, "x", name)
    decay = convert_to_tensor(decay, "decay", name)
    if v.dtype != x.dtype:
        raise TypeError(f"{name}: 'v' ({v.dtype}) and 'x' ({x.dtype}) must have the same dtype")
    if v.shape != x.shape:
        raise ValueError(f"{name}: 'v' (shape {list(v.shape)}) and 'x' (shape {list(x.shape)}) must have "
                         f"the same shape")
    one = scalar(1)
    update = ew.mul(ew.sub(x, v), ew.sub(one, decay))
    if zero_debias:
        if step is None:
            raise ValueError(f"{name}: argument 'step' is required when zero_debias is True")
        step = convert_to_tensor(step, "step", name)
        update = ew.div(update, ew.sub(one, ew.pow(decay, step)))
    return ew.add(v, update)


async def in_top_k_async(predictions: TensorLike, targets: TensorLike, k: int = 1) -> Tensor:
    """For each row of predictions (its last axis), whether the target's index is among the k
    largest values (ties: the lower index ranks first; NaN ranks above numbers). Awaited: both
    are read back, as in TF.js.

    Args:
        predictions: a float32 tensor [..., classes].
        targets: int32 class indices of predictions' shape without its last axis.
        k: how many of the largest values count.

    Returns:
        A bool Tensor of targets' shape.

    Example:
        >>> import asyncio
        >>> p = tf.tensor([[0.1, 0.8, 0.1], [0.6, 0.3, 0.1]])
        >>> asyncio.run(tf.in_top_k_async(p, tf.tensor([1, 1], dtype="int32"))).print()
        Tensor
            [true, false]
    """
    name = "in_top_k_async"
    made = []
    try:
        p = _converted(predictions, "predictions", name, made)
        t = _converted(targets, "targets", name, made)
        if p.rank < 2:
            raise ValueError(f"{name}: argument 'predictions' must be rank 2 or higher, got rank {p.rank}")
        if p.rank - 1 != t.rank or p.shape[:-1] != t.shape:
            raise ValueError(f"{name}: the shape of 'targets' {list(t.shape)} must be that of 'predictions' "
                             f"{list(p.shape)} without its last axis")
        last = p.shape[-1]
        if not is_int(k) or not 0 < k <= last:
            raise ValueError(f"{name}: argument 'k' must be > 0 and <= the last dimension of 'predictions' "
                             f"({last}), got {k!r}")
        values, wanted = await p.data(), await t.data()
    finally:
        ENGINE.dispose(made)
    hits = []
    for row, target in enumerate(wanted):
        vals = values[row * last:(row + 1) * last]
        # stable: ties keep index order; NaN ranks above every number (TF.js's comparison is
        # inconsistent for NaN, its order there undefined), as in top_k
        ranked = sorted(range(last), key=lambda i: (not math.isnan(vals[i]), -vals[i]))
        hits.append(int(target in ranked[:k]))
    return tensor(hits, t.shape, "bool")


def _converted(x, arg, name, made):
    """convert_to_tensor, remembering what it made (an async function has no scope to clean up)."""
    t = convert_to_tensor(x, arg, name)
    if t is not x:
        made.append(t)
    return t


@op
def basic_lstm_cell(forget_bias: TensorLike, lstm_kernel: TensorLike, lstm_bias: TensorLike, data: TensorLike,
                    c: TensorLike, h: TensorLike) -> List[Tensor]:
    """One step of a basic LSTM cell.

    [data, h] @ lstm_kernel + lstm_bias holds the gates i, j, f, o side by side (each units wide):
    new_c = c * sigmoid(f + forget_bias) + sigmoid(i) * tanh(j), new_h = tanh(new_c) * sigmoid(o).

    Args:
        forget_bias: a scalar added to the forget gate.
        lstm_kernel: [input_size + units, 4 * units].
        lstm_bias: [4 * units].
        data: the input, [batch, input_size].
        c: the cell state, [batch, units].
        h: the output state, [batch, units].

    Returns:
        [new_c, new_h].

    Example:
        >>> c, h = tf.basic_lstm_cell(tf.scalar(1), tf.zeros([3, 8]), tf.zeros([8]), tf.ones([1, 1]),
        ...                           tf.zeros([1, 2]), tf.zeros([1, 2]))
        >>> c.shape, h.shape
        ((1, 2), (1, 2))
    """
    name = "basic_lstm_cell"
    forget_bias = convert_to_tensor(forget_bias, "forget_bias", name)
    lstm_kernel = convert_to_tensor(lstm_kernel, "lstm_kernel", name)
    lstm_bias = convert_to_tensor(lstm_bias, "lstm_bias", name)
    data, c, h = (convert_to_tensor(v, arg, name) for v, arg in ((data, "data"), (c, "c"), (h, "h")))
    for arg, t in (("data", data), ("c", c), ("h", h), ("lstm_kernel", lstm_kernel)):
        _of_rank(t, 2, name, arg)
    batch, units = h.shape
    if lstm_kernel.shape != (data.shape[1] + units, 4 * units):
        raise ValueError(f"{name}: argument 'lstm_kernel' must have shape [data columns + h columns, "
                         f"4 * h columns] = {[data.shape[1] + units, 4 * units]}, got {list(lstm_kernel.shape)}")
    if data.shape[0] != batch or c.shape != h.shape:
        raise ValueError(f"{name}: 'data' {list(data.shape)}, 'c' {list(c.shape)} and 'h' {list(h.shape)} "
                         f"must share the batch size, and 'c' must have the shape of 'h'")
    gates = ew.add(mat_mul(concat([data, h], 1), lstm_kernel), lstm_bias)
    i, j, f, o = (_slice(gates, [0, k * units], [batch, units]) for k in range(4))
    new_c = ew.add(ew.mul(ew.sigmoid(i), ew.tanh(j)), ew.mul(c, ew.sigmoid(ew.add(forget_bias, f))))
    new_h = ew.mul(ew.tanh(new_c), ew.sigmoid(o))
    return [new_c, new_h]


@op
def multi_rnn_cell(lstm_cells: Sequence[Callable], data: TensorLike, c: Sequence[TensorLike],
                   h: Sequence[TensorLike]) -> List[List[Tensor]]:
    """A stack of cells, each cell's new_h the next cell's data.

    Args:
        lstm_cells: functions (data, c, h) -> [new_c, new_h] (such as a basic_lstm_cell with its
            weights bound).
        data: the input of the first cell.
        c: one cell state per cell.
        h: one output state per cell.

    Returns:
        [new_cs, new_hs], two lists with one tensor per cell.

    Example:
        >>> cell = lambda data, c, h: tf.basic_lstm_cell(tf.scalar(1), tf.zeros([3, 8]), tf.zeros([8]), data, c, h)
        >>> cs, hs = tf.multi_rnn_cell([cell], tf.ones([1, 1]), [tf.zeros([1, 2])], [tf.zeros([1, 2])])
        >>> len(cs), hs[0].shape
        (1, (1, 2))
    """
    name = "multi_rnn_cell"
    data = convert_to_tensor(data, "data", name)
    if not isinstance(c, (list, tuple)) or not isinstance(h, (list, tuple)):
        raise TypeError(f"{name}: arguments 'c' and 'h' must be lists of tensors, one per cell")
    if not len(lstm_cells) == len(c) == len(h):
        raise ValueError(f"{name}: 'lstm_cells' ({len(lstm_cells)}), 'c' ({len(c)}) and 'h' ({len(h)}) "
                         f"must have the same length")
    c = [convert_to_tensor(v, f"c[{i}]", name) for i, v in enumerate(c)]
    h = [convert_to_tensor(v, f"h[{i}]", name) for i, v in enumerate(h)]
    new_c, new_h = [], []
    for cell, ci, hi in zip(lstm_cells, c, h):
        cell_c, data = cell(data, ci, hi)
        new_c.append(cell_c)
        new_h.append(data)
    return [new_c, new_h]


# --- environment -----------------------------------------------------------------------------

def force_half_float() -> None:
    """Make webgl render into half-float textures even where float32 rendering works (sets the
    WEBGL_FORCE_F16_TEXTURES flag).

    A webgl backend reads the flag when it is created, so this affects webgl backends created
    afterwards, not one already running.

    Example:
        >>> tf.force_half_float()
        >>> tf.env().get("WEBGL_FORCE_F16_TEXTURES")
        True
        >>> tf.env().reset()
    """
    ENV.set("WEBGL_FORCE_F16_TEXTURES", True)


_DEPRECATION_FLAG = "DEPRECATION_WARNINGS_ENABLED"


def deprecation_warn(msg: str) -> None:
    """Warn about deprecated functionality unless deprecation warnings are disabled.

    A FutureWarning, Python's category for deprecations meant for end users (a DeprecationWarning
    is hidden by default, and TF.js's console.warn is not).

    Args:
        msg: the message.

    Example:
        >>> import warnings
        >>> with warnings.catch_warnings(record=True) as caught:
        ...     warnings.simplefilter("always")
        ...     tf.deprecation_warn("old_op is deprecated")
        >>> caught[0].category.__name__
        'FutureWarning'
    """
    if ENV.get_bool(_DEPRECATION_FLAG):
        warnings.warn(f"{msg} You can disable deprecation warnings with tf.disable_deprecation_warnings().",
                      FutureWarning, stacklevel=2)


def disable_deprecation_warnings() -> None:
    """Keep tf.deprecation_warn silent from now on (the DEPRECATION_WARNINGS_ENABLED flag); says so
    once, as TF.js does.

    Example:
        >>> import warnings
        >>> with warnings.catch_warnings(record=True) as caught:
        ...     warnings.simplefilter("always")
        ...     tf.disable_deprecation_warnings()
        >>> str(caught[0].message)
        'pytfweb deprecation warnings have been disabled.'
        >>> tf.env().get("DEPRECATION_WARNINGS_ENABLED")
        False
        >>> tf.env().reset()
    """
    ENV.set(_DEPRECATION_FLAG, False)
    warnings.warn("pytfweb deprecation warnings have been disabled.", UserWarning, stacklevel=2)
