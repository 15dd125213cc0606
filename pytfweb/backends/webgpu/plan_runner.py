"""webgpu's plan runner: a recorded plan (core/plan.py) replayed as ONE JavaScript call per run of
device steps that encodes all its dispatches in one compute pass and submits them once
(helpers.js runPlan), with no Python per kernel; host steps and split kernels run in Python
between those calls (gpu/plan_runner.py: the design, shared with webgl's runner).

Here the resources are buffers (a buffer's kind is its size class) and a command is a dispatch.
Kernels do not see the CPU-side values of a segment's per-call starts (backend.capture_hidden): a
kernel takes a known one-value input as a uniform, which the capture would freeze. The dispatches
that write the parts of one output (Concat, Pack) become one command.

A program: pipelines as captured; the uniforms (made from shapes and attributes only: constants
of the plan) written once into one uniform buffer; the bind groups of the dispatches binding
only buffers made once, the others per call (cached for the buffers of the last two calls, in
JS). A new or lost device drops the runner (the next replay captures again, or raises the loss)."""
try:
    import js
    from pyodide.ffi import to_js
except ImportError:   # CPython: imported with the backend (pytfweb ops lists its kernels), never run
    js = to_js = None

from ...core.tensor import DataId
from ...core.shapes import size_of
from ..gpu.plan_capture import CaptureFailed
from ..gpu.plan_runner import Compiled, GPUPlanRunner


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


class DispatchPlanRunner(GPUPlanRunner):
    RESOURCE = "buffer"

    def __init__(self, backend):
        super().__init__(backend)
        self.device = None   # the device the programs were built on

    def _begin_plan(self):
        self.device = self.backend.device

    def _stale(self):
        dev = self.device
        return self.backend.device is not dev or dev.lost_reason is not None

    def _externals(self, starts):
        """id(buffer) -> (kind, what) for the data a segment starts from, each put in a buffer
        first (a one-value constant stays on the host: kernels take it as a uniform), and the
        DataIds of the per-call ones (inputs, variables, host values), whose CPU-side values
        kernels must not bake into the capture."""
        backend = self.backend
        externals, hidden = {}, set()
        for kind, what, data_id, per_call in starts:
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

    def _begin(self, hidden):
        backend = self.backend
        log = backend.device = _Capturing(backend.device)
        backend.capture_reads, backend.capture_hidden = 0, hidden
        return log

    def _restore(self, log):
        self.backend.device, self.backend.capture_hidden = log._device, None

    def _capture_problem(self, log):
        if log.failed is not None:
            return log.failed
        return "the device was lost during the capture" if log._device.lost_reason is not None else None

    def _resource_of(self, d):
        return d.buffer

    def _events(self, log):
        return [ev for ev in log.events if ev[0] != "moved"]

    def _build(self, program, escaping):
        dev = self.device
        buffers = dev.buffers
        table = [None] * (len(program.externals) + len(program.escaping))
        owned = []
        for size, payload in program.constants:
            buf, _ = buffers.acquire(size)
            dev.upload(buf, payload)
            owned.append((buf, size))
            table.append(buf)
        for size in program.internals:
            buf, _ = buffers.acquire(size)
            owned.append((buf, size))
            table.append(buf)
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
        handle = dev.js.buildPlan(to_js(table), len(table) - len(owned),
                                  to_js(cmds, dict_converter=js.Object.fromEntries), to_js(bytes(uniforms)))
        return Compiled(handle, program.externals, escaping, owned, len(cmds))

    def _external(self, entry, vals):
        """The buffer of one start at this call; None where it has none (then the segment runs
        step by step, which says why where it must fail)."""
        kind, what = entry
        backend = self.backend
        data_id = vals[what].data_id if kind == "in" else what.data_id if kind == "var" else what
        d = backend.store.get(data_id)
        if d is None or d.complex_parts is not None or d.dtype == "string":
            return None
        return backend.ensure_buffer(data_id)   # (computes pending data, uploads CPU-side values)

    def _acquire(self, size):
        return self.device.buffers.acquire(size)

    def _launch(self, prog, resources, outs):
        self.device.js.runPlan(prog.handle, *resources, *(b for b, _ in outs))
        self.backend.dispatches += prog.num_commands
        return True

    def _wrap(self, out, size, shape, dtype):
        backend = self.backend
        d = backend.data_class(shape, dtype)
        d.buffer, d.size = out
        data_id = DataId(backend)
        backend.store[data_id] = d
        return data_id

    def _dispose_program(self, prog):
        dev = self.device
        if dev is not None and self.backend.device is dev:   # (a lost device's buffers too: its counts)
            for buf, size in prog.owned:
                dev.buffers.release(buf, size)
            if prog.handle is not None:
                dev.js.disposePlan(prog.handle)
        prog.owned = []
        prog.handle = None
