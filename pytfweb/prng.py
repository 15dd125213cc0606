"""Seeded random numbers that are the same in CPython and in Pyodide, with or without numpy.

The generator is Alea (Johannes Baagøe's algorithm, the one seedrandom gives TF.js), written
here in pure Python so that a seed means the same values on every backend and platform.
Gaussian draws use the Marsaglia polar method, as TF.js's MPRandGauss does.
"""
import math
import random as _random


class _Mash:
    def __init__(self):
        self.n = 0xEFC8249D

    def __call__(self, data):
        n = self.n
        for ch in str(data):
            n += ord(ch)
            h = 0.02519603282416938 * n
            n = int(h) & 0xFFFFFFFF
            h -= n
            h *= n
            n = int(h) & 0xFFFFFFFF
            h -= n
            n += h * 0x100000000
        self.n = n
        return (int(n) & 0xFFFFFFFF) * 2.3283064365386963e-10


class Alea:
    """Alea PRNG: uniform floats in [0, 1)."""

    def __init__(self, seed):
        mash = _Mash()
        self.s0 = mash(" ")
        self.s1 = mash(" ")
        self.s2 = mash(" ")
        self.c = 1
        for s in (seed,):
            self.s0 -= mash(s)
            if self.s0 < 0:
                self.s0 += 1
            self.s1 -= mash(s)
            if self.s1 < 0:
                self.s1 += 1
            self.s2 -= mash(s)
            if self.s2 < 0:
                self.s2 += 1

    def __call__(self):
        t = 2091639 * self.s0 + self.c * 2.3283064365386963e-10
        self.s0 = self.s1
        self.s1 = self.s2
        self.c = int(t)
        self.s2 = t - self.c
        return self.s2


def make_uniform(seed):
    """A zero-argument function returning floats in [0, 1)."""
    if seed is None:
        return _random.Random().random
    return Alea(seed_string(seed))


def seed_string(seed):
    """The seed as TF.js hands it to seedrandom: JavaScript's String(seed) (5.0 -> '5')."""
    if isinstance(seed, float) and math.isfinite(seed) and seed == int(seed) and abs(seed) < 1e21:
        return str(int(seed))
    return str(seed)


class Gaussian:
    """Normal draws (mean, stddev), optionally truncated at two standard deviations: TF.js's
    MPRandGauss step for step, so that a seed gives TF.js's values."""

    def __init__(self, mean=0.0, stddev=1.0, truncated=False, seed=None):
        self.mean, self.stddev, self.truncated = mean, stddev, truncated
        self.upper = mean + stddev * 2
        self.lower = mean - stddev * 2
        self.uniform = make_uniform(seed)
        self._spare = None

    def _valid(self, r):
        return not self.truncated or self.lower <= r <= self.upper

    def next(self):
        if self._spare is not None:
            v, self._spare = self._spare, None
            return v
        while True:
            while True:
                v1 = 2 * self.uniform() - 1
                v2 = 2 * self.uniform() - 1
                s = v1 * v1 + v2 * v2
                if 0 < s < 1:
                    break
            mul = math.sqrt(-2.0 * math.log(s) / s)
            x = self.mean + self.stddev * v1 * mul
            y = self.mean + self.stddev * v2 * mul
            # As TF.js: a pair whose first value is out of range is drawn again whole, and
            # the second value is kept for the next call only when it is in range.
            if self._valid(x):
                break
        if self._valid(y):
            self._spare = y
        return x
