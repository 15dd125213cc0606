"""Malformed arguments, every op family (issue 15): wrong types, out-of-range axes, negative sizes,
mismatched shapes raise ValueError or TypeError whose message names the op (and, for the table,
the argument), nothing leaks, and the engine still works afterwards.

Two parts: a table of hand-written bad calls (each with the words its message must hold), and a
hypothesis run that takes a valid call of each op and replaces one argument with a hostile value;
the op may accept it (a value TF.js also takes) but must not fail any other way (IndexError,
KeyError, a numpy error, an OverflowError ...) nor leak.
"""
import inspect
import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pytfweb as tf

from .helpers import assert_raises

# The inputs every bad call may use (as sources), made before it (so only what the op itself makes counts).
INPUTS = {
    "x": 'tf.ones([2, 3])', "i": 'tf.tensor([0, 1], dtype="int32")', "b": 'tf.tensor([True, False])',
    "img": 'tf.ones([1, 4, 4, 2])', "f": 'tf.ones([2, 2, 2, 3])', "v4": 'tf.ones([4])',
    "m24": 'tf.ones([2, 4])', "m32": 'tf.ones([3, 2])', "v3": 'tf.ones([3])',
    "s": 'tf.scalar(1.0)', "b223": 'tf.ones([2, 2, 3])', "b332": 'tf.ones([3, 3, 2])',
    "f2231": 'tf.ones([2, 2, 3, 1])', "f2233": 'tf.ones([2, 2, 3, 3])', "half": 'tf.tensor([0.5])',
    "i5": 'tf.tensor([5], dtype="int32")', "i000": 'tf.tensor([[0, 0, 0]], dtype="int32")',
    "i50": 'tf.tensor([[5, 0]], dtype="int32")', "i0": 'tf.tensor([[0]], dtype="int32")',
    "v1": 'tf.ones([1])', "v2": 'tf.ones([2])', "f0": 'tf.tensor([[0.0]])',
    "m12": 'tf.ones([1, 2])', "i012": 'tf.tensor([0, 1, 2], dtype="int32")',
    "f01": 'tf.tensor([0.0, 1.0])', "m13": 'tf.ones([1, 3])', "m14": 'tf.ones([1, 4])',
    "izero": 'tf.tensor([0], dtype="int32")', "b3": 'tf.tensor([True, False, True])',
}


class Inputs:
    """The inputs, made anew (the sources also run in the page: tests/browser/test_webgl_malformed_args.py)."""

    def __init__(self):
        for name, src in INPUTS.items():
            setattr(self, name, eval(src, {"tf": tf}))  # noqa: S307 - test source


TABLE = [
    # elementwise
    (ValueError, lambda t: tf.add(t.x, t.v4), "add", "[2, 3]", "[4]"),
    (TypeError, lambda t: tf.add(t.x, object()), "add"),
    (TypeError, lambda t: tf.log(t.b), "log", "'x'"),
    (TypeError, lambda t: tf.logical_and(t.x, t.x), "logical_and"),
    (TypeError, lambda t: tf.bitwise_and(t.x, t.x), "bitwise_and", "'x'"),
    (TypeError, lambda t: tf.leaky_relu(t.x, alpha="a"), "leaky_relu", "'alpha'"),
    (TypeError, lambda t: tf.step(t.x, "a"), "step", "'alpha'"),
    (ValueError, lambda t: tf.clip_by_value(t.x, 3, 1), "clip_by_value", "clip_value_min"),
    (TypeError, lambda t: tf.clip_by_value(t.x, None, 1), "clip_by_value", "'clip_value_min'"),
    (TypeError, lambda t: tf.sigmoid(t.i), "sigmoid"),
    # reductions
    (ValueError, lambda t: tf.sum(t.x, 2), "sum", "axis"),
    (ValueError, lambda t: tf.sum(t.x, -3), "sum", "axis"),
    (ValueError, lambda t: tf.sum(t.x, [0, 0]), "sum", "axis"),
    (TypeError, lambda t: tf.sum(t.x, "a"), "sum", "axis"),
    (ValueError, lambda t: tf.mean(t.x, 5), "mean", "axis"),
    (ValueError, lambda t: tf.arg_max(t.x, 2), "arg_max", "axis"),
    (ValueError, lambda t: tf.arg_max(t.s), "arg_max", "'x'"),
    (TypeError, lambda t: tf.any(t.x), "any", "'x'"),
    # shape and slicing
    (ValueError, lambda t: tf.reshape(t.x, [4]), "reshape", "[4]"),
    (ValueError, lambda t: tf.reshape(t.x, [-1, -1]), "reshape"),
    (ValueError, lambda t: tf.reshape(t.x, [-2, 3]), "reshape"),
    (ValueError, lambda t: tf.transpose(t.x, [0, 0]), "transpose", "perm"),
    (ValueError, lambda t: tf.transpose(t.x, [0, 2]), "transpose", "perm"),
    (ValueError, lambda t: tf.expand_dims(t.x, 3), "expand_dims", "axis"),
    (ValueError, lambda t: tf.squeeze(t.x, [0]), "squeeze", "axis"),
    (ValueError, lambda t: tf.concat([t.x, t.m24], 0), "concat", "tensors[1]"),
    (ValueError, lambda t: tf.concat([t.x, t.x], 2), "concat", "axis"),
    (ValueError, lambda t: tf.stack([t.x, t.m32]), "stack", "tensors[1]"),
    (ValueError, lambda t: tf.tile(t.x, [1]), "tile", "reps"),
    (ValueError, lambda t: tf.tile(t.x, [1, -1]), "tile", "reps"),
    (ValueError, lambda t: tf.pad(t.x, [[0, 0]]), "pad", "paddings"),
    (ValueError, lambda t: tf.pad(t.x, [[0, -1], [0, 0]]), "pad", "paddings"),
    (ValueError, lambda t: tf.reverse(t.x, 2), "reverse", "axis"),
    (ValueError, lambda t: tf.slice(t.x, [0, 0], [3, 1]), "slice"),
    (ValueError, lambda t: tf.slice(t.x, [-1, 0], [1, 1]), "slice", "begin"),
    (ValueError, lambda t: tf.split(t.x, 2, 1), "split"),
    (ValueError, lambda t: tf.split(t.x, [1, 1], 1), "split"),
    (ValueError, lambda t: tf.split(t.x, 0, 1), "split"),
    (ValueError, lambda t: tf.unstack(t.x, 2), "unstack", "axis"),
    (ValueError, lambda t: tf.broadcast_to(t.x, [3, 3]), "broadcast_to"),
    (ValueError, lambda t: tf.broadcast_to(t.x, [-1, 3]), "broadcast_to", "shape"),
    (ValueError, lambda t: tf.strided_slice(t.x, [0, 0], [1, 1], [0, 1]), "strided_slice", "strides"),
    (ValueError, lambda t: tf.mirror_pad(t.x, [[0, 2], [0, 0]], "reflect"), "mirror_pad", "paddings"),
    (ValueError, lambda t: tf.mirror_pad(t.x, [[0, 0], [0, 0]], "wrap"), "mirror_pad", "mode"),
    (ValueError, lambda t: tf.where(t.b, t.x, t.x), "where", "[2]", "[2, 3]"),
    (TypeError, lambda t: tf.cast(t.x, "float64"), "cast", "dtype"),
    # matmul
    (ValueError, lambda t: tf.mat_mul(t.x, t.x), "mat_mul"),
    (ValueError, lambda t: tf.mat_mul(t.x, t.v3), "mat_mul", "'b'"),
    (ValueError, lambda t: tf.mat_mul(t.b223, t.b332), "mat_mul", "batch"),
    (ValueError, lambda t: tf.dot(t.x, t.x), "dot"),
    # conv and pool
    (ValueError, lambda t: tf.conv2d(t.x, t.f, 1, "same"), "conv2d", "'x'"),
    (ValueError, lambda t: tf.conv2d(t.img, t.f, 0, "same"), "conv2d", "strides"),
    (ValueError, lambda t: tf.conv2d(t.img, t.f, -1, "same"), "conv2d", "strides"),
    (ValueError, lambda t: tf.conv2d(t.img, t.f, 1, "middle"), "conv2d", "pad"),
    (ValueError, lambda t: tf.conv2d(t.img, t.f, 2, "same", "NHWC", 2), "conv2d", "dilations"),
    (ValueError, lambda t: tf.depthwise_conv2d(t.img, t.f2231, 1, "same"), "depthwise_conv2d", "filter"),
    (ValueError, lambda t: tf.conv2d_transpose(t.img, t.f2233, [1, 4, 4, 3], 1, "same"),
     "conv2d_transpose"),
    (ValueError, lambda t: tf.max_pool(t.img, [0, 2], 1, "same"), "max_pool", "filter"),
    (ValueError, lambda t: tf.max_pool(t.img, [-1, 2], 1, "same"), "max_pool", "filter"),
    (ValueError, lambda t: tf.max_pool(t.x, [2, 2], 1, "same"), "max_pool", "'x'"),
    (ValueError, lambda t: tf.avg_pool(t.img, [2, 2], 0, "same"), "avg_pool", "strides"),
    # gather and scatter
    (TypeError, lambda t: tf.gather(t.x, t.half), "gather", "'indices'"),
    (ValueError, lambda t: tf.gather(t.x, t.i, 2), "gather", "axis"),
    (ValueError, lambda t: tf.gather(t.x, t.i5), "gather", "'indices'"),
    (ValueError, lambda t: tf.gather_nd(t.x, t.i000), "gather_nd", "'indices'"),
    (ValueError, lambda t: tf.gather_nd(t.x, t.i50), "gather_nd", "'indices'"),
    (ValueError, lambda t: tf.scatter_nd(t.i0, t.v1, [-2]), "scatter_nd", "'shape'"),
    (ValueError, lambda t: tf.scatter_nd(t.i0, t.v2, [2]), "scatter_nd",
     "'updates'"),
    (TypeError, lambda t: tf.scatter_nd(t.f0, t.v1, [2]), "scatter_nd", "'indices'"),
    (ValueError, lambda t: tf.tensor_scatter_update(t.x, t.i0, t.m12),
     "tensor_scatter_update", "'updates'"),
    (TypeError, lambda t: tf.one_hot(t.half, 3), "one_hot", "'indices'"),
    (ValueError, lambda t: tf.one_hot(t.i, -1), "one_hot", "'depth'"),
    # segment and cumulative
    (ValueError, lambda t: tf.cumsum(t.x, 2), "cumsum", "axis"),
    (ValueError, lambda t: tf.cumprod(t.x, -3), "cumprod", "axis"),
    (ValueError, lambda t: tf.unsorted_segment_sum(t.x, t.i012, 2),
     "unsorted_segment_sum", "segment_ids"),
    (ValueError, lambda t: tf.unsorted_segment_sum(t.x, t.i, -1), "unsorted_segment_sum", "'num_segments'"),
    (TypeError, lambda t: tf.unsorted_segment_sum(t.x, t.f01, 2), "unsorted_segment_sum",
     "'segment_ids'"),
    # image
    (ValueError, lambda t: tf.image.resize_bilinear(t.x, [2, 2]), "resize_bilinear", "'images'"),
    (ValueError, lambda t: tf.image.resize_bilinear(t.img, [-2, 2]), "resize_bilinear", "size"),
    (ValueError, lambda t: tf.image.resize_bilinear(t.img, [2]), "resize_bilinear", "size"),
    (ValueError, lambda t: tf.image.resize_nearest_neighbor(t.img, [2, 2], True, True), "resize_nearest_neighbor"),
    (ValueError, lambda t: tf.image.flip_left_right(t.x), "flip_left_right"),
    (ValueError, lambda t: tf.image.crop_and_resize(t.img, t.m13, t.izero, [2, 2]),
     "crop_and_resize", "'boxes'"),
    (ValueError, lambda t: tf.image.crop_and_resize(t.img, t.m14, t.izero, [0, 2]),
     "crop_and_resize", "'crop_size'"),
    # nn and misc
    (TypeError, lambda t: tf.softmax(t.i), "softmax"),
    (ValueError, lambda t: tf.softmax(t.x, 5), "softmax"),
    (ValueError, lambda t: tf.top_k(t.x, 5), "top_k", "'k'"),
    (ValueError, lambda t: tf.top_k(t.x, -1), "top_k", "'k'"),
    (ValueError, lambda t: tf.batch_norm(t.x, t.v2, t.v3), "batch_norm", "'mean'"),
    (ValueError, lambda t: tf.add_n([t.x, t.v3]), "add_n"),
    (ValueError, lambda t: tf.depth_to_space(t.img, 3), "depth_to_space"),
    (ValueError, lambda t: tf.space_to_batch_nd(t.img, [3, 3], [[0, 0], [0, 0]]), "space_to_batch_nd"),
    (ValueError, lambda t: tf.batch_to_space_nd(t.img, [2, 2], [[0, 0], [0, 0]]), "batch_to_space_nd"),
    (ValueError, lambda t: tf.local_response_normalization(t.x), "local_response_normalization", "'x'"),
    # creation
    (ValueError, lambda t: tf.zeros([-1]), "zeros", "shape"),
    (TypeError, lambda t: tf.zeros([2.5]), "zeros", "shape"),
    (TypeError, lambda t: tf.ones([2], dtype="float64"), "ones", "dtype"),
    (ValueError, lambda t: tf.fill([-2], 1), "fill", "shape"),
    (ValueError, lambda t: tf.tensor([1, 2], [3]), "tensor", "shape"),
    (ValueError, lambda t: tf.tensor([[1, 2], [3]]), "tensor"),
    (ValueError, lambda t: tf.range(0, 5, 0), "range", "step"),
    (ValueError, lambda t: tf.eye(-1), "eye"),
    (ValueError, lambda t: tf.random_normal([-1]), "random_normal", "shape"),
    # found by the hostile-argument runs below (each failed before its fix)
    (TypeError, lambda t: tf.cast(t.x, ["float32"]), "cast", "'dtype'"),         # was: unhashable type: 'list'
    (TypeError, lambda t: tf.zeros([2], {"a": 1}), "zeros", "'dtype'"),         # was: unhashable type: 'dict'
    (TypeError, lambda t: tf.batch_norm(t.x, None, t.v3), "batch_norm", "'mean'"),   # was: KeyError 'mean'
    (TypeError, lambda t: tf.batch_norm(t.x, t.v3, None), "batch_norm", "'variance'"),
    (ValueError, lambda t: tf.range(0, math.inf), "range", "'stop'"),           # was: OverflowError
    (ValueError, lambda t: tf.range(math.nan), "range", "'stop'"),              # was: no op name
    (TypeError, lambda t: tf.random_uniform([2], "a"), "random_uniform", "'minval'"),   # was: '<' not supported
    (TypeError, lambda t: tf.random_uniform([2], 0, None), "random_uniform", "'maxval'"),
    (TypeError, lambda t: tf.random_normal([2], 0, "a"), "random_normal", "'stddev'"),
    (TypeError, lambda t: tf.moments(t.x, 0, None), "moments", "'keep_dims'"),   # was: named mean
    (ValueError, lambda t: tf.separable_conv2d(t.img, t.f2221, t.f1123, 0, "same"), "separable_conv2d",
     "'strides'"),                                                                # was: named depthwise_conv2d
    (TypeError, lambda t: tf.dropout(t.x, 0.5, 1.5), "dropout", "'noise_shape'"),   # was: 'float' not iterable
    (ValueError, lambda t: tf.conv1d(t.b223, t.f233, 1, 7), "conv1d", "'pad'"),   # was: named reshape
    # tensors where Python values belong (was: Tensor.__int__/__index__'s TypeError naming no op, a
    # shape tensor unstacked and leaked, ops such as less or cast named instead of the op called)
    (TypeError, lambda t: tf.sum(t.x, t.h_int), "sum", "'axis'"),
    (TypeError, lambda t: tf.arg_max(t.x, t.h_scalar), "arg_max", "'axis'"),
    (TypeError, lambda t: tf.zeros(t.h_int), "zeros", "'shape'"),
    (TypeError, lambda t: tf.fill(t.h_str, 1), "fill", "'shape'"),
    (TypeError, lambda t: tf.conv1d(t.b223, t.f233, 1, t.h_str), "conv1d", "'pad'"),
    (TypeError, lambda t: tf.conv2d_transpose(t.img, t.f2232, [1, 4, 4, 2], t.h_int, "same"), "conv2d_transpose",
     "'strides'"),
    (TypeError, lambda t: tf.conv3d(t.vol, t.h_str, 1, "valid"), "conv3d", "'filter'"),
    (TypeError, lambda t: tf.slice(t.x, t.h_str), "slice", "begin"),
    (TypeError, lambda t: tf.local_response_normalization(t.img, t.h_str), "local_response_normalization",
     "'depth_radius'"),
]


@pytest.mark.parametrize("case", TABLE, ids=[f"{i}-{c[2]}" for i, c in enumerate(TABLE)])
def test_malformed_argument_raises_naming_op_and_argument(case):
    exc_type, call, *fragments = case
    t = Inputs()
    before = tf.memory()
    assert_raises(exc_type, lambda: call(t), *fragments)   # also: nothing leaked, engine works after
    after = tf.memory()
    assert (after.num_tensors, after.num_bytes) == (before.num_tensors, before.num_bytes)
    assert all(not v.is_disposed for v in vars(t).values()), "an op disposed its caller's input"


# --- hypothesis: one argument of a valid call replaced by a hostile value ---------------------
class In:
    """An input tensor of the valid call, by its name in INPUTS."""

    def __init__(self, name):
        self.name = name


# A valid call of each op: (function path under tf, positional arguments).
VALID = [
    ("add", [In("x"), In("x")]), ("mul", [In("x"), 2]), ("pow", [In("x"), In("x")]), ("neg", [In("x")]),
    ("leaky_relu", [In("x"), 0.2]), ("clip_by_value", [In("x"), 0, 1]), ("step", [In("x"), 0.5]),
    ("sum", [In("x"), 1, False]), ("mean", [In("x"), 0, True]), ("max", [In("x"), -1]), ("prod", [In("x"), None]),
    ("arg_max", [In("x"), 1]), ("log_sum_exp", [In("x"), 1]), ("any", [In("b"), 0]),
    ("reshape", [In("x"), [3, 2]]), ("transpose", [In("x"), [1, 0]]), ("expand_dims", [In("x"), 1]),
    ("squeeze", [In("s"), None]), ("concat", [[In("x"), In("x")], 1]), ("stack", [[In("x"), In("x")], 0]),
    ("tile", [In("x"), [2, 1]]), ("pad", [In("x"), [[1, 0], [0, 1]], 0]), ("reverse", [In("x"), [0]]),
    ("slice", [In("x"), [0, 1], [2, 2]]), ("strided_slice", [In("x"), [0, 0], [2, 3], [1, 2]]),
    ("split", [In("x"), 3, 1]), ("unstack", [In("x"), 1]), ("broadcast_to", [In("x"), [2, 2, 3]]),
    ("mirror_pad", [In("x"), [[1, 1], [1, 1]], "reflect"]), ("cast", [In("x"), "int32"]),
    ("where", [In("b3"), In("v3"), In("v3")]), ("one_hot", [In("i"), 3, 1, 0]),
    ("mat_mul", [In("x"), In("m32"), False, False]), ("dot", [In("v3"), In("v3")]),
    ("conv2d", [In("img"), In("f"), 1, "same", "NHWC", 1]), ("depthwise_conv2d", [In("img"), In("f"), 1, "valid"]),
    ("max_pool", [In("img"), [2, 2], 2, "same"]), ("avg_pool", [In("img"), 2, 1, "valid"]),
    ("conv2d_transpose", [In("img"), In("f2232"), [1, 4, 4, 2], 1, "same"]),
    ("gather", [In("x"), In("i"), 1]), ("gather_nd", [In("x"), In("i50ok")]),
    ("scatter_nd", [In("i0"), In("v1"), [2]]), ("tensor_scatter_update", [In("x"), In("i0"), In("m13")]),
    ("cumsum", [In("x"), 1, False, True]), ("cumprod", [In("x"), 0]),
    ("unsorted_segment_sum", [In("x"), In("i"), 2]),
    ("image.resize_bilinear", [In("img"), [3, 5], False, True]),
    ("image.resize_nearest_neighbor", [In("img"), [2, 2], True, False]), ("image.flip_left_right", [In("img")]),
    ("image.crop_and_resize", [In("img"), In("m14"), In("izero"), [2, 2], "bilinear", 0]),
    ("softmax", [In("x"), -1]), ("log_softmax", [In("x"), 1]), ("top_k", [In("x"), 2, True]),
    ("batch_norm", [In("x"), In("v3"), In("v3")]), ("add_n", [[In("x"), In("x")]]),
    ("depth_to_space", [In("img4c"), 2]), ("space_to_batch_nd", [In("img"), [2, 2], [[0, 0], [0, 0]]]),
    ("local_response_normalization", [In("img"), 1]), ("zeros", [[2, 3], "float32"]), ("fill", [[2], 1.5]),
    ("range", [0, 5, 2]), ("eye", [3]), ("linspace", [0, 1, 3]), ("tensor", [[1, 2], [2]]),
    ("random_uniform", [[2, 2], 0, 1, "float32", 3]), ("random_normal", [[2], 0, 1, "float32", 1]),
    ("einsum", ["ij,jk->ik", In("x"), In("m32")]), ("linalg.band_part", [In("x"), 1, 0]),
    ("moments", [In("x"), [0], False]), ("norm", [In("x"), "euclidean", 1]), ("unique", [In("v3"), 0]),
    ("image.non_max_suppression", [In("m14"), In("v1"), 1, 0.5, 0.1]),
    ("losses.mean_squared_error", [In("x"), In("x")]), ("signal.frame", [In("v4"), 2, 1]),
    ("separable_conv2d", [In("img"), In("f2221"), In("f1123"), 1, "same"]),
    ("conv1d", [In("b223"), In("f233"), 1, "same"]),
    ("conv3d", [In("vol"), In("f3d"), 1, "valid"]), ("max_pool3d", [In("vol"), 1, 1, "valid"]),
    ("prelu", [In("x"), In("v3")]), ("outer_product", [In("v3"), In("v4")]), ("diag", [In("v3")]),
    ("logical_and", [In("b"), In("b")]), ("equal", [In("x"), In("x")]), ("bitwise_and", [In("i"), In("i")]),
    ("relu6", [In("x")]), ("dropout", [In("x"), 0.5, None, 1]), ("multinomial", [In("m13"), 2, 1]),
    ("fused.mat_mul", [In("x"), In("m32"), False, False, None, "relu"]),
    ("image.resize_bilinear", [In("img"), [2, 2]]), ("image.rgb_to_grayscale", [In("img3")]),
    ("spectral.rfft", [In("v4")]), ("linalg.gram_schmidt", [In("x")]), ("sparse_to_dense", [In("i"), In("v2"), [3]]),
]
# Hostile tensors: dtypes an op may not take (string, complex64, bool, int32), a scalar, an empty one
HOSTILE_TENSORS = {"h_str": 'tf.tensor(["a", "b"])', "h_cplx": 'tf.complex([1.0, 2.0], [0.5, 0.0])',
                   "h_bool": 'tf.tensor([[True, False, True], [False, True, False]])',
                   "h_int": 'tf.tensor([[1, 2, 3], [4, 5, 6]], dtype="int32")',
                   "h_scalar": 'tf.scalar(2.5)', "h_empty": 'tf.zeros([0, 3])'}
INPUTS.update(HOSTILE_TENSORS)
INPUTS.update({"f2221": 'tf.ones([2, 2, 2, 1])', "f1123": 'tf.ones([1, 1, 2, 3])',
               "f233": 'tf.ones([2, 3, 3])', "vol": 'tf.ones([1, 2, 2, 2, 1])',
               "f3d": 'tf.ones([1, 1, 1, 1, 2])', "img3": 'tf.ones([1, 2, 2, 3])'})
INPUTS.update({"f2232": 'tf.ones([2, 2, 2, 2])', "i50ok": 'tf.tensor([[1, 0]], dtype="int32")',
               "img4c": 'tf.ones([1, 2, 2, 4])'})

# Hostile values. No large sizes: a valid-looking 2**31 in a shape argument would only test
# that this machine runs out of memory.
HOSTILE = [None, "abc", 1.5, -1, -7, 7, 0, [], [[1], [2, 3]], object(), math.nan, math.inf, -math.inf, True,
           [-1, -1], {"a": 1}, b"x", (), [1.5, 2], [None], "float64", [2, -3]]
HOSTILE_IN = [In(name) for name in HOSTILE_TENSORS]
ALLOWED = (ValueError, TypeError)


def _resolve(t, arg):
    if isinstance(arg, In):
        return getattr(t, arg.name)
    if isinstance(arg, list):
        return [_resolve(t, a) for a in arg]
    return arg


def _fn(path):
    fn = tf
    for part in path.split("."):
        fn = getattr(fn, part)
    return fn


# Beyond the fixed list: small ints, bounded floats, short strings and int lists (bounded, for the
# reason above).
HOSTILE_DRAWN = st.one_of(st.sampled_from(HOSTILE + HOSTILE_IN), st.integers(-10, 10), st.floats(-20, 20),
                          st.text(max_size=3),
                          st.lists(st.integers(-3, 5), max_size=5), st.lists(st.floats(-3, 3), max_size=3))


@settings(max_examples=600, derandomize=True, database=None, deadline=None,
          suppress_health_check=list(HealthCheck))
@given(st.sampled_from(VALID), st.data())
def test_hostile_argument_raises_cleanly(valid, data):
    path, args = valid
    position = data.draw(st.integers(0, len(args) - 1), label="position")
    value = data.draw(HOSTILE_DRAWN, label="value")
    t = Inputs()
    real = [_resolve(t, a) for a in args]
    real[position] = _resolve(t, value)
    fn = _fn(path)
    op = path.split(".")[-1]
    before = tf.memory()
    error = None
    try:
        out = fn(*real)
        tf.dispose(out if not hasattr(out, "_asdict") else list(out))
    except ALLOWED as exc:
        error = exc
    except Exception as exc:  # noqa: BLE001 - the point of the test
        pytest.fail(f"tf.{path} with argument {position} = {value!r}: {type(exc).__name__}: {exc} "
                    f"(a malformed argument must raise ValueError or TypeError)")
    after = tf.memory()
    assert (after.num_tensors, after.num_bytes) == (before.num_tensors, before.num_bytes), \
        f"tf.{path} with argument {position} = {value!r} leaked {after.num_tensors - before.num_tensors} tensors"
    if error is not None:
        assert op in str(error), f"tf.{path} with argument {position} = {value!r}: the message does not name " \
                                 f"the op: {type(error).__name__}: {error}"
    y = tf.add(tf.scalar(1), tf.scalar(2))
    assert y.data_sync()[0] == 3
    tf.dispose([y, *vars(t).values()])


def test_valid_calls_of_the_hostile_table_run():
    """The calls the hostile test starts from are valid (else it would test nothing)."""
    for path, args in VALID:
        t = Inputs()
        real = [_resolve(t, a) for a in args]
        out = _fn(path)(*real)
        tf.dispose(out if not hasattr(out, "_asdict") else list(out))


def test_every_hostile_value_in_every_argument_of_every_op():
    """The whole grid (VALID x argument x HOSTILE, about 5,600 calls): each either runs or raises
    ValueError/TypeError naming the op; nothing leaks. Failures are collected and shown together."""
    problems, calls = [], 0
    for path, args in VALID:
        op = path.split(".")[-1]
        for position in range(len(args)):
            for value in HOSTILE + HOSTILE_IN:
                calls += 1
                t = Inputs()
                real = [_resolve(t, a) for a in args]
                real[position] = _resolve(t, value)
                if isinstance(value, In):
                    value = f"<{value.name}>"
                before = tf.memory().num_tensors
                where = f"tf.{path} argument {position} = {value!r}"
                try:
                    out = _fn(path)(*real)
                    tf.dispose(out if not hasattr(out, "_asdict") else list(out))
                except ALLOWED as exc:
                    if op not in str(exc):
                        problems.append(f"{where}: message does not name the op: {type(exc).__name__}: {exc}")
                except Exception as exc:  # noqa: BLE001
                    problems.append(f"{where}: {type(exc).__name__}: {exc}")
                if tf.memory().num_tensors != before:
                    problems.append(f"{where}: leaked {tf.memory().num_tensors - before} tensors")
                tf.dispose(list(vars(t).values()))
    assert calls > 6000
    assert not problems, f"{len(problems)} of {calls} calls:\n" + "\n".join(problems[:30])


def test_scatter_and_gather_with_no_indices():
    """scatter_nd / tensor_scatter_update with zero updates, gather_nd with zero index rows
    (regression: the cpu kernels reshaped with -1, which numpy cannot infer for 0 rows)."""
    y = tf.scatter_nd(tf.zeros([0, 1], "int32"), tf.zeros([0, 3]), [2, 3])
    np.testing.assert_array_equal(y.numpy(), np.zeros((2, 3), np.float32))
    x = tf.tensor([[1.0, 2], [3, 4]])
    z = tf.tensor_scatter_update(x, tf.zeros([0, 1], "int32"), tf.zeros([0, 2]))
    np.testing.assert_array_equal(z.numpy(), x.numpy())
    g = tf.gather_nd(x, tf.zeros([0, 2], "int32"))
    assert g.shape == (0,)


def test_shape_given_as_an_int32_tensor():
    """A 1-D int32 tensor as a shape is read, not unstacked (which leaked one scalar per axis)."""
    shape = tf.tensor([2, 3], dtype="int32")
    before = tf.memory().num_tensors
    z = tf.zeros(shape)
    assert z.shape == (2, 3)
    assert tf.memory().num_tensors == before + 1
