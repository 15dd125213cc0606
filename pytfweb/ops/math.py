"""Math ops beyond the elementwise tables: prelu, add_n, cumsum, cumprod, norm, euclidean_norm,
bincount, dense_bincount.

Kernel contracts (every backend):
  Prelu          [x, alpha] float32, broadcast together; output float32
  AddN           n >= 1 tensors of one shape and dtype (float32 or int32); output that dtype
  Cumsum/Cumprod [x] of rank >= 1, float32 or int32; attrs {"axis": int in [0, rank),
                 "exclusive": bool, "reverse": bool}; output x's shape and dtype
  Bincount       [x int32 (any shape), weights (x's size, or empty)]; attrs {"size": int >= 0};
                 output [size] of weights' dtype
  DenseBincount  as Bincount, x of rank 1 or 2 (rank 2: one count per row, output
                 [rows, size]); attrs {"size", "binary_output": bool}
Negative values of x are an error on the cpu backend (as TF.js's); the webgl backend counts in
a shader, which cannot raise, and skips them.
norm and euclidean_norm are composites of abs, square, sum, max, min and sqrt, as in TF.js.
"""
import math

from typing import Sequence, Union

from ..core.dtypes import sum_out_type
from ..core.engine import ENGINE, op
from ..core.tensor import Tensor
from ..core.types import Axis, TensorLike
from ..core.limits import check_elements
from ..core.shapes import normalize_axis
from . import elementwise as ew, reduction, shape
from .creation import convert_to_tensor, refuse_complex
from .creation import cast
from .elementwise import binary_operands

__all__ = ["prelu", "add_n", "cumsum", "cumprod", "norm", "euclidean_norm", "bincount", "dense_bincount"]


def _float(t):
    return t if t.dtype == "float32" else cast(t, "float32")


def _check_bool(value, op_name, arg):
    if not isinstance(value, bool):
        raise TypeError(f"{op_name}: argument '{arg}' must be a bool, got {type(value).__name__}")


# --- prelu, add_n ------------------------------------------------------------------------------

@op
def prelu(x: TensorLike, alpha: TensorLike) -> Tensor:
    """Parametric ReLU: x where x >= 0, alpha * x where x < 0.

    Args:
        x: the input tensor (or a value converted to one).
        alpha: the slope for negative values; broadcasts against x.

    Returns:
        A float32 Tensor of x's shape.

    Example:
        >>> tf.prelu(tf.tensor([-2, 3]), tf.scalar(0.5)).print()
        Tensor
            [-1, 3]
    """
    x = convert_to_tensor(x, "x", "prelu")
    alpha = convert_to_tensor(alpha, "alpha", "prelu")
    x, alpha, _ = binary_operands("prelu", "float", x, alpha)   # broadcast check, float32 casts
    return ENGINE.run_kernel("Prelu", [x, alpha])


@op
def add_n(tensors: Sequence[TensorLike]) -> Tensor:
    """The elementwise sum of a list of tensors of one shape and dtype (bool counts as int32).

    Args:
        tensors: the tensors to add.

    Returns:
        A Tensor of their shape.

    Example:
        >>> tf.add_n([tf.tensor([1, 2]), tf.tensor([3, 4]), tf.tensor([5, 6])]).print()
        Tensor
            [9, 12]
    """
    if not isinstance(tensors, (list, tuple)):
        raise TypeError(f"add_n: argument 'tensors' must be a list of tensors, got {type(tensors).__name__}")
    if not tensors:
        raise ValueError("add_n: argument 'tensors' must hold at least one tensor, got an empty list")
    ts = [convert_to_tensor(t, f"tensors[{i}]", "add_n") for i, t in enumerate(tensors)]
    first = ts[0]
    for i, t in enumerate(ts):
        if t.dtype != first.dtype:
            raise TypeError(f"add_n: all tensors must have the same dtype; tensors[0] is {first.dtype}, "
                            f"tensors[{i}] is {t.dtype}")
        if t.shape != first.shape:
            raise ValueError(f"add_n: all tensors must have the same shape; tensors[0] is {list(first.shape)}, "
                             f"tensors[{i}] is {list(t.shape)}")
    if first.dtype == "bool":
        ts = [cast(t, "int32") for t in ts]
    return ENGINE.run_kernel("AddN", ts)


# --- cumulative sums and products --------------------------------------------------------------

def _cumulative(kernel, op_name, x, axis, exclusive, reverse):
    x = convert_to_tensor(x, "x", op_name)
    if kernel == "Cumprod":
        refuse_complex(x, "x", op_name)
    if x.rank == 0:
        raise ValueError(f"{op_name}: argument 'x' must have rank >= 1, got a rank-0 tensor")
    axis = normalize_axis(axis, x.rank, op_name)
    _check_bool(exclusive, op_name, "exclusive")
    _check_bool(reverse, op_name, "reverse")
    dtype = sum_out_type(x.dtype)   # bool counts as int32 (TF.js: upcastType(dtype, 'int32'))
    if dtype != x.dtype:
        x = cast(x, dtype)
    return ENGINE.run_kernel(kernel, [x], {"axis": axis, "exclusive": exclusive, "reverse": reverse})


@op
def cumsum(x: TensorLike, axis: int = 0, exclusive: bool = False, reverse: bool = False) -> Tensor:
    """Running sums along an axis.

    Args:
        x: the tensor (or a value converted to one).
        axis: the axis to sum along.
        exclusive: leave each value out of its own sum (the first sum is 0).
        reverse: sum from the end.

    Returns:
        A Tensor of x's shape.

    Example:
        >>> tf.cumsum(tf.tensor([1, 2, 3, 4])).print()
        Tensor
            [1, 3, 6, 10]
        >>> tf.cumsum(tf.tensor([1, 2, 3, 4]), exclusive=True, reverse=True).print()
        Tensor
            [9, 7, 4, 0]
    """
    return _cumulative("Cumsum", "cumsum", x, axis, exclusive, reverse)


@op
def cumprod(x: TensorLike, axis: int = 0, exclusive: bool = False, reverse: bool = False) -> Tensor:
    """Running products along an axis.

    Args:
        x: the tensor (or a value converted to one).
        axis: the axis to multiply along.
        exclusive: leave each value out of its own product (the first product is 1).
        reverse: multiply from the end.

    Returns:
        A Tensor of x's shape.

    Example:
        >>> tf.cumprod(tf.tensor([1, 2, 3, 4])).print()
        Tensor
            [1, 2, 6, 24]
    """
    return _cumulative("Cumprod", "cumprod", x, axis, exclusive, reverse)


# --- norms -----------------------------------------------------------------------------------------

_VECTOR_ORDS = ("euclidean", 1, 2, math.inf, -math.inf)
_MATRIX_ORDS = ("euclidean", "fro", 1, math.inf, -math.inf)


def _norm_axes(axis, rank):
    """None, or a list of one or two distinct non-negative axes (in the caller's order)."""
    if axis is None:
        return None
    axes = list(axis) if isinstance(axis, (list, tuple)) else [axis]
    if not 1 <= len(axes) <= 2:
        raise ValueError(f"norm: argument 'axis' must be an int or a list of one or two ints, got {axis!r}")
    axes = [normalize_axis(a, rank, "norm") for a in axes]
    if len(axes) == 2 and axes[0] == axes[1]:
        raise ValueError(f"norm: argument 'axis' has repeated axes: {axis!r}")
    return axes


def _check_ord(ord, allowed, what):
    if isinstance(ord, bool) or ord not in allowed:
        raise ValueError(f"norm: argument 'ord' = {ord!r} is not a {what} norm; expected one of "
                         f"{', '.join(map(repr, allowed))}")


def _vector_norm(x, ord, axis):
    _check_ord(ord, _VECTOR_ORDS, "vector")
    if ord == 1:
        return reduction.sum(ew.abs(x), axis)
    if ord == math.inf:
        return reduction.max(ew.abs(x), axis)
    if ord == -math.inf:
        return reduction.min(ew.abs(x), axis)
    return _sqrt(reduction.sum(ew.square(x), axis))   # TF.js: pow(abs(x), 2), the same values


def _sqrt(x):
    # TF.js's sqrt takes float32 tensors only, so its euclidean norms of int32 tensors fail
    if x.dtype != "float32":
        raise TypeError(f"norm: the euclidean norm needs a float32 tensor (TF.js's sqrt refuses others), "
                        f"got {x.dtype}")
    return ew.sqrt(x)


def _matrix_norm(x, ord, rows, cols):
    """numpy's matrix norms over axes (rows, cols): 1 is the largest column sum of |x|, inf the
    largest row sum (TF.js's formulas, with the axis left after the first reduction adjusted)."""
    _check_ord(ord, _MATRIX_ORDS, "matrix")
    if ord in ("euclidean", "fro"):
        return _sqrt(reduction.sum(ew.square(x), [rows, cols]))
    if ord == 1:
        return reduction.max(reduction.sum(ew.abs(x), rows), cols - (cols > rows))
    extreme = reduction.max if ord == math.inf else reduction.min
    return extreme(reduction.sum(ew.abs(x), cols), rows - (rows > cols))


@op
def norm(x: TensorLike, ord: Union[str, float] = "euclidean",  # noqa: A002
         axis: Axis = None, keep_dims: bool = False) -> Tensor:
    """A vector or matrix norm.

    Over all values or one axis: a vector norm (ord 'euclidean', 1, 2, inf, -inf); over two axes: a
    matrix norm (ord 'euclidean' or 'fro', 1, inf, -inf).

    Args:
        x: the tensor (or a value converted to one).
        ord: the norm's order.
        axis: None (all values as one vector), an axis, or two axes (a matrix norm).
        keep_dims: keep each reduced axis with length 1.

    Returns:
        A float32 Tensor.

    Example:
        >>> tf.norm(tf.tensor([3, 4])).print()
        Tensor
            5
        >>> tf.norm(tf.tensor([3, -4]), 1).print()
        Tensor
            7
    """
    x = convert_to_tensor(x, "x", "norm")
    _check_bool(keep_dims, "norm", "keep_dims")
    axes = _norm_axes(axis, x.rank)
    if x.rank == 0:
        result = ew.abs(x)
    elif axes is None:
        result = _vector_norm(shape.reshape(x, [-1]), ord, None)
    elif len(axes) == 1:
        result = _vector_norm(x, ord, axes[0])
    else:
        result = _matrix_norm(x, ord, *axes)
    if keep_dims:
        reduced = range(x.rank) if axes is None else axes
        result = shape.reshape(result, [1 if i in reduced else d for i, d in enumerate(x.shape)])
    return result


def euclidean_norm(x: TensorLike, axis: Axis = None, keep_dims: bool = False) -> Tensor:
    """The Euclidean norm, sqrt(sum(x ** 2)), over axes (tf.norm(x, 'euclidean', axis, keep_dims)).

    Args:
        x: the tensor (or a value converted to one).
        axis: the axis or axes to reduce (None: all of them).
        keep_dims: keep each reduced axis with length 1.

    Returns:
        A float32 Tensor.

    Example:
        >>> tf.euclidean_norm(tf.tensor([[3, 4], [6, 8]]), 1).print()
        Tensor
            [5, 10]
    """
    return norm(x, "euclidean", axis, keep_dims)


# --- bincount ------------------------------------------------------------------------------------

def _bincount_inputs(op_name, x, weights, size):
    x = convert_to_tensor(x, "x", op_name, "int32")
    weights = convert_to_tensor(weights, "weights", op_name)
    if x.dtype != "int32":
        raise TypeError(f"{op_name}: argument 'x' must be an int32 tensor, got {x.dtype}")
    if isinstance(size, bool) or not hasattr(size, "__index__"):
        raise TypeError(f"{op_name}: argument 'size' must be an int, got {type(size).__name__}")
    size = size.__index__()
    if size < 0:
        raise ValueError(f"{op_name}: argument 'size' must be non-negative, got {size}")
    check_elements((x.shape[0] if op_name == "dense_bincount" and x.rank == 2 else 1, size),
                   f"{op_name}: argument 'size'")
    if weights.size not in (0, x.size):
        raise ValueError(f"{op_name}: argument 'weights' must have as many values as 'x' ({x.size}) or none, "
                         f"got shape {list(weights.shape)}")
    if weights.dtype == "bool":
        raise TypeError(f"{op_name}: argument 'weights' must be a float32 or int32 tensor, got bool")
    return x, weights, size


@op
def bincount(x: TensorLike, weights: TensorLike, size: int) -> Tensor:
    """out[i] = the sum of weights where x == i (the count, if weights is empty), for i < size.

    Values of x at or above size are ignored.

    Args:
        x: an int32 vector of non-negative values.
        weights: weights of x's shape, or an empty tensor to count.
        size: the length of the result.

    Returns:
        A Tensor of shape (size,) in weights' dtype.

    Example:
        >>> x = tf.tensor([1, 1, 3], dtype="int32")
        >>> tf.bincount(x, tf.tensor([]), 4).print()
        Tensor
            [0, 2, 0, 1]
    """
    x, weights, size = _bincount_inputs("bincount", x, weights, size)
    return ENGINE.run_kernel("Bincount", [x, weights], {"size": size})


@op
def dense_bincount(x: TensorLike, weights: TensorLike, size: int, binary_output: bool = False) -> Tensor:
    """bincount of a vector, or of each row of a matrix.

    Args:
        x: an int32 vector or matrix of non-negative values.
        weights: weights of x's shape, or an empty tensor to count.
        size: the length of each result row.
        binary_output: 1 where a value occurs instead of counts or sums.

    Returns:
        A Tensor [size] or [rows, size].

    Example:
        >>> x = tf.tensor([[0, 0], [1, 2]], dtype="int32")
        >>> tf.dense_bincount(x, tf.tensor([]), 3).print()
        Tensor
            [[2, 0, 0],
             [0, 1, 1]]
    """
    x, weights, size = _bincount_inputs("dense_bincount", x, weights, size)
    if x.rank not in (1, 2):
        raise ValueError(f"dense_bincount: argument 'x' must have rank 1 or 2, got rank {x.rank}")
    _check_bool(binary_output, "dense_bincount", "binary_output")
    if weights.size and weights.shape != x.shape:
        raise ValueError(f"dense_bincount: argument 'weights' must have the shape of 'x' ({list(x.shape)}) "
                         f"or be empty, got {list(weights.shape)}")
    return ENGINE.run_kernel("DenseBincount", [x, weights], {"size": size, "binary_output": binary_output})
