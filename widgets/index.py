"""The landing page's pieces: the list of games and a rule finder."""
from __future__ import annotations

from html import escape

import ipywidgets as w

import cardkit
from cardkit import CardkitError

from .render import Box, Button, HTML, shared
from .rules import rule_html

PLANNED = ["24", "Vingt-et-un", "Faro", "Bakkarat", "Écarté", "Whist"]


def GameIndex() -> w.HTML:
    """Links to each game's page, with player counts and a one-line summary."""
    items = "".join(
        f"<li><a href='{g['name']}.ipynb'><b>{escape(g['title'])}</b></a> — {'/'.join(map(str, g['players']))} players. "
        f"{escape(g['summary'])}</li>" for g in cardkit.list_games())
    todo = ", ".join(p for p in PLANNED if p.split(" ")[0].lower() not in
                     " ".join(g["title"].lower() for g in cardkit.list_games()))
    planned = f"<p><small>Still to come: {escape(todo)}.</small></p>" if todo else ""
    return HTML(f"<ul class='ck-games'>{items}</ul>{planned}")


class RuleFinder(w.VBox):
    """Type a rule ID (e.g. M7-4) to read that rule with its sources."""

    def __init__(self, value: str = ""):
        games = {g["name"]: g for g in cardkit.list_games()}
        self.game = w.Dropdown(options=[(g["title"], n) for n, g in games.items()], description="game")
        self.rule = w.Text(value=value, placeholder="a rule ID, e.g. M7-4", description="rule",
                           continuous_update=False)
        self.out = HTML()
        self.rule.observe(lambda _: self.show(), names="value")
        self.game.observe(lambda _: self.show(), names="value")
        super().__init__([Box([self.game, self.rule]), self.out], layout=shared("layout"))
        self.show()

    def show(self) -> None:
        rid = self.rule.value.strip().upper()
        if not rid:
            book = cardkit.load_game(self.game.value).rulebook
            self.out.value = f"<small>Rule IDs: {escape(', '.join(book.ids()))}</small>"
            return
        try:
            self.out.value = rule_html(self.game.value, rid, children=False)
        except CardkitError as e:
            self.out.value = f"<div class='ck-error'>{escape(str(e))}</div>"
