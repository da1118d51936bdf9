"""Fixtures shared by the real-browser tests of the kit's own pages: one Voilà server on the real
notebooks/ folder and one headless Chromium for the whole session (tests/test_site.py serves a copy with
planted files and keeps its own)."""
from __future__ import annotations

import pytest

# The files that take longest go first. `make test` shares the test files out among its workers as they come free
# (pytest-xdist, --dist loadfile: a file's expensive set-ups are made once); a long file taken up last would run
# on alone at the end while the other workers idle. (The order of the tests within a file does not change.)
# Ranked by each file's CPU (docs/benchmarks.md, "The test suite"): first the browser files, long in wall time as
# they wait on Chromium, Voila's kernels and Pyodide, then the rest by CPU seconds.
SLOW_FIRST = ("tests/test_static_site.py", "tests/test_play_page.py", "tests/test_site.py", "tests/test_impact.py",
              "tests/test_hidden.py", "tests/test_exercises.py", "tests/test_bots.py", "tests/test_play_table.py",
              "tests/test_pages.py", "tests/test_rulecard.py", "tests/test_whist_properties.py",
              "tests/test_widgets.py", "tests/test_faro_properties.py", "tests/test_properties.py",
              "tests/test_vierundzwanzig_properties.py", "tests/test_fast_paths_trick_games.py",
              "tests/test_play_expert.py")


def pytest_configure(config):
    # pytest-xdist (3.6 and later) hands the files out largest first by their number of tests, not in the order
    # collected: the run of 28 Nov began with test_core.py (480 quick tests) and took up test_static_site.py
    # (42 tests, the longest file) 36 minutes in. Keep the order below.
    if hasattr(config.option, "loadscopereorder"):
        config.option.loadscopereorder = False


def pytest_collection_modifyitems(session, config, items):
    rank = {name: i for i, name in enumerate(SLOW_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::")[0], len(rank)))   # stable: the rest as collected


@pytest.fixture(scope="session")
def site_url():
    from site_server import running_site
    with running_site() as base:
        yield base


@pytest.fixture(scope="session")
def chromium():
    from playwright import sync_api
    from site_server import launch_chromium
    with sync_api.sync_playwright() as pw:
        browser = launch_chromium(pw)
        yield browser
        browser.close()


@pytest.fixture(scope="session")
def static_site_dir(tmp_path_factory):
    """The static site (`cardkit build-static`), built once for the session from the real notebooks/."""
    from cardkit.site import build_static
    out = tmp_path_factory.mktemp("static") / "site"
    assert build_static(out) == 0, "cardkit build-static failed (its output above says why)"
    return out


@pytest.fixture(scope="session")
def static_url(static_site_dir):
    from site_server import serving_static
    with serving_static(static_site_dir) as base:
        yield base
