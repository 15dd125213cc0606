"""Pixels on the host, shared by tf.browser (browser/pixels.py) and every backend: a JS pixel
source told apart and read through a 2D canvas, RGBA bytes of an image's values, and kernel Draw
(the same on every backend: the image read back and put into a canvas). Nothing here needs a
browser until it is called with a JS object."""
import functools
import math

from ..core.environment import IS_BROWSER
from . import TensorInfo

__all__ = ["DOM_SOURCES", "is_js", "js_kind", "dom_rgba", "rgba_bytes", "put_on_canvas", "draw_kernel"]

DOM_SOURCES = ("ImageData", "HTMLCanvasElement", "OffscreenCanvas", "HTMLImageElement", "HTMLVideoElement",
               "ImageBitmap")


def is_js(x):
    if not IS_BROWSER:
        return False
    from pyodide.ffi import JsProxy
    return isinstance(x, JsProxy)


@functools.lru_cache(maxsize=None)
def _js_instance_of():
    import js
    return js.Function.new("o", "name", "const c = globalThis[name]; return typeof c === 'function' && o instanceof c;")


def js_kind(x):
    """The DOM class of a JS pixel source (or 'PixelData'), told apart as TF.js's fromPixels does."""
    is_a = _js_instance_of()
    data = getattr(x, "data", None)
    if data is not None and is_a(data, "Uint8Array"):
        return "PixelData"
    for cls in DOM_SOURCES:
        if is_a(x, cls):
            return cls
    if getattr(x, "getContext", None) is not None:
        return "HTMLCanvasElement"          # canvas-like
    return None


def dom_rgba(pixels, kind, w, h):
    """RGBA bytes of a DOM source, through a 2D canvas (TF.js's path without a FromPixels kernel)."""
    import js
    if kind == "ImageData":
        return bytes(pixels.data.to_py())
    canvas = js.OffscreenCanvas.new(w, h)
    ctx = canvas.getContext("2d")
    ctx.drawImage(pixels, 0, 0, w, h)
    return bytes(ctx.getImageData(0, 0, w, h).data.to_py())


def rgba_bytes(values, shape, dtype, alpha=1.0, name="to_pixels"):
    """RGBA bytes of an image's flat values (float32 in [0, 1] or int32 in [0, 255]); depth 1
    is grey, depth 3 gets alpha * 255. Values are rounded as Math.round does."""
    h, w = shape[0], shape[1]
    depth = shape[2] if len(shape) == 3 else 1
    scale, top = (255, 1) if dtype == "float32" else (1, 255)
    for v in values:
        if not 0 <= v <= top:       # (NaN fails too)
            raise ValueError(f"{name}: the values of a {dtype} image must be in [0, {top}], got {v}")
    scaled = [math.floor(v * scale + 0.5) for v in values]
    out = bytearray([math.floor(255 * alpha + 0.5)]) * (w * h * 4)
    if depth == 1:
        for c in range(3):
            out[c::4] = bytes(scaled)
    else:
        for c in range(depth):
            out[c::4] = bytes(scaled[c::depth])
    return bytes(out)


def put_on_canvas(canvas, rgba, w, h, name):
    """Size canvas to w x h and put RGBA bytes into it (its 2D context)."""
    if not IS_BROWSER:
        raise RuntimeError(f"{name}: there is no canvas outside the browser (run this in the page, in "
                           f"Pyodide); to_pixels without a canvas gives the RGBA bytes anywhere")
    import js
    from pyodide.ffi import to_js
    ctx = canvas.getContext("2d")
    if ctx is None:
        raise ValueError(f"{name}: argument 'canvas' gives no 2D context")
    canvas.width, canvas.height = w, h
    data = js.Uint8ClampedArray.new(to_js(memoryview(rgba)))
    ctx.putImageData(js.ImageData.new(data, w, h), 0, 0)


def draw_kernel(backend, inputs, attrs):
    """Kernel Draw, the same on every backend: the image read back, put into the canvas.
    Returns the image (as TF.js's kernel does)."""
    (image,) = inputs
    h, w = image.shape[0], image.shape[1]
    rgba = rgba_bytes(backend.read_sync(image.data_id), image.shape, image.dtype, attrs["alpha"], "draw")
    put_on_canvas(attrs["canvas"], rgba, w, h, "draw")
    return TensorInfo(image.data_id, tuple(image.shape), image.dtype)
