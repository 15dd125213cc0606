"""The packed matrix product behind BatchMatMul, _FusedMatMul and the 2D convolutions (as
im2col products): four draws, GLSL in backends/webgl/shaders/gemm.glsl.

1. pack_a: A into RGBA texels, four consecutive k per texel (any A: a transposed view, a
   convolution's image patches, ... the caller gives `aValue`);
2. pack_b: B into RGBA texels, four consecutive columns per texel (kept with B's data for the
   next product with the same B: weights are packed once), its matrices tiled side by side where
   stacking them would pass the texture height;
3. gemm: each fragment an 8x4 block of the product (4x4 where fewer than eight render targets
   exist), into eight (four) RGBA render targets;
4. unpack: the product as an ordinary tensor, where a fused bias and activation are applied and a
   split product's partial sums are added (a long K cut into batches: more fragments at work, and
   each operand's grid within the texture limits; the filter gradients use it).

One value per fragment with two fetches per multiply-add (the plain programs) costs SwiftShader
and GPUs alike far more than this: measured on this machine's SwiftShader, 1024x1024 products
take ~0.4 s this way (8x4 blocks; 4x4: 0.5 s) against ~6 s one value per fragment, and TF.js's
packed 2x2 program ~0.9 s.
The packing draws read each input once, so they pay off only on larger products (MIN_WORK).
"""
from ....kernels import TensorInfo
from ....core.shapes import size_of
from ...gpu import shader_source
from ..texture_manager import texture_shape
from . import fusion
from .program import Program

_FILE = "gemm.glsl"

#: Products of fewer multiply-adds (m * n * k * batches) use the one-value-per-fragment program:
#: below this the three extra draws cost more than the product.
MIN_WORK = 1 << 15


class Operand:
    """How pack_a or pack_b reads one side: GLSL defining aValue/aValues or bValue/bValues over
    the inputs `names` (bound to `views`), `key` naming that code, `batches` its matrices. B has
    one input, which its packed form is derived from alone (WebGLBackend.derived_data keeps it)."""
    __slots__ = ("key", "names", "views", "code", "batches")

    def __init__(self, key, names, views, code, batches):
        self.key, self.names, self.views, self.code, self.batches = key, tuple(names), list(views), code, batches


class Plan:
    """The padded sizes and texture grids of one product, or None from plan() when the packed
    path does not apply (too small, or a grid past the texture size)."""
    __slots__ = ("m", "n", "k", "a_rows", "q", "kpad", "n4", "fold", "out_batches", "block_rows",
                 "b_batches", "b_stack", "b_columns")


def _ceil_div(a, b):
    return -(-a // b)


def block_rows(backend):
    """Rows of C per fragment: one render target each (0: too few for the packed path)."""
    targets = backend.ctx.max_draw_buffers
    return 8 if targets >= 8 else 4 if targets >= 4 else 0


def plan(backend, m, n, k, a_batches, b_batches, out_batches):
    rows = block_rows(backend)
    if m * n * k * out_batches < MIN_WORK or not rows:
        return None
    limit = backend.ctx.max_texture_size
    p = Plan()
    p.m, p.n, p.k, p.out_batches, p.block_rows = m, n, k, out_batches, rows
    p.a_rows = _ceil_div(m, rows) * rows
    p.q = _ceil_div(k, 4)
    p.kpad = 4 * p.q
    p.n4 = _ceil_div(n, 4)
    a_grid_rows = a_batches * p.a_rows
    p.fold = _ceil_div(a_grid_rows, limit)
    p.b_batches = b_batches
    p.b_stack = min(b_batches, limit // p.kpad)
    if p.b_stack == 0:
        return None
    p.b_columns = _ceil_div(b_batches, p.b_stack)
    if p.fold * p.q > limit or p.b_columns * p.n4 > limit or out_batches * p.a_rows // rows > limit:
        return None
    return p


_PRODUCT_UNIFORMS = tuple((name, "int") for name in ("A_ROWS", "Q", "KPAD", "N4", "B_STACK", "FOLD"))


def _defines(**values):
    return "".join(f"#define {k} {v}\n" for k, v in values.items())


def _pack(backend, section, operand, defines, grid):
    program = Program(f"gemm:{section}:{operand.key}:{defines}", operand.names, grid,
                      defines + operand.code + shader_source.program(_FILE, section), packed_outputs=1)
    return backend.run_packed(program, operand.views)


def product(backend, p, a, b, batch_code, out_shape, coords_code, epilogue=None, keep_b=True, splits=1,
            row_major=False, lazy=None):
    """The product of operands a and b under plan p as a float32 tensor of out_shape.

    batch_code defines `int aBatch(int batch)` and `int bBatch(int batch)`; coords_code
    `void productCoords(out int r, out int col)` for the unpack program (whose output shape
    is out_shape); epilogue: (names, views, code, uniforms, values) of a fused bias/activation.
    splits > 1: a split product (plan out_batches == splits): unpack sums its batches, and out_shape
    and coords_code are those of one batch. keep_b=False: B's packed form is not kept (B is not a
    weight but an activation or a gradient, used once). row_major: the output's values are the
    product's [batches, m, n] in row-major order (a matmul, a channels-last convolution), so the
    unpack may be shapeless (see unpack). lazy: see unpack."""
    a_grid_rows = a.batches * p.a_rows
    a4 = _pack(backend, "pack_a", a,
               _defines(M=p.m, K=p.k, Q=p.q, A_ROWS=p.a_rows, A_BATCHES=a.batches, FOLD=p.fold),
               (_ceil_div(a_grid_rows, p.fold), p.fold * p.q))
    temps = [a4]
    try:
        b_defines = _defines(N=p.n, N4=p.n4, K=p.k, KPAD=p.kpad, B_BATCHES=p.b_batches, B_STACK=p.b_stack)

        def pack_b():
            return _pack(backend, "pack_b", b, b_defines, (p.b_stack * p.kpad, p.b_columns * p.n4))
        if keep_b:
            # B is most often weights, used again and again: its packed form is kept with its data.
            b4 = backend.derived_data(b.views[0].data_id,
                                      ("gemm:pack_b", b.key, b_defines, tuple(b.views[0].shape)), pack_b)
        else:
            b4 = pack_b()
            temps.append(b4)
        # shapeless: the sizes are uniforms (see gemm.glsl's gemm), the key is the code
        code = (_defines(BLOCK_ROWS=p.block_rows) + batch_code + shader_source.function(_FILE, "divide")
                + shader_source.program(_FILE, "gemm"))
        grid = (p.out_batches * p.a_rows // p.block_rows, p.n4)
        blocks = backend.run_packed(Program(f"gemm:product:{code}", ("a4", "b4"), grid, code,
                                            _PRODUCT_UNIFORMS, packed_outputs=p.block_rows, shapeless=True),
                                    [a4, b4],
                                    (p.a_rows, p.q, p.kpad, p.n4, p.b_stack, p.fold))
        temps.append(blocks)
        return unpack(backend, blocks, out_shape, _defines(A_ROWS=p.a_rows) + coords_code, epilogue, splits,
                      (p.n, p.m, p.a_rows) if row_major and splits == 1 else None, lazy)
    finally:
        for t in temps:
            backend.dispose_data(t.data_id)


def unpack(backend, blocks, out_shape, coords_code, epilogue=None, splits=1, flat=None, lazy=None):
    """A product's 4 or 8 blocks (run_packed's array texture) laid out as the gemm program's
    outputs (layer t, texel (rb, c): rows block_count(blocks) rb + t, columns 4c .. 4c+3) as a
    float32 tensor of out_shape; coords_code defines
    `void productCoords(out int r, out int col)` (and A_ROWS when splits > 1: the value at r is
    the sum of those at r, r + A_ROWS, ..., one per split). The caller disposes blocks.

    flat = (n, w, row_step): the output's flat index f is at column f % n of row r = (p / w) *
    row_step + p % w, p = f / n (a product's [batches, m, n]: (n, m, a_rows); the packed depthwise
    blocks: (channels, output width, block row width)). Then, where the epilogue's inputs are one
    value or one per column, the unpack is shapeless (Program.shapeless): sizes go as uniforms,
    and the convolutions of a model's many layer shapes share one unpack program.

    lazy = (shape, ops): with flat, where lazy elementwise fusion is on, the unpack is not drawn but
    left pending (programs/fusion.py: unpack_node) as the output the caller returns under `shape`,
    and the epilogue is `ops` ((fusion op, its second input or None), ...: the bias add and the
    activation) as pending elementwise ops over it: the elementwise ops that read the product (a
    residual add, an activation the graph did not fuse) then draw in the same program, which saves
    a draw and a texture pass per product they follow. None: the epilogue cannot be written so."""
    if lazy is not None and flat is not None and splits == 1 and fusion.enabled():
        out = fusion.defer_unpack(backend, blocks, flat, *lazy)
        if out is not None:
            return out
    shapeless = flat is not None and _flat_unpack(backend, blocks, out_shape, flat, epilogue)
    if shapeless:
        return shapeless
    names = ("blocks",)
    views, code, uniforms, values = [blocks], _defines(BLOCK_ROWS=block_count(blocks), SPLITS=splits), (), ()
    if epilogue is not None:
        extra_names, extra_views, epilogue_code, uniforms, values = epilogue
        code += epilogue_code
        names += tuple(extra_names)
        views += list(extra_views)
    code += coords_code + shader_source.program(_FILE, "unpack")
    out = backend.run(Program(f"gemm:unpack:{code}", names, out_shape, code, uniforms), views, "float32", values)
    return TensorInfo(out.data_id, tuple(out_shape), "float32")


def block_count(blocks):
    """The number of blocks (rows per block row, 4 or 8) of a product's blocks (run_packed: the
    layers of one array texture, shape [rows, columns, 4 x that])."""
    return blocks.shape[-1] // 4


def _flat_unpack(backend, blocks, out_shape, flat, epilogue):
    """unpack's shapeless program, or None where an epilogue input is neither one value nor one
    per column, or the output is too large for its flat index to divide exactly in float32."""
    size = size_of(out_shape)
    if size >= 1 << 24:
        return None
    n, w, row_step = flat
    names = ("blocks",)
    views, code, uniforms = [blocks], _defines(BLOCK_ROWS=block_count(blocks)), []
    if epilogue is not None:
        extra_names, extra_views, epilogue_code, epilogue_uniforms, epilogue_values = epilogue
        for name, view in zip(extra_names, extra_views):
            getter = f"get{name[0].upper()}{name[1:]}AtOutCoords"
            count = size_of(view.shape)
            if count == 1:
                code += f"float {getter}() {{ return texelFetch({name}, ivec2(0, 0), 0).r; }}\n"
            elif count == n and view.shape[-1] == n:
                width, height = backend.texture_layout(view.data_id)
                if height == 1:   # (a bias's texture: one row)
                    texel = "ivec2(column_, 0)"
                else:
                    code += f"int {name}Row() {{ return divide(column_, {name}Width); }}\n"
                    texel = f"ivec2(column_ - {name}Row() * {name}Width, {name}Row())"
                    uniforms.append((f"{name}Width", "int", width))
                code += f"float {getter}() {{ return texelFetch({name}, {texel}, 0).r; }}\n"
            else:
                return None
        names += tuple(extra_names)
        views += list(extra_views)
        code += epilogue_code
        uniforms.extend((name, typ, value) for (name, typ), value in zip(epilogue_uniforms, epilogue_values))
    uniforms += [("outWidth", "int", texture_shape(out_shape, backend.ctx.max_texture_size)[0]),
                 ("unpackN", "int", n), ("unpackW", "int", w), ("unpackRowStep", "int", row_step)]
    code = "int column_;\n" + shader_source.program(_FILE, "flat_coords") + code + shader_source.program(_FILE, "unpack")
    program = Program(f"gemm:unpack_flat:{code}", names, out_shape, code, tuple((u, t) for u, t, _ in uniforms),
                      shapeless=True)
    out = backend.run(program, views, "float32", tuple(v for _, _, v in uniforms))
    return TensorInfo(out.data_id, tuple(out_shape), "float32")
