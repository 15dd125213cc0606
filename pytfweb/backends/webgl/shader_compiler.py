"""From a program (logical coordinates) to a complete GLSL ES 3.00 fragment shader.

A program gives its input names, output shape and a body calling getX(i, j, ...),
getXAtOutCoords(), getOutputCoords() and setOutput(v). This module adds, for the
concrete shapes of one call: samplers, getters that map logical coordinates onto each
input's 2D texture (unit dimensions squeezed out of the index), broadcasting getters, and
the output coordinate decoder. Shapes are baked in as constants, so a program compiles once
per (program key, shapes) and is cached by that key.
"""
from ...core.shapes import size_of, strides_of
from ..gpu import shader_source

_COORD_TYPES = {0: "int", 1: "int", 2: "ivec2", 3: "ivec3", 4: "ivec4", 5: "ivec5", 6: "ivec6"}
_FIELDS = "xyzwuv"


class InputInfo:
    """What the compiler needs of one input: its logical shape, its texture's size and its
    channels per texel (4: a packed operand, which the program reads texel by texel itself)."""
    __slots__ = ("name", "shape", "tex_shape", "channels")

    def __init__(self, name, shape, tex_shape, channels=1):
        self.name, self.shape, self.tex_shape = name, tuple(shape), tuple(tex_shape)
        self.channels = channels


def getter_name(var):
    return "get" + var[0].upper() + var[1:]


def coord_type(rank):
    if rank > 6:
        raise ValueError(f"webgl: tensors of rank {rank} are not supported (at most 6)")
    return _COORD_TYPES[rank]


def coord_fields(var, rank):
    """GLSL expressions for each component of a coordinate variable of the given rank."""
    if rank == 1:
        return [var]
    return [f"{var}.{_FIELDS[i]}" for i in range(rank)]


def index_expr(shape, args):
    """Flat row-major index from coordinate expressions, skipping unit dimensions."""
    strides = strides_of(shape)
    terms = [(a if s == 1 else f"{a} * {s}") for a, d, s in zip(args, shape, strides) if d != 1]
    return " + ".join(terms) if terms else "0"


def _texel(name, index_expr, tex_shape):
    w, h = tex_shape
    if h == 1:
        return f"texelFetch({name}, ivec2({index_expr}, 0), 0).r"
    return f"texelFetch({name}, ivec2({_mod(f'({index_expr})', w)}, {_div(f'({index_expr})', w)}), 0).r"


def row_split(shape, tex_shape):
    """j such that each texture row holds exactly dimensions shape[j:] (texture_shape's layout
    for large tensors, or a reshape's), or None."""
    w, h = tex_shape
    if len(shape) < 2 or h <= 1:
        return None
    width = 1
    for j in range(len(shape) - 1, 0, -1):
        width *= shape[j]
        if width == w:
            return j
        if width > w:
            return None
    return None


def row_units(shape, tex_shape):
    """(j, k) such that each texture row holds k > 1 runs of dimensions shape[j:], the largest
    such runs (texture_shape's layout where rows of one would be too many), or None."""
    w, h = tex_shape
    if len(shape) < 2 or h <= 1:
        return None
    found, unit = None, 1
    for j in range(len(shape) - 1, 0, -1):
        unit *= shape[j]
        if unit == 0 or unit >= w:
            break
        if w % unit == 0:
            found = (j, w // unit)
    return found


def sampler(inp):
    """The uniform declaring an input's sampler: a product's blocks (channels 4n, n > 1: the layers
    of an array texture) are a sampler2DArray, which the program reads itself."""
    return f"uniform {'sampler2DArray' if inp.channels > 4 else 'sampler2D'} {inp.name};"


def input_getters(inp, out_shape):
    if inp.channels != 1:
        return sampler(inp)
    name, shape = inp.name, inp.shape
    g = getter_name(name)
    rank = len(shape)
    args = [f"d{i}" for i in range(rank)]
    params = ", ".join(f"int {a}" for a in args)
    w, _ = inp.tex_shape
    code = [f"uniform sampler2D {name};"]
    # Flat access (index into the row-major data), used by reductions and gathers.
    code.append(f"float {g}Flat(int index) {{ return {_texel(name, 'index', inp.tex_shape)}; }}")
    idx = index_expr(shape, args)
    split = row_split(shape, inp.tex_shape)
    if split is not None:
        # Texture rows are the innermost dimensions: no division needed.
        row = index_expr(shape[:split], args[:split])
        col = index_expr(shape[split:], args[split:])
        body = f"texelFetch({name}, ivec2({col}, {row}), 0).r"
    elif (units := row_units(shape, inp.tex_shape)) is not None:
        j, k = units
        outer = f"({index_expr(shape[:j], args[:j])})"
        col = f"{_mod(outer, k)} * {size_of(shape[j:])} + {index_expr(shape[j:], args[j:])}"
        body = f"texelFetch({name}, ivec2({col}, {_div(outer, k)}), 0).r"
    else:
        body = _texel(name, idx, inp.tex_shape) if idx != "0" else f"texelFetch({name}, ivec2(0, 0), 0).r"
    code.append(f"float {g}({params}) {{ return {body}; }}")
    # Broadcast read at the output's coordinates: align right, unit dims read index 0.
    # (Only where the input does not outrank the output: otherwise it has no meaning.)
    out_rank = len(out_shape)
    offset = out_rank - rank
    if offset < 0:
        return "\n".join(code)
    out_fields = coord_fields("c", out_rank) if out_rank else []
    call_args = []
    for i, d in enumerate(shape):
        call_args.append("0" if d == 1 else out_fields[i + offset])
    if out_rank:
        code.append(f"float {g}AtOutCoords() {{ {coord_type(out_rank)} c = getOutputCoords(); "
                    f"return {g}({', '.join(call_args)}); }}")
    else:
        code.append(f"float {g}AtOutCoords() {{ return {g}({', '.join(call_args)}); }}")
    return "\n".join(code)


def output_coords(out_shape, tex_shape):
    """getOutputIndex() and computeOutputCoords(), this fragment's flat index and coordinates;
    build_source makes getOutputCoords() return the latter, computed once per fragment."""
    rank = len(out_shape)
    w, h = tex_shape
    ctype = coord_type(rank)
    lines = ["int getOutputIndex() {",
             f"  return int(gl_FragCoord.y) * {w} + int(gl_FragCoord.x);" if h > 1 else
             "  return int(gl_FragCoord.x);", "}"]
    if rank == 0:
        lines.append("int computeOutputCoords() { return 0; }")
        return "\n".join(lines)
    split = row_split(out_shape, tex_shape)
    if split is not None:
        # Rows of the texture are the innermost dimensions.
        lines.append(f"{ctype} computeOutputCoords() {{")
        lines.append("  int index = int(gl_FragCoord.y);")
        lines.append("  int column = int(gl_FragCoord.x);")
        comps = _decode("index", out_shape[:split]) + _decode("column", out_shape[split:])
    elif (units := row_units(out_shape, tex_shape)) is not None:
        j, k = units
        unit = size_of(out_shape[j:])
        lines.append(f"{ctype} computeOutputCoords() {{")
        lines.append(f"  int index = int(gl_FragCoord.y) * {k} + {_div('int(gl_FragCoord.x)', unit)};")
        lines.append(f"  int column = {_mod('int(gl_FragCoord.x)', unit)};")
        comps = _decode("index", out_shape[:j]) + _decode("column", out_shape[j:])
    else:
        lines.append(f"{ctype} computeOutputCoords() {{")
        lines.append("  int index = getOutputIndex();")
        comps = _decode("index", out_shape)
    lines.extend(f"  int r{i} = {c};" for i, c in enumerate(comps))
    names = [f"r{i}" for i in range(rank)]
    if rank == 1:
        lines.append("  return r0;")
    elif rank <= 4:
        lines.append(f"  return {ctype}({', '.join(names)});")
    else:
        lines.append(f"  return {ctype}({', '.join(names)});")
    lines.append("}")
    return "\n".join(lines)


def _div(expr, s):
    """expr / s for a non-negative expr: a shift when s is a power of two (SwiftShader runs
    integer division lane by lane, far slower than a shift)."""
    if s == 1:
        return expr
    return f"({expr} >> {s.bit_length() - 1})" if s & (s - 1) == 0 else f"({expr} / {s})"


def _mod(expr, d):
    return f"({expr} & {d - 1})" if d & (d - 1) == 0 else f"({expr} % {d})"


def _decode(var, shape):
    """Expressions decoding a flat index into coordinates of shape (row-major)."""
    strides = strides_of(shape)
    out = []
    for i, (d, s) in enumerate(zip(shape, strides)):
        out.append(_div(var, s) if i == 0 else _mod(_div(var, s), d))
    return out


def build_source(program, inputs, out_tex_shape):
    """The full fragment shader for program with inputs (InputInfo) on an output texture."""
    parts = ["#version 300 es", "precision highp float;", "precision highp int;", "precision highp sampler2D;",
             "precision highp sampler2DArray;"]
    if program.packed_outputs or program.outputs > 1:
        parts.append(f"#define OUTPUTS {program.packed_outputs or program.outputs}")
    parts.append(shader_source.read("header.glsl"))
    for name, typ in program.uniforms:
        parts.append(f"uniform {typ} {name};")
    if program.shapeless:
        parts.extend(sampler(inp) for inp in inputs)
        parts.append(program.user_code)
        return "\n".join(parts)
    parts.append(output_coords(program.output_shape, out_tex_shape))
    # getOutputCoords() computed once per fragment, before the program's main runs, where the
    # program asks for it: each xAtOutCoords() getter and the program itself call it, and shader
    # compilers (SwiftShader's among them) do not merge those repeated decodings.
    code = program.user_code
    ctype = coord_type(len(program.output_shape))
    cache = ("getOutputCoords" in code or "AtOutCoords" in code) and code.count("void main()") == 1
    if cache:
        parts.append(f"{ctype} outCoords_;\n{ctype} getOutputCoords() {{ return outCoords_; }}")
        code = (code.replace("void main()", "void programMain()")
                + "\nvoid main() {\n  outCoords_ = computeOutputCoords();\n  programMain();\n}\n")
    else:
        parts.append(f"{ctype} getOutputCoords() {{ return computeOutputCoords(); }}")
    for inp in inputs:
        parts.append(input_getters(inp, program.output_shape))
    parts.append(code)
    return "\n".join(parts)


def numbered(source):
    return "\n".join(f"{i + 1:4d}  {line}" for i, line in enumerate(source.splitlines()))
