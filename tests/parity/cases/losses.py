"""tf.losses: every loss with and without weights (scalar, per-row, full), each reduction
(0 NONE, 1 MEAN, 2 SUM, 3 SUM_BY_NONZERO_WEIGHTS), their own options (axis, delta, epsilon,
label smoothing), int32 labels, zero weights, gradients and the inputs TF.js rejects."""
from ..spec import T, case, sines

NONE, MEAN, SUM, NONZERO = 0, 1, 2, 3


def W(*shape, **kw):   # noqa: N802 - reads as a type in case lists
    return sines(shape, **kw)


L = W(2, 3)
P = W(2, 3, shift=4)
PROB = W(2, 3, scale=0.45, offset=0.5, shift=4)          # in (0, 1)
LAB01 = T([[1, 0, 1], [0, 0, 1]])
ONEHOT = T([[0, 1, 0], [1, 0, 0]])
WROW = T([[0.5], [2.0]])
WFULL = T([[1, 0, 2], [0.5, 0, 3]])

CASES = []
for fn, a, b in (("tf.losses.absoluteDifference", L, P), ("tf.losses.meanSquaredError", L, P),
                 ("tf.losses.hingeLoss", LAB01, P), ("tf.losses.logLoss", LAB01, PROB),
                 ("tf.losses.huberLoss", L, P)):
    CASES += [
        case(fn, a, b, grad=True),
        case(fn, a, b, T(2.0, []), grad=True),
        case(fn, a, b, WROW, grad=True),
        case(fn, a, b, WFULL, grad=True),
        case(fn, a, b, WFULL, *([1.0] if fn.endswith(("huberLoss", "logLoss")) else []), NONE, grad=True),
        case(fn, a, b, WROW, *([0.5] if fn.endswith(("huberLoss", "logLoss")) else []), MEAN, grad=True),
        case(fn, a, b, None, *([2.0] if fn.endswith(("huberLoss", "logLoss")) else []), SUM, grad=True),
        case(fn, a, b, T([0.0, 0.0, 0.0]), grad=True),
        case(fn, a, T([1.0, 2.0]), error=True),
    ]
CASES += [
    case("tf.losses.absoluteDifference", T([1, 2, 3], dtype="int32"), T([0.5, 2.5, 3.0])),
    case("tf.losses.meanSquaredError", T([[1, 2], [3, 4]]), T([[1, 2], [3, 4]]), None, MEAN),
    case("tf.losses.meanSquaredError", L, P, T([1.0, 0.0, 2.0]), NONZERO, grad=True),
    case("tf.losses.meanSquaredError", L, P, WFULL, 7, error=True),
    case("tf.losses.huberLoss", L, P, None, 0.3, grad=True),
    case("tf.losses.logLoss", T([1.0, 0.0, 1.0]), T([1.0, 0.0, 0.0]), None, 1e-7),
    case("tf.losses.logLoss", LAB01, PROB, None, 0.1, grad=True),
    case("tf.losses.hingeLoss", T([1, 0, 1], dtype="int32"), T([0.3, -0.2, 2.0])),
    # computeWeightedLoss(losses, weights, reduction)
    case("tf.losses.computeWeightedLoss", W(2, 3), grad=True),
    case("tf.losses.computeWeightedLoss", W(2, 3), WROW, grad=True),
    case("tf.losses.computeWeightedLoss", W(2, 3), WFULL, NONE, grad=True),
    case("tf.losses.computeWeightedLoss", W(2, 3), WROW, MEAN, grad=True),
    case("tf.losses.computeWeightedLoss", W(2, 3), T(3.0, []), SUM, grad=True),
    case("tf.losses.computeWeightedLoss", W(2, 3), None, MEAN, grad=True),
    case("tf.losses.computeWeightedLoss", W(2, 3), None, NONE),
    case("tf.losses.computeWeightedLoss", W(4), T([0.0, 0.0, 0.0, 0.0])),
    case("tf.losses.computeWeightedLoss", W(4), T([0.0, 0.0, 0.0, 0.0]), MEAN),
    case("tf.losses.computeWeightedLoss", T(2.5, [])),
    case("tf.losses.computeWeightedLoss", W(2, 3), T([1.0, 2.0])),
    # cosineDistance(labels, predictions, axis, weights, reduction)
    case("tf.losses.cosineDistance", L, P, 1, grad=True),
    case("tf.losses.cosineDistance", L, P, 0, grad=True),
    case("tf.losses.cosineDistance", L, P, 1, T([[1.0], [0.0]]), grad=True),
    case("tf.losses.cosineDistance", L, P, 1, None, NONE, grad=True),
    case("tf.losses.cosineDistance", L, P, -1, None, SUM),
    case("tf.losses.cosineDistance", L, W(3, 2), 1, error=True),
    # sigmoidCrossEntropy(multiClassLabels, logits, weights, labelSmoothing, reduction)
    case("tf.losses.sigmoidCrossEntropy", LAB01, P, grad=True),
    case("tf.losses.sigmoidCrossEntropy", LAB01, P, WROW, grad=True),
    case("tf.losses.sigmoidCrossEntropy", LAB01, P, None, 0.2, grad=True),
    case("tf.losses.sigmoidCrossEntropy", LAB01, P, WFULL, 0.1, NONE, grad=True),
    case("tf.losses.sigmoidCrossEntropy", LAB01, T([[100.0, -100.0, 0.0], [-50.0, 30.0, 1.0]]), None, 0, SUM),
    case("tf.losses.sigmoidCrossEntropy", T([[1, 0, 1], [0, 0, 1]], dtype="int32"), P),
    case("tf.losses.sigmoidCrossEntropy", LAB01, W(3, 2), error=True),
    # softmaxCrossEntropy(onehotLabels, logits, weights, labelSmoothing, reduction)
    case("tf.losses.softmaxCrossEntropy", ONEHOT, P, grad=True),
    case("tf.losses.softmaxCrossEntropy", ONEHOT, P, T([0.5, 2.0]), grad=True),
    case("tf.losses.softmaxCrossEntropy", ONEHOT, P, None, 0.3, grad=True),
    case("tf.losses.softmaxCrossEntropy", ONEHOT, P, T([1.0, 0.0]), 0.1, MEAN, grad=True),
    case("tf.losses.softmaxCrossEntropy", ONEHOT, P, None, 0, NONE, grad=True),
    case("tf.losses.softmaxCrossEntropy", ONEHOT, T([[100.0, -100.0, 0.0], [-50.0, 30.0, 1.0]]), None, 0, SUM),
    case("tf.losses.softmaxCrossEntropy", T([[0, 1, 0], [1, 0, 0]], dtype="int32"), P),
    case("tf.losses.softmaxCrossEntropy", W(2, 2, 3), W(2, 2, 3, shift=2), grad=True),
    case("tf.losses.softmaxCrossEntropy", ONEHOT, W(3, 2), error=True),
]
