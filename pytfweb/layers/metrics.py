"""tf.metrics: functions (y_true, y_pred) -> one value per sample (or a scalar), averaged over
a batch by the model; as tfjs-layers/src/metrics.ts."""
from .. import ops
from ..core.tensor import Tensor
from ..core.types import TensorLike
from . import losses as _losses
from ._utils import lookup


def binary_accuracy(y_true: TensorLike, y_pred: TensorLike) -> Tensor:
    """Per sample, the fraction of entries where round(y_pred) (a threshold of 0.5) equals y_true.

    Args:
        y_true: the binary targets (0 or 1).
        y_pred: the predicted probabilities, of y_true's shape.

    Returns:
        A Tensor of one value per sample (the last axis reduced).

    Example:
        >>> tf.metrics.binary_accuracy(tf.tensor([[1], [0]]), tf.tensor([[0.8], [0.6]])).print()
        Tensor
            [1, 0]
    """
    thresholded = ops.cast(ops.greater(y_pred, 0.5), y_true.dtype)
    return ops.mean(ops.cast(ops.equal(y_true, thresholded), "float32"), -1)


def categorical_accuracy(y_true: TensorLike, y_pred: TensorLike) -> Tensor:
    """Per sample, 1 where the largest prediction is at the target's one-hot index, else 0.

    Args:
        y_true: one-hot targets [..., classes].
        y_pred: predictions of y_true's shape.

    Returns:
        A Tensor of one value per sample.

    Example:
        >>> y_true = tf.tensor([[0, 1], [1, 0]])
        >>> tf.metrics.categorical_accuracy(y_true, tf.tensor([[0.2, 0.8], [0.3, 0.7]])).print()
        Tensor
            [1, 0]
    """
    return ops.cast(ops.equal(ops.arg_max(y_true, -1), ops.arg_max(y_pred, -1)), "float32")


def sparse_categorical_accuracy(y_true: TensorLike, y_pred: TensorLike) -> Tensor:
    """Per sample, 1 where the largest prediction is at the target class index, else 0.

    Args:
        y_true: class indices (one per sample).
        y_pred: predictions [..., classes].

    Returns:
        A Tensor of one value per sample.

    Example:
        >>> tf.metrics.sparse_categorical_accuracy(tf.tensor([1, 0]), tf.tensor([[0.2, 0.8], [0.3, 0.7]])).print()
        Tensor
            [1, 0]
    """
    if y_true.rank == y_pred.rank:
        y_true = ops.squeeze(y_true, [y_true.rank - 1])
    predicted = ops.arg_max(y_pred, -1)
    if predicted.dtype != y_true.dtype:
        predicted = ops.cast(predicted, y_true.dtype)
    return ops.cast(ops.equal(y_true, predicted), "float32")


def _count(y_true, y_pred, t, p):
    return ops.cast(ops.sum(ops.cast(ops.logical_and(ops.equal(y_true, t), ops.equal(y_pred, p)), "int32")),
                    "float32")


def _ratio(tp, other):
    denominator = ops.add(tp, other)
    return ops.where(ops.greater(denominator, 0), ops.div(tp, ops.maximum(denominator, 1)), ops.zeros_like(tp))


def precision(y_true: TensorLike, y_pred: TensorLike) -> Tensor:
    """Precision over the batch: true positives / (true positives + false positives), 0 when there are
    none. As TF.js, an entry counts as positive where it equals 1 (predictions are not rounded).

    Args:
        y_true: binary targets.
        y_pred: binary predictions (0 or 1), of y_true's shape.

    Returns:
        A scalar Tensor.

    Example:
        >>> tf.metrics.precision(tf.tensor([1, 0, 1]), tf.tensor([1, 1, 0])).print()
        Tensor
            0.5
    """
    return _ratio(_count(y_true, y_pred, 1, 1), _count(y_true, y_pred, 0, 1))


def recall(y_true: TensorLike, y_pred: TensorLike) -> Tensor:
    """Recall over the batch: true positives / (true positives + false negatives), 0 when there are
    none. As TF.js, an entry counts as positive where it equals 1 (predictions are not rounded).

    Args:
        y_true: binary targets.
        y_pred: binary predictions (0 or 1), of y_true's shape.

    Returns:
        A scalar Tensor.

    Example:
        >>> tf.metrics.recall(tf.tensor([1, 0, 1, 1]), tf.tensor([1, 1, 0, 1])).print()
        Tensor
            0.6666667
    """
    return _ratio(_count(y_true, y_pred, 1, 1), _count(y_true, y_pred, 1, 0))


def r2_score(y_true: TensorLike, y_pred: TensorLike) -> Tensor:
    """The coefficient of determination over the batch: 1 - sum((y_true - y_pred)^2) /
    sum((y_true - mean(y_true))^2).

    Args:
        y_true: the targets.
        y_pred: the predictions, of y_true's shape.

    Returns:
        A scalar Tensor.

    Example:
        >>> tf.metrics.r2_score(tf.tensor([1, 0]), tf.tensor([0.8, 0.6])).print()
        Tensor
            0.2
    """
    residuals = ops.sum(ops.square(ops.sub(y_true, y_pred)))
    total = ops.sum(ops.square(ops.sub(y_true, ops.mean(y_true))))
    return ops.sub(1, ops.div(residuals, total))


binary_crossentropy = _losses.binary_crossentropy
categorical_crossentropy = _losses.categorical_crossentropy
sparse_categorical_crossentropy = _losses.sparse_categorical_crossentropy
mean_squared_error = mse = _losses.mean_squared_error
mean_absolute_error = mae = _losses.mean_absolute_error
mean_absolute_percentage_error = mape = _losses.mean_absolute_percentage_error
cosine_proximity = _losses.cosine_proximity

METRICS = {f.__name__: f for f in (binary_accuracy, categorical_accuracy, sparse_categorical_accuracy, precision,
                                    recall, r2_score)}
METRICS.update(_losses.LOSSES)
METRICS.update(_losses.ALIASES)


def get(identifier):
    """A metric function from a TF.js name, a Keras name or a function. ('accuracy' and
    'crossentropy' depend on the loss and output shape: the model resolves those.)"""
    return lookup(identifier, METRICS, "metric")


def name_of(fn):
    for name, f in METRICS.items():
        if f is fn and name not in _losses.LOSSES and name not in _losses.ALIASES:
            return _losses._camel(name)
    return _losses.name_of(fn)
