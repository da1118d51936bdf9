"""Measuring the impact of the disputed readings: ``cardkit impact GAME`` plays the paired games and
writes what ``cardkit.impact`` reads (the JSON per game and a plot per option). See ``cardkit.impact`` for
what is measured. The pages never import this module; it imports matplotlib and tqdm only inside the
functions that generate.
"""
from __future__ import annotations

import json
import sys
import time
from fractions import Fraction
from pathlib import Path
from typing import Any

import cardkit
from ..bots import game_bots
from ..stats import wilson
from ..tournament import result_for
from . import BANKING, _key, _vkey, disputed, in100, load, setting, summary

CHUNK = 500                 # seeds per stored aggregate
GAMES = 10_000              # games per reading by default
FORMAT = "cardkit-impact"
VERSION = 1
BOT = "rule-based"


# --- situations a game can name ------------------------------------------------------------------------
def _m7_tricks(state):
    return [t for won in state.won for t in won]


def _m7_count(pred):
    return lambda state: sum(1 for led, follow, *_ in _m7_tricks(state) if pred(led, follow))


SITUATIONS = {
    ("magische7", "joker_vs_spiegel"): ("a Joker is led and a Spiegel answers it",
                                        _m7_count(lambda a, b: a.kind == "joker" and b.kind == "spiegel")),
    ("magische7", "kreuz_vs_spiegel"): ("a Kreuz is led and a Spiegel answers it",
                                        _m7_count(lambda a, b: a.kind == "kreuz" and b.kind == "spiegel")),
    ("magische7", "spiegel_scoring"): ("a Spiegel meets a point card worth something",
                                       _m7_count(lambda a, b: (a.kind == "spiegel" and b.kind == "point"
                                                               and b.value != 0) or
                                                 (b.kind == "spiegel" and a.kind == "point" and a.value != 0))),
    ("magische7", "joker_tops_up"): ("a Joker answers a led Joker, Spiegel or Kreuz",
                                     _m7_count(lambda a, b: b.kind == "joker" and a.kind != "point")),
}


# --- the bank ------------------------------------------------------------------------------------------
def _bank_sides(state) -> dict | None:
    """coup -> the ledger accounts on the bank's side in that coup (the ledger's `coup` field)."""
    g = state.game.name
    if g == "faro":
        return None
    if g == "vingt_et_un":
        return {c: {state.names[b]} for c, b, *_ in state.log}
    if g == "bakkarat":
        names = state.game.player_names()
        return {c: {names[b], f"{names[b]}'s partner"} for c, b, *_ in state.results}
    raise KeyError(g)


def bank_flow(state) -> tuple[int, int, int, int]:
    """(the bank's net, units laid on the table by the players, coups, coups the bank won) over a game."""
    from ..ledger import TABLE
    sides = _bank_sides(state)
    net: dict = {}
    staked = 0
    for coup, payer, payee, amount, _why, _rule in state.ledger.entries:
        side = {"Bank"} if sides is None else sides.get(coup, set())
        if payee in side and payer not in side:
            net[coup] = net.get(coup, 0) + amount
        elif payer in side and payee not in side:
            net[coup] = net.get(coup, 0) - amount
        else:
            net.setdefault(coup, 0)
        if payee == TABLE and payer not in side:
            staked += amount
    if sides is not None:
        for c in sides:
            net.setdefault(c, 0)
    total = sum(net.values())
    return total, staked, len(net), sum(1 for v in net.values() if v > 0)


def exact_edges(game_name: str, option: str, values: list, base: dict) -> dict | None:
    """The bank's edge as an exact fraction per reading, where the odds code gives it (None elsewhere):

    * Faro: the bank's expected gain per unit on a stake of two units on a rank at its first showing in a
      fresh deal (all eight cards of the rank unseen, the bottom card not yet shown) — ``faro.expected``
      (two units: a doublet takes one of them under "half", both under "all");
    * Vingt-et-un: the bank's expected gain per unit a player stakes on a hand from a fresh pack, the
      player playing every hand by the odds and the bank by the fixed rule (draw to 16) —
      ``vingt_et_un.odds_hand_value`` averaged over the player's first card and the bank's card. Under
      "as the holder of the bank chooses" the bank's play is a choice: no exact figure.
    """
    out: dict[str, Fraction | None] = {}
    for v in values:
        opts = {**base, option: v}
        game = cardkit.load_game(game_name, **opts)
        if game_name == "faro":
            from ..games import faro
            wl = faro.win_lose(faro.showing_odds(104, 8, bottom_known=False), game.options["winning_pile"])
            out[_vkey(v)] = -faro.expected(2, wl, game.options["doublets"]) / 2
        elif game_name == "vingt_et_un":
            from ..games.vingt_et_un import VingtEtUn
            assert isinstance(game, VingtEtUn)
            if not game.fixed:
                out[_vkey(v)] = None
                continue
            out[_vkey(v)] = -_vu_hand_value(game.mode, game.double, game.bank_second)
        else:
            return None
    return {k: (None if x is None else [x.numerator, x.denominator]) for k, x in out.items()}


def _vu_hand_value(mode: int, double: bool, bank_second: bool = False):
    from fractions import Fraction
    from ..games import vingt_et_un as vu
    pool = vu.FULL_POOL
    total, m = Fraction(0), sum(pool)
    for f in range(7):                       # the player's first card
        if not pool[f]:
            continue
        p1 = pool[:f] + (pool[f] - 1,) + pool[f + 1:]
        for b in range(7):                   # the bank's open card
            if not p1[b]:
                continue
            p2 = p1[:b] + (p1[b] - 1,) + p1[b + 1:]
            first = vu.add_card(vu.odds_hand(()), f)
            bank = vu.add_card(vu.odds_hand(()), b)
            total += Fraction(pool[f] * p1[b], m * (m - 1)) * vu.odds_hand_value(first, bank, p2, mode, double,
                                                                                  bank_second)
    return total


# --- one game, recorded --------------------------------------------------------------------------------
def _bots(game, seed: int) -> dict:
    f = game_bots(game)[BOT]
    return {p: f(seed=(seed * 16 + p) & 0xFFFFFFFF) for p in range(game.num_players)}


def _obs(state, label, cards: bool) -> tuple:
    """What two games are compared by at a step: the player to move, the legal actions, the scores, where
    the game stands (``progress()``) and — at the first step of each trick, coup or turn and at the end
    (`cards`) — the cards of the teacher's view: every hand, every pile, the face-down counts. Checked
    there, a difference in the cards (a card drawn by another player) is found in the trick where it
    arose. Words are left out: a status line or a caption may name the reading itself."""
    if cards:
        v = state.view(None)
        seen = (tuple(tuple(s.hand) for s in v.seats), tuple((p.kind, tuple(p.cards), p.count) for p in v.piles))
    else:
        seen = None
    return (state.current_player, tuple(a.text for a in state.legal_actions()), tuple(state.scores()), label,
            seen)


class Trace:
    """Game A, step by step: what a paired game B is compared with."""
    __slots__ = ("obs", "actions", "labels", "state", "rounds")

    def __init__(self, game, seed: int):
        state = game.new_state(seed=seed)
        bots = _bots(game, seed)
        obs, actions, labels = [], [], []
        last = None
        while True:
            label = state.progress()
            terminal = state.is_terminal()
            obs.append(_obs(state, label, label != last or terminal))
            labels.append(label)
            last = label
            if terminal:
                break
            a = bots[state.current_player].choose(state)
            actions.append(a.text)
            state.apply(a)
        self.obs, self.actions, self.labels, self.state = obs, actions, labels, state
        self.rounds = _rounds(labels, len(labels) - 1)


def _rounds(labels, upto: int) -> int:
    """The rounds (distinct non-empty round labels) seen in states 0 … upto; at least 1."""
    seen = {lab[0] for lab in labels[:upto + 1] if lab[0]}
    return max(1, len(seen))


def _same(oa, ob) -> str | None:
    """None if two observations agree, else what differs: "rules" (the player to move or the legal
    actions) or "outcome" (the cards on the table, the scores)."""
    if oa[0] != ob[0] or oa[1] != ob[1]:
        return "rules"
    if oa != ob:
        return "outcome"
    return None


def paired(game_b, trace: Trace, seed: int) -> dict:
    """Play `seed` under game B beside A's `trace`: where they part, and what it changes."""
    state = game_b.new_state(seed=seed)
    bots = _bots(game_b, seed)
    first = state.current_player
    i, div, kind, cause = 0, None, None, 0
    while True:
        oa = trace.obs[i]
        what = _same(oa, _obs(state, state.progress(), oa[4] is not None or state.is_terminal()))
        if what is not None:                 # the last action (or the deal) had another effect
            div, kind, cause = i, what, max(0, i - 1)
            break
        if state.is_terminal():
            break
        a = bots[state.current_player].choose(state)
        if a.text != trace.actions[i]:       # the same position, another decision
            div, kind, cause = i, "choice", i
            break
        state.apply(a)
        i += 1
    if div is None:
        return {"state": state, "arises": False, "rounds": trace.rounds, "first": first}
    # B from state `div` on, to the end: where its trick (coup, turn) and its round end
    label = trace.labels[cause]
    rounds = {lab[0] for lab in trace.labels[:div] if lab[0]}
    ends = {}
    j = div
    while True:
        lab = state.progress()
        if lab[0]:
            rounds.add(lab[0])
        if j > cause:
            for name, left in (("trick", lab != label), ("round", lab[0] != label[0])):
                if name not in ends and (left or state.is_terminal()):
                    ends[name] = _mark(state.current_player, state.scores())
        if state.is_terminal():
            break
        state.apply(bots[state.current_player].choose(state))
        j += 1
    end = len(trace.labels) - 1
    a_ends = {}
    for k in range(cause + 1, end + 1):
        lab = trace.labels[k]
        for name, left in (("trick", lab != label), ("round", lab[0] != label[0])):
            if name not in a_ends and (left or k == end):
                o = trace.obs[k]
                a_ends[name] = _mark(o[0], o[2])
        if len(a_ends) == 2:
            break
    if not a_ends:                           # A ended at the very step (cause == end)
        o = trace.obs[end]
        a_ends = {"trick": _mark(o[0], o[2]), "round": _mark(o[0], o[2])}
    return {"state": state, "arises": True, "kind": kind, "step": div, "label": label, "first": first,
            "exposure": _rounds(trace.labels, cause),
            "rounds": max(1, len(rounds)),
            "trick": a_ends["trick"] != ends["trick"], "round": a_ends["round"][1:] != ends["round"][1:]}


def _mark(cp, scores) -> tuple:
    """What a finished trick or round leaves: who is to move (a trick's winner leads), the scores."""
    return (cp, tuple(scores))


# --- aggregates ----------------------------------------------------------------------------------------
def _reading_stats(n_players: int) -> dict:
    return {"games": 0, "seat0": 0.0, "first": 0.0, "rounds": 0,
            "score": [0] * n_players, "score_sq": [0] * n_players,
            "bank": None, "situation": None}


def _add_game(st: dict, game, state, first: int, situation=None) -> None:
    n = game.num_players
    winners = state.winners()
    side0 = next(s for s in game.sides() if 0 in s)
    st["games"] += 1
    st["seat0"] += result_for(winners, side0, n, game)
    if first >= 0:
        side1 = next(s for s in game.sides() if first in s)
        st["first"] += result_for(winners, side1, n, game)
    scores = state.scores()
    for p in range(n):
        st["score"][p] += scores[p]
        st["score_sq"][p] += scores[p] * scores[p]
    if game.name in BANKING:
        net, staked, coups, won = bank_flow(state)
        b = st["bank"] or {"net": 0, "net_sq": 0, "staked": 0, "coups": 0, "won": 0}
        b["net"] += net
        b["net_sq"] += net * net
        b["staked"] += staked
        b["coups"] += coups
        b["won"] += won
        st["bank"] = b
    if situation is not None:
        k = situation(state)
        s = st["situation"] or {"games": 0, "times": 0}
        s["games"] += 1 if k else 0
        s["times"] += k
        st["situation"] = s


def _pair_stats() -> dict:
    return {"games": 0, "arises": 0, "choice": 0, "rules": 0, "outcome": 0, "rounds": 0, "trick": 0,
            "round": 0, "score": 0, "winner": 0}


class OptionRun:
    """The aggregates of one option over a run of seeds: per reading (its own games) and per other
    reading paired with the default. Feed it seeds in order (`add`), with A's trace of each."""

    def __init__(self, game_name: str, option: str):
        rule = next((r for r in disputed(game_name) if r.option == option), None)
        if rule is None:
            opts = ", ".join(r.option for r in disputed(game_name)) or "none"
            raise cardkit.CardkitError(f"{game_name} has no disputed reading switched by {option!r}; "
                                       f"options: {opts}")
        self.rule, self.base = rule, setting(game_name, option)
        self.values = [rd.value for rd in rule.readings]
        self.games = {v: cardkit.load_game(game_name, **{**self.base, option: v}) for v in self.values}
        self.game_a = cardkit.load_game(game_name, **self.base)
        self.default = self.game_a.options[option]
        self.situation = SITUATIONS.get((game_name, option), (None, None))[1]
        self.lo: int | None = None
        self.hi: int | None = None

    def start(self, lo: int) -> None:
        n = self.game_a.num_players
        self.readings = {v: _reading_stats(n) for v in self.values}
        self.pairs = {v: _pair_stats() for v in self.values if v != self.default}
        self.lo = self.hi = lo

    def add(self, seed: int, trace: "Trace") -> None:
        assert seed == self.hi, "seeds go in order"
        first = trace.obs[0][0]
        _add_game(self.readings[self.default], self.game_a, trace.state, first, self.situation)
        self.readings[self.default]["rounds"] += trace.rounds
        for v, ps in self.pairs.items():
            r = paired(self.games[v], trace, seed)
            sb = r["state"]
            _add_game(self.readings[v], self.games[v], sb, r["first"], self.situation)
            self.readings[v]["rounds"] += r["rounds"]
            ps["games"] += 1
            if r["arises"]:
                ps["arises"] += 1
                ps[r["kind"]] += 1
                ps["rounds"] += r["exposure"]
                ps["trick"] += r["trick"]
                ps["round"] += r["round"]
                ps["score"] += tuple(sb.scores()) != tuple(trace.state.scores())
                ps["winner"] += sorted(sb.winners()) != sorted(trace.state.winners())
            else:
                ps["rounds"] += trace.rounds
        self.hi = seed + 1

    def chunk(self) -> dict:
        return {"seeds": [self.lo, self.hi], "readings": [self.readings[v] for v in self.values],
                "pairs": [None if v == self.default else self.pairs[v] for v in self.values]}

    def entry(self, games: int, chunks: list) -> dict:
        g, o = self.game_a.name, self.rule.option
        return {"rule": self.rule.id, "kind": self.rule.kind, "players": self.game_a.num_players,
                "base": self.base, "default": self.default, "readings": self.values, "games": games,
                "situation": SITUATIONS.get((g, o), (None,))[0],
                "exact_edge": exact_edges(g, o, self.values, self.base) if g in BANKING else None,
                "chunks": chunks}


def compute_chunk(game_name: str, option: str, lo: int, hi: int) -> dict:
    """One stored chunk, computed on its own (a test compares it with the stored one)."""
    run = OptionRun(game_name, option)
    run.start(lo)
    for seed in range(lo, hi):
        run.add(seed, Trace(run.game_a, seed))
    return run.chunk()


# --- the whole data of a game --------------------------------------------------------------------------
def data_dir() -> Path:
    """Where the kit keeps the measured data: the folder of ``cardkit.impact``."""
    return Path(__file__).resolve().parent


def generate(game_name: str, games: int = GAMES, options: list | None = None, out: Path | None = None,
             bar: bool = True, log=None, replace: bool = False) -> dict:
    """Compute the data of `game_name` (all its disputed options, or `options`), write the JSON and the
    plots; an existing file keeps the options not recomputed. The options measured under the same base
    options share the default reading's games: each seed's game A is played once. A stored measurement
    of more games is not replaced by one of fewer unless `replace` (a CardkitError before any game is
    played); what is replaced is said to `log`. Returns the data."""
    names = [r.option for r in disputed(game_name)]
    todo = names if not options else list(options)
    for o in todo:
        if o not in names:
            raise cardkit.CardkitError(f"{game_name} has no disputed reading switched by {o!r}; options: "
                                       + (", ".join(names) or "none"))
    if games < 1:
        raise cardkit.CardkitError(f"--games must be at least 1, not {games}")
    out = out or data_dir()
    path = out / f"{game_name}.json"
    data = load(game_name, path) if path.exists() else None
    if not data or data.get("version") != VERSION or data.get("chunk") != CHUNK:
        data = {"format": FORMAT, "version": VERSION, "game": game_name, "bots": BOT, "chunk": CHUNK,
                "options": {}}
    stored = {o: data["options"][o]["games"] for o in todo if o in data["options"]}
    fewer = {o: n for o, n in stored.items() if n > games}
    if fewer and not replace:
        raise cardkit.CardkitError(
            f"{game_name}: " + ", ".join(f"{o} is stored with {n:,} games a reading" for o, n in fewer.items())
            + f"; {games:,} would replace it with fewer (nothing was changed; --replace to do it anyway)")
    groups: dict = {}
    for o in todo:
        groups.setdefault(_key(setting(game_name, o)), []).append(o)
    pbar = None
    if bar:
        from tqdm import tqdm
        pbar = tqdm(total=games * len(todo), desc=game_name, unit="game", file=sys.stderr, dynamic_ncols=True)
    # every finished chunk is kept in a side file, so that an interrupted run goes on where it stopped
    part_path = out / f"{game_name}.part"
    part = _load_part(part_path, games)
    for key, opts in groups.items():
        runs = {o: OptionRun(game_name, o) for o in opts}
        game_a = next(iter(runs.values())).game_a
        done = part["groups"].setdefault(json.dumps([key, opts]), {"chunks": {o: [] for o in opts},
                                                                    "cpu": {o: 0.0 for o in opts}})
        chunks, cpu = done["chunks"], done["cpu"]
        if pbar and chunks[opts[0]]:
            pbar.update(min(games, CHUNK * len(chunks[opts[0]])) * len(opts))
        for lo in range(CHUNK * len(chunks[opts[0]]), games, CHUNK):
            hi = min(lo + CHUNK, games)
            for r in runs.values():
                r.start(lo)
            for seed in range(lo, hi):
                c0 = time.process_time()
                trace = Trace(game_a, seed)
                share = (time.process_time() - c0) / len(opts)
                for o, r in runs.items():
                    c1 = time.process_time()
                    r.add(seed, trace)
                    cpu[o] += share + time.process_time() - c1
                if pbar:
                    pbar.update(len(opts))
            for o, r in runs.items():
                chunks[o].append(r.chunk())
            out.mkdir(parents=True, exist_ok=True)
            part_path.write_text(json.dumps(part), encoding="utf-8")
        for o, r in runs.items():
            data["options"][o] = r.entry(games, chunks[o])
            if log:
                msg = (f"{game_name} {o}: {games:,} games per reading, {len(r.values)} readings, "
                       f"{cpu[o]:.0f} s CPU ({cpu[o] / games * 1000:.1f} ms a seed)")
                pbar.write(msg, file=sys.stderr) if pbar else log(msg)
    if pbar:
        pbar.close()
    data["options"] = {o: data["options"][o] for o in names if o in data["options"]}
    out.mkdir(parents=True, exist_ok=True)
    path.write_text(dumps(data), encoding="utf-8")
    for o in todo:
        (out / f"{game_name}-{o}.svg").write_text(plot_svg(game_name, o, data), encoding="utf-8")
    part_path.unlink(missing_ok=True)
    for o, n in stored.items():
        if log and n != games:
            log(f"{game_name} {o}: replaced the stored measurement of {n:,} games a reading (and its plot) "
                f"with this one of {games:,}")
    return data


def _load_part(path: Path, games: int) -> dict:
    """The chunks an interrupted run of the same kind (format, chunk size, games a reading) finished."""
    fresh = {"version": VERSION, "chunk": CHUNK, "games": games, "groups": {}}
    try:
        part = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return fresh
    if not isinstance(part, dict) or any(part.get(k) != fresh[k] for k in ("version", "chunk", "games")):
        return fresh
    return part


def dumps(data: dict) -> str:
    """The data as JSON text: readable at the top, one line per chunk (deterministic: same data, same bytes)."""
    compact: dict[str, Any] = {"separators": (",", ":"), "ensure_ascii": False}
    lines = ["{"]
    head = [(k, v) for k, v in data.items() if k != "options"]
    lines += [f' {json.dumps(k)}: {json.dumps(v, **compact)},' for k, v in head]
    lines.append(' "options": {')
    opts = list(data["options"].items())
    for oi, (name, e) in enumerate(opts):
        lines.append(f'  {json.dumps(name)}: {{')
        fields = [(k, v) for k, v in e.items() if k != "chunks"]
        lines += [f'   {json.dumps(k)}: {json.dumps(v, **compact)},' for k, v in fields]
        lines.append('   "chunks": [')
        lines += [f'    {json.dumps(c, **compact)}' + ("," if ci < len(e["chunks"]) - 1 else "")
                  for ci, c in enumerate(e["chunks"])]
        lines.append('   ]')
        lines.append('  }' + ("," if oi < len(opts) - 1 else ""))
    lines += [' }', '}']
    return "\n".join(lines) + "\n"


# --- the plot ------------------------------------------------------------------------------------------
def plot_svg(game_name: str, option: str, data: dict | None = None) -> str:
    """The option's plot as SVG text, drawn by matplotlib from the stored data (deterministic: a fixed
    hash salt, no date, text as text): per other reading, the share of games where it comes up, changes
    a trick, a round and the winner, with 95 % intervals."""
    import io
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    s = summary(game_name, option, data)
    assert s is not None                     # (drawn from stored figures)
    trick, rnd, whole = s["units"]
    cats = [("arises", "comes up")]
    if trick != rnd:
        cats.append(("trick", f"changes a {trick}"))
    if rnd != whole:
        cats.append(("round", f"changes the {s['score_words']}\nafter a {rnd}"))
    cats.append(("winner", "changes the winner"))
    alts = [r for r in s["readings"] if "pair" in r]
    with matplotlib.rc_context({"svg.hashsalt": "cardkit-impact", "svg.fonttype": "none",
                                "font.family": "sans-serif", "font.sans-serif": ["DejaVu Sans"],
                                "font.size": 9, "axes.spines.top": False,
                                "axes.spines.right": False}):
        fig, ax = plt.subplots(figsize=(5.2, 0.5 + 0.42 * len(cats) * max(1, len(alts))))
        h = 0.8 / max(1, len(alts))
        colours = ["#3b6ea8", "#c0603a", "#5a9a4b"]
        for j, r in enumerate(alts):
            p = r["pair"]
            n = p["games"]
            ys = [len(cats) - 1 - i + (len(alts) - 1 - 2 * j) * h / 2 for i in range(len(cats))]
            vals = [p[k] / n * 100 for k, _ in cats]
            lo = [v - wilson(p[k] / n, n)[0] * 100 for v, (k, _) in zip(vals, cats)]
            hi = [wilson(p[k] / n, n)[1] * 100 - v for v, (k, _) in zip(vals, cats)]
            ax.barh(ys, vals, height=h * 0.9, color=colours[j % 3], xerr=[lo, hi], ecolor="#333",
                    error_kw={"elinewidth": 0.8, "capsize": 2}, label=_short(r["label"]))
            for y, v, up in zip(ys, vals, hi):
                ax.text(min(v + up, 100) + 1.5, y, in100(v / 100), va="center", fontsize=8)
        ax.set_yticks(range(len(cats)))
        ax.set_yticklabels([c for _, c in reversed(cats)])
        ax.set_xlim(0, 112)
        ax.set_xticks([0, 25, 50, 75, 100])
        ax.set_xticklabels(["0", "25", "50", "75", "100"])
        ax.set_xlabel(f"games in 100 (of {s['games']:,} played both ways)")
        if len(alts) > 1:
            ax.legend(loc="lower left", bbox_to_anchor=(0.0, 1.0), fontsize=7, frameon=False, ncol=1)
        fig.tight_layout()
        buf = io.StringIO()
        fig.savefig(buf, format="svg", metadata={"Date": None, "Creator": None})
        plt.close(fig)
    return _clean_svg(buf.getvalue())


def _short(label: str, width: int = 48) -> str:
    return label if len(label) <= width else label[:width - 1] + "…"


def _clean_svg(text: str) -> str:
    """The SVG for inlining in a page: no XML prolog, DOCTYPE or metadata; as wide as the page allows up to
    its own width (the height follows the viewBox)."""
    import re
    i = text.find("<svg")
    text = text[i:] if i >= 0 else text
    text = re.sub(r"\s*<metadata>.*?</metadata>", "", text, count=1, flags=re.S)
    m = re.match(r'<svg([^>]*?) width="([\d.]+)pt" height="([\d.]+)pt"', text)
    if m:
        text = (f'<svg{m.group(1)} width="100%" style="max-width:{m.group(2)}pt;height:auto"'
                + text[m.end():])
    return text


def redraw(game_name: str, out: Path | None = None) -> list[str]:
    """Draw the plots of a game again from its stored data (no games played). Returns the files written."""
    out = out or data_dir()
    data = load(game_name, out / f"{game_name}.json")
    assert data is not None, f"no stored figures for {game_name}"
    written = []
    for o in data["options"]:
        f = out / f"{game_name}-{o}.svg"
        f.write_text(plot_svg(game_name, o, data), encoding="utf-8")
        written.append(f.name)
    return written


# --- the command ---------------------------------------------------------------------------------------
def run(game_name: str | None = None, games: int = GAMES, option=None, all_games: bool = False,
        out: Path | None = None, bar: bool = True, replace: bool = False) -> None:
    """`cardkit impact GAME [--games N] [--option NAME] [--replace]` / `cardkit impact --all`, cheapest first."""
    log = lambda s: print(s, file=sys.stderr)  # noqa: E731
    if all_games:
        for g in [g for g in ORDER if g in cardkit.GAMES] + [g for g in cardkit.GAMES if g not in ORDER]:
            if disputed(g):
                generate(g, games, out=out, bar=bar, log=log, replace=replace)
        return
    options = [option] if isinstance(option, str) else list(option or [])
    assert game_name is not None             # (the command asks for a game or --all)
    generate(game_name, games, options or None, out=out, bar=bar, log=log, replace=replace)


# cheapest first: CPU seconds for 10,000 seeds of every option, measured on a shared machine (2026-11)
# faro 190, magische7 630, whist 990, bakkarat 1160, vingt_et_un ~2060 (its Ace reading ~2000 of it),
# sieben ~2150, ecarte ~4900; vierundzwanzig has no conflict or gap switched by an option
ORDER = ("faro", "magische7", "whist", "bakkarat", "vingt_et_un", "sieben", "ecarte", "vierundzwanzig")
