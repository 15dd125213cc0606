"""Creating tensors: from values (every accepted input kind), filled, ranges, eye, random draws."""
import array
import math

import numpy as np
import pytest

import pytfweb as tf

from .helpers import assert_no_leak, assert_raises, assert_tensor


# --- tf.tensor from values -------------------------------------------------------------------

@pytest.mark.parametrize("values, shape, dtype", [
    (3, (), "float32"),
    (2.5, (), "float32"),
    (True, (), "bool"),
    ([1, 2, 3], (3,), "float32"),                      # numbers are float32 unless told (TF.js inferDtype)
    ([[1, 2, 3], [4, 5, 6]], (2, 3), "float32"),
    ([[[True], [False]]], (1, 2, 1), "bool"),
    ((1.5, 2.5), (2,), "float32"),                    # tuples nest like lists
    ([], (0,), "float32"),
    ([[], []], (2, 0), "float32"),
])
def test_tensor_infers_shape_and_dtype_from_python_values(values, shape, dtype):
    t = tf.tensor(values)
    assert t.shape == shape and isinstance(t.shape, tuple)
    assert t.dtype == dtype
    assert_tensor(t, np.array(values, dtype={"float32": np.float32, "bool": bool}[dtype]).reshape(shape))


def test_tensor_with_a_shape_reshapes_flat_values():
    t = tf.tensor([1, 2, 3, 4, 5, 6], [2, 3])
    assert t.shape == (2, 3)
    assert t.array_sync() == [[1, 2, 3], [4, 5, 6]]
    # TF.js allows the last level of a nested list to be flat against a deeper shape
    assert tf.tensor([[1, 2, 3, 4]], (1, 2, 2)).array_sync() == [[[1, 2], [3, 4]]]
    # a scalar shape given as an int
    assert tf.tensor([7, 8], 2).shape == (2,)


@pytest.mark.parametrize("values, dtype, expected", [
    ([1.7, -1.7, 2.5], "int32", [1, -1, 2]),          # float -> int32 truncates toward zero
    ([1, 0, 1], "bool", [True, False, True]),
    ([True, False], "float32", [1.0, 0.0]),
    ([True, False], "int32", [1, 0]),
    ([0, 1.0], "bool", [False, True]),
])
def test_explicit_dtype_converts_values(values, dtype, expected):
    t = tf.tensor(values, dtype=dtype)
    assert t.dtype == dtype
    assert t.array_sync() == expected


@pytest.mark.parametrize("typecode, dtype", [("f", "float32"), ("d", "float32"), ("i", "int32"), ("b", "int32"),
                                             ("h", "int32"), ("l", "int32"), ("B", "int32")])
def test_tensor_from_array_array(typecode, dtype):
    # As TF.js types typed arrays: float arrays are float32, every integer array int32
    # (a Uint8Array too, which is what data_sync() returns for bool).
    buf = array.array(typecode, [1, 2, 3, 4])
    t = tf.tensor(buf, [2, 2])
    assert (t.shape, t.dtype) == ((2, 2), dtype)
    assert t.array_sync() == [[1, 2], [3, 4]]
    buf[0] = 100  # the tensor holds a copy
    assert t.data_sync()[0] == 1


def test_bytes_above_one_in_a_byte_array_are_int32_not_a_bool_error():
    assert tf.tensor(array.array("B", [0, 200])).array_sync() == [0, 200]


def test_bool_round_trip_through_data_sync_needs_the_dtype():
    t = tf.tensor([True, False, True])
    again = tf.tensor(t.data_sync(), t.shape, "bool")
    assert again.array_sync() == [True, False, True]


def test_tensor_from_memoryview():
    flat = memoryview(array.array("f", [1.5, 2.5, 3.5]))
    t = tf.tensor(flat)
    assert (t.shape, t.dtype) == ((3,), "float32")
    assert t.array_sync() == [1.5, 2.5, 3.5]
    grid = memoryview(np.arange(6, dtype=np.int32).reshape(2, 3))
    g = tf.tensor(grid)
    assert (g.shape, g.dtype) == ((2, 3), "int32")
    assert g.array_sync() == [[0, 1, 2], [3, 4, 5]]
    assert tf.tensor(memoryview(bytes([0, 7, 255]))).array_sync() == [0, 7, 255]   # Uint8Array -> int32


@pytest.mark.parametrize("arr, dtype", [
    (np.array([[1.5, 2], [3, 4]], dtype=np.float64), "float32"),
    (np.array([[1.5, 2], [3, 4]], dtype=np.float32), "float32"),
    (np.array([1, -2, 3], dtype=np.int64), "int32"),
    (np.array([1, 2, 3], dtype=np.uint8), "int32"),
    (np.array([True, False]), "bool"),
    (np.float64(2.5), "float32"),
    (np.array(7, dtype=np.int32), "int32"),
])
def test_tensor_from_numpy(arr, dtype):
    t = tf.tensor(arr)
    assert t.shape == np.shape(arr) and t.dtype == dtype
    assert_tensor(t, np.asarray(arr))


def test_numpy_input_is_copied():
    arr = np.array([1.0, 2.0], dtype=np.float32)
    t = tf.tensor(arr)
    arr[0] = 99
    assert t.array_sync() == [1.0, 2.0]


def test_non_contiguous_numpy_input():
    arr = np.arange(12, dtype=np.float32).reshape(3, 4)[:, ::2]
    assert_tensor(tf.tensor(arr), arr)


# --- errors ----------------------------------------------------------------------------------

@pytest.mark.parametrize("values", [[[1, 2], [3]], [[1, 2], 3], [1, [2]], [[[1], [2]], [[3]]]])
def test_ragged_lists_raise_value_error_naming_op_and_argument(values):
    assert_raises(ValueError, lambda: tf.tensor(values), "tensor", "'values'", "ragged")


def test_ragged_operand_of_an_op_names_that_op_and_argument():
    assert_raises(ValueError, lambda: tf.add([[1, 2], [3]], 1), "add", "'a'", "ragged")


def test_flat_list_length_must_match_shape():
    assert_raises(ValueError, lambda: tf.tensor([1, 2, 3], [2, 2]), "tensor", "[2, 2]", "4", "3")
    assert_raises(ValueError, lambda: tf.tensor([[1, 2], [3, 4]], [4, 1]), "tensor", "[4, 1]")


def test_unknown_dtype_raises_type_error_naming_dtype():
    for bad in ("float64", "str", 5, np.float64):   # ('string' is a dtype: tests/unit/test_string.py)
        assert_raises(TypeError, lambda: tf.tensor([1, 2], dtype=bad), "tensor", "'dtype'")
    assert_raises(TypeError, lambda: tf.zeros([2], "int8"), "zeros", "'dtype'")


def test_values_of_the_wrong_type_raise_type_error():
    assert_raises(TypeError, lambda: tf.tensor(object()), "tensor", "'values'")   # (a str makes a string tensor)
    assert_raises(TypeError, lambda: tf.tensor({"a": 1}), "tensor", "'values'")
    assert_raises(TypeError, lambda: tf.tensor([1, "2"]), "tensor", "'values'", "str")
    assert_raises(TypeError, lambda: tf.tensor([1, None]), "tensor", "'values'")
    assert_raises(TypeError, lambda: tf.tensor(np.array([1 + 2j])), "tensor", "complex")
    t = tf.tensor([1])
    assert_raises(TypeError, lambda: tf.tensor(t), "tensor", "'values'", "clone")


def test_bad_shape_argument():
    assert_raises(ValueError, lambda: tf.tensor([1, 2], [-1, 2]), "tensor", "'shape'")
    assert_raises(TypeError, lambda: tf.tensor([1, 2], [2.0]), "tensor", "'shape'")


@pytest.mark.parametrize("values", [[True, False], [1, 0], [1.0, 0.0], np.array([0, 1]), np.array([1.0, 0.0])])
def test_bool_accepts_true_false_and_zero_one(values):
    assert tf.tensor(values, dtype="bool").array_sync() == [bool(v) for v in values]


@pytest.mark.parametrize("values, want", [([2], [True]), ([0, 0.5, 0.49], [False, True, False]), ([-1], [True]),
                                          ([-0.5, float("nan")], [False, True]), (np.array([0, 2]), [False, True]),
                                          (np.array([0.5, -0.4]), [True, False])])
def test_bool_from_other_numbers_rounds_as_tfjs(values, want):
    # TF.js's toTypedArray: Math.round(v) !== 0
    assert tf.tensor(values, dtype="bool").array_sync() == want


def test_fill_with_bool_truncates_as_a_typed_array():
    # TF.js fills a Uint8Array: 0.5 is stored as 0
    assert tf.fill([2], 2, "bool").array_sync() == [True, True]
    assert tf.fill([1], 0.5, "bool").array_sync() == [False]


# --- scalar and tensorNd ---------------------------------------------------------------------

def test_scalar():
    assert (tf.scalar(3).shape, tf.scalar(3).dtype) == ((), "float32")
    assert tf.scalar(3, "int32").dtype == "int32"
    assert tf.scalar(True).dtype == "bool"
    assert tf.scalar(np.float32(1.5)).array_sync() == 1.5
    assert_raises(ValueError, lambda: tf.scalar([1]), "scalar", "'value'")
    assert_raises(ValueError, lambda: tf.scalar(np.array([1.0])), "scalar")


@pytest.mark.parametrize("rank", range(1, 7))
def test_tensor_nd_checks_rank(rank):
    make = getattr(tf, f"tensor{rank}d")
    shape = tuple(range(1, rank + 1))
    values = np.arange(math.prod(shape), dtype=np.float32).reshape(shape)
    assert make(values.tolist()).shape == shape
    assert_raises(ValueError, lambda: make([[[[[[[1]]]]]]]), f"tensor{rank}d", "rank")
    if rank == 1:   # TF.js's tensor1d(values, dtype): no shape
        assert make([1, 2], "int32").dtype == "int32"
        assert_raises(TypeError, lambda: make([1, 2], [2]), "tensor1d", "'dtype'", "no shape")
        return
    assert make(values.reshape(-1).tolist(), list(shape)).shape == shape
    assert make(values.reshape(-1).tolist(), shape, "int32").dtype == "int32"
    wrong = (1,) * (rank + 1)
    assert_raises(ValueError, lambda: make([1], wrong), f"tensor{rank}d", "'shape'")


def test_tensor2d_with_flat_values_needs_a_shape():
    assert_raises(ValueError, lambda: tf.tensor2d([1, 2, 3, 4]), "tensor2d", "shape")


# --- filled ----------------------------------------------------------------------------------

@pytest.mark.parametrize("make, value", [(tf.zeros, 0), (tf.ones, 1)])
@pytest.mark.parametrize("dtype", ["float32", "int32", "bool"])
def test_zeros_and_ones(make, value, dtype):
    t = make([2, 3], dtype)
    assert (t.shape, t.dtype) == ((2, 3), dtype)
    assert_tensor(t, np.full((2, 3), value, dtype={"float32": np.float32, "int32": np.int32, "bool": bool}[dtype]))
    assert make([2]).dtype == "float32"
    assert make([]).shape == ()
    assert make(3).shape == (3,)


def test_fill_infers_dtype_from_value():
    assert (tf.fill([2], 3).dtype, tf.fill([2], 3).array_sync()) == ("float32", [3.0, 3.0])
    assert tf.fill([2], True).array_sync() == [True, True]
    assert tf.fill([2, 1], 7.9, "int32").array_sync() == [[7], [7]]
    assert tf.fill([0], 1.0).shape == (0,)


def test_zeros_and_ones_like_keep_shape_and_dtype():
    t = tf.tensor([[1, 2], [3, 4]], dtype="int32")
    z, o = tf.zeros_like(t), tf.ones_like(t)
    assert (z.shape, z.dtype, z.array_sync()) == ((2, 2), "int32", [[0, 0], [0, 0]])
    assert (o.shape, o.dtype, o.array_sync()) == ((2, 2), "int32", [[1, 1], [1, 1]])
    assert tf.ones_like(tf.tensor([True])).array_sync() == [True]


def test_like_ops_on_python_values_leave_only_their_result():
    before = tf.memory().num_tensors
    z = tf.zeros_like([[1.0, 2.0]])
    o = tf.ones_like([1, 2, 3])
    assert tf.memory().num_tensors == before + 2
    assert (z.shape, o.shape) == ((1, 2), (3,))


@pytest.mark.parametrize("bad, exc", [([-1], ValueError), ([2.5], TypeError), ("ab", TypeError), (None, TypeError)])
def test_filled_shape_errors(bad, exc):
    assert_raises(exc, lambda: tf.zeros(bad), "zeros", "'shape'")


# --- range, linspace, eye ----------------------------------------------------------------------

@pytest.mark.parametrize("args, kwargs, expected", [
    ((0, 5), {}, [0, 1, 2, 3, 4]),
    ((5,), {}, [0, 1, 2, 3, 4]),                     # Python-style range(n)
    ((1, 10, 3), {}, [1, 4, 7]),
    ((10, 1, -3), {}, [10, 7, 4]),
    ((5, 0), {}, [5, 4, 3, 2, 1]),                    # TF.js counts down when only the default step is given
    ((5, 0, 2), {}, []),
    ((0, 5, -1), {}, []),
    ((3, 3), {}, []),
    ((0, 1, 0.25), {}, [0, 0.25, 0.5, 0.75]),
    ((0, 4), {"dtype": "int32"}, [0, 1, 2, 3]),
])
def test_range(args, kwargs, expected):
    t = tf.range(*args, **kwargs)
    assert t.dtype == kwargs.get("dtype", "float32")
    assert t.shape == (len(expected),)
    assert t.array_sync() == expected


def test_range_errors():
    assert_raises(ValueError, lambda: tf.range(0, 5, 0), "range", "'step'")
    assert_raises(TypeError, lambda: tf.range(0, 5, dtype="bool"), "range", "'dtype'")
    assert_raises(TypeError, lambda: tf.range("0", 5), "range", "'start'")


def test_linspace():
    t = tf.linspace(0, 1, 4)
    # TF.js 4.22: tf.linspace(0, 1, 4).dataSync()
    assert t.data_sync().tolist() == [0, 0.3333333432674408, 0.6666666865348816, 1]
    assert tf.linspace(-2, 2, 5).array_sync() == [-2, -1, 0, 1, 2]
    assert tf.linspace(3, 9, 1).array_sync() == [3]
    assert_raises(ValueError, lambda: tf.linspace(0, 1, 0), "linspace", "'num'")
    assert_raises(TypeError, lambda: tf.linspace(0, 1, 2.0), "linspace", "'num'")


def test_eye():
    assert_tensor(tf.eye(3), np.eye(3), "float32")
    assert_tensor(tf.eye(2, 3), np.eye(2, 3))
    assert_tensor(tf.eye(3, 2, dtype="int32"), np.eye(3, 2, dtype=np.int32), "int32")
    batched = tf.eye(2, batch_shape=[3])
    assert_tensor(batched, np.broadcast_to(np.eye(2), (3, 2, 2)))
    assert tf.eye(2, 2, [2, 3]).shape == (2, 3, 2, 2)
    assert tf.eye(0).shape == (0, 0)
    assert_raises(ValueError, lambda: tf.eye(-1), "eye", "'num_rows'")
    assert_raises(TypeError, lambda: tf.eye(2.5), "eye", "'num_rows'")


# --- random --------------------------------------------------------------------------------

# Values from TensorFlow.js 4.22 (Node, @tensorflow/tfjs-core on cpu) for the same calls: a
# seed must mean the same numbers here as there.
TFJS_RANDOM = [
    (lambda: tf.random_normal([6], 0, 1, "float32", 42),
     [1.9053093194961548, 0.4774465560913086, 0.4454464018344879, -0.38785839080810547, 0.07017837464809418,
      0.5103760957717896]),
    (lambda: tf.random_normal([4], 2, 3, "float32", "abc"),
     [1.2852507829666138, -4.097177982330322, 2.8645782470703125, 1.1538472175598145]),
    (lambda: tf.random_normal([4], 2, 3, "int32", 7), [-2, 2, -1, -2]),
    # seeds 8 and 28 draw pairs whose first value falls outside two standard deviations
    (lambda: tf.truncated_normal([8], 0, 1, "float32", 8),
     [-0.4523831307888031, -0.7830008864402771, -0.7046470642089844, 0.18400532007217407, 0.5848993062973022,
      0.20727403461933136, 0.7974613308906555, -0.5933562517166138]),
    (lambda: tf.truncated_normal([2, 3], 1, 2, "float32", 28),
     [0.1357704997062683, -0.30775344371795654, 0.9629107117652893, -0.14642241597175598, 0.7674944996833801,
      -0.6054689288139343]),
    (lambda: tf.random_uniform([6], 0, 1, "float32", 42),
     [0.6848635077476501, 0.5463244915008545, 0.8455933332443237, 0.1990855187177658, 0.5637381076812744,
      0.9635390043258667]),
    (lambda: tf.random_uniform([6], -5, 5, "int32", 42), [1, 0, 3, -3, 0, 4]),   # truncated toward zero
    (lambda: tf.random_uniform([3], 0, 1, "float32", 5.0),                        # seed 5.0 is '5' in JS
     [0.2526167333126068, 0.20567649602890015, 0.9055684208869934]),
]


@pytest.mark.parametrize("make, expected", TFJS_RANDOM)
def test_seeded_draws_match_tfjs(make, expected):
    assert make().data_sync().tolist() == expected


@pytest.mark.parametrize("make", [
    lambda seed: tf.random_normal([50], seed=seed),
    lambda seed: tf.truncated_normal([50], seed=seed),
    lambda seed: tf.random_uniform([50], seed=seed),
])
def test_same_seed_same_values_different_seed_different_values(make):
    a, b, c = make(3).data_sync(), make(3).data_sync(), make(4).data_sync()
    assert a == b
    assert a != c
    assert make(None).data_sync() != make(None).data_sync()


N = 10_000


def test_random_normal_statistics():
    x = tf.random_normal([100, 100], mean=3, stddev=2, seed=1).numpy()
    assert x.shape == (100, 100) and x.dtype == np.float32
    # standard error of the mean is 2/100; of the std about 2/sqrt(2N)
    assert abs(x.mean() - 3) < 5 * 2 / 100
    assert abs(x.std() - 2) < 5 * 2 / math.sqrt(2 * N)
    assert np.mean(np.abs(x - 3) > 4) > 0.03      # about 4.6% beyond two stddev: not truncated


def test_truncated_normal_stays_within_two_stddev():
    x = tf.truncated_normal([N], mean=-1, stddev=0.5, seed=2).numpy()
    assert x.min() >= -2 and x.max() <= 0
    assert abs(x.mean() + 1) < 5 * 0.5 / 100
    # the standard deviation of a normal truncated at two standard deviations is 0.8796 of it
    assert abs(x.std() - 0.5 * 0.8796) < 0.02


def test_random_uniform_statistics_and_bounds():
    x = tf.random_uniform([N], minval=-2, maxval=6, seed=3).numpy()
    assert x.min() >= -2 and x.max() < 6
    assert abs(x.mean() - 2) < 5 * 8 / math.sqrt(12 * N)
    assert abs(x.std() - 8 / math.sqrt(12)) < 0.1
    counts = np.histogram(x, bins=8, range=(-2, 6))[0]
    assert counts.min() > N / 8 * 0.85


def test_random_int32():
    u = tf.random_uniform([N], 0, 10, "int32", seed=4)
    assert u.dtype == "int32"
    values = u.numpy()
    assert set(np.unique(values)) == set(range(10))
    n = tf.random_normal([1000], 0, 5, "int32", seed=5)
    assert n.dtype == "int32" and abs(n.numpy().mean()) < 1


def test_random_errors():
    assert_raises(ValueError, lambda: tf.random_normal([2], stddev=-1), "random_normal", "'stddev'")
    assert_raises(ValueError, lambda: tf.truncated_normal([2], stddev=-1), "truncated_normal", "'stddev'")
    assert_raises(TypeError, lambda: tf.random_normal([2], dtype="bool"), "random_normal", "'dtype'")
    assert_raises(TypeError, lambda: tf.random_uniform([2], dtype="string"), "random_uniform", "'dtype'")
    assert_raises(ValueError, lambda: tf.random_uniform([2], 1, 0), "random_uniform", "'minval'")
    assert_raises(ValueError, lambda: tf.random_normal([-2]), "random_normal", "'shape'")


def test_random_uniform_bool_as_tfjs_stores_it():
    # TF.js writes each draw into a Uint8Array: truncated, so [0, 1) is false (random_uniform_test's
    # 'should return a random 1D bool array'), and a draw of 256 or more wraps
    assert tf.random_uniform([50], 0, 1, "bool", seed=3).numpy().tolist() == [False] * 50
    t = tf.random_uniform([200], 0, 3, "bool", seed=3)
    draws = tf.random_uniform([200], 0, 3, seed=3).numpy()
    assert t.dtype == "bool" and t.numpy().tolist() == (np.trunc(draws) != 0).tolist()
    assert tf.random_uniform([4], 256, 256.5, "bool").numpy().tolist() == [False] * 4


def test_random_standard_normal():
    t = tf.random_standard_normal([3], seed=42)
    assert t.data_sync() == tf.random_normal([3], 0, 1, seed=42).data_sync()


# --- clone -------------------------------------------------------------------------------------

def test_clone_shares_data_and_lives_on_its_own():
    t = tf.tensor([[1, 2], [3, 4]], dtype="int32")
    before = tf.memory()
    c = t.clone()
    after = tf.memory()
    assert c is not t and c.id != t.id
    assert (c.shape, c.dtype, c.array_sync()) == (t.shape, t.dtype, t.array_sync())
    assert after.num_tensors == before.num_tensors + 1
    assert (after.num_data_buffers, after.num_bytes) == (before.num_data_buffers, before.num_bytes)
    t.dispose()
    assert c.array_sync() == [[1, 2], [3, 4]]
    assert tf.memory().num_data_buffers == before.num_data_buffers
    c.dispose()
    assert tf.memory().num_data_buffers == before.num_data_buffers - 1


def test_tf_clone_of_python_values_leaves_only_the_clone():
    before = tf.memory().num_tensors
    c = tf.clone([1, 2])
    assert tf.memory().num_tensors == before + 1
    assert c.array_sync() == [1, 2]


def test_creation_errors_leave_nothing_behind():
    for fn in (lambda: tf.tensor([[1], [2, 3]]), lambda: tf.tensor([1, 2], [3]), lambda: tf.eye(-2),
               lambda: tf.variable([[1], [2, 3]]), lambda: tf.zeros_like([[1], []])):
        assert_no_leak(fn)
