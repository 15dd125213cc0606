"""Reading GLSL from the shaders/ folder: whole files, `// @program NAME` sections, and
single functions by name (so a program compiles only the op it uses)."""
import functools
import os
import re

_PKG = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# Inside a wheel or the browser bundle: pytfweb/shaders; in a source checkout: ../shaders.
_CANDIDATES = (os.path.join(_PKG, "shaders"), os.path.join(os.path.dirname(_PKG), "shaders"))


def shaders_dir():
    for d in _CANDIDATES:
        if os.path.isfile(os.path.join(d, "header.glsl")):
            return d
    raise FileNotFoundError(f"webgl: no shaders folder with header.glsl in {' or '.join(_CANDIDATES)}")


@functools.lru_cache(maxsize=None)
def read(name):
    with open(os.path.join(shaders_dir(), name), encoding="utf-8") as f:
        return f.read()


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
        raise KeyError(f"webgl: shaders/{name} has no '// @program {section}' section") from None


@functools.lru_cache(maxsize=None)
def function(name, fn_name):
    """The source of the top-level function fn_name in file name, or None."""
    text = read(name)
    m = re.search(r"^[ \t]*\w+\s+" + re.escape(fn_name) + r"\s*\(", text, re.M)
    if m is None:
        return None
    depth, i = 0, text.index("{", m.end())
    for j in range(i, len(text)):
        if text[j] == "{":
            depth += 1
        elif text[j] == "}":
            depth -= 1
            if depth == 0:
                return text[m.start():j + 1] + "\n"
    raise ValueError(f"webgl: unbalanced braces in {fn_name} of shaders/{name}")
