"""tf.einsum: tensor contraction by an equation such as 'ij,jk->ik' (kernel Einsum).

Kernel contract: Einsum takes one or more tensors of one dtype (float32 or int32) and attrs
{"equation": the equation without whitespace}, already checked against the tensors' shapes by
`einsum_plan`. Output: the shape of the output subscripts, the inputs' dtype. bool operands
are counted as int32 and, as in TF.js, the result is bool again where no label is summed.

TF.js's subset: an explicit '->', subscripts are letters, no '...', no label repeated within
one term. Beyond TF.js, any number of operands is accepted (TF.js stops at two), and terms
that share no label with a summed axis still count ('i,j->i' sums over j and multiplies by
x[i]; TF.js 4.22 drops that operand).

The decomposition every backend that has no einsum of its own follows (webgl does; the
gradient in gradients/linalg.py is written with einsum itself):
  1. every operand is transposed so that its labels follow `labels` (the output's labels
     first, then the summed ones in order of first appearance) and reshaped with unit axes
     for the labels it lacks, so that all operands broadcast against one another;
  2. they are multiplied together;
  3. the product is summed over the trailing (summed) axes.
"""
import re
from typing import NamedTuple

from ..dtypes import upcast
from ..engine import ENGINE, op
from .creation import convert_to_tensor
from .elementwise import cast

__all__ = ["einsum"]

_LABELS = re.compile(r"[A-Za-z]*")


class EinsumPlan(NamedTuple):
    terms: tuple        # input subscripts, one string per operand
    output: str         # output subscripts
    labels: str         # every label: the output's, then the summed ones
    perms: tuple        # per operand: the transpose putting its axes in `labels` order
    shapes: tuple       # per operand: its shape after the transpose, with unit axes added
    sizes: dict         # label -> size
    out_shape: tuple

    @property
    def summed_axes(self):
        return list(range(len(self.output), len(self.labels)))


def parse_equation(equation, num_tensors, op_name="einsum"):
    """(input terms, output term) of an equation; ValueError naming the op otherwise."""
    if not isinstance(equation, str):
        raise TypeError(f"{op_name}: argument 'equation' must be a str, got {type(equation).__name__}")
    eq = re.sub(r"\s", "", equation)
    if eq.count("->") != 1:
        raise ValueError(f"{op_name}: argument 'equation' must contain exactly one arrow ('->'), got {equation!r}")
    if "..." in eq:
        raise ValueError(f"{op_name}: the ellipsis notation ('...') is not supported, got {equation!r}")
    inputs, output = eq.split("->")
    terms = inputs.split(",")
    for term in terms + [output]:
        if not _LABELS.fullmatch(term):
            raise ValueError(f"{op_name}: subscripts in argument 'equation' must be letters, got {term!r} "
                             f"in {equation!r}")
        if len(set(term)) != len(term):
            raise ValueError(f"{op_name}: repeated subscripts in one term ({term!r} in {equation!r}) "
                             "are not supported")
    if len(terms) != num_tensors:
        raise ValueError(f"{op_name}: argument 'equation' {equation!r} has {len(terms)} input term(s) "
                         f"but {num_tensors} tensor(s) were given")
    missing = [label for label in output if not any(label in t for t in terms)]
    if missing:
        raise ValueError(f"{op_name}: output subscript(s) {''.join(missing)!r} of {equation!r} appear in no input")
    return tuple(terms), output


def einsum_plan(equation, shapes, op_name="einsum"):
    """How to compute an einsum of operands of these shapes (see the module docstring)."""
    terms, output = parse_equation(equation, len(shapes), op_name)
    sizes = {}
    for k, (term, shape) in enumerate(zip(terms, shapes)):
        if len(term) != len(shape):
            raise ValueError(f"{op_name}: term {term!r} of the equation has {len(term)} subscript(s) but "
                             f"tensors[{k}] has rank {len(shape)} (shape {list(shape)})")
        for label, d in zip(term, shape):
            if sizes.setdefault(label, d) != d:
                raise ValueError(f"{op_name}: subscript {label!r} has size {sizes[label]} in one operand and "
                                 f"{d} in tensors[{k}] (shape {list(shape)})")
    labels = output + "".join(dict.fromkeys(label for t in terms for label in t if label not in output))
    perms = tuple(tuple(t.index(label) for label in labels if label in t) for t in terms)
    expanded = tuple(tuple(sizes[label] if label in t else 1 for label in labels) for t in terms)
    return EinsumPlan(terms, output, labels, perms, expanded, sizes, tuple(sizes[label] for label in output))


def _common_dtype(tensors):
    """One dtype for every operand (TF.js upcasting; a product of bools counts as int32)."""
    dtype = "bool"
    for t in tensors:
        dtype = upcast(dtype, t.dtype)
    if dtype == "bool":
        dtype = "int32"
    return [t if t.dtype == dtype else cast(t, dtype) for t in tensors]


@op
def einsum(equation, *tensors):
    """tf.einsum(equation, *tensors): e.g. einsum('ij,jk->ik', a, b) is a matrix product,
    einsum('bij->bji', x) a batched transpose, einsum('i,i->', u, v) a dot product."""
    name = "einsum"
    if not tensors:
        raise ValueError(f"{name}: at least one tensor is needed after argument 'equation'")
    xs = [convert_to_tensor(t, f"tensors[{i}]", name) for i, t in enumerate(tensors)]
    plan = einsum_plan(equation, [x.shape for x in xs], name)   # validates; kernels plan again
    out = ENGINE.run_kernel("Einsum", _common_dtype(xs), {"equation": re.sub(r"\s", "", equation)})
    if not plan.summed_axes and all(x.dtype == "bool" for x in xs):
        out = cast(out, "bool")   # TF.js: products of bools stay bool; only sums count as int32
    return out
