"""The Tensor handle: attributes, readback (sync, async, nested lists, numpy), Python conversions,
lifetime and the errors a disposed tensor gives."""
import array
import asyncio
import json
import os
import re
from pathlib import Path

import numpy as np
import pytest

import pytfweb as tf

from .helpers import TFJS, assert_raises, assert_tensor


def test_attributes():
    t = tf.tensor([[1, 2, 3], [4, 5, 6]], dtype="int32")
    assert t.shape == (2, 3) and isinstance(t.shape, tuple)
    assert (t.dtype, t.rank, t.size) == ("int32", 2, 6)
    assert t.strides == [3]
    s = tf.scalar(1.0)
    assert (s.shape, s.rank, s.size, s.strides) == ((), 0, 1, [])
    e = tf.zeros([3, 0, 2])
    assert (e.rank, e.size) == (3, 0)
    assert tf.zeros([2, 3, 4]).strides == [12, 4]


def test_ids_are_unique_and_stay_with_the_handle():
    ts = [tf.scalar(i) for i in range(50)] + [tf.scalar(0).clone()]
    ids = [t.id for t in ts]
    assert len(set(ids)) == len(ids)
    assert all(isinstance(i, int) for i in ids)
    first = ts[0].id
    ts[0].dispose()
    assert ts[0].id == first
    assert tf.scalar(1).id not in ids


# --- readback --------------------------------------------------------------------------------

@pytest.mark.parametrize("values, dtype, typecode", [
    ([1.5, -2.0], "float32", "f"), ([1, -2], "int32", "i"), ([True, False], "bool", "B")])
def test_data_sync_returns_array_array_of_the_dtype(values, dtype, typecode):
    t = tf.tensor(values, dtype=dtype)
    got = t.data_sync()
    assert isinstance(got, array.array) and got.typecode == typecode
    assert got.tolist() == [int(v) if dtype == "bool" else v for v in values]


def test_data_sync_is_flat_and_a_copy():
    t = tf.tensor([[1, 2], [3, 4]])
    got = t.data_sync()
    assert got.tolist() == [1, 2, 3, 4]
    got[0] = 100
    assert t.data_sync()[0] == 1


@pytest.mark.parametrize("dtype", ["float32", "int32", "bool"])
def test_async_data_equals_data_sync(dtype):
    t = tf.tensor([[1, 0, 1], [0, 1, 1]], dtype=dtype)
    got = asyncio.run(t.data())
    assert isinstance(got, array.array)
    assert got == t.data_sync()
    assert asyncio.run(t.array()) == t.array_sync()


def test_array_sync_nests_by_shape():
    assert tf.tensor([[1.5, 2], [3, 4]]).array_sync() == [[1.5, 2.0], [3.0, 4.0]]
    assert tf.tensor(list(range(8)), [2, 2, 2], "int32").array_sync() == [[[0, 1], [2, 3]], [[4, 5], [6, 7]]]
    assert tf.zeros([2, 0]).array_sync() == [[], []]
    assert tf.zeros([0, 2]).array_sync() == []
    assert tf.zeros([1, 2, 0]).array_sync() == [[[], []]]


def test_array_sync_bool_gives_python_bools():
    got = tf.tensor([[True, False]]).array_sync()
    assert got == [[True, False]]
    assert all(type(v) is bool for v in got[0])


@pytest.mark.parametrize("t, value, kind", [
    (lambda: tf.scalar(2.5), 2.5, float), (lambda: tf.scalar(-3, "int32"), -3, int),
    (lambda: tf.scalar(True), True, bool)])
def test_array_of_rank_zero_is_a_python_scalar(t, value, kind):
    t = t()
    for got in (t.array_sync(), asyncio.run(t.array())):
        assert got == value and type(got) is kind


def test_numpy():
    for values, dtype, np_dtype in (([[1.5, 2]], "float32", np.float32), ([[1, 2]], "int32", np.int32),
                                    ([[True, False]], "bool", np.bool_)):
        t = tf.tensor(values, dtype=dtype)
        got = t.numpy()
        assert isinstance(got, np.ndarray) and got.dtype == np_dtype and got.shape == (1, 2)
        np.testing.assert_array_equal(got, np.array(values, dtype=np_dtype))
    s = tf.scalar(4.0).numpy()
    assert s.shape == () and s == 4.0
    t = tf.tensor([1.0, 2.0])
    t.numpy()[0] = 50          # a copy: the tensor is immutable
    assert t.data_sync()[0] == 1.0


def test_python_conversions_of_size_one_tensors():
    assert float(tf.scalar(2.5)) == 2.5
    assert int(tf.tensor([7.9])) == 7
    assert bool(tf.scalar(True)) is True and bool(tf.scalar(0.0)) is False
    assert [10, 20, 30][tf.scalar(1, "int32")] == 20
    with pytest.raises(TypeError, match=r"\[2\]"):
        float(tf.tensor([1.0, 2.0]))
    with pytest.raises(TypeError):
        bool(tf.tensor([True, False]))
    with pytest.raises(TypeError):
        [1, 2][tf.scalar(1.0)]


def test_len():
    assert len(tf.zeros([4, 2])) == 4
    with pytest.raises(TypeError, match="rank-0"):
        len(tf.scalar(1))


# --- lifetime ----------------------------------------------------------------------------------

def test_dispose_frees_memory_and_marks_the_tensor():
    t = tf.tensor([1, 2, 3])
    assert not t.is_disposed
    t.dispose()
    assert t.is_disposed
    assert (tf.memory().num_tensors, tf.memory().num_bytes) == (0, 0)
    t.dispose()  # a second dispose is a no-op
    assert tf.memory().num_tensors == 0


@pytest.mark.parametrize("use, op", [
    (lambda t: t.data_sync(), "data_sync"),
    (lambda t: asyncio.run(t.data()), "data"),
    (lambda t: t.array_sync(), "data_sync"),
    (lambda t: asyncio.run(t.array()), "data"),
    (lambda t: t.numpy(), "numpy"),
    (lambda t: t.clone(), "clone"),
    (lambda t: tf.add(t, 1), "add"),
    (lambda t: tf.exp(t), "exp"),
    (lambda t: t + 1, "add"),
    (lambda t: 1 - t, "sub"),
    (lambda t: tf.cast(t, "int32"), "cast"),
    (lambda t: float(t), ""),
    (lambda t: tf.variable(t), "variable"),
])
def test_using_a_disposed_tensor_raises_a_clear_error(use, op):
    keep = tf.tensor([5.0])
    t = tf.tensor([1.0])
    t.dispose()
    assert_raises(tf.DisposedTensorError, lambda: use(t), op, "disposed", f"id {t.id}")
    assert keep.data_sync()[0] == 5.0
    assert tf.memory().num_tensors == 1


def test_disposed_tensor_error_is_an_engine_runtime_error():
    assert issubclass(tf.DisposedTensorError, tf.EngineError)
    assert issubclass(tf.EngineError, RuntimeError)


# --- TF.js's chained methods --------------------------------------------------------------------------
CHAINED_OPS = os.path.join(os.path.dirname(TFJS), "tfjs-core", "dist", "public", "chained_ops")


def _python_name(js_name, table):
    if js_name in table:
        return table[js_name]
    name = re.sub(r"([0-9])D$", r"\1d", js_name)           # as1D -> as1d
    return re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", name).lower().replace("na_n", "nan")


def test_every_tfjs_chained_method_is_a_tensor_method():
    if not os.path.isdir(CHAINED_OPS):
        pytest.skip("node_modules/@tensorflow/tfjs-core (npm ci) holds TF.js's chained ops")
    table = json.loads((Path(tf.__file__).parent / "data" / "tfjs-4.22-api.json").read_text())["python_names"]["tf"]
    js = set()
    for name in os.listdir(CHAINED_OPS):
        if name.endswith(".js"):
            with open(os.path.join(CHAINED_OPS, name), encoding="utf-8") as f:
                js.update(re.findall(r"getGlobalTensorClass\(\)\.prototype\.(\w+) =", f.read()))
    assert len(js) > 130 and {"toInt", "toFloat", "toBool", "reshapeAs"} <= js
    missing = sorted(f"{n} ({_python_name(n, table)})" for n in js if not hasattr(tf.Tensor, _python_name(n, table)))
    assert not missing, f"TF.js Tensor methods missing on tf.Tensor: {missing}"


def test_cast_like_and_reshape_as_methods():
    x = tf.tensor([[1.7, 0.0], [-2.2, 3.0]])
    assert_tensor(x.to_int(), [[1, 0], [-2, 3]], "int32")
    assert_tensor(x.to_bool(), [[True, False], [True, True]], "bool")
    assert_tensor(x.to_int().to_float(), [[1.0, 0.0], [-2.0, 3.0]], "float32")
    assert_tensor(x.ones_like(), [[1.0, 1.0], [1.0, 1.0]], "float32")
    assert_tensor(tf.tensor([True]).zeros_like(), [False], "bool")
    assert_tensor(x.reshape_as(tf.zeros([4], "int32")), [1.7, 0.0, -2.2, 3.0], "float32")
    with pytest.raises(TypeError, match="reshape_as: argument 'x' must be a Tensor"):
        x.reshape_as([4])
    with pytest.raises(ValueError):
        x.reshape_as(tf.zeros([3]))
    v = x.variable(False, "chained_variable", "int32")
    assert isinstance(v, tf.Variable) and not v.trainable and v.name == "chained_variable"
    assert_tensor(v, [[1, 0], [-2, 3]], "int32")
    v.dispose()


def test_bytes_of_every_dtype():
    # TF.js's t.bytes(): the buffer's bytes, or each string's; complex64 as interleaved float32 parts
    run = asyncio.run
    assert run(tf.tensor([1.5, -2.0]).bytes()) == array.array("f", [1.5, -2.0]).tobytes()
    assert run(tf.tensor([1, -3], dtype="int32").bytes()) == array.array("i", [1, -3]).tobytes()
    assert run(tf.tensor([True, False]).bytes()) == b"\x01\x00"
    assert run(tf.complex([1.0], [2.0]).bytes()) == array.array("f", [1.0, 2.0]).tobytes()
    assert run(tf.tensor(["h\u00e9", b"\xff"], dtype="string").bytes()) == ["h\u00e9".encode(), b"\xff"]
