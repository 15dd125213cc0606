"""The webgl backend: tensors live in textures, kernels are fragment shaders.

Values written from Python stay CPU-side until a shader first needs them (lazy upload);
values read back are kept CPU-side too, so a second read is free (tensors never change).

A lost WebGL context (the browser reclaiming the GPU, a driver reset) is noticed by the draw that
finds it lost, a read, or a pending read's poll; the backend then builds a new context (programs
and textures come again as they are needed: textures from the CPU-side values where data has
them), marks the data that lived only on the GPU as lost (using it raises ContextLostError), and
retries the draw once.

Under a GPU byte budget (flag WEBGL_MAX_GPU_BYTES, 0 for none), a texture that would take the
textures' bytes (in use and in the recycler) above it first frees recycled textures, then pages
least-recently-used data out: its values are read back into TexData.values and its texture
deleted; the next use uploads them again (lazily, as written data). The inputs and outputs of
the draw being prepared stay resident, so a draw whose own textures exceed the budget still runs.
Recency is an OrderedDict of the resident one-channel data (and the GEMM's kept packed weights,
which are dropped instead of read back), bumped on each use."""
import array
from collections import OrderedDict

from ...core.tensor_values import _wrap_int32
from ...core.dtypes import TYPECODES
from ...core.environment import ENV
from ...core.errors import BackendError, ContextLostError
from ...kernels import TensorInfo
from ...core.shapes import size_of as _size
from ...core.tensor import DataId
from ..gpu.backend import GPUBackend
from ..gpu.cpu_forward_runner import forward_runner
from .gpgpu_context import GPGPUContext
from .plan_runner import DrawPlanRunner
from .programs import fusion
from .shader_compiler import InputInfo, build_source
from .texture_manager import TexData, TextureManager, texture_shape


class WebGLBackend(GPUBackend):
    name = "webgl"

    def __init__(self):
        self._context_args = (ENV.flags["WEBGL_FORCE_F16_TEXTURES"], ENV.flags["WEBGL_MAX_TEXTURE_SIZE"],
                              ENV.flags["WEBGL_MAX_DRAW_BUFFERS"])
        self.ctx = GPGPUContext(*self._context_args)
        self.context_losses = 0
        self.textures = TextureManager(self.ctx)
        self.store = {}      # DataId -> TexData
        self.programs = {}   # cache key -> JS program handle
        # DataId -> {key: TensorInfo}: data a kernel derived from that data alone and keeps for
        # later calls (the GEMM's packed weights); freed with it. Data never changes, so they stay valid.
        self.derived = {}
        # Lazy elementwise fusion (programs/fusion.py; the bookkeeping in fusion_graph.PendingData)
        self._init_pending()
        self.renderer = self.ctx.renderer
        # Resident data, least recently used first -> None, or (source DataId, key) for the packed
        # weights kept in `derived` (evicted by dropping them: they are made again when needed).
        self._lru = OrderedDict()
        self._pinned = ()    # TexData of the inputs of the draw being prepared (never paged out)
        self.paged_out = 0   # textures paged out (read back and deleted) under WEBGL_MAX_GPU_BYTES
        self.capture_reads = None   # counts reads while a plan runner captures (plan_runner.py)
        # compile_only(): programs are started (compiled and linked without waiting) and no draw
        # runs; the programs started and not yet checked, and the packed weights made meanwhile
        # (garbage: their draws did not run), dropped when the mode ends
        self.compiling_only = False
        self._compile_only_derived = []

    def plan_runner(self, plan):
        return forward_runner(self, plan, lambda: DrawPlanRunner(self))

    @property
    def pending_reads(self):
        """Asynchronous reads started and not yet finished or cancelled (each holds a GL buffer
        and a fence)."""
        return self.ctx.open_reads

    @property
    def half_float(self):
        return self.ctx.half_float

    def sync(self):
        """Draw what is pending and block until the GPU has done all work issued so far (used to
        time kernels: a fused op's time is its own draw's)."""
        if self.pending:
            self.materialize_all()
        self.ctx.js.finish()

    # --- lazy elementwise fusion (programs/fusion.py; bookkeeping in PendingData) -------------
    data_class = TexData   # the record of a pending data (PendingData.add_pending)

    def materialize(self, data_id):
        """Draw pending data's expression (one program)."""
        fusion.materialize(self, data_id)

    def check_not_lost(self, data_id):
        d = self.store[data_id]
        if d.lost:
            raise _lost_error(d)

    def _materialized(self, inputs):
        if self.pending:
            for t in inputs:
                if t.data_id in self.pending:
                    self.materialize(t.data_id)

    def epsilon(self):
        return 1e-4 if self.ctx.half_float else 1e-7

    def float_precision(self):
        return 16 if self.ctx.half_float else 32

    # --- data ----------------------------------------------------------------------------
    def write(self, values, shape, dtype, data_id=None):
        if data_id is None:
            data_id = DataId(self)
        else:
            data_id.backend = self
        if dtype == "complex64":   # interleaved [re, im, ...] -> two float32 parts
            flat = _as_array(values, dtype)
            d = TexData(shape, dtype)
            d.complex_parts = (self.write(flat[0::2], shape, "float32"), self.write(flat[1::2], shape, "float32"))
            self.store[data_id] = d
            return data_id
        self.store[data_id] = TexData(shape, dtype, _as_array(values, dtype))
        return data_id

    # complex64 (TexData.complex_parts): complex_parts, make_complex are GPUBackend's

    def read_sync(self, data_id):
        if self.capture_reads is not None:
            self.capture_reads += 1
        if data_id in self.pending:
            self.materialize(data_id)
        d = self.store[data_id]
        if d.complex_parts is not None:
            return _interleave(*(self.read_sync(p) for p in d.complex_parts))
        if d.values is None:
            if d.texture is not None and self.ctx.lost():
                self._recover()
            if d.lost:
                raise _lost_error(d)
            if d.texture is None:   # an empty tensor never gets a texture
                d.values = array.array(TYPECODES[d.dtype])
            else:
                w, h = d.tex_shape
                floats = self.ctx.read_sync(d.texture, w, h, _size(d.shape))
                if self.ctx.lost():   # readPixels on a lost context gives nothing meaningful
                    self._recover()
                    raise _lost_error(d)
                d.values = _from_floats(floats, d.dtype)
        return d.values

    async def read(self, data_id):
        if self.capture_reads is not None:
            self.capture_reads += 1
        if data_id in self.pending:
            self.materialize(data_id)
        d = self.store[data_id]
        if d.complex_parts is not None:
            re, im = d.complex_parts
            return _interleave(await self.read(re), await self.read(im))
        if d.values is None and d.texture is not None and self.ctx.lost():
            self._recover()
        if d.values is None and d.texture is not None:
            w, h = d.tex_shape
            # The pixels are copied into the job's buffer before its fence: the data may be
            # disposed (its texture recycled and drawn into) while the read waits, and the read
            # still gives the values it was asked for.
            ctx = self.ctx
            job = ctx.read_async_start(d.texture, w, h)
            try:
                # A fence of a lost context never signals: the wait ends and the read fails.
                done = await ctx.read_async_wait(job)
                if ctx is not self.ctx or ctx.lost():
                    if ctx is self.ctx:
                        self._recover()
                    raise _lost_error(d, pending=True)
                if not done:
                    raise BackendError("webgl: a read's fence failed (glClientWaitSync gave WAIT_FAILED)")
            except BaseException:   # cancelled (task.cancel(), wait_for's timeout), context lost: free buffer and fence
                ctx.read_async_cancel(job)
                raise
            floats = ctx.read_async_finish(job, _size(d.shape))
            if data_id in self.store and d.values is None:   # may have been read or disposed meanwhile
                d.values = _from_floats(floats, d.dtype)
            return d.values if d.values is not None else _from_floats(floats, d.dtype)
        return self.read_sync(data_id)

    def derived_data(self, data_id, key, make):
        """The TensorInfo make() returns, made once per (data_id, key) and kept until data_id is freed."""
        cache = self.derived.setdefault(data_id, {})
        out = cache.get(key)
        if out is None:
            out = cache[key] = make()
            if self.compiling_only:
                self._compile_only_derived.append((data_id, key))
            d = self.store.get(out.data_id)
            if d is not None and d.texture is not None:
                self._lru[d] = (data_id, key)
        return out

    def _free(self, data_id):
        for derived in self.derived.pop(data_id, {}).values():
            self.dispose_data(derived.data_id)
        d = self.store.pop(data_id, None)
        if d is not None and d.complex_parts is not None:
            for part in d.complex_parts:
                self.dispose_data(part)
        if d is not None and d.texture is not None:
            self._lru.pop(d, None)
            self.textures.release(d.texture, *d.tex_shape, d.channels)

    def memory(self):
        if self.pending:   # the textures as if every op had drawn when it ran
            self.materialize_all()
        t = self.textures
        return {"num_textures": t.num_used + t.num_free, "num_textures_in_use": t.num_used,
                "num_bytes_in_gpu": t.bytes_used, "num_bytes_in_gpu_allocated": t.bytes_used + t.bytes_free,
                "num_bytes_in_gpu_free": t.bytes_free}

    def dispose(self):
        for d in self.store.values():
            if d.texture is not None:
                self.ctx.delete_texture(d.texture)
        self.store.clear()
        self.derived.clear()
        self._lru.clear()
        self.clear_pending()
        self.textures.dispose()
        self.programs.clear()
        self.ctx.dispose()

    # --- context loss ------------------------------------------------------------------------
    def _recover(self):
        """A new context in place of a lost one (see the module docstring)."""
        self.ctx = GPGPUContext(*self._context_args)
        self.context_losses += 1
        self.textures = TextureManager(self.ctx)   # the old one's textures went with the context
        self.programs = {}
        for cache in self.derived.values():        # packed weights: made again when needed
            for t in cache.values():
                self.store.pop(t.data_id, None)
        self.derived = {}
        self._lru = OrderedDict()
        for d in self.store.values():
            if d.texture is not None:
                d.texture = d.tex_shape = None
                d.lost = d.values is None

    def texture_layout(self, data_id):
        """(width, height) of the texture data_id's values are in, or will be when uploaded."""
        d = self.store[data_id]
        return d.tex_shape or texture_shape(d.shape, self.ctx.max_texture_size)

    def _ensure_texture(self, d):
        if d.lost:
            raise _lost_error(d)
        if d.complex_parts is not None:
            raise TypeError("webgl: this kernel does not take complex64 inputs (only the complex-aware "
                            "kernels do: Real, Imag, ComplexAbs, FFT, IFFT, Add, Sub, Multiply, Cast, ...)")
        if d.texture is None:
            w, h = d.tex_shape = texture_shape(d.shape, self.ctx.max_texture_size)
            d.texture = self._acquire(w, h)
            self._lru[d] = None
            if d.values is not None and len(d.values):
                self.ctx.upload(d.texture, w, h, _floats(d.values))
        else:
            try:
                self._lru.move_to_end(d)
            except KeyError:   # a texture the manager does not hold (FromPixels' source)
                pass
        return d

    # --- memory pressure (WEBGL_MAX_GPU_BYTES; see the module docstring) ----------------------
    def _acquire(self, w, h, channels=1):
        budget = ENV.flags["WEBGL_MAX_GPU_BYTES"]
        if budget:
            t = self.textures
            key = (w, h, channels)
            if t.free.get(key):   # a recycled one: the total stays, but may already be above
                self._make_room(t.bytes_used + t.bytes_free - budget, keep=key)
            else:
                self._make_room(t.bytes_used + t.bytes_free + t.nbytes(w, h, channels) - budget)
        return self.textures.acquire(w, h, channels)

    def _make_room(self, excess, keep=None):
        """Frees at least `excess` bytes if it can: recycled textures first (but one of size
        `keep`), then least recently used data that is not an input of the draw being prepared."""
        if excess <= 0:
            return
        excess -= self.textures.drop_free(excess, keep)
        if excess <= 0:
            return
        victims, pinned, nbytes = [], self._pinned, self.textures.nbytes
        for d in self._lru:
            if d in pinned:
                continue
            victims.append(d)
            excess -= nbytes(*d.tex_shape, d.channels)
            if excess <= 0:
                break
        for d in victims:
            self._page_out(d)

    def _page_out(self, d):
        derived_from = self._lru.pop(d)
        w, h = d.tex_shape
        if derived_from is not None:   # kept packed weights: dropped, made again on next use
            source, key = derived_from
            info = self.derived[source].pop(key)
            self.store.pop(info.data_id, None)
        elif d.values is None:
            floats = self.ctx.read_sync(d.texture, w, h, _size(d.shape))
            if self.ctx.lost():   # nothing to read: the draw finds the context lost and recovers
                d.lost = True
            else:
                d.values = _from_floats(floats, d.dtype)
        self.textures.discard(d.texture, w, h, d.channels)
        d.texture = d.tex_shape = None
        self.paged_out += 1

    # --- compile only --------------------------------------------------------------------------
    def compile_only(self, finish=True):
        """A context manager: while it is open, kernels compile their programs and run nothing (no
        draw: outputs hold no values); each program is started (compiled and linked in the
        browser's GPU process while Python goes on to the next kernel) and all are checked once, at
        the end, as TF.js's ENGINE_COMPILE_ONLY does. Pending elementwise expressions are drawn
        first, so no value made before is lost. Data made inside is meaningless: dispose it. What
        model.warmup() runs a predict under. finish=False leaves the check to finish_programs() or
        `await finish_programs_async()`."""
        return _CompileOnly(self, finish)

    def finish_programs(self):
        """Check every program started and not yet checked (compile_only): the number checked."""
        started = [(k, h) for k, h in self.programs.items() if isinstance(h, _Started)]
        for key, s in started:
            self.programs[key] = self._finished(key, s)
        return len(started)

    async def finish_programs_async(self):
        """finish_programs, where the context has KHR_parallel_shader_compile after waiting for the
        compiles without blocking (the page's event loop runs meanwhile); without it, as
        finish_programs (each check waits)."""
        import asyncio
        started = [h.started for h in self.programs.values() if isinstance(h, _Started)]
        while started and not self.ctx.programs_done(started):
            await asyncio.sleep(0.004)
        return self.finish_programs()

    def _finished(self, key, s):
        try:
            prog = self.ctx.finish_program(s.started)
        except Exception:
            self.programs.pop(key, None)
            raise
        return self.ctx.program_handle(prog, s.variable_names, s.uniforms)

    # --- running programs ------------------------------------------------------------------
    def _handle(self, program, inputs, datas, out_tex_shape):
        """The compiled program for these inputs (cached by key and shapes)."""
        # The output's texture follows from its shape; an input's may not (a reshape shares it).
        key = (program.key,) if program.shapeless else (
            program.key, program.output_shape, *[(t.shape, d.tex_shape) for t, d in zip(inputs, datas)])
        handle = self.programs.get(key)
        if handle is None:
            infos = [InputInfo(name, t.shape, d.tex_shape, d.channels)
                     for name, t, d in zip(program.variable_names, inputs, datas)]
            started = self.ctx.start_program(build_source(program, infos, out_tex_shape))
            handle = _Started(started, program.variable_names, program.uniforms)
            self.programs[key] = handle
        if isinstance(handle, _Started) and not self.compiling_only:
            handle = self.programs[key] = self._finished(key, handle)
        return handle

    def run_packed(self, program, inputs, uniform_values=(), _retry=True):
        """Run a packed program (Program.packed_outputs n > 0): its output, RGBA texels on the grid
        program.output_shape, as a TensorInfo of shape [rows, columns, 4n]: one RGBA texture, or
        for n > 1 (a product's blocks) one RGBA array texture whose layer i is the program's output
        i, so that a reader fetches any block with one texelFetch (no branch per block's texture).
        A GEMM's operands and products, internal to one kernel: never read back, disposed by it."""
        h, w = program.output_shape
        channels = 4 * program.packed_outputs
        self._materialized(inputs)
        self._pinned = datas = [self.store[t.data_id] for t in inputs]
        try:
            for d in datas:
                self._ensure_texture(d)
            handle = self._handle(program, inputs, datas, (w, h))
            out = TexData((h, w, channels), "float32")
            out.channels, out.tex_shape = channels, (w, h)
            out.texture = self._acquire(w, h, channels)
            data_id = DataId(self)
            self.store[data_id] = out
        finally:
            self._pinned = ()
        if self.compiling_only:
            return TensorInfo(data_id, out.shape, "float32")
        if self.ctx.draw(handle, out.texture, w, h, *(d.texture for d in datas), *uniform_values):
            self.store.pop(data_id, None)
            self._context_lost_during(program, _retry)
            return self.run_packed(program, inputs, uniform_values, _retry=False)
        return TensorInfo(data_id, out.shape, "float32")

    def _context_lost_during(self, program, retry):
        self._recover()
        if not retry:
            raise ContextLostError(f"webgl: the WebGL context was lost again while program '{program.key[:60]}' "
                                   "ran on a new one")

    def run(self, program, inputs, dtype, uniform_values=(), _retry=True):
        """Run a program on input tensors; returns the TensorInfo of a new output of dtype."""
        return self.run_outputs(program, inputs, dtype, uniform_values, _retry)[0]

    def run_outputs(self, program, inputs, dtype, uniform_values=(), _retry=True):
        """run() of a program with Program.outputs outputs of one shape, drawn at once: their
        TensorInfos."""
        out_shape = tuple(program.output_shape)
        if dtype == "string" or any(t.dtype == "string" for t in inputs):
            # As in TF.js: string tensors stay CPU-side (TexData.values, a list of str), never in a texture.
            raise TypeError(f"webgl: program '{program.key}' is a shader and cannot take or make string tensors "
                            "(on webgl strings go only to reshape/clone and the tf.string kernels)")
        if dtype == "complex64":
            raise TypeError(f"webgl: program '{program.key}' cannot write complex64 (a complex kernel makes "
                            "its real and imaginary parts as float32 and joins them with make_complex)")
        outs = [TexData(out_shape, dtype) for _ in range(program.outputs)]
        if _size(out_shape) == 0:
            infos = []
            for out in outs:
                out.values = array.array(TYPECODES[dtype])
                data_id = DataId(self)
                self.store[data_id] = out
                infos.append(TensorInfo(data_id, out_shape, dtype))
            return infos
        self._materialized(inputs)
        w, h = tex_shape = texture_shape(out_shape, self.ctx.max_texture_size)
        self._pinned = datas = [self.store[t.data_id] for t in inputs]
        try:
            for d in datas:
                self._ensure_texture(d)
            handle = self._handle(program, inputs, datas, tex_shape)
            for out in outs:
                out.tex_shape = tex_shape
                out.texture = self._acquire(w, h)
        finally:
            self._pinned = ()
        target = outs[0].texture if len(outs) == 1 else [out.texture for out in outs]
        if not self.compiling_only and self.ctx.draw(handle, target, w, h, *(d.texture for d in datas), *uniform_values):
            self._context_lost_during(program, _retry)
            return self.run_outputs(program, inputs, dtype, uniform_values, _retry=False)
        infos = []
        for out in outs:
            data_id = DataId(self)
            self.store[data_id] = out
            self._lru[out] = None
            infos.append(TensorInfo(data_id, out_shape, dtype))
        return infos


class _Started:
    """A program compiled and linked without waiting (GPGPUContext.start_program), not yet checked."""
    __slots__ = ("started", "variable_names", "uniforms")

    def __init__(self, started, variable_names, uniforms):
        self.started, self.variable_names, self.uniforms = started, variable_names, uniforms


class _CompileOnly:
    def __init__(self, backend, finish):
        self.backend, self.finish = backend, finish

    def __enter__(self):
        b = self.backend
        if b.compiling_only:
            raise RuntimeError("webgl: compile_only() is already open")
        if b.pending:
            b.materialize_all()
        b.compiling_only = True
        return b

    def __exit__(self, *exc):
        b = self.backend
        try:
            if b.pending:   # expressions made inside compile their programs; their values mean nothing
                b.materialize_all()
        finally:
            b.compiling_only = False
            for data_id, key in b._compile_only_derived:
                info = b.derived.get(data_id, {}).pop(key, None)
                if info is not None:
                    d = b.store.get(info.data_id)
                    if d is not None:
                        b._lru.pop(d, None)
                    b.dispose_data(info.data_id)
            b._compile_only_derived = []
        if exc[0] is None and self.finish:
            b.finish_programs()
        return False


def _lost_error(d, pending=False):
    what = "a read pending when it was lost" if pending else "this tensor's values lived only in the GPU's memory"
    return ContextLostError(f"webgl: the WebGL context was lost and the backend made a new one, but {what} "
                            f"(a {d.dtype} tensor of shape {list(d.shape)}); make it again (values read "
                            "back or written from Python are kept and survive)")


def _as_array(values, dtype):
    """Any flat buffer as an array.array of dtype's typecode (numpy arrays too, when present)."""
    if dtype == "string":   # a list of str, kept CPU-side (never uploaded)
        return list(values)
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


def _floats(values):
    return values if values.typecode == "f" else array.array("f", values)


def _from_floats(js_floats, dtype):
    """JS Float32Array -> array.array of dtype (ints rounded: they travel as floats)."""
    out = array.array("f", bytes(4 * js_floats.length))
    js_floats.assign_to(out)
    if dtype == "float32":
        return out
    if dtype == "int32":
        # wrapped into int32 as Int32Array does, so an overflowing result reads back, not raises
        return array.array("i", [_wrap_int32(int(round(v))) if v - v == 0 else 0 for v in out])
    return array.array("B", [1 if v else 0 for v in out])
