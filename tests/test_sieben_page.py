"""The Sieben page (notebooks/sieben.ipynb) in the Voilà site, in headless Chromium: it becomes interactive,
shows no error, makes no request off this machine, steps through the worked example, and lets a visitor
play a card and end a trick."""
from __future__ import annotations

import pytest
from site_server import open_page


@pytest.fixture(scope="module")
def page(site_url, chromium):
    pg = open_page(chromium, f"{site_url}/voila/render/sieben.ipynb", width=1100, height=1000)
    yield pg
    pg.context_.close()


def test_the_page_becomes_interactive_without_errors(page):
    assert 0 < page.ready < 60
    assert page.errors == []
    assert "Traceback" not in page.inner_text("body")
    assert page.locator('[data-mime-type*="stderr"], [data-mime-type*="error"]').count() == 0
    assert page.external == []
    body = page.inner_text("body")
    for words in ("Sieben (Sedma)", "S7-6", "Nur gleichwertige Karten stechen!", "Continue only after being beaten",
                  "Three and four players"):
        assert words in body


def test_step_through_the_worked_example(page):
    replay = page.locator(".ck-replay", has_text="Anna und Bert: the source's worked example").first
    replay.locator("button", has_text="Step through").first.click()
    replay.locator("button", has_text="▶|").first.click()   # the button appears once the kernel answers
    replay.get_by_text("Bert kann nicht verlängern").first.wait_for(timeout=15000)
    text = replay.inner_text()
    assert "Bert kann nicht verlängern" in text and "won by Anna, 30 counters" in text


def test_play_a_card_against_the_bots(page):
    table = page.locator(".ck-play").first
    assert table.locator(".ck-card").count() == 4
    table.locator(".ck-card").first.click()
    table.locator(".ck-logbox").get_by_text("Bert leads").first.wait_for(timeout=40000)
    log = table.locator(".ck-logbox").inner_text()
    assert "Bert leads" in log
    assert "Traceback" not in page.inner_text("body") and page.errors == []


def test_one_live_table_of_what_beats_and_an_anchor_for_every_rule(page):
    import cardkit
    assert page.locator("table.ck-table:not(article.ck-card table)", has_text="the same rank").count() == 1
    assert page.locator("article.ck-card table.ck-table", has_text="the same rank").count() == 1    # the card's copy
    ids = cardkit.load_game("sieben").rulebook.ids()
    assert page.evaluate("(ids) => ids.filter((id) => !document.getElementById(id))", ids) == []
    assert page.get_by_role("link", name="▶ Play now").count() == 1
    assert page.locator(".ck-cite a[href^='sources.ipynb#src-003-']").count() > 20
