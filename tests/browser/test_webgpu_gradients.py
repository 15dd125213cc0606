"""Gradients on webgpu, checked numerically in the page (pytfweb.testing's check, in the form
whose reads are awaited: numeric_gradient_error_async), and against cpu's gradients."""
import numpy as np
import pytest

from .test_webgpu_backend import compare_webgpu, webgpu  # noqa: F401  (fixtures)

RNG = np.random.default_rng(31)

_PAGE_NUMERIC = """
from pytfweb.testing import numeric_gradient_error_async
fn = eval(fn_src, {"tf": tf})
xs = [tf.tensor(x, dtype="float32") for x in inputs]
worst = await numeric_gradient_error_async(fn, xs, eps)
tf.dispose(xs)
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
