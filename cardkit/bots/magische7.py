"""Die Magische 7's bots: `CarefulBot`, the baseline, and `RuleBot`, a club player who tracks the pairs and
Jokers still out and, with 2 players, solves the endgame exactly. The rules are `cardkit.games.magische7`."""
from __future__ import annotations

from math import comb
from operator import mul

from ..cards import Card
from ..games.magische7 import CARDS_NO_JOKER, JOKER, PLAY, M7State, card_points, trick_outcome
from .base import RandomBot


_BIT_LISTS: dict = {}
_EXTREME_WEIGHTS: dict = {}      # (n, m) -> the weights of `RuleBot._expected_extreme`, and their sum


def _bits(mask: int) -> tuple:
    """The indices of the set bits of `mask`, lowest first (memoized: the endgame search asks often)."""
    out = _BIT_LISTS.get(mask)
    if out is None:
        out = _BIT_LISTS[mask] = tuple(i for i in range(mask.bit_length()) if mask >> i & 1)
    return out


class RuleBot:
    """A rule-based player that plays like a decent club player, with only what its seat may know (its
    hand, every card played so far — the sheet forbids looking at won tricks again, so a good player
    remembers them —, who still holds a Joker, the hand and stock sizes):

    * it tracks the cards played, so it knows for each card whether its pair partner is still out
      (unseen) and how likely the opponent holds it, and whether the opponent still holds its Joker
      (each player is dealt one);
    * leading, it estimates every card's outcome against the opponent's likely answers — beaten by the
      partner (the other side scores 7), taken by a Joker, or won with the opponent's cheapest throw — and
      leads the best, so a high card whose partner is gone and whose Joker threat has passed is led, a
      card whose partner is surely out is not; with 4 players it first chooses the opponent against whom
      its best lead is best;
    * answering, it takes a trick worth having with the cheapest winning card, uses the Joker only on a
      big trick, gives the other side its lowest card otherwise, and keeps high cards whose partner is
      gone (sure winners to lead later);
    * with 2 players, once the stock is empty every unseen card is in the opponent's hand: from 5 cards
      each it plays the rest exactly (a minimax over the remaining tricks, on the point difference)."""
    name = "rule-based"
    SEARCH_CARDS = 5          # exact endgame search once both hands hold at most this many cards
    JOKER_RISK = 0.3          # how likely an opponent holding a Joker spends it on a high lead

    def __init__(self, seed: int = 0):
        from ..rng import Rng
        self.rng = Rng(seed)
        self._memo: dict = {}
        self._memo_key: object = None

    # --- what the seat knows ----------------------------------------------------------------------
    def _knowledge(self, state: M7State, me: int) -> dict:
        """The unseen cards (neither played nor mine, Jokers apart: card -> copies, in the pack's order), who
        still holds a Joker, and how many unknown cards each other hand holds. What the leading values ask
        of them more than once (the opponent's possible throws, their expected extremes, the unseen point
        cards by value) is worked out on first use and kept in the same dict."""
        count = list(state.game.copies)          # copies of each card (by index) in the packs
        hands = state.hands
        n = state.n
        jokers = [0] * n                          # Jokers each seat has played
        for won in state.won:                     # every card played so far: the won tricks, the trick
            for led, fol, ld, op in won:
                count[led.index] -= 1
                count[fol.index] -= 1
                if led is JOKER:
                    jokers[ld] += 1
                if fol is JOKER:
                    jokers[op] += 1
        if state.trick:
            c = state.trick[0]
            count[c.index] -= 1
            if c is JOKER:
                jokers[state.leader] += 1
        for c in hands[me]:
            count[c.index] -= 1
        unseen = {c: count[c.index] for c in CARDS_NO_JOKER if count[c.index] > 0}
        joker = [jokers[q] == 0 and bool(hands[q]) for q in range(n)]
        slots = sum(unseen.values())
        free = {q: len(hands[q]) - (1 if joker[q] else 0) for q in range(n) if q != me}
        return {"unseen": unseen, "joker": joker, "slots": slots, "free": free,
                "by_value": {x.value: x for x in unseen if x.kind == "point"}, "extreme": {}}

    def _extreme(self, k: dict, m: int, lowest: bool) -> float:
        """The expected lowest (highest) of the opponent's m unknown cards as a throw (see `_lead_value`)."""
        key = (m, lowest)
        ext = k["extreme"]
        v = ext.get(key)
        if v is None:
            throws = k.get("throws")
            if throws is None:
                # what the opponent may throw: a point card's value, the Kreuz 0 (a Spiegel he would not throw)
                throws = k["throws"] = [x.value if x.kind == "point" else 0
                                        for x, cnt in k["unseen"].items() if x.kind != "spiegel" for _ in range(cnt)]
            v = ext[key] = self._expected_extreme(throws, m, lowest) if m else 0.0
        return v

    @staticmethod
    def _p_holds(k: int, m: int, total: int) -> float:
        """P(a hand of m of `total` unknown cards holds at least one of k copies)."""
        if k <= 0 or m <= 0 or total <= 0:
            return 0.0
        if m >= total:
            return 1.0
        p_none = 1.0
        for i in range(k):
            p_none *= max(0.0, (total - m - i) / (total - i))
        return 1.0 - p_none

    @staticmethod
    def _expected_extreme(values: list, m: int, lowest: bool) -> float:
        """Expected lowest (or highest) of m values drawn without replacement from `values`."""
        n = len(values)
        if m <= 0 or n == 0:
            return 0.0
        m = min(m, n)
        vs = sorted(values, reverse=not lowest)
        # P(the extreme is the i-th in order) = C(n-1-i, m-1) / C(n, m), i = 0 … n - m
        w = _EXTREME_WEIGHTS.get((n, m))
        if w is None:
            w = _EXTREME_WEIGHTS[n, m] = ([comb(n - 1 - i, m - 1) for i in range(n - m + 1)], comb(n, m))
        return sum(map(mul, vs, w[0])) / w[1]

    # --- leading ----------------------------------------------------------------------------------
    def _lead_value(self, state: M7State, me: int, c: Card, q: int, k: dict) -> float:
        m = k["free"].get(q, 0)
        low = self._extreme(k, m, True)         # his cheapest throw, expected
        kind = c.kind
        if kind == "point":
            v = c.value
            partner = k["by_value"].get(7 - v)
            pp = self._p_holds(k["unseen"][partner], m, k["slots"]) if partner is not None else 0.0
            win = v + low
            if k["joker"][q] and v >= 7:      # the Joker may take it (but it is spent then)
                win = (1 - self.JOKER_RISK) * win - self.JOKER_RISK * v
            return pp * -7.0 + (1 - pp) * win
        if kind == "spiegel":
            if state.game.options["spiegel_scoring"] == "copy":
                return 2 * low - 3
            return low - 3
        if kind == "kreuz":
            return -max(self._extreme(k, m, False), 0.0)   # a led Kreuz loses: he answers with his best card
        # the Joker: the opponent throws his lowest card; keeping it for a big trick is worth more early on
        return low - (9 if state.stock else 2)

    def _best_lead(self, state: M7State, me: int, q: int, k: dict, cards) -> tuple:
        best = None
        for c in cards:
            val = self._lead_value(state, me, c, q, k)
            key = (val, -c.index)
            if best is None or key > best[0]:
                best = (key, c)
        assert best is not None                 # (a hand to lead from is never empty)
        return best

    # --- the exact endgame (2 players, stock empty) -----------------------------------------------
    MEMO_LIMIT = 400_000       # endgame positions kept (values are exact, so the memo only saves time)

    def _endgame(self, state: M7State, me: int):
        opp = 1 - me
        k = self._knowledge(state, me)
        theirs = 0
        for c in k["unseen"]:                  # one pack: every unseen card once, and all in his hand
            theirs |= 1 << c.index
        if k["joker"][opp]:
            theirs |= 1 << JOKER.index
        mine = 0
        for c in state.hands[me]:              # each card once (his own Joker at most)
            mine |= 1 << c.index
        fw, pts = state.game.endgame_tables()
        # A hand is a bit set of card indices (a hand of two players' game holds every card once), so a
        # position is two ints; the memo maps them to their exact value, which depends on the game's options
        # only: it is kept across endgames (cleared when the game changes or it grows past MEMO_LIMIT).
        memo = self._memo
        if self._memo_key is not state.game or len(memo) > self.MEMO_LIMIT:
            memo.clear()
            self._memo_key = state.game
        get = memo.get
        bits = _bits

        def solve(x, y):
            """Best point difference (leader − other) from here: x is the hand of the player to lead, y the
            other's (negamax: the same search serves both sides); the trick's winner leads next. (The
            follower's answer is written inline, and a position already in the memo is read there: calls
            are what the search spends most on.)"""
            v = -1e9
            ys = bits(y)
            for i in bits(x):
                x2 = x ^ (1 << i)
                f, pl = fw[i], pts[i]
                a = 1e9                            # the follower's best answer to the lead of card i
                for j in ys:
                    p = pl[j]
                    y2 = y ^ (1 << j)
                    if f[j]:                       # the follower takes the trick and leads next
                        if y2:
                            w = get(y2 << 32 | x2)
                            w = -p - (solve(y2, x2) if w is None else w)
                        else:
                            w = -p
                    elif x2:
                        w = get(x2 << 32 | y2)
                        w = p + (solve(x2, y2) if w is None else w)
                    else:
                        w = p
                    if w < a:
                        a = w
                if a > v:
                    v = a
            memo[x << 32 | y] = v
            return v

        def value(x, y):
            """`solve`, read from the memo where it is there (0 once both hands are empty)."""
            if not x:
                return 0
            v = get(x << 32 | y)
            return solve(x, y) if v is None else v

        def answer(x, y, led):
            """The leader's best difference once he has led card `led` (x: his cards left, y: the
            follower's), the follower answering to make it least."""
            best = 1e9
            f, pl = fw[led], pts[led]
            for j in bits(y):
                p = pl[j]
                v = (-p - value(y ^ (1 << j), x)) if f[j] else (p + value(x, y ^ (1 << j)))
                if v < best:
                    best = v
            return best

        legal = state.legal_actions()
        best, best_v = None, None
        for act in legal:
            i = act.card.index
            na = mine ^ (1 << i)
            if state.trick:
                led = state.trick[0].index
                p = pts[led][i]
                v = (p + value(na, theirs)) if fw[led][i] else (-p - value(theirs, na))   # the winner leads next
            else:
                v = answer(na, theirs, i)
            if best_v is None or v > best_v + 1e-9:
                best, best_v = act, v
        return best

    # --- the decision -----------------------------------------------------------------------------
    def choose(self, state: M7State):
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        me = state.current_player
        if state.n == 2 and not state.stock and len(state.hands[me]) <= self.SEARCH_CARDS:
            return self._endgame(state, me)
        k = self._knowledge(state, me)
        hand = state.hands[me]
        cards = list(dict.fromkeys(hand))
        if state.choosing:
            best = None
            for a in legal:
                val = self._best_lead(state, me, a.data, k, cards)[0][0]
                key = (val, -len(state.hands[a.data]), self.rng.below(1 << 20))
                if best is None or key > best[0]:
                    best = (key, a)
            assert best is not None
            return best[1]
        if not state.trick:
            c = self._best_lead(state, me, state.opponent, k, cards)[1]
            return PLAY[c]
        return self._answer(state, me, k, legal)

    def _answer(self, state: M7State, me: int, k: dict, legal):
        led = state.trick[0].index
        fw, pts = state.game.endgame_tables()
        fw, pts = fw[led], pts[led]
        by_value, stock = k["by_value"], bool(state.stock)
        best, best_key = None, None
        for a in legal:
            c = a.card
            value = pts[c.index]
            gain = value if fw[c.index] else -value
            gain -= self._keep(c, by_value, stock)
            key = (gain, -c.index)
            if best_key is None or key > best_key:
                best, best_key = a, key
        return best

    @staticmethod
    def _keep(c: Card, by_value: dict, stock: bool) -> float:
        """What holding on to `c` is worth for the rest of the hand (what playing it now gives up);
        `by_value`: the unseen point cards by value, `stock`: whether the stock still holds cards."""
        kind = c.kind
        if kind == "joker":
            return 9.0 if stock else 5.0
        if kind == "spiegel":
            return 3.0
        if kind == "kreuz":
            return 0.0
        v = c.value
        if v > 0 and 7 - v not in by_value:
            return 0.5 * v            # a sure winner to lead later (short of a Joker): its partner is gone
        return 0.0


class CarefulBot:
    """A simple careful player, the baseline a rule-based bot must beat. It never hands the other side
    points on a trick it cannot take, and keeps its Joker and Spiegel for valuable tricks:

    * answering: of the cards that take the trick it plays the one that brings it the most points, if the
      trick is worth more than 0 (a Joker only for a trick worth 7 or more); otherwise it plays the card that
      gives the other side the fewest points (the lowest point card, or the Kreuz), a Joker or Spiegel only
      when nothing else is left;
    * leading: its highest point card (a beaten trick gives the other side 7, whatever was led), and the
      special cards only when it has no point card left;
    * choosing the opponent (4 players): at random.

    Ties are broken by the card, then at random (seeded). It counts no cards and keeps no memory."""
    name = "careful"

    def __init__(self, seed: int = 0):
        from ..rng import Rng
        self.rng = Rng(seed)

    def choose(self, state: M7State):
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        if state.choosing:
            return legal[self.rng.below(len(legal))]
        if not state.trick:
            points = [a for a in legal if a.card.kind == "point"]
            if points:
                return max(points, key=lambda a: a.card.value)
            order = {"joker": 0, "spiegel": 1, "kreuz": 2}
            return min(legal, key=lambda a: order[a.card.kind])
        o = state.game.options
        led = state.trick[0]
        best, best_key = None, None
        for a in legal:
            c = a.card
            wins = trick_outcome(led, c, o)[0]
            lv, fv = card_points(led, c, o)
            value = lv + fv
            key: tuple
            if wins and value > 0 and (c.kind != "joker" or value >= 7):
                key = (2, value, c.kind == "point")
            elif not wins and c.kind in ("point", "kreuz"):
                key = (1, -value, 0)
            else:
                key = (0, value if wins else -value, 0)
            key = key + (self.rng.below(1 << 20),)
            if best_key is None or key > best_key:
                best, best_key = a, key
        return best


BOTS = {"random": RandomBot, "careful": CarefulBot, "rule-based": RuleBot}
