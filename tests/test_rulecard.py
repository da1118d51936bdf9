"""The rules to take along (cardkit.rulecard, widgets.RulesCard): for every game a card made from the rulebook,
with every section and finer rule, the reading the kit plays named for every conflict and gap and the others
listed, every option with its choices, in plain words; printable alone (its print style sheet) and as a PDF of
one or two pages. The browser's view of it (printing from the page) is in tests/test_learn_pages.py."""
from __future__ import annotations

import base64
import html
import re

import pytest

import cardkit
import widgets
from cardkit import rulecard as rc
from cardkit.rules import RULE_ID
from test_pages import code_names, text_of

GAMES = list(cardkit.GAMES)


@pytest.mark.parametrize("game", GAMES)
def test_the_card_carries_every_rule_and_names_every_reading_the_kit_plays(game):
    g = cardkit.load_game(game)
    book = g.rulebook
    card = rc.rule_card(game)
    page = rc.card_html(card, book.href, f"ck-card-{game}")
    seen = " ".join(text_of(page).split())
    for r in book.rules:
        assert r.title in seen, r.id
        assert f"href='#{r.id}'" in page, r.id                      # each rule's small link to the page
        if r.readings and r.option in g.options and r.kind in ("conflict", "gap"):
            default = next(rd.label for rd in r.readings if rd.value == g.options[r.option])
            others = [rd.label for rd in r.readings if rd.value != g.options[r.option]]
            section = seen[seen.index(r.title):]
            assert f"The kit plays: {default}." in section[:3000], r.id
            assert all(o in section[:3000] for o in others), r.id
    for o in g.option_specs:
        assert rc._no_ids(o.help or o.name)[:30].lower() in seen.lower(), o.name
    assert not code_names(page, game)


# --- the rule as played: what the card says ----------------------------------------------------------------
ENGINE_TALK = re.compile(r"\b(the kit|the engine|chance move|the record|breaks|refused|reading)\b", re.I)
FILE_NAME = re.compile(r"\d{3}_[0-9a-f]{16}|\.txt\b|\.toml\b|\.py\b")


def _readings(game):
    """(options, rule, reading) for the kit's defaults and every other reading of every rule with readings."""
    g = cardkit.load_game(game)
    out = [({}, None, None)]
    for r in g.rulebook.rules:
        for rd in r.readings:
            if r.option in g.options and rd.value != g.options[r.option]:
                out.append(({r.option: rd.value}, r, rd))
    return out


@pytest.mark.parametrize("game", GAMES)
def test_every_rule_and_every_reading_is_stated_as_played(game):
    book = cardkit.load_game(game).rulebook
    for r in book.rules:
        assert r.played or (r.readings and all(rd.played for rd in r.readings)), f"{r.id} has no statement as played"
        for rd in r.readings:
            assert rd.played, f"{r.id}: the reading {rd.label!r} has no statement as played"


@pytest.mark.parametrize("game", GAMES)
def test_the_card_states_rules_in_plain_words_under_every_reading(game):
    for options, rule, rd in _readings(game):
        card = rc.rule_card(game, **options)
        lines = rc.card_lines(card)
        where = f"{game} {options}"
        for line in lines:
            bare = re.sub(r"[*_]", "", line).strip()
            assert not bare.endswith((":", "?")), f"{where}: a line ends in a colon or a question: {line!r}"
            assert "?" not in bare or "“" in bare, f"{where}: a question on the card: {line!r}"
            assert not RULE_ID.search(bare), f"{where}: a rule ID in a line's words: {line!r}"
            assert not FILE_NAME.search(bare) and "§" not in bare, f"{where}: a file or section sign: {line!r}"
            assert "{" not in bare and "}" not in bare, f"{where}: an option not filled in: {line!r}"
            assert not re.search(r"[ÕÃ]", bare), f"{where}: the scan's garble: {line!r}"
            sentences = [x.strip() for x in re.split(r"(?<=[.!])\s+", bare) if len(x.strip()) > 12]
            assert len(sentences) == len(set(sentences)), f"{where}: a sentence said twice: {line!r}"
        for it in [i for s in card.sections for i in [s.head, *s.items]]:
            assert not ENGINE_TALK.search(re.sub(r"The kit plays: .*", "", it.text)), f"{where} {it.id}: {it.text!r}"
        if rule is not None:                                  # the card says the reading in force
            item = next(i for s in card.sections for i in [s.head, *s.items] if i.id == rule.id)
            g = cardkit.load_game(game, **options)
            assert g.rulebook.as_played(rule) in item.text and rd.label == item.reading, (where, rule.id)
            assert " ".join(rd.played.split())[:40].split("{")[0] in item.text, (where, rule.id)


def _cited(game, options, games: int, seed: int) -> set:
    """The rule IDs the engine's narration cites over `games` random games (seeded)."""
    from cardkit.rng import Rng
    g = cardkit.load_game(game, **options)
    rng = Rng(seed)
    cited = set()
    for _ in range(games):
        st = g.new_state(seed=rng.next64() >> 1)
        steps = 0
        while not st.is_terminal() and steps < 3000:
            legal = st.legal_actions()
            a = legal[rng.below(len(legal))]
            before = st.clone() if not st.is_chance() else None
            st.apply(a)
            if before is not None:
                for m in re.finditer(r"\[([^\]]*)\]", before.narrate(a, st) + " " + st.round_result()):
                    cited.update(RULE_ID.findall(m.group(1)))
            steps += 1
    return cited


@pytest.mark.parametrize("game", GAMES)
def test_every_rule_the_engine_plays_is_on_the_card_with_its_statement(game):
    """With the printed card alone a player can play and settle: every rule the engine invoked in random games
    (its narration names it) has its statement on the card, under the defaults and under each other reading."""
    for options, rule, rd in _readings(game)[:4]:
        card = rc.rule_card(game, **options)
        items = {i.id: i for s in card.sections for i in [s.head, *s.items]}
        cited = _cited(game, options, 6 if options else 25, 39)
        assert len(cited) >= 4, f"{game} {options}: the narration cites only {sorted(cited)}"
        for rid in cited:
            assert rid in items, f"{game} {options}: the engine cites {rid}, which is not on the card"
            assert items[rid].text.strip(), f"{game} {options}: the card has no statement of {rid}, which the engine plays"


@pytest.mark.parametrize("game,table", [("vingt_et_un", "settlement"), ("bakkarat", "settlement"),
                                        ("ecarte", "settlement"), ("ecarte", "points"), ("sieben", "points"),
                                        ("vierundzwanzig", "scoring"), ("magische7", "outcomes")])
def test_the_card_carries_the_tables_that_settle_a_game(game, table):
    t = cardkit.load_game(game).rule_tables()[table]
    text = rc.card_text(rc.rule_card(game))
    plain = rc._plain_table(t)
    for row in plain.rows:
        for cell in row:
            assert cell in text, f"{game} {table}: {cell!r} is not on the card"
    assert "the source's row as printed" not in text and "EÕB" not in text


@pytest.mark.parametrize("game", GAMES)
def test_the_pdf_is_one_or_two_pages(game):
    card = rc.rule_card(game)
    pdf = rc.card_pdf(card)
    assert pdf.startswith(b"%PDF-") and b"/FontFile2" in pdf       # the fonts embedded: it reads anywhere
    assert 1 <= rc.page_count(pdf) <= 2


def test_the_card_follows_the_options_in_force():
    plain = rc.rule_card("magische7")
    other = rc.rule_card("magische7", spiegel_scoring="zero", players=4)
    item = next(it for s in other.sections for it in [s.head, *s.items] if it.id == "M7-4")
    assert item.reading == "The Spiegel counts 0" or "0" in item.reading
    assert any("4 players" in c for c in other.changed) and not plain.changed
    assert "Options in force" in text_of(rc.card_html(other))


def test_the_page_gets_the_card_a_print_button_and_the_pdf(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    out = widgets.rulecard.rules_card_html("sieben")
    assert "<article class='ck-card' lang='en' id='ck-card-sieben'>" in out
    assert "onclick=\"(function(b){var el=document.getElementById('ck-card-sieben')" in out
    href = re.search(r"href='(data:application/pdf;base64,[^']+)'", out).group(1)
    pdf = base64.b64decode(href.split(",", 1)[1])
    assert pdf.startswith(b"%PDF-") and "download='sieben-rules.pdf'" in out
    assert list(tmp_path.rglob("*.pdf"))                          # drawn once, then read from the cache
    assert widgets.rulecard.rules_card_html("sieben") == out
    assert "@media print" in out and "ck-print-target" in out


def test_no_card_for_an_unknown_game_or_option():
    with pytest.raises(cardkit.UnknownGameError):
        rc.rule_card("chess")
    with pytest.raises(cardkit.OptionError):
        rc.rule_card("sieben", players=9)
    assert html.escape("Sieben") in rc.card_html(rc.rule_card("sieben"))


def test_the_card_and_a_set_from_the_command_line(tmp_path, capsys):
    from cardkit.cli import main
    assert main(["card", "faro", "--pdf", str(tmp_path / "faro.pdf")]) == 0
    assert (tmp_path / "faro.pdf").read_bytes().startswith(b"%PDF-")
    assert main(["card", "whist", "-o", "ruleset=long"]) == 0
    out = capsys.readouterr().out
    assert "# Whist — the rules as the kit plays them" in out and "Options in force" in out
    assert main(["questions", "sieben", "--set", "12"]) == 0
    out = capsys.readouterr().out
    assert "Sieben (Sedma): set 12, the answers" in out and out.count("✓") >= 8
    assert main(["questions", "sieben", "--set", "0"]) == 2
    assert "whole number from 1 to 9999" in capsys.readouterr().err


def test_the_pdf_never_replaces_a_file_without_force_and_a_bad_path_is_one_line(tmp_path, capsys):
    from cardkit.cli import main
    mine = tmp_path / "README.md"
    mine.write_text("my notes")
    assert main(["card", "faro", "--pdf", str(mine)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "exists: nothing was written (--force replaces it)" in err
    assert mine.read_text() == "my notes"
    assert main(["card", "faro", "--pdf", str(mine), "--force"]) == 0
    assert mine.read_bytes().startswith(b"%PDF-")
    capsys.readouterr()
    for bad in (tmp_path / "no" / "such" / "folder.pdf", tmp_path):
        assert main(["card", "faro", "--pdf", str(bad)]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "Traceback" not in err and err.startswith("cardkit: ")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["README.md"]
