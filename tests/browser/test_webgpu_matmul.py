"""BatchMatMul on webgpu (register-blocked GEMM) against cpu: sizes around and across the blocks
(4 or 8 rows x 4 or 8 columns), each operand's loader (vec4s along K or M / N where a multiple of
4, else scalars one K step at a time) under all four transposes, broadcast batch dims, int32
wrapping, NaN/inf, empty operands, gradients."""
import numpy as np
import pytest

from .test_webgpu_backend import compare_webgpu, webgpu  # noqa: F401  (fixtures)

RNG = np.random.default_rng(41)
TOLERANCE = dict(rtol=1e-4, atol=1e-4)


def _mat(*shape):
    return RNG.uniform(-1, 1, size=shape).astype(np.float32)


@pytest.mark.parametrize("m, k, n", [(1, 1, 1), (2, 3, 4), (31, 33, 32), (32, 32, 32), (65, 7, 70), (5, 100, 3),
                                     (4, 8, 4), (12, 16, 36), (13, 12, 8), (8, 5, 12), (20, 4, 6), (3, 24, 17)])
def test_mat_mul_sizes_and_transposes(compare_webgpu, m, k, n):
    a, b = _mat(m, k), _mat(k, n)
    compare_webgpu("lambda a, b, at, bt: [tf.mat_mul(a, b), tf.mat_mul(at, b, transpose_a=True), "
                   "tf.mat_mul(a, bt, transpose_b=True), tf.mat_mul(at, bt, True, True)]",
                   [a, b, np.ascontiguousarray(a.T), np.ascontiguousarray(b.T)], **TOLERANCE)


def test_batch_broadcasting(compare_webgpu):
    compare_webgpu("lambda a, b, c, d, e, f: [tf.mat_mul(a, b), tf.mat_mul(c, d), tf.mat_mul(e, f, False, True)]",
                   [_mat(2, 1, 5, 6), _mat(1, 3, 6, 4), _mat(4, 3, 7), _mat(7, 2), _mat(3, 2, 6), _mat(1, 5, 6)],
                   **TOLERANCE)


def test_batch_broadcasting_vec4_loaders(compare_webgpu):
    # batch offsets of vec4-bound operands (every loader: a [.., M, K] / [.., K, M], b [.., K, N] / [.., N, K])
    compare_webgpu("lambda a, b, at, bt: [tf.mat_mul(a, b), tf.mat_mul(at, b, True), tf.mat_mul(a, bt, False, True), "
                   "tf.mat_mul(at, bt, True, True), tf.mat_mul(a[0, 0], b)]",
                   [_mat(2, 1, 12, 8), _mat(1, 3, 8, 16), _mat(2, 1, 8, 12), _mat(1, 3, 16, 8)], **TOLERANCE)


@pytest.mark.filterwarnings("ignore:invalid value encountered")  # numpy, on NaN * 0 in the cpu reference
def test_int32_wraps_and_special_values(compare_webgpu):
    a = RNG.integers(-2 ** 20, 2 ** 20, size=(3, 40)).astype(np.int32)
    b = RNG.integers(-2 ** 20, 2 ** 20, size=(40, 5)).astype(np.int32)
    f = _mat(3, 4)
    f[0, 1], f[2, 3] = np.nan, np.inf
    g = _mat(4, 2)
    compare_webgpu("lambda a, b, f, g: [tf.mat_mul(a, b), tf.mat_mul(f, g), tf.dot(f, g)]", [a, b, f, g])


@pytest.mark.filterwarnings("ignore:invalid value encountered")
def test_special_values_and_int32_on_vec4_loaders(compare_webgpu):
    f, g = _mat(8, 12), _mat(12, 8)
    f[0, 1], f[5, 4], g[3, 2], g[7, 7] = np.nan, np.inf, -np.inf, np.inf
    a = RNG.integers(-2 ** 20, 2 ** 20, size=(8, 40)).astype(np.int32)
    b = RNG.integers(-2 ** 20, 2 ** 20, size=(40, 12)).astype(np.int32)
    compare_webgpu("lambda f, g, a, b: [tf.mat_mul(f, g), tf.mat_mul(g, f, True, True), tf.mat_mul(f, f, True), "
                   "tf.mat_mul(g, g, False, True), tf.mat_mul(a, b), tf.mat_mul(b, a, True, True)]", [f, g, a, b])


def test_empty_operands(compare_webgpu):
    compare_webgpu("lambda a, b, c, d, e, f, g: [tf.mat_mul(a, b), tf.mat_mul(c, d), tf.mat_mul(e, f), "
                   "tf.mat_mul(e, e, True), tf.mat_mul(g, f)]",
                   [_mat(3, 0), _mat(0, 4), _mat(0, 2), _mat(2, 5), _mat(8, 0), _mat(0, 12), _mat(2, 0, 0)])


def test_large_product(compare_webgpu):
    compare_webgpu("lambda a, b: tf.mat_mul(a, b)", [_mat(130, 257), _mat(257, 96)], rtol=1e-3, atol=1e-3)


def test_mat_mul_gradient(webgpu):
    from .test_webgpu_gradients import numeric_error_on_webgpu
    a, b = _mat(3, 4).tolist(), _mat(4, 2).tolist()
    assert numeric_error_on_webgpu(webgpu, "lambda a, b: tf.mat_mul(a, b)", [a, b]) < 2e-2
    assert numeric_error_on_webgpu(webgpu, "lambda a, b: tf.mat_mul(b, a, True, True)", [a, b]) < 2e-2


def test_bad_shapes_name_op_and_leak_nothing(webgpu):
    from .conftest import PageError
    with pytest.raises(PageError) as e:
        webgpu("tf.tidy(lambda: tf.mat_mul(tf.ones([2, 3]), tf.ones([2, 3])))")
    assert e.value.type == "ValueError" and "mat_mul" in e.value.message and "inner dimensions" in e.value.message
    assert webgpu("m = tf.memory()\nresult = [m.num_tensors, m.num_buffers_in_use]") == [0, 0]
