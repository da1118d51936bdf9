"""Views to HTML. Only the `cardkit.view.View` a seat may see ever reaches the page."""
from __future__ import annotations

from html import escape

import ipywidgets as w
from ipywidgets.widgets.widget_string import HTMLStyle

from cardkit.svg import card_svg

_SHARED: dict = {}


def shared(kind: str):
    """One Layout / HTMLStyle / ButtonStyle model shared by every widget that leaves it as it is: each
    model is one more thing the page must load before it is interactive."""
    if kind not in _SHARED:
        _SHARED[kind] = {"layout": w.Layout, "html": HTMLStyle, "button": w.ButtonStyle,
                         "wrap": lambda: w.Layout(flex_flow="row wrap")}[kind]()
    return _SHARED[kind]


def HTML(value: str = "") -> w.HTML:
    return w.HTML(value, layout=shared("layout"), style=shared("html"))


def Button(**kw) -> w.Button:
    kw.setdefault("layout", shared("layout"))
    kw.setdefault("style", shared("button"))
    return w.Button(**kw)


def Box(children=(), vertical: bool = False):
    return (w.VBox if vertical else w.HBox)(list(children), layout=shared("layout"))

CSS = """<style>
.ck-table{font-family:sans-serif;border:1px solid #ccc;border-radius:8px;padding:8px;background:#f3f7f1;max-width:980px}
.ck-seat{margin:4px 0;padding:4px 6px;border-radius:6px}
.ck-seat.ck-current{background:#fff3c4}
.ck-seat-name{font-weight:bold;margin-right:8px}
.ck-cards{display:inline-flex;gap:3px;vertical-align:middle;flex-wrap:wrap}
.ck-played{display:inline-flex;flex-direction:column;align-items:center;font-size:11px;color:#333}
.ck-piles{display:flex;gap:18px;flex-wrap:wrap;margin:6px 0;padding:6px;border-top:1px dashed #bbb;border-bottom:1px dashed #bbb}
.ck-pile-name{font-size:12px;color:#333}
.ck-status{font-weight:bold;margin-top:4px}
.ck-result{font-size:16px;font-weight:bold;color:#1b5e20}
.ck-error{color:#b71c1c;font-weight:bold}
.ck-note{color:#1a4d7a}
.ck-log{font-size:13px;color:#333;max-height:12em;overflow:auto}
.ck-narration{font-size:15px;min-height:2.6em}
.ck-reading-cmp{display:flex;gap:12px;flex-wrap:wrap}
.ck-reading-cmp>div{border:1px solid #ccc;border-radius:6px;padding:6px 10px}
.ck-table table, table.ck-table{border-collapse:collapse}
table.ck-table td, table.ck-table th{border:1px solid #ccc;padding:3px 6px;font-size:13px}
</style>"""


def use_css() -> None:
    """Put the kit's style sheet on the page once (as the first output of the first widgets cell):
    every widget's HTML relies on it instead of carrying its own copy."""
    try:
        from IPython import get_ipython
        from IPython.display import HTML as _HTML, display
    except ImportError:
        return
    if get_ipython() is not None and not _SHARED.get("css"):
        _SHARED["css"] = True
        display(_HTML(CSS))


def cards_html(cards, width: int = 44) -> str:
    return "<span class='ck-cards'>" + "".join(card_svg(c, width) for c in cards) + "</span>"


def seat_html(seat, width: int = 44, hand_elsewhere: bool = False) -> str:
    cls = "ck-seat ck-current" if seat.current else "ck-seat"
    extra = " · ".join(x for x in (seat.team, seat.score, seat.info) if x)
    turn = " <span aria-label='to play'>▶</span>" if seat.current else ""
    hand = f"<small>{len(seat.hand)} cards in your hand, below</small>" if hand_elsewhere else cards_html(seat.hand, width)
    return (f"<div class='{cls}'><span class='ck-seat-name'>{escape(seat.name)}{turn}</span>"
            f"<small>{escape(extra)}</small><br>{hand}</div>")


def played_html(cards, width: int = 44) -> str:
    """Cards each captioned with who played it (a trick of any length, in the order played)."""
    return "<span class='ck-cards'>" + "".join(
        f"<span class='ck-played'>{card_svg(c, width)}<small>{escape(o)}</small></span>" for o, c in cards) + "</span>"


def pile_html(pile, width: int = 44) -> str:
    if pile.count is not None and not pile.cards:
        body = f"{card_svg(None, width) if pile.count else ''} <span>{pile.count} cards</span>"
    elif pile.cards and any(o for o, _ in pile.cards):
        body = played_html(pile.cards, width)
    else:
        body = cards_html([c for _, c in pile.cards], width) if pile.cards else "<em>empty</em>"
    note = f" <small>({escape(pile.note)})</small>" if pile.note else ""
    return f"<div><div class='ck-pile-name'>{escape(pile.name)}{note}</div>{body}</div>"


def view_html(view, hide_seats=(), width: int = 44, bottom: int | None = None, hand_elsewhere: bool = False) -> str:
    """The table as HTML. Seats are listed with `bottom` (the viewer) last, piles in the middle;
    `hand_elsewhere`: the bottom seat's hand is shown by the caller (e.g. as buttons)."""
    seats = list(view.seats)
    if bottom is not None:
        seats = seats[bottom + 1:] + seats[:bottom + 1]
    top = [s for s in seats[:-1] if s.player not in hide_seats]
    last = [s for s in seats[-1:] if s.player not in hide_seats]
    main_piles = [p for p in view.piles if not p.name.startswith("Won by")]
    won = [p for p in view.piles if p.name.startswith("Won by")]
    parts = ["<div class='ck-table'>"]
    parts += [seat_html(s, width) for s in top]
    parts.append("<div class='ck-piles'>" + "".join(pile_html(p, width) for p in main_piles) + "</div>")
    parts += [seat_html(s, width, hand_elsewhere and bottom is not None) for s in last]
    if won:
        parts.append("<details><summary>Won tricks</summary><div class='ck-piles'>"
                     + "".join(pile_html(p, 30) for p in won) + "</div></details>")
    status = f"<div class='ck-result'>{escape(view.result)}</div>" if view.terminal else \
        f"<div class='ck-status'>{escape(view.status)}</div>"
    parts += [status, "</div>"]
    return "".join(parts)
