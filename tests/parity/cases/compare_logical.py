"""Comparisons, logical and bitwise ops: dtypes (mixed operands upcast, strings compared), broadcasting,
NaN and infinities, rank 0, 0-size, bool outputs, dtype errors."""
from ..spec import T, case

INF, NAN = float("inf"), float("nan")

CASES = []
for fn in ("tf.equal", "tf.notEqual", "tf.greater", "tf.greaterEqual", "tf.less", "tf.lessEqual"):
    CASES += [
        case(fn, T([[1.5, -2.0, 3.0], [0.5, 4.0, -1.0]]), T([0.5, 4.0, 3.0])),
        case(fn, T([7, -7, 3, 0], dtype="int32"), T([2, -7, 5, 0], dtype="int32")),
        case(fn, T([True, False, True, False], dtype="bool"), T([True, True, False, False], dtype="bool")),
        case(fn, T([1, 2, 3], dtype="int32"), T([1.0, 2.5, 2.0])),
        case(fn, T([True, False], dtype="bool"), T([1, 0], dtype="int32")),
        case(fn, T([0.0, -0.0, INF, -INF, NAN, NAN, 1.0]), T([-0.0, 0.0, INF, INF, NAN, 1.0, NAN])),
        case(fn, T(2.0, []), T([1.0, 2.0, 3.0])),
        case(fn, T([1.0, 2.0], [2, 1]), T([2.0, 1.0, 0.0], [1, 3])),
        case(fn, T([], [0, 3]), T([1.0, 2.0, 3.0])),
        case(fn, T(["a", "b", "c"], dtype="string"), T(["a", "c", "b"], dtype="string")),
        case(fn, T([1.0, 2.0, 3.0]), T([1.0, 2.0])),
        case(fn, [1, 2, 3], 2),
        case(fn, T([2147483520, -2147483648], dtype="int32"), T([2147483392, -2147483392], dtype="int32")),
    ]

for fn in ("tf.logicalAnd", "tf.logicalOr", "tf.logicalXor"):
    CASES += [
        case(fn, T([True, False, True, False], dtype="bool"), T([True, True, False, False], dtype="bool")),
        case(fn, T([[True], [False]], dtype="bool"), T([True, False, True], dtype="bool")),
        case(fn, T(True, [], dtype="bool"), T([True, False], dtype="bool")),
        case(fn, T([], [0], dtype="bool"), T([True], dtype="bool")),
        case(fn, [True, False], [False, False]),
        case(fn, T([1.0, 0.0]), T([True, False], dtype="bool"), error=True),
        case(fn, T([True, False], dtype="bool"), T([1, 0], dtype="int32"), error=True),
        case(fn, T([True, False, True], dtype="bool"), T([True, False], dtype="bool"), error=True),
    ]
CASES += [
    case("tf.logicalNot", T([True, False], dtype="bool")),
    case("tf.logicalNot", T(False, [], dtype="bool")),
    case("tf.logicalNot", T([], [0, 2], dtype="bool")),
    case("tf.logicalNot", [True, False, False]),
    case("tf.logicalNot", T([1.0, 0.0]), error=True),
    case("tf.logicalNot", T([1, 0], dtype="int32"), error=True),
]

# bitwiseAnd(x, y): int32, same shape
CASES += [
    case("tf.bitwiseAnd", T([12, -1, 7, 0, -2147483648, 2147483520], dtype="int32"),
         T([10, 5, -8, 3, -1, 65535], dtype="int32")),
    case("tf.bitwiseAnd", T([[1, 2], [3, 4]], dtype="int32"), T([[3, 3], [3, 3]], dtype="int32")),
    case("tf.bitwiseAnd", T(6, [], dtype="int32"), T(3, [], dtype="int32")),
    case("tf.bitwiseAnd", T([], [0], dtype="int32"), T([], [0], dtype="int32")),
    case("tf.bitwiseAnd", T([1, 2], dtype="int32"), T([1], dtype="int32"), error=True),
    case("tf.bitwiseAnd", T([1.0, 2.0]), T([1.0, 2.0]), error=True),
    case("tf.bitwiseAnd", T([True], dtype="bool"), T([True], dtype="bool"), error=True),
    case("tf.bitwiseAnd", T([1, 2], dtype="int32"), T([1.0, 2.0]), error=True),
]
