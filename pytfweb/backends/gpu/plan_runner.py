"""What webgl's and webgpu's plan runners share (GPUPlanRunner): a recorded plan (core/plan.py)
replayed segment by segment (Plan.segments), each run of device steps as ONE call of a program
of GPU commands (one JavaScript call: all its draws on webgl, one submit on webgpu), the host
steps (random draws) and split kernels (output shapes that depend on values) in Python between
them, as a step-by-step replay runs them.

Built on the plan's first replay, which runs step by step while the commands and uploads each
device segment gives the GPU are captured (gpu/plan_capture.py): before a segment, the data it
starts from (the plan's inputs, the variables it reads, its constants and captured weights, what
the host steps and the segments before it left) is put in resources, so every upload inside it
is a constant. A segment whose capture fails keeps running step by step (`reason` says why:
a kernel reading values back, a command reading a resource the plan cannot name, ...); a plan
none of whose segments could be captured replays step by step altogether.

A segment's program: its internal values in resources the runner owns, shared between values
whose lives do not overlap (the memory plan), constants written once. A call then, per
segment: finds the current resource of each start (uploading host values, as a kernel would),
takes a recycled resource for each value leaving the segment, runs the program, gives those
resources to new data, and does the segment's Python part (core.plan.Segment.finish: variable
reads and writes, releases). A steady call makes no resource. A segment whose starts are not as
captured runs step by step that call. Plan.dispose releases the runner's resources.

A backend's runner supplies the hooks below (webgl/plan_runner.py: textures and draws,
webgpu/plan_runner.py: buffers and dispatches)."""
from ...core.engine import ENGINE
from ...core.plan import Value
from .plan_capture import CaptureFailed, analyze


class Compiled:
    """One segment's commands as the backend runs them."""
    __slots__ = ("handle", "externals", "escaping", "owned", "num_commands")

    def __init__(self, handle, externals, escaping, owned, num_commands):
        self.handle = handle              # the backend's JS plan
        self.externals = externals        # the backend's description of each start, in table order
        self.escaping = escaping          # [([(slot, shape, dtype, size)], dims, shape, dtype)] per kernel root
        self.owned = owned                # resources the runner holds for it
        self.num_commands = num_commands


class GPUPlanRunner:
    RESOURCE = "resource"   # what the backend's data lives in, for the reasons

    def __init__(self, backend):
        self.backend = backend
        self.units = None       # [(core.plan.Segment, Compiled or None: step by step)] once captured
        self.reason = None      # why a capture failed, if one did
        self.replays = 0        # calls run by programs (tests and the bench read it)
        self.num_commands = 0   # commands per call, over all programs
        self.num_programs = 0   # programs (JS calls or submits) per call

    def run(self, plan, inputs):
        units = self.units
        if units is None:
            if self.reason is not None:
                return plan.run_steps(inputs)
            return self._capture(plan, inputs)
        if ENGINE.backend is not self.backend:
            return plan.run_steps(inputs)
        if self._stale():
            plan.dispose_runner()   # a new context or device: capture again (a lost one: the steps raise it)
            return plan.run_steps(inputs)
        vals = plan.external_values(inputs)
        stepwise = ran = False
        for seg, prog in units:
            if prog is None or stepwise:
                plan.run_range(seg.start, seg.stop, vals)
                continue
            try:
                done = self._run_program(prog, seg, vals)
            except BaseException:
                plan.cleanup(seg.start, vals)
                raise
            if done:
                ran = True
                continue
            if done is not None:   # the context was lost under the program: the rest step by step
                plan.dispose_runner()
                stepwise = True
            plan.run_range(seg.start, seg.stop, vals)
        self.replays += ran
        return plan.finish(vals, inputs)

    def _run_program(self, prog, seg, vals):
        """Run one segment's program and its Python part: True; None where a start is not as
        captured (nothing done: the segment runs step by step); False where the program failed."""
        for var in seg.variables:
            if var.is_disposed_internal:
                return None   # (step by step raises the error)
        resources = []
        for entry in prog.externals:
            res = self._external(entry, vals)
            if res is None:
                return None
            resources.append(res)
        outs = [self._acquire(e[1]) for e in prog.escaping]
        if not self._launch(prog, resources, outs):
            return False
        for (slots, dims, shape, dtype), res in zip(prog.escaping, outs):
            data_id = self._wrap(res, dims, shape, dtype)
            for s, vshape, vdtype, size in slots:
                vals[s] = Value(data_id, vshape, vdtype, size)
        seg.finish(vals)
        return True

    # --- the first replay: capture --------------------------------------------------------------
    def _capture(self, plan, inputs):
        try:
            self._begin_plan()
        except CaptureFailed as exc:
            self.reason = str(exc)
            return plan.run_steps(inputs)
        vals = plan.external_values(inputs)
        units, reasons = [], []
        try:
            for seg in plan.segments():
                prog = None
                if seg.device and seg.kernels:
                    try:
                        prog = self._capture_segment(plan, seg, vals)
                    except CaptureFailed as exc:
                        reasons.append(str(exc))
                else:
                    plan.run_range(seg.start, seg.stop, vals)
                units.append((seg, prog))
        except BaseException:
            self._dispose_units(units)
            raise
        self.reason = reasons[0] if reasons else None
        if any(prog is not None for _, prog in units):
            self.units = units
            self.num_commands = sum(prog.num_commands for _, prog in units if prog is not None)
            self.num_programs = sum(prog is not None for _, prog in units)
        elif self.reason is None:
            self.reason = "the plan has no kernels on the device"
        return plan.finish(vals, inputs)

    def _capture_segment(self, plan, seg, vals):
        """Run the segment step by step, captured; its Compiled (CaptureFailed: the segment ran,
        and cannot be a program)."""
        try:
            externals, hidden = self._externals(seg.start_values(vals))
        except CaptureFailed:
            plan.run_range(seg.start, seg.stop, vals)
            raise
        log = self._begin(hidden)
        roots = sorted(seg.kernel_roots)
        try:
            plan.run_range(seg.start, seg.stop, vals)
            for r in roots:
                self.backend.settle(vals[r].data_id)
        finally:
            failed = self._end(log)
        if failed is not None:
            raise CaptureFailed(failed)
        resources, escaping = [], []
        for r in roots:
            res, dims, shape, dtype = self._escaping(log, vals[r].data_id)
            resources.append(res)
            escaping.append((seg.kernel_roots[r], dims, shape, dtype))
        program = analyze(self._events(log), externals, resources, log.dims)
        return self._build(program, escaping)

    def dispose(self):
        units, self.units = self.units, None
        if units is not None:
            self._dispose_units(units)

    def _dispose_units(self, units):
        for _, prog in units:
            if prog is not None:
                self._dispose_program(prog)

    # --- hooks ---------------------------------------------------------------------------------------
    def _begin_plan(self):
        """Before a capture: note the context or device; CaptureFailed where no plan can be a program."""

    def _stale(self):
        """Whether the context or device the programs were built on is gone (or may not hold them)."""
        raise NotImplementedError

    def _externals(self, starts):
        """({id(resource): entry}, hidden) for Segment.start_values: each start put in a resource
        (entry: what _external finds it again by); hidden: the DataIds of the per-call ones."""
        raise NotImplementedError

    def _begin(self, hidden):
        """Install the capturing stand-ins; returns the log (with .dims: id(resource) -> dims)."""
        raise NotImplementedError

    def _end(self, log):
        """Remove them; the reason the capture cannot be a program, or None."""
        self._restore(log)
        backend = self.backend
        reads, backend.capture_reads = backend.capture_reads, None
        if reads:
            return "a kernel read values back to the host"
        return self._capture_problem(log)

    def _restore(self, log):
        """Put the backend's own objects back in place of the stand-ins."""
        raise NotImplementedError

    def _capture_problem(self, log):
        """What else makes the capture unusable (a lost context or device), or None."""
        raise NotImplementedError

    def _escaping(self, log, data_id):
        """(resource, dims, shape, dtype) of a value leaving a segment (CaptureFailed where none)."""
        d = self.backend.store.get(data_id)
        res = None if d is None else self._resource_of(d)
        if res is None:
            raise CaptureFailed(f"an output or a variable's new value is not in a {self.RESOURCE}")
        dims = log.dims.get(id(res))
        if dims is None:
            raise CaptureFailed(f"an output's {self.RESOURCE} was not made by the recorded kernels")
        return res, dims, d.shape, d.dtype

    def _resource_of(self, d):
        """The resource a backend's data object is in, or None."""
        raise NotImplementedError

    def _events(self, log):
        return log.events

    def _build(self, program, escaping):
        """The Compiled of a gpu.plan_capture.Program."""
        raise NotImplementedError

    def _external(self, entry, vals):
        """A start's resource at this call; None where it is not as captured."""
        raise NotImplementedError

    def _acquire(self, dims):
        raise NotImplementedError

    def _launch(self, prog, resources, outs):
        """Run the program on the starts' and the escaping values' resources; False where it could
        not run (the context was lost)."""
        raise NotImplementedError

    def _wrap(self, res, dims, shape, dtype):
        """A new DataId for the data a program wrote into res."""
        raise NotImplementedError

    def _dispose_program(self, prog):
        raise NotImplementedError
