"""Faro's bots: `CarefulBot`, a cautious punter, and `RuleBot`, which chooses Paroli, Lappé or
Six-/Sept-et-le-va by their exact value against the leader's balance. The rules, and the odds, are
`cardkit.games.faro`."""
from __future__ import annotations

from fractions import Fraction

from ..games.faro import (AMOUNT, BANK, DONE, LAPPE, RANK_OF, STAKE, STAKE_A, WITHDRAW, FaroState, expected,
                          new_stake)
from .base import Bot, RandomBot


class CarefulBot(Bot):
    """A cautious punter: one card a deal at the smallest stake (a card chosen at random, seeded), Lappé after
    every showing, and withdraws the card as soon as it may."""
    name = "careful"

    def decide(self, state: FaroState, legal):
        me = state.current_player
        ph = state.phase
        if ph == STAKE:
            if any(st.seat == me for lst in state.stakes for st in lst):
                return DONE
            cards = [a for a in legal if a.card is not None]
            return cards[self.rng.below(len(cards))]
        if ph == AMOUNT:
            return legal[0]
        return WITHDRAW if WITHDRAW in legal else LAPPE if LAPPE in legal else legal[0]


class RuleBot(Bot):
    """Plays by the book, with the exact odds (what its seat knows: the case-keeper, the bottom card once shown,
    the stakes and the ledger — all public). A sitting is won by the best balance, so it measures itself
    against **the leader** (the best position of the other places, the bank's included):

    * **stakes** one card a deal (six when other punters play: against several, only a large swing makes
      the best balance), the ranks with the best expected result at their first showing: the smallest stake
      that would carry it past the leader if it wins (the limit if none does) — and **stakes nothing** in a
      deal it begins in the lead: it keeps what it has won;
    * when its card shows: **withdraws** (once it may) when it leads or the rank's next showing is against
      it; **behind**, it chooses the smallest new stake that a win would carry past the leader — Six- or
      Sept-et-le-va after a loss, as the source advises — within the limit; **leading**, the smallest stake;
      and the largest one where the exact odds of the next showing are in its favour."""
    name = "rule-based"
    SPREAD = 6                  # cards staked a deal when other punters play too

    @staticmethod
    def _lead(state, me: int) -> int:
        """The best position of the other places (the bank's is its balance)."""
        return max(state.position(p) if p != BANK else state.ledger.balances["Bank"]
                   for p in range(state.game.num_players) if p != me)

    @staticmethod
    def _ev(state, r: int, stake: int) -> Fraction:
        return expected(stake, state.rank_odds(r)[1], state.game.doublets)

    def decide(self, state: FaroState, legal):
        me = state.current_player
        ph = state.phase
        pos = state.position(me) - self._lead(state, me)      # above 0: it leads
        if ph == STAKE:
            staked = sum(1 for lst in state.stakes for st in lst if st.seat == me)
            if staked >= (1 if state.game.num_players == 2 else self.SPREAD) or pos > 0:
                return DONE
            cards = [a for a in legal if a.card is not None]
            # during the deal (FA-3.8) only a rank still live in the pack: a stake on a dead one is idle
            cards = [a for a in cards if state.live_count(RANK_OF[a.card])] or cards
            return max(cards, key=lambda a: (self._ev(state, RANK_OF[a.card], 2), -RANK_OF[a.card]))
        if ph == AMOUNT:
            amounts = [a.data for a in legal]
            r = RANK_OF[state.picked_card()]
            if self._ev(state, r, 2) > 0:
                return STAKE_A[amounts[-1]]
            want = [k for k in amounts if pos + k > 0]
            return STAKE_A[want[0] if want else amounts[-1]]
        st, outcome, before = state.pending[0]
        r = st.rank
        ev = self._ev(state, r, 2)
        if WITHDRAW in legal and (pos > 0 or (ev < 0 and pos == 0)):
            return WITHDRAW
        options = sorted(((new_stake(a.data, before, st.orig, st.amount), i, a) for i, a in enumerate(legal)
                          if a is not WITHDRAW), key=lambda x: (x[0], x[1]))
        if ev > 0:
            return options[-1][2]
        if pos > 0:
            return options[0][2]
        # behind: the money on the table comes back if it wins; a win pays the new stake
        lifting = [x for x in options if pos + x[0] > 0]
        return (lifting[0] if lifting else options[-1])[2]


BOTS = {"random": RandomBot, "careful": CarefulBot, "rule-based": RuleBot}
