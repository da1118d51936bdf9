"""24's bots: `CarefulBot`, the baseline, and `RuleBot`, a club player who names the trump it holds most of,
reverses with a 1 when its hand is low and exchanges its weakest cards. The rules are
`cardkit.games.vierundzwanzig`."""
from __future__ import annotations

from .. import tricks
from ..games.vierundzwanzig import (BLIND, BLIND_Q, CARDS, COLOUR_OF, COLOURS, EXCHANGE, KEEP_TRUMP, LOOK, NEW_TRUMP,
                                    NEWTRUMP_Q, POWER, REVERSE_Q, SIT_OUT, SUIT_OF, TRUMP_A, TRUMP_Q, WHITE)
from .base import Bot, RandomBot


def _strength(hand, trump: str, rev: bool) -> float:
    """A rough count of the tricks a hand may take under `trump` and an order: trumps by their rank, and
    the top cards of the other colours."""
    power = POWER[rev]
    suit_of = SUIT_OF[trump]
    s = 0.0
    for c in hand:
        pw = power[c]
        if suit_of[c] == trump:
            s += 0.35 + pw / 14
        elif pw >= 10:
            s += 0.45 if pw == 11 else 0.2
    return s


class CarefulBot(Bot):
    """A simple careful player, the baseline: it names the colour it holds most of, never names yellow blind,
    keeps its cards and never sits out, never reverses the order or changes trump; it takes a trick with its
    cheapest card that wins it at that moment, else throws its lowest card; it leads its strongest card."""
    name = "careful"

    def decide(self, state, legal):
        ph = state.phase
        me = state.current_player
        if ph == BLIND_Q:
            return LOOK
        if ph == TRUMP_Q:
            hand = state.hand_of(me)   # my own cards as I see them
            count = {t: sum(1 for c in hand if c is not WHITE and COLOUR_OF[c] == t) for t in COLOURS}
            best = max(COLOURS, key=lambda t: (count[t], sum(c.value for c in hand if c is not WHITE
                                                                 and COLOUR_OF[c] == t)))
            return TRUMP_A[best]
        if ph == EXCHANGE:
            return next(a for a in legal if a.data == "done")
        if ph == REVERSE_Q:
            return next(a for a in legal if a.data is False)
        if ph == NEWTRUMP_Q:
            return KEEP_TRUMP
        return _play_card(state, legal, careful=True)


def _play_card(state, legal, careful: bool = False, seen=None):
    """Take the trick as cheaply as possible, else throw the weakest card; lead the strongest card."""
    suit_of, power, trump = state.suit_of, state.power, state.trump
    tc = state.trick_cards
    if not tc:
        return max(legal, key=lambda a: (suit_of[a.card] == trump, power[a.card], a.card.index)) if careful \
            else None
    best = tc[tricks.winner(tc, suit_of, power, trump)]
    led = state.led
    win = [a for a in legal if tricks.beats(a.card, best, led, trump, suit_of, power)]
    if win:
        return min(win, key=lambda a: (suit_of[a.card] == trump, power[a.card], a.card.index))
    return min(legal, key=lambda a: (suit_of[a.card] == trump, power[a.card], a.card.index))


class RuleBot(Bot):
    """A rule-based player, the way a club player plays 24, with only what its seat may know (its own hand,
    the cards played, the scores):

    * **trump**: names the colour it holds most of (high cards break a tie); names yellow blind only when
      its score is so high (40 or more) that a gamble is worth it;
    * **exchange**: gives back its weakest cards outside the trump (low cards, of short colours first),
      keeping the 1s it may want to reverse with; sits a round out (variant b) with a weak hand unless it
      is close to 0;
    * **a 1**: reverses the order when its remaining hand is low — when its cards count for more with the
      1 high than with the 11 high;
    * **a 2** (variant a): names the colour it holds most of if that makes its hand clearly stronger;
    * **the play**: takes a trick with the cheapest card that wins it, and when others still follow, with
      a card no unseen card can beat if it has one; uses a trump only when no card of the led colour wins;
      leads a sure winner (the highest card still out in its colour, trumps gone or itself a trump) if it
      has one, else its highest card outside the trump; without a chance to win it throws its weakest
      card — keeping its trumps as long as it has taken no trick, so as not to end the round without one.
    """
    name = "rule-based"
    BLIND_AT = 40             # name yellow blind from this many points on

    def decide(self, state, legal):
        ph = state.phase
        me = state.current_player
        if ph == BLIND_Q:
            return BLIND if BLIND in legal and state.points[me] >= self.BLIND_AT else LOOK
        hand = state.hand_of(me)   # my own cards as I see them
        if ph == TRUMP_Q:
            return TRUMP_A[self._best_trump(hand, state.reversed)]
        if ph == EXCHANGE:
            return self._exchange(state, me, hand, legal)
        if ph == REVERSE_Q:
            rest = hand
            now = _strength(rest, state.next_trump, state.next_reversed)
            flip = _strength(rest, state.next_trump, not state.next_reversed)
            return next(a for a in legal if a.data is (flip > now + 0.05))
        if ph == NEWTRUMP_Q:
            t = self._best_trump(hand, state.next_reversed)
            if t != state.next_trump and _strength(hand, t, state.next_reversed) > \
                    _strength(hand, state.next_trump, state.next_reversed) + 0.3:
                return NEW_TRUMP[t]
            return KEEP_TRUMP
        return self._play(state, me, hand, legal)

    @staticmethod
    def _best_trump(hand, rev: bool) -> str:
        """The colour it holds most of; the stronger hand under it breaks a tie (yellow last: it doubles
        the stakes)."""
        count = {t: sum(1 for c in hand if c is not WHITE and COLOUR_OF[c] == t) for t in COLOURS}
        return max(COLOURS, key=lambda t: (count[t], _strength(hand, t, rev), t != "Y"))

    def _exchange(self, state, me, hand, legal):
        trump = state.trump
        if SIT_OUT in legal and _strength(hand, trump, False) < 0.9 and state.points[me] > 12:
            return SIT_OUT
        discards = [a for a in legal if a.data == "discard"]
        if not discards:
            return next(a for a in legal if a.data == "done")
        suit_of = state.suit_of
        power = POWER[state.reversed]
        counts: dict[str, int] = {}
        for c in hand:
            counts[suit_of[c]] = counts.get(suit_of[c], 0) + 1

        def weak(c):
            return suit_of[c] != trump and c.value != 1 and power[c] <= 7

        cands = [a for a in discards if weak(a.card)]
        if not cands:
            return next(a for a in legal if a.data == "done")
        return min(cands, key=lambda a: (power[a.card] + counts[suit_of[a.card]], a.card.index))

    def _unseen(self, state, me, hand):
        seen = set(hand)
        for w in state.won:
            for t in w:
                for _, c in t:
                    seen.add(c)
        for _, c in state.trick:
            seen.add(c)
        return [c for c in CARDS if c not in seen]

    def _play(self, state, me, hand, legal):
        suit_of, power, trump = state.suit_of, state.power, state.trump
        tc = state.trick_cards
        key_low = lambda a: (suit_of[a.card] == trump, power[a.card], a.card.index)  # noqa: E731
        if not tc:
            unseen = self._unseen(state, me, hand)
            # a sure winner: the highest card still out in its colour, and trumps are gone or it is trump
            trumps_out = any(suit_of[c] == trump for c in unseen)
            sure = []
            for a in legal:
                c = a.card
                s = suit_of[c]
                higher = any(suit_of[x] == s and power[x] > power[c] for x in unseen)
                if not higher and (s == trump or not trumps_out):
                    sure.append(a)
            if sure:
                return min(sure, key=key_low)
            plain = [a for a in legal if suit_of[a.card] != trump]
            if plain:
                return max(plain, key=lambda a: (power[a.card], a.card.index))
            return max(legal, key=lambda a: (power[a.card], a.card.index))
        best = tc[tricks.winner(tc, suit_of, power, trump)]
        led = state.led
        win = [a for a in legal if tricks.beats(a.card, best, led, trump, suit_of, power)]
        still = state.in_play - len(tc) - 1          # players after me in this trick
        if win:
            if still > 0:
                unseen = self._unseen(state, me, hand)
                safe = [a for a in win if not any(tricks.beats(x, a.card, led, trump, suit_of, power)
                                                  for x in unseen)]
                if safe:
                    return min(safe, key=key_low)
                # nobody can be sure: the cheapest winner in the led colour, else the cheapest trump
            return min(win, key=key_low)
        # cannot win: throw the weakest card; keep a trump while no trick is taken
        if state.tricks[me] == 0:
            non_trump = [a for a in legal if suit_of[a.card] != trump]
            if non_trump:
                return min(non_trump, key=key_low)
        return min(legal, key=key_low)


BOTS = {"random": RandomBot, "careful": CarefulBot, "rule-based": RuleBot}
