"""Reading shader source from the shaders/ folder beside each GPU backend (GLSL in
backends/webgl/shaders/, WGSL in backends/webgpu/shaders/; a file's suffix picks its folder): whole
files, `// @program NAME` sections, and single functions by name (so a program compiles only the op
it uses).

The elementwise op functions (unary_ops.glsl, binary_ops.glsl, and webgpu's unary_ops.wgsl and
binary_ops.wgsl) and the optimizers' updates (optimizers.glsl, optimizers.wgsl) are not files:
backends/gpu/elementwise_ops.py and optimizer_ops.py render them from one table each, and read()
serves them under those names, so every reader here and in webgpu/wgsl.py works alike."""
import functools
import os
import re

from ...core.package_data import read_text
from . import elementwise_ops, optimizer_ops

_BACKENDS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The same paths in a checkout, a wheel and the browser bundle (package data). Folders, not imports:
# the GPU core imports no backend.
_DIRS = {".glsl": os.path.join(_BACKENDS, "webgl", "shaders"),
         ".wgsl": os.path.join(_BACKENDS, "webgpu", "shaders")}


def path(name):
    """The file of shader `name` ("conv.glsl": webgl's, "conv.wgsl": webgpu's)."""
    return os.path.join(_DIRS[os.path.splitext(name)[1]], name)


@functools.lru_cache(maxsize=None)
def read(name):
    if name in elementwise_ops.names():
        return elementwise_ops.source(name)
    if name in optimizer_ops.names():
        return optimizer_ops.source(name)
    return read_text(path(name))


@functools.lru_cache(maxsize=None)
def sections(name):
    """{section name: text} for a file split by `// @program NAME` lines."""
    out = {}
    current = None
    for line in read(name).splitlines(keepends=True):
        m = re.match(r"\s*//\s*@program\s+(\S+)", line)
        if m:
            current = m.group(1)
            out[current] = ""
        elif current is not None:
            out[current] += line
    return out


def program(name, section):
    try:
        return sections(name)[section]
    except KeyError:
        raise KeyError(f"webgl: backends/webgl/shaders/{name} has no '// @program {section}' section") from None


@functools.lru_cache(maxsize=None)
def function(name, fn_name):
    """The source of the top-level function fn_name in file name, or None; functions of the
    same file that it calls come first, so the result compiles on its own."""
    parts = function_parts(name, fn_name)
    return "".join(text for _, text in parts) if parts else None


@functools.lru_cache(maxsize=None)
def function_parts(name, fn_name):
    """((function name, source), ...) of fn_name and the functions of the same file it calls,
    callees first; () when the file defines no fn_name. A program joining several ops' functions
    keeps each name once (unary_ops.glsl and binary_ops.glsl both define isInfinite, alike)."""
    own = _function_text(name, fn_name)
    if own is None:
        return ()
    parts = []
    for callee in dict.fromkeys(re.findall(r"\b(\w+)\s*\(", own.split("{", 1)[1])):
        if callee != fn_name:
            for part in function_parts(name, callee):
                if part not in parts:
                    parts.append(part)
    parts.append((fn_name, own))
    return tuple(parts)


@functools.lru_cache(maxsize=None)
def _function_text(name, fn_name):
    text = read(name)
    # A definition: at column 0, a return type, the name, parameters, then the body's brace.
    m = re.search(r"^\w+\s+" + re.escape(fn_name) + r"\s*\([^)]*\)\s*\{", text, re.M)
    if m is None:
        return None
    depth, i = 0, m.end() - 1  # the opening brace
    for j in range(i, len(text)):
        if text[j] == "{":
            depth += 1
        elif text[j] == "}":
            depth -= 1
            if depth == 0:
                return text[m.start():j + 1] + "\n"
    raise ValueError(f"webgl: unbalanced braces in {fn_name} of backends/webgl/shaders/{name}")
