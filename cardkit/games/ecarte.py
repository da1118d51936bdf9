"""Écarté for two players, played as a whole match (first to five points), with the source's rules and the
classic French rules as options.

Source: ``004_…`` (the 7th Sea quick rules, "Écarte"). Where it is silent the kit uses the classic game and
says so. Rule IDs refer to ``cardkit/rules/ecarte.toml``.

A deal: the dealer gives 2 + 2, then 3 + 3 cards (the elder hand first) and turns the 11th card for trumps
(a King scores the dealer a point, EC-1.4). The exchange (EC-2): each card thrown away is one action
(``discard 2``: the second card of the hand as shown — a discard is face down, so its text does not
name the card), then ``buy 2`` (or ``keep``) draws the replacements from the talon; under the classic
reading the elder hand first ``propose``\\s or ``play``\\s and the dealer ``accept``\\s or ``refuse``\\s.
Then five tricks; the King of trumps may be announced (``announce``) under the classic option. Deals go on
from the talon left over (the engine deals them itself, no chance node: nothing is shuffled) until it is
too short; then ``current_player`` is CHANCE and the protocol shuffles the whole pack (a ``Deal``).
"""
from __future__ import annotations

from operator import attrgetter
from typing import TYPE_CHECKING, Self

from ..cards import PIQUET32, Card
from ..errors import CardError, IllegalActionError
from ..game import CHANCE, TERMINAL, Action, Deal, Game, Narration, State
from ..options import Option
from ..rules import Table
from ..tricks import FOLLOW, OVERTAKE, TRUMP, beats, why_not
from ..view import Pile, Seat, View, plural

NAMES = ["South", "North"]
HAND = 5
DEAL = 11                       # EC-1: 5 + 5 cards and the turned card
FULL_EXCHANGE = DEAL + 2 * HAND  # EC-4.4 "fresh": a deal and five cards for each player
TARGET = 5                      # EC-4: five points win the match
ORDER = ("7", "8", "9", "10", "A", "J", "Q", "K")          # EC-0.1, low to high: the Ace below the Jack
POWER = {c: ORDER.index(c.rank) for c in PIQUET32.cards}    # strength within a suit
SUIT = {c: c.suit for c in PIQUET32.cards}
SUITS = ("S", "H", "C", "D")                               # display order: colours alternate
SUIT_NAME = {"C": "Clubs", "S": "Spades", "H": "Hearts", "D": "Diamonds"}
SUIT_ONE = {"C": "club", "S": "spade", "H": "heart", "D": "diamond"}
SUIT_SYM = {"C": "♣", "S": "♠", "H": "♥", "D": "♦"}
RANK_NAME = {"7": "7", "8": "8", "9": "9", "10": "10", "A": "Ace", "J": "Jack", "Q": "Queen", "K": "King"}
ORDER_TEXT = "King, Queen, Jack, Ace, 10, 9, 8, 7 — the Ace between the Jack and the 10"
KINGS = {s: PIQUET32.parse("K" + s) for s in SUITS}
SORT = {c: SUITS.index(c.suit) * 8 - POWER[c] for c in PIQUET32.cards}   # hand order: ♠ ♥ ♣ ♦, high to low
# BEATS[trump][first.index][card.index]: does `card`, played second, take the trick `first` led (EC-3.5)
BEATS = {t: [[beats(c, f, f.suit, t, SUIT, POWER) for c in PIQUET32.cards] for f in PIQUET32.cards] for t in SUITS}

# the phases of a deal
EXCHANGE, PROPOSE, ANSWER, PLAY = 0, 1, 2, 3
# who gets each of the 11 cards a deal takes from the talon's top (EC-1.2: 2 + 2, then 3 + 3, the elder hand
# first; the 11th is turned), by dealer
DEAL_TAKERS = [(1, 1, 0, 0, 1, 1, 1, 0, 0, 0, None), (0, 0, 1, 1, 0, 0, 0, 1, 1, 1, None)]

# one action object per card and per choice, made once
PLAY_CARD = {c: Action(c.text, c.label, c) for c in PIQUET32.cards}
ACT_SORT = {PLAY_CARD[c]: k for c, k in SORT.items()}
_CARD_OF = attrgetter("card")
PLAYED = [{c: (p, c) for c in PIQUET32.cards} for p in (0, 1)]   # (seat, card) as a trick holds it, made once
# the hot path filters a hand's actions at C speed: `filter(IN_SUIT[s], acts)` keeps the cards of suit s,
# `filter(TAKES[trump][first], acts)` those that take the trick the action `first` led (EC-3.5)
IN_SUIT = {s: frozenset(a for c, a in PLAY_CARD.items() if c.suit == s).__contains__ for s in SUITS}
TAKES = {t: {PLAY_CARD[f]: frozenset(PLAY_CARD[c] for c in PIQUET32.cards if BEATS[t][f.index][c.index]).__contains__
             for f in PIQUET32.cards} for t in SUITS}
# a discard is face down, so its text names the card's place in the hand (in the order shown: suits ♠ ♥ ♣ ♦,
# high to low), not the card: a record reproduces the game exactly, and the history shows nobody the card
DISCARD = [{c: Action(f"discard {i + 1}", "discard " + c.label, c, data="discard") for c in PIQUET32.cards}
           for i in range(HAND)]
DISCARD_ACT = [{PLAY_CARD[c]: a for c, a in d.items()} for d in DISCARD]   # by the card's play action
DISCARD_AT = {a: i for i, d in enumerate(DISCARD) for a in d.values()}     # a discard -> the place it names
BUY = [Action("keep", "keep my cards", data="buy")] + \
      [Action(f"buy {k}", f"buy {plural(k, 'card')}", data="buy") for k in range(1, HAND + 1)]
PROPOSE_A = Action("propose", "propose an exchange", data="propose")
STAND = Action("play", "play without exchanging", data="stand")
ACCEPT = Action("accept", "accept the exchange", data="accept")
REFUSE = Action("refuse", "refuse: play now", data="refuse")
ANNOUNCE = Action("announce", "announce the King of trumps", data="announce")
BUY_COUNT = {a: k for k, a in enumerate(BUY)}
WORDS = ("propose", "play", "accept", "refuse", "keep", "buy", "announce")   # the choices that are no card
OPTIONS = (
    Option("players", 2, choices=(2,), rule="EC-0", help="Écarté is a game for two players"),
    Option("exchange", "buy", choices=("buy", "propose"), rule="EC-2.1",
           help="how the exchange goes: both exchange freely (the source), or the classic proposal",
           labels={"buy": "both exchange freely (the source)", "propose": "propose and accept (classic)"}),
    Option("king_in_hand", False, choices=(False, True), rule="EC-2.4",
           help="the King of trumps in hand scores a point when announced (classic)"),
    Option("stake", 1, choices=(1, 2, 5, 10), rule="EC-2.5", help="units each player puts into the pot"),
    Option("staking", "once", choices=("once", "every deal"), rule="EC-2.5.1",
           help="when the stakes go into the pot", labels={"once": "once a match", "every deal": "every deal"}),
    Option("overtake", False, choices=(False, True), rule="EC-3.6",
           help="the duty to win the trick when you can (classic)"),
    Option("short_talon", "limit", choices=("limit", "fresh"), rule="EC-4.4",
           help="when the talon is too short: deal while it lasts, or only with a full exchange",
           labels={"limit": "deal while it lasts", "fresh": "only with a full exchange"}),
)


def answers(acts: list, led: str, trump: str, first=None) -> list:
    """EC-3.2 … EC-3.4: the actions of a hand (`acts`) that may answer a trick led in `led`: follow suit, else
    trump, else any card; `first` (the led card's action) under the duty to win the trick (EC-3.6): of those,
    the ones that take it, if any. ``tricks.playable`` with the rules of Écarté, filtering at C speed."""
    out = [*filter(IN_SUIT[led], acts)]
    if not out and led != trump:
        out = [*filter(IN_SUIT[trump], acts)]
    if not out:
        return acts[:]
    if first is not None:
        higher = [*filter(TAKES[trump][first], out)]
        if higher:
            return higher
    return out


def signed(n: int) -> str:
    return f"+{n}" if n > 0 else f"−{-n}" if n < 0 else "0"


def suit_words(s: str) -> str:
    return f"{SUIT_SYM[s]} {SUIT_NAME[s]}"


class Ecarte(Game):
    name = "ecarte"
    title = "Écarté"
    deck = PIQUET32
    option_specs = OPTIONS
    summary = ("Two players, five cards each and a turned trump; throw away and buy before the play, three "
               "tricks score a point, five tricks two; the first to five points takes the pot.")

    def __init__(self, **options):
        super().__init__(**options)
        o = self.options
        self._deck = tuple(PIQUET32.cards)
        self.classic = o["exchange"] == "propose"
        self.king_in_hand = o["king_in_hand"]
        self.overtake = o["overtake"]
        self.threshold = DEAL if o["short_talon"] == "limit" else FULL_EXCHANGE
        self.stake = o["stake"]
        self.stake_every_deal = o["staking"] == "every deal"

    def player_names(self) -> list[str]:
        return list(NAMES)

    def full_deck(self) -> list[Card]:
        return list(self._deck)

    def stack(self, hands: list, turned=None, talon=(), dealer: int = 1) -> str:
        """The deal text (a new shuffle) that gives these hands (5 cards each, in seat order: South, North),
        turns `turned` (default: the first card not listed) and leaves `talon` on top of the talon (top
        first); unlisted cards go below in the pack's order. The deal is 2 + 2, then 3 + 3, the elder hand
        (the non-dealer) first (EC-1.2); `dealer` is who deals it (North deals the first deal, EC-1.1)."""
        if not isinstance(hands, (list, tuple)):
            raise IllegalActionError("EC-1.2", f"give the hands as a list of 2 hands, not {type(hands).__name__}")
        if dealer not in (0, 1):
            raise IllegalActionError("EC-1.1", f"the dealer is seat 0 (South) or 1 (North), not {dealer!r}")
        hs = [PIQUET32.parse_many(h) for h in hands]
        if len(hs) != 2 or any(len(h) != HAND for h in hs):
            raise IllegalActionError("EC-1.2", "give 2 hands of 5 cards (South's, then North's)")
        e, d = hs[1 - dealer], hs[dealer]
        order = e[:2] + d[:2] + e[2:] + d[2:]
        top = ([PIQUET32.parse(turned)] if turned is not None else []) + PIQUET32.parse_many(talon)
        rest = list(self._deck)
        for c in order + top:
            if c not in rest:
                raise IllegalActionError("EC-0.1", f"{c.label} is listed twice (the pack holds each card once)")
            rest.remove(c)
        if turned is None:
            top.insert(0, rest.pop(0))
        return "deal: " + PIQUET32.format(order + top + rest)

    def rule_tables(self) -> dict:
        return {"ranks": ranks_table(), "beats": beats_table(self.options), "points": points_table(self.options),
                "settlement": settlement_table(self.options)}



class _Match:
    """What an Écarté state keeps beside the cards in play: the score and the pot, what this deal's exchange and
    Kings did, the record of the deals, and since the last shuffle the cards out of play and who got each card.
    The play of a card does not touch it. It is kept apart because CPython 3.11 gives up its fast attribute
    access on an object of 30 attributes or more: the state shows each of these as a read-only property."""
    __slots__ = ("points", "deal_points", "bought", "exchanges", "stood", "refused", "king_held", "king_turned",
                 "pot", "paid", "staked", "winner", "settlement", "shuffles", "shuffle", "done", "takers", "log")

    def __init__(self):
        self.points = [0, 0]
        self.deal_points = [0, 0]              # points made in this deal so far (Kings)
        self.bought = [0, 0]                   # cards bought in this deal, per player
        self.exchanges = 0                     # completed exchange rounds in this deal (classic: proposals)
        self.stood = False                     # EC-2.3: the elder hand played without proposing
        self.refused = False                   # EC-2.3: the dealer refused the first proposal
        self.king_held: int | None = None      # EC-2.4: who announced the King of trumps this deal
        self.king_turned = False
        self.pot = 0
        self.paid = [0, 0]
        self.staked = False
        self.winner: int | None = None
        self.settlement = [0, 0]
        self.shuffles = 0
        self.shuffle: tuple = ()               # the cards of the latest Deal
        # since the last shuffle: the cards out of play (see `out`), and who got each card (resample)
        self.done: list[tuple] = []            # each finished deal's (discards, tricks won, turned card, King held)
        self.takers: list = []                 # who got each card taken from the talon, in order (None: turned)
        self.log: list[tuple] = []             # each finished deal: what it scored (see `deals`)

    def copy(self) -> "_Match":
        c = _Match.__new__(_Match)
        for k in self.__slots__:
            v = getattr(self, k)
            setattr(c, k, list(v) if v.__class__ is list else v)
        return c


class EcarteNarration(Narration):
    """How a game of Écarté is told (`cardkit.game.Narration`)."""
    __slots__ = ()

    def describe(self, action, after: Self | None = None) -> str:
        if action.__class__ is Deal:
            d = NAMES[self.dealer]
            e = NAMES[1 - self.dealer]
            cards = action.cards
            turned = cards[DEAL - 1] if len(cards) >= DEAL else None
            line = (f"Deal {self.deal_no + 1}: {d} shuffles the whole pack and deals five cards each, two and two "
                    f"then three and three, {e} first [EC-1.2].")
            if turned is not None:
                line += self._turn_text(turned, self.dealer)
                line += f" {plural(32 - DEAL, 'card')} form the talon."
            return line
        p = self.current_player
        who = NAMES[p]
        ahead = after is None          # a move not yet made (the Hint): the next deal's cards are unseen
        if after is None:
            after = self._copy()
            after._apply(action)
        data = action.data
        if data == "discard":
            line = f"{who} throws a card away, face down [EC-2]."
        elif data == "buy":
            k = BUY_COUNT[action]
            line = (f"{who} keeps his cards [EC-2]." if k == 0 else
                    f"{who} buys {plural(k, 'card')} from the talon [EC-2].")
        elif data == "propose":
            line = f"{who} proposes an exchange [EC-2.1]."
        elif data in ("stand", "refuse"):
            verb = "plays without exchanging" if data == "stand" else "refuses the exchange"
            line = f"{who} {verb} [EC-2.1]"
            if self.exchanges == 0:                  # EC-2.3: standing at the first chance is a risk
                line += f": he must now take three tricks, or {NAMES[1 - p]} scores 2 [EC-2.3]."
            else:
                line += "."
        elif data == "accept":
            line = f"{who} accepts the exchange [EC-2.1]."
        elif data == "announce":
            line = (f"{who} announces the King of trumps ({KINGS[self._trump_suit()].label}): 1 point [EC-2.4]. "
                    f"Score: South {after.points[0]}, North {after.points[1]}.")
        else:
            line = self._play_text(action.card, after)
        return line + self._after_text(after, ahead)

    def round_result(self) -> str:
        done = [d for d in self.deals if d["why"] != "ended"]
        if not done:
            return ""
        d = done[-1]
        king = f" {NAMES[d['king_held']]} had announced the King of trumps: 1 point [EC-2.4]." \
            if d.get("king_held") is not None else ""
        return (f"Deal {d['deal']}: {self.deal_words(d)}.{king} Score: South {d['total'][0]}, North "
                f"{d['total'][1]} — {TARGET} points win.")


class EcarteState(EcarteNarration, State):
    game: Ecarte
    current_player = CHANCE                    # a plain attribute the game sets, not the base class's property
    if TYPE_CHECKING:                          # the _Match's fields, shown as read-only properties (below the class)
        points: list[int]
        deal_points: list[int]
        bought: list[int]
        exchanges: int
        stood: bool
        refused: bool
        king_held: int | None
        king_turned: bool
        pot: int
        paid: list[int]
        staked: bool
        winner: int | None
        settlement: list[int]
        shuffles: int
        shuffle: tuple

    # set up --------------------------------------------------------------------------------------
    def _start(self) -> None:
        # fewer than 30 attributes with the base class's (see _Match)
        self._acts: list[list[Action]] = [[], []]   # per player: PLAY_CARD[c] for each card of his hand (`hands`)
        self.talon: list[Card] = []            # the top of the talon is the END of the list
        self.turned: Card | None = None
        self.trump: str | None = None
        self._beats: list[list[bool]] | None = None   # BEATS under this deal's trumps
        self.dealer = 1                        # EC-1.1: North deals the first deal
        self.elder = 0
        self.phase = PLAY
        self.exch = 0                          # who is exchanging (phase EXCHANGE)
        self.ndisc = 0                         # cards thrown away in this turn of the exchange
        self.min_disc = 0                      # classic: the elder hand throws away at least one
        self.discards: list[list[Card]] = [[], []]   # this deal's discards, per player
        self.trick: list[tuple[int, Card]] = []
        self.led: str | None = None
        self.tricks = [0, 0]
        self.won: list[list[tuple]] = [[], []]   # this deal's tricks, per player
        self.last_trick: tuple | None = None     # (trick, winner, deal number, trick number, trumps)
        self.king_pending = [False, False]       # EC-2.4: may still announce (has not played a card yet)
        self.deal_no = 0
        self._m = _Match()
        self.current_player = CHANCE

    def _trump_suit(self) -> str:
        """This deal's trumps (read only once a deal is dealt)."""
        trump = self.trump
        assert trump is not None
        return trump

    def _led_suit(self) -> str:
        """The suit led to the trick under way (read only while there is one)."""
        led = self.led
        assert led is not None
        return led

    @property
    def hands(self) -> list[list[Card]]:
        """Each player's hand, in the order shown (suits ♠ ♥ ♣ ♦, high to low): the state keeps the cards' play
        actions (the legal actions are made of them), and the cards are read from those."""
        return [list(map(_CARD_OF, acts)) for acts in self._acts]

    @property
    def out(self) -> list[tuple]:
        """The cards out of play since the last shuffle, in the order they went out: (seat or None, card, face
        up?) for each finished deal's discards (face down), then its tricks, then its turned card."""
        out: list[tuple] = []
        for discards, won, turned, _ in self._m.done:
            out += [(p, c, False) for p in (0, 1) for c in discards[p]]
            out += [(q, c, True) for p in (0, 1) for t in won[p] for q, c in t]
            out.append((None, turned, True))
        return out

    @property
    def shown(self) -> list[tuple]:
        """(seat or None, card) for every card shown to both since the last shuffle: each deal's turned card,
        the King of trumps announced (EC-2.4), every card played. Worked out when asked (resample and the bots
        ask), not kept up at every card."""
        deals = self._m.done
        if self.current_player != CHANCE:              # the deal in play (at CHANCE every deal is finished)
            deals = deals + [(None, self.won, self.turned, self._m.king_held)]
        out: list[tuple] = []
        for _, won, turned, king in deals:
            out.append((None, turned))
            if king is not None:
                out.append((king, KINGS[turned.suit]))
            out += [pc for p in (0, 1) for t in won[p] for pc in t]
        out += self.trick
        return out

    @property
    def deals(self) -> list[dict]:
        """Each finished deal (and the one the match ended within): what it scored."""
        return [{"deal": n, "dealer": d, "trump": turned.suit, "turned": turned, "tricks": list(tricks),
                 "points": list(points), "winner": w, "why": why, "king_turned": kt, "king_held": kh,
                 "bought": list(bought), "total": list(total)}
                for n, d, turned, tricks, points, w, why, kt, kh, bought, total in self._m.log]

    @property
    def hands_dealt(self) -> int:
        """Deals made so far in the match (``cardkit bench`` counts them)."""
        return self.deal_no

    # dealing -------------------------------------------------------------------------------------
    def _deal(self, deal: Deal) -> list | None:
        """A new shuffle (EC-4.3): the whole pack is the talon, and the next deal comes from it. Returns the
        legal actions, as the steps of a deal below do (None: at CHANCE or TERMINAL, or not at hand)."""
        cards = deal.cards
        m = self._m
        m.shuffle = cards
        m.shuffles += 1
        m.done = []
        m.takers = []
        self.talon = list(cards[::-1])
        return self._deal_from_talon()

    def _deal_from_talon(self) -> list | None:
        """EC-1.2: 2 + 2, then 3 + 3 from the top of the talon, the elder hand first; the next card is turned
        (EC-1.3); a King scores the dealer a point (EC-1.4)."""
        t = self.talon
        d = self.dealer
        e = self.elder = 1 - d
        top = t[:-DEAL - 1:-1]                        # the talon's top 11 cards, top first
        del t[-DEAL:]
        pc = PLAY_CARD
        he = [pc[top[0]], pc[top[1]], pc[top[4]], pc[top[5]], pc[top[6]]]
        hd = [pc[top[2]], pc[top[3]], pc[top[7]], pc[top[8]], pc[top[9]]]
        turned = top[10]
        he.sort(key=ACT_SORT.__getitem__)
        hd.sort(key=ACT_SORT.__getitem__)
        acts = self._acts
        acts[e], acts[d] = he, hd
        self.turned = turned
        self.trump = turned.suit
        self._beats = BEATS[turned.suit]
        self.deal_no += 1
        # new lists for the new deal (the last deal's stay in `out` and `deals`); the trick is empty already
        self.discards = [[], []]
        self.tricks = [0, 0]
        self.won = [[], []]
        self.king_pending = [False, False]
        m = self._m
        m.takers += DEAL_TAKERS[d]
        m.bought = [0, 0]
        m.deal_points = [0, 0]
        m.king_held = None
        m.king_turned = False
        m.exchanges = 0
        m.stood = m.refused = False
        self.phase = EXCHANGE
        if turned.rank == "K":                        # EC-1.4
            m.king_turned = True
            if self._score(d, 1):
                return None
        return self._begin_exchange()

    def _score(self, p: int, pts: int) -> bool:
        """Credit `pts` to `p` now (EC-4.7); True if that ends the match (five points)."""
        m = self._m
        m.points[p] += pts
        m.deal_points[p] += pts
        if m.points[p] >= TARGET:
            self._end_match(p)
            return True
        return False

    # the exchange --------------------------------------------------------------------------------
    def _begin_exchange(self) -> list:
        if self.game.classic:
            if self.talon:
                self.phase = PROPOSE
                self.current_player = self.elder
                return [PROPOSE_A, STAND]
            return self._begin_play()
        return self._exchange_turn(self.elder)

    def _exchange_turn(self, p: int) -> list:
        """`p` exchanges (EC-2.2) — unless the talon is empty (EC-4.4)."""
        if not self.talon:
            return self._after_exchange(p)
        self.phase = EXCHANGE
        self.exch = p
        self.ndisc = 0
        self.min_disc = least = 1 if (self.game.classic and p == self.elder) else 0
        self.current_player = p
        out = [*map(dict.__getitem__, DISCARD_ACT, self._acts[p])]     # (as _exchange_legal: none thrown yet)
        if not least:
            out.append(BUY[0])
        return out

    def _after_exchange(self, p: int) -> list:
        if p == self.elder:
            return self._exchange_turn(self.dealer)
        self._m.exchanges += 1
        if self.game.classic and self.talon:
            self.phase = PROPOSE                      # EC-2.1 classic: the elder hand may propose again
            self.current_player = self.elder
            return [PROPOSE_A, STAND]
        return self._begin_play()

    def _begin_play(self) -> list:
        g = self.game
        m = self._m
        if g.stake_every_deal or not m.staked:        # EC-2.5, EC-2.5.1
            m.pot += 2 * g.stake
            m.paid[0] += g.stake
            m.paid[1] += g.stake
            m.staked = True
        self.phase = PLAY
        self.led = None
        if g.king_in_hand:                            # EC-2.4: the holder may announce it
            k = PLAY_CARD[KINGS[self._trump_suit()]]
            for p in (0, 1):
                self.king_pending[p] = k in self._acts[p]
        e = self.current_player = self.elder         # EC-3.1
        out = self._acts[e][:]                        # (as _legal at the lead)
        if g.king_in_hand and self.king_pending[e]:
            out.append(ANNOUNCE)
        return out

    # the protocol --------------------------------------------------------------------------------
    def _legal(self) -> list:
        p = self.current_player
        phase = self.phase
        if phase == PLAY:
            acts = self._acts[p]
            trick = self.trick
            g = self.game
            if not trick:
                out = acts[:]
            else:                                     # EC-3.2 … EC-3.4 (EC-3.6), on the hand's actions
                out = answers(acts, self._led_suit(), self._trump_suit(),
                              PLAY_CARD[trick[0][1]] if g.overtake else None)
            if g.king_in_hand and self.king_pending[p]:
                out.append(ANNOUNCE)
            return out
        if phase == EXCHANGE:
            return self._exchange_legal(p)
        if phase == PROPOSE:
            return [PROPOSE_A, STAND]
        return [ACCEPT, REFUSE]

    def _exchange_legal(self, p: int) -> list:
        nd = self.ndisc
        # the i-th card of the hand as shown is "discard i+1"
        out = [*map(dict.__getitem__, DISCARD_ACT, self._acts[p])] if len(self.talon) > nd else []
        if nd >= self.min_disc:
            out.append(BUY[nd])
        return out

    def _apply(self, action) -> list | None:
        # returns the next player's legal actions where they are at hand (the protocol then skips _legal)
        card = action.card
        data = action.data
        p = self.current_player
        if data is None:                              # a card played (EC-3)
            acts = self._acts[p]                      # (`action` is PLAY_CARD[card], the object of the legal list)
            acts.remove(action)
            g = self.game
            if g.king_in_hand:
                self.king_pending[p] = False          # EC-2.4: too late to announce once a card is played
            trick = self.trick
            if not trick:
                trick.append(PLAYED[p][card])
                led = self.led = card.suit
                q = self.current_player = 1 - p
                acts = self._acts[q]
                trump = self.trump
                assert trump is not None               # (dealt)
                out: list
                if g.overtake:
                    out = answers(acts, led, trump, action)
                else:                                 # (answers, inline: follow suit, else trump, else any)
                    out = [*filter(IN_SUIT[led], acts)]
                    if not out:
                        if led != trump:
                            out = [*filter(IN_SUIT[trump], acts)]
                        if not out:
                            out = acts[:]
                if g.king_in_hand and self.king_pending[q]:
                    out.append(ANNOUNCE)
                return out
            lead = trick[0]
            lp, first = lead
            beats_ = self._beats
            assert beats_ is not None                 # (dealt)
            w = p if beats_[first.index][card.index] else lp          # EC-3.5
            t = (lead, PLAYED[p][card])
            self.won[w].append(t)
            tricks = self.tricks
            tricks[w] += 1
            n = tricks[0] + tricks[1]
            self.last_trick = (t, w, self.deal_no, n, self.trump)
            trick.clear()
            self.led = None
            if n < HAND:
                self.current_player = w                      # EC-3.1: the winner leads
                return self._acts[w][:]                      # (both have played a card: no King to announce)
            return self._end_deal()
        if data == "discard":
            acts = self._acts[p]
            del acts[DISCARD_AT[action]]              # the card at the place the discard names
            self.discards[p].append(card)
            nd = self.ndisc = self.ndisc + 1
            # (as _exchange_legal)
            out = [*map(dict.__getitem__, DISCARD_ACT, acts)] if len(self.talon) > nd else []
            if nd >= self.min_disc:
                out.append(BUY[nd])
            return out
        m = self._m
        if data == "buy":
            k = self.ndisc
            if k:
                talon = self.talon
                acts = self._acts[p]
                acts += map(PLAY_CARD.__getitem__, talon[:-k - 1:-1])    # the talon's top k cards
                del talon[-k:]
                acts.sort(key=ACT_SORT.__getitem__)
                m.takers += (p,) * k
            m.bought[p] += k
            return self._after_exchange(p)
        if data == "announce":                        # EC-2.4
            self.king_pending[p] = False
            m.king_held = p
            self._score(p, 1)
            return None
        if data == "propose":
            self.phase = ANSWER
            self.current_player = self.dealer
            return [ACCEPT, REFUSE]
        if data == "stand":                           # EC-2.3: standing at the first chance is a risk
            if m.exchanges == 0:
                m.stood = True
            return self._begin_play()
        if data == "refuse":
            if m.exchanges == 0:
                m.refused = True
            return self._begin_play()
        # accept
        return self._exchange_turn(self.elder)

    def _end_deal(self) -> list | None:
        """EC-4.1: three or four tricks one point, five two; EC-2.3 the classic risk of standing."""
        tricks = self.tricks
        w = 0 if tricks[0] >= 3 else 1
        pts = 2 if tricks[w] == HAND else 1
        why = "vole" if pts == 2 else "point"
        m = self._m
        if self.game.classic and pts == 1 and ((m.stood and w == self.dealer) or (m.refused and w == self.elder)):
            pts, why = 2, "stood"
        return self._finish_deal(w, pts, why)

    def _finish_deal(self, w, pts, why) -> list | None:
        ended = w is not None and self._score(w, pts)
        self._log_deal(w, why)
        if ended:
            return None
        return self._next_deal()

    def _log_deal(self, w, why) -> None:
        # the deal's lists of tricks, points and cards bought are not copied: each deal makes new ones
        m = self._m
        m.log.append((self.deal_no, self.dealer, self.turned, self.tricks, m.deal_points, w, why, m.king_turned,
                      m.king_held, m.bought, (*m.points,)))

    def _next_deal(self) -> list | None:
        """EC-4.2 / EC-4.3: the other player deals, from the talon while it serves (EC-4.4), else a new
        shuffle (CHANCE)."""
        self._m.done.append((self.discards, self.won, self.turned, self._m.king_held))   # (a new deal: new lists)
        self.dealer = 1 - self.dealer
        self.elder = 1 - self.dealer
        if len(self.talon) >= self.game.threshold:
            return self._deal_from_talon()
        self.current_player = CHANCE
        return None

    def _end_match(self, w: int) -> None:
        """EC-4.5 / EC-4.6: the winner takes the pot; a loser on 0 pays it once more."""
        m = self._m
        m.winner = w
        lose = 1 - w
        gain = m.paid[lose] + (m.pot if m.points[lose] == 0 else 0)
        m.settlement = [0, 0]
        m.settlement[w], m.settlement[lose] = gain, -gain
        self.current_player = TERMINAL
        if self.phase != PLAY or self.trick or sum(self.tricks) < HAND:   # ended within a deal (EC-4.7)
            if not m.log or m.log[-1][0] != self.deal_no:
                self._log_deal(None, "ended")

    # results -------------------------------------------------------------------------------------
    def _scores(self) -> list:
        """The match points while it is played; once it is over, the settlement in units of the stake
        (EC-2.5, EC-4.5, EC-4.6): what each player won or lost."""
        if self.current_player == TERMINAL:
            return list(self._m.settlement)
        return list(self._m.points)

    def _winners(self) -> list[int]:
        w = self._m.winner
        return [w] if w is not None else []

    def _snapshot(self) -> tuple:
        t = lambda cs: tuple(c.text for c in cs)  # noqa: E731
        tr = lambda tk: tuple((p, c.text) for p, c in tk)  # noqa: E731
        return (tuple(t(h) for h in self.hands), t(self.talon), self.turned.text if self.turned else None,
                self.dealer, self.elder, self.phase, self.exch, self.ndisc, self.min_disc, self.exchanges,
                self.stood, self.refused, tuple(self.bought), tuple(t(d) for d in self.discards), tr(self.trick),
                tuple(self.tricks), tuple(tuple(tr(x) for x in w) for w in self.won), tuple(self.points),
                tuple(self.deal_points), self.king_held, tuple(self.king_pending), self.king_turned, self.deal_no,
                self.shuffles, self.pot, tuple(self.paid), self.staked, self.winner, tuple(self.settlement),
                tuple((p, c.text, f) for p, c, f in self.out), self.current_player,
                None if self.last_trick is None else (tr(self.last_trick[0]), *self.last_trick[1:]),
                tuple(tuple(sorted((k, v.text if isinstance(v, Card) else tuple(v) if isinstance(v, list) else v)
                                   for k, v in d.items())) for d in self.deals))

    def _fork(self) -> "EcarteState":
        """An independent copy of the position (clone, undo, resample, the expert's playouts): `_copy` with its
        own history, dealer's RNG and RNG log."""
        return self._own(self._copy())

    def _copy(self) -> Self:
        """A light copy for looking ahead (describe): shares the game and the history."""
        c = object.__new__(type(self))
        c.__dict__.update(self.__dict__)
        c._acts = [list(a) for a in self._acts]
        c.talon = list(self.talon)
        c.discards = [list(d) for d in self.discards]
        c.trick = list(self.trick)
        c.tricks = list(self.tricks)
        c.won = [list(w) for w in self.won]
        c.king_pending = list(self.king_pending)
        c._m = self._m.copy()
        c._legal_cache = None
        return c

    # why an action is not legal, in the words of the buttons ---------------------------------------
    def _illegal(self, text: str) -> IllegalActionError:
        p = self.current_player
        who = NAMES[p]
        t = text.strip().lower()
        phase = self.phase
        word = t.split()[0] if t else ""
        if word in WORDS:
            return self._illegal_word(word, text)
        is_discard = word == "discard"
        body = t[len("discard"):].strip() if is_discard else t
        if phase == PROPOSE:
            return IllegalActionError("EC-2.1", f"first the exchange: {who} proposes an exchange or plays "
                                      "without exchanging", text)
        if phase == ANSWER:
            return IllegalActionError("EC-2.1", f"{NAMES[self.elder]} proposes an exchange: accept or refuse it "
                                      "first", text)
        if is_discard and phase != EXCHANGE:
            return IllegalActionError("EC-2", "the exchange is over: play a card", text)
        hand = self.hands[p]
        card = None
        if not (is_discard and body.isdigit()):
            try:
                card = PIQUET32.parse(body)
            except CardError:
                return IllegalActionError("EC-0.1", f"{text!r} is not a card of the 32-card pack (7 … Ace) nor a "
                                          "choice of the table; write rank then suit, e.g. KH, AS, 10D, 7C", text)
        if card is not None and card not in hand:
            verb = "throw away" if phase == EXCHANGE else "play"
            return IllegalActionError("EC-2" if phase == EXCHANGE else "EC-3",
                                      f"you do not hold {card.label}: {verb} a card from your own hand", text)
        if phase == EXCHANGE:
            if len(self.talon) - self.ndisc <= 0:
                return IllegalActionError("EC-4.4", f"the talon holds only {plural(len(self.talon), 'card')}: you "
                                          f"may throw away no more than that — buy {len(self.talon)}", text)
            if card is None:
                return IllegalActionError("EC-2.2", f"your hand holds {plural(len(hand), 'card')}: discard 1 … "
                                          f"{len(hand)} (its place in your hand as shown), or click the card", text)
            return IllegalActionError("EC-2.2", f"in the exchange you throw cards away: click {card.label} or "
                                      f"write “discard {hand.index(card) + 1}” (its place in your hand)", text)
        if not self.trick:
            return super()._illegal(text)
        first = self.trick[0][1]
        led = self._led_suit()
        duty = why_not(card, hand, led, SUIT, self.trump, True, first if self.game.overtake else None, POWER)
        if duty == FOLLOW:
            return IllegalActionError("EC-3.2", f"you hold a {SUIT_ONE[led]}: follow suit", text)
        if duty == TRUMP:
            return IllegalActionError("EC-3.3", f"you have no {SUIT_ONE[led]} but hold a trump "
                                      f"({SUIT_NAME[self._trump_suit()].lower()}): you must trump", text)
        if duty == OVERTAKE:
            return IllegalActionError("EC-3.6", f"you can beat the {first.label}: you must win the trick", text)
        return super()._illegal(text)

    def _illegal_word(self, word: str, text: str) -> IllegalActionError:
        """Why a choice of the exchange (propose, play, accept, refuse, keep, buy) or announce is not legal."""
        phase = self.phase
        if word in ("propose", "play", "accept", "refuse"):
            if not self.game.classic:
                return IllegalActionError("EC-2.1", "both players exchange freely here: nobody proposes or "
                                          "accepts; throw cards away and buy, or keep your cards", text)
            if phase == PLAY:
                return IllegalActionError("EC-2.1", "the exchange is over: play a card", text)
            if word in ("accept", "refuse"):
                return IllegalActionError("EC-2.1", "only the dealer accepts or refuses, once the elder hand has "
                                          "proposed an exchange", text)
            return IllegalActionError("EC-2.1", "only the elder hand proposes or plays on, before an exchange",
                                      text)
        if word == "announce":
            if not self.game.king_in_hand:
                return IllegalActionError("EC-2.4", "the King of trumps in hand scores nothing here: only a "
                                          "turned King scores", text)
            if phase != PLAY:
                return IllegalActionError("EC-2.4", "the King of trumps is announced in the play, before your "
                                          "first card", text)
            return IllegalActionError("EC-2.4", "only the holder of the King of trumps may announce it, before "
                                      "playing his first card of the deal", text)
        # keep / buy
        if phase != EXCHANGE:
            return IllegalActionError("EC-2", "it is not the exchange now", text)
        if self.ndisc < self.min_disc:
            return IllegalActionError("EC-2.1", "you proposed the exchange: throw away at least one card first",
                                      text)
        return IllegalActionError("EC-2.2", f"you have thrown away {plural(self.ndisc, 'card')}: "
                                  + ("keep your cards" if self.ndisc == 0 else f"buy {self.ndisc}"), text)

    # what resample needs -----------------------------------------------------------------------------
    def _deal_owners(self) -> list:
        takers = self._m.takers                   # the talon is taken from the shuffle's first card on
        return takers + [None] * (len(self._m.shuffle) - len(takers))

    def _revealed(self) -> list:
        return list(self.shown)

    # presentation --------------------------------------------------------------------------------
    def _view(self, player: int | None = None) -> View:
        g = self.game
        teacher = player is None
        cp = self.current_player
        king = KINGS.get(self._trump_suit()) if self.king_held is not None else None
        seats = []
        for p in (0, 1):
            h = self.hands[p]
            hand: list[Card | None]
            if teacher or player == p:
                hand = list(h)
            elif self.king_held == p and king in h:
                hand = [king] + [None] * (len(h) - 1)
            else:
                hand = [None] * len(h)
            role = "dealer" if p == self.dealer else "elder hand"
            info = role if cp == CHANCE and not self.deal_no else f"{role} · {plural(self.tricks[p], 'trick')}"
            seats.append(Seat(p, NAMES[p], hand, score=plural(self.points[p], "point"), info=info,
                              current=p == cp))
        piles = []
        if self.trick or (cp >= 0 and self.phase == PLAY):
            note = f"{SUIT_ONE[self._led_suit()]}s led" if self.trick else ""
            piles.append(Pile("Trick", [(NAMES[q], c) for q, c in self.trick], note=note, kind="trick"))
        if self.turned is not None:
            piles.append(Pile("Trump card", [("", self.turned)], note=f"trumps: {SUIT_NAME[self._trump_suit()].lower()}"))
        piles.append(Pile("Talon", [], count=len(self.talon), kind="stock"))
        if any(self.discards):
            piles.append(Pile("Discards", [(NAMES[q], c if teacher or player == q else None)
                                           for q in (0, 1) for c in self.discards[q]],
                              note="face down; each player knows his own"))
        if self.last_trick:
            piles.append(Pile("Last trick", [(NAMES[q], c) for q, c in self.last_trick[0]], kind="last-trick",
                              note=self.trick_note(self.last_trick), taker=self.last_trick[1]))
        for p in (0, 1):
            piles.append(Pile(f"Won by {NAMES[p]}", [(NAMES[q], c) for t in self.won[p] for q, c in t], kind="won"))
        if self.out:
            piles.append(Pile("Out of play since the shuffle",
                              [(NAMES[q] if q is not None else "turned", c if (up or teacher or player == q) else None)
                               for q, c, up in self.out], kind="won"))
        legal = list(self.legal_actions()) if cp >= 0 and player in (None, cp) else []
        term = cp == TERMINAL
        return View(g.name, g.title, player, seats, piles, self.status(), cp if cp >= 0 else None, term,
                    self.result_text() if term else "", legal, facts=self.facts(),
                    hand_action="throw it away (face down)" if self.phase == EXCHANGE and cp >= 0 else "")

    def facts(self) -> list:
        """The public facts of the match, in plain words (View.facts)."""
        g = self.game
        out = []
        if self.turned is not None and self.current_player != CHANCE:
            out.append(("Trump", f"{suit_words(self._trump_suit())} — the {self.turned.label} turned"))
        nxt = NAMES[self.dealer] if self.current_player == CHANCE else NAMES[1 - self.dealer]
        if self.current_player == CHANCE:
            out.append(("Dealer", f"{NAMES[self.dealer]} deals next, from a new shuffle"))
        elif self.current_player != TERMINAL:
            out.append(("Dealer", f"{NAMES[self.dealer]} — {NAMES[self.elder]} leads; {nxt} deals next"))
        out.append(("Score", f"South {self.points[0]}, North {self.points[1]} · {TARGET} points win"))
        if self.king_held is not None and self.current_player != CHANCE:
            out.append(("King of trumps", f"{NAMES[self.king_held]} announced it: 1 point"))
        out.append(("Talon", f"{plural(len(self.talon), 'card')} — a new shuffle when it cannot give a deal"))
        stake = g.stake
        if self.pot:
            out.append(("Pot", f"{plural(self.pot, 'unit')} ({plural(self.paid[0], 'unit')} from each)"))
        else:
            out.append(("Pot", f"empty — {plural(stake, 'unit')} each after the exchange"))
        out.append(("Rank order", ORDER_TEXT))
        return out

    def trick_note(self, last) -> str:
        (lp, first), (fp, second) = last[0]
        w, trump = last[1], last[4]
        if SUIT[second] == SUIT[first]:
            why = f"the higher {SUIT_ONE[SUIT[first]]} takes it"
        elif SUIT[second] == trump:
            why = "a trump takes it"
        else:
            why = f"{NAMES[fp]} played another suit: the {SUIT_ONE[SUIT[first]]} led takes it"
        return f"won by {NAMES[w]}: {why} [EC-3.5]"

    def progress(self) -> tuple[str, str]:
        if self.current_player == CHANCE:
            return f"Deal {self.deal_no + 1}", ""
        if self.current_player == TERMINAL:
            return f"Deal {self.deal_no}", "End of the match"
        if self.phase != PLAY:
            return f"Deal {self.deal_no}", "Exchange"
        return f"Deal {self.deal_no}", f"Trick {self.tricks[0] + self.tricks[1] + 1}"

    def score_table(self):
        rows = []
        for d in self.deals:
            tricks = "—" if d["why"] == "ended" and not any(d["tricks"]) else f"{d['tricks'][0]}–{d['tricks'][1]}"
            notes = []
            if d["king_turned"]:
                notes.append(f"King turned: {NAMES[d['dealer']]} +1")
            if d["king_held"] is not None:
                notes.append(f"King of trumps: {NAMES[d['king_held']]} +1")
            if d["why"] == "vole":
                notes.append("five tricks: 2 points")
            elif d["why"] == "stood":
                notes.append("the player who stood lost: 2 points")
            elif d["why"] == "ended":
                notes.append("the match ended within the deal")
            rows.append([f"Deal {d['deal']}", NAMES[d["dealer"]], suit_words(d["trump"]), tricks,
                         f"+{d['points'][0]}", f"+{d['points'][1]}", "; ".join(notes)])
        rows.append(["Points", "", "", "", str(self.points[0]), str(self.points[1]), ""])
        winner = self.winner
        if self.current_player == TERMINAL and winner is not None:   # (the match over: it has a winner)
            s = self.settlement
            rows.append(["Units won", "", "", "", signed(s[0]), signed(s[1]),
                         f"pot {plural(self.pot, 'unit')}" + ("; the loser had no point: he pays it once more"
                                                             if self.points[1 - winner] == 0 else "")])
        return Table(["", "dealer", "trump", "tricks South–North", "South", "North", "notes"], rows,
                     "Points per deal (EC-4.1, EC-1.4, EC-2.4) and the pot (EC-4.5, EC-4.6)")

    def status(self) -> str:
        cp = self.current_player
        if cp == CHANCE:
            return f"Deal {self.deal_no + 1}: {NAMES[self.dealer]} shuffles the whole pack and deals."
        if cp == TERMINAL:
            return self.result_text()
        who = NAMES[cp]
        if self.phase == PROPOSE:
            return f"{who} may propose an exchange or play without exchanging."
        if self.phase == ANSWER:
            return f"{NAMES[self.elder]} proposes an exchange: {who} accepts or refuses."
        if self.phase == EXCHANGE:
            room = len(self.talon)
            if self.ndisc:
                return (f"{who} has thrown away {plural(self.ndisc, 'card')}: more, or buy {self.ndisc} "
                        f"(the talon holds {room}).")
            need = " at least one" if self.min_disc else ""
            return (f"{who} may throw away{need} cards face down and buy as many from the talon "
                    f"({plural(room, 'card')} in it).")
        if not self.trick:
            return f"Deal {self.deal_no}: {who} leads."
        return f"{who} answers the {self.trick[0][1].label}."

    def result_text(self) -> str:
        if self.winner is None:
            return ""
        w, lose = self.winner, 1 - self.winner
        gain = self.settlement[w]
        zero = " — the loser has no point and pays the pot once more" if self.points[lose] == 0 else ""
        return (f"{NAMES[w]} wins the match {self.points[w]}–{self.points[lose]} after "
                f"{plural(self.deal_no, 'deal')} and takes the pot of {plural(self.pot, 'unit')}{zero}: "
                f"{NAMES[w]} +{plural(gain, 'unit')}, {NAMES[lose]} −{plural(gain, 'unit')}.")

    # narration -----------------------------------------------------------------------------------
    def _turn_text(self, turned: Card, dealer: int) -> str:
        line = f" The eleventh card, {turned.label}, is turned: {SUIT_NAME[turned.suit].lower()} are trumps [EC-1.3]."
        if turned.rank == "K":
            line += f" A King: {NAMES[dealer]} scores 1 point at once [EC-1.4]."
        return line

    def _play_text(self, card: Card, after) -> str:
        who = NAMES[self.current_player]
        if not self.trick:
            return f"{who} leads {card.label}."
        first = self.trick[0][1]
        led = self._led_suit()
        w = after.last_trick[1]
        if SUIT[card] == led:
            if w == self.current_player:
                return f"{who} follows with {card.label} and takes the trick [EC-3.5]."
            return f"{who} follows with {card.label}: {NAMES[w]}'s {first.label} takes the trick [EC-3.5]."
        if SUIT[card] == self.trump:
            return f"{who} has no {SUIT_ONE[led]} and trumps with {card.label} [EC-3.3]: the trick is his [EC-3.5]."
        return (f"{who} has neither a {SUIT_ONE[led]} nor a trump and plays {card.label} [EC-3.4]: {NAMES[w]}'s "
                f"{first.label} takes the trick [EC-3.5].")

    def deal_words(self, d: dict) -> str:
        """What a finished deal scored, in words."""
        w = d["winner"]
        t = d["tricks"][w]
        if d["why"] == "vole":
            how = "all five tricks: 2 points [EC-4.1]"
        elif d["why"] == "stood":
            how = f"{plural(t, 'trick')}; {NAMES[1 - w]}, who stood, did not make three: 2 points [EC-2.3]"
        else:
            how = f"{plural(t, 'trick')}: 1 point [EC-4.1]"
        return f"{NAMES[w]} takes {how}"

    @property
    def match(self):
        """The match so far: its deals (`log`), who stood and who refused a proposal: read it, do not change it."""
        return self._m

    def _after_text(self, after, ahead: bool = False) -> str:
        """What followed by itself: the end of the exchange, the end of the deal, the next deal, the end.
        `ahead`: narrating a move not yet made, so the card the next deal turns is not named."""
        line = ""
        if self.phase != PLAY and after.phase == PLAY and after.deal_no == self.deal_no:
            staked = after.pot - self.pot
            if staked:
                line += (f" The exchange is over; both put {plural(self.game.stake, 'unit')} into the pot, which "
                         f"holds {plural(after.pot, 'unit')} [EC-2.5].")
            else:
                line += " The exchange is over."
            line += f" {NAMES[after.elder]} leads [EC-3.1]."
        elif after.current_player >= 0 and after.phase == EXCHANGE and \
                (self.phase != EXCHANGE or after.exch != self.exch) and after.deal_no == self.deal_no:
            line += f" {NAMES[after.exch]} exchanges next."
        elif self.phase == EXCHANGE and after.phase == PROPOSE:
            line += f" {NAMES[after.elder]} may propose again."
        if len(after.deals) > len(self.deals):
            d = after.deals[len(self.deals)]
            if d["why"] != "ended":
                line += f" {self.deal_words(d)}. Score: South {d['total'][0]}, North {d['total'][1]}."
        if after.deal_no > self.deal_no and after.current_player != CHANCE:
            left = len(after.talon)
            line += (f" Deal {after.deal_no}: {NAMES[after.dealer]} deals from the talon, two and two then three "
                     f"and three [EC-4.3].") + ("" if ahead else self._turn_text(after.turned, after.dealer)) + \
                f" {plural(left, 'card')} left in the talon."
        elif after.current_player == CHANCE and self.current_player != CHANCE:
            line += (f" The talon holds {plural(len(after.talon), 'card')}, too few for the next deal"
                     + (" and a full exchange" if self.game.threshold > DEAL else "")
                     + ": the whole pack is shuffled again [EC-4.3, EC-4.4].")
        if after.current_player == TERMINAL:
            line += " " + after.result_text()
        return line


# the parts of a state kept in its _Match, read as before: state.points, state.pot, …
for _name in ("points", "deal_points", "bought", "exchanges", "stood", "refused", "king_held", "king_turned",
              "pot", "paid", "staked", "winner", "settlement", "shuffles", "shuffle"):
    setattr(EcarteState, _name, property(attrgetter("_m." + _name)))
del _name
Ecarte.State = EcarteState
GAME = Ecarte


# --- tables generated from the engine ----------------------------------------------------------------
def ranks_table() -> Table:
    rows = [[RANK_NAME[r], str(len(ORDER) - i)] for i, r in enumerate(reversed(ORDER))]
    return Table(["card", "rank in its suit (8 highest)"], rows,
                 "The rank order in every suit, highest first: the Ace between the Jack and the 10")


def beats_table(opts: dict) -> Table:
    """Who takes a trick led with the J♥, hearts led, spades trumps: computed with the engine's trick rule."""
    p = PIQUET32.parse
    led = p("JH")
    rows = []
    for label, card in (("a higher heart (Q♥)", p("QH")), ("a lower heart (A♥)", p("AH")),
                        ("a trump (7♠)", p("7S")), ("another suit, however high (K♣)", p("KC"))):
        w = "the second card" if beats(card, led, "H", "S", SUIT, POWER) else "the led J♥"
        rows.append([label, w])
    rows.append(["trumps led (J♠), a higher trump (Q♠)",
                 "the second card" if beats(p("QS"), p("JS"), "S", "S", SUIT, POWER) else "the led J♠"])
    return Table(["J♥ led (♠ trumps), answered with", "takes the trick"], rows,
                 "Who takes the trick")


def points_table(opts: dict) -> Table:
    rows = [["0, 1 or 2", "nothing (the other player has 3 or more)"], ["3 or 4", "1 point"], ["5", "2 points"]]
    if opts["exchange"] == "propose":
        rows.append(["… the other player stood (played without proposing, or refused the first proposal) and "
                     "took fewer than 3", "2 points (EC-2.3)"])
    return Table(["tricks in the deal", "points"], rows,
                 f"Points for the tricks of a deal; {TARGET} points win the match")


def settlement_table(opts: dict) -> Table:
    s = opts["stake"]
    if opts["staking"] == "once":
        pot = 2 * s
        rows = [["the loser has 1 point or more", f"+{plural(s, 'unit')}", f"−{plural(s, 'unit')}"],
                ["the loser has no point", f"+{plural(s + pot, 'unit')}", f"−{plural(s + pot, 'unit')}"]]
        cap = f"What the match is worth: the pot holds {plural(pot, 'unit')}, {s} from each"
    else:
        rows = [["the loser has 1 point or more", f"+{s} × deals staked", f"−{s} × deals staked"],
                ["the loser has no point", f"+{3 * s} × deals staked", f"−{3 * s} × deals staked"]]
        cap = f"What the match is worth: {s} from each into the pot every deal"
    return Table(["end of the match", "the winner", "the loser"], rows, cap)
