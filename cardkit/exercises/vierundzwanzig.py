"""24: who takes the trick (the led colour, trumps, the "24", the order reversed by a 1), which cards may be
played (follow the led colour; the "24" counts as a trump), and how a round changes a player's score (V24-5)."""
from __future__ import annotations

from ..games import vierundzwanzig as v24
from . import Kind, Question, Scene, number_choices
from .common import PlayKind, TrickKind, names


def _ends(state, action) -> bool:
    return bool(state.trick) and state.phase in (v24.PLAY, v24.REVERSE_Q, v24.NEWTRUMP_Q)


class V24Trick(TrickKind):
    def before(self, state, action, full=True):
        snap = super().before(state, action, full)
        snap["trump"], snap["reversed"] = state.trump, state.reversed
        return snap


def _trick_special(snap, cards) -> bool:
    return snap["reversed"] or any(c is v24.WHITE or c.suit == snap["trump"] for _, c in cards)


def _asked(state, action) -> bool:
    return state.phase == v24.PLAY and bool(state.trick)


class V24Play(PlayKind):
    def before(self, state, action, full=True):
        snap = super().before(state, action, full)
        if snap is not None and full and not snap["boring"]:
            snap["white"] = v24.WHITE in snap["hand"] or state.led == state.trump
        return snap


WHY = {"tricks": "each trick takes off the round's value [V24-5.1]",
       "no trick": "a player without a trick adds six times the round's value [V24-5.2]",
       "own trump": "the player who named trump and took no trick adds twice that [V24-5.3]",
       "sat out": "a player who sat out keeps his score [V24-9.2]"}
RULE = {"tricks": "V24-5.1", "no trick": "V24-5.2", "own trump": "V24-5.3", "sat out": "V24-9.2"}


def signed(n: int) -> str:
    return f"+{n}" if n > 0 else f"−{-n}" if n < 0 else "no change"


class RoundKind(Kind):
    """How does this round change a player's score? At the last card of a round: the trump (what a trick
    counts), each player's tricks (public), and the engine's scoring."""
    name = "round"
    title = "How does the round change the score?"
    options = ()
    steps = 120

    def moment(self, state, action) -> bool:
        return state.phase == v24.PLAY and bool(state.trick) and sum(map(len, state.hands)) == 1

    def before(self, state, action, full=True):
        snap = {"rounds": len(state.rounds), "names": names(state)}
        if full:
            p = state.current_player
            snap.update(viewer=p, facts=list(state.view(p).facts), start=state.start)
        return snap

    def after(self, snap, state):
        if len(state.rounds) == snap["rounds"]:
            return None
        return dict(state.rounds[-1])

    def key(self, r):
        return tuple(r["after"])

    def special(self, snap, r) -> bool:
        return any(w in ("no trick", "own trump") for w in r["why"])

    def words(self, r) -> str:
        return "the scores would be " + ", ".join(str(x) for x in r["after"])

    def make(self, game, snap, r, others, rng) -> Question | None:
        nm = snap["names"]
        rank = {"own trump": 0, "no trick": 1, "tricks": 2, "sat out": 3}
        best = min(rank[w] for w in r["why"])
        cands = [p for p, w in enumerate(r["why"]) if rank[w] == best]
        p = cands[rng.below(len(cands))]
        change = r["after"][p] - r["before"][p]
        v = r["value"]
        how = "named blind" if r["blind"] else "named"
        lines = [f"Trump: {v24.WORD[r['final']]} ({how} by {nm[r['start']]}) — each trick counts {v}.",
                 "Tricks this round: " + ", ".join(f"{nm[q]} {t}" for q, t in enumerate(r["tricks"]) if r["active"][q])
                 + "."]
        t = r["tricks"][p]
        vals = [change, -t * v if t else -v, 6 * v, 12 * v, -2 * v, -t, 6, 12 * v if change != 12 * v else 24 * v]
        choices, _ = number_choices(change, vals[1:], rng, signed)
        why = f"{nm[p]}: {WHY[r['why'][p]]}: {signed(change)}, from {r['before'][p]} to {r['after'][p]}."
        prompt = f"The round is over. How does {nm[p]}'s score change?"
        return Question(game.name, self.name, 0, prompt, Scene(facts=snap["facts"], lines=lines), choices,
                        frozenset({f"n{change}"}), False, RULE[r["why"][p]], why,
                        f"{nm[p]}: {signed(change)} ({r['before'][p]} → {r['after'][p]}).", viewer=snap["viewer"],
                        checks=[("delta", p, change)])


KINDS = [V24Trick(_ends, special=_trick_special, options=(), level2="trumps, the 24 and the reversed order"),
         V24Play(_asked, lambda snap: snap.get("white", False), options=(), level2="trumps and the 24",
                 words=lambda c: c.name),
         RoundKind()]
