"""The kernels whose output sizes depend on their inputs' values: the sparse and ragged ones of
backends/impl (SparseFillEmptyRows, SparseReshape, SparseSegmentSum, SparseSegmentMean,
RaggedGather, RaggedRange, RaggedTensorToTensor), and Unique, BroadcastArgs and
NonMaxSuppressionV3/V4/V5 (the pure-Python kernels of gpu/host_kernels.py, which use only
read_sync and write, shared with webgl). As on webgl (and in TF.js), they run on the host from the
inputs' values, the same pure-Python code. So do the string
kernels (backends/strings.py: string tensors stay CPU-side on webgpu), Draw (kernels/pixels.py's
draw_kernel) and FromPixels (the source read through a 2D canvas on the host). Their inputs' values
are read from the GPU where Python can wait for it (backend.host_values); elsewhere they must be
CPU-side (written from Python, or read once with `await t.data()`), or the kernel raises, saying
so. `pytfweb ops` marks them "host"."""
import array

from ....core.errors import BackendError
from ....kernels import TensorInfo, pixels, register_kernel
from ... import strings
from ...gpu import host_kernels
from ...impl import host_kernel
from ...impl.ragged import HOST_KERNELS as RAGGED
from ...impl.sparse import HOST_KERNELS as SPARSE
from .elementwise import BACKEND

HOST_KERNELS = {**SPARSE, **RAGGED}


# (name -> a kernel function taking (backend, inputs, attrs), not an impl)
HOST_FUNCTIONS = host_kernels.HOST_FUNCTIONS

# Kernels that need some inputs' values CPU-side (as these do): CropAndResize and Transform
# (image.py) compute their sample positions host-side in float64 from the boxes / transforms.
NEEDS_CPU_VALUES = set(HOST_KERNELS) | set(HOST_FUNCTIONS) | set(strings.KERNELS) | {"CropAndResize", "Transform",
                                                                                     "Draw", "FromPixels"}


def _checked(name, run):
    def kernel(backend, inputs, attrs):
        for i, t in enumerate(inputs):
            if backend.host_values(t) is None:
                raise BackendError(
                    f"webgpu: kernel {name} runs on the host from its inputs' values (its output size depends on "
                    f"them), and input {i} (a {t.dtype} tensor of shape {list(t.shape)}) is only in GPU memory, and "
                    "Python cannot wait for the GPU here: `await t.data()` on it first (its values are then kept)")
        return run(backend, inputs, attrs)
    return kernel


for _name, _impl in HOST_KERNELS.items():
    register_kernel(_name, BACKEND, _checked(_name, host_kernel(_impl)))


def _from_pixels(backend, inputs, attrs):
    """FromPixels: the source's RGBA bytes read through a 2D canvas (kernels/pixels.py, tf.browser's
    host path), the channels picked on the host; the tensor's values are CPU-side (uploaded on first use)."""
    w, h, n = attrs["width"], attrs["height"], attrs["num_channels"]
    source = attrs["pixels"]
    kind = pixels.js_kind(source) if pixels.is_js(source) else "ImageData"
    rgba = pixels.dom_rgba(source, kind, w, h) if w * h else b""
    picked = bytearray(w * h * n)
    for c in range(n):
        picked[c::n] = rgba[c::4]
    shape = (h, w, n)
    return TensorInfo(backend.write(array.array("i", list(picked)), shape, "int32"), shape, "int32")


for _name, _fn in {**HOST_FUNCTIONS, **strings.KERNELS, "Draw": pixels.draw_kernel}.items():
    register_kernel(_name, BACKEND, _checked(_name, _fn))
register_kernel("FromPixels", BACKEND, _from_pixels)


# The kernels that move values take strings as on webgl: they move the strings' positions.
strings.register_moving(BACKEND)
