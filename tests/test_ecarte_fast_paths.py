"""Écarté's fast paths agree with the state worked out afresh, at every step of seeded random games: the legal
actions that a move hands on (the answers to a lead, the next discards) are those the rules give for the new
position, and the cards shown to both since the shuffle (worked out when asked, not kept up at every card) are
the turned cards, the Kings of trumps announced and the cards played."""
from __future__ import annotations

from collections import Counter

import pytest

import cardkit
from cardkit.cards import PIQUET32
from cardkit.rng import Rng

OPTIONS = [{}, {"exchange": "propose"}, {"overtake": True, "king_in_hand": True},
           {"exchange": "propose", "king_in_hand": True, "overtake": True, "short_talon": "fresh"}]


def random_moves(options: dict, games: int):
    """(state before the move, the move, the state after it) over seeded random games."""
    g = cardkit.load_game("ecarte", **options)
    rng = Rng(3)
    for k in range(games):
        s = g.new_state(seed=k)
        while not s.is_terminal():
            acts = s.legal_actions()
            a = acts[rng.below(len(acts))]
            before = s.clone()
            s.apply(a)
            yield before, a, s


@pytest.mark.parametrize("options", OPTIONS)
def test_ecarte_legal_actions_handed_on_are_the_rules_own(options):
    """EC-2.2, EC-3.2 … EC-3.4, EC-3.6, EC-2.4: the legal actions a move leaves (its fast path) are those of the
    same position rebuilt from the history (where they are worked out from the hands), in the same order."""
    handed_on = 0
    for _, _, s in random_moves(options, 12):
        kept = s._legal_cache
        if kept is None or s.is_terminal():
            continue
        assert [a.text for a in kept] == [a.text for a in s.clone().legal_actions()]
        handed_on += 1
    assert handed_on > 500


@pytest.mark.parametrize("options", OPTIONS)
def test_ecarte_cards_shown_are_turned_announced_and_played(options):
    """EC-1.3, EC-2.4, EC-3: since the last shuffle both players have seen each deal's turned card, every King
    of trumps announced and every card played (by whom), and nothing else: a discard stays face down."""
    steps = 0
    seen: Counter = Counter()
    for before, a, s in random_moves(options, 10):
        if len(before.history) == 1:                     # a new game, its first deal made
            seen = Counter([(None, before.turned)])
        p = before.current_player
        if a.data == "announce":
            seen[(p, PIQUET32.parse("K" + before.trump))] += 1
        elif a.data is None:                             # a card played
            seen[(p, a.card)] += 1
        if s.shuffles != before.shuffles:                # a new shuffle: nothing of the old pack counts
            seen = Counter()
        if s.deal_no != before.deal_no:
            seen[(None, s.turned)] += 1
        assert Counter(s.shown) == seen, s.to_record().actions[-4:]
        steps += 1
    assert steps > 500
