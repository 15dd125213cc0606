"""webgl FusedBatchNorm, LRN, LRNGrad against the cpu backend; Multinomial (sampled in the
shader, so not the cpu backend's draws) by its distribution; dropout; a numeric gradient check."""
import numpy as np

from .conftest import gradient_threshold, tolerance

rng = np.random.default_rng(12)


def floats(*shape, low=-2.0, high=2.0):
    return rng.uniform(low, high, size=shape).astype(np.float32)


def test_batch_norm(compare_with_cpu):
    x, x2 = floats(2, 3, 4, 5), floats(6, 5)
    m, v, o, s = floats(5), floats(5, low=0.2), floats(5), floats(5)
    full = floats(1, 3, 1, 5)
    compare_with_cpu("""lambda x, x2, m, v, o, s, full: [tf.batch_norm(x, m, v, o, s), tf.batch_norm(x, m, v),
        tf.batch_norm(x2, m, v, None, s, 0.1), tf.batch_norm4d(x, full, full * full + 0.5, full),
        tf.batch_norm(m, m[0], v[1], o[2], s[3]),
        tf.grad(lambda t: tf.batch_norm(t, m, v, o, s))(x)]""", [x, x2, m, v, o, s, full],
                     rtol=1e-4, atol=1e-5)


def test_lrn_and_its_gradient(compare_with_cpu):
    x = floats(2, 3, 2, 7)
    img = floats(4, 3, 3)
    compare_with_cpu("""lambda x, img: [tf.local_response_normalization(x), tf.local_response_normalization(x, 2, 1.5, 0.7, 0.75),
        tf.local_response_normalization(img, 0, 2.0, 1.0, 1.0), tf.local_response_normalization(img, 10),
        tf.grad(lambda t: tf.local_response_normalization(t, 2, 1.5, 0.7, 0.75))(x),
        tf.grad(lambda t: tf.local_response_normalization(t) * img[:1])(img)]""", [x, img], rtol=1e-4, atol=1e-5)


def test_multinomial_distribution_and_dropout(run_py):
    result = run_py("""
logits = tf.log(tf.tensor([[0.1, 0.2, 0.7], [0.5, 0.25, 0.25]]))
draws = tf.multinomial(logits, 4000, seed=5)
again = tf.multinomial(logits, 4000, seed=5)
probs = tf.multinomial(tf.tensor([0.0, 0.0, 1.0, 0.0]), 50, seed=9, normalized=True)
kept = tf.dropout(tf.ones([400, 10]), 0.25, seed=3)
d = draws.array_sync()
result = {"dtype": draws.dtype, "shape": list(draws.shape),
          "counts": [[row.count(i) / 4000 for i in range(3)] for row in d],
          "same": d == again.array_sync(), "certain": probs.array_sync(),
          "kept": sorted(set(kept.data_sync())), "fraction": sum(kept.data_sync()) / 4000 * 0.75}
""")
    assert result["dtype"] == "int32" and result["shape"] == [2, 4000]
    np.testing.assert_allclose(result["counts"], [[0.1, 0.2, 0.7], [0.5, 0.25, 0.25]], atol=0.03)
    assert result["same"]
    assert result["certain"] == [2] * 50
    np.testing.assert_allclose(result["kept"], [0.0, 1 / 0.75], *tolerance(1e-6, 0))
    assert abs(result["fraction"] - 0.75) < 0.05


def test_numeric_gradients_in_the_page(run_py):
    errors = run_py("""
from pytfweb.testing import numeric_gradient_error
x, m, v, s = (tf.tensor(a) for a in (x, m, v, s))
result = [numeric_gradient_error(lambda x, m, v, s: tf.batch_norm(x, m, v, None, s), [x, m, v, s]),
          numeric_gradient_error(lambda t: tf.local_response_normalization(t, 1), [x])]
""", x=floats(1, 2, 2, 3).tolist(), m=floats(3).tolist(), v=floats(3, low=0.5).tolist(), s=floats(3).tolist())
    assert max(errors) < gradient_threshold(1e-2), errors
