"""The cpu backend's plan runner (Backend.plan_runner): a recorded plan (core/plan.py) compiled
once into a flat list of calls, each a numpy call on arrays with no per-step Python beyond it.

Slots live as numpy arrays in one list. A kernel of a hot family (elementwise ufuncs with
broadcasting, casts, matmul, reductions, softmax, relu and their gradients, reshapes) runs as the
numpy call its kernel function makes, writing with `out=` into a buffer allocated at compile time
and reused on every call (buffers are shared between slots whose lives do not overlap). Any
other kernel runs as its kernel function, on the arrays given temporary DataIds, so every kernel
replays correctly. A compiled call gives the kernel function's bits: it is the same ufunc on the
same dtypes (checked when compiling: a kernel whose numpy result dtype would differ from its
output's, which the kernel function casts, is not compiled), and numpy's result does not depend
on whether it writes into `out`.

What escapes a call gets fresh arrays under new DataIds, as a step-by-step replay makes them: the
plan's outputs, what variables take, what host steps (random draws) read. Variable reads and
writes, host steps and the wrapping of outputs go through core/plan.py's own functions
(`_run_other`, `_release`, `Plan.finish`), so references, tf.memory() and errors are the same as
Plan.run_steps gives."""
import functools

import numpy as np

from ...core.engine import ENGINE
from ...core.plan import (CAPTURED, CONST, HOST, INPUT, KERNEL, READ, Value, _Assign, _Host, _markers, _Out,
                          _Read, _release, _run_other)
from ...core.tensor import DataId
from ...kernels import get_kernel
from .np_dtypes import NP_DTYPES

# dtypes a compiled call handles (strings and complex values go to their kernel functions)
_NUMERIC = {"float32": np.float32, "int32": np.int32, "bool": np.bool_}
_F32 = np.dtype(np.float32)

BINARY_UFUNCS = {
    "Add": np.add, "Sub": np.subtract, "Multiply": np.multiply, "RealDiv": np.true_divide,
    "Maximum": np.maximum, "Minimum": np.minimum, "Equal": np.equal, "NotEqual": np.not_equal,
    "Greater": np.greater, "GreaterEqual": np.greater_equal, "Less": np.less, "LessEqual": np.less_equal,
    "LogicalAnd": np.logical_and, "LogicalOr": np.logical_or, "Atan2": np.arctan2, "BitwiseAnd": np.bitwise_and,
}
UNARY_UFUNCS = {
    "Neg": np.negative, "Abs": np.absolute, "Exp": np.exp, "Log": np.log, "Log1p": np.log1p, "Sqrt": np.sqrt,
    "Tanh": np.tanh, "Sin": np.sin, "Cos": np.cos, "Floor": np.floor, "Ceil": np.ceil, "LogicalNot": np.logical_not,
    "Acos": np.arccos, "Acosh": np.arccosh, "Asin": np.arcsin, "Asinh": np.arcsinh, "Atan": np.arctan,
    "Atanh": np.arctanh, "Cosh": np.cosh, "Sinh": np.sinh, "Tan": np.tan, "Expm1": np.expm1, "IsNan": np.isnan,
    "IsInf": np.isinf, "IsFinite": np.isfinite,
}
_SHARED = ("Identity", "Reshape", "ExpandDims")   # the output is the input's data, relabelled

_natural_cache = {}


def _natural(uf, *dtypes):
    """The dtype numpy gives uf on arrays of these dtypes (None where it refuses them)."""
    key = (uf,) + dtypes
    if key not in _natural_cache:
        try:
            with np.errstate(all="ignore"):
                _natural_cache[key] = np.dtype(uf(*(np.zeros((), d) for d in dtypes)).dtype)
        except TypeError:
            _natural_cache[key] = None
    return _natural_cache[key]


def _broadcast(*shapes):
    try:
        return tuple(np.broadcast_shapes(*shapes))
    except ValueError:
        return None


# --- compiled kernel families ------------------------------------------------------------------------------
# Each gives compute(out, *inputs) writing the kernel's result into out (or a ufunc called as
# uf(*inputs, out)), or None where the kernel function must run (a dtype or shape it handles
# differently). ins: the inputs' (shape, dtype); out: the output's.

def _compile_binary(name, ins, out, attrs):
    (sa, da), (sb, db) = ins
    if da not in _NUMERIC or db not in _NUMERIC or _broadcast(sa, sb) != out[0]:
        return None
    want = np.dtype(NP_DTYPES[out[1]])
    if name == "SquaredDifference":   # the kernel: (a - b) * (a - b)
        if _natural(np.subtract, _NUMERIC[da], _NUMERIC[db]) != want or _natural(np.multiply, want, want) != want:
            return None
        return _compute_squared_difference
    if name in ("ReluGrad",):   # where(x > 0, dy, zeros_like(dy))
        if sa != sb or da != "float32" or db != "float32":
            return None
        mask = np.empty(sa, np.bool_)

        def relu_grad(o, dy, x):
            np.greater(x, 0, mask)
            o.fill(0)
            np.copyto(o, dy, where=mask)
        return relu_grad
    uf = BINARY_UFUNCS[name]
    if _natural(uf, _NUMERIC[da], _NUMERIC[db]) != want:
        return None
    return uf


def _compute_squared_difference(o, a, b):
    np.subtract(a, b, o)
    np.multiply(o, o, o)


def _compile_unary(name, ins, out, attrs):
    ((sx, dx),) = ins
    if dx not in _NUMERIC or sx != out[0] or attrs:
        return None
    want = np.dtype(NP_DTYPES[out[1]])
    uf = UNARY_UFUNCS.get(name)
    if uf is not None:
        return uf if _natural(uf, _NUMERIC[dx]) == want else None
    if name == "Square":   # the kernel: x * x
        return _square if _natural(np.multiply, _NUMERIC[dx], _NUMERIC[dx]) == want else None
    if name == "Relu" and dx in ("float32", "int32") and want == np.dtype(_NUMERIC[dx]):
        mask = np.empty(sx, np.bool_)

        def relu(o, x):   # the kernel: where(x < 0, 0, x): NaN and -0 kept
            np.less(x, 0, mask)
            np.copyto(o, x)
            np.copyto(o, 0, where=mask)
        return relu
    if dx != "float32" or want != _F32:
        return None
    if name == "Sigmoid":
        return _sigmoid
    if name == "Rsqrt":
        return _rsqrt
    if name == "Reciprocal":
        return _reciprocal
    return None


def _square(o, x):
    np.multiply(x, x, o)


def _sigmoid(o, x):   # the kernel: 1 / (1 + exp(-x))
    np.negative(x, o)
    np.exp(o, o)
    np.add(1, o, o)
    np.divide(1, o, o)


def _rsqrt(o, x):     # 1 / sqrt(x)
    np.sqrt(x, o)
    np.divide(1, o, o)


def _reciprocal(o, x):
    np.divide(1, x, o)


def _compile_clip(name, ins, out, attrs):
    ((sx, dx),) = ins
    if dx != "float32" or out != (sx, "float32"):
        return None
    lo, hi = attrs["clip_value_min"], attrs["clip_value_max"]
    if not all(type(v) in (int, float) for v in (lo, hi)):
        return None
    mask = np.empty(sx, np.bool_)

    def clip(o, x):   # the kernel: where(isnan(x), x, minimum(maximum(x, lo), hi))
        np.maximum(x, lo, out=o)
        np.minimum(o, hi, out=o)
        np.isnan(x, mask)
        np.copyto(o, x, where=mask)
    return clip


def _compile_cast(name, ins, out, attrs):
    ((sx, dx),) = ins
    dtype = attrs["dtype"]
    if dx not in _NUMERIC or dtype not in _NUMERIC or out != (sx, dtype):
        return None
    if dtype == "bool":   # the kernel: v != 0
        return _not_zero
    if dtype == "int32" and dx == "float32":
        return None       # truncation as Int32Array stores: the kernel's own arithmetic
    return _cast_copy


def _not_zero(o, v):
    np.not_equal(v, 0, o)


def _cast_copy(o, v):   # the kernel: v.astype(dtype) (the same conversion loop)
    np.copyto(o, v, casting="unsafe")


def _matmul_shape(sa, sb, ta, tb):
    if len(sa) < 2 or len(sb) < 2:
        return None
    if ta:
        sa = sa[:-2] + (sa[-1], sa[-2])
    if tb:
        sb = sb[:-2] + (sb[-1], sb[-2])
    batch = _broadcast(sa[:-2], sb[:-2])
    if batch is None or sa[-1] != sb[-2]:
        return None
    return batch + (sa[-2], sb[-1])


def _compile_matmul(name, ins, out, attrs):
    (sa, da), (sb, db) = ins[:2]
    ta, tb = attrs["transpose_a"], attrs["transpose_b"]
    if da not in _NUMERIC or db not in _NUMERIC or _matmul_shape(sa, sb, ta, tb) != out[0]:
        return None
    if name == "BatchMatMul":   # the kernel: matmul in numpy's result dtype, stored as a's
        try:
            natural = np.matmul(np.zeros((1, 1), _NUMERIC[da]), np.zeros((1, 1), _NUMERIC[db])).dtype
        except TypeError:
            return None
        if natural != NP_DTYPES[out[1]]:
            return None
        bias = relu = False
    else:   # _FusedMatMul: float32 matmul, then bias, then linear or relu (the kernel's steps)
        act = attrs["activation"]
        if da != "float32" or db != "float32" or act not in ("linear", "relu") or out[1] != "float32":
            return None
        bias = attrs["has_bias"]
        if len(ins) != 2 + bias or (bias and (ins[2][1] != "float32" or _broadcast(out[0], ins[2][0]) != out[0])):
            return None
        relu = act == "relu"

    def matmul(o, a, b, *extra):
        if ta:
            a = a.swapaxes(-1, -2)
        if tb:
            b = b.swapaxes(-1, -2)
        np.matmul(a, b, out=o)
        if bias:
            np.add(o, extra[0], o)
        if relu:
            np.maximum(o, 0, out=o)
    return matmul


def _compile_reduction(name, ins, out, attrs):
    ((sx, dx),) = ins
    if dx not in ("float32", "int32") or out[1] != dx:
        return None
    nd = len(sx)
    axes = tuple(sorted(a % nd for a in attrs["axis"])) if nd else tuple(attrs["axis"])
    keep = attrs["keep_dims"]
    shape = tuple(1 if a in axes else d for a, d in enumerate(sx) if keep or a not in axes)
    if shape != out[0]:
        return None
    count = 1
    for a in axes:
        count *= sx[a]
    dt = _NUMERIC[dx]
    if name == "Sum":
        return lambda o, v: np.sum(v, axis=axes, keepdims=keep, dtype=dt, out=o)
    if name == "Prod":
        return lambda o, v: np.prod(v, axis=axes, keepdims=keep, dtype=dt, out=o)
    if name in ("Max", "Min") and count:
        reduce = np.max if name == "Max" else np.min
        return lambda o, v: reduce(v, axis=axes, keepdims=keep, out=o)
    if name == "Mean" and dx == "float32":
        div = np.float32(count or 1)

        def mean(o, v):   # the kernel: sum(v) / float32(count)
            np.sum(v, axis=axes, keepdims=keep, dtype=dt, out=o)
            np.divide(o, div, o)
        return mean
    return None


def _compile_softmax(name, ins, out, attrs):
    ((sx, dx),) = ins
    if dx != "float32" or out != (sx, "float32") or not sx:
        return None
    m = np.empty(sx[:-1] + (1,), np.float32)
    total = np.empty(sx[:-1] + (1,), np.float32)
    if name == "Softmax":
        def softmax(o, v):   # the kernel: e = exp(v - max(v)); e / sum(e)
            np.max(v, axis=-1, keepdims=True, initial=-np.inf, out=m)
            np.subtract(v, m, o)
            np.exp(o, o)
            np.sum(o, axis=-1, keepdims=True, out=total)
            np.divide(o, total, o)
        return softmax
    e = np.empty(sx, np.float32)

    def log_softmax(o, v):   # the kernel: s = v - max(v); s - log(sum(exp(s)))
        np.max(v, axis=-1, keepdims=True, initial=-np.inf, out=m)
        np.subtract(v, m, o)
        np.exp(o, e)
        np.sum(e, axis=-1, keepdims=True, out=total)
        np.log(total, total)
        np.subtract(o, total, o)
    return log_softmax


def _compile_select(name, ins, out, attrs):
    (sc, dc), (sa, da), (sb, db) = ins
    if dc != "bool" or da not in _NUMERIC or da != db or out != (_broadcast(sc, sa, sb), da):
        return None
    return _select


def _select(o, c, a, b):   # the kernel: where(c, a, b)
    np.copyto(o, b)
    np.copyto(o, a, where=c)


def _compile_adam(name, ins, outs, attrs):
    """ApplyAdam (cpu/kernels/optimizers.py): its float32 steps in its order, the intermediates in
    one scratch buffer instead of a new array each."""
    if len(ins) != 6:
        return None
    sx = ins[0][0]
    if any(i != (sx, "float32") for i in ins[:4]) or any(i != ((), "float32") for i in ins[4:]) \
            or outs != [(sx, "float32")] * 3:
        return None
    f = np.float32
    beta1, beta2 = attrs["beta1"], attrs["beta2"]
    c1, c1m, c2, c2m = f(beta1), f(1 - beta1), f(beta2), f(1 - beta2)
    eps, lr = f(attrs["epsilon"]), f(-attrs["learning_rate"])
    t = np.empty(sx, np.float32)

    def adam(o, value, g, m, v, acc1, acc2):
        new_value, new_m, new_v = o
        np.multiply(m, c1, new_m)           # new_m = m * beta1 + g * (1 - beta1)
        np.multiply(g, c1m, t)
        np.add(new_m, t, new_m)
        np.multiply(v, c2, new_v)           # new_v = v * beta2 + g^2 * (1 - beta2)
        np.square(g, t)
        np.multiply(t, c2m, t)
        np.add(new_v, t, new_v)
        np.divide(new_v, acc2, t)           # (new_m / acc1) / (sqrt(new_v / acc2) + eps) * -lr + value
        np.sqrt(t, t)
        np.add(t, eps, t)
        np.divide(new_m, acc1, new_value)
        np.divide(new_value, t, new_value)
        np.multiply(new_value, lr, new_value)
        np.add(new_value, value, new_value)
    return adam


# kernels of several outputs: compute(outs, *inputs), the outputs new arrays on every call
MULTI_COMPILERS = {"ApplyAdam": _compile_adam}

COMPILERS = {"SquaredDifference": _compile_binary, "ReluGrad": _compile_binary, "Square": _compile_unary,
             "Relu": _compile_unary, "Sigmoid": _compile_unary, "Rsqrt": _compile_unary,
             "Reciprocal": _compile_unary, "ClipByValue": _compile_clip, "Cast": _compile_cast,
             "BatchMatMul": _compile_matmul, "_FusedMatMul": _compile_matmul, "Softmax": _compile_softmax,
             "LogSoftmax": _compile_softmax, "Select": _compile_select}
COMPILERS.update(dict.fromkeys(BINARY_UFUNCS, _compile_binary))
COMPILERS.update(dict.fromkeys(UNARY_UFUNCS, _compile_unary))
COMPILERS.update(dict.fromkeys(("Sum", "Prod", "Max", "Min", "Mean"), _compile_reduction))


# --- the runner ----------------------------------------------------------------------------------------------
class CPUPlanRunner:
    """Replays one plan (see the module docstring). compiled / fallback: the names of the kernel
    steps that run as numpy calls writing into their outputs, and of those that run as their
    kernel functions, in plan order; num_buffers: the intermediate buffers the compiled calls
    share."""

    def __init__(self, plan, backend):
        self.backend = backend
        self.compiled, self.fallback = [], []
        self.num_buffers = 0
        self.busy = False
        self._build(plan)

    # --- compiling --------------------------------------------------------------------------------
    def _build(self, plan):
        if plan.splits:   # (a split kernel's outputs are checked against the trace's: step by step does)
            raise _Decline("the plan has split kernels")
        backend, engine = self.backend, ENGINE
        store = backend.store
        n, meta = plan.num_slots, plan.meta
        kind, root = [None] * n, list(range(n))
        for s in plan.inputs:
            kind[s] = INPUT
        for s, _ in plan.captured:
            kind[s] = CAPTURED
        for s, _ in plan.consts:
            kind[s] = CONST
        last = {}
        host_ins = set()
        for i, st in enumerate(plan.steps):
            t = type(st)
            if t is _Read:
                kind[st.slot] = READ
            elif t is _Assign:
                last[root[st.src]] = i
            else:
                for s in st.ins:
                    last[root[s]] = i
                if t is _Host:
                    host_ins.update(root[s] for s in st.ins)
                    for o in st.outs:
                        kind[o] = HOST
                else:
                    made = {s for s, _ in st.made}
                    for o, *_ in st.outs:
                        kind[o] = KERNEL
                        if o not in made:   # shares an input's data: which one, only a single input says
                            if len(st.ins) != 1:
                                raise _Decline(f"kernel {st.name} returns one of its inputs' data")
                            root[o] = root[st.ins[0]]
        out_roots = {root[m.slot] for m in _markers(plan.template, _Out)}
        # roots that need a DataId of their own: what escapes, and what host steps read
        registered = {r for r in out_roots | set(plan.assigned) | host_ins if kind[r] in (READ, KERNEL)}
        with_id = {s for s in range(n) if kind[root[s]] in (INPUT, CAPTURED, CONST, HOST) or root[s] in registered}

        fixed = [None] * n            # arrays that are the same on every call
        for s, v in plan.consts:
            arr = store.get(v.data_id)
            if arr is None:
                raise _Decline("a constant's data is not on this backend")
            fixed[s] = arr if arr.shape == meta[s][0] else arr.reshape(meta[s][0])
        arrs = [None] * n
        V = [None] * n
        pool = {}                     # (shape, dtype) -> free buffers
        owner = {}                    # root -> its buffer, for the roots compiled calls write
        dynamic = {}                  # root -> the slots of it that calls set in arrs
        ops = []
        scratch_ids = []

        def values_for(slots):
            """What a kernel function or host step is given for these slots: the Value itself
            where the slot has data under an id, else a Value over a DataId the call points at
            the slot's array for the duration of the call."""
            spec = []
            for s in slots:
                if s in with_id:
                    spec.append((s, None, None))
                else:
                    d = DataId(backend)
                    scratch_ids.append(d)
                    shape, dtype, size = meta[s]
                    spec.append((s, d, Value(d, shape, dtype, size)))
            return spec

        for i, st in enumerate(plan.steps):
            t = type(st)
            if t is _Read:
                ops.append(self._read_op(st, meta[st.slot][0], st.slot in registered, arrs, V, store, backend, engine))
            elif t is _Assign:
                ops.append(functools.partial(_run_other, st, V, engine))
            elif t is _Host:
                ops.append(self._host_op(st, meta, arrs, V, store, engine))
            elif st.name in _SHARED and get_kernel(st.name, plan.backend_name) is st.fn and root[st.outs[0][0]] != \
                    st.outs[0][0]:
                (s,), (o, shape, dtype, size) = st.ins, st.outs[0]
                self.compiled.append(st.name)
                if fixed[s] is not None:
                    fixed[o] = fixed[s].reshape(shape)
                else:
                    ops.append(functools.partial(_view, arrs, s, o, shape))
                if o in with_id:
                    ops.append(functools.partial(_view_value, V, s, o, (shape, dtype, size)))
            elif (st.name in MULTI_COMPILERS and get_kernel(st.name, plan.backend_name) is st.fn
                  and all(root[o] == o for o, *_ in st.outs)
                  and (compute := MULTI_COMPILERS[st.name](st.name, [meta[s][:2] for s in st.ins],
                                                           [m[1:3] for m in st.outs], st.attrs)) is not None):
                self.compiled.append(st.name)
                ops.append(functools.partial(_fresh_many, compute, st.ins,
                                             [(o, NP_DTYPES[dtype], (shape, dtype, size), o in registered)
                                              for o, shape, dtype, size in st.outs], arrs, V, store, backend))
            else:
                compute = None
                o, shape, dtype, size = st.outs[0]
                compiler = COMPILERS.get(st.name)
                if (compiler is not None and len(st.outs) == 1 and root[o] == o
                        and get_kernel(st.name, plan.backend_name) is st.fn):
                    compute = compiler(st.name, [meta[s][:2] for s in st.ins], (shape, dtype), st.attrs)
                if compute is None:
                    self.fallback.append(st.name)
                    ops.append(self._kernel_op(st, values_for(st.ins), root, with_id, registered, arrs, V, store))
                else:
                    self.compiled.append(st.name)
                    if o in registered:
                        ops.append(functools.partial(_fresh, compute, st.ins, o, NP_DTYPES[dtype], (shape, dtype, size),
                                                     arrs, V, store, backend))
                    else:
                        key = (shape, dtype)
                        free = pool.get(key)
                        if free:
                            buf = free.pop()
                        else:
                            buf = np.empty(shape, NP_DTYPES[dtype])
                            self.num_buffers += 1
                        owner[o] = buf
                        fixed[o] = buf
                        ins = [fixed[s] for s in st.ins]
                        if all(a is not None for a in ins):
                            ops.append(_fixed_op(compute, ins, buf))
                        elif isinstance(compute, np.ufunc):
                            ops.append(_ufunc_op(compute, st.ins, buf, arrs))
                        else:
                            ops.append(functools.partial(_compute_op, compute, st.ins, buf, arrs))
            # buffers whose root has had its last reader go back to the pool for later steps
            for r in [r for r in owner if last.get(r, i) <= i]:
                buf = owner.pop(r)
                pool.setdefault((buf.shape, _dtype_name(buf)), []).append(buf)
            # arrays made during a call are let go after their last reader, as a step-by-step
            # replay frees them: kept to the end of the call, a model's activations would all be
            # alive at once, and numpy's allocations would not reuse their memory
            made = (st.slot,) if t is _Read else () if t is _Assign else st.outs if t is _Host else \
                [o[0] for o in st.outs]
            for o in made:
                if fixed[o] is None:
                    dynamic.setdefault(root[o], []).append(o)
            for r in [r for r in dynamic if last.get(r, i) <= i]:
                ops.append(functools.partial(_drop, arrs, tuple(dynamic.pop(r))))
        self.fixed, self.arrs, self.V, self.ops, self.scratch_ids = fixed, arrs, V, ops, scratch_ids
        self.blank = [None] * n
        self.bound = [(s, meta[s][0]) for s in plan.inputs] + [(s, meta[s][0]) for s, _ in plan.captured]
        # what the plan owns and releases itself (core/plan.py _release): what escaped but is
        # not an output (a variable took it, a host step read it), and host outputs
        self.end_frees = [(r, kind[r]) for r in sorted(registered | {r for r in range(n) if kind[r] == HOST})
                          if r == root[r] and r not in out_roots]
        self.owned = [(r, kind[r]) for r in sorted(registered | {r for r in range(n) if kind[r] == HOST})
                      if r == root[r]]
        arrs[:] = fixed

    @staticmethod
    def _read_op(st, shape, registered, arrs, V, store, backend, engine):
        s, var = st.slot, st.var
        if registered:   # escapes: the plan holds a reference, as a step-by-step replay does
            def read():
                _run_other(st, V, engine)
                a = store[V[s].data_id]
                arrs[s] = a if a.shape == shape else a.reshape(shape)
            return read

        def read():
            # the variable's current array: held by this call only, never written
            if var.is_disposed_internal:
                var.throw_if_disposed("replay (a variable the traced function reads)")
            d = var.data_id
            if d.backend is not backend:
                engine._on_backend(var, backend)
            a = store[d]
            arrs[s] = a if a.shape == shape else a.reshape(shape)
        return read

    @staticmethod
    def _host_op(st, meta, arrs, V, store, engine):
        outs = [(o, meta[o][0]) for o in st.outs]

        def host():
            _run_other(st, V, engine)
            for o, shape in outs:
                a = store[V[o].data_id]
                arrs[o] = a if a.shape == shape else a.reshape(shape)
        return host

    def _kernel_op(self, st, spec, root, with_id, registered, arrs, V, store):
        fn, attrs, backend = st.fn, st.attrs, self.backend
        ids = [d for _, d, _ in spec if d is not None]
        outs = []
        for o, shape, dtype, size in st.outs:
            if root[o] != o:       # the input's data relabelled
                outs.append((o, shape, 0, st.ins[0], (shape, dtype, size) if o in with_id else None))
            else:
                outs.append((o, shape, 1 if o in registered else 2, None, (shape, dtype, size)))
        single = len(outs) == 1

        def kernel():
            ins = []
            for s, d, v in spec:
                if d is None:
                    ins.append(V[s])
                else:
                    store[d] = arrs[s]
                    ins.append(v)
            try:
                out = fn(backend, ins, attrs)
            finally:
                for d in ids:
                    store.pop(d, None)
            for (o, shape, how, src, v), res in zip(outs, (out,) if single and type(out) is not list else out):
                if how == 0:
                    a = arrs[src]
                    arrs[o] = a if a.shape == shape else a.reshape(shape)
                    if v is not None:
                        V[o] = Value(V[src].data_id, *v)
                elif how == 1:   # escapes: the array stays under the kernel's DataId
                    a = store[res.data_id]
                    arrs[o] = a if a.shape == shape else a.reshape(shape)
                    V[o] = Value(res.data_id, *v)
                else:
                    a = store.pop(res.data_id)
                    arrs[o] = a if a.shape == shape else a.reshape(shape)
        return kernel

    # --- replaying ----------------------------------------------------------------------------------
    def run(self, plan, inputs):
        if self.busy:   # re-entered (a host step calling the function again): step by step
            return plan.run_steps(inputs)
        engine = ENGINE
        vals = plan.external_values(inputs)
        self.busy = True
        V, arrs, store = self.V, self.arrs, self.backend.store
        V[:] = vals
        try:
            try:
                for s, shape in self.bound:
                    a = store[V[s].data_id]
                    arrs[s] = a if a.shape == shape else a.reshape(shape)
                with np.errstate(all="ignore"):   # NaN and infinities are values here, as in the kernels
                    for op in self.ops:
                        op()
            except BaseException:
                _release([(r, k) for r, k in self.owned if V[r] is not None], V, engine)
                raise
            if self.end_frees:
                _release(self.end_frees, V, engine)
            return plan.finish(V, inputs)
        finally:
            # (nothing of this call stays referenced: escaped arrays belong to their tensors)
            V[:] = self.blank
            arrs[:] = self.fixed
            self.busy = False

    def dispose(self):
        for d in self.scratch_ids:
            self.backend.store.pop(d, None)
        self.ops = self.fixed = self.arrs = self.V = ()
        self.scratch_ids = []


class _Decline(Exception):
    """A plan this runner does not take (it replays step by step)."""


def _dtype_name(arr):
    k = arr.dtype.kind
    return "bool" if k == "b" else "int32" if k == "i" else "float32"


def _drop(arrs, slots):
    for s in slots:
        arrs[s] = None


def _view(arrs, s, o, shape):
    arrs[o] = arrs[s].reshape(shape)


def _view_value(V, s, o, m):
    V[o] = Value(V[s].data_id, *m)


def _fixed_op(compute, ins, buf):
    if not isinstance(compute, np.ufunc):
        return functools.partial(compute, buf, *ins)
    if compute in _OUT_BY_NAME:
        return functools.partial(compute, *ins, out=buf)
    return functools.partial(compute, *ins, buf)   # (positional out: the cheapest call)


# numpy deprecates a positional out for these
_OUT_BY_NAME = (np.maximum, np.minimum)


def _ufunc_op(uf, ins, buf, arrs):
    if len(ins) == 2:
        a, b = ins
        return lambda: uf(arrs[a], arrs[b], out=buf)
    (a,) = ins
    return lambda: uf(arrs[a], out=buf)


def _compute_op(compute, ins, buf, arrs):
    compute(buf, *[arrs[s] for s in ins])


def _fresh(compute, ins, o, dtype, m, arrs, V, store, backend):
    """A compiled call whose result escapes: a new array under a new DataId."""
    out = np.empty(m[0], dtype)
    if isinstance(compute, np.ufunc):
        compute(*[arrs[s] for s in ins], out=out)
    else:
        compute(out, *[arrs[s] for s in ins])
    arrs[o] = out
    d = DataId(backend)
    store[d] = out
    V[o] = Value(d, *m)


def _fresh_many(compute, ins, outs, arrs, V, store, backend):
    """A compiled kernel of several outputs: each a new array; those that escape under a new DataId."""
    res = [np.empty(m[0], dtype) for _, dtype, m, _ in outs]
    compute(res, *[arrs[s] for s in ins])
    for (o, _, m, escapes), out in zip(outs, res):
        arrs[o] = out
        if escapes:
            d = DataId(backend)
            store[d] = out
            V[o] = Value(d, *m)


def make_runner(plan, backend):
    try:
        return CPUPlanRunner(plan, backend)
    except _Decline:
        return None
