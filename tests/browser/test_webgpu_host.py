"""The host kernels on webgpu (sparse and ragged: output sizes that depend on values): against cpu
where the inputs' values are CPU-side, a clear error where they are only on the GPU, and the
awaited way around it."""
import numpy as np
import pytest

from .conftest import PageError
from .test_webgpu_backend import _run_unawaited, compare_webgpu, webgpu  # noqa: F401  (fixtures)

RNG = np.random.default_rng(111)


def test_sparse_and_ragged_kernels(compare_webgpu):
    ind = np.int32([[0, 0], [1, 0], [1, 3], [1, 4], [3, 2], [3, 3]])
    vals = np.float32([0, 10, 13, 14, 32, 33])
    data = RNG.uniform(-5, 5, size=(10, 2, 3)).astype(np.float32)
    splits = np.int32([0, 3, 3, 7, 9])
    values = RNG.uniform(-5, 5, size=9).astype(np.float32)
    compare_webgpu("""lambda ind, vals, data, splits, values: [
        *tf.sparse.sparse_fill_empty_rows(ind, vals, [5, 6], -1.0),
        *tf.sparse.sparse_reshape(ind, [5, 6], [2, -1, 5]),
        tf.sparse.sparse_segment_sum(data, [8, 3, 0, 9], [0, 3, 3, 3]),
        tf.sparse.sparse_segment_mean(data, [8, 3, 0, 9], [0, 1, 2, 2]),
        *tf.ragged_gather([splits], values, tf.tensor([2, 1, 0, 3], dtype="int32"), 1),
        *tf.ragged_range(tf.tensor([0, 5, 8, 5], dtype="int32"), tf.tensor([8, 7, 8, 1], dtype="int32"),
                         tf.tensor([2, 1, 1, -1], dtype="int32")),
        tf.ragged_tensor_to_tensor([4, 4], values, 1.5, [splits], ["ROW_SPLITS"])]""",
                   [ind, vals, data, splits, values])


def test_gpu_only_inputs_are_read_where_python_can_wait_else_say_to_await(webgpu, page_harness):
    # run_py (an async call): the kernel reads its GPU-only input itself
    assert webgpu("""
x = tf.tensor([[1.0, 2.0]] * 4) * 2.0
result = await tf.sparse.sparse_segment_sum(x, [0, 1], [0, 0]).array()
""") == [[4.0, 8.0]]
    # a synchronous runPython cannot wait: a BackendError naming the kernel, saying to await
    message = _run_unawaited(page_harness, """
x = tf.tensor([[1.0, 2.0]] * 4) * 2.0
try:
    tf.tidy(lambda: tf.sparse.sparse_segment_sum(x, [0, 1], [0, 0]))
    msg = "no error"
except Exception as e:
    msg = type(e).__name__ + ": " + str(e)
tf.dispose(x)
msg
""")
    assert message.startswith("BackendError") and "SparseSegmentSum" in message and "await t.data()" in message
    out = webgpu("""
x = tf.tensor([[1.0, 2.0]] * 4) * 2.0
await x.data()
result = await tf.sparse.sparse_segment_sum(x, [0, 1], [0, 0]).array()
""")
    assert out == [[4.0, 8.0]]


def test_unique_broadcast_args_nms(compare_webgpu):
    x = np.float32([3, 1, np.nan, 3, -0.0, 0.0, np.nan, 2])
    m = np.int32([[1, 2], [3, 4], [1, 2]])
    boxes = np.float32([[0, 0, 1, 1], [0, 0.1, 1, 1.1], [0, -0.1, 1, 0.9], [0, 10, 1, 11], [0, 10.1, 1, 11.1]])
    scores = np.float32([0.9, 0.75, 0.6, 0.95, 0.5])
    compare_webgpu("lambda x, m, boxes, scores: [*tf.unique(x), *tf.unique(m, 0), "
                   "tf.broadcast_args(tf.tensor([2, 1, 3], dtype='int32'), tf.tensor([4, 1], dtype='int32')), "
                   "tf.image.non_max_suppression(boxes, scores, 3, 0.5), "
                   "*tf.image.non_max_suppression_padded(boxes, scores, 4, 0.5, 0.0, True).values(), "
                   "*tf.image.non_max_suppression_with_score(boxes, scores, 3, 0.5, 0.0, 0.5).values()]", [x, m, boxes, scores])


def test_strings_stay_cpu_side_and_move_as_on_webgl(webgpu):
    out = webgpu("""
s = tf.tensor(["b", "a", "ccc", "a"])
t = tf.tensor(["a"])
parts = tf.string.string_split(tf.tensor(["x y", "z"]), " ")
r = [s.array_sync(), (await tf.equal(s, t).array()), (await tf.less(s, tf.reshape(s, [4, 1])).array()),
     (await tf.string.string_to_hash_bucket_fast(s, 7).array()),
     tf.string.static_regex_replace(s, "a", "q").array_sync(), parts["values"].array_sync(), tf.reshape(s, [2, 2]).array_sync()]
r.append([tf.slice(s, [1], [2]).array_sync(), tf.concat([s, t], 0).array_sync()])
result = r
""")
    assert out[0] == ["b", "a", "ccc", "a"]
    assert out[1] == [False, True, False, True]
    s = ["b", "a", "ccc", "a"]
    assert out[2] == [[sj < si for sj in s] for si in s]
    assert all(0 <= v < 7 for v in out[3]) and out[3][1] == out[3][3]
    assert out[4] == ["b", "q", "ccc", "q"] and out[5] == ["x", "y", "z"] and out[6] == [["b", "a"], ["ccc", "a"]]
    # the kernels that move values take strings as on webgl (they move the positions)
    assert out[7] == [["a", "ccc"], ["b", "a", "ccc", "a", "a"]]
