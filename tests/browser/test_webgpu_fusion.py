"""Lazy elementwise fusion on webgpu (backends/webgpu/programs/fusion.py, flag WEBGPU_FUSION):
results equal cpu's with fusion on and off and need fewer dispatches, one shader per expression
structure (not per value or size), data read by a pending expression kept until it runs, reads
mid-chain, broadcasting, int32/bool, NaN and infinities, attributes, gradients, the limits,
tf.profile and the flag. (That variables take values, not expressions, is test_webgl_fusion.py's
test, which the webgpu pass of `make test` runs on webgpu.)"""
import numpy as np
import pytest

from .test_webgpu_backend import compare_webgpu, webgpu  # noqa: F401  (fixtures)

RNG = np.random.default_rng(5)

MIXED = ("lambda a, b, c, i: [tf.maximum(tf.sqrt(tf.square(tf.where(t > 1, t, c) - 0.5) + 1e-3) / (tf.abs(b) + 1), "
         "tf.minimum(a, c)) - tf.sigmoid(a * b) + tf.tanh(c) ** 2 "
         "for t in [tf.exp(tf.neg(tf.abs(a))) * 3 + b]] + "
         "[tf.cast(tf.floor(a * 10), 'int32') % 7 + tf.cast(b > 0, 'int32') * i, "
         "tf.logical_and(a > 0, tf.logical_not(b < 0)), tf.leaky_relu(a, 0.3) + tf.leaky_relu(b, 0.1), "
         "tf.clip_by_value(a * 4, -1.5, 2.5) - tf.step(b, 0.25), tf.sum(tf.relu6(a * 9) * c)]")


def _mixed_inputs():
    a = RNG.normal(size=(4, 1, 5)).astype(np.float32)
    a = (np.round(a * 20) / 20 + 0.025).astype(np.float32)   # a * 10 away from integers: floor agrees
    b = RNG.normal(size=(3, 5)).astype(np.float32)
    c = RNG.normal(size=(5,)).astype(np.float32)
    i = RNG.integers(-50, 50, size=(3, 1)).astype(np.int32)
    return [a, b, c, i]


def _dispatches(webgpu, code, **values):
    """(result of code, dispatches it made)."""
    return webgpu("be = tf.backend()\n_before = be.dispatches\n" + code
                  + "\nresult = [result, be.dispatches - _before]", **values)


@pytest.mark.parametrize("fused", [True, False], ids=["fused", "unfused"])
def test_results_equal_cpu_with_fusion_on_and_off(compare_webgpu, webgpu, fused):
    webgpu(f"tf.env().set('WEBGPU_FUSION', {fused})")
    compare_webgpu(MIXED, _mixed_inputs(), rtol=1e-5, atol=1e-5)


def test_fewer_dispatches_and_the_flag_off_dispatches_per_op(webgpu):
    code = """
fn = eval(src, {"tf": tf})
xs = [tf.tensor(v, dtype=d) for v, d in zip(values, dtypes)]
outs = fn(*xs)
result = [await o.array() for o in outs]
tf.dispose(outs + xs)
"""
    inputs = _mixed_inputs()
    args = dict(src=MIXED, values=[x.tolist() for x in inputs], dtypes=[str(x.dtype) for x in inputs])
    fused, fused_n = _dispatches(webgpu, code, **args)
    webgpu("tf.env().set('WEBGPU_FUSION', False)")
    unfused, unfused_n = _dispatches(webgpu, code, **args)
    for got, want in zip(fused, unfused):
        np.testing.assert_allclose(np.asarray(got, np.float64), np.asarray(want, np.float64), rtol=1e-6, atol=1e-6)
    # measured: 9 against 43 (the flag off: one dispatch per op, as before fusion)
    print("dispatches fused, unfused:", fused_n, unfused_n)
    assert fused_n * 3 < unfused_n, (fused_n, unfused_n)
    per_op = _dispatches(webgpu, "x = tf.tensor([1.0, 2.0])\ny = tf.exp(x * 2 + 1)\nresult = await y.array()")
    np.testing.assert_allclose(per_op[0], np.exp([3.0, 5.0]), rtol=1e-6)
    assert per_op[1] == 3


def test_a_chain_compiles_once_and_is_reused_by_structure(webgpu):
    out = webgpu("""
be = tf.backend()
def chain(x, b):
    return tf.sigmoid(x * b + 1) - tf.leaky_relu(x, alpha) * 0.5
def fused_keys():
    return {k for k in be.programs if k.startswith("fused:")}
result = []
for shape, bshape, alpha in (([3, 4], [4], 0.2), ([5, 4], [4], 0.3), ([2, 7], [7], 0.1), ([6, 4], [6, 1], 0.2),
                             ([6, 4], [6, 4], 0.2)):
    x = tf.random_normal(shape, seed=1)
    b = tf.random_normal(bshape, seed=2)
    n = len(fused_keys())
    before = be.dispatches
    y = chain(x, b)
    values = await y.array()
    result.append([len(fused_keys()) - n, be.dispatches - before, values])
    tf.dispose([x, b, y])
""")
    # the first compiles; other values, sizes, alpha and broadcast axes reuse it (strides are
    # uniforms); b of x's shape is another structure (read at the output's index); one dispatch each
    assert [r[0] for r in out] == [1, 0, 0, 0, 1]
    assert [r[1] for r in out] == [1] * 5
    assert [np.asarray(r[2]).shape for r in out] == [(3, 4), (5, 4), (2, 7), (6, 4), (6, 4)]


def test_dispose_keep_tidy_and_memory_counts(webgpu):
    out = webgpu("""
be = tf.backend()
before = tf.memory()
x = tf.tensor([1.0, 2.0, 3.0])
t = x + 1
u = t * 2                       # pending: reads x
t.dispose()
x.dispose()                     # disposed, but u still reads it
mid = [len(be.pending), len(be.free_later), tf.memory().num_tensors - before.num_tensors]   # (memory() runs u)
values = await u.array()
def f():
    k = tf.keep(tf.exp(tf.tensor([0.0, 1.0])) + 1)   # kept (pending) ...
    keep.append(k)
    return k * 3                                       # ... returned: the tidy frees the rest
keep = []
kept = tf.tidy(f)
values_k = [await kept.array(), await keep[0].array()]
five = tf.tensor([5.0, 6.0])
dropped = five * 3              # never computed
five.dispose()                  # kept for dropped ...
held = five.data_id in be.store
tf.dispose([u, kept, keep[0], dropped])   # ... and freed with it
after = tf.memory()
result = [mid, values, values_k, held, five.data_id in be.store, after.num_tensors - before.num_tensors,
          after.num_buffers_in_use - before.num_buffers_in_use, len(be.pending), len(be.leaf_refs),
          len(be.free_later)]
""")
    mid, values, values_k, held, still_held, tensors, buffers, pending, refs, later = out
    assert mid == [1, 1, 1] and values == [4.0, 6.0, 8.0]
    np.testing.assert_allclose(values_k, [[6.0, 3 * (1 + np.e)], [2.0, 1 + np.e]], rtol=1e-6)
    assert held and not still_held
    assert [tensors, buffers, pending, refs, later] == [0, 0, 0, 0, 0]


def test_memory_counts_as_if_every_op_had_run(webgpu):
    out = webgpu("""
before = tf.memory()
x = tf.ones([4])
t = x + 1
ys = [x, t, t * 2]
m = tf.memory()
result = [m.num_tensors - before.num_tensors, m.num_buffers_in_use - before.num_buffers_in_use,
          len(tf.backend().pending)]
tf.dispose(ys)
""")
    assert out == [3, 3, 0]


def test_reads_mid_chain(compare_webgpu):
    src = ("lambda x: [y for t in [x * 2 + 1] for y in [t, tf.exp(t) - x, tf.sum(t), tf.reshape(t * 3, [-1]) + 1, "
           "tf.concat([t, t - 1], 0)]]")
    compare_webgpu(src, [RNG.normal(size=(3, 4)).astype(np.float32)])


def test_reads_mid_chain_in_order(webgpu):
    out = webgpu("""
x = tf.tensor([1.0, -2.0, 3.0])
a = x * 2
b = a + 1
first = await b.array()         # b's expression runs (it inlines a)
c = tf.abs(a) + b               # a still pending; b now data
d = tf.reshape(c, [3, 1]) * tf.tensor([[1.0, 10.0]])   # c read under another shape
result = [first, await a.array(), await c.array(), await d.array()]
""")
    first, a, c, d = out
    assert first == [3.0, -3.0, 7.0] and a == [2.0, -4.0, 6.0] and c == [5.0, 1.0, 13.0]
    assert d == [[5.0, 50.0], [1.0, 10.0], [13.0, 130.0]]


def test_broadcasting_ranks_0_to_4(compare_webgpu):
    shapes = [(2, 1, 3, 1), (4, 1, 1), (), (1, 3, 4), (3, 1)]
    xs = [RNG.normal(size=s).astype(np.float32) for s in shapes]
    compare_webgpu("lambda a, b, c, d, e: [tf.sigmoid(a * b + c) - d / (tf.abs(e) + 1), (a + c) * 2, c * c + 1, "
                   "tf.where(a > d, b, e * c)]", xs, rtol=1e-5, atol=1e-6)


def test_int32_and_bool(compare_webgpu):
    i = RNG.integers(-1000, 1000, size=(3, 4)).astype(np.int32)
    j = np.int32([3, -7, 2 ** 31 - 1, -2 ** 31])
    m = RNG.uniform(size=(3, 4)) < 0.5
    compare_webgpu("lambda i, j, m: [(i * j + 5) % 7 - tf.abs(i) // 3, tf.cast(i > 0, 'int32') + tf.cast(m, 'int32'), "
                   "tf.logical_or(tf.logical_and(m, i > j), tf.logical_not(m)), tf.where(m, i, j * 2), "
                   "tf.cast(tf.cast(i, 'float32') * 0.5, 'int32'), tf.cast(i % 2, 'bool'), -j + j * j, "
                   "tf.clip_by_value(i, -10.5, 20.5), tf.cast(m, 'float32') * 2.5]", [i, j, m])


def test_nan_and_infinities(compare_webgpu):
    x = np.float32([[0.0, -0.0, 1.0, -1.0], [np.inf, -np.inf, np.nan, 2.0]])
    y = np.float32([np.nan, 0.0, np.inf, -3.0])
    compare_webgpu("lambda x, y: [tf.exp(x) * y - tf.log(tf.abs(x)), tf.sqrt(x) + tf.sigmoid(x) * y, x / y, "
                   "tf.is_nan(x * y), tf.is_inf(x + y), tf.cast(x, 'int32') + tf.cast(y, 'int32'), "
                   "tf.maximum(x, y) - tf.minimum(x, y * 0), x + tf.scalar(float('nan')), "
                   "tf.where(tf.is_finite(x), x, tf.scalar(float('inf'))) * -1, tf.relu(x) - tf.elu(-x)]", [x, y])


def test_gradient_through_a_fused_chain(compare_webgpu):
    x = RNG.normal(size=(3, 4)).astype(np.float32)
    b = RNG.normal(size=(4,)).astype(np.float32)
    compare_webgpu("lambda x, b: tf.grads(lambda x, b: tf.sum(tf.tanh(x * b + 1) * tf.sigmoid(x) - tf.square(b) "
                   "+ tf.leaky_relu(x - b, 0.2)))([x, b])", [x, b], rtol=1e-5, atol=1e-6)


def test_long_chains_and_wide_sums_respect_the_limits(webgpu):
    out = webgpu("""
from pytfweb.backends.webgpu.programs import fusion
be = tf.backend()
x = tf.tensor([1.0, -2.0])
y = x
for _ in range(200):
    y = y + 1                   # 200 ops: in shaders of at most MAX_NODES
z = x
for _ in range(40):
    z = z + z                   # a DAG that inlining would double 40 times
parts = [tf.tensor([float(i), -float(i)]) for i in range(30)]
s = parts[0]
for p in parts[1:]:
    s = s + p                   # 30 buffers read: at most MAX_LEAVES (or the device's bindings - 1) per shader
keys = [k for k in be.programs if k.startswith('fused:')]
result = [await y.array(), await z.array(), await s.array(), fusion.MAX_NODES,
          min(fusion.MAX_LEAVES, be.device.max_storage_buffers - 1),
          max(k.count('op_Add') for k in keys), max(k.count(' = in') for k in keys)]
tf.dispose([x, y, z, s] + parts)
""")
    y, z, s, max_nodes, max_leaves, most_ops, most_inputs = out
    assert y == [201.0, 198.0] and z == [2.0 ** 40, -2.0 * 2 ** 40]
    assert s == [float(sum(range(30))), -float(sum(range(30)))]
    assert most_ops <= max_nodes and most_inputs <= max_leaves


def test_profile_sees_every_kernel_and_debug_turns_fusion_off(webgpu):
    out = webgpu("""
be = tf.backend()
x = tf.tensor([[1.0, 2.0], [3.0, 4.0]])
info = await tf.profile(lambda: tf.exp(x + 1) * 2)
names = [k.name for k in info.kernels]
values = await info.result.array()
tf.env().set("DEBUG", True)
import io, contextlib
with contextlib.redirect_stdout(io.StringIO()):
    y = tf.exp(x + 1) * 2
result = [names, values, len(be.pending), await y.array()]
""")
    names, values, pending, debug_values = out
    want = (np.exp(np.float32([[2.0, 3.0], [4.0, 5.0]])) * 2).tolist()
    assert names == ["Add", "Exp", "Multiply"] and pending == 0
    np.testing.assert_allclose(values, want, rtol=1e-6)
    np.testing.assert_allclose(debug_values, want, rtol=1e-6)
