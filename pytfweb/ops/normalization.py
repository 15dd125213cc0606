"""Normalization and noise: batch_norm (+ 2d/3d/4d), local_response_normalization, dropout,
multinomial.

Kernel contract (every backend):
  FusedBatchNorm  inputs x (float32, rank 4), mean, variance, then offset if attrs["has_offset"]
                  and scale if attrs["has_scale"] (float32, each broadcasting to x's shape);
                  attrs {"variance_epsilon": float, "has_offset": bool, "has_scale": bool}.
                  (x - mean) * scale / sqrt(variance + variance_epsilon) + offset, x's shape.
  LRN             x float32 [batch, height, width, depth]; attrs {"depth_radius": int >= 0,
                  "bias", "alpha", "beta": floats}. x / (bias + alpha * sum of x^2 over the
                  channels within depth_radius) ** beta.
  LRNGrad         inputs x, y (LRN's output), dy; LRN's attrs; float32 of x's shape.
  Multinomial     logits float32 [batch, outcomes >= 2]; attrs {"num_samples": int >= 0,
                  "seed": number, "normalized": bool (logits are probabilities)} -> int32
                  [batch, num_samples]: outcome i where a uniform draw falls in the i-th
                  interval of the cumulative probabilities (the last one if in none). The cpu
                  backend draws with Alea(seed) per row, as TF.js's; webgl hashes (seed, output
                  position) in the shader, as TF.js's webgl does: same distribution, other draws.
"""
import math
import random

from typing import Optional

from ..core.engine import ENGINE, op
from ..core.tensor import Tensor
from ..core.types import Shape, TensorLike
from ..core.limits import check_elements
from .creation import clone, convert_to_tensor, random_uniform
from .elementwise import add, cast, div, floor, mul, rsqrt, sub
from .shape import is_int

__all__ = ["batch_norm", "batch_norm2d", "batch_norm3d", "batch_norm4d", "local_response_normalization",
           "dropout", "multinomial"]


def _float(x, arg, op_name):
    x = convert_to_tensor(x, arg, op_name)
    if x.dtype == "bool":
        raise TypeError(f"{op_name}: argument '{arg}' must be a float32 or int32 tensor, got bool")
    return x if x.dtype == "float32" else cast(x, "float32")


def _as_float32(x, arg, op_name):
    # batch_norm and local_response_normalization read int32 and bool as float32 (TF.js writes
    # the result in x's dtype, truncated: README's deviations)
    x = convert_to_tensor(x, arg, op_name)
    return x if x.dtype == "float32" else cast(x, "float32")


def _number(v, arg, op_name):
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise TypeError(f"{op_name}: argument '{arg}' must be a number, got {type(v).__name__}")
    return float(v)


def _as_4d(shape):
    """TF.js's xAs4D: leading unit axes up to rank 4 (rank 0 and 1 become [1, 1, 1, size])."""
    if len(shape) <= 1:
        return [1, 1, 1, math.prod(shape)]
    return [1] * (4 - len(shape)) + list(shape)


def _batch_norm(op_name, x, mean, variance, offset, scale, variance_epsilon, ranks=None):
    """batch_norm; ranks (for batch_norm2d/3d/4d) are the ranks x must have and the parameters
    may have."""
    x = _as_float32(x, "x", op_name)
    for k, v in (("mean", mean), ("variance", variance)):
        if v is None:
            raise TypeError(f"{op_name}: argument '{k}' is required, got None")
    params = {"mean": mean, "variance": variance, "offset": offset, "scale": scale}
    params = {k: _as_float32(v, k, op_name) for k, v in params.items() if v is not None}
    if ranks is not None:
        if x.rank != ranks[0]:
            raise ValueError(f"{op_name}: argument 'x' must be of rank {ranks[0]}, got rank {x.rank}")
        for k, p in params.items():
            if p.rank not in ranks:
                raise ValueError(f"{op_name}: argument '{k}' must be of rank {ranks[0]} or 1, got rank {p.rank}")
    for k, p in params.items():
        if p.rank != params["mean"].rank:
            raise ValueError(f"{op_name}: arguments 'mean' and '{k}' must have the same rank, got shapes "
                             f"{list(params['mean'].shape)} and {list(p.shape)}")
    shape4 = _as_4d(x.shape) if x.rank <= 4 else list(x.shape)
    for k, p in params.items():
        if p.rank > len(shape4) or any(d not in (1, want) for d, want in zip(reversed(p.shape), reversed(shape4))):
            raise ValueError(f"{op_name}: argument '{k}' of shape {list(p.shape)} does not broadcast to 'x' "
                             f"of shape {list(x.shape)}")
    epsilon = _number(variance_epsilon, "variance_epsilon", op_name)
    if x.rank > 4:   # beyond the kernel's rank 4: the same formula with ops
        y = mul(sub(x, params["mean"]), rsqrt(add(params["variance"], epsilon)))
        if "scale" in params:
            y = mul(y, params["scale"])
        return add(y, params["offset"]) if "offset" in params else y
    inputs = [ENGINE.run_kernel("Reshape", [x], {"shape": shape4}), params["mean"], params["variance"]]
    inputs += [params[k] for k in ("offset", "scale") if k in params]
    attrs = {"variance_epsilon": epsilon, "has_offset": "offset" in params, "has_scale": "scale" in params}
    y = ENGINE.run_kernel("FusedBatchNorm", inputs, attrs)
    return ENGINE.run_kernel("Reshape", [y], {"shape": list(x.shape)})


@op
def batch_norm(x: TensorLike, mean: TensorLike, variance: TensorLike, offset: Optional[TensorLike] = None,
               scale: Optional[TensorLike] = None, variance_epsilon: float = 0.001) -> Tensor:
    """Batch normalization: (x - mean) * scale / sqrt(variance + variance_epsilon) + offset.

    The parameters broadcast to x.

    Args:
        x: the input tensor.
        mean: the mean.
        variance: the variance.
        offset: added after scaling (None: 0).
        scale: the scale (None: 1).
        variance_epsilon: added to the variance, for stability.

    Returns:
        A float32 Tensor of x's shape.

    Example:
        >>> tf.batch_norm(tf.tensor([1, 3]), tf.scalar(2), tf.scalar(1), variance_epsilon=0).print()
        Tensor
            [-1, 1]
    """
    return _batch_norm("batch_norm", x, mean, variance, offset, scale, variance_epsilon)


def _batch_norm_nd(rank):
    name = f"batch_norm{rank}d"

    @op
    def batch_norm_nd(x: TensorLike, mean: TensorLike, variance: TensorLike, offset: Optional[TensorLike] = None,
                      scale: Optional[TensorLike] = None, variance_epsilon: float = 0.001) -> Tensor:
        return _batch_norm(name, x, mean, variance, offset, scale, variance_epsilon, ranks=(rank, 1))
    batch_norm_nd.__name__ = batch_norm_nd.__qualname__ = name
    batch_norm_nd.__doc__ = f"""tf.batch_norm of a rank-{rank} x, its parameters of rank {rank} or 1.

    Args:
        x: the rank-{rank} input.
        mean: the mean.
        variance: the variance.
        offset: added after scaling (None: 0).
        scale: the scale (None: 1).
        variance_epsilon: added to the variance, for stability.

    Returns:
        A float32 Tensor of x's shape.

    Example:
        >>> x = tf.tensor([1, 3], {[1] * (rank - 1) + [2]})
        >>> tf.{name}(x, tf.tensor([2]), tf.tensor([1]), variance_epsilon=0).as1d().print()
        Tensor
            [-1, 1]
    """
    return batch_norm_nd


batch_norm2d, batch_norm3d, batch_norm4d = (_batch_norm_nd(r) for r in (2, 3, 4))


@op
def local_response_normalization(x: TensorLike, depth_radius: int = 5, bias: float = 1, alpha: float = 1,
                                 beta: float = 0.5) -> Tensor:
    """Local response normalization over channels: x / (bias + alpha * sum(x ** 2 over the
    depth_radius nearest channels on each side)) ** beta.

    Args:
        x: a float32 tensor of rank 3 or 4, channels last.
        depth_radius: how many neighbouring channels on each side are summed.
        bias: added to the sum.
        alpha: the sum's scale.
        beta: the exponent.

    Returns:
        A float32 Tensor of x's shape.

    Example:
        >>> x = tf.tensor([1, 1, 1, 1], [1, 1, 1, 4])
        >>> tf.local_response_normalization(x, 1, 0, 1, 1).as1d().print()
        Tensor
            [0.5, 0.3333333, 0.3333333, 0.5]
    """
    name = "local_response_normalization"
    x = _as_float32(x, "x", name)
    if x.rank not in (3, 4):
        raise ValueError(f"{name}: argument 'x' must be of rank 3 or 4, got rank {x.rank}")
    if not is_int(depth_radius):
        raise TypeError(f"{name}: argument 'depth_radius' must be an int, got {depth_radius!r}")
    if depth_radius < 0:
        raise ValueError(f"{name}: argument 'depth_radius' must be non-negative, got {depth_radius}")
    attrs = {"depth_radius": int(depth_radius), "bias": _number(bias, "bias", name),
             "alpha": _number(alpha, "alpha", name), "beta": _number(beta, "beta", name)}
    x4 = x if x.rank == 4 else ENGINE.run_kernel("Reshape", [x], {"shape": [1, *x.shape]})
    y = ENGINE.run_kernel("LRN", [x4], attrs)
    return y if x.rank == 4 else ENGINE.run_kernel("Reshape", [y], {"shape": list(x.shape)})


def _noise_shape(x, noise_shape, op_name):
    """TF.js's getNoiseShape: x's shape unless given; None entries of a same-rank noise_shape
    take x's size there."""
    if noise_shape is None:
        return list(x.shape)
    if not isinstance(noise_shape, (list, tuple)):
        raise TypeError(f"{op_name}: argument 'noise_shape' must be a list of ints (or None), got {noise_shape!r}")
    dims = list(noise_shape)
    if len(dims) == x.rank:
        dims = [have if want is None else want for want, have in zip(dims, x.shape)]
    if not all(is_int(d) and d >= 0 for d in dims):
        raise ValueError(f"{op_name}: argument 'noise_shape' must hold non-negative ints (or None), "
                         f"got {noise_shape!r}")
    dims = [int(d) for d in dims]
    # The noise multiplies x: the shapes must broadcast together (an error here names this op, not mul).
    if any(d != have and 1 not in (d, have) for d, have in zip(reversed(dims), reversed(x.shape))):
        raise ValueError(f"{op_name}: argument 'noise_shape' {dims} does not broadcast with the shape of 'x' "
                         f"{list(x.shape)}")
    return dims


@op
def dropout(x: TensorLike, rate: float, noise_shape: Optional[Shape] = None, seed: Optional[float] = None) -> Tensor:
    """Zero each element with probability rate and scale the others by 1 / (1 - rate).

    Args:
        x: a float32 tensor.
        rate: the probability of dropping an element, in [0, 1).
        noise_shape: a shape broadcasting to x's: elements in one block are dropped together
            (None: x's shape).
        seed: a seed for a reproducible draw.

    Returns:
        A float32 Tensor of x's shape.

    Example:
        >>> y = tf.dropout(tf.ones([1000]), 0.5, seed=1)
        >>> sorted(set(y.data_sync()))
        [0.0, 2.0]
    """
    name = "dropout"
    x = convert_to_tensor(x, "x", name)
    if x.dtype != "float32":
        raise TypeError(f"{name}: argument 'x' must be a float32 tensor (it is scaled), got {x.dtype}")
    rate = _number(rate, "rate", name)
    if not 0 <= rate < 1:
        raise ValueError(f"{name}: argument 'rate' must be in [0, 1), got {rate}")
    if rate == 0:
        return clone(x)
    keep = 1 - rate
    noise = random_uniform(_noise_shape(x, noise_shape, name), 0, 1, "float32", seed)
    return mul(x, div(floor(add(noise, keep)), keep))


@op
def multinomial(logits: TensorLike, num_samples: int, seed: Optional[float] = None, normalized: bool = False) -> Tensor:
    """Draw outcomes from categorical distributions.

    Args:
        logits: a rank-1 or rank-2 tensor: one distribution per row, as softmax(logits).
        num_samples: how many draws per row.
        seed: a seed for a reproducible draw.
        normalized: logits are probabilities already.

    Returns:
        An int32 Tensor [num_samples] or [rows, num_samples] of outcome indices.

    Example:
        >>> tf.multinomial(tf.tensor([0, 1, 0]), 4, seed=5, normalized=True).print()
        Tensor
            [1, 1, 1, 1]
    """
    name = "multinomial"
    logits = _float(logits, "logits", name)
    if logits.rank not in (1, 2):
        raise ValueError(f"{name}: argument 'logits' must be of rank 1 or 2, got rank {logits.rank}")
    if logits.size < 2:
        raise ValueError(f"{name}: argument 'logits' must have at least 2 outcomes, got {logits.size}")
    if not is_int(num_samples) or num_samples < 0:
        raise ValueError(f"{name}: argument 'num_samples' must be a non-negative int, got {num_samples!r}")
    if not isinstance(normalized, bool):
        raise TypeError(f"{name}: argument 'normalized' must be a bool, got {type(normalized).__name__}")
    check_elements((logits.shape[0] if logits.rank == 2 else 1, int(num_samples)), f"{name}: argument 'num_samples'")
    if seed is not None:
        _number(seed, "seed", name)
    rows = logits if logits.rank == 2 else ENGINE.run_kernel("Reshape", [logits], {"shape": [1, logits.size]})

    def draw(rows):
        # TF.js: `seed || Math.random()`, so 0 draws a random seed too; drawn in the host step, so
        # that a traced function draws a new seed on every call
        return ENGINE.run_kernel("Multinomial", [rows], {"num_samples": int(num_samples),
                                                         "seed": seed or random.random(), "normalized": normalized})
    out = ENGINE.run_host(name, draw, [rows])
    return out if logits.rank == 2 else ENGINE.run_kernel("Reshape", [out], {"shape": [int(num_samples)]})
