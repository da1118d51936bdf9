"""Views to HTML. Only the `cardkit.view.View` a seat may see ever reaches the page."""
from __future__ import annotations

from html import escape

import ipywidgets as w
from ipywidgets.widgets.widget_description import DescriptionStyle
from ipywidgets.widgets.widget_string import HTMLStyle

from cardkit.svg import card_svg
from cardkit.view import plural

_SHARED: dict = {}


def shared(kind: str):
    """One Layout / HTMLStyle / ButtonStyle model shared by every widget that leaves it as it is: each
    model is one more thing the page must load before it is interactive."""
    if kind not in _SHARED:
        _SHARED[kind] = {"layout": w.Layout, "html": HTMLStyle, "button": w.ButtonStyle,
                         "wrap": lambda: w.Layout(flex_flow="row wrap"),
                         "dropdown": lambda: w.Layout(width="auto", max_width="100%"),
                         "description": DescriptionStyle}[kind]()
    return _SHARED[kind]


def HTML(value: str = "") -> w.HTML:
    return w.HTML(value, layout=shared("layout"), style=shared("html"))


def Button(**kw) -> w.Button:
    kw.setdefault("layout", shared("layout"))
    kw.setdefault("style", shared("button"))
    return w.Button(**kw)


_NOTICE = "<div class='ck-error ck-notice ck-alert'>"


def with_notice(html: str, text: str) -> str:
    """`html` with one short error line (`text`) in front, replacing any earlier one: what the kit's
    widgets show through `_ck_notice` when a message from the page failed (see widgets/guard.py)."""
    if html.startswith(_NOTICE):
        html = html[html.index("</div>") + len("</div>"):]
    return f"{_NOTICE}{escape(text)}</div>{html}"


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
.ck-piles.ck-placed{flex-wrap:nowrap;gap:10px}.ck-placed>div{flex:1 1 0;min-width:0}
.ck-placed>.ck-place-middle{text-align:center}.ck-placed>.ck-place-right{text-align:right}
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
.ck-around{display:grid;gap:6px;grid-template-columns:minmax(0,1fr) minmax(0,2fr) minmax(0,1fr);
  grid-template-areas:". top ." "left center right" "bottom bottom bottom" "status status status"}
.ck-around>.ck-top-row{grid-area:top;display:flex;gap:6px;min-width:0}.ck-around>.ck-pos-left{grid-area:left}
.ck-around>.ck-pos-right{grid-area:right}.ck-around>.ck-pos-bottom{grid-area:bottom}
.ck-top-row>.ck-seat{flex:1 1 0;min-width:0;margin:0}
.ck-around .ck-seat{min-width:0;overflow-wrap:anywhere}
.ck-around>.ck-center{grid-area:center;min-width:0}.ck-around>.ck-status,.ck-around>.ck-result{grid-area:status}
.ck-around .ck-seat{border:2px solid transparent;background:#fbfdf9;align-self:start}
.ck-around .ck-seat.ck-current{border-color:#e0a800;background:#fff3c4;box-shadow:0 0 0 3px #ffe08a}
.ck-turn{display:inline-block;background:#e0a800;color:#000;border-radius:10px;padding:0 7px;font-size:12px;font-weight:bold}
.ck-back-count{font-size:13px;color:#333;margin-left:4px}
.ck-since{border-bottom:1px dashed #bbb;margin-bottom:6px;padding-bottom:4px}
.ck-since-title{font-size:12px;font-weight:bold;color:#333}
.ck-since .ck-pile-note,.ck-pile-note{font-size:12px;color:#333}
.ck-status{font-size:15px}.ck-status.ck-yours{color:#0d47a1}
.ck-result.ck-lost{color:#b71c1c}.ck-result.ck-draw{color:#333}
.ck-announce{font-size:14px;margin:4px 0;padding:4px 8px;border-left:4px solid #90caf9;background:#f5f9ff}
.ck-announce ol{margin:0;padding-left:1.4em}
.ck-hint{font-size:14px;border-left:4px solid #a5d6a7;background:#f4fbf4;padding:4px 8px}
.ck-hint ul{margin:2px 0;padding-left:1.3em}
.ck-hint p{margin:4px 0}.ck-hint>div{margin-top:4px}
.ck-logbox{max-height:22em;overflow-y:auto;display:flex;flex-direction:column-reverse;border:1px solid #ddd;
  border-radius:6px;padding:2px 8px;max-width:980px;box-sizing:border-box}
.ck-logbox>*{flex-shrink:0}
.ck-play .widget-html-content,.ck-replay .widget-html-content{line-height:1.45}
.ck-logbox h4{margin:6px 0 2px;font-size:14px}
.ck-play .widget-toggle-buttons{flex-wrap:wrap}
.ck-play .widget-toggle-buttons .widget-toggle-button{width:auto}
.ck-logbox .ck-trick-no{font-weight:bold;font-size:12px;color:#555;margin-top:4px}
.ck-logbox ol{margin:0 0 2px;padding-left:1.4em;font-size:13px}
.ck-logbox ol.ck-log{max-height:none;overflow:visible}
.ck-moment{border:2px solid #2e7d32;background:#f1f8e9;border-radius:8px;padding:6px 12px;margin:6px 0;
  max-width:980px;box-sizing:border-box;font-size:15px}
.ck-moment p{margin:4px 0}.ck-moment-title{font-size:17px;font-weight:bold;color:#1b5e20}
.ck-play .widget-button.ck-next{font-size:15px;padding:0 16px}
.ck-cover{border:2px solid #455a64;border-radius:8px;padding:16px 14px;max-width:980px;box-sizing:border-box;
  text-align:center;font-size:15px;background:repeating-linear-gradient(45deg,#eceff1 0 12px,#e4e9ec 12px 24px)}
.ck-cover p{margin:6px 0}.ck-cover-title{font-size:20px;font-weight:bold;color:#263238}
.ck-play .widget-button.ck-ready{font-size:16px;padding:0 18px;height:auto;min-height:40px;white-space:normal}
.ck-review{border:1px solid #c8e6c9;background:#f6fbf6;border-radius:6px;padding:6px 10px;margin:6px 0}
.ck-card.ck-playable{box-shadow:0 0 0 3px #2e7d32 !important}
.ck-play .widget-hbox:has(>.ck-card){gap:8px;padding:6px 4px}
.ck-play .ck-card.widget-button:focus-visible,.ck-play .ck-card.widget-button:focus{position:relative;z-index:3;
  outline:4px solid #0d47a1 !important;outline-offset:4px;box-shadow:0 0 0 3px #2e7d32,0 0 0 8px #fff !important}
.ck-play .ck-card.widget-button.ck-unplayable{background:#efede6;border-style:dashed !important}
.ck-play .ck-card.widget-button.ck-unplayable.ck-ink-yellow{color:#7a6000}
.ck-play .ck-card.widget-button.ck-unplayable.ck-ink-green{color:#27692b}
.ck-play .ck-card.widget-button.ck-face-down,.ck-play .ck-card.widget-button.ck-face-up{line-height:1.1;padding:0}
.ck-play .ck-card.ck-face-down::after,.ck-play .ck-card.ck-face-up::after{display:block;font-size:10px;
  font-weight:normal;color:#333;margin-top:4px;white-space:normal;line-height:1.1}
.ck-play .ck-card.ck-face-down::after{content:"face down"}
.ck-play .ck-card.ck-face-up::after{content:"face up"}
.ck-play .ck-card.widget-button.ck-face-down{border-style:dashed !important;background:#eef3fb}
.ck-play .ck-card.widget-button.ck-back{background:repeating-linear-gradient(45deg,#1e4e8c 0 5px,#3d6fb3 5px 10px);
  border-color:#0d2c52 !important}
.ck-faces-note{color:#333}
.ck-practice{line-height:1.45;max-width:980px;margin:6px 0}
.ck-thinking{font-size:15px;font-weight:bold;padding:4px 8px;border-left:4px solid #e0a800;background:#fff8e1;
  margin:4px 0;max-width:980px;box-sizing:border-box}
.ck-thinking::after{content:"";display:inline-block;width:.9em;height:.9em;margin-left:8px;vertical-align:-2px;
  border:2px solid #e0a800;border-right-color:transparent;border-radius:50%;animation:ck-spin 1s linear infinite}
@keyframes ck-spin{to{transform:rotate(360deg)}}
@media (prefers-reduced-motion:reduce){.ck-thinking::after{animation:none}}
.ck-review-box progress{vertical-align:middle;width:12em;max-width:50%}
.ck-review-box>.widget-button{align-self:flex-start}
.ck-review ol{margin:4px 0;padding-left:1.6em}.ck-review summary{cursor:pointer;margin:4px 0}
.ck-opt-label{font-size:13px;margin-top:4px}
.jupyter-widgets:focus-visible,.ck-play button:focus-visible,.ck-replay button:focus-visible,a:focus-visible{
  outline:3px solid #1565c0 !important;outline-offset:2px}
.ck-play .widget-button,.ck-replay .widget-button,.ck-play .widget-toggle-button{width:auto;min-width:2.8em;flex:0 0 auto}
.ck-play .ck-card.widget-button{width:60px;min-width:60px;background:#fffdf7;font-weight:bold;font-size:20px;color:#212121}
.ck-play .ck-card.widget-button.ck-long{font-size:12px}
.ck-play .ck-card.widget-button.ck-ink-red{color:#c62828}.ck-play .ck-card.widget-button.ck-ink-purple{color:#6a1b9a}
.ck-play .ck-card.widget-button.ck-ink-yellow{color:#8a6d00}.ck-play .ck-card.widget-button.ck-ink-blue{color:#1565c0}
.ck-play .ck-card.widget-button.ck-ink-green{color:#2e7d32}
/* Jupyter's button colours with white words under 4.5:1 (info 3.5, success 4.1, warning 2.7): darker */
.jupyter-widgets.jupyter-button.mod-info{background-color:#00727f}
.jupyter-widgets.jupyter-button.mod-success{background-color:#2e7d32}
.jupyter-widgets.jupyter-button.mod-warning{background-color:#b34700}
.ck-scroll-x{overflow-x:auto;max-width:100%}
.ck-scroll-x:focus-visible{outline:3px solid #1565c0;outline-offset:2px}
.ck-impact-rank td,.ck-impact-rank th{text-align:left !important;vertical-align:top}
.ck-sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
table.ck-table td.ck-disputed,table.ck-table th.ck-disputed,.ck-legend .ck-disputed{outline:2px dashed #e0a800;outline-offset:-3px}
table.ck-table td.ck-changed,table.ck-table th.ck-changed,.ck-legend .ck-changed{background:#ffe08a;outline:2px solid #e0a800;outline-offset:-3px;font-weight:bold}
.ck-legend span{padding:0 4px}
.ck-facts{display:flex;flex-wrap:wrap;gap:2px 14px;margin:4px 0;padding:4px 8px;background:#f3f6fa;
  border-radius:6px;font-size:14px;max-width:980px;box-sizing:border-box}
.ck-fact b{color:#333}
.ck-odds{font-size:14px;border-left:4px solid #ce93d8;background:#fbf5fc;padding:4px 8px;margin:4px 0;max-width:980px}
.ck-odds td{overflow-wrap:anywhere}
.ck-exact summary{cursor:pointer;list-style-position:inside}
.ck-odds td.ck-odds-fig{white-space:nowrap;overflow-wrap:normal}.ck-odds td small{color:#555}.ck-exact[open] summary{margin-bottom:2px}
.ck-hint .ck-exact{display:inline-block;vertical-align:top}
.ck-cited{background:#fff8e1;border-radius:2px;color:inherit}
.ck-cited:target{background:#ffd54f;outline:2px solid #e0a800;scroll-margin-top:30vh}
.ck-source-text{white-space:pre-wrap;font-family:Georgia,serif;font-size:15px;line-height:1.5;max-width:52em;
  border-left:4px solid #ddd;padding:4px 12px;overflow-wrap:anywhere}
.ck-file{color:#555;font-size:12px;font-weight:normal;overflow-wrap:anywhere}
.ck-cite a{overflow-wrap:anywhere}
.ck-narr-note{color:#555;font-style:italic}
.ck-changed-step{display:block;margin:2px 0}
.ck-reading-cmp>div{flex:1 1 18em;max-width:40em}
a.ck-rule-link,.ck-cite a,.ck-found a,.ck-toc a,.ck-rule a,.ck-source a{color:#0d47a1;text-decoration:underline;
  text-decoration-style:dotted;text-underline-offset:2px}
.ck-cite a{text-decoration-style:solid}
a.ck-rule-link{white-space:nowrap}
a.ck-page-link,.ck-games a{color:#0d47a1}
/* a link in running text is underlined: its colour alone would not tell it apart (WCAG 1.4.1; JupyterLab's
   `.jp-RenderedHTMLCommon a:link` takes the underline away, hence the weight of this selector) */
:is(.jp-RenderedHTMLCommon,.widget-html-content) :is(p,li,td,th,dd,caption,small,div) a:is(:link,:visited){
  text-decoration-line:underline;text-underline-offset:2px}
.widget-html-content:has(>.ck-scroll-x){min-width:0;max-width:100%}
.widget-html-content table.ck-table,.widget-html-content .ck-legend{line-height:1.3}
.ck-quickstart{border-left:4px solid #a5d6a7;background:#f4fbf4;padding:2px 14px;border-radius:4px;max-width:62em}
/* your own example: the card picker and the moves wrap into rows of small buttons (a phone's 390 px too) */
.ck-example .widget-toggle-buttons .widget-toggle-button{width:auto;min-width:44px;padding:0 6px;margin:2px}
.ck-example .widget-toggle-buttons{flex-wrap:wrap;height:auto}
.ck-example .widget-toggle-buttons>div{display:flex;flex-wrap:wrap}
.ck-example .ck-example-move.widget-button{width:auto;min-width:44px;margin:2px}
.ck-example .widget-hbox{flex-wrap:wrap}
.ck-example-readings .ck-touched b{color:#1b5e20}
.ck-share-qr svg{width:180px;height:auto}
.ck-share-text{font-size:12px}
@media (max-width:600px){
  .ck-around{grid-template-columns:minmax(0,1fr) minmax(0,1fr);
    grid-template-areas:"top top" "left right" "center center" "bottom bottom" "status status"}
  .ck-table{padding:4px}
  /* the trick and the whole hand on one screen (390 x 844): seven cards a row down to 375 px (Whist's 13 in
     two), still far above a target's 24 x 24 px (WCAG 2.5.8), the playable ones' green rings apart, the
     padding room for the focus ring; a seat's face-down backs small at its top right, beside the name; the
     piles in the middle side by side, each note wrapping under its own pile instead of widening it. A card
     given the focus (after the deal) is scrolled to the middle of the screen with 160 px above it counted in
     (scroll-margin): the card lower, the trick above it in view, whichever row of the hand the card is in */
  .ck-play .ck-card.widget-button{width:40px !important;min-width:40px;height:58px !important;font-size:16px;margin:0;scroll-margin-top:160px}
  .ck-play .ck-card.widget-button.ck-long{font-size:9px}   /* Magische 7's Spiegel, Joker, Kreuz: the label within 40 px */
  .ck-play .widget-hbox:has(>.ck-card){gap:7px;padding:8px}
  .ck-around{gap:4px}
  .ck-around .ck-seat{padding:2px 5px;margin:0;line-height:1.3;position:relative}
  .ck-around .ck-seat:has(>span[aria-label])::before{content:"";float:right;width:3.6em;height:1.2em}
  .ck-around .ck-seat>span[aria-label]{position:absolute;top:2px;right:5px}
  .ck-around .ck-seat>span[aria-label]>svg{width:12px;height:auto;vertical-align:-4px}
  .ck-center .ck-piles{gap:4px 12px;margin:2px 0;padding:4px 2px}
  .ck-center .ck-piles:not(.ck-placed)>div{flex:1 1 auto}
  .ck-center .ck-pile-note{contain:inline-size;line-height:1.3}
  .ck-play .ck-card.ck-face-down::after,.ck-play .ck-card.ck-face-up::after{font-size:9px;margin-top:2px}
  /* the landing page's ranking: one card per rule instead of seven narrow columns */
  table.ck-impact-rank,.ck-impact-rank tbody,.ck-impact-rank tr,.ck-impact-rank td,.ck-impact-rank tbody th{
    display:block;text-align:left !important}
  .ck-impact-rank thead{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
  .ck-impact-rank caption{display:block;text-align:left}
  .ck-impact-rank tr{border:1px solid #ccc;border-radius:6px;margin:8px 0;padding:4px 8px}
  .ck-impact-rank td,.ck-impact-rank tbody th{border:none !important;padding:1px 0 !important}
  .ck-impact-rank td.ck-rank,.ck-impact-rank td.ck-rank-game{display:inline;font-weight:bold}
  .ck-impact-rank td.ck-rank::after{content:".";margin-right:.4em}
  .ck-impact-rank td[data-label]::before{content:attr(data-label) ": ";color:#555}
}
</style>"""


def html_output(markup: str):
    """IPython's HTML output of `markup` (static: no widget model), made without IPython's look for a file of
    that name: `IPython.display.HTML(text)` calls os.path.exists(text) first, and on the static site every such
    look is a request to JupyterLite's in-browser drive, through the service worker and back through the page
    (some 40 while a rules page starts), one of which a page closed at that moment leaves pending for ever."""
    from IPython.display import HTML
    out = HTML()
    out.data = markup
    return out


def use_css() -> None:
    """Put the kit's style sheet on the page once (as the first output of the first widgets cell):
    every widget's HTML relies on it instead of carrying its own copy."""
    try:
        from IPython import get_ipython
        from IPython.display import display
    except ImportError:
        return
    if get_ipython() is not None and not _SHARED.get("css"):
        _SHARED["css"] = True
        display(html_output(CSS))


def cards_html(cards, width: int = 44) -> str:
    return "<span class='ck-cards'>" + "".join(card_svg(c, width) for c in cards) + "</span>"


def played_html(cards, width: int = 44) -> str:
    """Cards each captioned with who played it (a trick of any length, in the order played)."""
    return "<span class='ck-cards'>" + "".join(
        f"<span class='ck-played'>{card_svg(c, width)}<small>{escape(o)}</small></span>" for o, c in cards) + "</span>"


def seat_positions(n: int) -> list[str]:
    """Where each seat sits, counted from the viewer (at the bottom) in the order of play: the next player
    on the left, the last before the viewer on the right, everyone between them across the top, left to
    right (one seat opposite with four players, two with five, …). Any number of seats has a place."""
    if n <= 2:
        return ["bottom", "top"][:n]
    return ["bottom", "left", *["top"] * (n - 3), "right"]


def _seat_box(seat, pos: str, width: int, hand_elsewhere: bool) -> str:
    cls = f"ck-seat ck-pos-{pos}" + (" ck-current" if seat.current else "")
    turn = " <span class='ck-turn'>to play</span>" if seat.current else ""
    extra = " · ".join(x for x in (seat.team, seat.score, seat.info) if x)
    hidden = sum(1 for c in seat.hand if c is None)
    shown = [c for c in seat.hand if c is not None]
    if hand_elsewhere:
        hand = f"<small>{plural(len(seat.hand), 'card')} in your hand, below</small>"
    elif not seat.hand:
        hand = "<small>no cards in hand</small>"
    else:
        small = width if pos in ("top", "bottom") else min(width, 34)
        hand = cards_html(shown, small) if shown else ""
        if hidden:
            hand += (f"<span aria-label='{plural(hidden, 'card')} face down'>{card_svg(None, 26)}"
                     f"<span class='ck-back-count' aria-hidden='true'>× {hidden}</span></span>")
    return (f"<div class='{cls}'><span class='ck-seat-name'>{escape(seat.name)}</span>{turn}"
            f"<br><small>{escape(extra)}</small><br>{hand}</div>")


def _pile_box(pile, width: int, title: str | None = None) -> str:
    if pile.count is not None and not pile.cards:
        body = f"{card_svg(None, width) if pile.count else ''} <span>{plural(pile.count, 'card')}</span>"
    elif pile.cards and any(o for o, _ in pile.cards):
        body = played_html(pile.cards, width)
    elif pile.cards:
        body = cards_html([c for _, c in pile.cards], width)
    else:           # no cards: "empty", unless a note says what lies there (Vingt-et-un's stakes)
        body = "" if pile.note and pile.kind != "trick" else "<em>empty</em>"
    note = f"<div class='ck-pile-note'>{escape(pile.note)}</div>" if pile.note else ""
    return f"<div><div class='ck-pile-name'>{escape(title or pile.name)}</div>{body}{note}</div>"


def facts_html(facts) -> str:
    """The match's public facts (trump, dealer, running score, rank order) as one labelled line."""
    if not facts:
        return ""
    return ("<div class='ck-facts'>" + "".join(f"<span class='ck-fact'><b>{escape(k)}:</b> {escape(v)}</span>"
                                               for k, v in facts) + "</div>")


def table_html(view, bottom: int = 0, width: int = 44, hand_elsewhere: bool = False, recent=None,
               outcome: str = "") -> str:
    """The table with its seats around it: `bottom` (the viewer) at the bottom, the next player (play goes
    to the left) on the left, a partner opposite; the trick, the last trick and the stock in the middle.
    `recent`: the tricks completed since the viewer's last move, as (title, Pile), shown in the middle in
    place of the last trick; `outcome`: "won", "lost" or "draw" for the viewer (colours the result)."""
    n = len(view.seats)
    pos = seat_positions(n)
    parts = [facts_html(view.facts), f"<div class='ck-table ck-around ck-n{n}'>"]
    top = []                     # the seats across the top share one row of the grid, side by side
    for k in range(n):
        seat = view.seats[(bottom + k) % n]
        crowded = pos[k] == "top" and pos.count("top") > 1      # several seats across the top: smaller cards
        box = _seat_box(seat, pos[k], min(width, 34) if crowded else width, hand_elsewhere and k == 0)
        if pos[k] == "top":
            top.append(box)
        else:
            parts.append(box)
    if top:
        parts.append(f"<div class='ck-top-row'>{''.join(top)}</div>")
    center = [p for p in view.piles if p.kind not in ("won", "last-trick", "aside") and not p.name.startswith("Won by")]
    last = [p for p in view.piles if p.kind == "last-trick"]
    mid = ""
    if recent:               # the tricks completed since, first: the trick in play stays next to the hand
        mid += ("<div class='ck-since'><div class='ck-since-title'>Since your last move</div><div class='ck-piles'>"
                + "".join(_pile_box(p, 34, title) for title, p in recent) + "</div></div>")
    placed = sorted((p for p in center if p.place), key=lambda p: ("left", "middle", "right").index(p.place))
    if placed:               # piles the rules set side by side: in their order, in one row at any width
        mid += "<div class='ck-piles ck-placed ck-now'>" + "".join(
            f"<div class='ck-place-{p.place}'>{_pile_box(p, width)}</div>" for p in placed) + "</div>"
    now = "".join(_pile_box(p, width) for p in center if not p.place)
    if not recent:
        now += "".join(_pile_box(p, width) for p in last)
    if now:
        mid += f"<div class='ck-piles ck-now'>{now}</div>"
    parts.append(f"<div class='ck-center'>{mid}</div>")
    won = [p for p in view.piles if p.kind == "won" or p.name.startswith("Won by")]
    if view.terminal:
        parts.append(f"<div class='ck-result ck-{outcome or 'won'} ck-live'>{escape(view.result)}</div>")
    else:
        yours = view.current_player is not None and view.current_player == bottom and view.viewer == bottom
        text = ("Your turn — " if yours else "") + view.status
        parts.append(f"<div class='ck-status{' ck-yours' if yours else ''}'>{escape(text)}</div>")
    parts.append("</div>")
    if won:
        parts.append("<details><summary>Won tricks</summary><div class='ck-piles'>"
                     + "".join(_pile_box(p, 30) for p in won) + "</div></details>")
    for p in (p for p in view.piles if p.kind == "aside"):     # cards out of play, folded away by name
        parts.append(f"<details><summary>{escape(p.name)}</summary><div class='ck-piles'>{_pile_box(p, 30, '')}"
                     "</div></details>")
    return "".join(parts)


def view_html(view, hide_seats=(), width: int = 44, bottom: int | None = None, hand_elsewhere: bool = False) -> str:
    """The table as HTML (see `table_html`); `bottom` defaults to the viewer, or seat 0 in the teacher's
    view."""
    if bottom is None:
        bottom = view.viewer if view.viewer is not None else 0
    return table_html(view, bottom, width, hand_elsewhere)
