"""Reductions and scans: sum mean max min prod all any argMax argMin logSumExp norm euclideanNorm
moments cumsum cumprod; softmax/logSoftmax; bincount denseBincount unsortedSegmentSum."""
from ..spec import case, expect, gives, raises, seq, T, wave

INF, NAN = float("inf"), float("nan")
# int32 extremes a float32 texture holds exactly (webgl keeps int32 in R32F textures)
I32_MAX, I32_MIN = 2147483520, -2147483648

X23 = T([[1.5, -2.0, 3.0], [0.5, 4.0, -1.0]])
X234 = T(wave(24, 3.0), [2, 3, 4])
I23 = T([[1, -2, 3], [4, 5, -6]], dtype="int32")
B23 = T([[True, False, True], [True, True, False]], dtype="bool")
EDGE = T([0.0, -0.0, INF, -INF, NAN, 1.0])
EMPTY = T([], [0, 3])

ALL_EMPTY = ("all over an empty axis is vacuously true; TF.js reads a value that is not there and returns "
             "false")
REPEATED_AXES = "TF.js accepts a repeated axis and then reduces every axis; pytfweb raises"
LSE_INF = ("where the maximum is infinite or the axis is empty, TF.js subtracts it from itself and returns NaN; "
           "pytfweb returns the mathematical value (-inf where every value is -inf or there are none, "
           "+inf where one is +inf)")
BOOL_SUB = ("TF.js subtracts bool tensors in a Uint8Array (false - true = 255), so bool input gives "
            "infinities; pytfweb reads bool as 0 and 1")
CUM_AXIS = ("TF.js does not check axis: a rank-0 tensor gives 0 (cumprod: 1) whatever its value, an axis "
            ">= rank acts as the last axis and a negative one returns a malformed tensor; pytfweb counts "
            "negative axes from the end and raises for the others")
NORM_AXES = ("TF.js's ord 1 matrix norm assumes axis[0] < axis[1] and fails for other orders (axis [-1, -2]); "
             "pytfweb computes it")
SEGMENT = ("TF.js's cpu backend returns float32 for int32 and bool x (its webgl backend returns int32, as "
           "tf.sum does), lets a NaN or infinity in one segment make NaN of every other (it multiplies x by "
           "each segment's mask) and fails for num_segments 0; pytfweb returns int32, keeps segments apart "
           "and returns an empty tensor")
SEGMENT_IDS = ("for segment_ids of rank > 1 TF.js's cpu backend sums over the first axis only and keeps x's "
               "other axes; pytfweb sums every slice with equal ids (output [num_segments] + "
               "x.shape[segment_ids.rank:])")
BINARY = ("TF.js ignores binary_output for a rank-1 x (it counts, or sums the weights); pytfweb gives 1 "
          "where a value occurs, as for rank 2 and as documented")

CASES = []

# --- sum mean max min prod ------------------------------------------------------------------------
for fn in ("tf.sum", "tf.mean", "tf.max", "tf.min", "tf.prod"):
    CASES += [
        case(fn, X23, grad=True),
        case(fn, X23, 0, grad=True),
        case(fn, X23, 1, True, grad=True),
        case(fn, X23, -1, grad=True),
        case(fn, X234, [0, 2], grad=True),
        case(fn, X234, [-1, 0], True, grad=True),
        case(fn, X234, [2, 1, 0]),
        case(fn, X23, None, True, grad=True),
        case(fn, T(2.5, []), grad=True),
        case(fn, T(2.5, []), 0, error=True),
        case(fn, T(2.5, []), -1, True, error=True),
        case(fn, I23),
        case(fn, I23, 1),
        case(fn, B23),
        case(fn, B23, 0, True),
        case(fn, EDGE),
        case(fn, T([[NAN, 1.0], [2.0, 3.0]]), 1),
        case(fn, T([[INF, -INF], [INF, INF]]), 1),
        case(fn, EMPTY),
        case(fn, EMPTY, 0),
        case(fn, EMPTY, 1),
        case(fn, T([I32_MAX, -128], dtype="int32")),
        case(fn, T([I32_MIN, I32_MAX], dtype="int32")),
        case(fn, T([2 ** 30, 2 ** 30, 2 ** 30], dtype="int32")),   # sum and prod wrap
        case(fn, X23, 2, error=True),
        case(fn, X23, -3, error=True),
        case(fn, T([[1.0, 2.0], [2.0, 2.0]]), 1, grad=True),   # ties
        case(fn, T([1.0, 2.0, 3.0, 4.0], [1, 1, 4]), [0, 1], grad=True),
    ]
CASES += [
    case("tf.prod", T([0.0, 2.0, 3.0, 0.5]), grad=True),
    case("tf.prod", T([[0.0, 2.0], [0.0, 0.0]]), 1, grad=True),
    case("tf.prod", T([65536, 65536], dtype="int32")),
    case("tf.sum", X23, [0, 0], deviation=REPEATED_AXES),
    case("tf.max", T([], [0, 3], dtype="int32"), 0),
    case("tf.min", T([], [2, 0], dtype="int32"), 1, True),
    case("tf.max", T([], [0, 2], dtype="bool"), 0),
    case("tf.min", T([], [0, 2], dtype="bool")),
    case("tf.prod", T([], [0, 2], dtype="int32"), 0),
    case("tf.mean", T([], [0, 2], dtype="int32"), 0),
]

# --- all any ------------------------------------------------------------------------------------
for fn in ("tf.all", "tf.any"):
    CASES += [
        case(fn, B23),
        case(fn, B23, 0),
        case(fn, B23, 1, True),
        case(fn, B23, [0, 1]),
        case(fn, B23, -1),
        case(fn, T(True, [], dtype="bool")),
        case(fn, T([], [0, 2], dtype="bool"), deviation=ALL_EMPTY if fn == "tf.all" else None),
        case(fn, T([], [0, 2], dtype="bool"), 0, deviation=ALL_EMPTY if fn == "tf.all" else None),
        case(fn, T([], [2, 0], dtype="bool"), 1, deviation=ALL_EMPTY if fn == "tf.all" else None),
        case(fn, X23, error=True),
        case(fn, I23, error=True),
        case(fn, B23, 2, error=True),
    ]

# --- argMax argMin ------------------------------------------------------------------------------
for fn in ("tf.argMax", "tf.argMin"):
    CASES += [
        case(fn, X23),
        case(fn, X23, 1),
        case(fn, X23, -1),
        case(fn, X234, 1),
        case(fn, X234, 2),
        case(fn, I23, 0),
        case(fn, B23, 1),
        case(fn, T([3.0, 1.0, 3.0, 1.0])),   # ties: first
        case(fn, T([1.0, NAN, 3.0, -INF, INF])),
        case(fn, T([NAN, NAN])),
        case(fn, T([NAN, 5.0, -5.0])),
        case(fn, T([[2.0, NAN, 1.0], [NAN, 0.0, 3.0]]), 1),
        case(fn, T([[2.0, NAN], [NAN, 0.0], [-1.0, 1.0]]), 0),
        case(fn, T([-INF, NAN, -INF])),
        case(fn, T([INF, NAN, INF])),
        case(fn, T(wave(300), [300])),
        case(fn, T([NAN] + wave(299), [300])),
        case(fn, T(wave(199) + [NAN], [200])),
        case(fn, T([-0.0, 0.0])),
        case(fn, T([I32_MIN, I32_MAX, 0], dtype="int32")),
        case(fn, T(5.0, []), error=True),
        case(fn, T([], [0])),
        case(fn, EMPTY, 1),
        case(fn, X23, 2, error=True),
        case(fn, X23, [0, 1], error="TypeError"),   # one int axis is what argMax takes; TF.js: "only inner-most axes"
        case(fn, X23, grad=True),
    ]

# --- logSumExp ----------------------------------------------------------------------------------
CASES += [
    case("tf.logSumExp", X23, grad=True),
    case("tf.logSumExp", X23, 1, grad=True),
    case("tf.logSumExp", X23, 0, True, grad=True),
    case("tf.logSumExp", X234, [0, 2], grad=True),
    case("tf.logSumExp", X234, -1, True, grad=True),
    case("tf.logSumExp", T(2.0, []), grad=True),
    case("tf.logSumExp", T([1000.0, 1000.0, -1000.0]), grad=True),
    case("tf.logSumExp", T([-INF, -INF]), deviation=LSE_INF),
    case("tf.logSumExp", T([INF, 1.0]), deviation=LSE_INF),
    case("tf.logSumExp", T([NAN, 1.0])),
    case("tf.logSumExp", I23, 1),
    case("tf.logSumExp", EMPTY, 1),
    case("tf.logSumExp", EMPTY, 0, deviation=LSE_INF),
    case("tf.logSumExp", X23, 3, error=True),
    case("tf.logSumExp", B23, 1, deviation=BOOL_SUB),
    case("tf.logSumExp", T(2.0, []), 0, error=True),
]

# --- norm euclideanNorm -------------------------------------------------------------------------
V = T([3.0, -4.0, 0.5, -0.25])
M = T([[1.0, -2.0, 3.0], [-4.0, 5.0, -6.0]])
for ord_ in ("euclidean", "fro", 1, 2, INF, -INF, 0.5, 3):
    bad = ord_ in ("fro", 0.5, 3)   # not vector norms
    CASES.append(case("tf.norm", V, ord_, grad=not bad, error=bad))
for ord_ in ("euclidean", "fro", 1, INF, -INF):
    CASES.append(case("tf.norm", M, ord_, [0, 1], grad=True))
    CASES.append(case("tf.norm", M, ord_, [-1, -2], True, deviation=NORM_AXES if ord_ == 1 else None))
CASES += [
    case("tf.norm", M),
    case("tf.norm", M, "euclidean", 1, grad=True),
    case("tf.norm", M, 1, 0, True, grad=True),
    case("tf.norm", M, INF, -1, grad=True),
    case("tf.norm", M, 2, [0, 1], error=True),
    case("tf.norm", M, 3, [0, 1], error=True),
    case("tf.norm", M, "nuc", error=True),
    case("tf.norm", T(wave(8), [2, 2, 2]), "euclidean", [0, 2], grad=True),
    case("tf.norm", T(wave(8), [2, 2, 2])),
    case("tf.norm", T(wave(8), [2, 2, 2]), "fro", [0, 1, 2], error=True),
    case("tf.norm", T(-3.0, [])),
    case("tf.norm", T([1, -2, 2], dtype="int32"), error=True),
    case("tf.norm", T([1, -2, 2], dtype="int32"), 1),
    case("tf.norm", T([1, -2, 2], dtype="int32"), INF),
    case("tf.norm", T([[1, -2], [2, 0]], dtype="int32"), "fro", [0, 1], error=True),
    case("tf.norm", T([[1, -2], [2, 0]], dtype="int32"), 1, [0, 1]),
    case("tf.norm", T([True, False], dtype="bool"), 1),
    case("tf.norm", T([True, False], dtype="bool"), error=True),
    case("tf.norm", T([0.0, 0.0]), grad=True),
    case("tf.norm", T([NAN, 1.0])),
    case("tf.norm", T([INF, 1.0])),
    case("tf.norm", T([], [0])),
    case("tf.euclideanNorm", M, grad=True),
    case("tf.euclideanNorm", M, 1, grad=True),
    case("tf.euclideanNorm", M, [0], True, grad=True),
    case("tf.euclideanNorm", M, [0, 1], True),
    case("tf.euclideanNorm", T(wave(8), [2, 2, 2]), [0, 2], grad=True),
    case("tf.euclideanNorm", T([1, -2, 2], dtype="int32"), error=True),
    case("tf.euclideanNorm", T(-3.0, [])),
    case("tf.euclideanNorm", T([], [0, 2]), 0),
    case("tf.euclideanNorm", M, 2, error=True),
]

# --- moments ------------------------------------------------------------------------------------
CASES += [
    case("tf.moments", X23, grad=True),
    case("tf.moments", X23, 0, grad=True),
    case("tf.moments", X23, [1], True, grad=True),
    case("tf.moments", X234, [0, 1], grad=True),
    case("tf.moments", X234, -1, True),
    case("tf.moments", I23, 1),
    case("tf.moments", T(4.0, [])),
    case("tf.moments", T([1.0, NAN])),
    case("tf.moments", EMPTY, 0),
    case("tf.moments", X23, 2, error=True),
]

# --- cumsum cumprod -----------------------------------------------------------------------------
for fn in ("tf.cumsum", "tf.cumprod"):
    CASES += [
        case(fn, T([1.5, -2.0, 3.0, 0.5]), grad=True),
        case(fn, X23, grad=True),
        case(fn, X23, 1, grad=True),
        case(fn, X23, -1, grad=True, deviation=CUM_AXIS),
        case(fn, X23, 1, True, grad=True),
        case(fn, X23, 1, False, True, grad=True),
        case(fn, X23, 0, True, True, grad=True),
        case(fn, X234, 1, True, False, grad=True),
        case(fn, X234, 2, False, True, grad=True),
        case(fn, I23, 1),
        case(fn, I23, 0, True, True),
        case(fn, T([2 ** 30, 2 ** 30, 2 ** 30], dtype="int32")),
        case(fn, B23, 1),
        case(fn, EDGE),
        case(fn, EMPTY, 0),
        case(fn, EMPTY, 1, True),
        case(fn, T(3.0, []), deviation=CUM_AXIS),
        case(fn, X23, 2, deviation=CUM_AXIS),
        case(fn, X23, -3, deviation=CUM_AXIS),
        case(fn, T([0.0, 2.0, 0.0, 3.0]), 0, False, False, grad=True),
    ]

# --- softmax logSoftmax -------------------------------------------------------------------------
for fn in ("tf.softmax", "tf.logSoftmax"):
    CASES += [
        case(fn, T([1.0, 2.0, 3.0]), grad=True),
        case(fn, X23, grad=True),
        case(fn, X23, -1, grad=True),
        case(fn, X234, grad=True),
        case(fn, X234, 2, grad=True),
        case(fn, X23, 0, error=True),
        case(fn, X23, 1, grad=True),
        case(fn, T([1000.0, 1000.0, -1000.0]), grad=True),
        case(fn, T([-INF, 0.0, 1.0])),
        case(fn, T([INF, 0.0, 1.0])),
        case(fn, T([NAN, 0.0, 1.0])),
        case(fn, T([1, 2, 3], dtype="int32"), error=fn == "tf.softmax"),
        case(fn, T(2.0, []), error=True),
        case(fn, EMPTY),
        case(fn, T([], [3, 0])),
        case(fn, T([True, False], dtype="bool"), error=fn == "tf.softmax",
             deviation=BOOL_SUB if fn == "tf.logSoftmax" else None),
    ]

# --- bincount denseBincount ---------------------------------------------------------------------
X_BC = T([1, 1, 2, 4, 0, 1], dtype="int32")
W_BC = T([0.5, 1.0, 2.0, 3.0, 0.25, -1.0])
CASES += [
    case("tf.bincount", X_BC, T([], [0]), 5),
    case("tf.bincount", X_BC, W_BC, 5),
    case("tf.bincount", X_BC, W_BC, 3),
    case("tf.bincount", X_BC, W_BC, 8),
    case("tf.bincount", X_BC, T([], [0]), 0),
    case("tf.bincount", X_BC, T([1, 2, 3, 4, 5, 6], dtype="int32"), 5),
    case("tf.bincount", T([], [0], dtype="int32"), T([], [0]), 3),
    case("tf.bincount", T([[1, 2], [2, 0]], dtype="int32"), T([], [0]), 3),
    case("tf.bincount", X_BC, T([], [0]), -1, error=True),
    case("tf.bincount", X23, T([], [0]), 3, error=True),
    case("tf.bincount", X_BC, T([1.0, 2.0]), 3, error=True),
    case("tf.denseBincount", X_BC, T([], [0]), 5),
    case("tf.denseBincount", X_BC, W_BC, 5),
    case("tf.denseBincount", X_BC, W_BC, 3, True, deviation=BINARY),
    case("tf.denseBincount", X_BC, T([], [0]), 5, True, deviation=BINARY),
    case("tf.denseBincount", T([[1, 1, 2], [0, 3, 3]], dtype="int32"), T([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]), 4,
         True),
    case("tf.denseBincount", T([[1, 1, 2], [0, 3, 3]], dtype="int32"), T([], [0]), 4),
    case("tf.denseBincount", T([[1, 1, 2], [0, 3, 3]], dtype="int32"), T([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]), 4),
    case("tf.denseBincount", T([[1, 1, 2], [0, 3, 3]], dtype="int32"), T([], [0]), 4, True),
    case("tf.denseBincount", X_BC, T([1, 2, 3, 4, 5, 6], dtype="int32"), 5),
    case("tf.denseBincount", T([], [0], dtype="int32"), T([], [0]), 2),
    case("tf.denseBincount", T([[[1]]], dtype="int32"), T([], [0]), 2, error=True),
    case("tf.denseBincount", X_BC, T([], [0]), -2, error=True),
    case("tf.denseBincount", X_BC, T([1.0]), 3, error=True),
]

# --- unsortedSegmentSum -------------------------------------------------------------------------
CASES += [
    case("tf.unsortedSegmentSum", T([1.0, 2.0, 3.0, 4.0]), T([0, 1, 0, 1], dtype="int32"), 2, grad=True),
    case("tf.unsortedSegmentSum", X23, T([1, 1], dtype="int32"), 3, grad=True),
    case("tf.unsortedSegmentSum", X234, T([2, 0], dtype="int32"), 3, grad=True),
    case("tf.unsortedSegmentSum", T([1, 2, 3, 4], dtype="int32"), T([0, 2, 0, 2], dtype="int32"), 3,
         deviation=SEGMENT),
    case("tf.unsortedSegmentSum", T([1.0, 2.0, 3.0]), T([0, 5, 1], dtype="int32"), 2),
    case("tf.unsortedSegmentSum", T([1.0, 2.0, 3.0]), T([0, -1, 1], dtype="int32"), 2),
    case("tf.unsortedSegmentSum", T([NAN, 2.0, INF]), T([0, 0, 1], dtype="int32"), 2, deviation=SEGMENT),
    case("tf.unsortedSegmentSum", T([NAN, 2.0, 1.0]), T([0, 1, 1], dtype="int32"), 2, deviation=SEGMENT),
    case("tf.unsortedSegmentSum", T([1.0, 2.0]), T([0, 1], dtype="int32"), 0, deviation=SEGMENT),
    case("tf.unsortedSegmentSum", T([1.0, 2.0]), T([0.0, 1.0]), 2, error=True),
    case("tf.unsortedSegmentSum", T([1.0, 2.0]), T([0, 1, 1], dtype="int32"), 2, error=True),
    case("tf.unsortedSegmentSum", T([True, False], dtype="bool"), T([0, 1], dtype="int32"), 2, deviation=SEGMENT),
    case("tf.unsortedSegmentSum", X23, T([[0, 1, 0], [1, 1, 0]], dtype="int32"), 2, grad=True,
         deviation=SEGMENT_IDS),
    case("tf.unsortedSegmentSum", T([], [0, 2]), T([], [0], dtype="int32"), 2),
]

NAN = float("nan")
INF = float("inf")

# What pytfweb gives instead in its deviation cases (README's "Deviations from TF.js"), checked in place of
# TF.js's answer: runner.check.
expect(CASES, {
    "sum#29": raises("ValueError"),
    "all#7": gives(T([1], [], "bool")),
    "all#8": gives(T([1, 1], [2], "bool")),
    "all#9": gives(T([1, 1], [2], "bool")),
    "logSumExp#8": gives(T([-INF], [], "float32")),
    "logSumExp#9": gives(T([INF], [], "float32")),
    "logSumExp#13": gives(T([-INF, -INF, -INF], [3], "float32")),
    "logSumExp#15": gives(T([1.86199474, 1.86199474], [2], "float32")),
    "norm#14": gives(T([15.0], [1, 1], "float32")),
    "cumsum#4": gives(T([1.5, -0.5, 2.5, 0.5, 4.5, 3.5], [2, 3], "float32"), grads="numeric"),
    "cumsum#17": raises("ValueError"),
    "cumsum#18": raises("ValueError"),
    "cumsum#19": raises("ValueError"),
    "cumprod#4": gives(T([1.5, -3.0, -9.0, 0.5, 2.0, -2.0], [2, 3], "float32"), grads="numeric"),
    "cumprod#17": raises("ValueError"),
    "cumprod#18": raises("ValueError"),
    "cumprod#19": raises("ValueError"),
    "logSoftmax#16": gives(T([-0.313261658, -1.31326163], [2], "float32")),
    "denseBincount#3": gives(T([1.0, 1.0, 1.0], [3], "float32")),
    "denseBincount#4": gives(T([1.0, 1.0, 1.0, 0.0, 1.0], [5], "float32")),
    "unsortedSegmentSum#4": gives(T([4, 0, 6], [3], "int32")),
    "unsortedSegmentSum#7": gives(T([NAN, INF], [2], "float32")),
    "unsortedSegmentSum#8": gives(T([NAN, 3.0], [2], "float32")),
    "unsortedSegmentSum#9": gives(T([], [0], "float32")),
    "unsortedSegmentSum#12": gives(T([1, 0], [2], "int32")),
    "unsortedSegmentSum#13": gives(T([3.5, 2.5], [2], "float32"), grads="numeric"),
})
