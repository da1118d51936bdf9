"""Whist for four players in two partnerships, played as a whole game: deal after deal to the target.

Source: the Whist page of ``004_…`` (the 7th Sea quick rules, in English). Where it is silent the kit uses
the classic game (the 19th-century laws of Long and Short Whist) and says so; the classic scoring can be
played too (``ruleset``). Rule IDs refer to ``cardkit/rules/whist.toml``.

Seats in the order of play (to the left): South 0, West 1, North 2, East 3; North–South (even seats) play
against East–West (odd seats). The first chance action is the draw for the first dealer (WH-1.3), every
later one a hand: the 52 cards in the order dealt, one at a time from the dealer's left, the last turned
up for trumps (WH-2). Between hands ``current_player`` is CHANCE and the protocol deals.

``mode="strict"`` (the default) refuses a revoke; ``mode="table"`` plays the rules as written: a revoke
may be played, the partner asks "having none?" after every card that does not follow suit (the revoker may
correct it), the opponents may claim a revoke once the cards have shown it, both sides revoking throws the
hand in, and a stacked deal may expose a card (a misdeal: any player may demand a redeal).

The hot path (strict mode, random play) is kept lean: one `Action` per card made once, hands kept by suit
as lists of those actions, the trick's winner kept as the cards come (as `cardkit.tricks.winner` finds it),
the next player's legal cards worked out by the move itself, the state's attributes in slots, no string
formatting in `_apply` (narration is `describe`, on demand).
"""
from __future__ import annotations

from operator import attrgetter
from typing import Any, Self, Sequence

from ..cards import FRENCH52, Card
from ..errors import CardError, CardkitError, IllegalActionError
from ..game import CHANCE, TERMINAL, Action, Deal, Game, Narration, State
from ..options import Option
from ..rng import Rng
from ..rules import Table
from ..tricks import playable_grouped, winner
from ..view import Pile, Seat, View, plural

NAMES = ["South", "West", "North", "East"]
TEAMS = ["North–South", "East–West"]
SUITS = ("C", "S", "H", "D")                       # the pack's order
SUIT_PLURAL = {"C": "clubs", "S": "spades", "H": "hearts", "D": "diamonds"}
SUIT_ONE = {"C": "club", "S": "spade", "H": "heart", "D": "diamond"}
SUIT_SYM = {"C": "♣", "S": "♠", "H": "♥", "D": "♦"}
SUIT_TITLE = {"C": "Clubs", "S": "Spades", "H": "Hearts", "D": "Diamonds"}
RANK_WORD = {"A": "Ace", "K": "King", "Q": "Queen", "J": "Jack"}
CARDS = FRENCH52.cards
FULL = frozenset(CARDS)
PLAY = {c: Action(c.text, c.label, c) for c in CARDS}      # one action object per card
CARD_OF = attrgetter("card")
INDEX_OF = attrgetter("index")
SUIT_OF = {c: c.suit for c in CARDS}                        # WH-1.2: four suits, no suit ranks another
POWER = {c: c.value for c in CARDS}                         # WH-1.2: 2 … 10, J, Q, K, A (Aces high)
HIGH_FIRST = {c: -c.value for c in CARDS}.__getitem__           # a suit's cards, the highest first
HONOURS = frozenset(("A", "K", "Q", "J"))                   # WH-5.6.2
HONOUR_CARDS = {s: frozenset(c for c in CARDS if c.suit == s and c.rank in HONOURS) for s in SUITS}
REDEAL = Action("redeal", "demand a redeal", data="redeal")
PLAY_ON = Action("play on", "play on", data="play on")
NONE = Action("none", "having none", data="none")
CLAIM = Action("claim", "claim the revoke", data="claim")
NO_CLAIM = Action("no claim", "no claim", data="no claim")
NO_CALL = Action("no call", "no call: not now", data="no call")                  # WH-4.8.1
CALL = {c: Action(f"call {c.text}", f"call the {c.label}", data=("call", c)) for c in CARDS}
PLAYING, MISDEAL, ASKED, CLAIMING, CALLING = 0, 1, 2, 3, 4  # what the player on turn is to do
TRICKS = 13
SOURCE_TARGET = 7                                           # WH-5.4 hand points, WH-5.5 game points
CLASSIC_TARGET = {"long": 10, "short": 5}                   # WH-5.6.4

OPTIONS = (
    Option("players", 4, choices=(4,), rule="WH-1.1",
           help="four players in two partnerships, partners opposite"),
    Option("mode", "strict", choices=("strict", "table"), rule="WH-4.4",
           help="revokes and misdeals: refused by the kit, or played as at a real table",
           labels={"strict": "strict: the kit refuses a revoke",
                   "table": "as at the table: revokes are corrected or claimed"}),
    Option("ruleset", "source", choices=("source", "long", "short"), rule="WH-5.6",
           help="the scoring: the quick rules, or classic Long or Short Whist",
           labels={"source": "the quick rules (hand points, game points)",
                   "long": "Long Whist: honours, 10 points a game, the rubber",
                   "short": "Short Whist: honours, 5 points a game, the rubber"}),
    Option("first_dealer", "highest", choices=("highest", "lowest"), rule="WH-1.3",
           help="who deals first: the highest card drawn, or the lowest with the Ace low",
           labels={"highest": "the highest card (the quick rules)", "lowest": "the lowest card, Ace low (classic)"}),
    Option("revoke_bar", "game", choices=("game", "hand"), rule="WH-5.3",
           help="what a side that revoked cannot win in that hand (the quick rules' scoring)",
           labels={"game": "the game: its seventh game point", "hand": "its seventh hand point"}),
    Option("calling", "partner", choices=("partner", "opponents"), rule="WH-4.8.1",
           help="who may call a shown card to be played (as at the table): the holder's partner or the opponents",
           labels={"partner": "his partner (the quick rules)", "opponents": "the opponents (the classic laws)"}),
    Option("first_six", "book", choices=("book", "played"), rule="WH-5.1.1",
           help="the six tricks that do not score (the quick rules' scoring): each side's first six, or the "
                "hand's first six played",
           labels={"book": "each side's first six (its book)", "played": "the first six tricks of the hand"}),
)

# the draw for the first dealer, 64 bits at a time: the Fisher-Yates positions of a 52-card shuffle grouped
# so that the product of each group's sizes fits below 2**64 (each group is one uniform draw, decoded in
# mixed radix: exactly uniform, a few times faster than one draw per position)
_GROUPS: list = []                 # (product, ((position, its range), …))
_i = 51
while _i > 0:
    _prod, _steps = 1, []
    while _i > 0 and _prod * (_i + 1) < 1 << 64:
        _prod *= _i + 1
        _steps.append((_i, _i + 1))
        _i -= 1
    _GROUPS.append((_prod, tuple(_steps)))
del _i, _prod, _steps


def shuffled_pack(rng: Rng) -> list:
    """A uniformly shuffled 52-card pack drawn from `rng` (Fisher-Yates, its positions drawn in groups)."""
    items = list(CARDS)
    below = rng.below
    for prod, steps in _GROUPS:
        x = below(prod)
        for i, size in steps:
            j = x % size
            x //= size
            items[i], items[j] = items[j], items[i]
    return items


def draw_rounds(cards, lowest: bool) -> tuple[list, int]:
    """WH-1.3: the players draw in turn, South first, one card each from the top; those who tie for the
    deal (equal ranks) draw again, in the same order, from the rest. (rounds of (seat, card), the dealer)."""
    def value(c):
        return 1 if lowest and c.rank == "A" else c.value
    order, pos = [0, 1, 2, 3], 0
    rounds: list[list[tuple[int, Card]]] = []
    while True:
        if pos + len(order) > len(cards):          # cannot happen with 52 cards; a safe end all the same
            return rounds, order[0]
        drawn = [(p, cards[pos + k]) for k, p in enumerate(order)]
        pos += len(order)
        rounds.append(drawn)
        vals = [value(c) for _, c in drawn]
        best = min(vals) if lowest else max(vals)
        tied = [p for (p, _), v in zip(drawn, vals) if v == best]
        if len(tied) == 1:
            return rounds, tied[0]
        order = tied


class Whist(Game):
    name = "whist"
    title = "Whist"
    deck = FRENCH52
    option_specs = OPTIONS
    summary = ("The English partnership trick game: follow suit, the turned-up card names trumps, the tricks "
               "beyond six score. Four players, partners opposite, deal after deal to 7 game points.")

    def __init__(self, **options):
        super().__init__(**options)
        o = self.options
        self.strict = o["mode"] == "strict"
        self.classic = o["ruleset"] != "source"
        self.target = CLASSIC_TARGET.get(o["ruleset"], SOURCE_TARGET)

    def player_names(self) -> list[str]:
        return list(NAMES)

    def sides(self) -> list[list[int]]:
        """The partnerships win or lose together (WH-1.1): North–South (seats 0, 2), East–West (1, 3)."""
        return [[0, 2], [1, 3]]

    def side_names(self) -> list[str]:
        return list(TEAMS)

    def full_deck(self) -> list[Card]:
        return list(CARDS)

    def random_deal(self, rng: Rng) -> Deal:
        return Deal(shuffled_pack(rng))

    def draw(self, dealer: int = 3) -> str:
        """A draw for the first dealer (WH-1.3) that `dealer` wins under either reading: he draws an Ace
        (the highest card, and the lowest when Aces are low), the others a 7, an 8 and a 9."""
        if isinstance(dealer, bool) or dealer not in (0, 1, 2, 3):
            raise CardkitError(f"no seat {dealer!r}: the seats are 0 (South), 1 (West), 2 (North), 3 (East)")
        others = iter(FRENCH52.parse_many("7C 8D 9H"))
        first = [FRENCH52.parse("AS") if p == dealer else next(others) for p in range(4)]
        return "deal: " + FRENCH52.format(first + [c for c in CARDS if c not in first])

    def stack(self, hands, turned=None, dealer: int = 3, exposed=()) -> str:
        """The deal text that gives these hands (13 cards each, in seat order South, West, North, East) with
        `dealer` dealing: his hand holds the card he turns up (`turned`, by default the last one listed).
        The cards go out one at a time from the dealer's left (WH-2.1), the turned card last (WH-2.2);
        `exposed`: cards turned face up in the deal (WH-3.2, played only as at the table)."""
        if not isinstance(hands, (list, tuple)):
            raise IllegalActionError("WH-2.1", f"give the hands as a list of 4 hands, not {type(hands).__name__}")
        if isinstance(dealer, bool) or dealer not in (0, 1, 2, 3):
            raise IllegalActionError("WH-2.1", f"no seat {dealer!r}: the dealer is 0 (South), 1 (West), 2 (North) "
                                     "or 3 (East)")
        try:
            hs = [FRENCH52.parse_many(h) for h in hands]
        except CardError as e:
            raise IllegalActionError("WH-1.2", str(e)) from None
        if len(hs) != 4 or any(len(h) != TRICKS for h in hs):
            raise IllegalActionError("WH-2.1", "give 4 hands of 13 cards (the dealer's with the card he turns up)")
        seen: set = set()
        for c in (c for h in hs for c in h):
            if c in seen:
                raise IllegalActionError("WH-1.2", f"{c.label} is listed twice (the pack holds each card once)")
            seen.add(c)
        mine = list(hs[dealer])
        t = mine[-1] if turned is None else FRENCH52.parse(turned)
        if t not in mine:
            raise IllegalActionError("WH-2.2", f"the turned card {t.label} must be one of the dealer's 13 cards")
        mine.remove(t)
        queues = [list(h) for h in hs]
        queues[dealer] = mine
        order = []
        for i in range(51):
            order.append(queues[(dealer + 1 + i) & 3].pop(0))
        order.append(t)
        extra = FRENCH52.parse_many(exposed) if exposed else []
        return "deal: " + FRENCH52.format(order + extra)

    def rule_tables(self) -> dict:
        return {"trick": trick_table(), "rulesets": rulesets_table(self.options)}



# the state's own attributes, kept in slots: with more than about 30 attributes in its __dict__ an instance
# loses CPython's fast attribute access, and the state has about 40 (the base's few stay in the __dict__)
_SLOTS = tuple("""_strict _classic _ruleset _lowest _bar _callmode _late _call _liab _tshown current_player _phase _drawn draw
    dealer hands_dealt _suits
    faceup trump turned turned_on_table _pickup trick _top _win leader led done won points games log _deal_cards
    _deal_dealer honours exposed _asking revokes corrections answers _claims""".split())
_SLOT_VALUES = attrgetter(*_SLOTS)


class WhistNarration(Narration):
    """How a game of Whist is told (`cardkit.game.Narration`)."""
    __slots__ = ()

    def _score_words(self, s: int) -> str:
        if self._classic:
            return f"{plural(self.points[s], 'point')} · {plural(self.games[s], 'game')}"
        return f"{plural(self.points[s], 'hand point')} · {plural(self.games[s], 'game point')}"

    def round_result(self) -> str:
        if not self.log:
            return ""
        e = self.log[-1]
        ns, ew = TEAMS
        if self._classic:
            score = (f"points {ns} {self.points[0]}, {ew} {self.points[1]} · games {self.games[0]} to "
                     f"{self.games[1]}")
        else:
            score = (f"hand points {ns} {self.points[0]}, {ew} {self.points[1]} · game points {self.games[0]} to "
                     f"{self.games[1]} (7 win)")
        text = self.hand_text(e)
        return f"Hand {e['hand']}: {text[0].upper()}{text[1:]}. Score: {score}."

    def describe(self, action, after: WhistState | None = None) -> str:
        if action.__class__ is Deal:
            return self._describe_deal(action)
        if after is None:
            after = self._copy()
            after._apply(action)
        p = self.current_player
        who = NAMES[p]
        ph = self._phase
        if ph == MISDEAL:
            if action is REDEAL or action.text == "redeal":
                return f"{who} demands a redeal [WH-3.3]: {NAMES[self.dealer]} deals again [WH-1.4]."
            line = f"{who} lets the deal stand."
            if after._phase != MISDEAL:
                shown = ", ".join(f"{c.label} in {NAMES[q]}'s hand" for q, c in self.exposed)
                line += (f" Nobody demands a redeal: the hand is played, and {shown} stays face up until "
                         f"played [WH-4.8]. {NAMES[after.current_player]} leads.")
            return line
        if ph == CALLING:
            holder = NAMES[self._call[0]]
            if action is NO_CALL or action.text == "no call":
                line = f"{who} does not call {holder}'s shown card now [WH-4.8.1]."
            else:
                line = f"{who} calls {holder}'s {action.data[1].label}: {holder} must play it now [WH-4.8.1]."
            return line
        if ph == CLAIMING:
            r = self._claims[0]
            if action.text == "claim":
                if self._classic:
                    pen = f"{TEAMS[p & 1]} will score 3 points for it [WH-5.6.3]"
                else:
                    pen = f"{TEAMS[r['seat'] & 1]} will give 2 hand points to {TEAMS[p & 1]} [WH-5.2]"
                line = f"{who} claims {NAMES[r['seat']]}'s revoke for {TEAMS[p & 1]}: {pen}."
            else:
                line = f"{who} does not claim {NAMES[r['seat']]}'s revoke; it goes unpunished [WH-4.6]."
            return line + self._aftermath(after)
        if ph == ASKED:
            if action.card is None:
                line = f"{who}: “Having none.”"
            else:
                wrong = self.trick[-1]
                line = (f"{who} corrects the card: takes back {wrong.label}, which stays face up [WH-4.8], and "
                        f"plays {action.card.label} instead [WH-4.5].")
            return line + self._aftermath(after)
        c = action.card
        if not self.trick:
            line = f"{who} leads {c.label}" + (" to the first trick" if not self.done else "") + "."
        elif c.suit == self.led:
            line = f"{who} plays {c.label}."
        elif not self._strict:
            line = (f"{who} plays {c.label} on the {SUIT_ONE[self.led]} lead; {NAMES[(p + 2) & 3]} asks him: "
                    f"“Having none?” [WH-4.5].")
            return line
        elif c.suit == self.trump:
            line = f"{who}, with no {SUIT_ONE[self.led]}, trumps with {c.label} [WH-4.2]."
        else:
            line = f"{who}, with no {SUIT_ONE[self.led]}, throws {c.label} away [WH-4.2]."
        if c is self.turned and p == self.dealer:
            line = line[:-1] + ", the turned card."
        return line + self._aftermath(after)

    def _describe_deal(self, deal: Deal) -> str:
        cards = deal.cards
        if not self._drawn:
            try:
                rounds, dealer = draw_rounds(cards, self._lowest)
            except Exception:  # a malformed deal is reported by apply, not here
                return "Cards are drawn for the first deal."
            parts = []
            for k, rnd in enumerate(rounds):
                drawn = ", ".join(f"{NAMES[p]} {c.label}" for p, c in rnd)
                if k:
                    tied = [NAMES[p] for p, _ in rnd]
                    parts.append(f"; {', '.join(tied[:-1])} and {tied[-1]} tie and draw again: ")
                else:
                    parts.append("Drawing for the first deal: ")
                parts.append(drawn)
            high = "lowest" if self._lowest else "highest"
            return (f"{''.join(parts)}. {NAMES[dealer]} draws the {high} card and deals the first hand "
                    f"[WH-1.3]; the pack is shuffled again.")
        d = self.dealer
        if len(cards) < 52:
            return "Cards are dealt."
        t = cards[51]
        line = (f"Hand {self.hands_dealt + 1}: {NAMES[d]} deals one card at a time from his left [WH-2.1]; the last, "
                f"{t.label}, is turned face up: {SUIT_PLURAL[t.suit]} are trumps [WH-2.2].")
        if len(cards) > 52:
            pos = {c: i for i, c in enumerate(cards[:52])}
            shown = ", ".join(f"{c.label} on its way to {NAMES[(d + 1 + pos[c]) & 3]}" for c in cards[52:]
                              if c in pos)
            line += f" {shown} turned face up in the deal: a misdeal [WH-3.2]."
        else:
            line += f" {NAMES[(d + 1) & 3]} leads [WH-4.1]."
        return line


class WhistState(WhistNarration, State):
    game: Whist
    current_player: int
    # current_player is a slot, not the base class's property: it is read at every step
    __slots__ = _SLOTS

    # set up --------------------------------------------------------------------------------------
    def _start(self) -> None:
        g = self.game
        o = g.options
        self._strict = g.strict
        self._classic = g.classic
        self._ruleset = o["ruleset"]
        self._lowest = o["first_dealer"] == "lowest"
        self._bar = o["revoke_bar"]
        self._callmode = o["calling"]             # WH-4.8.1: who calls a shown card
        self._late = o["first_six"] == "played"   # WH-5.1.1: tricks 7 to 13 of the hand score, each for its taker
        self._call: tuple[int, Card | bool | None] | None = None   # WH-4.8.1: (holder, None while asked / the card called / False)
        self._liab: Sequence[Card] = ()           # while _call is set: the holder's cards that may be called
        self._tshown = False                      # the turned card taken back after a revoke this hand (WH-4.8.1)
        self.current_player = CHANCE
        self._phase = PLAYING
        self._drawn = False                 # the draw for the first dealer is the first chance action
        self.draw: list[list[tuple[int, Card]]] = []   # its rounds of (seat, card)
        self.dealer = -1
        self.hands_dealt = 0                # hands dealt (the draw is not one; a redeal is)
        self._suits: list[dict[str, list[Action]]] = [{"C": [], "S": [], "H": [], "D": []} for _ in range(4)]
        # (per seat, suit: actions)
        self.faceup: list[set[Card]] = [set(), set(), set(), set()]   # cards in a hand that everyone has seen (WH-4.8)
        self.trump: str | None = None
        self.turned: Card | None = None     # the turned card (WH-2.2)
        self.turned_on_table = False        # until the dealer's first turn (WH-2.3)
        self._pickup = -1                   # the dealer, while the turned card lies on the table
        self.trick: list = []               # the cards of the trick under way, in the order played
        self._top: Card | None = None       # the trick's best card so far, and its player (see _apply)
        self._win = 0
        self.leader = 0
        self.led: str | None = None         # the suit led to the trick under way
        self.done: list = []                # this hand's tricks: (leader, cards, winner)
        self.won = [0, 0]                   # tricks per side this hand
        self.points = [0, 0]                # hand points (the quick rules) or points (classic) per side
        self.games = [0, 0]                 # game points (the quick rules) or games won (classic) per side
        self.log: list = []                 # each finished hand: a dict (see _end_hand)
        self._deal_cards: tuple = ()        # the latest deal's cards (for resample)
        self._deal_dealer = -1              # who dealt them
        self.honours = [0, 0]               # trump honours dealt to each side (WH-5.6.2)
        # as at the table (WH-4.4)
        self.exposed: list = []             # (seat, card) exposed in this deal (WH-3.2)
        self._asking: list = []             # seats still to answer the misdeal question (WH-3.3)
        self.revokes: list = []             # dicts: seat, trick, suit, held, card, state
        self.corrections: list = []         # (seat, trick, card taken back, card played)
        self.answers: list = []             # (seat, trick, suit): "having none" answers (public)
        self._claims: list = []             # revokes waiting for the opponents' claim (WH-4.6)

    @property
    def hands(self) -> list:
        """Each seat's cards (sorted by suit and rank), the turned card once taken up included. The engine
        keeps them by suit as the actions that play them (``_suits``)."""
        return [self.hand_of(p) for p in range(4)]

    @property
    def tricks_played(self) -> int:
        return len(self.done)

    # what the bots read (public: no module outside the game reads its underscored names) ------------------
    @property
    def phase(self) -> int:
        """What the player on turn is to do: PLAYING (0), or answering a question (MISDEAL, ASKED, CLAIMING,
        CALLING)."""
        return self._phase

    @property
    def call(self):
        """WH-4.8.1 while a shown card may be called: (its holder, None while asked / the card called /
        False); None otherwise."""
        return self._call

    def played_cards(self) -> set:
        """The cards played in this hand's tricks so far, the trick under way included."""
        return self._played()

    def side(self, p: int) -> int:
        return p & 1

    def _led_suit(self) -> str:
        """The suit led to the trick under way (read only while there is one)."""
        led = self.led
        assert led is not None
        return led

    def _call_holder(self) -> int:
        """Whose shown card a call is about (read only while one is asked or made, WH-4.8.1)."""
        call = self._call
        assert call is not None
        return call[0]

    # dealing -------------------------------------------------------------------------------------
    def _check_deal(self, deal: Deal) -> None:
        cards = deal.cards
        if len(cards) < 52 or frozenset(cards[:52]) != FULL:
            raise IllegalActionError("deal", "a deal must hold the 52 cards of the pack, each once, in the order "
                                     "they are dealt", deal.text[:60])
        if len(cards) > 52:
            extra = cards[52:]
            if self._strict:
                raise IllegalActionError("deal", "a deal of the strict rules is the 52 cards and no more: cards "
                                         "listed after them are cards exposed in the deal, a misdeal (WH-3.2), "
                                         "played only as at the table", deal.text[:60])
            if len(set(extra)) != len(extra) or cards[51] in extra:
                raise IllegalActionError("deal", "list each card exposed in the deal once, and never the last "
                                         "card, which is turned up anyway (WH-3.2)", deal.text[:60])

    def _deal(self, deal: Deal) -> None:
        cards = deal.cards
        if not self._drawn:
            if len(cards) != 52:
                raise IllegalActionError("deal", "the draw for the first dealer is the 52 cards and no more "
                                         "(WH-1.3)", deal.text[:60])
            self._deal_cards = cards
            self.draw, self.dealer = draw_rounds(cards, self._lowest)
            self._drawn = True
            self.current_player = CHANCE
            return
        self._deal_cards = cards
        self.hands_dealt += 1
        d = self._deal_dealer = self.dealer
        hands = self._suits = [{"C": [], "S": [], "H": [], "D": []} for _ in range(4)]
        t = cards[51]                            # WH-2.2: the last card is turned up
        if self._classic:                        # WH-5.6.2: the trump honours dealt to each side
            honours = HONOUR_CARDS[t.suit]
            hon = [0, 0]
            hon[d & 1] += t in honours           # the turned card is the dealer's
        for q in range(4):                       # WH-2.1: one at a time from the dealer's left
            h = hands[q]
            dealt = cards[(q - d - 1) & 3:51:4]
            for c in dealt:
                h[c.suit].append(PLAY[c])
            if self._classic:
                hon[q & 1] += len(honours.intersection(dealt))
        self.turned, self.trump = t, t.suit
        self.turned_on_table, self._pickup = True, d
        self.faceup = [set(), set(), set(), set()]
        self.trick, self.done, self.won = [], [], [0, 0]
        self.led = None
        self.leader = (d + 1) & 3                # WH-4.1: the player on the dealer's left leads
        self.current_player = self.leader
        self._phase = PLAYING
        if self._classic:
            self.honours = hon
        if not self._strict:
            self.revokes, self.corrections, self.answers, self._claims = [], [], [], []
            self._tshown = False
            self.exposed = []
            if len(cards) > 52:                  # WH-3.2: cards exposed in the deal: a misdeal
                pos = {c: i for i, c in enumerate(cards[:52])}
                for c in cards[52:]:
                    q = (d + 1 + pos[c]) & 3
                    self.exposed.append((q, c))
                    self.faceup[q].add(c)
                self._asking = [(d + 1 + k) & 3 for k in range(4)]   # WH-3.3: each in turn
                self._phase = MISDEAL
                self.current_player = self._asking[0]

    # the play ------------------------------------------------------------------------------------
    def _legal(self) -> list:
        if self._phase:
            return self._legal_question()
        h = self._suits[self.current_player]
        if self.trick and self._strict:          # WH-4.2: follow suit, else any card
            return playable_grouped(h, self.led)
        out = [*h["C"], *h["S"], *h["H"], *h["D"]]
        if self._call is not None:               # WH-4.8.1: after a call (or none) of a shown card
            return self._after_call(out)
        return out

    def _legal_question(self) -> list:
        ph = self._phase
        if ph == ASKED:                          # WH-4.5: "having none?" - or correct with the suit led
            return [NONE, *self._suits[self.current_player][self._led_suit()]]
        if ph == CLAIMING:                       # WH-4.6
            return [CLAIM, NO_CLAIM]
        if ph == CALLING:                        # WH-4.8.1
            return [*(CALL[c] for c in self._liable(self._call_holder())), NO_CALL]
        return [REDEAL, PLAY_ON]                 # WH-3.3

    # WH-4.8.1: a shown card is called -------------------------------------------------------------
    def _liable(self, p: int) -> list:
        """The shown cards in p's hand that may be called: not the turned trump card while it is only that
        (WH-2.3: everyone saw it turned) — once the dealer has played it as a revoke and taken it back
        (WH-4.5) it is a shown card like any other; under the classic laws not a card exposed in a deal that
        was let stand ("the exposed card cannot be called")."""
        fu = self.faceup[p]
        t = self.turned
        if t in fu and not self._tshown:        # (_tshown: any(wrong is t for _, _, wrong, _ in corrections))
            out = [c for c in fu if c is not t]
        else:
            out = list(fu)
        if out and self._callmode == "opponents" and self.exposed:
            dealt = {c for _, c in self.exposed}
            out = [c for c in out if c not in dealt]
        if len(out) > 1:
            out.sort(key=INDEX_OF)
        return out

    def _caller(self, p: int) -> int:
        """Who decides the call of p's shown card: his partner (the quick rules), or his left-hand opponent
        for the opponents (the classic laws)."""
        return (p + 2) & 3 if self._callmode == "partner" else (p + 1) & 3

    def _begin_turn(self, p: int, legal):
        """Table mode, p is to play: while he holds a shown card that may be called, and another card, the
        caller is asked first (whatever p's other cards are: the question tells nobody anything). Returns
        the caller's choices, or `legal` (p's own) when nobody is asked."""
        fu = self.faceup[p]                      # _liable(p), inlined: this is every turn of a shown card
        t = self.turned
        if t in fu and not self._tshown:
            if len(fu) == 1:
                return legal                     # the dealer's turned card, no shown card
            liable = [c for c in fu if c is not t]
        else:
            liable = [*fu]
        if self._callmode == "opponents" and self.exposed:
            dealt = {c for _, c in self.exposed}
            liable = [c for c in liable if c not in dealt]
        if not liable:
            return legal
        if len(liable) > 1:
            liable.sort(key=INDEX_OF)
        if legal is not None:                    # (p's cards, all of them: any card may be played here)
            held = len(legal)
        else:
            h = self._suits[p]
            held = len(h["C"]) + len(h["S"]) + len(h["H"]) + len(h["D"])
        if held <= len(liable):
            return legal                         # only shown cards left: they are played in any case
        self._call = (p, None)
        self._liab = liable
        self._phase = CALLING
        self.current_player = (p + 2) & 3 if self._callmode == "partner" else (p + 1) & 3   # _caller(p)
        if len(liable) == 1:
            return [CALL[liable[0]], NO_CALL]
        return [*(CALL[c] for c in liable), NO_CALL]

    def _after_call(self, out: list) -> list:
        """p's legal cards after the call: the called card, where it causes no revoke (a call that would
        make him revoke lapses); after "no call" under the quick rules the shown cards wait for the partner's
        call — unless they are p's only cards of the suit led, which he must follow."""
        call = self._call
        assert call is not None
        p, called = call
        if isinstance(called, Card):
            if not self.trick or called.suit == self.led or not self._suits[p][self._led_suit()]:
                return [PLAY[called]]
            return out
        if called is False and self._callmode == "partner":
            liable = self._liab
            if self.trick:
                follow = self._suits[p][self._led_suit()]
                if follow and len(follow) <= len(liable) and all(a.card in liable for a in follow):
                    return out
            if len(out) > len(liable):           # (the shown cards are in p's hand: faceup is a part of it)
                out = out[:]
                for c in liable:
                    out.remove(PLAY[c])
            return out
        return out

    def _apply(self, action) -> list | None:
        """Make the move; returns the next position's legal actions (as _legal gives them) where they are
        known at little cost (a card played, the partner's question), else None."""
        if self._phase:
            return self._answer(action)
        if self._call is not None:               # WH-4.8.1: the call was for this card
            self._call = None
        c = action.card
        p = self.current_player
        s = c.suit
        self._suits[p][s].remove(action)
        fu = self.faceup[p]
        if fu and c in fu:
            fu.discard(c)
        trick = self.trick
        trick.append(c)
        if len(trick) == 1:
            led = self.led = s
            self._top, self._win = c, p
        else:
            # the trick's best card so far and its player, as tricks.winner finds it (WH-4.3): kept as the
            # cards come, so the trick's end knows its winner
            top = self._top
            led = self.led
            assert top is not None and led is not None     # (the trick's first card set them)
            if s == top.suit:
                if c.value > top.value:
                    self._top, self._win = c, p
            elif s == self.trump:
                self._top, self._win = c, p
            if s != led and not self._strict:
                self._phase = ASKED              # WH-4.5: the partner asks "having none?"
                return [NONE, *self._suits[p][led]]             # (as _legal_question)
            if len(trick) == 4:
                return self._end_trick()
        # the next player (the same steps follow a "having none?" answer, in _answer)
        nxt = self.current_player = (p + 1) & 3
        if nxt == self._pickup:                  # WH-2.3: the dealer's first turn
            self._take_up()
        h = self._suits[nxt]
        if self._strict:                         # WH-4.2: follow suit, else any card (as _legal)
            g = h[led]
            if g:
                return g[:]
            return [*h["C"], *h["S"], *h["H"], *h["D"]]
        out = [*h["C"], *h["S"], *h["H"], *h["D"]]
        return self._begin_turn(nxt, out) if self.faceup[nxt] else out

    def _take_up(self) -> None:
        d, c = self.dealer, self.turned
        assert c is not None                    # (dealt)
        self._suits[d][c.suit].append(PLAY[c])
        self.faceup[d].add(c)
        self.turned_on_table, self._pickup = False, -1

    def _end_trick(self) -> list | None:
        """The trick to its winner (WH-4.3), who leads the next: returns his legal actions (any card), or
        None when a claim is asked or the hand is over."""
        w = self._win
        self.won[w & 1] += 1
        done = self.done
        done.append((self.leader, tuple(self.trick), w))
        self.trick = []
        self.led = None
        self.leader = self.current_player = w               # WH-4.1: the winner leads the next trick
        if self.revokes and self._find_claims():            # revokes are made only as at the table
            return [CLAIM, NO_CLAIM]                        # (as _legal_question)
        if len(done) == TRICKS:
            self._end_hand("played")
            return None
        h = self._suits[w]
        out = [*h["C"], *h["S"], *h["H"], *h["D"]]
        return self._begin_turn(w, out) if self.faceup[w] and not self._strict else out

    # as at the table: "having none?", claims, misdeals ---------------------------------------------
    def _answer(self, a) -> list | None:
        ph = self._phase
        p = self.current_player
        if ph == ASKED:
            self._phase = PLAYING
            n = len(self.done) + 1
            if a is NONE or a.card is None:
                led = self._led_suit()
                held = self._suits[p][led]
                self.answers.append((p, n, led))
                if held:                         # WH-4.4: a revoke, known to nobody but its player
                    self.revokes.append({"seat": p, "trick": n, "suit": led, "card": self.trick[-1],
                                         "held": frozenset(map(CARD_OF, held)), "state": "hidden"})
            else:                                # WH-4.5: corrected; the card taken back stays face up
                wrong = self.trick[-1]
                self._suits[p][wrong.suit].append(PLAY[wrong])
                self.faceup[p].add(wrong)
                c = a.card
                self._suits[p][c.suit].remove(a)
                self.faceup[p].discard(c)
                trick = self.trick
                trick[-1] = c
                if self._win == p:               # the card taken back held the trick: its best card anew
                    i = winner(trick, SUIT_OF, POWER, self.trump)
                    self._top, self._win = trick[i], (self.leader + i) & 3
                else:                            # else the card played instead against the best (as _apply)
                    top = self._top
                    assert top is not None
                    if c.suit == top.suit:
                        if c.value > top.value:
                            self._top, self._win = c, p
                    elif c.suit == self.trump:
                        self._top, self._win = c, p
                self.corrections.append((p, n, wrong, c))
                if wrong is self.turned:
                    self._tshown = True
            if len(self.trick) < 4:              # the card stands: the next player
                nxt = self.current_player = (p + 1) & 3
                if nxt == self._pickup:          # WH-2.3: the dealer's first turn
                    self._take_up()
                h = self._suits[nxt]
                out = [*h["C"], *h["S"], *h["H"], *h["D"]]
                return self._begin_turn(nxt, out) if self.faceup[nxt] else out
            return self._end_trick()
        if ph == CALLING:                        # WH-4.8.1: the card called, or none
            holder = self._call_holder()
            self._phase = PLAYING
            self.current_player = holder
            h = self._suits[holder]
            if a is NO_CALL:
                self._call = (holder, False)
                out = [*h["C"], *h["S"], *h["H"], *h["D"]]
                return self._after_call(out) if self._callmode == "partner" else out   # (as _legal)
            c = a.data[1]
            self._call = (holder, c)
            if not self.trick or c.suit == self.led or not h[self._led_suit()]:
                return [PLAY[c]]                 # (as _after_call)
            return [*h["C"], *h["S"], *h["H"], *h["D"]]
        if ph == CLAIMING:
            r = self._claims.pop(0)
            r["state"] = "claimed" if a is CLAIM else "waived"
            if a is CLAIM:
                sides = {x["seat"] & 1 for x in self.revokes if x["state"] == "claimed"}
                if len(sides) == 2 and self._ruleset != "short":   # WH-4.7: both sides revoked: a revoked
                    self._claims = []                              # hand (Short Whist: its law 81 instead)
                    self._end_hand("revoked")
                    return None
            if self._claims:
                self.current_player = (self._claims[0]["seat"] + 1) & 3
                return [CLAIM, NO_CLAIM]         # (as _legal_question)
            self._phase = PLAYING
            w = self.current_player = self.leader
            if len(self.done) == TRICKS:
                self._end_hand("played")
                return None
            h = self._suits[w]                   # (as _legal: the leader's cards, or the call first)
            out = [*h["C"], *h["S"], *h["H"], *h["D"]]
            return self._begin_turn(w, out) if self.faceup[w] else out
        # MISDEAL (WH-3.3)
        if a is REDEAL:
            self._end_hand("misdeal", by=p)
            return None
        self._asking.pop(0)
        if self._asking:
            self.current_player = self._asking[0]
        else:
            self._phase = PLAYING
            self.current_player = self.leader
            return self._begin_turn(self.leader, None)
        return None

    def _played(self) -> set:
        out = {c for _, cs, _ in self.done for c in cs}
        out.update(self.trick)
        return out

    def _find_claims(self) -> bool:
        """WH-4.6: after a trick, the revokes the cards have now shown (a card of the suit denied played or
        face up) are offered to the revoker's left-hand opponent. True if a claim is asked."""
        # a card the revoker held of the suit shows once played: as the revoke was still hidden after the
        # tricks before, only the trick just taken can hold one (the cards held were in his hand, unplayed)
        last = self.done[-1][1]
        for r in self.revokes:
            if r["state"] == "hidden":
                held = r["held"]
                if not held.isdisjoint(last) or not held.isdisjoint(self.faceup[r["seat"]]):
                    r["state"] = "shown"
                    r["shown_at"] = len(self.done)
                    self._claims.append(r)
        if not self._claims:
            return False
        self._phase = CLAIMING
        self.current_player = (self._claims[0]["seat"] + 1) & 3
        return True

    # the end of a hand: scoring ------------------------------------------------------------------
    def _end_hand(self, kind: str, by: int | None = None) -> None:
        d = self.dealer
        entry: dict[str, Any] = {"hand": self.hands_dealt, "dealer": d, "trump": self.turned, "kind": kind, "by": by,
                 "tricks": list(self.won), "points_before": list(self.points), "games_before": list(self.games),
                 "claimed": [r["seat"] for r in self.revokes if r["state"] == "claimed"],
                 "exposed": list(self.exposed), "honours": list(self.honours) if self._classic else None,
                 "honours_scored": None, "penalty": [0, 0], "tricks_scored": [0, 0], "game": None,
                 "game_points": 0, "capped": [],
                 "late": [w & 1 for _, _, w in self.done[6:]],        # the sides that took tricks 7 to 13
                 "dropped": [0, 0]}
        self._phase = PLAYING
        self.trick = []
        if kind != "played":                     # WH-3.3 a misdeal, WH-4.7 a revoked hand: dealt again
            entry["points"], entry["games"] = list(self.points), list(self.games)
            self.log.append(entry)
            self.current_player = CHANCE                    # WH-1.4: by the same dealer
            return
        if self._classic:
            self._score_classic(entry)
        else:
            self._score_source(entry)
        entry["points"], entry["games"] = list(self.points), list(self.games)
        self.log.append(entry)
        self.dealer = (d + 1) & 3                # WH-1.4: the deal passes to the left
        g = entry["game"]
        if g is not None and self.games[g] >= (2 if self._classic else SOURCE_TARGET):
            self.current_player = TERMINAL                  # WH-5.5 / WH-5.6.4
        else:
            self.current_player = CHANCE

    def _score_source(self, e: dict) -> None:
        """WH-5.1 - WH-5.5: the hand's hand points in the order they are won — the revoke penalties first
        (WH-5.2), then the tricks (WH-5.1: each side's beyond its six, or, read to the letter, tricks 7 to 13
        each for its taker, in the order played: WH-5.1.1) — and the first side to 7 scores game points
        against the other side's hand points at that moment; what comes after is not counted (WH-5.4.1)."""
        pts = self.points
        revoked = {s & 1 for s in e["claimed"]}
        capped = e["capped"]
        steps = []                               # (side, hand points) in the order they are won
        for s in e["claimed"]:                   # WH-5.2: 2 hand points change sides, before the tricks
            e["penalty"][1 - (s & 1)] += 2
            e["penalty"][s & 1] -= 2
        if e["claimed"]:                         # (all the penalties at once, as one step)
            steps.append(tuple((side, k) for side, k in enumerate(e["penalty"]) if k))
        if self._late:                           # WH-5.1.1 "played": tricks 7 to 13, each for its taker
            for side in e["late"]:
                steps.append(((side, 1),))
                e["tricks_scored"][side] += 1
        else:                                    # WH-5.1: each side's tricks beyond six
            for side in (0, 1):
                k = max(0, self.won[side] - 6)
                e["tricks_scored"][side] = k
                steps += [((side, 1),)] * k
        reach = None
        for i, step in enumerate(steps):
            for side, k in step:
                pts[side] += k
                if self._bar == "hand" and side in revoked and pts[side] >= SOURCE_TARGET:
                    pts[side] = SOURCE_TARGET - 1        # WH-5.3, reading "hand": no seventh hand point
                    if side not in capped:
                        capped.append(side)
            up = [side for side, k in step if k > 0 and pts[side] >= SOURCE_TARGET]
            if up:
                reach = up[0]
                for later in steps[i + 1:]:      # WH-5.4.1: the tricks' points after it are not counted
                    for side, k in later:
                        e["dropped"][side] += k
                break
        if reach is None:
            return
        s = reach
        gain = SOURCE_TARGET - pts[1 - s]                                          # WH-5.4
        total = self.games[s] + gain
        if self._bar == "game" and s in revoked and total >= SOURCE_TARGET:     # WH-5.3, reading "game"
            total = SOURCE_TARGET - 1
            capped.append(s)
        e["game"], e["game_points"] = s, total - self.games[s]
        e["hand_points_at_game"] = list(pts)
        self.games[s] = total
        self.points = [0, 0]

    def _score_classic(self, e: dict) -> None:
        target = self.game.target
        pts = self.points
        start = list(pts)
        revoked = {s & 1 for s in e["claimed"]}

        def add(s: int, k: int) -> bool:
            v = pts[s] + k
            if s in revoked and v >= target:     # WH-5.6.3: the revoking side cannot win a game this hand
                v = target - 1
                e["capped"].append(s)
            pts[s] = v
            return v >= target

        won = None
        for s in e["claimed"]:                   # WH-5.6.3: the claimants score 3, first
            e["penalty"][1 - (s & 1)] += 3
            if add(1 - (s & 1), 3) and won is None:
                won = 1 - (s & 1)
        if won is None:
            for s in (0, 1):                     # WH-5.1: tricks beyond six, next
                k = max(0, self.won[s] - 6)
                e["tricks_scored"][s] = k
                if k and add(s, k):
                    won = s
        if won is None:                          # WH-5.6.2: honours, last
            for s in (0, 1):
                h = self.honours[s]
                k = 4 if h == 4 else 2 if h == 3 else 0
                if k and start[s] < target - 1:
                    e["honours_scored"] = (s, k)
                    if add(s, k):
                        won = s
                elif k:
                    e["honours_scored"] = (s, 0)
        if won is not None:                      # WH-5.6.4: a game; the next starts from love all
            e["game"], e["game_points"] = won, 1
            e["hand_points_at_game"] = list(pts)
            self.games[won] += 1
            self.points = [0, 0]

    # what a text breaks ---------------------------------------------------------------------------
    def _illegal(self, text: str) -> IllegalActionError:
        p = self.current_player
        who = NAMES[p]
        t = text.strip().lower()
        if t == "no call" or t.startswith("call ") or t.startswith("call the "):
            return self._illegal_call(text)
        words = {a.text: a for a in (REDEAL, PLAY_ON, NONE, CLAIM, NO_CLAIM)}
        words.update({a.label: a for a in (REDEAL, PLAY_ON, NONE, CLAIM, NO_CLAIM)})
        if t in words:
            a = words[t]
            if a in (REDEAL, PLAY_ON):
                return IllegalActionError("WH-3.3", "a redeal may be demanded only after a misdeal, when the kit "
                                          "asks each player in turn", text)
            if a is NONE:
                return IllegalActionError("WH-4.5", "“having none” answers the partner's question after a card "
                                          "that did not follow suit; nobody is asked now", text)
            return IllegalActionError("WH-4.6", "there is no revoke to claim now: a revoke may be claimed after "
                                      "the trick in which the cards have shown it, by the revoker's opponents",
                                      text)
        try:
            card = FRENCH52.parse(text)
        except CardError:
            return IllegalActionError("WH-1.2", f"{text!r} is not a card of the 52-card pack; write rank then suit, "
                                      "e.g. 10H, QS, AD, 7C (or 10♥)", text)
        ph = self._phase
        if ph == MISDEAL:
            return IllegalActionError("WH-3.3", f"first the misdeal: {who} is asked to demand a redeal or to play "
                                      "on", text)
        if ph == CLAIMING:
            return IllegalActionError("WH-4.6", f"first the revoke: {who} claims it for his side or lets it go "
                                      "(claim the revoke, or no claim)", text)
        if ph == CALLING:
            holder = NAMES[self._call_holder()]
            return IllegalActionError("WH-4.8.1", f"first the call: {who} calls {holder}'s shown card to be played "
                                      "now, or makes no call", text)
        if self._call is not None and self._call[0] == p and not any(a.card is card for a in self.legal_actions()):
            called = self._call[1]
            if isinstance(called, Card):
                return IllegalActionError("WH-4.8.1", f"{called.label} was called: {who} plays it now", text)
            if card in self.faceup[p]:
                return IllegalActionError("WH-4.8.1", f"{card.label} lies face up until {who}'s partner calls it "
                                          "(he did not call it now)", text)
        if ph == ASKED:
            led = self._led_suit()
            if any(a.card is card for a in self._suits[p][led]):
                return super()._illegal(text)
            return IllegalActionError("WH-4.5", f"{who} was asked “having none?”: answer having none, or correct "
                                      f"the card with a {SUIT_ONE[led]} ({SUIT_PLURAL[led]} were led)", text)
        if card is self.turned and self.turned_on_table:
            return IllegalActionError("WH-2.3", f"{card.label} is the turned card: it lies on the table until the "
                                      f"dealer, {NAMES[self.dealer]}, takes it up at his first turn", text)
        if not any(a.card is card for a in self._suits[p][card.suit]):
            return IllegalActionError("WH-4.2", f"{who} does not hold {card.label}; a player plays a card of his "
                                      "own hand", text)
        if self.trick and self._strict and card.suit != self.led and self._suits[p][self._led_suit()]:
            led = self._led_suit()
            return IllegalActionError("WH-4.2", f"you hold a {SUIT_ONE[led]}: follow suit ({SUIT_PLURAL[led]} were "
                                      f"led; {card.label} may be played only by a player who has no "
                                      f"{SUIT_ONE[led]})", text)
        return super()._illegal(text)

    def _illegal_call(self, text: str) -> IllegalActionError:
        if self._phase != CALLING:
            return IllegalActionError("WH-4.8.1", "a shown card is called only when its holder is to play, by "
                                      + ("his partner" if self._callmode == "partner" else "an opponent")
                                      + "; nobody is asked now", text)
        shown = ", ".join(c.label for c in self._liable(self._call_holder()))
        return IllegalActionError("WH-4.8.1", f"only a shown card of {NAMES[self._call_holder()]}'s may be called: "
                                  f"{shown}", text)

    # results -------------------------------------------------------------------------------------
    def _scores(self) -> list:
        return [self.games[p & 1] for p in range(4)]

    def standing(self) -> list:
        """The game points with the hand points toward the next (the scores count only game points, which a
        hand rarely moves): under the source's rules a hand point counts one, since a side that reaches
        seven scores seven less the other side's hand points (WH-5.4); in the classic game a point counts
        the share of a game it is (WH-5.6.4)."""
        if self.current_player == TERMINAL:
            return self._scores()
        per = 1 / self.game.target if self._classic else 1
        return [self.games[p & 1] + per * self.points[p & 1] for p in range(4)]

    def _snapshot(self) -> tuple:
        t = lambda cs: tuple(sorted(c.text for c in cs))  # noqa: E731
        hands = tuple(tuple(t(a.card for a in h[s]) for s in SUITS) for h in self._suits)
        revs = tuple(tuple(sorted((k, str(v) if not isinstance(v, frozenset) else t(v)) for k, v in r.items()))
                     for r in self.revokes)
        log = tuple(tuple(sorted((k, repr(v)) for k, v in e.items())) for e in self.log)
        return (hands, tuple(t(f) for f in self.faceup), tuple(c.text for c in self.trick), self.leader, self.led,
                tuple((ld, tuple(c.text for c in cs), w) for ld, cs, w in self.done), tuple(self.won),
                tuple(self.points), tuple(self.games), self.current_player, self._phase, self.dealer, self.hands_dealt,
                self.turned.text if self.turned else None, self.turned_on_table, self._drawn, revs,
                tuple((p, n, a.text, b.text) for p, n, a, b in self.corrections), tuple(self.answers),
                tuple(r["seat"] for r in self._claims), tuple(self._asking),
                tuple((p, c.text) for p, c in self.exposed),
                tuple(self.honours), log, self._call_key())

    def _call_key(self):
        if self._call is None:
            return None
        p, c = self._call
        return p, c.text if isinstance(c, Card) else c

    def _copy(self) -> Self:
        """A copy for looking ahead (describe) and for deep copies: shares the game, the history's actions
        and the card actions (so they stay the game's own objects)."""
        c = object.__new__(type(self))
        c.__dict__.update(self.__dict__)
        c._set_slots(_SLOT_VALUES(self))
        c._suits = [{s: list(h[s]) for s in SUITS} for h in self._suits]
        c.faceup = [set(f) for f in self.faceup]
        c.trick = list(self.trick)
        c.done = list(self.done)
        c.won = list(self.won)
        c.points = list(self.points)
        c.games = list(self.games)
        c.log = list(self.log)
        c.revokes = [dict(r) for r in self.revokes]
        ids = {id(r): k for k, r in enumerate(self.revokes)}
        c._claims = [c.revokes[ids[id(r)]] for r in self._claims]
        c.corrections = list(self.corrections)
        c.answers = list(self.answers)
        c.exposed = list(self.exposed)
        c._asking = list(self._asking)
        c.honours = list(self.honours)
        c.history = list(self.history)
        c._legal_cache = None
        c._stacked = list(getattr(self, "_stacked", []))
        c._rng_log = list(self._rng_log)
        rng = getattr(self, "_rng", None)
        if rng is not None:
            c._rng = Rng(0)
            c._rng.setstate(rng.getstate())
        return c

    def __deepcopy__(self, memo) -> "WhistState":
        return self._copy()

    def _fork(self) -> "WhistState":
        """resample's and the expert's copy of a position: `_copy` (the base replays the whole history)."""
        return self._copy()

    def _set_slots(self, values) -> None:
        for k, v in zip(_SLOTS, values):
            setattr(self, k, v)

    # what resample needs ------------------------------------------------------------------------------
    def _deal_owners(self) -> list:
        cards = self._deal_cards
        if not self.hands_dealt:                # the latest deal is the draw: the drawn cards are shown
            drawn = {}
            pos = 0
            for rnd in self.draw:
                for p, _ in rnd:
                    drawn[pos] = p
                    pos += 1
            return [drawn.get(i) for i in range(len(cards))]
        d = self._deal_dealer
        out = [(d + 1 + i) & 3 for i in range(52)]
        index = {c: i for i, c in enumerate(cards[:52])}
        out += [out[index[c]] for c in cards[52:]]
        return out

    def _revealed(self) -> list:
        if not self.hands_dealt:
            return [pc for rnd in self.draw for pc in rnd]
        d = self._deal_dealer
        out = []
        for ld, cs, _ in self.done:
            out += [((ld + k) & 3, c) for k, c in enumerate(cs)]
        out += [((self.leader + k) & 3, c) for k, c in enumerate(self.trick)]
        for q in range(4):
            out += [(q, c) for c in self.faceup[q]]
        if self.turned_on_table and self.turned is not None:
            out.append((d, self.turned))
        cards = self._deal_cards
        if len(cards) > 52:
            pos = {c: i for i, c in enumerate(cards[:52])}
            out += [((d + 1 + pos[c]) & 3, c) for c in cards[52:]]
        return out

    def _excluded(self) -> list:
        """The voids the play has shown (WH-4.2): under the strict rules a player who did not follow suit
        holds no card of the suit led, so none was dealt to him. As at the table a revoke may be played, and
        not following proves nothing."""
        if not self._strict or not self.hands_dealt:
            return []
        voids: dict = {}
        tricks = [(ld, cs) for ld, cs, _ in self.done]
        if self.trick:
            tricks.append((self.leader, self.trick))
        for ld, cs in tricks:
            led = cs[0].suit
            for k in range(1, len(cs)):
                if cs[k].suit != led:
                    voids.setdefault((ld + k) & 3, set()).add(led)
        if not voids:
            return []
        owners = self._deal_owners()
        cards = self._deal_cards
        shown = {c for _, c in self._revealed()}   # played before the void showed, perhaps of that suit
        return [([i for i, o in enumerate(owners) if o == q and cards[i] not in shown],
                 [c for c in CARDS if c.suit in suits]) for q, suits in voids.items()]

    # presentation --------------------------------------------------------------------------------
    def holder(self):
        """(seat, card) holding the trick under way so far, or None."""
        if not self.trick:
            return None
        k = winner(self.trick, SUIT_OF, POWER, self.trump)
        return (self.leader + k) & 3, self.trick[k]

    def hand_of(self, p: int) -> list:
        """The cards in `p`'s hand (sorted by suit and rank), the turned card once taken up included."""
        h = self._suits[p]
        return [c for s in ("S", "H", "C", "D") for c in sorted(map(CARD_OF, h[s]), key=HIGH_FIRST)]

    def _view(self, player: int | None = None) -> View:
        g = self.game
        teacher = player is None
        seats = []
        for p in range(4):
            if teacher or player == p:
                hand = self.hand_of(p)
            else:                                 # another's: the cards everyone has seen, the rest face down
                fu = self.faceup[p]
                up = [c for c in self.hand_of(p) if c in fu] if fu else []
                hand = up + [None] * (sum(map(len, self._suits[p].values())) - len(up))
            s = p & 1
            seats.append(Seat(p, NAMES[p], hand, team=TEAMS[s], score=self._score_words(s),
                              info=f"{plural(sum(w == p for _, _, w in self.done), 'trick')} this hand, "
                                   f"{self.won[s]} for the side" if self.hands_dealt else "",
                              current=p == self.current_player))
        piles = []
        if self.current_player >= 0 or self.trick:
            note = ""
            h = self.holder()
            if h:
                note = f"{SUIT_PLURAL[self._led_suit()]} led · {NAMES[h[0]]} holds it with {h[1].label}"
            piles.append(Pile("Trick", [(NAMES[(self.leader + k) & 3], c) for k, c in enumerate(self.trick)],
                              note=note, kind="trick"))
        if self.turned_on_table and self.current_player != CHANCE:
            piles.append(Pile("Turned card", [(NAMES[self.dealer], self.turned)],
                              note=f"trumps; {NAMES[self.dealer]} takes it up at his first turn [WH-2.3]"))
        if self.done and not (self.current_player == CHANCE and self.log and self.log[-1]["kind"] != "played"):
            ld, cs, w = self.done[-1]
            piles.append(Pile("Last trick", [(NAMES[(ld + k) & 3], c) for k, c in enumerate(cs)],
                              kind="last-trick", note=self.trick_note(ld, cs, w), taker=w))
        if self.current_player == CHANCE and not self.hands_dealt and self.draw:
            piles.append(Pile("The draw for the deal", [(NAMES[p], c) for rnd in self.draw for p, c in rnd],
                              note=f"{NAMES[self.dealer]} deals the first hand [WH-1.3]"))
        for s in (0, 1):
            mine = [((ld + k) & 3, c) for ld, cs, w in self.done if w & 1 == s for k, c in enumerate(cs)]
            if teacher:
                piles.append(Pile(f"Won by {TEAMS[s]}", [(NAMES[q], c) for q, c in mine], kind="won"))
            else:                                 # quitted tricks lie face down (WH-4.3)
                piles.append(Pile(f"Won by {TEAMS[s]}", [], count=len(mine), kind="won"))
        legal = list(self.legal_actions()) if self.current_player >= 0 and player in (None, self.current_player) else []
        term = self.current_player == TERMINAL
        cp = self.current_player
        return View(g.name, g.title, player, seats, piles, self.status(), cp if cp >= 0 else None, term,
                    self.result_text() if term else "", legal, facts=self.facts())

    def facts(self) -> list:
        out = []
        if self.turned is not None and self.current_player != CHANCE and self.current_player != TERMINAL:
            t = self.turned.suit                  # (the trump suit)
            out.append(("Trumps", f"{SUIT_SYM[t]} {SUIT_TITLE[t]} (the {self.turned.label} turned by "
                                  f"{NAMES[self.dealer]})"))
        if self.dealer >= 0:
            if self.current_player == CHANCE:
                out.append(("Deal", f"{NAMES[self.dealer]} deals hand {self.hands_dealt + 1}"))
            elif self.current_player != TERMINAL:
                out.append(("Dealer", f"{NAMES[self.dealer]} — {NAMES[(self.dealer + 1) & 3]} deals next"))
        ns, ew = TEAMS
        if self._classic:
            t = self.game.target
            out.append(("Score", f"points {ns} {self.points[0]}, {ew} {self.points[1]} · games "
                                 f"{self.games[0]} to {self.games[1]} · {t} points a game, two games the rubber"))
        else:
            out.append(("Score", f"hand points {ns} {self.points[0]}, {ew} {self.points[1]} · game points "
                                 f"{self.games[0]} to {self.games[1]} · 7 game points win"))
        rules = "strict: a revoke is refused" if self._strict else \
            "as at the table: revokes may be played, corrected and claimed"
        if self._classic:
            rules = ("Long Whist" if self._ruleset == "long" else "Short Whist") + " (classic) · " + rules
        out.append(("Rules", rules))
        if not self._strict and self.current_player not in (CHANCE, TERMINAL):
            told = [r for r in self.revokes if r["state"] in ("claimed", "waived")]
            if told:
                out.append(("Revokes", "; ".join(
                    f"{NAMES[r['seat']]}'s in trick {r['trick']} " + ("claimed" if r["state"] == "claimed"
                                                                      else "not claimed") for r in told)))
        return out

    def trick_note(self, ld: int, cs, w: int) -> str:
        c = cs[(w - ld) & 3]
        return f"won by {NAMES[w]} with {c.label}, {self._why(cs, c)} [WH-4.3]"

    def _why(self, cs, c) -> str:
        if c.suit == self.trump and cs[0].suit != self.trump:
            k = sum(1 for x in cs if x.suit == self.trump)
            return "the only trump" if k == 1 else "the highest trump"
        if c is cs[0] and all(x.suit != c.suit for x in cs[1:]) and not any(x.suit == self.trump for x in cs):
            return f"the only {SUIT_ONE[c.suit]}, the suit led"
        return f"the highest {SUIT_ONE[c.suit]}" + (", the suit led" if c.suit != self.trump else
                                                    " (trumps were led)")

    def progress(self) -> tuple[str, str]:
        if self.current_player == CHANCE:
            return ("Drawing for the deal", "") if not self._drawn else (f"Hand {self.hands_dealt + 1}", "")
        if self.current_player == TERMINAL:
            return f"Hand {self.hands_dealt}", "End of the game"
        if self._phase == MISDEAL:
            return f"Hand {self.hands_dealt}", "Misdeal"
        return f"Hand {self.hands_dealt}", f"Trick {min(len(self.done) + 1, TRICKS)}"

    def score_table(self):
        ns, ew = TEAMS
        rows = []
        pt = "points" if self._classic else "hand points"
        gp = "games" if self._classic else "game points"
        for e in self.log:
            what = self.hand_text(e)
            t = e["trump"]
            rows.append([f"Hand {e['hand']}", NAMES[e["dealer"]], f"{SUIT_SYM[t.suit]} ({t.label})",
                         "—" if e["kind"] != "played" else f"{e['tricks'][0]} : {e['tricks'][1]}", what,
                         f"{e['points'][0]} : {e['points'][1]}", f"{e['games'][0]} : {e['games'][1]}"])
        return Table(["", "dealt by", "trumps", f"tricks {ns} : {ew}", "what was scored", f"{pt} after",
                      f"{gp} after"], rows, "The game hand by hand (WH-5)")

    def hand_text(self, e: dict) -> str:
        """What a finished hand scored, in words (public: the hand is over)."""
        if e["kind"] == "misdeal":
            shown = ", ".join(c.label for _, c in e["exposed"])
            return f"a misdeal ({shown} exposed): {NAMES[e['by']]} demanded a redeal [WH-3.3]"
        if e["kind"] == "revoked":
            return "both sides revoked: a revoked hand, dealt again [WH-4.7]"
        parts = []
        for s in e["claimed"]:
            side = TEAMS[s & 1]
            if self._classic:
                parts.append(f"{NAMES[s]}'s revoke: {TEAMS[1 - (s & 1)]} +3 [WH-5.6.3]")
            else:
                parts.append(f"{NAMES[s]}'s revoke: {side} give 2 hand points to {TEAMS[1 - (s & 1)]} [WH-5.2]")
        unit = "point" if self._classic else "hand point"
        late = not self._classic and self._late
        for s in (0, 1):
            k = e["tricks_scored"][s]
            if k:
                what = (f"{TEAMS[s]} took {k} of the tricks 7 to 13: {plural(k, unit)} [WH-5.1.1]" if late else
                        f"{TEAMS[s]} {e['tricks'][s]} tricks: {plural(k, unit)} [WH-5.1]")
                dropped = e.get("dropped", (0, 0))[s]
                if dropped:
                    reached = e.get("game", 1 - s)       # who reached 7: the other side, or this side itself
                    what += (f", {dropped} of them not counted: {TEAMS[s]} had already reached 7 hand points "
                             "[WH-5.4.1]" if reached == s else
                             f", {dropped} of them not counted: {TEAMS[1 - s]} had reached 7 hand points first "
                             "[WH-5.4.1]")
                parts.append(what)
        if e.get("honours_scored"):
            s, k = e["honours_scored"]
            n = e["honours"][s]
            if k:
                parts.append(f"{TEAMS[s]} held {n} honours: {plural(k, 'point')} [WH-5.6.2]")
            else:
                parts.append(f"{TEAMS[s]} held {n} honours, which do not count at {self.game.target - 1} "
                             "[WH-5.6.2]")
        for s in e["capped"]:
            if self._classic:
                parts.append(f"{TEAMS[s]} revoked and stay at {self.game.target - 1} [WH-5.6.3]")
            elif e["game"] == s:
                parts.append(f"{TEAMS[s]} revoked: their game points stop at 6 [WH-5.3]")
            else:
                parts.append(f"{TEAMS[s]} revoked: their hand points stop at 6 [WH-5.3]")
        if e["game"] is not None:
            s = e["game"]
            if self._classic:
                parts.append(f"{TEAMS[s]} win a game [WH-5.6.4]")
            else:
                other = e["hand_points_at_game"][1 - s]
                o = f"({other})".replace("-", "−") if other < 0 else str(other)
                parts.append(f"{TEAMS[s]} reach 7 hand points: 7 − {o} = "
                             f"{plural(SOURCE_TARGET - other, 'game point')}"
                             + (f", {e['game_points']} counted" if s in e["capped"] else "") + " [WH-5.4]")
        if not parts:
            parts.append("nothing scored")
        return "; ".join(parts)

    def status(self) -> str:
        cp = self.current_player
        if cp == CHANCE:
            if not self._drawn:
                return "Drawing cards for the first deal [WH-1.3]."
            return f"Hand {self.hands_dealt + 1}: {NAMES[self.dealer]} is about to deal."
        if cp == TERMINAL:
            return self.result_text()
        who = NAMES[cp]
        ph = self._phase
        if ph == MISDEAL:
            shown = ", ".join(f"{c.label} (to {NAMES[q]})" for q, c in self.exposed)
            return f"A misdeal: {shown} exposed in the deal. {who}: demand a redeal, or play on? [WH-3.3]"
        if ph == ASKED:
            return (f"{who} did not follow suit: “Having none?” asks his partner {NAMES[(cp + 2) & 3]} "
                    f"[WH-4.5].")
        if ph == CLAIMING:
            r = self._claims[0]
            return (f"{NAMES[r['seat']]}'s revoke in trick {r['trick']} has shown: {who} may claim it for "
                    f"{TEAMS[cp & 1]} [WH-4.6].")
        if ph == CALLING:
            holder = self._call_holder()
            shown = " or the ".join(c.label for c in self._liable(holder))
            return (f"{NAMES[holder]} is to play and holds the {shown} face up: {who} may call it to be played "
                    f"now [WH-4.8.1].")
        n = len(self.done) + 1
        if not self.trick:
            prefix = ""
            if n == 1 and self.log and self.log[-1]["kind"] == "played":
                prefix = f"Last hand: {self.hand_text(self.log[-1])}. "
            return f"{prefix}Hand {self.hands_dealt}, trick {n}: {who} leads."
        h = self.holder()
        return f"{who} plays ({SUIT_PLURAL[self._led_suit()]} led; {NAMES[h[0]]} holds the trick with {h[1].label})."

    def result_text(self) -> str:
        if not self.log:
            return ""
        s = 0 if self.games[0] > self.games[1] else 1
        n = self.hands_dealt
        if self._classic:
            return (f"{TEAMS[s]} win the rubber, {self.games[s]} games to {self.games[1 - s]}, after "
                    f"{plural(n, 'hand')}.")
        return (f"{TEAMS[s]} win the game, {self.games[s]} game points to {self.games[1 - s]}, after "
                f"{plural(n, 'hand')}.")

    # narration -------------------------------------------------------------------------------------
    def _aftermath(self, after) -> str:
        """What follows by itself from an action: the dealer takes up the turned card, a trick ends, a
        claim is offered, the hand is scored, the game is won."""
        out = ""
        if self.turned_on_table and not after.turned_on_table and after.hands_dealt == self.hands_dealt:
            turned = self.turned
            assert turned is not None
            out += f" {NAMES[self.dealer]} takes the turned {turned.label} into his hand [WH-2.3]."
        if len(after.done) > len(self.done):
            ld, cs, w = after.done[-1]
            c = cs[(w - ld) & 3]
            out += (f" {NAMES[w]} takes the trick with {c.label}, {self._why(cs, c)} [WH-4.3]: "
                    f"{TEAMS[0]} {after.won[0]}, {TEAMS[1]} {after.won[1]}.")
        if after._phase == CLAIMING and (self._phase != CLAIMING or after._claims[:1] != self._claims[:1]):
            r = after._claims[0]
            out += (f" {NAMES[r['seat']]}'s revoke has shown: he had no {SUIT_ONE[r['suit']]} in trick "
                    f"{r['trick']}, he said, and now a {SUIT_ONE[r['suit']]} of his is on the table; "
                    f"{NAMES[after.current_player]} may claim it [WH-4.6].")
        if after._phase == CALLING and self._phase != CALLING:
            holder = after._call[0]
            out += (f" {NAMES[holder]} holds the " + " and the ".join(c.label for c in after._liable(holder))
                    + f" face up: {NAMES[after.current_player]} may call it [WH-4.8.1].")
        if len(after.log) > len(self.log):
            e = after.log[-1]
            if e["kind"] == "revoked":
                out += f" Both sides have revoked: a revoked hand; {NAMES[e['dealer']]} deals again [WH-4.7]."
            elif e["kind"] == "played":
                out += f" The hand is over [WH-4.9]: {after.hand_text(e)}."
                if after.current_player == TERMINAL:
                    out += " " + after.result_text()
        return out

Whist.State = WhistState
GAME = Whist


# --- tables generated from the engine ----------------------------------------------------------------
def trick_table() -> Table:
    """WH-4.3: who takes a few tricks (hearts led, spades trumps), decided by `cardkit.tricks.winner`."""
    p = FRENCH52.parse_many
    rows = []
    for cards, what in (("7H KH 2H AH", "all follow suit"), ("7H KH 2S AH", "a player with no heart trumps"),
                        ("7H 3S QS AH", "two trump"), ("7H AD 2H 3C", "the Ace of another suit"),
                        ("3S 7H AH 2S", "trumps led")):
        cs = p(cards)
        k = winner(cs, SUIT_OF, POWER, "S")
        c = cs[k]
        trumps = sum(1 for x in cs if x.suit == "S")
        if c.suit == "S" and cs[0].suit != "S":
            why = "the only trump" if trumps == 1 else "the highest trump"
        elif c.suit == "S":
            why = "the highest spade: trumps were led"
        else:
            why = "the highest heart, the suit led"
        rows.append([what, " ".join(x.label for x in cs), f"{NAMES[k]} with {c.label}", f"{why} (WH-4.3)"])
    return Table(["the trick", "cards played in turn (South leads)", "takes it", "why"], rows,
                 "Hearts led, spades trumps: who takes the trick")


def rulesets_table(opts: dict) -> Table:
    """WH-5.6: the scoring under the rules in force, row by row (a switch marks where the classic game
    differs from the quick rules)."""
    rs = opts["ruleset"]
    if rs == "source":
        bar = ("its seventh game point: it cannot win the game (WH-5.3)" if opts["revoke_bar"] == "game" else
               "its seventh hand point: it scores no game points (WH-5.3)")
        rows = [["a hand's tricks", "1 hand point for each trick beyond six (WH-5.1)"],
                ["honours (A K Q J of trumps)", "not counted"],
                ["a claimed revoke", "2 hand points move from the revoking side to the claimants (WH-5.2)"],
                ["a side that revoked, in that hand, cannot win", bar],
                ["scoring up", "7 hand points score 7 less the opponents' hand points as game points (WH-5.4)"],
                ["the winner", "the first side to 7 game points (WH-5.5)"]]
    else:
        t = CLASSIC_TARGET[rs]
        rows = [["a hand's tricks", "1 point for each trick beyond six (WH-5.1)"],
                ["honours (A K Q J of trumps)", f"4 points for all four, 2 for three; none for a side at {t - 1} "
                                                "(WH-5.6.2)"],
                ["a claimed revoke", "the claimants score 3 points (WH-5.6.3)"],
                ["a side that revoked, in that hand, cannot win", f"a game: it stays at {t - 1} (WH-5.6.3)"],
                ["scoring up", f"{t} points win a game (WH-5.6.4)"],
                ["the winner", "the first side to win two games: the rubber (WH-5.6.4)"]]
    return Table(["", "under the rules in force"], rows, "The scoring: the quick rules and the classic game")
