"""Vingt-et-un: what a hand is worth (the Jack and Queen 1, the King 2, the Ace 11; the gap of VU-4: 1 or 11),
must the bank draw (the gap of VU-2.1: a fixed rule or the holder's choice), and what the bank pays (the
reconstructed table of VU-3; the gap of VU-3.7: a natural wins double)."""
from __future__ import annotations

from ..games import vingt_et_un as vu
from ..view import plural
from . import Choice, Kind, Other, Question, Row, Scene, number_choices, shuffled_choices
from .common import list_words, names


def _worth(code: int) -> str:
    return {vu.DEAD: "dead (over 21)", vu.NATURAL: "21 with two cards"}.get(code, str(code))


class ValueKind(Kind):
    """What is your hand worth? A player's own hand at his turn to draw or stand; the engine's total."""
    name = "value"
    title = "What is this hand worth?"
    options = ("ace",)

    def moment(self, state, action) -> bool:
        return state.phase == vu.DRAW and len(state.hands[state.current_player]) >= 2

    def before(self, state, action, full=True):
        p = state.current_player
        snap = {"total": state.total(p)}
        if full:
            view = state.view(p)
            snap.update(viewer=p, hand=[c for c in view.seats[p].hand], names=names(state),
                        facts=list(view.facts), ace=state.game.options["ace"])
        return snap

    def after(self, snap, state):
        return snap["total"]

    def special(self, snap, total) -> bool:
        return any(c.rank in ("A", "J", "Q", "K") for c in snap["hand"])

    def words(self, total) -> str:
        return f"the hand would be worth {total}"

    def make(self, game, snap, total, others, rng) -> Question | None:
        hand = snap["hand"]
        if any(c is None for c in hand):
            return None
        blackjack = sum(10 if c.rank in ("J", "Q", "K") else 11 if c.rank == "A" else int(c.rank) for c in hand)
        pips = sum(vu.VALUE[c.rank] for c in hand)
        ones = sum(1 if c.rank == "A" else vu.VALUE[c.rank] for c in hand)
        near = [blackjack, pips, ones, total + 1, total - 1, total + 10, total - 10, total + 2, total - 2,
                total + 3, total - 3]
        choices, key = number_choices(total, [v for v in near if v > 0], rng, str)
        nm = snap["names"][snap["viewer"]]
        aces = ("an Ace counts 11 (two Aces alone make 21)" if snap["ace"] == "eleven"
                else "an Ace counts 1 or 11, whichever suits the hand")
        why = (f"The Jack and the Queen count 1, the King 2, the others their pips, and {aces} [VU-0.1"
               f"{', VU-4' if snap['ace'] != 'eleven' else ''}]: {total}"
               f"{' — over 21, dead' if total > 21 else ''}.")
        scene = Scene(facts=snap["facts"], hand=hand, hand_title=f"Your hand ({nm})")
        return Question(game.name, self.name, 0, "What is your hand worth?", scene, choices, frozenset({key}),
                        False, "VU-4" if any(c.rank == "A" for c in hand) else "VU-0.1", why,
                        f"It is worth {total}.", viewer=snap["viewer"], checks=[("before", "total", (snap["viewer"],), total)])


class BankKind(Kind):
    """Must the bank draw? Once the players are done, the bank's two face-up cards; the engine's answer: the
    fixed rule draws or stands by itself, the holder's choice asks him."""
    name = "bank"
    title = "Must the bank draw?"
    options = ("bank_rule",)
    levels = (3,)           # the bank's draw is the disputed rule itself

    def moment(self, state, action) -> bool:
        return state.phase == vu.DRAW

    def before(self, state, action, full=True):
        return {"bank": state.bank, "coups": len(state.coups_played), "names": names(state), "rest": state.cards_left,
                "facts": list(state.view(state.bank).facts) if full else None}

    def after(self, snap, state):
        b = snap["bank"]
        if state.phase == vu.BANK and state.current_player == b:
            hand = tuple(state.hands[b][:2])
            return {"what": "choose", "hand": hand, "total": vu.hand_total(hand, state.game.mode)}
        if len(state.coups_played) == snap["coups"]:
            return None
        hand = state.coups_played[-1][3][b]
        t = vu.hand_total(hand[:2], state.game.mode)
        if t >= 21:
            return None
        return {"what": "draw" if len(hand) > 2 else "stand", "hand": tuple(hand[:2]), "total": t}

    def key(self, r):
        return r["what"]

    def words(self, r) -> str:
        return {"choose": "the bank's holder would choose", "draw": "the bank would have to draw",
                "stand": "the bank would have to stand"}[r["what"]]

    def make(self, game, snap, r, others, rng) -> Question:
        nm = snap["names"]
        b = snap["bank"]
        choices = shuffled_choices([Choice("draw", "It must draw"), Choice("stand", "It must stand"),
                                    Choice("choose", "Its holder chooses")], rng)
        if r["what"] == "choose":
            why = ("The bank's holder draws or stands as he likes: the source gives no rule for the bank, and this "
                   "reading leaves it to him [VU-2.1].")
            text = "The bank's holder chooses."
        else:
            why = (f"The bank draws to 16 and stands on 17 [VU-2.1]: with {r['total']} it "
                   f"{'draws' if r['what'] == 'draw' else 'stands'}.")
            text = f"It must {r['what']}."
        scene = Scene(facts=snap["facts"], rows=[Row(f"The bank ({nm[b]}), face up", [(nm[b], c) for c in r["hand"]])],
                      lines=["The players have all drawn or stood."])
        check = ("legal_of", b, frozenset({"draw", "stand"})) if r["what"] == "choose" else \
            ("shown", nm[b], (3, 99) if r["what"] == "draw" else (2, 2))
        return Question(game.name, self.name, 0, "The players are done. Must the bank draw another card?", scene,
                        choices, frozenset({r["what"]}), False, "VU-2.1", why, text, viewer=b, checks=[check])


class SettleKind(Kind):
    """What does the bank pay? At the end of a coup, one player's hand and stake against the bank's hand
    (both face up at the settlement); the engine's entry from the settlement table (VU-3)."""
    name = "settle"
    title = "What does the bank pay?"
    options = ("natural",)

    def moment(self, state, action) -> bool:
        return state.phase in (vu.DRAW, vu.BANK)

    def before(self, state, action, full=True):
        return {"coups": len(state.coups_played), "names": names(state)}

    def after(self, snap, state):
        if len(state.coups_played) == snap["coups"]:
            return None
        coup = state.coups_played[-1]
        bcode, results = state.result_codes(coup)
        return {"bank": coup[1], "hands": coup[3], "bcode": bcode,
                "results": {p: (st, pc, m) for p, st, pc, m in results}, "double": state.game.double}

    def key(self, r):
        return tuple(sorted((p, m * st) for p, (st, pc, m) in r["results"].items()))

    def special(self, snap, r) -> bool:
        return r["bcode"] in (vu.NATURAL, vu.TWENTYONE, vu.DEAD) or any(
            pc in (vu.NATURAL, vu.TWENTYONE, vu.DEAD) for st, pc, m in r["results"].values())

    def words(self, r) -> str:
        return "the settlement would differ"

    def make(self, game, snap, r, others, rng) -> Question | None:
        nm = snap["names"]
        ps = [p for p, (st, pc, m) in r["results"].items() if st]
        if not ps:
            return None
        if others:           # the player whose payment the other reading changes
            diff = [p for p in ps if any(o[1]["results"][p][2] != r["results"][p][2] for o in others)]
            ps = diff or ps
        p = ps[rng.below(len(ps))]
        st, pc, m = r["results"][p]
        b = r["bank"]
        amount = m * st
        words = lambda v: (f"the bank pays {nm[p]} {plural(v, 'unit')}" if v > 0 else   # noqa: E731
                           f"{nm[p]} pays the bank {plural(-v, 'unit')}")
        near = [st, -st, 2 * st, -2 * st]
        choices, key = number_choices(amount, near, rng, lambda v: words(v)[0].upper() + words(v)[1:], k=4)
        rows = [Row(f"The bank ({nm[b]}): {_worth(r['bcode'])}", [(nm[b], c) for c in r["hands"][b]]),
                Row(f"{nm[p]}: {_worth(pc)}, {plural(st, 'unit')} staked", [(nm[p], c) for c in r["hands"][p]])]
        has = lambda code: "is dead (over 21)" if code == vu.DEAD else f"has {_worth(code)}"   # noqa: E731
        why = (f"The settlement table [VU-3]: the bank {has(r['bcode'])}, {nm[p]} {has(pc)}: {words(amount)}"
               + (", a natural winning double [VU-3.7]" if r["double"] and pc == vu.NATURAL and amount > 0 else "")
               + ".")
        others_out = []
        for alt, r2 in others:
            v2 = r2["results"][p][2] * st
            if v2 != amount:
                others_out.append(Other(alt.rule.id, alt.rule.title, alt.reading, words(v2), repr(self.key(r2))))
        q = Question(game.name, self.name, 0, f"The coup is settled. What does it mean for {nm[p]}'s stake?",
                     Scene(rows=rows), choices, frozenset({key}), False, "VU-3", why,
                     words(amount)[0].upper() + words(amount)[1:] + ".", viewer=p, others=others_out,
                     checks=[("says", (f"{nm[p]} {vu.result_words(pc)}: " + (f"wins {plural(amount, 'unit')}" if amount > 0
                                       else f"pays {plural(-amount, 'unit')}"),))])
        return q


KINDS = [ValueKind(), BankKind(), SettleKind()]
