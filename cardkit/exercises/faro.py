"""Faro: which stakes win on a turn (the conflict of FA-2: which pile wins for the punters; the gap of FA-4.1:
a doublet), and what stands on a card after a Paroli, a Lappé, a Six- or Sept-et-le-va (FA-3)."""
from __future__ import annotations

from ..games import faro as fa
from ..view import plural
from . import Choice, Kind, Other, Question, Row, Scene, number_choices, shuffled_choices
from .common import names


def _stakes(state) -> list:
    """(seat, card, amount) of every stake on the table, in rank order."""
    return [(st.seat, st.card, st.amount) for lst in state.stakes for st in lst]


class TurnKind(Kind):
    """What does this turn do to a stake? The stakes on the table and the turn's two cards (all face up); the
    engine's settlement of that stake."""
    name = "turn"
    title = "What does this turn do to a stake?"
    options = ("winning_pile", "doublets")

    levels = (2, 3)         # a win or a loss always depends on which pile wins (FA-2); a doublet or the
                            # last turn does not

    def moment(self, state, action) -> bool:
        if action is not fa.TURN_A:
            return False
        pack = state.hands[fa.BANK]      # (only to skip turns that settle nothing: `after` finds the same)
        return any(state.stakes[fa.RANK_OF[c]] for c in pack[:2])

    def before(self, state, action, full=True):
        snap = {"names": names(state), "last": state.last_turn}
        if full:
            snap.update(stakes=_stakes(state), facts=list(state.view(None).facts), bottom=state.bottom,
                        turn=state.turn_no + 1, right=state.game.right_wins, dbl=state.game.doublets)
        return snap

    def after(self, snap, state):
        lt = state.last_turn
        if lt is None or lt is snap["last"] or not lt[3]:
            return None
        a, b, last, settled = lt
        out = {}
        for seat, card, outcome, before in settled:
            if not before:             # a card left lying without a stake (FA-3.7's other reading): no question
                continue
            amount = before if outcome == fa.WIN else -before if outcome == fa.LOSS else \
                -fa.doublet_cost(before, state.game.doublets)
            out[(seat, card)] = (outcome, amount, before)
        if not out:
            return None
        return {"left": a, "right": b, "last": last, "settled": out, "note": state.turn_note(lt)}

    def key(self, r):
        return tuple(sorted(((s, c.index), v[:2]) for (s, c), v in r["settled"].items()))

    def special(self, snap, r) -> bool:
        return r["last"] or any(v[0] == fa.DOUBLET for v in r["settled"].values())

    def make(self, game, snap, r, others, rng) -> Question:
        nm = snap["names"]
        keys = list(r["settled"])
        if others:
            diff = [k for k in keys if any(o[1]["settled"].get(k) != r["settled"][k] for o in others)]
            keys = diff or keys
        seat, card = keys[rng.below(len(keys))]
        outcome, amount, before = r["settled"][(seat, card)]
        cost = fa.doublet_cost(before, snap["dbl"])

        def words(v) -> str:
            o, amt = v[0], v[1]
            if o == fa.WIN:
                return f"it wins: the bank pays {plural(amt, 'unit')}"
            if o == fa.LOSS:
                return f"it loses: the bank takes the {plural(-amt, 'unit')}"
            return f"a doublet: the bank takes {plural(-amt, 'unit')}" if amt else "a doublet: nothing is paid"
        dbl_label = (f"A doublet: the bank takes {plural(cost, 'unit')}" if cost else "A doublet: nothing is paid")
        choices = shuffled_choices([Choice("win", f"It wins: the bank pays {plural(before, 'unit')}"),
                                    Choice("loss", f"It loses: the bank takes the {plural(before, 'unit')}"),
                                    Choice("doublet", dbl_label),
                                    Choice("none", "Nothing happens to it")], rng)
        key = {fa.WIN: "win", fa.LOSS: "loss", fa.DOUBLET: "doublet"}[outcome]
        ranks = {fa.RANK_OF[r["left"]], fa.RANK_OF[r["right"]]}
        stakes = "; ".join(f"{nm[s]} {plural(a, 'unit')} on the {c.label}" for s, c, a in snap["stakes"]
                           if fa.RANK_OF[c] in ranks)
        rows = [Row(f"Turn {snap['turn']}", [("left", r["left"]), ("right", r["right"])])]
        lines = [f"Stakes on the table before the turn: {stakes}.",
                 f"The bottom card, shown at the start: {snap['bottom'].label}."]
        lines[0] = lines[0].replace("Stakes on the table before the turn", "Stakes on these ranks before the turn")
        lw, rw = ("the right", "the left") if snap["right"] else ("the left", "the right")
        why = (f"{r['note'][0].upper()}{r['note'][1:]}. A rank on {rw} pile wins for the bank, "
               f"on {lw} pile for the punters [FA-2]"
               + ("; the last card, the bottom card, counts for nobody and its pair's card goes to the bank "
                  "[FA-1.5]" if r["last"] else "")
               + ("; when both cards of a turn have the same rank, the bank takes its share of the stakes on it "
                  "[FA-4.1]" if outcome == fa.DOUBLET else "") + ".")
        rule = "FA-4.1" if outcome == fa.DOUBLET else "FA-2"
        out = []
        for alt, r2 in others:
            v2 = r2["settled"].get((seat, card))
            if v2 is not None and v2[:2] != (outcome, amount):
                out.append(Other(alt.rule.id, alt.rule.title, alt.reading, words(v2), repr(self.key(r2))))
        text = words((outcome, amount))
        return Question(game.name, self.name, 0,
                        f"What does this turn do to {nm[seat]}'s {plural(before, 'unit')} on the {card.label}?",
                        Scene(facts=snap["facts"], rows=rows, lines=lines), choices, frozenset({key}), False, rule,
                        why, text[0].upper() + text[1:] + ".", viewer=seat, others=out,
                        checks=[("says", (_engine_words(nm[seat], card, outcome, before, -amount),))])


def _engine_words(name, card, outcome, before, taken) -> str:
    if outcome == fa.WIN:
        return f"{name}'s {card.label} wins {plural(before, 'unit')}"
    if outcome == fa.LOSS:
        return f"{name}'s {card.label} loses {plural(before, 'unit')}"
    return f"{name}'s {card.label}: the bank takes {plural(taken, 'unit')}" if taken else \
        f"{name}'s {card.label}: nothing is paid"


class ChoiceKind(Kind):
    """What stands on the card now? A stake has just shown; its punter makes a choice (FA-3); the engine's
    stake after it."""
    name = "choice"
    title = "What stands on the card after the choice?"
    # FA-3.7: the other reading refuses some choices (Lappé after a loss); FA-2: the other pile turns a win
    # into a loss (no Paroli); FA-4.1: a doublet leaves another stake to multiply
    options = ("stake_choice", "winning_pile", "doublets")
    budget = 12000          # a choice that no reading changes (Six- or Sept-et-le-va) is rarer than a turn

    def moment(self, state, action) -> bool:
        return state.phase == fa.DECIDE and action in (fa.PAROLI, fa.LAPPE, fa.SIX, fa.SEPT)

    def before(self, state, action, full=True):
        st, outcome, before = state.pending[0]
        snap = {"stake": st, "before": before, "orig": st.orig, "outcome": outcome, "names": names(state),
                "action": action, "amount": st.amount}
        if full:
            snap.update(describe=state.describe(action), viewer=st.seat, facts=list(state.view(st.seat).facts),
                        card=st.card)
        return snap

    def after(self, snap, state):
        return snap["stake"].amount

    def refused(self, snap, refusal):
        refusal.move = fa.CHOICE_NAME[snap["action"].data]
        return refusal

    # (Six- and Sept-et-le-va are the basic choices as much as Paroli and Lappé: the special step is a doublet
    # and the last turn; Paroli and Lappé depend on the readings of FA-2 and FA-3.7 nearly always)

    def make(self, game, snap, amount, others, rng) -> Question:
        nm = snap["names"]
        p, card, before, orig = snap["viewer"], snap["card"], snap["before"], snap["orig"]
        won = snap["outcome"] == fa.WIN
        what = "won" if won else "lost" if snap["outcome"] == fa.LOSS else "made a doublet"
        near = [before, 2 * before, orig, 6 * before, 7 * before, before + orig, 2 * orig, 3 * before]
        choices, key = number_choices(amount, near, rng, lambda v: plural(v, "unit"))
        label = snap["action"].label
        lines = [f"{nm[p]} laid {plural(orig, 'unit')} on the {card.label}; {plural(before, 'unit')} stood on it "
                 f"when its rank showed, and it {what}.", f"{nm[p]} chooses: {label}."]
        rule = fa.CHOICE_RULE[snap["action"].data]
        why = f"{snap['describe']}"
        return Question(game.name, self.name, 0, f"What stands on {nm[p]}'s {card.label} now?",
                        Scene(rows=[Row(f"{nm[p]}'s card", [(nm[p], card)])], lines=lines),
                        choices, frozenset({key}), False, rule, why, f"{plural(amount, 'unit')}.", viewer=p,
                        checks=[("says", (f"{card.label} ({amount})", f"the stake is {plural(amount, 'unit')}",
                                          f"the stake becomes {plural(amount, 'unit')}"))])


KINDS = [TurnKind(), ChoiceKind()]
