"""tf.metrics: the functions Keras-style training reports, on labels and predictions."""
from ..spec import T, case, wave

Y2 = T([[0.0, 1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])
P2 = T([[0.1, 0.7, 0.2], [0.3, 0.5, 0.2], [0.2, 0.2, 0.6]])
YB = T([[1.0], [0.0], [1.0], [0.0]])
PB = T([[0.8], [0.6], [0.3], [0.1]])
R1, R2 = T(wave(6, 2.0), [2, 3]), T(wave(6, 1.5)[::-1], [2, 3])

CASES = [
    case("tf.metrics.binaryAccuracy", YB, PB),
    case("tf.metrics.binaryAccuracy", T([1.0, 0.0, 1.0]), T([0.5, 0.49, 0.51])),
    case("tf.metrics.binaryCrossentropy", YB, PB, grad=True),
    case("tf.metrics.binaryCrossentropy", T([1.0, 0.0]), T([1.0, 0.0])),
    case("tf.metrics.categoricalAccuracy", Y2, P2),
    case("tf.metrics.categoricalCrossentropy", Y2, P2, grad=True),
    case("tf.metrics.cosineProximity", R1, R2, grad=True),
    case("tf.metrics.mape", R1, R2),
    case("tf.metrics.meanAbsolutePercentageError", T([0.0, 2.0]), T([1.0, 1.0])),
    case("tf.metrics.meanAbsoluteError", R1, R2, grad=True),
    case("tf.metrics.meanSquaredError", R1, R2, grad=True),
    case("tf.metrics.mse", R1, R2),
    case("tf.metrics.precision", YB, T([[1.0], [1.0], [0.0], [0.0]])),
    case("tf.metrics.precision", T([[0.0], [0.0]]), T([[0.0], [0.0]])),
    case("tf.metrics.recall", YB, T([[1.0], [1.0], [0.0], [0.0]])),
    case("tf.metrics.recall", T([[0.0], [0.0]]), T([[1.0], [0.0]])),
    case("tf.metrics.r2Score", T([3.0, -0.5, 2.0, 7.0]), T([2.5, 0.0, 2.0, 8.0])),
    case("tf.metrics.r2Score", R1, R2),
    case("tf.metrics.sparseCategoricalAccuracy", T([[1.0], [0.0], [2.0]]), P2),
    case("tf.metrics.sparseCategoricalAccuracy", T([1.0, 0.0, 2.0]), P2),
    case("tf.metrics.meanSquaredError", T([[1.0, 2.0]]), T([[1.0, 2.0, 3.0]]), error=True),
]
