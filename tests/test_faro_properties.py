"""Property tests of the Faro engine through the common protocol, under every combination of its options:
random seeded deals, random legal play.

Checked at every step: the cards are conserved (the pack + the two piles = the deal's 104 cards; each book
in its punter's hand or on the table), the ledger balances (the sum of all balances is 0, the stakes lying on
the table are exactly the table's balance), a legal action exists exactly until the end, and every payment of
a turn follows the rules' arithmetic (a win pays the stake, a loss takes it, a doublet its share). At the end:
every deal dealt out to the check, the record replays to the same game, undo restores the exact snapshot.
"""
from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cardkit
from cardkit import Deal, IllegalActionError
from cardkit import TERMINAL
from cardkit.games.faro import BANK, DECIDE, DOUBLET, LOSS, WIN, WITHDRAW, doublet_cost, new_stake
from cardkit.ledger import TABLE
from protocol_checks import apply_checking_undo, check_legal, check_replay_and_undo

GAME = cardkit.game_class("faro")
SPECS = GAME.option_specs


def _values(o):
    return list(o.choices)


# every combination of the options of the deal itself (players, pile, doublets, limit: 3*2*3*4 = 72), each
# with one and with two deals, and with the readings of the stakes (FA-3.7, FA-3.8) in turn, so that each
# of their four combinations meets 18 of them; every number of deals once below
STAKING = ("stake_choice", "late_stakes")
OTHER = [o for o in SPECS if o.name != "deals" and o.name not in STAKING]
_STAKING = list(itertools.product(*(_values(o) for o in SPECS if o.name in STAKING)))
ALL_COMBOS = [dict(zip((o.name for o in OTHER), vals), deals=d, **dict(zip(STAKING, _STAKING[i % len(_STAKING)])))
              for i, vals in enumerate(itertools.product(*map(_values, OTHER))) for d in (1, 2)]


def test_the_combinations_cover_every_option_value():
    for o in SPECS:
        if o.name != "deals":
            assert {c[o.name] for c in ALL_COMBOS} == set(_values(o)), o.name
    for combo in ALL_COMBOS:
        cardkit.load_game("faro", **combo)


def check_cards(s, deal) -> None:
    pack = s.hands[BANK]
    assert Counter(pack) + Counter(s.left) + Counter(s.right) == Counter(deal.cards)
    assert len(s.left) == len(s.right) == s.turn_no
    for p in s.game.punters:
        on_table = [st.card for lst in s.stakes for st in lst if st.seat == p]
        assert sorted(s.hands[p] + on_table, key=lambda c: c.index) == sorted(s.game.books[p], key=lambda c: c.index)


def check_ledger(s) -> None:
    led = s.ledger
    assert led.total() == 0
    on = sum(st.amount for lst in s.stakes for st in lst)
    assert led.balance(TABLE) == on
    least = 0 if s.game.optional else 1                 # FA-3.7: a card may lie without a stake
    assert all(least <= st.amount <= s.game.limit for lst in s.stakes for st in lst
               if not any(p[0] is st for p in s.pending))


def check_turn_payments(s, before_entries: int) -> None:
    """The entries a turn added are exactly the settlement of the stakes on its ranks."""
    new = s.ledger.entries[before_entries:]
    a, b, last, settled = s.last_turn
    want = []
    for seat, card, outcome, amount in settled or ():
        name = s.game.player_names()[seat]
        if not amount:                                   # a card lying without a stake (FA-3.7): nothing moves
            continue
        if outcome == WIN:
            want.append(("Bank", name, amount))
        elif outcome == LOSS:
            want.append((TABLE, "Bank", amount))
        else:
            h = doublet_cost(amount, s.game.doublets)
            if h:
                want.append((TABLE, "Bank", h))
    got = [(e[1], e[2], e[3]) for e in new if e[5] in ("FA-2", "FA-4.1")]
    assert got == want
    # which pile: a single card on the winning pile wins; the lone live card of the last turn is the
    # bank's under both readings (FA-2, FA-1.5)
    right_wins = s.game.options["winning_pile"] == "source"
    for seat, card, outcome, amount in settled or ():
        if a.rank == card.rank and not last and b.rank == card.rank:
            assert outcome == DOUBLET
        elif a.rank == card.rank:
            assert outcome == (LOSS if right_wins or last else WIN)
        else:
            assert outcome == (WIN if right_wins else LOSS)


def play_and_check(options: dict, seed: int, choose, undo_at: float, back: float) -> None:
    game = cardkit.load_game("faro", **options)
    n = game.num_players
    s = game.new_state(seed=seed)
    snaps = []
    step = 0
    undo_step = int(undo_at * 200)
    deals_seen = 0
    while True:
        deal = next(a for a in reversed(s.history) if a.__class__ is Deal)
        check_cards(s, deal)
        check_ledger(s)
        legal = check_legal(s, n, step)
        if not legal:
            break
        action = choose(legal)
        entries = len(s.ledger.entries)
        turns = s.turn_no
        deals = s.deal_no
        choice = None
        if s.phase == DECIDE:                        # FA-3: the new stake, and what moves
            st, outcome, before = s.pending[0]
            choice = (st.seat, st.card, st.amount, new_stake(action.data, before, st.orig, st.amount))
        apply_checking_undo(s, action, step == undo_step, snaps)
        if action.text == "turn" and s.deal_no == deals:
            assert s.turn_no == turns + 1
            check_turn_payments(s, entries)
        if choice is not None and s.deal_no == deals and s.current_player != TERMINAL:
            seat, card, on_card, t = choice
            name = game.player_names()[seat]
            moved = [(e[1], e[2], e[3]) for e in s.ledger.entries[entries:] if e[5] != "FA-2.2"]
            assert moved == ([(name, TABLE, t - on_card)] if t > on_card else
                             [(TABLE, name, on_card - t)] if t < on_card else [])
            now = [x.amount for lst in s.stakes for x in lst if x.seat == seat and x.card is card]
            withdrawn = action.data == WITHDRAW.data
            assert now == ([] if withdrawn else [t]) or not s.hands[BANK]
        deals_seen = max(deals_seen, s.deal_no)
        step += 1
    assert s.is_terminal() and s.deal_no == options["deals"] == len(s.rows)
    assert all(r["check"] for r in s.rows)                       # FA-1.4 in every deal
    assert s.ledger.balance(TABLE) == 0 and sum(s.scores()) == 0
    with pytest.raises(IllegalActionError) as e:
        s.apply("turn")
    assert e.value.rule == "end"
    check_replay_and_undo(s, snaps, back, most=15)


def test_every_option_combination_once():
    for i, combo in enumerate(ALL_COMBOS):
        rnd = random.Random(i)
        play_and_check(combo, seed=rnd.getrandbits(64), choose=rnd.choice, undo_at=rnd.random(), back=rnd.random())


@pytest.mark.parametrize("deals", [3, 5, 10])
def test_longer_sittings(deals):
    rnd = random.Random(deals)
    play_and_check({"deals": deals, "players": 2}, seed=deals, choose=rnd.choice, undo_at=0.5, back=0.9)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(combo=st.sampled_from([c for c in ALL_COMBOS if c["deals"] == 1]), seed=st.integers(0, 2 ** 64 - 1),
       actions=st.randoms(use_true_random=False), undo_at=st.floats(0, 1, exclude_max=True),
       back=st.floats(0, 1, exclude_max=True))
def test_random_games(combo, seed, actions, undo_at, back):
    play_and_check(combo, seed, actions.choice, undo_at, back)


def test_no_hidden_card_in_another_seats_view():
    """No view but the teacher's shows a card of the pack not yet turned (but the shown bottom card)."""
    for players in (2, 3, 4):
        s = cardkit.load_game("faro", players=players).new_state(seed=players)
        rnd = random.Random(players)
        while not s.is_terminal():
            for p in range(players):
                v = s.view(p)
                bank = v.seats[BANK].hand
                for c in bank:
                    assert c is None or (s.bottom_shown and c is s.bottom and len(s.hands[BANK]) == 2)
                for pile in v.piles:
                    if pile.kind == "stock":
                        assert not pile.cards
            s.apply(rnd.choice(s.legal_actions()))
