"""Bakkarat's bots: `CarefulBot`, the baseline, and `RuleBot`, which takes the third card by the exact odds
and stakes the limit. The rules, and the odds, are `cardkit.games.bakkarat`."""
from __future__ import annotations

from ..games.bakkarat import CLOSE_A, DRAW_A, STAKE_A, STAND_A, VALUE, BakkaratState
from .base import Bot, RandomBot


def _own_count(state, me: int) -> int:
    h = state.view(me).seats[me].hand
    return state.game.fin2[sum(VALUE[c] for c in h[:2])]


class CarefulBot(Bot):
    """A plain careful player, the baseline a rule-based bot must beat: stakes 1 unit alone, closes the
    stakes alone, draws on a count of 4 or less and stands on 5 or more (as the bank: 5 or less). It counts
    no cards."""
    name = "careful"

    def decide(self, state: BakkaratState, legal):
        me = state.current_player
        first = legal[0]
        kind = first.data[0]
        if kind in ("stake", "close"):
            return first                           # stake 1 alone; close the stakes alone
        limit = 5 if me == state.banker else 4
        return DRAW_A if _own_count(state, me) <= limit else STAND_A


class RuleBot(Bot):
    """A player by the book, with only what its seat knows (its own cards, the cards turned up since the
    shuffle, the stakes):

    * **the third card by the exact odds** (BA-2.3): draws when its stake is worth more drawing than
      standing (as the bank: when the stakes on the table are worth more to the bank drawing);
    * **stakes the table's limit, alone**: the source calls the bank "selten lukrativ" (seldom lucrative),
      so the players' side is the one to back; it keeps its partner out of it (the partner's money does not
      count for its own balance) and keeps the bank to itself."""
    name = "rule-based"

    def decide(self, state: BakkaratState, legal):
        me = state.current_player
        kind = legal[0].data[0]
        if kind == "stake":
            return STAKE_A[state.game.limit]
        if kind == "close":
            return CLOSE_A
        odds = state.advice(me)
        stand, draw = odds[-2].value, odds[-1].value
        return DRAW_A if draw > stand else STAND_A


BOTS = {"random": RandomBot, "careful": CarefulBot, "rule-based": RuleBot}
