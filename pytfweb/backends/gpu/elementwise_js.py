"""A third renderer of the elementwise IR (elementwise_ir.py): JavaScript, with float32 and int32
semantics, for the plan runner that computes small elementwise plans on the CPU
(cpu_forward_runner.py, as TF.js's webgl backend forwards small ops to its CPU kernels).

The JavaScript is rendered from webgpu's bodies (per_target's wgsl side, only("wgsl", ...)
statements): they spell out numpy's special values (infinities, zeros' signs, NaN), where GLSL's
rely on the GPU's. Values are JS numbers:
  f32   a double that is always a float32: Math.fround after every float operation and built-in,
        so + - * / give the GPU's float32 results bit for bit (one IEEE operation, rounded once);
        built-ins (exp, sin, ...) are computed in double and rounded: within float32 of the GPU's
        approximations, never further from the true value;
  i32   an int32: |0 after + - / %, Math.imul for *, as WGSL's wrapping arithmetic;
  u32   a uint32: >>> 0 after each operation;
  bool  true/false; u32x2 a two-element array [low, high].

An op's calling convention is webgpu's (programs/elementwise.py: choose, load, store): the
function for a dtype is op_<K>_int for int32/bool operands where the table has one, else op_<K>;
an int32 operand of an f32 function is rounded to float32; a result is stored through its typed
array (Float32Array rounds, Int32Array applies JS's ToInt32 as webgpu's toInt32 does, a bool
stores 0/1), and a unary f32 op returns a NaN input as it is, except those in NAN_AWARE."""
import functools
import math
import struct

from .elementwise_ir import (ARITH, BOOL, COMPARE, F32, I32, INTRINSICS, U32, U32X2, Function, IRError,
                             _POLYMORPHIC, _Renderer, arg, cos, pow_, sin, tan)
from .elementwise_ops import ATTR_UNIFORMS, BINARY_FUNCTIONS, HELPERS, UNARY_FUNCTIONS

#: the table's bodies the JavaScript is rendered from
BODIES = "wgsl"

# Unary ops whose function defines its own result for NaN (webgpu's, programs/elementwise.py).
NAN_AWARE = {"Sign", "IsNan", "IsInf", "IsFinite"}

TYPED_ARRAYS = {"float32": "Float32Array", "int32": "Int32Array", "bool": "Uint8Array"}
_STORAGE = {"float32": F32, "int32": I32, "bool": I32}

_MATH = {"exp": "Math.exp", "log": "Math.log", "log2": "Math.log2", "sqrt": "Math.sqrt", "sin": "Math.sin",
         "cos": "Math.cos", "tan": "Math.tan", "asin": "Math.asin", "acos": "Math.acos", "atan": "Math.atan",
         "atan2": "Math.atan2", "pow": "Math.pow", "floor": "Math.floor", "ceil": "Math.ceil",
         "trunc": "Math.trunc", "round_even": "_roundEven"}

#: what the rendered functions call besides Math: one copy in front of every program
PRELUDE = """const F = Math.fround;
const _f32 = new Float32Array(1), _u32 = new Uint32Array(_f32.buffer);
function _bits(x) { _f32[0] = x; return _u32[0]; }
function _isinf(x) { return x === Infinity || x === -Infinity; }
function _roundEven(x) {
  const r = Math.round(x);
  return (r - x === 0.5 && r % 2 !== 0) ? r - 1 : r;
}
function _toI32(x) {
  return x !== x ? 0 : x >= 2147483647 ? 2147483647 : x <= -2147483648 ? -2147483648 : Math.trunc(x) | 0;
}
function _toU32(x) { return x !== x || x <= 0 ? 0 : x >= 4294967295 ? 4294967295 : Math.trunc(x) >>> 0; }
"""


def _float_literal(value):
    value = float(value)
    if math.isinf(value) or math.isnan(value):
        raise IRError("elementwise IR: write INF / NAN, not a literal")
    text = repr(value)
    # a literal the float32 shader rounds: rounded the same way here
    return text if struct.unpack("f", struct.pack("f", value))[0] == value else f"F({text})"


class JS(_Renderer):
    """Renders the IR's functions (their wgsl bodies) as JavaScript functions."""
    target = BODIES
    type_names = {F32: "f32", I32: "i32", U32: "u32", BOOL: "bool", U32X2: "u32x2"}
    support = {}

    # expressions: (text, None); every compound expression is parenthesized --------------------------
    def expr(self, n, env, want=None):
        return self._e(n, env, want), None

    def _e(self, n, env, want=None):
        k = n.kind
        if k == "target":
            return self._e(self.pick(n), env, want)
        if k == "const":
            t = n.type or want or I32
            if t == BOOL:
                return "true" if n.value else "false"
            if t == F32:
                return _float_literal(n.value)
            if t == U32 and n.value < 0:
                raise IRError("elementwise IR: a negative u32 literal")
            return str(int(n.value))
        if k in ("arg", "var"):
            self.infer(n, env)
            return self.names.get(n.value, n.value)
        if k == "attr":
            self.attrs.setdefault(n.value, n.type)
            return self.names.get(n.value, n.value)
        if k == "binop":
            return self._binop(n, env, want)
        if k == "unop":
            t = self.infer(n.args[0], env) or want or I32
            x = self._e(n.args[0], env, t)
            if n.value == "neg":
                return {F32: f"(-{x})", I32: f"((-{x}) | 0)", U32: f"((-{x}) >>> 0)"}[t]
            return {BOOL: f"(!{x})", I32: f"(~{x})", U32: f"((~{x}) >>> 0)"}[t]
        if k == "call":
            t = self.infer(n, env) if n.value in _POLYMORPHIC else F32
            t = t or want or I32
            args = [self._e(a, env, t) for a in n.args]
            name = n.value
            if name in ("abs", "sign", "min", "max"):
                text = f"Math.{name}({', '.join(args)})"
            elif name == "clamp":
                text = f"Math.min(Math.max({args[0]}, {args[1]}), {args[2]})"
            elif name == "exp2":
                text = f"Math.pow(2, {args[0]})"
            elif name == "inversesqrt":
                text = f"(1 / Math.sqrt({args[0]}))"
            elif name in _MATH:
                text = f"{_MATH[name]}({', '.join(args)})"
            else:
                raise IRError(f"elementwise IR: javascript has no built-in for {name}")
            if t == F32:
                return f"F({text})"
            return f"({text} | 0)" if t == I32 else f"({text} >>> 0)"
        if k == "intrinsic":
            args = [self._e(a, env, t) for a, t in zip(n.args, INTRINSICS[n.value][1])]
            x = args[0] if args else None
            return {
                "isnan": lambda: f"({x} !== {x})", "isinf": lambda: f"_isinf({x})",
                "isneg": lambda: f"(_bits({x}) >= 2147483648)",
                "nan": lambda: "NaN", "inf": lambda: "Infinity", "negzero": lambda: "(-0)",
                "clear_sign": lambda: f"Math.abs({x})",
                "to_int32": lambda: f"({x} | 0)",                    # JS's ToInt32 itself
                "bit_length": lambda: f"(32 - Math.clz32({x}))",
                "bits_u32": lambda: f"_bits({x})",
                "as_i32": lambda: f"({x} | 0)",
            }[n.value]()
        if k == "fn":
            f = self._fn(n.value)
            if len(n.args) != len(f.params):
                raise IRError(f"elementwise IR: {n.value} takes {len(f.params)} arguments")
            args = [self._e(a, env, t) for a, (_, t) in zip(n.args, f.params)]
            return f"{f.name}({', '.join(args)})"
        if k == "select":
            t = self.infer(n, env) or want or I32
            c, a, b = self._e(n.args[0], env, BOOL), self._e(n.args[1], env, t), self._e(n.args[2], env, t)
            return f"({c} ? {a} : {b})"
        if k == "cast":
            src = self.infer(n.args[0], env) or n.type
            x = self._e(n.args[0], env, src)
            return _cast(x, src, n.type)
        if k == "pair":
            return f"[{self._e(n.args[0], env, U32)}, {self._e(n.args[1], env, U32)}]"
        if k == "field":
            return f"{self._e(n.args[0], env, U32X2)}[{0 if n.value == 'x' else 1}]"
        raise IRError(f"elementwise IR: unknown node kind {k!r}")

    def _binop(self, n, env, want):
        a, b = n.args
        op = n.value
        if op in ("<<", ">>"):
            t = self.infer(a, env) or want or I32
            x, s = self._e(a, env, t), self._e(b, env, self.infer(b, env) or I32)
            if t == U32:
                return f"(({x} << {s}) >>> 0)" if op == "<<" else f"({x} >>> {s})"
            return f"({x} {op} {s})"
        t = self.unify(self.infer(a, env), self.infer(b, env), n)
        t = t or (I32 if op in COMPARE else want or I32)
        x, y = self._e(a, env, t), self._e(b, env, t)
        if op in COMPARE:
            return f"({x} {({'==': '===', '!=': '!=='}).get(op, op)} {y})"
        if op in ("&", "|"):
            if t == BOOL:
                return f"({x} {op * 2} {y})"
            return f"({x} {op} {y})" if t == I32 else f"(({x} {op} {y}) >>> 0)"
        if op not in ARITH:
            raise IRError(f"elementwise IR: unknown operator {op!r}")
        if t == F32:
            return f"F({x} {op} {y})"
        if op == "*":
            return f"Math.imul({x}, {y})" if t == I32 else f"(Math.imul({x}, {y}) >>> 0)"
        return f"(({x} {op} {y}) | 0)" if t == I32 else f"(({x} {op} {y}) >>> 0)"

    # statements -----------------------------------------------------------------------------------
    def declare(self, name, t, init, mutable):
        return f"let {name}" + (" = " + init if init is not None else (" = false" if t == BOOL else " = 0")) + ";"

    def statements(self, stmts, env, ret_type, indent):
        out = []
        pad = "  " * indent
        for s in stmts:
            if s.kind == "for":
                inner = dict(env)
                inner[s.name] = I32
                count = self._e(s.expr, env, I32)
                out.append(f"{pad}for (let {s.name} = 0; {s.name} < {count}; {s.name}++) {{")
                out += self.statements(s.body, inner, ret_type, indent + 1)
                out.append(pad + "}")
            elif s.kind in ("if", "while"):
                # (a JS block scope per branch, as the IR's)
                out += super().statements([s], env, ret_type, indent)
            else:
                out += super().statements([s], env, ret_type, indent)
        return out

    def function(self, f):
        self.attrs, self.names = {}, {}
        env = dict(f.params)
        body_type = f.ret or self.function_type(f)
        lines = self.statements(f.bodies[BODIES], env, body_type, 1)
        params = [name for name, _ in f.params] + list(self.attrs)
        return f"function {f.name}({', '.join(params)}) {{\n" + "\n".join(lines) + "\n}\n"

    def inline(self, f, args, attr_args):
        """f's returned expression with its parameters replaced by `args` (texts of plain names)
        and its attributes by `attr_args`, where its body is one return; else None."""
        body = self._flat(f.bodies[BODIES])
        if len(body) != 1 or body[0].kind != "return":
            return None
        self.attrs, self.names = {}, dict(zip((p for p, _ in f.params), args))
        self.names.update(attr_args)
        text = self._e(body[0].expr, dict(f.params), f.ret or self.function_type(f))
        self.names = {}
        return text


def _cast(x, src, dst):
    if src == dst:
        return x
    if src == BOOL:
        return f"({x} ? 1 : 0)"
    if dst == F32:
        return f"F({x})"
    if dst == I32:
        return f"_toI32({x})" if src == F32 else f"({x} | 0)"
    if dst == U32:
        return f"_toU32({x})" if src == F32 else f"({x} >>> 0)"
    if dst == BOOL:
        return f"({x} !== 0)"
    raise IRError(f"elementwise IR: no cast from {src} to {dst}")


# --- the table ------------------------------------------------------------------------------------
def _table():
    table = {f.name: f for f in list(HELPERS) + UNARY_FUNCTIONS + BINARY_FUNCTIONS if BODIES in f.targets}
    # webgpu squares for integer exponents because GPU pow is exp2(b * log2(m)); Math.pow in double,
    # rounded once, is closer than either (numpy's value)
    m, b = arg("m"), arg("b")
    table["powPositive"] = Function("powPositive", table["powPositive"].params, pow_(m, b), targets=(BODIES,))
    # the GPU bodies reduce sin/cos/tan's argument in float32 (meaningless far beyond 1e5); Math's
    # are double precision for every argument, rounded once: numpy's value within an ulp
    x = arg("x")
    for name, fn in (("op_Sin", sin), ("op_Cos", cos), ("op_Tan", tan)):
        table[name] = Function(name, table[name].params, fn(x), targets=(BODIES,))
    return table


_TABLE = _table()


def has(name):
    return name in _TABLE


@functools.lru_cache(maxsize=None)
def signature(name):
    """((param, type), ...), return type, (attribute, ...) of a function of the table (its
    attributes are parameters after the operands, in this order)."""
    f = _TABLE[name]
    r = JS(_TABLE)
    r.function(f)
    return f.params, f.ret or r.function_type(f), tuple(r.attrs)


@functools.lru_cache(maxsize=None)
def source(*names):
    """JavaScript function declarations of `names` and every function they call, callees first."""
    r = JS(_TABLE)
    order = []

    def visit(name, stack=()):
        if name in stack:
            raise IRError(f"elementwise IR: {name} calls itself")
        if name in order:
            return
        if name not in _TABLE:
            raise IRError(f"elementwise IR: {name} is not a function of the javascript table")
        for callee in r.callees(_TABLE[name]):
            visit(callee, stack + (name,))
        order.append(name)

    for n in names:
        visit(n)
    return "".join(r.function(_TABLE[n]) for n in order)


# --- kernels as expressions -----------------------------------------------------------------------
class Op:
    """One kernel on given dtypes as JavaScript: `expr(args, attrs)` gives the stored value's
    expression over argument texts (plain names: they may be read more than once) and attribute
    texts; `functions` names the table functions it calls (declared once per program by source())."""

    def __init__(self, fn, params, ret, in_dtypes, nan_pass, attr_names=()):
        self.fn, self.params, self.ret, self.in_dtypes = fn, params, ret, in_dtypes
        self.nan_pass, self.attr_names = nan_pass, tuple(attr_names)
        self.functions = (fn,) if fn else ()

    def expr(self, args, attrs=None):
        """args: the operands' texts; attrs: {attribute: text} (every name of attr_names)."""
        if self.fn is None:   # Select: cond ? a : b
            c, a, b = args
            return f"({c} !== 0 ? {a} : {b})"
        attrs = attrs or {}
        loaded = [f"F({a})" if t == F32 and _STORAGE[d] == I32 else a
                  for a, (_, t), d in zip(args, self.params, self.in_dtypes)]
        f = _TABLE[self.fn]
        text = JS(_TABLE).inline(f, loaded, attrs) if all(_is_name(a) for a in loaded) else None
        if text is None:
            text = f"{self.fn}({', '.join(loaded + [attrs[a] for a in self.attr_names])})"
        if self.nan_pass:
            x = args[0]
            text = f"({x} !== {x} ? {x} : {text})"
        return text

    def store(self, text, dtype):
        """The value `text` (of the function's return type) as its output typed array of dtype
        holds it, for a value kept in a local (a typed array's store does the same)."""
        ret = self.ret
        if ret is None:   # Select, a copy: already a value of the output's dtype
            return text
        if ret == BOOL:
            return f"({text} ? 1 : 0)"
        if dtype == "float32":
            return text if ret == F32 else f"F({text})"
        if dtype == "int32":
            return text if ret == I32 else f"({text} | 0)"
        return f"({text} & 255)"


def _is_name(text):
    return text.replace("_", "a").isalnum()


def _choose(fn_name, dtype):
    if dtype != "float32" and has(fn_name + "_int"):
        return fn_name + "_int"
    if dtype == "bool" or not has(fn_name):
        return None
    return fn_name


def unary_op(kernel, in_dtype, out_dtype):
    """The Op of a unary table kernel for an operand of in_dtype, or None where the table has no
    function for it."""
    fn = _choose("op_" + kernel, in_dtype)
    if fn is None:
        return None
    params, ret, attr_names = signature(fn)
    nan_pass = ret == F32 and in_dtype == "float32" and out_dtype == "float32" and kernel not in NAN_AWARE
    return Op(fn, params, ret, (in_dtype,), nan_pass, attr_names)


def binary_op(kernel, in_dtype):
    fn = _choose("op_" + kernel, in_dtype)
    if fn is None:
        return None
    params, ret, _ = signature(fn)
    return Op(fn, params, ret, (in_dtype, in_dtype), False)


def cast_op(in_dtype, dtype):
    if dtype == in_dtype:
        return _COPY
    fn = "cast_to_float32_int" if dtype == "float32" else _choose("cast_to_" + dtype, in_dtype)
    if fn is None:
        return None
    params, ret, _ = signature(fn)
    return Op(fn, params, ret, (in_dtype,), False)


class _Copy(Op):
    def __init__(self):
        super().__init__("", (), None, (), False)
        self.functions = ()

    def expr(self, args, attrs=None):
        return args[0]


_COPY = _Copy()
SELECT = Op(None, (), None, (), False)


def js_number(value, dtype="float32"):
    """A number as a JavaScript literal of dtype's values (a float32 attribute is rounded as a
    webgpu uniform is)."""
    if dtype != "float32":
        return str(int(value))
    value = float(value)
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    return _float_literal(value) if value != 0 or math.copysign(1, value) > 0 else "(-0)"


def kernel_op(name, in_dtypes, out_dtype, attrs):
    """(Op, {attribute: JavaScript literal}) computing kernel `name` on operands of in_dtypes with
    the recorded output dtype, or None where this module does not cover it (then the GPU runs it)."""
    from ...kernels.elementwise import BINARY_BY_KERNEL, UNARY_BY_KERNEL, out_dtype as dtype_of
    if any(d not in TYPED_ARRAYS for d in in_dtypes) or out_dtype not in TYPED_ARRAYS:
        return None
    if name == "Cast":
        if attrs.get("dtype") != out_dtype:
            return None
        op = cast_op(in_dtypes[0], out_dtype)
        return None if op is None else (op, {})
    if name == "Select":
        if len(in_dtypes) != 3 or in_dtypes[1] != in_dtypes[2] or in_dtypes[2] != out_dtype:
            return None
        return SELECT, {}
    row = UNARY_BY_KERNEL.get(name)
    if row is not None:
        if len(in_dtypes) != 1 or dtype_of(row, in_dtypes[0]) != out_dtype:
            return None
        op = unary_op(name, in_dtypes[0], out_dtype)
        if op is None:
            return None
        values = {}
        if op.attr_names:
            fields, values_of = ATTR_UNIFORMS[name]
            values = {f: js_number(v, "float32" if t == "f32" else "int32")
                      for (f, t), v in zip(fields, values_of(attrs))}
        return op, values
    row = BINARY_BY_KERNEL.get(name) or _GRADIENT_ROWS.get(name)
    if row is not None:
        if len(in_dtypes) != 2 or in_dtypes[0] != in_dtypes[1] or dtype_of(row, in_dtypes[0]) != out_dtype:
            return None
        op = binary_op(name, in_dtypes[0])
        return None if op is None else (op, {})
    return None


def _gradient_rows():
    from ...kernels.elementwise import GRADIENT_KERNELS
    return {r.kernel: r for r in GRADIENT_KERNELS}


_GRADIENT_ROWS = _gradient_rows()


__all__ = ["source", "has", "signature", "unary_op", "binary_op", "cast_op", "kernel_op", "js_number", "SELECT",
           "PRELUDE", "TYPED_ARRAYS", "JS", "Op"]
