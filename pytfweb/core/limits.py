"""Limits on what data from outside (model files, JSON configs, nested lists, shapes in arguments) may
make the process allocate or recurse into. Each limit is a flag of `tf.env()` (environment.py), so a
user with a bigger model can raise it; each refusal is a ValueError naming the source and the limit.
"""
import contextlib
import gc
import json
import re
import sys

from .environment import ENV

_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_INNERMOST = re.compile(r"\[\]|\{\}")


def max_elements():
    return int(ENV.get("MAX_TENSOR_ELEMENTS"))


def check_elements(shape, what):
    """ValueError when a tensor of `shape` would hold more than MAX_TENSOR_ELEMENTS values. `what`
    names the op and argument (or layer and weight) for the message. Works on any iterable of ints
    without building the product past the limit, so a shape of 10**12 costs nothing."""
    limit = max_elements()
    size = 1
    for d in shape:
        size *= int(d)
        if size > limit:
            break
    else:
        return size
    dims = "x".join(str(int(d)) for d in shape)
    raise ValueError(f"{what}: a tensor of shape [{dims}] would hold more than {limit} values, the limit of "
                     f"tf.env() flag MAX_TENSOR_ELEMENTS (raise it with tf.env().set('MAX_TENSOR_ELEMENTS', n) "
                     f"if this size is intended)")


def max_depth():
    return int(ENV.get("MAX_NESTING_DEPTH"))


def check_depth(value, what):
    """ValueError when lists/dicts nest deeper than MAX_NESTING_DEPTH; level by level, so it cannot
    itself run out of stack (and the list comprehension keeps a model.json's walk to ~10 ms)."""
    limit = max_depth()
    containers = (dict, list, tuple)
    level = [value] if isinstance(value, containers) else []
    depth = 0
    while level:
        depth += 1
        if depth > limit:
            raise ValueError(f"{what}: nested more than {limit} levels deep, the limit of tf.env() flag "
                             f"MAX_NESTING_DEPTH")
        below = []
        for v in level:
            below += [c for c in (v.values() if isinstance(v, dict) else v) if isinstance(c, containers)]
        level = below
    return value


def nesting_error(op, arg):
    """The ValueError for an argument nested deeper than MAX_NESTING_DEPTH."""
    return ValueError(f"{op}: argument '{arg}' nests deeper than {max_depth()} levels, the limit of tf.env() flag "
                      f"MAX_NESTING_DEPTH")


def flatten_nested(values, out, nested, op, arg):
    """The leaves of `values` (whose nested(v) items are walked into), in order, appended to out: with
    a stack of iterators, not recursion, and nesting_error(op, arg) past MAX_NESTING_DEPTH levels."""
    limit = max_depth()
    stack = [iter(values)]
    while stack:
        for v in stack[-1]:
            if nested(v):
                if len(stack) >= limit:
                    raise nesting_error(op, arg)
                stack.append(iter(v))
                break
            out.append(v)
        else:
            stack.pop()
    return out


@contextlib.contextmanager
def gc_paused():
    """The cyclic garbage collector off for the block (as it was after). Building a model's many
    small containers (json.loads of a model.json, its graph's nodes) triggers collection after
    collection that each walk every tracked object and find nothing to free: in the page that
    was half of a model.json's parse. Only for blocks that make no cyclic garbage: synchronous ones,
    or a load whose awaits are short (tf.load_graph_model's), where other tasks' cycles wait for
    its end."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def load_json(text, source, depth=None):
    """json.loads of text (str or bytes) from `source` (a file name or URL, for messages): a ValueError,
    never a RecursionError, for nesting beyond MAX_NESTING_DEPTH or text that is not JSON. depth: the
    text's nesting where the caller has measured it already (the page's loads, in the browser's pass
    over the text), else the page measures it here."""
    if isinstance(text, (bytes, bytearray, memoryview)):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as e:
            raise ValueError(f"{source}: not UTF-8 text ({e})") from None
    in_page = sys.platform == "emscripten"
    if in_page and (depth > max_depth() if depth is not None else _too_deep(text)):
        raise ValueError(f"{source}: JSON nested more than {max_depth()} levels deep, the limit of tf.env() flag "
                         f"MAX_NESTING_DEPTH")
    try:
        with gc_paused():
            value = json.loads(text)
    except RecursionError:
        raise ValueError(f"{source}: JSON nested more than {max_depth()} levels deep, the limit of tf.env() flag "
                         f"MAX_NESTING_DEPTH") from None
    except ValueError as e:
        raise ValueError(f"{source}: not valid JSON ({e})") from None
    # (in the page _too_deep has measured the very nesting check_depth would walk)
    return value if in_page else check_depth(value, source)


# The page's scan (_too_deep): one pass in the browser's JavaScript, the depth of brackets outside
# strings; 0 where they do not balance (json.loads then says what is wrong).
_DEPTH_JS = """(text) => {
  let depth = 0, deepest = 0, inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++;                 // a backslash: the next character is escaped
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 || c === 123) { if (++depth > deepest) deepest = depth; }
    else if (c === 93 || c === 125) { if (--depth < 0) return 0; }
  }
  return depth === 0 ? deepest : 0;
}"""
_DEPTH_FN = []


def js_depth():
    """The page's JavaScript function of _DEPTH_JS (made once): other JS that measures a text's
    nesting before Python sees it (io/http_reader.js's sendWeights) is handed this one."""
    import js   # the page only
    if not _DEPTH_FN:
        _DEPTH_FN.append(js.Function.new("return " + _DEPTH_JS)())
    return _DEPTH_FN[0]


def _too_deep(text):
    """Whether JSON text nests deeper than MAX_NESTING_DEPTH, found without parsing it. In Pyodide the
    json module's C decoder overflows WebAssembly's stack (the page crashes) long before it would raise
    RecursionError, so the page checks first, in one JavaScript pass over the text where it can
    (_DEPTH_JS), else with regexes: strings out, brackets kept, innermost pairs removed once a level."""
    if sys.platform == "emscripten":
        return js_depth()(text) > max_depth()
    return _too_deep_regex(text)


def _too_deep_regex(text):
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
    for _ in range(max_depth()):
        if not brackets:
            return False
        shorter = _INNERMOST.sub("", brackets)
        if len(shorter) == len(brackets):
            return False   # unbalanced: json.loads says what is wrong
        brackets = shorter
    return bool(brackets)
