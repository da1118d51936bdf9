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


def match(game_name: str, options: dict | None = None, a: str = "rule-based", b: str = "random",
          games: int = 1000, seed: int = 0, progress=None) -> MatchResult:
    """Play `games` seeded games of `game_name` (with `options`): bot A against bot B, seats rotated
    (see the module docstring). Bots are the game's ``bots()`` by name; each bot gets its own seed."""
    options = dict(options or {})
    game = cardkit.load_game(game_name, **options)
    factories = game.bots()
    for name in (a, b):
        if name not in factories:
            raise cardkit.CardkitError(f"no bot {name!r} for {game_name}; bots: {', '.join(factories)}")
    n = game.num_players
    k = len(sides_of(n, game))
    res = MatchResult(game_name, {"players": n} | {key: game.options[key] for key in options}, a, b,
                      fair=1 / k)
    start, cpu = time.perf_counter(), time.process_time()
    for i in range(games):
        mine = seats_of_a(n, i, game)
        game_seed = seed + i // k                  # each seed is played from every side
        bots = {p: factories[a if p in mine else b](seed=(game_seed * 16 + p) & 0xFFFFFFFF)
                for p in range(n)}
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
