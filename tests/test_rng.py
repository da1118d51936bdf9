"""The seeded RNG: its shuffle makes the draws of ``below`` all at once; it must give exactly the
permutation and the state that drawing one at a time gives, including where a draw is rejected."""
import random

import pytest

from cardkit.rng import _GAMMA, _MASK, _MIX1, _MIX2, Rng


def one_by_one(rng: Rng, items: list) -> list:
    """Fisher-Yates with ``below``: the definition the shuffle must keep."""
    for i in range(len(items) - 1, 0, -1):
        j = rng.below(i + 1)
        items[i], items[j] = items[j], items[i]
    return items


def _unxorshift(y: int, k: int) -> int:
    x = y
    for _ in range(64 // k + 1):
        x = y ^ (x >> k)
    return x


def state_before(draw: int) -> int:
    """The state whose next 64-bit draw is `draw` (SplitMix64's mix undone step by step)."""
    z = _unxorshift(draw, 31)
    z = z * pow(_MIX2, -1, 1 << 64) & _MASK
    z = _unxorshift(z, 27)
    z = z * pow(_MIX1, -1, 1 << 64) & _MASK
    z = _unxorshift(z, 30)
    return (z - _GAMMA) & _MASK


def test_the_undone_mix_gives_the_draw():
    for draw in (0, 1, 12345, _MASK, _MASK - 7):
        r = Rng()
        r.setstate(state_before(draw))
        assert r.next64() == draw


@pytest.mark.parametrize("length", [0, 1, 2, 3, 5, 24, 32, 33, 52, 104, 256, 257, 300])
def test_the_shuffle_is_below_drawn_one_at_a_time(length):
    rnd = random.Random(length)
    for t in range(300):
        seed = rnd.getrandbits(64) if t % 2 else t
        a, b = Rng(seed), Rng(seed)
        assert a.shuffle(list(range(length))) == one_by_one(b, list(range(length)))
        assert a.getstate() == b.getstate()


@pytest.mark.parametrize("length,k", [(8, 0), (8, 1), (32, 0), (32, 5), (52, 0), (52, 30), (33, 1)])
def test_a_draw_at_the_top_in_the_middle_of_a_shuffle(length, k):
    """The (k+1)-th draw is the largest 64-bit number, which ``below(n)`` rejects unless n divides 2**64 (a
    power of two): the shuffle must then draw again there, as ``below`` does, and use one draw more."""
    n = length - k
    rejected = (1 << 64) % n != 0
    start = (state_before(_MASK) - k * _GAMMA) & _MASK
    a, b = Rng(), Rng()
    a.setstate(start)
    b.setstate(start)
    assert a.shuffle(list(range(length))) == one_by_one(b, list(range(length)))
    assert a.getstate() == b.getstate() == (start + (length - 1 + rejected) * _GAMMA) & _MASK
