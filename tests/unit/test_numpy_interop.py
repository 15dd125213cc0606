"""numpy interop on the cpu backend: np.asarray(t) (numpy 2's __array__ with dtype= and copy=),
numpy operands on either side of an operator giving tensors, tf.tensor / convert_to_tensor of
ndarrays (every dtype, strided and 0-d arrays) with TF.js's dtype rules, and DLPack both ways."""
import array
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import pytfweb as tf
from pytfweb.core import tensor_values

from .helpers import assert_raises

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


# --- np.asarray(t): __array__ --------------------------------------------------------------------------

@pytest.mark.parametrize("values, dtype, np_dtype", [
    ([[1.5, -2.0], [3.0, 4.25]], "float32", np.float32), ([[1, -2], [3, 2**31 - 1]], "int32", np.int32),
    ([True, False, True], "bool", np.bool_), (7.5, "float32", np.float32), ([], "float32", np.float32)])
def test_asarray_gives_the_values_with_the_tensor_dtype_and_shape(values, dtype, np_dtype):
    t = tf.tensor(values, dtype=dtype)
    got = np.asarray(t)
    assert isinstance(got, np.ndarray) and got.dtype == np_dtype and got.shape == tuple(t.shape)
    np.testing.assert_array_equal(got, np.array(values, dtype=np_dtype))
    np.testing.assert_array_equal(np.array(t), got)


def test_asarray_of_complex_and_string_tensors():
    c = tf.complex(tf.tensor([1.0, -2.0]), tf.tensor([0.5, 3.0]))
    got = np.asarray(c)
    assert got.dtype == np.complex64
    np.testing.assert_array_equal(got, [1 + 0.5j, -2 + 3j])
    s = np.asarray(tf.tensor([["a", "bc"], ["d", "é"]]))
    assert s.dtype == object and s.tolist() == [["a", "bc"], ["d", "é"]]


def test_asarray_dtype_argument_converts_the_copy():
    t = tf.tensor([1.5, -2.5, 3.0])
    got = np.asarray(t, dtype=np.float64)
    assert got.dtype == np.float64
    np.testing.assert_array_equal(got, [1.5, -2.5, 3.0])
    np.testing.assert_array_equal(np.array(t, dtype=np.int64), [1, -2, 3])
    np.testing.assert_array_equal(t.__array__(np.float16), np.array([1.5, -2.5, 3.0], np.float16))


def test_asarray_is_a_copy_and_copy_false_raises():
    t = tf.tensor([1.0, 2.0])
    got = np.asarray(t)
    got[0] = 100
    assert t.data_sync().tolist() == [1.0, 2.0]
    assert np.array(t, copy=True).flags.writeable
    # numpy 2: copy=False means "never copy", which the tensor cannot honour: ValueError, as numpy expects
    with pytest.raises(ValueError, match="copy=False"):
        np.asarray(t, copy=False)
    with pytest.raises(ValueError, match="copy=False"):
        np.array(t, copy=False)
    assert_raises(ValueError, lambda: t.__array__(copy=False), "Tensor.__array__", "copy=False")


def test_asarray_of_a_disposed_tensor_raises():
    t = tf.tensor([1.0])
    t.dispose()
    with pytest.raises(tf.DisposedTensorError, match="disposed"):
        np.asarray(t)


def test_numpy_functions_take_tensors_through_asarray():
    t = tf.tensor([[1.0, 2.0], [3.0, 4.0]])
    assert np.sum(np.asarray(t)) == 10.0
    np.testing.assert_allclose(np.exp(t), np.exp(np.array([[1, 2], [3, 4]], np.float32)))
    stacked = np.array([tf.scalar(1.0), tf.scalar(2.0)])
    assert stacked.dtype == np.float32 and stacked.tolist() == [1.0, 2.0]


# --- numpy operands: the tensor's operators win ----------------------------------------------------------

@pytest.mark.parametrize("left", [np.array([2.0, 4.0]), np.float32(2), np.float64(2), np.int64(2),
                                  np.array(2, dtype=np.int32)], ids=repr)
def test_numpy_operand_on_the_left_gives_a_tensor(left):
    t = tf.tensor([1.0, 2.0])
    want_left = np.asarray(left, dtype=np.float32)
    cases = [(left + t, want_left + [1, 2]), (left - t, want_left - [1, 2]), (left * t, want_left * [1, 2]),
             (left / t, want_left / [1, 2]), (left ** t, want_left ** [1, 2]), (left < t, want_left < [1, 2]),
             (left >= t, want_left >= [1, 2]), (left == t, want_left == [1, 2]), (left != t, want_left != [1, 2])]
    for got, want in cases:
        assert type(got) is tf.Tensor, type(got)
        want = np.asarray(want)
        assert got.dtype == ("bool" if want.dtype == bool else "float32")
        np.testing.assert_allclose(np.asarray(got), want)


def test_numpy_operands_follow_tfjs_dtype_rules():
    i = tf.tensor([1, 2, 3], dtype="int32")
    got = np.array([1, 2, 3], dtype=np.int64) * i   # int64 is int32 here: int32 * int32
    assert type(got) is tf.Tensor and got.dtype == "int32" and got.data_sync().tolist() == [1, 4, 9]
    got = np.ones(3) + i                            # float64 is float32: int32 upcasts to float32
    assert got.dtype == "float32" and got.data_sync().tolist() == [2, 3, 4]
    m = np.eye(2) @ tf.tensor([[1.0, 2.0], [3.0, 4.0]])
    assert type(m) is tf.Tensor and m.array_sync() == [[1, 2], [3, 4]]


def test_numpy_operands_release_their_temporaries():
    t = tf.tensor([1.0, 2.0])
    before = tf.memory().num_tensors
    r = np.ones(2) + t
    assert tf.memory().num_tensors == before + 1
    r.dispose()


# --- tf.tensor(ndarray) ---------------------------------------------------------------------------------

@pytest.mark.parametrize("np_dtype, dtype", [
    (np.float32, "float32"), (np.float64, "float32"), (np.float16, "float32"), (np.int8, "int32"),
    (np.int16, "int32"), (np.int32, "int32"), (np.int64, "int32"), (np.uint8, "int32"), (np.uint16, "int32"),
    (np.uint32, "int32"), (np.uint64, "int32"), (np.bool_, "bool")])
def test_tensor_of_an_ndarray_takes_tfjs_dtype(np_dtype, dtype):
    a = (np.arange(-3, 3).reshape(2, 3) % (2 if np_dtype is np.bool_ else 100)).astype(np_dtype)
    for make in (tf.tensor, lambda x: tf.reshape(x, [2, 3]), lambda x: tf.convert_to_tensor(x, "x", "test")):
        t = make(a)
        assert (t.dtype, t.shape) == (dtype, (2, 3))
        np.testing.assert_array_equal(np.asarray(t), a.astype(np.asarray(t).dtype))


def test_tensor_of_ndarrays_wraps_int64_and_truncates_floats_as_an_int32array():
    big = np.array([2**40 + 5, -1, 2**31], dtype=np.int64)
    assert tf.tensor(big).data_sync().tolist() == [5, -1, -2**31]
    assert tf.tensor(big).data_sync().tolist() == tf.tensor(big.tolist(), dtype="int32").data_sync().tolist()
    floats = np.array([3e9, -1.7, np.nan, np.inf, 2.9])
    assert tf.tensor(floats, dtype="int32").data_sync().tolist() == \
        tf.tensor(floats.tolist(), dtype="int32").data_sync().tolist() == [-1294967296, -1, 0, 0, 2]
    assert tf.tensor(np.array([1e300, -1e300])).data_sync().tolist() == [float("inf"), float("-inf")]
    assert tf.tensor(np.array([0.4, 0.6, -2.0, np.nan]), dtype="bool").data_sync().tolist() == [0, 1, 1, 1]


def test_tensor_of_strided_and_zero_d_arrays():
    a = np.arange(24, dtype=np.float64).reshape(4, 6)
    for view in (a[::2, 1::2], a.T, a[:, ::-1], np.broadcast_to(np.arange(3.0), (2, 3))):
        t = tf.tensor(view)
        assert t.shape == view.shape
        np.testing.assert_array_equal(np.asarray(t), view.astype(np.float32))
    for zero_d, dtype in ((np.array(2.5), "float32"), (np.array(7, np.int64), "int32"), (np.float64(1.5), "float32"),
                          (np.array(True), "bool")):
        t = tf.tensor(zero_d)
        assert (t.shape, t.dtype) == ((), dtype)
        assert t.data_sync()[0] == zero_d
    assert tf.tensor(np.zeros((2, 0, 3))).shape == (2, 0, 3)
    assert tf.tensor(np.array([["a", "b"]])).array_sync() == [["a", "b"]]


def test_tensor_of_buffers_reads_them_whole_not_as_python_values(monkeypatch):
    calls = []
    monkeypatch.setattr(tensor_values, "_coerce", lambda *a: calls.append(a))
    t = tf.tensor(np.arange(100000, dtype=np.float64))
    assert t.shape == (100000,) and not calls
    got = tf.tensor(array.array("d", [1.5, 2.5]))   # array.array and memoryview go through numpy too
    assert got.dtype == "float32" and got.data_sync().tolist() == [1.5, 2.5] and not calls
    got = tf.tensor(memoryview(array.array("i", [1, -2])))
    assert got.dtype == "int32" and got.data_sync().tolist() == [1, -2] and not calls
    got = tf.tensor(array.array("B", [0, 2, 255]), dtype="bool")
    assert got.data_sync().tolist() == [0, 1, 1]


def test_tensor_of_a_complex_or_object_ndarray():
    assert_raises(TypeError, lambda: tf.tensor(np.array([1 + 2j])), "tensor", "complex128")
    assert_raises(TypeError, lambda: tf.tensor(np.array([1 + 2j]), dtype="float32"), "tensor", "tf.complex")
    t = tf.tensor([1.0])
    assert_raises(TypeError, lambda: np.array([1j]) * t, "mul", "argument 'a'", "complex128")
    assert_raises(TypeError, lambda: tf.add(t, np.array([None])), "add", "argument 'b'", "dtype object")
    assert tf.tensor(np.array([1, 2.5], dtype=object), dtype="float32").data_sync().tolist() == [1, 2.5]


# --- DLPack ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("values, dtype", [([[1.5, 2.0], [3.0, -4.0]], "float32"), ([1, -2, 3], "int32"),
                                           ([True, False], "bool"), (2.5, "float32")])
def test_np_from_dlpack_shares_the_cpu_buffer_read_only(values, dtype):
    t = tf.tensor(values, dtype=dtype)
    got = np.from_dlpack(t)
    assert got.shape == tuple(t.shape) and got.dtype == np.asarray(t).dtype
    np.testing.assert_array_equal(got, np.asarray(t))
    assert not got.flags.writeable
    if t.size:
        assert np.shares_memory(got, tf.backend().store[t.data_id])
    assert t.__dlpack_device__() == (1, 0)


def test_dlpack_of_a_reshaped_tensor_and_complex64():
    t = tf.reshape(tf.range(0, 6), [2, 3])
    np.testing.assert_array_equal(np.from_dlpack(t), np.arange(6, dtype=np.float32).reshape(2, 3))
    c = tf.complex(tf.tensor([1.0]), tf.tensor([2.0]))
    assert np.from_dlpack(c).tolist() == [1 + 2j]


def test_dlpack_copies_where_asked_or_where_a_consumer_cannot_take_read_only():
    t = tf.tensor([1.0, 2.0])
    got = np.from_dlpack(t, copy=True)
    assert got.flags.writeable and not np.shares_memory(got, tf.backend().store[t.data_id])
    got[0] = 9
    assert t.data_sync().tolist() == [1.0, 2.0]
    capsule = t.__dlpack__()            # a consumer of DLPack < 1.0 (no read-only flag): a copy
    assert type(capsule).__name__ == "PyCapsule"
    with pytest.raises(BufferError, match="read-only"):
        t.__dlpack__(copy=False)
    with pytest.raises(BufferError, match="string"):
        tf.tensor(["a"]).__dlpack__()


def test_from_dlpack_round_trip_and_dtype_rules():
    t = tf.tensor([[1.5, -2.0], [3.0, 4.0]])
    back = tf.from_dlpack(t)
    assert back is not t and (back.shape, back.dtype) == (t.shape, t.dtype)
    assert back.array_sync() == t.array_sync()
    x = np.arange(12, dtype=np.float64).reshape(3, 4)[:, ::2]
    got = tf.from_dlpack(x)
    assert (got.shape, got.dtype) == ((3, 2), "float32")
    np.testing.assert_array_equal(np.asarray(got), x)
    got = tf.from_dlpack(np.array([2**33 + 1, 7], dtype=np.int64))
    assert got.dtype == "int32" and got.data_sync().tolist() == [1, 7]
    b = tf.from_dlpack(np.array([True, False]))
    assert b.dtype == "bool" and b.data_sync().tolist() == [1, 0]


def test_from_dlpack_refuses_what_has_no_dlpack():
    assert_raises(TypeError, lambda: tf.from_dlpack([1, 2]), "from_dlpack", "'x'", "__dlpack__")
    t = tf.tensor([1.0])
    t.dispose()
    assert_raises(tf.DisposedTensorError, lambda: tf.from_dlpack(t), "from_dlpack", "disposed")


# --- without numpy (the page) ---------------------------------------------------------------------------

_WITHOUT_NUMPY = textwrap.dedent("""
    import array, sys
    sys.modules["numpy"] = None   # as in Pyodide here
    import pytfweb as tf
    from pytfweb.core import tensor_values as convert
    from pytfweb.core.printing import repr_values
    assert convert.np is None and hasattr(tf.Tensor, "__array__") and tf.Tensor.__hash__ is None
    # flat buffers from typed-array-like values, without a list of Python values where the types agree
    buf, n = convert.to_flat(memoryview(array.array("f", [1.5, 2.5])), "float32")
    assert (buf.typecode, buf.tolist(), n) == ("f", [1.5, 2.5], 2)
    buf, n = convert.to_flat(memoryview(array.array("d", [0.1, 1e300])), "float32")
    assert buf.typecode == "f" and buf[1] == float("inf")
    buf, n = convert.to_flat(memoryview(array.array("I", [2**32 - 1])), "int32")
    assert buf.tolist() == [-1]
    for bools in (array.array("B", [0, 1, 255]), memoryview(array.array("B", [0, 1, 255]))):
        assert convert.to_flat(bools, "bool")[0].tolist() == [0, 1, 1]
    print(repr_values(array.array("f", [0.1, 2, 3.5, -1]), (2, 2), "float32"))
    print(repr_values(array.array("B", [1, 0]), (2,), "bool"))
    print(repr_values(array.array("f", [0.1]), (), "float32"))
    print(repr_values(array.array("f", [1, 2]), (1,), "complex64"))
    print(repr_values(["a", "b"], (2,), "string"))
    print(repr_values(array.array("i", range(2000)), (2, 1000), "int32"))
""")


def test_without_numpy_pytfweb_imports_and_reprs_nested_lists():
    env = {**os.environ, "PYTHONPATH": REPO}
    proc = subprocess.run([sys.executable, "-c", _WITHOUT_NUMPY], cwd=REPO, env=env, capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout.splitlines() == [
        "[[0.1, 2.0], [3.5, -1.0]]", "[True, False]", "0.1", "[(1+2j)]", "['a', 'b']",
        "[[0, 1, 2, ..., 997, 998, 999], [1000, 1001, 1002, ..., 1997, 1998, 1999]]"]
