"""A small expression IR for elementwise op bodies, and its two renderers: GLSL ES 3.00 (webgl)
and WGSL (webgpu). The op bodies themselves are in elementwise_ops.py; this module knows nothing
about particular ops.

A function body is a list of statements whose last item is the returned expression:

    body = [let("e", exp(-2.0 * abs_(X))),    # a named subexpression (use it as v("e"))
            when(X < 0.0, NAN),                # if (x < 0) return NaN
            v("e") * X]                        # return e * x

Expressions are Nodes, built with Python operators (+ - * / % < <= > >= & | ~ << >>, and
.eq() / .ne() for == and !=) and the functions below (select, math calls, isnan, ...).
Python numbers become literals of the type their neighbours have (0 next to an f32 is 0.0, next
to an i32 is 0); a float is always f32. `&`, `|` and `~` are logical on bools and bitwise on
integers.

Where the two languages must say different things (a WGSL built-in undefined where GLSL's is not,
webgl's values travelling as floats), a body says so explicitly: per_target(glsl=..., wgsl=...)
in an expression, only("wgsl", statement...) among statements. Everything else is said once.

Types: f32, i32, u32, bool, and u32x2 (a pair of words, for 64-bit products). Each renderer maps
them (float/int/uint/bool/uvec2; f32/i32/u32/bool/vec2<u32>). A node kind, a call or an intrinsic
the renderers do not know is refused (IRError), when built and again when rendered.

The calling convention of an op function (`abi="values"`, elementwise_ops.py) differs by target:
on webgl every value is a float in a texture, so an op function takes and returns float (an i32
parameter arrives as a float and is converted with toInt, an i32 or bool result is converted to
float); on webgpu it takes and returns the types of its body (bool results, i32 operands).
Attributes (alpha, clipMin, ...) are uniforms the webgl program declares, and parameters after the
operands in WGSL (so that one fused program can pass several ops' attributes)."""

F32, I32, U32, BOOL, U32X2 = "f32", "i32", "u32", "bool", "u32x2"
TYPES = (F32, I32, U32, BOOL, U32X2)
TARGETS = ("glsl", "wgsl")


class IRError(ValueError):
    """An expression or statement the IR does not define, or a target cannot express."""


# --- expressions ---------------------------------------------------------------------------------

ARITH = ("+", "-", "*", "/", "%")
COMPARE = ("<", "<=", ">", ">=", "==", "!=")
BITWISE = ("&", "|", "<<", ">>")        # & and | are logical (&&, ||) on bools
BINOPS = ARITH + COMPARE + BITWISE
UNOPS = ("neg", "not")                  # not: ! on bools, ~ on integers

#: math built-ins: (GLSL name, WGSL name); None where the language has no such built-in.
BUILTINS = {
    "exp": ("exp", "exp"), "log": ("log", "log"), "exp2": ("exp2", "exp2"), "log2": ("log2", "log2"),
    "sqrt": ("sqrt", "sqrt"), "inversesqrt": ("inversesqrt", "inverseSqrt"), "pow": ("pow", "pow"),
    "abs": ("abs", "abs"), "sign": ("sign", "sign"), "min": ("min", "min"), "max": ("max", "max"),
    "clamp": ("clamp", "clamp"), "floor": ("floor", "floor"), "ceil": ("ceil", "ceil"),
    "trunc": ("trunc", "trunc"), "round_even": ("roundEven", "round"),
    "sin": ("sin", "sin"), "cos": ("cos", "cos"), "tan": ("tan", "tan"), "asin": ("asin", "asin"),
    "acos": ("acos", "acos"), "atan": ("atan", "atan"), "atan2": ("atan", "atan2"),
    "fmod": ("mod", None),               # GLSL's mod(x, y) = x - y * floor(x / y); WGSL has none
}
_POLYMORPHIC = {"abs", "sign", "min", "max", "clamp"}   # result type: the arguments'

#: intrinsics: name -> (result type, argument types). Rendered by each target's own helpers
#: (header.glsl and the rendered isInfinite/bitLength on webgl, common.wgsl on webgpu).
INTRINSICS = {
    "isnan": (BOOL, (F32,)), "isinf": (BOOL, (F32,)),
    "isneg": (BOOL, (F32,)),             # the sign bit (-0 counts)
    "nan": (F32, ()), "inf": (F32, ()), "negzero": (F32, ()),
    "clear_sign": (F32, (F32,)),         # |x| by the bits
    "to_int32": (I32, (F32,)),           # JS's ToInt32 (NaN and infinities 0, wrapped): WGSL only
    "bit_length": (I32, (U32,)),         # the number of bits of a u32 (0 for 0)
    "bits_u32": (U32, (F32,)),           # a float's bits
    "as_i32": (I32, (U32,)),             # a u32's bits as i32
}

EXPR_KINDS = ("arg", "attr", "const", "var", "binop", "unop", "call", "intrinsic", "fn", "select",
              "cast", "pair", "field", "target")


class Node:
    """An expression: kind, args (Nodes), value (a name, operator or number)."""
    __slots__ = ("kind", "args", "value", "type")

    def __init__(self, kind, *args, value=None, type=None):
        if kind not in EXPR_KINDS:
            raise IRError(f"elementwise IR: unknown node kind {kind!r}")
        self.kind, self.args, self.value, self.type = kind, tuple(_node(a) for a in args), value, type
        if kind == "binop" and value not in BINOPS:
            raise IRError(f"elementwise IR: unknown operator {value!r}")
        if kind == "unop" and value not in UNOPS:
            raise IRError(f"elementwise IR: unknown unary operator {value!r}")
        if kind == "call" and value not in BUILTINS:
            raise IRError(f"elementwise IR: unknown built-in {value!r}")
        if kind == "intrinsic" and (value not in INTRINSICS or len(INTRINSICS[value][1]) != len(args)):
            raise IRError(f"elementwise IR: unknown intrinsic {value!r}/{len(args)}")
        if type is not None and type not in TYPES:
            raise IRError(f"elementwise IR: unknown type {type!r}")

    def __repr__(self):
        return f"{self.kind}:{self.value}({', '.join(map(repr, self.args))})"

    def _bin(self, op, other, swap=False):
        return Node("binop", other, self, value=op) if swap else Node("binop", self, other, value=op)

    __add__ = lambda s, o: s._bin("+", o)
    __radd__ = lambda s, o: s._bin("+", o, True)
    __sub__ = lambda s, o: s._bin("-", o)
    __rsub__ = lambda s, o: s._bin("-", o, True)
    __mul__ = lambda s, o: s._bin("*", o)
    __rmul__ = lambda s, o: s._bin("*", o, True)
    __truediv__ = lambda s, o: s._bin("/", o)
    __rtruediv__ = lambda s, o: s._bin("/", o, True)
    __mod__ = lambda s, o: s._bin("%", o)
    __lt__ = lambda s, o: s._bin("<", o)
    __le__ = lambda s, o: s._bin("<=", o)
    __gt__ = lambda s, o: s._bin(">", o)
    __ge__ = lambda s, o: s._bin(">=", o)
    __and__ = lambda s, o: s._bin("&", o)
    __rand__ = lambda s, o: s._bin("&", o, True)
    __or__ = lambda s, o: s._bin("|", o)
    __ror__ = lambda s, o: s._bin("|", o, True)
    __lshift__ = lambda s, o: s._bin("<<", o)
    __rlshift__ = lambda s, o: s._bin("<<", o, True)
    __rshift__ = lambda s, o: s._bin(">>", o)
    __neg__ = lambda s: Node("unop", s, value="neg")
    __invert__ = lambda s: Node("unop", s, value="not")
    eq = lambda s, o: s._bin("==", o)
    ne = lambda s, o: s._bin("!=", o)

    def __bool__(self):
        raise IRError("elementwise IR: a Node has no truth value (use & | ~ and select, not and/or/if)")

    @property
    def x(self):
        return Node("field", self, value="x")

    @property
    def y(self):
        return Node("field", self, value="y")


def _node(a):
    if isinstance(a, Node):
        return a
    if isinstance(a, bool):
        return Node("const", value=a, type=BOOL)
    if isinstance(a, int):
        return Node("const", value=a)              # typed by its neighbours
    if isinstance(a, float):
        return Node("const", value=a, type=F32)
    raise IRError(f"elementwise IR: {a!r} is not an expression")


def arg(name):
    return Node("arg", value=name)


def attr(name, type=F32):
    """A kernel attribute: a uniform on webgl, a parameter on webgpu."""
    return Node("attr", value=name, type=type)


def lit(value):
    """A literal as a node, so that lit(1.0) / 24.0 stays a division in the shader (Python would
    fold 1.0 / 24.0 in float64; the shader's compiler rounds the quotient as it always did)."""
    return _node(value)


def v(name):
    """The value of a let/var binding."""
    return Node("var", value=name)


def u32(value):
    return Node("const", value=value, type=U32)


def f32(x):
    return Node("cast", x, type=F32)


def i32(x):
    return Node("cast", x, type=I32)


def to_u32(x):
    return Node("cast", x, type=U32)


def select(cond, if_true, if_false):
    """cond ? if_true : if_false (both evaluated on webgpu, as WGSL's select does)."""
    return Node("select", cond, if_true, if_false)


def pair(lo, hi):
    return Node("pair", lo, hi)


def call(fn, *args):
    """A call to another function of the table (an op function or a helper) by its name."""
    return Node("fn", *args, value=fn)


def per_target(glsl, wgsl):
    """glsl on webgl, wgsl on webgpu: where the two must differ (say why beside it)."""
    return Node("target", glsl, wgsl)


def _builtin(name):
    return lambda *args: Node("call", *args, value=name)


def _intrinsic(name):
    if not INTRINSICS[name][1]:
        return Node("intrinsic", value=name)
    return lambda *args: Node("intrinsic", *args, value=name)


(exp, log, exp2, log2, sqrt, inversesqrt, pow_, abs_, sign, min_, max_, clamp, floor, ceil, trunc, round_even,
 sin, cos, tan, asin, acos, atan, atan2, fmod) = (_builtin(n) for n in BUILTINS)
isnan, isinf, isneg, clear_sign, to_int32, bit_length, bits_u32, as_i32 = (
    _intrinsic(n) for n in ("isnan", "isinf", "isneg", "clear_sign", "to_int32", "bit_length", "bits_u32",
                            "as_i32"))
NAN, INF, NEGZERO = _intrinsic("nan"), _intrinsic("inf"), _intrinsic("negzero")


# --- statements ----------------------------------------------------------------------------------

STMT_KINDS = ("let", "var", "set", "if", "return", "while", "for", "only")


class Stmt:
    __slots__ = ("kind", "name", "expr", "body", "orelse", "type")

    def __init__(self, kind, name=None, expr=None, body=(), orelse=(), type=None):
        if kind not in STMT_KINDS:
            raise IRError(f"elementwise IR: unknown statement kind {kind!r}")
        self.kind, self.name, self.type = kind, name, type
        self.expr = None if expr is None else _node(expr)
        self.body, self.orelse = _block(body), _block(orelse)   # a last expression is returned


def let(name, expr):
    """A named value, computed once (a shared subexpression)."""
    return Stmt("let", name, expr)


def var(name, expr=None, type=None):
    """A variable, assigned later with set_ (its type from expr, or given)."""
    return Stmt("var", name, expr, type=type)


def set_(name, expr):
    return Stmt("set", name, expr)


def if_(cond, body, orelse=()):
    return Stmt("if", expr=cond, body=body, orelse=orelse)


def when(cond, value):
    """if (cond) return value;"""
    return Stmt("if", expr=cond, body=(Stmt("return", expr=value),))


def ret(value):
    return Stmt("return", expr=value)


def while_(cond, body):
    return Stmt("while", expr=cond, body=body)


def for_(name, count, body):
    """for (i = 0; i < count; i++) body"""
    return Stmt("for", name, count, body=body)


def only(target, *stmts):
    """Statements for one target (say why beside them)."""
    if target not in TARGETS:
        raise IRError(f"elementwise IR: unknown target {target!r}")
    return Stmt("only", name=target, body=stmts)


def _block(items):
    """A body list -> statements: a last item that is an expression is returned."""
    out = []
    for i, item in enumerate(items):
        if isinstance(item, Stmt):
            out.append(item)
        elif i == len(items) - 1:
            out.append(Stmt("return", expr=item))
        else:
            raise IRError(f"elementwise IR: {item!r} is not a statement (only the last item may be an expression)")
    return tuple(out)


# --- functions -----------------------------------------------------------------------------------

class Function:
    """One function of a rendered file. params: ((name, type), ...); body: a body list, or a dict
    {target: body list} where the targets' algorithms differ; abi: "values" for the op functions
    the programs call (webgl's float convention, see the module's docstring), "native" for
    helpers; targets: where it is rendered."""

    def __init__(self, name, params, body, abi="native", targets=TARGETS, ret=None):
        self.name, self.params, self.abi, self.targets, self.ret = name, tuple(params), abi, tuple(targets), ret
        bodies = body if isinstance(body, dict) else {t: body for t in TARGETS}
        self.bodies = {t: _block(b if isinstance(b, (list, tuple)) else [b]) for t, b in bodies.items()}
        for t in self.targets:
            if t not in self.bodies:
                raise IRError(f"elementwise IR: {name} has no body for {t}")


def render(functions, target, library=()):
    """Source text for target: the helpers of `library` that `functions` call (directly or through
    other helpers), callees first, then `functions` in order. Each function is rendered where its
    targets include target. Calls between them are by name (the file is read function by function,
    with its callees: webgl's shader_source, webgpu's wgsl)."""
    if target not in TARGETS:
        raise IRError(f"elementwise IR: unknown target {target!r}")
    functions = [f for f in functions if target in f.targets]
    table = {f.name: f for f in list(library) + functions if target in f.targets}
    r = (GLSL if target == "glsl" else WGSL)(table)
    order = []

    def visit(name, stack=()):
        if name in stack:
            raise IRError(f"elementwise IR: {name} calls itself")
        if name in order or name not in table:
            return
        for callee in r.callees(table[name]):
            if callee not in table:
                raise IRError(f"elementwise IR: {name} calls {callee}, not a function of the {target} table")
            visit(callee, stack + (name,))
        order.append(name)

    for f in functions:
        visit(f.name)
    return "".join(r.function(table[n]) + "\n" for n in order)


# --- rendering -----------------------------------------------------------------------------------

_PREC = {"||": 1, "&&": 2, "|": 3, "&": 4, "==": 5, "!=": 5, "<": 6, "<=": 6, ">": 6, ">=": 6,
         "<<": 7, ">>": 7, "+": 8, "-": 8, "*": 9, "/": 9, "%": 9}


def _needs_parens(parent, child, right):
    """Parenthesize a binary operation `child` under `parent`: by precedence among arithmetic, and
    always where operators of different kinds meet (WGSL refuses `a & b == c`, `a && b || c`, ...)."""
    if child is None:
        return False
    if child == "?:":
        return True
    if parent in ARITH:
        return child not in ARITH or _PREC[child] < _PREC[parent] or (right and _PREC[child] == _PREC[parent])
    if parent in COMPARE:
        return child not in ARITH
    if parent in ("&&", "||"):
        return not ((child == parent and not right) or child in COMPARE)
    if parent in ("&", "|"):
        return not (child == parent and not right)
    return True   # shifts: operands are unary expressions in WGSL


class _Renderer:
    target = None
    type_names = {}

    def __init__(self, table):
        self.table = table

    # types ---------------------------------------------------------------------------------------
    def infer(self, n, env):
        """The type of n, or None for an integer literal not yet typed by its neighbours."""
        k = n.kind
        if k == "target":
            return self.infer(self.pick(n), env)
        if k == "const":
            return n.type
        if k in ("arg", "var"):
            if n.value not in env:
                raise IRError(f"elementwise IR: {n.value!r} is not defined here")
            return env[n.value]
        if k == "attr":
            return n.type
        if k == "binop":
            if n.value in COMPARE:
                return BOOL
            if n.value in ("<<", ">>"):
                return self.infer(n.args[0], env)
            return self.unify(self.infer(n.args[0], env), self.infer(n.args[1], env), n)
        if k == "unop":
            return self.infer(n.args[0], env)
        if k == "call":
            if n.value in _POLYMORPHIC:
                t = None
                for a in n.args:
                    t = self.unify(t, self.infer(a, env), n)
                return t
            return F32
        if k == "intrinsic":
            return INTRINSICS[n.value][0]
        if k == "fn":
            f = self._fn(n.value)
            if self.target == "glsl" and f.abi == "values":
                return F32   # webgl's op functions return float
            return f.ret or self.function_type(f)
        if k == "select":
            return self.unify(self.infer(n.args[1], env), self.infer(n.args[2], env), n)
        if k == "cast":
            return n.type
        if k == "pair":
            return U32X2
        if k == "field":
            return U32
        raise IRError(f"elementwise IR: unknown node kind {k!r}")

    @staticmethod
    def unify(a, b, n):
        if a is None or a == b:
            return b
        if b is None:
            return a
        raise IRError(f"elementwise IR: {a} and {b} mixed in {n!r}")

    def pick(self, n):
        return n.args[0] if self.target == "glsl" else n.args[1]

    def _fn(self, name):
        if name not in self.table or self.target not in self.table[name].targets:
            raise IRError(f"elementwise IR: {name} is not a function of the {self.target} table")
        return self.table[name]

    def function_type(self, f):
        """The type a function's body returns (its declared ret, else the first return's)."""
        env = dict(f.params)
        for t in self._returns(self._flat(f.bodies[self.target]), env):
            if t is not None:
                return t
        return f.params[0][1] if f.params else F32   # only untyped literals: the operands' type

    def _flat(self, stmts):
        out = []
        for s in stmts:
            if s.kind == "only":
                if s.name == self.target:
                    out.extend(self._flat(s.body))
            else:
                out.append(s)
        return out

    def _returns(self, stmts, env):
        env = dict(env)
        for s in stmts:
            if s.kind in ("let", "var"):
                env[s.name] = s.type or self.infer(s.expr, env) or I32
            elif s.kind == "return":
                yield self.infer(s.expr, env)
            elif s.kind in ("if", "while", "for"):
                inner = dict(env)
                if s.kind == "for":
                    inner[s.name] = I32
                yield from self._returns(self._flat(s.body), inner)
                yield from self._returns(self._flat(s.orelse), inner)

    def callees(self, f):
        """Names of the table functions f calls, in order of appearance (support functions of
        intrinsics included)."""
        out = []

        def node(n):
            if n.kind == "target":
                return node(self.pick(n))
            if n.kind == "fn" and n.value not in out:
                out.append(n.value)
            if n.kind == "intrinsic" and n.value in self.support and self.support[n.value] not in out:
                out.append(self.support[n.value])
            for a in n.args:
                node(a)

        def stmts(ss):
            for s in self._flat(ss):
                if s.expr is not None:
                    node(s.expr)
                stmts(s.body)
                stmts(s.orelse)
        stmts(f.bodies[self.target])
        return out

    # expressions ---------------------------------------------------------------------------------
    def expr(self, n, env, want=None):
        """(text, operator or None for an atom) of n, literals typed `want` where untyped."""
        k = n.kind
        if k == "target":
            return self.expr(self.pick(n), env, want)
        if k == "const":
            return self.literal(n.value, n.type or want or I32), None
        if k == "arg":
            self.infer(n, env)
            return n.value, None
        if k == "var":
            self.infer(n, env)
            return n.value, None
        if k == "attr":
            self.attrs.setdefault(n.value, n.type)
            return self.attr_name(n.value), None
        if k == "binop":
            a, b = n.args
            op = n.value
            if op in ("<<", ">>"):
                t = self.infer(a, env) or want or I32
                return self.shift(op, self.expr(a, env, t), b, env), op
            t = self.unify(self.infer(a, env), self.infer(b, env), n)
            if op in COMPARE:
                t = t or I32
            else:
                t = t or want or I32
            if op in ("&", "|") and t == BOOL:
                op = op * 2
            ta, tb = self.expr(a, env, t), self.expr(b, env, t)
            left = f"({ta[0]})" if _needs_parens(op, ta[1], False) else ta[0]
            right = f"({tb[0]})" if _needs_parens(op, tb[1], True) else tb[0]
            return f"{left} {op} {right}", op
        if k == "unop":
            t = self.infer(n.args[0], env) or want or I32
            text, op = self.expr(n.args[0], env, t)
            if op is not None or text.startswith("-"):
                text = f"({text})"
            sign = "-" if n.value == "neg" else ("!" if t == BOOL else "~")
            return sign + text, None
        if k == "call":
            name = BUILTINS[n.value][TARGETS.index(self.target)]
            if name is None:
                raise IRError(f"elementwise IR: {self.target} has no built-in for {n.value}")
            t = self.infer(n, env) if n.value in _POLYMORPHIC else F32
            t = t or want or I32
            return f"{name}({', '.join(self.expr(a, env, t)[0] for a in n.args)})", None
        if k == "intrinsic":
            args = [self.expr(a, env, t)[0] for a, t in zip(n.args, INTRINSICS[n.value][1])]
            return self.intrinsic(n.value, args), None
        if k == "fn":
            f = self._fn(n.value)
            if len(n.args) != len(f.params):
                raise IRError(f"elementwise IR: {n.value} takes {len(f.params)} arguments")
            args = [self.expr(a, env, t)[0] for a, (_, t) in zip(n.args, f.params)]
            if f.abi == "values":
                args = [self.to_abi(a, t) for a, (_, t) in zip(args, f.params)]
                return f"{f.name}({', '.join(args)})", None
            return f"{f.name}({', '.join(args)})", None
        if k == "select":
            t = self.infer(n, env) or want or I32
            c, a, b = (self.expr(n.args[0], env, BOOL), self.expr(n.args[1], env, t), self.expr(n.args[2], env, t))
            return self.select(c, a, b)
        if k == "cast":
            t = self.infer(n.args[0], env) or n.type
            return f"{self.type_names[n.type]}({self.expr(n.args[0], env, t)[0]})", None
        if k == "pair":
            return self.pair(self.expr(n.args[0], env, U32)[0], self.expr(n.args[1], env, U32)[0]), None
        if k == "field":
            text, op = self.expr(n.args[0], env, U32X2)
            return (f"({text})" if op is not None else text) + "." + n.value, None
        raise IRError(f"elementwise IR: unknown node kind {k!r}")

    def literal(self, value, t):
        if t == BOOL:
            return "true" if value else "false"
        if t == F32:
            text = repr(float(value))
            if text in ("inf", "-inf", "nan"):
                raise IRError("elementwise IR: write INF / NAN, not a literal")
            return text
        if t == I32:
            return str(int(value))
        if t == U32:
            if value < 0:
                raise IRError("elementwise IR: a negative u32 literal")
            return (f"0x{value:X}" if value > 255 else str(value)) + "u"
        raise IRError(f"elementwise IR: no literal of type {t}")

    def shift(self, op, left, amount, env):
        a = left[0] if left[1] is None else f"({left[0]})"
        text, aop = self.expr(amount, env, self.shift_amount_type)
        if self.infer(amount, env) not in (None, self.shift_amount_type) and self.target == "wgsl":
            text, aop = f"u32({text})", None
        return f"{a} {op} {text if aop is None else f'({text})'}"

    # statements ----------------------------------------------------------------------------------
    def statements(self, stmts, env, ret_type, indent):
        out = []
        pad = "  " * indent
        for s in stmts:
            k = s.kind
            if k == "only":
                if s.name == self.target:
                    out += self.statements(s.body, env, ret_type, indent)
                continue
            if k in ("let", "var"):
                t = s.type or (self.infer(s.expr, env) if s.expr is not None else None) or I32
                init = None if s.expr is None else self.expr(s.expr, env, t)[0]
                out.append(pad + self.declare(s.name, t, init, mutable=k == "var"))
                env[s.name] = t
            elif k == "set":
                if s.name not in env:
                    raise IRError(f"elementwise IR: {s.name!r} is not defined here")
                out.append(f"{pad}{s.name} = {self.expr(s.expr, env, env[s.name])[0]};")
            elif k == "return":
                out.append(f"{pad}return {self.return_expr(s.expr, env, ret_type)};")
            elif k == "if":
                out.append(f"{pad}if ({self.expr(s.expr, env, BOOL)[0]}) {{")
                out += self.statements(s.body, dict(env), ret_type, indent + 1)
                if s.orelse:
                    out.append(f"{pad}}} else {{")
                    out += self.statements(s.orelse, dict(env), ret_type, indent + 1)
                out.append(pad + "}")
            elif k == "while":
                out.append(f"{pad}while ({self.expr(s.expr, env, BOOL)[0]}) {{")
                out += self.statements(s.body, dict(env), ret_type, indent + 1)
                out.append(pad + "}")
            elif k == "for":
                inner = dict(env)
                inner[s.name] = I32
                count = self.expr(s.expr, env, I32)[0]
                out.append(f"{pad}for ({self.declare(s.name, I32, '0', True)} {s.name} < {count}; {s.name}++) {{")
                out += self.statements(s.body, inner, ret_type, indent + 1)
                out.append(pad + "}")
            else:
                raise IRError(f"elementwise IR: unknown statement kind {k!r}")
        return out

    def return_expr(self, e, env, ret_type):
        return self.expr(e, env, ret_type)[0]


class GLSL(_Renderer):
    target = "glsl"
    #: intrinsics rendered as calls to functions of the table (elementwise_ops.HELPERS)
    support = {"isinf": "isInfinite", "bit_length": "bitLength"}
    type_names = {F32: "float", I32: "int", U32: "uint", BOOL: "bool", U32X2: "uvec2"}
    shift_amount_type = I32

    def attr_name(self, name):
        return name   # a uniform the program declares

    def to_abi(self, text, t):
        return text if t == F32 else f"float({text})"

    def select(self, c, a, b):
        cond = c[0] if c[1] is None or c[1] in COMPARE or c[1] in ("&&", "||") else f"({c[0]})"
        fa = f"({a[0]})" if a[1] == "?:" else a[0]
        fb = f"({b[0]})" if b[1] == "?:" else b[0]
        return f"{cond} ? {fa} : {fb}", "?:"

    def pair(self, lo, hi):
        return f"uvec2({lo}, {hi})"

    def intrinsic(self, name, args):
        x = args[0] if args else None
        return {
            "isnan": lambda: f"isNaN({x})",                         # header.glsl
            "isinf": lambda: f"isInfinite({x})",                    # rendered with the ops (SUPPORT)
            "isneg": lambda: f"(floatBitsToUint({x}) & 0x80000000u) != 0u",
            "nan": lambda: "NAN", "inf": lambda: "INFINITY",        # header.glsl
            "negzero": lambda: "uintBitsToFloat(0x80000000u)",
            "clear_sign": lambda: f"uintBitsToFloat(floatBitsToUint({x}) & 0x7fffffffu)",
            "bit_length": lambda: f"bitLength({x})",                # SUPPORT: ES 3.00 has no findMSB
            "bits_u32": lambda: f"floatBitsToUint({x})",
            "as_i32": lambda: f"int({x})",
            "to_int32": lambda: _refuse(self.target, name),        # webgl casts in elementwise.glsl
        }[name]()

    def declare(self, name, t, init, mutable):
        return f"{self.type_names[t]} {name}" + ("" if init is None else f" = {init}") + ";"

    def function(self, f):
        self.attrs = {}
        env = dict(f.params)
        body_type = f.ret or self.function_type(f)
        prologue = []
        if f.abi == "values":
            params = []
            for name, t in f.params:
                if t == F32:
                    params.append(f"float {name}")
                elif t == I32:   # an int32 travels as a float: recover it exactly
                    params.append(f"float {name}F")
                    prologue.append(f"  int {name} = toInt({name}F);")
                else:
                    raise IRError(f"elementwise IR: {f.name}: a {t} operand on webgl")
            ret_name = "float"
        else:
            params = [f"{self.type_names[t]} {name}" for name, t in f.params]
            ret_name = self.type_names[body_type]
        self.ret_abi = f.abi == "values"
        lines = self.statements(f.bodies["glsl"], env, body_type, 1)
        return f"{ret_name} {f.name}({', '.join(params)}) {{\n" + "\n".join(prologue + lines) + "\n}\n"

    def return_expr(self, e, env, ret_type):
        t = self.infer(e, env) or ret_type
        text, _ = self.expr(e, env, t)
        if self.ret_abi and t != F32:
            if e.kind == "const" and t == I32:
                return self.literal(e.value, F32)
            return f"float({text})"
        return text


class WGSL(_Renderer):
    target = "wgsl"
    support = {}   # common.wgsl's helpers are found there by the reader
    type_names = {F32: "f32", I32: "i32", U32: "u32", BOOL: "bool", U32X2: "vec2<u32>"}
    shift_amount_type = U32

    def attr_name(self, name):
        return name   # a parameter after the operands

    def to_abi(self, text, t):
        return text

    def select(self, c, a, b):
        return f"select({b[0]}, {a[0]}, {c[0]})", None

    def pair(self, lo, hi):
        return f"vec2<u32>({lo}, {hi})"

    def intrinsic(self, name, args):
        x = args[0] if args else None
        return {
            "isnan": lambda: f"isNan({x})", "isinf": lambda: f"isInf({x})",      # common.wgsl
            "isneg": lambda: f"isNegative({x})",
            "nan": lambda: "nan()", "inf": lambda: "inf()", "negzero": lambda: "negZero()",
            "clear_sign": lambda: f"bitcast<f32>(bitcast<u32>({x}) & 0x7fffffffu)",
            "to_int32": lambda: f"toInt32({x})",
            "bit_length": lambda: f"(32 - i32(countLeadingZeros({x})))",
            "bits_u32": lambda: f"bitcast<u32>({x})",
            "as_i32": lambda: f"bitcast<i32>({x})",
        }[name]()

    def declare(self, name, t, init, mutable):
        kw = "var" if mutable else "let"
        return f"{kw} {name}: {self.type_names[t]}" + ("" if init is None else f" = {init}") + ";"

    def function(self, f):
        self.attrs = {}
        env = dict(f.params)
        body_type = f.ret or self.function_type(f)
        lines = self.statements(f.bodies["wgsl"], env, body_type, 1)
        params = [f"{name}: {self.type_names[t]}" for name, t in f.params]
        params += [f"{name}: {self.type_names[t]}" for name, t in self.attrs.items()]
        return (f"fn {f.name}({', '.join(params)}) -> {self.type_names[body_type]} {{\n" + "\n".join(lines)
                + "\n}\n")


def _refuse(target, name):
    raise IRError(f"elementwise IR: {target} has no intrinsic {name}")
