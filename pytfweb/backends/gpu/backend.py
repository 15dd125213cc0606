"""The data handling webgl and webgpu share: a GPU backend keeps one record per DataId in
`store` (webgl's TexData, webgpu's GPUData: CPU-side `values`, the GPU copy, `complex_parts`),
some of it pending (PendingData: lazy elementwise fusion). Each backend supplies `data_class`,
`materialize(data_id)` (its programs/fusion.py) and `_free(data_id)`."""
from ...kernels import TensorInfo
from ...core.tensor import DataId
from ..base import Backend
from .fusion_graph import PendingData


class GPUBackend(PendingData, Backend):
    # --- complex64 (see complex_parts on the data record) ---
    def complex_parts(self, t):
        """The real and imaginary float32 parts of complex64 tensor t, as TensorInfos of t's shape."""
        re, im = self.store[t.data_id].complex_parts
        return TensorInfo(re, tuple(t.shape), "float32"), TensorInfo(im, tuple(t.shape), "float32")

    def make_complex(self, real, imag):
        """A complex64 TensorInfo owning two float32 results of this backend (not engine-tracked)."""
        d = self.data_class(real.shape, "complex64")
        d.complex_parts = (real.data_id, imag.data_id)
        data_id = DataId(self)
        self.store[data_id] = d
        return TensorInfo(data_id, tuple(real.shape), "complex64")

    # --- pending data ---
    def settle(self, data_id):
        if data_id in self.pending:
            self.materialize(data_id)

    def dispose_data(self, data_id):
        if self.pending and self.dispose_pending(data_id):   # (data only pending expressions read)
            return
        self._free(data_id)
