"""A plan runner for small elementwise plans on webgl and webgpu: the whole plan as ONE
JavaScript function over typed arrays, run on the CPU, as TF.js's GPU backends forward a kernel
whose inputs are small and CPU-side to their CPU kernels (WEBGL_CPU_FORWARD below 128 values,
WEBGPU_CPU_FORWARD below 1000). A draw, its SwiftShader execution and above all the readback of
its result cost milliseconds; 1000 small adds in JavaScript cost far less.

Chosen (`forward_runner`) where every step of a plan is an elementwise kernel the JavaScript
renderer covers (elementwise_js.kernel_op: the unary and binary table kernels, Cast, Select) and
every value of the plan has fewer elements than the backend's threshold. A call runs on the CPU
where every value the plan starts from (inputs, captured tensors, constants) has CPU-side values
(data written from the host, or read back: the backends keep them); otherwise, and with the flag
off, it goes to the backend's GPU runner, made on first need. The outputs are written as CPU-side
data (backend.write): no texture or buffer until a GPU kernel needs them (uploaded then, as any
host data), and reading them back costs nothing.

The program (compile_steps), made once per plan by `new Function`: the op functions its steps call
(rendered from the elementwise IR), one small loop function per distinct (op, operand index
modes), the steps as rows [loop, output, size, operands, index tables] walked by a short loop,
intermediates in arrays the program owns (shared between values whose lives do not overlap), each
broadcast operand read through an index table built with the program; a call takes the externals'
typed arrays and returns the outputs' (new arrays per call: they become the data). Why rows and
not inlined code: V8 does not optimize a function of 1000 inlined loops (measured: 7 ms a call for
1000 adds of 64 values), and one loop over the elements with every step inside it chains each
element's 1000 steps serially (0.6-0.9 ms); the rows take 0.2-0.4 ms under node.

The decision is made once per plan, when Plan.run first asks the backend (flags and threshold as
they are then); the flag is read again on every call (off: the GPU runner)."""
import array

from ...core.dtypes import TYPECODES
from ...core.engine import ENGINE
from ...core.environment import CPU_FORWARD_FLAGS as FLAGS, ENV
from ...core.plan import Value, _Kernel
from ...core.shapes import strides_of
from . import elementwise_js as ejs
from . import js_program


def forward_runner(backend, plan, gpu_runner):
    """The plan runner a GPU backend gives for `plan` (Backend.plan_runner): a CpuForwardRunner
    where the plan is small and elementwise (see the module docstring), else gpu_runner() itself.
    gpu_runner: makes the backend's own runner (called at most once)."""
    program = None
    on, _ = FLAGS[backend.name]
    if ENV.flags[on]:
        program = compile_plan(plan, ENV.flags[FLAGS[backend.name][1]])
    if program is None:
        return gpu_runner()
    return CpuForwardRunner(backend, program, gpu_runner)


class Program:
    """A plan compiled to JavaScript: `source` (the body of a Function returning the call's
    function), `externals` (the slots whose data it takes, in order) and `outputs` ((slot, shape,
    dtype, size) of the data it returns, in order)."""

    def __init__(self, source, externals, outputs):
        self.source, self.externals, self.outputs = source, externals, outputs


def compile_plan(plan, threshold):
    """The Program of a plan, or None where some step is not an elementwise kernel the JavaScript
    covers, or some value has `threshold` elements or more."""
    steps = []
    made = {}
    for st in plan.steps:
        if type(st) is not _Kernel or len(st.outs) != 1:
            return None
        s, shape, dtype, size = st.outs[0]
        # (plan.root, plan.meta: the slots' roots and (shape, dtype, size), as the GPU runners read them)
        if plan.root[s] != s:   # (the kernel returned its input's data: nothing to compute)
            return None
        ins = [(t,) + tuple(plan.meta[t]) for t in st.ins]
        found = ejs.kernel_op(st.name, [m[2] for m in ins], dtype, st.attrs)
        if found is None:
            return None
        steps.append((found[0], found[1], ins, (s, tuple(shape), dtype, size)))
        made[s] = True
    if not steps:
        return None
    return compile_steps(steps, [s for s in _output_slots(plan.template) if s in made], threshold)


def _output_slots(template):
    from ...core.plan import _markers, _Out
    return sorted({o.slot for o in _markers(template, _Out)})


def compile_steps(steps, out_slots, threshold=None):
    """A Program from steps [(Op, {attribute: literal}, [(slot, shape, dtype, size)] of the operands,
    (slot, shape, dtype, size) of the output)]; out_slots: the made slots the call returns. None
    where a value has `threshold` elements or more."""
    made = {o[0]: o for _, _, _, o in steps}
    externals, ext_meta = [], {}
    for _, _, ins, _ in steps:
        for m in ins:
            if m[0] not in made and m[0] not in ext_meta:
                ext_meta[m[0]] = m
                externals.append(m[0])
    metas = list(made.values()) + list(ext_meta.values())
    if threshold is not None and any(m[3] >= threshold for m in metas):
        return None
    outputs = [made[s] for s in out_slots]
    functions = []
    for op, _, _, _ in steps:
        functions.extend(f for f in op.functions if f not in functions)
    outs = {o[0] for o in outputs}
    last = {}
    for k, (_, _, ins, _) in enumerate(steps):
        for m in ins:
            last[m[0]] = k
    kernels, rows, tables, scratch, free = {}, [], [], [], {}
    at = {}   # slot -> its index in the program's array of values (dense: a packed JS array)
    for slot in externals + [o[0] for o in outputs] + [o[0] for _, _, _, o in steps]:
        at.setdefault(slot, len(at))
    for k, (op, attrs, ins, (s, shape, dtype, size)) in enumerate(steps):
        if s not in outs:   # an intermediate: an array of the program's, reused once its value is dead
            pool = free.setdefault((dtype, size), [])
            if not pool:
                scratch.append((at[s], f"new {ejs.TYPED_ARRAYS[dtype]}({size})"))
            else:
                scratch.append((at[s], f"A[{at[pool.pop()]}]"))
        reads = [_index(m, shape, size, tables) for m in ins]
        text = op.store(op.expr([f"x{j}" for j in range(len(ins))], attrs), dtype)
        loads = "".join(f" const x{j} = a{j}[{f't{j}[i]' if r.startswith('T') else r}];" for j, r in enumerate(reads))
        body = f"for (let i = 0; i < n; i++) {{{loads} o[i] = {text}; }}"
        name = kernels.setdefault(body, f"k{len(kernels)}")
        rows.append((name, [str(at[s]), str(size)], [str(at[m[0]]) for m in ins],
                     [r[:-3] if r.startswith("T") else "null" for r in reads]))   # (T[k] of a "T[k][i]" read)
        for m in dict((m[0], m) for m in ins).values():
            if last[m[0]] == k and m[0] in made and m[0] not in outs:
                free.setdefault((m[2], m[3]), []).append(m[0])
    # One function per distinct loop (an op on given index modes), small enough for the JIT to
    # optimize; the plan is data (a row per step) walked by a small loop: a function of 1000
    # inlined loops is too large for V8 to optimize, and one loop over the elements with all steps
    # inside chains each element's steps serially.
    lines = []
    arity = max(len(ins) for _, _, ins, _ in steps)
    params = ", ".join(["o", "n"] + [f"a{j}" for j in range(arity)] + [f"t{j}" for j in range(arity)])
    for body, name in kernels.items():
        lines.append(f"function {name}({params}) {{ {body} }}")
    lines.append(f"const A = new Array({len(at)}).fill(null);")
    lines += [f"A[{s}] = {init};" for s, init in scratch]
    lines.append(f"const T = [{', '.join('new Int32Array([' + ', '.join(map(str, t)) + '])' for t in tables)}];")
    pad = lambda xs, v: xs + [v] * (arity - len(xs))   # noqa: E731  (every row of one length)
    rows = [f"[{name}, {', '.join(head + pad(ins, '0') + pad(tabs, 'null'))}]" for name, head, ins, tabs in rows]
    lines.append(f"const S = [{', '.join(rows)}];")
    call = ", ".join(["A[r[1]]", "r[2]"] + [f"A[r[{3 + j}]]" for j in range(arity)]
                     + [f"r[{3 + arity + j}]" for j in range(arity)])
    lines.append(f"return function plan({', '.join(f'e{s}' for s in externals)}) {{")
    lines += [f"  A[{at[s]}] = e{s};" for s in externals]
    lines += [f"  A[{at[o[0]]}] = new {ejs.TYPED_ARRAYS[o[2]]}({o[3]});" for o in outputs]
    lines.append(f"  for (let k = 0; k < {len(rows)}; k++) {{ const r = S[k]; r[0]({call}); }}")
    lines.append(f"  const out = [{', '.join(f'A[{at[o[0]]}]' for o in outputs)}];")
    lines += [f"  A[{at[s]}] = null;" for s in externals + [o[0] for o in outputs]]   # (nothing kept between calls)
    lines.append("  return out;")
    lines.append("};")
    head = [ejs.PRELUDE, ejs.source(*functions) if functions else ""]
    return Program("\n".join(head + lines), externals, outputs)


def _index(meta, out_shape, out_size, tables):
    """How the loop over the output reads operand `meta`: "i", "0", or "T[k][i]" (through index
    table k, appended to `tables`)."""
    _, shape, _, size = meta
    if size == out_size:
        return "i"
    if size == 1:
        return "0"
    rank = len(out_shape)
    shape = (1,) * (rank - len(shape)) + tuple(shape)
    strides = strides_of(shape)
    table = []
    for i in range(out_size):
        j, rest = 0, i
        for d in range(rank):
            block = 1
            for e in out_shape[d + 1:]:
                block *= e
            c, rest = divmod(rest, block)
            if shape[d] != 1:
                j += c * strides[d]
        table.append(j)
    tables.append(table)
    return f"T[{len(tables) - 1}][i]"


class CpuForwardRunner:
    """Runs a compiled Program (see the module docstring); `replays` counts the calls it ran,
    `gpu_calls` those it handed to the GPU runner."""

    def __init__(self, backend, program, gpu_runner):
        self.backend = backend
        self.program = program
        self._make_gpu = gpu_runner
        self.gpu = None
        self.fn = None
        self.replays = 0
        self.gpu_calls = 0
        self._inputs = {}   # data_id -> (values, JS typed array): the last call's, reused while the same
        self._types = [(TYPECODES[d], ejs.TYPED_ARRAYS[d]) for _, _, d, _ in program.outputs]

    def run(self, plan, inputs):
        backend = self.backend
        if not ENV.flags[FLAGS[backend.name][0]] or ENGINE.backend is not backend:
            return self._on_gpu(plan, inputs)
        vals = plan.external_values(inputs)
        store, pending = backend.store, backend.pending
        args, cache = [], {}
        for s in self.program.externals:
            data_id = vals[s].data_id
            d = None if data_id in pending else store.get(data_id)
            values = None if d is None else d.values
            if values is None:
                return self._on_gpu(plan, inputs)
            cache[data_id] = self._js_array(data_id, values, d.dtype)
            args.append(cache[data_id][1])
        self._inputs = cache
        fn = self.fn
        if fn is None:
            fn = self.fn = js_program.compile_program(self.program.source)
        outs = js_program.call(fn, args)
        write = backend.write
        for (s, shape, dtype, size), (tc, _), out in zip(self.program.outputs, self._types, outs):
            values = array.array(tc)
            values.frombytes(out.to_bytes())
            vals[s] = Value(write(values, shape, dtype), shape, dtype, size)
        self.replays += 1
        return plan.finish(vals, inputs)

    def _js_array(self, data_id, values, dtype):
        hit = self._inputs.get(data_id)
        if hit is not None and hit[0] is values:
            return hit
        import js
        arr = getattr(js, ejs.TYPED_ARRAYS[dtype]).new(len(values))
        arr.assign(values)
        return values, arr

    def _on_gpu(self, plan, inputs):
        self.gpu_calls += 1
        if self.gpu is None:
            self.gpu = self._make_gpu()
        return self.gpu.run(plan, inputs)

    def dispose(self):
        self._inputs = {}
        self.fn = None
        if self.gpu is not None:
            self.gpu.dispose()
            self.gpu = None


__all__ = ["forward_runner", "compile_plan", "compile_steps", "CpuForwardRunner", "Program", "FLAGS"]
