"""Image kernels (contracts in ops/image.py): ResizeBilinear, ResizeNearestNeighbor (WGSL in
backends/webgpu/shaders/image.wgsl) and their gradients, and FlipLeftRight (a Reverse). The source positions per output row
and column follow from the sizes and attributes alone: they are computed here in float64 with
the cpu kernel's rules (so the same pixels are chosen) and go to the shader as two small
tables, freed after the dispatch (pure-Python copies of the cpu kernel's axis functions: the page
has no numpy)."""
import array

from ....core.errors import BackendError
from ....kernels import TensorInfo, register_kernel
from ....core.shapes import strides_of
from .. import wgsl
from ..program import Program, _size
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
        names = (("images", wgsl.STORAGE_TYPE[images.dtype]), ("idx", "i32"), ("wts", "f32"))
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


def _crop_axis(lo, hi, crop, size):
    """cpu's _crop_axis in pure Python: the source positions of a crop's rows (or columns)."""
    if crop > 1:
        step = (hi - lo) * (size - 1) / (crop - 1)
        return [lo * (size - 1) + i * step for i in range(crop)]
    return [0.5 * (lo + hi) * (size - 1)]


def _crop_table(positions, size, nearest):
    """Per position: (first index, second index, inside), weight of the second; as cpu decides
    them in float64 (NaN is outside)."""
    import math
    ints, weights = [], []
    for p in positions:
        inside = p == p and 0 <= p <= size - 1
        q = min(p, size - 1) if inside else 0.0
        if nearest:
            ints += [math.floor(q + 0.5), 0, int(inside)]
            weights.append(0.0)
        else:
            ints += [math.floor(q), math.ceil(q), int(inside)]
            weights.append(q - math.floor(q))
    return ints, weights


@register_kernel("CropAndResize", BACKEND)
def crop_and_resize(backend, inputs, attrs):
    """The sampling runs in WGSL; the sample positions, which cpu computes in float64 from the
    boxes, are computed here the same way, so the boxes and box indices must be CPU-side (given
    from Python, or read once with `await t.data()`)."""
    image, boxes, box_ind = inputs
    batch, h, w, c = image.shape
    crop_h, crop_w = attrs["crop_size"]
    n = boxes.shape[0]
    out_shape = (n, crop_h, crop_w, c)
    if _size(out_shape) == 0:
        return backend.empty(out_shape, "float32")
    bv, kv = backend.host_values(boxes), backend.host_values(box_ind)
    if bv is None or kv is None:
        raise BackendError("webgpu: crop_and_resize needs the values of 'boxes' and 'box_ind' CPU-side (the sample "
                           "positions are computed in float64 from them, as on cpu); they are only in GPU memory and Python "
                           "cannot wait for the GPU here: `await t.data()` on them first")
    nearest = attrs["method"] != "bilinear"
    t_img = wgsl.STORAGE_TYPE[image.dtype]
    rows, cols, wr, wc, box = [], [], [], [], []
    for i in range(n):
        y1, x1, y2, x2 = (float(v) for v in bv[4 * i:4 * i + 4])
        box.append(int(kv[i]) if 0 <= kv[i] < batch else -1)
        ri, rw = _crop_table(_crop_axis(y1, y2, crop_h, h), h, nearest)
        ci, cw = _crop_table(_crop_axis(x1, x2, crop_w, w), w, nearest)
        rows += ri
        cols += ci
        wr += rw
        wc += cw
    tables = [_table(backend, rows, "i", "int32"), _table(backend, cols, "i", "int32"),
              _table(backend, wr + wc, "f", "float32"), _table(backend, box, "i", "int32")]
    fields = tuple((f, "i32") for f in ("size", "N", "H", "W", "C", "OH", "OW", "nearest")) + \
        (("extrapolation", "f32"),)
    values = (_size(out_shape), n, h, w, c, crop_h, crop_w, int(nearest), float(attrs["extrapolation_value"]))

    def source():
        return wgsl.bindings("f32", (("images", t_img), ("rows", "i32"), ("cols", "i32"), ("weights", "f32"),
                                     ("box", "i32")), fields) + wgsl.program("image.wgsl", "crop_and_resize")

    try:
        return backend.run(Program(f"crop_and_resize:{t_img}", source, fields), [image] + tables, out_shape, "float32",
                           values,
                           backend.groups_for(_size(out_shape), 64))
    finally:
        for t_ in tables:
            backend.dispose_data(t_.data_id)


def _map_coord(c, size, mode):
    """cpu's _map_coord (TF.js's mapCoord) in pure Python, float64."""
    import math
    if not math.isfinite(c):
        return -1.0
    if mode == "constant":
        return c
    if mode != "nearest" and size > 1:
        if mode == "reflect":
            sz2 = 2 * size
            if c < 0:
                c = sz2 * math.trunc(-c / sz2) + c
                c = c + sz2 if c < -size else -c - 1
            elif c > size - 1:
                c = c - sz2 * math.trunc(c / sz2)
                c = sz2 - c - 1 if c >= size else c
        else:   # wrap
            sz = size - 1
            if c < 0:
                c = c + size * (math.trunc(-c / sz) + 1)
            elif c > size - 1:
                c = c - size * math.trunc(c / sz)
    elif mode != "nearest" and (c < 0 or c > size - 1):
        c = 0.0
    return min(max(c, 0.0), size - 1.0)


@register_kernel("Transform", BACKEND)
def transform(backend, inputs, attrs):
    """The sampling runs in WGSL; the source positions, which cpu computes in float64 from the
    transforms, are computed here the same way, so `transforms` must be CPU-side (given from
    Python, or read once with `await t.data()`)."""
    import math
    image, transforms = inputs
    batch, h, w, c = image.shape
    oh, ow = attrs["output_shape"]
    out_shape = (batch, oh, ow, c)
    if _size(out_shape) == 0:
        return backend.empty(out_shape, image.dtype)
    tv = backend.host_values(transforms)
    if tv is None:
        raise BackendError("webgpu: transform needs the values of 'transforms' CPU-side (the source positions are "
                           "computed in float64 from them, as on cpu); they are only in GPU memory and Python cannot "
                           "wait for the GPU here: `await t.data()` on it first")
    mode, nearest = attrs["fill_mode"], attrs["interpolation"] == "nearest"
    rows = transforms.shape[0]
    pos, frac = [], []
    for t in range(rows):
        a0, a1, a2, b0, b1, b2, c0, c1 = (float(v) for v in tv[8 * t:8 * t + 8])
        for y in range(oh):
            for x in range(ow):
                projection = c0 * x + c1 * y + 1
                if projection == 0:
                    pos += [0, 0, 1]
                    frac += [0.0, 0.0]
                    continue
                xs = _map_coord((a0 * x + a1 * y + a2) / projection, w, mode)
                ys = _map_coord((b0 * x + b1 * y + b2) / projection, h, mode)
                if nearest:
                    pos += [math.floor(ys + 0.5), math.floor(xs + 0.5), 0]
                    frac += [0.0, 0.0]
                else:
                    y0, x0 = math.floor(ys), math.floor(xs)
                    pos += [y0, x0, 0]
                    frac += [ys - y0, xs - x0]
    tables = [_table(backend, pos, "i", "int32"), _table(backend, frac, "f", "float32")]
    t_img = wgsl.STORAGE_TYPE[image.dtype]
    fields = tuple((f, "i32") for f in ("size", "H", "W", "C", "OH", "OW", "rows", "nearest")) + (("fill", "f32"),)
    values = (_size(out_shape), h, w, c, oh, ow, rows, int(nearest), float(attrs["fill_value"]))
    store = "v" if t_img == "f32" else "toInt32(v)"

    def source():
        helpers = wgsl.functions((wgsl.COMMON, "toInt32")) if t_img == "i32" else ""
        return helpers + wgsl.bindings(t_img, (("images", t_img), ("pos", "i32"), ("frac", "f32")), fields) + \
            wgsl.program("image.wgsl", "transform").replace("STORE", store)

    try:
        return backend.run(Program(f"transform:{t_img}", source, fields), [image] + tables, out_shape, image.dtype,
                           values, backend.groups_for(_size(out_shape), 64))
    finally:
        for t_ in tables:
            backend.dispose_data(t_.data_id)
