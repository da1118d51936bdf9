"""What every bot is, random moves, and which bots each game has.

A bot is anything with ``choose(state) -> action``. A game's own bots — ``careful`` and ``rule-based`` beside
``random`` — are its strategies, kept apart from its rules: ``cardkit/bots/<game>.py`` (``MODULES``) names them
in ``BOTS``, and ``game_bots(game)`` looks them up. A game module knows nothing of its bots.
"""
from __future__ import annotations

import importlib

from ..rng import Rng


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


# game name -> the module of its bots (its `BOTS`: name -> bot class, "random" first)
MODULES = {
    "magische7": "cardkit.bots.magische7",
    "sieben": "cardkit.bots.sieben",
    "whist": "cardkit.bots.whist",
    "ecarte": "cardkit.bots.ecarte",
    "vierundzwanzig": "cardkit.bots.vierundzwanzig",
    "vingt_et_un": "cardkit.bots.vingt_et_un",
    "bakkarat": "cardkit.bots.bakkarat",
    "faro": "cardkit.bots.faro",
}


def game_bots(game) -> dict:
    """The bots of `game` (a Game) by name: its module's ``BOTS`` (random, careful, rule-based), or random moves
    alone for a game without one. A fresh dict: the caller may add to it."""
    module = MODULES.get(game.name)
    return dict(importlib.import_module(module).BOTS) if module else {"random": RandomBot}
