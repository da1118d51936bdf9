"""Vingt-et-un's bots: `CarefulBot`, the baseline, and `RuleBot`, which stakes and draws by the exact odds
over the cards its seat has not seen. The rules, and the odds, are `cardkit.games.vingt_et_un`."""
from __future__ import annotations

from ..games.vingt_et_un import DRAW_A, STAKE, STAND_A, STAND_ON, ev_best, ev_value_num, odds_hand, pool_without
from ..rng import Rng
from .base import RandomBot


class CarefulBot:
    """A simple careful player: stakes the lowest stake, draws below 15 and stands from 15 on; as the bank
    (free choice) it draws to 16 and stands on 17."""
    name = "careful"

    def __init__(self, seed: int = 0):
        self.rng = Rng(seed)

    def choose(self, state):
        legal = state.legal_actions()
        if state.phase == STAKE:
            return legal[0]
        me = state.current_player
        limit = STAND_ON if me == state.bank else 15
        if legal[0] is DRAW_A and state.total(me) < limit:
            return DRAW_A
        return STAND_A


class RuleBot:
    """By the book, with the exact odds (counted over the cards its seat has not seen): it stakes the limit
    when the hand's expected result is positive and the lowest stake otherwise; it draws when drawing (and
    then playing on by the odds) is expected to win more than standing; as the bank with a free choice it
    draws to 16 and stands on 17 (the rule the odds assume)."""
    name = "rule-based"

    def __init__(self, seed: int = 0):
        self.rng = Rng(seed)

    def choose(self, state):
        legal = state.legal_actions()
        me = state.current_player
        g = state.game
        if len(legal) == 1:
            return legal[0]
        if me == state.bank:
            return DRAW_A if state.total(me) < STAND_ON else STAND_A
        pool = pool_without(state.seen_by(me))
        bank = odds_hand(state.hands[state.bank])
        hand = odds_hand(state.hands[me])
        if state.phase == STAKE:
            v = ev_value_num(hand, bank, pool, g.mode, g.double, g.bank_second)
            return legal[-1] if v > 0 else legal[0]
        best, stand, draw = ev_best(hand, bank, pool, g.mode, g.double)
        return DRAW_A if draw is not None and draw > stand else STAND_A


BOTS = {"random": RandomBot, "careful": CarefulBot, "rule-based": RuleBot}
