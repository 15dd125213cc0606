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
from typing import Any, Callable, Dict, Iterable, List, MutableSequence, Optional, Sequence, Union

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


def assert_shapes_match(shape_a: Sequence[int], shape_b: Sequence[int], error_message_prefix: str = "") -> None:
    """Raise ValueError unless two shapes are equal.

    Args:
        shape_a: a shape.
        shape_b: another shape.
        error_message_prefix: the start of the error message.

    Example:
        >>> tf.util.assert_shapes_match([2, 3], [2, 3])
        >>> tf.util.assert_shapes_match([2, 3], [3, 2], "add:")
        Traceback (most recent call last):
        ...
        ValueError: add: Shapes 2,3 and 3,2 must match
    """
    _assert(arrays_equal(shape_a, shape_b),
            lambda: f"{error_message_prefix} Shapes {_join(shape_a)} and {_join(shape_b)} must match")


def assert_non_null(a: Any) -> None:
    """Raise ValueError if a is None (TF.js's message for the tensor constructor).

    Args:
        a: the value.

    Example:
        >>> tf.util.assert_non_null(0)
    """
    _assert(a is not None, "The input to the tensor constructor must be a non-null value.")


def assert_non_negative_integer_dimensions(shape: Sequence[Any]) -> None:
    """Raise ValueError unless every dimension of shape is a non-negative integer.

    Args:
        shape: the shape.

    Example:
        >>> tf.util.assert_non_negative_integer_dimensions([2, 0, 3])
    """
    for d in shape:
        _assert(is_number(d) and d % 1 == 0 and d >= 0,
                lambda: f"Tensor must have a shape comprised of positive integers but got shape [{_join(shape)}].")


def check_conversion_for_errors(vals: Iterable[float], dtype: str) -> None:
    """Raise ValueError if a value is not finite (NaN or infinite), as TF.js checks uploads in debug mode.

    Args:
        vals: the values.
        dtype: their dtype, for the message.

    Example:
        >>> tf.util.check_conversion_for_errors([1.0, float("nan")], "float32")
        Traceback (most recent call last):
        ...
        ValueError: A tensor of type float32 being uploaded contains nan.
    """
    for v in vals:
        if not math.isfinite(v):
            raise ValueError(f"A tensor of type {dtype} being uploaded contains {v}.")


def _join(values):
    return ",".join(str(v) for v in values)


# --- shapes and indices -------------------------------------------------------------------------
def size_from_shape(shape: Sequence[int]) -> int:
    """The number of elements of a shape.

    Args:
        shape: the shape.

    Returns:
        The product of its dimensions (1 for []).

    Example:
        >>> tf.util.size_from_shape([2, 3])
        6
    """
    return size_of(shape)


def is_scalar_shape(shape: Sequence[int]) -> bool:
    """Whether a shape is a scalar's ([]).

    Args:
        shape: the shape.

    Returns:
        A bool.

    Example:
        >>> tf.util.is_scalar_shape([]), tf.util.is_scalar_shape([1])
        (True, False)
    """
    return len(shape) == 0


def compute_strides(shape: Sequence[int]) -> List[int]:
    """The row-major strides of every axis but the last (TF.js leaves out the last one's, which is 1).

    Args:
        shape: the shape.

    Returns:
        A list of rank - 1 ints.

    Example:
        >>> tf.util.compute_strides([2, 3, 4])
        [12, 4]
    """
    strides = [0] * max(len(shape) - 1, 0)
    for i in range(len(shape) - 2, -1, -1):
        strides[i] = shape[i + 1] * (strides[i + 1] if i + 1 < len(strides) else 1)
    return strides


def loc_to_index(locs: Sequence[int], rank: int, strides: Sequence[int]) -> int:
    """The flat index of coordinates.

    Args:
        locs: one coordinate per axis.
        rank: the rank.
        strides: the strides (compute_strides).

    Returns:
        The index.

    Example:
        >>> tf.util.loc_to_index([1, 2], 2, [3])
        5
    """
    if rank == 0:
        return 0
    if rank == 1:
        return locs[0]
    return locs[-1] + sum(s * loc for s, loc in zip(strides, locs[:-1]))


def index_to_loc(index: int, rank: int, strides: Sequence[int]) -> List[int]:
    """The coordinates of a flat index.

    Args:
        index: the index.
        rank: the rank.
        strides: the strides (compute_strides).

    Returns:
        One coordinate per axis.

    Example:
        >>> tf.util.index_to_loc(5, 2, [3])
        [1, 2]
    """
    if rank == 0:
        return []
    if rank == 1:
        return [index]
    locs = []
    for s in strides[:rank - 1]:
        locs.append(index // s)
        index -= locs[-1] * s
    return locs + [index]


def size_to_squarish_shape(size: int) -> List[int]:
    """A 2D shape holding size elements, as square as possible: [ceil(sqrt(size)), ...].

    Args:
        size: the number of elements.

    Returns:
        [width, height].

    Example:
        >>> tf.util.size_to_squarish_shape(10)
        [4, 3]
    """
    width = math.ceil(math.sqrt(size))
    return [width, math.ceil(size / width)]


def infer_from_implicit_shape(shape: Sequence[int], size: int) -> List[int]:
    """A shape with its one -1 replaced by what makes it hold size elements.

    Args:
        shape: the shape, at most one -1.
        size: the number of elements.

    Returns:
        The shape, as a new list.

    Raises:
        ValueError: two -1s, a negative dimension, or a size that does not divide.

    Example:
        >>> tf.util.infer_from_implicit_shape([2, -1], 6)
        [2, 3]
    """
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


def parse_axis_param(axis: Union[int, Sequence[int], None], shape: Sequence[int]) -> List[int]:
    """An axis argument as non-negative axes of a shape.

    Args:
        axis: None (every axis), an int or a list of ints (negative count from the end).
        shape: the shape.

    Returns:
        A list of axes.

    Raises:
        ValueError: an axis out of range or not an integer.

    Example:
        >>> tf.util.parse_axis_param(-1, [2, 3]), tf.util.parse_axis_param(None, [2, 3])
        ([1], [0, 1])
    """
    rank = len(shape)
    axes = list(range(rank)) if axis is None else list(axis) if isinstance(axis, (list, tuple)) else [axis]
    _assert(all(-rank <= a < rank for a in axes),
            lambda: f"All values in axis param must be in range [-{rank}, {rank}) but got axis {_join(axes)}")
    _assert(all(a % 1 == 0 for a in axes), lambda: f"All values in axis param must be integers but got axis "
                                                   f"{_join(axes)}")
    return [a + rank if a < 0 else a for a in axes]


def squeeze_shape(shape: Sequence[int], axis: Union[int, Sequence[int], None] = None) -> Dict[str, List[int]]:
    """A shape without its dimensions of size 1 (those in axis, when given), as TF.js's squeezeShape.

    Args:
        shape: the shape.
        axis: the axes to drop (None or []: every axis of size 1); a listed axis that is not 1 raises.

    Returns:
        {"new_shape": the shape, "kept_dims": the axes kept}.

    Example:
        >>> tf.util.squeeze_shape([1, 3, 1])
        {'new_shape': [3], 'kept_dims': [1]}
    """
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


def arrays_equal(n1: Optional[Sequence[Any]], n2: Optional[Sequence[Any]]) -> bool:
    """Whether two sequences have equal lengths and elements.

    Args:
        n1: a sequence (or None).
        n2: another.

    Returns:
        A bool.

    Example:
        >>> tf.util.arrays_equal([1, 2], [1, 2]), tf.util.arrays_equal([1, 2], [1])
        (True, False)
    """
    if n1 is n2:
        return True
    if n1 is None or n2 is None or len(n1) != len(n2):
        return False
    return all(a == b for a, b in zip(n1, n2))


def arrays_equal_with_null(n1: Optional[Sequence[Any]], n2: Optional[Sequence[Any]]) -> bool:
    """arrays_equal, where None (a dimension not known) matches anything.

    Args:
        n1: a sequence (or None).
        n2: another.

    Returns:
        A bool.

    Example:
        >>> tf.util.arrays_equal_with_null([None, 2], [1, 2])
        True
    """
    if n1 is n2:
        return True
    if n1 is None or n2 is None or len(n1) != len(n2):
        return False
    return all(a is None or b is None or a == b for a, b in zip(n1, n2))


# --- numbers -------------------------------------------------------------------------------------
def clamp(min: float, x: float, max: float) -> float:  # noqa: A002 - TF.js's argument names
    """x clamped into [min, max].

    Args:
        min: the lower bound.
        x: the value.
        max: the upper bound.

    Returns:
        The clamped value.

    Example:
        >>> tf.util.clamp(0, 5, 3)
        3
    """
    return builtins.max(min, builtins.min(x, max))


def nearest_larger_even(val: int) -> int:
    """val if even, else val + 1.

    Args:
        val: an int.

    Returns:
        An even int.

    Example:
        >>> tf.util.nearest_larger_even(3)
        4
    """
    return val if val % 2 == 0 else val + 1


def nearest_divisor(size: int, start: int) -> int:
    """The smallest divisor of size at or above start (size itself if none is smaller).

    Args:
        size: the number to divide.
        start: where to start looking.

    Returns:
        The divisor.

    Example:
        >>> tf.util.nearest_divisor(12, 5)
        6
    """
    for i in range(start, size):
        if size % i == 0:
            return i
    return size


def is_int(a: float) -> bool:
    """Whether a number is an integer value.

    Args:
        a: the number.

    Returns:
        A bool.

    Example:
        >>> tf.util.is_int(2.0), tf.util.is_int(2.5)
        (True, False)
    """
    return a % 1 == 0


def sum(arr: Iterable[float]) -> float:  # noqa: A001 - TF.js name
    """The sum of a sequence of numbers.

    Args:
        arr: the numbers.

    Returns:
        Their sum (0 for none).

    Example:
        >>> tf.util.sum([1, 2, 3])
        6
    """
    total = 0
    for v in arr:
        total += v
    return total


def dist_squared(a: Sequence[float], b: Sequence[float]) -> float:
    """The squared Euclidean distance of two vectors.

    Args:
        a: a sequence of numbers.
        b: another, of a's length.

    Returns:
        A float.

    Example:
        >>> tf.util.dist_squared([0, 0], [3, 4])
        25.0
    """
    return sum([(float(x) - float(y)) ** 2 for x, y in zip(a, b)])


def tanh(x: float) -> float:
    """The hyperbolic tangent of a number.

    Args:
        x: the number.

    Returns:
        A float.

    Example:
        >>> tf.util.tanh(0)
        0.0
    """
    return math.tanh(x)


def right_pad(a: str, size: int) -> str:
    """A string padded with spaces on the right to size characters.

    Args:
        a: the string.
        size: the length wanted.

    Returns:
        The string (unchanged if already that long).

    Example:
        >>> tf.util.right_pad("ab", 4)
        'ab  '
    """
    return a if size <= len(a) else a + " " * (size - len(a))


def now() -> float:
    """Milliseconds from an arbitrary point, high resolution (TF.js's util.now).

    Returns:
        A float.

    Example:
        >>> start = tf.util.now()
        >>> tf.util.now() >= start
        True
    """
    return time.perf_counter() * 1000


# --- 64-bit hashes (TF.js's Long results as Python ints) -----------------------------------------
_M64 = (1 << 64) - 1
_HEX = "0123456789abcdef"


def hex_to_long(hex: str) -> int:  # noqa: A002 - TF.js's argument name
    """The unsigned 64-bit value of a hexadecimal string, as TF.js's Long.fromString(hex, true, 16):
    digits read in groups of 8 with JS parseInt (a group that does not start with a hex digit reads as
    0), the value taken modulo 2^64, a leading '-' negating it modulo 2^64.

    Args:
        hex: the hexadecimal string.

    Returns:
        An int in [0, 2^64) where TF.js returns a Long.

    Example:
        >>> tf.util.hex_to_long("ff"), tf.util.hex_to_long("-1")
        (255, 18446744073709551615)
    """
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


def finger_print64(s: Any, len: Optional[int] = None) -> int:  # noqa: A002 - TF.js's argument name
    """farmhash's Fingerprint64, as TF.js's util.fingerPrint64 and its StringToHashBucketFast kernel
    compute it.

    Args:
        s: bytes, a bytearray, a byte array.array or a list of byte values (a str is hashed as its
            UTF-8 bytes).
        len: hash only the first len bytes (None: all).

    Returns:
        An int in [0, 2^64) where TF.js returns an unsigned Long.

    Example:
        >>> tf.util.finger_print64("a") == tf.util.finger_print64(b"a")
        True
    """
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
async def fetch(path: str, request_init: Optional[dict] = None) -> Any:
    """TF.js's util.fetch: the page's fetch, or urllib in CPython (awaited).

    Args:
        path: the URL (http, https, data:, file:// in CPython).
        request_init: fetch's RequestInit (method, headers, body, ...).

    Returns:
        A FetchResponse: ok, status, status_text, url, headers; awaited array_buffer(), text(), json().

    Example:
        >>> import asyncio
        >>> response = asyncio.run(tf.util.fetch("data:text/plain,hello"))
        >>> response.ok, asyncio.run(response.text())
        (True, 'hello')
    """
    return await _fetch(path, request_init)


async def repeated_try(check_fn: Callable[[], Any], delay_fn: Optional[Callable[[int], float]] = None,
                       max_counter: Optional[int] = None, schedule_fn: Optional[Callable[..., Any]] = None) -> None:
    """Call check_fn until it returns something true (awaited; TF.js returns a Promise).

    After the k-th false answer the next try waits delay_fn(k) milliseconds (0 by default), or is
    handed to schedule_fn(try_fn, delay_ms) when given.

    Args:
        check_fn: a function of no argument.
        delay_fn: delay_fn(k) -> milliseconds before the next try.
        max_counter: the most false answers before giving up (None: no limit).
        schedule_fn: schedule_fn(try_fn, delay_ms) schedules the next try instead of a timer.

    Raises:
        RuntimeError: check_fn was still false after max_counter tries (TF.js rejects with no reason).

    Example:
        >>> import asyncio
        >>> answers = iter([False, False, True])
        >>> asyncio.run(tf.util.repeated_try(lambda: next(answers)))
    """
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
def rand_uniform(a: float, b: float) -> float:
    """A random float in [a, b) from Python's random module (TF.js uses Math.random).

    Args:
        a: the lower bound.
        b: the upper bound.

    Returns:
        A float.

    Example:
        >>> 2 <= tf.util.rand_uniform(2, 3) < 3
        True
    """
    r = random.random()
    return b * r + (1 - r) * a


def swap(obj: MutableSequence[Any], left: int, right: int) -> None:
    """Swap two items of a sequence in place.

    Args:
        obj: the mutable sequence.
        left: an index.
        right: another index.

    Example:
        >>> a = [1, 2, 3]
        >>> tf.util.swap(a, 0, 2)
        >>> a
        [3, 2, 1]
    """
    obj[left], obj[right] = obj[right], obj[left]


def shuffle(arr: MutableSequence[Any]) -> None:
    """Shuffle a mutable sequence in place (Fisher-Yates, as TF.js; Python's random module).

    Args:
        arr: the sequence.

    Example:
        >>> a = [1, 2, 3, 4]
        >>> tf.util.shuffle(a)
        >>> sorted(a)
        [1, 2, 3, 4]
    """
    counter = len(arr)
    while counter > 0:
        index = int(random.random() * counter)
        counter -= 1
        swap(arr, counter, index)


def shuffle_combo(arr: MutableSequence[Any], arr2: MutableSequence[Any]) -> None:
    """Shuffle two sequences of the same length in place by the same permutation.

    Args:
        arr: a mutable sequence.
        arr2: another, of arr's length.

    Raises:
        ValueError: the lengths differ.

    Example:
        >>> xs, ys = [1, 2, 3], ["a", "b", "c"]
        >>> tf.util.shuffle_combo(xs, ys)
        >>> sorted(zip(xs, ys))
        [(1, 'a'), (2, 'b'), (3, 'c')]
    """
    if len(arr) != len(arr2):
        raise ValueError(f"Array sizes must match to be shuffled together First array length was {len(arr)}"
                         f"Second array length was {len(arr2)}")
    counter = len(arr)
    while counter > 0:
        index = int(random.random() * counter)
        counter -= 1
        swap(arr, counter, index)
        swap(arr2, counter, index)


def create_shuffled_indices(n: int) -> array.array:
    """The indices 0 .. n-1 in a random order.

    Args:
        n: how many.

    Returns:
        An array.array of unsigned ints.

    Example:
        >>> sorted(tf.util.create_shuffled_indices(4))
        [0, 1, 2, 3]
    """
    out = array.array("I", range(n))
    shuffle(out)
    return out


# --- values, dtypes and typed arrays ---------------------------------------------------------------
def is_string(value: Any) -> bool:
    """Whether value is a str.

    Args:
        value: the value.

    Returns:
        A bool.

    Example:
        >>> tf.util.is_string("a"), tf.util.is_string(b"a")
        (True, False)
    """
    return isinstance(value, str)


def is_boolean(value: Any) -> bool:
    """Whether value is a bool.

    Args:
        value: the value.

    Returns:
        A bool.

    Example:
        >>> tf.util.is_boolean(True), tf.util.is_boolean(1)
        (True, False)
    """
    return isinstance(value, bool)


def is_number(value: Any) -> bool:
    """Whether value is an int or a float (not a bool).

    Args:
        value: the value.

    Returns:
        A bool.

    Example:
        >>> tf.util.is_number(3), tf.util.is_number(True)
        (True, False)
    """
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def is_function(f: Any) -> bool:
    """Whether f is callable.

    Args:
        f: the value.

    Returns:
        A bool.

    Example:
        >>> tf.util.is_function(len)
        True
    """
    return callable(f)


def is_promise(obj: Any) -> bool:
    """Whether obj is awaitable (TF.js's promises).

    Args:
        obj: the value.

    Returns:
        A bool.

    Example:
        >>> async def work():
        ...     pass
        >>> pending = work()
        >>> tf.util.is_promise(pending), tf.util.is_promise(1)
        (True, False)
        >>> pending.close()
    """
    return inspect.isawaitable(obj)


def is_typed_array(a: Any) -> bool:
    """Whether a is a typed array's Python form: an array.array, memoryview, bytes or bytearray.

    Args:
        a: the value.

    Returns:
        A bool.

    Example:
        >>> import array
        >>> tf.util.is_typed_array(array.array("f", [1])), tf.util.is_typed_array([1])
        (True, False)
    """
    return isinstance(a, (array.array, memoryview, bytes, bytearray))


def is_valid_dtype(dtype: Any) -> bool:
    """Whether dtype is one of pytfweb's dtypes.

    Args:
        dtype: the name.

    Returns:
        A bool.

    Example:
        >>> tf.util.is_valid_dtype("int32"), tf.util.is_valid_dtype("int64")
        (True, False)
    """
    return dtype in DTYPES


def has_encoding_loss(old_type: str, new_type: str) -> bool:
    """Whether casting old_type values to new_type can lose information.

    Args:
        old_type: the dtype cast from.
        new_type: the dtype cast to.

    Returns:
        A bool.

    Example:
        >>> tf.util.has_encoding_loss("float32", "int32"), tf.util.has_encoding_loss("int32", "float32")
        (True, False)
    """
    if new_type == "complex64":
        return False
    if new_type == "float32" and old_type != "complex64":
        return False
    if new_type == "int32" and old_type not in ("float32", "complex64"):
        return False
    return not (new_type == "bool" and old_type == "bool")


def bytes_per_element(dtype: str) -> int:
    """The bytes one element of a dtype takes.

    Args:
        dtype: 'float32', 'int32', 'bool' or 'complex64'.

    Returns:
        The size in bytes.

    Raises:
        ValueError: an unknown dtype.

    Example:
        >>> tf.util.bytes_per_element("float32"), tf.util.bytes_per_element("bool")
        (4, 1)
    """
    if dtype not in BYTES_PER_ELEMENT:
        raise TypeError(f"Unknown dtype {dtype}")
    return BYTES_PER_ELEMENT[dtype]


def bytes_from_string_array(arr: Optional[Sequence[bytes]]) -> int:
    """The bytes the encoded strings of arr take.

    Args:
        arr: a list of bytes (None: none).

    Returns:
        The total length.

    Example:
        >>> tf.util.bytes_from_string_array([b"ab", b"c"])
        3
    """
    return 0 if arr is None else sum([len(x) for x in arr])


def encode_string(s: str, encoding: str = "utf-8") -> bytes:
    """A str encoded as bytes.

    Args:
        s: the string.
        encoding: the encoding.

    Returns:
        bytes.

    Example:
        >>> list(tf.util.encode_string("hé"))
        [104, 195, 169]
    """
    return s.encode(encoding or "utf-8")


def decode_string(b: Any, encoding: str = "utf-8") -> str:
    """Bytes decoded as a str.

    Args:
        b: the bytes (or a byte array).
        encoding: the encoding.

    Returns:
        A str.

    Example:
        >>> tf.util.decode_string(bytes([104, 195, 169]))
        'hé'
    """
    return bytes(b).decode(encoding or "utf-8")


def flatten(arr: Any, result: Optional[list] = None, skip_typed_array: bool = False) -> list:
    """The leaves of nested lists (and typed arrays, unless skip_typed_array), in order.

    Iterative: nesting deeper than the tf.env() flag MAX_NESTING_DEPTH is a ValueError, never a
    RecursionError.

    Args:
        arr: the nested lists (a leaf alone gives [leaf]).
        result: a list to append to (None: a new one).
        skip_typed_array: keep typed arrays as leaves.

    Returns:
        The list of leaves.

    Example:
        >>> tf.util.flatten([[1, [2]], 3])
        [1, 2, 3]
    """
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


def make_zeros_typed_array(size: int, dtype: Optional[str] = None) -> array.array:
    """A typed array of zeros.

    Args:
        size: the number of elements.
        dtype: 'float32' (None too; complex64 gives float32), 'int32' or 'bool'.

    Returns:
        An array.array.

    Example:
        >>> tf.util.make_zeros_typed_array(2, "int32")
        array('i', [0, 0])
    """
    return array.array(_typecode(dtype, True), bytes(size * array.array(_typecode(dtype, True)).itemsize))


def make_ones_typed_array(size: int, dtype: Optional[str] = None) -> array.array:
    """A typed array of ones.

    Args:
        size: the number of elements.
        dtype: 'float32' (None too), 'int32' or 'bool'.

    Returns:
        An array.array.

    Example:
        >>> tf.util.make_ones_typed_array(2, "int32")
        array('i', [1, 1])
    """
    return array.array(_typecode(dtype, True), [1]) * size


def get_array_from_d_type(dtype: Optional[str], size: int) -> Union[array.array, list]:
    """A zero-filled typed array of size for dtype (a list of None for 'string').

    Args:
        dtype: 'float32' (None too), 'int32', 'bool' or 'string'.
        size: the number of elements.

    Returns:
        An array.array, or a list for strings.

    Example:
        >>> tf.util.get_array_from_d_type("int32", 2), tf.util.get_array_from_d_type("string", 2)
        (array('i', [0, 0]), [None, None])
    """
    if dtype == "string":
        return [None] * size
    return array.array(_typecode(dtype, False), bytes(size * array.array(_typecode(dtype, False)).itemsize))


get_typed_array_from_d_type = get_array_from_d_type


def to_nested_array(shape: Sequence[int], a: Sequence[Any], is_complex: bool = False) -> Any:
    """Flat values as nested lists of a shape.

    Args:
        shape: the shape ([]: the first value alone).
        a: the flat values.
        is_complex: pairs of values per element (complex64's interleaved parts).

    Returns:
        Nested lists.

    Raises:
        ValueError: the number of values does not match the shape.

    Example:
        >>> tf.util.to_nested_array([2, 2], [1, 2, 3, 4])
        [[1, 2], [3, 4]]
    """
    if not shape:
        return a[0]
    size = size_of(shape) * (2 if is_complex else 1)
    if size == 0:
        return []
    if size != len(a):
        raise ValueError(f"[{_join(shape)}] does not match the input size {len(a)}"
                         f"{' for a complex tensor' if is_complex else ''}.")
    return _convert.nest(a, list(shape[:-1]) + [shape[-1] * (2 if is_complex else 1)])


def make_zeros_nested_typed_array(shape: Sequence[int], dtype: Optional[str] = None) -> Any:
    """Nested lists of zeros of a shape.

    Args:
        shape: the shape.
        dtype: 'float32' (None too), 'int32' or 'bool'.

    Returns:
        Nested lists.

    Example:
        >>> tf.util.make_zeros_nested_typed_array([2, 2])
        [[0.0, 0.0], [0.0, 0.0]]
    """
    if dtype not in (None, "float32", "int32", "bool"):
        raise TypeError(f"Unknown data type {dtype}")
    return to_nested_array(shape, make_zeros_typed_array(size_of(shape), dtype))


def to_typed_array(a: Any, dtype: Optional[str]) -> array.array:
    """Values as a typed array of a dtype: int32 truncates, bool is round(v) != 0, as TF.js's toTypedArray.

    Args:
        a: nested lists, or a typed array.
        dtype: 'float32' (None and complex64 too), 'int32' or 'bool'.

    Returns:
        An array.array.

    Raises:
        ValueError: dtype 'string'.

    Example:
        >>> tf.util.to_typed_array([[1.7], [2]], "int32")
        array('i', [1, 2])
    """
    if dtype == "string":
        raise ValueError("Cannot convert a string[] to a TypedArray")
    flat = flatten(a)
    dtype = "float32" if dtype in (None, "complex64") else dtype
    return array.array(_typecode(dtype, False), [_convert._coerce(v, dtype, "to_typed_array") for v in flat])


def create_scalar_value(value: Any, dtype: str) -> Union[array.array, bytes]:
    """One value as TF.js stores it: a typed array of one element, or encoded bytes for a string.

    Args:
        value: the value.
        dtype: its dtype.

    Returns:
        An array.array, or bytes.

    Example:
        >>> tf.util.create_scalar_value(3, "int32"), tf.util.create_scalar_value("a", "string")
        (array('i', [3]), b'a')
    """
    return encode_string(value) if dtype == "string" else to_typed_array([value], dtype)


def convert_backend_values_and_array_buffer(data: Any, dtype: str) -> Union[array.array, list]:
    """Data as the typed array of a dtype reads it: an ArrayBuffer's bytes are float32 or int32 values;
    for bool and string, int32 values narrowed to bytes. A list passes through.

    Args:
        data: bytes (an ArrayBuffer), an array.array or a list.
        dtype: the dtype.

    Returns:
        An array.array (or the list).

    Example:
        >>> tf.util.convert_backend_values_and_array_buffer(bytes(8), "int32")
        array('i', [0, 0])
    """
    if isinstance(data, list):
        return data
    if dtype in ("float32", "int32"):
        if isinstance(data, array.array) and data.typecode == TYPECODES[dtype]:
            return data
        return array.array(TYPECODES[dtype], bytes(data))
    if dtype in ("bool", "string"):
        return array.array("B", [v & 0xFF for v in array.array("i", bytes(data))])
    raise TypeError(f"Unknown dtype {dtype}")
