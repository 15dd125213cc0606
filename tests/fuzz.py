"""Differential fuzzing, cpu against webgl: cases drawn with hypothesis, run in batches.

A case is plain data: a family name, the source of a lambda over tensors (its constant
arguments written into the source) and the input arrays. `cases(family, n)` draws n of them
with hypothesis, derandomized (the same cases on every run, no example database), in CPython;
`run_cpu` computes the reference on the cpu backend; `PAGE_RUNNER` runs a whole batch in the
page (one run_py call per family); `compare` checks one result against the reference.

Values: float32 from the whole range (NaN, +-inf, -0, denormals, +-3.4e38) for the ops that
copy, select or compare values and for the elementwise ops; moderate magnitudes (|x| <= 10, with
NaN/inf/-0/denormals mixed in) where values are summed, since a different summation order may
legitimately cancel 1e38 against -1e38 differently. int32 values stay within +-2^24: the webgl
backend carries every dtype as float32 in R32F textures (docs/ARCHITECTURE.md, section 5), so
larger integers are not exact there by design; int32 limits are fuzzed on cpu in tests/unit.

Tolerance: TF.js's float32 test epsilon for webgl, 1e-3 (tfjs-core's TEST_EPSILON_FLOAT32),
as absolute and relative tolerance for every case alike; int32 and bool exactly.
"""
import math

import numpy as np
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

EPS = 1e-3
I24 = 2 ** 24
DENORMAL = float(np.float32(1e-40))
SPECIAL = [math.nan, math.inf, -math.inf, -0.0, 0.0, DENORMAL, -DENORMAL, 1.0, -1.0]

WIDE = st.one_of(st.floats(width=32), st.sampled_from(SPECIAL))
# The summing families draw no denormals: a flushed one turns inf * 1e-40 = inf into inf * 0 = NaN.
NO_DENORMAL = [v for v in SPECIAL if v != DENORMAL and v != -DENORMAL]
MODERATE = st.one_of(st.floats(-10, 10, width=32, allow_subnormal=False), st.sampled_from(NO_DENORMAL))
FINITE = st.floats(-10, 10, width=32, allow_subnormal=False)


def _key(case):
    return (case["src"], tuple((x.dtype.str, x.shape) for x in case["inputs"]))


def _collect(strategy, n, name):
    """n examples of strategy, the same ones every run. Hypothesis is asked for 3n, since a
    derandomized run repeats itself (mutations of earlier examples); one case per distinct
    (source, input shapes) is kept, spread evenly over the run."""
    out = []

    @settings(max_examples=3 * n, derandomize=True, database=None, deadline=None,
              phases=[Phase.explicit, Phase.generate], suppress_health_check=list(HealthCheck))
    @given(strategy)
    def draw(case):
        out.append(case)

    draw.__name__ = draw.__qualname__ = f"fuzz_{name}"   # the derandomized seed follows the name
    draw()
    seen, distinct = set(), []
    for case in out:
        if _key(case) not in seen:
            seen.add(_key(case))
            distinct.append(case)
    step = max(len(distinct) / n, 1.0)
    return [distinct[int(i * step)] for i in range(min(n, len(distinct)))]


def shapes(min_rank=0, max_rank=4, min_side=0, max_side=4):
    return hnp.array_shapes(min_dims=min_rank, max_dims=max_rank, min_side=min_side, max_side=max_side)


def arrays(shape, dtype="float32", values=WIDE, lo=-I24, hi=I24):
    # fill=nothing(): every element drawn on its own (not one repeated fill value)
    if dtype == "float32":
        return hnp.arrays(np.float32, shape, elements=values, fill=st.nothing())
    if dtype == "int32":
        return hnp.arrays(np.int32, shape, elements=st.integers(lo, hi), fill=st.nothing())
    return hnp.arrays(np.bool_, shape, elements=st.booleans(), fill=st.nothing())


# GLSL ES 3.00 lets a GPU flush denormals to zero (SwiftShader does: -0 == 1e-40 there), so for
# the ops that are discontinuous at zero the generator flushes denormal inputs to +-0 first
# (mul: inf * 1e-40 is inf, inf * 0 is NaN).
DENORMAL_SENSITIVE = {"equal", "not_equal", "greater", "greater_equal", "less", "less_equal", "sign", "log",
                      "sqrt", "rsqrt", "div", "floor_div", "mod", "atan2", "pow", "step", "reciprocal", "floor", "ceil",
                      "mul"}


def flush_denormals(x):
    """Denormals, and the smallest normal float too (SwiftShader's -0 mod -1.18e-38 is NaN: the
    reciprocal a division takes of it does not survive), as +-0."""
    if x.dtype != np.float32:
        return x
    tiny = np.abs(x) <= np.finfo(np.float32).tiny
    return np.where(tiny, np.copysign(np.float32(0), x), x).astype(np.float32)


# A source that makes intermediates of its own wraps them in tf.tidy: the page runner counts the
# tensors each case leaves behind.
def _case(family, src, *inputs):
    return {"family": family, "src": src, "inputs": [np.asarray(x) for x in inputs]}


# --- elementwise ------------------------------------------------------------------------------
def _unary_rows():
    from pytfweb.ops.elementwise import UNARY
    return UNARY


# Unary ops whose GLSL differs legitimately from float64-then-rounded numpy beyond |x| <= 100:
# GLSL ES sin/cos/tan lose precision far from zero (range reduction), cosh/sinh of large
# arguments overflow to inf in either but at slightly different points.
_BOUNDED_UNARY = {"sin": 100.0, "cos": 100.0, "tan": 1.5}


@st.composite
def unary(draw):
    row = draw(st.sampled_from(_unary_rows()))
    kinds = {"float": ["float32"], "to_float": ["float32", "int32", "bool"], "numeric": ["float32", "int32", "bool"],
             "same": ["float32", "int32"], "bool": ["bool"], "test": ["float32", "int32"]}[row.kind]
    dtype = draw(st.sampled_from(kinds))
    if row.name == "erf" and dtype == "bool":   # TF.js's erf takes float32 and int32
        dtype = "int32"
    bound = _BOUNDED_UNARY.get(row.name)
    values = st.floats(-bound, bound, width=32) if bound else WIDE
    lo, hi = (-I24, I24) if row.name not in ("square",) else (-4000, 4000)
    if row.kind == "same" and dtype == "int32":   # expm1(25), sinh(30) ...: results beyond 2^24
        lo, hi = -10, 10
    x = draw(arrays(shapes(0, 6, max_side=3), dtype, values, lo, hi))
    if row.name in DENORMAL_SENSITIVE:
        x = flush_denormals(x)
    args = ""
    if row.name == "leaky_relu":
        args = f", alpha={draw(st.sampled_from([0.2, 0.0, 1.5, -0.5]))}"
    elif row.name == "step":
        args = f", alpha={draw(st.sampled_from([0.0, 0.3, -1.0]))}"
    elif row.name == "clip_by_value":
        lo_, hi_ = sorted(draw(st.lists(st.integers(-5, 5), min_size=2, max_size=2)))
        args = f", {lo_}, {hi_}"
    return _case("unary", f"lambda x: tf.{row.name}(x{args})", x)


@st.composite
def binary(draw):
    from pytfweb.ops.elementwise import BINARY
    row = draw(st.sampled_from(BINARY))
    kinds = {"arith": ["float32", "int32"], "same": ["float32"], "floor": ["float32", "int32"],
             "compare": ["float32", "int32", "bool"], "logical": ["bool"], "bitwise": ["int32"]}[row.kind]
    dtype = draw(st.sampled_from(kinds))
    sa, sb = draw(hnp.mutually_broadcastable_shapes(num_shapes=2, min_dims=0, max_dims=5, max_side=3)).input_shapes
    lo, hi = -I24, I24
    if row.name in ("mul", "squared_difference", "pow"):   # int32 results stay within 2^24 (exact in R32F)
        lo, hi = {"mul": (-4000, 4000), "squared_difference": (-2000, 2000), "pow": (-6, 6)}[row.name]
    elif row.name in ("add", "sub"):
        lo, hi = -I24 // 2, I24 // 2
    values = WIDE
    if row.name == "pow":
        # GLSL pow(x, y) is exp2(y * log2(x)): relative error grows with |y log2 x|
        values = st.one_of(st.floats(-8, 8, width=32), st.sampled_from(SPECIAL))
    if row.name == "floor_div":
        values = st.one_of(st.floats(-1e6, 1e6, width=32), st.sampled_from(SPECIAL))
    if row.name == "mod":
        # a - b * floor(a / b) in float32 is off by about ulp(a) (and by the GPU's choice to fuse
        # the multiply-add or not): 1.0e5 mod 0.025 came out 0.0234 for cpu's exact 0.0196, and
        # 2.79e16 mod 0.32 came out 0 for 0.19. Within |a| <= 1000 that error is below 1e-4.
        values = st.one_of(st.floats(-1e3, 1e3, width=32), st.sampled_from(SPECIAL))
    if row.kind == "bitwise":   # TF.js's bitwiseAnd takes equal shapes only
        sb = sa
    a = draw(arrays(sa, dtype, values, lo, hi))
    b = draw(arrays(sb, dtype, values, lo, hi))
    if row.name in DENORMAL_SENSITIVE:
        a, b = flush_denormals(a), flush_denormals(b)
    return _case("binary", f"lambda a, b: tf.{row.name}(a, b)", a, b)


# --- reductions -------------------------------------------------------------------------------
@st.composite
def reduction(draw):
    name = draw(st.sampled_from(["sum", "mean", "max", "min", "prod", "any", "all", "log_sum_exp",
                                 "arg_max", "arg_min"]))
    dtype = {"any": "bool", "all": "bool", "log_sum_exp": "float32", "mean": "float32"}.get(
        name, draw(st.sampled_from(["float32", "int32"])))
    min_rank = 1 if name.startswith("arg") else 0
    shape = draw(shapes(min_rank, 5, min_side=1 if name.startswith("arg") else 0, max_side=4))
    values = MODERATE if name not in ("max", "min") else WIDE
    if name == "prod":
        values = st.one_of(st.floats(-2, 2, width=32, allow_subnormal=False), st.sampled_from(NO_DENORMAL))
    x = draw(arrays(shape, dtype, values, -100 if name == "prod" else -1000, 100 if name == "prod" else 1000))
    if name == "prod" and dtype == "int32":   # |product| <= 2^20: exact in R32F
        x = np.clip(x, -2, 2).astype(np.int32)
        x.reshape(-1)[20:] = 1
    rank = len(shape)
    if name.startswith("arg"):
        # distinct values (a drawn permutation, some negative): no tie whose winner could differ
        perm = np.array(draw(st.permutations(range(x.size))), dtype=np.int64).reshape(shape)
        x = ((perm - x.size // 2) * (0.5 if dtype == "float32" else 7)).astype(x.dtype)
        axis = draw(st.integers(-rank, rank - 1))
        return _case("reduction", f"lambda x: tf.{name}(x, {axis})", x)
    axis = draw(st.one_of(st.none(), st.integers(-rank, rank - 1) if rank else st.none(),
                          st.lists(st.integers(0, rank - 1), unique=True, max_size=rank) if rank else st.none()))
    keep = draw(st.booleans())
    return _case("reduction", f"lambda x: tf.{name}(x, {axis!r}, {keep})", x)


# --- shape and slicing ------------------------------------------------------------------------
@st.composite
def shape_ops(draw):
    name = draw(st.sampled_from(["reshape", "transpose", "expand_dims", "squeeze", "concat", "stack", "tile",
                                 "pad", "reverse", "slice", "strided_slice", "split", "unstack", "broadcast_to",
                                 "mirror_pad", "cast", "clone", "where", "one_hot_like"]))
    dtype = draw(st.sampled_from(["float32", "int32", "bool"]))
    shape = draw(shapes(1 if name in ("slice", "mirror_pad") else 0, 6, max_side=3,
                        min_side=1 if name == "mirror_pad" else 0))
    x = draw(arrays(shape, dtype))
    rank = len(shape)
    if name == "reshape":
        target = [-1] + list(shape[1:]) if shape and shape[0] else list(shape)
        return _case("shape", f"lambda x: tf.reshape(x, {target})"
                     if shape and all(shape[1:]) else f"lambda x: tf.reshape(x, {list(shape[::-1])})", x)
    if name == "transpose":
        perm = draw(st.permutations(range(rank)))
        return _case("shape", f"lambda x: tf.transpose(x, {list(perm)})", x)
    if name == "expand_dims":
        return _case("shape", f"lambda x: tf.expand_dims(x, {draw(st.integers(-rank - 1, rank))})", x)
    if name == "squeeze":
        return _case("shape", "lambda x: tf.squeeze(x)", x)
    if name in ("concat", "stack"):
        if name == "concat" and rank == 0:
            shape, rank = (2,), 1
            x = draw(arrays(shape, dtype))
        axis = draw(st.integers(-rank, rank - 1)) if name == "concat" else draw(st.integers(-rank - 1, rank))
        other = list(shape)
        if name == "concat":
            other[axis] = draw(st.integers(0, 3))
        y = draw(arrays(tuple(other), dtype))
        return _case("shape", f"lambda x, y: tf.{name}([x, y, x], {axis})", x, y)
    if name == "tile":
        reps = draw(st.lists(st.integers(0, 2), min_size=rank, max_size=rank))
        return _case("shape", f"lambda x: tf.tile(x, {reps})", x)
    if name in ("pad", "mirror_pad"):
        if name == "mirror_pad":
            mode = draw(st.sampled_from(["reflect", "symmetric"]))
            limit = [s - 1 if mode == "reflect" else s for s in shape]
            pads = [[draw(st.integers(0, max(lim, 0))), draw(st.integers(0, max(lim, 0)))] for lim in limit]
            return _case("shape", f"lambda x: tf.mirror_pad(x, {pads}, {mode!r})", x)
        pads = [[draw(st.integers(0, 2)), draw(st.integers(0, 2))] for _ in shape]
        return _case("shape", f"lambda x: tf.pad(x, {pads}, {draw(st.sampled_from([0, 1, -2]))})", x)
    if name == "reverse":
        axes = draw(st.lists(st.integers(-rank, rank - 1), unique_by=lambda a: a % max(rank, 1), max_size=rank)) \
            if rank else []
        return _case("shape", f"lambda x: tf.reverse(x, {axes})", x)
    if name == "slice":
        begin = [draw(st.integers(0, s)) for s in shape]
        size = [draw(st.sampled_from([-1, s - b])) if s - b else draw(st.sampled_from([-1, 0]))
                for s, b in zip(shape, begin)]
        return _case("shape", f"lambda x: tf.slice(x, {begin}, {size})", x)
    if name == "strided_slice":
        begin = [draw(st.integers(-s - 1, s + 1)) for s in shape]
        end = [draw(st.integers(-s - 1, s + 1)) for s in shape]
        strides = [draw(st.sampled_from([1, 2, -1, 3, -2])) for _ in shape]
        bm, em, sm = (draw(st.integers(0, 2 ** rank - 1)) for _ in range(3))
        return _case("shape", f"lambda x: tf.strided_slice(x, {begin}, {end}, {strides}, {bm}, {em}, 0, 0, {sm})", x)
    if name in ("split", "unstack"):
        if rank == 0:
            shape, rank = (3,), 1
            x = draw(arrays(shape, dtype))
        axis = draw(st.integers(-rank, rank - 1))
        if name == "unstack":
            return _case("shape", f"lambda x: tf.unstack(x, {axis})", x)
        n = shape[axis]
        sizes = [n] if n == 0 else [draw(st.integers(0, n))]
        sizes.append(n - sizes[0])
        return _case("shape", f"lambda x: tf.split(x, {sizes}, {axis})", x)
    if name == "broadcast_to":
        lead = draw(st.lists(st.integers(0, 3), max_size=6 - rank))
        target = lead + [draw(st.integers(0, 3)) if s == 1 else s for s in shape]
        return _case("shape", f"lambda x: tf.broadcast_to(x, {list(target)})", x)
    if name == "cast":
        to = draw(st.sampled_from(["float32", "int32", "bool"]))
        if dtype == "float32" and to == "int32":
            x = np.where(np.abs(x) < I24, x, np.float32(0)).astype(np.float32)   # beyond 2^24: R32F
        if dtype == "float32" and to == "bool":
            x = flush_denormals(x)   # x != 0, discontinuous at zero (a fresh-clone CI drew 1e-40)
        return _case("shape", f"lambda x: tf.cast(x, {to!r})", x)
    if name == "clone":
        return _case("shape", f"lambda x: tf.{draw(st.sampled_from(['clone', 'zeros_like', 'ones_like']))}(x)", x)
    if name == "where":
        c = draw(arrays(shape, "bool"))
        y = draw(arrays(shape, dtype))
        return _case("shape", "lambda c, x, y: tf.where(c, x, y)", c, x, y)
    # one_hot on an int32 array of indices, some out of range (those rows are all off_value)
    idx = draw(arrays(draw(shapes(0, 3, max_side=3)), "int32", lo=-2, hi=5))
    depth = draw(st.integers(2, 4))   # TF.js: depth >= 2
    return _case("shape", f"lambda i: tf.one_hot(i, {depth}, 3, -1)", idx)


# --- matmul -----------------------------------------------------------------------------------
@st.composite
def matmul(draw):
    m, k, n = (draw(st.integers(0, 9)) for _ in range(3))
    ta, tb = draw(st.booleans()), draw(st.booleans())
    batch = draw(hnp.mutually_broadcastable_shapes(num_shapes=2, min_dims=0, max_dims=2, max_side=3)).input_shapes
    sa = batch[0] + ((k, m) if ta else (m, k))
    sb = batch[1] + ((n, k) if tb else (k, n))
    if draw(st.booleans()):   # same batch rank (TF.js's common case)
        sb = batch[0] + sb[len(batch[1]):]
    values = draw(st.sampled_from([MODERATE, FINITE]))
    dtype = draw(st.sampled_from(["float32", "float32", "int32"]))
    a = draw(arrays(sa, dtype, values, -100, 100))
    b = draw(arrays(sb, dtype, values, -100, 100))
    return _case("matmul", f"lambda a, b: tf.mat_mul(a, b, {ta}, {tb})", a, b)


# --- conv and pool ----------------------------------------------------------------------------
@st.composite
def conv_pool(draw):
    name = draw(st.sampled_from(["conv2d", "depthwise_conv2d", "conv1d", "max_pool", "avg_pool",
                                 "conv2d_transpose", "separable_conv2d"]))
    n, h, w, c = draw(st.integers(1, 2)), draw(st.integers(1, 6)), draw(st.integers(1, 6)), draw(st.integers(1, 3))
    fh, fw = draw(st.integers(1, 3)), draw(st.integers(1, 3))
    pad = draw(st.sampled_from(["same", "valid"]))
    if pad == "valid":
        fh, fw = min(fh, h), min(fw, w)
    stride = draw(st.integers(1, 2))
    dil = draw(st.integers(1, 2)) if stride == 1 else 1
    if pad == "valid" and dil > 1 and (fh - 1) * dil + 1 > h or (fw - 1) * dil + 1 > w and pad == "valid":
        dil = 1
    x = draw(arrays((n, h, w, c), "float32", FINITE if draw(st.booleans()) else MODERATE))
    o = draw(st.integers(1, 3))
    if name == "conv2d":
        f = draw(arrays((fh, fw, c, o), "float32", FINITE))
        return _case("conv", f"lambda x, f: tf.conv2d(x, f, {stride}, {pad!r}, 'NHWC', {dil})", x, f)
    if name == "depthwise_conv2d":
        f = draw(arrays((fh, fw, c, o), "float32", FINITE))
        return _case("conv", f"lambda x, f: tf.depthwise_conv2d(x, f, {stride}, {pad!r}, 'NHWC', {dil})", x, f)
    if name == "separable_conv2d":
        d = draw(arrays((fh, fw, c, o), "float32", FINITE))
        p = draw(arrays((1, 1, c * o, 2), "float32", FINITE))
        return _case("conv", f"lambda x, d, p: tf.separable_conv2d(x, d, p, {stride}, {pad!r}, {dil})", x, d, p)
    if name == "conv1d":
        f = draw(arrays((fw, c, o), "float32", FINITE))
        return _case("conv", f"lambda x, f: tf.conv1d(x, f, {stride}, {pad!r}, 'NWC', {dil})",
                     x.reshape(n, h * w, c), f)
    if name == "conv2d_transpose":
        f = draw(arrays((fh, fw, o, c), "float32", FINITE))
        if pad == "same":
            out = [n, h * stride, w * stride, o]
        else:
            out = [n, (h - 1) * stride + fh, (w - 1) * stride + fw, o]
        return _case("conv", f"lambda x, f: tf.conv2d_transpose(x, f, {out}, {stride}, {pad!r})", x, f)
    x = draw(arrays((n, h, w, c), "float32", WIDE if name == "max_pool" else MODERATE))
    return _case("conv", f"lambda x: tf.{name}(x, [{fh}, {fw}], {stride}, {pad!r})", x)


# --- gather and scatter -----------------------------------------------------------------------
@st.composite
def gather_scatter(draw):
    name = draw(st.sampled_from(["gather", "gather_nd", "scatter_nd", "tensor_scatter_update"]))
    dtype = draw(st.sampled_from(["float32", "int32"]))
    if name == "gather":
        shape = draw(shapes(1, 4, min_side=1))
        rank = len(shape)
        axis = draw(st.integers(-rank, rank - 1))
        ishape = draw(shapes(0, 3))
        idx = draw(hnp.arrays(np.int32, ishape, elements=st.integers(0, shape[axis] - 1)))
        x = draw(arrays(shape, dtype))
        return _case("gather", f"lambda x, i: tf.gather(x, i, {axis})", x, idx)
    if name == "gather_nd":
        shape = draw(shapes(1, 4, min_side=1))
        depth = draw(st.integers(1, len(shape)))
        lead = draw(shapes(0, 2))
        cols = [draw(hnp.arrays(np.int32, lead, elements=st.integers(0, shape[d] - 1))) for d in range(depth)]
        idx = np.stack(cols, axis=-1).astype(np.int32) if cols else np.zeros(lead + (0,), np.int32)
        x = draw(arrays(shape, dtype))
        return _case("gather", "lambda x, i: tf.gather_nd(x, i)", x, idx)
    shape = draw(shapes(1, 3, min_side=1))
    depth = draw(st.integers(1, len(shape)))
    count = draw(st.integers(0, 5))
    rows = draw(st.lists(st.tuples(*[st.integers(0, s - 1) for s in shape[:depth]]), min_size=count,
                         max_size=count, unique=True))   # unique: summing duplicates is order-dependent
    idx = np.array(rows, dtype=np.int32).reshape(len(rows), depth)
    upd = draw(arrays((len(rows),) + shape[depth:], dtype, MODERATE, -1000, 1000))
    if name == "scatter_nd":
        return _case("gather", f"lambda i, u: tf.scatter_nd(i, u, {list(shape)})", idx, upd)
    x = draw(arrays(shape, dtype))
    return _case("gather", "lambda x, i, u: tf.tensor_scatter_update(x, i, u)", x, idx, upd)


# --- segment and cumulative -------------------------------------------------------------------
@st.composite
def segment_cumulative(draw):
    name = draw(st.sampled_from(["cumsum", "cumprod", "unsorted_segment_sum", "cummax_like"]))
    dtype = draw(st.sampled_from(["float32", "int32"]))
    shape = draw(shapes(1, 4, max_side=5))
    rank = len(shape)
    if name in ("cumsum", "cumprod", "cummax_like"):
        values = MODERATE if name == "cumsum" else st.one_of(st.floats(-2, 2, width=32, allow_subnormal=False),
                                                             st.sampled_from(NO_DENORMAL))
        x = draw(arrays(shape, dtype, values, -1000 if name == "cumsum" else -3, 1000 if name == "cumsum" else 3))
        axis = draw(st.integers(-rank, rank - 1))
        ex, rev = draw(st.booleans()), draw(st.booleans())
        op = "cumsum" if name != "cumprod" else "cumprod"
        return _case("cumulative", f"lambda x: tf.{op}(x, {axis}, {ex}, {rev})", x)
    x = draw(arrays(shape, dtype, MODERATE, -1000, 1000))
    num = draw(st.integers(1, 4))
    ids = draw(hnp.arrays(np.int32, (shape[0],), elements=st.integers(0, num - 1)))
    return _case("cumulative", f"lambda x, s: tf.unsorted_segment_sum(x, s, {num})", x, ids)


# --- image ------------------------------------------------------------------------------------
@st.composite
def image(draw):
    name = draw(st.sampled_from(["resize_bilinear", "resize_nearest_neighbor", "flip_left_right",
                                 "crop_and_resize", "rotate_with_offset"]))
    n, h, w, c = draw(st.integers(1, 2)), draw(st.integers(1, 5)), draw(st.integers(1, 5)), draw(st.integers(1, 3))
    x = draw(arrays((n, h, w, c), "float32", FINITE))
    if name.startswith("resize"):
        size = [draw(st.integers(1, 7)), draw(st.integers(1, 7))]
        ac = draw(st.booleans())
        hp = False if ac else draw(st.booleans())
        return _case("image", f"lambda x: tf.image.{name}(x, {size}, {ac}, {hp})", x)
    if name == "flip_left_right":
        return _case("image", "lambda x: tf.image.flip_left_right(x)", x)
    if name == "rotate_with_offset":
        # rotation by a multiple of a quarter turn, on square images for the quarter turns: the
        # source positions are whole pixels. (A non-square quarter turn lands on x.5, and GLSL's
        # round() picks either side of a half: "a direction chosen by the implementation".)
        rad = draw(st.sampled_from([0.0, math.pi / 2, math.pi, -math.pi / 2] if h == w else [0.0, math.pi]))
        return _case("image", f"lambda x: tf.image.rotate_with_offset(x, {rad!r}, 0)", x)
    nb = draw(st.integers(1, 3))
    boxes = draw(hnp.arrays(np.float32, (nb, 4), elements=st.sampled_from([0.0, 0.25, 0.5, 0.75, 1.0])))
    ind = draw(hnp.arrays(np.int32, (nb,), elements=st.integers(0, n - 1)))
    method = draw(st.sampled_from(["bilinear", "nearest"]))
    crop = [draw(st.integers(1, 4)), draw(st.integers(1, 4))]
    return _case("image", f"lambda x, b, i: tf.image.crop_and_resize(x, b, i, {crop}, {method!r}, 0.5)",
                 x, boxes, ind)


# --- nn and misc ------------------------------------------------------------------------------
@st.composite
def nn_misc(draw):
    name = draw(st.sampled_from(["softmax", "log_softmax", "top_k", "batch_norm", "lrn", "space_to_batch",
                                 "depth_to_space", "add_n", "fused_mat_mul"]))
    if name in ("softmax", "log_softmax"):
        x = draw(arrays(draw(shapes(1, 4, min_side=1)), "float32", FINITE))
        return _case("nn", f"lambda x: tf.{name}(x)", x)
    if name == "top_k":
        shape = draw(shapes(1, 3, min_side=1))
        x = (np.arange(int(np.prod(shape))) * 37 % 101).reshape(shape).astype(
            draw(st.sampled_from([np.float32, np.int32])))   # distinct values: no tie order to compare
        return _case("nn", f"lambda x: tf.top_k(x, {draw(st.integers(0, shape[-1]))})", x)
    if name == "batch_norm":
        shape = draw(shapes(1, 4, min_side=1))
        c = shape[-1]
        x = draw(arrays(shape, "float32", FINITE))
        m, s = draw(arrays((c,), "float32", FINITE)), draw(arrays((c,), "float32", st.floats(0.125, 4, width=32)))
        return _case("nn", "lambda x, m, v: tf.batch_norm(x, m, v, None, None, 0.001)", x, m, s)
    if name == "lrn":
        x = draw(arrays((1, 2, 2, draw(st.integers(1, 6))), "float32", FINITE))
        return _case("nn", f"lambda x: tf.local_response_normalization(x, {draw(st.integers(0, 3))}, 1.0, 1.0, 0.5)", x)
    if name == "space_to_batch":
        bh, bw = draw(st.integers(1, 3)), draw(st.integers(1, 2))
        if draw(st.booleans()):
            pads = [[draw(st.integers(0, 2)), 0], [0, draw(st.integers(0, 1))]]
            h, w = bh * draw(st.integers(1, 2)) - pads[0][0], bw * draw(st.integers(1, 2)) - pads[1][1]
            x = draw(arrays((draw(st.integers(1, 2)), max(h, 0), max(w, 0), 2), "float32"))
            if h < 0 or w < 0:
                pads = [[0, 0], [0, 0]]
                x = draw(arrays((1, bh, bw, 2), "float32"))
            return _case("nn", f"lambda x: tf.space_to_batch_nd(x, [{bh}, {bw}], {pads})", x)
        crops = [[0, draw(st.integers(0, bh - 1))], [draw(st.integers(0, bw - 1)), 0]]
        x = draw(arrays((bh * bw * draw(st.integers(1, 2)), draw(st.integers(1, 3)), draw(st.integers(1, 3)), 2),
                        "float32"))
        return _case("nn", f"lambda x: tf.batch_to_space_nd(x, [{bh}, {bw}], {crops})", x)
    if name == "depth_to_space":
        x = draw(arrays((1, draw(st.integers(1, 3)), draw(st.integers(1, 3)), 4 * draw(st.integers(1, 2))), "float32"))
        return _case("nn", "lambda x: tf.depth_to_space(x, 2)", x)
    if name == "add_n":
        shape = draw(shapes(0, 4))
        xs = [draw(arrays(shape, "float32", MODERATE)) for _ in range(3)]
        return _case("nn", "lambda a, b, c: tf.add_n([a, b, c])", *xs)
    m, k, n = (draw(st.integers(1, 6)) for _ in range(3))
    act = draw(st.sampled_from(["linear", "relu", "relu6", "elu", "sigmoid", "leakyrelu"]))
    a, b = draw(arrays((m, k), "float32", FINITE)), draw(arrays((k, n), "float32", FINITE))
    bias = draw(arrays((n,), "float32", FINITE))
    return _case("nn", f"lambda a, b, c: tf.fused.mat_mul(a, b, False, False, c, {act!r})", a, b, bias)


# --- gradients --------------------------------------------------------------------------------
# d/dx of sum(op(x) * w): the webgl gradient kernels (ReluGrad, MaxPoolGrad, Conv2DBackpropInput,
# ...) against cpu's. Finite values only: a gradient through NaN/inf is NaN/inf either way.
_GRAD_UNARY = ["sigmoid", "tanh", "relu", "relu6", "elu", "selu", "abs", "square", "softplus", "sin", "cos", "atan",
               "asinh", "erf", "exp", "neg", "leaky_relu", "log_sigmoid", "clip_by_value_"]
_GRAD_POSITIVE = ["sqrt", "log", "rsqrt", "reciprocal", "log1p", "acosh_"]


@st.composite
def gradients(draw):
    kind = draw(st.sampled_from(["unary", "positive", "binary", "reduce", "shape", "nn", "conv"]))
    small = st.floats(-3, 3, width=32, allow_subnormal=False)
    if kind in ("unary", "positive"):
        name = draw(st.sampled_from(_GRAD_UNARY if kind == "unary" else _GRAD_POSITIVE))
        shape = draw(shapes(0, 4, max_side=4))
        values = small if kind == "unary" else st.floats(0.25, 4, width=32)
        x = draw(arrays(shape, "float32", values))
        if name == "acosh_":
            x = (x + 1).astype(np.float32)
        w = draw(arrays(shape, "float32", small))
        op = {"clip_by_value_": "lambda a: tf.clip_by_value(a, -1, 1)", "acosh_": "tf.acosh"}.get(name, f"tf.{name}")
        return _case("grad", f"lambda x, w: tf.grad(lambda a: tf.sum(tf.mul({op}(a), w)))(x)", x, w)
    if kind == "binary":
        name = draw(st.sampled_from(["add", "sub", "mul", "div", "maximum", "minimum", "squared_difference",
                                     "pow", "atan2"]))
        sa, sb = draw(hnp.mutually_broadcastable_shapes(num_shapes=2, min_dims=0, max_dims=4, max_side=3)).input_shapes
        a = draw(arrays(sa, "float32", st.floats(0.25, 3, width=32) if name == "pow" else small))
        b = draw(arrays(sb, "float32", st.floats(-2, 2, width=32, allow_subnormal=False) if name == "pow" else
                        st.one_of(st.floats(0.25, 3, width=32), st.floats(-3, -0.25, width=32)) if name == "div"
                        else small))
        return _case("grad", f"lambda a, b: tf.grads(lambda p, q: tf.sum(tf.{name}(p, q)))([a, b])", a, b)
    if kind == "reduce":
        name = draw(st.sampled_from(["sum", "mean", "max", "min", "prod", "log_sum_exp", "softmax", "log_softmax",
                                     "cumsum", "norm_"]))
        shape = draw(shapes(1, 4, min_side=1, max_side=4))
        # distinct values: max/min gradients go to the maximum, and a tie would be decided by order
        perm = np.array(draw(st.permutations(range(int(np.prod(shape))))), dtype=np.float32).reshape(shape)
        x = ((perm - perm.size / 2) * np.float32(0.25)).astype(np.float32)
        axis = draw(st.integers(-len(shape), len(shape) - 1))
        w = draw(arrays(shape, "float32", small))
        op = {"softmax": "tf.softmax(a)", "log_softmax": "tf.log_softmax(a)", "cumsum": f"tf.cumsum(a, {axis})",
              "norm_": f"tf.norm(a, 'euclidean', {axis})"}.get(name, f"tf.{name}(a, {axis}, True)")
        body = f"tf.mul({op}, w)" if name in ("softmax", "log_softmax", "cumsum") else op   # else: reduced already
        src = f"lambda x, w: tf.grad(lambda a: tf.sum({body}))(x)"
        return _case("grad", src, x, w)
    if kind == "shape":
        shape = draw(shapes(1, 4, min_side=1, max_side=4))
        rank = len(shape)
        x = draw(arrays(shape, "float32", small))
        op = draw(st.sampled_from([
            f"tf.transpose(a, {list(draw(st.permutations(range(rank))))})",
            f"tf.tile(a, {[draw(st.integers(1, 2)) for _ in shape]})",
            f"tf.pad(a, {[[draw(st.integers(0, 2)), draw(st.integers(0, 1))] for _ in shape]})",
            f"tf.slice(a, {[0] * rank}, {[max(1, s - 1) for s in shape]})",
            f"tf.reverse(a, {[draw(st.integers(0, rank - 1))]})",
            f"tf.concat([a, a], {draw(st.integers(0, rank - 1))})",
            f"tf.gather(a, tf.tensor({[draw(st.integers(0, shape[0] - 1)) for _ in range(3)]}, None, 'int32'))",
            f"tf.broadcast_to(a, {[2] + list(shape)})",
            f"tf.strided_slice(a, {[0] * rank}, {list(shape)}, {[draw(st.sampled_from([1, 2])) for _ in shape]})",
        ]))
        src = f"lambda x: tf.grad(lambda a: tf.sum(tf.square({op})))(x)"
        return _case("grad", src, x)
    if kind == "nn":
        n, h, w_, c = draw(st.integers(1, 2)), draw(st.integers(2, 5)), draw(st.integers(2, 5)), draw(st.integers(1, 2))
        perm = np.array(draw(st.permutations(range(n * h * w_ * c))), dtype=np.float32).reshape(n, h, w_, c)
        x = ((perm - perm.size / 2) * np.float32(0.125)).astype(np.float32)   # distinct: max_pool picks one
        op = draw(st.sampled_from([
            f"tf.max_pool(a, [2, 2], {draw(st.integers(1, 2))}, {draw(st.sampled_from(['same', 'valid']))!r})",
            f"tf.avg_pool(a, [2, {draw(st.integers(1, 2))}], {draw(st.integers(1, 2))}, "
            f"{draw(st.sampled_from(['same', 'valid']))!r})",
            f"tf.image.resize_bilinear(a, [{draw(st.integers(1, 6))}, {draw(st.integers(1, 6))}], "
            f"{draw(st.booleans())})",
            f"tf.image.resize_nearest_neighbor(a, [{draw(st.integers(1, 6))}, {draw(st.integers(1, 6))}])",
            "tf.local_response_normalization(a, 1)",
            "tf.batch_norm(a, tf.scalar(0.5), tf.scalar(2.0))",
            f"tf.depth_to_space(tf.tile(a, [1, 1, 1, {4 // c}]), 2)",
        ]))
        return _case("grad", f"lambda x: tf.grad(lambda a: tf.sum(tf.square({op})))(x)", x)
    # conv: gradients with respect to input and filter
    n, h, w_ = draw(st.integers(1, 2)), draw(st.integers(2, 5)), draw(st.integers(2, 5))
    c, o = draw(st.integers(1, 3)), draw(st.integers(1, 2))
    fh, fw = draw(st.integers(1, min(3, h))), draw(st.integers(1, min(3, w_)))
    stride, pad = draw(st.integers(1, 2)), draw(st.sampled_from(["same", "valid"]))
    x = draw(arrays((n, h, w_, c), "float32", small))
    name = draw(st.sampled_from(["conv2d", "depthwise_conv2d", "mat_mul"]))
    if name == "mat_mul":
        a = draw(arrays((h, c), "float32", small))
        b = draw(arrays((c, o), "float32", small))
        ta, tb = draw(st.booleans()), draw(st.booleans())
        if ta:
            a = np.ascontiguousarray(a.T)
        if tb:
            b = np.ascontiguousarray(b.T)
        return _case("grad", f"lambda a, b: tf.grads(lambda p, q: tf.sum(tf.square(tf.mat_mul(p, q, {ta}, {tb}))))"
                             "([a, b])", a, b)
    f = draw(arrays((fh, fw, c, o), "float32", small))
    return _case("grad", f"lambda x, f: tf.grads(lambda p, q: tf.sum(tf.square(tf.{name}(p, q, {stride}, {pad!r}))))"
                         f"([x, f])", x, f)


# --- larger tensors: physical texture layouts ---------------------------------------------------
@st.composite
def layout(draw):
    """Sizes well past one texture row (odd, prime-ish sides): the shader compiler's mapping of
    logical coordinates onto 2D textures, squeezed unit axes, and reshapes sharing a texture."""
    dims = draw(st.lists(st.sampled_from([1, 2, 3, 5, 7, 11, 13, 17, 31, 61, 127]), min_size=1, max_size=5))
    while int(np.prod(dims)) > 40000:
        dims = dims[1:]
    shape = tuple(dims)
    rank = len(shape)
    x = draw(arrays(shape, draw(st.sampled_from(["float32", "int32"])), MODERATE, -1000, 1000))
    op = draw(st.sampled_from(["transpose", "reshape_add", "slice", "sum", "max", "broadcast", "concat", "reverse",
                               "tile", "pad", "cumsum", "gather"]))
    if op == "transpose":
        return _case("layout", f"lambda x: tf.transpose(x, {list(draw(st.permutations(range(rank))))})", x)
    if op == "reshape_add":   # a reshape shares the texture: its tex_shape is not its own shape's
        flat = int(np.prod(shape))
        other = draw(st.sampled_from([d for d in (1, 2, 3, 5, 7, 11, 13, 17) if flat % d == 0]))
        return _case("layout", f"lambda x: tf.tidy(lambda: tf.add(tf.reshape(x, [{other}, -1]), "
                               f"tf.reshape(x, [{other}, -1])))", x)
    if op == "slice":
        begin = [draw(st.integers(0, s - 1)) for s in shape]
        size = [draw(st.integers(1, s - b)) for s, b in zip(shape, begin)]
        return _case("layout", f"lambda x: tf.slice(x, {begin}, {size})", x)
    if op in ("sum", "max"):
        axis = draw(st.one_of(st.none(), st.integers(-rank, rank - 1)))
        return _case("layout", f"lambda x: tf.{op}(x, {axis})", x)
    if op == "broadcast":
        y = draw(arrays(tuple(1 if draw(st.booleans()) else s for s in shape), x.dtype.name, MODERATE, -1000, 1000))
        return _case("layout", "lambda x, y: tf.sub(x, y)", x, y)
    if op == "concat":
        axis = draw(st.integers(0, rank - 1))
        return _case("layout", f"lambda x: tf.concat([x, x], {axis})", x)
    if op == "reverse":
        return _case("layout", f"lambda x: tf.reverse(x, {draw(st.integers(0, rank - 1))})", x)
    if op == "tile":
        return _case("layout", f"lambda x: tf.tile(x, {[1] * (rank - 1) + [2]})", x)
    if op == "pad":
        return _case("layout", f"lambda x: tf.pad(x, {[[1, 2]] + [[0, 0]] * (rank - 1)})", x)
    if op == "cumsum":
        return _case("layout", f"lambda x: tf.cumsum(x, {draw(st.integers(0, rank - 1))})", x)
    idx = draw(hnp.arrays(np.int32, (draw(st.integers(1, 40)),), elements=st.integers(0, shape[-1] - 1)))
    return _case("layout", f"lambda x, i: tf.gather(x, i, {rank - 1})", x, idx)


# --- the other families: 3D conv and pool, einsum, spectral, linalg, morphology, transforms ----
@st.composite
def more(draw):
    name = draw(st.sampled_from(["conv3d", "max_pool3d", "avg_pool3d", "einsum", "fft", "rfft", "band_part",
                                 "dilation2d", "transform", "sparse_to_dense", "diag", "outer", "where_select",
                                 "prelu", "mirror_pad_grad"]))
    if name in ("conv3d", "max_pool3d", "avg_pool3d"):
        d, h, w, c = (draw(st.integers(1, 4)) for _ in range(4))
        x = draw(arrays((1, d, h, w, c), "float32", FINITE))
        stride = draw(st.integers(1, 2))
        if name == "conv3d":
            f = draw(arrays((min(2, d), min(2, h), min(2, w), c, draw(st.integers(1, 2))), "float32", FINITE))
            return _case("more", f"lambda x, f: tf.conv3d(x, f, {stride}, 'valid')", x, f)
        size = [draw(st.integers(1, 2)) for _ in range(3)]
        pad = draw(st.sampled_from(["same", "valid"]))
        return _case("more", f"lambda x: tf.{name}(x, {size}, {stride}, {pad!r})", x)
    if name == "einsum":
        i, j, k = (draw(st.integers(1, 4)) for _ in range(3))
        eq, sa, sb = draw(st.sampled_from([("ij,jk->ik", (i, j), (j, k)), ("ij,ij->i", (i, j), (i, j)),
                                           ("ij->ji", (i, j), None), ("bij,bjk->bik", (2, i, j), (2, j, k)),
                                           ("i,j->ij", (i,), (j,)), ("ij,kj->ik", (i, j), (k, j))]))
        a = draw(arrays(sa, "float32", FINITE))
        if sb is None:
            return _case("more", f"lambda a: tf.einsum({eq!r}, a)", a)
        return _case("more", f"lambda a, b: tf.einsum({eq!r}, a, b)", a, draw(arrays(sb, "float32", FINITE)))
    if name in ("fft", "rfft"):
        shape = (draw(st.integers(1, 3)), draw(st.integers(1, 9)))
        re = draw(arrays(shape, "float32", FINITE))
        if name == "rfft":
            return _case("more", "lambda x: tf.tidy(lambda: tf.real(tf.spectral.rfft(x)))", re)
        im = draw(arrays(shape, "float32", FINITE))
        part = draw(st.sampled_from(["real", "imag"]))
        op = draw(st.sampled_from(["fft", "ifft"]))
        return _case("more", f"lambda a, b: tf.tidy(lambda: tf.{part}(tf.spectral.{op}(tf.complex(a, b))))", re, im)
    if name == "band_part":
        x = draw(arrays(draw(shapes(2, 3, min_side=1, max_side=5)), "float32"))
        lower, upper = draw(st.integers(-1, 3)), draw(st.integers(-1, 3))
        return _case("more", f"lambda x: tf.linalg.band_part(x, {lower}, {upper})", x)
    if name == "dilation2d":
        h, w, c = draw(st.integers(2, 5)), draw(st.integers(2, 5)), draw(st.integers(1, 2))
        x = draw(arrays((1, h, w, c), "float32", FINITE))
        f = draw(arrays((draw(st.integers(1, 2)), draw(st.integers(1, 2)), c), "float32", FINITE))
        return _case("more", f"lambda x, f: tf.dilation2d(x, f, {draw(st.integers(1, 2))}, "
                             f"{draw(st.sampled_from(['same', 'valid']))!r})", x, f)
    if name == "transform":
        h, w = draw(st.integers(2, 5)), draw(st.integers(2, 5))
        x = draw(arrays((1, h, w, 1), "float32", FINITE))
        # integer translations and flips: whole-pixel source positions on both backends
        tx, ty = draw(st.integers(-2, 2)), draw(st.integers(-2, 2))
        sx = draw(st.sampled_from([1, -1]))
        t = np.array([[sx, 0, tx, 0, 1, ty, 0, 0]], np.float32)
        fill = draw(st.sampled_from(["constant", "nearest", "reflect", "wrap"]))
        return _case("more", f"lambda x, t: tf.image.transform(x, t, 'nearest', {fill!r}, 0.5)", x, t)
    if name == "sparse_to_dense":
        n = draw(st.integers(1, 6))
        rows = draw(st.lists(st.integers(0, 7), min_size=0, max_size=n, unique=True))
        idx = np.array(sorted(rows), np.int32)
        vals = draw(arrays((len(rows),), "float32", FINITE))
        return _case("more", "lambda i, v: tf.sparse_to_dense(i, v, [8], 0.5)", idx, vals)
    if name == "diag":
        x = draw(arrays(draw(shapes(1, 2, min_side=1, max_side=4)), "float32"))
        return _case("more", "lambda x: tf.diag(x)", x)
    if name == "outer":
        return _case("more", "lambda a, b: tf.outer_product(a, b)",
                     draw(arrays((draw(st.integers(1, 5)),), "float32", FINITE)),
                     draw(arrays((draw(st.integers(1, 5)),), "float32", FINITE)))
    if name == "where_select":
        sa, sb, sc = draw(hnp.mutually_broadcastable_shapes(num_shapes=3, max_dims=4, max_side=3)).input_shapes
        return _case("more", "lambda c, a, b: tf.where(c, a, b)", draw(arrays(sa, "bool")), draw(arrays(sb, "float32")),
                     draw(arrays(sc, "float32")))
    if name == "prelu":
        shape = draw(shapes(1, 4, min_side=1, max_side=4))
        return _case("more", "lambda x, a: tf.prelu(x, a)", draw(arrays(shape, "float32")),
                     draw(arrays(shape[-1:], "float32", FINITE)))
    x = draw(arrays((draw(st.integers(2, 4)), draw(st.integers(2, 4))), "float32", FINITE))
    mode = draw(st.sampled_from(["reflect", "symmetric"]))
    return _case("more", f"lambda x: tf.grad(lambda a: tf.sum(tf.square(tf.mirror_pad(a, [[1, 1], [0, 1]], "
                         f"{mode!r}))))(x)", x)


FAMILIES = {"unary": unary, "binary": binary, "reduction": reduction, "shape": shape_ops, "matmul": matmul,
            "conv": conv_pool, "gather": gather_scatter, "cumulative": segment_cumulative, "image": image,
            "nn": nn_misc, "grad": gradients, "layout": layout, "more": more}


def cases(family, n):
    return _collect(FAMILIES[family](), n, family)


# --- running ----------------------------------------------------------------------------------
def encode(a):
    a = np.asarray(a)
    dtype = {"f": "float32", "i": "int32", "b": "bool"}[a.dtype.kind]
    return {"values": a.ravel().tolist(), "shape": list(a.shape), "dtype": dtype}


def _flat(out):
    if isinstance(out, (list, tuple)):
        return [t for o in out for t in _flat(o)]
    return [out]


def run_cpu(case):
    """[(shape, dtype, ndarray), ...] or ("error", type name, message) on the cpu backend."""
    import pytfweb as tf
    fn = eval(case["src"], {"tf": tf})  # noqa: S307 - test source
    xs = [tf.tensor(**encode(x)) for x in case["inputs"]]
    try:
        outs = _flat(fn(*xs))
        result = [(tuple(t.shape), t.dtype, t.numpy()) for t in outs]
        tf.dispose(outs)
        return result
    except Exception as exc:  # noqa: BLE001 - compared with the page's
        return ("error", type(exc).__name__, str(exc))
    finally:
        tf.dispose(xs)


# Runs in the page (run_py): every case of the batch, each in its own try; results as plain data.
PAGE_RUNNER = '''
from pytfweb.host.script import to_plain as _to_plain
def _flat(out):
    if isinstance(out, (list, tuple)):
        return [t for o in out for t in _flat(o)]
    return [out]
results, leaks = [None] * len(cases), []
order = list(range(len(cases)))
if reverse:
    # backwards through a cleared program cache: a program compiled for a later case and
    # wrongly reused (a key missing something baked into the code) shows up the other way round
    tf.backend().programs.clear()
    order.reverse()
for i in order:
    case = cases[i]
    before = tf.memory().num_tensors
    fn = eval(case["src"], {"tf": tf})
    xs = [tf.tensor(x["values"], x["shape"], x["dtype"]) for x in case["inputs"]]
    try:
        outs = _flat(fn(*xs))
        results[i] = [await _to_plain(t) for t in outs]
        tf.dispose(outs)
    except Exception as exc:
        results[i] = ["error", type(exc).__name__, str(exc)]
    tf.dispose(xs)
    if tf.memory().num_tensors != before:
        leaks.append([case["src"], tf.memory().num_tensors - before])
result = {"results": results, "leaks": leaks, "backend": tf.get_backend()}
'''


def compare(case, want, got):
    """None when the webgl result `got` (decoded page output) matches the cpu one, else a message."""
    where = case["src"]
    if isinstance(want, tuple) and want and want[0] == "error":
        if not (got and isinstance(got[0], str)):
            return f"{where}: cpu raised {want[1]}: {want[2]}, webgl did not"
        return None if got[1] == want[1] else f"{where}: cpu raised {want[1]}, webgl {got[1]}: {got[2]}"
    if got and isinstance(got[0], str):
        return f"{where}: webgl raised {got[1]}: {got[2]}; cpu gave a result"
    if len(got) != len(want):
        return f"{where}: {len(got)} outputs on webgl, {len(want)} on cpu"
    for i, ((shape, dtype, w), g) in enumerate(zip(want, got)):
        g = np.asarray(g)
        if tuple(g.shape) != tuple(shape) or str(g.dtype) != {"float32": "float32", "int32": "int32",
                                                             "bool": "bool"}[dtype]:
            return f"{where} output {i}: {g.dtype}{list(g.shape)} on webgl, {dtype}{list(shape)} on cpu"
        if dtype == "float32":
            w = w.astype(np.float64)
            g = g.astype(np.float64)
            same_nan = np.isnan(w) == np.isnan(g)
            inf = np.isinf(w) | np.isinf(g)
            close = np.where(inf, w == g, np.abs(w - g) <= EPS + EPS * np.abs(w))
            ok = same_nan & (close | np.isnan(w))
        else:
            ok = w == g
        if not ok.all():
            bad = np.argwhere(~ok)[:3]
            return (f"{where} output {i}: {int((~ok).sum())} of {ok.size} differ, e.g. at {bad.tolist()}: "
                    f"webgl {[g[tuple(b)] for b in bad]} cpu {[w[tuple(b)] for b in bad]}; inputs "
                    f"{[x.tolist() if x.size < 40 else x.shape for x in case['inputs']]}")
    return None
