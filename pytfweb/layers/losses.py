"""The loss functions a model is compiled with, as tfjs-layers/src/losses.ts: each takes
(y_true, y_pred) and returns one loss per sample (reduced over the last axis only); the
model averages them over the batch.

These differ from tf.losses.* (tfjs-core), which take (labels, predictions) and reduce to a
scalar with weights, so they are their own functions here, as in TF.js.
"""
import math

from .. import ops
from ..ops.nn import one_hot_any_depth
from ..core.tensor import Tensor
from ..core.types import TensorLike
from ._utils import epsilon, lookup

_BIG = 3.4028234663852886e38  # Number.MAX_VALUE is out of float32 range; the largest float32 clips the same


def mean_squared_error(y_true: TensorLike, y_pred: TensorLike) -> Tensor:
    """Per sample, the mean of (y_true - y_pred)^2 over the last axis (also tf.metrics.mse).

    Args:
        y_true: the targets.
        y_pred: the predictions, of y_true's shape.

    Returns:
        A Tensor of one value per sample.

    Example:
        >>> tf.metrics.mean_squared_error(tf.tensor([[1, 2]]), tf.tensor([[2, 4]])).print()
        Tensor
            [2.5]
    """
    return ops.mean(ops.square(ops.sub(y_pred, y_true)), -1)


def mean_absolute_error(y_true: TensorLike, y_pred: TensorLike) -> Tensor:
    """Per sample, the mean of |y_true - y_pred| over the last axis (also tf.metrics.mae).

    Args:
        y_true: the targets.
        y_pred: the predictions, of y_true's shape.

    Returns:
        A Tensor of one value per sample.

    Example:
        >>> tf.metrics.mean_absolute_error(tf.tensor([[1, 2]]), tf.tensor([[2, 4]])).print()
        Tensor
            [1.5]
    """
    return ops.mean(ops.abs(ops.sub(y_pred, y_true)), -1)


def mean_absolute_percentage_error(y_true: TensorLike, y_pred: TensorLike) -> Tensor:
    """Per sample, 100 * the mean of |(y_true - y_pred) / y_true| over the last axis (the divisor
    clipped to at least epsilon; also tf.metrics.mape).

    Args:
        y_true: the targets.
        y_pred: the predictions, of y_true's shape.

    Returns:
        A Tensor of one value per sample.

    Example:
        >>> tf.metrics.mape(tf.tensor([[2, 4]]), tf.tensor([[1, 4]])).print()
        Tensor
            [25]
    """
    diff = ops.sub(y_true, y_pred)
    clipped_true = ops.clip_by_value(ops.abs(y_true), epsilon(), _BIG)
    return ops.mul(ops.mean(ops.abs(ops.div(diff, clipped_true)), -1), 100)


def mean_squared_logarithmic_error(y_true, y_pred):
    first = ops.log(ops.add(ops.clip_by_value(y_pred, epsilon(), _BIG), 1))
    second = ops.log(ops.add(ops.clip_by_value(y_true, epsilon(), _BIG), 1))
    return ops.mean(ops.square(ops.sub(first, second)), -1)


def squared_hinge(y_true, y_pred):
    return ops.mean(ops.square(ops.maximum(ops.sub(1, ops.mul(y_true, y_pred)), 0)), -1)


def hinge(y_true, y_pred):
    return ops.mean(ops.maximum(ops.sub(1, ops.mul(y_true, y_pred)), 0), -1)


def categorical_hinge(y_true, y_pred):
    pos = ops.sum(ops.mul(y_true, y_pred), -1)
    neg = ops.max(ops.mul(ops.sub(1, y_true), y_pred), -1)
    return ops.maximum(ops.add(ops.sub(neg, pos), 1), 0)


def logcosh(y_true, y_pred):
    diff = ops.sub(y_pred, y_true)
    return ops.mean(ops.sub(ops.add(diff, ops.softplus(ops.mul(diff, -2))), math.log(2)), -1)


def categorical_crossentropy(y_true: TensorLike, y_pred: TensorLike, from_logits: bool = False) -> Tensor:
    """Per sample, the cross-entropy -sum(y_true * log(y_pred)) over the last axis (predictions
    clipped to [epsilon, 1 - epsilon]).

    Args:
        y_true: one-hot (or probability) targets [..., classes].
        y_pred: predicted probabilities (logits with from_logits).
        from_logits: y_pred holds logits: a softmax is applied first.

    Returns:
        A Tensor of one value per sample.

    Example:
        >>> tf.metrics.categorical_crossentropy(tf.tensor([[0, 1]]), tf.tensor([[0.5, 0.5]])).print()
        Tensor
            [0.6931472]
    """
    if from_logits:
        y_pred = ops.softmax(y_pred)
    else:
        # scale the predictions so that the class probabilities of each sample sum to 1
        y_pred = ops.div(y_pred, ops.sum(y_pred, -1, True))
    y_pred = ops.clip_by_value(y_pred, epsilon(), 1 - epsilon())
    return ops.neg(ops.sum(ops.mul(ops.cast(y_true, "float32"), ops.log(y_pred)), -1))


def sparse_categorical_crossentropy(y_true: TensorLike, y_pred: TensorLike, from_logits: bool = False) -> Tensor:
    """categorical_crossentropy with class indices as targets.

    Args:
        y_true: class indices (one per sample).
        y_pred: predicted probabilities [..., classes] (logits with from_logits).
        from_logits: y_pred holds logits: a softmax is applied first.

    Returns:
        A Tensor of one value per sample.

    Example:
        >>> tf.metrics.sparse_categorical_crossentropy(tf.tensor([1]), tf.tensor([[0.5, 0.5]])).print()
        Tensor
            [0.6931471]
    """
    labels = ops.cast(ops.floor(ops.reshape(y_true, [-1])), "int32")
    y_pred = ops.clip_by_value(y_pred, epsilon(), 1 - epsilon())
    one_hot = ops.reshape(one_hot_any_depth(labels, y_pred.shape[-1]), y_pred.shape)
    return categorical_crossentropy(one_hot, y_pred, from_logits)


def _sigmoid_cross_entropy_with_logits(labels, logits):
    # max(x, 0) - x * z + log(1 + exp(-|x|)), stable for both signs of x
    return ops.add(ops.sub(ops.relu(logits), ops.mul(logits, labels)), ops.log1p(ops.exp(ops.neg(ops.abs(logits)))))


def binary_crossentropy(y_true: TensorLike, y_pred: TensorLike) -> Tensor:
    """Per sample, the mean over the last axis of -y log(p) - (1 - y) log(1 - p) (predictions
    clipped to [epsilon, 1 - epsilon]).

    Args:
        y_true: binary targets.
        y_pred: predicted probabilities, of y_true's shape.

    Returns:
        A Tensor of one value per sample.

    Example:
        >>> tf.metrics.binary_crossentropy(tf.tensor([[1], [0]]), tf.tensor([[0.8], [0.6]])).print()
        Tensor
            [0.2231435, 0.9162908]
    """
    y = ops.clip_by_value(y_pred, epsilon(), 1 - epsilon())
    logits = ops.log(ops.div(y, ops.sub(1, y)))
    return ops.mean(_sigmoid_cross_entropy_with_logits(y_true, logits), -1)


def kullback_leibler_divergence(y_true, y_pred):
    clipped_true = ops.clip_by_value(y_true, epsilon(), 1)
    clipped_pred = ops.clip_by_value(y_pred, epsilon(), 1)
    return ops.sum(ops.mul(y_true, ops.log(ops.div(clipped_true, clipped_pred))), -1)


def poisson(y_true, y_pred):
    return ops.mean(ops.sub(y_pred, ops.mul(y_true, ops.log(ops.add(y_pred, epsilon())))), -1)


def _l2_normalize(x, axis):
    square_sum = ops.sum(ops.square(x), axis, True)
    return ops.div(x, ops.sqrt(ops.maximum(square_sum, epsilon())))


def cosine_proximity(y_true: TensorLike, y_pred: TensorLike) -> Tensor:
    """Per sample, minus the cosine similarity of y_true and y_pred over the last axis (TF.js's sign:
    -1 for vectors pointing the same way).

    Args:
        y_true: the targets.
        y_pred: the predictions, of y_true's shape.

    Returns:
        A Tensor of one value per sample.

    Example:
        >>> tf.metrics.cosine_proximity(tf.tensor([[0, 2]]), tf.tensor([[0, 3]])).print()
        Tensor
            [-1]
    """
    return ops.neg(ops.sum(ops.mul(_l2_normalize(y_true, -1), _l2_normalize(y_pred, -1)), -1))


# TF.js's lossesMap (by snake_case name) plus its short aliases.
LOSSES = {f.__name__: f for f in (mean_squared_error, mean_absolute_error, mean_absolute_percentage_error,
                                   mean_squared_logarithmic_error, squared_hinge, hinge, categorical_hinge,
                                   logcosh, categorical_crossentropy, sparse_categorical_crossentropy,
                                   binary_crossentropy, kullback_leibler_divergence, poisson, cosine_proximity)}
ALIASES = {"mse": mean_squared_error, "mae": mean_absolute_error, "mape": mean_absolute_percentage_error,
           "msle": mean_squared_logarithmic_error, "kld": kullback_leibler_divergence, "cosine": cosine_proximity}


def get(identifier):
    """A loss function from a TF.js name ('meanSquaredError'), a Keras name
    ('mean_squared_error', 'mse') or a function (y_true, y_pred) -> per-sample losses."""
    if isinstance(identifier, str) and "softmaxcrossentropy" in identifier.lower().replace("_", ""):
        raise ValueError(f"Unknown loss {identifier}. Use 'categoricalCrossentropy' as the string name for "
                         f"tf.losses.softmax_cross_entropy")
    return lookup(identifier, {**LOSSES, **ALIASES}, "loss")


def name_of(fn):
    """The TF.js name a loss or metric function is logged under ('meanSquaredError')."""
    for table in (LOSSES, ALIASES):
        for name, f in table.items():
            if f is fn:
                return _camel(name)
    return getattr(fn, "__name__", "loss")


def _camel(name):
    head, *rest = name.split("_")
    return head + "".join(p.capitalize() for p in rest)
