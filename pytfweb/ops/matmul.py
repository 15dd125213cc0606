"""Matrix products: mat_mul (kernel BatchMatMul), dot, outer_product.

Kernel contract: BatchMatMul takes a and b of the same dtype (float32 or int32), both of rank
>= 2, with broadcastable batch dimensions (all but the last two) and matching inner
dimensions; attrs {"transpose_a": bool, "transpose_b": bool}. Output shape:
broadcast(batch_a, batch_b) + [rows of op(a), columns of op(b)], dtype of the inputs.
"""
from ..core.dtypes import upcast
from ..core.tensor import Tensor
from ..core.types import TensorLike
from ..core.engine import ENGINE, op
from ..core.shapes import broadcast_shapes
from .creation import convert_to_tensor, refuse_complex
from .elementwise import cast

__all__ = ["mat_mul", "dot", "outer_product"]


def _matching_dtypes(a, b):
    """TF.js makeTypesMatch, with bool counted as int32 (a product of bools is a count)."""
    dtype = upcast(a.dtype, b.dtype)
    if dtype == "bool":
        dtype = "int32"
    return [t if t.dtype == dtype else cast(t, dtype) for t in (a, b)]


def _reshape(x, shape):
    # The Reshape kernel directly: tf.reshape lives in ops/shape.py, written in parallel.
    return ENGINE.run_kernel("Reshape", [x], {"shape": list(shape)})


@op
def mat_mul(a: TensorLike, b: TensorLike, transpose_a: bool = False, transpose_b: bool = False) -> Tensor:
    """The matrix product a @ b over the last two axes; leading (batch) axes broadcast.

    Args:
        a: a tensor of rank >= 2 (float32 or int32; bool counts as int32).
        b: a tensor of rank >= 2, its rows matching a's columns.
        transpose_a: multiply by a's transpose (of its last two axes).
        transpose_b: multiply by b's transpose.

    Returns:
        A Tensor of shape broadcast batch + (rows of a, columns of b), in the operands' dtype.

    Example:
        >>> a = tf.tensor([[1, 2], [3, 4]])
        >>> tf.mat_mul(a, tf.tensor([[1], [1]])).print()
        Tensor
            [[3],
             [7]]
        >>> (a @ a).print()
        Tensor
            [[7 , 10],
             [15, 22]]
    """
    name = "mat_mul"
    a = convert_to_tensor(a, "a", name)
    b = convert_to_tensor(b, "b", name)
    refuse_complex(a, "a", name)
    refuse_complex(b, "b", name)
    for arg, v in (("transpose_a", transpose_a), ("transpose_b", transpose_b)):
        if not isinstance(v, bool):
            raise TypeError(f"{name}: argument '{arg}' must be a bool, got {type(v).__name__}")
    for arg, t in (("a", a), ("b", b)):
        if t.rank < 2:
            raise ValueError(f"{name}: argument '{arg}' must have rank >= 2, got rank {t.rank} "
                             f"(shape {list(t.shape)}); use dot for vectors")
    inner_a = a.shape[-2] if transpose_a else a.shape[-1]
    inner_b = b.shape[-1] if transpose_b else b.shape[-2]
    if inner_a != inner_b:
        raise ValueError(f"{name}: inner dimensions of a {list(a.shape)} and b {list(b.shape)} must match "
                         f"(transpose_a={transpose_a}, transpose_b={transpose_b})")
    try:
        broadcast_shapes(a.shape[:-2], b.shape[:-2], name)
    except ValueError:
        raise ValueError(f"{name}: batch dimensions of a {list(a.shape)} and b {list(b.shape)} "
                         f"cannot be broadcast together") from None
    a, b = _matching_dtypes(a, b)
    return ENGINE.run_kernel("BatchMatMul", [a, b], {"transpose_a": transpose_a, "transpose_b": transpose_b})


@op
def dot(t1: TensorLike, t2: TensorLike) -> Tensor:
    """The dot product of two vectors or matrices (rank 1 or 2 each).

    Args:
        t1: a vector or matrix.
        t2: a vector or matrix whose first (or only) axis matches t1's last.

    Returns:
        A Tensor: a scalar for two vectors, else a vector or matrix.

    Example:
        >>> tf.dot(tf.tensor([1, 2, 3]), tf.tensor([4, 5, 6])).print()
        Tensor
            32
    """
    name = "dot"
    t1 = convert_to_tensor(t1, "t1", name)
    t2 = convert_to_tensor(t2, "t2", name)
    refuse_complex(t1, "t1", name)
    refuse_complex(t2, "t2", name)
    if t1.rank not in (1, 2) or t2.rank not in (1, 2):
        raise ValueError(f"{name}: arguments 't1' and 't2' must be of rank 1 or 2, got ranks {t1.rank} "
                         f"(shape {list(t1.shape)}) and {t2.rank} (shape {list(t2.shape)})")
    inner1 = t1.shape[-1]
    inner2 = t2.shape[0]
    if inner1 != inner2:
        raise ValueError(f"{name}: inner dimensions of t1 {list(t1.shape)} and t2 {list(t2.shape)} must match, "
                         f"got {inner1} and {inner2}")
    # Vectors become a row (t1) or a column (t2); the unit axes they add are dropped after.
    m = _reshape(t1, [1, inner1]) if t1.rank == 1 else t1
    n = _reshape(t2, [inner2, 1]) if t2.rank == 1 else t2
    product = mat_mul(m, n)
    out_shape = t1.shape[:-1] + t2.shape[1:]
    return product if t1.rank == t2.rank == 2 else _reshape(product, out_shape)


@op
def outer_product(v1: TensorLike, v2: TensorLike) -> Tensor:
    """The outer product of two vectors: the matrix of v1[i] * v2[j].

    Args:
        v1: a rank-1 tensor.
        v2: a rank-1 tensor.

    Returns:
        A Tensor of shape (len(v1), len(v2)) (bool for two bool vectors).

    Example:
        >>> tf.outer_product(tf.tensor([1, 2]), tf.tensor([3, 4, 5])).print()
        Tensor
            [[3, 4, 5 ],
             [6, 8, 10]]
    """
    name = "outer_product"
    v1 = convert_to_tensor(v1, "v1", name)
    v2 = convert_to_tensor(v2, "v2", name)
    refuse_complex(v1, "v1", name)
    refuse_complex(v2, "v2", name)
    if v1.rank != 1 or v2.rank != 1:
        raise ValueError(f"{name}: arguments 'v1' and 'v2' must be of rank 1, got ranks {v1.rank} "
                         f"(shape {list(v1.shape)}) and {v2.rank} (shape {list(v2.shape)})")
    out = mat_mul(_reshape(v1, [v1.size, 1]), _reshape(v2, [1, v2.size]))
    # TF.js: bool vectors give a bool matrix (each value a product of two bools)
    return cast(out, "bool") if v1.dtype == v2.dtype == "bool" else out
