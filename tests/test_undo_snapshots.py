"""Undo and clone start from a copy of a position kept on the way (State._position) instead of replaying the whole
history: they must still give exactly what a replay gives. For every game and several options, seeded random
games in which, at random points, a clone and undos (one, several in a row, after playing on again, after a
resample) are compared with a state made from the same seed and the same player actions (the truth: everything
the public protocol shows, the dealer's RNG included, and the same continuation), and a copy played on must not
change the original. About 5 s of CPU on this machine."""
from __future__ import annotations

import copy

import pytest

import cardkit
from cardkit import CardkitError, Deal, IllegalActionError, Record, Rng

CASES = [("magische7", {"players": 2}), ("magische7", {"players": 4}),
         ("sieben", {"players": 2}), ("sieben", {"players": 4}),
         ("whist", {}), ("whist", {"mode": "table"}), ("whist", {"ruleset": "long"}),
         ("ecarte", {}), ("ecarte", {"exchange": "propose"}),
         ("vierundzwanzig", {"players": 2}), ("vierundzwanzig", {"players": 5}),
         ("vingt_et_un", {"players": 3}), ("vingt_et_un", {"bank_rule": "free", "ace": "one or eleven"}),
         ("faro", {"players": 2}), ("faro", {"players": 4}),
         ("bakkarat", {}), ("bakkarat", {"bank_draw": "five", "partners": False})]
MOVES = 180          # player actions a game is played to at most (several hands of the trick games)


def seen(state) -> tuple:
    """All the public protocol shows of a state: its history, whose turn, the legal actions with their labels,
    every seat's view and the teacher's, the scores, standing and winners, where the game stands, the last
    round's result, the narration of the first legal actions, and `snapshot()` (the dealer's RNG included)."""
    legal = state.legal_actions()
    views = [state.view(p) for p in [None, *range(state.game.num_players)]]
    return (tuple(a.text for a in state.history), state.current_player, state.is_terminal(),
            tuple((a.text, a.label) for a in legal), views, tuple(state.scores()), tuple(state.standing()),
            tuple(state.winners()), state.progress(), state.round_result(),
            tuple(state.describe(a) for a in legal[:2]), state.snapshot())


def made(game, seed: int, actions: list):
    """The truth: a state dealt from `seed` and given the player actions `actions` (its deals made by itself)."""
    s = game.new_state(seed=seed)
    for t in actions:
        s.apply(t)
    return s


def player_actions(state, upto: int | None = None) -> list:
    return [a.text for a in state.history[:upto] if a.__class__ is not Deal]


def play(state, rng: Rng, n: int) -> None:
    """Up to `n` random player actions."""
    for _ in range(n):
        if state.is_terminal():
            return
        legal = state.legal_actions()
        state.apply(legal[rng.below(len(legal))])


def same_future(a, b, seed: int) -> None:
    """`a` and `b` given the same random choices go on alike (later deals come from the dealer's RNG)."""
    play(a, Rng(seed), 30)
    play(b, Rng(seed), 30)
    assert seen(a) == seen(b)


@pytest.mark.parametrize("name,options", CASES, ids=[f"{n}-{o}" for n, o in CASES])
def test_undo_and_clone_equal_a_replay(name, options):
    game = cardkit.load_game(name, **options)
    for seed in range(2):
        rng = Rng(1000 + seed)
        s = game.new_state(seed=seed)
        with pytest.raises(CardkitError):            # the first deal alone: nothing to undo
            s.clone().undo()
        moves = 0
        while not s.is_terminal() and moves < MOVES:
            legal = s.legal_actions()
            s.apply(legal[rng.below(len(legal))])
            moves += 1
            if rng.below(9):
                continue
            mine = player_actions(s)
            before = seen(s)
            # a clone: the same in everything, and playing it on changes nothing of the original
            c = s.clone()
            assert seen(c) == before
            same_future(c, made(game, seed, mine), rng.next64())
            assert seen(s) == before
            # undos in a row, each against the truth; then on again from there and undone again
            back = 1 + rng.below(5)
            for i in range(1, back + 1):
                if i > len(mine):
                    with pytest.raises(CardkitError):
                        s.undo()
                    break
                s.undo()
                assert seen(s) == seen(made(game, seed, mine[:-i])), f"undo {i} of {len(mine)}"
            step = rng.next64()
            play(s, Rng(step), 1 + rng.below(6))
            again = player_actions(s)
            if again:
                s.undo()
                assert seen(s) == seen(made(game, seed, again[:-1]))
            # a failed action changes nothing, a deep copy is a copy of its own
            if not s.is_terminal():
                before = seen(s)
                with pytest.raises(IllegalActionError):
                    s.apply("no such action")
                d = copy.deepcopy(s)
                play(d, Rng(step), 20)
                assert seen(s) == before
            same_future(s.clone(), made(game, seed, player_actions(s)), rng.next64())


@pytest.mark.parametrize("name,options", CASES[::2], ids=[f"{n}-{o}" for n, o in CASES[::2]])
def test_undo_after_resample_equals_a_replay(name, options):
    """A resampled state carries the positions kept before its latest deal: its undos still equal a replay of
    its own record (the same game with the other cards), and the state it came from is untouched."""
    game = cardkit.load_game(name, **options)
    rng = Rng(7)
    s = game.new_state(seed=3)
    play(s, rng, 25)
    s.undo()                                          # positions kept on the way
    play(s, rng, 6)
    while s.current_player < 0:                       # the game over: back to its last decision
        s.undo()
    before = seen(s)
    r = s.resample(s.current_player, 11)
    assert seen(s) == before
    mine = player_actions(r)
    for i in range(1, 4):
        if not any(a.__class__ is not Deal for a in r.history):
            break
        r.undo()
        rec = Record(game.name, dict(game.options), [a.text for a in r.history])
        truth = rec.final_state()
        assert seen(r)[:-1] == seen(truth)[:-1], f"undo {i} of {len(mine)}"
        assert r == truth


def test_undo_of_the_first_move_and_of_a_deal():
    """Undo of the first move gives the state just dealt (its RNG as it was); a deal applied by hand is taken back
    with the move before it, as before."""
    game = cardkit.load_game("whist")
    s = game.new_state(seed=5)
    fresh = seen(game.new_state(seed=5))
    s.apply(s.legal_actions()[0])
    s.undo()
    assert seen(s) == fresh
    g = cardkit.load_game("vingt_et_un", players=3, coups=3)
    deals = [g.random_deal(Rng(k)) for k in range(2)]
    t = g.new_state(deal=deals[0])
    while not t.is_chance():
        t.apply(t.legal_actions()[-1])
    last = player_actions(t)
    t.apply(deals[1])
    t.undo()                                           # the deal and the move that made it due
    u = g.new_state(deal=deals[0])
    for a in last[:-1]:
        u.apply(a)
    assert seen(t) == seen(u)
