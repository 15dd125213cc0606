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
