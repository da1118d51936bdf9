"""Die Magische 7, Sieben and Écarté keep each hand's play actions beside the hand (so the legal plays are a
copy of a list, not rebuilt card by card): at every step of seeded random games the legal plays are worked out
again here from the hand itself, and deep copies of a state (a replay keeps one per step) play on like the
state they were taken from."""
from __future__ import annotations

import copy

import pytest
from protocol_checks import random_games

import cardkit
from cardkit.rng import Rng


def texts(actions) -> list[str]:
    return [a.text for a in actions]


@pytest.mark.parametrize("options", [{"players": 2}, {"players": 4}, {"players": 4, "draw_4p": "all"},
                                     {"players": 4, "no_repeat": "same_pair"}])
def test_magische7_plays_are_the_cards_of_the_hand(options):
    """M7-0.3: a player plays a card of his hand; with two packs (4 players) a card he holds twice is one
    choice, in the order the hand shows the cards."""
    seen_twice = 0
    for s in random_games("magische7", options, 40):
        if s.choosing:
            continue
        hand = s.hands[s.current_player]
        distinct = list(dict.fromkeys(c.text for c in hand))
        assert texts(s.legal_actions()) == distinct
        seen_twice += len(distinct) < len(hand)
    assert (seen_twice > 0) == (options["players"] == 4)


@pytest.mark.parametrize("options", [{"players": 2}, {"players": 3}, {"players": 4},
                                     {"players": 4, "who_continues": "side", "four_of_a_kind": True}])
def test_sieben_plays_are_the_cards_of_the_hand(options):
    """S7-1.1, S7-2.2: any card of the hand when leading or answering; when deciding, the cards equal to the
    trick's first card (or 7s), then "stop"."""
    g = cardkit.load_game("sieben", **options)
    deciding = 0
    for s in random_games("sieben", options, 6):
        hand = s.hands[s.current_player]
        if s.deciding:
            deciding += 1
            first = s.trick[0][1]
            want = [c.text for c in hand if c.rank == first.rank or
                    (c.rank == "7" and not (g.options["eights_wild"] and first.rank == "8"))] + ["stop"]
        else:
            want = [c.text for c in hand]
        assert texts(s.legal_actions()) == want
    assert deciding > 20


@pytest.mark.parametrize("options", [{}, {"exchange": "propose", "king_in_hand": True}, {"overtake": True}])
def test_ecarte_plays_follow_the_suit_led(options):
    """EC-3.2 … EC-3.4 (and EC-3.6 under the classic duty): the legal cards, worked out from the hand: any card
    to lead; else the suit led if the hand has it (a higher one if it can, under the duty), else a trump (a
    higher one, likewise, if the led card was a trump), else any card."""
    for s in random_games("ecarte", options, 20):
        if s.phase != 3:               # the play (the exchange's choices are tested in test_ecarte.py)
            continue
        hand = s.hands[s.current_player]
        legal = [t for t in texts(s.legal_actions()) if t != "announce"]
        if not s.trick:
            assert legal == [c.text for c in hand]
            continue
        first = s.trick[0][1]
        power = "7 8 9 10 A J Q K".split()
        same = [c for c in hand if c.suit == first.suit] or \
            ([c for c in hand if c.suit == s.trump] if first.suit != s.trump else []) or list(hand)
        if options.get("overtake") and same[0].suit in (first.suit, s.trump):
            higher = [c for c in same if c.suit != first.suit or power.index(c.rank) > power.index(first.rank)]
            same = higher or same
        assert legal == [c.text for c in same]


@pytest.mark.parametrize("name, options", [("magische7", {"players": 2}), ("magische7", {"players": 4}),
                                           ("sieben", {"players": 3}), ("ecarte", {}),
                                           ("ecarte", {"exchange": "propose"})])
def test_a_deep_copy_plays_on_like_the_state(name, options):
    """A deep copy taken at any step plays the rest of the game like the state itself (the actions offered, the
    positions reached, undo), whether its actions or their texts are applied."""
    rng = Rng(5)
    copies = 0
    for k, s in enumerate(random_games(name, options, 3)):
        if k % 9:
            continue
        c = copy.deepcopy(s)
        original = s.clone()
        copies += 1
        for step in range(12):
            if c.is_terminal():
                break
            assert texts(c.legal_actions()) == texts(original.legal_actions())
            acts = c.legal_actions()
            a = acts[rng.below(len(acts))]
            c.apply(a if step % 2 else a.text)
            original.apply(a.text)
            assert c.snapshot()[::2] == original.snapshot()[::2]
        if len(c.history) > len(s.history):
            c.undo()
            original.undo()
            assert c.snapshot()[::2] == original.snapshot()[::2]
    assert copies > 5
