"""24 ("24 ist am besten!") for 2 to 5 players, played as a whole match, with every variant of the source.

Source: ``001_…`` (the rules of 24, 2003). Rule IDs refer to ``cardkit/rules/vierundzwanzig.toml``.

A round: 3 cards each; the start player (left of the dealer) names trump — yellow even blind, before he
has looked at his cards —; 3 more cards each; from the start player on, each player may give back up to 3
cards for as many from the stock (variant b: or sit the round out). Then six tricks: follow the led colour,
else discard or trump; the white 24 is the highest trump and counts as the trump colour. A played 1 may
reverse the rank order from the next trick on (its player says so at once: the action ``reverse: yes`` or
``reverse: no``); variant a lets a played 2 name a new trump. Each trick takes 1 point off its winner's
score (2 with yellow trump, 4 with blind yellow); a player without a trick adds the round's total, the
trump caller twice that. Everyone starts at 24; the match ends after a round in which someone reaches 0 or
less, or 48 or more, and the lowest score wins.

The state between rounds is at CHANCE and the protocol deals. A Deal's cards are distributed as the source
deals them (rule V24-3.2): 3 to each player from the start player on, 3 more each in the same order once
trump is named, the rest is the stock (top first).
"""
from __future__ import annotations

from operator import attrgetter, itemgetter
from typing import Any, Self

from .. import tricks
from ..cards import VIERUNDZWANZIG as DECK, Card
from ..errors import CardError, IllegalActionError, OptionError
from ..game import CHANCE, TERMINAL, Action, Deal, Game, Narration, State
from ..options import Option
from ..rng import Rng
from ..rules import Table
from ..view import Pile, Seat, View, plural

HAND, PACKET, MAX_EXCHANGE = 6, 3, 3          # V24-3.2, V24-3.4
TRICKS = HAND                                 # six tricks a round
START_SCORE, LIMIT = 24, 48                   # V24-5, V24-8
NO_EXCHANGE_AT, NO_SIT_OUT_AT, BLIND_FROM = 6, 19, 25   # V24-9.3: the score limits

COLOURS = ("Y", "R", "B", "G")
WORD = {"Y": "yellow", "R": "red", "B": "blue", "G": "green"}
WHITE = DECK.parse("24")
CARDS = DECK.cards
NAMES = {2: ["Stefan", "Markus"], 3: ["Stefan", "Markus", "Michael"],
         4: ["Stefan", "Markus", "Michael", "Sabine"], 5: ["Stefan", "Markus", "Michael", "Sabine", "Jana"]}

# the colour each card counts as, per trump (the 24 counts as the trump colour: V24-4.4)
SUIT_OF = {t: {c: (t if c is WHITE else c.text[0]) for c in CARDS} for t in COLOURS}
COLOUR_OF = {c: c.text[0] for c in CARDS if c is not WHITE}
# a card's strength within its colour: 11 high … 1 low and the 24 above all (V24-4.4); reversed, 1 high …
# 11 low and the 24 the lowest trump (V24-6.4)
POWER = {False: {c: (12 if c is WHITE else c.value) for c in CARDS},
         True: {c: (0 if c is WHITE else 12 - c.value) for c in CARDS}}
# a card's strength in a trick, per trump and order in force and per led colour (V24-4.3): a trump above any
# card of the led colour, which is above the other colours (-1: never wins); the trick goes to the highest,
# so that keeping its best card as the cards come is one comparison per card (as tricks.winner finds it)
RANKS = {(t, rev): {led: {c: 100 + POWER[rev][c] if SUIT_OF[t][c] == t else POWER[rev][c] if SUIT_OF[t][c] == led
                          else -1 for c in CARDS} for led in COLOURS} for t in COLOURS for rev in (False, True)}

# phases of a round
BLIND_Q, TRUMP_Q, EXCHANGE, PLAY, REVERSE_Q, NEWTRUMP_Q = range(6)

# one action object per card and choice, made once ------------------------------------------------------
PLAY_A = {c: Action(c.text, c.label, c, "play") for c in CARDS}
PLAY_OF = PLAY_A.__getitem__                  # card -> its play action (mapped over a hand)
# per trump, per colour: whether a play action is of that colour (the 24 counts as the trump colour), as a
# set's own test, so that following the led colour is one C-level filter over the hand's actions
FOLLOWS = {t: {s: frozenset(PLAY_A[c] for c in CARDS if SUIT_OF[t][c] == s).__contains__ for s in COLOURS}
           for t in COLOURS}
# giving a card back in the exchange: its notation names the card's place in the hand as dealt (card 1 … 6,
# in the order it came: the first three, then the second three), not the card — every seat sees that a player
# gives back his 2nd card, none which card that is (the label, for the player himself, names it)
DISCARD = {(i, c): Action(f"give back card {i + 1}", f"give back {c.label}", c, "discard")
           for i in range(HAND) for c in CARDS}
# per place: card -> its action, so that a hand's actions are one map over the places and the hand
DISCARD_AT = tuple({c: DISCARD[i, c] for c in CARDS} for i in range(HAND))
DONE = [Action("keep", "keep your cards", data="done")] + \
    [Action(f"draw {k}", f"draw {plural(k, 'new card')}", data="done") for k in range(1, MAX_EXCHANGE + 1)]
SIT_OUT = Action("sit out", "sit out this round", data="sit")
LOOK = Action("look", "pick up your cards", data="look")
BLIND = Action("blind yellow", "name yellow blind, unseen (each trick counts 4)", data="blind")
TRUMP_A = {t: Action(f"trump: {WORD[t]}", f"name {WORD[t]} trump" + (" (each trick counts 2)" if t == "Y" else ""),
                     data=t) for t in COLOURS}
# "reverse: yes/no", labelled by the order it leaves for the next trick (the key: the order already due then)
REV_YES = {False: Action("reverse: yes", "reverse: 1 high from the next trick", data=True),
           True: Action("reverse: yes", "reverse again: 11 high from the next trick", data=True)}
REV_NO = {False: Action("reverse: no", "no change: 11 stays high", data=False),
          True: Action("reverse: no", "no change: 1 high from the next trick", data=False)}
NEW_TRUMP = {t: Action(f"new trump: {WORD[t]}", f"new trump {WORD[t]} from the next trick", data=t) for t in COLOURS}
KEEP_TRUMP = Action("new trump: no", "keep the trump", data=None)
# the legal choices of the questions, made once (copied when returned)
ASK_TRUMP = [TRUMP_A[c] for c in COLOURS]
ASK_NEW_TRUMP = {t: [KEEP_TRUMP] + [NEW_TRUMP[c] for c in COLOURS if c != t] for t in COLOURS}

OPTIONS = (
    Option("players", 3, choices=(2, 3, 4, 5), rule="V24-2",
           help="2 to 5 players (45 cards: 6 each and up to 3 exchanged each for at most 5)"),
    Option("own_trump_penalty", "advised", choices=("advised", "always", "never"), rule="V24-5.3",
           help="the trump caller without a trick scores double",
           labels={"advised": "yes, but not with the trump-changing 2s (as the source advises)",
                   "always": "always", "never": "never"}),
    Option("trump_twos", False, choices=(False, True), rule="V24-9.1",
           help="variant a: a played 2 may name a new trump from the next trick"),
    Option("sitting_out", False, choices=(False, True), rule="V24-9.2",
           help="variant b: a player may sit a round out (3 players or more)"),
    Option("score_limits", False, choices=(False, True), rule="V24-9.3",
           help="variant c: no sitting out at 19 points or fewer, no exchange at 6 or fewer, blind yellow only "
                "from 25"),
)


_INDEX = attrgetter("index")


def card_words(c: Card) -> str:
    """'the red 11', 'the white 24'."""
    return "the " + c.name


def order_words(reversed_: bool) -> str:
    return ("1 high … 11 low; the 24 is the lowest trump" if reversed_ else
            "11 high … 1 low; the 24 is the highest trump")


class VierundzwanzigGame(Game):
    name = "vierundzwanzig"
    title = "24"
    deck = DECK
    option_specs = OPTIONS
    summary = ("A trick game to get from 24 points down to 0: every trick takes points off, a round without a "
               "trick adds many. A played 1 may turn the rank order upside down. For 2 to 5 players.")

    def __init__(self, **options):
        super().__init__(**options)
        o = self.options
        if o["sitting_out"] and o["players"] == 2:
            raise OptionError("variant b (sitting out, rule V24-9.2) needs 3 players or more: at least two "
                              "must play every round, and the start player never sits out — with 2 players "
                              "nobody could")
        pen = o["own_trump_penalty"]
        self.double_penalty = pen == "always" or pen == "advised" and not o["trump_twos"]
        # the shuffle's steps down to the deepest card a round can reach, grouped so that the product of
        # a group's ranges stays below 2**63 (random_deal): (product, ((step, its range), …)) per group
        reach = min((HAND + MAX_EXCHANGE) * self.num_players, len(CARDS) - 1)
        self._draws = []
        i = 0
        while i < reach:
            k, prod = i, 1
            while k < reach and prod * (len(CARDS) - k) < 1 << 63:
                prod *= len(CARDS) - k
                k += 1
            self._draws.append((prod, tuple((t, len(CARDS) - t) for t in range(i, k))))
            i = k
        n = self.num_players
        # per start player: each seat's first and second packet taken from the deal in one go (V24-3.2: three
        # cards each from the start player on, then three more each), and the seats in turn
        at = [[PACKET * ((p - s) % n) for p in range(n)] for s in range(n)]
        self._packets = [(itemgetter(*(slice(i, i + PACKET) for i in a)),
                          itemgetter(*(slice(PACKET * n + i, PACKET * n + i + PACKET) for i in a))) for a in at]
        self._turn_from = [tuple((s + k) % n for k in range(n)) for s in range(n)]
        self._left = tuple((p + 1) % n for p in range(n))     # each seat's left-hand neighbour

    def player_names(self) -> list[str]:
        return list(NAMES[self.num_players])

    def random_deal(self, rng: Rng) -> Deal:
        """A shuffled pack. Only the cards a round can reach are drawn at random — the hands and, below
        them, 3 cards per player for the exchange (9 per player: all 45 with 5 players): each of those
        places gets a uniformly random card (Fisher-Yates from the top, stopped there); the cards below,
        which no round can reach, keep the order they were left in. Several steps share one draw: a
        uniform number below the product of their ranges, read digit by digit in that mixed radix, is a
        uniform choice for each step (one draw of the RNG for up to 11 steps instead of one each)."""
        cards = list(CARDS)
        below = rng.below
        for prod, steps in self._draws:
            v = below(prod)
            for t, r in steps:
                j = t + v % r
                v //= r
                cards[t], cards[j] = cards[j], cards[t]
        return Deal(cards)

    def stack(self, hands: list, stock="", dealer: int | None = None) -> str:
        """The deal text that gives these hands (6 cards each, in seat order: the first 3 are dealt before
        trump is named, the other 3 after) and this stock (top first), with `dealer` dealing (default: the
        first round's, the last seat). Unlisted cards go to the bottom of the stock in the pack's order."""
        n = self.num_players
        if not isinstance(hands, (list, tuple)):
            raise IllegalActionError("V24-3.2", f"give the hands as a list of {n} hands, not {type(hands).__name__}")
        hs = [DECK.parse_many(h) for h in hands]
        if len(hs) != n or any(len(h) != HAND for h in hs):
            raise IllegalActionError("V24-3.2", f"give {n} hands of {HAND} cards each")
        if dealer is None:
            dealer = n - 1
        start = (dealer + 1) % n
        seats = [(start + k) % n for k in range(n)]
        order = [c for p in seats for c in hs[p][:PACKET]] + [c for p in seats for c in hs[p][PACKET:]]
        order += DECK.parse_many(stock)
        rest = list(CARDS)
        for c in order:
            if c not in rest:
                raise IllegalActionError("V24-1", f"{c.label} is listed twice (the pack holds each card once)")
            rest.remove(c)
        return "deal: " + DECK.format(order + rest)

    def rule_tables(self) -> dict:
        return {"ranks": ranks_table(), "scoring": scoring_table(self.options), "players": players_table()}



# the state's own attributes, kept in slots: with more than about 30 attributes in its __dict__ an instance
# loses CPython's fast attribute access, and the state has about 50 (the base's few stay in the __dict__)
_SLOTS = tuple("""n _twos _sit _limits points round_no dealer start rounds loser _hands second stock ex_order
    drawn_by discards aside active picked phase trump next_trump called blind reversed next_reversed suit_of
    follows power hand_acts ex_pos ex_count ex_max ex_hand ex_acts ex_sit trick led ranks rank best_r changes leader won
    tricks_played last_trick nxt in_play current_player best""".split())
_SLOT_VALUES = attrgetter(*_SLOTS)


class VierundzwanzigNarration(Narration):
    """How a game of 24 is told (`cardkit.game.Narration`)."""
    __slots__ = ()

    def round_result(self) -> str:
        if not self.rounds:
            return ""
        r = self.rounds[-1]
        return (f"Round {r['round']}: {self.round_text(r)} [V24-5]. The lowest score wins; the match ends at 0 or "
                f"below, or at {LIMIT} or more.")

    def describe(self, action, after: Self | None = None) -> str:
        names = self.game.player_names()
        if action.__class__ is Deal:
            n = self.n
            d = names[self.dealer]
            st = names[(self.dealer + 1) % n]
            return (f"Round {self.round_no + 1}: {d} deals 3 cards to each player; {st}, on his left, is the "
                    f"start player and names trump [V24-3].")
        p = self.current_player
        who = names[p]
        if after is None:
            after = self._copy()
            after._apply(action)
        ph = self.phase
        if ph == BLIND_Q:
            if action is BLIND:
                line = (f"{who} names yellow blind, without looking at his cards: each trick counts 4 this "
                        "round [V24-7].")
            else:
                return f"{who} picks up his first three cards to name trump [V24-7.1]."
        elif ph == TRUMP_Q:
            v = " — each trick counts 2" if action.data == "Y" else ""
            line = f"{who} names {WORD[action.data]} trump{v} [V24-3.3]."
        elif ph == EXCHANGE:
            if action.data == "discard":
                line = f"{who} gives back a card [V24-3.4]."
                if after.ex_pos != self.ex_pos:
                    line = f"{who} gives back a third card and draws 3 new ones from the stock [V24-3.4]."
            elif action.data == "sit":
                line = f"{who} sits this round out: his score does not change [V24-9.2]."
            elif self.ex_count:
                line = f"{who} draws {plural(self.ex_count, 'new card')} from the stock [V24-3.4]."
            else:
                line = f"{who} keeps his cards [V24-3.4]."
        elif ph == REVERSE_Q:
            if action.data:
                line = (f"{who} reverses the rank order: from the next trick " +
                        ("the 1 is high and the 11 low, and the 24 is the lowest trump [V24-6.2]."
                         if not self.next_reversed else "the 11 is high again [V24-6.3]."))
            else:
                line = f"{who} leaves the rank order as it is [V24-6.1]."
        elif ph == NEWTRUMP_Q:
            if action.data is None:
                line = f"{who} keeps the trump [V24-9.1]."
            else:
                line = f"{who} names {WORD[action.data]} trump from the next trick [V24-9.1]."
        else:
            c = action.card
            if not self.trick:
                line = f"{who} leads {card_words(c)}."
            else:
                s = self.suit_of[c]
                if s == self.led:
                    line = f"{who} plays {card_words(c)}."
                elif s == self.trump:
                    line = f"{who} cannot follow and trumps with {card_words(c)} [V24-4.2]."
                else:
                    line = f"{who} cannot follow and discards {card_words(c)} [V24-4.2]."
            if after.phase == REVERSE_Q:
                line += f" A 1: {who} may reverse the rank order from the next trick [V24-6.1]."
            elif after.phase == NEWTRUMP_Q:
                line += f" A 2: {who} may name a new trump from the next trick [V24-9.1]."
        line += self._consequences(after)
        return line


class VierundzwanzigState(VierundzwanzigNarration, State):
    game: VierundzwanzigGame
    current_player: int
    # current_player is a slot, not the base class's property: it is read several times per decision
    __slots__ = _SLOTS
    # the slots that are None outside their part of a round
    loser: int | None
    trump: str | None
    next_trump: str | None
    called: str | None
    led: str | None
    best: tuple[int, Card] | None
    last_trick: tuple | None

    # set up --------------------------------------------------------------------------------------------
    def _start(self) -> None:
        g = self.game
        o = g.options
        n = self.n = g.num_players
        self._twos = o["trump_twos"]
        self._sit = o["sitting_out"]
        self._limits = o["score_limits"]
        self.points = [START_SCORE] * n
        self.round_no = 0
        self.dealer = n - 1                 # V24-3.1: the last seat deals first, the deal passes to the left
        self.start = 0
        self.rounds: list[dict] = []
        self.loser = None                   # V24-8.4: a blind caller without a trick loses the match
        empty: list[list[Any]] = [[], [], [], [], []]
        self._hands: list[list[Card]] = empty[:n]   # until the play: see `hands`
        empty = [[], [], [], [], []]
        self.second: list[list[Card]] = empty[:n]   # the second packets, before trump is named
        self.stock: list[Card] = []         # the top of the stock is the END of the list
        self.ex_order: tuple = ()           # the seats in turn from the start player
        self._new_round_fields()
        # the trick's best card so far (set at every lead, see _apply): per led colour the cards' strengths
        # in a trick (RANKS; set when trump is named), this trick's, the best (seat, card) and its strength
        self.ranks = RANKS["Y", False]
        self.rank, self.best, self.best_r = self.ranks["Y"], None, -1
        self.changes = False                # a 1 or a 2 was answered in this trick (see _end_trick)
        self.current_player = CHANCE

    def _new_round_fields(self) -> None:
        """Everything of a round but the cards dealt (hands, second packets, stock: set by the deal)."""
        n = self.n
        self.drawn_by: list[int] = []       # who drew each stock card, in order (resample)
        # n fresh empty lists each (at most 5 players; cheaper than a comprehension, at every round)
        empty: list[list[Any]] = [[], [], [], [], []]
        self.discards = empty[:n]
        empty = [[], [], [], [], []]
        self.aside = empty[:n]              # the hand of a player who sits out
        self.active = [True] * n
        self.picked = True                  # has the start player picked up his first cards? (V24-7)
        self.phase = BLIND_Q
        self.trump = self.next_trump = None
        self.called = None                  # the trump named at the start of the round
        self.blind = False
        self.reversed = self.next_reversed = False
        self.suit_of = SUIT_OF["Y"]
        self.follows = FOLLOWS["Y"]
        self.power = POWER[False]
        self.hand_acts: list[list] = []     # in play: each hand as its play actions, in the hand's order
        self.ex_pos = 0
        self.ex_count = self.ex_max = 0
        self.ex_hand: tuple = ()
        self.ex_acts: list = []             # the discard actions still open to the exchanging player
        self.ex_sit = False
        self.trick: list[tuple[int, Card]] = []
        self.led = None                     # the led colour (None while the trick is empty)
        self.leader = 0
        empty = [[], [], [], [], []]
        self.won = empty[:n]
        self.tricks_played = 0
        self.last_trick = None              # (trick, winner, trump then, reversed then)
        self.nxt = list(self.game._left)    # the next seat in play (a player who sits out is passed)
        self.in_play = n

    # worked out when read (views, bots, the round's score), not kept up to date at every card
    @property
    def tricks(self) -> list[int]:
        """The tricks each seat has taken this round."""
        return list(map(len, self.won))

    @property
    def hands(self) -> list[list[Card]]:
        """Each seat's cards, in the hand's order. Once the play begins the hands are kept as their play actions
        (`hand_acts`, of which the legal plays are made) and read from them; until then as cards."""
        acts = self.hand_acts
        if acts:
            return [[a.card for a in h] for h in acts]
        return self._hands

    @property
    def hands_dealt(self) -> int:
        """Rounds dealt so far in the match, one deal each (``cardkit bench`` counts them)."""
        return self.round_no

    @property
    def trick_cards(self) -> list[Card]:
        """The cards of the trick on the table, in the order played."""
        return [c for _, c in self.trick]

    # dealing (V24-3) -------------------------------------------------------------------------------------
    def _deal(self, deal: Deal) -> list:
        """Deal a round; returns the start player's legal actions."""
        g = self.game
        self.round_no += 1
        if self.round_no > 1:                             # (the first round's are fresh from _start)
            self._new_round_fields()
        start = self.start = (self.dealer + 1) % self.n
        first, second = g._packets[start]
        cards = list(deal.cards)
        self._hands = list(first(cards))                  # in seat order, a list each (slices of a list)
        self.second = list(second(cards))
        self.stock = cards[:2 * PACKET * self.n - 1:-1]    # the rest, reversed: its top card last
        self.ex_order = g._turn_from[start]
        self.current_player = start
        if not self._limits or self.points[start] >= BLIND_FROM:    # (as _blind_allowed)
            self.picked = False
            self.phase = BLIND_Q
            return [LOOK, BLIND]
        self.phase = TRUMP_Q
        return ASK_TRUMP[:]

    def _blind_allowed(self) -> bool:
        return not self._limits or self.points[self.start] >= BLIND_FROM

    # what may be done -------------------------------------------------------------------------------------
    def _legal(self) -> list:
        ph = self.phase
        if ph == PLAY:                                    # V24-4.2: follow the led colour if you can
            p = self.current_player
            led = self.led
            acts = self.hand_acts[p]
            if led is not None:
                same = [*filter(self.follows[led], acts)]
                if same:
                    return same
            return acts[:]
        if ph == EXCHANGE:
            k = self.ex_count
            done = DONE[k]
            sit = k == 0 and self.ex_sit
            if k < self.ex_max:
                return [SIT_OUT, *self.ex_acts, done] if sit else [*self.ex_acts, done]
            return [SIT_OUT, done] if sit else [done]
        if ph == REVERSE_Q:
            nr = self.next_reversed
            return [REV_YES[nr], REV_NO[nr]]
        if ph == NEWTRUMP_Q:
            nt = self.next_trump
            assert nt is not None                       # (a new trump was named)
            return ASK_NEW_TRUMP[nt][:]
        if ph == TRUMP_Q:
            return ASK_TRUMP[:]
        return [LOOK, BLIND]                              # BLIND_Q

    def _max_exchange(self, p: int) -> int:
        """How many cards `p` may still give back in all: 3, none at 6 points or fewer (V24-9.3), never more
        than the stock holds (V24-3.5)."""
        if self._limits and self.points[p] <= NO_EXCHANGE_AT:
            return 0
        return min(MAX_EXCHANGE, len(self.stock) + self.ex_count)

    def _may_sit_out(self, p: int) -> bool:
        """V24-9.2: not the start player, and at least two must still play; V24-9.3: not at 19 or fewer."""
        return (self._sit and p != self.start and self.in_play > 2
                and not (self._limits and self.points[p] <= NO_SIT_OUT_AT))

    # applying -------------------------------------------------------------------------------------------
    def _apply(self, action) -> list | None:
        """Make the move; returns the next position's legal actions (None once the round is over)."""
        ph = self.phase
        if ph == PLAY:                                    # a card to the trick: the hot path, inline
            p = self.current_player
            card = action.card
            self.hand_acts[p].remove(action)              # (the hand: see `hands`)
            pc = (p, card)
            trick = self.trick
            trick.append(pc)
            led = self.led
            # the trick's best card so far, kept as the cards come (RANKS), so the trick's end knows it
            if led is None:
                led = self.led = self.suit_of[card]
                rank = self.rank = self.ranks[led]
                self.best, self.best_r = pc, rank[card]
            else:
                r = self.rank[card]
                if r > self.best_r:
                    self.best, self.best_r = pc, r
            if card.value <= 2 and self._asks(card):
                return self._legal()
            p = self.nxt[p]
            if p == self.leader:                          # round the table: everyone in play has played
                if self.changes or self.tricks_played == TRICKS - 1:
                    return self._end_trick()              # (a change takes effect, or the round ends)
                # the trick to its winner, who leads the next: _end_trick's common case, inline
                best = self.best
                assert best is not None                   # (a card was led)
                w = best[0]
                t = tuple(trick)
                self.won[w].append(t)
                self.last_trick = (t, w, self.trump, self.reversed)
                self.trick = []
                self.led = None
                self.tricks_played += 1
                self.leader = self.current_player = w
                return self.hand_acts[w][:]
            self.current_player = p
            acts = self.hand_acts[p]                      # the next player's legal cards (as in _legal)
            return [*filter(self.follows[led], acts)] or acts[:]
        if ph == EXCHANGE:                                # a card given back, sitting out, or the cards drawn
            p = self.current_player
            kind = action.data
            if kind == "discard":
                ex_acts = self.ex_acts
                i = ex_acts.index(action)                 # ex_acts: the hand in order (see _next_exchanger)
                del ex_acts[i]
                del self._hands[p][i]
                self.discards[p].append(action.card)
                k = self.ex_count = self.ex_count + 1
                if k < self.ex_max:
                    return [*ex_acts, DONE[k]]            # (as _legal: no sitting out once one is given)
            elif kind == "sit":
                self.active[p] = False
                self.in_play -= 1
                self.aside[p] = self._hands[p]
                self._hands[p] = []
                self.ex_pos += 1
                return self._next_exchanger()
            k = self.ex_count
            if k:                                         # V24-3.4: as many new cards from the stock, top first
                stock = self.stock
                self._hands[p] += stock[:-k - 1:-1]
                del stock[-k:]
                self.drawn_by += (p,) * k
            self.ex_pos += 1
            return self._next_exchanger()
        if ph == REVERSE_Q:
            if action.data:
                self.next_reversed = not self.next_reversed
                self.changes = True
            return self._after_card()
        if ph == NEWTRUMP_Q:
            if action.data is not None:
                self.next_trump = action.data
                self.changes = True
            return self._after_card()
        if ph == TRUMP_Q:
            return self._name_trump(action.data, False)
        if action is BLIND:
            return self._name_trump("Y", True)
        self.picked = True                                # LOOK
        self.phase = TRUMP_Q
        return ASK_TRUMP[:]

    def _name_trump(self, t: str, blind: bool) -> list:
        """Trump named: 3 more cards each, and the exchange begins (returns the legal actions)."""
        self.trump = self.next_trump = self.called = t
        self.blind = blind
        self.picked = True
        self.suit_of = SUIT_OF[t]
        self.follows = FOLLOWS[t]
        self.ranks = RANKS[t, self.reversed]
        for h, more in zip(self._hands, self.second):     # V24-3.2: three more cards each
            h += more
            more.clear()
        self.phase = EXCHANGE
        self.ex_pos = 0
        return self._next_exchanger()

    def _next_exchanger(self) -> list:
        """The next player (from the start player on, the dealer last) with a choice to make in the
        exchange, then the start player leads; returns the legal actions (as _legal)."""
        order = self.ex_order
        pos = self.ex_pos
        stock = len(self.stock)
        while pos < len(order):
            p = order[pos]
            self.ex_count = 0
            # as _max_exchange, with none given back yet: 3, fewer only with a short stock or the limits
            m = MAX_EXCHANGE if stock >= MAX_EXCHANGE else stock
            if self._limits and self.points[p] <= NO_EXCHANGE_AT:
                m = 0
            self.ex_max = m
            self.ex_sit = sit = self._sit and self._may_sit_out(p)
            if m > 0 or sit:
                self.ex_pos = pos
                self.current_player = p
                self.ex_hand = h = tuple(self._hands[p])  # as dealt: the places "card 1" … "card 6"
                acts = self.ex_acts = list(map(dict.__getitem__, DISCARD_AT, h))
                if m > 0:
                    return [SIT_OUT, *acts, DONE[0]] if sit else [*acts, DONE[0]]
                return [SIT_OUT, DONE[0]]
            pos += 1
        self.ex_pos = pos
        # the exchange is over: the players in play, and the start player leads (V24-4.1)
        act = self.active
        n = self.n
        if self.in_play < n:
            for p in range(n):
                q = (p + 1) % n
                while not act[q]:
                    q = (q + 1) % n
                self.nxt[p] = q
        # from now on the hands (`hands`): each hand's play actions (maps, not a comprehension: once a round)
        self.hand_acts = [*map(list, map(map, (PLAY_OF,) * n, self._hands))]
        self.phase = PLAY
        self.leader = self.current_player = self.start
        return self.hand_acts[self.start][:]

    def _asks(self, card) -> bool:
        """Whether the 1 or 2 just played asks its player a question at once (if so, the phase asks it)."""
        if card.value == 1 and self.tricks_played < TRICKS - 1:
            self.phase = REVERSE_Q                        # V24-6.1: its player decides at once
            return True
        if card.value == 2 and self._twos and not self.blind:
            self.phase = NEWTRUMP_Q                       # V24-9.1
            return True
        return False

    def _after_card(self) -> list | None:
        self.phase = PLAY
        if len(self.trick) == self.in_play:
            return self._end_trick()
        self.current_player = self.nxt[self.current_player]
        return self._legal()

    def _end_trick(self) -> list | None:
        """The trick to its winner, who leads the next (his legal actions: his whole hand), or the round
        scored (None)."""
        trump, rev, best = self.trump, self.reversed, self.best
        assert trump is not None and best is not None    # (in play: trump named, a card led)
        w = best[0]
        t = tuple(self.trick)
        self.won[w].append(t)
        self.last_trick = (t, w, trump, rev)
        self.trick = []
        self.led = None
        played = self.tricks_played = self.tricks_played + 1
        # changes of trump (V24-9.1) and of the order (V24-6.2) take effect now, from the next trick
        if self.changes:
            self.changes = False
            nt = self.next_trump
            assert nt is not None
            if nt != trump:
                self.trump = trump = nt
                self.suit_of = SUIT_OF[trump]
                self.follows = FOLLOWS[trump]
            if self.next_reversed != rev:
                self.reversed = self.next_reversed
                self.power = POWER[self.reversed]
            self.ranks = RANKS[trump, self.reversed]
        if played == TRICKS:
            self._end_round()
            return None
        self.leader = self.current_player = w
        return self.hand_acts[w][:]

    # the round and the match (V24-5, V24-8) ----------------------------------------------------------------
    def trick_value(self) -> int:
        """Points a trick is worth under the trump that scores (V24-5.1; V24-9.1.2: the last one named)."""
        return 4 if self.blind else 2 if self.next_trump == "Y" else 1

    def _end_round(self) -> None:
        v = self.trick_value()
        points = self.points
        before = points[:]
        why = []
        start, active = self.start, self.active
        tricks_ = list(map(len, self.won))               # (the property tricks)
        for p, t in enumerate(tricks_):
            if not active[p]:
                why.append("sat out")                     # V24-9.2: the score does not change
            elif t:
                points[p] -= t * v                        # V24-5.1
                why.append("tricks")
            elif p == start and self.game.double_penalty:
                points[p] += 2 * TRICKS * v               # V24-5.3
                why.append("own trump")
                if self.blind:
                    self.loser = p                        # V24-8.4: 48, and the match is lost
            else:
                points[p] += TRICKS * v                   # V24-5.2
                why.append("no trick")
        self.rounds.append({"round": self.round_no, "dealer": self.dealer, "start": start,
                            "trump": self.called, "final": self.next_trump, "blind": self.blind, "value": v,
                            "tricks": tricks_, "active": active[:], "before": before,
                            "after": points[:], "why": why})
        self.phase = PLAY
        n = self.n
        if self.loser is not None or min(points) <= 0 or max(points) >= LIMIT:
            self.current_player = TERMINAL                # V24-8
        else:
            self.dealer = (self.dealer + 1) % n           # V24-3.1
            self.current_player = CHANCE

    def _scores(self) -> list:
        return list(self.points)

    def _winners(self) -> list[int]:
        """V24-8: the lowest score wins (ties share); a blind caller who lost the match does not win."""
        cand = [p for p in range(self.n) if p != self.loser]
        best = min(self.points[p] for p in cand)
        return [p for p in cand if self.points[p] == best]

    # why an action is not legal, in the words of the buttons ------------------------------------------------
    def _illegal(self, text: str) -> IllegalActionError:
        names = self.game.player_names()
        p = self.current_player
        who = names[p]
        t = " ".join(text.strip().lower().split())
        ph = self.phase
        start = names[self.start]
        if t in ("look", "pick up your cards"):
            return IllegalActionError("V24-7.1", f"{who} has nothing to pick up now: only the start player, "
                                      "before naming trump, picks up his first cards", text)
        if t in ("blind yellow", BLIND.label):
            if ph == BLIND_Q and self._limits and not self._blind_allowed():
                return IllegalActionError("V24-9.3", f"{who} has {plural(self.points[p], 'point')}: blind "
                                          f"yellow only from {BLIND_FROM} points (variant c)", text)
            if ph == TRUMP_Q:
                if self._limits and not self._blind_allowed():
                    return IllegalActionError("V24-9.3", f"{who} has {plural(self.points[p], 'point')}: blind "
                                              f"yellow only from {BLIND_FROM} points (variant c)", text)
                return IllegalActionError("V24-7.1", f"too late for blind yellow: {who} has picked up his "
                                          "cards; name a trump", text)
            return IllegalActionError("V24-7.1", f"only {start}, the start player, may name yellow blind, and "
                                      "only before he picks up his cards", text)
        if t.startswith("trump:") or t.startswith("name ") and t.endswith("trump"):
            if ph == BLIND_Q:
                return IllegalActionError("V24-7.1", f"{who} first picks up his cards (or names yellow blind, "
                                          "unseen)", text)
            return IllegalActionError("V24-3.3", f"trump is named once a round, by the start player ({start}), "
                                      "after the first three cards", text)
        if t.startswith("new trump"):
            if self.blind and ph == PLAY and self._twos:
                return IllegalActionError("V24-9.1.1", "yellow was named blind: the trump may not be changed",
                                          text)
            if not self._twos:
                return IllegalActionError("V24-9.1", "a 2 names a new trump only in variant a", text)
            return IllegalActionError("V24-9.1", "a new trump is named only by the player of a 2, as he plays it",
                                      text)
        if t.startswith("reverse"):
            if ph == PLAY and self.tricks_played == TRICKS - 1:
                return IllegalActionError("V24-6.6", "no trick follows the last: nothing to reverse", text)
            return IllegalActionError("V24-6.1", "only the player of a 1 may reverse the order, as he plays it",
                                      text)
        if t in ("sit out", SIT_OUT.label):
            return self._why_not_sit_out(p, text)
        if t == "keep" or t.startswith("draw"):
            if ph == EXCHANGE:
                return IllegalActionError("V24-3.4", f"{who} has given back {plural(self.ex_count, 'card')}: "
                                          f"that is what he draws ({DONE[self.ex_count].label})", text)
            return IllegalActionError("V24-3.4", "this is not the exchange", text)
        exch = t.startswith("give back ")
        card_text = text.strip()[len("give back "):] if exch else text
        if exch and card_text.lower().startswith("card ") and card_text[5:].strip().isdigit():
            k = int(card_text[5:])
            if ph != EXCHANGE:
                return IllegalActionError("V24-3.4", "cards are given back only in the exchange, before the "
                                          "first trick", text)
            if self._limits and self.points[p] <= NO_EXCHANGE_AT:
                return IllegalActionError("V24-9.3", f"{who} has {plural(self.points[p], 'point')}: at 6 or "
                                          "fewer a player may not exchange (variant c)", text)
            if not 1 <= k <= len(self.ex_hand):
                return IllegalActionError("V24-3.4", f"a hand has {HAND} places: card 1 … card {HAND}", text)
            if self.ex_hand[k - 1] not in self.hands[p]:
                return IllegalActionError("V24-3.4", f"{who} has given back card {k} already", text)
            return IllegalActionError("V24-3.4", f"{who} has given back {plural(self.ex_count, 'card')}, the "
                                      "most he may", text)
        try:
            card = DECK.parse(card_text)
        except CardError:
            return IllegalActionError("V24-1.2", f"{card_text.strip()!r} is not a card of 24: write the colour's "
                                      "letter and the value, e.g. Y7, R11, B1, G5, or 24 for the white 24", text)
        if ph == BLIND_Q:
            return IllegalActionError("V24-7.1", f"{who} first picks up his cards (or names yellow blind, unseen)",
                                      text)
        if ph == TRUMP_Q:
            return IllegalActionError("V24-3.3", f"{who} first names trump: one of the four colours", text)
        if ph == REVERSE_Q:
            return IllegalActionError("V24-6.1", f"{who} first says whether his 1 reverses the order", text)
        if ph == NEWTRUMP_Q:
            return IllegalActionError("V24-9.1", f"{who} first says whether his 2 names a new trump", text)
        if card not in self.hands[p]:
            return IllegalActionError("V24-4.1", f"{who} does not hold {card_words(card)}: a player plays (and "
                                      "exchanges) only cards of his own hand", text)
        if ph == EXCHANGE:
            if self._limits and self.points[p] <= NO_EXCHANGE_AT:
                return IllegalActionError("V24-9.3", f"{who} has {plural(self.points[p], 'point')}: at 6 or "
                                          "fewer a player may not exchange (variant c)", text)
            if not exch:
                return IllegalActionError("V24-3.4", f"this is the exchange: click a card to give it back, then "
                                          f"draw as many ({DONE[self.ex_count].label})", text)
            return IllegalActionError("V24-3.4", f"{who} has given back {plural(self.ex_count, 'card')}, the most "
                                      "he may", text)
        if exch:
            return IllegalActionError("V24-3.4", "the exchange is over: the cards are played now", text)
        # PLAY: the card is held, so it breaks the duty to follow the led colour (V24-4.2, V24-4.4)
        led, trump = self.led, self.trump
        assert led is not None and trump is not None    # (a trick under way)
        word = "trump" if led == trump else WORD[led]
        if card is WHITE:
            return IllegalActionError("V24-4.4", f"the 24 counts as a trump ({WORD[trump]}), not {word}: "
                                      f"{who} holds {'a' if word[0] not in 'aeiou' else 'an'} {word} card and "
                                      "must follow the led colour", text)
        if self.trick_cards[0] is WHITE:
            return IllegalActionError("V24-4.4", f"the 24 was led and counts as a trump ({WORD[trump]}): "
                                      f"{who} holds a trump and must follow with one", text)
        return IllegalActionError("V24-4.2", f"{who} holds {'a' if word[0] not in 'aeiou' else 'an'} {word} "
                                  f"card: follow the led colour, {word}", text)

    def _why_not_sit_out(self, p: int, text: str) -> IllegalActionError:
        names = self.game.player_names()
        who = names[p]
        if not self._sit:
            return IllegalActionError("V24-9.2", "sitting out is variant b, not in play", text)
        if self.phase != EXCHANGE:
            return IllegalActionError("V24-9.2", "a player sits out when the exchange comes to him, before he "
                                      "gives back a card", text)
        if p == self.start:
            return IllegalActionError("V24-9.2", f"{who} is the start player and may never sit out", text)
        if self.ex_count:
            return IllegalActionError("V24-9.2", f"{who} has begun to exchange: he decides to sit out before "
                                      "giving back a card", text)
        if self._limits and self.points[p] <= NO_SIT_OUT_AT:
            return IllegalActionError("V24-9.3", f"{who} has {plural(self.points[p], 'point')}: at 19 or fewer a "
                                      "player may not sit out (variant c)", text)
        return IllegalActionError("V24-9.2", "at least two players must play the round (the start player and one "
                                  "more)", text)

    # copies, snapshot, resample -----------------------------------------------------------------------------
    def _led_colour(self) -> str:
        """The colour led to the trick under way (read only while there is one)."""
        led = self.led
        assert led is not None
        return led

    def _copy(self) -> Self:
        """A light copy for looking ahead (describe, resample): shares the game and the history list."""
        c = object.__new__(type(self))
        c.__dict__.update(self.__dict__)
        c._set_slots(_SLOT_VALUES(self))
        for k in ("_hands", "hand_acts", "second", "discards", "aside", "won"):
            setattr(c, k, [list(x) for x in getattr(self, k)])
        for k in ("stock", "drawn_by", "active", "ex_order", "ex_acts", "trick",
                  "points", "rounds", "nxt"):
            setattr(c, k, list(getattr(self, k)))
        return c

    def _set_slots(self, values) -> None:
        for k, v in zip(_SLOTS, values):
            setattr(self, k, v)

    def _snapshot(self) -> tuple:
        t = lambda cs: tuple(c.text for c in cs)  # noqa: E731
        tr = lambda tk: tuple((p, c.text) for p, c in tk)  # noqa: E731
        return (tuple(t(h) for h in self.hands), tuple(t(h) for h in self.second), t(self.stock),
                tuple(self.drawn_by), tuple(t(h) for h in self.discards), tuple(t(h) for h in self.aside),
                tuple(self.active), self.picked, self.phase, self.trump, self.next_trump, self.called, self.blind,
                self.reversed, self.next_reversed, tuple(self.ex_order), self.ex_pos, self.ex_count, self.ex_max,
                self.ex_sit, t(self.ex_hand), tr(self.trick), self.led, self.leader, self.in_play, tuple(self.nxt),
                tuple(self.tricks), tuple(tuple(tr(x) for x in w) for w in self.won), self.tricks_played,
                None if self.last_trick is None else (tr(self.last_trick[0]), *self.last_trick[1:]),
                self.current_player, self.round_no, self.dealer, self.start, tuple(self.points),
                self.loser, tuple(tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in r.items()))
                                  for r in self.rounds))

    def _deal_owners(self) -> list:
        """For each card of this round's deal: the seat it went to, or None while nobody has it (the second
        packets before trump is named, the stock before it is drawn, and the start player's first cards while
        he has not picked them up: he has not seen them)."""
        n = self.n
        out: list = []
        first = self.trump is not None                      # the second packets are dealt
        for k in range(n):
            p = (self.start + k) % n
            out += [p if (p != self.start or self.picked) else None] * PACKET
        for k in range(n):
            p = (self.start + k) % n
            out += [p if first else None] * PACKET
        drawn = self.drawn_by
        out += [drawn[i] if i < len(drawn) else None for i in range(len(CARDS) - 2 * PACKET * n)]
        return out

    def _revealed(self) -> list:
        return [pc for w in self.won for t in w for pc in t] + list(self.trick)

    def _fork(self) -> "VierundzwanzigState":
        """For resample's tries: a light copy of the position instead of a replay of the whole match."""
        c = self._copy()
        c.history = list(self.history)
        c._legal_cache = None
        return c

    # presentation ---------------------------------------------------------------------------------------
    def hand_of(self, p: int) -> list:
        """The cards in `p`'s hand as `p` sees them, in the pack's order: none while they lie face down, not
        picked up (the start player's first three, V24-7.1)."""
        if p == self.start and not self.picked:
            return []
        return sorted(self.hands[p], key=_INDEX)

    def _view(self, player: int | None = None) -> View:
        g = self.game
        names = g.player_names()
        n = self.n
        teacher = player is None
        cp = self.current_player
        seats = []
        hands = self.hands
        for p in range(n):
            h = hands[p]
            hand: list[Card | None]
            if teacher or player == p or p == self.start and not self.picked:
                hand = self.hand_of(p)                 # (none while lying face down, not picked up)
            else:
                hand = [None] * len(h)
            if not self.active[p]:
                info = "sits out this round"
            elif cp == CHANCE or self.trump is None and cp != TERMINAL:
                info = ""
            else:
                info = plural(self.tricks[p], "trick")
            if p == self.start and self.trump is not None and cp >= 0:
                info += (" · " if info else "") + ("named yellow blind" if self.blind else "named trump")
            seats.append(Seat(p, names[p], hand, score=plural(self.points[p], "point"), info=info,
                              current=p == cp))
        piles = []
        if not self.picked:
            st = names[self.start]
            cards = [(st, c) for c in self.hands[self.start]] if teacher else []
            count = None if teacher else len(self.hands[self.start])
            piles.append(Pile(f"{st}'s cards, face down", cards, count=count))
        if self.phase in (PLAY, REVERSE_Q, NEWTRUMP_Q) and cp >= 0 or self.trick:
            note = ""
            if self.trick:
                note = self._trick_note()
            piles.append(Pile("Trick", [(names[q], c) for q, c in self.trick], note=note, kind="trick"))
        if self.last_trick is not None:
            tk, w, _, _ = self.last_trick
            piles.append(Pile("Last trick", [(names[q], c) for q, c in tk], kind="last-trick",
                              note=self._won_note(self.last_trick), taker=w))
        piles.append(Pile("Stock", [], count=len(self.stock) + sum(len(x) for x in self.second), kind="stock"))
        aside = [(names[p], c) for p in range(n) for c in self.discards[p] + self.aside[p]]
        if aside:
            if teacher:
                piles.append(Pile("Set aside (exchanged, or the hands of players who sit out)", aside))
            else:
                piles.append(Pile("Set aside (exchanged, or the hands of players who sit out)", [],
                                  count=len(aside)))
        legal = list(self.legal_actions()) if cp >= 0 and player in (None, cp) else []
        term = cp == TERMINAL
        # in the exchange a click gives the card back (face down), it does not play it
        giving = self.phase == EXCHANGE and cp >= 0 and any(a.data == "discard" for a in legal)
        return View(g.name, g.title, player, seats, piles, self.status(), cp if cp >= 0 else None, term,
                    self.result_text() if term else "", legal, facts=self.facts(),
                    hand_action="give it back (face down) for a new one" if giving else "")

    def facts(self) -> list:
        """The public facts of the match: trump, rank order, dealer, scores."""
        names = self.game.player_names()
        out = []
        cp = self.current_player
        if self.trump is None or cp == CHANCE:
            out.append(("Trump", "not named yet" if cp != CHANCE else "named after the next deal"))
        else:
            t = self.trump
            words = f"{WORD[t]}" + (", named blind" if self.blind else "") + f" by {names[self.start]}"
            nt = self.next_trump
            if nt is not None and nt != t and cp != TERMINAL:     # (named with trump)
                words += f"; {WORD[nt]} from the next trick"
            v = self.trick_value()
            words += f" — each trick counts {v}"
            out.append(("Trump", words))
        order = ("Rank order", order_words(self.reversed and cp >= 0))
        if cp >= 0 and self.next_reversed != self.reversed:
            order = ("Rank order", order_words(self.reversed) + " — turned round from the next trick")
        out.append(order)
        nd = names[(self.dealer + 1) % self.n]
        if cp == CHANCE:
            out.append(("Dealer", f"{names[self.dealer]} deals next"))
        elif cp >= 0:
            out.append(("Dealer", f"{names[self.dealer]}; {nd}, the start player, deals the next round"))
        out.append(("Scores", " · ".join(f"{names[p]} {self.points[p]}" for p in range(self.n))
                    + f" — the match ends at 0 or below, or at {LIMIT} or more; the lowest wins"))
        return out

    def _trick_note(self) -> str:
        names = self.game.player_names()
        tc = self.trick_cards
        i = tricks.winner(tc, self.suit_of, self.power, self.trump)
        led = self._led_colour()
        word = "trump" if led == self.trump else WORD[led]
        return f"led {word} · held by {names[self.trick[i][0]]}"

    @staticmethod
    def _won_by(last) -> tuple:
        """(winner, winning card, why in words with the rule) of a finished trick."""
        tk, w, trump, rev = last
        suit_of, power = SUIT_OF[trump], POWER[rev]
        cards = [c for _, c in tk]
        c = cards[tricks.winner(cards, suit_of, power, trump)]
        led = suit_of[cards[0]]
        order = " (1 high)" if rev else ""
        if c is WHITE:
            why = ("the 24 is the highest trump [V24-4.4]" if not rev else
                   "the 24 is the lowest trump, but the only one [V24-6.4]")
        elif suit_of[c] == trump:
            why = f"the highest trump{order} [V24-4.3]"
        else:
            why = f"the highest {WORD[led]}{order} [V24-4.3]"
        return w, c, why

    def _won_note(self, last) -> str:
        w, c, why = self._won_by(last)
        return f"won by {self.game.player_names()[w]} with {card_words(c)}: {why}"

    def status(self) -> str:
        names = self.game.player_names()
        cp = self.current_player
        if cp == CHANCE:
            return f"Round {self.round_no + 1}: {names[self.dealer]} is about to deal."
        if cp == TERMINAL:
            return self.result_text()
        who = names[cp]
        ph = self.phase
        if ph == BLIND_Q:
            return (f"Round {self.round_no}: {who}, the start player, may name yellow blind before looking at "
                    "his cards, or pick them up and then name trump.")
        if ph == TRUMP_Q:
            return f"Round {self.round_no}: {who}, the start player, names trump."
        if ph == EXCHANGE:
            if self.ex_count:
                return f"{who} has given back {plural(self.ex_count, 'card')}: more, or draw as many."
            return f"{who} may give back up to {plural(self._max_exchange(cp), 'card')} for new ones" + \
                (", or sit out this round." if self._may_sit_out(cp) else ".")
        if ph == REVERSE_Q:
            return f"{who} played a 1: reverse the rank order from the next trick, or not?"
        if ph == NEWTRUMP_Q:
            return f"{who} played a 2: name a new trump from the next trick, or keep it?"
        if not self.trick:
            return f"Trick {self.tricks_played + 1}: {who} leads."
        led = self._led_colour()
        word = "trump" if led == self.trump else WORD[led]
        return f"Trick {self.tricks_played + 1}: {who} to play ({word} led)."

    def result_text(self) -> str:
        if not self.rounds:
            return ""
        names = self.game.player_names()
        w = self._winners()
        pts = ", ".join(f"{names[p]} {self.points[p]}" for p in range(self.n))
        who = " and ".join(names[p] for p in w)
        verb = "share the win" if len(w) > 1 else "wins"
        lost = f" {names[self.loser]} named yellow blind and took no trick: he loses the match [V24-8.4]." \
            if self.loser is not None else ""
        return (f"{who} {verb} after {plural(len(self.rounds), 'round')}, lowest with "
                f"{plural(self.points[w[0]], 'point')} ({pts}).{lost}")

    def progress(self) -> tuple[str, str]:
        if self.current_player == CHANCE:
            return f"Round {self.round_no + 1}", ""
        if self.current_player == TERMINAL:
            return f"Round {self.round_no}", "End of the match"
        if self.phase in (BLIND_Q, TRUMP_Q, EXCHANGE):
            return f"Round {self.round_no}", "Trump and exchange"
        return f"Round {self.round_no}", f"Trick {self.tricks_played + 1}"

    def round_text(self, r: dict) -> str:
        names = self.game.player_names()
        parts = []
        for p in range(self.n):
            why = r["why"][p]
            if why == "sat out":
                parts.append(f"{names[p]} sat out ({r['after'][p]})")
            elif why == "tricks":
                parts.append(f"{names[p]} {plural(r['tricks'][p], 'trick')}, {r['before'][p]} → {r['after'][p]}")
            else:
                extra = ", own trump" if why == "own trump" else ""
                parts.append(f"{names[p]} no trick{extra}, {r['before'][p]} → {r['after'][p]}")
        return "; ".join(parts)

    def score_table(self):
        names = self.game.player_names()
        rows = []
        for r in self.rounds:
            trump = WORD[r["final"]] + (" blind" if r["blind"] else "")
            if r["final"] != r["trump"]:
                trump = f"{WORD[r['trump']]}, then {WORD[r['final']]}"
            cells = []
            for p in range(self.n):
                why = r["why"][p]
                if why == "sat out":
                    cells.append(f"sat out · {r['after'][p]}")
                elif why == "tricks":
                    cells.append(f"{plural(r['tricks'][p], 'trick')} · {r['after'][p]}")
                else:
                    cells.append(("no trick, own trump" if why == "own trump" else "no trick") + f" · {r['after'][p]}")
            rows.append([f"Round {r['round']}", f"{trump} ({names[r['start']]})", str(r["value"]), *cells])
        rows.append(["Score", "", "", *map(str, self.points)])
        return Table(["", "trump (named by)", "a trick counts", *names], rows,
                     "Tricks and scores per round: from 24 down; 0 or below, or 48 or more, ends the match "
                     "(V24-5, V24-8)")

    def _consequences(self, after) -> str:
        """What followed from an action by itself: a trick taken, the round scored, the match over, the
        exchange over."""
        names = self.game.player_names()
        out = ""
        if after.last_trick is not None and after.last_trick is not self.last_trick:
            w, c, why = after._won_by(after.last_trick)
            out += f" {names[w]} takes the trick with {card_words(c)}: {why}."
            if after.reversed != self.reversed:
                out += " From now on the order is " + order_words(after.reversed) + " [V24-6.2]."
            if after.trump != self.trump:
                out += f" From now on {WORD[after.trump]} is trump [V24-9.1]."
        if len(after.rounds) > len(self.rounds):
            r = after.rounds[-1]
            out += f" Round {r['round']} scored, each trick {r['value']}: {after.round_text(r)} [V24-5]."
            if after.current_player == TERMINAL:
                out += " " + after.result_text()
        elif self.phase == EXCHANGE and after.phase == PLAY:
            sitting = [names[q] for q in range(self.n) if not after.active[q]]
            if sitting:
                out += " " + " and ".join(sitting) + (" sits" if len(sitting) == 1 else " sit") + " out."
            out += f" {names[after.start]} leads the first trick [V24-4.1]."
        elif self.phase in (TRUMP_Q, BLIND_Q) and after.trump is not None:
            out += " Everyone gets 3 more cards [V24-3.2]."
            if after.phase == PLAY:
                out += f" Nobody may exchange; {names[after.start]} leads [V24-4.1]."
        return out


VierundzwanzigGame.State = VierundzwanzigState
GAME = VierundzwanzigGame


# --- tables generated from the engine ----------------------------------------------------------------
def ranks_table() -> Table:
    rows = [["11 high (at the start of each round)", "24, 11, 10, … 2, 1", "11, 10, … 2, 1"],
            ["1 high (after a 1 reversed it)", "1, 2, … 10, 11, 24", "1, 2, … 10, 11"]]
    # checked against the engine's powers
    assert sorted(CARDS[:11], key=lambda c: -POWER[False][c])[0].value == 11
    assert sorted(CARDS[:11], key=lambda c: -POWER[True][c])[0].value == 1
    return Table(["rank order", "the trump colour (the 24 counts as trump)", "the other colours"], rows,
                 "From high to low: the order in force in a trick (a change applies from the next trick)")


def players_table() -> Table:
    """V24-2, V24-3.5: what the 45 cards allow, by the number of players."""
    rows = []
    for n in range(2, 8):
        dealt = HAND * n
        stock = len(CARDS) - dealt
        need = MAX_EXCHANGE * n
        offered = n in OPTIONS[0].choices
        enough = "yes" if stock >= need else \
            f"no: only {plural(stock // MAX_EXCHANGE, 'player')} could give back 3"
        rows.append([str(n), str(dealt), str(stock), str(need), enough, "yes" if offered else "no"])
    return Table(["players", "cards dealt (6 each)", "left in the stock", "given back at most (3 each)",
                  "always enough in the stock", "offered by the kit"], rows,
                 "How many can play: 45 cards, 6 in each hand, up to 3 exchanged by each player")


def scoring_table(opts: dict) -> Table:
    pen = opts["own_trump_penalty"]
    double = pen == "always" or pen == "advised" and not opts["trump_twos"]
    rows = []
    for label, v in (("red, blue or green", 1), ("yellow", 2), ("yellow, named blind", 4)):
        caller = f"+{2 * TRICKS * v}" + (" and the match is lost" if v == 4 else "") if double else \
            f"+{TRICKS * v} (no double penalty)"
        rows.append([label, f"−{v}", f"+{TRICKS * v}", caller])
    return Table(["trump", "each trick taken", "no trick", "no trick for the trump caller"], rows,
                 "Points per round, off or onto the score (everyone starts at 24; lowest wins)")
