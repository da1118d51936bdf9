"""The Odds panel's exact odds, cold: today's fast computation (`cardkit.games.vingt_et_un`: the bank's draws
compiled once, summed by value classes, and the player's tree cut by exchangeability) gives the same exact
fractions as the computation it replaced, kept here as it was (`_old_*`), on thousands of positions: every
position of the player's tree under a stake decision, the bank's results over every pool met there, small
pools where the bank can run out of cards, and the Odds panel at positions of seeded sittings. (How fast it is
lives in `cardkit bench`, not here.)"""
from __future__ import annotations

from fractions import Fraction

import pytest

import cardkit
from cardkit.games import vingt_et_un as vu
from cardkit.games.vingt_et_un import (DEAD, FULL_POOL, MAXS, STAND_ON, TOTALS, _FACT, _add, _code, _hand_plus,
                                       multiple, result_code)
from cardkit.rng import Rng

# --- the computation as it was before the cold-odds work (issue 38), verbatim but for the names ----------
_OLD_BANK_MEMO: dict = {}
_OLD_EV_MEMO: dict = {}
_FF = [[_FACT[n] // _FACT[n - d] if d <= n else 0 for d in range(13)] for n in range(13)]

_OLD_TERMS: dict = {}


def _old_bank_terms(bank, mode):
    """The bank's possible draws from `bank` under the fixed rule, independent of the pool: every multiset
    of value classes after which it stops, with the number of its orderings that stop only at the last
    card, and every multiset after which it would still draw (for a pool it empties). The chance of an
    ordered draw depends on its multiset only, so a pool's distribution is a sum over these."""
    key = (bank, mode)
    r = _OLD_TERMS.get(key)
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
    r = _OLD_TERMS[key] = (terms, nonstop)
    return r




def _old_bank_dist(bank, pool, mode):
    """The bank's results under the fixed rule (draw to 16, stand on 17; it stands when no card is left),
    from `bank` (a hand) over `pool`: {result code: numerator over M!} with M the pool's size."""
    key = (bank, pool, mode)
    d = _OLD_BANK_MEMO.get(key)
    if d is not None:
        return d
    terms, nonstop = _old_bank_terms(bank, mode)
    m = sum(pool)
    fact = _FACT
    rows = [_FF[x] for x in pool]
    d = {}
    for k, group in enumerate(terms):
        if k > m:
            break
        part: dict = {}
        for code, cnt, nz in group:
            w = cnt
            for i, x in nz:
                w *= rows[i][x]
            if w:
                part[code] = part.get(code, 0) + w
        f = fact[m - k]
        for code, w in part.items():
            d[code] = d.get(code, 0) + w * f
    c = nonstop.get(pool)
    if c:                                       # the pool runs out before the bank reaches 17: it stands
        w = c
        for x in pool:
            w *= fact[x]
        h = _hand_plus(bank, pool)
        code = result_code(TOTALS[mode][h[1]][min(h[0], MAXS - 1)], h[2])
        d[code] = d.get(code, 0) + w
    if len(_OLD_BANK_MEMO) > 400_000:
        _OLD_BANK_MEMO.clear()
    _OLD_BANK_MEMO[key] = d
    return d


def _old_ev_stand(hand, bank, pool, mode, double) -> int:
    """The stand's expected settlement, in stakes, as a numerator over M!."""
    me = _code(hand, mode)
    return sum(w * multiple(code, me, double) for code, w in _old_bank_dist(bank, pool, mode).items())


def _old_ev_dead(bank, pool, mode) -> int:
    return sum(w * multiple(code, DEAD) for code, w in _old_bank_dist(bank, pool, mode).items())


def _old_ev_best(hand, bank, pool, mode, double):
    """(best, stand, draw) numerators over M!: standing now, or drawing and then playing on by the odds."""
    key = (hand, bank, pool, mode, double)
    r = _OLD_EV_MEMO.get(key)
    if r is not None:
        return r
    stand = _old_ev_stand(hand, bank, pool, mode, double)
    m = sum(pool)
    if m == 0:
        r = (stand, stand, None)
    else:
        draw = 0
        for k in range(7):
            c = pool[k]
            if c:
                nh = _add(hand, k)
                rest = pool[:k] + (c - 1,) + pool[k + 1:]
                if _code(nh, mode) == DEAD:
                    draw += c * _old_ev_dead(bank, rest, mode)
                else:
                    draw += c * _old_ev_best(nh, bank, rest, mode, double)[0]
        r = (max(stand, draw), stand, draw)
    if len(_OLD_EV_MEMO) > 400_000:
        _OLD_EV_MEMO.clear()
    _OLD_EV_MEMO[key] = r
    return r


def _old_ev_value_num(first, bank, pool, mode, double, bank_second: bool = False) -> int:
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
            total += c * _old_ev_best(hand, bank, rest, mode, double)[0]
            continue
        for j in range(7):
            cj = rest[j]
            if cj:
                total += c * cj * _old_ev_best(hand, _add(bank, j), rest[:j] + (cj - 1,) + rest[j + 1:], mode,
                                           double)[0]
    return total




# --- the checks ---------------------------------------------------------------------------------------------
def _clear():
    vu.clear_memos()
    for memo in (_OLD_BANK_MEMO, _OLD_EV_MEMO, _OLD_TERMS):
        memo.clear()


def _pool_less(*classes):
    p = list(FULL_POOL)
    for k in classes:
        p[k] -= 1
    return tuple(p)


_POSITIONS = 0

# stake decisions: (ace mode, the bank's second card with the players', natural doubles, bank's class, own class)
STAKES = [(0, False, False, 1, 0), (0, True, True, 5, 2), (1, False, False, 4, 6), (1, False, True, 3, 1),
          (1, True, False, 5, 4)]


@pytest.mark.parametrize("mode,second,double,b,k", STAKES)
def test_a_stake_decision_and_every_position_under_it_have_the_same_exact_odds(mode, second, double, b, k):
    """The stake's value, then every position of the player's tree the old computation met under it (best,
    stand and draw) and the bank's results over every pool it met: the same numerators."""
    _clear()
    bank, first, pool = _add((0, 0, 0), b), _add((0, 0, 0), k), _pool_less(b, k)
    assert vu._ev_value_num(first, bank, pool, mode, double, second) == \
        _old_ev_value_num(first, bank, pool, mode, double, second)
    assert len(_OLD_EV_MEMO) > 150
    global _POSITIONS
    _POSITIONS += len(_OLD_EV_MEMO) + len(_OLD_BANK_MEMO)
    for (hand, bk, p, md, dbl), want in list(_OLD_EV_MEMO.items()):
        assert vu._ev_best(hand, bk, p, md, dbl) == want, (hand, bk, p)
    for (bk, p, md), want in list(_OLD_BANK_MEMO.items()):
        assert vu._bank_dist(bk, p, md) == want, (bk, p)


def _random_hand(rng, pool, cards):
    h = (0, 0, 0)
    for _ in range(cards):
        ks = [k for k in range(7) if pool[k]]
        k = ks[rng.below(len(ks))]
        pool[k] -= 1
        h = _add(h, k)
    return h


def test_small_pools_where_the_bank_can_run_out_of_cards():
    """Pools of 0 to 11 cards: the bank may empty the pool below 17 (then the shortcuts by exchangeability
    are off), hands of one to three cards, 1 or 2 cards for the bank, every reading of the Ace and the natural."""
    rng = Rng(38)
    _clear()
    for _ in range(400):
        pool = list(FULL_POOL)
        bank = _random_hand(rng, pool, 1 + rng.below(2))
        hand = _random_hand(rng, pool, 1 + rng.below(3))
        while sum(pool) > rng.below(12):          # drop cards at random down to a small pool
            ks = [k for k in range(7) if pool[k]]
            pool[ks[rng.below(len(ks))]] -= 1
        pool = tuple(pool)
        mode, double = rng.below(2), bool(rng.below(2))
        assert vu._bank_dist(bank, pool, mode) == _old_bank_dist(bank, pool, mode)
        assert vu._ev_best(hand, bank, pool, mode, double) == _old_ev_best(hand, bank, pool, mode, double)
        if hand[2] == 1 and bank[2] == 1:
            for second in (False, True):
                assert vu._ev_value_num(hand, bank, pool, mode, double, second) == \
                    _old_ev_value_num(hand, bank, pool, mode, double, second)


OPTIONS = [{}, {"ace": "one or eleven"}, {"ace": "one or eleven", "bank_second": "with"},
           {"bank_second": "with", "natural": "double"}, {"ace": "one or eleven", "natural": "double", "players": 5}]


def _old_advice_figures(state, p):
    """The Odds panel's figures at a drawing decision, counted by the old computation."""
    g = state.game
    mode, double = g.mode, g.double
    pool = vu.pool_without(state.seen_by(p))
    bank = vu.odds_hand(state.hands[state.bank])
    me = vu.odds_hand(state.hands[p])
    m = _FACT[sum(pool)]
    _, stand, draw = _old_ev_best(me, bank, pool, mode, double)
    return Fraction(stand, m), Fraction(draw if draw is not None else 0, m)


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "defaults")
def test_the_odds_panel_in_seeded_sittings_gives_the_old_figures(options):
    """At every drawing decision of seeded random sittings the panel's expected results are the old ones
    (stake × the old fractions); at the stake decisions of the cheap readings the stake's value too."""
    g = cardkit.load_game("vingt_et_un", **options, coups=3)
    rng = Rng(7)
    checked = 0
    per_sitting = 12 if g.mode == 0 else 4      # the old computation takes up to a second a position with 1 or 11
    for seed in range(2):
        _clear()
        s = g.new_state(seed=seed)
        while not s.is_terminal() and checked < per_sitting * (seed + 1):
            p = s.current_player
            if p >= 0 and p != s.bank and s.phase in (vu.STAKE, vu.DRAW):
                figures = {o.label: o.value for o in s.advice(p)}
                if s.phase == vu.DRAW:
                    stand, draw = _old_advice_figures(s, p)
                    st = s.stake[p]
                    assert figures[f"Expected result if you stand (stake {st})"] == st * stand
                    if s.top < 32:
                        assert figures[f"Expected result if you draw, then play on by the odds (stake {st})"] == st * draw
                    checked += 1
                elif g.mode == 0 and not g.bank_second:
                    pool = vu.pool_without(s.seen_by(p))
                    want = _old_ev_value_num(vu.odds_hand(s.hands[p]), vu.odds_hand(s.hands[s.bank]), pool, 0,
                                             g.double)
                    assert figures["Expected result per unit staked, playing by the odds"] == \
                        Fraction(want, _FACT[sum(pool)])
                    checked += 1
            acts = s.legal_actions()
            s.apply(acts[rng.below(len(acts))])
    assert checked == 2 * per_sitting
