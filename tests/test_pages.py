"""The teaching pages, at widget level: plain words on every page (no code name), citations that open
their passage in the sources, rule IDs as links, conflict examples that tell the story of the reading in
force, one live "who wins" table with the cells a switch changes marked, and a quick start, contents and
glossary on every game page. The real-browser checks are in tests/test_teaching_pages.py."""
from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest

import cardkit
import widgets
from cardkit.documents import DOCUMENTS, _norm, cite_href, cited_passages, document, sources_html
from cardkit.rules import link_rule_ids
from widgets.index import RuleFinder, find_rules
from widgets.replay import narration_note, replay_states
from widgets.rules import compare_readings

GAMES = list(cardkit.GAMES)
NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"


def text_of(page_html: str) -> str:
    """What a reader sees: the tags removed, the entities decoded."""
    return html.unescape(re.sub(r"<[^>]+>", " ", page_html))


def code_names(page_html: str, game: str) -> list[str]:
    """Code that reached a page: a `name=value` pattern, an option's code name (any with an underscore
    anywhere; any option name inside <code>), `view(`, `stack(`, "error rule"."""
    specs = cardkit.game_class(game).option_specs
    seen = text_of(page_html)
    bad = re.findall(r"\b[a-z_][a-z0-9_]*\s*=\s*[\w'\"]", seen)
    bad += [o.name for o in specs if "_" in o.name and re.search(rf"\b{o.name}\b", seen)]
    codes = " ".join(re.findall(r"<code>(.*?)</code>", page_html))
    bad += [o.name for o in specs if re.search(rf"\b{o.name}\b", codes)]
    bad += [w for w in ("view(", "stack(", "error rule") if w in seen.lower()]
    return bad


def rule_cards(game: str):
    """Every rule a RuleCard compares: a reading per option value and an example."""
    book = cardkit.load_game(game).rulebook
    return [r for r in book.rules if r.readings and r.option and r.example]


# --- plain words -----------------------------------------------------------------------------------
@pytest.mark.parametrize("game", GAMES)
def test_no_code_name_reaches_a_rule_on_a_page(game):
    book = cardkit.load_game(game).rulebook
    bad = {r.id: code_names(book.rule_html(r), game) for r in book.rules}
    assert not {k: v for k, v in bad.items() if v}


@pytest.mark.parametrize("game", GAMES)
def test_no_code_name_reaches_an_example(game):
    bad = []
    for path in sorted((Path(cardkit.__file__).parent / "examples" / game).glob("*.json")):
        rec = cardkit.load_example(game, path.stem)
        texts = [rec.meta.get("title", ""), rec.meta.get("description", ""), *rec.meta.get("narration", {}).values()]
        texts += [line for e in rec.meta.get("narration_under", []) for line in e["narration"].values()]
        bad += [f"{path.stem}: {found}" for t in texts for found in code_names(html.escape(t), game)]
    assert not bad


@pytest.mark.parametrize("game", GAMES)
def test_no_code_name_reaches_a_rule_cards_comparison(game):
    book = cardkit.load_game(game).rulebook
    for rule in rule_cards(game):
        card = widgets.RuleCard(game, rule.id)
        assert not code_names(card.text, game), rule.id
        rec = cardkit.load_example(game, rule.example)
        for rd in rule.readings:
            assert not code_names(html.escape(narration_note(rec, **{rule.option: rd.value})), game)
    assert book.options, "the rulebook knows its game's options (their plain words)"


@pytest.mark.parametrize("name", ["index", "sources", *GAMES])
def test_no_code_name_in_a_notebooks_markdown(name):
    nb = json.loads((NOTEBOOKS / f"{name}.ipynb").read_text())
    prose = "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")
    for game in GAMES:
        assert not code_names(html.escape(text_of(prose)), game)


def test_the_checker_catches_code():
    assert code_names("<p>With joker_vs_spiegel='joker' …</p>", "magische7")
    assert code_names("<p>the option <code>players</code></p>", "magische7")
    assert code_names("<p>The teacher's view (view(None))</p>", "magische7")
    assert code_names("<p>illegal (error rule M7-0.3)</p>", "magische7")
    assert not code_names("<p>With 4 players, −6 + 13 = 7.</p>", "magische7")


def test_a_conflicts_switch_is_named_in_plain_words():
    book = cardkit.load_game("magische7").rulebook
    page = book.rule_html(book.rule("M7-2"))
    assert "Joker led, Spiegel follows: who wins" in page and "joker_vs_spiegel" not in page
    assert "<strong>Default: The Spiegel wins (sheet).</strong>" in page
    md = book.rule_markdown(book.rule("M7-2"))              # the terminal's Markdown: the switch on one line of its own
    assert "*At the command line:* `-o joker_vs_spiegel=spiegel` (The Spiegel wins (sheet))" in md
    assert md.count("joker_vs_spiegel") == 2 and "Option value" not in md


# --- the sources ------------------------------------------------------------------------------------
def test_every_document_has_a_readers_name():
    names = {d.file: d.name for d in DOCUMENTS}
    assert names["000_b9b7216f26f02401.txt"] == "the review in WIN"
    assert names["002_e31069c0e446a0ab.txt"] == "the Piatnik rule sheet"
    assert names["003_7a326f09adec321d.txt"] == "the Sieben article"
    assert len(set(names.values())) == 5 and all(n != f for f, n in names.items())


@pytest.mark.parametrize("game", GAMES)
def test_every_citation_links_to_its_marked_passage(game):
    book = cardkit.load_game(game).rulebook
    page = sources_html()
    for r in book.rules:
        for c in [*r.cite, *(c for rd in r.readings for c in rd.cite)]:
            href = cite_href(c)
            assert href.startswith("sources.ipynb#")
            anchor = href.split("#", 1)[1]
            assert f"id='{anchor}'" in page, (r.id, c.source, c.original[:40])
            if c.original:
                start, end = cited_passages(c.source)[anchor]
                from cardkit.documents import source_text
                assert _norm(source_text(c.source)[start:end]) == _norm(c.original)
        rendered = book.rule_html(r)
        for c in r.cite:
            assert f"href='{cite_href(c)}'" in rendered and document(c.source).name in rendered
            assert c.source not in rendered   # the name a reader knows, never the file's


def test_the_sources_page_marks_passages_whole_and_highlights_the_target():
    page = sources_html()
    assert page.count("<section class='ck-source'") == 5
    assert ":target" in widgets.render.CSS and "ck-cited" in widgets.render.CSS
    # every passage's pieces share a class, and the style lights them all when its id is the target
    ids = re.findall(r"<mark class='ck-cited ck-p-(src-[0-9a-f-]+)' id='\1'>", page)
    assert len(ids) == len(set(ids)) > 100
    for pid in ids[:5]:
        assert f"body:has(#{pid}:target) .ck-p-{pid}" in page
    # the text between the marks is the source's own text
    assert "Nur gleichwertige Karten stechen!" in text_of(page)


# --- rule IDs as links ------------------------------------------------------------------------------
def test_rule_ids_become_links_in_escaped_html():
    book = cardkit.load_game("magische7").rulebook
    out = link_rule_ids(html.escape("won [M7-1.1] — see rule M7-2. Not M7-99."), book.href)
    assert "<a class='ck-rule-link' href='#M7-1.1'>M7-1.1</a>" in out
    assert "<a class='ck-rule-link' href='#M7-2'>M7-2</a>." in out and "M7-99" in out and "#M7-99" not in out
    kept = "<section id='M7-2'><a href='#x'>M7-2</a></section>"
    assert link_rule_ids(kept, book.href) == kept          # attributes and existing links left alone
    assert "href='#S7-2.3'" in link_rule_ids("rule S7-2.3", cardkit.load_game("sieben").rulebook.href)


@pytest.mark.parametrize("game", GAMES)
def test_rule_ids_in_rule_texts_narration_and_tables_are_links(game):
    book = cardkit.load_game(game).rulebook
    for r in book.rules:
        body = re.sub(r"<h\d>.*?</h\d>", "", book.rule_html(r))
        body = re.sub(r"<a [^>]*>.*?</a>|<[^>]+>", " ", body)
        assert not [m for m in re.findall(r"\b[A-Z][A-Z0-9]*-\d+(?:\.\d+)*", body) if m in book.ids()], r.id
    for rule in rule_cards(game):
        rp = widgets.Replay(game, rule.example)
        rp.go(rp._slider.max)
        assert "class='ck-rule-link'" in rp._narr.value or not re.search(r"\[[A-Z]", rp.lines[-1])


def test_the_rule_finder_finds_by_id_and_by_words_and_links_to_the_game_page():
    f = RuleFinder("M7-4")
    assert "href='magische7.ipynb#M7-4'" in f.out.value
    f.rule.value = "spiegel"
    assert "href='magische7.ipynb#M7-1.5'" in f.out.value and "M7-4 Scoring the Spiegel" in f.out.value
    f.rule.value = "S7-2.3"             # another game's ID: shown from there
    assert "href='sieben.ipynb#S7-2.3'" in f.out.value
    f.rule.value = "zähler"             # words of the quotations count too, in every game's rules
    assert f.game.value == "magische7" and "S7-4" in f.out.value and "href='sieben.ipynb#S7-4'" in f.out.value
    f.game.value = "sieben"
    f.rule.value = "no such words anywhere"
    assert "ck-error" in f.out.value
    assert [r.id for r, _ in find_rules("magische7", "mirror")][:1]   # translations are searched


# --- conflict examples tell the story of the reading in force ---------------------------------------
@pytest.mark.parametrize("rule_id,example,option,other,winner", [
    ("M7-2", "joker-vs-spiegel", "joker_vs_spiegel", "joker", "Player 1"),
    ("M7-3", "kreuz-vs-spiegel", "kreuz_vs_spiegel", "kreuz", "Player 1"),
])
def test_a_conflicts_narration_follows_the_switched_reading(rule_id, example, option, other, winner):
    rec = cardkit.load_example("magische7", example)
    own_last = rec.meta["narration"][str(len(rec.actions) - 1)]
    _, lines, _ = replay_states(rec, **{option: other})
    assert lines[-1] != own_last and "(default)" not in lines[-1] and "default the Spiegel" not in lines[-1]
    assert winner in lines[-1] and rule_id in lines[-1]
    final = rec.final_state(**{option: other})
    assert final.view(None).seats[0].score == final.view(None).seats[0].score   # the table agrees
    assert narration_note(rec, **{option: other})
    _, lines, _ = replay_states(rec, **{option: rec.options[option]})
    assert lines[-1] == own_last


@pytest.mark.parametrize("game", GAMES)
def test_an_examples_own_words_never_narrate_a_step_another_reading_changed(game):
    for rule in rule_cards(game):
        rec = cardkit.load_example(game, rule.example)
        own = rec.meta.get("narration", {})
        for rd in rule.readings:
            lines, written_for, until = rec.narration_for(**{rule.option: rd.value})
            if written_for == {} or until is None:
                continue
            assert all(int(k) < until for k in lines)
            _, shown, _ = replay_states(rec, **{rule.option: rd.value})
            assert not [i for i, line in enumerate(shown) if i >= until and line == own.get(str(i))]


def test_the_replay_under_the_other_reading_says_whose_words_it_shows():
    rec = cardkit.load_example("magische7", "kreuz-vs-spiegel")
    rp = widgets.Replay(rec, kreuz_vs_spiegel="kreuz")
    rp.go(rp._slider.max)
    assert "Player 1 takes the trick" in rp._narr.value and "gives the trick to the Spiegel" not in rp._narr.value
    assert "ck-narr-note" in rp._narr.value
    plain = widgets.Replay("magische7", "pair-beats")
    assert "ck-narr-note" not in plain._narr.value          # a plain example says nothing about readings


def test_a_rule_cards_comparison_says_what_changed():
    for rule_id, expect in [("M7-2", ("Player 2 takes the trick", "Player 1 takes the trick")),
                            ("M7-3", ("Player 2 takes the trick", "Player 1 takes the trick")),
                            ("M7-4", ("26 points", "13 points"))]:
        card = widgets.RuleCard("magische7", rule_id)
        cmp = text_of(card.text.split("under each reading", 1)[1])
        assert all(e in cmp for e in expect), (rule_id, cmp)
        assert "Player 2 leads." not in cmp and "Player 1 leads." not in cmp
    cmp = text_of(widgets.RuleCard("magische7", "M7-4").text)
    assert "Final: Player 1 47, Player 2 36" in cmp and "Final: Player 1 34, Player 2 36" in cmp


def test_pair_beats_does_not_raise_the_question_of_the_minus_one():
    rec = cardkit.load_example("magische7", "pair-beats")
    before_last = rec.states()[-2]
    p1 = before_last.view(None).seats[0]
    assert all(c is None or c.text != "-1" for c in p1.hand)
    assert "still in the stock" in rec.meta["narration"]["8"] and "partial game" in rec.meta["description"]


# --- one live table, the changed cells marked -------------------------------------------------------
def test_the_rule_table_marks_the_disputed_cells_and_highlights_what_a_switch_changed():
    t = widgets.RuleTable("magische7", "outcomes", options=("joker_vs_spiegel", "kreuz_vs_spiegel"), rule="M7-1")
    assert t.out.value.count("<td class='ck-disputed'>") == 2 and "<td class='ck-changed'>" not in t.out.value
    t.controls["kreuz_vs_spiegel"].value = "kreuz"
    assert t.out.value.count("<td class='ck-changed'>") == 1 and t.out.value.count("<td class='ck-disputed'>") == 1
    assert re.search(r"<td class='ck-changed'>leader \(<a [^>]*>M7-3</a>\)</td>", t.out.value)
    s = widgets.RuleTable("sieben", "beats", options=("eights_wild",), rule="S7-1")
    assert "ck-disputed" in s.out.value


def test_a_rule_without_its_table_leaves_the_table_to_the_live_one():
    assert "<table" in widgets.rule_html("magische7", "M7-1", children=False)
    assert "<table" not in widgets.rule_html("magische7", "M7-1", children=False, table=False)


@pytest.mark.parametrize("game", GAMES)
def test_the_game_page_shows_the_who_wins_table_once(game):
    nb = json.loads((NOTEBOOKS / f"{game}.ipynb").read_text())
    code = "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code")
    book = cardkit.load_game(game).rulebook
    live = dict(re.findall(rf'RuleTable\("{game}", "(\w+)".*rule="([^"]+)"', code))
    assert live, "a live table of who wins"
    for r in book.rules:
        if r.table in live:              # the live table's rule, or another rule naming the same table
            calls = [ln for ln in code.splitlines() if f'"{r.id}"' in ln]
            assert calls and all("RuleTable(" in ln or "table=False" in ln for ln in calls), r.id


# --- quick start, contents, glossary ----------------------------------------------------------------
def heading_ids(nb) -> set:
    """The ids nbconvert gives Markdown headings (spaces become hyphens)."""
    out = set()
    for c in nb["cells"]:
        if c["cell_type"] == "markdown":
            out |= {h.strip().replace(" ", "-") for h in re.findall(r"^#+ (.+)$", "".join(c["source"]), re.M)}
    return out


@pytest.mark.parametrize("game", GAMES)
def test_a_game_page_opens_with_a_quick_start_contents_and_a_glossary(game):
    nb = json.loads((NOTEBOOKS / f"{game}.ipynb").read_text())
    first = "".join(nb["cells"][0]["source"])
    assert "Quick start" in first and "[▶ Play now](#Play)" in first and "sources.ipynb" in first
    assert len(first.split("**On this page:**")[0].split()) < 260     # one screen before the contents
    ids = heading_ids(nb)
    assert "Play" in ids
    links = re.findall(r"\]\(#([^)]+)\)", first)
    assert len(links) >= 6 and not [a for a in links if a not in ids and not re.match(r"[A-Z]+\d*-", a)]
    glossary = next("".join(c["source"]) for c in nb["cells"] if "## German words" in "".join(c["source"]))
    assert glossary.count("\n|") >= 9       # a table of the source's own words with translations


# --- words meant for the code never reach a learner ---------------------------------------------------------
CODE_WORDS = [
    ("a source file's name", r"\b\d{3}_[0-9a-f]{16}\.txt\b"),
    ("a source's number for its name", r"\(\s*00\d\b|\b00\d\s*§|\(00\d\)"),
    ("record notation in quotes", r"'[^'\n]{1,40}' is (?:illegal|not)\b"),
    ("a Python name", r"\bcardkit\.\w|\b[A-Z][a-zA-Z]+\.[a-z_]+\(|\b[a-z]+_[a-z0-9_]+\b|\b\w+\(\)|\bRecord\.load"),
]


def code_words(page_html: str, notation=()) -> list[str]:
    """Words meant for the code that reached a page: a source file's name or number ("(002)", "000 §3"), a
    move's record notation in quotes ("'propose' is illegal", "('stop')": any of `notation`, the moves whose
    notation differs from their label), a Python name (`cardkit.Record.load`, `snake_case`, `call()`).
    Scripts and styles are not text."""
    page_html = re.sub(r"<(script|style)\b.*?</\1>", " ", page_html, flags=re.S | re.I)
    seen = text_of(page_html)
    bad = [f"{what}: {m.group(0)}" for what, rx in CODE_WORDS for m in re.finditer(rx, seen)]
    for t in notation:                      # as a program quotes it: 'stop' (prose quotes are typographic)
        if re.search(r"(?<![\w’'])'" + re.escape(t) + r"'(?![\w])", seen):
            bad.append(f"record notation in quotes: {t}")
    return bad


def test_the_code_word_checker_catches_code_words():
    for bad in ("Spiegel wins (002)", "Joker wins (000)", "No exception in 000 §3(b)",
                "— the review (000_b9b7216f26f02401.txt)", "'propose' is illegal: …",
                "open it with <code>cardkit.Record.load</code>", "the option joker_vs_spiegel",
                "call state.view() first"):
        assert code_words(f"<p>{bad}</p>"), bad
    assert code_words("<p>or end the trick ('stop')</p>", notation={"stop"})
    assert not code_words("<p>Anna's 7♥ beats the bank's card (the review, §3(b)); "
                          "“end the trick” ends it.</p><script>x.scrollIntoView()</script>", notation={"stop"})


def _page_texts(name: str) -> str:
    """Everything a notebook's page shows a reader when served: its Markdown, its HTML outputs and the text
    of every widget it makes (executed as the site executes it)."""
    import nbclient
    import nbformat
    nb = nbformat.read(NOTEBOOKS / f"{name}.ipynb", 4)
    nbclient.NotebookClient(nb, kernel_name="python3", store_widget_state=True,
                            resources={"metadata": {"path": str(NOTEBOOKS)}}).execute()
    out = []
    for cell in nb.cells:
        if cell.cell_type == "markdown":           # (a link's address is not text a reader sees)
            out.append(html.escape(re.sub(r"\]\([^)]*\)", "]", cell.source)))
        for o in cell.get("outputs", []):
            d = o.get("data", {})
            if "text/html" in d:
                out.append(d["text/html"])
            elif "application/vnd.jupyter.widget-view+json" not in d and "text/plain" in d:
                out.append(html.escape(d["text/plain"]))
    state = nb.metadata.get("widgets", {}).get("application/vnd.jupyter.widget-state+json", {}).get("state", {})
    for model in state.values():
        for k, v in model.get("state", {}).items():
            if k in ("value", "description", "tooltip", "placeholder") and isinstance(v, str):
                out.append(v if k == "value" else html.escape(v))
            elif k == "_options_labels":
                out += [html.escape(x) for x in v]
    return "\n".join(out)


@pytest.mark.parametrize("name", sorted(p.stem for p in NOTEBOOKS.glob("*.ipynb")))
def test_no_code_words_on_any_page(name):
    """Every page as the site serves it: no source file name or number, no record notation in quotes, no
    Python name — in its prose, its rules and citations, its examples and comparisons, its widgets."""
    page = _page_texts(name)
    notation = set()
    if name in cardkit.GAMES:
        notation = _notation(name)
    assert len(text_of(page)) >= (5 if name == "baseline" else 200)
    assert not code_words(page, notation)


def _notation(game: str) -> set:
    """The record notation of a game's moves where it differs from the words of its buttons ("stop" for
    "end the trick"), seen in random games of every player count."""
    from cardkit.bots import RandomBot
    from test_hidden import configs
    out = set()
    for g, opts in configs():
        if g != game:
            continue
        s = cardkit.load_game(g, **opts).new_state(seed=1)
        bot = RandomBot(1)
        while not s.is_terminal():
            for a in s.legal_actions():
                if a.text.lower() != a.label.lower() and a.card is None and len(a.text) > 2:
                    out.add(a.text)
            s.apply(bot.choose(s))
    return out


def _visible(root) -> str:
    """The texts of a widget tree a reader sees: HTML values, button labels and tooltips, option labels."""
    import ipywidgets as w
    seen, out, todo = set(), [], [root]
    while todo:
        x = todo.pop()
        if id(x) in seen:
            continue
        seen.add(id(x))
        for k in ("value", "description", "tooltip", "placeholder"):
            v = getattr(x, k, None)
            if isinstance(v, str):
                out.append(v if k == "value" and isinstance(x, w.HTML) else html.escape(v))
        out += [html.escape(str(o)) for o in getattr(x, "_options_labels", ())]
        for v in x.__dict__.get("_trait_values", {}).values():
            items = v if isinstance(v, (list, tuple)) else [v]
            todo += [i for i in items if isinstance(i, w.Widget)]
    return "\n".join(out)


@pytest.mark.parametrize("game", GAMES)
def test_no_code_words_at_the_play_table(game):
    """A whole game at the table, as a learner plays it: every position, the Hint now and then, a card the
    rules refuse, the end of each round, the end of the game with its review — plain words throughout."""
    from cardkit.bots import RandomBot
    notation = _notation(game)
    table = widgets.PlayTable(game, seed=2, bot="random")
    bot, step = RandomBot(3), 0
    table.show_options()
    while not table.state.is_terminal():
        while table._moments:
            assert not code_words(_visible(table), notation)
            table.next_round()
        if step % 7 == 0:
            table.hint(playouts=4)
        if step % 5 == 0:
            hand = table.state.view(0).seats[0].hand
            legal = {a.card for a in table.state.legal_actions() if a.card is not None}
            refused = [i for i, c in enumerate(hand) if c is not None and c not in legal]
            if refused and table.state.current_player == 0:
                table._click_card(refused[0])
        bad = code_words(_visible(table), notation)
        assert not bad, (step, bad)
        table.play(bot.choose(table.state))
        step += 1
    table.review(playouts=3)
    assert not code_words(re.sub(r"href='data:[^']*'", "", _visible(table)), notation)


@pytest.mark.parametrize("game", GAMES)
def test_german_quoted_in_an_example_comes_with_its_english(game):
    """An example's narration quotes the source in German: each quotation is followed by its English (in
    quotes, after a colon or a dash), never left for the learner to translate."""
    bad = []
    for path in sorted((Path(cardkit.__file__).parent / "examples" / game).glob("*.json")):
        rec = cardkit.load_example(game, path.stem)
        texts = [rec.meta.get("description", ""), *rec.meta.get("narration", {}).values()]
        texts += [line for e in rec.meta.get("narration_under", []) for line in e["narration"].values()]
        for t in texts:
            t = re.sub(r"„([^„“]{1,4})“", r"\1", t)          # a card's name quoted inside a quotation: „1“
            for m in re.finditer(r"„[^“]*“", t):
                if not re.match(r"\s*(\(“|,?\s*“|—|–|:\s|\(|„)", t[m.end():]):      # (a next quotation: together)
                    bad.append(f"{path.stem}: {t[max(0, m.start() - 30):m.end() + 30]}")
    assert not bad


def test_a_comparison_shows_the_consequence_of_the_switch():
    """A comparison of readings never ends in the same bare score under both: it names the step where the
    games part, narrated with what it brought about, or who holds which cards where the example stops; a
    score the same under every reading is said once, below."""
    cmp = text_of(widgets.RuleCard("sieben", "S7-3.2").text.split("under each reading", 1)[1])
    assert "Anna draws first" in cmp and "Bert draws first" in cmp
    assert "Anna holds A♥" in cmp and "Bert holds A♥" in cmp
    assert cmp.count("Bert 0 points, Anna 0 points") == 1 and "the same under every reading" in cmp
    cmp = text_of(widgets.RuleCard("whist", "WH-1.3").text.split("under each reading", 1)[1])
    assert "East deals" in cmp and "North deals" in cmp and cmp.count("0 hand points") == 4
    for game in GAMES:
        for rule in rule_cards(game):
            page = widgets.RuleCard(game, rule.id).text.split("under each reading", 1)[1]
            cells = re.findall(r"<div><b>.*?</div>", page, flags=re.S)
            assert len({re.sub(r"<b>.*?</b>( <small>\(the kit's default\)</small>)?", "", c) for c in cells}) > 1, \
                (game, rule.id, "every reading's cell says the same")


def test_an_example_opens_where_its_story_begins():
    """24's scoring examples need two rounds to bring the scores to 18 and 14: the replay opens on the round
    the rules describe (the record's "start"), not 48 steps before it; a bad "start" is refused."""
    rp = widgets.Replay("vierundzwanzig", "scores-red")
    assert rp._slider.value == cardkit.load_example("vierundzwanzig", "scores-red").meta["start"] > 40
    assert "Stefan 18 · Markus 14" in text_of(rp._narr.value)
    lazy = widgets.Replay("vierundzwanzig", "scores-yellow", lazy=True)
    assert "Stefan 18 · Markus 14" in text_of(lazy._narr.value)
    rec = cardkit.load_example("vierundzwanzig", "scores-red")
    for bad in (-1, 10_000, "49", True):
        with pytest.raises(cardkit.RecordError, match="start"):
            cardkit.Record(rec.game, rec.options, rec.actions, {**rec.meta, "start": bad})


def test_the_sources_page_links_every_game():
    nb = json.loads((NOTEBOOKS / "sources.ipynb").read_text(encoding="utf-8"))
    prose = "".join(nb["cells"][0]["source"])
    page = sources_html()
    for game in GAMES:
        assert f"]({game}.ipynb)" in prose, game                  # the line of links at the top
        assert f"<a href='{game}.ipynb'>" in page, game            # and beside the text that gives its rules


@pytest.mark.parametrize("game", GAMES)
def test_deal_the_cards_is_said_next_to_its_button(game):
    """"Deal the cards ▸ below …" stands in the prose right above the button, not sections away from it."""
    nb = json.loads((NOTEBOOKS / f"{game}.ipynb").read_text(encoding="utf-8"))
    cells = nb["cells"]
    play = next(i for i, c in enumerate(cells) if c["cell_type"] == "code" and "Play(" in "".join(c["source"]))
    said = [i for i, c in enumerate(cells) if c["cell_type"] == "markdown" and "Deal the cards" in "".join(c["source"])]
    assert said == [play - 1], (said, play)
