"""The landing page's pieces: the list of games and a rule finder."""
from __future__ import annotations

from html import escape

import ipywidgets as w

import cardkit
from cardkit import CardkitError

from .render import Box, Button, HTML, shared, with_notice
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


def _page_href(game: str):
    """Links from the landing page to a rule's section on its game's page."""
    book = cardkit.load_game(game).rulebook
    return lambda rid: f"{game}.ipynb#{rid}" if book.href(rid) else None


def find_rules(game: str, words: str, limit: int = 40) -> list:
    """The rules of `game` whose title, text, readings or citations (original and translation) contain
    every word of `words` (any case): [(rule, where it matched)]."""
    book = cardkit.load_game(game).rulebook
    terms = [t for t in words.lower().split() if t]
    found = []
    for r in book.rules:
        fields = [("title", r.title), ("text", r.text)]
        fields += [("reading", f"{rd.label} {rd.text}") for rd in r.readings]
        fields += [("source", f"{c.original} {c.english}") for c in r.cite]
        blob = " ".join(text for _, text in fields).lower()
        if terms and all(t in blob for t in terms):
            where = next((name for name, text in fields if terms[0] in text.lower()), "text")
            found.append((r, where))
    return found[:limit]


class RuleFinder(w.VBox):
    """Type a rule ID (e.g. M7-4) to read that rule with its sources, or words ("spiegel") to list the
    rules that use them; every rule links to its section on the game's page."""

    def __init__(self, value: str = ""):
        games = {g["name"]: g for g in cardkit.list_games()}
        self.game = w.Dropdown(options=[(g["title"], n) for n, g in games.items()], description="game")
        self.rule = w.Text(value=value, placeholder="a rule ID, e.g. M7-4, or words, e.g. spiegel",
                           description="find", continuous_update=False)
        self.out = HTML()
        self.rule.observe(lambda _: self.show(), names="value")
        self.game.observe(lambda _: self.show(), names="value")
        super().__init__([Box([self.game, self.rule]), self.out], layout=shared("layout"))
        self.show()

    def _ck_notice(self, text: str) -> None:
        """One short error line above the rule (widgets/guard.py calls it when a message failed)."""
        self.out.value = with_notice(self.out.value, text)

    def show(self) -> None:
        rid = (self.rule.value or "").strip().upper()
        if self.game.value is None:   # no game chosen (only a script can unset the dropdown)
            self.out.value = "<small>Choose a game.</small>"
            return
        game = self.game.value
        book = cardkit.load_game(game).rulebook
        href = _page_href(game)
        if not rid:
            ids = ", ".join(f"<a href='{escape(href(i))}'>{escape(i)}</a>" for i in book.ids())
            self.out.value = f"<small>Rule IDs: {ids}</small>"
            return
        for other in cardkit.GAMES:                     # an ID of another game: show it from there
            if rid not in book.ids() and rid in cardkit.load_game(other).rulebook.ids():
                game, book, href = other, cardkit.load_game(other).rulebook, _page_href(other)
        if rid in book.ids():
            title = cardkit.load_game(game).title
            self.out.value = (f"<p><a class='ck-page-link' href='{escape(href(rid))}'>Read {escape(rid)} on the "
                              f"{escape(title)} page "
                              f"→</a></p>" + rule_html(game, rid, children=False, href=href))
            return
        found = find_rules(game, self.rule.value or "")
        if not found:
            self.out.value = (f"<div class='ck-error'>No rule of {escape(cardkit.load_game(game).title)} has the "
                              f"ID or the words “{escape((self.rule.value or '').strip()[:80])}”.</div>"
                              f"<small>Rule IDs: {escape(', '.join(book.ids()))}</small>")
            return
        items = "".join(f"<li><a href='{escape(href(r.id))}'>{escape(r.id)} {escape(r.title)}</a>"
                        f" <small>({escape(where)})</small></li>" for r, where in found)
        self.out.value = (f"<p>{len(found)} rule{'s' if len(found) != 1 else ''} with "
                          f"“{escape((self.rule.value or '').strip()[:80])}”:</p><ul class='ck-found'>{items}</ul>")
