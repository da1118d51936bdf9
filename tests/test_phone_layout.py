"""The play table on a phone's screen (390 × 844 CSS px, an iPhone's): Whist, the game with the most cards in
hand (13), shows the trick in play and the whole hand together — as the page stands after the deal (the focus on
the first card to play) and with the table's top at the top of the screen, the seats too — and again after a
move, when the trick the computer finished since ("Since your last move") lies in the middle as well. Every card
is a target of at least 24 × 24 px (WCAG 2.5.8); at a desktop's width the cards keep their full size. One page,
one server: about 10 s."""
from __future__ import annotations

from site_server import open_page, table_log, wait_answered

# the table's middle (the trick, the piles in play) and every card of the hand, as the screen shows them
_BOXES_JS = """(t) => {
    const box = (e) => { const b = e.getBoundingClientRect();
        return {left: b.left, top: b.top, right: b.right, bottom: b.bottom, width: b.width, height: b.height}; };
    return {middle: box(t.querySelector('.ck-table .ck-center')), table: box(t.querySelector('.ck-table.ck-around')),
            cards: [...t.querySelectorAll('button.ck-card')].map(box),
            width: document.documentElement.clientWidth, height: innerHeight}; }"""

_FOCUS_ON_A_CARD = """(t) => t.contains(document.activeElement) &&
    document.activeElement.matches('button.ck-card.ck-playable:not(:disabled)')"""


def _out_of_view(seen: dict, with_table: bool = False) -> list[str]:
    """What of the middle, the hand (and, `with_table`, the whole table) lies outside the screen."""
    parts = [("the table's middle", seen["middle"])] + [(f"card {i + 1}", c) for i, c in enumerate(seen["cards"])]
    if with_table:
        parts.append(("the table", seen["table"]))
    return [f"{name} at x {b['left']:.0f}–{b['right']:.0f}, y {b['top']:.0f}–{b['bottom']:.0f}" for name, b in parts
            if b["top"] < -0.5 or b["left"] < -0.5 or b["bottom"] > seen["height"] + 0.5
            or b["right"] > seen["width"] + 0.5]


def _settled_boxes(page, table) -> dict:
    """The boxes once the focus is on a card to play and the table has stopped moving (the kernel's updates
    arrive widget by widget)."""
    page.wait_for_function(_FOCUS_ON_A_CARD, arg=table.element_handle(), timeout=40000)
    before = None
    for _ in range(20):
        page.wait_for_timeout(150)
        seen = page.evaluate(_BOXES_JS, table.element_handle())
        if seen == before:
            return seen
        before = seen
    return seen


def _scroll_table_to_top(page, table) -> dict:
    page.evaluate("(t) => t.querySelector('.ck-table.ck-around').scrollIntoView({block: 'start'})",
                  table.element_handle())
    page.wait_for_timeout(100)
    return page.evaluate(_BOXES_JS, table.element_handle())


def test_whist_on_a_phone_shows_the_trick_and_the_whole_hand_together(chromium, site_url):
    page = open_page(chromium, f"{site_url}/voila/render/whist.ipynb", 390, 844)     # the cards dealt
    table = page.locator(".ck-play").first
    seen = _settled_boxes(page, table)
    assert len(seen["cards"]) == 13
    small = [(round(c["width"]), round(c["height"])) for c in seen["cards"] if c["width"] < 24 or c["height"] < 24]
    assert small == [], small
    assert _out_of_view(seen) == [], ("as dealt", seen)
    assert _out_of_view(_scroll_table_to_top(page, table), with_table=True) == []
    # a move: the computer plays on to the next card of ours; the trick it finished lies in the middle too
    html = table_log(table)
    table.locator("button.ck-card.ck-playable").first.click()
    wait_answered(page, table, html)
    seen = _settled_boxes(page, table)
    assert len(seen["cards"]) == 12
    assert table.locator(".ck-center .ck-since").count() == 1
    assert _out_of_view(seen) == [], ("after a move", seen)
    assert _out_of_view(_scroll_table_to_top(page, table), with_table=True) == []
    # a desktop's screen: the cards at their full size (the phone's are smaller only below 600 px)
    page.set_viewport_size({"width": 1280, "height": 900})
    page.wait_for_timeout(300)
    sizes = {(round(c["width"]), round(c["height"])) for c in page.evaluate(_BOXES_JS, table.element_handle())["cards"]}
    assert sizes == {(60, 84)}, sizes
    assert page.errors == []
    for tab in page.context_.pages:
        tab.close(run_before_unload=True)        # the page shuts its kernel down, as a closed tab does
    page.context_.close()
