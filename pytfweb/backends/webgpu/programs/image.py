"""Image kernels (contracts in ops/image.py): ResizeBilinear, ResizeNearestNeighbor (WGSL in
shaders/webgpu/image.wgsl) and their gradients, and FlipLeftRight (a Reverse). The source positions per output row
and column follow from the sizes and attributes alone: they are computed here in float64 with
the cpu kernel's rules (so the same pixels are chosen) and go to the shader as two small
tables, freed after the dispatch (pure-Python copies of the cpu kernel's axis functions: the page
has no numpy)."""
import array

from ....kernels import TensorInfo, register_kernel
from ....shapes import strides_of
from .. import wgsl
from ..backend import Program, _size
from .elementwise import BACKEND
from .shape import run_map


def _ratio(in_size, out_size, align_corners):
    if align_corners and out_size > 1:
        return (in_size - 1) / (out_size - 1)
    return in_size / out_size


def _bilinear_axis(in_size, out_size, attrs):
    """(lower indices, upper indices, weights of the upper) along one axis (cpu's _bilinear_axis)."""
    import math
    ratio = _ratio(in_size, out_size, attrs["align_corners"])
    lo, hi, wt = [], [], []
    for y in range(out_size):
        frac = ratio * (y + 0.5) - 0.5 if attrs["half_pixel_centers"] else ratio * y
        low = max(0.0, math.floor(frac))
        lo.append(int(low))
        hi.append(int(min(in_size - 1, math.ceil(frac))))
        wt.append(frac - low)
    return lo, hi, wt


def _nearest_axis(in_size, out_size, attrs):
    import math
    ratio = _ratio(in_size, out_size, attrs["align_corners"])
    out = []
    for y in range(out_size):
        frac = ratio * (y + 0.5) if attrs["half_pixel_centers"] else ratio * y
        index = math.floor(frac + 0.5) if attrs["align_corners"] else math.floor(frac)
        out.append(int(min(max(index, 0), in_size - 1)))
    return out


def _table(backend, values, typecode, dtype):
    values = array.array(typecode, values or [0])
    return TensorInfo(backend.write(values, (len(values),), dtype), (len(values),), dtype)


def _resize(backend, images, attrs, section, dy=None):
    """The forward resize of images to attrs["size"], or with dy (its gradient kernels) the
    gradient with respect to images, of images' shape."""
    b, h, w, c = images.shape
    oh, ow = attrs["size"] if dy is None else dy.shape[1:3]
    out_shape = (b, oh, ow, c) if dy is None else tuple(images.shape)
    dtype = "float32" if section.startswith("bilinear") else images.dtype
    if _size(out_shape) == 0:
        return backend.empty(out_shape, dtype)
    if section.startswith("bilinear"):
        r0, r1, fr = _bilinear_axis(h, oh, attrs)
        c0, c1, fc = _bilinear_axis(w, ow, attrs)
        tables = [_table(backend, r0 + r1 + c0 + c1, "i", "int32"), _table(backend, fr + fc, "f", "float32")]
        names = (("images", "f32"), ("idx", "i32"), ("wts", "f32"))
    else:
        tables = [_table(backend, _nearest_axis(h, oh, attrs) + _nearest_axis(w, ow, attrs), "i", "int32")]
        names = (("images", wgsl.STORAGE_TYPE[images.dtype]), ("idx", "i32"))
    if dy is not None:   # the gradient reads dy where the forward read images
        names = (("dy", "f32"),) + names[1:]
    fields = tuple((n, "i32") for n in ("size", "H", "W", "C", "OH", "OW"))
    t = wgsl.STORAGE_TYPE[dtype]

    def source():
        return wgsl.bindings(t, names, fields) + wgsl.program("image.wgsl", section)

    try:
        return backend.run(Program(f"resize:{section}:{names[0][1]}", source, fields),
                           [images if dy is None else dy] + tables, out_shape,
                           dtype, (_size(out_shape), h, w, c, oh, ow), backend.groups_for(_size(out_shape), 64))
    finally:
        for t_ in tables:
            backend.dispose_data(t_.data_id)


@register_kernel("ResizeBilinear", BACKEND)
def resize_bilinear(backend, inputs, attrs):
    return _resize(backend, inputs[0], attrs, "bilinear")


@register_kernel("ResizeNearestNeighbor", BACKEND)
def resize_nearest_neighbor(backend, inputs, attrs):
    return _resize(backend, inputs[0], attrs, "nearest")


@register_kernel("ResizeBilinearGrad", BACKEND)
def resize_bilinear_grad(backend, inputs, attrs):
    images, dy = inputs
    return _resize(backend, images, attrs, "bilinear_grad", dy)


@register_kernel("ResizeNearestNeighborGrad", BACKEND)
def resize_nearest_neighbor_grad(backend, inputs, attrs):
    images, dy = inputs
    return _resize(backend, images, attrs, "nearest_grad", dy)


@register_kernel("FlipLeftRight", BACKEND)
def flip_left_right(backend, inputs, attrs):
    (image,) = inputs
    mul = [1, 1, -1, 1]
    add = [0, 0, image.shape[2] - 1, 0]
    return run_map(backend, image, image.shape, mul, add, image.shape, strides_of(image.shape))


@register_kernel("RotateWithOffset", BACKEND)
def rotate_with_offset(backend, inputs, attrs):
    """The source pixel of each output pixel depends only on the sizes and attributes: a table
    computed here in float64 as cpu computes it (-1: outside, the fill value)."""
    import math
    (image,) = inputs
    b, h, w, c = image.shape
    if _size(image.shape) == 0:
        return backend.empty(image.shape, image.dtype)
    cx, cy = w * attrs["center"][0], h * attrs["center"][1]
    sin, cos = math.sin(attrs["radians"]), math.cos(attrs["radians"])
    src = []
    for y in range(h):
        for x in range(w):
            sx = math.floor((x - cx) * cos - (y - cy) * sin + cx + 0.5)
            sy = math.floor((x - cx) * sin + (y - cy) * cos + cy + 0.5)
            src.append(sy * w + sx if 0 <= sx < w and 0 <= sy < h else -1)
    table = _table(backend, src, "i", "int32")
    t = wgsl.STORAGE_TYPE[image.dtype]
    fill = list(attrs["fill_value"])
    fill = [float(v) if t == "f32" else int(v) for v in fill]
    fields = tuple((n, "i32") for n in ("size", "H", "W", "C")) + tuple((f"fill{i}", t) for i in range(4))

    def source():
        return wgsl.bindings(t, (("images", t), ("table", "i32")), fields) + \
            wgsl.program("image.wgsl", "rotate").replace("TYPE", t)

    try:
        return backend.run(Program(f"rotate:{t}", source, fields), [image, table], image.shape, image.dtype,
                           (_size(image.shape), h, w, c, *fill), backend.groups_for(_size(image.shape), 64))
    finally:
        backend.dispose_data(table.data_id)
