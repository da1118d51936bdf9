"""Every game's rulebook (cardkit/rules/<game>.toml), checked generically for every game in cardkit.GAMES:
it loads; IDs are unique and well formed; kinds are valid; every quotation really occurs in the source it
cites; every conflict or gap with readings has an option of the engine that switches exactly those
readings, with the same default; every option names a rule; every rule has a test; examples exist and
replay; the rulebook renders; and the IDs of the rules brief are all there.
"""
from __future__ import annotations

import importlib

import re
from html.parser import HTMLParser
from importlib import resources
from pathlib import Path

import pytest

import cardkit
from cardkit.record import example_names, load_example
from cardkit.documents import source_text
from cardkit.rules import KINDS

GAMES = sorted(cardkit.GAMES)
TESTS = Path(__file__).resolve().parent
SOURCES = sorted(p.name for p in (resources.files("cardkit") / "sources").iterdir() if p.name.endswith(".txt"))

# The top-level IDs of /work/shared/rules-brief.md, by prefix (a copy, so the check runs without shared/).
BRIEF_IDS = {
    "M7": [f"M7-{i}" for i in range(1, 10)],
    "V24": [f"V24-{i}" for i in range(1, 10)],
    "S7": [f"S7-{i}" for i in range(1, 9)],
    "VU": [f"VU-{i}" for i in range(1, 5)],
    "FA": [f"FA-{i}" for i in range(1, 5)],
    "BA": [f"BA-{i}" for i in range(1, 5)],
    "EC": [f"EC-{i}" for i in range(1, 5)],
    "WH": [f"WH-{i}" for i in range(1, 6)],
}
BRIEF = TESTS.parent / "docs" / "rules-brief.md"   # the project's copy of ../shared/rules-brief.md
ID_RE = re.compile(r"^[A-Z][A-Z0-9]*-\d+(\.\d+)*$")


def norm(text: str) -> str:
    return " ".join(text.split())


def book(name):
    return cardkit.load_game(name).rulebook


def game(name):
    return cardkit.load_game(name)


def all_citations(rule):
    yield from ((c, True) for c in rule.cite)
    for rd in rule.readings:
        yield from ((c, False) for c in rd.cite)


def prefix(name):
    return book(name).ids()[0].split("-")[0]


# --- loading and IDs ---------------------------------------------------------------------------------
@pytest.mark.parametrize("name", GAMES)
def test_rulebook_loads(name):
    b = book(name)
    assert b.title.strip() and b.intro.strip() and b.rules
    assert b.sources and set(b.sources) <= set(SOURCES), b.sources
    for r in b.rules:
        assert r.title.strip(), r.id
        assert r.text.strip(), r.id


@pytest.mark.parametrize("name", GAMES)
def test_ids_unique_and_well_formed(name):
    ids = book(name).ids()
    dup = {i for i in ids if ids.count(i) > 1}
    assert not dup, f"duplicate rule IDs: {sorted(dup)}"
    for i in ids:
        assert ID_RE.match(i), f"malformed rule ID {i!r}"
        if "." in i:
            assert i.rsplit(".", 1)[0] in ids, f"{i} has no parent rule"
    assert len({i.split("-")[0] for i in ids}) == 1, "one ID prefix per game"


@pytest.mark.parametrize("name", GAMES)
def test_kinds_valid(name):
    for r in book(name).rules:
        assert r.kind in KINDS, f"{r.id}: kind {r.kind!r}"


# --- quotations ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", GAMES)
def test_citations_quote_their_sources(name):
    """Every `original` occurs verbatim (up to whitespace) in the file it cites: no invented quotes."""
    b = book(name)
    texts = {s: norm(source_text(s)) for s in SOURCES}
    bad = []
    for r in b.rules:
        for c, rule_level in all_citations(r):
            assert c.source in SOURCES, f"{r.id}: unknown source {c.source!r}"
            assert c.section.strip(), f"{r.id}: citation of {c.source} without a section"
            if rule_level:
                assert c.original.strip() and c.english.strip(), f"{r.id}: a citation needs the original and a translation"
            if c.original and norm(c.original) not in texts[c.source]:
                bad.append(f"{r.id} [{c.source} §{c.section}]: {c.original[:70]!r}")
    assert not bad, "quotations not found verbatim in their source:\n" + "\n".join(bad)


@pytest.mark.parametrize("name", GAMES)
def test_cited_sources_are_listed(name):
    b = book(name)
    cited = {c.source for r in b.rules for c, _ in all_citations(r)}
    assert cited <= set(b.sources), f"cited but not in `sources`: {sorted(cited - set(b.sources))}"


# --- readings and options --------------------------------------------------------------------------
@pytest.mark.parametrize("name", GAMES)
def test_readings_have_a_matching_option(name):
    b, g = book(name), game(name)
    specs = {o.name: o for o in g.option_specs}
    for r in b.rules:
        if len(r.readings) >= 2 or r.kind in ("conflict", "gap") and r.readings:
            assert r.option, f"{r.id} has readings but no option"
            assert r.option in specs, f"{r.id}: option {r.option!r} is not an option of the engine"
            o = specs[r.option]
            assert o.rule == r.id, f"{r.id}: option {o.name} switches rule {o.rule!r}, not {r.id}"
            values = [rd.value for rd in r.readings]
            assert len(values) == len(set(values)), f"{r.id}: duplicate reading values"
            assert set(values) == set(o.choices), f"{r.id}: readings {values} vs option choices {o.choices}"
            assert all(type(v) is type(o.default) for v in values), f"{r.id}: reading value types"
            assert r.default == o.default and type(r.default) is type(o.default), \
                f"{r.id}: rulebook default {r.default!r}, engine default {o.default!r}"
            assert r.default_reason.strip(), f"{r.id}: the default needs a reason"
            for rd in r.readings:
                assert rd.label.strip() and rd.text.strip(), f"{r.id}: reading {rd.value!r} needs a label and text"
        if r.option:   # a rule that names an option (with or without readings) agrees with it
            assert r.option in specs, f"{r.id}: option {r.option!r} is not an option of the engine"
            assert r.default == specs[r.option].default, f"{r.id}: default differs from the engine's"


@pytest.mark.parametrize("name", GAMES)
def test_every_option_names_a_rule(name):
    ids = set(book(name).ids())
    for o in game(name).option_specs:
        assert o.rule in ids, f"option {o.name} names rule {o.rule!r}, which the rulebook lacks"


@pytest.mark.parametrize("name", GAMES)
def test_house_rules_are_off_by_default(name):
    specs = {o.name: o for o in game(name).option_specs}
    for r in book(name).rules:
        if r.kind == "house rule":
            assert r.option, f"{r.id}: a house rule needs an option to switch it on"
            assert specs[r.option].default in (False, "off"), f"{r.id}: a house rule must be off by default"


# --- tests and examples ----------------------------------------------------------------------------
@pytest.mark.parametrize("name", GAMES)
def test_every_rule_has_a_test(name):
    path = TESTS / f"test_{name}.py"
    assert path.is_file(), f"missing {path.name}"
    text = path.read_text(encoding="utf-8")
    missing = [i for i in book(name).ids()
               if not re.search(r"(?<![\w.-])" + re.escape(i) + r"(?!\.?\d)", text)]
    assert not missing, f"rule IDs not mentioned in {path.name}: {missing}"


# the games whose test module marks each test with the rules it checks (`rule_marks.covers`)
MARKED = [n for n in GAMES if "rule_marker()" in (TESTS / f"test_{n}.py").read_text(encoding="utf-8")]


@pytest.mark.parametrize("name", MARKED)
def test_the_marked_tests_cover_exactly_the_rulebook(name):
    """Every rule ID has a test marked with it, and no marked test names a rule the rulebook lacks."""
    covered = importlib.import_module(f"test_{name}").COVERED
    ids = set(book(name).ids())
    assert ids - covered == set(), f"rules without a test: {sorted(ids - covered)}"
    assert covered - ids == set(), f"tests cite unknown rules: {sorted(covered - ids)}"


@pytest.mark.parametrize("name", GAMES)
def test_examples_exist_and_replay(name):
    b = book(name)
    names = example_names(name)
    for r in b.rules:
        if r.example:
            assert r.example in names, f"{r.id}: example {r.example!r} does not exist; examples: {names}"
    for ex in names:
        rec = load_example(name, ex)
        assert rec.game == name
        assert rec.meta.get("title") and rec.meta.get("description"), ex
        if rec.meta.get("rule"):
            b.rule(rec.meta["rule"])
        rec.final_state()   # replays without error


# --- rendering -------------------------------------------------------------------------------------
class _Balance(HTMLParser):
    VOID = {"br", "hr", "img", "meta", "link", "input", "col", "wbr"}

    def __init__(self):
        super().__init__()
        self.stack, self.errors = [], []

    def handle_starttag(self, tag, attrs):
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes {self.stack[-1:] or 'nothing'}")
        else:
            self.stack.pop()


@pytest.mark.parametrize("name", GAMES)
def test_rulebook_renders(name):
    b, g = book(name), game(name)
    md, html = b.to_markdown(), b.to_html()
    for i in b.ids():
        assert re.search(r"^#+ " + re.escape(i) + " ", md, re.M), f"{i} has no Markdown heading"
        assert f"id='{i}'" in html, f"{i} has no HTML section"
    for r in b.rules:
        if r.table:
            assert r.table in g.rule_tables(), f"{r.id}: table {r.table!r} is not generated by the engine"
            assert g.rule_tables()[r.table].markdown() in md
    assert html.count("<section") == len(b.rules)
    p = _Balance()
    p.feed(html)
    assert not p.errors and not p.stack, (p.errors, p.stack)
    # no Markdown left raw in the HTML, no line that Markdown would read as a stray list item
    assert "**" not in html
    text_only = re.sub(r"<code>.*?</code>", "", html)
    assert not re.search(r"(?<![\w*])\*[^*\s][^*<]*\*(?![\w*])", text_only), "raw *Markdown* left in the HTML"
    for r in b.rules:
        for line in r.text.splitlines():
            assert not re.match(r"\s*[+*] ", line), f"{r.id}: a text line starts like a list item: {line!r}"


# --- the brief ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", GAMES)
def test_brief_ids_present(name):
    ids = set(book(name).ids())
    want = BRIEF_IDS.get(prefix(name))
    assert want, f"no brief IDs known for prefix {prefix(name)!r}"
    missing = [i for i in want if i not in ids]
    assert not missing, f"brief IDs missing from the rulebook: {missing}"


def test_brief_ids_match_the_brief_file():
    found: dict[str, list[str]] = {}
    for m in re.finditer(r"^- ([A-Z][A-Z0-9]*)-(\d+) ", BRIEF.read_text(encoding="utf-8"), re.M):
        found.setdefault(m.group(1), []).append(f"{m.group(1)}-{m.group(2)}")
    assert found == BRIEF_IDS


# --- plain words on every rule card ----------------------------------------------------------------------
# what a player does not need on a rule card: code and record notation (the rulebook's `notation` holds that,
# in one place), and words about the kit's machinery rather than the game
NOT_PLAIN = re.compile(r"`|\bdeal: (…|the 52|[0-9AKQJ]{1,2}[SHDC]\b)|\bstacked\b|\bstacking\b|\bthe kit's stack\b|"
                       r"chance action|generated (from|by) the|\bengine\b|a test checks|give back card \d|"
                       r"discard \d|\bin records\b", re.I)


def _card_texts(b, g):
    """Every text of a rulebook a page shows: the rules, their readings and reasons, the tables' words."""
    for r in b.rules:
        yield r.id, r.title
        yield r.id, r.text
        yield r.id, r.default_reason
        for rd in r.readings:
            yield r.id, rd.label
            yield r.id, rd.text
    tables = g.rule_tables()
    for name in list(tables):
        t = tables[name]
        yield name, t.caption
        yield name, " ".join(t.headers)
        yield name, " ".join(str(c) for row in t.rows for c in row)


@pytest.mark.parametrize("name", GAMES)
def test_rule_cards_speak_plain_words_and_the_notation_has_one_place(name):
    b, g = book(name), game(name)
    bad = [(where, m.group(0)) for where, text in _card_texts(b, g) for m in [NOT_PLAIN.search(text or "")] if m]
    assert not bad, bad
    assert b.notation.strip(), "the rulebook's notation: how records write the cards and moves"
    assert "## Notation" in b.to_markdown() and "id='notation'" in b.to_html()
    assert "Notation" not in "".join(b.rule_html(r) for r in b.rules)        # not on the rule cards


def test_the_plain_words_check_catches_notation():
    for text in ("`deal: … 9C`", "a stacked deal", "the kit's `stack`", "a chance action", "generated from the engine",
                 "A test checks the arithmetic.", "give back card 2", "In records the cards are written"):
        assert NOT_PLAIN.search(text), text
    assert not NOT_PLAIN.search("a deal set up by hand for this example; the table below is worked out by the kit")
    assert not NOT_PLAIN.search("The deal: two cards each, and *Stoß* (stack) for the stock")
