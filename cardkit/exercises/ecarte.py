"""Écarté: who takes the trick (the King high, the Ace between the Jack and the 10, trumps), which cards may
answer (follow suit, trump when void; the classic duty to win the trick, EC-3.6), and what a deal scores (three
or four tricks one point, all five two: EC-4.1)."""
from __future__ import annotations

from ..games import ecarte as ec
from ..view import plural
from . import Kind, Question, Scene, number_choices
from .common import PlayKind, TrickKind, names


def _ends(state, action) -> bool:
    return state.phase == ec.PLAY and len(state.trick) == 1 and action.card is not None


class EcarteTrick(TrickKind):
    def before(self, state, action, full=True):
        snap = super().before(state, action, full)
        snap["trump"] = state.trump
        return snap


def _trick_special(snap, cards) -> bool:
    return any(c.suit == snap["trump"] for _, c in cards)


def _asked(state, action) -> bool:
    return state.phase == ec.PLAY and len(state.trick) == 1


class EcartePlay(PlayKind):
    def before(self, state, action, full=True):
        snap = super().before(state, action, full)
        if snap is not None and full and not snap["boring"]:
            led = state.led
            snap["trumped"] = not any(c.suit == led for c in snap["hand"])
        return snap


class DealKind(Kind):
    """What does this deal score? At the last card of a deal: the tricks each player took and the points the
    engine credited for them."""
    name = "deal"
    title = "What does this deal score?"
    options = ()

    def moment(self, state, action) -> bool:
        return state.phase == ec.PLAY and len(state.trick) == 1 and sum(state.tricks) == ec.HAND - 1

    def before(self, state, action, full=True):
        snap = {"deals": len(state.match.log), "names": names(state)}
        if full:
            p = state.current_player
            snap.update(viewer=p, facts=list(state.view(p).facts), classic=state.game.classic,
                        stood=state.match.stood, refused=state.match.refused, dealer=state.dealer, elder=state.elder)
        return snap

    def after(self, snap, state):
        log = state.match.log
        if not log or len(log) == snap["deals"] or log[-1][5] is None:
            return None
        deal_no, dealer, turned, tricks, deal_points, w, why = log[-1][:7]
        return {"winner": w, "points": 2 if why in ("vole", "stood") else 1, "tricks": list(tricks), "why": why,
                "names": snap["names"]}

    def key(self, result):
        return (result["winner"], result["points"])

    def special(self, snap, result) -> bool:
        return result["why"] != "point"

    def words(self, result) -> str:
        return f"{result['names'][result['winner']]} would score {plural(result['points'], 'point')}"

    def make(self, game, snap, result, others, rng) -> Question:
        nm = snap["names"]
        w, pts, t = result["winner"], result["points"], result["tricks"]
        lines = [f"Tricks this deal: {nm[0]} {t[0]}, {nm[1]} {t[1]}."]
        if snap["classic"] and (snap["stood"] or snap["refused"]):
            who = nm[snap["dealer"]] if snap["refused"] else nm[snap["elder"]]
            lines.append(f"{who} played without an exchange at the first chance "
                         f"({'refused the proposal' if snap['refused'] else 'stood'}).")
        prompt = f"The deal is over: {nm[w]} took {t[w]} tricks. How many points does {nm[w]} score for the deal?"
        near = [1, 2, 3, 0, t[w]]
        choices, key = number_choices(pts, near, rng, lambda v: plural(v, "point"))
        if result["why"] == "vole":
            why = f"All five tricks (the vole) score 2 points [EC-4.1]."
        elif result["why"] == "stood":
            why = ("Three or four tricks score 1 point, but the player who asked to play without an exchange and "
                   "loses the deal gives up 2 [EC-2.3].")
        else:
            why = "Three or four tricks score 1 point; all five would score 2 [EC-4.1]."
        rule = "EC-2.3" if result["why"] == "stood" else "EC-4.1"
        return Question(game.name, self.name, 0, prompt, Scene(facts=snap["facts"], lines=lines), choices,
                        frozenset({key}), False, rule, why,
                        f"{nm[w]} scores {plural(pts, 'point')}.", viewer=snap["viewer"],
                        checks=[("says", (f"{nm[w]} takes {'all five tricks' if t[w] == 5 else f'{t[w]} tricks'}: "
                                          f"{plural(pts, 'point')}", f"{plural(pts, 'point')}"))])


KINDS = [EcarteTrick(_ends, special=_trick_special, options=("overtake",), level2="trumps"),   # EC-3.6 may refuse
                                                                                         # the trick's card
         EcartePlay(_asked, lambda snap: snap.get("trumped", False), options=("overtake",),
                    level2="trumping when void"),
         DealKind()]
