"""webgpu's plan runner: a recorded plan (core/plan.py) replayed as ONE JavaScript call that
encodes all its dispatches in one compute pass and submits them once (helpers.js runPlan), with
no Python per kernel. The same design as webgl's runner (webgl/plan_runner.py), on buffers.

Built on the plan's first replay, which runs step by step while the dispatches and uploads it
gives the device are captured (gpu/plan_capture.py; a buffer's kind there is its size class):
before it, the data of the plan's inputs, of the variables it reads and of its captured weights
are put in buffers, so every other upload inside the capture is a constant; and kernels do not
see the CPU-side values of the per-call ones (backend.capture_hidden): a kernel takes a known
one-value input as a uniform, which the capture would freeze. The dispatches that write the
parts of one output (Concat, Pack) become one command. The capture fails
(and the plan keeps replaying step by step, `reason` says why) where a kernel reads values back,
where the plan has host steps (random draws: new values each call), or where a dispatch reads a
buffer the plan cannot name.

The program: pipelines as captured; the uniforms (made from shapes and attributes only:
constants of the plan) written once into one uniform buffer; internal values in buffers the
runner owns (the memory plan shares them between values whose lives do not overlap), constants
written once; the bind groups of the dispatches binding only those made once, the others per
call (cached for the buffers of the last two calls, in JS).

A call then: finds the current buffer of each external (uploading a new input's values, as a
dispatch would), takes a recycled buffer for each escaping value, runs the program, and gives
the escaping buffers to new data, which the plan's Python ends (variable writes, the outputs'
Tensors) take as a step-by-step replay would. Plan.dispose releases the runner's buffers; a
new or lost device drops the runner (the next replay captures again, or raises the loss)."""
try:
    import js
    from pyodide.ffi import to_js
except ImportError:   # CPython: imported with the backend (pytfweb ops lists its kernels), never run
    js = to_js = None

from ...core.engine import ENGINE
from ...core.plan import Value
from ...core.tensor import DataId
from ...core.shapes import size_of
from ..gpu.plan_capture import CaptureFailed, analyze, plan_starts


class _Capturing:
    """Stands in for the backend's device while a capture runs: logs the dispatches, the uploads
    and the buffers' size classes, and passes every call on."""

    def __init__(self, device):
        self._device = device
        self.events, self.dims = [], {}
        self.buffers = _Buffers(device.buffers, self)
        # id(buffer) -> index in events of the command that wrote it since it was acquired: a
        # second write is a dispatch filling another part of it (Concat, Pack: run(into=...)).
        self.written = {}
        self.failed = None

    def __getattr__(self, name):
        return getattr(self._device, name)

    def dispatch(self, pipeline, uniform_bytes, groups, buffers, num_outs=1):
        self._device.dispatch(pipeline, uniform_bytes, groups, buffers, num_outs)
        outs, ins = list(buffers[:num_outs]), list(buffers[num_outs:])
        part = (pipeline, uniform_bytes, tuple(groups), tuple(range(len(buffers))))
        if any(id(b) in self.written for b in outs):
            self._fill(outs, ins, part)
            return
        for b in outs:
            self.written[id(b)] = len(self.events)
        self.events.append(("cmd", pipeline, outs, ins, [part]))

    def _fill(self, outs, ins, part):
        """One more part of an output an earlier command wrote: both become one command, at this
        one's place, writing the output once and reading what both read. Moving the earlier part
        here is right only if nothing between them changed what it reads or read the output."""
        k = self.written.get(id(outs[0]))
        if len(outs) != 1 or k is None:
            self.failed = "a dispatch wrote part of several outputs another dispatch wrote"
            return
        _, key, prev_outs, prev_ins, parts = self.events[k]
        reads = {id(b) for b in prev_ins}
        for ev in self.events[k + 1:]:
            if ev[0] == "upload":
                touched, read = [ev[1]], []
            elif ev[0] == "cmd":
                touched, read = ev[2], ev[3]
            else:
                continue
            if any(id(b) in reads or b is outs[0] for b in touched) or any(b is outs[0] for b in read):
                self.failed = "the parts of one output were written around other commands that touch their buffers"
                return
        pipeline, uniform_bytes, groups, _ = part
        n = len(prev_ins)
        parts = parts + [(pipeline, uniform_bytes, groups, (0,) + tuple(1 + n + j for j in range(len(ins))))]
        self.events[k] = ("moved",)
        self.written[id(outs[0])] = len(self.events)
        self.events.append(("cmd", key, prev_outs, prev_ins + ins, parts))

    def upload(self, buf, values):
        self._device.upload(buf, values)
        self.written.pop(id(buf), None)
        self.events.append(("upload", buf, bytes(memoryview(values).cast("B"))))


class _Buffers:
    def __init__(self, manager, log):
        self._manager, self._log = manager, log

    def __getattr__(self, name):
        return getattr(self._manager, name)

    def acquire(self, nbytes):
        buf, size = self._manager.acquire(nbytes)
        self._log.dims[id(buf)] = size
        self._log.written.pop(id(buf), None)
        return buf, size

    def release(self, buf, size):
        self._log.written.pop(id(buf), None)
        self._manager.release(buf, size)


class DispatchPlanRunner:
    def __init__(self, backend):
        self.backend = backend
        self.device = None      # the device the program was built on
        self.externals = None   # [(kind, what)]: see _external_buffer
        self.escaping = None    # [([(slot, shape, dtype, size)], size class, GPUData shape, dtype)] per kernel root
        self.tail = None        # what Python finishes (core.plan.Escaping)
        self.owned = []         # (buffer, size class) the runner holds
        self.js_plan = None
        self.reason = None      # why the capture failed, if it did
        self.replays = 0        # calls run by the program (tests and the bench read it)
        self.num_commands = 0   # dispatches per call

    def run(self, plan, inputs):
        if self.js_plan is None:
            if self.reason is not None:
                return plan.run_steps(inputs)
            return self._capture(plan, inputs)
        backend = self.backend
        if ENGINE.backend is not backend:
            return plan.run_steps(inputs)
        dev = self.device
        if backend.device is not dev or dev.lost_reason is not None:
            plan.dispose_runner()   # a new device: capture again; a lost one: the steps raise it
            return plan.run_steps(inputs)
        vals = plan.external_values(inputs)
        buffers = []
        for kind, what in self.externals:
            buf = self._external_buffer(kind, what, vals)
            if buf is None:
                return plan.run_steps(inputs)
            buffers.append(buf)
        acquire = dev.buffers.acquire
        out = [acquire(e[1]) for e in self.escaping]
        dev.js.runPlan(self.js_plan, *buffers, *(b for b, _ in out))
        backend.dispatches += self.num_commands
        store, data_class = backend.store, backend.data_class
        for (slots, _, shape, dtype), (buf, size) in zip(self.escaping, out):
            d = data_class(shape, dtype)
            d.buffer, d.size = buf, size
            data_id = DataId(backend)
            store[data_id] = d
            for s, vshape, vdtype, n in slots:
                vals[s] = Value(data_id, vshape, vdtype, n)
        self.replays += 1
        return plan.finish(vals, inputs, self.tail)

    def _external_buffer(self, kind, what, vals):
        """The buffer of one external at this call; None where it has none (then the call runs
        step by step, which says why where it must fail)."""
        backend = self.backend
        data_id = vals[what].data_id if kind == "in" else what.data_id if kind == "var" else what
        d = backend.store.get(data_id)
        if d is None or d.complex_parts is not None or d.dtype == "string":
            return None
        return backend.ensure_buffer(data_id)   # (computes pending data, uploads CPU-side values)

    # --- the first replay: capture --------------------------------------------------------------
    def _capture(self, plan, inputs):
        backend = self.backend
        self.tail = tail = plan.escaping()
        try:
            externals, hidden = self._externals(plan, inputs)
        except CaptureFailed as exc:
            self.reason = str(exc)
            return plan.run_steps(inputs)
        dev = backend.device
        log = backend.device = _Capturing(dev)
        backend.capture_reads, backend.capture_hidden = 0, hidden
        try:
            vals = plan.steps_values(inputs)
            roots = sorted(tail.kernel_roots)
            for r in roots:
                backend.settle(vals[r].data_id)
        finally:
            backend.device = dev
            reads, backend.capture_reads, backend.capture_hidden = backend.capture_reads, None, None
        try:
            if reads:
                raise CaptureFailed("a kernel read values back to the host")
            if log.failed is not None:
                raise CaptureFailed(log.failed)
            if dev.lost_reason is not None:
                raise CaptureFailed("the device was lost during the capture")
            escaping_buffers = []
            self.escaping = []
            for r in roots:
                d = backend.store.get(vals[r].data_id)
                if d is None or d.buffer is None:
                    raise CaptureFailed("an output or a variable's new value is not in a buffer")
                escaping_buffers.append(d.buffer)
                size = log.dims.get(id(d.buffer))
                if size is None:
                    raise CaptureFailed("an output's buffer was not made by the recorded kernels")
                self.escaping.append((tail.kernel_roots[r], size, d.shape, d.dtype))
            events = [ev for ev in log.events if ev[0] != "moved"]
            program = analyze(events, externals, escaping_buffers, log.dims)
        except CaptureFailed as exc:
            self.reason = str(exc)
            return plan.finish(vals, inputs)
        self._build(dev, program)
        return plan.finish(vals, inputs)

    def _externals(self, plan, inputs):
        """id(buffer) -> (kind, what) for the data the plan starts from, each put in a buffer
        first (a one-value constant stays on the host: kernels take it as a uniform), and the
        DataIds of the per-call ones (inputs, variables), whose CPU-side values kernels must not
        bake into the capture."""
        if plan.has_host_steps:
            raise CaptureFailed("the plan has host steps (random draws)")
        backend = self.backend
        externals, hidden = {}, set()
        for kind, what, data_id, per_call in plan_starts(plan, inputs):
            backend.settle(data_id)
            d = backend.store.get(data_id)
            if d is None or d.dtype == "string" or d.complex_parts is not None:
                raise CaptureFailed("an input is not a real-valued buffer (string, complex64)")
            n = size_of(d.shape)
            if d.buffer is None and (n == 0 or (n == 1 and not per_call)):
                continue   # no buffer, or a one-value constant: uploaded in the capture if at all
            if per_call:
                hidden.add(data_id)
            buf = backend.ensure_buffer(data_id)
            entry = externals.setdefault(id(buf), (kind, what))
            # (by identity: `what` may be a Variable, whose == is elementwise)
            if entry[0] != kind or entry[1] is not what:
                raise CaptureFailed("one buffer holds two of the plan's inputs")
        return externals, hidden

    def _build(self, dev, program):
        self.device = dev
        buffers = dev.buffers
        table = [None] * (len(program.externals) + len(program.escaping))
        for size, payload in program.constants:
            buf, _ = buffers.acquire(size)
            dev.upload(buf, payload)
            self.owned.append((buf, size))
            table.append(buf)
        for size in program.internals:
            buf, _ = buffers.acquire(size)
            self.owned.append((buf, size))
            table.append(buf)
        self.externals = program.externals
        # Every dispatch's uniforms in one buffer, each at an offset a uniform binding may start
        # at; equal uniforms are written once.
        align = int(dev.device.limits.minUniformBufferOffsetAlignment)
        uniforms, offsets, cmds = bytearray(), {}, []
        for _, outs, ins, parts in program.cmds:
            where = outs + ins
            for pipeline, ub, (x, y, z), positions in parts:
                off = offsets.get(ub)
                if off is None:
                    off = offsets[ub] = len(uniforms)
                    uniforms += ub
                    uniforms += bytes(-len(uniforms) % align)
                cmds.append({"p": pipeline, "b": [where[k] for k in positions], "uo": off, "us": len(ub),
                             "x": x, "y": y, "z": z})
        self.js_plan = dev.js.buildPlan(to_js(table), len(table) - len(self.owned),
                                        to_js(cmds, dict_converter=js.Object.fromEntries), to_js(bytes(uniforms)))
        self.num_commands = len(cmds)

    def dispose(self):
        dev = self.device
        if dev is not None and self.backend.device is dev:   # (a lost device's buffers too: its counts)
            for buf, size in self.owned:
                dev.buffers.release(buf, size)
            if self.js_plan is not None:
                dev.js.disposePlan(self.js_plan)
        self.owned = []
        self.js_plan = None

