"""tf.browser on webgpu: from_pixels (FromPixels reads the source through a 2D canvas on the host),
to_pixels (an awaited read) and draw (the image's values CPU-side, or a clear error)."""
import pytest

from .conftest import PageError
from .test_webgl_browser_pixels import _PATTERN
from .test_webgpu_backend import _run_unawaited, webgpu  # noqa: F401  (fixture)


def test_from_pixels_to_pixels_and_draw(webgpu):
    got = webgpu(_PATTERN + '''
before = tf.memory().num_tensors
out = {}
for n in (1, 3, 4):
    t = tf.browser.from_pixels(canvas, n)
    out[n] = [list(t.shape), t.dtype, [t.data_sync()[c::n].tolist() for c in range(n)]]
    t.dispose()
t = tf.browser.from_pixels(canvas, 4)
back = await tf.browser.to_pixels(t)
target = js.OffscreenCanvas.new(1, 1)
scaled = tf.tidy(lambda: tf.cast(t, "float32") / 255)
await tf.browser.to_pixels(scaled, target)
drawn = bytes(target.getContext("2d").getImageData(0, 0, W, H).data.to_py())
other = js.OffscreenCanvas.new(1, 1)
grey = tf.tensor([[0.0, 0.5], [1.0, 0.25]])
tf.browser.draw(grey, other)
grey_drawn = list(other.getContext("2d").getImageData(0, 0, 2, 2).data.to_py())
tf.dispose([t, scaled, grey])
result = [out, want, back == rgba, drawn == rgba, grey_drawn, tf.memory().num_tensors - before]
''')
    out, want, same, drawn_same, grey, leaked = got
    for n in ("1", "3", "4"):
        shape, dtype, channels = out[n]
        assert shape == [3, 5, int(n)] and dtype == "int32" and channels == want[:int(n)]
    assert same and drawn_same and leaked == 0
    assert grey == [0, 0, 0, 255, 128, 128, 128, 255, 255, 255, 255, 255, 64, 64, 64, 255]


def test_draw_of_gpu_only_values_reads_them_or_says_to_await(webgpu, page_harness):
    # where Python can wait (run_py), Draw reads the GPU-only values itself
    assert webgpu("""
import js
c = js.OffscreenCanvas.new(1, 1)
tf.browser.draw(tf.tensor([[0.25]]) * 2.0, c)
result = list(c.getContext("2d").getImageData(0, 0, 1, 1).data.to_py())
""") == [128, 128, 128, 255]
    # a synchronous runPython cannot wait: a BackendError naming Draw, saying to await
    message = _run_unawaited(page_harness, """
import js
x = tf.tidy(lambda: tf.tensor([[0.5]]) * 2.0)
try:
    tf.browser.draw(x, js.OffscreenCanvas.new(1, 1))
    msg = "no error"
except Exception as e:
    msg = type(e).__name__ + ": " + str(e)
tf.dispose(x)
msg
""")
    assert message.startswith("BackendError") and "Draw" in message and "await t.data()" in message
