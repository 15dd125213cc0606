"""Cumsum, Cumprod (contracts in ops/math.py), LRN (ops/normalization.py) and TopK
(ops/indexing.py) as WGSL (backends/webgpu/shaders/math.wgsl). The scans are one invocation per output
looping over its prefix (quadratic in the axis, in cpu's order of operations); TopK is TF.js's
bitonic top-k, as on webgl."""
import array

from ....core import prng
from ....kernels import TensorInfo, get_kernel, register_kernel
from ....core.shapes import size_of
from .. import wgsl
from ..program import Program, _size
from .elementwise import BACKEND


def _cumulative(op):
    def kernel(backend, inputs, attrs):
        (x,) = inputs
        axis = attrs["axis"]
        if _size(x.shape) == 0:
            return backend.empty(x.shape, x.dtype)
        t = wgsl.STORAGE_TYPE[x.dtype]
        fields = (("size", "i32"), ("n", "i32"), ("inner", "i32"))
        values = (_size(x.shape), x.shape[axis], size_of(x.shape[axis + 1:]))
        ex, rev = bool(attrs["exclusive"]), bool(attrs["reverse"])
        identity = f"{t}(0)" if op == "+" else f"{t}(1)"

        def source():
            combine = f"fn combine(a: {t}, b: {t}) -> {t} {{ return a {op} b; }}\n"
            text = wgsl.program("math.wgsl", "cumulative")
            for old, new in (("IDENTITY", identity), ("COMBINE(", "combine("), ("REVERSE", str(rev).lower()),
                             ("EXCLUSIVE", str(ex).lower())):
                text = text.replace(old, new)
            return combine + wgsl.bindings(t, (("x", t),), fields) + text

        key = f"cumulative:{op}:{t}:{int(ex)}{int(rev)}"
        return backend.run(Program(key, source, fields), [x], x.shape, x.dtype, values,
                           backend.groups_for(_size(x.shape), 64))
    return kernel


register_kernel("Cumsum", BACKEND, _cumulative("+"))
register_kernel("Cumprod", BACKEND, _cumulative("*"))


@register_kernel("LRN", BACKEND)
def lrn(backend, inputs, attrs):
    x = inputs[0]
    if _size(x.shape) == 0:
        return backend.empty(x.shape, "float32")
    fields = (("size", "i32"), ("depth", "i32"), ("radius", "i32"), ("bias", "f32"), ("alpha", "f32"), ("beta", "f32"))
    values = (_size(x.shape), x.shape[-1], attrs["depth_radius"], float(attrs["bias"]), float(attrs["alpha"]),
              float(attrs["beta"]))

    def source():
        return wgsl.functions(("binary_ops.wgsl", "op_Pow")) + wgsl.bindings("f32", (("x", "f32"),), fields) + \
            wgsl.program("math.wgsl", "lrn")

    return backend.run(Program("lrn", source, fields), [x], x.shape, "float32", values,
                       backend.groups_for(_size(x.shape), 64))


def _pow2(n):
    p = 1
    while p < n:
        p *= 2
    return p


@register_kernel("TopK", BACKEND)
def top_k(backend, inputs, attrs):
    """TF.js's bitonic top-k (webgl's TopK too): sort runs of k2 (k rounded up to a power of two)
    candidate indices per row, then repeatedly keep the better half of each pair of runs and
    re-sort, until k2 remain; O(n log^2 k) work, where ranking every value would be O(n^2)."""
    (x,) = inputs
    k = attrs["k"]
    n = x.shape[-1]
    out_shape = tuple(x.shape[:-1]) + (k,)
    if _size(out_shape) == 0:
        return [backend.empty(out_shape, x.dtype), backend.empty(out_shape, "int32")]
    t = wgsl.STORAGE_TYPE[x.dtype]
    batch = _size(x.shape) // n
    k2, n2 = _pow2(k), _pow2(n)
    indices = None          # the candidates so far, [batch, width]; None before the first pass

    def source(section, fields, outputs):
        def build():
            is_nan = "isNan" if x.dtype == "float32" else "neverNan"
            extra = wgsl.functions((wgsl.COMMON, "isNan")) if x.dtype == "float32" else \
                "fn neverNan(v: i32) -> bool { return false; }\n"
            text = wgsl.functions(("math.wgsl", "before")) + wgsl.program("math.wgsl", section)
            return extra + wgsl.bindings(t, (("x", t), ("indices", "i32")), fields, outputs=outputs) + \
                text.replace("IS_NAN(", is_nan + "(")
        return build

    def run(section, fields, width, values, shape=None, dtype="int32", extra_outputs=(), outputs=None):
        first = indices is None
        outputs = outputs or (("result", "i32"),)
        program = Program(f"top_k_{section}:{t}", source(f"top_k_{section}", fields, outputs), fields)
        # the first pass has no indices to read: x stands in for the binding
        out = backend.run(program, [x, x if first else indices], shape or (batch, width), dtype,
                          (batch * width, width, n, int(first), *values), backend.groups_for(batch * width, 64),
                          extra_outputs=extra_outputs)
        if not first:
            backend.dispose_data(indices.data_id)
        return out

    swap_fields = (("size", "i32"), ("width", "i32"), ("n", "i32"), ("firstPass", "i32"), ("dir", "i32"),
                   ("inc", "i32"))
    merge_fields = (("size", "i32"), ("width", "i32"), ("n", "i32"), ("firstPass", "i32"), ("k", "i32"),
                    ("inWidth", "i32"))

    def sort_runs(length, width):
        nonlocal indices
        inc = length
        while inc >= 1:
            indices = run("swap", swap_fields, width, (2 * length, inc))
            inc //= 2

    length = 1
    while length < k2:
        sort_runs(length, n2)
        length *= 2
    size = n2
    while size > k2:
        indices = run("merge", merge_fields, size // 2, (k2, size))
        sort_runs(k2 // 2, size // 2)
        size //= 2
    gather_fields = (("size", "i32"), ("k", "i32"), ("n", "i32"), ("firstPass", "i32"), ("width", "i32"))
    width = n2 if indices is None else indices.shape[1]
    return run("gather", gather_fields, k, (width,), out_shape, x.dtype, ((out_shape, "int32"),),
               (("result", t), ("outIndices", "i32")))


@register_kernel("LRNGrad", BACKEND)
def lrn_grad(backend, inputs, attrs):
    x, y, dy = inputs
    if _size(x.shape) == 0:
        return backend.empty(x.shape, "float32")
    fields = (("size", "i32"), ("depth", "i32"), ("radius", "i32"), ("bias", "f32"), ("alpha", "f32"), ("beta", "f32"))
    values = (_size(x.shape), x.shape[-1], attrs["depth_radius"], float(attrs["bias"]), float(attrs["alpha"]),
              float(attrs["beta"]))

    def source():
        return wgsl.functions(("binary_ops.wgsl", "op_Pow")) + \
            wgsl.bindings("f32", (("x", "f32"), ("y", "f32"), ("dy", "f32")), fields) + \
            wgsl.program("math.wgsl", "lrn_grad")

    return backend.run(Program("lrn_grad", source, fields), [x, y, dy], x.shape, "float32", values,
                       backend.groups_for(_size(x.shape), 64))


def _bincount_kernel(op_name, by_rows):
    def kernel(backend, inputs, attrs):
        x, weights = inputs
        size, binary = attrs["size"], bool(attrs.get("binary_output", False))
        matrix = by_rows and len(x.shape) == 2
        rows, n = (x.shape[0], x.shape[1]) if matrix else (1, _size(x.shape))
        out_shape = (rows, size) if matrix else (size,)
        known = backend.values_if_known(x)
        if known is not None and len(known) and min(known) < 0:   # as cpu; on the GPU they are skipped
            raise ValueError(f"{op_name}: argument 'x' must hold non-negative values, got {min(known)}")
        dtype = weights.dtype
        if _size(out_shape) == 0:
            return backend.empty(out_shape, dtype)
        t = wgsl.STORAGE_TYPE[dtype]
        weighted = _size(weights.shape) > 0 and not binary
        add = f"{t}(1)" if binary else "acc + w[row * u.n + j]" if weighted else f"acc + {t}(1)"
        fields = (("size", "i32"), ("bins", "i32"), ("n", "i32"))
        names = (("x", "i32"),) + ((("w", t),) if weighted else ())

        def source():
            return wgsl.bindings(t, names, fields) + \
                wgsl.program("math.wgsl", "bincount").replace("TYPE", t).replace("ADD", add)

        key = f"bincount:{t}:{int(binary)}{int(weighted)}"
        return backend.run(Program(key, source, fields), [x] + ([weights] if weighted else []), out_shape, dtype,
                           (_size(out_shape), size, n), backend.groups_for(_size(out_shape), 64))
    return kernel


register_kernel("Bincount", BACKEND, _bincount_kernel("bincount", by_rows=False))
register_kernel("DenseBincount", BACKEND, _bincount_kernel("dense_bincount", by_rows=True))


@register_kernel("Multinomial", BACKEND)
def multinomial(backend, inputs, attrs):
    """cpu's algorithm (TF.js's cpu backend's): the draws from Alea(seed) host-side (they depend on
    the seed alone), the probabilities (Softmax of the logits unless normalized) and the float32
    running sums on the GPU. Where the GPU's softmax rounds a probability otherwise than numpy's,
    a draw within an ulp of a boundary may pick the neighbouring outcome."""
    (logits,) = inputs
    batch, k = logits.shape
    samples = attrs["num_samples"]
    out_shape = (batch, samples)
    if _size(out_shape) == 0:
        return backend.empty(out_shape, "int32")
    probs = logits if attrs["normalized"] else get_kernel("Softmax", BACKEND)(backend, [logits], {"dim": 1})
    uniform = prng.make_uniform(attrs["seed"])
    pairs = []
    for _ in range(samples):
        d = uniform()
        hi = array.array("f", [d])[0]
        pairs += [hi, d - hi]
    draws = TensorInfo(backend.write(array.array("f", pairs), (2 * samples,), "float32"), (2 * samples,), "float32")
    fields = (("size", "i32"), ("samples", "i32"), ("k", "i32"))

    def source():
        return wgsl.bindings("i32", (("probs", "f32"), ("draws", "f32")), fields) + \
            wgsl.program("math.wgsl", "multinomial")

    try:
        return backend.run(Program("multinomial", source, fields), [probs, draws], out_shape, "int32",
                           (_size(out_shape), samples, k), backend.groups_for(_size(out_shape), 64))
    finally:
        backend.dispose_data(draws.data_id)
        if probs is not logits:
            backend.dispose_data(probs.data_id)
