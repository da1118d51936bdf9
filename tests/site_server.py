"""Helpers for the real-browser tests of the site (a helper module, not a test file).

The server and timing helpers live in cardkit.site because `cardkit bench` uses them too; this module
re-exports them beside the offline check, which only the tests need.
"""
from __future__ import annotations

import contextlib
import sys
from urllib.parse import urlsplit

from cardkit.site import launch_chromium, page_ready_time, running_site, serving_static  # noqa: F401

LOCAL_HOSTS = {"127.0.0.1", "localhost", "::1"}

# Python's http.server, answering as a host with a cache policy does (GitHub Pages: max-age=600)
_CACHING_SERVER = """
import functools, http.server, sys
class Handler(http.server.SimpleHTTPRequestHandler):
    def end_headers(self):
        self.send_header("Cache-Control", sys.argv[3])
        super().end_headers()
http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])),
                                functools.partial(Handler, directory=sys.argv[2])).serve_forever()
"""


@contextlib.contextmanager
def serving_static_cached(folder, cache_control: str = "max-age=600", port: int | None = None):
    """Like `serving_static`, with every answer carrying this Cache-Control header: the browser's HTTP cache
    then takes a file as fresh for that long, as it does from GitHub Pages (which sends max-age=600). It
    answers If-Modified-Since with 304 as http.server does. Yields the base URL."""
    from cardkit.site import _free_port, serving_process
    port = port or _free_port()
    with serving_process([sys.executable, "-c", _CACHING_SERVER, str(port), str(folder), cache_control],
                         f"http://127.0.0.1:{port}") as base:
        yield base


def record_external_requests(page) -> list[str]:
    """Start recording every request (and websocket) the page makes to a host other than this
    machine; returns the list, which fills as the page runs. data:, blob: and about: URLs have no
    host and are not requests to anywhere."""
    external: list[str] = []

    def note(url: str) -> None:
        host = urlsplit(url).hostname
        if host is not None and host not in LOCAL_HOSTS:
            external.append(url)

    page.on("request", lambda request: note(request.url))
    page.on("websocket", lambda ws: note(ws.url))
    return external


def page_error(e) -> str:
    """A script error on the page as a test reports it: its message, then where it was thrown (the first lines
    of its stack), so that an error seen once in a CI run says which code threw it."""
    stack = (getattr(e, "stack", None) or "").splitlines()[1:6]
    return "\n".join([str(e), *(line.strip() for line in stack)])


def open_page(browser, url: str, width: int = 1200, height: int = 900, start: bool = True, **context_args):
    """A fresh context and page on `url`, interactive: the page records its JavaScript errors
    (`page.errors`), its requests off this machine (`page.external`) and its time until interactive
    (`page.ready`); `page.context_` is its context, to close. `start`: click each "Deal the cards" button
    and wait for its table (`start_tables`)."""
    context = browser.new_context(viewport={"width": width, "height": height}, **context_args)
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(page_error(e)))
    page.external = record_external_requests(page)
    page.ready = page_ready_time(page, url)
    page.context_ = context
    if start:      # deal the play tables (clicking scrolls to them: a test of where the page opens says no)
        start_tables(page)
    return page


def start_tables(page, timeout: float = 40000) -> None:
    """Click each "Deal the cards" button of the page (a game page's play table is one click away,
    `widgets.Play`) and wait until its table has dealt (its log shows the deal). A game's page has one:
    the page counts as interactive as soon as its first widget is, and the play table, last on the page, may
    render a moment later, so on a game's page its button is waited for."""
    import cardkit
    name = urlsplit(page.url).path.rsplit("/", 1)[-1].removesuffix(".ipynb")
    if name in cardkit.GAMES:
        page.locator(".ck-play-start").first.wait_for(state="attached", timeout=timeout)
    buttons = page.locator(".ck-play-start").element_handles()
    for button in buttons:
        button.click()
    if buttons:
        page.wait_for_function("(n) => [...document.querySelectorAll('.ck-play .ck-logbox')]"
                               ".filter(x => x.innerText.trim()).length >= n", arg=len(buttons), timeout=timeout)


STATIC_READY = "() => document.body.classList.contains('ck-python-ready')"


def download_record(page, table, folder, game: str):
    """Download the finished game's record from the table's link (one link), read it back with the kit, and
    check it replays to the end the table shows: returns the Record."""
    import cardkit
    link = table.locator("a.ck-download")
    assert link.count() == 1
    with page.expect_download() as info:
        link.click()
    path = folder / "game.json"
    info.value.save_as(path)
    record = cardkit.Record.load(path)
    final = record.final_state()
    assert record.game == game and final.is_terminal()
    assert final.view(None).result in table.locator(".ck-result").inner_text()
    return record


def table_log(table) -> str:
    """A play table's log: the last widget the table sets as it answers a click (the table, the hand and the
    buttons are set before it)."""
    return table.locator(".ck-logbox").first.inner_text()


def wait_log_changed(page, table, before: str, timeout: float = 40000) -> None:
    """Wait until the kernel's answer has changed the table's log (`before`: its text before the click; the
    widget replaces its HTML, so the element is looked up afresh each time)."""
    page.wait_for_function("([t, before]) => { const x = t.querySelector('.ck-logbox'); return x && x.innerText !== before; }",
                           arg=[table.element_handle(), before], timeout=timeout)


def wait_answered(page, table, before: str, timeout: float = 40000) -> None:
    """Wait for the kernel's whole answer to the visitor's move at a play table (`before`: its log before the
    move): the table shows the move at once, Undo off, then the computer's replies; the answer is complete once
    Undo is on again and the log has stayed the same for a moment (the log is the last widget an update sets)."""
    page.wait_for_function("""([t, before]) => {
        const x = t.querySelector('.ck-logbox');
        const undo = [...t.querySelectorAll('button')].find((b) => b.textContent.trim() === 'Undo');
        if (!x || x.innerText === before || !undo || undo.disabled) { t.ckSeen = null; return false; }
        if (t.ckSeen !== x.innerText) { t.ckSeen = x.innerText; t.ckSince = performance.now(); return false; }
        return performance.now() - t.ckSince > 300;
      }""", arg=[table.element_handle(), before], timeout=timeout)


# --- a reader's own example opened by a link (issue 37; tests/test_site.py and tests/test_static_site.py) -------
def shared_example(game: str, step: int = 12, seed: int = 3) -> tuple[str, str]:
    """`game` played 30 steps by the random bot (seeded), as the fragment of a link to it at `step`
    (cardkit.share.to_link), and the line its example must show there as the kit's own Replay writes it
    ("Step 12/30: …", with single spaces)."""
    import cardkit
    from cardkit.bots import RandomBot
    from cardkit.share import to_link
    from widgets.replay import Replay
    state = cardkit.load_game(game).new_state(seed=seed)
    bot = RandomBot(seed)
    while not state.is_terminal() and len(state.history) < 30:
        state.apply(bot.choose(state))
    record = state.to_record()
    replay = Replay(record)
    return to_link(record, step), " ".join(f"Step {step}/{len(replay.states) - 1}: {replay.lines[step - 1]}".split())


def wait_example_shows(page, line: str, timeout: float = 60000) -> None:
    """Wait until the page's own example (`.ck-example`) shows `line` as its step's narration."""
    page.wait_for_function("(line) => [...document.querySelectorAll('.ck-example .ck-narration')]"
                           ".some((x) => x.innerText.replace(/\\s+/g, ' ').trim() === line)", arg=line, timeout=timeout)


def follow_link(page, fragment: str) -> None:
    """Follow a link on the open page to `#fragment` (the address's fragment changes; the page is not loaded again)."""
    page.evaluate("""(fragment) => { const a = document.createElement("a");
        a.href = "#" + fragment; a.textContent = "an example"; document.body.append(a); a.click(); a.remove(); }""",
                  fragment)


def damaged_link_says_one_line(page, game: str) -> str:
    """Follow a damaged link to an example of `game`: the example says why in one plain line (returned), and no
    traceback or error output reaches the page."""
    follow_link(page, f"example=v1~{game}~~3~!!")
    alert = page.locator(".ck-example .ck-alert")
    alert.wait_for(timeout=30000)
    text = alert.inner_text().strip()
    assert text.startswith("This link does not open an example: ") and "\n" not in text, text
    assert "Traceback" not in page.inner_text("body")
    assert page.locator('[data-mime-type*="stderr"], [data-mime-type*="error"]').count() == 0
    return text


def watch_widget_messages(page) -> list:
    """Record, in order, the widget messages on the page's own kernel connections (not those of a script's
    extra connection with ``session_id=visitor``): (direction, message type, comm id, method, the model ids
    it names). Attach before the page is opened. For `widget_trouble`."""
    import re
    log: list = []

    def on_socket(ws) -> None:
        if "/channels" not in ws.url or "session_id=visitor" in ws.url:
            return

        def frame(direction: str, payload) -> None:
            text = payload.decode("latin1") if isinstance(payload, bytes) else payload
            kind = re.search(r'"msg_type":\s*"(\w+)"', text)     # the header's (the parent's comes after it)
            if kind is not None and kind.group(1) == "stream" and "rate exceeded" in text:
                log.append((direction, "rate exceeded", None, None, set()))   # the server stops sending for a while
                return
            if kind is None or not kind.group(1).startswith("comm_"):
                return
            comm = re.search(r'"comm_id":\s*"([0-9a-f-]+)"', text)
            method = re.search(r'"method":\s*"(\w+)"', text)
            method = method and method.group(1)
            names = set(re.findall(r"IPY_MODEL_([0-9a-f]{32})", text))
            if method == "update_states":      # the states of every model, keyed by its id
                names |= set(re.findall(r'"([0-9a-f]{32})":\s*\{', text))
            log.append((direction, kind.group(1), comm and comm.group(1), method, names))

        log.append(("in", "socket opened", None, None, set()))
        ws.on("framereceived", lambda payload: frame("in", payload))
        ws.on("framesent", lambda payload: frame("out", payload))
        ws.on("close", lambda _: log.append(("in", "socket closed", None, None, set())))

    page.on("websocket", on_socket)
    return log


def widget_trouble(log: list) -> list[str]:
    """From `watch_widget_messages`'s record: each message that names a model the page was never told of (no
    comm_open, not among the states it loaded) or whose comm was closed before, with what closed it."""
    known: set = set()
    closed: dict = {}
    opened = {}                                    # model -> the first message that opened it
    for i, (direction, kind, comm, method, names) in enumerate(log):
        if kind == "comm_open" and comm:
            opened.setdefault(comm, i)
    out = []
    for i, (direction, kind, comm, method, names) in enumerate(log):
        if kind == "socket closed":
            out.append(f"message {i}: the page's connection to its kernel closed (what the kernel sent until the "
                       "page connected again never reached it)")
        if kind == "socket opened" and i:
            out.append(f"message {i}: the page connected to its kernel again")
        if kind == "rate exceeded":
            out.append(f"message {i}: the server said the kernel's messages came too fast and stopped sending them "
                       "for a while (Jupyter's IOPub rate limit)")
        if kind == "comm_open" and comm:
            known.add(comm)
        if method == "update_states":
            known |= names
        if kind == "comm_close" and comm:
            closed[comm] = f"message {i}, a comm_close {'from the page' if direction == 'out' else 'from the kernel'}"
        for name in sorted(names - {comm} if method != "update_states" else ()):
            if name not in known or name in closed:
                on = "" if comm in known or direction == "out" else " (a model the page was not told of either: " \
                    "such a message the page ignores)"
                out.append(f"message {i} of {len(log)} ({direction} {kind} {method} on {comm}{on}) names model {name}: "
                           + (f"closed at {closed[name]}" if name in closed else
                              f"opened only later, at message {opened[name]}" if name in opened else "never opened"))
    return out[:20]
