"""Creation kernels drawn by shaders (Fill, ZerosLike, OnesLike, Range, LinSpace) and ExpandDims."""
import pytest
import numpy as np


def test_creation_kernels_match_cpu(compare_with_cpu):
    x = np.float32([[1.5, -2.0, 3.0]])
    i = np.int32([4, -5])
    compare_with_cpu(
        "lambda x, i: [tf.zeros([2, 3]), tf.ones([4], 'int32'), tf.fill([2, 2], 7.25), tf.fill([3], True), "
        "tf.zeros_like(x), tf.ones_like(i), tf.range(5), tf.range(2, 11, 3, 'int32'), tf.range(5, 0), "
        "tf.range(0, 1, 0.1), tf.linspace(-1, 1, 7), tf.linspace(3, 9, 1), tf.zeros([0, 2]), "
        "tf.expand_dims(x, 0), tf.expand_dims(i, -1)]",
        [x, i])


@pytest.mark.webgl_only("webgl's textures: a Fill is drawn, never uploaded")
def test_fill_uploads_nothing(run_py):
    out = run_py("""
z = tf.zeros([512, 512])
d = tf.backend().store[z.data_id]
result = [d.values is None, d.texture is not None, float(tf.sum(z).data_sync()[0])]
""")
    assert out == [True, True, 0.0]   # no CPU-side copy was made: the texture was drawn


@pytest.mark.webgl_only("webgl's program cache")
def test_fill_is_one_program_for_every_shape(run_py):
    """Fill's shader never looks at coordinates: one compile serves every shape and dtype."""
    out = run_py("""
ts = [tf.zeros([3, 5]), tf.ones([7]), tf.fill([2, 2, 2], 4, 'int32'), tf.zeros([]), tf.zeros_like(tf.ones([9, 1]))]
keys = [k for k in tf.backend().programs if k[0] == "fill"]
result = [keys, [t.array_sync() for t in ts]]
tf.dispose(ts)
""")
    keys, values = out
    assert keys == [["fill"]] or keys == [("fill",)], keys
    assert values == [[[0.0] * 5] * 3, [1.0] * 7, [[[4, 4], [4, 4]]] * 2, 0.0, [[0.0]] * 9]
