"""Draw on cpu (TF.js's cpu kernel): the image's RGBA bytes put into a canvas. Outside the
page there is no canvas: it raises, naming the op."""
from ....kernels import register_kernel
from ....kernels.pixels import draw_kernel

register_kernel("Draw", "cpu", draw_kernel)
