"""Matches between bots: N seeded games of one game and options, seats rotated, with a confidence interval.

    from cardkit.tournament import match
    r = match("sieben", {"players": 2}, "rule-based", "careful", games=1000, seed=0)
    r.win_rate, r.ci, r.decisions_per_s

How the seats are filled (so that no seat advantage biases the result):

* **2 players**: game ``i`` puts bot A in seat ``i % 2`` and B in the other; each seed is played twice,
  once from each seat (the same first deal both ways).
* **partnerships** (the game's ``sides()``: Whist, and Magische 7 and Sieben with 4 players): the partners
  opposite form a team: A holds seats ``i % 2`` and ``i % 2 + 2``, B the others, each seed again played
  from both sides.
* **each for himself, 3 or more** (24 with 3 to 5): one A against the Bs, A in seat ``i % n``, each seed
  played from every seat. A's fair share is 1/n, not 1/2.

A game's result for A is the share of the winning sides that are A's: 1 for a win, 0 for a loss, 1/2 for a
two-way draw (1/k when A is one of k tied sides). The win rate is the mean over the games; its 95 %
confidence interval is the Wilson score interval (z = 1.96) of that mean over the number of games —
conservative when there are draws. ``fair`` is the even result the interval is compared with: 1/2, or
1/3 with three players.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

import cardkit
from cardkit.bots import (EVIDENCE_PLAYOUTS, GAME_PLAYOUTS, THINK_MS_SERVER, ExpertBot, bots_for, default_playouts,
                          game_bots, game_facts)
from cardkit.game import Deal
from cardkit.stats import mean_ci, wilson


def sides_of(num_players: int, game=None) -> list[list[int]]:
    """The sides of a game: the seats of each team or each seat alone — the game's own ``sides()`` when
    `game` is given; else by the player count (4 players: partners opposite)."""
    if game is not None:
        return game.sides()
    if num_players == 4:
        return [[0, 2], [1, 3]]
    return [[p] for p in range(num_players)]


def seats_of_a(num_players: int, i: int, game=None) -> list[int]:
    """The seats bot A holds in game `i` of a match (rotating; see the module docstring)."""
    sides = sides_of(num_players, game)
    return sides[i % len(sides)]


def result_for(winners, seats: list[int], num_players: int, game=None) -> float:
    """A's share of a finished game: of the sides with a winner, the fraction that is A's side (1 for a
    win, 0 for a loss, 1/2 for a two-way draw, 1/k when A is one of k tied sides)."""
    won = [tuple(s) for s in sides_of(num_players, game) if any(p in winners for p in s)]
    if not won:
        return 0.0
    return sum(1 for s in won if set(s) <= set(seats)) / len(won)


@dataclass
class MatchResult:
    game: str
    options: dict
    a: str
    b: str
    games: int = 0
    total: float = 0.0          # A's summed results
    wins: int = 0
    draws: int = 0               # games A shared with another side
    losses: int = 0
    decisions: int = 0
    seconds: float = 0.0         # wall-clock time of the match
    cpu_seconds: float = 0.0     # the process's CPU time (steadier on a shared machine), its workers' included
    worker_cpu_seconds: float = 0.0   # of which the worker processes' (``match`` with `jobs`)
    fair: float = 0.5
    results: list = field(default_factory=list)
    # with a baseline (see `match`), per game: A's result minus the baseline's in the same seats on the same
    # deal (`paired`), and A's side's gain minus the baseline's (`money`)
    paired: list = field(default_factory=list)
    money: list = field(default_factory=list)

    @property
    def paired_stats(self) -> tuple[float, float, float]:
        """(mean, low, high) of the paired differences of result (`mean_ci`)."""
        return mean_ci(self.paired)

    @property
    def money_stats(self) -> tuple[float, float, float]:
        """(mean, low, high) of the paired differences of points or money."""
        return mean_ci(self.money)

    @property
    def win_rate(self) -> float:
        return self.total / self.games if self.games else 0.0

    @property
    def ci(self) -> tuple[float, float]:
        return wilson(self.win_rate, self.games)

    @property
    def decisions_per_s(self) -> float:
        return self.decisions / self.seconds if self.seconds else 0.0

    @property
    def significant(self) -> bool:
        """The 95 % interval excludes the even result (1/2, or 1/3 with three players)."""
        lo, hi = self.ci
        return lo > self.fair or hi < self.fair

    @property
    def players(self) -> int:
        return self.options.get("players", 2)

    def row(self) -> str:
        lo, hi = self.ci
        pairing = f"{self.a} vs {self.b}"
        return (f"{self.game:<10} {self.players:>2}  {pairing:<26} {self.games:>6}  {self.win_rate:7.1%}  "
                f"{f'{lo:.1%} – {hi:.1%}':<16} {self.fair:5.2f}  {self.decisions_per_s:>11,.0f}/s  "
                f"{self.seconds:6.1f} s ({self.cpu_seconds:.1f} s CPU)")


def play_game(game, seed: int, bots_by_seat: dict):
    """One seeded game played out by the given bots (seat -> bot). Returns (state, decisions)."""
    state = game.new_state(seed=seed)
    decisions = 0
    while not state.is_terminal():
        p = state.current_player
        state.apply(bots_by_seat[p].choose(state))
        decisions += 1
    return state, decisions


def play_hand(game, seed: int, bots_by_seat: dict, most: int = 4):
    """The first scoring hand of a seeded game, played by the given bots: from the first deal to the end of
    the first hand after which the scores have moved (a new deal follows; at most `most` hands), or to the
    end of the game. Returns (state, decisions, scores before, scores after)."""
    state = game.new_state(seed=seed)
    before = state.scores()
    decisions = hands = 0
    while not state.is_terminal():
        p = state.current_player
        state.apply(bots_by_seat[p].choose(state))
        decisions += 1
        if state.history[-1].__class__ is Deal:
            hands += 1
            if hands >= most or state.scores() != before:
                break
    return state, decisions, before, state.scores()


def hand_winners(before, after, game) -> list[int]:
    """The seats of the sides that gained most over a hand (the sign turned where the lowest score wins):
    every side when nobody gained more than another."""
    sign = game_facts(game)["sign"]
    sides = sides_of(game.num_players, game)
    gain = [sign * (after[s[0]] - before[s[0]]) for s in sides]
    best = max(gain)
    return [p for s, g in zip(sides, gain) if g == best for p in s]


def _label(bot) -> str:
    """A bot's name in a result: its name, or a factory's ``name`` (e.g. ``expert_with``'s)."""
    return bot if isinstance(bot, str) else getattr(bot, "name", None) or repr(bot)


def match(game_name: str, options: dict | None = None, a="rule-based", b="random",
          games: int = 1000, seed: int = 0, progress=None, hands: bool = False, baseline=None,
          jobs: int = 1) -> MatchResult:
    """Play `games` seeded games of `game_name` (with `options`): bot A against bot B, seats rotated
    (see the module docstring). Bots are the game's ``bots()`` and the expert (``bots.bots_for``) by name,
    or factories (callable(seed) -> bot); each bot gets its own seed. With `hands`, each "game" is the first
    scoring hand of a seeded game (``play_hand``), won by the side that gained most over it — for the games
    that are long matches of many hands.

    With a `baseline` bot, every game is played a second time with the baseline in A's seats (the same seed,
    the same seeds for every bot): ``paired`` gets, per game, A's result minus the baseline's, and ``money``
    what A's side gained (its score's change, e.g. money in a banking game; a loss of points where the lowest
    score wins) minus what the baseline gained in its place. Paired on the same deals against the same
    opponents, these are far less noisy than the win share, where the cards decide most games.

    With `jobs` above 1 the games are shared among that many worker processes (where the platform can fork
    them); every game depends only on its seed and index, so the result is the same as with one, only its
    times differ (``cpu_seconds`` then counts the workers' CPU time)."""
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise cardkit.CardkitError(f"jobs must be a positive integer, not {jobs!r}")
    options = dict(options or {})
    game = cardkit.load_game(game_name, **options)
    factories = bots_for(game)
    make = {}
    for x in (a, b) if baseline is None else (a, b, baseline):
        if isinstance(x, str):
            if x not in factories:
                raise cardkit.CardkitError(f"no bot {x!r} for {game_name}; bots: {', '.join(factories)}")
            make[x] = factories[x]
        elif not callable(x):
            raise cardkit.CardkitError(f"a bot is a name ({', '.join(factories)}) or a factory, not {x!r}")
    fa, fb = make.get(a, a), make.get(b, b)
    f0 = make.get(baseline, baseline)
    sign = game_facts(game)["sign"] if f0 is not None else 1   # where the lowest score wins, less is a gain
    n = game.num_players
    k = len(sides_of(n, game))
    res = MatchResult(game_name, {"players": n} | {key: game.options[key] for key in options}, _label(a),
                      _label(b), fair=1 / k)
    start, cpu = time.perf_counter(), time.process_time()
    one = _OneGame(game, n, k, seed, fa, fb, f0, sign, hands)
    worker_cpu = 0.0
    if jobs > 1 and games > 1:
        import multiprocessing
        if "fork" not in multiprocessing.get_all_start_methods():
            raise cardkit.CardkitError("jobs above 1 need worker processes that this platform cannot fork")
        global _ONE
        _ONE = one                      # the forked workers inherit it: the bots' factories need no pickling
        try:
            with multiprocessing.get_context("fork").Pool(min(jobs, games)) as pool:
                outcomes = pool.imap(_one_game, range(games))
                for out in outcomes:
                    worker_cpu += out[-1]
                    _tally(res, *out[:-1], progress=progress)
        finally:
            _ONE = None
    else:
        for i in range(games):
            _tally(res, *one(i), progress=progress)
    res.seconds = time.perf_counter() - start
    res.cpu_seconds = time.process_time() - cpu + worker_cpu
    res.worker_cpu_seconds = worker_cpu
    return res


class _OneGame:
    """One game of a ``match`` by its index: (result, decisions, paired difference, money difference); the
    last two None without a baseline."""

    def __init__(self, game, n, k, seed, fa, fb, f0, sign, hands):
        self.game, self.n, self.k, self.seed = game, n, k, seed
        self.fa, self.fb, self.f0, self.sign, self.hands = fa, fb, f0, sign, hands

    def __call__(self, i: int) -> tuple[Any, Any, Any, Any]:
        game, n, fa, fb, f0, hands = self.game, self.n, self.fa, self.fb, self.f0, self.hands
        mine = seats_of_a(n, i, game)
        game_seed = self.seed + i // self.k          # each seed is played from every side
        bots = {p: (fa if p in mine else fb)(seed=(game_seed * 16 + p) & 0xFFFFFFFF) for p in range(n)}
        if hands:
            state, d, before, after = play_hand(game, game_seed, bots)
            r = result_for(hand_winners(before, after, game), mine, n, game)
        else:
            before = game.new_state(seed=game_seed).scores()
            state, d = play_game(game, game_seed, bots)
            after = state.scores()
            r = result_for(state.winners(), mine, n, game)
        if f0 is None:
            return r, d, None, None
        bots = {p: (f0 if p in mine else fb)(seed=(game_seed * 16 + p) & 0xFFFFFFFF) for p in range(n)}
        if hands:
            _, _, before0, after0 = play_hand(game, game_seed, bots)
            r0 = result_for(hand_winners(before0, after0, game), mine, n, game)
        else:
            state0 = play_game(game, game_seed, bots)[0]
            before0, after0 = before, state0.scores()
            r0 = result_for(state0.winners(), mine, n, game)
        q = mine[0]
        return r, d, r - r0, self.sign * ((after[q] - before[q]) - (after0[q] - before0[q]))


_ONE: _OneGame | None = None   # the game a worker process plays (set before the pool forks)


def _one_game(i: int) -> tuple[Any, Any, Any, Any, float]:
    c = time.process_time()
    one = _ONE
    assert one is not None
    out = one(i)
    return (*out, time.process_time() - c)


def _tally(res: MatchResult, r, d, paired, money, progress=None) -> None:
    """Count one game's outcome into `res`."""
    if paired is not None:
        res.paired.append(paired)
        res.money.append(money)
    res.results.append(r)
    res.total += r
    res.games += 1
    res.decisions += d
    if r == 1:
        res.wins += 1
    elif r == 0:
        res.losses += 1
    else:
        res.draws += 1
    if progress is not None:
        progress(res)


def player_counts(game_name: str) -> list[int]:
    cls = cardkit.game_class(game_name)
    spec = next((o for o in cls.option_specs if o.name == "players"), None)
    return list(spec.choices) if spec else [2]


EVIDENCE_PAIRINGS = (("rule-based", "random"), ("rule-based", "careful"))


def evidence(games: int = 1000, seed: int = 0, pairings=EVIDENCE_PAIRINGS, out=print) -> list[MatchResult]:
    """Every registered game at every player count: each pairing over `games` games (`cardkit match --all`)."""
    results = []
    t0, cpu = time.perf_counter(), time.process_time()
    out(f"{'game':<10} {'n':>2}  {'pairing (A vs B)':<26} {'games':>6}  {'A wins':>7}  {'95 % CI':<16} "
        f"{'even':>5}  {'decisions/s':>13}  {'time (CPU)':>8}")
    for name in cardkit.GAMES:
        counted = any(o.name == "players" for o in cardkit.game_class(name).option_specs)
        for n in player_counts(name):
            for a, b in pairings:
                r = match(name, {"players": n} if counted else {}, a, b, games=games, seed=seed)
                results.append(r)
                out(r.row() + ("" if r.significant else "  (not significant)"))
    out(f"total {time.perf_counter() - t0:.0f} s ({time.process_time() - cpu:.0f} s CPU)")
    return results


def markdown_table(results: list[MatchResult]) -> str:
    lines = ["| game | players | pairing (A vs B) | games | A's win rate | 95 % CI | even | decisions/s | time (CPU) |",
             "|---|---|---|---|---|---|---|---|---|"]
    for r in results:
        lo, hi = r.ci
        lines.append(f"| {r.game} | {r.players} | {r.a} vs {r.b} | {r.games:,} | {r.win_rate:.1%} | "
                     f"{lo:.1%} – {hi:.1%} | {r.fair:.2f} | {r.decisions_per_s:,.0f} | {r.seconds:.0f} s "
                     f"({r.cpu_seconds:.0f} s) |")
    return "\n".join(lines)


# --- the expert's evidence -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Plan:
    """How the evidence measures the expert in one game and player count: its budget in the matches
    (`playouts` a decision; None: the game's default, ``bots.default_playouts``), the `unit` counted — a whole "game",
    or a "hand": the first scoring hand of a seeded game (``play_hand``), for the games that are long matches
    of many hands — and how many (`count`; None: as many as asked, 500 by default)."""
    playouts: int | None = None
    unit: str = "game"
    count: int | None = None


# game, or (game, players) -> Plan. Whole games everywhere (a Plan's unit "hand" stays for trials): Die Magische 7
# (one hand a game), Écarté (a match of a few deals), 24 (a match of a few hands: 106 minutes of one core for
# the four player counts; counted in first hands, its edge of a few points of share was within the interval
# at 2 and 5 players), Sieben (a game of 10-18 hands: 54 and 45 minutes with 3 and 4 players, 162 with 2 —
# 30 playouts a decision; counted in first hands the edge was +19.0, +8.6 and, at 100 playouts, +6.0 points
# of share, over whole games +57.0, +26.8 and +23.6: a few tenths of a game point a hand decide a game), the
# banking games (a sitting: Vingt-et-un's coups, Faro's and Bakkarat's packs dealt out), Whist (a game of
# about 12 hands: 174 minutes of one core at 20 playouts; counted in first hands the edge was +2.4 points of
# share, over whole games +7.6). Budgets below the default keep the whole run near fourteen hours of one core here. Bakkarat runs at the
# default: at 30 playouts its win share was +1.6 points (−0.6 … +3.7) paired, at 100 +2.9 (+0.9 … +4.9)
# (money +4.2 and +8.3 units a sitting); Vingt-et-un and Écarté (then with the careful bot's playouts) gained nothing at 100
# (−0.6 and −0.8 points of share). Écarté counts 1,000 matches: its edge of under 3 points of share needs them
# to be told from nothing (500: +2.8, −0.4 … +6.0; the next 500 seeds +2.6); they cost about 290 minutes of one
# core, its rule-based playouts solving the rest of the deal at every card. The move times are measured at
# the default budget.
EXPERT_EVIDENCE: dict = {key: Plan(playouts, count=1000 if key == "ecarte" else None)
                         for key, playouts in EVIDENCE_PLAYOUTS.items()}
THINK_S = THINK_MS_SERVER / 1000   # the play table (on `cardkit serve`) stops the expert's thinking after this long


def expert_plan(game_name: str, players: int) -> Plan:
    return EXPERT_EVIDENCE.get((game_name, players)) or EXPERT_EVIDENCE.get(game_name) or Plan()


class _ExpertFactory:
    """Makes the expert with `playouts` per decision (None: the default) for a seed; named for it."""

    def __init__(self, playouts: int | None):
        self.playouts = playouts
        self.name = "expert" if playouts is None else f"expert ({playouts} playouts)"

    def __call__(self, seed: int = 0) -> ExpertBot:
        return ExpertBot(seed=seed, playouts=self.playouts)


def expert_factory(playouts: int | None = None) -> _ExpertFactory:
    """A factory for ``match``: the expert with `playouts` per decision (None: the default), named for it."""
    return _ExpertFactory(playouts)


def expert_move_times(game_name: str, options: dict | None = None, positions: int = 30, seed: int = 11,
                      playouts: int | None = None, ms: float | None = None, min_playouts: int | None = None) -> dict:
    """The expert's thinking at the default budget (or `playouts`, `ms`, `min_playouts` as ``ExpertBot`` takes
    them: the play table's budget) on `positions` decisions met in seeded games between rule-based bots (every
    third decision with a choice): the median and the slowest move (wall clock and CPU), playouts per CPU
    second, the fewest playouts a move got (``fewest``), and ``at_cap``: the fewest playouts a move reaches
    within the play table's `THINK_S` seconds (at each slower move's own rate, by CPU time; None when every
    move finished within them)."""
    game = cardkit.load_game(game_name, **(options or {}))
    rule = game_bots(game)["rule-based"]
    wall: list[float] = []
    cpu: list[float] = []
    done: list[int] = []
    g = 0
    while len(wall) < positions and g < 200:
        state = game.new_state(seed=seed + g)
        bots = {p: rule(seed=g * 16 + p) for p in range(game.num_players)}
        step = 0
        while not state.is_terminal() and len(wall) < positions:
            p = state.current_player
            if len(state.legal_actions()) > 1:
                if step % 3 == 0:
                    bot = ExpertBot(seed=len(wall), playouts=playouts, ms=ms, min_playouts=min_playouts)
                    t, c = time.perf_counter(), time.process_time()
                    bot.analyse(state)
                    wall.append(time.perf_counter() - t)
                    cpu.append(time.process_time() - c)
                    done.append(bot.stats["playouts"])
                step += 1
            state.apply(bots[p].choose(state))
        g += 1
    capped = [int(d * THINK_S / c) for d, c in zip(done, cpu) if c > THINK_S]
    at_cap = min(capped) if capped else None          # None: every move finished within the cap
    ws, cs = sorted(wall), sorted(cpu)
    return {"positions": len(wall), "median_s": ws[len(ws) // 2], "slowest_s": ws[-1],
            "median_cpu_s": cs[len(cs) // 2], "slowest_cpu_s": cs[-1],
            "playouts_per_s": sum(done) / sum(cpu) if sum(cpu) else 0.0, "at_cap": at_cap, "fewest": min(done)}


def hint_times(game_name: str, options: dict | None = None, positions: int = 10, seed: int = 11) -> dict:
    """What a visitor waits for after "Hint", on `positions` decisions met in seeded games between rule-based bots
    (every third decision with a choice), asked from the seat to play: the play table's Hint (`Table.hint`: the
    exact odds, then the expert in the time left of `table.HINT_MS`, never fewer playouts than the evidence) and
    an example's Hint (`share.puzzle_question`: the game's fixed playouts). Per kind (``table``, ``example``)
    the median and the slowest by the clock, the slowest by CPU, and ``fewest``: the fewest playouts of the
    table's Hint."""
    from .share import puzzle_question
    from .table import Table
    game = cardkit.load_game(game_name, **(options or {}))
    rule = game_bots(game)["rule-based"]
    table = Table(game_name, people=(next(iter(game.deciders())),), seed=seed, deal=False, **(options or {}))
    times: dict = {"table": ([], []), "example": ([], [])}
    fewest = None
    g = 0
    while len(times["table"][0]) < positions and g < 200:
        state = game.new_state(seed=seed + g)
        bots = {p: rule(seed=g * 16 + p) for p in range(game.num_players)}
        step = 0
        while not state.is_terminal() and len(times["table"][0]) < positions:
            p = state.current_player
            if len(state.legal_actions()) > 1:
                if step % 3 == 0:
                    table.human = p
                    t, c = time.perf_counter(), time.process_time()
                    est, _ = table.hint(state)
                    times["table"][0].append(time.perf_counter() - t)
                    times["table"][1].append(time.process_time() - c)
                    n = sum(e.samples for e in est)
                    fewest = n if fewest is None else min(fewest, n)
                    record = state.to_record()
                    t, c = time.perf_counter(), time.process_time()
                    puzzle_question(record, len(record.actions), to_player=False)
                    times["example"][0].append(time.perf_counter() - t)
                    times["example"][1].append(time.process_time() - c)
                step += 1
            state.apply(bots[p].choose(state))
        g += 1
    out: dict = {"positions": len(times["table"][0]), "fewest": fewest}
    for kind, (wall, cpu) in times.items():
        ws = sorted(wall)
        out[kind] = {"median_s": ws[len(ws) // 2], "slowest_s": ws[-1], "slowest_cpu_s": max(cpu)}
    return out


def _pm(m: float, lo: float, hi: float, pct: bool = False) -> str:
    f = (lambda x: f"{100 * x:+.1f}") if pct else (lambda x: f"{x:+.2f}")
    return f"{f(m)} ({f(lo)} … {f(hi)})"


def expert_evidence(games: int = 500, seed: int = 0, only: str | None = None, players: int | None = None,
                    out=print, times: bool = True, jobs: int = 1) -> list:
    """The expert against the rule-based bot at every registered game and player count (or `only` one game,
    `players` one count): `games` games or hands (see ``EXPERT_EVIDENCE``), the expert in one side's seats
    and rule-based bots in the others, seats rotated. For each: the expert's win share with its 95 % (Wilson)
    interval; paired on the same deals against the same opponents, how much better the expert did than the
    rule-based bot in its place (``match`` with a baseline): the difference of the win share and of the
    points (money in the banking games) a game or hand, each with its 95 % interval; then (`times`) the
    expert's move times at the default budget. Written to `out` line by line; returns (MatchResult, times).
    `jobs` worker processes share each match's games (the same figures; see ``match``)."""
    rows = []
    t0, c0 = time.perf_counter(), time.process_time()
    workers = 0.0           # CPU time of the worker processes (with `jobs`), beside this process's own
    out(f"The expert against the rule-based bot (the expert's side in rotating seats, rule-based bots in the "
        f"others); its default budget is {ExpertBot.PLAYOUTS} playouts a decision"
        + "".join(f", {p} in {g}" for g, p in GAME_PLAYOUTS.items()) + ".")
    out("share: the expert's win share (ties shared) and its 95 % interval; even: the share of a side that is "
        "no better. paired: on the same deals against the same opponents, the expert's result minus the "
        "rule-based bot's in its place — win share in points of percent, and points (money in the banking "
        "games) a game or hand — mean (95 % interval).")
    out(f"{'game':<15}{'n':>2}  {'unit':<5}{'playouts':>8}{'count':>6}  {'share':>6} {'95 % CI':<14}{'even':>5}  "
        f"{'paired: share':<26}{'paired: points':<28}{'CPU':>7}")
    speed = []
    for name in cardkit.GAMES if only is None else [only]:
        counted = any(o.name == "players" for o in cardkit.game_class(name).option_specs)
        for n in player_counts(name):
            if players is not None and n != players:
                continue
            opts = {"players": n} if counted else {}
            plan = expert_plan(name, n)
            r = match(name, opts, expert_factory(plan.playouts), "rule-based", games=plan.count or games,
                      seed=seed, hands=plan.unit == "hand", baseline="rule-based", jobs=jobs)
            workers += r.worker_cpu_seconds
            lo, hi = r.ci
            out(f"{name:<15}{n:>2}  {plan.unit:<5}{plan.playouts or default_playouts(name):>8}{r.games:>6}  "
                f"{r.win_rate:6.1%} {f'{100 * lo:.1f} – {100 * hi:.1f}':<14}{r.fair:5.2f}  "
                f"{_pm(*r.paired_stats, pct=True):<26}{_pm(*r.money_stats):<28}"
                f"{r.cpu_seconds:6.0f} s" + ("" if r.significant else "  (share not significant)"))
            t = expert_move_times(name, opts) if times else None
            rows.append((r, t))
            if t is not None:
                speed.append((name, n, t))
    if times:
        out("")
        out(f"The expert's move at its default budget ({ExpertBot.PLAYOUTS} playouts; {', '.join(f'{g} {p}' for g, p in GAME_PLAYOUTS.items())}), on 30 positions of games "
            f"between rule-based bots: median and slowest, wall clock and CPU; playouts per CPU second; the "
            f"playouts the slowest move reaches within the play table's {THINK_S:g} s (all: every move finished "
            "within them).")
        out(f"{'game':<15}{'n':>2}  {'median: wall':>12} {'CPU':>7}  {'slowest: wall':>13} {'CPU':>7}  "
            f"{'playouts/s':>10}  {f'at {THINK_S:g} s':>8}")
        for name, n, t in speed:
            out(f"{name:<15}{n:>2}  {t['median_s'] * 1000:9.0f} ms {t['median_cpu_s'] * 1000:4.0f} ms  "
                f"{t['slowest_s'] * 1000:10.0f} ms {t['slowest_cpu_s'] * 1000:4.0f} ms  "
                f"{t['playouts_per_s']:10,.0f}  {'all' if t['at_cap'] is None else t['at_cap']:>8}")
    out(f"total {time.perf_counter() - t0:.0f} s ({time.process_time() - c0 + workers:.0f} s CPU) on this machine")
    return rows


def main(argv=None) -> int:
    import argparse
    ap = argparse.ArgumentParser(prog="python -m cardkit.tournament",
                                 description="the expert bot's evidence: expert vs rule-based at every game")
    sub = ap.add_subparsers(dest="cmd", required=True)
    e = sub.add_parser("expert", help="expert vs rule-based, with the 95 %% interval and the move times")
    e.add_argument("game", nargs="?", choices=list(cardkit.GAMES), help="one game (default: all)")
    e.add_argument("--only", choices=list(cardkit.GAMES), help="one game (the same as naming it)")
    e.add_argument("--players", type=int, help="only this player count")
    e.add_argument("--games", type=int, default=500, help="games (or hands) per game and player count")
    e.add_argument("--seed", type=int, default=0)
    e.add_argument("--no-times", action="store_true", help="leave out the move times")
    e.add_argument("--jobs", type=int, default=1,
                   help="worker processes sharing each match's games (the same figures, sooner)")
    args = ap.parse_args(argv)
    if args.jobs < 1:
        ap.error(f"--jobs must be at least 1, not {args.jobs}")
    expert_evidence(games=args.games, seed=args.seed, only=args.only or args.game, players=args.players,
                    times=not args.no_times, jobs=args.jobs, out=lambda line: print(line, flush=True))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
