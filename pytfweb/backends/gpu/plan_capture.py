"""What a GPU backend's plan runner is built from: the commands one step-by-step replay of a
recorded plan (core/plan.py) gave the GPU, turned into a program of commands over a table of
resources (textures on webgl, buffers on webgpu) that later calls issue in one call.

A capture is the list of events of one replay, in order:
  ("cmd", key, outs, ins, extra)  a draw or dispatch writing the resources `outs` and reading `ins`
                                  (`key` and `extra` are the backend's: its program, its uniforms);
  ("upload", res, payload)        values written from the host into `res` (a constant: the inputs'
                                  and variables' values are on the GPU before the capture starts, so
                                  an upload inside it holds values a kernel made from attributes
                                  and shapes only).
Resources are JS objects compared by identity; the same object is recycled between data, so what
a resource holds at a point is followed through the events ("flow"): a read sees the value of
the last write before it, or, for a resource not yet written, the external value it held when the
capture began (`externals`: a plan input, a variable, a captured weight, ...).

`analyze` gives a `Program`: the commands still needed for the escaping values (the plan's
outputs and what variables take) over a table [externals | escaping | constants | internals]:
  externals  per call: the current resource of each external the commands read;
  escaping   per call: new resources the values leave the call in;
  constants  owned by the runner, written once at build;
  internals  owned by the runner and reused from call to call: the memory plan gives every other
             value a resource of its kind (`dims`), shared between values whose lives (first write
             to last read) do not overlap, so a steady call allocates nothing.
A value is never given a resource one of the same command's inputs holds (a draw may not read
the texture it writes)."""
from collections import defaultdict


class CaptureFailed(Exception):
    """The capture cannot be replayed as a program of commands (the reason says why)."""


class Program:
    __slots__ = ("externals", "escaping", "constants", "internals", "cmds")

    def __init__(self, externals, escaping, constants, internals, cmds):
        self.externals = externals   # [external key] in table order
        self.escaping = escaping     # [dims] in table order (after the externals)
        self.constants = constants   # [(dims, payload)]
        self.internals = internals   # [dims]
        self.cmds = cmds             # [(key, [table index of each out], [table index of each in], extra)]

    def table_size(self):
        return len(self.externals) + len(self.escaping) + len(self.constants) + len(self.internals)


class _Value:
    __slots__ = ("kind", "ref", "dims", "last", "slot")

    def __init__(self, kind, ref, dims):
        self.kind, self.ref, self.dims = kind, ref, dims   # kind: "ext" | "const" | "out"
        self.last = -1        # index of the last command reading it
        self.slot = None


def analyze(events, externals, escaping, dims):
    """events: the capture (above); externals: id(resource) -> external key for the resources
    holding values from outside at the start; escaping: the resources holding the escaping
    values at the end, in order; dims_of(resource) -> its kind for sharing (size, format).
    Raises CaptureFailed where a command reads a resource whose value the capture cannot name."""
    current = {}                 # id(resource) -> _Value it holds now
    cmds = []                    # (key, [out values], [in values], extra)
    ext_values = {}
    for ev in events:
        if ev[0] == "upload":
            _, res, payload = ev
            current[id(res)] = _Value("const", payload, _dims(dims, res))
            continue
        _, key, outs, ins, extra = ev
        in_values = []
        for res in ins:
            v = current.get(id(res))
            if v is None:
                ext = externals.get(id(res))
                if ext is None:
                    raise CaptureFailed("a command read a GPU resource that holds no value the plan names "
                                        "(made outside the recorded kernels)")
                v = current[id(res)] = ext_values.get(id(res))
                if v is None:
                    v = current[id(res)] = ext_values[id(res)] = _Value("ext", ext, None)
            v.last = len(cmds)
            in_values.append(v)
        out_values = []
        for res in outs:
            v = current[id(res)] = _Value("out", None, _dims(dims, res))
            out_values.append(v)
        cmds.append((key, out_values, in_values, extra))
    escaping_values = []
    for res in escaping:
        v = current.get(id(res))
        if v is None or v.kind != "out" or any(v is e for e in escaping_values):
            raise CaptureFailed("an output or a variable's new value was not written by a recorded command")
        escaping_values.append(v)
    return _plan(cmds, escaping_values)


def _dims(dims, res):
    d = dims.get(id(res))
    if d is None:
        raise CaptureFailed("a command wrote a GPU resource the capture did not see made")
    return d


def _plan(cmds, escaping_values):
    # Only the commands the escaping values need (lazy fusion may leave a draw nobody reads).
    escaping_ids = {id(v) for v in escaping_values}
    needed = set(escaping_ids)
    kept = []
    for cmd in reversed(cmds):
        if any(id(v) in needed for v in cmd[1]):
            needed.update(id(v) for v in cmd[2])
            kept.append(cmd)
    kept.reverse()
    # Reads were numbered over all commands: number them again over the kept ones.
    for cmd in kept:
        for v in cmd[1] + cmd[2]:
            v.last = -1
    for i, cmd in enumerate(kept):
        for v in cmd[2]:
            v.last = i
    externals, constants, internals = [], [], []
    for i, v in enumerate(escaping_values):
        v.slot = ("escaping", i)
    free = defaultdict(list)     # dims -> [internal index] free before the current command
    expire = defaultdict(list)   # command index -> internal values read last there
    out_cmds = []
    for i, (key, outs, ins, extra) in enumerate(kept):
        for v in ins:
            if v.slot is None:
                if v.kind == "ext":
                    v.slot = ("ext", len(externals))
                    externals.append(v.ref)
                else:   # a constant
                    v.slot = ("const", len(constants))
                    constants.append((v.dims, v.ref))
        for v in outs:
            if v.slot is None:
                pool = free[v.dims]
                if pool:
                    v.slot = ("int", pool.pop())
                else:
                    v.slot = ("int", len(internals))
                    internals.append(v.dims)
                expire[max(v.last, i)].append(v)
        out_cmds.append((key, outs, ins, extra))
        for v in expire.pop(i, ()):
            free[v.dims].append(v.slot[1])
    base = {"ext": 0, "escaping": len(externals), "const": len(externals) + len(escaping_values)}
    base["int"] = base["const"] + len(constants)

    def index(v):
        kind, k = v.slot
        return base[kind] + k
    program_cmds = [(key, [index(v) for v in outs], [index(v) for v in ins], extra)
                    for key, outs, ins, extra in out_cmds]
    return Program(externals, [v.dims for v in escaping_values], constants, internals, program_cmds)


__all__ = ["CaptureFailed", "Program", "analyze"]
