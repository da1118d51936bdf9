"""Bakkarat: what a hand counts (Ace 1, faces 0, over 10 loses 10; the gap of BA-1.3: three cards making 10),
must the bank draw (the gap of BA-2.2: its choice, or on 5 or less), and what a stake does at the showdown
(the gap of BA-3.1: ties)."""
from __future__ import annotations

from ..games import bakkarat as ba
from ..view import plural
from . import Choice, Kind, Other, Question, Row, Scene, number_choices, shuffled_choices
from .common import names


def _showdown(snap, state):
    if len(state.coups_played) == snap["coups"]:
        return None
    last = state.last
    if last is None or last[0] != state.coups_played[-1][0]:
        return None                       # the coup was not played (BA-4.1)
    return last


class _ShowdownKind(Kind):
    """A question asked at the showdown, where every hand is turned up (the moment the bank's draw decides)."""

    def moment(self, state, action) -> bool:
        return state.phase == ba.DRAW

    def before(self, state, action, full=True):
        return {"coups": len(state.coups_played), "names": names(state)}


def _count_words(hand, count: int, opts) -> tuple[str, bool]:
    """How a hand's count comes about, computed from its cards as the engine counts (BA-1: the values;
    BA-1.1: 10 taken off a sum over 10 until it is 10 or less; BA-1.3 and BA-1.2.1: a count of exactly 10).
    Returns the words and whether the count of exactly 10 decides it (BA-1.3)."""
    vals = [ba.VALUE[c] for c in hand]
    raw = sum(vals)
    out = ("An Ace counts 1, a King, Queen or Jack nothing, the others their pips [BA-1]: "
           + " + ".join(str(v) for v in vals) + f" = {raw}")
    red = ba.RED[raw]
    if raw > 10:
        out += f"; over 10, 10 is taken off{' until 10 or less is left' if raw > 20 else ''} [BA-1.1]: {red}"
    ten = red == 10
    if ten and len(hand) == 3:
        out += ("; three cards that come to exactly 10 count " +
                ("nothing under this reading [BA-1.3]: 0" if opts["three_card_ten"] == "zero" else
                 "10 under this reading [BA-1.3]: 10"))
    elif ten:
        out += "; two cards that come to exactly 10 count nothing under this reading (baccara) [BA-1.2.1]: 0"
    return out + ".", ten and len(hand) == 3


class ValueKind(_ShowdownKind):
    """What does this hand count? At the showdown every hand is turned up; the engine's count."""
    name = "value"
    title = "What does this hand count?"
    options = ("three_card_ten",)

    def after(self, snap, state):
        last = _showdown(snap, state)
        if last is None:
            return None
        c, b, hands, counts, outcomes, _ = last
        return {"bank": b, "hands": hands, "counts": list(counts)}

    def key(self, r):
        return tuple(r["counts"])

    def special(self, snap, r) -> bool:
        return any(len(h) == 3 for h in r["hands"])

    def make(self, game, snap, r, others, rng) -> Question:
        nm = snap["names"]
        ps = [p for p in range(3) if len(r["hands"][p]) == 3] or [0, 1, 2]
        if others:
            ps = [p for p in range(3) if any(o[1]["counts"][p] != r["counts"][p] for o in others)] or ps
        p = ps[rng.below(len(ps))]
        hand, count = r["hands"][p], r["counts"][p]
        raw = sum(ba.VALUE[c] for c in hand)
        pips = sum(10 if c.rank in ("J", "Q", "K") else ba.VALUE[c] for c in hand)
        near = [raw, raw % 10, pips, pips % 10, 10, 0, count + 1, count - 1]
        choices, key = number_choices(count, [v for v in near if 0 <= v <= 30], rng, str)
        why, three = _count_words(hand, count, game.options)
        out = [Other(alt.rule.id, alt.rule.title, alt.reading, f"the hand would count {r2['counts'][p]}", repr(self.key(r2)))
               for alt, r2 in others if r2["counts"][p] != count]
        bank = " (the bank)" if p == r["bank"] else ""
        return Question(game.name, self.name, 0, f"The showdown. What does {nm[p]}'s hand{bank} count?",
                        Scene(rows=[Row(f"{nm[p]}'s hand{bank}, turned up", [(nm[p], c) for c in hand])]),
                        choices, frozenset({key}), False, "BA-1.3" if three else "BA-1.1", why, f"It counts {count}.",
                        viewer=p, others=out,
                        checks=[("says", (f"the bank ({nm[p]}) has {count};",) if p == r["bank"] else (f"{nm[p]} {count}:",))])


class BankKind(Kind):
    """Must the bank draw? Both players have drawn or stood; the bank's own two cards (the learner holds the
    bank); the engine's answer: the bank is asked (its choice), or draws or stands by the rule of five."""
    name = "bank"
    title = "Must the bank draw?"
    options = ("bank_draw",)
    levels = (3,)           # the bank's draw is the disputed rule itself

    def moment(self, state, action) -> bool:
        return state.phase == ba.DRAW and state.current_player == state.right

    def before(self, state, action, full=True):
        b = state.banker
        snap = {"bank": b, "coups": len(state.coups_played), "names": names(state), "hand": tuple(state.hands[b][:2])}
        if full:
            snap.update(facts=list(state.view(b).facts))
        return snap

    def after(self, snap, state):
        b = snap["bank"]
        if state.phase == ba.DRAW and state.current_player == b:
            return {"what": "choose"}
        if len(state.coups_played) == snap["coups"] or state.coups_played[-1][2] is None:
            return None
        return {"what": "draw" if len(state.coups_played[-1][2][b]) == 3 else "stand"}

    def key(self, r):
        return r["what"]

    def words(self, r) -> str:
        return {"choose": "you would choose", "draw": "you would have to draw",
                "stand": "you would have to stand"}[r["what"]]

    def make(self, game, snap, r, others, rng) -> Question:
        nm = snap["names"]
        b = snap["bank"]
        hand = snap["hand"]
        count = ba.RED[ba.VALUE[hand[0]] + ba.VALUE[hand[1]]]
        choices = shuffled_choices([Choice("draw", "You must draw"), Choice("stand", "You must stand"),
                                    Choice("choose", "You choose")], rng)
        if r["what"] == "choose":
            why = ("The source gives the bank no rule: like the players, it may ask for one third card or stand "
                   "[BA-2.2].")
            text = "You choose."
        else:
            why = f"Under this reading the bank draws on 5 or less [BA-2.2]: with {count} it {r['what']}s."
            text = f"You must {r['what']}."
        scene = Scene(facts=snap["facts"], hand=list(hand), hand_title=f"Your hand: you hold the bank ({nm[b]})",
                      lines=["Both players have drawn or stood."])
        check = ("legal_of", b, frozenset({"draw", "stand"})) if r["what"] == "choose" else \
            ("shown", nm[b], (3, 99) if r["what"] == "draw" else (2, 2))
        return Question(game.name, self.name, 0, "Your two cards as the bank. Must you draw a third card?", scene,
                        choices, frozenset({r["what"]}), False, "BA-2.2", why, text, viewer=b, checks=[check])


class SettleKind(_ShowdownKind):
    """What happens to a player's stake at the showdown? Every hand turned up; the engine's outcome (BA-3)."""
    name = "settle"
    title = "What happens to the stake?"
    options = ("ties", "three_card_ten")

    def after(self, snap, state):
        last = _showdown(snap, state)
        if last is None:
            return None
        c, b, hands, counts, outcomes, (stakes, pstakes, share) = last
        return {"bank": b, "hands": hands, "counts": list(counts), "outcomes": list(outcomes), "stakes": list(stakes)}

    def key(self, r):
        return tuple(r["outcomes"])

    def special(self, snap, r) -> bool:
        b = r["bank"]
        return any(r["counts"][p] == r["counts"][b] for p in range(3) if p != b)

    def make(self, game, snap, r, others, rng) -> Question | None:
        nm = snap["names"]
        b = r["bank"]
        ps = [p for p in range(3) if p != b and r["stakes"][p]]
        if not ps:
            return None
        if others:
            ps = [p for p in ps if any(o[1]["outcomes"][p] != r["outcomes"][p] for o in others)] or ps
        p = ps[rng.below(len(ps))]
        st, o = r["stakes"][p], r["outcomes"][p]
        words = {1: f"{nm[p]} wins {plural(st, 'unit')} from the bank", -1: f"{nm[p]} loses the {plural(st, 'unit')} "
                 "to the bank", 0: "Equal: the stake goes back"}
        choices = shuffled_choices([Choice("1", words[1]), Choice("-1", words[-1]), Choice("0", words[0])], rng)
        rows = [Row(f"The bank ({nm[b]}): {r['counts'][b]}", [(nm[b], c) for c in r["hands"][b]]),
                Row(f"{nm[p]}: {r['counts'][p]}, {plural(st, 'unit')} staked", [(nm[p], c) for c in r["hands"][p]])]
        tie = r["counts"][p] == r["counts"][b]
        why = ("The higher count wins against the bank [BA-3]"
               + ("; an equal count: " + ("nobody wins, the stake goes back [BA-3.1]" if game.options["ties"] == "stand"
                                         else "the bank wins ties under this reading [BA-3.1]") if tie else "") + ".")
        out = [Other(alt.rule.id, alt.rule.title, alt.reading,
                     words[r2["outcomes"][p]][0].lower() + words[r2["outcomes"][p]][1:] if r2["outcomes"][p] == 0
                     else words[r2["outcomes"][p]], repr(self.key(r2)))
               for alt, r2 in others if r2["outcomes"][p] != o]
        engine = ("wins", "from the bank") if o > 0 else ("loses", "to the bank") if o < 0 else ("equal", "goes back")
        return Question(game.name, self.name, 0, f"The showdown. What happens to {nm[p]}'s stake?", Scene(rows=rows),
                        choices, frozenset({str(o)}), False, "BA-3.1" if tie else "BA-3", why, words[o] + ".",
                        viewer=p, others=out, checks=[("says", (f"{nm[p]} {r['counts'][p]}: {engine[0]}",))])


KINDS = [ValueKind(), BankKind(), SettleKind()]
