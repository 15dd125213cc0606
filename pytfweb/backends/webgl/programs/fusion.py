"""Lazy elementwise fusion (flag WEBGL_FUSION, on by default).

An elementwise kernel of the tables (unary ops without attributes, binary ops, broadcasting
included) does not draw: its output's data is recorded as an expression over its inputs, where
an input that is itself pending is inlined. The first use that needs values (another kernel's
draw, a read, `backend.sync()`, which tf.profile and tf.time call after each kernel) compiles the
whole expression into one program and draws once. Programs are cached by the expression's
structure, not its values (finite one-value operands still CPU-side are uniforms), so a training
loop compiles each of its expressions once.

Evaluating every node at the output's coordinates is exact for elementwise trees: each node's
shape broadcasts to the output's, and broadcasting composes. A pending input seen under another
shape (a reshape shares its data) is drawn first and read as a texture.

Inputs an expression reads stay alive while it is pending: `WebGLBackend.dispose_data` of such
data only marks it, and the last expression reading it frees it.
"""
from ....environment import ENV
from ....kernels import TensorInfo
from ....shapes import size_of
from .. import shader_source
from ..shader_compiler import getter_name
from ..texture_manager import texture_shape
from .program import Program

#: Ops in one fused program, and textures it reads (WebGL2 guarantees 16 samplers).
MAX_NODES = 32
MAX_LEAVES = 12


def enabled():
    return ENV.flags["WEBGL_FUSION"] and not ENV.flags["DEBUG"]


class Node:
    """One op: `fn` (GLSL function name, from `file`), `nan_wrap` (a unary op's NaN in gives NaN
    out), args (Nodes, Leaves, Uniforms) and its output shape and dtype. An expression is a DAG:
    a pending value read twice is one Node, computed once in the program (`size` counts the
    distinct nodes)."""
    __slots__ = ("file", "fn", "nan_wrap", "args", "shape", "dtype", "nodes", "size", "leaves")

    def __init__(self, file, fn, nan_wrap, args, shape, dtype):
        self.file, self.fn, self.nan_wrap, self.args = file, fn, nan_wrap, args
        self.shape, self.dtype = tuple(shape), dtype
        self.nodes = frozenset().union(*(a.nodes for a in args if isinstance(a, Node))) | {id(self)}
        self.size = len(self.nodes)
        leaves = {}
        for a in args:
            for leaf in ((a,) if isinstance(a, Leaf) else a.leaves if isinstance(a, Node) else ()):
                leaves[leaf.key] = leaf
        self.leaves = tuple(leaves.values())


class Leaf:
    """A texture the expression reads: data and the shape it is read under."""
    __slots__ = ("info", "key")

    def __init__(self, info):
        self.info = info
        self.key = (info.data_id, tuple(info.shape))


class Uniform:
    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value


#: What a fused program reads and writes (complex64 and string data never reach a shader).
_DTYPES = frozenset(("float32", "int32", "bool"))


def defer(backend, file, fn, nan_wrap, inputs, out_shape, dtype, scalar_of):
    """The output of an elementwise op, pending, or None where the op is not deferred (then it
    draws as it would without fusion); scalar_of(info) gives a finite CPU-side value of a
    one-value input (a uniform), or None. What a draw would raise is raised here, at the op:
    a tensor too large for a texture, an input lost with the WebGL context."""
    if dtype not in _DTYPES or any(t.dtype not in _DTYPES for t in inputs):
        return None
    if size_of(out_shape):
        texture_shape(out_shape, backend.ctx.max_texture_size)
    for t in inputs:
        backend.check_not_lost(t.data_id)
    args = [_arg(backend, t, scalar_of) for t in inputs]
    node = Node(file, fn, nan_wrap, args, out_shape, dtype)
    while node.size > MAX_NODES or len(node.leaves) > MAX_LEAVES:
        # draw the largest pending input first, then read it as a texture
        i = max((i for i, a in enumerate(args) if isinstance(a, Node)), key=lambda i: args[i].size)
        materialize(backend, inputs[i].data_id)
        args[i] = _arg(backend, inputs[i], scalar_of)
        node = Node(file, fn, nan_wrap, args, out_shape, dtype)
    return backend.add_pending(node)


def _arg(backend, t, scalar_of):
    pending = backend.pending.get(t.data_id)
    if pending is not None:
        if pending.shape == tuple(t.shape):
            return pending
        materialize(backend, t.data_id)    # read under another shape: as a texture
    value = scalar_of(t)
    return Uniform(value) if value is not None else Leaf(TensorInfo(t.data_id, tuple(t.shape), t.dtype))


def materialize(backend, data_id):
    """Draw a pending expression into its data's texture."""
    node = backend.pending.get(data_id)
    if node is None:
        return
    leaves, uniforms = {}, []
    functions = {}
    lines = []
    emitted = {}   # id(Node) -> its variable: each node of the DAG computed once

    def emit(n):
        """The GLSL variable holding n's value at the output's coordinates."""
        if id(n) in emitted:
            return emitted[id(n)]
        if isinstance(n, Leaf):
            if n.key not in leaves:
                var = f"in{len(leaves)}"
                leaves[n.key] = (var, n)
                lines.append(f"  float {var}_ = {getter_name(var)}AtOutCoords();")
            return leaves[n.key][0] + "_"
        if isinstance(n, Uniform):
            uniforms.append(n.value)
            return f"u{len(uniforms) - 1}"
        args = [emit(a) for a in n.args]
        for fn_name, text in shader_source.function_parts(n.file, n.fn):
            functions.setdefault(fn_name, text)
        name = f"t{len(lines)}"
        call = f"{n.fn}({', '.join(args)})"
        if n.nan_wrap:
            call = f"isNaN({args[0]}) ? {args[0]} : {call}"
        lines.append(f"  float {name} = {call};")
        emitted[id(n)] = name
        return name

    result = emit(node)
    names = tuple(name for name, _ in leaves.values())
    body = "".join(functions.values()) + "void main() {\n" + "\n".join(lines) + f"\n  setOutput({result});\n}}\n"
    # the key is the structure: op names, where each value comes from (the code says it all)
    program = Program("fused:" + body, names, node.shape, body, tuple((f"u{i}", "float") for i in range(len(uniforms))))
    out = backend.run(program, [leaf.info for _, leaf in leaves.values()], node.dtype, tuple(uniforms))
    backend.resolve_pending(data_id, out)


def materialize_all(backend):
    for data_id in list(backend.pending):
        materialize(backend, data_id)

