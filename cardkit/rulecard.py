"""The rules to take along: one or two pages with a game's rules as the kit plays them, made from its rulebook.

    card = cardkit.rulecard.rule_card("sieben")          # the content, under the options given (the defaults)
    cardkit.rulecard.card_html(card)                     # for the page (and its print style sheet)
    cardkit.rulecard.card_pdf(card)                      # the same card as a PDF file's bytes (fpdf2)

Everything on the card comes from the rulebook (``cardkit/rules/<game>.toml``) and the game's options, so the
card never drifts from the rules the engine plays: for each rule its statement *as played* (``played`` in the
rulebook: the rule's own words and those of the reading in force, with the options' values filled in — never a
cut of the discussion), the engine's tables (settlements, scores, ranks) beneath the rules they belong to, for
every conflict and gap the reading in force and the others; then every option with its choices. Rule IDs are
not in a line's words: on the page each rule's title links to it. The PDF is drawn by fpdf2 (a well-kept PDF library) with the
DejaVu fonts in ``cardkit/fonts``; fpdf2 is imported only when a PDF is made (on the server or in the static
build, never in the engine's play or in a visitor's browser).
"""
from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from importlib import resources

from .errors import CardkitError
from .rules import Table, link_rule_ids, md_html, scroll_x

# the engine's tables that are advice or illustration, not rules: they stay on the game's page
NOT_ON_CARD = {"strategy", "players", "trick"}


@dataclass
class Item:
    id: str
    title: str
    text: str                       # the rule as played under the options in force (the rulebook's little Markdown)
    kind: str
    reading: str = ""               # a conflict's or gap's reading the kit plays (its label)
    others: list = field(default_factory=list)    # the other readings' labels
    switch: str = ""                # the option that chooses, in plain words
    table: Table | None = None      # the engine's table for this rule, if the card carries one


@dataclass
class Section:
    id: str
    title: str
    text: str
    items: list                     # Item, the finer rules beneath
    head: Item | None = None        # the section's own rule as an item (its readings, if any)


@dataclass
class OptionLine:
    what: str                       # the option's help text
    value: str                      # the value in force, in words
    choices: list                   # every value, in words
    default: bool                   # the kit's default is in force


@dataclass
class RuleCard:
    game: str
    title: str
    summary: str
    sections: list
    options: list
    sources: str
    changed: list                   # the options in force that are not the kit's defaults, in words


def _value_words(o, rule, value) -> str:
    if rule is not None:
        for rd in rule.readings:
            if rd.value == value:
                return rd.label
    if o.name == "players":
        return f"{value} players"
    if isinstance(value, bool):
        return "on" if value else "off"
    return o.label(value)


def rule_card(game: str, **options) -> RuleCard:
    """The card's content for `game` under `options` (checked; the kit's defaults where not given)."""
    import cardkit
    from .documents import document
    g = cardkit.load_game(game, **options)
    book = g.rulebook
    by_option = {o.rule: o for o in g.option_specs}

    shown: set = set()

    def item(r) -> Item:
        if not r.played and not any(rd.played for rd in r.readings):
            raise CardkitError(f"{game}'s rulebook has no statement of rule {r.id} as played")
        it = Item(r.id, r.title, book.as_played(r), r.kind)
        if r.table and r.table not in NOT_ON_CARD and r.table in book.tables and r.table not in shown:
            it.table = _plain_table(book.tables[r.table])
            shown.add(r.table)              # a table two rules name is printed once, under the first
        o = by_option.get(r.id)
        if r.readings and r.option and r.option in g.options:
            value = g.options[r.option]
            it.reading = next((rd.label for rd in r.readings if rd.value == value), "")
            it.others = [rd.label for rd in r.readings if rd.value != value]
            it.switch = book.switch_text(r)
        elif o is not None and o.name != "players" and o.choices and not r.readings:
            it.reading = _value_words(o, None, g.options[o.name])
        return it

    sections = []
    for top in book.sections():
        head = item(top)
        items = [item(r) for r in book.rules if r.id.startswith(top.id + ".")]
        sections.append(Section(top.id, top.title, head.text, items, head))
    lines, changed = [], []
    for o in g.option_specs:
        rule = book.rule(o.rule) if o.rule in book.ids() else None
        values = list(o.choices) if o.choices else []
        v = g.options[o.name]
        what = _no_ids((o.help or o.name).strip())
        lines.append(OptionLine(what[:1].upper() + what[1:], _value_words(o, rule, v),
                                [_value_words(o, rule, x) for x in values], v == o.default))
        if v != o.default:
            changed.append(f"{what[:1].upper() + what[1:]}: {_value_words(o, rule, v)}")
    docs = sorted({document(c.source).name for r in book.rules for c in r.cite})
    sources = "Sources: " + ", ".join(docs) + "." if docs else ""
    return RuleCard(game, g.title, g.summary, sections, lines, sources, changed)


# --- on the page --------------------------------------------------------------------------------------------
def _text_html(text: str, href) -> str:
    body = md_html(text)
    body = re.sub(r"^<p>(.*)</p>$", r"\1", body, flags=re.S) if body.count("<p>") == 1 and "<ul>" not in body else body
    return link_rule_ids(body, href) if href else body


def _no_ids(text: str) -> str:
    """Words without the rule IDs in them ("house rule M7-5: …" -> "house rule: …"): the card links its rules."""
    from .rules import RULE_ID
    text = re.sub(r"\s*\((?:rule in brackets|rules? [A-Z][A-Z0-9]*-[\d.]+)\)", "", text)
    return " ".join(RULE_ID.sub("", text).replace(" :", ":").split())


def _plain_table(t):
    """An engine's table as the card shows it: the cells' rule IDs (links on the page) left out."""
    from .rules import Table
    strip = lambda c: " ".join(re.sub(r"\s*[(\[]\s*[A-Z][A-Z0-9]*-\d+(?:\.\d+)*(?:\s*,\s*[A-Z][A-Z0-9]*-\d+(?:\.\d+)*)*\s*[)\]]",  # noqa: E731
                                         "", str(c)).split())
    keep = [i for i, h in enumerate(t.headers) if "as printed" not in h]     # the scan's own row is not a rule
    return Table([strip(t.headers[i]) for i in keep], [[strip(r[i]) for i in keep] for r in t.rows],
                 _no_ids(strip(t.caption)))


def _titled(title: str) -> str:
    """A rule's title as the head of its line: with a full stop unless it ends in its own sign."""
    return title if title.endswith((".", "?", "!")) else title + "."


def _readings_words(it: Item) -> str:
    """The reading in force and the others, in a line (empty for a rule without readings)."""
    if not (it.reading and it.others):
        return ""
    return (f"The kit plays: {it.reading}. Other reading{'s' if len(it.others) > 1 else ''}: "
            f"{'; '.join(it.others)}.")


def _id_link(rule_id: str, href) -> str:
    """A rule's small link to its place on the game's page (its ID stays out of the card's words)."""
    url = href(rule_id) if href else None
    if not url:
        return ""
    e = html.escape
    return (f" <a class='ck-rule-link ck-card-ref' href='{e(url)}' title='the rule in full on this page'>"
            f"<small>{e(rule_id)}</small></a>")


def _item_html(it: Item, href, heading: bool = False) -> str:
    e = html.escape
    head = f"<b>{e(_titled(it.title))}</b>{_id_link(it.id, href)} " if not heading else ""
    rd = _readings_words(it)
    reading = f" <span class='ck-card-reading'>{e(rd)}</span>" if rd else ""
    table = scroll_x(it.table.html(), it.table.caption or _titled(it.title)) if it.table is not None else ""
    return (f"<p class='ck-card-item ck-card-{it.kind.replace(' ', '-')}'>{head}{_text_html(it.text, None)}{reading}</p>"
            + table)


def card_html(card: RuleCard, href=None, element_id: str = "") -> str:
    """The card as HTML (an <article class='ck-card'>): each rule's title links to the rule on the page with
    `href(rule_id)` where given."""
    e = html.escape
    parts = [f"<article class='ck-card' lang='en'{f' id={chr(39)}{e(element_id)}{chr(39)}' if element_id else ''}>",
             f"<header><h3 class='ck-card-title'>{e(card.title)} — the rules as the kit plays them</h3>",
             f"<p class='ck-card-summary'>{e(card.summary)}"
             + (f" <b>Options in force:</b> {e('; '.join(card.changed))}." if card.changed else "") + "</p></header>",
             "<div class='ck-card-body'>"]
    for s in card.sections:
        parts.append(f"<section class='ck-card-section'><h4>{e(s.title)}{_id_link(s.id, href)}</h4>")
        if s.text or s.head.table is not None:
            parts.append(_item_html(s.head, href, heading=True))
        parts += [_item_html(it, href) for it in s.items]
        parts.append("</section>")
    rows = "".join(f"<li>{e(o.what)}: <b>{e(o.value)}</b>"
                   + (f" <span class='ck-card-choices'>({e(' · '.join(o.choices))})</span>" if len(o.choices) > 1 else "")
                   + "</li>" for o in card.options)
    parts.append(f"<section class='ck-card-section ck-card-options'><h4>The options</h4><ul>{rows}</ul></section>")
    parts.append(f"</div><footer><small>{e(card.sources)} Made from the kit's rulebook: each rule's words, "
                 "quotations and readings in full are on the game's page.</small></footer></article>")
    return "".join(parts)


def card_text(card: RuleCard) -> str:
    """The card as plain text (Markdown), for the terminal (`cardkit card GAME`)."""
    out = [f"# {card.title} — the rules as the kit plays them", "", card.summary, ""]
    if card.changed:
        out += ["Options in force: " + "; ".join(card.changed) + ".", ""]
    for s in card.sections:
        out += [f"## {s.title}", ""]
        for it in ([s.head] if s.text or s.head.table is not None else []) + s.items:
            head = "" if it is s.head else f"**{_titled(it.title)}** "
            line = head + " ".join(it.text.split())
            rd = _readings_words(it)
            if rd:
                line += f" *{rd}*"
            out += [line, ""]
            if it.table is not None:
                out += [it.table.markdown(), ""]
    out += ["## The options", ""]
    out += [f"- {o.what}: **{o.value}**" + (f" ({' · '.join(o.choices)})" if len(o.choices) > 1 else "")
            for o in card.options]
    return "\n".join(out + ["", card.sources])


def card_lines(card: RuleCard) -> list[str]:
    """Every line of the card's words (each rule's statement with its readings, each table row in words), as
    the tests read them: none may end in a colon or a question, name a rule ID or a file."""
    out = []
    for s in card.sections:
        for it in [s.head, *s.items]:
            if it.text:
                out.append(" ".join(it.text.split()))
            if _readings_words(it):
                out.append(_readings_words(it))
            if it.table is not None:
                out += table_lines(it.table)
    return out


def table_lines(t) -> list[str]:
    """A table's rows in words, one line each ("Bank 17 to 20 — player 21: pays double"), for the PDF's columns."""
    out = [t.caption] if t.caption else []
    for r in t.rows:
        cells = [f"{h}: {c}" for h, c in zip(t.headers[1:], r[1:]) if str(c).strip()]
        out.append(f"{r[0]} — " + "; ".join(cells) if cells else str(r[0]))
    return out


# --- as a file ------------------------------------------------------------------------------------------------
FONT = "DejaVuCond"
_FONT_FILES = {"": "DejaVuSansCondensed.ttf", "B": "DejaVuSansCondensed-Bold.ttf",
               "I": "DejaVuSansCondensed-Oblique.ttf", "BI": "DejaVuSansCondensed-BoldOblique.ttf"}


def _fragments(text: str):
    """(style, words) pieces of the rulebook's little Markdown: **bold**, *italic*, `code` (as plain)."""
    for piece in re.split(r"(\*\*.+?\*\*|\*.+?\*|`.+?`)", text):
        if not piece:
            continue
        if piece.startswith("**"):
            yield "B", piece[2:-2]
        elif piece.startswith("*") and len(piece) > 2:
            yield "I", piece[1:-1]
        elif piece.startswith("`"):
            yield "", piece[1:-1]
        else:
            yield "", piece


def card_pdf(card: RuleCard) -> bytes:
    """The card as a PDF (A4, two columns), drawn by fpdf2 from the same content as the page's card."""
    try:
        from fpdf import FPDF
    except ImportError:      # the site's extras install it (pyproject: site)
        raise CardkitError("the rules card's PDF needs fpdf2: pip install -e '.[site]'") from None
    fonts = resources.files("cardkit") / "fonts"
    pdf = FPDF(format="A4", unit="mm")
    pdf.set_margins(11, 10, 11)
    pdf.set_auto_page_break(True, margin=10)
    pdf.set_title(f"{card.title}: the rules as the kit plays them")
    pdf.set_creator("cardkit")
    pdf.set_lang("en")
    for style, name in _FONT_FILES.items():
        with resources.as_file(fonts / name) as path:
            pdf.add_font(FONT, style, str(path))
    pdf.add_page()
    pdf.set_font(FONT, "B", 13)
    pdf.multi_cell(0, 6, f"{card.title} — the rules as the kit plays them", new_x="LMARGIN", new_y="NEXT")
    pdf.set_font(FONT, "", 8.5)
    summary = card.summary + (f" Options in force: {'; '.join(card.changed)}." if card.changed else "")
    pdf.multi_cell(0, 4, summary, new_x="LMARGIN", new_y="NEXT")
    pdf.ln(1.5)

    def write(par, text: str, style: str = "", size: float = 7.6) -> None:
        for st, words in _fragments(text):
            pdf.set_font(FONT, "".join(sorted(set(style + st))) if (style or st) else "", size)
            par.write(words)

    with pdf.text_columns(ncols=2, gutter=5, text_align="LEFT", line_height=1.12) as cols:
        for s in card.sections:
            with cols.paragraph(top_margin=1.6, bottom_margin=0.6) as par:
                write(par, s.title, "B", 9.2)
            if s.text or s.head.table is not None:
                _pdf_item(cols, write, s.head, heading=True)
            for it in s.items:
                _pdf_item(cols, write, it)
        with cols.paragraph(top_margin=1.6, bottom_margin=0.6) as par:
            write(par, "The options", "B", 9.2)
        for o in card.options:
            with cols.paragraph(bottom_margin=0.4) as par:
                write(par, f"{o.what}: ")
                write(par, o.value, "B")
                if len(o.choices) > 1:
                    write(par, f" ({' · '.join(o.choices)})", "", 7)
        with cols.paragraph(top_margin=1.6) as par:
            write(par, f"{card.sources} Made from the kit's rulebook: each rule's words, quotations and readings in "
                       "full are on the game's page.", "I", 6.8)
    return bytes(pdf.output())


def _pdf_item(cols, write, it: Item, heading: bool = False) -> None:
    text = " ".join(line.strip() for line in it.text.splitlines())
    with cols.paragraph(bottom_margin=0.5) as par:
        if not heading:
            write(par, f"{_titled(it.title)} ", "B")
        write(par, text + " ")
        rd = _readings_words(it)
        if rd:
            write(par, rd, "I")
    if it.table is not None:
        lines = table_lines(it.table)
        if it.table.caption:
            with cols.paragraph(bottom_margin=0.2) as par:
                write(par, lines.pop(0), "I", 7)
        for line in lines:
            with cols.paragraph(bottom_margin=0.2) as par:
                write(par, "• " + line, "", 7)


def page_count(pdf: bytes) -> int:
    """The number of pages of a PDF this module made."""
    return len(re.findall(rb"/Type\s*/Page(?!s)", pdf))
