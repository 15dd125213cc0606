"""WGSL from backends/webgpu/shaders/: files and `// @program NAME` sections through webgl's reader
(shader_source.read / sections), plus what WGSL needs of its own: a function by name with the
functions it calls (from the same file, then common.wgsl), and its signature (parameter and
return types), from which the programs decide how to load and store values.

The generated parts of a program (bindings, the uniform struct of shapes, index arithmetic) are
built in Python by the helpers at the end of this module."""
import functools
import re

from ..gpu import shader_source

COMMON = "common.wgsl"

# A definition at column 0: `fn name(params) -> type {` (the return type is optional).
_DEF = r"^fn\s+{name}\s*\(([^)]*)\)\s*(?:->\s*([\w<>]+)\s*)?\{{"


def read(name):
    return shader_source.read(name)


def program(name, section):
    try:
        return shader_source.sections(name)[section]
    except KeyError:
        raise KeyError(f"webgpu: backends/webgpu/shaders/{name} has no '// @program {section}' section") from None


@functools.lru_cache(maxsize=None)
def _definition(name, fn_name):
    """(text, ((param, type), ...), return type or None) of fn_name in file name, or None."""
    text = read(name)
    m = re.search(_DEF.format(name=re.escape(fn_name)), text, re.M)
    if m is None:
        return None
    depth = 0
    for j in range(m.end() - 1, len(text)):
        if text[j] == "{":
            depth += 1
        elif text[j] == "}":
            depth -= 1
            if depth == 0:
                params = tuple(tuple(p.strip() for p in part.split(":"))
                               for part in m.group(1).split(",") if part.strip())
                return text[m.start():j + 1] + "\n", params, m.group(2)
    raise ValueError(f"webgpu: unbalanced braces in {fn_name} of backends/webgpu/shaders/{name}")


def signature(name, fn_name):
    """((param, type), ...), return type of fn_name in file name; None when it is not defined."""
    d = _definition(name, fn_name)
    return None if d is None else (d[1], d[2])


def has(name, fn_name):
    return _definition(name, fn_name) is not None


@functools.lru_cache(maxsize=None)
def function_parts(name, fn_name):
    """((fn name, source), ...): fn_name and what it calls, callees first. A callee is looked up
    in the same file, then in common.wgsl; calls to WGSL built-ins are found in neither."""
    d = _definition(name, fn_name)
    if d is None:
        return ()
    own = d[0]
    parts = []
    for callee in dict.fromkeys(re.findall(r"\b(\w+)\s*\(", own.split("{", 1)[1])):
        if callee == fn_name:
            continue
        where = name if _definition(name, callee) is not None else COMMON
        for part in function_parts(where, callee):
            if part not in parts:
                parts.append(part)
    parts.append((fn_name, own))
    return tuple(parts)


def functions(*pairs):
    """The source of several functions ((file, fn name), ...) and their callees, each once."""
    seen = []
    for name, fn_name in pairs:
        parts = function_parts(name, fn_name)
        if not parts:
            raise KeyError(f"webgpu: backends/webgpu/shaders/{name} defines no {fn_name}")
        for part in parts:
            if part not in seen:
                seen.append(part)
    return "".join(text for _, text in seen)


def numbered(source):
    return "\n".join(f"{i + 1:4d}  {line}" for i, line in enumerate(source.splitlines()))


# --- generated parts ---------------------------------------------------------------------------

#: How each dtype is stored in a storage buffer (bool as 0/1 in an i32: WGSL has no 8-bit storage).
STORAGE_TYPE = {"float32": "f32", "int32": "i32", "bool": "i32"}


def bindings(out_type, inputs, uniform_fields, outputs=None):
    """Declarations: binding 0 the output (read_write), 1.. the inputs (read), then the uniform
    struct `u` (fields: ((name, "i32" | "f32" | "u32"), ...)). inputs: ((name, type), ...).
    outputs, when given, replaces the single output `result`: ((name, type), ...)."""
    outs = outputs if outputs is not None else (("result", out_type),)
    lines = []
    b = 0
    for name, t in outs:
        lines.append(f"@group(0) @binding({b}) var<storage, read_write> {name}: array<{t}>;")
        b += 1
    for name, t in inputs:
        lines.append(f"@group(0) @binding({b}) var<storage, read> {name}: array<{t}>;")
        b += 1
    fields = "".join(f"  {n}: {t},\n" for n, t in uniform_fields)
    lines.append(f"struct Uniforms {{\n{fields}}};")
    lines.append(f"@group(0) @binding({b}) var<uniform> u: Uniforms;")
    return "\n".join(lines) + "\n"


def coords(prefix, rank, index="index", strides="os"):
    """Statements splitting the flat `index` into coordinates {prefix}0.. by the uniform strides
    u.{strides}0.. (the last stride is 1 and not stored)."""
    if rank == 0:
        return ""
    out = [f"  var rem_{prefix} = {index};\n"]
    for d in range(rank - 1):
        out.append(f"  let {prefix}{d} = rem_{prefix} / u.{strides}{d};\n"
                   f"  rem_{prefix} = rem_{prefix} - {prefix}{d} * u.{strides}{d};\n")
    out.append(f"  let {prefix}{rank - 1} = rem_{prefix};\n")
    return "".join(out)


def dot(prefix, rank, strides):
    """The expression sum({prefix}d * u.{strides}d) (0 for rank 0)."""
    if rank == 0:
        return "0"
    return " + ".join(f"{prefix}{d} * u.{strides}{d}" for d in range(rank))


def stride_fields(name, rank, last=True):
    return tuple((f"{name}{d}", "i32") for d in range(rank if last else max(rank - 1, 0)))
