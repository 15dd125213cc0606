"""The sparse and ragged kernels whose output sizes depend on their inputs' values
(backends/impl: SparseFillEmptyRows, SparseReshape, SparseSegmentSum, SparseSegmentMean,
RaggedGather, RaggedRange, RaggedTensorToTensor). As on webgl (and in TF.js), they run on the host
from the inputs' values, the same pure-Python code on every backend. A page cannot block on
WebGPU: their inputs' values must be CPU-side (written from Python, or read once with
`await t.data()`); otherwise they raise, saying so. `pytfweb ops` marks them "host"."""
from ....errors import BackendError
from ....kernels import register_kernel
from ...impl import host_kernel
from ...impl.ragged import HOST_KERNELS as RAGGED
from ...impl.sparse import HOST_KERNELS as SPARSE
from .elementwise import BACKEND

HOST_KERNELS = {**SPARSE, **RAGGED}

# Kernels that need some inputs' values CPU-side (as these do): CropAndResize and Transform
# (image.py) compute their sample positions host-side in float64 from the boxes / transforms.
NEEDS_CPU_VALUES = set(HOST_KERNELS) | {"CropAndResize", "Transform"}


def _checked(name, impl):
    run = host_kernel(impl)

    def kernel(backend, inputs, attrs):
        for i, t in enumerate(inputs):
            if backend.values_if_known(t) is None:
                raise BackendError(
                    f"webgpu: kernel {name} runs on the host from its inputs' values (its output size depends on "
                    f"them), and input {i} (a {t.dtype} tensor of shape {list(t.shape)}) is only in GPU memory; a page "
                    "cannot wait for WebGPU here: `await t.data()` on it first (its values are then kept)")
        return run(backend, inputs, attrs)
    return kernel


for _name, _impl in HOST_KERNELS.items():
    register_kernel(_name, BACKEND, _checked(_name, _impl))
