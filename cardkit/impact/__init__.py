"""Does it matter? The measured impact of every disputed reading, as stored: what the pages read.

The figures come from ``cardkit impact GAME`` (``cardkit.impact.measure``: many seeded games played by the
rule-based bots under each reading, paired, aggregated per chunk of seeds and stored as
``cardkit/impact/<game>.json`` beside a plot per option, ``<game>-<option>.svg``). This module only reads
those files: the figures of an option (``summary``), the shift each reading makes in the odds with its
interval (``odds_shifts``, by batch means over the chunks: ``cardkit.stats``), and the words and tables a
rule card shows. It plays no game and imports no plotting library.

What is measured. For each option that switches the reading of a conflict or a gap (a rule of kind "conflict" or "gap" with
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
``measure.CHUNK`` seeds: a test recomputes one chunk and compares. The data is ``cardkit/impact/<game>.json``
(same command, same bytes) and a plot per option, ``cardkit/impact/<game>-<option>.svg``, drawn by
matplotlib at generation time; the pages read the stored files through this module.
"""
from __future__ import annotations

import json
import math
from importlib import resources
from pathlib import Path
from typing import Any, TypeGuard

import cardkit
from ..stats import Z95, batch_means_half, wilson

KINDS = ("conflict", "gap")
# options whose 10,000 paired games have not been run yet: their rule cards say "not measured yet" and the
# landing table lists them; tests/test_impact.py checks that exactly these have no data. Run
# `cardkit impact GAME --option NAME` and remove the entry. (Every option is measured now.)
PENDING: frozenset = frozenset()

# The base options an option is measured under, where the default table cannot show it at all.
BASE: dict[tuple[str, str], dict[str, Any]] = {
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
# Why a reading never came up in the measured games, where that is the bots' doing and not the rule's: the
# sentence says so, so that "never came up" does not read as "makes no difference" (the rule decides games
# between people who do what the bots never do). (the reason, the verdict, the verdict in a few words)
_REVOKES = ("settle it before the game if you play revokes as at the table: the computer players cannot show "
            "whether it matters", "not shown by the computer players, who never revoke")
NEVER_WHY = {
    ("whist", "calling"): ("because the computer players never revoke, and only a revoke taken back (or a card "
                           "exposed in the deal) shows a card. That says nothing about games between people: "
                           "whenever a card is shown, this decides who may call it and whether it must wait for "
                           "the call.", *_REVOKES),
    ("whist", "revoke_bar"): ("because the computer players never revoke, so no revoke was ever claimed. That "
                              "says nothing about games between people: whenever a side's claimed revoke falls in "
                              "a hand that brings it to 7 hand points, this decides what it may still win.",
                              *_REVOKES),
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




def _vkey(v) -> str:
    """A reading's value as a JSON key (true, "spiegel", 3)."""
    return json.dumps(v)



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


def totals(entry: dict) -> dict | None:
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
    assert t is not None                    # (a stored option holds its chunks)
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
    half = batch_means_half(ds, ws)
    if half is None:
        return None, None
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


def favours(m: dict | None) -> TypeGuard[dict]:
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
    if _never_why(s) and p["arises"] == 0:
        return _never_why(s, 1)
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
    if _never_why(s) and p["arises"] == 0:
        return _never_why(s, 2)
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
            if _never_why(s):
                text = text[:-1] + ", " + _never_why(s)
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


def _never_why(s: dict, k: int = 0) -> str:
    """Why the measured games never met the situation, where the bots and not the rule are the reason (k=1:
    the verdict instead, k=2: the verdict in a few words); "" for any other option."""
    why = NEVER_WHY.get((s["game"], s["option"]))
    return why[k] if why else ""


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
