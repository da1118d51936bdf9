"""Die Magische 7: who takes the trick (the pairs, the Joker, the Spiegel, the Kreuz, and the two conflicts of
M7-2 and M7-3), and how many points a trick scores (the Spiegel's conflict, M7-4)."""
from __future__ import annotations

from ..games import magische7 as m7
from . import Choice, Kind, Question, Row, Scene, number_choices, rule_of, sentence
from .common import TrickKind, names
from ..view import plural

SPECIAL = ("joker", "spiegel", "kreuz")


def _unpack(last):
    led, fol, ld, op, w = last
    return ((ld, led), (op, fol)), w


def _special(snap, cards) -> bool:
    return any(c.kind in SPECIAL for _, c in cards)


class PointsKind(Kind):
    """How many points does this trick score? (M7-4: the Spiegel copies the other card, or counts 0.)"""
    name = "points"
    title = "How many points does this trick score?"
    options = ("spiegel_scoring",)

    def moment(self, state, action) -> bool:
        return len(state.trick) == 1 and not state.choosing and action.card is not None

    def before(self, state, action, full=True):
        p = state.current_player
        return {"points": state.points(), "viewer": p, "names": names(state), "led": state.trick[0],
                "leader": state.leader, "card": action.card, "describe": state.describe(action),
                "facts": list(state.view(p).facts), "opts": dict(state.game.options)}

    def after(self, snap, state):
        led, fol, ld, op, w = state.last_trick
        pts = state.points()
        return {"winner": w, "points": pts[w] - snap["points"][w]}

    def key(self, result):
        return result["points"]

    def special(self, snap, result) -> bool:
        return snap["led"].kind in SPECIAL or snap["card"].kind in SPECIAL

    def words(self, result) -> str:
        return f"the trick would score {plural(result['points'], 'point')}"

    def make(self, game, snap, result, others, rng) -> Question:
        nm = snap["names"]
        led, fol = snap["led"], snap["card"]
        w, right = result["winner"], result["points"]
        face = lambda c: c.value if c.kind == "point" else 0        # noqa: E731
        near = [face(led) + face(fol), 2 * face(led), 2 * face(fol), 7, 0, right + 7, right - 7, -right]
        near += [sum(m7.card_points(led, fol, {**snap["opts"], "spiegel_scoring": v})) for v in ("copy", "zero")]
        near = [int(v) for v in near + [right + 1, right + 2, right - 1, right - 2]]
        near = [v for v in near if v >= 0]          # a trick scores no less than nothing
        choices, key = number_choices(int(right), near, rng, lambda v: plural(v, "point"))
        note = snap["describe"]
        why = (f"{sentence(note)} The cards count their own value; a Joker and the Kreuz count nothing, and the "
               f"Spiegel " + ("copies the other card of its trick [M7-4]." if snap["opts"]["spiegel_scoring"] == "copy"
                              else "counts 0 [M7-4]."))
        rule = "M7-4" if "spiegel" in (led.kind, fol.kind) else "M7-9"
        scene = Scene(facts=snap["facts"], rows=[Row("The trick, in the order played",
                                                     [(nm[snap["leader"]], led), (nm[snap["viewer"]], fol)])])
        return Question(game.name, self.name, 0, f"{nm[w]} takes this trick. How many points does it score?",
                        scene, choices, frozenset({key}), False, rule, why, f"It scores {plural(right, 'point')}.",
                        viewer=snap["viewer"], checks=[("delta", w, right), ("says", (f"{plural(right, 'point')}",))])


def _ends(state, action) -> bool:
    return len(state.trick) == 1 and not state.choosing


KINDS = [TrickKind(_ends, unpack=_unpack, special=_special, options=("joker_vs_spiegel", "kreuz_vs_spiegel"),
                   level2="the Joker, the Spiegel and the Kreuz"),
         PointsKind()]
