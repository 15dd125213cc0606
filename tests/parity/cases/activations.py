"""Activations: relu, relu6, elu, selu, leakyRelu, prelu, sigmoid, logSigmoid, softplus, step,
clipByValue; dtypes, edge values, rank 0, 0-size, attributes in their positional place, gradients."""
from ..spec import T, case, seq, wave

INF, NAN = float("inf"), float("nan")
EDGES = [NAN, INF, -INF, 0.0, -0.0, 0.5, -0.5, 6.0, 6.5, -3.5, 20.0, -20.0, 100.0, -100.0]
XS = [-3.0, -0.5, 0.25, 1.0, 5.5, 7.0]

CASES = []
for fn in ("tf.relu", "tf.relu6", "tf.elu", "tf.selu", "tf.sigmoid", "tf.logSigmoid", "tf.softplus",
           "tf.leakyRelu", "tf.step"):
    CASES += [
        case(fn, T(XS, [2, 3]), grad=True),
        case(fn, T(wave(24, 8.0), [2, 3, 4]), grad=True),
        case(fn, T(EDGES)),
        case(fn, T([-2, 0, 1, 7], dtype="int32")),
        case(fn, T([True, False], dtype="bool")),
        case(fn, T(-0.75, []), grad=True),
        case(fn, T([], [0, 2])),
        case(fn, [-1.5, 2]),
    ]
CASES += [
    case("tf.leakyRelu", T(XS, [2, 3]), 0.1, grad=True),
    case("tf.leakyRelu", T(XS, [2, 3]), -2, grad=True),
    case("tf.leakyRelu", T([-2, 0, 3], dtype="int32"), 0.5),
    case("tf.leakyRelu", T(EDGES), 0),
    case("tf.step", T(XS, [2, 3]), 0.5, grad=True),
    case("tf.step", T(EDGES), -1),
    case("tf.step", T([-2, 0, 3], dtype="int32"), 0.7),
    case("tf.step", T([-2, 0, 3], dtype="int32"), -1.5),
    case("tf.relu", T([-2147483648, 2147483520], dtype="int32")),   # float32-exact int32 limits
    case("tf.softplus", T([15.0, 15.5, -15.0, -15.5, 30.0, -30.0, 1e-3])),
    case("tf.sigmoid", T([-90.0, 90.0, 1e-3])),
    case("tf.relu", "x", error=True),
]

# clipByValue(x, clipValueMin, clipValueMax)
CASES += [
    case("tf.clipByValue", T(XS, [2, 3]), -1, 2, grad=True),
    case("tf.clipByValue", T(wave(24, 4.0), [2, 3, 4]), -0.5, 0.5, grad=True),
    case("tf.clipByValue", T(EDGES), -1, 2),
    case("tf.clipByValue", T(EDGES), -INF, INF),
    case("tf.clipByValue", T([-5, -1, 0, 3, 9], dtype="int32"), -2, 4),
    case("tf.clipByValue", T([-5, 0, 9], dtype="int32"), -2.5, 4.5),
    case("tf.clipByValue", T([True, False], dtype="bool"), 0, 1),
    case("tf.clipByValue", T(3.0, []), 0, 1, grad=True),
    case("tf.clipByValue", T([], [0]), 0, 1),
    case("tf.clipByValue", T(XS), 1, 1),
    case("tf.clipByValue", T(XS), 2, 1, error=True),
    case("tf.clipByValue", [0.5, 5], 1, 3),
]

# prelu(x, alpha): alpha broadcast against x
CASES += [
    case("tf.prelu", T(XS, [2, 3]), T([0.1, 0.2, 0.3]), grad=True),
    case("tf.prelu", T(XS, [2, 3]), T(0.25, []), grad=True),
    case("tf.prelu", T(wave(24, 3.0), [2, 3, 4]), T(wave(4, 0.5), [4]), grad=True),
    case("tf.prelu", T(wave(6, 3.0), [2, 3]), T([[0.1], [0.5]]), grad=True),
    case("tf.prelu", T(EDGES), T(0.5, [])),
    case("tf.prelu", T([-2, 0, 3], dtype="int32"), T([2, 2, 2], dtype="int32")),
    case("tf.prelu", T([-2, 0, 3], dtype="int32"), T([0.5, 0.5, 0.5])),
    case("tf.prelu", T([-2.0, 0.0, 3.0]), T([2, 2, 2], dtype="int32")),
    case("tf.prelu", T([], [0, 3]), T([0.1, 0.2, 0.3])),
    case("tf.prelu", T(seq(6, -3.0), [2, 3]), T([0.1, 0.2])),
    case("tf.prelu", T(seq(6, -3.0), [2, 3]), T([0.1, 0.2, 0.3, 0.4, 0.5, 0.6], [2, 3, 1])),
]
