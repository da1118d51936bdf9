"""Property tests of the Sieben engine through the common protocol, under its options: random seeded deals,
random legal play (the counterpart of tests/test_properties.py, which covers Die Magische 7).

Checked at every step: the cards are conserved (hands + stock + trick + won tricks = the pack: 32 cards, 30
with 3 players), a legal action exists exactly until the end, legal actions are distinct, all hands have the
same size (at most 4). For every finished trick: it went to the last player whose card was equal to the first
card (the rule written down again here), and every continuation card was equal. For every round: 90
counters (unless four equal cards ended it), every card played. At the end: the record replays to the same
game, undo restores the exact snapshot, and partners share their score.
"""
from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cardkit
from cardkit import IllegalActionError
from protocol_checks import apply_checking_undo, check_legal, check_replay_and_undo

GAME = cardkit.game_class("sieben")
SPECS = GAME.option_specs
VALUES = {o.name: list(o.choices) for o in SPECS}


def ref_equal(led: str, rank: str, eights_wild: bool) -> bool:
    """S7-1.2 … S7-1.4 and S7-7.4, written down independently of the engine."""
    if eights_wild:
        if led == "8":
            return rank == "8"
        if led == "7":
            return rank in ("7", "8")
        return rank in (led, "7", "8")
    if led == "7":
        return rank == "7"
    return rank in (led, "7")


def cards_in_play(s) -> Counter:
    return (Counter(c for h in s.hands for c in h) + Counter(s.stock) + Counter(c for _, c in s.trick)
            + Counter(c for w in s.won for t in w for _, c in t))


def check_trick(trick, winner, leader, opts, n):
    first = trick[0][1]
    last_equal = leader
    deciders = {leader, (leader + 2) % 4} if opts["who_continues"] == "side" and n == 4 else {leader}
    for i, (p, c) in enumerate(trick):
        if i % n:
            assert p == (trick[i - 1][0] + 1) % n, "the others answer in turn, clockwise"
        if i and i % n == 0:                                  # a continuation card
            assert p in deciders, "only the leader (or, under 'side', his partner) continues a trick"
            assert ref_equal(first.rank, c.rank, opts["eights_wild"]), "a trick continued with an unequal card"
        if ref_equal(first.rank, c.rank, opts["eights_wild"]):
            last_equal = p
    assert len(trick) % n == 0, "every card of the trick is answered by every other player"
    assert winner == last_equal, "the trick goes to the last equal card"


def play_and_check(options: dict, seed: int, choose, undo_at: float, back: float, max_steps: int = 5000) -> None:
    game = cardkit.load_game("sieben", **options)
    n = game.num_players
    full = Counter(game.full_deck())
    assert sum(full.values()) == (30 if n == 3 else 32)
    s = game.new_state(seed=seed)
    snaps = []
    undo_step = int(undo_at * 40)
    step = 0
    plays = 0
    rounds_seen = len(s.rounds)       # a deal can end a round at once (four equal cards, S7-7.3)
    last_trick = None
    leader = s.leader
    while True:
        assert cards_in_play(s) == full, f"cards not conserved at step {step}"
        sizes = {len(h) for h in s.hands}
        if not s.trick and not s.is_terminal():
            assert len(sizes) == 1 and sizes.pop() <= 4, "hands of different sizes at the start of a trick"
        legal = check_legal(s, n, step)
        if not legal:
            break
        if not s.trick:
            leader = s.current_player
        action = choose(legal)
        apply_checking_undo(s, action, step == undo_step, snaps)
        if s.last_trick is not None and s.last_trick != last_trick:
            check_trick(*s.last_trick[:2], leader, options, n)
        last_trick = s.last_trick
        if getattr(action, "card", None) is not None:
            plays += 1
        if len(s.rounds) > rounds_seen:
            new = s.rounds[rounds_seen:]
            rounds_seen = len(s.rounds)
            if new[0]["why"] != "four":
                assert sum(new[0]["counters"]) == 90, "a round has 90 counters"
                assert plays == sum(full.values()), "a round ends when every card is played"
            plays = 0
            for r in new:
                if r["winner"] is not None and not options["score_difference"]:
                    assert r["points"] >= 1
        step += 1
        assert step < max_steps, "the game does not end"

    scores = s.scores()
    if n == 4:
        assert scores[0] == scores[2] and scores[1] == scores[3]
    assert s.winners() == [p for p in range(n) if scores[p] == max(scores)]
    target = options["difference_target"] if options["score_difference"] else options["target"]
    if options["match"] == "game":
        assert max(scores) >= target and scores.count(max(scores)) == (2 if n == 4 else 1)
    else:
        assert len(s.rounds) == 1
    assert sum(r["points"] for r in s.rounds) * (2 if n == 4 else 1) == sum(scores)
    with pytest.raises(IllegalActionError) as e:
        s.apply(legal[0].text if legal else "10H")
    assert e.value.rule == "end"

    check_replay_and_undo(s, snaps, back, most=25)


def combos_covering_every_value():
    """For each player count, every value of every option at least once (the others random)."""
    rnd = random.Random(2024)
    out = []
    for players in (2, 3, 4):
        for o in SPECS:
            if o.name == "players":
                continue
            for v in o.choices:
                combo = {k: rnd.choice(vals) for k, vals in VALUES.items()}
                combo.update({"players": players, "match": "round", o.name: v})
                if o.name == "match":                  # a whole game: to a small target
                    combo.update(target=3, difference_target=100)
                out.append(combo)
    return out


def test_every_option_value_with_each_player_count():
    combos = combos_covering_every_value()
    for players in (2, 3, 4):
        mine = [c for c in combos if c["players"] == players]
        for o in SPECS:
            if o.name != "players":
                assert {c[o.name] for c in mine} == set(o.choices), (players, o.name)
    for i, combo in enumerate(combos):
        rnd = random.Random(i)
        play_and_check(combo, seed=rnd.getrandbits(64), choose=rnd.choice, undo_at=rnd.random(), back=rnd.random())


def test_whole_games_to_small_targets():
    for i, (players, extra) in enumerate([(2, {}), (3, {}), (4, {}), (2, {"score_difference": True}),
                                          (3, {"three_player_round": "fifty"}), (4, {"who_continues": "side"}),
                                          (2, {"four_of_a_kind": True, "eights_wild": True})]):
        opts = {o.name: o.default for o in SPECS}
        opts.update(players=players, target=3, difference_target=100, **extra)
        rnd = random.Random(100 + i)
        play_and_check(opts, seed=i, choose=rnd.choice, undo_at=rnd.random(), back=rnd.random())


option_dicts = st.fixed_dictionaries({k: st.sampled_from(v) for k, v in VALUES.items()}).map(
    lambda d: {**d, "target": min(d["target"], 5), "difference_target": 100})


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(combo=option_dicts, seed=st.integers(0, 2 ** 64 - 1), data=st.data(),
       undo_at=st.floats(0, 1, exclude_max=True), back=st.floats(0, 1, exclude_max=True))
def test_random_games(combo, seed, data, undo_at, back):
    """Hypothesis picks the options, the deal and the first actions (then a seeded random player goes on)."""
    rnd = random.Random(seed)
    budget = [60]

    def choose(legal):
        if budget[0] > 0:
            budget[0] -= 1
            return data.draw(st.sampled_from(legal))
        return rnd.choice(legal)
    play_and_check(combo, seed, choose, undo_at, back)


@settings(max_examples=30, deadline=None)
@given(combo=option_dicts.filter(lambda d: d["players"] == 2), seed=st.integers(0, 2 ** 64 - 1),
       actions=st.randoms(use_true_random=False))
def test_more_player_options_do_not_change_a_two_player_game(combo, seed, actions):
    s = cardkit.load_game("sieben", **{**combo, "match": "round"}).new_state(seed=seed)
    while not s.is_terminal():
        s.apply(actions.choice(s.legal_actions()))
    rec = s.to_record()
    finals = [rec.final_state(who_continues=w, three_player_round=t, three_player_removed=r)
              for w in VALUES["who_continues"] for t in VALUES["three_player_round"]
              for r in VALUES["three_player_removed"]]
    assert all(f.snapshot() == finals[0].snapshot() and f.scores() == s.scores() for f in finals)
