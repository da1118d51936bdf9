"""Does it matter? The measured impact of every disputed reading: `cardkit impact GAME`.

For each option that switches the reading of a conflict or a gap (a rule of kind "conflict" or "gap" with
readings), many seeded games are played by the game's rule-based bots under each reading, **paired**
(common random numbers): the same seed, the same deals and the same bot seeds under the kit's default
reading A and under each other reading B, step by step.

* **It arises** where the two games first part: the first step where the player to move, the legal
  actions, the teacher's view of the table (hands, piles, seats' scores, status, result) or the score
  differ, or where the same bot in the same position chooses differently (the reading changed its
  decision). Facts that state the rule itself (a line of the view naming the reading, already different
  before the first move) are left out. Per game: the share of games where it happens; per round (the
  game's unit: a deal, a hand, a coup): that count over the rounds played up to and including the one
  where it happened (the rate of a situation that, round by round, may or may not occur).
* **It changes a trick** (a coup, a turn): the unit of play in which the games parted (the game's
  ``State.progress()``) ends differently: another player to move when it is over, other scores, or
  other counts of tricks on the seats. **It changes the round**: the scores when that round is over
  differ. **It changes the result**: the winners of the whole game differ (also counted: the final
  scores differ).
* **Balance** under each reading, from that reading's own games: the win share of seat 0 and of the
  player who moves first (a shared win counts 1/k), the mean and the spread (standard deviation) of
  each seat's final score, and for the banking games the bank's net per unit laid on the table and its
  share of coups won — plus, where the odds code gives it exactly, the bank's edge as a fraction.
* Where a game names the situation itself (Magische 7: "a Joker led and a Spiegel answering it"), its
  count is kept per reading as well.

Seeds 0 … N−1 (bots seeded ``seed * 16 + seat`` as in ``cardkit.tournament``), aggregated per chunk of
``CHUNK`` seeds: a test recomputes one chunk and compares. The data is ``cardkit/impact/<game>.json``
(same command, same bytes) and a plot per option, ``cardkit/impact/<game>-<option>.svg``, drawn by
matplotlib at generation time; the pages read the stored files (this module imports matplotlib and tqdm
only inside the functions that generate).
"""
from __future__ import annotations

import json
import math
import sys
import time
from importlib import resources
from pathlib import Path

import cardkit
from .tournament import Z95, result_for, wilson

CHUNK = 500                 # seeds per stored aggregate
GAMES = 10_000              # games per reading by default
FORMAT = "cardkit-impact"
VERSION = 1
BOT = "rule-based"
KINDS = ("conflict", "gap")
# options whose 10,000 paired games have not been run yet: their rule cards say "not measured yet" and the
# landing table lists them; tests/test_impact.py checks that exactly these have no data. Run
# `cardkit impact GAME --option NAME` and remove the entry. (Every option is measured now.)
PENDING: frozenset = frozenset()

# The base options an option is measured under, where the default table cannot show it at all.
BASE = {
    ("magische7", "joker_tops_up"): {"joker_completes_seven": True},   # M7-5.1 refines the M7-5 house rule
    ("magische7", "no_repeat"): {"players": 4},                         # M7-8.5: a four-player variant
    ("magische7", "draw_4p"): {"players": 4},                           # M7-8.6: four players
    ("sieben", "three_player_round"): {"players": 3},                   # S7-8.3: three players
    ("sieben", "who_continues"): {"players": 4},                        # S7-8.5: partners
    ("whist", "revoke_bar"): {"mode": "table"},                         # WH-5.3: revokes exist only at the table
    ("whist", "calling"): {"mode": "table"},                            # WH-4.8.1: so do shown cards
}
BASE_WHY = {
    ("magische7", "joker_tops_up"): "with the house rule of the Joker topping up to 7 in force",
    ("magische7", "no_repeat"): "with four players",
    ("magische7", "draw_4p"): "with four players",
    ("sieben", "three_player_round"): "with three players",
    ("sieben", "who_continues"): "with four players in partnerships",
    ("whist", "revoke_bar"): "with revokes played as at the table",
    ("whist", "calling"): "with revokes played as at the table",
}

# the game's units in words: (a trick, a round, the whole game)
UNITS = {
    "magische7": ("trick", "game", "game"),        # one deal is the whole game
    "sieben": ("trick", "round", "game"),
    "whist": ("trick", "hand", "game"),
    "ecarte": ("trick", "deal", "match"),
    "vierundzwanzig": ("trick", "round", "match"),
    "vingt_et_un": ("coup", "coup", "sitting"),
    "bakkarat": ("coup", "pack", "sitting"),
    "faro": ("turn", "deal", "sitting"),
}
BANKING = ("vingt_et_un", "bakkarat", "faro")
# what the game's scores count (``State.scores()``, compared at the end of a round)
SCORE_WORDS = {"magische7": "points", "sieben": "game points", "whist": "game points", "ecarte": "points",
               "vierundzwanzig": "points", "vingt_et_un": "balances", "bakkarat": "balances", "faro": "balances"}
EDGE_HOW = {
    "faro": "The exact edge is what the bank expects to keep of a stake on a rank at its first showing in a "
            "fresh deal, worked out from the odds.",
    "vingt_et_un": "The exact edge is what the bank expects to keep of a player's stake on one hand from a fresh "
                   "pack at a flat stake, the player playing by the odds and the bank by its fixed rule, worked out "
                   "from the odds (none where the holder of the bank chooses how to draw). The net per unit staked "
                   "comes from the games, where the players stake more on the hands the odds favour.",
    "bakkarat": "No exact edge: a coup depends on the players' and the bank's choices; the net per unit staked "
                "is from the games.",
}


# --- which options -------------------------------------------------------------------------------------
def disputed(game_name: str) -> list:
    """The rules of `game_name` whose reading an option switches (conflicts and gaps), in rulebook order."""
    book = cardkit.load_game(game_name).rulebook
    return [r for r in book.rules if r.kind in KINDS and r.option and len(r.readings) >= 2]


def setting(game_name: str, option: str) -> dict:
    """The options (besides the one measured) its games are played under."""
    return dict(BASE.get((game_name, option), {}))


def _key(base: dict) -> tuple:
    return tuple(sorted(base.items(), key=lambda kv: kv[0]))


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
def _bank_sides(state) -> dict:
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
    from .ledger import TABLE
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
    out = {}
    for v in values:
        opts = {**base, option: v}
        game = cardkit.load_game(game_name, **opts)
        if game_name == "faro":
            from .games import faro
            wl = faro.win_lose(faro.showing_odds(104, 8, bottom_known=False), game.options["winning_pile"])
            out[_vkey(v)] = -faro.expected(2, wl, game.options["doublets"]) / 2
        elif game_name == "vingt_et_un":
            if not game.fixed:
                out[_vkey(v)] = None
                continue
            out[_vkey(v)] = -_vu_hand_value(game.mode, game.double, game.bank_second)
        else:
            return None
    return {k: (None if x is None else [x.numerator, x.denominator]) for k, x in out.items()}


def _vu_hand_value(mode: int, double: bool, bank_second: bool = False):
    from fractions import Fraction
    from .games import vingt_et_un as vu
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
            first = vu._add(vu.odds_hand(()), f)
            bank = vu._add(vu.odds_hand(()), b)
            total += Fraction(pool[f] * p1[b], m * (m - 1)) * vu.odds_hand_value(first, bank, p2, mode, double,
                                                                                  bank_second)
    return total


def _vkey(v) -> str:
    """A reading's value as a JSON key (true, "spiegel", 3)."""
    return json.dumps(v)


# --- one game, recorded --------------------------------------------------------------------------------
def _bots(game, seed: int) -> dict:
    f = game.bots()[BOT]
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
        self.lo = self.hi = None

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
    return Path(__file__).resolve().parent / "impact"


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


def merge(chunks: list, lo: int, hi: int) -> dict:
    """Chunks of consecutive seeds summed into one over lo … hi−1 (in seed order: float sums are the
    same as one pass over the seeds)."""
    out = json.loads(json.dumps(chunks[0]))
    for c in chunks[1:]:
        for i, st in enumerate(c["readings"]):
            _sum_into(out["readings"][i], st)
        for i, ps in enumerate(c["pairs"]):
            if ps is not None:
                _sum_into(out["pairs"][i], ps)
    out["seeds"] = [lo, hi]
    return out


def _sum_into(a: dict, b: dict) -> None:
    for k, v in b.items():
        if v is None:
            continue
        if isinstance(v, dict):
            if a.get(k) is None:
                a[k] = json.loads(json.dumps(v))
            else:
                _sum_into(a[k], v)
        elif isinstance(v, list):
            a[k] = [x + y for x, y in zip(a[k], v)]
        else:
            a[k] = a[k] + v


def dumps(data: dict) -> str:
    """The data as JSON text: readable at the top, one line per chunk (deterministic: same data, same bytes)."""
    compact = {"separators": (",", ":"), "ensure_ascii": False}
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


# --- reading the data ----------------------------------------------------------------------------------
_LOADED: dict = {}


def load(game_name: str, path: Path | None = None) -> dict | None:
    """The stored data of a game (None if there is none)."""
    if path is not None:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    if game_name not in _LOADED:
        f = resources.files("cardkit") / "impact" / f"{game_name}.json"
        _LOADED[game_name] = json.loads(f.read_text(encoding="utf-8")) if f.is_file() else None
    return _LOADED[game_name]


def svg(game_name: str, option: str) -> str | None:
    f = resources.files("cardkit") / "impact" / f"{game_name}-{option}.svg"
    return f.read_text(encoding="utf-8") if f.is_file() else None


def totals(entry: dict) -> dict:
    """An option's chunks summed: {"readings": [...], "pairs": [...]}."""
    chunks = entry["chunks"]
    return merge(chunks, chunks[0]["seeds"][0], chunks[-1]["seeds"][1]) if chunks else None


def summary(game_name: str, option: str, data: dict | None = None) -> dict | None:
    """The figures of one option in plain numbers: per reading (balance) and per other reading (what
    pairing it with the default changes), with 95 % intervals."""
    data = data if data is not None else load(game_name)
    if not data or option not in data.get("options", {}):
        return None
    e = data["options"][option]
    t = totals(e)
    book = cardkit.load_game(game_name).rulebook
    rule = book.rule(e["rule"])
    labels = {_vkey(rd.value): rd.label for rd in rule.readings}
    out = {"game": game_name, "option": option, "rule": e["rule"], "title": rule.title, "kind": e["kind"],
           "players": e["players"], "base_why": BASE_WHY.get((game_name, option), ""),
           "units": UNITS[game_name], "score_words": SCORE_WORDS.get(game_name, "scores"),
           "situation": e.get("situation"), "games": e["games"],
           "edge_how": EDGE_HOW.get(game_name, ""), "readings": []}
    exact = e.get("exact_edge") or {}
    for v, st, ps in zip(e["readings"], t["readings"], t["pairs"]):
        n = st["games"]
        r = {"value": v, "label": labels.get(_vkey(v), str(v)), "default": v == e["default"], "games": n,
             "seat0": st["seat0"] / n, "first": st["first"] / n,
             "mean": [s / n for s in st["score"]],
             "sd": [math.sqrt(max(0.0, q / n - (s / n) ** 2)) for s, q in zip(st["score"], st["score_sq"])],
             "rounds": st["rounds"] / n}
        if st.get("bank"):
            b = st["bank"]
            r["bank_edge"] = b["net"] / b["staked"] if b["staked"] else 0.0
            r["bank_coups"] = b["won"] / b["coups"] if b["coups"] else 0.0
            r["bank_net"] = b["net"] / n
        ex = exact.get(_vkey(v))
        if ex is not None:
            r["exact_edge"] = ex
        if st.get("situation"):
            r["situation_games"] = st["situation"]["games"] / n
            r["situation_times"] = st["situation"]["times"] / n
        if ps is not None:
            g = ps["games"]
            r["pair"] = {k: ps[k] for k in ("games", "arises", "choice", "rules", "outcome", "trick", "round",
                                             "score", "winner", "rounds")}
            r["pair"]["per_round"] = ps["arises"] / ps["rounds"] if ps["rounds"] else 0.0
            r["pair"]["rates"] = {k: ps[k] / g for k in ("arises", "trick", "round", "score", "winner")}
        out["readings"].append(r)
    ia = next(i for i, v in enumerate(e["readings"]) if v == e["default"])
    for ib, r in enumerate(out["readings"]):
        if "pair" in r:
            r["shifts"] = odds_shifts(game_name, e, t, ia, ib)
    out["side0"] = _side_name(cardkit.load_game(game_name, **e["base"]), 0)
    return out


# --- does a reading favour anyone? the shift in the odds -------------------------------------------------
def t95(df: int) -> float:
    """Student's t for a two-sided 95 % interval with `df` degrees of freedom (the table below 3, else the
    Cornish–Fisher expansion about the normal quantile, within 0.1 % of the table)."""
    if df < 1:
        return math.inf
    if df <= 2:
        return (12.706, 4.303)[df - 1]
    z = Z95
    z3, z5, z7 = z ** 3, z ** 5, z ** 7
    return (z + (z3 + z) / (4 * df) + (5 * z5 + 16 * z3 + 3 * z) / (96 * df ** 2)
            + (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / (384 * df ** 3))


def _paired_shift(chunks: list, ia: int, ib: int, value, weight, overall: float) -> tuple:
    """The shift B − A of a figure of each reading's own games, with its 95 % interval, by batch means: the
    seeds of a chunk are played under both readings, so each chunk is one paired sample and the spread of the
    chunks' differences holds the pairing's correlation (a reading that swaps who wins, as one that changes
    nothing, is measured as it is). `value(stats)` is the figure of one chunk's games, `weight(stats)` what
    it is a share of (games, units staked); `overall` the figure over all chunks. (low, high), or (None,
    None) with fewer than two chunks."""
    ds, ws = [], []
    for c in chunks:
        a, b = c["readings"][ia], c["readings"][ib]
        wa = weight(a)
        if not wa or not weight(b):
            continue
        ds.append(value(b) - value(a))
        ws.append(wa)
    k = len(ds)
    if k < 2:
        return None, None
    total = sum(ws)
    mean = sum(w * d for w, d in zip(ws, ds)) / total
    var = k / (k - 1) * sum((w / total) ** 2 * (d - mean) ** 2 for w, d in zip(ws, ds))
    half = t95(k - 1) * math.sqrt(var)
    return overall - half, overall + half


def _side_name(game, seat: int) -> str:
    """A seat's side in words: "Anna", or "South and North" for a partnership."""
    names = game.player_names()
    side = next((s for s in game.sides() if seat in s), [seat])
    return " and ".join(names[p] for p in side)


def odds_shifts(game_name: str, e: dict, t: dict, ia: int, ib: int) -> list[dict]:
    """What reading B (index `ib`) does to the odds against the default A (`ia`): the shift of each figure a
    reading can favour someone by, each with its 95 % interval (`_paired_shift`), in units in 100:

    * "win": the chance that seat 0's side wins (a shared win counted as its share), in games in 100;
    * "first": the chance that the side of the player who moves first wins, where that is not seat 0;
    * "edge": in the banking games the bank's net per unit the players stake, in units in 100 staked —
      exact (from the odds, no interval) where the odds code gives both readings' edge, else from the games.
    """
    chunks = e["chunks"]
    A, B = t["readings"][ia], t["readings"][ib]
    game = cardkit.load_game(game_name, **e["base"])
    per = plural_word(UNITS[game_name][2])
    out = []
    share = (lambda key: (lambda st: st[key] / st["games"]))
    games = lambda st: st["games"]  # noqa: E731
    a0, b0 = A["seat0"] / A["games"], B["seat0"] / B["games"]
    lo, hi = _paired_shift(chunks, ia, ib, share("seat0"), games, b0 - a0)
    # a game's difference is at most 1 and is 0 wherever the winners are the same, so its variance is at most
    # (changed winners)/games − shift²: the interval is never narrower than that bound allows (with two sides
    # and no shared wins the bound is the variance itself), which keeps a rare, lopsided count honest
    pair, n = t["pairs"][ib], A["games"]
    bound = Z95 * math.sqrt(max(pair["winner"] / n - (b0 - a0) ** 2, 0.0) / n)
    if lo is not None and hi - lo < 2 * bound:
        lo, hi = b0 - a0 - bound, b0 - a0 + bound
    who = _side_name(game, 0)
    out.append({"what": "win", "who": who, "a": a0, "b": b0, "diff": b0 - a0, "lo": lo, "hi": hi, "exact": False,
                "per": per, "never": pair["winner"] == 0})
    same_first = all(abs(c["readings"][i]["first"] - c["readings"][i]["seat0"]) < 1e-9
                     for c in chunks for i in (ia, ib))
    if not same_first:
        a1, b1 = A["first"] / A["games"], B["first"] / B["games"]
        lo, hi = _paired_shift(chunks, ia, ib, share("first"), games, b1 - a1)
        out.append({"what": "first", "who": "the player who moves first", "a": a1, "b": b1, "diff": b1 - a1,
                    "lo": lo, "hi": hi, "exact": False, "per": per, "never": False})
    if game_name in BANKING:
        exact = e.get("exact_edge") or {}
        ea, eb = exact.get(_vkey(e["readings"][ia])), exact.get(_vkey(e["readings"][ib]))
        if ea is not None and eb is not None:
            xa, xb = ea[0] / ea[1], eb[0] / eb[1]
            out.append({"what": "edge", "who": "the bank", "a": xa, "b": xb, "diff": xb - xa, "lo": xb - xa,
                        "hi": xb - xa, "exact": True, "per": per, "never": False})
        elif A.get("bank") and B.get("bank") and A["bank"]["staked"] and B["bank"]["staked"]:
            edge = lambda st: st["bank"]["net"] / st["bank"]["staked"]  # noqa: E731
            staked = lambda st: st["bank"]["staked"] if st.get("bank") else 0  # noqa: E731
            xa, xb = edge(A), edge(B)
            lo, hi = _paired_shift(chunks, ia, ib, edge, staked, xb - xa)
            out.append({"what": "edge", "who": "the bank", "a": xa, "b": xb, "diff": xb - xa, "lo": lo, "hi": hi,
                        "exact": False, "per": per, "never": False})
    return out


def plural_word(word: str) -> str:
    """"game" -> "games", "match" -> "matches"."""
    return word + ("es" if word.endswith(("ch", "sh", "s", "x")) else "s")


def sure(m: dict) -> float:
    """How far a shift's interval lies from no shift at all (0 where it includes none): the least it
    certainly is."""
    if m["lo"] is None:
        return 0.0
    if m["lo"] > 0:
        return m["lo"]
    if m["hi"] < 0:
        return -m["hi"]
    return 0.0


def main_shift(r: dict) -> dict | None:
    """The reading's shift that matters most: the one surest to be there, then the largest."""
    return max(r.get("shifts") or [], key=lambda m: (sure(m), abs(m["diff"])), default=None)


def favours(m: dict | None) -> bool:
    """Whether a shift favours someone beyond doubt: exact and not nothing, or its interval clear of 0."""
    return m is not None and (abs(m["diff"]) > 1e-12 if m["exact"] else sure(m) > 0)


def top_reading(s: dict) -> dict:
    """The other reading that shifts the odds most (surest, then largest; then the one changing most
    winners): the one the landing page ranks a rule by."""
    alts = [r for r in s["readings"] if "pair" in r]
    def key(r):
        m = main_shift(r)
        return (sure(m) if m else 0.0, abs(m["diff"]) if m else 0.0, r["pair"]["rates"]["winner"])
    return max(alts, key=key)


def matter(s: dict) -> tuple[float, float, float]:
    """How much an option matters, to rank it by: how far its largest shift in the odds certainly goes
    (in units in 100), how large it is, and how many winners it changes."""
    r = top_reading(s)
    m = main_shift(r)
    return (sure(m) * 100 if m else 0.0, abs(m["diff"]) * 100 if m else 0.0, r["pair"]["rates"]["winner"])


# --- words ---------------------------------------------------------------------------------------------
def in100(x: float, signed: bool = False) -> str:
    """A share or an amount per unit as a number in 100: 0.506 -> "50.6", 0.007 -> "0.7", 0.0006 -> "0.06";
    `signed` puts + or − in front (± for nothing at all)."""
    v = x * 100
    a = abs(v)
    if a == 0:
        text = "0"
    elif a >= 0.995:
        text = f"{a:.1f}"
    else:
        text = f"{max(a, 0.001):.2g}" if a >= 0.001 else "0.001"
    if signed:
        return ("+" if v > 0 else "−" if v < 0 else "±") + text
    return ("−" if v < 0 else "") + text


def rate_words(k: int, n: int) -> str:
    """A count of k out of n games as a rate in 100: "3 games in 100", "0.7 games in 100", "0.06 games in
    100"; none seen: "none of 10,000 games (fewer than 0.04 in 100)"; "every game"."""
    if n <= 0:
        return "no game (not measured)"
    if k == 0:
        hi = wilson(0.0, n)[1]
        return f"none of {n:,} games (fewer than {_up2(hi * 100)} in 100)"
    if k == n:
        return "every game"
    p = k / n
    if n - k <= 0.005 * n:
        return f"all but {n - k} of {n:,} games"
    if p >= 0.00995:
        pct = int(p * 100 + 0.5)
        return f"{pct} game{'s' if pct != 1 else ''} in 100"
    return f"{in100(p)} games in 100"


def _up2(x: float) -> str:
    """Up to two significant figures, rounded up: 0.0383 -> "0.039"."""
    if x <= 0:
        return "0"
    e = math.floor(math.log10(x)) - 1
    v = math.ceil(x / 10 ** e - 1e-9) * 10 ** e
    return f"{v:.{max(0, -e)}f}"


def _round_sig(x: float) -> int:
    x = int(round(x))
    if x < 100:
        return x
    f = 10 ** (len(str(x)) - 2)
    return int(round(x / f)) * f


def shift_words(m: dict, other_label: str = "") -> str:
    """A shift in the odds in words, with its interval: "South and North win 49.3 games in 100 under “…”,
    against 50.6 under the default (−1.3 in 100; 95 % interval −2.8 … +0.3)"."""
    under = f"under “{other_label}”" if other_label else "under the other reading"
    if m["what"] == "edge":
        kind = "edge" if m["exact"] else "net"
        text = (f"the bank's {kind} is {in100(m['b'], True)} units in 100 staked {under}, against "
                f"{in100(m['a'], True)} under the default")
    elif m.get("never"):
        who = m["who"]
        return (f"{who} win{'' if ' and ' in who else 's'} {in100(m['a'])} {m['per']} in 100 both ways: the winner "
                f"was the same in every one")
    else:
        who = m["who"]
        text = (f"{who} win{'' if ' and ' in who else 's'} {in100(m['b'])} {m['per']} in 100 {under}, against "
                f"{in100(m['a'])} under the default")
    if m["exact"]:
        return text + (" (exactly, from the odds)" if m["diff"] else " — exactly the same, from the odds")
    if m["lo"] is None:
        return text + f" ({in100(m['diff'], True)} in 100; too few games for an interval)"
    return text + f" ({in100(m['diff'], True)} in 100; 95 % interval {in100(m['lo'], True)} … {in100(m['hi'], True)})"


SMALL = 0.01        # a shift below 1 in 100 (games, or units staked) is too little to agree on beforehand


def change_words(m: dict, label: str) -> str:
    """What a shift does, in short: "under “…” South wins 14.5 games in 100 more"."""
    x = in100(abs(m["diff"]))
    more = "more" if m["diff"] > 0 else "fewer"
    if m["what"] == "edge":
        gain = "more" if m["diff"] > 0 else "less"
        return f"under “{label}” the bank keeps {x} units in 100 staked {gain}"
    who = m["who"]
    return f"under “{label}” {who} win{'' if ' and ' in who else 's'} {x} {m['per']} in 100 {more}"


def verdict(s: dict) -> str:
    """The verdict, from the shift in the odds: "agree on it before you play" only where a reading favours
    someone beyond doubt (and by at least 1 in 100); otherwise whether it changes the course of games, or
    hardly comes up."""
    r = top_reading(s)
    m = main_shift(r)
    p = r["pair"]
    if favours(m) and abs(m["diff"]) >= SMALL:
        return f"{change_words(m, r['label'])}: agree on it before you play"
    if favours(m):
        return f"{change_words(m, r['label'])} — beyond chance, but too little to matter much"
    if p["arises"] / p["games"] < 0.005:
        return "it hardly ever comes up, and favours no one"
    if p["winner"] / p["games"] >= 0.05:
        return "it changes how games go but favours no one: either reading is fair"
    return "it favours no one, and seldom changes who wins"


def verdict_short(s: dict) -> str:
    """The verdict in a few words, for the landing page's table."""
    m = main_shift(top_reading(s))
    p = top_reading(s)["pair"]
    if favours(m) and abs(m["diff"]) >= SMALL:
        return "agree on it before you play"
    if favours(m):
        return "a slight shift: it hardly matters"
    if p["arises"] / p["games"] < 0.005:
        return "hardly ever comes up"
    return "favours no one: either reading is fair"


def sentence(s: dict) -> str:
    """What a reader acts on, per other reading: whether it shifts the odds (someone's chance of winning, the
    bank's edge: with the 95 % interval), how often it comes up and what it changes in the course of a game;
    then the verdict, from the shift."""
    trick, rnd, whole = s["units"]
    parts = []
    many = len(s["readings"]) > 2
    default = next(r for r in s["readings"] if r["default"])
    for r in s["readings"]:
        if "pair" not in r:
            continue
        p = r["pair"]
        n = p["games"]
        lead = f"“{r['label']}” instead of the default: " if many else ""
        if p["arises"] == 0:
            text = f"{lead}it never came up: the play was the same in all {n:,} games both ways."
            parts.append(text[0].upper() + text[1:])
            continue
        m = main_shift(r)
        odds = ""
        if m is not None:
            odds = ("it does not shift the odds: " if m.get("never") else "it shifts the odds: " if favours(m)
                    else "it shifts the odds by no more than chance: ") + shift_words(m, r["label"]) + "."
            exact = next((x for x in r.get("shifts", ()) if x["exact"] and x is not m), None)
            if exact is not None:
                odds += " " + shift_words(exact, r["label"])[0].upper() + shift_words(exact, r["label"])[1:] + "."
        if not (p["trick"] or p["round"] or p["score"] or p["winner"]):
            text = (f"{lead}it comes up in {rate_words(p['arises'], n)} (other choices are open, or a step goes "
                    f"otherwise), but every {whole} ended alike: with these players it made no difference in "
                    f"{n:,} games.")
            parts.append(text[0].upper() + text[1:])
            continue
        text = lead + odds
        bits = [f"it comes up in {rate_words(p['arises'], n)}"]
        if r["rounds"] > 1.5 and p["arises"] < n:
            bits[0] += f" (once in {_round_sig(1 / p['per_round']):,} {rnd}s)" if p["per_round"] < 0.5 else ""
        if trick != rnd and p["trick"] == 0:
            bits.append(f"never changes the {trick} where it comes up (it changes what follows)")
        elif trick != rnd:
            bits.append(f"changes a {trick} in {rate_words(p['trick'], n)}")
        if rnd != whole:
            bits.append(f"changes the {s['score_words']} after that {rnd} in {rate_words(p['round'], n)}")
        bits.append(f"changes the winner of the {whole} in {rate_words(p['winner'], n)}")
        course = ", ".join(bits[:-1]) + " and " + bits[-1] + "."
        text += (" " if odds else "") + course[0].upper() + course[1:]
        if p["winner"] and not favours(m):
            text += (f" Once the two {plural_word(whole)} part, the rest goes by the luck of the cards: that "
                     "changes who wins, not who is favoured.")
        parts.append(text[0].upper() + text[1:])
    if s.get("situation") and "situation_games" in default:
        alts = [r for r in s["readings"] if not r["default"]]
        situ = s["situation"]
        def times(r):
            return rate_words(round(r["situation_games"] * r["games"]), r["games"])
        seen = f"{situ[0].upper()}{situ[1:]} in {times(default)} under the default"
        seen += "".join(f", {times(r)} under “{r['label']}”" for r in alts if "situation_games" in r)
        parts.append(seen + ".")
    parts.append(f"So {verdict(s)}.")
    return " ".join(parts)


def ahead_but_behind(s: dict) -> str:
    """Where seat 0's side wins more often than an even share yet loses on average (small wins often,
    large losses seldom: a punter against a bank's edge), a sentence that squares the two; else ""."""
    names = _names(s)
    d = next(r for r in s["readings"] if r["default"])
    sides = len(cardkit.load_game(s["game"], **({"players": s["players"]} if _counted(s) else {})).sides())
    if d["seat0"] > 1 / sides + 0.05 and d["mean"][0] < 0:
        unit = "units" if s["game"] in BANKING else "points"
        return (f"{names[0]} ends ahead in {in100(d['seat0'])} {s['units'][2]}s in 100 under the default, yet "
                f"loses {abs(d['mean'][0]):.2f} {unit} a {s['units'][2]} on average: mostly small wins, and now "
                f"and then a large loss — the bank's edge at work. Who comes out ahead and what one expects to "
                f"win are two different figures.")
    return ""


def _counted(s: dict) -> bool:
    return any(o.name == "players" for o in cardkit.game_class(s["game"]).option_specs)


def _signed_pct(x: float) -> str:
    return f"{x * 100:+.2f} %"


def _names(s: dict) -> list[str]:
    game = cardkit.load_game(s["game"], players=s["players"]) if _counted(s) else cardkit.load_game(s["game"])
    return game.player_names()


def _first_is_seat0(s: dict) -> bool:
    """The player who moves first is seat 0 in every game of every reading (then one column says it)."""
    return all(abs(r["first"] - r["seat0"]) < 1e-12 for r in s["readings"])


def balance_rows(s: dict) -> list[list[str]]:
    """The figures per reading as table rows (the rule card shows them), the header first; every share and
    amount in 100 (games, or units staked)."""
    names = _names(s)
    banking = s["game"] in BANKING
    both = not _first_is_seat0(s)
    who = s.get("side0") or names[0]
    per = plural_word(s["units"][2])
    head = ["reading", "it comes up, in 100 games", f"changes the {s['units'][2]}'s winner, in 100",
            f"{who} win{'' if ' and ' in who else 's'}, in 100 {per}" + ("" if both else " (moves first)")]
    if both:
        head.append("the first to move wins, in 100")
    head.append("the shift in the odds against the default, in 100 (95 % interval)")
    head.append(f"{names[0]}'s score: mean ± spread")
    if banking:
        head += ["the bank's net, in 100 units staked", "the bank's edge exactly, in 100 units staked"]
    rows = [head]
    for r in s["readings"]:
        p = r.get("pair")
        n = r["games"]
        lo, hi = wilson(r["seat0"], n)
        m = main_shift(r)
        if m is None:
            shift = "—"
        else:
            what = {"win": f"{m['who']} win{'' if ' and ' in m['who'] else 's'}",
                    "first": "the first to move wins", "edge": "the bank's edge"}[m["what"]]
            if m["exact"]:
                shift = f"{what}: {in100(m['diff'], True)} (exact)"
            elif m["lo"] is None:
                shift = f"{what}: {in100(m['diff'], True)}"
            else:
                shift = f"{what}: {in100(m['diff'], True)} ({in100(m['lo'], True)} … {in100(m['hi'], True)})"
        row = [r["label"] + (" (the kit's default)" if r["default"] else ""),
               "—" if p is None else in100(p["arises"] / p["games"]),
               "—" if p is None else in100(p["winner"] / p["games"]),
               f"{in100(r['seat0'])} ({in100(lo)} – {in100(hi)})"]
        if both:
            row.append(in100(r["first"]))
        row.append(shift)
        row.append(f"{r['mean'][0]:+.2f} ± {r['sd'][0]:.2f}")
        if banking:
            row.append(in100(r.get("bank_edge", 0.0), True))
            ex = r.get("exact_edge")
            row.append("—" if ex is None else in100(ex[0] / ex[1], True))
        rows.append(row)
    return rows


def _pct(x: float) -> str:
    if x == 0:
        return "0 %"
    if x < 0.001:
        return "< 0.1 %"
    return f"{x * 100:.1f} %"


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
                ax.text(min(v + up, 100) + 1.5, y, f"{v:.1f} %" if v >= 0.1 or v == 0 else "< 0.1 %",
                        va="center", fontsize=8)
        ax.set_yticks(range(len(cats)))
        ax.set_yticklabels([c for _, c in reversed(cats)])
        ax.set_xlim(0, 112)
        ax.set_xticks([0, 25, 50, 75, 100])
        ax.set_xticklabels(["0", "25", "50", "75", "100 %"])
        ax.set_xlabel(f"share of {s['games']:,} games played both ways")
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


def alt_text(s: dict) -> str:
    trick, rnd, whole = s["units"]
    parts = []
    for r in s["readings"]:
        if "pair" in r:
            p = r["pair"]
            n = p["games"]
            parts.append(f"“{r['label']}”: comes up in {in100(p['arises'] / n)} games in 100, changes the winner "
                         f"in {in100(p['winner'] / n)} in 100")
    return "Bar chart, games in 100 played both ways — " + "; ".join(parts) + "."


def redraw(game_name: str, out: Path | None = None) -> list[str]:
    """Draw the plots of a game again from its stored data (no games played). Returns the files written."""
    out = out or data_dir()
    data = load(game_name, out / f"{game_name}.json")
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
    generate(game_name, games, options or None, out=out, bar=bar, log=log, replace=replace)


# cheapest first: CPU seconds for 10,000 seeds of every option, measured on a shared machine (2026-11)
# faro 190, magische7 630, whist 990, bakkarat 1160, vingt_et_un ~2060 (its Ace reading ~2000 of it),
# sieben ~2150, ecarte ~4900; vierundzwanzig has no conflict or gap switched by an option
ORDER = ("faro", "magische7", "whist", "bakkarat", "vingt_et_un", "sieben", "ecarte", "vierundzwanzig")
