"""A tensor's Python face in the page (Pyodide without numpy, on the session's GPU backend):
TensorFlow's repr with nested lists, == and != elementwise, unhashable tensors and t.ref(), and
JS typed arrays as tensor values."""

_PAGE = """
import js
from pytfweb.core.tensor_values import np as numpy_here
a = tf.tensor([[1, 2, 3], [4, 5, 6]], dtype="int32")
b = tf.tensor([1, 0, 3], dtype="int32")
v = tf.variable(tf.tensor([0.25, 2.0]), name="w")
shown = [a, tf.scalar(0.1), tf.tensor([True, False]), v, tf.scalar(1.0), tf.complex([1.0], [-2.0])]
shown[4].dispose()
before = tf.memory().num_tensors
eq, ne, eq1 = a == b, a != b, a == 5
try:
    hash(a)
    hashed = "no error"
except TypeError as e:
    hashed = str(e)
refs = {a.ref(): "a", b.ref(): "b"}
typed = [tf.tensor(js.Float32Array.new([0.5, -1.5])), tf.tensor(js.Float64Array.new([0.1, 2.0])),
         tf.tensor(js.Uint8Array.new([1, 255])), tf.add(b, js.Int32Array.new([2, -3, 0]))]
result = {
    "numpy": numpy_here is not None, "backend": tf.get_backend(),
    "eq": [eq.dtype, eq.array_sync()], "ne": ne.array_sync(), "eq1": eq1.array_sync(),
    "none": [a == None, a != None], "hash": hashed,  # noqa: E711 - what is tested
    "refs": [refs[a.ref()], refs[b.ref()], a.ref().deref() is a],
    "repr": [repr(t) for t in shown],
    "str": str(b),
    "typed": [[t.dtype, t.array_sync()] for t in typed],
}
tf.dispose([eq, ne, eq1, typed])
result["left"] = tf.memory().num_tensors - before   # == and repr left nothing behind
"""


def test_repr_eq_ref_and_typed_arrays_in_the_page(run_py):
    r = run_py(_PAGE)
    assert r["numpy"] is False   # the nested-list repr below is the path without numpy
    assert r["eq"] == ["bool", [[True, False, True], [False, False, False]]]
    assert r["ne"] == [[False, True, False], [True, True, True]]
    assert r["eq1"] == [[False, False, False], [False, True, False]]
    assert r["none"] == [False, True]
    assert "unhashable" in r["hash"]
    assert r["refs"] == ["a", "b", True]
    assert r["repr"] == [
        "<tf.Tensor: shape=(2, 3), dtype=int32, numpy=[[1, 2, 3], [4, 5, 6]]>",
        "<tf.Tensor: shape=(), dtype=float32, numpy=0.1>",
        "<tf.Tensor: shape=(2,), dtype=bool, numpy=[True, False]>",
        "<tf.Variable 'w' shape=(2,) dtype=float32, numpy=[0.25, 2.0]>",
        "<tf.Tensor: shape=(), dtype=float32, disposed>",
        "<tf.Tensor: shape=(1,), dtype=complex64, numpy=[(1-2j)]>"]
    assert r["str"] == "Tensor\n    [1, 0, 3]"   # print / str keep TF.js's text
    # TF.js's typed-array dtypes: Float32Array and Float64Array float32, integer arrays int32
    assert r["typed"] == [["float32", [0.5, -1.5]], ["float32", [0.10000000149011612, 2.0]],
                          ["int32", [1, 255]], ["int32", [3, -3, 3]]]
    assert r["left"] == 0
