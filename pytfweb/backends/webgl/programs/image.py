"""Image kernels on webgl (contracts in ops/image.py): resizing and its gradients, CropAndResize,
RotateWithOffset and Transform as the programs of backends/webgl/shaders/image.glsl; FlipLeftRight is the
Reverse view of programs/shape.py. Sizes are baked in (the backend keys programs by shapes);
attributes are uniforms, so one compiled program serves every flag and value.

The NonMaxSuppression kernels read boxes and scores back and select in pure Python, as TF.js's
webgl backend does: their output size depends on the values (gpu/host_kernels.py, shared with webgpu)."""
import math

from ....kernels import register_kernel
from ...gpu import host_kernels, shader_source
from .program import Program
from .shape import reverse
from .slicing import defines

_FILE = "image.glsl"
_AXIS_UNIFORMS = tuple((n, "int") for n in ("rowA", "rowB", "rowD", "colA", "colB", "colD"))


def _code(section, functions=(), **macros):
    """A section of backends/webgl/shaders/image.glsl after its macros and the helper functions it calls."""
    helpers = "".join(dict.fromkeys(shader_source.function(_FILE, f) for f in functions))
    return defines(**macros) + helpers + shader_source.program(_FILE, section)


# --- resizing ---------------------------------------------------------------------------------

def _axis_map(in_size, out_size, attrs, nearest):
    """(a, b, d): output index y reads source position (y * a + b) / d along one axis, exactly
    the cpu backend's position (ratio * y, half-pixel shifted) as a fraction of integers. For
    nearest the rounding is folded in, so the source index is floor((y * a + b) / d)."""
    eff_in, eff_out = in_size, out_size
    if attrs["align_corners"] and out_size > 1:
        eff_in, eff_out = in_size - 1, out_size - 1
    if attrs["half_pixel_centers"]:
        # bilinear: (y + 0.5) * ratio - 0.5; nearest: floor((y + 0.5) * ratio)
        return (2 * eff_in, eff_in if nearest else eff_in - eff_out, 2 * eff_out)
    if nearest and attrs["align_corners"]:
        return (2 * eff_in, eff_out, 2 * eff_out)    # floor(y * ratio + 0.5)
    return (eff_in, 0, eff_out)


def _axis_uniforms(images_shape, out_hw, attrs, nearest):
    _, h, w, _ = images_shape
    return (*_axis_map(h, out_hw[0], attrs, nearest), *_axis_map(w, out_hw[1], attrs, nearest))


def _resize_kernel(section, functions, nearest):
    def kernel(backend, inputs, attrs):
        (images,) = inputs
        batch, h, w, channels = images.shape
        out_h, out_w = attrs["size"]
        code = _code(section, functions, IN_H=h, IN_W=w)
        program = Program(f"image:{section}", ("images",), (batch, out_h, out_w, channels), code, _AXIS_UNIFORMS)
        dtype = images.dtype if nearest else "float32"
        return backend.run(program, [images], dtype, _axis_uniforms(images.shape, (out_h, out_w), attrs, nearest))
    return kernel


register_kernel("ResizeBilinear", "webgl", _resize_kernel("resize_bilinear", ("sourceLerp",), nearest=False))
register_kernel("ResizeNearestNeighbor", "webgl", _resize_kernel("resize_nearest", ("sourceNearest",), nearest=True))


def _resize_grad_kernel(weight, nearest):
    def kernel(backend, inputs, attrs):
        images, dy = inputs
        _, h, w, _ = images.shape
        _, out_h, out_w, _ = dy.shape
        code = _code("resize_grad", (weight, "touchRange"), WEIGHT=weight, IN_H=h, IN_W=w, OUT_H=out_h, OUT_W=out_w)
        program = Program(f"image:resize_grad:{weight}", ("dy",), images.shape, code, _AXIS_UNIFORMS)
        return backend.run(program, [dy], "float32", _axis_uniforms(images.shape, (out_h, out_w), attrs, nearest))
    return kernel


register_kernel("ResizeBilinearGrad", "webgl", _resize_grad_kernel("lerpWeight", nearest=False))
register_kernel("ResizeNearestNeighborGrad", "webgl", _resize_grad_kernel("nearestWeight", nearest=True))


# --- crop, flip, rotate, transform -------------------------------------------------------------

@register_kernel("CropAndResize", "webgl")
def crop_and_resize(backend, inputs, attrs):
    image, boxes, box_ind = inputs
    batch, h, w, channels = image.shape
    crop_h, crop_w = attrs["crop_size"]
    code = _code("crop_and_resize", ("cropPosition",), BATCH=batch, IN_H=h, IN_W=w, CROP_H=crop_h, CROP_W=crop_w)
    program = Program("image:crop_and_resize", ("image", "boxes", "boxInd"), (boxes.shape[0], crop_h, crop_w, channels),
                      code, (("bilinear", "int"), ("extrapolationValue", "float")))
    values = (int(attrs["method"] == "bilinear"), attrs["extrapolation_value"])
    return backend.run(program, inputs, "float32", values)


@register_kernel("FlipLeftRight", "webgl")
def flip_left_right(backend, inputs, attrs):
    return reverse(backend, inputs, {"dims": [2]})


@register_kernel("RotateWithOffset", "webgl")
def rotate_with_offset(backend, inputs, attrs):
    (image,) = inputs
    _, h, w, _ = image.shape
    uniforms = (("centerX", "float"), ("centerY", "float"), ("sinR", "float"), ("cosR", "float"),
                ("fill0", "float"), ("fill1", "float"), ("fill2", "float"), ("fill3", "float"))
    program = Program("image:rotate", ("image",), image.shape, _code("rotate", IN_H=h, IN_W=w), uniforms)
    values = (w * attrs["center"][0], h * attrs["center"][1], math.sin(attrs["radians"]), math.cos(attrs["radians"]),
              *attrs["fill_value"])
    return backend.run(program, inputs, image.dtype, values)


_FILL_MODES = {"constant": 0, "reflect": 1, "wrap": 2, "nearest": 3}


@register_kernel("Transform", "webgl")
def transform(backend, inputs, attrs):
    image, transforms = inputs
    batch, h, w, channels = image.shape
    out_h, out_w = attrs["output_shape"]
    code = _code("transform", ("mapCoord", "readWithFill"), IN_H=h, IN_W=w)
    uniforms = (("fillMode", "int"), ("nearest", "int"), ("fillValue", "float"))
    program = Program("image:transform", ("image", "transforms"), (batch, out_h, out_w, channels), code, uniforms)
    values = (_FILL_MODES[attrs["fill_mode"]], int(attrs["interpolation"] == "nearest"), attrs["fill_value"])
    return backend.run(program, inputs, image.dtype, values)


# --- non-max suppression: read back, select on the CPU (gpu/host_kernels.py) --------------------

for _name in ("NonMaxSuppressionV3", "NonMaxSuppressionV4", "NonMaxSuppressionV5"):
    register_kernel(_name, "webgl", host_kernels.HOST_FUNCTIONS[_name])
