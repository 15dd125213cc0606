"""Softmax and log softmax on webgpu against cpu: short and long rows, NaN and infinities,
rank 1 to 3, gradients."""
import numpy as np

from .test_webgpu_backend import compare_webgpu, webgpu  # noqa: F401  (fixtures)

RNG = np.random.default_rng(61)
TOLERANCE = dict(rtol=1e-5, atol=1e-6)


def test_softmax_and_log_softmax(compare_webgpu):
    short = RNG.normal(size=(4, 3)).astype(np.float32) * 5
    long_ = RNG.normal(size=(2, 300)).astype(np.float32) * 3
    edges = np.float32([[np.inf, 1, 2], [np.nan, 1, 2], [-np.inf, -np.inf, -np.inf], [100, -100, 0], [1e30, 1e30, 0]])
    compare_webgpu("lambda a, b, e, v, t: [tf.softmax(a), tf.log_softmax(a), tf.softmax(b), tf.log_softmax(b), "
                   "tf.softmax(e), tf.log_softmax(e), tf.softmax(v), tf.softmax(t), tf.log_softmax(t)]",
                   [short, long_, edges, RNG.normal(size=(7,)).astype(np.float32),
                    RNG.normal(size=(2, 3, 5)).astype(np.float32)], signed_zeros=False, **TOLERANCE)


def test_softmax_gradients(webgpu):
    from .test_webgpu_gradients import numeric_error_on_webgpu
    x = RNG.normal(size=(2, 4)).astype(np.float32).tolist()
    assert numeric_error_on_webgpu(webgpu, "lambda x: tf.softmax(x)", [x]) < 2e-2
    assert numeric_error_on_webgpu(webgpu, "lambda x: tf.log_softmax(x)", [x]) < 2e-2
