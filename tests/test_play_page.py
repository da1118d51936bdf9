"""The play table on the served pages, in headless Chromium, as a new player uses it: the bots' tricks
since your move on the table, the announcement of what happened, the question before a game is thrown
away, the game record to download at the end, and the pages at a phone's width (390 px)."""
from __future__ import annotations

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

import cardkit
from axe_check import assert_accessible
from site_server import download_record, open_page, page_error, table_log, wait_answered, wait_log_changed


def _open(chromium, site_url, name, width=1200, height=1000):
    page = open_page(chromium, f"{site_url}/voila/render/{name}", width, height, accept_downloads=True)
    return page.context_, page


def _close(context) -> None:
    """Close the context's pages as a visitor's tab closes (beforeunload: the page shuts its kernel down), so
    the module's many pages do not fill the server's cap of kernels."""
    for page in context.pages:
        page.close(run_before_unload=True)
    context.close()


def _play_card(page, table):
    # the kernel's updates arrive widget by widget: wait until the hand shows a card to play
    page.wait_for_function("(t) => t.querySelector('button.ck-card.ck-playable:not(:disabled)')",
                           arg=table.element_handle(), timeout=40000)
    html = table_log(table)
    table.locator("button.ck-card.ck-playable").first.click()
    try:
        wait_answered(page, table, html)
    except Exception:
        raise AssertionError("the table did not answer the click; message: "
                             + table.locator(".ck-error, .ck-note").all_inner_texts().__repr__()) from None


def test_four_players_the_bots_tricks_and_the_announcement_and_the_record(chromium, site_url, tmp_path):
    """Die Magische 7 with four players: the bots' trick since your move on the table and read out by the page's
    live region; then the game played to its end, its review, and its record downloaded and replayed."""
    context, page = _open(chromium, site_url, "magische7.ipynb")
    table = page.locator(".ck-play").first
    table.scroll_into_view_if_needed()
    html = table_log(table)
    table.locator("button", has_text="4 players").click()        # nothing played yet: no question
    wait_log_changed(page, table, html)
    assert table.locator(".ck-pos-top").count() == 1 and table.locator(".ck-pos-left").count() == 1
    assert "A new game with 4 players." in table.locator(".ck-live").inner_text()
    # North leads: choose an opponent, then play cards until a click has set off a whole trick of the bots
    for _ in range(8):
        # wait for what the kernel offers next: an opponent to choose, or a card to play
        page.wait_for_function("""(t) => t.querySelector('button.ck-action:not(:disabled)') ||
            t.querySelector('button.ck-card.ck-playable:not(:disabled)')""", arg=table.element_handle(), timeout=40000)
        buttons = table.locator("button.ck-action")
        if buttons.count():
            html = table_log(table)
            buttons.first.click()
            wait_log_changed(page, table, html)
            # the choice made, the kernel takes its buttons away (Magische 7 has no other action)
            page.wait_for_function("(t) => !t.querySelector('button.ck-action')", arg=table.element_handle(),
                                   timeout=40000)
            continue
        _play_card(page, table)
        if table.locator(".ck-since").count():
            break
    since = table.locator(".ck-since")
    assert since.count() == 1 and "won by" in since.inner_text() and "[M7-" in since.inner_text()
    announced = page.locator("#ck-announcer").inner_text()
    assert "takes the trick" in announced                      # the page-wide live region read it out
    assert page.locator("#ck-announcer").get_attribute("aria-live") == "polite"
    for _ in range(80):
        # the kernel's updates arrive widget by widget: wait for a decision, the end of a round, or the game's end
        page.wait_for_function("""(t) => t.querySelector('a.ck-download') ||
            t.querySelector('button.ck-next:not(:disabled)') || t.querySelector('button.ck-action:not(:disabled)') ||
            t.querySelector('button.ck-card.ck-playable:not(:disabled)')""",
                               arg=table.element_handle(), timeout=40000)
        if table.locator("a.ck-download").count():
            break
        if table.locator("button.ck-next").count() or table.locator("button.ck-action").count():
            html = table_log(table)
            (table.locator("button.ck-next").first if table.locator("button.ck-next").count()
             else table.locator("button.ck-action").first).click()
            wait_log_changed(page, table, html)
            continue
        _play_card(page, table)
    assert table.locator(".ck-review table").count() == 1
    download_record(page, table, tmp_path, "magische7")
    assert page.errors == [] and page.external == []
    _close(context)


def test_new_game_asks_first_and_keep_playing_keeps_the_game(chromium, site_url):
    context, page = _open(chromium, site_url, "sieben.ipynb")
    table = page.locator(".ck-play").first
    table.scroll_into_view_if_needed()
    _play_card(page, table)
    log = table_log(table)
    table.locator("button", has_text="New game").click()
    question = table.get_by_text("will be lost")
    question.wait_for(timeout=40000)
    table.locator("button", has_text="Keep playing").click()
    question.wait_for(state="detached", timeout=40000)
    assert table_log(table) == log
    table.locator("button", has_text="New game").click()
    table.locator("button", has_text="Yes, deal a new game").click()
    wait_log_changed(page, table, log)
    assert page.errors == []
    _close(context)



def _phone_checks(page, name: str) -> None:
    """Nothing wider than the screen, no cut-off button label, a usable step slider, readable tables, and no
    WCAG 2.1 A/AA violation that axe-core finds, on the page as it is at 390 px with two replays started."""
    # handles to the buttons themselves: a started replay removes its button, which would shift an nth()
    for button in page.locator(".ck-replay button", has_text="Step through").element_handles()[:2]:
        button.click()
    page.wait_for_timeout(1500)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    cut = page.evaluate("""() => [...document.querySelectorAll('.jupyter-widgets button, .widget-toggle-button')]
        .filter(b => b.offsetParent !== null && b.scrollWidth > b.clientWidth + 1).map(b => b.innerText)""")
    assert cut == []
    for slider in page.locator(".ck-replay .widget-slider").all():
        assert slider.bounding_box()["width"] >= 150
    # a table wider than the screen must sit in a box of its own that scrolls sideways
    wide = page.evaluate("""() => [...document.querySelectorAll('table')].filter(t => {
        if (t.offsetParent === null || t.getBoundingClientRect().right <= 391) return false;
        for (let a = t.parentElement; a; a = a.parentElement) {
          const o = getComputedStyle(a).overflowX;
          if ((o === 'auto' || o === 'scroll') && a.getBoundingClientRect().right <= 391) return false;
        }
        return true; }).map(t => t.innerText.slice(0, 60))""")
    assert wide == []
    assert_accessible(page, f"{name} at 390 px")      # axe-core: WCAG 2.1 A/AA, replays started, table dealt


def test_the_front_page_on_a_phone_390_px_wide(chromium, site_url):
    """The front page at a phone's width: as each game's page below."""
    context, page = _open(chromium, site_url, "index.ipynb", width=390, height=844)
    _phone_checks(page, "index.ipynb")
    assert page.errors == []
    _close(context)


_SEATS_JS = """(t) => {
    const seats = [...t.querySelectorAll('.ck-table .ck-seat')];
    const out = {count: seats.length, problems: []};
    const width = document.documentElement.clientWidth;
    const boxes = seats.map(s => s.getBoundingClientRect());
    const name = (i) => seats[i].querySelector('.ck-seat-name').innerText;
    boxes.forEach((b, i) => {
        if (!seats[i].checkVisibility() || b.width < 40 || b.height < 20)
            out.problems.push(`${name(i)} is not visible (${b.width}x${b.height})`);
        if (b.left < -1 || b.right > width + 1) out.problems.push(`${name(i)} is cut at the side`);
        for (let j = 0; j < i; j++) {
            const c = boxes[j];
            const w = Math.min(b.right, c.right) - Math.max(b.left, c.left);
            const h = Math.min(b.bottom, c.bottom) - Math.max(b.top, c.top);
            if (w > 1 && h > 1) out.problems.push(`${name(i)} overlaps ${name(j)}`);
        }
        // nothing else lies on top of it: the element at its middle is inside the seat
        seats[i].scrollIntoView({block: 'center'});
        const r = seats[i].getBoundingClientRect();
        const at = document.elementFromPoint(r.left + r.width / 2, r.top + Math.min(r.height / 2, 12));
        if (!at || !seats[i].contains(at)) out.problems.push(`${name(i)} is covered`);
    });
    return out; }"""


@pytest.mark.parametrize("game", list(cardkit.GAMES))
def test_every_game_page_on_a_phone_at_every_player_count_and_played_by_clicking(chromium, site_url, game):
    """One visit of each game's page, as a new player might make it (a page's start costs a kernel and its
    rendering: one visit rather than three):
    - opened on a phone (390 px): nothing wider than the screen, no cut-off button label, a usable step slider,
      readable tables, and no WCAG 2.1 A/AA violation that axe-core finds;
    - for every player count the game allows, at a desktop's width (1280 px) and a phone's: the table shows one
      seat per player, none overlaps another, none is covered or cut off; at 1280 px, with its table dealt, no
      WCAG 2.1 A/AA violation that axe-core finds;
    - played by clicking what the table offers (a card to play, or a decision such as an exchange, a trump to
      name or a claim) ten times: each click is answered, the log grows, and the page shows no error."""
    context, page = _open(chromium, site_url, f"{game}.ipynb", width=390, height=844)
    _phone_checks(page, f"{game}.ipynb")
    page.set_viewport_size({"width": 1280, "height": 900})
    table = page.locator(".ck-play").first
    spec = next((o for o in cardkit.game_class(game).option_specs if o.name == "players"), None)
    counts = list(spec.choices) if spec is not None and spec.choices else [cardkit.load_game(game).num_players]
    for n in counts:
        if len(counts) > 1:
            button = table.locator(".widget-toggle-button", has_text=f"{n} players")
            if "mod-active" not in (button.get_attribute("class") or ""):
                button.click()          # nothing played yet: a new game at once, with n seats
        page.wait_for_function("([t, n]) => t.querySelectorAll('.ck-table .ck-seat').length === n",
                               arg=[table.element_handle(), n], timeout=40000)
        for width, height in ((1280, 900), (390, 844)):
            page.set_viewport_size({"width": width, "height": height})
            page.wait_for_timeout(300)
            seen = page.evaluate(_SEATS_JS, table.element_handle())
            assert seen["count"] == n and seen["problems"] == [], (n, width, seen)
        page.set_viewport_size({"width": 1280, "height": 900})
    page.wait_for_timeout(300)
    assert_accessible(page, f"{game} at 1280 px")     # axe-core: WCAG 2.1 A/AA (at 390 px: above)
    table.scroll_into_view_if_needed()
    first_log = table_log(table)
    for _ in range(10):
        page.wait_for_function("""(t) => t.querySelector('a.ck-download') ||
            (t.querySelector('.ck-moment') && t.querySelector('button.ck-next:not(:disabled)')) ||
            (!t.querySelector('.ck-moment') && (t.querySelector('button.ck-action:not(:disabled)') ||
             t.querySelector('button.ck-card.ck-playable:not(:disabled)')))""", arg=table.element_handle(), timeout=40000)
        if table.locator("a.ck-download").count():
            break
        if table.locator(".ck-moment").count():        # the end of a round: go on from it
            moment = table.locator(".ck-moment").inner_text()
            table.locator("button.ck-next").click()
            page.wait_for_function("([t, m]) => !t.querySelector('.ck-moment') || t.querySelector('.ck-moment')"
                                   ".innerText !== m", arg=[table.element_handle(), moment], timeout=40000)
            continue
        html = table_log(table)
        actions = table.locator("button.ck-action:not(:disabled)")
        if actions.count():
            actions.first.click()
        else:
            table.locator("button.ck-card.ck-playable").first.click()
        # the computer's replies too: the move shows at once, and the buttons of that moment are replaced
        # when the replies (or the round's end) come
        wait_answered(page, table, html)
        assert table.locator(".ck-error").count() == 0, table.locator(".ck-error").all_inner_texts()
    assert table_log(table) != first_log
    # the log scrolls as one box: no trick's list scrolls inside it (its heading would cover the line above)
    assert page.evaluate("""(t) => [...t.querySelectorAll('.ck-logbox ol')]
        .every(o => o.scrollHeight <= o.clientHeight + 1)""", table.element_handle())
    assert page.errors == [] and page.external == []
    _close(context)


_FOCUS_JS = """(t) => { const e = document.activeElement;
    return !!e && t.contains(e) && e.matches('button.ck-card.ck-playable:not(:disabled), button.ck-action:not(:disabled), button.ck-next'); }"""

# the table is ready for the next key: the game is over, or the focus is on the next decision, the table has
# changed since the key (its log, or the moment shown: a round the computer played out is already in the log) and
# has stayed the same for a moment (the kernel's answer, the computer's replies, all arrived)
_SETTLED_JS = """([t, before]) => {
    const x = t.innerText;
    const ready = t.querySelector('a.ck-download') || (%s)(t);
    if (x === before || !ready) { t.ckSeen = null; return false; }
    if (t.ckSeen !== x) { t.ckSeen = x; t.ckSince = performance.now(); return false; }
    return performance.now() - t.ckSince > 400; }""" % _FOCUS_JS

# every part of the table that speaks (what happened, a round's end, the result) and was not there before the key,
# among what the page's polite live region has said since
_SAID_JS = """([t, before, heard]) => {
    const said = window.ckHeard.slice(heard).join("\\n");
    return [...t.querySelectorAll('.ck-announce, .ck-moment, .ck-result')].map((e) => e.innerText.trim())
      .every((p) => before.includes(p) || said.includes(p)); }"""

# what the page's live regions were given to say, in order (cardkit.js: #ck-announcer polite, #ck-alerter at once)
_LISTEN_JS = """() => { window.ckHeard = []; window.ckAlerted = [];
    const listen = (id, into) => new MutationObserver(() => {
        const x = document.getElementById(id).textContent.trim(); if (x) into.push(x); })
      .observe(document.getElementById(id), {childList: true, characterData: true, subtree: true});
    listen('ck-announcer', window.ckHeard); listen('ck-alerter', window.ckAlerted); }"""

# every live region on the page: what a screen reader would read out by itself
_LIVE_REGIONS_JS = """() => [...document.querySelectorAll('[aria-live], [role=status], [role=alert], [role=log]')]
    .filter((e) => e.getAttribute('aria-live') !== 'off').map((e) => e.id || e.className)"""


@pytest.mark.parametrize("game", ["ecarte", "vingt_et_un"])
def test_a_whole_game_with_the_keyboard_alone(chromium, site_url, game):
    """A trick game and a banking game played from the deal to the end with the keyboard alone: Enter on "Deal
    the cards", then Enter on what the focus lands on, again and again — once, Tab to a card the rules refuse,
    Enter, and Tab on to one they allow. After every move the focus is back on the hand or the next choice
    (never the page body, which would send Tab through the log), the focused card's ring stands above its
    neighbours' green outlines, and the page's one polite live region has said what happened: the same words as
    the table's "What happened", said once (the table's own boxes are not live regions), a refusal said at once,
    and the game's result when it shows."""
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(page_error(e)))
    from site_server import page_ready_time
    page_ready_time(page, f"{site_url}/voila/render/{game}.ipynb")
    page.evaluate(_LISTEN_JS)
    start = page.locator(".ck-play-start").first
    start.wait_for(state="attached", timeout=40000)
    start.focus()
    page.keyboard.press("Enter")
    table = page.locator(".ck-play").first
    table.locator(".ck-logbox").wait_for(timeout=40000)
    page.wait_for_function(f"(t) => t.querySelector('a.ck-download') || ({_FOCUS_JS})(t)",
                           arg=table.element_handle(), timeout=40000)
    assert page.evaluate(_LIVE_REGIONS_JS) == ["ck-announcer", "ck-alerter"]
    moves = cards = refused = spoken = 0
    while not table.locator("a.ck-download").count():
        assert moves < 120, "the game did not end"
        if not refused and page.evaluate("document.activeElement.matches('button.ck-card')") \
                and table.locator("button.ck-card.ck-unplayable:not(:disabled)").count():
            refused = _tab_to_a_refused_card_and_back(page, table)
        before = table.inner_text()
        heard = page.evaluate("window.ckHeard.length")
        page.keyboard.press("Enter")
        page.wait_for_function(_SETTLED_JS, arg=[table.element_handle(), before], timeout=60000)
        moves += 1
        # what the table shows, said: a move the others answered ("What happened"), a round's end; a move of one's
        # own that nobody answered yet (a card discarded in an exchange) changes nothing the table says. Said within
        # a few seconds (the page speaks at its next frame; on a loaded machine the computer's reply could still
        # change the table just after it had looked settled: a CI run of 29 Nov read the words before the reply's)
        try:
            page.wait_for_function(_SAID_JS, arg=[table.element_handle(), before, heard], timeout=5000)
        except PlaywrightTimeout:
            pass                                    # (the assertion below says what was not said)
        said = page.evaluate("window.ckHeard").copy()[heard:]
        for part in table.locator(".ck-announce, .ck-moment, .ck-result").all_inner_texts():
            if part.strip() not in before:
                assert part.strip() in "\n".join(said), (moves, part, said)
        spoken += len(said)
        if page.evaluate("document.activeElement.matches('button.ck-card')"):
            cards += 1
            ring = page.evaluate("""() => { const cs = getComputedStyle(document.activeElement);
                return [cs.outlineStyle, parseFloat(cs.outlineWidth), cs.position, +cs.zIndex]; }""")
            assert ring[0] == "solid" and ring[1] >= 3 and ring[2] == "relative" and ring[3] > 0, ring
    result = table.locator(".ck-result").inner_text().strip()
    assert result and result in "\n".join(page.evaluate("window.ckHeard")), result    # said when it first showed
    assert page.evaluate(_LIVE_REGIONS_JS) == ["ck-announcer", "ck-alerter"]
    assert spoken >= moves // 2, (spoken, moves)
    if game == "ecarte":
        assert cards and refused, (cards, refused)
    assert page.errors == []
    _close(context)


def _tab_to_a_refused_card_and_back(page, table) -> int:
    """From the focused card, Tab to a card the rules refuse now and press Enter: the refusal is said at once
    (the page's assertive live region); then Tab (or Shift+Tab) on to a card the rules allow. 1 if done."""
    is_refused = "(t) => t.contains(document.activeElement) && document.activeElement.matches('button.ck-card.ck-unplayable')"
    for key in ["Tab"] * 10 + ["Shift+Tab"] * 20:
        page.keyboard.press(key)
        if page.evaluate(is_refused, table.element_handle()):
            break
    else:
        raise AssertionError("Tab did not reach the card the rules refuse")
    alerted = page.evaluate("window.ckAlerted.length")
    page.keyboard.press("Enter")
    page.wait_for_function("(n) => window.ckAlerted.length > n", arg=alerted, timeout=40000)
    said = page.evaluate("window.ckAlerted")[-1]
    assert said == table.locator(".ck-error").inner_text().strip() and said, said
    for key in ["Tab"] * 10 + ["Shift+Tab"] * 20:
        if page.evaluate(_FOCUS_JS, table.element_handle()):
            return 1
        page.keyboard.press(key)
    raise AssertionError("Tab did not come back to a card the rules allow")


_IN_VIEW_JS = """(t) => {
    const now = t.querySelector('.ck-table .ck-now'), card = document.activeElement;
    const a = now.getBoundingClientRect(), b = card.getBoundingClientRect();
    return {trick: [Math.round(a.top), Math.round(a.bottom)], card: [Math.round(b.top), Math.round(b.bottom)],
            height: innerHeight, card_is_a_card: card.matches('button.ck-card') && t.contains(card)}; }"""


def _faros_piles_lie_left_and_right_of_the_pack(page, table) -> None:
    """Faro's piles left and right of the pack, in a row, at 1280 and at 390 px; the page is left at 390 px."""
    for width in (1280, 390):
        page.set_viewport_size({"width": width, "height": 844})
        page.wait_for_timeout(300)
        boxes = page.evaluate("""(t) => ['left', 'middle', 'right'].map(p => {
            const b = t.querySelector('.ck-place-' + p).getBoundingClientRect(); return [b.left, b.right, b.top]; })""",
                              table.element_handle())
        (l, m, r) = boxes
        assert l[1] <= m[0] + 1 and m[1] <= r[0] + 1, (width, boxes)       # left, the pack, right: in a row
        assert abs(l[2] - m[2]) < 2 and abs(m[2] - r[2]) < 2
        names = table.locator(".ck-placed .ck-pile-name").all_inner_texts()
        assert names == ["Left pile", "Pack", "Right pile"]


@pytest.mark.parametrize("game,odds", [("whist", False), ("sieben", False), ("faro", True)])
def test_a_phone_keeps_the_hand_and_the_trick_in_play_on_one_screen(chromium, site_url, game, odds):
    """At 390 × 844, after each move the page shows the card the player may play next (the focus) and the
    trick in play (Faro: the piles of the turn) together, with the Odds open too. (Faro: first, its piles lie left
    and right of the pack at a desktop's width and at the phone's.)"""
    context, page = _open(chromium, site_url, f"{game}.ipynb", width=390, height=844)
    table = page.locator(".ck-play").first
    if game == "faro":
        _faros_piles_lie_left_and_right_of_the_pack(page, table)
    if odds:
        table.locator("button", has_text="Odds").click()
        table.locator(".ck-odds").wait_for(timeout=40000)
    checked = 0
    for _ in range(8):
        page.wait_for_function("""(t) => t.querySelector('button.ck-next') ||
            t.querySelector('button.ck-action:not(:disabled)') ||
            t.querySelector('button.ck-card.ck-playable:not(:disabled)')""", arg=table.element_handle(), timeout=40000)
        if table.locator("button.ck-next").count():
            break
        html = table_log(table)
        cards = table.locator("button.ck-card.ck-playable:not(:disabled)")
        (cards.first if cards.count() else table.locator("button.ck-action").first).click()   # Faro: the amount
        wait_answered(page, table, html)
        # the move is shown at once, then the computer's replies: wait for the next decision (or the end)
        page.wait_for_function("""(t) => t.querySelector('button.ck-next') ||
            t.querySelector('button.ck-action:not(:disabled)') ||
            t.querySelector('button.ck-card.ck-playable:not(:disabled)')""", arg=table.element_handle(), timeout=40000)
        if not table.locator("button.ck-card.ck-playable:not(:disabled)").count():
            continue
        page.wait_for_function(_FOCUS_JS, arg=table.element_handle(), timeout=40000)
        page.wait_for_timeout(300)
        try:    # the table settled: on a loaded machine the last render may still move it for a moment
            page.wait_for_function(f"(t) => {{ const s = ({_IN_VIEW_JS})(t); "
                                   "return s.trick[0] >= 0 && s.card[1] <= s.height; }",
                                   arg=table.element_handle(), timeout=3000)
        except PlaywrightTimeout:
            pass        # the assertion below says what is out of view
        seen = page.evaluate(_IN_VIEW_JS, table.element_handle())
        assert seen["card_is_a_card"]
        assert seen["trick"][0] >= 0 and seen["card"][1] <= seen["height"], seen
        checked += 1
    assert checked
    assert page.errors == []
    _close(context)


def test_a_closed_table_comes_back_after_a_reload(chromium, site_url):
    """The culler closes a table left alone for five minutes (here: the page's kernel is shut down as the
    culler would). Reloaded, the page offers the visitor his game — the same log, the same hand — and only
    to him: another visitor's page offers nothing."""
    context, page = _open(chromium, site_url, "sieben.ipynb")
    table = page.locator(".ck-play").first
    _play_card(page, table)
    log = table_log(table)
    hand = table.locator("button.ck-card").all_inner_texts()
    kernel = page.evaluate('JSON.parse(document.getElementById("jupyter-config-data").textContent).kernelId')
    page.evaluate("""async (kernel) => {
      const token = document.cookie.match(/_xsrf=([^;]+)/)[1];
      await fetch(`/voila/api/shutdown/${kernel}`, {method: "POST", headers: {"X-XSRFToken": token}});
    }""", kernel)
    page.wait_for_timeout(1500)
    from site_server import page_ready_time
    page_ready_time(page, page.url)
    back = page.locator(".ck-play-resume")
    back.wait_for(timeout=40000)
    assert "was kept" in page.locator(".ck-kept").inner_text()
    back.click()
    table = page.locator(".ck-play").first
    page.wait_for_function("([t, log]) => { const x = t.querySelector('.ck-logbox'); return x && x.innerText === log; }",
                           arg=[table.element_handle(), log], timeout=40000)
    assert table.locator("button.ck-card").all_inner_texts() == hand
    assert page.errors == []
    _close(context)
    other, page = _open(chromium, site_url, "sieben.ipynb")
    page.locator(".ck-play .ck-logbox").first.wait_for(timeout=40000)
    assert page.locator(".ck-play-resume").count() == 0 and page.locator(".ck-kept").count() == 0
    _close(other)


_COVERED_JS = """(t) => { const c = t.querySelector('.ck-cover');
    return !!c && !!t.querySelector('button.ck-ready') && !t.querySelector('button.ck-card, .ck-table, svg')
           && !/[♠♥♦♣]/.test(t.innerText); }"""


def test_two_people_at_one_screen(chromium, site_url):
    """"Play with friends ▸": two people take turns at one screen. Between their turns the table is covered —
    no card, no seat, no log on the page, only whose turn it is and "I am …, show my cards" — and each press
    shows that player's own hand, by name, until his move covers the table for the other. (A player who takes the
    trick leads the next: the table stays his, uncovered, until the turn passes to the other.)"""
    page = open_page(chromium, f"{site_url}/voila/render/sieben.ipynb", 1280, 900, start=False)
    friends = page.locator(".ck-play-friends").first
    friends.wait_for(state="attached", timeout=40000)
    friends.click()
    table = page.locator(".ck-play").first
    names: list = []
    playable = "t.querySelector('button.ck-card.ck-playable:not(:disabled)')"
    page.wait_for_function(_COVERED_JS, arg=table.element_handle(), timeout=40000)
    for _ in range(20):
        if table.locator(".ck-cover").count():
            ready = table.locator("button.ck-ready")
            name = ready.inner_text().removeprefix("I am ").removesuffix(", show my cards")
            assert f"{name}’s turn" in table.locator(".ck-cover").inner_text()
            assert not names or name != names[-1]          # covered only when the turn passes to the other
            names.append(name)
            ready.click()
            page.wait_for_function(f"(t) => {playable}", arg=table.element_handle(), timeout=40000)
        assert f"Your hand, {names[-1]}" in table.inner_text()
        if len(names) == 3:
            break
        log = table_log(table)
        table.locator("button.ck-card.ck-playable").first.click()
        # covered for the other, or (he took the trick and leads again) his hand after the move (the log is the
        # last part of the table to change)
        page.wait_for_function(f"""([t, log]) => ({_COVERED_JS})(t) ||
            (t.querySelector('.ck-logbox') && t.querySelector('.ck-logbox').innerText !== log && {playable})""",
                               arg=[table.element_handle(), log], timeout=40000)
    assert len(names) == 3 and names[0] != names[1] and names[0] == names[2], names
    assert page.errors == [] and page.external == []
    _close(page.context_)
