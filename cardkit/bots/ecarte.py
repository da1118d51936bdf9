"""Écarté's bots: `CarefulBot`, the baseline, and `RuleBot`, a club player who keeps trumps and Kings, throws
away the other side cards, and plays each card by playing the deal out exactly against hands sampled from
what the play showed. The rules are `cardkit.games.ecarte`."""
from __future__ import annotations

from ..cards import PIQUET32
from ..games.ecarte import (ACCEPT, ANNOUNCE, ANSWER, DISCARD, EXCHANGE, HAND, PLAY_CARD, POWER, PROPOSE, PROPOSE_A,
                            REFUSE, STAND, SUIT, SUITS, EcarteState)
from ..tricks import beats
from .base import Bot, RandomBot


class _Seen:
    """What a seat knows of the cards: its own hand, every card shown to both, its own discards."""

    @staticmethod
    def unseen(state: EcarteState, me: int) -> set:
        """The cards `me` has not seen since the last shuffle: the other hand, the talon, the other
        player's discards (any of them may hold any of these)."""
        seen = set(state.hands[me])
        seen.update(state.discards[me])
        for q, c in state.shown:
            seen.add(c)
        for q, c, up in state.out:
            if up or q == me:
                seen.add(c)
        return set(state.game.full_deck()) - seen


class CarefulBot(Bot):
    """A plain careful player, the baseline a rule-based bot must beat:

    * exchange: throws away every card that is neither a trump nor a King or Queen (classic: proposes with
      fewer than two trumps, accepts every proposal);
    * play: wins a trick with the cheapest card that takes it, else plays its lowest card; leads its highest.

    It counts no cards; ties are broken at random (seeded)."""
    name = "careful"

    def decide(self, state: EcarteState, legal):
        me = state.current_player
        trump = state.trump
        phase = state.phase
        if phase == PROPOSE:
            return PROPOSE_A if sum(1 for c in state.hands[me] if c.suit == trump) < 2 else STAND
        if phase == ANSWER:
            return ACCEPT
        if phase == EXCHANGE:
            weak = [a for a in legal if a.data == "discard" and a.card.suit != trump and a.card.rank not in "KQ"]
            if weak:
                return weak[self.rng.below(len(weak))]
            buy = [a for a in legal if a.data == "buy"]
            if buy:
                return buy[0]
            return min(legal, key=lambda a: (a.card.suit == trump, POWER[a.card], a.text))   # at least one
        if ANNOUNCE in legal:
            return ANNOUNCE
        cards = [a for a in legal if a.card is not None]
        if not state.trick:
            top = max(POWER[a.card] for a in cards)
            best = [a for a in cards if POWER[a.card] == top]
            return best[self.rng.below(len(best))]
        first = state.trick[0][1]
        win = [a for a in cards if beats(a.card, first, state.led, trump, SUIT, POWER)]
        pool = win or cards
        return min(pool, key=lambda a: (a.card.suit == trump, POWER[a.card], a.text))


# The look-ahead's cards as bits (`RuleBot._look_ahead`): card c is bit _POS[c], a suit's eight cards in a block
# of eight (the pack's blocks), lowest first by their power in play (the Ace between the Ten and the Jack), so
# that the next card up of a suit is the next bit up; each suit's cards, and per trump the cards that take a
# trick led with card i (a higher card of its suit, or a trump)
_POS = {c: (c.index & ~7) | POWER[c] for c in PIQUET32.cards}
assert sorted(_POS.values()) == list(range(32))
_BIT = {c: 1 << _POS[c] for c in PIQUET32.cards}
_SUIT_BITS = {s: sum(_BIT[c] for c in PIQUET32.cards if c.suit == s) for s in SUITS}
_SAME = {_POS[c]: _SUIT_BITS[c.suit] for c in PIQUET32.cards}      # the cards of card i's suit
_SUIT_OF = {_POS[c]: c.suit for c in PIQUET32.cards}
# _HIGHER[trump][i]: the cards that take a trick led with card i (a higher card of its suit, or a trump)
_HIGHER = {t: {_POS[c]: sum(_BIT[d] for d in PIQUET32.cards if beats(d, c, c.suit, t, SUIT, POWER))
               for c in PIQUET32.cards} for t in (*SUITS, None)}
_ABOVE = {_BIT[c]: _SUIT_BITS[c.suit] & -(_BIT[c] << 1) for c in PIQUET32.cards}   # card b -> its suit's higher cards


def _deal_value(t_me: int, t_opp: int) -> int:
    """A finished deal's value for the player with `t_me` tricks: 2 for all five, 1 for the point, -1, -2."""
    if t_me >= 3:
        return 2 if t_me == HAND else 1
    return -2 if t_opp == HAND else -1


class RuleBot(Bot):
    """A rule-based player that plays the way a club player would, with only what its seat knows (its
    hand, its discards, every card shown since the shuffle: played, turned, announced):

    * **exchange: keep the King of trumps, the trumps and the Kings, throw away the weak cards** (every
      other side card, the lowest first) — the exchange costs nothing under the source's rules, and in
      matches against the kit's other players keeping Queens or Jacks did worse. Classic reading: the elder
      hand stands on a strong hand (a *jeu de règle*: about three sure tricks) and proposes otherwise; the
      dealer refuses a proposal with such a hand (and must then make the point, EC-2.3); after an accepted
      proposal the elder hand throws away at least its weakest card;
    * **announces** the King of trumps when the option allows it;
    * **counts the cards** and **plays the hand out in its head**: for each card it may play it deals the
      unseen cards (the other hand, the talon, the other player's discards: everything it has not seen since
      the shuffle) at random into a hand for the other player, a few times, keeping only hands that agree
      with what the play showed (a suit the other player did not follow, no trump when he did not trump),
      and plays each deal out exactly to the end of the deal (the point, or two for five tricks); it plays
      the card that scores best over the deals, the cheaper card (a side card before a trump, a low card
      before a high one) among equals;
    * without anything to choose between: leads the best trump when it holds at least two and the
      highest still out, else a sure winner of a side suit, a singleton, its lowest side card; follows with
      the cheapest card that takes the trick, else its lowest card."""
    name = "rule-based"
    SAMPLES = 8                 # hands dealt to the other player for each decision of the play
    MEMO_POSITIONS = 20_000     # the look-ahead's memo starts afresh past this many positions (about 5 MB)

    def __init__(self, seed: int = 0):
        super().__init__(seed)
        self._memos: dict = {}  # the look-ahead's memos (`_memo`)

    # --- the exchange --------------------------------------------------------------------------------
    @staticmethod
    def strength(hand, trump) -> float:
        """A rough count of the tricks a hand takes: trumps (the high ones more), side Kings, Queens."""
        s = 0.0
        for c in hand:
            pw = POWER[c]
            if c.suit == trump:
                s += 1.0 if pw >= 4 else 0.8
            elif pw == 7:
                s += 0.8
            elif pw == 6:
                s += 0.35
        return s

    @staticmethod
    def weak(hand, trump) -> list:
        """The cards to throw away, weakest first: every side card but a King."""
        return sorted((c for c in hand if c.suit != trump and c.rank != "K"), key=lambda c: (POWER[c], c.index))

    def decide(self, state: EcarteState, legal):
        me = state.current_player
        trump = state.trump
        hand = state.hands[me]
        phase = state.phase
        if phase == PROPOSE:
            return STAND if self.strength(hand, trump) >= 2.8 else PROPOSE_A
        if phase == ANSWER:
            return REFUSE if self.strength(hand, trump) >= 2.8 else ACCEPT
        if phase == EXCHANGE:
            weak = self.weak(hand, trump)
            can = any(a.data == "discard" for a in legal)
            if weak and can:
                return DISCARD[hand.index(weak[0])][weak[0]]
            if can and state.ndisc < state.min_disc:
                want = min(hand, key=lambda c: (c.suit == trump, POWER[c], c.index))
                return DISCARD[hand.index(want)][want]
            return next(a for a in legal if a.data == "buy")
        if ANNOUNCE in legal:
            return ANNOUNCE
        cards = [a.card for a in legal]
        unseen = _Seen.unseen(state, me)
        best = self._look_ahead(state, me, cards, unseen)
        plain = self._lead(state, me, cards, unseen) if not state.trick else self._follow(state, me, cards)
        if best and plain not in best:
            plain = min(best, key=lambda c: (c.suit == trump, POWER[c], c.index))
        return PLAY_CARD[plain]

    # --- the play ----------------------------------------------------------------------------------------
    @staticmethod
    def _master(c, unseen) -> bool:
        """No unseen card of its suit is higher."""
        pw = POWER[c]
        return not any(u.suit == c.suit and POWER[u] > pw for u in unseen)

    def _lead(self, state, me, cards, unseen):
        trump = state.trump
        trumps = sorted((c for c in cards if c.suit == trump), key=POWER.__getitem__, reverse=True)
        side = [c for c in cards if c.suit != trump]
        out_trumps = [u for u in unseen if u.suit == trump]
        if trumps and self._master(trumps[0], unseen) and (len(trumps) >= 2 or not side) and out_trumps:
            return trumps[0]
        masters = sorted((c for c in side if self._master(c, unseen)), key=POWER.__getitem__, reverse=True)
        if masters:
            return masters[0]
        if not side:
            return trumps[0] if self._master(trumps[0], unseen) else trumps[-1]
        count: dict = {}
        for c in side:
            count[c.suit] = count.get(c.suit, 0) + 1
        singles = [c for c in side if count[c.suit] == 1 and trumps]
        if singles:
            return min(singles, key=lambda c: (POWER[c], c.index))
        return min(side, key=lambda c: (POWER[c], c.index))

    @staticmethod
    def _follow(state, me, cards):
        trump = state.trump
        first = state.trick[0][1]
        win = [c for c in cards if beats(c, first, state.led, trump, SUIT, POWER)]
        return min(win or cards, key=lambda c: (c.suit == trump, POWER[c], c.index))

    @staticmethod
    def _voids(state, opp) -> set:
        """The suits the other player has shown he lacks in this deal (the trump suit too, when he neither
        followed nor trumped)."""
        voids = set()
        for p in (0, 1):
            for (lp, a), (fp, b) in state.won[p]:
                if fp == opp and b.suit != a.suit:
                    voids.add(a.suit)
                    if b.suit != state.trump:
                        voids.add(state.trump)
        return voids

    def _memo(self, me: int, trump, overtake: bool) -> dict:
        """The look-ahead's memo for `me` under this trump and duty to overtake, kept from one decision to the
        next: a position (both hands, the trick, the tricks won) has the same value under the same rules in
        every sample and every decision, so the samples, the decisions of a deal and the playouts of an expert
        (one bot plays all of them) share the work of the positions they meet. It starts afresh past
        `MEMO_POSITIONS` positions in all."""
        memos = self._memos
        if sum(map(len, memos.values())) > self.MEMO_POSITIONS:
            memos.clear()
        return memos.setdefault((me, trump, overtake), {})

    def _look_ahead(self, state, me, cards, unseen) -> list:
        """The cards that score best when the rest of the deal is played out exactly against sampled hands
        of the other player (see the class docstring); [] when no hand agrees with the play. The play-out is
        an alpha-beta search with a memo of bounds, the cards as bits (`_BIT`)."""
        opp = 1 - me
        trump = state.trump
        n_opp = len(state.hands[opp])
        voids = self._voids(state, opp)
        pool = sorted((c for c in unseen if c.suit not in voids), key=lambda c: c.index)
        if len(pool) < n_opp:
            return []
        overtake = state.game.overtake
        mine = tuple(state.hands[me])
        trick = state.trick[0] if state.trick else None
        tk = tuple(state.tricks)
        higher = _HIGHER[trump]
        trump_bits = _SUIT_BITS.get(trump, 0)
        memo = self._memo(me, trump, overtake)
        above = _ABOVE

        same_suit, suit_of = _SAME, _SUIT_OF

        def solve(m, t, led, lp, turn, tme, top, alpha, beta):
            """The deal's value for `me` (2, 1, -1, -2) when it lies outside (alpha, beta) only as a bound
            (alpha-beta, fail-soft): at or below alpha it is at most the figure returned, at or above beta at
            least. m, t: my and the other player's cards as bits; led: the index of the card led (-1: none
            yet), lp: who led it; tme, top: the tricks taken by me and by the other player."""
            if tme and top and (tme >= 3 or top >= 3):   # decided: three tricks, and no five any more
                return 1 if tme >= 3 else -1
            if led < 0 and m and not m & (m - 1):      # the last trick, a card each: no choice left
                lb, fb = (m, t) if turn == me else (t, m)
                w = 1 - turn if fb & higher[lb.bit_length() - 1] else turn
                return _deal_value(tme + 1, top) if w == me else _deal_value(tme, top + 1)
            key = (m, t, led, lp, turn, tme, top)
            e = memo.get(key)
            if e is not None:
                lo, hi = e
            else:                                 # what the tricks taken settle already: a trick of mine
                lo = (1 if tme >= 3 else -1) if tme else -2      # rules out -2, three of them the point,
                hi = (-1 if top >= 3 else 1) if top else 2       # and the same for his
            if lo == hi or lo >= beta:
                return lo
            if hi <= alpha:
                return hi
            if lo > alpha:
                alpha = lo
            if hi < beta:
                beta = hi
            mover_me = turn == me
            hand = m if mover_me else t
            if not hand:
                v = _deal_value(tme, top)
                memo[key] = (v, v)
                return v
            if led < 0:
                moves = hand
            else:   # the cards that may answer card `led`: follow suit, else trump (Écarté as the source gives
                # it); beat the card led if the overtake duty is on and you can
                moves = hand & same_suit[led]
                if not moves and suit_of[led] != trump:
                    moves = hand & trump_bits
                if not moves:
                    moves = hand
                elif overtake and moves & higher[led]:
                    moves &= higher[led]
            if moves & (moves - 1):
                # of a run of cards of one suit with no card between them still in play (the card led included),
                # one is tried: the deal goes on the same whichever of them is played (up to their names)
                rest = m | t | (1 << led if led >= 0 else 0)
                x = moves
                while x:
                    b = x & -x
                    x ^= b
                    up = rest & above[b]
                    if up & -up & moves:             # the next card up in play is one of these too
                        moves ^= b
            a0, b0 = alpha, beta
            best = -3 if mover_me else 3
            while moves:                              # the highest card first (more cut-offs)
                b = 1 << (moves.bit_length() - 1)
                moves ^= b
                m2, t2 = (m ^ b, t) if mover_me else (m, t ^ b)
                if led < 0:
                    v = solve(m2, t2, b.bit_length() - 1, turn, 1 - turn, tme, top, alpha, beta)
                elif (turn if b & higher[led] else lp) == me:
                    v = solve(m2, t2, -1, 0, me, tme + 1, top, alpha, beta)
                else:
                    v = solve(m2, t2, -1, 0, opp, tme, top + 1, alpha, beta)
                if mover_me:
                    if v > best:
                        best = v
                        if best > alpha:
                            alpha = best
                elif v < best:
                    best = v
                    if best < beta:
                        beta = best
                if alpha >= beta:
                    break
            if best <= a0:
                if best < hi:                         # the true value is at most best
                    hi = best
            elif best >= b0:
                if best > lo:                         # at least best
                    lo = best
            else:
                lo = hi = best
            memo[key] = (lo, hi)
            return best

        all_m = sum(_BIT[c] for c in mine)
        score = dict.fromkeys(cards, 0)
        # of a run of my cards with no card in play between them (the card led included), one is played out:
        # the others score the same (as in `solve`); the highest first, so a lower card takes the value of the
        # next card up
        order = sorted(cards, key=_BIT.__getitem__, reverse=True)
        card_bits = {_BIT[c]: c for c in cards}
        led_bit = _BIT[trick[1]] if trick is not None else 0
        for _ in range(self.SAMPLES):
            self.rng.shuffle(pool)
            all_t = sum(_BIT[c] for c in pool[:n_opp])
            rest = all_m | all_t | led_bit
            value: dict = {}
            for c in order:
                b = _BIT[c]
                up = rest & above[b]
                same = card_bits.get(up & -up)
                if same is not None:
                    v = value[same]
                elif trick is None:
                    v = solve(all_m ^ b, all_t, _POS[c], me, opp, tk[me], tk[opp], -2, 2)
                else:
                    lp, led = trick
                    w = me if beats(c, led, led.suit, trump, SUIT, POWER) else lp
                    v = solve(all_m ^ b, all_t, -1, 0, w, tk[me] + (w == me), tk[opp] + (w == opp), -2, 2)
                value[c] = v
                score[c] += v
        top = max(score.values())
        return [c for c in cards if score[c] == top]


BOTS = {"random": RandomBot, "careful": CarefulBot, "rule-based": RuleBot}
