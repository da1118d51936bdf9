"""The games this kit implements, by name: the registry that ``cardkit.load_game`` and the modules that need
every game (records, the source documents' links) read. It imports no game module until one is asked for,
and nothing of the kit above it, so any module may use it without an import circle."""
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from ..errors import UnknownGameError

if TYPE_CHECKING:                       # for the annotations only: game.py imports record.py, which imports this
    from ..game import Game

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
    cls: type[Game] = importlib.import_module(GAMES[name]).GAME
    return cls


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
