"""Lazy elementwise fusion on webgl (backends/webgl/programs/fusion.py): results equal to one draw
per op, fewer draws, data read by a pending expression kept until it is drawn, reshaped pending
data, the size limits, tf.profile and the WEBGL_FUSION flag. (test_webgl_elementwise.py and
test_webgl_gradients.py also run with the flag off: see their `fusion` fixtures.)"""
import numpy as np
import pytest

from .conftest import as_stored, lost_infinities, tolerance

# (webgpu's fusion has its own module, test_webgpu_fusion.py; what both share runs here on the
# session's backend: the webgpu pass of `make test` runs it on webgpu)
_WEBGL_ONLY = pytest.mark.webgl_only("webgl's fusion: its draws, pending expressions and program limits")

MIXED = """
def mixed(a, b, c):
    t = tf.exp(tf.neg(tf.abs(a))) * 3 + b
    u = tf.where(t > 1, t, c)                       # Select: not fused, reads t drawn
    v = tf.sqrt(tf.square(u - 0.5) + 1e-3) / (tf.abs(b) + 1)
    w = tf.maximum(v, tf.minimum(a, c)) - tf.sigmoid(a * b) + tf.tanh(c) ** 2
    z = tf.reshape(w, [-1]) * 2                     # a pending value under another shape
    i = tf.cast(tf.floor(a * 10), 'int32') % 7 + tf.cast(b > 0, 'int32')
    return [w, z, i, tf.logical_and(a > 0, b < 0), tf.sum(w * w)]
"""


def _draws(run_py, code, **values):
    """(result of code, draws it made): `result` must be read back by code."""
    return run_py("""
be = tf.backend()
_draw = be.ctx.draw
_count = [0]
def _counting(*args):
    _count[0] += 1
    return _draw(*args)
be.ctx.draw = _counting
try:
""" + "\n".join("    " + line for line in code.strip().splitlines()) + """
finally:
    be.ctx.draw = _draw
result = [result, _count[0]]
""", **values)


@_WEBGL_ONLY
def test_fused_results_equal_one_draw_per_op_with_fewer_draws(run_py):
    rng = np.random.default_rng(2)
    a, b = rng.normal(size=(4, 1, 5)).astype(np.float32), rng.normal(size=(3, 5)).astype(np.float32)
    # a * 10 kept 0.25 away from integers: floor(a * 10) then agrees whether a * 10 was stored
    # between draws (unfused: rounded to half floats under F16) or not
    a = (np.round(a * 20) / 20 + 0.025).astype(np.float32)
    c = rng.normal(size=(5,)).astype(np.float32)
    code = MIXED + """
xs = [tf.tensor(v) for v in (a, b, c)]
outs = mixed(*xs)
result = [o.array_sync() for o in outs]
tf.dispose(outs + xs)
"""
    run_py("tf.env().set('WEBGL_FUSION', False)")
    try:
        unfused, unfused_draws = _draws(run_py, code, a=a.tolist(), b=b.tolist(), c=c.tolist())
    finally:
        run_py("tf.env().set('WEBGL_FUSION', True)")
    fused, fused_draws = _draws(run_py, code, a=a.tolist(), b=b.tolist(), c=c.tolist())
    for got, want in zip(fused, unfused):
        np.testing.assert_allclose(np.asarray(got, dtype=np.float64), np.asarray(want, dtype=np.float64),
                                   *tolerance(1e-6, 1e-6))
    assert fused_draws * 2 < unfused_draws, (fused_draws, unfused_draws)   # measured: 13 against 35


@_WEBGL_ONLY
def test_data_a_pending_expression_reads_lives_until_it_is_drawn(run_py):
    out = run_py("""
before = tf.memory()
x = tf.tensor([1.0, 2.0, 3.0])
t = x + 1
u = t * 2                       # pending: reads x
t.dispose()
x.dispose()                     # disposed, but u still reads it
mid = tf.memory().num_tensors - before.num_tensors
values = list(u.data_sync())
v = tf.tidy(lambda: tf.exp(tf.tensor([0.0, 1.0])) + 1)   # the tidy frees its intermediates
values_v = list(v.data_sync())
five = tf.tensor([5.0, 6.0])
dropped = five * 3              # never drawn
five.dispose()                  # kept for dropped ...
held = five.data_id in tf.backend().store
tf.dispose([u, v, dropped])     # ... and freed with it
after = tf.memory()
be = tf.backend()
result = [mid, values, values_v, held, five.data_id in be.store, after.num_tensors - before.num_tensors,
          after.num_textures_in_use - before.num_textures_in_use, len(be.pending), len(be.leaf_refs),
          len(be.free_later)]
""")
    mid, values, values_v, held, still_held, tensors, textures, pending, refs, later = out
    assert mid == 1 and values == [4.0, 6.0, 8.0]
    assert held and not still_held
    np.testing.assert_allclose(values_v, [2.0, 1 + np.e], *tolerance(1e-6, 0))
    assert [tensors, textures, pending, refs, later] == [0, 0, 0, 0, 0]


@_WEBGL_ONLY
def test_prelu_after_a_bias_add_draws_once(run_py):
    """A graph model's DepthwiseConv2dNative -> Add (bias) -> Prelu: the Add and the Prelu are one
    draw (Prelu is deferred as the tables' binary ops are); NaN stays NaN, the alpha broadcasts."""
    x = np.float32([[[[-2.0, 1.0, np.nan], [3.0, -0.5, -1.0]]]])
    bias, alpha = np.float32([0.5, -2.0, 1.0]), np.float32([0.25, 2.0, -1.0])
    code = """
xs = [tf.tensor(v) for v in (x, bias, alpha)]
y = tf.prelu(tf.add(xs[0], xs[1]), xs[2])
result = y.array_sync()
tf.dispose([y] + xs)
"""
    got, draws = _draws(run_py, code, x=x.tolist(), bias=bias.tolist(), alpha=alpha.tolist())
    t = x + bias
    want = np.where(t < 0, alpha * t, t)
    np.testing.assert_allclose(np.asarray(got, np.float32), want, *tolerance(1e-6, 1e-6))
    assert draws == 1, draws


@_WEBGL_ONLY
def test_long_chains_and_wide_sums_respect_the_program_limits(run_py):
    out = run_py("""
from pytfweb.backends.webgl.programs import fusion
before = set(tf.backend().programs)
x = tf.tensor([1.0, -2.0])
y = x
for _ in range(100):
    y = y + 1                   # 100 ops: drawn in programs of at most MAX_NODES
z = x
for _ in range(40):
    z = z + z                   # a DAG that inlining would double 40 times
parts = [tf.tensor([float(i), -float(i)]) for i in range(30)]
s = parts[0]
for p in parts[1:]:
    s = s + p                   # 30 textures read: at most MAX_LEAVES per program
values = [list(y.data_sync()), list(z.data_sync()), list(s.data_sync())]
keys = [k[0] for k in tf.backend().programs if k not in before and k[0].startswith('fused:')]
result = values + [fusion.MAX_NODES, fusion.MAX_LEAVES, max(k.count('= op_') for k in keys),
                   max(k.count('  float in') for k in keys)]
tf.dispose([x, y, z, s] + parts)
""")
    y, z, s, max_nodes, max_leaves, most_ops, most_inputs = out
    want_z = as_stored(np.float32([2.0 ** 40, -2.0 * 2 ** 40]))    # beyond half floats: +-inf
    assert y == [101.0, -2.0 + 100] and lost_infinities(np.asarray(z, np.float32), want_z).tolist() == want_z.tolist()
    assert s == [float(sum(range(30))), -float(sum(range(30)))]
    assert most_ops <= max_nodes and most_inputs <= max_leaves


@_WEBGL_ONLY
def test_profile_and_time_still_see_every_kernel(run_py):
    out = run_py("""
x = tf.tensor([[1.0, 2.0], [3.0, 4.0]])
info = await tf.profile(lambda: tf.exp(x + 1) * 2)
names = [k.name for k in info.kernels]
result = [names, all(k.kernel_ms >= 0 for k in info.kernels), info.result.array_sync()]
tf.dispose([x, info.result])
""")
    names, timed, values = out
    assert names == ["Add", "Exp", "Multiply"] and timed
    np.testing.assert_allclose(values, np.exp(np.array([[2.0, 3.0], [4.0, 5.0]])) * 2, *tolerance(1e-6, 0))


def test_variables_take_values_not_expressions(run_py):
    """An assign draws the expression a variable takes (Backend.settle): state carried from step
    to step stays values, so each step's programs are the same (no recompiles, no growth)."""
    out = run_py("""
be = tf.backend()
v = tf.variable(tf.zeros([4]), name="v_fusion")
g = tf.tensor([1.0, 2.0, 3.0, 4.0])
counts = []
for _ in range(6):
    v.assign(tf.tidy(lambda: v * 0.9 + g * 0.1))
    counts.append(len(be.programs))
    pending = v.data_id in be.pending
result = [pending, counts, list(v.data_sync())]
tf.dispose([v, g])
""")
    pending, counts, values = out
    assert not pending and counts[1:] == [counts[1]] * 5
    np.testing.assert_allclose(values, np.float32([1, 2, 3, 4]) * (1 - 0.9 ** 6), *tolerance(1e-5, 0))


@_WEBGL_ONLY
def test_shapeless_programs_serve_every_shape_and_read_each_layout(run_py):
    """One compile for an expression over inputs read at the output's texel, at one texel, along a
    row of the output's texture or as a trailing part of its shape (flat index modulo its size):
    a batch-norm fold over kernels of three shapes adds one program. The values of every layout,
    and of broadcasts the shapeless form does not take (a column), equal numpy's."""
    rng = np.random.default_rng(11)

    def arr(*shape):
        return rng.normal(size=shape).astype(np.float32)
    folds = [(arr(3, 3, 4, 8), arr(8), arr(8)), (arr(1, 1, 16, 32), arr(32), arr(32)), (arr(5, 7), arr(7), arr(7))]
    for f in folds:
        f[1][:] = np.abs(f[1])
    # trailing parts: sizes a power of two (a mask) or not, dividing the output's texture width
    # (read by column: a batch normalization's statistics over a 100x100 image, its texture rows
    # 100 pixels wide) or not, on textures of one row, one column or several rows
    cases = {"same": (arr(2, 3, 4), arr(2, 3, 4)), "suffix": (arr(2, 6, 10), arr(6, 10)),
             "suffix_column_texture": (arr(3, 3, 5, 1), arr(5, 1)), "suffix_mask": (arr(2, 4, 8), arr(4, 8)),
             "channels_mask": (arr(1, 100, 100, 8), arr(8)), "channels_mod": (arr(1, 100, 100, 6), arr(6)),
             "column": (arr(4, 5), arr(4, 1)), "view": (arr(4, 6), arr(6, 4))}
    ints = (rng.integers(-50, 50, size=(3, 4)).astype(np.int32), rng.integers(-50, 50, size=(4,)).astype(np.int32))
    got, added = run_py("""
be = tf.backend()
def fold(k, v, g):
    return k * tf.rsqrt(v + 1e-3) * g
def count():
    tf.tidy(lambda: None)
    return len(be.programs)
added, fold_results = [], []
for k, v, g in folds:
    ts = [tf.tensor(a) for a in (k, v, g)]
    for t in ts:
        t.data_sync()                       # on the GPU, so that each is a leaf
    n = count()
    out = fold(*ts)
    fold_results.append(out.array_sync())
    added.append(count() - n)
    tf.dispose(ts + [out])
results = {"folds": fold_results}
for name, (a, b) in cases.items():
    x, y = tf.tensor(a), tf.tensor(b)
    if name == "view":
        x = tf.reshape(x + 0, [6, 4])       # drawn as [4, 6]: a texture 6 wide read as [6, 4]
    x.data_sync(); y.data_sync()
    results[name] = tf.tidy(lambda: tf.sigmoid(x) * y - x).array_sync()
    tf.dispose([x, y])
s = tf.sum(tf.tensor(cases["same"][0]))
s.data_sync()
x = tf.tensor(cases["same"][1])
results["one"] = tf.tidy(lambda: x * s + 1).array_sync()
i, j = tf.tensor(ints[0]), tf.tensor(ints[1])
i.data_sync(); j.data_sync()
results["int32"] = tf.tidy(lambda: i * j - i).array_sync()
tf.dispose([s, x, i, j])
result = [results, added]
""", folds=[[a.tolist() for a in f] for f in folds], cases={k: [a.tolist() for a in v] for k, v in cases.items()},
        ints=[a.tolist() for a in ints])
    assert added[0] >= 1 and added[1:] == [0, 0], added
    tol = tolerance(1e-5, 1e-6)
    for (k, v, g), out in zip(folds, got["folds"]):
        np.testing.assert_allclose(out, k / np.sqrt(v + np.float32(1e-3)) * g, *tol)
    for name, (a, b) in cases.items():
        if name == "view":
            a = a.reshape(6, 4)
        want = 1 / (1 + np.exp(-a)) * b - a
        np.testing.assert_allclose(got[name], want, *tol, err_msg=name)
    np.testing.assert_allclose(got["one"], cases["same"][1] * cases["same"][0].sum() + 1, *tolerance(1e-5, 1e-5))
    np.testing.assert_array_equal(got["int32"], ints[0] * ints[1] - ints[0])



def test_products_read_by_elementwise_ops_equal_cpu(compare_with_cpu):
    """A convolution's or matmul's product left pending (gemm.unpack's lazy form) under the ops a
    graph model puts after it: the fused bias and activation, a residual add, an activation, a
    prelu; read broadcast (computed first), under another shape, by a second product (a 1x1
    convolution packs its image from the blocks: a depthwise convolution's, an image width not a
    multiple of four, or a GEMM's, with the bias and activation after them applied as it packs; a
    3x3 convolution's patches from the blocks too), summed by AddN (chained adds), and with an
    activation drawn in the unpack (leakyrelu)."""
    rng = np.random.default_rng(5)

    def arr(*shape):
        return rng.normal(size=shape).astype(np.float32)
    compare_with_cpu("""lambda x, w, w2, b, r, dw, a, m, mw, mb, big, odd, dw8, p16, p8: [
        tf.conv2d(tf.depthwise_conv2d(r, dw, 1, "same"), p16, 1, "same"),
        tf.conv2d(tf.depthwise_conv2d(odd, dw8, 1, "same"), p8, 1, "valid") + 1,
        tf.fused.conv2d(tf.conv2d(x, w, 1, "same"), p16, 1, "same", bias=b, activation="relu"),
        tf.conv2d(tf.depthwise_conv2d(r, dw, 2, "same"), p16, 1, "same"),
        tf.relu(tf.fused.conv2d(x, w, 1, "same", bias=b, activation="relu6") + r),
        tf.fused.conv2d(x, w, 1, "same", bias=b, activation="prelu", prelu_activation_weights=a) * 2,
        tf.prelu(tf.depthwise_conv2d(r, dw, 1, "same") + r, a),
        tf.fused.depthwise_conv2d(r, dw, 2, "same", bias=b, activation="relu") - 1,
        tf.fused.conv2d(x, w, 1, "same", bias=b) + big,
        tf.reshape(tf.conv2d(x, w, 1, "same"), [16, 256]) - 1,
        tf.conv2d(tf.conv2d(x, w, 1, "same") + 1, w2, 1, "valid"),
        tf.sigmoid(tf.fused.mat_mul(m, mw, bias=mb, activation="relu") + 1),
        tf.fused.conv2d(x, w, 1, "same", activation="leakyrelu", leakyrelu_alpha=0.1) + r,
        tf.conv2d(tf.fused.depthwise_conv2d(r, dw, 1, "same", bias=b, activation="relu6"), p16, 1, "same"),
        tf.conv2d(tf.prelu(tf.fused.depthwise_conv2d(r, dw, 2, "same", bias=b), a), p16, 1, "same"),
        tf.conv2d(tf.fused.conv2d(x, w, 1, "same", bias=b, activation="relu6"), w2, 2, "same"),
        tf.add_n([tf.conv2d(x, w, 1, "same"), r, tf.fused.conv2d(x, w, 1, "same", bias=b)]),
        tf.conv2d(tf.fused.conv2d(r, p16, 1, "same", bias=b, activation="relu6"), p16, 1, "same"),
        tf.conv2d(tf.prelu(tf.fused.conv2d(r, p16, 1, "same", bias=b), a), p16, 1, "same"),
    ]""", [arr(1, 16, 16, 8), arr(3, 3, 8, 16), arr(3, 3, 16, 8), arr(16), arr(1, 16, 16, 16), arr(3, 3, 16, 1),
           arr(16), arr(64, 96), arr(96, 48), arr(48), arr(2, 16, 16, 16), arr(1, 18, 18, 8), arr(3, 3, 8, 1),
           arr(1, 1, 16, 16), arr(1, 1, 8, 16)], rtol=1e-4, atol=1e-4)



@_WEBGL_ONLY
@pytest.mark.parametrize("block, want", [
    # the pack of the image, the product, then ONE draw for the unpack, bias, activation, add and relu
    ("tf.relu(tf.fused.conv2d(xs[0], xs[1], 1, 'same', bias=xs[2], activation='relu6') + xs[3])", 3),
    # a separable block: the depthwise blocks, the 1x1 convolution's pack of them, the product, its unpack with the add
    ("tf.conv2d(tf.depthwise_conv2d(xs[3], xs[4], 1, 'same'), xs[5], 1, 'same') + xs[3]", 4),
    # MobileNet v2's: the depthwise convolution's bias and relu6 applied by the 1x1 one's pack
    ("tf.add_n([tf.conv2d(tf.fused.depthwise_conv2d(xs[3], xs[4], 1, 'same', bias=xs[2], activation='relu6'),"
     " xs[5], 1, 'same'), xs[3]])", 4),
    # a 1x1 convolution after another: the first's pack and product, the second's pack of the
    # first's blocks (its bias and relu6 applied there), product and unpack
    ("tf.fused.conv2d(tf.fused.conv2d(xs[3], xs[5], 1, 'same', bias=xs[2], activation='relu6'), xs[5], 1, 'same')",
     5)], ids=["residual", "separable", "inverted-residual", "pointwise-pair"])
def test_a_product_and_the_elementwise_ops_after_it_unpack_in_one_draw(run_py, block, want):
    """A graph model's residual block (FusedConv2D with bias and relu6 -> Add -> Relu) and separable
    block (DepthwiseConv2dNative -> 1x1 Conv2D -> Add): no unpack drawn alone (the filters' packs are
    kept from the first call). Nothing is left: tensors and textures as before."""
    rng = np.random.default_rng(6)
    shapes = ((1, 16, 16, 8), (3, 3, 8, 16), (16,), (1, 16, 16, 16), (3, 3, 16, 1), (1, 1, 16, 16))
    x, w, b, r, dw, pw = (rng.normal(size=s).astype(np.float32).tolist() for s in shapes)
    tensors, textures, draws = run_py("""
xs = [tf.tensor(v) for v in (x, w, b, r, dw, pw)]
for t in xs:
    t.data_sync()
block = eval("lambda: " + block)
tf.tidy(lambda: block().data_sync())             # packs the filter once
before = tf.memory()
be = tf.backend()
_draw, _count = be.ctx.draw, [0]
def _counting(*args):
    _count[0] += 1
    return _draw(*args)
be.ctx.draw = _counting
try:
    y = tf.tidy(block)
    y.data_sync()
finally:
    be.ctx.draw = _draw
y.dispose()
after = tf.memory()
tf.dispose(xs)
result = [before.num_tensors - after.num_tensors, before.num_textures_in_use - after.num_textures_in_use,
          _count[0]]
""", x=x, w=w, b=b, r=r, dw=dw, pw=pw, block=block)
    assert (tensors, textures) == (0, 0)
    assert draws == want, draws
