"""ops/misc.py on webgl: the composed ops run on the existing shaders and read back asynchronously.

One compare_with_cpu call for the shader-backed compositions (shader compiles dominate on
SwiftShader); one run_py for what reads back (in_top_k_async, Tensor.buffer())."""
import numpy as np

from .conftest import BACKEND

rng = np.random.default_rng(11)


def _floats(*shape):
    return rng.uniform(-1, 1, size=shape).astype(np.float32)


def test_lstm_cell_and_rank_wrappers_match_cpu(compare_with_cpu):
    kernel, bias = _floats(5, 8), _floats(8)
    data, c, h = _floats(2, 3), _floats(2, 2), _floats(2, 2)
    compare_with_cpu("""lambda k, b, d, c, h: [*tf.basic_lstm_cell(1.0, k, b, d, c, h),
        tf.slice2d(tf.reverse2d(k, 1), [1, 2], [3, 4]), tf.pad1d(b, [2, 1], 3),
        tf.concat2d([d, h], 1), tf.moving_average(c, h, 0.75, 2)]""",
                     [kernel, bias, data, c, h], rtol=1e-4, atol=1e-5)


def test_in_top_k_async_and_buffer_read_back(run_py):
    result = run_py("""
p = tf.tensor2d([[0.1, 0.7, 0.2], [0.5, 0.4, 0.6]])
hits = await tf.in_top_k_async(p, tf.tensor1d([2, 1], dtype="int32"), 2)
buf = await p.buffer()
buf.set(9, 1, 2)  # a copy: the tensor (and webgl's cache of what it read) keeps its values
sync = p.buffer_sync()
sync.set(8, 0, 0)
result = [hits.array_sync(), sync.get(1, 2), p.array_sync(), tf.backend().name]
""")
    hits, value, values, backend = result
    assert backend == BACKEND
    assert hits == [True, False] and abs(value - 0.6) < 1e-6
    np.testing.assert_allclose(values, [[0.1, 0.7, 0.2], [0.5, 0.4, 0.6]], rtol=1e-6)
