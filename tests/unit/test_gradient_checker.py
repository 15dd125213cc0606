"""pytfweb.testing.numeric_gradient_error rejects wrong gradients: each function below is given
its right gradient and wrong ones by hand (tf.custom_grad), at magnitudes down to ~4e-3, where
an error divided by max(1, |numeric|) let a zeroed or 1%-off gradient through."""
import numpy as np
import pytest

import pytfweb as tf
from pytfweb.testing import numeric_gradient_error

TOL = 1e-2   # the tolerance of most of the gradient tests: a 1% error is at its edge, so 2% is asked below

# name: (input, forward, its gradient given dy), the input chosen so the gradient at SMALL is
# ~4e-3 among others up to ~4 (the corruptions below hit SMALL): x^3 / 3 (dy * x^2), x @ A
# (dy @ A^T, small where A's row is), log_sum_exp over rows (dy * softmax, small where the
# row's softmax is). None of the gradients is symmetric, so a transposed one differs. The outputs
# a move of x[SMALL] touches stay below ~0.3: float32 rounds them at ~6e-8 of their magnitude,
# ~1e-6 over the step, and a 2% error at SMALL (~8e-5) must stand out of that noise to be seen.
A = np.float32([[0.002, 0.0015, 0.001], [1.5, 0.2, -0.4], [-0.3, 0.9, 1.1]])
SMALL = (0, 0)
FUNCTIONS = {
    "cube": (np.float32([[0.065, 1.3, -0.8], [2.0, -0.45, 0.3], [1.1, -1.7, 0.9]]),
             lambda x: x * x * x / 3, lambda x, dy: dy * x * x),
    "matmul": (np.float32([[0.4, 0.05, -0.03], [2.0, -0.45, 0.3], [1.1, -1.7, 0.9]]),
               lambda x: tf.mat_mul(x, tf.tensor(A)), lambda x, dy: tf.mat_mul(dy, tf.tensor(A), False, True)),
    "log_sum_exp": (np.float32([[-5.5, -1.2, 0.0], [2.0, -0.45, 0.3], [1.1, -1.7, 0.9]]),
                    lambda x: tf.log_sum_exp(x, 1),
                    lambda x, dy: tf.reshape(dy, [3, 1]) * tf.softmax(x)),
}


def _one_hot(value):
    m = np.ones((3, 3), np.float32)
    m[SMALL] = value
    return tf.tensor(m)


WRONG = {
    "zeroed at the smallest element": lambda g: g * _one_hot(0.0),
    "sign flipped at the smallest element": lambda g: g * _one_hot(-1.0),
    "2% too large": lambda g: g * 1.02,
    "2% too small at the smallest element": lambda g: g * _one_hot(0.98),
    "transposed": lambda g: tf.transpose(g),
}


def _with_gradient(name, corrupt=None):
    _, forward, gradient = FUNCTIONS[name]

    @tf.custom_grad
    def f(x, save):
        save([x])
        return {"value": forward(x),
                "grad_func": lambda dy, saved: (corrupt or (lambda g: g))(gradient(saved[0], dy))}
    return f


@pytest.mark.parametrize("name", FUNCTIONS)
def test_the_gradients_are_small_at_the_corrupted_element(name):
    """What the rejections below show is shown at |g| ~ 4e-3, where max(1, |n|) hid an error."""
    x, forward, _ = FUNCTIONS[name]
    xt = tf.tensor(x)
    for dy in (0.7, 1.5):   # about the checker's weights (0.5..1.5)
        g = tf.grad(lambda t: tf.sum(forward(t)) * dy)(xt).numpy()
        assert 1e-3 < abs(g[SMALL]) < 1e-2 and np.abs(g).max() > 0.3, g
        assert not np.allclose(g, g.T, rtol=0.05), "a symmetric gradient cannot show a transposition"
    tf.dispose(xt)


@pytest.mark.parametrize("name", FUNCTIONS)
def test_right_gradients_are_accepted(name):
    x, forward, _ = FUNCTIONS[name]
    before = tf.memory().num_tensors
    xt = tf.tensor(x)
    assert numeric_gradient_error(_with_gradient(name), [xt]) < TOL / 2
    assert numeric_gradient_error(forward, [xt]) < TOL / 2   # and pytfweb's own
    tf.dispose(xt)
    assert tf.memory().num_tensors == before


@pytest.mark.parametrize("wrong", WRONG)
@pytest.mark.parametrize("name", FUNCTIONS)
def test_wrong_gradients_are_rejected(name, wrong):
    xt = tf.tensor(FUNCTIONS[name][0])
    assert numeric_gradient_error(_with_gradient(name, WRONG[wrong]), [xt]) > TOL
    tf.dispose(xt)


def test_a_nonzero_gradient_where_the_function_is_flat_is_rejected():
    """|numeric| is 0 there: no relative error can be taken, any excess over the noise fails."""
    @tf.custom_grad
    def f(x, save):
        return {"value": tf.zeros_like(x) + 1.0, "grad_func": lambda dy, saved: dy * 1e-3}
    x = tf.tensor(FUNCTIONS["cube"][0])
    assert numeric_gradient_error(f, [x]) == float("inf")
    tf.dispose(x)


def test_nan_where_the_function_moves_is_rejected():
    @tf.custom_grad
    def f(x, save):
        return {"value": x * 2, "grad_func": lambda dy, saved: dy * float("nan")}
    x = tf.tensor(FUNCTIONS["cube"][0])
    assert numeric_gradient_error(f, [x]) == float("inf")
    tf.dispose(x)


def test_outputs_that_never_move_count_for_nothing():
    """A max pool's all-padding window is -inf before and after every move: it cancels, and the
    rest of the gradient is still checked (it is not NaN, nor passed unseen)."""
    x = tf.tensor(np.arange(8, dtype=np.float32).reshape(1, 2, 2, 2, 1) * 0.3 - 1.0)
    pool = lambda t: tf.max_pool3d(t, [1, 2, 2], 1, 1)   # noqa: E731
    assert numeric_gradient_error(pool, [x]) < TOL

    @tf.custom_grad
    def halved(t, save):
        return {"value": pool(t), "grad_func": lambda dy, saved: tf.grad(lambda u: tf.sum(pool(u) * dy))(t) * 0.5}
    assert numeric_gradient_error(halved, [x]) > TOL
    tf.dispose(x)


@pytest.mark.parametrize("name", FUNCTIONS)
def test_one_percent_off_scores_apart_from_right(name):
    """Right gradients score below TOL / 2 (test_right_gradients_are_accepted), 1% off ones above:
    a test asking TOL / 2 sees a 1% error, at the small element too."""
    xt = tf.tensor(FUNCTIONS[name][0])
    assert numeric_gradient_error(_with_gradient(name, lambda g: g * 1.01), [xt]) > TOL / 2
    assert numeric_gradient_error(_with_gradient(name, lambda g: g * _one_hot(1.01)), [xt]) > TOL / 2
    tf.dispose(xt)


def test_the_awaited_form_gives_the_same_error_and_leaks_nothing():
    """numeric_gradient_error_async (webgpu's, whose reads are awaited) is the same check."""
    import asyncio
    from pytfweb.testing import numeric_gradient_error_async
    xt = tf.tensor(FUNCTIONS["cube"][0])
    before = tf.memory().num_tensors
    for corrupt in (None, WRONG["2% too small at the smallest element"]):
        f = _with_gradient("cube", corrupt)
        assert asyncio.run(numeric_gradient_error_async(f, [xt])) == numeric_gradient_error(f, [xt])
    # an array is made a tensor there, and disposed
    assert asyncio.run(numeric_gradient_error_async(lambda t: t * 2, [FUNCTIONS["cube"][0]])) == 0.0
    assert tf.memory().num_tensors == before
    tf.dispose(xt)
