"""`cardkit bench`: engine throughput through the public protocol, and page time-to-interactive.

Decisions per second = player actions applied per second in random games, counting everything a
caller does per decision: ``legal_actions()``, a random choice, ``apply()``, plus the seeded deals.
"""
from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import cardkit
from cardkit.game import Deal
from cardkit.rng import Rng

TARGET_DECISIONS = 200_000          # the first two games' target; the trick games' is higher (below)
TARGET_PAGE_RATIO = 1.2
TARGET_LOAD_RATIO = 1.3
# the static site (cardkit build-static), a cold visit: the page's text on the screen, a game page's table
# ready to play, a click answered, what the first visit downloads and the whole site, an expert's move
TARGET_STATIC_READ_S = 1.5
TARGET_STATIC_PLAY_S = 6.0
TARGET_STATIC_CLICK_S = 0.100
TARGET_STATIC_FIRST_MB = 15
TARGET_STATIC_SITE_MB = 35
TARGET_STATIC_EXPERT_S = 1.5
TARGET_HINT_S = 1.0                 # the Hint, in the browser (issue "Fast": no Hint keeps a visitor waiting a second)
LOAD_VISITORS = 10
ENGINE_CASES = [("magische7", {"players": 2}), ("magische7", {"players": 4}),
                ("sieben", {"players": 2}), ("sieben", {"players": 3}), ("sieben", {"players": 4}),
                ("whist", {}), ("whist", {"mode": "table"}), ("whist", {"ruleset": "long"}),
                ("ecarte", {}), ("ecarte", {"exchange": "propose"}),
                *(("vierundzwanzig", {"players": n}) for n in (2, 3, 4, 5)),
                *(("vingt_et_un", {"players": n}) for n in (3, 4, 5)), ("vingt_et_un", {"bank_rule": "free"}),
                *(("faro", {"players": n}) for n in (2, 3, 4)),
                ("bakkarat", {}), ("bakkarat", {"bank_draw": "five", "partners": False})]
# the odds are timed for every game that computes them with its defaults, and for these readings too
ODDS_CASES = [("vingt_et_un", {"ace": "one or eleven"})]
# game -> (decisions/s, hands dealt and played per second or None): targets other than TARGET_DECISIONS
TARGETS: dict = {"whist": (250_000, 6_000), "ecarte": (250_000, None), "vierundzwanzig": (250_000, None),
           "vingt_et_un": (250_000, None), "faro": (250_000, None), "bakkarat": (250_000, None)}


def _targets(name: str) -> tuple:
    return TARGETS.get(name, (TARGET_DECISIONS, None))


def _engine_cases() -> list:
    """The cases measured: ENGINE_CASES, and every registered game not listed there with its default
    options (a new game is measured without being listed)."""
    listed = {name for name, _ in ENGINE_CASES}
    return ENGINE_CASES + [(name, {}) for name in cardkit.GAMES if name not in listed]


class _Engine:
    """Random games of one engine, played in time slices: ``run(seconds)`` plays whole games until the
    slice is over and returns (decisions, hands, games, seconds) of that slice. The next slice goes on with
    the next seed, so slices of two engines taken turn about are measured under the same machine load.
    Time is the process's CPU time (`time.process_time`): on an idle machine the same as the clock, and on
    a busy one it does not count the time other processes had the core."""

    def __init__(self, name: str, options: dict):
        self.name, self.options = name, options
        self.game = cardkit.load_game(name, **options)
        self.below = Rng(7).below
        self.seed = 0

    def play(self) -> tuple[int, int]:
        """One seeded random game: (decisions, hands dealt and played)."""
        state = self.game.new_state(seed=self.seed)
        self.seed += 1
        below = self.below
        legal = state.legal_actions
        apply = state.apply
        decisions = 0
        while not state.is_terminal():
            acts = legal()
            apply(acts[below(len(acts))])
            decisions += 1
        # a game that deals several hands counts them (`hands_dealt`), else every deal in the history is one
        h = getattr(state, "hands_dealt", None)
        return decisions, h if h is not None else sum(1 for a in state.history if a.__class__ is Deal)

    def run(self, seconds: float) -> tuple[int, int, int, float]:
        decisions = hands = games = 0
        play = self.play
        clock = time.process_time
        start = clock()
        end = start + seconds
        while True:
            d, h = play()
            decisions += d
            hands += h
            games += 1
            now = clock()
            if now >= end:
                return decisions, hands, games, now - start


class _OpenSpielEngine(_Engine):
    """An OpenSpiel game driven like `_Engine`: per decision ``legal_actions()``, a pick with cardkit's
    ``Rng.below`` and ``apply_action``; chance nodes (OpenSpiel deals card by card) sampled with the same RNG
    and not counted as decisions (cardkit's deals are not counted either). Needs the optional ``open_spiel``
    package (`pip install -e '.[bench]'`)."""
    game: Any                           # a pyspiel game (OpenSpiel has no types)

    def __init__(self, name: str):
        import pyspiel
        self.name, self.options = name, {}
        self.game = pyspiel.load_game(name)
        self.below = Rng(7).below
        self.seed = 0

    def play(self) -> tuple[int, int]:
        state = self.game.new_initial_state()
        below = self.below
        decisions = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[below(len(outcomes))][0])
            else:
                acts = state.legal_actions()
                state.apply_action(acts[below(len(acts))])
                decisions += 1
        return decisions, 1


def _rates(name: str, options: dict, decisions: int, hands: int, games: int, dt: float) -> dict:
    return {"game": name, "options": options, "games_per_s": games / dt, "decisions_per_s": decisions / dt,
            "decisions_per_game": decisions / games, "hands_per_s": hands / dt}


def engine_throughput(name: str, options: dict, seconds: float = 2.0) -> dict:
    """Decisions, games and hands per second of `name` with `options` in random games for `seconds`."""
    return _rates(name, options, *_Engine(name, options).run(seconds))


# OpenSpiel's C++ card games, driven from Python by the same loop (`_OpenSpielEngine`); each cardkit case
# must reach TARGET_OPENSPIEL_RATIO × their median, measured turn about with the case (`beside_openspiel`)
OPENSPIEL_GAMES = ["hearts", "skat", "euchre", "spades", "oh_hell", "crazy_eights", "blackjack"]
TARGET_OPENSPIEL_RATIO = 1.5
ROUNDS = 4          # slices of each case, each followed by a slice of every OpenSpiel game


def openspiel_available() -> bool:
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        return False
    return True


def openspiel_throughput(name: str, seconds: float = 2.0) -> dict:
    """Decisions/s of OpenSpiel's game `name` driven like `engine_throughput`."""
    return _rates(name, {}, *_OpenSpielEngine(name).run(seconds))


def beside_openspiel(name: str, options: dict, seconds: float = 2.0, rounds: int = ROUNDS,
                     reference: dict | None = None) -> dict:
    """`engine_throughput` of the case, measured turn about with OpenSpiel's games: `rounds` slices of the
    case (`seconds` in all), each followed by a slice of every OpenSpiel game (`seconds` in all between
    them). The machine's load changes from minute to minute on a shared machine; slices a fraction of a
    second apart see the same load, so the ratio holds where the absolute figures do not. Adds
    ``openspiel`` (each game's decisions/s in the slices beside this case), ``openspiel_median`` and
    ``openspiel_ratio``. `reference`: the OpenSpiel engines to reuse (name -> engine)."""
    case = _Engine(name, options)
    if reference is None:
        reference = {n: _OpenSpielEngine(n) for n in OPENSPIEL_GAMES}
    mine: list[Any] = [0, 0, 0, 0.0]    # decisions, hands, games, seconds
    theirs = {n: [0, 0.0] for n in reference}
    for _ in range(rounds):
        for i, x in enumerate(case.run(seconds / rounds)):
            mine[i] += x
        for n, engine in reference.items():
            d, _h, _g, dt = engine.run(seconds / rounds / len(reference))
            theirs[n][0] += d
            theirs[n][1] += dt
    r = _rates(name, options, *mine)
    rates = {n: d / dt for n, (d, dt) in theirs.items()}
    median = sorted(rates.values())[len(rates) // 2]
    r.update(openspiel=rates, openspiel_median=median, openspiel_ratio=r["decisions_per_s"] / median)
    return r


# undo, clone and the expert's playouts (issue 38): an Undo click and a playout's copy should cost about a move
COPY_CASES: list[tuple[str, dict]] = [("magische7", {"players": 4}), ("sieben", {"players": 3}), ("whist", {}), ("whist", {"mode": "table"}),
              ("ecarte", {}), ("vierundzwanzig", {"players": 4}), ("vingt_et_un", {"players": 4}),
              ("faro", {"players": 3}), ("bakkarat", {})]


def copy_costs(name: str, options: dict | None = None, seeds: int = 3, playouts: int = 60, budget: float = 0.1) -> dict:
    """Half-way through `seeds` seeded random games (a state dealt from the seed and played to there, as a table has
    it), CPU seconds of: a move (``legal_actions`` and ``apply``), a ``clone()``, a state's first ``undo()`` (the
    positions it keeps dropped each time) and an undo to a position kept (each undo followed by the move again);
    each the mean of a loop of `budget` CPU seconds a game (Pyodide's CPU clock ticks coarsely); and the expert's
    playouts a CPU second there (`ExpertBot` with the game's policy and horizon, `playouts` a decision, its
    resamples included)."""
    from cardkit.bots.expert import ExpertBot
    clock = time.process_time
    game = cardkit.load_game(name, **(options or {}))

    def mean(step) -> float:
        n, t = 0, clock()
        while not n or clock() - t < budget:
            step()
            n += 1
        return (clock() - t) / n

    sums = [0.0] * 4
    done, spent = 0, 0.0
    for seed in range(seeds):
        s = game.new_state(seed=seed)
        below = Rng(seed).below
        while not s.is_terminal():
            acts = s.legal_actions()
            s.apply(acts[below(len(acts))])
        h = s.history
        m = len(h) // 2
        while m > 2 and (h[m - 1].__class__ is Deal or h[m - 2].__class__ is Deal or h[m].__class__ is Deal):
            m -= 1                                # two player actions to take back, a player to move
        texts = [a.text for a in h[1:m] if a.__class__ is not Deal]
        mid = game.new_state(seed=seed)           # the same game to there, as a table has it
        for t in texts:
            mid.apply(t)
        last = texts[-1]
        probe = mid.clone()
        rng, n, t = Rng(seed), 0, clock()
        while not n or clock() - t < budget:      # whole random games, their deals included
            g = game.new_state(seed=rng.next64())
            while not g.is_terminal():
                acts = g.legal_actions()
                g.apply(acts[rng.below(len(acts))])
                n += 1
        one = (clock() - t) / n

        def first():
            mid.__dict__.pop("_marks", None)      # a state that never undid
            mid.undo().apply(last)

        def again():
            mid.undo().apply(last)
        for i, x in enumerate((one, mean(mid.clone), mean(first) - one, mean(again) - one)):
            sums[i] += x / seeds
        if probe.current_player >= 0:
            bot = ExpertBot(seed, playouts=playouts)
            t = clock()
            bot.analyse(probe)
            spent += clock() - t
            done += bot.stats["playouts"]
    return {"game": name, "options": options or {}, "move_s": sums[0], "clone_s": sums[1], "undo_first_s": sums[2],
            "undo_next_s": sums[3], "playouts_per_s": done / spent if spent else None}


def report_copies(out=print) -> list:
    out("Undo, clone and the expert's playouts (half-way through 3 seeded games, CPU time; the aim: an undo and a "
        "clone cost about a move; a state's first undo replays its game to there once)")
    out(f"{'game':<15} {'options':<14} {'move':>8} {'clone':>9} {'undo':>9} {'next undo':>10} {'playouts/s':>11}")
    rows = [copy_costs(name, opts) for name, opts in COPY_CASES]
    for r in rows:
        o = ",".join(f"{k}={v}" for k, v in r["options"].items()) or "defaults"
        out(f"{r['game']:<15} {o:<14} {r['move_s'] * 1e6:>5.1f} µs {r['clone_s'] * 1e6:>6.0f} µs "
            f"{r['undo_first_s'] * 1e6:>6.0f} µs {r['undo_next_s'] * 1e6:>7.0f} µs {r['playouts_per_s'] or 0:>11,.0f}")
    return rows


TARGET_ODDS_SECONDS = 1.0


def odds_times(name: str, options: dict | None = None, positions: int = 40, seed: int = 3) -> dict | None:
    """Seconds an exact-odds computation (`state.advice(p)`) takes, over `positions` decisions met in
    seeded random play: the median and the slowest. For games that compute odds (others: None)."""
    game = cardkit.load_game(name, **(options or {}))
    if type(game.new_state(seed=0)).advice is cardkit.State.advice:
        return None
    rng = Rng(seed)
    times: list[float] = []
    k = 0
    while len(times) < positions and k < 50 * positions:
        state = game.new_state(seed=k)
        while not state.is_terminal() and len(times) < positions:
            p = state.current_player
            t = time.perf_counter()
            state.advice(p)
            times.append(time.perf_counter() - t)
            acts = state.legal_actions()
            state.apply(acts[rng.below(len(acts))])
        k += 1
    times.sort()
    return {"game": name, "options": options or {}, "median": times[len(times) // 2], "max": times[-1],
            "positions": len(times)}


# The Odds panel cold (issue 38): a fresh process, every memo of the odds emptied before each advice — what a
# visitor's first position of a kind costs. Each banking game and reading whose odds differ in cost.
COLD_ODDS_CASES = [("vingt_et_un", {}), ("vingt_et_un", {"ace": "one or eleven"}),
                   ("vingt_et_un", {"bank_second": "with"}),
                   ("vingt_et_un", {"ace": "one or eleven", "bank_second": "with"}),
                   ("bakkarat", {}), ("bakkarat", {"bak": "baccara", "three_card_ten": "ten", "ties": "bank"})]
TARGET_COLD_ODDS_SECONDS = 0.3      # natively; the browser's target is 1 s, Python there ~2.5x slower
_COLD_MODULES = {"vingt_et_un": "cardkit.games.vingt_et_un", "bakkarat": "cardkit.games.bakkarat"}


def _clear_odds_memos(name: str) -> None:
    import importlib
    importlib.import_module(_COLD_MODULES[name]).clear_memos()


def _vu_stake_positions(game):
    """Vingt-et-un's stake decisions of the first player for every open card of the bank and own first card
    (by value class: the stake's odds depend on nothing else)."""
    from .games.vingt_et_un import CLS
    by_class: dict = {}
    for c in game.deck.cards:
        by_class.setdefault(CLS[c.index], []).append(c)
    n = game.num_players
    for b in range(7):
        for k in range(7):
            left = {x: list(cs) for x, cs in by_class.items()}
            bank = [left[b].pop()]
            first = left[k].pop()
            rest = [c for x in (0, 5, 4, 3, 2, 1, 6) for c in left[x]]
            hands = [[first, rest.pop()]] + [[rest.pop(), rest.pop()] for _ in range(n - 2)]
            if game.bank_second:
                bank.append(rest.pop())
            yield game.new_state(deal=game.stack([" ".join(c.text for c in h) for h in hands + [bank]]))


def cold_odds_times(name: str, options: dict | None = None, sittings: int = 3, positions: int = 60) -> dict:
    """In this process: the seconds of CPU time of `state.advice(p)` with every odds memo emptied before it,
    at the first `positions` decisions of seeded random sittings (every phase) and, in Vingt-et-un, at the stake
    decision for every open card of the bank and own first card. Per phase the slowest, and the slowest of all."""
    options = options or {}
    game = cardkit.load_game(name, **options)
    clock = time.process_time
    slowest: dict = {}

    def timed(state, phase):
        p = state.current_player
        _clear_odds_memos(name)
        t = clock()
        state.advice(p)
        dt = clock() - t
        slowest[phase] = max(slowest.get(phase, 0.0), dt)

    from .games.bakkarat import BakkaratState
    from .games.vingt_et_un import VingtEtUnState
    rng = Rng(11)
    for seed in range(sittings):
        state = game.new_state(seed=seed)
        assert isinstance(state, (VingtEtUnState, BakkaratState))   # (the games with odds; their phases)
        k = 0
        while not state.is_terminal() and k < positions:
            if state.current_player >= 0:
                phase = {0: "stake", 1: "draw", 2: "bank", 3: "between"}[state.phase] if name == "vingt_et_un" \
                    else {0: "stake", 1: "close", 2: "draw"}[state.phase]
                timed(state, phase)
                k += 1
            acts = state.legal_actions()
            state.apply(acts[rng.below(len(acts))])
    if name == "vingt_et_un":
        for state in _vu_stake_positions(game):
            timed(state, "stake")
    return {"game": name, "options": options, "phases": slowest, "max": max(slowest.values())}


def cold_odds_line(r: dict, target: float) -> str:
    """A row of the cold odds table (natively or in Pyodide): the game, its options, the slowest advice against
    `target` seconds, and each phase's slowest."""
    o = ",".join(f"{k}={v}" for k, v in r["options"].items()) or "defaults"
    ph = ", ".join(f"{k} {v * 1000:.0f} ms" for k, v in sorted(r["phases"].items()))
    ok = "ok" if r["max"] <= target else "MISSED"
    return f"{r['game']:<15} {o:<44} slowest {r['max'] * 1000:6.0f} ms  {ok}   ({ph})"


def cold_odds_row(name: str, options: dict | None = None) -> dict:
    """`cold_odds_times` in a fresh Python process (nothing imported or computed before it)."""
    import json
    import subprocess
    import sys
    code = ("import json, sys; from cardkit.bench import cold_odds_times; "
            f"print(json.dumps(cold_odds_times({name!r}, {options or {}!r})))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


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
                    page.close(run_before_unload=True)   # beforeunload: the page shuts its kernel down
                    ctx.close()
        finally:
            browser.close()
    return {p: sorted(ts)[len(ts) // 2] for p, ts in times.items()}


# The static site: every moment is measured in the page's own clock (performance.now(), ms since the
# navigation began), polled at every animation frame.
_STATIC_READ_JS = """() => {
  const cells = document.querySelectorAll('#ck-page [cell-index]');
  const heading = document.querySelector('#ck-page h1, #ck-page h2, #ck-page section');
  return cells.length && document.readyState !== 'loading' && heading && heading.checkVisibility() && performance.now();
}"""
_STATIC_PYTHON_JS = "() => document.body.classList.contains('ck-python-ready') && performance.now()"
_STATIC_START_JS = """() => { const b = [...document.querySelectorAll('.ck-play-start')]
  .find(b => !b.closest('.ck-still') && !b.disabled); if (b) { b.click(); return performance.now(); } return false; }"""
_STATIC_PLAYABLE_JS = """() => document.querySelector('.ck-play button.ck-card.ck-playable:not(:disabled), '
  + '.ck-play button.ck-action:not(:disabled)') && performance.now()"""
# the table playable again after a click, or its round over (the next-round button shown): 'over' then
_STATIC_PLAYABLE_OR_OVER_JS = """() => document.querySelector('.ck-play button.ck-card.ck-playable:not(:disabled), '
  + '.ck-play button.ck-action:not(:disabled)') ? 'play'
  : ([...document.querySelectorAll('.ck-play button.ck-next')].some(b => b.checkVisibility()) ? 'over' : false)"""
# a click on the first thing to play, and the ms until the table's log changes (the kernel's whole answer)
_STATIC_CLICK_JS = """() => new Promise((resolve) => {
  const log = document.querySelector('.ck-play .ck-logbox');
  const before = log ? log.innerText : '';
  const b = document.querySelector('.ck-play button.ck-card.ck-playable:not(:disabled), .ck-play button.ck-action:not(:disabled)');
  if (!b) { resolve(null); return; }
  const t = performance.now();
  const poll = () => { const x = document.querySelector('.ck-play .ck-logbox');
    if (x && x.innerText !== before) resolve(performance.now() - t); else requestAnimationFrame(poll); };
  b.click(); requestAnimationFrame(poll);
})"""


def _gzip_size(path) -> int:
    import gzip
    data = path.read_bytes()
    return min(len(data), len(gzip.compress(data, 6)))


# A bare Pyodide page, the static site's baseline (as notebooks/baseline.ipynb is the Voilà site's): the site's own
# Pyodide started from nothing on the page's main thread, one line of Python run; the moment in the page's clock.
_BARE_PAGE = """<!DOCTYPE html><meta charset="utf-8"><title>bare</title><script src="static/pyodide/pyodide.js"></script>
<script>
window.ckBare = (async () => {
  const py = await loadPyodide({indexURL: "static/pyodide/"});
  py.runPython("1 + 1");
  return performance.now();
})();
</script>"""
BARE_PAGE = "bench-bare.html"


def bare_page_time(browser, base: str, site_dir) -> float:
    """Seconds from navigation until a bare Pyodide page (`_BARE_PAGE`, written into the served `site_dir` for
    the visit) has run Python, on a cold visit as `bench.static_times` makes them (a fresh context, no cache)."""
    page_file = Path(site_dir) / BARE_PAGE
    page_file.write_text(_BARE_PAGE)
    try:
        ctx = browser.new_context(service_workers="block", viewport={"width": 1280, "height": 900})
        try:
            page = ctx.new_page()
            page.goto(f"{base}/{BARE_PAGE}", wait_until="commit")
            page.wait_for_function("() => window.ckBare !== undefined", timeout=180000)   # the script has run
            return page.evaluate("window.ckBare") / 1000
        finally:
            ctx.close()
    finally:
        page_file.unlink()


def ratios_to_bare(times: list, bare: list) -> float | None:
    """The median over the rounds of a page's time over the bare page's time in the same round (the machine's
    speed drifts between rounds: each is compared with the bare page of its own round)."""
    rs = sorted(t / b for t, b in zip(times, bare) if t is not None and b)
    return rs[len(rs) // 2] if rs else None


def static_times(site_dir, pages=None, repeats: int = 3, clicks: int = 8) -> dict:
    """The static site on a cold visit (a fresh browser context, no cache, no service worker yet), served by
    Python's http.server: for each page the seconds until its text is on the screen and, on a game's page,
    until its table is ready to play (the Deal button clicked as soon as it works); the median of `clicks`
    clicks' answers; what the first visit downloaded (bytes as served, and gzip-compressed as a host would
    send them) and the whole site. `site_dir`: a built site (`cardkit build-static`)."""
    from pathlib import Path
    from playwright.sync_api import sync_playwright
    from .site import launch_chromium, serving_static
    med = lambda xs: sorted(xs)[len(xs) // 2] if xs else None  # noqa: E731
    site_dir = Path(site_dir)
    pages = pages or ["index"] + list(cardkit.GAMES) + ["sources"]
    out: dict = {p: {"read": [], "python": [], "play": [], "clicks": []} for p in pages}
    first_files: set = set()
    bare: list = []          # a bare Pyodide page's seconds, once a round: the tables' baseline
    with serving_static(site_dir) as base, sync_playwright() as pw:
        browser = launch_chromium(pw)
        try:
            for r in range(repeats):
                bare.append(bare_page_time(browser, base, site_dir))
                for name in pages:
                    ctx = browser.new_context(service_workers="block", viewport={"width": 1280, "height": 900})
                    page = ctx.new_page()
                    if r == 0 and name == pages[0]:
                        page.on("request", lambda q: first_files.add(q.url))
                    page.goto(f"{base}/{name}.html", wait_until="commit")
                    out[name]["read"].append(page.wait_for_function(_STATIC_READ_JS, polling="raf", timeout=60000).json_value() / 1000)
                    if name in cardkit.GAMES:
                        page.wait_for_function(_STATIC_START_JS, polling="raf", timeout=180000)
                        out[name]["python"].append(page.wait_for_function(_STATIC_PYTHON_JS, polling="raf", timeout=180000).json_value() / 1000)
                        out[name]["play"].append(page.wait_for_function(_STATIC_PLAYABLE_JS, polling="raf", timeout=180000).json_value() / 1000)
                        if r == 0:
                            for _ in range(clicks):
                                if page.wait_for_function(_STATIC_PLAYABLE_OR_OVER_JS, polling="raf",
                                                          timeout=60000).json_value() == "over":
                                    break   # a short round (Vingt-et-un, Bakkarat): its clicks are enough
                                ms = page.evaluate(_STATIC_CLICK_JS)
                                if ms is None:
                                    break
                                out[name]["clicks"].append(ms / 1000)
                    else:
                        out[name]["python"].append(page.wait_for_function(_STATIC_PYTHON_JS, polling="raf", timeout=180000).json_value() / 1000)
                    ctx.close()
        finally:
            browser.close()
    first = [site_dir / u.split("//", 1)[1].split("/", 1)[1].split("?")[0] for u in first_files if u.startswith(base)]
    first = [f for f in first if f.is_file()]
    files = [f for f in site_dir.rglob("*") if f.is_file()]
    sizes = {"first": sum(f.stat().st_size for f in first), "first_gzip": sum(_gzip_size(f) for f in first),
             "site": sum(f.stat().st_size for f in files), "site_gzip": sum(_gzip_size(f) for f in files),
             "first_page": pages[0]}
    return {"pages": {p: {"read": med(v["read"]), "python": med(v["python"]), "play": med(v["play"]),
                          "click": med(v["clicks"]), "play_ratio": ratios_to_bare(v["play"], bare)}
                      for p, v in out.items()}, "sizes": sizes, "bare": med(bare)}


def _kernel_rss(server_pid: int) -> tuple[int, int]:
    """(number of kernels, their summed resident memory in bytes): the kernel processes below the
    server process (the site's kernels run widgets/guard.py, others ipykernel_launcher)."""
    import psutil
    count = rss = 0
    for p in psutil.Process(server_pid).children(recursive=True):
        try:
            cmdline = " ".join(p.cmdline())
            if "ipykernel" in cmdline or "guard.py" in cmdline:
                rss += p.memory_info().rss
                count += 1
        except psutil.Error:   # gone, or a zombie not yet reaped
            pass
    return count, rss


def load_times(pages=None, visitors: int = LOAD_VISITORS, repeats: int = 3, pool_size: int | None = None) -> dict:
    """`visitors` browsers arriving at the same moment on one page: the median of their seconds until
    interactive, and the resident memory of a kernel (the mean over the server's kernels, sampled once
    every page is interactive). Each page in turn, round after round, on one server served as
    `cardkit serve` does (the cap raised to fit the burst); between pages every tab is closed and the
    server is left until its visitors' kernels are gone and the pool is refilled."""
    import asyncio
    from playwright.async_api import async_playwright
    from .site import CHROMIUM_ARGS, MAX_KERNELS, NOTEBOOKS_DIR, POOL_SIZE, _READY_JS, chromium_executable, running_site
    pool_size = POOL_SIZE if pool_size is None else pool_size
    pages = ["baseline.ipynb"] + (pages or [f"{name}.ipynb" for name in cardkit.GAMES])
    # room for the burst beside the pool (one per notebook and pool place)
    max_kernels = max(MAX_KERNELS, pool_size * len(list(NOTEBOOKS_DIR.glob("*.ipynb"))) + visitors + 2)
    times: dict = {p: [] for p in pages}
    memory: dict = {p: [] for p in pages}

    async def visit(browser, url):
        ctx = await browser.new_context()
        page = await ctx.new_page()
        try:
            await page.goto(url, wait_until="commit", timeout=180_000)
            handle = await page.wait_for_function(_READY_JS, polling="raf", timeout=180_000)
        except Exception:   # not interactive within 3 minutes: counts as infinitely slow
            return ctx, page, float("inf")
        return ctx, page, await handle.json_value() / 1000

    async def main(base, server_pid):
        async with async_playwright() as pw:
            browser = await pw.chromium.launch(executable_path=chromium_executable(), headless=True, args=CHROMIUM_ARGS)
            await asyncio.sleep(15)   # the preheated pool (if any) starts and runs its notebooks
            idle = _kernel_rss(server_pid)[0]
            for _ in range(repeats):
                for name in pages:
                    done = await asyncio.gather(*(visit(browser, f"{base}/voila/render/{name}")
                                                  for _ in range(visitors)))
                    ts = sorted(t for _, _, t in done)
                    times[name].append(ts[len(ts) // 2])
                    await asyncio.sleep(1)
                    n, rss = _kernel_rss(server_pid)
                    memory[name].append(rss / max(n, 1))
                    for ctx, page, _ in done:   # beforeunload: each page shuts its kernel down
                        await page.close(run_before_unload=True)
                        await ctx.close()
                    for _ in range(1200):   # until the visitors' kernels are gone and the pool is refilled
                        if _kernel_rss(server_pid)[0] == idle:
                            break
                        await asyncio.sleep(0.1)
                    await asyncio.sleep(10)   # the refilled pool runs its notebooks
            await browser.close()

    with running_site(max_kernels=max_kernels, pool_size=pool_size) as base:
        asyncio.run(main(base, base.pid))
    return burst_summary(times, memory)


def burst_summary(times: dict, memory: dict, baseline: str = "baseline.ipynb") -> dict:
    """Per page, from its bursts' times (one per round, the rounds in the same order for every page) and
    memory: the median seconds and memory, and ``ratio``, the median over the rounds of the page's time
    over the baseline's time in the same round. The machine's speed drifts between rounds (the baseline's
    burst has taken 17 s in one run and 24 s in the next), so a page is compared with the baseline's burst
    of its own round, not median with median."""
    med = lambda xs: sorted(xs)[len(xs) // 2]  # noqa: E731
    base = times[baseline]
    return {p: {"seconds": med(ts), "memory": med(memory[p]), "bursts": list(ts),
                "ratio": med([t / b for t, b in zip(ts, base)])} for p, ts in times.items()}


def report_static(site_dir=None, out=print) -> dict:
    """The static site's rows: its pages on a cold visit and what a visit downloads (the expert in the browser:
    `bench_pyodide`, in Node.js, as the site's wheel lacks the tournament module that times it)."""
    import tempfile
    from pathlib import Path
    from .site import build_static
    with tempfile.TemporaryDirectory(prefix="cardkit-bench-site-") as tmp:
        if site_dir is None:
            site_dir = Path(tmp) / "site"
            if build_static(site_dir) != 0:
                raise RuntimeError("cardkit build-static failed")
        r = static_times(site_dir)
    ok = lambda good: "ok" if good else "MISSED"  # noqa: E731
    out(f"Static site (cardkit build-static, Python in the browser; a cold visit, median of 3 rounds; targets: "
        f"text on the screen ≤ {TARGET_STATIC_READ_S:g} s, a game's table playable ≤ {TARGET_STATIC_PLAY_S:g} s, "
        f"a click answered ≤ {TARGET_STATIC_CLICK_S * 1000:.0f} ms median; Python: until every widget of the page "
        f"works; × bare: the table's time over a bare Pyodide page's in the same round, median; the bare page "
        f"{r['bare']:.2f} s)")
    out(f"{'page':<22} {'text':>8} {'':>6} {'Python':>8} {'table':>8} {'':>6} {'× bare':>7} {'click':>8}")
    for name, p in r["pages"].items():
        line = (f"{name + '.html':<22} {p['read']:>6.2f} s {ok(p['read'] <= TARGET_STATIC_READ_S):>6} "
                f"{p['python']:>6.2f} s")
        if p["play"] is not None:
            line += f" {p['play']:>6.2f} s {ok(p['play'] <= TARGET_STATIC_PLAY_S):>6} {p['play_ratio']:>6.2f}×"
        if p["click"] is not None:
            line += f" {p['click'] * 1000:>5.0f} ms {ok(p['click'] <= TARGET_STATIC_CLICK_S)}"
        out(line)
    z = r["sizes"]
    out(f"Download: the first visit ({z['first_page']}.html) {z['first'] / 1e6:.1f} MB as served, "
        f"{z['first_gzip'] / 1e6:.1f} MB compressed (target ≤ {TARGET_STATIC_FIRST_MB} MB) "
        f"{ok(z['first_gzip'] <= TARGET_STATIC_FIRST_MB * 1e6)}; the whole site {z['site'] / 1e6:.1f} MB "
        f"({z['site_gzip'] / 1e6:.1f} MB compressed; target ≤ {TARGET_STATIC_SITE_MB} MB) "
        f"{ok(z['site'] <= TARGET_STATIC_SITE_MB * 1e6)}")
    return r


def run(seconds: float = 2.0, pages: bool = True, out=print, load: bool = True, static: bool = True,
        static_site=None) -> dict:
    results: dict[str, Any] = {"engine": [], "pages": {}, "load": {}, "static": {}}
    out(f"Engine (random games through the public protocol, {seconds:g} s each; targets: decisions/s "
        f"≥ {TARGET_DECISIONS:,}" + "".join(f", {g} ≥ {d:,}" + (f" and ≥ {h:,} hands/s" if h else "")
                                              for g, (d, h) in TARGETS.items()) + ")")
    # each case is measured turn about with OpenSpiel's games (`beside_openspiel`): a change in the
    # machine's load hits both
    reference = {n: _OpenSpielEngine(n) for n in OPENSPIEL_GAMES} if openspiel_available() else None
    rows = []
    for name, opts in _engine_cases():
        if reference:
            r = beside_openspiel(name, opts, seconds, reference=reference)
        else:
            r = engine_throughput(name, opts, seconds)
        results["engine"].append(r)
        rows.append((name, opts, r))
    out(f"{'game':<15} {'options':<14} {'games/s':>10} {'hands/s':>10} {'decisions/s':>13} {'target':>7}"
        + (f" {'× OpenSpiel':>12}" if reference else ""))
    for name, opts, r in rows:
        want_d, want_h = _targets(name)
        # a hands/s target is for the game's own rules (its defaults), e.g. Whist's random deals
        want_h = want_h if not opts else None
        ok = "ok" if r["decisions_per_s"] >= want_d and (want_h is None or r["hands_per_s"] >= want_h) else "MISSED"
        o = ",".join(f"{k}={v}" for k, v in opts.items()) or "defaults"
        line = (f"{name:<15} {o:<14} {r['games_per_s']:>10,.0f} {r['hands_per_s']:>10,.0f} "
                f"{r['decisions_per_s']:>13,.0f} {ok:>7}")
        if reference:
            ratio = r["openspiel_ratio"]
            line += f" {ratio:>6.2f}× {'ok' if ratio >= TARGET_OPENSPIEL_RATIO else 'MISSED'}"
        out(line)
    if reference:
        meds = sorted(r["openspiel_median"] for r in results["engine"])
        both = {n: sum(r["openspiel"][n] for r in results["engine"]) / len(results["engine"]) for n in OPENSPIEL_GAMES}
        results["openspiel"] = {"games": both, "median": sorted(both.values())[len(both) // 2]}
        out(f"OpenSpiel's C++ card games driven from Python the same way, measured turn about with each case "
            f"({ROUNDS} slices each; the ratio is to their median in those slices; target: every case ≥ "
            f"{TARGET_OPENSPIEL_RATIO}×). Their median ranged {meds[0]:,.0f}–{meds[-1]:,.0f} decisions/s over the "
            f"run; each game's mean: " + ", ".join(f"{n} {v:,.0f}" for n, v in both.items()))
    else:
        out("OpenSpiel: not measured (install it with pip install -e '.[bench]' to compare)")
    results["copies"] = report_copies(out)
    odds = [r for r in (odds_times(name, opts) for name, opts in [(g, {}) for g in cardkit.GAMES] + ODDS_CASES)
            if r is not None]
    results["odds"] = odds
    if odds:
        out(f"Exact odds (State.advice at {odds[0]['positions']} positions of random play; target < {TARGET_ODDS_SECONDS:g} s each)")
        for r in odds:
            ok = "ok" if r["max"] < TARGET_ODDS_SECONDS else "MISSED"
            o = ",".join(f"{k}={v}" for k, v in r["options"].items()) or "defaults"
            out(f"{r['game']:<15} {o:<18} median {r['median'] * 1000:8.1f} ms   slowest {r['max'] * 1000:8.1f} ms  {ok}")
    cold = [cold_odds_row(name, opts) for name, opts in COLD_ODDS_CASES]
    results["cold_odds"] = cold
    out(f"Exact odds cold (a fresh process, every odds memo emptied before each advice; CPU seconds, the slowest "
        f"per phase over seeded sittings and, in Vingt-et-un, every stake position; target ≤ "
        f"{TARGET_COLD_ODDS_SECONDS:g} s natively)")
    for r in cold:
        out(cold_odds_line(r, TARGET_COLD_ODDS_SECONDS))
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
    if pages and static:
        try:
            results["static"] = report_static(static_site, out)
        except Exception as e:  # no browser, no static tools, no Node.js
            out(f"Static site: not measured ({type(e).__name__}: {e})")
    if pages and load:
        results["load"] = burst = load_times()
        out(f"Under load ({LOAD_VISITORS} visitors arriving at once: their median seconds until interactive, "
            f"median of 3 bursts; the ratio to the baseline's burst of the same round, median of the rounds; "
            f"memory of a kernel; target ≤ {TARGET_LOAD_RATIO}× baseline)")
        for name, r in burst.items():
            ratio = r["ratio"]
            ok = "" if name == "baseline.ipynb" else ("ok" if ratio <= TARGET_LOAD_RATIO else "MISSED")
            out(f"{name:<18} {r['seconds']:>6.2f} s  {ratio:>5.2f}×  {r['memory'] / 2**20:>5.0f} MB  {ok}")
    return results
