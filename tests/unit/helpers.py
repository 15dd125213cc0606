"""Shared helpers for unit tests: random inputs and comparisons against numpy."""
import os
import shutil

import numpy as np
import pytest

import pytfweb as tf

SHAPES_BY_RANK = {0: [()], 1: [(1,), (5,)], 2: [(1, 1), (3, 4)], 3: [(2, 3, 4), (1, 5, 1)],
                  4: [(2, 1, 3, 2), (1, 2, 2, 3)]}
ALL_SHAPES = [s for shapes in SHAPES_BY_RANK.values() for s in shapes]
# Pairs of shapes that broadcast, including rank mismatch and unit dimensions on both sides.
BROADCAST_PAIRS = [((), (3,)), ((3,), ()), ((2, 3), (3,)), ((2, 1), (1, 3)), ((4, 1, 3), (2, 1)),
                   ((2, 3, 4), (2, 3, 4)), ((1,), (2, 2, 2, 2)), ((2, 1, 3, 1), (1, 4, 1, 5))]


def rand(rng, shape, dtype="float32", low=-5, high=5):
    if dtype == "float32":
        return rng.uniform(low, high, size=shape).astype(np.float32)
    if dtype == "int32":
        return rng.integers(low, high, size=shape).astype(np.int32)
    return rng.uniform(size=shape) < 0.5


EDGE_FLOATS = np.array([0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1e-7, 1e6, -1e6, 3.5, -2.5, np.inf, -np.inf, np.nan],
                       dtype=np.float32)


def assert_tensor(t, expected, dtype=None, rtol=1e-5, atol=1e-6):
    """t's shape, dtype and values equal expected (an ndarray or nested list)."""
    expected = np.asarray(expected)
    got = t.numpy()
    assert tuple(t.shape) == tuple(expected.shape), f"shape {t.shape} != {expected.shape}"
    if dtype is not None:
        assert t.dtype == dtype, f"dtype {t.dtype} != {dtype}"
    if t.dtype == "float32":
        np.testing.assert_allclose(got, expected.astype(np.float32), rtol=rtol, atol=atol, equal_nan=True)
    else:
        np.testing.assert_array_equal(got, expected)


def assert_no_leak(fn):
    """Run fn (which may raise) and check tf.memory() did not grow."""
    before = tf.memory()
    try:
        fn()
    except Exception:
        pass
    after = tf.memory()
    assert (after.num_tensors, after.num_bytes) == (before.num_tensors, before.num_bytes)


def assert_raises(exc_type, fn, *fragments):
    """fn raises exc_type whose message contains every fragment (op name, argument, ...),
    nothing leaks, and the engine still works afterwards."""
    caught = []

    def run():
        try:
            fn()
        except Exception as exc:
            caught.append(exc)
            raise
    assert_no_leak(run)
    assert caught, f"expected {exc_type.__name__}, nothing was raised"
    exc = caught[0]
    assert isinstance(exc, exc_type), f"expected {exc_type.__name__}, got {type(exc).__name__}: {exc}"
    for fragment in fragments:
        assert fragment in str(exc), f"{fragment!r} not in message: {exc}"
    after = tf.tidy(lambda: tf.add(tf.scalar(1), tf.scalar(2)))
    assert after.data_sync()[0] == 3
    tf.dispose(after)


def assert_gradients_match_numeric(f, *xs, tol=1e-2):
    """f's analytic gradients match centred differences (pytfweb.testing.numeric_gradient_error,
    relative, float32) within tol, and checking leaks nothing. xs are arrays (made into tensors and
    disposed here) or tensors (left to the caller)."""
    from pytfweb.testing import numeric_gradient_error
    ts = [x if isinstance(x, tf.Tensor) else tf.tensor(x) for x in xs]
    made = [t for t, x in zip(ts, xs) if t is not x]
    before = tf.memory().num_tensors
    err = numeric_gradient_error(f, ts)
    assert err < tol, f"numeric gradient error {err}"
    assert tf.memory().num_tensors == before
    tf.dispose(made)


def gradients_at(f, *arrays, dy=None):
    """The gradients of f at arrays (weighted by dy, default ones) as numpy arrays."""
    xs = [tf.tensor(a) for a in arrays]
    out = f(*xs)
    dy_t = tf.tensor(dy if dy is not None else np.ones(out.shape, np.float32))
    out.dispose()
    gs = tf.grads(f)(xs, dy_t)
    result = [g.numpy() for g in gs]
    tf.dispose([xs, gs, dy_t])
    return result


# --- TensorFlow.js under node, the peer of the model-file tests ------------------------------------------
TFJS = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "node_modules",
                    "@tensorflow", "tfjs")


def need_tfjs():
    """Skip when node or the npm TF.js package is missing (make setup installs both, so CI never skips)."""
    if not os.path.isdir(TFJS) or shutil.which("node") is None:
        pytest.skip("node and node_modules/@tensorflow/tfjs (npm ci) are needed to run TensorFlow.js")


def assert_same_outputs(ours, theirs, atol=1e-5):
    """Two lists of {shape, values} (predictions of the same model here and in TF.js) agree."""
    assert len(ours) == len(theirs)
    for o, t in zip(ours, theirs):
        assert o["shape"] == t["shape"]
        np.testing.assert_allclose(o["values"], t["values"], atol=atol, rtol=1e-4)


def summary_params(model):
    """The parameter counts model.summary() prints: {'Total': n, 'Trainable': n, 'Non-trainable': n}."""
    lines = []
    model.summary(print_fn=lines.append)
    counts = {}
    for line in lines:
        label, sep, rest = line.strip().partition(" params: ")
        if sep:
            counts[label] = int(rest.split(" (")[0].replace(",", ""))
    return counts
