"""Gradients on webgpu, checked numerically in the page (centred differences, as
pytfweb.testing.numeric_gradient_error, whose data_sync() calls cannot run on webgpu: the values
are read with `await t.data()` here), and against cpu's gradients."""
import numpy as np
import pytest

from .test_webgpu_backend import compare_webgpu, webgpu  # noqa: F401  (fixtures)

RNG = np.random.default_rng(31)

# testing.numeric_gradient_error's method with awaited reads: largest |analytic - numeric| /
# max(1, |numeric|) over every element of every input, for sum(f(*xs) * w), w fixed random weights.
_PAGE_NUMERIC = """
import random
fn = eval(fn_src, {"tf": tf})
xs = [tf.tensor(x, dtype="float32") for x in inputs]
rng = random.Random(0)
out = tf.tidy(lambda: fn(*xs))
w = tf.tensor([rng.uniform(0.5, 1.5) for _ in range(out.size)], out.shape, "float32")
out.dispose()

def scalar(*args):
    return tf.sum(tf.mul(tf.cast(fn(*args), "float32"), w))

gs = tf.grads(scalar)(xs)
analytic = [list(await g.data()) for g in gs]
tf.dispose(gs)
worst = 0.0
for k, x in enumerate(xs):
    base = list(await x.data())
    for i in range(len(base)):
        values = []
        for sign in (1, -1):
            moved = list(base)
            moved[i] += sign * eps
            args = list(xs)
            args[k] = tf.tensor(moved, x.shape, "float32")
            y = tf.tidy(lambda: scalar(*args))
            values.append((await y.data())[0])
            tf.dispose([y, args[k]])
        numeric = (values[0] - values[1]) / (2 * eps)
        worst = max(worst, abs(analytic[k][i] - numeric) / max(1.0, abs(numeric)))
tf.dispose(xs + [w])
m = tf.memory()
result = [worst, m.num_tensors]
"""


def numeric_error_on_webgpu(run, fn_src, inputs, eps=1e-2):
    worst, left = run(_PAGE_NUMERIC, fn_src=fn_src, inputs=inputs, eps=eps)
    assert left == 0, f"{fn_src}: {left} tensors left behind"
    return worst


CASES = [
    ("lambda x: tf.exp(x)", [(2, 3)]),
    ("lambda x: tf.tanh(x) * tf.sigmoid(x)", [(4,)]),
    ("lambda x: tf.sqrt(tf.abs(x) + 1.0)", [(3,)]),
    ("lambda x: tf.relu(x) + tf.elu(x) + tf.relu6(x * 4.0)", [(2, 4)]),
    ("lambda a, b: a * b + a / (b * b + 1.0)", [(2, 3), (3,)]),
    ("lambda a, b: tf.maximum(a, b) - tf.minimum(a, b) * 2.0", [(3, 2), (3, 2)]),
    ("lambda a, b: tf.squared_difference(a, b) + tf.pow(tf.abs(a) + 0.5, b)", [(2, 2), (2, 2)]),
    ("lambda x: tf.where(tf.greater(x, 0.0), x * x, -x)", [(5,)]),
    ("lambda x: tf.log1p(tf.abs(x)) + tf.softplus(x) + tf.atan(x)", [(4,)]),
]


@pytest.mark.parametrize("fn_src, shapes", CASES, ids=[c[0] for c in CASES])
def test_numeric_gradients(webgpu, fn_src, shapes):
    inputs = [RNG.uniform(-1.5, 1.5, size=s).astype(np.float32).tolist() for s in shapes]
    # keep clear of the kinks of relu/max/where: a centred difference there is not the gradient
    inputs = [np.where(np.abs(np.float32(x)) < 0.1, 0.5, x).tolist() for x in inputs]
    assert numeric_error_on_webgpu(webgpu, fn_src, inputs) < 2e-2


def test_gradients_equal_cpus(compare_webgpu):
    a = RNG.uniform(-2, 2, size=(3, 4)).astype(np.float32)
    b = RNG.uniform(-2, 2, size=(4,)).astype(np.float32)
    compare_webgpu("lambda a, b: tf.grads(lambda a, b: tf.sum(tf.tanh(a * b) + tf.maximum(a, b) * a))([a, b])",
                   [a, b], rtol=1e-4, atol=1e-5)
