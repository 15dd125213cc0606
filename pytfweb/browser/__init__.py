"""tf.browser: what only makes sense with pixels and canvases (from_pixels works anywhere on
pixel data; canvases exist only in the page)."""
from .pixels import draw, from_pixels, from_pixels_async, to_pixels  # noqa: F401

__all__ = ["from_pixels", "from_pixels_async", "to_pixels", "draw"]
