"""The static site (`cardkit build-static`): every page of notebooks/ as static files, Python (Pyodide) running
in the visitor's browser. Built once for the session from the real notebooks and served by Python's own
`http.server`, as any static host would serve it; driven in Debian's headless Chromium.

What a new user is promised (docs/publishing.md): the folder works on any static host; a reader sees the
rules at once, before Python has started (with JavaScript off, too); every page comes alive with no error and
no request leaving the machine; every link and anchor resolves; a whole game plays to its end against the
expert, with the Hint and the record to download; after a visit the site works with the network gone, on a
page visited and on one never visited; the site is installable (manifest, icons, service worker). What the
browser runs comes from the package registries, pinned, each file listed with the hash of its bytes."""
from __future__ import annotations

import gzip
import hashlib
import json
import os
import re
import struct
import subprocess
import sys
import sysconfig
import zipfile
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import TimeoutError as PlaywrightTimeout

import cardkit
from axe_check import assert_accessible
from cardkit.static_site import build
from site_server import (STATIC_READY, damaged_link_says_one_line, download_record, follow_link, page_error,
                         record_external_requests, serving_static, shared_example, table_log, wait_answered,
                         wait_example_shows, wait_log_changed)

ROOT = Path(__file__).resolve().parent.parent
PAGES = sorted(p.stem for p in (ROOT / "notebooks").glob("*.ipynb"))
READY_TIMEOUT = 180_000        # ms: Python's start in the browser, on a busy 2-core machine


# --- the build: what it ships -----------------------------------------------------------------------------
def _config(html: str) -> dict:
    m = re.search(r'<script id="jupyter-config-data" type="application/json">(.*?)</script>', html, re.S)
    return json.loads(m.group(1))


def test_the_lock_lists_exactly_the_files_shipped_with_their_hashes(static_site_dir):
    pyodide = static_site_dir / "static" / "pyodide"
    lock = json.loads((pyodide / "pyodide-lock.json").read_text())
    listed = {p["file_name"]: p["sha256"] for p in lock["packages"].values()}
    shipped = {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in pyodide.glob("*.whl")}
    assert listed == shipped
    for p in lock["packages"].values():               # what a package needs is shipped too
        assert set(p["depends"]) <= set(lock["packages"]), p["name"]
    pins = re.findall(r"^([\w.-]+)==", (ROOT / "cardkit" / "static_site" / "browser-requirements.txt").read_text(), re.M)
    names = set(lock["packages"])
    assert {re.sub(r"[-_.]+", "-", n).lower() for n in pins} <= names
    assert {"cardkit", "pyodide-kernel", "piplite", "ipykernel", "sqlite3", "jedi", "micropip"} <= names
    assert not names & {"prompt-toolkit", "wcwidth", "ipython-pygments-lexers"}   # for terminals and Sphinx
    for name in ("micropip", "jedi", "sqlite3"):                     # placeholders: nothing to import
        with zipfile.ZipFile(pyodide / lock["packages"][name]["file_name"]) as z:
            assert all(n.startswith(f"{name.replace('-', '_')}-0.dist-info/") for n in z.namelist()), name


def test_the_lock_is_in_pyodide_s_own_format_with_each_wheel_s_imports_and_dependencies(static_site_dir):
    """pyodide-lock.json as the `pyodide-lock` package writes it: the Pyodide core's `info`, each entry with the
    fields of the core's own lock, the imports of each wheel (found in its wheel before compiling) and what it
    depends on for Pyodide's Python, among what the site ships."""
    lock = json.loads((static_site_dir / "static" / "pyodide" / "pyodide-lock.json").read_text())
    core = json.loads((build.DEFAULT_CACHE / "npm" / "node_modules" / "pyodide" / "pyodide-lock.json").read_text())
    assert lock["info"] == core["info"]
    assert {tuple(sorted(p)) for p in lock["packages"].values()} == {tuple(sorted(p)) for p in core["packages"].values()}
    packages = lock["packages"]
    assert packages["cardkit"]["imports"] == ["cardkit", "widgets"] and packages["cardkit"]["depends"] == []
    assert packages["ipython"]["imports"] == ["IPython"] and packages["piplite"]["imports"] == ["piplite"]
    assert {"comm", "ipython", "traitlets", "widgetsnbextension"} <= set(packages["ipywidgets"]["depends"])
    assert packages["jedi"]["imports"] == [] and packages["jedi"]["version"] == "0"


def test_pygments_ships_the_one_lexer_the_kernel_uses(static_site_dir):
    with zipfile.ZipFile(next((static_site_dir / "static" / "pyodide").glob("pygments-*.whl"))) as z:
        lexers = {n for n in z.namelist() if n.startswith("pygments/lexers/")}
        mapping = z.read("pygments/lexers/_mapping.pyc")
    assert lexers == {"pygments/lexers/__init__.pyc", "pygments/lexers/_mapping.pyc", "pygments/lexers/python.pyc"}
    assert b"pygments.lexers.python" in mapping and b"pygments.lexers.shell" not in mapping   # its list matches


def test_the_same_site_gives_the_same_snapshot(static_site_dir, tmp_path):
    """A returning visitor's browser fetches the whole site again when any file of it changes: building the
    same site again must not change the snapshot (Python's start asks for random bytes and the time)."""
    from cardkit.static_site.build import memory_snapshot
    pyodide = static_site_dir / "static" / "pyodide"
    again = tmp_path / "pyodide"
    again.mkdir()
    for name in ("pyodide.js", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"):
        (again / name).symlink_to(pyodide / name)
    info = memory_snapshot(again)
    assert (again / info["file"]).read_bytes() == (pyodide / info["file"]).read_bytes()


def test_python_restored_from_the_snapshot_is_as_one_started_from_nothing(static_site_dir):
    """The memory snapshot the pages start from (made by the build, in UTC), restored as a page restores it,
    beside a Python started from nothing, here in Sydney's time zone: the same environment, path, folder, modules
    and time zone, and a random state of its own on every restore."""
    done = subprocess.run(["node", ROOT / "tests" / "snapshot_check.js", static_site_dir / "static" / "pyodide"],
                          capture_output=True, text=True, timeout=300, env={**os.environ, "TZ": "Australia/Sydney"})
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout)
    fresh, restored = seen["fresh"], seen["restored"]
    for one in restored:
        assert {k: one[k] for k in ("env", "path", "cwd", "modules", "zone")} == \
               {k: fresh[k] for k in ("env", "path", "cwd", "modules", "zone")}
    assert fresh["zone"][0] == -36000                                 # Sydney's standard time, not the build's
    assert len({fresh["random"], *(one["random"] for one in restored)}) == 3
    assert (static_site_dir / "static" / "pyodide" / "pyodide-memory.gz").stat().st_size < 5_000_000


def test_the_wheels_are_compiled_and_the_kit_wheel_is_this_checkout(static_site_dir):
    pyodide = static_site_dir / "static" / "pyodide"
    with zipfile.ZipFile(next(pyodide.glob("ipython-*.whl"))) as z:
        names = z.namelist()
    assert "IPython/__init__.pyc" in names and not [n for n in names if n.endswith(".py")]
    with zipfile.ZipFile(next(pyodide.glob("cardkit-*.whl"))) as z:
        kit = set(z.namelist())
        magic = {z.read(n)[:4] for n in kit if n.endswith(".pyc")}
        record = z.read(next(n for n in kit if n.endswith("RECORD"))).decode()
    with zipfile.ZipFile(next(pyodide.glob("ipython-*.whl"))) as z:
        assert magic == {z.read("IPython/__init__.pyc")[:4]}      # one compiler, Pyodide's Python, for all
    known = build.kit_modules()
    modules = {known[m].relative_to(ROOT).with_suffix(".pyc").as_posix() for m in build.browser_modules()}
    assert modules == {n for n in kit if n.endswith(".pyc")}   # every module a page imports, compiled, no other
    assert "cardkit/game.pyc,sha256=" in record and "cardkit/game.py," not in record


# What only a server, the command line or this build runs: never in the browser's wheel.
SERVER_ONLY = ("cardkit/site.pyc", "cardkit/cli.pyc", "cardkit/bench.pyc", "cardkit/tournament.pyc",
               "cardkit/impact/measure.pyc", "widgets/guard.pyc")


def test_the_kit_wheel_ships_no_server_module_nor_the_pdf_fonts(static_site_dir):
    with zipfile.ZipFile(next((static_site_dir / "static" / "pyodide").glob("cardkit-*.whl"))) as z:
        kit = set(z.namelist())
    assert not kit & set(SERVER_ONLY)
    assert not [n for n in kit if n.startswith(("cardkit/fonts/", "cardkit/voila_template/", "cardkit/static_site/"))
                or n.endswith((".dist-info/entry_points.txt", ".py")) or "__pycache__" in n]
    data = {n.split("/")[1] for n in kit if n.startswith("cardkit/") and not n.endswith(".pyc")}
    assert data == {"rules", "examples", "impact", "sources"}           # what the pages read
    for game in cardkit.GAMES:
        assert f"cardkit/rules/{game}.toml" in kit and f"cardkit/games/{game}.pyc" in kit


_PAGE_RUN = r"""
import json, sys
kit, packages, page = sys.argv[1:4]
sys.path[:] = [kit, *(p for p in sys.path if p), *json.loads(packages)]   # no cwd, no .pth
from IPython.display import display
ns = {"display": display}
for cell in json.loads(page)["cells"]:              # what the page runs in the browser, in the browser's order
    if cell["cell_type"] == "code":
        exec(compile("".join(cell["source"]), "<page>", "exec"), ns)
import cardkit
if "widgets" in sys.modules:                        # what a visitor's clicks import by name: bots and questions
    from cardkit.bots import game_bots
    from cardkit.exercises import kinds
    for game in cardkit.GAMES:
        game_bots(cardkit.load_game(game)), kinds(game)
print(json.dumps({n: getattr(m, "__file__", None) for n, m in list(sys.modules.items())
                  if n.split(".")[0] in ("cardkit", "widgets")}))
"""


def test_every_page_runs_with_only_the_modules_the_kit_wheel_ships(static_site_dir, tmp_path):
    """Each page's code as the browser runs it, in a Python that finds the kit only in what its wheel ships (the
    modules of this checkout that the wheel holds compiled, and its data files; the other packages from this
    environment): no page imports a module of the kit that the site does not ship."""
    kit = tmp_path / "kit"
    with zipfile.ZipFile(next((static_site_dir / "static" / "pyodide").glob("cardkit-*.whl"))) as z:
        for name in z.namelist():
            if name.split("/")[0].endswith(".dist-info"):
                continue
            to = kit / name.removesuffix("c") if name.endswith(".pyc") else kit / name
            to.parent.mkdir(parents=True, exist_ok=True)
            to.write_bytes((ROOT / to.relative_to(kit)).read_bytes() if name.endswith(".pyc") else z.read(name))
    packages = json.dumps(sorted({sysconfig.get_paths()[k] for k in ("purelib", "platlib")}))
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")} | {"CARDKIT_STATIC_SITE": "1"}
    imported = set()
    for name in PAGES:
        page = json.dumps(_config((static_site_dir / f"{name}.html").read_text())["notebookSrc"])
        done = subprocess.run([sys.executable, "-S", "-c", _PAGE_RUN, kit, packages, page], capture_output=True,
                              text=True, cwd=tmp_path, env=env, timeout=300)
        assert done.returncode == 0, f"{name}: {done.stderr[-3000:]}"
        seen = json.loads(done.stdout.splitlines()[-1])
        assert all(Path(f).is_relative_to(kit) for f in seen.values() if f), name     # the wheel's, no other
        imported |= set(seen)
    assert {"widgets.play", "widgets.index", "cardkit.bots.whist", "cardkit.exercises.faro"} <= imported
    assert imported <= build.browser_modules()


def test_the_modules_shipped_are_those_the_pages_import():
    """The kit's modules that the pages' code imports, with what they import in turn (at the top or inside a
    function, or by name), and nothing else: the server, the command line and this build stay out."""
    ships = build.browser_modules()
    assert {"cardkit", "cardkit.games.whist", "cardkit.bots.faro", "cardkit.exercises.common", "cardkit.impact",
            "cardkit.rulecard", "widgets", "widgets.browser_store", "widgets.play"} <= ships
    for rel in SERVER_ONLY:
        assert rel.removesuffix(".pyc").replace("/", ".") not in ships
    assert not [m for m in ships if m.startswith(("cardkit.static_site", "cardkit.voila_template"))]


def test_every_page_runs_python_from_the_site_itself(static_site_dir):
    for name in PAGES:
        html = (static_site_dir / f"{name}.html").read_text()
        config = _config(html)
        kernel = config["litePluginSettings"]["@jupyterlite/pyodide-kernel-extension:kernel"]
        assert kernel["disablePyPIFallback"] is True and kernel["pyodideUrl"] == "./static/pyodide/pyodide-preload.js"
        assert "pipliteUrls" not in kernel
        assert config["baseUrl"] == "./"          # relative: the site works under any sub-path
        assert not re.search(r"""(?:src|href)=["']https?://""", html), name


def _sw_manifest(site: Path) -> dict:
    """The service worker's precache manifest (Workbox's entries), by address."""
    sw = (site / "service-worker.js").read_text()
    return {e["url"]: e for e in json.loads(re.search(r"const MANIFEST = (\[.*?\]);", sw, re.S).group(1))}


def test_the_service_worker_lists_every_file_with_its_hash(static_site_dir):
    """Workbox's precache manifest: every file of the site with its revision, its integrity (the browser checks the
    bytes it fetches) and its size; Workbox's scripts and JupyterLite's worker imported by addresses that carry
    their content's hash (imported scripts go through the HTTP cache)."""
    import base64
    sw = (static_site_dir / "service-worker.js").read_text()
    files = _sw_manifest(static_site_dir)
    on_disk = {p.relative_to(static_site_dir).as_posix() for p in static_site_dir.rglob("*") if p.is_file()}
    assert set(files) == on_disk - {"service-worker.js", build.MANIFEST}
    for rel in ("index.html", "sieben.html", "static/pyodide/pyodide.asm.wasm", "manifest.webmanifest"):
        digest = hashlib.sha256((static_site_dir / rel).read_bytes())
        assert files[rel] == {"url": rel, "revision": digest.hexdigest()[:16], "size": (static_site_dir / rel).stat().st_size,
                              "integrity": "sha256-" + base64.b64encode(digest.digest()).decode()}
    jl = files["jupyterlite-service-worker.js"]["revision"]
    assert f'importScripts("jupyterlite-service-worker.js?v={jl}")' in sw
    for name in ("core", "routing", "strategies", "precaching"):
        rel = f"static/workbox/workbox-{name}.prod.js"
        assert f'"{rel}?v={files[rel]["revision"]}"' in sw
    assert "static/workbox/workbox-window.prod.umd.js" in files
    assert not re.search(r"https?://", sw.split("const MANIFEST")[0].split("*/", 1)[1])     # nothing from a CDN


def test_the_site_lists_the_files_it_wrote_so_a_rebuild_touches_only_those(static_site_dir):
    listed = build.check_target(static_site_dir)
    on_disk = {p.relative_to(static_site_dir).as_posix(): p for p in static_site_dir.rglob("*") if p.is_file()}
    assert set(listed) == set(on_disk) - {build.MANIFEST}
    for rel in ("index.html", "service-worker.js", "static/pyodide/pyodide.asm.wasm"):
        assert listed[rel] == hashlib.sha256(on_disk[rel].read_bytes()).hexdigest()


def test_the_tools_were_as_the_build_expects_no_fallback_taken(static_site_dir):
    """Every assumption about Voici, JupyterLite, the Pyodide kernel and Pyodide held (upstream.py): the site's
    manifest records no fallback, and the page starts its kernel's worker early from the kernel's own chunk."""
    assert json.loads((static_site_dir / build.MANIFEST).read_text())["fallbacks"] == []
    worker = (static_site_dir / "static" / "pyodide" / "kernel-worker.js").read_text()
    chunk = re.search(r'importScripts\("\.\./\.\./extensions/@jupyterlite/pyodide-kernel-extension/static/([^"]+)"\)',
                      worker).group(1)
    assert f'chunk = "{chunk}"' in (static_site_dir / "faro.html").read_text()


def test_the_site_is_installable_as_an_app(static_site_dir):
    manifest = json.loads((static_site_dir / "manifest.webmanifest").read_text())
    assert manifest["display"] == "standalone" and manifest["start_url"] == "index.html"
    sizes = set()
    for icon in manifest["icons"]:
        data = (static_site_dir / icon["src"]).read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n"
        w, h = struct.unpack(">II", data[16:24])
        assert f"{w}x{h}" == icon["sizes"]
        sizes.add(w)
    assert {192, 512} <= sizes
    for name in PAGES:
        assert '<link rel="manifest" href="manifest.webmanifest">' in (static_site_dir / f"{name}.html").read_text()


# --- reading never waits for Python ------------------------------------------------------------------------
class _Text(HTMLParser):
    def __init__(self):
        super().__init__()
        self.ids, self.links, self.text, self._skip = set(), [], [], 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids.add(a["id"])
        if tag == "a" and a.get("href"):
            self.links.append(a["href"])
        if tag in ("script", "style"):
            self._skip += 1

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self._skip -= 1

    def handle_data(self, data):
        if not self._skip:
            self.text.append(data)


def _parse(path: Path) -> _Text:
    p = _Text()
    p.feed(path.read_text())
    return p


@pytest.mark.parametrize("game", list(cardkit.GAMES))
def test_a_game_page_carries_every_rule_as_static_html(static_site_dir, game):
    """Before any script runs, the page as served holds the text of every rule and its quotations."""
    parsed = _parse(static_site_dir / f"{game}.html")
    text = " ".join(" ".join(parsed.text).split())
    book = cardkit.load_game(game).rulebook
    missing = [r.id for r in book.rules if r.id not in parsed.ids]
    assert not missing, f"rules not on the page as served: {missing}"
    for r in book.rules[:5]:
        for c in r.cite[:1]:
            if c.english:
                assert " ".join(c.english.split())[:40] in text


def test_with_javascript_off_the_rules_tables_and_plots_are_there(chromium, static_url, tmp_path):
    context = chromium.new_context(java_script_enabled=False, viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(f"{static_url}/sieben.html")
    assert page.locator("h1").first.inner_text().startswith("Sieben")
    assert page.locator("section#S7-1").is_visible()
    assert page.locator("table.ck-table").count() >= 3                    # the rule tables, the plots' figures
    assert page.locator(".ck-impact-plot img").count() >= 1
    assert page.locator(".ck-still button", has_text="Deal the cards").is_visible()   # the table, waiting
    assert "A practice table" in page.locator(".ck-practice").inner_text()           # and what it is
    page.screenshot(path=tmp_path / "no-js.png")
    context.close()


# --- every page comes alive ----------------------------------------------------------------------------------
def _open(browser, url: str, width=1280, height=900, routes=(), **context_args):
    context = browser.new_context(viewport={"width": width, "height": height}, **context_args)
    for pattern, handler in routes:
        context.route(pattern, handler)
    page = context.new_page()
    page.errors, page.warnings, page.failed = [], [], []
    page.on("pageerror", lambda e: page.errors.append(page_error(e)))
    page.on("console", lambda m: {"error": page.errors, "warning": page.warnings}.get(m.type, []).append(m.text))
    page.on("response", lambda r: page.failed.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    page.external = record_external_requests(page)
    page.requested = []
    page.on("request", lambda r: page.requested.append(urlsplit(r.url).path))
    page.context_ = context
    page.goto(url)
    return page


def _ready(page):
    page.wait_for_function(STATIC_READY, timeout=READY_TIMEOUT)


def _python_started_once(page, prefix=""):
    """Python started once, from the page's head: the kernel runs in the worker the page created at once (not
    in one of its own, which would start a second Pyodide)."""
    assert [urlsplit(w.url).path for w in page.workers] == [f"{prefix}/static/pyodide/kernel-worker.js"]
    assert [u for u in page.requested if u.endswith("/pyodide.asm.wasm")] == [f"{prefix}/static/pyodide/pyodide.asm.wasm"]
    assert [u for u in page.requested if u.endswith(".gz")] == [f"{prefix}/static/pyodide/pyodide-memory.gz"]
    assert _from_snapshot(page)


def _from_snapshot(page) -> bool:
    """Whether the page's Python was restored from the build's memory snapshot (pyodide-preload.js)."""
    return page.workers[0].evaluate("() => self.ckFromSnapshot === true")


def _alive_and_linked(page, static_url, static_site_dir, name, prefix=""):
    """What every page must do once Python is ready: every widget live (no still picture left waiting), no error
    on the page or from Python, nothing fetched from elsewhere, and every link leading to a file of the site and
    to an anchor that is there. `prefix`: the folder of a larger site the site is published in ("/rules/cards")."""
    _ready(page)
    page.wait_for_function("() => !document.querySelector('.ck-static.ck-waiting')", timeout=30000)
    assert page.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']").count() == 0
    assert page.locator(".ck-error").count() == 0, page.locator(".ck-error").all_inner_texts()
    assert (page.errors, page.failed, page.external) == ([], [], [])
    _python_started_once(page, prefix)
    # every link of the live page, widgets' links included: a file of the site, and its #anchor on that page
    links = page.evaluate("() => [...document.querySelectorAll('a[href]')].map(a => a.getAttribute('href'))")
    ids_here = set(page.evaluate("() => [...document.querySelectorAll('[id]')].map(e => e.id)"))
    broken = []
    for href in set(links):
        if href.startswith(("http://", "https://", "mailto:", "data:")):
            continue
        url = urlsplit(urljoin(f"{static_url}/{name}.html", href))
        target = url.path.removeprefix(prefix).lstrip("/") or "index.html"
        # a browser looks for the fragment as written, then percent-decoded (the HTML standard)
        fragments = {url.fragment, unquote(url.fragment)}
        if not (static_site_dir / target).is_file():
            broken.append(href)
        elif url.fragment and target == f"{name}.html":
            broken += [href] if not fragments & ids_here else []
        elif url.fragment and target.endswith(".html"):
            broken += [href] if not fragments & _parse(static_site_dir / target).ids else []
    assert not broken, f"links that lead nowhere: {sorted(broken)[:10]}"
    # for every reader: axe-core finds no WCAG 2.1 A/AA violation, at the page's width and at the other one
    # (a desktop's 1280 px, a phone's 390 px); the page is left at its own width
    own = page.viewport_size
    other = {"width": 390, "height": 844} if own["width"] > 600 else {"width": 1280, "height": 900}
    for size in (own, other):
        page.set_viewport_size(size)
        assert_accessible(page, f"the static {name}.html at {size['width']} px")
    page.set_viewport_size(own)


# The pages that another test below opens anyway get these checks there: a cold start of Python in the browser
# costs about 11 s of CPU, the most expensive step of the whole suite.
CHECKED_WHERE_PLAYED = {"sieben": "the switches", "index": "the rule finder", "vingt_et_un": "the odds",
                        "magische7": "a whole game", "ecarte": "two people at one screen", "whist": "a phone",
                        "faro": "a shared example", "vierundzwanzig": "under a sub path"}


def _opens_a_shared_example(page, game):
    """A link to an example of `game` followed on its open page shows that example at its step, as the kit's Replay
    narrates it (issue 37: a link made on each game's page opens the identical example here as on the Voilà page,
    tests/test_site.py). On a page a test opened anyway: no Python started for it."""
    fragment, line = shared_example(game)
    follow_link(page, fragment)
    wait_example_shows(page, line)


@pytest.mark.parametrize("name", [p for p in PAGES if p not in CHECKED_WHERE_PLAYED])
def test_every_page_comes_alive_and_every_link_resolves(chromium, static_url, static_site_dir, name):
    page = _open(chromium, f"{static_url}/{name}.html")
    assert page.locator("#ck-page").is_visible()                 # the page, before Python is ready
    _alive_and_linked(page, static_url, static_site_dir, name)
    if name in cardkit.GAMES:
        _opens_a_shared_example(page, name)
    page.context_.close()


def test_the_pages_checked_where_they_are_played_are_pages_of_the_site():
    assert set(CHECKED_WHERE_PLAYED) <= set(PAGES)


def test_a_phone_reads_the_page_at_once_and_nothing_is_wider_than_the_screen(chromium, static_url, static_site_dir):
    """Whist on a phone (390 px, touch): the page, its table and a shared example no wider than the screen; then
    a hand laid out by tapping cards in the example's editor (issue 37) is dealt as tapped."""
    page = _open(chromium, f"{static_url}/whist.html", width=390, height=844, has_touch=True, is_mobile=True)
    assert page.locator("#ck-python").is_visible() and page.locator("#ck-page").is_visible()
    _alive_and_linked(page, static_url, static_site_dir, "whist")
    page.locator(".ck-play-start").first.tap()
    page.wait_for_selector(".ck-play .ck-card", timeout=60000)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    _opens_a_shared_example(page, "whist")                       # a shared example on a phone: no wider either
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    _taps_a_hand_into_the_example(page)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert (page.errors, page.failed, page.external) == ([], [], [])
    page.context_.close()


def _taps_a_hand_into_the_example(page):
    """The example's editor on a touch screen: a seat chosen, three cards tapped into its box (each shows there),
    the last taken back, the hand dealt: the example's replay, where the deal is complete, has those cards in that
    hand."""
    ex = page.locator(".ck-example")
    ex.locator(".ck-example-edit").tap()                            # "Change the hand ▸": the editor again
    seat = ex.locator(".ck-example-target button").nth(1)
    seat.tap()
    name = seat.inner_text().strip()
    page.wait_for_function("(b) => b.classList.contains('mod-active')", arg=seat.element_handle(), timeout=10000)
    box = ex.locator(".ck-example-hand input").nth(1)
    tapped = []
    for i in (0, 5, 9):
        card = ex.locator(".ck-example-picker button").nth(i)
        tapped.append(card.inner_text().strip())
        card.tap()
        page.wait_for_function("([b, n]) => b.value.split(/\\s+/).filter(Boolean).length === n",
                               arg=[box.element_handle(), len(tapped)], timeout=10000)
    typed = box.input_value().split()
    ex.get_by_role("button", name="Take back the last card").tap()
    page.wait_for_function("(b) => b.value.split(/\\s+/).filter(Boolean).length === 2", arg=box.element_handle(),
                           timeout=10000)
    assert box.input_value().split() == typed[:2]
    ex.locator(".ck-example-deal").tap()
    # the dealt example opens where the deal is complete (Whist: the deal and the turned trump, step 2 of 2)
    page.wait_for_function("() => document.querySelector('.ck-example .ck-alert') || [...document.querySelectorAll("
                           "'.ck-example .ck-narration')].some((x) => /^Step (\\d+)\\/\\1:/.test(x.innerText.trim()))",
                           timeout=60000)
    assert ex.locator(".ck-alert").count() == 0, ex.locator(".ck-alert").all_inner_texts()
    hands = page.evaluate("""(name) => [...document.querySelectorAll('.ck-example-view .ck-seat')]
        .filter((s) => (s.querySelector('.ck-seat-name') || {innerText: ''}).innerText.includes(name))
        .map((s) => s.innerText)""", name)
    assert len(hands) == 1 and all(card in hands[0] for card in tapped[:2]), hands


def test_the_site_works_under_a_sub_path(chromium, static_site_dir, tmp_path):
    """Published as a folder of a larger site (GitHub Pages: https://user.github.io/repository/): every
    address is relative, so a page, its Python and every link of the live page work there as at the root (24's
    page: with the checks every page gets, and a link to an example followed). This host also sends the
    compressed snapshot as gzip-encoded (some do, for files ending in .gz): the browser hands the page the file
    unpacked, and the page restores Python from it all the same."""
    host = tmp_path / "host"
    (host / "rules").mkdir(parents=True)
    (host / "rules" / "cards").symlink_to(static_site_dir, target_is_directory=True)
    unpacked = gzip.decompress((static_site_dir / "static" / "pyodide" / "pyodide-memory.gz").read_bytes())
    encoded = ("**/pyodide-memory.gz", lambda route: route.fulfill(status=200, body=unpacked,
                                                                   content_type="application/octet-stream"))
    with serving_static(host) as base:
        page = _open(chromium, f"{base}/rules/cards/vierundzwanzig.html", routes=[encoded])
        assert page.locator("#ck-page").is_visible()                 # the page, before Python is ready
        _alive_and_linked(page, f"{base}/rules/cards", static_site_dir, "vierundzwanzig", prefix="/rules/cards")
        assert page.locator("a[href='index.html']").count() > 0      # the way back to the front page, relative
        _opens_a_shared_example(page, "vierundzwanzig")
        assert (page.errors, page.failed, page.external) == ([], [], [])
        page.context_.close()


def test_a_shared_example_opens_at_its_step_and_a_link_followed_on_the_page_too(chromium, static_url, static_site_dir):
    """A link to a reader's own example (issue 37; cardkit.share.to_link) opens the page with that example at the
    link's step, as on the Voilà page (test_site.py) and as the kit's Replay narrates it, brought into view; the
    example's own link is this page's address with the same fragment, and its QR code is drawn in the browser
    (segno, shipped with the site); a damaged link followed on the page says so in one plain line, and a good one
    opens its example. With the checks every page gets, the open example included."""
    fragment, line = shared_example("faro")
    page = _open(chromium, f"{static_url}/faro.html#{fragment}")
    _ready(page)
    wait_example_shows(page, line)
    page.wait_for_function("""() => { const fed = document.querySelector('.ck-example-inbox input[data-ck-fed]');
        const top = fed.closest('.ck-example').getBoundingClientRect().top; return top > -2 && top < innerHeight; }""",
                           timeout=10000)
    example = page.locator(".ck-example").last
    assert example.locator("a.ck-share-link").get_attribute("href") == f"{static_url}/faro.html#{fragment}"
    assert example.locator(".ck-share-qr svg").count() == 1
    _alive_and_linked(page, static_url, static_site_dir, "faro")
    damaged_link_says_one_line(page, "faro")
    fragment, line = shared_example("faro", step=20)
    follow_link(page, fragment)
    wait_example_shows(page, line)
    assert (page.errors, page.failed, page.external) == ([], [], [])
    page.context_.close()


# --- a whole game, against the expert, with the Hint and the record ----------------------------------------------
def _click_and_wait(page, table, locator, whole=False):
    """Click and wait until the table's log changes; `whole`: until the computer's replies are in too."""
    before = table_log(table)
    locator.click()
    (wait_answered if whole else wait_log_changed)(page, table, before, timeout=60000)


def test_a_whole_game_against_the_expert_with_the_hint_and_the_record(chromium, static_url, static_site_dir, tmp_path):
    page = _open(chromium, f"{static_url}/magische7.html", accept_downloads=True)
    assert page.locator("#ck-page").is_visible()                 # the page, before Python is ready
    _alive_and_linked(page, static_url, static_site_dir, "magische7")
    page.locator(".ck-play-start").first.click()
    table = page.locator(".ck-play").first
    table.wait_for(timeout=60000)
    table.locator("button", has_text="Options…").click()
    page.wait_for_function("(t) => t.querySelectorAll('select').length > 0", arg=table.element_handle(), timeout=30000)
    table.locator("select").last.select_option(label="expert (thinks ahead)")
    page.wait_for_timeout(500)
    hand = table.locator(".widget-hbox").nth(1).inner_html()
    table.locator("button", has_text="New game").click()             # a new deal: another hand
    page.wait_for_function("([t, h]) => t.querySelectorAll('.widget-hbox')[1].innerHTML !== h",
                           arg=[table.element_handle(), hand], timeout=60000)
    page.wait_for_function("(t) => t.querySelector('button.ck-card.ck-playable:not(:disabled)')",
                           arg=table.element_handle(), timeout=60000)
    table.locator("button", has_text="Hint").click()
    hint = table.locator(".ck-hint")
    hint.wait_for(timeout=60000)
    assert "The expert would" in hint.inner_text() or "one choice only" in hint.inner_text()
    for _ in range(60):
        page.wait_for_function("""(t) => t.querySelector('a.ck-download') ||
            t.querySelector('button.ck-action:not(:disabled)') ||
            t.querySelector('button.ck-card.ck-playable:not(:disabled)')""", arg=table.element_handle(), timeout=60000)
        if table.locator("a.ck-download").count():
            break
        choice = table.locator("button.ck-action:not(:disabled)")
        _click_and_wait(page, table, choice.first if choice.count() else table.locator("button.ck-card.ck-playable").first,
                        whole=True)
    record = download_record(page, table, tmp_path, "magische7")
    table.locator("button", has_text="Review my game").click()       # the expert reviews it, in the browser
    page.wait_for_function("(t) => [...t.querySelectorAll('.ck-review')].some(r => /decision/.test(r.innerText))",
                           arg=table.element_handle(), timeout=120000)
    table.locator("a.ck-example-link", has_text="Open this game as a worked example").click()
    page.wait_for_function("() => [...document.querySelectorAll('.ck-example .ck-narration')].some(x => /^Step \\d+\\/\\d+:/.test(x.innerText))",
                           timeout=60000)                          # the game played, as a worked example
    assert f"/{len(record.actions)}:" in page.locator(".ck-example .ck-narration").first.inner_text()
    assert (page.errors, page.failed, page.external) == ([], [], [])
    page.context_.close()


def test_the_switches_replays_odds_and_the_rule_finder_work(chromium, static_url, static_site_dir):
    """Every kind of widget the pages use, live in the browser: a replay stepped through, a disputed rule's
    example replayed under the other reading, a table the engine works out switched to a variation, the
    landing page's rule finder, and the banking games' exact odds."""
    page = _open(chromium, f"{static_url}/sieben.html")
    assert page.locator("#ck-page").is_visible()                 # the page, before Python is ready
    _alive_and_linked(page, static_url, static_site_dir, "sieben")
    replay = page.locator(".ck-replay").first
    replay.locator("button", has_text="Step through").click()
    replay.locator("button", has_text="▶|").wait_for(timeout=30000)
    before = replay.inner_text()
    replay.locator("button", has_text="▶|").click()
    page.wait_for_function("([r, b]) => r.innerText !== b", arg=[replay.element_handle(), before], timeout=30000)
    card = page.locator("section#S7-3\\.2").locator("xpath=ancestor::div[@cell-index]")
    card.locator("button", has_text="Step through it").click()
    switch = card.locator(".widget-toggle-buttons button")
    switch.first.wait_for(timeout=30000)
    shown = card.locator(".ck-replay").inner_text()
    switch.nth(1).click()
    page.wait_for_function("([c, b]) => c.querySelector('.ck-replay').innerText !== b",
                           arg=[card.element_handle(), shown], timeout=30000)
    rules_table = page.locator("section#S7-1").locator("xpath=ancestor::div[@cell-index]")
    select = rules_table.locator("select").first
    table_before = rules_table.locator("table").last.inner_html()
    select.select_option(index=1)
    page.wait_for_function("([c, b]) => [...c.querySelectorAll('table')].pop().innerHTML !== b",
                           arg=[rules_table.element_handle(), table_before], timeout=30000)
    _opens_a_shared_example(page, "sieben")
    assert (page.errors, page.failed, page.external) == ([], [], [])
    page.context_.close()

    page = _open(chromium, f"{static_url}/index.html")
    assert page.locator("#ck-page").is_visible()                 # the page, before Python is ready
    _alive_and_linked(page, static_url, static_site_dir, "index")
    finder = page.locator("input[type=text]").first
    finder.fill("spiegel")
    finder.press("Enter")
    page.wait_for_function("() => /rules? with/.test(document.body.innerText)", timeout=30000)
    assert page.locator("a", has_text="M7-").count() > 0
    page.context_.close()

    page = _open(chromium, f"{static_url}/vingt_et_un.html")
    assert page.locator("#ck-page").is_visible()                 # the page, before Python is ready
    _alive_and_linked(page, static_url, static_site_dir, "vingt_et_un")
    page.locator(".ck-play-start").first.click()
    table = page.locator(".ck-play").first
    table.locator("button", has_text="Odds").click()
    page.wait_for_function("(t) => /odds|chance/i.test(t.innerText) && /%/.test(t.innerText)",
                           arg=table.element_handle(), timeout=60000)
    _opens_a_shared_example(page, "vingt_et_un")
    assert (page.errors, page.failed, page.external) == ([], [], [])
    page.context_.close()


# --- learn by doing ---------------------------------------------------------------------------------------------
def test_a_new_user_answers_a_question_takes_the_rules_along_and_finds_a_game_after_a_reload(chromium, static_url,
                                                                                           static_site_dir):
    """The rules card and its PDF are in the page as served (before Python); once Python is ready in the
    browser, the questions are made, answered and explained there; the card prints alone on one or two pages.
    Then a game under way comes back after a reload: on the static site Python starts anew with every page
    load; the table keeps its game in the browser (IndexedDB), and the reloaded page offers it back: the same
    hand and log, the game going on."""
    from test_learn_pages import answer_a_question, pages_of, print_the_card
    served = (static_site_dir / "sieben.html").read_text()
    assert "id='ck-card-sieben'" in served and "download='sieben-rules.pdf'" in served
    assert "data:application/pdf;base64,JVBERi" in served                # "%PDF" in base64: drawn at build time
    page = _open(chromium, f"{static_url}/sieben.html")
    _ready(page)
    text = answer_a_question(page)
    assert text.startswith(("Right.", "Not quite.")) and "[S7-" in text
    rule = page.locator(".ck-quiz-feedback a.ck-rule-link").first.inner_text()
    assert page.locator(f"section[id='{rule}']").count() == 1
    assert 1 <= pages_of(print_the_card(page, "sieben")) <= 2
    page.locator(".ck-play-start").first.click()
    table = page.locator(".ck-play").first
    page.wait_for_function("(t) => t.querySelector('button.ck-card.ck-playable:not(:disabled)')",
                           arg=table.element_handle(), timeout=60000)
    _click_and_wait(page, table, table.locator("button.ck-card.ck-playable").first, whole=True)
    page.wait_for_timeout(1000)               # the browser's storage is written after the move
    log = table_log(table)
    page.reload()
    _ready(page)
    back = page.locator(".ck-play-resume")
    back.wait_for(timeout=60000)
    assert "this browser kept it" in page.locator(".ck-kept").inner_text()
    back.click()
    table = page.locator(".ck-play").first
    page.wait_for_function("(t) => t.querySelector('.ck-logbox')", arg=table.element_handle(), timeout=60000)
    assert table_log(table) == log
    assert (page.errors, page.failed, page.external) == ([], [], [])
    page.context_.close()


# --- offline ---------------------------------------------------------------------------------------------------
_CACHED = """async () => {
  const out = [];
  for (const name of await caches.keys()) {
    if (name.startsWith("workbox-precache")) for (const r of await (await caches.open(name)).keys()) out.push(r.url);
  }
  return out;
}"""


def _cached(page, base: str) -> dict:
    """What the site's service worker keeps: address (from the site's root) -> revision."""
    out = {}
    for url in page.evaluate(_CACHED):
        parts = urlsplit(url)
        assert f"{parts.scheme}://{parts.netloc}" == base
        out[parts.path.lstrip("/")] = dict(p.split("=", 1) for p in parts.query.split("&"))["__WB_REVISION__"]
    return out


def _offline_state(page, state: str, timeout=READY_TIMEOUT):
    page.wait_for_function("(s) => document.querySelector('.ck-offline')?.dataset.state === s", arg=state,
                           timeout=timeout)


def test_after_a_visit_the_site_works_with_the_network_gone(chromium, static_site_dir, tmp_path):
    """Visit one page while the server runs: the service worker keeps that page and what it loaded, and nothing
    more (no other page, a fraction of the site). "Save every page" keeps the whole site, each file checked
    against the build's hash. Then the server is stopped: the page visited reloads and plays, and a page never
    visited opens and plays."""
    manifest = _sw_manifest(static_site_dir)
    total = sum(e["size"] for e in manifest.values())
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors, requested = [], set()
    page.on("pageerror", lambda e: errors.append(page_error(e)))
    page.on("request", lambda r: requested.add(urlsplit(r.url).path.lstrip("/") or "index.html"))
    with serving_static(static_site_dir) as base:
        page.goto(f"{base}/sieben.html")
        _ready(page)
        _offline_state(page, "kept", 60000)
        line = page.locator(".ck-offline")
        assert line.inner_text().startswith("This page works offline.")
        button = line.locator("button", has_text="Save every page")
        assert f"({total / 1e6:.1f} MB)" in button.inner_text()
        _screenshots(page, tmp_path / "kept")
        kept = _cached(page, base)
        assert "sieben.html" in kept and "static/pyodide/pyodide.asm.wasm" in kept
        assert [rel for rel in kept if rel.endswith(".html")] == ["sieben.html"]          # no other page
        app = {"manifest.webmanifest"} | {rel for rel in manifest if rel.startswith("icon-")}
        assert set(kept) <= requested | app, set(kept) - requested                   # what this page loaded
        assert all(manifest[rel]["revision"] == rev for rel, rev in kept.items())
        others = sum(e["size"] for rel, e in manifest.items() if rel.endswith(".html") and rel != "sieben.html")
        assert sum(manifest[rel]["size"] for rel in kept) <= total - others     # (Python is most of a page's load)
        button.click()                                                       # the visitor asks: the whole site
        _offline_state(page, "complete")
        assert "every page works without a network" in line.inner_text()
        assert _cached(page, base) == {rel: e["revision"] for rel, e in manifest.items()}
        # Chromium's own check that the page can be installed as an app (manifest, icons, service worker,
        # a secure origin); a test browser's context is private, which is all it may say against it
        installable = context.new_cdp_session(page).send("Page.getInstallabilityErrors")
        assert [e["errorId"] for e in installable["installabilityErrors"]] in ([], ["in-incognito"]), installable
    with pytest.raises(OSError):                                              # the server is gone
        __import__("urllib.request").request.urlopen(f"{base}/index.html", timeout=3)
    for name in ("sieben", "whist"):
        page.goto(f"{base}/{name}.html")
        assert page.locator("h1").first.is_visible()
        _ready(page)
        assert _from_snapshot(page)
        page.locator(".ck-play-start").first.click()
        page.wait_for_selector(".ck-play button.ck-card.ck-playable:not(:disabled)", timeout=60000)
        table = page.locator(".ck-play").first
        _click_and_wait(page, table, table.locator("button.ck-card.ck-playable").first)
    assert errors == []
    context.close()


def test_installed_as_an_app_the_whole_site_is_saved_and_a_page_never_opened_plays_offline(chromium, static_site_dir,
                                                                                            tmp_path):
    """The site installed as an app and launched from it: Chromium's `--app=URL` (an app window on the manifest's
    start_url, index.html), where the page's `display-mode: standalone` holds as in an installed app launched
    from a phone's home screen or a desktop's menu; that media query is what the page reads as "installed"
    (CDP's Emulation.setEmulatedMedia does not emulate display-mode in Chromium 156's headless mode: it still
    matches `browser`). Without a click, the whole site is saved (every file of the build's list, at its
    revision); then, with the server gone, a page never opened is opened by a link to a reader's example on it
    (issue 37: the friend opens it offline from the installed site): the example shows at its step as the kit's
    Replay narrates it, and the page's table plays. About 20 s of wall."""
    manifest = _sw_manifest(static_site_dir)
    with serving_static(static_site_dir) as base:
        start = urljoin(f"{base}/", json.loads((static_site_dir / "manifest.webmanifest").read_text())["start_url"])
        context, page, errors = _profile_page(chromium, tmp_path / "profile", f"--app={start}")
        try:
            page.wait_for_load_state()
            assert page.url == start and page.evaluate("() => matchMedia('(display-mode: standalone)').matches")
            _ready(page)
            _offline_state(page, "complete")                          # nobody asked: the app saved it all
            assert "every page works without a network" in page.locator(".ck-offline").inner_text()
            assert _cached(page, base) == {rel: e["revision"] for rel, e in manifest.items()}
        except BaseException:
            context.close()
            raise
    try:
        with pytest.raises(OSError):                                              # the server is gone
            __import__("urllib.request").request.urlopen(start, timeout=3)
        fragment, line = shared_example("sieben")
        page.goto(f"{base}/sieben.html#{fragment}")                               # never opened, by a link
        assert page.evaluate("() => matchMedia('(display-mode: standalone)').matches")
        _ready(page)
        wait_example_shows(page, line)                                            # the friend's example, offline
        page.locator(".ck-play-start").first.click()
        page.wait_for_selector(".ck-play button.ck-card.ck-playable:not(:disabled)", timeout=60000)
        table = page.locator(".ck-play").first
        _click_and_wait(page, table, table.locator("button.ck-card.ck-playable").first)
        assert errors == []
    finally:
        context.close()


def _profile_page(chromium, profile: Path, *args: str):
    """A browser that keeps its profile in `profile` (its service workers and caches, as a returning
    visitor's), its first page, and the list that page's script errors go to. Close the context after. An app
    window (`--app=URL`) gets the browser itself (`chromium_executable`)."""
    from cardkit.site import CHROMIUM_ARGS, chromium_executable
    context = chromium.browser_type.launch_persistent_context(
        profile, executable_path=chromium_executable(args), headless=True, args=[*CHROMIUM_ARGS, *args],
        viewport={"width": 1280, "height": 900})
    page = context.pages[0] if context.pages else context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(page_error(e)))
    return context, page, errors


def _screenshots(page, stem: Path) -> None:
    """The page as it is now, at 1280 and at 390 pixels wide (a phone)."""
    page.screenshot(path=f"{stem}-1280.png")
    size = page.viewport_size
    page.set_viewport_size({"width": 390, "height": 800})
    page.screenshot(path=f"{stem}-390.png")
    page.set_viewport_size(size)


def test_on_a_connection_that_saves_data_the_site_is_not_saved_whole(chromium, static_url, tmp_path):
    """A browser that says its connection saves data (navigator.connection.saveData, a phone's Data Saver): the
    page it opened is kept, "Save every page" says why it saves nothing more, and nothing more is kept."""
    context = chromium.new_context(viewport={"width": 390, "height": 800})
    context.add_init_script("Object.defineProperty(NetworkInformation.prototype, 'saveData', { get: () => true })")
    page = context.new_page()
    page.goto(f"{static_url}/faro.html")
    _ready(page)
    _offline_state(page, "kept", 60000)
    page.locator(".ck-offline button", has_text="Save every page").click()
    _offline_state(page, "save-data", 5000)
    assert page.locator(".ck-offline").inner_text().startswith("Not saved: your connection is set to save data.")
    _screenshots(page, tmp_path / "save-data")
    page.wait_for_timeout(1500)
    assert [rel for rel in _cached(page, static_url) if rel.endswith(".html")] == ["faro.html"]
    context.close()


def test_the_service_worker_itself_saves_no_whole_site_on_a_connection_that_saves_data(chromium, static_site_dir,
                                                                                        tmp_path):
    """The service worker reads the connection too (navigator.connection.saveData, as a worker sees it): asked for
    the whole site by any page (here a message straight to it, past the page's own check), it keeps nothing more
    and says why, and the page shows that. A browser's worker cannot be told it saves data from a test: a copy of
    the site whose worker says so (its first line) stands in. A page load, no wait for Python (about 5 s)."""
    site = tmp_path / "site"
    site.mkdir()
    for p in static_site_dir.iterdir():
        if p.name != "service-worker.js":
            (site / p.name).symlink_to(p)
    (site / "service-worker.js").write_text(
        "Object.defineProperty(NetworkInformation.prototype, 'saveData', { get: () => true });\n"
        + (static_site_dir / "service-worker.js").read_text())
    context = chromium.new_context(viewport={"width": 390, "height": 800})
    page = context.new_page()
    with serving_static(site) as base:
        page.goto(f"{base}/faro.html")
        page.evaluate("navigator.serviceWorker.ready.then((r) => { r.active.postMessage({ type: 'cardkit-precache' }); })")
        _offline_state(page, "save-data", 60000)
        assert page.locator(".ck-offline").inner_text().startswith("Not saved: your connection is set to save data.")
        page.wait_for_timeout(1500)
        kept = _cached(page, base)
        assert not [rel for rel in kept if rel.endswith(".html") and rel != "faro.html"]
        assert len(kept) < len(_sw_manifest(static_site_dir)) / 4
    context.close()


# the title of every document the tab shows, in order (kept across its reloads)
_TITLES = """addEventListener("DOMContentLoaded", () => {
  const seen = JSON.parse(sessionStorage.getItem("ckTitles") || "[]");
  sessionStorage.setItem("ckTitles", JSON.stringify(seen.concat([document.title])));
});"""


def _next_build(site: Path, dest: Path, page: str, words: str) -> Path:
    """A second build of the site, as `cardkit build-static` writes it, with one page that says `words`: the
    finished site copied, the page changed, and the build's last step run on it (the service worker and its
    manifest: all that a build changes beside the pages)."""
    import shutil
    shutil.copytree(site, dest, symlinks=True)
    (dest / build.MANIFEST).unlink(missing_ok=True)                    # (written by the install, below)
    html = (dest / page).read_text()
    changed = html.replace('<div id="ck-page"', f'<p class="ck-test-build">{words}</p><div id="ck-page"', 1)
    assert changed != html
    (dest / page).write_text(changed)
    build.service_worker(dest)
    return dest


# what the tab shows and what its service workers are doing: said when a new build does not arrive in time
_WORKERS_JS = """async () => { const r = await navigator.serviceWorker.getRegistration();
    const w = (x) => x ? x.scriptURL.split('/').pop() + ' ' + x.state : '-';
    const asked = JSON.parse(sessionStorage.getItem('ckDrive') || '{}');
    return [document.title, location.pathname, (document.body ? document.body.innerText : '').slice(0, 100),
            r ? 'installing ' + w(r.installing) + ', waiting ' + w(r.waiting) + ', active ' + w(r.active) : 'no worker',
            'controller ' + (navigator.serviceWorker.controller ? navigator.serviceWorker.controller.state : '-'),
            'drive requests unanswered: ' + JSON.stringify(Object.values(asked))]; }"""

# Requests of a kernel to JupyterLite's in-browser drive that no page has answered yet (kept across the tab's
# reloads): one pending in a worker keeps its new version waiting (see _ORPHAN)
_DRIVE = """(() => { try {
  const channel = new BroadcastChannel("/sw-api.v1");
  channel.onmessage = (e) => {
    const d = e.data || {}, asked = JSON.parse(sessionStorage.getItem("ckDrive") || "{}");
    const key = d.browsingContextId + " " + d.requestId;
    if ("response" in d) delete asked[key];
    else asked[key] = [(d.data || {}).method, String((d.data || {}).path).slice(0, 40), location.pathname];
    sessionStorage.setItem("ckDrive", JSON.stringify(asked));
  };
} catch (e) {} })();"""


def _wait_for_the_new_build(page, timeout: float = 120000) -> None:
    """Wait until the page shows the new build (its `.ck-test-build` line); if it does not in `timeout` ms, fail
    saying what the tab showed and what its service workers were doing every 10 s meanwhile (these tests failed
    rarely, on a loaded machine, by a timeout alone: 29 Nov)."""
    seen = []
    for _ in range(max(1, int(timeout // 10000))):
        try:
            page.locator(".ck-test-build").wait_for(timeout=10000)
            return
        except PlaywrightTimeout:
            try:
                seen.append(page.evaluate(_WORKERS_JS))
            except PlaywrightError as e:       # a page between two documents
                seen.append(str(e).splitlines()[0])
    raise AssertionError(f"the new build did not show in {timeout / 1000:g} s; every 10 s: {seen}")


def test_a_new_build_reaches_a_returning_visitor_whole(chromium, static_site_dir, tmp_path):
    """Three builds deployed in turn into one folder (the build's own install, as a rebuild does) on a host that
    sends Cache-Control: max-age=600 (as GitHub Pages does), to a browser that keeps its profile. A visitor of the
    first build comes back after the second is deployed: the page they kept shows the first build (whole), and
    the line says "A new version of the site is ready"; Reload shows the second build, and what the browser keeps
    is the second build's, nothing of the first. After the third is deployed, a page the visitor never opened is
    not served half old, half new: it opens with the third build."""
    from site_server import serving_static_cached
    second = _next_build(static_site_dir, tmp_path / "second", "sieben.html", "Second build")
    third = _next_build(second, tmp_path / "third", "whist.html", "Third build")
    live = tmp_path / "live"
    first = tmp_path / "first"
    __import__("shutil").copytree(static_site_dir, first, symlinks=True)
    (first / build.MANIFEST).unlink()

    def deploy(site):
        build.install_site(site, live, build.check_target(live))

    deploy(first)
    context, page, errors = _profile_page(chromium, tmp_path / "profile")
    try:
        context.add_init_script(_TITLES)
        context.add_init_script(_DRIVE)
        with serving_static_cached(live, "max-age=600") as base:
            page.goto(f"{base}/sieben.html")
            _ready(page)
            _offline_state(page, "kept", 60000)
            deploy(second)
            page.reload()                              # the first build, as kept: whole, and a new one is ready
            _offline_state(page, "update", 120000)
            assert page.locator(".ck-test-build").count() == 0
            assert page.locator(".ck-offline").inner_text().startswith("A new version of the site is ready.")
            _screenshots(page, tmp_path / "update")
            with page.expect_navigation():
                page.locator(".ck-offline button", has_text="Reload").click()
            page.locator(".ck-test-build").wait_for(timeout=30000)
            assert page.locator(".ck-test-build").inner_text() == "Second build"
            _ready(page)
            _offline_state(page, "kept", 60000)
            kept = _cached(page, base)
            manifest = _sw_manifest(second)
            assert kept and all(manifest[rel]["revision"] == rev for rel, rev in kept.items())   # nothing of the first
            assert kept["sieben.html"] != _sw_manifest(static_site_dir)["sieben.html"]["revision"]
            for _ in range(3):                          # and it stays: every visit shows the second build
                page.reload()
                page.locator(".ck-test-build").wait_for(timeout=30000)

            deploy(third)
            page.evaluate("() => sessionStorage.removeItem('ckTitles')")
            page.evaluate(_ORPHAN, base)    # a request to JupyterLite's drive that no page answers, then the page goes:
            page.goto(f"{base}/whist.html")            # never opened: the third build's, loaded whole
            _wait_for_the_new_build(page)
            assert page.locator(".ck-test-build").inner_text() == "Third build"
            _ready(page)
            titles = page.evaluate("() => JSON.parse(sessionStorage.getItem('ckTitles'))")
            assert titles[0] == "A new version of the site" and len(titles) == 2, titles     # said on the way
            assert all(_sw_manifest(third)[rel]["revision"] == rev for rel, rev in _cached(page, base).items())
        assert errors == []
    finally:
        context.close()


# A request of a kernel to JupyterLite's in-browser drive that no page answers (the page, still open, answers only
# its own kernel's): as when a page is left while its kernel waits for the drive. Once the page has gone, the
# site's worker answers it (a worker with a request pending is never replaced: the new version would wait for ever)
_ORPHAN = """async (base) => {
  fetch(base + "/api/drive.v1", {method: "POST", body: JSON.stringify(
    {browsingContextId: "a page gone", requestId: 1, pathname: "/api/drive.v1", data: {method: "get", path: ""}})})
    .catch(() => {});
  await new Promise((resolve) => setTimeout(resolve, 500));
}"""


# the kind of every document the tab shows, in order (kept across its reloads): "new" where the page is the new build's
_BUILDS = """addEventListener("DOMContentLoaded", () => {
  const seen = JSON.parse(sessionStorage.getItem("ckBuilds") || "[]");
  const kind = document.querySelector(".ck-test-build") ? "new" : "old";
  sessionStorage.setItem("ckBuilds", JSON.stringify(seen.concat([kind])));
});"""


def test_a_visitor_of_the_hand_written_service_worker_gets_the_new_build_whole_at_once(chromium, static_site_dir,
                                                                                          tmp_path):
    """Before Workbox (28 Nov) the site shipped a hand-written service worker (tests/handwritten-service-worker.js,
    the file of commit 95ee6e4, filled in as its build did), which saved the whole site for every visitor and whose
    pages say nothing of a new version. Its visitor, one tab, a profile kept, a host sending max-age=600: the old
    worker over this build's pages, the whole site saved; then the new build deployed in its place at the same
    address. The tab, reloaded, shows the old build as kept (whole), then, once the new build is saved, the new one
    (loaded again by the new worker, not when every tab has closed), never a document of both; what the browser
    keeps is the new build whole, at its revisions, and none of the old worker's caches. Checked once by hand with
    a real build of 95ee6e4 (docs/publishing.md); here its worker stands in, as building that commit costs 46 s.
    About 20 s of wall."""
    from site_server import serving_static_cached
    first = tmp_path / "first"
    first.mkdir()
    for p in static_site_dir.iterdir():
        if p.name != "service-worker.js":
            (first / p.name).symlink_to(p)
    files = {rel: [e["revision"], e["size"]] for rel, e in _sw_manifest(static_site_dir).items()}
    old = (ROOT / "tests" / "handwritten-service-worker.js").read_text()
    (first / "service-worker.js").write_text(old.replace('/*VERSION*/"dev"', '"first"').replace("/*FILES*/{}", json.dumps(files)))
    second = _next_build(static_site_dir, tmp_path / "second", "sieben.html", "New build")
    later = (first / "service-worker.js").stat().st_mtime + 60       # deployed later (Last-Modified is in seconds)
    for rel in ("service-worker.js", "sieben.html"):
        os.utime(second / rel, (later, later))
    live = tmp_path / "live"
    live.symlink_to(first)
    context, page, errors = _profile_page(chromium, tmp_path / "profile")
    try:
        context.add_init_script(_BUILDS)
        context.add_init_script(_DRIVE)
        with serving_static_cached(live, "max-age=600") as base:
            page.goto(f"{base}/sieben.html")
            page.evaluate("() => navigator.serviceWorker.ready.then((r) => r.active.postMessage({ type: 'cardkit-precache' }))")
            _offline_state(page, "complete", 120000)                   # the old worker saved the whole site
            _ready(page)     # (and Python started: a page left while its kernel waits for the drive leaves the old
            # worker, which cannot answer for it, a request pending, and the browser replaces it only minutes later)
            live.unlink()
            live.symlink_to(second)                                    # the new build deployed in its place
            page.reload()                                 # the old worker answers; the browser finds the new one
            _wait_for_the_new_build(page)
            assert page.locator(".ck-test-build").inner_text() == "New build"
            assert page.evaluate("() => JSON.parse(sessionStorage.getItem('ckBuilds'))") == ["old", "old", "new"]
            _ready(page)
            _offline_state(page, "complete", 60000)
            assert _cached(page, base) == {rel: e["revision"] for rel, e in _sw_manifest(second).items()}
            assert not [n for n in page.evaluate("() => caches.keys()") if n.startswith("cardkit:")]
        assert errors == []
    finally:
        context.close()


def test_without_its_snapshot_python_starts_from_nothing(chromium, static_url):
    """A host that does not serve the snapshot (or a browser that cannot unpack it): the page says so in the
    browser's console only, starts Python as Pyodide does by itself, and plays."""
    page = _open(chromium, f"{static_url}/faro.html", routes=[("**/pyodide-memory.gz", lambda route: route.abort())])
    _ready(page)
    assert not _from_snapshot(page)
    assert any("Python starts without its snapshot" in w for w in page.warnings), page.warnings
    page.locator(".ck-play-start").first.click()
    page.wait_for_selector(".ck-play button.ck-card.ck-playable:not(:disabled)", timeout=60000)
    table = page.locator(".ck-play").first
    _click_and_wait(page, table, table.locator("button.ck-card.ck-playable").first)
    assert [e for e in page.errors if "pyodide-memory.gz" not in e] == []   # (the refused request, and nothing else)
    assert (page.failed, page.external) == ([], [])
    page.context_.close()


def test_two_people_at_one_screen_in_the_browser(chromium, static_url, static_site_dir):
    """"Play with friends ▸" with Python in the browser: the table is covered between the two players' turns
    (no card, no seat on the page) and each "I am …, show my cards" shows that player's hand."""
    page = _open(chromium, f"{static_url}/ecarte.html")
    assert page.locator("#ck-page").is_visible()                 # the page, before Python is ready
    _alive_and_linked(page, static_url, static_site_dir, "ecarte")
    page.locator(".ck-play-friends").first.click()
    table = page.locator(".ck-play").first
    covered = """(t) => !!t.querySelector('.ck-cover') && !!t.querySelector('button.ck-ready') &&
        !t.querySelector('button.ck-card, .ck-table, svg') && !/[♠♥♦♣]/.test(t.innerText)"""
    names = []
    while len(set(names)) < 2:
        page.wait_for_function(covered, arg=table.element_handle(), timeout=60000)
        ready = table.locator("button.ck-ready")
        names.append(ready.inner_text().removeprefix("I am ").removesuffix(", show my cards"))
        ready.click()
        page.wait_for_function("(t) => !t.querySelector('.ck-cover') && t.querySelector('button.ck-card')",
                               arg=table.element_handle(), timeout=60000)
        assert f"Your hand, {names[-1]}" in table.inner_text()
        for _ in range(12):              # play on (the exchange may take a few clicks) until the table covers
            page.wait_for_function("""(t) => t.querySelector('.ck-cover') || t.querySelector('a.ck-download') ||
                t.querySelector('button.ck-action:not(:disabled)') ||
                t.querySelector('button.ck-card.ck-playable:not(:disabled)')""", arg=table.element_handle(), timeout=60000)
            if table.locator(".ck-cover").count():
                break
            choice = table.locator("button.ck-action:not(:disabled)")
            (choice.first if choice.count() else table.locator("button.ck-card.ck-playable").first).click()
            page.wait_for_timeout(300)
    _opens_a_shared_example(page, "ecarte")
    assert (page.errors, page.failed, page.external) == ([], [], [])
    page.context_.close()


# --- what the line at the top says ------------------------------------------------------------------------------
def test_a_page_opened_as_a_file_says_the_site_needs_a_web_server(chromium, static_site_dir, tmp_path):
    """A double-click on a page of the built folder: the browser lets no page from a file start Python, so the
    line at the top says the site needs a web server and gives the one command that serves this folder (no
    promise of a start in seconds, no advice to reload)."""
    folder = tmp_path / "my site"                  # a folder with a space: the command quotes it
    os.symlink(static_site_dir, folder)
    for width in (1280, 390):
        context = chromium.new_context(viewport={"width": width, "height": 800})
        page = context.new_page()
        page.goto((folder / "sieben.html").as_uri())
        line = page.locator("#ck-python")
        page.wait_for_function("() => document.getElementById('ck-python').dataset.state === 'file'", timeout=10000)
        said = " ".join(line.inner_text().split())
        assert "needs a web server" in said
        assert f'python3 -m http.server -d "{folder}" 8000' in said
        assert "http://localhost:8000/sieben.html" in said
        assert not re.search(r"few seconds|reload", said)
        assert line.locator(".ck-command").is_visible()          # on a phone too
        assert page.locator("section#S7-1").is_visible()          # the rules, to read
        page.screenshot(path=tmp_path / f"file-{width}.png")
        page.wait_for_timeout(3000)
        assert page.locator("#ck-python").get_attribute("data-state") == "file"   # and it stays said
        context.close()


# every text the line at the top shows, in order, from the page's first moment
_LINE_TEXTS = """
window.ckSaid = [];
new MutationObserver(() => {
  const t = document.querySelector("#ck-python .ck-python-text");
  if (t && window.ckSaid[window.ckSaid.length - 1] !== t.textContent) window.ckSaid.push(t.textContent);
}).observe(document, { childList: true, subtree: true, characterData: true });
"""


def test_a_cold_start_says_how_much_has_come_and_a_stray_percent_in_the_address_is_ignored(chromium, static_url,
                                                                                              static_site_dir):
    """While Python starts the line counts its download in megabytes ("Starting Python: 3.2 of 13.7 MB", the total
    what the build lists for the start), rather than promise "a few seconds". The address's fragment is a
    malformed percent escape: the page goes on without an error."""
    preload = (static_site_dir / "static" / "pyodide" / "pyodide-preload.js").read_text()
    listed = json.loads(re.search(r"self\.ckDownloads = (\{.*?\});", preload).group(1))
    for name, size in listed.items():
        assert (static_site_dir / "static" / "pyodide" / name).stat().st_size == size, name
    assert {"pyodide.asm.wasm", "python_stdlib.zip", "pyodide-memory.gz", "pyodide-lock.json"} <= set(listed)
    assert any(n.startswith("cardkit-") for n in listed) and any(n.startswith("ipython-") for n in listed)
    total = f"{sum(listed.values()) / 1e6:.1f}"
    page = _open(chromium, "about:blank")
    page.context_.add_init_script(_LINE_TEXTS)
    page.goto(f"{static_url}/sieben.html#%E0%A4%A")
    _ready(page)
    said = page.evaluate("() => window.ckSaid")
    counts = [re.fullmatch(rf"Starting Python: (\d+\.\d) of {re.escape(total)} MB — .*", t) for t in said]
    figures = [float(m.group(1)) for m in counts if m]
    assert figures, said
    assert figures == sorted(figures) and figures[-1] <= float(total)
    assert f"Starting Python: {total} MB downloaded, now setting it up — " in " ".join(said), said
    assert not any("few seconds" in t for t in said), said
    assert said[-1].startswith("Ready")
    page.wait_for_timeout(500)
    assert (page.errors, page.failed, page.external) == ([], [], [])     # the fragment: no URIError
    page.context_.close()


# --- the Voilà site beside it ----------------------------------------------------------------------------------
def test_after_a_static_build_the_voila_pages_log_no_error(chromium, static_site_dir):
    """`make static` then `make site` in one checkout: the static build ran with the tools of its own venv, and
    the Voilà pages (served from this environment, the site's) load no JupyterLite extension: their browser
    console has no error, and no extension failed to load. (With the static tools beside Voilà every page
    logged "Failed to create module … pyodide-kernel-extension" and a TypeError.)"""
    from site_server import page_ready_time, running_site
    assert (static_site_dir / "service-worker.js").is_file()          # the static build has run in this checkout
    with running_site() as base:
        for name in ("index", "sieben"):
            context = chromium.new_context(viewport={"width": 1280, "height": 900})
            page = context.new_page()
            messages = []
            page.on("console", lambda m: messages.append(f"{m.type}: {m.text}"))
            page.on("pageerror", lambda e: messages.append(f"pageerror: {e}"))
            page_ready_time(page, f"{base}/voila/render/{name}.ipynb")
            page.wait_for_timeout(1000)
            bad = [m for m in messages if m.startswith(("error:", "pageerror:"))
                   or "Failed to create module" in m or "jupyterlite" in m.lower()]
            assert bad == [], name
            context.close()
