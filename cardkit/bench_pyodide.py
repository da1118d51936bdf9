"""`cardkit bench`'s rows for Python in the browser: the kit run by Pyodide (CPython compiled to WebAssembly, the
interpreter the static site ships) under Node.js, and the bare Pyodide page the static site's pages are compared with.

Why Node.js and not a page in Chromium: the same Pyodide (the static build's, npm's ``pyodide`` package as
cardkit/static_site/package-lock.json pins it) and the same kind of JavaScript engine (V8), without a browser's
pages, workers and compositor sharing the two cores, without a built site and a web server, and with the CPU time
of the one thread that runs Python (Linux's ``/proc/<pid>/task/<pid>/schedstat``): Emscripten has no CPU clock,
its ``time.process_time`` is the wall clock, which a loaded machine stretches. Each cold odds row runs in a fresh
Node.js process, so a fresh interpreter with nothing computed, as a visitor's first page has; the expert's rows
share one, as do undo, clone and playouts (`copy_cost_rows`). The kit is loaded
from its source (this package's files, copied into Pyodide's file system), not the site's compiled wheel: the
code that runs is the same; only importing it is slower, and imports are not timed here."""
from __future__ import annotations

import json
import subprocess
import tempfile
from pathlib import Path

TARGET_COLD_ODDS_BROWSER_S = 1.0        # issue 38: every Odds panel within 1 s in the browser

# The runner: node RUNNER PYODIDE_DIR KIT_DIR < code.py. Loads Pyodide, copies the kit's package into its file
# system, makes `time.process_time` the CPU time of the thread that runs Python, runs the code read from stdin
# (its prints on stdout) and prints {"start_s": ...} last: the seconds until Python was ready and the kit copied.
_RUNNER = r"""
const fs = require("fs"), path = require("path");
const [pyodideDir, kitDir] = process.argv.slice(2);
const code = fs.readFileSync(0, "utf8");
const { loadPyodide } = require(path.resolve(pyodideDir));
const stat = `/proc/${process.pid}/task/${process.pid}/schedstat`;   // the main thread's: it runs Python
globalThis.ck_thread_cpu = () => Number(fs.readFileSync(stat, "utf8").split(" ")[0]) / 1e9;
function copy(py, src, dst) {
  py.FS.mkdirTree(dst);
  for (const e of fs.readdirSync(src, { withFileTypes: true })) {
    if (e.name === "__pycache__" || e.name === "node_modules") continue;
    const s = path.join(src, e.name), d = dst + "/" + e.name;
    if (e.isDirectory()) copy(py, s, d); else if (e.isFile()) py.FS.writeFile(d, fs.readFileSync(s));
  }
}
(async () => {
  const t0 = performance.now();
  const py = await loadPyodide({ indexURL: path.resolve(pyodideDir) + "/",
                                 stdout: (t) => console.log(t), stderr: (t) => console.error(t) });
  copy(py, kitDir, "/home/pyodide/kit/cardkit");
  py.runPython(`
import sys, time, js
sys.path.insert(0, "/home/pyodide/kit")
sys.dont_write_bytecode = True
time.process_time = js.ck_thread_cpu
`);
  const start = (performance.now() - t0) / 1000;
  py.runPython(code);
  console.log(JSON.stringify({ start_s: start }));
})().catch((e) => { console.error(String(e)); process.exit(1); });
"""


def pyodide_dir() -> Path:
    """The static build's Pyodide core (npm ci into the build's cache when it is missing or stale)."""
    from .static_site.build import DEFAULT_CACHE, pyodide_core
    return pyodide_core(DEFAULT_CACHE)


def run_python(code: str, core: Path | None = None, timeout: float = 1800) -> tuple[list, float]:
    """Run `code` in a fresh Pyodide under Node.js, the kit importable: (the JSON values of the lines it printed,
    the seconds Pyodide took to start). A failure raises RuntimeError with the end of its error output."""
    core = core or pyodide_dir()
    kit = Path(__file__).resolve().parent
    with tempfile.TemporaryDirectory(prefix="cardkit-bench-pyodide-") as tmp:
        runner = Path(tmp) / "run.js"
        runner.write_text(_RUNNER)
        done = subprocess.run(["node", str(runner), str(core), str(kit)], input=code, capture_output=True,
                              text=True, timeout=timeout)
    if done.returncode:
        raise RuntimeError("Pyodide under Node.js failed: " + " | ".join(done.stderr.strip().splitlines()[-5:]))
    values = [json.loads(line) for line in done.stdout.splitlines() if line.startswith(("{", "["))]
    return values[:-1], values[-1]["start_s"]


def cold_odds_row(name: str, options: dict | None = None, core: Path | None = None, **kw) -> dict:
    """`cardkit.bench.cold_odds_times` in a fresh Pyodide (CPU seconds of the thread running Python), with
    ``start_s``, the seconds Pyodide took to start."""
    args = ", ".join(f"{k}={v!r}" for k, v in kw.items())
    code = ("import json\nfrom cardkit.bench import cold_odds_times\n"
            f"print(json.dumps(cold_odds_times({name!r}, {options or {}!r}{', ' + args if args else ''})))\n")
    (r,), start = run_python(code, core)
    return {**r, "start_s": start}


def cold_odds_rows(cases=None, core: Path | None = None) -> list:
    from .bench import COLD_ODDS_CASES
    core = core or pyodide_dir()
    return [cold_odds_row(name, opts, core) for name, opts in (cases or COLD_ODDS_CASES)]


def _each_game(call: str, games=None, core: Path | None = None) -> list:
    """In one fresh Pyodide, for every game (or `games`) and player count: `call`, an expression of ``name``,
    ``opts`` and ``game`` whose value is a dict, printed as a row beside the game and player count."""
    code = f"""
import json, cardkit
from cardkit.bots import THINK_MS_BROWSER, default_playouts, evidence_playouts
from cardkit.tournament import expert_move_times, hint_times, player_counts
for name in {list(games) if games else None!r} or cardkit.GAMES:
    for n in player_counts(name):
        opts = {{"players": n}} if "players" in cardkit.game_class(name)().options else {{}}
        game = cardkit.load_game(name, **opts)
        print(json.dumps({{"game": name, "players": n, **({call})}}))
"""
    rows, _ = run_python(code, core)
    return rows


def expert_times(positions: int = 10, games=None, core: Path | None = None) -> list:
    """The expert at the static site's budget (`THINK_MS_BROWSER` a move, never fewer playouts than the evidence),
    as the play table there thinks, in one fresh Pyodide (a page of the built site cannot: its wheel lacks
    `cardkit.tournament`, which times the moves): `positions` decisions of each game
    and player count; per row `tournament.expert_move_times`'s figures, the CPU ones by the thread's CPU time, and
    ``playouts_per_s`` (playouts a CPU second)."""
    return _each_game(f"""{{"evidence": evidence_playouts(game), **expert_move_times(name, opts, positions={positions},
        playouts=default_playouts(name), ms=THINK_MS_BROWSER, min_playouts=evidence_playouts(game))}}""", games, core)


def hint_rows(positions: int = 10, games=None, core: Path | None = None) -> list:
    """What a visitor of the static site waits for after "Hint" (`tournament.hint_times`: the play table's Hint
    within `table.HINT_MS`, an example's Hint at the game's fixed playouts), in one fresh Pyodide: `positions`
    decisions of each game and player count; the CPU figures by the thread's CPU time."""
    return _each_game(f"hint_times(name, opts, positions={positions})", games, core)


def copy_cost_rows(cases=None, core: Path | None = None) -> list:
    """`cardkit.bench.copy_costs` (a move, a clone, an undo and the expert's playouts a CPU second, half-way through
    seeded games) for each of `cases` (default `bench.COPY_CASES`) in one fresh Pyodide."""
    from .bench import COPY_CASES
    code = ("import json\nfrom cardkit.bench import copy_costs\n"
            f"for name, opts in {list(cases or COPY_CASES)!r}:\n"
            "    print(json.dumps(copy_costs(name, opts)))\n")
    rows, _ = run_python(code, core)
    return rows


def report(out=print, expert: bool = True) -> dict:
    """In Pyodide under Node.js, printed as tables: the cold odds rows, undo, clone and the expert's playouts a
    second beside the same natively (`bench.copy_costs`), and (`expert`) the expert's moves at the browser's budget."""
    import os
    core = pyodide_dir()
    load = os.getloadavg()
    cold = cold_odds_rows(core=core)
    out(f"Exact odds cold in Pyodide (the static site's Python, in Node.js; a fresh interpreter per row, every odds "
        f"memo emptied before each advice; CPU seconds of the thread running Python, the slowest per phase; target "
        f"≤ {TARGET_COLD_ODDS_BROWSER_S:g} s in the browser; load average {load[0]:.1f} at the start)")
    from .bench import COPY_CASES, cold_odds_line, copy_costs
    for r in cold:
        out(cold_odds_line(r, TARGET_COLD_ODDS_BROWSER_S))
    results = {"cold_odds": cold, "load": load}
    native = [copy_costs(name, opts) for name, opts in COPY_CASES]
    mine = results["copies"] = copy_cost_rows(core=core)
    out("Undo, clone and the expert's playouts in Pyodide (cardkit.bench.copy_costs in Node.js: CPU time of the thread "
        "running Python), beside the same natively, measured just before")
    out(f"{'game':<15} {'options':<14} {'move':>8} {'clone':>9} {'undo':>9} {'next undo':>10} {'playouts/s':>11} "
        f"{'natively':>9} {'× native':>9}")
    for r, n in zip(mine, native):
        o = ",".join(f"{k}={v}" for k, v in r["options"].items()) or "defaults"
        ratio = f"{r['playouts_per_s'] / n['playouts_per_s']:.2f}×" if r["playouts_per_s"] and n["playouts_per_s"] else ""
        out(f"{r['game']:<15} {o:<14} {r['move_s'] * 1e6:>5.1f} µs {r['clone_s'] * 1e6:>6.0f} µs "
            f"{r['undo_first_s'] * 1e6:>6.0f} µs {r['undo_next_s'] * 1e6:>7.0f} µs {r['playouts_per_s'] or 0:>11,.0f} "
            f"{n['playouts_per_s'] or 0:>9,.0f} {ratio:>9}")
    if expert:
        from .bench import TARGET_STATIC_EXPERT_S
        from .bots import THINK_MS_BROWSER
        rows = results["expert"] = expert_times(core=core)
        out(f"The expert in Pyodide (Node.js; the static site's budget: {THINK_MS_BROWSER / 1000:g} s a move by the "
            f"clock, never fewer playouts than the evidence; 10 decisions a row; CPU of the thread running Python; "
            f"target: a move ≤ {TARGET_STATIC_EXPERT_S:g} s of CPU)")
        out(f"{'game':<15} {'players':>7} {'median':>9} {'slowest':>9} {'CPU slowest':>12} {'playouts/s':>11} "
            f"{'fewest':>7} {'evidence':>9}")
        for e in rows:
            # judged by CPU time: on a loaded machine the clock's seconds are mostly other processes' (the
            # budget is the clock's, so there a move gets fewer playouts, never fewer than the evidence's)
            ok = "ok" if e["slowest_cpu_s"] <= TARGET_STATIC_EXPERT_S else "MISSED"
            out(f"{e['game']:<15} {e['players']:>7} {e['median_s'] * 1000:>6.0f} ms {e['slowest_s'] * 1000:>6.0f} ms "
                f"{e['slowest_cpu_s'] * 1000:>9.0f} ms {e['playouts_per_s']:>11,.0f} {e['fewest']:>7} "
                f"{e['evidence']:>9}  {ok}")
    if expert:
        from .bench import TARGET_HINT_S
        from .table import HINT_MS
        rows = results["hint"] = hint_rows(core=core)
        out(f"The Hint in Pyodide (Node.js): the play table's on the click (the exact odds, then the expert in what is "
            f"left of {HINT_MS / 1000:g} s by the clock, never fewer playouts than the evidence) and a worked example's "
            f"(the game's fixed playouts: also the static site's table Hint clicked at once, which it otherwise works out "
            f"while the visitor thinks); 10 decisions a row; CPU of the thread running Python; target: "
            f"≤ {TARGET_HINT_S:g} s)")
        out(f"{'game':<15} {'players':>7} {'table median':>13} {'slowest':>9} {'CPU':>8} {'fewest':>7} "
            f"{'example median':>15} {'slowest':>9} {'CPU':>8}")
        for h in rows:
            t, x = h["table"], h["example"]
            ok = "ok" if max(t["slowest_cpu_s"], x["slowest_cpu_s"]) <= TARGET_HINT_S else "MISSED"
            out(f"{h['game']:<15} {h['players']:>7} {t['median_s'] * 1000:>10.0f} ms {t['slowest_s'] * 1000:>6.0f} ms "
                f"{t['slowest_cpu_s'] * 1000:>5.0f} ms {h['fewest']:>7} {x['median_s'] * 1000:>12.0f} ms "
                f"{x['slowest_s'] * 1000:>6.0f} ms {x['slowest_cpu_s'] * 1000:>5.0f} ms  {ok}")
    return results
