"""Dtypes and TF.js's promotion rules, without numpy."""

DTYPES = ("float32", "int32", "bool", "complex64", "string")

# string: values are Python str kept on the host (a list; never in a texture). It has no typecode
# and no fixed size (tf.memory() counts its UTF-8 bytes, as TF.js), and mixes with no other dtype.
STRING = "string"

# array.array typecodes used for flat host buffers: data_sync() returns these.
# complex64 reads back as interleaved float32 [re, im, re, im, ...], as TF.js's dataSync.
TYPECODES = {"float32": "f", "int32": "i", "bool": "B", "complex64": "f"}
BYTES_PER_ELEMENT = {"float32": 4, "int32": 4, "bool": 1, "complex64": 8}

# TF.js upcastType: bool < int32 < float32 < complex64.
_RANK = {"bool": 0, "int32": 1, "float32": 2, "complex64": 3}

NUMERIC = ("float32", "int32")
ALL = DTYPES


def check_dtype(dtype, op="tensor", arg="dtype"):
    """Return dtype as a canonical name or raise a TypeError naming op and argument."""
    if isinstance(dtype, str) and (dtype in _RANK or dtype == STRING):   # (a list or dict is unhashable)
        return dtype
    name = getattr(dtype, "name", None)  # numpy dtypes
    if name in _RANK:
        return name
    raise TypeError(
        f"{op}: argument '{arg}' must be one of {', '.join(DTYPES)}, got {dtype!r}")


def upcast(a: str, b: str) -> str:
    """The dtype two dtypes combine to (TF.js's upcastType): bool < int32 < float32 < complex64.

    Args:
        a: a dtype.
        b: another dtype.

    Returns:
        The wider dtype (strings combine only with strings).

    Example:
        >>> tf.upcast_type("int32", "float32")
        'float32'
    """
    if a == STRING or b == STRING:
        if a == b:
            return a
        raise TypeError(f"Can not upcast {a} with {b}: string tensors mix with no other dtype")
    return a if _RANK[a] >= _RANK[b] else b


def sum_out_type(dtype: str) -> str:
    """The dtype of a sum (TF.js's sumOutType): upcast_type(dtype, 'int32'); sums of bool count as
    int32, and a string dtype raises, as there.

    Args:
        dtype: the input's dtype.

    Returns:
        The sum's dtype.

    Example:
        >>> tf.sum_out_type("bool")
        'int32'
    """
    return upcast(dtype, "int32")


def bytes_for(size, dtype):
    return size * BYTES_PER_ELEMENT[dtype]


def string_bytes(values):
    """The bytes of string data as TF.js counts them (bytesFromStringArray): the sum of the
    values' UTF-8 lengths (bytes that were not UTF-8 are surrogate escapes: one byte each)."""
    return sum(len(s.encode("utf-8", "surrogateescape")) for s in values)


def from_numpy_dtype(np_dtype, op="tensor", arg="values"):
    """Map a numpy dtype onto ours the way TF.js maps typed arrays (a TypeError naming op and arg
    for one with no counterpart)."""
    kind = np_dtype.kind
    if kind == "b":
        return "bool"
    if kind in "iu":
        return "int32"
    if kind == "f":
        return "float32"
    if kind in "US":
        return STRING
    hint = "; complex values: tf.complex(real, imag)" if kind == "c" else ""
    raise TypeError(f"{op}: argument '{arg}' is a numpy array of dtype {np_dtype}, which has no pytfweb dtype "
                    f"(float32, int32, bool or string){hint}")
