"""webgl Softmax, LogSoftmax and OneHot (and ops built on reductions) against the cpu backend."""
import numpy as np

rng = np.random.default_rng(5)


def _floats(*shape, scale=3.0):
    return (rng.standard_normal(size=shape) * scale).astype(np.float32)


def test_softmax_and_log_softmax(compare_with_cpu):
    x, v, cube = _floats(4, 7), _floats(5), _floats(2, 3, 4)
    compare_with_cpu("""lambda x, v, cube: [tf.softmax(x), tf.log_softmax(x), tf.softmax(v),
        tf.log_softmax(v), tf.softmax(cube, 2), tf.log_softmax(cube, -1), tf.softmax(tf.reshape(v, [5, 1]))]""",
                     [x, v, cube])


def test_softmax_edge_values(compare_with_cpu):
    x = np.array([[1000.0, 1001.0, 999.0], [-1000.0, -1001.0, -999.0], [0.0, -np.inf, 1.0],
                  [np.nan, 1.0, 2.0], [np.inf, 1.0, 2.0], [-np.inf, -np.inf, -np.inf]], dtype=np.float32)
    compare_with_cpu("lambda x: [tf.softmax(x), tf.log_softmax(x)]", [x])


def test_softmax_long_rows_and_composites(compare_with_cpu):
    """Rows of 3000 take two reduction passes each for max and sum."""
    x = _floats(2, 3000)
    compare_with_cpu("lambda x: [tf.softmax(x), tf.log_softmax(x), tf.log_sum_exp(x), *tf.moments(x, 1)]",
                     [x], rtol=1e-4, atol=1e-6)


def test_softmax_empty(compare_with_cpu):
    compare_with_cpu("lambda x, y: [tf.softmax(x), tf.log_softmax(y)]",
                     [np.zeros((0, 3), np.float32), np.zeros((2, 0), np.float32)])


def test_one_hot(compare_with_cpu):
    idx = np.array([[0, 3, 4], [-1, 5, 2]], dtype=np.int32)
    s = np.int32(2)
    compare_with_cpu("""lambda idx, s: [tf.one_hot(idx, 5), tf.one_hot(idx, 4, 2.5, -1.5, 'float32'),
        tf.one_hot(idx, 3, 7.9, -2.9, 'int32'), tf.one_hot(idx, 5, 1, 0, 'bool'), tf.one_hot(s, 3),
        tf.one_hot(tf.tensor([1, 0], dtype='int32'), 2),
        # depth 1, which tf.one_hot refuses as TF.js does, in a gather's gradient along an axis of 1
        tf.grad(lambda t: tf.gather(t, tf.tensor([0, 0, 0], dtype='int32')))(tf.ones([1, 2]) * 1.5)]""", [idx, s])


def test_no_texture_leaks(run_py):
    in_use = run_py("""
x = tf.tidy(lambda: tf.ones([3, 500]) + 0)   # computed, so it holds its texture already
before = in_use()
y = tf.softmax(x)
z = tf.log_softmax(x)
y.data_sync()
z.data_sync()
after = in_use()
tf.dispose([x, y, z])
result = [before, after]
""")
    assert in_use[1] == in_use[0] + 2
