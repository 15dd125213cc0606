"""Seeded random numbers that are the same in CPython and in Pyodide, with or without numpy.

The generator is Alea (Johannes Baagøe's algorithm, the one seedrandom gives TF.js), written
here in pure Python so that a seed means the same values on every backend and platform.
Gaussian draws use the Marsaglia polar method, as TF.js's MPRandGauss does.

Draws come one at a time (`Alea()`, `Gaussian.next()`) or many at once (`take(n)`: the same
values, as a float64 ndarray with numpy, else a list). Alea's step is exact integer arithmetic in
float64: a lag-3 multiply-with-carry generator, x[n] = (a x[n-3] + c) mod 2^32 with c the carry
(a = 2091639, the draw x[n] / 2^32). Such a generator's outputs are the base-2^32 digits of the
2^32-adic number -K / m, K = x0 + x1 2^32 + x2 2^64 + c 2^96 its state and m = a 2^96 - 1. So n draws
are one big-integer division (linear in n, done in C) instead of n Python steps, and the state after
them is K 2^(-32 n) mod m.
"""
import array
import math
import random as _random
import sys

from ._numpy import np

_A = 2091639
_B = 1 << 32
_M = _A * (1 << 96) - 1          # the MWC modulus: state K = s0 + s1 b + s2 b^2 + c b^3 lives in [0, _M)
_ULP = 2.3283064365386963e-10    # 2 ** -32
_CHUNK = 1 << 16                 # draws per big-integer step (bounds the temporaries, not the result)
_U32 = next(t for t in "IL" if array.array(t).itemsize == 4)   # uint32's typecode


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

    # --- many draws at once ----------------------------------------------------------------------
    # Every s is a multiple of 2^-32 and 2091639 * s0 * 2^32 + c < 2^53, so __call__ computes
    # x = (a * x0 + c) mod 2^32 and c = (a * x0 + c) div 2^32 exactly: the integer state below.
    def _state(self):
        return (int(self.s0 * _B) | int(self.s1 * _B) << 32 | int(self.s2 * _B) << 64) + (self.c << 96)

    def _set_state(self, k):
        self.s0 = (k & 0xFFFFFFFF) * _ULP
        self.s1 = (k >> 32 & 0xFFFFFFFF) * _ULP
        self.s2 = (k >> 64 & 0xFFFFFFFF) * _ULP
        self.c = k >> 96

    def _digits(self, n):
        """The next n outputs as 4n little-endian bytes of uint32 (x, with the draw x * 2^-32)."""
        k = self._state()
        total = n + 3
        # The outputs x[3..total) and the three state words x[0..3) before them are the base-2^32
        # digits, lowest first, of (k' 2^(32 total) - k) / m, k' being the state after `total` steps.
        later = k * pow(_B, -total, _M) % _M
        digits = ((later << (32 * total)) - k) // _M
        self._set_state(k * pow(_B, -n, _M) % _M)
        return digits.to_bytes(4 * total, "little")[12:]

    def take(self, n):
        """The next n draws (as n calls would give them): a float64 ndarray with numpy, else a list."""
        n = int(n)
        if n < 8:
            values = [self() for _ in range(max(n, 0))]
            return np.array(values, np.float64) if np is not None else values
        if np is not None:
            out = np.empty(n, np.float64)
            for start in range(0, n, _CHUNK):
                k = min(_CHUNK, n - start)
                np.multiply(np.frombuffer(self._digits(k), "<u4"), _ULP, out=out[start:start + k])
            return out
        out = []
        for start in range(0, n, _CHUNK):
            k = min(_CHUNK, n - start)
            words = array.array(_U32, self._digits(k))
            if sys.byteorder != "little":
                words.byteswap()
            out += [w * _ULP for w in words]
        return out


def make_uniform(seed):
    """A zero-argument function returning floats in [0, 1) (an Alea, with take(n) for many).
    Without a seed, one is drawn (as TF.js seeds Alea with Math.random())."""
    if seed is None:
        seed = _random.random()
    return Alea(seed_string(seed))


def seed_string(seed):
    """The seed as TF.js hands it to seedrandom: JavaScript's String(seed) (5.0 -> '5')."""
    if isinstance(seed, float) and math.isfinite(seed) and seed == int(seed) and abs(seed) < 1e21:
        return str(int(seed))
    return str(seed)


def plain_number(v):
    """Whether v is an int or float numpy arithmetic treats exactly as Python's float arithmetic."""
    return type(v) is float or (type(v) is int and abs(v) < 1 << 53)


class Gaussian:
    """Normal draws (mean, stddev), optionally truncated at two standard deviations: TF.js's
    MPRandGauss step for step, so that a seed gives TF.js's values."""

    def __init__(self, mean=0.0, stddev=1.0, truncated=False, seed=None):
        self.mean, self.stddev, self.truncated = mean, stddev, truncated
        self.upper = mean + stddev * 2
        self.lower = mean - stddev * 2
        self.uniform = make_uniform(seed)
        self._spare = None
        self._queue, self._queued = [], 0   # draws take() made ahead (whole pairs), and how many were handed out

    def _valid(self, r):
        return not self.truncated or self.lower <= r <= self.upper

    def next(self):
        if self._queued < len(self._queue):
            self._queued += 1
            return float(self._queue[self._queued - 1])
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

    def take(self, n):
        """The next n draws (the values n calls of next() give): a float64 ndarray with numpy (unless
        mean or stddev is of a type numpy would compute with otherwise than Python), else a list. Uniforms are drawn in blocks of whole pairs; what a block gives beyond n waits in a queue."""
        n = max(int(n), 0)
        if np is not None and not (plain_number(self.mean) and plain_number(self.stddev)):
            return [self.next() for _ in range(n)]   # Python's arithmetic: numpy's would change these sums
        parts, have = [], 0
        if self._queued < len(self._queue):
            parts.append(self._queue[self._queued:self._queued + n])
            self._queued += len(parts[0])
            have = len(parts[0])
        if have < n and self._spare is not None:
            parts.append([self._spare])
            self._spare = None
            have += 1
        while have < n:
            block = self._block(n - have)
            parts.append(block)
            have += len(block)
        if np is not None:
            out = np.concatenate([np.asarray(p, np.float64) for p in parts]) if parts else np.empty(0, np.float64)
        else:
            out = [v for p in parts for v in p]
        if len(out) > n:
            self._queue, self._queued = out[n:], 0
            out = out[:n]
        return out

    def _block(self, need):
        """The draws of about need / 1.4 + 16 uniform pairs (at most _CHUNK), in order."""
        pairs = min(int(need / 1.4) + 16, _CHUNK)
        u = self.uniform.take(2 * pairs)
        mean, stddev, lower, upper = self.mean, self.stddev, self.lower, self.upper
        if np is None:
            out = []
            log, sqrt, truncated = math.log, math.sqrt, self.truncated
            for i in range(0, 2 * pairs, 2):
                v1 = 2 * u[i] - 1
                v2 = 2 * u[i + 1] - 1
                s = v1 * v1 + v2 * v2
                if 0 < s < 1:
                    mul = sqrt(-2.0 * log(s) / s)
                    x = mean + stddev * v1 * mul
                    y = mean + stddev * v2 * mul
                    if not truncated:
                        out.append(x)
                        out.append(y)
                    elif lower <= x <= upper:
                        out.append(x)
                        if lower <= y <= upper:
                            out.append(y)
            return out
        v1 = 2 * u[0::2] - 1
        v2 = 2 * u[1::2] - 1
        s = v1 * v1 + v2 * v2
        inside = (0 < s) & (s < 1)
        v1, v2, s = v1[inside], v2[inside], s[inside]
        # math.log, not np.log: numpy's vectorised log may differ from the C library's in the last bit
        logs = np.fromiter(map(math.log, s.tolist()), np.float64, len(s))
        mul = np.sqrt(-2.0 * logs / s)
        xy = np.empty((len(s), 2), np.float64)
        with np.errstate(all="ignore"):   # (a huge stddev overflows to infinity, as in Python)
            xy[:, 0] = mean + stddev * v1 * mul
            xy[:, 1] = mean + stddev * v2 * mul
        if not self.truncated:
            return xy.reshape(-1)
        valid = (lower <= xy) & (xy <= upper)
        valid[:, 1] &= valid[:, 0]
        return xy[valid]
