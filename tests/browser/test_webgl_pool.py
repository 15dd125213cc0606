"""webgl pooling (MaxPool, AvgPool, their 3D forms, MaxPoolWithArgmax, and the grad kernels)
against the cpu backend, and a few numeric gradient checks in the page.

Each compare_with_cpu call runs several ops: every window geometry compiles its own shader,
and compiles dominate on SwiftShader."""
import numpy as np

from .conftest import gradient_threshold

rng = np.random.default_rng(11)


def spread(*shape):
    """Distinct values at least 0.1 apart (no ties, so no argmax that differs by rounding)."""
    return (rng.permutation(int(np.prod(shape))) * 0.1 - 2).astype(np.float32).reshape(shape)


def test_pool_2d(compare_with_cpu):
    x = spread(2, 5, 6, 3)
    img = spread(4, 3, 2)
    compare_with_cpu("""lambda x, img: [tf.max_pool(x, 2, 2, 'valid'), tf.max_pool(x, [3, 2], [1, 2], 'same'),
        tf.avg_pool(x, 3, 2, 'same'), tf.avg_pool(x, [2, 3], 1, 1), tf.max_pool(img, 2, 1, 'same'),
        tf.avg_pool(img, [1, 2], [2, 1], [[0, 0], [1, 2], [0, 1], [0, 0]]),
        tf.max_pool(x, 3, 2, 1, 'ceil'), tf.pool(x, 2, 'max', 'same', 2), tf.pool(x, [2, 2], 'avg', 'valid', [2, 1])]""",
                     [x, img])


def test_pool_3d_int_and_edges(compare_with_cpu):
    v = spread(1, 3, 4, 5, 2)
    i = rng.integers(-50, 50, size=(1, 4, 4, 2)).astype(np.int32)
    e = np.array([1.0, np.nan, -np.inf, 3.0, np.inf, -2.0, 0.5, -1.0, np.nan], np.float32).reshape(1, 3, 3, 1)
    compare_with_cpu("""lambda v, i, e: [tf.max_pool3d(v, 2, 1, 'same'), tf.avg_pool3d(v, [2, 3, 2], [1, 2, 1], 'valid'),
        tf.max_pool3d(v[0], [3, 1, 2], 2, 'same'), tf.max_pool(i, 2, 1, 'valid'), tf.avg_pool(tf.cast(i, 'float32'), 2, 2, 'same'),
        tf.avg_pool(e, 1, 1, [[0, 0], [0, 0], [3, 0], [0, 0]]), tf.max_pool3d(i[None], 2, 1, 'same'),
        tf.max_pool(e, 2, 1, 'valid'), tf.avg_pool(e, 2, 1, 'same'),
        tf.max_pool(e, 1, 1, [[0, 0], [0, 0], [3, 0], [0, 0]]),
        # TF.js returns x for a 1 x 1 window of x's shape (NaN kept); with strides or in 3-D it pools
        tf.max_pool(e, 1, 1, 'valid'), tf.max_pool(e[0], [1, 1], 1, 'same'), tf.avg_pool(e, 1, 1, 0),
        tf.max_pool(i, 1, 1, 'valid'), tf.max_pool(e, 1, [1, 2], 'valid'), tf.max_pool3d(e[None], 1, 1, 'valid'),
        tf.pool(e, 1, 'max', 'valid')]""", [v, i, e])


def test_argmax_and_grad_kernels(compare_with_cpu):
    x = spread(2, 4, 5, 3)
    x3 = spread(1, 3, 3, 4, 2)
    compare_with_cpu("""lambda x, x3: [*tf.max_pool_with_argmax(x, 2, 2, 'same'),
        *tf.max_pool_with_argmax(x, 3, 1, 'valid', True),
        tf.grad(lambda t: tf.max_pool(t, 3, 1, 'same') * t[:, :, :, :1])(x),
        tf.grad(lambda t: tf.avg_pool(t, [2, 3], [2, 1], 'same') * 2.5)(x),
        tf.grad(lambda t: tf.pool(t, 2, 'max', 'same', 2))(x),
        tf.grad(lambda t: tf.max_pool3d(t, 2, 1, 'same'))(x3), tf.grad(lambda t: tf.avg_pool3d(t, 2, [1, 2, 1], 'same'))(x3)]""",
                     [x, x3])


def test_numeric_gradients_in_the_page(run_py):
    errors = run_py("""
from pytfweb.testing import numeric_gradient_error
x = tf.tensor(x)
result = [numeric_gradient_error(lambda t: tf.max_pool(t, 2, 1, 'same'), [x]),
          numeric_gradient_error(lambda t: tf.avg_pool(t, 3, 2, 'same'), [x])]
""", x=spread(1, 4, 3, 2).tolist())
    assert max(errors) < gradient_threshold(1e-2), errors
