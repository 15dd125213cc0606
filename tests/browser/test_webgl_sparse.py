"""webgl sparse and ragged kernels against the cpu backend: SparseToDense as a shader, the
others read back and computed in Python (the same code as on cpu). Errors in the page.

Few compare_with_cpu calls, each running several ops: shader compiles are slow on SwiftShader."""
import numpy as np
import pytest

from .conftest import PageError

rng = np.random.default_rng(11)


def test_sparse_to_dense_shader(compare_with_cpu):
    rows = np.int32([[0, 1, 2], [1, 0, 3], [0, 1, 2], [1, 2, 0]])    # a repeated index: last wins
    vals = rng.uniform(-5, 5, size=4).astype(np.float32)
    vec = np.int32([4, 0, 6, 4])
    ivals = np.int32([7, -3, 9, 11])
    flags = np.bool_([True, False, True, True])
    compare_with_cpu("""lambda rows, vals, vec, ivals, flags: [
        tf.sparse_to_dense(rows, vals, [2, 3, 4], -1.5), tf.sparse_to_dense(rows, vals[0], [2, 3, 4]),
        tf.sparse_to_dense(vec, ivals, [8], 5), tf.sparse_to_dense(vec, flags, [7], False),
        tf.sparse_to_dense(vec[0], vals[1], [5], 2.5), tf.sparse_to_dense(vec[:0], vals[:0], [3], 1.0)]""",
                     [rows, vals, vec, ivals, flags])


def test_sparse_to_dense_no_entries_then_one(run_py):
    """Regression (found by tests/browser/test_fuzz_webgl.py): no entries and one entry both
    reach the shader as flat [1] inputs, and the program compiled for none was reused for one,
    which then came back as all defaults."""
    got = run_py("""
a = tf.sparse_to_dense(tf.zeros([0], "int32"), tf.zeros([0]), [8], 0.5).array_sync()
b = tf.sparse_to_dense(tf.tensor([5], dtype="int32"), tf.tensor([3.0]), [8], 0.5).array_sync()
[a, b]
""")
    assert got == [[0.5] * 8, [0.5] * 5 + [3.0] + [0.5] * 2]


def test_sparse_host_kernels(compare_with_cpu):
    ind = np.int32([[0, 0], [1, 0], [1, 3], [1, 4], [3, 2], [3, 3]])
    unordered = np.int32([[1, 2], [1, 3], [0, 1], [0, 3]])
    vals = np.float32([0, 10, 13, 14, 32, 33])
    data = rng.uniform(-5, 5, size=(10, 2, 3)).astype(np.float32)
    idata = rng.integers(-9, 9, size=(6, 4)).astype(np.int32)
    compare_with_cpu("""lambda ind, unordered, vals, data, idata: [
        *tf.sparse.sparse_fill_empty_rows(ind, vals, [5, 6], -1.0),
        *tf.sparse.sparse_fill_empty_rows(unordered, tf.cast(vals[:4], "int32"), [2, 5], 0),
        *tf.sparse.sparse_reshape(ind, [5, 6], [2, -1, 5]), *tf.sparse.sparse_reshape(ind, [5, 6], [30]),
        tf.sparse.sparse_segment_sum(data, [8, 3, 0, 9], [0, 3, 3, 3]),
        tf.sparse.sparse_segment_mean(data, [8, 3, 0, 9], [0, 1, 2, 2]),
        tf.sparse.sparse_segment_mean(idata, [0, 1, 2, 5], [0, 0, 0, 1]),
        tf.sparse.sparse_segment_sum(idata, [], [])]""", [ind, unordered, vals, data, idata])


def test_ragged_kernels(compare_with_cpu):
    splits = np.int32([0, 3, 3, 7, 9])
    inner = np.int32([0, 0, 2, 3, 5, 8, 9])
    outer = np.int32([0, 1, 3, 3, 5, 6])
    values = rng.uniform(-5, 5, size=9).astype(np.float32)
    rows = np.int32([[1, 2], [3, 4], [5, 6]])
    compare_with_cpu("""lambda splits, inner, outer, values, rows: [
        *tf.ragged_gather([splits], values, tf.tensor([2, 1, 0, 3], dtype="int32"), 1),
        *tf.ragged_gather([outer, inner], values, tf.tensor([[2, 1], [0, 4]], dtype="int32"), 3),
        *tf.ragged_gather([splits], values, tf.scalar(2, "int32"), 0),
        *tf.ragged_range(tf.tensor([0, 5, 8, 5], dtype="int32"), tf.tensor([8, 7, 8, 1], dtype="int32"),
                         tf.tensor([2, 1, 1, -1], dtype="int32")),
        *tf.ragged_range(tf.tensor([0.5, 1.0]), tf.tensor(2.0), tf.tensor([0.5, -0.25])),
        tf.ragged_tensor_to_tensor([4, 4], values, 1.5, [splits], ["ROW_SPLITS"]),
        tf.ragged_tensor_to_tensor([-1, -1], values, 0.0, [tf.scalar(4, "int32"),
            tf.tensor([0, 0, 0, 2, 2, 2, 2, 3, 3], dtype="int32")], ["FIRST_DIM_SIZE", "VALUE_ROWIDS"]),
        tf.ragged_tensor_to_tensor([5, 2, 3], values, -1.0, [outer, inner], ["ROW_SPLITS", "ROW_SPLITS"]),
        tf.ragged_tensor_to_tensor([-1, -1, 2], rows, tf.tensor([-7, -8], dtype="int32"),
            [tf.tensor([0, 2, 2, 3], dtype="int32")], ["ROW_SPLITS"])]""",
                     [splits, inner, outer, values, rows])


@pytest.mark.parametrize("code, fragment", [
    ('tf.sparse.sparse_segment_sum([[1.0, 2.0]] * 4, [0, 1], [1, 0])', "sorted"),
    ('tf.sparse.sparse_fill_empty_rows([[5, 0]], [1.0], [2, 2], 0.0)', "indices"),
    ('tf.ragged_range([0, 1], [3, 3], [1, 0])', "deltas"),
])
def test_errors_in_the_page(run_py, code, fragment):
    with pytest.raises(PageError) as e:
        run_py(f"before = tf.memory().num_tensors\ntry:\n    {code}\nfinally:\n"
               f"    assert tf.memory().num_tensors == before, 'leaked'")
    assert e.value.type == "ValueError" and fragment in e.value.message
