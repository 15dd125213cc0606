"""tf.losses: TF.js's loss functions, composites of differentiable ops (so they run and have
gradients on every backend). Each computes elementwise losses and hands them to
compute_weighted_loss, which weights and reduces them as `reduction` says:

  NONE                    losses * weights, unreduced
  SUM                     sum(losses * weights)
  MEAN                    sum(losses * weights) / sum(weights), divided again by
                          size(losses) / size(weights) when weights broadcast
                          (no weights: mean(losses))
  SUM_BY_NONZERO_WEIGHTS  sum(losses * weights) / number of non-zero weights after broadcasting
                          to the losses' shape (no weights: divided by size(losses)); the default
"""
import enum

from typing import Optional

from ..core.tensor import Tensor
from ..core.types import TensorLike
from ..core.engine import ENGINE, op
from ..core.shapes import broadcast_shapes
from . import elementwise as _ew
from .creation import convert_to_tensor, ones, scalar
from .elementwise import cast
from .nn import log_softmax
from .reduction import mean, sum as _sum
from .shape import reshape

__all__ = ["Reduction", "absolute_difference", "compute_weighted_loss", "cosine_distance", "hinge_loss",
           "huber_loss", "log_loss", "mean_squared_error", "sigmoid_cross_entropy", "softmax_cross_entropy"]


class Reduction(enum.IntEnum):
    """How a loss reduces its per-element values (TF.js's tf.Reduction): NONE, MEAN, SUM,
    SUM_BY_NONZERO_WEIGHTS (the losses' default: the sum divided by the number of non-zero weights).

    Example:
        >>> tf.losses.absolute_difference(tf.tensor([1, 2]), tf.tensor([2, 4]), reduction=tf.Reduction.SUM).print()
        Tensor
            3
    """
    NONE = 0
    MEAN = 1
    SUM = 2
    SUM_BY_NONZERO_WEIGHTS = 3


def _reduction(reduction, name):
    try:
        return Reduction(reduction)
    except ValueError:
        raise ValueError(f"{name}: argument 'reduction' must be a tf.Reduction, got {reduction!r}") from None


def _float(x, arg, name):
    """A loss input as float32 (labels often come as int32 or bool one-hot tensors)."""
    t = convert_to_tensor(x, arg, name)
    return t if t.dtype == "float32" else cast(t, "float32")


def _pair(a, b, arg_a, arg_b, name):
    """Two loss inputs of one shape, as float32 (TF.js assertShapesMatch)."""
    ta, tb = _float(a, arg_a, name), _float(b, arg_b, name)
    if ta.shape != tb.shape:
        raise ValueError(f"{name}: arguments '{arg_a}' and '{arg_b}' must have the same shape, got "
                         f"{list(ta.shape)} and {list(tb.shape)}")
    return ta, tb


def _weights(weights, name):
    return None if weights is None else _float(weights, "weights", name)


def _check_weights(losses, weights, name):
    try:
        broadcast_shapes(weights.shape, losses.shape, name)
    except ValueError:
        raise ValueError(f"{name}: argument 'weights' of shape {list(weights.shape)} does not broadcast to "
                         f"the losses' shape {list(losses.shape)}") from None


def _number(v, arg, name):
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise TypeError(f"{name}: argument '{arg}' must be a number, got {type(v).__name__}")
    return float(v)


def _weighted(losses, weights, reduction, name):
    reduction = _reduction(reduction, name)
    if weights is not None:
        _check_weights(losses, weights, name)
    weighted = losses if weights is None else _ew.mul(losses, weights)
    if reduction == Reduction.NONE:
        return weighted
    if reduction == Reduction.SUM:
        return _sum(weighted)
    if reduction == Reduction.MEAN:
        if weights is None:
            return mean(weighted)
        result = _ew.div(_sum(weighted), _sum(weights))
        factor = losses.size / weights.size if weights.size else 1
        return _ew.div(result, scalar(factor)) if factor > 1 else result
    # SUM_BY_NONZERO_WEIGHTS
    if weights is None:
        return _ew.div(_sum(weighted), scalar(float(losses.size)))
    broadcast = _ew.mul(weights, ones(losses.shape))
    nonzero = cast(_sum(_ew.not_equal(broadcast, scalar(0.0))), "float32")
    return _ew.div(_sum(weighted), nonzero)


@op
def compute_weighted_loss(losses: TensorLike, weights: Optional[TensorLike] = None,
                          reduction: Reduction = Reduction.SUM_BY_NONZERO_WEIGHTS) -> Tensor:
    """Weight losses (weights broadcast to them) and reduce them.

    Args:
        losses: the per-element losses.
        weights: weights broadcast to losses (None: 1).
        reduction: a tf.Reduction (default: the sum divided by the number of non-zero weights).

    Returns:
        A scalar Tensor (losses' shape with Reduction.NONE).

    Example:
        >>> tf.losses.compute_weighted_loss(tf.tensor([1, 2, 3]), tf.tensor([1, 0, 1])).print()
        Tensor
            2
    """
    name = "compute_weighted_loss"
    return _weighted(_float(losses, "losses", name), _weights(weights, name), reduction, name)


@op
def absolute_difference(labels: TensorLike, predictions: TensorLike, weights: Optional[TensorLike] = None,
                        reduction: Reduction = Reduction.SUM_BY_NONZERO_WEIGHTS) -> Tensor:
    """The absolute difference loss |labels - predictions|, weighted and reduced.

    Args:
        labels: the targets.
        predictions: the predictions, of labels' shape.
        weights: weights broadcast to the losses (None: 1).
        reduction: a tf.Reduction (default: the sum divided by the number of non-zero weights).

    Returns:
        A scalar Tensor (losses' shape with Reduction.NONE).

    Example:
        >>> tf.losses.absolute_difference(tf.tensor([1, 2]), tf.tensor([2, 4])).print()
        Tensor
            1.5
    """
    name = "absolute_difference"
    labels, predictions = _pair(labels, predictions, "labels", "predictions", name)
    return _weighted(_ew.abs(_ew.sub(labels, predictions)), _weights(weights, name), reduction, name)


@op
def mean_squared_error(labels: TensorLike, predictions: TensorLike, weights: Optional[TensorLike] = None,
                       reduction: Reduction = Reduction.SUM_BY_NONZERO_WEIGHTS) -> Tensor:
    """The squared error (labels - predictions)^2, weighted and reduced.

    Args:
        labels: the targets.
        predictions: the predictions, of labels' shape.
        weights: weights broadcast to the losses (None: 1).
        reduction: a tf.Reduction.

    Returns:
        A scalar Tensor (the losses with Reduction.NONE).

    Example:
        >>> tf.losses.mean_squared_error(tf.tensor([1, 2]), tf.tensor([2, 4])).print()
        Tensor
            2.5
    """
    name = "mean_squared_error"
    labels, predictions = _pair(labels, predictions, "labels", "predictions", name)
    return _weighted(_ew.squared_difference(labels, predictions), _weights(weights, name), reduction, name)


@op
def cosine_distance(labels: TensorLike, predictions: TensorLike, axis: int, weights: Optional[TensorLike] = None,
                    reduction: Reduction = Reduction.SUM_BY_NONZERO_WEIGHTS) -> Tensor:
    """The cosine distance loss 1 - sum(labels * predictions, axis) (the inputs unit-normalised by
    the caller, as in TF.js), the axis kept, weighted and reduced.

    Args:
        labels: unit-normalised targets.
        predictions: unit-normalised predictions, of labels' shape.
        axis: the axis of the vectors.
        weights: weights broadcast to the losses (None: 1).
        reduction: a tf.Reduction.

    Returns:
        A scalar Tensor (the losses with Reduction.NONE).

    Example:
        >>> tf.losses.cosine_distance(tf.tensor([[0, 1]]), tf.tensor([[1, 0]]), 1).print()
        Tensor
            1
    """
    name = "cosine_distance"
    labels, predictions = _pair(labels, predictions, "labels", "predictions", name)
    losses = _ew.sub(scalar(1.0), _sum(_ew.mul(labels, predictions), axis, True))
    return _weighted(losses, _weights(weights, name), reduction, name)


@op
def hinge_loss(labels: TensorLike, predictions: TensorLike, weights: Optional[TensorLike] = None,
               reduction: Reduction = Reduction.SUM_BY_NONZERO_WEIGHTS) -> Tensor:
    """The hinge loss relu(1 - (2 * labels - 1) * predictions) for labels in {0, 1}, weighted and
    reduced.

    Args:
        labels: binary targets (0 or 1).
        predictions: the predictions, of labels' shape.
        weights: weights broadcast to the losses (None: 1).
        reduction: a tf.Reduction.

    Returns:
        A scalar Tensor (the losses with Reduction.NONE).

    Example:
        >>> tf.losses.hinge_loss(tf.tensor([1, 0]), tf.tensor([0.5, -0.5])).print()
        Tensor
            0.5
    """
    name = "hinge_loss"
    labels, predictions = _pair(labels, predictions, "labels", "predictions", name)
    one = scalar(1.0)
    signs = _ew.sub(_ew.mul(scalar(2.0), labels), one)
    losses = _ew.relu(_ew.sub(one, _ew.mul(signs, predictions)))
    return _weighted(losses, _weights(weights, name), reduction, name)


@op
def huber_loss(labels: TensorLike, predictions: TensorLike, weights: Optional[TensorLike] = None, delta: float = 1.0,
               reduction: Reduction = Reduction.SUM_BY_NONZERO_WEIGHTS) -> Tensor:
    """The Huber loss of the error e = labels - predictions: e^2 / 2 where |e| <= delta, delta *
    (|e| - delta / 2) beyond; weighted and reduced.

    Args:
        labels: the targets.
        predictions: the predictions, of labels' shape.
        weights: weights broadcast to the losses (None: 1).
        delta: where the loss turns from quadratic to linear.
        reduction: a tf.Reduction.

    Returns:
        A scalar Tensor (the losses with Reduction.NONE).

    Example:
        >>> tf.losses.huber_loss(tf.tensor([0, 0]), tf.tensor([0.5, 2])).print()
        Tensor
            0.8125
    """
    name = "huber_loss"
    labels, predictions = _pair(labels, predictions, "labels", "predictions", name)
    delta = scalar(_number(delta, "delta", name))
    error = _ew.abs(_ew.sub(predictions, labels))
    quadratic = _ew.minimum(error, delta)
    linear = _ew.sub(error, quadratic)
    losses = _ew.add(_ew.mul(scalar(0.5), _ew.square(quadratic)), _ew.mul(delta, linear))
    return _weighted(losses, _weights(weights, name), reduction, name)


@op
def log_loss(labels: TensorLike, predictions: TensorLike, weights: Optional[TensorLike] = None, epsilon: float = 1e-7,
             reduction: Reduction = Reduction.SUM_BY_NONZERO_WEIGHTS) -> Tensor:
    """The log loss -labels * log(p + epsilon) - (1 - labels) * log(1 - p + epsilon), weighted and
    reduced.

    Args:
        labels: binary targets.
        predictions: predicted probabilities p, of labels' shape.
        weights: weights broadcast to the losses (None: 1).
        epsilon: added inside the logarithms.
        reduction: a tf.Reduction.

    Returns:
        A scalar Tensor (the losses with Reduction.NONE).

    Example:
        >>> tf.losses.log_loss(tf.tensor([1, 0]), tf.tensor([0.5, 0.5])).print()
        Tensor
            0.6931469
    """
    name = "log_loss"
    labels, predictions = _pair(labels, predictions, "labels", "predictions", name)
    one, eps = scalar(1.0), scalar(_number(epsilon, "epsilon", name))
    l1 = _ew.neg(_ew.mul(labels, _ew.log(_ew.add(predictions, eps))))
    l2 = _ew.mul(_ew.sub(one, labels), _ew.log(_ew.add(_ew.sub(one, predictions), eps)))
    return _weighted(_ew.sub(l1, l2), _weights(weights, name), reduction, name)


def _smoothed(labels, label_smoothing, off_value, name):
    """labels * (1 - s) + off_value * s (TF.js label smoothing); unchanged when s is 0."""
    s = _number(label_smoothing, "label_smoothing", name)
    if s < 0 or s > 1:
        raise ValueError(f"{name}: argument 'label_smoothing' must be in [0, 1], got {label_smoothing}")
    if s == 0:
        return labels
    return _ew.add(_ew.mul(labels, scalar(1.0 - s)), scalar(off_value * s))


@op
def sigmoid_cross_entropy(multi_class_labels: TensorLike, logits: TensorLike, weights: Optional[TensorLike] = None,
                          label_smoothing: float = 0,
                          reduction: Reduction = Reduction.SUM_BY_NONZERO_WEIGHTS) -> Tensor:
    """Sigmoid cross-entropy of logits x and labels z, in the overflow-free form
    max(x, 0) - x * z + log(1 + exp(-|x|)); weighted and reduced.

    Args:
        multi_class_labels: targets in [0, 1], of logits' shape.
        logits: the logits.
        weights: weights broadcast to the losses (None: 1).
        label_smoothing: labels become labels * (1 - s) + s / 2.
        reduction: a tf.Reduction.

    Returns:
        A scalar Tensor (the losses with Reduction.NONE).

    Example:
        >>> tf.losses.sigmoid_cross_entropy(tf.tensor([1]), tf.tensor([0])).print()
        Tensor
            0.6931472
    """
    name = "sigmoid_cross_entropy"
    labels, logits = _pair(multi_class_labels, logits, "multi_class_labels", "logits", name)
    labels = _smoothed(labels, label_smoothing, 0.5, name)
    losses = _ew.add(_ew.sub(_ew.relu(logits), _ew.mul(logits, labels)),
                     _ew.log1p(_ew.exp(_ew.neg(_ew.abs(logits)))))
    return _weighted(losses, _weights(weights, name), reduction, name)


@op
def _softmax_cross_entropy_with_logits(labels, logits):
    """-sum(labels * log_softmax(logits)) over the last axis, with TF.js's hand-written
    gradient: dy * (labels - softmax) for the labels, dy * (softmax - labels) for the logits
    (taped as one node by the engine: ops sit below autodiff's tf.custom_grad)."""
    def forward():
        log_result = log_softmax(logits, -1)
        value = _sum(_ew.neg(_ew.mul(log_result, labels)), -1)
        return [value], [labels, log_result]

    def backward(dy, node):
        labels, log_result = node.x
        dy = reshape(dy, list(dy.shape) + [1])
        softmax = _ew.exp(log_result)
        return [_ew.mul(dy, _ew.sub(labels, softmax)), _ew.mul(dy, _ew.sub(softmax, labels))]

    (value,) = ENGINE.run_custom_gradient(forward, [labels, logits], backward)
    return value


@op
def softmax_cross_entropy(onehot_labels: TensorLike, logits: TensorLike, weights: Optional[TensorLike] = None,
                          label_smoothing: float = 0,
                          reduction: Reduction = Reduction.SUM_BY_NONZERO_WEIGHTS) -> Tensor:
    """Softmax cross-entropy over the last axis; weights apply per example.

    Args:
        onehot_labels: one-hot targets [..., classes].
        logits: the logits, of onehot_labels' shape.
        weights: weights per example (None: 1).
        label_smoothing: labels become labels * (1 - s) + s / classes.
        reduction: a tf.Reduction.

    Returns:
        A scalar Tensor (one loss per example with Reduction.NONE).

    Example:
        >>> tf.losses.softmax_cross_entropy(tf.tensor([[0, 1]]), tf.tensor([[0, 0]])).print()
        Tensor
            0.6931472
    """
    name = "softmax_cross_entropy"
    labels, logits = _pair(onehot_labels, logits, "onehot_labels", "logits", name)
    if logits.rank < 1:
        raise ValueError(f"{name}: argument 'logits' must have rank >= 1, got a scalar")
    # TF.js divides by shape[1], the number of classes for the [batch, classes] it expects.
    num_classes = labels.shape[1] if labels.rank > 1 else labels.shape[0]
    labels = _smoothed(labels, label_smoothing, 1.0 / num_classes if num_classes else 0.0, name)
    losses = _softmax_cross_entropy_with_logits(labels, logits)
    return _weighted(losses, _weights(weights, name), reduction, name)

