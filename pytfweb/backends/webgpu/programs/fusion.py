"""Lazy elementwise fusion on webgpu (flag WEBGPU_FUSION, on by default; off under DEBUG): the
table kernels, Cast and Select (programs/elementwise.py's `Op`s) are recorded as an expression
(backends/gpu/fusion_graph.py, shared with webgl), and the expression is dispatched as one generated
compute shader when its values are needed (a kernel taking it, a read, sync(), done(), memory()).

The shader computes every node at the output's index, each in a `let` of its dtype's storage
type (f32, or i32 for int32 and bool), from the inputs read at their broadcast index (as in
run_elementwise: same shape as the output, one value, or through strides), the one-value
operands still CPU-side and the ops' attributes being uniforms. Its pipeline key is that code
(ops, dtypes, how each input is indexed, the rank where an input is broadcast), never values or
sizes: shapes are uniforms, so a loop compiles each of its expressions once."""
from ....core.environment import ENV
from ....core.shapes import strides_of
from ...gpu.fusion_graph import generate, record
from .. import wgsl
from ..program import Program, _size, broadcast_strides, index_mode

#: Ops in one shader: on SwiftShader a chain of 64 ops on 256x256 compiled and ran first in ~90 ms,
#: one of 128 in ~600 ms (measured; steady runs gain less than that from longer shaders).
MAX_NODES = 64
#: Buffers one shader reads, at most: a dispatch binds the output and the inputs, within the
#: device's maxStorageBuffersPerShaderStage (WebGPU's default 8; the device asks for the adapter's).
MAX_LEAVES = 15


def enabled():
    return ENV.flags["WEBGPU_FUSION"] and not ENV.flags["DEBUG"]


def defer(backend, op, inputs, out_shape, dtype, values=()):
    """The output of Op op on inputs, pending, or None where it is not deferred (it then runs as
    without fusion). What its dispatch would raise is raised here, at the op: no device yet, a
    lost device, an output larger than a storage buffer binding."""
    def check():
        dev = backend._device(f"kernel '{op.key}'")
        dev.check_lost()
        if 4 * _size(out_shape) > dev.max_binding:
            backend._acquire(out_shape, dtype)   # raises the ValueError saying so
    # (no device yet: nothing is pending, so this op reads at most its own few inputs)
    max_leaves = MAX_LEAVES if backend.device is None else min(MAX_LEAVES, backend.device.max_storage_buffers - 1)
    return record(backend, op, inputs, out_shape, dtype, lambda t: _uniform_value(backend, t),
                  (MAX_NODES, max_leaves), materialize, values, check)


def _uniform_value(backend, t):
    """The value of a one-value input whose value is CPU-side (as run_elementwise's "uniform")."""
    if _size(t.shape) != 1:
        return None
    v = backend.values_if_known(t)
    return None if v is None else (float(v[0]) if t.dtype == "float32" else int(v[0]))


def materialize(backend, data_id):
    """Dispatch a pending expression into its data's buffer."""
    node = backend.pending.get(data_id)
    if node is None:
        return
    out_shape = node.shape
    rank = len(out_shape)
    leaves = {}     # Leaf key -> (name, leaf, index mode)
    fields, values, functions, lines = [], [], [], []

    def leaf(n):
        name = f"in{len(leaves)}"
        mode = index_mode(n.info.shape, out_shape)
        leaves[n.key] = (name, n, mode)
        at = {"same": "index", "one": "0", "bcast": wgsl.dot("c", rank, f"{name}_s")}[mode]
        lines.append(f"  let {name}_ = {name}[{at}];")
        return name + "_"

    def uniform(n):
        field = f"s{len(fields)}"
        fields.append((field, wgsl.STORAGE_TYPE[n.dtype]))
        values.append(n.value)
        return "u." + field

    def node_(n, args):
        op = n.op
        name = f"t{len(lines)}"
        for field, t in op.fields:   # this node's attributes: fields of its own
            fields.append((f"{name}_{field}", t))
        values.extend(n.values)
        functions.extend(op.functions)
        lines.append(f"  let {name} = {op.expr.format(*args, u=f'u.{name}_')};")
        return name

    result = generate(node, leaf, uniform, node_)
    bcast = [(name, leaf) for name, leaf, mode in leaves.values() if mode == "bcast"]
    head = [("size", "i32")]
    head_values = [_size(out_shape)]
    if bcast:
        head += wgsl.stride_fields("os", rank, last=False)
        head_values += strides_of(out_shape)[:-1]
        for name, leaf in bcast:
            head += wgsl.stride_fields(f"{name}_s", rank)
            head_values += broadcast_strides(leaf.info.shape, out_shape)
    fields = head + fields
    out_t = wgsl.STORAGE_TYPE[node.dtype]
    bound = [(name, wgsl.STORAGE_TYPE[leaf.info.dtype]) for name, leaf, _ in leaves.values()]
    code = "\n".join(lines)
    # the key is the structure: the code (op functions, how each value is read), the types of the
    # inputs and uniforms, the rank where it is in the code (strides)
    key = (f"fused:{rank if bcast else ''}:{''.join(t for _, t in bound)}:{''.join(t for _, t in fields)}>{out_t}\n"
           + code + "\n" + result)

    def source():
        body = (wgsl.program("elementwise.wgsl", "main")
                .replace("COORDS", wgsl.coords("c", rank) if bcast else "")
                .replace("LOADS", code).replace("STORE", result))
        return wgsl.functions(*dict.fromkeys(functions)) + wgsl.bindings(out_t, bound, fields) + body

    out = backend.run(Program(key, source, tuple(fields)), [leaf.info for _, leaf, _ in leaves.values()], out_shape,
                      node.dtype, head_values + values, backend.groups_for(_size(out_shape), 64))
    backend.resolve_pending(data_id, out)

