"""tf.util: TF.js's utility functions that mean something in Python, in snake_case. Typed arrays are
array.array (float32 'f', int32 'i', bool 'B'), byte strings are bytes. finger_print64 and
hex_to_long return Python ints where TF.js returns Long objects (unsigned 64-bit, the value
Long.toString gives). fetch is the page's fetch or urllib in CPython (io.http.fetch: a FetchResponse
with fetch's Response API in snake_case); repeated_try is awaited. The shuffles and rand_uniform draw
from Python's random module, as TF.js's from Math.random."""
import array
import builtins
import inspect
import math
import random
import time

from .core import tensor_values as _convert
from .core.dtypes import BYTES_PER_ELEMENT, DTYPES, TYPECODES
from .core.limits import flatten_nested
from .core.shapes import size_of
from .backends.strings import fingerprint64 as _fingerprint64   # the StringToHashBucketFast kernel's own
from .io.http import fetch as _fetch

__all__ = ["arrays_equal", "arrays_equal_with_null", "assert_non_negative_integer_dimensions", "assert_non_null",
           "assert_shapes_match", "bytes_from_string_array", "bytes_per_element", "check_conversion_for_errors",
           "clamp", "compute_strides", "convert_backend_values_and_array_buffer", "create_scalar_value",
           "create_shuffled_indices", "decode_string", "dist_squared", "encode_string", "fetch", "finger_print64", "flatten",
           "get_array_from_d_type", "get_typed_array_from_d_type", "has_encoding_loss", "hex_to_long", "index_to_loc", "infer_dtype",
           "infer_from_implicit_shape", "is_boolean", "is_function", "is_int", "is_number", "is_promise",
           "is_scalar_shape", "is_string", "is_typed_array", "is_valid_dtype", "loc_to_index",
           "make_ones_typed_array", "make_zeros_nested_typed_array", "make_zeros_typed_array", "nearest_divisor",
           "nearest_larger_even", "now", "parse_axis_param", "rand_uniform", "repeated_try", "right_pad", "shuffle", "shuffle_combo",
           "size_from_shape", "size_to_squarish_shape", "squeeze_shape", "sum", "swap", "tanh", "to_nested_array",
           "to_typed_array"]

infer_dtype = _convert.infer_dtype


# --- assertions ----------------------------------------------------------------------------------
def _assert(expr, msg):
    """tf.util.assert (a keyword in Python: getattr(tf.util, 'assert') or tf.util.assert_): raise
    ValueError(msg, or msg() when it is a function) unless expr."""
    if not expr:
        raise ValueError(msg if isinstance(msg, str) else msg())


globals()["assert"] = assert_ = _assert


def assert_shapes_match(shape_a, shape_b, error_message_prefix=""):
    _assert(arrays_equal(shape_a, shape_b),
            lambda: f"{error_message_prefix} Shapes {_join(shape_a)} and {_join(shape_b)} must match")


def assert_non_null(a):
    _assert(a is not None, "The input to the tensor constructor must be a non-null value.")


def assert_non_negative_integer_dimensions(shape):
    for d in shape:
        _assert(is_number(d) and d % 1 == 0 and d >= 0,
                lambda: f"Tensor must have a shape comprised of positive integers but got shape [{_join(shape)}].")


def check_conversion_for_errors(vals, dtype):
    for v in vals:
        if not math.isfinite(v):
            raise ValueError(f"A tensor of type {dtype} being uploaded contains {v}.")


def _join(values):
    return ",".join(str(v) for v in values)


# --- shapes and indices -------------------------------------------------------------------------
def size_from_shape(shape):
    return size_of(shape)


def is_scalar_shape(shape):
    return len(shape) == 0


def compute_strides(shape):
    """The strides of every axis but the last (TF.js leaves out the last one's, which is 1)."""
    strides = [0] * max(len(shape) - 1, 0)
    for i in range(len(shape) - 2, -1, -1):
        strides[i] = shape[i + 1] * (strides[i + 1] if i + 1 < len(strides) else 1)
    return strides


def loc_to_index(locs, rank, strides):
    if rank == 0:
        return 0
    if rank == 1:
        return locs[0]
    return locs[-1] + sum(s * loc for s, loc in zip(strides, locs[:-1]))


def index_to_loc(index, rank, strides):
    if rank == 0:
        return []
    if rank == 1:
        return [index]
    locs = []
    for s in strides[:rank - 1]:
        locs.append(index // s)
        index -= locs[-1] * s
    return locs + [index]


def size_to_squarish_shape(size):
    width = math.ceil(math.sqrt(size))
    return [width, math.ceil(size / width)]


def infer_from_implicit_shape(shape, size):
    """shape with its one -1 replaced by what makes it hold size elements."""
    prod, implicit = 1, -1
    for i, d in enumerate(shape):
        if d >= 0:
            prod *= d
        elif d == -1:
            if implicit != -1:
                raise ValueError(f"Shapes can only have 1 implicit size. Found -1 at dim {implicit} and dim {i}")
            implicit = i
        else:
            raise ValueError(f"Shapes can not be < 0. Found {d} at dim {i}")
    if implicit == -1:
        if size > 0 and size != prod:
            raise ValueError(f"Size({size}) must match the product of shape {_join(shape)}")
        return list(shape)
    if prod == 0:
        raise ValueError(f"Cannot infer the missing size in [{_join(shape)}] when there are 0 elements")
    if size % prod:
        raise ValueError(f"The implicit shape can't be a fractional number. Got {size} / {prod}")
    out = list(shape)
    out[implicit] = size // prod
    return out


def parse_axis_param(axis, shape):
    """axis (None: every axis; an int or a list) as non-negative axes of shape."""
    rank = len(shape)
    axes = list(range(rank)) if axis is None else list(axis) if isinstance(axis, (list, tuple)) else [axis]
    _assert(all(-rank <= a < rank for a in axes),
            lambda: f"All values in axis param must be in range [-{rank}, {rank}) but got axis {_join(axes)}")
    _assert(all(a % 1 == 0 for a in axes), lambda: f"All values in axis param must be integers but got axis "
                                                   f"{_join(axes)}")
    return [a + rank if a < 0 else a for a in axes]


def squeeze_shape(shape, axis=None):
    """{"new_shape", "kept_dims"}: shape without its unit dimensions (those in axis, when given:
    a listed axis that is not 1 raises), as TF.js's squeezeShape."""
    axes = None if axis is None or (isinstance(axis, (list, tuple)) and not axis) else \
        sorted(parse_axis_param(axis, shape), key=str)   # TF.js sorts them as strings
    new_shape, kept_dims, j = [], [], 0
    for i, d in enumerate(shape):
        if axes is not None:
            a = axes[j] if j < len(axes) else None
            if a == i and d != 1:
                raise ValueError(f"Can't squeeze axis {i} since its dim '{d}' is not 1")
            if (a is None or a > i) and d == 1:
                new_shape.append(d)
                kept_dims.append(i)
            if a is not None and a <= i:
                j += 1
        if d != 1:
            new_shape.append(d)
            kept_dims.append(i)
    return {"new_shape": new_shape, "kept_dims": kept_dims}


def arrays_equal(n1, n2):
    if n1 is n2:
        return True
    if n1 is None or n2 is None or len(n1) != len(n2):
        return False
    return all(a == b for a, b in zip(n1, n2))


def arrays_equal_with_null(n1, n2):
    """arrays_equal, where None (a dimension not known) matches anything."""
    if n1 is n2:
        return True
    if n1 is None or n2 is None or len(n1) != len(n2):
        return False
    return all(a is None or b is None or a == b for a, b in zip(n1, n2))


# --- numbers -------------------------------------------------------------------------------------
def clamp(min, x, max):  # noqa: A002 - TF.js's argument names
    return builtins.max(min, builtins.min(x, max))


def nearest_larger_even(val):
    return val if val % 2 == 0 else val + 1


def nearest_divisor(size, start):
    for i in range(start, size):
        if size % i == 0:
            return i
    return size


def is_int(a):
    return a % 1 == 0


def sum(arr):  # noqa: A001 - TF.js name
    total = 0
    for v in arr:
        total += v
    return total


def dist_squared(a, b):
    return sum([(float(x) - float(y)) ** 2 for x, y in zip(a, b)])


def tanh(x):
    return math.tanh(x)


def right_pad(a, size):
    return a if size <= len(a) else a + " " * (size - len(a))


def now():
    """Milliseconds from an arbitrary point, high resolution."""
    return time.perf_counter() * 1000


# --- 64-bit hashes (TF.js's Long results as Python ints) -----------------------------------------
_M64 = (1 << 64) - 1
_HEX = "0123456789abcdef"


def hex_to_long(hex):  # noqa: A002 - TF.js's argument name
    """The unsigned 64-bit value of a hexadecimal string, as TF.js's Long.fromString(hex, true, 16):
    digits read in groups of 8 with JS parseInt (a group that does not start with a hex digit reads as
    0), the value taken modulo 2^64, a leading '-' negating it modulo 2^64. Returns an int in
    [0, 2^64) where TF.js returns a Long."""
    if not isinstance(hex, str):
        raise TypeError(f"util.hex_to_long: argument 'hex' must be a string, got {type(hex).__name__}")
    if not hex:
        raise ValueError("empty string")
    if hex in ("NaN", "Infinity", "+Infinity", "-Infinity"):
        return 0
    p = hex.find("-")
    if p > 0:
        raise ValueError("interior hyphen")
    if p == 0:
        return -hex_to_long(hex[1:]) & _M64
    result = 0
    for i in range(0, len(hex), 8):
        group = hex[i:i + 8]
        result = (result * 16 ** len(group) + _parse_int_hex(group)) & _M64
    return result


def _parse_int_hex(s):
    """JS parseInt(s, 16) for a group of hex_to_long, NaN read as 0 (Long.fromNumber(NaN) is 0)."""
    s = s.lstrip(" \t\n\r\v\f\u00a0\ufeff")
    sign = -1 if s[:1] == "-" else 1
    if s[:1] in "+-" and s:
        s = s[1:]
    if s[:2].lower() == "0x":
        s = s[2:]
    n = 0
    while n < len(s) and s[n].lower() in _HEX:
        n += 1
    return sign * int(s[:n], 16) if n else 0


def finger_print64(s, len=None):  # noqa: A002 - TF.js's argument name
    """farmhash's Fingerprint64 of the first len bytes of s (bytes, a bytearray, a byte array.array or
    a list of byte values; a str is hashed as its UTF-8 bytes), as TF.js's util.fingerPrint64 and its
    StringToHashBucketFast kernel compute it. Returns an int in [0, 2^64) where TF.js returns an
    unsigned Long."""
    if isinstance(s, str):
        s = s.encode("utf-8")
    try:
        s = bytes(s)
    except (TypeError, ValueError):
        raise TypeError(f"util.finger_print64: argument 's' must be bytes (a Uint8Array in TF.js), got "
                        f"{type(s).__name__}") from None
    if len is not None:
        if not isinstance(len, int) or len < 0 or len > builtins.len(s):
            raise ValueError(f"util.finger_print64: argument 'len' must be an int in [0, {builtins.len(s)}], "
                             f"got {len!r}")
        s = s[:len]
    return _fingerprint64(s)


# --- fetching and retrying -------------------------------------------------------------------------
async def fetch(path, request_init=None):
    """TF.js's util.fetch: the page's fetch, or urllib in CPython; a FetchResponse (ok, status,
    status_text, url, headers; awaited array_buffer(), text(), json())."""
    return await _fetch(path, request_init)


async def repeated_try(check_fn, delay_fn=None, max_counter=None, schedule_fn=None):
    """Call check_fn until it returns something true (awaited; TF.js returns a Promise). After the
    k-th false answer the next try waits delay_fn(k) milliseconds (0 by default), or is handed to
    schedule_fn(try_fn, delay_ms) when given; after max_counter false answers it raises RuntimeError
    (TF.js rejects with no reason)."""
    import asyncio
    loop = asyncio.get_event_loop()
    done = loop.create_future()
    count = [0]

    def try_fn():
        if done.done():
            return
        try:
            if check_fn():
                done.set_result(None)
                return
            count[0] += 1
            backoff = delay_fn(count[0]) if delay_fn is not None else 0
            if max_counter is not None and count[0] >= max_counter:
                done.set_exception(RuntimeError(f"util.repeated_try: check_fn was still false after {count[0]} "
                                                f"tries (max_counter)"))
                return
        except BaseException as e:   # noqa: BLE001 - the awaiting caller gets it
            done.set_exception(e)
            return
        if schedule_fn is not None:
            schedule_fn(try_fn, backoff)
        else:
            loop.call_later(max(backoff, 0) / 1000, try_fn)
    try_fn()
    await done


# --- random --------------------------------------------------------------------------------------
def rand_uniform(a, b):
    r = random.random()
    return b * r + (1 - r) * a


def swap(obj, left, right):
    obj[left], obj[right] = obj[right], obj[left]


def shuffle(arr):
    """Shuffle arr in place (Fisher-Yates, as TF.js)."""
    counter = len(arr)
    while counter > 0:
        index = int(random.random() * counter)
        counter -= 1
        swap(arr, counter, index)


def shuffle_combo(arr, arr2):
    """Shuffle two sequences of the same length in place by the same permutation."""
    if len(arr) != len(arr2):
        raise ValueError(f"Array sizes must match to be shuffled together First array length was {len(arr)}"
                         f"Second array length was {len(arr2)}")
    counter = len(arr)
    while counter > 0:
        index = int(random.random() * counter)
        counter -= 1
        swap(arr, counter, index)
        swap(arr2, counter, index)


def create_shuffled_indices(n):
    out = array.array("I", range(n))
    shuffle(out)
    return out


# --- values, dtypes and typed arrays ---------------------------------------------------------------
def is_string(value):
    return isinstance(value, str)


def is_boolean(value):
    return isinstance(value, bool)


def is_number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def is_function(f):
    return callable(f)


def is_promise(obj):
    return inspect.isawaitable(obj)


def is_typed_array(a):
    return isinstance(a, (array.array, memoryview, bytes, bytearray))


def is_valid_dtype(dtype):
    return dtype in DTYPES


def has_encoding_loss(old_type, new_type):
    """Whether casting old_type values to new_type can lose information."""
    if new_type == "complex64":
        return False
    if new_type == "float32" and old_type != "complex64":
        return False
    if new_type == "int32" and old_type not in ("float32", "complex64"):
        return False
    return not (new_type == "bool" and old_type == "bool")


def bytes_per_element(dtype):
    if dtype not in BYTES_PER_ELEMENT:
        raise TypeError(f"Unknown dtype {dtype}")
    return BYTES_PER_ELEMENT[dtype]


def bytes_from_string_array(arr):
    """The bytes the encoded strings of arr take."""
    return 0 if arr is None else sum([len(x) for x in arr])


def encode_string(s, encoding="utf-8"):
    return s.encode(encoding or "utf-8")


def decode_string(b, encoding="utf-8"):
    return bytes(b).decode(encoding or "utf-8")


def flatten(arr, result=None, skip_typed_array=False):
    """The leaves of nested lists (and typed arrays, unless skip_typed_array) in order. Iterative:
    nesting deeper than tf.env() flag MAX_NESTING_DEPTH is a ValueError, never a RecursionError."""
    result = [] if result is None else result

    def nested(v):
        return isinstance(v, (list, tuple)) or (is_typed_array(v) and not skip_typed_array)

    if not nested(arr):
        result.append(arr)
        return result
    return flatten_nested(arr, result, nested, "flatten", "arr")


def _typecode(dtype, complex_as_float):
    """The array.array typecode of dtype's typed array (complex64: float32 when complex_as_float)."""
    if dtype is None or dtype == "float32" or (complex_as_float and dtype == "complex64"):
        return "f"
    if dtype in ("int32", "bool"):
        return TYPECODES[dtype]
    raise TypeError(f"Unknown data type {dtype}")


def make_zeros_typed_array(size, dtype=None):
    return array.array(_typecode(dtype, True), bytes(size * array.array(_typecode(dtype, True)).itemsize))


def make_ones_typed_array(size, dtype=None):
    return array.array(_typecode(dtype, True), [1]) * size


def get_array_from_d_type(dtype, size):
    """A zero-filled typed array of size for dtype (a list of None for 'string')."""
    if dtype == "string":
        return [None] * size
    return array.array(_typecode(dtype, False), bytes(size * array.array(_typecode(dtype, False)).itemsize))


get_typed_array_from_d_type = get_array_from_d_type


def to_nested_array(shape, a, is_complex=False):
    """Flat a as nested lists of shape (pairs of values per element when is_complex)."""
    if not shape:
        return a[0]
    size = size_of(shape) * (2 if is_complex else 1)
    if size == 0:
        return []
    if size != len(a):
        raise ValueError(f"[{_join(shape)}] does not match the input size {len(a)}"
                         f"{' for a complex tensor' if is_complex else ''}.")
    return _convert.nest(a, list(shape[:-1]) + [shape[-1] * (2 if is_complex else 1)])


def make_zeros_nested_typed_array(shape, dtype=None):
    if dtype not in (None, "float32", "int32", "bool"):
        raise TypeError(f"Unknown data type {dtype}")
    return to_nested_array(shape, make_zeros_typed_array(size_of(shape), dtype))


def to_typed_array(a, dtype):
    """a (nested lists, or a typed array) as a typed array of dtype: int32 truncates, bool is
    round(v) != 0, as TF.js's toTypedArray."""
    if dtype == "string":
        raise ValueError("Cannot convert a string[] to a TypedArray")
    flat = flatten(a)
    dtype = "float32" if dtype in (None, "complex64") else dtype
    return array.array(_typecode(dtype, False), [_convert._coerce(v, dtype, "to_typed_array") for v in flat])


def create_scalar_value(value, dtype):
    return encode_string(value) if dtype == "string" else to_typed_array([value], dtype)


def convert_backend_values_and_array_buffer(data, dtype):
    """data (a list passes through) as the typed array dtype reads it: an ArrayBuffer's bytes are
    float32 or int32 values; for bool and string, int32 values narrowed to bytes."""
    if isinstance(data, list):
        return data
    if dtype in ("float32", "int32"):
        if isinstance(data, array.array) and data.typecode == TYPECODES[dtype]:
            return data
        return array.array(TYPECODES[dtype], bytes(data))
    if dtype in ("bool", "string"):
        return array.array("B", [v & 0xFF for v in array.array("i", bytes(data))])
    raise TypeError(f"Unknown dtype {dtype}")
