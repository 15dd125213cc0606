"""Unary math: dtypes (float32, int32, bool, Python values), edge values (NaN, +-inf, -0), rank 0,
0-size tensors, gradients inside each function's domain."""
from ..spec import as_tfjs, case, expect, gives, seq, T, wave

INF, NAN = float("inf"), float("nan")
INT_EXACT = ("int32 results are exact, where TF.js's cpu kernel rounds them through float32 "
             "(abs(-2147483647) gives -2147483648 there); on webgl, whose textures hold float32, pytfweb "
             "rounds them as TF.js does")
EDGES = [NAN, INF, -INF, 0.0, -0.0, 0.5, -0.5, 2.5, -3.5, 100.0, -100.0]

# fn -> values inside the domain (gradients are taken there)
DOMAIN = {
    "tf.abs": [-2.0, -0.5, 0.5, 3.0, 1.5, -1.25],
    "tf.acos": [-0.9, -0.5, 0.0, 0.3, 0.7, 0.95],
    "tf.acosh": [1.1, 1.5, 2.0, 3.5, 10.0, 50.0],
    "tf.asin": [-0.9, -0.5, 0.0, 0.3, 0.7, 0.95],
    "tf.asinh": [-3.0, -0.5, 0.0, 0.3, 2.0, 20.0],
    "tf.atan": [-3.0, -0.5, 0.0, 0.3, 2.0, 20.0],
    "tf.atanh": [-0.9, -0.5, 0.0, 0.3, 0.7, 0.95],
    "tf.ceil": [-2.5, -0.5, 0.2, 1.0, 1.7, 3.2],
    "tf.cos": [-3.0, -0.5, 0.0, 0.3, 2.0, 6.0],
    "tf.cosh": [-3.0, -0.5, 0.0, 0.3, 2.0, 5.0],
    "tf.erf": [-3.0, -0.5, 0.0, 0.3, 1.0, 2.0],
    "tf.exp": [-3.0, -0.5, 0.0, 0.3, 2.0, 5.0],
    "tf.expm1": [-3.0, -0.5, 1e-3, 0.3, 2.0, 5.0],
    "tf.floor": [-2.5, -0.5, 0.2, 1.0, 1.7, 3.2],
    "tf.log": [0.1, 0.5, 1.0, 2.0, 7.5, 100.0],
    "tf.log1p": [-0.5, -0.1, 0.0, 0.3, 2.0, 100.0],
    "tf.neg": [-2.0, -0.5, 0.0, 0.3, 2.0, 5.0],
    "tf.reciprocal": [-2.0, -0.5, 0.1, 0.3, 2.0, 5.0],
    "tf.round": [-2.5, -1.5, -0.5, 0.5, 1.5, 2.6],
    "tf.rsqrt": [0.1, 0.5, 1.0, 2.0, 7.5, 100.0],
    "tf.sign": [-2.0, -0.5, 0.0, 0.3, 2.0, 5.0],
    "tf.sin": [-3.0, -0.5, 0.0, 0.3, 2.0, 6.0],
    "tf.sinh": [-3.0, -0.5, 0.0, 0.3, 2.0, 5.0],
    "tf.sqrt": [0.1, 0.5, 1.0, 2.0, 7.5, 100.0],
    "tf.square": [-2.0, -0.5, 0.0, 0.3, 2.0, 5.0],
    "tf.tan": [-1.2, -0.5, 0.0, 0.3, 1.0, 1.4],
    "tf.tanh": [-3.0, -0.5, 0.0, 0.3, 2.0, 20.0],
}
PIECEWISE = ("tf.ceil", "tf.floor", "tf.round", "tf.sign")

CASES = []
for fn, xs in DOMAIN.items():
    CASES += [
        case(fn, T(xs, [2, 3]), grad=True),
        case(fn, T(EDGES)),
        case(fn, T([-2, 0, 1, 3], dtype="int32")),
        case(fn, T([True, False], dtype="bool")),
        case(fn, T(xs[2], [])),                       # rank 0
        case(fn, T([], [0, 3])),                      # 0-size
        case(fn, [xs[0], xs[1]]),                     # a plain list: TF.js parses it as float32
    ]
    if fn not in PIECEWISE:
        CASES.append(case(fn, T(xs[3], []), grad=True))
CASES += [
    case("tf.abs", T([-2147483647, 2147483647, 0], dtype="int32"), deviation=INT_EXACT),
    case("tf.abs", T([-16777216, 16777215, -5], dtype="int32")),
    case("tf.neg", T([-2147483648, 2147483520, 0], dtype="int32")),   # float32-exact limits; -(-2^31) wraps
    case("tf.square", T([-46340, 46340, 3], dtype="int32"), deviation=INT_EXACT),
    case("tf.square", T([-4096, 4095, 3], dtype="int32")),
    case("tf.sign", T([-7, 0, 9], dtype="int32")),
    case("tf.round", T([0.5, 1.5, 2.5, -0.5, -1.5, 2.4999, 3.5000002])),
    case("tf.abs", T(seq(24, -12.0), [2, 3, 4]), grad=True),
    case("tf.sqrt", T([0.0, 4.0]), grad=True),
    case("tf.log", T([0.0, 1.0]), grad=True),
    case("tf.exp", T([88.0, 89.0, -104.0])),
    case("tf.abs", "a", error=True),
]

# isNaN / isInf / isFinite: bool out, any numeric dtype in
for fn in ("tf.isNaN", "tf.isInf", "tf.isFinite"):
    CASES += [
        case(fn, T(EDGES)),
        case(fn, T([-2, 0, 3], dtype="int32")),
        case(fn, T([True, False], dtype="bool")),
        case(fn, T(NAN, [])),
        case(fn, T([], [2, 0])),
        case(fn, T(wave(6), [2, 3])),
    ]

# cast
for src in (T([1.7, -1.7, 0.0, -0.0, NAN, INF, -INF, 2.5e9, -2.5e9]), T([-3, 0, 5, 2147483647], dtype="int32"),
            T([True, False], dtype="bool")):
    for dtype in ("float32", "int32", "bool"):
        CASES.append(case("tf.cast", src, dtype))
CASES += [
    case("tf.cast", T(wave(6), [3, 2]), "float32", grad=True),
    case("tf.cast", T(wave(4), [4]), "int32", grad=True),
    case("tf.cast", T([], [0]), "int32"),
    case("tf.cast", T(1.5, []), "bool"),
    case("tf.cast", [1.5, 2.5], "int32"),
    case("tf.cast", T([1e10, -1e10, 3e38, -3e38, 4294967296.0, 2147483648.0]), "int32"),
    case("tf.cast", T([1.0]), "float64", error=True),
    case("tf.cast", T([1.0]), "string", error=True),
]

# What pytfweb gives instead in its deviation cases (README's "Deviations from TF.js"), checked in place of
# TF.js's answer: runner.check.
expect(CASES, {
    "abs#10": gives(T([2147483647, 2147483647, 0], [3], "int32"), webgl=as_tfjs()),
    "square#9": gives(T([2147395600, 2147395600, 9], [3], "int32"), webgl=as_tfjs()),
})
