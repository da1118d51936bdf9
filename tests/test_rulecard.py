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
        assert re.search(rf"\b{re.escape(r.id)} {re.escape(r.title)}", seen), r.id
        if r.readings and r.option in g.options and r.kind in ("conflict", "gap"):
            default = next(rd.label for rd in r.readings if rd.value == g.options[r.option])
            others = [rd.label for rd in r.readings if rd.value != g.options[r.option]]
            section = seen[seen.index(f"{r.id} {r.title}"):]
            assert f"The kit plays: {default}." in section[:2500], r.id
            assert all(o in section[:2500] for o in others), r.id
    for o in g.option_specs:
        assert (o.help or o.name)[:30].lower() in seen.lower(), o.name
    assert not code_names(page, game)
    assert f"href='#{book.sections()[0].id}'" in page           # rule IDs open the rule on the page


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


def test_a_first_sentence_is_whole():
    assert rc.first_sentences("One. Two two. Three three three.", 12) == "One. Two two."
    assert rc.first_sentences("First para.\n\nSecond.", 100) == "First para."
    assert rc.first_sentences("- a list\n- of two", 5).startswith("- a list")


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
