"""webgl slicing kernels (Slice, StridedSlice, GatherV2) against the cpu backend, through the
public ops and `t[...]`.

Each compare_with_cpu call runs several ops at once: shader compiles dominate on SwiftShader."""
import pytest
import functools

import numpy as np

from . import inputs

rng = np.random.default_rng(12)


_floats, _ints, _bools = (functools.partial(f, rng) for f in (inputs.floats, inputs.ints, inputs.bools))


def test_slice(compare_with_cpu):
    v, x, i, b = _floats(7), _floats(3, 4, 5), _ints(4, 1, 3, 2), _bools(3, 4)
    compare_with_cpu("""lambda v, x, i, b: [tf.slice(v, 2, 3), tf.slice(v, [6], [1]), tf.slice(v, [3], [0]),
        tf.slice(x, [1, 0, 2], [2, -1, 3]), tf.slice(x, [0, 1, 0], [3, 2, 5]), tf.slice(x, [2, 3, 4], [1, 1, 1]),
        tf.slice(x, [0, 0, 0], [-1, -1, -1]), tf.slice(i, [1, 0, 1, 0], [3, 1, 2, 1]), tf.slice(b, [1, 1], [2, 3])]""",
                     [v, x, i, b])


def test_strided_slice_and_getitem(compare_with_cpu):
    v, x, i, b = _floats(9), _floats(4, 5, 6), _ints(3, 4), _bools(5, 2)
    compare_with_cpu("""lambda v, x, i, b: [v[::2], v[::-1], v[-2:1:-3], v[7:2], v[4], v[None, 1:3],
        x[1:, ::-2, 4:1:-1], x[..., 1], x[:, None, 2, ::3], x[-1, -1:, ::-5], x[3:1, :, :],
        tf.strided_slice(x, [0, 1, 5], [4, 5, 0], [2, 2, -2]),
        tf.strided_slice(x, [1, 0], [3, 0], [1, 1], end_mask=2, shrink_axis_mask=1),
        i[::-1, 1::2], i[2, 3], b[::-2], b[1:4, 1]]""", [v, x, i, b])


def test_gather(compare_with_cpu):
    x, i, b = _floats(4, 3, 2), _ints(5, 3), _bools(2, 3)
    idx = np.int32([3, 0, 0, 2])
    idx2 = np.int32([[1, 0], [2, 2]])
    pairs = np.int32([[1, 0], [0, 1]])
    batch = np.int32([[2, 0, 1, 1], [0, 0, 2, 1]])
    s = np.int32(1)
    e = np.zeros((0,), np.int32)
    compare_with_cpu("""lambda x, i, b, idx, idx2, pairs, batch, s, e: [tf.gather(x, idx), tf.gather(x, idx2, 1),
        tf.gather(x, s, 2), tf.gather(x, pairs, -1), tf.gather(i, idx, 0), tf.gather(i, batch, 1, batch_dims=0),
        tf.gather(b, batch, 1, batch_dims=1), tf.gather(x, e), tf.gather(x, e, 1)]""",
                     [x, i, b, idx, idx2, pairs, batch, s, e])


def test_gather_reads_zero_outside_the_axis(run_py):
    """As TF.js's webgl backend: no readback to check indices computed on the GPU, an index out
    of range reads 0. (Indices whose values are on the CPU anyway are checked, as on cpu:
    tests/browser/test_webgl_malformed_args.py.)"""
    got = run_py("""
x = tf.tensor([[1.0, 2.0], [3.0, 4.0]])
i = tf.add(tf.tensor([1, -1, 2, 0], dtype="int32"), 0)   # computed: its values are on the GPU only
tf.gather(x, i).array_sync()
""")
    assert got == [[3.0, 4.0], [0.0, 0.0], [0.0, 0.0], [1.0, 2.0]]


@pytest.mark.webgl_only("webgl's program cache (webgpu's pipelines are keyed without shapes)")
def test_slices_of_one_shape_share_a_program(run_py):
    """begin is a uniform: sliding a window compiles one program, and slicing everything is
    the input itself (no program, no texture)."""
    got = run_py("""
be = tf.backend()
x = tf.tensor([float(k) for k in range(40)], [8, 5])
whole = tf.slice(x, [0, 0], [8, 5])
windows = [tf.slice(x, [0, 1], [3, 3]).array_sync()]
before = len(be.programs)
windows += [tf.slice(x, [k, 1], [3, 3]).array_sync() for k in range(1, 6)]
result = [len(be.programs) - before, windows[0], windows[5], whole.data_id is x.data_id]
""")
    assert got[0] == 0
    assert got[1] == [[1.0, 2.0, 3.0], [6.0, 7.0, 8.0], [11.0, 12.0, 13.0]]
    assert got[2] == [[26.0, 27.0, 28.0], [31.0, 32.0, 33.0], [36.0, 37.0, 38.0]]
    assert got[3] is True
