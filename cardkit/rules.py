"""Rules as data. Each game's rulebook is a TOML file ``cardkit/rules/<game>.toml``::

    [[rule]]
    id = "M7-4"                  # brief ID, finer ones beneath it: "M7-4.1"
    title = "Scoring the Spiegel"
    kind = "conflict"            # stated | conflict | gap | reconstructed | assumption | house rule
    text = "…"                   # what the kit does (Markdown)
    option = "spiegel_scoring"   # conflicts and gaps: the option that switches the reading
    default = "partner"          # …its default, and why
    default_reason = "…"
    table = "outcomes"           # optional: a table the engine generates (Game.rule_tables)
    example = "spiegel-conflict" # optional: a record in cardkit/examples/<game>/
      [[rule.cite]]              # source file + section + the original words + an English translation
      source = "000_b9b7216f26f02401.txt"
      section = "3(d2)"
      original = "Der Spiegel zählt soviele Punkte wie die andere Karte im betreffenden Stich."
      english = "The Spiegel counts as many points as the other card in its trick."
      [[rule.reading]]           # conflicts and gaps: the readings side by side
      value = "partner"          # the option value that selects it
      label = "…"
      text = "…"

A rulebook also has a top-level ``notation``: how the kit writes the game's cards and moves in records and
at the terminal (`cardkit play`), in one place for those who want it. Rule texts speak plain words; the
notation is shown with the whole rulebook (`cardkit rules GAME`), not on the rule cards of a page.

The rulebook renders to Markdown and HTML from the same data.
"""
from __future__ import annotations

import html
import re
import tomllib
from dataclasses import dataclass, field
from importlib import resources

from .documents import cite_href, document
from .errors import CardkitError

KINDS = ("stated", "conflict", "gap", "reconstructed", "assumption", "house rule")
KIND_TEXT = {"stated": "stated in the sources", "conflict": "the sources conflict",
             "gap": "the sources are silent", "reconstructed": "garbled in the source, reconstructed",
             "assumption": "an assumption of the kit", "house rule": "a house rule, off by default"}


@dataclass
class Citation:
    source: str
    section: str
    original: str = ""
    english: str = ""
    lang: str = "de"        # the language of `original` (the 7th Sea rules give Whist in English)

    def short(self) -> str:
        return f"{self.source[:3]} §{self.section}"


@dataclass
class Reading:
    value: object
    label: str
    text: str
    cite: list[Citation] = field(default_factory=list)
    played: str = ""        # the rule as played under this reading, in plain words a player can act on


@dataclass
class Table:
    headers: list[str]
    rows: list[list[str]]
    caption: str = ""

    def markdown(self) -> str:
        out = [f"*{self.caption}*", ""] if self.caption else []
        out.append("| " + " | ".join(self.headers) + " |")
        out.append("|" + "---|" * len(self.headers))
        out += ["| " + " | ".join(str(c) for c in r) + " |" for r in self.rows]
        return "\n".join(out)

    def html(self, cell_class=None, href=None) -> str:
        """The table as HTML. `cell_class(row, col)` may give a cell a class (e.g. the cells a switch
        changes); `href(rule_id)` turns the rule IDs in the cells into links (see `link_rule_ids`)."""
        e = html.escape

        def cell(text: str, ri: int, ci: int) -> str:
            cls = cell_class(ri, ci) if cell_class else ""
            attr = f" class='{cls}'" if cls else ""
            t = e(str(text)).replace("*", "&#42;")      # a cell is text, never Markdown (a source's "**")
            body = link_rule_ids(t, href) if href else t
            return f"<th scope='row'{attr}>{body}</th>" if ci == 0 else f"<td{attr}>{body}</td>"

        cap = f"<caption>{e(self.caption)}</caption>" if self.caption else ""
        head = "".join(f"<th scope='col'>{e(h)}</th>" for h in self.headers)
        body = "".join("<tr>" + "".join(cell(c, ri, ci) for ci, c in enumerate(r)) + "</tr>"
                       for ri, r in enumerate(self.rows))
        return f"<table class='ck-table'>{cap}<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


@dataclass
class Rule:
    id: str
    title: str
    kind: str
    text: str
    cite: list[Citation] = field(default_factory=list)
    readings: list[Reading] = field(default_factory=list)
    option: str = ""
    default: object = None
    default_reason: str = ""
    table: str = ""
    example: str = ""
    played: str = ""        # the rule as played (under every reading), in plain words a player can act on

    @property
    def parent(self) -> str | None:
        return self.id.rsplit(".", 1)[0] if "." in self.id else None

    def reading(self, value) -> Reading:
        for r in self.readings:
            if r.value == value:
                return r
        raise CardkitError(f"rule {self.id} has no reading {value!r}")


@dataclass
class Rulebook:
    game: str
    title: str
    intro: str
    sources: list[str]
    rules: list[Rule]
    tables: dict = field(default_factory=dict)
    options: dict = field(default_factory=dict)    # option name -> Option (its plain words for pages)
    notation: str = ""                             # how records write cards and moves (not on rule cards)
    values: dict = field(default_factory=dict)     # the options in force (name -> value) of the game it was made for

    def rule(self, rule_id: str) -> Rule:
        for r in self.rules:
            if r.id == rule_id:
                return r
        raise CardkitError(f"{self.game} has no rule {rule_id!r}; rules: {', '.join(r.id for r in self.rules)}")

    def as_played(self, r: "Rule | str", values: dict | None = None) -> str:
        """The rule as the engine plays it under the options in force (`values`, by default those the book was
        made for): the rule's own statement, then the statement of the reading in force, with every `{option}`
        filled in with the option's value in words. Plain words, never cut from the discussion."""
        r = self.rule(r) if isinstance(r, str) else r
        values = self.values if values is None else values
        parts = [r.played]
        if r.readings:
            value = values.get(r.option, r.default)
            rd = next((x for x in r.readings if x.value == value), None)
            if rd is not None:
                parts.append(rd.played)
        return fill_options(" ".join(p for p in parts if p), values, self.options)

    def ids(self) -> list[str]:
        return [r.id for r in self.rules]

    def children(self, rule_id: str) -> list[Rule]:
        return [r for r in self.rules if r.parent == rule_id]

    def sections(self) -> list[Rule]:
        return [r for r in self.rules if r.parent is None]

    # rendering ------------------------------------------------------------------------------------
    def rule_markdown(self, r: Rule) -> str:
        """One rule as Markdown for a reader at the terminal (`cardkit rules GAME`): the rule as played, the
        discussion, the quotations signed with the source's own name, the readings side by side, and the
        command-line switch on one line of its own."""
        depth = 2 + r.id.count(".")
        out = [f"{'#' * depth} {r.id} {r.title}", "", f"*{KIND_TEXT[r.kind]}*", ""]
        played = self.as_played(r)
        if played:
            out += [f"**As played:** {played}", ""]
        out += [r.text.strip(), ""]
        for c in r.cite:
            out += _cite_md(c)
        if r.readings:
            out += ["| Reading | What it says | As played |", "|---|---|---|"]
            for rd in r.readings:
                mark = " **(default)**" if rd.value == r.default else ""
                srcs = "; ".join(f"{document(c.source).name}, §{c.section}" for c in rd.cite)
                out.append(f"| {rd.label}{mark} | {_one_line(rd.text)}{' (' + srcs + ')' if srcs else ''} "
                           f"| {_one_line(fill_options(' '.join(p for p in (r.played, rd.played) if p), self.values, self.options))} |")
            out.append("")
            if r.default_reason:
                default = next((rd.label for rd in r.readings if rd.value == r.default), "")
                out += [f"**Default{': ' + default if default else ''}.** {r.default_reason.strip()}", ""]
            if r.option:
                out += ["*At the command line:* " + ", ".join(
                    f"`-o {r.option}={rd.value}` ({rd.label})" for rd in r.readings) + ".", ""]
        if r.table and r.table in self.tables:
            out += [self.tables[r.table].markdown(), ""]
        return "\n".join(out)

    def to_markdown(self) -> str:
        out = [f"# {self.title} — rulebook", "", self.intro.strip(), "",
               "Sources: " + ", ".join(document(s).name for s in self.sources) + ".", ""]
        out += [self.rule_markdown(r) for r in self.rules]
        if self.notation.strip():
            out += ["## Notation", "", self.notation.strip(), ""]
        return "\n".join(out)

    def href(self, rule_id: str) -> str | None:
        """The link to one of this book's rules on the game's own page (its section's id), else None."""
        return f"#{rule_id}" if rule_id in self._ids() else None

    def _ids(self) -> frozenset:
        if getattr(self, "_id_set", None) is None:
            self._id_set = frozenset(self.ids())
        return self._id_set

    def switch_text(self, r: Rule) -> str:
        """The switch of a conflict or gap in plain words (the option's help text), never its code name."""
        opt = self.options.get(r.option)
        text = (opt.help if opt is not None and opt.help else "").strip()
        return text[:1].upper() + text[1:] if text else ""

    def rule_html(self, r: Rule, heading: bool = True, href=None, table: bool = True) -> str:
        """One rule as HTML for a page: plain words only (no option names or code), rule IDs as links
        (`href(rule_id)`, by default to the rule's section on the game's page), citations as links to
        the passage on the sources page."""
        e = html.escape
        href = href or self.href

        def link(s: str) -> str:
            return link_rule_ids(s, href)

        depth = min(6, 2 + r.id.count("."))
        parts = [f"<section class='ck-rule ck-{r.kind.replace(' ', '-')}' id='{e(r.id)}'>"]
        if heading:
            parts.append(f"<h{depth}>{e(r.id)} {e(r.title)}</h{depth}>")
        parts.append(f"<p class='ck-kind'><em>{e(KIND_TEXT[r.kind])}</em></p>")
        played = self.as_played(r)
        if played:
            what = "As played by default" if r.readings and self.values.get(r.option, r.default) == r.default \
                else "As played"
            parts.append(f"<p class='ck-as-played' style='border-left:4px solid #2e7d32;background:#f1f8f1;"
                         f"padding:4px 10px;margin:.4em 0'><strong>{what}:</strong> {_inline(e(played))}</p>")
        parts.append(link(md_html(r.text)))
        for c in r.cite:
            parts.append(_cite_html(c))
        if r.readings:
            cells = []
            for rd in r.readings:
                star = " <strong>(default)</strong>" if rd.value == r.default else ""
                cites = "".join(_cite_html(c) for c in rd.cite)
                cells.append(f"<div class='ck-reading' style='flex:1 1 0;min-width:16em;border:1px solid #ccc;"
                             f"border-radius:6px;padding:0 .8em'><h4>{e(rd.label)}{star}</h4>"
                             f"{link(md_html(rd.text))}{cites}</div>")
            switch = self.switch_text(r)
            if switch:
                parts.append(f"<p class='ck-switch'><small>To play another reading: the play table's "
                             f"<b>Options…</b>, “{link(e(switch))}”.</small></p>")
            parts.append(f"<div class='ck-readings' style='display:flex;gap:1em;flex-wrap:wrap'>{''.join(cells)}</div>")
            if r.default_reason:
                default = next((rd.label for rd in r.readings if rd.value == r.default), "")
                parts.append(f"<p><strong>Default{': ' + e(default) if default else ''}.</strong> "
                             f"{link(_inline(e(' '.join(r.default_reason.split()))))}</p>")
        if table and r.table and r.table in self.tables:
            parts.append(scroll_x(self.tables[r.table].html(href=href), self.tables[r.table].caption or r.title))
        parts.append("</section>")
        return "\n".join(parts)

    def to_html(self) -> str:
        notation = (f"<div class='ck-notation' id='notation'><h2>Notation</h2>"
                    f"{link_rule_ids(md_html(self.notation), self.href)}</div>" if self.notation.strip() else "")
        return (f"<article class='ck-rulebook'><h1>{html.escape(self.title)} — rulebook</h1>"
                f"{link_rule_ids(md_html(self.intro), self.href)}"
                + "".join(self.rule_html(r) for r in self.rules) + notation + "</article>")


def option_words(value, spec=None) -> str:
    """An option's value as a card says it: a number as it is, a choice by its label."""
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, int):
        return str(value)
    return spec.label(value) if spec is not None else str(value)


def fill_options(text: str, values: dict, specs: dict | None = None) -> str:
    """`{name}` in a rule-as-played statement: the value in force of the game's option `name`, in words."""
    def sub(m):
        name = m.group(1)
        if name not in values:
            raise CardkitError(f"a rule's statement names {{{name}}}, which is no option of the game")
        return option_words(values[name], (specs or {}).get(name))
    return re.sub(r"\{(\w+)\}", sub, text)


def _one_line(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def _cite_md(c: Citation) -> list[str]:
    out = [f"> „{_one_line(c.original)}“  "] if c.original else []
    if c.english:
        out.append(f"> *{_one_line(c.english)}*  ")
    out += [f"> — {document(c.source).name}, §{c.section}", ""]
    return out


def _cite_html(c: Citation) -> str:
    """A citation: the original words, the translation, and a link that opens the passage in the
    source, named as a reader knows the document (never its file name: that is for the developers'
    Markdown)."""
    e = html.escape
    doc = document(c.source)
    opening, closing = ("„", "“") if c.lang == "de" else ("“", "”")
    orig = f"<span lang='{e(c.lang)}'>{opening}{e(c.original)}{closing}</span><br>" if c.original else ""
    eng = f"<em lang='en'>{e(c.english)}</em><br>" if c.english else ""
    what = "read it in the source" if c.original else "open the source"
    return (f"<blockquote class='ck-cite'>{orig}{eng}<small>— <a href='{e(cite_href(c))}' target='_blank' rel='noopener' "
            f"title='{what}'>{e(doc.name)}, §{e(c.section)}</a></small></blockquote>")


RULE_ID = re.compile(r"(?<![\w#.-])([A-Z][A-Z0-9]*-\d+(?:\.\d+)*)(?![\w-])")


def scroll_x(table_html: str, label: str) -> str:
    """A table in a box of its own that scrolls sideways where the screen is narrower (a phone). The box can take
    the keyboard's focus, so that it can be scrolled without a mouse, and is named by `label` (plain words, the
    table's caption), so that a screen reader says what it holds."""
    return (f"<div class='ck-scroll-x' tabindex='0' role='region' aria-label='{html.escape(label, quote=True)}'>"
            f"{table_html}</div>")


def link_rule_ids(escaped: str, href) -> str:
    """Turn every rule ID in an escaped HTML string ("[M7-1.1]", "rule S7-2.3") into a link,
    ``<a href='…'>M7-1.1</a>``, where `href(rule_id)` gives one (None: left as text). Tags, attribute
    values and the text of existing links are left alone."""
    out, in_link = [], 0
    for piece in re.split(r"(<[^>]*>)", escaped):
        if piece.startswith("<"):
            low = piece[:3].lower()
            if low.startswith("<a ") or low == "<a>":
                in_link += 1
            elif piece.lower().startswith("</a"):
                in_link = max(0, in_link - 1)
            out.append(piece)
        elif in_link or not piece:
            out.append(piece)
        else:
            def sub(m):
                url = href(m.group(1))
                return f"<a class='ck-rule-link' href='{html.escape(url)}'>{m.group(1)}</a>" if url else m.group(1)
            out.append(RULE_ID.sub(sub, piece))
    return "".join(out)


def md_html(text: str) -> str:
    """The little Markdown rule texts use: paragraphs, `- ` lists, **bold**, *italic*, `code`."""
    e = html.escape
    out = []
    for block in re.split(r"\n\s*\n", text.strip()):
        lines = block.strip().splitlines()
        if lines and lines[0].lstrip().startswith("- "):
            items: list[str] = []       # a line not starting with "- " continues the item above it
            for ln in lines:
                s = ln.strip()
                if s.startswith("- "):
                    items.append(s[2:])
                else:
                    items[-1] += " " + s
            out.append("<ul>" + "".join(f"<li>{_inline(e(it))}</li>" for it in items) + "</ul>")
        elif lines:
            out.append(f"<p>{_inline(e(' '.join(ln.strip() for ln in lines)))}</p>")
    return "".join(out)


def _inline(s: str) -> str:
    s = re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", s)
    s = re.sub(r"\*(.+?)\*", r"<em>\1</em>", s)
    return re.sub(r"`(.+?)`", r"<code>\1</code>", s)


def _cites(items) -> list[Citation]:
    return [Citation(**c) for c in items or []]


def parse_rulebook(text: str, game_name: str, data: dict | None = None) -> Rulebook:
    data = tomllib.loads(text) if data is None else data
    rules = []
    for d in data.get("rule", []):
        d = dict(d)
        try:
            rd = [Reading(x["value"], x["label"], x.get("text", ""), _cites(x.get("cite")), " ".join(x.get("played", "").split()))
                  for x in d.pop("reading", [])]
            d["played"] = " ".join(d.get("played", "").split())
            rule = Rule(readings=rd, cite=_cites(d.pop("cite", [])), **d)
        except (TypeError, KeyError) as e:
            raise CardkitError(f"{game_name} rulebook: bad rule {d.get('id')!r}: {e}") from None
        if rule.kind not in KINDS:
            raise CardkitError(f"{game_name} rulebook: rule {rule.id} has kind {rule.kind!r}; kinds: {', '.join(KINDS)}")
        rules.append(rule)
    return Rulebook(game_name, data.get("title", game_name), data.get("intro", ""), data.get("sources", []), rules,
                    notation=data.get("notation", ""))


_CACHE: dict = {}
_TOML: dict = {}


def load_rulebook(game_name: str, game=None) -> Rulebook:
    """The rulebook of a game, with the tables its engine generates filled in."""
    key = (game_name, tuple(sorted(game.options.items())) if game else ())
    if key not in _CACHE:
        if game_name not in _TOML:   # the file read and parsed once; each options key builds its own book
            path = resources.files("cardkit") / "rules" / f"{game_name}.toml"
            _TOML[game_name] = tomllib.loads(path.read_text(encoding="utf-8"))
        book = parse_rulebook("", game_name, _TOML[game_name])
        if game is not None:
            book.tables = game.rule_tables()
            book.options = {o.name: o for o in game.option_specs}
            book.values = dict(game.options)
        _CACHE[key] = book
    return _CACHE[key]
