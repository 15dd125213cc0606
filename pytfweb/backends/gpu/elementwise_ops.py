"""The elementwise op bodies, written once (in the IR of elementwise_ir.py) and rendered to GLSL
for webgl and WGSL for webgpu. One entry per kernel of the tables in ops/elementwise.py (UNARY,
BINARY, GRADIENT_KERNELS), plus the helpers they call and webgpu's casts.

What each backend reads, by the names its programs always used (shader_source.read serves them,
rendered once, as if they were files of shaders/):
  unary_ops.glsl, binary_ops.glsl      float op_<Kernel>(float x) / (float a, float b);
                                        float op_<Kernel>_int(...) where webgl computes int32 exactly
  unary_ops.wgsl, binary_ops.wgsl          fn op_<Kernel>(x: f32, <attributes>) -> f32 | i32 | bool
                                        and fn op_<Kernel>_int(x: i32, ...) for int32 and bool operands

An entry gives up to three bodies:
  f        float operands (both targets);
  i        int32 operands: webgpu always (op_<K>_int); webgl only where webgl_int says so (int32
           values travel as floats on webgl, exact to 2^24, and most ops compute them as floats);
  logical  bool operands (0/1): a float function on webgl, an int one (op_<K>_int) on webgpu.
NaN in, NaN out for the unary float ops is done by the programs (NAN_AWARE there lists the
exceptions), not here.

Where the targets differ, the difference is written where it happens, with the reason:
per_target(glsl=..., wgsl=...) in an expression, only("wgsl", ...) among statements. The usual
reasons: WGSL leaves a built-in's result undefined at some inputs (exp overflow, log/sqrt at 0 and
infinity, sin at infinity, division by 0) and may fold float comparisons with NaN, where GLSL on
webgl gives IEEE values; and webgpu holds itself to numpy's signed zeros (its tests check the sign
bit), where webgl's ops keep their cheaper forms (its tests compare values, also on half floats).
Making those one would change a backend's results or add work to its shaders: each is a
candidate for a later change with its own tests, not for this table's rendering."""
import functools
import math

from .elementwise_ir import (F32, I32, INF, NAN, NEGZERO, U32, Function, IRError, abs_, acos, arg, as_i32,
                             asin, atan, atan2, attr, lit, bit_length, bits_u32, call, ceil, clear_sign, cos, exp,
                             exp2, f32, floor, fmod, for_, i32, if_, inversesqrt, isinf, isnan, isneg, let, log,
                             log2, max_, min_, only, pair, per_target, pow_, render, round_even, select, set_, sign,
                             sin, sqrt, tan, to_int32, to_u32, trunc, u32, v, var, when, while_)

X, A, B = arg("x"), arg("a"), arg("b")
LN2 = 0.6931471805599453
PI = 3.141592653589793

UNARY_FUNCTIONS = []
BINARY_FUNCTIONS = []
HELPERS = []


def _entry(table, kernel, params, f=None, i=None, logical=None, webgl_int=None):
    """Functions of one kernel. webgl_int: None (no int function on webgl), "_int" (op_<K>_int, as
    webgpu's) or "" (the int body is webgl's only function, op_<K>: BitwiseAnd)."""
    name = "op_" + kernel
    if f is not None:
        table.append(Function(name, [(p, F32) for p in params], f, abi="values"))
    if i is not None:
        table.append(Function(name + "_int", [(p, I32) for p in params], i, abi="values",
                              targets=("glsl", "wgsl") if webgl_int == "_int" else ("wgsl",)))
        if webgl_int == "":
            table.append(Function(name, [(p, I32) for p in params], i, abi="values", targets=("glsl",)))
    if logical is not None:
        table.append(Function(name, [(p, F32) for p in params], logical, abi="values", targets=("glsl",)))
        table.append(Function(name + "_int", [(p, I32) for p in params], logical, abi="values", targets=("wgsl",)))


def unary(kernel, **bodies):
    _entry(UNARY_FUNCTIONS, kernel, ("x",), **bodies)


def binary(kernel, params=("a", "b"), **bodies):
    _entry(BINARY_FUNCTIONS, kernel, params, **bodies)


def helper(name, params, body, targets=("glsl", "wgsl")):
    HELPERS.append(Function(name, params, body, targets=targets))


def op_exp(x):
    return call("op_Exp", x)


def restore_sign(x, r):
    """r with x's sign, for odd functions computed on |x|. webgl multiplies by sign(x) (as it did);
    webgpu selects, which keeps the sign of a zero r exact (numpy's, checked by webgpu's tests)."""
    return per_target(glsl=sign(x) * r, wgsl=select(x < 0.0, -r, r))


def wgsl_and(guard, cond):
    """cond, and on webgpu also guard: WGSL may fold float comparisons with NaN (common.wgsl), so
    webgpu tests for NaN itself; GLSL compares NaN as IEEE does."""
    return per_target(glsl=cond, wgsl=guard & cond)


def not_nan(*xs):
    out = ~isnan(xs[0])
    for x in xs[1:]:
        out = out & ~isnan(x)
    return out


# --- helpers -------------------------------------------------------------------------------------

# isInfinite: webgl's form of the isinf intrinsic (webgpu's isInf is in common.wgsl)
helper("isInfinite", [("x", F32)], (bits_u32(X) & u32(0x7fffffff)).eq(u32(0x7f800000)), targets=("glsl",))

# log(1 + v), accurate near 0 (Kahan: the rounding error of 1 + v cancels out).
_v = arg("v")
helper("log1pAccurate", [("v", F32)], [
    let("w", 1.0 + _v),
    when(v("w").eq(1.0), _v),
    when(isinf(v("w")), v("w")),
    log(v("w")) * (_v / (v("w") - 1.0))])

# e^x - 1: a Taylor polynomial where exp(x) - 1 would cancel.
helper("expm1Accurate", [("x", F32)], [
    when(abs_(X) >= 0.5, op_exp(X) - 1.0),
    var("p", lit(1.0) / 40320.0),
    *(set_("p", v("p") * X + lit(1.0) / d) for d in (5040.0, 720.0, 120.0, 24.0, 6.0)),
    set_("p", v("p") * X + 0.5),
    (v("p") * X + 1.0) * X])

# e^x - 1 in the forms elu and selu have: webgl's exp(x) - 1 (TF.js's), webgpu's accurate one
# (its tests hold elu/selu near 0 to 2e-5 relative).
def em1(x):
    return per_target(glsl=op_exp(x) - 1.0, wgsl=call("expm1Accurate", x))


# The number of bits of x (0 for 0), from the exponent of a float exact below 2^24: the
# bit_length intrinsic on webgl (GLSL ES 3.00 has no findMSB; WGSL has countLeadingZeros).
helper("bitLength", [("x", U32)], [
    when(X.eq(u32(0)), 0),
    let("shift", select(X >= u32(0x10000), 16, 0)),
    v("shift") + i32(bits_u32(f32(X >> v("shift"))) >> 23) - 126], targets=("glsl",))

# x * y as 64 bits (low word, high word), from 16-bit halves: neither language has 64-bit integers
# (nor GLSL ES 3.00 umulExtended).
_x, _y = arg("x"), arg("y")
helper("powMulWide", [("x", U32), ("y", U32)], [
    let("xl", _x & u32(0xFFFF)), let("xh", _x >> 16), let("yl", _y & u32(0xFFFF)), let("yh", _y >> 16),
    let("ll", v("xl") * v("yl")), let("lh", v("xl") * v("yh")), let("hl", v("xh") * v("yl")),
    let("mid", (v("ll") >> 16) + (v("lh") & u32(0xFFFF)) + (v("hl") & u32(0xFFFF))),
    pair((v("ll") & u32(0xFFFF)) | (v("mid") << 16),
         v("xh") * v("yh") + (v("lh") >> 16) + (v("hl") >> 16) + (v("mid") >> 16))])

# JS's a % b (C fmod): the remainder with a's sign; a finite a keeps itself against an infinite b.
# webgl: a - b * trunc(a / b), within its tests' tolerance; webgpu: exact, by long division on the exponents,
# each step taking the largest b * 2^k <= r (r - b * 2^k is exact, Sterbenz): WGSL's division is
# only accurate to 2.5 ulp, and webgpu's tests hold Mod to numpy's exact remainders.
helper("jsRemainder", [("a", F32), ("b", F32)], {
    "glsl": [when(isinf(B) & ~isinf(A), A),
             A - B * trunc(A / B)],
    "wgsl": [when(isnan(A) | isnan(B) | isinf(A) | B.eq(0.0), NAN),
             when(isinf(B), A),
             var("r", abs_(A)),
             let("m", abs_(B)),
             var("i", 0),
             while_((v("i") < 300) & (v("r") >= v("m")), [
                 var("d", v("m")),
                 while_((v("d") * 2.0 <= v("r")) & ~isinf(v("d") * 2.0), [set_("d", v("d") * 2.0)]),
                 set_("r", v("r") - v("d")),
                 set_("i", v("i") + 1)]),
             select(isneg(A), -v("r"), v("r"))]})   # the remainder (a zero too) has a's sign

# m^b for m > 0, webgpu: exactly by squaring for small integer exponents (GPU pow is
# exp2(b * log2(m)), and webgpu's tests hold integer powers to numpy's); webgl keeps GLSL's pow.
_m = arg("m")
helper("powPositive", [("m", F32), ("b", F32)], [
    if_(floor(B).eq(B) & (abs_(B) <= 64.0), [
        var("e", i32(abs_(B))),
        var("base", _m),
        var("r", 1.0),
        while_(v("e") > 0, [
            if_((v("e") & 1).eq(1), [set_("r", v("r") * v("base"))]),
            set_("base", v("base") * v("base")),
            set_("e", v("e") >> 1)]),
        when(B < 0.0, 1.0 / v("r")),
        v("r")]),
    let("l", B * log2(_m)),
    when(v("l") > 128.0, INF),
    when(v("l") < -150.0, 0.0),
    exp2(v("l"))], targets=("wgsl",))


# --- unary ---------------------------------------------------------------------------------------

unary("Neg", f=-X, i=-X)
# WGSL's abs may keep -0's sign bit: webgpu clears it (numpy's |-0| is +0); GLSL's abs is an operand
# modifier, free.
unary("Abs", f=per_target(glsl=abs_(X), wgsl=clear_sign(X)), i=select(X < 0, -X, X))
unary("Sign", f=select(X > 0, 1, select(X < 0, -1, 0)), i=select(X > 0, 1, select(X < 0, -1, 0)))   # NaN: 0
unary("Square", f=X * X, i=X * X)
unary("Relu", f=select(X < 0, 0, X), i=select(X < 0, 0, X))                       # NaN and -0 pass
unary("Relu6", f=select(X < 0, 0, select(X > 6, 6, X)), i=select(X < 0, 0, select(X > 6, 6, X)))
# WGSL leaves exp's overflow and underflow undefined: webgpu gives them itself.
unary("Exp", f=[only("wgsl", when(X > 88.72284, INF), when(X < -104.0, 0.0)),
                exp(X)])
unary("Log", f=[when(X < 0.0, NAN),
                when(X.eq(0.0), -INF),
                only("wgsl", when(isinf(X), X)),     # WGSL's log(inf) is undefined
                log(X)])
# webgl: a series near 0, then log(1 + x) (as it always did); webgpu: Kahan's form (its tests hold
# log1p to 2e-5 relative near 0)
unary("Log1p", f=[when(X < -1.0, NAN),
                  when(X.eq(-1.0), -INF),
                  per_target(glsl=select(abs_(X) < 1e-4, X - 0.5 * X * X, log(1.0 + X)),
                             wgsl=call("log1pAccurate", X))])
# WGSL's sqrt is 1 / inverseSqrt: undefined at 0 and infinity, which webgpu returns itself
unary("Sqrt", f=[when(X < 0.0, NAN),
                 only("wgsl", when(X.eq(0.0) | isinf(X), X)),
                 sqrt(X)])
unary("Rsqrt", f=[when(X < 0.0, NAN),
                  only("wgsl", when(X.eq(0.0), select(isneg(X), -INF, INF)),
                       when(isinf(X), 0.0)),
                  per_target(glsl=inversesqrt(X), wgsl=1.0 / sqrt(X))])
# WGSL's division by 0 is undefined
unary("Reciprocal", f=[only("wgsl", when(X.eq(0.0), select(isneg(X), -INF, INF))),
                       1.0 / X])
unary("Elu", f=select(X >= 0.0, X, em1(X)))
unary("Selu", f=[let("scaleAlpha", 1.7580993408473768),
                 let("scale", 1.0507009873554805),
                 only("wgsl", when(X.eq(0.0), 0.0)),   # numpy's selu(-0) is +0 (its expm1(minimum(-0, 0)))
                 select(X >= 0.0, v("scale") * X, v("scaleAlpha") * em1(X))])
unary("Sigmoid", f=[only("wgsl", when(X < -88.0, op_exp(X))),
                    1.0 / (1.0 + op_exp(-X))])
# tanh: no overflow for large |x| either way. webgl: sign(x) * (1 - e^-2|x|) / (1 + e^-2|x|) (NaN
# returned first: fused epilogues call it unguarded); webgpu: -expm1(-2|x|) / (2 + expm1(-2|x|)),
# accurate near 0 too, zeros kept.
unary("Tanh", f={
    "glsl": [when(isnan(X), X),
             let("e", exp(-2.0 * abs_(X))),
             sign(X) * (1.0 - v("e")) / (1.0 + v("e"))],
    "wgsl": [when(X.eq(0.0), X),
             let("t", call("expm1Accurate", -2.0 * abs_(X))),
             let("r", -v("t") / (2.0 + v("t"))),
             select(X < 0.0, -v("r"), v("r"))]})
unary("Softplus", f=[when(X > 15.0, X),
                     when(X < -15.0, op_exp(X)),
                     # webgl: log(e^x + 1) (TF.js's); webgpu: log1p, accurate for small e^x
                     per_target(glsl=log(exp(X) + 1.0), wgsl=call("log1pAccurate", exp(X)))])
# sin, cos and tan reduce x to r in [-pi/4, pi/4] themselves (k = x * 2/pi rounded, pi/2 in three
# parts whose products with k are exact: Cody and Waite) and take Cephes' single-precision
# polynomials of r, within an ulp or two for |x| up to about 1e5, where GPUs' built-ins need not be
# (SwiftShader's sin is off by up to 2e-4, more than TF.js's specs allow in cos's gradient). Far
# beyond that neither is meaningful in float32.
_k, _r = arg("k"), arg("r")
helper("trigQuadrant", [("x", F32)], floor(X * 0.6366197723675814 + 0.5))
helper("trigReduced", [("x", F32), ("k", F32)],
       ((X - _k * 1.5703125) - _k * 4.837512969970703125e-4) - _k * 7.549789948768648e-8)
helper("sinPoly", [("r", F32)], [let("z", _r * _r),
                                 _r + _r * v("z") * (-1.6666654611e-1 + v("z") * (8.3321608736e-3
                                                                                 + v("z") * -1.9515295891e-4))])
helper("cosPoly", [("r", F32)], [let("z", _r * _r),
                                 1.0 - 0.5 * v("z") + v("z") * v("z") * (4.166664568298827e-2 + v("z") * (
                                     -1.388731625493765e-3 + v("z") * 2.443315711809948e-5))])


def _trig(pick):
    """The statements of sin, cos or tan: pick(s, c, quadrant) from r's sine and cosine."""
    return [let("k", call("trigQuadrant", X)),
            let("r", call("trigReduced", X, v("k"))),
            let("q", v("k") - 4.0 * floor(v("k") * 0.25)),
            let("s", call("sinPoly", v("r"))),
            let("c", call("cosPoly", v("r"))),
            pick(v("s"), v("c"), v("q"))]


def _quadrants(q, q0, q1, q2, q3):
    return select(q.eq(0.0), q0, select(q.eq(1.0), q1, select(q.eq(2.0), q2, q3)))


# WGSL's sin/tan at infinity are undefined and may lose -0: webgpu gives NaN and keeps zeros
unary("Sin", f=[only("wgsl", when(X.eq(0.0), X), when(isinf(X), NAN)),
                *_trig(lambda s, c, q: _quadrants(q, s, c, -s, -c))])
unary("Cos", f=[only("wgsl", when(isinf(X), NAN)),
                *_trig(lambda s, c, q: _quadrants(q, c, -s, -c, s))])
unary("Tan", f=[only("wgsl", when(X.eq(0.0), X), when(isinf(X), NAN)),
                *_trig(lambda s, c, q: select(q.eq(1.0) | q.eq(3.0), -c / s, s / c))])
unary("Floor", f=floor(X))
# ceil(-0.5) and round(-0.4) are -0 (numpy's): webgpu's built-ins may give +0, so it says so
unary("Ceil", f=[let("c", ceil(X)),
                 only("wgsl", when(v("c").eq(0.0) & (X < 0.0), NEGZERO)),
                 v("c")])
unary("Round", f=[let("r", round_even(X)),
                  only("wgsl", when(v("r").eq(0.0) & isneg(X), NEGZERO)),
                  v("r")])
unary("LogicalNot", logical=X.eq(0))
unary("LeakyRelu", f=select(X < 0.0, attr("alpha") * X, X))
# clamp by selects: NaN passes (no comparison holds), as do zeros' signs
unary("ClipByValue", f=[let("lo", select(attr("clipMin") > X, attr("clipMin"), X)),
                        select(attr("clipMax") < v("lo"), attr("clipMax"), v("lo"))],
      # int32 x clipped by bounds that may be fractional (webgpu; webgl clips int32 as floats):
      # below the smallest integer >= min (clipLoI) gives min truncated (clipLoT), as numpy's clip
      # then the int32 store give; likewise above.
      i=[when(X < attr("clipLoI", I32), attr("clipLoT", I32)),
         when(X > attr("clipHiI", I32), attr("clipHiT", I32)),
         X])

# --- inverse trigonometric, hyperbolic, erf, expm1, step, tests --------------------------------
# GPU exp/log/sin are approximations: the forms below avoid cancellation near 0 and overflow
# far from it, so that float32 results agree with numpy's to a few ulp where exp/log allow.
# webgpu also returns 0 and infinities itself (zeros' signs kept; WGSL's built-ins are undefined
# at infinity).
unary("Acos", f=[when(abs_(X) > 1.0, NAN), acos(X)])
unary("Asin", f=[when(abs_(X) > 1.0, NAN), only("wgsl", when(X.eq(0.0), X)), asin(X)])
unary("Atan", f=[when(isinf(X), select(X < 0.0, -1.5707963267948966, 1.5707963267948966)),
                 only("wgsl", when(X.eq(0.0), X)),
                 atan(X)])
unary("Acosh", f=[when(X < 1.0, NAN),
                  only("wgsl", when(isinf(X), X)),
                  when(X > 1e4, log(X) + LN2),                          # x^2 would overflow; acosh(x) ~ log(2x)
                  let("v", X - 1.0),
                  call("log1pAccurate", v("v") + sqrt(v("v") * (X + 1.0)))])   # log(x + sqrt(x^2 - 1)), exact near 1
unary("Asinh", f=[only("wgsl", when(X.eq(0.0) | isinf(X), X)),
                  let("a", abs_(X)),
                  var("r", type=F32),
                  if_(v("a") > 1e4, [set_("r", log(v("a")) + LN2)],    # asinh(x) ~ log(2|x|)
                      # log(a + sqrt(a^2 + 1)) = log1p(a + a^2 / (1 + sqrt(a^2 + 1)))
                      [set_("r", call("log1pAccurate",
                                      v("a") + v("a") * v("a") / (1.0 + sqrt(v("a") * v("a") + 1.0))))]),
                  restore_sign(X, v("r"))])
unary("Atanh", f=[let("a", abs_(X)),
                  when(v("a") > 1.0, NAN),
                  only("wgsl", when(X.eq(0.0), X),
                       when(v("a").eq(1.0), select(X < 0.0, -INF, INF))),
                  let("l", call("log1pAccurate", 2.0 * v("a") / (1.0 - v("a")))),
                  per_target(glsl=sign(X) * 0.5 * v("l"), wgsl=select(X < 0.0, -(0.5 * v("l")), 0.5 * v("l")))])
unary("Cosh", f=[only("wgsl", when(isinf(X), INF)),
                 let("h", op_exp(abs_(X) - LN2)),                        # e^|x| / 2: finite as long as cosh is
                 v("h") + 0.25 / v("h")])
unary("Sinh", f=[only("wgsl", when(X.eq(0.0) | isinf(X), X)),
                 let("a", abs_(X)),
                 var("r", type=F32),
                 if_(v("a") < 0.5, [let("m", call("expm1Accurate", v("a"))),
                                    # (e^a - e^-a) / 2 without cancellation
                                    set_("r", 0.5 * (v("m") + v("m") / (v("m") + 1.0)))],
                     [let("h", op_exp(v("a") - LN2)),
                      set_("r", v("h") - 0.25 / v("h"))]),
                 restore_sign(X, v("r"))])
# TF.js's approximation (Abramowitz and Stegun 7.1.26), as on the cpu backend
unary("Erf", f=[only("wgsl", when(X.eq(0.0), 0.0)),
                let("v", abs_(X)),
                let("t", 1.0 / (1.0 + 0.3275911 * v("v"))),
                let("p", ((((1.061405429 * v("t") - 1.453152027) * v("t") + 1.421413741) * v("t") - 0.284496736)
                          * v("t") + 0.254829592) * v("t")),
                let("r", 1.0 - v("p") * op_exp(-v("v") * v("v"))),
                restore_sign(X, v("r"))])
unary("Expm1", f=call("expm1Accurate", X))
unary("Step", f=select(X > 0.0, 1.0, attr("alpha")), i=select(X > 0, 1, i32(attr("alpha"))))
# The tests see NaN themselves (NAN_AWARE); an int32 or bool is never NaN nor infinite.
unary("IsNan", f=isnan(X), i=False)
unary("IsInf", f=isinf(X), i=False)
unary("IsFinite", f=~isnan(X) & ~isinf(X), i=True)

# Casts, webgpu (webgl's are programs of elementwise.glsl): float32 -> int32 as an Int32Array
# stores it, anything -> bool is x != 0 (NaN included), int32/bool -> float32 rounds to nearest.
UNARY_FUNCTIONS += [
    Function("cast_to_int32", [("x", F32)], to_int32(X), targets=("wgsl",)),
    Function("cast_to_int32_int", [("x", I32)], X, targets=("wgsl",)),
    Function("cast_to_bool", [("x", F32)], isnan(X) | X.ne(0.0), targets=("wgsl",)),
    Function("cast_to_bool_int", [("x", I32)], X.ne(0), targets=("wgsl",)),
    Function("cast_to_float32_int", [("x", I32)], f32(X), targets=("wgsl",)),
]


# --- binary --------------------------------------------------------------------------------------
# i32 arithmetic wraps on webgpu, as numpy's int32 and JS's Int32Array do.

binary("Add", f=A + B, i=A + B)
binary("Sub", f=A - B, i=A - B)
binary("Multiply", f=A * B, i=A * B)
binary("RealDiv", f=A / B)
# TF.js's FloorDiv gives int32 for float operands too: webgpu converts as an Int32Array stores
# (NaN and infinities 0, wrapped); on webgl the int32 result travels as the float itself.
binary("FloorDiv", f=per_target(glsl=floor(A / B), wgsl=to_int32(floor(A / B))),
       i=[when(B.eq(0), 0),
          var("q", A / B),   # truncates toward zero; step down when the signs differ and it is inexact
          if_((v("q") * B).ne(A) & (A < 0).ne(B < 0), [set_("q", v("q") - 1)]),
          v("q")], webgl_int="_int")
# TF.js's mod: the remainder, moved to b's sign where the signs differ ((r + b) % b).
binary("Mod", f=[let("r", call("jsRemainder", A, B)),
                 when(((A < 0.0) & (B < 0.0)) | ((A >= 0.0) & (B >= 0.0)), v("r")),
                 call("jsRemainder", v("r") + B, B)],
       # GLSL ES 3.00's % is undefined for negative operands: webgl subtracts the truncated quotient
       i=[when(B.eq(0), 0),
          var("r", per_target(glsl=A - (A / B) * B, wgsl=A % B)),
          if_(v("r").ne(0) & (v("r") < 0).ne(B < 0), [set_("r", v("r") + B)]),
          v("r")], webgl_int="_int")

# JS Math.pow, special values included (GPU pow is undefined for a <= 0 and at infinities).
binary("Pow", f=[
    when(isnan(B), NAN),
    when(B.eq(0.0), 1.0),
    when(isnan(A), NAN),
    let("m", abs_(A)),
    if_(isinf(B), [when(v("m").eq(1.0), NAN),
                   select((v("m") > 1.0).eq(B > 0.0), INF, 0.0)]),
    let("integer", floor(B).eq(B)),
    var("r", type=F32),
    if_(isinf(A) | v("m").eq(0.0), [set_("r", select((B > 0.0).eq(isinf(A)), INF, 0.0))],
        [when((A < 0.0) & ~v("integer"), NAN),
         set_("r", per_target(glsl=pow_(v("m"), B), wgsl=call("powPositive", v("m"), B)))]),
    # odd integer powers keep the sign (-0 counts). WGSL has no float mod: webgpu tests the low
    # bit of the exponent as an integer (exact below 2^24, beyond which every float is even).
    let("odd", per_target(glsl=v("integer") & fmod(B, 2.0).ne(0.0),
                          wgsl=v("integer") & (abs_(B) < 16777216.0) & (i32(abs_(B)) & 1).eq(1))),
    if_(isneg(A) & v("odd"), [set_("r", -v("r"))]),
    v("r")],
    # int32 powers as TF.js's cpu kernel gives them: Math.pow in float64, stored into an Int32Array
    # (the rule in full at _pow_int in pytfweb/ops/elementwise.py): the exact power rounded to 53
    # significant bits (ties to even), wrapped modulo 2^32. For |a| >= 2, |a| ** b is built exactly
    # in three 32-bit words while below 2^84 (from 2^84 on the float64 is a multiple of 2^32: 0),
    # then rounded and wrapped in u32 arithmetic, which wraps (GLSL ES 3.00, 4.1.3; WGSL).
    # On webgl operands and result travel as floats (R32F textures): exact to 2^24, beyond that
    # rounded to float32 as every int32 value there (10 ** 20 -> 1661992960 survives; 3 ** 20,
    # -808182895, reads back as -808182912); webgpu is exact over the whole int32 range.
    i=[let("odd", (B & 1).eq(1)),
       let("m", select(A < 0, to_u32(-(A + 1)) + u32(1), to_u32(A))),   # |a|, 2^31 too
       when(B.eq(0), 1),                                                 # 0 ** 0 too
       when(v("m") <= u32(1), select((A < 0) & v("odd"), -1, i32(v("m")))),   # 0 ** negative is Infinity: 0
       when((B < 0) | (B >= 84), 0),                                     # |a ** b| < 1, or |a| ** b >= 2^84
       var("w0", u32(1)), var("w1", u32(0)), var("w2", u32(0)),         # |a| ** i, low word first
       for_("i", B, [
           let("t0", call("powMulWide", v("w0"), v("m"))),
           let("t1", call("powMulWide", v("w1"), v("m"))),
           let("t2", call("powMulWide", v("w2"), v("m"))),
           set_("w0", v("t0").x),
           set_("w1", v("t1").x + v("t0").y),
           let("carry", v("t1").y + select(v("w1") < v("t0").y, u32(1), u32(0))),
           set_("w2", v("t2").x + v("carry")),
           when(v("t2").y.ne(u32(0)) | (v("w2") < v("carry")) | (v("w2") >= u32(0x100000)), 0)]),   # >= 2^84
       let("length", select(v("w2").ne(u32(0)), 64 + bit_length(v("w2")),
                            select(v("w1").ne(u32(0)), 32 + bit_length(v("w1")), bit_length(v("w0"))))),
       var("r", v("w0")),
       if_(v("length") > 53, [   # round off the k bits below the 53 a float64 keeps, to nearest, ties to even
           let("k", v("length") - 53),
           let("dropped", v("w0") & ((u32(1) << v("k")) - u32(1))),
           let("halfway", u32(1) << (v("k") - 1)),
           set_("r", v("w0") - v("dropped")),
           if_((v("dropped") > v("halfway"))
               | (v("dropped").eq(v("halfway")) & ((v("w0") >> v("k")) & u32(1)).eq(u32(1))),
               [set_("r", v("r") + (u32(1) << v("k")))])]),
       if_((A < 0) & v("odd"), [set_("r", u32(0) - v("r"))]),            # r: the int32's bits
       # webgl returns the float of the int32 those bits are (GLSL's int(uint) of values >= 2^31 is
       # not defined to keep the bits); webgpu the bits as i32
       per_target(glsl=select(v("r") < u32(0x80000000), f32(v("r")), -f32(u32(0) - v("r"))), wgsl=as_i32(v("r")))],
    webgl_int="_int")

# numpy's maximum/minimum: NaN wins. Between equal values (0 and -0) numpy gives the second
# operand: webgpu selects so (its tests check zero signs); webgl's GLSL max/min are one instruction.
binary("Maximum", f=[when(isnan(A) | isnan(B), NAN), per_target(glsl=max_(A, B), wgsl=select(A > B, A, B))],
       i=max_(A, B))
binary("Minimum", f=[when(isnan(A) | isnan(B), NAN), per_target(glsl=min_(A, B), wgsl=select(A < B, A, B))],
       i=min_(A, B))
binary("SquaredDifference", f=(A - B) * (A - B), i=(A - B) * (A - B))

# Comparisons: false whenever a NaN is involved, except NotEqual (true).
binary("Equal", f=wgsl_and(not_nan(A, B), A.eq(B)), i=A.eq(B))
binary("NotEqual", f=per_target(glsl=A.ne(B), wgsl=isnan(A) | isnan(B) | A.ne(B)), i=A.ne(B))
binary("Greater", f=wgsl_and(not_nan(A, B), A > B), i=A > B)
binary("GreaterEqual", f=wgsl_and(not_nan(A, B), A >= B), i=A >= B)
binary("Less", f=wgsl_and(not_nan(A, B), A < B), i=A < B)
binary("LessEqual", f=wgsl_and(not_nan(A, B), A <= B), i=A <= B)
binary("LogicalAnd", logical=A.ne(0) & B.ne(0))
binary("LogicalOr", logical=A.ne(0) | B.ne(0))

binary("Atan2", f=[
    when(isnan(A) | isnan(B), NAN),
    let("pi", PI),
    let("negativeB", isneg(B)),     # -0 counts: atan2(0, -0) = pi
    # C's values at (0, 0) and at infinities, where atan2 is undefined or loose on GPUs
    when(A.eq(0.0), select(v("negativeB"), select(isneg(A), -v("pi"), v("pi")), A)),
    if_(isinf(A) | isinf(B), [
        let("s", select(A < 0.0, -1.0, 1.0)),    # sign(a): a is neither 0 nor NaN here
        when(isinf(A) & isinf(B), v("s") * select(v("negativeB"), 0.75, 0.25) * v("pi")),
        when(isinf(A), v("s") * 0.5 * v("pi")),
        select(v("negativeB"), v("s") * v("pi"), select(A < 0.0, NEGZERO, 0.0))]),
    atan2(A, B)])

# int32 operands only (the op accepts nothing else), exact as ints: webgl's only function
binary("BitwiseAnd", i=A & B, webgl_int="")

_dy, _y = arg("dy"), arg("y")
# EluGrad(dy, y): the gradient of elu from its output.
binary("EluGrad", params=("dy", "y"), f=select(_y < 0, _dy * (_y + 1), _dy), i=select(_y < 0, _dy * (_y + 1), _dy))
# ReluGrad(dy, x), Relu6Grad(dy, x): dy where relu (relu6) passes x on, else 0 (NaN x: 0).
binary("ReluGrad", params=("dy", "x"), f=select(wgsl_and(~isnan(X), X > 0.0), _dy, 0.0),
       i=select(X > 0, _dy, 0))
binary("Relu6Grad", params=("dy", "x"), f=select(wgsl_and(~isnan(X), (X > 0.0) & (X <= 6.0)), _dy, 0.0),
       i=select((X > 0) & (X <= 6), _dy, 0))


# --- the rendered files --------------------------------------------------------------------------

_FILES = {
    "unary_ops.glsl": (UNARY_FUNCTIONS, "glsl"),
    "binary_ops.glsl": (BINARY_FUNCTIONS, "glsl"),
    "unary_ops.wgsl": (UNARY_FUNCTIONS, "wgsl"),
    "binary_ops.wgsl": (BINARY_FUNCTIONS, "wgsl"),
}
_HEADER = ("// Rendered from pytfweb/backends/gpu/elementwise_ops.py by elementwise_ir.py (not a file on disk).\n"
           "// {kind} ops: one function per kernel; the helpers they call first.\n\n")


def names():
    return tuple(_FILES)


@functools.lru_cache(maxsize=None)
def source(name):
    """The rendered text of one of the files above (helpers, then the ops), or KeyError."""
    functions, target = _FILES[name]
    kind = "Unary" if functions is UNARY_FUNCTIONS else "Binary"
    return _HEADER.format(kind=kind) + render(functions, target, HELPERS)


__all__ = ["source", "names", "UNARY_FUNCTIONS", "BINARY_FUNCTIONS", "HELPERS", "IRError"]


# --- kernel attributes as uniform fields (webgpu's programs, the JavaScript renderer) ---
INT32_MIN, INT32_MAX = -2 ** 31, 2 ** 31 - 1


def _clamp_int(v):
    return max(INT32_MIN, min(INT32_MAX, v))


def _clip_fields(attrs):
    lo, hi = attrs["clip_value_min"], attrs["clip_value_max"]
    lo_i = INT32_MIN if lo == -math.inf else _clamp_int(math.ceil(lo))
    hi_i = INT32_MAX if hi == math.inf else _clamp_int(math.floor(hi))
    lo_t = INT32_MIN if lo == -math.inf else _clamp_int(math.trunc(lo))
    hi_t = INT32_MAX if hi == math.inf else _clamp_int(math.trunc(hi))
    return (float(lo), float(hi), lo_i, lo_t, hi_i, hi_t)


# Kernel attributes as uniform fields: ((field, type), ...) and attrs -> values.
ATTR_UNIFORMS = {
    "LeakyRelu": ((("alpha", "f32"),), lambda a: (float(a["alpha"]),)),
    "Step": ((("alpha", "f32"),), lambda a: (float(a["alpha"]),)),
    "ClipByValue": ((("clipMin", "f32"), ("clipMax", "f32"), ("clipLoI", "i32"), ("clipLoT", "i32"),
                     ("clipHiI", "i32"), ("clipHiT", "i32")), _clip_fields),
}
