"""Property tests of the Vingt-et-un engine through the common protocol, under every combination of its
rule options (players, limit, the bank's rule, who holds the bank next, the natural, the Ace, the bank's second
card), random seeded
deals and random legal play.

Checked after every action: the cards are conserved (the hands hold exactly the cards given from this
coup's deal), the ledger balances (the sum of all balances is 0) and the table holds exactly the stakes of
the players still alive in the coup, a legal action exists exactly until the sitting ends, no seat's view
shows a card of another player's hand that is not shown to all. After each coup: every player's balance
moved by the source's arithmetic (multiple × stake). At the end: the record replays to the same sitting,
undo restores the exact snapshot, and the scores are the balances.
"""
from __future__ import annotations

import itertools
import random

import pytest

import cardkit
from cardkit import Record
from cardkit.games import vingt_et_un as vu
from cardkit.ledger import TABLE
from protocol_checks import apply_checking_undo, check_legal

SPECS = {o.name: o for o in vu.OPTIONS}
RULE_OPTIONS = ("players", "limit", "bank_rule", "next_bank", "natural", "ace", "bank_second")
COMBOS = [dict(zip(RULE_OPTIONS, vals)) for vals in itertools.product(*(SPECS[k].choices for k in RULE_OPTIONS))]


def test_the_combinations_cover_every_option_value():
    assert len(COMBOS) == 3 * 3 * 2 * 3 * 2 * 2 * 2
    for k in RULE_OPTIONS:
        assert {c[k] for c in COMBOS} == set(SPECS[k].choices)
    assert set(SPECS) == {*RULE_OPTIONS, "coups"}         # coups: below, each value


def _check_position(s) -> None:
    n = s.n
    assert s.ledger.total() == 0
    if s.phase != vu.BETWEEN:
        given = [c for h in s.hands for c in h]
        assert sorted(c.index for c in given) == sorted(c.index for c in s.cards[:s.top])
        owners = s._deal_owners()
        assert owners.count(None) == 32 - s.top and s.top < 32
        assert all(c in s.hands[o] for c, o in zip(s.cards, owners) if o is not None)
        live = sum(s.stake[p] for p in s.order if not s.dead[p])
        assert s.ledger.balance(TABLE) == live
        for viewer in range(n):
            v = s.view(viewer)
            for p in range(n):
                if p != viewer and not s.shown[p]:
                    assert all(c is None for c in v.seats[p].hand)
                else:
                    assert v.seats[p].hand == s.hands[p]
    else:
        assert s.ledger.balance(TABLE) == 0


def _check_coup(s, before: list) -> None:
    """The last coup's settlement follows the table: balance changes are multiple × stake."""
    coup, bank, bcode, results, balances = s.log[-1]
    names = s.names
    double = s.game.double
    delta = [balances[p] - before[p] for p in range(s.n)]
    bank_delta = 0
    for p, st, pc, m in results:
        assert st in vu.STAKES and 1 <= st <= s.game.options["limit"]
        assert m == vu.multiple(bcode, pc, double)
        assert delta[p] == m * st, (names[p], pc, bcode, m, st)
        bank_delta -= m * st
    assert delta[bank] == bank_delta


def play(options: dict, seed: int, undo_at: float) -> None:
    g = cardkit.load_game("vingt_et_un", **options)
    s = g.new_state(seed=seed)
    rng = random.Random(seed)
    snaps: list = []
    step = 0
    before = [0] * g.num_players
    undo_step = int(undo_at * 20)
    while True:
        _check_position(s)
        legal = check_legal(s, g.num_players, step)
        if not legal:
            break
        coups = s.coup
        apply_checking_undo(s, rng.choice(legal), step == undo_step, snaps)
        if s.coup > coups or (s.log and len(s.log) > coups):
            _check_coup(s, before)
            before = list(s.log[-1][4])
        step += 1
    assert s.coup == options.get("coups", 10) == len(s.log)
    assert s.scores() == [s.ledger.balance(x) for x in s.names] and sum(s.scores()) == 0
    rec = Record.loads(s.to_record(title="t").dumps())
    assert rec.final_state() == s
    # undo several steps back: the same as replaying the shorter history
    k = max(1, len(snaps) // 3)
    texts = [a.text for a in s.history]
    for _ in range(k):
        s.undo()
    r = g.blank_state()
    for t in texts[:len(s.history)]:
        r.apply(t)
    assert r == s and r.snapshot()[2] == s.snapshot()[2]


@pytest.mark.parametrize("combo", COMBOS, ids=lambda c: "-".join(str(v) for v in c.values()))
def test_random_sittings_under_every_option_combination(combo):
    play({**combo, "coups": 3}, seed=COMBOS.index(combo), undo_at=0.3)


@pytest.mark.parametrize("coups", SPECS["coups"].choices)
@pytest.mark.parametrize("seed", [1, 2])
def test_random_sittings_of_every_length(coups, seed):
    play({"coups": coups}, seed=seed, undo_at=0.5)
