"""Random draws beyond ops/creation.py's: random_gamma, random_uniform_int (and
random_standard_normal, which lives there). Generated host-side with pytfweb.prng, TF.js's
algorithms step for step, so a seed gives TF.js's values on every backend."""
import math

from .. import prng
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
    normals from an MPRandGauss seeded with the first uniform."""

    def __init__(self, alpha, beta, dtype, seed):
        self.alpha, self.beta = alpha, beta
        self.uniform = prng.make_uniform(seed)
        self.normal = prng.Gaussian(0.0, 1.0, False, _js_number_string(self.uniform())).next
        if dtype == "int32":
            # TF.js's MPRandGauss rounds its draws for an int32 dtype, and RandGamma passes its own.
            draw = self.normal
            self.normal = lambda: math.floor(draw() + 0.5)
        self.d = alpha + 2 / 3 if alpha < 1 else alpha - 1 / 3
        self.c = 1 / math.sqrt(9 * self.d)

    def next(self):
        while True:
            while True:
                x = self.normal()
                v = 1 + self.c * x
                if v > 0:
                    break
            v = v * v * v
            x2 = x * x
            u = self.uniform()
            if u < 1 - 0.331 * x2 * x2 or math.log(u) < 0.5 * x2 + self.d * (1 - v + math.log(v)):
                break
        v = self.beta * self.d * v
        if self.alpha < 1:
            v *= self.uniform() ** (1 / self.alpha)
        return v


def random_gamma(shape, alpha, beta=1.0, dtype="float32", seed=None):
    """tf.random_gamma: draws from a gamma distribution of shape alpha. TF.js documents beta
    as a rate but multiplies the draws by it (the mean is alpha * beta); so does this."""
    name = "random_gamma"
    alpha = _positive(alpha, name, "alpha")
    beta = _positive(1.0 if beta is None else beta, name, "beta")
    draw = _Gamma(alpha, beta, dtype, seed).next
    return _random(shape, "float32" if dtype is None else dtype, name, draw)


def random_uniform_int(shape, minval, maxval, seed=None):
    """tf.random_uniform_int: int32 draws in [minval, maxval), as TF.js's random_uniform with
    dtype int32 makes them (a uniform float truncated toward zero)."""
    name = "random_uniform_int"
    for arg, v in (("minval", minval), ("maxval", maxval)):
        if isinstance(v, bool) or not isinstance(v, int):
            raise TypeError(f"{name}: argument '{arg}' must be an int, got {type(v).__name__}")
    if maxval <= minval:
        raise ValueError(f"{name}: argument 'maxval' ({maxval}) must be greater than 'minval' ({minval})")
    return random_uniform(shape, minval, maxval, "int32", seed)
