"""webgl BatchMatMul (mat_mul, dot, outer_product) against the cpu backend."""
import numpy as np
import pytest

rng = np.random.default_rng(11)


def _floats(*shape):
    return rng.uniform(-2, 2, size=shape).astype(np.float32)


def test_non_square_and_transposes(compare_with_cpu):
    a, b = _floats(3, 5), _floats(5, 4)
    at, bt = np.ascontiguousarray(a.T), np.ascontiguousarray(b.T)
    compare_with_cpu("""lambda a, b, at, bt: [tf.mat_mul(a, b), tf.mat_mul(at, b, transpose_a=True),
        tf.mat_mul(a, bt, transpose_b=True), tf.mat_mul(at, bt, transpose_a=True, transpose_b=True),
        tf.mat_mul(b, a, transpose_a=True, transpose_b=True)]""", [a, b, at, bt])


def test_batch_broadcasting(compare_with_cpu):
    a, b = _floats(2, 1, 3, 4), _floats(3, 4, 2)
    c, d = _floats(1, 3, 4), _floats(5, 2, 4)
    f, g = _floats(2, 1, 4, 3), _floats(3, 5, 4)
    compare_with_cpu("lambda a, b, c, d, f, g: [tf.mat_mul(a, b), tf.mat_mul(c, d, transpose_b=True), "
                     "tf.mat_mul(f, g, transpose_a=True, transpose_b=True)]", [a, b, c, d, f, g])


def test_int32_bool_and_vectors(compare_with_cpu):
    a = rng.integers(-100, 100, size=(2, 3, 4)).astype(np.int32)
    b = rng.integers(-100, 100, size=(2, 4, 3)).astype(np.int32)
    p, q = rng.uniform(size=(3, 2)) < 0.5, rng.uniform(size=(2, 4)) < 0.5
    v, w = _floats(6), _floats(6)
    compare_with_cpu("lambda a, b, p, q, v, w: [tf.mat_mul(a, b), tf.mat_mul(p, q), tf.dot(v, w), "
                     "tf.outer_product(v, w), tf.dot(tf.reshape(v, [2, 3]), tf.reshape(w, [3, 2]))]",
                     [a, b, p, q, v, w])


@pytest.mark.filterwarnings("ignore:invalid value encountered")  # numpy, on inf * 0
def test_edge_values_unit_and_empty_inner(compare_with_cpu):
    a = np.array([[1.0, np.nan], [np.inf, 0.0], [1e20, 1e20]], dtype=np.float32)
    b = np.array([[2.0, 1.0], [1.0, -1.0]], dtype=np.float32)
    one = _floats(1, 1)
    e1, e2 = np.zeros((2, 0), np.float32), np.zeros((0, 3), np.float32)
    compare_with_cpu("lambda a, b, one, e1, e2: [tf.mat_mul(a, b), tf.mat_mul(one, one), tf.mat_mul(e1, e2)]",
                     [a, b, one, e1, e2])


def test_long_inner_dimension(compare_with_cpu):
    a, b = _floats(2, 3000), _floats(3000, 3)
    compare_with_cpu("lambda a, b: tf.mat_mul(a, b)", [a, b], rtol=1e-4, atol=1e-3)
