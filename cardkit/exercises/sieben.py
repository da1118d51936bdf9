"""Sieben: who takes the trick (the last equal card, the 7s), which cards may continue a trick, and what a
round brings (the gap of S7-5: 1, 2 or 3 game points; with three players, the gap of S7-8.3)."""
from __future__ import annotations

from ..games import sieben as s7
from ..view import plural
from . import Choice, Kind, Question, Scene, number_choices, sentence, shuffled_choices
from .common import PlayKind, TrickKind, list_words, names


def _wild(c, opts) -> bool:
    return c.rank == "7" or (opts["eights_wild"] and c.rank == "8")


def _special(snap, cards) -> bool:
    opts = snap["opts"]
    return any(_wild(c, opts) for _, c in cards)


def _why(snap, result) -> str:
    cards, w = result["cards"], result["winner"]
    nm, opts = snap["names"], snap["opts"]
    first = cards[0][1]
    equal = []
    for q, c in cards[1:]:
        eq, rule = s7.equal_to(first, c, opts["eights_wild"])
        if eq:
            equal.append(f"{c.label} ({nm[q]}) [{rule}]")
    beat = ("The cards equal to it: " + list_words(equal) + ".") if equal else "Nobody played a card equal to it."
    return (f"The first card was {first.label} ({nm[cards[0][0]]}). {beat} The last card equal to the first takes "
            f"the trick [S7-2.4]: {nm[w]} takes it.")


class SiebenTrick(TrickKind):
    def before(self, state, action, full=True):
        snap = super().before(state, action, full)
        snap["opts"] = dict(state.game.options)
        return snap


class SiebenPlay(PlayKind):
    def before(self, state, action, full=True):
        snap = super().before(state, action, full)
        if snap is not None and not snap["boring"]:
            snap["opts"] = dict(state.game.options)
        return snap


def _play_special(snap) -> bool:
    return any(_wild(c, snap["opts"]) for c in snap["playable"])


class RoundKind(Kind):
    """What does this round bring? Once the last card of a round is played: the counters each side took
    (public: every card is played face up) and the game points the engine scored."""
    name = "round"
    title = "What does this round bring?"
    options = ("round_points", "three_player_round")
    steps = 160

    def moment(self, state, action) -> bool:
        return not state.stock and action.card is not None and sum(len(h) for h in state.hands) == 1

    def before(self, state, action, full=True):
        return {"rounds": len(state.rounds), "won": state.won, "names": names(state), "n": state.n,
                "opts": dict(state.game.options), "sides": state.sides, "viewer": state.current_player,
                "facts": list(state.view(state.current_player).facts)}

    def after(self, snap, state):
        if len(state.rounds) == snap["rounds"]:
            return None
        r = state.rounds[-1]
        return {"winner": r["winner"], "points": r["points"], "counters": r["counters"], "why": r["why"],
                "four": r["four"], "difference": r["difference"], "side_names": _side_names(snap)}

    def key(self, result):
        return (result["winner"], result["points"])

    def special(self, snap, result) -> bool:
        return result["four"] is not None or (result["points"] >= 2 and not snap["opts"]["score_difference"])

    def words(self, result) -> str:
        if result["winner"] is None:
            return "nobody would win the round"
        return f"{result['side_names'][result['winner']]} would score {plural(result['points'], 'game point')}"

    def make(self, game, snap, result, others, rng) -> Question | None:
        if result["four"] is not None:
            return None
        sn = result["side_names"]
        n, won = snap["n"], snap["won"]
        side = (lambda p: p % 2) if n == 4 else (lambda p: p)
        tricks = [0] * snap["sides"]
        incards = [0] * snap["sides"]
        for p in range(n):
            tricks[side(p)] += len(won[p])
            incards[side(p)] += sum(s7.COUNTER[c.index] for t in won[p] for _, c in t)
        lines = []
        for s in range(snap["sides"]):
            bonus = result["counters"][s] - incards[s]
            extra = f" and {bonus} for the last trick" if bonus else ""
            lines.append(f"{sn[s]}: {plural(tricks[s], 'trick')}, {incards[s]} counters in Aces and Tens{extra} — "
                         f"{result['counters'][s]} in all.")
        scene = Scene(facts=snap["facts"], lines=lines)
        w, pts = result["winner"], result["points"]
        diff = snap["opts"]["score_difference"]
        unit = "point" if diff else "game point"
        if n == 3 and max(result["counters"]) < s7.WIN_COUNTERS or w is None:
            choices = shuffled_choices([Choice(f"s{s}", sn[s]) for s in range(snap["sides"])]
                                       + [Choice("none", "Nobody")], rng)
            key = "none" if w is None else f"s{w}"
            prompt = "The round is over and nobody has 50 counters. Who wins the round?"
            text = "Nobody wins the round." if w is None else f"{sn[w]} wins the round and scores {plural(pts, unit)}."
            rule = "S7-8.3"
            why = (f"With three players nobody may reach 50; the kit's reading gives the round to the most "
                   f"counters (a tie to the tied player who took the last trick) [S7-8.3]."
                   if snap["opts"]["three_player_round"] == "most" else
                   "Under this reading only 50 counters win a round [S7-8.3].")
        else:
            if diff:
                near = [pts + 10, pts - 10, 1, 2, 3, result["counters"][w]]
            else:
                near = [1, 2, 3, 0]
            choices, key = number_choices(pts, [v for v in near if v >= 0], rng, lambda v: plural(v, unit))
            prompt = (f"The round is over: {sn[w]} {'win' if n == 4 else 'wins'} it with {result['counters'][w]} "
                      f"counters. How many {unit}s {'do' if n == 4 else 'does'} {sn[w]} score?")
            text = f"{sn[w]} {'score' if n == 4 else 'scores'} {plural(pts, unit)}."
            if diff:
                rule, reason = "S7-7.2", "the winner scores the difference of the counters (the variation)"
            elif snap["opts"]["round_points"] == "one":
                rule, reason = "S7-5", "under this reading a round always brings 1 game point"
            else:
                rule = "S7-5"
                reason = ("3 if the losers took no trick, 2 if they took no Ace and no Ten, else 1 (traditional "
                          "Sedma; the last trick's 10 alone does not save them)")
            why = f"A won round brings {reason} [{rule}]."
        seat = (lambda s: s)                     # a side's first seat (2 and 3 players: the seat itself)
        checks = [("delta", seat(s), pts if s == w else 0) for s in range(snap["sides"])]
        return Question(game.name, self.name, 0, prompt, scene, choices, frozenset({key}), False, rule, why, text,
                        viewer=snap["viewer"], checks=checks)


def _side_names(snap) -> list:
    nm = snap["names"]
    if snap["n"] == 4:
        return [f"{nm[0]} and {nm[2]}", f"{nm[1]} and {nm[3]}"]
    return list(nm)


def _ends(state, action) -> bool:
    return action.card is None or state.pending == 1 and bool(state.trick) and not state.deciding


def _asked(state, action) -> bool:
    return state.deciding


KINDS = [SiebenTrick(_ends, special=_special, options=(), why=_why, level2="the 7s"),
         SiebenPlay(_asked, _play_special, options=("who_continues",), level2="continuing with a 7"),
         RoundKind()]
