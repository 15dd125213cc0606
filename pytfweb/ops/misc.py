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

from ..core import tensor_values as _conv
from ..core.dtypes import TYPECODES, check_dtype
from ..core.engine import ENGINE, op
from ..core.environment import ENV
from ..core.limits import check_elements
from ..core.shapes import check_shape, size_of, strides_of
from ..core.tensor import Tensor
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


def _make_concat(rank):
    name = f"concat{rank}d"

    def checked(tensors):
        # Converted as tf.concat converts, then rank-checked.
        out = _tensor_list(tensors, "concat", same_dtype=False)
        for i, t in enumerate(out):
            _of_rank(t, rank, name, f"tensors[{i}]")
        return out

    if rank == 1:
        def fn(tensors):
            return concat(checked(tensors), 0)
    else:
        def fn(tensors, axis=0):
            return concat(checked(tensors), axis)
    return _public(fn, name, f"tf.{name}: tf.concat of rank-{rank} tensors.")


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

    def fn(x, paddings, constant_value=0):
        x = _of_rank(convert_to_tensor(x, "x", name), rank, name)
        return pad(x, _pad_pairs(paddings, rank, name), constant_value)
    return _public(fn, name, f"tf.{name}: tf.pad of a rank-{rank} tensor"
                             + (" (paddings: one [before, after] pair)." if rank == 1 else "."))


def _make_reverse(rank):
    name = f"reverse{rank}d"
    if rank == 1:
        def fn(x):
            return reverse(_of_rank(convert_to_tensor(x, "x", name), 1, name), 0)
    else:
        def fn(x, axis=None):
            return reverse(_of_rank(convert_to_tensor(x, "x", name), rank, name), axis)
    return _public(fn, name, f"tf.{name}: tf.reverse of a rank-{rank} tensor.")


def _make_slice(rank):
    name = f"slice{rank}d"

    def fn(x, begin, size):
        x = _of_rank(convert_to_tensor(x, "x", name), rank, name)
        if rank == 1:  # TF.js's slice1d takes numbers; a one-entry list is accepted too
            begin = [begin] if is_int(begin) else begin
            size = [size] if is_int(size) else size
        return _slice(x, begin, size)
    return _public(fn, name, f"tf.{name}: tf.slice of a rank-{rank} tensor"
                             + (" (begin and size are ints)." if rank == 1 else "."))


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
    """A mutable, CPU-side buffer with a shape and dtype (TF.js's TensorBuffer): set and read
    values one coordinate at a time, then make an immutable tensor with to_tensor().

    `values` is a flat array.array (a list of str for string buffers). Given an array.array of
    the dtype's typecode (or a list, for strings) it is used as is, not copied, as TF.js uses a
    given typed array; anything else is converted."""

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

    def set(self, value, *locs):
        """Store value at coordinates locs (none: a scalar buffer's only element)."""
        index = self._index(locs, "set")
        if self.dtype == "string":
            if not isinstance(value, str):
                raise TypeError(f"TensorBuffer.set: argument 'value' must be a str for a string buffer, "
                                f"got {type(value).__name__}")
            self.values[index] = value
        else:
            self.values[index] = _conv._coerce(value, self.dtype, "TensorBuffer.set", "value")

    def get(self, *locs):
        """The value at coordinates locs (bool buffers give True/False, as Tensor.array_sync)."""
        value = self.values[self._index(locs, "get")]
        return bool(value) if self.dtype == "bool" else value

    def loc_to_index(self, locs):
        """The flat index of coordinates locs."""
        index = locs[-1] if locs else 0
        for loc, stride in zip(locs[:-1], self.strides):
            index += stride * loc
        return index

    def index_to_loc(self, index):
        """The coordinates of flat index."""
        locs = []
        for stride in self.strides:
            loc, index = divmod(index, stride)
            locs.append(loc)
        return locs + [index] if self.rank else []

    def to_tensor(self):
        """A new tensor holding a copy of the values (later set() calls do not change it)."""
        return tensor(self.values, self.shape, self.dtype)

    def __repr__(self):
        return f"<TensorBuffer shape={self.shape} dtype={self.dtype}>"


def _shared(values, dtype):
    if dtype == "string":
        return isinstance(values, list) and all(isinstance(v, str) for v in values)
    return isinstance(values, array.array) and values.typecode == TYPECODES[dtype]


def buffer(shape, dtype="float32", values=None):
    """tf.buffer: a TensorBuffer of shape and dtype, zero-filled unless values (flat) are given."""
    return TensorBuffer(check_shape(shape, "buffer"), dtype, values)


@op
def rand(shape, rand_function, dtype=None):
    """tf.rand: a tensor of shape whose values are rand_function() called once per element
    (stored as TF.js stores them in a typed array: int32 truncates, a bool is its number truncated
    to a byte, != 0)."""
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
def ensure_shape(x, shape):
    """tf.ensure_shape: x itself if its shape matches shape, where a None dimension matches any
    size; ValueError otherwise."""
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


def enclosing_power_of_two(value):
    """tf.enclosing_power_of_two: the smallest 2**n >= value, as an int (floor(2**n) below 1,
    as TF.js: 0.3 gives 0). ValueError for value <= 0 (where TF.js gives 0 or NaN)."""
    name = "enclosing_power_of_two"
    if isinstance(value, bool) or not isinstance(value, (int, float)) and not is_int(value):
        raise TypeError(f"{name}: argument 'value' must be a number, got {type(value).__name__}")
    if not value > 0 or value == math.inf:
        raise ValueError(f"{name}: argument 'value' must be a positive finite number, got {value!r}")
    if is_int(value):
        return 1 << (value.__index__() - 1).bit_length()  # exact for any int
    return math.floor(2.0 ** math.ceil(math.log2(value)))


def cosine_window(window_length, a, b):
    """tf.cosine_window: a - b * cos(2 pi i / (N - 1)), periodic (/ N) for even N: TF.js's
    cosineWindow, behind hann_window and hamming_window. N = 1 gives NaN, as in TF.js (0 / 0)."""
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
def moving_average(v, x, decay, step=None, zero_debias=True):
    """tf.moving_average: v + (x - v) * (1 - decay), divided by (1 - decay**step) when
    zero_debias (then step is required)."""
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


async def in_top_k_async(predictions, targets, k=1):
    """tf.in_top_k_async: for each row of predictions (over its last axis), whether targets' index
    is among the k largest values (ties: the lower index ranks first; NaN ranks above numbers).
    Reads both back, as TF.js; a bool tensor of targets' shape."""
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
def basic_lstm_cell(forget_bias, lstm_kernel, lstm_bias, data, c, h):
    """tf.basic_lstm_cell: one step of a basic LSTM cell; returns [new_c, new_h].

    [data, h] @ lstm_kernel + lstm_bias holds the gates i, j, f, o side by side (each units
    wide): new_c = c * sigmoid(f + forget_bias) + sigmoid(i) * tanh(j), new_h = tanh(new_c) * sigmoid(o)."""
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
def multi_rnn_cell(lstm_cells, data, c, h):
    """tf.multi_rnn_cell: a stack of cells, each a function (data, c, h) -> [new_c, new_h] (such
    as a basic_lstm_cell with its weights bound); each cell's new_h is the next cell's data.
    c and h hold one state per cell; returns [new_cs, new_hs] (lists)."""
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

def force_half_float():
    """tf.force_half_float: make webgl render into half-float textures even where float32 rendering
    works (sets the WEBGL_FORCE_F16_TEXTURES flag). A webgl backend reads the flag when it is
    created, so this affects webgl backends created afterwards, not one already running."""
    ENV.set("WEBGL_FORCE_F16_TEXTURES", True)


_DEPRECATION_FLAG = "DEPRECATION_WARNINGS_ENABLED"


def deprecation_warn(msg):
    """tf.deprecation_warn: warn about deprecated functionality unless deprecation warnings are
    disabled. A FutureWarning, Python's category for deprecations meant for end users (a
    DeprecationWarning is hidden by default, and TF.js's console.warn is not)."""
    if ENV.get_bool(_DEPRECATION_FLAG):
        warnings.warn(f"{msg} You can disable deprecation warnings with tf.disable_deprecation_warnings().",
                      FutureWarning, stacklevel=2)


def disable_deprecation_warnings():
    """tf.disable_deprecation_warnings: deprecation_warn stays silent from now on (the
    DEPRECATION_WARNINGS_ENABLED flag); says so once, as TF.js does."""
    ENV.set(_DEPRECATION_FLAG, False)
    warnings.warn("pytfweb deprecation warnings have been disabled.", UserWarning, stacklevel=2)
