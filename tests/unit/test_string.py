"""The 'string' dtype and tf.string on cpu. Expected values come from TF.js 4.22 run under node
(node_modules/@tensorflow/tfjs-core + tfjs-backend-cpu) on the same inputs."""
import numpy as np
import pytest

import pytfweb as tf
from pytfweb.backends.strings import encode, fingerprint64

from .helpers import assert_no_leak, assert_raises


@pytest.fixture(autouse=True)
def _cpu():
    tf.set_backend("cpu")
    yield


def _arrays(result):
    return {k: v.array_sync() for k, v in result.items()}


# --- the dtype ------------------------------------------------------------------------------------
def test_tensor_infers_string_and_reads_back_str():
    t = tf.tensor([["a", "bb"], ["ccc", "d"]])
    assert t.dtype == "string" and t.shape == (2, 2)
    assert t.data_sync() == ["a", "bb", "ccc", "d"]
    assert t.array_sync() == [["a", "bb"], ["ccc", "d"]]
    assert tf.scalar("hi").array_sync() == "hi"
    assert tf.tensor([], dtype="string").data_sync() == []
    assert list(t.numpy().ravel()) == ["a", "bb", "ccc", "d"]


def test_bytes_and_numpy_inputs():
    assert tf.tensor([b"ab", "\u00e9".encode()]).data_sync() == ["ab", "\u00e9"]
    bad = tf.tensor([b"\xff"])    # not UTF-8: kept as a surrogate escape, bytes recoverable
    assert encode(bad.data_sync()[0]) == b"\xff"
    assert tf.tensor(np.array(["x", "yz"])).data_sync() == ["x", "yz"]
    assert tf.tensor(np.array([b"x"])).data_sync() == ["x"]
    assert tf.tensor(np.array(["p", "q"], dtype=object)).dtype == "string"


def test_printing_quotes_values_like_tfjs():
    t = tf.tensor([["a", "bb"], ["ccc", "d"]])
    assert str(t) == "Tensor\n    [['a'  , 'bb'],\n     ['ccc', 'd' ]]"
    assert t.to_string(True) == ("Tensor\n  dtype: string\n  rank: 2\n  shape: [2,2]\n  values:\n"
                                 "    [['a'  , 'bb'],\n     ['ccc', 'd' ]]")
    assert str(tf.tensor([f"s{i}" for i in range(25)])) == "Tensor\n    ['s0', 's1', 's2', ..., 's22', 's23', 's24']"
    assert str(tf.scalar("hi")) == "Tensor\n    'hi'"


def test_memory_counts_utf8_bytes():
    before = tf.memory()
    t = tf.tensor(["\u00e9", "ab", ""])       # 2 + 2 + 0 bytes (TF.js: 4)
    r = tf.reshape(t, [3, 1])                 # shares the data: no new bytes
    assert tf.memory().num_bytes - before.num_bytes == 4
    assert tf.memory().num_tensors - before.num_tensors == 2
    c = tf.concat([t, t])                      # a new buffer of 8 bytes
    assert tf.memory().num_bytes - before.num_bytes == 12
    tf.dispose([t, r, c])
    assert (tf.memory().num_bytes, tf.memory().num_tensors) == (before.num_bytes, before.num_tensors)


def test_ops_that_move_values():
    t = tf.tensor([["a", "bb", "c"], ["d", "ee", "f"]])
    v = tf.tensor(["x", "y"])
    got = [tf.reshape(t, [3, 2]), tf.clone(t), tf.slice(t, [0, 1], [2, 2]), t[1, ::-1],
           tf.gather_nd(t, tf.tensor([[1, 1], [0, 2]], dtype="int32")), tf.concat([t, t], 1), tf.stack([v, v], 1),
           tf.tile(v, [3]), tf.expand_dims(v, 1), tf.squeeze(tf.reshape(v, [1, 2])),
           *tf.unstack(t, 1), tf.cast(v, "string")]
    ref = np.array([["a", "bb", "c"], ["d", "ee", "f"]], dtype=object)
    rv = np.array(["x", "y"], dtype=object)
    want = [ref.reshape(3, 2), ref, ref[:, 1:3], ref[1, ::-1], np.array([ref[1, 1], ref[0, 2]], dtype=object),
            np.concatenate([ref, ref], 1), np.stack([rv, rv], 1), np.tile(rv, 3), rv[:, None], rv,
            *(ref[:, i] for i in range(3)), rv]
    for g, w in zip(got, want):
        assert g.dtype == "string"
        assert g.array_sync() == w.tolist()
    # TF.js's transpose, reverse, gather and split take numeric tensors only
    for fn in (tf.transpose, lambda x: tf.reverse(x, 1), lambda x: tf.gather(x, [1]), lambda x: tf.split(x, 3, 1)):
        with pytest.raises(TypeError, match="string"):
            fn(t)


def test_arithmetic_and_numeric_kernels_refuse_strings():
    t = tf.tensor(["a", "b"])
    assert_raises(TypeError, lambda: tf.add(t, t), "Add", "string")
    assert_raises(TypeError, lambda: t + 1, "add", "string")
    assert_raises(TypeError, lambda: tf.exp(t), "exp", "string")
    assert_raises(TypeError, lambda: tf.exp("abc"), "exp", "string")
    assert_raises(TypeError, lambda: tf.maximum(t, t), "string")
    assert_raises(TypeError, lambda: tf.sum(t), "sum", "'x'", "string")
    assert_raises(TypeError, lambda: tf.sum("abc"), "sum", "'x'", "str")
    assert_raises(TypeError, lambda: tf.string.string_n_grams(t, t, "", [1], "", "", 0, False), "data_splits")
    assert_raises(TypeError, lambda: tf.cast(t, "float32"), "cast", "string")
    f = tf.tensor([1.0])
    assert_raises(TypeError, lambda: tf.cast(f, "string"), "cast", "string")
    assert_raises(TypeError, lambda: tf.tensor([1, 2], dtype="string"), "tensor", "values", "str")
    assert_raises(TypeError, lambda: tf.tensor(["a"], dtype="float32"), "tensor", "values")
    tf.dispose([t, f])


# --- tf.string kernels ------------------------------------------------------------------------------
# fingerPrint64 of these (util.fingerPrint64(encodeString(s)) in TF.js): every length branch of
# farmhash (0, 1-3, 4-7, 8-16, 17-32, 33-64, and the 64-byte loop), multi-byte UTF-8 included.
_FP_STRINGS = ["", "a", "ab", "abc", "abcd", "Hello", "TensorFlow", "2.x", "abcdefgh", "abcdefghijklmnopq",
               "x" * 33, "y" * 64, "z" * 65, "The quick brown fox jumps over the lazy dog, again and again and again!!",
               "\u00e9\u6f22\u5b57\U0001f642", "q" * 200]
_FP_TFJS = [11160318154034397263, 12917804110809363939, 12289600257749001502, 2640714258260161385,
            1897425971756105985, 15404698994557526151, 4265654129848386254, 943390013796179357,
            18368443631171807497, 11394395984755135400, 12270365409943098935, 4471793200125962424,
            8299915583762718517, 2867856442453081385, 3988337931232780893, 17372321070079757425]


def test_fingerprint64_matches_tfjs():
    assert [fingerprint64(encode(s)) for s in _FP_STRINGS] == _FP_TFJS


def test_string_to_hash_bucket_fast():
    out = tf.string.string_to_hash_bucket_fast(["Hello", "TensorFlow", "2.x"], 3)
    assert out.dtype == "int32" and out.array_sync() == [0, 2, 2]
    strs = ["k" * (i * 7) + str(i) for i in range(20)]
    assert tf.string.string_to_hash_bucket_fast(tf.reshape(tf.tensor(strs), [4, 5]), 1000003).array_sync() == [
        [537292, 7293, 22412, 228637, 997435], [489801, 370449, 546765, 671143, 63464],
        [855666, 223651, 956763, 684654, 686511], [698538, 623560, 364559, 600700, 268643]]
    assert tf.string.string_to_hash_bucket_fast(_FP_STRINGS, 2147483647).array_sync() == [
        1699943623, 493484721, 399016389, 1043552938, 2127136445, 1576802502, 514838136, 992480781,
        245091680, 1773773112, 410535650, 245492011, 172380598, 919901604, 302742221, 1683034213]


def test_string_split():
    r = _arrays(tf.string.string_split(["hello world", "a b c", "", "a,,b", "\u00e9,x"], " ,"))
    assert r == {"indices": [[0, 0], [0, 1], [1, 0], [1, 1], [1, 2], [3, 0], [3, 1], [4, 0], [4, 1]],
                 "values": ["hello", "world", "a", "b", "c", "a", "b", "\u00e9", "x"], "shape": [5, 3]}
    r = _arrays(tf.string.string_split(["hello world", "a  b c", "", "a,,b ", " "], " ", False))
    assert r == {"indices": [[0, 0], [0, 1], [1, 0], [1, 1], [1, 2], [1, 3], [3, 0], [3, 1], [4, 0], [4, 1]],
                 "values": ["hello", "world", "a", "", "b", "c", "a,,b", "", "", ""], "shape": [5, 4]}
    r = _arrays(tf.string.string_split(["abc", "", "de"], ""))
    assert r == {"indices": [[0, 0], [0, 1], [0, 2], [2, 0], [2, 1]], "values": list("abcde"), "shape": [3, 3]}
    # Byte-wise, as TF.js: an empty delimiter splits a 2-byte character into two bytes, and a
    # multi-byte delimiter splits at each of its bytes.
    r = tf.string.string_split(["a\u00e9b"], "")
    assert [encode(s) for s in r["values"].data_sync()] == [b"a", b"\xc3", b"\xa9", b"b"]
    assert tf.string.string_split(["x\u00e9y\u00e9z"], "\u00e9")["values"].data_sync() == ["x", "y", "z"]
    r = tf.string.string_split(tf.tensor([], dtype="string"), " ")
    assert [v.shape for v in r.values()] == [(0, 2), (0,), (2,)] and r["shape"].array_sync() == [0, 0]


def test_string_n_grams():
    r = _arrays(tf.string.string_n_grams(["a", "b", "c", "d"], tf.tensor1d([0, 2, 4], dtype="int32"), "|", [1, 2],
                                         "LP", "RP", -1, False))
    assert r == {"n_grams": ["a", "b", "LP|a", "a|b", "b|RP", "c", "d", "LP|c", "c|d", "d|RP"],
                 "n_grams_splits": [0, 5, 10]}
    cases = [  # (data, splits, sep, widths, lpad, rpad, pad_width, preserve) -> TF.js output
        ((list("abcde"), [0, 1, 1, 5], " ", [3], "<", ">", 0, True), (["a", "b c d", "c d e"], [0, 1, 1, 3])),
        ((list("abc"), [0, 3], "-", [2, 5], "L", "R", 1, False), (["L-a", "a-b", "b-c", "c-R", "L-a-b-c-R"], [0, 5])),
        ((["a"], [0, 1], "-", [4], "L", "R", 1, True), (["L-a-R"], [0, 1])),
        ((["a", "b"], [0, 2], "-", [3], "L", "R", 0, True), (["a-b"], [0, 1])),
        ((list("abcdef"), [0, 0, 2, 6], "_", [2, 3], "<", ">", 1, True),
         (["<_>", "<_a", "a_b", "b_>", "<_a_b", "a_b_>", "<_c", "c_d", "d_e", "e_f", "f_>", "<_c_d", "c_d_e",
           "d_e_f", "e_f_>"], [0, 1, 6, 15])),
    ]
    for args, (grams, splits) in cases:
        r = _arrays(tf.string.string_n_grams(*args))
        assert r == {"n_grams": grams, "n_grams_splits": splits}, args
    empty = tf.string.string_n_grams(tf.tensor([], dtype="string"), [0, 0], "_", [2], "<", ">", 1, True)
    assert empty["n_grams"].shape == (0,) and empty["n_grams_splits"].array_sync() == [0, 0]


def test_static_regex_replace():
    f = tf.string.static_regex_replace
    assert f(["format       this   spacing      better", "aaa"], " +", " ").array_sync() == [
        "format this spacing better", "aaa"]
    assert f(["aaa", "abc abc", "xyz"], "a", "b", False).array_sync() == ["baa", "bbc abc", "xyz"]
    assert f(["john smith", "abc"], r"(\w+) (\w+)", "$2, $1 [$&] $$ $3").array_sync() == [
        "smith, john [john smith] $ $3", "abc"]
    assert f(["abc", "aXbXc", ""], "x*", "-").array_sync() == ["-a-b-c-", "-a-X-b-X-c-", "-"]
    assert f([["2024-01-15"]], r"(?<y>\d+)-(?<m>\d+)-(?<d>\d+)", "$<d>/$<m>/$<y> $`|$'|$0|$10|$01").array_sync() == [
        ["15/01/2024 ||$0|20240|2024"]]


def test_string_op_errors():
    s = tf.string
    v, f, m = tf.tensor(["a", "b"]), tf.tensor([1.0, 2.0]), tf.tensor([["a", "b"]])
    assert_raises(TypeError, lambda: s.string_to_hash_bucket_fast(f, 3), "string_to_hash_bucket_fast",
                  "input", "string")
    assert_raises(TypeError, lambda: s.string_to_hash_bucket_fast([1.0], 3), "string_to_hash_bucket_fast",
                  "input", "str")
    assert_raises(ValueError, lambda: s.string_to_hash_bucket_fast(v, 0), "string_to_hash_bucket_fast", "num_buckets")
    assert_raises(ValueError, lambda: s.string_split(m, " "), "string_split", "input", "vector")
    assert_raises(ValueError, lambda: s.string_split(v, [" "]), "string_split", "delimiter", "scalar")
    assert_raises(TypeError, lambda: s.string_split(v, 1), "string_split", "delimiter")
    assert_raises(ValueError, lambda: s.string_n_grams(m, [0, 2], "", [1], "", "", 0, False),
                  "string_n_grams", "data", "vector")
    assert_raises(TypeError, lambda: s.string_n_grams(v, f, "", [1], "", "", 0, False),
                  "string_n_grams", "data_splits", "int32")
    assert_raises(ValueError, lambda: s.string_n_grams(v, [0, 2], "", [0], "", "", 0, False),
                  "string_n_grams", "n_gram_widths")
    for splits, fragment in (([1, 2], "first split"), ([0, 3, 2], "invalid split"), ([0, 1], "last split")):
        assert_raises(ValueError, lambda: s.string_n_grams(v, splits, "_", [2], "<", ">", 1, True),
                      "string_n_grams", fragment)
    assert_raises(ValueError, lambda: s.static_regex_replace(v, "(", "x"), "static_regex_replace", "pattern")
    assert_raises(TypeError, lambda: s.static_regex_replace(v, 1, "x"), "static_regex_replace", "pattern")
    tf.dispose([v, f, m])


def test_string_ops_release_their_intermediates():
    v = tf.tensor(["a b", "c"])
    for fn in (lambda: tf.dispose(tf.string.string_split(v, " ")),
               lambda: tf.dispose(tf.string.string_n_grams(["a", "b"], [0, 2], "-", [2], "", "", 0, False)),
               lambda: tf.string.string_to_hash_bucket_fast(["a"], 5).dispose(),
               lambda: tf.string.static_regex_replace(["a"], "a", "b").dispose()):
        assert_no_leak(fn)
    v.dispose()
