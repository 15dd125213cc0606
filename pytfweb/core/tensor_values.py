"""Turning Python values into flat typed buffers, with or without numpy.

A flat buffer is an `array.array` (typecode from dtypes.TYPECODES) or, where numpy is
present and the input is already an ndarray, a contiguous 1-D ndarray. Backends accept both.
"""
import array
import math
import sys

from . import dtypes as _dt
from ._numpy import np
from .limits import flatten_nested, max_depth, nesting_error
from .shapes import size_of

if sys.platform == "emscripten":   # Pyodide: JS typed arrays are tensor values too
    try:
        from pyodide.ffi import JsTypedArray as _JsTypedArray
    except ImportError:
        _JsTypedArray = None
else:
    _JsTypedArray = None


def _is_sequence(v):
    return isinstance(v, (list, tuple))


def _is_scalar(v):
    return isinstance(v, (bool, int, float)) or (np is not None and isinstance(v, np.generic))


def _is_string(v):
    return isinstance(v, (str, bytes))  # numpy's str_ and bytes_ included


def infer_dtype(values, op="tensor", arg="values"):
    """The dtype TF.js infers for values (inferDtype): bool for booleans, string for strings, float32
    for other numbers (ints included); a numpy array's by its dtype, an array.array's float32 or int32
    (as TF.js types typed arrays).

    Args:
        values: a value, nested lists or an array.
        op: the op named in an error (a value with no tensor form).
        arg: the argument named in an error.

    Returns:
        The dtype name.

    Example:
        >>> tf.util.infer_dtype([1, 2]), tf.util.infer_dtype(True), tf.util.infer_dtype("a")
        ('float32', 'bool', 'string')
    """
    if np is not None and isinstance(values, (np.ndarray, np.generic)):
        if values.dtype.kind == "O" and values.size and _is_string(np.ravel(values)[0]):
            return "string"
        return _dt.from_numpy_dtype(values.dtype, op, arg)
    if isinstance(values, array.array):
        # As TF.js types typed arrays: Float32Array/Float64Array -> float32, every integer
        # array (Uint8Array included, which is what data_sync() gives for bool) -> int32.
        return {"f": "float32", "d": "float32"}.get(values.typecode, "int32")
    if isinstance(values, memoryview):
        return {"f": "float32", "d": "float32", "e": "float32", "?": "bool"}.get(values.format, "int32")
    v = values
    while _is_sequence(v):
        if not v:
            return "float32"
        v = v[0]
    if isinstance(v, bool) or (np is not None and isinstance(v, np.bool_)):
        return "bool"
    if _is_string(v):
        return "string"
    return "float32"


def infer_shape(values, op="tensor", arg="values"):
    """Shape of a nested list; ValueError naming op and argument on ragged input, or on nesting
    deeper than tf.env() flag MAX_NESTING_DEPTH (checked as the first elements are followed, so a
    list nested a million deep costs as many steps as the limit, and nothing recurses)."""
    shape = []
    v = values
    limit = max_depth()
    while _is_sequence(v):
        if len(shape) >= limit:
            raise nesting_error(op, arg)
        shape.append(len(v))
        if not v:
            break
        v = v[0]
    if shape:
        _check_regular(values, shape, f"{op}: argument '{arg}' is ragged")
    return tuple(shape)


def _check_regular(values, shape, what):
    """Every list at depth d has shape[d] elements, and the last level holds no lists; level by
    level, without recursion."""
    level = [values]
    last = len(shape) - 1
    for depth, n in enumerate(shape):
        below = []
        for v in level:
            if not _is_sequence(v) or len(v) != n:
                got = len(v) if _is_sequence(v) else "a scalar"
                raise ValueError(f"{what}: expected {n} elements at depth {depth} "
                                 f"(shape {list(shape)}), got {got}")
            if depth < last:
                below.extend(v)
            elif any(_is_sequence(x) for x in v):
                raise ValueError(f"{what}: element nesting deeper than shape {list(shape)}")
        level = below


def _flatten(values, out, op="tensor", arg="values"):
    """The leaves of nested lists and tuples, in order, appended to out (iteratively)."""
    return flatten_nested(values, out, _is_sequence, op, arg)


def _coerce(v, dtype, op, arg="values"):
    if not _is_scalar(v):
        raise TypeError(f"{op}: argument '{arg}' must hold numbers or booleans, got {type(v).__name__} ({v!r})")
    if dtype == "bool":   # TF.js toTypedArray: Math.round(v) !== 0 (NaN is true)
        return int(not math.floor(float(v) + 0.5) == 0) if math.isfinite(v) else 1
    if dtype == "int32":
        if isinstance(v, float) and not math.isfinite(v):
            return 0  # TF.js Int32Array conversion
        return _wrap_int32(int(v))
    return float(v)


def fill_value(v, dtype, op, arg="value"):
    """v as TF.js's typed-array fill() stores it (tf.fill, pad's constant): a bool tensor's byte
    is v truncated (0.5 is false), an int32 wraps as _coerce does."""
    if dtype == "bool" and _is_scalar(v) and not isinstance(v, bool):
        v = math.isfinite(v) and int(v) % 256 != 0
    return _coerce(v, dtype, op, arg)


def _wrap_int32(i):
    i &= 0xFFFFFFFF
    return i - 0x100000000 if i >= 0x80000000 else i


def to_flat(values, dtype, op="tensor", arg="values"):
    """A flat buffer of `dtype` holding values (flat list, nested list, scalar, array.array,
    memoryview, ndarray). Returns (buffer, element count)."""
    if dtype == "complex64":
        raise TypeError(f"{op}: cannot construct a complex64 tensor directly; use tf.complex(real, imag)")
    if dtype == "string":
        return _strings(values, op, arg)
    if np is not None and isinstance(values, (np.ndarray, np.generic)):
        # The buffer as it is (a view where it is contiguous), converted in one pass: no Python values.
        arr = np.ascontiguousarray(values).reshape(-1)
        if arr.dtype.kind == "O":   # Python objects: converted one by one, as a list's
            return to_flat(arr.tolist(), dtype, op, arg)
        if arr.dtype.kind not in "biuf":
            raise TypeError(f"{op}: argument '{arg}' is a numpy array of dtype {arr.dtype}, which has no "
                            f"{dtype} form (numbers and booleans only"
                            + ("; complex values: tf.complex(real, imag))" if arr.dtype.kind == "c" else ")"))
        if dtype == "int32" and arr.dtype.kind == "f":
            return int32_values(arr), arr.size
        if dtype == "bool" and arr.dtype.kind != "b":   # TF.js: Math.round(v) !== 0 (NaN is true)
            arr = np.floor(arr.astype(np.float64) + 0.5) != 0
        with np.errstate(over="ignore"):   # float64 beyond float32's range is inf, as in a Float32Array
            return arr.astype(_NP_DTYPES[dtype], copy=False), arr.size
    if isinstance(values, (memoryview, array.array)):
        if np is not None:   # numpy reads the buffer in place and converts it in one pass
            return to_flat(np.asarray(values), dtype, op, arg)
        # The buffer's bytes as they are where they already are the dtype's (not bool's: a
        # Uint8Array's 255 must become true, 1).
        tc = _dt.TYPECODES[dtype] if dtype != "bool" else None
        if isinstance(values, memoryview):
            values = values.cast("B").cast(values.format) if values.ndim != 1 else values
            if values.format == tc:
                out = array.array(tc)
                out.frombytes(values.cast("B"))
                return out, len(out)
            if dtype == "float32" and values.format in ("f", "d", "e"):
                return array.array("f", values), len(values)   # (C-level: overflow gives inf, as Float32Array)
        elif values.typecode == tc:
            return array.array(tc, values), len(values)
        values = values.tolist()
    if _is_sequence(values):
        flat = _flatten(values, [], op, arg)
    else:
        flat = [values]
    tc = _dt.TYPECODES[dtype]
    buf = array.array(tc, [_coerce(v, dtype, op, arg) for v in flat])
    return buf, len(buf)


def int32_values(v):
    """float values (an ndarray) as an Int32Array stores them (_coerce, vectorised): truncated toward
    zero, wrapped modulo 2^32, NaN and infinities 0. np.fmod is exact."""
    v = np.trunc(v.astype(np.float64))
    v[~np.isfinite(v)] = 0
    v = np.fmod(v, 4294967296.0)
    v[v < 0] += 4294967296.0
    v[v >= 2147483648.0] -= 4294967296.0
    return v.astype(np.int32)


_NP_DTYPES = {"float32": "float32", "int32": "int32", "bool": "bool", "string": object}


def _strings(values, op, arg):
    """The flat buffer of a string tensor: a list of str. bytes are decoded as UTF-8, bytes
    that are not UTF-8 kept as surrogate escapes (s.encode("utf-8", "surrogateescape") gives
    them back), so TF.js's Uint8Array values round-trip."""
    if np is not None and isinstance(values, (np.ndarray, np.generic)):
        values = np.ravel(values).tolist()
    flat = _flatten(values, [], op, arg) if _is_sequence(values) else [values]
    out = []
    for v in flat:
        if isinstance(v, str):
            out.append(str(v))
        elif isinstance(v, bytes):
            out.append(bytes(v).decode("utf-8", "surrogateescape"))
        else:
            raise TypeError(f"{op}: argument '{arg}': a string tensor holds str or bytes values, "
                            f"got {type(v).__name__} ({v!r})")
    return out, len(out)


def is_value(x):
    """Whether x is a kind of value tf.tensor takes (not a Tensor: tensor.py imports this module)."""
    return (isinstance(x, (bool, int, float, str, bytes, list, tuple, array.array, memoryview))
            or (np is not None and isinstance(x, (np.ndarray, np.generic)))
            or (_JsTypedArray is not None and isinstance(x, _JsTypedArray)))


def host_values(x):
    """x, with a JS typed array (Float32Array, Int32Array, Uint8Array, ...; Pyodide) as a memoryview
    of its values (one copy, out of the JS heap); anything else as it is."""
    if _JsTypedArray is not None and isinstance(x, _JsTypedArray):
        return x.to_memoryview()
    return x


def _is_buffer(x):
    return (isinstance(x, (array.array, memoryview)) or (np is not None and isinstance(x, np.ndarray))
            or (_JsTypedArray is not None and isinstance(x, _JsTypedArray)))


def nested_buffers_as_lists(values):
    """values with the buffers inside its lists (array.array, memoryview, ndarray, JS typed
    arrays, as TF.js nests typed arrays in arrays: [Float32Array, Float32Array, [7, 8]]) turned
    into lists; None when there are none. Buffers stand for numbers only (TF.js infers a nested
    Float32Array as float32, an Int32Array or Uint8Array as int32), and a flat one as a row.
    Lists nested deeper than MAX_NESTING_DEPTH give None too (the caller's nesting error stands)."""
    return _buffers_as_lists(values, max_depth())


def _buffers_as_lists(values, depth):
    if not _is_sequence(values) or depth < 0:
        return None
    found = False
    out = []
    for e in values:
        if _is_buffer(e):
            e = host_values(e)
            e = e.tolist()
            found = True
        elif _is_sequence(e):
            inner = _buffers_as_lists(e, depth - 1)
            if inner is not None:
                e, found = inner, True
        out.append(e)
    return out if found else None


def values_shape(values, op="tensor", arg="values"):
    """The shape implied by values (nested list, scalar, ndarray; flat buffers are 1-D)."""
    if np is not None and isinstance(values, (np.ndarray, np.generic)):
        return tuple(np.shape(values))
    if isinstance(values, memoryview):
        return tuple(values.shape)
    if isinstance(values, array.array):
        return (len(values),)
    if _is_sequence(values):
        return infer_shape(values, op, arg)
    if _is_scalar(values) or _is_string(values):
        return ()
    raise TypeError(f"{op}: argument '{arg}' must be a number, bool, nested list, array.array, memoryview "
                    f"or numpy array, got {type(values).__name__}")


def nest(flat, shape):
    """Flat sequence -> nested lists of `shape` (a scalar for rank 0)."""
    flat = list(flat)
    if not shape:
        return flat[0]
    if size_of(shape) == 0:
        return _empty_nest(shape)
    for d in reversed(shape[1:]):
        flat = [flat[i:i + d] for i in range(0, len(flat), d)]
    return flat


def _empty_nest(shape):
    """Nested empty lists for a shape of size 0: lists down to the first 0 (built level by level)."""
    root = []
    level = [root]
    for d in shape[:list(shape).index(0)] if 0 in shape else ():
        below = []
        for node in level:
            for _ in range(d):
                child = []
                node.append(child)
                below.append(child)
        level = below
    return root
