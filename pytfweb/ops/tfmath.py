"""tf.math, TF.js's math namespace: confusion_matrix, a composite of one_hot and mat_mul as in
TF.js (so it runs on every backend)."""
from ..core.engine import op
from ..core.tensor import Tensor
from ..core.types import TensorLike
from ..core.limits import check_elements
from .creation import convert_to_tensor
from .creation import cast
from .matmul import mat_mul
from .nn import one_hot_any_depth
from .shape import transpose

__all__ = ["confusion_matrix"]


@op
def confusion_matrix(labels: TensorLike, predictions: TensorLike, num_classes: int) -> Tensor:
    """The confusion matrix: at [i, j], the number of examples of label i predicted as j.

    Args:
        labels: a vector of class indices (float values are truncated to int).
        predictions: a vector of class indices of labels' length.
        num_classes: the number of classes.

    Returns:
        An int32 Tensor [num_classes, num_classes].

    Example:
        >>> labels = tf.tensor([0, 1, 1], dtype="int32")
        >>> tf.math.confusion_matrix(labels, tf.tensor([0, 1, 0], dtype="int32"), 2).print()
        Tensor
            [[1, 0],
             [1, 1]]
    """
    name = "confusion_matrix"
    labels = convert_to_tensor(labels, "labels", name)
    predictions = convert_to_tensor(predictions, "predictions", name)
    if isinstance(num_classes, bool) or not hasattr(num_classes, "__index__") and not (
            isinstance(num_classes, float) and num_classes.is_integer()):
        raise TypeError(f"{name}: argument 'num_classes' must be a positive int, got {num_classes!r}")
    num_classes = int(num_classes)
    if num_classes < 1:
        raise ValueError(f"{name}: argument 'num_classes' must be a positive int, got {num_classes}")
    check_elements((num_classes, num_classes), f"{name}: argument 'num_classes'")
    for arg, t in (("labels", labels), ("predictions", predictions)):
        if t.rank != 1:
            raise ValueError(f"{name}: argument '{arg}' must have rank 1, got shape {list(t.shape)}")
    if labels.shape[0] != predictions.shape[0]:
        raise ValueError(f"{name}: 'labels' and 'predictions' must have as many values, got "
                         f"{labels.shape[0]} and {predictions.shape[0]}")
    one_hot_labels = one_hot_any_depth(cast(labels, "int32"), num_classes)
    one_hot_predictions = one_hot_any_depth(cast(predictions, "int32"), num_classes)
    return mat_mul(transpose(one_hot_labels), one_hot_predictions)
