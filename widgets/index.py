"""The landing page's pieces: the list of games and a rule finder."""
from __future__ import annotations

from html import escape

import ipywidgets as w

import cardkit
from cardkit import CardkitError
from cardkit.documents import page_url
from cardkit.rules import scroll_x

from .render import Box, Button, HTML, html_output, shared, with_notice
from .rules import rule_html

PLANNED = ["24", "Vingt-et-un", "Faro", "Bakkarat", "Écarté", "Whist"]


def GameIndex() -> w.HTML:
    """Links to each game's page, with player counts and a one-line summary."""
    items = "".join(
        f"<li><a href='{page_url(g['name'])}'><b>{escape(g['title'])}</b></a> — {'/'.join(map(str, g['players']))} players. "
        f"{escape(g['summary'])}</li>" for g in cardkit.list_games())
    todo = ", ".join(p for p in PLANNED if p.split(" ")[0].lower() not in
                     " ".join(g["title"].lower() for g in cardkit.list_games()))
    planned = f"<p><small>Still to come: {escape(todo)}.</small></p>" if todo else ""
    return HTML(f"<ul class='ck-games'>{items}</ul>{planned}")


def _page_href(game: str):
    """Links from the landing page to a rule's section on its game's page."""
    book = cardkit.load_game(game).rulebook
    return lambda rid: page_url(game, rid) if book.href(rid) else None


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
        self.game = w.Dropdown(options=[(g["title"], n) for n, g in games.items()], description="game",
                               layout=shared("dropdown"))
        self.rule = w.Text(value=value, placeholder="a rule ID, e.g. M7-4, or words, e.g. spiegel",
                           description="find", continuous_update=False,
                           layout=w.Layout(width="26em", max_width="100%"))
        self.out = HTML()
        self.rule.observe(lambda _: self.show(), names="value")
        self.game.observe(lambda _: self.show(), names="value")
        # the two boxes side by side where there is room, one above the other on a phone
        super().__init__([w.HBox([self.game, self.rule], layout=shared("wrap")), self.out], layout=shared("layout"))
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
        # words: every game's rules, the chosen game's first (a word of one game's sources, such as "zähler",
        # is found whichever game the box shows)
        order = [game] + [g for g in cardkit.GAMES if g != game]
        words = escape((self.rule.value or "").strip()[:80])
        groups, total = [], 0
        for g in order:
            found = find_rules(g, self.rule.value or "")
            if not found:
                continue
            total += len(found)
            ref = _page_href(g)
            items = "".join(f"<li><a href='{escape(ref(r.id))}'>{escape(r.id)} {escape(r.title)}</a>"
                            f" <small>({escape(where)})</small></li>" for r, where in found)
            groups.append(f"<p><b>{escape(cardkit.load_game(g).title)}</b></p><ul class='ck-found'>{items}</ul>")
        if not total:
            self.out.value = (f"<div class='ck-error'>No rule of any game has the ID or the words “{words}”.</div>"
                              f"<small>Rule IDs of {escape(cardkit.load_game(game).title)}: "
                              f"{escape(', '.join(book.ids()))}</small>")
            return
        self.out.value = f"<p>{total} rule{'s' if total != 1 else ''} with “{words}”:</p>" + "".join(groups)


def impact_rows() -> tuple[list, list]:
    """Every measured conflict and gap of every game, ranked by how far its other reading shifts the odds
    beyond chance (the part of the shift its 95 % interval makes sure of, in 100), then by the size of the
    shift and by how many winners it changes; and those not measured yet."""
    from cardkit import impact
    rows, missing = [], []
    for game in cardkit.GAMES:
        for rule in impact.disputed(game):
            s = impact.summary(game, rule.option)
            if s is None:
                missing.append((game, rule))
                continue
            rows.append((impact.matter(s), game, rule, s, impact.top_reading(s)))
    rows.sort(key=lambda x: (tuple(-v for v in x[0]), list(cardkit.GAMES).index(x[1]), x[2].id))
    return rows, missing


def shift_cell(s: dict, top: dict) -> str:
    """The landing table's shift in the odds: who gains or loses how much, in 100, with its interval."""
    from cardkit import impact
    m = impact.main_shift(top)
    if m is None:
        return "—"
    if m.get("never"):
        return "none: the same winner in every game"
    if m["what"] == "edge":
        text = f"the bank's edge: {impact.in100(m['diff'], True)} units in 100 staked"
    else:
        what = m["who"] if m["what"] == "win" else "the first player"
        text = f"{what}: {impact.in100(m['diff'], True)} {m['per']} in 100"
    if m["exact"]:
        text += " (exact)"
    elif m["lo"] is not None:
        text += f" ({impact.in100(m['lo'], True)} … {impact.in100(m['hi'], True)})"
    if not impact.favours(m):
        text = f"none beyond chance — {text}"
    return text


def ImpactTable():
    """The landing page's table: every conflict and gap ranked by how much it matters, each linking to its
    rule (with its "Does it matter?") on the game's page. Static HTML output, not a widget."""
    return html_output(impact_table_html())


def impact_table_html() -> str:
    from cardkit import impact
    rows, missing = impact_rows()
    titles = {g["name"]: g["title"] for g in cardkit.list_games()}
    body = []
    for i, (_, game, rule, s, top) in enumerate(rows, 1):
        p = top["pair"]
        n = p["games"]
        default = next(r for r in s["readings"] if r["default"])
        other = top["label"] + (f" (and {len(s['readings']) - 2} more)" if len(s["readings"]) > 2 else "")
        body.append(
            f"<tr><td class='ck-rank'>{i}</td><td class='ck-rank-game'>{escape(titles[game])}</td>"
            f"<th scope='row'><a href='{escape(page_url(game, rule.id))}'>{escape(rule.id)} "
            f"{escape(rule.title)}</a></th>"
            f"<td data-label='readings'>{escape(default['label'])} <small>or</small> {escape(other)}</td>"
            f"<td data-label='shift in the odds'>{escape(shift_cell(s, top))}</td>"
            f"<td data-label='comes up in'>{escape(impact.rate_words(p['arises'], n))}</td>"
            f"<td data-label='changes the winner in'>{escape(impact.rate_words(p['winner'], n))}</td>"
            f"<td data-label='so'>{escape(impact.verdict_short(s))}</td></tr>")
    head = ("<tr><th scope='col'>#</th><th scope='col'>game</th><th scope='col'>the rule</th>"
            "<th scope='col'>the kit's default, or the other reading</th>"
            "<th scope='col'>the shift in the odds under the other reading (95 % interval)</th>"
            "<th scope='col'>it comes up in</th><th scope='col'>it changes the winner in</th>"
            "<th scope='col'>so</th></tr>")
    table = scroll_x(f"<table class='ck-table ck-impact-rank'><caption>Where the sources disagree "
                     f"or are silent, ranked by how far the other reading shifts the odds beyond chance — someone's "
                     f"chance of winning, or the bank's edge</caption>"
                     f"<thead>{head}</thead><tbody>{''.join(body)}</tbody></table>", "Where the sources disagree")
    note = ""
    if missing:
        todo = "; ".join(f"{titles[g]} {r.id} {r.title}" for g, r in missing)
        note = f"<p class='ck-legend'><small>Not measured yet: {escape(todo)}.</small></p>"
    counts = sorted({s["games"] for _, _, _, s, _ in rows})
    each = " or ".join(f"{n:,}" for n in counts)
    how = ("<p class='ck-legend'><small>Each rule's figures come from games dealt alike and played by the kit's "
           f"rule-based players under the kit's default and under the other reading ({each} each); every figure "
           "is in 100 (games, or units staked). The shift in the odds is the change in one player's (or side's) "
           "chance of winning, or in the bank's edge, with its 95 % interval: where the interval includes no "
           "change, the reading favours no one that the games can show. “Changes the winner” counts every game "
           "whose winner differs, also where the luck of the cards alone made the difference once the games had "
           "parted: it says how much a reading changes the course of a game, not whom it favours. A rule with "
           "more than two readings is ranked by the reading that shifts the odds most. Follow a rule for its "
           "plot and its figures per reading.</small></p>")
    return table + note + how
