"""Random inputs for browser tests, with the edge values every copying kernel must pass through."""
import numpy as np

from .conftest import F16

# integers the session's textures hold exactly: float32 carries 24 bits, half floats 11
INT_LIMIT = 2 ** 11 if F16 else 2 ** 24


def floats(rng, *shape):
    x = rng.uniform(-5, 5, size=shape).astype(np.float32)
    flat = x.reshape(-1)
    if flat.size >= 3:   # edge values pass through every copy unchanged
        flat[:3] = [np.nan, np.inf, -np.inf]
    return x


def ints(rng, *shape):
    return rng.integers(-INT_LIMIT, INT_LIMIT, size=shape).astype(np.int32)


def bools(rng, *shape):
    return rng.uniform(size=shape) < 0.5
