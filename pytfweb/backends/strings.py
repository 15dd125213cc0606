"""TF.js's string kernels in pure Python, the same on every backend (numpy is not needed).

String tensors never live in textures: on webgl, as in TF.js's webgl backend, their values
stay CPU-side and these kernels run in Python there too. Each kernel reads its inputs with
`backend.read_sync` (a list of str for a string tensor, an array.array for numbers) and
writes its outputs with `backend.write`, the two things every backend offers.

Values are Python str. TF.js stores UTF-8 bytes; where its kernels work on bytes
(StringSplit, StringToHashBucketFast) these do too, on `s.encode("utf-8", "surrogateescape")`,
and bytes that are not valid UTF-8 come back as surrogate escapes, so nothing is lost.
"""
import array
import re

from ..kernels import STRING_KERNELS, TensorInfo, get_kernel, register_kernel

ENCODING, ERRORS = "utf-8", "surrogateescape"


def encode(s):
    return s.encode(ENCODING, ERRORS)


def decode(b):
    return bytes(b).decode(ENCODING, ERRORS)


def _out(backend, values, shape, dtype):
    shape = tuple(shape)
    return TensorInfo(backend.write(values, shape, dtype), shape, dtype)


def _ints(values):
    return array.array("i", values)


# --- StringNGrams -------------------------------------------------------------------------------
def _pad_width(pad_width, width):
    # Never wider than width - 1, and width - 1 when pad_width is negative (TF.js getPadWidth).
    return min(width - 1 if pad_width < 0 else pad_width, width - 1)


def _num_ngrams(length, width, pad_width):
    return max(0, length + 2 * _pad_width(pad_width, width) - width + 1)


def _ngrams(tokens, count, width, a):
    """`count` ngrams of `width` over tokens, padded as TF.js's createNGrams pads them."""
    pad = _pad_width(a["pad_width"], width)
    out = []
    for i in range(count):
        left = max(0, pad - i)
        right = max(0, pad - (count - (i + 1)))
        n_tokens = width - (left + right)
        start = 0 if left > 0 else i - pad
        parts = [a["left_pad"]] * left + tokens[start:start + n_tokens] + [a["right_pad"]] * right
        out.append(a["separator"].join(parts))
    return out


def string_n_grams_values(data, splits, attrs):
    """(ngrams, ngram splits) as TF.js's StringNGramsOp.compute, on lists."""
    size = len(data)
    if splits:
        if splits[0] != 0:
            raise ValueError(f"string_n_grams: the first split value must be 0, got {splits[0]}")
        for prev, s in zip(splits, splits[1:]):
            if not prev <= s <= size:
                raise ValueError(f"string_n_grams: invalid split value {s}, must be in [{prev}, {size}]")
        if splits[-1] != size:
            raise ValueError(f"string_n_grams: the last split value must be the data size {size}, got {splits[-1]}")
    if size == 0 or not splits:
        return [], [0] * len(splits)
    widths, pad_width = attrs["n_gram_widths"], attrs["pad_width"]
    ngrams, out_splits = [], [0]
    for lo, hi in zip(splits, splits[1:]):
        row, tokens = [], data[lo:hi]
        for w in widths:
            row += _ngrams(tokens, _num_ngrams(hi - lo, w, pad_width), w, attrs)
        if attrs["preserve_short_sequences"] and not row and tokens:
            # Too short for every width: one ngram of the whole (padded) sequence.
            row = _ngrams(tokens, 1, len(tokens) + 2 * pad_width, attrs)
        ngrams += row
        out_splits.append(out_splits[-1] + len(row))
    return ngrams, out_splits


def string_n_grams(backend, inputs, attrs):
    data, splits = inputs
    ngrams, out_splits = string_n_grams_values(list(backend.read_sync(data.data_id)),
                                               list(backend.read_sync(splits.data_id)), attrs)
    return [_out(backend, ngrams, (len(ngrams),), "string"),
            _out(backend, _ints(out_splits), splits.shape, "int32")]


# --- StringSplit ---------------------------------------------------------------------------------
def _split_bytes(b, delimiter, skip_empty):
    """TF.js's split(): every byte of the delimiter is a split point; an empty delimiter splits
    into single bytes; an empty input gives no tokens at all."""
    if not b:
        return []
    if not delimiter:
        return [b[i:i + 1] for i in range(len(b))]
    tokens = re.split(b"[" + re.escape(delimiter) + b"]", b)
    return [t for t in tokens if t] if skip_empty else tokens


def string_split_values(values, delimiter, skip_empty):
    """(indices as flat [row, column] pairs, tokens, [rows, widest row])."""
    delim = encode(delimiter)
    indices, tokens, widest = [], [], 0
    for row, s in enumerate(values):
        parts = _split_bytes(encode(s), delim, skip_empty)
        for col, part in enumerate(parts):
            indices += (row, col)
            tokens.append(decode(part))
        widest = max(widest, len(parts))
    return indices, tokens, [len(values), widest]


def string_split(backend, inputs, attrs):
    x, delimiter = inputs
    indices, tokens, shape = string_split_values(backend.read_sync(x.data_id), backend.read_sync(delimiter.data_id)[0],
                                                 attrs["skip_empty"])
    n = len(tokens)
    return [_out(backend, _ints(indices), (n, 2), "int32"), _out(backend, tokens, (n,), "string"),
            _out(backend, _ints(shape), (2,), "int32")]


# --- StringToHashBucketFast: TF.js's fingerPrint64 (farmhash's Fingerprint64, hash_util.ts) -------
_M64 = (1 << 64) - 1
_K0, _K1, _K2 = 0xc3a5c85c97cb3127, 0xb492b66fbe98f273, 0x9ae16a3b2f90404f
_KMUL = 0x9ddfea08eb382d69


def _fetch(s, i, n):
    return int.from_bytes(s[i:i + n], "little")


def _rot(v, shift):
    return v if shift == 0 else ((v >> shift) | (v << (64 - shift))) & _M64


def _shift_mix(v):
    return v ^ (v >> 47)


def _hash16(u, v, mul=_KMUL):
    a = ((u ^ v) * mul) & _M64
    a ^= a >> 47
    b = ((v ^ a) * mul) & _M64
    b ^= b >> 47
    return (b * mul) & _M64


def _weak32(s, i, a, b):
    w, x, y, z = (_fetch(s, i + 8 * k, 8) for k in range(4))
    a = (a + w) & _M64
    b = _rot((b + a + z) & _M64, 21)
    c = a
    a = (a + x + y) & _M64
    b = (b + _rot(a, 44)) & _M64
    return [(a + z) & _M64, (b + c) & _M64]


def _len0to16(s, n):
    if n >= 8:
        mul = _K2 + 2 * n
        a = (_fetch(s, 0, 8) + _K2) & _M64
        b = _fetch(s, n - 8, 8)
        c = (_rot(b, 37) * mul + a) & _M64
        d = ((_rot(a, 25) + b) * mul) & _M64
        return _hash16(c, d, mul)
    if n >= 4:
        return _hash16(((_fetch(s, 0, 4) << 3) + n) & _M64, _fetch(s, n - 4, 4), _K2 + 2 * n)
    if n > 0:
        y = s[0] + (s[n >> 1] << 8)
        z = n + (s[n - 1] << 2)
        return (_shift_mix(((_K2 * y) ^ (_K0 * z)) & _M64) * _K2) & _M64
    return _K2


def _len17to32(s, n):
    mul = _K2 + 2 * n
    a = (_fetch(s, 0, 8) * _K1) & _M64
    b = _fetch(s, 8, 8)
    c = (_fetch(s, n - 8, 8) * mul) & _M64
    d = (_fetch(s, n - 16, 8) * _K2) & _M64
    return _hash16((_rot((a + b) & _M64, 43) + _rot(c, 30) + d) & _M64,
                   (a + _rot((b + _K2) & _M64, 18) + c) & _M64, mul)


def _len33to64(s, n):
    mul = _K2 + 2 * n
    a = (_fetch(s, 0, 8) * _K2) & _M64
    b = _fetch(s, 8, 8)
    c = (_fetch(s, n - 8, 8) * mul) & _M64
    d = (_fetch(s, n - 16, 8) * _K2) & _M64
    y = (_rot((a + b) & _M64, 43) + _rot(c, 30) + d) & _M64
    z = _hash16(y, (a + _rot((b + _K2) & _M64, 18) + c) & _M64, mul)
    e = (_fetch(s, 16, 8) * mul) & _M64
    f = _fetch(s, 24, 8)
    g = ((y + _fetch(s, n - 32, 8)) * mul) & _M64
    h = ((z + _fetch(s, n - 24, 8)) * mul) & _M64
    return _hash16((_rot((e + f) & _M64, 43) + _rot(g, 30) + h) & _M64,
                   (e + _rot((f + a) & _M64, 18) + g) & _M64, mul)


def fingerprint64(s):
    """farmhash Fingerprint64 of bytes s, as an unsigned 64-bit int (TF.js util.fingerPrint64)."""
    n = len(s)
    if n <= 16:
        return _len0to16(s, n)
    if n <= 32:
        return _len17to32(s, n)
    if n <= 64:
        return _len33to64(s, n)
    seed = 81
    x = seed
    y = (seed * _K1 + 113) & _M64
    z = (_shift_mix((y * _K2 + 113) & _M64) * _K2) & _M64
    v, w = [0, 0], [0, 0]
    x = (x * _K2 + _fetch(s, 0, 8)) & _M64
    end = ((n - 1) >> 6) * 64
    last64 = end + ((n - 1) & 63) - 63
    offset = 0
    while True:
        x = (_rot((x + y + v[0] + _fetch(s, offset + 8, 8)) & _M64, 37) * _K1) & _M64
        y = (_rot((y + v[1] + _fetch(s, offset + 48, 8)) & _M64, 42) * _K1) & _M64
        x ^= w[1]
        y = (y + v[0] + _fetch(s, offset + 40, 8)) & _M64
        z = (_rot((z + w[0]) & _M64, 33) * _K1) & _M64
        v = _weak32(s, offset, (v[1] * _K1) & _M64, (x + w[0]) & _M64)
        w = _weak32(s, offset + 32, (z + w[1]) & _M64, (y + _fetch(s, offset + 16, 8)) & _M64)
        z, x = x, z
        offset += 64
        if offset == end:
            break
    mul = _K1 + ((z & 0xff) << 1)
    offset = last64
    w[0] = (w[0] + ((n - 1) & 63)) & _M64
    v[0] = (v[0] + w[0]) & _M64
    w[0] = (w[0] + v[0]) & _M64
    x = (_rot((x + y + v[0] + _fetch(s, offset + 8, 8)) & _M64, 37) * mul) & _M64
    y = (_rot((y + v[1] + _fetch(s, offset + 48, 8)) & _M64, 42) * mul) & _M64
    x ^= (w[1] * 9) & _M64
    y = (y + v[0] * 9 + _fetch(s, offset + 40, 8)) & _M64
    z = (_rot((z + w[0]) & _M64, 33) * mul) & _M64
    v = _weak32(s, offset, (v[1] * mul) & _M64, (x + w[0]) & _M64)
    w = _weak32(s, offset + 32, (z + w[1]) & _M64, (y + _fetch(s, offset + 16, 8)) & _M64)
    z, x = x, z
    return _hash16((_hash16(v[0], w[0], mul) + _shift_mix(y) * _K0 + z) & _M64,
                   (_hash16(v[1], w[1], mul) + x) & _M64, mul)


def _to_int32(v):
    v &= 0xFFFFFFFF
    return v - (1 << 32) if v >= (1 << 31) else v


def string_to_hash_bucket_fast(backend, inputs, attrs):
    (x,) = inputs
    buckets = attrs["num_buckets"]
    out = _ints(_to_int32(fingerprint64(encode(s)) % buckets) for s in backend.read_sync(x.data_id))
    return _out(backend, out, x.shape, "int32")


# --- StaticRegexReplace: JavaScript's String.prototype.replace(RegExp, string) --------------------
# The rewrite string's $ patterns, as JavaScript reads them: $$, $&, $`, $', $n / $nn, $<name>.
_REWRITE = re.compile(r"\$(\$|&|`|'|\d{1,2}|<[^>]*>)")


def _js_pattern(pattern):
    """A JS RegExp source as a Python pattern: the shared syntax is the same; JS spells a named
    group (?<name>...) where Python spells (?P<name>...)."""
    return re.sub(r"\(\?<(?![=!])", "(?P<", pattern)


def _js_rewriter(rewrite, regex):
    groups = regex.groups

    def expand(m):
        def one(t):
            tok = t.group(1)
            if tok == "$":
                return "$"
            if tok == "&":
                return m.group(0)
            if tok == "`":
                return m.string[:m.start()]
            if tok == "'":
                return m.string[m.end():]
            if tok[0] == "<":
                if not regex.groupindex:
                    return t.group(0)
                return m.group(tok[1:-1]) or "" if tok[1:-1] in regex.groupindex else ""
            # $nn refers to group nn when it exists, else $n and a literal digit (JS GetSubstitution).
            if len(tok) == 2 and 1 <= int(tok) <= groups:
                return m.group(int(tok)) or ""
            if 1 <= int(tok[0]) <= groups:
                return (m.group(int(tok[0])) or "") + tok[1:]
            return t.group(0)
        return _REWRITE.sub(one, rewrite)
    return expand


def static_regex_replace_values(values, pattern, rewrite, replace_global):
    try:
        regex = re.compile(_js_pattern(pattern))
    except re.error as exc:
        raise ValueError(f"static_regex_replace: argument 'pattern' is not a valid regular expression "
                         f"({pattern!r}: {exc})") from None
    repl = _js_rewriter(rewrite, regex)
    count = 0 if replace_global else 1
    return [regex.sub(repl, s, count=count) for s in values]


def static_regex_replace(backend, inputs, attrs):
    (x,) = inputs
    out = static_regex_replace_values(backend.read_sync(x.data_id), attrs["pattern"], attrs["rewrite"],
                                      attrs["replace_global"])
    return _out(backend, out, x.shape, "string")


KERNELS = {
    "StringNGrams": string_n_grams,
    "StringSplit": string_split,
    "StringToHashBucketFast": string_to_hash_bucket_fast,
    "StaticRegexReplace": static_regex_replace,
}

# Kernels besides these that take string inputs: they only move values (TF.js runs them on
# strings). On cpu they are the generic numpy kernels on object arrays; on webgl the
# data-sharing ones (Identity, Reshape, ExpandDims) share, Unique reads back, and the shaders
# move positions (on_positions).
MOVING_KERNELS = ("Identity", "Reshape", "ExpandDims", "Slice", "StridedSlice", "GatherV2", "Concat",
                  "Pack", "Unpack", "SplitV", "Tile", "Transpose", "Reverse", "GatherNd", "Unique")
STRING_KERNELS.update(KERNELS, MOVING_KERNELS)


def register(backend_name):
    """Register the string kernels for a backend (each backend's kernel package calls this)."""
    for name, fn in KERNELS.items():
        register_kernel(name, backend_name, fn)


def on_positions(fn):
    """A kernel that moves values (shaders on webgl and webgpu), run for string tensors on
    positions: each string input becomes an int32 tensor numbering its values (across all
    inputs), the kernel moves those numbers as it moves any numbers, and the outputs are looked up
    in the strings again. (TF.js's webgl backend runs these kernels for strings on the CPU.)"""
    def kernel(backend, inputs, attrs):
        if not any(t.dtype == "string" for t in inputs):
            return fn(backend, inputs, attrs)
        pool, moved, temps = [], [], []
        for t in inputs:
            if t.dtype == "string":
                values = backend.read_sync(t.data_id)
                t = _out(backend, _ints(range(len(pool), len(pool) + len(values))), t.shape, "int32")
                pool.extend(values)
                temps.append(t)
            moved.append(t)
        try:
            outs = fn(backend, moved, attrs)
            single = isinstance(outs, TensorInfo)
            outs = [outs] if single else outs
            temps += outs
            # (read_sync of a GPU result: webgpu raises where Python cannot wait; temps are freed)
            result = [_out(backend, [pool[int(i)] for i in backend.read_sync(o.data_id)], o.shape, "string")
                      for o in outs]
        finally:
            for data_id in {t.data_id for t in temps}:
                backend.dispose_data(data_id)
        return result[0] if single else result
    return kernel


def register_moving(backend_name):
    """The moving kernels of a GPU backend, wrapped to take strings (on_positions); the
    data-sharing ones and Unique (run on the host) take them as they are."""
    for name in MOVING_KERNELS:
        if name not in ("Identity", "Reshape", "ExpandDims", "Unique") and get_kernel(name, backend_name) is not None:
            register_kernel(name, backend_name, on_positions(get_kernel(name, backend_name)))
