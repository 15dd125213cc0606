"""Lazy elementwise fusion on webgl (flag WEBGL_FUSION, on by default): the expression graph
and its recording are shared with webgpu (backends/fusion_graph.py); this module draws an
expression. (WebGLBackend keeps its own copy of the bookkeeping that fusion_graph.PendingData
holds for webgpu: add_pending, resolve_pending, the start of dispose_data.)

An elementwise kernel of the tables (unary ops without attributes, binary ops, broadcasting
included) does not draw: its output's data is recorded as an expression over its inputs. The
first use that needs values (another kernel's draw, a read, `backend.sync()`, which tf.profile and
tf.time call after each kernel) compiles the whole expression into one program and draws once.
Programs are cached by the expression's structure, not its values (finite one-value operands still
CPU-side are uniforms), so a training loop compiles each of its expressions once.

Inputs an expression reads stay alive while it is pending: `WebGLBackend.dispose_data` of such
data only marks it, and the last expression reading it frees it.
"""
from ....environment import ENV
from ....shapes import size_of
from ...fusion_graph import generate, record
from .. import shader_source
from ..shader_compiler import getter_name
from ..texture_manager import texture_shape
from .program import Program

#: Ops in one fused program, and textures it reads (WebGL2 guarantees 16 samplers).
MAX_NODES = 32
MAX_LEAVES = 12


def enabled():
    return ENV.flags["WEBGL_FUSION"] and not ENV.flags["DEBUG"]


def defer(backend, file, fn, nan_wrap, inputs, out_shape, dtype, scalar_of):
    """The output of an elementwise op, pending, or None where the op is not deferred (then it
    draws as it would without fusion): `fn`, a GLSL function of `file`; `nan_wrap`, a unary op's
    NaN in gives NaN out; scalar_of(info) gives a finite CPU-side value of a one-value input (a
    uniform), or None. What a draw would raise is raised here, at the op: a tensor too large for
    a texture, an input lost with the WebGL context."""
    def check():
        if size_of(out_shape):
            texture_shape(out_shape, backend.ctx.max_texture_size)
        for t in inputs:
            backend.check_not_lost(t.data_id)
    return record(backend, (file, fn, nan_wrap), inputs, out_shape, dtype, scalar_of, (MAX_NODES, MAX_LEAVES),
                  materialize, check=check)


def materialize(backend, data_id):
    """Draw a pending expression into its data's texture."""
    node = backend.pending.get(data_id)
    if node is None:
        return
    leaves, uniforms, functions, lines = {}, [], {}, []

    def leaf(n):
        var = f"in{len(leaves)}"
        leaves[n.key] = (var, n)
        lines.append(f"  float {var}_ = {getter_name(var)}AtOutCoords();")
        return var + "_"

    def uniform(n):
        uniforms.append(n.value)
        return f"u{len(uniforms) - 1}"

    def op(n, args):
        file, fn, nan_wrap = n.op
        for fn_name, text in shader_source.function_parts(file, fn):
            functions.setdefault(fn_name, text)
        name = f"t{len(lines)}"
        call = f"{fn}({', '.join(args)})"
        if nan_wrap:
            call = f"isNaN({args[0]}) ? {args[0]} : {call}"
        lines.append(f"  float {name} = {call};")
        return name

    result = generate(node, leaf, uniform, op)
    names = tuple(name for name, _ in leaves.values())
    body = "".join(functions.values()) + "void main() {\n" + "\n".join(lines) + f"\n  setOutput({result});\n}}\n"
    # the key is the structure: op names, where each value comes from (the code says it all)
    program = Program("fused:" + body, names, node.shape, body, tuple((f"u{i}", "float") for i in range(len(uniforms))))
    out = backend.run(program, [leaf.info for _, leaf in leaves.values()], node.dtype, tuple(uniforms))
    backend.resolve_pending(data_id, out)
