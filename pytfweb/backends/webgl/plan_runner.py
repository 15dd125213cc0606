"""webgl's plan runner: a recorded plan (core/plan.py) replayed as ONE JavaScript call that issues
all its draws (helpers.js runPlan), with no Python per kernel.

Built on the plan's first replay, which runs step by step while the draws and uploads it gives
the context are captured (gpu/plan_capture.py): before it, the data of the plan's inputs, of the
variables it reads and of its captured weights are put in textures, so every other upload inside
the capture is a constant. The capture fails (and the plan keeps replaying step by step) where a
kernel reads values back, where the plan has host steps (random draws: new values each call),
under a GPU byte budget (WEBGL_MAX_GPU_BYTES pages textures out behind the program's back), or
where a draw reads a texture the plan cannot name.

A call then: finds the current texture of each external (uploading a new input's values, as a
draw would), takes a recycled texture for each escaping value, runs the program, and gives the
escaping textures to new data, which the plan's Python ends (variable writes, the outputs'
Tensors) take as a step-by-step replay would. The internal values live in textures the runner
owns (the memory plan: shared between values whose lives do not overlap), released by
Plan.dispose. A call whose externals are not as captured (a texture of another layout, packed
weights evicted) runs step by step; a lost context drops the runner (the next replay captures
again)."""
import array

from pyodide.ffi import to_js
import js

from ...core.engine import ENGINE
from ...core.environment import ENV
from ...core.plan import Value
from ...core.tensor import DataId
from ...core.shapes import size_of
from ..gpu.plan_capture import CaptureFailed, analyze, plan_starts
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


class DrawPlanRunner:
    def __init__(self, backend):
        self.backend = backend
        self.ctx = None         # the context the program was built on
        self.externals = None   # [(kind, what, key, tex_shape)]: see _external_data
        self.escaping = None    # [([(slot, shape, dtype, size)], dims, TexData shape, dtype)] per kernel root
        self.tail = None        # what Python finishes (core.plan.Escaping)
        self.owned = []         # (texture, dims) the runner holds
        self.js_plan = None
        self.reason = None      # why the capture failed, if it did
        self.replays = 0        # calls run by the program (tests and the bench read it)
        self.num_commands = 0   # draws per call

    # --- the first replay: capture --------------------------------------------------------------
    def run(self, plan, inputs):
        if self.js_plan is None:
            if self.reason is not None:
                return plan.run_steps(inputs)
            return self._capture(plan, inputs)
        backend = self.backend
        if ENGINE.backend is not backend:
            return plan.run_steps(inputs)
        if backend.ctx is not self.ctx or ENV.flags["WEBGL_MAX_GPU_BYTES"]:
            plan.dispose_runner()   # a new context, or a budget: capture again (or not at all)
            return plan.run_steps(inputs)
        vals = plan.external_values(inputs)
        textures = []
        for kind, what, key, tex_shape in self.externals:
            d = self._external_data(kind, what, key, vals, inputs)
            if d is None or d.tex_shape != tex_shape:
                return plan.run_steps(inputs)
            textures.append(d.texture)
        acquire = backend._acquire
        out_textures = [acquire(*e[1]) for e in self.escaping]
        if self.ctx.js.runPlan(self.js_plan, *textures, *out_textures):
            backend._recover()
            plan.dispose_runner()
            return plan.run_steps(inputs)
        store, lru = backend.store, backend._lru
        for (slots, dims, shape, dtype), tex in zip(self.escaping, out_textures):
            d = TexData(shape, dtype)
            d.texture, d.tex_shape, d.channels = tex, dims[:2], dims[2]
            data_id = DataId(backend)
            store[data_id] = d
            lru[d] = None
            for s, vshape, vdtype, size in slots:
                vals[s] = Value(data_id, vshape, vdtype, size)
        self.replays += 1
        return plan.finish(vals, inputs, self.tail)

    def _external_data(self, kind, what, key, vals, inputs):
        """The TexData (in a texture) of one external at this call; None where it cannot be had."""
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
            return d if d is not None and d.texture is not None else None
        if data_id in backend.pending:
            backend.materialize(data_id)
        d = backend.store.get(data_id)
        if d is None or d.complex_parts is not None or d.lost:
            return None
        return backend._ensure_texture(d)

    def _capture(self, plan, inputs):
        backend = self.backend
        self.tail = tail = plan.escaping()
        try:
            externals = self._externals(plan, inputs)
        except CaptureFailed as exc:
            self.reason = str(exc)
            return plan.run_steps(inputs)
        ctx, manager = backend.ctx, backend.textures
        log = backend.ctx = _Capturing(ctx, manager)
        backend.textures = _Textures(manager, log)
        backend.capture_reads = 0
        try:
            vals = plan.steps_values(inputs)
            roots = sorted(tail.kernel_roots)
            for r in roots:
                backend.settle(vals[r].data_id)
        finally:
            backend.ctx, backend.textures = ctx, manager
            reads, backend.capture_reads = backend.capture_reads, None
        try:
            if reads:
                raise CaptureFailed("a kernel read values back to the host")
            if backend.ctx.lost():
                raise CaptureFailed("the context was lost during the capture")
            escaping_tex = []
            self.escaping = []
            for r in roots:
                d = backend.store.get(vals[r].data_id)
                if d is None or d.texture is None:
                    raise CaptureFailed("an output or a variable's new value is not in a texture")
                escaping_tex.append(d.texture)
                dims = log.dims.get(id(d.texture))
                if dims is None:
                    raise CaptureFailed("an output's texture was not made by the recorded kernels")
                self.escaping.append((tail.kernel_roots[r], dims, d.shape, d.dtype))
            program = analyze(log.events, externals, escaping_tex, log.dims)
        except CaptureFailed as exc:
            self.reason = str(exc)
            return plan.finish(vals, inputs)
        self._build(program)
        return plan.finish(vals, inputs)

    def _externals(self, plan, inputs):
        """id(texture) -> (kind, what, key, tex_shape) for the data the plan starts from, each put in
        a texture first (a one-value constant stays on the host: kernels take it as a uniform)."""
        if plan.has_host_steps:
            raise CaptureFailed("the plan has host steps (random draws)")
        if ENV.flags["WEBGL_MAX_GPU_BYTES"]:
            raise CaptureFailed("a GPU byte budget is set (textures may be paged out)")
        backend = self.backend
        externals = {}

        def add(tex, entry):
            prev = externals.setdefault(id(tex), entry)
            # (by identity: `what` may be a Variable, whose == is elementwise)
            if prev is not entry and (prev[0], id(prev[1]), prev[2]) != (entry[0], id(entry[1]), entry[2]):
                raise CaptureFailed("one texture holds two of the plan's inputs")
        for kind, what, data_id, per_call in plan_starts(plan, inputs):
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
        return externals

    def _build(self, program):
        backend = self.backend
        self.ctx = ctx = backend.ctx
        table = [None] * (len(program.externals) + len(program.escaping))
        for dims, (w, h, floats) in program.constants:
            tex = backend.textures.acquire(*dims)
            ctx.upload(tex, w, h, floats)
            self.owned.append((tex, dims))
            table.append(tex)
        for dims in program.internals:
            tex = backend.textures.acquire(*dims)
            self.owned.append((tex, dims))
            table.append(tex)
        self.externals = program.externals
        cmds = [{"p": handle, "outs": outs, "ins": ins, "w": w, "h": h, "u": list(uniforms)}
                for handle, outs, ins, (w, h, uniforms) in program.cmds]
        plan = js.Object.new()
        plan.table = to_js(table)
        plan.cmds = to_js(cmds, dict_converter=js.Object.fromEntries)
        self.js_plan = plan
        self.num_commands = len(cmds)

    def dispose(self):
        backend = self.backend
        if self.ctx is not None and backend.ctx is self.ctx:
            for tex, dims in self.owned:
                backend.textures.release(tex, *dims)
        self.owned = []
        self.js_plan = None

