"""Lazy elementwise fusion on webgl (flag WEBGL_FUSION, on by default): the expression graph
and its recording are shared with webgpu (backends/gpu/fusion_graph.py); this module draws an
expression.

An elementwise kernel of the tables (unary ops without attributes, binary ops, broadcasting
included), and Prelu (programs/math.py), does not draw: its output's data is recorded as an expression over its inputs. The
first use that needs values (another kernel's draw, a read, `backend.sync()`, which tf.profile and
tf.time call after each kernel) compiles the whole expression into one program and draws once.
Programs are cached by the expression's structure, not its values (finite one-value operands still
CPU-side are uniforms), so a training loop compiles each of its expressions once.

Where every input is read at the output's own texel (same size and texture width), at one texel
(one value) or as a trailing part of the output's shape (a bias or a per-channel scale: flat
index modulo its size), the program is shapeless (Program.shapeless): it fetches those texels
itself, with sizes as uniforms, so one compile serves every shape. A model's batch-norm folds
(layers/inference_fusion.py), one expression over kernels of many shapes, are then a handful of
programs rather than one per layer. Other broadcasts go through the compiler's getters.

Inputs an expression reads stay alive while it is pending: `WebGLBackend.dispose_data` of such
data only marks it, and the last expression reading it frees it.
"""
from ....core.environment import ENV
from ....core.shapes import size_of
from ....kernels import TensorInfo
from ...gpu.fusion_graph import Leaf, Node, generate, record
from ...gpu import shader_source
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


#: Node.op of a pending GEMM unpack (gemm.unpack's lazy form): (UNPACK, its blocks' count); its one
#: leaf is the blocks (an array texture, WebGLBackend.run_packed).
UNPACK = "gemm_unpack"


def defer_unpack(backend, blocks, flat, shape, ops):
    """The packed product `blocks` (gemm.unpack's layout and `flat`) as pending data of `shape`, with
    `ops` ((fusion op (file, function, NaN wrap), its second input or None), ...) applied, or None
    where it is drawn instead (an output too large for a float32 flat index, or nothing to draw).

    The unpack node reads the blocks at its own flat index only (Node.exact): an expression
    reading it broadcast computes it first. The blocks stay alive while it is pending (the caller's
    dispose_data only marks them)."""
    size = size_of(shape)
    if not size or size >= 1 << 24:
        return None
    leaf = Leaf(TensorInfo(blocks.data_id, tuple(blocks.shape), blocks.dtype))
    node = Node((UNPACK, blocks.shape[-1] // 4), [leaf], shape, "float32", tuple(flat))
    node.exact = True
    out = backend.add_pending(node)
    for (file, fn, nan_wrap), operand in ops:
        step = defer(backend, file, fn, nan_wrap, [out] if operand is None else [out, operand], shape, "float32",
                     lambda t: None)
        if step is None:   # (not a dtype fusion takes: the product drawn, the op skipped would be wrong)
            backend.dispose_data(out.data_id)
            return None
        backend.dispose_data(out.data_id)
        out = step
    return out


def _unpack_leaves(node):
    """The keys of the leaves read by the unpack nodes of an expression (the blocks)."""
    keys, seen, todo = set(), set(), [node]
    while todo:
        n = todo.pop()
        if id(n) in seen:
            continue
        seen.add(id(n))
        if n.op[0] == UNPACK:
            keys.update(a.key for a in n.args)
        else:
            todo.extend(a for a in n.args if type(a) is Node and a.exact)
    return keys


def materialize(backend, data_id):
    """Draw a pending expression into its data's texture."""
    node = backend.pending.get(data_id)
    if node is None:
        return
    blocks = _unpack_leaves(node) if node.exact else ()
    reads = _shapeless_reads(backend, node, blocks)
    out_width = reads[None] if reads is not None else texture_shape(node.shape, backend.ctx.max_texture_size)[0]
    leaves, uniforms, functions, lines = {}, [], {}, []   # uniforms: (name, type, value)

    def leaf(n):
        var = f"in{len(leaves)}"
        leaves[n.key] = (var, n)
        if n.key in blocks:    # read by its unpack node's code
            return var
        if reads is None:
            lines.append(f"  float {var}_ = {getter_name(var)}AtOutCoords();")
            return var + "_"
        mode = reads[n.key]
        if mode[0] == "suffix":
            texel = _suffix_texel(var, mode, reads[None], uniforms, lines)
        else:
            texel = _TEXELS[mode[0]]
        lines.append(f"  float {var}_ = texelFetch({var}, {texel}, 0).r;")
        return var + "_"

    def uniform(n):
        uniforms.append((f"u{len(uniforms)}", "float", n.value))
        return uniforms[-1][0]

    def op(n, args):
        if n.op[0] == UNPACK:
            return _unpack_code(n, args, out_width, uniforms, functions, lines)
        name = f"t{len(lines)}"
        lines.append(f"  float {name} = {op_call(n.op, args, functions)};")
        return name

    result = generate(node, leaf, uniform, op)
    names = tuple(name for name, _ in leaves.values())
    if any("flat_" in line for line in lines):
        uniforms.append(("outWidth", "int", out_width))
        lines.insert(0, "  int flat_ = int(gl_FragCoord.y) * outWidth + int(gl_FragCoord.x);")
    body = "".join(functions.values()) + "void main() {\n" + "\n".join(lines) + f"\n  setOutput({result});\n}}\n"
    # the key is the structure: op names, where each value comes from (the code says it all)
    program = Program("fused:" + body, names, node.shape, body, tuple((name, typ) for name, typ, _ in uniforms),
                      shapeless=reads is not None)
    out = backend.run(program, [leaf.info for _, leaf in leaves.values()], node.dtype,
                      tuple(value for _, _, value in uniforms))
    backend.resolve_pending(data_id, out)


def op_call(op, args, functions):
    """The GLSL call of a fusion op (file, function, NaN wrap) on `args`, the functions it needs
    added to `functions` (name -> text)."""
    file, fn, nan_wrap = op
    for fn_name, text in shader_source.function_parts(file, fn):
        functions.setdefault(fn_name, text)
    call = f"{fn}({', '.join(args)})"
    return f"isNaN({args[0]}) ? {args[0]} : {call}" if nan_wrap else call


def block_fetch(name, sampler):
    """GLSL `vec4 name(int t, ivec2 p)`: texel p of a product's block t, layer t of the blocks'
    array texture `sampler` (gemm.glsl's block)."""
    return f"vec4 {name}(int t, ivec2 p) {{ return texelFetch({sampler}, ivec3(p, t), 0); }}\n"


def _unpack_code(n, samplers, out_width, uniforms, functions, lines):
    """The value of an unpack node at the output's flat index (gemm.glsl's flat_coords and unpack:
    column f % N of product row (p / W) * ROW_STEP + p % W, p = f / N): its lines, uniforms
    (N, W, ROW_STEP: one program for every layer's shape) and the block fetch, a function per
    node (gemm.glsl's block). Where the output's texture rows are the product's rows (N its width: a
    channels-last image's rows of one pixel) p and the column are the fragment's row and column,
    and where a product row is a pixel (W == ROW_STEP: no padded columns) the row is p: no
    division for either (SwiftShader's divide() is a float division and two corrections a lane)."""
    rows = n.op[1]
    name = f"t{len(lines)}"
    cols, width, step = n.values
    functions[f"block_{name}"] = block_fetch(f"block_{name}", samplers[0])
    if cols == out_width:
        code = (f"  int {name}p = int(gl_FragCoord.y);\n"
                f"  int {name}c = int(gl_FragCoord.x);\n")
    else:
        uniforms.append((f"{name}N", "int", cols))
        code = (f"  int {name}p = divide(flat_, {name}N);\n"
                f"  int {name}c = flat_ - {name}p * {name}N;\n")
    if width == step:
        code += f"  int {name}r = {name}p;\n"
    else:
        uniforms += [(f"{name}W", "int", width), (f"{name}S", "int", step)]
        code += (f"  int {name}h = divide({name}p, {name}W);\n"
                 f"  int {name}r = {name}h * {name}S + ({name}p - {name}h * {name}W);\n")
    if "divide(" in code:
        for part, text in shader_source.function_parts("gemm.glsl", "divide"):
            functions.setdefault(part, text)
    shift = rows.bit_length() - 1
    lines.append(code + f"  float {name} = block_{name}({name}r & {rows - 1}, ivec2({name}c >> 2, {name}r >> {shift}))"
                 f"[{name}c & 3];")
    return name


#: texel of a leaf read at the output's own texel, or at its only one
_TEXELS = {"same": "ivec2(gl_FragCoord.xy)", "row": "ivec2(int(gl_FragCoord.x), 0)", "one": "ivec2(0, 0)"}


def _suffix_texel(var, mode, out_width, uniforms, lines):
    """The texel of a leaf that is a trailing part of the output's shape: its flat index j is the
    output's modulo its size n. The code depends on what the sizes are like, not on them (a
    uniform each), and avoids integer division where it can (SwiftShader divides lane by lane:
    a batch normalization's per-channel statistics read by `%` made MobileNet v1 0.25's training
    step 10% slower): j from the fragment's column alone where n divides the output's texture
    width, by a mask where n is a power of two; the texel at (j, 0) or (0, j) where the leaf's
    texture is one row or one column."""
    _, n, width, height = mode
    index = "int(gl_FragCoord.x)" if out_width % n == 0 else "flat_"
    if n & (n - 1) == 0:
        uniforms.append((f"{var}Mask", "int", n - 1))
        lines.append(f"  int {var}i = {index} & {var}Mask;")
    else:
        uniforms.append((f"{var}Size", "int", n))
        lines.append(f"  int {var}i = {index} % {var}Size;")
    if height == 1:
        return f"ivec2({var}i, 0)"
    if width == 1:
        return f"ivec2(0, {var}i)"
    uniforms.append((f"{var}Width", "int", width))
    return f"ivec2({var}i % {var}Width, {var}i / {var}Width)"


def _shapeless_reads(backend, node, blocks=()):
    """How a shapeless program reads each leaf (Leaf.key -> mode; under None the output texture's
    width), or None where a leaf needs the compiler's getters. Modes: "same" (the output's size and
    texture width: the output's own texel), "one" (one value), "row" (a trailing part of the output's
    shape that is exactly one row of the output's texture: the same column), ("suffix", size, its
    texture's width and height) (a trailing part: flat index modulo its size, _suffix_texel)."""
    limit = backend.ctx.max_texture_size
    out_width = texture_shape(node.shape, limit)[0]
    size = size_of(node.shape)
    reads = {None: out_width}
    for leaf in node.leaves:
        if leaf.key in blocks:
            continue
        d = backend.store[leaf.info.data_id]
        if d.channels != 1 or d.complex_parts is not None:
            return None
        width, height = backend.texture_layout(leaf.info.data_id)
        n = size_of(leaf.info.shape)
        if n == 1:
            reads[leaf.key] = ("one",)
        elif n == size and width == out_width:
            reads[leaf.key] = ("same",)
        elif _is_trailing(leaf.info.shape, node.shape):
            reads[leaf.key] = ("row",) if (width, height) == (n, 1) and n == out_width else ("suffix", n, width, height)
        else:
            return None
    return reads


def _is_trailing(shape, out_shape):
    """shape, without its leading unit dimensions, is the end of out_shape."""
    shape = list(shape)
    while shape and shape[0] == 1:
        shape.pop(0)
    return len(shape) <= len(out_shape) and list(out_shape[len(out_shape) - len(shape):]) == shape
