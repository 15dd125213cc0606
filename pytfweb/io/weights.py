"""Weight bytes as TF.js lays them out: encode/decode, quantization, shards and manifests.

A weights file is the weights' values back to back, in the order of their specs, little-endian:
float32/int32 as 4 bytes, bool as 1, complex64 as interleaved float32 pairs, string as a uint32 byte
length then the UTF-8 bytes per value. A quantized float32 weight is stored as uint8 or uint16 with
value = q * scale + min (the tfjs converter's affine scheme, with min nudged so 0 is exact) or as
float16. This module works without numpy (array.array / struct) and uses numpy when present.
"""
import array
import collections
import math
import struct
import sys
from typing import Any, Dict, List, Optional

from ..core import dtypes as _dt
from ..core._numpy import np
from ..core.api import dispose, make_tensor
from ..ops.spectral import complex as _complex
from ..core.environment import ENV, IS_BROWSER
from ..core.limits import check_elements, max_elements
from ..core.shapes import size_of
from ..core.tensor import Tensor

DEFAULT_SHARD_BYTES = 4 * 1024 * 1024
QUANTIZATION_DTYPES = ("uint8", "uint16", "float16")
_WEIGHT_DTYPES = ("float32", "int32", "bool", "string", "complex64")
_BYTES = {"float32": 4, "int32": 4, "bool": 1, "complex64": 8, "uint8": 1, "uint16": 2, "float16": 2}
_LITTLE = sys.byteorder == "little"


def _where(source):
    return f" in {source}" if source else ""


# --- encoding -----------------------------------------------------------------------------------
EncodedWeights = collections.namedtuple("EncodedWeights", "data specs")
EncodedWeights.__doc__ = "What encode_weights returns: TF.js's {data, specs}, also a (data, specs) pair."


def encode_weights(tensors: Any, group: Optional[str] = None, quantization: Optional[str] = None) -> EncodedWeights:
    """Encode tensors as TF.js's weight bytes and specs.

    Args:
        tensors: a dict name -> Tensor, or a list of (name, Tensor) pairs or of {"name", "tensor"}
            dicts (TF.js's NamedTensor).
        group: the group name recorded in each spec (None: none).
        quantization: None, 'uint8', 'uint16' or 'float16': applies to float32 weights; other dtypes
            are stored as they are.

    Returns:
        EncodedWeights(data: bytes, specs).

    Example:
        >>> encoded = tf.io.encode_weights({"w": tf.tensor([1, 2])})
        >>> encoded.specs, len(encoded.data)
        ([{'name': 'w', 'shape': [2], 'dtype': 'float32'}], 8)
    """
    if quantization is not None and quantization not in QUANTIZATION_DTYPES:
        raise ValueError(f"encode_weights: argument 'quantization' must be one of {QUANTIZATION_DTYPES} or None, "
                         f"got {quantization!r}")
    pairs = _named_pairs(tensors)
    chunks, specs = [], []
    for name, t in pairs:
        if t.dtype not in _WEIGHT_DTYPES:
            raise TypeError(f"encode_weights: unsupported dtype in weight '{name}': {t.dtype}")
        spec = {"name": name, "shape": list(t.shape), "dtype": t.dtype}
        if t.dtype == "string":
            chunks.append(_encode_strings(t.data_sync()))
        elif quantization is not None and t.dtype == "float32":
            data, spec["quantization"] = _quantize(t.data_sync(), quantization)
            chunks.append(data)
        else:
            chunks.append(_to_bytes(t.data_sync(), t.dtype))
        if group is not None:
            spec["group"] = group
        specs.append(spec)
    return EncodedWeights(b"".join(chunks), specs)


def _named_pairs(tensors):
    if isinstance(tensors, dict):
        pairs = list(tensors.items())
    else:
        pairs = [(t["name"], t["tensor"]) if isinstance(t, dict) else tuple(t) for t in tensors]
    for name, t in pairs:
        if not isinstance(name, str) or not isinstance(t, Tensor):
            raise TypeError(f"encode_weights: expected (name, Tensor) pairs, got ({name!r}, {type(t).__name__})")
    return pairs


def _to_bytes(flat, dtype):
    if np is not None and isinstance(flat, np.ndarray):
        return flat.astype({"float32": "<f4", "complex64": "<f4", "int32": "<i4", "bool": "u1"}[dtype]).tobytes()
    buf = array.array(_dt.TYPECODES[dtype], flat)
    if not _LITTLE and buf.itemsize > 1:
        buf.byteswap()
    return buf.tobytes()


def _encode_strings(values):
    out = []
    for v in values:
        b = v if isinstance(v, (bytes, bytearray)) else str(v).encode("utf-8", "surrogateescape")
        out.append(struct.pack("<I", len(b)))
        out.append(bytes(b))
    return b"".join(out)


def affine_range(lo, hi, bits):
    """(scale, nudged_min) of the converter's affine uint quantization: the range [lo, hi] widened
    to hold 0, and min nudged so that 0 maps to an integer exactly."""
    qmax = (1 << bits) - 1
    lo, hi = min(lo, 0.0), max(hi, 0.0)
    if hi == lo:
        return 1.0, lo
    scale = (hi - lo) / qmax
    zero = min(qmax, max(0, round(-lo / scale)))
    return scale, -zero * scale


def _quantize(flat, qdtype):
    if np is not None:
        return _quantize_np(np.asarray(flat, dtype="float32"), qdtype)
    values = list(flat)
    if qdtype == "float16":
        return struct.pack(f"<{len(values)}e", *[_f16_clamped(v) for v in values]), {"dtype": "float16"}
    if not all(math.isfinite(v) for v in values):
        raise ValueError(f"encode_weights: cannot quantize a weight holding NaN or infinity to {qdtype}")
    bits = 8 if qdtype == "uint8" else 16
    scale, qmin = affine_range(min(values, default=0.0), max(values, default=0.0), bits)
    qmax = (1 << bits) - 1
    q = [min(qmax, max(0, round((v - qmin) / scale))) for v in values]
    data = bytes(q) if bits == 8 else struct.pack(f"<{len(q)}H", *q)
    return data, {"dtype": qdtype, "scale": scale, "min": qmin}


def _quantize_np(values, qdtype):
    if qdtype == "float16":
        with np.errstate(over="ignore"):   # beyond float16's range is infinity, as struct's 'e' rounds it
            return values.astype("<f2").tobytes(), {"dtype": "float16"}
    if not np.isfinite(values).all():
        raise ValueError(f"encode_weights: cannot quantize a weight holding NaN or infinity to {qdtype}")
    bits = 8 if qdtype == "uint8" else 16
    lo, hi = (float(values.min()), float(values.max())) if values.size else (0.0, 0.0)
    scale, qmin = affine_range(lo, hi, bits)
    q = np.clip(np.round((values.astype("float64") - qmin) / scale), 0, (1 << bits) - 1)
    return q.astype("u1" if bits == 8 else "<u2").tobytes(), {"dtype": qdtype, "scale": scale, "min": qmin}


def _f16_clamped(v):
    if math.isfinite(v) and abs(v) > 65504.0:
        return math.copysign(math.inf, v)
    return v


# --- decoding -----------------------------------------------------------------------------------
def decode_weights(data: Any, specs: List[dict], source: Optional[str] = None) -> Dict[str, Tensor]:
    """Tensors from the bytes of weights laid out by specs (dequantizing quantized ones).

    Args:
        data: the bytes.
        specs: the weight specs, in the order of the bytes.
        source: where the bytes came from, for error messages.

    Returns:
        {name: Tensor}.

    Raises:
        ValueError: a spec is malformed or the bytes are too few or too many (naming source and the
            weight; no tensor is left behind).

    Example:
        >>> encoded = tf.io.encode_weights({"w": tf.tensor([1, 2])})
        >>> tf.io.decode_weights(encoded.data, encoded.specs)["w"].print()
        Tensor
            [1, 2]
    """
    return _decode_weights(data, specs, source, None)


def _decode_weights(data, specs, source, ready):
    """decode_weights, taking the page's quantized weights from ready where they were dequantized
    as the bytes arrived (stream_dequantize), else dequantizing them now."""
    data = memoryview(bytes(data) if not isinstance(data, (bytes, bytearray, memoryview)) else data).cast("B")
    # Every spec and byte range is checked before the first tensor is made, so a bad manifest
    # leaves nothing behind; the page then dequantizes all quantized weights in one JS call.
    limit = max_elements()
    checked = ready.checked_for(specs) if ready is not None else None
    entries, names, offset = [], set(), 0
    for i, spec in enumerate(specs):
        name, shape, dtype, quant, size = checked[i] if checked is not None else _check_spec(spec, i, source, limit)
        if name in names:
            raise ValueError(f"decode_weights: weight '{name}'{_where(source)} appears twice in the manifest")
        names.add(name)
        if dtype == "string":
            values, offset = _decode_strings(data, offset, size, name, source)
            entries.append((name, tuple(shape), dtype, None, values, 0))
            continue
        nbytes = size * _BYTES[quant["dtype"] if quant else dtype]
        if offset + nbytes > len(data):
            raise ValueError(f"decode_weights: weight '{name}'{_where(source)} needs bytes {offset}..{offset + nbytes} "
                             f"but the weight data has {len(data)} bytes (truncated file, or a manifest whose "
                             f"shapes disagree with the data)")
        entries.append((name, tuple(shape), dtype, quant, data[offset:offset + nbytes], offset))
        offset += nbytes
    if offset != len(data):
        raise ValueError(f"decode_weights: the weight data{_where(source)} has {len(data)} bytes but the manifest's "
                         f"{len(specs)} weights take {offset}: the manifest and the data disagree")
    dequantized = _dequantize_js(data, entries, ready) if np is None and IS_BROWSER else {}
    out = {}
    try:
        for name, shape, dtype, quant, chunk, _ in entries:
            if dtype == "string":
                out[name] = make_tensor(chunk, shape, "string")
            elif name in dequantized:
                out[name] = make_tensor(dequantized[name], shape, dtype)
            else:
                out[name] = _decode_one(chunk, shape, dtype, quant, name)
    except BaseException:
        dispose(list(out.values()))
        raise
    return out


def _check_spec(spec, i, source, limit=None):
    """(name, shape, dtype, quantization or None, number of values) of a weight spec, or the
    ValueError naming it. limit: MAX_TENSOR_ELEMENTS (read once by a caller checking many specs)."""
    if not isinstance(spec, dict) or "name" not in spec or "shape" not in spec or "dtype" not in spec:
        raise ValueError(f"decode_weights: weight spec {i}{_where(source)} must be an object with name, shape and "
                         f"dtype, got {spec!r}")
    name, shape, dtype = spec["name"], spec["shape"], spec["dtype"]
    if not isinstance(name, str):
        raise ValueError(f"decode_weights: weight spec {i}{_where(source)} has a name that is not a string: {name!r}")
    if limit is None:
        limit = max_elements()
    # one pass over the dims: each a non-negative int (not a bool), their product within the limit
    size = 1
    if isinstance(shape, (list, tuple)) and len(shape) <= 64:
        for d in shape:
            if (d.__class__ is not int and (not isinstance(d, int) or isinstance(d, bool))) or d < 0:
                size = -1
                break
            if size <= limit:   # past it the size is refused anyway; huge dims stay cheap
                size *= d
    else:
        size = -1
    if size < 0:
        raise ValueError(f"decode_weights: weight '{name}'{_where(source)} has an invalid shape {_short(shape)}")
    if size > limit:
        check_elements(shape, f"decode_weights: weight '{name}'{_where(source)}")
    if dtype not in _WEIGHT_DTYPES:
        raise ValueError(f"decode_weights: weight '{name}'{_where(source)} has unsupported dtype {dtype!r} "
                         f"(expected one of {_WEIGHT_DTYPES})")
    quant = spec.get("quantization")
    if quant is not None:
        qd = quant.get("dtype") if isinstance(quant, dict) else None
        if qd not in QUANTIZATION_DTYPES:
            raise ValueError(f"decode_weights: weight '{name}'{_where(source)} has unknown quantization dtype {qd!r}; "
                             f"supported: {QUANTIZATION_DTYPES}")
        if qd != "float16" and not (_finite_number(quant.get("scale")) and _finite_number(quant.get("min"))):
            raise ValueError(f"decode_weights: weight '{name}'{_where(source)} is quantized to {qd} but its 'scale' and "
                             f"'min' are not both finite numbers: {_short(quant)}")
        if (qd == "float16" and dtype != "float32") or dtype not in ("float32", "int32"):
            raise ValueError(f"decode_weights: weight '{name}'{_where(source)} of dtype {dtype} cannot be quantized "
                             f"as {qd}")
    return name, shape, dtype, quant, size


def _finite_number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def _short(value, n=80):
    text = repr(value)
    return text if len(text) <= n else text[:n] + "..."


def _decode_strings(data, offset, size, name, source):
    values = []
    for _ in range(size):
        if offset + 4 > len(data):
            raise ValueError(f"decode_weights: string weight '{name}'{_where(source)} runs past the end of the data")
        (n,) = struct.unpack_from("<I", data, offset)
        offset += 4
        if offset + n > len(data):
            raise ValueError(f"decode_weights: string weight '{name}'{_where(source)} runs past the end of the data")
        values.append(bytes(data[offset:offset + n]).decode("utf-8", "surrogateescape"))
        offset += n
    return values, offset


def _decode_one(chunk, shape, dtype, quant, name):
    shape = tuple(shape)
    if quant is None:
        if dtype == "complex64":
            flat = _host(chunk, "float32")
            re, im = make_tensor(flat[0::2], shape, "float32"), make_tensor(flat[1::2], shape, "float32")
            try:
                return _complex(re, im)
            finally:
                dispose([re, im])
        return make_tensor(_host(chunk, dtype), shape, dtype)
    qd = quant["dtype"]
    if qd == "float16":
        if np is not None:
            flat = np.frombuffer(chunk, dtype="<f2").astype("float32")
        else:
            flat = array.array("f", struct.unpack(f"<{len(chunk) // 2}e", chunk))
        return make_tensor(flat, shape, "float32")
    scale, qmin = float(quant["scale"]), float(quant["min"])
    if np is not None:
        q = np.frombuffer(chunk, dtype="u1" if qd == "uint8" else "<u2").astype("float64")
        v = q * scale + qmin
        flat = np.floor(v + 0.5).astype("int32") if dtype == "int32" else v.astype("float32")
    elif qd == "uint8":
        flat = _dequantize_bytes(chunk, scale, qmin, dtype)
    else:
        q = struct.unpack(f"<{len(chunk) // 2}H", chunk)
        if dtype == "int32":
            flat = array.array("i", [math.floor(x * scale + qmin + 0.5) for x in q])
        else:
            flat = array.array("f", [x * scale + qmin for x in q])
    return make_tensor(flat, shape, dtype)


def _dequantize_bytes(chunk, scale, qmin, dtype):
    """uint8-quantized weights decoded without numpy and without a Python step per value: the 256
    possible results are computed once, and each of their 4 bytes is put in place for every value by
    bytes.translate (C speed), interleaved by a strided bytearray assignment."""
    code = _dt.TYPECODES[dtype]
    if dtype == "int32":
        results = array.array(code, [math.floor(q * scale + qmin + 0.5) for q in range(256)])
    else:
        results = array.array(code, [q * scale + qmin for q in range(256)])
    packed = results.tobytes()
    size = results.itemsize
    chunk = bytes(chunk)
    out = bytearray(size * len(chunk))
    for k in range(size):
        out[k::size] = chunk.translate(packed[k::size])
    flat = array.array(code)
    flat.frombytes(out)
    return flat


# The page's dequantization: every quantized weight of a decode in one call of the browser's
# JavaScript, reading the weight bytes and writing each result straight into the array.array its
# tensor will hold, where a Python loop or a call a weight would cost ~1 ms a weight (movenet's 149
# float16 weights), and a shared output buffer copied out per weight would move every value twice.
# Pyodide's Python objects all live in the one WebAssembly memory, so an array's buffer_info()
# address is its offset in that memory's ArrayBuffer (reached through the source's getBuffer); no
# Python runs during the call, so nothing moves. meta: 6 float64 a weight (kind, source offset,
# values, output address, scale, min); kinds: _KINDS. Results are the numpy path's: v = q * scale +
# min in doubles, rounded to float32, floor(v + 0.5) for int32; float16 bits exactly (Float16Array
# where the browser has it and the bytes are aligned). Kind 5 copies float32 and int32 weights as they
# are (a StreamPlan's: straight from the arriving bytes into their arrays).
_KINDS = {("float16", "float32"): 0, ("uint8", "float32"): 1, ("uint16", "float32"): 2,
          ("uint8", "int32"): 3, ("uint16", "int32"): 4, (None, "float32"): 5, (None, "int32"): 5}
_DEQUANTIZE_JS = """(() => {
  // one loop a kind, each over arrays of one type (a loop storing to Float32Array and Int32Array
  // alike runs several times slower); uint8 through a table of its 256 results
  function half(b, so, out, n) {
    const bits = new Uint32Array(out.buffer, out.byteOffset, n);
    for (let i = 0, j = so; i < n; i++, j += 2) {
      const x = b[j] | (b[j + 1] << 8), sign = (x & 0x8000) << 16, exp = (x >> 10) & 0x1f, man = x & 0x3ff;
      if (exp === 0) out[i] = (sign ? -man : man) * 5.960464477539063e-8;   // zero, subnormal: man * 2^-24
      else bits[i] = (sign | (exp === 31 ? 0x7f800000 : (exp + 112) << 23) | (man << 13)) >>> 0;
    }
  }
  function byTable(b, so, out, table, n) {
    for (let i = 0; i < n; i++) out[i] = table[b[so + i]];
  }
  function u16f(b, so, out, n, scale, min) {
    for (let i = 0, j = so; i < n; i++, j += 2) out[i] = (b[j] | (b[j + 1] << 8)) * scale + min;
  }
  function u16i(b, so, out, n, scale, min) {
    for (let i = 0, j = so; i < n; i++, j += 2) out[i] = Math.floor((b[j] | (b[j + 1] << 8)) * scale + min + 0.5);
  }
  const F16 = typeof Float16Array === 'function' ? Float16Array : null;
  // the weights first..end-1 of meta (all by default)
  return (src, meta, first = 0, end = Infinity) => {
    const s = src.getBuffer('u8'), m = meta.getBuffer('f64');
    try {
      const b = s.data, mm = m.data, heap = b.buffer;   // heap: the whole WebAssembly memory
      const f8 = new Float32Array(256), i8 = new Int32Array(256);
      let whole = null;
      for (let k = 6 * first; k < Math.min(mm.length, 6 * end); k += 6) {
        const kind = mm[k], so = mm[k + 1], n = mm[k + 2], at = mm[k + 3], scale = mm[k + 4], min = mm[k + 5];
        if (n === 0) continue;
        if (kind === 0) {
          const out = new Float32Array(heap, at, n);
          if (F16 && (b.byteOffset + so) % 2 === 0) out.set(new F16(b.buffer, b.byteOffset + so, n));
          else half(b, so, out, n);
        } else if (kind === 1) {
          for (let q = 0; q < 256; q++) f8[q] = q * scale + min;
          byTable(b, so, new Float32Array(heap, at, n), f8, n);
        } else if (kind === 3) {
          for (let q = 0; q < 256; q++) i8[q] = Math.floor(q * scale + min + 0.5);
          byTable(b, so, new Int32Array(heap, at, n), i8, n);
        } else if (kind === 5) {   // as they are; copyWithin: set() between views of one buffer ran 3x slower
          (whole || (whole = new Uint8Array(heap))).copyWithin(at, b.byteOffset + so, b.byteOffset + so + 4 * n);
        } else if (kind === 2) u16f(b, so, new Float32Array(heap, at, n), n, scale, min);
        else u16i(b, so, new Int32Array(heap, at, n), n, scale, min);
      }
    } finally {
      s.release(); m.release();
    }
  };
})()"""
_DEQUANTIZE_FN = []
_ZERO = {"f": array.array("f", [0.0]), "i": array.array("i", [0])}


def _dequantize_js(data, entries, ready=None):
    """{name: array.array} for the quantized weights of decode_weights' entries, dequantized in one
    JS call (the page without numpy only). data: a memoryview of the weight bytes. ready: a
    StreamPlan whose weights were dequantized as these bytes arrived: each weight it holds under the
    same name, offset, size and quantization is taken from it (once), not dequantized again."""
    meta, result = array.array("d"), {}
    taken = ready.take() if ready is not None else {}
    for name, _, dtype, quant, chunk, at in entries:
        if quant is None and not taken:
            continue
        if (quant["dtype"] if quant else None, dtype) not in _KINDS:
            continue
        row = _meta_row(dtype, quant, at, len(chunk) // _BYTES[quant["dtype"] if quant else dtype])
        flat = taken.get((name,) + row)
        if flat is not None:
            result[name] = flat
            continue
        if quant is None:   # (not in the plan: decoded as usual)
            continue
        flat = _ZERO[_dt.TYPECODES[dtype]] * row[2]   # one allocation, no copy (the call fills it)
        meta.extend((row[0], at, row[2], flat.buffer_info()[0], row[3], row[4]))
        result[name] = flat
    if meta:
        dequantize_fn()(data, meta)
    return result


def _meta_row(dtype, quant, at, n):
    qd = quant["dtype"] if quant else None
    scale, qmin = (1.0, 0.0) if qd in ("float16", None) else (float(quant["scale"]), float(quant["min"]))
    return (_KINDS[qd, dtype], at, n, scale, qmin)


def dequantize_fn():
    """The page's dequantization kernel, a JS function (src, meta, first, end): see _DEQUANTIZE_JS."""
    if not _DEQUANTIZE_FN:
        import js   # the page only
        _DEQUANTIZE_FN.append(js.Function.new("return " + _DEQUANTIZE_JS)())
    return _DEQUANTIZE_FN[0]


class StreamPlan:
    """The weights of one weight file, to be put in their arrays by the page as its bytes arrive
    (tf.load_graph_model over http://, where TF.js decodes after the download): quantized ones
    dequantized, float32 and int32 ones copied. meta rows in byte order (kind, offset, values,
    output address, scale, min), ends[k] the byte where weight k ends, and the output arrays. take()
    hands them to _dequantize_js once, and only when the download filled them all (done). The specs'
    checks are kept for decode_weights (checked_for); checked: those of manifest_groups, where it
    made them (WeightGroup.checked), else they are made here."""

    def __init__(self, specs, checked=None):
        self.meta, self.ends, self._arrays, self.done = array.array("d"), array.array("d"), {}, False
        self._specs = list(specs)
        if checked is None:
            limit = max_elements()
            checked = [_check_spec(spec, i, None, limit) for i, spec in enumerate(self._specs)]
        self._checked = list(checked)
        offset = 0
        for name, shape, dtype, quant, size in self._checked:
            if dtype == "string":
                raise ValueError("string weights have no fixed offsets")
            nbytes = size * _BYTES[quant["dtype"] if quant else dtype]
            if size and (quant["dtype"] if quant else None, dtype) in _KINDS:
                row = _meta_row(dtype, quant, offset, size)
                flat = _ZERO[_dt.TYPECODES[dtype]] * size
                self.meta.extend((row[0], offset, size, flat.buffer_info()[0], row[3], row[4]))
                self.ends.append(offset + nbytes)
                self._arrays[(name,) + row] = flat
            offset += nbytes
        self.nbytes = offset

    def take(self):
        arrays, self._arrays = (self._arrays if self.done else {}), {}
        return arrays

    def checked_for(self, specs):
        """_check_spec's results for specs when they are the very specs planned, else None."""
        if len(specs) != len(self._specs) or any(a is not b for a, b in zip(specs, self._specs)):
            return None
        return self._checked


def stream_plan(specs, checked=None):
    """A StreamPlan for the specs of one weight file (checked: their _check_spec results, when
    made already), or None where it cannot know the offsets (a string weight) or the page has numpy."""
    if np is not None or not IS_BROWSER:
        return None
    try:
        return StreamPlan(specs, checked)
    except (ValueError, TypeError, KeyError):
        return None


def _host(chunk, dtype):
    """A flat host buffer of dtype over little-endian bytes."""
    if np is not None:
        return np.frombuffer(chunk, dtype={"float32": "<f4", "int32": "<i4", "bool": "u1"}[dtype]).astype(
            _dt.TYPECODES[dtype] if dtype != "bool" else "bool")
    buf = array.array(_dt.TYPECODES[dtype])
    buf.frombytes(chunk)
    if not _LITTLE and buf.itemsize > 1:
        buf.byteswap()
    return buf


# --- shards and manifests -------------------------------------------------------------------------
def split_shards(data, max_bytes=DEFAULT_SHARD_BYTES):
    """The weight bytes cut into shards of at most max_bytes (the converter's 4 MB by default)."""
    if not isinstance(max_bytes, int) or max_bytes <= 0:
        raise ValueError(f"split_shards: argument 'max_bytes' must be a positive int, got {max_bytes!r}")
    data = bytes(data)
    return [data[i:i + max_bytes] for i in range(0, len(data), max_bytes)] or [b""]


def shard_names(count, prefix="group1-shard"):
    return [f"{prefix}{i + 1}of{count}.bin" for i in range(count)]


def weights_manifest(specs, paths):
    """A one-group weightsManifest for specs stored in the files `paths`, in order."""
    return [{"paths": list(paths), "weights": list(specs)}]


WeightGroup = collections.namedtuple("WeightGroup", "paths specs min_bytes max_bytes checked")
WeightGroup.__doc__ = """One group of a weightsManifest, checked: its shard paths (relative, as written), its specs,
and the bytes its shards may hold together: exactly the specs' sizes (min_bytes == max_bytes), or, where
string weights make the size unknowable from the manifest, at least 4 bytes a string and at most
MAX_ARCHIVE_MEMBER_BYTES more; checked: each spec's (name, shape, dtype, quantization, values), which a
StreamPlan of the group takes rather than checking the specs again."""


def check_weight_path(path, source=None):
    """A shard path of a weightsManifest, normalized ('./a.bin' -> 'a.bin'), or a ValueError naming source:
    a shard must lie in the model's own folder (or under its URL prefix), so absolute paths, '..'
    segments (also percent-encoded, which fetch decodes), schemes, drive letters, backslashes and
    control characters are refused. A model file is data from a stranger: this is what stops it from
    naming /etc/passwd as a weight."""
    if not isinstance(path, str) or not path:
        raise ValueError(f"weightsManifest{_where(source)}: a shard path must be a non-empty string, got {_short(path)}")
    import urllib.parse
    segments = path.split("/")
    problem = None
    if any(ord(c) < 32 or c == "\\" for c in path):
        problem = "holds a backslash or a control character"
    elif path.startswith("/") or path.startswith("~"):
        problem = "is absolute"
    elif ":" in segments[0]:
        problem = "names a scheme or a drive"
    elif ".." in segments or ".." in urllib.parse.unquote(path).split("/"):
        # fetch's URL parser takes %2e%2e for '..'; other escapes are a URL's own bytes (data: URLs)
        problem = "leaves the model's folder ('..')"
    if problem is None and len(path) > 4096:
        problem = "is longer than 4096 characters"
    normalized = "/".join(seg for seg in path.split("/") if seg not in ("", "."))
    if problem is None and not normalized:
        problem = "names no file"
    if problem:
        raise ValueError(f"weightsManifest{_where(source)}: shard path {_short(path)} {problem}; shard paths must be "
                         f"relative to the model's folder and stay inside it")
    return normalized


def manifest_groups(manifest, source=None):
    """The checked groups (WeightGroup) of a weightsManifest: its structure, every shard path
    (check_weight_path; none listed twice), every spec (name, shape, dtype, quantization; each weight at
    most MAX_TENSOR_ELEMENTS values, all together at most MAX_MODEL_PARAMETERS; no name twice), and the
    bytes each group's shards must hold. Nothing is read here: handlers read shards against these budgets."""
    if not isinstance(manifest, list):
        raise ValueError(f"weightsManifest{_where(source)} must be a list of groups, got {type(manifest).__name__}")
    groups, seen_paths, seen_names, total = [], set(), set(), 0
    limit, max_size = int(ENV.get("MAX_MODEL_PARAMETERS")), max_elements()
    for i, group in enumerate(manifest):
        if (not isinstance(group, dict) or not isinstance(group.get("paths"), list)
                or not isinstance(group.get("weights"), list)):
            raise ValueError(f"weightsManifest{_where(source)}: group {i} must be an object with lists 'paths' and "
                             f"'weights'")
        paths = []
        for p in group["paths"]:
            q = check_weight_path(p, source)
            if q in seen_paths:
                raise ValueError(f"weightsManifest{_where(source)}: shard path {_short(p)} is listed twice")
            seen_paths.add(q)
            paths.append(p)   # as written: TF.js requests 'dir/' + './shard' unchanged
        fixed = strings = 0
        checked = []
        for j, spec in enumerate(group["weights"]):
            name, shape, dtype, quant, size = one = _check_spec(spec, j, source, max_size)
            checked.append(one)
            if name in seen_names:
                raise ValueError(f"weightsManifest{_where(source)}: weight '{name}' appears twice")
            seen_names.add(name)
            total += size
            if total > limit:
                raise ValueError(f"weightsManifest{_where(source)}: the weights hold more than {limit} values in all, "
                                 f"the limit of tf.env() flag MAX_MODEL_PARAMETERS")
            if dtype == "string":
                strings += size
            else:
                fixed += size * _BYTES[quant["dtype"] if quant else dtype]
        if strings:
            lo = fixed + 4 * strings
            groups.append(WeightGroup(paths, list(group["weights"]), lo, lo + int(ENV.get("MAX_ARCHIVE_MEMBER_BYTES")),
                                      checked))
        else:
            groups.append(WeightGroup(paths, list(group["weights"]), fixed, fixed, checked))
        if group["weights"] and not paths:
            raise ValueError(f"weightsManifest{_where(source)}: group {i} lists weights but no shard files")
    return groups


def manifest_specs(manifest, source=None):
    """(specs, paths) of a weightsManifest, its groups flattened in order, checked by manifest_groups."""
    groups = manifest_groups(manifest, source)
    return [s for g in groups for s in g.specs], [p for g in groups for p in g.paths]


def check_group_bytes(group, nbytes, source=None, more=False):
    """A ValueError naming source when a group's shards hold other than the bytes its specs declare:
    more than max_bytes (checked as bytes arrive, so a shard that runs long is refused before it is all
    read), or, once all are read (more=False), fewer than min_bytes."""
    if nbytes > group.max_bytes:
        raise ValueError(f"weightsManifest{_where(source)}: the shards {_short(group.paths)} hold more than the "
                         f"{group.max_bytes} bytes their weights declare: refused (a manifest that disagrees with its "
                         f"files)")
    if not more and nbytes < group.min_bytes:
        offset, name = 0, None
        for spec in group.specs:
            quant = spec.get("quantization")
            dtype = quant["dtype"] if quant else spec["dtype"]
            offset += size_of(spec["shape"]) * (_BYTES.get(dtype) or 4)
            if offset > nbytes:
                name = spec["name"]
                break
        first = f"weight '{name}' needs bytes up to {offset}, but " if name is not None else ""
        raise ValueError(f"weightsManifest{_where(source)}: {first}the shards {_short(group.paths)} hold {nbytes} bytes "
                         f"where the weights declare {group.min_bytes}: refused (truncated files, or a manifest that "
                         f"disagrees with them)")


def get_weight_specs(manifest: List[dict]) -> List[dict]:
    """The weight specs of every group of a weights manifest, in order (TF.js's getWeightSpecs; no
    checks beyond the structure: decode_weights checks the specs it decodes).

    Args:
        manifest: a weightsManifest: [{'paths': [...], 'weights': [spec, ...]}, ...].

    Returns:
        The list of specs.

    Example:
        >>> tf.io.get_weight_specs([{"paths": ["a.bin"], "weights": [{"name": "w", "shape": [1], "dtype": "int32"}]}])
        [{'name': 'w', 'shape': [1], 'dtype': 'int32'}]
    """
    if not isinstance(manifest, list) or not all(isinstance(g, dict) and isinstance(g.get("weights"), list)
                                                 for g in manifest):
        raise ValueError("get_weight_specs: a weightsManifest must be a list of groups with a 'weights' list")
    return [s for g in manifest for s in g["weights"]]


class CompositeArrayBuffer:
    """Weight data held as one buffer or several, read as one (TF.js's io.CompositeArrayBuffer:
    model artifacts' weight_data may be a list of buffers, one per weight file).

    Args:
        buffers: a buffer (bytes, bytearray, memoryview), a list of them, or None (no data).

    Returns:
        The composite buffer: byte_length, slice(start, end) and join().

    Example:
        >>> data = tf.io.CompositeArrayBuffer([b"ab", b"cd"])
        >>> data.byte_length, data.slice(1, 3)
        (4, b'bc')
    """

    def __init__(self, buffers: Any = None):
        if buffers is None:
            buffers = []
        elif isinstance(buffers, (bytes, bytearray, memoryview)):
            buffers = [buffers]
        elif not isinstance(buffers, (list, tuple)):
            raise TypeError(f"CompositeArrayBuffer: buffers must be bytes-like or a list of bytes-like values, got "
                            f"{type(buffers).__name__}")
        self._data = b"".join(bytes(b) for b in buffers)

    @property
    def byte_length(self) -> int:
        """The number of bytes of all the buffers together."""
        return len(self._data)

    def slice(self, start: int = 0, end: Any = None) -> bytes:
        """Bytes start to end (exclusive) across the buffers, as ArrayBuffer.slice.

        Args:
            start: the first byte (negative: from the end).
            end: the end (None: the last byte).

        Returns:
            bytes.
        """
        return self._data[start:end]

    @staticmethod
    def join(buffers: Any) -> bytes:
        """The buffers as one (TF.js's CompositeArrayBuffer.join).

        Args:
            buffers: a buffer or a list of them.

        Returns:
            bytes.
        """
        return CompositeArrayBuffer(buffers).slice()


def concatenate_array_buffers(buffers: Any) -> bytes:
    """One bytes object from a list of buffers, or from one buffer (TF.js's concatenateArrayBuffers).

    Args:
        buffers: a buffer (bytes, bytearray, memoryview) or a list of them.

    Returns:
        bytes.

    Example:
        >>> tf.io.concatenate_array_buffers([b"ab", b"c"])
        b'abc'
    """
    if isinstance(buffers, (bytes, bytearray, memoryview)):
        return bytes(buffers)
    return b"".join(bytes(b) for b in buffers)
