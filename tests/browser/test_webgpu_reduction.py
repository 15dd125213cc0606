"""Reductions on webgpu against cpu: every axis combination of a rank-4 tensor, keep_dims, both
program forms (one invocation per output, and a workgroup per output from PARALLEL_FROM values
on), NaN/inf, int32 wrapping, bool, empty axes and empty tensors; arg_max/arg_min ties and NaN."""
import itertools

import numpy as np
import pytest

from pytfweb.backends.webgpu.programs.reduction import PARALLEL_FROM, split_dims

from .test_webgpu_backend import compare_webgpu, webgpu  # noqa: F401  (fixtures)

RNG = np.random.default_rng(21)
SUM_TOLERANCE = dict(rtol=1e-4, atol=1e-4)


def test_split_dims_merges_adjacent_dims():
    assert split_dims((2, 3, 4, 5), {1, 2}) == ([(2, 60), (5, 1)], [(12, 5)])
    assert split_dims((2, 1, 4), {0}) == ([(4, 1)], [(2, 4)])
    assert split_dims((3, 4), set()) == ([(12, 1)], [])


@pytest.mark.parametrize("axes", [None, 0, 1, 3, (0, 2), (1, 2), (0, 1, 3), (2, 3), -1])
def test_float_reductions_over_axes(compare_webgpu, axes):
    x = RNG.uniform(-2, 2, size=(3, 4, 2, 5)).astype(np.float32)
    fns = ", ".join(f"tf.{op}(x, {axes!r}), tf.{op}(x, {axes!r}, True)" for op in ("sum", "mean", "max", "min", "prod"))
    compare_webgpu(f"lambda x: [{fns}]", [x], signed_zeros=False, **SUM_TOLERANCE)


def test_long_reductions_use_workgroups(compare_webgpu):
    n = PARALLEL_FROM * 4 + 3
    x = RNG.uniform(-1, 1, size=(3, n)).astype(np.float32)
    y = RNG.uniform(0.99, 1.01, size=(n, 2)).astype(np.float32)
    compare_webgpu("lambda x, y: [tf.sum(x, 1), tf.mean(x), tf.max(x, 1), tf.min(x), tf.prod(y, 0), "
                   "tf.arg_max(x, 1), tf.arg_min(y, 0)]", [x, y], signed_zeros=False, rtol=1e-3, atol=1e-3)


def test_long_strided_reductions_with_many_outputs(compare_webgpu):
    # reducing a leading axis of PARALLEL_FROM+ values into PARALLEL_FROM+ outputs: one invocation
    # per output (reduction._parallel)
    n = PARALLEL_FROM + 3
    x = RNG.uniform(-1, 1, size=(PARALLEL_FROM + 9, n)).astype(np.float32)
    x[5, 7] = np.nan
    compare_webgpu(f"lambda x: [tf.sum(x, 0), tf.max(x, 0), tf.mean(x, 0, True), tf.min(tf.reshape(x, [-1, 1, {n}]), 0)]",
                   [x], signed_zeros=False, rtol=1e-4, atol=1e-4)


def test_nan_and_infinities(compare_webgpu):
    x = np.float32([[1, np.nan, 3], [np.inf, -np.inf, 0], [np.inf, 2, 5], [-0.0, 0.0, -1]])
    big = RNG.uniform(-1, 1, size=(2, PARALLEL_FROM + 5)).astype(np.float32)
    big[0, 100] = np.nan
    big[1, 7] = np.inf
    compare_webgpu("lambda x, b: [tf.sum(x, 1), tf.max(x, 1), tf.min(x, 0), tf.mean(x, 1), tf.prod(x, 0), "
                   "tf.max(b, 1), tf.min(b, 1), tf.sum(b, 1)]", [x, big], signed_zeros=False, **SUM_TOLERANCE)


def test_int32_and_bool(compare_webgpu):
    i = np.int32([[2 ** 31 - 1, 1, 5], [-2 ** 31, -1, 7], [65536, 65536, 3]])
    long_ints = RNG.integers(-2 ** 31, 2 ** 31 - 1, size=(2, PARALLEL_FROM * 2)).astype(np.int32)
    b = RNG.uniform(size=(3, 4)) < 0.5
    b[0] = True
    b[1] = False
    compare_webgpu("lambda i, l, b: [tf.sum(i, 1), tf.sum(i), tf.prod(i, 0), tf.max(i, 0), tf.min(i), tf.sum(l, 1), "
                   "tf.prod(l, 1), tf.max(l, 1), tf.min(l, 1), tf.any(b, 1), tf.all(b, 1), tf.any(b), tf.all(b), "
                   "tf.max(b, 0), tf.min(b, 1), tf.sum(b, 0), tf.mean(i, 1), tf.arg_max(i, 1), tf.arg_min(l, 1)]",
                   [i, long_ints, b], **SUM_TOLERANCE)


def test_empty_axes_and_tensors(compare_webgpu):
    e = np.zeros((2, 0, 3), np.float32)
    ie = np.zeros((0, 2), np.int32)
    be = np.zeros((3, 0), np.bool_)
    compare_webgpu("lambda e, ie, be: [tf.sum(e, 1), tf.mean(e, 1), tf.prod(e, 1), tf.max(e, 1), tf.min(e, (1, 2)), "
                   "tf.sum(e, 0), tf.max(ie, 0), tf.sum(ie), tf.any(be, 1), tf.all(be, 1), tf.arg_max(e, 1), "
                   "tf.sum(e, [], True)]", [e, ie, be])


def test_scalars_and_unit_dims(compare_webgpu):
    compare_webgpu("lambda s, u: [tf.sum(s), tf.max(s), tf.mean(u, 1), tf.sum(u, [0, 2]), tf.arg_max(u, 1)]",
                   [np.float32(2.5), RNG.normal(size=(1, 5, 1)).astype(np.float32)], **SUM_TOLERANCE)


def test_arg_max_min_ties_and_nan(compare_webgpu):
    x = np.float32([[1, 3, 3, 0], [np.nan, 5, 1, 5], [2, np.nan, 9, 9], [-1, -1, -1, -1],
                    [np.nan, np.nan, np.nan, np.nan], [0, np.inf, np.nan, -np.inf]])
    long_ = np.tile(np.float32([1, 7, 7, -3, np.nan]), (3, PARALLEL_FROM // 5 + 1))
    long_[1, 0] = np.nan
    compare_webgpu("lambda x, l: [tf.arg_max(x, 1), tf.arg_min(x, 1), tf.arg_max(x, 0), tf.arg_min(x, 0), "
                   "tf.arg_max(l, 1), tf.arg_min(l, 1), tf.arg_max(l, 0)]", [x, long_])


@pytest.mark.parametrize("rank", [1, 2, 3])
def test_arg_over_every_axis(compare_webgpu, rank):
    shape = (3, 4, 5)[:rank]
    x = RNG.integers(-3, 3, size=shape).astype(np.float32)   # many ties
    fns = ", ".join(f"tf.arg_max(x, {a}), tf.arg_min(x, {a})" for a in range(rank))
    compare_webgpu(f"lambda x: [{fns}]", [x])


def test_gradients_of_reductions_numerically(webgpu):
    from .test_webgpu_gradients import numeric_error_on_webgpu
    for fn in ("lambda x: tf.sum(x, 1)", "lambda x: tf.mean(x)", "lambda x: tf.max(x, 0)",
               "lambda x: tf.prod(x, 1)"):
        x = RNG.uniform(0.5, 1.5, size=(3, 4)).astype(np.float32).tolist()
        assert numeric_error_on_webgpu(webgpu, fn, [x]) < 2e-2, fn


@pytest.mark.parametrize("op", ["sum", "max", "all"])
def test_bad_axis_names_op_and_argument(webgpu, op):
    from .conftest import PageError
    with pytest.raises(PageError) as e:
        webgpu(f"tf.tidy(lambda: tf.{op}(tf.tensor([[True, False]]), 2))")
    assert e.value.type == "ValueError" and op in e.value.message and "axis" in e.value.message
    assert webgpu("m = tf.memory()\nresult = [m.num_tensors, m.num_buffers_in_use]") == [0, 0]


def test_all_axis_combinations_rank3(compare_webgpu):
    x = RNG.uniform(-1, 1, size=(2, 3, 4)).astype(np.float32)
    combos = [c for r in range(0, 4) for c in itertools.combinations(range(3), r)]
    fns = ", ".join(f"tf.sum(x, {list(c)}), tf.max(x, {list(c)}, True)" for c in combos)
    compare_webgpu(f"lambda x: [{fns}]", [x], signed_zeros=False, **SUM_TOLERANCE)
