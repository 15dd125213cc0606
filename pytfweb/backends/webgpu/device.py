"""The WebGPU device: adapter and device requests (asynchronous, hence `await tf.ready()`), the
storage-buffer recycler, the pipeline cache, uploads, dispatches and mapAsync reads, each one
JS call into helpers.js."""
import struct

try:
    import js
    from pyodide.ffi import create_once_callable, to_js
except ImportError:   # CPython: the kernels can be imported and listed (pytfweb ops), not run
    js = to_js = create_once_callable = None

from ...core.errors import BackendError
from ...core.package_data import beside


def bucket(nbytes):
    """The size class of a buffer of nbytes: at least 16, a power of two up to 64, then 1, 1.25,
    1.5 or 1.75 times a power of two (at most a quarter wasted; always a multiple of 16)."""
    if nbytes <= 64:
        return 16 if nbytes <= 16 else 32 if nbytes <= 32 else 64
    p = 1 << (nbytes - 1).bit_length() - 1   # the power of two below nbytes
    for q in (p, p + p // 4, p + p // 2, p + 3 * p // 4, 2 * p):
        if q >= nbytes:
            return q
    return 2 * p


class BufferManager:
    """Storage buffers recycled by size class: release() keeps a buffer for the next acquire()
    of its class, up to max_free bytes kept (beyond that a released buffer is destroyed: shapes that
    keep changing would otherwise pile up); dispose() destroys them all. Counts are what
    tf.memory() reports."""

    MAX_FREE_BYTES = 256 * 1024 * 1024

    def __init__(self, helpers):
        self.js = helpers
        self.max_free = self.MAX_FREE_BYTES
        self.free = {}          # size class -> [GPUBuffer]
        self.num_used = self.num_free = 0
        self.bytes_used = self.bytes_free = 0
        self.created = self.destroyed = 0

    def acquire(self, nbytes):
        size = bucket(nbytes)
        free = self.free.get(size)
        if free:
            buf = free.pop()
            self.num_free -= 1
            self.bytes_free -= size
        else:
            buf = self.js.createBuffer(size)
            self.created += 1
        self.num_used += 1
        self.bytes_used += size
        return buf, size

    def release(self, buf, size):
        self.num_used -= 1
        self.bytes_used -= size
        if self.bytes_free + size > self.max_free:
            self.js.destroy(buf)   # (work already queued that uses it still runs: destroy waits for it)
            self.destroyed += 1
            return
        self.free.setdefault(size, []).append(buf)
        self.num_free += 1
        self.bytes_free += size

    def dispose(self):
        for bufs in self.free.values():
            for b in bufs:
                self.js.destroy(b)
        self.free.clear()
        self.num_free = self.bytes_free = 0


class Device:
    """Made by `await Device.create()`; raises BackendError where WebGPU gives no adapter."""

    def __init__(self, adapter, device, info):
        self.adapter, self.device, self.info = adapter, device, info
        make = js.Function.new("return (" + _read_helpers() + "\n)")()
        self.js = make(device)
        self.buffers = BufferManager(self.js)
        self.pipelines = {}     # program key -> GPUComputePipeline
        limits = device.limits
        self.max_workgroups = int(limits.maxComputeWorkgroupsPerDimension)
        self.max_binding = int(limits.maxStorageBufferBindingSize)
        # storage buffers one dispatch may bind (the adapter's most; WebGPU's default is 8)
        self.max_storage_buffers = int(limits.maxStorageBuffersPerShaderStage)
        # Set when device.lost resolves: every dispatch checks it, so a Python attribute, not a JS call.
        self.lost_reason = None
        device.lost.then(create_once_callable(self._note_lost))

    def _note_lost(self, info):
        self.lost_reason = f"{info.reason}: {info.message}"

    @staticmethod
    def available():
        """Whether this page has navigator.gpu at all (the adapter request may still fail)."""
        if js is None:
            return False
        nav = getattr(js, "navigator", None)
        return bool(nav) and bool(getattr(nav, "gpu", None))   # undefined is None, null is a falsy jsnull

    @classmethod
    async def create(cls):
        early = getattr(js.globalThis, "pytfwebEarlyGPU", None) if js is not None else None
        if early:
            # the loader (web/pytfweb.js) requested them while Pyodide started; taken once, and where
            # that request failed (null) the steps below ask again and say why
            js.Reflect.deleteProperty(js.globalThis, "pytfwebEarlyGPU")
            made = await early
            if made:
                adapter = made.adapter
                return cls(adapter, made.device, _describe(adapter))
        if not cls.available():
            raise BackendError("webgpu: this browser has no navigator.gpu (Chromium needs "
                               "--enable-unsafe-webgpu where WebGPU is not enabled, and a secure origin)")
        adapter = await js.navigator.gpu.requestAdapter()
        if not adapter:   # null, which Pyodide gives as jsnull (falsy), not None
            raise BackendError("webgpu: navigator.gpu.requestAdapter() gave no adapter (no usable GPU "
                               "or software fallback here)")
        limits = adapter.limits
        wanted = to_js({"maxStorageBufferBindingSize": limits.maxStorageBufferBindingSize,
                        "maxStorageBuffersPerShaderStage": limits.maxStorageBuffersPerShaderStage,
                        "maxBufferSize": limits.maxBufferSize,
                        "maxComputeWorkgroupStorageSize": limits.maxComputeWorkgroupStorageSize},
                       dict_converter=js.Object.fromEntries)
        device = await adapter.requestDevice(to_js({"requiredLimits": wanted}, dict_converter=js.Object.fromEntries))
        return cls(adapter, device, _describe(adapter))

    # --- pipelines ---------------------------------------------------------------------------
    def pipeline(self, key, make_source):
        """The compute pipeline of program `key`, compiled from make_source() on first use."""
        p = self.pipelines.get(key)
        if p is None:
            p = self.pipelines[key] = self.js.pipeline(make_source(), key)
        return p

    # --- data ----------------------------------------------------------------------------------
    def upload(self, buf, values):
        """values: an array.array of 4-byte items."""
        raw = memoryview(values).cast("B")
        data = js.Uint8Array.new(len(raw))
        data.assign(raw)
        self.js.upload(buf, data)

    def dispatch(self, pipeline, uniform_bytes, groups, buffers, num_outs=1):
        """buffers: the num_outs outputs, then the inputs (num_outs: for a plan runner's capture)."""
        self.check_lost()
        x, y, z = groups
        self.js.dispatch(pipeline, to_js(uniform_bytes), x, y, z, *buffers)

    async def read(self, buf, nbytes):
        """The first nbytes of buf as bytes (waits for the GPU without blocking the page)."""
        out = await self.js.read(buf, nbytes)
        self.check_errors()
        if out is None:
            raise BackendError("webgpu: mapping a read buffer failed (device lost?)")
        return out.to_bytes()

    async def done(self):
        await self.js.done()
        self.check_errors()

    def check_lost(self):
        if self.lost_reason is not None:
            raise BackendError(f"webgpu: the GPU device was lost ({self.lost_reason}); every tensor that lived only on the "
                               "GPU is gone. Reset the backend (tf.engine().reset(), then tf.set_backend('webgpu') and "
                               "await tf.ready()) and make the tensors again")

    def check_errors(self):
        self.check_lost()
        errors = list(self.js.takeErrors())
        if errors:
            raise BackendError("webgpu: the device reported errors:\n" + "\n".join(str(e) for e in errors))

    def dispose(self):
        self.buffers.dispose()
        self.js.dispose()
        self.pipelines.clear()
        self.device.destroy()


def can_block():
    """Whether Python may wait here for a promise: Pyodide's run_sync, which needs JavaScript
    Promise Integration (WebAssembly stack switching) and Python entered from an async call
    (runPythonAsync, a coroutine awaited by JS), as in pytfweb's pages, workers and REPL."""
    try:
        from pyodide.ffi import can_run_sync
    except ImportError:   # CPython, or a Pyodide without it
        return False
    return bool(can_run_sync())


def block_on(awaitable):
    """The awaitable's result, waiting for it synchronously (only where can_block())."""
    from pyodide.ffi import run_sync
    return run_sync(awaitable)


def pack_uniforms(fields, values):
    """The bytes of a uniform struct of scalar fields ((name, type), ...), padded to 16 bytes."""
    fmt = "<" + "".join({"i32": "i", "u32": "I", "f32": "f"}[t] for _, t in fields)
    data = struct.pack(fmt, *values)
    if len(data) % 16 or not data:
        data += bytes(16 - len(data) % 16)
    return data


def _describe(adapter):
    info = getattr(adapter, "info", None)
    if info is None:
        return ""
    return " ".join(str(getattr(info, k, "") or "") for k in ("vendor", "architecture", "description")).strip()


def _read_helpers():
    return beside(__file__, "helpers.js")
