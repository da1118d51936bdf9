"""cardkit: engines, rules and worked examples for eight card games from five scanned rule texts.

Pure Python, no third-party dependency, no Jupyter import (it runs in Pyodide too).

    >>> import cardkit
    >>> game = cardkit.load_game("magische7", players=2)
    >>> state = game.new_state(seed=1)
    >>> state.apply(state.legal_actions()[0])  # doctest: +ELLIPSIS
    <...>
"""
from __future__ import annotations

from .errors import (CardError, CardkitError, IllegalActionError, OptionError, RecordError,  # noqa: F401
                     UnknownGameError)
from .game import CHANCE, TERMINAL, Action, Deal, Game, State  # noqa: F401
from .games import GAMES, game_class, list_games, load_game  # noqa: F401
from .record import Record, example_names, load_example  # noqa: F401
from .rng import Rng  # noqa: F401

__version__ = "0.1.0"
