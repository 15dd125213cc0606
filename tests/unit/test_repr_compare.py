"""TensorFlow 2's Python face of a tensor: repr names shape and dtype (print keeps TF.js's text),
== and != are elementwise, tensors are unhashable and t.ref() is their dict key."""
import numpy as np
import pytest

import pytfweb as tf

from .helpers import assert_tensor


# --- repr -----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("make, expected", [
    (lambda: tf.scalar(0.1), "<tf.Tensor: shape=(), dtype=float32, numpy=0.1>"),
    (lambda: tf.scalar(3, "int32"), "<tf.Tensor: shape=(), dtype=int32, numpy=3>"),
    (lambda: tf.scalar(True), "<tf.Tensor: shape=(), dtype=bool, numpy=True>"),
    (lambda: tf.scalar("hi"), "<tf.Tensor: shape=(), dtype=string, numpy='hi'>"),
    (lambda: tf.tensor([1.5, 2.0, -3.0]), "<tf.Tensor: shape=(3,), dtype=float32, numpy=array([ 1.5,  2. , -3. ], "
                                          "dtype=float32)>"),
    (lambda: tf.tensor([1, 2], dtype="int32"), "<tf.Tensor: shape=(2,), dtype=int32, numpy=array([1, 2], "
                                               "dtype=int32)>"),
    (lambda: tf.tensor([True, False]), "<tf.Tensor: shape=(2,), dtype=bool, numpy=array([ True, False])>"),
    (lambda: tf.tensor(["a", "bc"]), "<tf.Tensor: shape=(2,), dtype=string, numpy=array(['a', 'bc'], "
                                     "dtype=object)>"),
    (lambda: tf.complex(tf.tensor([1.0, 0.5]), tf.tensor([2.0, -1.0])),
     "<tf.Tensor: shape=(2,), dtype=complex64, numpy=array([1. +2.j, 0.5-1.j], dtype=complex64)>"),
    (lambda: tf.zeros([0, 2]), "<tf.Tensor: shape=(0, 2), dtype=float32, numpy=array([], shape=(0, 2), "
                               "dtype=float32)>"),
    # several lines: numpy's text starts on a line of its own, as TensorFlow writes it
    (lambda: tf.tensor([[1, 2], [3, 4]]), "<tf.Tensor: shape=(2, 2), dtype=float32, numpy=\n"
                                          "array([[1., 2.],\n       [3., 4.]], dtype=float32)>"),
])
def test_repr_names_shape_and_dtype_as_tensorflow(make, expected):
    t = make()
    assert repr(t) == expected
    assert not repr(t).startswith("Tensor") and str(t).startswith("Tensor")


def test_repr_of_a_large_tensor_is_numpys_summary():
    text = repr(tf.range(0, 2000, 1, "int32"))
    assert text.startswith("<tf.Tensor: shape=(2000,), dtype=int32, numpy=\narray([   0,    1,    2, ..., 1997,")
    assert len(text) < 200


def test_repr_of_a_disposed_tensor_says_so_without_raising():
    t = tf.tensor([[1.0, 2.0]])
    t.dispose()
    assert repr(t) == "<tf.Tensor: shape=(1, 2), dtype=float32, disposed>"
    v = tf.variable(tf.tensor([1.0]), name="gone")
    v.dispose()
    assert repr(v) == "<tf.Variable 'gone' shape=(1,) dtype=float32, disposed>"


def test_variable_repr_names_the_variable():
    v = tf.variable(tf.tensor([1.0, 2.0]), name="dense/kernel")
    assert repr(v) == "<tf.Variable 'dense/kernel' shape=(2,) dtype=float32, numpy=array([1., 2.], dtype=float32)>"
    v.assign(tf.tensor([3.0, 4.0]))
    assert "array([3., 4.]" in repr(v)
    w = tf.variable(tf.scalar(5, "int32"))
    assert repr(w) == f"<tf.Variable '{w.name}' shape=() dtype=int32, numpy=5>"


def test_print_str_and_to_string_keep_tfjs_text(capsys):
    t = tf.tensor([[1, 2], [3, 4.5]])
    tfjs = "Tensor\n    [[1, 2  ],\n     [3, 4.5]]"
    assert str(t) == t.to_string() == tfjs
    print(t)
    t.print()
    tf.print(t)
    assert capsys.readouterr().out == (tfjs + "\n") * 3
    v = tf.variable(tf.tensor([1.0, 2.0]))
    assert str(v) == "Tensor\n    [1, 2]"


def test_repr_reads_without_leaking():
    t = tf.tensor([1.0, 2.0])
    v = tf.variable(t)
    before = tf.memory()
    repr(t), repr(v), repr(t == 1)
    after = tf.memory()
    assert (after.num_tensors, after.num_bytes) == (before.num_tensors + 1, before.num_bytes + 2)   # t == 1


# --- == and != ------------------------------------------------------------------------------------------

def test_eq_and_ne_are_elementwise_with_broadcasting(rng):
    a = rng.integers(0, 3, size=(2, 1, 3)).astype(np.int32)
    b = rng.integers(0, 3, size=(4, 1)).astype(np.int32)
    ta, tb = tf.tensor(a), tf.tensor(b)
    assert_tensor(ta == tb, a == b, "bool")
    assert_tensor(ta != tb, a != b, "bool")
    assert_tensor(ta == 1, a == 1, "bool")
    assert_tensor(1 == ta, a == 1, "bool")           # reflected: Python calls ta.__eq__(1)
    assert_tensor(ta != [0, 1, 2], a != [0, 1, 2], "bool")
    assert_tensor(ta == a.astype(np.float64), np.ones(a.shape, bool), "bool")
    assert_tensor(tf.tensor(["a", "b"]) == "a", [True, False], "bool")
    t = tf.tensor([1.0, 2.0])
    assert_tensor(t == t, [True, True], "bool")       # values, not identity
    assert_tensor(t == t.clone(), [True, True], "bool")


def test_eq_with_incompatible_shapes_raises_as_tf_equal():
    with pytest.raises(ValueError, match="equal"):
        tf.tensor([1.0, 2.0]) == tf.tensor([1.0, 2.0, 3.0])


def test_eq_with_what_is_no_tensor_value_is_false_not_an_error():
    t, s, one = tf.tensor([1.0, 2.0]), tf.tensor(["a"]), tf.tensor([1])
    before = tf.memory().num_tensors
    for other in (None, object(), tf.layers.dense({"units": 1}), {"a": 1}, "same", b"x"):
        assert (t == other) is False and (t != other) is True, other
        assert (other == t) is False and (other != t) is True, other
    assert (s == 1) is False and (s != one) is True and (one == s) is False   # strings beside numbers
    assert tf.memory().num_tensors == before


def test_scalar_eq_works_in_if_and_larger_ones_refuse_bool():
    assert bool(tf.scalar(2.0) == 2) and not (tf.scalar(2.0) != 2)
    with pytest.raises(TypeError, match="size-1"):
        bool(tf.tensor([1.0, 2.0]) == 1)


# --- hashing and t.ref() --------------------------------------------------------------------------------

def test_tensors_and_variables_are_unhashable():
    t = tf.tensor([1.0])
    v = tf.variable(tf.tensor([1.0]))
    for x in (t, v):
        with pytest.raises(TypeError, match="unhashable"):
            hash(x)
        with pytest.raises(TypeError):
            {x: 1}
        with pytest.raises(TypeError):
            {x}


def test_ref_is_a_dict_key_by_identity_and_derefs():
    t = tf.tensor([1.0, 2.0])
    twin = t.clone()                     # same values, another tensor
    v = tf.variable(tf.tensor([1.0, 2.0]))
    d = {t.ref(): "t", twin.ref(): "twin", v.ref(): "v"}
    assert len(d) == 3
    assert (d[t.ref()], d[twin.ref()], d[v.ref()]) == ("t", "twin", "v")
    assert t.ref() == t.ref() and t.ref() != twin.ref() and hash(t.ref()) == hash(t.ref())
    assert t.ref().deref() is t and v.ref().deref() is v
    assert {t.ref(), t.ref(), twin.ref()} == {t.ref(), twin.ref()}
    assert (t.ref() == t) is False       # a reference is not its tensor
    t.dispose()
    assert d[t.ref()] == "t"             # the key outlives the data (it holds the handle only)
    assert "Tensor" in repr(t.ref())
