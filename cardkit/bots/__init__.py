"""The players the kit seats, kept apart from the games they play (as OpenSpiel and RLCard do).

* ``base``: what a bot is (``choose(state) -> action``), random moves, ``play_out``, and ``game_bots(game)``:
  a game's own bots by name, from its module here;
* one module per game (``sieben``, ``whist``, …): its ``careful`` and ``rule-based`` strategies, under ``BOTS``;
* ``expert``: the search bot every game gets (``ExpertBot``), its budgets and evidence, and ``bots_for(game)``,
  a game's bots and the expert.

A game module knows nothing of its bots; these modules read the game through its state and rules' helpers.
"""
from .base import Bot, RandomBot, game_bots, play_out
from .expert import (EVIDENCE_PLAYOUTS, FIXED_PLAYOUTS, GAME_PLAYOUTS, OBJECTIVE, ROLLOUTS, THINK_MS_BROWSER,
                     THINK_MS_SERVER, Estimate, ExpertBot, Steps, bots_for, default_playouts,
                     evidence_playouts, fixed_playouts, game_facts)

__all__ = ["Bot", "RandomBot", "game_bots", "play_out", "EVIDENCE_PLAYOUTS", "FIXED_PLAYOUTS", "GAME_PLAYOUTS", "OBJECTIVE",
           "ROLLOUTS", "THINK_MS_BROWSER", "THINK_MS_SERVER", "Estimate", "ExpertBot", "bots_for", "default_playouts", "evidence_playouts", "fixed_playouts", "game_facts", "Steps"]
