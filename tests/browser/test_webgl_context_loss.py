"""A lost WebGL context (WEBGL_lose_context, as a driver reset or the browser reclaiming the GPU
would do it): pending reads fail with ContextLostError, the backend builds a new context, data
with a CPU-side copy of its values (written from Python, or read back) survives, data that lived
only on the GPU raises ContextLostError when used, and new work runs. On a backend of its own, so
the page's webgl backend is untouched."""

LOSE_AND_RECOVER = """
import asyncio
from pytfweb.backends.webgl.backend import WebGLBackend
from pytfweb.core.errors import ContextLostError

tf.copy_registered_kernels("webgl", "webgl-lose")
tf.register_backend("webgl-lose", WebGLBackend)
tf.set_backend("webgl-lose")
be = tf.backend()


def error_of(fn):
    try:
        fn()
    except ContextLostError as exc:
        return str(exc)
    return None


try:
    before = tf.memory().num_tensors
    written = tf.tensor([1.0, 2.0, 3.0])                 # from Python: a CPU copy
    gpu_only = tf.cumsum(written)                        # drawn: only in a texture
    not_drawn = tf.add(written, 10)                      # fusion: an expression of written, drawn later
    read_back = tf.mul(written, 2)
    read_back.data_sync()                                # read back: a CPU copy too
    initial = tf.tensor([[1.0, 2.0], [3.0, 4.0]])
    weights = tf.variable(initial, name="w_context_loss")
    product = tf.mat_mul(weights, weights)               # packs weights (kept with them, on the GPU)
    big = tf.random_uniform([1024, 1024], seed=3)
    slow = tf.mat_mul(big, big)                          # a read of this waits for the GPU a while
    pending = asyncio.ensure_future(slow.data())
    await asyncio.sleep(0)                               # the read starts: pixels, fence, first poll
    be.ctx.gl.getExtension("WEBGL_lose_context").loseContext()
    try:
        await pending
        pending_error = None
    except ContextLostError as exc:
        pending_error = str(exc)
    result = {
        "pending": pending_error,
        "written": tf.tidy(lambda: list((written + 1).data_sync())),
        "read_back": tf.tidy(lambda: list((read_back * 10).data_sync())),
        "weights": tf.tidy(lambda: [list(r) for r in tf.mat_mul(weights, weights).array_sync()]),
        "not_drawn": list(not_drawn.data_sync()),
        "gpu_only_used": error_of(lambda: tf.add(gpu_only, 1)),
        "gpu_only_read": error_of(lambda: gpu_only.data_sync()),
        "product_read": error_of(lambda: product.data_sync()),
        "new_work": tf.tidy(lambda: list(tf.sum(tf.reshape(tf.range(0, 12), [3, 4]), 1).data_sync())),
        "losses": be.context_losses,
    }
    tf.dispose([written, gpu_only, not_drawn, read_back, initial, weights, product, big, slow])
    result["left"] = tf.memory().num_tensors - before
finally:
    tf.set_backend("webgl")
    tf.remove_backend("webgl-lose")
"""


def test_lost_context_is_rebuilt_and_cpu_copies_survive(run_py):
    out = run_py(LOSE_AND_RECOVER + "\nresult = result\n")
    assert out["losses"] == 1
    assert out["pending"] is not None and "pending" in out["pending"]
    assert out["written"] == [2.0, 3.0, 4.0]
    assert out["not_drawn"] == [11.0, 12.0, 13.0]
    assert out["read_back"] == [20.0, 40.0, 60.0]
    assert out["weights"] == [[7.0, 10.0], [15.0, 22.0]]
    for key in ("gpu_only_used", "gpu_only_read", "product_read"):
        assert out[key] is not None and "only in the GPU's memory" in out[key], (key, out[key])
    assert "float32 tensor of shape [3]" in out["gpu_only_used"]
    assert out["new_work"] == [6, 22, 38]
    assert out["left"] == 0           # the failed calls left nothing behind
