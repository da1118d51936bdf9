"""Whist: who takes the trick (the led suit, trumps), which cards may be played (follow suit), and what a hand
scores (tricks beyond six, game points at seven; the classic rulesets of WH-5.6)."""
from __future__ import annotations

from ..games import whist as wh
from ..view import plural
from . import Kind, Question, Scene, number_choices
from .common import PlayKind, TrickKind, names


def _ends(state, action) -> bool:
    return len(state.trick) == 3 and action.card is not None


def _last(state):
    return state.done[-1] if state.done else None


def _unpack(last):
    ld, cs, w = last
    return tuple(((ld + k) & 3, c) for k, c in enumerate(cs)), w


def _trick_special(snap, cards) -> bool:
    trump = snap["trump"]
    return any(c.suit == trump for _, c in cards)


class WhistTrick(TrickKind):
    def before(self, state, action, full=True):
        snap = super().before(state, action, full)
        snap["trump"] = state.trump
        return snap


def _asked(state, action) -> bool:
    return bool(state.trick) and state._strict


class WhistPlay(PlayKind):
    def before(self, state, action, full=True):
        snap = super().before(state, action, full)
        if snap is not None:
            snap["trump_led"] = state.led == state.trump
        return snap


class HandKind(Kind):
    """What does this hand score? At the last card of a hand: the tricks each side took (public) and what the
    engine scored for them (hand points, game points at seven; points and honours in the classic game)."""
    name = "hand"
    title = "What does this hand score?"
    options = ("ruleset", "revoke_bar")
    steps = 200

    def moment(self, state, action) -> bool:
        return len(state.done) == 12 and len(state.trick) == 3 and action.card is not None

    def before(self, state, action, full=True):
        snap = {"log": len(state.log), "names": names(state)}
        if full:
            p = state.current_player
            snap.update(viewer=p, facts=list(state.view(p).facts), classic=state._classic)
        return snap

    def after(self, snap, state):
        if len(state.log) == snap["log"] or state.log[-1]["kind"] != "played":
            return None
        e = state.log[-1]
        classic = state.game.classic
        s = 0 if e["tricks"][0] > e["tricks"][1] else 1
        if e["game"] is not None:
            g = e["game"]
            unit = "game" if classic else "game point"
            return {"side": g, "what": "game", "value": e["game_points"], "unit": unit, "entry": e,
                    "classic": classic}
        if classic:
            hon = e["honours_scored"][1] if e["honours_scored"] and e["honours_scored"][0] == s else 0
            return {"side": s, "what": "points", "value": e["tricks_scored"][s] + hon, "unit": "point", "entry": e,
                    "classic": classic}
        return {"side": s, "what": "hand", "value": e["points"][s] - e["points_before"][s], "unit": "hand point",
                "entry": e, "classic": classic}

    def key(self, result):
        return self.words(result)

    def special(self, snap, result) -> bool:
        return result["what"] == "game"

    def words(self, result) -> str:
        return f"{wh.TEAMS[result['side']]} would score {plural(result['value'], result['unit'])}"

    def make(self, game, snap, result, others, rng) -> Question | None:
        e = result["entry"]
        if e["claimed"]:
            return None
        side, value, unit = result["side"], result["value"], result["unit"]
        team = wh.TEAMS[side]
        t = e["tricks"]
        lines = [f"Tricks this hand: {wh.TEAMS[0]} {t[0]}, {wh.TEAMS[1]} {t[1]}."]
        if result["classic"] and e["honours"]:
            h = e["honours"]
            lines.append(f"Trump honours (the Ace, King, Queen and Jack of trumps) held: {wh.TEAMS[0]} {h[0]}, "
                         f"{wh.TEAMS[1]} {h[1]}.")
        if result["what"] == "game":
            pb = e["points_before"] if not result["classic"] else e["points_before"]
            prompt = (f"The hand is over. {team} reach {'7 hand points' if not result['classic'] else 'the game'}. "
                      f"How many {unit}s do they score?")
            rule = "WH-5.4" if not result["classic"] else "WH-5.6.4"
            near = [1, 2, 3, 4, 5, 6, 7, pb[side], 7 - pb[side]]
            why = (f"{team} took {t[side]} tricks: {e['tricks_scored'][side]} beyond six, which brings them to 7 hand "
                   f"points or more; a side that reaches 7 scores 7 less the other side's hand points "
                   f"({e['hand_points_at_game'][1 - side]}) as game points [WH-5.4]."
                   if not result["classic"] else
                   f"{team} reach the game's target this hand and win a game [WH-5.6.4].")
        else:
            prompt = f"The hand is over. How many {unit}s do {team} score for it?"
            rule = "WH-5.1" if not result["classic"] else "WH-5.6.2"
            near = [t[side], t[side] - 6, t[side] - 7, 0, 1, 2, value + 2]
            hon = ""
            if result["classic"] and e["honours_scored"] and e["honours_scored"][0] == side and e["honours_scored"][1]:
                hon = f", and {e['honours_scored'][1]} for honours [WH-5.6.2]"
            why = (f"{team} took {t[side]} tricks: each trick beyond six scores one, {e['tricks_scored'][side]} "
                   f"[WH-5.1]{hon}.")
        near = [v for v in near if v >= 0]
        choices, key = number_choices(value, near, rng, lambda v: plural(v, unit))
        scene = Scene(facts=snap["facts"], lines=lines)
        if result["what"] == "game":
            checks = [("delta", side, value)]
        else:
            per = 1 / game.target if result["classic"] else 1
            checks = [("standing", side, value * per)]
        return Question(game.name, self.name, 0, prompt, scene, choices, frozenset({key}), False, rule, why,
                        f"{team} score {plural(value, unit)}.", viewer=snap["viewer"], checks=checks)


KINDS = [WhistTrick(_ends, _last, _unpack, _trick_special, options=(), level2="trumps"),
         WhistPlay(_asked, lambda snap: snap["trump_led"], options=(), level2="a trump lead"),
         HandKind()]
