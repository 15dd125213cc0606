"""webgl reductions (Sum, Mean, Prod, Max, Min, All, Any, ArgMax, ArgMin) against the cpu backend.

Each compare_with_cpu call runs several ops at once: shader compiles dominate on SwiftShader."""
import numpy as np
import pytest

from .conftest import F16

rng = np.random.default_rng(7)


def _floats(*shape, low=-5, high=5):
    return rng.uniform(low, high, size=shape).astype(np.float32)


def _ints(*shape, low=-50, high=50):
    return rng.integers(low, high, size=shape).astype(np.int32)


def test_float_reductions_over_axes(compare_with_cpu):
    x = _floats(2, 3, 4)
    compare_with_cpu("""lambda x: [tf.sum(x), tf.sum(x, 0), tf.sum(x, [0, 2], keep_dims=True),
        tf.mean(x, -1), tf.mean(x, [1, 2]), tf.max(x, 1), tf.min(x, [0, 1], keep_dims=True),
        tf.prod(x * 0.2, 2)]""", [x])


def test_ranks_and_unit_dims(compare_with_cpu):
    s = np.float32(2.5)
    v = _floats(7)
    x4 = _floats(2, 1, 3, 1)
    compare_with_cpu("""lambda s, v, x4: [tf.sum(s), tf.max(s, []), tf.mean(v), tf.min(v, keep_dims=True),
        tf.sum(x4, [1, 3]), tf.sum(x4, [1, 3], keep_dims=True), tf.max(x4, [0, 2]), tf.mean(x4, [0, 1, 3]),
        tf.sum(x4, [])]""", [s, v, x4])


def test_int32_and_bool(compare_with_cpu):
    x = _ints(3, 5)
    small = _ints(2, 6, low=-3, high=4)
    b = rng.uniform(size=(3, 4)) < 0.5
    b[0] = True          # a row of all True
    b[1] = False         # a row of all False
    compare_with_cpu("""lambda x, small, b: [tf.sum(x), tf.sum(x, 0), tf.max(x, 1), tf.min(x, keep_dims=True),
        tf.prod(small, 1), tf.mean(x, 1), tf.sum(b, 1), tf.prod(b, 0), tf.max(b, 1), tf.min(b, 1),
        tf.all(b, 1), tf.any(b, 1), tf.all(b), tf.any(b, 0, keep_dims=True)]""", [x, small, b])


def test_edge_values(compare_with_cpu):
    x = np.array([[1.0, np.nan, 3.0], [np.inf, 1.0, -np.inf], [np.inf, 2.0, 1e30], [-1e38, -1e38, 5.0]],
                 dtype=np.float32)
    compare_with_cpu("lambda x: [tf.sum(x, 1), tf.mean(x, 1), tf.max(x, 1), tf.min(x, 1), tf.prod(x, 1),"
                     " tf.max(x, 0), tf.min(x, 0)]", [x])


def test_several_passes(compare_with_cpu):
    """5000 values take two passes; rows of 5000 along axis 0 exercise strided reads."""
    v = _floats(5000)
    v[4321] = np.nan
    w = _floats(5000)
    m = _floats(5000, 3)
    i = _ints(5000, low=-100, high=100)     # partial sums within half floats' range too
    compare_with_cpu("lambda v, w, m, i: [tf.max(v), tf.min(w), tf.max(m, 0), tf.min(m, 0), tf.sum(i), "
                     "tf.max(i)]", [v, w, m, i])
    # float sums in a different order than numpy's pairwise summation
    compare_with_cpu("lambda w, m: [tf.sum(w), tf.mean(w), tf.sum(m, 0), tf.mean(m, 0)]", [w, m],
                     rtol=1e-4, atol=1e-3)


@pytest.mark.skipif(F16, reason="indices past 2**11 are not exact in half-float textures (nor in TF.js's)")
def test_arg_reductions_in_several_passes(compare_with_cpu):
    """5000 values: each pass's winners are indices into the axis, carried in a texture."""
    w, m = _floats(5000), _floats(5000, 3)
    compare_with_cpu("lambda w, m: [tf.arg_max(w), tf.arg_min(m, 0), tf.arg_max(m, 0)]", [w, m])


@pytest.mark.skipif(F16, reason="a property of float32 textures (integers exact to 2**24); half floats hold 2**11")
def test_int32_sum_is_exact(compare_with_cpu):
    # Each value travels exactly as a float (|v| <= 2**24), but a partial sum, 2**25 + 1, would not.
    x = np.array([16777215, 16777215, 3, -16777215, -16777215], dtype=np.int32)
    compare_with_cpu("lambda x: [tf.sum(x), tf.prod(tf.tensor([4096, 4097], dtype='int32'))]", [x])


def test_empty_reductions(compare_with_cpu):
    f = np.zeros((3, 0), np.float32)
    i = np.zeros((2, 0), np.int32)
    b = np.zeros((2, 0), np.bool_)
    compare_with_cpu("""lambda f, i, b: [tf.sum(f, 1), tf.prod(f, 1), tf.mean(f, 1), tf.max(f, 1),
        tf.min(f, 1), tf.sum(f, 0), tf.max(i, 1), tf.min(i, 1), tf.sum(i, 1), tf.all(b, 1), tf.any(b, 1),
        tf.max(b, 1), tf.sum(f)]""", [f, i, b])


def test_arg_max_arg_min(compare_with_cpu):
    x = np.array([[3.0, 1.0, 3.0, -2.0], [np.nan, 5.0, np.nan, -1.0], [0.0, 0.0, 0.0, 0.0]], dtype=np.float32)
    cube = _ints(2, 3, 4, low=0, high=3)  # many ties
    compare_with_cpu("""lambda x, cube: [tf.arg_max(x, 1), tf.arg_min(x, -1), tf.arg_max(x), tf.arg_min(x, 0),
        tf.arg_max(cube, 1), tf.arg_min(cube, 2), tf.arg_max(tf.tensor([2.0, 7.0, 7.0]))]""", [x, cube])


def test_arg_max_long_axis_keeps_the_first_tie(compare_with_cpu):
    x = _ints(3, 700, low=0, high=100)
    x[:, 650] = 100
    x[:, 123] = 100
    x[1, 5] = -1
    compare_with_cpu("lambda x: [tf.arg_max(x, 1), tf.arg_min(x, 1)]", [x])


def test_arg_max_nan_across_passes(compare_with_cpu):
    """TF.js's scan: a NaN wins only at index 0, also when it opens a later pass's window."""
    x = _floats(4, 700)
    x[0, 0] = np.nan          # wins
    x[1, 27] = np.nan         # the start of the second window (27 values a window): loses
    x[1, 30] = 50.0
    x[2, ::27] = np.nan       # every window starts with NaN, index 0 too
    x[3, 1:] = np.nan         # only index 0 is a number
    compare_with_cpu("lambda x: [tf.arg_max(x, 1), tf.arg_min(x, 1), tf.arg_max(x[:, 1:], 1)]", [x])


@pytest.mark.parametrize("op", ["tf.sum(x)", "tf.mean(x, 0)", "tf.arg_max(x)"])
def test_no_texture_leaks(run_py, op):
    """Intermediate passes are freed: only the input and the result hold textures."""
    in_use = run_py(f"""
x = tf.tidy(lambda: tf.ones([5000]) + 0)   # computed, so it holds its texture already
before = in_use()
y = {op}
y.data_sync()
after = in_use()
tf.dispose([x, y])
result = [before, after]
""")
    assert in_use[1] == in_use[0] + 1


@pytest.mark.webgl_only("webgl's float sums carry each addition's rounding error (webgpu's add plainly)")
@pytest.mark.skipif(F16, reason="the partial sums of several passes are stored in half floats there")
def test_float_sums_keep_their_rounding_errors(run_py):
    """Sum and Mean as exact as TF.js's cpu backend (which sums in float64), in one pass and in
    several: a running float32 sum loses 1e-8 added to 1 every time, and 1 between 1e8 and -1e8."""
    got = run_py("""
rows = tf.tensor([[1e8, 1, -1e8], [3e38, 3e38, -3e38]])
short = tf.concat([tf.ones([1]), tf.fill([99], 1e-8)])
long = tf.concat([tf.ones([1]), tf.fill([4999], 1e-8)])
result = [tf.sum(rows, 1), tf.mean(rows, 1), tf.sum(short), tf.sum(long), tf.mean(long)]
""")
    assert got[0].tolist() == [1.0, np.inf]
    assert got[1][0] == np.float32(1 / 3) and got[1][1] == np.inf
    for value, n, divisor in ((got[2], 100, 1), (got[3], 5000, 1), (got[4], 5000, 5000)):
        exact = (1 + (n - 1) * float(np.float32(1e-8))) / divisor
        assert abs(float(value) - exact) <= 2 * np.spacing(np.float32(exact)), (n, divisor, float(value), exact)
