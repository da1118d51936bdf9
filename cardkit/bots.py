"""Bots: anything with ``choose(state) -> action``. Game-specific bots live in the game's module."""
from __future__ import annotations

from .rng import Rng


class Bot:
    """A seeded bot (`self.rng`): `choose` plays the only legal action at once and otherwise asks
    `decide(state, legal)`, which a game's bot implements."""
    name = ""

    def __init__(self, seed: int = 0):
        self.rng = Rng(seed)

    def choose(self, state):
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        return self.decide(state, legal)

    def decide(self, state, legal):
        raise NotImplementedError


class RandomBot:
    """Picks a legal action uniformly at random (seeded, so games are reproducible)."""
    name = "random"

    def __init__(self, seed: int = 0):
        self.rng = Rng(seed)

    def choose(self, state):
        return self.rng.choice(state.legal_actions())


def play_out(state, bots: dict, stop_at: int | None = None):
    """Let `bots` (player -> bot) move until the game ends or it is `stop_at`'s turn. Returns the state."""
    while not state.is_terminal():
        p = state.current_player
        if p == stop_at or p not in bots:
            break
        state.apply(bots[p].choose(state))
    return state
