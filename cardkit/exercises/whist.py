"""Whist: who takes the trick (the led suit, trumps), which cards may be played (follow suit), and what a hand
scores (tricks beyond six, game points at seven; the classic rulesets of WH-5.6)."""
from __future__ import annotations

from ..games import whist as wh
from ..view import plural
from . import Kind, Question, Scene, number_choices, sentence
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
    return bool(state.trick) and state.game.strict


class WhistPlay(PlayKind):
    def before(self, state, action, full=True):
        snap = super().before(state, action, full)
        if snap is not None:
            snap["trump_led"] = state.led == state.trump
        return snap


def _late(e) -> str:
    """Who took tricks 7 to 13, in the order played."""
    return ", ".join(wh.TEAMS[side] for side in e["late"])


def _honours(e, side) -> tuple:
    """(honours held, points they scored or None where they do not count) of a side, in the classic game."""
    h = e["honours"][side] if e["honours"] else 0
    hs = e["honours_scored"]
    return h, (hs[1] if hs and hs[0] == side else None)


class HandKind(Kind):
    """What does this hand score? At the last card of a hand: the tricks each side took (public: who took
    tricks 7 to 13 too, where a reading scores those; the trump honours each side played, where a reading
    counts them) and what the engine scored for them — hand points and game points at seven, each side's
    tricks beyond six (WH-5.1) or tricks 7 to 13 each for its taker (WH-5.1.1), or points and honours in the
    classic game (WH-5.6)."""
    name = "hand"
    title = "What does this hand score?"
    options = ("ruleset", "revoke_bar", "first_six")
    steps = 200

    def moment(self, state, action) -> bool:
        return len(state.done) == 12 and len(state.trick) == 3 and action.card is not None

    def before(self, state, action, full=True):
        snap = {"log": len(state.log), "names": names(state)}
        if full:
            p = state.current_player
            snap.update(viewer=p, facts=list(state.view(p).facts), classic=state.game.classic)
        return snap

    def after(self, snap, state):
        if len(state.log) == snap["log"] or state.log[-1]["kind"] != "played":
            return None
        e = state.log[-1]
        g = state.game
        classic = g.classic
        out = {"entry": e, "classic": classic, "late": not classic and g.options["first_six"] == "played",
               "target": g.target if classic else wh.SOURCE_TARGET}
        if e["game"] is not None:
            return {**out, "side": e["game"], "what": "game", "value": e["game_points"],
                    "unit": "game" if classic else "game point"}
        s = 0 if e["tricks"][0] > e["tricks"][1] else 1
        if classic:
            hon = _honours(e, s)[1] or 0
            return {**out, "side": s, "what": "points", "value": e["tricks_scored"][s] + hon, "unit": "point"}
        return {**out, "side": s, "what": "hand", "value": e["points"][s] - e["points_before"][s],
                "unit": "hand point"}

    def key(self, result):
        # a hand point and a classic point are each what the hand adds to the side's score: the same number
        # is the same answer
        return (result["side"], "game" if result["what"] == "game" else "points", result["value"])

    def special(self, snap, result) -> bool:
        return result["what"] == "game"

    def words(self, result) -> str:
        return f"{wh.TEAMS[result['side']]} would score {plural(result['value'], result['unit'])}, as " + \
            self.reason(result, other=True)

    def reason(self, r, other=False) -> str:
        """How the engine came to its score, from the hand's entry, in words."""
        e, side = r["entry"], r["side"]
        team = wh.TEAMS[side]
        k = e["tricks_scored"][side]
        t = e["tricks"][side]
        pb = e["points_before"][side]
        if r["late"]:
            tricks = (f"only tricks 7 to 13 of the hand score, one hand point each for the side that took it "
                      f"[WH-5.1.1]: {team} took {k} of them, {plural(k, 'hand point')}")
        elif r["classic"]:
            tricks = f"each trick beyond six scores one point [WH-5.1]: {team} took {t}, {plural(k, 'point')}"
        else:
            tricks = f"each trick beyond a side's first six scores one hand point [WH-5.1]: {team} took {t}, {k}"
        hon = ""
        if r["classic"]:
            h, hk = _honours(e, side)
            if hk:
                hon = f"; they held {h} trump honours, {plural(hk, 'point')} more [WH-5.6.2]"
            elif hk == 0:
                hon = f"; their {h} trump honours do not count for a side at {r['target'] - 1} [WH-5.6.2]"
        if r["what"] != "game":
            if r["classic"] and hon:
                return f"{tricks}{hon}: {plural(r['value'], 'point')} in all"
            return tricks
        if r["classic"]:
            return (f"{team} had {plural(pb, 'point')}; {tricks}{hon}: that reaches {r['target']} [WH-5.6.4], "
                    f"and they win {plural(r['value'], 'game')}")
        o = e["hand_points_at_game"][1 - side]
        ow = f"({o})".replace("-", "−") if o < 0 else str(o)
        return (f"{team} had {plural(pb, 'hand point')}; {tricks}, which brings them to 7; a side that reaches "
                f"7 hand points scores 7 less the other side's hand points at that moment as game points "
                f"[WH-5.4]: 7 − {ow} = {r['value']}")

    def make(self, game, snap, result, others, rng) -> Question | None:
        e = result["entry"]
        if e["claimed"]:
            return None
        side, value, unit = result["side"], result["value"], result["unit"]
        team = wh.TEAMS[side]
        t = e["tricks"]
        lines = [f"Tricks this hand: {wh.TEAMS[0]} {t[0]}, {wh.TEAMS[1]} {t[1]}."]
        every = [result] + [r for _, r in others]
        if any(r["late"] for r in every):         # a reading that scores tricks 7 to 13, each for its taker
            lines.append(f"Tricks 7 to 13 were taken, in order, by: {_late(e)}.")
        hon = next((r["entry"]["honours"] for r in every if r["classic"] and r["entry"]["honours"]), None)
        if hon is not None:                       # a reading that counts honours: who played them (public)
            lines.append(f"Trump honours (the Ace, King, Queen and Jack of trumps) held: {wh.TEAMS[0]} {hon[0]}, "
                         f"{wh.TEAMS[1]} {hon[1]}.")
        pb = e["points_before"]
        if result["what"] == "game":
            prompt = (f"The hand is over. {team} reach {'7 hand points' if not result['classic'] else 'the game'}. "
                      f"How many {unit}s do they score?")
            rule = "WH-5.4" if not result["classic"] else "WH-5.6.4"
            near = [1, 2, 3, 4, 5, 6, 7, pb[side], 7 - pb[side]]
        else:
            prompt = f"The hand is over. How many {unit}s do {team} score for it?"
            rule = "WH-5.6.2" if result["classic"] else "WH-5.1.1" if result["late"] else "WH-5.1"
            k = e["tricks_scored"][side]
            near = [t[side], t[side] - 6, t[side] - 7, k, value + 1, value - 1, 0, 1, 2, value + 2]
        why = sentence(self.reason(result))
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
