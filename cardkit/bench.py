"""`cardkit bench`: engine throughput through the public protocol, and page time-to-interactive.

Decisions per second = player actions applied per second in random games, counting everything a
caller does per decision: ``legal_actions()``, a random choice, ``apply()``, plus the seeded deals.
"""
from __future__ import annotations

import time

import cardkit
from cardkit.rng import Rng

TARGET_DECISIONS = 200_000
TARGET_PAGE_RATIO = 1.2
ENGINE_CASES = [("magische7", {"players": 2}), ("magische7", {"players": 4}),
                ("sieben", {"players": 2}), ("sieben", {"players": 3}), ("sieben", {"players": 4})]


def engine_throughput(name: str, options: dict, seconds: float = 2.0) -> dict:
    game = cardkit.load_game(name, **options)
    rng = Rng(7)
    below = rng.below
    games = decisions = 0
    start = time.perf_counter()
    end = start + seconds
    while True:
        state = game.new_state(seed=games)
        legal = state.legal_actions
        apply = state.apply
        while not state.is_terminal():
            acts = legal()
            apply(acts[below(len(acts))])
            decisions += 1
        games += 1
        now = time.perf_counter()
        if now >= end:
            break
    dt = now - start
    return {"game": name, "options": options, "games_per_s": games / dt, "decisions_per_s": decisions / dt,
            "decisions_per_game": decisions / games}


def page_times(pages=None, repeats: int = 5) -> dict:
    """Seconds until each page's widgets are interactive, beside the one-button baseline, same server.
    The pages are loaded in turn, round after round (so a change in the machine's load hits them
    alike), each in a fresh browser context; the median of the rounds is reported."""
    from .site import launch_chromium, page_ready_time, running_site
    from playwright.sync_api import sync_playwright
    pages = ["baseline.ipynb"] + (pages or ["index.ipynb"] + [f"{name}.ipynb" for name in cardkit.GAMES])
    times: dict = {p: [] for p in pages}
    with running_site() as base, sync_playwright() as pw:
        browser = launch_chromium(pw)
        try:
            for _ in range(repeats):
                for page_name in pages:
                    ctx = browser.new_context()
                    page = ctx.new_page()
                    times[page_name].append(page_ready_time(page, f"{base}/voila/render/{page_name}"))
                    ctx.close()
        finally:
            browser.close()
    return {p: sorted(ts)[len(ts) // 2] for p, ts in times.items()}


def run(seconds: float = 2.0, pages: bool = True, out=print) -> dict:
    results = {"engine": [], "pages": {}}
    out(f"Engine (random games through the public protocol, {seconds:g} s each; target ≥ {TARGET_DECISIONS:,} decisions/s)")
    out(f"{'game':<12} {'options':<14} {'games/s':>10} {'decisions/s':>13} {'target':>7}")
    for name, opts in ENGINE_CASES:
        r = engine_throughput(name, opts, seconds)
        results["engine"].append(r)
        ok = "ok" if r["decisions_per_s"] >= TARGET_DECISIONS else "MISSED"
        o = ",".join(f"{k}={v}" for k, v in opts.items())
        out(f"{name:<12} {o:<14} {r['games_per_s']:>10,.0f} {r['decisions_per_s']:>13,.0f} {ok:>7}")
    if pages:
        try:
            times = page_times()
        except Exception as e:  # no browser or no site extras installed
            out(f"Pages: not measured ({type(e).__name__}: {e})")
            return results
        results["pages"] = times
        base = times["baseline.ipynb"]
        out(f"Pages (seconds until widgets are interactive, median of 5 rounds; target ≤ {TARGET_PAGE_RATIO}× baseline)")
        for name, t in times.items():
            ratio = t / base
            ok = "" if name == "baseline.ipynb" else ("ok" if ratio <= TARGET_PAGE_RATIO else "MISSED")
            out(f"{name:<18} {t:>6.2f} s  {ratio:>5.2f}×  {ok}")
    return results
