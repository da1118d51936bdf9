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

The rulebook renders to Markdown and HTML from the same data.
"""
from __future__ import annotations

import html
import re
import tomllib
from dataclasses import dataclass, field
from importlib import resources

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

    def short(self) -> str:
        return f"{self.source[:3]} §{self.section}"


@dataclass
class Reading:
    value: object
    label: str
    text: str
    cite: list[Citation] = field(default_factory=list)


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

    def html(self) -> str:
        e = html.escape
        cap = f"<caption>{e(self.caption)}</caption>" if self.caption else ""
        head = "".join(f"<th scope='col'>{e(h)}</th>" for h in self.headers)
        body = "".join("<tr>" + "".join((f"<th scope='row'>{e(str(c))}</th>" if i == 0 else f"<td>{e(str(c))}</td>")
                                        for i, c in enumerate(r)) + "</tr>" for r in self.rows)
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

    def rule(self, rule_id: str) -> Rule:
        for r in self.rules:
            if r.id == rule_id:
                return r
        raise CardkitError(f"{self.game} has no rule {rule_id!r}; rules: {', '.join(r.id for r in self.rules)}")

    def ids(self) -> list[str]:
        return [r.id for r in self.rules]

    def children(self, rule_id: str) -> list[Rule]:
        return [r for r in self.rules if r.parent == rule_id]

    def sections(self) -> list[Rule]:
        return [r for r in self.rules if r.parent is None]

    # rendering ------------------------------------------------------------------------------------
    def rule_markdown(self, r: Rule) -> str:
        depth = 2 + r.id.count(".")
        out = [f"{'#' * depth} {r.id} {r.title}", "", f"*{KIND_TEXT[r.kind]}*", "", r.text.strip(), ""]
        for c in r.cite:
            out += _cite_md(c)
        if r.readings:
            out += ["| Reading | Option value | What it says |", "|---|---|---|"]
            for rd in r.readings:
                mark = " **(default)**" if rd.value == r.default else ""
                srcs = "; ".join(c.short() for c in rd.cite)
                out.append(f"| {rd.label}{mark} | `{r.option}={rd.value!r}` | {_one_line(rd.text)}"
                           f"{' (' + srcs + ')' if srcs else ''} |")
            out.append("")
            if r.default_reason:
                out += [f"**Default** `{r.option}={r.default!r}`: {r.default_reason.strip()}", ""]
        if r.table and r.table in self.tables:
            out += [self.tables[r.table].markdown(), ""]
        return "\n".join(out)

    def to_markdown(self) -> str:
        out = [f"# {self.title} — rulebook", "", self.intro.strip(), "",
               "Sources: " + ", ".join(f"`{s}`" for s in self.sources), ""]
        out += [self.rule_markdown(r) for r in self.rules]
        return "\n".join(out)

    def rule_html(self, r: Rule, heading: bool = True) -> str:
        e = html.escape
        depth = min(6, 2 + r.id.count("."))
        parts = [f"<section class='ck-rule ck-{r.kind.replace(' ', '-')}' id='{e(r.id)}'>"]
        if heading:
            parts.append(f"<h{depth}>{e(r.id)} {e(r.title)}</h{depth}>")
        parts.append(f"<p class='ck-kind'><em>{e(KIND_TEXT[r.kind])}</em></p>")
        parts.append(md_html(r.text))
        for c in r.cite:
            parts.append(_cite_html(c))
        if r.readings:
            cells = []
            for rd in r.readings:
                star = " <strong>(default)</strong>" if rd.value == r.default else ""
                cites = "".join(_cite_html(c) for c in rd.cite)
                cells.append(f"<div class='ck-reading' style='flex:1 1 0;min-width:16em;border:1px solid #ccc;border-radius:6px;padding:0 .8em'><h4>{e(rd.label)}{star}</h4><p><code>{e(r.option)}="
                             f"{e(repr(rd.value))}</code></p>{md_html(rd.text)}{cites}</div>")
            parts.append(f"<div class='ck-readings' style='display:flex;gap:1em;flex-wrap:wrap'>{''.join(cells)}</div>")
            if r.default_reason:
                parts.append(f"<p><strong>Default</strong> <code>{e(r.option)}={e(repr(r.default))}</code>: "
                             f"{_inline(e(' '.join(r.default_reason.split())))}</p>")
        if r.table and r.table in self.tables:
            parts.append(self.tables[r.table].html())
        parts.append("</section>")
        return "\n".join(parts)

    def to_html(self) -> str:
        return (f"<article class='ck-rulebook'><h1>{html.escape(self.title)} — rulebook</h1>{md_html(self.intro)}"
                + "".join(self.rule_html(r) for r in self.rules) + "</article>")


def _one_line(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def _cite_md(c: Citation) -> list[str]:
    out = [f"> „{_one_line(c.original)}“  "] if c.original else []
    if c.english:
        out.append(f"> *{_one_line(c.english)}*  ")
    out += [f"> — `{c.source}`, §{c.section}", ""]
    return out


def _cite_html(c: Citation) -> str:
    e = html.escape
    orig = f"<span lang='de'>„{e(c.original)}“</span><br>" if c.original else ""
    eng = f"<em lang='en'>{e(c.english)}</em><br>" if c.english else ""
    return f"<blockquote class='ck-cite'>{orig}{eng}<small>— <code>{e(c.source)}</code>, §{e(c.section)}</small></blockquote>"


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


def parse_rulebook(text: str, game_name: str) -> Rulebook:
    data = tomllib.loads(text)
    rules = []
    for d in data.get("rule", []):
        d = dict(d)
        try:
            rd = [Reading(x["value"], x["label"], x.get("text", ""), _cites(x.get("cite"))) for x in d.pop("reading", [])]
            rule = Rule(readings=rd, cite=_cites(d.pop("cite", [])), **d)
        except (TypeError, KeyError) as e:
            raise CardkitError(f"{game_name} rulebook: bad rule {d.get('id')!r}: {e}") from None
        if rule.kind not in KINDS:
            raise CardkitError(f"{game_name} rulebook: rule {rule.id} has kind {rule.kind!r}; kinds: {', '.join(KINDS)}")
        rules.append(rule)
    return Rulebook(game_name, data.get("title", game_name), data.get("intro", ""), data.get("sources", []), rules)


_CACHE: dict = {}


def load_rulebook(game_name: str, game=None) -> Rulebook:
    """The rulebook of a game, with the tables its engine generates filled in."""
    key = (game_name, tuple(sorted(game.options.items())) if game else ())
    if key not in _CACHE:
        path = resources.files("cardkit") / "rules" / f"{game_name}.toml"
        book = parse_rulebook(path.read_text(encoding="utf-8"), game_name)
        if game is not None:
            book.tables = game.rule_tables()
        _CACHE[key] = book
    return _CACHE[key]


def source_text(filename: str) -> str:
    """The text of one of the source rule texts shipped with the kit."""
    path = resources.files("cardkit") / "sources" / filename
    if not path.is_file():
        raise CardkitError(f"no source {filename!r}")
    return path.read_text(encoding="utf-8")
