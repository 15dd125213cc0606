"""tf.einsum: tensor contraction by an equation such as 'ij,jk->ik' (kernel Einsum).

Kernel contract: Einsum takes one or more tensors of one dtype (float32 or int32) and attrs
{"equation": the equation without whitespace}, already checked against the tensors' shapes by
`einsum_plan` (kernels/einsum_plan.py). Output: the shape of the output subscripts, the inputs'
dtype. bool operands are counted as int32 and, as in TF.js, the result is bool again where no
label is summed.

TF.js's subset: an explicit '->', subscripts are letters, no '...', no label repeated within
one term. Beyond TF.js, any number of operands is accepted (TF.js stops at two), and terms
that share no label with a summed axis still count ('i,j->i' sums over j and multiplies by
x[i]; TF.js 4.22 drops that operand).

The decomposition (planned by kernels/einsum_plan.py) every backend that has no einsum of its own
follows (webgl does; the gradient in gradients/linalg.py is written with einsum itself):
  1. every operand is transposed so that its labels follow `labels` (the output's labels
     first, then the summed ones in order of first appearance) and reshaped with unit axes
     for the labels it lacks, so that all operands broadcast against one another;
  2. they are multiplied together;
  3. the product is summed over the trailing (summed) axes.
"""
import re

from ..core.dtypes import upcast
from ..core.engine import ENGINE, op
from ..kernels.einsum_plan import einsum_plan
from ..core.tensor import Tensor
from ..core.types import TensorLike
from .creation import convert_to_tensor
from .creation import cast

__all__ = ["einsum"]


def _common_dtype(tensors):
    """One dtype for every operand (TF.js upcasting; a product of bools counts as int32)."""
    dtype = "bool"
    for t in tensors:
        dtype = upcast(dtype, t.dtype)
    if dtype == "bool":
        dtype = "int32"
    return [t if t.dtype == dtype else cast(t, dtype) for t in tensors]


@op
def einsum(equation: str, *tensors: TensorLike) -> Tensor:
    """Einstein summation, as TF.js's einsum (two operands at most, no ellipsis).

    einsum('ij,jk->ik', a, b) is a matrix product, einsum('bij->bji', x) a batched transpose,
    einsum('i,i->', u, v) a dot product.

    Args:
        equation: the subscripts of each operand, '->', then those of the result.
        *tensors: the operands.

    Returns:
        A new Tensor.

    Example:
        >>> tf.einsum("i,i->", tf.tensor([1, 2, 3]), tf.tensor([4, 5, 6])).print()
        Tensor
            32
    """
    name = "einsum"
    if not tensors:
        raise ValueError(f"{name}: at least one tensor is needed after argument 'equation'")
    xs = [convert_to_tensor(t, f"tensors[{i}]", name) for i, t in enumerate(tensors)]
    plan = einsum_plan(equation, [x.shape for x in xs], name)   # validates; kernels plan again
    out = ENGINE.run_kernel("Einsum", _common_dtype(xs), {"equation": re.sub(r"\s", "", equation)})
    if not plan.summed_axes and all(x.dtype == "bool" for x in xs):
        out = cast(out, "bool")   # TF.js: products of bools stay bool; only sums count as int32
    return out
