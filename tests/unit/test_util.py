"""tf.util's functions that the parity suite cannot compare with TF.js (they draw random numbers, read
the clock or only mutate their argument); the rest are parity cases (tests/parity/cases/util.py)."""
import random

import pytest

import pytfweb as tf


def test_shuffles_permute_in_place():
    random.seed(3)
    a = list(range(20))
    tf.util.shuffle(a)
    assert sorted(a) == list(range(20)) and a != list(range(20))
    b, c = list(range(10)), [f"v{i}" for i in range(10)]
    tf.util.shuffle_combo(b, c)
    assert sorted(b) == list(range(10)) and c == [f"v{i}" for i in b]
    with pytest.raises(ValueError):
        tf.util.shuffle_combo([1, 2], [1])
    idx = tf.util.create_shuffled_indices(12)
    assert sorted(idx) == list(range(12))


def test_rand_uniform_now_swap():
    values = [tf.util.rand_uniform(-2, 3) for _ in range(200)]
    assert all(-2 <= v <= 3 for v in values) and max(values) - min(values) > 3
    t0 = tf.util.now()
    assert tf.util.now() >= t0
    x = [1, 2, 3]
    assert tf.util.swap(x, 0, 2) is None and x == [3, 2, 1]


def test_assert_is_reachable_under_its_python_names():
    assert getattr(tf.util, "assert") is tf.util.assert_
    with pytest.raises(ValueError, match="lazy message"):
        tf.util.assert_(False, lambda: "lazy message")


def test_is_promise_by_truthiness():
    # TF.js returns undefined (not false) for anything but a promise: only truthiness is comparable
    async def coro():
        return 1
    c = coro()
    assert tf.util.is_promise(c)
    c.close()
    assert not tf.util.is_promise(3) and not tf.util.is_promise(None)


def test_finger_print64_and_hex_to_long_are_unsigned_ints():
    # TF.js's Longs as Python ints: values checked against TF.js in tests/parity/cases/util.py
    assert tf.util.hex_to_long("ffffffffffffffff") == 2 ** 64 - 1
    assert tf.util.hex_to_long("-1") == 2 ** 64 - 1
    assert tf.util.hex_to_long("0x10") == 16   # parseInt's 0x prefix
    with pytest.raises(ValueError, match="empty"):
        tf.util.hex_to_long("")
    with pytest.raises(TypeError):
        tf.util.hex_to_long(12)
    h = tf.util.finger_print64(b"hello")
    assert isinstance(h, int) and 0 <= h < 2 ** 64
    assert tf.util.finger_print64("hello") == h == tf.util.finger_print64(list(b"hello"))
    assert tf.util.finger_print64(b"hello world", 5) == h
    with pytest.raises(ValueError):
        tf.util.finger_print64(b"abc", 4)
    with pytest.raises(TypeError):
        tf.util.finger_print64(3.5)
    # the kernel that uses it: string_to_hash_bucket_fast is fingerprint modulo the buckets
    assert tf.string.string_to_hash_bucket_fast(tf.tensor(["hello"]), 1000).array_sync() == [h % 1000]
