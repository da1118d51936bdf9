"""Property tests of the Écarté engine through the common protocol, under every combination of its options:
random seeded matches, random legal play.

Checked at every step: the 32 cards are conserved (hands + talon + turned card + discards + trick + tricks
won + the cards out of play since the shuffle), a legal action exists exactly until the match ends, legal
actions are distinct, every card a player may play keeps the duties (follow suit; void, trump; with the
classic option, win the trick if possible — written down again here), and no view of a seat shows a card
of the other hand, the talon or the other player's discards. For every trick: its winner by the rules
written down again here. For every deal: its points as the source's arithmetic says (3 or 4 tricks 1, 5
tricks 2, the turned King 1; classic: the King in hand, the risk of standing). At the end: five points
and the settlement of the pot, the record replays to the same match, undo restores the exact snapshot.
"""
from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cardkit
from cardkit import IllegalActionError
from cardkit.bots import game_bots
from protocol_checks import apply_checking_undo, check_legal, check_replay_and_undo

GAME = cardkit.game_class("ecarte")
SPECS = GAME.option_specs
ALL_COMBOS = [dict(zip((o.name for o in SPECS), vals)) for vals in itertools.product(*(o.choices for o in SPECS))]
RANK = {"7": 0, "8": 1, "9": 2, "10": 3, "A": 4, "J": 5, "Q": 6, "K": 7}   # EC-0.1, again


def test_the_combinations_cover_every_option_value():
    assert len(ALL_COMBOS) == 2 * 2 * 4 * 2 * 2 * 2
    for o in SPECS:
        assert {c[o.name] for c in ALL_COMBOS} == set(o.choices)
    for combo in ALL_COMBOS:
        cardkit.load_game("ecarte", **combo)


def cards_in_play(s) -> Counter:
    return (Counter(c for h in s.hands for c in h) + Counter(s.talon) + Counter([s.turned] if s.turned else [])
            + Counter(c for d in s.discards for c in d) + Counter(c for _, c in s.trick)
            + Counter(c for w in s.won for t in w for _, c in t) + Counter(c for _, c, _ in s.out))


def ref_beats(card, led_card, trump) -> bool:
    if card.suit == led_card.suit:
        return RANK[card.rank] > RANK[led_card.rank]
    return card.suit == trump


def ref_may_play(card, hand, led_card, trump, overtake) -> bool:
    """EC-3.2 … EC-3.4 and EC-3.6, written down again."""
    if led_card is None:
        return True
    led = led_card.suit
    same = [c for c in hand if c.suit == led]
    if not same:
        same = [c for c in hand if c.suit == trump]
    if not same:
        return True
    if card not in same:
        return False
    if overtake:
        winners = [c for c in same if ref_beats(c, led_card, trump)]
        if winners:
            return card in winners
    return True


def check_views(s) -> None:
    """No seat's view shows the other hand (but an announced King of trumps), the talon, or the other
    player's discards."""
    for viewer in (0, 1):
        v = s.view(viewer)
        other = 1 - viewer
        shown = [c for c in v.seats[other].hand if c is not None]
        if shown:
            assert s.king_held == other and [c.text for c in shown] == ["K" + s.trump]
        assert len(v.seats[other].hand) == len(s.hands[other])
        allowed = set(s.hands[viewer]) | set(s.discards[viewer]) | {c for _, c in s.shown} | \
            {c for q, c, up in s.out if up or q == viewer} | \
            ({c for _, c in s.last_trick[0]} if s.last_trick else set())     # played face up, maybe before a shuffle
        for c in v.cards_visible():
            assert c in allowed, (viewer, c)


def play_and_check(options: dict, seed: int, choose, undo_at: float, back: float, max_steps: int = 3000) -> None:
    """Play one match under `options` from `seed`, choosing with `choose(state, legal) -> action`, checking
    the properties. `undo_at` and `back` in [0, 1) place the single undo and the multi-step undo."""
    game = cardkit.load_game("ecarte", **options)
    full = Counter(game.full_deck())
    assert len(full) == 32
    s = game.new_state(seed=seed)
    snaps = []
    undo_step = int(undo_at * 60)
    step = 0
    deals_seen = 0
    pot_stakes = 0
    while True:
        assert cards_in_play(s) == full, f"cards not conserved at step {step}"
        check_views(s)
        legal = check_legal(s, 2, step)
        if not legal:
            break
        p = s.current_player
        if s.phase == 3:                                  # the play: every legal card keeps the duties
            led = s.trick[0][1] if s.trick else None
            for a in legal:
                if a.card is not None:
                    assert ref_may_play(a.card, s.hands[p], led, s.trump, options["overtake"])
            held = [c for c in s.hands[p] if ref_may_play(c, s.hands[p], led, s.trump, options["overtake"])]
            assert sorted(c.text for c in held) == sorted(a.text for a in legal if a.card is not None)
        elif s.phase == 0:                                # the exchange: never more than the talon holds
            assert s.ndisc <= len(s.talon)
        action = choose(s, legal)
        before_trick, trump = list(s.trick), s.trump
        before_points = list(s.points)
        apply_checking_undo(s, action, step == undo_step, snaps)
        if len(before_trick) == 1 and action.card is not None and action.data is None:   # a trick completed
            (lp, led_card), card = before_trick[0], action.card
            want = p if ref_beats(card, led_card, trump) else lp
            assert s.last_trick[1] == want and [c for _, c in s.last_trick[0]] == [led_card, card]
            # the table's note says why, by the trumps of the trick's own deal (a new deal may have begun)
            note = next(x.note for x in s.view(0).piles if x.kind == "last-trick")
            why = ("the higher" if card.suit == led_card.suit else "a trump takes it" if card.suit == trump
                   else "played another suit")
            assert note.startswith(f"won by {('South', 'North')[want]}:") and why in note, note
        assert all(s.points[i] >= before_points[i] for i in (0, 1)), "points only grow"
        while deals_seen < len(s.deals):                # a finished deal: the source's arithmetic
            d = s.deals[deals_seen]
            deals_seen += 1
            kings = [int(d["king_turned"] and d["dealer"] == i) + int(d["king_held"] == i) for i in (0, 1)]
            if d["why"] == "ended":                     # the match ended within it, by a King (EC-4.7)
                assert d["points"] == kings and sum(d["tricks"]) < 5
                continue
            t = d["tricks"]
            assert sum(t) == 5
            w = 0 if t[0] >= 3 else 1
            pts = 2 if t[w] == 5 else 1
            if options["exchange"] == "propose" and d["why"] == "stood":
                pts = 2
            assert d["winner"] == w and d["points"][w] - kings[w] == pts and d["points"][1 - w] == kings[1 - w]
            if d["why"] == "stood":
                assert options["exchange"] == "propose" and t[w] < 5
        step += 1
        assert step < max_steps, "the match does not end"

    # the end: five points, the pot as the source settles it
    pts = s.points
    w = s.winners()[0]
    assert pts[w] >= 5 > pts[1 - w]
    assert sum(d["points"][i] for d in s.deals for i in (0, 1)) == sum(pts)
    stake = options["stake"]
    if options["staking"] == "once":
        pot_stakes = 1
    else:
        pot_stakes = sum(1 for d in s.deals if not (d["why"] == "ended" and d["tricks"] == [0, 0]
                                                    and d["king_held"] is None))
    assert s.pot == 2 * stake * pot_stakes
    gain = stake * pot_stakes + (s.pot if pts[1 - w] == 0 else 0)
    assert s.scores()[w] == gain and s.scores()[1 - w] == -gain
    with pytest.raises(IllegalActionError) as e:
        s.apply("KH")
    assert e.value.rule == "end"

    check_replay_and_undo(s, snaps, back, most=25)


def test_every_option_combination_once():
    """Every one of the 128 combinations, one seeded random match each."""
    for i, combo in enumerate(ALL_COMBOS):
        rnd = random.Random(i)
        play_and_check(combo, seed=rnd.getrandbits(64), choose=lambda s, legal: rnd.choice(legal),
                       undo_at=rnd.random(), back=rnd.random())


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(combo=st.sampled_from(ALL_COMBOS), seed=st.integers(0, 2 ** 64 - 1), actions=st.randoms(use_true_random=False),
       undo_at=st.floats(0, 1, exclude_max=True), back=st.floats(0, 1, exclude_max=True))
def test_random_matches(combo, seed, actions, undo_at, back):
    play_and_check(combo, seed, lambda s, legal: actions.choice(legal), undo_at, back)


@pytest.mark.parametrize("bot", ["careful", "rule-based"])
def test_bot_matches_keep_every_property(bot):
    """The bots choose otherwise than random play (long exchanges, every King announced): the same checks,
    over every eighth combination of the options."""
    for i, combo in enumerate(ALL_COMBOS[::8]):
        bots = {p: game_bots(GAME(**combo))[bot](i * 10 + p) for p in (0, 1)}
        play_and_check(combo, i, lambda s, legal: bots[s.current_player].choose(s), 0.5, 0.5)
