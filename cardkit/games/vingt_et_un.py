"""Vingt-et-un (the 7th Sea quick rules' banking game) for a bank and 2 to 4 players, with stakes, a ledger
that always balances, the reconstructed settlement table and exact odds.

Source: ``004_…`` (the Vingt-et-un page of the 7th Sea quick rules). Where it is silent the kit follows the
classic Vingt-un (Hoyle's) and says so. Rule IDs refer to ``cardkit/rules/vingt_et_un.toml``.

A sitting is a series of coups (each a fresh shuffle of the 32-card pack, a ``Deal`` of its own): the bank
gives one card face down to each player from its left and its own card face up (VU-1.1); each player
stakes (VU-1.2); a second card to all (VU-1.3); each player in turn asks for cards or stands (VU-1.4), dead
over 21 at once (VU-1.5); the bank draws face up (VU-2) and every player is settled against it by the
source's table (VU-3). Money is kept in a ``cardkit.ledger.Ledger`` in units of the lowest stake.

Exact odds (``odds_*`` below, ``State.advice``) enumerate the unseen cards with integer arithmetic: a
probability over a pool of M unseen cards is carried as an integer numerator over M! (so no fractions are
added up inside the recursion) and turned into a ``Fraction`` at the end.
"""
from __future__ import annotations

from fractions import Fraction
from math import factorial
from operator import mul


from ..cards import PIQUET32, Card
from ..errors import CardkitError, IllegalActionError
from ..game import CHANCE, TERMINAL, Action, Deal, Game, Narration, State
from ..ledger import TABLE, Ledger
from ..options import Option
from ..rng import Rng
from ..rules import Table
from ..view import Odds, Pile, Seat, View, plural
from ._posting import post

# --- card values (VU-0.1) ------------------------------------------------------------------------------
VALUE = {"7": 7, "8": 8, "9": 9, "10": 10, "J": 1, "Q": 1, "K": 2, "A": 11}
CLASS_VALUES = (1, 2, 7, 8, 9, 10, 11)          # the value classes of the pack; 11 is the Ace
ACE_CLASS = 6
CLASS_NAMES = ("Jack or Queen (1)", "King (2)", "7", "8", "9", "10", "Ace")
CLASS_SHORT = ("J/Q", "K", "7", "8", "9", "10", "A")
CLS = [CLASS_VALUES.index(VALUE[c.rank]) for c in PIQUET32.cards]        # by card index
PTS = [0 if c.rank == "A" else VALUE[c.rank] for c in PIQUET32.cards]     # points without the Aces
IS_ACE = [c.rank == "A" for c in PIQUET32.cards]
FULL_POOL = (8, 4, 4, 4, 4, 4, 4)                # cards per value class in the pack
NAMES = ["Anton", "Berta", "Carl", "Dora", "Emil"]

# a finished hand's result, as one int: a total under 21, or one of these
DEAD = 99        # over 21 ("tot")
NATURAL = 100    # 21 with two cards
TWENTYONE = 21   # 21 with more cards
MAXS = 64        # totals are looked up for non-Ace points below this


def _flex_total(s: int, a: int) -> int:
    """Aces count 1 or 11 as suits the hand (VU-4 reading "one or eleven"); two Aces alone still 21."""
    cands = {s + a + 10 * k for k in range(a + 1)}
    if a >= 2:
        cands |= {s + 21 + (a - 2) + 10 * k for k in range(a - 1)}
    ok = [c for c in cands if c <= 21]
    return max(ok) if ok else min(cands)


ACE_TOTALS = (0, 11, 21, 32, 43, 54)                # VU-0.1: one Ace 11, two Aces 21 (more: 11 each)
# TOTALS[mode][aces][non-Ace points] -> the hand's total; mode 0: Ace 11 (the source), 1: 1 or 11 (VU-4)
TOTALS = ([[s + ACE_TOTALS[a] for s in range(MAXS)] for a in range(6)],
          [[_flex_total(s, a) for s in range(MAXS)] for a in range(6)])


def result_code(total: int, cards: int) -> int:
    if total > 21:
        return DEAD
    if total == 21:
        return NATURAL if cards == 2 else TWENTYONE
    return total


def hand_total(cards, mode: int = 0) -> int:
    s = a = 0
    for c in cards:
        if IS_ACE[c.index]:
            a += 1
        else:
            s += PTS[c.index]
    return TOTALS[mode][a][min(s, MAXS - 1)]


def multiple(bank: int, player: int, double: bool = False) -> int:
    """The settlement table (VU-3), reconstructed: how many stakes the player receives (+) or pays (−), by
    the bank's result and the player's (each DEAD, NATURAL, TWENTYONE or a total under 21)."""
    if player == DEAD:                                   # column 2 ("tot")
        return -2 if bank == NATURAL or bank == TWENTYONE else -1
    if bank == NATURAL:                                  # row 1: the bank's 21 with two cards
        return -1 if player == NATURAL else -2           # footnote *: a two-card 21 pays the single stake
    if bank == TWENTYONE:                                # row 2: the bank's 21 with more cards
        if player == NATURAL:                            # footnote **: only a two-card 21 is better
            return 2 if double else 1
        return -1                                        # an equal 21 or less: the bank wins ties
    if bank == DEAD:                                     # row 4: the bank over 21
        return 2 if player == NATURAL or player == TWENTYONE else 1
    if player == NATURAL:                                # row 3: the bank under 21
        return 2 if double else 1
    if player == TWENTYONE:
        return 1
    return 1 if player > bank else -1                    # better wins; equal or worse pays (ties: the bank)


def column(bank: int, player: int) -> int:
    """The source's column a result is settled in: 0 "S 21", 1 "S tot", 2 "S × B" (equal or worse), 3
    "S besser als B"."""
    if player == DEAD:
        return 1
    if player in (NATURAL, TWENTYONE):
        return 3 if bank == TWENTYONE and player == NATURAL else 0
    if bank == DEAD or (bank < 21 and player > bank):
        return 3
    return 2


def row(bank: int) -> int:
    """The source's row of the bank's result: 0 21 with two cards, 1 21 with more, 2 under 21, 3 over 21."""
    return 0 if bank == NATURAL else 1 if bank == TWENTYONE else 3 if bank == DEAD else 2


def result_words(code: int) -> str:
    if code == DEAD:
        return "dead (over 21)"
    if code == NATURAL:
        return "21 with two cards"
    if code == TWENTYONE:
        return "21 with more cards"
    return f"{code}"


# --- exact odds -----------------------------------------------------------------------------------------
# A hand for the odds: (non-Ace points, Aces, cards). A pool: cards per value class (FULL_POOL's shape).
_BANK_MEMO: dict = {}
_DEAD_MEMO: dict = {}
_EV_MEMO: dict = {}
_FACT = [factorial(i) for i in range(40)]
STAND_ON = 17                                   # VU-2.1, the fixed rule: draw to 16, stand on 17


def _add(hand, k):
    s, a, n = hand
    return (s, a + 1, n + 1) if k == ACE_CLASS else (s + CLASS_VALUES[k], a, n + 1)


def _code(hand, mode) -> int:
    s, a, n = hand
    return result_code(TOTALS[mode][a][min(s, MAXS - 1)], n)


def _hand_plus(bank, d):
    s, a, n = bank
    k = 0
    for i in range(6):
        s += d[i] * CLASS_VALUES[i]
        k += d[i]
    return (s, a + d[6], n + k + d[6])


_TERMS: dict = {}


def _bank_terms(bank, mode):
    """The bank's possible draws from `bank` under the fixed rule, independent of the pool: every multiset
    of value classes after which it stops, with the number of its orderings that stop only at the last
    card, and every multiset after which it would still draw (for a pool it empties). The chance of an
    ordered draw depends on its multiset only, so a pool's distribution is a sum over these."""
    key = (bank, mode)
    r = _TERMS.get(key)
    if r is not None:
        return r
    tot = TOTALS[mode]

    def total(h):
        return tot[h[1]][min(h[0], MAXS - 1)]
    terms: list = []                            # by the number of cards drawn: (code, orderings, classes)
    nonstop = {}
    zero = (0,) * 7
    if total(bank) >= STAND_ON:
        terms.append([(result_code(total(bank), bank[2]), 1, ())])
    else:
        terms.append([])                        # it draws at least one card
        frontier = {zero: 1}
        k = 0
        while frontier:
            nonstop.update(frontier)
            nxt: dict = {}
            ends: dict = {}
            for d, cnt in frontier.items():
                for i in range(7):
                    if d[i] >= FULL_POOL[i]:
                        continue
                    d2 = d[:i] + (d[i] + 1,) + d[i + 1:]
                    if total(_hand_plus(bank, d2)) >= STAND_ON:
                        ends[d2] = ends.get(d2, 0) + cnt
                    else:
                        nxt[d2] = nxt.get(d2, 0) + cnt
            group = []
            for d2, cnt in ends.items():
                h = _hand_plus(bank, d2)
                group.append((result_code(total(h), h[2]), cnt, tuple((i, x) for i, x in enumerate(d2) if x)))
            terms.append(group)
            frontier = nxt
            k += 1
    r = _TERMS[key] = (terms, nonstop)
    return r


_FF = [[factorial(n) // factorial(n - d) if d <= n else 0 for d in range(13)] for n in range(13)]

# The bank's draws, compiled for evaluation over many pools (`_compiled`). A term's weight over a pool q of
# M cards is cnt × Π_i FF(q_i, x_i) × (M − k)!, FF the falling factorial, x the term's classes and k its
# cards. The classes split into the low ones (J/Q, K, Ace: many per draw) and the high ones (7 … 10: at most
# three per draw), so a weight is a product of a factor of the pool's high part, one of its low part and the
# factorial: the sum over terms is, for each number j of high cards, a dot product between a vector over the
# low parts x_l (the high factors summed, made once per high part of the pool) and one over the same x_l
# (the low factors times (M − j − |x_l|)!, made once per low part and size, shared by every bank hand). The
# result codes are carried side by side in one integer (`_FIELD` bits each: every field stays below M!, a
# probability's numerator), so a term is one multiplication whatever its code.
LOW, HIGH = (0, 1, 6), (2, 3, 4, 5)
_FIELD = 128                                    # bits per result code in a packed sum (32! < 2**118)
_MASK = (1 << _FIELD) - 1
XL_VOCAB = [(a, b, c) for a in range(FULL_POOL[0] + 1) for b in range(FULL_POOL[1] + 1)
            for c in range(FULL_POOL[6] + 1)]   # every low part a draw can hold (J/Q, K, Ace)
XL_INDEX = {x: i for i, x in enumerate(XL_VOCAB)}
_XL_COLS = [[x[i] for x in XL_VOCAB] for i in range(3)]
_XL_LEN = [sum(x) for x in XL_VOCAB]
_COMPILED: dict = {}                            # (bank, mode) -> the bank's draws, compiled (position-independent)
_HIGH_MEMO: dict = {}                           # (bank, mode, high part of a pool) -> vectors by j
_LOW_MEMO: dict = {}                            # (low part of a pool, M − j) -> the low factors × factorials


def clear_memos() -> None:
    """Forget everything the odds have computed (the bench's cold rows start from here, as a fresh process)."""
    for memo in (_BANK_MEMO, _DEAD_MEMO, _EV_MEMO, _TERMS, _COMPILED, _HIGH_MEMO, _LOW_MEMO, _KIDS):
        memo.clear()


def _compiled(bank, mode):
    """The bank's terms (`_bank_terms`) from `bank`, grouped for `_bank_dist`: (codes, by high part x_h:
    (j = |x_h|, x_h, [(index of x_l in XL_VOCAB, packed orderings)]), the multisets after which it still draws)."""
    key = (bank, mode)
    r = _COMPILED.get(key)
    if r is not None:
        return r
    terms, nonstop = _bank_terms(bank, mode)
    codes = sorted({code for group in terms for code, _, _ in group})
    field = {code: i * _FIELD for i, code in enumerate(codes)}
    by_high: dict = {}
    for group in terms:
        for code, cnt, nz in group:
            x = dict(nz)
            xh = tuple(x.get(i, 0) for i in HIGH)
            xl = XL_INDEX[tuple(x.get(i, 0) for i in LOW)]
            row = by_high.setdefault(xh, {})
            row[xl] = row.get(xl, 0) + (cnt << field[code])
    high = [(sum(xh), xh, sorted(row.items())) for xh, row in sorted(by_high.items())]
    r = _COMPILED[key] = (codes, high, nonstop, max(map(sum, nonstop), default=-1))
    return r


def _high_vectors(bank, mode, qh, comp):
    """For the pool's high part qh: per j, (indices, values) with value = Σ over x_h of j cards of
    Π FF(qh_i, x_h,i) × the packed orderings, by low part."""
    key = (bank, mode, qh)
    r = _HIGH_MEMO.get(key)
    if r is not None:
        return r
    acc: dict = {}
    a, b, c, d = (_FF[x] for x in qh)
    for j, (x2, x3, x4, x5), row in comp[1]:
        f = a[x2] * b[x3] * c[x4] * d[x5]
        if not f:
            continue
        out = acc.setdefault(j, {})
        for i, w in row:
            out[i] = out.get(i, 0) + f * w
    r = [(j, list(v), list(v.values())) for j, v in acc.items()]
    if len(_HIGH_MEMO) > 20_000:
        _HIGH_MEMO.clear()
    _HIGH_MEMO[key] = r
    return r


def _low_vector(ql, r):
    """Over XL_VOCAB: Π FF(ql_i, x_l,i) × (r − |x_l|)! (0 where the pool lacks the cards or r < |x_l|)."""
    key = (ql, r)
    v = _LOW_MEMO.get(key)
    if v is not None:
        return v
    f0, f1, f2 = (_FF[x] for x in ql)
    fr = [_FACT[r - i] if i <= r else 0 for i in range(len(_FF[0]) * 3)]
    v = list(map(mul, map(mul, map(f0.__getitem__, _XL_COLS[0]), map(f1.__getitem__, _XL_COLS[1])),
                 map(mul, map(f2.__getitem__, _XL_COLS[2]), map(fr.__getitem__, _XL_LEN))))
    if len(_LOW_MEMO) > 20_000:
        _LOW_MEMO.clear()
    _LOW_MEMO[key] = v
    return v


def _bank_dist(bank, pool, mode):
    """The bank's results under the fixed rule (draw to 16, stand on 17; it stands when no card is left),
    from `bank` (a hand) over `pool`: {result code: numerator over M!} with M the pool's size."""
    key = (bank, pool, mode)
    d = _BANK_MEMO.get(key)
    if d is not None:
        return d
    comp = _compiled(bank, mode)
    codes = comp[0]
    m = sum(pool)
    ql = (pool[0], pool[1], pool[6])
    total = 0
    lows = _LOW_MEMO
    for j, idx, vals in _high_vectors(bank, mode, (pool[2], pool[3], pool[4], pool[5]), comp):
        if j <= m:
            low = lows.get((ql, m - j)) or _low_vector(ql, m - j)
            total += sum(map(mul, vals, map(low.__getitem__, idx)))
    d = {}
    for code in codes:
        w = total & _MASK
        if w:
            d[code] = w
        total >>= _FIELD
    c = comp[2].get(pool)
    if c:                                       # the pool runs out before the bank reaches 17: it stands
        w = c
        for x in pool:
            w *= _FACT[x]
        h = _hand_plus(bank, pool)
        code = result_code(TOTALS[mode][h[1]][min(h[0], MAXS - 1)], h[2])
        d[code] = d.get(code, 0) + w
    if len(_BANK_MEMO) > 400_000:
        _BANK_MEMO.clear()
    _BANK_MEMO[key] = d
    return d


def _bank_dist_recursive(bank, pool, mode, memo=None):
    """The same by recursion over the pool (a second, independent computation for the tests)."""
    memo = {} if memo is None else memo
    key = (bank, pool)
    if key in memo:
        return memo[key]
    s, a, n = bank
    t = TOTALS[mode][a][min(s, MAXS - 1)]
    m = sum(pool)
    if t >= STAND_ON or m == 0:
        return {result_code(t, n): _FACT[m]}
    d: dict[int, int] = {}
    for k in range(7):
        c = pool[k]
        if c:
            sub = _bank_dist_recursive(_add(bank, k), pool[:k] + (c - 1,) + pool[k + 1:], mode, memo)
            for code, w in sub.items():
                d[code] = d.get(code, 0) + c * w
    memo[key] = d
    return d


def _ev_stand(hand, bank, pool, mode, double) -> int:
    """The stand's expected settlement, in stakes, as a numerator over M!."""
    row = MULTIPLE[double]
    me = _code(hand, mode)
    return sum(w * row[code][me] for code, w in _bank_dist(bank, pool, mode).items())


def _ev_dead(bank, pool, mode) -> int:
    key = (bank, pool, mode)
    r = _DEAD_MEMO.get(key)
    if r is None:
        row = MULTIPLE[0]
        r = sum(w * row[code][DEAD] for code, w in _bank_dist(bank, pool, mode).items())
        if len(_DEAD_MEMO) > 400_000:
            _DEAD_MEMO.clear()
        _DEAD_MEMO[key] = r
    return r


def _no_run_out(bank, pool, mode) -> bool:
    """Whether the bank reaches 17 from `bank` over `pool` and over `pool` less any one of its cards: then the
    bank's results over the pool less a random card are its results over the pool (the card is as good as
    burnt), which `_best` uses."""
    comp = _compiled(bank, mode)
    if sum(pool) > comp[3] + 1:                 # more cards than the bank could ever draw without stopping
        return True
    nonstop = comp[2]
    if pool in nonstop:
        return False
    for k in range(7):
        c = pool[k]
        if c and pool[:k] + (c - 1,) + pool[k + 1:] in nonstop:
            return False
    return True


_KIDS: dict = {}


def _kids(hand, mode):
    """For each class k: (k, the hand with a card of it, whether that takes it over 21); then the hand's code."""
    r = _KIDS[(hand, mode)] = (tuple((k, _add(hand, k), _code(_add(hand, k), mode) == DEAD) for k in range(7)),
                               _code(hand, mode))
    return r


def _best(hand, bank, pool, mode, double) -> int:
    """The best of standing and drawing (then playing on by the odds), as a numerator over M!. Exact, with
    three shortcuts where the bank cannot run out of cards (`_no_run_out`), all by exchangeability (the
    bank's results over the pool less one random card are its results over the pool):
    - the cards that take the hand over 21 are paid for by the bank's results over the whole pool less those
      over the pool less each card that does not (computed for those hands anyway);
    - a hand of 16 or less that no card takes over 21 draws: a hand under 17 is paid the same against every
      result of the bank, no card makes it worse, so drawing (and standing next) is worth at least standing;
    - where standing is worth at least what drawing could win at best (every card that keeps the hand alive
      paying 2 stakes, every other one losing at least its stake), the hand stands."""
    key = (hand, bank, pool, mode, double)
    r = _EV_MEMO.get(key)
    if r is not None:
        return r
    m = sum(pool)
    if m == 0:
        r = _ev_stand(hand, bank, pool, mode, double)
    else:
        live = []
        alive = gone = 0
        kids, me = _KIDS.get((hand, mode)) or _kids(hand, mode)
        for k, nh, dead in kids:
            c = pool[k]
            if c:
                if dead:
                    gone += c
                else:
                    alive += c
                    live.append((c, nh, pool[:k] + (c - 1,) + pool[k + 1:]))
        burn = _no_run_out(bank, pool, mode)
        if burn and not gone and me <= 16:
            stand = None
        else:
            stand = _ev_stand(hand, bank, pool, mode, double)
            f = _FACT[m - 1]
            bound = (2 * alive - gone) * f
            if burn:
                bound = min(bound, _ev_dead(bank, pool, mode) + 4 * alive * f)
            if stand >= bound:
                _EV_MEMO[key] = stand
                return stand
        draw = _draw(hand, bank, pool, mode, double, live, gone, burn)
        r = draw if stand is None else max(stand, draw)
    if len(_EV_MEMO) > 400_000:
        _EV_MEMO.clear()
    _EV_MEMO[key] = r
    return r


def _draw(hand, bank, pool, mode, double, live, gone, burn) -> int:
    """Drawing a card, then playing on by the odds: a numerator over M!. `live`: (cards, new hand, pool
    left) for each class that keeps the hand alive; `gone`: cards that take it over 21."""
    draw = 0
    for c, nh, rest in live:
        draw += c * _best(nh, bank, rest, mode, double)
    if gone:
        if burn:
            draw += _ev_dead(bank, pool, mode) - sum(c * _ev_dead(bank, rest, mode) for c, _, rest in live)
        else:
            for k in range(7):
                c = pool[k]
                if c and _code(_add(hand, k), mode) == DEAD:
                    draw += c * _ev_dead(bank, pool[:k] + (c - 1,) + pool[k + 1:], mode)
    return draw


def _ev_best(hand, bank, pool, mode, double):
    """(best, stand, draw) numerators over M!: standing now, or drawing and then playing on by the odds
    (draw None when no card is left)."""
    stand = _ev_stand(hand, bank, pool, mode, double)
    m = sum(pool)
    if m == 0:
        return (stand, stand, None)
    live = []
    gone = 0
    for k in range(7):
        c = pool[k]
        if c:
            nh = _add(hand, k)
            if _code(nh, mode) == DEAD:
                gone += c
            else:
                live.append((c, nh, pool[:k] + (c - 1,) + pool[k + 1:]))
    draw = _draw(hand, bank, pool, mode, double, live, gone, _no_run_out(bank, pool, mode))
    return (max(stand, draw), stand, draw)


def odds_hand(cards) -> tuple:
    s = a = 0
    for c in cards:
        if IS_ACE[c.index]:
            a += 1
        else:
            s += PTS[c.index]
    return (s, a, len(cards))


def pool_without(seen) -> tuple:
    p = list(FULL_POOL)
    for c in seen:
        p[CLS[c.index]] -= 1
    return tuple(p)


def odds_dead(hand, pool, mode: int = 0) -> Fraction:
    """The chance that one more card takes `hand` over 21."""
    m = sum(pool)
    if not m:
        return Fraction(0)
    return Fraction(sum(pool[k] for k in range(7) if pool[k] and _code(_add(hand, k), mode) == DEAD), m)


def odds_stand(hand, bank, pool, mode: int = 0, double: bool = False) -> Fraction:
    """The expected settlement (in stakes) of standing on `hand` against the bank's `bank` hand."""
    return Fraction(_ev_stand(hand, bank, pool, mode, double), _FACT[sum(pool)])


def odds_draw(hand, bank, pool, mode: int = 0, double: bool = False) -> Fraction:
    """The expected settlement (in stakes) of drawing a card, then playing on by the odds."""
    d = _ev_best(hand, bank, pool, mode, double)[2]
    return Fraction(d if d is not None else 0, _FACT[sum(pool)])


def odds_best(hand, bank, pool, mode: int = 0, double: bool = False) -> Fraction:
    return Fraction(_ev_best(hand, bank, pool, mode, double)[0], _FACT[sum(pool)])


def odds_hand_value(first, bank, pool, mode: int = 0, double: bool = False, bank_second: bool = False) -> Fraction:
    """Before the second card: the expected settlement per unit staked of a hand holding `first`,
    playing the rest by the odds (`bank_second`: the bank's second card comes with the players', VU-1.3.1)."""
    return Fraction(_ev_value_num(first, bank, pool, mode, double, bank_second), _FACT[sum(pool)])


def ev_best(hand, bank, pool, mode, double):
    """(best, stand, draw) numerators over M!, as the bots read them (`_ev_best`)."""
    return _ev_best(hand, bank, pool, mode, double)


def ev_value_num(first, bank, pool, mode, double, bank_second: bool = False) -> int:
    """A hand's expected settlement before the second card, as the bots read it (`_ev_value_num`)."""
    return _ev_value_num(first, bank, pool, mode, double, bank_second)


def add_card(hand, k):
    """A hand (sum, aces, cards) with one more card of value class `k`."""
    return _add(hand, k)


def _ev_value_num(first, bank, pool, mode, double, bank_second: bool = False) -> int:
    """Before the second card: the hand's expected settlement per unit staked, playing the rest by the odds,
    as a numerator over M! (M the pool's size). With `bank_second` (VU-1.3.1, the classic reading) the bank's
    second card comes with the players' and is seen before they draw: the value averages over both."""
    total = 0
    for k in range(7):
        c = pool[k]
        if not c:
            continue
        hand = _add(first, k)
        rest = pool[:k] + (c - 1,) + pool[k + 1:]
        if not bank_second:
            total += c * _best(hand, bank, rest, mode, double)
            continue
        for j in range(7):
            cj = rest[j]
            if cj:
                total += c * cj * _best(hand, _add(bank, j), rest[:j] + (cj - 1,) + rest[j + 1:], mode, double)
    return total


def odds_bank(bank, pool, mode: int = 0) -> dict:
    """The bank's results (result code -> chance) under the fixed rule from `bank` over `pool`."""
    m = _FACT[sum(pool)]
    return {code: Fraction(w, m) for code, w in _bank_dist(bank, pool, mode).items()}


# --- options --------------------------------------------------------------------------------------------
OPTIONS = (
    Option("players", 4, choices=(3, 4, 5), rule="VU-0",
           help="people at the table, the bank's holder included (the bank and 2, 3 or 4 players)"),
    Option("coups", 10, choices=(1, 3, 5, 10, 20), rule="VU-0.2", help="coups in a sitting"),
    Option("limit", 5, choices=(2, 5, 10), rule="VU-1.2",
           help="the highest stake, in units of the lowest stake"),
    Option("bank_rule", "fixed", choices=("fixed", "free"), rule="VU-2.1",
           help="how the bank draws its cards",
           labels={"fixed": "draws to 16, stands on 17", "free": "as the holder of the bank chooses"}),
    Option("next_bank", "left", choices=("left", "natural", "keep"), rule="VU-2.2",
           help="who holds the bank in the next coup",
           labels={"natural": "a player's two-card 21 takes it (classic)", "left": "it passes to the left",
                   "keep": "one bank for the whole sitting"}),
    Option("natural", "table", choices=("table", "double"), rule="VU-3.7",
           help="what a player's two-card 21 wins",
           labels={"table": "as the source's table (1 stake; 2 against a dead bank)",
                   "double": "2 stakes (classic)"}),
    Option("ace", "eleven", choices=("eleven", "one or eleven"), rule="VU-4",
           help="what an Ace counts", labels={"eleven": "11 (two Aces 21)", "one or eleven": "1 or 11"}),
    Option("bank_second", "after", choices=("after", "with"), rule="VU-1.3.1",
           help="the bank's second card: after the players have drawn, or with their second cards, face up",
           labels={"after": "after the players (the kit's reading)",
                   "with": "with the players' second cards, face up (classic)"}),
)

_PERMS = factorial(32)                          # the orders of the pack
_LIMIT = ((1 << 128) // _PERMS) * _PERMS         # 128-bit draws at or above this are drawn again
# the factorial number system, two digits at a time and the last seven at once (a few table lookups
# instead of 32 divisions: dealing is most of a random coup's cost)
_PAIRS = [(k * (k - 1), [(d % k, d // k) for d in range(k * (k - 1))]) for k in range(32, 9, -2)]
_TAIL7 = []
for _d in range(5040):
    _x, _ds = _d, []
    for _k in range(7, 0, -1):
        _x, _j = divmod(_x, _k)
        _ds.append(_j)
    _TAIL7.append(tuple(_ds))


def perm_digits(x: int) -> list:
    """The digits of 0 <= x < 32! in the factorial number system, radix 32 first: digit i is below 32 - i.
    Taking card number digit[i] from what is left of the pack, in turn, gives each of the 32! orders once."""
    ds: list = []
    for m, tab in _PAIRS:
        x, d = divmod(x, m)
        ds += tab[d]
    x, j = divmod(x, 8)
    ds.append(j)
    ds += _TAIL7[x]
    return ds


def deal_cards(code: int):
    """The cards of the deal numbered `code`, top first: card i is number digit[i] of `perm_digits(code)` among
    the cards left, in the pack's order. Only the number modulo 32! counts (its 32 digits); `_give` takes
    them from the number itself, one at a time."""
    return map(list(PIQUET32.cards).pop, perm_digits(code % _PERMS))


def deal_number(cards) -> int:
    """The number of a deal of the 32 cards: the inverse of `deal_cards`."""
    rest = list(PIQUET32.cards)
    x, m = 0, 1
    for i, c in enumerate(cards):
        j = rest.index(c)
        del rest[j]
        x += j * m
        m *= 32 - i
    return x


STAKE, DRAW, BANK, BETWEEN = 0, 1, 2, 3
STAKES = (1, 2, 5, 10)
STAKE_ACTIONS = {k: Action(f"stake {k}", f"stake {k}", data=k) for k in STAKES}
DRAW_A = Action("draw", "draw a card", data="draw")
STAND_A = Action("stand", "stand", data="stand")


class _Tables(dict):
    """The engine's tables by name, each made on first use (the drawing chart takes a moment to count)."""

    def __getitem__(self, name):
        v = dict.__getitem__(self, name)
        if callable(v):
            v = v()
            dict.__setitem__(self, name, v)
        return v


class VingtEtUn(Game):
    name = "vingt_et_un"
    title = "Vingt-et-un"
    deck = PIQUET32
    hands_on_table = True         # the cards are dealt face down on the table
    option_specs = OPTIONS
    summary = ("Each player against the bank with a 32-card pack: come near 21 without going over. "
               "Stakes, a ledger, the source's settlement table and exact odds. For a bank and 2 to 4 players.")

    def __init__(self, **options):
        super().__init__(**options)
        o = self.options
        self.mode = 0 if o["ace"] == "eleven" else 1
        self.coups = o["coups"]
        self.double = o["natural"] == "double"
        self.fixed = o["bank_rule"] == "fixed"
        self.stake_actions = [STAKE_ACTIONS[k] for k in STAKES if k <= o["limit"]]
        self.next_bank = o["next_bank"]
        self.bank_second = o["bank_second"] == "with"            # VU-1.3.1
        n = self.num_players
        self.orders = [tuple((b + 1 + k) % n for k in range(n - 1)) for b in range(n)]   # from the bank's left
        self.deal_orders = [(*o, b) for b, o in enumerate(self.orders)]                 # and the bank last
        self.per_seat = (0,) * n                     # a list with a slot per seat is a copy of this: [*per_seat]
        self.bank_shown = [tuple(p == b for p in range(n)) for b in range(n)]   # and hands shown: the bank's
        self._tables = None

    def player_names(self) -> list[str]:
        return NAMES[:self.num_players]

    def full_deck(self) -> list[Card]:
        return list(PIQUET32.cards)

    def random_deal(self, rng: Rng) -> Deal:
        """A uniform shuffle of the pack from two 64-bit draws: a number below the largest multiple of 32!
        that 128 bits hold (rejection sampling, no bias), whose value modulo 32! numbers the order: its digits
        in the factorial number system (`perm_digits`). A coup uses few of its cards, so one draw per card (a
        Fisher-Yates shuffle) would cost more than its play; and the cards are worked out from the number
        only as they are given (`Deal.coded`, `_give`)."""
        while True:
            x = (rng.next64() << 64) | rng.next64()
            if x < _LIMIT:
                return Deal.coded(x, deal_cards)   # the play reads its cards from the number, as they are given

    def stack(self, hands, stock="", bank: int | None = None) -> str:
        """The deal text of a coup: `hands` in seat order — each player's first two cards, the bank's own
        first card (one card; two where its second comes with the players', VU-1.3.1) — then `stock`, the
        cards drawn afterwards in the order they are drawn (the players' in turn, then the bank's); unlisted
        cards go to the bottom. `bank`: the seat that holds the bank (the last seat for the first coup)."""
        n = self.num_players
        if not isinstance(hands, (list, tuple)):
            raise IllegalActionError("VU-1.1", f"give the hands as a list of {n} hands, not {type(hands).__name__}")
        b = n - 1 if bank is None else bank
        if not isinstance(b, int) or isinstance(b, bool) or not 0 <= b < n:
            raise IllegalActionError("VU-1.1", f"the bank is a seat from 0 to {n - 1}, not {bank!r}")
        hs = [PIQUET32.parse_many(h) for h in hands]
        two = self.bank_second                   # VU-1.3.1: the bank's second card comes with the players'
        if len(hs) != n or any(len(h) != (2 if p != b or two else 1) for p, h in enumerate(hs)):
            raise IllegalActionError("VU-1.1", f"give {n} hands in seat order: two cards for each player, "
                                     + ("two for the bank (its second comes with the players')" if two else
                                        "one (its open card) for the bank"))
        order = [(b + 1 + k) % n for k in range(n - 1)]
        cards = ([hs[p][0] for p in order] + [hs[b][0]] + [hs[p][1] for p in order] + hs[b][1:]
                 + PIQUET32.parse_many(stock))
        rest = list(PIQUET32.cards)
        for c in cards:
            if c not in rest:
                raise IllegalActionError("VU-0", f"{c.label} is listed twice (the pack holds each card once)")
            rest.remove(c)
        return "deal: " + PIQUET32.format(cards + rest)

    def rule_tables(self) -> dict:
        if self._tables is None:
            d, m = self.double, self.mode
            self._tables = _Tables({"values": values_table, "settlement": lambda: settlement_table(d),
                                    "strategy": lambda: strategy_table(m)})
        return self._tables


# A hand's value as one int, its key: the non-Ace points plus MAXS for each Ace (a hand stops at 22 or more, so
# its points stay below 32 and its Aces below 5). KEY_ADD by card index; TOTAL_OF[mode][key] is the total.
KEY_ADD = [MAXS if IS_ACE[i] else PTS[i] for i in range(32)]
KEY_OF = {c: KEY_ADD[c.index] for c in PIQUET32.cards}
TOTAL_OF = [[TOTALS[m][k // MAXS][k % MAXS] for k in range(5 * MAXS)] for m in (0, 1)]
# RESULT_OF[mode][key]: the result code of a finished hand of three or more cards (with two: 21 is NATURAL)
RESULT_OF = [[result_code(t, 3) for t in tots] for tots in TOTAL_OF]
# MULTIPLE[double][bank's code][player's code]: the settlement table (`multiple`) by the bank's result
_CODES = (*range(22), DEAD, NATURAL)
MULTIPLE = [{bc: [multiple(bc, pc, dbl) if pc in _CODES else 0 for pc in range(NATURAL + 1)] for bc in _CODES}
            for dbl in (False, True)]


class VingtEtUnNarration(Narration):
    """How a game of Vingt-et-un is told (`cardkit.game.Narration`)."""
    __slots__ = ()

    def round_result(self) -> str:
        if not self.log:
            return ""
        entry = self.log[-1]
        bal = entry[4]
        return (f"Coup {entry[0]}: {self.coup_text(entry)}. Balances: "
                + ", ".join(f"{n} {_signed(b)}" for n, b in zip(self.names, bal)) + ".")

    def stakes_words(self) -> str:
        """The stakes the table takes, as its buttons offer them: "1, 2 or 5 units"."""
        offered = [k for k in STAKES if k <= self.game.options["limit"]]
        return (", ".join(map(str, offered[:-1])) + " or " if len(offered) > 1 else "") + \
            plural(offered[-1], "unit")

    def describe(self, action, after: VingtEtUnState | None = None) -> str:
        """What everyone sees: a card drawn face down stays unnamed; a dead hand is turned up and named; a
        move that ends the players' turns sets off the bank's play (its cards face up) and the settlement,
        each narrated on a line of its own when the position `after` the move is given."""
        names = self.names
        if action.__class__ is Deal:
            n = self.n
            b = self.bank
            card = action.cards[n - 1]
            return (f"Coup {self.coup + 1}: {names[b]} holds the bank and gives each player one card face down, "
                    f"its own face up: {card.label} [VU-1.1].")
        p = self.current_player
        who = names[p]
        d = action.data
        if self.phase == STAKE:
            line = f"{who} stakes {plural(d, 'unit')} [VU-1.2]."
            if self.k == len(self.order) - 1:
                if self.game.bank_second:
                    line += " Then everyone gets a second card, the bank too, face up [VU-1.3.1]."
                else:
                    line += " Then everyone gets a second card [VU-1.3]."
            return line
        ended = after is not None and after.phase == BETWEEN
        if p == self.bank:                      # the bank's own choice (VU-2.1, "as the holder chooses")
            if d == "draw":
                if after is None:
                    return f"{who}, the bank, draws a card face up [VU-2.1]."
                card = after.last[0][p][-1] if ended else after.hands[p][-1]
                total = result_words(after.last[2]) if ended else str(after.total(p))
                line = f"{who}, the bank, draws {card.label} face up: {total} [VU-2.1]."
            else:
                line = f"{who}, the bank, stands on {self.total(p)} [VU-2.1]."
            return line + ("\n" + after.settlement_words() if after is not None and ended else "")
        if d == "draw":
            if after is None:
                return (f"{who} asks for another card, face down; if it takes the hand over 21, the hand is dead "
                        f"at once [VU-1.4, VU-1.5].")
            hand = after.last[0][p] if ended else after.hands[p]
            dead = (after.last[4][p] if ended else after.shown[p])
            if dead:
                line = (f"{who} asks for another card: {hand[-1].label} — {hand_total(hand, self.game.mode)}, over 21: "
                        f"the hand is dead at once, turned face up ({' '.join(c.label for c in hand)}), and the "
                        f"stake of {plural(self.stake[p], 'unit')} goes to the bank [VU-1.4, VU-1.5].")
            else:
                line = f"{who} asks for another card and gets it face down [VU-1.4]."
        else:
            line = f"{who} stands [VU-1.4]."
            if after is None and self.k == len(self.order) - 1:
                line += " Then the bank draws face up [VU-2]."
        if after is not None and ended:
            line += "\n" + after.bank_words() + "\n" + after.settlement_words()
        elif after is not None and after.phase == BANK and self.phase == DRAW:
            line += f"\nNow {names[after.bank]}, the bank, plays: its cards face up, {after.total(after.bank)} [VU-2.1]."
        return line

    def narrate(self, action, after: VingtEtUnState | None = None, viewer: int | None = None) -> str:
        """As `describe`, and for the player who drew a card face down: which card, and the new total."""
        line = self.describe(action, after)
        p = self.current_player
        if (after is not None and viewer == p and p >= 0 and action.__class__ is not Deal and self.phase == DRAW
                and action.data == "draw" and p != self.bank):
            ended = after.phase == BETWEEN
            hand = after.last[0][p] if ended else after.hands[p]
            dead = after.last[4][p] if ended else after.shown[p]
            if not dead:
                first, rest = (line.split("\n", 1) + [""])[:2]
                first = (f"{self.names[p]} asks for another card: {hand[-1].label}, face down (only "
                         f"{self.names[p]} sees it) — the hand now counts {hand_total(hand, self.game.mode)} [VU-1.4].")
                line = first + ("\n" + rest if rest else "")
        return line

    def bank_words(self) -> str:
        """The bank's play in the coup just settled (the position after it): its cards, all face up, and its
        total (VU-2)."""
        hands, b, bcode, _, _ = self.last
        cards = hands[b]
        drawn = cards[1:]
        name = self.names[b]
        if not drawn:
            return f"{name}, the bank, draws no card (the pack is spent): {result_words(bcode)} [VU-2]."
        return (f"{name}, the bank, turns up {', '.join(c.label for c in drawn)} beside its {cards[0].label}: "
                f"{result_words(bcode)} [VU-2].")

    def settlement_words(self) -> str:
        """Who paid whom in the coup just settled (the position after it), by the settlement table (VU-3)."""
        _, b, bcode, results, _ = self.log[-1]
        bank = self.names[b]
        parts = []
        for p, st, pc, m in results:
            name = self.names[p]
            what = result_words(pc)
            if m > 0:
                parts.append(f"{name} ({what}) wins {plural(m * st, 'unit')} from {bank}")
            elif pc == DEAD and m == -1:
                parts.append(f"{name} (dead) has paid the stake of {plural(st, 'unit')} already")
            elif pc == DEAD:
                parts.append(f"{name} (dead, against a 21) pays {bank} a second stake of {plural(st, 'unit')}")
            else:
                parts.append(f"{name} ({what}) pays {bank} {plural(-m * st, 'unit')}")
        return f"The settlement, against the bank's {result_words(bcode)} [VU-3]: " + "; ".join(parts) + "."


class VingtEtUnState(VingtEtUnNarration, State):
    """A sitting. The play keeps only what decides it: the cards, the stakes, who is dead. The money (``ledger``,
    ``log``, ``scores``) is worked out from the coups played (``_coups``) when it is looked at: the entries of
    a coup follow from its hands and stakes by the rules (VU-1.2, VU-1.5, VU-3), in the order they were made."""
    game: VingtEtUn
    current_player = CHANCE                      # an attribute the play sets, not the base class's property

    # set up --------------------------------------------------------------------------------------------
    def _start(self) -> None:
        g = self.game
        n = self.n = g.num_players
        self.names = g.player_names()
        self._tot = TOTAL_OF[g.mode]
        self.bank = n - 1                        # VU-2.2: the last seat holds the first bank (kit's choice)
        self.coup = 0                            # coups finished
        self.phase = BETWEEN
        self.order: tuple = ()                   # the players from the bank's left (VU-1.1)
        self.k = 0                               # whose turn in `order`
        self._dealt: Deal | None = None          # this coup's Deal
        self._code = 0                           # the digits of its number not yet used (`perm_digits`) and
        self._rest: list[Card] = []              # the cards not yet given, in the pack's order
        self.hands: list[list[Card]] = [[] for _ in range(n)]
        self.keys = [0] * n                      # each hand's value key (KEY_ADD)
        self.stake = [0] * n
        self.shown = [False] * n                 # hands shown to all: the bank's, a dead player's (VU-3.8)
        self._coups: list[tuple] = []            # per coup played: (coup, bank, order, hands, stakes, shown)
        self._ledger = Ledger(self.names)        # `ledger`, posted up to `_posted`: (coups, entries of the next)
        self._posted = (0, 0)
        self._log: list[tuple] = []              # `log` as far as it has been read
        self.current_player = CHANCE

    # the money and the coups played, worked out when looked at ----------------------------------------
    @property
    def coups_played(self) -> list:
        """The coups played so far, each (coup, bank, order, hands, stakes, shown): read it, do not change it."""
        return self._coups

    @property
    def cards_left(self) -> int:
        """The cards not yet given from the pack."""
        return len(self._rest)

    def result_codes(self, coup: tuple) -> tuple:
        """The bank's result code and each player's, for a coup of `coups`."""
        return self._result_codes(coup)

    def _result_codes(self, coup: tuple) -> tuple:
        """The bank's result code and the results of a coup played: ((player, stake, result code, multiple),
        …) in the players' order, by the settlement table (VU-3)."""
        _, b, order, hands, stake, _ = coup
        result = RESULT_OF[self.game.mode]
        codes = []
        for h in hands:
            c = result[sum(map(KEY_OF.__getitem__, h))]
            codes.append(NATURAL if c == TWENTYONE and len(h) == 2 else c)
        bcode = codes[b]
        mult = MULTIPLE[self.game.double][bcode]
        return bcode, tuple((p, stake[p], codes[p], mult[codes[p]]) for p in order)

    def _entries(self, coup: tuple, settled: bool) -> list:
        """The ledger entries of a coup, in the order they were made: the stakes (VU-1.2), a dead player's
        stake to the bank (VU-1.5), then, once the coup is `settled`, the settlement (VU-3)."""
        c, b, order, hands, stake, shown = coup
        names = self.names
        bank = names[b]
        out = [(names[p], TABLE, stake[p], "stake", "VU-1.2", c) for p in order if stake[p]]
        out += [(TABLE, bank, stake[p], "dead: the stake to the bank", "VU-1.5", c) for p in order if shown[p]]
        if settled:
            for p, st, pc, m in self._result_codes(coup)[1]:
                if pc == DEAD:
                    if m == -2:
                        out.append((names[p], bank, st, "dead against a 21: a second stake", "VU-3", c))
                elif m < 0:
                    out.append((TABLE, bank, st, "the stake to the bank", "VU-3", c))
                    if m == -2:
                        out.append((names[p], bank, st, "a second stake to the bank", "VU-3", c))
                else:
                    out.append((TABLE, names[p], st, "the stake back", "VU-3", c))
                    out.append((bank, names[p], m * st, "won from the bank", "VU-3", c))
        return out

    @property
    def ledger(self) -> Ledger:
        """The sitting's money in units (VU-1.2, VU-1.5, VU-3): every coup's entries, posted when the ledger is
        read (`_posting.post`), those of the coup in play as far as it has gone."""
        current = None
        if self.phase != BETWEEN:
            current = (self.coup + 1, self.bank, self.order, self.hands, self.stake, self.shown)
        self._posted = post(self._ledger, self._posted, self._coups, self._entries, current)
        return self._ledger

    @property
    def log(self) -> list[tuple]:
        """Per coup played: (coup, bank, the bank's result, results, everyone's balance after it). The balances
        are counted from the ledger's entries, each tagged with its coup."""
        log, coups = self._log, self._coups
        if len(log) < len(coups):
            names = self.names
            entries = self.ledger.entries
            bal = dict.fromkeys(names, 0)
            i = 0
            for k, coup in enumerate(coups):
                c = coup[0]
                while i < len(entries) and entries[i][0] <= c:
                    _, payer, payee, amount, _, _ = entries[i]
                    if payer in bal:
                        bal[payer] -= amount
                    if payee in bal:
                        bal[payee] += amount
                    i += 1
                if k >= len(log):
                    log.append((c, coup[1], *self._result_codes(coup), tuple(bal[x] for x in names)))
        return log

    @property
    def last(self):
        """The last coup played: (hands, bank, the bank's result, results, hands shown), or None."""
        if not self._coups:
            return None
        coup = self._coups[-1]
        return (coup[3], coup[1], *self._result_codes(coup), coup[5])

    @property
    def dead(self) -> list[bool]:
        """Who is dead in this coup (VU-1.5): the players whose hands are shown (the bank's always is)."""
        return [self.shown[p] and p in self.order for p in range(self.n)]

    @property
    def coups(self) -> int:
        """Coups in the sitting (VU-0.2)."""
        return self.game.coups

    @property
    def top(self) -> int:
        """How many cards of this coup's deal have been given."""
        return 32 - len(self._rest) if self._dealt is not None else 0

    @property
    def cards(self) -> tuple:
        """This coup's deal, all its cards (the play works out only those it gives, from the deal's number)."""
        return self._dealt.cards if self._dealt is not None else ()

    # dealing -----------------------------------------------------------------------------------------
    def _give(self, p: int) -> int:
        """The deal's next card to `p` (its next digit, `perm_digits`, picks it among the cards left);
        returns `p`'s new total."""
        rest = self._rest
        self._code, j = divmod(self._code, len(rest))
        c = rest.pop(j)
        self.hands[p].append(c)
        k = self.keys[p] = self.keys[p] + KEY_ADD[c.index]
        return self._tot[k]

    def total(self, p: int) -> int:
        return self._tot[self.keys[p]]

    def _deal(self, deal: Deal) -> list:
        n, b = self.n, self.bank
        self._dealt = deal
        code = deal.code if deal.code is not None else deal_number(deal.cards)
        g = self.game
        rest = self._rest = [*PIQUET32.cards]
        self.stake = [*g.per_seat]
        self.shown = [*g.bank_shown[b]]          # the bank's cards lie face up (VU-1.1, VU-2)
        self.order = order = g.orders[b]
        hands: list = [*g.per_seat]              # (every seat gets its hand here)
        self.hands = hands
        keys = self.keys                         # (every seat's key is set here)
        for p in g.deal_orders[b]:               # VU-1.1: one card face down to each from the bank's left,
            code, j = divmod(code, len(rest))    # the bank's own last, face up (each card as `_give` gives it)
            c = rest.pop(j)
            hands[p] = [c]
            keys[p] = KEY_ADD[c.index]
        self._code = code
        self.phase = STAKE
        self.k = 0
        self.current_player = order[0]
        return [*g.stake_actions]

    # play ----------------------------------------------------------------------------------------------
    # `_deal`, `_apply` return the next position's legal actions when it is a player's (as `_legal` gives them)
    def _legal(self) -> list:
        if self.phase == STAKE:
            return [*self.game.stake_actions]
        if self._rest:
            return [DRAW_A, STAND_A]
        return [STAND_A]                         # VU-1.6: the pack is spent

    def _apply(self, action) -> list | None:
        d = action.data
        p = self.current_player
        phase = self.phase
        if phase == STAKE:                       # VU-1.2
            self.stake[p] = d
            order = self.order
            k = self.k = self.k + 1
            if k < len(order):
                self.current_player = order[k]
                return [*self.game.stake_actions]
            for q in order:                      # VU-1.3: a second card to all, from the left again
                self._give(q)
            if self.game.bank_second:            # VU-1.3.1, the classic reading: the bank's too, face up
                self._give(self.bank)
            self.phase = DRAW
            self.k = 0
            self.current_player = order[0]
            return [DRAW_A, STAND_A]             # a full pack has cards left after the second round
        if phase == DRAW:
            if d == "draw":                      # VU-1.4: another card on request
                if self._give(p) > 21:           # VU-1.5: dead at once, the hand shown, the stake to the bank
                    self.shown[p] = True
                elif self._rest:
                    return [DRAW_A, STAND_A]
            return self._next_player()           # stands, is dead, or has no card left to ask for (VU-1.6)
        # the bank's own choice (VU-2.1, reading "free"): it draws on below 21 while cards are left
        if d == "draw" and self._give(p) < 21 and self._rest:
            return [DRAW_A, STAND_A]
        self._settle()
        return None

    def _next_player(self) -> list | None:
        k = self.k = self.k + 1
        if k < len(self.order):
            self.current_player = self.order[k]
            return [DRAW_A, STAND_A] if self._rest else [STAND_A]
        # VU-2: the bank gives itself cards, face up (its second first, unless it came with the players')
        b = self.bank
        t = self._give(b) if self._rest and len(self.hands[b]) < 2 else self.total(b)
        if self.game.fixed:
            while t < STAND_ON and self._rest:
                t = self._give(b)
        elif t < 21 and self._rest:
            self.phase = BANK
            self.current_player = b
            return [DRAW_A, STAND_A]
        self._settle()
        return None

    def _settle(self) -> None:
        """VU-3: every player is settled against the bank by the table (the entries are worked out from the
        coup when the ledger is read: `_entries`); then the bank passes (VU-2.2)."""
        b = self.bank
        coup = (self.coup + 1, b, self.order, self.hands, self.stake, self.shown)   # the next deal makes
        self._coups.append(coup)                                                     # new lists
        nb = self.game.next_bank
        if nb == "left":
            self.bank = (b + 1) % self.n
        elif nb == "natural":                    # a player's two-card 21 takes it, unless the bank has one
            bcode, results = self._result_codes(coup)
            if bcode != NATURAL:
                for p, _, pc, _ in results:
                    if pc == NATURAL:
                        self.bank = p
                        break
        self.coup += 1
        self.phase = BETWEEN
        self.current_player = TERMINAL if self.coup >= self.game.coups else CHANCE

    def _illegal(self, text: str) -> IllegalActionError:
        t = text.strip().lower()
        limit = self.game.options["limit"]
        offered = ", ".join(str(k) for k in STAKES if k <= limit)
        if self.current_player < 0:
            return super()._illegal(text)
        who = self.names[self.current_player]
        if t.startswith("stake"):
            word = t[5:].strip()
            if self.phase != STAKE:
                return IllegalActionError("VU-1.2", f"the stakes are made after the first card and before the "
                                          f"second; {who} has staked already and now draws or stands", text)
            try:
                k = int(word)
            except ValueError:
                return IllegalActionError("VU-1.2", f"a stake is a whole number of units: {offered}", text)
            if k < 1:
                return IllegalActionError("VU-1.2", f"a stake of {k} is below the table's lowest stake of 1 unit", text)
            if k > limit:
                return IllegalActionError("VU-1.2", f"a stake of {k} units is above the table's limit of "
                                          f"{plural(limit, 'unit')}", text)
            return IllegalActionError("VU-1.2", f"the table takes stakes of {offered} units, not {k}", text)
        if t in ("draw", "draw a card", "stand"):
            if self.phase == STAKE:
                return IllegalActionError("VU-1.2", f"{who} stakes first: more cards come only after the second "
                                          "card", text)
            if t != "stand" and self.top >= 32:
                return IllegalActionError("VU-1.6", "the pack is spent: no card is left to draw", text)
            return IllegalActionError("VU-1.4", f"{who} may draw a card or stand now: "
                                      + ", ".join(a.label for a in self.legal_actions()), text)
        # a card of the hand, clicked or named: nothing is played from the hand in Vingt-et-un
        card = None
        try:
            card = PIQUET32.parse(text.strip())
        except CardkitError:
            pass
        if card is not None:
            now = (f"{who} stakes now ({offered} units)" if self.phase == STAKE else f"{who} draws a card or stands")
            return IllegalActionError("VU-1.2" if self.phase == STAKE else "VU-1.4", f"in Vingt-et-un no card is "
                                      f"played: the {card.label} stays in the hand; {now}", text)
        # not a move of the game at all: the rule of the decision in front of the player
        if self.phase == STAKE:
            return IllegalActionError("VU-1.2", f"{text!r} is not a move of Vingt-et-un: {who} stakes now "
                                      f"({offered} units: e.g. stake 1)", text)
        rule = "VU-2.1" if self.phase == BANK else "VU-1.4"
        return IllegalActionError(rule, f"{text!r} is not a move of Vingt-et-un: {who} draws a card or stands "
                                  "(no card is played from the hand)", text)

    # results -------------------------------------------------------------------------------------------
    def _scores(self) -> list:
        bal = self.ledger.balances
        return [bal[x] for x in self.names]

    def _fork(self) -> "VingtEtUnState":
        """An independent copy of the position (clone, undo, resample, the expert's playouts): the containers the
        play changes are copied (a coup played is never changed once made; the ledger is posted when read)."""
        c = self._fork_base()
        c.hands = [list(h) for h in self.hands]
        c.keys = list(self.keys)
        c.stake = list(self.stake)
        c.shown = list(self.shown)
        c._rest = list(self._rest)
        c._coups = list(self._coups)
        c._ledger = self._ledger.copy()
        c._log = list(self._log)
        return c

    def _snapshot(self) -> tuple:
        t = lambda cs: tuple(c.text for c in cs)  # noqa: E731
        return (self.bank, self.coup, self.phase, self.current_player, self.k, tuple(self.order), t(self.cards),
                self.top, tuple(t(h) for h in self.hands), tuple(self.stake), tuple(self.dead), tuple(self.shown),
                self.ledger.snapshot(), tuple(self.log))

    def balances(self) -> list[int]:
        return self._scores()

    # what resample needs -------------------------------------------------------------------------------
    def _deal_owners(self) -> list:
        owner = {c: p for p in range(self.n) for c in self.hands[p]}
        return [owner[c] for c in self.cards[:self.top]] + [None] * (32 - self.top)

    def _revealed(self) -> list:
        return [(p, c) for p in range(self.n) if self.shown[p] for c in self.hands[p]]

    # the odds (VU-1.4, VU-2.1) -----------------------------------------------------------------------
    def seen_by(self, p: int) -> list:
        """The cards of this coup that seat `p` has seen: its own, and every hand shown to all."""
        out = []
        for q in range(self.n):
            if q == p or self.shown[q]:
                out += self.hands[q]
        return out

    def advice(self, player: int) -> list:
        self._check_seat(player)
        if player != self.current_player or self.phase == BETWEEN:
            return []
        g = self.game
        mode, double = g.mode, g.double
        pool = pool_without(self.seen_by(player))
        unseen = sum(pool)
        note = f"over the {plural(unseen, 'card')} you have not seen"
        bank = odds_hand(self.hands[self.bank])
        me = odds_hand(self.hands[player])
        rule = "; the bank drawing to 16 and standing on 17" + ("" if g.fixed else " (the kit's model of the bank)")
        if self.phase == STAKE:
            v = odds_hand_value(me, bank, pool, mode, double, g.bank_second)
            return [Odds("Expected result per unit staked, playing by the odds", v, "stake", note + rule),
                     Odds("Your second card brings you to 21", Fraction(
                         sum(pool[k] for k in range(7) if pool[k] and _code(_add(me, k), mode) == NATURAL),
                         unseen), "chance", note)]
        if player == self.bank:
            return [Odds("You go dead if you draw", odds_dead(me, pool, mode), "chance", note)]
        st = self.stake[player]
        out = [Odds("You go dead if you draw", odds_dead(me, pool, mode), "chance", note),
               Odds(f"Expected result if you stand (stake {st})", st * odds_stand(me, bank, pool, mode, double),
                    "stake", note + rule)]
        if unseen and self.top < 32:
            out.append(Odds(f"Expected result if you draw, then play on by the odds (stake {st})",
                            st * odds_draw(me, bank, pool, mode, double), "stake", note + rule))
        return out

    # presentation ------------------------------------------------------------------------------------
    def _view(self, player: int | None = None) -> View:
        g = self.game
        cp = self.current_player
        dead = self.dead
        names = self.names
        teacher = player is None
        seats = []
        bal = self.ledger.balances
        live = self.phase != BETWEEN
        for p in range(self.n):
            visible = teacher or player == p or self.shown[p] or not live
            h = self.hands[p] if live else []
            hand = list(h) if visible else [None] * len(h)
            if p == self.bank:
                info = "the bank"
                if live and h:
                    info += f" · total {self.total(p)}"
            else:
                bits = []
                if live and self.stake[p]:
                    bits.append(f"stake {self.stake[p]}")
                if live and dead[p]:
                    bits.append("dead")
                elif self.phase == BANK or (self.phase == DRAW and self.order.index(p) < self.k):
                    bits.append("stands")
                if live and (teacher or player == p) and h:
                    bits.append(f"total {self.total(p)}")
                info = " · ".join(bits)
            seats.append(Seat(p, names[p], hand, score=_signed(bal[names[p]], "unit"), info=info,
                              current=p == cp))
        piles = []
        if live:
            piles.append(Pile("Stakes on the table", [], note=", ".join(
                f"{names[p]} {self.stake[p]}" for p in self.order if self.stake[p] and not dead[p])
                or "none yet", kind=""))
            piles.append(Pile("Stock", [], count=32 - self.top, kind="stock"))
        if self.last is not None:
            hands, b, bcode, results, shown = self.last
            cards = [(names[q], c) for q in [*(r[0] for r in results), b]
                     if teacher or q == player or shown[q] for c in hands[q]]
            piles.append(Pile(f"Coup {self.log[-1][0]}", cards, kind="last-trick", note=self.coup_text(self.log[-1])))
        legal = list(self.legal_actions()) if cp >= 0 and player in (None, cp) else []
        term = cp == TERMINAL
        facts = [("Bank", f"{names[self.bank]}" + (" holds it" if live else " holds it next")),
                 ("Coup", f"{self.coup if cp == TERMINAL else self.coup + 1} of {self.coups}"),
                 ("Stakes", self.stakes_words()),
                 ("Balances", ", ".join(f"{names[p]} {_signed(bal[names[p]])}" for p in range(self.n)))]
        if g.options["ace"] != "eleven":
            facts.append(("Ace", "counts 1 or 11"))
        return View(g.name, g.title, player, seats, piles, self.status(), cp if cp >= 0 else None,
                    term, self.result_text() if term else "", legal, facts)

    def progress(self) -> tuple[str, str]:
        if self.current_player == CHANCE:
            return f"Coup {self.coup + 1}", ""
        if self.current_player == TERMINAL:
            return f"Coup {self.coup}", "End of the sitting"
        return f"Coup {self.coup + 1}", ""

    def score_table(self):
        names = self.names
        rows = [[f"Coup {c}", names[b], result_words(bc), *(_signed(x) for x in bal)]
                for c, b, bc, _, bal in self.log]
        return Table(["", "bank", "the bank's result", *names], rows,
                     "Balances after each coup, in units (VU-3)")

    def coup_text(self, entry) -> str:
        c, b, bcode, results, _ = entry
        names = self.names
        parts = []
        for p, st, pc, m in results:
            if m > 0:
                what = f"wins {plural(m * st, 'unit')}"
            else:
                what = f"pays {plural(-m * st, 'unit')}"
            parts.append(f"{names[p]} {result_words(pc)}: {what}")
        return (f"{names[b]}'s bank: {result_words(bcode)}. " + "; ".join(parts)
                + " — by the settlement table [VU-3]")

    def status(self) -> str:
        names = self.names
        if self.current_player == CHANCE:
            prefix = f"Coup {self.log[-1][0]}: {self.coup_text(self.log[-1])}. " if self.log else ""
            return f"{prefix}Coup {self.coup + 1}: {names[self.bank]} holds the bank and is about to deal."
        if self.current_player == TERMINAL:
            return self.result_text()
        p = names[self.current_player]
        bh = self.hands[self.bank]
        bank_card = (" and ".join(c.label for c in bh) + (f" ({self.total(self.bank)})" if len(bh) > 1 else "")
                     if bh else "")
        if self.phase == STAKE:
            return f"Coup {self.coup + 1}: {p} stakes ({self.stakes_words()}); the bank shows {bank_card}."
        if self.phase == DRAW:
            return f"{p} draws a card or stands; the bank shows {bank_card}."
        return f"{p} (the bank, {self.total(self.bank)}) draws a card or stands."

    def result_text(self) -> str:
        names = self.names
        bal = self._scores()
        best = max(bal)
        w = [names[p] for p in range(self.n) if bal[p] == best]
        lines = ", ".join(f"{names[p]} {_signed(bal[p])}" for p in range(self.n))
        head = f"{w[0]} wins the sitting" if len(w) == 1 else " and ".join(w) + " share the best balance"
        return f"After {plural(self.coup, 'coup')}: {head} ({lines})."

def _signed(x: int, unit: str = "") -> str:
    s = f"+{x}" if x > 0 else f"−{-x}" if x < 0 else "0"
    if unit:
        s += " " + (unit if abs(x) == 1 else unit + "s")
    return s


VingtEtUn.State = VingtEtUnState
GAME = VingtEtUn


# --- tables generated from the engine --------------------------------------------------------------------
def values_table() -> Table:
    rows = [["Ace", "11 (two Aces together: 21)"], ["King", "2"], ["Queen", "1"], ["Jack", "1"],
            ["10, 9, 8, 7", "by their pips: 10, 9, 8, 7"]]
    return Table(["card", "counts"], rows, "What the cards count")


SOURCE_ROWS = ("21(2 K.)2EÕB*2EÕB2EÕB-----", "21(>2 K.)1EÕB2EÕB1EÕB1EÕS **", "unter 211EÕS1EÕB1EÕB1EÕS",
               "über 212EÕS1EÕB-----1EÕS")
ROW_NAMES = ("21 with two cards", "21 with more cards", "under 21", "over 21 (dead)")
COLUMN_NAMES = ("the player has 21", "the player is dead", "equal to the bank or worse", "better than the bank")
IMPOSSIBLE = "— (impossible)"


def _stakes(m: int) -> str:
    return f"{plural(abs(m), 'stake')} to the {'player' if m > 0 else 'bank'}"


def settlement_cell(r: int, c: int, double: bool = False) -> str:
    """One cell of the settlement table, in words, from `multiple` (VU-3): rows as ROW_NAMES, columns as
    COLUMN_NAMES."""
    bank = (NATURAL, TWENTYONE, 18, DEAD)[r]
    if c == 1:
        return _stakes(multiple(bank, DEAD, double))
    if c == 0:
        if r == 1:
            return _stakes(multiple(bank, TWENTYONE, double)) + " (a two-card 21 is better: the second footnote)"
        more, two = multiple(bank, TWENTYONE, double), multiple(bank, NATURAL, double)
        if more == two:
            return _stakes(more)
        note = " (the first footnote)" if r == 0 else ""
        return f"{_stakes(more)}; with two cards {_stakes(two)}{note}"
    if c == 2:
        if r == 3:
            return IMPOSSIBLE
        return _stakes(multiple(bank, 17 if r == 2 else 18, double)) + (" (ties: the bank wins)" if r == 2 else "")
    if r == 0:
        return IMPOSSIBLE
    if r == 1:
        return _stakes(multiple(bank, NATURAL, double)) + " (only a two-card 21: the second footnote)"
    return _stakes(multiple(bank, 20 if r == 2 else 17, double))


def settlement_table(double: bool = False) -> Table:
    rows = [[f"the bank: {ROW_NAMES[r]}", *(settlement_cell(r, c, double) for c in range(4)), SOURCE_ROWS[r]]
            for r in range(4)]
    return Table(["", *COLUMN_NAMES, "the source's row as printed"], rows,
                 "Settlement against the bank, E being the player's stake")


STRATEGY_TOTALS = (2, 3, 4, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20)


_STRATEGY: dict = {}
# The chart as the engine counts it (`strategy_table(mode, count=True)`, about a second; tests/test_vingt_et_un.py
# counts it again and compares): one letter per cell, row by row (STRATEGY_TOTALS), d = draw, s = stand. The
# page shows it from here, so that it opens without the wait.
STRATEGY_CHART = {
    0: "ddddddddddddddddddddddddddddddddddddddddddddddddddddddddd"
       "sdddddsssssssssssssssssssssssssssssssssssssssssssssssss",
    1: "ddddddddddddddddddddddddddddddddddddddddddddddddddddddddd"
       "ddddddsssssssssssssssssssssssddddssssddddssssssdsssssss",
}


def _chart_table(rows) -> Table:
    return Table(["your total", *(f"bank shows {x}" for x in CLASS_SHORT)], rows,
                 "Draw or stand, by the exact odds (the bank draws to 16, stands on 17)")


def strategy_table(mode: int = 0, count: bool = False) -> Table:
    """The chart does not depend on what a two-card 21 wins: after two cards no draw makes one.

    The drawing chart for the source's card values: for each two-card total (every two-card hand of that
    total, weighted by how often it is dealt) against each open card of the bank, whether drawing (and
    then playing on by the odds) is expected to win more than standing, by the exact odds from a full pack
    less the three cards seen."""
    if not count:
        cells = ["draw" if x == "d" else "stand" for x in STRATEGY_CHART[mode]]
        return _chart_table([[str(t), *cells[7 * i:7 * i + 7]] for i, t in enumerate(STRATEGY_TOTALS)])
    if mode in _STRATEGY:
        return _STRATEGY[mode]
    rows = []
    for t in STRATEGY_TOTALS:
        row_ = [str(t)]
        if t + 11 <= 21:              # no card takes the hand over 21: drawing is never worse
            rows.append(row_ + ["draw"] * 7)
            continue
        for b in range(7):
            bank = _add((0, 0, 0), b)
            diff = 0
            for i in range(7):
                for j in range(i, 7):
                    hand = _add(_add((0, 0, 0), i), j)
                    if _code(hand, mode) != t:
                        continue
                    pool = list(FULL_POOL)
                    pool[b] -= 1
                    ways = pool[i] * (pool[i] - 1) // 2 if i == j else pool[i] * pool[j]
                    if ways <= 0:
                        continue
                    pool[i] -= 1
                    pool[j] -= 1
                    if min(pool) < 0:
                        continue
                    pt = tuple(pool)
                    _, stand, draw = _ev_best(hand, bank, pt, mode, False)
                    diff += ways * (draw - stand)
            row_.append("draw" if diff > 0 else "stand")
        rows.append(row_)
    table = _STRATEGY[mode] = _chart_table(rows)
    return table
