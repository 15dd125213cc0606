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
the variable takes the slot's data) and `_Host` (re-runs its Python function: new draws).
Outputs sharing a kernel's input data (Reshape, Identity) share that input's root slot, and
liveness is counted per root.

Replay (`Plan.run`) calls each kernel function `fn(backend, inputs, attrs)` on the backend's
data, with no op-level Python (no argument conversion, checks, scopes or tape), releases each
root after its last reader and wraps only the outputs as Tensors in the caller's scope.

A trace that cannot be replayed blindly gives no plan ("a graph break"): a read of a value
computed from the inputs or a variable (data_sync, array, int(t), ...), a kernel whose output
shape depends on values (`kernels.VALUE_DEPENDENT_KERNELS`: unique, non-max suppression,
sparse and ragged host kernels), or a tensor made outside the recorded kernels. The reason is
kept; the callers then run those calls eagerly.
"""
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
    """A replay met a split kernel (a kernel whose output shape depends on its input values) whose
    outputs this time have other shapes than at the trace: the kernels after it were recorded for
    those shapes, so the call must run eagerly. Raised by Plan.run before any variable write (a
    split comes before every write and random draw of its plan), with nothing left behind."""


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

    def read(self, t):
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
        self.broke(f"reads the values of {what} (data_sync, array, data, numpy, int(t), ...)")

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
        self._splits = [st.name for st in steps if type(st) is _Split]
        self.divergences = 0   # replays that met a split kernel's outputs of other shapes (Diverged)

    @property
    def num_steps(self):
        return len(self.steps)

    @property
    def splits(self):
        """The names of the split kernels (value-dependent output shapes) the plan checks at replay."""
        return self._splits

    @property
    def has_host_steps(self):
        return any(type(st) is _Host for st in self.steps)

    def escaping(self):
        """What a runner that leaves no value of its own must hand back to Python (an Escaping)."""
        return Escaping(self)

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
            if not ENV.flags["PLAN_RUNNERS"] or self._splits:
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
        engine = ENGINE
        backend = engine.backend
        vals = self.external_values(inputs)
        i = 0
        try:
            for i, st in enumerate(self.steps):
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
                else:
                    _run_other(st, vals, engine)
                if st.free:
                    _release(st.free, vals, engine)
        except BaseException:
            self._cleanup(i, vals, engine)
            raise
        return vals

    def finish(self, vals, inputs, tail=None):
        """The result from the slots' values: a runner's `tail` (an Escaping) first runs the
        variable reads and writes it left to Python; then the outputs are wrapped as Tensors in
        the caller's scope and the plan's own references to them released."""
        engine = ENGINE
        if tail is not None:
            aliases = tail.aliases
            for r, slots in aliases.items():
                if vals[r] is not None:
                    _alias(vals, r, slots, self.meta)
            for st in tail.steps:
                _run_other(st, vals, engine)
                if type(st) is _Read and st.slot in aliases:
                    _alias(vals, st.slot, aliases[st.slot], self.meta)
        single = self.single
        if single is not None:
            v = vals[single.slot]
            out = engine._track(Tensor(v.data_id, v.shape, v.dtype))
        else:
            out = _rebuild(self.template, vals, inputs, engine)
        if self.out_frees:
            _release(self.out_frees, vals, engine)
        if tail is not None and tail.frees:
            _release(tail.frees, vals, engine)
        return out

    def _cleanup(self, failed, vals, engine):
        """After step `failed` raised: release what the steps before it made and did not free."""
        alive = {}
        for st in self.steps[:failed]:
            alive.update(st.made)
            for r, _ in st.free:
                alive.pop(r, None)
        _release(list(alive.items()), vals, engine)


class Escaping:
    """What leaves a call of `plan`, for a runner that computes the kernels' values its own way:
      slots         the outputs' slots and the slots variables take, sorted;
      kernel_roots  {root: [(slot, shape, dtype, size), ...]}: the kernel-made data among them and
                    the slots sharing each (the runner gives each root new data per call);
      steps         the variable reads and writes, in order, left to Python (Plan.finish runs them);
      aliases       {root: [slot, ...]}: slots sharing an input's, a constant's or a read's data;
      frees         what Plan.finish releases after the outputs are wrapped: the reads it made
                    and the plan's reference to data only variables took."""

    def __init__(self, plan):
        root, kind, meta = plan.root, plan.kind, plan.meta
        out_slots = {o.slot for o in _markers(plan.template, _Out)}
        slots = set(out_slots)
        slots.update(st.src for st in plan.steps if type(st) is _Assign)
        self.slots = sorted(slots)
        roots = {root[s] for s in slots}
        out_roots = {root[s] for s in out_slots}
        self.kernel_roots = {}
        self.aliases = {}
        for s in self.slots:
            r = root[s]
            if kind[r] == KERNEL:
                self.kernel_roots.setdefault(r, []).append((s,) + tuple(meta[s]))
            elif s != r:
                self.aliases.setdefault(r, []).append(s)
        self.steps = [st for st in plan.steps if type(st) is _Assign or (type(st) is _Read and st.slot in roots)]
        self.frees = [(st.slot, READ) for st in self.steps if type(st) is _Read and st.slot not in out_roots]
        self.frees += [(r, KERNEL) for r in sorted(self.kernel_roots) if r not in out_roots]


def _alias(vals, r, slots, meta):
    d = vals[r].data_id
    for s in slots:
        vals[s] = Value(d, *meta[s])


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


__all__ = ["Plan", "Recorder", "GraphBreak", "Diverged", "trace", "signature", "tracing_enabled"]
