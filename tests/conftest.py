"""Fixtures shared by the real-browser tests of the kit's own pages: one Voilà server on the real
notebooks/ folder and one headless Chromium for the whole session (tests/test_site.py serves a copy with
planted files and keeps its own)."""
from __future__ import annotations

import pytest


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
