"""WH-4.8.1, a shown card called: the engine's lean calling path (issue 38) against the logic it replaced.

The reference below is the calling code as it was (26-28 Nov): the shown cards worked out anew at every
turn and again after the call, the holder's cards worked out only when asked for. Seeded random games as
at the table — the bench's own deals, and deals that expose cards (a misdeal let stand), under both
readings of who calls and both scorings — are played by the engine and the reference side by side, and at
every position both must offer the same actions in the same order to the same player; at every call
question every answer (each card called, and no call) is tried on both, and the holder's cards after it
must be the same. The records end the same.

It also pins down what the question decides: under the quick rules (the partner calls) every call question
asked can change which cards the holder may play, so none can be left out; under the classic laws the
question cannot change them when the holder holds the suit led and every shown card is of another suit
(a call lapses, and no call leaves him free): leaving it out there would tell the table that he holds the
suit led, which the question is asked to hide (WH-4.8.1: "whatever the holder's other cards are").
"""
from __future__ import annotations

import random
from operator import attrgetter

import cardkit
from cardkit import Deal
from cardkit.cards import FRENCH52
from cardkit.games import whist as W


class OldCalling(W.WhistState):
    """The calling logic before issue 38 (the methods as they were; the rest of the engine shared)."""
    __slots__ = ()

    def _liable(self, p):
        fu = self.faceup[p]
        t = self.turned
        if t in fu and not any(wrong is t for _, _, wrong, _ in self.corrections):
            out = [c for c in fu if c is not t]
        else:
            out = list(fu)
        if out and self._callmode == "opponents" and self.exposed:
            dealt = {c for _, c in self.exposed}
            out = [c for c in out if c not in dealt]
        return sorted(out, key=attrgetter("index"))

    def _begin_turn(self, p, legal):
        liable = self._liable(p)
        if not liable:
            return legal
        h = self._suits[p]
        if len(h["C"]) + len(h["S"]) + len(h["H"]) + len(h["D"]) <= len(liable):
            return legal
        self._call = (p, None)
        self._phase = W.CALLING
        self.current_player = self._caller(p)
        return [*(W.CALL[c] for c in liable), W.NO_CALL]

    def _after_call(self, out):
        p, called = self._call
        if called:
            if not self.trick or called.suit == self.led or not self._suits[p][self.led]:
                return [W.PLAY[called]]
            return out
        if called is False and self._callmode == "partner":
            liable = set(self._liable(p))
            if self.trick:
                follow = [a for a in out if a.card.suit == self.led]
                if follow and all(a.card in liable for a in follow):
                    return out
            return [a for a in out if a.card not in liable] or out
        return out

    def _answer(self, a):
        if self._phase == W.CALLING:
            holder = self._call[0]
            self._call = (holder, False if a is W.NO_CALL else a.data[1])
            self._phase = W.PLAYING
            self.current_player = holder
            return None
        return super()._answer(a)


class OldWhist(W.Whist):
    State = OldCalling


def _deal(rnd, expose):
    cards = list(FRENCH52.cards)
    rnd.shuffle(cards)
    extra = rnd.sample(cards[:51], rnd.choice((1, 1, 2))) if expose else []
    return Deal(cards + extra)


def _holder_cards(state, answer):
    c = state._copy()
    c.apply(answer)
    return c.current_player, [a.text for a in c.legal_actions()]


def play_side_by_side(options, seed, stacked, seen):
    new = cardkit.load_game("whist", **options)
    old = OldWhist(**options)
    rnd = random.Random(seed)
    if stacked:                                          # deals made here, some exposing cards
        a, b = new.blank_state(), old.blank_state()
    else:                                                # the bench's deals
        a, b = new.new_state(seed=seed), old.new_state(seed=seed)
    steps = 0
    while not a.is_terminal():
        assert a.current_player == b.current_player and a._phase == b._phase, (seed, steps)
        if a.is_chance():
            d = _deal(rnd, a._drawn and rnd.random() < 0.4)
            a.apply(d)
            b.apply(d)
            continue
        la, lb = a.legal_actions(), b.legal_actions()
        assert la == lb, (seed, steps, la, lb)
        if a._phase == W.CALLING:
            seen["questions"] += 1
            holder = a._call[0]
            outcomes = set()
            for ans in la:
                pa, cards = _holder_cards(a, ans)
                assert (pa, cards) == _holder_cards(b, ans), (seed, steps, ans)
                assert pa == holder
                outcomes.add(tuple(cards))
                if ans is not W.NO_CALL and len(cards) > 1:
                    seen["lapsed"] += 1
            if len(outcomes) == 1:
                seen["moot"] += 1
            if a.turned in a._liable(holder):
                seen["turned shown"] += 1
            if any(c in a._liable(holder) for _, c in a.exposed):
                seen["exposed called"] += 1
            if len(a._liable(holder)) > 1:
                seen["two shown"] += 1
        act = la[rnd.randrange(len(la))]
        a.apply(act)
        b.apply(act)
        steps += 1
    assert b.is_terminal()
    assert a._snapshot() == b._snapshot()
    assert [x.text for x in a.history] == [x.text for x in b.history]


def test_the_lean_calling_path_offers_what_the_old_one_did():
    """Seeded random games at the table, every reading of calling, both scorings: the same actions at every
    position, and after every answer to every call question the same cards for the holder."""
    for calling in ("partner", "opponents"):
        seen = {k: 0 for k in ("questions", "lapsed", "moot", "turned shown", "exposed called", "two shown")}
        for i in range(16):
            ruleset = ("source", "long", "short", "source")[i % 4]
            play_side_by_side({"mode": "table", "calling": calling, "ruleset": ruleset}, 1000 * i + 7,
                              stacked=i % 2 == 1, seen=seen)
        # the test reached the cases the calling code tells apart
        assert seen["questions"] > 1000 and seen["lapsed"] > 100 and seen["turned shown"] > 5
        assert seen["two shown"] > 20
        if calling == "partner":
            assert seen["exposed called"] > 5
            # under the quick rules every question asked can change what the holder may play
            assert seen["moot"] == 0, seen
        else:
            # under the classic laws the exposed cards are never called, and some questions cannot change
            # his cards (he holds the suit led, the shown cards are of other suits): asked all the same
            assert seen["exposed called"] == 0
            assert seen["moot"] > 100, seen
