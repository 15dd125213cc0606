"""Gradient of BatchMatMul (attrs as in the contract of ops/matmul.py), as TF.js's: for
y = op(a) @ op(b), with op a transpose or not,

  transpose_a  transpose_b   d/da                 d/db
  False        False         dy @ b^T             a^T @ dy
  False        True          dy @ b               dy^T @ a
  True         False         b @ dy^T             a @ dy
  True         True          b^T @ dy^T           dy^T @ a^T

then summed over the batch axes along which that operand was broadcast (TF.js 4.x broadcasts
batch axes in the product but not in its gradient). Both operands are kept on the tape; each
product is computed only for an operand that wants a gradient.
"""
from .. import ops
from ..kernels import register_gradient
from ._util import unbroadcast


# (transpose_a, transpose_b) -> (d/da, d/db), each fn(dy, a, b), as in the table above.
GRADS = {
    (False, False): (lambda dy, a, b: ops.mat_mul(dy, b, False, True),
                     lambda dy, a, b: ops.mat_mul(a, dy, True, False)),
    (False, True): (lambda dy, a, b: ops.mat_mul(dy, b, False, False),
                    lambda dy, a, b: ops.mat_mul(dy, a, True, False)),
    (True, False): (lambda dy, a, b: ops.mat_mul(b, dy, False, True),
                    lambda dy, a, b: ops.mat_mul(a, dy, False, False)),
    (True, True): (lambda dy, a, b: ops.mat_mul(b, dy, True, True),
                   lambda dy, a, b: ops.mat_mul(dy, a, True, True)),
}


@register_gradient("BatchMatMul", save_inputs=True)
def _batch_mat_mul_grad(dy, node):
    a, b = node.x
    shape_a, shape_b = node.input_shapes
    d_a, d_b = GRADS[node.attrs["transpose_a"], node.attrs["transpose_b"]]
    return [lambda: unbroadcast(d_a(dy, a, b), shape_a),
            lambda: unbroadcast(d_b(dy, a, b), shape_b)]
