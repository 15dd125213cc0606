"""FromPixels and Draw on webgl.

FromPixels (as TF.js's webgl kernel): the image element is uploaded into an RGBA8 texture
(texImage2D straight from the element), then backends/webgl/shaders/pixels.glsl picks the channels into the
tensor's layout. The texture is a temporary input of the program, not a tensor: it is deleted,
not recycled (the texture pool holds single-channel float textures).
Draw: the same host kernel as on cpu (kernels/pixels.py): TF.js has it on its cpu backend
only, but the page has no cpu backend here.
"""
from ....kernels import TensorInfo, register_kernel
from ....kernels.pixels import draw_kernel
from ....core.tensor import DataId
from ...gpu import shader_source
from ..texture_manager import TexData
from .program import Program
from .slicing import empty

register_kernel("Draw", "webgl", draw_kernel)


def _pixel_texture(gl, pixels):
    tex = gl.createTexture()
    gl.bindTexture(gl.TEXTURE_2D, tex)
    for p in (gl.TEXTURE_WRAP_S, gl.TEXTURE_WRAP_T):
        gl.texParameteri(gl.TEXTURE_2D, p, gl.CLAMP_TO_EDGE)
    for p in (gl.TEXTURE_MIN_FILTER, gl.TEXTURE_MAG_FILTER):
        gl.texParameteri(gl.TEXTURE_2D, p, gl.NEAREST)
    gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA, gl.RGBA, gl.UNSIGNED_BYTE, pixels)
    gl.bindTexture(gl.TEXTURE_2D, None)
    return tex


@register_kernel("FromPixels", "webgl")
def from_pixels(backend, inputs, attrs):
    w, h, n = attrs["width"], attrs["height"], attrs["num_channels"]
    out_shape = (h, w, n)
    if w * h == 0:
        return empty(backend, out_shape, "int32")
    gl = backend.ctx.gl
    tex = _pixel_texture(gl, attrs["pixels"])
    temp = TexData((h, w, 4), "int32")
    temp.texture, temp.tex_shape = tex, (w, h)
    data_id = DataId(backend)
    backend.store[data_id] = temp
    try:
        program = Program("from_pixels", ("pixels",), out_shape, shader_source.program("pixels.glsl", "from_pixels"))
        return backend.run(program, [TensorInfo(data_id, temp.shape, "int32")], "int32")
    finally:
        del backend.store[data_id]
        gl.deleteTexture(tex)
