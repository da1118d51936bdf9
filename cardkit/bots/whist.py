"""Whist's bots: `CarefulBot`, the baseline, and `RuleBot`, a club player of the classic game (second hand
low, third hand high, the partner's lead returned, trumps when void and it pays, the cards counted), and
their answers to the table's questions (revokes, calls). The rules are `cardkit.games.whist`."""
from __future__ import annotations

from ..cards import Card
from ..games.whist import ASKED, CALLING, CLAIM, CLAIMING, FULL, NO_CALL, PLAY_ON, REDEAL, WhistState
from .base import Bot, RandomBot


class _Seat:
    """What one seat knows, from its own hand and the public play: the cards still out (neither played nor
    in its hand), the suits each player has shown out of (strict rules: proved by the play)."""

    @staticmethod
    def unseen(state: WhistState, me: int) -> frozenset[Card]:
        seen = state.played_cards()
        seen.update(state.hand_of(me))
        if state.turned_on_table:
            seen.add(state.turned)
        for q in range(4):
            seen.update(state.faceup[q])
        return FULL - seen

    @staticmethod
    def void(state: WhistState) -> list:
        """For each seat, the suits it has shown out of this hand (public: it did not follow)."""
        out: list[set[str]] = [set(), set(), set(), set()]
        for ld, cs, _ in state.done:
            led = cs[0].suit
            for k in range(1, 4):
                if cs[k].suit != led:
                    out[(ld + k) & 3].add(led)
        tr = state.trick
        for k in range(1, len(tr)):
            if tr[k].suit != tr[0].suit:
                out[(state.leader + k) & 3].add(tr[0].suit)
        return out


class CarefulBot(Bot):
    """A simple careful player, the baseline a club player must beat: it follows suit with its lowest card
    unless it can take a trick the opponents hold with its cheapest winning card (as the last to play, or
    with a card nobody can beat); void, it trumps low when the opponents hold the trick, else throws its
    lowest card; it leads its highest card of its longest side suit. Ties at random (seeded); no memory
    beyond the cards on the table."""
    name = "careful"

    def decide(self, state: WhistState, legal):
        if state.phase:
            return _answer_question(state, legal)
        me = state.current_player
        cards = [a for a in legal if a.card is not None]
        if not state.trick:
            by: dict[str, list] = {}
            for a in cards:
                by.setdefault(a.card.suit, []).append(a)
            side = [s for s in by if s != state.trump] or list(by)
            s = max(side, key=lambda s: (len(by[s]), self.rng.below(100)))
            return max(by[s], key=lambda a: a.card.value)
        h = state.holder()
        ours = h[0] & 1 == me & 1
        led = state.led
        follow = [a for a in cards if a.card.suit == led] if state.game.strict else \
            [a for a in cards if a.card.suit == led] or []
        if not follow and not state.game.strict and any(a.card.suit == led for a in legal):
            follow = [a for a in legal if a.card.suit == led]
        pool = follow or cards
        win = [a for a in pool if _beats(a.card, h[1], led, state.trump)]
        last = len(state.trick) == 3
        if not ours and win and (last or follow):
            return min(win, key=lambda a: (a.card.suit == state.trump, a.card.value))
        return min(pool, key=lambda a: (a.card.suit == state.trump, a.card.value, self.rng.below(100)))


def _beats(card, best, led, trump) -> bool:
    s, b = card.suit, best.suit
    if s == b:
        return card.value > best.value
    return s == trump


def _answer_question(state: WhistState, legal):
    """The bots' answers as at the table: they never revoke, so "having none" is true; they claim every
    revoke of the opponents; they demand a redeal when a card of their own side was exposed."""
    ph = state.phase
    if ph == ASKED:
        return next(a for a in legal if a.card is None)
    if ph == CLAIMING:
        return CLAIM
    if ph == CALLING:
        return _call_choice(state, legal)
    me = state.current_player
    if any(q & 1 == me & 1 for q, _ in state.exposed):
        return REDEAL
    return PLAY_ON


def _call_choice(state: WhistState, legal):
    """WH-4.8.1, the bots' call of a shown card (they see only what is on the table): the partner calls it
    when it would take the trick from the opponents, or leads with it when it is the highest of its suit
    still out; an opponent calls it when it would be wasted — under a better card, or a high card (10 and
    up) led into the suits still out. Otherwise no call."""
    holder, _ = state.call
    me = state.current_player
    partner = me & 1 == holder & 1
    cards = [a for a in legal if a is not NO_CALL]
    unseen = _Seat.unseen(state, me)
    for a in cards:
        c = a.data[1]
        if state.trick:
            h = state.holder()
            wins = _beats(c, h[1], state.led, state.trump)
            if partner and wins and h[0] & 1 != holder & 1:
                return a
            if not partner and not wins and c.value >= 10:
                return a
        else:
            master = RuleBot._master(c, unseen)
            if partner and master:
                return a
            if not partner and not master and c.value >= 10:
                return a
    return NO_CALL


class RuleBot(Bot):
    """A rule-based player that plays as a club player of the classic game does, with only what its seat
    may know (its hand, the cards played and shown, who has shown out of which suit):

    * **leads**: a master card (the highest still out) of a side suit the opponents still follow; else its
      partner's suit; else a suit its partner can ruff; else its longest side suit (trumps with five or
      more) — the top of a sequence of honours (A from A-K, K from K-Q), else the fourth best;
    * **returns its partner's lead**: the suit the partner led first, the higher of two left, else low;
    * **second hand low**: plays low, unless it holds the master of the suit (the highest still out) and the
      trick is worth it, or covers an honour led with a higher one;
    * **third hand high**: plays its highest (the lowest of touching top cards), unless its partner's card
      already holds the trick against everything left;
    * **fourth hand**: takes the trick as cheaply as it can when the opponents hold it, else plays low;
    * **trumps when void and it pays**: it ruffs a trick the opponents hold (low, over-ruffing only when it
      must), never its partner's trick when that is safe; otherwise it discards its lowest card of its
      weakest side suit, keeping masters and guarded honours;
    * **draws trumps** with the master trump when it holds more trumps than are still out.
    Every card counts: it knows which cards are still out and who has shown out of which suit."""
    name = "rule-based"

    def decide(self, state: WhistState, legal):
        if state.phase:
            return _answer_question(state, legal)
        me = state.current_player
        trump = state.trump
        # strict or not, the rule-based bot follows suit
        if state.trick:
            led = state.led
            follow = [a for a in legal if a.card is not None and a.card.suit == led]
            cards = follow or [a for a in legal if a.card is not None]
        else:
            cards = [a for a in legal if a.card is not None]
        unseen = _Seat.unseen(state, me)
        if not state.trick:
            return self._lead(state, me, cards, unseen)
        return self._follow(state, me, cards, unseen, trump)

    # --- helpers ----------------------------------------------------------------------------------
    @staticmethod
    def _master(card, unseen) -> bool:
        """No unseen card of its suit is higher."""
        return not any(u.suit == card.suit and u.value > card.value for u in unseen)

    @staticmethod
    def _by_suit(actions) -> dict:
        by: dict = {}
        for a in actions:
            by.setdefault(a.card.suit, []).append(a)
        for s in by:
            by[s].sort(key=lambda a: -a.card.value)
        return by

    def _lead(self, state, me, cards, unseen):
        trump = state.trump
        by = self._by_suit(cards)
        partner = (me + 2) & 3
        void = _Seat.void(state)
        trumps_out = sum(1 for u in unseen if u.suit == trump)
        my_trumps = len(by.get(trump, []))
        # draw trumps while holding more than half of those left, with the master
        if my_trumps and trumps_out and my_trumps > trumps_out and self._master(by[trump][0].card, unseen):
            return by[trump][0]
        # cash a master in a side suit the opponents still follow
        opps = [(me + 1) & 3, (me + 3) & 3]
        for s in sorted(by, key=lambda s: -len(by[s])):
            if s == trump:
                continue
            top = by[s][0]
            if self._master(top.card, unseen) and not any(s in void[o] for o in opps) and \
                    any(u.suit == s for u in unseen):
                return top
        # return the partner's lead
        for ld, cs, _ in state.done:
            if ld == partner and cs[0].suit in by and cs[0].suit != trump:
                suit = by[cs[0].suit]
                return suit[0] if len(suit) <= 2 else suit[-1]
        # a suit the partner is void in (he can trump), if the opponents are not
        for s in by:
            if s != trump and s in void[partner] and not any(s in void[o] for o in opps) and \
                    trump not in void[partner]:
                return by[s][-1]
        # open the longest side suit: top of a sequence, else fourth best
        side = [s for s in by if s != trump]
        if not side or (my_trumps >= 5 and trumps_out):
            side = [trump] if trump in by else list(by)
        s = max(side, key=lambda s: (len(by[s]), sum(a.card.value for a in by[s]), self.rng.below(64)))
        suit = by[s]
        vals = [a.card.value for a in suit]
        if len(suit) >= 2 and vals[0] >= 12 and vals[1] == vals[0] - 1:
            return suit[0]                                     # top of a sequence of honours
        if len(suit) >= 4:
            return suit[3]                                     # fourth best
        return suit[-1]

    def _follow(self, state, me, cards, unseen, trump):
        led = state.led
        h = state.holder()
        best = h[1]
        ours = h[0] & 1 == me & 1
        pos = len(state.trick)                      # 1: second hand, 2: third, 3: fourth
        following = cards[0].card.suit == led
        void = _Seat.void(state)
        later = [(me + k) & 3 for k in range(1, 4 - pos)]
        opp_later = [q for q in later if q & 1 != me & 1]
        winners = [a for a in cards if _beats(a.card, best, led, trump)]

        def safe(card) -> bool:
            """Will `card` hold the trick against the opponents still to play?"""
            for q in opp_later:
                if card.suit == led:
                    if led not in void[q] and any(u.suit == led and u.value > card.value for u in unseen):
                        return False
                    if led in void[q] and trump not in void[q] and card.suit != trump and \
                            any(u.suit == trump for u in unseen):
                        return False
                else:                                # a trump
                    if led in void[q] and any(u.suit == trump and u.value > card.value for u in unseen):
                        return False
            return True

        low = min(cards, key=lambda a: (a.card.suit == trump, a.card.value))
        if following:
            if ours and (not opp_later or safe(best)):
                return min(cards, key=lambda a: a.card.value)     # partner holds it: play low
            if not winners:
                return min(cards, key=lambda a: a.card.value)
            if pos == 3:
                return min(winners, key=lambda a: a.card.value)   # fourth hand: win cheaply
            if pos == 1:
                # second hand low, unless the master wins it or an honour is to be covered
                masters = [a for a in winners if safe(a.card)]
                if masters and (state.trick[0].value >= 11 or len(state.done) >= 8):
                    return min(masters, key=lambda a: a.card.value)
                if state.trick[0].value >= 11 and winners:
                    return min(winners, key=lambda a: a.card.value)
                return min(cards, key=lambda a: a.card.value)
            # third hand high: the lowest of the touching top cards
            top = max(winners, key=lambda a: a.card.value)
            seq = top
            vals = {a.card.value: a for a in cards}
            while seq.card.value - 1 in vals and _beats(vals[seq.card.value - 1].card, best, led, trump):
                seq = vals[seq.card.value - 1]
            return seq
        # void in the suit led
        trumps = [a for a in cards if a.card.suit == trump]
        if ours and (not opp_later or safe(best)):
            return self._discard(cards, trump, unseen)
        win_trumps = [a for a in trumps if _beats(a.card, best, led, trump)]
        if win_trumps and led != trump:
            safe_ones = [a for a in win_trumps if safe(a.card)]
            if safe_ones:
                return min(safe_ones, key=lambda a: a.card.value)
            if not ours:
                return min(win_trumps, key=lambda a: a.card.value)
        return self._discard(cards, trump, unseen)

    def _discard(self, cards, trump, unseen):
        side = [a for a in cards if a.card.suit != trump] or cards
        by = self._by_suit(side)

        def cost(a):
            c = a.card
            suit = by[c.suit]
            master = self._master(c, unseen)
            guarded = c.value >= 11 and len(suit) >= 2
            return (master, guarded, c.value, len(suit))
        return min(side, key=cost)


BOTS = {"random": RandomBot, "careful": CarefulBot, "rule-based": RuleBot}
