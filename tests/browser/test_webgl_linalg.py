"""webgl against cpu for the linalg family and its composites: einsum (the Einsum kernel),
tf.linalg.band_part / qr / gram_schmidt, a few tf.losses, tf.signal.frame; gradients of einsum,
qr and a loss checked numerically in the page. Grouped into few calls: shader compiles
dominate on SwiftShader."""
import numpy as np

from .conftest import gradient_threshold

rng = np.random.default_rng(31)


def _floats(*shape):
    return rng.uniform(-2, 2, size=shape).astype(np.float32)


def test_einsum(compare_with_cpu):
    a, b, c = _floats(2, 3), _floats(3, 4), _floats(2, 3, 4)
    u, v = _floats(5), _floats(5)
    ia = rng.integers(-50, 50, size=(3, 4)).astype(np.int32)
    ib = rng.integers(-50, 50, size=(4,)).astype(np.int32)
    e1, e2 = np.zeros((2, 0), np.float32), np.zeros((0, 3), np.float32)
    compare_with_cpu("""lambda a, b, c, u, v, ia, ib, e1, e2: [
        tf.einsum('ij,jk->ik', a, b), tf.einsum('ij,jk->ki', a, b),
        tf.einsum('bij,bkj->bik', c, c),
        tf.einsum('i,i->', u, v), tf.einsum('i,j->ij', u, v), tf.einsum('i,j->i', u, v),
        tf.einsum('ij->ji', a), tf.einsum('bij->jbi', c), tf.einsum('ijk->j', c), tf.einsum('ij,j->i', ia, ib),
        tf.einsum('ij,jk->ik', e1, e2)]""", [a, b, c, u, v, ia, ib, e1, e2], rtol=1e-5, atol=1e-5)


def test_band_part_qr_gram_schmidt(compare_with_cpu):
    x, y = _floats(2, 3, 4), _floats(3, 2)
    compare_with_cpu("""lambda x, y: [tf.linalg.band_part(x, 1, 0), tf.linalg.band_part(x, -1, 1),
        tf.linalg.band_part(x, tf.scalar(0, 'int32'), tf.scalar(-1, 'int32')),
        *tf.linalg.qr(y), *tf.linalg.qr(y, True), tf.linalg.gram_schmidt(tf.transpose(y))]""",
                     [x, y], rtol=1e-4, atol=1e-5)


def test_losses_and_frame(compare_with_cpu):
    z = np.eye(3, dtype=np.float32)[rng.integers(0, 3, 4)]
    p, w = _floats(4, 3), rng.uniform(0, 2, size=(4, 1)).astype(np.float32)
    s = _floats(11)
    compare_with_cpu("""lambda z, p, w, s: [tf.losses.mean_squared_error(z, p, w),
        tf.losses.softmax_cross_entropy(z, p, tf.reshape(w, [4]), 0.1, tf.Reduction.NONE),
        tf.losses.sigmoid_cross_entropy(z, p, None, 0.2, tf.Reduction.MEAN),
        tf.losses.huber_loss(z, p, w, 0.5, tf.Reduction.SUM), tf.losses.cosine_distance(z, p, 1, w),
        tf.signal.frame(s, 4, 3, True, 7.5), tf.signal.frame(s, 5, 2), tf.signal.hann_window(8)]""",
                     [z, p, w, s], rtol=1e-5, atol=1e-5)


_GRADIENTS = r'''
from pytfweb.testing import numeric_gradient_error
a, b, c = tf.tensor(a), tf.tensor(b), tf.tensor(c)
z = tf.tensor([[0.0, 1, 0], [1, 0, 0]])
checks = {
    "einsum ij,jk->ik": (lambda x, y: tf.einsum("ij,jk->ik", x, y), [a, b]),
    "einsum ij->j": (lambda x: tf.einsum("ij->j", x), [a]),
    "qr r": (lambda x: tf.linalg.qr(x)[1], [c]),
    "softmax_cross_entropy": (lambda x: tf.losses.softmax_cross_entropy(z, x), [a]),
}
result = {name: numeric_gradient_error(f, xs) for name, (f, xs) in checks.items()}
'''


def test_gradients_in_page(run_py):
    errors = run_py(_GRADIENTS, a=_floats(2, 3).tolist(), b=_floats(3, 2).tolist(), c=_floats(3, 2).tolist())
    for name, err in errors.items():
        assert err < gradient_threshold(5e-2), f"{name}: numeric gradient error {err} on webgl"
