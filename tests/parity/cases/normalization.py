"""Normalization and small recurrent/statistics helpers: batchNorm (2d/3d/4d),
localResponseNormalization, movingAverage, inTopKAsync, basicLSTMCell, multiRNNCell (its cells are
basicLSTMCells with bound weights, spec.fn_arg)."""
from ..spec import case, expect, fn_arg, gives, raises, seq, T, wave

INF, NAN = float("inf"), float("nan")

X4 = T(wave(24, 2.0), [2, 2, 2, 3])
C3 = T([0.5, -1.0, 2.0])
V3 = T([1.0, 0.25, 4.0])
S3 = T([2.0, 0.5, -1.0])

BN_DTYPE = ("TF.js writes the result in x's dtype, truncating the normalized values of an int32 x to integers and "
            "those of a bool x to true/false; pytfweb returns float32")
BN_BROADCAST = ("TF.js reads mean, variance, offset and scale by flat index modulo their size, which is "
                "broadcasting only where they span x's trailing axes whole, and does not check that they "
                "broadcast; pytfweb broadcasts them as numpy does and raises where they do not broadcast")
LRN_DTYPE = ("TF.js writes the result in x's dtype, truncating the normalized values of an int32 x to integers; "
             "pytfweb returns float32")

CASES = []

# --- batchNorm ----------------------------------------------------------------------------------
CASES += [
    case("tf.batchNorm", X4, C3, V3, grad=True),
    case("tf.batchNorm", X4, C3, V3, S3, grad=True),
    case("tf.batchNorm", X4, C3, V3, S3, T([1.5, 1.0, 0.5]), grad=True),
    case("tf.batchNorm", X4, C3, V3, None, T([1.5, 1.0, 0.5]), grad=True),
    case("tf.batchNorm", X4, C3, V3, S3, T([1.5, 1.0, 0.5]), 0.1, grad=True),
    case("tf.batchNorm", X4, T(0.5, []), T(2.0, []), grad=True),
    case("tf.batchNorm", X4, T(wave(24), [2, 2, 2, 3]), T(seq(24, 0.5, 0.25), [2, 2, 2, 3]), grad=True),
    case("tf.batchNorm", X4, T(wave(12), [2, 2, 3]), T(seq(12, 1.0), [2, 2, 3]), grad=True),
    case("tf.batchNorm", T(wave(6), [2, 3]), C3, V3, S3, T([1.5, 1.0, 0.5]), grad=True),
    case("tf.batchNorm", T(wave(6), [2, 3]), T(wave(6, 0.5), [2, 3]), T(seq(6), [2, 3]), grad=True),
    case("tf.batchNorm", T(wave(6), [6]), T(wave(6, 0.5), [6]), T(seq(6), [6]), grad=True),
    case("tf.batchNorm", T(wave(12), [2, 2, 3]), C3, V3, grad=True),
    case("tf.batchNorm", T(2.0, []), T(0.5, []), T(4.0, []), grad=True),
    case("tf.batchNorm", T([1, 2, 3], dtype="int32"), C3, V3, deviation=BN_DTYPE),
    case("tf.batchNorm", T([1.0, 2.0, 3.0]), T([1, 1, 1], dtype="int32"), V3),
    case("tf.batchNorm", T([NAN, INF, -INF]), C3, V3),
    case("tf.batchNorm", T([1.0, 2.0, 3.0]), C3, T([0.0, -1.0, 0.0]), None, None, 0.0),
    case("tf.batchNorm", T([], [0, 3]), C3, V3),
    case("tf.batchNorm", X4, T([1.0, 2.0]), V3, deviation=BN_BROADCAST),
    case("tf.batchNorm", X4, C3, T([1.0, 2.0, 3.0, 4.0]), deviation=BN_BROADCAST),
    case("tf.batchNorm", X4, C3, T(wave(9), [3, 3]), error=True),
    case("tf.batchNorm", T(wave(48), [2, 2, 2, 2, 3]), C3, V3, S3, T([1.5, 1.0, 0.5]), grad=True),
    case("tf.batchNorm", T(wave(48), [2, 2, 2, 2, 3]), T(wave(6), [2, 1, 3]), T(seq(6), [2, 1, 3]),
         deviation=BN_BROADCAST),
    case("tf.batchNorm", X4, T(wave(6), [2, 1, 3]), T(seq(6), [2, 1, 3]), deviation=BN_BROADCAST),
    case("tf.batchNorm", X4, T(wave(6), [1, 2, 1, 3]), T(seq(6), [1, 2, 1, 3]), deviation=BN_BROADCAST),
    case("tf.batchNorm", T([True, False], dtype="bool"), T(0.5, []), T(1.0, []), deviation=BN_DTYPE),
    case("tf.batchNorm2d", T(wave(6), [2, 3]), C3, V3, S3, T([1.5, 1.0, 0.5]), grad=True),
    case("tf.batchNorm2d", T(wave(6), [2, 3]), T(wave(6, 0.5), [2, 3]), T(seq(6), [2, 3]), grad=True),
    case("tf.batchNorm2d", T(wave(6), [2, 3]), C3, V3, None, None, 0.5),
    case("tf.batchNorm2d", T(wave(12), [2, 2, 3]), C3, V3, error=True),
    case("tf.batchNorm2d", T(wave(6), [2, 3]), T(wave(6), [1, 2, 3]), V3, error=True),
    case("tf.batchNorm3d", T(wave(12), [2, 2, 3]), C3, V3, S3, T([1.5, 1.0, 0.5]), grad=True),
    case("tf.batchNorm3d", T(wave(12), [2, 2, 3]), T(wave(12, 0.5), [2, 2, 3]), T(seq(12), [2, 2, 3]), grad=True),
    case("tf.batchNorm3d", T(wave(6), [2, 3]), C3, V3, error=True),
    case("tf.batchNorm3d", T(wave(12), [2, 2, 3]), T(wave(6), [2, 3]), T(seq(6), [2, 3]), error=True),
    case("tf.batchNorm4d", X4, C3, V3, S3, T([1.5, 1.0, 0.5]), grad=True),
    case("tf.batchNorm4d", X4, T(wave(24), [2, 2, 2, 3]), T(seq(24), [2, 2, 2, 3]), None, None, 0.01,
         grad=True),
    case("tf.batchNorm4d", T(wave(12), [2, 2, 3]), C3, V3, error=True),
    case("tf.batchNorm4d", X4, T(wave(12), [2, 2, 3]), T(seq(12), [2, 2, 3]), error=True),
]

# --- localResponseNormalization -----------------------------------------------------------------
L4 = T(wave(40, 2.0), [1, 2, 2, 10])
CASES += [
    case("tf.localResponseNormalization", L4, grad=True),
    case("tf.localResponseNormalization", L4, 2, grad=True),
    case("tf.localResponseNormalization", L4, 1, 2.0, grad=True),
    case("tf.localResponseNormalization", L4, 3, 1.5, 0.5, grad=True),
    case("tf.localResponseNormalization", L4, 2, 1.0, 0.25, 0.75, grad=True),
    case("tf.localResponseNormalization", L4, 0, 1.0, 1.0, 1.0, grad=True),
    case("tf.localResponseNormalization", L4, 20, 1.0, 0.1, 0.5, grad=True),
    case("tf.localResponseNormalization", T(wave(12), [2, 2, 3]), 1, grad=True),
    case("tf.localResponseNormalization", T(wave(24), [2, 2, 2, 3]), 1, 1.0, 1.0, 0.5, grad=True),
    case("tf.localResponseNormalization", T(seq(8, -3.0), [1, 1, 2, 4], dtype="int32"), 1, deviation=LRN_DTYPE),
    case("tf.localResponseNormalization", T([NAN, INF, 0.0, 1.0], [1, 1, 1, 4]), 1),
    case("tf.localResponseNormalization", T([], [1, 0, 2, 3])),
    case("tf.localResponseNormalization", T(wave(6), [2, 3]), error=True),
    case("tf.localResponseNormalization", T(wave(48), [1, 2, 2, 2, 6]), error=True),
    case("tf.localResponseNormalization", L4, 1.5, error=True),
]

# --- movingAverage ------------------------------------------------------------------------------
MV = T([1.0, 2.0, -3.0])
MX = T([2.0, 0.0, 1.0])
CASES += [
    case("tf.movingAverage", MV, MX, 0.9, 2, grad=True),
    case("tf.movingAverage", MV, MX, 0.5, 1, False, grad=True),
    case("tf.movingAverage", MV, MX, 0.5, None, False, grad=True),
    case("tf.movingAverage", MV, MX, T(0.75, []), T(3.0, []), grad=True),
    case("tf.movingAverage", MV, MX, T(0.75, []), T(3, [], dtype="int32")),
    case("tf.movingAverage", T(wave(6), [2, 3]), T(wave(6, 2.0), [2, 3]), 0.9, 5, grad=True),
    case("tf.movingAverage", T(1.0, []), T(3.0, []), 0.0, 1),
    case("tf.movingAverage", MV, MX, 1.0, 1),
    case("tf.movingAverage", MV, MX, 0.9, 0),
    case("tf.movingAverage", T([1, 2], dtype="int32"), T([3, 5], dtype="int32"), 0.5, 1),
    case("tf.movingAverage", MV, MX, 0.9),
    case("tf.movingAverage", MV, T([1.0, 2.0]), 0.9, 1, error=True),
    case("tf.movingAverage", MV, T([1, 2, 3], dtype="int32"), 0.9, 1, error=True),
    case("tf.movingAverage", T([NAN, INF, 1.0]), T([1.0, 1.0, INF]), 0.5, 1),
]

# --- inTopKAsync --------------------------------------------------------------------------------
PRED = T([[0.1, 0.8, 0.3, 0.5], [0.9, 0.2, 0.9, 0.1], [0.3, 0.3, 0.3, 0.3]])
TARG = T([1, 2, 3], dtype="int32")
CASES += [
    case("tf.inTopKAsync", PRED, TARG),
    case("tf.inTopKAsync", PRED, TARG, 1),
    case("tf.inTopKAsync", PRED, TARG, 2),
    case("tf.inTopKAsync", PRED, TARG, 4),
    case("tf.inTopKAsync", PRED, T([0, 0, 0], dtype="int32"), 1),
    case("tf.inTopKAsync", T([[1, 5, 3], [4, 4, 2]], dtype="int32"), T([2, 1], dtype="int32"), 2),
    case("tf.inTopKAsync", T(wave(24), [2, 3, 4]), T([[0, 1, 2], [3, 0, 1]], dtype="int32"), 2),
    case("tf.inTopKAsync", T([[NAN, 1.0, 2.0], [INF, -INF, 0.0]]), T([0, 2], dtype="int32"), 1),
    case("tf.inTopKAsync", T([[NAN, 1.0, 2.0], [1.0, NAN, 0.0]]), T([0, 1], dtype="int32"), 2),
    case("tf.inTopKAsync", PRED, T([1.0, 2.0, 3.0]), 1),
    case("tf.inTopKAsync", PRED, TARG, 5, error=True),
    case("tf.inTopKAsync", PRED, TARG, 0, error=True),
    case("tf.inTopKAsync", T([0.1, 0.8]), T(1, [], dtype="int32"), error=True),
    case("tf.inTopKAsync", PRED, T([1, 2], dtype="int32"), error=True),
    case("tf.inTopKAsync", PRED, T([[1, 2, 3]], dtype="int32"), error=True),
    case("tf.inTopKAsync", PRED, T([1, 7, -1], dtype="int32")),
]

# --- basicLSTMCell ------------------------------------------------------------------------------
# units 2, input 3: kernel [3 + 2, 8], bias [8]
KERNEL = T(wave(40, 0.5), [5, 8])
BIAS = T(wave(8, 0.1), [8])
DATA = T(wave(6, 1.0), [2, 3])
C = T([0.5, -0.5, 0.25, 1.0], [2, 2])
H = T([0.1, 0.2, -0.3, 0.4], [2, 2])
CASES += [
    case("tf.basicLSTMCell", T(1.0, []), KERNEL, BIAS, DATA, C, H, grad=True),
    case("tf.basicLSTMCell", T(0.0, []), KERNEL, BIAS, DATA, C, H, grad=True),
    case("tf.basicLSTMCell", T([0.5, 2.0]), KERNEL, BIAS, DATA, C, H, grad=True),
    case("tf.basicLSTMCell", T(1.0, []), T(wave(24, 0.5), [3, 8]), BIAS, T(wave(2), [2, 1]), C, H, grad=True),
    case("tf.basicLSTMCell", T(1.0, []), KERNEL, BIAS, T(wave(3), [1, 3]), T([0.5, -0.5], [1, 2]),
         T([0.1, 0.2], [1, 2]), grad=True),
    case("tf.basicLSTMCell", T(1.0, []), KERNEL, T(wave(16), [2, 8]), DATA, C, H, grad=True),
    case("tf.basicLSTMCell", T(1.0, []), KERNEL, BIAS, DATA, T([NAN, 0.0, INF, 1.0], [2, 2]), H),
    case("tf.basicLSTMCell", T(1, [], dtype="int32"), KERNEL, BIAS, DATA, C, H),
    case("tf.basicLSTMCell", T(1.0, []), KERNEL, BIAS, T(wave(4), [2, 2]), C, H, error=True),
    case("tf.basicLSTMCell", T(1.0, []), T(wave(30), [5, 6]), BIAS, DATA, C, H, error=True),
    case("tf.basicLSTMCell", T(1.0, []), KERNEL, BIAS, T(wave(3), [3]), C, H, error=True),
]

# --- multiRNNCell(lstmCells, data, c, h): each cell's new h is the next cell's data ----------------
CELL1 = fn_arg("basicLSTMCell", T(1.0, []), KERNEL, BIAS)                       # input 3 -> units 2
CELL2 = fn_arg("basicLSTMCell", T(0.5, []), T(wave(32, 0.4), [4, 8]), T(wave(8, 0.2), [8]))   # 2 -> 2
CELL3 = fn_arg("basicLSTMCell", T(0.0, []), T(wave(40, 0.3), [4, 10]), T(wave(10, 0.1), [10]))  # 2 -> ...
H2 = T([0.3, -0.1, 0.2, 0.0], [2, 2])
CASES += [
    case("tf.multiRNNCell", [CELL1], DATA, [C], [H], grad=True),
    case("tf.multiRNNCell", [CELL1, CELL2], DATA, [C, H2], [H, H2], grad=True),
    case("tf.multiRNNCell", [CELL1, CELL2], T(wave(3), [1, 3]), [T([0.5, -0.5], [1, 2]), T([0.0, 0.1], [1, 2])],
         [T([0.1, 0.2], [1, 2]), T([0.2, 0.3], [1, 2])]),
    case("tf.multiRNNCell", [CELL1, CELL3], DATA, [C, H2], [H, H2], error=True),   # kernel [4, 10]: 10 is not 4 * units
]

# What pytfweb gives instead in its deviation cases (README's "Deviations from TF.js"), checked in place of
# TF.js's answer: runner.check.
expect(CASES, {
    "batchNorm#14": gives(T([0.499750197, 5.98803616, 0.499937534], [3], "float32")),
    "batchNorm#19": raises("ValueError"),
    "batchNorm#20": raises("ValueError"),
    "batchNorm#23": gives(T([0.0, 0.0, 0.0, -1.59747505, -1.3207022, -0.242755845, 0.706806183, 0.871211231,
        0.282294035, 0.106377393, -0.018363405, -0.104975335, -0.421093434, 0.0574804693, 0.293919235, -1.12881005,
        -1.32245052, -0.514972568, 0.453283221, 0.837041795, 0.455596149, 0.373928875, 0.0503976569, -0.255608618,
        -0.97333616, -0.10373418, 0.470609844, -0.570280135, -1.11195242, -0.651807427, 0.176360384, 0.675381899,
        0.522239685, 0.64286226, 0.237331122, -0.290796876, -1.48426712, -0.433297873, 0.474892735, -0.0963096842,
        -0.754944861, -0.610527933, -0.0374814533, 0.436716825, 0.46141234, 0.829191804, 0.484059095, -0.19955112],
        [2, 2, 2, 2, 3], "float32")),
    "batchNorm#24": gives(T([0.841050565, 0.642809689, 0.0814621001, -2.35389924, -1.99859464, -0.404049575,
        1.03525853, 1.3136214, 0.450526685, -0.165599197, -0.465527892, -0.324012071, -0.001136331, 0.757770598,
        0.669300616, -1.41656947, -2.00209141, -0.94848299, 0.528212488, 1.24528253, 0.797130883, 0.369503766,
        -0.328005761, -0.625278652], [2, 2, 2, 3], "float32")),
    "batchNorm#25": gives(T([0.841050565, 0.642809689, 0.0814621001, -2.35389924, -1.99859464, -0.404049575,
        1.03525853, 1.3136214, 0.450526685, -0.165599197, -0.465527892, -0.324012071, -0.001136331, 0.757770598,
        0.669300616, -1.41656947, -2.00209141, -0.94848299, 0.528212488, 1.24528253, 0.797130883, 0.369503766,
        -0.328005761, -0.625278652], [2, 2, 2, 3], "float32")),
    "batchNorm#26": gives(T([0.499750197, -0.499750197], [2], "float32")),
    "localResponseNormalization#10": gives(T([-0.801783681, -0.516397774, -0.408248276, 0.0, 0.408248276, 0.516397774,
        0.547722578, 0.784464538], [1, 1, 2, 4], "float32")),
})
