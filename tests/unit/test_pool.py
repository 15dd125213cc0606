"""Pooling on the cpu backend: max_pool, avg_pool, max_pool3d, avg_pool3d, max_pool_with_argmax,
pool against a loop-by-loop numpy reference (and values from TF.js 4.22), their gradients
(numeric and exact), and errors."""
import functools
import itertools
import math

import numpy as np
import pytest

import pytfweb as tf
from pytfweb.testing import numeric_gradient_error

from .helpers import assert_raises, assert_tensor
from .helpers import assert_gradients_match_numeric, gradients_at

rng = np.random.default_rng(3)


def spread(*shape):
    """Distinct values at least 0.1 apart and 0.05 away from 0 (the padding of a dilated pool):
    no ties, and a numeric step of 1e-2 moves no maximum."""
    return (rng.permutation(math.prod(shape)) * 0.1 - 1.95).astype(np.float32).reshape(shape)


ROUNDING = {None: math.trunc, "floor": math.floor, "ceil": math.ceil, "round": lambda v: math.floor(v + 0.5)}


def geometry(spatial, filters, strides, pad, dilations=None, rounding=None):
    """(pad before, output size) per axis, as TF.js computes them (per axis, where TF.js's
    numeric padding uses the first axis's filter and stride for both)."""
    dilations = dilations or [1] * len(spatial)
    out = []
    for n, f, s, d, i in zip(spatial, filters, strides, dilations, range(len(spatial))):
        eff = (f - 1) * d + 1
        if pad == "same":
            o = -(-n // s)
            out.append((max(0, (o - 1) * s + eff - n) // 2, o))
        elif pad == "valid":
            out.append((0, -(-(n - eff + 1) // s)))
        else:
            before, after = (pad, pad) if isinstance(pad, int) else pad[i + 1]
            v = (n - eff + before + after) / s + 1
            out.append((before, ROUNDING[rounding](v)))
    return out


def reference_pool(x, filters, strides, pad, kind, dilations=None, rounding=None):
    """Loops over every window of x [batch, *spatial, channels]; positions outside are skipped."""
    spatial = x.shape[1:-1]
    dilations = dilations or [1] * len(spatial)
    geo = geometry(spatial, filters, strides, pad, dilations, rounding)
    out = np.zeros((x.shape[0], *[o for _, o in geo], x.shape[-1]), np.float64)
    for pos in itertools.product(*[range(o) for _, o in geo]):
        values = []
        for k in itertools.product(*[range(f) for f in filters]):
            at = [p * s - b + kk * d for p, s, (b, _), kk, d in zip(pos, strides, geo, k, dilations)]
            if all(0 <= a < n for a, n in zip(at, spatial)):
                values.append(x[(slice(None), *at, slice(None))].astype(np.float64))
        if not values:
            out[(slice(None), *pos, slice(None))] = -np.inf if kind == "max" else 0
            continue
        stack = np.stack(values)
        out[(slice(None), *pos, slice(None))] = stack.max(0) if kind == "max" else stack.mean(0)
    return out


CASES_2D = [  # (x shape, filter, strides, pad, rounding)
    ((2, 5, 6, 3), [2, 2], [2, 2], "valid", None),
    ((2, 5, 6, 3), [3, 2], [1, 2], "same", None),
    ((1, 7, 4, 2), [3, 3], [2, 2], "same", None),
    ((1, 4, 4, 1), [2, 3], [1, 1], 1, None),
    ((1, 5, 5, 2), [3, 3], [2, 2], 1, "ceil"),
    ((1, 5, 5, 2), [2, 2], [2, 2], 0, "round"),
    ((2, 4, 5, 1), [2, 2], [3, 2], [[0, 0], [1, 2], [0, 1], [0, 0]], "floor"),
    ((1, 1, 1, 3), [1, 1], [1, 1], "same", None),
]


@pytest.mark.parametrize("shape, filters, strides, pad, rounding", CASES_2D, ids=str)
def test_max_and_avg_pool_against_reference(shape, filters, strides, pad, rounding):
    x = spread(*shape)
    for kind, fn in (("max", tf.max_pool), ("avg", tf.avg_pool)):
        got = fn(x, filters, strides, pad, rounding)
        assert_tensor(got, reference_pool(x, filters, strides, pad, kind, rounding=rounding), "float32")


CASES_3D = [
    ((1, 3, 4, 5, 2), [2, 2, 2], [1, 1, 1], "same"),
    ((2, 4, 3, 3, 1), [2, 3, 2], [2, 1, 2], "valid"),
    ((1, 3, 3, 4, 2), [1, 2, 3], [1, 2, 2], 1),
]


@pytest.mark.parametrize("shape, filters, strides, pad", CASES_3D, ids=str)
def test_pool3d_against_reference(shape, filters, strides, pad):
    x = spread(*shape)
    assert_tensor(tf.max_pool3d(x, filters, strides, pad), reference_pool(x, filters, strides, pad, "max"))
    assert_tensor(tf.avg_pool3d(x, filters, strides, pad), reference_pool(x, filters, strides, pad, "avg"))


def test_unbatched_inputs_and_dtypes():
    x = spread(5, 4, 3)
    assert_tensor(tf.max_pool(x, 2, 1, "same"), reference_pool(x[None], [2, 2], [1, 1], "same", "max")[0])
    x3 = spread(3, 3, 4, 2)
    assert_tensor(tf.avg_pool3d(x3, 2, 1, "valid"), reference_pool(x3[None], [2] * 3, [1] * 3, "valid", "avg")[0])
    ints = rng.integers(-20, 20, size=(1, 4, 4, 2)).astype(np.int32)
    assert_tensor(tf.max_pool(ints, 2, 2, "valid"), reference_pool(ints, [2, 2], [2, 2], "valid", "max"), "int32")
    # as TF.js: avg_pool takes float32 tensors only (values become float32); max_pool3d gives float32
    with pytest.raises(TypeError, match="float32"):
        tf.avg_pool(tf.tensor(ints), 2, 1, "valid")
    assert tf.avg_pool([[[[1]]]], 1, 1, "valid").dtype == "float32"
    assert tf.max_pool3d(tf.tensor(ints[None]), 1, 1, "valid").dtype == "float32"
    assert tf.max_pool(tf.zeros([0, 4, 4, 2]), 2, 2, "same").shape == (0, 2, 2, 2)


def test_edge_values():
    x = np.array([1.0, np.nan, -np.inf, 3.0, np.inf, -2.0, 0.5, -1.0, np.nan], np.float32).reshape(1, 3, 3, 1)
    # as TF.js's pool loop (value > best from -Infinity): NaN never wins a max; it spreads in a mean
    assert_tensor(tf.max_pool(x, 2, 1, "valid"), np.array([np.inf, np.inf, np.inf, np.inf]).reshape(1, 2, 2, 1))
    assert_tensor(tf.avg_pool(x, 2, 1, "valid"), np.array([np.nan, np.nan, np.inf, np.nan]).reshape(1, 2, 2, 1))
    # explicit padding can leave a window with nothing inside: -inf for max, NaN (0 / 0) for avg
    far = [[0, 0], [0, 0], [3, 0], [0, 0]]
    assert_tensor(tf.max_pool(x, 1, 1, far)[0, 0, :, 0], [-np.inf, -np.inf, -np.inf, 1.0, -np.inf, -np.inf])
    assert_tensor(tf.avg_pool(x, 1, 1, far)[0, 0, :, 0], [np.nan, np.nan, np.nan, 1.0, np.nan, -np.inf])


def test_a_one_by_one_window_of_the_input_shape_returns_x():
    """TF.js's 2-D pooling kernels return x when the window is 1 x 1 and the output has x's shape
    (identity_pool_test, 'x=[1,1,1] f=[1,1] s=1'): NaN stays NaN, int32 stays int32. With strides
    or in 3-D the kernels pool (NaN loses the max)."""
    x = np.array([np.nan, 1.0, np.inf, -np.inf, 0.5, -2.0], np.float32).reshape(1, 2, 3, 1)
    for pool in (tf.max_pool, tf.avg_pool):
        for pad in ("valid", "same", 0):
            assert_tensor(pool(x, 1, 1, pad), x)
        assert_tensor(pool(x[0], [1, 1], [1, 1], "valid"), x[0])
    assert_tensor(tf.pool(x, [1, 1], "max", "valid"), x)
    ints = tf.tensor([[[[7], [-3]]]], dtype="int32")
    assert_tensor(tf.max_pool(ints, 1, 1, "valid"), [[[[7], [-3]]]], "int32")
    assert_tensor(tf.max_pool(x, 1, [1, 2], "valid"), np.array([-np.inf, np.inf, -np.inf, -2.0]).reshape(1, 2, 2, 1))
    x5 = x.reshape(1, 1, 2, 3, 1)
    assert_tensor(tf.max_pool3d(x5, 1, 1, "valid"), np.where(np.isnan(x5), -np.inf, x5))
    assert_tensor(tf.avg_pool3d(x5, 1, 1, "valid"), x5)
    r = tf.range(0, 150).reshape([1, 10, 15, 1])      # identity_pool_test's '1x1 pool size with strides'
    assert_tensor(tf.max_pool(r, [1, 1], [3, 4], "valid").reshape([-1]),
                  [0, 4, 8, 12, 45, 49, 53, 57, 90, 94, 98, 102, 135, 139, 143, 147])
    g = tf.grad(lambda t: tf.max_pool(t, 1, 1, "valid"))(tf.tensor(x), tf.ones([1, 2, 3, 1]))
    assert_tensor(g, np.ones((1, 2, 3, 1)))
    tf.dispose([ints, r, g])


def tfjs_input():
    return np.sin(np.arange(120) * 1.7).astype(np.float32).reshape(2, 5, 4, 3)


def test_values_from_tfjs():
    """Printed by TF.js 4.22 (tfjs-backend-cpu) for the same input."""
    x = tfjs_input()
    np.testing.assert_allclose(tf.max_pool(x, [2, 3], [2, 1], "same").numpy().ravel()[:6],
                               [0.9997928738594055, 0.9916648268699646, 0.79848712682724, 0.9997928738594055,
                                0.9916648268699646, 0.8591617941856384], rtol=1e-6)
    np.testing.assert_allclose(tf.pool(x, [2, 2], "avg", "same", [2, 2]).numpy().ravel()[:6],
                               [0.08976458758115768, 0.21981826424598694, -0.14640933275222778,
                                0.067858025431633, 0.1661728173494339, -0.11067892611026764], rtol=1e-5)
    np.testing.assert_allclose(tf.pool(x, [2, 2], "max", "same", [2, 2]).numpy().ravel()[:6],
                               [0.35905835032463074, 0.8792730569839478, 0, 0.9997928738594055,
                                0.7733278870582581, 0.529082715511322], rtol=1e-6)
    indexes = tf.max_pool_with_argmax(x, [2, 2], [2, 2], "same", True).indexes
    assert indexes.numpy().ravel()[:12].tolist() == [12, 1, 5, 9, 19, 23, 27, 37, 38, 45, 34, 35]


def test_pool_with_dilations_pools_zero_padding():
    """As TF.js (space_to_batch_nd): a dilated 'same' window sees zeros around x, counted."""
    x = spread(1, 6, 5, 2) - 10   # all negative: the padding's zeros win the maxima at the border
    for kind in ("max", "avg"):
        padded = np.pad(x, [(0, 0), (1, 1), (1, 1), (0, 0)])
        want = reference_pool(padded, [2, 2], [1, 1], "valid", kind, dilations=[2, 2])
        assert_tensor(tf.pool(x, [2, 2], kind, "same", [2, 2]), want)
        assert_tensor(tf.pool(x, [3, 2], kind, "valid", [1, 2]),
                      reference_pool(x, [3, 2], [1, 1], "valid", kind, dilations=[1, 2]))
    assert_tensor(tf.pool(x[0], 2, "max", "same", strides=2), reference_pool(x, [2, 2], [2, 2], "same", "max")[0])


def test_max_pool_with_argmax():
    x = spread(2, 4, 5, 3)
    out = tf.max_pool_with_argmax(x, 3, 2, "same")
    want = reference_pool(x, [3, 3], [2, 2], "same", "max")
    assert_tensor(out.result, want)
    flat = x.reshape(2, -1)
    for b in range(2):
        np.testing.assert_array_equal(flat[b][out.indexes.numpy()[b]], want[b].astype(np.float32))
    with_batch = tf.max_pool_with_argmax(x, 3, 2, "same", include_batch_in_index=True).indexes.numpy()
    np.testing.assert_array_equal(with_batch[1], out.indexes.numpy()[1] + 4 * 5 * 3)
    ties = tf.max_pool_with_argmax(np.ones((1, 2, 2, 1), np.float32), 2, 1, "valid").indexes
    assert ties.numpy().ravel().tolist() == [0]   # the first maximum


# --- gradients ---------------------------------------------------------------------------------

TOL = 1e-2


check = functools.partial(assert_gradients_match_numeric, tol=TOL)


@pytest.mark.parametrize("shape, filters, strides, pad, rounding", CASES_2D[:7], ids=str)
def test_gradients_2d_numeric(shape, filters, strides, pad, rounding):
    x = spread(*shape)
    check(lambda t: tf.max_pool(t, filters, strides, pad, rounding), x)
    check(lambda t: tf.avg_pool(t, filters, strides, pad, rounding), x)


@pytest.mark.parametrize("shape, filters, strides, pad", CASES_3D, ids=str)
def test_gradients_3d_numeric(shape, filters, strides, pad):
    x = spread(*shape)
    check(lambda t: tf.max_pool3d(t, filters, strides, pad), x)
    check(lambda t: tf.avg_pool3d(t, filters, strides, pad), x)


def test_gradients_of_composites_numeric():
    x = spread(1, 5, 4, 2)
    check(lambda t: tf.pool(t, 2, "max", "same", 2), x)
    check(lambda t: tf.pool(t, [2, 3], "avg", "valid", [2, 1]), x)
    check(lambda t: tf.max_pool_with_argmax(t, 2, 1, "same").result, x)
    check(lambda t: tf.max_pool(t[0], 3, 1, "same"), x)


def test_gradients_exact():
    x = spread(1, 4, 4, 1)
    dy = spread(1, 2, 2, 1)
    g = tf.grad(lambda t: tf.max_pool(t, 3, 2, "same"))(tf.tensor(x), tf.tensor(dy)).numpy()
    want = np.zeros_like(x)
    for i, j in itertools.product(range(2), range(2)):
        # 'same' pads 0 before and 1 after: window (i, j) covers rows 2i .. 2i + 2 inside x
        window = x[0, 2 * i:2 * i + 3, 2 * j:2 * j + 3, 0]
        r, c = np.unravel_index(np.argmax(window), window.shape)
        want[0, 2 * i + r, 2 * j + c, 0] += dy[0, i, j, 0]
    np.testing.assert_allclose(g, want)
    # avg: each window's dy spread over its positions inside x (a corner window of 3x3 'same'
    # holds 4 of them, an edge one 6), not over the whole filter as TF.js does
    g = tf.grad(lambda t: tf.avg_pool(t, 3, 1, "same"))(tf.tensor(x)).numpy()[0, :, :, 0]
    along = np.array([2, 3, 3, 2])
    share = 1 / np.outer(along, along)
    want = np.zeros((4, 4))
    for i, j in itertools.product(range(4), range(4)):
        want[max(0, i - 1):i + 2, max(0, j - 1):j + 2] += share[i, j]
    np.testing.assert_allclose(g, want, rtol=1e-6)


def test_second_order_avg_pool():
    """AvgPoolGrad is linear in dy: its gradient is the pooling again."""
    x = tf.tensor(spread(1, 4, 3, 2))
    f = lambda t: tf.sum(tf.square(tf.avg_pool(t, 2, 1, "same")))  # noqa: E731
    hessian_row = tf.grad(lambda t: tf.sum(tf.grad(f)(t)))(x)
    assert hessian_row.shape == x.shape
    err = numeric_gradient_error(lambda t: tf.grad(f)(t), [x])
    assert err < TOL


def test_gradient_memory_and_int_inputs():
    x = tf.tensor(spread(1, 4, 4, 2))
    before = tf.memory().num_tensors
    g = tf.grad(lambda t: tf.max_pool(t, 2, 2, "valid"))(x)
    assert tf.memory().num_tensors == before + 1
    g.dispose()
    ints = tf.tensor(rng.integers(0, 9, size=(1, 4, 4, 1)).astype(np.int32))
    assert tf.grad(lambda t: tf.cast(tf.max_pool(t, 2, 2, "valid"), "float32"))(ints).dtype == "float32"


# --- errors ------------------------------------------------------------------------------------

def test_errors():
    x = tf.zeros([1, 4, 4, 2])
    flat, flags = tf.zeros([4, 4]), tf.zeros([1, 2, 2, 1], "bool")
    assert_raises(ValueError, lambda: tf.max_pool(flat, 2, 1, "valid"), "max_pool", "'x'", "rank")
    assert_raises(ValueError, lambda: tf.avg_pool3d(flat, 2, 1, "valid"), "avg_pool3d", "'x'", "rank")
    assert_raises(TypeError, lambda: tf.max_pool(flags, 1, 1, "valid"), "max_pool", "bool")
    assert_raises(ValueError, lambda: tf.max_pool(x, [2, 2, 2], 1, "valid"), "max_pool", "'filter_size'")
    assert_raises(ValueError, lambda: tf.avg_pool(x, 0, 1, "valid"), "avg_pool", "'filter_size'", "positive")
    assert_raises(TypeError, lambda: tf.max_pool(x, "2", 1, "valid"), "max_pool", "'filter_size'")
    assert_raises(ValueError, lambda: tf.max_pool(x, 2, -1, "valid"), "max_pool", "'strides'")
    assert_raises(ValueError, lambda: tf.max_pool(x, 2, 1, "full"), "max_pool", "'pad'")
    assert_raises(ValueError, lambda: tf.max_pool(x, 2, 1, -1), "max_pool", "'pad'")
    assert_raises(ValueError, lambda: tf.max_pool(x, 2, 1, [[0, 0], [1, 1]]), "max_pool", "'pad'")
    assert_raises(ValueError, lambda: tf.max_pool(x, 2, 1, "same", "ceil"), "max_pool", "'pad'", "dim_rounding_mode")
    assert_raises(ValueError, lambda: tf.max_pool(x, 2, 1, 0, "up"), "max_pool", "'dim_rounding_mode'")
    assert_raises(ValueError, lambda: tf.max_pool(x, 7, 1, "valid"), "max_pool", "does not fit")
    assert_raises(ValueError, lambda: tf.max_pool3d([[[[[1.0]]]]], 1, 1, "valid", data_format="NCDHW"),
                  "max_pool3d", "data_format")
    assert_raises(ValueError, lambda: tf.pool(x, 2, "min", "valid"), "pool", "'pooling_type'")
    assert_raises(ValueError, lambda: tf.pool(x, 2, "max", "valid", 2, 2), "pool", "strides or dilations")
    assert_raises(ValueError, lambda: tf.max_pool_with_argmax([[[1.0]]], 2, 1, "valid"),
                  "max_pool_with_argmax", "rank 4")
    assert_raises(TypeError, lambda: tf.max_pool_with_argmax(x, 2, 1, "valid", 1), "max_pool_with_argmax",
                  "'include_batch_in_index'")
    x.dispose()
    assert_raises(Exception, lambda: tf.max_pool(x, 2, 1, "valid"), "max_pool")
