"""The source documents as a reader knows them, and their texts as HTML with every cited passage marked.

Each of the five scanned texts (``cardkit/sources/``) has a name a reader knows it by ("the review in
WIN", "the Piatnik rule sheet", …). ``sources_html()`` renders the texts as static HTML, each cited
passage wrapped in ``<mark class='ck-cited' id='…'>``; ``cite_href(citation)`` is the link to it (the
page ``sources.ipynb`` shows them, and ``:target`` CSS highlights the passage a link opened).
"""
from __future__ import annotations

import functools
import hashlib
import html
import os
import re
import sys
from dataclasses import dataclass
from importlib import resources

from .errors import CardkitError
from .games import GAMES, game_class, load_game

# The site's pages are notebooks: Voilà serves `sieben.ipynb`, the static site (`cardkit build-static`, Python
# running in the visitor's browser) the same page as `sieben.html`. Every link the kit builds to another page
# goes through `page_url`, so it names the page as the site that shows it serves it.
STATIC_SITE = sys.platform == "emscripten" or os.environ.get("CARDKIT_STATIC_SITE") == "1"
PAGE_SUFFIX = ".html" if STATIC_SITE else ".ipynb"


def source_text(filename: str) -> str:
    """The text of one of the source rule texts shipped with the kit."""
    path = resources.files("cardkit") / "sources" / filename
    if not path.is_file():
        raise CardkitError(f"no source {filename!r}")
    return path.read_text(encoding="utf-8")


def page_url(name: str, fragment: str = "") -> str:
    """The link to a page of the site (`name`: the notebook's name without its suffix), at `#fragment`."""
    return name + PAGE_SUFFIX + (f"#{fragment}" if fragment else "")


SOURCES_PAGE = page_url("sources")


@dataclass(frozen=True)
class Document:
    file: str
    name: str          # as a reader knows it, lower case: "the review in WIN"
    title: str         # a heading: "Review of Die Magische 7 in WIN (1990)"
    about: str         # one sentence: what it is and what it holds
    games: str
    language: str = "German"

    @property
    def anchor(self) -> str:
        return "src-" + self.file[:3]


DOCUMENTS = (
    Document("000_b9b7216f26f02401.txt", "the review in WIN",
             "Review of “Die magische 7” in WIN, the Austrian games magazine",
             "A review that restates the rules in numbered sections 1–4 (material, principle, the 2-player "
             "and the 4-player game) and then criticises them: the Spiegel's scoring, a proposed Joker "
             "scoring, the 4-player variant, “2 oder 4” against “2 bis 4” players.", "Die Magische 7"),
    Document("002_e31069c0e446a0ab.txt", "the Piatnik rule sheet",
             "The publisher's rule sheet of “Die Magische 7” (Piatnik No. 6126, 1990)",
             "The rules printed by the publisher. The scan is out of order: it begins with the end of the "
             "4-player rules, then gives the contents, the aim, the 2-player game, the three special cards "
             "and the start of the 4-player rules.", "Die Magische 7"),
    Document("003_7a326f09adec321d.txt", "the Sieben article",
             "“Kartenspiele für zwei: Sieben”, an article by Dirk Aschoff (2020)",
             "An article on Sieben (Sedma, Sedmice): the cards, the deal, the trick, a worked example "
             "(Anna and Bert), scoring, four variations and a few words on 3 and 4 players.", "Sieben"),
    Document("001_6ba7d51f03e10d4c.txt", "the rules of 24",
             "“24 ist am besten!”, the rules of the card game 24",
             "The rules of a trick-taking game with 45 cards and a score pad; several passages are garbled.",
             "24"),
    Document("004_6e0a5f18523fa2ed.txt", "the 7th Sea quick rules",
             "“7th Sea: Kurzanleitung für Gesellschaftsspiele”, quick rules for parlour games",
             "Short rules from a role-playing supplement: Vingt-et-un, Faro, Bakkarat, Écarté, and Whist "
             "in English. Several rules are only sketched.",
             "Vingt-et-un, Faro, Bakkarat, Écarté, Whist", "German and English"),
)
_BY_FILE = {d.file: d for d in DOCUMENTS}


def document(file: str) -> Document:
    """The document of a source file (a file the kit does not know gets its file name as its name)."""
    return _BY_FILE.get(file) or Document(file, file, file, "", "")


def _norm(text: str) -> str:
    return " ".join(text.split())


def passage_id(file: str, original: str) -> str:
    """The id of a cited passage on the sources page: the same words in the same file, the same id."""
    return f"src-{file[:3]}-{hashlib.sha1(_norm(original).encode()).hexdigest()[:8]}"


def cite_href(citation, page: str = SOURCES_PAGE) -> str:
    """The link that opens a citation's passage (or, for a citation without words, its document)."""
    anchor = passage_id(citation.source, citation.original) if citation.original else document(citation.source).anchor
    return f"{page}#{anchor}"


@functools.lru_cache(maxsize=16)
def _flat(text: str) -> tuple[str, tuple[int, ...]]:
    """`text` with each run of whitespace as one space (none at the start), and where each of its characters
    stands in `text`: made once per source text, not once per passage looked for."""
    starts, chars = [], []
    prev_space = True
    for i, ch in enumerate(text):
        if ch.isspace():
            if not prev_space:
                starts.append(i)
                chars.append(" ")
            prev_space = True
        else:
            starts.append(i)
            chars.append(ch)
            prev_space = False
    return "".join(chars), tuple(starts)


def _find(text: str, original: str) -> tuple[int, int] | None:
    """(start, end) in `text` of `original`, matched up to whitespace."""
    flat, starts = _flat(text)
    want = _norm(original)
    k = flat.find(want)
    if k < 0:
        return None
    end = starts[k + len(want) - 1] + 1
    return starts[k], end


def cited_passages(file: str) -> dict[str, tuple[int, int]]:
    """Every passage of `file` that a registered game's rulebook quotes: id → (start, end)."""
    text = source_text(file)
    out: dict[str, tuple[int, int]] = {}
    for name in GAMES:
        book = load_game(name).rulebook
        for r in book.rules:
            for c in [*r.cite, *(c for rd in r.readings for c in rd.cite)]:
                if c.source == file and c.original:
                    pid = passage_id(file, c.original)
                    if pid not in out:
                        span = _find(text, c.original)
                        if span:
                            out[pid] = span
    return out


def _marked(text: str, spans: dict[str, tuple[int, int]]) -> str:
    """The text escaped, each span wrapped in a mark with its id. Spans that cross each other (neither
    contains the other) are cut where they cross: the later one's first piece carries the id and the
    passage's class (``ck-p-<id>``) marks every piece, so CSS can light the whole passage."""
    order = sorted(spans.items(), key=lambda kv: (kv[1][0], -kv[1][1]))
    out: list[str] = []
    bounds = sorted({p for _, (s, e) in order for p in (s, e)} | {0, len(text)})
    opened: set[str] = set()
    for a, b in zip(bounds, bounds[1:]):
        inside = [pid for pid, (s, e) in order if s <= a and b <= e]
        # innermost last: sort by span length, longest first
        inside.sort(key=lambda pid: -(spans[pid][1] - spans[pid][0]))
        # runs of empty lines (the scans' page and paragraph gaps) read as one empty line
        piece = re.sub(r"\n[ \t\u00a0]*(?:\n[ \t\u00a0]*)+", "\n\n", html.escape(text[a:b]))
        for pid in reversed(inside):
            attr = f" id='{pid}'" if pid not in opened else ""
            opened.add(pid)
            piece = f"<mark class='ck-cited ck-p-{pid}'{attr}>{piece}</mark>"
        out.append(piece)
    return "".join(out)


def _game_links(games: str) -> str:
    """A document's games ("Vingt-et-un, Faro, …") as links to their pages."""
    pages = {game_class(g).title: g for g in GAMES}
    out = []
    for title in (t.strip() for t in games.split(",")):
        name = pages.get(title) or next((g for t, g in pages.items() if t.startswith(title)), None)
        out.append(f"<a href='{page_url(name)}'>{html.escape(title)}</a>" if name else html.escape(title))
    return ", ".join(out)


def sources_html(files=None) -> str:
    """The source texts as static HTML: a heading per document (the name a reader knows it by), what it
    is, and the text as scanned with every cited passage marked."""
    e = html.escape
    docs = [d for d in DOCUMENTS if files is None or d.file in files]
    css = []
    parts = ["<nav class='ck-toc'><ul>" + "".join(
        f"<li><a href='#{d.anchor}'>{e(d.name[0].upper() + d.name[1:])}</a> <small>({e(d.games)})</small></li>"
        for d in docs) + "</ul></nav>"]
    for d in docs:
        text = source_text(d.file)
        spans = cited_passages(d.file)
        css += [f"body:has(#{pid}:target) .ck-p-{pid}" for pid in spans]
        parts.append(
            f"<section class='ck-source' id='{d.anchor}' lang='{'de' if d.language == 'German' else 'mul'}'>"
            f"<h2>{e(d.name[0].upper() + d.name[1:])}</h2>"
            f"<p lang='en'><b>{e(d.title)}.</b> {e(d.about)} <i>Games: {_game_links(d.games)}.</i></p>"
            f"<div class='ck-source-text'>{_marked(text, spans)}</div></section>")
    style = ("<style>" + ",".join(css) + "{background:#ffd54f;outline:2px solid #e0a800}</style>") if css else ""
    return style + "".join(parts) + FRAGMENT_JS


# A page's outputs are rendered by script after the page has loaded, so the browser finds no element for
# the address's #fragment when it loads: once the page has rendered, go to the fragment again, which
# scrolls to the element and makes it the :target (what highlights a cited passage).
FRAGMENT_JS = """<script>
(() => {
  if (window.ckFragment) return;
  window.ckFragment = true;
  let id = location.hash.slice(1);
  try { id = decodeURIComponent(id); } catch (e) { /* a stray "%" in the address: the fragment as written */ }
  if (!id) return;
  let tries = 0;
  const go = () => {
    const el = document.getElementById(id);
    if (el && !document.getElementById("loading")) {
      location.replace("#" + location.hash.slice(1));
      requestAnimationFrame(() => el.scrollIntoView({block: el.tagName === "MARK" ? "center" : "start"}));
      return;
    }
    if (++tries < 600) setTimeout(go, 100);
  };
  go();
})();
</script>"""
