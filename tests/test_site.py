"""The Voilà site in headless Chromium: pages work offline, sources and files stay private, and the
browser cannot make the kernel run code. One server and one browser serve every test here."""
from __future__ import annotations

import http.client
import shutil
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import pytest

import nbformat
from playwright import sync_api

import cardkit

from cardkit.site import NOTEBOOKS_DIR  # noqa: E402
from site_server import launch_chromium, page_ready_time, record_external_requests, running_site  # noqa: E402

SECRET = "cardkit-test-secret"
_KERNEL_ID = 'JSON.parse(document.getElementById("jupyter-config-data").textContent).kernelId'


@pytest.fixture(scope="module")
def site_root(tmp_path_factory) -> Path:
    """A copy of notebooks/ to serve, with files planted inside and beside it that must not leak."""
    root = tmp_path_factory.mktemp("site")
    served = root / "notebooks"
    shutil.copytree(NOTEBOOKS_DIR, served, ignore=shutil.ignore_patterns(".*", "_*", "__pycache__"))
    (served / "secret.py").write_text(f"KEY = {SECRET!r}\n")
    (served / "card.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg"/>')  # an asset it may serve
    (served / ".private").mkdir()
    (served / ".private" / "card.svg").write_text(SECRET)
    (root / "outside.png").write_text(SECRET)
    # a notebook beside the served folder: if the site ever ran it, it would leave a marker
    nbformat.write(nbformat.v4.new_notebook(
        cells=[nbformat.v4.new_code_cell(f"open({str(root / 'outside-ran')!r}, 'w').close()")],
        metadata={"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}}),
        root / "outside.ipynb")
    return root


@pytest.fixture(scope="module")
def base_url(site_root):
    with running_site(site_root / "notebooks") as base:
        yield base


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as pw:
        browser = launch_chromium(pw)
        yield browser
        browser.close()


@pytest.fixture(scope="module")
def baseline(browser, base_url):
    """The baseline page, loaded once and clicked once."""
    context = browser.new_context()
    page = context.new_page()
    external = record_external_requests(page)
    page_errors: list[str] = []
    page.on("pageerror", lambda e: page_errors.append(str(e)))
    ready = page_ready_time(page, f"{base_url}/voila/render/baseline.ipynb")
    page.click(".widget-button")
    page.wait_for_timeout(500)  # let the click's round trip to the kernel finish
    yield page, ready, external, page_errors
    context.close()


def test_baseline_becomes_interactive(baseline):
    page, ready, _, _ = baseline
    assert 0 < ready < 30
    assert page.locator(".widget-button", has_text="Click").is_enabled()


def test_click_shows_no_error(baseline):
    page, _, _, page_errors = baseline
    assert page_errors == []
    assert page.locator('[data-mime-type*="stderr"], [data-mime-type*="error"]').count() == 0
    assert "Traceback" not in page.inner_text("body")


def test_page_makes_no_request_off_this_machine(baseline):
    _, _, external, _ = baseline
    assert external == []


def test_source_code_is_not_shown(baseline):
    page, _, _, _ = baseline
    html = page.content()
    assert "import ipywidgets" not in html
    assert "w.Button(" not in html


def test_other_pages_make_no_request_off_this_machine(browser, base_url):
    for path in ("/voila/render/no-such.ipynb", "/voila/tree?classic-tree=true"):
        context = browser.new_context()
        page = context.new_page()
        external = record_external_requests(page)
        page.goto(base_url + path, wait_until="networkidle")
        context.close()
        assert external == [], path


def test_leaving_a_page_shuts_its_kernel_down(browser, base_url):
    context = browser.new_context()
    page = context.new_page()
    page_ready_time(page, f"{base_url}/voila/render/baseline.ipynb")
    kernel = f"/api/kernels/{page.evaluate(_KERNEL_ID)}"
    assert _get(base_url, kernel)[0] == 200
    page.goto("about:blank")  # beforeunload: the page posts to /voila/api/shutdown/<kernel id>
    for _ in range(50):
        if _get(base_url, kernel)[0] == 404:
            break
        page.wait_for_timeout(100)
    context.close()
    assert _get(base_url, kernel)[0] == 404


def test_front_door_leads_to_index(browser, base_url, site_root):
    context = browser.new_context()
    page = context.new_page()
    page.goto(base_url + "/", wait_until="commit")
    page.wait_for_url("**/voila/render/index.ipynb", wait_until="commit")
    context.close()


def _get(base_url: str, path: str, redirects: int = 3, headers: dict | None = None) -> tuple[int, str]:
    """GET a raw path (http.client keeps '..' as sent), following redirects."""
    url = urlsplit(base_url)
    conn = http.client.HTTPConnection(url.hostname, url.port, timeout=60)
    try:
        conn.request("GET", path, headers=headers or {})
        r = conn.getresponse()
        body = r.read().decode(errors="replace")
    finally:
        conn.close()
    if r.status in (301, 302, 303, 307) and redirects:
        return _get(base_url, urlsplit(urljoin(base_url + path, r.headers["Location"])).path, redirects - 1)
    return r.status, body


@pytest.mark.parametrize("path", [
    "/voila/files/secret.py",
    "/voila/files/baseline.ipynb",
    "/voila/files/.private/card.svg",
    "/voila/files/../outside.png",
    "/voila/files/%2e%2e/outside.png",
    "/voila/render/secret.py",
    "/voila/api/contents/secret.py",
    "/voila/render/../outside.ipynb",
    "/voila/render/%2e%2e/outside.ipynb",
    "/voila/tree/..",
])
def test_nothing_outside_the_notebooks_is_served(base_url, site_root, path):
    status, body = _get(base_url, path)
    assert status in (403, 404)
    assert SECRET not in body
    assert not (site_root / "outside-ran").exists()


def test_assets_and_notebook_metadata_are_served(base_url):
    assert _get(base_url, "/voila/files/card.svg")[0] == 200
    status, body = _get(base_url, "/voila/api/contents/baseline.ipynb")
    assert status == 200 and "import ipywidgets" not in body  # the contents API strips the source


def test_pages_answer_only_to_local_host_names(base_url):
    """A web page that rebinds its own DNS name to 127.0.0.1 cannot load the site under that name."""
    port = urlsplit(base_url).port
    local = _get(base_url, "/voila/render/no-such.ipynb", headers={"Host": f"localhost:{port}"})
    foreign = _get(base_url, "/voila/render/baseline.ipynb", headers={"Host": f"attacker.example:{port}"})
    assert local[0] == 404 and foreign[0] == 403


_EXECUTE_OVER_WEBSOCKET = """async ([kernelId, code]) => {
  const ws = new WebSocket(`ws://${location.host}/api/kernels/${kernelId}/channels?session_id=visitor`);
  await new Promise((resolve, reject) => { ws.onopen = resolve; ws.onerror = reject; });
  const send = (msg_id, msg_type, content) => ws.send(JSON.stringify({
    header: {msg_id, msg_type, username: "visitor", session: "visitor", date: new Date().toISOString(),
             version: "5.3"},
    parent_header: {}, metadata: {}, content, buffers: [], channel: "shell"}));
  const seen = {exec: [], info: []};
  const done = new Promise((resolve) => {
    ws.onmessage = (event) => {
      if (typeof event.data !== "string") return;
      const msg = JSON.parse(event.data);
      const parent = msg.parent_header && msg.parent_header.msg_id;
      if (parent in seen) seen[parent].push(msg.msg_type);
      if (parent === "info" && msg.msg_type === "kernel_info_reply") resolve();
    };
    setTimeout(resolve, 15000);
  });
  send("exec", "execute_request", {code, silent: false, store_history: false, user_expressions: {},
                                   allow_stdin: false, stop_on_error: true});
  send("info", "kernel_info_request", {});  // answered after the execute_request, had it run
  await done;
  ws.close();
  return seen;
}"""


def test_browser_cannot_execute_code(baseline, tmp_path):
    page, _, _, _ = baseline
    marker = tmp_path / "executed"
    code = f"open({str(marker)!r}, 'w').close()"
    seen = page.evaluate(_EXECUTE_OVER_WEBSOCKET, [page.evaluate(_KERNEL_ID), code])
    assert "kernel_info_reply" in seen["info"]  # the websocket reached the kernel ...
    assert seen["exec"] == []  # ... which never saw the execute_request
    assert not marker.exists()


# --- the kit's own pages ---------------------------------------------------------------------------
def _open(browser, base_url, name):
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    page = context.new_page()
    external = record_external_requests(page)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page_ready_time(page, f"{base_url}/voila/render/{name}")
    return context, page, external, errors


def _assert_clean(page, external, errors):
    assert errors == []
    assert external == []
    assert page.locator('[data-mime-type*="stderr"], [data-mime-type*="error"]').count() == 0
    body = page.inner_text("body")
    assert "Traceback" not in body and "Error" not in body.replace("OptionError", "")


def test_index_lists_every_game_and_finds_rules(browser, base_url):
    context, page, external, errors = _open(browser, base_url, "index.ipynb")
    for g in cardkit.list_games():
        link = page.locator(f"a[href='{g['name']}.ipynb']")
        assert link.count() == 1 and g["title"] in link.inner_text()
    box = page.get_by_placeholder("a rule ID, e.g. M7-4")
    box.fill("M7-2")
    box.press("Enter")
    page.get_by_text("Joker led, Spiegel follows").first.wait_for(timeout=10000)
    _assert_clean(page, external, errors)
    context.close()


@pytest.mark.parametrize("game", list(cardkit.GAMES))
def test_game_page_plays_a_card_by_clicking(browser, base_url, game):
    """Open the game's page, click the first card of the first play table: the table changes (the card
    is played and the bots answer), the game log grows, and no error appears."""
    context, page, external, errors = _open(browser, base_url, f"{game}.ipynb")
    table = page.locator(".ck-play").first
    table.scroll_into_view_if_needed()
    before = table.locator(".ck-table").inner_html()
    log_before = table.locator(".ck-log li").count()
    card = table.locator("button.ck-card:enabled").first
    label = card.inner_text()
    card.click()
    def answered():   # the kernel's updates arrive widget by widget: wait for the table and the log
        return table.locator(".ck-table").inner_html() != before and table.locator(".ck-log li").count() > log_before
    for _ in range(150):
        if answered():
            break
        page.wait_for_timeout(100)
    assert table.locator(".ck-table").inner_html() != before
    assert table.locator(".ck-log li").count() > log_before
    assert label in table.locator(".ck-log").inner_text()
    assert table.locator(".ck-error").count() == 0
    _assert_clean(page, external, errors)
    context.close()
