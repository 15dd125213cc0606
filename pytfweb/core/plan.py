"""Recorded kernel plans: run Python once while recording the kernels it runs, then replay the
record without running the Python again. Both front doors use it: `tf.function`
(core/function.py) and the graph-model executor (converter/executor.py, whose node plan keeps
one recorded plan per feed signature).

Recording. `trace(fn, inputs)` runs fn eagerly with a `Recorder` installed as `ENGINE.recorder`;
the engine reports to it from its choke points: every kernel run (`run_kernel`), every tensor
made from host values (`make_tensor`: a constant), every variable write (`assign_data`), every
read back (`read_sync`, `read`, `read_numpy`) and every host step (`run_host`: a draw that must
give new values on each call, such as the random ops).

The plan. Values live in numbered slots of one of these kinds:
  INPUT     the plan's inputs (tf.function's tensor arguments, a graph's feeds), given per call;
  CAPTURED  a tensor made before the trace (a graph model's weights): used by reference;
  CONST     a tensor made while tracing from host values, or computed only from constants
            (folded: its kernels do not run again); the plan holds a reference to its data;
  READ      a variable's data at the point of the read (its CURRENT data at replay, never a
            frozen copy); the plan holds a reference until its last reader has run;
  KERNEL    an output of a kernel step: data the plan owns, released after its last reader;
  HOST      an output of a host step (a Tensor the step made), disposed after its last reader.
Steps, in the order they ran: `_Kernel` (the resolved kernel function, input slots, attrs,
output slots with shapes and dtypes), `_Read` (a variable read), `_Assign` (a variable write:
the variable takes the slot's data), `_Host` (re-runs its Python function: new draws), and the
splits, which check values at replay: `_Split` (a kernel whose output shape depends on values)
and `_Guard` (a read back inside the traced function: the bytes it read).
Outputs sharing a kernel's input data (Reshape, Identity) share that input's root slot, and
liveness is counted per root.

Replay (`Plan.run`) calls each kernel function `fn(backend, inputs, attrs)` on the backend's
data, with no op-level Python (no argument conversion, checks, scopes or tape), releases each
root after its last reader and wraps only the outputs as Tensors in the caller's scope.

Value-dependent steps split the plan: a read of a value computed from the inputs or a variable
(data_sync, array, int(t), ...: the Python after it may branch on it) and a kernel whose output
shape depends on values (`kernels.VALUE_DEPENDENT_KERNELS`: unique, non-max suppression, sparse
and ragged host kernels). A replay checks them (the values read, the output shapes) against the
trace and raises Diverged where they differ. A trace that cannot be replayed gives no plan ("a
graph break"): a split after a variable write or a random draw (a diverging replay could not take
those back), or a tensor made outside the recorded kernels. The reason is kept; the callers then
run those calls eagerly.
"""
import array
import inspect
import os
import sys
from collections import namedtuple

from . import tensor as _tensor
from .dtypes import BYTES_PER_ELEMENT
from .engine import ENGINE
from .environment import ENV
from .tensor import Tensor, Variable
from ..kernels import VALUE_DEPENDENT_KERNELS

INPUT, CAPTURED, CONST, READ, KERNEL, HOST = range(6)

# A kernel's input at replay: what a kernel reads of a Tensor.
Value = namedtuple("Value", "data_id shape dtype size")


class GraphBreak(Exception):
    """Raised inside a trace where the record cannot be replayed; caught by trace()."""


class Diverged(Exception):
    """A replay met a split whose check failed: a kernel whose output shape depends on its input
    values gave other shapes than at the trace, or a read gave other values. The steps after it
    were recorded for the trace's, so the call must run eagerly. Raised by Plan.run before any
    variable write (a split comes before every write and random draw of its plan), with nothing
    left behind."""


def tracing_enabled():
    """Whether calls may be traced and replayed now: the TRACE_FUNCTIONS flag is on and nothing
    needs every kernel to run through the engine (a gradient tape recording, tf.profile, debug
    mode, or another trace, which records these kernels itself)."""
    e = ENGINE
    return (e.recorder is None and e.active_tape is None and e.profiling is None and not ENV.flags["DEBUG"]
            and ENV.flags["TRACE_FUNCTIONS"])


def trace(fn, inputs):
    """Run fn() eagerly while recording; inputs are the tensors that change from call to call
    (their order is the order Plan.run takes them in). Returns (result, plan, reason): plan is
    None and reason says why where the trace broke. fn runs in its own scope (as tidy): only
    its result survives. An exception from fn propagates with nothing left behind."""
    rec = Recorder(inputs, ENGINE.get_backend())
    engine = ENGINE
    engine.start_scope("trace")
    engine.recorder = rec
    try:
        result = fn()
    except BaseException:
        engine.recorder = None
        engine.end_scope(None)
        rec.abandon()
        raise
    engine.recorder = None
    if not isinstance(result, Tensor) and inspect.isawaitable(result):
        engine.end_scope(None)
        rec.abandon()
        if hasattr(result, "close"):
            result.close()   # never awaited: closed rather than left to warn
        raise TypeError("function: the traced function returned an awaitable (an async function or method, "
                        "such as model.fit or train_on_batch): a traced function runs synchronously")
    try:
        plan = rec.finish(result) if rec.reason is None else None
    except BaseException:
        engine.end_scope(result)
        rec.abandon()
        raise
    engine.end_scope(result)
    if plan is None:
        rec.abandon()
    return result, plan, rec.reason


def signature(tensors):
    """What a plan's inputs must match: each tensor's shape and dtype, and which are the same
    tensor (fn(x, x) and fn(a, b) record different plans)."""
    seen, sig = {}, []
    for t in tensors:
        j = seen.setdefault(id(t), len(seen))
        sig.append((tuple(t.shape), t.dtype, j))
    return tuple(sig)


# --- steps -------------------------------------------------------------------------------------------
class _Kernel:
    __slots__ = ("name", "fn", "ins", "attrs", "outs", "free", "made")

    def __init__(self, name, fn, ins, attrs, outs):
        self.name, self.fn, self.ins, self.attrs, self.outs = name, fn, ins, attrs, outs
        self.free = self.made = ()


class _Split(_Kernel):
    """A kernel whose output shape depends on its input values (kernels.VALUE_DEPENDENT_KERNELS: unique,
    non-max suppression, ...): replayed step by step with its outputs' shapes checked against the
    trace's (Diverged where they differ)."""
    __slots__ = ()


class _Guard:
    """A read of values computed in the plan (data_sync, array, int(t) inside the function): the
    Python after it may have used them, so a replay reads them again and raises Diverged where
    they differ from the trace's (`seen`: their bytes, or a tuple for strings)."""
    __slots__ = ("name", "ins", "seen", "outs", "free", "made")

    def __init__(self, name, slot, seen):
        self.name, self.ins, self.seen = name, (slot,), seen
        self.outs = self.free = self.made = ()


class _Read:
    __slots__ = ("var", "slot", "free", "made")

    def __init__(self, var, slot):
        self.var, self.slot = var, slot
        self.free = self.made = ()


class _Assign:
    __slots__ = ("var", "src", "free", "made")

    def __init__(self, var, src):
        self.var, self.src = var, src
        self.free = self.made = ()


class _Host:
    __slots__ = ("name", "fn", "ins", "outs", "free", "made")

    def __init__(self, name, fn, ins, outs):
        self.name, self.fn, self.ins, self.outs = name, fn, ins, outs
        self.free = self.made = ()


class _Out:
    """An output's place in the result's structure: the slot it comes from."""
    __slots__ = ("slot",)

    def __init__(self, slot):
        self.slot = slot


class _In:
    """An output that is one of the plan's inputs: the caller's tensor itself, as eager returns it."""
    __slots__ = ("index",)

    def __init__(self, index):
        self.index = index


# --- recording ------------------------------------------------------------------------------------------
class Recorder:
    """What the engine reports to while a trace runs (ENGINE.recorder); see the module docstring."""

    def __init__(self, inputs, backend_name):
        self.backend_name = backend_name
        self.first_id = next(_tensor._ids)   # tensors from here on were made during the trace
        self.kind, self.meta, self.root, self.static, self.refs = [], [], [], [], {}
        self.slot_of = {}                    # (tensor id, data id) -> slot
        self.steps = []
        self.inputs = []
        self.captured = []                   # (slot, tensor)
        self.assigned = set()                # roots some variable took
        self.reason = None
        for t in inputs:
            key = (t.id, t.data_id)
            s = self.slot_of.get(key)
            if s is None:
                s = self._new(INPUT, t)
                self.slot_of[key] = s
            self.inputs.append(s)

    def _new(self, kind, t, root=None, static=False):
        s = len(self.kind)
        self.kind.append(kind)
        self.meta.append((tuple(t.shape), t.dtype, t.size))
        self.root.append(s if root is None else root)
        self.static.append(static)
        return s

    def _own(self, s, t):
        """Keep t's data alive with the plan: a reference to the data (counted in tf.memory()'s
        bytes and buffers), not a tensor."""
        ENGINE.data[t.data_id][0] += 1
        self.refs[s] = Value(t.data_id, tuple(t.shape), t.dtype, t.size)

    def broke(self, reason):
        if self.reason is None:
            self.reason = reason + _caller()

    def _slot(self, t):
        s = self.slot_of.get((t.id, t.data_id))
        if s is not None:
            return s
        if isinstance(t, Variable):
            s = self._new(READ, t)
            self.steps.append(_Read(t, s))
        elif t.id >= self.first_id:
            raise GraphBreak(f"a tensor (shape {list(t.shape)}, {t.dtype}) was made outside the recorded kernels")
        else:
            s = self._new(CAPTURED, t, static=True)
            self.captured.append((s, t))
        self.slot_of[(t.id, t.data_id)] = s
        return s

    # --- what the engine reports --------------------------------------------------------------------
    def kernel(self, name, fn, inputs, attrs, outputs):
        if self.reason is not None:
            return
        split = name in VALUE_DEPENDENT_KERNELS
        if split and any(type(st) in (_Assign, _Host) for st in self.steps):
            # (a replay that diverges there would have written variables or drawn randoms already)
            return self.broke(f"kernel {name}: its output shape depends on the input values, and it comes after "
                              f"a variable write or a random draw")
        try:
            ins = [self._slot(t) for t in inputs]
        except GraphBreak as exc:
            return self.broke(f"kernel {name}: {exc}")
        static = all(self.static[s] for s in ins)
        by_data = {t.data_id: s for t, s in zip(inputs, ins)}
        outs = []
        for o in outputs:
            src = by_data.get(o.data_id)
            if src is None and ENGINE.data[o.data_id][0] > 1:
                return self.broke(f"kernel {name}: returned data another tensor holds")
            s = self._new(KERNEL, o, None if src is None else self.root[src], static)
            self.slot_of[(o.id, o.data_id)] = s
            if static:
                self._own(s, o)
            outs.append((s,) + self.meta[s])
        # (a copy: an op may reuse and change its attrs dict for its next kernel)
        self.steps.append((_Split if split else _Kernel)(name, fn, ins, dict(attrs), outs))

    def constant(self, t):
        if self.reason is None:
            s = self._new(CONST, t, static=True)
            self.slot_of[(t.id, t.data_id)] = s
            self._own(s, t)

    def host(self, name, fn, inputs, outputs):
        if self.reason is not None:
            return
        try:
            ins = [self._slot(t) for t in inputs]
        except GraphBreak as exc:
            return self.broke(f"{name}: {exc}")
        outs = []
        for o in outputs:
            s = self._new(HOST, o)
            self.slot_of[(o.id, o.data_id)] = s
            outs.append(s)
        self.steps.append(_Host(name, fn, ins, outs))

    def assign(self, var, value):
        if self.reason is not None:
            return
        try:
            src = self._slot(value)
        except GraphBreak as exc:
            return self.broke(f"assign to variable '{var.name}': {exc}")
        self.steps.append(_Assign(var, src))
        self.assigned.add(self.root[src])

    def read(self, t, values):
        """t's values were read back (values: what the read gave). A value computed from the
        inputs or a variable becomes a guard: a replay reads it again and goes on only where it
        is what the trace read, since the Python after the read may have used it."""
        if self.reason is not None:
            return
        s = self.slot_of.get((t.id, t.data_id))
        if s is None:
            if t.id < self.first_id and not isinstance(t, Variable):
                return   # a tensor made before: its values cannot change
        elif self.static[s]:
            return       # computed from constants and shapes only: the same on every call
        what = f"variable '{t.name}'" if isinstance(t, Variable) else \
            f"a tensor of shape {list(t.shape)} ({t.dtype})"
        if any(type(st) in (_Assign, _Host) for st in self.steps):
            # (a replay whose guard fails must leave nothing behind: no write or draw may come before it)
            return self.broke(f"reads the values of {what} (data_sync, array, data, numpy, int(t), ...) after a "
                              f"variable write or a random draw")
        try:
            s = self._slot(t)
        except GraphBreak as exc:
            return self.broke(f"reads the values of {what}: {exc}")
        if isinstance(values, array.array):
            seen = values.tobytes()
        elif isinstance(values, list):
            seen = tuple(values)
        else:   # (an ndarray: compared in the form a replay's read_sync gives)
            seen = _seen(t.data_id.backend.read_sync(t.data_id))
        self.steps.append(_Guard(f"read of {t.dtype}{list(t.shape)}{_caller()}", s, seen))

    # --- the plan ----------------------------------------------------------------------------------------------
    def abandon(self):
        for ref in self.refs.values():
            ENGINE._dec_ref(ref.data_id)
        self.refs = {}

    def _template(self, x):
        """The result's structure with each tensor replaced by where it comes from."""
        if isinstance(x, Variable):
            return x
        if isinstance(x, Tensor):
            s = self.slot_of.get((x.id, x.data_id))
            if s is None:
                if x.id >= self.first_id:
                    raise GraphBreak(f"the result holds a tensor (shape {list(x.shape)}) made outside the recorded "
                                     f"kernels")
                return x
            kind = self.kind[s]
            if kind == INPUT:
                return _In(self.inputs.index(s))
            if kind == CAPTURED:
                return x
            return _Out(s)
        if isinstance(x, (list, tuple)):
            items = [self._template(v) for v in x]
            return type(x)(items) if type(x) in (list, tuple) else type(x)(*items)
        if isinstance(x, dict):
            return {k: self._template(v) for k, v in x.items()}
        return x

    def finish(self, result):
        try:
            template = self._template(result)
        except GraphBreak as exc:
            self.broke(str(exc))
            return None
        out_slots = [o.slot for o in _markers(template, _Out)]
        kind, root, static = self.kind, self.root, self.static
        # Folding: steps computed from constants only become constants (their outputs are held).
        for s, t in list(self.refs.items()):
            if kind[s] == KERNEL:
                kind[s], root[s] = CONST, s
        steps = [st for st in self.steps if not (isinstance(st, _Kernel) and st.outs and static[st.outs[0][0]])]
        # Dead steps go (a draw nobody reads, a slot's zeros an optimizer made before its variable).
        needed = set(out_slots)
        live = []
        for st in reversed(steps):
            if isinstance(st, _Assign):
                needed.add(st.src)
            elif isinstance(st, _Guard):
                needed.update(st.ins)
            elif isinstance(st, _Read):
                if st.slot not in needed:
                    continue
            elif any((o[0] if isinstance(st, _Kernel) else o) in needed for o in st.outs):
                needed.update(st.ins)
            else:
                continue
            live.append(st)
        live.reverse()
        self.captured = [(s, t) for s, t in self.captured if s in needed]
        for s in [s for s in self.refs if s not in needed]:
            ENGINE._dec_ref(self.refs.pop(s).data_id)
        # Liveness by root: a root is released after the last step reading any slot sharing it.
        owned = (READ, KERNEL, HOST)
        out_roots = {root[s] for s in out_slots}
        last = {}
        for i, st in enumerate(live):
            if isinstance(st, _Read):
                made = [st.slot]
            elif isinstance(st, _Assign):
                last[root[st.src]] = i
                continue
            else:
                for s in st.ins:
                    last[root[s]] = i
                made = [o[0] if isinstance(st, _Kernel) else o for o in st.outs]
            st.made = tuple((s, kind[s]) for s in made if root[s] == s)
            for s, _ in st.made:
                last.setdefault(s, i)
        frees = {}
        for r, i in last.items():
            if kind[r] in owned and r not in out_roots:
                frees.setdefault(i, []).append((r, kind[r]))
        for i, st in enumerate(live):
            st.free = tuple(frees.get(i, ()))
        return Plan(self.backend_name, len(kind), self.inputs, self.captured,
                    [(s, ref) for s, ref in self.refs.items()], live, template,
                    [(r, kind[r]) for r in sorted(out_roots) if kind[r] in (READ, HOST)] +
                    [(r, KERNEL) for r in sorted(out_roots) if kind[r] == KERNEL and r in self.assigned],
                    [self.meta[s] for s in range(len(kind))], self.assigned, root, kind)


def _caller():
    """Where the user's code was when the trace broke: the innermost frame outside pytfweb."""
    frame = sys._getframe(2)
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE_DIR):
        frame = frame.f_back
    if frame is None:
        return ""
    return f" (at {os.path.basename(frame.f_code.co_filename)}:{frame.f_lineno} in {frame.f_code.co_name})"


# From this code's own file name, which is what the frames compare: in a page the package's modules
# come from the bundle's zip, their __file__ a .pyc member, their code's file the source beside it.
_PACKAGE_DIR = os.path.dirname(os.path.dirname(_caller.__code__.co_filename)) + os.sep


def _markers(x, cls):
    out = []
    stack = [x]
    while stack:
        x = stack.pop()
        if isinstance(x, cls):
            out.append(x)
        elif isinstance(x, (list, tuple)) and not isinstance(x, Tensor):
            stack.extend(x)
        elif isinstance(x, dict):
            stack.extend(x.values())
    return out


# --- replay ---------------------------------------------------------------------------------------------------
class Plan:
    """A recorded kernel plan (see the module docstring); run(inputs) replays it."""

    def __init__(self, backend_name, num_slots, inputs, captured, consts, steps, template, out_frees, meta,
                 assigned, root, kind):
        self.backend_name = backend_name
        self.generation = ENGINE.generation   # the engine state whose data the plan holds
        self.num_slots = num_slots
        self.inputs = inputs
        self.captured = captured
        self.consts = consts          # (slot, Value whose data the plan holds a reference to)
        self.steps = steps
        self.template = template
        self.out_frees = out_frees    # owned roots of outputs, released once the outputs are wrapped
        self.meta = meta              # slot -> (shape, dtype, size)
        self.assigned = assigned
        self.root = root              # slot -> the slot whose data it shares (itself if none)
        self.kind = kind              # slot -> INPUT, CAPTURED, CONST, READ, KERNEL or HOST
        self.base = [None] * num_slots
        for s, t in captured:
            self.base[s] = t
        for s, t in consts:
            self.base[s] = t
        self.single = template if isinstance(template, _Out) else None
        self.runner = None   # how run() replays (see run): made on the first replay
        self._splits = [st.name for st in steps if type(st) in (_Split, _Guard)]
        self.divergences = 0   # replays that met a split kernel's outputs of other shapes (Diverged)
        self._segments = None

    @property
    def num_steps(self):
        return len(self.steps)

    @property
    def splits(self):
        """What the plan checks at replay: the split kernels (value-dependent output shapes) and the
        reads of values inside the function (guards), by name."""
        return self._splits

    def segments(self):
        """The plan cut for a runner that runs device steps its own way (a list of Segment):
        each host step and split alone, the steps between them together."""
        if self._segments is None:
            self._segments = _segment(self)
        return self._segments

    def kernel_names(self):
        return [st.name for st in self.steps if isinstance(st, _Kernel)]

    def dispose(self):
        """Release the constants the plan holds (and its runner's resources)."""
        self.dispose_runner()
        if not self.stale:
            for _, v in self.consts:
                ENGINE._dec_ref(v.data_id)
        self.consts = []
        self.base = None

    @property
    def stale(self):
        """The engine was reset (dispose_all, reset) since the recording: the data it holds is gone."""
        return self.generation != ENGINE.generation

    def __del__(self):
        # A plan dropped without dispose() (its tf.function gone) gives its constants back.
        if self.base is not None and not self.stale:
            self.dispose()

    def run(self, inputs):
        """Replay on the plan's inputs: by the backend's runner where it has one for this plan
        (Backend.plan_runner: made on the first replay), else step by step."""
        runner = self.runner
        if runner is None:
            if not ENV.flags["PLAN_RUNNERS"]:
                return self.run_steps(inputs)
            runner = self.runner = ENGINE.backend.plan_runner(self) or _STEPS
        elif runner is not _STEPS and not ENV.flags["PLAN_RUNNERS"]:
            return self.run_steps(inputs)
        return runner.run(self, inputs)

    def dispose_runner(self):
        if self.runner is not None and self.runner is not _STEPS:
            self.runner.dispose()
        self.runner = None

    def external_values(self, inputs):
        """The slots' values a replay starts from: the constants and captured tensors, and the
        inputs (checked live and moved to the current backend)."""
        engine = ENGINE
        backend = engine.backend
        vals = self.base[:]
        for s, t in zip(self.inputs, inputs):
            if t.is_disposed_internal:
                t.throw_if_disposed("replay")
            if t.data_id.backend is not backend:
                engine._on_backend(t, backend)
            vals[s] = t
        for s, t in self.captured:
            if t.is_disposed_internal:
                t.throw_if_disposed("replay (a tensor the traced function captured)")
            if t.data_id.backend is not backend:
                engine._on_backend(t, backend)
        return vals

    def run_steps(self, inputs):
        """Replay step by step: each kernel function on the backend's data."""
        return self.finish(self.steps_values(inputs), inputs)

    def steps_values(self, inputs):
        """Run every step; returns the slots' values, outputs not yet wrapped (finish() does)."""
        vals = self.external_values(inputs)
        self.run_range(0, len(self.steps), vals)
        return vals

    def run_range(self, start, stop, vals):
        """Run steps [start, stop) step by step on vals, releasing each root after its last
        reader. Where a step raises, everything the call holds (what the steps before it made
        and did not free) is released first."""
        engine = ENGINE
        backend = engine.backend
        steps = self.steps
        i = start
        try:
            for i in range(start, stop):
                st = steps[i]
                if type(st) is _Kernel:
                    out = st.fn(backend, [vals[s] for s in st.ins], st.attrs)
                    if type(out) is list:
                        for (s, shape, dtype, size), o in zip(st.outs, out):
                            vals[s] = Value(o.data_id, shape, dtype, size)
                    else:
                        s, shape, dtype, size = st.outs[0]
                        vals[s] = Value(out.data_id, shape, dtype, size)
                elif type(st) is _Split:
                    _run_split(st, vals, backend)
                elif type(st) is _Guard:
                    _run_guard(st, vals, backend)
                else:
                    _run_other(st, vals, engine)
                if st.free:
                    _release(st.free, vals, engine)
        except BaseException:
            self.cleanup(i, vals)
            raise

    def finish(self, vals, inputs):
        """The result from the slots' values: the outputs wrapped as Tensors in the caller's
        scope, and the plan's own references to them released."""
        engine = ENGINE
        single = self.single
        if single is not None:
            v = vals[single.slot]
            out = engine._track(Tensor(v.data_id, v.shape, v.dtype))
        else:
            out = _rebuild(self.template, vals, inputs, engine)
        if self.out_frees:
            _release(self.out_frees, vals, engine)
        return out

    def cleanup(self, failed, vals):
        """After step `failed` raised (or before it, where a runner's own part did): release
        what the steps before it made and did not free. A slot a runner never gave Python (a
        value inside its program) is None: skipped."""
        alive = {}
        for st in self.steps[:failed]:
            alive.update(st.made)
            for r, _ in st.free:
                alive.pop(r, None)
        _release([(r, k) for r, k in alive.items() if vals[r] is not None], vals, ENGINE)


class Segment:
    """A part of a plan (Plan.segments) for a runner that runs device steps its own way.
    `device` False: one host step or split (a split kernel, a guard), run step by step
    (Plan.run_range). Else the steps [start, stop), with no host step or split among them, which
    a runner may run as one program of its own, giving Python only what leaves the segment:
      kernel_roots  {root: [(slot, shape, dtype, size), ...]}: data its kernels make that
                    leaves it (an output, what a variable takes, what a later segment reads)
                    and the slots Python needs of each (the runner gives each root new data);
      starts        [(kind, what)]: the data its kernels read from outside it: "in" (what: a
                    root slot Python holds: an input, a host step's output, what a segment
                    before left), "var" (what: a Variable read here before any write to it
                    here: its data when the program runs), "data" (what: the slot of a
                    constant or captured tensor);
      aliases       {root: [(slot, shape, dtype, size), ...]}: slots Python needs sharing the
                    data of a root it holds (set after the read, for a read of this segment);
      steps         the variable reads Python needs and every variable write, in order;
      variables     the variables those touch (checked live before the program runs);
      frees         what to release after them: the roots Python holds read last here.
    Segment.finish does the Python part once the program has given the kernel roots data."""
    __slots__ = ("start", "stop", "device", "kernels", "kernel_roots", "starts", "aliases", "steps", "variables",
                 "frees")

    def __init__(self, start, stop, device):
        self.start, self.stop, self.device = start, stop, device
        self.kernels = 0   # kernel steps in it
        self.kernel_roots, self.starts, self.aliases, self.steps, self.variables, self.frees = {}, [], {}, [], [], []

    def start_values(self, vals):
        """[(kind, what, data_id, per_call)]: starts and their data at this call ("data": what
        is the DataId)."""
        out = []
        for kind, what in self.starts:
            if kind == "var":
                out.append((kind, what, what.data_id, True))
            elif kind == "data":
                d = vals[what].data_id
                out.append((kind, d, d, False))
            else:
                out.append((kind, what, vals[what].data_id, True))
        return out

    def finish(self, vals):
        """The Python part, once the runner's program has given the kernel roots their data in
        vals: the aliases, the variable reads and writes, the releases."""
        engine = ENGINE
        aliases = self.aliases
        for r, slots in aliases.items():
            if vals[r] is not None:
                _alias(vals, r, slots)
        for st in self.steps:
            _run_other(st, vals, engine)
            if type(st) is _Read and st.slot in aliases:
                _alias(vals, st.slot, aliases[st.slot])
        if self.frees:
            _release(self.frees, vals, engine)


def _segment(plan):
    steps, root, kind, meta = plan.steps, plan.root, plan.kind, plan.meta
    units, unit_of = [], {}   # unit_of: slot -> the segment whose step made it
    seg = None
    for i, st in enumerate(steps):
        if type(st) in (_Host, _Split, _Guard):
            units.append(Segment(i, i + 1, False))
            seg = None
        else:
            if seg is None:
                seg = Segment(i, i, True)
                units.append(seg)
            seg.stop = i + 1
        u = units[-1]
        if type(st) is _Read:
            unit_of[st.slot] = u
        elif type(st) is not _Assign:
            for o in st.outs:
                unit_of[o if type(st) is _Host else o[0]] = u
    # What Python must hold: the outputs, what variables take, what host steps and splits read,
    # every root a segment's kernels read that another segment made, and the roots of all these
    # (an alias is set from its root's data).
    needs = {o.slot for o in _markers(plan.template, _Out)}
    for u in units:
        for st in steps[u.start:u.stop]:
            if type(st) is _Assign:
                needs.add(st.src)
            elif not u.device:
                needs.update(st.ins)
            elif type(st) is _Kernel:
                u.kernels += 1
                needs.update(root[s] for s in st.ins if unit_of.get(root[s], u) is not u)
    needs.update([root[s] for s in needs])
    held = set()              # the roots of device segments Python holds
    for s in needs:
        u, r = unit_of.get(s), root[s]
        if u is None or not u.device:
            continue          # an input's, a constant's or a step-by-step step's: in vals already
        if kind[r] == KERNEL and unit_of[r] is u:
            u.kernel_roots.setdefault(r, []).append((s,) + tuple(meta[s]))
        elif s != r:
            u.aliases.setdefault(r, []).append((s,) + tuple(meta[s]))
        if unit_of.get(r) is u:
            held.add(r)
    for u in units:
        if not u.device:
            continue
        assigned, seen, read_var = set(), set(), {}
        for st in steps[u.start:u.stop]:
            if type(st) is _Assign:
                assigned.add(id(st.var))
                u.steps.append(st)
            elif type(st) is _Read:
                if id(st.var) not in assigned:
                    read_var[st.slot] = st.var
                if st.slot in held:
                    u.steps.append(st)
            else:
                for s in st.ins:
                    r = root[s]
                    if r in seen or unit_of.get(r) is u and kind[r] != READ:
                        continue
                    seen.add(r)
                    if kind[r] in (CONST, CAPTURED):
                        u.starts.append(("data", r))
                    elif unit_of.get(r) is not u:
                        u.starts.append(("in", r))
                    elif r in read_var:
                        u.starts.append(("var", read_var[r]))
                    # (else a read after a write here: the written data, the program's own)
            for r, k in st.free:
                if k == HOST or r in held or not unit_of[r].device:
                    u.frees.append((r, k))
        u.variables = list({id(st.var): st.var for st in u.steps}.values())
    return units


def _alias(vals, r, slots):
    d = vals[r].data_id
    for s, shape, dtype, size in slots:
        vals[s] = Value(d, shape, dtype, size)


class _StepRunner:
    """Replay step by step (Plan.run_steps): where the backend has no runner for a plan."""

    @staticmethod
    def run(plan, inputs):
        return plan.run_steps(inputs)


_STEPS = _StepRunner()


def _run_split(st, vals, backend):
    out = st.fn(backend, [vals[s] for s in st.ins], st.attrs)
    out = out if type(out) is list else [out]
    if any(tuple(o.shape) != shape for (_, shape, _, _), o in zip(st.outs, out)):
        for o in out:
            backend.dispose_data(o.data_id)
        raise Diverged(f"kernel {st.name} gave outputs of shapes {[list(o.shape) for o in out]}, the trace "
                       f"{[list(shape) for _, shape, _, _ in st.outs]}")
    for (s, shape, dtype, size), o in zip(st.outs, out):
        vals[s] = Value(o.data_id, shape, dtype, size)


def _run_guard(st, vals, backend):
    seen = _seen(backend.read_sync(vals[st.ins[0]].data_id))
    if seen != st.seen:
        raise Diverged(f"the {st.name} gave other values than at the trace")


def _seen(values):
    return values.tobytes() if isinstance(values, array.array) else tuple(values)


def _run_other(st, vals, engine):
    if type(st) is _Read:
        var = st.var
        if var.is_disposed_internal:
            var.throw_if_disposed("replay (a variable the traced function reads)")
        d = var.data_id
        if d.backend is not engine.backend:
            engine._on_backend(var, engine.backend)
        engine.data[d][0] += 1
        vals[st.slot] = Value(d, var.shape, var.dtype, var.size)
    elif type(st) is _Assign:
        if st.var.is_disposed_internal:
            st.var.throw_if_disposed("replay (a variable the traced function assigns)")
        v = vals[st.src]
        d = v.data_id
        entry = engine.data.get(d)
        if entry is None:   # data the plan owns: from here the variable holds it too
            nbytes = v.size * BYTES_PER_ELEMENT[v.dtype]
            engine.data[d] = [2, nbytes]
            engine.num_bytes += nbytes
        else:
            entry[0] += 1
        var = st.var
        d.backend.settle(d)
        old = var.data_id
        var.data_id = d
        engine._dec_ref(old)
    else:
        args = [v if isinstance(v, Tensor) else Tensor(v.data_id, v.shape, v.dtype) for v in (vals[s] for s in st.ins)]
        out = st.fn(*args)
        for s, t in zip(st.outs, out if isinstance(out, (list, tuple)) else [out]):
            t.kept = True   # the plan disposes it after its last reader
            vals[s] = t


def _release(frees, vals, engine):
    for s, kind in frees:
        v = vals[s]
        if kind == KERNEL:
            d = v.data_id
            if d in engine.data:
                engine._dec_ref(d)
            else:
                d.backend.dispose_data(d)
        elif kind == READ:
            engine._dec_ref(v.data_id)
        else:
            engine.dispose_tensor(v)


def _rebuild(x, vals, inputs, engine):
    if isinstance(x, _Out):
        v = vals[x.slot]
        return engine._track(Tensor(v.data_id, v.shape, v.dtype))
    if isinstance(x, _In):
        return inputs[x.index]
    if isinstance(x, Tensor):
        return x
    if isinstance(x, (list, tuple)):
        items = [_rebuild(v, vals, inputs, engine) for v in x]
        return type(x)(items) if type(x) in (list, tuple) else type(x)(*items)
    if isinstance(x, dict):
        return {k: _rebuild(v, vals, inputs, engine) for k, v in x.items()}
    return x


__all__ = ["Plan", "Segment", "Recorder", "GraphBreak", "Diverged", "trace", "signature", "tracing_enabled"]
