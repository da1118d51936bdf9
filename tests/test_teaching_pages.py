"""The teaching pages in the Voilà site, in headless Chromium, where only a browser can tell: a link to a
rule from another page lands on it; a citation opens the sources page with its passage highlighted (the
`:target` matched); the Magische 7 conflict's step text follows the switched reading; the quick start's
Play now link scrolls to the table; one live "who wins" table; an anchor for every rule."""
from __future__ import annotations

import pytest
from axe_check import assert_accessible
from site_server import open_page

import cardkit

HIGHLIGHT = "rgb(255, 213, 79)"     # .ck-cited:target in widgets/render.py


@pytest.fixture(scope="module")
def page(site_url, chromium):
    """The Magische 7 page, opened as a link from the landing page opens it: on a rule's anchor."""
    pg = open_page(chromium, f"{site_url}/voila/render/magische7.ipynb#M7-4", start=False)
    yield pg
    pg.context_.close()


def target(pg):
    return pg.evaluate("""() => { const t = document.querySelector(':target');
        if (!t) return null; const r = t.getBoundingClientRect();
        return {id: t.id, bg: getComputedStyle(t).backgroundColor, top: r.top, bottom: r.bottom,
                height: innerHeight}; }""")


def test_a_link_to_a_rule_from_another_page_lands_on_it(page):
    page.wait_for_function("() => document.querySelector(':target')", timeout=15000)
    t = target(page)
    assert t["id"] == "M7-4" and -5 <= t["top"] < t["height"]
    assert page.errors == [] and page.external == []


def test_one_who_wins_table_and_an_anchor_for_every_rule(page):
    # the page counts as interactive at its first widget; the rest may render a moment later (under load,
    # seconds: a busy machine once counted the table before it was there)
    table = page.locator("table.ck-table:not(article.ck-card table)", has_text="Who takes a two-card trick")
    table.first.wait_for(timeout=30000)
    assert table.count() == 1                  # one on the page; the rules card carries its own copy to print
    assert page.locator("article.ck-card table.ck-table", has_text="Who takes a two-card trick").count() == 1
    ids = cardkit.load_game("magische7").rulebook.ids()
    missing = page.evaluate("(ids) => ids.filter((id) => !document.getElementById(id))", ids)
    assert missing == []
    # rule IDs in the rule texts are links to those anchors
    assert page.locator("#M7-1 a.ck-rule-link[href='#M7-2']").count() >= 1


def test_a_citation_opens_the_sources_page_on_its_passage_highlighted(page):
    link = page.locator("#M7-2 .ck-cite a").first
    href = link.get_attribute("href")
    assert href.startswith("sources.ipynb#src-002-")
    assert "the Piatnik rule sheet" in link.inner_text()
    with page.context_.expect_page(timeout=30000) as opened:
        link.click()
    sources = opened.value
    try:
        sources.wait_for_function("() => document.querySelector(':target')", timeout=60000)
        sources.wait_for_function("""() => { const r = document.querySelector(':target').getBoundingClientRect();
            return r.top >= 0 && r.bottom <= innerHeight; }""", timeout=15000)
        t = target(sources)
        assert t["id"] == href.split("#", 1)[1] and t["bg"] == HIGHLIGHT
        assert "der Spiegel als zweite Karte sticht daher einen Joker!" in sources.locator(":target").inner_text()
        # the other cited passages are marked, but not highlighted
        other = sources.locator("mark.ck-cited:not(:target)").first
        assert other.evaluate("(el) => getComputedStyle(el).backgroundColor") != HIGHLIGHT
        assert "Traceback" not in sources.inner_text("body")
        # the sources page for every reader: axe-core, WCAG 2.1 A/AA, at a desktop's width and a phone's
        sources.wait_for_function("() => !document.querySelector('#loading')", timeout=60000)
        for width, height in ((1280, 900), (390, 844)):
            sources.set_viewport_size({"width": width, "height": height})
            assert_accessible(sources, f"sources at {width} px")
    finally:
        sources.close()


def test_the_conflicts_step_text_follows_the_switched_reading(page):
    card = page.locator(".ck-rule#M7-3")
    assert card.count() == 1
    button = page.locator("button", has_text="Step through it").nth(1)   # M7-2's card, then M7-3's
    button.scroll_into_view_if_needed()
    button.click()
    page.locator(".widget-toggle-button", has_text="The Kreuz (leader) wins").first.click()
    replay = page.locator(".ck-replay").filter(has_text="Kreuz led, Spiegel follows").first
    replay.locator("button", has_text="▶|").first.click()
    replay.locator(".ck-narration", has_text="Player 1 takes the trick").first.wait_for(timeout=20000)
    text = replay.inner_text()
    assert "gives the trick to the Spiegel" not in text
    assert "won by Player 1" in text                   # the table and the step text tell one story
    assert "written for this reading" in text
    # back to the kit's default: the example's own words again
    page.locator(".widget-toggle-button", has_text="The Spiegel (follower) wins").first.click()
    replay.locator(".ck-narration", has_text="the kit (default) gives the trick to the Spiegel").first.wait_for(
        timeout=20000)
    assert "won by Player 2" in replay.inner_text()


def test_the_quick_starts_play_now_link_scrolls_to_the_table(page):
    """Play now lands on the play table's "Deal the cards" button."""
    page.evaluate("window.scrollTo(0, 0); document.querySelectorAll('*').forEach((e) => { e.scrollTop = 0; })")
    link = page.get_by_role("link", name="▶ Play now")
    assert link.count() == 1
    link.click()
    page.wait_for_function("() => location.hash === '#Play'", timeout=10000)
    page.wait_for_function("""() => { const h = document.getElementById('Play').getBoundingClientRect();
        return h.top >= -5 && h.bottom <= innerHeight; }""", timeout=10000)   # the page may end below it
    box = page.locator(".ck-play-start").first.bounding_box()
    assert box is not None and box["y"] < 900        # the table's button is on the screen the link opened
