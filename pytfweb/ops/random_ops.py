"""Random draws beyond ops/creation.py's: random_gamma, random_uniform_int (and
random_standard_normal, which lives there). Generated host-side with pytfweb.core.prng, TF.js's
algorithms step for step, so a seed gives TF.js's values on every backend."""
import math

from typing import Optional

from ..core import prng
from ..core._numpy import np
from ..core.tensor import Tensor
from ..core.types import DType, Shape
from .creation import _random, random_standard_normal, random_uniform

__all__ = ["random_gamma", "random_standard_normal", "random_uniform_int"]


def _positive(v, name, arg):
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise TypeError(f"{name}: argument '{arg}' must be a number, got {type(v).__name__}")
    if not v > 0:
        raise ValueError(f"{name}: argument '{arg}' must be positive, got {v}")
    return float(v)


def _js_number_string(v):
    """JavaScript's String(v) for a float in [0, 1), which TF.js uses to seed a generator from
    a draw of another: Python's repr agrees except for exponents ('1e-07' is '1e-7' there)."""
    s = repr(v)
    if "e-0" in s:
        s = s.replace("e-0", "e-")
    return s


class _Gamma:
    """TF.js's RandGamma (Marsaglia and Tsang): uniforms from an Alea seeded with the seed, and
    normals from an MPRandGauss seeded with the first uniform. The two streams are independent,
    so take(n) draws each in blocks and walks the attempts over them; what a block holds beyond
    the n values waits for the next take. With numpy and alpha >= 1 (one uniform per attempt) the
    attempts are judged all at once."""

    def __init__(self, alpha, beta, dtype, seed):
        self.alpha, self.beta = alpha, beta
        self.uniform = prng.make_uniform(seed)
        self.gauss = prng.Gaussian(0.0, 1.0, False, _js_number_string(self.uniform()))
        # TF.js's MPRandGauss rounds its draws for an int32 dtype, and RandGamma passes its own.
        self.rounded = dtype == "int32"
        self.d = alpha + 2 / 3 if alpha < 1 else alpha - 1 / 3
        self.c = 1 / math.sqrt(9 * self.d)
        self.vectorized = np is not None and alpha >= 1
        # draws made ahead, not used yet: ndarrays when vectorized, else lists with a read position
        self._xs, self._us = (np.empty(0), np.empty(0)) if self.vectorized else ([], [])
        self._x = self._u = 0

    def _normals(self, k):
        x = self.gauss.take(k)
        if self.rounded:
            x = np.floor(x + 0.5) if np is not None else [math.floor(v + 0.5) for v in x]
        return x

    def next(self):
        return float(self.take(1)[0])

    def take(self, n):
        """The next n draws (the values n steps of TF.js's RandGamma give): a float64 ndarray or a list."""
        return self._take_vectorized(n) if self.vectorized else self._take_stepwise(n)

    def _take_stepwise(self, n):
        out = []
        alpha, beta, c, d = self.alpha, self.beta, self.c, self.d
        log, power = math.log, 1 / alpha

        def more(draw, need):
            got = draw(min(need + (need >> 2) + 16, 1 << 16))
            return got.tolist() if np is not None else got

        xs, i, us, j = self._xs, self._x, self._us, self._u
        nx, nu = len(xs), len(us)
        while len(out) < n:
            while True:
                if i >= nx:
                    xs, i = more(self._normals, n - len(out)), 0
                    nx = len(xs)
                x = xs[i]
                i += 1
                v = 1 + c * x
                if v > 0:
                    break
            v = v * v * v
            x2 = x * x
            if j >= nu:
                us, j = more(self.uniform.take, n - len(out)), 0
                nu = len(us)
            u = us[j]
            j += 1
            if u < 1 - 0.331 * x2 * x2 or log(u) < 0.5 * x2 + d * (1 - v + log(v)):
                v = beta * d * v
                if alpha < 1:
                    if j >= nu:
                        us, j = more(self.uniform.take, n - len(out)), 0
                        nu = len(us)
                    v *= us[j] ** power
                    j += 1
                out.append(v)
        self._xs, self._x, self._us, self._u = xs, i, us, j
        return np.array(out, np.float64) if np is not None else out

    def _take_vectorized(self, n):
        """alpha >= 1: attempt k takes the k-th normal with 1 + c x > 0 and the k-th uniform, so
        the attempts are judged as arrays (the logarithms by math.log, as the step-wise code)."""
        beta, c, d = self.beta, self.c, self.d
        parts, have = [], 0
        xs, us = self._xs, self._us
        while have < n:
            need = n - have
            want = min(need + (need >> 2) + 16, 1 << 16)
            if len(xs) < want:
                xs = np.concatenate([xs, self._normals(want)])
            if len(us) < want:
                us = np.concatenate([us, self.uniform.take(want)])
            v = 1 + c * xs
            candidates = np.flatnonzero(v > 0)
            if not len(candidates):   # every one of these normals would be passed over
                xs = xs[:0]
                continue
            candidates = candidates[:len(us)]
            x, v, u = xs[candidates], v[candidates], us[:len(candidates)]
            v = v * v * v
            x2 = x * x
            accept = u < 1 - 0.331 * x2 * x2
            rest = np.flatnonzero(~accept)
            if len(rest):
                log_u = np.fromiter(map(math.log, u[rest].tolist()), np.float64, len(rest))
                log_v = np.fromiter(map(math.log, v[rest].tolist()), np.float64, len(rest))
                accept[rest] = log_u < 0.5 * x2[rest] + d * (1 - v[rest] + log_v)
            hits = np.flatnonzero(accept)[:need]
            attempts = hits[-1] + 1 if len(hits) == need else len(candidates)
            parts.append(beta * d * v[hits])
            have += len(hits)
            xs, us = xs[candidates[attempts - 1] + 1:], us[attempts:]
        self._xs, self._us = xs, us
        return np.concatenate(parts) if parts else np.empty(0)


def random_gamma(shape: Shape, alpha: float, beta: float = 1.0, dtype: DType = "float32",
                 seed: Optional[float] = None) -> Tensor:
    """Random draws from a gamma distribution of shape alpha.

    TF.js documents beta as a rate but multiplies the draws by it (the mean is alpha * beta); so
    does this.

    Args:
        shape: the shape.
        alpha: the distribution's shape parameter (positive).
        beta: the draws' scale.
        dtype: 'float32' or 'int32'.
        seed: a seed for a reproducible draw.

    Returns:
        A new Tensor of shape.

    Example:
        >>> x = tf.random_gamma([1000], 2, seed=4)
        >>> bool(x.min() > 0)
        True
    """
    name = "random_gamma"
    alpha = _positive(alpha, name, "alpha")
    beta = _positive(1.0 if beta is None else beta, name, "beta")
    return _random(shape, "float32" if dtype is None else dtype, name, lambda: _Gamma(alpha, beta, dtype, seed).take,
                   rounded=True)


def random_uniform_int(shape: Shape, minval: int, maxval: int, seed: Optional[float] = None) -> Tensor:
    """Random int32 draws in [minval, maxval) (a uniform float truncated toward zero, as TF.js's
    random_uniform with dtype int32).

    Args:
        shape: the shape.
        minval: the lower bound, included.
        maxval: the upper bound, excluded.
        seed: a seed for a reproducible draw.

    Returns:
        A new int32 Tensor of shape.

    Example:
        >>> x = tf.random_uniform_int([100], 0, 3, seed=1)
        >>> sorted(set(x.data_sync()))
        [0, 1, 2]
    """
    name = "random_uniform_int"
    for arg, v in (("minval", minval), ("maxval", maxval)):
        if isinstance(v, bool) or not isinstance(v, int):
            raise TypeError(f"{name}: argument '{arg}' must be an int, got {type(v).__name__}")
    if maxval <= minval:
        raise ValueError(f"{name}: argument 'maxval' ({maxval}) must be greater than 'minval' ({minval})")
    return random_uniform(shape, minval, maxval, "int32", seed)
