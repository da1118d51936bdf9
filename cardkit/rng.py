"""A tiny seeded RNG (SplitMix64) whose output is the same on every Python and in Pyodide.

`random.Random` is not used for deals: its seeding and `shuffle` are not guaranteed stable
across Python versions, and a seed must always give the same deal.
"""
from __future__ import annotations

from array import array
import sys

_MASK = (1 << 64) - 1
_GAMMA, _MIX1, _MIX2 = 0x9E3779B97F4A7C15, 0xBF58476D1CE4E5B9, 0x94D049BB133111EB
# below(n) rejects a draw above _LIMIT[n] (no modulo bias): looked up for the small n of card games
_LIMIT = [0] + [_MASK - (_MASK + 1) % n for n in range(1, 257)]
_LANES: dict = {}


def _lanes(m: int) -> tuple:
    """Constants for m draws side by side in one int, each in a 128-bit lane: 1 in each lane, the lanes'
    state steps (k + 1) * GAMMA, the mask of each lane's low 64 bits, 255 in each lane and bit 64 of each."""
    c = _LANES.get(m)
    if c is None:
        ones = sum(1 << (128 * k) for k in range(m))
        c = _LANES[m] = (ones, sum((k + 1) << (128 * k) for k in range(m)) * _GAMMA, _MASK * ones,
                         255 * ones, ones << 64)
    return c


class Rng:
    __slots__ = ("_s",)

    def __init__(self, seed: int = 0):
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise TypeError(f"seed must be an int, not {type(seed).__name__}")
        self._s = seed & _MASK

    def next64(self) -> int:
        self._s = s = (self._s + 0x9E3779B97F4A7C15) & _MASK
        z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Uniform integer in [0, n) (rejection sampling, no modulo bias)."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = _LIMIT[n] if n <= 256 else _MASK - (_MASK + 1) % n
        s = self._s
        while True:   # next64() inlined: this is on every random decision's path
            s = (s + 0x9E3779B97F4A7C15) & _MASK
            z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
            z ^= z >> 31
            if z <= limit:
                self._s = s
                return z % n

    def choice(self, seq):
        return seq[self.below(len(seq))]

    def shuffle(self, items: list) -> list:
        """Fisher-Yates in place; returns the list. The same draws as ``below(i + 1)`` for i from the top
        down. A deal shuffles at every hand, so the draws are made all at once: the SplitMix64 mix of the
        next m states side by side, each in a 128-bit lane of one int (a lane's product never reaches the
        next lane), read back as 64-bit numbers. ``below`` rejects a draw only within 255 of 2**64 (odds
        about 1 in 2**56): if any draw is that high the shuffle is made one draw at a time instead."""
        m = len(items) - 1
        if m < 1 or m > 255:                               # (n <= 256: see the guard below)
            return self._shuffle_one_by_one(items)
        ones, steps, lanes, near, carry = _lanes(m)
        s = self._s
        z = (s * ones + steps) & lanes                     # lane k: the state of the k-th draw
        z = ((z ^ (z >> 30)) & lanes) * _MIX1 & lanes
        z = ((z ^ (z >> 27)) & lanes) * _MIX2 & lanes
        z ^= (z >> 31) & lanes
        if (z + near) & carry:                             # a draw within 255 of 2**64: maybe rejected
            return self._shuffle_one_by_one(items)
        draws = array("Q", z.to_bytes(16 * m, "little"))   # a lane is two 64-bit words: its draw, then 0
        if sys.byteorder == "big":
            draws.byteswap()
        i = m
        for d in draws[::2]:                               # (a slice of the draws: no index to keep)
            j = d % (i + 1)
            items[i], items[j] = items[j], items[i]
            i -= 1
        self._s = (s + m * _GAMMA) & _MASK
        return items

    def _shuffle_one_by_one(self, items: list) -> list:
        s = self._s
        for i in range(len(items) - 1, 0, -1):
            n = i + 1
            limit = _MASK - (_MASK + 1) % n
            while True:
                s = (s + 0x9E3779B97F4A7C15) & _MASK
                z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
                z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
                z ^= z >> 31
                if z <= limit:
                    break
            j = z % n
            items[i], items[j] = items[j], items[i]
        self._s = s
        return items

    def getstate(self) -> int:
        return self._s

    def setstate(self, s: int) -> None:
        self._s = s
