"""cardkit: engines, rules and worked examples for eight card games from five scanned rule texts.

Pure Python, no third-party dependency, no Jupyter import (it runs in Pyodide too).

    >>> import cardkit
    >>> game = cardkit.load_game("magische7", players=2)
    >>> state = game.new_state(seed=1)
    >>> state.apply(state.legal_actions()[0])  # doctest: +ELLIPSIS
    <...>
"""
from __future__ import annotations

import importlib

from .errors import (CardError, CardkitError, IllegalActionError, OptionError, RecordError,  # noqa: F401
                     UnknownGameError)
from .game import CHANCE, TERMINAL, Action, Deal, Game, State  # noqa: F401
from .record import Record, example_names, load_example  # noqa: F401
from .rng import Rng  # noqa: F401

__version__ = "0.1.0"

# game name -> module; a game is listed once its module exists (the others are planned, see docs/)
GAMES = {
    "magische7": "cardkit.games.magische7",
    "sieben": "cardkit.games.sieben",
    "whist": "cardkit.games.whist",
    "ecarte": "cardkit.games.ecarte",
    "vierundzwanzig": "cardkit.games.vierundzwanzig",
    "vingt_et_un": "cardkit.games.vingt_et_un",
    "bakkarat": "cardkit.games.bakkarat",
    "faro": "cardkit.games.faro",
}


def game_class(name: str) -> type[Game]:
    if not isinstance(name, str) or name not in GAMES:
        raise UnknownGameError(str(name), GAMES)
    return importlib.import_module(GAMES[name]).GAME


def load_game(name: str, **options) -> Game:
    """A game with its options checked: an unknown game or option, or a value out of range, raises an
    error that lists the valid choices."""
    return game_class(name)(**options)


def list_games() -> list[dict]:
    """The games this kit implements: name, title, player counts, summary."""
    out = []
    for name in GAMES:
        cls = game_class(name)
        players = next((o for o in cls.option_specs if o.name == "players"), None)
        out.append({"name": name, "title": cls.title,
                    "players": list(players.choices) if players else [2], "summary": cls.summary})
    return out
