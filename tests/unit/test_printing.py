"""Tensor printing, compared with what TensorFlow.js 4.22 prints (tensor.toString(), run in Node
with @tensorflow/tfjs-core on its cpu backend), except the three documented differences in
pytfweb/core/printing.py."""
import pytest

import pytfweb as tf
from pytfweb.core.printing import js_number

from .helpers import assert_raises

# (values, shape, dtype, TF.js 4.22 output)
TFJS_GOLDEN = [
    ([1, 2, 3], None, None, "Tensor\n    [1, 2, 3]"),
    # rank 1 is never padded; floats are parseFloat(v.toFixed(7))
    ([1.5, 2.25, 3.123456789], None, None, "Tensor\n    [1.5, 2.25, 3.1234567]"),
    ([True, False], None, None, "Tensor\n    [true, false]"),
    (3, (), "int32", "Tensor\n    3"),
    (True, (), None, "Tensor\n    true"),
    # padding is per column of the last axis, on the right
    ([[1000000, -2.5], [0.1, 3]], None, None, "Tensor\n    [[1000000, -2.5],\n     [0.1    , 3   ]]"),
    ([[-1, 20], [300, -4000]], None, "int32", "Tensor\n    [[-1 , 20   ],\n     [300, -4000]]"),
    ([[True, False, True], [False, False, True]], None, None,
     "Tensor\n    [[true , false, true],\n     [false, false, true]]"),
    ([[0.1, -0.25, 3], [12.5, 1e-3, -7.125]], None, None,
     "Tensor\n    [[0.1 , -0.25, 3     ],\n     [12.5, 0.001, -7.125]]"),
    # one blank line between rank-2 blocks, two between rank-3 blocks
    ([[[1, 2], [3, 4]], [[5, 6], [7, 8]]], None, None,
     "Tensor\n    [[[1, 2],\n      [3, 4]],\n\n     [[5, 6],\n      [7, 8]]]"),
    (list(range(1, 17)), (2, 2, 2, 2), None,
     "Tensor\n    [[[[1 , 2 ],\n       [3 , 4 ]],\n\n      [[5 , 6 ],\n       [7 , 8 ]]],\n\n\n"
     "     [[[9 , 10],\n       [11, 12]],\n\n      [[13, 14],\n       [15, 16]]]]"),
    # more than 20 along an axis: first and last three
    (list(range(20)), None, None,
     "Tensor\n    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19]"),
    (list(range(21)), None, None, "Tensor\n    [0, 1, 2, ..., 18, 19, 20]"),
    (list(range(50)), (25, 2), None,
     "Tensor\n    [[0 , 1 ],\n     [2 , 3 ],\n     [4 , 5 ],\n     ...,\n     [44, 45],\n     [46, 47],\n"
     "     [48, 49]]"),
    (list(range(50)), (2, 25), None,
     "Tensor\n    [[0 , 1 , 2 , ..., 22, 23, 24],\n     [25, 26, 27, ..., 47, 48, 49]]"),
    (list(range(22 * 22)), (22, 22), None,
     "Tensor\n    [[0  , 1  , 2  , ..., 19 , 20 , 21 ],\n     [22 , 23 , 24 , ..., 41 , 42 , 43 ],\n"
     "     [44 , 45 , 46 , ..., 63 , 64 , 65 ],\n     ...,\n     [418, 419, 420, ..., 437, 438, 439],\n"
     "     [440, 441, 442, ..., 459, 460, 461],\n     [462, 463, 464, ..., 481, 482, 483]]"),
    (list(range(44)), (22, 2, 1), None,
     "Tensor\n    [[[0 ],\n      [1 ]],\n\n     [[2 ],\n      [3 ]],\n\n     [[4 ],\n      [5 ]],\n\n     ...\n"
     "     [[38],\n      [39]],\n\n     [[40],\n      [41]],\n\n     [[42],\n      [43]]]"),
    # JavaScript number formatting: exponents below 1e-6 and from 1e21, shortest digits,
    # toFixed rounding half away from zero (0.00390625 is exact in float32)
    ([1e-7, 5e-7, 1e-6, 0.00390625, -0.00390625, 1.5e-8, -1e-8], None, None,
     "Tensor\n    [1e-7, 5e-7, 0.000001, 0.0039063, -0.0039063, 0, 0]"),
    ([1e20, 1e21, 3e38, 16777217, -1e22], None, None,
     "Tensor\n    [100000002004087730000, 1.0000000200408773e+21, 3.0000000054977558e+38, 16777216, "
     "-9.999999778196308e+21]"),
    ([float("nan"), float("inf"), -float("inf"), -0.0], None, None, "Tensor\n    [NaN, Infinity, -Infinity, 0]"),
    ([], None, None, "Tensor\n    []"),
    ([], (2, 0), None, "Tensor\n    [[],\n     []]"),
]


@pytest.mark.parametrize("values, shape, dtype, expected", TFJS_GOLDEN)
def test_to_string_matches_tfjs(values, shape, dtype, expected):
    t = tf.tensor(values, shape, dtype)
    assert str(t) == expected == t.to_string()   # (repr is TensorFlow's: tests/unit/test_repr_compare.py)


def test_verbose_adds_dtype_rank_and_shape_as_tfjs_does():
    t = tf.tensor([[1, 2, 3], [4, 5, 6]], dtype="int32")
    # TF.js joins the shape without spaces: `shape: [${shape}]`
    assert t.to_string(verbose=True) == ("Tensor\n  dtype: int32\n  rank: 2\n  shape: [2,3]\n  values:\n"
                                         "    [[1, 2, 3],\n     [4, 5, 6]]")
    assert tf.scalar(2.5).to_string(True) == "Tensor\n  dtype: float32\n  rank: 0\n  shape: []\n  values:\n    2.5"
    assert tf.tensor([True]).to_string(True) == "Tensor\n  dtype: bool\n  rank: 1\n  shape: [1]\n  values:\n    [true]"


# The deliberate differences from TF.js 4.22 (see pytfweb/core/printing.py).
@pytest.mark.parametrize("shape, expected", [
    ((1, 2), "Tensor\n    [[1, 1]]"),                                   # TF.js: ' [[1, 1],]'
    ((1, 1, 1, 1, 2), "Tensor\n    [[[[[1, 1]]]]]"),                     # TF.js: ' [ [ [ [[1, 1],]]]]'
    ((2, 1, 2), "Tensor\n    [[[1, 1]],\n\n     [[1, 1]]]"),
    ((1, 3, 1), "Tensor\n    [[[1],\n      [1],\n      [1]]]"),          # same as TF.js
    ((0, 3), "Tensor\n    []"),                                          # TF.js: ' []'
])
def test_axes_of_size_one_and_zero_close_their_brackets(shape, expected):
    assert str(tf.ones(shape)) == expected


@pytest.mark.parametrize("value, expected", [(0.1, "0.1"), (1e-7, "1e-7"), (1e21, "1.0000000200408773e+21"),
                                             (-3.0, "-3"), (2 / 3, "0.6666667")])
def test_scalar_uses_the_same_number_rule(value, expected):
    assert str(tf.scalar(value)) == "Tensor\n    " + expected


@pytest.mark.parametrize("x, expected", [
    # String(x) in Node 20
    (1e21, "1e+21"), (123e-20, "1.23e-18"), (0.000001, "0.000001"), (1.5e-7, "1.5e-7"), (100.0, "100"),
    (-0.0, "0"), (1e300, "1e+300"), (2.0 ** 53, "9007199254740992"), (0.1 + 0.2, "0.30000000000000004"),
    (-5e-324, "-5e-324"), (1.7976931348623157e308, "1.7976931348623157e+308"),
    (123456789012345680000.0, "123456789012345680000"), (0.5, "0.5"), (-1234.5678, "-1234.5678"),
    (9.999999e-7, "9.999999e-7"), (float("nan"), "NaN"), (float("-inf"), "-Infinity"),
])
def test_js_number_matches_javascript_string_conversion(x, expected):
    assert js_number(x) == expected


def test_print_method_and_tf_print_write_to_stdout(capsys):
    t = tf.tensor([[1, 2], [3, 4]], dtype="int32")
    t.print()
    tf.print(t)
    t.print(verbose=True)
    tf.print(t, True)
    out = capsys.readouterr().out
    plain = "Tensor\n    [[1, 2],\n     [3, 4]]\n"
    verbose = "Tensor\n  dtype: int32\n  rank: 2\n  shape: [2,2]\n  values:\n    [[1, 2],\n     [3, 4]]\n"
    assert out == plain + plain + verbose + verbose


def test_tf_print_of_python_values_leaves_no_tensor(capsys):
    before = tf.memory().num_tensors
    tf.print([1.5, 2])
    assert capsys.readouterr().out == "Tensor\n    [1.5, 2]\n"
    assert tf.memory().num_tensors == before


def test_printing_does_not_change_memory():
    t = tf.tensor([[1.0, 2.0], [3.0, 4.0]])
    before = tf.memory()
    str(t)
    t.to_string(True)
    after = tf.memory()
    assert (after.num_tensors, after.num_data_buffers, after.num_bytes) == \
        (before.num_tensors, before.num_data_buffers, before.num_bytes)


def test_disposed_tensor_str_describes_it_and_print_raises(capsys):
    t = tf.tensor([1, 2, 3])
    t.dispose()
    assert "disposed" in str(t) and "[3]" in str(t)
    assert "disposed" in repr(t)
    assert_raises(tf.DisposedTensorError, t.print, "print", "disposed")
    assert_raises(tf.DisposedTensorError, lambda: t.to_string(True), "disposed")
    assert capsys.readouterr().out == ""
