"""Gradients: linalg. Einsum's gradient is an einsum: for y = einsum('ij,jk->ik', a, b),
da = einsum('ik,jk->ij', dy, b). In general the gradient of operand k contracts dy with the
other operands onto k's labels; a label only operand k has was summed away in the forward,
so dy does not vary along it and the gradient is broadcast along it."""
from .. import ops
from ..kernels import register_gradient
from ..kernels.einsum_plan import parse_equation


def _einsum_operand_grad(dy, terms, output, xs, k):
    others = [i for i in range(len(terms)) if i != k]
    seen = set(output).union(*(terms[i] for i in others))
    present = "".join(label for label in terms[k] if label in seen)
    equation = ",".join([output] + [terms[i] for i in others]) + "->" + present
    g = ops.einsum(equation, dy, *(xs[i] for i in others))
    if present != terms[k]:
        shape = xs[k].shape
        g = ops.broadcast_to(ops.reshape(g, [d if label in seen else 1 for label, d in zip(terms[k], shape)]),
                             shape)
    return g


@register_gradient("Einsum", save_inputs=True)
def _einsum_grad(dy, node):
    xs = node.x
    terms, output = parse_equation(node.attrs["equation"], len(xs))
    return [lambda k=k: _einsum_operand_grad(dy, terms, output, xs, k) for k in range(len(xs))]
