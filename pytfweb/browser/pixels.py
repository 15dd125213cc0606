"""tf.browser: tensors from and to pixels (from_pixels, from_pixels_async, to_pixels, draw),
with TF.js 4.22 semantics.

Sources for from_pixels:
  - in the page (Pyodide, reached through `js`): an ImageData, HTMLCanvasElement,
    OffscreenCanvas, HTMLImageElement, HTMLVideoElement or ImageBitmap. On a backend with a
    FromPixels kernel (webgl) the element is uploaded as a texture and a shader picks the
    channels; elsewhere its RGBA bytes are read through a 2D canvas.
  - anywhere: pixel data {"data": RGBA bytes, "width": w, "height": h} (a dict, or a JS object
    whose data is a Uint8Array), or a numpy uint8 array [height, width, 4].
The result is an int32 tensor [height, width, num_channels] (the first num_channels of RGBA).

to_pixels / draw take an int32 image in [0, 255] or a float32 one in [0, 1], of shape
[height, width] or [height, width, 1 | 3 | 4]. Kernel Draw (attrs {"canvas", "alpha"}) puts
them into a canvas; it exists only where there is a canvas (in the page). TF.js registers
Draw on its cpu backend only; here it is on every backend (the page has no cpu backend:
that one needs numpy).
"""
import array
from typing import Any, Optional

from ..core.engine import ENGINE, op
from ..kernels import get_kernel
from ..kernels.pixels import dom_rgba as _dom_rgba, is_js as _is_js, js_kind as _js_kind, put_on_canvas, rgba_bytes
from ..core.tensor import Tensor
from ..ops.creation import cast, convert_to_tensor

__all__ = ["from_pixels", "from_pixels_async", "to_pixels", "draw"]


# --- from_pixels ------------------------------------------------------------------------------

def _num_channels(n, name):
    if isinstance(n, bool) or not isinstance(n, int):
        raise TypeError(f"{name}: argument 'num_channels' must be an int, got {type(n).__name__}")
    if not 1 <= n <= 4:
        raise ValueError(f"{name}: argument 'num_channels' must be 1, 2, 3 or 4, got {n}")
    return n


def _size(w, h, name):
    for arg, v in (("width", w), ("height", h)):
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise ValueError(f"{name}: the pixels' {arg} must be a non-negative int, got {v!r}")
    return w, h


def _pixel_data(data, w, h, name):
    """RGBA bytes of pixel data, checked against its size."""
    if hasattr(data, "to_py"):              # a JS typed array
        data = data.to_py()
    try:
        rgba = bytes(data)
    except (TypeError, ValueError):
        raise TypeError(f"{name}: the pixels' data must be RGBA bytes (bytes, a uint8 buffer or ints in "
                        f"[0, 255]), got {type(data).__name__}") from None
    if len(rgba) != w * h * 4:
        raise ValueError(f"{name}: the pixels' data must hold width * height * 4 = {w * h * 4} bytes (RGBA), "
                         f"got {len(rgba)}")
    return rgba


def _host_rgba(pixels, name):
    """(rgba bytes, width, height) of a source readable on the host, or None for a DOM source
    (which a kernel or kernels/pixels.py's dom_rgba reads)."""
    if isinstance(pixels, dict):
        missing = [k for k in ("data", "width", "height") if k not in pixels]
        if missing:
            raise TypeError(f"{name}: pixel data must be a dict with 'data', 'width' and 'height'; missing "
                            f"{', '.join(missing)}")
        w, h = _size(pixels["width"], pixels["height"], name)
        return _pixel_data(pixels["data"], w, h, name), w, h
    if type(pixels).__module__ == "numpy":
        if pixels.ndim != 3 or pixels.shape[2] != 4 or pixels.dtype.name != "uint8":
            raise ValueError(f"{name}: a numpy array of pixels must be uint8 of shape [height, width, 4], got "
                             f"{pixels.dtype.name} {list(pixels.shape)}")
        h, w = int(pixels.shape[0]), int(pixels.shape[1])
        return pixels.tobytes(), w, h
    return None


def _check_source(pixels, name):
    """(kind, width, height) of a JS pixel source; TypeError for anything else."""
    if pixels is None:
        raise ValueError(f"{name}: argument 'pixels' must not be None")
    kind = _js_kind(pixels) if _is_js(pixels) else None
    if kind is None:
        raise TypeError(f"{name}: argument 'pixels' must be pixel data {{'data', 'width', 'height'}}, a uint8 "
                        f"numpy array [height, width, 4], or (in the browser) an ImageData, HTMLCanvasElement, "
                        f"OffscreenCanvas, HTMLImageElement, HTMLVideoElement or ImageBitmap; got "
                        f"{type(pixels).__name__}")
    video = kind == "HTMLVideoElement"
    w, h = (pixels.videoWidth, pixels.videoHeight) if video else (pixels.width, pixels.height)
    return kind, int(w), int(h)


_CANVAS_2D = []


def _drawn_on_canvas(pixels, w, h):
    """A video or image drawn into a 2D canvas of its size, as TF.js's webgl FromPixels kernel does before
    uploading it: the browser's 2D drawing decodes a video frame's colours otherwise than a texture
    upload straight from the element (up to 120 levels apart at the edges of Chromium's fake camera
    pattern), and this way the frames are TF.js's."""
    import js
    if not _CANVAS_2D:
        document = getattr(js, "document", None)
        canvas = document.createElement("canvas") if document is not None else js.OffscreenCanvas.new(1, 1)
        _CANVAS_2D.append(canvas.getContext("2d"))
    ctx = _CANVAS_2D[0]
    ctx.canvas.width, ctx.canvas.height = w, h
    ctx.drawImage(pixels, 0, 0, w, h)
    return ctx.canvas


def _channels_tensor(rgba, w, h, n):
    """The int32 tensor [h, w, n] of the first n channels of RGBA bytes."""
    picked = bytearray(w * h * n)
    for c in range(n):
        picked[c::n] = rgba[c::4]
    return ENGINE.make_tensor(array.array("i", list(picked)), (h, w, n), "int32")  # (not bytes: values)


@op
def from_pixels(pixels: Any, num_channels: int = 3) -> Tensor:
    """An int32 tensor of an image's pixels (the first num_channels of RGBA).

    Sources: in the page an ImageData, HTMLCanvasElement, OffscreenCanvas, HTMLImageElement,
    HTMLVideoElement or ImageBitmap; anywhere, pixel data {"data": RGBA bytes, "width": w, "height":
    h} or a numpy uint8 array [height, width, 4].

    Args:
        pixels: the source.
        num_channels: 1, 2, 3 or 4.

    Returns:
        An int32 Tensor [height, width, num_channels].

    Example:
        >>> pixels = {"data": bytes([255, 0, 0, 255, 0, 255, 0, 255]), "width": 2, "height": 1}
        >>> tf.browser.from_pixels(pixels).print()
        Tensor
            [[[255, 0  , 0],
              [0  , 255, 0]]]
    """
    name = "from_pixels"
    n = _num_channels(num_channels, name)
    host = _host_rgba(pixels, name)
    if host is None:
        kind, w, h = _check_source(pixels, name)
        if kind == "PixelData":
            w, h = _size(w, h, name)
            host = _pixel_data(pixels.data, w, h, name), w, h
        elif get_kernel("FromPixels", ENGINE.get_backend()) is not None:
            if kind in ("HTMLVideoElement", "HTMLImageElement"):
                pixels = _drawn_on_canvas(pixels, w, h)
            return ENGINE.run_kernel("FromPixels", [], {"pixels": pixels, "num_channels": n, "width": w, "height": h})
        else:
            host = _dom_rgba(pixels, kind, w, h), w, h
    return _channels_tensor(*host, n)


async def from_pixels_async(pixels: Any, num_channels: int = 3) -> Tensor:
    """tf.browser.from_pixels, awaited (TF.js may first wrap the source in an ImageBitmap; reading it
    here needs no waiting).

    Args:
        pixels: the source, as from_pixels's.
        num_channels: 1, 2, 3 or 4.

    Returns:
        An int32 Tensor [height, width, num_channels].

    Example:
        >>> import asyncio
        >>> pixels = {"data": bytes([255, 0, 0, 255, 0, 255, 0, 255]), "width": 2, "height": 1}
        >>> asyncio.run(tf.browser.from_pixels_async(pixels, 1)).as1d().print()
        Tensor
            [255, 0]
    """
    return from_pixels(pixels, num_channels)


# --- to_pixels, draw ------------------------------------------------------------------------

def _image(img, name):
    """img as a tensor to read (a new int32 one for plain values, as TF.js) and whether it is new."""
    if isinstance(img, Tensor):
        img.throw_if_disposed(name)
        t = img
    else:
        t = ENGINE.tidy(lambda: cast(convert_to_tensor(img, "img", name), "int32"))
    try:
        if t.rank not in (2, 3):
            raise ValueError(f"{name}: argument 'img' must have rank 2 or 3, got rank {t.rank} "
                             f"(shape {list(t.shape)})")
        depth = t.shape[2] if t.rank == 3 else 1
        if depth not in (1, 3, 4):
            raise ValueError(f"{name}: argument 'img' must have depth 1, 3 or 4, got {depth}")
        if t.dtype not in ("float32", "int32"):
            raise TypeError(f"{name}: argument 'img' must be float32 or int32, got {t.dtype}")
    except Exception:
        if t is not img:
            t.dispose()
        raise
    return t


async def to_pixels(img: Any, canvas: Any = None) -> bytes:
    """The RGBA bytes of an image tensor; also drawn into a canvas when one is given (in the page;
    awaited).

    Args:
        img: an int32 image in [0, 255] or a float32 one in [0, 1], [height, width] or [height,
            width, 1 | 3 | 4].
        canvas: a canvas to draw into (None: none).

    Returns:
        bytes, width * height * 4 long.

    Example:
        >>> import asyncio
        >>> asyncio.run(tf.browser.to_pixels(tf.tensor([[[1.0, 0, 0]]])))
        b'\\xff\\x00\\x00\\xff'
    """
    name = "to_pixels"
    t = _image(img, name)
    try:
        values = await t.data()
        rgba = rgba_bytes(values, t.shape, t.dtype, 1.0, name)
        if canvas is not None:
            put_on_canvas(canvas, rgba, t.shape[1], t.shape[0], name)
        return rgba
    finally:
        if t is not img:
            t.dispose()


def draw(image: Any, canvas: Any, options: Optional[dict] = None) -> None:
    """Put an image tensor into a canvas (its 2D context; in the page).

    Args:
        image: an int32 image in [0, 255] or a float32 one in [0, 1], [height, width] or [height,
            width, 1 | 3 | 4].
        canvas: the HTMLCanvasElement or OffscreenCanvas.
        options: {"image_options": {"alpha": a}}: the alpha of depth 1 and 3 images, in [0, 1].

    Example:
        >>> tf.browser.draw(tf.zeros([2, 2, 3]), None)   # in CPython there is no canvas
        Traceback (most recent call last):
        ...
        ValueError: draw: argument 'canvas' must be a canvas, got None
    """
    name = "draw"
    options = options or {}
    image_options = options.get("image_options") or options.get("imageOptions") or {}
    alpha = image_options.get("alpha", 1)
    if isinstance(alpha, bool) or not isinstance(alpha, (int, float)) or not 0 <= alpha <= 1:
        raise ValueError(f"{name}: image_options 'alpha' must be a number in [0, 1], got {alpha!r}")
    if canvas is None:
        raise ValueError(f"{name}: argument 'canvas' must be a canvas, got None")
    t = _image(image, name)
    try:
        # `alpha or 1`: TF.js reads `imageOptions.alpha || 1`, so an alpha of 0 draws opaque.
        ENGINE.run_kernel("Draw", [t], {"canvas": canvas, "alpha": alpha or 1}).dispose()
    finally:
        if t is not image:
            t.dispose()
