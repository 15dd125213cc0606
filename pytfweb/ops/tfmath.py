"""tf.math, TF.js's math namespace: confusion_matrix, a composite of one_hot and mat_mul as in
TF.js (so it runs on every backend)."""
from ..core.engine import op
from ..core.limits import check_elements
from .creation import convert_to_tensor
from .creation import cast
from .matmul import mat_mul
from .nn import one_hot
from .shape import transpose

__all__ = ["confusion_matrix"]


@op
def confusion_matrix(labels, predictions, num_classes):
    """tf.math.confusion_matrix: the int32 [num_classes, num_classes] matrix counting, at
    [i, j], the examples of label i predicted as j. labels and predictions are vectors of one
    length (float values are truncated to int32, as TF.js casts them); a value outside
    [0, num_classes) is not counted."""
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
    one_hot_labels = one_hot(cast(labels, "int32"), num_classes)
    one_hot_predictions = one_hot(cast(predictions, "int32"), num_classes)
    return mat_mul(transpose(one_hot_labels), one_hot_predictions)
