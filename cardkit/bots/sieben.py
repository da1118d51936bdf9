"""Sieben's bots: `CarefulBot`, the baseline, and `RuleBot`, a club player who counts the cards, smears onto a
partner's trick, keeps 7s and pairs and, with 2 players, solves the endgame once the stock is empty. The
rules are `cardkit.games.sieben`."""
from __future__ import annotations

from ..cards import Card
from ..games.sieben import COUNTER, LAST_TRICK, STOP, SiebenState
from ..rng import Rng
from .base import RandomBot


class RuleBot:
    """A rule-based player that plays the way a decent club player does, with only what its seat may know
    (its hand, every card played — all are played face up —, the hand and stock sizes):

    * **card counting**: it counts the Aces, Tens and 7s (and every other rank) already played, so it
      knows how many cards that could beat a card are still out, and how likely an opponent holds one;
    * **never gives counters away**: on a trick the other side holds it never throws an Ace or a Ten while
      it has another card (only the exact endgame below may, when that wins the round); it keeps its 7s,
      and a rank it holds twice, to win tricks with counters;
    * **takes tricks worth having**: a trick with counters is beaten with a card of its rank before a 7,
      with a 7 only when the trick is worth 20, or not likely to be taken back; a worthless trick is taken
      with a plain card of its rank when that costs nothing;
    * **smears**: when its partner (4 players) holds a trick that is likely to stay his, it adds an Ace or
      a Ten (and always rather than waste a 7 on its own side's trick);
    * **leads** cards it can defend: worthless cards before counters and 7s, a rank it holds twice (if it
      is beaten it can beat back), a counter when the other side can no longer beat it;
    * **continues** a trick only to win back counters (or the last trick) the other side holds, with a
      card of the rank before a 7; never into a likely loss when its own side holds the trick;
    * **the last trick**: it counts the 10 for the last trick; with 2 players, once the stock is empty
      every unseen card is in the opponent's hand, and from 3 cards each it plays the rest of the round
      exactly (a search over the remaining cards, on the round's game points, then the counters)."""
    name = "rule-based"
    SMEAR_RISK = 0.5           # smear onto a partner's trick when the risk of losing it is below this
    SEVEN_RISK = 0.6           # beat with a 7 when the risk of being beaten back is below this (or ≥ 20)
    CONT_RISK = 0.6            # continue with a 7 when the risk of being beaten back is below this
    SEVEN_LEAD = 14            # what leading a 7 costs (on the scale of the counters)
    COUNTER_LEAD = 20          # what leading a counter costs, times the chance that it is lost
    SEARCH_CARDS = 3           # 2 players, stock empty: search exactly once the hand holds this many cards

    def __init__(self, seed: int = 0):
        self.rng = Rng(seed)
        self._memo: dict = {}

    # --- what the seat knows ----------------------------------------------------------------------
    @staticmethod
    def _unseen_ranks(state: SiebenState, me: int) -> dict:
        """For every rank: how many of its cards are neither played nor in my hand."""
        out: dict = {}
        for c in state.game.full_deck():
            out[c.rank] = out.get(c.rank, 0) + 1
        for won in state.won:
            for t in won:
                for _, c in t:
                    out[c.rank] -= 1
        for _, c in state.trick:
            out[c.rank] -= 1
        for c in state.hands[me]:
            out[c.rank] -= 1
        return out

    @staticmethod
    def _p_holds(k: int, m: int, total: int) -> float:
        """P(a hand of m of the `total` unknown cards holds at least one of k given cards)."""
        if k <= 0 or m <= 0 or total <= 0:
            return 0.0
        if m >= total or k > total - m:
            return 1.0
        p_none = 1.0
        for i in range(m):
            p_none *= (total - k - i) / (total - i)
        return 1.0 - p_none

    def _beaters_out(self, state, unseen: dict, first: Card) -> int:
        """Unseen cards that count as equal to `first` (its rank, 7s, wild 8s)."""
        eq = state.game.equal_table[first.index]
        seen_rank = set()
        k = 0
        for c in state.game.full_deck():
            if eq[c.index] and c.rank not in seen_rank:
                seen_rank.add(c.rank)
                k += unseen[c.rank]
        return k

    def _threat(self, state, me: int, unseen: dict, first: Card, players) -> float:
        """P(at least one of `players` holds a card equal to `first`)."""
        k = self._beaters_out(state, unseen, first)
        total = sum(unseen.values())
        p_none = 1.0
        for q in players:
            p_none *= 1.0 - self._p_holds(k, len(state.hands[q]), total)
        return 1.0 - p_none

    # --- the decision -----------------------------------------------------------------------------
    def choose(self, state: SiebenState):
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        me = state.current_player
        if state.n == 2 and not state.stock and len(state.hands[me]) <= self.SEARCH_CARDS:
            return self._endgame(state, me, legal)
        unseen = self._unseen_ranks(state, me)
        if state.deciding:
            return self._continue(state, me, legal, unseen)
        if not state.trick:
            return self._lead(state, me, legal, unseen)
        return self._answer(state, me, legal, unseen)

    @staticmethod
    def _final(state) -> bool:
        """Is the trick in progress the round's last (so it brings 10 more)?"""
        return not state.stock and all(len(h) <= 1 for h in state.hands)

    def _throw_cost(self, c: Card, hand, unseen: dict) -> float:
        """What giving `c` away costs: counters most, then 7s, then a card that pairs with another."""
        cost = 30.0 * COUNTER[c.index]
        if c.rank == "7":
            cost += 12
        same = sum(1 for x in hand if x is not c and x.rank == c.rank)
        cost += 2.0 * same
        cost -= 0.1 * unseen.get(c.rank, 0)            # a rank still out is more likely to be needed… less
        return cost

    def _cheapest(self, actions, hand, unseen):
        return min(actions, key=lambda a: (self._throw_cost(a.card, hand, unseen), a.text))

    def _opponents_after(self, state, me: int) -> list[int]:
        """The players of the other side still to answer in this round of the trick after me."""
        n = state.n
        out = []
        for k in range(1, state.pending):
            q = (me + k) % n
            if state.side(q) != state.side(me):
                out.append(q)
        return out

    def _answer(self, state: SiebenState, me: int, legal, unseen):
        hand = state.hands[me]
        side = state.side
        first = state.first_card()
        eq = state.eqrow
        value = sum(COUNTER[c.index] for _, c in state.trick) + (LAST_TRICK if self._final(state) else 0)
        beaters = [a for a in legal if eq[a.card.index]]
        others = [a for a in legal if not eq[a.card.index]]
        ld = state.leader
        # who may still take the trick from us: the other side's later answers, and the leader if he is theirs
        later = self._opponents_after(state, me)
        decider_theirs = side(ld) != side(me)
        if side(state.holder) == side(me):
            threats = later + ([ld] if decider_theirs and ld not in later else [])
            risk = self._threat(state, me, unseen, first, threats) if threats else 0.0
            smear = [a for a in legal if COUNTER[a.card.index]]
            if smear and risk < self.SMEAR_RISK:
                return min(smear, key=lambda a: (eq[a.card.index] is False, a.text))
            safe = [a for a in legal if not COUNTER[a.card.index] and a.card.rank != "7"]
            if safe:
                return self._cheapest(safe, hand, unseen)
            # only counters and 7s: rather give our own trick a counter than waste a 7 on it
            if smear:
                return min(smear, key=lambda a: (eq[a.card.index] is False, a.text))
            return self._cheapest(legal, hand, unseen)
        # the other side holds it
        threats = later + ([ld] if decider_theirs and ld not in later else [])
        risk = self._threat(state, me, unseen, first, threats) if threats else 0.0
        plain = [a for a in beaters if a.card.rank != "7"]
        sevens = [a for a in beaters if a.card.rank == "7"]
        if plain:
            # a card of the trick's rank: beat if the trick (with the card itself) is worth having, or free
            best = min(plain, key=lambda a: (COUNTER[a.card.index], a.text))
            c = best.card
            if value > 0 or (not COUNTER[c.index] and self._free_beat(c, hand, others)):
                return best
        if sevens and value >= 10 and (risk < self.SEVEN_RISK or value >= 20 or len(beaters) >= 2):
            return sevens[0]
        non_counters = [a for a in legal if not COUNTER[a.card.index]]
        if not non_counters:
            # only counters in hand: beat with one if it can, rather than give it away
            if beaters:
                return min(beaters, key=lambda a: a.text)
            return self._cheapest(legal, hand, unseen)
        throws = [a for a in non_counters if a.card.rank != "7" and not eq[a.card.index]]
        if throws:
            return self._cheapest(throws, hand, unseen)
        plain_nc = [a for a in non_counters if a.card.rank != "7"]
        if plain_nc:
            return self._cheapest(plain_nc, hand, unseen)        # an equal card of the rank: it even beats
        return sevens[0] if sevens else self._cheapest(non_counters, hand, unseen)  # beat rather than throw a 7

    @staticmethod
    def _free_beat(c: Card, hand, others) -> bool:
        """Beat a worthless trick with a plain card of its rank when that costs nothing: the card is no
        counter and the alternative throws are no cheaper (a counter, a 7, or a card of a pair)."""
        cheap_others = [a for a in others if not COUNTER[a.card.index] and a.card.rank != "7"]
        return not cheap_others or sum(1 for x in hand if x.rank == c.rank) >= 2

    def _lead(self, state: SiebenState, me: int, legal, unseen):
        hand = state.hands[me]
        side = state.side
        opps = [q for q in range(state.n) if side(q) != side(me) and state.hands[q]]
        eqt = state.game.equal_table

        def cost(a):
            c = a.card
            backup = sum(1 for x in hand if x is not c and eqt[c.index][x.index])
            threat = self._threat(state, me, unseen, c, opps)
            k = 0.0
            if COUNTER[c.index]:
                lose = threat * (0.5 if backup else 1.0)
                k += self.COUNTER_LEAD * lose - 8 * (1 - threat)
            if c.rank == "7":
                k += self.SEVEN_LEAD - (4 if not state.stock else 0)
            same = sum(1 for x in hand if x is not c and x.rank == c.rank)
            k -= 1.5 * min(same, 2)                  # a pair: if he beats, I can beat back
            k += 0.5 * threat                        # a card he cannot beat keeps the lead
            return k + self.rng.below(1000) / 100000
        return min(legal, key=cost)

    def _continue(self, state: SiebenState, me: int, legal, unseen):
        side = state.side
        if side(state.holder) == side(me):
            return STOP                                 # we hold it: do not continue into a possible loss
        value = sum(COUNTER[c.index] for _, c in state.trick) + (LAST_TRICK if self._final(state) else 0)
        if value == 0:
            return STOP
        conts = [a for a in legal if a.card is not None]
        opps = [q for q in range(state.n) if side(q) != side(me) and state.hands[q]]
        risk = self._threat(state, me, unseen, state.first_card(), opps)
        plain = [a for a in conts if a.card.rank != "7"]
        if plain:
            best = min(plain, key=lambda a: (COUNTER[a.card.index], a.text))
            return best
        if value >= 20 or risk < self.CONT_RISK or len(conts) >= 2:
            return conts[0]
        return STOP

    # --- the exact endgame (2 players, stock empty) ------------------------------------------------
    def _endgame(self, state: SiebenState, me: int, legal):
        """With the stock empty the unseen cards are the opponent's hand: search the rest of the round."""
        opp = 1 - me
        played = set(c for won in state.won for t in won for _, c in t) | set(c for _, c in state.trick)
        mine = set(state.hands[me])
        theirs = [c for c in state.game.full_deck() if c not in played and c not in mine]
        root = state.with_hand(opp, theirs)
        rounds0 = len(state.rounds)
        memo = self._memo
        if len(memo) > 200_000:
            memo.clear()
        points0 = list(state.points)

        # everything the value depends on: the cards left, the trick, whose turn, the counters and whether
        # each player has taken a trick (the round's 2 and 3 points, S7-5), and whose side it is valued for
        # (one bot may play both seats, as in the expert's playouts: its memo serves both)
        def key(s):
            return (tuple(sorted(c.index for c in s.hands[0])), tuple(sorted(c.index for c in s.hands[1])),
                    tuple((p, c.index) for p, c in s.trick), s.current_player, s.deciding, s.holder, s.leader,
                    s.pending, s.stage, tuple(s.counters), bool(s.won[0]), bool(s.won[1]), me, s.game)

        def value(s):
            r = s.rounds[-1]
            pts = [s.points[i] - points0[i] for i in range(2)]
            c = r["counters"]
            return 100 * (pts[me] - pts[opp]) + (c[me] - c[opp])

        def search(s):
            if len(s.rounds) > rounds0:
                return value(s)
            kk = key(s)
            v = memo.get(kk)
            if v is not None:
                return v
            acts = s.search_moves()
            maxing = s.current_player == me
            best = None
            for a in acts:
                x = search(s.lookahead(a))
                if best is None or (x > best if maxing else x < best):
                    best = x
            memo[kk] = best
            return best

        best, best_v = None, None
        for a in legal:
            v = search(root.lookahead(a))
            if best_v is None or v > best_v:
                best, best_v = a, v
        return best


class CarefulBot:
    """A simple careful player, the baseline a rule-based bot must beat. It never gives a counter (an Ace
    or a Ten) to a trick it does not take with that very card, and it keeps its 7s for tricks with counters:

    * answering: if the trick holds a counter and the other side holds it, it beats with an equal card (a
      card of the first card's rank before a 7); otherwise it throws a card that is neither a counter nor a
      7 (a 7 rather than a counter if it must);
    * leading: a card that is neither a counter nor a 7, if it has one;
    * continuing: only to win back a trick with counters that the other side holds, with a card of the
      first card's rank before a 7.

    Ties are broken at random (seeded). It counts no cards and keeps no memory."""
    name = "careful"

    def __init__(self, seed: int = 0):
        self.rng = Rng(seed)

    def _pick(self, actions):
        return actions[self.rng.below(len(actions))]

    def choose(self, state: SiebenState):
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        me = state.current_player
        cards = [a for a in legal if a.card is not None]
        value = sum(COUNTER[c.index] for _, c in state.trick)
        theirs = state.trick and state.side(state.holder) != state.side(me)
        plain = [a for a in cards if a.card.rank != "7" and not COUNTER[a.card.index]]
        if state.deciding:
            if theirs and value:
                same = [a for a in cards if a.card.rank != "7"]
                return self._pick(same or cards)
            return STOP
        if not state.trick:
            return self._pick(plain or [a for a in cards if a.card.rank == "7"] or cards)
        eq = state.eqrow
        if theirs and value:
            beat = [a for a in cards if eq[a.card.index]]
            same = [a for a in beat if a.card.rank != "7"]
            if beat:
                return self._pick(same or beat)
        throw = [a for a in plain if not eq[a.card.index]] or plain
        return self._pick(throw or [a for a in cards if a.card.rank == "7"] or cards)


BOTS = {"random": RandomBot, "careful": CarefulBot, "rule-based": RuleBot}
