"""tf.browser in the page: from_pixels from an OffscreenCanvas / ImageData (FromPixels: the
canvas uploaded as a texture, channels picked by a shader), to_pixels and draw round trips."""
from .conftest import BACKEND

_PATTERN = '''
import js
from pyodide.ffi import to_js
W, H = 5, 3
# An opaque known pattern (opaque: canvases store premultiplied alpha, so only alpha 255 is exact).
rgba = bytes(v for y in range(H) for x in range(W) for v in (40 * x + 7, 60 * y + 3, (x * 31 + y * 17) % 256, 255))
canvas = js.OffscreenCanvas.new(W, H)
ctx = canvas.getContext("2d")
ctx.putImageData(js.ImageData.new(js.Uint8ClampedArray.new(to_js(memoryview(rgba))), W, H), 0, 0)
want = [list(rgba[i::4]) for i in range(4)]
'''


def test_from_pixels_sources_and_channels(run_py):
    got = run_py(_PATTERN + '''
before = tf.memory().num_tensors
out = {}
for n in (1, 3, 4):
    t = tf.browser.from_pixels(canvas, n)
    out[n] = [list(t.shape), t.dtype, [t.data_sync()[c::n].tolist() for c in range(n)]]
    t.dispose()
image_data = ctx.getImageData(0, 0, W, H)
t = await tf.browser.from_pixels_async(image_data, 4)
out["image_data"] = [c.tolist() for c in (t.data_sync()[i::4] for i in range(4))]
t.dispose()
t = tf.browser.from_pixels({"data": rgba, "width": W, "height": H}, 2)
out["dict"] = [list(t.shape), [t.data_sync()[c::2].tolist() for c in range(2)]]
t.dispose()
result = [out, want, tf.memory().num_tensors - before, tf.get_backend()]
''')
    out, want, leaked, backend = got
    assert backend == BACKEND and leaked == 0
    for n in ("1", "3", "4"):
        shape, dtype, channels = out[n]
        assert shape == [3, 5, int(n)] and dtype == "int32"
        assert channels == want[:int(n)]
    assert out["image_data"] == want
    assert out["dict"] == [[3, 5, 2], want[:2]]


def test_to_pixels_and_draw_round_trip(run_py):
    got = run_py(_PATTERN + '''
t = tf.browser.from_pixels(canvas, 4)
back = await tf.browser.to_pixels(t)
target = js.OffscreenCanvas.new(1, 1)
await tf.browser.to_pixels(tf.cast(t, "float32") / 255, target)
drawn = bytes(target.getContext("2d").getImageData(0, 0, W, H).data.to_py())
other = js.OffscreenCanvas.new(1, 1)
grey = tf.tensor([[0.0, 0.5], [1.0, 0.25]])
tf.browser.draw(grey, other)
grey_drawn = list(other.getContext("2d").getImageData(0, 0, 2, 2).data.to_py())
result = [back == rgba, drawn == rgba, [target.width, target.height], grey_drawn]
''')
    same, drawn_same, size, grey = got
    assert same and drawn_same and size == [5, 3]
    assert grey == [0, 0, 0, 255, 128, 128, 128, 255, 255, 255, 255, 255, 64, 64, 64, 255]


def test_pixel_errors_in_the_page(run_py):
    got = run_py('''
import js
errors = []
for bad in (lambda: tf.browser.from_pixels(js.Object.new()), lambda: tf.browser.from_pixels(js.OffscreenCanvas.new(2, 2), 5)):
    try:
        bad()
    except (TypeError, ValueError) as exc:
        errors.append(str(exc))
result = errors
''')
    assert len(got) == 2 and all("from_pixels" in e for e in got)
    assert "pixels" in got[0] and "num_channels" in got[1]
