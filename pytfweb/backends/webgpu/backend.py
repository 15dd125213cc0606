"""The webgpu backend: tensors live in storage buffers, kernels are WGSL compute shaders.

Initialisation is asynchronous (WebGPU's adapter and device requests are promises):
`tf.set_backend("webgpu")` makes the backend object and `await tf.ready()` gets the device. Where
Python may block on a promise (device.can_block(): JSPI, as in pytfweb's pages), the first kernel
gets the device itself; elsewhere, until ready(), values can be written (they stay CPU-side) but
no kernel runs.

Data: values written from Python stay CPU-side until a kernel first needs them (lazy upload into
a storage buffer from the recycler); results live only in their buffer. Reading is asynchronous
(`await t.data()`: copy into a MAP_READ buffer, mapAsync), and the values are then kept CPU-side
too (data never changes). `data_sync()` returns CPU-side values where they exist, else waits for
the read where Python may block (JSPI), else raises a BackendError saying to await. Dtypes are
stored natively: float32 as f32, int32 as i32 (exact over the whole range), bool as 0/1 in an
i32; complex64 is two float32 data (complex_parts, as on webgl); strings stay CPU-side (a list of
str) and never reach a buffer.

A lost device is noticed by the next dispatch or read (BackendError). `await backend.done()` waits
for the GPU; sync() does too where Python may block, and is a no-op elsewhere.

Pipelines are cached by program key (the kernel's signature: op, dtypes, ranks, variant), not by
shapes: shapes reach the shaders in a uniform buffer, so a new shape compiles nothing.

Lazy elementwise fusion (programs/fusion.py, flag WEBGPU_FUSION): data whose values are a pending
expression (PendingData, shared with webgl) is computed by one dispatch when a kernel needs its
buffer, a read, sync(), done() or memory(); data such an expression reads outlives its disposal
until the expression is computed or dropped."""
import array

from ...core.dtypes import TYPECODES
from ...core.errors import BackendError
from ...kernels import TensorInfo
from ...core.tensor import DataId
from ..gpu.backend import GPUBackend
from . import wgsl
from .device import Device, block_on, can_block, pack_uniforms
from .program import _size
from .plan_runner import DispatchPlanRunner
from ..gpu.cpu_forward_runner import forward_runner
from .programs import fusion

_NOT_THE_DEFAULT = ("webgpu: not the default where Python cannot wait for the GPU (no JavaScript Promise "
                    "Integration, or Python not run from an async call), since data_sync() could not read its "
                    "results; tf.set_backend('webgpu') then `await tf.ready()` takes it anyway")


class GPUData:
    __slots__ = ("shape", "dtype", "values", "buffer", "size", "complex_parts")

    def __init__(self, shape, dtype, values=None):
        self.shape, self.dtype, self.values = tuple(shape), dtype, values
        self.buffer = None   # GPUBuffer (JS) once on the GPU
        self.size = 0        # its size class in bytes
        # complex64 (as webgl and TF.js's complexTensorInfos): the DataIds of two float32 data, real
        # and imaginary, owned by this one and freed with it; it has no buffer of its own.
        self.complex_parts = None


class WebGPUBackend(GPUBackend):
    name = "webgpu"
    data_class = GPUData   # the record of a pending data (PendingData.add_pending)
    # Added by the engine to the NotImplementedError of a kernel missing here.
    missing_kernel_hint = ("webgpu runs only its native WGSL kernels, with no fallback (`pytfweb ops` lists them in "
                           "its webgpu column); run this op on another backend, e.g. tf.set_backend('webgl')")

    def __init__(self):
        if not Device.available():
            raise BackendError("webgpu: this browser has no navigator.gpu (Chromium needs "
                               "--enable-unsafe-webgpu where WebGPU is not enabled, and a secure origin)")
        self.device = None
        self.store = {}      # DataId -> GPUData
        self.dispatches = 0
        self._init_pending()
        self.capture_reads = None   # counts reads while a plan runner captures (plan_runner.py)
        # Per-call data whose CPU-side values kernels must not see while a plan runner captures
        # (values_if_known: a kernel would bake them into its uniforms, a constant of the capture).
        self.capture_hidden = None

    def plan_runner(self, plan):
        return forward_runner(self, plan, lambda: DispatchPlanRunner(self))

    async def ready(self, automatic=False):
        """Request the adapter and device (once); BackendError where there is none, and, when the
        engine is choosing a default (automatic), where Python cannot wait for the GPU (then
        data_sync() could not read results: webgl can)."""
        if automatic and not can_block():
            raise BackendError(_NOT_THE_DEFAULT)
        if self.device is None:
            self.device = await Device.create()

    def ready_sync(self, automatic=False):
        if self.device is None or automatic:
            if not can_block():
                raise BackendError(_NOT_THE_DEFAULT if automatic else
                                   "webgpu: the device is requested asynchronously and Python cannot wait for it "
                                   "here: `await tf.ready()` after tf.set_backend('webgpu')")
            block_on(self.ready(automatic))

    @property
    def renderer(self):
        """The adapter's vendor, architecture and description (as webgl's `renderer` names the GL
        renderer), or None before ready()."""
        return self.device.info if self.device is not None else None

    @property
    def max_workgroups(self):
        """Workgroups per grid dimension (the device's limit; BackendError before ready())."""
        return self._device("a kernel").max_workgroups

    @property
    def programs(self):
        """The pipeline cache (program key -> GPUComputePipeline; clearing it recompiles on next use)."""
        return self._device("the pipeline cache").pipelines

    def _device(self, what):
        if self.device is None:
            if not can_block():
                raise BackendError(f"webgpu: {what} needs the device, which is requested asynchronously: "
                                   "call `await tf.ready()` after tf.set_backend('webgpu')")
            self.ready_sync()
        return self.device

    def epsilon(self):
        return 1e-7

    # --- data ----------------------------------------------------------------------------
    def write(self, values, shape, dtype, data_id=None):
        if dtype not in wgsl.STORAGE_TYPE and dtype not in ("string", "complex64"):
            raise TypeError(f"webgpu: tensors of dtype {dtype} are not supported")
        if data_id is None:
            data_id = DataId(self)
        else:
            data_id.backend = self
        if dtype == "complex64":   # interleaved [re, im, ...] -> two float32 parts
            flat = _as_array(values, "float32")
            d = GPUData(shape, dtype)
            d.complex_parts = (self.write(flat[0::2], shape, "float32"), self.write(flat[1::2], shape, "float32"))
            self.store[data_id] = d
            return data_id
        # strings stay CPU-side (a list of str), as on webgl and in TF.js: never in a buffer
        self.store[data_id] = GPUData(shape, dtype, list(values) if dtype == "string" else _as_array(values, dtype))
        return data_id

    # complex64 (GPUData.complex_parts): complex_parts, make_complex are GPUBackend's

    def read_sync(self, data_id):
        if self.capture_reads is not None:
            self.capture_reads += 1
        d = self.store[data_id]
        if d.complex_parts is not None:
            return _interleave(*(self.read_sync(p) for p in d.complex_parts))
        if d.values is None:
            if not can_block():
                raise BackendError(
                    f"webgpu: data_sync()/array_sync() cannot read this {d.dtype} tensor of shape {list(d.shape)}: "
                    "its values are only in GPU memory, and Python cannot wait for the GPU here (that needs "
                    "JavaScript Promise Integration and Python run from an async call, as runPythonAsync does). "
                    "Use `await t.data()` or `await t.array()` (afterwards the synchronous forms work on it too)")
            return block_on(self.read(data_id))
        return d.values

    async def read(self, data_id):
        if self.capture_reads is not None:
            self.capture_reads += 1
        if self.pending:
            self.settle(data_id)
        d = self.store[data_id]
        if d.complex_parts is not None:
            re, im = d.complex_parts
            return _interleave(await self.read(re), await self.read(im))
        if d.values is not None:
            return d.values
        n = _size(d.shape)
        raw = await self._device("reading a tensor").read(d.buffer, 4 * n)
        values = _from_bytes(raw, d.dtype)
        if data_id in self.store:   # not disposed meanwhile
            d.values = values
        return values

    def _free(self, data_id):
        d = self.store.pop(data_id, None)
        if d is not None and d.complex_parts is not None:
            for part in d.complex_parts:
                self.dispose_data(part)
        if d is not None and d.buffer is not None:
            self.device.buffers.release(d.buffer, d.size)

    def sync(self):
        """Dispatch what is pending, and wait for the GPU where Python may block; elsewhere no more
        (tf.profile's kernel times on webgpu are then the time to record and submit, not the GPU's)."""
        if self.pending:
            self.materialize_all()
        if self.device is not None and can_block():
            block_on(self.done())

    async def done(self):
        """Dispatch what is pending and wait until the GPU has done all work submitted so far."""
        if self.pending:
            self.materialize_all()
        await self._device("done()").done()

    def memory(self):
        if self.pending:   # the buffers as if every op had run when it was called
            self.materialize_all()
        if self.device is None:
            return {"num_buffers": 0, "num_buffers_in_use": 0, "num_bytes_in_gpu": 0,
                    "num_bytes_in_gpu_allocated": 0, "num_bytes_in_gpu_free": 0}
        b = self.device.buffers
        return {"num_buffers": b.num_used + b.num_free, "num_buffers_in_use": b.num_used,
                "num_bytes_in_gpu": b.bytes_used, "num_bytes_in_gpu_allocated": b.bytes_used + b.bytes_free,
                "num_bytes_in_gpu_free": b.bytes_free}

    def dispose(self):
        if self.device is not None:
            for d in self.store.values():
                if d.buffer is not None:
                    self.device.buffers.release(d.buffer, d.size)
            self.device.dispose()
            self.device = None
        self.store.clear()
        self.clear_pending()

    # --- lazy elementwise fusion (programs/fusion.py; bookkeeping in PendingData) --------------
    def materialize(self, data_id):
        """Compute pending data by one dispatch of its expression."""
        fusion.materialize(self, data_id)

    # --- running programs ------------------------------------------------------------------
    def ensure_buffer(self, data_id):
        """The data's storage buffer: a pending expression is computed into it, CPU-side values
        are uploaded on first GPU use."""
        if self.pending:
            self.settle(data_id)
        d = self.store[data_id]
        if d.complex_parts is not None:
            raise TypeError("webgpu: this kernel does not take complex64 inputs (only the complex-aware kernels do: "
                            "Complex, Real, Imag, ComplexAbs, FFT, IFFT, Add, Sub, Multiply, Cast, slicing and the "
                            "other kernels that move values)")
        if d.buffer is None:
            dev = self.device
            n = _size(d.shape)
            d.buffer, d.size = self._acquire(d.shape, d.dtype)
            if n:
                dev.upload(d.buffer, d.values if d.dtype != "bool" else array.array("i", d.values))
        return d.buffer

    def values_if_known(self, t):
        """t's CPU-side values (array.array) when it has them, else None."""
        if self.capture_hidden is not None and t.data_id in self.capture_hidden:
            return None
        return self.store[t.data_id].values

    def host_values(self, t):
        """t's values for a kernel that computes on the host: CPU-side ones, else read from the GPU
        where Python can wait for it (complex64: its parts, interleaved), else None."""
        d = self.store[t.data_id]
        if self.capture_hidden is not None and t.data_id in self.capture_hidden:
            return self.read_sync(t.data_id)   # (counted: the capture then fails)
        if d.values is None and (d.complex_parts is not None or can_block()):
            return self.read_sync(t.data_id)
        return d.values

    def _acquire(self, shape, dtype):
        nbytes = 4 * max(_size(shape), 1)
        if nbytes > self.device.max_binding:
            raise ValueError(f"webgpu: a {dtype} tensor of shape {list(shape)} needs {nbytes} bytes, more than one "
                             f"storage buffer binding may hold here ({self.device.max_binding} bytes)")
        return self.device.buffers.acquire(nbytes)

    def new_output(self, shape, dtype):
        """A new data of shape and dtype with a buffer (not yet written); returns its DataId."""
        data_id = DataId(self)
        d = GPUData(shape, dtype)
        d.buffer, d.size = self._acquire(shape, dtype)
        self.store[data_id] = d
        return data_id

    def run_into_new(self, shape, dtype):
        """A new output for several dispatches to write parts of (run(..., into=it))."""
        self._device("a kernel")
        if _size(shape) == 0:
            return self.empty(shape, dtype)
        return TensorInfo(self.new_output(shape, dtype), tuple(shape), dtype)

    def run(self, program, inputs, out_shape, dtype, uniform_values, groups, extra_outputs=(), into=None):
        """Run program on inputs (TensorInfos) into a new output of out_shape and dtype; returns
        its TensorInfo. groups: workgroups (x, y, z). extra_outputs: ((shape, dtype), ...) of more
        outputs (bound after the first); then a list of TensorInfos is returned. into: an output
        made by run_into_new to write (part of) instead of a new one."""
        dev = self._device(f"kernel '{program.key}'")
        out_shape = tuple(out_shape)
        if _size(out_shape) == 0 and not extra_outputs and into is None:
            return self.empty(out_shape, dtype)
        for t in inputs:
            if t.dtype == "string":
                raise TypeError(f"webgpu: program '{program.key}' cannot take a string tensor (string tensors stay "
                                "CPU-side on webgpu: creation, the kernels that move values, comparisons and the "
                                "tf.string kernels take them)")
            if t.dtype not in wgsl.STORAGE_TYPE:
                self.ensure_buffer(t.data_id)   # raises the complex64 TypeError
        pipeline = dev.pipeline(program.key, program.source)
        outs = [into if into is not None else TensorInfo(self.new_output(out_shape, dtype), out_shape, dtype)]
        outs += [TensorInfo(self.new_output(s, dt), tuple(s), dt) for s, dt in extra_outputs]
        buffers = [self.store[o.data_id].buffer for o in outs] + [self.ensure_buffer(t.data_id) for t in inputs]
        dev.dispatch(pipeline, pack_uniforms(program.uniforms, uniform_values), groups, buffers, len(outs))
        self.dispatches += 1
        return outs if extra_outputs else outs[0]

    def empty(self, shape, dtype):
        data_id = DataId(self)
        self.store[data_id] = GPUData(shape, dtype, array.array(TYPECODES[dtype]))
        return TensorInfo(data_id, tuple(shape), dtype)

    def groups_for(self, n, per_group):
        """Workgroups (x, y, 1) covering n items of per_group each: x up to the device's limit per
        dimension, y as many rows as needed. A shader finds its item as
        gid.x + gid.y * (num_workgroups.x * per_group)."""
        g = max(1, -(-n // per_group))
        limit = self.max_workgroups
        if g <= limit:
            return (g, 1, 1)
        return (limit, -(-g // limit), 1)


def _as_array(values, dtype):
    """Any flat buffer as an array.array of dtype's typecode (numpy arrays too, when present)."""
    tc = TYPECODES[dtype]
    if isinstance(values, array.array) and values.typecode == tc:
        return values
    out = array.array(tc)
    if hasattr(values, "tobytes") and getattr(values, "dtype", None) is not None:  # ndarray
        out.frombytes(values.astype({"f": "float32", "i": "int32", "B": "uint8"}[tc]).tobytes())
    else:
        out.extend(values)
    return out


def _interleave(real, imag):
    """Two float32 buffers -> one [re, im, re, im, ...] (TF.js's complex dataSync layout)."""
    out = array.array("f", bytes(8 * len(real)))
    out[0::2] = real if isinstance(real, array.array) else array.array("f", real)
    out[1::2] = imag if isinstance(imag, array.array) else array.array("f", imag)
    return out


def _from_bytes(raw, dtype):
    if dtype == "bool":
        ints = array.array("i")
        ints.frombytes(raw)
        return array.array("B", [1 if v else 0 for v in ints])
    out = array.array(TYPECODES[dtype])
    out.frombytes(raw)
    return out
