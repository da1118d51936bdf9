"""Whist's and 24's fast paths agree with the rules worked out directly from the state, at every step of seeded
random games: the legal actions `apply` keeps (worked out by the move itself) are those the rules give for the
new position, the trick's winner kept as the cards come is the one `tricks.winner` finds, and the states,
which keep their own attributes in slots, undo, copy and deep-copy to the very same position."""
from __future__ import annotations

import copy
import pickle

import pytest
from protocol_checks import random_games

import cardkit
from cardkit import tricks
from cardkit.games import vierundzwanzig as v24, whist
from cardkit.rng import Rng

CASES = [("whist", {}), ("whist", {"mode": "table"}), ("whist", {"ruleset": "long"}),
         ("vierundzwanzig", {"players": 2}), ("vierundzwanzig", {"players": 5}),
         ("vierundzwanzig", {"players": 4, "trump_twos": True}),
         ("vierundzwanzig", {"players": 3, "sitting_out": True, "score_limits": True})]


@pytest.mark.parametrize("name, options", CASES)
def test_the_legal_actions_kept_by_a_move_are_the_rules(name, options):
    """After every action the legal actions `apply` kept (from the move, not from `_legal`) are exactly those
    `_legal` works out for the new position: the same actions in the same order."""
    kept = 0
    for s in random_games(name, options, 6):
        cached = s._legal_cache
        if cached is not None and s.current_player >= 0:
            assert [a.text for a in cached] == [a.text for a in s._legal()]
            assert all(x is y for x, y in zip(cached, s._legal()))
            kept += 1
    assert kept > 300


@pytest.mark.parametrize("name, options", CASES)
def test_the_trick_goes_to_the_card_tricks_winner_finds(name, options):
    """WH-4.3, V24-4.3: the winner kept as the cards come is the player of the card `tricks.winner` finds (the
    highest trump, else the highest card of the led suit), under the trump and order of that trick."""
    taken = 0
    for s in random_games(name, options, 6):
        if name == "whist":
            for leader, cards, w in s.done[-1:]:            # the hand's latest trick, under its trump
                assert w == (leader + tricks.winner(cards, whist.SUIT_OF, whist.POWER, s.trump)) & 3
                taken += 1
        elif s.last_trick is not None:
            tk, w, trump, rev = s.last_trick
            cards = [c for _, c in tk]
            assert tk[tricks.winner(cards, v24.SUIT_OF[trump], v24.POWER[rev], trump)][0] == w
            taken += 1
    assert taken > 100


@pytest.mark.parametrize("name, options", CASES)
def test_undo_copy_and_deepcopy_give_the_same_position(name, options):
    """The states keep their own attributes in slots: undo rebuilds them (as a replay of the history does),
    and a deep copy, a pickled copy and a clone are the same position and play on alike."""
    g = cardkit.load_game(name, **options)
    rng = Rng(5)
    for seed in range(3):
        s = g.new_state(seed=seed)
        step = 0
        while not s.is_terminal():
            if step % 17 == 5:                              # an action taken back
                before = s.snapshot()
                s.apply(s.legal_actions()[-1])
                s.undo()
                assert s.snapshot() == before
                assert [x.text for x in s.legal_actions()] == [x.text for x in s._legal()]
            for c in (copy.deepcopy(s), pickle.loads(pickle.dumps(s)), s.clone()):
                assert c == s
            acts = s.legal_actions()
            s.apply(acts[rng.below(len(acts))])
            step += 1
        assert len(vars(s)) < 30            # the base's few attributes; the game's own are slots


def test_undo_after_a_finished_round_restores_the_round():
    """24: undoing the last card of a round takes back its scoring and the round's end (and the next deal)."""
    g = cardkit.load_game("vierundzwanzig", players=3)
    s = g.new_state(seed=2)
    while len(s.rounds) < 1:
        s.apply(s.legal_actions()[0])
    s.undo()
    assert s.rounds == [] and s.phase in (v24.PLAY, v24.REVERSE_Q) and len(s.trick) == 2
    replay = g.blank_state()
    for a in s.history:
        replay.apply(a)
    assert replay.snapshot()[::2] == s.snapshot()[::2]
