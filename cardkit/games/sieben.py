"""Sieben (Sedma, Sedmice) for 2, 3 and 4 players, with every variation of the source.

Source: ``003_…`` (Dirk Aschoff, "Kartenspiele für zwei: Sieben", 2020). Where it is silent the kit uses
the traditional Czech game (Sedma) and says so. Rule IDs refer to ``cardkit/rules/sieben.toml``.

A trick grows: the leader plays a card, every other player answers in turn; once all have answered, the
leader may continue the trick with a card equal to the first card (or a 7) or end it (action ``stop``).
The last player to play a card equal to the first card takes the trick. A game is a series of rounds
(deals) until a side has 12 game points; between rounds the state is at CHANCE and the protocol deals.
"""
from __future__ import annotations

from typing import Self

from ..cards import PIQUET32, Card
from ..errors import CardError, IllegalActionError
from ..game import CHANCE, TERMINAL, Action, Deal, Game, Narration, State
from ..options import Option
from ..rng import Rng
from ..rules import Table
from ..view import Pile, Seat, View, plural

HAND = 4                                   # S7-0.2 / S7-3.1: four cards in hand
COUNTS = {"10": 10, "A": 10}               # S7-4.1: Tens and Aces count 10, every other card nothing
LAST_TRICK = 10                            # S7-4.2
ROUND_TOTAL = 90                           # S7-4.3
WIN_COUNTERS = 50
PLAY = {c: Action(c.text, c.label, c) for c in PIQUET32.cards}   # one action object per card
STOP = Action("stop", "end the trick", data="stop")
COUNTER = [COUNTS.get(c.rank, 0) for c in PIQUET32.cards]        # by card index
NAMES = {2: ["Bert", "Anna"], 3: ["Bert", "Anna", "Carla"], 4: ["North", "East", "South", "West"]}
TEAMS = ["North–South", "East–West"]
RANK_NAME = {"7": "7", "8": "8", "9": "9", "10": "10", "J": "Jack", "Q": "Queen", "K": "King", "A": "Ace"}
RANK_PLURAL = {"7": "7s", "8": "8s", "9": "9s", "10": "10s", "J": "Jacks", "Q": "Queens", "K": "Kings",
               "A": "Aces"}
REMOVED_3P = {"8+9": ("8C", "9C"), "8+8": ("8C", "8S")}

OPTIONS = (
    Option("players", 2, choices=(2, 3, 4), rule="S7-8",
           help="2 players; 3 each for himself (an 8 and a 9 removed); 4 in two teams of partners opposite"),
    Option("match", "game", choices=("game", "round"), rule="S7-5.2",
           help="play a whole game (rounds until the target) or a single round",
           labels={"game": "a game (to the target)", "round": "a single round"}),
    Option("target", 12, choices=(3, 5, 7, 12, 15, 21), rule="S7-5.1",
           help="game points that win the game (the source: 12)"),
    Option("round_points", "traditional", choices=("traditional", "one"), rule="S7-5",
           help="game points for a won round: the traditional 1/2/3, or always 1",
           labels={"traditional": "1, 2 or 3 (traditional Sedma)", "one": "always 1"}),
    Option("draw_order", "winner", choices=("winner", "leader"), rule="S7-3.2",
           help="who draws first after a trick", labels={"winner": "the trick's winner first",
                                                         "leader": "the trick's leader first"}),
    Option("continue_only_if_beaten", False, choices=(False, True), rule="S7-7.1",
           help="variation: the leader may continue a trick only while the other side holds it"),
    Option("score_difference", False, choices=(False, True), rule="S7-7.2",
           help="variation: the round's winner scores the difference of counters, to a higher target"),
    Option("difference_target", 500, choices=(100, 200, 300, 500, 1000), rule="S7-7.2.1",
           help="variation: the points that win the game when the difference of counters is scored"),
    Option("four_of_a_kind", False, choices=(False, True), rule="S7-7.3",
           help="variation: four equal cards in hand win the round at once, for 4 points"),
    Option("eights_wild", False, choices=(False, True), rule="S7-7.4",
           help="variation: 8s beat like 7s (a 7 cannot beat a led 8; an 8 beats a led 7)"),
    Option("who_continues", "leader", choices=("leader", "side"), rule="S7-8.5",
           help="4 players: only the leader may continue a trick, or his partner too",
           labels={"leader": "only the leader", "side": "the leader, then his partner"}),
    Option("three_player_round", "most", choices=("most", "fifty"), rule="S7-8.3",
           help="3 players: who wins a round when nobody has 50 counters",
           labels={"most": "the most counters win", "fifty": "only 50 counters win"}),
    Option("three_player_removed", "8+9", choices=("8+9", "8+8"), rule="S7-8.1",
           help="3 players: the two cards taken out of the pack", labels={"8+9": "an 8 and a 9 (8♣ 9♣)",
                                                                          "8+8": "two 8s (8♣ 8♠)"}),
)


_EQ: dict = {}


def _eq_table(eights_wild: bool) -> list:
    """EQ[led.index][card.index] (see `equal_to`), computed once per reading: a page builds many games."""
    if eights_wild not in _EQ:
        _EQ[eights_wild] = [[equal_to(a, b, eights_wild)[0] for b in PIQUET32.cards] for a in PIQUET32.cards]
    return _EQ[eights_wild]


def equal_to(led: Card, card: Card, eights_wild: bool = False) -> tuple[bool, str]:
    """Does `card` count as equal to the first card `led` of a trick (i.e. beat it)? (yes/no, rule ID)."""
    lr, r = led.rank, card.rank
    if eights_wild:
        if lr == "8":
            if r == "8":
                return True, "S7-1.2"
            if r == "7":
                return False, "S7-7.4"        # a 7 cannot beat a led 8
            return False, "S7-1"
        if lr == "7":
            if r == "7":
                return True, "S7-1.4"
            if r == "8":
                return True, "S7-7.4"         # an 8 beats a led 7
            return False, "S7-1.4"
        if r == "8":
            return True, "S7-7.4"
    if lr == "7":
        return (r == "7"), "S7-1.4"
    if r == lr:
        return True, "S7-1.2"
    if r == "7":
        return True, "S7-1.3"
    return False, "S7-1"


class Sieben(Game):
    name = "sieben"
    title = "Sieben (Sedma)"
    deck = PIQUET32
    option_specs = OPTIONS
    summary = ("No suits, no ranking: only an equal card or a 7 beats, the leader may keep a trick going, "
               "and Aces and Tens count. For 2, 3 (each alone) or 4 (two teams).")

    def __init__(self, **options):
        super().__init__(**options)
        o = self.options
        n = self.num_players
        removed = set(PIQUET32.parse_many(REMOVED_3P[o["three_player_removed"]])) if n == 3 else set()
        self._deck = tuple(c for c in PIQUET32.cards if c not in removed)
        self._deckset = frozenset(self._deck)
        self.removed = tuple(c for c in PIQUET32.cards if c in removed)
        w = o["eights_wild"]
        # EQ[led.index][card.index]: does card count as equal to the trick's first card (S7-1, S7-7.4)
        self._eq = _eq_table(w)
        self.target_points = o["difference_target"] if o["score_difference"] else o["target"]
        # what the play looks at, read once (kept here, not in each state: a state's attributes stay few)
        self._only_beaten = o["continue_only_if_beaten"]
        self._side_continues = o["who_continues"] == "side" and n == 4
        self._winner_draws = o["draw_order"] == "winner"
        self._four = o["four_of_a_kind"]
        self._orders = [tuple((p + k) % n for k in range(n)) for p in range(n)]   # seat order from each seat

    def sides(self) -> list[list[int]]:
        """With 4 players the partners opposite win or lose together."""
        return [[0, 2], [1, 3]] if self.num_players == 4 else super().sides()

    def player_names(self) -> list[str]:
        return list(NAMES[self.num_players])

    @property
    def equal_table(self) -> list:
        """EQ[led.index][card.index]: whether `card` counts as equal to the first card `led` of a trick (beats it)
        under this game's reading (`equal_to`)."""
        return self._eq

    def full_deck(self) -> list[Card]:
        """The pack a deal shuffles: 32 cards, or 30 with 3 players (S7-8.1)."""
        return list(self._deck)

    def random_deal(self, rng: Rng) -> Deal:
        return Deal(rng.shuffle(list(self._deck)))

    def side_of(self, p: int) -> int:
        return p % 2 if self.num_players == 4 else p

    def side_names(self) -> list[str]:
        return list(TEAMS) if self.num_players == 4 else self.player_names()

    def stack(self, hands: list, stock="") -> str:
        """The deal text that gives these hands (4 cards each, in seat order) and this stock (top first).
        The cards are dealt four at a time in seat order (S7-0.2); unlisted cards go to the bottom."""
        n = self.num_players
        if not isinstance(hands, (list, tuple)):
            raise IllegalActionError("S7-0.2", f"give the hands as a list of {n} hands, not {type(hands).__name__}")
        hs = [PIQUET32.parse_many(h) for h in hands]
        if len(hs) != n or any(len(h) != HAND for h in hs):
            raise IllegalActionError("S7-0.2", f"give {n} hands of {HAND} cards")
        order = [c for h in hs for c in h] + PIQUET32.parse_many(stock)
        rest = list(self._deck)
        for c in order:
            if c not in rest:
                if c in self.removed:
                    raise IllegalActionError("S7-8.1", f"{c.label} is taken out of the pack with 3 players")
                raise IllegalActionError("S7-0.1", f"{c.label} is listed twice (the pack holds each card once)")
            rest.remove(c)
        return "deal: " + PIQUET32.format(order + rest)

    def rule_tables(self) -> dict:
        return {"beats": beats_table(self.options), "points": points_table(self.options)}



class SiebenNarration(Narration):
    """How a game of Sieben is told (`cardkit.game.Narration`)."""
    __slots__ = ()

    def round_result(self) -> str:
        if not self.rounds:
            return ""
        sn = self.game.side_names()
        text = self.round_text(self.rounds[-1])
        pts = ", ".join(f"{sn[s]} {v}" for s, v in enumerate(self.points))
        if self.game.options["match"] == "round":          # S7-5.2: a single round is the whole match
            return f"{text[0].upper()}{text[1:]} [S7-5]. Game points: {pts} — the match is one round [S7-5.2]."
        return (f"{text[0].upper()}{text[1:]} [S7-5]. Game points so far: {pts} — the first to "
                f"{self.game.target_points} wins.")

    def describe(self, action, after: SiebenState | None = None) -> str:
        names = self.game.player_names()
        if action.__class__ is Deal:
            n = self.n
            lead = names[(self.dealer + 1) % n]
            line = (f"Round {self.round_no + 1}: {names[self.dealer]} deals {HAND} cards to each player; "
                    f"{len(action.cards) - HAND * n} cards form the stock. {lead} leads.")
            after = after if after is not None else self._peek_deal(action)
            if after is not None and len(after.rounds) > len(self.rounds):
                line += " " + self._four_text(after)
            return line
        p = self.current_player
        who = names[p]
        ahead = after is None      # a move not yet made (the Hint): say nothing that hangs on unseen cards
        if after is None or after.round_no != self.round_no:
            # (a state made from a seed deals the next round by itself: the position the move made, before
            # that deal, is made here, so that the round's last trick and result are still there to tell)
            after = self._copy()
            after._apply(action)
        if action.card is None:
            line = f"{who} ends the trick [S7-2.5]."
        else:
            card = action.card
            if not self.trick:
                line = f"{who} leads {card.label}."
            elif self.deciding:
                line = f"{who} continues the trick with {card.label} [S7-2.2]."
            else:
                eq, rule = equal_to(self.first, card, self.game.options["eights_wild"])
                if eq:
                    how = "equal" if card.rank == self.first.rank else f"a {card.rank} counts as {self.first.rank}"
                    line = f"{who} answers {card.label}: {how}, it beats [{rule}]."
                else:
                    line = f"{who} answers {card.label}: it does not beat [{rule}]."
        # what follows from it
        last = after.last_trick
        done = last is not None and last is not self.last_trick
        if ahead and action.card is not None and self.trick and not self.deciding and (done or after.deciding):
            # whether the trick goes on hangs on the leader's hand, which only the leader has seen
            holder = last[1] if last is not None and done else after.holder
            cards = [c for _, c in self.trick] + [action.card]
            value = sum(COUNTER[c.index] for c in cards)
            return line + (f" If the trick is not continued, {names[holder]} takes it: {len(cards)} cards, "
                           f"{value} counters [S7-2.4].")
        if last is not None and done:
            tk, w, v = last
            why = "" if action.card is None else self._no_continue(action.card)
            line += f" {names[w]} takes the trick{why}: {len(tk)} cards, {v} counters [S7-2.4]."
            drawn = len(self.stock) - len(after.stock)
            if drawn:
                first = w if self.game._winner_draws else self.leader
                k = drawn // self.n
                line += f" {names[first]} draws first, {k} card{'s' if k > 1 else ''} each [S7-3.1]."
        elif after.deciding and (not self.deciding or after.current_player != p):
            line += f" {names[after.current_player]} may continue the trick or end it."
        if len(after.rounds) > len(self.rounds):
            r = after.rounds[-1]
            if r["why"] == "four":
                if not ahead:          # four equal cards drawn from the unseen stock: not foretold
                    line += " " + self._four_text(after)
            else:
                text = after.round_text(r)
                assert last is not None                # (the round ends with its last trick)
                line += f" {names[last[1]]} adds 10 for the last trick [S7-4.2]. " \
                        f"{text[0].upper()}{text[1:]} [S7-5]."
            if after.current_player == TERMINAL and self.game.options["match"] == "game":
                line += " " + after.result_text()
        return line


class SiebenState(SiebenNarration, State):
    game: Sieben
    current_player = CHANCE                     # a plain attribute the game sets, not the base class's property

    # set up --------------------------------------------------------------------------------------
    def _start(self) -> None:
        # (a state's attributes are kept below 30: past that, Python 3.11 gives the instance a plain dict and
        # every attribute and method lookup on it gets slower; the options the play reads live on the Game)
        n = self.n = self.game.num_players
        self.hands: list[list[Card]] = [[] for _ in range(n)]
        self._acts: list[list[Action]] = [[] for _ in range(n)]   # per player: PLAY[c] of his hand, same order
        self.stock: list[Card] = []             # the top of the stock is the END of the list
        self.trick: list[tuple[int, Card]] = []  # (player, card) in the order played
        self.won: list[list[tuple]] = [[] for _ in range(n)]   # per player: the tricks he took
        self.counters = [0] * n                 # counters in each player's won cards (this round)
        self.first: Card | None = None          # the trick's first card
        self.eqrow: list = []                   # _eq row of the first card
        self.leader = 0                         # who led the trick (and leads the round: S7-3.5)
        self.holder = 0                         # who played the last equal card so far (S7-2.4)
        self.pending = 0                        # answers still due in this round of the trick
        self.deciding = False                   # the current player may continue or stop (S7-2.2)
        self._stage = 0                         # 0: the leader decides, 1: his partner (S7-8.5)
        self.last_trick: tuple | None = None    # (trick, winner, counters) of the last trick
        self.round_no = 0
        self.dealer = n - 1                     # S7-3.5: seat 0 leads the first round, the last seat deals
        self.points = [0] * (2 if n == 4 else n)   # game points per side
        self.rounds: list[dict] = []            # each finished round: counters, winner, points, why
        self.drawn_by: list[int] = []           # this round: who drew each stock card, in order (resample)
        self.current_player = CHANCE

    @property
    def sides(self) -> int:
        """How many sides play: two teams with 4 players, else each player alone."""
        return 2 if self.n == 4 else self.n

    def side(self, p: int) -> int:
        return p % 2 if self.n == 4 else p

    # dealing -------------------------------------------------------------------------------------
    def _check_deal(self, deal: Deal) -> None:
        cards = deal.cards
        g = self.game
        if len(cards) != len(g._deck) or set(cards) != g._deckset:
            raise IllegalActionError("deal", f"a deal must hold exactly the game's {len(g._deck)} cards, each "
                                     "once" + (" (with 3 players without " + " ".join(c.text for c in g.removed)
                                               + ")" if g.removed else ""), deal.text[:60])

    def _deal(self, deal: Deal) -> None:
        cards = deal.cards
        n = self.n
        self.round_no += 1
        self.hands = hands = [list(cards[HAND * p:HAND * (p + 1)]) for p in range(n)]
        self._acts = [[*map(PLAY.__getitem__, h)] for h in hands]
        self.stock = list(cards[:HAND * n - 1:-1])   # the rest, its first card on top (the list's end)
        self.trick = []
        self.won = [[] for _ in range(n)]
        self.counters = [0] * n
        self.last_trick = None
        self.deciding = False
        self.drawn_by = []
        self.leader = (self.dealer + 1) % n          # the player on the dealer's left leads (S7-3.5)
        self.current_player = self.leader
        if self.game._four:
            self._check_four([(self.leader + k) % n for k in range(n)])

    # the trick -----------------------------------------------------------------------------------
    def _legal(self) -> list:
        if self.deciding:
            eq = self.eqrow
            out = [PLAY[c] for c in self.hands[self.current_player] if eq[c.index]]
            out.append(STOP)
            return out
        return self._acts[self.current_player][:]

    def _apply(self, action) -> list | None:
        # returns the next player's legal actions where they are at hand (the protocol then skips _legal)
        card = action.card
        if card is None:                          # "stop": the decider ends the trick (S7-2.5)
            return self._next_decider()
        p = self.current_player
        # the hand and its actions are kept in step; the card is found among the actions, which compare
        # by identity at C speed (cards define an order, so comparing two cards runs Python code)
        acts = self._acts[p]
        i = acts.index(PLAY[card])
        del acts[i]
        del self.hands[p][i]
        trick = self.trick
        trick.append((p, card))
        if self.deciding or len(trick) == 1:
            if self.deciding:                     # S7-2.2: the trick is continued with an equal card
                self.deciding = False
            else:                                 # a new trick is led (S7-1.1)
                self.first = card
                self.eqrow = self.game._eq[card.index]
            self.holder = p
            self.pending = self.n - 1
        else:
            eq = self.eqrow
            if eq[card.index]:                    # an equal card beats (S7-1.2 … S7-1.4, S7-7.4)
                self.holder = p
            self.pending -= 1
            if not self.pending:
                # everyone has answered: the leader may continue (S7-2.2) — or, under S7-8.5, his partner
                ld = self.leader
                self._stage = 1
                g = self.game
                if not g._only_beaten or self.side(self.holder) != self.side(ld):
                    for x in self.hands[ld]:
                        if eq[x.index]:
                            self.deciding = True
                            self.current_player = ld
                            return None
                return self._next_decider() if g._side_continues else self._end_trick()
        q = self.current_player = (p + 1) % self.n   # the next player answers
        return self._acts[q][:]

    def _may_continue(self, c: int) -> bool:
        hand = self.hands[c]
        if not hand:
            return False
        if self.game._only_beaten and self.side(self.holder) == self.side(c):
            return False                          # S7-7.1: only after being beaten
        eq = self.eqrow
        for x in hand:
            if eq[x.index]:
                return True
        return False                              # S7-2.3: no card to continue with

    def _next_decider(self) -> list | None:
        while self._stage < (2 if self.game._side_continues else 1):
            c = self.leader if self._stage == 0 else (self.leader + 2) % 4
            self._stage += 1
            if self._may_continue(c):
                self.deciding = True
                self.current_player = c
                return None
        self.deciding = False
        return self._end_trick()

    def _end_trick(self) -> list | None:
        """The trick is taken, the hands are filled up from the stock; the winner's legal actions if he leads
        next, None if the round is over."""
        winner = self.holder
        trick = tuple(self.trick)
        value = 0
        for _, c in trick:
            value += COUNTER[c.index]
        self.counters[winner] += value
        self.won[winner].append(trick)
        self.last_trick = (trick, winner, value)
        self.trick = []
        hands = self.hands
        stock = self.stock
        if stock:                                 # S7-3.1 / S7-3.2: draw in turn back to 4 cards
            g = self.game
            first = winner if g._winner_draws else self.leader
            need = HAND - len(hands[first])
            drawn = self.drawn_by
            order = g._orders[first]
            acts = self._acts
            for _ in range(need):
                for q in order:
                    if stock:
                        c = stock.pop()
                        hands[q].append(c)
                        acts[q].append(PLAY[c])
                        drawn.append(q)
            if g._four and self._check_four(order):
                return None
        if not hands[winner]:                     # S7-3.4: all cards are played
            self._end_round(None)
            return None
        self.leader = winner                      # S7-3.3: the winner leads the next trick
        self.current_player = winner
        return self._acts[winner][:]

    def _check_four(self, order) -> bool:
        """S7-7.3: a player holding four equal cards wins the round at once (the first in `order`)."""
        for q in order:
            h = self.hands[q]
            if len(h) == 4 and h[0].rank == h[1].rank == h[2].rank == h[3].rank:
                self._end_round(q)
                return True
        return False

    # the round and the game ----------------------------------------------------------------------
    def round_counters(self, bonus: bool = True) -> list[int]:
        """Counters per side this round (S7-4): won cards, plus 10 for the last trick once the round is
        over (or, with ``bonus``, for the last trick already played when no cards are left)."""
        out = [0] * self.sides
        for p in range(self.n):
            out[self.side(p)] += self.counters[p]
        if bonus and self.last_trick is not None and not any(self.hands) and not self.stock:
            out[self.side(self.last_trick[1])] += LAST_TRICK
        return out

    def _end_round(self, four: int | None) -> None:
        g = self.game
        o = g.options
        n, sides = self.n, self.sides
        self.trick = []
        self.deciding = False
        if four is not None:                      # S7-7.3
            counters = self.round_counters(bonus=False)
            win = self.side(four)
            diff = ROUND_TOTAL
            pts = ROUND_TOTAL if o["score_difference"] else 4
            why = "four"
        else:
            counters = self.round_counters()
            best = max(counters)
            top = [s for s in range(sides) if counters[s] == best]
            win, why = None, "counters"
            if len(top) == 1 and (best >= WIN_COUNTERS or o["three_player_round"] == "most"):
                win = top[0]
            elif len(top) > 1 and o["three_player_round"] == "most":
                # S7-8.3: a tie for the most counters goes to the tied player who took the last trick
                last = self.last_trick
                assert last is not None                # (the round's last trick was just taken)
                lw = self.side(last[1])
                if lw in top:
                    win, why = lw, "last trick"
            diff = pts = 0
            if win is not None:
                others = [counters[s] for s in range(sides) if s != win]
                diff = counters[win] - max(others)
                if o["score_difference"]:
                    pts = diff                                    # S7-7.2
                elif o["round_points"] == "one":
                    pts = 1                                       # S7-5, reading "one"
                else:                                             # S7-5: traditional 1 / 2 / 3
                    losers = [p for p in range(n) if self.side(p) != win]
                    if not any(self.won[p] for p in losers):
                        pts = 3
                    elif not any(COUNTER[c.index] for p in losers for t in self.won[p] for _, c in t):
                        pts = 2
                    else:
                        pts = 1
        if win is not None:
            self.points[win] += pts
        self.rounds.append({"round": self.round_no, "counters": counters, "winner": win, "points": pts,
                            "difference": diff, "why": why, "four": four})
        # S7-3.5 / S7-8.6: the loser deals the next round, the winner leads it
        if win is None:
            self.dealer = (self.dealer + 1) % n                    # S7-8.3: a drawn round: the deal passes left
        elif n == 4:
            d = self.dealer
            self.dealer = next((d + k) % 4 for k in range(1, 5) if (d + k) % 2 != win)
        else:
            self.dealer = (win - 1) % n                            # the player to the winner's right
        target = g.target_points
        best = max(self.points)
        if o["match"] == "round" or (best >= target and self.points.count(best) == 1):
            self.current_player = TERMINAL                         # S7-5.1 (a tie plays on)
        else:
            self.current_player = CHANCE

    def _illegal(self, text: str) -> IllegalActionError:
        names = self.game.player_names()
        p = self.current_player
        who = names[p]
        t = text.strip().lower()
        if t in ("stop", "end the trick", "end"):
            if self.trick:
                return IllegalActionError("S7-2.1", f"{who} must answer {self.first_card().label}: every card of the "
                                          "trick is answered; only the leader, once all have answered, may end "
                                          "the trick", text)
            return IllegalActionError("S7-2.5", f"there is no trick to end: {who} leads a new trick with any card",
                                      text)
        try:
            card = PIQUET32.parse(text)
        except CardError:
            return IllegalActionError("S7-0.1", f"{text!r} is not a card of the 32-card pack (7 … A); write rank "
                                      "then suit, e.g. 10H, JS, 7C, AD", text)
        if card not in self.game._deckset:
            return IllegalActionError("S7-8.1", f"{card.label} is out of the game: with 3 players "
                                      + " and ".join(c.label for c in self.game.removed) + " are removed", text)
        if card not in self.hands[p]:
            return IllegalActionError("S7-1.1", f"{who} does not hold {card.label}; a player plays a card from "
                                      "his own hand", text)
        if self.deciding:
            first = self.first_card()
            eq, rule = equal_to(first, card, self.game.options["eights_wild"])
            wild = "a 7 or an 8" if self.game.options["eights_wild"] and first.rank not in ("7", "8") else \
                "a 7"
            if first.rank == "7":
                want = "another 7" + (" or an 8" if self.game.options["eights_wild"] else "")
            elif first.rank == "8" and self.game.options["eights_wild"]:
                want = "another 8 (a 7 cannot beat a led 8)"
            else:
                art = "an" if first.rank in ("8", "A") else "a"
                want = f"{art} {RANK_NAME[first.rank]} or {wild}"
            return IllegalActionError("S7-7.4" if rule == "S7-7.4" else "S7-2.3",
                                      f"{who} may continue the trick only with a card equal to its first card "
                                      f"{self.first_card().label}: {want}. {card.label} is not; play such a card or end "
                                      "the trick", text)
        return super()._illegal(text)

    # results -------------------------------------------------------------------------------------
    def _scores(self) -> list:
        return [self.points[self.side(p)] for p in range(self.n)]

    def _snapshot(self) -> tuple:
        t = lambda cs: tuple(c.text for c in cs)  # noqa: E731
        tr = lambda tk: tuple((p, c.text) for p, c in tk)  # noqa: E731
        return (tuple(t(h) for h in self.hands), t(self.stock), tr(self.trick),
                tuple(tuple(tr(x) for x in w) for w in self.won), tuple(self.counters),
                self.first.text if self.first else None, self.leader, self.holder, self.pending, self.deciding,
                self._stage, self.current_player, self.round_no, self.dealer, tuple(self.points),
                None if self.last_trick is None else (tr(self.last_trick[0]), *self.last_trick[1:]),
                tuple(tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in r.items()))
                      for r in self.rounds))

    # the hooks of a search that looks ahead (the bots' exact endgame): light copies, no history, no checks ------
    @property
    def stage(self) -> int:
        """Who decides whether the trick goes on: 0 the leader, 1 his partner (S7-8.5)."""
        return self._stage

    def search_moves(self) -> list:
        """The legal moves here, worked out afresh (a position from `lookahead` keeps no cache)."""
        return self._legal()

    def lookahead(self, action) -> "SiebenState":
        """The position after `action` (legal here) as a light copy that shares the game and the history: no
        check, no history entry — for a search, never for play."""
        t = self._copy()
        t._apply(action)
        return t

    def with_hand(self, seat: int, cards) -> "SiebenState":
        """A light copy (as `lookahead`) in which `seat` holds `cards`: a search over a hand the searcher
        assumes."""
        t = self._copy()
        t.hands[seat] = list(cards)
        t._acts[seat] = [PLAY[c] for c in cards]
        return t

    def _fork(self) -> "SiebenState":
        """An independent copy of the position (clone, undo, resample, the expert's playouts): `_copy` with its
        own history, dealer's RNG and RNG log."""
        return self._own(self._copy())

    def first_card(self) -> Card:
        """The trick's first card (read only while a trick is under way)."""
        first = self.first
        assert first is not None
        return first

    def _copy(self) -> Self:
        """A light copy for looking ahead (describe): shares the game and the history."""
        c = object.__new__(type(self))
        c.__dict__.update(self.__dict__)
        c.hands = [list(h) for h in self.hands]
        c._acts = [list(a) for a in self._acts]
        c.stock = list(self.stock)
        c.trick = list(self.trick)
        c.won = [list(w) for w in self.won]
        c.counters = list(self.counters)
        c.points = list(self.points)
        c.rounds = list(self.rounds)
        c.drawn_by = list(self.drawn_by)
        return c

    # what resample needs: who got each card of this round's deal, and which cards were shown ----------
    def _deal_owners(self) -> list:
        n, dealt = self.n, HAND * self.n
        drawn = self.drawn_by
        return [i // HAND if i < dealt else (drawn[i - dealt] if i - dealt < len(drawn) else None)
                for i in range(len(self.game._deck))]

    def _revealed(self) -> list:
        return [pc for won in self.won for t in won for pc in t] + list(self.trick)

    # presentation --------------------------------------------------------------------------------
    def _view(self, player: int | None = None) -> View:
        g = self.game
        names = g.player_names()
        n = self.n
        teacher = player is None
        seats = []
        # once the round is played out, the last trick's 10 counts on its taker's seat, as in the round's
        # counters (S7-4.2, `round_counters`): the seats add up to the round's 90
        bonus = self.last_trick[1] if self.last_trick is not None and not any(self.hands) and not self.stock \
            else None
        for p in range(n):
            visible = teacher or player == p
            hand = list(self.hands[p]) if visible else [None] * len(self.hands[p])
            cards = sum(len(t) for t in self.won[p])
            won = f"{plural(self.counters[p], 'counter')} in {plural(cards, 'card')} won"
            if p == bonus:
                won = (f"{plural(self.counters[p] + LAST_TRICK, 'counter')}: {self.counters[p]} in "
                       f"{plural(cards, 'card')} won and {LAST_TRICK} for the last trick")
            seats.append(Seat(p, names[p], hand, team=TEAMS[p % 2] if n == 4 else "",
                              score=plural(self.points[self.side(p)], "point"), info=won,
                              current=p == self.current_player))
        piles = []
        if self.trick or self.current_player >= 0:
            note = ""
            if self.trick:
                note = f"first card {self.first_card().label} · held by {names[self.holder]}"
            piles.append(Pile("Trick", [(names[q], c) for q, c in self.trick], note=note, kind="trick"))
        if self.last_trick:
            tk, w, v = self.last_trick
            piles.append(Pile("Last trick", [(names[q], c) for q, c in tk], kind="last-trick",
                              note=f"won by {names[w]}, {v} counters: the last card equal to the first takes "
                                   "it [S7-2.4]", taker=w))
        piles.append(Pile("Stock", [], count=len(self.stock), kind="stock"))
        for p in range(n):
            won_cards = [(names[q], c) for t in self.won[p] for q, c in t]
            if teacher:
                piles.append(Pile(f"Won by {names[p]}", won_cards, kind="won"))
            else:                                 # won cards lie face down (S7-4.4)
                piles.append(Pile(f"Won by {names[p]}", [], count=len(won_cards), kind="won"))
        cp = self.current_player
        legal = list(self.legal_actions()) if cp >= 0 and player in (None, cp) else []
        term = cp == TERMINAL
        return View(g.name, g.title, player, seats, piles, self.status(), cp if cp >= 0 else None,
                    term, self.result_text() if term else "", legal)

    def progress(self) -> tuple[str, str]:
        if self.current_player == CHANCE:
            return f"Round {self.round_no + 1}", ""
        if self.current_player == TERMINAL:
            return f"Round {self.round_no}", "End of the game"
        return f"Round {self.round_no}", f"Trick {sum(len(w) for w in self.won) + 1}"

    def score_table(self):
        sn = self.game.side_names()
        rows = []
        for r in self.rounds:
            who = "nobody" if r["winner"] is None else sn[r["winner"]]
            rows.append([f"Round {r['round']}", *map(str, r["counters"]), who, str(r["points"])])
        rows.append(["Game points", *map(str, self.points), "", ""])
        return Table(["", *(f"{x}: counters" for x in sn), "round won by", "game points"], rows,
                     "Counters and game points per round (S7-4, S7-5)")

    def round_text(self, r: dict) -> str:
        sn = self.game.side_names()
        body = ", ".join(f"{sn[s]} {c}" for s, c in enumerate(r["counters"]))
        if r["winner"] is None:
            return f"round {r['round']}: {body} counters — nobody wins the round"
        w = sn[r["winner"]]
        unit = "point" if r["points"] == 1 else "points"
        if r["why"] == "four":
            return f"round {r['round']}: {w} held four equal cards and won at once, +{r['points']} {unit}"
        tie = " (the tie goes to the last trick)" if r["why"] == "last trick" else ""
        return f"round {r['round']}: {body} counters — {w} wins the round{tie}, +{r['points']} {unit}"

    def status(self) -> str:
        names = self.game.player_names()
        if self.current_player == CHANCE:
            return f"Round {self.round_no + 1}: {names[self.dealer]} is about to deal."
        if self.current_player == TERMINAL:
            return self.result_text()
        p = names[self.current_player]
        prefix = ""
        if not self.trick and self.last_trick is None and self.rounds:
            prefix = f"Last {self.round_text(self.rounds[-1])}. "
        if self.deciding:
            return (f"{p} may continue the trick with a card equal to {self.first_card().label}, or end it "
                    f"(it is held by {names[self.holder]}).")
        if not self.trick:
            return f"{prefix}Round {self.round_no}: {p} leads."
        return f"{p} answers (first card {self.first_card().label}, held by {names[self.holder]})."

    def result_text(self) -> str:
        sn = self.game.side_names()
        if not self.rounds:
            return ""
        if self.game.options["match"] == "round":
            return self.round_text(self.rounds[-1])[0].upper() + self.round_text(self.rounds[-1])[1:] + "."
        pts = ", ".join(f"{sn[s]} {v}" for s, v in enumerate(self.points))
        best = max(self.points)
        w = [s for s in range(self.sides) if self.points[s] == best]
        verb = "win" if self.n == 4 else "wins"
        return f"{sn[w[0]]} {verb} the game after {len(self.rounds)} rounds: {pts} points."

    def _no_continue(self, card: Card) -> str:
        """Why the leader did not get the choice to continue after `card` completed a round."""
        if not self.trick or self.deciding:
            return ""
        names = self.game.player_names()
        ld = self.leader
        hand = self.hands[ld]
        if not hand:
            return ""
        holder = self.current_player if self.eqrow[card.index] else self.holder
        if self.game._only_beaten and self.side(holder) == self.side(ld):
            return f" ({names[ld]} holds it and may continue only after being beaten [S7-7.1])"
        if self.game._side_continues:
            return ""
        # only what the table sees: the leader was not offered to continue (never which cards he holds)
        return f" ({names[ld]} cannot continue: no card equal to {self.first_card().label} in hand [S7-2.3])"

    def _peek_deal(self, deal):
        try:
            c = self._copy()
            c._deal(deal)
            return c
        except Exception:  # a malformed deal is reported by apply, not here
            return None

    def _four_text(self, after) -> str:
        r = after.rounds[-1]
        if r["why"] != "four":
            return ""
        names = self.game.player_names()
        q = r["four"]
        rank = after.hands[q][0].rank
        sn = self.game.side_names()
        return (f"{names[q]} holds four {RANK_PLURAL[rank]} and wins the round at once: {sn[r['winner']]} "
                f"+{r['points']} [S7-7.3].")


Sieben.State = SiebenState
GAME = Sieben


# --- tables generated from the engine ----------------------------------------------------------------
def beats_table(opts: dict) -> Table:
    w = opts["eights_wild"]
    p = PIQUET32.parse
    rows = []
    for label, led in (("a 10 (or any rank but 7 and 8)", p("10H")), ("an 8", p("8H")), ("a 7", p("7H"))):
        row = [f"{label} led"]
        for card in (p(led.rank + "S"), p("7S"), p("8S"), p("KS")):
            eq, rule = equal_to(led, card, w)
            row.append(f"{'beats' if eq else 'does not beat'} ({rule})")
        rows.append(row)
    return Table(["first card \\ answered with", "the same rank", "a 7", "an 8", "another rank (e.g. a King)"],
                 rows, "Which answer beats (counts as equal to the first card), under the options in force")


def points_table(opts: dict) -> Table:
    rows = []
    if opts["score_difference"]:
        rows.append(["won the round (more counters)", "the difference of the counters, e.g. 60 − 30 = 30"])
        if opts["four_of_a_kind"]:
            rows.append(["four equal cards in hand (variation)", "90 (as if the winner took every counter)"])
        return Table(["result of the round", "points for the winner"], rows,
                     f"Game points per round; {opts['difference_target']} points win the game")
    if opts["round_points"] == "traditional":
        rows += [["won the round (50 counters or more)", "1"],
                 ["… and the losers took no Ace and no Ten", "2"],
                 ["… and the losers took no trick at all", "3"]]
    else:
        rows.append(["won the round (50 counters or more)", "1"])
    if opts["four_of_a_kind"]:
        rows.append(["four equal cards in hand (variation)", "4"])
    return Table(["result of the round", "game points for the winner"], rows,
                 f"Game points per round; {opts['target']} points win the game (a tie plays on)")
