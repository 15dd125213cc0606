"""Binary arithmetic: dtypes, broadcasting, edge values, gradients."""
from ..spec import case, expect, gives, seq, T, wave

INF, NAN = float("inf"), float("nan")
PY_INT = ("a Python int beside an int32 tensor is taken as int32 (so `x * 2` stays int32), where TF.js, whose "
          "numbers carry no int/float distinction, parses every number as float32 and returns float32")
BOOL_SUM = ("two bool tensors give an int32 sum or difference, where TF.js returns a bool tensor holding 2 "
            "(true + true) or 255 (false - true), values no bool can hold")

CASES = []
for fn in ("tf.add", "tf.sub", "tf.mul", "tf.div", "tf.maximum", "tf.minimum", "tf.pow", "tf.squaredDifference",
           "tf.atan2", "tf.mod", "tf.floorDiv", "tf.divNoNan"):
    CASES += [
        case(fn, T([[1.5, -2.0, 3.0], [0.5, 4.0, -1.0]]), T([0.5, 2.0, -3.0]), grad=fn not in ("tf.floorDiv", "tf.mod")),
        case(fn, T([7, -7, 3, 0], dtype="int32"), T([2, 2, -2, 5], dtype="int32")),
        case(fn, T(wave(6, 3.0), [2, 3, 1]), T(wave(3, 2.0), [3, 1]), grad=fn in ("tf.add", "tf.mul", "tf.sub")),
        case(fn, T([0.0, -0.0, INF, NAN]), T([0.0, 2.0, INF, 1.0])),
    ]
CASES += [
    case("tf.add", T([True, False], dtype="bool"), T([True, True], dtype="bool"), deviation=BOOL_SUM),
    case("tf.add", T([1, 2], dtype="int32"), T([0.5, 0.5])),
    case("tf.addN", [T([1.0, 2.0]), T([3.0, 4.0]), T([5.0, 6.0])]),
    case("tf.div", T([1, 3], dtype="int32"), T([2, 4], dtype="int32")),
    case("tf.abs", T(seq(4, -2.0)), grad=True),
]

BINARY = ("tf.add", "tf.sub", "tf.mul", "tf.div", "tf.maximum", "tf.minimum", "tf.pow", "tf.squaredDifference",
          "tf.atan2", "tf.mod", "tf.floorDiv", "tf.divNoNan")
for fn in BINARY:
    CASES += [
        case(fn, T([True, False, True, False], dtype="bool"), T([True, True, False, False], dtype="bool"),
             deviation=BOOL_SUM if fn in ("tf.add", "tf.sub") else None),
        case(fn, T([3, -4, 5], dtype="int32"), T([2.0, 0.5, -1.5])),
        case(fn, T([1.5, -2.5, 0.0]), T([True, True, False], dtype="bool")),
        case(fn, T(2.5, []), T(-1.5, []), grad=fn not in ("tf.floorDiv",)),
        case(fn, T([], [0, 3]), T([1.0, 2.0, 3.0])),
        case(fn, T([1.0, 2.0, 3.0]), T([1.0, 2.0]), error=True),
        case(fn, T([5, -5, 0], dtype="int32"), T([0, 0, 0], dtype="int32")),
        case(fn, T([1.0, -1.0, 0.0, NAN, INF, -INF]), T([0.0, 0.0, 0.0, 0.0, 0.0, 0.0])),
        case(fn, T([-INF, INF, -INF, 3.0, -3.0, NAN]), T([INF, -INF, -INF, INF, -INF, NAN])),
        case(fn, T(seq(6, -2.5), [3, 2]), 2.5),
        case(fn, [1.5, -2.5], T([2.0, 4.0])),
        case(fn, T(["a"], dtype="string"), T(["b"], dtype="string"), error=True),
        case(fn, T(wave(24, 2.0), [2, 3, 4]), T(wave(12, 3.0), [3, 1, 4]), grad=fn not in ("tf.floorDiv", "tf.divNoNan")),
    ]
CASES += [
    # int32 limits, with values float32 holds exactly (webgl textures are float32): wrapping as Int32Array
    case("tf.add", T([2147483520, -2147483648], dtype="int32"), T([128, -256], dtype="int32")),
    case("tf.mul", T([65536, 98304, -46340], dtype="int32"), T([65536, 32768, 2], dtype="int32")),
    case("tf.sub", T([-2147483648, 2147483520], dtype="int32"), T([256, -128], dtype="int32")),
    case("tf.pow", T([2, 3, -2, 0, 1, -1, 5], dtype="int32"), T([10, -1, 3, 0, -5, -3, 2], dtype="int32")),
    # int32 powers beyond int32: Math.pow's float64 stored into an Int32Array (wrapped modulo 2^32; 0 from 2^84
    # on; 3 ** 40 rounded to 53 bits first), results float32 holds exactly (webgl)
    case("tf.pow", T([10, 10, 10, 3, 2, 2, 7, 2, -3, 3, 0, 2, -1, 0, 65536, -2, -1], dtype="int32"),
         T([20, 22, 17, 40, 31, 32, 30, 100, 15, 14, 0, -1, -3, -1, 2, 31, 16777215], dtype="int32")),
    case("tf.pow", T([-8.0, -8.0, 0.0, 0.0, 2.0, NAN, 1.0]), T([1 / 3, 2.0, -1.0, 0.0, INF, 0.0, NAN])),
    case("tf.pow", T([-INF, -INF, -INF, -0.0, -0.0, 0.0, INF, 0.5, 2.0, -2.0, 1.0, -1.0, -1.0, 0.0]),
         T([3.0, 2.0, -3.0, -1.0, 0.5, -2.0, -0.5, INF, -INF, 0.5, INF, INF, -INF, 0.0])),
    case("tf.pow", T([0.5, 1.5, 2.0, 3.0], [2, 2]), T([2.0, 0.5]), grad=True),
    case("tf.pow", T([-1.5, 1.5, 2.0, 0.0], [2, 2]), T([2.0, 3.0]), grad=True),
    case("tf.mod", T([7.5, -7.5, 7.5, -7.5, 0.0]), T([2.0, 2.0, -2.0, -2.0, 3.0]), grad=True),
    case("tf.mod", T([-2147483648, 2147483520], dtype="int32"), T([10, -10], dtype="int32")),
    case("tf.mod", T([3.0, -3.0, INF, 0.0, -0.0, 7.0, -7.0]), T([-INF, INF, 2.0, -2.0, 2.0, 0.0, 0.0])),
    case("tf.floorDiv", T([-7, 7, -7, 7], dtype="int32"), T([2, -2, -2, 2], dtype="int32")),
    case("tf.floorDiv", T([2.5e9, -2.5e9, 1e10]), T([1.0, 1.0, 1.0])),
    case("tf.floorDiv", T([1.5, -2.5]), T([0.5, 1.0]), grad=True),
    case("tf.div", T([1, -1, 0], dtype="int32"), T([0, 0, 0], dtype="int32")),
    case("tf.divNoNan", T([1.0, 0.0, NAN, INF]), T([0.0, 0.0, 0.0, 0.0]), grad=True),
    case("tf.divNoNan", T([1.0, 2.0, 3.0]), T([0.0, 2.0, 0.5]), grad=True),
    case("tf.maximum", T([1.0, NAN, 2.0, -0.0]), T([NAN, 1.0, 2.0, 0.0]), grad=True),
    case("tf.minimum", T([1.0, NAN, 2.0, -0.0]), T([NAN, 1.0, 2.0, 0.0]), grad=True),
    case("tf.maximum", T([[1.0, 5.0], [3.0, 2.0]]), T([2.0, 4.0]), grad=True),
    case("tf.minimum", T([[1.0, 5.0], [3.0, 2.0]]), T([2.0, 4.0]), grad=True),
    case("tf.squaredDifference", T([[1.0, 5.0], [3.0, 2.0]]), T([2.0, 4.0]), grad=True),
    case("tf.atan2", T([0.0, -0.0, 0.0, -0.0, 1.0, -1.0, INF, -INF, INF]), T([0.0, 0.0, -0.0, -0.0, INF, -INF, INF, 1.0, -INF])),
    case("tf.atan2", T([True, False, True], dtype="bool"), T([False, True, True], dtype="bool")),
]

# Python numbers beside a tensor
CASES += [
    case("tf.add", T([1, 2], dtype="int32"), 2, deviation=PY_INT),
    case("tf.mul", T([1, 2], dtype="int32"), 2.5),
    case("tf.sub", 3.5, T([1, 2], dtype="int32")),
    case("tf.maximum", T([1.5, -2.0]), 0),
]

# addN(tensors): same shape and dtype
CASES += [
    case("tf.addN", [T([1, 2], dtype="int32"), T([3, 4], dtype="int32")]),
    case("tf.addN", [T(wave(6), [2, 3])], grad=False),
    case("tf.addN", [T(1.5, []), T(2.5, []), T(-1.0, [])]),
    case("tf.addN", [T([True, False], dtype="bool"), T([True, True], dtype="bool")], deviation=BOOL_SUM),
    case("tf.addN", [T([], [0, 2]), T([], [0, 2])]),
    case("tf.addN", [T([1.0, NAN]), T([INF, 2.0]), T([-INF, 1.0])]),
    case("tf.addN", [T([1.0, 2.0]), T([1, 2], dtype="int32")], error=True),
    case("tf.addN", [T([1.0, 2.0]), T([1.0, 2.0, 3.0])], error=True),
    case("tf.addN", [T([1.0, 2.0]), T([[1.0, 2.0]])], error=True),
    case("tf.addN", [], error=True),
    case("tf.addN", [[1.0, 2.0], [3.0, 4.0]]),
]

# upcastType, sumOutType: dtype names
for a in ("bool", "int32", "float32", "complex64"):
    CASES.append(case("tf.sumOutType", a))
    for b in ("bool", "int32", "float32", "complex64"):
        CASES.append(case("tf.upcastType", a, b))
CASES += [
    case("tf.upcastType", "string", "string"),
    case("tf.upcastType", "string", "float32", error=True),
    case("tf.sumOutType", "string"),
]

# What pytfweb gives instead in its deviation cases (README's "Deviations from TF.js"), checked in place of
# TF.js's answer: runner.check.
expect(CASES, {
    "add#5": gives(T([2, 1], [2], "int32")),
    "add#7": gives(T([2, 1, 1, 0], [4], "int32")),
    "sub#5": gives(T([0, -1, 1, 0], [4], "int32")),
    "add#21": gives(T([3, 4], [2], "int32")),
    "addN#5": gives(T([2, 1], [2], "int32")),
})
