"""TF.js-style tensor printing (tensor_format.ts): 'Tensor' then the values, aligned."""
import math

_MAX_ELEMENTS = 20
_EDGE = 3


def _fmt(v, dtype):
    if dtype == "bool":
        return "true" if v else "false"
    if dtype == "int32":
        return str(int(v))
    v = float(v)
    if math.isnan(v):
        return "NaN"
    if math.isinf(v):
        return "Infinity" if v > 0 else "-Infinity"
    s = f"{v:.7f}".rstrip("0").rstrip(".")  # JS parseFloat(v.toFixed(7)).toString()
    return "0" if s == "-0" else s


def tensor_to_string(values, shape, dtype, verbose=False):
    lines = []
    if verbose:
        lines += ["Tensor", f"  dtype: {dtype}", f"  rank: {len(shape)}", f"  shape: {list(shape)}", "  values:"]
    else:
        lines.append("Tensor")
    strs = [_fmt(v, dtype) for v in values]
    pad = max((len(s) for s in strs), default=0)
    strs = [s.ljust(pad) for s in strs]  # TF.js pads on the right
    body = _sub(strs, list(shape), 0, len(strs), 0)
    lines += ["    " + ln for ln in body]
    return "\n".join(lines)


def _sub(strs, shape, start, end, depth):
    if not shape:
        return [strs[start]] if end > start else ["[]"]
    if len(shape) == 1:
        n = shape[0]
        row = strs[start:end]
        if n > _MAX_ELEMENTS:
            row = row[:_EDGE] + ["..."] + row[-_EDGE:]
        return ["[" + ", ".join(row) + "]"]
    n = shape[0]
    stride = (end - start) // n if n else 0
    idx = list(range(n))
    if n > _MAX_ELEMENTS:
        idx = idx[:_EDGE] + [None] + idx[-_EDGE:]
    parts = []
    for k, i in enumerate(idx):
        if i is None:
            parts.append(["..."])
            continue
        parts.append(_sub(strs, shape[1:], start + i * stride, start + (i + 1) * stride, depth + 1))
    out = []
    sep_blank = len(shape) > 2
    for k, block in enumerate(parts):
        last = k == len(parts) - 1
        for j, ln in enumerate(block):
            prefix = "[" if k == 0 and j == 0 else " "
            suffix = "]" if last and j == len(block) - 1 else ("," if j == len(block) - 1 else "")
            out.append(prefix + ln + suffix)
        if sep_blank and not last:
            out.append("")
    if not parts:
        out = ["[]"]
    return out
