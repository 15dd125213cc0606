"""TF.js-style tensor printing: a port of tfjs-core's tensor_format.ts (TF.js 4.22).

'Tensor', then the values: rank 1 unpadded, higher ranks padded on the right per column
(of the last axis), more than 20 entries along an axis shown as the first and last 3,
a blank line between blocks per rank above 2. Numbers print as JavaScript prints
`parseFloat(v.toFixed(7))`.

Deliberate differences from TF.js 4.22, where its output is malformed or noisy:
- an axis holding a single row closes its bracket normally: [[1, 2]] (TF.js: ' [[1, 2],]');
- an empty axis above rank 1 prints as [] (TF.js: ' []');
- a scalar follows the same rule as other values: 0.1 (TF.js: 0.10000000149011612), and a
  string scalar is quoted like every string value: 'hi' (TF.js: hi).
"""
import math
from decimal import ROUND_HALF_UP, Context, Decimal

from .shapes import strides_of

_LIMIT = 20        # FORMAT_LIMIT_NUM_VALS
_EDGE = 3          # FORMAT_NUM_FIRST_LAST_VALS
_DIGITS = Decimal("1e-7")  # FORMAT_NUM_SIG_DIGITS = 7 (as toFixed's digits)
_CONTEXT = Context(prec=40)  # enough for 21 integer and 7 fraction digits


def js_number(x):
    """JavaScript's Number.prototype.toString for a float."""
    x = float(x)
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    if x == 0:
        return "0"  # -0 too
    r = repr(x)
    if "e" not in r:  # 1e-4 <= |x| < 1e16: Python and JavaScript write the same digits
        return r[:-2] if r.endswith(".0") else r
    sign = "-" if x < 0 else ""
    # repr() gives the shortest digits that round-trip, as ECMAScript's ToString does.
    tup = Decimal(repr(abs(x))).normalize().as_tuple()
    digits = "".join(map(str, tup.digits))
    k = len(digits)
    n = tup.exponent + k  # the value is 0.digits * 10**n
    if k <= n <= 21:
        s = digits + "0" * (n - k)
    elif 0 < n <= 21:
        s = digits[:n] + "." + digits[n:]
    elif -6 < n <= 0:
        s = "0." + "0" * -n + digits
    else:
        e = n - 1
        mantissa = digits[0] + ("." + digits[1:] if k > 1 else "")
        s = f"{mantissa}e{'+' if e >= 0 else '-'}{abs(e)}"
    return sign + s


def _to_fixed7(x):
    """parseFloat(x.toFixed(7)): rounds half away from zero on the exact value; |x| >= 1e21 unchanged."""
    if not math.isfinite(x) or abs(x) >= 1e21 or x == int(x):
        return x
    if (x * 256) % 1 or not (x * 128) % 1:
        # Not a tie at the 7th decimal (for a binary fraction that needs exactly 8 binary
        # places), so round() -- correctly rounded, half to even -- agrees with toFixed.
        return round(x, 7)
    return float(Decimal(x).quantize(_DIGITS, rounding=ROUND_HALF_UP, context=_CONTEXT))


def _val(v, dtype):
    if dtype == "string":
        return f"'{v}'"
    if dtype == "bool":
        return "false" if v == 0 else "true"
    if dtype == "complex64":   # a (re, im) pair, as TF.js writes it
        return f"{js_number(_to_fixed7(float(v[0])))} + {js_number(_to_fixed7(float(v[1])))}j"
    return js_number(_to_fixed7(float(v)))


def tensor_to_string(values, shape, dtype, verbose=False):
    """The text of Tensor.toString(verbose) in TF.js; values is the flat buffer."""
    shape = list(shape)
    strides = strides_of(shape)[:-1] if shape else []
    if dtype == "complex64":   # interleaved [re, im, ...] -> one (re, im) value per element
        values = list(zip(values[0::2], values[1::2]))
    if len(shape) == 1 and shape[0] > _LIMIT:
        # Only the first and last few are shown (and rank 1 is not padded): format just those.
        n = shape[0]
        strs = [""] * n
        for i in (*range(_EDGE), *range(n - _EDGE, n)):
            strs[i] = _val(values[i], dtype)
    else:
        strs = [_val(v, dtype) for v in values]
    lines = ["Tensor"]
    if verbose:
        lines += [f"  dtype: {dtype}", f"  rank: {len(shape)}",
                  "  shape: [" + ",".join(str(d) for d in shape) + "]", "  values:"]
    if not shape:
        lines.append("    " + strs[0])
    else:
        pad = _pad_per_column(strs, shape)
        lines.append("\n".join("    " + ln for ln in _sub(strs, shape, strides, pad, True)))
    return "\n".join(lines)


def _pad_per_column(strs, shape):
    if len(shape) < 2 or shape[-1] == 0:
        return []
    cols = shape[-1]
    pad = [0] * cols
    for i, s in enumerate(strs):
        j = i % cols
        if len(s) > pad[j]:
            pad[j] = len(s)
    return pad


def _padded(s, pad, i):
    width = pad[i] if i < len(pad) else 0
    return s + " " * (width - len(s)) if width > len(s) else s


def _sub(strs, shape, strides, pad, is_last):
    size = shape[0]
    rank = len(shape)
    if rank == 1:
        if size > _LIMIT:
            first = [_padded(s, pad, i) for i, s in enumerate(strs[:_EDGE])]
            last = [_padded(s, pad, size - _EDGE + i) for i, s in enumerate(strs[size - _EDGE:size])]
            return ["[" + ", ".join(first) + ", ..., " + ", ".join(last) + "]"]
        return ["[" + ", ".join(_padded(s, pad, i) for i, s in enumerate(strs[:size])) + "]"]

    sub_shape, sub_strides, stride = shape[1:], strides[1:], strides[0]
    lines = []

    def block(i):
        lines.extend(_sub(strs[i * stride:(i + 1) * stride], sub_shape, sub_strides, pad, i == size - 1))

    if size > _LIMIT:
        for i in range(_EDGE):
            block(i)
        lines.append("...")
        for i in range(size - _EDGE, size):
            block(i)
    else:
        for i in range(size):
            block(i)
    tail = "" if is_last else ",\n" + "\n" * (rank - 2)
    if len(lines) <= 1:
        return ["[" + "".join(lines) + "]" + tail]
    sep = "," if rank == 2 else ""
    lines[0] = "[" + lines[0] + sep
    for i in range(1, len(lines) - 1):
        lines[i] = " " + lines[i] + sep
    lines[-1] = " " + lines[-1] + "]" + tail
    return lines


# --- TensorFlow's repr (Tensor.__repr__): <tf.Tensor: shape=..., dtype=..., numpy=...> --------------

_REPR_THRESHOLD = 1000   # numpy's print threshold: larger tensors show the first and last 3 per axis


def repr_values(values, shape, dtype):
    """The `numpy=` part of a tensor's repr, as TensorFlow writes it: numpy's repr of the array
    (a scalar as its value alone), on a line of its own when it spans several. values is the
    tensor's ndarray, or, where numpy is not importable, its flat buffer: then nested lists with
    numpy's digits (the shortest that give the float32 back) and its summary of large tensors."""
    if hasattr(values, "ndim"):
        if values.ndim:
            text = repr(values)
        else:
            v = values[()]
            text = repr(v) if isinstance(v, str) else str(v)
    else:
        text = _nested_text(_repr_items(values, dtype), list(shape), len(values) > _REPR_THRESHOLD)
    return "\n" + text if "\n" in text else text


def _repr_items(flat, dtype):
    if dtype == "complex64":   # interleaved [re, im, ...]
        return [repr(complex(float(_float32_text(re)), float(_float32_text(im)))) for re, im in zip(flat[0::2], flat[1::2])]
    if dtype == "bool":
        return ["True" if v else "False" for v in flat]
    if dtype == "float32":
        return [_float32_text(v) for v in flat]
    return [repr(v) for v in flat]


def _float32_text(x):
    """The shortest decimal that reads back as the float32 x (numpy's repr of a float32)."""
    x = float(x)
    if not math.isfinite(x):
        return "nan" if math.isnan(x) else ("inf" if x > 0 else "-inf")
    for digits in range(1, 10):
        text = f"{x:.{digits}g}"
        if _round_f32(float(text)) == x:
            break
    return repr(float(text))


def _round_f32(v):
    import struct
    try:
        return struct.unpack("f", struct.pack("f", v))[0]
    except OverflowError:
        return math.copysign(math.inf, v)


def _nested_text(items, shape, summarize):
    if not shape:
        return items[0]

    def walk(start, axis):
        n = shape[axis]
        step = 1
        for d in shape[axis + 1:]:
            step *= d
        idx = list(range(n))
        if summarize and n > 2 * _EDGE:
            idx = [*range(_EDGE), None, *range(n - _EDGE, n)]
        parts = []
        for i in idx:
            if i is None:
                parts.append("...")
            elif axis == len(shape) - 1:
                parts.append(items[start + i])
            else:
                parts.append(walk(start + i * step, axis + 1))
        return "[" + ", ".join(parts) + "]"
    return walk(0, 0)
