"""BatchMatMul (contract in ops/matmul.py) as a register-blocked GEMM (backends/webgpu/shaders/matmul.wgsl,
section gemm; also the convolutions' implicit GEMMs, conv.py): each invocation computes ROWS
output rows times 4 * VEC4S columns in vec4 accumulators, no workgroup memory or barriers (on
SwiftShader, a CPU, 2-6x faster than a 32x32-tiled workgroup-memory GEMM). Transposes and the
operands' alignment pick each operand's loader (vec4 bindings along the contiguous side where it
is a multiple of 4, else scalar loads); the batch dims (broadcast between a and b) are split by
uniform strides."""
from ....kernels import register_kernel
from ....core.shapes import broadcast_shapes, strides_of
from .. import wgsl
from ..program import Program, _size, broadcast_strides
from .elementwise import BACKEND


def block(m, n):
    """(rows, vec4s of columns) per invocation: 8 x 2 vec4s, smaller for small M or N."""
    return (8 if m > 4 else 4), (2 if n > 4 else 1)


def gemm_source(t, loaders, a_mode, b_mode, rows, vec4s, vec4_out, bindings, fields, replacements=()):
    """The gemm program: loaders, the matmul.wgsl sections defining aRow or aCol (a_mode "row" /
    "col", 4 steps along K a loop step) or aAt (a_mode "scalar": one step along K a loop step, B
    then row-wise), and bRow or bCol (b_mode); vec4_out: the result bound as vec4s (N a multiple of 4)."""
    rs, js, qs, lanes = range(rows), range(vec4s), range(4), "xyzw"
    declare = [f"  var acc{i}_{j} = vec4<{t}>({t}(0));" for i in rs for j in js]
    if a_mode == "scalar":
        load = [f"    let a{i} = aAt(aBase, r + {i}, k);" for i in rs]
    elif a_mode == "row":
        declare += [f"  let r{i} = min(r + {i}, u.M - 1);" for i in rs]
        load = [f"    let a{i} = aRow(aBase, r{i}, k);" for i in rs]
    else:   # M is a multiple of 4 (and so of the row group), r + 4g a multiple of 4
        declare += [f"  let r{g} = min(r + {4 * g}, u.M - 4);" for g in range(rows // 4)]
        load = [f"    let t{g}_{q} = aCol(aBase, k + {q}, r{g});" for g in range(rows // 4) for q in qs]
        load += [f"    let a{4 * g + p} = vec4<{t}>({', '.join(f't{g}_{q}.{lanes[p]}' for q in qs)});"
                 for g in range(rows // 4) for p in qs]
    multiply = []
    if b_mode == "row":
        declare += [f"  let c{j} = min(c + {4 * j}, u.N - 4);" if vec4_out else f"  let c{j} = c + {4 * j};"
                    for j in js]
    if a_mode == "scalar":
        load += [f"    let b{j} = bRow(bBase, k, c{j});" for j in js]
        multiply += [f"    acc{i}_{j} = acc{i}_{j} + a{i} * b{j};" for i in rs for j in js]
    elif b_mode == "row":
        load += [f"    let b{q}_{j} = bRow(bBase, k + {q}, c{j});" for j in js for q in qs]
        multiply += [f"    acc{i}_{j} = acc{i}_{j} + a{i}.x * b0_{j} + a{i}.y * b1_{j} + a{i}.z * b2_{j} "
                     f"+ a{i}.w * b3_{j};" for i in rs for j in js]
    else:
        declare += [f"  let c{j}_{p} = min(c + {4 * j + p}, u.N - 1);" for j in js for p in qs]
        load += [f"    let s{j}_{p} = bCol(bBase, c{j}_{p}, k);" for j in js for p in qs]
        multiply += [f"    acc{i}_{j} = acc{i}_{j} + vec4<{t}>({', '.join(f'dot(a{i}, s{j}_{p})' for p in qs)});"
                     for i in rs for j in js]
    store = []
    for i in rs:
        for j in js:
            at = f"outBase + (r + {i}) * u.N + c + {4 * j}"
            if vec4_out:
                store.append(f"  if (r + {i} < u.M && c + {4 * j} < u.N) {{ result[({at}) / 4] = acc{i}_{j}; }}")
            else:
                store.append(f"  if (r + {i} < u.M) {{")
                store += [f"    if (c + {4 * j + p} < u.N) {{ result[{at} + {p}] = acc{i}_{j}.{lanes[p]}; }}"
                          for p in qs]
                store.append("  }")
    text = "".join(wgsl.program("matmul.wgsl", s) for s in loaders) + wgsl.program("matmul.wgsl", "gemm")
    for old, new in (("DECLARE", "\n".join(declare)), ("LOAD", "\n".join(load)), ("MULTIPLY", "\n".join(multiply)),
                     ("STORE", "\n".join(store)), ("VEC4S", str(vec4s)), ("ROWS", str(rows)),
                     ("KSTEP", "1" if a_mode == "scalar" else "4")) + tuple(replacements):
        text = text.replace(old, new)
    text = text.replace("TYPE", t)
    out_type = f"vec4<{t}>" if vec4_out else t
    return wgsl.bindings(out_type, bindings, fields) + text


def gemm_grid(batches, m, n, rows, vec4s):
    """(size, MB, NB): invocations, row blocks and column blocks."""
    mb, nb = -(-m // rows), -(-n // (4 * vec4s))
    return batches * mb * nb, mb, nb


@register_kernel("BatchMatMul", BACKEND)
def batch_mat_mul(backend, inputs, attrs):
    a, b = inputs
    ta, tb = bool(attrs["transpose_a"]), bool(attrs["transpose_b"])
    m = a.shape[-1] if ta else a.shape[-2]
    k = a.shape[-2] if ta else a.shape[-1]
    n = b.shape[-2] if tb else b.shape[-1]
    batch_shape = broadcast_shapes(a.shape[:-2], b.shape[:-2], "mat_mul")
    out_shape = tuple(batch_shape) + (m, n)
    batches = _size(batch_shape)
    if _size(out_shape) == 0:
        return backend.empty(out_shape, a.dtype)
    rank = len(batch_shape)
    a_strides = [s * m * k for s in broadcast_strides(a.shape[:-2], batch_shape)]
    b_strides = [s * k * n for s in broadcast_strides(b.shape[:-2], batch_shape)]
    rows, vec4s = block(m, n)
    size, mb, nb = gemm_grid(batches, m, n, rows, vec4s)
    fields = (("size", "i32"), ("M", "i32"), ("N", "i32"), ("K", "i32"), ("MB", "i32"), ("NB", "i32")) \
        + wgsl.stride_fields("bs", rank, last=False) + wgsl.stride_fields("as_", rank) + wgsl.stride_fields("bx", rank)
    values = (size, m, n, k, mb, nb) + tuple(strides_of(batch_shape)[:-1]) + tuple(a_strides) + tuple(b_strides)
    t = wgsl.STORAGE_TYPE[a.dtype]
    # each operand as vec4s along its contiguous side where that is a multiple of 4; else one step
    # along K at a time, a's values one by one and b's rows as vec4s where N is a multiple of 4
    a_loader, a_mode = (("mm_a_row4",), "row") if not ta and k % 4 == 0 else \
        (("mm_a_col4",), "col") if ta and m % 4 == 0 else (None, "scalar")
    b_loader, b_mode = (("mm_b_row4",), "row") if not tb and n % 4 == 0 else \
        (("mm_b_col4",), "col") if tb and k % 4 == 0 else (None, "row")
    if a_loader is None or b_loader is None:
        a_loader, a_mode = ("mm_a_scalar",), "scalar"
        if b_mode == "col" or b_loader is None:
            b_loader, b_mode = ("mm_b_scalar", "b_scalar_rows"), "row"
    vec4_out = n % 4 == 0
    a_type = f"vec4<{t}>" if "scalar" not in a_loader[0] else t
    b_type = f"vec4<{t}>" if "scalar" not in b_loader[0] else t
    key = f"matmul:{t}:{a_loader[0]}:{b_loader[0]}:{int(ta)}{int(tb)}:{rows}x{vec4s}:{int(vec4_out)}:{rank}"

    def source():
        return gemm_source(t, a_loader + b_loader, a_mode, b_mode, rows, vec4s, vec4_out,
                           (("a", a_type), ("b", b_type)), fields, (
                               ("BATCH_COORDS", wgsl.coords("bc", rank, index="batch", strides="bs")),
                               ("BATCH_A", wgsl.dot("bc", rank, "as_")), ("BATCH_B", wgsl.dot("bc", rank, "bx")),
                               ("TRANSPOSE_A", "true" if ta else "false"),
                               ("TRANSPOSE_B", "true" if tb else "false")))

    return backend.run(Program(key, source, fields), [a, b], out_shape, a.dtype, values,
                       backend.groups_for(size, 64))
