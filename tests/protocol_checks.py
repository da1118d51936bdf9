"""Helpers and checks shared by the games' tests."""
import itertools

import cardkit
from cardkit import TERMINAL, Record
from cardkit.rng import Rng


def apply_checking_undo(s, action, undo_here: bool, snaps: list) -> None:
    """Apply `action`, remembering the snapshot before it; if `undo_here`, undo it (the snapshot must
    come back exactly) and apply it again by its text (the same state must result)."""
    snaps.append(s.snapshot())
    s.apply(action)
    if undo_here:
        after = s.snapshot()
        s.undo()
        assert s.snapshot() == snaps[-1], "undo did not restore the snapshot"
        s.apply(action.text)
        assert s.snapshot() == after, "redoing the undone action gave another state"


def stacked_partial(g, hands, stock=(), size: int = 4, avoid=()):
    """A new state whose players hold `hands` (each filled up to `size` cards with unused cards whose rank
    is not in `avoid`) and whose stock starts with `stock` (top first); `g.stack` builds the deal."""
    pool = [c.text for c in g.full_deck()]
    for c in [*itertools.chain(*hands), *stock]:
        pool.remove(c)
    ranks = {c.text: c.rank for c in g.full_deck()}
    pool = [t for t in pool if ranks[t] not in avoid]
    full = []
    for h in hands:
        h = list(h)
        while len(h) < size:
            h.append(pool.pop(0))
        full.append(h)
    return g.new_state(deal=g.stack(full, list(stock)))


def check_legal(s, n: int, step: int):
    """The protocol's promises about legal actions at one step: none once the game is over, at least one
    before, from a real seat, no two with the same text. Returns the legal actions ([] at the end)."""
    legal = s.legal_actions()
    if s.is_terminal():
        assert legal == [] and s.current_player == TERMINAL
        return legal
    assert legal, f"no legal action at step {step} although the game is not over"
    assert 0 <= s.current_player < n
    assert len({a.text.lower() for a in legal}) == len(legal), "two legal actions with the same text"
    return legal


def check_replay_and_undo(s, snaps: list, back: float, most: int | None = None) -> None:
    """At the end of a property test's game: its record (through JSON) replays to the same game and
    scores, and undoing back to a point — `back` of the way through the decisions `snaps` were taken
    before, at most `most` decisions back (each undo replays the game) — restores that snapshot."""
    replayed = Record.loads(s.to_record().dumps()).final_state()
    assert replayed == s and replayed.scores() == s.scores()
    if not snaps:                 # decided by the first deal: nothing to undo
        return
    k = int(back * len(snaps))
    if most is not None:
        k = max(k, len(snaps) - most)
    c = s.clone()
    for _ in range(len(snaps) - k):
        c.undo()
    assert c.snapshot() == snaps[k]


def random_games(name: str, options: dict, games: int, seed: int = 1):
    """Every state met before an action, over `games` seeded random games."""
    g = cardkit.load_game(name, **options)
    rng = Rng(seed)
    for k in range(games):
        s = g.new_state(seed=k)
        while not s.is_terminal():
            yield s
            acts = s.legal_actions()
            s.apply(acts[rng.below(len(acts))])
