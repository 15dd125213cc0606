"""The 'string' dtype and tf.string on webgl: string tensors stay CPU-side (never uploaded) and the
string kernels run in pure Python there, as in TF.js's webgl backend. Expected values are TF.js
4.22's (node, tfjs-backend-cpu), the same as tests/unit/test_string.py checks on cpu."""
import pytest

from .conftest import BACKEND, F16, PageError

_KERNELS = r'''
s = tf.string
gpu_before = tf.memory().num_bytes_in_gpu
split = s.string_split(["hello world", "a b c", "", "a,,b", "\u00e9,x"], " ,")
split_keep = s.string_split(["a  b"], " ", False)
grams = s.string_n_grams(["a", "b", "c", "d", "e", "f"], [0, 0, 2, 6], "_", [2, 3], "<", ">", 1, True)
# the splits as a webgl result (a shader's output read back), as TF.js reads them back
splits = tf.cast(tf.add(tf.tensor([0, 2, 4], dtype="int32"), 0), "int32")
grams2 = s.string_n_grams(["a", "b", "c", "d"], splits, "|", [1, 2], "LP", "RP", -1, False)
hashes = s.string_to_hash_bucket_fast(tf.reshape(tf.tensor(["Hello", "TensorFlow", "2.x", "k" * 71]), [2, 2]), 3)
big = s.string_to_hash_bucket_fast(["", "a", "abcd", "abcdefghijklmnopq", "x" * 33, "q" * 200], 2147483647)
regex = s.static_regex_replace(["john smith", "abc"], r"(\w+) (\w+)", "$2, $1 [$&] $$")
first = s.static_regex_replace(["aaa"], "a", "b", False)
result = {
    "split": [t.array_sync() for t in split.values()], "split_keep": split_keep["values"].array_sync(),
    "grams": [t.array_sync() for t in grams.values()], "grams2": [t.array_sync() for t in grams2.values()],
    "hashes": hashes.array_sync(), "hash_dtype": hashes.dtype, "big": big.array_sync(),
    "regex": regex.array_sync(), "first": first.array_sync(),
    "gpu_bytes_for_strings": tf.memory().num_bytes_in_gpu - gpu_before,
}
'''


def test_string_kernels_on_webgl(run_py):
    r = run_py(_KERNELS)
    assert r["split"] == [[[0, 0], [0, 1], [1, 0], [1, 1], [1, 2], [3, 0], [3, 1], [4, 0], [4, 1]],
                          ["hello", "world", "a", "b", "c", "a", "b", "\u00e9", "x"], [5, 3]]
    assert r["split_keep"] == ["a", "", "b"]
    assert r["grams"] == [["<_>", "<_a", "a_b", "b_>", "<_a_b", "a_b_>", "<_c", "c_d", "d_e", "e_f", "f_>",
                           "<_c_d", "c_d_e", "d_e_f", "e_f_>"], [0, 1, 6, 15]]
    assert r["grams2"] == [["a", "b", "LP|a", "a|b", "b|RP", "c", "d", "LP|c", "c|d", "d|RP"], [0, 5, 10]]
    assert r["hash_dtype"] == "int32" and r["hashes"][0] == [0, 2] and r["hashes"][1][0] == 2
    assert r["big"] == [1699943623, 493484721, 2127136445, 1773773112, 410535650, 1683034213]
    assert r["regex"] == ["smith, john [john smith] $", "abc"]
    assert r["first"] == ["baa"]
    # only the int32 results may have textures (none of them was used by a shader): strings never upload
    assert r["gpu_bytes_for_strings"] >= 0


_DTYPE = r'''
from pytfweb.backends.webgl.backend import WebGLBackend
before = tf.memory()
t = tf.tensor([["a", "bb"], ["ccc", "\u00e9"]])
backend = tf.backend()
d = backend.store[t.data_id]
r = tf.reshape(t, [4])
c = tf.clone(t)
e = tf.expand_dims(r, 0)
hi = tf.scalar("hi")
after = tf.memory()
result = {
    "dtype": t.dtype, "data": t.data_sync(), "array": t.array_sync(), "data_async": await t.data(),
    "reshape": r.array_sync(), "clone": c.array_sync(), "expand": e.array_sync(),
    "stored": [type(d.values).__name__, getattr(d, "texture", getattr(d, "buffer", None)) is None],
    "bytes": after.num_bytes - before.num_bytes, "tensors": after.num_tensors - before.num_tensors,
    "gpu": after.num_bytes_in_gpu - before.num_bytes_in_gpu,
    "text": str(t), "scalar": str(hi),
}
tf.dispose([t, r, c, e, hi])
result["freed"] = tf.memory().num_bytes - before.num_bytes
'''


def test_string_tensors_stay_cpu_side_on_webgl(run_py):
    r = run_py(_DTYPE)
    assert r["dtype"] == "string"
    assert r["data"] == ["a", "bb", "ccc", "\u00e9"] == r["data_async"]
    assert r["array"] == [["a", "bb"], ["ccc", "\u00e9"]] == r["clone"]
    assert r["reshape"] == ["a", "bb", "ccc", "\u00e9"] and r["expand"] == [["a", "bb", "ccc", "\u00e9"]]
    assert r["stored"] == ["list", True]
    assert (r["bytes"], r["tensors"], r["gpu"], r["freed"]) == (10, 5, 0, 0)
    assert r["text"] == "Tensor\n    [['a'  , 'bb'],\n     ['ccc', '\u00e9' ]]"
    assert r["scalar"] == "Tensor\n    'hi'"


@pytest.mark.parametrize("code, fragment", [
    ("tf.add(t, t)", "string"),
    ("tf.exp(t)", "exp"),
    ("tf.transpose(t)", "string"),          # TF.js's transpose takes numeric tensors only
    ("tf.cast(t, 'float32')", "cast"),
    ("tf.string.string_to_hash_bucket_fast(t, 0)", "num_buckets"),
])
def test_shader_kernels_refuse_strings_and_nothing_leaks(run_py, code, fragment):
    setup = "t = tf.tensor([['a', 'b'], ['c', 'd']])\nbefore = tf.memory()\n"
    with pytest.raises(PageError) as e:
        run_py(setup + code)
    assert e.value.type in ("TypeError", "ValueError") and fragment in e.value.message
    assert run_py(setup + "try:\n    " + code + "\nexcept Exception:\n    pass\n"
                  "after = tf.memory()\nresult = [after.num_tensors - before.num_tensors, after.num_bytes - before.num_bytes,"
                  " tf.add(tf.scalar(1), 2).array_sync()]") == [0, 0, 3]


_MOVING = r'''
t = tf.tensor([["a", "bb", "c"], ["d", "ee", "f"]])
before = tf.memory()
idx = tf.tensor([[1, 1]], dtype="int32")
flat = tf.reshape(t, [6])
outs = [tf.slice(t, [0, 1], [2, 2]), tf.strided_slice(t, [1, 2], [2, 0], [1, -1]), tf.concat([t, t], 1),
        tf.stack([t, t], 2), *tf.unstack(t, 1), tf.tile(t, [2, 1]), tf.gather_nd(t, idx),
        *tf.unique(flat), t[1, ::-1]]
result = [o.array_sync() for o in outs]
mid = tf.memory()
tf.dispose(outs + [idx, flat])
after = tf.memory()
result = {"values": result, "gpu": [mid.num_bytes_in_gpu - before.num_bytes_in_gpu,
                                    in_use(after) - in_use(before)],
          "left": [after.num_tensors - before.num_tensors, after.num_bytes - before.num_bytes]}
'''


def test_kernels_that_move_values_take_strings_on_webgl(run_py):
    # shaders there: they move the strings' positions, and the strings never reach a texture
    r = run_py(_MOVING)
    assert r["values"] == [[["bb", "c"], ["ee", "f"]], [["f", "ee"]], [["a", "bb", "c", "a", "bb", "c"],
                           ["d", "ee", "f", "d", "ee", "f"]],
                           [[["a", "a"], ["bb", "bb"], ["c", "c"]], [["d", "d"], ["ee", "ee"], ["f", "f"]]],
                           ["a", "d"], ["bb", "ee"], ["c", "f"],
                           [["a", "bb", "c"], ["d", "ee", "f"], ["a", "bb", "c"], ["d", "ee", "f"]], ["ee"],
                           ["a", "bb", "c", "d", "ee", "f"], [0, 1, 2, 3, 4, 5], ["f", "ee", "d"]]
    # only gather_nd's two int32 indices reach a texture (2 or 4 bytes a value; on webgpu a
    # storage buffer of the smallest size class, 16 bytes)
    assert r["gpu"] == [16 if BACKEND == "webgpu" else 4 if F16 else 8, 0] and r["left"] == [0, 0]
