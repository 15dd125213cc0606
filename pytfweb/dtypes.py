"""Dtypes and TF.js's promotion rules, without numpy."""

DTYPES = ("float32", "int32", "bool")

# array.array typecodes used for flat host buffers: data_sync() returns these.
TYPECODES = {"float32": "f", "int32": "i", "bool": "B"}
BYTES_PER_ELEMENT = {"float32": 4, "int32": 4, "bool": 1}

# TF.js upcastType: bool < int32 < float32 (< complex64 later).
_RANK = {"bool": 0, "int32": 1, "float32": 2}

NUMERIC = ("float32", "int32")
ALL = DTYPES


def check_dtype(dtype, op="tensor", arg="dtype"):
    """Return dtype as a canonical name or raise a TypeError naming op and argument."""
    if dtype in _RANK:
        return dtype
    name = getattr(dtype, "name", None)  # numpy dtypes
    if name in _RANK:
        return name
    raise TypeError(
        f"{op}: argument '{arg}' must be one of {', '.join(DTYPES)}, got {dtype!r}")


def upcast(a, b):
    """TF.js upcastType."""
    return a if _RANK[a] >= _RANK[b] else b


def sum_out_type(dtype):
    """TF.js sumOutType: sums of bool count as int32."""
    return "int32" if dtype == "bool" else dtype


def bytes_for(size, dtype):
    return size * BYTES_PER_ELEMENT[dtype]


def from_numpy_dtype(np_dtype):
    """Map a numpy dtype onto ours the way TF.js maps typed arrays."""
    kind = np_dtype.kind
    if kind == "b":
        return "bool"
    if kind in "iu":
        return "int32"
    if kind == "f":
        return "float32"
    raise TypeError(f"tensor: numpy dtype {np_dtype} has no pytfweb dtype")
