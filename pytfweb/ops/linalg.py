"""tf.linalg: band_part, gram_schmidt, qr, composites of differentiable ops as in TF.js (so
they run, and have gradients, on every backend)."""
from typing import List, Sequence, Union

from ..core.types import TensorLike
from ..core.engine import ENGINE, op
from ..core.tensor import Tensor
from . import elementwise as _ew
from .creation import convert_to_tensor, eye, range as _range, scalar, tensor2d, zeros_like
from .elementwise import where
from .matmul import mat_mul
from .reduction import sum as _sum
from .shape import concat, reshape, split, squeeze, stack, transpose, unstack
from .slicing import slice as _slice

__all__ = ["band_part", "gram_schmidt", "qr"]


def _band_limit(v, size, name, arg, axis_name):
    """A band's reach as an int32 scalar tensor: negative means the whole matrix."""
    if isinstance(v, Tensor):
        v.throw_if_disposed(name)
        if v.dtype != "int32" or v.rank != 0:
            raise TypeError(f"{name}: argument '{arg}' must be an int or an int32 scalar tensor, "
                            f"got a {v.dtype} tensor of shape {list(v.shape)}")
        return where(_ew.less(v, 0), scalar(size, "int32"), _ew.minimum(v, scalar(size, "int32")))
    if isinstance(v, bool) or not hasattr(v, "__index__"):
        raise TypeError(f"{name}: argument '{arg}' must be an int, got {v!r}")
    v = v.__index__()
    if v > size:
        raise ValueError(f"{name}: argument '{arg}' ({v}) must not be greater than the number of "
                         f"{axis_name} ({size})")
    return scalar(size if v < 0 else v, "int32")


@op
def band_part(a: TensorLike, num_lower: int, num_upper: int) -> Tensor:
    """The band of each innermost matrix: num_lower diagonals below the main one and num_upper above
    kept, the rest zeroed.

    Args:
        a: a tensor of rank >= 2.
        num_lower: diagonals kept below the main one (negative: all).
        num_upper: diagonals kept above the main one (negative: all).

    Returns:
        A Tensor of a's shape.

    Example:
        >>> tf.linalg.band_part(tf.ones([3, 3]), 0, 1).print()
        Tensor
            [[1, 1, 0],
             [0, 1, 1],
             [0, 0, 1]]
    """
    name = "band_part"
    a = convert_to_tensor(a, "a", name)
    if a.rank < 2:
        raise ValueError(f"{name}: argument 'a' must have rank >= 2, got rank {a.rank} (shape {list(a.shape)})")
    m, n = a.shape[-2:]
    lower = _band_limit(num_lower, m, name, "num_lower", "rows")
    upper = _band_limit(num_upper, n, name, "num_upper", "columns")
    # i - j for every (row i, column j): in the band when -num_upper <= i - j <= num_lower.
    offsets = _ew.sub(reshape(_range(0, m, 1, "int32"), [m, 1]), _range(0, n, 1, "int32"))
    in_band = _ew.logical_and(_ew.less_equal(offsets, lower), _ew.greater_equal(offsets, _ew.neg(upper)))
    return where(in_band, a, zeros_like(a))


def _norm(x):
    """The Euclidean norm of all of x's values, a scalar."""
    return _ew.sqrt(_sum(_ew.square(x)))


def _vectors(xs, name):
    """gram_schmidt's input as a list of 1D float32 tensors of one length."""
    if isinstance(xs, (list, tuple)):
        if not xs:
            raise ValueError(f"{name}: argument 'xs' must not be empty")
        vs = [convert_to_tensor(x, f"xs[{i}]", name) for i, x in enumerate(xs)]
        for i, v in enumerate(vs):
            if v.rank != 1:
                raise ValueError(f"{name}: argument 'xs' must hold 1D tensors, got shape {list(v.shape)} at xs[{i}]")
            if v.shape != vs[0].shape:
                raise ValueError(f"{name}: argument 'xs' must hold 1D tensors of one length, got length "
                                 f"{v.shape[0]} at xs[{i}] and {vs[0].shape[0]} at xs[0]")
    else:
        x = convert_to_tensor(xs, "xs", name)
        if x.rank != 2:
            raise ValueError(f"{name}: argument 'xs' must be a 2D tensor or a list of 1D tensors, got shape "
                             f"{list(x.shape)}")
        vs = [squeeze(v, [0]) for v in split(x, x.shape[0], 0)] if x.shape[0] else []
        if not vs:
            raise ValueError(f"{name}: argument 'xs' must hold at least one vector")
    if len(vs) > vs[0].shape[0]:
        raise ValueError(f"{name}: the number of vectors ({len(vs)}) exceeds their length ({vs[0].shape[0]})")
    for v in vs:
        if v.dtype != "float32":   # TF.js: its norm's sqrt takes float32 tensors only
            raise TypeError(f"{name}: argument 'xs' must hold float32 values, got {v.dtype}")
    return vs


@op
def gram_schmidt(xs: Union[TensorLike, Sequence[TensorLike]]) -> Union[Tensor, List[Tensor]]:
    """Orthonormalise vectors, in order, by the classical Gram-Schmidt process.

    Args:
        xs: a 2D tensor (its rows) or a list of 1D tensors.

    Returns:
        A 2D Tensor, or a list of 1D Tensors, as given.

    Example:
        >>> tf.linalg.gram_schmidt(tf.tensor([[3, 4], [1, 0]])).print()
        Tensor
            [[0.6, 0.8 ],
             [0.8, -0.6]]
    """
    name = "gram_schmidt"
    vs = _vectors(xs, name)
    ys = []
    for x in vs:
        for y in ys:
            x = _ew.sub(x, _ew.mul(_sum(_ew.mul(y, x)), y))
        ys.append(_ew.div(x, _norm(x)))
    return ys if isinstance(xs, (list, tuple)) else stack(ys, 0)


def _householder_step(q, r, j, m, n):
    """One Householder reflection H = I - tau w w^T zeroing r[j+1:, j]: (r, q) := (H r, q H)."""
    one = tensor2d([[1.0]])
    column = _slice(r, [j, j], [m - j, 1])
    norm = _norm(column)
    rjj = _slice(r, [j, j], [1, 1])
    # -sign(rjj), with 0 counted as positive: sign() would divide by 0 below.
    s = where(_ew.greater(rjj, 0.0), tensor2d([[-1.0]]), one)
    u1 = _ew.sub(rjj, _ew.mul(s, norm))
    w_pre = _ew.div(column, u1)
    w = one if m - j == 1 else concat([one, _slice(w_pre, [1, 0], [m - j - 1, 1])], 0)
    tau = _ew.neg(_ew.div(mat_mul(s, u1), norm))
    tau_w = _ew.mul(tau, w)
    rows = _slice(r, [j, 0], [m - j, n])
    reflected = _ew.sub(rows, mat_mul(tau_w, mat_mul(transpose(w), rows)))
    r = reflected if j == 0 else concat([_slice(r, [0, 0], [j, n]), reflected], 0)
    cols = _slice(q, [0, j], [m, q.shape[1] - j])
    reflected = _ew.sub(cols, mat_mul(mat_mul(cols, w), transpose(tau_w)))
    q = reflected if j == 0 else concat([_slice(q, [0, 0], [m, j]), reflected], 1)
    return q, r


def _qr2d(x, full_matrices):
    m, n = x.shape
    q, r = eye(m), x
    for j in range(min(m, n)):
        # Each step in its own scope, and the previous q and r disposed (never x itself), so a
        # long loop holds only the current ones (the tape keeps what gradients need).
        new_q, new_r = ENGINE.tidy(lambda q=q, r=r, j=j: _householder_step(q, r, j, m, n))
        for old in (q, r):
            if old is not x:
                old.dispose()
        q, r = new_q, new_r
    if not full_matrices and m > n:
        q, r = _slice(q, [0, 0], [m, n]), _slice(r, [0, 0], [n, n])
    return q, r


@op
def qr(x: TensorLike, full_matrices: bool = False) -> List[Tensor]:
    """The QR decomposition x = q @ r of each innermost matrix, by Householder reflections (TF.js's
    algorithm).

    Args:
        x: a tensor of rank >= 2, [..., m, n].
        full_matrices: q is m x m and r m x n (else, when m > n, q is m x n and r n x n).

    Returns:
        [q, r].

    Example:
        >>> q, r = tf.linalg.qr(tf.tensor([[1, 2], [3, 4]]))
        >>> q.shape, r.shape
        ((2, 2), (2, 2))
    """
    name = "qr"
    x = convert_to_tensor(x, "x", name)
    if x.rank < 2:
        raise ValueError(f"{name}: argument 'x' must have rank >= 2, got rank {x.rank} (shape {list(x.shape)})")
    if not isinstance(full_matrices, bool):
        raise TypeError(f"{name}: argument 'full_matrices' must be a bool, got {type(full_matrices).__name__}")
    if x.dtype != "float32":   # TF.js: its norm's sqrt takes float32 tensors only
        raise TypeError(f"{name}: argument 'x' must be a float32 tensor, got {x.dtype}")
    if x.rank == 2:
        return list(_qr2d(x, full_matrices))
    m, n = x.shape[-2:]
    batch = x.shape[:-2]
    pairs = [_qr2d(x2d, full_matrices) for x2d in unstack(reshape(x, [-1, m, n]), 0)]
    if not pairs:
        raise ValueError(f"{name}: argument 'x' has an empty batch (shape {list(x.shape)})")
    q = stack([p[0] for p in pairs], 0)
    r = stack([p[1] for p in pairs], 0)
    return [reshape(q, list(batch) + list(q.shape[1:])), reshape(r, list(batch) + list(r.shape[1:]))]
