"""webgl's plan runner: a recorded plan (core/plan.py) replayed as ONE JavaScript call per run of
device steps that issues all its draws (helpers.js runPlan), with no Python per kernel; host
steps and split kernels run in Python between those calls (gpu/plan_runner.py: the design).

Here the resources are textures and a command is a draw. The capture fails (the plan replays
step by step) under a GPU byte budget (WEBGL_MAX_GPU_BYTES pages textures out behind the
program's back). A start is found again by the data it is (an input, a variable, ...) and, for
the GEMM's packed weights kept beside a tensor, by their key; a call whose start is in a
texture of another layout than at the capture, or whose packed weights were evicted, runs that
segment step by step; a lost context drops the runner (the next replay captures again)."""
import array

from pyodide.ffi import to_js
import js

from ...core.environment import ENV
from ...core.tensor import DataId
from ...core.shapes import size_of
from ..gpu.plan_capture import CaptureFailed
from ..gpu.plan_runner import Compiled, GPUPlanRunner
from .texture_manager import TexData


class _Capturing:
    """Stands in for the backend's context and texture manager while a capture runs: logs the
    draws, the uploads and the textures' sizes, and passes every call on."""

    def __init__(self, ctx, textures):
        self._ctx, self._textures = ctx, textures
        self.events, self.dims = [], {}

    def __getattr__(self, name):
        return getattr(self._ctx, name)

    def draw(self, handle, out_tex, width, height, *args):
        n = int(handle.numInputs)
        outs = out_tex if isinstance(out_tex, list) else [out_tex]
        self.events.append(("cmd", handle, outs, args[:n], (width, height, args[n:])))
        return self._ctx.draw(handle, out_tex, width, height, *args)

    def upload(self, tex, width, height, floats):
        self.events.append(("upload", tex, (width, height, array.array("f", floats))))
        self._ctx.upload(tex, width, height, floats)


class _Textures:
    def __init__(self, manager, log):
        self._manager, self._log = manager, log

    def __getattr__(self, name):
        return getattr(self._manager, name)

    def acquire(self, w, h, channels=1):
        tex = self._manager.acquire(w, h, channels)
        self._log.dims[id(tex)] = (w, h, channels)
        return tex


class DrawPlanRunner(GPUPlanRunner):
    RESOURCE = "texture"

    def __init__(self, backend):
        super().__init__(backend)
        self.ctx = None   # the context the programs were built on

    def _begin_plan(self):
        if ENV.flags["WEBGL_MAX_GPU_BYTES"]:
            raise CaptureFailed("a GPU byte budget is set (textures may be paged out)")
        self.ctx = self.backend.ctx

    def _stale(self):
        return self.backend.ctx is not self.ctx or ENV.flags["WEBGL_MAX_GPU_BYTES"]

    def _externals(self, starts):
        """id(texture) -> (kind, what, key, tex_shape) for the data a segment starts from, each put
        in a texture first (a one-value constant stays on the host: kernels take it as a uniform)."""
        backend = self.backend
        externals = {}

        def add(tex, entry):
            prev = externals.setdefault(id(tex), entry)
            # (by identity: `what` may be a Variable, whose == is elementwise)
            if prev is not entry and (prev[0], id(prev[1]), prev[2]) != (entry[0], id(entry[1]), entry[2]):
                raise CaptureFailed("one texture holds two of the plan's inputs")
        for kind, what, data_id, per_call in starts:
            backend.settle(data_id)
            d = backend.store.get(data_id)
            if d is None or d.dtype == "string" or d.complex_parts is not None:
                raise CaptureFailed("an input is not a real-valued texture (string, complex64)")
            n = size_of(d.shape)
            if d.texture is None and (n == 0 or (n == 1 and not per_call)):
                continue   # no texture, or a one-value constant: uploaded in the capture if at all
            backend._ensure_texture(d)
            add(d.texture, (kind, what, None, d.tex_shape))
            for key, info in backend.derived.get(data_id, {}).items():
                dd = backend.store.get(info.data_id)
                if dd is not None and dd.texture is not None:
                    add(dd.texture, (kind, what, key, dd.tex_shape))
        return externals, None

    def _begin(self, hidden):
        backend = self.backend
        log = _Capturing(backend.ctx, backend.textures)
        backend.ctx, backend.textures = log, _Textures(backend.textures, log)
        backend.capture_reads = 0
        return log

    def _restore(self, log):
        self.backend.ctx, self.backend.textures = log._ctx, log._textures

    def _capture_problem(self, log):
        return "the context was lost during the capture" if self.backend.ctx.lost() else None

    def _resource_of(self, d):
        return d.texture

    def _build(self, program, escaping):
        backend = self.backend
        ctx = backend.ctx
        table = [None] * (len(program.externals) + len(program.escaping))
        owned = []
        for dims, (w, h, floats) in program.constants:
            tex = backend.textures.acquire(*dims)
            ctx.upload(tex, w, h, floats)
            owned.append((tex, dims))
            table.append(tex)
        for dims in program.internals:
            tex = backend.textures.acquire(*dims)
            owned.append((tex, dims))
            table.append(tex)
        cmds = [{"p": handle, "outs": outs, "ins": ins, "w": w, "h": h, "u": list(uniforms)}
                for handle, outs, ins, (w, h, uniforms) in program.cmds]
        plan = js.Object.new()
        plan.table = to_js(table)
        plan.cmds = to_js(cmds, dict_converter=js.Object.fromEntries)
        return Compiled(plan, program.externals, escaping, owned, len(cmds))

    def _external(self, entry, vals):
        """The texture of one start at this call; None where it cannot be had as captured."""
        kind, what, key, tex_shape = entry
        backend = self.backend
        if kind == "in":
            data_id = vals[what].data_id
        elif kind == "var":
            data_id = what.data_id
        else:
            data_id = what
        if key is not None:
            info = backend.derived.get(data_id, {}).get(key)
            if info is None:
                return None
            d = backend.store.get(info.data_id)
            return d.texture if d is not None and d.texture is not None and d.tex_shape == tex_shape else None
        if data_id in backend.pending:
            backend.materialize(data_id)
        d = backend.store.get(data_id)
        if d is None or d.complex_parts is not None or d.lost:
            return None
        backend._ensure_texture(d)
        return d.texture if d.tex_shape == tex_shape else None

    def _acquire(self, dims):
        return self.backend._acquire(*dims)

    def _launch(self, prog, resources, outs):
        if self.ctx.js.runPlan(prog.handle, *resources, *outs):
            self.backend._recover()
            return False
        return True

    def _wrap(self, tex, dims, shape, dtype):
        backend = self.backend
        d = TexData(shape, dtype)
        d.texture, d.tex_shape, d.channels = tex, dims[:2], dims[2]
        data_id = DataId(backend)
        backend.store[data_id] = d
        backend._lru[d] = None
        return data_id

    def _dispose_program(self, prog):
        backend = self.backend
        if self.ctx is not None and backend.ctx is self.ctx:
            for tex, dims in prog.owned:
                backend.textures.release(tex, *dims)
        prog.owned = []
        prog.handle = None
