"""Linear algebra: matMul dot outerProduct einsum; tf.linalg bandPart gramSchmidt qr;
tf.math.confusionMatrix; tf.fused.matMul with a bias and each activation."""
from ..spec import case, expect, gives, seq, T, wave

INF, NAN = float("inf"), float("nan")

A23 = T([[1.5, -2.0, 3.0], [0.5, 4.0, -1.0]])
B32 = T([[1.0, 2.0], [-1.0, 0.5], [3.0, -2.0]])
B33 = T(wave(9), [3, 3])
I23 = T([[1, -2, 3], [4, 5, -6]], dtype="int32")
I32 = T([[1, 2], [3, 4], [5, 6]], dtype="int32")
BOOL23 = T([[True, False, True], [False, True, True]], dtype="bool")
BOOL32 = T([[True, False], [True, True], [False, True]], dtype="bool")

BOOL_COUNT = ("two bool tensors give an int32 count, where TF.js returns a bool tensor holding the count (2, 3, "
              "...), values no bool can hold")
BATCH = ("TF.js's cpu backend pairs the batch matrices by flat index modulo each operand's batch size, which "
         "is wrong when both batch shapes broadcast (such as [2, 1] against [3]), and its gradient fails there; "
         "pytfweb broadcasts them as numpy does")
EINSUM3 = "TF.js 4.22 supports at most two operands; pytfweb takes any number"
ONE_CLASS = "TF.js fails for num_classes 1 (its one_hot wants a depth of at least 2); pytfweb returns the 1 x 1 count"
QR_BATCH = ("TF.js reshapes each batch's q and r to x's shape, so a batch of non-square matrices fails; "
            "pytfweb returns q [..., m, k] and r [..., k, n]")
FUSED_INT = ("for int32 a and b TF.js's fused kernel writes every result into an int32 tensor, truncating elu and "
             "sigmoid values and a float32 bias; pytfweb returns float32 there (int32 for the linear, relu and "
             "relu6 activations with no bias or an int32 one)")

CASES = []

# --- matMul -------------------------------------------------------------------------------------
CASES += [
    case("tf.matMul", A23, B32, grad=True),
    case("tf.matMul", A23, A23, False, True, grad=True),
    case("tf.matMul", A23, A23, True, False, grad=True),
    case("tf.matMul", B32, A23, True, True, grad=True),
    case("tf.matMul", T(wave(12), [2, 2, 3]), T(wave(6, 2.0), [3, 2]), grad=True),        # batch broadcast
    case("tf.matMul", T(wave(6), [2, 3]), T(wave(12, 2.0), [2, 3, 2]), grad=True),
    case("tf.matMul", T(wave(12), [2, 1, 2, 3]), T(wave(18, 2.0), [3, 3, 2]), grad=True, deviation=BATCH),
    case("tf.matMul", T(wave(12), [2, 1, 2, 3]), T(wave(6, 2.0), [1, 3, 2]), grad=True),
    case("tf.matMul", T(wave(12), [1, 2, 2, 3]), T(wave(12, 2.0), [2, 3, 2]), grad=True),
    case("tf.matMul", T(wave(12), [2, 3, 2]), T(wave(12, 2.0), [2, 3, 2]), True, False, grad=True),
    case("tf.matMul", T(wave(12), [2, 2, 3]), T(wave(12, 2.0), [2, 2, 3]), False, True, grad=True),
    case("tf.matMul", I23, I32),
    case("tf.matMul", I23, B32),
    case("tf.matMul", BOOL23, BOOL32, deviation=BOOL_COUNT),
    case("tf.matMul", T([[True], [False]], dtype="bool"), T([[True, False]], dtype="bool"), deviation=BOOL_COUNT),
    case("tf.matMul", BOOL23, B32),
    case("tf.matMul", T([[1.0, INF], [NAN, 0.0]]), T([[0.0, 1.0], [1.0, -0.0]])),
    case("tf.matMul", T([], [2, 0]), T([], [0, 3])),
    case("tf.matMul", T([], [0, 3]), B32),
    case("tf.matMul", T([2 ** 20, 3], [1, 2], dtype="int32"), T([2 ** 10, 128], [2, 1], dtype="int32")),
    case("tf.matMul", T([1.0, 2.0]), T([[1.0], [2.0]]), error=True),
    case("tf.matMul", A23, A23, error=True),
    case("tf.matMul", T(wave(12), [2, 2, 3]), T(wave(18), [3, 3, 2]), error=True),
    case("tf.matMul", T([[1.0]]), T(2.0, []), error=True),
]

# --- dot, outerProduct --------------------------------------------------------------------------
V3 = T([1.5, -2.0, 3.0])
W3 = T([0.5, 4.0, -1.0])
CASES += [
    case("tf.dot", V3, W3, grad=True),
    case("tf.dot", V3, T(wave(6), [3, 2]), grad=True),
    case("tf.dot", A23, V3, grad=True),
    case("tf.dot", A23, B32, grad=True),
    case("tf.dot", T([1, 2, 3], dtype="int32"), T([4, 5, 6], dtype="int32")),
    case("tf.dot", T([1, 2, 3], dtype="int32"), W3),
    case("tf.dot", T([True, False], dtype="bool"), T([True, True], dtype="bool"), deviation=BOOL_COUNT),
    case("tf.dot", T([NAN, 1.0]), T([0.0, 1.0])),
    case("tf.dot", T([], [0]), T([], [0])),
    case("tf.dot", V3, T([1.0, 2.0]), error=True),
    case("tf.dot", A23, A23, error=True),
    case("tf.dot", T(2.0, []), V3, error=True),
    case("tf.dot", T(wave(12), [2, 2, 3]), V3, error=True),
    case("tf.outerProduct", V3, T([2.0, -1.0]), grad=True),
    case("tf.outerProduct", T([1.0]), W3, grad=True),
    case("tf.outerProduct", T([1, 2], dtype="int32"), T([3, 4, 5], dtype="int32")),
    case("tf.outerProduct", T([1, 2], dtype="int32"), W3),
    case("tf.outerProduct", T([True, False], dtype="bool"), T([True], dtype="bool")),
    case("tf.outerProduct", T([INF, 0.0]), T([0.0, NAN])),
    case("tf.outerProduct", T([], [0]), V3),
    case("tf.outerProduct", A23, V3, error=True),
    case("tf.outerProduct", T(2.0, []), V3, error=True),
]

# --- einsum -------------------------------------------------------------------------------------
CASES += [
    case("tf.einsum", "ij,jk->ik", A23, B32, grad=True),
    case("tf.einsum", "ij,kj->ik", A23, A23, grad=True),
    case("tf.einsum", "ij->ji", A23, grad=True),
    case("tf.einsum", "ij->", A23, grad=True),
    case("tf.einsum", "ij->j", A23, grad=True),
    case("tf.einsum", "ij->i", A23, grad=True),
    case("tf.einsum", "i,i->", V3, W3, grad=True),
    case("tf.einsum", "i,j->ij", V3, T([2.0, -1.0]), grad=True),
    case("tf.einsum", "ij,ij->ij", A23, A23, grad=True),
    case("tf.einsum", "ij,ij->", A23, A23, grad=True),
    case("tf.einsum", "bij,bjk->bik", T(wave(12), [2, 2, 3]), T(wave(12, 2.0), [2, 3, 2]), grad=True),
    case("tf.einsum", "bij,jk->bik", T(wave(12), [2, 2, 3]), B32, grad=True),
    case("tf.einsum", "ij,j->i", A23, V3, grad=True),
    case("tf.einsum", "i,ij,j->", T([1.0, 2.0]), A23, V3, deviation=EINSUM3),
    case("tf.einsum", "ij,jk->ik", BOOL23, BOOL32),
    case("tf.einsum", "ij->", BOOL23),
    case("tf.einsum", "ij,ij->ij", BOOL23, BOOL23),
    case("tf.einsum", "i,j->ij", T([True, False], dtype="bool"), T([True], dtype="bool")),
    case("tf.einsum", "ij,jk->ik", I23, I32),
    case("tf.einsum", "ij,jk->ik", I23, B32),
    case("tf.einsum", "ij->ji", BOOL23),
    case("tf.einsum", "ij,jk", A23, B32, error=True),
    case("tf.einsum", "ii->i", B33, error=True),
    case("tf.einsum", "ii->", B33, error=True),
    case("tf.einsum", "ij,jk->ik", A23, A23, error=True),
    case("tf.einsum", "ij->ik", A23, error=True),
    case("tf.einsum", "ij,jk->ik", A23, error=True),
    case("tf.einsum", "ijk->kji", T(wave(12), [2, 3, 2]), grad=True),
    case("tf.einsum", "...ij->...ji", T(wave(12), [2, 3, 2]), error=True),
    case("tf.einsum", "i,i->i", T([], [0]), T([], [0])),
]

# --- tf.linalg.bandPart -------------------------------------------------------------------------
M44 = T(seq(16), [4, 4])
CASES += [
    case("tf.linalg.bandPart", M44, 1, 1, grad=True),
    case("tf.linalg.bandPart", M44, 0, -1, grad=True),
    case("tf.linalg.bandPart", M44, -1, 0, grad=True),
    case("tf.linalg.bandPart", M44, 0, 0),
    case("tf.linalg.bandPart", M44, -1, -1),
    case("tf.linalg.bandPart", M44, 4, 4),
    case("tf.linalg.bandPart", T(seq(12), [3, 4]), 2, 1, grad=True),
    case("tf.linalg.bandPart", T(seq(12), [4, 3]), 0, 2),
    case("tf.linalg.bandPart", T(seq(24), [2, 3, 4]), 1, 0, grad=True),
    case("tf.linalg.bandPart", T(seq(12), [3, 4], dtype="int32"), 1, 1),
    case("tf.linalg.bandPart", T([True] * 9, [3, 3], dtype="bool"), 0, 1),
    case("tf.linalg.bandPart", T([NAN, INF, -INF, -0.0], [2, 2]), 0, 0),
    case("tf.linalg.bandPart", M44, T(1, [], dtype="int32"), T(-1, [], dtype="int32")),
    case("tf.linalg.bandPart", M44, T(5, [], dtype="int32"), T(0, [], dtype="int32")),
    case("tf.linalg.bandPart", T([], [0, 3]), 1, 1, error=True),
    case("tf.linalg.bandPart", M44, 5, 1, error=True),
    case("tf.linalg.bandPart", M44, 1, 5, error=True),
    case("tf.linalg.bandPart", T(seq(4)), 1, 1, error=True),
    case("tf.linalg.bandPart", M44, 1.5, 1, error=True),
]

# --- tf.linalg.gramSchmidt ----------------------------------------------------------------------
CASES += [
    case("tf.linalg.gramSchmidt", T([[1.0, 1.0], [0.0, 2.0]]), tol=(1e-3, 1e-4)),
    case("tf.linalg.gramSchmidt", T([[3.0, 4.0, 0.0], [1.0, 0.0, 1.0]]), grad=True, tol=(1e-3, 1e-4)),
    case("tf.linalg.gramSchmidt", T([[2.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, 4.0]]), grad=True, tol=(1e-3, 1e-4)),
    case("tf.linalg.gramSchmidt", [T([1.0, 2.0, 2.0]), T([0.0, 1.0, 1.0])], tol=(1e-3, 1e-4)),
    case("tf.linalg.gramSchmidt", T([[1, 0], [1, 1]], dtype="int32"), error=True),
    case("tf.linalg.gramSchmidt", T([[1.0, 0.0, 0.0]])),
    case("tf.linalg.gramSchmidt", T([[0.0, 0.0]])),
    case("tf.linalg.gramSchmidt", T([[1.0, 2.0], [2.0, 4.0]])),
    case("tf.linalg.gramSchmidt", T([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]), error=True),
    case("tf.linalg.gramSchmidt", T([1.0, 2.0]), error=True),
    case("tf.linalg.gramSchmidt", [T([1.0, 2.0]), T([1.0, 2.0, 3.0])], error=True),
]

# --- tf.linalg.qr -------------------------------------------------------------------------------
# well-conditioned (wave()'s sines satisfy a linear recurrence: its 3-column matrices are singular)
Q43 = T([[2.0, 1.0, 0.5], [1.0, 3.0, 1.0], [-0.5, 1.0, 4.0], [1.0, -2.0, 1.5]])
Q34 = T([[2.0, 1.0, -0.5, 1.0], [1.0, 3.0, 1.0, -2.0], [0.5, 1.0, 4.0, 1.5]])
Q243 = T([2.0, 1.0, 0.5, 1.0, 3.0, 1.0, -0.5, 1.0, 4.0, 1.0, -2.0, 1.5,
          1.5, -1.0, 2.0, 0.5, 2.5, -1.0, 3.0, 0.0, 1.0, -1.0, 1.0, 2.0], [2, 4, 3])
Q233 = T([2.0, 1.0, 0.5, 1.0, 3.0, 1.0, -0.5, 1.0, 4.0, 1.0, -2.0, 1.5, 0.5, 2.0, -1.0, 3.0, 0.0, 1.0], [2, 3, 3])
CASES += [
    case("tf.linalg.qr", T([[1.0, 2.0], [3.0, 4.0]]), grad=True, tol=(1e-3, 1e-4)),
    case("tf.linalg.qr", Q43, grad=True, tol=(1e-3, 1e-4)),
    case("tf.linalg.qr", Q43, True, grad=True, tol=(1e-3, 1e-4)),
    case("tf.linalg.qr", Q34, grad=True, tol=(1e-3, 1e-4)),
    case("tf.linalg.qr", Q34, True, tol=(1e-3, 1e-4)),
    case("tf.linalg.qr", Q243, tol=(1e-3, 1e-4), deviation=QR_BATCH),
    case("tf.linalg.qr", Q243, True, tol=(1e-3, 1e-4), deviation=QR_BATCH),
    case("tf.linalg.qr", Q233, grad=True, tol=(1e-3, 1e-4)),
    case("tf.linalg.qr", T(wave(16), [2, 2, 2, 2]), grad=True, tol=(1e-3, 1e-4)),
    case("tf.linalg.qr", T([[1.0, 0.0], [0.0, 1.0]])),
    case("tf.linalg.qr", T([[0.0, 0.0], [0.0, 0.0]])),
    case("tf.linalg.qr", T([[-2.0, 1.0], [0.0, 3.0]])),
    case("tf.linalg.qr", T([[5.0]])),
    case("tf.linalg.qr", T([[1, 2], [3, 4]], dtype="int32"), error=True),
    case("tf.linalg.qr", T([1.0, 2.0]), error=True),
    case("tf.linalg.qr", T([], [0, 2])),
    case("tf.linalg.qr", T([], [2, 0])),
]

# --- tf.math.confusionMatrix --------------------------------------------------------------------
L = T([0, 1, 2, 1, 0], dtype="int32")
P = T([0, 2, 2, 1, 1], dtype="int32")
CASES += [
    case("tf.math.confusionMatrix", L, P, 3),
    case("tf.math.confusionMatrix", L, P, 4),
    case("tf.math.confusionMatrix", T([0, 0, 0], dtype="int32"), T([0, 0, 0], dtype="int32"), 1,
         deviation=ONE_CLASS),
    case("tf.math.confusionMatrix", T([], [0], dtype="int32"), T([], [0], dtype="int32"), 2),
    case("tf.math.confusionMatrix", L, P, 0, error=True),
    case("tf.math.confusionMatrix", L, P, 2.5, error=True),
    case("tf.math.confusionMatrix", L, T([0, 1], dtype="int32"), 3, error=True),
    case("tf.math.confusionMatrix", T([[0, 1]], dtype="int32"), T([[0, 1]], dtype="int32"), 2, error=True),
    case("tf.math.confusionMatrix", T([0.0, 1.9]), T([0, 1], dtype="int32"), 2),
    case("tf.math.confusionMatrix", T([0, 1], dtype="int32"), T([0.0, 1.0]), 2),
    case("tf.math.confusionMatrix", T([True, False], dtype="bool"), T([0, 1], dtype="int32"), 2),
    case("tf.math.confusionMatrix", T([0, 3], dtype="int32"), T([0, 1], dtype="int32"), 2),
    case("tf.math.confusionMatrix", T([0, -1], dtype="int32"), T([0, 1], dtype="int32"), 2),
]

# --- tf.fused.matMul ----------------------------------------------------------------------------
BIAS2 = T([0.5, -1.0])
for act in ("linear", "relu", "relu6", "elu", "prelu", "leakyrelu", "sigmoid"):
    opts = {"a": A23, "b": B32, "bias": BIAS2, "activation": act}
    if act == "prelu":
        opts["preluActivationWeights"] = T([0.25, 0.5])
    CASES.append(case("tf.fused.matMul", opts=opts))
    CASES.append(case("tf.fused.matMul", opts={**opts, "bias": T(2.0, []), "transposeB": True,
                                                "b": T([[1.0, -1.0, 3.0], [2.0, 0.5, -2.0]])}))
    CASES.append(case("tf.fused.matMul", opts={k: v for k, v in opts.items() if k != "bias"}))
    CASES.append(case("tf.fused.matMul", opts={**opts, "a": I23, "b": I32, "bias": T([1, -100], dtype="int32")},
                      deviation=FUSED_INT if act in ("elu", "sigmoid") else None))
CASES += [
    case("tf.fused.matMul", opts={"a": A23, "b": B32}),
    case("tf.fused.matMul", opts={"a": A23, "b": A23, "transposeA": True}),
    case("tf.fused.matMul", opts={"a": A23, "b": B32, "activation": "leakyrelu", "leakyreluAlpha": 0.5}),
    case("tf.fused.matMul", opts={"a": A23, "b": B32, "activation": "prelu",
                                  "preluActivationWeights": T(0.1, [])}),
    case("tf.fused.matMul", opts={"a": A23, "b": B32, "activation": "prelu",
                                  "preluActivationWeights": T([[0.1, 0.2], [0.3, 0.4]])}),
    case("tf.fused.matMul", opts={"a": A23, "b": B32, "bias": T([[1.0], [2.0]]), "activation": "relu"}),
    case("tf.fused.matMul", opts={"a": T(wave(12), [2, 2, 3]), "b": B32, "bias": BIAS2, "activation": "elu"}),
    case("tf.fused.matMul", opts={"a": T(wave(12), [2, 2, 3]), "b": T(wave(12), [2, 3, 2]),
                                  "bias": T([[1.0, 2.0]]), "activation": "relu6"}),
    case("tf.fused.matMul", opts={"a": I23, "b": I32}),
    case("tf.fused.matMul", opts={"a": I23, "b": B32, "bias": BIAS2, "activation": "relu"}),
    case("tf.fused.matMul", opts={"a": I23, "b": I32, "bias": T([0.5, -1.5])}, deviation=FUSED_INT),
    case("tf.fused.matMul", opts={"a": A23, "b": B32, "bias": T([1.0, 2.0, 3.0])}, error=True),
    case("tf.fused.matMul", opts={"a": A23, "b": A23}, error=True),
    case("tf.fused.matMul", opts={"a": A23, "b": B32, "activation": "tanh"}, error=True),
    case("tf.fused.matMul", opts={"a": T([[NAN, 1.0]]), "b": T([[1.0], [INF]]), "bias": T([1.0]),
                                  "activation": "relu"}),
]

# What pytfweb gives instead in its deviation cases (README's "Deviations from TF.js"), checked in place of
# TF.js's answer: runner.check.
expect(CASES, {
    "matMul#7": gives(T([1.40214002, 0.0751154497, -1.00842488, 0.231261492, 1.57290959, 0.524236143, -1.22597361,
        -0.15429382, 1.6183821, 0.931596518, -1.34586179, -0.527558446, 0.594525874, -0.533009768, -0.168727607,
        0.824089766, 0.854499519, -0.218736663, -0.465922713, 0.587389052, 1.04640424, 0.112961091, -0.726002753,
        0.303897172], [2, 3, 2, 2], "float32"), grads="numeric"),
    "matMul#14": gives(T([1, 1, 1, 2], [2, 2], "int32")),
    "matMul#15": gives(T([1, 0, 0, 0], [2, 2], "int32")),
    "dot#7": gives(T([1], [], "int32")),
    "einsum#14": gives(T([-5.25], [], "float32")),
    "linalg.qr#6": gives([T([-0.799999952, -0.0534522533, 0.00840544701, -0.400000006, -0.694879293, -0.00840544701,
        0.200000003, -0.32071349, -0.890976489, -0.400000006, 0.64142698, -0.453893691, -0.424264073, 0.298199743,
        0.466130972, -0.141421348, -0.89459914, -0.160034031, -0.848528147, -0.105246983, 0.0823455453, 0.282842696,
        -0.315740913, 0.866216123], [2, 4, 3], "float32"), T([-2.5, -1.0, -0.599999905, 0.0, -3.74165702, -1.04231882,
        0.0, 3.74916453e-09, -4.24894953, -3.53553391, 0.353553414, -0.989949703, -1.22536719e-08, -2.85043836,
        0.754269838, -6.32967669e-08, 0.0, 2.90707397], [2, 3, 3], "float32")]),
    "linalg.qr#7": gives([T([-0.799999952, -0.0534522533, 0.00840544701, -0.597555161, -0.400000006, -0.694879293,
        -0.00840544701, 0.597555161, 0.200000003, -0.32071349, -0.890976489, -0.251602203, -0.400000006, 0.64142698,
        -0.453893691, 0.471754134, -0.424264073, 0.298199743, 0.466130972, -0.716797709, -0.141421348, -0.89459914,
        -0.160034031, -0.39253208, -0.848528147, -0.105246983, 0.0823455453, 0.511998355, 0.282842696, -0.315740913,
        0.866216123, 0.264532447], [2, 4, 4], "float32"), T([-2.5, -1.0, -0.599999905, 0.0, -3.74165702, -1.04231882,
        0.0, 3.74916453e-09, -4.24894953, 0.0, -2.66533704e-07, 0.0, -3.53553391, 0.353553414, -0.989949703,
        -1.22536719e-08, -2.85043836, 0.754269838, -6.32967669e-08, 0.0, 2.90707397, -1.68599854e-08, 0.0,
        -4.76837158e-07], [2, 4, 3], "float32")]),
    "math.confusionMatrix#3": gives(T([3], [1, 1], "int32")),
    "fused.matMul#16": gives(T([11.0, -1.0, -0.999954581, -1.0], [2, 2], "float32")),
    "fused.matMul#28": gives(T([0.999983311, 6.05460149e-39, 4.53978682e-05, 0.0], [2, 2], "float32")),
    "fused.matMul#39": gives(T([10.5, 10.5, -10.5, -9.5], [2, 2], "float32")),
})
