"""webgl indexing kernels against the cpu backend, through the public ops; numeric gradients
and the data-dependent ops (read back) in the page.

Each compare_with_cpu call runs several ops at once: shader compiles dominate on SwiftShader."""
import functools

import numpy as np

from .conftest import F16, gradient_threshold

from . import inputs

rng = np.random.default_rng(31)

_floats, _ints, _bools = (functools.partial(f, rng) for f in (inputs.floats, inputs.ints, inputs.bools))


def test_gather_scatter(compare_with_cpu):
    x, i, b = _floats(3, 4, 2), _ints(5, 3), _bools(4, 2)
    pairs = np.int32([[2, 3], [0, 0], [2, 3], [1, 2]])
    rows = np.int32([[4], [0], [4]])
    one = np.int32([1, 0])
    upd = _floats(4, 2)
    compare_with_cpu("""lambda x, i, b, pairs, rows, one, upd: [
        tf.gather_nd(x, pairs), tf.gather_nd(i, rows), tf.gather_nd(b, one), tf.gather_nd(x, one),
        tf.gather_nd(x, tf.reshape(pairs, [2, 2, 2])),
        tf.scatter_nd(pairs, upd, [3, 4, 2]), tf.scatter_nd(rows, i[:3], [6, 3]), tf.scatter_nd(one, upd[:2, 0], [4]),
        tf.tensor_scatter_update(x, pairs, upd), tf.tensor_scatter_update(i, rows, i[:3] * 0 + 7),
        tf.tensor_scatter_update(b, one[:, None], tf.logical_not(b[:2]))]""",
                     [x, i, b, pairs, rows, one, upd])


def test_mirror_pad_depth_to_space_space_batch(compare_with_cpu):
    x, v, i = _floats(3, 4), _floats(5), _ints(2, 3, 2)
    d, n = _floats(2, 2, 3, 8), _floats(1, 8, 2, 3)
    s = _floats(2, 4, 3, 2)
    compare_with_cpu("""lambda x, v, i, d, n, s: [
        tf.mirror_pad(x, [[1, 2], [3, 0]], "reflect"), tf.mirror_pad(x, [[3, 2], [0, 4]], "symmetric"),
        tf.mirror_pad(v, [[4, 4]], "reflect"), tf.mirror_pad(i, [[1, 1], [0, 2], [2, 0]], "symmetric"),
        tf.depth_to_space(d, 2), tf.depth_to_space(n, 2, "NCHW"),
        tf.space_to_batch_nd(s, [2, 3], [[1, 1], [2, 1]]), tf.space_to_batch_nd(i, [2], [[1, 0]]),
        tf.batch_to_space_nd(s, [2], [[1, 2]]),
        tf.batch_to_space_nd(tf.space_to_batch_nd(s, [2, 3], [[1, 1], [2, 1]]), [2, 3], [[1, 1], [2, 1]])]""",
                     [x, v, i, d, n, s])


def test_segments_search_diag_top_k(compare_with_cpu):
    x = rng.uniform(-5, 5, size=(5, 3)).astype(np.float32)
    ids = np.int32([2, -1, 0, 2, 7])
    seq = np.sort(rng.integers(0, 6, size=(3, 9)), axis=1).astype(np.float32)
    vals = rng.integers(-1, 8, size=(3, 4)).astype(np.float32)
    vals[0, 0] = np.nan
    iseq = np.int32([[-3, 0, 0, 5, 9]])
    d = _floats(2, 3)
    t = np.round(rng.uniform(-3, 3, size=(3, 37)) * 2).astype(np.float32) / 2     # many ties
    ti = rng.integers(-4, 4, size=(2, 5)).astype(np.int32)
    compare_with_cpu("""lambda x, ids, seq, vals, iseq, d, t, ti: [
        tf.unsorted_segment_sum(x, ids, 4), tf.unsorted_segment_sum(tf.cast(x, "int32"), ids, 3),
        tf.search_sorted(seq, vals), tf.search_sorted(seq, vals, "right"),
        tf.lower_bound(iseq, iseq[:, ::-1]), tf.upper_bound(iseq, iseq),
        tf.diag(d), tf.diag(ti[0]),
        *tf.top_k(t, 5), *tf.top_k(t, 37), *tf.top_k(t, 1), *tf.top_k(ti, 3), *tf.top_k(ti[:, :1], 1),
        *tf.top_k(t, 0)]""", [x, ids, seq, vals, iseq, d, t, ti], rtol=1e-5, atol=1e-5)


def test_top_k_of_long_rows(compare_with_cpu):
    """Rows long enough to be cut into chunks (centernet's top 100 of 1.3M scores), the chunk
    maxima cut again (k=1), a last chunk part full, many ties across chunks, NaN, and a row
    mostly -inf where the top k reaches the -inf elements (real ones before the padding).
    Half-float textures hold integers exactly only up to 2048, so there the indices, and the
    rows, stay below it (k=3 and k=1 still chunk), and -inf is -65504 (their draws here store
    infinities as NaN, which would sort first)."""
    n, m = (2047, 2039) if F16 else (40001, 70003)
    x = rng.integers(0, 40, size=(3, n)).astype(np.float32)
    x[1, [5, n - 2, n - 1]] = np.nan
    x[2] = -65504.0 if F16 else -np.inf
    x[2, [3, 777, n - 1]] = [1, -2, 7]
    i = rng.integers(-9, 9, size=(2, m)).astype(np.int32)
    compare_with_cpu("lambda x, i: [*tf.top_k(x, 100), *tf.top_k(x, 3), *tf.top_k(i, 1), *tf.top_k(i, 5)]",
                     [x, i], rtol=0, atol=0)


def test_read_back_ops(compare_with_cpu):
    u = np.float32([3, 1, 3, np.nan, 2, np.nan, -0.0, 0.0, 1])
    m = np.int32([[1, 0, 1], [1, 0, 1], [2, 0, 0]])
    c = _bools(3, 4)
    x = _floats(3, 4, 2)
    compare_with_cpu("""lambda u, m, c, x: [*tf.unique(u), *tf.unique(m), *tf.unique(m, 1), *tf.unique(c, 1),
        tf.broadcast_args(tf.tensor([2, 1, 3], dtype="int32"), tf.tensor([4, 1], dtype="int32")),
        tf.where(c), tf.boolean_mask(x, c), tf.boolean_mask(x, c[0], axis=1),
        *tf.setdiff1d(tf.reshape(m, [-1]), tf.tensor([0, 2], dtype="int32")),
        *tf.meshgrid(u[:3], m[0]), *tf.meshgrid(u[:2], u, indexing="ij")]""", [u, m, c, x])


def test_async_forms_and_gradients_in_the_page(run_py):
    got = run_py("""
from pytfweb.testing import numeric_gradient_error as err
c = tf.tensor([[True, False], [False, True]])
x = tf.tensor([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]])
mask, a, b = tf.tensor([False, True]), tf.tensor([1, 2, 3, 4], dtype="int32"), tf.tensor([2, 4], dtype="int32")
idx = tf.tensor([[1, 2], [0, 0], [1, 2]], dtype="int32")
u = tf.tensor([1.0, 2.0, 3.0])
before = tf.memory().num_tensors
coords = await tf.where_async(c)
masked = await tf.boolean_mask_async(x, mask)
diff = await tf.setdiff1d_async(a, b)
plain = [coords.array_sync(), masked.array_sync(), diff[0].array_sync(), diff[1].array_sync()]
tf.dispose([coords, masked, diff])
errors = {
    "gather_nd": err(lambda x: tf.gather_nd(x, idx), [x]),
    "scatter_nd": err(lambda u: tf.scatter_nd(idx, u, [2, 3]), [u]),
    "mirror_pad": err(lambda x: tf.mirror_pad(x, [[1, 1], [2, 0]], "reflect"), [x]),
    "space_to_batch": err(lambda x: tf.space_to_batch_nd(tf.reshape(x, [1, 2, 3, 1]), [2, 3], [[0, 0], [0, 0]]), [x]),
    "segment_sum": err(lambda x: tf.unsorted_segment_sum(x, tf.tensor([1, -1], dtype="int32"), 2), [x]),
    "top_k": err(lambda x: tf.top_k(x, 2).values, [x]),
    "diag": err(tf.diag, [x]),
}
result = [plain, errors, tf.memory().num_tensors - before]
""")
    plain, errors, leaked = got
    assert plain == [[[0, 0], [1, 1]], [[1.5, 0.25, -0.75]], [1, 3], [0, 2]]
    assert not {k: v for k, v in errors.items() if not v < gradient_threshold(1e-3)}, errors
    assert leaked == 0


def test_nd_programs_with_equal_views_and_other_strides(run_py):
    # gather_nd / scatter_nd bake the leading shape into the shader: [2, 3] and [3, 2] give the
    # same views ([6, 1], indices [2, 2]) and must not share a compiled program
    got = run_py("""
i = tf.tensor([[1, 0], [0, 1]], dtype="int32")
a = tf.gather_nd(tf.reshape(tf.range(0, 6), [2, 3]), i).array_sync()
b = tf.gather_nd(tf.reshape(tf.range(0, 6), [3, 2]), i).array_sync()
c = tf.scatter_nd(i, tf.tensor([1.0, 2.0]), [2, 3]).array_sync()
d = tf.scatter_nd(i, tf.tensor([1.0, 2.0]), [3, 2]).array_sync()
result = [a, b, c, d]
""")
    assert got == [[3, 1], [2, 1], [[0, 2, 0], [1, 0, 0]], [[0, 2], [1, 0], [0, 0]]]
