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

import math
import time
from dataclasses import dataclass, field

import cardkit
from cardkit.bots import ExpertBot, bots_for, game_facts
from cardkit.game import Deal

Z95 = 1.959963984540054


def wilson(mean: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion `mean` observed over `n` trials."""
    if n <= 0:
        return 0.0, 1.0
    z2 = z * z
    centre = (mean + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * math.sqrt(max(mean * (1 - mean), 0.0) / n + z2 / (4 * n * n))
    lo = 0.0 if mean <= 0 else max(0.0, centre - half)
    hi = 1.0 if mean >= 1 else min(1.0, centre + half)
    return lo, hi


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
    cpu_seconds: float = 0.0     # the process's CPU time (steadier on a shared machine)
    fair: float = 0.5
    results: list = field(default_factory=list)

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
          games: int = 1000, seed: int = 0, progress=None, hands: bool = False) -> MatchResult:
    """Play `games` seeded games of `game_name` (with `options`): bot A against bot B, seats rotated
    (see the module docstring). Bots are the game's ``bots()`` and the expert (``bots.bots_for``) by name,
    or factories (callable(seed) -> bot); each bot gets its own seed. With `hands`, each "game" is the first
    scoring hand of a seeded game (``play_hand``), won by the side that gained most over it — for the games
    that are long matches of many hands."""
    options = dict(options or {})
    game = cardkit.load_game(game_name, **options)
    factories = bots_for(game)
    make = {}
    for x in (a, b):
        if isinstance(x, str):
            if x not in factories:
                raise cardkit.CardkitError(f"no bot {x!r} for {game_name}; bots: {', '.join(factories)}")
            make[x] = factories[x]
        elif not callable(x):
            raise cardkit.CardkitError(f"a bot is a name ({', '.join(factories)}) or a factory, not {x!r}")
    fa, fb = make.get(a, a), make.get(b, b)
    n = game.num_players
    k = len(sides_of(n, game))
    res = MatchResult(game_name, {"players": n} | {key: game.options[key] for key in options}, _label(a),
                      _label(b), fair=1 / k)
    start, cpu = time.perf_counter(), time.process_time()
    for i in range(games):
        mine = seats_of_a(n, i, game)
        game_seed = seed + i // k                  # each seed is played from every side
        bots = {p: (fa if p in mine else fb)(seed=(game_seed * 16 + p) & 0xFFFFFFFF) for p in range(n)}
        if hands:
            state, d, before, after = play_hand(game, game_seed, bots)
            r = result_for(hand_winners(before, after, game), mine, n, game)
        else:
            state, d = play_game(game, game_seed, bots)
            r = result_for(state.winners(), mine, n, game)
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
    res.seconds = time.perf_counter() - start
    res.cpu_seconds = time.process_time() - cpu
    return res


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
# game (or (game, players)) -> (playouts per decision in the evidence matches, whether a "game" is one scoring
# hand, how many games or hands: None for the number asked). A game of several hands is counted by hands
# (its first scoring hand from a seeded deal, ``play_hand``): a whole match of Sieben or Whist takes hundreds of
# decisions. Budgets below the default (ExpertBot.PLAYOUTS) keep the whole run near an hour of one core.
# Whist is run on 100 hands only: its scores are games, which a hand rarely moves, so the expert has little
# to weigh within a hand and plays the rule-based move almost always (see the README).
EXPERT_EVIDENCE: dict = {
    "magische7": (30, False, None), ("magische7", 4): (20, False, None),
    "sieben": (30, True, None), ("sieben", 2): (20, True, None),
    "whist": (20, True, 100),
    "ecarte": (40, True, None),
    "vierundzwanzig": (15, True, None),
    "vingt_et_un": (30, True, None),
    "faro": (20, True, None),
    "bakkarat": (40, True, None),
}


def expert_factory(playouts: int | None = None):
    """A factory for ``match``: the expert with `playouts` per decision (None: the default), named for it."""
    def make(seed: int = 0):
        return ExpertBot(seed=seed, playouts=playouts)
    make.name = "expert" if playouts is None else f"expert ({playouts} playouts)"
    return make


def expert_move_times(game_name: str, options: dict | None = None, positions: int = 30, seed: int = 11,
                      playouts: int | None = None) -> dict:
    """The expert's thinking at the default budget (or `playouts`) on `positions` decisions met in seeded
    games between rule-based bots (every third decision with a choice): the median and the slowest move
    (wall clock and CPU), and playouts per CPU second."""
    game = cardkit.load_game(game_name, **(options or {}))
    rule = game.bots()["rule-based"]
    wall, cpu, playouts_done = [], [], 0
    g = 0
    while len(wall) < positions and g < 200:
        state = game.new_state(seed=seed + g)
        bots = {p: rule(seed=g * 16 + p) for p in range(game.num_players)}
        step = 0
        while not state.is_terminal() and len(wall) < positions:
            p = state.current_player
            if len(state.legal_actions()) > 1:
                if step % 3 == 0:
                    bot = ExpertBot(seed=len(wall), playouts=playouts)
                    t, c = time.perf_counter(), time.process_time()
                    bot.analyse(state)
                    wall.append(time.perf_counter() - t)
                    cpu.append(time.process_time() - c)
                    playouts_done += bot.stats["playouts"]
                step += 1
            state.apply(bots[p].choose(state))
        g += 1
    wall.sort()
    cpu_sorted = sorted(cpu)
    return {"positions": len(wall), "median_s": wall[len(wall) // 2], "slowest_s": wall[-1],
            "median_cpu_s": cpu_sorted[len(cpu) // 2], "slowest_cpu_s": cpu_sorted[-1],
            "playouts_per_s": playouts_done / sum(cpu) if sum(cpu) else 0.0}


def expert_evidence(games: int = 500, seed: int = 0, only: str | None = None, out=print) -> list:
    """The expert against the rule-based bot at every registered game and player count (or `only` one game):
    `games` games (or hands, see ``EXPERT_EVIDENCE``) with the 95 % interval, and the expert's move times
    and playouts per second at the default budget. Written to `out` line by line."""
    rows = []
    t0, c0 = time.perf_counter(), time.process_time()
    out(f"expert vs rule-based; the expert's default budget is {ExpertBot.PLAYOUTS} playouts a decision")
    out(f"{'game':<15}{'n':>2}  {'unit':<5} {'playouts':>8} {'count':>6}  {'expert':>7}  {'95 % CI':<16}"
        f"{'even':>5}  {'match time':>10}   {'move: median':>12} {'slowest':>8} {'playouts/s':>10}")
    for name in cardkit.GAMES if only is None else [only]:
        counted = any(o.name == "players" for o in cardkit.game_class(name).option_specs)
        for n in player_counts(name):
            opts = {"players": n} if counted else {}
            playouts, hands, count = EXPERT_EVIDENCE.get((name, n)) or EXPERT_EVIDENCE.get(name, (None, False, None))
            r = match(name, opts, expert_factory(playouts), "rule-based", games=min(count or games, games),
                      seed=seed, hands=hands)
            t = expert_move_times(name, opts)
            lo, hi = r.ci
            rows.append((r, t, playouts, hands))
            out(f"{name:<15}{n:>2}  {'hand' if hands else 'game':<5} {playouts or ExpertBot.PLAYOUTS:>8} "
                f"{r.games:>6}  {r.win_rate:7.1%}  {f'{lo:.1%} – {hi:.1%}':<16}{r.fair:5.2f}  "
                f"{r.cpu_seconds:8.0f} s   {t['median_cpu_s'] * 1000:9.0f} ms {t['slowest_cpu_s'] * 1000:6.0f} ms "
                f"{t['playouts_per_s']:10,.0f}" + ("" if r.significant else "  (not significant)"))
    out(f"total {time.perf_counter() - t0:.0f} s ({time.process_time() - c0:.0f} s CPU); move times are CPU "
        "time on this machine, at the default budget")
    return rows


def main(argv=None) -> int:
    import argparse
    ap = argparse.ArgumentParser(prog="python -m cardkit.tournament",
                                 description="the expert bot's evidence: expert vs rule-based at every game")
    sub = ap.add_subparsers(dest="cmd", required=True)
    e = sub.add_parser("expert", help="expert vs rule-based, with the 95 %% interval and the move times")
    e.add_argument("game", nargs="?", choices=list(cardkit.GAMES), help="one game (default: all)")
    e.add_argument("--games", type=int, default=500, help="games (or hands) per game and player count")
    e.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    expert_evidence(games=args.games, seed=args.seed, only=args.game, out=lambda line: print(line, flush=True))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
