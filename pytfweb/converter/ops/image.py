"""Image: resizing, CropAndResize, projective transforms."""
from ... import ops as tfo
from ._table import ints, num, table


def _resize(fn):
    return lambda x, a: fn(x[0], ints(x[1])[:2], a.bool("align_corners", False), a.bool("half_pixel_centers", False))


def crop_and_resize(x, a):
    return tfo.image.crop_and_resize(x[0], x[1], x[2], ints(x[3]), a.str("method", "bilinear").lower(),
                                     a.float("extrapolation_value", 0.0))


def transform(x, a):
    return tfo.image.transform(x[0], x[1], a.str("interpolation").lower(), a.str("fill_mode", "CONSTANT").lower(),
                               num(x[3]) if len(x) > 3 else 0, ints(x[2]))


OPS = table("image", {
    "ResizeBilinear": (2, _resize(tfo.image.resize_bilinear)),
    "ResizeNearestNeighbor": (2, _resize(tfo.image.resize_nearest_neighbor)),
    "CropAndResize": (4, crop_and_resize),
    "ImageProjectiveTransformV3": (3, transform),
})
