"""Planning an einsum (kernel Einsum): the equation parsed and checked against the operands' shapes,
and the decomposition every backend without an einsum of its own follows (ops/einsum.py describes
it and holds the kernel contract)."""
import re
from typing import NamedTuple

__all__ = ["EinsumPlan", "einsum_plan", "parse_equation"]

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
