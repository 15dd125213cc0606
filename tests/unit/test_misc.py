"""ops/misc.py: rank-checked wrappers, TensorBuffer/buffer/rand, ensure_shape, enclosing_power_of_two,
cosine_window, moving_average, in_top_k_async, basic_lstm_cell, multi_rnn_cell and the environment
helpers, against numpy or hand-derived values and TF.js's error conditions."""
import array
import asyncio
import math
import warnings

import numpy as np
import pytest

import pytfweb as tf
from pytfweb.core.engine import op as engine_op, tensors_in

from .helpers import assert_gradients_match_numeric, assert_no_leak, assert_raises, assert_tensor


def _shape(rank):
    return (3, 2, 4, 2)[:rank]


# --- rank-checked wrappers -----------------------------------------------------------------

@pytest.mark.parametrize("rank", [1, 2, 3, 4])
def test_rank_wrappers_match_numpy(rng, rank):
    a = rng.standard_normal(_shape(rank)).astype(np.float32)
    b = rng.standard_normal(_shape(rank)).astype(np.float32)
    axis = rank - 1
    concat = getattr(tf, f"concat{rank}d")
    got = concat([a, b]) if rank == 1 else concat([a, b], axis)
    assert_tensor(got, np.concatenate([a, b], axis))

    pads = [[1, 0], [0, 2], [2, 1], [0, 0]][:rank]
    got = getattr(tf, f"pad{rank}d")(a, pads[0] if rank == 1 else pads, 7)
    assert_tensor(got, np.pad(a, pads, constant_values=7))

    reverse = getattr(tf, f"reverse{rank}d")
    assert_tensor(reverse(a) if rank == 1 else reverse(a, [0, axis]), np.flip(a, 0 if rank == 1 else (0, axis)))

    begin, size = [1, 0, 2, 1][:rank], [2, 2, 1, -1][:rank]
    expected = a[tuple(np.s_[b:(b + s if s >= 0 else None)] for b, s in zip(begin, size))]
    slice_ = getattr(tf, f"slice{rank}d")
    assert_tensor(slice_(a, begin[0], size[0]) if rank == 1 else slice_(a, begin, size), expected)
    tf.dispose([got])


# Arguments valid for a rank-r tensor, so that only x's rank (5) is wrong.
_WRONG_RANK_CALLS = {
    "concat": lambda f, x, r: f([x, x]) if r == 1 else f([x, x], 0),
    "pad": lambda f, x, r: f(x, [0, 1] if r == 1 else [[0, 1]] * r),
    "reverse": lambda f, x, r: f(x),
    "slice": lambda f, x, r: f(x, 0, 1) if r == 1 else f(x, [0] * r, [1] * r),
}


@pytest.mark.parametrize("family", sorted(_WRONG_RANK_CALLS))
def test_rank_wrappers_reject_the_wrong_rank(family):
    x = tf.zeros([2, 2, 2, 2, 2])
    for rank in range(1, 5):
        f = getattr(tf, f"{family}{rank}d")
        assert_raises(ValueError, lambda: _WRONG_RANK_CALLS[family](f, x, rank), f"{family}{rank}d",
                      f"rank {rank}", "got rank 5")
    x.dispose()


def test_rank_wrapper_details():
    assert tf.concat2d([[[1, 2]], [[3, 4]]], 1).array_sync() == [[1, 2, 3, 4]]
    assert tf.concat1d([tf.tensor(["a"]), ["b"]]).array_sync() == ["a", "b"]  # as tf.concat: strings too
    assert tf.slice1d([1, 2, 3, 4], 1, -1).array_sync() == [2, 3, 4]
    assert tf.reverse3d(tf.zeros([1, 2, 3])).shape == (1, 2, 3)
    assert_raises(ValueError, lambda: tf.pad2d([[1]], [[0, 1]]), "pad2d", "paddings")
    assert_raises(ValueError, lambda: tf.pad1d([1], [[0, 1], [1, 1]]), "pad1d", "paddings")
    assert_raises(ValueError, lambda: tf.slice2d([[1, 2]], [0, 1], [1, 5]), "slice", "size[1]")
    a, b = tf.zeros([1, 1]), tf.tensor([["x"]])
    assert_raises(TypeError, lambda: tf.concat2d([a, b]), "concat", "string")
    tf.dispose([a, b])


def test_rank_wrapper_gradients_flow():
    dx = tf.grad(lambda x: tf.sum(tf.mul(tf.slice2d(tf.reverse2d(x, 1), [0, 1], [1, 2]), tf.tensor([[1.0, 2.0]]))))(
        tf.tensor2d([[1, 2, 3], [4, 5, 6]]))
    assert dx.array_sync() == [[2, 1, 0], [0, 0, 0]]


# --- TensorBuffer, buffer, rand --------------------------------------------------------------

def test_buffer_set_get_and_to_tensor():
    b = tf.buffer([2, 3], "int32")
    assert (b.shape, b.dtype, b.strides, b.rank, b.size) == ([2, 3], "int32", [3], 2, 6)
    assert list(b.values) == [0] * 6
    b.set(5, 1, 2)
    b.set(-7.9, 0, 0)  # int32 truncates, as an Int32Array stores it
    assert (b.get(1, 2), b.get(0, 0)) == (5, -7)
    t = b.to_tensor()
    b.set(1, 0, 1)  # the tensor holds a copy
    assert_tensor(t, [[-7, 0, 0], [0, 0, 5]], "int32")
    assert (b.loc_to_index([1, 1]), b.index_to_loc(4)) == (4, [1, 1])
    t.dispose()


def test_buffer_dtypes_values_and_scalars():
    assert tf.buffer([2]).dtype == "float32"
    flags = tf.buffer([2], "bool", [1, 0])
    assert (flags.get(0), flags.get(1)) == (True, False)
    shared = array.array("f", [1, 2, 3, 4])
    b = tf.buffer([2, 2], "float32", shared)
    assert b.values is shared  # a typed array of the dtype is used as is, as TF.js does
    s = tf.buffer([])
    s.set(3)
    assert s.get() == 3 and s.index_to_loc(0) == [] and s.loc_to_index([]) == 0
    words = tf.buffer([2], "string")
    words.set("hi", 1)
    t = words.to_tensor()
    assert t.array_sync() == ["", "hi"]
    t.dispose()


def test_buffer_errors():
    assert_raises(ValueError, lambda: tf.buffer([2, 2], "float32", [1, 2, 3]), "TensorBuffer", "3", "4")
    assert_raises(ValueError, lambda: tf.buffer([-1]), "buffer", "shape")
    assert_raises(TypeError, lambda: tf.buffer([2], "float64"), "dtype")
    assert_raises(TypeError, lambda: tf.buffer([2], "complex64"), "complex64")
    b = tf.buffer([2, 3])
    assert_raises(ValueError, lambda: b.get(2, 0), "get", "out of range")
    assert_raises(ValueError, lambda: b.set(1, 0, 3), "set", "out of range")
    assert_raises(ValueError, lambda: b.set(1, 0), "set", "coordinates (1)", "rank (2)")


def test_tensor_buffer_and_buffer_sync():
    x = tf.tensor2d([[1, 2], [3, 4]], dtype="int32")
    b = x.buffer_sync()
    assert isinstance(b, tf.TensorBuffer) and (b.shape, b.dtype) == ([2, 2], "int32")
    b.set(9, 0, 0)
    assert x.array_sync() == [[1, 2], [3, 4]]  # a copy
    ab = asyncio.run(x.buffer())
    assert ab.get(1, 0) == 3 and ab.dtype == "int32"
    x.dispose()
    with pytest.raises(tf.DisposedTensorError):
        x.buffer_sync()


def test_rand_calls_the_function_per_element():
    values = iter(range(10))
    t = tf.rand([2, 3], lambda: next(values) + 0.5)
    assert_tensor(t, np.arange(6, dtype=np.float32).reshape(2, 3) + 0.5, "float32")
    assert_tensor(tf.rand([3], lambda: -2.7, "int32"), [-2, -2, -2], "int32")
    assert_tensor(tf.rand([2], lambda: True, "bool"), [True, True], "bool")
    assert tf.rand([0, 4], lambda: 1 / 0).shape == (0, 4)  # never called
    tf.dispose([t])
    assert_raises(TypeError, lambda: tf.rand([2], 3), "rand", "rand_function")
    assert_raises(TypeError, lambda: tf.rand([2], lambda: 1, "string"), "rand", "dtype")
    assert_raises(ValueError, lambda: tf.rand([-2], lambda: 1), "rand", "shape")
    assert_raises(ZeroDivisionError, lambda: tf.rand([2], lambda: 1 / 0))


# --- shapes and numbers --------------------------------------------------------------------

def test_ensure_shape():
    x = tf.zeros([2, 3])
    assert tf.ensure_shape(x, [2, 3]) is x
    assert tf.ensure_shape(x, [None, 3]) is x and tf.ensure_shape(x, (None, None)) is x
    words = tf.tensor(["a", "b"])
    assert tf.ensure_shape(words, [2]) is words
    assert tf.ensure_shape([[1, 2]], [1, None]).shape == (1, 2)
    assert_raises(ValueError, lambda: tf.ensure_shape(x, [3, None]), "ensure_shape", "[2, 3]", "[3, None]")
    assert_raises(ValueError, lambda: tf.ensure_shape(x, [2, 3, 1]), "ensure_shape")
    assert_raises(ValueError, lambda: tf.ensure_shape([1, 2], [3]), "ensure_shape")
    assert_raises(TypeError, lambda: tf.ensure_shape(x, [2, "3"]), "ensure_shape", "shape")
    tf.dispose([x, words])


def test_enclosing_power_of_two():
    cases = {1: 1, 2: 2, 3: 4, 5: 8, 1024: 1024, 1025: 2048, 2 ** 40 + 1: 2 ** 41, 2.5: 4, 0.3: 0, 0.5: 0}
    for value, expected in cases.items():
        assert tf.enclosing_power_of_two(value) == expected, value
        assert isinstance(tf.enclosing_power_of_two(value), int)
    assert tf.enclosing_power_of_two(np.int32(6)) == 8
    for bad in (0, -3, math.nan, math.inf):
        with pytest.raises(ValueError, match="enclosing_power_of_two"):
            tf.enclosing_power_of_two(bad)
    with pytest.raises(TypeError, match="enclosing_power_of_two"):
        tf.enclosing_power_of_two("8")


def test_cosine_window():
    for n, a, b in ((5, 0.5, 0.5), (6, 0.54, 0.46), (2, 1.0, 2.0)):
        denominator = n - 1 if n % 2 else n  # periodic for even lengths, as TF.js
        expected = a - b * np.cos(2 * np.pi * np.arange(n) / denominator)
        assert_tensor(tf.cosine_window(n, a, b), expected, "float32")
    assert_tensor(tf.cosine_window(5, 0.5, 0.5), tf.signal.hann_window(5).numpy())
    assert np.isnan(tf.cosine_window(1, 0.5, 0.5).numpy()).all()  # TF.js: 0 / 0
    assert tf.cosine_window(0, 1, 1).shape == (0,)
    assert_raises(ValueError, lambda: tf.cosine_window(-1, 1, 1), "cosine_window", "window_length")


# --- small computations --------------------------------------------------------------------

def test_moving_average(rng):
    v = rng.standard_normal((2, 3)).astype(np.float32)
    x = rng.standard_normal((2, 3)).astype(np.float32)
    decay, step = 0.6, 3
    update = (x - v) * (1 - decay)
    assert_tensor(tf.moving_average(v, x, decay, step), v + update / (1 - decay ** step), "float32")
    assert_tensor(tf.moving_average(v, x, tf.scalar(decay), zero_debias=False), v + update)
    assert_tensor(tf.moving_average(v, x, decay, tf.scalar(step)), v + update / (1 - decay ** step))


def test_moving_average_errors():
    assert_raises(ValueError, lambda: tf.moving_average([1.0], [1.0], 0.5), "moving_average", "step")
    assert_raises(ValueError, lambda: tf.moving_average([1.0], [1.0, 2.0], 0.5, 1), "moving_average", "shape")
    v, x = tf.zeros([1]), tf.zeros([1], "int32")
    assert_raises(TypeError, lambda: tf.moving_average(v, x, 0.5, 1), "moving_average", "dtype")
    tf.dispose([v, x])


def _in_top_k(predictions, targets, k):
    return asyncio.run(tf.in_top_k_async(predictions, targets, k))


def test_in_top_k_async_matches_a_sort(rng):
    predictions = rng.standard_normal((4, 3, 6)).astype(np.float32)
    targets = rng.integers(0, 6, (4, 3)).astype(np.int32)
    for k in (1, 3, 6):
        top = np.argsort(-predictions, axis=-1, kind="stable")[..., :k]
        assert_tensor(_in_top_k(predictions, targets, k), (top == targets[..., None]).any(-1), "bool")
    # ties rank the lower index first, as TF.js's stable sort
    assert _in_top_k([[1.0, 1.0, 1.0]], [1], 1).array_sync() == [False]
    assert _in_top_k([[1.0, 1.0, 1.0]], [0], 1).array_sync() == [True]
    assert asyncio.iscoroutinefunction(tf.in_top_k_async)


def test_in_top_k_async_errors():
    def run(*args, **kw):
        return lambda: _in_top_k(*args, **kw)
    assert_raises(ValueError, run([1.0, 2.0], 1, 1), "in_top_k_async", "rank 2 or higher")
    assert_raises(ValueError, run([[1.0, 2.0]], [[1]], 1), "in_top_k_async", "targets")
    assert_raises(ValueError, run([[1.0, 2.0]], [1, 0], 1), "in_top_k_async", "targets")
    assert_raises(ValueError, run([[1.0, 2.0]], [1], 3), "in_top_k_async", "'k'")
    assert_raises(ValueError, run([[1.0, 2.0]], [1], 0), "in_top_k_async", "'k'")


def _sigmoid(x):
    return 1 / (1 + np.exp(-x))


def _lstm_reference(forget_bias, kernel, bias, data, c, h):
    gates = np.concatenate([data, h], 1) @ kernel + bias
    i, j, f, o = np.split(gates, 4, axis=1)
    new_c = c * _sigmoid(f + forget_bias) + _sigmoid(i) * np.tanh(j)
    return new_c, np.tanh(new_c) * _sigmoid(o)


def _lstm_inputs(rng, batch=2, inputs=3, units=4):
    n = rng.standard_normal
    return (np.float32(1.0), n((inputs + units, 4 * units)).astype(np.float32) * 0.5,
            n(4 * units).astype(np.float32), n((batch, inputs)).astype(np.float32),
            n((batch, units)).astype(np.float32), n((batch, units)).astype(np.float32))


def test_basic_lstm_cell_matches_numpy(rng):
    args = _lstm_inputs(rng)
    new_c, new_h = tf.basic_lstm_cell(*args)
    ref_c, ref_h = _lstm_reference(*args)
    assert_tensor(new_c, ref_c, "float32", rtol=1e-4, atol=1e-5)
    assert_tensor(new_h, ref_h, "float32", rtol=1e-4, atol=1e-5)


def test_basic_lstm_cell_gradients(rng):
    forget_bias, kernel, bias, data, c, h = _lstm_inputs(rng, batch=2, inputs=2, units=2)
    for out in (0, 1):  # through new_c and through new_h, to every tensor input
        assert_gradients_match_numeric(
            lambda k, b, d, c_, h_: tf.basic_lstm_cell(forget_bias, k, b, d, c_, h_)[out],
            kernel, bias, data, c, h)


def test_basic_lstm_cell_errors():
    ok = dict(forget_bias=1.0, lstm_kernel=tf.zeros([5, 8]), lstm_bias=tf.zeros([8]), data=tf.zeros([2, 3]),
              c=tf.zeros([2, 2]), h=tf.zeros([2, 2]))

    def call(**changes):
        return lambda: tf.basic_lstm_cell(**{**ok, **changes})
    assert_raises(ValueError, call(data=[1.0, 2.0]), "basic_lstm_cell", "'data'", "rank 2")
    assert_raises(ValueError, call(lstm_kernel=tf.zeros([5, 6])), "basic_lstm_cell", "lstm_kernel")
    assert_raises(ValueError, call(c=tf.zeros([3, 2])), "basic_lstm_cell", "'c'")
    tf.dispose(list(ok.values()))


def test_multi_rnn_cell_chains_the_cells(rng):
    batch, inputs, units = 2, 3, 4
    first = _lstm_inputs(rng, batch, inputs, units)
    second = _lstm_inputs(rng, batch, units, units)
    cells = [lambda d, c, h, p=p: tf.basic_lstm_cell(p[0], p[1], p[2], d, c, h) for p in (first, second)]
    cs, hs = [first[4], second[4]], [first[5], second[5]]
    new_cs, new_hs = tf.multi_rnn_cell(cells, first[3], cs, hs)
    c0, h0 = _lstm_reference(*first[:3], first[3], cs[0], hs[0])
    c1, h1 = _lstm_reference(*second[:3], h0, cs[1], hs[1])
    for got, want in zip(new_cs + new_hs, (c0, c1, h0, h1)):
        assert_tensor(got, want, "float32", rtol=1e-4, atol=1e-5)
    assert_raises(ValueError, lambda: tf.multi_rnn_cell(cells, first[3], cs[:1], hs), "multi_rnn_cell", "same length")


def test_no_leaks_in_the_composed_ops(rng):
    args = _lstm_inputs(rng)
    cell = lambda d, c, h: tf.basic_lstm_cell(*args[:3], d, c, h)  # noqa: E731
    before = tf.memory().num_tensors
    outputs = [tf.basic_lstm_cell(*args), tf.multi_rnn_cell([cell], args[3], [args[4]], [args[5]]),
               tf.moving_average([1.0, 2.0], [3.0, 4.0], 0.5, 2), tf.concat3d([np.zeros((1, 1, 1))] * 2, 2),
               tf.pad2d([[1.0]], [[1, 1], [0, 0]]), tf.reverse1d([1, 2]),
               tf.slice3d(np.ones((2, 2, 2)), [0, 0, 0], [1, 1, 1]),
               _in_top_k([[1.0, 2.0]], [1], 1), tf.rand([2], lambda: 0.0)]
    assert tf.memory().num_tensors == before + len(tensors_in(outputs))
    tf.dispose(outputs)
    assert tf.memory().num_tensors == before
    assert_no_leak(lambda: tf.basic_lstm_cell(*args[:3], args[3], args[4], np.zeros((2, 5), np.float32)))


# --- environment ---------------------------------------------------------------------------

def test_op_is_the_engines_decorator():
    assert tf.op is engine_op

    @tf.op
    def twice_plus_one(x):
        return tf.add(tf.mul(x, 2), 1)  # the intermediates are disposed on return
    x = tf.scalar(3.0)
    before = tf.memory().num_tensors
    y = twice_plus_one(x)
    assert y.array_sync() == 7 and tf.memory().num_tensors == before + 1
    assert twice_plus_one.__name__ == "twice_plus_one"


def test_force_half_float_sets_the_webgl_flag():
    assert tf.env().get("WEBGL_FORCE_F16_TEXTURES") is False
    tf.force_half_float()
    assert tf.env().get("WEBGL_FORCE_F16_TEXTURES") is True


def test_deprecation_warnings_can_be_disabled():
    with pytest.warns(FutureWarning, match="old_api is deprecated.*disable_deprecation_warnings"):
        tf.deprecation_warn("old_api is deprecated.")
    with pytest.warns(UserWarning, match="deprecation warnings have been disabled"):
        tf.disable_deprecation_warnings()
    assert tf.env().get("DEPRECATION_WARNINGS_ENABLED") is False
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        tf.deprecation_warn("old_api is deprecated.")  # silent now
